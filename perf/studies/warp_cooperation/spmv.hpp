// Sparse matrix-vector products y = A x in the seed note's ELL and JDS layouts as team kernels, and
// CRS with the lanes of a vector cooperating on a row; test matrices built on the host.
#pragma once

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "perf/studies/common/launch.hpp"

namespace kcp::perf::warp_cooperation {

/// A CRS matrix on the host, columns sorted within each row.
struct HostCrs {
  int n = 0;
  std::vector<int> row_ptr, col;
  std::vector<double> val;
  int nnz() const { return static_cast<int>(col.size()); }
  int max_row_length() const;
};

/// 2 half_width + 1 diagonals (a stencil-like matrix: every row about as long).
HostCrs banded_matrix(int n, int half_width);
/// Row lengths from 1 to 128, skewed: 80% of rows 1-8 entries, 19% 9-32, 1% 64-128; random columns.
HostCrs irregular_matrix(int n);
/// y = A x in row order on one host thread: the reference every variant is checked against.
std::vector<double> host_spmv(const HostCrs& a, const std::vector<double>& x);

template <class Exec>
using Vector = Kokkos::View<double*, Kokkos::LayoutLeft, Kokkos::Device<Exec, typename Exec::memory_space>>;
template <class Exec>
using Ints = Kokkos::View<int*, Kokkos::LayoutLeft, Kokkos::Device<Exec, typename Exec::memory_space>>;

template <class Exec>
struct Crs {
  int n = 0;
  Ints<Exec> row_ptr, col;
  Vector<Exec> val;
};

/// ELL: every row padded to the longest, entry k of row i at (i, k). The default layout of the memory
/// space puts a row's entries together on a CPU (LayoutRight) and entry k of consecutive rows together
/// on CUDA (LayoutLeft: a warp's loads of one k are coalesced). Each row keeps its length so that the
/// padding is not read (the textbook ELL kernel of the lecture).
template <class Exec>
struct Ell {
  using memory_space = typename Exec::memory_space;
  int n = 0, width = 0;
  Kokkos::View<int**, memory_space> col;
  Kokkos::View<double**, memory_space> val;
  Ints<Exec> length;
};

/// JDS: rows sorted by length (longest first); jagged diagonal d holds entry d of every row that has
/// one, in sorted row order, at [start(d), start(d + 1)). Consecutive sorted rows read consecutive
/// addresses of each diagonal (coalesced on CUDA), and a warp's rows have similar lengths.
template <class Exec>
struct Jds {
  int n = 0, diagonals = 0;
  Ints<Exec> permutation, length, start, col;
  Vector<Exec> val;
};

template <class Exec>
Crs<Exec> to_device_crs(const HostCrs& a) {
  Crs<Exec> d;
  d.n = a.n;
  d.row_ptr = Ints<Exec>("kcp::perf::warp_cooperation::crs_row_ptr", a.row_ptr.size());
  d.col = Ints<Exec>("kcp::perf::warp_cooperation::crs_col", a.col.size());
  d.val = Vector<Exec>("kcp::perf::warp_cooperation::crs_val", a.val.size());
  Kokkos::deep_copy(d.row_ptr, Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(a.row_ptr.data(),
                                                                                                    a.row_ptr.size()));
  Kokkos::deep_copy(d.col,
                    Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(a.col.data(), a.col.size()));
  Kokkos::deep_copy(
      d.val, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(a.val.data(), a.val.size()));
  return d;
}

template <class Exec>
Ell<Exec> to_device_ell(const HostCrs& a) {
  Ell<Exec> d;
  d.n = a.n;
  d.width = a.max_row_length();
  d.col = decltype(d.col)("kcp::perf::warp_cooperation::ell_col", a.n, d.width);
  d.val = decltype(d.val)("kcp::perf::warp_cooperation::ell_val", a.n, d.width);
  d.length = Ints<Exec>("kcp::perf::warp_cooperation::ell_length", a.n);
  auto col = Kokkos::create_mirror_view(d.col);
  auto val = Kokkos::create_mirror_view(d.val);
  auto length = Kokkos::create_mirror_view(d.length);
  for (int i = 0; i < a.n; ++i) {
    length(i) = a.row_ptr[i + 1] - a.row_ptr[i];
    for (int k = 0; k < d.width; ++k) {
      const bool entry = k < length(i);
      col(i, k) = entry ? a.col[a.row_ptr[i] + k] : 0;
      val(i, k) = entry ? a.val[a.row_ptr[i] + k] : 0.;
    }
  }
  Kokkos::deep_copy(d.col, col);
  Kokkos::deep_copy(d.val, val);
  Kokkos::deep_copy(d.length, length);
  return d;
}

/// The JDS arrays of `a` on the host (perm, length, start, col, val), in jds_arrays.
struct HostJds {
  std::vector<int> permutation, length, start, col;
  std::vector<double> val;
};
HostJds jds_arrays(const HostCrs& a);

template <class Exec>
Jds<Exec> to_device_jds(const HostCrs& a) {
  const HostJds h = jds_arrays(a);
  Jds<Exec> d;
  d.n = a.n;
  d.diagonals = static_cast<int>(h.start.size()) - 1;
  auto copy_ints = [](const std::vector<int>& v, const std::string& label) {
    Ints<Exec> out(label, v.size());
    Kokkos::deep_copy(out, Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()));
    return out;
  };
  d.permutation = copy_ints(h.permutation, "kcp::perf::warp_cooperation::jds_permutation");
  d.length = copy_ints(h.length, "kcp::perf::warp_cooperation::jds_length");
  d.start = copy_ints(h.start, "kcp::perf::warp_cooperation::jds_start");
  d.col = copy_ints(h.col, "kcp::perf::warp_cooperation::jds_col");
  d.val = Vector<Exec>("kcp::perf::warp_cooperation::jds_val", h.val.size());
  Kokkos::deep_copy(
      d.val, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(h.val.data(), h.val.size()));
  return d;
}

/// Row r of y for ELL: one thread (or lane) per row, entries in order.
template <class Exec>
struct EllRow {
  Ell<Exec> a;
  Vector<Exec> x, y;
  KOKKOS_INLINE_FUNCTION void operator()(int r) const {
    double s = 0.;
    const int len = a.length(r);
    for (int k = 0; k < len; ++k) s += a.val(r, k) * x(a.col(r, k));
    y(r) = s;
  }
};

/// Sorted row r of y for JDS: one thread (or lane) per row, diagonal after diagonal.
template <class Exec>
struct JdsRow {
  Jds<Exec> a;
  Vector<Exec> x, y;
  KOKKOS_INLINE_FUNCTION void operator()(int r) const {
    double s = 0.;
    const int len = a.length(r);
    for (int d = 0; d < len; ++d) {
      const int e = a.start(d) + r;
      s += a.val(e) * x(a.col(e));
    }
    y(a.permutation(r)) = s;
  }
};

/// One row per thread and lane. Levels: a team owns `rows_per_team` consecutive rows;
/// TeamThreadRange over rows_per_team / vector_length chunks, ThreadVectorRange over a chunk's rows
/// (on CUDA 8 threads x 32 lanes: one row per lane, lanes on consecutive rows; on a CPU one thread
/// walks all rows of the team). No barrier: rows are independent.
template <class Exec, class Row>
void for_each_row(const Exec& exec, const char* label, int n, const TeamShape& shape, int rows_per_team,
                  const Row& row) {
  const int lanes = shape.vector_length;
  const int chunks = (rows_per_team + lanes - 1) / lanes;
  const int per_team = chunks * lanes;
  const int league = (n + per_team - 1) / per_team;
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  Kokkos::parallel_for(
      label, Kokkos::TeamPolicy<Exec>(exec, league, shape.team_size, shape.vector_length),
      KOKKOS_LAMBDA(const member_type& team) {
        const int first = team.league_rank() * per_team;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, chunks), [&](int c) {
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, lanes), [&](int v) {
            const int r = first + c * lanes + v;
            if (r < n) row(r);
          });
        });
      });
}

/// CRS with a row's entries spread over the lanes of a vector and summed by a lane reduction (the
/// note's warp cooperating on one task). Levels: TeamThreadRange over the team's rows,
/// ThreadVectorRange over a row's entries; one lane stores the sum.
template <class Exec>
void crs_vector_spmv(const Exec& exec, const Crs<Exec>& a, const Vector<Exec>& x, const Vector<Exec>& y,
                     const TeamShape& shape, int rows_per_team) {
  const int league = (a.n + rows_per_team - 1) / rows_per_team;
  const int n = a.n;
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  Kokkos::parallel_for(
      "kcp::perf::warp_cooperation::crs_vector",
      Kokkos::TeamPolicy<Exec>(exec, league, shape.team_size, shape.vector_length),
      KOKKOS_LAMBDA(const member_type& team) {
        const int first = team.league_rank() * rows_per_team;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, rows_per_team), [&](int k) {
          const int r = first + k;
          if (r >= n) return;
          double s = 0.;
          Kokkos::parallel_reduce(
              Kokkos::ThreadVectorRange(team, a.row_ptr(r), a.row_ptr(r + 1)),
              [&](int e, double& acc) { acc += a.val(e) * x(a.col(e)); }, s);
          Kokkos::single(Kokkos::PerThread(team), [&]() { y(r) = s; });
        });
      });
}

}  // namespace kcp::perf::warp_cooperation
