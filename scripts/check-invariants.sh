#!/usr/bin/env bash
# The checking build on the host (CI; issue 53): kcp built with KCP_CHECK_INVARIANTS (preset openmp-check),
# which after every complete fixpoint checks what the search relies on (a clean event workspace, a
# normalised store, a serial fixpoint that narrows nothing more, the same store above the subproblem depth
# in every team: search/parallel_search.hpp, check_invariants) and prints the counts as a `kcp-check:` line
# per searcher. 10 queens (tests/check_build/queens10.fzn, the standard library's flattening) with -a, the
# event-driven queue and bitsets, in three team layouts: every run must print 724 solutions, and every
# count of a violation must be 0. On a GPU the same build runs with the cuda preset and
# -DKCP_CHECK_INVARIANTS=ON (perf/bench/device/exp101.sh).
#   usage: scripts/check-invariants.sh [--no-build]   (KCP_CHECK_BIN: another checking binary)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != --no-build ]; then
  cmake --preset openmp-check > /dev/null
  cmake --build build/openmp-check --target kcp
fi
kcp=${KCP_CHECK_BIN:-build/openmp-check/bin/kcp}
model=tests/check_build/queens10.fzn
status=0
run() {
  local name=$1
  shift
  local out err solutions
  out=$(mktemp) err=$(mktemp)
  OMP_NUM_THREADS=2 "$kcp" -a --probe-ms 0 --fixpoint queue --bitset-span 4096 "$@" "$model" > "$out" 2> "$err" || {
    echo "check-invariants: $name: kcp exited with $?" >&2
    cat "$err" >&2
    status=1
  }
  solutions=$(grep -c '^----------$' "$out" || true)
  local lines
  lines=$(grep '^kcp-check:' "$err" || true)
  if [ -z "$lines" ]; then
    echo "check-invariants: $name: no kcp-check line (is $kcp a checking build?)" >&2
    status=1
    return
  fi
  local bad
  bad=$(echo "$lines" | grep -E ' (leaks|unnormalised|incomplete|tree)=[1-9]' || true)
  if [ "$solutions" != 724 ] || [ -n "$bad" ]; then
    echo "check-invariants: $name: $solutions solutions (724 expected)" >&2
    echo "$lines" >&2
    status=1
  else
    echo "check-invariants: $name: 724 solutions; $(echo "$lines" | tail -1 | cut -d' ' -f2-)"
  fi
  rm -f "$out" "$err"
}
run "one team" --teams 1
run "4 teams, 2^6 subproblems" --teams 4 --subproblems 6
run "default teams" 
exit $status
