#!/usr/bin/env bash
# Session 37 (issues 55 and 52, perf/NOTES.md entries 56 and 57): the device calls, in order. Call 1: gpu-diag/s37a.sh;
# calls 2-4: PART=0..3 PARTS=4 REV=s37-phases bash gpu-diag/s37b.sh (parts 1 and 2 in one call); call 5:
# MODES="holes mixed globals" DL=95 bash perf/bench/device/differential.sh; call 6: REV=10e3cc4 bash gpu-diag/s37c.sh
# (carry gpu-table: the nine breadth instances with tables, compiled with kcp's mznlib). Kept for the record:
# the scripts ran from gpu-diag/ (ignored), with the binaries named there.

# ---- gpu-diag/s37a.sh
# session 37 call 1 (issue 55): the kernel as named phases and queue_fixpoint in parts — the CUDA tests, then
# the dev set at 5 s on CUDA, the binary before (661f539) against after, instance by instance alternating
set -u
for b in kcp kcp_tests kcp-661; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
nvidia-smi -L > $OUT/device.txt; nproc >> $OUT/device.txt
t=$SECONDS
timeout 200 gpu-diag/kcp_tests --gtest_filter='*Cuda*' > $OUT/kcp_tests-cuda.txt 2>&1; echo "kcp_tests rc=$? $((SECONDS - t)) s"
grep -E "^\[  (PASSED|FAILED) |^\[==========\]|Failure" $OUT/kcp_tests-cuda.txt | tail -8
mkdir -p /tmp/devk && tar xzf gpu-data/devk.tgz -C /tmp/devk
export OMP_PROC_BIND=false
ls /tmp/devk/*.fzn > /tmp/list.txt
for f in $(cat /tmp/list.txt); do
  echo $f > /tmp/one.txt
  for b in kcp-661 kcp; do
    OMP_NUM_THREADS=16 python3 perf/bench/run.py --kcp gpu-diag/$b --revision $b --space cuda --timeout ${TL:-5} --grace 10 \
      --instances /tmp/one.txt --label $b --machine 1xH200 --out $OUT/part-$b.csv > /dev/null 2>&1
    [ -f $OUT/dev-$b.csv ] || head -1 $OUT/part-$b.csv > $OUT/dev-$b.csv
    tail -n +2 $OUT/part-$b.csv >> $OUT/dev-$b.csv
  done
  [ $SECONDS -gt ${BUDGET:-560} ] && { echo "stopped at $f (time)"; break; }
done
rm -f $OUT/part-*.csv
wc -l $OUT/dev-*.csv
echo "== $SECONDS s"

# ---- gpu-diag/s37b.sh
# session 37 (issue 52): the breadth set through kcp's library at 15 s on one H200, the GPU default; PART=i of
# PARTS: the instances i, i+PARTS, ... of the sorted list (kcp at HEAD's code of this session), one CSV a part.
#   carry gpu-diag (kcp.gz), gpu-data (breadth-kcp.tgz: ../shared/benchmarks/scripts/compile.sh breadth.list DIR mznlib)
set -u
[ -x gpu-diag/kcp ] || { gunzip -c gpu-diag/kcp.gz > gpu-diag/kcp && chmod +x gpu-diag/kcp; }
mkdir -p /tmp/br && tar xzf gpu-data/breadth-kcp.tgz -C /tmp/br
ls /tmp/br/*.fzn | sort | awk -v p=$PART -v n=$PARTS '(NR - 1) % n == p' > /tmp/list.txt
nvidia-smi -L > $OUT/device.txt; nproc >> $OUT/device.txt
export OMP_PROC_BIND=false
OMP_NUM_THREADS=16 python3 perf/bench/run.py --kcp gpu-diag/kcp --revision ${REV} --space cuda --timeout 15 --grace 10 \
  --instances /tmp/list.txt --label cuda-15s --machine 1xH200 --out $OUT/breadth-cuda-15s-part$PART.csv 2>&1 | tail -3
echo "== $SECONDS s"

# ---- gpu-diag/s37c.sh
# session 37 (issue 52): the table propagator a pass over the rows per bitset word (was per value) on CUDA —
# the CUDA tests of the global families, then the breadth set's nine instances with tables at 15 s.
set -u
for b in kcp kcp_tests; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
nvidia-smi -L > $OUT/device.txt; nproc >> $OUT/device.txt
t=$SECONDS
timeout 100 gpu-diag/kcp_tests --gtest_filter='*Cuda*Global*:*Cuda*Table*:*Table*' > $OUT/kcp_tests-cuda-table.txt 2>&1; echo "kcp_tests rc=$? $((SECONDS - t)) s"
grep -E "^\[  (PASSED|FAILED) |^\[==========\]|Failure" $OUT/kcp_tests-cuda-table.txt | tail -5
export OMP_PROC_BIND=false
ls gpu-table/*.fzn > /tmp/list.txt
OMP_NUM_THREADS=16 python3 perf/bench/run.py --kcp gpu-diag/kcp --revision ${REV} --space cuda --timeout 15 --grace 10 \
  --instances /tmp/list.txt --label cuda-15s --machine 1xH200 --out $OUT/breadth-tables-cuda-15s.csv 2>&1 | tail -9
echo "== $SECONDS s"
