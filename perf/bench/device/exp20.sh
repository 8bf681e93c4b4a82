#!/usr/bin/env bash
# Session 5: the one-team probe (--probe-ms, default 50) on the H100. (1) the whole CUDA test binary of
# REV (plain; OpenMP cases on 4 threads); (2) exp17's tiny models with the probe and without
# (--probe-ms 0): wall per process and kcp's statistics; (3) 20 x queens -a in one kcp_batch, with and
# without; (4) what the probe costs where it cannot finish: ma-path-finding (the largest model: set-up
# twice) for 10 s and rcpsp_J30_20_6 (optimum proven in ~1 s), with and without.
# usage (device): bash perf/bench/device/exp20.sh REV; carry build/gpu/bin/kcp-REV, build/gpu/race/kcp_batch-REV,
# build/gpu/race/kcp_tests-REVq, gpu-bench/ma-path-finding_ins_g16_p10_a20.fzn.gz, gpu-bench/rcpsp_J30_20_6.fzn.gz.
set -u
B=build/gpu/bin/kcp-$1; KB=build/gpu/race/kcp_batch-$1; T=build/gpu/race/kcp_tests-$1q
export OMP_PROC_BIND=false
t0=$SECONDS
OMP_NUM_THREADS=4 timeout 150 $T > $OUT/kcp_tests-cuda-$1.txt 2>&1
echo "== tests rc=$? $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED) +\] [0-9]+ test' $OUT/kcp_tests-cuda-$1.txt | tr '\n' ' ')"
grep -E '^\[  FAILED' $OUT/kcp_tests-cuda-$1.txt | head
ms() { echo $(( $(date +%s%N) / 1000000 )); }
stats() { grep -E 'initTime|searchSetupTime|solveTime|launches|teams=|nodes=|probe|objective=|=====' | tr '\n' ' ' | sed 's/%%%mzn-stat: //g'; }
echo "== tiny models, one process per run: wall ms, kcp's statistics"
for m in queens send-more-money backpack; do
  for p in "" "--probe-ms 0"; do
    a=""; [ $m = queens ] && a="-a"
    t=$(ms); $B -s $a $p examples/$m.fzn > /tmp/o.txt 2>&1; echo "$m $a $p: $(( $(ms) - t )) ms: $(stats < /tmp/o.txt)"
  done
done
echo "== kcp_batch, one process, 20 x queens -a"
for p in "" "--probe-ms 0"; do
  rm -rf /tmp/kb; mkdir -p /tmp/kb
  for i in $(seq 1 20); do echo "/tmp/kb/q$i -s -a $p examples/queens.fzn"; done > /tmp/kb/list
  t=$(ms); $KB < /tmp/kb/list > /dev/null 2>&1; echo "'$p': $(( $(ms) - t )) ms for 20; last: $(stats < /tmp/kb/q20.out)"
  grep -c '^----------$' /tmp/kb/q20.out
done
echo "== where the probe cannot finish"
for f in rcpsp_J30_20_6 ma-path-finding_ins_g16_p10_a20; do
  gunzip -c gpu-bench/$f.fzn.gz > /tmp/$f.fzn
  for p in "" "--probe-ms 0"; do
    t=$(ms); $B -s -t 10000 $p /tmp/$f.fzn > /tmp/o.txt 2>&1; echo "$f $p: $(( $(ms) - t )) ms: $(stats < /tmp/o.txt)"
  done
done
