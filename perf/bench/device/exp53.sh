#!/usr/bin/env bash
# Session 18, issue 22: linear rows skip the 64-bit division where a term cannot narrow (and for unit
# coefficients) — perf/NOTES.md entry 28. 5 s runs of BASE (df1f492) against REV alternating, twice each;
# Nsight Compute's instruction count of one search launch of triangular_n10 for both; the differential
# (mixed generator, and --globals with --learning) through kcp, one process a model.
# usage (device): bash perf/bench/device/exp53.sh REV BASE; carry build/gpu/bin/kcp-{REV,BASE}.gz,
# gpu-bench-mznlib, gpu-learn
set -u
REV=$1; BASE=$2
export OMP_PROC_BIND=false
t0=$SECONDS
for v in $REV $BASE; do gunzip -c build/gpu/bin/kcp-$v.gz > /tmp/kcp-$v && chmod +x /tmp/kcp-$v; done
mkdir -p $OUT/r /tmp/dev
for f in gpu-bench-mznlib/*.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
for i in triangular_n10 accap_accap_a4_f30_t15 nfc_24_4_2 wordpress_Wordpress7_Offers500 roster-sickness_small-4 \
         sudoku-opt_sudoku_p20 spot5_404 rcpsp_J30_13_9 rcpsp_J30_25_3 team-assignment_data3_5_31 tower_100_100_20_100-04 \
         diameterc-mst_c_v20_a190_d4; do
  for v in $BASE $REV $BASE $REV; do
    timeout 20 /tmp/kcp-$v -s -t 5000 /tmp/dev/$i.fzn > /tmp/o.txt 2>&1
    echo "$i [$v] $(grep -E '^%%%mzn-stat: (nodes|solveTime|objective|fixpoint|propagations)=' /tmp/o.txt | sed 's/%%%mzn-stat: //' | tr '\n' ' ') $(grep -c '^==========' /tmp/o.txt)opt"
  done
done | tee $OUT/r/ab-$REV.txt
echo "== ab $((SECONDS - t0)) s"
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for v in $BASE $REV; do
  timeout 60 $NCU --kernel-name-base demangled --kernel-name regex:ParallelSearch --launch-skip 20 --launch-count 1 \
    --metrics smsp__inst_executed.sum,gpu__time_duration.sum /tmp/kcp-$v -s -t 10000 /tmp/dev/triangular_n10.fzn > $OUT/r/ncu-$v.txt 2>&1
  echo "ncu $v: $(grep -E 'inst_executed|duration|nodes=' $OUT/r/ncu-$v.txt | tr -s ' ' | tr '\n' ';')"
done
echo "== ncu $((SECONDS - t0)) s"
for set in plain learn; do
  tar xzf gpu-learn/$set-diff.tgz -C /tmp
  pre=""; [ $set = learn ] && pre=--learning
  timeout 75 python3 tests/differential/diff.py --kcp /tmp/kcp-$REV --replay /tmp/$set-diff --jobs 8 --deadline 55 $pre \
    --keep $OUT/r/kept-$set --log $OUT/r/differential-$set-cuda-$REV.csv -- --space cuda 2>&1 | tail -2
done
echo "== total $((SECONDS - t0)) s"
tar czf $OUT/exp53.tgz -C $OUT r && rm -rf $OUT/r
