#!/usr/bin/env bash
# Session 10, issue 18: the table family on the H100 (15 s): spot5, rotating-workforce and
# traveling-tppv on their standard FlatZinc (gpu-bench/) and on their kcp-library FlatZinc
# (gpu-bench-mznlib2/: table and regular as kcp_table_int), the table native and --no-global table;
# then, when carried, the CUDA test binary.
# usage (device): bash perf/bench/device/exp33.sh REV; carry build/gpu/bin/kcp-REV [kcp_tests-REV],
# gpu-bench, gpu-bench-mznlib2
set -u
REV=$1; B=build/gpu/bin/kcp-$REV
mkdir -p $OUT/b /tmp/std /tmp/lib
for f in gpu-bench-mznlib2/*.fzn.gz; do n=$(basename $f .gz); gunzip -c $f > /tmp/lib/$n; gunzip -c gpu-bench/$n.gz > /tmp/std/$n; done
run() {  # run LABEL DIR [kcp args]
  local label=$1 dir=$2; shift 2
  python3 perf/bench/run.py --kcp $B --revision $REV --space cuda --timeout 15 --instances $dir --label $label \
    --machine nvidia-h100 --out $OUT/b/$label.csv -- "$@" 2>&1 | tail -3
}
run cuda-15s-table-std-$REV /tmp/std
run cuda-15s-table-native-$REV /tmp/lib
run cuda-15s-table-decomposed-$REV /tmp/lib --no-global table
if [ -x build/gpu/bin/kcp_tests-$REV ]; then
  timeout 300 build/gpu/bin/kcp_tests-$REV > $OUT/kcp_tests-cuda-$REV.txt 2>&1; echo "rc=$?" >> $OUT/kcp_tests-cuda-$REV.txt
  grep -E "^\[  (PASSED|FAILED) " $OUT/kcp_tests-cuda-$REV.txt | tail -8
fi
