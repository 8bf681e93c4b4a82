#!/usr/bin/env bash
# Session 29: the explaining threads build their engines in their own threads (NEW), so the fleet starts
# meanwhile (this VM: ma-path-finding's four engines took 1.5 s before any team searched; diameterc-mst's
# 18-28 ms). ma-path-finding, 15 s, one GPU, OLD against NEW, REPS runs each, alternating; the stages of
# the start traced once each (KCP_TRACE).
# usage (device): [REPS=2] bash perf/bench/device/exp90.sh NEW OLD; carry gpu-mpi, gpu-bench-mznlib
set -u
NEW=$1 OLD=$2; REPS=${REPS:-2}
STATS='solveTime|initTime|objective|timeOfBest|nodes|completeNodes|explainNodes|improvementsExplain|teams'
I=ma-path-finding_ins_g16_p10_a20
source perf/bench/device/mpi-prep.sh exp90 $NEW $I
MNEW=$M MOLD=/tmp/kcp-mpi-$OLD
gunzip -c gpu-mpi/kcp-mpi-$OLD.gz > $MOLD && chmod +x $MOLD
for rep in $(seq $REPS); do
  KCP_TRACE=1 M=$MOLD TL=15000 on 1 $I old-$rep
  KCP_TRACE=1 M=$MNEW TL=15000 on 1 $I new-$rep
done | tee $R/ma-path-$NEW.txt
for f in $R/$I-*-1.txt; do echo "$(basename $f): $(grep kcp-trace-stage $f | awk '{print $3, $5}' | tr '\n' ' ')"; done | tee $R/stages-$NEW.txt
echo "== $((SECONDS - t0)) s"
