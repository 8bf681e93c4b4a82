#!/usr/bin/env bash
# exp102 (session 34, issue 53): the CUDA differential on the -O1 build with the queue fixpoint and bitsets:
# MODE holes (2,000 hole models, seed 20261201, then 500 wide, seed 20261204), mixed (2,000, seed 20261202),
# globals (1,000 with kcp's globals and learning, seed 20261203); models emitted with Gecode's answers
# on the VM (tests/differential/diff.py --emit).   usage (device): MODES="holes wide" DL=540 bash perf/bench/device/exp102.sh;
# carry gpu-diag (kcp.gz) and gpu-data (emit-MODE.tgz: tar of diff.py --emit MODE folders)
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
