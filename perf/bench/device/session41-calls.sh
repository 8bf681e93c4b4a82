#!/usr/bin/env bash
# Session 41 (issue 56; perf/NOTES.md entry 66): the device calls, in order, on one H200 (1,667 s of the 1,800).
# Carry gpu-diag (kcp.gz, kcp_tests.gz: the cuda preset's binaries at 458cfeb; kcp-prof-poll.gz: the cuda preset with
# -DKCP_PHASE_PROFILE=ON at the same tree), gpu-data (devk.tgz: the dev set compiled with kcp's mznlib) and gpu-sched
# (the scheduling set compiled with kcp's mznlib). Kept for the record: the scripts ran from gpu-diag/ (ignored).
# Call 1: bash gpu-diag/s41a.sh: the phase profile with the stop flag's read timed apart, --stop-poll 1 / 16 / 64
#   (perf/results/nvidia-h200/phase-profile/phases-458cfeb-stop-poll-1-16-64.txt).
# Call 2: REV=458cfeb BUDGET=545 bash gpu-diag/s41b.sh: CUDA tests 55/55; the dev set at 15 s, --space cuda and
#   --space openmp on the host's 16 cores alternating, instances 1-35 of the sorted list.
# Call 3: REV=458cfeb FROM=35 BUDGET=540 bash gpu-diag/s41c.sh: the dev set's last 3, then the scheduling set the same
#   way (perf/results/nvidia-h200/gpu-vs-host/*-458cfeb.csv: the dev CSVs are calls 2 and 3 concatenated, rows whole).
# Call 4: BUDGET=330 bash gpu-diag/s41d.sh: team shapes 8 / 2 / 1 warps, 5 s (team-shapes/shapes-5s-458cfeb.csv).
# Call 5: bash gpu-diag/s41e.sh without -s (printed no statistics; not used); call 6: the same with -s
#   (team-shapes/shape-stats-3s-458cfeb.txt).

# ---- gpu-diag/s41a.sh
# session 41 call 1 (issue 56): the phase profile with take_work's stop-flag read timed on its own
# (kcp-prof-poll: the cuda preset with KCP_PHASE_PROFILE=ON at this session's tree), --space cuda with
# --stop-poll 1 (the old behaviour: every node), 16 and 64, 5 s each, six dev/scheduling instances.
set -u
for b in kcp-prof-poll; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
nvidia-smi -L > $OUT/device.txt; nproc >> $OUT/device.txt
export OMP_PROC_BIND=false
mkdir -p /tmp/devk $OUT/prof && tar xzf gpu-data/devk.tgz -C /tmp/devk
for f in /tmp/devk/roster-sickness_small-4.fzn /tmp/devk/triangular_n10.fzn /tmp/devk/spot5_404.fzn \
         /tmp/devk/wordpress_Wordpress7_Offers500.fzn /tmp/devk/accap_accap_a40_f800_t180.fzn gpu-sched/jobshop_la21.fzn; do
  n=$(basename $f .fzn)
  for k in 1 16 64; do
    timeout 40 gpu-diag/kcp-prof-poll -t 5000 -s --space cuda --stop-poll $k $f > $OUT/prof/$n-$k.out 2> $OUT/prof/$n-$k.err
    echo "$n poll=$k rc=$? $(grep -h 'kcp-phases' $OUT/prof/$n-$k.err | tr '\n' ' ')" >> $OUT/phases.txt
    echo "$n $k $(grep -h -E '^%%%mzn-stat: (nodes|objective|solveTime)=' $OUT/prof/$n-$k.out | tr '\n' ' ')"
  done
done
echo "== $SECONDS s"

# ---- gpu-diag/s41b.sh
# session 41 calls 2-4 (issue 56): the dev set at 15 s on one H200, --space cuda against --space openmp on the host's 16 cores
# (the same binary, this session's tree with --stop-poll 16 by default), instance by instance alternating, from instance FROM of the sorted list until the budget.
set -u
for b in kcp kcp_tests; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
nvidia-smi -L > $OUT/device.txt; nproc >> $OUT/device.txt
if [ "${TESTS:-1}" = 1 ]; then
  t=$SECONDS
  timeout 260 gpu-diag/kcp_tests --gtest_filter='*Cuda*' > $OUT/kcp_tests-cuda.txt 2>&1; echo "kcp_tests rc=$? $((SECONDS - t)) s"
  grep -E "^\[  (PASSED|FAILED) |^\[==========\]|Failure" $OUT/kcp_tests-cuda.txt | tail -8
fi
mkdir -p /tmp/devk && tar xzf gpu-data/devk.tgz -C /tmp/devk
export OMP_PROC_BIND=false
ls /tmp/devk/*.fzn | sort | tail -n +$(( ${FROM:-0} + 1 )) > /tmp/list.txt
i=${FROM:-0}
for f in $(cat /tmp/list.txt); do
  echo $f > /tmp/one.txt
  for sp in cuda openmp; do b=kcp
    OMP_NUM_THREADS=16 python3 perf/bench/run.py --kcp gpu-diag/$b --revision ${REV:-s41} --space $sp --timeout ${TL:-15} --grace 10 \
      --instances /tmp/one.txt --label $sp-15s --machine 1xH200 --out $OUT/part-$sp.csv > /dev/null 2>&1
    [ -f $OUT/dev-$sp.csv ] || head -1 $OUT/part-$sp.csv > $OUT/dev-$sp.csv
    tail -n +2 $OUT/part-$sp.csv >> $OUT/dev-$sp.csv
  done
  i=$((i + 1))
  [ $SECONDS -gt ${BUDGET:-560} ] && { echo "stopped after instance $i of the list (time)"; break; }
done
echo "done through $i"
rm -f $OUT/part-*.csv
wc -l $OUT/dev-*.csv
echo "== $SECONDS s"

# ---- gpu-diag/s41c.sh
# session 41 call 3 (issue 56): the dev set's last instances (from FROM) as in s41b.sh, then the scheduling set
# (carry gpu-sched) the same way: --space cuda against --space openmp on the host's 16 cores, 15 s, alternating.
set -u
for b in kcp; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
nvidia-smi -L > $OUT/device.txt; nproc >> $OUT/device.txt
mkdir -p /tmp/devk && tar xzf gpu-data/devk.tgz -C /tmp/devk
export OMP_PROC_BIND=false
ls /tmp/devk/*.fzn | sort | tail -n +$(( ${FROM:-0} + 1 )) > /tmp/list.txt
ls gpu-sched/*.fzn | sort | tail -n +$(( ${SFROM:-0} + 1 )) | sed 's/^/sched:/' >> /tmp/list.txt
i=0
for g in $(cat /tmp/list.txt); do
  case $g in sched:*) set=sched; f=${g#sched:};; *) set=dev; f=$g;; esac
  echo $f > /tmp/one.txt
  for sp in cuda openmp; do
    OMP_NUM_THREADS=16 python3 perf/bench/run.py --kcp gpu-diag/kcp --revision ${REV:-s41} --space $sp --timeout ${TL:-15} --grace 10 \
      --instances /tmp/one.txt --label $sp-15s --machine 1xH200 --out $OUT/part-$sp.csv > /dev/null 2>&1
    [ -f $OUT/$set-$sp.csv ] || head -1 $OUT/part-$sp.csv > $OUT/$set-$sp.csv
    tail -n +2 $OUT/part-$sp.csv >> $OUT/$set-$sp.csv
  done
  i=$((i + 1))
  [ $SECONDS -gt ${BUDGET:-560} ] && { echo "stopped after entry $i of the list (time): $g"; break; }
done
echo "done through $i"
rm -f $OUT/part-*.csv
wc -l $OUT/*-*.csv
echo "== $SECONDS s"

# ---- gpu-diag/s41d.sh
# session 41 call 4 (issue 56): team shapes again now that the stop flag is read every few nodes (entry 25's
# shape sweep ran with it read every node): 8 warps a team (the default), 2 and 1, teams = resident threads /
# team threads (the default count), the stop flag read every 16, 64 and 128 nodes (the reads per node the same),
# 5 s each, --space cuda, the dev set's small and medium models.
set -u
for b in kcp; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
nvidia-smi -L > $OUT/device.txt; nproc >> $OUT/device.txt
mkdir -p /tmp/devk $OUT/shape && tar xzf gpu-data/devk.tgz -C /tmp/devk
export OMP_PROC_BIND=false
echo "instance,warps,stop_poll,rc,nodes,objective,status" > $OUT/shapes.csv
for n in roster-sickness_small-4 triangular_n10 spot5_404 wordpress_Wordpress7_Offers500 nfc_24_4_2 team-assignment_data3_5_31 \
         traveling-tppv_circ14cnonbal blocks-world_16-4-5 tower_100_100_20_100-04 sudoku-opt_sudoku_p20 stripboard_common-emitter-simple triangular_n39; do
  for shape in "8 16" "2 64" "1 128"; do set -- $shape
    timeout 30 gpu-diag/kcp -t 5000 -s --space cuda --team-size $1 --stop-poll $2 /tmp/devk/$n.fzn > $OUT/shape/$n-$1.out 2> $OUT/shape/$n-$1.err
    rc=$?
    nodes=$(grep -h '^%%%mzn-stat: nodes=' $OUT/shape/$n-$1.out | tail -1 | cut -d= -f2)
    obj=$(grep -h '^%%%mzn-stat: objective=' $OUT/shape/$n-$1.out | tail -1 | cut -d= -f2)
    st=$(grep -h -E '^(==========|=====UNKNOWN=====|----------)' $OUT/shape/$n-$1.out | tail -1)
    echo "$n,$1,$2,$rc,$nodes,$obj,$st" >> $OUT/shapes.csv
    [ $SECONDS -gt ${BUDGET:-400} ] && break 2
  done
done
cat $OUT/shapes.csv
echo "== $SECONDS s"

# ---- gpu-diag/s41e.sh
# session 41 call 5 (issue 56): why one- and two-warp teams lose on some small models (s41d): the same shapes,
# 3 s each, with the store copies, restores and replays per node each run reports.
set -u
for b in kcp; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
mkdir -p /tmp/devk && tar xzf gpu-data/devk.tgz -C /tmp/devk
export OMP_PROC_BIND=false
for n in sudoku-opt_sudoku_p20 spot5_404 stripboard_common-emitter-simple nfc_24_4_2 roster-sickness_small-4; do
  for shape in "8 16" "2 64" "1 128"; do set -- $shape
    timeout 20 gpu-diag/kcp -t 3000 --space cuda --team-size $1 --stop-poll $2 /tmp/devk/$n.fzn > /tmp/o.txt 2>&1
    echo "$n warps=$1 $(grep -h -E '^%%%mzn-stat: (nodes|restores|replayedDecisions|teams|storeCopiesPerTeam|copyDistance|snapshots|peakDepth|subproblems|fixpointIterationsPerNode|diveCacheHits|launches)=' /tmp/o.txt | sed 's/%%%mzn-stat: //' | tr '\n' ' ')" >> $OUT/shape-stats.txt
  done
done
cat $OUT/shape-stats.txt
