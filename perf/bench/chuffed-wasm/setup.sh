#!/usr/bin/env bash
# Installs MiniZinc's WebAssembly build (npm package minizinc@4.5.1, from the npm registry) into DIR
# (default perf/bench/chuffed-wasm/.wasm, ignored by git) for mzn-wasm.cjs: Chuffed 0.14.0 with its own library
# where this machine has no native Chuffed. Needs node (Debian: nodejs, npm).
set -euo pipefail
dir=${1:-$(dirname "$0")/.wasm}
mkdir -p "$dir"
npm install --prefix "$dir" --no-audit --no-fund minizinc@4.5.1 > /dev/null
cp "$dir/node_modules/minizinc/dist/minizinc-worker.js" "$dir/worker.cjs"
echo "$dir"
