#!/usr/bin/env python3
"""Differential testing against Gecode: random small FlatZinc models over every supported int/bool
builtin, solved by kcp and by fzn-gecode; the solution sets (satisfaction, -a) or the optima
(optimisation) must agree, and kcp's --check must accept every solution it prints.

usage: diff.py --kcp BIN [--models N] [--seed S] [--gecode fzn-gecode] [--keep DIR] [--log CSV] [-- kcp args]

Exit status 0 when every model agrees; a disagreeing model is written to --keep (default: a temp
folder, printed) with both outputs, so it can be replayed by hand.

A disagreement is arbitrated by kcp's independent checker (`kcp --verify GECODE_OUTPUT MODEL`): when
the solutions of Gecode's that the checker accepts are exactly kcp's (satisfaction), or Gecode's best
solution is one the checker rejects (optimisation), Gecode is wrong, not kcp: the model is counted
under gecode_wrong, kept, and not a failure. (Gecode 6.2's int_mod(x, y, y) and int_mod(x, x, x), the
divisor aliased with the result, print solutions such as 2 mod 2 = 2.)
"""
import argparse, csv, os, random, re, subprocess, sys, tempfile, time

# Builtins and their argument signatures. i: int variable or constant, b: bool variable or constant,
# c: int constant, n: non-negative small constant, ai/ab: arrays of int/bool variables or constants,
# ac: array of int constants, s: constant set.
BUILTINS = {
    'int_eq': 'ii', 'int_ne': 'ii', 'int_le': 'ii', 'int_lt': 'ii',
    'int_eq_reif': 'iib', 'int_ne_reif': 'iib', 'int_le_reif': 'iib', 'int_lt_reif': 'iib',
    'int_eq_imp': 'iib', 'int_ne_imp': 'iib', 'int_le_imp': 'iib', 'int_lt_imp': 'iib',
    'int_lin_eq': 'L', 'int_lin_le': 'L', 'int_lin_ne': 'L',
    'int_lin_eq_reif': 'Lb', 'int_lin_le_reif': 'Lb', 'int_lin_ne_reif': 'Lb',
    'int_lin_eq_imp': 'Lb', 'int_lin_le_imp': 'Lb', 'int_lin_ne_imp': 'Lb',
    'int_plus': 'iii', 'int_minus': 'iii', 'int_times': 'iii', 'int_div': 'iii', 'int_mod': 'iii',
    'int_min': 'iii', 'int_max': 'iii', 'int_abs': 'ii', 'int_pow': 'ipi',
    'array_int_element': 'xAi', 'array_var_int_element': 'xVi', 'array_bool_element': 'xBb',
    'array_var_bool_element': 'xWb', 'array_int_minimum': 'iV', 'array_int_maximum': 'iV',
    'set_in': 'is', 'set_in_reif': 'isb', 'set_in_imp': 'isb',
    'bool_eq': 'bb', 'bool_ne': 'bb', 'bool_le': 'bb', 'bool_lt': 'bb', 'bool_not': 'bb',
    'bool_eq_reif': 'bbb', 'bool_ne_reif': 'bbb', 'bool_le_reif': 'bbb', 'bool_lt_reif': 'bbb',
    'bool_eq_imp': 'bbb', 'bool_ne_imp': 'bbb', 'bool_le_imp': 'bbb', 'bool_lt_imp': 'bbb',
    'bool_and': 'bbb', 'bool_or': 'bbb', 'bool_xor': 'bbb', 'bool_and_imp': 'bbb', 'bool_or_imp': 'bbb',
    'bool_xor_imp': 'bbb', 'bool_clause': 'WW', 'bool_clause_reif': 'WWb', 'bool2int': 'bi',
    'bool_lin_eq': 'Mc', 'bool_lin_le': 'Mc', 'array_bool_and': 'Wb', 'array_bool_or': 'Wb',
    'array_bool_xor': 'W', 'array_bool_and_imp': 'Wb', 'array_bool_or_imp': 'Wb',
}


class Model:
    def __init__(self, rng, builtins):
        self.rng = rng
        self.ints = [f'x{i}' for i in range(rng.randint(2, 4))]
        self.bools = [f'b{i}' for i in range(rng.randint(1, 3))]
        self.lines = []
        for x in self.ints:
            lo = rng.randint(-3, 2)
            self.lines.append(f'var {lo}..{rng.randint(lo, 3)}: {x} :: output_var;')
        for b in self.bools:
            self.lines.append(f'var bool: {b} :: output_var;')
        self.constraints = []
        self.nonneg = set()
        for _ in range(rng.randint(1, 3)):
            name = rng.choice(builtins)
            self.constraints.append(f'constraint {name}({self.args(BUILTINS[name])});')

    def i(self):
        return self.rng.choice(self.ints) if self.rng.random() < 0.8 else str(self.rng.randint(-3, 3))

    def b(self):
        return self.rng.choice(self.bools) if self.rng.random() < 0.85 else self.rng.choice(['true', 'false'])

    def args(self, sig):
        r, out = self.rng, []
        n = r.randint(1, 3)
        for t in sig:
            if t == 'i': out.append(self.i())
            elif t == 'b': out.append(self.b())
            elif t == 'c': out.append(str(r.randint(-3, 3)))
            elif t == 'p':
                # An exponent: MiniZinc and Gecode disagree on negative ones, so they are ruled out.
                e = r.choice(self.ints + ['0', '1', '2'])
                if e in self.ints:
                    self.nonneg.add(e)
                out.append(e)
            elif t == 'x': out.append(self.i())  # an index
            elif t == 's':
                vals = sorted(set(r.randint(-3, 3) for _ in range(r.randint(1, 4))))
                out.append('{' + ','.join(map(str, vals)) + '}')
            elif t == 'A': out.append('[' + ','.join(str(r.randint(-3, 3)) for _ in range(n)) + ']')
            elif t == 'B': out.append('[' + ','.join(r.choice(['true', 'false']) for _ in range(n)) + ']')
            elif t == 'V': out.append('[' + ','.join(self.i() for _ in range(n)) + ']')
            elif t == 'W': out.append('[' + ','.join(self.b() for _ in range(r.randint(0, 3))) + ']')
            elif t == 'L':
                out.append('[' + ','.join(str(r.choice([-2, -1, 1, 2, 3])) for _ in range(n)) + ']')
                out.append('[' + ','.join(self.i() for _ in range(n)) + ']')
                out.append(str(r.randint(-4, 4)))
            elif t == 'M':
                out.append('[' + ','.join(str(r.choice([-1, 1, 2])) for _ in range(n)) + ']')
                out.append('[' + ','.join(self.b() for _ in range(n)) + ']')
        return ','.join(out)

    def text(self, objective):
        solve = 'solve satisfy;'
        if objective:
            solve = f'solve {self.rng.choice(["minimize", "maximize"])} {self.rng.choice(self.ints)};'
        bounds = [f'constraint int_le(0,{x});' for x in sorted(self.nonneg)]
        return '\n'.join(self.lines + self.constraints + bounds + [solve]) + '\n'


def solution_list(out):
    sols, cur = [], []
    for line in out.splitlines():
        if line.startswith('----------'):
            sols.append(tuple(sorted(cur)))
            cur = []
        elif re.match(r'^\w+ = ', line):
            cur.append(line.strip())
    return sols


def solutions(out):
    return set(solution_list(out))


def rejected_by_checker(kcp, model_path, output, tmp):
    """Indices (from 1) of the solutions in a solver's output that kcp's checker rejects, or None when
    kcp --verify cannot read them."""
    path = os.path.join(tmp, 'other-output.txt')
    open(path, 'w').write(output)
    p = subprocess.run([kcp, '--verify', path, model_path], capture_output=True, text=True, timeout=60)
    if p.returncode not in (0, 3):
        return None
    return {int(m) for m in re.findall(r'^solution (\d+): rejected', p.stdout, re.M)}


def status(out):
    if '=====UNSATISFIABLE=====' in out: return 'UNSAT'
    if '==========' in out: return 'COMPLETE'
    if '----------' in out: return 'SAT'
    return 'UNKNOWN'


def last_value(out, var):
    vals = re.findall(rf'^{var} = (-?\d+);', out, re.M)
    return vals[-1] if vals else None


def keep_files(keep, seed, k, text, kp, gp):
    base = os.path.join(keep, f'seed{seed}-model{k}')
    open(base + '.fzn', 'w').write(text)
    open(base + '.kcp.txt', 'w').write(kp.stdout + kp.stderr)
    open(base + '.gecode.txt', 'w').write(gp.stdout + gp.stderr)
    return base + '.fzn'


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--kcp', required=True)
    ap.add_argument('--gecode', default='fzn-gecode')
    ap.add_argument('--models', type=int, default=200)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--keep', default='')
    ap.add_argument('--log', default='', help='append one CSV row with the totals')
    ap.add_argument('--only', nargs='*', default=[], help='builtins to draw from (default: all)')
    ap.add_argument('extra', nargs=argparse.REMAINDER)
    args = ap.parse_args()
    extra = [a for a in args.extra if a != '--']
    builtins = args.only or sorted(BUILTINS)
    rng = random.Random(args.seed)
    keep = args.keep or tempfile.mkdtemp(prefix='kcp-diff-')
    os.makedirs(keep, exist_ok=True)
    bad, gecode_wrong, start = 0, 0, time.time()
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.models):
            optimise = rng.random() < 0.3
            m = Model(rng, builtins)
            text = m.text(optimise)
            path = os.path.join(tmp, f'm{k}.fzn')
            open(path, 'w').write(text)
            ka = ['-a'] if not optimise else []
            kp = subprocess.run([args.kcp, '--check'] + ka + extra + [path], capture_output=True, text=True, timeout=60)
            gp = subprocess.run([args.gecode] + ka + [path], capture_output=True, text=True, timeout=60)
            problem = None
            if kp.returncode != 0:
                problem = f'kcp exited {kp.returncode}: {kp.stderr.strip()[-300:]}'
            elif gp.returncode != 0:
                problem = None  # Gecode cannot run it (e.g. a builtin it lacks): not kcp's fault
                continue
            elif not optimise:
                ks, gs = solutions(kp.stdout), solutions(gp.stdout)
                if ks != gs or status(kp.stdout) != status(gp.stdout):
                    problem = f'{len(ks)} solutions ({status(kp.stdout)}) against Gecode\'s {len(gs)} ({status(gp.stdout)})'
                    rejected = rejected_by_checker(args.kcp, path, gp.stdout, tmp)
                    if rejected:
                        accepted = {s for i, s in enumerate(solution_list(gp.stdout), 1) if i not in rejected}
                        if accepted == ks and status(kp.stdout) in ('COMPLETE', 'UNSAT'):
                            gecode_wrong += 1
                            problem = None
                            kept = keep_files(keep, args.seed, k, text, kp, gp)
                            print(f'GECODE WRONG model {k}: the checker rejects {len(rejected)} of its solutions; '
                                  f'kcp\'s {len(ks)} are the rest ({kept})', file=sys.stderr)
            else:
                var = re.search(r'solve (?:minimize|maximize) (\w+);', text).group(1)
                kv, gv = last_value(kp.stdout, var), last_value(gp.stdout, var)
                if status(kp.stdout) != status(gp.stdout) or kv != gv:
                    problem = f'objective {kv} ({status(kp.stdout)}) against Gecode\'s {gv} ({status(gp.stdout)})'
                    rejected = rejected_by_checker(args.kcp, path, gp.stdout, tmp)
                    if rejected and max(rejected) == len(solution_list(gp.stdout)):
                        gecode_wrong += 1
                        problem = None
                        kept = keep_files(keep, args.seed, k, text, kp, gp)
                        print(f'GECODE WRONG model {k}: the checker rejects its best solution ({kept})', file=sys.stderr)
            if problem:
                bad += 1
                kept = keep_files(keep, args.seed, k, text, kp, gp)
                print(f'DISAGREE model {k}: {problem} ({kept})', file=sys.stderr)
    elapsed = time.time() - start
    print(f'{args.models - bad - gecode_wrong} passed, {bad} failed, {gecode_wrong} where Gecode is wrong')
    if args.log:
        new = not os.path.exists(args.log)
        with open(args.log, 'a', newline='') as f:
            w = csv.writer(f)
            if new:
                w.writerow(['date', 'seed', 'models', 'failed', 'gecode_wrong', 'seconds', 'kcp_args'])
            w.writerow([time.strftime('%Y-%m-%d %H:%M:%S'), args.seed, args.models, bad, gecode_wrong, f'{elapsed:.1f}',
                        ' '.join(extra)])
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
