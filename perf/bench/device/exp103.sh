#!/usr/bin/env bash
# exp103 (session 34, issues 53 and 51): the development set (kcp's library) at 15 s on one H200, the -O1
# build of main. LIST names instances (prefixes); CONFIGS "label:kcp args|label:kcp args" (label "old":
# main's GPU default for the 14 instances a GPU default of bitsets changes, --bitset-span 0; "bitsets": the
# host's span, --bitset-span 4096; "default": no flag). Rows by perf/bench/run.py into $OUT/dev-LABEL-PART.csv.
# usage (device): LIST="name prefixes" CONFIGS="old:--bitset-span 0|bitsets:--bitset-span 4096" REV=13b2ff4 PART=ab \
#   bash perf/bench/device/exp103.sh; carry gpu-diag (kcp.gz) and gpu-data (devk.tgz: the dev set compiled with kcp's
#   mznlib by ../shared/benchmarks/scripts/compile.sh dev.list DIR mznlib)
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
