#!/usr/bin/env bash
# Session 17, issues 22 and 21: the watched nogoods (now on by default on every backend) and the runs of
# consecutive subproblems on the GPU. The CUDA test binary's CUDA, portfolio, learning, explaining and
# EndToEnd cases; compute-sanitizer memcheck on the learning cases (quick) and on two kcp runs that learn
# (the explaining thread beside the GPU), racecheck on one; the differential with --learning through
# kcp_batch (gpu-learn/learn-diff.tgz: --globals models, half of them optimisation); then 5 s runs of the
# default against --nogood-watches off and --subproblem-runs 0 on the small models and three proofs.
# WHAT: check (tests, sanitizers, differential), ab (the 5 s runs), a|b (a half of the 15 s sweep,
# exp35's, with the default; then the ab runs of that half's part).
# usage (device): bash perf/bench/device/exp49.sh REV WHAT; carry build/gpu/bin/{kcp,kcp_tests,kcp_batch}-REV.gz,
# gpu-bench, gpu-bench-mznlib, gpu-learn
set -u
REV=$1; WHAT=$2
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
export OMP_PROC_BIND=false
t0=$SECONDS
for f in kcp kcp_tests kcp_batch; do
  gunzip -c build/gpu/bin/$f-$REV.gz > /tmp/$f && chmod +x /tmp/$f
done
B=/tmp/kcp
mkdir -p $OUT/r /tmp/dev
for d in gpu-bench-mznlib; do
  for f in $d/*.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
done
if [ "$WHAT" = check ]; then
timeout 200 /tmp/kcp_tests --gtest_filter='*Cuda*:*Portfolio*:*Learning*:*Explaining*:EndToEnd*' > $OUT/r/kcp_tests-cuda-$REV.txt 2>&1
echo "rc=$?" >> $OUT/r/kcp_tests-cuda-$REV.txt
grep -E "^\[  (PASSED|FAILED)|^rc=" $OUT/r/kcp_tests-cuda-$REV.txt | head
echo "== tests $((SECONDS - t0)) s"
KCP_TEST_QUICK=1 timeout 100 $CS --tool memcheck /tmp/kcp_tests --gtest_filter='LearningOnBackend/Cuda.*' > $OUT/r/memcheck-learning.txt 2>&1
echo "learning memcheck rc=$? $(grep -E 'ERROR SUMMARY' $OUT/r/memcheck-learning.txt) $(grep -cE '^\[       OK \]' $OUT/r/memcheck-learning.txt) ok"
for i in rcpsp_J30_13_9; do
  timeout 60 $CS --tool memcheck $B -s -t 3000 /tmp/dev/$i.fzn > $OUT/r/memcheck-$i.txt 2>&1
  echo "$i memcheck rc=$? $(grep -E 'ERROR SUMMARY' $OUT/r/memcheck-$i.txt) $(grep -E 'nogoodWatches|nogoodPropagations|subproblemRuns|^=====' $OUT/r/memcheck-$i.txt | tr '\n' ' ')"
done
timeout 60 $CS --tool racecheck $B -s -t 2000 /tmp/dev/nfc_24_4_2.fzn > $OUT/r/racecheck-nfc.txt 2>&1
echo "nfc racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $OUT/r/racecheck-nfc.txt) $(grep -E 'nodes=|^=====' $OUT/r/racecheck-nfc.txt | tr '\n' ' ')"
echo "== sanitizers $((SECONDS - t0)) s"
tar xzf gpu-learn/learn-diff.tgz -C /tmp
timeout 110 python3 tests/differential/diff.py --kcp $B --batch /tmp/kcp_batch --replay /tmp/learn-diff \
  --jobs 6 --deadline 80 --learning --keep $OUT/r/kept --log $OUT/r/differential-learning-cuda-$REV.csv -- --space cuda 2>&1 | tail -2
echo "== differential $((SECONDS - t0)) s"
fi
if [ "$WHAT" = a ] || [ "$WHAT" = b ]; then
  ls /tmp/dev/*.fzn | sort > /tmp/all.txt
  if [ "$WHAT" = a ]; then head -19 /tmp/all.txt > /tmp/half.txt; else tail -n +20 /tmp/all.txt > /tmp/half.txt; fi
  python3 perf/bench/run.py --kcp $B --revision $REV --space cuda --timeout 15 --grace 10 --instances /tmp/half.txt \
    --label default --machine nvidia-h100 --out $OUT/r/cuda-15s-$REV-$WHAT.csv 2>&1 | tail -2
  echo "== sweep $((SECONDS - t0)) s"
fi
case $WHAT in
  ab) AB="triangular_n10 nfc_24_4_2 roster-sickness_small-4 accap_accap_a4_f30_t15 sudoku-opt_sudoku_p20 wordpress_Wordpress7_Offers500 rcpsp_J30_13_9 rcpsp_J30_25_3" ;;
  a) AB="triangular_n10 nfc_24_4_2 accap_accap_a4_f30_t15" ;;
  b) AB="roster-sickness_small-4 sudoku-opt_sudoku_p20 wordpress_Wordpress7_Offers500 rcpsp_J30_13_9" ;;
  *) AB="" ;;
esac
for i in $AB; do
  for cfg in default "--nogood-watches off"; do
    a=""; [ "$cfg" != default ] && a=$cfg
    /usr/bin/time -f "wall=%e" timeout 20 $B -s -t 5000 $a /tmp/dev/$i.fzn > /tmp/o.txt 2>&1
    echo "$i [$cfg] $(grep -E '^%%%mzn-stat: (nodes|solveTime|objective|nogoodWatches|subproblemRuns|provedByNogood)=' /tmp/o.txt | sed 's/%%%mzn-stat: //' | tr '\n' ' ') $(grep -c '^==========' /tmp/o.txt)opt $(grep wall= /tmp/o.txt)"
  done
done | tee $OUT/r/ab-$REV-$WHAT.txt
# The complete search alone on rcpsp 22_6 (the dive overhead of the split: entry 23)
[ "$WHAT" = b ] || [ "$WHAT" = ab ] && for cfg in "--subproblem-runs 0" "--subproblem-runs 1" "--subproblem-runs 2"; do
  timeout 20 $B -s -t 10000 --learn none --portfolio 0 $cfg /tmp/dev/rcpsp_J30_22_6.fzn > /tmp/o.txt 2>&1
  echo "22_6 complete [$cfg] $(grep -E '^%%%mzn-stat: (nodes|solveTime|subproblemRuns|subproblemsSolved)=' /tmp/o.txt | sed 's/%%%mzn-stat: //' | tr '\n' ' ') $(grep -c '^==========' /tmp/o.txt)opt"
done | tee -a $OUT/r/ab-$REV-$WHAT.txt
echo "== total $((SECONDS - t0)) s"
tar czf $OUT/exp49.tgz -C $OUT r && rm -rf $OUT/r
