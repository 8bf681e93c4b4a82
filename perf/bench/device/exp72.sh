#!/usr/bin/env bash
# Session 26, issue 21: where four GPUs' extra complete nodes come from, and the levers left.
#   auto:  the driver's defaults under mpirun on GPUs (no flags: halves, shallow givers, --rank-portfolio 0
#          resolved in run.cpp), free teams counted, against one GPU and the three named explicitly (exp71's
#          check, on the four-GPU host);
#   parts: the complete nodes without learning (--learn none) and without the probe (--probe-ms 0), on one
#          and four GPUs;
#   levers: a few free teams on ranks after the first (--rank-portfolio 0.05, 0.1), the split one level
#          shallower (--subproblems 13);
#   tri:   triangular_n39 at 15 s, one GPU (GPUs 0 and 3) against two (GPUs 1,2) at once, REPS rounds.
# usage (device): [REPS=3] bash perf/bench/device/exp72.sh REV [auto parts levers tri]; carry gpu-mpi
# (mpirt.tgz, kcp-mpi-REV.gz), gpu-bench-mznlib
set -u
REV=$1; shift; WHAT="${*:-auto parts levers tri}"; REPS=${REPS:-3}
STATS='solveTime|objective|nodes|completeNodes|timeOfBest|rankIdleTime|freeTeams|teams|probeTime|replayedDecisions|nogoodsKept|mpiNogoodsAbsorbed|provedByNogood'
source perf/bench/device/mpi-prep.sh exp72 $REV diameterc-mst_c_v20_a190_d4 rcpsp_J30_13_9 triangular_n39
D=diameterc-mst_c_v20_a190_d4
HS0="--subproblem-path halves --end-game-givers shallow --rank-portfolio 0"
if [[ $WHAT == *auto* ]]; then
  for rep in $(seq $REPS); do
    on 1 $D one-$rep; on 2 $D auto-$rep; on 4 $D auto-$rep; on 4 $D named-$rep $HS0
  done | tee $R/auto-$REV.txt
  on 4 rcpsp_J30_13_9 auto | tee -a $R/auto-$REV.txt
  echo "== auto $((SECONDS - t0)) s"
fi
if [[ $WHAT == *parts* ]]; then
  for rep in 1 2; do
    on 1 $D none-$rep --learn none; on 4 $D none-$rep --learn none
    on 1 $D noprobe-$rep --probe-ms 0; on 4 $D noprobe-$rep --probe-ms 0
  done | tee $R/parts-$REV.txt
  echo "== parts $((SECONDS - t0)) s"
fi
if [[ $WHAT == *levers* ]]; then
  for rep in $(seq $REPS); do
    on 4 $D rp005-$rep --rank-portfolio 0.05; on 4 $D rp01-$rep --rank-portfolio 0.1
    on 4 $D p13-$rep --subproblems 13
  done | tee $R/levers-$REV.txt
  echo "== levers $((SECONDS - t0)) s"
fi
if [[ $WHAT == *tri* ]]; then
  for rep in $(seq $REPS); do
    at 0 1 triangular_n39 tri-a-$rep; at 1,2 2 triangular_n39 tri-$rep; at 3 1 triangular_n39 tri-b-$rep; wait
    for c in tri-a-$rep:1 tri-$rep:2 tri-b-$rep:1; do
      echo "triangular_n39 ${c%:*} gpus=${c#*:} $(stat_line $R/triangular_n39-${c%:*}-${c#*:}.txt)"
    done
  done | tee $R/tri-$REV.txt
  echo "== tri $((SECONDS - t0)) s"
fi
