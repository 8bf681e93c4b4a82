#!/usr/bin/env bash
# The CUDA differential (issue 53's check; was exp102): models emitted on the VM with Gecode's answers
# (tests/differential/diff.py --emit DIR [--holes | --wide | --globals] --seed S), replayed on the GPU with the
# queue fixpoint and bitsets. MODES: any of holes, mixed, globals (with --learning), wide; DL: seconds per mode.
#   usage (device): MODES="holes wide" DL=540 bash perf/bench/device/differential.sh; carry gpu-diag (kcp.gz:
#   build/cuda/bin/kcp gzipped) and gpu-data (emit-MODE.tgz: a tar of the --emit folder MODE). Keep the files under
#   $OUT few (the device tool brings back about eight): the CSV per mode is what counts.
set -u
cd gpu-diag
[ -x kcp ] || { gunzip -c kcp.gz > kcp && chmod +x kcp; }
cd ..
K="--space cuda --fixpoint queue --bitset-span 4096"
for mode in ${MODES}; do
  mkdir -p /tmp/e && tar xzf gpu-data/emit-$mode.tgz -C /tmp/e
  L=""; [ $mode = globals ] && L="--learning"
  t=$SECONDS
  timeout ${DL:-560} python3 tests/differential/diff.py --kcp gpu-diag/kcp --replay /tmp/e/$mode --jobs 8 --deadline $(( ${DL:-560} - 20 )) $L \
    --keep $OUT/kept-$mode --log $OUT/diff-$mode.csv -- $K > $OUT/diff-$mode.txt 2>&1
  echo "$mode rc=$? $((SECONDS - t)) s"; tail -2 $OUT/diff-$mode.txt; cat $OUT/diff-$mode.csv
done
