#!/usr/bin/env bash
# Session 24, issue 21: halved subproblem paths (perf/NOTES.md entry 35). The trace's holdings (exp64
# hold) showed the end game's work to be the last subproblem: with x = lo | x > lo on the path, the
# all-right subproblem keeps every value not yet tried and holds most of the tree, and one rank gets it.
# `--subproblem-path halves` splits the path's variables into halves by count instead. Every rank, the
# one-GPU run included, gets 16 host threads, as in exp58-exp64.
#   ab:    diameterc-mst on 1 / 2 / 4 GPUs, branching and halves alternating, REPS runs each;
#   none:  rcpsp 15_5 and 22_6 --learn none (proofs that are the complete search's) on 1 and the most
#          GPUs, both ways, REPS runs;
#   hold:  one traced run of diameterc-mst with halves on each GPU count (KCP_TRACE with the holdings);
#   sweep: one GPU, 15 s, the instances named in SWEEP (default: all), both ways, one run each.
# usage (device): [REPS=3] bash perf/bench/device/exp65.sh REV [ab none hold sweep]; carry gpu-mpi (mpirt.tgz,
# kcp-mpi-REV.gz), gpu-bench-mznlib
set -u
REV=$1; shift; WHAT="${*:-ab none hold}"; REPS=${REPS:-3}
D=diameterc-mst_c_v20_a190_d4
STATS="solveTime|objective|nodes|completeNodes|timeOfBest|rankIdleTime|subproblemsSkipped|splitPieces|mpiPiecesSent|provedByNogood"
if [[ "$WHAT" == *sweep* ]]; then
  source perf/bench/device/mpi-prep.sh exp65 $REV all
else
  source perf/bench/device/mpi-prep.sh exp65 $REV $D rcpsp_J30_15_5 rcpsp_J30_22_6
fi
most=${counts##* }
if [[ $WHAT == *ab* ]]; then
  for rep in $(seq $REPS); do
    for k in $counts; do
      for m in branching halves; do on $k $D $m-$rep --subproblem-path $m; done
    done
    echo "== ab rep $rep $((SECONDS - t0)) s"
  done | tee $R/ab-$REV.txt
fi
if [[ $WHAT == *none* ]]; then
  for rep in $(seq $REPS); do
    for i in rcpsp_J30_15_5 rcpsp_J30_22_6; do
      for k in 1 $most; do
        for m in branching halves; do on $k $i none-$m-$rep --learn none --subproblem-path $m; done
      done
    done
  done | tee $R/none-$REV.txt
  echo "== none $((SECONDS - t0)) s"
fi
if [[ $WHAT == *hold* ]]; then
  for k in $counts; do KCP_TRACE=1 on $k $D hold-halves --subproblem-path halves; done | tee $R/hold-$REV.txt
  echo "== hold $((SECONDS - t0)) s"
fi
if [[ $WHAT == *sweep* ]]; then
  for f in ${SWEEP:-$(ls /tmp/dev | sed 's/\.fzn$//')}; do
    for m in branching halves; do TL=15000 on 1 $f sweep-$m --subproblem-path $m --check; done
  done | tee $R/sweep-$REV.txt
  echo "== sweep $((SECONDS - t0)) s"
fi
