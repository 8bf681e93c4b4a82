#!/usr/bin/env bash
# Session 12, issue 19: the CUDA tests at REV (CUDA, portfolio with host teams beside the GPU,
# EndToEnd), then compute-sanitizer memcheck on the portfolio's CUDA cases (quick mode) and on one kcp
# run with the host's rows beside the GPU.
# usage (device): bash perf/bench/device/exp39.sh REV; carry build/gpu/bin/kcp-REV, kcp_tests-REV.gz, gpu-bench
set -u
REV=$1
B=build/gpu/bin/kcp-$REV
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
mkdir -p $OUT/b
gunzip -c build/gpu/bin/kcp_tests-$REV.gz > /tmp/kcp_tests && chmod +x /tmp/kcp_tests
timeout 240 /tmp/kcp_tests --gtest_filter='*Cuda*:*Portfolio*:EndToEnd*' > $OUT/kcp_tests-cuda-$REV.txt 2>&1
echo "rc=$?" >> $OUT/kcp_tests-cuda-$REV.txt
grep -E "^\[  (PASSED|FAILED)|^rc=" $OUT/kcp_tests-cuda-$REV.txt | head
gunzip -c gpu-bench/rcpsp_J30_1_3.fzn.gz > /tmp/r.fzn
KCP_TEST_QUICK=1 timeout 200 $CS --tool memcheck /tmp/kcp_tests --gtest_filter='PortfolioOnBackend/Cuda.*' > $OUT/b/memcheck-portfolio.txt 2>&1
echo "portfolio memcheck rc=$? $(grep -E 'ERROR SUMMARY' $OUT/b/memcheck-portfolio.txt) $(grep -cE '^\[       OK \]' $OUT/b/memcheck-portfolio.txt) ok"
timeout 200 $CS --tool memcheck $B -s -t 4000 --host-teams -1 /tmp/r.fzn > $OUT/b/memcheck-kcp.txt 2>&1
echo "kcp memcheck rc=$? $(grep -E 'ERROR SUMMARY' $OUT/b/memcheck-kcp.txt) $(grep -E 'hostNodes|^=====' $OUT/b/memcheck-kcp.txt | tr '\n' ' ')"
