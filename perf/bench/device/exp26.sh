#!/usr/bin/env bash
# Session 9, issue 17: the CUDA differential with holes lost solutions (entry 14). Hypothesis: the final
# sweep of the fixpoint ran normalise(x) on every lane of a vector group (a TeamThreadRange body runs on
# all lanes) and Kokkos' team reduction keeps lane 0's value; a lane that saw the bound already moved
# by another says "unchanged", the queue fixpoint stops with the sweep's events unprocessed and their
# touched flags set for good (that variable's later changes wake nothing: incomplete fixpoints, teams
# disagreeing on the tree above the split). The binaries carry the fix (one lane runs normalise and
# all learn its result) and, for this diagnosis only, KCP_SWEEP_ALL_LANES=1 restores the old sweep.
# (1) the KCP_CHECK_INVARIANTS build on model 10 (seed 20261125), old and new sweep, four team shapes:
#     leaked events, unnormalised stores, incomplete fixpoints, tree disagreements above the split;
# (2) the differential with holes, 2,000 models (exp23's seeds) through kcp_batch, new sweep; seed
#     20261125 with the old sweep too (it failed 35 at 33712ea); (3) the check build on the models the
#     old sweep failed.
# Every run passes --bitset-span 64: at 1455655 the GPU's default is 0 (the first try of this script,
# without it, ran bounds-only stores and passed everything, old sweep included).
# usage (device): bash perf/bench/device/exp26.sh REV; carry build/gpu (bin/kcp-REV, bin/kcp-check-REV,
# race/kcp_batch-REV, holes/holes.tgz: diff.py --emit of both seeds as s20261125/, s20261126/).
set -u
REV=$1; B=build/gpu/bin/kcp-$REV; C=build/gpu/bin/kcp-check-$REV; KB=build/gpu/race/kcp_batch-$REV
export OMP_PROC_BIND=false
L=$OUT/log.txt; t0=$SECONDS
log() { echo "$*" >> $L; }
tar xzf build/gpu/holes/holes.tgz -C /tmp
M10=/tmp/s20261125/m10.fzn
log "start $(date -u +%T) $(nvidia-smi --query-gpu=name --format=csv,noheader)"
# check RUNLABEL MODEL [kcp args]: solutions (against Gecode's) and the check line
check() {
  local label=$1 m=$2; shift 2
  local want; want=$(grep -c -- ---------- ${m%.fzn}.gecode.txt)
  local got; got=$(timeout 30 $C --space cuda --bitset-span 64 -a "$@" $m 2> /tmp/check.err | grep -c -- ----------)
  log "$label $(basename $m) $got/$want rc=$? $(grep kcp-check /tmp/check.err | tail -1)"
}
for shape in "" "--team-size 1" "--vector-length 1" "--fixpoint ac1"; do
  for rep in 1 2; do
    KCP_SWEEP_ALL_LANES=1 check "old[$shape]" $M10 $shape
    check "new[$shape]" $M10 $shape
  done
done
log "== checks $((SECONDS - t0)) s"
# differential replay: LABEL SEED DEADLINE [env]
replay() {
  local label=$1 seed=$2 deadline=$3

  timeout $((deadline + 60)) python3 tests/differential/diff.py --kcp $B --batch $KB --replay /tmp/s$seed \
    --jobs ${JOBS:-8} --deadline $deadline --keep /tmp/kept-$label --log $OUT/differential-holes-cuda.csv \
    -- --space cuda --bitset-span 64 > /tmp/replay-$label.txt 2>&1
  log "$label rc=$? $(tail -1 /tmp/replay-$label.txt) ($((SECONDS - t0)) s)"
  ls /tmp/kept-$label 2>/dev/null | head -40 | tr '\n' ' ' >> $L; echo >> $L
}
replay new-25 20261125 150
export KCP_SWEEP_ALL_LANES=1
replay old-25 20261125 90
unset KCP_SWEEP_ALL_LANES
replay new-26 20261126 150
# the check build on what the old sweep failed (its kept folders are named after the models)
for m in $(ls /tmp/kept-old-25 2>/dev/null | grep -o 'model[0-9]*' | sed 's/model/m/' | sort -u | head -6); do
  KCP_SWEEP_ALL_LANES=1 check "old" /tmp/s20261125/$m.fzn
  check "new" /tmp/s20261125/$m.fzn
done
log "== $((SECONDS - t0)) s"
cat $L
