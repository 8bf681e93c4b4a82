// The variable store: per-variable 32-bit lower and upper bounds that only ever narrow.
// A StoreRef points at bounds wherever they live (team scratch, global memory, host vectors).
// With Concurrent = true, narrowing is an atomic max/min so that several threads of a team may narrow
// the same variable at once; with false (one thread per store: Serial, OpenMP teams of one, host
// tests) plain loads and stores do.
#pragma once

#include "domains/arithmetic.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kcp {

/// What a propagator or a narrowing did: bit flags, combined with |.
enum PropStatus : int { prop_unchanged = 0, prop_changed = 1, prop_failed = 2 };

template <bool Concurrent>
struct StoreRef {
  std::int32_t* lb = nullptr;
  std::int32_t* ub = nullptr;
  int size = 0;  ///< number of variables
  // Optional change tracking for the event-driven fixpoint (queue_fixpoint): when touched_flag is set,
  // a narrowing that changes x appends x to touched_list (once, while touched_flag[x] is 1).
  std::int32_t* touched_flag = nullptr;
  std::int32_t* touched_list = nullptr;
  int* touched_count = nullptr;

  KOKKOS_INLINE_FUNCTION void touch(int x) const {
    if (touched_flag == nullptr) return;
    if constexpr (Concurrent) {
      if (Kokkos::atomic_exchange(&touched_flag[x], 1) == 0)
        touched_list[Kokkos::atomic_fetch_add(touched_count, 1)] = x;
    } else {
      if (touched_flag[x] == 0) {
        touched_flag[x] = 1;
        touched_list[(*touched_count)++] = x;
      }
    }
  }

  // Reads may race with another thread's narrowing of the same bound. An int32 load is never torn,
  // and a stale bound is a weaker (older) one, so a propagator reading it prunes less, never wrongly;
  // the writer flags the change and the fixpoint runs another iteration.
  KOKKOS_INLINE_FUNCTION std::int32_t min(int x) const { return lb[x]; }
  KOKKOS_INLINE_FUNCTION std::int32_t max(int x) const { return ub[x]; }
  KOKKOS_INLINE_FUNCTION bool fixed(int x) const { return lb[x] == ub[x]; }

  /// x >= v. Values are clamped into the store's range first, so a wide bound never wraps.
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
    return v > ub[x] ? (prop_changed | prop_failed) : prop_changed;
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
    return v < lb[x] ? (prop_changed | prop_failed) : prop_changed;
  }

  /// lo <= x <= hi.
  KOKKOS_INLINE_FUNCTION int narrow_to(int x, std::int64_t lo, std::int64_t hi) const {
    const int st = narrow_min(x, lo);
    if (st & prop_failed) return st;
    return st | narrow_max(x, hi);
  }
};

}  // namespace kcp
