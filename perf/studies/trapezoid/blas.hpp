// Kokkos Kernels' reductions of a precomputed array, compiled in blas.cpp alone (its headers are heavy).
#pragma once

#include "perf/studies/trapezoid/trapezoid.hpp"

namespace kcp::perf::trapezoid {

/// KokkosBlas::sum(values) on Exec.
template <class Exec>
double blas_sum(const Vector<Exec>& values);

/// KokkosBlas::dot(x, y) on Exec.
template <class Exec>
double blas_dot(const Vector<Exec>& x, const Vector<Exec>& y);

}  // namespace kcp::perf::trapezoid
