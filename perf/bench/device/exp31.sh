#!/usr/bin/env bash
# Session 10, issue 18: the global families on the H100.
#   exp31.sh REV tests     the whole CUDA test binary (the globals' team = serial cases among them)
#   exp31.sh REV std HALF  half of the 15 s sweep on the standard-library FlatZinc (gpu-bench/)
#   exp31.sh REV lib       the 15 s sweep of the instances whose FlatZinc with kcp's mznlib calls a
#                          kcp_ builtin (gpu-bench-mznlib/: benchmarks/scripts/compile.sh dev.list DIR mznlib)
# Carry build/gpu/bin/kcp-REV (and kcp_tests-REV for tests), gpu-bench (std), gpu-bench-mznlib (lib).
set -u
REV=$1; mode=$2; B=build/gpu/bin/kcp-$REV
mkdir -p $OUT/b
case $mode in
  tests)
    timeout 420 build/gpu/bin/kcp_tests-$REV > $OUT/kcp_tests-cuda-$REV.txt 2>&1
    echo "rc=$?" >> $OUT/kcp_tests-cuda-$REV.txt
    grep -E "^\[  (PASSED|FAILED) |tests ran" $OUT/kcp_tests-cuda-$REV.txt | tail -8 ;;
  std)
    REV=$REV bash perf/bench/device/sweep.sh $3 cuda cuda-15s-$REV ;;
  lib)
    mkdir -p /tmp/lib
    for f in gpu-bench-mznlib/*.fzn.gz; do gunzip -c $f > /tmp/lib/$(basename $f .gz); done
    OMP_PROC_BIND=spread OMP_PLACES=threads python3 perf/bench/run.py --kcp $B --revision $REV --space cuda \
      --timeout 15 --instances /tmp/lib --label cuda-15s-mznlib-$REV --machine nvidia-h100 \
      --out $OUT/b/cuda-15s-mznlib-$REV.csv 2>&1 | tail -3 ;;
esac
