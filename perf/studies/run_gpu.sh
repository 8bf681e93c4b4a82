#!/usr/bin/env bash
# Runs the perf studies on a GPU machine: each study on cuda, then on openmp with 16 threads, from a
# cuda build (one binary has both). Results go to $OUT/perf/results/<machine>/, ready to be copied
# into the repository and committed; then perf/studies/report.py writes the tables and plots.
#
#   perf/studies/run_gpu.sh [--build] [trapezoid] [device_sync] [warp_cooperation]
#
# --build first builds the three drivers with the cuda preset (scripts/setup-deps.sh cuda first).
# With no study named, all three run (about 5 minutes on an H100 host with 16 cores; each study
# alone stays well under 10 minutes). Environment: OUT (default ./gpu-results), MACHINE (default
# from the GPU's name, e.g. nvidia-h100-80gb-hbm3), BUILD_DIR (default build/cuda), THREADS (16),
# SMOKE=1 (small sizes only, about 20 s: checks a build, results not for committing).
set -uo pipefail

cd "$(dirname "$0")/../.." || exit 1
build=0
studies=()
for arg in "$@"; do
  case "$arg" in
    --build) build=1 ;;
    trapezoid | device_sync | warp_cooperation) studies+=("$arg") ;;
    *) echo "run_gpu.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done
[ ${#studies[@]} -eq 0 ] && studies=(trapezoid device_sync warp_cooperation)

OUT=${OUT:-$PWD/gpu-results}
BUILD_DIR=${BUILD_DIR:-build/cuda}
THREADS=${THREADS:-16}
if [ -z "${MACHINE:-}" ]; then
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
  MACHINE=$(echo "${gpu:-$(hostname)}" | tr '[:upper:]' '[:lower:]' | tr -cs 'a-z0-9' '-' | sed 's/^-*//; s/-*$//')
fi
results="$OUT/perf/results/$MACHINE"
[ "${SMOKE:-0}" = 1 ] && results="$results-smoke"
mkdir -p "$results"

if [ "$build" -eq 1 ]; then
  if ! { cmake --preset cuda >/dev/null &&
    cmake --build --preset cuda --target kcp_perf_trapezoid kcp_perf_device_sync kcp_perf_warp_cooperation; }; then
    echo "run_gpu.sh: build failed" >&2
    exit 1
  fi
fi
for s in "${studies[@]}"; do
  exe="$BUILD_DIR/bin/kcp-perf-${s//_/-}"
  [ -x "$exe" ] || { echo "run_gpu.sh: $exe missing: build with --build, or set BUILD_DIR" >&2; exit 1; }
done

{
  date -u +%Y-%m-%dT%H:%M:%SZ
  git rev-parse HEAD 2>/dev/null
  nvidia-smi 2>/dev/null
  lscpu 2>/dev/null | grep -E 'Model name|^CPU\(s\)|Thread|Socket'
} >"$results/machine.txt"

# The revision of the source tree, also for a binary run outside a git checkout.
KCP_REVISION=${KCP_REVISION:-$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)}
export KCP_REVISION

# Per study: the options for both backends, then the extra ones per backend.
declare -A common=(
  [trapezoid]="--min-log2 16 --reps 5"
  [device_sync]="--min-log2 10 --steps 1000 --reps 3"
  [warp_cooperation]="--reps 5"
)
declare -A on_cuda=(
  [trapezoid]="--max-log2 30"
  [device_sync]="--max-log2 20 --cpu-loop-max-log2 18"
  [warp_cooperation]="--queue-max-log2 26 --spmv-max-log2 21"
)
declare -A on_openmp=(
  [trapezoid]="--max-log2 28"
  [device_sync]="--max-log2 20 --cpu-loop-max-log2 16"
  [warp_cooperation]="--queue-max-log2 24 --spmv-max-log2 21"
)
if [ "${SMOKE:-0}" = 1 ]; then
  for s in trapezoid device_sync warp_cooperation; do common[$s]="--reps 1"; done
  on_cuda=([trapezoid]="--min-log2 16 --max-log2 18" [device_sync]="--min-log2 10 --max-log2 12 --steps 100"
           [warp_cooperation]="--queue-max-log2 18 --spmv-max-log2 16")
  for s in trapezoid device_sync warp_cooperation; do on_openmp[$s]=${on_cuda[$s]}; done
fi

failed=0
for s in "${studies[@]}"; do
  exe="$BUILD_DIR/bin/kcp-perf-${s//_/-}"
  for space in cuda openmp; do
    if [ "$space" = cuda ]; then extra=${on_cuda[$s]}; else extra=${on_openmp[$s]}; fi
    read -r -a options <<<"${common[$s]} $extra"
    cmd=("$exe" --space "$space" --threads "$THREADS" --machine "$MACHINE" --output-dir "$results" "${options[@]}")
    echo "== ${cmd[*]}" | tee -a "$results/commands.txt"
    start=$(date +%s)
    OMP_NUM_THREADS=$THREADS OMP_PROC_BIND=spread OMP_PLACES=threads "${cmd[@]}" >"$results/$s-$space.log" 2>&1
    rc=$?
    echo "   exit $rc after $(($(date +%s) - start)) s" | tee -a "$results/commands.txt"
    [ $rc -eq 0 ] || { failed=1; tail -n 20 "$results/$s-$space.log"; }
  done
done

if command -v /usr/bin/python3 >/dev/null && /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
  /usr/bin/python3 perf/studies/report.py "$results" || failed=1
else
  echo "run_gpu.sh: no python3-matplotlib here: run perf/studies/report.py $results where it is installed"
fi
echo "results in $results"
exit $failed
