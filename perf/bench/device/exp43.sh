#!/usr/bin/env bash
# Session 16, issue 22 (GPU per-node latency): where a small model's node goes. Team shapes (warps per
# team, teams = the GPU's resident threads / team threads) on the five small models and six others,
# 5 s each; ma-path-finding with fewer teams, 15 s; tiny models' wall time; Nsight Compute's warp
# state and scheduler sections on one search launch of triangular_n10 and nfc, default shape and 1 warp.
# usage (device): bash perf/bench/device/exp43.sh REV; carry build/gpu/bin/kcp-REV.gz, gpu-bench*
set -u
REV=$1
B=build/gpu/bin/kcp-$REV
export OMP_PROC_BIND=false
t0=$SECONDS
gunzip -c build/gpu/bin/kcp-$REV.gz > $B && chmod +x $B
mkdir -p $OUT/r /tmp/dev
for d in gpu-bench gpu-bench-mznlib gpu-bench-mznlib2; do
  for f in $d/*.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
done
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > $OUT/r/gpu.txt
for i in triangular_n10 nfc_24_4_2 roster-sickness_small-4 accap_accap_a4_f30_t15 sudoku-opt_sudoku_p20 \
         spot5_404 rcpsp_J30_25_3 roster-sickness_large-2 triangular_n39 wordpress_Wordpress7_Offers500 \
         diameterc-mst_c_v20_a190_d4; do
  ls /tmp/dev/$i*.fzn >> /tmp/shape.txt
done
for ts in ${SHAPES:-8 4 2 1}; do
  python3 perf/bench/run.py --kcp $B --revision $REV --space cuda --timeout ${T:-5} --grace 10 --instances /tmp/shape.txt \
    --label ts$ts --machine nvidia-h100 --out $OUT/r/shape-ts$ts.csv -- --team-size $ts --vector-length 32 2>&1 | tail -1
  echo "== ts$ts $((SECONDS - t0)) s"
done
M=/tmp/dev/ma-path-finding_ins_g16_p10_a20.fzn
for teams in 132 528; do
  ( /usr/bin/time -v timeout 40 $B -s -t 15000 --teams $teams $M > $OUT/r/ma-teams$teams.txt 2>&1 ) 2>/dev/null
  echo "ma teams $teams: $(grep -cE '^----------' $OUT/r/ma-teams$teams.txt) solutions $(grep -E '%%%mzn-stat: (nodes|solveTime|fixpointIterations|launches)=' $OUT/r/ma-teams$teams.txt | tr '\n' ' ')"
done
( timeout 40 $B -s -t 15000 --teams 132 --team-size 1 $M > $OUT/r/ma-teams132-ts1.txt 2>&1 )
echo "ma teams 132 ts1: $(grep -cE '^----------' $OUT/r/ma-teams132-ts1.txt) solutions $(grep -E '%%%mzn-stat: (nodes|solveTime)=' $OUT/r/ma-teams132-ts1.txt | tr '\n' ' ')"
echo "== ma $((SECONDS - t0)) s"
for ex in examples/*.fzn; do
  for a in "" "-a"; do
    s=$(date +%s%N); $B -s $a $ex > /tmp/o.txt 2>&1; e=$(date +%s%N)
    echo "tiny $(basename $ex) $a wall $(( (e - s) / 1000000 )) ms $(grep -E 'solveTime|initTime|%%%mzn-stat: nodes=' /tmp/o.txt | tr '\n' ' ')"
  done
done
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for i in triangular_n10 nfc_24_4_2; do
  for ts in 8 1; do
    timeout 150 $NCU --kernel-name-base demangled --kernel-name regex:ParallelSearch --launch-skip 20 --launch-count 1 \
      --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats \
      --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
      $B -s -t 10000 --team-size $ts --vector-length 32 /tmp/dev/$i.fzn > $OUT/r/ncu-$i-ts$ts.txt 2>&1
    echo "ncu $i ts$ts rc=$? $(grep -cE 'Stall|Warp Cycles' $OUT/r/ncu-$i-ts$ts.txt)"
  done
done
echo "== ncu $((SECONDS - t0)) s"
tar czf $OUT/exp43.tgz -C $OUT r && rm -rf $OUT/r
