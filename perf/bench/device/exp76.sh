#!/usr/bin/env bash
# Session 26, issue 21: where four GPUs' time goes once the dive cache cut their propagations by a tenth
# without cutting the time (exp75): KCP_TRACE of diameterc-mst on the most GPUs the host has with and
# without the cache (and REV2's, when given), two runs each, and when each rank's counter emptied (its
# first slice with nothing unclaimed) and its last slice, against the proof's time.
# usage (device): bash perf/bench/device/exp76.sh REV [REV2]; carry gpu-mpi, gpu-bench-mznlib
set -u
REV=$1; REV2=${2:-}
STATS='solveTime|completeNodes|pathNodes|propagations|diveCacheHits|diveCacheMisses|divePrefetches|rankIdleTime|splitPieces|mpiPiecesSent'
source perf/bench/device/mpi-prep.sh exp76 $REV diameterc-mst_c_v20_a190_d4
D=diameterc-mst_c_v20_a190_d4
most=${counts##* }
empties() {  # the first slice of each rank with nothing unclaimed, and its last slice
  for r in $(seq 0 $((${most} - 1))); do
    echo "  rank $r: empty at $(grep "kcp-trace rank=$r " $1 | grep -m1 'unclaimed=0 ' | sed 's/.* t=\([0-9.]*\) .*/\1/'), last slice at $(grep "kcp-trace rank=$r " $1 | tail -1 | sed 's/.* t=\([0-9.]*\) .*/\1/')"
  done
}
export KCP_TRACE=1
for rep in 1 2; do
  on 1 $D trace-one-$rep; most=1 empties $R/$D-trace-one-$rep-1.txt
  on $most $D trace-cache-$rep; empties $R/$D-trace-cache-$rep-$most.txt
  on $most $D trace-off-$rep --no-dive-cache; empties $R/$D-trace-off-$rep-$most.txt
  if [ -n "$REV2" ]; then
    M0=$M; M=/tmp/kcp-mpi-$REV2; gunzip -c gpu-mpi/kcp-mpi-$REV2.gz > $M && chmod +x $M
    on $most $D trace-$REV2-$rep; empties $R/$D-trace-$REV2-$rep-$most.txt
    M=$M0
  fi
done 2>&1 | tee $R/trace-$REV.txt
unset KCP_TRACE
echo "== trace $((SECONDS - t0)) s"
