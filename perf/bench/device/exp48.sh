#!/usr/bin/env bash
# Session 16, issue 22: the default `--nogood-length 8` (exp47) at 15 s on the five small models, four
# proofs, and four more open instances (the library FlatZinc of the sweeps).
# usage (device): bash perf/bench/device/exp48.sh REV; carry build/gpu/bin/kcp-REV.gz, gpu-bench*
set -u
REV=$1
export OMP_PROC_BIND=false
gunzip -c build/gpu/bin/kcp-$REV.gz > /tmp/kcp-$REV && chmod +x /tmp/kcp-$REV
mkdir -p $OUT/r /tmp/dev
for d in gpu-bench gpu-bench-mznlib gpu-bench-mznlib2; do
  for f in $d/*.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
done
for i in triangular_n10 nfc_24_4_2 roster-sickness_small-4 accap_accap_a4_f30_t15 sudoku-opt_sudoku_p20 \
         rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10 rcpsp_J30_45_5 \
         team-assignment_data3_5_31 wordpress_Wordpress7_Offers500 spot5_404 roster-sickness_large-2; do
  ls /tmp/dev/$i.fzn
done > /tmp/set.txt
python3 perf/bench/run.py --kcp /tmp/kcp-$REV --revision $REV --space cuda --timeout 15 --grace 10 --instances /tmp/set.txt \
  --label len8 --machine nvidia-h100 --out $OUT/r/cuda-15s-$REV.csv 2>&1 | tail -14
tar czf $OUT/exp48.tgz -C $OUT r && rm -rf $OUT/r
