#!/usr/bin/env bash
# Session 11, issue 19's last revision: the CUDA test binary's CUDA, portfolio, search and EndToEnd cases,
# then three instances at 15 s against the ec5d855 sweep (the refactor must not change the search).
# usage (device): bash perf/bench/device/exp36.sh REV; carry build/gpu/bin/kcp-REV, kcp_tests-REV.gz, gpu-bench,
# gpu-bench-mznlib
set -u
REV=$1
mkdir -p $OUT/b /tmp/one
gunzip -c build/gpu/bin/kcp_tests-$REV.gz > /tmp/kcp_tests && chmod +x /tmp/kcp_tests
timeout 200 /tmp/kcp_tests --gtest_filter='*Cuda*:*Portfolio*:*Search*:EndToEnd*' > $OUT/kcp_tests-cuda-$REV.txt 2>&1
echo "rc=$?" >> $OUT/kcp_tests-cuda-$REV.txt
grep -E "^\[  (PASSED|FAILED)|^rc=" $OUT/kcp_tests-cuda-$REV.txt | head -20
gunzip -c gpu-bench-mznlib/rcpsp_J30_37_4.fzn.gz > /tmp/one/rcpsp_J30_37_4.fzn
gunzip -c gpu-bench-mznlib/team-assignment_data3_5_31.fzn.gz > /tmp/one/team-assignment_data3_5_31.fzn
gunzip -c gpu-bench/tower_100_100_20_100-04.fzn.gz > /tmp/one/tower_100_100_20_100-04.fzn
python3 perf/bench/run.py --kcp build/gpu/bin/kcp-$REV --revision $REV --space cuda --timeout 15 --grace 10 \
  --instances /tmp/one --label check --machine nvidia-h100 --out $OUT/b/check-$REV.csv 2>&1 | tail -3
