#!/usr/bin/env bash
# Session 2, device call 3: event-driven fixpoint (496a8d1) against AC1; subproblem counts; subset, 5 s.
set -u
mkdir -p $OUT/b /tmp/inst
for f in gpu-bench/*.fzn.gz; do gunzip -c $f > /tmp/inst/$(basename $f .gz); done
SUB="rcpsp_J30_20_6 rcpsp_J30_13_9 accap_accap_a4_f30_t15 diameterc-mst_c_v20_a190_d4 wordpress_Wordpress7_Offers500 tower_100_100_20_100-04 triangular_n39 spot5_404 sudoku-opt_sudoku_p20 stripboard_common-emitter-simple"
B=build/gpu/bin/kcp-496a8d1
run() { label=$1; shift
  python3 perf/bench/run.py --kcp $B --space cuda --timeout 5 --instances /tmp/inst --only $SUB \
    --label "$label" --machine nvidia-h100 --out $OUT/b/$label.csv -- "$@" 2>&1 | tail -1; }
run queue
run ac1 --fixpoint ac1
run queue-p14 --subproblems 14
run queue-t264 --teams 264
run queue-t264-p12 --teams 264 --subproblems 12
(cd $OUT/b && tar czf ../exp3.tgz . ); rm -rf $OUT/b
