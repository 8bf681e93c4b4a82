#!/usr/bin/env bash
# Session 9, issue 17, second call. exp26 showed (KCP_CHECK_INVARIANTS build, model 10): the event-driven
# fixpoint ends incomplete on the GPU with bitsets (a serial fixpoint still narrows; AC1 never), with no
# leaked event and a normalised store; with --vector-length 1 only at nodes recomputed after a restore.
# The one-lane sweep changed nothing. This call tries diagnosis toggles (KCP_DIAG, diagnosis only):
# 1 replay the decisions on one thread, 2 a full fixpoint (every propagator) after every restore,
# 4 a full fixpoint at every node, 8 a memory fence before every barrier of the queue fixpoint and
# after the replay. (A) the check build on model 10 per toggle and team shape, with the first
# incomplete node's entry state; (B) the release build on 19 models that failed in exp26, 3 times
# each, per toggle.
# usage (device): bash perf/bench/device/exp27.sh REV; carry build/gpu (bin/kcp-REV, bin/kcp-check-REV,
# race/kcp_batch-REV, holes/holes.tgz with s20261125/, s20261126/, fails25/).
set -u
REV=$1; B=build/gpu/bin/kcp-$REV; C=build/gpu/bin/kcp-check-$REV; KB=build/gpu/race/kcp_batch-$REV
export OMP_PROC_BIND=false
L=$OUT/log.txt; t0=$SECONDS
log() { echo "$*" >> $L; }
tar xzf build/gpu/holes/holes.tgz -C /tmp
M10=/tmp/s20261125/m10.fzn
log "start $(date -u +%T) $(nvidia-smi --query-gpu=name --format=csv,noheader)"
check() {
  local label=$1 m=$2; shift 2
  local want; want=$(grep -c -- ---------- ${m%.fzn}.gecode.txt)
  local got; got=$(timeout 30 $C --space cuda --bitset-span 64 -a "$@" $m 2> /tmp/check.err | grep -c -- ----------)
  log "$label $(basename $m) $got/$want $(grep kcp-check: /tmp/check.err | tail -1 | sed 's/first=.*//')"
  grep kcp-check-first /tmp/check.err | tail -1 >> $OUT/first.txt
}
for shape in "" "--vector-length 1" "--team-size 1"; do
  for diag in 0 1 2 4 8; do
    echo "== diag $diag [$shape]" >> $OUT/first.txt
    KCP_DIAG=$diag check "diag$diag[$shape]" $M10 $shape
  done
done
for m in m205 m214; do for diag in 0 2 4; do KCP_DIAG=$diag check "diag$diag" /tmp/s20261125/$m.fzn; done; done
log "== checks $((SECONDS - t0)) s"
replay() {
  local label=$1
  timeout 120 python3 tests/differential/diff.py --kcp $B --batch $KB --replay /tmp/fails25 \
    --jobs ${JOBS:-8} --keep /tmp/kept-$label -- --space cuda --bitset-span 64 > /tmp/replay-$label.txt 2>&1
  log "$label rc=$? $(tail -1 /tmp/replay-$label.txt) ($((SECONDS - t0)) s)"
}
for diag in 0 1 2 4 8 10; do
  for rep in 1 2 3; do KCP_DIAG=$diag replay diag$diag-r$rep; done
done
log "== $((SECONDS - t0)) s"
cat $L
