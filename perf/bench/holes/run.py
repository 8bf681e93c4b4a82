#!/usr/bin/env python3
"""Issue 17's measurement: kcp with and without domain bitsets (domains with holes), one run at a time.

For every instance, runs

    kcp --space serial -s -t 20000 --bitset-span K model.fzn      (K = 0, 64, and 256 where asked)

and writes one CSV row per run: instance, span, status (solution / optimal / unsat / unknown /
error), objective, nodes, fixpointIterationsPerNode, nodesPerSecond, solveTime, bitsetVariables,
domainBytesPerTeam, then failures, peakDepth, the process' wall time, the load average at its start
and `verified` (after all the timed runs, every printed solution is re-checked off the clock with
`kcp --verify`: ok / rejected / none; an optimisation model's output does not name every variable,
so there the run is repeated with --check: check-ok / check-rejected). With --gecode, `fzn-gecode -p 1 -time T -s` runs on the
generated queens / latin instances too (own CSV, same columns where they exist; its solution is
checked with `kcp --verify` as well).

Instances: perf/bench/holes/instances/*.fzn.gz (generate.py), and from the development set
(../shared/benchmarks/instances, gunzipped to a temporary folder) sudoku-opt and the models with
!= chains named by --dev. The binary is copied first, so a rebuild during the run changes nothing.

    perf/bench/holes/run.py [--kcp build/openmp/bin/kcp] [--timeout-ms 20000] [--gecode]
        [--out perf/results/vm/holes-serial.csv] [--only PREFIX...]
"""
import argparse
import csv
import gzip
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))

# instance -> spans; the wide ones (domains over 64 values) also get 256
WIDE = {"queens_n150", "latin_n30"}
DEV = ["sudoku-opt_sudoku_p20", "team-assignment_data3_5_31", "traveling-tppv_circ14cnonbal",
       "gfd-schedule_n55f2d50m30k3_10124"]
FIELDS = ["instance", "span", "status", "objective", "nodes", "fixpointIterationsPerNode",
          "nodesPerSecond", "solveTime", "bitsetVariables", "domainBytesPerTeam", "failures",
          "peakDepth", "wall_s", "load1", "verified"]


def stats(text):
    out = {}
    for m in re.finditer(r"^%%%mzn-stat: (\w+)=(.*)$", text, re.M):
        out[m.group(1)] = m.group(2).strip().strip('"')
    return out


def status_of(text, rc, optimisation):
    if rc != 0:
        return "error"
    if "=====UNSATISFIABLE=====" in text:
        return "unsat"
    if "=====ERROR=====" in text:
        return "error"
    if "==========" in text:
        return "optimal" if optimisation else "all"
    if "----------" in text:
        return "solution"
    return "unknown"


def verify(kcp, model, output_file, cmd):
    """ok / rejected by `kcp --verify` on the printed solutions; where those do not name every
    variable (optimisation models print only their outputs), the same run again with --check:
    check-ok / check-rejected (kcp's exit status 3: a solution the checker refused)."""
    with open(output_file) as f:
        if "----------" not in f.read():
            return "none"
    p = subprocess.run([kcp, "--verify", output_file, model], capture_output=True, text=True)
    if p.returncode == 0:
        return "ok"
    if p.returncode == 3:
        return "rejected"
    if "not an output of the model" in p.stderr and cmd is not None:
        q = subprocess.run(cmd[:-1] + ["--check", model], capture_output=True, text=True)
        if q.returncode == 3:
            return "check-rejected"
        return "check-ok" if q.returncode == 0 and "----------" in q.stdout else f"check-rc{q.returncode}"
    return f"error{p.returncode}"


def timed_run(cmd, outfile):
    """Runs cmd once, its stdout kept in outfile: (process, wall seconds, load average at the start,
    outfile, its %%%mzn-stat values)."""
    load1 = os.getloadavg()[0]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    with open(outfile, "w") as f:
        f.write(p.stdout)
    return p, wall, load1, outfile, stats(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kcp", default=os.path.join(REPO, "build", "openmp", "bin", "kcp"))
    ap.add_argument("--timeout-ms", type=int, default=20000)
    ap.add_argument("--spans", type=int, nargs="*", default=[0, 64])
    ap.add_argument("--wide-span", type=int, default=256)
    ap.add_argument("--dev", nargs="*", default=DEV)
    ap.add_argument("--shared", default=os.path.join(REPO, "..", "shared", "benchmarks"))
    ap.add_argument("--gecode", action="store_true", help="also fzn-gecode on the generated instances")
    ap.add_argument("--out", default=os.path.join(REPO, "perf", "results", "vm", "holes-serial.csv"))
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--keep", default=None, help="folder to keep the solver outputs in")
    args = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="kcp-holes-")
    keep = args.keep or os.path.join(tmp, "out")
    os.makedirs(keep, exist_ok=True)
    kcp = os.path.join(tmp, "kcp")
    shutil.copy2(args.kcp, kcp)
    with open(kcp, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    version = subprocess.run([kcp, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"# kcp {args.kcp} (copied; sha256 {digest}; {version})", flush=True)

    instances = []  # (name, path, generated)
    gen = os.path.join(HERE, "instances")
    for f in sorted(os.listdir(gen), key=lambda s: (s.split("_")[0] != "queens",
                                                      int(re.sub(r"\D", "", s.split("_")[1]) or 0))):
        if f.endswith(".fzn.gz"):
            instances.append((f[:-len(".fzn.gz")], os.path.join(gen, f), True))
    for name in args.dev:
        instances.append((name, os.path.join(args.shared, "instances", name + ".fzn.gz"), False))
    if args.only:
        instances = [i for i in instances if any(i[0].startswith(p) for p in args.only)]

    rows, grows = [], []
    for name, packed, generated in instances:
        model = os.path.join(tmp, name + ".fzn")
        with gzip.open(packed, "rb") as src, open(model, "wb") as dst:
            shutil.copyfileobj(src, dst)
        with open(model) as f:
            optimisation = re.search(r"^solve\b.*\b(minimize|maximize)\b", f.read(), re.M) is not None
        spans = list(args.spans) + ([args.wide_span] if name in WIDE else [])
        for span in spans:
            cmd = [kcp, "--space", "serial", "-s", "-t", str(args.timeout_ms), "--bitset-span", str(span),
                   model]
            p, wall, load1, outfile, st = timed_run(cmd, os.path.join(keep, f"{name}.span{span}.out"))
            row = {"instance": name, "span": span, "status": status_of(p.stdout, p.returncode, optimisation),
                   "objective": st.get("objective", ""), "wall_s": f"{wall:.2f}", "load1": f"{load1:.2f}",
                   "_model": model, "_out": outfile, "_cmd": cmd}
            for k in FIELDS[4:12]:
                row[k] = st.get(k, "")
            if p.returncode != 0:
                print(p.stderr, file=sys.stderr)
            rows.append(row)
            print(" ".join(f"{k}={row[k]}" for k in FIELDS[:-1]), flush=True)
        if args.gecode and generated:
            cmd = ["fzn-gecode", "-p", "1", "-time", str(args.timeout_ms), "-s", model]
            p, wall, load1, outfile, st = timed_run(cmd, os.path.join(keep, f"{name}.gecode.out"))
            row = {"instance": name, "span": "gecode", "status": status_of(p.stdout, p.returncode, optimisation),
                   "objective": st.get("objective", ""), "nodes": st.get("nodes", ""),
                   "solveTime": st.get("solveTime", ""), "failures": st.get("failures", ""),
                   "peakDepth": st.get("peakDepth", ""), "wall_s": f"{wall:.2f}", "load1": f"{load1:.2f}",
                   "_model": model, "_out": outfile}
            grows.append(row)
            print(" ".join(f"{k}={row.get(k, '')}" for k in FIELDS[:-1]), flush=True)

    # off the clock: every printed solution through kcp's independent checker
    for row in rows + grows:
        row["verified"] = verify(kcp, row["_model"], row["_out"], row.get("_cmd"))
        if row["verified"] not in ("ok", "none", "check-ok"):
            print(f"!!! {row['instance']} span {row['span']}: solution {row['verified']}", flush=True)

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    outs = [(args.out, rows)] + ([(re.sub(r"\.csv$", "", args.out) + "-gecode.csv", grows)] if grows else [])
    for path, rs in outs:
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=FIELDS, extrasaction="ignore")
            w.writeheader()
            w.writerows(rs)
        print(f"# wrote {path}", flush=True)

    # answers that differ between spans of one instance (a different optimum would be a bug)
    by = {}
    for r in rows:
        by.setdefault(r["instance"], []).append(r)
    for name, rs in by.items():
        opt = {r["objective"] for r in rs if r["status"] == "optimal"}
        st = {r["status"] for r in rs}
        if len(opt) > 1:
            print(f"!!! BUG? {name}: different proven optima across spans: {sorted(opt)}", flush=True)
        if "unsat" in st and st & {"solution", "optimal"}:
            print(f"!!! BUG? {name}: unsat with one span, a solution with another", flush=True)
        if len(st) > 1:
            print(f"# {name}: status differs across spans: "
                  + ", ".join(f"{r['span']}={r['status']}" for r in rs), flush=True)
    if not args.keep:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    sys.exit(main())
