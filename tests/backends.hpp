// The execution spaces this build enables, as a GoogleTest type list: every backend test is typed
// over it. Kernels live in free helpers (tests/kernels.hpp): nvcc rejects device lambdas inside a
// GoogleTest body.
#pragma once

#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

namespace kcp::test {

/// KCP_TEST_QUICK is set for compute-sanitizer runs (perf/bench/device/sanitize-common.sh): racecheck
/// tracks every shared-memory access and makes a kernel launch 10-100 times slower, so tests that
/// sweep parameters run a part of the sweep that still takes every kernel path.
inline bool quick_mode() { return std::getenv("KCP_TEST_QUICK") != nullptr; }

/// A swept parameter's values; under quick_mode only the first and the last.
template <class T>
std::vector<T> sweep(std::vector<T> values) {
  if (quick_mode() && values.size() > 2) values = {values.front(), values.back()};
  return values;
}

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
