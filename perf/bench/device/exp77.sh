#!/usr/bin/env bash
# Session 27, issue 21: the development set (all 38, kcp's library FlatZinc) at 15 s on one GPU and on
# two (and four) under mpirun, the defaults of the binary named (506e7c2: halves, shallow givers, ranks
# after the first without free GPU teams, the dive cache), 16 host threads a rank.
#   one:    one GPU per run, the set's two halves (alternate instances in name order) at once on GPUs 0 and 1 (one run per GPU; exp68 found
#           four one-GPU runs at once on one host within 3 % of one alone);
#   one4:   as one, the set's four quarters (every fourth instance) at once on GPUs 0-3 (session 28);
#   two a|b, four a|b: mpirun -n 2 / -n 4 on the GPUs, one half of the set.
# KCP_ARGS (session 28): kcp's flags for the one-GPU parts, their CSVs then gpu1-REV-TAG-*.csv (TAG, default "args").
# Rows in $OUT/gpuK-REV[-HALF].csv (perf/bench/run.py, written as they come: a call's time limit keeps what ran).
# usage (device): bash perf/bench/device/exp77.sh REV PART [HALF] [PART [HALF]]...; carry gpu-mpi, gpu-bench-mznlib
set -u
REV=$1; shift
export OMP_PROC_BIND=false
t0=$SECONDS
mkdir -p /tmp/dev
nvidia-smi -L | tee $OUT/gpus.txt
tar xzf gpu-mpi/mpirt.tgz -C /tmp
source perf/bench/device/openmpi-env.sh /tmp/mpirt
B=/tmp/kcp-mpi-$REV
gunzip -c gpu-mpi/kcp-mpi-$REV.gz > $B && chmod +x $B
for f in gpu-bench-mznlib/*.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
ls /tmp/dev/*.fzn | sort > /tmp/all.txt
sed -n 'p;n' /tmp/all.txt > /tmp/a.txt; sed -n 'n;p' /tmp/all.txt > /tmp/b.txt  # alternate lines: halves of even time
for q in 0 1 2 3; do awk -v q=$q 'NR % 4 == q' /tmp/all.txt > /tmp/q$q.txt; done
O=$B; T=$REV
if [ -n "${KCP_ARGS:-}" ]; then
  printf '#!/usr/bin/env bash\nexec %s %s "$@"\n' "$B" "$KCP_ARGS" > /tmp/kcp-args.sh && chmod +x /tmp/kcp-args.sh
  O=/tmp/kcp-args.sh; T=$REV-${TAG:-args}
fi
for k in 2 4; do
  cat > /tmp/mpi$k.sh <<EOS
#!/usr/bin/env bash
exec mpirun -n $k --bind-to none -x OMP_NUM_THREADS=16 $B "\$@"
EOS
  chmod +x /tmp/mpi$k.sh
done
run() {  # LABEL KCP LIST OUT
  OMP_NUM_THREADS=16 python3 perf/bench/run.py --kcp $2 --revision $REV --space cuda --timeout 15 --grace 10 \
    --instances $3 --label $1 --machine $(nvidia-smi -L | wc -l)xH200 --out $4 2>&1 | tail -1
}
while [ $# -gt 0 ]; do
  part=$1; shift
  case $part in
    one)
      CUDA_VISIBLE_DEVICES=0 run gpu1 $O /tmp/a.txt $OUT/gpu1-$T-a.csv &
      CUDA_VISIBLE_DEVICES=1 run gpu1 $O /tmp/b.txt $OUT/gpu1-$T-b.csv &
      wait ;;
    one4)
      for q in 0 1 2 3; do CUDA_VISIBLE_DEVICES=$q run gpu1 $O /tmp/q$q.txt $OUT/gpu1-$T-q$q.csv & done
      wait ;;
    two|four)
      half=$1; shift
      k=2; [ $part = four ] && k=4
      run gpu$k /tmp/mpi$k.sh /tmp/$half.txt $OUT/gpu$k-$REV-$half.csv ;;
  esac
  echo "== $part $((SECONDS - t0)) s"
done
for f in $OUT/gpu*.csv; do
  python3 - $f <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r['label'], r['instance'], r['status'], r['objective'], r['time_s'], r['time_best_s'], r['rank_idle_s'], r['error'][:80], sep=',')
PY
done
