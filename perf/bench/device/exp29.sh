#!/usr/bin/env bash
# Session 9, issue 17. exp28 (diagE) caught it: at the first incomplete node a `!=` row with one free
# term ran remove(x3, 4) on a word holding 4 and 6 (...fffd) and reported no change, twice in a row,
# through the 64-bit atomicAnd of the shared store (Kokkos::atomic_fetch_and on team scratch), while the
# same call through plain loads and stores removed it. This call compares the ways of clearing bits in
# the shared store (KCP_DIAG bits 5-6, diagnosis only): 0 (the candidate fix) 32-bit atomicAnd on the
# half word holding the bits, 1 the 64-bit atomicAnd as before, 2 a 64-bit atomicCAS loop.
# (A) the check build on model 10 (two shapes) per mode; (B) the 19 models exp26 failed, 3 times each,
# per mode; (C) the differential with holes, 2,000 models, with mode 0.
# usage (device): bash perf/bench/device/exp29.sh REV; carry build/gpu (bin/kcp-REV, bin/kcp-check-REV,
# race/kcp_batch-REV, holes/holes.tgz).
set -u
REV=$1; B=build/gpu/bin/kcp-$REV; C=build/gpu/bin/kcp-check-$REV; KB=build/gpu/race/kcp_batch-$REV
export OMP_PROC_BIND=false
L=$OUT/log.txt; t0=$SECONDS
log() { echo "$*" >> $L; }
tar xzf build/gpu/holes/holes.tgz -C /tmp
log "start $(date -u +%T) $(nvidia-smi --query-gpu=name --format=csv,noheader)"
check() {
  local label=$1 m=$2; shift 2
  local want; want=$(grep -c -- ---------- ${m%.fzn}.gecode.txt)
  local got; got=$(timeout 40 $C --space cuda --bitset-span 64 -a "$@" $m 2> /tmp/check.err | grep -c -- ----------)
  log "$label $(basename $m) $got/$want $(grep kcp-check: /tmp/check.err | tail -1 | sed 's/first=.*//')"
}
if [ -x "$C" ]; then
  for mode in 0 1 2; do
    for shape in "" "--vector-length 1"; do KCP_DIAG=$((mode * 32)) check "mode$mode[$shape]" /tmp/s20261125/m10.fzn $shape; done
  done
  log "== checks $((SECONDS - t0)) s"
fi
replay() {
  local label=$1 dir=$2 limit=$3 logarg=""
  [ "$dir" != /tmp/fails25 ] && logarg="--log $OUT/differential-holes-cuda.csv"
  timeout $limit python3 tests/differential/diff.py --kcp $B --batch $KB --replay $dir \
    --jobs ${JOBS:-8} --keep /tmp/kept-$label $logarg -- --space cuda --bitset-span 64 \
    > /tmp/replay-$label.txt 2>&1
  log "$label rc=$? $(tail -1 /tmp/replay-$label.txt) ($((SECONDS - t0)) s)"
}
for mode in 1 2 0; do
  for rep in 1 2 3; do KCP_DIAG=$((mode * 32)) replay mode$mode-r$rep /tmp/fails25 60; done
done
replay full-25 /tmp/s20261125 220
replay full-26 /tmp/s20261126 220
ls /tmp/kept-full-25 /tmp/kept-full-26 2>/dev/null | head -20 >> $L
log "== $((SECONDS - t0)) s"
cat $L
