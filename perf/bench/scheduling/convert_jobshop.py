#!/usr/bin/env python3
"""Converts MiniZinc/minizinc-benchmarks' jobshop/jobshop_NAME.dzn (job_task_machine, job_task_duration) to
jobshop2's format (models/jobshop/jobshop.mzn: n, m, job[i] = machine, duration per task, machines from 0).

usage: convert_jobshop.py SUITE_DIR NAME... (writes models/jobshop/NAME.dzn beside this script)"""
import pathlib
import re
import sys


def array2d(text, name):
    m = re.search(name + r'\s*=\s*array2d\([^\[]*\[([^\]]*)\]', text, re.S)
    return [int(x) for x in re.findall(r'-?\d+', m.group(1))]


def main():
    suite = pathlib.Path(sys.argv[1])
    out = pathlib.Path(__file__).resolve().parent / 'models' / 'jobshop'
    for name in sys.argv[2:]:
        src = (suite / 'jobshop' / f'jobshop_{name}.dzn').read_text()
        n = int(re.search(r'n_jobs\s*=\s*(\d+)', src).group(1))
        m = int(re.search(r'n_machines\s*=\s*(\d+)', src).group(1))
        mach, dur = array2d(src, 'job_task_machine'), array2d(src, 'job_task_duration')
        assert len(mach) == n * m == len(dur), name
        rows = [', '.join(f'{mach[i * m + j]},{dur[i * m + j]}' for j in range(m)) for i in range(n)]
        (out / f'{name}.dzn').write_text(
            f"{src.splitlines()[0]}\n% Converted from MiniZinc/minizinc-benchmarks jobshop/jobshop_{name}.dzn (machine, duration per task) to\n"
            f"% jobshop2's format by perf/bench/scheduling/convert_jobshop.py.\nn={n};\nm={m};\njob = [| "
            + '\n       | '.join(rows) + ' |];\n')


if __name__ == '__main__':
    main()
