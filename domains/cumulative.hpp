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
// start where their compulsory parts lie). Then, where every task has 2 r_j > C (no two of them run
// at once: a disjunctive) and they are 2 to edge_finding_max_tasks, edge finding and overload
// checking over their task intervals (cumulative_edges_from below; Vilim 2004's rules, Caseau and
// Laburthe's task intervals): stronger than the time-table on a machine of a job shop, where
// compulsory parts are rare. Bounds only: a start with a bitset loses no inside value.
// Not idempotent (a start that moves grows its compulsory part): the fixpoint reruns it. Monotone:
// smaller domains give larger compulsory parts and larger starts, so every order of the fixpoint
// reaches the same result. Never overflows: times are 32-bit values plus 32-bit durations, uses sum
// in 64 bits (compile keeps C and each r_i below 2^31, so n tasks sum below 2^62).
// Edge finding is monotone too (a task interval's tasks stay inside it as domains shrink, so its
// conditions and bounds only grow).
// Cost: each sweep step looks at O(n) candidate times, each O(n); a task's earliest start jumps at
// most once per other task's compulsory part, so O(n^3) per lane in the worst case, and O(n) when
// no other task has a compulsory part (checked first). Edge finding: O(k^2) task intervals of the k
// disjunctive tasks, each summed and applied in O(n): O(k n) per lane, O(k^2 n) a run.
// Lanes, edge finding: one task interval's start per lane, which narrows any disjunctive task's start.
// Lanes: one task per lane (ThreadVectorRange over the tasks, one cumulative per vector group); a
// lane narrows only its own task's start, and the lanes' statuses are or-reduced, so every lane
// reaches the reduction whatever it found.
#pragma once

#include "domains/arithmetic.hpp"
#include "domains/family.hpp"
#include "domains/lanes.hpp"
#include "domains/store.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace kcp {

/// Parameters of cumulative c in a FamilyView: the capacity, then the durations, then the uses. Where c's
/// variables and parameters begin is read once (vb, pb): the edge-finding loops read starts and
/// durations O(n^2) times a lane.
template <class G>
struct CumulativeRef {
  const G& g;
  int c, n;
  int vb = g.var_begin(c), pb = g.par_begin(c);
  KOKKOS_INLINE_FUNCTION int start(int i) const { return g.vars(vb + i); }
  KOKKOS_INLINE_FUNCTION std::int64_t capacity() const { return g.pars(pb); }
  KOKKOS_INLINE_FUNCTION std::int64_t duration(int i) const { return g.pars(pb + 1 + i); }
  KOKKOS_INLINE_FUNCTION std::int64_t use(int i) const { return g.pars(pb + 1 + n + i); }
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
      seen.step(true, at, end);
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
      seen.step(false, at, begin - d);
      lst = begin - d;
    }
    return lst;
  }
};

/// cumulative_task's default: the tasks its sweeps meet go nowhere. A recorder (the explaining search's
/// replay, Cumulative::reasons) gets each task a sweep step meets, then the step: step(up, at, to), the
/// overloaded time `at` the step's tasks cover and the start bound it gives (up: i's est; down: i's lst).
struct NoTasksSeen {
  KOKKOS_INLINE_FUNCTION void operator()(int) const {}
  KOKKOS_INLINE_FUNCTION void step(bool, std::int64_t, std::int64_t) const {}
};

/// Edge finding runs on a cumulative whose tasks are all disjunctive (2 r_j > C: no two of them run at
/// once) when they are at least two and at most this many.
constexpr int edge_finding_max_tasks = 64;

/// Whether tasks of this use on this capacity are disjunctive: no two of them run at once (2 r > C).
KOKKOS_INLINE_FUNCTION constexpr bool disjunctive_use(std::int64_t use, std::int64_t capacity) { return 2 * use > capacity; }

/// The disjunctive tasks' view for edge finding: est, lct and duration of task j.
template <class G, class Store>
struct DisjunctiveTasks {
  const CumulativeRef<G>& t;
  const Store& s;
  KOKKOS_INLINE_FUNCTION bool in(int j) const { return disjunctive_use(t.use(j), t.capacity()); }
  KOKKOS_INLINE_FUNCTION std::int64_t est(int j) const { return s.min(t.start(j)); }
  KOKKOS_INLINE_FUNCTION std::int64_t lct(int j) const { return std::int64_t(s.max(t.start(j))) + t.duration(j); }
  KOKKOS_INLINE_FUNCTION bool inside(int j, std::int64_t a, std::int64_t b) const { return est(j) >= a && lct(j) <= b; }
  /// Whether edge finding runs: every task disjunctive (a machine: a job shop's, an open shop's), 2 to
  /// edge_finding_max_tasks of them; the helpers below and the edge functions take every task as
  /// disjunctive, and their callers check this first. Where only some are (an RCPSP's resources) it found little and
  /// cost up to 2.6x the time to the proof on the dev set's J30 instances (perf/NOTES.md entry 58).
  KOKKOS_INLINE_FUNCTION bool applies() const {
    if (t.n < 2 || t.n > edge_finding_max_tasks) return false;
    for (int j = 0; j < t.n; ++j)
      if (!in(j)) return false;
    return true;
  }
  /// The total duration of the disjunctive tasks other than `but` that start at a or later (est >= a): a
  /// bound on every task interval's total from a. An interval [a, b] with this bound + d <= b - a can
  /// neither overload nor move a task of duration d by the rules below (both need a + p + d > b), so
  /// the loops skip it without summing it.
  KOKKOS_INLINE_FUNCTION std::int64_t total_from(int but, std::int64_t a) const {
    std::int64_t p = 0;
    for (int j = 0; j < t.n; ++j)
      if (j != but && est(j) >= a) p += t.duration(j);
    return p;
  }
  /// The longest duration of a disjunctive task.
  KOKKOS_INLINE_FUNCTION std::int64_t longest() const {
    std::int64_t d = 0;
    for (int j = 0; j < t.n; ++j)
      if (t.duration(j) > d) d = t.duration(j);
    return d;
  }
  /// The total duration of the disjunctive tasks other than `but` inside [a, b] (est >= a, lct <= b);
  /// each goes to seen(j) when `report`.
  template <class Seen>
  KOKKOS_INLINE_FUNCTION std::int64_t total(int but, std::int64_t a, std::int64_t b, bool report, const Seen& seen) const {
    std::int64_t p = 0;
    for (int j = 0; j < t.n; ++j)
      if (j != but && inside(j, a, b)) {
        p += t.duration(j);
        if (report) seen(j);
      }
    return p;
  }
  /// Edge finding's two rules for disjunctive task i outside the task interval [a, b] whose tasks
  /// take p: i ends after all of them (its start at least a + p) when it cannot run before b with
  /// them, min(a, est_i) + p + d_i > b; it runs before all of them (its start at most b - p - d_i) when
  /// it cannot start after a with them, max(b, lct_i) - p - d_i < a. What each rule gives (est, lst),
  /// or est_i, lst_i where it does not apply.
  KOKKOS_INLINE_FUNCTION void rules(int i, std::int64_t a, std::int64_t b, std::int64_t p, std::int64_t& est_to,
                                    std::int64_t& lst_to) const {
    const std::int64_t d = t.duration(i), e = est(i), l = lct(i);
    est_to = min64(a, e) + p + d > b ? a + p : e;
    lst_to = max64(b, l) - p - d < a ? b - p - d : l - d;
  }
};

/// Which task intervals edge finding used for task i (cumulative_edges_of_task, for the explaining
/// search's lifted reasons): the est rule's [ea, eb] whose tasks take pe, the lst rule's [la, lb] with pl,
/// or the overloaded [fa, fb]; an empty interval (b <= a) where none was.
struct EdgeWhy {
  std::int64_t ea = 0, eb = 0, pe = 0, la = 0, lb = 0, pl = 0, fa = 0, fb = 0;
};

/// Edge finding and overload checking on the disjunctive tasks over task intervals [a, b] (a the est
/// of a disjunctive task, b the lct of one; Vilim 2004's rules in Caseau and Laburthe's task-interval
/// form): the tasks inside take p; p > b - a fails; each disjunctive task outside goes by
/// DisjunctiveTasks::rules. Task i's own view, for the explaining search's replays (search/
/// explain_analysis.cpp: cumulative_keep): the intervals without i, i narrowed by the best of each
/// rule, the interval's tasks to `seen` for that bound and for a failure. O(k^2 n).
template <class G, class Store, class Seen>
KOKKOS_INLINE_FUNCTION int cumulative_edges_of_task(const CumulativeRef<G>& t, int i, const Store& s, const Seen& seen,
                                                    EdgeWhy* why = nullptr) {
  const DisjunctiveTasks<G, Store> D{t, s};
  const std::int64_t d = t.duration(i);
  std::int64_t new_est = D.est(i), new_lst = D.lct(i) - d, ea = 0, eb = 0, la = 0, lb = 0;
  for (int k = 0; k < t.n; ++k) {
    const std::int64_t a = D.est(k), bound = D.total_from(i, a);
    for (int m = 0; m < t.n; ++m) {
      const std::int64_t b = D.lct(m);
      if (b <= a || bound + d <= b - a) continue;
      const std::int64_t p = D.total(i, a, b, false, seen);
      if (p == 0) continue;
      if (p > b - a) {
        D.total(i, a, b, true, seen);
        if (why) why->fa = a, why->fb = b;
        return prop_failed;
      }
      std::int64_t e, l;
      D.rules(i, a, b, p, e, l);
      if (e > new_est) new_est = e, ea = a, eb = b;
      if (l < new_lst) new_lst = l, la = a, lb = b;
    }
  }
  int st = prop_unchanged;
  if (new_est > D.est(i)) {
    const std::int64_t p = D.total(i, ea, eb, true, seen);
    if (why) why->ea = ea, why->eb = eb, why->pe = p;
    st |= s.narrow_min(t.start(i), new_est);
    if (st & prop_failed) return st;
  }
  if (new_lst < D.lct(i) - d) {
    const std::int64_t p = D.total(i, la, lb, true, seen);
    if (why) why->la = la, why->lb = lb, why->pl = p;
    st |= s.narrow_max(t.start(i), new_lst);
  }
  return st;
}

/// The same rules from the intervals' side, for propagation: lane k takes the task intervals that
/// start at disjunctive task k's est (once per distinct est), sums each once and narrows every
/// disjunctive task outside it (a lane may narrow any task's start: narrowing is atomic on a shared
/// store). O(k n) per lane, O(k^2 n) a propagation.
template <class G, class Store>
KOKKOS_INLINE_FUNCTION int cumulative_edges_from(const CumulativeRef<G>& t, int k, const Store& s) {
  const DisjunctiveTasks<G, Store> D{t, s};
  const std::int64_t a = D.est(k);
  for (int k2 = 0; k2 < k; ++k2)
    if (D.est(k2) == a) return prop_unchanged;  // the first task starting at a takes it
  int st = prop_unchanged;
  const std::int64_t bound = D.total_from(-1, a) + D.longest();
  for (int m = 0; m < t.n; ++m) {
    const std::int64_t b = D.lct(m);
    if (b <= a || bound <= b - a) continue;
    const std::int64_t p = D.total(-1, a, b, false, NoTasksSeen{});
    if (p > b - a) return st | prop_failed;
    for (int i = 0; i < t.n && p > 0; ++i) {
      if (D.inside(i, a, b)) continue;
      std::int64_t e, l;
      D.rules(i, a, b, p, e, l);
      if (e > D.est(i)) st |= s.narrow_min(t.start(i), e);
      if (!(st & prop_failed) && l < D.lct(i) - t.duration(i)) st |= s.narrow_max(t.start(i), l);
      if (st & prop_failed) return st;
    }
  }
  return st;
}

/// Narrows task i's start by the profile of the other tasks' compulsory parts (see above). Each task
/// whose part covers an overloaded time a sweep stops at goes to `seen(j)`: the explaining search
/// (search/explain.cpp's cumulative_keep) replays a run with a recorder to find a change's reasons.
template <class G, class Store, class Seen = NoTasksSeen>
KOKKOS_INLINE_FUNCTION int cumulative_time_table(const CumulativeRef<G>& t, int i, const Store& s, const Seen& seen = Seen{}) {
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

/// Task i's part of a run, time-table and edge finding (task i's own view of it), with the tasks it
/// met to `seen`: the explaining search replays a run task by task this way (cumulative_keep).
template <class G, class Store, class Seen = NoTasksSeen>
KOKKOS_INLINE_FUNCTION int cumulative_task(const CumulativeRef<G>& t, int i, const Store& s, const Seen& seen = Seen{},
                                           EdgeWhy* why = nullptr) {
  int st = cumulative_time_table(t, i, s, seen);
  if (!(st & prop_failed) && DisjunctiveTasks<G, Store>{t, s}.applies())
    st |= cumulative_edges_of_task(t, i, s, seen, why);
  return st;
}

/// Propagates cumulative c of the view g once: the time-table a task per lane, then edge finding a
/// task interval's start per lane. Lanes: SerialLanes or VectorLanes.
template <class Lanes, class G, class Store>
KOKKOS_INLINE_FUNCTION int propagate_cumulative(const Lanes& lanes, const G& g, int c, const Store& s) {
  const CumulativeRef<G> t{g, c, g.arity(c)};
  int st = lanes.bit_or(t.n, [&](int i) { return cumulative_time_table(t, i, s); });
  if (!(st & prop_failed) && DisjunctiveTasks<G, Store>{t, s}.applies())
    st |= lanes.bit_or(t.n, [&](int k) { return cumulative_edges_from(t, k, s); });
  return st;
}

/// cumulative(s, d, r, C) (builtin kcp_cumulative): variables the starts; parameters C, then
/// d_1..d_n, then r_1..r_n.
struct Cumulative : FamilyDefaults {
  static constexpr const char* name = "cumulative";
  static constexpr const char* statistic = "cumulativePropagators";
  /// Native by default on host backends and on GPUs (else compiled as a decomposition unless
  /// --global NAME asks): set from measurements (perf/NOTES.md entry 17).
  static constexpr bool native_on_host = true, native_on_gpu = true;
  /// Bounds only: time-table and edge finding move start times' bounds and read only them.
  static constexpr int holes_in = none_var;
  static constexpr bool wakes_on_bounds = true;
  template <class Lanes, class G, class Store>
  static KOKKOS_INLINE_FUNCTION int propagate(const Lanes& lanes, const G& g, int c, const Store& s) {
    return propagate_cumulative(lanes, g, c, s);
  }

  /// One time-table sweep step of a task's run, as reasons' replay records it: up (the est) or down
  /// (the lst), the overloaded time `at`, the bound it gave, and the tasks that covered `at`
  /// (met[first..last) of the task's list).
  struct Step {
    bool up;
    std::int64_t at, to;
    std::size_t first, last;
  };
  /// reasons' recorder: the tasks a task's run meets, and its sweep steps.
  struct Recorder {
    std::vector<int>* met;
    std::vector<Step>* steps;
    void operator()(int j) const { met->push_back(j); }
    void step(bool up, std::int64_t at, std::int64_t to) const {
      steps->push_back(Step{up, at, to, steps->empty() ? 0 : steps->back().last, met->size()});
    }
  };

  /// The explaining search's reasons (FamilyDefaults::reasons): the run replayed task by task on the
  /// box, each task's own view recording the tasks it met and its sweep steps; the culprit is the task
  /// that failed, or whose start `reached` the targets. First the lifted reasons of the culprit's own
  /// step (lifted(): in[j] = 1 with lo/hi); where they do not apply, the box's: the culprit, its tasks,
  /// and theirs for the tasks narrowed before it in the run (in[j] = 2), with edge finding's interval
  /// lifted as lifted() does (in[j] = 1) when the culprit's step was edge finding's.
  template <class G, class Store, class Reached>
  static bool reasons(const G& g, int c, const Store& x, const ReasonTarget& target, const Reached& reached,
                      std::vector<char>& in, std::vector<std::int64_t>& lo, std::vector<std::int64_t>& hi) {
    const CumulativeRef<G> t{g, c, g.arity(c)};
    const auto n = std::size_t(t.n);
    std::vector<std::vector<int>> met(n);
    std::vector<char> narrowed(n, 0);
    std::vector<std::int64_t> box_lo(n), box_hi(n);  // each task's start before its own step
    std::vector<Step> steps;
    int culprit = -1, status = prop_unchanged;
    EdgeWhy why;
    for (int k = 0; k < t.n; ++k) {
      box_lo[std::size_t(k)] = x.min(t.start(k));
      box_hi[std::size_t(k)] = x.max(t.start(k));
    }
    for (int k = 0; k < t.n && culprit < 0; ++k) {
      why = EdgeWhy{};
      steps.clear();
      status = cumulative_task(t, k, x, Recorder{&met[std::size_t(k)], &steps}, &why);
      if (status & prop_failed) culprit = k;
      else if (status & prop_changed) narrowed[std::size_t(k)] = 1;
      if (culprit < 0 && target.var >= 0 && t.start(k) == target.var && reached()) culprit = k;
    }
    if (culprit < 0) return false;
    lo.assign(n, INT64_MIN);
    hi.assign(n, INT64_MAX);
    in.assign(n, 0);
    const auto i = std::size_t(culprit);
    const Culprit who{culprit, (status & prop_failed) != 0, box_lo[i], box_hi[i]};
    if (lifted(t, x, who, target, met[i], steps, why, box_lo, box_hi, lo, hi)) {
      for (std::size_t j = 0; j < n; ++j)
        if (lo[j] != INT64_MIN || hi[j] != INT64_MAX) in[j] = 1;
      return true;
    }
    lo.assign(n, INT64_MIN);
    hi.assign(n, INT64_MAX);
    std::vector<int> todo{culprit};
    in[std::size_t(culprit)] = 2;
    while (!todo.empty()) {
      const int k = todo.back();
      todo.pop_back();
      for (const int j : met[std::size_t(k)]) {
        if (in[std::size_t(j)]) continue;
        in[std::size_t(j)] = 2;
        if (narrowed[std::size_t(j)] && j < k) todo.push_back(j);
      }
    }
    const DisjunctiveTasks<G, Store> D{t, x};
    const auto lift = [&](std::int64_t a, std::int64_t b) {  // the interval's tasks, the weaker of two
      for (int j = 0; j < t.n; ++j) {
        if (j == culprit || !D.inside(j, a, b)) continue;
        auto& l = lo[std::size_t(j)];
        auto& h = hi[std::size_t(j)];
        l = l == INT64_MIN ? a : min64(l, a);
        h = h == INT64_MAX ? b - t.duration(j) : max64(h, b - t.duration(j));
        in[std::size_t(j)] = 1;
      }
    };
    const std::int64_t d = t.duration(culprit);
    if (why.fb > why.fa) {
      lift(why.fa, why.fb);
    } else {
      if (why.eb > why.ea) {
        lift(why.ea, why.eb);
        lo[i] = why.eb - why.pe - d + 1;
        in[i] = 1;
      }
      if (why.lb > why.la) {
        lift(why.la, why.lb);
        hi[i] = why.la + why.pl - 1;
        in[i] = 1;
      }
    }
    return true;
  }

  /// The culprit of a replayed run: its task, whether it failed, its start's bounds before its step.
  struct Culprit {
    int i;
    bool failed;
    std::int64_t est0, lst0;
  };

  /// The culprit's own step lifted (Schutt et al.'s explanations, for the target asked): a time-table
  /// step whose tasks cover the overloaded time `at` moves i's est from at - d_i + 1 on (they run
  /// throughout [at, cur) and i would overlap them: s_j <= at, s_j >= max(cur, at + 1) - d_j), the
  /// steps chained backwards from the target, each needing only the next one's premise; down alike
  /// (s_j >= at - d_j + 1, s_j <= min(cur + d_i, at); premise s_i <= at). Edge finding's est rule over
  /// [a, b] with tasks taking p: s_j >= a, s_j <= b - d_j, premise s_i >= b - p - d_i + 1 (through the
  /// time-table's chain where the box's est is lower); its lst rule alike; an overload: the interval's
  /// tasks alone. Failures: past the other bound (the bound as a premise). False where it does not
  /// apply (a removed value asked, another failure, a bound stronger than the box's: a task narrowed
  /// before the culprit in the run).
  template <class G, class Store>
  static bool lifted(const CumulativeRef<G>& t, const Store& x, const Culprit& who, const ReasonTarget& target,
                     const std::vector<int>& met, const std::vector<Step>& steps, const EdgeWhy& why,
                     const std::vector<std::int64_t>& box_lo, const std::vector<std::int64_t>& box_hi,
                     std::vector<std::int64_t>& lo, std::vector<std::int64_t>& hi) {
    if (!target.bounds_only) return false;
    const int i = who.i;
    const std::int64_t di = t.duration(i), est0 = who.est0, lst0 = who.lst0;
    const auto need_lo = [&](int j, std::int64_t v) { lo[std::size_t(j)] = max64(lo[std::size_t(j)], v); };
    const auto need_hi = [&](int j, std::int64_t v) { hi[std::size_t(j)] = min64(hi[std::size_t(j)], v); };
    std::int64_t up_to = est0, down_to = lst0;  // where the time-table's sweeps took i
    for (const Step& st : steps) (st.up ? up_to : down_to) = st.to;
    const auto chain_up = [&](std::int64_t cur) {  // s_i >= cur through the up steps
      while (cur > est0) {
        const Step* use = nullptr;
        for (const Step& st : steps)
          if (st.up && st.to >= cur) {
            use = &st;
            break;
          }
        // Each step's premise is below the bound it gives (no progress: a task of no duration): none.
        if (use == nullptr || use->at - di + 1 >= cur) return false;
        for (std::size_t q = use->first; q < use->last; ++q) {
          const int j = met[q];
          need_hi(j, use->at);
          need_lo(j, max64(cur, use->at + 1) - t.duration(j));
        }
        cur = use->at - di + 1;
      }
      need_lo(i, cur);
      return true;
    };
    const auto chain_down = [&](std::int64_t cur) {  // s_i <= cur through the down steps
      while (cur < lst0) {
        const Step* use = nullptr;
        for (const Step& st : steps)
          if (!st.up && st.to <= cur) {
            use = &st;
            break;
          }
        if (use == nullptr || use->at <= cur) return false;
        for (std::size_t q = use->first; q < use->last; ++q) {
          const int j = met[q];
          need_lo(j, use->at - t.duration(j) + 1);
          need_hi(j, min64(cur + di, use->at));
        }
        cur = use->at;
      }
      need_hi(i, cur);
      return true;
    };
    const DisjunctiveTasks<G, Store> D{t, x};
    const auto interval = [&](std::int64_t a, std::int64_t b) {
      for (int j = 0; j < t.n; ++j)
        if (j != i && D.inside(j, a, b)) need_lo(j, a), need_hi(j, b - t.duration(j));
    };
    const auto up = [&](std::int64_t cur) {  // s_i >= cur: the time-table's, else the est rule's
      if (up_to >= cur) return chain_up(cur);
      if (why.eb <= why.ea || why.ea + why.pe < cur) return false;
      interval(why.ea, why.eb);
      return chain_up(why.eb - why.pe - di + 1);
    };
    const auto down = [&](std::int64_t cur) {  // s_i <= cur
      if (down_to <= cur) return chain_down(cur);
      if (why.lb <= why.la || why.lb - why.pl - di > cur) return false;
      interval(why.la, why.lb);
      return chain_down(why.la + why.pl - 1);
    };
    bool ok = false;
    if (!who.failed) {
      ok = (target.lo == INT64_MIN || up(target.lo)) && (target.hi == INT64_MAX || down(target.hi));
    } else if (why.fb > why.fa) {
      interval(why.fa, why.fb);
      ok = true;
    } else if (up_to > lst0) {
      ok = up(lst0 + 1) && down(lst0);
    } else if (down_to < up_to) {
      ok = down(up_to - 1) && up(up_to);
    } else if (why.eb > why.ea && why.ea + why.pe > down_to) {
      ok = up(down_to + 1) && down(down_to);
    }
    if (!ok) return false;
    for (int j = 0; j < t.n; ++j)  // a task narrowed earlier in the run, past its box's bounds: not its literals
      if (lo[std::size_t(j)] > box_lo[std::size_t(j)] || hi[std::size_t(j)] < box_hi[std::size_t(j)]) return false;
    return true;
  }
};

}  // namespace kcp
