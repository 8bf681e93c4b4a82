#!/usr/bin/env python3
"""Turns the studies' CSVs into a Markdown table and a PNG plot per study and machine.

    perf/studies/report.py perf/results/<machine> [more machine folders...] [--readme perf/README.md]

For each folder, reads <study>-<space>.csv (trapezoid, device_sync, warp_cooperation) and writes
<study>.md and <study>.png beside them. With --readme, the tables of every folder replace the part of
that file between "<!-- studies:begin -->" and "<!-- studies:end -->".

Needs Python 3 with matplotlib for the plots (Debian: apt-get install python3-matplotlib, then run it
with /usr/bin/python3 if another python3 comes first); without matplotlib only the tables are written.
"""

import argparse
import csv
import math
import os
import sys
from collections import defaultdict

STUDIES = ("trapezoid", "device_sync", "warp_cooperation")
EXACT = -0.34702211863386324383


def read_rows(folder, study):
    rows = []
    for name in sorted(os.listdir(folder)):
        if name.startswith(study + "-") and name.endswith(".csv"):
            with open(os.path.join(folder, name), newline="") as f:
                for r in csv.DictReader(f):
                    if r.get("study") != study:
                        continue
                    for key in ("value", "error", "time_s", "time_median_s", "throughput"):
                        r[key] = float(r[key]) if r[key] not in ("", None) else math.nan
                    r["size"] = int(r["size"])
                    r["threads"] = int(r["threads"])
                    rows.append(r)
    return rows


def backend_label(r):
    return f"{r['backend']} ({r['threads']} thr)" if r["backend"] != "cuda" else "cuda"


def by_backend(rows):
    groups = defaultdict(list)
    for r in rows:
        groups[backend_label(r)].append(r)
    order = {"serial": 0, "openmp": 1, "cuda": 2}
    return sorted(groups.items(), key=lambda kv: order.get(kv[1][0]["backend"], 9))


def fmt_time(s):
    if math.isnan(s):
        return "–"
    if s < 1e-3:
        return f"{s * 1e6:.1f} µs"
    if s < 1:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.2f} s"


def fmt_rate(v, unit):
    if math.isnan(v):
        return "–"
    for factor, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= factor:
            return f"{v / factor:.3g} {prefix}{unit}"
    return f"{v:.3g} {unit}"


def fmt_num(v, digits=3):
    return "–" if math.isnan(v) else f"{v:.{digits}g}"


def header(rows):
    r = rows[0]
    return f"{r['device']}, {r['kokkos']}, revision {r['revision']}"


def table(columns, body):
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in body]
    return "\n".join(lines)


def side_by_side(rows, level, key, metric, fmt, note):
    """One row per key, one column per backend: each backend's metric at the largest size that every
    backend measured for that key (CPU against GPU in one table). Empty with fewer than 2 backends."""
    groups = by_backend(rows)
    if len(groups) < 2:
        return []
    labels = [label for label, _ in groups]
    keys = []
    for r in rows:
        if key(r) not in keys:
            keys.append(key(r))
    body = []
    for k in keys:
        sizes = [{r["size"] for r in rs if key(r) == k} for _, rs in groups]
        common = set.intersection(*sizes) if all(sizes) else set()
        if not common:
            continue
        n = max(common)
        cells = []
        for _, rs in groups:
            r = next(r for r in rs if key(r) == k and r["size"] == n)
            cells.append(fmt(metric(r), r))
        body.append([" ".join(map(str, k)) if isinstance(k, tuple) else k, n] + cells)
    return [f"{'#' * (level + 1)} Side by side", "", note, "", table(["variant", "size"] + labels, body), ""]


def exact_check():
    """The note's value against a 64-point Gauss-Legendre rule of its f (exact to rounding: f is entire)."""
    try:
        import numpy as np
    except ImportError:
        return "numpy not available: the note's exact value is not re-checked here"
    x, w = np.polynomial.legendre.leggauss(64)
    g = 2 + x * (-1 + x * (0.5 - 0.2 * x))
    value = float(np.sum(w * (np.sin(g) + 2 * np.cos(g))))
    return (f"Gauss-Legendre (64 nodes) of the note's f gives {value:.17g}; the note's value "
            f"{EXACT:.17g} differs by {abs(value - EXACT):.1e} (mpmath at 40 digits: "
            f"-0.3470221186338632438252593...)")


# ---------------------------------------------------------------------------------------------
# trapezoid

TRAPEZOID_COMPUTE = ["flat_parallel_reduce", "nested_team_vector", "interleaved_host_sum", "interleaved_two_pass",
                     "sequential_two_pass", "sequential_registers", "global_single_launch",
                     "global_launch_per_stride", "eval_array"]
TRAPEZOID_MEMORY = ["array_flat_reduce", "array_sequential_registers", "array_kk_sum", "array_kk_dot",
                    "copy_deep_copy", "copy_kernel"]
BASELINES = ["flat_parallel_reduce", "nested_team_vector"]
LADDER = ["interleaved_host_sum", "interleaved_two_pass", "sequential_two_pass", "sequential_registers"]


def trapezoid_report(rows, title, level):
    out = [f"{'#' * level} {title}", "", exact_check(), ""]
    for label, rs in by_backend(rows):
        largest = max(r["size"] for r in rs)
        at = {r["variant"]: r for r in rs if r["size"] == largest}
        copy_bw = max((at[v]["throughput"] for v in ("copy_deep_copy", "copy_kernel") if v in at), default=math.nan)
        best_base = min((at[v]["time_s"] for v in BASELINES if v in at), default=math.nan)
        out += [f"{'#' * (level + 1)} {label}: N = 2^{int(math.log2(largest))} points", "", header(rs), ""]
        body = []
        for v in TRAPEZOID_COMPUTE + TRAPEZOID_MEMORY:
            if v not in at:
                continue
            r = at[v]
            if r["throughput_unit"] == "B/s":
                rel = f"{100 * r['throughput'] / copy_bw:.0f}% of copy" if not math.isnan(copy_bw) else "–"
            elif v == "eval_array":
                rel = "–"
            else:
                rel = f"{best_base / r['time_s']:.2f}× best baseline"
            body.append([v, r["param"], fmt_num(r["value"], 15), fmt_num(r["error"], 2), fmt_time(r["time_s"]),
                         fmt_rate(r["throughput"], r["throughput_unit"]), rel])
        out.append(table(["variant", "parameters", "value", "abs. error", "best time", "throughput", "relative"], body))
        ladder = [(at[v]["time_s"], v) for v in LADDER if v in at]
        if ladder and not math.isnan(best_base):
            t, v = min(ladder)
            out += ["", f"Best team-policy ladder: {v}, {best_base / t:.2f}× the best baseline (target ≥ 0.95 on the GPU)."]
        arrays = [(at[v]["throughput"], v) for v in ("array_kk_sum", "array_flat_reduce", "array_sequential_registers")
                  if v in at]
        if arrays and not math.isnan(copy_bw):
            bw, v = max(arrays)
            out += [f"Best array reduction: {v}, {fmt_rate(bw, 'B/s')} = {100 * bw / copy_bw:.0f}% of the copy "
                    f"bandwidth {fmt_rate(copy_bw, 'B/s')} (target ≥ 90% on the GPU)."]
        wrong = sorted((r["size"], r["value"]) for r in rs if r["variant"] == "global_single_launch")
        if wrong:
            out += ["global_single_launch values by size (the race; exact −0.347022…): " +
                    ", ".join(f"2^{int(math.log2(n))}: {v:.6g}" for n, v in wrong) + "."]
        out.append("")
    out += side_by_side(rows, level, lambda r: r["variant"], lambda r: r["throughput"],
                        lambda v, r: fmt_rate(v, r["throughput_unit"]),
                        "Throughput per backend at the largest size all of them ran.")
    return "\n".join(out)


def trapezoid_plot(rows, path, plt):
    groups = by_backend(rows)
    fig, axes = plt.subplots(len(groups), 2, figsize=(13, 4.2 * len(groups)), squeeze=False)
    for (label, rs), (ax_c, ax_m) in zip(groups, axes):
        for ax, variants, unit in ((ax_c, TRAPEZOID_COMPUTE, "points/s"), (ax_m, TRAPEZOID_MEMORY, "B/s")):
            for v in variants:
                pts = sorted((r["size"], r["throughput"]) for r in rs if r["variant"] == v)
                if pts:
                    style = "--" if v.startswith("copy") or v == "global_single_launch" else "-"
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", ms=3, label=v)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("points N")
            ax.set_ylabel(unit)
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=7)
        ax_c.set_title(f"trapezoid, {label}: compute-bound variants")
        ax_m.set_title(f"trapezoid, {label}: array reductions and copy")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ---------------------------------------------------------------------------------------------
# device_sync

def steps_of(r):
    for part in r["param"].split():
        if part.startswith("steps="):
            return int(part[6:])
    return 1


def per_step(r):
    return r["time_s"] / steps_of(r)


def device_sync_report(rows, title, level):
    out = [f"{'#' * level} {title}", ""]
    for label, rs in by_backend(rows):
        sizes = sorted({r["size"] for r in rs})
        at = {(r["variant"], r["size"]): r for r in rs}
        out += [f"{'#' * (level + 1)} {label}", "", header(rs), "", "Cost per step (best of the repetitions):", ""]
        body = []
        for n in sizes:
            c, l, p = at.get(("cpu_loop", n)), at.get(("relaunch", n)), at.get(("persistent", n))
            ratio = per_step(l) / per_step(p) if l and p else math.nan
            teams = next((part[6:] for part in p["param"].split() if part.startswith("teams=")), "–") if p else "–"
            errors = max((r["error"] for r in (l, p) if r and not math.isnan(r["error"])), default=math.nan)
            body.append([n, fmt_time(per_step(c)) if c else "–", fmt_time(per_step(l)) if l else "–",
                         fmt_time(per_step(p)) if p else "–", teams, fmt_num(ratio, 3), fmt_num(errors, 2)])
        out.append(table(["N", "cpu_loop", "relaunch", "persistent", "teams", "relaunch / persistent",
                          "max rel. difference to cpu_loop"], body))
        out += ["", crossover_text(rs, sizes, at), ""]
    device = [r for r in rows if r["variant"] != "cpu_loop"]
    out += side_by_side(device, level, lambda r: (r["variant"], f"N={r['size']}"), per_step,
                        lambda v, r: fmt_time(v), "Cost per step per backend (cpu_loop: the tables above).")
    return "\n".join(out)


def crossover_text(rs, sizes, at):
    notes = []
    faster = [n for n in sizes if ("relaunch", n) in at and ("persistent", n) in at
              and per_step(at[("persistent", n)]) < per_step(at[("relaunch", n)])]
    slower = [n for n in sizes if ("relaunch", n) in at and ("persistent", n) in at and n not in faster]
    if faster and slower:
        notes.append(f"Persistent faster than relaunch at N = {', '.join(map(str, faster))}; "
                     f"not at N = {', '.join(map(str, slower))}.")
    elif faster:
        notes.append("Persistent faster than relaunch at every N measured.")
    elif slower:
        notes.append("Relaunch faster than (or equal to) persistent at every N measured.")
    beats = [n for n in sizes if ("cpu_loop", n) in at and any(
        (v, n) in at and per_step(at[(v, n)]) < per_step(at[("cpu_loop", n)]) for v in ("relaunch", "persistent"))]
    if beats:
        notes.append(f"This backend beats the one-thread CPU loop from N = {min(beats)} "
                     f"(at N = {', '.join(map(str, beats))}).")
    elif any(("cpu_loop", n) in at for n in sizes):
        notes.append("This backend never beats the one-thread CPU loop in the range measured.")
    return " ".join(notes)


def device_sync_plot(rows, path, plt):
    fig, ax = plt.subplots(figsize=(8, 5))
    styles = {"serial": ":", "openmp": "--", "cuda": "-"}
    cpu_loop_drawn = False  # the CPU loop is the same host loop in every run: drawn once
    for label, rs in by_backend(rows):
        for v in ("cpu_loop", "relaunch", "persistent"):
            if v == "cpu_loop" and cpu_loop_drawn:
                continue
            pts = sorted((r["size"], per_step(r)) for r in rs if r["variant"] == v)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] * 1e6 for p in pts], styles.get(rs[0]["backend"], "-"),
                        marker="o", ms=3, label=f"{v}, {label}" if v != "cpu_loop" else "cpu_loop (1 host thread)")
                cpu_loop_drawn = cpu_loop_drawn or v == "cpu_loop"
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("neurons N")
    ax.set_ylabel("µs per step")
    ax.set_title("device_sync: cost per time step")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ---------------------------------------------------------------------------------------------
# warp_cooperation

def select_of(r):
    for part in r["param"].split():
        if part.startswith("select="):
            return part[7:]
    return "?"


def matrix_of(r):
    for part in r["param"].split():
        if part.startswith("matrix="):
            return part[7:]
    return "?"


def warp_report(rows, title, level):
    out = [f"{'#' * level} {title}", ""]
    for label, rs in by_backend(rows):
        out += [f"{'#' * (level + 1)} {label}", "", header(rs), ""]
        queue = [r for r in rs if r["variant"].startswith("queue_")]
        if queue:
            largest = max(r["size"] for r in queue)
            body = []
            for sel in sorted({select_of(r) for r in queue}, key=float, reverse=True):
                item = next((r for r in queue if r["size"] == largest and select_of(r) == sel
                             and r["variant"] == "queue_atomic_per_item"), None)
                group = next((r for r in queue if r["size"] == largest and select_of(r) == sel
                              and r["variant"] == "queue_atomic_per_group"), None)
                if item and group:
                    body.append([sel, fmt_time(item["time_s"]), fmt_time(group["time_s"]),
                                 f"{item['time_s'] / group['time_s']:.2f}×",
                                 fmt_num(max(item["error"], group["error"]), 2)])
            out += [f"Queue insertion, {largest} items:", "",
                    table(["fraction inserting", "atomic per item", "atomic per group", "speed-up",
                           "wrong entries"], body), ""]
        spmv = [r for r in rs if r["variant"].startswith("spmv_")]
        if spmv:
            largest = max(r["size"] for r in spmv)
            body = []
            for matrix in ("banded", "irregular"):
                at = {r["variant"]: r for r in spmv if r["size"] == largest and matrix_of(r) == matrix}
                kk = at.get("spmv_kk_crs")
                for v in ("spmv_ell", "spmv_jds", "spmv_crs_vector", "spmv_kk_crs"):
                    if v in at:
                        r = at[v]
                        body.append([matrix, v, fmt_time(r["time_s"]), fmt_rate(r["throughput"], "flop/s"),
                                     f"{r['time_s'] / kk['time_s']:.2f}" if kk else "–", fmt_num(r["error"], 2)])
            out += [f"SpMV, {largest} rows:", "",
                    table(["matrix", "variant", "best time", "throughput", "time / Kokkos Kernels",
                           "max rel. difference"], body), ""]
    out += side_by_side(rows, level,
                        lambda r: (r["variant"], f"select={select_of(r)}" if r["variant"].startswith("queue")
                                   else f"matrix={matrix_of(r)}"),
                        lambda r: r["time_s"], lambda v, r: fmt_time(v),
                        "Best time per backend at the largest size all of them ran.")
    return "\n".join(out)


def warp_plot(rows, path, plt):
    groups = by_backend(rows)
    fig, axes = plt.subplots(len(groups), 2, figsize=(13, 4.2 * len(groups)), squeeze=False)
    for (label, rs), (ax_q, ax_s) in zip(groups, axes):
        for v in ("queue_atomic_per_item", "queue_atomic_per_group"):
            for sel in sorted({select_of(r) for r in rs if r["variant"] == v}, key=float, reverse=True):
                pts = sorted((r["size"], r["throughput"]) for r in rs if r["variant"] == v and select_of(r) == sel)
                ax_q.plot([p[0] for p in pts], [p[1] for p in pts], "-" if sel == "1" else "--", marker="o", ms=3,
                          label=f"{v}, select={sel}")
        for v in ("spmv_ell", "spmv_jds", "spmv_crs_vector", "spmv_kk_crs"):
            for matrix in ("banded", "irregular"):
                pts = sorted((r["size"], r["throughput"]) for r in rs if r["variant"] == v and matrix_of(r) == matrix)
                if pts:
                    ax_s.plot([p[0] for p in pts], [p[1] for p in pts], "-" if matrix == "banded" else "--",
                              marker="o", ms=3, label=f"{v}, {matrix}")
        for ax, xl, yl, title in ((ax_q, "items", "items/s", "queue insertion"),
                                  (ax_s, "rows", "flop/s", "SpMV")):
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel(xl)
            ax.set_ylabel(yl)
            ax.set_title(f"warp_cooperation, {label}: {title}")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ---------------------------------------------------------------------------------------------

REPORTS = {"trapezoid": ("Trapezoid rule", trapezoid_report, trapezoid_plot),
           "device_sync": ("Device-wide synchronisation", device_sync_report, device_sync_plot),
           "warp_cooperation": ("Warp-level cooperation", warp_report, warp_plot)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="+", help="perf/results/<machine> folders")
    parser.add_argument("--readme", help="Markdown file whose studies section to replace with the tables")
    args = parser.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        plt = None
        print("report.py: matplotlib not found (python3-matplotlib; /usr/bin/python3): tables only", file=sys.stderr)

    sections = []
    for folder in args.folders:
        machine = os.path.basename(os.path.normpath(folder))
        for study in STUDIES:
            rows = read_rows(folder, study)
            if not rows:
                continue
            title, report, plot = REPORTS[study]
            with open(os.path.join(folder, f"{study}.md"), "w") as f:
                f.write(report(rows, f"{title} on {machine}", 1) + f"\n![{study}]({study}.png)\n")
            if plt is not None:
                plot(rows, os.path.join(folder, f"{study}.png"), plt)
            print(f"wrote {folder}/{study}.md" + (" and .png" if plt is not None else ""))
            sections.append(report(rows, f"{title} on {machine}", 3) +
                            f"\n![{study} on {machine}](results/{machine}/{study}.png)\n")

    if args.readme:
        with open(args.readme) as f:
            text = f.read()
        begin, end = "<!-- studies:begin -->", "<!-- studies:end -->"
        if begin not in text or end not in text:
            sys.exit(f"report.py: {args.readme} has no {begin} ... {end} section")
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        body = "\n".join(sections)
        with open(args.readme, "w") as f:
            f.write(head + begin + "\n\n" + body.strip() + "\n\n" + end + tail)
        print(f"updated {args.readme}")


if __name__ == "__main__":
    main()
