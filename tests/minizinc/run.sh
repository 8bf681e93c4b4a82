#!/usr/bin/env bash
# End to end through MiniZinc: install kcp into a fresh prefix, then solve the shipped example models
# with `minizinc --solver kcp`, found through MZN_SOLVER_PATH, and compare with the known answers.
# usage: run.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
prefix=$(mktemp -d); trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
export MZN_SOLVER_PATH=$prefix/share/minizinc/solvers
fail=0
expect() {  # expect NAME EXPECTED_SUBSTRING OUTPUT
  if [[ "$3" == *"$2"* ]]; then echo "ok   $1"; else echo "FAIL $1: expected '$2' in:"; echo "$3"; fail=1; fi
}
# Read the whole list before matching: `minizinc --solvers | grep -q` under pipefail fails at random when
# grep exits at the first match and minizinc dies of SIGPIPE writing the rest.
solvers=$(minizinc --solvers 2>&1) || { echo "FAIL: minizinc --solvers exited with $?:"; echo "$solvers"; exit 1; }
[[ "$solvers" == *org.kcp.kcp* ]] || { echo "FAIL: minizinc does not list kcp (MZN_SOLVER_PATH=$MZN_SOLVER_PATH):"; echo "$solvers"; ls -R "$prefix/share/minizinc" || true; exit 1; }
out=$(minizinc --solver kcp "$src/examples/send-more-money.mzn")
expect send-more-money $'S = 9;\nE = 5;\nN = 6;\nD = 7;\nM = 1;\nO = 0;\nR = 8;\nY = 2;\n----------' "$out"
out=$(minizinc --solver kcp -a "$src/examples/queens.mzn")
n=$(grep -c -- '----------' <<<"$out")
[ "$n" = 92 ] && echo "ok   queens -a: 92 solutions" || { echo "FAIL queens -a: $n solutions"; fail=1; }
expect "queens complete" "==========" "$out"
out=$(minizinc --solver kcp "$src/examples/backpack.mzn")
expect backpack $'take = [0, 1, 1, 1, 0, 0];\n----------\n==========' "$out"
out=$(minizinc --solver kcp -s -t 5000 --check "$src/examples/backpack.mzn" 2>&1)
expect "statistics" "%%%mzn-stat: objective=51" "$out"
# kcp's library: all_different and cumulative/disjunctive reach kcp as native global constraints.
out=$(minizinc --solver kcp -a "$src/examples/sudoku.mzn")
expect "sudoku (all_different)" $'5 3 4 6 7 8 9 1 2\n6 7 2 1 9 5 3 4 8' "$out"
expect "sudoku complete" $'----------\n==========' "$out"
out=$(minizinc --solver kcp -s "$src/examples/schedule.mzn" 2>&1)
expect "schedule (cumulative, disjunctive)" $'makespan = 11;\n----------\n==========' "$out"
expect "schedule's globals are native" "%%%mzn-stat: cumulativePropagators=2" "$out"
out=$(minizinc --solver kcp -a -s "$src/examples/shifts.mzn" 2>&1)
n=$(grep -c '^shift' <<<"$out")
[ "$n" = 10 ] && echo "ok   shifts -a (regular, table): 10 solutions" || { echo "FAIL shifts -a: $n solutions"; echo "$out"; fail=1; }
expect "shifts complete" "==========" "$out"
expect "shifts' tables are native" "%%%mzn-stat: tablePropagators=" "$out"
echo "$([ $fail = 0 ] && echo "all passed" || echo "some failed")"
exit $fail
