#!/usr/bin/env bash
# Session 19, issue 21: end-game splitting (search/modes.hpp's SplitPool) — perf/NOTES.md entry 30.
#   tests: the CUDA test binary's CUDA, portfolio, learning, explaining and EndToEnd cases (also with check).
#   check: compute-sanitizer memcheck on kcp runs that split (queens -a, rcpsp 15_5's complete search);
#          the differential through kcp (mixed generator, and --globals with --learning), one process a
#          model.
#   ab:    one GPU, `--end-game-split on` against `off`, alternating, REPS runs each.
#   scale: 1, 2 and 4 GPUs (mpirun -n K; as many as the machine has), split on, alternating, REPS runs
#          each; one run of one GPU with split off, and of the complete search (--learn none) of the
#          default's four instances.
#   psweep: the complete search at the default subproblem depth p, p - 2 and p - 4, 1, 2 and 4 GPUs.
#   coarse: one GPU, every instance, 5 s, the default split against --subproblems P (default 12).
#   open:  the six instances no GPU proves in 15 s, 1, 2 and 4 GPUs, one run each: final objectives.
# Instances: the default's proofs (rcpsp 13_9, 25_3, 41_10, 45_5), the complete search with the portfolio
# (--learn none: 15_5, 22_6) and alone (--learn none --portfolio 0: 15_5, 22_6).
# usage (device): [REPS=2] bash perf/bench/device/exp56.sh REV tests|check|ab|scale|psweep|coarse|open ...; carry build/gpu/bin
# (kcp-REV.gz, kcp_tests-REV.gz) for check and ab, gpu-mpi (mpirt.tgz, kcp-mpi-REV.gz) for scale, psweep and open,
# gpu-bench-mznlib, gpu-learn (check).
set -u
REV=$1; shift; WHAT="$*"; REPS=${REPS:-2}
export OMP_PROC_BIND=false
t0=$SECONDS
R=/tmp/res; rm -rf $R; mkdir -p $R /tmp/dev
trap 'tar czf $OUT/exp56-$REV.tgz -C $R .' EXIT
for f in gpu-bench-mznlib/rcpsp_J30_{13_9,25_3,41_10,45_5,15_5,22_6}.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
nvidia-smi -L | tee $R/gpus.txt
B=/tmp/kcp-$REV
[ -f build/gpu/bin/kcp-$REV.gz ] && gunzip -c build/gpu/bin/kcp-$REV.gz > $B && chmod +x $B
stat_line() { echo "$(grep -E '^%%%mzn-stat: (solveTime|objective|nodes|splitPieces|provedByNogood|rankIdleTime)=' /tmp/o.txt | sed 's/%%%mzn-stat: //' | tr '\n' ' ') $(grep -c '^==========' /tmp/o.txt)opt"; }
configs=("rcpsp_J30_13_9" "rcpsp_J30_25_3" "rcpsp_J30_41_10" "rcpsp_J30_45_5"
         "rcpsp_J30_15_5 --learn none" "rcpsp_J30_22_6 --learn none"
         "rcpsp_J30_15_5 --learn none --portfolio 0" "rcpsp_J30_22_6 --learn none --portfolio 0")

# scale and open: the OpenMPI runtime, the MPI build, the GPU counts, and one run on K GPUs (one rank each).
mpi_setup() {
  tar xzf gpu-mpi/mpirt.tgz -C /tmp
  source perf/bench/device/openmpi-env.sh /tmp/mpirt
  M=/tmp/kcp-mpi-$REV
  gunzip -c gpu-mpi/kcp-mpi-$REV.gz > $M && chmod +x $M
  counts="1 2"; [ $(nvidia-smi -L | wc -l) -ge 4 ] && counts="1 2 4"
}
on() {  # GPUS INSTANCE [kcp args]
  local k=$1 i=$2; shift 2
  if [ $k = 1 ]; then
    timeout 30 $M --space cuda -s -t 15000 "$@" /tmp/dev/$i.fzn > /tmp/o.txt 2>&1
  else
    timeout 30 mpirun -n $k --bind-to none -x OMP_NUM_THREADS=$(( $(nproc) / k )) $M --space cuda -s -t 15000 "$@" /tmp/dev/$i.fzn > /tmp/o.txt 2>&1
  fi
}

if [[ $WHAT == *tests* || $WHAT == *check* ]] && [ -f build/gpu/bin/kcp_tests-$REV.gz ]; then
  gunzip -c build/gpu/bin/kcp_tests-$REV.gz > /tmp/kcp_tests && chmod +x /tmp/kcp_tests
  timeout 300 /tmp/kcp_tests --gtest_filter='*Cuda*:*Portfolio*:*Learning*:*Explaining*:EndToEnd*' > $R/kcp_tests-cuda-$REV.txt 2>&1
  echo "kcp_tests rc=$? $(grep -E '^\[  (PASSED|FAILED) |tests ran' $R/kcp_tests-cuda-$REV.txt | tr '\n' ' ')"
  grep -E '^\[  FAILED' $R/kcp_tests-cuda-$REV.txt | head
  echo "== tests $((SECONDS - t0)) s"
fi

if [[ $WHAT == *check* ]]; then
  CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
  cp examples/queens.fzn /tmp/dev/
  timeout 60 $CS --tool memcheck $B -a -s /tmp/dev/queens.fzn > $R/memcheck-queens.txt 2>&1
  echo "queens -a memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck-queens.txt) $(grep -c '^----------' $R/memcheck-queens.txt) solutions $(grep -E '%%%mzn-stat: (splitPieces|nodes)=|^=====' $R/memcheck-queens.txt | tr '\n' ' ')"
  timeout 60 $CS --tool memcheck $B -s -t 40000 --learn none --portfolio 0 /tmp/dev/rcpsp_J30_15_5.fzn > $R/memcheck-15_5.txt 2>&1
  echo "15_5 memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck-15_5.txt) $(grep -E '%%%mzn-stat: (splitPieces|nodes|solveTime)=|^=====' $R/memcheck-15_5.txt | tr '\n' ' ')"
  echo "== sanitizer $((SECONDS - t0)) s"
  for set in plain learn; do
    tar xzf gpu-learn/$set-diff.tgz -C /tmp
    pre=""; [ $set = learn ] && pre=--learning
    timeout 60 python3 tests/differential/diff.py --kcp $B --replay /tmp/$set-diff --jobs 8 --deadline 45 $pre \
      --keep $R/kept-$set --log $R/differential-$set-cuda-$REV.csv -- --space cuda 2>&1 | tail -2
  done
  echo "== differential $((SECONDS - t0)) s"
fi

if [[ $WHAT == *ab* ]]; then
  for rep in $(seq $REPS); do
    for c in "${configs[@]}"; do
      set -- $c; i=$1; shift
      for s in off on; do
        timeout 25 $B -s -t 15000 --end-game-split $s "$@" /tmp/dev/$i.fzn > /tmp/o.txt 2>&1
        echo "$i gpus=1 split=$s [$*] $(stat_line)"
      done
    done
    echo "== ab rep $rep $((SECONDS - t0)) s"
  done | tee $R/ab-$REV.txt
fi

if [[ $WHAT == *scale* ]]; then
  # 1, 2 and 4 GPUs (as many as the machine has), split on, REPS runs each, alternating; one run of one
  # GPU with split off (this machine's baseline of the old code); one run of the default's four
  # instances' complete search (--learn none) on one GPU.
  mpi_setup
  scale_configs=("rcpsp_J30_13_9" "rcpsp_J30_25_3" "rcpsp_J30_41_10" "rcpsp_J30_45_5"
                 "rcpsp_J30_15_5 --learn none" "rcpsp_J30_22_6 --learn none"
                 "rcpsp_J30_15_5 --learn none --portfolio 0" "rcpsp_J30_22_6 --learn none --portfolio 0")
  {
    for c in "${scale_configs[@]}"; do
      set -- $c; i=$1; shift
      on 1 $i --end-game-split off "$@"; echo "$i gpus=1 split=off [$*] $(stat_line)"
    done
    for i in rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10 rcpsp_J30_45_5; do
      on 1 $i --learn none; echo "$i gpus=1 split=on [--learn none] $(stat_line)"
    done
    echo "== baselines $((SECONDS - t0)) s"
    for rep in $(seq $REPS); do
      for c in "${scale_configs[@]}"; do
        set -- $c; i=$1; shift
        for k in $counts; do on $k $i "$@"; echo "$i gpus=$k split=on [$*] $(stat_line)"; done
      done
      echo "== scale rep $rep $((SECONDS - t0)) s"
    done
  } | tee $R/scale-$REV.txt
fi
if [[ $WHAT == *open* ]]; then
  # The six instances no GPU proves in 15 s: final objectives on 1, 2 and 4 GPUs, one run each.
  mpi_setup
  for i in accap_accap_a40_f800_t180 traveling-tppv_circ14cnonbal triangular_n39 team-assignment_data3_5_31 nfc_24_4_2 \
           wordpress_Wordpress7_Offers500; do
    gunzip -c gpu-bench-mznlib/$i.fzn.gz > /tmp/dev/$i.fzn
    for k in $counts; do on $k $i; echo "$i gpus=$k $(stat_line)"; done
  done | tee $R/open-$REV.txt
fi
if [[ $WHAT == *psweep* ]]; then
  # With splitting the tail no longer needs 16 subproblems per complete team: the complete search's
  # proofs at the default depth p (16 per team of all ranks), p - 2 (4 per team) and p - 4 (1 per
  # team), on 1, 2 and 4 GPUs, REPS runs each.
  mpi_setup
  {
    for rep in $(seq $REPS); do
      for c in "rcpsp_J30_15_5 --learn none --portfolio 0" "rcpsp_J30_22_6 --learn none --portfolio 0" \
               "rcpsp_J30_15_5 --learn none" "rcpsp_J30_22_6 --learn none"; do
        set -- $c; i=$1; shift
        for k in $counts; do
          on $k $i "$@"
          d=$(grep -E '^%%%mzn-stat: subproblems=' /tmp/o.txt | sed 's/.*=//' | awk '{print int(log($1)/log(2) + 0.5)}')
          echo "$i gpus=$k p=$d [$*] $(stat_line)"
          for q in $((d - 2)) $((d - 4)); do
            on $k $i --subproblems $q "$@"; echo "$i gpus=$k p=$q [$*] $(stat_line)"
          done
        done
      done
      echo "== psweep rep $rep $((SECONDS - t0)) s"
    done
  } | tee $R/psweep-$REV.txt
fi
if [[ $WHAT == *coarse* ]]; then
  # One GPU, every instance of the set, 5 s: the default split (p = 14: 16 subproblems per complete team)
  # against P=${P:-12} (4 per team), alternating, one run each.
  for f in gpu-bench-mznlib/*.fzn.gz; do
    i=$(basename $f .fzn.gz); gunzip -c $f > /tmp/dev/$i.fzn
    for q in default ${P:-12}; do
      a=""; [ $q != default ] && a="--subproblems $q"
      timeout 20 $B -s -t 5000 $a /tmp/dev/$i.fzn > /tmp/o.txt 2>&1
      echo "$i p=$q $(stat_line)"
    done
  done | tee $R/coarse-$REV.txt
fi
echo "== total $((SECONDS - t0)) s"
