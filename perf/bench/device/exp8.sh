#!/usr/bin/env bash
# Session 3, device call 8 (REV given): the serial column of the CPU-vs-GPU sweep, the two remaining
# ablations (reconvergence, ternary-only rows) on CUDA, and the whole CUDA test binary without a sanitizer.
set -u
REV=$1
B=build/gpu/bin/kcp-$REV
T=build/gpu/bin/kcp_tests-$REV
source perf/bench/device/common.sh
# 1. Serial, 15 s, 13 instances at once, one per core (cores 0-12; 3 left to the runner): each process
#    is one thread (Kokkos::Serial; OMP_NUM_THREADS=1 keeps the OpenMP pool of the same binary at one).
OMP_NUM_THREADS=1 OMP_PROC_BIND=false python3 perf/bench/run.py --kcp $B --space serial --threads 1 --timeout 15 \
  --jobs 13 --pin --revision $REV --instances /tmp/all.txt --label serial --machine nvidia-h100 --out $OUT/b/serial-15s.csv 2>&1 | tail -2
(cd $OUT/b && tar czf ../exp8-serial.tgz . )
# 2. Ablations on CUDA, 4 s, 8 instances of the subset: default, --no-reconverge, --ternary-rows.
SUB="rcpsp_J30_20_6 rcpsp_J30_13_9 accap_accap_a4_f30_t15 diameterc-mst_c_v20_a190_d4 wordpress_Wordpress7_Offers500 tower_100_100_20_100-04 triangular_n39 sudoku-opt_sudoku_p20"
configuration default cuda 4 "$SUB"
configuration no-reconverge cuda 4 "$SUB" --no-reconverge
configuration ternary-rows cuda 4 "$SUB" --ternary-rows
(cd $OUT/b && tar czf ../exp8-ablations.tgz . )
# 3. The whole test binary (Serial, OpenMP and CUDA instantiations), no sanitizer.
OMP_PROC_BIND=false timeout 150 $T > $OUT/cuda-tests-$REV.txt 2>&1; echo "kcp_tests rc=$?"
grep -E "^\[  (PASSED|FAILED) |tests ran" $OUT/cuda-tests-$REV.txt | head; grep "FAILED  \]" $OUT/cuda-tests-$REV.txt | head
rm -rf $OUT/b
