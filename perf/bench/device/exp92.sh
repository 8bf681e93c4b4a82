#!/usr/bin/env bash
# Session 31, issue 53 (perf/NOTES.md entry 43): the check build with exp92-queue-diagnostics.patch as
# gpu-diag/kcp-chk; KCP_DIAG bits: 1 the queue counters read atomically, 2 the counters in team scratch,
# 4 the touched/queued flag resets atomic.
set -u
export OMP_PROC_BIND=false
L=$OUT/stats.txt; t0=$SECONDS
REPS=${REPS:-3}
for d in ${DIAGS:-0 1 2 4 5 7}; do
  while read -r label args; do
    inc=0; res=0; tree=0; bad=0; nodes=0
    for r in $(seq $REPS); do
      n=$(KCP_DIAG=$d timeout 100 gpu-diag/kcp-chk gpu-diag/queens10.fzn --space cuda --bitset-span 64 -a --probe-ms 0 --fixpoint queue $args 2>/tmp/e.txt | grep -c -- '^----------')
      [ "$n" != 724 ] && bad=$((bad+1))
      line=$(grep 'kcp-check: teams=[0-9]* p=[1-9]' /tmp/e.txt | tail -1)
      i=$(echo "$line" | sed -n 's/.*incomplete=\([0-9]*\) (restored \([0-9]*\)) tree=\([0-9]*\).*/\1 \2 \3/p')
      set -- $i; inc=$((inc+${1:-0})); res=$((res+${2:-0})); tree=$((tree+${3:-0}))
      nodes=$((nodes+$(echo "$line" | sed -n 's/.*nodes=\([0-9]*\).*/\1/p')))
      echo "diag=$d $label r$r sols=$n $line" >> $OUT/runs.txt
    done
    echo "diag=$d [$label] runs=$REPS wrong_count=$bad nodes=$nodes incomplete=$inc restored=$res tree=$tree ($((SECONDS-t0)) s)" >> $L
  done <<CFG
${CFGS:-default
vl1 --vector-length 1
ts1 --team-size 1}
CFG
done
cat $L
