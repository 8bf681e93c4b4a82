#!/usr/bin/env bash
# Session 25, issue 21: shorter slices in the end game across ranks (--end-game-slice MS: once no chunk
# is left for a rank, or pieces are asked of it, or (rank 0) a rank is hungry, its slices aim at MS
# instead of 50 ms; a piece crosses ranks in four slices: asked, given, sent to rank 0, handed on).
# Every rank, the one-GPU run included, gets 16 host threads, as in exp58-exp66.
#   ab:      diameterc-mst: one GPU (halves), then on 2 and 4 GPUs halves/shallow at MS = 0 (50 ms), 10,
#            5, and branching/any at 0 and 10 on the most GPUs, alternating, REPS runs each;
#   none:    rcpsp 15_5 and 22_6 --learn none on the most GPUs, branching/any and halves/shallow, each at
#            MS = 0 and 10, REPS runs;
#   default: the default search on the most GPUs, against halves/shallow at 10 ms: rcpsp 13_9, 25_3,
#            41_10, REPS runs, and (OPEN=1) the six open instances, 15 s, one run each;
#   hold:    one traced run (KCP_TRACE) of diameterc-mst on the most GPUs, halves/shallow at 10 ms.
# usage (device): [REPS=3] bash perf/bench/device/exp67.sh REV [ab none default hold]; carry gpu-mpi
# (mpirt.tgz, kcp-mpi-REV.gz), gpu-bench-mznlib
set -u
REV=$1; shift; WHAT="${*:-ab none default hold}"; REPS=${REPS:-3}
D=diameterc-mst_c_v20_a190_d4
OPEN="accap_accap_a40_f800_t180 ma-path-finding_ins_g16_p10_a20 stripboard_common-emitter-simple team-assignment_data3_5_31
      traveling-tppv_circ14cnonbal triangular_n39"
source perf/bench/device/mpi-prep.sh exp67 $REV $D rcpsp_J30_15_5 rcpsp_J30_22_6 \
  $([[ "$WHAT" == *default* ]] && echo rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10 $([ -n "${OPEN_RUNS:-}" ] && echo $OPEN))
most=${counts##* }
# args PATH/GIVERS/MS
args() { local p=${1%%/*} rest=${1#*/}; echo "--subproblem-path $p --end-game-givers ${rest%/*} --end-game-slice ${rest#*/}"; }
tag() { echo ${1//\//-}; }
if [[ $WHAT == *ab* ]]; then
  for rep in $(seq $REPS); do
    on 1 $D halves-$rep --subproblem-path halves
    for k in ${counts#1 }; do
      for c in halves/shallow/0 halves/shallow/10 halves/shallow/5; do on $k $D $(tag $c)-$rep $(args $c); done
    done
    for c in branching/any/0 branching/any/10; do on $most $D $(tag $c)-$rep $(args $c); done
    echo "== ab rep $rep $((SECONDS - t0)) s"
  done | tee $R/ab-$REV.txt
fi
if [[ $WHAT == *none* ]]; then
  for rep in $(seq $REPS); do
    for i in rcpsp_J30_15_5 rcpsp_J30_22_6; do
      for c in branching/any/0 branching/any/10 halves/shallow/0 halves/shallow/10; do
        on $most $i none-$(tag $c)-$rep --learn none $(args $c)
      done
    done
  done | tee $R/none-$REV.txt
  echo "== none $((SECONDS - t0)) s"
fi
if [[ $WHAT == *default* ]]; then
  for rep in $(seq $REPS); do
    for i in rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10; do
      for c in branching/any/0 halves/shallow/10; do on $most $i default-$(tag $c)-$rep $(args $c); done
    done
  done | tee $R/default-$REV.txt
  if [ -n "${OPEN_RUNS:-}" ]; then
    for i in $OPEN; do
      for c in branching/any/0 halves/shallow/10; do TL=15000 on $most $i open-$(tag $c) $(args $c); done
    done | tee -a $R/default-$REV.txt
  fi
  echo "== default $((SECONDS - t0)) s"
fi
if [[ $WHAT == *hold* ]]; then
  KCP_TRACE=1 on $most $D hold $(args halves/shallow/10) | tee $R/hold-$REV.txt
  echo "== hold $((SECONDS - t0)) s"
fi
