#!/usr/bin/env bash
# Session 20: the cumulative's own explanations (search/explain.cpp's cumulative_keep) and several
# explaining threads per process (--explain-threads; perf/NOTES.md entry 31).
#   tests:    the CUDA test binary's CUDA, portfolio, learning, explaining and EndToEnd cases.
#   a, b:     the 15 s sweep of the development set (all 38, kcp's library FlatZinc; exp49's halves),
#             the default options.
#   t1 NAMES: the 15 s sweep of the instances named (prefixes), with --explain-threads 1 (the one
#             explaining thread of before, beside the GPU).
# usage (device): bash perf/bench/device/exp57.sh REV tests|a|b|t1 [NAMES...]; carry build/gpu/bin
# (kcp-REV.gz, kcp_tests-REV.gz), gpu-bench-mznlib
set -u
REV=$1; WHAT=$2; shift 2
export OMP_PROC_BIND=false
t0=$SECONDS
R=/tmp/res; rm -rf $R; mkdir -p $R /tmp/dev
trap 'tar czf $OUT/exp57-$REV-$WHAT.tgz -C $R .' EXIT
nvidia-smi -L | tee $R/gpus.txt
if [ "$WHAT" = tests ]; then
  gunzip -c build/gpu/bin/kcp_tests-$REV.gz > /tmp/kcp_tests && chmod +x /tmp/kcp_tests
  timeout 400 /tmp/kcp_tests --gtest_filter='*Cuda*:*Portfolio*:*Learning*:*Explaining*:EndToEnd*' > $R/kcp_tests-cuda-$REV.txt 2>&1
  echo "kcp_tests rc=$? $(grep -E '^\[  (PASSED|FAILED) |tests ran' $R/kcp_tests-cuda-$REV.txt | tr '\n' ' ')"
  grep -E '^\[  FAILED' $R/kcp_tests-cuda-$REV.txt | head
  echo "== total $((SECONDS - t0)) s"
  exit 0
fi
gunzip -c build/gpu/bin/kcp-$REV.gz > /tmp/kcp && chmod +x /tmp/kcp
for f in gpu-bench-mznlib/*.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
ls /tmp/dev/*.fzn | sort > /tmp/all.txt
case $WHAT in
  a) head -19 /tmp/all.txt > /tmp/list.txt; label=default; extra=() ;;
  b) tail -n +20 /tmp/all.txt > /tmp/list.txt; label=default; extra=() ;;
  t1) cp /tmp/all.txt /tmp/list.txt; label=explain-threads-1; extra=(--only "$@" -- --explain-threads 1) ;;
esac
python3 perf/bench/run.py --kcp /tmp/kcp --revision $REV --space cuda --timeout 15 --grace 10 --instances /tmp/list.txt \
  --label $label --machine nvidia-h100 --out $R/cuda-15s-$REV-$WHAT.csv "${extra[@]}" 2>&1 | tail -2
python3 - $R/cuda-15s-$REV-$WHAT.csv <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r.get('instance'), r.get('status'), r.get('objective'), r.get('time_s') or r.get('solve_time_s'), sep=',')
PY
echo "== total $((SECONDS - t0)) s"
