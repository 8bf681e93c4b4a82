#!/usr/bin/env bash
# Session 8: exp23's differential with holes lost solutions on CUDA (72 of 2,000 models; all-solutions
# sets short of Gecode's, never an extra one; none on the host). Bisect by option on nine of the
# failing models (gpu-holes/fails: diff.py --replay layout), three times each (a race may not repeat),
# then racecheck on kcp itself for the first of them.
# usage (device): bash perf/bench/device/exp24.sh REV; carry build/gpu/bin/kcp-REV, build/gpu/race/kcp_batch-REV,
# gpu-holes/fails/.
set -u
REV=$1; B=build/gpu/bin/kcp-$REV
export OMP_PROC_BIND=false
t0=$SECONDS
M=gpu-holes/fails/m10.fzn
$B --space cuda -a -s $M > $OUT/m10-stats.txt 2>&1
grep -E "%%%mzn-stat: (teams|teamSize|vectorLength|subproblem|probe|fixpoint|queue|copy|store|bitset|scratch)" $OUT/m10-stats.txt | head -30
echo "solutions: $(grep -c -- ---------- $OUT/m10-stats.txt) (Gecode: 420)"
variant() {
  local label=$1; shift
  for rep in 1 2 3; do
    r=$(timeout 60 python3 tests/differential/diff.py --kcp $B --batch build/gpu/race/kcp_batch-$REV --replay gpu-holes/fails \
      --jobs 3 -- --space cuda "$@" 2>&1 | tail -1)
    echo "$label rep$rep: $r"
  done
}
variant default
variant probe0 --probe-ms 0
variant span0 --bitset-span 0
variant copy0 --copy-distance 0
variant nosnap --no-snapshot
variant ac1 --fixpoint ac1
variant queue --fixpoint queue
variant ts1 --team-size 1
variant vl1 --vector-length 1
variant ts1vl1 --team-size 1 --vector-length 1
variant ts2vl1 --team-size 2 --vector-length 1
variant ts32vl1 --team-size 32 --vector-length 1
variant scratch1 --scratch-level 1
echo "== variants $((SECONDS - t0)) s"
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 200 $CS --tool racecheck $B --space cuda -a $M > $OUT/racecheck-m10.txt 2>&1
echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $OUT/racecheck-m10.txt) solutions $(grep -c -- ---------- $OUT/racecheck-m10.txt)"
grep -m5 -A3 "Race reported\|Error" $OUT/racecheck-m10.txt | head -30
timeout 150 $CS --tool synccheck $B --space cuda -a $M > $OUT/synccheck-m10.txt 2>&1
echo "synccheck rc=$? $(tail -1 $OUT/synccheck-m10.txt) solutions $(grep -c -- ---------- $OUT/synccheck-m10.txt)"
echo "== $((SECONDS - t0)) s"
