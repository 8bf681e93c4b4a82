// The execution spaces of this build, by the names of the drivers' --space option, and the one
// dispatch from a name to a templated study.
#pragma once

#include "search/launch.hpp"

#include <Kokkos_Core.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace kcp::perf {

using kcp::available_spaces;  // search/launch.hpp

template <class Exec>
constexpr bool is_gpu_space() {
#ifdef KOKKOS_ENABLE_CUDA
  return std::is_same_v<Exec, Kokkos::Cuda>;
#else
  return false;
#endif
}

/// Calls study(Exec{}) for the space named `name`; throws std::invalid_argument for one this build
/// does not have. Every study is one template, so Serial, OpenMP and CUDA run the same code.
template <class Study>
void run_on_space(const std::string& name, Study&& study) {
#ifdef KOKKOS_ENABLE_SERIAL
  if (name == "serial") return study(Kokkos::Serial{});
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  if (name == "openmp") return study(Kokkos::OpenMP{});
#endif
#ifdef KOKKOS_ENABLE_CUDA
  if (name == "cuda") return study(Kokkos::Cuda{});
#endif
  throw std::invalid_argument("execution space '" + name + "' is not in this build");
}

}  // namespace kcp::perf
