#!/usr/bin/env python3
"""The textbook set (issue 51): n-queens, latin square completion, sudoku, magic squares, Golomb
rulers and graph colouring, each with the annotations a textbook uses (the .mzn files here; data from
gen.py). Compiles every instance twice, with MiniZinc's standard library (for fzn-gecode, as
../shared/benchmarks/scripts/compile.sh does) and with kcp's mznlib, then runs, one at a time:

    fzn-gecode -s -time T std.fzn                           (solver "gecode", with --gecode)
    kcp -s -t T ARGS kcp.fzn                                (solver "kcp", one row per --config NAME=ARGS)

and writes a CSV row per run: instance, solver, config, status (solution / optimal / unsat / unknown /
error), objective, seconds (wall time of the process: to the first solution of a satisfaction model,
to the proof of an optimisation one), nodes, solveTime (kcp's), bitsetVariables, checked (kcp runs with --check, its independent checker reading every solution before
it is printed: check-ok / check-rejected; Gecode's solutions re-read by `kcp --verify` against the
standard-library FlatZinc: ok / rejected, or unverifiable where its output leaves out introduced variables; none: no solution).

    perf/bench/textbook/run.py --kcp build/openmp/bin/kcp --out perf/results/vm/textbook.csv \\
        [--gecode] [--timeout-ms 10000] [--only PREFIX...] [--config serial1='--space serial ...' ...]
    perf/bench/textbook/run.py --compile-only DIR    (the FlatZinc into DIR/std and DIR/kcp, for a run elsewhere)
    perf/bench/textbook/run.py --fzn DIR ...         (run on FlatZinc compiled before: no minizinc needed)
"""
import argparse, csv, os, re, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
DEFAULT_CONFIGS = {
    # Gecode's conditions: one thread, one team, no split, no probe, no learning (the tree-equality run).
    "serial1": "--space serial --teams 1 --subproblems 0 --learn none --probe-ms 0",
    "default": "",
}


def compile_all(out, only):
    os.makedirs(f"{out}/std", exist_ok=True)
    os.makedirs(f"{out}/kcp", exist_ok=True)
    tmp = tempfile.mkdtemp()
    os.makedirs(f"{tmp}/std")
    open(f"{tmp}/std/redefinitions.mzn", "w").write('include "nosets.mzn";\n')
    for lib, d in (("std", f"{tmp}/std"), ("kcp", f"{REPO}/mznlib")):
        open(f"{tmp}/{lib}.msc", "w").write(
            '{ "id": "textbook.%s", "name": "compile only", "version": "1.0", "mznlib": "%s", '
            '"executable": "/bin/false", "supportsFzn": true, "needsSolns2Out": true }' % (lib, d))
    names = []
    for f in sorted(os.listdir(f"{HERE}/data")):
        name = f[:-4]
        if only and not any(name.startswith(p) for p in only):
            continue
        model = f"{HERE}/{name.split('-')[0]}.mzn"
        for lib in ("std", "kcp"):
            subprocess.run(["minizinc", "-c", "--solver", f"{tmp}/{lib}.msc", model, f"{HERE}/data/{f}",
                            "--fzn", f"{out}/{lib}/{name}.fzn", "--ozn", f"{out}/{lib}/{name}.ozn"], check=True)
        names.append(name)
    shutil.rmtree(tmp)
    return names


def parse(text):
    stats = dict(re.findall(r"%%%mzn-stat: (\w+)=(\S+)", text))
    objs = re.findall(r"_objective = (-?\d+);", text)
    if "=====UNSATISFIABLE=====" in text:
        status = "unsat"
    elif "==========" in text:
        status = "optimal"
    elif "----------" in text:
        status = "solution"
    elif "=====UNKNOWN=====" in text or "=====" not in text:
        status = "unknown"
    else:
        status = "error"
    return status, (objs[-1] if objs else ""), stats


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kcp", default=f"{REPO}/build/openmp/bin/kcp")
    ap.add_argument("--out")
    ap.add_argument("--gecode", action="store_true")
    ap.add_argument("--no-kcp", action="store_true")
    ap.add_argument("--timeout-ms", type=int, default=10000)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--config", action="append", help="NAME=ARGS (default: serial1 and default)")
    ap.add_argument("--compile-only")
    ap.add_argument("--fzn", help="FlatZinc compiled before (DIR/std, DIR/kcp)")
    a = ap.parse_args()
    if a.compile_only:
        compile_all(a.compile_only, a.only)
        return
    if a.fzn:
        fzn = a.fzn
        names = sorted(f[:-4] for f in os.listdir(f"{fzn}/kcp") if f.endswith(".fzn")
                       and (not a.only or any(f.startswith(p) for p in a.only)))
    else:
        fzn = tempfile.mkdtemp()
        names = compile_all(fzn, a.only)
    configs = dict(c.split("=", 1) for c in a.config) if a.config else DEFAULT_CONFIGS
    kcp = tempfile.mktemp()
    shutil.copy(a.kcp, kcp)  # a rebuild during the run changes nothing
    out = open(a.out, "w", newline="") if a.out else sys.stdout
    w = csv.writer(out)
    w.writerow(["instance", "solver", "config", "status", "objective", "seconds", "nodes", "solveTime",
                "bitsetVariables", "checked"])
    limit = a.timeout_ms / 1000
    for name in names:
        runs = []
        if a.gecode:
            runs.append(("gecode", "", ["fzn-gecode", "-s", "-time", str(a.timeout_ms), f"{fzn}/std/{name}.fzn"], "std"))
        if not a.no_kcp:
            for cname, args in configs.items():
                runs.append(("kcp", cname, [kcp, "-s", "--check", "-t", str(a.timeout_ms)] + args.split() + [f"{fzn}/kcp/{name}.fzn"], "kcp"))
        for solver, cname, cmd, lib in runs:
            t0 = time.time()
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + 20)
                text, p_rc = p.stdout, p.returncode
            except subprocess.TimeoutExpired as e:
                text = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
                text += "\n(killed)"
                p_rc = -9
            secs = time.time() - t0
            status, obj, stats = parse(text)
            checked = "none"
            if solver == "kcp" and "----------" in text:
                # --check: kcp's independent checker read every solution before it was printed (exit
                # status 3 when it rejected one); kcp's output names only the model's outputs, not the
                # variables MiniZinc introduced, so --verify could not re-read it.
                checked = "check-rejected" if p_rc == 3 else "check-ok"
            elif "----------" in text:
                with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
                    f.write(text)
                v = subprocess.run([kcp, "--verify", f.name, f"{fzn}/{lib}/{name}.fzn"], capture_output=True, text=True)
                checked = "ok" if v.returncode == 0 else \
                    "unverifiable" if "not an output of the model" in v.stderr + v.stdout else "rejected"
                os.unlink(f.name)
            w.writerow([name, solver, cname, status, obj, f"{secs:.3f}", stats.get("nodes", ""),
                        stats.get("solveTime", ""), stats.get("bitsetVariables", ""), checked])
            out.flush()
    os.unlink(kcp)


if __name__ == "__main__":
    main()
