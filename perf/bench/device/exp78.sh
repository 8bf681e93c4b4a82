#!/usr/bin/env bash
# Session 27, issue 21: deeper splits now that the dive cache takes most of a dive. exp74 (no cache) found
# 2^15 the fastest of 2^13..2^15 on four GPUs: the end game across ranks needs the fine split, and its
# dives cost. With the cache a dive below a published block root is only the last levels, so 2^16 and
# 2^17 cost less than they did: diameterc-mst on 1, 2 and 4 GPUs at the default split and one and two
# levels deeper (each without the probe: --subproblems turns it off, so the default runs --probe-ms 0),
# REPS runs each, alternating; rcpsp 22_6 --learn none (the complete search) and 13_9 on the most GPUs.
# usage (device): [REPS=3] bash perf/bench/device/exp78.sh REV; carry gpu-mpi, gpu-bench-mznlib
set -u
REV=$1; shift; REPS=${REPS:-3}
STATS='solveTime|objective|completeNodes|pathNodes|diveCacheHits|diveCacheMisses|subproblems|timeOfBest|rankIdleTime|splitPieces|mpiPiecesSent|provedByNogood'
source perf/bench/device/mpi-prep.sh exp78 $REV diameterc-mst_c_v20_a190_d4 rcpsp_J30_13_9 rcpsp_J30_22_6
D=diameterc-mst_c_v20_a190_d4
declare -A base=([1]=12 [2]=14 [4]=15)
for rep in $(seq $REPS); do
  for k in $counts; do
    p=${base[$k]}
    on $k $D auto-$rep --probe-ms 0; on $k $D p$((p + 1))-$rep --subproblems $((p + 1)); on $k $D p$((p + 2))-$rep --subproblems $((p + 2))
  done
done | tee $R/depth-$REV.txt
echo "== depth $((SECONDS - t0)) s"
most=${counts##* }; p=${base[$most]}
for rep in 1 2; do
  for q in auto $((p + 1)) $((p + 2)); do
    a=(--probe-ms 0); [ $q != auto ] && a=(--subproblems $q)
    on $most rcpsp_J30_22_6 none-$q-$rep --learn none "${a[@]}"; on $most rcpsp_J30_13_9 $q-$rep "${a[@]}"
  done
done | tee $R/depth-rcpsp-$REV.txt
echo "== rcpsp $((SECONDS - t0)) s"
