#!/usr/bin/env bash
# Session 18, issue 21: time to proof on 1 and 2 GPUs over several runs (session 17's 2-GPU figures
# were one run each, and the explaining thread's proofs move ±40% from run to run). The same binary
# (kcp-mpi-REV: session 17's s17b, with --subproblem-runs 1, main's default) alone and under mpirun -n 2,
# alternating, REPS times: the default's proofs (rcpsp 13_9, 25_3, 41_10, 45_5) and the complete search
# alone (--learn none: 15_5, 22_6).
# usage (device): [REPS=3] bash perf/bench/device/exp55.sh REV; carry gpu-mpi (mpirt.tgz, kcp-mpi-REV.gz), gpu-bench-mznlib
set -u
REV=$1; REPS=${REPS:-3}
t0=$SECONDS
R=/tmp/res; rm -rf $R; mkdir -p $R /tmp/dev
trap 'tar czf $OUT/exp55-$REV.tgz -C $R .' EXIT
tar xzf gpu-mpi/mpirt.tgz -C /tmp
source perf/bench/device/openmpi-env.sh /tmp/mpirt
B=/tmp/kcp-mpi-$REV
gunzip -c gpu-mpi/kcp-mpi-$REV.gz > $B && chmod +x $B
for f in gpu-bench-mznlib/rcpsp_J30_{13_9,25_3,41_10,45_5,15_5,22_6}.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
nvidia-smi -L | tee $R/gpus.txt
export OMP_PROC_BIND=false
half=$(( $(nproc) / 2 ))
one() {  # GPUS INSTANCE [kcp args]
  local k=$1 i=$2; shift 2
  if [ $k = 1 ]; then
    timeout 25 $B --space cuda -s -t 15000 --subproblem-runs 1 "$@" /tmp/dev/$i.fzn > /tmp/o.txt 2>&1
  else
    timeout 25 mpirun -n 2 --bind-to none -x OMP_NUM_THREADS=$half $B --space cuda -s -t 15000 --subproblem-runs 1 "$@" /tmp/dev/$i.fzn > /tmp/o.txt 2>&1
  fi
  echo "$i gpus=$k [$*] $(grep -E '^%%%mzn-stat: (solveTime|objective|provedByNogood)=' /tmp/o.txt | sed 's/%%%mzn-stat: //' | tr '\n' ' ') $(grep -c '^==========' /tmp/o.txt)opt"
}
for rep in $(seq $REPS); do
  for i in rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10 rcpsp_J30_45_5; do one 1 $i; one 2 $i; done
  for i in rcpsp_J30_15_5 rcpsp_J30_22_6; do one 1 $i --learn none; one 2 $i --learn none; done
  echo "== rep $rep $((SECONDS - t0)) s"
done | tee $R/proofs-$REV.txt
