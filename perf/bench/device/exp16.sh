#!/usr/bin/env bash
# Session 5: the gap encoding (d9c55b7, compile's exclude_holes) on the GPU. The four development
# instances that declare hole domains (var {...}), 15 s each on CUDA, with the sweep's binary (83fccd4,
# before the encoding) and HEAD's (REV).
# usage (device): bash perf/bench/device/exp16.sh REV; carry gpu-bench (the four instances) and
# build/gpu/bin/kcp-83fccd4, build/gpu/bin/kcp-REV.
set -u
mkdir -p $OUT/b /tmp/inst
SUB="spot5_404 stripboard_common-emitter-simple sudoku-opt_sudoku_p20 traveling-tppv_circ14cnonbal"
for s in $SUB; do gunzip -c gpu-bench/$s.fzn.gz > /tmp/inst/$s.fzn; done
for rev in 83fccd4 $1; do
  python3 perf/bench/run.py --kcp build/gpu/bin/kcp-$rev --revision $rev --space cuda --timeout 15 --instances /tmp/inst \
    --label holes-$rev --machine nvidia-h100 --out $OUT/b/holes-$rev.csv 2>&1 | tail -1
done
cat $OUT/b/*.csv
