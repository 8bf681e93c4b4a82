#!/usr/bin/env bash
# Session 34 (issue 53; perf/NOTES.md entry 47): how exp101-exp103 made four device calls (for the record; not run as is).
# call 1: MODES=holes DL=540 bash perf/bench/device/exp102.sh
# call 2: exp101 beside exp102 for mixed, globals and wide at once (the differentials ran slower: 727 mixed and 706 globals by the deadline):
#   set -u
#   for b in kcp kcp_tests kcp-chk; do gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; done
#   ( bash perf/bench/device/exp101.sh > $OUT/a.txt 2>&1 ) &
#   for m in mixed globals wide; do ( MODES=$m DL=${DL:-520} bash perf/bench/device/exp102.sh > $OUT/b-$m.txt 2>&1 ) & done
#   wait
#   cat $OUT/a.txt; tail -4 $OUT/b-*.txt
# call 3: the CUDA tests beside the rest of the mixed models (tests cut at 170 s after 49 of 54, none failed):
#   set -u
#   for b in kcp kcp_tests; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
#   mkdir -p /tmp/e && tar xzf gpu-data/emit-mixed.tgz -C /tmp/e
#   ( timeout 150 python3 tests/differential/diff.py --kcp gpu-diag/kcp --replay /tmp/e/mixed --start 727 --jobs 6 --deadline 120 \
#       --keep $OUT/kept-mixed2 --log $OUT/diff-mixed2.csv -- --space cuda --fixpoint queue --bitset-span 4096 > $OUT/diff-mixed2.txt 2>&1 ) &
#   timeout 170 gpu-diag/kcp_tests --gtest_filter='*Cuda*' > $OUT/kcp_tests-cuda.txt 2>&1; echo "kcp_tests rc=$?"
#   grep -E "^\[  (PASSED|FAILED) |^\[==========\]" $OUT/kcp_tests-cuda.txt | tail -5
#   wait; tail -1 $OUT/diff-mixed2.txt; cat $OUT/diff-mixed2.csv
# call 4: the five tests left; exp103 on the 14 instances whose layout bitsets change; the textbook latin/sudoku instances:
#   set -u
#   for b in kcp kcp_tests; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
#   timeout 90 gpu-diag/kcp_tests --gtest_filter='LearningOnBackend/Cuda.AllSolutions*:LearningOnBackend/Cuda.UnderASolution*:LearningOnBackend/Cuda.FreeSearch*:LearningOnBackend/Cuda.SatisfactionIsUntouched:ValueChoiceOnBackend/Cuda.*' > $OUT/kcp_tests-cuda-last5.txt 2>&1; echo "kcp_tests rc=$?"
#   grep -E "^\[  (PASSED|FAILED) |^\[==========\]" $OUT/kcp_tests-cuda-last5.txt | tail -3
#   LIST="$(cat gpu-diag/ab-list.txt)" CONFIGS="old:--bitset-span 0|bitsets:--bitset-span 4096" REV=13b2ff4 PART=ab bash perf/bench/device/exp103.sh
#   if [ $SECONDS -lt 520 ]; then
#     timeout $((590 - SECONDS)) python3 perf/bench/textbook/run.py --kcp gpu-diag/kcp --fzn gpu-textbook --timeout-ms 5000 --only latin sudoku \
#       --out $OUT/textbook-latin-sudoku.csv --config cuda='--space cuda' --config cuda-bitsets='--space cuda --bitset-span 4096' 2>&1 | tail -2
#   fi
#   echo "== $SECONDS s"
#   (gpu-diag/ab-list.txt: blocks-world_16-4-5 diameterc-mst_c_v20_a190_d4 gfd-schedule_n55f2d50m30k3_10124 nfc_24_4_2 roster-sickness_large-2 roster-sickness_small-4 rotating-workforce_rws-instance-e-25-s-7 spot5_404 sudoku-opt_sudoku_p20 team-assignment_data3_5_31 tower_100_100_20_100-04 traveling-tppv_circ14cnonbal triangular_n10 wordpress_Wordpress7_Offers500)
