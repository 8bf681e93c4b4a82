// Family: element over constant arrays, result = values[index - 1] (FlatZinc's 1-based index).
// Constraint e's variables are index and result, its parameters the values (32-bit on the device).
//
// Checklist (Chuffed's): fails when no position of index's domain holds a value of result's domain,
// so a fixed false pair fails; narrows index to the first and last such position (within 1..n) and
// result to the least and greatest value at those positions: bounds(Z) consistency on result; with a
// bitset, index also loses every unsupported position inside (domain consistency on index); idempotent
// (the positions kept are exactly the supported ones, so a second run finds nothing);
// never overflows: positions and values are 32-bit, compared in 64 bits; declares no entailment.
// Monotone: the supported positions can only shrink when the domains do.
// Lanes: the positions within index's bounds are spread over the lanes; index's bounds are read by
// one lane and shared, since they are the loop bounds every lane must agree on.
#pragma once

#include "domains/arithmetic.hpp"
#include "domains/family.hpp"
#include "domains/lanes.hpp"
#include "domains/store.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kcp {

/// Propagates element e once. Lanes: SerialLanes or VectorLanes (positions spread over the lanes).
template <class Lanes, class Elems, class Store>
KOKKOS_INLINE_FUNCTION int propagate_element(const Lanes& lanes, const Elems& el, int e, const Store& s) {
  const int idx = el.var(e, 0), res = el.var(e, 1);
  const int b = el.par_begin(e);
  const std::int64_t n = el.par_begin(e + 1) - b;
  const std::int64_t lo = max64(1, lanes.max_value(1, [&](int) -> std::int64_t { return s.min(idx); }));
  const std::int64_t hi = min64(n, lanes.max_value(1, [&](int) -> std::int64_t { return s.max(idx); }));
  if (lo > hi) return prop_failed;
  // Position lo + j, j in [0, m), holds values[b + lo - 1 + j].
  const int m = static_cast<int>(hi - lo + 1);
  auto value = [&](int j) -> std::int64_t { return el.pars(b + static_cast<int>(lo) - 1 + j); };
  // With holes: a position the index has lost, or whose value the result has lost, is no support.
  auto supported = [&](int j) { return s.contains(idx, lo + j) && s.contains(res, value(j)); };
  constexpr std::int64_t none_min = INT64_MAX, none_max = INT64_MIN;
#ifdef __CUDA_ARCH__
  const std::int64_t first = lanes.min_value(m, [&](int j) { return supported(j) ? j : none_min; });
  const std::int64_t last = lanes.max_value(m, [&](int j) { return supported(j) ? j : none_max; });
  const std::int64_t least = lanes.min_value(m, [&](int j) { return supported(j) ? value(j) : none_min; });
  const std::int64_t most = lanes.max_value(m, [&](int j) { return supported(j) ? value(j) : none_max; });
#else
  // On the host a vector group is one thread (ThreadVectorRange is a plain loop there): one pass over
  // the positions instead of four reductions that each test support (they cost wordpress 30% of its
  // nodes/s once its index had a bitset: perf/NOTES.md, entry 13). Not on the GPU: rewriting these
  // lines there moved the search kernel with bitsets from 40/40 bytes of spills to 388/820
  // (perf/bench/kernel_resources.sh).
  std::int64_t first = none_min, last = none_max, least = none_min, most = none_max;
  for (int j = 0; j < m; ++j) {
    if (!supported(j)) continue;
    if (first == none_min) first = j;
    last = j;
    const std::int64_t v = value(j);
    least = v < least ? v : least;
    most = v > most ? v : most;
  }
#endif
  // Another thread may narrow result between the reductions: each "none" is still a proof of failure.
  if (first == none_min || last == none_max || least == none_min || most == none_max) return prop_failed;
  // One lane narrows, and every lane learns what it did: the branch below leads to a lane reduction,
  // which all lanes must reach together. (Each lane narrowing on its own, a lane whose atomic moved a
  // bound saw the wipe-out and left while the others, whose atomics changed nothing, went on to the
  // reduction: a hang on CUDA with holes, found by HoleFixpointOnBackend.AllFamiliesTeamEqualsSerialWithHoles.)
  const int st = lanes.bit_or(1, [&](int) {
    const int narrowed = s.narrow_to(idx, lo + first, lo + last);
    return (narrowed & prop_failed) ? narrowed : narrowed | s.narrow_to(res, least, most);
  });
  if ((st & prop_failed) || !s.has_bits(idx)) return st;
  // An index with a bitset also loses the unsupported positions inside (domain consistency on it).
  return st | lanes.bit_or(static_cast<int>(last - first + 1), [&](int k) {
    const int j = static_cast<int>(first) + k;
    return s.contains(idx, lo + j) && !s.contains(res, value(j)) ? s.remove(idx, lo + j) : int(prop_unchanged);
  });
}

/// result = values[index] (builtins array_int_element, array_bool_element; compile's table columns):
/// variables index, result; parameters the values, 32-bit on the device. The example of a family
/// that runs on one lane in the event-driven fixpoint (most elements are short: a lane each, like the
/// ternary propagators) and has its own entailment at the root.
struct Element : FamilyDefaults {
  static constexpr const char* name = "element";
  static constexpr const char* statistic = "elementPropagators";
  using Par = std::int32_t;
  static constexpr Placement placement = Placement::lane;
  static constexpr bool decomposable = false;  // no other form: always native
  static constexpr int holes_in = 1;  // the index's unsupported positions
  static constexpr bool wakes_on_bounds = false;  // positions read the result's values
  template <class Lanes, class G, class Store>
  static KOKKOS_INLINE_FUNCTION int propagate(const Lanes& lanes, const G& g, int c, const Store& s) {
    return propagate_element(lanes, g, c, s);
  }
  /// Entailed once the index is fixed, or the result is fixed and every value the index reaches is it.
  template <class Table, class Store>
  static bool entailed(const Table& t, int c, const Store& s) {
    const int index = t.var(c, 0), result = t.var(c, 1);
    if (s.fixed(index)) return true;
    if (!s.fixed(result)) return false;
    for (std::int64_t i = s.min(index) < 1 ? 1 : s.min(index); i <= s.max(index) && i <= t.num_pars(c); ++i)
      if (t.par(c, static_cast<int>(i - 1)) != s.min(result)) return false;
    return true;
  }
};

}  // namespace kcp
