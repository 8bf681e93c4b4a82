#!/usr/bin/env bash
# Session 5: why the 13-job Serial column at 0ad645f ran 0.81x (geomean) the c1e83d8 one, bimodally
# (half the instances ~1.0x, half ~0.6x, same iterations per node). One instance (rcpsp_J30_1_3, 0.60x),
# Serial, 5 s: alone on core 0, then 13 copies at once on cores 0-12; nodes/s per core.
# usage (device): bash perf/bench/device/exp19.sh REV; carry gpu-bench/rcpsp_J30_1_3.fzn.gz, build/gpu/bin/kcp-REV.
B=build/gpu/bin/kcp-$1
lscpu | grep -E 'Model name|Thread|Core|Socket|NUMA node|MHz|L3'
gunzip -c gpu-bench/rcpsp_J30_1_3.fzn.gz > /tmp/r.fzn
run() { OMP_NUM_THREADS=1 taskset -c $1 $B --space serial -p 1 -s -t 5000 /tmp/r.fzn | grep nodesPerSecond | sed "s/^/core $1 ($2): /"; }
run 0 alone
for c in $(seq 0 12); do run $c "13 at once" & done; wait
run 13 alone
for c in $(seq 0 15); do run $c "16 at once" & done; wait
