#!/usr/bin/env bash
# Session 16, issue 22: what the learned pool costs a node. exp45's sweep at `--learn none` doubled
# triangular_n10's and nfc's nodes/s; here the pool's capacity (default 1024) at 1024, 256 and 64 on
# five proofs (15 s) and five open instances (10 s): nodes/s, time to proof, final objective.
# usage (device): bash perf/bench/device/exp46.sh REV; carry build/gpu/bin/kcp-REV.gz, gpu-bench*
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
for cap in 1024 256 64; do
  for set in proofs open; do
    t=15; [ $set = open ] && t=10
    python3 perf/bench/run.py --kcp /tmp/kcp-$REV --revision $REV --space cuda --timeout $t --grace 10 --instances /tmp/$set.txt \
      --label cap$cap --machine nvidia-h100 --out $OUT/r/cap$cap-$set.csv -- --nogood-capacity $cap 2>&1 | tail -1
  done
  echo "== cap $cap $((SECONDS - t0)) s"
done
tar czf $OUT/exp46.tgz -C $OUT r && rm -rf $OUT/r
