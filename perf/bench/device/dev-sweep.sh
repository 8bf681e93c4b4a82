#!/usr/bin/env bash
# The development set (kcp's library) on the GPU at 15 s per instance (was exp103): LIST names instances
# (prefixes); CONFIGS "label:kcp args|label:kcp args" (e.g. "default:"); rows by perf/bench/run.py into
# $OUT/dev-LABEL-PART.csv. FILES instead of LIST: list files whose lines are devk/NAME.fzn or
# breadth-kcp/NAME.fzn (e.g. perf/results/vm/copy-budget/*.list), the breadth set from gpu-data/breadth-kcp.tgz.
#   usage (device): LIST="name prefixes" CONFIGS="default:" REV=abc1234 PART=a bash perf/bench/device/dev-sweep.sh;
#   carry gpu-diag (kcp.gz) and gpu-data (devk.tgz: the dev set compiled with kcp's mznlib by
#   ../shared/benchmarks/scripts/compile.sh dev.list DIR mznlib; breadth-kcp.tgz alike for FILES)
#   The copies' spacing on a GPU (perf/NOTES.md entries 66, 67), one config a call (~6 min each):
#   FILES="perf/results/vm/copy-budget/instances.list perf/results/vm/copy-budget/breadth-instances.list
#   perf/results/vm/copy-budget/breadth-rest-instances.list" CONFIGS="spaced:" (then "distance-1:--copy-distance 1")
# ALTERNATE=1: the configurations take turns instance by instance (an A/B within one call, as sessions 39-42's
# scripts did by hand), rows appended as each run ends; BUDGET=S stops after the instance that passes S seconds.
# TL: seconds per instance (default 15).
set -u
cd gpu-diag; [ -x kcp ] || { gunzip -c kcp.gz > kcp && chmod +x kcp; }; cd ..
mkdir -p /tmp/devk && tar xzf gpu-data/devk.tgz -C /tmp/devk
export OMP_PROC_BIND=false
if [ -n "${FILES:-}" ]; then
  mkdir -p /tmp/breadth-kcp && tar xzf gpu-data/breadth-kcp.tgz -C /tmp/breadth-kcp
  cat $FILES | sed 's#^#/tmp/#' > /tmp/list.txt
else
  : > /tmp/list.txt; for name in $LIST; do ls /tmp/devk/$name*.fzn >> /tmp/list.txt; done
fi
IFS='|' read -ra CFG <<< "$CONFIGS"
run() {  # run LIST LABEL OUT kcp-args...
  local list=$1 label=$2 out=$3; shift 3
  OMP_NUM_THREADS=16 python3 perf/bench/run.py --kcp gpu-diag/kcp --revision $REV --space cuda --timeout ${TL:-15} --grace 10 \
    --instances $list --label $label --machine 1xH200 --out $out -- "$@" 2>&1 | tail -3
}
if [ "${ALTERNATE:-0}" = 1 ]; then
  for f in $(cat /tmp/list.txt); do
    echo $f > /tmp/one.txt
    for c in "${CFG[@]}"; do
      out=$OUT/dev-${c%%:*}-$PART.csv
      run /tmp/one.txt ${c%%:*} $OUT/part.csv ${c#*:} > /dev/null
      [ -f $out ] || head -1 $OUT/part.csv > $out
      tail -n +2 $OUT/part.csv >> $out
    done
    [ $SECONDS -gt ${BUDGET:-100000} ] && { echo "stopped after $f (time)"; break; }
  done
  rm -f $OUT/part.csv
else
  for c in "${CFG[@]}"; do run /tmp/list.txt ${c%%:*} $OUT/dev-${c%%:*}-$PART.csv ${c#*:}; done
fi
echo "== $SECONDS s"
