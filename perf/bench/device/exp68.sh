#!/usr/bin/env bash
# Session 25, issue 21: where four GPUs lose against one beyond the idle ranks (exp67: halves/shallow
# on four H200s 1.27 s against 3.03 s on one, 2.4x; complete nodes 1.52M against 1.30M; each GPU's
# nodes/s about 70 % of one GPU's alone).
#   alone:  four one-GPU runs at once, one per GPU (CUDA_VISIBLE_DEVICES), 16 host threads each: the
#           host's share of the slowdown; REPS times;
#   depth:  diameterc-mst halves/shallow: one GPU at --subproblems 12 (its default) and 14 (four GPUs'
#           default), two GPUs at 12 and 13 (default), four at 12, 13 and 14 (default); four GPUs with 8
#           host threads a rank; REPS runs each, alternating;
#   none:   rcpsp 22_6 --learn none on four GPUs, branching/any and halves/shallow at --subproblems 12 and
#           14 (default), REPS runs.
# usage (device): [REPS=3] bash perf/bench/device/exp68.sh REV [alone depth none]; carry gpu-mpi
# (mpirt.tgz, kcp-mpi-REV.gz), gpu-bench-mznlib
set -u
REV=$1; shift; WHAT="${*:-alone depth none}"; REPS=${REPS:-3}
D=diameterc-mst_c_v20_a190_d4
source perf/bench/device/mpi-prep.sh exp68 $REV $D rcpsp_J30_22_6
most=${counts##* }
HS="--subproblem-path halves --end-game-givers shallow"
if [[ $WHAT == *alone* ]]; then
  for rep in $(seq $REPS); do
    for g in $(seq 0 $((most - 1))); do
      CUDA_VISIBLE_DEVICES=$g OMP_NUM_THREADS=16 timeout 50 $M --space cuda -s -t 40000 $HS /tmp/dev/$D.fzn > $R/alone-$g-$rep.txt 2>&1 &
    done
    wait
    for g in $(seq 0 $((most - 1))); do echo "$D alone-gpu$g-$rep gpus=1 $(stat_line $R/alone-$g-$rep.txt)"; done
  done | tee $R/alone-$REV.txt
  echo "== alone $((SECONDS - t0)) s"
fi
if [[ $WHAT == *depth* ]]; then
  for rep in $(seq $REPS); do
    for p in 12 14; do on 1 $D p$p-$rep $HS --subproblems $p; done
    for p in 12 13; do on 2 $D p$p-$rep $HS --subproblems $p; done
    if [ $most = 4 ]; then
      for p in 12 13 14; do on 4 $D p$p-$rep $HS --subproblems $p; done
      THREADS=8 on 4 $D threads8-$rep $HS
    fi
    echo "== depth rep $rep $((SECONDS - t0)) s"
  done | tee $R/depth-$REV.txt
fi
if [[ $WHAT == *none* ]]; then
  for rep in $(seq $REPS); do
    for path in "--subproblem-path branching" "$HS"; do
      for p in 12 14; do on $most rcpsp_J30_22_6 none-$(echo $path | cut -d' ' -f2)-p$p-$rep --learn none $path --subproblems $p; done
    done
  done | tee $R/none-$REV.txt
  echo "== none $((SECONDS - t0)) s"
fi
