#include "perf/studies/warp_cooperation/kk_spmv.hpp"

#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>

namespace kcp::perf::warp_cooperation {

template <class Exec>
void kk_spmv(const Crs<Exec>& a, const Vector<Exec>& x, const Vector<Exec>& y) {
  using Device = Kokkos::Device<Exec, typename Exec::memory_space>;
  // Wrapping the views is cheap (no copy); int ordinals and offsets, the instantiations kcp builds.
  KokkosSparse::CrsMatrix<double, int, Device, void, int> matrix(
      "kcp::perf::warp_cooperation::kk_crs", a.n, a.n, static_cast<int>(a.col.extent(0)), a.val, a.row_ptr, a.col);
  KokkosSparse::spmv("N", 1., matrix, x, 0., y);
}

#ifdef KOKKOS_ENABLE_SERIAL
template void kk_spmv<Kokkos::Serial>(const Crs<Kokkos::Serial>&, const Vector<Kokkos::Serial>&,
                                      const Vector<Kokkos::Serial>&);
#endif
#ifdef KOKKOS_ENABLE_OPENMP
template void kk_spmv<Kokkos::OpenMP>(const Crs<Kokkos::OpenMP>&, const Vector<Kokkos::OpenMP>&,
                                      const Vector<Kokkos::OpenMP>&);
#endif
#ifdef KOKKOS_ENABLE_CUDA
template void kk_spmv<Kokkos::Cuda>(const Crs<Kokkos::Cuda>&, const Vector<Kokkos::Cuda>&, const Vector<Kokkos::Cuda>&);
#endif

}  // namespace kcp::perf::warp_cooperation
