#!/usr/bin/env bash
# Session 9, issue 17, third call. exp27: even a fixpoint with every propagator queued (KCP_DIAG=4)
# ends incomplete on the GPU, and the first incomplete node's store after it equals the store before
# it (x3 != x0 with x0 fixed did not remove x0's value from x3). This call records, for the first
# incomplete node, the fixpoint's iterations, propagator runs and the runs that changed the store,
# and counts the incomplete nodes that a second full queue fixpoint, or else AC1, completes.
# Run three times: diagC (iterations, changes, reruns), diagD (adds the first propagator's reads and
# result), diagE (that propagator again at once, then through plain loads and stores; two shapes only).
# usage (device): bash perf/bench/device/exp28.sh REV; carry build/gpu (bin/kcp-check-REV, holes/holes.tgz).
set -u
REV=$1; C=build/gpu/bin/kcp-check-$REV
L=$OUT/log.txt; t0=$SECONDS
log() { echo "$*" >> $L; }
tar xzf build/gpu/holes/holes.tgz -C /tmp
log "start $(date -u +%T) $(nvidia-smi --query-gpu=name --format=csv,noheader)"
check() {
  local label=$1 m=$2; shift 2
  local want; want=$(grep -c -- ---------- ${m%.fzn}.gecode.txt)
  local got; got=$(timeout 40 $C --space cuda --bitset-span 64 -a "$@" $m 2> /tmp/check.err | grep -c -- ----------)
  log "$label $(basename $m) $got/$want $(grep kcp-check: /tmp/check.err | tail -1 | sed 's/first=.*//')"
  grep kcp-check-first /tmp/check.err | tail -1 | cut -c1-900 >> $L
}
for shape in "" "--vector-length 1"; do
  for diag in 0; do KCP_DIAG=$diag check "diag$diag[$shape]" /tmp/s20261125/m10.fzn $shape; done
done
for m in m205 m214; do check "diag0" /tmp/s20261125/$m.fzn; done
log "== $((SECONDS - t0)) s"
cat $L
