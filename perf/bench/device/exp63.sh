#!/usr/bin/env bash
# Session 23: the GPU's free teams' share (--portfolio) on one GPU, 15 s (perf/NOTES.md entry 34).
# exp62 found that one GPU's search saturates at about a quarter of its teams on diameterc-mst, so the
# free teams (half by default) take about half the GPU from the complete search: --portfolio 0 proves
# it 1.4x sooner (but turns the host's rows off, and the optimum comes late).
#   pick SHARES...: the instances that prove in 1-5 s and the open ones where the free rows found the
#                   most (PICK), at each share;
#   a|b SHARES...:  a half of the development set (exp57's halves), at each share.
# Rows per share in $OUT/cuda-15s-pSHARE-REV-SET.csv (written as they come: a call's time limit keeps
# what ran). The binary is kcp-mpi-REV.gz (the MPI build runs alone without mpirun; s23a: fa142ce with
# exp62-stock.patch, which acts only under mpirun).
# usage (device): bash perf/bench/device/exp63.sh REV pick|a|b SHARE...; carry gpu-mpi, gpu-bench-mznlib
set -u
REV=$1 SET=$2; shift 2
export OMP_PROC_BIND=false
t0=$SECONDS
mkdir -p /tmp/dev
nvidia-smi -L | tee $OUT/gpus.txt
gunzip -c gpu-mpi/kcp-mpi-$REV.gz > /tmp/kcp && chmod +x /tmp/kcp
for f in gpu-bench-mznlib/*.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
ls /tmp/dev/*.fzn | sort > /tmp/all.txt
PICK="diameterc-mst rcpsp_J30_13_9 rcpsp_J30_25_3 rcpsp_J30_41_10 accap_accap_a40 gfd-schedule spot5 stripboard
      team-assignment tower traveling-tppv triangular_n39"
case $SET in
  pick) cp /tmp/all.txt /tmp/list.txt; only=(--only $PICK) ;;
  a) head -19 /tmp/all.txt > /tmp/list.txt; only=() ;;
  b) tail -n +20 /tmp/all.txt > /tmp/list.txt; only=() ;;
esac
for p in "$@"; do
  python3 perf/bench/run.py --kcp /tmp/kcp --revision $REV --space cuda --timeout 15 --grace 10 --instances /tmp/list.txt \
    --label portfolio-$p --machine nvidia-h100 --out $OUT/cuda-15s-p$p-$REV-$SET.csv "${only[@]}" -- --portfolio $p 2>&1 | tail -1
  python3 - $OUT/cuda-15s-p$p-$REV-$SET.csv <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r['label'], r['instance'], r['status'], r['objective'], r['time_s'], r['time_best_s'], sep=',')
PY
  echo "== p=$p $((SECONDS - t0)) s"
done
