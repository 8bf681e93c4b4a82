#!/usr/bin/env bash
# Session 2, device call 4: 471de0c (long rows on groups in the queue, auto fixpoint, 16 subproblems/team) on the subset, 5 s.
set -u
mkdir -p $OUT/b /tmp/inst
for f in gpu-bench/*.fzn.gz; do gunzip -c $f > /tmp/inst/$(basename $f .gz); done
SUB="rcpsp_J30_20_6 rcpsp_J30_13_9 accap_accap_a4_f30_t15 diameterc-mst_c_v20_a190_d4 wordpress_Wordpress7_Offers500 tower_100_100_20_100-04 triangular_n39 spot5_404 sudoku-opt_sudoku_p20 stripboard_common-emitter-simple"
B=build/gpu/bin/kcp-471de0c
run() { label=$1; shift
  python3 perf/bench/run.py --kcp $B --space cuda --timeout 5 --instances /tmp/inst --only $SUB \
    --label "$label" --machine nvidia-h100 --out $OUT/b/$label.csv -- "$@" 2>&1 | tail -1; }
run auto
run queue --fixpoint queue
(cd $OUT/b && tar czf ../exp4.tgz . ); rm -rf $OUT/b
