#!/usr/bin/env bash
# Session 26, issue 21: the dive cache (search/modes.hpp's DiveCache: blocks' roots published ahead of
# the counter, dives from there) against --no-dive-cache, same binary, alternating:
#   diameterc-mst on 1, 2 and 4 GPUs (those the host has: mpi-prep's counts; on one GPU two ranks share it),
#   REPS runs each, its path nodes (the dives) counted;
#   rcpsp 13_9 (the default search) and 22_6 --learn none (the complete search) on the most GPUs, twice each.
# usage (device): [REPS=3] bash perf/bench/device/exp75.sh REV; carry gpu-mpi, gpu-bench-mznlib
set -u
REV=$1; shift; REPS=${REPS:-3}
STATS='solveTime|objective|completeNodes|pathNodes|diveCacheDepth|diveCacheHits|diveCacheMisses|divePrefetches|subproblems|timeOfBest|rankIdleTime|provedByNogood'
source perf/bench/device/mpi-prep.sh exp75 $REV diameterc-mst_c_v20_a190_d4 rcpsp_J30_13_9 rcpsp_J30_22_6
D=diameterc-mst_c_v20_a190_d4
for rep in $(seq $REPS); do
  for k in $counts; do on $k $D cache-$rep; on $k $D off-$rep --no-dive-cache; done
done | tee $R/cache-$REV.txt
echo "== cache $((SECONDS - t0)) s"
most=${counts##* }
for rep in 1 2; do
  on $most rcpsp_J30_13_9 cache-$rep; on $most rcpsp_J30_13_9 off-$rep --no-dive-cache
  on $most rcpsp_J30_22_6 none-cache-$rep --learn none; on $most rcpsp_J30_22_6 none-off-$rep --learn none --no-dive-cache
done | tee $R/cache-rcpsp-$REV.txt
echo "== rcpsp $((SECONDS - t0)) s"
