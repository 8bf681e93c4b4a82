#!/usr/bin/env bash
# Session 26, issue 21: the split's depth under the multi-GPU default. With --rank-portfolio 0 every rank's
# complete rows are 1,056, so four ranks split the root into 2^15 subproblems (ceil(log2(4 x 4 x 1,056)))
# and two into 2^14 (exp73: 32,768 on four GPUs); the dives into them are the complete nodes four GPUs add.
# Each configuration without the probe (--subproblems turns it off).
# usage (device): [REPS=3] bash perf/bench/device/exp74.sh REV; carry gpu-mpi, gpu-bench-mznlib
set -u
REV=$1; shift; REPS=${REPS:-3}
STATS='solveTime|objective|nodes|completeNodes|failures|subproblems|timeOfBest|rankIdleTime|splitPieces|provedByNogood'
source perf/bench/device/mpi-prep.sh exp74 $REV diameterc-mst_c_v20_a190_d4 rcpsp_J30_13_9 rcpsp_J30_22_6
D=diameterc-mst_c_v20_a190_d4
for rep in $(seq $REPS); do
  on 1 $D one-$rep --probe-ms 0
  on 2 $D auto-$rep --probe-ms 0; on 2 $D p13-$rep --subproblems 13
  on 4 $D auto-$rep --probe-ms 0; on 4 $D p14-$rep --subproblems 14; on 4 $D p13-$rep --subproblems 13
done | tee $R/depth-$REV.txt
echo "== depth $((SECONDS - t0)) s"
for rep in 1 2; do
  on 4 rcpsp_J30_22_6 none-auto-$rep --learn none --probe-ms 0; on 4 rcpsp_J30_22_6 none-p14-$rep --learn none --subproblems 14
  on 4 rcpsp_J30_13_9 auto-$rep --probe-ms 0; on 4 rcpsp_J30_13_9 p14-$rep --subproblems 14
done | tee $R/depth-rcpsp-$REV.txt
echo "== rcpsp $((SECONDS - t0)) s"
