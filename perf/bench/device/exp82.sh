#!/usr/bin/env bash
# Session 28, issue 21: the defaults after the probe moved to the host (20 ms), and the host loop's core.
# Under mpirun on four GPUs each rank runs 16 host threads (12 free rows, 4 explaining) beside its host
# loop, which drives the GPU and the messages: 68 threads on 64 cores; exp81 had 15 threads a rank ahead
# by 4 % in three runs (12 free rows and 3 explaining threads). REPS runs each, alternating,
# diameterc-mst's time to proof: one GPU and the most GPUs by default and with 11 free host rows (the
# host loop's core left to it), the most GPUs also with 15 threads; then the trees the probe finishes,
# one GPU; ma-path-finding at 15 s on one GPU (twice) and on the most GPUs.
# usage (device): [REPS=5] [OLD=REV0 (traces)] bash perf/bench/device/exp82.sh REV; carry gpu-mpi, gpu-bench-mznlib
set -u
REV=$1; REPS=${REPS:-5}
STATS='initTime|solveTime|objective|completeNodes|teams|timeOfBest|rankIdleTime|probeTime|probeFinished|hostTeams|explainThreads|provedByNogood'
TINY="rcpsp_J30_44_9 rcpsp_J30_43_6 rcpsp_J30_17_7 rcpsp_J30_22_6 rcpsp_J30_21_4"
source perf/bench/device/mpi-prep.sh exp82 $REV diameterc-mst_c_v20_a190_d4 ma-path-finding_ins_g16_p10_a20 $TINY
D=diameterc-mst_c_v20_a190_d4
most=${counts##* }
for rep in $(seq $REPS); do
  on 1 $D default-$rep; on 1 $D h11-$rep --host-teams 11
  on $most $D default-$rep; on $most $D h11-$rep --host-teams 11; THREADS=15 on $most $D t15-$rep
done | tee $R/threads-$REV.txt
echo "== threads $((SECONDS - t0)) s"
# Where the probe's time went: the fleet's first slices after a probe on the GPU (OLD) and on the host.
if [ -n "${OLD:-}" ]; then
  gunzip -c gpu-mpi/kcp-mpi-$OLD.gz > /tmp/kcp-old && chmod +x /tmp/kcp-old
  for rep in 1 2; do
    KCP_TRACE=1 M=/tmp/kcp-old on 1 $D trace-old-$rep; KCP_TRACE=1 on 1 $D trace-new-$rep
  done | tee $R/trace-$REV.txt
fi
for rep in 1 2; do for i in $TINY; do on 1 $i default-$rep; done; done | tee $R/tiny-$REV.txt
echo "== tiny $((SECONDS - t0)) s"
for rep in 1 2; do TL=15000 on 1 ma-path-finding_ins_g16_p10_a20 default-$rep; done | tee $R/ma-path-$REV.txt
TL=15000 on $most ma-path-finding_ins_g16_p10_a20 default | tee -a $R/ma-path-$REV.txt
echo "== ma-path $((SECONDS - t0)) s"
