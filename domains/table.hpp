// Global family: table(x_1..x_k, T): (x_1, ..., x_k) equals one of the m rows of the constant table T
// (k columns, row-major). FlatZinc: kcp_table_int / kcp_table_bool from kcp's mznlib, which also
// builds regular from it (a chain of transitions (q_{i-1}, x_i, q_i) over state variables).
//
// Checklist: a row is alive while every x_i may still take its value; fails when no row is; every
// variable's bounds move to the least and greatest value an alive row gives it (bounds(D)
// consistency); a variable with a bitset also loses every value inside that no alive row gives it
// (generalised arc consistency on that variable). Stateless (no per-node row set: rows are checked
// against the domains at each run), so nothing to restore on backtracking; O(m k) per variable's
// bounds and O(words m k) for its inside values (a pass over the rows per bitset word; it was one per
// value, O(span m k): groupsplitter's 30 tables of 1,950 rows ran 34 nodes/s on this VM, perf/NOTES.md
// entry 57). Not idempotent (a narrowed variable kills rows): the
// fixpoint reruns it. Monotone: alive rows only die when domains shrink. Never overflows: cells and
// values are compared as 64-bit integers.
// Lanes: the rows spread over the lanes for each variable's bounds (two reductions), the values
// of a bitset word over the lanes for its holes; one lane narrows the bounds and every lane reaches
// each reduction (one table per vector group).
#pragma once

#include "domains/arithmetic.hpp"
#include "domains/family.hpp"
#include "domains/lanes.hpp"
#include "domains/store.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kcp {

namespace detail {

/// The most rows propagate_table_alive takes (its bitmap of alive rows is on the stack: 8 KiB; groupsplitter
/// has tables of 17,069 rows).
constexpr int table_bitmap_rows = 1 << 16;

/// Table c on one thread, host code: the alive rows found once, into a bitmap. Narrowing x_i to the values
/// the alive rows give it kills no alive row (unless a variable is in the table twice: then the rows found
/// are a superset of the alive ones, which is sound, and the fixpoint runs the table again), so the bitmap
/// holds for every variable in turn and one run reaches the table's own fixpoint: O(m k) for the rows and
/// one pass over the alive rows per variable (its values as bitset words, 4,096 values a pass; bounds-only:
/// its least and greatest), against propagate_table's O(m k) per variable and bitset word.
template <class G, class Store>
KOKKOS_INLINE_FUNCTION int propagate_table_alive(const G& g, int c, const Store& s, int k, int m) {
  std::uint64_t live[table_bitmap_rows / 64];
  const int blocks = (m + 63) / 64;
  auto cell = [&](int r, int i) { return g.par(c, r * k + i); };
  bool any = false;
  for (int b = 0; b < blocks; ++b) {
    std::uint64_t bits = 0;
    const int end = (b + 1) * 64 < m ? (b + 1) * 64 : m;
    for (int r = b * 64; r < end; ++r) {
      bool ok = true;
      for (int i = 0; i < k && ok; ++i) ok = s.contains(g.var(c, i), cell(r, i));
      if (ok) bits |= std::uint64_t(1) << (r - b * 64);
    }
    live[b] = bits;
    any = any || bits != 0;
  }
  if (!any) return prop_failed;
  // f(r) for every alive row r.
  auto for_alive = [&](const auto& f) {
    for (int b = 0; b < blocks; ++b)
      for (std::uint64_t bits = live[b]; bits != 0; bits &= bits - 1) f(b * 64 + lowest_bit(bits));
  };
  int st = prop_unchanged;
  constexpr int most_words = 64;  // words a pass over the alive rows fills: one pass up to 4,096 values
  DomainWord sup[most_words];
  for (int i = 0; i < k; ++i) {
    const int x = g.var(c, i);
    if (s.has_bits(x)) {
      // The alive rows' values of x, as x's bitset words, up to most_words words a pass; normalise then
      // moves the bounds onto the least and greatest of them. (Values outside x's bounds are skipped: x is
      // in the table twice and an earlier column narrowed it, or another thread did.)
      const int last = s.last_word(x);
      for (int first = s.first_word(x); first <= last; first += most_words) {
        const int n = last - first + 1 < most_words ? last - first + 1 : most_words;
        const std::int64_t base = s.word_base(x, first);
        for (int w = 0; w < n; ++w) sup[w] = 0;
        for_alive([&](int r) {
          const std::int64_t off = cell(r, i) - base;
          if (off >= 0 && (off >> 6) < n) sup[off >> 6] |= DomainWord(1) << (off & 63);
        });
        for (int w = 0; w < n; ++w) st |= s.keep_word(x, first + w, sup[w]);
        if (st & prop_failed) return st;
      }
      st |= s.normalise(x);
      if (st & prop_failed) return st;
      continue;
    }
    std::int64_t lo = INT64_MAX, hi = INT64_MIN;
    for_alive([&](int r) {
      const std::int64_t v = cell(r, i);
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    });
    st |= s.narrow_to(x, lo, hi);
    if (st & prop_failed) return st;
  }
  return st;
}

}  // namespace detail

/// Propagates table c of the view g once: variables x_1..x_k, parameters the rows (m * k cells).
template <class Lanes, class G, class Store>
KOKKOS_INLINE_FUNCTION int propagate_table(const Lanes& lanes, const G& g, int c, const Store& s) {
  const int k = g.arity(c);
  if (k == 0) return prop_unchanged;
  const int m = g.num_pars(c) / k;
#if !defined(__CUDA_ARCH__)
  // On the host a vector group is one thread (Kokkos' ThreadVectorRange is a loop there): one pass.
  if (m <= detail::table_bitmap_rows) return detail::propagate_table_alive(g, c, s, k, m);
#endif
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
    // Values inside [lo, hi] that no alive row gives x, a bitset word at a time: the word's supported
    // values are the or of the alive rows' cells in it (lo and hi are among them).
    // (The words from lo's and hi's, read from them rather than from the store: another lane narrowed it.)
    const std::int64_t base0 = s.word_base(x, 0);
    const int first = static_cast<int>((lo - base0) >> 6), last = static_cast<int>((hi - base0) >> 6);
    for (int w = first; w <= last && !(st & prop_failed); ++w) {
      const std::int64_t base = s.word_base(x, w);
      const DomainWord supported = lanes.word_or(m, [&](int r) {
        const std::int64_t v = cell(r, i);
        return v >= base && v < base + domain_word_bits && alive(r) ? DomainWord(1) << (v - base) : DomainWord(0);
      });
      st |= lanes.bit_or(1, [&](int) { return s.keep_word(x, w, supported); });
    }
    if (st & prop_failed) return st;
    st |= lanes.bit_or(1, [&](int) { return s.normalise(x); });
    if (st & prop_failed) return st;
  }
  return st;
}

/// table(x, T) (builtins kcp_table_int, kcp_table_bool; kcp's mznlib also builds regular from it):
/// variables x_1..x_k; parameters the rows of T, row-major.
struct Table : FamilyDefaults {
  static constexpr const char* name = "table";
  static constexpr const char* statistic = "tablePropagators";
  static constexpr int holes_in = every_var;
  static constexpr bool wakes_on_bounds = false;  // the rows' support reads every value
  template <class Lanes, class G, class Store>
  static KOKKOS_INLINE_FUNCTION int propagate(const Lanes& lanes, const G& g, int c, const Store& s) {
    return propagate_table(lanes, g, c, s);
  }
};

}  // namespace kcp
