#!/usr/bin/env bash
# Session 27, issue 21: rank 0's free share under mpirun on GPUs now defaults to 0.05 (exp79). The new
# binary with no flags against --portfolio 0.25 (the default before), alternating, on the most GPUs
# (one GPU's default beside them, unchanged): diameterc-mst REPS runs each, its free teams counted (the
# defaults as resolved); rcpsp 13_9, 25_3, 41_10 (the explaining threads' proofs) twice each; with
# PARTS including open, the open instances at the new default, 15 s, one run.
# usage (device): [REPS=3] [PARTS="proofs open"] bash perf/bench/device/exp80.sh REV; carry gpu-mpi, gpu-bench-mznlib
set -u
REV=$1; shift; REPS=${REPS:-3}; PARTS=${PARTS:-proofs open}
STATS='solveTime|objective|completeNodes|freeTeams|timeOfBest|rankIdleTime|mpiPiecesSent|provedByNogood'
OPEN="accap_accap_a40_f800_t180 ma-path-finding_ins_g16_p10_a20 roster-sickness_large-2 spot5_404 team-assignment_data3_5_31 traveling-tppv_circ14cnonbal triangular_n39"
source perf/bench/device/mpi-prep.sh exp80 $REV diameterc-mst_c_v20_a190_d4 rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10 $OPEN
D=diameterc-mst_c_v20_a190_d4
most=${counts##* }
if [[ $PARTS == *proofs* ]]; then
  for rep in $(seq $REPS); do
    on 1 $D one-$rep; on $most $D new-$rep; on $most $D p0.25-$rep --portfolio 0.25
  done | tee $R/default-$REV.txt
  for rep in 1 2; do
    for i in rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10; do on $most $i new-$rep; on $most $i p0.25-$rep --portfolio 0.25; done
  done | tee $R/default-rcpsp-$REV.txt
  echo "== proofs $((SECONDS - t0)) s"
fi
if [[ $PARTS == *open* ]]; then
  for i in $OPEN; do TL=15000 on $most $i new; done | tee $R/default-open-$REV.txt
  echo "== open $((SECONDS - t0)) s"
fi
