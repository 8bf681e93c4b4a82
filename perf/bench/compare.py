#!/usr/bin/python3
"""Compare benchmark CSVs (run.py) by final objective and proofs, against each other and the reference rows.

usage: compare.py RUN.csv [RUN.csv ...] [--names A B ...] [--out TABLE.md] [--reference DIR]

For each run: optima proven, solutions, unknowns; then better / equal / worse final objective than every
other run given and than the references in ../shared/benchmarks/reference/ (Turbo H100 15 s, Gecode 60 s,
Chuffed 15 s fixed and free search, on the standard library and on Chuffed's own where present). A run that proves an optimum counts as better than one that finds
the same objective without proof; no solution is worse than any; on a satisfaction instance an answer (a
solution, or unsatisfiability proven) beats none. Then one line per instance.
"""
import argparse, csv, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(os.path.dirname(os.path.dirname(HERE)), '..', 'shared', 'benchmarks', 'reference')


def load_run(path):
    with open(path, newline='') as f:
        return {r['instance']: (r['status'], r.get('objective', ''), r.get('kind', '')) for r in csv.DictReader(f)}


def load_refs(ref_dir=REF):
    refs = {}
    REF = ref_dir
    p = os.path.join(REF, 'turbo-h100-15s.csv')
    if os.path.exists(p):
        refs['Turbo'] = {r['instance']: (r['status'], r['objective'], '') for r in csv.DictReader(open(p))}
    p = os.path.join(REF, 'gecode-60s.csv')
    if os.path.exists(p):
        refs['Gecode 60s'] = {r['instance']: (r['status'], r['objective'], r['kind']) for r in csv.DictReader(open(p))}
    for label, name in (('Chuffed', 'chuffed-15s.csv'), ('Chuffed-lib', 'chuffed-lib-15s.csv')):
        p = os.path.join(REF, name)
        if os.path.exists(p):
            for search in ('fixed', 'free'):
                refs[f'{label} {search}'] = {r['instance']: (r['status'], r['objective'], r['kind'])
                                             for r in csv.DictReader(open(p)) if r['search'] == search}
    return refs


def score(row, kind):
    """A key to maximise: (has a solution, objective in the better direction, proven)."""
    if row is None:
        return (0, 0, 0)
    status, obj, _ = row
    if kind == 'sat':  # satisfaction: answered (a solution, or unsatisfiability proven) or not
        return (1 if status in ('SATISFIED', 'OPTIMAL', 'UNSAT') else 0, 0, 0)
    if obj in ('', None):
        return (0, 0, 1 if status in ('OPTIMAL', 'UNSAT') else 0)
    v = float(obj)
    return (1, -v if kind == 'min' else v, 1 if status == 'OPTIMAL' else 0)


def kinds(runs):
    k = {}
    for run in runs:
        for inst, (_, _, kind) in run.items():
            if kind in ('min', 'max', 'sat'):
                k[inst] = kind
    return k


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('runs', nargs='+')
    ap.add_argument('--names', nargs='*')
    ap.add_argument('--out', default='')
    ap.add_argument('--reference', default=REF, help='the folder of reference CSVs (default: the dev set\'s; the '
                    'breadth set\'s is ../shared/benchmarks/breadth/reference)')
    args = ap.parse_args()
    names = args.names or [os.path.basename(p)[:-4] for p in args.runs]
    runs = [load_run(p) for p in args.runs]
    refs = load_refs(args.reference)
    kind = kinds(runs + list(refs.values()))
    instances = sorted(set().union(*[set(r) for r in runs]))
    lines = []
    lines.append('| run | optimal | satisfied | unknown | ' + ' | '.join(f'vs {n} (b/=/w)' for n in names[1:] + list(refs)) + ' |')
    lines.append('|---' * (4 + len(names) - 1 + len(refs)) + '|')
    for i, (name, run) in enumerate(zip(names, runs)):
        st = [run[x][0] for x in instances if x in run]
        cells = [name, str(st.count('OPTIMAL') + st.count('UNSAT')), str(st.count('SATISFIED')),
                 str(sum(1 for s in st if s not in ('OPTIMAL', 'UNSAT', 'SATISFIED')))]
        others = [r for j, r in enumerate(runs) if j != 0] + list(refs.values())
        if i != 0:
            others = [None] * (len(names) - 1) + list(refs.values())
        for other in others:
            if other is None:
                cells.append('')
                continue
            b = e = w = 0
            for x in instances:
                if x not in run or x not in other:
                    continue
                a, c = score(run[x], kind.get(x)), score(other[x], kind.get(x))
                b, e, w = b + (a > c), e + (a == c), w + (a < c)
            cells.append(f'{b}/{e}/{w}')
        lines.append('| ' + ' | '.join(cells) + ' |')
    lines.append('')
    lines.append('| instance | kind | ' + ' | '.join(names + list(refs)) + ' |')
    lines.append('|---' * (2 + len(names) + len(refs)) + '|')
    # A solution without an objective (satisfaction) shows as sat; no solution as -.
    show = lambda r: '' if r is None else ((r[1] or ('sat' if r[0] == 'SATISFIED' else '-')) +
                                           ('*' if r[0] in ('OPTIMAL', 'UNSAT') else ''))
    for x in instances:
        lines.append(f'| {x} | {kind.get(x, "")} | ' + ' | '.join([show(r.get(x)) for r in runs] +
                                                                  [show(r.get(x)) for r in refs.values()]) + ' |')
    lines.append('')
    lines.append('`*`: proven optimal. b/=/w: instances where the row\'s run (the first run against every column; '
                 'the others against the references) ends with a better, equal or worse objective, a proof '
                 'counting above the same objective unproven.')
    text = '\n'.join(lines) + '\n'
    if args.out:
        open(args.out, 'w').write(text)
    sys.stdout.write(text)


if __name__ == '__main__':
    main()
