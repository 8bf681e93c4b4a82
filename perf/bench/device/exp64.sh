#!/usr/bin/env bash
# Session 24, issue 21: the order in which the ranks get their chunks of subproblems (perf/NOTES.md
# entry 35). Entry 34's trace showed one rank holding the heavy work once the counter empties; if the
# heavy subtrees lie together in the tree, chunks dealt in the tree's order put them on one rank, and
# `--mpi-work spread` (chunk c is the one whose index is c's bits reversed) or `static` (round-robin)
# would share them out at the start instead of through the end game's pieces. Every rank, the one-GPU
# run included, gets 16 host threads (a one-GPU machine's cores), as in exp58/exp61/exp62.
#   work:  diameterc-mst (the one instance one GPU proves in 2-15 s): one GPU, then on 2 and 4 GPUs
#          --mpi-work dynamic / spread / static alternating, and on 4 also spread with the one-GPU split
#          (--subproblems 12), REPS runs each;
#   none:  rcpsp 22_6 --learn none (a proof that is the complete search's) on the most GPUs, dynamic and
#          spread alternating, REPS runs;
#   trace: one traced run of diameterc-mst on the most GPUs with spread (KCP_TRACE: a line per slice and rank);
#   hold:  (s24b, with the trace's holdings: what the complete rows hold at each slice's end) one traced run
#          of diameterc-mst on each GPU count at the default (dynamic);
#   open:  final objectives of the six open instances, 15 s, one run each: one GPU, and the most GPUs
#          with dynamic and with spread.
# usage (device): [REPS=3] bash perf/bench/device/exp64.sh REV [work none trace hold open]; carry gpu-mpi
# (mpirt.tgz, kcp-mpi-REV.gz), gpu-bench-mznlib
set -u
REV=$1; shift; WHAT="${*:-work none trace}"; REPS=${REPS:-3}
D=diameterc-mst_c_v20_a190_d4
OPEN="accap_accap_a40_f800_t180 ma-path-finding_ins_g16_p10_a20 stripboard_common-emitter-simple team-assignment_data3_5_31
      traveling-tppv_circ14cnonbal triangular_n39"
STATS="initTime|solveTime|searchSetupTime|objective|nodes|completeNodes|timeOfBest|rankIdleTime|mpiWork|chunks|subproblems|splitPieces|mpiPiecesSent|provedByNogood"
source perf/bench/device/mpi-prep.sh exp64 $REV $D rcpsp_J30_22_6 $([[ "$WHAT" == *open* ]] && echo $OPEN)
most=${counts##* }
if [[ $WHAT == *work* ]]; then
  for rep in $(seq $REPS); do
    on 1 $D one-$rep
    for k in ${counts#1 }; do
      for w in dynamic spread static; do on $k $D $w-$rep --mpi-work $w; done
    done
    on $most $D spread-p12-$rep --mpi-work spread --subproblems 12
    echo "== work rep $rep $((SECONDS - t0)) s"
  done | tee $R/work-$REV.txt
fi
if [[ $WHAT == *none* ]]; then
  for rep in $(seq $REPS); do
    for w in dynamic spread; do on $most rcpsp_J30_22_6 none-$w-$rep --learn none --mpi-work $w; done
  done | tee $R/none-$REV.txt
  echo "== none $((SECONDS - t0)) s"
fi
if [[ $WHAT == *trace* ]]; then
  KCP_TRACE=1 on $most $D trace-spread --mpi-work spread | tee $R/trace-$REV.txt
  echo "== trace $((SECONDS - t0)) s"
fi
if [[ $WHAT == *hold* ]]; then
  for k in $counts; do KCP_TRACE=1 on $k $D hold; done | tee $R/hold-$REV.txt
  echo "== hold $((SECONDS - t0)) s"
fi
if [[ $WHAT == *open* ]]; then
  for i in $OPEN; do
    TL=15000 on 1 $i open
    for w in dynamic spread; do TL=15000 on $most $i open-$w --mpi-work $w; done
  done | tee $R/open-$REV.txt
  echo "== open $((SECONDS - t0)) s"
fi
