#!/usr/bin/env bash
# Session 29, issue 21: what four GPUs' proof of diameterc-mst still pays at the start and in the end game.
#   the probe: every rank runs the same 20 ms one-thread probe before its fleet (exp81: four GPUs 0.82 s
#   mean without it, 0.88 s with it, three runs each; one GPU no different) -- REPS runs each, alternating,
#   on one GPU and on the most GPUs, default against --probe-ms 0;
#   the end game: KCP_TRACE on the most GPUs (a line per slice and rank), two runs.
# usage (device): [REPS=6] bash perf/bench/device/exp87.sh REV; carry gpu-mpi, gpu-bench-mznlib
set -u
REV=$1; REPS=${REPS:-6}
STATS='solveTime|objective|completeNodes|pathNodes|timeOfBest|rankIdleTime|probeTime|searchSetupTime|mpiPiecesSent|splitPieces'
D=diameterc-mst_c_v20_a190_d4
source perf/bench/device/mpi-prep.sh exp87 $REV $D
most=${counts##* }
for rep in $(seq $REPS); do
  for k in 1 $most; do
    on $k $D p20-$rep
    on $k $D p0-$rep --probe-ms 0
  done
done | tee $R/probe-$REV.txt
echo "== probe $((SECONDS - t0)) s"
for rep in 1 2; do KCP_TRACE=1 on $most $D trace-$rep; done | tee $R/trace-$REV.txt
echo "== trace $((SECONDS - t0)) s"
