#!/usr/bin/env bash
# The development set (kcp's library) on the GPU at 15 s per instance (was exp103): LIST names instances
# (prefixes); CONFIGS "label:kcp args|label:kcp args" (e.g. "default:"); rows by perf/bench/run.py into
# $OUT/dev-LABEL-PART.csv.
#   usage (device): LIST="name prefixes" CONFIGS="default:" REV=abc1234 PART=a bash perf/bench/device/dev-sweep.sh;
#   carry gpu-diag (kcp.gz) and gpu-data (devk.tgz: the dev set compiled with kcp's mznlib by
#   ../shared/benchmarks/scripts/compile.sh dev.list DIR mznlib)
set -u
cd gpu-diag; [ -x kcp ] || { gunzip -c kcp.gz > kcp && chmod +x kcp; }; cd ..
mkdir -p /tmp/devk && tar xzf gpu-data/devk.tgz -C /tmp/devk
export OMP_PROC_BIND=false
: > /tmp/list.txt; for name in $LIST; do ls /tmp/devk/$name*.fzn >> /tmp/list.txt; done
IFS='|' read -ra CFG <<< "$CONFIGS"
for c in "${CFG[@]}"; do
  OMP_NUM_THREADS=16 python3 perf/bench/run.py --kcp gpu-diag/kcp --revision $REV --space cuda --timeout 15 --grace 10 \
    --instances /tmp/list.txt --label ${c%%:*} --machine 1xH200 --out $OUT/dev-${c%%:*}-$PART.csv -- ${c#*:} 2>&1 | tail -3
done
echo "== $SECONDS s"
