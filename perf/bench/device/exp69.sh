#!/usr/bin/env bash
# Session 25, issue 21: the free share of ranks other than 0 (--rank-portfolio F). exp68 found four GPUs'
# proofs of diameterc-mst set by work, not by idle ranks: ~30 % more propagations than one GPU, and free
# teams take the complete search's share of a GPU (entry 34). With F = 0 ranks 1.. give their GPU's teams
# all to the complete search; rank 0's free teams and every rank's host teams search for incumbents.
# Configurations: def (the default), hs (--subproblem-path halves --end-game-givers shallow), def0 and
# hs0 (each with --rank-portfolio 0).
#   ab:      diameterc-mst: one GPU (def, hs), then 2 and 4 GPUs, the four, alternating, REPS runs;
#   default: rcpsp 13_9, 25_3, 41_10 (the explaining threads' proofs) on the most GPUs, def against
#            hs0, REPS runs; 22_6 --learn none (the complete search's), def against def0;
#   open:    the six open instances, 15 s, one run each: one GPU (def; four at once, one per GPU), two
#            GPUs (def and def0 at once, a pair of GPUs each), the most GPUs (def, def0).
# usage (device): [REPS=3] bash perf/bench/device/exp69.sh REV [ab default open]; carry gpu-mpi (mpirt.tgz,
# kcp-mpi-REV.gz), gpu-bench-mznlib
set -u
REV=$1; shift; WHAT="${*:-ab default open}"; REPS=${REPS:-3}
D=diameterc-mst_c_v20_a190_d4
OPEN="accap_accap_a40_f800_t180 ma-path-finding_ins_g16_p10_a20 stripboard_common-emitter-simple team-assignment_data3_5_31
      traveling-tppv_circ14cnonbal triangular_n39"
source perf/bench/device/mpi-prep.sh exp69 $REV $D rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10 rcpsp_J30_22_6 \
  $([[ "$WHAT" == *open* ]] && echo $OPEN)
most=${counts##* }
args() {
  case $1 in
    def) ;; hs) echo --subproblem-path halves --end-game-givers shallow ;;
    def0) echo --rank-portfolio 0 ;; hs0) echo --subproblem-path halves --end-game-givers shallow --rank-portfolio 0 ;;
  esac
}
if [[ $WHAT == *ab* ]]; then
  for rep in $(seq $REPS); do
    for c in def hs; do on 1 $D $c-$rep $(args $c); done
    for k in ${counts#1 }; do
      for c in def hs def0 hs0; do on $k $D $c-$rep $(args $c); done
    done
    echo "== ab rep $rep $((SECONDS - t0)) s"
  done | tee $R/ab-$REV.txt
fi
if [[ $WHAT == *default* ]]; then
  for rep in $(seq $REPS); do
    for i in rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10; do
      for c in def hs0; do on $most $i default-$c-$rep $(args $c); done
    done
    for c in def def0; do on $most rcpsp_J30_22_6 none-$c-$rep --learn none $(args $c); done
  done | tee $R/default-$REV.txt
  echo "== default $((SECONDS - t0)) s"
fi
if [[ $WHAT == *open* ]]; then
  set -- $OPEN
  while [ $# -gt 0 ]; do
    batch=""; for g in $(seq 0 $((most - 1))); do [ $# -gt 0 ] && { at $g 1 $1 open-def; batch="$batch $1"; shift; }; done
    wait
    for i in $batch; do echo "$i open-def gpus=1 $(stat_line $R/$i-open-def-1.txt)"; done
  done | tee $R/open-$REV.txt
  for i in $OPEN; do
    at 0,1 2 $i open-def; at 2,3 2 $i open-def0 $(args def0); wait
    for c in def def0; do echo "$i open-$c gpus=2 $(stat_line $R/$i-open-$c-2.txt)"; done
  done | tee -a $R/open-$REV.txt
  if [ $most = 4 ]; then
    for i in $OPEN; do
      for c in def def0; do TL=15000 on 4 $i open-$c $(args $c); done
    done | tee -a $R/open-$REV.txt
  fi
  echo "== open $((SECONDS - t0)) s"
fi
