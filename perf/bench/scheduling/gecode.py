#!/usr/bin/env python3
"""Gecode rows for the scheduling set: fzn-gecode -time T on each standard-library FlatZinc (compile.sh without a
library), the objective made an output variable where the model does not print it; one CSV row per instance
(instance, status OPTIMAL|SATISFIED|UNKNOWN, objective, time_s). usage: gecode.py FZN_DIR OUT.csv [TIME_MS] [JOBS]"""
import concurrent.futures
import csv
import pathlib
import re
import subprocess
import sys
import time


def run(fzn, ms):
    text = fzn.read_text()
    obj = re.search(r'solve\b.*?(minimize|maximize)\s+([A-Za-z_][A-Za-z0-9_]*)\s*;', text, re.S).group(2)
    decl = re.compile(r'^(var [^\n]*?:\s*' + re.escape(obj) + r')(\s*(?:::[^=;\n]*)?)([=;])', re.M)
    if not re.search(r':\s*' + re.escape(obj) + r'\s*::[^;\n]*output_var', text):
        text = decl.sub(lambda m: m.group(1) + m.group(2) + ' :: output_var ' + m.group(3), text, count=1)
    tmp = pathlib.Path('/tmp') / ('gecode-' + fzn.name)
    tmp.write_text(text)
    start = time.time()
    out = subprocess.run(['fzn-gecode', '-time', str(ms), str(tmp)], capture_output=True, text=True).stdout
    took = time.time() - start
    values = re.findall(r'^' + re.escape(obj) + r'\s*=\s*(-?\d+);', out, re.M)
    status = 'OPTIMAL' if '==========' in out else ('SATISFIED' if values else 'UNKNOWN')
    return {'instance': fzn.stem, 'status': status, 'objective': values[-1] if values else '', 'time_s': f'{took:.3f}'}


def main():
    folder, out = pathlib.Path(sys.argv[1]), sys.argv[2]
    ms = int(sys.argv[3]) if len(sys.argv) > 3 else 15000
    jobs = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    files = sorted(folder.glob('*.fzn'))
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        rows = list(pool.map(lambda f: run(f, ms), files))
    with open(out, 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=['instance', 'status', 'objective', 'time_s'])
        w.writeheader()
        w.writerows(rows)


if __name__ == '__main__':
    main()
