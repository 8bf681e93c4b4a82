// Family 2: n-ary linear rows  sum_i a_i * x_i  (<= | = | !=)  c,  in compressed-row form.
//
// Checklist (Chuffed's): fails when every variable is fixed and the row is false; narrows to bounds
// consistency for <= and = (each x_i within what the others' extreme sums leave); for != narrows only
// when one variable is left, at its bounds; never overflows: a term a*x fits 63 bits (32-bit a and
// x), sums are poison_add'ed and a poisoned sum narrows nothing. Not idempotent: the fixpoint reruns it.
#pragma once

#include "domains/lanes.hpp"
#include "domains/store.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kcp {

enum class LinearKind : std::int8_t { le = 0, eq = 1, ne = 2 };

/// The rows of a program, as Views in MemorySpace. Row r's terms are [begin(r), begin(r+1)).
template <class MemorySpace>
struct LinearRows {
  Kokkos::View<const std::int32_t*, MemorySpace> row_begin;  ///< rows + 1 entries
  Kokkos::View<const std::int32_t*, MemorySpace> coef;
  Kokkos::View<const std::int32_t*, MemorySpace> var;
  Kokkos::View<const std::int64_t*, MemorySpace> rhs;
  Kokkos::View<const std::int8_t*, MemorySpace> kind;

  KOKKOS_INLINE_FUNCTION int size() const { return static_cast<int>(rhs.extent(0)); }
};

namespace detail {

/// sum_i a_i x_i <= c, given the terms [b, b+n).
template <class Lanes, class Rows, class Store>
KOKKOS_INLINE_FUNCTION int propagate_le(const Lanes& lanes, const Rows& rows, int b, int n,
                                        std::int64_t c, int sign, const Store& s) {
  // Each term's least value; sign = -1 propagates -sum <= -c (the >= half of an equality).
  auto term_min = [&](int i) -> std::int64_t {
    const std::int64_t a = sign * std::int64_t(rows.coef(b + i));
    const int x = rows.var(b + i);
    return a > 0 ? a * s.min(x) : a * s.max(x);
  };
  const std::int64_t least = lanes.poison_sum(n, term_min);
  if (least == sum_poisoned) return prop_unchanged;
  if (least > c) return prop_failed;
  return lanes.bit_or(n, [&](int i) {
    const std::int64_t a = sign * std::int64_t(rows.coef(b + i));
    const int x = rows.var(b + i);
    // The others' least sum; |c| < 2^62 (compile checks it), so c - others cannot wrap.
    const std::int64_t others = poison_add(least, -term_min(i));
    if (others == sum_poisoned) return int(prop_unchanged);
    const std::int64_t slack = c - others;  // a * x <= slack
    return a > 0 ? s.narrow_max(x, floor_div(slack, a)) : s.narrow_min(x, ceil_div(slack, a));
  });
}

template <class Lanes, class Rows, class Store>
KOKKOS_INLINE_FUNCTION int propagate_ne(const Lanes& lanes, const Rows& rows, int b, int n,
                                        std::int64_t c, const Store& s) {
  const int free_terms = lanes.count(n, [&](int i) { return !s.fixed(rows.var(b + i)); });
  if (free_terms > 1) return prop_unchanged;
  const std::int64_t fixed_sum = lanes.poison_sum(n, [&](int i) -> std::int64_t {
    const int x = rows.var(b + i);
    return s.fixed(x) ? std::int64_t(rows.coef(b + i)) * s.min(x) : 0;
  });
  if (fixed_sum == sum_poisoned) return prop_unchanged;
  if (free_terms == 0) return fixed_sum == c ? prop_failed : prop_unchanged;
  const int i = lanes.max(n, [&](int j) { return s.fixed(rows.var(b + j)) ? -1 : j; });
  if (i < 0) return prop_unchanged;  // fixed meanwhile by another thread: the next iteration sees it
  const std::int64_t a = rows.coef(b + i);
  const int x = rows.var(b + i);
  const std::int64_t rest = c - fixed_sum;  // a * x != rest
  if (rest % a != 0) return prop_unchanged;
  const std::int64_t v = rest / a;
  if (v == s.min(x)) return s.narrow_min(x, v + 1);
  if (v == s.max(x)) return s.narrow_max(x, v - 1);
  return prop_unchanged;
}

}  // namespace detail

/// Propagates row r once. Lanes: SerialLanes or VectorLanes (the row's terms spread over the lanes).
template <class Lanes, class Rows, class Store>
KOKKOS_INLINE_FUNCTION int propagate_linear(const Lanes& lanes, const Rows& rows, int r, const Store& s) {
  const int b = rows.row_begin(r);
  const int n = rows.row_begin(r + 1) - b;
  const std::int64_t c = rows.rhs(r);
  switch (static_cast<LinearKind>(rows.kind(r))) {
    case LinearKind::le:
      return detail::propagate_le(lanes, rows, b, n, c, 1, s);
    case LinearKind::eq: {
      const int st = detail::propagate_le(lanes, rows, b, n, c, 1, s);
      if (st & prop_failed) return st;
      return st | detail::propagate_le(lanes, rows, b, n, -c, -1, s);
    }
    case LinearKind::ne:
      return detail::propagate_ne(lanes, rows, b, n, c, s);
  }
  return prop_unchanged;
}

}  // namespace kcp
