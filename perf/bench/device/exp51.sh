#!/usr/bin/env bash
# Session 18, issue 22: the event-driven fixpoint with one barrier per iteration (perf/NOTES.md entry 27).
# check: the CUDA test binary's CUDA, portfolio, learning, explaining and EndToEnd cases; compute-sanitizer
# memcheck on kcp runs of three event-driven models (nfc, wordpress, rcpsp 13_9 with the explaining thread)
# and racecheck on nfc; the differential through kcp_batch on the mixed generator (gpu-learn/plain-diff.tgz)
# and with --learning on the --globals models (gpu-learn/learn-diff.tgz).
# ab: 5 s runs of BASE (the two-barrier fixpoint, df1f492) against REV on the models that run the
# event-driven fixpoint on the GPU, alternating, twice each; then REV with teams of 1 and 2 warps.
# usage (device): bash perf/bench/device/exp51.sh REV BASE WHAT; carry build/gpu/bin/*, gpu-bench-mznlib, gpu-learn
set -u
REV=$1; BASE=$2; WHAT=$3
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
export OMP_PROC_BIND=false
t0=$SECONDS
for f in kcp-$REV kcp_tests-$REV kcp_batch-$REV kcp-$BASE; do
  [ -f build/gpu/bin/$f.gz ] && gunzip -c build/gpu/bin/$f.gz > /tmp/$f && chmod +x /tmp/$f
done
B=/tmp/kcp-$REV
mkdir -p $OUT/r /tmp/dev
for f in gpu-bench-mznlib/*.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
if [[ $WHAT == *check* ]]; then
  timeout 200 /tmp/kcp_tests-$REV --gtest_filter='*Cuda*:*Portfolio*:*Learning*:*Explaining*:EndToEnd*' > $OUT/r/kcp_tests-cuda-$REV.txt 2>&1
  echo "rc=$?" >> $OUT/r/kcp_tests-cuda-$REV.txt
  grep -E "^\[  (PASSED|FAILED)|^rc=" $OUT/r/kcp_tests-cuda-$REV.txt | head
  echo "== tests $((SECONDS - t0)) s"
  for i in nfc_24_4_2 rcpsp_J30_13_9; do
    timeout 45 $CS --tool memcheck $B -s -t 2000 /tmp/dev/$i.fzn > $OUT/r/memcheck-$i.txt 2>&1
    echo "$i memcheck rc=$? $(grep -E 'ERROR SUMMARY' $OUT/r/memcheck-$i.txt) $(grep -E '%%%mzn-stat: (fixpoint|nodes)=|^=====' $OUT/r/memcheck-$i.txt | tr '\n' ' ')"
  done
  timeout 45 $CS --tool racecheck $B -s -t 2000 /tmp/dev/nfc_24_4_2.fzn > $OUT/r/racecheck-nfc.txt 2>&1
  echo "nfc racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $OUT/r/racecheck-nfc.txt) $(grep -E '%%%mzn-stat: nodes=' $OUT/r/racecheck-nfc.txt)"
  echo "== sanitizers $((SECONDS - t0)) s"
  # plain: the mixed generator; learn: --globals models with --learning; holes: hole models with bitsets
  # and the event-driven fixpoint forced (entry 16's bug with the two-barrier one).
  for set in plain learn holes; do
    [ -f gpu-learn/$set-diff.tgz ] || continue
    tar xzf gpu-learn/$set-diff.tgz -C /tmp
    pre=""; post=""
    [ $set = learn ] && pre=--learning
    [ $set = holes ] && post="--fixpoint queue --bitset-span 64"
    timeout 90 python3 tests/differential/diff.py --kcp $B --batch /tmp/kcp_batch-$REV --replay /tmp/$set-diff \
      --jobs 6 --deadline 65 $pre --keep $OUT/r/kept-$set --log $OUT/r/differential-$set-cuda-$REV.csv -- --space cuda $post 2>&1 | tail -2
    echo "== $set $((SECONDS - t0)) s"
  done
  # diameterc proved in 0.5-0.9 s by REV, not in 5 s by BASE (ab): which part proves, and AC1's view.
  for run in "$BASE" "$REV" "$BASE --fixpoint ac1" "$BASE --learn none" "$REV --learn none"; do
    set -- $run; v=$1; shift
    timeout 20 /tmp/kcp-$v -s -t 8000 "$@" /tmp/dev/diameterc-mst_c_v20_a190_d4.fzn > /tmp/o.txt 2>&1
    echo "diameterc [$run] $(grep -E '^%%%mzn-stat: (nodes|solveTime|objective|fixpoint|provedByNogood|improvements[A-Za-z]*|explainNodes|subproblemsSolved)=' /tmp/o.txt | sed 's/%%%mzn-stat: //' | tr '\n' ' ') $(grep -c '^==========' /tmp/o.txt)opt"
  done | tee $OUT/r/diameterc-$REV.txt
  echo "== differential $((SECONDS - t0)) s"
fi
if [[ $WHAT == *ab* ]]; then
  for i in nfc_24_4_2 wordpress_Wordpress7_Offers500 sudoku-opt_sudoku_p20 accap_accap_a4_f30_t15 roster-sickness_small-4 \
           spot5_404 rcpsp_J30_13_9 rcpsp_J30_25_3 team-assignment_data3_5_31 rotating-workforce_rws-instance-e-25-s-7 \
           diameterc-mst_c_v20_a190_d4 tower_100_100_20_100-04 traveling-tppv_circ14cnonbal; do
    for run in "$BASE" "$REV" "$BASE" "$REV" "$REV --team-size 1" "$REV --team-size 2"; do
      set -- $run; v=$1; shift
      timeout 20 /tmp/kcp-$v -s -t 5000 "$@" /tmp/dev/$i.fzn > /tmp/o.txt 2>&1
      echo "$i [$run] $(grep -E '^%%%mzn-stat: (nodes|solveTime|objective|fixpoint|fixpointIterations|propagations|teams)=' /tmp/o.txt | sed 's/%%%mzn-stat: //' | tr '\n' ' ') $(grep -c '^==========' /tmp/o.txt)opt"
    done
  done | tee $OUT/r/ab-$REV.txt
fi
echo "== total $((SECONDS - t0)) s"
tar czf $OUT/exp51.tgz -C $OUT r && rm -rf $OUT/r
