#!/usr/bin/env bash
# Session 38 (issues 57 and 52, perf/NOTES.md entry 58): the device calls, in order, on one H200. Call 1:
# REV=... bash gpu-diag/s38a.sh (carry gpu-diag: kcp.gz and kcp_tests.gz of build/cuda at 8c6c1b2; gpu-data:
# devk.tgz, the dev set compiled with kcp's mznlib, and emit-globals.tgz: tests/differential/diff.py --emit DIR
# --globals --models 400 --seed 3800); calls 2-4: PART=0, 1, 2 bash gpu-diag/s38b.sh (gpu-data/list0-2.txt: the
# breadth set in three parts, breadth-kcp.tgz); call 5: bash gpu-diag/s38c.sh (the dev set's other 19); call 6: bash
# gpu-diag/s38d.sh (the scheduling set, perf/bench/scheduling).
# REV was read on the device from the copied tree's git metadata and came out as 760b701: the CSVs' revision
# column was rewritten to 8c6c1b2, the code the binary was built from. Kept for the record: the scripts ran from
# gpu-diag/ (ignored).

# ---- gpu-diag/s38a.sh
# session 38 call 1: the CUDA tests (every typed test on Cuda: globals with cumulative's edge finding and the
# table's lanes path, learning with the ordered wait), the dev set's 19 rcpsp J30 at 15 s, then the globals
# differential with learning (models emitted on the VM with Gecode's answers) for the rest of the call.
set -u
for b in kcp kcp_tests; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
nvidia-smi -L > $OUT/device.txt; nproc >> $OUT/device.txt
t=$SECONDS
timeout 260 gpu-diag/kcp_tests --gtest_filter='*Cuda*' > $OUT/kcp_tests-cuda.txt 2>&1; echo "kcp_tests rc=$? $((SECONDS - t)) s"
grep -E "^\[  (PASSED|FAILED) |^\[==========\]|Failure" $OUT/kcp_tests-cuda.txt | tail -8
mkdir -p /tmp/devk && tar xzf gpu-data/devk.tgz -C /tmp/devk
ls /tmp/devk/rcpsp_J30_*.fzn > /tmp/list.txt
export OMP_PROC_BIND=false
OMP_NUM_THREADS=16 python3 perf/bench/run.py --kcp gpu-diag/kcp --revision ${REV} --space cuda --timeout 15 --grace 10 \
  --instances /tmp/list.txt --label cuda-15s --machine 1xH200 --out $OUT/dev-rcpsp-cuda-15s.csv 2>&1 | grep "^\[" | tail -20
echo "== $SECONDS s"
if [ -f gpu-data/emit-globals.tgz ]; then
  mkdir -p /tmp/e && tar xzf gpu-data/emit-globals.tgz -C /tmp/e
  left=$(( 560 - SECONDS ))
  timeout $left python3 tests/differential/diff.py --kcp gpu-diag/kcp --replay /tmp/e/globals --jobs 8 --deadline $(( left - 20 )) --learning \
    --log $OUT/diff-globals.csv -- --space cuda --fixpoint queue --bitset-span 4096 > $OUT/diff-globals.txt 2>&1
  echo "globals rc=$?"; tail -3 $OUT/diff-globals.txt
fi
echo "== $SECONDS s"

# ---- gpu-diag/s38b.sh
# session 38 calls 2 and 3: the breadth instances that were not proven on one H200 in session 37 (and the
# five with cumulative), at 15 s, the GPU default, kcp's mznlib; PART=0|1: gpu-data/list$PART.txt.
set -u
[ -x gpu-diag/kcp ] || { gunzip -c gpu-diag/kcp.gz > gpu-diag/kcp && chmod +x gpu-diag/kcp; }
mkdir -p /tmp/br && tar xzf gpu-data/breadth-kcp.tgz -C /tmp/br
nvidia-smi -L > $OUT/device.txt; nproc >> $OUT/device.txt
export OMP_PROC_BIND=false
OMP_NUM_THREADS=16 python3 perf/bench/run.py --kcp gpu-diag/kcp --revision ${REV} --space cuda --timeout 15 --grace 10 \
  --instances gpu-data/list$PART.txt --label cuda-15s --machine 1xH200 --out $OUT/breadth-cuda-15s-part$PART.csv 2>&1 | grep "^\[" | tail -30
echo "== $SECONDS s"

# ---- gpu-diag/s38c.sh
# session 38 call 5: the dev set's 19 instances other than rcpsp J30 at 15 s, the GPU default, kcp's mznlib.
set -u
[ -x gpu-diag/kcp ] || { gunzip -c gpu-diag/kcp.gz > gpu-diag/kcp && chmod +x gpu-diag/kcp; }
mkdir -p /tmp/devk && tar xzf gpu-data/devk.tgz -C /tmp/devk
nvidia-smi -L > $OUT/device.txt; nproc >> $OUT/device.txt
export OMP_PROC_BIND=false
OMP_NUM_THREADS=16 python3 perf/bench/run.py --kcp gpu-diag/kcp --revision ${REV} --space cuda --timeout 15 --grace 10 \
  --instances gpu-data/list3.txt --label cuda-15s --machine 1xH200 --out $OUT/dev-other-cuda-15s.csv 2>&1 | grep "^\[" | tail -30
echo "== $SECONDS s"

# ---- gpu-diag/s38d.sh (call 6; carry gpu-diag and gpu-sched: the scheduling set's FlatZinc, compiled here)
# session 38 call 6 (issue 57): the scheduling set (perf/bench/scheduling: jobshop2's model on 20 job shops
# from 10x5 to 20x15, PSPLIB J60/J90/J120) at 15 s on one H200, the GPU default, kcp's mznlib (carry gpu-sched).
set -u
[ -x gpu-diag/kcp ] || { gunzip -c gpu-diag/kcp.gz > gpu-diag/kcp && chmod +x gpu-diag/kcp; }
nvidia-smi -L > $OUT/device.txt; nproc >> $OUT/device.txt
ls gpu-sched/*.fzn > /tmp/list.txt
export OMP_PROC_BIND=false
OMP_NUM_THREADS=16 timeout 545 python3 perf/bench/run.py --kcp gpu-diag/kcp --revision 8c6c1b2 --space cuda --timeout 15 --grace 5 \
  --instances /tmp/list.txt --label cuda-15s --machine 1xH200 --out $OUT/scheduling-cuda-15s.csv 2>&1 | grep "^\[" | tail -40
echo "== $SECONDS s"
