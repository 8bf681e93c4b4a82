#!/usr/bin/env bash
# Session 2, device call 1: teams / subproblem-depth sweep on a subset, then warp_cooperation study.
set -u
mkdir -p $OUT/b /tmp/inst
for f in gpu-bench/*.fzn.gz; do gunzip -c $f > /tmp/inst/$(basename $f .gz); done
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/b/gpu.txt
SUB="rcpsp_J30_20_6 rcpsp_J30_13_9 accap_accap_a4_f30_t15 diameterc-mst_c_v20_a190_d4 wordpress_Wordpress7_Offers500 tower_100_100_20_100-04"
for cfg in "1056:-1" "264:-1" "528:-1" "264:12" "132:-1"; do
  teams=${cfg%%:*}; p=${cfg##*:}
  extra="--teams $teams"; [ "$p" != -1 ] && extra="$extra --subproblems $p"
  python3 perf/bench/run.py --kcp build/gpu/bin/kcp --space cuda --timeout 5 --instances /tmp/inst --only $SUB \
    --label "t${teams}p${p}" --machine nvidia-h100 --out $OUT/b/t${teams}p${p}.csv -- $extra 2>&1 | tail -1
done
(cd $OUT/b && tar czf ../exp1.tgz . )
export OUT2=$OUT/s; mkdir -p $OUT2
OUT=$OUT2 MACHINE=nvidia-h100-80gb-hbm3 BUILD_DIR=build/gpu timeout 280 perf/studies/run_gpu.sh warp_cooperation
(cd $OUT2 && tar czf $OUT/studies.tgz .)
rm -rf $OUT/b $OUT2
