#!/usr/bin/env bash
# exp98: the product kernel (cuda preset) with solve.cpp at ptxas -O3 / -O1 / -O0: queens with the queue and bitsets, and 5 s on seven development instances.
set -u
# usage (device): bash perf/bench/device/exp98.sh DIR  — DIR holds kcp-O3, kcp-O1, kcp-O0 (each the cuda preset's kcp
#   with search/solve.cpp compiled -Xptxas=-ON; since entry 45 -DKCP_CUDA_PTXAS_LEVEL=N does it for the whole build),
#   queens10.fzn and queens12.fzn (perf/bench/device/queens_fzn.py) and dev/*.fzn (decompressed development instances).
cd "$1"
echo "bin,model,config,solutions,wall_s" > $OUT/queens.csv
echo "bin,instance,config,nodes,nodes_per_s,solutions,objective,complete,wall_s" > $OUT/dev.csv
for bin in kcp-O3 kcp-O1 kcp-O0; do
  for m in queens10:724 queens12:14200; do
    for cfg in "default:" "vl1:--vector-length 1" "ts1:--team-size 1"; do
      s=$SECONDS
      n=$(timeout 120 ./$bin ${m%%:*}.fzn --space cuda --bitset-span 64 -a --probe-ms 0 --fixpoint queue ${cfg#*:} 2>/dev/null | grep -c -- '^----------')
      echo "$bin,${m%%:*},${cfg%%:*},$n,$((SECONDS - s))" | tee -a $OUT/queens.csv
    done
  done
done
for bin in kcp-O3 kcp-O1 kcp-O0; do
  for f in dev/*.fzn; do
    for cfg in "default:" "queue-bitsets:--fixpoint queue --bitset-span 4096"; do
      s=$SECONDS
      timeout 30 ./$bin $f --space cuda -t 5000 -s ${cfg#*:} > /tmp/o.txt 2>/tmp/e.txt
      nodes=$(grep 'mzn-stat: nodes=' /tmp/o.txt | tail -1 | cut -d= -f2); nps=$(grep 'nodesPerSecond=' /tmp/o.txt | tail -1 | cut -d= -f2)
      sols=$(grep -c -- '^----------' /tmp/o.txt); obj=$(grep 'mzn-stat: objective=' /tmp/o.txt | tail -1 | cut -d= -f2); comp=$(grep -c '^==========' /tmp/o.txt)
      echo "$bin,$(basename $f .fzn),${cfg%%:*},$nodes,$nps,$sols,$obj,$comp,$((SECONDS - s))" | tee -a $OUT/dev.csv
    done
  done
done
