#!/usr/bin/env bash
# Session 28, issue 21: the probe on the host. Beside a GPU the one-team probe (--probe-ms, 50 ms) ran on
# the GPU, one team of 8 x 32 threads, before the fleet: diameterc-mst, which it never finishes, paid
# 53-90 ms of every proof for it (probeTime), on one GPU and on four alike, so four GPUs' 0.9-1.0 s
# proof carried 6-9 % of time that does not split. A host thread runs the same small trees 10-50x
# faster (this VM: rcpsp_J30_44_9 in 1-2 ms against 16 ms on an H200). NEW runs the probe on the host
# (OLD, the binary before: on the GPU), alternating, REPS runs each:
#   diameterc-mst, time to proof, on one GPU and on the most GPUs: OLD, NEW at 50 / 20 / 0 ms, and on
#   the most GPUs NEW at 20 ms with 15 host threads a rank (the host loop's own core: 4 x 16 + 4 on 64);
#   the rcpsp trees the probe finishes or nearly does, one GPU, OLD against NEW at 50 and 20 ms;
#   rcpsp 13_9, 25_3, 41_10 (the explaining threads' proofs) on the most GPUs, OLD against NEW at 20 ms.
# usage (device): [REPS=3] bash perf/bench/device/exp81.sh NEW OLD; carry gpu-mpi, gpu-bench-mznlib
set -u
NEW=$1 OLD=$2; REPS=${REPS:-3}
STATS='solveTime|objective|completeNodes|teams|timeOfBest|rankIdleTime|probeTime|probeFinished|searchSetupTime|provedByNogood'
TINY="rcpsp_J30_44_9 rcpsp_J30_43_6 rcpsp_J30_17_7 rcpsp_J30_22_6 rcpsp_J30_21_4"
source perf/bench/device/mpi-prep.sh exp81 $NEW diameterc-mst_c_v20_a190_d4 rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10 $TINY
MNEW=$M MOLD=/tmp/kcp-mpi-$OLD
gunzip -c gpu-mpi/kcp-mpi-$OLD.gz > $MOLD && chmod +x $MOLD
D=diameterc-mst_c_v20_a190_d4
most=${counts##* }
for rep in $(seq $REPS); do
  for k in 1 $most; do
    M=$MOLD on $k $D old-$rep
    M=$MNEW on $k $D new50-$rep
    M=$MNEW on $k $D new20-$rep --probe-ms 20
    M=$MNEW on $k $D new0-$rep --probe-ms 0
  done
  M=$MNEW THREADS=15 on $most $D new20t15-$rep --probe-ms 20
done | tee $R/diameterc-$NEW.txt
echo "== diameterc $((SECONDS - t0)) s"
for rep in 1 2; do
  for i in $TINY; do
    M=$MOLD on 1 $i old-$rep
    M=$MNEW on 1 $i new50-$rep
    M=$MNEW on 1 $i new20-$rep --probe-ms 20
  done
done | tee $R/tiny-$NEW.txt
echo "== tiny $((SECONDS - t0)) s"
for rep in 1 2; do
  for i in rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10; do
    M=$MOLD on $most $i old-$rep
    M=$MNEW on $most $i new20-$rep --probe-ms 20
  done
done | tee $R/rcpsp-$NEW.txt
echo "== rcpsp $((SECONDS - t0)) s"
