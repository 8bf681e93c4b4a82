# Sourced by the multi-GPU scripts (exp58, exp60, exp61) on a device machine: results in $R (packed to
# $OUT/NAME-REV.tgz at exit), the instances named (all: every one in gpu-bench-mznlib) unpacked in
# /tmp/dev, the OpenMPI runtime from gpu-mpi/mpirt.tgz, the MPI build in $M, the GPU counts to run in
# $counts (1 2, and 4 where there are four), $t0 the start; stat_line, on and at (below) for exp64-exp70.
# usage: source perf/bench/device/mpi-prep.sh NAME REV INSTANCE... | all
NAME=$1 REV=$2; shift 2
export OMP_PROC_BIND=false
t0=$SECONDS
R=/tmp/res; rm -rf $R; mkdir -p $R /tmp/dev
trap "tar czf \$OUT/$NAME-$REV.tgz -C $R ." EXIT
if [ "$*" = all ]; then
  for f in gpu-bench-mznlib/*.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
else
  for i in "$@"; do gunzip -c gpu-bench-mznlib/$i.fzn.gz > /tmp/dev/$i.fzn; done
fi
nvidia-smi -L | tee $R/gpus.txt
tar xzf gpu-mpi/mpirt.tgz -C /tmp
source perf/bench/device/openmpi-env.sh /tmp/mpirt
M=/tmp/kcp-mpi-$REV
gunzip -c gpu-mpi/kcp-mpi-$REV.gz > $M && chmod +x $M
counts="1 2"; [ $(nvidia-smi -L | wc -l) -ge 4 ] && counts="1 2 4"
# stat_line FILE: the statistics $STATS names (an alternation) on one line, then 1opt when proved.
STATS=${STATS:-solveTime|objective|nodes|completeNodes|timeOfBest|rankIdleTime|splitPieces|mpiPiecesSent|provedByNogood}
stat_line() {
  echo "$(grep -E "^%%%mzn-stat: ($STATS)=" $1 | sed 's/%%%mzn-stat: //' | tr '\n' ' ') $(grep -c '^==========' $1)opt"
}
# on GPUS INSTANCE TAG [kcp args]: $M on one GPU, or on GPUS ranks under mpirun, 16 host threads each ($THREADS), the
# output in $R/INSTANCE-TAG-GPUS.txt and its statistics on stdout (exp64-exp66; exp62 has its own).
on() {
  local k=$1 i=$2 tag=$3 f; shift 3
  f=$R/$i-$tag-$k.txt
  if [ $k = 1 ]; then
    OMP_NUM_THREADS=${THREADS:-16} timeout 50 $M --space cuda -s -t ${TL:-40000} "$@" /tmp/dev/$i.fzn > $f 2>&1
  else
    timeout 50 mpirun -n $k --bind-to none -x OMP_NUM_THREADS=${THREADS:-16} ${KCP_TRACE:+-x KCP_TRACE} $M --space cuda -s -t ${TL:-40000} "$@" /tmp/dev/$i.fzn > $f 2>&1
  fi
  echo "$i $tag gpus=$k $(stat_line $f)"
}
# at DEVICES GPUS INSTANCE TAG [kcp args]: as `on`, on the GPUs named (CUDA_VISIBLE_DEVICES), in the background,
# 15 s unless $TL says (exp69, exp70); `wait`, then stat_line the output.
at() {
  local dev=$1 k=$2 i=$3 tag=$4 f; shift 4
  f=$R/$i-$tag-$k.txt
  if [ $k = 1 ]; then
    CUDA_VISIBLE_DEVICES=$dev OMP_NUM_THREADS=16 timeout 50 $M --space cuda -s -t ${TL:-15000} "$@" /tmp/dev/$i.fzn > $f 2>&1 &
  else
    CUDA_VISIBLE_DEVICES=$dev timeout 50 mpirun -n $k --bind-to none -x CUDA_VISIBLE_DEVICES -x OMP_NUM_THREADS=16 $M --space cuda -s -t ${TL:-15000} "$@" /tmp/dev/$i.fzn > $f 2>&1 &
  fi
}
