#!/usr/bin/env bash
# Every flag kcp.msc offers MiniZinc (its extraFlags) is one kcp accepts: each name appears among the
# options `kcp --help-all` lists (a flag retired from kcp but left in kcp.msc would make
# `minizinc --solver kcp --FLAG` fail at run time).
# usage: msc-flags.sh KCP KCP_MSC
set -u
kcp=$1 msc=$2
python3 - "$kcp" "$msc" <<'PY'
import json, re, subprocess, sys
kcp, msc = sys.argv[1], sys.argv[2]
flags = [f[0] for f in json.load(open(msc)).get("extraFlags", [])]
help_all = subprocess.run([kcp, "--help-all"], capture_output=True, text=True).stdout
known = set(re.findall(r"(?<![\w-])(--?[\w][\w-]*)", help_all))
missing = [f for f in flags if f not in known]
print(f"{len(flags)} extraFlags, {len(missing)} unknown to kcp: {' '.join(missing)}")
sys.exit(1 if missing or not flags else 0)
PY
