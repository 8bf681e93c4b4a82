#!/usr/bin/env python3
"""Chuffed rows (the reference CSVs' format) from MiniZinc's WebAssembly build: Chuffed 0.14.0 with its own library,
one thread per run, on instances given as compile.sh lists ("prefix model data" per line, relative to MODELS).

usage: chuffed.py LIST MODELS OUT.csv [--limit-ms 15000] [--search fixed|free|both] [--jobs 1] [--wasm DIR]

Each run is `node mzn-wasm.cjs --solver chuffed --solver-time-limit MS -s [-a when optimising] [-f]` (the solver's
limit, as the reference's `fzn-chuffed -t` counts from the end of parsing); it is killed at limit + 60 s (flattening
and Chuffed's late check of its limit: it looks only after a failure). Columns: instance, kind (min/max/sat), status
(OPTIMAL, UNSAT, SATISFIED, UNKNOWN, ERROR), objective (the last solution's), time_s (Chuffed's solveTime when it
finished the search, else the limit), nodes, search, init_s (Chuffed's initTime: flattening and its set-up, in the
same process), flat_s (MiniZinc's flatTime), wall_s. The rows are written as each run ends (a CSV that came back whole counts; a partial one is re-run).
"""
import argparse, csv, os, re, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor

here = os.path.dirname(os.path.abspath(__file__))


def kind_of(model_path):
    text = open(model_path).read()
    text = re.sub(r'%[^\n]*', '', text)
    m = re.search(r'\bsolve\b(.*?);', text, re.S)
    body = m.group(1) if m else ''
    if re.search(r'\bminimi[sz]e\b', body): return 'min'
    if re.search(r'\bmaximi[sz]e\b', body): return 'max'
    return 'sat'


def run_one(job):
    name, model, data, kind, search, a = job
    cmd = ['node', os.path.join(here, 'mzn-wasm.cjs'), '--solver', 'chuffed', '--solver-time-limit', str(a.limit_ms),
           '-s', '--output-objective']
    if kind != 'sat': cmd.append('-a')
    if search == 'free': cmd.append('-f')
    cmd += [model] + ([data] if data else [])
    env = dict(os.environ, KCP_MZN_WASM=a.wasm)
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=a.limit_ms / 1000 + 60, env=env)
        out, err, killed = p.stdout, p.stderr, False
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or '')
        err, killed = '', True
    wall = time.time() - t0
    stats = {}
    for line in out.splitlines():
        m = re.match(r'%%%mzn-stat: (\w+)=(.*)', line)
        if m: stats[m.group(1)] = m.group(2)
    # The objective: Chuffed's closing statistic, else the last one a solution printed (--output-objective, or the
    # model's own `objective = N`).
    objs = re.findall(r'^_?objective = (-?\d+);?$', out, re.M)
    if stats.get('objective', '').lstrip('-').isdigit(): objs.append(stats['objective'])
    solutions = out.count('----------')
    if '=====UNSATISFIABLE=====' in out: status = 'UNSAT'
    elif '==========' in out and solutions: status = 'OPTIMAL' if kind != 'sat' else 'SATISFIED'
    elif solutions: status = 'SATISFIED'
    elif '=====ERROR=====' in out or (not killed and p.returncode != 0 and not solutions): status = 'ERROR'
    else: status = 'UNKNOWN'
    complete = status in ('OPTIMAL', 'UNSAT') or (kind == 'sat' and '==========' in out)
    # Chuffed's search time (solveTime: from the end of its set-up, as the reference's fzn-chuffed -t counts) when it
    # finished, else the limit.
    t = float(stats.get('solveTime', 0) or 0)
    time_s = t if complete and t > 0 else a.limit_ms / 1000
    row = dict(instance=name, kind=kind, status=status, objective=objs[-1] if objs else '',
               time_s=f'{time_s:.3f}', nodes=stats.get('nodes', ''), search=search,
               init_s=stats.get('initTime', ''), flat_s=stats.get('flatTime', ''), wall_s=f'{wall:.2f}')
    if status == 'ERROR': sys.stderr.write(f'{name} {search}: {err[-400:]}\n')
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('list'); ap.add_argument('models'); ap.add_argument('out')
    ap.add_argument('--limit-ms', type=int, default=15000)
    ap.add_argument('--search', default='both', choices=['fixed', 'free', 'both'])
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('--wasm', default=os.path.join(here, '.wasm'))
    a = ap.parse_args()
    jobs = []
    for line in open(a.list):
        parts = line.split()
        if not parts or parts[0].startswith('#'): continue
        prefix, model = parts[0], parts[1]
        data = parts[2] if len(parts) > 2 else ''
        base = os.path.basename(data or model).rsplit('.', 1)[0]
        name = f'{prefix}_{base}'
        mp = os.path.join(a.models, model)
        dp = os.path.join(a.models, data) if data else ''
        for s in (['fixed', 'free'] if a.search == 'both' else [a.search]):
            jobs.append((name, mp, dp, kind_of(mp), s, a))
    fields = ['instance', 'kind', 'status', 'objective', 'time_s', 'nodes', 'search', 'init_s', 'flat_s', 'wall_s']
    with open(a.out, 'w', newline='') as f, ThreadPoolExecutor(a.jobs) as ex:
        w = csv.DictWriter(f, fields); w.writeheader(); f.flush()
        for row in ex.map(run_one, jobs):
            w.writerow(row); f.flush()
            print(f"{row['instance']:30s} {row['search']:5s} {row['status']:9s} {row['objective']:>6s} {row['time_s']:>7s}",
                  flush=True)


if __name__ == '__main__':
    main()
