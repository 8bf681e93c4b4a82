#!/usr/bin/env bash
# Session 16, issue 22: the L1 data cache. Kokkos 3 launches team kernels preferring shared memory
# (23 KB of L1 left on the H100); kcp now sets the search kernel's carve-out to what its teams need.
# 5 s each on exp43's eleven instances: REV_BASE (before), REV (fit, the default), REV with 2 warps per
# team, and the REV_BASE build with KCP_CUDA_MIN_BLOCKS=2 (128 registers); then Nsight Compute's
# launch, memory and warp state sections on one launch of triangular_n10 and nfc with REV.
# usage (device): bash perf/bench/device/exp45.sh REV_BASE REV; carry build/gpu/bin/kcp-{REV_BASE,REV,mb2-REV_BASE}.gz, gpu-bench*
set -u
BASE=$1; REV=$2
export OMP_PROC_BIND=false
t0=$SECONDS
for b in $BASE $REV mb2-$BASE; do gunzip -c build/gpu/bin/kcp-$b.gz > /tmp/kcp-$b && chmod +x /tmp/kcp-$b; done
mkdir -p $OUT/r /tmp/dev
for d in gpu-bench gpu-bench-mznlib gpu-bench-mznlib2; do
  for f in $d/*.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
done
for i in triangular_n10 nfc_24_4_2 roster-sickness_small-4 accap_accap_a4_f30_t15 sudoku-opt_sudoku_p20 \
         spot5_404 rcpsp_J30_25_3 roster-sickness_large-2 triangular_n39 wordpress_Wordpress7_Offers500 \
         diameterc-mst_c_v20_a190_d4; do
  ls /tmp/dev/$i*.fzn >> /tmp/set.txt
done
run() {  # label binary [kcp args]
  local label=$1 bin=$2; shift 2
  python3 perf/bench/run.py --kcp /tmp/kcp-$bin --revision $bin --space cuda --timeout ${T:-5} --grace 10 --instances /tmp/set.txt \
    --label $label --machine nvidia-h100 --out $OUT/r/$label.csv -- "$@" 2>&1 | tail -1
  echo "== $label $((SECONDS - t0)) s"
}
run base $BASE
run fit $REV
run fit-ts2 $REV --team-size 2
run mb2 mb2-$BASE
grep -h sharedCarveout /dev/null
/tmp/kcp-$REV -s -t 2000 /tmp/dev/triangular_n10.fzn | grep -E "sharedCarveout|nodes=|teamSize" | tr '\n' ' '; echo
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for i in triangular_n10 nfc_24_4_2; do
  timeout 100 $NCU --kernel-name-base demangled --kernel-name regex:ParallelSearch --launch-skip 20 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis \
    /tmp/kcp-$REV -s -t 10000 /tmp/dev/$i.fzn > $OUT/r/ncu-$i.txt 2>&1
  echo "ncu $i: $(grep -E 'Duration|Shared Memory Configuration Size|L1/TEX Hit Rate|Warp Cycles Per Issued' $OUT/r/ncu-$i.txt | tr -s ' ' | tr '\n' ';')"
done
tar czf $OUT/exp45.tgz -C $OUT r && rm -rf $OUT/r
