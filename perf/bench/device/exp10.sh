#!/usr/bin/env bash
# Prepared in session 3 for the next device calls (issue 9), one step per call (each under 600 s):
#   tests: the whole CUDA test binary without a sanitizer (about 40 s): the code after c1e83d8 (launch
#          bounds, team-shape checks, one host program) has only been compiled for CUDA, not run;
#   diff:  the differential models replayed on CUDA against Gecode's answers computed on the VM;
#   race:  racecheck over every CUDA test case.
# Models: for s in 20261200 20261201 20261202 20261203; do
#           tests/differential/diff.py --emit /tmp/cuda-diff/$s --models 2500 --seed $s; done
#         tar czf gpu-bench/cuda-diff.tgz -C /tmp cuda-diff
# usage (device): bash perf/bench/device/exp10.sh REV tests|diff|race
#   (carry gpu-bench and build/gpu/bin, which holds kcp-REV and kcp_tests-REV)
set -u
REV=$1 STEP=$2
B=build/gpu/bin/kcp-$REV
T=build/gpu/bin/kcp_tests-$REV
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
mkdir -p $OUT/b
export OMP_PROC_BIND=false
case $STEP in
  tests)
    timeout 150 $T > $OUT/b/kcp_tests-cuda-$REV.txt 2>&1; echo "kcp_tests rc=$?"
    grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/b/kcp_tests-cuda-$REV.txt ;;
  diff)
    # 4 batches of 2,500, 8 kcp processes sharing the GPU (small models, one CUDA context each); each
    # finished batch appends its row.
    tar xzf gpu-bench/cuda-diff.tgz -C /tmp
    for d in /tmp/cuda-diff/*; do
      timeout 135 python3 tests/differential/diff.py --kcp $B --replay $d --jobs 8 --keep $OUT/b/diff-kept \
        --log $OUT/b/differential-cuda.csv -- --space cuda 2>&1 | tail -3
    done ;;
  race)
    timeout 560 $CS --tool racecheck --error-exitcode 9 $T --gtest_filter='*Cuda*' \
      > $OUT/b/racecheck-all-$REV.txt 2>&1; echo "racecheck rc=$?"; tail -3 $OUT/b/racecheck-all-$REV.txt ;;
esac
(cd $OUT/b && tar czf ../exp10-$STEP.tgz . ); rm -rf $OUT/b
