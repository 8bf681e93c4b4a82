#!/usr/bin/env bash
# Session 25, issue 21: the new defaults under mpirun on GPUs (halves, shallow givers, --rank-portfolio 0
# resolved by the driver) run on a GPU: two ranks sharing one GPU (the path, not its speed), against one
# process and against the old defaults named; free teams counted (rank 0's alone under the new ones).
# Not run yet: session 25's device time ran out before it (the new defaults' measurements, exp69 and
# exp70, named the three options; this runs the driver's resolution of them).
# usage (device): bash perf/bench/device/exp71.sh REV; carry gpu-mpi (mpirt.tgz, kcp-mpi-REV.gz), gpu-bench-mznlib
set -u
REV=$1
STATS='solveTime|objective|teams|freeTeams|hostTeams|completeNodes|rankIdleTime|mpiPiecesSent|provedByNogood'
source perf/bench/device/mpi-prep.sh exp71 $REV diameterc-mst_c_v20_a190_d4 rcpsp_J30_13_9 rcpsp_J30_22_6
for i in diameterc-mst_c_v20_a190_d4 rcpsp_J30_13_9; do
  on 1 $i one
  on 2 $i auto
  on 2 $i old --subproblem-path branching --end-game-givers any --rank-portfolio 0.25
done | tee $R/path-$REV.txt
on 2 rcpsp_J30_22_6 auto-none --learn none | tee -a $R/path-$REV.txt
echo "== $((SECONDS - t0)) s"
