// The variable store: per-variable 32-bit lower and upper bounds that only ever narrow, and, for the
// variables whose root domain spans few values, a bitset of the values left (domains with holes).
// A StoreRef points at a store wherever it lives (team scratch, global memory, host vectors).
//
// Domains. x's domain is {v in [lb(x), ub(x)] : v has its bit set}, or the whole interval when x has
// no bitset (bits_at[x] < 0: a domain wider than the bitset span stays bounds-only). Bit k of word w of
// x's bitset (words bits[bits_at[x] + w]) stands for the value bits_base[x] + 64 w + k. Bits outside
// [lb, ub] mean nothing (a bound change does not clear them: it needs no write), so every read of the
// bits is masked by the bounds. The bounds are kept on values of the domain: a bound that moves onto
// a removed value moves on to the next value left, and removing the value at a bound moves the bound;
// an empty domain is lb > ub, as for bounds-only variables.
//
// Concurrency. With Concurrent = true, narrowing is an atomic max/min and a removal an atomic AND, so
// that several threads of a team may narrow the same variable at once; with false (one thread per
// store: Serial, OpenMP teams of one, host tests) plain loads and stores do. Two threads racing on
// one variable can leave a bound on a value the other just removed (each read the other's word or
// bound before it was written): the domain is still described correctly (a bound is a bound, the
// bits are the bits) but not normalised. The team fixpoints end with a sweep (normalise) that
// catches it, as it catches a wipe-out that two racing bound narrowings both missed.
#pragma once

#include "domains/arithmetic.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kcp {

/// What a propagator or a narrowing did: bit flags, combined with |.
enum PropStatus : int { prop_unchanged = 0, prop_changed = 1, prop_failed = 2 };

/// The kinds of a variable's changes the event-driven fixpoint tells apart (StoreRef::touch): a value
/// went, and a bound moved. Propagators that read only bounds are woken by the second alone.
enum TouchKind : std::int32_t { touched_value = 1, touched_bound = 2 };

/// One word of a domain bitset. unsigned long long: the type CUDA's atomicAnd takes.
using DomainWord = unsigned long long;
constexpr int domain_word_bits = 64;
/// Variables whose root domain spans at most this many values get a bitset by default (compile's
/// CompileOptions and search's SearchOptions::bitset_span; perf/NOTES.md, entries 12 and 42): 64 words
/// a variable at most. Was 64 values, which left 150-queens bounds-only.
constexpr std::int64_t default_bitset_span = 4096;
/// The words of all bitsets of a store together, at most (Program::give_bitsets: the narrowest domains
/// first; the others stay bounds-only and are counted by the statistic boundsOnlyVariables): 256 KiB
/// a store, beside its 8 bytes of bounds a variable.
constexpr std::int64_t default_bitset_words = std::int64_t(1) << 15;

/// Bit tricks usable in device code.
KOKKOS_INLINE_FUNCTION int popcount64(DomainWord w) {
#ifdef __CUDA_ARCH__
  return __popcll(w);
#else
  return __builtin_popcountll(w);
#endif
}
/// Index of the least set bit; w != 0.
KOKKOS_INLINE_FUNCTION int lowest_bit(DomainWord w) {
#ifdef __CUDA_ARCH__
  return __ffsll(static_cast<long long>(w)) - 1;
#else
  return __builtin_ctzll(w);
#endif
}
/// Index of the greatest set bit; w != 0.
KOKKOS_INLINE_FUNCTION int highest_bit(DomainWord w) {
#ifdef __CUDA_ARCH__
  return 63 - __clzll(static_cast<long long>(w));
#else
  return 63 - __builtin_clzll(w);
#endif
}
/// The word with its bits in reverse order (bit k to bit 63 - k).
KOKKOS_INLINE_FUNCTION DomainWord reverse_bits(DomainWord w) {
#ifdef __CUDA_ARCH__
  return __brevll(w);
#else
  w = ((w >> 1) & 0x5555555555555555ULL) | ((w & 0x5555555555555555ULL) << 1);
  w = ((w >> 2) & 0x3333333333333333ULL) | ((w & 0x3333333333333333ULL) << 2);
  w = ((w >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((w & 0x0f0f0f0f0f0f0f0fULL) << 4);
  return __builtin_bswap64(w);
#endif
}
/// Bits k.. of a word set (k in [0, 63]) and bits ..k set.
KOKKOS_INLINE_FUNCTION DomainWord bits_from(int k) { return ~DomainWord(0) << k; }
KOKKOS_INLINE_FUNCTION DomainWord bits_upto(int k) { return ~DomainWord(0) >> (63 - k); }

/// The bitset paths of a narrowing (settling a bound onto a value left, clearing words): out of line
/// in CUDA device code, so that the many inlined narrowings of the propagator families do not each
/// carry them into the search kernel's registers (perf/NOTES.md, entry 12).
#if defined(__CUDA_ARCH__)
#define KCP_OUT_OF_LINE __noinline__
#else
#define KCP_OUT_OF_LINE
#endif

/// Where the bitsets are: per variable, its first word (-1: bounds only) and the value of its bit 0.
/// Fixed for a program; the words themselves are per store.
struct DomainLayout {
  const std::int32_t* bits_at = nullptr;
  const std::int32_t* bits_base = nullptr;
  int size = 0;   ///< variables
  int words = 0;  ///< words of all bitsets together
};

/// Holes = false: a store whose program has no bitset, known at compile time, so that every bitset
/// path folds away (the GPU kernel's registers: perf/NOTES.md, entry 12).
template <bool Concurrent, bool Holes = true>
struct StoreRef {
  static constexpr bool concurrent = Concurrent;
  static constexpr bool holes = Holes;
  std::int32_t* lb = nullptr;
  std::int32_t* ub = nullptr;
  int size = 0;  ///< number of variables
  DomainWord* bits = nullptr;                 ///< the store's bitset words (null: no variable has one)
  const std::int32_t* bits_at = nullptr;      ///< see DomainLayout
  const std::int32_t* bits_base = nullptr;
  // Optional change tracking for the event-driven fixpoint (queue_fixpoint): when touched_flag is set,
  // a narrowing that changes x appends x to touched_list (once, while touched_flag[x] is 1).
  std::int32_t* touched_flag = nullptr;
  std::int32_t* touched_list = nullptr;
  int* touched_count = nullptr;

  /// The one way to build a store: bounds, and the bitset words laid out as `layout` says (bits may be
  /// null only when layout.words == 0).
  KOKKOS_INLINE_FUNCTION StoreRef(std::int32_t* lb_, std::int32_t* ub_, DomainWord* bits_, const DomainLayout& layout)
      : lb(lb_), ub(ub_), size(layout.size), bits(layout.words > 0 ? bits_ : nullptr),
        bits_at(layout.words > 0 ? layout.bits_at : nullptr), bits_base(layout.bits_base) {}
  /// A store of n bounds-only variables (tests and tools that build no bitset).
  KOKKOS_INLINE_FUNCTION static StoreRef bounds_only(std::int32_t* lb_, std::int32_t* ub_, int n) {
    DomainLayout l;
    l.size = n;
    return StoreRef(lb_, ub_, nullptr, l);
  }

  /// Records a change of x for the event-driven fixpoint: touched_flag[x] collects the kinds of its
  /// changes (touched_value: a value went; touched_bound: a bound moved, which a value going from
  /// inside the bounds does not), and x joins touched_list at its first change.
  KOKKOS_INLINE_FUNCTION void touch(int x, std::int32_t kind = touched_value | touched_bound) const {
    if (touched_flag == nullptr) return;
    if constexpr (Concurrent) {
      if (Kokkos::atomic_fetch_or(&touched_flag[x], kind) == 0)
        touched_list[Kokkos::atomic_fetch_add(touched_count, 1)] = x;
    } else {
      const std::int32_t old = touched_flag[x];
      touched_flag[x] = old | kind;
      if (old == 0) touched_list[(*touched_count)++] = x;
    }
  }

  // Reads may race with another thread's narrowing of the same bound. An int32 load is never torn,
  // and a stale bound is a weaker (older) one, so a propagator reading it prunes less, never wrongly;
  // the writer flags the change and the fixpoint runs another iteration. The same holds for words.
  KOKKOS_INLINE_FUNCTION std::int32_t min(int x) const { return lb[x]; }
  KOKKOS_INLINE_FUNCTION std::int32_t max(int x) const { return ub[x]; }
  KOKKOS_INLINE_FUNCTION bool fixed(int x) const { return lb[x] == ub[x]; }
  KOKKOS_INLINE_FUNCTION bool has_bits(int x) const {
    if constexpr (!Holes) {
      return false;
    } else {
      return bits != nullptr && bits_at[x] >= 0;
    }
  }

  /// v is in x's domain.
  KOKKOS_INLINE_FUNCTION bool contains(int x, std::int64_t v) const {
    if (v < lb[x] || v > ub[x]) return false;
    if (!has_bits(x)) return true;
    const std::int64_t off = v - bits_base[x];
    return (word(x, static_cast<int>(off >> 6)) >> (off & 63)) & 1;
  }

  /// The least value of x's domain that is >= v, or ub(x) + 1 when there is none.
  KOKKOS_INLINE_FUNCTION std::int64_t next_value(int x, std::int64_t v) const {
    const std::int64_t u = ub[x];
    if (v < lb[x]) v = lb[x];
    if (v > u || !has_bits(x)) return v > u ? u + 1 : v;
    const std::int64_t base = bits_base[x];
    std::int64_t off = v - base;
    int w = static_cast<int>(off >> 6);
    DomainWord m = word(x, w) & bits_from(static_cast<int>(off & 63));
    const int last = static_cast<int>((u - base) >> 6);
    while (m == 0) {
      if (++w > last) return u + 1;
      m = word(x, w);
    }
    const std::int64_t r = base + std::int64_t(w) * domain_word_bits + lowest_bit(m);
    return r <= u ? r : u + 1;
  }

  /// The greatest value of x's domain that is <= v, or lb(x) - 1 when there is none.
  KOKKOS_INLINE_FUNCTION std::int64_t prev_value(int x, std::int64_t v) const {
    const std::int64_t l = lb[x];
    if (v > ub[x]) v = ub[x];
    if (v < l || !has_bits(x)) return v < l ? l - 1 : v;
    const std::int64_t base = bits_base[x];
    std::int64_t off = v - base;
    int w = static_cast<int>(off >> 6);
    DomainWord m = word(x, w) & bits_upto(static_cast<int>(off & 63));
    const int first = static_cast<int>((l - base) >> 6);
    while (m == 0) {
      if (--w < first) return l - 1;
      m = word(x, w);
    }
    const std::int64_t r = base + std::int64_t(w) * domain_word_bits + highest_bit(m);
    return r >= l ? r : l - 1;
  }

  /// The number of values in x's domain (0 when empty).
  KOKKOS_INLINE_FUNCTION std::int64_t domain_size(int x) const {
    const std::int64_t l = lb[x], u = ub[x];
    if (l > u) return 0;
    if (!has_bits(x)) return u - l + 1;
    const std::int64_t base = bits_base[x];
    const int first = static_cast<int>((l - base) >> 6), last = static_cast<int>((u - base) >> 6);
    std::int64_t n = 0;
    for (int w = first; w <= last; ++w) n += popcount64(masked_word(x, w, l, u));
    return n;
  }

  /// The value of rank k (0: the least) of x's domain, for 0 <= k < domain_size(x).
  KOKKOS_INLINE_FUNCTION std::int64_t value_at_rank(int x, std::int64_t k) const {
    const std::int64_t l = lb[x], u = ub[x];
    if (!has_bits(x)) return l + k;
    const std::int64_t base = bits_base[x];
    const int first = static_cast<int>((l - base) >> 6), last = static_cast<int>((u - base) >> 6);
    for (int w = first; w <= last; ++w) {
      DomainWord m = masked_word(x, w, l, u);
      const int c = popcount64(m);
      if (k >= c) {
        k -= c;
        continue;
      }
      for (; k > 0; --k) m &= m - 1;  // drop the k lowest set bits
      return base + std::int64_t(w) * domain_word_bits + lowest_bit(m);
    }
    return u;  // k out of range: not reached for a valid k
  }

  /// x >= v. Values are clamped into the store's range first, so a wide bound never wraps. A bound
  /// landing on a removed value moves on to the next value left.
  KOKKOS_INLINE_FUNCTION int narrow_min(int x, std::int64_t wide) const {
    if (wide > bound_max) return prop_failed;
    const std::int32_t v = clamp_bound(wide);
    if (v <= lb[x]) return prop_unchanged;
    std::int32_t old;
    if constexpr (Concurrent) {
      old = Kokkos::atomic_fetch_max(&lb[x], v);
    } else {
      old = lb[x];
      lb[x] = v;
    }
    if (v <= old) return prop_unchanged;
    touch(x);
    if (v > ub[x]) return prop_changed | prop_failed;
    return has_bits(x) ? (prop_changed | settle_min(x)) : prop_changed;
  }

  /// x <= v.
  KOKKOS_INLINE_FUNCTION int narrow_max(int x, std::int64_t wide) const {
    if (wide < bound_min) return prop_failed;
    const std::int32_t v = clamp_bound(wide);
    if (v >= ub[x]) return prop_unchanged;
    std::int32_t old;
    if constexpr (Concurrent) {
      old = Kokkos::atomic_fetch_min(&ub[x], v);
    } else {
      old = ub[x];
      ub[x] = v;
    }
    if (v >= old) return prop_unchanged;
    touch(x);
    if (v < lb[x]) return prop_changed | prop_failed;
    return has_bits(x) ? (prop_changed | settle_max(x)) : prop_changed;
  }

  /// lo <= x <= hi.
  KOKKOS_INLINE_FUNCTION int narrow_to(int x, std::int64_t lo, std::int64_t hi) const {
    const int st = narrow_min(x, lo);
    if (st & prop_failed) return st;
    return st | narrow_max(x, hi);
  }

  /// x != v. A value at a bound moves the bound (on every variable); a value inside is cleared from
  /// the bitset, where x has one (bounds-only variables keep it: sound, weaker).
  KOKKOS_INLINE_FUNCTION int remove(int x, std::int64_t v) const {
    const std::int64_t l = lb[x], u = ub[x];
    if (v < l || v > u) return prop_unchanged;
    if (!has_bits(x)) {
      if (v == l) return narrow_min(x, v + 1);
      if (v == u) return narrow_max(x, v - 1);
      return prop_unchanged;
    }
    const std::int64_t off = v - bits_base[x];
    const DomainWord m = DomainWord(1) << (off & 63);
    DomainWord* w = &bits[bits_at[x] + static_cast<int>(off >> 6)];
    DomainWord old;
    if constexpr (Concurrent) {
      old = Kokkos::atomic_fetch_and(w, ~m);
    } else {
      old = *w;
      *w = old & ~m;
    }
    if (!(old & m)) return prop_unchanged;
    touch(x, touched_value);  // a bound it was on moves below, and counts as a bound then
    int st = prop_changed;
    // Read after the write: a bound that another thread has just moved onto v is moved on here.
    if (lb[x] == v) st |= settle_min(x);
    if (ub[x] == v) st |= settle_max(x);
    return st;
  }

  /// x outside [a, b]: a bound inside moves past it, and with a bitset every value inside is removed
  /// (word by word; a bitset spans few words).
  KOKKOS_INLINE_FUNCTION int remove_range(int x, std::int64_t a, std::int64_t b) const {
    int st = prop_unchanged;
    if (lb[x] >= a && lb[x] <= b) st |= narrow_min(x, b + 1);
    if (st & prop_failed) return st;
    if (ub[x] >= a && ub[x] <= b) st |= narrow_max(x, a - 1);
    if ((st & prop_failed) || !has_bits(x)) return st;
    const std::int64_t base = bits_base[x];
    const std::int64_t lo = (a > lb[x] ? a : std::int64_t(lb[x])) - base, hi = (b < ub[x] ? b : std::int64_t(ub[x])) - base;
    if (lo > hi) return st;
    bool cleared = false;
    for (int w = static_cast<int>(lo >> 6); w <= static_cast<int>(hi >> 6); ++w) {
      DomainWord m = ~DomainWord(0);
      if (lo > std::int64_t(w) * 64) m &= bits_from(static_cast<int>(lo - std::int64_t(w) * 64));
      if (hi < std::int64_t(w) * 64 + 63) m &= bits_upto(static_cast<int>(hi - std::int64_t(w) * 64));
      DomainWord* p = &bits[bits_at[x] + w];
      DomainWord old;
      if constexpr (Concurrent) {
        old = Kokkos::atomic_fetch_and(p, ~m);
      } else {
        old = *p;
        *p = old & ~m;
      }
      cleared = cleared || (old & m) != 0;
    }
    if (!cleared) return st;
    touch(x, touched_value);
    return st | prop_changed | normalise(x);
  }

  /// The 64 values v0 .. v0 + 63 as a word: bit k set when v0 + k is in x's domain (bounds-only
  /// variables: every value within the bounds).
  KOKKOS_INLINE_FUNCTION DomainWord window(int x, std::int64_t v0) const {
    const std::int64_t l = lb[x], u = ub[x];
    if (l > u || v0 > u || v0 + 63 < l) return 0;
    DomainWord m = ~DomainWord(0);
    if (l > v0) m &= bits_from(static_cast<int>(l - v0));
    if (u < v0 + 63) m &= bits_upto(static_cast<int>(u - v0));
    if (!has_bits(x)) return m;
    // Within the bounds, so the words read below are x's own.
    const std::int64_t off = v0 - bits_base[x];
    const std::int64_t w0 = off >= 0 ? off >> 6 : -((-off + 63) >> 6);
    const int sh = static_cast<int>(off - w0 * 64);
    const std::int64_t first = (l - bits_base[x]) >> 6, last = (u - bits_base[x]) >> 6;
    const DomainWord lo_word = (w0 >= first && w0 <= last) ? word(x, static_cast<int>(w0)) : 0;
    const DomainWord hi_word = (w0 + 1 >= first && w0 + 1 <= last) ? word(x, static_cast<int>(w0 + 1)) : 0;
    const DomainWord got = sh == 0 ? lo_word : (lo_word >> sh) | (hi_word << (64 - sh));
    return got & m;
  }

  /// x's bitset word w keeps only the bits of `keep` (x has a bitset; w within its bounds' words):
  /// prop_changed when a value within the bounds went. The caller normalises x afterwards.
  KOKKOS_INLINE_FUNCTION int keep_word(int x, int w, DomainWord keep) const {
    const std::int64_t l = lb[x], u = ub[x];
    if (l > u) return prop_failed;
    const DomainWord live = masked_word(x, w, l, u);
    if ((live & ~keep) == 0) return prop_unchanged;
    DomainWord* p = &bits[bits_at[x] + w];
    if constexpr (Concurrent) {
      Kokkos::atomic_fetch_and(p, keep | ~live);
    } else {
      *p = *p & (keep | ~live);
    }
    touch(x, touched_value);
    return prop_changed;
  }

  /// The words of x's bitset that its bounds reach: [first, last] (x has a bitset, lb <= ub).
  KOKKOS_INLINE_FUNCTION int first_word(int x) const { return static_cast<int>((std::int64_t(lb[x]) - bits_base[x]) >> 6); }
  KOKKOS_INLINE_FUNCTION int last_word(int x) const { return static_cast<int>((std::int64_t(ub[x]) - bits_base[x]) >> 6); }
  KOKKOS_INLINE_FUNCTION std::int64_t word_base(int x, int w) const { return bits_base[x] + std::int64_t(w) * domain_word_bits; }

  /// Moves bounds that sit on removed values (left there by racing threads) onto values of the
  /// domain: prop_changed when one moved, prop_failed when the domain is empty.
  KOKKOS_INLINE_FUNCTION int normalise(int x) const {
    if (lb[x] > ub[x]) return prop_failed;
    if (!has_bits(x)) return prop_unchanged;
    int st = prop_unchanged;
    if (!contains(x, lb[x])) st |= settle_min(x);
    if (st & prop_failed) return st;
    if (!contains(x, ub[x])) st |= settle_max(x);
    return st;
  }

 private:
  KOKKOS_INLINE_FUNCTION DomainWord word(int x, int w) const { return bits[bits_at[x] + w]; }
  /// Word w of x's bitset with the bits outside [l, u] cleared.
  KOKKOS_INLINE_FUNCTION DomainWord masked_word(int x, int w, std::int64_t l, std::int64_t u) const {
    const std::int64_t base = word_base(x, w);
    DomainWord m = word(x, w);
    if (l > base) m &= bits_from(static_cast<int>(l - base));
    if (u < base + 63) m &= bits_upto(static_cast<int>(u - base));
    return m;
  }

  /// lb(x) onto the least value left (x has a bitset; lb was just changed or its value removed).
  KOKKOS_FUNCTION KCP_OUT_OF_LINE int settle_min(int x) const {
    int st = prop_unchanged;
    for (;;) {
      const std::int64_t l = lb[x];
      if (l > ub[x]) return st | prop_failed;
      const std::int64_t v = next_value(x, l);
      if (v == l) return st;
      // v may be ub + 1: the domain is empty, and lb > ub says so.
      const std::int32_t nv = static_cast<std::int32_t>(v);
      if constexpr (Concurrent) {
        Kokkos::atomic_fetch_max(&lb[x], nv);
      } else {
        lb[x] = nv;
      }
      touch(x);
      st |= prop_changed;
    }
  }
  KOKKOS_FUNCTION KCP_OUT_OF_LINE int settle_max(int x) const {
    int st = prop_unchanged;
    for (;;) {
      const std::int64_t u = ub[x];
      if (u < lb[x]) return st | prop_failed;
      const std::int64_t v = prev_value(x, u);
      if (v == u) return st;
      const std::int32_t nv = static_cast<std::int32_t>(v);
      if constexpr (Concurrent) {
        Kokkos::atomic_fetch_min(&ub[x], nv);
      } else {
        ub[x] = nv;
      }
      touch(x);
      st |= prop_changed;
    }
  }
};

}  // namespace kcp
