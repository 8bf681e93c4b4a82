#!/usr/bin/env bash
# Session 25, issue 21: the candidate multi-GPU default of exp69, hs0 (--subproblem-path halves
# --end-game-givers shallow --rank-portfolio 0), where exp69 did not run it:
#   default: rcpsp 13_9, 25_3, 41_10 (the default search's proofs) on two GPUs, def against hs0, REPS
#            runs; 22_6 --learn none (the complete search's) on the most GPUs, def against hs0;
#   open:    the six open instances, 15 s, one run each with hs0: on the most GPUs, and on two GPUs twice
#            at once (GPUs 0,1 and 2,3).
# usage (device): [REPS=2] bash perf/bench/device/exp70.sh REV [default open]; carry gpu-mpi (mpirt.tgz,
# kcp-mpi-REV.gz), gpu-bench-mznlib
set -u
REV=$1; shift; WHAT="${*:-default open}"; REPS=${REPS:-2}
OPEN="accap_accap_a40_f800_t180 ma-path-finding_ins_g16_p10_a20 stripboard_common-emitter-simple team-assignment_data3_5_31
      traveling-tppv_circ14cnonbal triangular_n39"
source perf/bench/device/mpi-prep.sh exp70 $REV rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10 rcpsp_J30_22_6 \
  $([[ "$WHAT" == *open* ]] && echo $OPEN)
most=${counts##* }
HS0="--subproblem-path halves --end-game-givers shallow --rank-portfolio 0"
if [[ $WHAT == *default* ]]; then
  for rep in $(seq $REPS); do
    for i in rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10; do
      on 2 $i default-def-$rep; on 2 $i default-hs0-$rep $HS0
    done
    on $most rcpsp_J30_22_6 none-def-$rep --learn none; on $most rcpsp_J30_22_6 none-hs0-$rep --learn none $HS0
  done | tee $R/default-$REV.txt
  echo "== default $((SECONDS - t0)) s"
fi
if [[ $WHAT == *open* ]]; then
  for i in $OPEN; do
    TL=15000 on $most $i open-hs0 $HS0
    if [ $most = 4 ]; then
      at 0,1 2 $i open-hs0-a $HS0; at 2,3 2 $i open-hs0-b $HS0; wait
      for c in hs0-a hs0-b; do echo "$i open-$c gpus=2 $(stat_line $R/$i-open-$c-2.txt)"; done
    fi
  done | tee $R/open-$REV.txt
  echo "== open $((SECONDS - t0)) s"
fi
