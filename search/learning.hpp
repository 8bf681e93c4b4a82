// Learning from failure, stage 1: nogoods without explanations (issue 23).
//
// Where nogoods come from (each sound on its own; tests/search/test_learning.cpp checks every one
// learned against the model by brute force):
// - restarts: when a free run (search/modes.hpp) ends, its branch leaves the reduced nld-nogoods of
//   Lecoutre, Sais, Tabary and Vidal (2007): for every decision whose first branch was refuted (its
//   second branch is in hand, or it is the deepest open one: the failure that spent the run refuted
//   it), the first branches of the decisions above it that are still on their first branch, with its
//   own first branch. A decision's first branch is one literal (x = v, x != v, x <= v, x >= v + 1:
//   search/branching.hpp). Sound under the objective bound the row had when the run ended: every node
//   of the refuted subtree was searched under that bound or a weaker one, and a split that replaced
//   an exhausted one (parallel_search.hpp) only widens a refuted interval on its own side.
// - a run searched to the end: a neighbourhood's fixings (LNS) together are a nogood; a restart from
//   the root searched to the end (with the nogoods and the bound it had) proves that no better
//   solution exists: the empty nogood, which ends the search as complete.
// Valid under the bound they were learned with, they stay valid: the bound only tightens. Complete
// rows apply them where they apply the bound (below their subproblem's path: above it every team must
// see the same tree), free rows everywhere.
//
// The log: a team appends what it learned to one buffer per search state (an atomic counter reserves
// the room; what does not fit is counted and dropped), [length, bound high word, bound low word,
// length x (var_op, value)]. The host reads it between launches, minimises and deduplicates the
// nogoods into the NogoodStore, deletes the least active when the pool is full, and uploads the pool
// (domains/nogoods.hpp) to every searcher: a team sees a new nogood at its next launch.
#pragma once

#include "domains/nogoods.hpp"
#include "domains/program.hpp"
#include "search/search_state.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <unordered_set>
#include <vector>

namespace kcp {

/// What kcp learns (SearchOptions::learn): nothing, the free runs from the root's nogoods, every
/// free run's, or (explain) the restarts' and, on one more host thread, the clauses of conflict
/// analysis with explanations (search/explain.hpp).
enum class LearnMode : std::int8_t { none = 0, restart, all, explain };

/// The literal of a decision's first branch (search/branching.hpp: a split's left half [lo, v], the
/// value v; reversed, the other way round).
KOKKOS_INLINE_FUNCTION Literal first_branch(const Decision& d) {
  if (d.kind == decide_value) return Literal::make(d.var, d.reversed ? lit_ne : lit_eq, d.v);
  return d.reversed ? Literal::make(d.var, lit_ge, d.v + 1) : Literal::make(d.var, lit_le, d.v);
}

/// Appends one nogood to the log: the first branches of the decisions d(i) for i in [0, end) with
/// take(i), then `last` when given. Returns false when it did not fit (counted).
template <class MemorySpace, class Decisions, class Take>
KOKKOS_INLINE_FUNCTION bool log_nogood(const SearchState<MemorySpace>& state, const Decisions& d, int end,
                                       const Take& take, const Literal* last, int length, std::int64_t bound) {
  const std::int64_t ints = 3 + 2 * std::int64_t(length);
  const std::int64_t at = Kokkos::atomic_fetch_add(&state.control(ctl_learned_ints), ints);
  if (at + ints > std::int64_t(state.learned.extent(0))) {
    Kokkos::atomic_add(&state.control(ctl_learned_dropped), std::int64_t(1));
    return false;
  }
  std::int32_t* out = &state.learned(at);
  out[0] = length;
  out[1] = static_cast<std::int32_t>(bound >> 32);
  out[2] = static_cast<std::int32_t>(bound & 0xffffffff);
  int k = 3;
  for (int i = 0; i < end; ++i) {
    if (!take(i)) continue;
    const Literal l = first_branch(d(i));
    out[k++] = l.var_op;
    out[k++] = l.value;
  }
  if (last != nullptr) {
    out[k++] = last->var_op;
    out[k++] = last->value;
  }
  return true;
}

/// The reduced nld-nogoods of a free run's branch d(0 .. depth - 1) (see above): `open` is the depth
/// of the deepest decision still on its first branch whose first branch is refuted (depth - 1 after
/// the failure that ended the run, once the exhausted second branches below are popped), -1: none.
/// At most max_length literals each (longer ones are counted as dropped).
template <class MemorySpace, class Decisions>
KOKKOS_INLINE_FUNCTION void log_restart_nogoods(const SearchState<MemorySpace>& state, const Decisions& d, int depth,
                                                int open, int max_length, std::int64_t bound) {
  int positives = 0;
  for (int i = 0; i < depth; ++i) {
    const bool second = d(i).right != 0;
    if (second || i == open) {
      if (positives + 1 > max_length) {
        Kokkos::atomic_add(&state.control(ctl_learned_dropped), std::int64_t(1));
      } else {
        const Literal l = first_branch(d(i));
        log_nogood(state, d, i, [&](int j) { return d(j).right == 0; }, &l, positives + 1, bound);
      }
    }
    if (!second) ++positives;
  }
}

/// A run's fixings searched to the end: not all of them at once (prefix 0: the empty nogood).
template <class MemorySpace, class Decisions>
KOKKOS_INLINE_FUNCTION void log_exhausted(const SearchState<MemorySpace>& state, const Decisions& d, int prefix,
                                          int max_length, std::int64_t bound) {
  if (prefix > max_length) {
    Kokkos::atomic_add(&state.control(ctl_learned_dropped), std::int64_t(1));
    return;
  }
  log_nogood(state, d, prefix, [](int) { return true; }, nullptr, prefix, bound);
}

/// Appends one nogood to a log on the host (the explaining search's, tests'), in the format above.
inline void append_to_log(std::vector<std::int32_t>& log, const std::vector<Literal>& lits, std::int64_t bound) {
  log.push_back(static_cast<std::int32_t>(lits.size()));
  log.push_back(static_cast<std::int32_t>(bound >> 32));
  log.push_back(static_cast<std::int32_t>(bound & 0xffffffff));
  for (const Literal& l : lits) {
    log.push_back(l.var_op);
    log.push_back(l.value);
  }
}

/// Calls f(literals, bound) for each nogood of a log of `ints` ints, in order; stops at an entry that
/// did not fit (and so at everything after it).
template <class F>
void for_each_in_log(const std::int32_t* data, std::int64_t ints, const F& f) {
  std::vector<Literal> lits;
  for (std::int64_t at = 0; at + 3 <= ints;) {
    const int length = data[at];
    const std::int64_t end = at + 3 + 2 * std::int64_t(length);
    if (length < 0 || end > ints) return;
    const std::int64_t bound = (std::int64_t(data[at + 1]) << 32) | std::int64_t(std::uint32_t(data[at + 2]));
    lits.clear();
    for (std::int64_t k = at + 3; k < end; k += 2) lits.push_back(Literal{data[k], data[k + 1]});
    at = end;
    f(lits, bound);
  }
}

/// A hash of a nogood's literals in their order (FNV-1a), to recognise one held already.
inline std::uint64_t nogood_hash(const std::vector<Literal>& lits) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const Literal& l : lits) {
    h = (h ^ std::uint32_t(l.var_op)) * 1099511628211ULL;
    h = (h ^ std::uint32_t(l.value)) * 1099511628211ULL;
  }
  return h;
}

/// One nogood as the host keeps it.
struct HostNogood {
  std::vector<Literal> lits;
  std::int64_t bound = INT64_MAX;  ///< the objective bound it was learned under (valid below it)
  std::int64_t activity = 0;       ///< narrowings and failures it caused
  std::int64_t born = 0;           ///< the round it was added in
};

/// The host's pool of nogoods: absorbs the searchers' logs, keeps at most `capacity` nogoods, and
/// lays them out for upload.
class NogoodStore {
 public:
  NogoodStore() = default;
  /// `program`: the root domains (a literal true in them is dropped, a nogood with one false in them
  /// never fires and is not kept).
  NogoodStore(const Program& program, int capacity, int max_length)
      : lb_(program.lb), ub_(program.ub), capacity_(capacity), max_length_(max_length) {}

  /// Called with each nogood kept (tests check them against the model).
  std::function<void(const HostNogood&)> on_learned;

  /// Reads a log of `ints` ints. Nogoods are appended (the pool's ids of the nogoods already kept do not change).
  void absorb(const std::int32_t* data, std::int64_t ints);
  /// Adds activity counted on a searcher whose pool held the first `count` nogoods (2 per nogood).
  void add_activity(const std::int32_t* activity, int count);
  /// Deletes the least active half when over capacity (the nogoods of the current round stay), and
  /// starts the next round.
  void end_round();

  int size() const { return static_cast<int>(kept_.size()); }
  int capacity() const { return capacity_; }
  const std::vector<HostNogood>& nogoods() const { return kept_; }
  /// Changes whenever the pool does.
  int generation() const { return generation_; }
  /// Changes when nogoods are deleted (NogoodPool::epoch).
  int epoch() const { return epoch_; }
  /// The empty nogood was learned: no solution better than its bound exists.
  bool proved() const { return proved_; }
  std::int64_t proof_bound() const { return proof_bound_; }

  std::int64_t learned = 0;            ///< nogoods kept, over the search
  std::int64_t dropped = 0;            ///< learned but not kept: too long, duplicates, never firing
  std::int64_t deleted = 0;            ///< kept, then deleted to make room
  std::int64_t propagations = 0, failures = 0;  ///< narrowings and failures nogoods caused

  /// The pool in compressed rows over n variables (domains/nogoods.hpp's NogoodPool).
  void layout(int n, std::vector<std::int32_t>& begin, std::vector<Literal>& lits, std::vector<std::int32_t>& watch_begin,
              std::vector<std::int32_t>& watch, std::vector<std::int32_t>& watch_nogood) const;

 private:
  /// Sorts, merges and simplifies the literals; false when the nogood can never fire.
  bool minimise(std::vector<Literal>& lits) const;
  std::vector<std::int32_t> lb_, ub_;
  int capacity_ = 0, max_length_ = 0;
  std::vector<HostNogood> kept_;
  std::unordered_set<std::uint64_t> seen_;
  std::int64_t round_ = 0;
  int generation_ = 0, epoch_ = 0;
  bool proved_ = false;
  std::int64_t proof_bound_ = INT64_MAX;
};

}  // namespace kcp
