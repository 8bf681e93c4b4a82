#!/usr/bin/env bash
# Session 5, issue 9's last CUDA items, one call:
#   plain: the whole test binary of REV on the H100 (not quick; OpenMP cases on 4 threads);
#   race:  racecheck on the four CUDA cases exp14 did not finish, all four at once, with the quick
#          sweeps of REV (test::quick_mode: the search sweeps' end values, 60 fixpoint networks; exp14's
#          full sweeps ran one case past 200 s and left three unrun);
#   mem:   memcheck (with leak check) over every CUDA case of the quick binary beside them.
# usage (device): bash perf/bench/device/exp15.sh REV; carry build/gpu/race/kcp_tests-REVq.
source perf/bench/device/sanitize-common.sh "$1"
t0=$SECONDS
env -u KCP_TEST_QUICK OMP_NUM_THREADS=4 timeout 150 $T > $OUT/b/kcp_tests-cuda-$REV.txt 2>&1
echo "plain rc=$? $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ test' $OUT/b/kcp_tests-cuda-$REV.txt | tr '\n' ' ')"
left=$((540 - (SECONDS - t0)))
for c in '*/Cuda.EveryTeamAndSubproblemSplitFindsEachSolutionOnce' '*/Cuda.TernaryRowsAndNoReconvergenceKeepTheAnswers' \
    '*/Cuda.EveryBranchingChoiceEnumeratesEverySolutionOnce' '*/Cuda.AllFamiliesTeamEqualsSerialWithAndWithoutSortingAndLocalTernary'; do
  racecheck_cases $left "$c" > $OUT/b/race-$(echo "$c" | tr -dc 'A-Za-z').txt 2>&1 &
done
timeout $left $CS --tool memcheck --leak-check full $T --gtest_filter='*Cuda*' > $OUT/b/memcheck-cuda-$REV.txt 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|LEAK SUMMARY' $OUT/b/memcheck-cuda-$REV.txt | tr '\n' ' ') $(grep -cE '^\[       OK \]' $OUT/b/memcheck-cuda-$REV.txt) ok"
wait
cat $OUT/b/race-*.txt
(cd $OUT/b && tar czf ../exp15.tgz . ); rm -rf $OUT/b
