#!/usr/bin/env bash
# Session 7: hybrid recomputation (issue 26) and the element fix on the H100, before the sweep's
# first half. (1) the whole CUDA test binary of REV (plain; OpenMP cases on 4 threads), 300 s at most;
# (2) rcpsp_J30_15_5 to its proven optimum with one team and no split (the probe's search) and with
# the default fleet, each with copies at the subproblem's root only (--copy-distance 0) and every level
# (the default), $OUT/recompute-cuda.csv; (3) the first half of the 15 s sweep (sweep.sh).
# usage (device): bash perf/bench/device/exp22.sh REV; carry build/gpu/bin/kcp-REV,
# build/gpu/bin/kcp_tests-REV, gpu-bench/.
set -u
REV=$1; B=build/gpu/bin/kcp-$REV; T=build/gpu/bin/kcp_tests-$REV
export OMP_PROC_BIND=false KCP_SOURCE_DIR=$PWD
t0=$SECONDS
OMP_NUM_THREADS=4 timeout 300 $T > $OUT/kcp_tests-cuda-$REV.txt 2>&1
echo "== tests rc=$? $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED) +\] [0-9]+ test' $OUT/kcp_tests-cuda-$REV.txt | tr '\n' ' ')"
grep -E '^\[  FAILED' $OUT/kcp_tests-cuda-$REV.txt | head -20
mkdir -p /tmp/r; gunzip -c gpu-bench/rcpsp_J30_15_5.fzn.gz > /tmp/r/rcpsp_J30_15_5.fzn
stat() { grep -E "^%%%mzn-stat: $1=" /tmp/o.txt | head -1 | sed 's/.*=//'; }
echo "configuration,copy_distance,status,objective,nodes,propagations_per_node,restores,replayed_decisions,solve_s,nodes_per_s,teams" > $OUT/recompute-cuda.csv
for conf in "one team|--teams 1 --subproblems 0" "default fleet|"; do
  for cd in 0 1; do
    # shellcheck disable=SC2086
    $B --space cuda -s -t 15000 --copy-distance $cd ${conf#*|} /tmp/r/rcpsp_J30_15_5.fzn > /tmp/o.txt 2>&1
    st=unknown; grep -q '^----------' /tmp/o.txt && st=solution; grep -q '^==========' /tmp/o.txt && st=optimal
    echo "${conf%%|*},$cd,$st,$(stat objective),$(stat nodes),$(stat propagationsPerNode),$(stat restores),$(stat replayedDecisions),$(stat solveTime),$(stat nodesPerSecond),$(stat teams)" >> $OUT/recompute-cuda.csv
  done
done
cat $OUT/recompute-cuda.csv
echo "== $((SECONDS - t0)) s"
REV=$REV bash perf/bench/device/sweep.sh 1 cuda cuda-15s-$REV
echo "== $((SECONDS - t0)) s"
