#!/usr/bin/env bash
# Session 2, device call 2: rows on lanes + dive prefix + snapshots (fb7b844) against 1134ee8, subset, 5 s.
set -u
mkdir -p $OUT/b /tmp/inst
for f in gpu-bench/*.fzn.gz; do gunzip -c $f > /tmp/inst/$(basename $f .gz); done
SUB="rcpsp_J30_20_6 rcpsp_J30_13_9 accap_accap_a4_f30_t15 diameterc-mst_c_v20_a190_d4 wordpress_Wordpress7_Offers500 tower_100_100_20_100-04"
run() { label=$1; bin=$2; shift 2
  python3 perf/bench/run.py --kcp $bin --space cuda --timeout 5 --instances /tmp/inst --only $SUB \
    --label "$label" --machine nvidia-h100 --out $OUT/b/$label.csv -- "$@" 2>&1 | tail -1; }
run new-default build/gpu/bin/kcp-fb7b844
run new-rows0 build/gpu/bin/kcp-fb7b844 --lane-row-terms 0
run new-nosnap build/gpu/bin/kcp-fb7b844 --no-snapshot
run new-t264 build/gpu/bin/kcp-fb7b844 --teams 264
run new-t264-p12 build/gpu/bin/kcp-fb7b844 --teams 264 --subproblems 12
(cd $OUT/b && tar czf ../exp2.tgz . ); rm -rf $OUT/b
