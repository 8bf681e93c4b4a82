#!/usr/bin/env bash
# Session 5: the second half of the CUDA sweep at REV (the first: REV=REV sweep.sh 1 cuda cuda-15s-REV),
# then the Serial column with the same binary (13 one-thread runs at once, pinned to cores 0-12, as exp8).
# usage (device): bash perf/bench/device/exp18.sh REV; carry gpu-bench and build/gpu/bin/kcp-REV.
set -u
REV=$1 bash perf/bench/device/sweep.sh 2 cuda cuda-15s-$1
source perf/bench/device/common.sh
OMP_NUM_THREADS=1 OMP_PROC_BIND=false python3 perf/bench/run.py --kcp build/gpu/bin/kcp-$1 --space serial --threads 1 --timeout 15 \
  --jobs 13 --pin --revision $1 --instances /tmp/all.txt --label serial --machine nvidia-h100 --out $OUT/b/serial13-15s-$1.csv 2>&1 | tail -2
(cd $OUT/b && tar czf ../exp18-serial.tgz . )
