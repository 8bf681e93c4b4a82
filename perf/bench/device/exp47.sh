#!/usr/bin/env bash
# Session 16, issue 22: what the learned pool costs a node, by the length of the nogoods kept.
# exp46: a smaller pool (capacity 256, 64) ran 1.4-1.7x the nodes/s on small models but lost two
# proofs; here the longest nogood kept (default 32) at 32, 16 and 8 literals on the same ten runs;
# then the binary's OpenMP on the host's 16 cores on exp43's eleven instances, 10 s.
# usage (device): bash perf/bench/device/exp47.sh REV; carry build/gpu/bin/kcp-REV.gz, gpu-bench*
set -u
REV=$1
export OMP_PROC_BIND=false
t0=$SECONDS
gunzip -c build/gpu/bin/kcp-$REV.gz > /tmp/kcp-$REV && chmod +x /tmp/kcp-$REV
mkdir -p $OUT/r /tmp/dev
for d in gpu-bench gpu-bench-mznlib gpu-bench-mznlib2; do
  for f in $d/*.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
done
for i in rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10 rcpsp_J30_45_5 rcpsp_J30_22_6; do ls /tmp/dev/$i.fzn; done > /tmp/proofs.txt
for i in triangular_n10 nfc_24_4_2 accap_accap_a4_f30_t15 wordpress_Wordpress7_Offers500 team-assignment_data3_5_31; do ls /tmp/dev/$i.fzn; done > /tmp/open.txt
for len in 32 16 8; do
  for set in proofs open; do
    t=15; [ $set = open ] && t=10
    python3 perf/bench/run.py --kcp /tmp/kcp-$REV --revision $REV --space cuda --timeout $t --grace 10 --instances /tmp/$set.txt \
      --label len$len --machine nvidia-h100 --out $OUT/r/len$len-$set.csv -- --nogood-length $len 2>&1 | tail -1
  done
  echo "== len $len $((SECONDS - t0)) s"
done
# The same binary on the host's 16 cores (OpenMP), 10 s, exp43's eleven instances: CUDA / OpenMP-16.
for i in triangular_n10 nfc_24_4_2 roster-sickness_small-4 accap_accap_a4_f30_t15 sudoku-opt_sudoku_p20 \
         spot5_404 rcpsp_J30_25_3 roster-sickness_large-2 triangular_n39 wordpress_Wordpress7_Offers500 \
         diameterc-mst_c_v20_a190_d4; do
  ls /tmp/dev/$i*.fzn >> /tmp/set.txt
done
python3 perf/bench/run.py --kcp /tmp/kcp-$REV --revision $REV --space openmp --threads 16 --timeout 10 --grace 10 --instances /tmp/set.txt \
  --label openmp16 --machine nvidia-h100 --out $OUT/r/openmp16.csv 2>&1 | tail -1
echo "== openmp16 $((SECONDS - t0)) s"
tar czf $OUT/exp47.tgz -C $OUT r && rm -rf $OUT/r
