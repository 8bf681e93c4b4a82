#!/usr/bin/env bash
# Session 17, issue 21: kcp over MPI on 2 GPUs (nvidia-h200-x2) with the runs of consecutive subproblems
# and an explaining search on every rank sharing its clauses (--mpi-explain all, the new default), against
# one GPU on the same machine and against rank 0's explaining search alone (--mpi-explain root, as
# before). Debian's OpenMPI carried (pack-openmpi.sh). (1) time to proof by default on rcpsp 13_9, 25_3, 45_5,
# 41_10 and with --learn none on 15_5, 22_6; (2) the complete search alone on 22_6 with runs and one
# subproblem at a time; (3) final objectives on the open instances, 1 GPU against 2.
# usage (device): [PARTS="proofs diag open"] bash perf/bench/device/exp50.sh REV; carry gpu-mpi (mpirt.tgz,
# kcp-mpi-REV.gz), gpu-bench, gpu-bench-mznlib. Results in $OUT/exp50-REV.tgz.
set -u
REV=$1
t0=$SECONDS
PARTS=${PARTS:-proofs diag open}
R=/tmp/res; rm -rf $R; mkdir -p $R /tmp/dev
trap 'tar czf $OUT/exp50-$REV.tgz -C $R .' EXIT
tar xzf gpu-mpi/mpirt.tgz -C /tmp
source perf/bench/device/openmpi-env.sh /tmp/mpirt
B=/tmp/kcp-mpi-$REV
gunzip -c gpu-mpi/kcp-mpi-$REV.gz > $B && chmod +x $B
for d in gpu-bench-mznlib; do
  for f in $d/*.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
done
nvidia-smi -L | tee $R/gpus.txt
export OMP_PROC_BIND=false
M="--bind-to none"
timeout 60 mpirun -n 2 $M $B --space cuda --probe-ms 0 -s examples/queens.fzn > $R/smoke.txt 2>&1
rc=$?
echo "smoke rc=$rc $(grep -E 'ranks=|nodes=' $R/smoke.txt | tr '\n' ' ')"
[ $rc != 0 ] && { tail -30 $R/smoke.txt; exit 1; }
# Each rank gets half the host's cores (its host rows and its explaining thread).
half=$(( $(nproc) / 2 ))
cat > /tmp/mpi2.sh <<EOS
#!/usr/bin/env bash
exec mpirun -n 2 $M -x OMP_NUM_THREADS=$half $B "\$@"
EOS
chmod +x /tmp/mpi2.sh
run() {  # LABEL KCP INSTANCES [kcp args]
  local label=$1 kcp=$2 list=$3; shift 3
  python3 perf/bench/run.py --kcp $kcp --revision $REV --space cuda --timeout 15 --grace 10 --instances $list \
    --label $label --machine nvidia-2gpu --out $R/$label.csv -- "$@" 2>&1 | tail -1
}
ls /tmp/dev/rcpsp_J30_15_5.fzn /tmp/dev/rcpsp_J30_22_6.fzn > /tmp/none.txt
ls /tmp/dev/rcpsp_J30_13_9.fzn /tmp/dev/rcpsp_J30_25_3.fzn /tmp/dev/rcpsp_J30_41_10.fzn /tmp/dev/rcpsp_J30_45_5.fzn > /tmp/proofs.txt
ls /tmp/dev/{accap_accap_a40,nfc,team-assignment,traveling-tppv,triangular_n39,wordpress}*.fzn > /tmp/open.txt
if [[ $PARTS == *proofs* ]]; then
  run gpu1-default $B /tmp/proofs.txt
  run gpu2-default /tmp/mpi2.sh /tmp/proofs.txt
  run gpu2-root /tmp/mpi2.sh /tmp/proofs.txt --mpi-explain root
  run gpu1-none $B /tmp/none.txt --learn none
  run gpu2-none /tmp/mpi2.sh /tmp/none.txt --learn none
  for f in $R/gpu*.csv; do echo "$(basename $f): $(tail -n +2 $f | cut -d, -f10,12,13,17,22 | tr '\n' ' ')"; done
  echo "== proofs $((SECONDS - t0)) s"
fi
if [[ $PARTS == *diag* ]]; then
  # The complete search alone (no portfolio, no learning) on 1 and 2 GPUs: runs of up to 4 subproblems
  # (the default), 16, against one at a time; each rank's figures (-v).
  for k in 1 2; do
    if [ $k = 1 ]; then caps="1 4 16"; else caps="1 4"; fi
    for r in $caps; do
      if [ $k = 1 ]; then cmd=$B; else cmd=/tmp/mpi2.sh; fi
      timeout 30 $cmd --space cuda -s -v -t 15000 --learn none --portfolio 0 --subproblem-runs $r /tmp/dev/rcpsp_J30_22_6.fzn > $R/diag-$k-runs$r.txt 2>&1
      echo "diag $k GPU runs $r: $(grep -E '^=====|solveTime=|^%%%mzn-stat: nodes=|rankIdleTime=|subproblemRuns=|subproblems=' $R/diag-$k-runs$r.txt | tr '\n' ' ')"
    done
  done
  echo "== diag $((SECONDS - t0)) s"
fi
if [[ $PARTS == *open* ]]; then
  run gpu1-open $B /tmp/open.txt
  run gpu2-open /tmp/mpi2.sh /tmp/open.txt
  for f in $R/gpu*-open.csv; do echo "$(basename $f): $(tail -n +2 $f | cut -d, -f10,12,13,17,22 | tr '\n' ' ')"; done
  echo "== open $((SECONDS - t0)) s"
fi
