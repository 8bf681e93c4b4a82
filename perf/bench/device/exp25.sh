#!/usr/bin/env bash
# Session 8: exp23's differential with holes lost solutions on CUDA (72 of 2,000 models, all-solutions
# sets short of Gecode's; none on the host). exp24 (variants through diff.py, output piped through tail)
# ran past the call's limit and left nothing: this one writes each line to $OUT/log.txt as it goes and
# bounds every step. (1) nine failing models (gpu-holes/fails), twice each, per option variant, through
# one kcp_batch process per variant: solutions found against Gecode's count; (2) racecheck on one.
# usage (device): bash perf/bench/device/exp25.sh REV; carry build/gpu/bin/kcp-REV,
# build/gpu/race/kcp_batch-REV, gpu-holes/fails/.
set -u
REV=$1; B=build/gpu/bin/kcp-$REV; KB=build/gpu/race/kcp_batch-$REV
export OMP_PROC_BIND=false
L=$OUT/log.txt; t0=$SECONDS
log() { echo "$*" >> $L; }
F=gpu-holes/fails
variant() {
  local label=$1; shift
  local d=/tmp/v-$label; mkdir -p $d; : > $d/list
  for rep in 1 2; do for f in $F/m*.fzn; do m=$(basename $f .fzn)
    echo "$d/$m-$rep --space cuda -a $* $f" >> $d/list; done; done
  local s0=$SECONDS
  timeout 40 $KB < $d/list > /dev/null 2>&1; local rc=$?
  local line="$label rc=$rc $((SECONDS - s0)) s:" short=0
  for f in $F/m*.fzn; do m=$(basename $f .fzn); want=$(grep -c -- ---------- $F/$m.gecode.txt)
    for rep in 1 2; do got=$(grep -c -- ---------- $d/$m-$rep.out 2>/dev/null || echo x)
      [ "$got" != "$want" ] && { line="$line $m:$got/$want"; short=$((short + 1)); }; done; done
  log "$line  (short: $short of 18)"
}
log "start $(date -u +%T)"
variant default
variant probe0 --probe-ms 0
variant teams1 --teams 1
variant teams1-p10 --teams 1 --subproblems 10
variant p0 --subproblems 0
variant span0 --bitset-span 0
variant ts1 --team-size 1
variant vl1 --vector-length 1
variant ts1vl1 --team-size 1 --vector-length 1
variant ac1 --fixpoint ac1
variant copy0 --copy-distance 0
variant nosnap --no-snapshot
log "== variants $((SECONDS - t0)) s"
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 150 $CS --tool racecheck --racecheck-report hazard $B --space cuda -a --teams 2 --subproblems 4 $F/m10.fzn > $OUT/racecheck-m10.txt 2>&1
log "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $OUT/racecheck-m10.txt) solutions $(grep -c -- ---------- $OUT/racecheck-m10.txt)"
log "== $((SECONDS - t0)) s"
cat $L
