#!/usr/bin/env bash
# Prepared in session 3 (device time ran out before it ran): the search kernel's registers. exp8
# (c1e83d8) ran 1.3-2.8x fewer nodes/s than exp7 (ae307c9) on the subset; ptxas: 128 -> 156 registers,
# one resident team per SM instead of two. Same subset, same machine, 4 s each: the old binary as
# control and the launch-bounded builds (KCP_CUDA_MIN_BLOCKS 2, 3, 4: at most 128, 85, 64 registers).
# Carry gpu-bench and build/gpu/exp9 (kcp-ae307c9, kcp-lb2, kcp-lb3, kcp-lb4; kept on the VM).
set -u
REV=exp9
B=unused
source perf/bench/device/common.sh
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv > $OUT/b/gpu.txt 2>&1
SUB="rcpsp_J30_20_6 rcpsp_J30_13_9 accap_accap_a4_f30_t15 wordpress_Wordpress7_Offers500 triangular_n39 sudoku-opt_sudoku_p20"
for bin in kcp-ae307c9 kcp-lb2 kcp-lb3 kcp-lb4; do
  B=build/gpu/exp9/$bin REV=$bin configuration $bin cuda 4 "$SUB"
done
(cd $OUT/b && tar czf ../exp9.tgz . ); rm -rf $OUT/b
