// The execution spaces this build enables, as a GoogleTest type list: every backend test is typed
// over it. Kernels live in free helpers (tests/kernels.hpp): nvcc rejects device lambdas inside a
// GoogleTest body.
#pragma once

#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

namespace kcp::test {

using Backends = ::testing::Types<
#ifdef KOKKOS_ENABLE_CUDA
    Kokkos::Cuda,
#endif
#ifdef KOKKOS_ENABLE_OPENMP
    Kokkos::OpenMP,
#endif
    Kokkos::Serial>;

/// Names typed tests by the space, e.g. "BackendTest/OpenMP".
struct BackendName {
  template <class Space>
  static std::string GetName(int) {
    return Space::name();
  }
};

}  // namespace kcp::test
