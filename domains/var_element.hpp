// Global family: element over an array of variables, result = x[index] (FlatZinc's
// array_var_int_element / array_var_bool_element, 1-based index).
//
// Checklist: position j supports the constraint while the index may take j and x_j's bounds meet the
// result's; fails when no position does; narrows the index to its first and last supported positions
// (within 1..n) and, with a bitset, removes every unsupported position inside (domain consistency on
// the index over bounds supports); narrows the result to the least lower and greatest upper bound of
// the supported x_j (bounds consistency on the result); once one position is left, narrows that x_j
// to the result's bounds. Not idempotent (narrowing the result can remove supports): the fixpoint
// reruns it. Monotone: the supported positions only shrink when domains do. Never overflows: 32-bit
// values compared in 64 bits.
// Lanes: the positions within the index's bounds spread over the lanes (one constraint per vector
// group); the index's bounds are read by one lane and shared, since they are the loop bounds every
// lane must agree on; one lane narrows, and the statuses are or-reduced, so all lanes reach every
// reduction together (the pattern of domains/element.hpp).
#pragma once

#include "domains/arithmetic.hpp"
#include "domains/family.hpp"
#include "domains/lanes.hpp"
#include "domains/store.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kcp {

/// Propagates element c of the view g once: variables index, result, x_1..x_n; no parameters.
template <class Lanes, class G, class Store>
KOKKOS_INLINE_FUNCTION int propagate_var_element(const Lanes& lanes, const G& g, int c, const Store& s) {
  const int idx = g.var(c, 0), res = g.var(c, 1);
  const std::int64_t n = g.arity(c) - 2;
  const std::int64_t lo = max64(1, lanes.max_value(1, [&](int) -> std::int64_t { return s.min(idx); }));
  const std::int64_t hi = min64(n, lanes.max_value(1, [&](int) -> std::int64_t { return s.max(idx); }));
  if (lo > hi) return prop_failed;
  const int m = static_cast<int>(hi - lo + 1);
  // Position lo + j, j in [0, m), is x_{lo + j}: store variable g.var(c, 1 + lo + j).
  auto x = [&](int j) { return g.var(c, 1 + static_cast<int>(lo) + j); };
  auto supported = [&](int j) {
    return s.contains(idx, lo + j) && s.max(x(j)) >= s.min(res) && s.min(x(j)) <= s.max(res);
  };
  constexpr std::int64_t none_min = INT64_MAX, none_max = INT64_MIN;
  const std::int64_t first = lanes.min_value(m, [&](int j) { return supported(j) ? j : none_min; });
  const std::int64_t last = lanes.max_value(m, [&](int j) { return supported(j) ? j : none_max; });
  if (first == none_min || last == none_max) return prop_failed;
  const int span = static_cast<int>(last - first + 1);
  const std::int64_t least = lanes.min_value(span, [&](int k) -> std::int64_t {
    const int j = static_cast<int>(first) + k;
    return supported(j) ? std::int64_t(s.min(x(j))) : none_min;
  });
  const std::int64_t most = lanes.max_value(span, [&](int k) -> std::int64_t {
    const int j = static_cast<int>(first) + k;
    return supported(j) ? std::int64_t(s.max(x(j))) : none_max;
  });
  // Another thread may narrow meanwhile: each "none" is still a proof of failure.
  if (least == none_min || most == none_max) return prop_failed;
  int st = lanes.bit_or(1, [&](int) {
    int r = s.narrow_to(idx, lo + first, lo + last);
    if (!(r & prop_failed)) r |= s.narrow_to(res, least, most);
    // One position left: x_j equals the result.
    if (!(r & prop_failed) && first == last) r |= s.narrow_to(x(static_cast<int>(first)), s.min(res), s.max(res));
    return r;
  });
  if ((st & prop_failed) || !s.has_bits(idx) || span <= 2) return st;
  // An index with a bitset also loses the unsupported positions inside.
  return st | lanes.bit_or(span - 2, [&](int k) {
    const int j = static_cast<int>(first) + 1 + k;
    return s.contains(idx, lo + j) && !supported(j) ? s.remove(idx, lo + j) : int(prop_unchanged);
  });
}

/// result = x[index] (builtins array_var_int_element, array_var_bool_element): variables index,
/// result, x_1..x_n; no parameters.
struct VarElement : FamilyDefaults {
  static constexpr const char* name = "var_element";
  static constexpr const char* statistic = "varElementPropagators";
  static constexpr int holes_in = every_var;  // the index's unsupported positions, values of result and x_i
  static constexpr bool wakes_on_bounds = false;  // the index reads the array's values
  template <class Lanes, class G, class Store>
  static KOKKOS_INLINE_FUNCTION int propagate(const Lanes& lanes, const G& g, int c, const Store& s) {
    return propagate_var_element(lanes, g, c, s);
  }
};

}  // namespace kcp
