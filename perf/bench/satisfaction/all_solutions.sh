#!/usr/bin/env bash
# Satisfaction with -a: the explaining search beside the fleet (--learn explain, the default) against
# the fleet alone (--learn none), RUNS runs each, on
#   - MiniZinc's general/test_set_lt_1 (from ../shared/mznspec's suite: one solution, 20 set variables
#     decomposed into Booleans by kcp's mznlib; the item that timed out in CI at its 20 s), and
#   - many: 8 variables in 1..6 whose sum is a multiple of 3 (559,872 solutions, no conflict: the cost
#     of keeping every solution once while the explaining search runs).
# usage: perf/bench/satisfaction/all_solutions.sh KCP OUT.csv [RUNS]   (KCP: a kcp binary)
set -euo pipefail
kcp=$(realpath "$1"); out=$2; runs=${3:-3}
here=$(cd "$(dirname "$0")/../../.." && pwd)
shared=${KCP_MZNSPEC:-$here/../shared/mznspec}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
tar -xzf "$shared/libminizinc-2.6.4-tests.tar.gz" -C "$work" libminizinc-2.6.4/tests/spec/unit/general/test_set_lt_1.mzn
cp "$work/libminizinc-2.6.4/tests/spec/unit/general/test_set_lt_1.mzn" "$work/set_lt_1.mzn"
cat > "$work/many.mzn" <<'MZN'
array[1..8] of var 1..6: x;
constraint sum(x) mod 3 = 0;
solve satisfy;
MZN
# Compiled as the solver configuration kcp installs does: against kcp's mznlib.
cat > "$work/compile.msc" <<MSC
{ "id": "bench.compile", "name": "compile only", "version": "1.0", "mznlib": "$here/mznlib",
  "executable": "/bin/false", "supportsFzn": true }
MSC
for m in set_lt_1 many; do
  minizinc -c --solver "$work/compile.msc" "$work/$m.mzn" --fzn "$work/$m.fzn" >/dev/null
done
echo "model,learn,run,seconds,complete,solutions,nodes,explain_nodes,explain_conflicts,proved_by_nogood" > "$out"
for m in set_lt_1 many; do
  for r in $(seq 1 "$runs"); do
    for learn in explain none; do
      t0=$(date +%s.%N)
      "$kcp" -a -s --learn "$learn" -t 60000 "$work/$m.fzn" > "$work/out.txt" 2>&1 || true
      t=$(echo "$(date +%s.%N) - $t0" | bc)
      stat() { grep -m1 "^%%%mzn-stat: $1=" "$work/out.txt" | cut -d= -f2 || true; }
      complete=$(grep -q '^==========$' "$work/out.txt" && echo yes || echo no)
      echo "$m,$learn,$r,$(printf %.2f "$t"),$complete,$(stat solutions),$(stat nodes),$(stat explainNodes),$(stat explainConflicts),$(stat provedByNogood)" | tee -a "$out"
    done
  done
done
