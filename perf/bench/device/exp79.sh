#!/usr/bin/env bash
# Session 27, issue 21: rank 0's free GPU teams under mpirun. Since session 25 ranks 1.. give their
# whole GPU to the complete search (--rank-portfolio 0) while rank 0 keeps one GPU's quarter free
# (--portfolio 0.25), and free teams take the complete search's share of a GPU in proportion to their
# number (entry 34): four GPUs' complete search has 3.75 GPUs, two GPUs' 1.75. The incumbents also come
# from every rank's host teams. Rank 0's share at 0.25 (the default), 0.1 and 0.05:
#   diameterc-mst (the complete search's proof) on the most GPUs, REPS runs each, alternating, one GPU's
#   default beside them; rcpsp 13_9, 25_3, 41_10 (the explaining threads' proofs) twice each at 0.25 and
#   0.05; the open instances (15 s, one run) at 0.05, against exp77's runs of the default.
# usage (device): [REPS=3] [PARTS="proofs open"] bash perf/bench/device/exp79.sh REV; carry gpu-mpi, gpu-bench-mznlib
set -u
REV=$1; shift; REPS=${REPS:-3}; PARTS=${PARTS:-proofs open}
STATS='solveTime|objective|completeNodes|freeTeams|timeOfBest|rankIdleTime|mpiPiecesSent|provedByNogood'
OPEN="accap_accap_a40_f800_t180 ma-path-finding_ins_g16_p10_a20 roster-sickness_large-2 spot5_404 team-assignment_data3_5_31 traveling-tppv_circ14cnonbal triangular_n39"
source perf/bench/device/mpi-prep.sh exp79 $REV diameterc-mst_c_v20_a190_d4 rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10 $OPEN
D=diameterc-mst_c_v20_a190_d4
most=${counts##* }
if [[ $PARTS == *proofs* ]]; then
  for rep in $(seq $REPS); do
    on 1 $D one-$rep
    for s in 0.25 0.1 0.05; do on $most $D p$s-$rep --portfolio $s; done
  done | tee $R/share-$REV.txt
  for rep in 1 2; do
    for i in rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10; do
      for s in 0.25 0.05; do on $most $i p$s-$rep --portfolio $s; done
    done
  done | tee $R/share-rcpsp-$REV.txt
  echo "== proofs $((SECONDS - t0)) s"
fi
if [[ $PARTS == *open* ]]; then
  for i in $OPEN; do TL=15000 on $most $i p0.05 --portfolio 0.05; done | tee $R/share-open-$REV.txt
  echo "== open $((SECONDS - t0)) s"
fi
