// Launch parameters, chosen in one place per backend (Kokkos Kernels' habit): on a GPU a team is a
// block of team_size warps of vector_length lanes; on a CPU a team is one thread.
#pragma once

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace kcp {

struct LaunchParams {
  int team_size = 1;
  int vector_length = 1;
};

template <class ExecSpace>
LaunchParams default_launch_params() {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) return {8, 32};
#endif
  return {1, 1};
}

}  // namespace kcp
