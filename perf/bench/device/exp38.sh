#!/usr/bin/env bash
# Session 12, issue 19: the host's rows beside the GPU with 1 s slices (cut with the GPU's, e30ef46),
# 15 s per instance: the instances with no solution on the H100 (ma-path-finding, whose GPU slices
# take a second; stripboard; blocks-world; sudoku-opt), those where --host-teams moved the final
# objective (accap_a40, team-assignment, traveling-tppv, triangular_n39) and one proof (rcpsp_J30_22_6).
# usage (device): bash perf/bench/device/exp38.sh REV LABEL [extra kcp args]; carry build/gpu/bin/kcp-REV,
# gpu-bench, gpu-bench-mznlib, gpu-bench-mznlib2
set -u
REV=$1; LABEL=$2; shift 2
B=build/gpu/bin/kcp-$REV
mkdir -p $OUT/b /tmp/dev
for d in gpu-bench gpu-bench-mznlib gpu-bench-mznlib2; do
  for f in $d/*.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
done
for i in ma-path-finding_ins_g16_p10_a20 stripboard_common-emitter-simple blocks-world_16-4-5 sudoku-opt_sudoku_p20 \
         accap_accap_a40_f800_t180 team-assignment_data3_5_31 traveling-tppv_circ14cnonbal triangular_n39 rcpsp_J30_22_6; do
  echo /tmp/dev/$i.fzn
done > /tmp/subset.txt
python3 perf/bench/run.py --kcp $B --revision $REV --space cuda --timeout 15 --grace 10 --instances /tmp/subset.txt \
  --label $LABEL --machine nvidia-h100 --out $OUT/b/$LABEL.csv -- "$@" 2>&1 | tail -1
