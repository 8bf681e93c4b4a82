#!/usr/bin/env bash
# Session 10, issue 18: the table family on the H100 (15 s): spot5, rotating-workforce and
# traveling-tppv on their standard FlatZinc (gpu-bench/) and on their kcp-library FlatZinc
# (gpu-bench-mznlib2/: table and regular as kcp_table_int), the table native and --no-global table;
# then, when carried, the differential with globals on CUDA (2,000 models through kcp_batch) and the
# CUDA test binary.
# usage (device): [SKIP_SWEEP=1] [SKIP_GLOBALS=1] bash perf/bench/device/exp33.sh REV; carry build/gpu/bin/kcp-REV [kcp_tests-REV],
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
if [ -z "${SKIP_SWEEP:-}" ]; then
  run cuda-15s-table-std-$REV /tmp/std
  run cuda-15s-table-native-$REV /tmp/lib
  run cuda-15s-table-decomposed-$REV /tmp/lib --no-global table
fi
if [ -z "${SKIP_GLOBALS:-}" ] && [ -f build/gpu/globals/emit.tgz ] && [ -x build/gpu/bin/kcp_batch-$REV ]; then
  # The differential with globals on CUDA: diff.py --emit DIR --globals --models 2000 --seed 21 here.
  tar xzf build/gpu/globals/emit.tgz -C /tmp
  timeout 400 python3 tests/differential/diff.py --kcp $B --batch build/gpu/bin/kcp_batch-$REV --replay /tmp/gemit \
    --jobs 8 --keep $OUT/kept --log $OUT/differential-globals-cuda.csv -- --space cuda > $OUT/differential-globals-cuda.txt 2>&1
  tail -2 $OUT/differential-globals-cuda.txt
fi
if [ -f build/gpu/globals/vemit.tgz ] && [ -x build/gpu/bin/kcp_batch-$REV ]; then
  # array_var_*_element models only (diff.py --emit DIR --only array_var_int_element array_var_bool_element
  # --models 1000 --seed 33 here): the var_element family on CUDA.
  tar xzf build/gpu/globals/vemit.tgz -C /tmp
  timeout 300 python3 tests/differential/diff.py --kcp $B --batch build/gpu/bin/kcp_batch-$REV --replay /tmp/vemit \
    --jobs 8 --keep $OUT/kept-ve --log $OUT/differential-var-element-cuda.csv -- --space cuda \
    > $OUT/differential-var-element-cuda.txt 2>&1
  tail -2 $OUT/differential-var-element-cuda.txt
fi
if [ -x build/gpu/bin/kcp_tests-$REV ]; then
  timeout 300 build/gpu/bin/kcp_tests-$REV > $OUT/kcp_tests-cuda-$REV.txt 2>&1; echo "rc=$?" >> $OUT/kcp_tests-cuda-$REV.txt
  grep -E "^\[  (PASSED|FAILED) " $OUT/kcp_tests-cuda-$REV.txt | tail -8
fi
