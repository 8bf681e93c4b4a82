#!/usr/bin/env bash
# Session 10, issue 18: does each global family pay on the H100? 15 s runs, the same FlatZinc with the
# family native and with --no-global (kcp's decomposition):
#   all_different on the instances whose kcp-library FlatZinc calls it (gpu-bench-mznlib/);
#   var_element on the six whose standard FlatZinc has array_var_*_element (gpu-bench/).
# usage (device): bash perf/bench/device/exp32.sh REV; carry build/gpu/bin/kcp-REV, gpu-bench, gpu-bench-mznlib
set -u
REV=$1; B=build/gpu/bin/kcp-$REV
mkdir -p $OUT/b /tmp/ad /tmp/ve
for n in sudoku-opt_sudoku_p20 team-assignment_data3_5_31 traveling-tppv_circ14cnonbal stripboard_common-emitter-simple; do
  gunzip -c gpu-bench-mznlib/$n.fzn.gz > /tmp/ad/$n.fzn; done
for n in blocks-world_16-4-5 diameterc-mst_c_v20_a190_d4 gfd-schedule_n55f2d50m30k3_10124 stripboard_common-emitter-simple \
         tower_100_100_20_100-04 traveling-tppv_circ14cnonbal; do gunzip -c gpu-bench/$n.fzn.gz > /tmp/ve/$n.fzn; done
run() {  # run LABEL DIR [kcp args]
  local label=$1 dir=$2; shift 2
  python3 perf/bench/run.py --kcp $B --revision $REV --space cuda --timeout 15 --instances $dir --label $label \
    --machine nvidia-h100 --out $OUT/b/$label.csv -- "$@" 2>&1 | tail -1
}
run cuda-15s-all-different-native-$REV /tmp/ad
run cuda-15s-all-different-decomposed-$REV /tmp/ad --no-global all_different
run cuda-15s-var-element-native-$REV /tmp/ve
run cuda-15s-var-element-decomposed-$REV /tmp/ve --no-global var_element
