#!/usr/bin/env bash
# Issue 53 (perf/NOTES.md entries 43 and 44). Check builds (-DKCP_CHECK_INVARIANTS=ON) as gpu-diag/kcp-<BIN>;
# gpu-diag/queens{10,12}.fzn from queens_fzn.py. BINS, MODELS (name:solutions), CFGS, REPS, ENVS.
# Session 31 (entry 43): kcp-chk of 1e49c50, and with exp91-volatile-store.patch
# (-DKCP_DIAG_VOLATILE_STORE -DKCP_DIAG_VOLATILE_WORK) as kcp-chkv.
# DIAGS: KCP_DIAG values of a build with exp92-queue-diagnostics.patch (1 the queue counters read
# atomically, 2 the counters in team scratch, 4 the touched/queued flag resets atomic): the workspace
# variants ran as DIAGS='0 1 2 4 5 7' MODELS=queens10:724 CFGS='default --fixpoint queue --probe-ms 0 ...'.
# Session 32 (entry 44): builds with exp94-checker.patch (the messages OVERRUN, SKEW and CHECKER DISAGREES
# are counted on each run's line; -DKCP_CUDA_MIN_BLOCKS=2 for exp94f) or exp94-ring.patch (the ring dump
# is kept as <model>-<label>-r<run>.ring); the stack limit with exp94-stack-shim.cu
# (`nvcc -shared -Xcompiler -fPIC -o libshim.so exp94-stack-shim.cu`) as
# ENVS="LD_PRELOAD=$PWD/gpu-diag/libshim.so KCP_STACK=16384", and ENVS=CUDA_LAUNCH_BLOCKING=1.
set -u
export OMP_PROC_BIND=false
L=$OUT/stats.txt; t0=$SECONDS
REPS=${REPS:-3}
for d in ${DIAGS:-0}; do
for b in ${BINS:-chk}; do
  for m in ${MODELS:-queens10:724 queens12:14200}; do
    model=${m%%:*}; want=${m##*:}
    while read -r label args; do
      inc=0; res=0; tree=0; bad=0; nodes=0
      for r in $(seq $REPS); do
        env KCP_DIAG=$d ${ENVS:-} timeout 100 gpu-diag/kcp-$b gpu-diag/$model.fzn --space cuda --bitset-span 64 -a $args \
          >/tmp/o.txt 2>/tmp/e.txt
        n=$(grep -c -- '^----------' /tmp/o.txt)
        [ "$n" != "$want" ] && bad=$((bad+1))
        line=$(grep 'kcp-check: teams=[0-9]* p=[1-9]' /tmp/e.txt | tail -1)
        [ -z "$line" ] && line=$(grep kcp-check /tmp/e.txt | tail -1)
        i=$(echo "$line" | sed -n 's/.*incomplete=\([0-9]*\) (restored \([0-9]*\)) tree=\([0-9]*\).*/\1 \2 \3/p')
        set -- $i; inc=$((inc+${1:-0})); res=$((res+${2:-0})); tree=$((tree+${3:-0}))
        nodes=$((nodes+$(echo "$line" | sed -n 's/.*nodes=\([0-9]*\).*/\1/p')))
        msgs="overrun=$(grep -c OVERRUN /tmp/o.txt) skew=$(grep -c '^SKEW' /tmp/o.txt) disagree=$(grep -c 'CHECKER DISAGREES' /tmp/o.txt)"
        echo "diag=$d $b $model $label r$r sols=$n $msgs $line" >> $OUT/runs.txt
        grep '^RING\|^E \|^S ' /tmp/o.txt > "$OUT/$model-$label-r$r.ring" || rm -f "$OUT/$model-$label-r$r.ring"
      done
      echo "diag=$d $b $model [$label] runs=$REPS wrong_count=$bad nodes=$nodes incomplete=$inc restored=$res tree=$tree ($((SECONDS-t0)) s)" >> $L
    done <<CFG
${CFGS:-default --fixpoint queue --probe-ms 0
t64 --fixpoint queue --probe-ms 0 --teams 64 --subproblems 12 --no-dive-cache
vl1 --fixpoint queue --probe-ms 0 --vector-length 1
ac1 --fixpoint ac1 --probe-ms 0}
CFG
  done
done
done
cat $L
