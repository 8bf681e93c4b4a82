#!/usr/bin/env bash
# Session 14, issue 23 (learning, stage 2): the CUDA test binary's CUDA, portfolio, learning,
# explaining and EndToEnd cases; compute-sanitizer memcheck on the learning cases (quick, the
# explaining thread beside the GPU in one of their shapes) and on one kcp run with --learn explain;
# then, with SWEEP=a|b LABEL=L [kcp args], a half of the 15 s sweep (exp35's).
# usage (device): [SKIP_TESTS=1] [SWEEP=a|b LABEL=L] bash perf/bench/device/exp41.sh REV [kcp args];
# carry build/gpu/bin/kcp-REV.gz, kcp_tests-REV.gz (gzipped for the carry limit), gpu-bench*
set -u
REV=$1; shift
B=build/gpu/bin/kcp-$REV
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
export OMP_PROC_BIND=false
t0=$SECONDS
gunzip -c build/gpu/bin/kcp-$REV.gz > $B && chmod +x $B
mkdir -p $OUT/b
if [ -z "${SKIP_TESTS:-}" ]; then
  gunzip -c build/gpu/bin/kcp_tests-$REV.gz > /tmp/kcp_tests && chmod +x /tmp/kcp_tests
  timeout 300 /tmp/kcp_tests --gtest_filter='*Cuda*:*Portfolio*:*Learning*:*Explaining*:EndToEnd*' > $OUT/kcp_tests-cuda-$REV.txt 2>&1
  echo "rc=$?" >> $OUT/kcp_tests-cuda-$REV.txt
  grep -E "^\[  (PASSED|FAILED)|^rc=" $OUT/kcp_tests-cuda-$REV.txt | head
  echo "== tests $((SECONDS - t0)) s"
  gunzip -c gpu-bench/rcpsp_J30_13_9.fzn.gz > /tmp/r.fzn
  KCP_TEST_QUICK=1 timeout 150 $CS --tool memcheck /tmp/kcp_tests --gtest_filter='LearningOnBackend/Cuda.*' > $OUT/b/memcheck-learning.txt 2>&1
  echo "learning memcheck rc=$? $(grep -E 'ERROR SUMMARY' $OUT/b/memcheck-learning.txt) $(grep -cE '^\[       OK \]' $OUT/b/memcheck-learning.txt) ok"
  timeout 150 $CS --tool memcheck $B -s -t 4000 --learn explain /tmp/r.fzn > $OUT/b/memcheck-kcp.txt 2>&1
  echo "kcp memcheck rc=$? $(grep -E 'ERROR SUMMARY' $OUT/b/memcheck-kcp.txt) $(grep -E 'nogoodsLearned|explainConflicts|hostNodes|^=====' $OUT/b/memcheck-kcp.txt | tr '\n' ' ')"
  echo "== memcheck $((SECONDS - t0)) s"
fi
if [ -n "${SWEEP:-}" ]; then
  bash perf/bench/device/exp35.sh $REV $SWEEP $LABEL "$@"
  echo "== sweep $((SECONDS - t0)) s"
fi
