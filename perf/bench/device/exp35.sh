#!/usr/bin/env bash
# Session 11, issue 19: the portfolio (restarts and LNS beside the complete search) and dom/wdeg on the
# H100, 15 s per instance, the development set as kcp's library compiles it (standard FlatZinc,
# replaced by gpu-bench-mznlib/ and then gpu-bench-mznlib2/ where the library's differs: the set a user
# of kcp's mznlib solves). A half (a: the first 19 by name, b: the rest) per call, one configuration.
# usage (device): bash perf/bench/device/exp35.sh REV a|b LABEL [kcp args]; optionally TESTS=1 first runs
# the CUDA test binary build/gpu/bin/kcp_tests-REV.gz (gzipped for the carry limit). carry build/gpu/bin/kcp-REV [kcp_tests-REV.gz],
# gpu-bench, gpu-bench-mznlib, gpu-bench-mznlib2
set -u
REV=$1; HALF=$2; LABEL=$3; shift 3
B=build/gpu/bin/kcp-$REV
mkdir -p $OUT/b /tmp/dev
for d in gpu-bench gpu-bench-mznlib gpu-bench-mznlib2; do
  for f in $d/*.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
done
ls /tmp/dev/*.fzn | sort > /tmp/all.txt
if [ "$HALF" = a ]; then head -19 /tmp/all.txt > /tmp/half.txt; else tail -n +20 /tmp/all.txt > /tmp/half.txt; fi
[ -f build/gpu/bin/kcp_tests-$REV.gz ] && gunzip -c build/gpu/bin/kcp_tests-$REV.gz > /tmp/kcp_tests && chmod +x /tmp/kcp_tests
if [ -n "${TESTS:-}" ] && [ -x /tmp/kcp_tests ]; then
  timeout 240 /tmp/kcp_tests --gtest_filter='*Cuda*:*Portfolio*:EndToEnd*' > $OUT/kcp_tests-cuda-$REV.txt 2>&1
  echo "rc=$?" >> $OUT/kcp_tests-cuda-$REV.txt
  grep -E "^\[  (PASSED|FAILED)|^rc=" $OUT/kcp_tests-cuda-$REV.txt | head -20
fi
python3 perf/bench/run.py --kcp $B --revision $REV --space cuda --timeout 15 --grace 10 --instances /tmp/half.txt \
  --label $LABEL --machine nvidia-h100 --out $OUT/b/$LABEL-$HALF.csv -- "$@" 2>&1 | tail -2
