#!/usr/bin/env bash
# Session 16, issue 22: where the search kernel's warps stall, line by line. Nsight Compute's source
# counters (warp stall sampling) on one search launch of triangular_n10 and nfc_24_4_2 (default
# shape), from a -lineinfo build (build/cuda-prof, the cuda preset with CMAKE_CXX_FLAGS=-lineinfo).
# usage (device): bash perf/bench/device/exp44.sh LABEL; carry build/gpu/bin/kcp-LABEL.gz, gpu-bench
set -u
L=$1
B=/tmp/kcp-$L
gunzip -c build/gpu/bin/kcp-$L.gz > $B && chmod +x $B
mkdir -p $OUT/r /tmp/dev
# The source view reads the files at the paths the line information names (this tree's, built elsewhere).
mkdir -p /work && [ -e /work/main ] || ln -s "$PWD" /work/main
for f in gpu-bench/*.fzn.gz; do gunzip -c $f > /tmp/dev/$(basename $f .gz); done
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for i in ${INSTANCES:-triangular_n10 nfc_24_4_2}; do
  timeout 200 $NCU --kernel-name-base demangled --kernel-name regex:ParallelSearch --launch-skip 20 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section InstructionStats --section LaunchStats \
    -o /tmp/$i $B -s -t 10000 /tmp/dev/$i.fzn > $OUT/r/run-$i.txt 2>&1
  echo "$i rc=$?"
  $NCU -i /tmp/$i.ncu-rep --page source --csv --print-source cuda > $OUT/r/source-cuda-$i.csv 2> $OUT/r/source-cuda-$i.err
  $NCU -i /tmp/$i.ncu-rep --page details > $OUT/r/details-$i.txt 2>&1
  echo "$i cuda lines $(wc -l < $OUT/r/source-cuda-$i.csv)"
  [ -n "${SASS:-}" ] && $NCU -i /tmp/$i.ncu-rep --page source --csv --print-source sass > $OUT/r/source-sass-$i.csv 2>&1
done
tar czf $OUT/exp44.tgz -C $OUT r && rm -rf $OUT/r
