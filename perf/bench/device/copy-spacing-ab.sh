#!/usr/bin/env bash
# The GPU A/B perf/NOTES.md entry 66 leaves to do: the copies of stores spaced where the 1 GiB budget gives a
# team fewer than 64 (the default since f9d4899) against one copy a level (--copy-distance 1), on the instances
# where a GPU's 1,056 teams get fewer than 64 copies: the dev set's four and the breadth set's eighteen
# (perf/results/vm/copy-budget/*.list). --space cuda, 15 s, kcp's library, the two alternating instance by
# instance, from entry FROM of the list until BUDGET seconds (rerun with FROM = the printed count).
# Device: carry gpu-diag (kcp.gz: the cuda preset's kcp) and gpu-data (devk.tgz, breadth-kcp.tgz: the sets
# compiled with kcp's mznlib); results under $OUT: copy-ab-spaced.csv, copy-ab-distance-1.csv;
# perf/bench/speed_ab.py copy-ab-distance-1.csv copy-ab-spaced.csv compares them.
set -u
[ -x gpu-diag/kcp ] || { gunzip -c gpu-diag/kcp.gz > gpu-diag/kcp && chmod +x gpu-diag/kcp; }
mkdir -p devk breadth-kcp
tar xzf gpu-data/devk.tgz -C devk && tar xzf gpu-data/breadth-kcp.tgz -C breadth-kcp
cat perf/results/vm/copy-budget/instances.list perf/results/vm/copy-budget/breadth-instances.list \
    perf/results/vm/copy-budget/breadth-rest-instances.list | tail -n +$(( ${FROM:-0} + 1 )) > /tmp/copy-ab.list
i=${FROM:-0}
for f in $(cat /tmp/copy-ab.list); do
  [ -f "$f" ] || { echo "missing $f"; i=$((i + 1)); continue; }
  echo "$f" > /tmp/one.txt
  for cfg in spaced distance-1; do
    extra=(); [ $cfg = distance-1 ] && extra=(-- --copy-distance 1)
    python3 perf/bench/run.py --kcp gpu-diag/kcp --revision ${REV:-f9d4899} --space cuda --timeout 15 --grace 10 \
      --instances /tmp/one.txt --label cuda-15s-$cfg --machine 1xH200 --out $OUT/part.csv "${extra[@]}" > /dev/null 2>&1
    [ -f $OUT/copy-ab-$cfg.csv ] || head -1 $OUT/part.csv > $OUT/copy-ab-$cfg.csv
    tail -n +2 $OUT/part.csv >> $OUT/copy-ab-$cfg.csv
  done
  i=$((i + 1))
  [ $SECONDS -gt ${BUDGET:-540} ] && { echo "stopped after entry $i (time)"; break; }
done
rm -f $OUT/part.csv
echo "done through $i"; wc -l $OUT/copy-ab-*.csv
