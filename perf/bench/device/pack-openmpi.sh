#!/usr/bin/env bash
# Packs Debian's OpenMPI 4.1 runtime (mpirun, its components, PMIx, the libraries they load that a
# CUDA image may lack) into DIR, for a device machine that has no MPI: perf/bench/device/openmpi-env.sh
# DIR there sets OPAL_PREFIX, PATH and LD_LIBRARY_PATH to it. About 15 MB.
# usage (here): bash perf/bench/device/pack-openmpi.sh DIR
set -euo pipefail
dir=$1
rm -rf "$dir"; mkdir -p "$dir/usr/bin" "$dir/usr/lib/x86_64-linux-gnu" "$dir/usr/share" "$dir/libs"
cp -L /usr/bin/orterun "$dir/usr/bin/orterun"
ln -s orterun "$dir/usr/bin/mpirun"
cp -L /usr/bin/orted "$dir/usr/bin/orted"
cp -a /usr/lib/x86_64-linux-gnu/openmpi /usr/lib/x86_64-linux-gnu/pmix2 "$dir/usr/lib/x86_64-linux-gnu/"
rm -rf "$dir/usr/lib/x86_64-linux-gnu/openmpi/lib/"*java* "$dir/usr/lib/x86_64-linux-gnu/openmpi/include"
cp -a /usr/share/openmpi "$dir/usr/share/"
mkdir -p "$dir/etc"; cp -a /etc/openmpi "$dir/etc/"
# Every shared library the runtime loads, but the C library's own (the device's glibc is newer).
objs=$(find "$dir/usr" -name '*.so*' -type f; echo "$dir/usr/bin/orterun" "$dir/usr/bin/orted")
for o in $objs; do ldd "$o" 2>/dev/null | awk '/=> \//{print $3}'; done | sort -u |
  grep -vE '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' | while read -r lib; do cp -Ln "$lib" "$dir/libs/"; done
du -sh "$dir"
