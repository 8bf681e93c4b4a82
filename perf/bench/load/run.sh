#!/usr/bin/env bash
# kcp under a competing load, reproducibly: LOAD busy-loop processes (one core each when they get it) beside
# kcp on this machine, for LOAD = 0, 1, 2, each configuration REPS times; wall time to the proof and the
# CPU time kcp got. Issue 25: MiniZinc's test suite saw bug259 take 22-28 s beside a 2-job build, 4.7 s idle.
# usage: perf/bench/load/run.sh KCP [REPS] [-- kcp args]   (model: bug259.fzn.gz here, MiniZinc 2.6.4's
# tests/spec/unit/regression/bug259.mzn flattened with kcp's library)
# env: CONFIGS: space-separated labels of the configurations below (default: all)
set -u
kcp=$1; reps=${2:-3}; shift 2 2>/dev/null; [ "${1:-}" = -- ] && shift
model=$(mktemp --suffix .fzn); gunzip -c "$(dirname "$0")/bug259.fzn.gz" > "$model"
echo "config,load,rep,wall_s,user_s,sys_s,status"
run_one() {  # label load env... -- kcp args
  local label=$1 load=$2; shift 2
  local envs=(); while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  for rep in $(seq "$reps"); do
    pids=(); for _ in $(seq "$load"); do sh -c 'while :; do :; done' & pids+=($!); done
    sleep 0.3
    out=$( { env "${envs[@]}" /usr/bin/time -f "TIME %e %U %S" "$kcp" -t 60000 "$@" "$model" >/tmp/kcp-load.out; } 2>&1 | grep TIME)
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null
    st=unknown; grep -q '^==========' /tmp/kcp-load.out && st=optimal
    read -r _ w u s <<<"$out"
    echo "$label,$load,$rep,$w,$u,$s,$st"
  done
}
for load in 0 1 2; do
  for c in ${CONFIGS:-p2 p1 p2-passive p2-nobind}; do
    case $c in
      p2) run_one p2 $load X=1 -- -p 2 "$@" ;;
      p1) run_one p1 $load X=1 -- -p 1 "$@" ;;
      p2-passive) run_one p2-passive $load OMP_WAIT_POLICY=passive -- -p 2 "$@" ;;
      p2-nobind) run_one p2-nobind $load OMP_PROC_BIND=false -- -p 2 "$@" ;;
    esac
  done
done
rm -f "$model" /tmp/kcp-load.out
