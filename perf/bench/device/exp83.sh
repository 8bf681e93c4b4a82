#!/usr/bin/env bash
# Session 28, issue 21: exp81-82 compared s28b (the probe on the host) with s27a, which is older than the
# explaining search's value rows (f86fc76) as well: diameterc-mst's complete nodes went 1.23-1.27M ->
# 1.29-1.36M on one GPU with the host probe and without any probe alike. Which change is it? One GPU,
# REPS runs each, alternating: both binaries without the probe (only the explaining search differs), and
# both by default; then, where gpu-mpi/kcp_tests-NEW.gz is carried, the CUDA test cases.
# usage (device): [REPS=4] bash perf/bench/device/exp83.sh NEW OLD; carry gpu-mpi, gpu-bench-mznlib
set -u
NEW=$1 OLD=$2; REPS=${REPS:-4}
STATS='solveTime|completeNodes|timeOfBest|probeTime|nogoodsKept|nogoodFailures|explainNodes|explainConflicts'
source perf/bench/device/mpi-prep.sh exp83 $NEW diameterc-mst_c_v20_a190_d4
MNEW=$M MOLD=/tmp/kcp-mpi-$OLD
gunzip -c gpu-mpi/kcp-mpi-$OLD.gz > $MOLD && chmod +x $MOLD
D=diameterc-mst_c_v20_a190_d4
for rep in $(seq $REPS); do
  M=$MOLD on 1 $D old-noprobe-$rep --probe-ms 0; M=$MNEW on 1 $D new-noprobe-$rep --probe-ms 0
  M=$MOLD on 1 $D old-$rep; M=$MNEW on 1 $D new-$rep
done | tee $R/ab-$NEW-$OLD.txt
echo "== ab $((SECONDS - t0)) s"
if [ -f gpu-mpi/kcp_tests-$NEW.gz ]; then
  gunzip -c gpu-mpi/kcp_tests-$NEW.gz > /tmp/kcp_tests && chmod +x /tmp/kcp_tests
  KCP_SOURCE_DIR=$PWD timeout 400 /tmp/kcp_tests --gtest_filter='*Cuda*' > $R/kcp_tests-cuda-$NEW.txt 2>&1; echo "kcp_tests rc=$?"
  grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" $R/kcp_tests-cuda-$NEW.txt
  echo "== tests $((SECONDS - t0)) s"
fi
