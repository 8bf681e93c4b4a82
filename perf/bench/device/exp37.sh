#!/usr/bin/env bash
# Session 12, issue 19: the host's cores beside the GPU (--host-teams) after the slice cutter (the
# host's slice ends when the GPU's does): 15 s per instance on the instances where the first
# --host-teams sweep (e251213, exp35) moved or might (the long free-search ones, two rcpsp proofs),
# without and with the host's rows, one after the other on the same machine. Library dev set as in exp35.
# usage (device): bash perf/bench/device/exp37.sh REV [extra kcp args]; carry build/gpu/bin/kcp-REV,
# gpu-bench, gpu-bench-mznlib, gpu-bench-mznlib2
set -u
REV=$1; shift
B=build/gpu/bin/kcp-$REV
mkdir -p $OUT/b /tmp/dev
for d in gpu-bench gpu-bench-mznlib gpu-bench-mznlib2; do
  for f in $d/*.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
done
for i in accap_accap_a40_f800_t180 gfd-schedule_n55f2d50m30k3_10124 rcpsp_J30_15_5 rcpsp_J30_22_6 spot5_404 \
         team-assignment_data3_5_31 tower_100_100_20_100-04 traveling-tppv_circ14cnonbal triangular_n39 \
         roster-sickness_large-2; do
  echo /tmp/dev/$i.fzn
done > /tmp/subset.txt
for cfg in "ps0:--host-teams 0" "host:--host-teams -1"; do
  label=${cfg%%:*}; args=${cfg#*:}
  python3 perf/bench/run.py --kcp $B --revision $REV --space cuda --timeout 15 --grace 10 --instances /tmp/subset.txt \
    --label $label --machine nvidia-h100 --out $OUT/b/$label.csv -- $args "$@" 2>&1 | tail -1
done
