#!/usr/bin/env bash
# The textbook set on the GPU machine (issue 51): kcp on CUDA (the default, and with bitsets forced on
# with --bitset-span 4096) and on the host's cores (OpenMP, every thread), every instance one run at a
# time, each row's solution checked by kcp --verify. The FlatZinc comes compiled with kcp's mznlib
# (run.py --compile-only DIR here, then DIR/kcp carried as gpu-textbook/kcp).
# usage (device): [TL=5000] [ONLY="queens latin"] bash perf/bench/textbook/device.sh LABEL
#   carry build/cuda/bin/kcp and gpu-textbook; writes $OUT/textbook-LABEL.csv and the device's name
set -u
LABEL=$1; TL=${TL:-5000}; OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvidia-smi -L > "$OUT/device-$LABEL.txt" 2>&1; nproc >> "$OUT/device-$LABEL.txt"
python3 perf/bench/textbook/run.py --kcp build/cuda/bin/kcp --fzn gpu-textbook --timeout-ms "$TL" \
  ${ONLY:+--only $ONLY} --out "$OUT/textbook-$LABEL.csv" \
  --config cuda='--space cuda' --config cuda-bitsets='--space cuda --bitset-span 4096' --config openmp='--space openmp'
echo "== $SECONDS s"
