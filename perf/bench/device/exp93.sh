#!/usr/bin/env bash
# Session 31, issue 53 (perf/NOTES.md entry 43): compute-sanitizer on the check build (gpu-diag/kcp-chk,
# queens8.fzn from queens_fzn.py). Under racecheck the queue fixpoint is incomplete at most nodes, AC1 at
# none, with no hazard reported; one team without subproblems suffices.
set -u
cd gpu-diag
CS=/usr/local/cuda/bin/compute-sanitizer
A="queens8.fzn --space cuda --bitset-span 64 -a --probe-ms 0"
for tool in synccheck racecheck; do
  for fp in queue ac1; do
    for s in "--vector-length 1" "--team-size 1" ""; do
      echo "== $tool $fp [$s] $(timeout 150 $CS --tool $tool --print-limit 5 ./kcp-chk $A --fixpoint $fp --teams 16 --subproblems 8 --no-dive-cache $s 2>&1 | grep 'kcp-check\|SUMMARY' | tr '\n' ' ')"
    done
  done
done
for v in "--teams 1 --subproblems 0 --vector-length 1" "--teams 1 --subproblems 0 --team-size 1" "--teams 1 --subproblems 0"; do
  echo "== racecheck queue [$v] $(timeout 100 $CS --tool racecheck ./kcp-chk $A --fixpoint queue $v 2>&1 | grep kcp-check | tail -1)"
done
