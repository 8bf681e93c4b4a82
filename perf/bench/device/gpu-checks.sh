#!/usr/bin/env bash
# The device checks (issue 53; was exp101): the CUDA tests; the check build (KCP_CHECK_INVARIANTS: every node's
# fixpoint checked against a serial one) on queens 10/12 with the queue and bitsets in three team shapes;
# compute-sanitizer synccheck and racecheck on the product kernel with the queue and bitsets.
#   usage (device): bash perf/bench/device/gpu-checks.sh; carry gpu-diag: kcp.gz, kcp_tests.gz, kcp-chk.gz (a cuda
#   build with -DKCP_CHECK_INVARIANTS=ON), queens8/10/12.fzn (perf/bench/device/queens_fzn.py)
set -u
cd gpu-diag
for b in kcp kcp_tests kcp-chk; do [ -x $b ] || { gunzip -c $b.gz > $b && chmod +x $b; }; done
nvidia-smi -L > $OUT/device.txt; nproc >> $OUT/device.txt
timeout 200 ./kcp_tests --gtest_filter='*Cuda*' > $OUT/kcp_tests-cuda.txt 2>&1; echo "kcp_tests rc=$?"
grep -E "^\[  (PASSED|FAILED) |^\[==========\]" $OUT/kcp_tests-cuda.txt | tail -5
echo "bin,model,config,solutions,check_messages,wall_s" > $OUT/check.csv
for m in queens10:724 queens12:14200; do
  for cfg in "default:" "vl1:--vector-length 1" "ts1:--team-size 1"; do
    s=$SECONDS
    timeout 100 ./kcp-chk ${m%%:*}.fzn --space cuda --bitset-span 64 -a --probe-ms 0 --fixpoint queue ${cfg#*:} > /tmp/o.txt 2>/tmp/e.txt
    echo "kcp-chk,${m%%:*},${cfg%%:*},$(grep -c -- '^----------' /tmp/o.txt),$(grep -c 'kcp-check' /tmp/e.txt /tmp/o.txt | awk -F: '{s+=$2} END {print s}'),$((SECONDS - s))" | tee -a $OUT/check.csv
  done
done
head -c 2000 /tmp/e.txt
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
A="queens8.fzn --space cuda --bitset-span 64 -a --probe-ms 0 --fixpoint queue"
for tool in synccheck racecheck; do
  for s in "--teams 1 --subproblems 0" "--teams 16 --subproblems 8 --no-dive-cache" "--teams 16 --subproblems 8 --vector-length 1" "--teams 16 --subproblems 8 --team-size 1"; do
    [ $SECONDS -gt 520 ] && { echo "== $tool [$s] skipped (time)" | tee -a $OUT/sanitizers.txt; continue; }
    t=$SECONDS
    timeout 90 $CS --tool $tool --print-limit 5 ./kcp $A $s > /tmp/cs.txt 2>&1
    echo "== $tool [$s] rc=$? sols=$(grep -c -- '^----------' /tmp/cs.txt) $(grep 'SUMMARY' /tmp/cs.txt | tr '\n' ' ') $((SECONDS - t)) s" | tee -a $OUT/sanitizers.txt
  done
done
echo "== $SECONDS s"
