#!/usr/bin/env bash
# Session 4, issue 9's CUDA half, one call, two jobs at once:
#   race: compute-sanitizer racecheck on the new branch-agreement test before the fix (kcp_tests built
#         at 83fccd4 with search/branching.hpp of 9ea1d6e) and after, then on every CUDA test case one
#         at a time, shortest first, until 530 s have passed (a line per case: rc and the summary);
#   diff: the 4 x 2,500 differential models (seeds 20261200-203, emitted on the VM with Gecode's
#         answers: see exp10.sh) replayed with kcp --space cuda, 12 processes, each batch under 130 s.
# Carry gpu-bench/cuda-diff.tgz, build/gpu/bin/kcp-REV and build/gpu/race (kcp_tests-prefix, kcp_tests-REVq: the
# test binary of REV with KCP_TEST_QUICK, which makes the agreement test small enough for racecheck).
# First try (83fccd4): racecheck ran the full-size agreement test past its time and every batch of the
# replay timed out before writing its row (2,500 CUDA processes take longer than 130 s); hence the quick
# test and diff.py --deadline (a batch starts no model after 115 s and logs the models it judged).
source perf/bench/device/sanitize-common.sh "$1"
race() {
  local start=$SECONDS
  for v in build/gpu/race/kcp_tests-prefix $T; do
    timeout 120 $CS --tool racecheck --error-exitcode 9 $v --gtest_filter='*Cuda.EveryThreadChooses*' \
      > $OUT/b/racecheck-agreement-$(basename $v).txt 2>&1
    echo "agreement $(basename $v) rc=$? $(grep -E 'RACECHECK SUMMARY' $OUT/b/racecheck-agreement-$(basename $v).txt)"
  done
  # Every CUDA case, shortest (by the plain run of exp11) first.
  $T --gtest_filter='*Cuda*' > /tmp/plain.txt 2>&1
  grep -E '^\[       OK \].*Cuda' /tmp/plain.txt | sed -E 's/.*OK \] ([^ ]+) .*\(([0-9]+) ms\)/\2 \1/' | sort -n | awk '{print $2}' > /tmp/cases.txt
  echo "cases: $(wc -l < /tmp/cases.txt)"
  while read -r c; do
    left=$((530 - (SECONDS - start)))
    [ $left -lt 10 ] && { echo "$c: not run (time)"; continue; }
    timeout $left $CS --tool racecheck --error-exitcode 9 $T --gtest_filter="$c" > /tmp/rc.txt 2>&1
    rc=$?
    echo "$c rc=$rc $(grep -E 'RACECHECK SUMMARY' /tmp/rc.txt) $(grep -cE '^\[       OK \]' /tmp/rc.txt) ok"
    [ $rc -ne 0 ] && cp /tmp/rc.txt "$OUT/b/racecheck-${c//\//-}.txt"
  done < /tmp/cases.txt
}
diffs() {
  tar xzf gpu-bench/cuda-diff.tgz -C /tmp
  for d in /tmp/cuda-diff/*; do
    timeout 145 python3 tests/differential/diff.py --kcp $B --replay $d --jobs 12 --deadline 115 --keep $OUT/b/diff-kept \
      --log $OUT/b/differential-cuda.csv -- --space cuda 2>&1 | tail -2
  done
}
race > $OUT/b/racecheck.txt 2>&1 &
diffs > $OUT/b/diff.txt 2>&1
wait
cat $OUT/b/diff.txt; grep -E "agreement|rc=[1-9]|cases|not run" $OUT/b/racecheck.txt | head -40
echo "racecheck clean cases: $(grep -c 'rc=0' $OUT/b/racecheck.txt)"
(cd $OUT/b && tar czf ../exp12.tgz . ); rm -rf $OUT/b
