#!/usr/bin/env bash
# Session 8, issue 17's last CUDA items. (1) gfd-schedule, wordpress and tower at 15 s with the bounds-only
# store (--bitset-span 0) and the default (64), the first two twice, to tell the bitset store's effect on
# their objectives and nodes/s from the run-to-run spread; (2) the differential with holes on CUDA: 2,000
# diff.py --holes models (seeds 20261125, 20261126; emitted here with Gecode's outputs) through kcp_batch.
# usage (device): bash perf/bench/device/exp23.sh REV; carry build/gpu/bin/kcp-REV, build/gpu/race/kcp_batch-REV,
# gpu-bench/ (the dev set), gpu-holes/holes-diff.tgz (diff.py --emit DIR --holes, both seeds, as cuda-diff/).
set -u
REV=$1; B=build/gpu/bin/kcp-$REV
export OMP_PROC_BIND=false
t0=$SECONDS
source perf/bench/device/common.sh
for rep in 1 2; do
  only="gfd-schedule wordpress"; [ $rep = 1 ] && only="$only tower"
  configuration cuda-15s-span64-r$rep-$REV cuda 15 "$only" --bitset-span 64
  configuration cuda-15s-span0-r$rep-$REV cuda 15 "$only" --bitset-span 0
done
cp $OUT/b/*.csv $OUT/ && rm -rf $OUT/b
echo "== timings $((SECONDS - t0)) s"
tar xzf gpu-holes/holes-diff.tgz -C /tmp
mkdir -p $OUT/kept
for d in /tmp/cuda-diff/*; do
  timeout 200 python3 tests/differential/diff.py --kcp $B --batch build/gpu/race/kcp_batch-$REV --replay $d \
    --jobs ${JOBS:-6} --deadline ${DEADLINE:-160} --keep $OUT/kept --log $OUT/differential-holes-cuda.csv -- --space cuda 2>&1 | tail -2
done
cat $OUT/differential-holes-cuda.csv
echo "== $((SECONDS - t0)) s"
