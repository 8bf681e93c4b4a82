// Global family: cumulative(s, d, r, C) with constant durations d, uses r and capacity C: at every
// time t, the uses of the tasks running at t (s_i <= t < s_i + d_i) add up to at most C. Tasks with
// d_i <= 0 or r_i <= 0 constrain nothing and are dropped by compile; disjunctive is the case
// r_i = 1, C = 1.
//
// Checklist: time-table filtering (the profile of compulsory parts, Beldiceanu and Carlsson 2002;
// the "timetable" of Schutt et al.'s Chuffed propagator): task j's compulsory part is
// [lst_j, ect_j) = [max s_j, min s_j + d_j) when that is not empty. Task i's earliest start moves to
// the least start s >= min s_i whose window [s, s + d_i) has no time t where the other tasks'
// compulsory parts use more than C - r_i; its latest start likewise downward. Fails when no start
// is left, which includes every overload of the profile (the tasks of an overloaded time cannot all
// start where their compulsory parts lie). Bounds only: a start with a bitset loses no inside value.
// Not idempotent (a start that moves grows its compulsory part): the fixpoint reruns it. Monotone:
// smaller domains give larger compulsory parts and larger starts, so every order of the fixpoint
// reaches the same result. Never overflows: times are 32-bit values plus 32-bit durations, uses sum
// in 64 bits (compile keeps C and each r_i below 2^31, so n tasks sum below 2^62).
// Cost: each sweep step looks at O(n) candidate times, each O(n); a task's earliest start jumps at
// most once per other task's compulsory part, so O(n^3) per lane in the worst case, and O(n) when
// no other task has a compulsory part (checked first).
// Lanes: one task per lane (ThreadVectorRange over the tasks, one cumulative per vector group); a
// lane narrows only its own task's start, and the lanes' statuses are or-reduced, so every lane
// reaches the reduction whatever it found.
#pragma once

#include "domains/arithmetic.hpp"
#include "domains/lanes.hpp"
#include "domains/store.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kcp {

/// Parameters of cumulative c in a GlobalView: the capacity, then the durations, then the uses.
template <class G>
struct CumulativeRef {
  const G& g;
  int c, n;
  KOKKOS_INLINE_FUNCTION int start(int i) const { return g.var(c, i); }
  KOKKOS_INLINE_FUNCTION std::int64_t capacity() const { return g.par(c, 0); }
  KOKKOS_INLINE_FUNCTION std::int64_t duration(int i) const { return g.par(c, 1 + i); }
  KOKKOS_INLINE_FUNCTION std::int64_t use(int i) const { return g.par(c, 1 + n + i); }
};

/// Task i's view of the others' compulsory parts: task j's part is [latest(j), earliest_end(j)) (its
/// latest start, its earliest end), when not empty.
template <class G, class Store>
struct CumulativeProfile {
  const CumulativeRef<G>& t;
  int i;
  const Store& s;
  std::int64_t d, r, cap;

  KOKKOS_INLINE_FUNCTION CumulativeProfile(const CumulativeRef<G>& t_, int i_, const Store& s_)
      : t(t_), i(i_), s(s_), d(t_.duration(i_)), r(t_.use(i_)), cap(t_.capacity()) {}
  KOKKOS_INLINE_FUNCTION std::int64_t latest(int j) const { return s.max(t.start(j)); }
  KOKKOS_INLINE_FUNCTION std::int64_t earliest_end(int j) const {
    return std::int64_t(s.min(t.start(j))) + t.duration(j);
  }
  /// Whether j is another task whose part covers time `at`.
  KOKKOS_INLINE_FUNCTION bool covers(int j, std::int64_t at) const {
    return j != i && latest(j) <= at && at < earliest_end(j);
  }
  /// Whether the other parts together leave room for task i anywhere.
  KOKKOS_INLINE_FUNCTION bool roomy() const {
    std::int64_t parts = 0;
    for (int j = 0; j < t.n; ++j)
      if (j != i && latest(j) < earliest_end(j)) parts += t.use(j);
    return parts + r <= cap;
  }
  /// The others' use at time `at` (compulsory parts only).
  KOKKOS_INLINE_FUNCTION std::int64_t height(std::int64_t at) const {
    std::int64_t h = 0;
    for (int j = 0; j < t.n; ++j)
      if (covers(j, at)) h += t.use(j);
    return h;
  }
  /// An overloaded time in [from, from + d): heights change only where a compulsory part starts, so
  /// the window's first time and the part starts inside it are the only candidates. INT64_MIN: none.
  KOKKOS_INLINE_FUNCTION std::int64_t overloaded(std::int64_t from) const {
    if (height(from) + r > cap) return from;
    for (int j = 0; j < t.n; ++j) {
      const std::int64_t part = latest(j);
      if (j != i && part > from && part < from + d && part < earliest_end(j) && height(part) + r > cap) return part;
    }
    return INT64_MIN;
  }
  /// Earliest start: an overloaded time `at` stays overloaded until the first covering part ends, so
  /// every start up to that end overlaps it. From `est` while it is below `until` (and at most lst):
  /// the start reached; each covering task goes to `seen(j)`.
  template <class Seen>
  KOKKOS_INLINE_FUNCTION std::int64_t sweep_up(std::int64_t est, std::int64_t lst, std::int64_t until,
                                               const Seen& seen) const {
    for (std::int64_t at = overloaded(est); at != INT64_MIN && est <= lst && est < until; at = overloaded(est)) {
      std::int64_t end = INT64_MAX;
      for (int j = 0; j < t.n; ++j)
        if (covers(j, at)) end = min64(end, earliest_end(j)), seen(j);
      if (end == INT64_MAX) break;  // the covering parts shrank meanwhile (another thread): stop here
      est = end;
    }
    return est;
  }
  /// Latest start: an overloaded time stays overloaded back to the latest covering part's start, so
  /// every start whose window reaches it is out. From `lst` while above `until` (and at least est).
  template <class Seen>
  KOKKOS_INLINE_FUNCTION std::int64_t sweep_down(std::int64_t lst, std::int64_t est, std::int64_t until,
                                                 const Seen& seen) const {
    for (std::int64_t at = overloaded(lst); at != INT64_MIN && lst >= est && lst > until; at = overloaded(lst)) {
      std::int64_t begin = INT64_MIN;
      for (int j = 0; j < t.n; ++j)
        if (covers(j, at)) begin = max64(begin, latest(j)), seen(j);
      if (begin == INT64_MIN) break;
      lst = begin - d;
    }
    return lst;
  }
};

/// cumulative_task's default: the tasks its sweeps meet go nowhere.
struct NoTasksSeen {
  KOKKOS_INLINE_FUNCTION void operator()(int) const {}
};

/// Narrows task i's start by the profile of the other tasks' compulsory parts (see above). Each task
/// whose part covers an overloaded time a sweep stops at goes to `seen(j)`: the explaining search
/// (search/explain.cpp's cumulative_keep) replays a run with a recorder to find a change's reasons.
template <class G, class Store, class Seen = NoTasksSeen>
KOKKOS_INLINE_FUNCTION int cumulative_task(const CumulativeRef<G>& t, int i, const Store& s, const Seen& seen = Seen{}) {
  const int x = t.start(i);
  const CumulativeProfile<G, Store> p(t, i, s);
  if (p.r > p.cap) return prop_failed;
  if (p.roomy()) return prop_unchanged;
  int st = prop_unchanged;
  const std::int64_t est = p.sweep_up(s.min(x), s.max(x), INT64_MAX, seen);
  if (est > s.min(x)) st |= s.narrow_min(x, est);
  if (st & prop_failed) return st;
  const std::int64_t lst = p.sweep_down(s.max(x), s.min(x), INT64_MIN, seen);
  if (lst < s.max(x)) st |= s.narrow_max(x, lst);
  return st;
}

/// Propagates cumulative c of the view g once. Lanes: SerialLanes or VectorLanes (a task per lane).
template <class Lanes, class G, class Store>
KOKKOS_INLINE_FUNCTION int propagate_cumulative(const Lanes& lanes, const G& g, int c, const Store& s) {
  const CumulativeRef<G> t{g, c, g.arity(c)};
  return lanes.bit_or(t.n, [&](int i) { return cumulative_task(t, i, s); });
}

}  // namespace kcp
