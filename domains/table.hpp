// Global family: table(x_1..x_k, T): (x_1, ..., x_k) equals one of the m rows of the constant table T
// (k columns, row-major). FlatZinc: kcp_table_int / kcp_table_bool from kcp's mznlib, which also
// builds regular from it (a chain of transitions (q_{i-1}, x_i, q_i) over state variables).
//
// Checklist: a row is alive while every x_i may still take its value; fails when no row is; every
// variable's bounds move to the least and greatest value an alive row gives it (bounds(D)
// consistency); a variable with a bitset also loses every value inside that no alive row gives it
// (generalised arc consistency on that variable). Stateless (no per-node row set: rows are checked
// against the domains at each run), so nothing to restore on backtracking; O(m k) per variable's
// bounds and O(span m) for its inside values. Not idempotent (a narrowed variable kills rows): the
// fixpoint reruns it. Monotone: alive rows only die when domains shrink. Never overflows: cells and
// values are compared as 64-bit integers.
// Lanes: the rows spread over the lanes for each variable's bounds (two reductions), the values
// inside a bitset over the lanes for its holes; one lane narrows the bounds and every lane reaches
// each reduction (one table per vector group).
#pragma once

#include "domains/arithmetic.hpp"
#include "domains/lanes.hpp"
#include "domains/store.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kcp {

/// Propagates table c of the view g once: variables x_1..x_k, parameters the rows (m * k cells).
template <class Lanes, class G, class Store>
KOKKOS_INLINE_FUNCTION int propagate_table(const Lanes& lanes, const G& g, int c, const Store& s) {
  const int k = g.arity(c);
  if (k == 0) return prop_unchanged;
  const int m = g.num_pars(c) / k;
  auto cell = [&](int r, int i) { return g.par(c, r * k + i); };
  auto alive = [&](int r) {
    for (int i = 0; i < k; ++i)
      if (!s.contains(g.var(c, i), cell(r, i))) return false;
    return true;
  };
  constexpr std::int64_t none_min = INT64_MAX, none_max = INT64_MIN;
  int st = prop_unchanged;
  for (int i = 0; i < k; ++i) {
    const int x = g.var(c, i);
    const std::int64_t lo = lanes.min_value(m, [&](int r) { return alive(r) ? cell(r, i) : none_min; });
    const std::int64_t hi = lanes.max_value(m, [&](int r) { return alive(r) ? cell(r, i) : none_max; });
    if (lo == none_min || hi == none_max) return st | prop_failed;
    st |= lanes.bit_or(1, [&](int) { return s.narrow_to(x, lo, hi); });
    if (st & prop_failed) return st;
    if (!s.has_bits(x) || hi - lo < 2) continue;
    // Values strictly inside (lo, hi) that no alive row gives x.
    st |= lanes.bit_or(static_cast<int>(hi - lo - 1), [&](int j) {
      const std::int64_t v = lo + 1 + j;
      if (!s.contains(x, v)) return int(prop_unchanged);
      for (int r = 0; r < m; ++r)
        if (cell(r, i) == v && alive(r)) return int(prop_unchanged);
      return s.remove(x, v);
    });
    if (st & prop_failed) return st;
  }
  return st;
}

}  // namespace kcp
