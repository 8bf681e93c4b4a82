#!/usr/bin/env bash
# Session 28: ma-path-finding on one GPU. The fleet runs AC1 there (12.5M propagations a node, 17k nodes in
# 15 s) and the 12 host rows ~7.6k nodes; every improvement came from the 4 explaining threads (108k
# nodes, exp82). Host threads moved from free rows to explaining, 15 s, REPS runs each, alternating:
# the default (12 rows, 4 explaining), 8 / 8, 4 / 12; and what the same costs diameterc-mst (whose
# incumbents come from the host rows) and rcpsp 25_3 / 41_10 (the explaining threads' proofs).
# usage (device): [REPS=2] bash perf/bench/device/exp84.sh REV; carry gpu-mpi, gpu-bench-mznlib
set -u
REV=$1; REPS=${REPS:-2}
STATS='initTime|solveTime|objective|timeOfBest|hostNodes|explainNodes|improvementsExplain|improvementsHost|provedByNogood'
I=ma-path-finding_ins_g16_p10_a20
source perf/bench/device/mpi-prep.sh exp84 $REV $I diameterc-mst_c_v20_a190_d4 rcpsp_J30_25_3 rcpsp_J30_41_10
cfg() {  # INSTANCE REP [TL]
  TL=${3:-40000} on 1 $1 default-$2
  TL=${3:-40000} on 1 $1 e8-$2 --explain-threads 8 --host-teams 8
  TL=${3:-40000} on 1 $1 e12-$2 --explain-threads 12 --host-teams 4
}
for rep in $(seq $REPS); do cfg $I $rep 15000; done | tee $R/ma-path-$REV.txt
echo "== ma-path $((SECONDS - t0)) s"
for rep in $(seq $REPS); do for i in diameterc-mst_c_v20_a190_d4 rcpsp_J30_25_3 rcpsp_J30_41_10; do cfg $i $rep; done; done | tee $R/proofs-$REV.txt
echo "== proofs $((SECONDS - t0)) s"
