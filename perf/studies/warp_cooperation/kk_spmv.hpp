// KokkosSparse::spmv on the CRS matrix, compiled in kk_spmv.cpp alone (its headers are heavy).
#pragma once

#include "perf/studies/warp_cooperation/spmv.hpp"

namespace kcp::perf::warp_cooperation {

/// y = A x with KokkosSparse::spmv("N", 1, A, x, 0, y) on Exec.
template <class Exec>
void kk_spmv(const Crs<Exec>& a, const Vector<Exec>& x, const Vector<Exec>& y);

}  // namespace kcp::perf::warp_cooperation
