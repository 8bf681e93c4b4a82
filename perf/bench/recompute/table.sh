#!/usr/bin/env bash
# Issue 26's table: rcpsp_J30_15_5 to a proven optimum (58) on this machine, each configuration with
# copies only at the subproblem's root (--copy-distance 0, the search before hybrid recomputation)
# and with the default copy distance, one run at a time. Prints a CSV on stdout.
# usage: perf/bench/recompute/table.sh KCP INSTANCE.fzn [TIMEOUT_MS]
set -u
kcp=$1; inst=$2; t=${3:-60000}
stat() { grep -E "^%%%mzn-stat: $1=" /tmp/recompute.out | head -1 | sed 's/.*=//'; }
echo "configuration,copy_distance,status,objective,nodes,fixpoint_iterations,propagations_per_node,restores,replayed_decisions,solve_s,nodes_per_s"
while IFS='|' read -r name args; do
  for cd in 0 default; do
    extra=""; [ "$cd" = 0 ] && extra="--copy-distance 0"
    # shellcheck disable=SC2086
    $kcp $args $extra -s -t "$t" "$inst" > /tmp/recompute.out 2>&1
    st=unknown; grep -q '^----------' /tmp/recompute.out && st=solution; grep -q '^==========' /tmp/recompute.out && st=optimal
    echo "$name,$(stat copyDistance),$st,$(stat objective),$(stat nodes),$(stat fixpointIterations),$(stat propagationsPerNode),$(stat restores),$(stat replayedDecisions),$(stat solveTime),$(stat nodesPerSecond)"
  done
done <<'LIST'
kcp -p 1|-p 1
kcp --space serial|--space serial
kcp -p 1 --subproblems 5|-p 1 --subproblems 5
kcp -p 1 --subproblems 10|-p 1 --subproblems 10
kcp --space serial --subproblems 10|--space serial --subproblems 10
kcp -p 2|-p 2
LIST
