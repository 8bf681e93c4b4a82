#!/usr/bin/env bash
# Session 20, issue 21: 1, 2 and 4 GPUs (mpirun -n K, one rank a GPU) with the faster explaining search
# and four explaining threads a rank (perf/NOTES.md entry 31). Every rank, the one-GPU run included, gets
# 16 host threads (OMP_NUM_THREADS=16: a one-GPU machine's cores), so one GPU is the 15 s sweep's shape.
#   scale: time to proof, REPS runs each, alternating GPU counts: the development set's instances that
#          one GPU proves in 2-15 s (exp57's 15 s sweep: diameterc-mst), and rcpsp 13_9 / 25_3 / 41_10
#          (1-1.6 s now, the set before).
#   open:  final objectives at 15 s on 1, 2 and 4 GPUs, one run each, of the instances no GPU proves.
# usage (device): [REPS=2] bash perf/bench/device/exp58.sh REV scale|open ...; carry gpu-mpi (mpirt.tgz,
# kcp-mpi-REV.gz), gpu-bench-mznlib
set -u
REV=$1; shift; WHAT="$*"; REPS=${REPS:-2}
source perf/bench/device/mpi-prep.sh exp58 $REV all
stat_line() { echo "$(grep -E '^%%%mzn-stat: (solveTime|objective|nodes|explainThreads|rankIdleTime|mpiNogoodsReceived)=' /tmp/o.txt | sed 's/%%%mzn-stat: //' | tr '\n' ' ') $(grep -c '^==========' /tmp/o.txt)opt"; }
on() {  # GPUS INSTANCE [kcp args]
  local k=$1 i=$2; shift 2
  if [ $k = 1 ]; then
    OMP_NUM_THREADS=16 timeout 30 $M --space cuda -s -t 15000 "$@" /tmp/dev/$i.fzn > /tmp/o.txt 2>&1
  else
    timeout 30 mpirun -n $k --bind-to none -x OMP_NUM_THREADS=16 $M --space cuda -s -t 15000 "$@" /tmp/dev/$i.fzn > /tmp/o.txt 2>&1
  fi
}
if [[ $WHAT == *scale* ]]; then
  for rep in $(seq $REPS); do
    for i in diameterc-mst_c_v20_a190_d4 rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10; do
      for k in $counts; do on $k $i; echo "$i gpus=$k $(stat_line)"; done
    done
    echo "== scale rep $rep $((SECONDS - t0)) s"
  done | tee $R/scale-$REV.txt
fi
if [[ $WHAT == *open* ]]; then
  for i in accap_accap_a40_f800_t180 ma-path-finding_ins_g16_p10_a20 stripboard_common-emitter-simple \
           team-assignment_data3_5_31 traveling-tppv_circ14cnonbal triangular_n39; do
    for k in $counts; do on $k $i; echo "$i gpus=$k $(stat_line)"; done
  done | tee $R/open-$REV.txt
  echo "== open $((SECONDS - t0)) s"
fi
