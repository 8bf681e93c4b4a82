#!/usr/bin/env bash
# Full development-set sweep, one half per call: REV=rev sweep.sh HALF(1|2) SPACE(cuda|openmp) LABEL [FUZZ_WORKERS]
# (the binary is build/gpu/bin/kcp-REV; REV defaults to 471de0c, the session 2 sweep's)
set -u
half=$1; space=$2; label=$3; fuzz=${4:-0}; REV=${REV:-471de0c}
mkdir -p $OUT/b /tmp/inst
for f in gpu-bench/*.fzn.gz; do gunzip -c $f > /tmp/inst/$(basename $f .gz); done
ls /tmp/inst/*.fzn | sort > /tmp/all.txt
if [ "$half" = 1 ]; then head -19 /tmp/all.txt > /tmp/list.txt; else tail -n +20 /tmp/all.txt > /tmp/list.txt; fi
if [ "$fuzz" -gt 0 ]; then
  mkdir -p /tmp/corpus && cp tests/fuzz/corpus/* /tmp/corpus/
  (cd /tmp && timeout 290 $OLDPWD/build/gpu/bin/fuzz_fzn /tmp/corpus -fork=$fuzz -max_total_time=280 -ignore_crashes=1 \
      -artifact_prefix=/tmp/crash- > /tmp/fuzz.log 2>&1) &
fi
extra=""; [ "$space" = openmp ] && extra="--threads 16"
OMP_PROC_BIND=spread OMP_PLACES=threads python3 perf/bench/run.py --kcp build/gpu/bin/kcp-$REV --revision $REV --space $space $extra --timeout 15 \
  --instances /tmp/list.txt --label "$label" --machine nvidia-h100 --out $OUT/b/$label-$half.csv 2>&1 | tail -3
wait
if [ "$fuzz" -gt 0 ]; then
  tail -5 /tmp/fuzz.log; cp /tmp/fuzz.log $OUT/b/fuzz-$half.log
  mkdir -p $OUT/b/corpus-new; for f in /tmp/corpus/*; do [ -e tests/fuzz/corpus/$(basename $f) ] || cp $f $OUT/b/corpus-new/; done
  ls /tmp/crash-* 2>/dev/null && cp /tmp/crash-* $OUT/b/ 2>/dev/null
fi
(cd $OUT/b && tar czf ../sweep-$label-$half.tgz . ); rm -rf $OUT/b
