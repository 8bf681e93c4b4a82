#!/usr/bin/env python3
"""Differential testing against Gecode: random small FlatZinc models over every supported int/bool
builtin, solved by kcp and by fzn-gecode; the solution sets (satisfaction, -a) or the optima
(optimisation) must agree, and kcp's --check must accept every solution it prints.

usage: diff.py --kcp BIN [--models N] [--seed S] [--holes | --wide | --globals] [--gecode fzn-gecode] [--keep DIR] [--log CSV]
               [-- kcp args]
       diff.py --emit DIR [--models N] [--seed S] [--holes | --globals] (models + Gecode's outputs, for a machine
               without Gecode)
       diff.py --kcp BIN --replay DIR [--jobs N] [--batch KCP_BATCH] [--start K] [--deadline S] [--log CSV] [-- kcp args]
               (--batch: the models run through tests/differential/kcp_batch, N processes, Kokkos started once
                each: how the CUDA differential runs; --start skips the first K models, --deadline starts
                none after S seconds and logs the models judged)

--holes draws every model from HoleModel (domains with holes, `!=`, search annotations) instead of the
mixed generator over every builtin; the models of a seed without --holes are the same as before it.

--globals draws every model from GlobalModel: kcp's native globals (kcp_all_different_int, kcp_cumulative,
kcp_table_int, kcp_table_bool, declared by `predicate` items as MiniZinc writes them) among a few ordinary
constraints, half the models optimising. fzn-gecode does not know the kcp_ builtins: Gecode solves the
same model with each global decomposed into standard builtins (int_ne pairs; reified time-indexed bools
and bool_lin_le; a reified bool per table row and bool_clause over them), its fresh bools not output,
while kcp, its checker and the arbitration below read kcp's form. --emit writes kcp's form as the model
and Gecode's output of the decomposed form, so --replay needs nothing new; a model kept by --globals has
its decomposed form beside it (.gecode.fzn).

Exit status 0 when every model agrees; a disagreeing model is written to --keep (default: a temp
folder, printed) with both outputs, so it can be replayed by hand.

A disagreement is arbitrated by kcp's independent checker (`kcp --verify GECODE_OUTPUT MODEL`): when
the solutions of Gecode's that the checker accepts are exactly kcp's (satisfaction), or Gecode's best
solution is one the checker rejects (optimisation), Gecode is wrong, not kcp: the model is counted
under gecode_wrong, kept, and not a failure. (Gecode 6.2's int_mod(x, y, y) and int_mod(x, x, x), the
divisor aliased with the result, print solutions such as 2 mod 2 = 2.)
"""
import argparse, concurrent.futures, csv, os, random, re, subprocess, sys, tempfile, threading, time

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
            if rng.random() < 0.15:  # a domain with holes, some three values or wider (compile's exclude_holes)
                vals = sorted(set(rng.randint(-6, 6) for _ in range(rng.randint(2, 4))))
                self.lines.append(f'var {{{",".join(map(str, vals))}}}: {x} :: output_var;')
            else:
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
        ann = getattr(self, 'ann', '')
        solve = f'solve {ann}satisfy;'
        if objective:
            solve = f'solve {ann}{self.rng.choice(["minimize", "maximize"])} {self.rng.choice(self.ints)};'
        bounds = [f'constraint int_le(0,{x});' for x in sorted(self.nonneg)]
        return '\n'.join(self.lines + self.constraints + bounds + [solve]) + '\n'


class HoleModel(Model):
    """--holes: domains with holes and models heavy in `!=`. Three to six int variables, most of them over
    a set spanning 3 to 12 values (`var {1,3,4,7,9}: x`: a bitset in the store), some over a few values
    spanning more than 64 (no bitset: the gap encoding), the rest intervals; constraints that remove
    values from the middle of domains (chains of int_ne, int_ne with a constant, int_lin_ne with one
    free term or with every other term fixed by search, int_eq_reif(.., false) and kin, set_in and its
    reified forms over sets with holes, array_int_element over constant arrays, its index holed),
    constraints that move bounds onto holes (int_le, int_lin_le, int_plus, int_abs ...), and now and then
    any builtin of the mixed generator. Half the models carry a search annotation over every variable
    and value choice (indomain_median/random and outdomain_* included): it changes neither the solution
    set under -a nor an optimum, so the comparison with Gecode holds (Gecode ignores outdomain_*). The
    product of the domain sizes stays within 3,000, so that both solvers finish -a in milliseconds."""

    MAX_PRODUCT = 3000
    BOUNDS = ['int_le', 'int_lt', 'int_lin_le', 'int_plus', 'int_minus', 'int_times', 'int_abs',
              'int_min', 'int_max', 'array_int_minimum', 'array_int_maximum']
    VAR_CHOICES = ['input_order'] * 3 + ['first_fail'] * 3 + ['anti_first_fail', 'smallest', 'largest', 'occurrence',
                                                               'most_constrained', 'max_regret']
    VALUE_CHOICES = ['indomain_min', 'indomain_max', 'indomain_median', 'indomain_random', 'indomain_split',
                     'indomain_reverse_split', 'outdomain_min', 'outdomain_max', 'outdomain_median',
                     'outdomain_random']

    def __init__(self, rng, builtins):
        self.rng, r = rng, rng
        self.ints = [f'x{i}' for i in range(r.randint(3, 6))]
        self.bools = [f'b{i}' for i in range(r.randint(1, 2))]
        self.lines, self.constraints, self.nonneg, self.dom = [], [], set(), {}
        product = 1
        for x in self.ints:
            kind = r.random()
            if kind < 0.65:  # holes, spanning 3 to 12 values
                lo, span = r.randint(-6, 4), r.randint(3, 12)
                vals = sorted(r.sample(range(lo, lo + span), r.randint(2, span - 1)))
            elif kind < 0.75:  # a few values far apart: wider than a bitset
                vals = sorted(r.sample(range(-60, 61), r.randint(2, 4)))
            else:
                lo = r.randint(-4, 3)
                vals = list(range(lo, lo + r.randint(2, 8)))
            while len(vals) > 1 and product * len(vals) > self.MAX_PRODUCT:
                vals.pop(r.randrange(len(vals)))
            product *= len(vals)
            self.dom[x] = vals
            contiguous = vals == list(range(vals[0], vals[-1] + 1))
            if contiguous and r.random() < 0.7:
                self.lines.append(f'var {vals[0]}..{vals[-1]}: {x} :: output_var;')
            else:
                self.lines.append(f'var {{{",".join(map(str, vals))}}}: {x} :: output_var;')
        for b in self.bools:
            self.lines.append(f'var bool: {b} :: output_var;')
        makers = ([self.ne_chain] * 3 + [self.ne_const] * 3 + [self.lin_ne] * 4 + [self.reif] * 3 +
                  [self.set_in] * 2 + [self.element] * 2 + [self.var_element] + [self.bounds] * 2 + [self.general])
        self.builtins = builtins
        for _ in range(r.randint(2, 6)):
            self.constraints += r.choice(makers)()
        self.ann = self.annotation()

    def value(self, x):
        """A value of x's domain, mostly; else one near it (in a hole, or just outside)."""
        r, vals = self.rng, self.dom[x]
        if r.random() < 0.8:
            return r.choice(vals)
        return r.randint(vals[0] - 1, vals[-1] + 1) if vals[-1] - vals[0] < 20 else r.choice(vals) + r.choice([-1, 1])

    def holed_set(self, x):
        """A set over x's span with holes in it."""
        r, vals = self.rng, self.dom[x]
        pool = list(range(vals[0] - 1, vals[-1] + 2)) if vals[-1] - vals[0] < 20 else vals + [v + 1 for v in vals]
        chosen = sorted(r.sample(pool, r.randint((len(pool) + 1) // 2, max(1, len(pool) - 1))))
        return '{' + ','.join(map(str, chosen)) + '}'

    def ne_chain(self):
        r = self.rng
        xs = r.sample(self.ints, r.randint(2, min(4, len(self.ints))))
        pairs = list(zip(xs, xs[1:])) + ([(xs[-1], xs[0])] if len(xs) > 2 and r.random() < 0.3 else [])
        return [f'constraint int_ne({a},{b});' if r.random() < 0.5 else f'constraint int_ne({b},{a});' for a, b in pairs]

    def ne_const(self):
        r = self.rng
        x = r.choice(self.ints)
        out = []
        for _ in range(r.randint(1, 2)):
            c = self.value(x)
            out.append(f'constraint int_ne({x},{c});' if r.random() < 0.8 else f'constraint int_ne({c},{x});')
        return out

    def linear(self, free):
        """(coefficients, terms, rhs) of a linear row: one variable and constants (free=1), or a few
        variables; rhs is reached by values of the domains mostly, so that `!=` bites."""
        r = self.rng
        xs = r.sample(self.ints, min(free, len(self.ints)))
        terms = xs + [str(r.randint(-3, 3)) for _ in range(r.randint(0, 2) if free == 1 else r.randint(0, 1))]
        r.shuffle(terms)
        coefs = [r.choice([-2, -1, 1, 2, 3]) for _ in terms]
        rhs = sum(c * (self.value(t) if t in self.dom else int(t)) for c, t in zip(coefs, terms))
        return f'[{",".join(map(str, coefs))}],[{",".join(terms)}],{rhs}'

    def lin_ne(self):
        return [f'constraint int_lin_ne({self.linear(1 if self.rng.random() < 0.6 else self.rng.randint(2, 3))});']

    def reif(self):
        r = self.rng
        x = r.choice(self.ints)
        y = r.choice([str(self.value(x))] * 2 + [v for v in self.ints if v != x])
        b = r.choice(['false', 'true'] + self.bools)
        form = r.randrange(5)
        if form == 0: return [f'constraint int_eq_reif({x},{y},{"false" if b == "true" else b});']
        if form == 1: return [f'constraint int_ne_reif({x},{y},{"true" if b == "false" else b});']
        if form == 2: return [f'constraint int_ne_imp({x},{y},{b});']
        if form == 3: return [f'constraint int_lin_eq_reif({self.linear(r.randint(1, 2))},{"false" if b == "true" else b});']
        return [f'constraint int_lin_ne_imp({self.linear(r.randint(1, 2))},{b});']

    def set_in(self):
        r = self.rng
        x = r.choice(self.ints)
        name = r.choice(['set_in', 'set_in', 'set_in_reif', 'set_in_imp'])
        b = '' if name == 'set_in' else ',' + r.choice(['true', 'false'] + self.bools * 2)
        return [f'constraint {name}({x},{self.holed_set(x)}{b});']

    def index(self, longest):
        """(an index variable, the array's length): a variable with values in 1..longest where there is
        one, the array as long as some of them."""
        r = self.rng
        ok = [x for x in self.ints if any(1 <= v <= longest for v in self.dom[x])]
        idx = r.choice(ok or self.ints)
        inside = [v for v in self.dom[idx] if 1 <= v <= longest] or [longest]
        return idx, r.randint(max(2, min(inside)), max(2, max(inside)) + r.randint(0, 1))

    def element(self):
        r = self.rng
        (idx, n), y = self.index(12), r.choice(self.ints)
        arr = [self.value(y) for _ in range(n)]
        res = y if r.random() < 0.8 else str(r.choice(arr))
        return [f'constraint array_int_element({idx},[{",".join(map(str, arr))}],{res});']

    def var_element(self):
        r = self.rng
        (idx, n), y = self.index(5), r.choice(self.ints)
        arr = [r.choice(self.ints) if r.random() < 0.6 else str(self.value(y)) for _ in range(n)]
        return [f'constraint array_var_int_element({idx},[{",".join(arr)}],{y});']

    def bounds(self):
        name = self.rng.choice(self.BOUNDS)
        return [f'constraint {name}({self.args(BUILTINS[name])});']

    def general(self):
        name = self.rng.choice(self.builtins)
        return [f'constraint {name}({self.args(BUILTINS[name])});']

    def annotation(self):
        r = self.rng
        if r.random() < 0.5:
            return ''
        xs = r.sample(self.ints, r.randint(1, len(self.ints)) if r.random() < 0.4 else len(self.ints))
        search = (f'int_search([{",".join(xs)}], {r.choice(self.VAR_CHOICES)}, {r.choice(self.VALUE_CHOICES)}, '
                  'complete)')
        if r.random() < 0.25:
            bools = f'bool_search([{",".join(self.bools)}], input_order, {r.choice(["indomain_min", "indomain_max"])}, complete)'
            search = f'seq_search([{", ".join(r.sample([search, bools], 2))}])'
        return ':: ' + search + ' '


class WideModel(HoleModel):
    """--wide: HoleModel's constraints over domains of several bitset words (issue 51): most variables
    take a few values spread over 65 to 2,000 (a multi-word bitset in the store), and two-term rows with
    unit coefficients tie them (x - y = d, x + y = e: the aliases MiniZinc makes, whose holes kcp carries
    across) beside the != and bound constraints."""

    def __init__(self, rng, builtins):
        super().__init__(rng, builtins)
        r = self.rng
        # Redraw the domains wide, keeping the variables' names and the product of the sizes.
        product, lines = 1, []
        for x in self.ints:
            lo, span = r.randint(-1000, 1000), r.choice([65, 100, 129, 300, 700, 2000])
            vals = sorted(r.sample(range(lo, lo + span), r.randint(2, 8)))
            if r.random() < 0.3:  # and now and then a whole interval: bounds at first, holes from search
                vals = list(range(lo, lo + r.randint(2, 6))) + [lo + span - 1]
            while len(vals) > 1 and product * len(vals) > self.MAX_PRODUCT:
                vals.pop(r.randrange(len(vals)))
            product *= len(vals)
            self.dom[x] = vals
            lines.append(f'var {{{",".join(map(str, vals))}}}: {x} :: output_var;')
        self.lines = lines + [l for l in self.lines if l.startswith('var bool')]
        makers = [self.ne_chain] * 2 + [self.ne_const] * 2 + [self.lin_ne] * 2 + [self.unit_pair] * 4 + \
            [self.set_in] + [self.bounds]
        self.constraints = []
        for _ in range(r.randint(2, 6)):
            self.constraints += r.choice(makers)()
        self.ann = self.annotation()

    def unit_pair(self):
        r = self.rng
        if len(self.ints) < 2:
            return []
        x, y = r.sample(self.ints, 2)
        b = r.choice([1, -1])
        c = r.choice(self.dom[x]) + b * r.choice(self.dom[y])  # reached by values of the domains
        return [f'constraint int_lin_eq([1,{b}],[{x},{y}],{c});']


class GlobalModel(HoleModel):
    """--globals: kcp's native global constraints, kcp_all_different_int, kcp_cumulative, kcp_table_int and
    kcp_table_bool (what kcp's mznlib emits for all_different, cumulative and disjunctive, table and
    regular), against Gecode on a decomposition of them into standard builtins. Three to six int
    variables over -1..6, a quarter of them with holes, the product of the domain sizes within 3,000;
    one to three globals, each of the four kinds equally likely (a model that draws a table_bool gets two
    bool variables, b0 and b1, output like the ints; the others have none): all_different over 2 to 5
    variables, now and then with a constant or two among them (two equal constants, or a variable listed
    twice, make the model unsatisfiable); cumulative over 1 to 4 tasks, a start a variable (the same
    one for two tasks at times) or now and then a constant, durations 0..3, uses 0..3, capacity 0..4 (the
    uses mostly within the capacity and above 0, so that overlaps, not one task, overflow it); table_int
    over 1 to 3 columns, each an int variable (one may be listed twice) or now and then a constant, and
    0 to 6 rows (none in a twentieth of the tables: unsatisfiable), a row's value for a variable in its
    domain mostly (for a variable's second column, half the time, its first column's value), else in a
    hole or just outside it, so that tables prune rather than fail; table_bool the same over b0, b1 and
    now and then true or false. Then zero to three ordinary constraints (int_ne with a
    value, int_lin_ne and reified equalities of HoleModel, int_le/int_lt/int_ne of two variables or one
    and a value, int_lin_le met by a point of the domains, int_plus). Half the models carry a search
    annotation over the int variables. kcp is given the globals (the model, text()); Gecode the same
    model with each global decomposed (gecode_text()): all_different into int_ne of each pair;
    cumulative into a fresh bool b per task i of positive duration and use and time t it may cover,
    b <-> s_i <= t /\\ s_i >= t - d_i + 1 (int_le_reif twice, array_bool_and), and bool_lin_le(uses,
    bools, capacity) at each time t of [min lb(s_i), max ub(s_i) + d_i) (a capacity below 0 with some
    task using something: unsatisfiable); a table into a fresh bool r_m per row m, r_m <-> x_1 = t_m1
    /\\ ... /\\ x_k = t_mk (int_eq_reif or bool_eq_reif of each column into a fresh bool, array_bool_and),
    and bool_clause([r_1, ..., r_n], []) (no rows: bool_clause([], []), false). The fresh bools carry no
    output_var, so both solvers print the model's variables only and the solution sets compare as they
    are. --only does not apply."""

    MAX_PRODUCT = 3000
    ORDINARY = ['int_le', 'int_lt', 'int_ne', 'int_lin_le', 'int_lin_le', 'int_plus']
    PREDICATES = ['predicate kcp_all_different_int(array [int] of var int: x);',
                  'predicate kcp_cumulative(array [int] of var int: s,array [int] of int: d,array [int] of int: r,'
                  'int: b);',
                  'predicate kcp_table_int(array [int] of var int: x,array [int] of int: t);',
                  'predicate kcp_table_bool(array [int] of var bool: x,array [int] of bool: t);']
    KINDS = ['alldiff', 'cumulative', 'table_int', 'table_bool']

    def __init__(self, rng, builtins):
        self.rng, r = rng, rng
        self.ints = [f'x{i}' for i in range(r.randint(3, 6))]
        self.bools = []  # b0, b1 where a table_bool is drawn; until then the makers take true/false for a bool
        self.lines, self.nonneg, self.dom = [], set(), {}
        product = 1
        for x in self.ints:
            if r.random() < 0.25:  # holes
                vals = sorted(r.sample(range(-1, 7), r.randint(2, 5)))
            else:
                lo = r.randint(-1, 4)
                vals = list(range(lo, r.randint(lo + 1, 6) + 1))
            while len(vals) > 1 and product * len(vals) > self.MAX_PRODUCT:
                vals.pop(r.randrange(len(vals)))
            product *= len(vals)
            self.dom[x] = vals
            if vals == list(range(vals[0], vals[-1] + 1)):
                self.lines.append(f'var {vals[0]}..{vals[-1]}: {x} :: output_var;')
            else:
                self.lines.append(f'var {{{",".join(map(str, vals))}}}: {x} :: output_var;')
        # The constraints in order: strings (the same for both solvers) and globals, ('alldiff', xs),
        # ('cumulative', starts, durations, uses, capacity) or ('table_int' | 'table_bool', xs, rows).
        self.items = []
        kinds = [r.choice(self.KINDS) for _ in range(r.randint(1, 3))]
        if 'table_bool' in kinds:
            self.bools = ['b0', 'b1']
            self.lines += [f'var bool: {b} :: output_var;' for b in self.bools]
        makers = {'alldiff': self.all_different, 'cumulative': self.cumulative, 'table_int': self.table_int,
                  'table_bool': self.table_bool}
        for kind in kinds:
            self.items.append(makers[kind]())
        makers = [self.ne_const, self.lin_ne, self.reif, self.ordinary, self.ordinary]
        for _ in range(r.randint(0, 3)):
            self.items += r.choice(makers)()
        r.shuffle(self.items)
        self.ann = ''
        if r.random() < 0.5:
            xs = r.sample(self.ints, r.randint(1, len(self.ints)) if r.random() < 0.4 else len(self.ints))
            self.ann = (f':: int_search([{",".join(xs)}], {r.choice(self.VAR_CHOICES)}, '
                        f'{r.choice(self.VALUE_CHOICES)}, complete) ')

    def all_different(self):
        r = self.rng
        xs = r.sample(self.ints, r.randint(2, min(5, len(self.ints))))
        for _ in range(r.choice([0, 0, 0, 1, 1, 2])):  # constants among them
            xs.insert(r.randint(0, len(xs)), str(r.randint(-1, 6)))
        if r.random() < 0.05:  # a variable twice: unsatisfiable
            xs.insert(r.randint(0, len(xs)), r.choice([x for x in xs if x in self.dom] or self.ints))
        return ('alldiff', xs)

    def cumulative(self):
        r = self.rng
        n = r.choice([1, 2, 2, 3, 3, 4, 4])
        starts = [r.choice(self.ints) if r.random() < 0.85 else str(r.randint(-1, 6)) for _ in range(n)]
        cap = 0 if r.random() < 0.03 else r.choice([1, 1, 2, 2, 3, 4])
        # Uses within the capacity and above 0 mostly (a task using more than it makes the model unsatisfiable
        # at once), so that two tasks at once overflow it now and then.
        uses = [r.randint(0, 3) if r.random() < 0.06 else r.randint(1, max(1, min(3, cap))) for _ in range(n)]
        return ('cumulative', starts, [r.randint(0, 3) for _ in range(n)], uses, cap)

    def table_int(self):
        """('table_int', columns, rows): 1 to 3 columns, each an int variable (one may repeat) or, now and
        then, a constant; 0 to 6 rows of values mostly in the columns' domains."""
        r = self.rng
        xs = [r.choice(self.ints) if r.random() < 0.85 else str(r.randint(-1, 6)) for _ in range(r.randint(1, 3))]
        return ('table_int', xs, self.rows(xs, lambda c: int(c), lambda: r.randint(-1, 6)))

    def table_bool(self):
        """('table_bool', columns, rows): 1 to 3 columns, each b0 or b1 (one may repeat) or, now and then,
        true or false; 0 to 6 rows."""
        r = self.rng
        xs = [r.choice(self.bools) if r.random() < 0.85 else r.choice(['true', 'false']) for _ in range(r.randint(1, 3))]
        return ('table_bool', xs, self.rows(xs, lambda c: c, lambda: r.choice(['true', 'false'])))

    def rows(self, xs, constant, any_value):
        """0 to 6 rows over columns xs: a variable's value in its domain mostly (a bool's: either), else in a
        hole or just outside it; a variable's second column its first one's value half the time; a
        constant column (constant(c) its value) that value mostly, else any_value()."""
        r, rows = self.rng, []
        for _ in range(0 if r.random() < 0.05 else r.randint(1, 6)):
            row = []
            for n, x in enumerate(xs):
                if x in xs[:n] and r.random() < 0.5:  # a variable listed twice: the same value, half the time
                    row.append(row[xs.index(x)])
                elif x in self.bools:
                    row.append(r.choice(['true', 'false']))
                elif x not in self.dom:  # a constant
                    row.append(constant(x) if r.random() < 0.8 else any_value())
                elif r.random() < 0.9:
                    row.append(r.choice(self.dom[x]))
                else:  # in a hole or just outside the domain
                    vals = self.dom[x]
                    row.append(r.choice([v for v in range(vals[0] - 1, vals[-1] + 2) if v not in vals]))
            rows.append(row)
        return rows

    def bounds_of(self, t):
        return (self.dom[t][0], self.dom[t][-1]) if t in self.dom else (int(t), int(t))

    def ordinary(self):
        """int_le, int_lt, int_ne between two variables or a variable and a value near its domain, int_lin_le
        that a point of the domains meets (HoleModel.linear), int_plus."""
        r = self.rng
        name = r.choice(self.ORDINARY)
        if name == 'int_lin_le':
            return [f'constraint int_lin_le({self.linear(r.randint(1, 3))});']
        if name == 'int_plus':
            return [f'constraint int_plus({self.args("iii")});']
        x = r.choice(self.ints)
        pair = [x, r.choice([v for v in self.ints if v != x]) if r.random() < 0.7 else str(self.value(x))]
        r.shuffle(pair)
        return [f'constraint {name}({pair[0]},{pair[1]});']

    def global_text(self, g):
        if g[0] == 'alldiff':
            return [f'constraint kcp_all_different_int([{",".join(g[1])}]);']
        if g[0] in ('table_int', 'table_bool'):
            flat = ','.join(str(v) for row in g[2] for v in row)
            return [f'constraint kcp_{g[0]}([{",".join(g[1])}],[{flat}]);']
        _, s, d, u, b = g
        return [f'constraint kcp_cumulative([{",".join(s)}],[{",".join(map(str, d))}],[{",".join(map(str, u))}],{b});']

    def decomposition(self, g, j):
        """(fresh bool declarations, constraints) of global g, the j-th of the model, for Gecode."""
        if g[0] == 'alldiff':
            xs = g[1]
            return [], [f'constraint int_ne({a},{b});' for n, a in enumerate(xs) for b in xs[n + 1:]]
        if g[0] in ('table_int', 'table_bool'):
            # Row m holds iff every column equals its value: g{j}_r{m} <-> /\ g{j}_r{m}_c{c}; one row must.
            _, xs, rows = g
            eq = 'int_eq_reif' if g[0] == 'table_int' else 'bool_eq_reif'
            decls, cons, hold = [], [], []
            for m, row in enumerate(rows):
                name = f'g{j}_r{m}'
                cols = [f'{name}_c{c}' for c in range(len(xs))]
                decls += [f'var bool: {v};' for v in cols + [name]]
                cons += [f'constraint {eq}({x},{v},{c});' for x, v, c in zip(xs, row, cols)]
                cons.append(f'constraint array_bool_and([{",".join(cols)}],{name});')
                hold.append(name)
            return decls, cons + [f'constraint bool_clause([{",".join(hold)}],[]);']
        _, s, d, u, b = g
        tasks = [i for i in range(len(s)) if d[i] > 0 and u[i] > 0]
        if not tasks:
            return [], []
        if b < 0:
            return [], ['constraint int_le(1,0);']
        decls, cons = [], []
        lo = min(self.bounds_of(s[i])[0] for i in tasks)
        hi = max(self.bounds_of(s[i])[1] + d[i] for i in tasks)
        for t in range(lo, hi):
            coefs, bools = [], []
            for i in tasks:
                slo, shi = self.bounds_of(s[i])
                if not slo <= t <= shi + d[i] - 1:
                    continue  # task i cannot cover t
                if s[i] not in self.dom:  # a constant start
                    if int(s[i]) <= t <= int(s[i]) + d[i] - 1:
                        coefs.append(u[i])
                        bools.append('true')
                    continue
                name = f'g{j}_{i}_t{t}' if t >= 0 else f'g{j}_{i}_tm{-t}'
                decls += [f'var bool: {name}_p;', f'var bool: {name}_q;', f'var bool: {name};']
                cons += [f'constraint int_le_reif({s[i]},{t},{name}_p);',
                         f'constraint int_le_reif({t - d[i] + 1},{s[i]},{name}_q);',
                         f'constraint array_bool_and([{name}_p,{name}_q],{name});']
                coefs.append(u[i])
                bools.append(name)
            if bools:
                cons.append(f'constraint bool_lin_le([{",".join(map(str, coefs))}],[{",".join(bools)}],{b});')
        return decls, cons

    def text(self, objective):
        """kcp's form: the globals as kcp_ builtins, declared first."""
        solve = f'solve {self.ann}satisfy;'
        if objective:
            solve = f'solve {self.ann}{self.rng.choice(["minimize", "maximize"])} {self.rng.choice(self.ints)};'
        self.solve = solve
        cons = [line for item in self.items for line in (self.global_text(item) if isinstance(item, tuple) else [item])]
        bounds = [f'constraint int_le(0,{x});' for x in sorted(self.nonneg)]
        return '\n'.join(self.PREDICATES + self.lines + cons + bounds + [solve]) + '\n'

    def gecode_text(self):
        """Gecode's form of the model of the last text(): the same variables, other constraints and solve
        item, the globals decomposed (their fresh bools declared after the model's variables)."""
        decls, cons = [], []
        for j, item in enumerate(self.items):
            if isinstance(item, tuple):
                dd, cc = self.decomposition(item, j)
                decls += dd
                cons += cc
            else:
                cons.append(item)
        bounds = [f'constraint int_le(0,{x});' for x in sorted(self.nonneg)]
        return '\n'.join(self.lines + decls + cons + bounds + [self.solve]) + '\n'


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


def judge(kcp, path, text, optimise, kp, gecode_out, gecode_rc, tmp):
    """('pass' | 'fail' | 'gecode_wrong' | 'skip', message) for kcp's run kp against Gecode's output."""
    if kp.returncode != 0:
        return 'fail', f'kcp exited {kp.returncode}: {kp.stderr.strip()[-300:]}'
    if gecode_rc != 0:
        return 'skip', 'Gecode cannot run it'  # e.g. a builtin it lacks: not kcp's fault
    if not optimise:
        ks, gs = solutions(kp.stdout), solutions(gecode_out)
        if ks == gs and status(kp.stdout) == status(gecode_out):
            return 'pass', ''
        problem = f'{len(ks)} solutions ({status(kp.stdout)}) against Gecode\'s {len(gs)} ({status(gecode_out)})'
        rejected = rejected_by_checker(kcp, path, gecode_out, tmp)
        if rejected:
            accepted = {s for i, s in enumerate(solution_list(gecode_out), 1) if i not in rejected}
            if accepted == ks and status(kp.stdout) in ('COMPLETE', 'UNSAT'):
                return 'gecode_wrong', f'the checker rejects {len(rejected)} of its solutions; kcp\'s {len(ks)} are the rest'
        return 'fail', problem
    var = re.search(r'\b(?:minimize|maximize) (\w+);', text).group(1)
    kv, gv = last_value(kp.stdout, var), last_value(gecode_out, var)
    if status(kp.stdout) == status(gecode_out) and kv == gv:
        return 'pass', ''
    rejected = rejected_by_checker(kcp, path, gecode_out, tmp)
    if rejected and max(rejected) == len(solution_list(gecode_out)):
        return 'gecode_wrong', 'the checker rejects its best solution'
    return 'fail', f'objective {kv} ({status(kp.stdout)}) against Gecode\'s {gv} ({status(gecode_out)})'


# Every other optimisation model (the odd ones) runs the portfolio at its busiest: no one-team probe
# (which finishes these small models alone), a restart every failure, a launch every 4 nodes (so the
# incumbent reaches the neighbourhoods early). The others run kcp's defaults.
PORTFOLIO_ARGS = ['--probe-ms', '0', '--portfolio', '0.5', '--restart-base', '1', '--slice-nodes', '4']
# --learning [MODE]: every optimisation model runs the busy portfolio and learns (--learn MODE: all, the
# default, or explain, the explaining thread beside).
LEARNING = ''


def kcp_args(path, optimise, extra):
    """kcp's arguments for one model: every solution checked, all of them (-a) unless optimising; the
    odd optimisation models (m1.fzn, m3.fzn, ...) with PORTFOLIO_ARGS before the caller's."""
    k = re.search(r'm(\d+)\.fzn$', path)
    busy = PORTFOLIO_ARGS if optimise and (LEARNING or (k and int(k.group(1)) % 2 == 1)) else []
    learn = ['--learn', LEARNING] if LEARNING and optimise else []
    return ['--check'] + (['-a'] if not optimise else []) + busy + learn + extra + [path]


def run_kcp(kcp, path, optimise, extra):
    return subprocess.run([kcp] + kcp_args(path, optimise, extra), capture_output=True, text=True, timeout=120)


def judge_replayed(args, row, kp, tmp):
    """judge() for the model of an --emit index row that kcp ran as kp: (k, verdict, message, text,
    Gecode's output), the arguments of record()."""
    k = int(row['model'])
    path = os.path.join(args.replay, f'm{k}.fzn')
    text = open(path).read()
    gecode_out = open(os.path.join(args.replay, f'm{k}.gecode.txt')).read()
    verdict, message = judge(args.kcp, path, text, row['optimise'] == '1', kp, gecode_out, int(row['gecode_rc']),
                             tempfile.mkdtemp(dir=tmp))
    return k, verdict, message, text, kp, gecode_out


def replay_batch(args, index, extra, tmp, record, counts, start):
    """--replay through kcp_batch: --jobs processes, model k in share k mod jobs; a process still running
    at the deadline is stopped, and the models it did not finish count as not run."""
    jobs = max(1, args.jobs)
    out = os.path.join(tmp, 'batch')
    os.makedirs(out)
    lists = [open(os.path.join(tmp, f'list{j}.txt'), 'w') for j in range(jobs)]
    for n, row in enumerate(index):
        k = int(row['model'])
        path = os.path.join(args.replay, f'm{k}.fzn')
        lists[n % jobs].write(' '.join([os.path.join(out, f'm{k}')] + kcp_args(path, row['optimise'] == '1', extra)) + '\n')
    for f in lists:
        f.close()
    procs = [subprocess.Popen([args.batch], stdin=open(f.name), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for f in lists]
    for p in procs:
        try:
            p.wait(timeout=max(1.0, start + args.deadline - time.time()) if args.deadline else None)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    for row in index:
        base = os.path.join(out, f'm{row["model"]}')
        if not os.path.exists(base + '.rc'):
            counts['not_run'] += 1
            continue
        kp = subprocess.CompletedProcess([args.batch], int(open(base + '.rc').read() or 1), open(base + '.out').read(),
                                         open(base + '.err').read())
        record(*judge_replayed(args, row, kp, tmp))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--kcp', default='', help='the kcp binary (all modes but --emit)')
    ap.add_argument('--gecode', default='fzn-gecode')
    ap.add_argument('--models', type=int, default=200)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--keep', default='')
    ap.add_argument('--log', default='', help='append one CSV row with the totals')
    ap.add_argument('--only', nargs='*', default=[], help='builtins to draw from (default: all)')
    ap.add_argument('--holes', action='store_true', help='models with holes in their domains, heavy in !=, half '
                    'of them annotated (HoleModel; --only then limits its occasional general builtin)')
    ap.add_argument('--wide', action='store_true', help='HoleModel over domains of several bitset words, with '
                    'two-term unit rows tying them (WideModel)')
    ap.add_argument('--globals', action='store_true', help='models with kcp\'s global constraints '
                    '(kcp_all_different_int, kcp_cumulative, kcp_table_int, kcp_table_bool), Gecode given them '
                    'decomposed (GlobalModel)')
    ap.add_argument('--emit', default='', help='write the models and Gecode\'s outputs to DIR and stop (for '
                    'a machine without Gecode, e.g. the GPU one)')
    ap.add_argument('--replay', default='', help='judge kcp on the models and Gecode outputs of an --emit DIR')
    ap.add_argument('--jobs', type=int, default=1, help='kcp runs at once (--replay)')
    ap.add_argument('--batch', default='', help='--replay: run the models through this kcp_batch binary, --jobs '
                    'processes each over a share (Kokkos starts once per process, not once per model)')
    ap.add_argument('--start', type=int, default=0, help='--replay: skip the first START models of the index')
    ap.add_argument('--deadline', type=float, default=0, help='--replay: start no model after this many seconds; '
                    'the log row counts the models judged (for a device call\'s time limit)')
    ap.add_argument('--learning', nargs='?', const='all', default='', choices=['all', 'explain'],
                    help='every optimisation model with the busy portfolio and --learn all (or the mode given)')
    ap.add_argument('extra', nargs=argparse.REMAINDER)
    args = ap.parse_args()
    global LEARNING
    LEARNING = args.learning
    extra = [a for a in args.extra if a != '--']
    if not args.emit and not args.kcp:
        ap.error('--kcp is required unless --emit')
    if args.holes + args.globals + args.wide > 1:
        ap.error('--holes, --wide and --globals are three generators: pick one')
    generator = 'holes' if args.holes else 'wide' if args.wide else 'globals' if args.globals else 'mixed'
    if args.replay and os.path.exists(os.path.join(args.replay, 'generator.txt')):
        generator = open(os.path.join(args.replay, 'generator.txt')).read().strip()
    log_fields = ['date', 'seed', 'models', 'failed', 'gecode_wrong', 'seconds', 'kcp_args', 'generator']
    if args.log and os.path.exists(args.log):
        log_fields = next(csv.reader(open(args.log)), log_fields)
        if generator != 'mixed' and 'generator' not in log_fields:
            ap.error(f'{args.log} has no generator column to record {generator} models in')
    keep = args.keep or tempfile.mkdtemp(prefix='kcp-diff-')
    os.makedirs(keep, exist_ok=True)
    counts = {'pass': 0, 'fail': 0, 'gecode_wrong': 0, 'skip': 0, 'not_run': 0}
    start = time.time()
    seed, models = args.seed, args.models
    with tempfile.TemporaryDirectory() as tmp:
        def record(k, verdict, message, text, kp, gecode_out, gecode_text=None):
            counts[verdict] += 1
            if verdict in ('fail', 'gecode_wrong'):
                base = os.path.join(keep, f'seed{seed}-model{k}')
                open(base + '.fzn', 'w').write(text)
                if gecode_text is not None and gecode_text != text:  # --globals: the form Gecode solved
                    open(base + '.gecode.fzn', 'w').write(gecode_text)
                open(base + '.kcp.txt', 'w').write(kp.stdout + kp.stderr)
                open(base + '.gecode.txt', 'w').write(gecode_out)
                label = 'DISAGREE' if verdict == 'fail' else 'GECODE WRONG'
                print(f'{label} model {k}: {message} ({base}.fzn)', file=sys.stderr)

        if args.replay:
            seed = int(open(os.path.join(args.replay, 'seed.txt')).read())
            index = list(csv.DictReader(open(os.path.join(args.replay, 'index.csv'))))[args.start:]
            models = len(index)
            lock = threading.Lock()

            def one(row):
                if args.deadline and time.time() - start > args.deadline:
                    with lock:
                        counts['not_run'] += 1
                    return
                path = os.path.join(args.replay, f'm{row["model"]}.fzn')
                kp = run_kcp(args.kcp, path, row['optimise'] == '1', extra)
                judged = judge_replayed(args, row, kp, tmp)
                with lock:
                    record(*judged)

            if args.batch:
                replay_batch(args, index, extra, tmp, record, counts, start)
            else:
                with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
                    for fut in [pool.submit(one, row) for row in index]:
                        fut.result()
        else:
            rng = random.Random(args.seed)
            builtins = args.only or sorted(BUILTINS)
            if args.emit:
                os.makedirs(args.emit, exist_ok=True)
                open(os.path.join(args.emit, 'seed.txt'), 'w').write(str(args.seed))
                open(os.path.join(args.emit, 'generator.txt'), 'w').write(generator + '\n')
                index = csv.writer(open(os.path.join(args.emit, 'index.csv'), 'w', newline=''))
                index.writerow(['model', 'optimise', 'gecode_rc'])
            for k in range(args.models):
                optimise = rng.random() < (0.5 if args.globals else 0.3)  # --globals: half, the others 30%
                model = (GlobalModel if args.globals else HoleModel if args.holes else WideModel if args.wide else Model)(rng, builtins)
                text = model.text(optimise)
                path = os.path.join(args.emit or tmp, f'm{k}.fzn')
                open(path, 'w').write(text)
                # Gecode solves the same text, or with --globals the model's globals decomposed (judge()'s
                # checker still reads Gecode's solutions against kcp's form, path).
                gecode_text, gecode_path = text, path
                if args.globals:
                    gecode_text, gecode_path = model.gecode_text(), os.path.join(tmp, f'm{k}.gecode.fzn')
                    open(gecode_path, 'w').write(gecode_text)
                gp = subprocess.run([args.gecode] + (['-a'] if not optimise else []) + [gecode_path],
                                    capture_output=True, text=True, timeout=60)
                if args.emit:
                    open(os.path.join(args.emit, f'm{k}.gecode.txt'), 'w').write(gp.stdout)
                    index.writerow([k, int(optimise), gp.returncode])
                    continue
                kp = run_kcp(args.kcp, path, optimise, extra)
                verdict, message = judge(args.kcp, path, text, optimise, kp, gp.stdout, gp.returncode, tmp)
                record(k, verdict, message, text, kp, gp.stdout, gecode_text)
            if args.emit:
                print(f'{args.models} models and Gecode\'s outputs in {args.emit}')
                return
    elapsed = time.time() - start
    print(f'{counts["pass"]} passed, {counts["fail"]} failed, {counts["gecode_wrong"]} where Gecode is wrong, '
          f'{counts["skip"]} Gecode cannot run' + (f', {counts["not_run"]} not run (deadline)' if counts['not_run'] else ''))
    if args.log:
        # The columns of the file's header (a file with hand-added columns gets them empty; one without
        # a generator column only takes mixed models).
        new = not os.path.exists(args.log)
        with open(args.log, 'a', newline='') as f:
            w = csv.DictWriter(f, log_fields, restval='', extrasaction='ignore')
            if new:
                w.writeheader()
            w.writerow({'date': time.strftime('%Y-%m-%d %H:%M:%S'), 'seed': seed, 'models': models - counts['not_run'],
                        'failed': counts['fail'], 'gecode_wrong': counts['gecode_wrong'], 'seconds': f'{elapsed:.1f}',
                        'kcp_args': ' '.join(extra), 'generator': generator})
    sys.exit(1 if counts['fail'] else 0)


if __name__ == '__main__':
    main()
