#!/usr/bin/env bash
# The time limit and the signals, on the real binary: -t is honoured within a second; SIGINT and
# SIGTERM stop the search, print the best solution found and the statistics, and exit 0.
# usage: limits.sh KCP_BINARY
set -uo pipefail
kcp=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# n pigeons, n-1 holes, pairwise different: unsatisfiable, and bounds reasoning needs an exponential search.
pigeons() {
  local n=$1 holes=$(( $1 - 1 ))
  for ((i = 1; i <= n; i++)); do echo "var 1..$holes: p$i :: output_var;"; done
  for ((i = 1; i <= n; i++)); do for ((j = i + 1; j <= n; j++)); do echo "constraint int_ne(p$i, p$j);"; done; done
  echo "solve satisfy;"
}
# n pigeons in n holes, maximise sum i * p_i: the first solution comes at once, the proof takes long.
assignment() {
  local n=$1 coefs="" vars=""
  for ((i = 1; i <= n; i++)); do echo "var 1..$n: p$i :: output_var;"; done
  for ((i = 1; i <= n; i++)); do for ((j = i + 1; j <= n; j++)); do echo "constraint int_ne(p$i, p$j);"; done; done
  for ((i = 1; i <= n; i++)); do coefs+="${coefs:+,}$(( (i * 7) % 11 + 1 ))"; vars+="${vars:+,}p$i"; done
  echo "var 0..100000: total :: output_var;"
  echo "constraint int_lin_eq([$coefs,-1],[$vars,total],0);"
  echo "solve maximize total;"
}
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
  pid=$!
  sleep 1.5
  kill -s $sig $pid
  start=$(now_ms)
  wait $pid; rc=$?
  elapsed=$(( $(now_ms) - start ))
  out=$(cat "$tmp/out.txt")
  check "SIG$sig: exit 0 (rc $rc)" "[ $rc = 0 ]"
  check "SIG$sig: stops within 1 s (took $elapsed ms)" "[ $elapsed -lt 1000 ]"
  check "SIG$sig: prints the best solution" "grep -q '^total = [0-9]*;$' <<<\"\$out\" && grep -q '^----------$' <<<\"\$out\""
  check "SIG$sig: no completion marker" "! grep -q '^==========$' <<<\"\$out\""
  check "SIG$sig: prints statistics" "grep -q '^%%%mzn-stat-end$' <<<\"\$out\""
done
echo "$([ $fail = 0 ] && echo "all passed" || echo "some failed")"
exit $fail
