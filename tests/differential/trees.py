#!/usr/bin/env python3
"""kcp's tree against Gecode's (issue 51): on generated FlatZinc with wide domains (spans 65 to 2,000
values, holes given as set domains), for every variable choice and every value choice both solvers
support, kcp on Serial with one team, no subproblem split, no probe and no learning must visit exactly
Gecode's nodes and reach Gecode's first solution (or prove unsatisfiability after the same nodes).

The models use only constraints whose propagation both solvers do equally strongly: x != y and
a x + b y != c (value consistency), and x - y = d / x + y = e with unit coefficients annotated
`:: domain` (Gecode's domain-consistent linear; kcp's two-term unit rows are domain consistent). Choices
whose definitions differ are skipped and named: dom_w_deg (Gecode's weights are its own), occurrence and
most_constrained (Gecode counts the propagators left, kcp the constraints of the model),
indomain_random (another random generator), outdomain_* (Gecode ignores them).

    tests/differential/trees.py --kcp build/openmp/bin/kcp [--models 6] [--seed 1] [--fzn-gecode fzn-gecode]
Exit status 0 when every tree is equal, 1 when one differs (printed with its FlatZinc), 77 when
fzn-gecode is missing (ctest: skipped)."""
import argparse, os, random, re, shutil, subprocess, sys, tempfile

VAR_CHOICES = ["input_order", "first_fail", "anti_first_fail", "smallest", "largest", "max_regret"]
VALUE_CHOICES = ["indomain_min", "indomain_max", "indomain_median", "indomain_split", "indomain_reverse_split"]


def model(rng, var_choice, value_choice):
    """A model with a planted solution (most stay satisfiable; != constraints it violates are left out)."""
    n = rng.randint(6, 14)
    lines, names, planted = [], [], []
    for i in range(n):
        lo = rng.randint(-300, 300)
        span = rng.choice([65, 100, 150, 300, 700, 2000])
        hi = lo + span - 1
        if rng.random() < 0.5:
            # holes: a set domain of four ranges
            cuts = sorted(rng.sample(range(lo + 1, hi), 6))
            ranges = [(lo, cuts[0]), (cuts[1], cuts[2]), (cuts[3], cuts[4]), (cuts[5], hi)]
            values = [v for a, b in ranges for v in range(a, b + 1)]
            dom = "{" + ",".join(str(v) for v in values) + "}"
        else:
            values = range(lo, hi + 1)
            dom = f"{lo}..{hi}"
        planted.append(rng.choice(values))
        lines.append(f"var {dom}: x{i} :: output_var;")
        names.append(f"x{i}")
    cons = []
    for _ in range(rng.randint(n, 3 * n)):
        i, j = rng.sample(range(n), 2)
        r = rng.random()
        if r < 0.5:
            if planted[i] != planted[j]:
                cons.append(f"constraint int_ne(x{i},x{j});")
        elif r < 0.7:
            a, b = rng.choice([1, 2, -1]), rng.choice([1, -1, 3])
            c = a * planted[i] + b * planted[j] + rng.randint(-3, 3)
            if c != a * planted[i] + b * planted[j]:
                cons.append(f"constraint int_lin_ne([{a},{b}],[x{i},x{j}],{c});")
        elif r < 0.85:
            b = rng.choice([1, -1])
            cons.append(f"constraint int_lin_eq([1,{b}],[x{i},x{j}],{planted[i] + b * planted[j]}) :: domain;")
    order = names[:]
    rng.shuffle(order)
    search = f"solve :: int_search([{','.join(order)}], {var_choice}, {value_choice}, complete) satisfy;"
    return "\n".join(lines + cons + [search]) + "\n"


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    out = p.stdout
    nodes = re.search(r"%%%mzn-stat: nodes=(\d+)", out)
    sol = out.split("----------")[0] if "----------" in out else None
    if sol is not None:
        sol = dict(re.findall(r"(x\d+) = (-?\d+);", sol))
    status = "sat" if sol is not None else ("unsat" if "UNSATISFIABLE" in out else "unknown")
    return status, int(nodes.group(1)) if nodes else None, sol, out + p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kcp", required=True)
    ap.add_argument("--fzn-gecode", default="fzn-gecode")
    ap.add_argument("--models", type=int, default=6, help="models per choice pair")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if shutil.which(a.fzn_gecode) is None:
        print("fzn-gecode not found: skipped")
        return 77
    tmp = tempfile.mkdtemp()
    compared = differ = total_nodes = deepest = 0
    sat = unsat = 0
    for vc in VAR_CHOICES:
        for val in VALUE_CHOICES:
            for k in range(a.models):
                rng = random.Random(f"{a.seed}-{vc}-{val}-{k}")
                text = model(rng, vc, val)
                path = os.path.join(tmp, "m.fzn")
                open(path, "w").write(text)
                g = run([a.fzn_gecode, "-s", path])
                kk = run([a.kcp, "-s", "--space", "serial", "--teams", "1", "--subproblems", "0", "--learn", "none",
                          "--probe-ms", "0", path])
                compared += 1
                total_nodes += g[1] or 0
                deepest = max(deepest, g[1] or 0)
                if g[0] == "sat":
                    sat += 1
                elif g[0] == "unsat":
                    unsat += 1
                # Gecode counts no node when the root's propagation fails; kcp counts the root.
                g_nodes = 1 if g[0] == "unsat" and g[1] == 0 else g[1]
                if (g[0], g_nodes, g[2]) != (kk[0], kk[1], kk[2]):
                    differ += 1
                    print(f"DIFFER {vc} {val} model {k}: gecode {g[0]} {g[1]} nodes, kcp {kk[0]} {kk[1]} nodes")
                    if g[2] != kk[2]:
                        print(f"  gecode {g[2]}\n  kcp    {kk[2]}")
                    print(text if len(text) < 4000 else text[:4000] + " ...")
                    if differ > 5:
                        return 1
    print(f"{compared} trees compared ({sat} satisfiable, {unsat} unsatisfiable; Gecode's nodes: {total_nodes} in all, "
          f"{deepest} at most): {differ} differ")
    shutil.rmtree(tmp)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
