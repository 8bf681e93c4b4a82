#!/usr/bin/env bash
# Session 18, issue 22: the 15 s sweep of the development set (kcp's library FlatZinc, all 38) with the
# linear rows' division skip (perf/NOTES.md entry 28): half a or b (exp49's halves), the default options.
# usage (device): bash perf/bench/device/exp54.sh REV a|b; carry build/gpu/bin/kcp-REV.gz, gpu-bench-mznlib
set -u
REV=$1; WHAT=$2
export OMP_PROC_BIND=false
t0=$SECONDS
gunzip -c build/gpu/bin/kcp-$REV.gz > /tmp/kcp && chmod +x /tmp/kcp
mkdir -p $OUT/r /tmp/dev
for f in gpu-bench-mznlib/*.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
ls /tmp/dev/*.fzn | sort > /tmp/all.txt
if [ "$WHAT" = a ]; then head -19 /tmp/all.txt > /tmp/half.txt; else tail -n +20 /tmp/all.txt > /tmp/half.txt; fi
python3 perf/bench/run.py --kcp /tmp/kcp --revision $REV --space cuda --timeout 15 --grace 10 --instances /tmp/half.txt \
  --label default --machine nvidia-h100 --out $OUT/r/cuda-15s-$REV-$WHAT.csv 2>&1 | tail -2
echo "== total $((SECONDS - t0)) s"
tar czf $OUT/exp54.tgz -C $OUT r && rm -rf $OUT/r
