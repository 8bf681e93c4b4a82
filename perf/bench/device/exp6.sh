#!/usr/bin/env bash
# Session 2, device call 6: which part makes stripboard run past its time limit on CUDA (471de0c)?
set -u
mkdir -p /tmp/inst
for f in gpu-bench/*.fzn.gz; do gunzip -c $f > /tmp/inst/$(basename $f .gz); done
B=build/gpu/bin/kcp-471de0c
S=/tmp/inst/stripboard_common-emitter-simple.fzn
for extra in "" "--fixpoint ac1" "--lane-row-terms 1000" "--subproblems 19" "--no-snapshot" "--teams 1"; do
  start=$(date +%s.%N)
  timeout -s KILL 20 $B -s -t 3000 --space cuda $extra $S > /tmp/o.txt 2>/tmp/e.txt; rc=$?
  end=$(date +%s.%N)
  echo "[$extra] rc=$rc wall=$(echo "$end - $start" | bc) $(grep -E 'nodes=|launches=|subproblemsSolved=|fixpoint=' /tmp/o.txt | tr '\n' ' ') $(grep -v indomain_median /tmp/e.txt | tail -2)"
done
mkdir -p $OUT/b
python3 perf/bench/run.py --kcp $B --space cuda --timeout 5 --grace 10 --instances /tmp/inst \
  --only sudoku-opt_sudoku_p20 tower_100_100_20_100-04 triangular_n39 wordpress_Wordpress7_Offers500 \
  --label auto --machine nvidia-h100 --out $OUT/b/auto2.csv 2>&1 | tail -4
(cd $OUT/b && tar czf ../exp6.tgz . ); rm -rf $OUT/b
