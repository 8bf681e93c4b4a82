#!/usr/bin/env python3
"""Run kcp over a list of FlatZinc instances and write one CSV row per run.

usage: run.py --kcp BIN --out OUT.csv [--timeout S] [--space S] [--label L] [--machine M]
              [--instances DIR_OR_LIST] [--only NAME ...] [--jobs N [--pin]] [-- extra kcp arguments]

Each instance runs as `kcp -s -i --check -t S*1000 --space SPACE [extra] FILE`; the solutions' arrival
times give the time to the first and to the best solution, the %%%mzn-stat lines the counters, and the
blocks kcp prints after each improving solution (objective, solutionTime) the column trace ("t:obj ...").
Instances are the development set (../shared/benchmarks/instances/*.fzn.gz, unpacked once into a
cache) unless --instances names a folder of .fzn files or a file listing paths. Progress on stderr.
--jobs N runs N instances at once (for one-thread configurations on a many-core host: they share the
memory system, so say so beside the figures); --pin binds job slot i to CPU i (taskset).
"""
import argparse, concurrent.futures, csv, gzip, os, platform, re, resource, shutil, socket, signal, subprocess, sys, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
COLUMNS = ['revision', 'label', 'backend', 'device', 'machine', 'threads', 'teams', 'team_size', 'vector_length',
           'instance', 'kind', 'status', 'objective', 'solutions', 'time_first_s', 'time_best_s', 'time_s',
           'init_s', 'solve_s', 'nodes', 'failures', 'nodes_per_s', 'fixpoint_iterations', 'fp_iter_per_node',
           'peak_depth', 'subproblems', 'subproblems_solved', 'subproblems_skipped', 'idle_teams', 'launches',
           'variables', 'propagators', 'store_bytes', 'propagator_bytes', 'scratch_level', 'max_rss_mb',
           'timed_out', 'exit_code', 'error', 'propagations_per_node', 'restores', 'replayed_decisions',
           'bitset_vars', 'free_teams', 'restarts', 'neighbourhoods', 'improvements_complete', 'improvements_restart',
           'improvements_lns', 'objective_bound', 'host_teams', 'host_nodes', 'improvements_host', 'nogoods_learned',
           'nogood_propagations', 'nogood_failures', 'proved_by_nogood', 'explain_nodes', 'explain_conflicts',
           'explain_learned', 'explain_exported', 'improvements_explain', 'ranks', 'chunks', 'rank_idle_s', 'trace']


def revision():
    try:
        rev = subprocess.run(['git', '-C', REPO, 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(['git', '-C', REPO, 'status', '--porcelain', '--untracked-files=no'],
                               capture_output=True, text=True).stdout.strip()
        return rev + ('+dirty' if dirty else '')
    except OSError:
        return 'unknown'


def instances(spec, cache):
    src = os.path.join(os.path.dirname(REPO), 'shared', 'benchmarks', 'instances')
    if spec and os.path.isdir(spec):
        if not any(f.endswith('.fzn.gz') for f in os.listdir(spec)):
            return sorted(os.path.join(spec, f) for f in os.listdir(spec) if f.endswith('.fzn'))
        src = spec  # a folder of packed instances, like the shared one
    elif spec:
        return [l.strip() for l in open(spec) if l.strip() and not l.startswith('#')]
    if not os.path.isdir(src):
        sys.exit(f'run.py: no instances: {src} does not exist (use --instances)')
    os.makedirs(cache, exist_ok=True)
    out = []
    for gz in sorted(f for f in os.listdir(src) if f.endswith('.fzn.gz')):
        dst = os.path.join(cache, gz[:-3])
        if not os.path.exists(dst) or os.path.getmtime(dst) < os.path.getmtime(os.path.join(src, gz)):
            with gzip.open(os.path.join(src, gz), 'rb') as i, open(dst + '.part', 'wb') as o:
                shutil.copyfileobj(i, o)
            os.replace(dst + '.part', dst)
        out.append(dst)
    return out


def kind_of(path):
    with open(path, 'rb') as f:
        f.seek(max(0, os.path.getsize(path) - 4096))
        tail = f.read().decode(errors='replace')
    m = re.search(r'\b(minimize|maximize)\b', tail)
    return {'minimize': 'min', 'maximize': 'max'}[m.group(1)] if m else 'sat'


def run_one(args, path, cpu=None):
    cmd = (['taskset', '-c', str(cpu)] if cpu is not None else []) + [args.kcp, '-s', '-i', '--check', '-t', str(int(args.timeout * 1000)), '--space', args.space] + args.extra + [path]
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    # kcp honours -t within a second; one that runs on past the limit and the grace is killed, so
    # that a hung run costs one row, not the sweep.
    killed = threading.Event()
    def kill():
        killed.set()
        os.killpg(p.pid, signal.SIGKILL)
    timer = threading.Timer(args.timeout + args.grace, kill)
    timer.start()
    first = best = None
    lines = []
    for line in p.stdout:
        lines.append(line)
        if line.startswith('----------'):
            now = time.monotonic() - t0
            first = first if first is not None else now
            best = now
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    timer.cancel()
    if killed.is_set():
        err += f'\nkilled: still running {args.grace:g} s after the time limit'
    code = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - t0
    out = ''.join(lines)
    stat = dict(re.findall(r'^%%%mzn-stat: (\w+)=(\S+)', out, re.M))
    kind = kind_of(path)
    sols = out.count('----------\n')
    if code != 0:
        result = 'ERROR'
    elif '=====UNSATISFIABLE=====' in out:
        result = 'UNSAT'
    elif '==========' in out:
        result = 'OPTIMAL' if kind != 'sat' else 'SATISFIED'
    elif sols:
        result = 'SATISFIED'
    else:
        result = 'UNKNOWN'
    g = lambda k: stat.get(k, '').strip('"')
    return {
        'instance': os.path.basename(path)[:-4], 'kind': kind, 'status': result, 'objective': g('objective'),
        'solutions': sols, 'time_first_s': f'{first:.3f}' if first is not None else '',
        'time_best_s': f'{best:.3f}' if best is not None else '', 'time_s': f'{wall:.3f}',
        'init_s': g('initTime'), 'solve_s': g('solveTime'), 'nodes': g('nodes'), 'failures': g('failures'),
        'nodes_per_s': g('nodesPerSecond'), 'fixpoint_iterations': g('fixpointIterations'),
        'fp_iter_per_node': g('fixpointIterationsPerNode'), 'peak_depth': g('peakDepth'),
        'propagations_per_node': g('propagationsPerNode'), 'restores': g('restores'),
        'replayed_decisions': g('replayedDecisions'), 'bitset_vars': g('bitsetVariables'),
        'subproblems': g('subproblems'), 'subproblems_solved': g('subproblemsSolved'),
        'subproblems_skipped': g('subproblemsSkipped'), 'idle_teams': g('idleTeams'), 'launches': g('launches'),
        'variables': g('variables'), 'propagators': g('propagators'), 'store_bytes': g('storeBytes'),
        'propagator_bytes': g('propagatorBytes'), 'scratch_level': g('scratchLevel'),
        'teams': g('teams'), 'team_size': g('teamSize'), 'vector_length': g('vectorLength'),
        'timed_out': int(result in ('SATISFIED', 'UNKNOWN') and kind != 'sat' or result == 'UNKNOWN')
        if wall >= 0.95 * args.timeout else 0,
        'backend': g('space') or args.space, 'max_rss_mb': f'{usage.ru_maxrss / 1024:.1f}', 'exit_code': code,
        'error': err.strip().splitlines()[-1][:200] if code != 0 and err.strip() else '',
        'free_teams': g('freeTeams'), 'restarts': g('restarts'), 'neighbourhoods': g('neighbourhoods'),
        'improvements_complete': g('improvementsComplete'), 'improvements_restart': g('improvementsRestart'),
        'improvements_lns': g('improvementsLns'), 'objective_bound': g('objectiveBound'),
        'host_teams': g('hostTeams'), 'host_nodes': g('hostNodes'), 'improvements_host': g('improvementsHost'),
        'nogoods_learned': g('nogoodsLearned'), 'nogood_propagations': g('nogoodPropagations'),
        'nogood_failures': g('nogoodFailures'), 'proved_by_nogood': g('provedByNogood'),
        'explain_nodes': g('explainNodes'), 'explain_conflicts': g('explainConflicts'),
        'explain_learned': g('explainLearned'), 'explain_exported': g('explainExported'),
        'improvements_explain': g('improvementsExplain'),
        'ranks': g('ranks'), 'chunks': g('chunks'), 'rank_idle_s': g('rankIdleTime'),
        # Each improving solution's time and objective (kcp -s -i prints them after each): anytime curves.
        'trace': ' '.join(f'{t}:{v}' for v, t in re.findall(
            r'^%%%mzn-stat: objective=(\S+)\n%%%mzn-stat: solutionTime=(\S+)', out, re.M)),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--kcp', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--timeout', type=float, default=15.0, help='seconds per instance (default 15)')
    ap.add_argument('--grace', type=float, default=20.0,
                    help='seconds past the timeout after which a run is killed and recorded as an error (default 20)')
    ap.add_argument('--space', default='default')
    ap.add_argument('--label', default='', help='configuration name, e.g. "sorting-off"')
    ap.add_argument('--machine', default=socket.gethostname())
    ap.add_argument('--device', default=platform.processor() or platform.machine())
    ap.add_argument('--threads', default=os.environ.get('OMP_NUM_THREADS', str(os.cpu_count())))
    ap.add_argument('--instances', default='')
    ap.add_argument('--cache', default=os.path.join(os.environ.get('XDG_CACHE_HOME', os.path.expanduser('~/.cache')), 'kcp-benchmarks'))
    ap.add_argument('--only', nargs='*', default=[], help='instance names (prefixes) to run')
    ap.add_argument('--revision', default='', help="the binary's revision (default: this checkout's; name it where "
                    "the checkout is a copy whose git metadata may be stale, as on the device machine)")
    ap.add_argument('--jobs', type=int, default=1, help='instances run at once (default 1)')
    ap.add_argument('--pin', action='store_true', help='bind job slot i to CPU i (with --jobs)')
    ap.add_argument('extra', nargs=argparse.REMAINDER, help='-- then extra kcp arguments')
    args = ap.parse_args()
    args.extra = [a for a in args.extra if a != '--']
    files = instances(args.instances, args.cache)
    if args.only:
        files = [f for f in files if any(os.path.basename(f).startswith(o) for o in args.only)]
    rev = args.revision or revision()
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        slots = list(range(max(1, args.jobs)))
        lock = threading.Lock()
        done = [0]

        def job(path):
            with lock:
                cpu = slots.pop()
            try:
                row = run_one(args, path, cpu if args.pin else None)
            finally:
                with lock:
                    slots.append(cpu)
            row.update(revision=rev, label=args.label, device=args.device, machine=args.machine, threads=args.threads)
            with lock:
                w.writerow(row)
                f.flush()
                done[0] += 1
                print(f'[{done[0]}/{len(files)}] {row["instance"]}: {row["status"]} {row["objective"]} '
                      f'{row["time_s"]} s, {row["nodes_per_s"]} nodes/s {row["error"]}', file=sys.stderr)

        with concurrent.futures.ThreadPoolExecutor(max_workers=len(slots)) as pool:
            for fut in [pool.submit(job, path) for path in files]:
                fut.result()


if __name__ == '__main__':
    main()
