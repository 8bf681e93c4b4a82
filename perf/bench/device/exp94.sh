#!/usr/bin/env bash
# Session 32, issue 53 (perf/NOTES.md entry 44): check builds of queens10 -a on one GPU, one line per
# configuration: solutions (724 wanted), overrun / SKEW / CHECKER DISAGREES messages of the
# exp94-checker.patch build, and the check build's own counts.
# usage: BIN=gpu-diag/kcp-chk FZN=gpu-diag/queens10.fzn [ENVS='KCP_STACK=16384 LD_PRELOAD=...'] bash exp94.sh
# Builds: a check build (-DKCP_CHECK_INVARIANTS=ON; -DKCP_CUDA_MIN_BLOCKS=2 for exp94f) with
# exp94-checker.patch or exp94-ring.patch applied; exp94-stack-shim.cu is built with
# `nvcc -shared -Xcompiler -fPIC -o libshim.so exp94-stack-shim.cu` and preloaded with KCP_STACK=bytes.
set -u
BIN=${BIN:?the check binary}; FZN=${FZN:?queens10.fzn from queens_fzn.py}
A="$FZN --space cuda --bitset-span 64 -a --probe-ms 0"
while read -r name args; do
  [ -z "$name" ] && continue
  env ${ENVS:-X=1} timeout 100 $BIN $A $args > /tmp/exp94.out 2> /tmp/exp94.err
  echo "$name sols=$(grep -c -- '^----------' /tmp/exp94.out) overrun=$(grep -c OVERRUN /tmp/exp94.out)" \
       "skew=$(grep -c '^SKEW' /tmp/exp94.out) disagree=$(grep -c 'CHECKER DISAGREES' /tmp/exp94.out)" \
       "$(grep 'kcp-check: teams=[0-9]* p=[1-9]' /tmp/exp94.err | tail -1)" | tee -a $OUT/exp94.txt
  grep '^RING\|^E \|^S ' /tmp/exp94.out > $OUT/$name.ring 2>/dev/null || rm -f $OUT/$name.ring
done <<CFG
${CFGS:-vl1 --fixpoint queue --vector-length 1
default --fixpoint queue
ts1 --fixpoint queue --team-size 1
vl1-ac1 --fixpoint ac1 --vector-length 1
ts1-ac1 --fixpoint ac1 --team-size 1}
CFG
