#!/usr/bin/env bash
# The time limit and the signals, on the real binary: -t is honoured within a second; SIGINT and
# SIGTERM stop the search, print the best solution found and the statistics, and exit 0.
# usage: limits.sh KCP_BINARY
set -uo pipefail
kcp=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/common.sh"
pigeons 14 > "$tmp/pigeons.fzn"
assignment 16 > "$tmp/assignment.fzn"

start=$(now_ms)
out=$("$kcp" -t 1000 -s "$tmp/pigeons.fzn"); rc=$?
elapsed=$(( $(now_ms) - start ))
check "-t 1000 exits 0" "[ $rc = 0 ]"
check "-t 1000 stops within 1 s of the limit (took $elapsed ms)" "[ $elapsed -lt 2000 ]"
check "-t 1000 reports UNKNOWN" "grep -q '^=====UNKNOWN=====$' <<<\"\$out\""
check "-t 1000 prints statistics" "grep -q '^%%%mzn-stat-end$' <<<\"\$out\""

for sig in INT TERM; do
  "$kcp" -s "$tmp/assignment.fzn" > "$tmp/out.txt" 2>"$tmp/err.txt" &
  job=$!
  sleep 1.5
  kill -s $sig $job
  stopped "SIG$sig" 0 1000
done
echo "$([ $fail = 0 ] && echo "all passed" || echo "some failed")"
exit $fail
