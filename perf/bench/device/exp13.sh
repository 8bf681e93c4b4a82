#!/usr/bin/env bash
# Session 4, issue 9's CUDA differential through kcp_batch (one process per share, Kokkos started once:
# exp12's process per model judged 3.4 models a second), with racecheck on the CUDA cases exp12 did
# not reach (the propagator-family and fixpoint cases; the search cases take minutes each under it).
# usage (device): [START=K DEADLINE=S JOBS=N NORACE=1] bash perf/bench/device/exp13.sh REV (START: skip the first K
# models of each batch); carry gpu-bench/cuda-diff.tgz,
# build/gpu/bin/kcp-REV and build/gpu/race (kcp_batch-REV, kcp_tests-REVq).
source perf/bench/device/sanitize-common.sh "$1"
race() {
  racecheck_cases 420 ElementOnBackend/Cuda.TeamPropagationEqualsTheSerialReference \
    LinearOnBackend/Cuda.TeamPropagationEqualsTheSerialReferencePerRow LinearOnBackend/Cuda.ReifiedRowsEqualTheSerialReference \
    TernaryOnBackend/Cuda.TeamPropagationEqualsTheSerialReferencePerOp FixpointOnBackend/Cuda.QueueFixpointFromTheRootEqualsSerial \
    FixpointOnBackend/Cuda.QueueFixpointFromEventsEqualsSerialRoundAfterRound \
    FixpointOnBackend/Cuda.TeamFixpointEqualsSerialFixpointOnRandomNetworks
}
diffs() {
  tar xzf gpu-bench/cuda-diff.tgz -C /tmp
  for d in /tmp/cuda-diff/*; do
    timeout 120 python3 tests/differential/diff.py --kcp $B --batch build/gpu/race/kcp_batch-$REV --replay $d --jobs ${JOBS:-4} --start ${START:-0} \
      --deadline ${DEADLINE:-90} --keep $OUT/b/diff-kept --log $OUT/b/differential-cuda-batch.csv -- --space cuda 2>&1 | tail -2
  done
}
[ -z "${NORACE:-}" ] && race > $OUT/b/racecheck.txt 2>&1 &
diffs > $OUT/b/diff.txt 2>&1
wait
cat $OUT/b/diff.txt $OUT/b/racecheck.txt 2>/dev/null
(cd $OUT/b && tar czf ../exp13.tgz . ); rm -rf $OUT/b
