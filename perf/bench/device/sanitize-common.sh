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
