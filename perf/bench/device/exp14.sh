#!/usr/bin/env bash
# Prepared in session 4 for the next device call (issue 9's last CUDA items), both at once:
#   race: racecheck on the eight CUDA cases exp12/13 did not reach: seven searches (1,056 default teams;
#         the tests now run 4 teams under KCP_TEST_QUICK=1, which sanitize-common.sh exports) and the
#         all-families fixpoint case;
#   diff: a fifth batch of 2,500 differential models (seed 20261204; `tests/differential/diff.py --emit
#         /tmp/cuda-diff2/20261204 --models 2500 --seed 20261204`, then `tar czf gpu-bench/cuda-diff2.tgz
#         -C /tmp cuda-diff2`) through kcp_batch, 8 processes.
# usage (device): bash perf/bench/device/exp14.sh REV; carry gpu-bench/cuda-diff2.tgz,
# build/gpu/bin/kcp-REV, build/gpu/race/kcp_batch-REV and build/gpu/race/kcp_tests-REVq.
source perf/bench/device/sanitize-common.sh "$1"
race() {
  racecheck_cases 500 '*/Cuda.StoreInScratchLevelOneGivesTheSameCount' '*/Cuda.OneNodePerLaunchGivesTheSameAnswers' \
    '*/Cuda.AnnotatedSearchFindsGecodesFirstSolution' '*/Cuda.OptimumIsTheSameForEveryTeamCount' \
    '*/Cuda.EveryTeamAndSubproblemSplitFindsEachSolutionOnce' '*/Cuda.TernaryRowsAndNoReconvergenceKeepTheAnswers' \
    '*/Cuda.EveryBranchingChoiceEnumeratesEverySolutionOnce' \
    '*/Cuda.AllFamiliesTeamEqualsSerialWithAndWithoutSortingAndLocalTernary'
}
race > $OUT/b/racecheck.txt 2>&1 &
tar xzf gpu-bench/cuda-diff2.tgz -C /tmp
timeout 300 python3 tests/differential/diff.py --kcp $B --batch build/gpu/race/kcp_batch-$REV --replay /tmp/cuda-diff2/20261204 \
  --jobs 8 --deadline 270 --keep $OUT/b/diff-kept --log $OUT/b/differential-cuda-batch.csv -- --space cuda > $OUT/b/diff.txt 2>&1
wait
cat $OUT/b/diff.txt $OUT/b/racecheck.txt
(cd $OUT/b && tar czf ../exp14.tgz . ); rm -rf $OUT/b
