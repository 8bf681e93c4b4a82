// Bound arithmetic that never wraps. Store bounds are 32-bit; a term a*x of a 32-bit coefficient and a
// 32-bit bound fits in 63 bits, but a sum of such terms may not. Sums therefore saturate into a
// "poisoned" value that means "unknown": a propagator that sees it narrows nothing, which is sound.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kcp {

/// Largest and smallest value a store bound may take. One less than the int32 extremes so that
/// x + 1 and x - 1 of a bound never wrap.
constexpr std::int32_t bound_max = 2147483646;
constexpr std::int32_t bound_min = -2147483646;

/// Any partial sum whose magnitude reaches this is poisoned.
constexpr std::int64_t sum_limit = std::int64_t(1) << 62;
/// The poisoned sum: absorbing under poison_add.
constexpr std::int64_t sum_poisoned = INT64_MIN;

/// a + b for |a|, |b| < 2^62 or poisoned; poisoned when either is or when the result reaches 2^62.
/// Exact whenever it is not poisoned, so associativity only matters for *whether* a sum is poisoned.
KOKKOS_INLINE_FUNCTION std::int64_t poison_add(std::int64_t a, std::int64_t b) {
  if (a == sum_poisoned || b == sum_poisoned) return sum_poisoned;
  const std::int64_t s = a + b;  // |a|, |b| < 2^62: cannot overflow int64
  return (s >= sum_limit || s <= -sum_limit) ? sum_poisoned : s;
}

/// min, max and |a| usable in device code (std::min and std::max are not constexpr-callable there).
KOKKOS_INLINE_FUNCTION std::int64_t min64(std::int64_t a, std::int64_t b) { return a < b ? a : b; }
KOKKOS_INLINE_FUNCTION std::int64_t max64(std::int64_t a, std::int64_t b) { return a > b ? a : b; }
KOKKOS_INLINE_FUNCTION std::int64_t abs64(std::int64_t a) { return a < 0 ? -a : a; }

/// Clamps a wide value into the store's bound range.
KOKKOS_INLINE_FUNCTION std::int32_t clamp_bound(std::int64_t v) {
  return v > bound_max ? bound_max : (v < bound_min ? bound_min : static_cast<std::int32_t>(v));
}

/// floor(a / b) and ceil(a / b) for b != 0 (C++ division truncates toward zero).
KOKKOS_INLINE_FUNCTION std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (q * b != a && ((a < 0) != (b < 0))) ? q - 1 : q;
}
KOKKOS_INLINE_FUNCTION std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (q * b != a && ((a < 0) == (b < 0))) ? q + 1 : q;
}

/// A Kokkos reducer over a scalar for nested (team / vector) reductions. Kokkos' own reducers build
/// a View around the result at construction, which on the host checks the rank with a label string:
/// in a fixpoint loop that cost dominated the propagation itself. This one keeps a plain pointer
/// (view() is only used by top-level reductions, which kcp does not run through it).
template <class T, class Op>
struct ScalarReducer {
  using reducer = ScalarReducer;
  using value_type = T;
  using result_view_type = Kokkos::View<T, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;

  KOKKOS_INLINE_FUNCTION explicit ScalarReducer(T& value) : value_(&value) {}
  KOKKOS_INLINE_FUNCTION void join(T& dest, const T& src) const { dest = Op::join(dest, src); }
  KOKKOS_INLINE_FUNCTION void join(volatile T& dest, const volatile T& src) const {
    dest = Op::join(T(dest), T(src));
  }
  KOKKOS_INLINE_FUNCTION void init(T& v) const { v = Op::template identity<T>(); }
  KOKKOS_INLINE_FUNCTION T& reference() const { return *value_; }
  result_view_type view() const { return result_view_type(value_); }
  KOKKOS_INLINE_FUNCTION bool references_scalar() const { return true; }

 private:
  T* value_;
};

namespace reduce_op {
struct Sum {
  template <class T> KOKKOS_INLINE_FUNCTION static T join(T a, T b) { return a + b; }
  template <class T> KOKKOS_INLINE_FUNCTION static T identity() { return T(0); }
};
struct Or {
  template <class T> KOKKOS_INLINE_FUNCTION static T join(T a, T b) { return a | b; }
  template <class T> KOKKOS_INLINE_FUNCTION static T identity() { return T(0); }
};
struct Min {
  template <class T> KOKKOS_INLINE_FUNCTION static T join(T a, T b) { return b < a ? b : a; }
  template <class T> KOKKOS_INLINE_FUNCTION static T identity() { return Kokkos::reduction_identity<T>::min(); }
};
struct Max {
  template <class T> KOKKOS_INLINE_FUNCTION static T join(T a, T b) { return b > a ? b : a; }
  template <class T> KOKKOS_INLINE_FUNCTION static T identity() { return Kokkos::reduction_identity<T>::max(); }
};
struct PoisonAdd {
  template <class T> KOKKOS_INLINE_FUNCTION static T join(T a, T b) { return poison_add(a, b); }
  template <class T> KOKKOS_INLINE_FUNCTION static T identity() { return T(0); }
};
}  // namespace reduce_op

template <class T> using SumReducer = ScalarReducer<T, reduce_op::Sum>;
template <class T> using OrReducer = ScalarReducer<T, reduce_op::Or>;
template <class T> using MinReducer = ScalarReducer<T, reduce_op::Min>;
template <class T> using MaxReducer = ScalarReducer<T, reduce_op::Max>;
using PoisonSum = ScalarReducer<std::int64_t, reduce_op::PoisonAdd>;

}  // namespace kcp
