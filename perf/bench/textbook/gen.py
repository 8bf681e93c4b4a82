#!/usr/bin/env python3
"""Data for the textbook set: latin square completion instances (a random latin square of order n,
rows, columns and symbols shuffled, a given fraction of its cells kept). usage: gen.py OUTDIR"""
import random, sys, os
out = sys.argv[1]; os.makedirs(out, exist_ok=True)
def latin(n, pct, seed):
    r = random.Random(seed)
    rows, cols, syms = list(range(n)), list(range(n)), list(range(1, n + 1))
    r.shuffle(rows); r.shuffle(cols); r.shuffle(syms)
    g = [[syms[(rows[i] + cols[j]) % n] for j in range(n)] for i in range(n)]
    cells = [(i, j) for i in range(n) for j in range(n)]
    keep = set(r.sample(cells, round(pct / 100 * n * n)))
    rows_txt = ["|" + ", ".join(str(g[i][j] if (i, j) in keep else 0) for j in range(n)) for i in range(n)]
    return f"n = {n};\ngiven = [{' '.join(rows_txt)}|];\n"
for n in (10, 20, 30, 40):
    for pct in (40, 60):
        open(f"{out}/latin-{n}-{pct}.dzn", "w").write(latin(n, pct, 1000 * n + pct))
for n in (20, 50, 100, 150, 200, 300, 400):
    open(f"{out}/queens-{n}.dzn", "w").write(f"n = {n};\n")
def sudoku(k, pct, seed):
    r = random.Random(seed); n = k * k
    g = [[(k * (i % k) + i // k + j) % n + 1 for j in range(n)] for i in range(n)]
    # shuffle bands, rows within bands, stacks, columns within stacks, symbols
    def perm_groups():
        bands = list(range(k)); r.shuffle(bands)
        out = []
        for b in bands:
            rows = list(range(b * k, b * k + k)); r.shuffle(rows); out += rows
        return out
    rows, cols = perm_groups(), perm_groups()
    syms = list(range(1, n + 1)); r.shuffle(syms)
    g = [[syms[g[rows[i]][cols[j]] - 1] for j in range(n)] for i in range(n)]
    cells = [(i, j) for i in range(n) for j in range(n)]
    keep = set(r.sample(cells, round(pct / 100 * n * n)))
    rows_txt = ["|" + ", ".join(str(g[i][j] if (i, j) in keep else 0) for j in range(n)) for i in range(n)]
    return f"k = {k};\ngiven = [{' '.join(rows_txt)}|];\n"
for k, pct in ((3, 40), (4, 45), (5, 50)):
    open(f"{out}/sudoku-{k*k}-{pct}.dzn", "w").write(sudoku(k, pct, 77 * k + pct))
for n in (3, 4, 5, 6, 7):
    open(f"{out}/magic-{n}.dzn", "w").write(f"n = {n};\n")
for m in (8, 9, 10, 11, 12):
    open(f"{out}/golomb-{m}.dzn", "w").write(f"m = {m};\n")
def colour(n, p, seed):
    r = random.Random(seed)
    edges = [(i, j) for i in range(1, n + 1) for j in range(i + 1, n + 1) if r.random() < p]
    txt = " ".join(f"|{a}, {b}" for a, b in edges)
    return f"n = {n};\ne = {len(edges)};\nc = {n // 2};\nedge = [{txt}|];\n"
for n, p in ((30, 0.3), (50, 0.2), (70, 0.1)):
    open(f"{out}/colour-{n}-{int(p * 100)}.dzn", "w").write(colour(n, p, n))
