#!/usr/bin/env bash
# Session 10: propagate_global __noinline__ on the device (kcp-NOINLINE) against inlined (kcp-REV), 15 s:
# four kcp-library instances with --bitset-span 64 (the bitset kernels, whose ptxas spills it cuts) and
# by default (the bounds-only shared kernel, which it costs a little).
# usage (device): bash perf/bench/device/exp34.sh REV NOINLINE; carry build/gpu/bin/kcp-REV, kcp-NOINLINE,
# gpu-bench-mznlib, gpu-bench-mznlib2
set -u
REV=$1; NI=$2
mkdir -p $OUT/b /tmp/x
for n in sudoku-opt_sudoku_p20 rcpsp_J30_25_3 team-assignment_data3_5_31; do gunzip -c gpu-bench-mznlib/$n.fzn.gz > /tmp/x/$n.fzn; done
gunzip -c gpu-bench-mznlib2/rotating-workforce_rws-instance-e-25-s-7.fzn.gz > /tmp/x/rotating-workforce_rws-instance-e-25-s-7.fzn
for rev in $REV $NI; do
  for cfg in default bits; do
    extra=""; [ $cfg = bits ] && extra="--bitset-span 64"
    python3 perf/bench/run.py --kcp build/gpu/bin/kcp-$rev --revision $rev --space cuda --timeout 15 --instances /tmp/x \
      --label cuda-15s-$cfg-$rev --machine nvidia-h100 --out $OUT/b/cuda-15s-$cfg-$rev.csv -- $extra 2>&1 | tail -4
  done
done
