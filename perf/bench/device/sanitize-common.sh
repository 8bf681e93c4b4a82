# Sourced by exp12.sh and exp13.sh (issue 9's CUDA checks) with the revision as $1: the kcp binary B,
# the quick test binary T (KCP_TEST_QUICK shrinks the branching test for racecheck), compute-sanitizer
# CS, and $OUT/b for the results.
set -u
REV=$1
B=build/gpu/bin/kcp-$REV
T=build/gpu/race/kcp_tests-${REV}q
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
mkdir -p "$OUT/b"
export OMP_PROC_BIND=false KCP_TEST_QUICK=1

# racecheck_cases SECONDS FILTER...: racecheck on each gtest filter in turn until SECONDS have passed;
# a line per case (rc, racecheck's summary, cases passed, seconds), the full output kept when not clean.
# Several may run at once (each output has its own file).
racecheck_cases() {
  local limit=$1 start=$SECONDS c left rc t0 log; shift
  for c in "$@"; do
    left=$((limit - (SECONDS - start)))
    [ $left -lt 10 ] && { echo "$c: not run (time)"; continue; }
    log=$(mktemp); t0=$SECONDS
    timeout $left $CS --tool racecheck $T --gtest_filter="$c" > $log 2>&1
    rc=$?
    echo "$c rc=$rc $(grep -E 'RACECHECK SUMMARY' $log) $(grep -cE '^\[       OK \]' $log) ok $((SECONDS - t0)) s"
    grep -q "0 hazards displayed" $log || cp $log "$OUT/b/racecheck-${c//[\/*]/-}.txt"
    rm -f $log
  done
}
