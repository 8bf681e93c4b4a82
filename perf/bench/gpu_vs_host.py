#!/usr/bin/python3
"""Issue 56's measure: two run.py CSVs of the same instances and the same binary, --space cuda (GPU.csv) and
--space openmp on the host's cores (HOST.csv). Per instance: nodes/s of each and their ratio, whether both ran the
full time (neither finished its search), time to best, final objective and proofs; then the ratio's median and
geometric mean over the instances that ran the full time on both, and better / equal / worse final results
(a proof beats the same objective unproven; any solution beats none).

usage: gpu_vs_host.py GPU.csv HOST.csv [--limit 15]
"""
import argparse, csv, math


def load(p):
    return {r['instance']: r for r in csv.DictReader(open(p))}


def rank(r):
    """A sortable quality for a final result: (answered, proven, objective sign-adjusted)."""
    st = r['status']
    if st in ('UNSAT',): return (1, 1, 0)
    if st == 'OPTIMAL': done = 1
    else: done = 0
    if r['objective'] in ('', None):
        return (1 if st == 'SATISFIED' else 0, done, 0)
    obj = int(r['objective'])
    return (1, done, -obj if r['kind'] == 'min' else obj)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('gpu'); ap.add_argument('host'); ap.add_argument('--limit', type=float, default=15)
    a = ap.parse_args()
    g, h = load(a.gpu), load(a.host)
    full = []
    better = equal = worse = 0
    pg = ph = 0
    print(f"{'instance':44s} {'gpu n/s':>10s} {'host n/s':>10s} {'ratio':>6s} full  {'gpu result':>18s} {'host result':>18s}")
    for k in sorted(g):
        x, y = g[k], h[k]
        nx, ny = float(x['nodes_per_s'] or 0), float(y['nodes_per_s'] or 0)
        ran_full = x['status'] not in ('OPTIMAL', 'UNSAT') and y['status'] not in ('OPTIMAL', 'UNSAT') and \
            float(x['time_s'] or 0) >= a.limit - 0.5 and float(y['time_s'] or 0) >= a.limit - 0.5
        ratio = nx / ny if ny > 0 else 0
        if ran_full and nx > 0 and ny > 0: full.append(ratio)
        pg += x['status'] in ('OPTIMAL', 'UNSAT'); ph += y['status'] in ('OPTIMAL', 'UNSAT')
        rx, ry = rank(x), rank(y)
        c = (rx > ry) - (rx < ry)  # both proven: equal (the times are printed)
        better += c > 0; worse += c < 0; equal += c == 0
        res = lambda r: f"{r['status'][:4]} {r['objective'] or '-'} {float(r['time_s'] or 0):.1f}s/b{float(r['time_best_s'] or 0):.1f}"
        print(f"{k[:44]:44s} {nx:10.0f} {ny:10.0f} {ratio:6.2f} {'yes ' if ran_full else 'no  '} {res(x):>18s} {res(y):>18s}"
              f"{'  GPU better' if c > 0 else '  host better' if c < 0 else ''}")
    full.sort()
    if full:
        gm = math.exp(sum(math.log(r) for r in full) / len(full))
        med = full[len(full) // 2] if len(full) % 2 else (full[len(full) // 2 - 1] + full[len(full) // 2]) / 2
        print(f"ran the full time on both: {len(full)}; nodes/s ratio median {med:.2f}, geometric mean {gm:.2f}, "
              f"from {full[0]:.2f} to {full[-1]:.2f}")
    print(f"final results: GPU better on {better}, equal {equal}, worse {worse}; proofs GPU {pg}, host {ph}")


if __name__ == '__main__':
    main()
