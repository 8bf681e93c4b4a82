#!/usr/bin/python3
"""A/B two kcp configurations over instances x seeds, by final objective (the free rows make single
runs noisy: the count over seeds is the evidence).

usage: ab_seeds.py --kcp BIN --a "ARGS" --b "ARGS" [--mode default|free] [--seeds 1 2] [--timeout 15]
                   [--instances DIR] [--only NAME ...] --out OUT.csv      (run)
       ab_seeds.py --report OUT.csv                                       (count again)

Each run is `OMP_NUM_THREADS=2 kcp [-f] -s -t T -r SEED ARGS FILE`; the CSV holds instance, seed, cfg
(a or b), objective, time of the best, nodes. The report counts the (instance, seed) pairs where a
ends better, worse or equal (no solution is worse than any), and lists them.
Session 12 ran it on the 14 instances below, not proven in 15 s on this VM (phase saving, windows).
"""
import argparse, csv, os, re, shlex, subprocess, sys

LONG = ['accap_accap_a40_f800_t180', 'accap_accap_a4_f30_t15', 'diameterc-mst_c_v20_a190_d4',
        'gfd-schedule_n55f2d50m30k3_10124', 'nfc_24_4_2', 'rcpsp_J30_13_9', 'rcpsp_J30_25_3', 'rcpsp_J30_41_10',
        'spot5_404', 'stripboard_common-emitter-simple', 'team-assignment_data3_5_31', 'tower_100_100_20_100-04',
        'traveling-tppv_circ14cnonbal', 'triangular_n39']


def run(args):
    with open(args.out, 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['instance', 'kind', 'seed', 'cfg', 'objective', 'time_best_s', 'nodes'])
        for name in args.only or LONG:
            path = os.path.join(args.instances, name + '.fzn')
            kind = 'sat'
            with open(path) as fz:
                for line in fz:
                    if line.startswith('solve'):
                        kind = 'min' if 'minimize' in line else 'max' if 'maximize' in line else 'sat'
            for seed in args.seeds:
                for cfg, extra in (('a', args.a), ('b', args.b)):
                    cmd = [args.kcp] + (['-f'] if args.mode == 'free' else []) + \
                          ['-s', '-t', str(int(args.timeout * 1000)), '-r', str(seed)] + shlex.split(extra) + [path]
                    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get('OMP_NUM_THREADS', '2'))
                    try:
                        out = subprocess.run(cmd, capture_output=True, text=True, env=env,
                                             timeout=args.timeout + 25).stdout
                    except subprocess.TimeoutExpired:
                        out = ''
                    g = lambda k: (re.findall(rf'^%%%mzn-stat: {k}=(\S+)$', out, re.M) or [''])[-1]
                    w.writerow([name, kind, seed, cfg, g('objective'), g('timeOfBest'), g('nodes')])
                    f.flush()
                    print(name, seed, cfg, g('objective'), file=sys.stderr)


def report(path):
    pairs = {}
    for r in csv.DictReader(open(path)):
        pairs.setdefault((r['instance'], r['kind'], r['seed']), {})[r['cfg']] = r['objective']
    counts = {'a': 0, 'b': 0, '=': 0}
    for (name, kind, seed), c in sorted(pairs.items()):
        a, b = c.get('a', ''), c.get('b', '')
        if not a or not b:
            res = '=' if a == b else 'a' if a else 'b'
        else:
            x, y = int(a), int(b)
            if kind == 'max':
                x, y = -x, -y
            res = 'a' if x < y else 'b' if y < x else '='
        counts[res] += 1
        print(f'{name:40s} {seed:>3} a={a:>8} b={b:>8} {res}')
    print(f"a better: {counts['a']}, b better: {counts['b']}, equal: {counts['=']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--kcp')
    ap.add_argument('--a', default='')
    ap.add_argument('--b', default='')
    ap.add_argument('--mode', choices=['default', 'free'], default='default')
    ap.add_argument('--seeds', type=int, nargs='+', default=[1, 2])
    ap.add_argument('--timeout', type=float, default=15)
    ap.add_argument('--instances', default='/tmp/devlib')
    ap.add_argument('--only', nargs='*')
    ap.add_argument('--out')
    ap.add_argument('--report')
    args = ap.parse_args()
    if args.report:
        report(args.report)
        return
    if not (args.kcp and args.out):
        ap.error('--kcp and --out (or --report)')
    run(args)
    report(args.out)


if __name__ == '__main__':
    main()
