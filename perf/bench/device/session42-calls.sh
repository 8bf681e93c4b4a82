#!/usr/bin/env bash
# Session 42 (issue 56; perf/NOTES.md entry 67): the device calls, in order, on one H200 (~1,450 s of the 1,800).
# Carry gpu-diag (kcp.gz, kcp_tests.gz: the cuda preset's binaries at 5a2b977, behaviour as 11c5ef7) and gpu-data
# (devk.tgz, breadth-kcp.tgz: the dev and breadth sets compiled with kcp's mznlib; copy-lists/: the three lists of
# perf/results/vm/copy-budget/). Kept for the record: the scripts ran from gpu-diag/ (ignored).
# Call 1: REV=5a2b977 TL=4 BUDGET=540 bash gpu-diag/s42a.sh: the copies' spacing, 16 GiB, two warps a team
#   (perf/results/nvidia-h200/copies/copies-4s-5a2b977-*.csv; renamed from ab-LABEL.csv).
# Call 2: REV=5a2b977 BUDGET=545 bash gpu-diag/s42b.sh: CUDA tests 56/56; the dev set at 15 s, --space cuda and
#   --space openmp on the host's 16 cores alternating, instances 1-35 of the sorted list.
# Call 3: REV=5a2b977 BUDGET=480 bash gpu-diag/s42c.sh: the last 3 (gpu-vs-host/dev-*-15s-5a2b977.csv: calls 2 and 3
#   concatenated, rows whole), then two warps a team on the other 26 dev instances
#   (team-shapes/shapes-4s-5a2b977-rest-*.csv; renamed from shape-LABEL.csv).
# Call 4: REV=5a2b977 TL=4 BUDGET=430 bash gpu-diag/s42d.sh: four warps a team against the default, every dev instance
#   (team-shapes/shapes-4s-5a2b977-dev-*.csv; renamed from shape4-LABEL.csv).

# ---- gpu-diag/s42a.sh
# session 42 call 1 (issue 56): the copies on a GPU. Per instance, alternating configs, TL s each (--space cuda):
#  spaced-1g (the default: 1 GiB, distance automatic), distance1-1g (--copy-distance 1), auto-16g (--copy-budget 16384),
#  and on the team-shape instances ts2-16g (2 warps a team, 16 GiB).
set -u
for b in kcp; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
nvidia-smi -L > $OUT/device.txt; nproc >> $OUT/device.txt
mkdir -p /tmp/devk /tmp/breadth-kcp && tar xzf gpu-data/devk.tgz -C /tmp/devk && tar xzf gpu-data/breadth-kcp.tgz -C /tmp/breadth-kcp
export OMP_PROC_BIND=false
SHAPE="nfc_24_4_2 roster-sickness_small-4 spot5_404 sudoku-opt_sudoku_p20 triangular_n10 triangular_n39 wordpress_Wordpress7_Offers500 blocks-world_16-4-5 stripboard_common-emitter-simple team-assignment_data3_5_31 tower_100_100_20_100-04 traveling-tppv_circ14cnonbal"
{ for n in $SHAPE; do echo devk/$n.fzn; done; cat gpu-data/copy-lists/*.list; } | awk '!s[$0]++' | sed 's#^#/tmp/#' > /tmp/list.txt
wc -l /tmp/list.txt
for f in $(cat /tmp/list.txt); do
  echo $f > /tmp/one.txt; n=$(basename $f .fzn)
  cfgs="spaced-1g:|distance1-1g:--copy-distance 1|auto-16g:--copy-budget 16384"
  case " $SHAPE " in *" $n "*) cfgs="$cfgs|ts2-16g:--copy-budget 16384 --team-size 2";; esac
  IFS='|' read -ra CFG <<< "$cfgs"
  for c in "${CFG[@]}"; do l=${c%%:*}
    OMP_NUM_THREADS=16 python3 perf/bench/run.py --kcp gpu-diag/kcp --revision ${REV:-s42} --space cuda --timeout ${TL:-4} --grace 10 \
      --instances /tmp/one.txt --label $l --machine 1xH200 --out $OUT/part.csv -- ${c#*:} > /dev/null 2>&1
    [ -f $OUT/ab-$l.csv ] || head -1 $OUT/part.csv > $OUT/ab-$l.csv
    tail -n +2 $OUT/part.csv >> $OUT/ab-$l.csv
  done
  [ $SECONDS -gt ${BUDGET:-560} ] && { echo "stopped after $n (time)"; break; }
done
rm -f $OUT/part.csv; wc -l $OUT/ab-*.csv
echo "== $SECONDS s"

# ---- gpu-diag/s42b.sh
# session 42 calls 2-3 (issue 56): the dev set at 15 s on one H200, --space cuda against --space openmp on the host's 16 cores
# (the same binary, 5a2b977: spacing automatic), instance by instance alternating, from instance FROM of the sorted list until the budget.
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

# ---- gpu-diag/s42c.sh
# session 42 call 3 (issue 56): the dev set's last instances (FROM) as in s42b.sh; then 2 warps a team (--team-size 2,
# 16 GiB of copies) against the default on the dev instances not in s42a.sh, TL s each, alternating.
set -u
TESTS=0 FROM=${FROM:-35} BUDGET=${BUDGET1:-200} bash gpu-diag/s42b.sh
SHAPE="nfc_24_4_2 roster-sickness_small-4 spot5_404 sudoku-opt_sudoku_p20 triangular_n10 triangular_n39 wordpress_Wordpress7_Offers500 blocks-world_16-4-5 stripboard_common-emitter-simple team-assignment_data3_5_31 tower_100_100_20_100-04 traveling-tppv_circ14cnonbal"
ls /tmp/devk/*.fzn | sort > /tmp/all.txt
for f in $(cat /tmp/all.txt); do
  n=$(basename $f .fzn); case " $SHAPE " in *" $n "*) continue;; esac
  echo $f > /tmp/one.txt
  for c in "spaced-1g:" "ts2-16g:--copy-budget 16384 --team-size 2"; do l=${c%%:*}
    OMP_NUM_THREADS=16 python3 perf/bench/run.py --kcp gpu-diag/kcp --revision ${REV:-s42} --space cuda --timeout ${TL:-4} --grace 10 \
      --instances /tmp/one.txt --label $l --machine 1xH200 --out $OUT/part.csv -- ${c#*:} > /dev/null 2>&1
    [ -f $OUT/shape-$l.csv ] || head -1 $OUT/part.csv > $OUT/shape-$l.csv
    tail -n +2 $OUT/part.csv >> $OUT/shape-$l.csv
  done
  [ $SECONDS -gt ${BUDGET:-540} ] && { echo "stopped after $n (time)"; break; }
done
rm -f $OUT/part.csv; wc -l $OUT/*.csv
echo "== $SECONDS s"

# ---- gpu-diag/s42d.sh
# session 42 call 4 (issue 56): four warps a team (--team-size 4, 2,112 teams, 2 GiB so each keeps the copies of the
# default's teams) against the default, every dev instance, TL s each, alternating.
set -u
for b in kcp; do [ -x gpu-diag/$b ] || { gunzip -c gpu-diag/$b.gz > gpu-diag/$b && chmod +x gpu-diag/$b; }; done
nvidia-smi -L > $OUT/device.txt; nproc >> $OUT/device.txt
mkdir -p /tmp/devk && tar xzf gpu-data/devk.tgz -C /tmp/devk
export OMP_PROC_BIND=false
for f in $(ls /tmp/devk/*.fzn | sort); do
  echo $f > /tmp/one.txt
  for c in "default:" "ts4-2g:--copy-budget 2048 --team-size 4"; do l=${c%%:*}
    OMP_NUM_THREADS=16 python3 perf/bench/run.py --kcp gpu-diag/kcp --revision ${REV:-s42} --space cuda --timeout ${TL:-4} --grace 10 \
      --instances /tmp/one.txt --label $l --machine 1xH200 --out $OUT/part.csv -- ${c#*:} > /dev/null 2>&1
    [ -f $OUT/shape4-$l.csv ] || head -1 $OUT/part.csv > $OUT/shape4-$l.csv
    tail -n +2 $OUT/part.csv >> $OUT/shape4-$l.csv
  done
  [ $SECONDS -gt ${BUDGET:-420} ] && { echo "stopped after $f (time)"; break; }
done
rm -f $OUT/part.csv; wc -l $OUT/*.csv
echo "== $SECONDS s"
