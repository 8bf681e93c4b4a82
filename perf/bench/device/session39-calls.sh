#!/usr/bin/env bash
# Session 39 (issues 55, 56, 57; perf/NOTES.md entries 60, 61, 63): the device calls, in order. Call 1: TESTS=1 FROM=0
# bash gpu-diag/s39a.sh (carry gpu-diag: kcp.gz, kcp_tests.gz, kcp-b9c.gz = b9cc274's cuda kcp; gpu-data: devk.tgz); call 2:
# TESTS=0 FROM=0 BUDGET=540 bash gpu-diag/s39b.sh; call 3: TESTS=0 FROM=0 BUDGET=520 bash gpu-diag/s39c.sh (carry gpu-sched:
# the scheduling set compiled with kcp's mznlib). Kept for the record: the scripts ran from gpu-diag/ (ignored).

# ---- gpu-diag/s39a.sh
# session 39 call 1 (issue 55): element moved into the family list — the CUDA tests (every typed test on Cuda), then
# the dev set at 5 s on CUDA, b9cc274's binary (kcp-b9c) against this one (kcp), instance by instance alternating,
# from instance FROM of the sorted list until the call's budget.
set -u
for b in kcp kcp_tests kcp-b9c; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
nvidia-smi -L > $OUT/device.txt; nproc >> $OUT/device.txt
if [ "${TESTS:-1}" = 1 ]; then
  t=$SECONDS
  timeout 260 gpu-diag/kcp_tests --gtest_filter='*Cuda*' > $OUT/kcp_tests-cuda.txt 2>&1; echo "kcp_tests rc=$? $((SECONDS - t)) s"
  grep -E "^\[  (PASSED|FAILED) |^\[==========\]|Failure" $OUT/kcp_tests-cuda.txt | tail -8
fi
mkdir -p /tmp/devk && tar xzf gpu-data/devk.tgz -C /tmp/devk
export OMP_PROC_BIND=false
ls /tmp/devk/*.fzn | sort | tail -n +$(( ${FROM:-0} + 1 )) > /tmp/list.txt
i=${FROM:-0}
for f in $(cat /tmp/list.txt); do
  echo $f > /tmp/one.txt
  for b in kcp-b9c kcp; do
    OMP_NUM_THREADS=16 python3 perf/bench/run.py --kcp gpu-diag/$b --revision $b --space cuda --timeout ${TL:-5} --grace 10 \
      --instances /tmp/one.txt --label $b --machine 1xH200 --out $OUT/part-$b.csv > /dev/null 2>&1
    [ -f $OUT/dev-$b.csv ] || head -1 $OUT/part-$b.csv > $OUT/dev-$b.csv
    tail -n +2 $OUT/part-$b.csv >> $OUT/dev-$b.csv
  done
  i=$((i + 1))
  [ $SECONDS -gt ${BUDGET:-560} ] && { echo "stopped after instance $i of the list (time)"; break; }
done
echo "done through $i"
rm -f $OUT/part-*.csv
wc -l $OUT/dev-*.csv
echo "== $SECONDS s"

# ---- gpu-diag/s39b.sh
# session 39 calls 2-3 (issue 56): the dev set at 15 s on one H200, --space cuda against --space openmp on the host's 16 cores
# (the same binary, b1e8ef5), instance by instance alternating, from instance FROM of the sorted list until the budget.
set -u
for b in kcp kcp_tests kcp-b9c; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
nvidia-smi -L > $OUT/device.txt; nproc >> $OUT/device.txt
if [ "${TESTS:-1}" = 1 ]; then
  t=$SECONDS
  timeout 260 gpu-diag/kcp_tests --gtest_filter='*Cuda*' > $OUT/kcp_tests-cuda.txt 2>&1; echo "kcp_tests rc=$? $((SECONDS - t)) s"
  grep -E "^\[  (PASSED|FAILED) |^\[==========\]|Failure" $OUT/kcp_tests-cuda.txt | tail -8
fi
mkdir -p /tmp/devk && tar xzf gpu-data/devk.tgz -C /tmp/devk
export OMP_PROC_BIND=false
ls /tmp/devk/*.fzn | sort | tail -n +$(( ${FROM:-0} + 1 )) > /tmp/list.txt
i=${FROM:-0}
for f in $(cat /tmp/list.txt); do
  echo $f > /tmp/one.txt
  for sp in cuda openmp; do b=kcp
    OMP_NUM_THREADS=16 python3 perf/bench/run.py --kcp gpu-diag/$b --revision b1e8ef5 --space $sp --timeout ${TL:-15} --grace 10 \
      --instances /tmp/one.txt --label $sp-15s --machine 1xH200 --out $OUT/part-$sp.csv > /dev/null 2>&1
    [ -f $OUT/dev-$sp.csv ] || head -1 $OUT/part-$sp.csv > $OUT/dev-$sp.csv
    tail -n +2 $OUT/part-$sp.csv >> $OUT/dev-$sp.csv
  done
  i=$((i + 1))
  [ $SECONDS -gt ${BUDGET:-560} ] && { echo "stopped after instance $i of the list (time)"; break; }
done
echo "done through $i"
rm -f $OUT/part-*.csv
wc -l $OUT/dev-*.csv
echo "== $SECONDS s"

# ---- gpu-diag/s39c.sh
# s39b.sh with the list `ls gpu-sched/*.fzn` (no devk unpacking) and the CSVs named sched-cuda.csv and
# sched-openmp.csv (carry gpu-sched: the scheduling set compiled with kcp's mznlib).

# ---- gpu-diag/s39d.sh (call 4: BUDGET=200; call 5: kcp_tests --gtest_filter='*Cuda*' alone, 55/55)
# session 39 call 4 (issue 57): edge finding's loops pruned and its task reads hoisted — the CUDA tests of the
# families and fixpoints, then four 10x10 job shops at 15 s, b1e8ef5's binary (kcp-b1e) against this one (kcp),
# alternating (carry gpu-sched).
set -u
for b in kcp kcp_tests kcp-b1e; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
nvidia-smi -L > $OUT/device.txt; nproc >> $OUT/device.txt
t=$SECONDS
timeout 150 gpu-diag/kcp_tests --gtest_filter='*Cuda*Global*:*Cuda*Cumulative*:*Cuda*Fixpoint*:*Cuda*Hole*' > $OUT/kcp_tests-cuda.txt 2>&1; echo "kcp_tests rc=$? $((SECONDS - t)) s"
grep -E "^\[  (PASSED|FAILED) |^\[==========\]|Failure" $OUT/kcp_tests-cuda.txt | tail -8
export OMP_PROC_BIND=false
for f in jobshop_abz5 jobshop_la19 jobshop_ft10 jobshop_la20; do
  echo gpu-sched/$f.fzn > /tmp/one.txt
  for b in kcp-b1e kcp; do
    OMP_NUM_THREADS=16 python3 perf/bench/run.py --kcp gpu-diag/$b --revision $b --space cuda --timeout 15 --grace 5 \
      --instances /tmp/one.txt --label $b --machine 1xH200 --out $OUT/part-$b.csv > /dev/null 2>&1
    [ -f $OUT/jobs-$b.csv ] || head -1 $OUT/part-$b.csv > $OUT/jobs-$b.csv
    tail -n +2 $OUT/part-$b.csv >> $OUT/jobs-$b.csv
  done
  [ $SECONDS -gt ${BUDGET:-230} ] && { echo "stopped after $f (time)"; break; }
done
rm -f $OUT/part-*.csv
echo "== $SECONDS s"
