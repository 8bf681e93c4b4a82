#!/usr/bin/env bash
# Session 29, issue 21: the ends and the start of a distributed search (exp88's traces on four H200s:
# rank 0 joined its four explaining threads one by one, 20-40 ms, before telling the other ranks to
# stop, which then joined theirs, 15-35 ms more; and each rank's clock started as it arrived, up to
# 55 ms before the slowest). NEW tells every explaining thread at once (and checks every 64 propagator
# runs instead of 1,024), rank 0 tells the ranks before it joins its own, and every rank waits for the
# others before its search's clock starts (the wait in initTime). OLD is the binary before. Alternating,
# REPS runs each: diameterc-mst on 1 and the most GPUs (and 2 where there are more, 3 runs); rcpsp
# 13_9 / 25_3 / 41_10 (the explaining searches' proofs) on the most GPUs, 2 runs; two traced runs of NEW
# on the most GPUs. Each line ends with the run's wall time (mpirun or kcp, start to exit).
# usage (device): [REPS=6] bash perf/bench/device/exp89.sh NEW OLD; carry gpu-mpi, gpu-bench-mznlib
set -u
NEW=$1 OLD=$2; REPS=${REPS:-6}
STATS='solveTime|initTime|objective|completeNodes|timeOfBest|rankIdleTime|probeTime|explainThreads'
D=diameterc-mst_c_v20_a190_d4
source perf/bench/device/mpi-prep.sh exp89 $NEW $D rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10
MNEW=$M MOLD=/tmp/kcp-mpi-$OLD
gunzip -c gpu-mpi/kcp-mpi-$OLD.gz > $MOLD && chmod +x $MOLD
most=${counts##* }
timed() { local s=$(date +%s.%N); "$@" | tr -d '\n'; echo " wall=$(awk -v a=$s -v b=$(date +%s.%N) 'BEGIN{printf "%.3f", b - a}')"; }
for rep in $(seq $REPS); do
  for k in 1 $most; do
    M=$MOLD timed on $k $D old-$rep
    M=$MNEW timed on $k $D new-$rep
  done
done | tee $R/diameterc-$NEW.txt
echo "== diameterc $((SECONDS - t0)) s"
if [ $most -gt 2 ]; then
  for rep in 1 2 3; do
    M=$MOLD timed on 2 $D old-$rep
    M=$MNEW timed on 2 $D new-$rep
  done | tee $R/diameterc2-$NEW.txt
fi
for rep in 1 2; do
  for i in rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10; do
    M=$MOLD timed on $most $i old-$rep
    M=$MNEW timed on $most $i new-$rep
  done
done | tee $R/rcpsp-$NEW.txt
echo "== rcpsp $((SECONDS - t0)) s"
for rep in 1 2; do KCP_TRACE=1 M=$MNEW on $most $D trace-$rep; done | tee $R/trace-$NEW.txt
echo "== trace $((SECONDS - t0)) s"
