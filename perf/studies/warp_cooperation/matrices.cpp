// Test matrices and the host reference product of spmv.hpp (plain C++).
#include <algorithm>
#include <numeric>

#include "perf/studies/warp_cooperation/queue.hpp"
#include "perf/studies/warp_cooperation/spmv.hpp"

namespace kcp::perf::warp_cooperation {

namespace {

double entry_value(int i, int j) {
  return 0.5 +
         static_cast<double>(hash32(static_cast<std::uint32_t>(i) * 2654435761U ^ static_cast<std::uint32_t>(j)) >> 8) /
             16777216.;
}

/// Uniform in [0, n).
int scaled(std::uint32_t h, int n) {
  return static_cast<int>((static_cast<std::uint64_t>(h) * static_cast<std::uint64_t>(n)) >> 32);
}

}  // namespace

int HostCrs::max_row_length() const {
  int w = 0;
  for (int i = 0; i < n; ++i) w = std::max(w, row_ptr[i + 1] - row_ptr[i]);
  return w;
}

HostCrs banded_matrix(int n, int half_width) {
  HostCrs a;
  a.n = n;
  a.row_ptr.push_back(0);
  for (int i = 0; i < n; ++i) {
    for (int j = std::max(0, i - half_width); j <= std::min(n - 1, i + half_width); ++j) {
      a.col.push_back(j);
      a.val.push_back(entry_value(i, j));
    }
    a.row_ptr.push_back(static_cast<int>(a.col.size()));
  }
  return a;
}

HostCrs irregular_matrix(int n) {
  HostCrs a;
  a.n = n;
  a.row_ptr.push_back(0);
  std::vector<int> cols;
  for (int i = 0; i < n; ++i) {
    const auto u = static_cast<std::uint32_t>(i);
    const std::uint32_t kind = hash32(u) % 1000U, h = hash32(u ^ 0x5bd1e995U);
    const int length = kind < 800   ? 1 + static_cast<int>(h % 8U)
                       : kind < 990 ? 9 + static_cast<int>(h % 24U)
                                    : 64 + static_cast<int>(h % 65U);
    cols.clear();
    for (int k = 0; k < length; ++k) cols.push_back(scaled(hash32(u * 131U + static_cast<std::uint32_t>(k) + 7U), n));
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    for (int j : cols) {
      a.col.push_back(j);
      a.val.push_back(entry_value(i, j));
    }
    a.row_ptr.push_back(static_cast<int>(a.col.size()));
  }
  return a;
}

std::vector<double> host_spmv(const HostCrs& a, const std::vector<double>& x) {
  std::vector<double> y(a.n);
  for (int i = 0; i < a.n; ++i) {
    double s = 0.;
    for (int e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) s += a.val[e] * x[a.col[e]];
    y[i] = s;
  }
  return y;
}

HostJds jds_arrays(const HostCrs& a) {
  HostJds h;
  h.permutation.resize(a.n);
  std::iota(h.permutation.begin(), h.permutation.end(), 0);
  auto length = [&](int i) { return a.row_ptr[i + 1] - a.row_ptr[i]; };
  std::stable_sort(h.permutation.begin(), h.permutation.end(), [&](int p, int q) { return length(p) > length(q); });
  h.length.resize(a.n);
  for (int r = 0; r < a.n; ++r) h.length[r] = length(h.permutation[r]);
  const int diagonals = a.n > 0 ? h.length[0] : 0;
  h.start.push_back(0);
  for (int d = 0; d < diagonals; ++d) {
    for (int r = 0; r < a.n && h.length[r] > d; ++r) {
      const int e = a.row_ptr[h.permutation[r]] + d;
      h.col.push_back(a.col[e]);
      h.val.push_back(a.val[e]);
    }
    h.start.push_back(static_cast<int>(h.col.size()));
  }
  return h;
}

}  // namespace kcp::perf::warp_cooperation
