#!/usr/bin/env bash
# Session 21, issue 21: the end game's waiting teams on diameterc-mst (perf/NOTES.md entry 32), one binary
# (kcp-mpi-REV), every rank 16 host threads, 1 / 2 / 4 GPUs (mpirun -n K, one rank a GPU):
# L, S, S10, S10D, L10, LH, LH10 pass flags of s21a's binary only (--end-game-wait, --end-game-slice-ms:
# taken out with the spinning teams); P, H, P12 run on the code since.
#   L    --end-game-wait launch: a team with no piece leaves the launch (the code before this session);
#   S    spin (the default on a GPU): it waits for a piece within the launch;
#   S10  S and --end-game-slice-ms 10 (launches of 10 ms while a rank waits for pieces);
#   S10D S10 and the ranks beyond 0 with a quarter of their teams free (--portfolio 0.25; rank 0 0.5);
#   L10  L and --end-game-slice-ms 10;
#   LH   L and the ranks beyond 0 without host rows (--host-teams 0: their explaining threads only);
#   LH10 LH and --end-game-slice-ms 10;
#   P, H the code after the spin was taken out (s21b; no such flags): the default; the ranks beyond 0 without
#        host rows (--host-teams 0);
#   P12  P with the one-GPU split on every count (--subproblems 12: 4 per complete team of one GPU, where
#        the default takes 4 per complete team of all the ranks: 13 on two, 14 on four).
# TRACE=1: instead, one run of each config and count with KCP_TRACE (a line per slice per rank).
# usage (device): [REPS=2] bash perf/bench/device/exp61.sh REV [CONFIGS] [INSTANCES]; carry gpu-mpi
# (mpirt.tgz, kcp-mpi-REV.gz), gpu-bench-mznlib
set -u
REV=$1; CONFIGS=${2:-"P"}; INST=${3:-diameterc-mst_c_v20_a190_d4}; REPS=${REPS:-2}; TL=${TL:-15000}
source perf/bench/device/mpi-prep.sh exp61 $REV $INST
stat_line() { echo "$(grep -E '^%%%mzn-stat: (solveTime|objective|nodes|hostNodes|timeOfBest|rankIdleTime|splitPieces|mpiPiecesSent|launches)=' $1 | sed 's/%%%mzn-stat: //' | tr '\n' ' ') $(grep -c '^==========' $1)opt"; }
on() {  # CONFIG GPUS INSTANCE TAG
  local c=$1 k=$2 i=$3 a0="" a1=""
  case $c in
    L|LH) a0="--end-game-wait launch" ;;
    L10|LH10) a0="--end-game-wait launch --end-game-slice-ms 10" ;;
    S10|S10D) a0="--end-game-slice-ms 10" ;;
    P12) a0="--subproblems 12" ;;
  esac
  a1=$a0; [ $c = S10D ] && a1="$a0 --portfolio 0.25"; [[ $c == LH* || $c == H ]] && a1="$a0 --host-teams 0"
  local run="-s -t $TL /tmp/dev/$i.fzn" f=$R/$i-$c-$k-$4.txt
  if [ $k = 1 ]; then
    timeout 40 $M --space cuda -p 16 $a0 $run > $f 2>&1
  else
    timeout 40 mpirun --bind-to none ${KCP_TRACE:+-x KCP_TRACE} -n 1 $M --space cuda -p 16 $a0 $run : -n $((k - 1)) $M --space cuda -p 16 $a1 $run > $f 2>&1
  fi
  echo "$i $c gpus=$k $(stat_line $f)"
}
[ -n "${TRACE:-}" ] && { REPS=1; export KCP_TRACE=1; }
for rep in $(seq $REPS); do
  for i in $INST; do
    for k in $counts; do
      for c in $CONFIGS; do
        [ $k = 1 ] && [[ $c == S10* || $c == L?* || $c == H ]] && continue
        on $c $k $i $rep
      done
    done
  done
  echo "== rep $rep $((SECONDS - t0)) s"
done | tee $R/scale-$REV.txt
