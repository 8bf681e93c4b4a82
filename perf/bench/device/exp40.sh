#!/usr/bin/env bash
# Session 13, issue 23 (learning, stage 1): the CUDA test binary's CUDA, portfolio, learning and
# EndToEnd cases; compute-sanitizer memcheck on the learning cases (quick) and on one kcp run that
# learns beside the GPU; the differential with --learning through kcp_batch (the --globals models of
# gpu-learn/learn-diff.tgz, half of them optimisation); then, with SWEEP=a|b LABEL=L [kcp args], a half
# of the 15 s sweep (exp35's).
# usage (device): bash perf/bench/device/exp40.sh REV [kcp args]; carry build/gpu/bin/kcp-REV.gz,
# kcp_tests-REV.gz, kcp_batch-REV.gz (gzipped for the carry limit), gpu-bench*, gpu-learn/
set -u
REV=$1; shift
B=build/gpu/bin/kcp-$REV
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
export OMP_PROC_BIND=false
t0=$SECONDS
for f in kcp kcp_batch; do
  [ -f build/gpu/bin/$f-$REV.gz ] && gunzip -c build/gpu/bin/$f-$REV.gz > build/gpu/bin/$f-$REV && chmod +x build/gpu/bin/$f-$REV
done
mkdir -p $OUT/b
if [ -z "${SKIP_TESTS:-}" ]; then
  gunzip -c build/gpu/bin/kcp_tests-$REV.gz > /tmp/kcp_tests && chmod +x /tmp/kcp_tests
  timeout 300 /tmp/kcp_tests --gtest_filter='*Cuda*:*Portfolio*:*Learning*:EndToEnd*' > $OUT/kcp_tests-cuda-$REV.txt 2>&1
  echo "rc=$?" >> $OUT/kcp_tests-cuda-$REV.txt
  grep -E "^\[  (PASSED|FAILED)|^rc=" $OUT/kcp_tests-cuda-$REV.txt | head
  echo "== tests $((SECONDS - t0)) s"
  gunzip -c gpu-bench/rcpsp_J30_13_9.fzn.gz > /tmp/r.fzn
  KCP_TEST_QUICK=1 timeout 150 $CS --tool memcheck /tmp/kcp_tests --gtest_filter='LearningOnBackend/Cuda.*' > $OUT/b/memcheck-learning.txt 2>&1
  echo "learning memcheck rc=$? $(grep -E 'ERROR SUMMARY' $OUT/b/memcheck-learning.txt) $(grep -cE '^\[       OK \]' $OUT/b/memcheck-learning.txt) ok"
  timeout 150 $CS --tool memcheck $B -s -t 4000 --learn all --restart-share 0.5 /tmp/r.fzn > $OUT/b/memcheck-kcp.txt 2>&1
  echo "kcp memcheck rc=$? $(grep -E 'ERROR SUMMARY' $OUT/b/memcheck-kcp.txt) $(grep -E 'nogoodsLearned|nogoodPropagations|hostNodes|^=====' $OUT/b/memcheck-kcp.txt | tr '\n' ' ')"
  echo "== memcheck $((SECONDS - t0)) s"
fi
if [ -z "${SKIP_DIFF:-}" ]; then
  tar xzf gpu-learn/learn-diff.tgz -C /tmp
  timeout ${DIFF_S:-200} python3 tests/differential/diff.py --kcp $B --batch build/gpu/bin/kcp_batch-$REV --replay /tmp/learn-diff \
    --jobs ${JOBS:-6} --deadline ${DEADLINE:-170} --learning --keep $OUT/kept --log $OUT/differential-learning-cuda-$REV.csv -- --space cuda 2>&1 | tail -2
  echo "== differential $((SECONDS - t0)) s"
fi
if [ -n "${SWEEP:-}" ]; then
  bash perf/bench/device/exp35.sh $REV $SWEEP $LABEL "$@"
  echo "== sweep $((SECONDS - t0)) s"
fi
