#!/usr/bin/env bash
# Session 6: domains with holes (issue 17) on the H100. (1) the whole CUDA test binary of REV (plain;
# OpenMP cases on 4 threads); (2) the hole instances (perf/bench/holes/instances: n-queens, latin
# squares) and sudoku-opt with the bounds-only store (--bitset-span 0), one word (64) and four (256),
# 10 s each, kcp's statistics to $OUT/holes-cuda.csv. The dev-set sweep is sweep.sh (two calls).
# usage (device): bash perf/bench/device/exp21.sh REV; carry build/gpu/bin/kcp-REV, build/gpu/bin/kcp_tests-REV,
# gpu-holes/ (sudoku-opt.fzn.gz and perf/bench/holes/instances/*.fzn.gz), gpu-bench/ (the dev set) for (3).
set -u
B=build/gpu/bin/kcp-$1; T=build/gpu/bin/kcp_tests-$1
export OMP_PROC_BIND=false KCP_SOURCE_DIR=$PWD
t0=$SECONDS
if [ "${NOTESTS:-0}" = 0 ]; then
  OMP_NUM_THREADS=4 timeout 300 $T > $OUT/kcp_tests-cuda-$1.txt 2>&1
  echo "== tests rc=$? $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED) +\] [0-9]+ test' $OUT/kcp_tests-cuda-$1.txt | tr '\n' ' ')"
  grep -E '^\[  FAILED' $OUT/kcp_tests-cuda-$1.txt | head -20
fi
stat() { grep -E "^%%%mzn-stat: $1=" /tmp/o.txt | head -1 | sed 's/.*=//'; }
mkdir -p /tmp/h
gunzip -c gpu-holes/sudoku-opt*.fzn.gz > /tmp/h/sudoku-opt.fzn 2>/dev/null
for f in gpu-holes/*.fzn.gz; do case $f in *sudoku-opt*) ;; *) gunzip -c $f > /tmp/h/$(basename $f .gz) ;; esac; done
echo "instance,span,status,objective,nodes,fp_iter_per_node,nodes_per_s,solve_s,bitset_vars,domain_bytes_per_team,scratch_level,teams" > $OUT/holes-cuda.csv
for f in /tmp/h/*.fzn; do
  for span in 0 64 256; do
    $B --space cuda -s -t 10000 --bitset-span $span $f > /tmp/o.txt 2>&1
    st=unknown; grep -q '^----------' /tmp/o.txt && st=solution; grep -q '^==========' /tmp/o.txt && st=complete
    grep -q 'error' /tmp/o.txt && st=error
    echo "$(basename $f .fzn),$span,$st,$(stat objective),$(stat nodes),$(stat fixpointIterationsPerNode),$(stat nodesPerSecond),$(stat solveTime),$(stat bitsetVariables),$(stat domainBytesPerTeam),$(stat scratchLevel),$(stat teams)" >> $OUT/holes-cuda.csv
  done
done
column -s, -t $OUT/holes-cuda.csv
echo "== $((SECONDS - t0)) s"
# (3) The development instances with bitsets, 15 s, with the bounds-only store (--bitset-span 0), to
# tell the store's effect from the kernel's (the sweep runs the default, 64).
if [ "${NOSPAN0:-0}" = 0 ]; then
  REV=$1; B=build/gpu/bin/kcp-$1
  source perf/bench/device/common.sh
  configuration cuda-15s-span0-$1 cuda 15 "diameterc gfd-schedule nfc rotating-workforce spot5 stripboard sudoku-opt team-assignment tower traveling-tppv wordpress" --bitset-span 0
  cp $OUT/b/*.csv $OUT/ && rm -rf $OUT/b
fi
echo "== $((SECONDS - t0)) s"
