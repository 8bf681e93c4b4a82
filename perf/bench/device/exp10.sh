#!/usr/bin/env bash
# Prepared in session 3 for the next device call (issue 9): the differential models replayed on CUDA
# against Gecode's answers computed on the VM, and racecheck over every CUDA test case.
#   here: for s in 20261200 20261201 20261202 20261203; do
#           tests/differential/diff.py --emit /tmp/cuda-diff/$s --models 2500 --seed $s; done
#         tar czf gpu-bench/cuda-diff.tgz -C /tmp cuda-diff
#   device: bash perf/bench/device/exp10.sh REV   (carry gpu-bench and build/gpu/bin: kcp-REV, kcp_tests-REV)
set -u
REV=$1
B=build/gpu/bin/kcp-$REV
T=build/gpu/bin/kcp_tests-$REV
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
mkdir -p $OUT/b
tar xzf gpu-bench/cuda-diff.tgz -C /tmp
# 1. Differential on CUDA, 4 batches of 2,500: 8 kcp processes share the GPU (small models, one CUDA
#    context each); each finished batch appends its row.
for d in /tmp/cuda-diff/*; do
  timeout 200 python3 tests/differential/diff.py --kcp $B --replay $d --jobs 8 --keep $OUT/b/diff-kept \
    --log $OUT/b/differential-cuda.csv -- --space cuda 2>&1 | tail -3
done
# 2. racecheck over every CUDA case of the test binary.
OMP_PROC_BIND=false timeout 280 $CS --tool racecheck --error-exitcode 9 $T --gtest_filter='*Cuda*' \
  > $OUT/b/racecheck-all-$REV.txt 2>&1; echo "racecheck rc=$?"; tail -3 $OUT/b/racecheck-all-$REV.txt
(cd $OUT/b && tar czf ../exp10.tgz . ); rm -rf $OUT/b
