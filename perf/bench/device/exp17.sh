#!/usr/bin/env bash
# Session 5: (1) out of memory on the GPU: 186 GB of decision stacks on CUDA must stop with kcp's
# "out of memory while setting up and running the search" and exit 1; (2) where a tiny model's time
# goes on CUDA (NOTES entry 7: 0.34-0.57 s per model even inside kcp_batch): wall time per process,
# kcp's initTime / searchSetupTime / solveTime / launches, by team count; and per model inside one
# kcp_batch process, alone on the GPU.
# usage (device): bash perf/bench/device/exp17.sh REV; carry build/gpu/bin/kcp-REV, build/gpu/race/kcp_batch-REV.
set -u
B=build/gpu/bin/kcp-$1; KB=build/gpu/race/kcp_batch-$1
export OMP_PROC_BIND=false
echo "== out of memory on CUDA"
$B --space cuda --teams 100000 --max-depth 100000 examples/queens.fzn; echo "rc=$?"
ms() { echo $(( $(date +%s%N) / 1000000 )); }
stats() { grep -E 'initTime|searchSetupTime|solveTime|launches|teams=|nodes=' | tr '\n' ' ' | sed 's/%%%mzn-stat: //g'; }
echo "== one process per run: wall ms, then kcp's statistics"
for m in queens send-more-money backpack; do
  for args in "--space cuda" "--space cuda --teams 64" "--space cuda --teams 4" "--space openmp"; do
    a=""; [ $m = queens ] && a="-a"
    t0=$(ms); $B -s $a $args examples/$m.fzn > /tmp/o.txt 2>&1; t1=$(ms)
    echo "$m $a $args: $((t1 - t0)) ms: $(stats < /tmp/o.txt)"
  done
done
echo "== kcp_batch, one process alone, 20 lines each"
for args in "--space cuda" "--space cuda --teams 64" "--space openmp"; do
  rm -rf /tmp/kb; mkdir -p /tmp/kb
  for i in $(seq 1 20); do echo "/tmp/kb/q$i -s -a $args examples/queens.fzn"; done > /tmp/kb/list
  t0=$(ms); $KB < /tmp/kb/list > /dev/null 2>&1; t1=$(ms)
  echo "$args: $((t1 - t0)) ms for 20 (Kokkos started once); last: $(stats < /tmp/kb/q20.out)"
done
echo "== nsys?"; command -v nsys ncu || ls /usr/local/cuda*/bin/ | grep -E 'nsys|ncu' | head
