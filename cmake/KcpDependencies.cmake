# Where scripts/setup-deps.sh installs Kokkos and Kokkos Kernels for each backend: a stable link
# <cache>/<backend>[-debug] to a folder keyed by version, options and patch hash. Used only as a hint:
# a user's own Kokkos (Kokkos_ROOT, CMAKE_PREFIX_PATH) is found first and needs no script.
#
# Included before project(): for the cuda backend the C++ compiler must be Kokkos' nvcc_wrapper
# (Kokkos 3.4 compiles CUDA as C++), taken from the same install unless the user names one.
set(KCP_BACKEND "" CACHE STRING "Backend whose cached Kokkos to look for (serial, openmp, cuda); empty: none")
set(KCP_DEBUG_DEPS OFF CACHE BOOL "Look for the debug (bounds-checked) Kokkos of KCP_BACKEND")

if(DEFINED ENV{KCP_DEPS_DIR})
  set(_kcp_deps "$ENV{KCP_DEPS_DIR}")
elseif(DEFINED ENV{XDG_CACHE_HOME})
  set(_kcp_deps "$ENV{XDG_CACHE_HOME}/kcp")
else()
  set(_kcp_deps "$ENV{HOME}/.cache/kcp")
endif()

set(KCP_DEPS_HINT "")
if(KCP_BACKEND)
  set(_kcp_base "${_kcp_deps}/${KCP_BACKEND}")
  if(KCP_DEBUG_DEPS)
    string(APPEND _kcp_base "-debug")
  endif()
  # A full install (with Kokkos Kernels) first; one built with --no-kernels serves builds without it.
  set(KCP_DEPS_HINT "${_kcp_base}" "${_kcp_base}-nokernels")
  if(KCP_BACKEND STREQUAL "cuda" AND NOT CMAKE_CXX_COMPILER AND NOT DEFINED ENV{CXX})
    foreach(_kcp_dir IN LISTS KCP_DEPS_HINT)
      if(NOT CMAKE_CXX_COMPILER AND EXISTS "${_kcp_dir}/bin/nvcc_wrapper")
        set(CMAKE_CXX_COMPILER "${_kcp_dir}/bin/nvcc_wrapper" CACHE FILEPATH "C++ compiler (Kokkos nvcc_wrapper)")
      endif()
    endforeach()
    if(NOT CMAKE_CXX_COMPILER)
      message(FATAL_ERROR "kcp: no CUDA Kokkos at ${_kcp_base}: run scripts/setup-deps.sh cuda "
                          "(or set CMAKE_CXX_COMPILER to your Kokkos' nvcc_wrapper and Kokkos_ROOT)")
    endif()
  endif()
endif()
