#!/usr/bin/env bash
# kcp under mpirun: the time limit, signals and a failing rank stop every rank, never a hang.
# -t stops the job near the limit with rank 0's best solution and statistics; SIGINT/SIGTERM to the
# ranks stop all of them the same way (exit 0), and to one rank alone too; SIGINT to mpirun ends the
# job (OpenMPI's mpirun hands the ranks SIGTERM and exits 1 itself) with rank 0's output; a rank killed
# outright, or one that fails (too little memory), ends the job with a non-zero exit and a message.
# usage: limits.sh KCP_BINARY (built with KCP_ENABLE_MPI)
set -uo pipefail
kcp=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/../cli/common.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi() { exec mpirun -n 2 --oversubscribe --bind-to none -x OMP_NUM_THREADS=1 "$kcp" "$@"; }
# The ranks' process ids (from /proc: no pgrep needed).
ranks() {
  local d c
  for d in /proc/[0-9]*; do
    c=$(tr '\0' ' ' < "$d/cmdline" 2>/dev/null) || continue
    [[ $c == "$kcp -s $tmp/assignment.fzn "* ]] && echo "${d#/proc/}"
  done
}
pigeons 14 > "$tmp/pigeons.fzn"
assignment 16 > "$tmp/assignment.fzn"

start=$(now_ms)
out=$(mpi -t 1000 -s "$tmp/pigeons.fzn"); rc=$?
elapsed=$(( $(now_ms) - start ))
check "-t 1000 exits 0" "[ $rc = 0 ]"
check "-t 1000 ends within 2 s of the limit, mpirun's start included (took $elapsed ms)" "[ $elapsed -lt 3000 ]"
check "-t 1000 reports UNKNOWN once" "[ \$(grep -c '^=====UNKNOWN=====$' <<<\"\$out\") = 1 ]"
check "-t 1000 prints the statistics of 2 ranks" "grep -q '^%%%mzn-stat: ranks=2$' <<<\"\$out\""

# Limits about as long as parsing and compiling: the ranks agree whether any time is left to search (a
# rank that searched while the other did not would wait for it forever).
for t in 1 2 3 5 8; do
  start=$(now_ms)
  out=$(timeout 30 mpirun -n 2 --oversubscribe --bind-to none -x OMP_NUM_THREADS=1 "$kcp" -t $t -s "$tmp/pigeons.fzn"); rc=$?
  elapsed=$(( $(now_ms) - start ))
  check "-t $t exits 0 within 3 s, mpirun's start included (rc $rc, took $elapsed ms)" "[ $rc = 0 ] && [ $elapsed -lt 3000 ]"
  check "-t $t reports UNKNOWN once" "[ \$(grep -c '^=====UNKNOWN=====$' <<<\"\$out\") = 1 ]"
done

ranks2() { check "$1: the statistics of 2 ranks" "grep -q '^%%%mzn-stat: ranks=2$' <<<\"\$out\""; }
for sig in INT TERM; do
  mpi -s "$tmp/assignment.fzn" > "$tmp/out.txt" 2>"$tmp/err.txt" & job=$!
  sleep 2
  kill -s $sig $(ranks)
  stopped "SIG$sig to every rank" 0 3000; ranks2 "SIG$sig to every rank"
done
mpi -s "$tmp/assignment.fzn" > "$tmp/out.txt" 2>"$tmp/err.txt" & job=$!
sleep 2
kill -s INT $(ranks | tail -1)
stopped "SIGINT to rank 1 alone" 0 3000; ranks2 "SIGINT to rank 1 alone"
mpi -s "$tmp/assignment.fzn" > "$tmp/out.txt" 2>"$tmp/err.txt" & job=$!
sleep 2
kill -s INT $job
stopped "SIGINT to mpirun" 1 3000; ranks2 "SIGINT to mpirun"

# A rank killed outright: mpirun ends the job and says which.
mpi -s "$tmp/assignment.fzn" > "$tmp/out.txt" 2>"$tmp/err.txt" & job=$!
sleep 2
kill -s KILL $(ranks | tail -1)
start=$(now_ms)
wait "$job"; rc=$?
elapsed=$(( $(now_ms) - start ))
check "a killed rank: non-zero exit (rc $rc)" "[ $rc != 0 ]"
check "a killed rank: the job ends within 5 s (took $elapsed ms)" "[ $elapsed -lt 5000 ]"
check "a killed rank: mpirun names it" "grep -qi 'signal 9\|killed' '$tmp/err.txt'"
check "a killed rank: no rank is left" "[ -z \"\$(ranks)\" ]"

# Too little memory on every rank (186 GB of decision stacks): kcp's message, a non-zero exit, no hang.
start=$(now_ms)
err=$(timeout 60 mpirun -n 2 --oversubscribe --bind-to none -x OMP_NUM_THREADS=1 "$kcp" --space serial --teams 100000 \
  --max-depth 100000 "$tmp/assignment.fzn" 2>&1 >/dev/null); rc=$?
elapsed=$(( $(now_ms) - start ))
check "out of memory: non-zero exit, no hang (rc $rc, $elapsed ms)" "[ $rc != 0 ] && [ $rc != 124 ]"
check "out of memory: kcp's message names the rank" "grep -q 'kcp (rank [01]): error: out of memory' <<<\"\$err\""
echo "$([ $fail = 0 ] && echo "all passed" || echo "some failed")"
exit $fail
