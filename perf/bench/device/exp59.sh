#!/usr/bin/env bash
# Session 20, issue 21: why a rank idles at diameterc-mst's end (exp58: 1.1-1.4 s of 3.5 s over two ranks).
# A/B of the cross-rank piece cap: 64 pieces per hungry rank (the code then) or KCP_PIECE_CAP, read by an
# experiment binary (s20x: 1163077 with the cap read from the environment) and not by kcp since: the cap is
# now every complete row of the hungry rank (perf/NOTES.md entry 31).
# usage (device): [REPS=2] bash perf/bench/device/exp59.sh REV; carry gpu-mpi (mpirt.tgz, kcp-mpi-REV.gz), gpu-bench-mznlib
set -u
REV=$1; REPS=${REPS:-2}
export OMP_PROC_BIND=false
t0=$SECONDS
R=/tmp/res; rm -rf $R; mkdir -p $R /tmp/dev
trap 'tar czf $OUT/exp59-$REV.tgz -C $R .' EXIT
gunzip -c gpu-bench-mznlib/diameterc-mst_c_v20_a190_d4.fzn.gz > /tmp/dev/d.fzn
tar xzf gpu-mpi/mpirt.tgz -C /tmp
source perf/bench/device/openmpi-env.sh /tmp/mpirt
M=/tmp/kcp-mpi-$REV
gunzip -c gpu-mpi/kcp-mpi-$REV.gz > $M && chmod +x $M
st() { echo "$(grep -E '^%%%mzn-stat: (solveTime|nodes|splitPieces|rankIdleTime|mpiPiecesSent|mpiPiecesReceived|provedByNogood|subproblemsSolved|improvementsExplain)=' /tmp/o.txt | sed 's/%%%mzn-stat: //' | tr '\n' ' ') $(grep -c '^==========' /tmp/o.txt)opt"; }
{
for rep in $(seq $REPS); do
  OMP_NUM_THREADS=16 timeout 30 $M --space cuda -s -t 15000 /tmp/dev/d.fzn > /tmp/o.txt 2>&1; echo "gpus=1 $(st)"
  for cap in 64 100000; do
    timeout 30 mpirun -n 2 --bind-to none -x OMP_NUM_THREADS=16 -x KCP_PIECE_CAP=$cap $M --space cuda -s -t 15000 /tmp/dev/d.fzn > /tmp/o.txt 2>&1; echo "gpus=2 cap=$cap $(st)"
  done
  timeout 30 mpirun -n 2 --bind-to none -x OMP_NUM_THREADS=16 $M --space cuda -s -t 15000 --learn none /tmp/dev/d.fzn > /tmp/o.txt 2>&1; echo "gpus=2 learn=none $(st)"
  OMP_NUM_THREADS=16 timeout 30 $M --space cuda -s -t 15000 --learn none /tmp/dev/d.fzn > /tmp/o.txt 2>&1; echo "gpus=1 learn=none $(st)"
done
} | tee $R/idle-$REV.txt
echo "== total $((SECONDS - t0)) s"
