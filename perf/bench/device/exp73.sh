#!/usr/bin/env bash
# Session 26, issue 21: what four GPUs' extra complete nodes on diameterc-mst are (exp72: 1.36M on one GPU,
# 1.77M on four, with --learn none as with the default).
#   bound: the model with objective <= 349 (its optimum) added, so that every team searches under the
#          optimum's bound from the start: if one and four GPUs then search as many nodes, the extra is
#          the time before the bound reaches the teams;
#   dives: one GPU at four GPUs' split (2^14), and four GPUs taking runs of consecutive subproblems
#          (--subproblem-runs), whose dives share more of their paths.
# usage (device): [REPS=2] bash perf/bench/device/exp73.sh REV; carry gpu-mpi, gpu-bench-mznlib
set -u
REV=$1; shift; REPS=${REPS:-2}
STATS='solveTime|objective|nodes|completeNodes|timeOfBest|rankIdleTime|replayedDecisions|subproblemsSkipped|splitPieces|provedByNogood'
source perf/bench/device/mpi-prep.sh exp73 $REV diameterc-mst_c_v20_a190_d4
D=diameterc-mst_c_v20_a190_d4
sed 's/^solve /constraint int_le(objective,349);\nsolve /' /tmp/dev/$D.fzn > /tmp/dev/$D-b349.fzn
grep -c 'int_le(objective,349)' /tmp/dev/$D-b349.fzn
for rep in $(seq $REPS); do
  on 1 $D-b349 b-$rep; on 4 $D-b349 b-$rep
  on 1 $D-b349 bnone-$rep --learn none; on 4 $D-b349 bnone-$rep --learn none
done | tee $R/bound-$REV.txt
echo "== bound $((SECONDS - t0)) s"
for rep in $(seq $REPS); do
  on 1 $D none-p12-$rep --learn none --subproblems 12; on 1 $D none-p14-$rep --learn none --subproblems 14
  on 4 $D none-$rep --learn none; on 4 $D none-runs4-$rep --learn none --subproblem-runs 4
  on 4 $D runs4-$rep --subproblem-runs 4; on 4 $D runs16-$rep --subproblem-runs 16
done | tee $R/dives-$REV.txt
echo "== dives $((SECONDS - t0)) s"
