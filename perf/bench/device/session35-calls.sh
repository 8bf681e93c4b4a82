#!/usr/bin/env bash
# Session 35 (issue 53; perf/NOTES.md entry 51): the device calls, for the record (not run as is).
# carry gpu-diag (kcp.gz, kcp_tests.gz of build/cuda; rest-list.txt: the dev set's instances not in ab-list.txt)
# and gpu-data (emit-mixed.tgz, emit-wide.tgz, devk.tgz: see exp102.sh and exp103.sh).
# call 1: the rest of the mixed models, the CUDA tests, the wide models:
#   set -u
#   for b in kcp kcp_tests; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
#   mkdir -p /tmp/e && tar xzf gpu-data/emit-mixed.tgz -C /tmp/e && tar xzf gpu-data/emit-wide.tgz -C /tmp/e
#   K="--space cuda --fixpoint queue --bitset-span 4096"
#   timeout 300 python3 tests/differential/diff.py --kcp gpu-diag/kcp --replay /tmp/e/mixed --start 1287 --jobs 8 --deadline 270 \
#     --keep $OUT/kept-mixed --log $OUT/diff-mixed-1287.csv -- $K > $OUT/diff-mixed-1287.txt 2>&1
#   timeout 150 gpu-diag/kcp_tests --gtest_filter='*Cuda*' > $OUT/kcp_tests-cuda.txt 2>&1
#   timeout $((585 - SECONDS)) python3 tests/differential/diff.py --kcp gpu-diag/kcp --replay /tmp/e/wide --jobs 8 \
#     --deadline $((560 - SECONDS)) --keep $OUT/kept-wide --log $OUT/diff-wide.csv -- $K > $OUT/diff-wide.txt 2>&1
# call 2: LIST="$(cat gpu-diag/rest-list.txt)" CONFIGS="default:" REV=a3ee65c PART=rest bash perf/bench/device/exp103.sh
# call 3 (after the fix): timeout 300 gpu-diag/kcp_tests --gtest_filter='*Cuda*' > $OUT/kcp_tests-cuda.txt 2>&1
