#!/usr/bin/env bash
# Session 21, issue 21: where 2 and 4 GPUs lose time on diameterc-mst (the one instance one GPU proves in
# 2-15 s), one factor at a time, in one binary (kcp-mpi-REV):
#   A  every rank 16 host threads (exp58's shape: a one-GPU machine's cores per rank; the four-GPU host has 64);
#   B  the host's threads divided between the ranks (-p 16/K);
#   C  B and the one-GPU split (--subproblems 12: 4 per complete row of one GPU, not of all ranks);
#   D  C and the ranks beyond 0 with a quarter of their teams free (--portfolio 0.25, rank 0 keeps 0.5);
#   E  C and the ranks beyond 0 with complete search only (--portfolio 0).
# usage (device): [REPS=2] bash perf/bench/device/exp60.sh REV [CONFIGS] [INSTANCES]; carry gpu-mpi
# (mpirt.tgz, kcp-mpi-REV.gz), gpu-bench-mznlib
set -u
REV=$1; CONFIGS=${2:-ABCDE}; INST=${3:-diameterc-mst_c_v20_a190_d4}; REPS=${REPS:-2}; TL=${TL:-15000}
source perf/bench/device/mpi-prep.sh exp60 $REV $INST
stat_line() { echo "$(grep -E '^%%%mzn-stat: (solveTime|objective|nodes|timeOfBest|probeTime|searchSetupTime|rankIdleTime|mpiNogoodsReceived|splitPieces|provedByNogood)=' $1 | sed 's/%%%mzn-stat: //' | tr '\n' ' ') $(grep -c '^==========' $1)opt"; }
on() {  # CONFIG GPUS INSTANCE
  local c=$1 k=$2 i=$3 p=$((16 / $2)) a0="" a1=""
  [ $c = A ] && p=16
  [[ $c == [CDE] ]] && a0="--subproblems 12"
  a1=$a0; [ $c = D ] && a1="$a0 --portfolio 0.25"; [ $c = E ] && a1="$a0 --portfolio 0"
  local run="-s -t $TL /tmp/dev/$i.fzn" f=$R/$i-$c-$k-$rep.txt
  if [ $k = 1 ]; then
    timeout 40 $M --space cuda -p 16 $a0 $run > $f 2>&1
  else
    timeout 40 mpirun --bind-to none -n 1 $M --space cuda -p $p $a0 $run : -n $((k - 1)) $M --space cuda -p $p $a1 $run > $f 2>&1
  fi
  echo "$i $c gpus=$k $(stat_line $f)"
}
for rep in $(seq $REPS); do
  for i in $INST; do
    for k in $counts; do
      for c in $(echo $CONFIGS | fold -w1); do
        [ $k = 1 ] && [[ $c == [BDE] ]] && continue
        on $c $k $i
      done
    done
  done
  echo "== rep $rep $((SECONDS - t0)) s"
done | tee $R/scale-$REV.txt
