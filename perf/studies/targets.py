#!/usr/bin/env python3
"""The five GPU targets of issue 6, computed from one machine's CSVs, with the arithmetic shown.

    python3 perf/studies/targets.py [perf/results/<machine>] [--backend cuda] [--detail]

Reads trapezoid-, device_sync- and warp_cooperation-<backend>.csv (best time of each row, as the
tables do) and prints Markdown: each target's rows, sizes, ratio, and met or missed. --detail adds
the counts behind the explanations in perf/README.md ("Targets on the GPU"), recomputed in pure
Python from the drivers' own hash functions (about 90 s on one core): the atomics each queue variant
issues, the per-atomic cost on every backend of the folder, and the warp work and 32-byte sectors of
ELL and JDS on the irregular matrix. Plain Python 3, no other package.
"""

import argparse
import csv
import math
import os
from collections import defaultdict

LADDER = ["interleaved_host_sum", "interleaved_two_pass", "sequential_two_pass", "sequential_registers"]
BASELINES = ["flat_parallel_reduce", "nested_team_vector"]
ARRAYS = ["array_flat_reduce", "array_sequential_registers", "array_kk_sum"]
COPIES = ["copy_deep_copy", "copy_kernel"]
M32 = 0xFFFFFFFF


def read(folder, study, backend):
    path = os.path.join(folder, f"{study}-{backend}.csv")
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            for k in ("time_s", "time_median_s", "throughput", "value"):
                r[k] = float(r[k]) if r[k] != "" else math.nan
            r["size"] = int(r["size"])
            rows.append(r)
    return rows


def index(rows, key=lambda r: r["variant"]):
    at = defaultdict(dict)
    for r in rows:
        at[r["size"]][key(r)] = r
    return at


def us(s):
    return f"{s * 1e6:.1f} µs" if s < 1e-3 else f"{s * 1e3:.3f} ms"


def tb(bps):
    return f"{bps / 1e12:.3f} TB/s"


def verdict(ok):
    return "**met**" if ok else "**missed**"


def log2(n):
    return n.bit_length() - 1


def hash32(x):
    """queue.hpp's hash32 (the same function makes the irregular matrix in matrices.cpp)."""
    x &= M32
    x ^= x >> 16
    x = (x * 0x7FEB352D) & M32
    x ^= x >> 15
    x = (x * 0x846CA68B) & M32
    x ^= x >> 16
    return x


def trapezoid(folder, backend, out):
    at = index(read(folder, "trapezoid", backend))
    n = max(at)
    row = at[n]
    base_t, base_v = min((row[v]["time_s"], v) for v in BASELINES)
    lad_t, lad_v = min((row[v]["time_s"], v) for v in LADDER)
    ratio = base_t / lad_t
    met_sizes = [s for s in sorted(at) if min(at[s][v]["time_s"] for v in BASELINES) /
                 min(at[s][v]["time_s"] for v in LADDER) >= 0.95]
    out.append(f"## 1. Trapezoid: best team-policy ladder ≥ 0.95× the best baseline\n")
    held = ", ".join(f"2^{log2(s)}" for s in met_sizes) or "none"
    out.append(f"`trapezoid-{backend}.csv`, N = 2^{log2(n)} (largest size), best times: best ladder "
               f"`{lad_v}` {us(lad_t)}, best baseline `{base_v}` {us(base_t)}; ratio = {us(base_t)} / "
               f"{us(lad_t)} = **{ratio:.3f}×** → {verdict(ratio >= 0.95)}. Sizes at which it holds: {held}.")
    out.append("")
    out.append(f"| N | best ladder | best baseline | ratio |\n|---|---|---|---|")
    for s in sorted(at):
        b = min((at[s][v]["time_s"], v) for v in BASELINES)
        l = min((at[s][v]["time_s"], v) for v in LADDER)
        out.append(f"| 2^{log2(s)} | {l[1]} {us(l[0])} | {b[1]} {us(b[0])} | {b[0] / l[0]:.3f} |")
    out.append("")
    return ratio >= 0.95, ratio


def array_bandwidth(folder, backend, out):
    at = index(read(folder, "trapezoid", backend))
    sizes = sorted(at)
    n = sizes[-1]
    row = at[n]
    arr_bw, arr_v = max((row[v]["throughput"], v) for v in ARRAYS)
    cp_bw, cp_v = max((row[v]["throughput"], v) for v in COPIES)
    ratio = arr_bw / cp_bw
    out.append("## 2. Array reduction ≥ 90% of copy bandwidth\n")
    out.append(f"`trapezoid-{backend}.csv`, N = 2^{log2(n)} doubles ({8 * n / 1e9:.2f} GB read): best array "
               f"reduction `{arr_v}` {8 * n / 1e9:.3f} GB / {us(row[arr_v]['time_s'])} = {tb(arr_bw)}; copy "
               f"bandwidth `{cp_v}` {16 * n / 1e9:.3f} GB (read + written) / {us(row[cp_v]['time_s'])} = "
               f"{tb(cp_bw)}; ratio = **{100 * ratio:.1f}%** → {verdict(ratio >= 0.90)}.")
    out.append("")
    out.append("| N | best reduction | copy | % of copy | median-time % |\n|---|---|---|---|---|")
    for s in sizes:
        a = max((at[s][v]["throughput"], v) for v in ARRAYS)
        c = max((at[s][v]["throughput"], v) for v in COPIES)
        am = max(8 * s / at[s][v]["time_median_s"] for v in ARRAYS)
        cm = max(16 * s / at[s][v]["time_median_s"] for v in COPIES)
        out.append(f"| 2^{log2(s)} | {a[1]} {tb(a[0])} | {c[1]} {tb(c[0])} | {100 * a[0] / c[0]:.1f}% | "
                   f"{100 * am / cm:.1f}% |")
    # Fixed cost and marginal rate of the best reduction at the largest size, and of the copy.
    small = [s for s in sizes if s <= 2 ** 20]
    floor = min(at[s][arr_v]["time_s"] for s in small)
    cfloor = min(at[s][cp_v]["time_s"] for s in small)
    a1, a0 = row[arr_v]["time_s"], at[sizes[-2]][arr_v]["time_s"]
    c1, c0 = row[cp_v]["time_s"], at[sizes[-2]][cp_v]["time_s"]
    marg_a = 8 * (n - sizes[-2]) / (a1 - a0)
    marg_c = 16 * (n - sizes[-2]) / (c1 - c0)
    out.append("")
    out.append(f"Fixed cost: `{arr_v}` takes {us(floor)} at its fastest for N ≤ 2^20 (a launch, the reduction's "
               f"last stage and the copy of the result to the host), `{cp_v}` {us(cfloor)}. Without it, at "
               f"2^{log2(n)}: {8 * n / 1e9:.3f} GB / ({us(a1)} − {us(floor)}) = {tb(8 * n / (a1 - floor))} = "
               f"{100 * 8 * n / (a1 - floor) / (16 * n / (c1 - cfloor)):.1f}% of the copy's "
               f"{tb(16 * n / (c1 - cfloor))}. Marginal rates between 2^{log2(sizes[-2])} and 2^{log2(n)}: "
               f"reduction {8 * (n - sizes[-2]) / 1e9:.3f} GB / {us(a1 - a0)} = {tb(marg_a)}, copy "
               f"{16 * (n - sizes[-2]) / 1e9:.3f} GB / {us(c1 - c0)} = {tb(marg_c)}: "
               f"{100 * marg_a / marg_c:.1f}%.")
    out.append("")
    return ratio >= 0.90, ratio


def device_sync(folder, backend, out):
    at = index(read(folder, "device_sync", backend))
    sizes = sorted(at)
    n = sizes[0]
    rel, per = at[n]["relaunch"], at[n]["persistent"]
    steps = int(per["param"].split("steps=")[1].split()[0])
    ratio = rel["time_s"] / per["time_s"]
    out.append("## 3. Persistent kernel ≥ 2× faster per step than relaunch at small N\n")
    out.append(f"`device_sync-{backend}.csv`, N = {n} (smallest size), {steps} steps: relaunch "
               f"{us(rel['time_s'])} / {steps} = {us(rel['time_s'] / steps)} per step, persistent "
               f"({per['param'].split('steps=')[1].split(' ', 1)[1]}) {us(per['time_s'])} / {steps} = "
               f"{us(per['time_s'] / steps)} per step; ratio = **{ratio:.3f}×** → {verdict(ratio >= 2)}. "
               f"2× would need the persistent step ≤ {us(rel['time_s'] / steps / 2)}.")
    out.append("")
    out.append("| N | teams | relaunch / step | persistent / step | relaunch / persistent |\n|---|---|---|---|---|")
    for s in sizes:
        r, p = at[s]["relaunch"], at[s]["persistent"]
        teams = p["param"].split("teams=")[1].split()[0]
        out.append(f"| {s} | {teams} | {us(r['time_s'] / steps)} | {us(p['time_s'] / steps)} | "
                   f"{r['time_s'] / p['time_s']:.2f} |")
    out.append("")
    return ratio >= 2, ratio


def queue_key(r):
    return (r["variant"], r["param"].split()[0])


def queue(folder, backend, out):
    rows = [r for r in read(folder, "warp_cooperation", backend) if r["variant"].startswith("queue")]
    at = index(rows, queue_key)
    n = max(at)
    item = at[n][("queue_atomic_per_item", "select=1")]
    group = at[n][("queue_atomic_per_group", "select=1")]
    ratio = item["time_s"] / group["time_s"]
    out.append("## 4. Aggregated atomics ≥ 5× per-thread atomics under contention\n")
    out.append(f"`warp_cooperation-{backend}.csv`, N = 2^{log2(n)} items, select = 1 (every item inserts): "
               f"per item {us(item['time_s'])}, per group {us(group['time_s'])}; ratio = {us(item['time_s'])} / "
               f"{us(group['time_s'])} = **{ratio:.3f}×** → {verdict(ratio >= 5)}.")
    out.append("")
    out.append("| N | per item, select=1 | per group, select=1 | ratio | per item, select=0.1 | per group, "
               "select=0.1 | ratio |\n|---|---|---|---|---|---|---|")
    for s in sorted(at):
        cells = []
        for sel in ("select=1", "select=0.1"):
            a, b = at[s][("queue_atomic_per_item", sel)], at[s][("queue_atomic_per_group", sel)]
            cells += [us(a["time_s"]), us(b["time_s"]), f"{a['time_s'] / b['time_s']:.2f}"]
        out.append(f"| 2^{log2(s)} | " + " | ".join(cells) + " |")
    out.append("")
    return ratio >= 5, ratio


def spmv(folder, backend, out):
    rows = [r for r in read(folder, "warp_cooperation", backend) if r["variant"].startswith("spmv")]
    at = index(rows, lambda r: (r["variant"], r["param"].split()[0]))
    n = max(at)
    out.append("## 5. ELL/JDS within 1.2× of Kokkos Kernels or faster\n")
    out.append(f"`warp_cooperation-{backend}.csv`, {n} rows (2^{log2(n)}), time / `spmv_kk_crs` time "
               f"(≤ 1.2 meets):\n")
    out.append("| matrix | layout | time | Kokkos Kernels | ratio | |\n|---|---|---|---|---|---|")
    result = {}
    for m in ("matrix=banded", "matrix=irregular"):
        kk = at[n][("spmv_kk_crs", m)]["time_s"]
        for v in ("spmv_ell", "spmv_jds"):
            t = at[n][(v, m)]["time_s"]
            result[(v, m)] = t / kk
            out.append(f"| {m.split('=')[1]} | {v} | {us(t)} | {us(kk)} | {us(t)} / {us(kk)} = **{t / kk:.3f}** | "
                       f"{verdict(t / kk <= 1.2)} |")
    out.append("")
    out.append("The same ratio at every size (ELL / JDS against Kokkos Kernels):\n")
    out.append("| rows | banded ELL | banded JDS | irregular ELL | irregular JDS |\n|---|---|---|---|---|")
    for s in sorted(at):
        cells = []
        for m in ("matrix=banded", "matrix=irregular"):
            kk = at[s][("spmv_kk_crs", m)]["time_s"]
            cells += [f"{at[s][(v, m)]['time_s'] / kk:.2f}" for v in ("spmv_ell", "spmv_jds")]
        out.append(f"| 2^{log2(s)} | " + " | ".join(cells) + " |")
    out.append("")
    return all(r <= 1.2 for r in result.values()), result


def groups_with_a_passing_item(n, permille, width=32):
    """Groups of `width` consecutive items with at least one item passing Selection (queue.hpp)."""
    groups = 0
    for first in range(0, n, width):
        if any(hash32(i) % 1000 < permille for i in range(first, min(first + width, n))):
            groups += 1
    return groups


def queue_detail(folder, out):
    out.append("## Detail: queue: atomics issued and cost per atomic\n")
    out.append("Atomics on the one tail counter: per item, one per inserting item (`value`); per group, one "
               "per group of 32 with an inserting item (counted here with the driver's hash). On CUDA the "
               "SASS shows that the per-item kernel also issues one per warp (perf/README.md), so both "
               "columns' time is divided by the group count there.\n")
    out.append("| backend | N | select | per item: atomics, time / atomic | per group: atomics, time / atomic |"
               "\n|---|---|---|---|---|")
    counts = {}
    for backend in ("openmp", "cuda"):
        path = os.path.join(folder, f"warp_cooperation-{backend}.csv")
        if not os.path.exists(path):
            continue
        rows = [r for r in read(folder, "warp_cooperation", backend) if r["variant"].startswith("queue")]
        at = index(rows, queue_key)
        n = max(at)
        for sel, permille in (("select=1", 1000), ("select=0.1", 100)):
            if (n, permille) not in counts:
                counts[(n, permille)] = n // 32 if permille == 1000 else groups_with_a_passing_item(n, permille)
            g = counts[(n, permille)]
            a, b = at[n][("queue_atomic_per_item", sel)], at[n][("queue_atomic_per_group", sel)]
            item_atomics = int(a["value"]) if backend != "cuda" else g
            out.append(f"| {backend} | 2^{log2(n)} | {sel.split('=')[1]} | {item_atomics:,}, "
                       f"{a['time_s'] / item_atomics * 1e9:.2f} ns | {g:,}, {b['time_s'] / g * 1e9:.2f} ns |")
    out.append("")


def irregular_row_lengths(n):
    """Row lengths of matrices.cpp's irregular_matrix(n) after removing repeated columns."""
    lengths = []
    for i in range(n):
        kind, h = hash32(i) % 1000, hash32(i ^ 0x5BD1E995)
        length = 1 + h % 8 if kind < 800 else (9 + h % 24 if kind < 990 else 64 + h % 65)
        base = (i * 131 + 7) & M32
        lengths.append(len({(hash32(base + k) * n) >> 32 for k in range(length)}))
    return lengths


def warp_work(lengths, address):
    """Iterations of 32-lane warps over consecutive rows (each runs to its longest row) and the 32-byte
    sectors its loads of val (8 B) and col (4 B) touch, lanes of shorter rows being masked off."""
    iterations = val_sectors = col_sectors = 0
    for w in range(0, len(lengths), 32):
        ls = lengths[w:w + 32]
        longest = max(ls)
        iterations += longest
        for k in range(longest):
            addrs = [address(k, w + j) for j, l in enumerate(ls) if l > k]
            val_sectors += len({a // 4 for a in addrs})
            col_sectors += len({a // 8 for a in addrs})
    return iterations, val_sectors, col_sectors


def spmv_detail(folder, backend, out):
    rows = [r for r in read(folder, "warp_cooperation", backend)
            if r["variant"].startswith("spmv") and "matrix=irregular" in r["param"]]
    n = max(r["size"] for r in rows)
    nnz_csv = int(next(r for r in rows if r["size"] == n)["param"].split("nnz=")[1].split()[0])
    lengths = irregular_row_lengths(n)
    nnz = sum(lengths)
    # ELL on CUDA: LayoutLeft, entry k of row r at k n + r. JDS: rows sorted longest first, diagonal d
    # of sorted row r at start(d) + r.
    ell = warp_work(lengths, lambda k, r: k * n + r)
    ordered = sorted(lengths, reverse=True)
    rows_of_length = [0] * (ordered[0] + 1)
    for l in ordered:
        rows_of_length[l] += 1
    start, longer = [0], len(ordered)  # longer: rows with more than d entries
    for d in range(ordered[0]):
        longer -= rows_of_length[d]
        start.append(start[-1] + longer)
    jds = warp_work(ordered, lambda d, r: start[d] + r)
    out.append("## Detail: SpMV: warp work of ELL and JDS on the irregular matrix\n")
    out.append(f"irregular_matrix(2^{log2(n)}) rebuilt from matrices.cpp's hashes: {nnz:,} entries "
               f"({'the same as' if nnz == nnz_csv else 'NOT the same as'} the CSV's nnz={nnz_csv:,}). A warp "
               f"is 32 consecutive rows (one per lane, for_each_row) and runs as many iterations as its longest "
               f"row.\n")
    out.append("| layout | warp iterations | lane slots used | 32-byte sectors of val + col | bytes |\n"
               "|---|---|---|---|---|")
    for name, (it, sv, sc) in (("ELL (column-major)", ell), ("JDS (sorted rows)", jds)):
        out.append(f"| {name} | {it:,} | {nnz:,} / {32 * it:,} = {100 * nnz / (32 * it):.1f}% | "
                   f"{sv:,} + {sc:,} | {32 * (sv + sc) / 1e6:.0f} MB |")
    out.append(f"| CRS, contiguous (least possible) | – | – | – | {12 * nnz / 1e6:.0f} MB |")
    out.append("")
    out.append(f"ELL / JDS: {ell[0] / jds[0]:.2f}× the warp iterations, "
               f"{(ell[1] + ell[2]) / (jds[1] + jds[2]):.2f}× the sectors of the matrix arrays.\n")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(here, "..", "results", "nvidia-h100-80gb-hbm3")
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", default=default, help="perf/results/<machine>")
    parser.add_argument("--backend", default="cuda")
    parser.add_argument("--detail", action="store_true", help="also the counts behind the explanations (slow)")
    args = parser.parse_args()
    out = []
    results = [("best team-policy trapezoid / best baseline ≥ 0.95", trapezoid(args.folder, args.backend, out)),
               ("array reduction / copy bandwidth ≥ 90%", array_bandwidth(args.folder, args.backend, out)),
               ("relaunch / persistent per step ≥ 2 at small N", device_sync(args.folder, args.backend, out)),
               ("per-item / per-group atomics ≥ 5 (select = 1)", queue(args.folder, args.backend, out)),
               ("ELL and JDS time / Kokkos Kernels ≤ 1.2", spmv(args.folder, args.backend, out))]
    summary = ["| target | measured | |", "|---|---|---|"]
    for name, (ok, value) in results:
        if isinstance(value, dict):
            shown = ", ".join(f"{v.split('_')[1].upper()} {m.split('=')[1]} {r:.2f}" for (v, m), r in value.items())
        elif "90%" in name:
            shown = f"{100 * value:.1f}%"
        else:
            shown = f"{value:.2f}×"
        status = verdict(ok)
        if isinstance(value, dict) and not ok:
            status += " for " + ", ".join(f"{v.split('_')[1].upper()} {m.split('=')[1]}"
                                          for (v, m), r in value.items() if r > 1.2) + ", met for the others"
        summary.append(f"| {name} | {shown} | {status} |")
    machine = os.path.basename(os.path.normpath(args.folder))
    print(f"# Targets of issue 6 on {machine} ({args.backend})\n")
    print(f"Written by `python3 perf/studies/targets.py{' --detail' if args.detail else ''}` from the CSVs in "
          f"`perf/results/{machine}/` (best time of each row, as in the tables). What each miss comes from: "
          f"perf/README.md, \"Targets on the GPU\".\n")
    print("\n".join(summary) + "\n")
    print("\n".join(out))
    if args.detail:
        detail = []
        queue_detail(args.folder, detail)
        spmv_detail(args.folder, args.backend, detail)
        print("\n".join(detail))


if __name__ == "__main__":
    main()
