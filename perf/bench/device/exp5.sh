#!/usr/bin/env bash
# Session 2, device call 5: compute-sanitizer memcheck and racecheck on the CUDA tests of kcp_tests.
set -u
T=build/gpu/bin/kcp_tests-471de0c
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
echo "compute-sanitizer: $CS"; $CS --version | tail -1
cd build/gpu && ln -sf . build 2>/dev/null; cd - >/dev/null
export OMP_PROC_BIND=false
timeout 320 $CS --tool memcheck --leak-check full --error-exitcode 9 $T --gtest_filter='*/Cuda.*:-*EveryBranchingChoice*' > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$?"
tail -4 $OUT/memcheck.txt
timeout 230 $CS --tool racecheck --error-exitcode 9 $T --gtest_filter='FixpointOnBackend/Cuda.*:SearchOnBackend/Cuda.EveryTeamAndSubproblem*:SearchOnBackend/Cuda.OptimumIsTheSame*' > $OUT/racecheck.txt 2>&1; echo "racecheck rc=$?"
tail -4 $OUT/racecheck.txt
