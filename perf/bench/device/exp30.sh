#!/usr/bin/env bash
# Session 9, issue 17. exp29: clearing the bit through a 32-bit atomicAnd, the 64-bit one or a 64-bit
# CAS loop fails alike (19 models, 3 runs each: 8-13 failed per run), so the atomic instruction is not
# the cause; with --vector-length 1 every incomplete node follows a restore, whose copy writes the
# bounds and words with plain stores. This call: the same 19 models with the restore's copy written
# through atomic exchanges (KCP_DIAG 128 the words, 256 the bounds), a fence after it (512), and AC1
# (--fixpoint ac1); then the whole differential (2,000 models) with the first variant that failed
# nothing, else with AC1.
# usage (device): bash perf/bench/device/exp30.sh REV; carry build/gpu (bin/kcp-REV, race/kcp_batch-REV,
# holes/holes.tgz).
set -u
REV=$1; B=build/gpu/bin/kcp-$REV; KB=build/gpu/race/kcp_batch-$REV
export OMP_PROC_BIND=false
L=$OUT/log.txt; t0=$SECONDS
log() { echo "$*" >> $L; }
tar xzf build/gpu/holes/holes.tgz -C /tmp
log "start $(date -u +%T) $(nvidia-smi --query-gpu=name --format=csv,noheader)"
failed=0
replay() {
  local label=$1 dir=$2 limit=$3; shift 3
  local logarg=""
  [ "$dir" != /tmp/fails25 ] && logarg="--log $OUT/differential-holes-cuda.csv"
  timeout $limit python3 tests/differential/diff.py --kcp $B --batch $KB --replay $dir \
    --jobs ${JOBS:-8} --keep /tmp/kept-$label $logarg -- --space cuda --bitset-span 64 "$@" > /tmp/replay-$label.txt 2>&1
  local rc=$?
  failed=$(tail -1 /tmp/replay-$label.txt | grep -o '[0-9]* failed' | grep -o '[0-9]*' || echo 99)
  log "$label rc=$rc $(tail -1 /tmp/replay-$label.txt) ($((SECONDS - t0)) s)"
}
best=""
for v in "0" "128" "384" "512" "0 ac1"; do
  set -- $v; diag=$1; extra=""; [ "${2:-}" = ac1 ] && extra="--fixpoint ac1"
  total=0
  for rep in 1 2 3; do
    KCP_DIAG=$diag replay "d$diag${2:+-$2}-r$rep" /tmp/fails25 60 $extra
    total=$((total + failed))
  done
  log "variant diag=$diag $extra: $total failed of 57"
  [ -z "$best" ] && [ "$total" = 0 ] && best="$v"
done
[ -z "$best" ] && best="0 ac1"
set -- $best; diag=$1; extra=""; [ "${2:-}" = ac1 ] && extra="--fixpoint ac1"
log "full differential with diag=$diag $extra"
KCP_DIAG=$diag replay full-25 /tmp/s20261125 200 $extra
KCP_DIAG=$diag replay full-26 /tmp/s20261126 200 $extra
log "== $((SECONDS - t0)) s"
cat $L
