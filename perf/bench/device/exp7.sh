#!/usr/bin/env bash
# Session 2, device call 7: racecheck after the failed-flag fix (ae307c9), then ablations on the subset, 5 s.
set -u
T=build/gpu/bin/kcp_tests-ae307c9
B=build/gpu/bin/kcp-ae307c9
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
export OMP_PROC_BIND=false
timeout 200 $CS --tool racecheck --error-exitcode 9 $T \
  --gtest_filter='FixpointOnBackend/Cuda.TeamFixpointEquals*:FixpointOnBackend/Cuda.Queue*:FixpointOnBackend/Cuda.Chains*:SearchOnBackend/Cuda.OptimumIsTheSame*' \
  > $OUT/racecheck-ae307c9.txt 2>&1; echo "racecheck rc=$?"; tail -3 $OUT/racecheck-ae307c9.txt
mkdir -p $OUT/b /tmp/inst
for f in gpu-bench/*.fzn.gz; do gunzip -c $f > /tmp/inst/$(basename $f .gz); done
SUB="rcpsp_J30_20_6 rcpsp_J30_13_9 accap_accap_a4_f30_t15 diameterc-mst_c_v20_a190_d4 wordpress_Wordpress7_Offers500 tower_100_100_20_100-04 triangular_n39 spot5_404 sudoku-opt_sudoku_p20 stripboard_common-emitter-simple"
run() { label=$1; shift
  python3 perf/bench/run.py --kcp $B --space cuda --timeout 5 --grace 10 --instances /tmp/inst --only $SUB \
    --label "$label" --machine nvidia-h100 --out $OUT/b/$label.csv -- "$@" 2>&1 | tail -1; }
run default
run no-sort --no-sort
run scratch1 --scratch-level 1
run team4 --team-size 4
(cd $OUT/b && tar czf ../exp7.tgz . ); rm -rf $OUT/b
