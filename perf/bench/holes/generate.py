#!/usr/bin/env python3
"""Generate the issue-17 instances (domains with holes): n-queens and latin-square completion.

Writes perf/bench/holes/models/{queens,latin}.mzn and one .dzn per instance in
data/{queens,latin}/, compiles each to FlatZinc in instances/ (queens_n20.fzn.gz, latin_n10.fzn.gz,
...; gzipped, with the .ozn beside, like the development set) with
../shared/benchmarks/scripts/compile.sh: MiniZinc 2.6.4's standard library plus nosets.mzn, exactly
as the development set was compiled, so all_different is decomposed into int_lin_ne pairs (and, in
the latin squares, unary x != c rows against the given cells).

    perf/bench/holes/generate.py [--shared ../shared/benchmarks] [--seed 17] [--fill 0.4]

Queens: n = 20, 60, 150; three all_different over q[i], q[i]+i, q[i]-i;
int_search(q, first_fail, indomain_min, complete).
Latin-square completion: n = 10, 20, 30; an n x n grid over 1..n, all_different on every row and
column; a fraction --fill of the cells (chosen at random) pre-filled from a random latin square
(the cyclic square (i + j) mod n with its rows, columns and symbols permuted, from --seed + n), so
the instance is satisfiable; int_search(grid, first_fail, indomain_min, complete).
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))

QUEENS_MZN = """\
% n-queens: three all_different (decomposed by the standard library into != pairs).
include "all_different.mzn";
int: n;
array[1..n] of var 1..n: q;
constraint all_different(q);
constraint all_different([q[i] + i | i in 1..n]);
constraint all_different([q[i] - i | i in 1..n]);
solve :: int_search(q, first_fail, indomain_min, complete) satisfy;
output ["q = \\(q);\\n"];
"""

LATIN_MZN = """\
% Latin-square completion: 0 in `given` is an empty cell.
include "all_different.mzn";
int: n;
array[1..n, 1..n] of 0..n: given;
array[1..n, 1..n] of var 1..n: x;
constraint forall(i, j in 1..n where given[i, j] > 0)(x[i, j] = given[i, j]);
constraint forall(i in 1..n)(all_different([x[i, j] | j in 1..n]));
constraint forall(j in 1..n)(all_different([x[i, j] | i in 1..n]));
solve :: int_search([x[i, j] | i, j in 1..n], first_fail, indomain_min, complete) satisfy;
output ["x = \\(x);\\n"];
"""


def latin_square(n, rng):
    rows, cols, syms = list(range(n)), list(range(n)), list(range(n))
    rng.shuffle(rows); rng.shuffle(cols); rng.shuffle(syms)
    sq = [[syms[(rows[i] + cols[j]) % n] + 1 for j in range(n)] for i in range(n)]
    for i in range(n):  # a latin square, by construction; checked anyway
        assert sorted(sq[i]) == list(range(1, n + 1))
        assert sorted(sq[k][i] for k in range(n)) == list(range(1, n + 1))
    return sq


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", default=os.path.join(REPO, "..", "shared", "benchmarks"))
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--fill", type=float, default=0.4)
    ap.add_argument("--queens", type=int, nargs="*", default=[20, 60, 150])
    ap.add_argument("--latin", type=int, nargs="*", default=[10, 20, 30])
    args = ap.parse_args()

    models, data, out = (os.path.join(HERE, d) for d in ("models", "data", "instances"))
    for d in (models, os.path.join(data, "queens"), os.path.join(data, "latin"), out):
        os.makedirs(d, exist_ok=True)
    with open(os.path.join(models, "queens.mzn"), "w") as f:
        f.write(QUEENS_MZN)
    with open(os.path.join(models, "latin.mzn"), "w") as f:
        f.write(LATIN_MZN)

    lines = []
    for n in args.queens:
        p = os.path.join(data, "queens", f"n{n}.dzn")
        with open(p, "w") as f:
            f.write(f"n = {n};\n")
        lines.append(f"queens {os.path.join(models, 'queens.mzn')} {p}")
    for n in args.latin:
        rng = random.Random(args.seed + n)
        sq = latin_square(n, rng)
        cells = [(i, j) for i in range(n) for j in range(n)]
        filled = set(rng.sample(cells, round(args.fill * n * n)))
        given = [[sq[i][j] if (i, j) in filled else 0 for j in range(n)] for i in range(n)]
        p = os.path.join(data, "latin", f"n{n}.dzn")
        with open(p, "w") as f:
            f.write(f"% seed {args.seed + n}, {len(filled)} of {n * n} cells given; a completion:\n")
            for row in sq:
                f.write("% " + " ".join(map(str, row)) + "\n")
            f.write(f"n = {n};\ngiven = [|\n")
            f.write("|\n".join("  " + ", ".join(map(str, r)) for r in given))
            f.write(" |];\n")
        lines.append(f"latin {os.path.join(models, 'latin.mzn')} {p}")
    with tempfile.NamedTemporaryFile("w", suffix=".list", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        listfile = f.name
    try:
        subprocess.run([os.path.join(args.shared, "scripts", "compile.sh"), listfile, out], check=True)
    finally:
        os.unlink(listfile)
    for name in os.listdir(out):  # packed like the development set (5 MB of .fzn -> 0.25 MB)
        if name.endswith(".fzn"):
            subprocess.run(["gzip", "-9nf", os.path.join(out, name)], check=True)


if __name__ == "__main__":
    sys.exit(main())
