#!/usr/bin/env bash
# Session 36 (issues 51 and 54, perf/NOTES.md entry 55): the five device calls, in order (the last after d65d073). Call 3 (the CUDA differential)
# was: MODES="holes mixed wide globals" DL=135 bash perf/bench/device/differential.sh

# ---- gpu-diag/s36a.sh
# session 36 call 1 (issue 51): != rows woken on fixes only (b91ac0c) on CUDA — the fixpoint tests on the
# GPU, then the textbook set at 5 s: CUDA default, CUDA with all_different decomposed (auto: AC1 past 16
# reads a variable) and decomposed with the queue, and the host's 16 cores
set -u
for b in kcp kcp_tests; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
mkdir -p build/cuda/bin; cp gpu-diag/kcp build/cuda/bin/kcp
t=$SECONDS
timeout 150 gpu-diag/kcp_tests --gtest_filter='*/Cuda.*Fixpoint*:*/Cuda.*AllDifferent*:*/Cuda.*Wide*' > $OUT/kcp_tests-cuda-fixpoint.txt 2>&1; echo "kcp_tests rc=$? $((SECONDS - t)) s"
grep -E "^\[  (PASSED|FAILED) |^\[==========\]|Failure" $OUT/kcp_tests-cuda-fixpoint.txt | tail -8
export OMP_PROC_BIND=false
nvidia-smi -L > $OUT/device.txt; nproc >> $OUT/device.txt
python3 perf/bench/textbook/run.py --kcp build/cuda/bin/kcp --fzn gpu-textbook --timeout-ms 5000 --out $OUT/textbook-s36.csv \
  --config cuda='--space cuda' --config cuda-decomp='--space cuda --no-global all_different' \
  --config cuda-decomp-queue='--space cuda --no-global all_different --fixpoint queue' --config openmp='--space openmp' 2>&1 | tail -3
echo "== $SECONDS s"

# ---- gpu-diag/s36c.sh
# session 36 call 3 (issue 51): the dev set (kcp's library) at 5 s on CUDA, this session's binary against
# the one before it (kcp-prev, 710cde6: the same search on GPUs as c7f43ef), one run each, A then B per instance
set -u
for b in kcp kcp-prev; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
mkdir -p /tmp/devk && tar xzf gpu-data/devk.tgz -C /tmp/devk
export OMP_PROC_BIND=false
echo "bin,instance,nodes,nodes_per_s,objective,optimal,solutions,seconds" > $OUT/dev-ab-5s.csv
for f in /tmp/devk/*.fzn; do
  i=$(basename $f .fzn)
  for b in kcp-prev kcp; do
    s0=$EPOCHREALTIME
    timeout 20 gpu-diag/$b -s -t 5000 --space cuda $f > /tmp/o.txt 2>&1
    s1=$EPOCHREALTIME
    echo "$b,$i,$(grep -o 'mzn-stat: nodes=[0-9]*' /tmp/o.txt | tail -1 | cut -d= -f2),$(grep -o 'nodesPerSecond=[0-9.]*' /tmp/o.txt | tail -1 | cut -d= -f2),$(grep -o '^%%%mzn-stat: objective=[-0-9]*' /tmp/o.txt | tail -1 | cut -d= -f2),$(grep -c '==========' /tmp/o.txt),$(grep -c '^----------' /tmp/o.txt),$(awk "BEGIN {printf \"%.2f\", $s1 - $s0}")" >> $OUT/dev-ab-5s.csv
  done
done
echo "== $SECONDS s"

# ---- gpu-diag/s36b.sh
# session 36 call 2 (issue 51): propagators woken by the kinds of change (fixes, bounds, values) and
# all_different native up to 64 variables on GPUs — the CUDA tests, then the textbook set at 5 s
# (CUDA default, the host's 16 cores)
set -u
for b in kcp kcp_tests; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
mkdir -p build/cuda/bin; cp gpu-diag/kcp build/cuda/bin/kcp
t=$SECONDS
timeout 250 gpu-diag/kcp_tests --gtest_filter='*Cuda*' > $OUT/kcp_tests-cuda.txt 2>&1; echo "kcp_tests rc=$? $((SECONDS - t)) s"
grep -E "^\[  (PASSED|FAILED) |^\[==========\]|Failure" $OUT/kcp_tests-cuda.txt | tail -8
export OMP_PROC_BIND=false
nvidia-smi -L > $OUT/device.txt; nproc >> $OUT/device.txt
python3 perf/bench/textbook/run.py --kcp build/cuda/bin/kcp --fzn gpu-textbook --timeout-ms 5000 --out $OUT/textbook-s36b.csv \
  --config cuda='--space cuda' --config openmp='--space openmp' 2>&1 | tail -3
echo "== $SECONDS s"

# ---- gpu-diag/s36d.sh
# session 36 call 5 (issue 54): the CUDA tests after the retired options (for_each_lane without its
# reconvergence switch), and queens/latin of the textbook set at 5 s on CUDA
set -u
for b in kcp kcp_tests; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
mkdir -p build/cuda/bin; cp gpu-diag/kcp build/cuda/bin/kcp
t=$SECONDS
timeout 220 gpu-diag/kcp_tests --gtest_filter='*Cuda*' > $OUT/kcp_tests-cuda.txt 2>&1; echo "kcp_tests rc=$? $((SECONDS - t)) s"
grep -E "^\[  (PASSED|FAILED) |^\[==========\]|Failure" $OUT/kcp_tests-cuda.txt | tail -8
export OMP_PROC_BIND=false
python3 perf/bench/textbook/run.py --kcp build/cuda/bin/kcp --fzn gpu-textbook --timeout-ms 5000 --only queens latin-30 magic-6 \
  --out $OUT/textbook-s36d.csv --config cuda='--space cuda' 2>&1 | tail -2
echo "== $SECONDS s"
