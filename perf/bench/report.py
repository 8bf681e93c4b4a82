#!/usr/bin/python3
"""Turn benchmark CSVs (run.py) into a Markdown report and pie charts.

usage: report.py --out REPORT.md RUN.csv [RUN.csv ...] [--names A B ...] [--gecode G.csv] [--turbo T.csv]

Per configuration (one CSV each): the metrics table of Turbo's development notes (average and median
nodes/s, fixpoint iterations/s and per node, problems with idle teams at timeout, store and propagator
memory, optimal/satisfied/unknown counts, store in team scratch level 0), with the deltas of every
configuration against the first; a per-instance table beside Gecode's and Turbo's reference rows; and
a "which is better" pie chart per pair (first configuration against each other one and against the
references), saved as PNG next to the report.
"""
import argparse, csv, os, statistics, sys


def load(path):
    with open(path, newline='') as f:
        return {r['instance']: r for r in csv.DictReader(f)}


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def metrics(rows):
    rs = list(rows.values())
    nps = [num(r.get('nodes_per_s')) for r in rs if num(r.get('nodes_per_s')) is not None]
    fps = [num(r['fixpoint_iterations']) / num(r['solve_s']) for r in rs
           if num(r.get('fixpoint_iterations')) is not None and num(r.get('solve_s'))]
    fpn = [num(r.get('fp_iter_per_node')) for r in rs if num(r.get('fp_iter_per_node')) is not None]
    sb = [num(r.get('store_bytes')) for r in rs if num(r.get('store_bytes')) is not None]
    pb = [num(r.get('propagator_bytes')) for r in rs if num(r.get('propagator_bytes')) is not None]
    st = [r.get('status') for r in rs]
    # Time to a proof (optimum, unsatisfiability, all solutions) beside nodes/s: a search that needs
    # fewer nodes for the same proof has lower nodes/s and is better.
    proof = [num(r.get('time_s')) for r in rs if r.get('status') in ('OPTIMAL', 'UNSAT', 'ALL') and num(r.get('time_s')) is not None]
    avg = lambda xs: sum(xs) / len(xs) if xs else None
    med = lambda xs: statistics.median(xs) if xs else None
    return [
        ('Nodes per second', avg(nps), med(nps), 'n'),
        ('Fixpoint iterations per second', avg(fps), med(fps), 'n'),
        ('Fixpoint iterations per node', avg(fpn), med(fpn), 'n'),
        ('Seconds to a proof (proven problems)', avg(proof), med(proof), 'n'),
        ('#Problems with idle teams at timeout',
         sum(1 for r in rs if (num(r.get('idle_teams')) or 0) > 0 and r.get('timed_out') == '1'),
         None, 'c'),
        ('Propagators memory', avg(pb), med(pb), 'b'),
        ('Variables store memory', avg(sb), med(sb), 'b'),
        ('#Problems at optimality', st.count('OPTIMAL'), None, 'c'),
        ('#Problems satisfiable (not proven)', st.count('SATISFIED'), None, 'c'),
        ('#Problems unsatisfiable', st.count('UNSAT'), None, 'c'),
        ('#Problems unknown', st.count('UNKNOWN'), None, 'c'),
        ('#Problems with an error', st.count('ERROR'), None, 'c'),
        ('#Problems with the store in scratch level 0', sum(1 for r in rs if r.get('scratch_level') == '0'), None, 'c'),
    ]


def fmt(v, unit):
    if v is None:
        return ''
    if unit == 'b':
        for u, d in (('MB', 1 << 20), ('KB', 1 << 10)):
            if v >= d:
                return f'{v / d:.2f}{u}'
        return f'{v:.0f}B'
    if unit == 'c':
        return f'{int(v)}'
    return f'{v:,.2f}'


def delta(a, b):
    if a is None or b is None or not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        return ''
    if b == 0:
        return '' if a == 0 else 'new'
    return f'{(a - b) / b * 100:+.0f}%'


def rank(row, kind):
    """Orders outcomes, smaller is better: an answer beats none; then the objective (after the sense);
    then a proven optimum beats an unproven one."""
    st = row.get('status', 'UNKNOWN') if row else 'UNKNOWN'
    obj = num(row.get('objective')) if row else None
    if st == 'UNSAT' or (kind == 'sat' and st in ('OPTIMAL', 'SATISFIED', 'ALL')):
        return (0, 0, 0)
    if kind == 'sat' or obj is None:
        return (1, 0, 0)
    sense = 1 if kind == 'min' else -1
    return (0, sense * obj, 0 if st == 'OPTIMAL' else 1)


def compare(a, b, kinds):
    better = worse = equal = 0
    for inst, kind in kinds.items():
        ra, rb = rank(a.get(inst), kind), rank(b.get(inst), kind)
        if ra < rb:
            better += 1
        elif ra > rb:
            worse += 1
        else:
            equal += 1
    return better, worse, equal


def pie(path, title, counts, labels):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(4, 4))
    data = [(c, l) for c, l in zip(counts, labels) if c]
    ax.pie([c for c, _ in data], labels=[f'{l} ({c})' for c, l in data], autopct='%1.0f%%',
           colors=['#4caf50', '#f44336', '#9e9e9e'][:len(data)])
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('runs', nargs='+')
    ap.add_argument('--names', nargs='*')
    ap.add_argument('--out', required=True)
    ap.add_argument('--gecode')
    ap.add_argument('--turbo')
    ap.add_argument('--title', default='kcp benchmark report')
    args = ap.parse_args()
    names = args.names or [os.path.splitext(os.path.basename(p))[0] for p in args.runs]
    runs = [load(p) for p in args.runs]
    refs = []
    if args.gecode:
        refs.append(('Gecode 60 s', load(args.gecode)))
    if args.turbo:
        refs.append(('Turbo H100 15 s', load(args.turbo)))
    kinds = {}
    for rows in runs:
        for inst, r in rows.items():
            kinds.setdefault(inst, r.get('kind', 'sat'))
    for _, rows in refs:
        for inst, r in rows.items():
            if inst in kinds and r.get('kind'):
                kinds[inst] = r['kind']

    out_dir = os.path.dirname(os.path.abspath(args.out))
    os.makedirs(out_dir, exist_ok=True)
    base = os.path.splitext(os.path.basename(args.out))[0]
    md = [f'# {args.title}', '', 'Runs: ' + ', '.join(f'`{n}` ({os.path.basename(p)})' for n, p in zip(names, args.runs)), '']
    ms = [metrics(r) for r in runs]
    head = '| Metrics | ' + ' | '.join(f'{n} average | {n} median' + (f' | Δ {names[0]}' if i else '')
                                        for i, n in enumerate(names)) + ' |'
    md += [head, '|' + '---|' * (1 + sum(2 + (1 if i else 0) for i in range(len(names))))]
    for k, (label, *_rest) in enumerate(ms[0]):
        cells = []
        for i, m in enumerate(ms):
            _, a, b, unit = m[k]
            cells += [fmt(a, unit), fmt(b, unit)]
            if i:
                cells.append(delta(a, ms[0][k][1]))
        md.append(f'| {label} | ' + ' | '.join(cells) + ' |')
    md.append('')

    # Per instance.
    cols = names + [n for n, _ in refs]
    allrows = runs + [r for _, r in refs]
    md += ['## Per instance', '', '| instance | kind | ' + ' | '.join(f'{c} status | {c} objective | {c} nodes/s' for c in cols) + ' |',
           '|' + '---|' * (2 + 3 * len(cols))]
    for inst in sorted(kinds):
        cells = []
        for rows in allrows:
            r = rows.get(inst, {})
            cells += [r.get('status', ''), r.get('objective', ''), r.get('nodes_per_s', '') or r.get('nodes_per_s', '')]
        md.append(f'| {inst} | {kinds[inst]} | ' + ' | '.join(cells) + ' |')
    md.append('')

    # Which is better.
    md += ['## Which is better', '', '| first | second | first better | second better | equal |', '|---|---|---|---|---|']
    pairs = [(names[0], runs[0], n, r) for n, r in zip(names[1:], runs[1:])] + [(names[0], runs[0], n, r) for n, r in refs]
    for i, (na, a, nb, b) in enumerate(pairs):
        bt, wo, eq = compare(a, b, kinds)
        md.append(f'| {na} | {nb} | {bt} | {wo} | {eq} |')
        png = f'{base}-pie-{i}.png'
        pie(os.path.join(out_dir, png), f'{na} vs {nb}', [bt, wo, eq], [f'{na} better', f'{nb} better', 'equal'])
        md.append(f'| ![{na} vs {nb}]({png}) | | | | |')
    md.append('')
    with open(args.out, 'w') as f:
        f.write('\n'.join(md) + '\n')
    print(args.out, file=sys.stderr)


if __name__ == '__main__':
    main()
