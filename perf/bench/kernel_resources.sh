#!/usr/bin/env bash
# Registers, stack and spills of the CUDA search kernels, from ptxas (no GPU needed): recompiles
# search/solve.cpp with the build's own command plus -Xptxas=-v into a temporary object.
# usage: perf/bench/kernel_resources.sh [BUILD_DIR (default build/cuda)] [extra nvcc flags, e.g. -DKCP_CUDA_MIN_BLOCKS=4]
# Prints one line per kernel: Concurrent (teams of several threads) or not, Holes (bitsets) or not,
# registers, stack, spills;
# with 256-thread teams, 65,536 / (256 x registers rounded up to 8) is the resident teams per SM.
set -euo pipefail
build=${1:-build/cuda}; shift || true
cmd=$(cd "$build" && ninja -t commands search/CMakeFiles/kcp_search.dir/solve.cpp.o | tail -1)
[ -n "$cmd" ] || { echo "kernel_resources: no compile command for search/solve.cpp in $build" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# Same command, other object and dependency file, verbose ptxas.
cmd=$(sed -e "s| -o [^ ]*solve.cpp.o| -o $tmp/solve.o|" -e "s| -MF [^ ]*| -MF $tmp/solve.d|" <<<"$cmd")
(cd "$build" && eval "$cmd -Xptxas=-v $*") > "$tmp/ptxas.txt" 2>&1 || { cat "$tmp/ptxas.txt" >&2; exit 1; }
awk '/Compiling entry function/ { kernel = ($0 ~ /ParallelSearch/) ? $0 : ""; next }
     kernel != "" && /stack frame/ { frame = $0 }
     kernel != "" && /Used [0-9]+ registers/ {
       match(kernel, /ParallelSearchINS_4CudaELb[01]ELb[01]E/); conc = substr(kernel, RSTART + RLENGTH - 6, 1)
       holes = substr(kernel, RSTART + RLENGTH - 2, 1)
       match($0, /Used [0-9]+ registers/); regs = substr($0, RSTART + 5, RLENGTH - 15)
       gsub(/^ +/, "", frame)
       printf "search kernel, Concurrent=%s Holes=%s: %s registers; %s\n", (conc == "1" ? "true" : "false"),
              (holes == "1" ? "true" : "false"), regs, frame
       kernel = "" }' "$tmp/ptxas.txt"
