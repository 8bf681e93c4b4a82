#!/usr/bin/python3
"""Anytime curves: the objective of each improving solution over time, from run.py CSVs (column trace),
one panel per instance, with Turbo's (H100, 15 s) and Gecode's (60 s) final values as horizontal lines.

usage: anytime.py --out PLOT.png RUN.csv [RUN.csv ...] [--names A B ...] [--instances I ...]
Without --instances: the five optimisation instances of the first run whose last improvement came latest.
"""
import argparse, csv, os

import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(os.path.dirname(os.path.dirname(HERE)), '..', 'shared', 'benchmarks', 'reference')


def load(path):
    with open(path, newline='') as f:
        return {r['instance']: r for r in csv.DictReader(f)}


def trace(row):
    points = []
    for item in (row or {}).get('trace', '').split():
        t, v = item.split(':')
        points.append((float(t), float(v)))
    return points


def reference(name, column='objective'):
    p = os.path.join(REF, name)
    if not os.path.exists(p):
        return {}
    return {r['instance']: r[column] for r in csv.DictReader(open(p)) if r.get(column)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('runs', nargs='+')
    ap.add_argument('--names', nargs='*')
    ap.add_argument('--instances', nargs='*')
    ap.add_argument('--out', required=True)
    ap.add_argument('--limit', type=float, default=15.0)
    args = ap.parse_args()
    names = args.names or [os.path.basename(p)[:-4] for p in args.runs]
    runs = [load(p) for p in args.runs]
    chosen = args.instances
    if not chosen:
        first = runs[0]
        candidates = [r for r in first.values() if r['kind'] in ('min', 'max') and r['status'] == 'SATISFIED' and trace(r)]
        candidates.sort(key=lambda r: -trace(r)[-1][0])
        chosen = [r['instance'] for r in candidates[:5]]
    turbo, gecode = reference('turbo-h100-15s.csv'), reference('gecode-60s.csv')
    fig, axes = plt.subplots(1, len(chosen), figsize=(4.2 * len(chosen), 3.6), squeeze=False)
    for ax, inst in zip(axes[0], chosen):
        for name, run in zip(names, runs):
            pts = trace(run.get(inst))
            if not pts:
                continue
            xs = [p[0] for p in pts] + [args.limit]
            ys = [p[1] for p in pts] + [pts[-1][1]]
            ax.step(xs, ys, where='post', label=name)
        for label, values, style in (('Turbo 15 s', turbo, ':'), ('Gecode 60 s', gecode, '--')):
            if inst in values:
                ax.axhline(float(values[inst]), linestyle=style, color='grey', label=label)
        ax.set_title(inst, fontsize=8)
        ax.set_xlabel('seconds')
        ax.set_xlim(0, args.limit)
    axes[0][0].set_ylabel('objective')
    axes[0][-1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f'{args.out}: {", ".join(chosen)}')


if __name__ == '__main__':
    main()
