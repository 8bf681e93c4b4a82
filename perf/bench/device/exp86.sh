#!/usr/bin/env bash
# Session 28: fleet_teams fits the default teams to the event-driven fixpoint's 2 GiB where they would
# otherwise run AC1 (exp85: ma-path-finding with 256 teams on the queue 1.9x the nodes of 1,056 on AC1).
# REV's default against --teams 1056 (the default before: AC1), 15 s, one GPU, REPS runs each, alternating;
# then REV's default on the most GPUs (every rank fits the same teams: the distributed split counts them).
# usage (device): [REPS=2] bash perf/bench/device/exp86.sh REV; carry gpu-mpi, gpu-bench-mznlib
set -u
REV=$1; REPS=${REPS:-2}
STATS='teams|fixpoint|solveTime|objective|timeOfBest|nodes|completeNodes|propagationsPerNode|improvementsExplain|explainNodes|ranks'
I=ma-path-finding_ins_g16_p10_a20
source perf/bench/device/mpi-prep.sh exp86 $REV $I
most=${counts##* }
for rep in $(seq $REPS); do
  TL=15000 on 1 $I fitted-$rep
  TL=15000 on 1 $I t1056-$rep --teams 1056
done | tee $R/ma-path-fitted-$REV.txt
TL=15000 on $most $I fitted | tee -a $R/ma-path-fitted-$REV.txt
echo "== $((SECONDS - t0)) s"
