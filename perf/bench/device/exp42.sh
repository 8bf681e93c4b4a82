#!/usr/bin/env bash
# Session 15, issues 20 and 21: kcp over MPI on a device host with 2 GPUs, Debian's OpenMPI carried
# (pack-openmpi.sh; the image has none). (0) a smoke run of 2 ranks, stopping here if MPI does not
# start; (1) 1 GPU against 2 (one rank per GPU), 15 s: time to proof with --learn none (the complete
# search proves) and by default (the explaining thread on rank 0 proves), final objectives on
# instances no run proves; (2) the host's 16 cores: 1 rank x 16 threads against K ranks x 1 thread.
# usage (device): [PARTS="proofs open diag cpu" | PARTS=four on 4 GPUs] bash perf/bench/device/exp42.sh REV; carry gpu-mpi (mpirt.tgz,
# kcp-mpi-REV.gz), gpu-bench*. Results in $OUT/exp42-REV.tgz (one file: the tool brings back a few only).
set -u
REV=$1
t0=$SECONDS
PARTS=${PARTS:-proofs open diag cpu}
R=/tmp/res; rm -rf $R; mkdir -p $R /tmp/dev
trap 'tar czf $OUT/exp42-$REV.tgz -C $R .' EXIT
tar xzf gpu-mpi/mpirt.tgz -C /tmp
source perf/bench/device/openmpi-env.sh /tmp/mpirt
B=/tmp/kcp-mpi-$REV
gunzip -c gpu-mpi/kcp-mpi-$REV.gz > $B && chmod +x $B
for d in gpu-bench gpu-bench-mznlib gpu-bench-mznlib2; do
  for f in $d/*.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
done
nvidia-smi -L | tee $R/gpus.txt
nproc
export OMP_PROC_BIND=false
M="--bind-to none"
timeout 60 mpirun -n 2 $M $B --space cuda --probe-ms 0 -s -v examples/queens.fzn > $R/smoke.txt 2>&1
rc=$?
echo "smoke rc=$rc $(grep -E 'ranks=|nodes=' $R/smoke.txt | tr '\n' ' ')"
grep -E "rank [01]:" $R/smoke.txt
if [ $rc != 0 ]; then
  tail -30 $R/smoke.txt
  timeout 60 mpirun -n 2 $M --mca btl self,tcp $B --space serial --probe-ms 0 -s examples/queens.fzn > $R/smoke-tcp.txt 2>&1
  echo "smoke over tcp rc=$?"; tail -20 $R/smoke-tcp.txt
  exit 1
fi
echo "== smoke $((SECONDS - t0)) s"
cat > /tmp/mpi2.sh <<EOS
#!/usr/bin/env bash
exec mpirun -n 2 $M $B "\$@"
EOS
chmod +x /tmp/mpi2.sh
run() {  # LABEL KCP INSTANCES [kcp args]
  local label=$1 kcp=$2 list=$3; shift 3
  python3 perf/bench/run.py --kcp $kcp --revision $REV --space cuda --timeout 15 --grace 10 --instances $list \
    --label $label --machine nvidia-2gpu --out $R/$label.csv -- "$@" 2>&1 | tail -1
}
ls /tmp/dev/rcpsp_J30_15_5.fzn /tmp/dev/rcpsp_J30_22_6.fzn > /tmp/none.txt
ls /tmp/dev/rcpsp_J30_13_9.fzn /tmp/dev/rcpsp_J30_25_3.fzn /tmp/dev/rcpsp_J30_41_10.fzn > /tmp/proofs.txt
ls /tmp/dev/{accap_accap_a40,nfc,team-assignment,traveling-tppv,triangular_n39,wordpress}*.fzn > /tmp/open.txt
if [[ $PARTS == *proofs* ]]; then
run gpu1-none $B /tmp/none.txt --learn none
run gpu2-none /tmp/mpi2.sh /tmp/none.txt --learn none
run gpu1-default $B /tmp/proofs.txt
run gpu2-default /tmp/mpi2.sh /tmp/proofs.txt
echo "== proofs $((SECONDS - t0)) s"
fi
if [[ $PARTS == *open* ]]; then
run gpu1-open $B /tmp/open.txt
run gpu2-open /tmp/mpi2.sh /tmp/open.txt
echo "== open $((SECONDS - t0)) s"
fi
if [[ $PARTS == *diag* ]]; then
  # The complete search alone (no portfolio, no learning) on 1 and 2 GPUs, each rank's figures (-v).
  for k in 1 2; do
    if [ $k = 1 ]; then cmd=$B; else cmd=/tmp/mpi2.sh; fi
    $cmd --space cuda -s -v -t 15000 --learn none --portfolio 0 /tmp/dev/rcpsp_J30_22_6.fzn > $R/diag-$k.txt 2>&1
    echo "diag $k GPU: $(grep -E '^=====|solveTime=|nodes=|nodesPerSecond=|rankIdleTime=|chunks=|subproblems=|launches=|rank [0-9]:' $R/diag-$k.txt | tr '\n' ' ')"
  done
  echo "== diag $((SECONDS - t0)) s"
fi
if [[ $PARTS == *four* ]]; then
  # 4 GPUs (nvidia-h200-x4): the proofs and the complete search alone, against 1 and 2 in the same call.
  cat > /tmp/mpi4.sh <<EOS
#!/usr/bin/env bash
exec mpirun -n 4 $M $B "\$@"
EOS
  chmod +x /tmp/mpi4.sh
  for g in 1 2 4; do
    case $g in 1) k=$B;; 2) k=/tmp/mpi2.sh;; 4) k=/tmp/mpi4.sh;; esac
    run gpu$g-none $k /tmp/none.txt --learn none
    run gpu$g-default $k /tmp/proofs.txt
    $k --space cuda -s -v -t 15000 --learn none --portfolio 0 /tmp/dev/rcpsp_J30_22_6.fzn > $R/diag-$g.txt 2>&1
    echo "diag $g GPU: $(grep -E '^=====|solveTime=|nodes=|rankIdleTime=|subproblems=' $R/diag-$g.txt | tr '\n' ' ')"
  done
  echo "== four $((SECONDS - t0)) s"
fi
if [[ $PARTS == *cpu* ]]; then
# The host's cores: rcpsp_J30_15_5, complete search alone (no portfolio, no learning).
for k in 16x1 1 2 4 8 16; do
  if [ $k = 16x1 ]; then cmd="env OMP_NUM_THREADS=16 $B"; else cmd="mpirun -n $k $M --oversubscribe -x OMP_NUM_THREADS=1 $B"; fi
  s=$SECONDS
  timeout 40 $cmd --space openmp -s -t 15000 --learn none --portfolio 0 /tmp/dev/rcpsp_J30_15_5.fzn > $R/cpu-$k.txt 2>&1
  echo "cpu ranks $k: rc=$? wall $((SECONDS - s)) s $(grep -E '^=====|solveTime=|nodes=|rankIdleTime=|objective=' $R/cpu-$k.txt | tail -5 | tr '\n' ' ')"
done
echo "== cpu $((SECONDS - t0)) s"
fi
