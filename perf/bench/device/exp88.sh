#!/usr/bin/env bash
# Session 29, issue 21: where four GPUs' proof of diameterc-mst spends its last ~70 ms. exp87's traces:
# the last rank's last slice ends 73-90 ms before rank 0's solveTime (less the probe) on four GPUs, 12-40
# ms on one. REV traces the end stage by stage (kcp-trace-stage: the loop's end, the explaining threads
# stopped, the ranks' conclusion, with a wall clock that lines the ranks up).
#   diameterc-mst with KCP_TRACE: the most GPUs 3 runs (default), 1 run with --probe-ms 0; one GPU 2 runs;
#   the small trees the probe finishes on one GPU (exp81), on the most GPUs: default against --probe-ms 0,
#   two runs each (what dropping the probe under mpirun would cost them).
# usage (device): bash perf/bench/device/exp88.sh REV; carry gpu-mpi, gpu-bench-mznlib
set -u
REV=$1
STATS='solveTime|objective|completeNodes|timeOfBest|rankIdleTime|probeTime|probeFinished|searchSetupTime|initTime'
D=diameterc-mst_c_v20_a190_d4
TINY="rcpsp_J30_44_9 rcpsp_J30_43_6 rcpsp_J30_17_7 rcpsp_J30_22_6 rcpsp_J30_21_4"
source perf/bench/device/mpi-prep.sh exp88 $REV $D $TINY
most=${counts##* }
{
  for rep in 1 2 3; do KCP_TRACE=1 on $most $D trace-$rep; done
  KCP_TRACE=1 on $most $D trace-p0 --probe-ms 0
  for rep in 1 2; do KCP_TRACE=1 on 1 $D trace-$rep; done
} | tee $R/trace-$REV.txt
echo "== trace $((SECONDS - t0)) s"
for rep in 1 2; do
  for i in $TINY; do
    on $most $i p20-$rep
    on $most $i p0-$rep --probe-ms 0
  done
done | tee $R/tiny-$REV.txt
echo "== tiny $((SECONDS - t0)) s"
