#!/usr/bin/env bash
# Session 4: exp9's launch-bounds comparison found kcp-lb4 (KCP_CUDA_MIN_BLOCKS=4) printing a solution
# of accap_a4 that its checker rejected. Cause: a race between two consecutive team reductions in
# select_branch inside Kokkos 3.4's CUDA inter-warp reduction (search/branching.hpp; perf/NOTES.md,
# entry 6). One call:
#   1. the new test EveryThreadChoosesTheSameBranchAfterFixedPhases on CUDA before the fix (expected to
#      fail) and after; racecheck on it before and after;
#   2. the whole CUDA test binary after the fix;
#   3. accap_a4, 6 runs of 4 s each, with the lb4 build before the fix (exp9) and after;
#   4. exp9's subset at 4 s with the fixed builds lb2, lb3, lb4.
# Carry gpu-bench and build/gpu/fix.tar.xz (kcp_tests-prefix, kcp_tests-fix, kcp-lb4-prefix,
# kcp-fix-lb2, kcp-fix-lb3, kcp-fix-lb4).
set -u
REV=exp11
B=unused
source perf/bench/device/common.sh
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv > $OUT/b/gpu.txt 2>&1
F=/tmp/fix; mkdir -p $F; tar xJf build/gpu/fix.tar.xz -C $F
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
export OMP_PROC_BIND=false
T='*EveryThreadChooses*Cuda*'
for v in prefix fix; do
  for i in 1 2 3; do timeout 60 $F/kcp_tests-$v --gtest_filter="$T" 2>&1 | grep -E "Failure|Expected|Which is|actual|^\[  (PASSED|FAILED)" ; done > $OUT/b/agreement-$v.txt
  echo "$v: $(grep -c PASSED $OUT/b/agreement-$v.txt) of 3 passed"
  timeout 100 $CS --tool racecheck $F/kcp_tests-$v --gtest_filter="$T" > $OUT/b/racecheck-agreement-$v.txt 2>&1
  echo "racecheck $v rc=$?: $(grep -E 'RACECHECK SUMMARY|hazard' $OUT/b/racecheck-agreement-$v.txt | tail -2 | tr '\n' ' ')"
done
timeout 170 $F/kcp_tests-fix > $OUT/b/kcp_tests-cuda-fix.txt 2>&1; echo "kcp_tests rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/b/kcp_tests-cuda-fix.txt
for bin in kcp-lb4-prefix kcp-fix-lb4; do
  for i in 1 2 3 4 5 6; do
    timeout 30 $F/$bin -s --check -t 4000 --space cuda /tmp/inst/accap_accap_a4_f30_t15.fzn > /tmp/o.txt 2>&1
    echo "$bin run $i rc=$? $(grep -c '^----------' /tmp/o.txt) solutions $(grep -m1 'internal error' /tmp/o.txt)"
  done
done | tee $OUT/b/accap-repro.txt
SUB="rcpsp_J30_20_6 rcpsp_J30_13_9 accap_accap_a4_f30_t15 wordpress_Wordpress7_Offers500 triangular_n39 sudoku-opt_sudoku_p20"
for bin in kcp-fix-lb2 kcp-fix-lb3 kcp-fix-lb4; do
  B=$F/$bin REV=$bin configuration $bin cuda 4 "$SUB"
done
(cd $OUT/b && tar czf ../exp11.tgz . ); rm -rf $OUT/b
