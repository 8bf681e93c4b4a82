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

/// Narrows task i's start by the profile of the other tasks' compulsory parts (see above).
template <class G, class Store>
KOKKOS_INLINE_FUNCTION int cumulative_task(const CumulativeRef<G>& t, int i, const Store& s) {
  const int x = t.start(i);
  const std::int64_t d = t.duration(i), r = t.use(i), cap = t.capacity();
  if (r > cap) return prop_failed;
  // Task j's compulsory part [latest(j), earliest_end(j)) (its latest start, its earliest end), and
  // whether it is another task's and covers time `at`.
  auto latest = [&](int j) -> std::int64_t { return s.max(t.start(j)); };
  auto earliest_end = [&](int j) -> std::int64_t { return std::int64_t(s.min(t.start(j))) + t.duration(j); };
  auto covers = [&](int j, std::int64_t at) { return j != i && latest(j) <= at && at < earliest_end(j); };
  // Quick exit: the other compulsory parts together leave room for this task anywhere.
  std::int64_t parts = 0;
  for (int j = 0; j < t.n; ++j)
    if (j != i && latest(j) < earliest_end(j)) parts += t.use(j);
  if (parts + r <= cap) return prop_unchanged;
  // The others' use at time `at` (compulsory parts only).
  auto height = [&](std::int64_t at) {
    std::int64_t h = 0;
    for (int j = 0; j < t.n; ++j)
      if (covers(j, at)) h += t.use(j);
    return h;
  };
  // An overloaded time in [from, from + d): heights change only where a compulsory part starts, so
  // the window's first time and the part starts inside it are the only candidates. INT64_MIN: none.
  auto overloaded = [&](std::int64_t from) -> std::int64_t {
    if (height(from) + r > cap) return from;
    for (int j = 0; j < t.n; ++j) {
      const std::int64_t part = latest(j);
      if (j != i && part > from && part < from + d && part < earliest_end(j) && height(part) + r > cap) return part;
    }
    return INT64_MIN;
  };
  int st = prop_unchanged;
  // Earliest start: an overloaded time `at` stays overloaded until the first covering part ends, so
  // every start up to that end overlaps it.
  std::int64_t est = s.min(x);
  const std::int64_t lst0 = s.max(x);
  for (std::int64_t at = overloaded(est); at != INT64_MIN && est <= lst0; at = overloaded(est)) {
    std::int64_t end = INT64_MAX;
    for (int j = 0; j < t.n; ++j)
      if (covers(j, at)) end = min64(end, earliest_end(j));
    if (end == INT64_MAX) break;  // the covering parts shrank meanwhile (another thread): stop here
    est = end;
  }
  if (est > s.min(x)) st |= s.narrow_min(x, est);
  if (st & prop_failed) return st;
  // Latest start: an overloaded time stays overloaded back to the latest covering part's start, so
  // every start whose window reaches it is out.
  std::int64_t lst = s.max(x);
  const std::int64_t est0 = s.min(x);
  for (std::int64_t at = overloaded(lst); at != INT64_MIN && lst >= est0; at = overloaded(lst)) {
    std::int64_t begin = INT64_MIN;
    for (int j = 0; j < t.n; ++j)
      if (covers(j, at)) begin = max64(begin, latest(j));
    if (begin == INT64_MIN) break;
    lst = begin - d;
  }
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
