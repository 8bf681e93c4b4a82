#!/usr/bin/env bash
# kcp under `mpirun -n $KCP_MPI_RANKS` (default 2) with one thread per rank, for scripts that run a kcp
# binary (tests/differential/diff.py --kcp): KCP_MPI_KCP names the binary. Ranks beyond the cores are
# allowed (--oversubscribe); OpenMPI's refusal to run as root is lifted for CI's containers.
set -euo pipefail
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
exec mpirun -n "${KCP_MPI_RANKS:-2}" --oversubscribe --bind-to none -x OMP_NUM_THREADS=1 "${KCP_MPI_KCP:?}" "$@"
