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

/// Kokkos reducer for poison_add, usable at every level of parallelism.
template <class Space>
struct PoisonSum {
  using reducer = PoisonSum;
  using value_type = std::int64_t;
  using result_view_type = Kokkos::View<value_type, Space, Kokkos::MemoryUnmanaged>;

  KOKKOS_INLINE_FUNCTION explicit PoisonSum(value_type& value) : value_(&value) {}
  KOKKOS_INLINE_FUNCTION void join(value_type& dest, const value_type& src) const {
    dest = poison_add(dest, src);
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dest, const volatile value_type& src) const {
    dest = poison_add(dest, src);
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v = 0; }
  KOKKOS_INLINE_FUNCTION value_type& reference() const { return *value_.data(); }
  KOKKOS_INLINE_FUNCTION result_view_type view() const { return value_; }
  KOKKOS_INLINE_FUNCTION bool references_scalar() const { return true; }

 private:
  result_view_type value_;
};

}  // namespace kcp
