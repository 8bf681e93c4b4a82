#!/usr/bin/env bash
# Too little memory is a clear error, not a crash: under a 100 MB address-space limit (ulimit -v) kcp
# still solves queens, and stops with "out of memory while <what it was doing>" and exit 1 where a
# model does not fit while parsing, or the search's decision stacks do not fit at set-up.
# usage: memory.sh KCP_BINARY (not for ASan or CUDA builds, which reserve more address space than that)
set -uo pipefail
kcp=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
limited() { (ulimit -v 100000; "$kcp" -p 1 --space serial "$@" > "$tmp/out" 2> "$tmp/err"); echo $?; }
queens=$(dirname "$0")/../../examples/queens.fzn

rc=$(limited "$queens")
check "queens fits in 100 MB (rc $rc)" "[ $rc = 0 ] && grep -q '^----------$' $tmp/out"

# 300,000 variables in a chain: about 16 MB of FlatZinc, more than 100 MB parsed.
awk 'BEGIN { n = 300000; for (i = 1; i <= n; i++) printf "var 0..9: x%d;\n", i;
             for (i = 1; i < n; i++) printf "constraint int_le(x%d, x%d);\n", i, i + 1; print "solve satisfy;" }' > "$tmp/chain.fzn"
rc=$(limited "$tmp/chain.fzn")
check "a model too large to parse: exit 1 (rc $rc)" "[ $rc = 1 ]"
check "... names what ran out: $(head -c 200 $tmp/err)" "grep -q '^kcp: error: out of memory while parsing .*chain.fzn$' $tmp/err"

# 100,000 teams of 100,000 decisions each: 186 GB of decision stacks.
rc=$(limited --teams 100000 --max-depth 100000 "$queens")
check "decision stacks too large: exit 1 (rc $rc)" "[ $rc = 1 ]"
check "... names the search and the allocation: $(head -c 200 $tmp/err)" \
  "grep -q '^kcp: error: out of memory while setting up and running the search (--space serial.*kcp::search::decisions' $tmp/err"
check "... no traceback noise" "! grep -q Traceback $tmp/err"

[ $fail = 0 ] && echo "all passed"
exit $fail
