#!/usr/bin/env python3
"""n-queens as standard-library FlatZinc (int_ne and two-term int_lin_ne rows, first_fail,
indomain_median): the reproducer of issue 53's incomplete queue fixpoints on CUDA (perf/NOTES.md,
entry 43). usage: queens_fzn.py N OUT.fzn   (solutions with -a: 8 -> 92, 10 -> 724, 12 -> 14,200)"""
import sys

n, out = int(sys.argv[1]), sys.argv[2]
lines = [f"var 1..{n}: q{i} :: output_var;" for i in range(n)]
for i in range(n):
    for j in range(i + 1, n):
        lines.append(f"constraint int_ne(q{i},q{j});")
        lines.append(f"constraint int_lin_ne([1,-1],[q{i},q{j}],{j - i});")
        lines.append(f"constraint int_lin_ne([1,-1],[q{i},q{j}],{i - j});")
qs = ",".join(f"q{i}" for i in range(n))
lines.append(f"solve :: int_search([{qs}], first_fail, indomain_median, complete) satisfy;")
open(out, "w").write("\n".join(lines) + "\n")
