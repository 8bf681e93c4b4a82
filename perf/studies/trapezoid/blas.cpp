#include "perf/studies/trapezoid/blas.hpp"

#include <KokkosBlas1_dot.hpp>
#include <KokkosBlas1_sum.hpp>

namespace kcp::perf::trapezoid {

template <class Exec>
double blas_sum(const Vector<Exec>& values) {
  return KokkosBlas::sum(values);
}

template <class Exec>
double blas_dot(const Vector<Exec>& x, const Vector<Exec>& y) {
  return KokkosBlas::dot(x, y);
}

#ifdef KOKKOS_ENABLE_SERIAL
template double blas_sum<Kokkos::Serial>(const Vector<Kokkos::Serial>&);
template double blas_dot<Kokkos::Serial>(const Vector<Kokkos::Serial>&, const Vector<Kokkos::Serial>&);
#endif
#ifdef KOKKOS_ENABLE_OPENMP
template double blas_sum<Kokkos::OpenMP>(const Vector<Kokkos::OpenMP>&);
template double blas_dot<Kokkos::OpenMP>(const Vector<Kokkos::OpenMP>&, const Vector<Kokkos::OpenMP>&);
#endif
#ifdef KOKKOS_ENABLE_CUDA
template double blas_sum<Kokkos::Cuda>(const Vector<Kokkos::Cuda>&);
template double blas_dot<Kokkos::Cuda>(const Vector<Kokkos::Cuda>&, const Vector<Kokkos::Cuda>&);
#endif

}  // namespace kcp::perf::trapezoid
