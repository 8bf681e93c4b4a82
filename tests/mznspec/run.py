#!/usr/bin/env python3
"""MiniZinc's own test suite (libminizinc 2.6.4's tests/) as kcp's conformance suite.

Unpacks the suite and the harness' Python dependency from ../shared/mznspec (or --shared / $KCP_MZNSPEC),
applies its patch (kcp stands in for each test's solvers; Gecode with MiniZinc's standard library,
gecodestd.msc, is the checker), installs kcp from BUILD into a temporary prefix, runs the suites, and
judges them:
  - every failed item must be in the expected-failure list (tests/mznspec/expected-failures.txt, one
    `test id | reason` per line); a failure not listed fails the run, and so does a listed item that now
    passes (the list stays exact);
  - the harness' non-strict check looks only at the last solution, so every all-solutions set, proven
    optimum and UNSAT kcp reports that the spec's expected result does not confirm is also compared
    with the reference answers recorded from the checker solver (tests/mznspec/reference.json, written
    by --record-reference): any difference is a wrong answer and fails the run.
Exit status: 0 judged clean, 1 a failure, 77 skipped (no suite folder: a user's clone still passes).

usage: run.py --build BUILD [--suite kcp-default ...] [--jobs N] [--work DIR] [SPEC PATHS...]
       run.py --build BUILD --record-reference   (runs the gecodestd twins of the suites, writes reference.json)
"""
import argparse
import fnmatch
import glob
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
SKIP = 77
# The suites of the patched suites.yml kcp runs: unit/* (535 items) and the examples under six option
# sets (336 items), all of MiniZinc's suites with kcp in place of their solvers (docs/testing.md).
DEFAULT_SUITES = ['kcp-default', 'kcp-optimize-0', 'kcp-optimize-2', 'kcp-optimize-3', 'kcp-no-half-reifications',
                  'kcp-no-chain-compression', 'kcp-no-mip-domains']


def log(msg):
    print(f'mznspec: {msg}', flush=True)


def unpack(shared, work):
    """The suite, minizinc-python and the checker's solver config under work/ (fresh each run)."""
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(work)
    with tarfile.open(os.path.join(shared, 'libminizinc-2.6.4-tests.tar.gz')) as t:
        t.extractall(work)
    with tarfile.open(os.path.join(shared, 'minizinc-python-0.7.0.tar.gz')) as t:
        t.extractall(work)
    tests = os.path.join(work, 'libminizinc-2.6.4', 'tests')
    mzpy = os.path.join(work, 'minizinc-python-0.7.0')
    with open(os.path.join(mzpy, 'src', 'minizinc', '_version.py'), 'w') as f:
        f.write('version = "0.7.0"\n')
    with open(os.path.join(shared, 'substitute-solver.diff')) as diff:
        subprocess.run(['patch', '-p0', '-s'], cwd=tests, stdin=diff, check=True)
    solvers = os.path.join(work, 'solvers')
    os.makedirs(solvers)
    shutil.copy(os.path.join(shared, 'gecodestd.msc'), solvers)
    return tests, mzpy, solvers


def run_suites(args, tests, mzpy, solvers, prefix, suites, record):
    env = dict(os.environ)
    env['PYTHONPATH'] = os.path.join(mzpy, 'src')
    env['MZN_SOLVER_PATH'] = os.path.join(prefix, 'share', 'minizinc', 'solvers') + ':' + solvers
    env['MZNSPEC_CHECKER'] = 'gecodestd'
    env['MZNSPEC_RECORD'] = record
    junit = record + '.junit.xml'
    cmd = [sys.executable, '-m', 'pytest', '-p', 'no:cacheprovider', '-o', 'addopts=', '--tb=line', '-q',
           f'--junitxml={junit}', '--dist=loadfile', '-n', str(args.jobs), f'--timeout={args.item_timeout}']
    for s in suites:
        cmd += ['--suite', s]
    cmd += args.paths or ['spec']
    log(f'running {" ".join(suites)} ({args.jobs} workers): {" ".join(cmd[2:])}')
    t0 = time.time()
    p = subprocess.run(cmd, cwd=tests, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    log(f'pytest exit {p.returncode} after {time.time() - t0:.0f} s')
    if not os.path.exists(junit):
        print(p.stdout[-5000:])
        raise SystemExit('mznspec: pytest wrote no results (its output is above)')
    return junit, p.stdout


def outcomes(junit):
    """{test id: 'passed' | 'failed' | 'skipped'} from pytest's junit XML (test id: file::name)."""
    res = {}
    for case in ET.parse(junit).getroot().iter('testcase'):
        cls = case.get('classname', '')
        if not cls.endswith('.mzn'):  # a file skipped whole at collection: no item of a suite
            continue
        # classname is the file's path relative to tests/ with dots for slashes.
        key = f'{cls[:-4].replace(".", "/")}.mzn::{case.get("name")}'
        kids = {c.tag for c in case}
        res[key] = 'failed' if kids & {'failure', 'error'} else 'skipped' if 'skipped' in kids else 'passed'
    return res


def records(prefix):
    recs = []
    for path in sorted(glob.glob(prefix + '.*')):
        if path.endswith('.xml'):
            continue
        with open(path) as f:
            recs.extend(json.loads(line) for line in f if line.strip())
    return recs


def answer_key(rec):
    """The item a record answers, without the suite's solver: file (relative to tests/) and test case."""
    rel = rec['file'].split('/tests/', 1)[-1]
    suite, case = rec['name'].split('.', 1)
    return f'{rel}::{suite.split("-", 1)[1]}.{case.rsplit(".", 1)[0]}'


def canonical(sol):
    return json.dumps(sol, sort_keys=True)


def summarise(rec):
    """What a record claims that must agree with the reference: a status and, where it is a proof, the
    objective or the set of solutions."""
    st = rec.get('status')
    out = {'status': st}
    if st == 'OPTIMAL_SOLUTION':
        out['objective'] = rec.get('objective')
    if st == 'ALL_SOLUTIONS' and rec.get('nsol', 0) < 200:
        out['solutions'] = sorted({canonical(s) for s in rec.get('solutions', [])})
    return out


def wrong_answers(recs, reference):
    """kcp's proofs that contradict the reference: (key, what kcp said, what the reference says)."""
    bad = []
    for rec in recs:
        # An answer that matches the spec's own expected result is right whatever the checker solver says
        # (Gecode with MiniZinc's std library orders sets the other way round from set_lt:
        # general/test_set_lt_1 and _2, which kcp answers as the spec expects).
        if rec.get('strict_pass'):
            continue
        mine = summarise(rec)
        ref = reference.get(answer_key(rec))
        if ref is None or mine['status'] not in ('OPTIMAL_SOLUTION', 'ALL_SOLUTIONS', 'UNSATISFIABLE'):
            continue
        st = ref['status']
        if mine['status'] == 'UNSATISFIABLE' and st in ('SATISFIED', 'OPTIMAL_SOLUTION', 'ALL_SOLUTIONS'):
            bad.append((answer_key(rec), 'UNSATISFIABLE', st))
        elif mine['status'] == 'OPTIMAL_SOLUTION' and st == 'OPTIMAL_SOLUTION' and mine['objective'] != ref['objective']:
            bad.append((answer_key(rec), f'optimum {mine["objective"]}', f'optimum {ref["objective"]}'))
        elif (mine['status'] == 'ALL_SOLUTIONS' and st == 'ALL_SOLUTIONS' and 'solutions' in mine
              and 'solutions' in ref and mine['solutions'] != ref['solutions']):
            bad.append((answer_key(rec), f'{len(mine["solutions"])} solutions', f'{len(ref["solutions"])} solutions'))
        elif mine['status'] in ('OPTIMAL_SOLUTION', 'ALL_SOLUTIONS') and st == 'UNSATISFIABLE':
            bad.append((answer_key(rec), mine['status'], 'UNSATISFIABLE'))
    return bad


def read_expected(path):
    expected = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            if '|' not in line:
                raise SystemExit(f'{path}:{n}: expected "test id | reason"')
            key, reason = (x.strip() for x in line.split('|', 1))
            expected[key] = reason
    return expected


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--build', required=True, help='kcp build folder (cmake --install reads it)')
    ap.add_argument('--shared', default=os.environ.get('KCP_MZNSPEC', os.path.join(SOURCE, '..', 'shared', 'mznspec')))
    ap.add_argument('--work', default='', help='where to unpack and run (default: BUILD/mznspec)')
    ap.add_argument('--suite', action='append', default=[], help='suites of spec/suites.yml (default: every kcp one)')
    ap.add_argument('--jobs', type=int, default=1, help='pytest-xdist workers (default 1: every solve has its 20 s '
                    'limit, and timing-sensitive items fail under load)')
    ap.add_argument('--item-timeout', type=int, default=150)
    ap.add_argument('--expected', default=os.path.join(HERE, 'expected-failures.txt'))
    ap.add_argument('--reference', default=os.path.join(HERE, 'reference.json'))
    ap.add_argument('--record-reference', action='store_true',
                    help='run the gecodestd twins of the suites and write --reference from their proofs')
    ap.add_argument('paths', nargs='*', help='spec files or folders to run (default: all of spec/)')
    args = ap.parse_args()
    shared = os.path.abspath(args.shared)
    if not os.path.exists(os.path.join(shared, 'libminizinc-2.6.4-tests.tar.gz')):
        log(f'skipped: no MiniZinc test suite at {shared} (set KCP_MZNSPEC or --shared to run it)')
        return SKIP
    for module in ('pytest', 'xdist', 'pytest_timeout', 'yaml', 'py'):
        try:
            __import__(module)
        except ImportError:
            raise SystemExit(f'mznspec: Python module {module} missing for {sys.executable} '
                             '(scripts/setup-deps.sh installs python3-pytest, -xdist, -timeout, -yaml, -py)')
    for tool in ('minizinc', 'fzn-gecode', 'patch'):
        if shutil.which(tool) is None:
            raise SystemExit(f'mznspec: {tool} not found on PATH (scripts/setup-deps.sh installs it)')
    work = os.path.abspath(args.work or os.path.join(args.build, 'mznspec'))
    tests, mzpy, solvers = unpack(shared, work)
    prefix = os.path.join(work, 'prefix')
    subprocess.run(['cmake', '--install', args.build, '--prefix', prefix], check=True, stdout=subprocess.DEVNULL)
    suites = args.suite or DEFAULT_SUITES
    if args.record_reference:
        twins = ['gecodestd-' + s.split('-', 1)[1] for s in suites]
        junit, _ = run_suites(args, tests, mzpy, solvers, prefix, twins, os.path.join(work, 'ref'))
        ref = {answer_key(r): summarise(r) for r in records(os.path.join(work, 'ref'))}
        ref = {k: v for k, v in ref.items() if v['status'] in ('OPTIMAL_SOLUTION', 'ALL_SOLUTIONS', 'UNSATISFIABLE')}
        old = {}
        if os.path.exists(args.reference):
            with open(args.reference) as f:
                old = json.load(f)
        old.update(ref)
        with open(args.reference, 'w') as f:
            json.dump(old, f, indent=0, sort_keys=True)
            f.write('\n')
        log(f'{len(ref)} proofs of the checker solver written to {args.reference}')
        return 0

    junit, text = run_suites(args, tests, mzpy, solvers, prefix, suites, os.path.join(work, 'kcp'))
    res = outcomes(junit)
    expected = read_expected(args.expected)
    with open(args.reference) as f:
        reference = json.load(f)
    ran = {k for k in res if any(f'::{s}.' in k for s in suites)}
    failed = sorted(k for k in ran if res[k] == 'failed')
    passed = sorted(k for k in ran if res[k] == 'passed')
    def listed(k):  # an entry is a test id or an fnmatch pattern over them
        return next((e for e in expected if e == k or fnmatch.fnmatchcase(k, e)), None)
    unexpected = [k for k in failed if listed(k) is None]
    now_pass = [k for k in passed if listed(k) is not None]
    wrong = wrong_answers([r for r in records(os.path.join(work, 'kcp')) if r.get('suite') in suites], reference)
    log(f'{len(passed)} passed, {len(failed)} failed ({len(failed) - len(unexpected)} expected), '
        f'{sum(1 for k in ran if res[k] == "skipped")} skipped, of {len(ran)} items')
    for k in unexpected:
        log(f'UNEXPECTED FAILURE {k}')
    for k in now_pass:
        log(f'NOW PASSES (remove it from {os.path.basename(args.expected)}): {k} | {expected[listed(k)]}')
    for key, mine, theirs in wrong:
        log(f'WRONG ANSWER {key}: kcp {mine}, the checker solver {theirs}')
    if unexpected:
        print(text[-6000:])
    ok = not unexpected and not now_pass and not wrong
    log('all judged as expected' if ok else 'FAILED')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
