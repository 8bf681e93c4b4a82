#!/usr/bin/env python3
"""Where a kernel's warps stall, from Nsight Compute's SASS source page as CSV
(`ncu -i REPORT --page source --csv --print-source sass > FILE`, perf/bench/device/exp44.sh):
the share of stall samples and of executed instructions by opcode, by window of consecutive
instructions (a loop or an inlined function shows as one hot window), and at each barrier
(a barrier stall is sampled on the instructions right after the BAR).
usage: perf/bench/ncu_sass.py FILE.csv [--window 256] [--top 12]"""
import argparse
import collections
import csv


def num(x):
    try:
        return float(x.replace(',', ''))
    except ValueError:
        return 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('csv')
    ap.add_argument('--window', type=int, default=256)
    ap.add_argument('--top', type=int, default=12)
    a = ap.parse_args()
    rows = list(csv.reader(open(a.csv)))
    head = next(i for i, r in enumerate(rows) if r and r[0] == 'Address')
    ix = {k: i for i, k in enumerate(rows[head])}
    data = rows[head + 1:]
    S, E, B = ix['Warp Stall Sampling (All Samples)'], ix['Instructions Executed'], ix['stall_barrier']
    src = ix['Source']
    samples = sum(num(r[S]) for r in data) or 1
    executed = sum(num(r[E]) for r in data) or 1
    print(f'{len(data)} instructions, {samples:.0f} stall samples, {executed:.0f} warp instructions executed')
    print('stall reasons:', ', '.join(f'{k[6:]} {100 * v / samples:.1f}%' for v, k in sorted(
        ((sum(num(r[ix[k]]) for r in data), k) for k in rows[head] if k.startswith('stall_') and '(' not in k),
        reverse=True)[:6]))
    ops_s, ops_e = collections.Counter(), collections.Counter()
    for r in data:
        words = [w for w in r[src].split() if not w.startswith('@')]
        op = words[0].split('.')[0] if words else ''
        ops_s[op] += num(r[S])
        ops_e[op] += num(r[E])
    print('by opcode (samples, executed):', ', '.join(
        f'{op} {100 * v / samples:.1f}%/{100 * ops_e[op] / executed:.1f}%' for op, v in ops_s.most_common(a.top)))
    win = collections.defaultdict(lambda: [0.0, 0.0])
    for k, r in enumerate(data):
        win[k // a.window][0] += num(r[S])
        win[k // a.window][1] += num(r[E])
    print(f'windows of {a.window} instructions, by executed:')
    for w, (s, e) in sorted(win.items(), key=lambda kv: -kv[1][1])[:a.top]:
        print(f'  [{w * a.window:6d}..] executed {100 * e / executed:5.1f}%  samples {100 * s / samples:5.1f}%')
    bars = []
    for k, r in enumerate(data):
        if 'BAR' in r[src] and num(r[E]) > 0:
            bars.append((sum(num(data[j][B]) for j in range(k, min(k + 3, len(data)))), k, num(r[E])))
    print(f'barriers executed: {len(bars)} sites, stall samples after them {100 * sum(b[0] for b in bars) / samples:.1f}%')
    for s, k, e in sorted(bars, reverse=True)[:a.top]:
        print(f'  BAR at {k:6d}: {100 * s / samples:5.1f}% of samples, executed {e:.0f}')


if __name__ == '__main__':
    main()
