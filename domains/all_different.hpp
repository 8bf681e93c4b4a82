// Global family: all_different(x_1, ..., x_n): the variables take pairwise different values.
//
// Checklist: bounds consistency by Hall intervals (Puget 1998, in its plain quadratic form): an
// interval [a, b] holding the whole domains of b - a + 1 variables (a Hall interval) is used up by
// them, so every other variable loses [a, b] (its bounds move past it; with a bitset the values
// inside go too, which is stronger than bounds consistency and still sound); more than b - a + 1 such
// variables fail. Only intervals from some variable's lower bound to some variable's upper bound can
// be Hall intervals, and no wider than n. A fixed variable is the Hall interval [v, v], so value
// elimination (what the decomposition into x_i != x_j does) is included. Monotone: an interval that
// is a Hall interval (or overfull) stays one when domains shrink, so every order reaches the same
// fixpoint. Not idempotent (a pruned variable may complete another Hall interval): the fixpoint
// reruns it. Never overflows: values are 32-bit, widths are computed in 64 bits.
// Cost: lane k tries the intervals starting at x_k's lower bound, widening to each next upper bound
// (O(n) each, at most n of them): O(n^2) per lane, O(n^3) per propagation at worst (n lanes).
// Lanes: one candidate lower bound per lane (ThreadVectorRange over the variables, one all_different
// per vector group); a lane may narrow any variable (narrowing is atomic on a shared store), and the
// statuses are or-reduced, so every lane reaches the reduction.
#pragma once

#include "domains/lanes.hpp"
#include "domains/store.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kcp {

/// The Hall intervals that start at x_k's lower bound: fail on an overfull one, prune the others'
/// variables out of each one found.
template <class G, class Store>
KOKKOS_INLINE_FUNCTION int all_different_from(const G& g, int c, int n, int k, const Store& s) {
  const std::int64_t a = s.min(g.var(c, k));
  std::int64_t b = a - 1;
  int inside = 0;  // variables whose whole domain lies in [a, b]
  int st = prop_unchanged;
  for (;;) {
    // The next upper bound above b among the variables that start at a or later.
    std::int64_t next = INT64_MAX;
    int at_next = 0;
    for (int j = 0; j < n; ++j) {
      const int y = g.var(c, j);
      const std::int64_t lo = s.min(y), hi = s.max(y);
      if (lo < a || hi <= b) continue;
      if (hi < next) {
        next = hi;
        at_next = 1;
      } else if (hi == next) {
        ++at_next;
      }
    }
    if (next == INT64_MAX || next - a + 1 > n) return st;  // wider than n: never full
    b = next;
    inside += at_next;
    if (inside > b - a + 1) return st | prop_failed;
    if (inside < b - a + 1) continue;
    // [a, b] is a Hall interval: the variables not inside it lose it.
    for (int j = 0; j < n; ++j) {
      const int y = g.var(c, j);
      if (s.min(y) >= a && s.max(y) <= b) continue;
      st |= s.remove_range(y, a, b);
      if (st & prop_failed) return st;
    }
  }
}

/// Propagates all_different c of the view g once. Lanes: SerialLanes or VectorLanes.
template <class Lanes, class G, class Store>
KOKKOS_INLINE_FUNCTION int propagate_all_different(const Lanes& lanes, const G& g, int c, const Store& s) {
  const int n = g.arity(c);
  return lanes.bit_or(n, [&](int k) { return all_different_from(g, c, n, k, s); });
}

}  // namespace kcp
