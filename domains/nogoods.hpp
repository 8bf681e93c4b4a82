// The nogood family: clauses learned during search (search/learning.hpp), propagated by every team.
//
// A literal is x = v, x != v, x <= v or x >= v over the store (x != v removes a value from a bitset
// where x has one; on a bounds-only variable it is true only once v is out of the bounds). A nogood
// is a set of literals that may not all hold at once. Propagation: when every literal but one is
// true, the last is made false (its negation is narrowed into the store); when every one is true,
// the node fails. A nogood with a literal already false is satisfied and does nothing.
//
// The pool the propagators read is one per search state, rebuilt by the host between launches and
// constant during one, so that every team reads it without synchronisation: the nogoods' literals in
// compressed rows (begin, lits) and, per variable, the literals on it (watch_begin, watch: the index
// of the literal in lits, and the nogood's id in watch_nogood), through which the event-driven
// fixpoint wakes them as it wakes the program's propagators. A nogood is propagated on one lane (its
// literals are few and checking one is a few loads). A change of x wakes a nogood only where one of
// its literals on x is true after it (or, see woken(), an open x = v has v at a bound): a nogood can
// become unit or fail only when one of its literals becomes true (truth is monotone as domains
// narrow), so no propagation is missed, and the many changes that make a literal false or leave it
// open wake nothing (Learning.QueueFixpointWakesWhatTheSerialFixpointRuns found the exception). (No watched-literal state per
// team: thousands of teams share one pool, and two watches per nogood and team would not fit next to
// their stores.)
// Nogood k of the pool is propagator program.num_propagators() + k in the fixpoints' queue.
//
// How often each nogood narrowed or failed is counted (atomically, per nogood: `activity`), for the
// host's deletion policy and the statistics.
#pragma once

#include "domains/store.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kcp {

enum LiteralOp : std::int32_t { lit_eq = 0, lit_ne = 1, lit_le = 2, lit_ge = 3 };

/// One literal: the variable and the operation in one word (var * 4 + op), and the value.
struct Literal {
  std::int32_t var_op;
  std::int32_t value;
  KOKKOS_INLINE_FUNCTION int var() const { return var_op >> 2; }
  KOKKOS_INLINE_FUNCTION int op() const { return var_op & 3; }
  KOKKOS_INLINE_FUNCTION static Literal make(int x, int op, std::int32_t v) { return Literal{x * 4 + op, v}; }
  KOKKOS_INLINE_FUNCTION bool operator==(const Literal& o) const { return var_op == o.var_op && value == o.value; }
};

/// 1: the literal holds in every value of the store; -1: in none; 0: not decided.
template <class Store>
KOKKOS_INLINE_FUNCTION int literal_state(const Store& s, const Literal& l) {
  const int x = l.var();
  const std::int64_t v = l.value, lo = s.min(x), hi = s.max(x);
  switch (l.op()) {
    case lit_eq:
      if (lo == v && hi == v) return 1;
      return s.contains(x, v) ? 0 : -1;
    case lit_ne:
      if (lo == v && hi == v) return -1;
      return s.contains(x, v) ? 0 : 1;
    case lit_le:
      return hi <= v ? 1 : lo > v ? -1 : 0;
    default:  // lit_ge
      return lo >= v ? 1 : hi < v ? -1 : 0;
  }
}

/// Narrows the store so that the literal is false.
template <class Store>
KOKKOS_INLINE_FUNCTION int falsify(const Store& s, const Literal& l) {
  const int x = l.var();
  const std::int64_t v = l.value;
  switch (l.op()) {
    case lit_eq: return s.remove(x, v);
    case lit_ne: return s.narrow_to(x, v, v);
    case lit_le: return s.narrow_min(x, v + 1);
    default: return s.narrow_max(x, v - 1);  // lit_ge
  }
}

/// The pool as the propagators read it (Views into the search state's buffers; `count` nogoods).
template <class MemorySpace>
struct NogoodPool {
  Kokkos::View<const std::int32_t*, MemorySpace> begin;        ///< [count + 1]: nogood k's literals are lits[begin(k), begin(k + 1))
  Kokkos::View<const Literal*, MemorySpace> lits;
  Kokkos::View<const std::int32_t*, MemorySpace> watch_begin;  ///< [variables + 1]
  Kokkos::View<const std::int32_t*, MemorySpace> watch;        ///< per variable, its literals' indexes in lits
  Kokkos::View<const std::int32_t*, MemorySpace> watch_nogood; ///< the nogood of each of those literals
  Kokkos::View<std::int32_t*, MemorySpace> activity;           ///< [2 * capacity]: narrowings, failures
  int count = 0;
  int capacity = 0;       ///< nogoods the buffers hold at most (the fixpoint's queue is sized for them)
  /// Changes when nogoods are deleted (ids change); between two changes the pool only grows, so a
  /// store that was a fixpoint of its first k nogoods needs only the nogoods from k on.
  int epoch = 0;

  KOKKOS_INLINE_FUNCTION int size() const { return count; }
  /// A store's mark: the pool's epoch and how many of its nogoods the store is a fixpoint of.
  KOKKOS_INLINE_FUNCTION std::int64_t mark(int applied) const { return (std::int64_t(epoch) << 32) | applied; }
  /// How many of the pool's nogoods a store with that mark is a fixpoint of.
  KOKKOS_INLINE_FUNCTION int applied(std::int64_t mark) const {
    const int n = static_cast<int>(mark & 0x7fffffff);
    return (mark >> 32) == epoch ? (n < count ? n : count) : 0;
  }
  /// x's watch entries; only with count > 0 (before the first upload the Views hold nothing).
  KOKKOS_INLINE_FUNCTION int watch_first(int x) const { return watch_begin(x); }
  KOKKOS_INLINE_FUNCTION int watch_end(int x) const { return watch_begin(x + 1); }
  /// The nogood watch entry j wakes after a change of its variable on the store s: its id, or -1.
  /// It wakes when its literal is true; and when the literal is x = v, still open, with v now at a
  /// bound of x: a unit nogood whose last literal is x = v could not remove an inner v from a
  /// bounds-only x, and can now (the one case where the same nogood narrows more after a change of
  /// the variable its open literal is on).
  template <class Store>
  KOKKOS_INLINE_FUNCTION int woken(int j, const Store& s) const {
    const Literal l = lits(watch(j));
    const int st = literal_state(s, l);
    const bool wake = st > 0 || (st == 0 && l.op() == lit_eq && (s.min(l.var()) == l.value || s.max(l.var()) == l.value));
    return wake ? watch_nogood(j) : -1;
  }

  /// Per-team watches (`watches`, null: none): two literals of each nogood, watches[2k] and watches[2k + 1]
  /// offsets from begin(k), -1: unset (every literal wakes the nogood, as without watches). Set, both are
  /// non-true in the team's store: a nogood can fire only after one of them becomes true, so only they
  /// wake it, and a check of the two is enough while neither is true. The store only narrows between
  /// two runs of the nogood or goes back to an ancestor's (a restore from a copy or the root, the replayed
  /// decisions being events), where a non-true literal stays non-true; watches are valid for one epoch
  /// (the team unsets them when the pool's epoch changes). When fewer than two literals are non-true (the
  /// nogood is satisfied by its one false literal, unit, or failed) they are unset: without a trail the
  /// literal that would have to be watched is not known.
  template <class Store>
  KOKKOS_INLINE_FUNCTION int woken(int j, const Store& s, const std::int32_t* watches) const {
    const int k = woken(j, s);  // the literal's state first: most are not true, and cost no more loads
    if (k < 0 || watches == nullptr || watches[2 * k] < 0) return k;
    const std::int32_t at = watch(j) - begin(k);
    return at == watches[2 * k] || at == watches[2 * k + 1] ? k : -1;
  }
  template <class Store>
  KOKKOS_INLINE_FUNCTION int propagate(int k, const Store& s, std::int32_t* watches) const {
    if (watches == nullptr) return propagate(k, s);
    const int first = begin(k), end = begin(k + 1);
    std::int32_t* w = watches + 2 * k;
    if (w[0] >= 0 && literal_state(s, lits(first + w[0])) <= 0 && literal_state(s, lits(first + w[1])) <= 0)
      return prop_unchanged;  // two non-true literals
    int a = -1, b = -1;  // the first two non-true literals
    bool satisfied = false;
    for (int j = first; j < end && b < 0; ++j) {
      const int st = literal_state(s, lits(j));
      if (st > 0) continue;
      satisfied = satisfied || st < 0;
      if (a < 0) {
        a = j;
      } else {
        b = j;
      }
    }
    if (b >= 0) {
      w[0] = a - first;
      w[1] = b - first;
      return prop_unchanged;
    }
    w[0] = -1;
    w[1] = -1;
    if (satisfied) return prop_unchanged;
    return propagate(k, s);
  }

  /// Propagates nogood k once (see above).
  template <class Store>
  KOKKOS_INLINE_FUNCTION int propagate(int k, const Store& s) const {
    const int end = begin(k + 1);
    int open = -1;
    for (int j = begin(k); j < end; ++j) {
      const int st = literal_state(s, lits(j));
      if (st < 0) return prop_unchanged;
      if (st == 0) {
        if (open >= 0) return prop_unchanged;  // two undecided literals: nothing to do yet
        open = j;
      }
    }
    if (open < 0) {
      Kokkos::atomic_add(&activity(2 * k + 1), std::int32_t(1));
      return prop_failed;
    }
    const int st = falsify(s, lits(open));
    if (st != prop_unchanged) Kokkos::atomic_add(&activity(2 * k + (st & prop_failed ? 1 : 0)), std::int32_t(1));
    return st;
  }
};

}  // namespace kcp
