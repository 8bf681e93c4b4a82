#!/usr/bin/env bash
# Session 18, issue 22's close: what bounds the GPU on the small models, model by model (perf/NOTES.md
# entry 28). The same binary (REV) on each instance: 5 s on CUDA (default), CUDA without the nogood pool
# (--learn none), and OpenMP on the host's 16 cores; then Nsight Compute on one search launch (the 21st):
# speed of light, occupancy, warp states (the raw stall counters), memory workload.
# usage (device): bash perf/bench/device/exp52.sh REV; carry build/gpu/bin/kcp-REV.gz, gpu-bench-mznlib
set -u
REV=$1
B=/tmp/kcp-$REV
gunzip -c build/gpu/bin/kcp-$REV.gz > $B && chmod +x $B
export OMP_PROC_BIND=false
t0=$SECONDS
mkdir -p $OUT/r /tmp/dev
for f in gpu-bench-mznlib/*.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
SET=${INSTANCES:-triangular_n10 nfc_24_4_2 roster-sickness_small-4 accap_accap_a4_f30_t15 sudoku-opt_sudoku_p20 wordpress_Wordpress7_Offers500 rcpsp_J30_13_9}
for i in $SET; do
  for cfg in "--space cuda" "--space cuda --learn none" "--space openmp -p 16"; do
    timeout 20 $B -s -t 5000 $cfg /tmp/dev/$i.fzn > /tmp/o.txt 2>&1
    echo "$i [$cfg] $(grep -E '^%%%mzn-stat: (nodes|solveTime|fixpoint|fixpointIterationsPerNode|propagationsPerNode|teams|nogoodPropagations)=' /tmp/o.txt | sed 's/%%%mzn-stat: //' | tr '\n' ' ')"
  done
done | tee $OUT/r/runs-$REV.txt
echo "== runs $((SECONDS - t0)) s"
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for i in $SET; do
  timeout 100 $NCU --kernel-name-base demangled --kernel-name regex:ParallelSearch --launch-skip 20 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis \
    -o /tmp/ncu-$i $B -s -t 10000 /tmp/dev/$i.fzn > $OUT/r/ncu-run-$i.txt 2>&1
  $NCU -i /tmp/ncu-$i.ncu-rep --page details > $OUT/r/ncu-details-$i.txt 2>&1
  $NCU -i /tmp/ncu-$i.ncu-rep --page raw --csv > $OUT/r/ncu-raw-$i.csv 2>&1
  echo "ncu $i: $(grep -E 'Duration|L1/TEX Hit Rate|Warp Cycles Per Issued|Achieved Occupancy' $OUT/r/ncu-details-$i.txt | tr -s ' ' | tr '\n' ';')"
done
echo "== total $((SECONDS - t0)) s"
tar czf $OUT/exp52.tgz -C $OUT r && rm -rf $OUT/r
