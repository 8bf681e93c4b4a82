// What the propagation engine runs: the root store and the propagators, first as host vectors
// (built by solver/compile), then uploaded as Views (DeviceProgram). Plain data: no virtual functions,
// no pointers to host objects, so a DeviceProgram is copied into kernels by value.
#pragma once

#include "domains/linear.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kcp {

/// Host form, filled by compile and by tests.
struct Program {
  std::vector<std::int32_t> lb, ub;  ///< root domain of each store variable

  // Linear rows in compressed-row form.
  std::vector<std::int32_t> row_begin{0};
  std::vector<std::int32_t> coef, var;
  std::vector<std::int64_t> rhs;
  std::vector<std::int8_t> kind;

  int num_vars() const { return static_cast<int>(lb.size()); }
  int num_rows() const { return static_cast<int>(rhs.size()); }

  int add_var(std::int32_t lo, std::int32_t hi) {
    lb.push_back(lo);
    ub.push_back(hi);
    return num_vars() - 1;
  }
  void add_row(LinearKind k, const std::vector<std::int32_t>& a, const std::vector<int>& x, std::int64_t c) {
    coef.insert(coef.end(), a.begin(), a.end());
    var.insert(var.end(), x.begin(), x.end());
    row_begin.push_back(static_cast<std::int32_t>(coef.size()));
    rhs.push_back(c);
    kind.push_back(static_cast<std::int8_t>(k));
  }

  std::size_t store_bytes() const { return lb.size() * 2 * sizeof(std::int32_t); }
  std::size_t propagator_bytes() const {
    return row_begin.size() * 4 + coef.size() * 4 + var.size() * 4 + rhs.size() * 8 + kind.size();
  }
};

namespace detail {
template <class T, class MemorySpace>
Kokkos::View<const T*, MemorySpace> upload(const std::string& label, const std::vector<T>& v) {
  Kokkos::View<T*, MemorySpace> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), v.size());
  Kokkos::deep_copy(d, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()));
  return d;
}
}  // namespace detail

/// Device form: Views in MemorySpace.
template <class MemorySpace>
struct DeviceProgram {
  int num_vars = 0;
  Kokkos::View<const std::int32_t*, MemorySpace> root_lb, root_ub;
  LinearRows<MemorySpace> rows;

  DeviceProgram() = default;
  explicit DeviceProgram(const Program& p) : num_vars(p.num_vars()) {
    using detail::upload;
    root_lb = upload<std::int32_t, MemorySpace>("kcp::program::root_lb", p.lb);
    root_ub = upload<std::int32_t, MemorySpace>("kcp::program::root_ub", p.ub);
    rows.row_begin = upload<std::int32_t, MemorySpace>("kcp::program::row_begin", p.row_begin);
    rows.coef = upload<std::int32_t, MemorySpace>("kcp::program::coef", p.coef);
    rows.var = upload<std::int32_t, MemorySpace>("kcp::program::var", p.var);
    rows.rhs = upload<std::int64_t, MemorySpace>("kcp::program::rhs", p.rhs);
    rows.kind = upload<std::int8_t, MemorySpace>("kcp::program::kind", p.kind);
  }
};

}  // namespace kcp
