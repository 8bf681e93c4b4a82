#!/usr/bin/env python3
"""kcp under mpirun gives the answers of one process.

usage: answers.py KCP [--instances DIR]

On the examples and generated models, with the Serial and OpenMP backends, 2 and 4 ranks (one thread
each, --oversubscribe), dynamic and static chunks, with and without learning, the one-team probe off
(it would answer the small models alone), small slices (many rounds of the protocol):
- satisfaction: the same first solution, byte for byte (rank 0 prints the sequential search's first,
  whichever rank finds it); with -a the same set of solutions;
- optimisation: the same final objective and the same completion marker;
- every rank's statistics are in rank 0's: the ranks, and the subproblems solved or skipped adding up;
- with four complete teams a rank, the end game's pieces travel between ranks in some of these runs;
- with --rank-portfolio 0, the free teams are rank 0's alone.
With --instances (a folder of the development set's FlatZinc, .fzn or .fzn.gz): the proven instances that finish in
seconds give the same proven optimum under 2 ranks as alone (each rank explaining, or rank 0 alone), and the
ranks' explaining searches send each other clauses.
Exit status 0 when all agree.
"""
import argparse, gzip, os, re, shutil, subprocess, sys, tempfile

MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1', OMP_NUM_THREADS='1')
HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, '..', '..', 'examples')
DEV = ['rcpsp_J30_15_5', 'rcpsp_J30_22_6', 'rcpsp_J30_45_3', 'gfd-schedule_n55f2d50m30k3_10124']


def run(kcp, ranks, args, timeout=120):
    cmd = ([kcp] if ranks == 1 else
           ['mpirun', '-n', str(ranks), '--oversubscribe', '--bind-to', 'none', '-x', 'OMP_NUM_THREADS', kcp])
    p = subprocess.run(cmd + args, capture_output=True, text=True, timeout=timeout, env=MPI_ENV)
    if p.returncode != 0:
        raise RuntimeError(f'{" ".join(cmd + args)}: exit {p.returncode}\n{p.stderr[-2000:]}')
    return p.stdout


def solutions(out):
    """The solution blocks, in order, and the final status line."""
    body = [l for l in out.splitlines() if not l.startswith('%')]
    blocks, cur = [], []
    for line in body:
        if line == '----------':
            blocks.append('\n'.join(cur))
            cur = []
        elif not line.startswith('====='):
            cur.append(line)
    status = [l for l in body if l.startswith('=====')]
    return blocks, status


def stats(out):
    return dict(m.groups() for m in re.finditer(r'^%%%mzn-stat: (\w+)=(.*)$', out, re.M))


def objective(out):
    values = re.findall(r'^%%%mzn-stat: objective=(-?\d+)$', out, re.M)
    return values[-1] if values else None


def pigeons(n):  # unsatisfiable: the whole tree
    lines = [f'var 1..{n - 1}: p{i} :: output_var;' for i in range(n)]
    lines += [f'constraint int_ne(p{i}, p{j});' for i in range(n) for j in range(i + 1, n)]
    return '\n'.join(lines + ['solve satisfy;'])


def assignment(n):  # optimisation whose proof takes a tree
    lines = [f'var 1..{n}: p{i} :: output_var;' for i in range(n)]
    lines += [f'constraint int_ne(p{i}, p{j});' for i in range(n) for j in range(i + 1, n)]
    coefs = ','.join(str((i * 7) % 11 + 1) for i in range(n))
    lines += ['var 0..100000: total :: output_var;',
              f'constraint int_lin_eq([{coefs},-1],[{",".join(f"p{i}" for i in range(n))},total],0);',
              'solve maximize total;']
    return '\n'.join(lines)


def late_first(n):
    """Satisfaction whose sequential first solution takes long to find (x0 = 0: the permutation of
    1..n that only the last branches reach), while x0 = 1 has solutions at once: a rank that printed
    what it found first would print x0 = 1."""
    ps = [f'p{i}' for i in range(1, n + 1)]
    lines = ['var 0..1: x0 :: output_var;'] + [f'var 1..{n}: {p} :: output_var;' for p in ps]
    lines += [f'constraint int_ne({ps[i]}, {ps[j]});' for i in range(n) for j in range(i + 1, n)]
    target = sum(i * (n + 1 - i) for i in range(1, n + 1))
    lines += ['var 0..100000: t;', 'var bool: b;', 'var bool: c;',
              f'constraint int_lin_eq([{",".join(str(i) for i in range(1, n + 1))},-1],[{",".join(ps)},t],0);',
              'constraint int_eq_reif(x0,0,b);', f'constraint int_eq_reif(t,{target},c);', 'constraint bool_le(b,c);',
              f'solve :: int_search([x0,{",".join(ps)}], input_order, indomain_min, complete) satisfy;']
    return '\n'.join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('kcp')
    ap.add_argument('--instances', default='')
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix='kcp-mpi-')
    models = [os.path.join(EXAMPLES, f) for f in ('queens.fzn', 'send-more-money.fzn', 'backpack.fzn')]
    for name, text in (('pigeons8.fzn', pigeons(8)), ('assignment8.fzn', assignment(8)), ('late10.fzn', late_first(10))):
        models.append(os.path.join(tmp, name))
        open(models[-1], 'w').write(text + '\n')
    failures = checks = 0

    def check(ok, what):
        nonlocal failures, checks
        checks += 1
        if not ok:
            failures += 1
            print('FAIL', what)

    base = ['--probe-ms', '0', '--slice-nodes', '4', '-s']
    # Four complete teams a rank: they split their subproblems in the end game, and hand pieces to
    # ranks whose part is done (rank 0 passes them on).
    split = ['--teams', '4', '--portfolio', '0']
    pieces_received = 0
    for model in models:
        name = os.path.basename(model)
        for space in ('serial', 'openmp'):
            # Halved paths, and the pieces other ranks ask for from the shallowest teams.
            halves = ['--subproblem-path', 'halves', '--end-game-givers', 'shallow']
            for extra in ([], ['-a'], ['--mpi-work', 'static'], ['--learn', 'none'], split, split + ['-a'], split + halves,
                          ['--rank-portfolio', '0']):
                if '-a' in extra and name == 'late10.fzn':
                    continue  # 10! solutions
                args = base + ['--space', space] + extra + [model]
                alone = run(a.kcp, 1, args)
                optimising = re.search(r'^solve\b.*\b(minimize|maximize)\b', open(model).read(), re.M) is not None
                for ranks in (2, 4):
                    what = f'{name} {" ".join(["--space", space] + extra)} on {ranks} ranks'
                    try:
                        out = run(a.kcp, ranks, args)
                    except Exception as e:  # noqa: BLE001 (a failed run is a failed check)
                        check(False, f'{what}: {e}')
                        continue
                    (sa, ta), (sb, tb) = solutions(alone), solutions(out)
                    st = stats(out)
                    pieces_received += int(st.get('mpiPiecesReceived', '0'))
                    if ta == [] and tb == ['=========='] and not optimising and '-a' not in extra:
                        # Rank 0 holds a solution until no rank may still find an earlier one; the ranks
                        # may exhaust the tree first, and then the marker is true only if no other exists.
                        every, _ = solutions(run(a.kcp, 1, base + ['--space', space, '-a', model]))
                        check(len(every) == len(sb), f'{what}: search complete after {len(sb)} of {len(every)} solutions')
                    else:
                        check(ta == tb, f'{what}: status {tb} against {ta} alone')
                    check(st.get('ranks') == str(ranks), f'{what}: ranks={st.get("ranks")}')
                    if optimising:
                        check(objective(out) == objective(alone), f'{what}: objective {objective(out)} against {objective(alone)}')
                        if '--rank-portfolio' in extra:  # rank 0's free teams alone, as one process's
                            check(st.get('freeTeams') == stats(alone).get('freeTeams'),
                                  f'{what}: {st.get("freeTeams")} free teams, {stats(alone).get("freeTeams")} alone')
                    elif '-a' in extra:
                        check(sorted(sa) == sorted(sb), f'{what}: {len(sb)} solutions against {len(sa)}')
                    else:
                        check(sa == sb, f'{what}: first solution {sb[:1]} against {sa[:1]} alone')
                    # Without a proof by a nogood, a complete search finishes every subproblem somewhere.
                    if tb == ['=========='] or tb == ['=====UNSATISFIABLE=====']:
                        if st.get('provedByNogood') != 'true':
                            done = int(st['subproblemsSolved']) + int(st['subproblemsSkipped'])
                            check(done == int(st['subproblems']),
                                  f'{what}: {done} subproblems solved or skipped of {st["subproblems"]}')

    check(pieces_received > 0, f'ranks received {pieces_received} pieces of other ranks\' subproblems')

    if a.instances:
        received = 0
        for inst in DEV:
            path = os.path.join(a.instances, inst + '.fzn')
            if not os.path.exists(path) and os.path.exists(path + '.gz'):
                with gzip.open(path + '.gz', 'rb') as f, open(os.path.join(tmp, inst + '.fzn'), 'wb') as g:
                    shutil.copyfileobj(f, g)
                path = os.path.join(tmp, inst + '.fzn')
            if not os.path.exists(path):
                check(False, f'{path}: missing')
                continue
            args = ['-s', '-t', '60000', path]
            alone, two = run(a.kcp, 1, args), run(a.kcp, 2, args)
            root = run(a.kcp, 2, ['--mpi-explain', 'root'] + args)
            for what, out in (('alone', alone), ('2 ranks', two), ('2 ranks, --mpi-explain root', root)):
                check(solutions(out)[1] == ['=========='], f'{inst} {what}: not proven ({solutions(out)[1]})')
                check(objective(alone) == objective(out), f'{inst}: optimum {objective(out)} on {what}, {objective(alone)} alone')
            # Every rank explains and shares its clauses by default; with root, no rank sends any.
            received += int(stats(two).get('mpiNogoodsReceived', '-1'))
            check(stats(root).get('mpiNogoodsReceived') == '0', f'{inst}: {stats(root).get("mpiNogoodsReceived")} clauses received with --mpi-explain root')
        check(received > 0, f'the explaining searches of 2 ranks shared {received} clauses on {", ".join(DEV)}')
    print(f'{checks - failures} of {checks} checks passed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
