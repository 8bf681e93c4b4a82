#!/bin/sh
# ctest kcp.differential.batch: the path the CUDA differential takes (diff.py --emit here, then
# --replay through kcp_batch, Kokkos started once per process) on 100 models of this build.
# usage: batch_test.sh PYTHON DIFF_PY KCP KCP_BATCH FZN_GECODE
set -eu
py=$1 diff=$2 kcp=$3 batch=$4 gecode=$5
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$py" "$diff" --emit "$dir/models" --models 100 --seed 2 --gecode "$gecode"
"$py" "$diff" --kcp "$kcp" --batch "$batch" --replay "$dir/models" --jobs 2 -- --space serial
