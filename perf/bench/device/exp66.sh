#!/usr/bin/env bash
# Session 24, issue 21: halved subproblem paths (--subproblem-path halves, exp65) and the end game's
# shallow givers across ranks (--end-game-givers shallow: the pieces other ranks ask for come from the
# quarter of the busy teams whose work starts shallowest), each alone and together (perf/NOTES.md entry 35).
# Every rank, the one-GPU run included, gets 16 host threads, as in exp58-exp65.
#   ab:   diameterc-mst: one GPU with either path, then on each count of several GPUs the four pairs
#         alternating, REPS runs each;
#   none: rcpsp 15_5 and 22_6 --learn none on the most GPUs, the four pairs, REPS runs;
#   default: the default search (--learn explain) on the most GPUs, branching/any against halves/shallow:
#         rcpsp 13_9, 25_3 and 41_10 (the explaining threads' proofs), REPS runs, and the six open
#         instances, 15 s, one run each;
#   hold: one traced run (KCP_TRACE with the holdings) of diameterc-mst and of rcpsp 22_6 --learn none
#         on the most GPUs with halves and shallow givers.
# usage (device): [REPS=3] bash perf/bench/device/exp66.sh REV [ab none default hold]; carry gpu-mpi (mpirt.tgz,
# kcp-mpi-REV.gz), gpu-bench-mznlib
set -u
REV=$1; shift; WHAT="${*:-ab none hold}"; REPS=${REPS:-3}
D=diameterc-mst_c_v20_a190_d4
OPEN="accap_accap_a40_f800_t180 ma-path-finding_ins_g16_p10_a20 stripboard_common-emitter-simple team-assignment_data3_5_31
      traveling-tppv_circ14cnonbal triangular_n39"
source perf/bench/device/mpi-prep.sh exp66 $REV $D rcpsp_J30_15_5 rcpsp_J30_22_6 \
  $([[ "$WHAT" == *default* ]] && echo rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10 $OPEN)
most=${counts##* }
pairs="branching/any halves/any branching/shallow halves/shallow"
args() { echo "--subproblem-path ${1%/*} --end-game-givers ${1#*/}"; }
if [[ $WHAT == *ab* ]]; then
  for rep in $(seq $REPS); do
    for m in branching halves; do on 1 $D $m-$rep --subproblem-path $m; done
    for k in ${counts#1 }; do
      for pr in $pairs; do on $k $D ${pr/\//-}-$rep $(args $pr); done
    done
    echo "== ab rep $rep $((SECONDS - t0)) s"
  done | tee $R/ab-$REV.txt
fi
if [[ $WHAT == *none* ]]; then
  for rep in $(seq $REPS); do
    for i in rcpsp_J30_15_5 rcpsp_J30_22_6; do
      for pr in $pairs; do on $most $i none-${pr/\//-}-$rep --learn none $(args $pr); done
    done
  done | tee $R/none-$REV.txt
  echo "== none $((SECONDS - t0)) s"
fi
if [[ $WHAT == *default* ]]; then
  for rep in $(seq $REPS); do
    for i in rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10; do
      for pr in branching/any halves/shallow; do on $most $i default-${pr/\//-}-$rep $(args $pr); done
    done
  done | tee $R/default-$REV.txt
  for i in $OPEN; do
    for pr in branching/any halves/shallow; do TL=15000 on $most $i open-${pr/\//-} $(args $pr); done
  done | tee -a $R/default-$REV.txt
  echo "== default $((SECONDS - t0)) s"
fi
if [[ $WHAT == *hold* ]]; then
  { KCP_TRACE=1 on $most $D hold $(args halves/shallow)
    KCP_TRACE=1 on $most rcpsp_J30_22_6 hold $(args halves/shallow) --learn none; } | tee $R/hold-$REV.txt
  echo "== hold $((SECONDS - t0)) s"
fi
