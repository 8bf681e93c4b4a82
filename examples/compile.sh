#!/usr/bin/env bash
# Recompiles the example models to FlatZinc with MiniZinc's standard library and kcp's mznlib.
# usage: examples/compile.sh   (writes examples/<name>.fzn next to each .mzn)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/compile.msc" <<MSC
{ "id": "kcp.compile", "name": "compile only", "version": "1.0", "mznlib": "$here/../mznlib",
  "executable": "/bin/false", "supportsFzn": true }
MSC
for m in "$here"/*.mzn; do
  minizinc -c --solver "$tmp/compile.msc" "$m" --fzn "${m%.mzn}.fzn" --no-output-ozn
  echo "${m%.mzn}.fzn"
done
