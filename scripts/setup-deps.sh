#!/usr/bin/env bash
# Installs everything kcp needs to build and test for one backend:
#   - Debian packages (compilers, cmake, ninja, CLI11, fmt, GoogleTest, MiniZinc, Gecode's fzn-gecode,
#     OpenMPI for the -mpi presets);
#   - Kokkos 3.4.01 and Kokkos Kernels 3.4.01 from Debian's trilinos 13.2.0 source package,
#     checksum-verified, patched for CUDA 13 / Hopper (cmake/patches/), built and installed into a
#     cache outside the clone, keyed by version, backend, options and patch hash.
# A second run finds everything in place and returns in seconds.
#
# usage: scripts/setup-deps.sh [serial|openmp|cuda] [--debug] [--no-kernels] [--print-prefix]
#                              [--kokkos-archive PATH/kokkos-X.tar.gz]
#   --kokkos-archive: build that Kokkos release instead of Debian's 3.4.01 (Kokkos Kernels from
#   kokkos-kernels-X.tar.gz beside it), checksum checked (known releases below, else KCP_KOKKOS_SHA256
#   and KCP_KERNELS_SHA256), no patches; linked as <backend>-kokkosX[-nokernels]. E.g. ../shared/deps'
#   4.6.01 for the compatibility build: cmake -B build -DKokkos_ROOT=$(scripts/setup-deps.sh openmp
#   --no-kernels --kokkos-archive ../shared/deps/kokkos-4.6.01.tar.gz --print-prefix) -DKCP_ENABLE_KERNELS=OFF
# env:   KCP_DEPS_DIR   cache folder (default: ${XDG_CACHE_HOME:-$HOME/.cache}/kcp)
#        KCP_CUDA_ARCH  Kokkos GPU architecture for the cuda backend (default: HOPPER90)
#        KCP_JOBS       parallel build jobs (default: nproc)
set -euo pipefail

die() { echo "setup-deps: error: $*" >&2; exit 1; }
note() { echo "setup-deps: $*" >&2; }

backend=openmp
debug=0
kernels=1
print_prefix=0
archive=
while [ $# -gt 0 ]; do
  case "$1" in
    serial|openmp|cuda) backend=$1 ;;
    --debug) debug=1 ;;
    --no-kernels) kernels=0 ;;
    --print-prefix) print_prefix=1 ;;
    --kokkos-archive) [ $# -ge 2 ] || die "--kokkos-archive needs a path"; archive=$2; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (expected serial, openmp, cuda, --debug, --no-kernels, --print-prefix, --kokkos-archive PATH)" ;;
  esac
  shift
done

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps=${KCP_DEPS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kcp}
cuda_arch=${KCP_CUDA_ARCH:-HOPPER90}
jobs=${KCP_JOBS:-$(nproc)}
start=$(date +%s)

# The one source of Kokkos this machine can reach: Debian bookworm's trilinos 13.2.0 source package.
trilinos_version=13.2.0-4
trilinos_orig=trilinos_13.2.0.orig.tar.gz
trilinos_sha256=0ddb47784ba7b8a6b9a07a4822b33be508feb4ccd54301b2a5d10c9e54524b90
kokkos_version=3.4.01

# ---------------------------------------------------------------------------------------------
# 1. Debian packages
packages=(g++ cmake ninja-build pkg-config libcli11-dev libfmt-dev libgtest-dev minizinc flatzinc patch
          python3 python3-matplotlib dpkg-dev python3-pytest python3-pytest-xdist python3-pytest-timeout
          python3-yaml python3-py libopenmpi-dev openmpi-bin)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
  die "need root to run: $*"; fi; }
if [ ${#missing[@]} -gt 0 ]; then
  note "installing Debian packages: ${missing[*]}"
  as_root apt-get update -q >&2 || die "cannot reach Debian's package archive (apt-get update failed)"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 \
    || die "apt-get install ${missing[*]} failed"
fi
if [ "$backend" = cuda ]; then
  command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] \
    || die "the cuda backend needs the CUDA toolkit (nvcc); none found on PATH or in /usr/local/cuda"
  export PATH=$PATH:/usr/local/cuda/bin
fi

# Releases whose archives kcp knows (../shared/deps): version, Kokkos sha256, Kokkos Kernels sha256.
known_releases=(
  "4.6.01 b9d70e4653b87a06dbb48d63291bf248058c7c7db4bd91979676ad5609bb1a3a 95b9357f37ab3b9c3913c00741acb2501831c28ea8664de67818ae79c69c5908"
)

# ---------------------------------------------------------------------------------------------
# 2. Kokkos and Kokkos Kernels sources, extracted once from the verified trilinos tarball, or from the
#    given release archives
patches=("$repo"/cmake/patches/kokkos-*.patch)
if [ -n "$archive" ]; then
  [ -f "$archive" ] || die "no Kokkos archive at $archive"
  name=$(basename "$archive")
  [[ "$name" =~ ^kokkos-([0-9][0-9.]*)\.tar\.gz$ ]] || die "$archive: expected a file named kokkos-<version>.tar.gz"
  kokkos_version=${BASH_REMATCH[1]}
  kernels_archive=$(dirname "$archive")/kokkos-kernels-$kokkos_version.tar.gz
  sum_k=${KCP_KOKKOS_SHA256:-} sum_kk=${KCP_KERNELS_SHA256:-}
  for r in "${known_releases[@]}"; do
    read -r v a b <<<"$r"
    [ "$v" = "$kokkos_version" ] && { sum_k=${sum_k:-$a}; sum_kk=${sum_kk:-$b}; }
  done
  [ -n "$sum_k" ] || die "no checksum known for Kokkos $kokkos_version: set KCP_KOKKOS_SHA256 (and KCP_KERNELS_SHA256)"
  echo "$sum_k  $archive" | sha256sum --check --status || die "checksum of $archive differs from $sum_k"
  if [ "$kernels" = 1 ]; then
    [ -f "$kernels_archive" ] || die "no Kokkos Kernels archive at $kernels_archive (or pass --no-kernels)"
    [ -n "$sum_kk" ] || die "no checksum known for Kokkos Kernels $kokkos_version: set KCP_KERNELS_SHA256"
    echo "$sum_kk  $kernels_archive" | sha256sum --check --status \
      || die "checksum of $kernels_archive differs from $sum_kk"
  fi
  # cmake/patches/*.patch are for 3.4.01; a release's own, for CUDA only (CUDA 13's API), are in
  # cmake/patches/kokkos-<version>/ (the host builds' cache keys stay as they were).
  patches=()
  if [ "$backend" = cuda ]; then
    for p in "$repo"/cmake/patches/kokkos-$kokkos_version/*.patch; do [ -f "$p" ] && patches+=("$p"); done
  fi
  src=$deps/src/kokkos-$kokkos_version
  if [ ! -f "$src/.kcp-extracted" ] || { [ "$kernels" = 1 ] && [ ! -d "$src/kokkos-kernels" ]; }; then
    note "extracting Kokkos $kokkos_version"
    rm -rf "$src" && mkdir -p "$src/tmp"
    tar -xzf "$archive" -C "$src/tmp" || die "cannot extract $archive"
    mv "$src"/tmp/kokkos-* "$src/kokkos"
    if [ -f "$kernels_archive" ]; then
      tar -xzf "$kernels_archive" -C "$src/tmp" || die "cannot extract $kernels_archive"
      mv "$src"/tmp/kokkos-kernels-* "$src/kokkos-kernels"
    fi
    rm -rf "$src/tmp"
    touch "$src/.kcp-extracted"
  fi
fi
src=$deps/src/kokkos-$kokkos_version
if [ -z "$archive" ] && [ ! -f "$src/.kcp-extracted" ]; then
  dl=$deps/download
  mkdir -p "$dl"
  if [ ! -f "$dl/$trilinos_orig" ]; then
    if ! grep -rqsE '^(deb-src .*bookworm|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
      note "adding a deb-src entry for bookworm (/etc/apt/sources.list.d/kcp-deb-src.sources)"
      as_root tee /etc/apt/sources.list.d/kcp-deb-src.sources >/dev/null <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
      as_root apt-get update -q >&2 || die "cannot reach Debian's package archive (apt-get update failed)"
    fi
    note "downloading trilinos $trilinos_version sources (166 MB) from Debian's archive"
    (cd "$dl" && apt-get source -q --download-only "trilinos=$trilinos_version" >&2) \
      || die "cannot download the trilinos $trilinos_version source package from Debian's archive"
  fi
  echo "$trilinos_sha256  $dl/$trilinos_orig" | sha256sum --check --status \
    || { rm -f "$dl/$trilinos_orig"; die "checksum of $trilinos_orig differs from $trilinos_sha256 (file removed; run again)"; }
  note "extracting Kokkos and Kokkos Kernels"
  rm -rf "$src" "$deps/src/tmp"
  mkdir -p "$deps/src/tmp"
  tar -xzf "$dl/$trilinos_orig" -C "$deps/src/tmp" --wildcards \
    '*/packages/kokkos/*' '*/packages/kokkos-kernels/*' || die "cannot extract $dl/$trilinos_orig"
  mkdir -p "$src"
  mv "$deps"/src/tmp/*/packages/kokkos "$deps"/src/tmp/*/packages/kokkos-kernels "$src/"
  rm -rf "$deps/src/tmp"
  touch "$src/.kcp-extracted"
  rm -f "$dl/$trilinos_orig" "$dl"/trilinos_*  # 166 MB we no longer need
fi

# ---------------------------------------------------------------------------------------------
# 3. Build and install, keyed by backend, options and the patches applied
kokkos_opts=(-DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF -DKokkos_ENABLE_SERIAL=ON
             -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF)
# Only the instantiations kcp uses: double scalars, int ordinals and offsets, LayoutLeft, no UVM,
# and only the backend's main execution space; BLAS and sparse components.
kernels_opts=(-DKokkosKernels_ENABLED_COMPONENTS="BLAS;SPARSE" -DKokkosKernels_ADD_DEFAULT_ETI=OFF
              -DKokkosKernels_INST_DOUBLE=ON -DKokkosKernels_INST_ORDINAL_INT=ON
              -DKokkosKernels_INST_OFFSET_INT=ON -DKokkosKernels_INST_OFFSET_SIZE_T=OFF
              -DKokkosKernels_INST_LAYOUTLEFT=ON -DKokkosKernels_INST_LAYOUTRIGHT=OFF
              -DKokkosKernels_ENABLE_TPL_BLAS=OFF -DKokkosKernels_ENABLE_TESTS=OFF
              -DKokkosKernels_ENABLE_EXAMPLES=OFF)
cxx=g++
case "$backend" in
  serial)
    kernels_opts+=(-DKokkosKernels_INST_EXECSPACE_SERIAL=ON -DKokkosKernels_INST_MEMSPACE_HOSTSPACE=ON) ;;
  openmp)
    kokkos_opts+=(-DKokkos_ENABLE_OPENMP=ON)
    kernels_opts+=(-DKokkosKernels_INST_EXECSPACE_OPENMP=ON -DKokkosKernels_INST_EXECSPACE_SERIAL=OFF
                   -DKokkosKernels_INST_MEMSPACE_HOSTSPACE=ON) ;;
  cuda)
    kokkos_opts+=(-DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON
                  -DKokkos_ENABLE_CUDA_CONSTEXPR=ON "-DKokkos_ARCH_$cuda_arch=ON")
    kernels_opts+=(-DKokkosKernels_INST_EXECSPACE_CUDA=ON -DKokkosKernels_INST_MEMSPACE_CUDASPACE=ON
                   -DKokkosKernels_INST_MEMSPACE_CUDAUVMSPACE=OFF -DKokkosKernels_INST_EXECSPACE_OPENMP=OFF
                   -DKokkosKernels_INST_EXECSPACE_SERIAL=OFF -DKokkosKernels_INST_MEMSPACE_HOSTSPACE=OFF
                   -DKokkosKernels_ENABLE_TPL_CUSPARSE=OFF -DKokkosKernels_ENABLE_TPL_CUBLAS=OFF)
    cxx=$src/kokkos/bin/nvcc_wrapper ;;
esac
build_type=Release
if [ "$debug" = 1 ]; then
  build_type=Debug
  kokkos_opts+=(-DKokkos_ENABLE_DEBUG=ON -DKokkos_ENABLE_DEBUG_BOUNDS_CHECK=ON)
fi

key=$backend
[ "$backend" = cuda ] && key=$key-$(echo "$cuda_arch" | tr '[:upper:]' '[:lower:]')
[ "$debug" = 1 ] && key=$key-debug
[ "$kernels" = 0 ] && key=$key-nokernels
hash=$( { [ ${#patches[@]} -gt 0 ] && cat "${patches[@]}"; echo "${kokkos_opts[*]} ${kernels_opts[*]} $build_type"; } \
        | sha256sum | cut -c1-12)
prefix=$deps/kokkos-$kokkos_version-$key-$hash

if [ ! -f "$prefix/.kcp-complete" ]; then
  work=$deps/build/$key-$hash
  rm -rf "$work" "$prefix"
  mkdir -p "$work"
  [ ${#patches[@]} -gt 0 ] && note "patching Kokkos (${#patches[@]} patches)"
  cp -r "$src/kokkos" "$work/"
  [ "$kernels" = 1 ] && cp -r "$src/kokkos-kernels" "$work/"
  for p in "${patches[@]}"; do
    patch -s -p1 -d "$work/kokkos" < "$p" || die "patch $p does not apply"
  done
  if [ "$backend" = cuda ]; then
    cxx=$work/kokkos/bin/nvcc_wrapper
    # nvcc_wrapper compiles for its default architecture until Kokkos' flags apply (CMake's compiler
    # check): 4.6.01's sm_70 is gone from CUDA 13, so the default becomes the chosen one's (HOPPER90:
    # sm_90, as 3.4.01's patch 0003 already has it).
    sed -i "s/^default_arch=\"sm_[0-9]*\"/default_arch=\"sm_${cuda_arch//[!0-9]/}\"/" "$cxx"
  fi
  common=(-G Ninja -DCMAKE_BUILD_TYPE=$build_type -DCMAKE_CXX_COMPILER="$cxx"
          -DCMAKE_POLICY_VERSION_MINIMUM=3.5 -DCMAKE_INSTALL_PREFIX="$prefix"
          -DCMAKE_INSTALL_LIBDIR=lib)
  t0=$(date +%s)
  note "building Kokkos $kokkos_version ($key) with $jobs jobs"
  cmake -S "$work/kokkos" -B "$work/kokkos-build" "${common[@]}" "${kokkos_opts[@]}" > "$work/kokkos.log" 2>&1 \
    && cmake --build "$work/kokkos-build" -j "$jobs" >> "$work/kokkos.log" 2>&1 \
    && cmake --install "$work/kokkos-build" >> "$work/kokkos.log" 2>&1 \
    || { tail -40 "$work/kokkos.log" >&2; die "Kokkos build failed (log: $work/kokkos.log)"; }
  note "Kokkos built in $(( $(date +%s) - t0 )) s"
  if [ "$kernels" = 1 ]; then
    t0=$(date +%s)
    note "building Kokkos Kernels $kokkos_version ($key) with $jobs jobs"
    cmake -S "$work/kokkos-kernels" -B "$work/kernels-build" "${common[@]}" -DKokkos_ROOT="$prefix" \
          "${kernels_opts[@]}" > "$work/kernels.log" 2>&1 \
      && cmake --build "$work/kernels-build" -j "$jobs" >> "$work/kernels.log" 2>&1 \
      && cmake --install "$work/kernels-build" >> "$work/kernels.log" 2>&1 \
      || { tail -40 "$work/kernels.log" >&2; die "Kokkos Kernels build failed (log: $work/kernels.log)"; }
    note "Kokkos Kernels built in $(( $(date +%s) - t0 )) s"
  fi
  rm -rf "$work"
  touch "$prefix/.kcp-complete"
fi

# Stable name the CMake presets look in (cmake/KcpDependencies.cmake): $deps/<backend>[-debug][-nokernels].
link=$deps/$backend
[ -n "$archive" ] && link=$link-kokkos$kokkos_version
[ "$debug" = 1 ] && link=$link-debug
[ "$kernels" = 0 ] && link=$link-nokernels
ln -sfn "$prefix" "$link"
note "ready: $link -> $prefix ($(du -sh "$prefix" | cut -f1), $(( $(date +%s) - start )) s)"
[ "$print_prefix" = 1 ] && echo "$prefix"
exit 0
