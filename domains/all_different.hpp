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
// Cost: lane k counts the intervals starting at x_k's lower bound, of every width up to n, in one pass
// over the variables per 64 widths (a byte histogram of their upper bounds), and one more pass that
// removes from each variable the widest Hall interval it is not inside: O(n) per lane for n <= 64,
// O(n^2) per propagation; a lane whose lower bound another variable before it shares stops at once. (The first version widened to
// each next upper bound with a pass per step, O(n^2) per lane: 27x fewer nodes/s than the
// decomposition on sudoku-opt's all_different over 25, perf/NOTES.md entry 17.)
// Lanes: one candidate lower bound per lane (ThreadVectorRange over the variables, one all_different
// per vector group); a lane may narrow any variable (narrowing is atomic on a shared store), and the
// statuses are or-reduced, so every lane reaches the reduction.
#pragma once

#include "domains/family.hpp"
#include "domains/lanes.hpp"
#include "domains/store.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kcp {

/// Widths of candidate intervals counted per pass (a histogram of this many counters per lane): 64
/// one-byte counters on a GPU (a lane's local memory), 1,024 two-byte ones on a host thread, whose
/// stack holds them easily (one pass over the variables instead of n / 64: queens' all_different over
/// 300 variables ran five passes per lane). Counters saturate: a count held at its maximum is an
/// undercount, which can only miss a pruning or turn an overfull interval into a full one (a pruning
/// of a node that fails anyway), never prune a value a solution takes.
#ifdef __CUDA_ARCH__
constexpr int hall_chunk = 64;
using HallCount = unsigned char;
#else
constexpr int hall_chunk = 1024;
using HallCount = std::uint16_t;
#endif

/// The Hall intervals that start at x_k's lower bound a: [a, a + w - 1] for w = 1..n (a wider one
/// cannot be full), counted by one pass over the variables per hall_chunk widths (a histogram of the
/// upper bounds of the variables starting at a or later), so O(n) per lane for n <= hall_chunk. Fails
/// on an overfull interval, prunes the other variables out of each full one.
template <class G, class Store>
KOKKOS_INLINE_FUNCTION int all_different_from(const G& g, int c, int n, int k, const Store& s) {
  const std::int64_t a = s.min(g.var(c, k));
  int st = prop_unchanged;
  for (int base = 0; base < n; base += hall_chunk) {
    HallCount at[hall_chunk];  // variables inside [a, a + w - 1] with their upper bound at a + w - 1
    const int chunk_end = n - base < hall_chunk ? n - base : hall_chunk;
    for (int w = 0; w < chunk_end; ++w) at[w] = 0;
    int inside = 0;  // variables inside [a, a + base - 1]
    for (int j = 0; j < n; ++j) {
      const int y = g.var(c, j);
      const std::int64_t lo = s.min(y), off = std::int64_t(s.max(y)) - a;
      if (lo == a && j < k) return st;  // the first variable starting at a counts for it
      if (lo < a || off < 0 || off >= n) continue;
      if (off < base) {
        ++inside;
      } else if (off < base + hall_chunk) {
        HallCount& count = at[off - base];
        if (count != HallCount(~HallCount(0))) ++count;
      }
    }
    const int end = base + chunk_end;
    // at[i] becomes the widest Hall interval among [a, a + base + i'] for i' <= i, as i' + 1 (0: none).
    int widest = 0;
    for (int w = base + 1; w <= end; ++w) {
      inside += at[w - 1 - base];
      if (inside > w) return st | prop_failed;
      if (inside == w) widest = w - base;
      at[w - 1 - base] = static_cast<HallCount>(widest);
    }
    if (widest == 0) continue;
    // Each variable loses the widest Hall interval it is not inside (which holds the narrower ones
    // it is not inside either): one remove_range per variable, however many intervals are nested.
    for (int j = 0; j < n; ++j) {
      const int y = g.var(c, j);
      int lose = widest;
      if (s.min(y) >= a) {
        const std::int64_t rel = std::int64_t(s.max(y)) - a - base;  // inside [a, a + base + i] iff i >= rel
        if (rel <= 0) continue;
        if (rel < chunk_end) lose = at[rel - 1];
      }
      if (lose == 0) continue;
      st |= s.remove_range(y, a, a + base + lose - 1);
      if (st & prop_failed) return st;
    }
  }
  return st;
}

/// Propagates all_different c of the view g once. Lanes: SerialLanes or VectorLanes.
template <class Lanes, class G, class Store>
KOKKOS_INLINE_FUNCTION int propagate_all_different(const Lanes& lanes, const G& g, int c, const Store& s) {
  const int n = g.arity(c);
  return lanes.bit_or(n, [&](int k) { return all_different_from(g, c, n, k, s); });
}

/// all_different(x) (builtin kcp_all_different_int): variables the x_i; no parameters.
struct AllDifferent : FamilyDefaults {
  static constexpr const char* name = "all_different";
  static constexpr const char* statistic = "allDifferentPropagators";
  /// On the host, x_i != x_j rows wake only the variables' own rows and run 1.4-4x more nodes/s on
  /// the dev set's all_different models with no worse objective; on an H100 the native one runs up
  /// to 6.4x more (perf/NOTES.md entry 17).
  static constexpr bool native_on_host = false, native_on_gpu = true;
  /// On GPUs, native up to this many variables (a lane's one pass: hall_chunk), x_i != x_j rows
  /// beyond (CompileOptions::all_different_max_arity; one H200: 300- and 400-queens' first solution
  /// none in 5 s native, 0.52 s as rows; latin squares of order 30-40 need the Hall intervals:
  /// perf/NOTES.md entry 55).
  static constexpr int native_max_arity_gpu = 64;
  static constexpr int holes_in = every_var;
  static constexpr bool wakes_on_bounds = true;  // Hall intervals of the bounds
  template <class Lanes, class G, class Store>
  static KOKKOS_INLINE_FUNCTION int propagate(const Lanes& lanes, const G& g, int c, const Store& s) {
    return propagate_all_different(lanes, g, c, s);
  }
};

}  // namespace kcp
