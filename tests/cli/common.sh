# Sourced by tests/cli/limits.sh and tests/mpi/limits.sh: checks that count failures, and models that run long.
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# stopped WHAT RC MS: waits for the run started in the background as $job, which was just told to stop
# (the assignment model below, -s, output in $tmp/out.txt); checks that it exited RC within MS ms with
# the best solution and the statistics, and no completion marker. Leaves the output in $out.
stopped() {
  local what=$1 want_rc=$2 limit=$3 start rc elapsed
  start=$(now_ms)
  wait "$job"; rc=$?
  elapsed=$(( $(now_ms) - start ))
  out=$(cat "$tmp/out.txt")
  check "$what: exit $want_rc (rc $rc)" "[ $rc = $want_rc ]"
  check "$what: stops within $limit ms (took $elapsed ms)" "[ $elapsed -lt $limit ]"
  check "$what: prints the best solution" "grep -q '^total = [0-9]*;$' <<<\"\$out\" && grep -q '^----------$' <<<\"\$out\""
  check "$what: no completion marker" "! grep -q '^==========$' <<<\"\$out\""
  check "$what: prints statistics" "grep -q '^%%%mzn-stat-end$' <<<\"\$out\""
}

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
