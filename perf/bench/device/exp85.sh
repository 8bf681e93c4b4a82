#!/usr/bin/env bash
# Session 28: ma-path-finding's fleet runs AC1 because 1,056 teams' event-driven workspaces (~6.8 MB each:
# 328k propagators, 239k variables) exceed the 2 GiB the driver allows them, so a node costs 12.5M
# propagations (exp82). Fewer teams within the 2 GiB get the event-driven fixpoint: 15 s, one GPU, the
# default against --teams 256 and 132 (the queue), and 256 with --fixpoint ac1 (the same teams on AC1).
# usage (device): bash perf/bench/device/exp85.sh REV; carry gpu-mpi, gpu-bench-mznlib
set -u
REV=$1
STATS='initTime|solveTime|objective|timeOfBest|nodes|completeNodes|fixpoint|propagationsPerNode|fixpointIterationsPerNode|improvementsComplete|improvementsRestart|improvementsLns|improvementsExplain|explainNodes'
I=ma-path-finding_ins_g16_p10_a20
source perf/bench/device/mpi-prep.sh exp85 $REV $I
{
  TL=15000 on 1 $I default
  TL=15000 on 1 $I t256 --teams 256
  TL=15000 on 1 $I t132 --teams 132
  TL=15000 on 1 $I t256ac1 --teams 256 --fixpoint ac1
} | tee $R/ma-path-teams-$REV.txt
echo "== $((SECONDS - t0)) s"
