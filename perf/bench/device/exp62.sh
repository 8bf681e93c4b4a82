#!/usr/bin/env bash
# Session 23, issue 21: rank 0's stock of end-game pieces (perf/NOTES.md entry 34), and how far one
# GPU's own teams scale on the instance. Every rank, the one-GPU run included, gets 16 host
# threads (a one-GPU machine's cores), as in exp58/exp61. s23a was the stock's binary (fa142ce and
# exp62-stock.patch, with the statistics completeNodes and mpiPiecesStocked): measured worse and taken
# out; s21e is e1a2ede's (the code without it).
#   ab:    diameterc-mst (the one instance one GPU proves in 2-15 s) on 1 / 2 / 4 GPUs, BASE's binary
#          and REV's alternating, REPS runs each;
#   teams: REV on one GPU with all its teams, a half and a quarter (--teams; the split follows the
#          complete rows): what one GPU's own parallelism gives on this tree, against what more GPUs give;
#   none:  REV, rcpsp 15_5 and 22_6 with --learn none (proofs that are the complete search's), 1 / 2 / 4
#          GPUs, REPS runs each;
#   trace: REV, one traced four-GPU run of diameterc-mst (KCP_TRACE: a line per slice and rank);
#   free0: BASE with no free teams on the GPUs (--portfolio 0, which turns the host's rows off too;
#          the explaining threads stay), diameterc-mst on 1 / 2 / 4 GPUs and on one GPU with a half and a quarter of its teams,
#          two runs each (every GPU node is then the complete search's: nodes - hostNodes);
#   tperrank: BASE at the default with a half and a quarter of each GPU's teams (--teams) on 2 and 4
#          GPUs, two runs each (one GPU's figures: teams).
#   slots: REV (s23b: 3789449, the GPU's free share a quarter, with an experiment's KCP_SPLIT_SLOTS (not kept) that
#          sets the end-game pool's slots, 256 at most by default), diameterc-mst on 1 / 2 / 4 GPUs, the
#          default and 1,024 slots (one per complete team) alternating, REPS runs each; rcpsp 22_6
#          --learn none likewise on the most GPUs, two runs;
#   open:  REV, final objectives of the six open instances on 1 / 2 / 4 GPUs, 15 s, one run each.
# usage (device): [REPS=3] bash perf/bench/device/exp62.sh REV BASE [ab teams none trace free0 tperrank]; carry gpu-mpi
# (mpirt.tgz, kcp-mpi-REV.gz, kcp-mpi-BASE.gz), gpu-bench-mznlib
set -u
REV=$1 BASE=$2; shift 2; WHAT="${*:-ab teams none trace free0 tperrank}"  # slots, open: by name; REPS=${REPS:-3}
D=diameterc-mst_c_v20_a190_d4
OPEN="accap_accap_a40_f800_t180 ma-path-finding_ins_g16_p10_a20 stripboard_common-emitter-simple team-assignment_data3_5_31
      traveling-tppv_circ14cnonbal triangular_n39"
source perf/bench/device/mpi-prep.sh exp62 $REV $D rcpsp_J30_15_5 rcpsp_J30_22_6 $([[ "$*" == *open* ]] && echo $OPEN)
B=/tmp/kcp-mpi-$BASE
gunzip -c gpu-mpi/kcp-mpi-$BASE.gz > $B && chmod +x $B
stat_line() {
  echo "$(grep -E '^%%%mzn-stat: (teams|solveTime|objective|nodes|completeNodes|hostNodes|timeOfBest|rankIdleTime|splitPieces|mpiPiecesSent|mpiPiecesStocked|launches|provedByNogood)=' $1 |
    sed 's/%%%mzn-stat: //' | tr '\n' ' ') $(grep -c '^==========' $1)opt"
}
on() {  # BINARY GPUS INSTANCE TAG [kcp args]
  local m=$1 k=$2 i=$3 tag=$4 f; shift 4
  f=$R/$i-$tag-$k.txt
  if [ $k = 1 ]; then
    OMP_NUM_THREADS=16 timeout 50 $m --space cuda -s -t ${TL:-40000} "$@" /tmp/dev/$i.fzn > $f 2>&1
  else
    timeout 50 mpirun -n $k --bind-to none -x OMP_NUM_THREADS=16 ${KCP_TRACE:+-x KCP_TRACE} ${KCP_SPLIT_SLOTS:+-x KCP_SPLIT_SLOTS} $m --space cuda -s -t ${TL:-40000} "$@" /tmp/dev/$i.fzn > $f 2>&1
  fi
  echo "$i $tag gpus=$k $(stat_line $f)"
}
if [[ $WHAT == *ab* ]]; then
  for rep in $(seq $REPS); do
    for k in $counts; do
      on $B $k $D $BASE-$rep
      on $M $k $D $REV-$rep
    done
    echo "== ab rep $rep $((SECONDS - t0)) s"
  done | tee $R/ab-$BASE-$REV.txt
fi
if [[ $WHAT == *teams* ]]; then
  all=$(OMP_NUM_THREADS=16 $M --space cuda -s -t 40000 /tmp/dev/$D.fzn 2>&1 | sed -n 's/^%%%mzn-stat: teams=//p')
  echo "teams at the default: $all" | tee $R/teams-$REV.txt
  for rep in 1 2; do
    for t in $all $((all / 2)) $((all / 4)); do on $M 1 $D teams$t-$rep --teams $t; done
  done | tee -a $R/teams-$REV.txt
  echo "== teams $((SECONDS - t0)) s"
fi
if [[ $WHAT == *none* ]]; then
  for rep in $(seq $REPS); do
    for i in rcpsp_J30_15_5 rcpsp_J30_22_6; do
      for k in $counts; do on $M $k $i none-$rep --learn none; done
    done
  done | tee $R/none-$REV.txt
  echo "== none $((SECONDS - t0)) s"
fi
if [[ $WHAT == *trace* ]]; then
  KCP_TRACE=1 on $M 4 $D trace | tee $R/trace-$REV.txt
  echo "== trace $((SECONDS - t0)) s"
fi
if [[ $WHAT == *free0* ]]; then
  for rep in 1 2; do
    for k in $counts; do on $B $k $D free0-$BASE-$rep --portfolio 0; done
    for t in 528 264; do on $B 1 $D free0-teams$t-$BASE-$rep --portfolio 0 --teams $t; done
  done | tee $R/free0-$BASE.txt
  echo "== free0 $((SECONDS - t0)) s"
fi
if [[ $WHAT == *tperrank* ]]; then
  for rep in 1 2; do
    for k in 2 4; do
      for t in 528 264; do on $B $k $D tperrank$t-$BASE-$rep --teams $t; done
    done
  done | tee $R/tperrank-$BASE.txt
  echo "== tperrank $((SECONDS - t0)) s"
fi
if [[ $WHAT == *slots* ]]; then
  for rep in $(seq $REPS); do
    for k in $counts; do
      on $M $k $D slots-default-$rep
      KCP_SPLIT_SLOTS=1024 on $M $k $D slots-1024-$rep
    done
  done | tee $R/slots-$REV.txt
  for rep in 1 2; do
    on $M ${counts##* } rcpsp_J30_22_6 none-slots-default-$rep --learn none
    KCP_SPLIT_SLOTS=1024 on $M ${counts##* } rcpsp_J30_22_6 none-slots-1024-$rep --learn none
  done | tee -a $R/slots-$REV.txt
  echo "== slots $((SECONDS - t0)) s"
fi
if [[ $WHAT == *open* ]]; then
  for i in $OPEN; do
    for k in $counts; do TL=15000 on $M $k $i open; done
  done | tee $R/open-$REV.txt
  echo "== open $((SECONDS - t0)) s"
fi
