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

/// Family 1: ternary bytecode, `x = y op z` over store variables (constants are fixed variables).
/// 16 bytes, Turbo's "ternary normal form".
enum class TernaryOp : std::int32_t {
  add = 0,   ///< x = y + z
  mul,       ///< x = y * z
  tdiv,      ///< x = y div z, truncating toward zero (FlatZinc int_div); z != 0
  tmod,      ///< x = y mod z, remainder of tdiv, sign of y (FlatZinc int_mod); z != 0
  min,       ///< x = min(y, z)
  max,       ///< x = max(y, z)
  eq_reif,   ///< x <-> (y = z), x in {0, 1}
  le_reif,   ///< x <-> (y <= z), x in {0, 1}
  abs,       ///< x = |y| (z unused, set it to y)
  pow,       ///< x = y ^ z, z >= 0 (FlatZinc int_pow; a negative z is compiled elsewhere)
};

struct Ternary {
  TernaryOp op;
  std::int32_t x, y, z;
};
static_assert(sizeof(Ternary) == 16, "a ternary propagator is 16 bytes");

/// How a linear row is tied to a Boolean b: not at all, b <-> row, or b -> row.
enum class Reification : std::int8_t { none = 0, equivalent = 1, implied = 2 };

/// Host form, filled by compile and by tests.
struct Program {
  std::vector<std::int32_t> lb, ub;  ///< root domain of each store variable

  // Family 2: linear rows in compressed-row form; row r is reified by reif_var[r] (-1: none).
  std::vector<std::int32_t> row_begin{0};
  std::vector<std::int32_t> coef, var;
  std::vector<std::int64_t> rhs;
  std::vector<std::int8_t> kind;
  std::vector<std::int32_t> reif_var;
  std::vector<std::int8_t> reif_mode;

  // Family 1: ternary propagators.
  std::vector<Ternary> ternary;

  // Family 3: element over constant arrays, result = values[index - 1] (FlatZinc's 1-based index),
  // element e's values are elem_values[elem_begin[e], elem_begin[e + 1]).
  std::vector<std::int32_t> elem_index, elem_result;
  std::vector<std::int32_t> elem_begin{0};
  std::vector<std::int32_t> elem_values;

  int num_vars() const { return static_cast<int>(lb.size()); }
  int num_rows() const { return static_cast<int>(rhs.size()); }
  int num_ternary() const { return static_cast<int>(ternary.size()); }
  int num_elements() const { return static_cast<int>(elem_index.size()); }
  int num_propagators() const { return num_rows() + num_ternary() + num_elements(); }

  int add_var(std::int32_t lo, std::int32_t hi) {
    lb.push_back(lo);
    ub.push_back(hi);
    return num_vars() - 1;
  }
  /// sum a_i x_i (k) c, optionally reified by the 0/1 variable b.
  void add_row(LinearKind k, const std::vector<std::int32_t>& a, const std::vector<int>& x, std::int64_t c,
               int b = -1, Reification mode = Reification::none) {
    coef.insert(coef.end(), a.begin(), a.end());
    var.insert(var.end(), x.begin(), x.end());
    row_begin.push_back(static_cast<std::int32_t>(coef.size()));
    rhs.push_back(c);
    kind.push_back(static_cast<std::int8_t>(k));
    reif_var.push_back(mode == Reification::none ? -1 : b);
    reif_mode.push_back(static_cast<std::int8_t>(mode));
  }
  void add_ternary(TernaryOp op, int x, int y, int z) { ternary.push_back({op, x, y, z}); }
  void add_element(int index, int result, const std::vector<std::int32_t>& values) {
    elem_index.push_back(index);
    elem_result.push_back(result);
    elem_values.insert(elem_values.end(), values.begin(), values.end());
    elem_begin.push_back(static_cast<std::int32_t>(elem_values.size()));
  }

  std::size_t store_bytes() const { return lb.size() * 2 * sizeof(std::int32_t); }
  std::size_t propagator_bytes() const {
    return row_begin.size() * 4 + coef.size() * 4 + var.size() * 4 + rhs.size() * 8 + kind.size() +
           reif_var.size() * 4 + reif_mode.size() + ternary.size() * sizeof(Ternary) + elem_index.size() * 8 +
           elem_begin.size() * 4 + elem_values.size() * 4;
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
