// Learning (search/learning.hpp, domains/nogoods.hpp): the nogood family propagates as a clause does;
// the host's store minimises, deduplicates and deletes as it says; every nogood the search learns is
// checked by brute force against the model under the bound it was learned with; and with learning
// on, every backend and portfolio shape proves the optimum complete search proves (a proof by the
// empty nogood included). In satisfaction the fleet does not learn: only the explaining search runs
// there (with -a, or free search under a limit), and otherwise satisfaction asked to learn searches as
// without.
#include "search/solve.hpp"

#include "domains/fixpoint.hpp"
#include "search/explain.hpp"
#include "search/learning.hpp"
#include "solver/compile.hpp"
#include "solver/fzn/checker.hpp"
#include "solver/fzn/parser.hpp"
#include "tests/backends.hpp"
#include "tests/random_programs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace kcp {
namespace {

using HostPool = NogoodPool<Kokkos::HostSpace>;

/// A search's log of `nogoods`, each learned under `bound` (search/learning.hpp's format).
std::vector<std::int32_t> log_of(const std::vector<std::vector<Literal>>& nogoods, std::int64_t bound) {
  std::vector<std::int32_t> out;
  for (const auto& g : nogoods) append_to_log(out, g, bound);
  return out;
}

/// The pool a search would upload for `nogoods` over p's variables (through NogoodStore: minimised,
/// laid out), with the Views that hold it.
struct PoolHolder {
  Kokkos::View<const std::int32_t*, Kokkos::HostSpace> begin, watch_begin, watch, watch_nogood;
  Kokkos::View<std::int32_t*, Kokkos::HostSpace> activity;
  Kokkos::View<const Literal*, Kokkos::HostSpace> lits;
  HostPool pool;
};
PoolHolder make_pool(const Program& p, const std::vector<std::vector<Literal>>& nogoods) {
  NogoodStore store(p, 64, 64);
  const std::vector<std::int32_t> log = log_of(nogoods, INT64_MAX);
  store.absorb(log.data(), std::int64_t(log.size()));
  EXPECT_EQ(store.size(), int(nogoods.size()));
  std::vector<std::int32_t> begin, watch_begin, watch, watch_nogood;
  std::vector<Literal> lits;
  store.layout(p.num_vars(), begin, lits, watch_begin, watch, watch_nogood);
  PoolHolder h;
  h.begin = detail::upload<std::int32_t, Kokkos::HostSpace>("begin", begin);
  h.watch_begin = detail::upload<std::int32_t, Kokkos::HostSpace>("watch_begin", watch_begin);
  h.watch = detail::upload<std::int32_t, Kokkos::HostSpace>("watch", watch);
  h.watch_nogood = detail::upload<std::int32_t, Kokkos::HostSpace>("watch_nogood", watch_nogood);
  h.lits = detail::upload<Literal, Kokkos::HostSpace>("lits", lits);
  h.activity = Kokkos::View<std::int32_t*, Kokkos::HostSpace>("activity", 2 * nogoods.size() + 2);
  h.pool.begin = h.begin;
  h.pool.lits = h.lits;
  h.pool.watch_begin = h.watch_begin;
  h.pool.watch = h.watch;
  h.pool.watch_nogood = h.watch_nogood;
  h.pool.activity = h.activity;
  h.pool.count = h.pool.capacity = store.size();
  return h;
}

Literal lit(int x, LiteralOp op, std::int32_t v) { return Literal::make(x, op, v); }

/// Each operation's truth on a store with a hole and without, and what making it false does.
TEST(Learning, LiteralsReadAndFalsifyTheStore) {
  for (const bool bits : {false, true}) {
    Program p;
    p.add_var(0, 9);
    p.add_var(3, 3);
    if (bits) p.give_bits(0);
    StoreRef<false> s = p.store();
    if (bits) s.remove(0, 5);
    EXPECT_EQ(literal_state(s, lit(1, lit_eq, 3)), 1);
    EXPECT_EQ(literal_state(s, lit(1, lit_ne, 3)), -1);
    EXPECT_EQ(literal_state(s, lit(0, lit_eq, 4)), 0);
    EXPECT_EQ(literal_state(s, lit(0, lit_eq, 10)), -1);
    EXPECT_EQ(literal_state(s, lit(0, lit_ne, 5)), bits ? 1 : 0);  // a bounds-only store keeps 5
    EXPECT_EQ(literal_state(s, lit(0, lit_eq, 5)), bits ? -1 : 0);
    EXPECT_EQ(literal_state(s, lit(0, lit_le, 9)), 1);
    EXPECT_EQ(literal_state(s, lit(0, lit_le, 4)), 0);
    EXPECT_EQ(literal_state(s, lit(0, lit_le, -1)), -1);
    EXPECT_EQ(literal_state(s, lit(0, lit_ge, 0)), 1);
    EXPECT_EQ(literal_state(s, lit(0, lit_ge, 10)), -1);
    // Falsified, each holds in no value left.
    for (const Literal l : {lit(0, lit_le, 2), lit(0, lit_ge, 8), lit(0, lit_ne, 7), lit(0, lit_eq, 0)}) {
      Program q = p;
      StoreRef<false> t = q.store();
      if (bits) t.remove(0, 5);
      EXPECT_FALSE(falsify(t, l) & prop_failed);
      EXPECT_EQ(literal_state(t, l), -1) << l.op();
    }
  }
}

/// A nogood with every literal but one true makes the last false; all true fails; one false or two
/// undecided: nothing. Activity counts what it did.
TEST(Learning, NogoodPropagatesAsAClause) {
  Program p;
  for (int x = 0; x < 3; ++x) p.add_var(0, 5);
  const std::vector<Literal> g{lit(0, lit_eq, 2), lit(1, lit_le, 3), lit(2, lit_ge, 4)};
  PoolHolder h = make_pool(p, {g});
  {
    Program q = p;
    StoreRef<false> s = q.store();
    EXPECT_EQ(h.pool.propagate(0, s), prop_unchanged);  // three undecided
    s.narrow_to(0, 2, 2);
    EXPECT_EQ(h.pool.propagate(0, s), prop_unchanged);  // two undecided
    s.narrow_max(1, 1);
    EXPECT_EQ(h.pool.propagate(0, s), prop_changed);  // x2 >= 4 made false: x2 <= 3
    EXPECT_EQ(q.ub[2], 3);
    EXPECT_EQ(h.activity(0), 1);
  }
  {
    Program q = p;
    StoreRef<false> s = q.store();
    s.narrow_to(0, 2, 2);
    s.narrow_max(1, 3);
    s.narrow_min(2, 4);
    EXPECT_EQ(h.pool.propagate(0, s), prop_failed);
    EXPECT_EQ(h.activity(1), 1);
  }
  {
    Program q = p;
    StoreRef<false> s = q.store();
    s.narrow_min(0, 3);  // x0 = 2 false: the nogood is satisfied
    s.narrow_max(1, 3);
    EXPECT_EQ(h.pool.propagate(0, s), prop_unchanged);
    EXPECT_EQ(q.lb[2], 0);
    EXPECT_EQ(q.ub[2], 5);
  }
}

/// serial_fixpoint runs the pool's nogoods with the program's propagators: a chain of nogoods and a
/// row propagate into each other.
TEST(Learning, FixpointRunsTheNogoodsWithThePropagators) {
  Program p;
  for (int x = 0; x < 3; ++x) p.add_var(0, 5);
  p.add_row(LinearKind::le, {1, -1}, {1, 2}, 0);  // x1 <= x2
  // x0 >= 1 -> x1 >= 3 (as the nogood {x0 >= 1, x1 <= 2}); x2 <= 3 -> x0 = 0.
  PoolHolder h = make_pool(p, {{lit(0, lit_ge, 1), lit(1, lit_le, 2)}, {lit(2, lit_le, 3), lit(0, lit_ge, 1)}});
  const DeviceProgram<Kokkos::HostSpace> d(p);
  {
    Program q = p;
    q.lb[0] = 1;
    const FixpointResult r = serial_fixpoint(d, q.store(), 0, &h.pool);
    EXPECT_FALSE(r.failed);
    EXPECT_EQ(q.lb[1], 3);  // the first nogood
    EXPECT_EQ(q.lb[2], 4);  // the row, then the second nogood has x2 <= 3 false
  }
  {
    Program q = p;
    q.ub[2] = 3;
    const FixpointResult r = serial_fixpoint(d, q.store(), 0, &h.pool);
    EXPECT_FALSE(r.failed);
    EXPECT_EQ(q.ub[0], 0);  // the second nogood
  }
  {
    Program q = p;
    q.lb[0] = 1;
    q.ub[2] = 3;
    EXPECT_TRUE(serial_fixpoint(d, q.store(), 0, &h.pool).failed);
    EXPECT_FALSE(serial_fixpoint(d, p.store()).failed);  // without the pool nothing fails
  }
}

/// `count` random nogoods of 2 to `max_length` literals over p's variables, as the pool keeps them
/// (NogoodStore minimises them and drops those that can never fire): bound literals one step inside
/// the root (a cut of the root makes them true), value literals anywhere.
std::vector<std::vector<Literal>> random_kept_nogoods(std::mt19937& rng, const Program& p, int count, int max_length) {
  std::uniform_int_distribution<int> var(0, p.num_vars() - 1), op(0, 3), len(2, max_length), value(-4, 4);
  std::vector<std::vector<Literal>> nogoods;
  for (int k = 0; k < count; ++k) {
    std::vector<Literal> g;
    for (int i = len(rng); i > 0; --i) {
      const int x = var(rng), o = op(rng);
      const std::int32_t lo = p.lb[std::size_t(x)], hi = p.ub[std::size_t(x)];
      g.push_back(lit(x, LiteralOp(o), o == lit_le ? hi - 1 : o == lit_ge ? lo + 1 : std::clamp(value(rng), lo, hi)));
    }
    nogoods.push_back(g);
  }
  NogoodStore store(p, 64, 8);
  const std::vector<std::int32_t> log = log_of(nogoods, INT64_MAX);
  store.absorb(log.data(), std::int64_t(log.size()));
  std::vector<std::vector<Literal>> kept;
  for (const HostNogood& g : store.nogoods()) kept.push_back(g.lits);
  return kept;
}

/// The event-driven fixpoint wakes a nogood only where a changed variable's literal in it is true
/// (domains/nogoods.hpp): from a store that is a fixpoint of the program and the pool, random
/// narrowings as events, then queue_fixpoint, must reach what serial_fixpoint (every nogood, every
/// iteration) reaches, on random programs with random pools, with bitsets and without.
TEST(Learning, QueueFixpointWakesWhatTheSerialFixpointRuns) {
  using Space = Kokkos::Serial;
  int narrowed_by_nogoods = 0, infeasible = 0, pool_failed = 0, compared = 0;
  for (int seed = 0; seed < 600; ++seed) {
    std::mt19937 rng(700 + seed);
    Program p = test::random_network(rng, 6, 3, 2, 1, 4);
    if (seed % 2) p.give_bitsets(64);
    const int n = p.num_vars();
    std::uniform_int_distribution<int> var(0, n - 1);
    const std::vector<std::vector<Literal>> kept = random_kept_nogoods(rng, p, 8, 3);
    if (kept.empty()) continue;
    PoolHolder h = make_pool(p, kept);
    const DeviceProgram<Kokkos::HostSpace> d(p);
    Program root = p;
    if (serial_fixpoint(d, root.store()).failed) {
      ++infeasible;
      continue;
    }
    if (serial_fixpoint(d, root.store(), 0, &h.pool).failed) {
      ++pool_failed;
      continue;
    }
    // Narrow a few variables, as a decision would, then propagate both ways.
    // x > lb or x < ub, as a split would.
    std::vector<std::pair<int, bool>> cuts;
    for (int i = 0; i < 3; ++i) {
      const int x = var(rng);
      if (root.lb[std::size_t(x)] < root.ub[std::size_t(x)]) cuts.emplace_back(x, i % 2 == 0);
    }
    const auto cut = [&](const StoreRef<false>& s) {
      for (const auto& [x, up] : cuts)
        up ? s.narrow_min(x, std::int64_t(root.lb[std::size_t(x)]) + 1) : s.narrow_max(x, std::int64_t(root.ub[std::size_t(x)]) - 1);
    };
    Program serial = root, queued = root;
    cut(serial.store());
    const bool serial_failed = serial_fixpoint(d, serial.store(), 0, &h.pool).failed;
    Program without = root;
    cut(without.store());
    const bool without_failed = serial_fixpoint(d, without.store()).failed;
    std::vector<std::int32_t> work(QueueWork::ints(d.num_propagators() + h.pool.count, n), 0);
    const QueueWork w{work.data(), d.num_propagators() + h.pool.count, n};
    bool queue_failed = false;
    Kokkos::parallel_for(
        Kokkos::TeamPolicy<Space>(1, 1), [&](const Kokkos::TeamPolicy<Space>::member_type& team) {
          const StoreRef<false> s = queued.store();
          cut(pending_events(s, w));
          queue_failed = queue_fixpoint(team, d, s, w, FixpointOptions{}, false, &h.pool, h.pool.count).failed;
        });
    ASSERT_EQ(queue_failed, serial_failed) << "seed " << seed;
    ++compared;
    narrowed_by_nogoods += serial_failed && !without_failed ? 1 : 0;
    if (serial_failed) continue;
    EXPECT_EQ(queued.lb, serial.lb) << "seed " << seed;
    EXPECT_EQ(queued.ub, serial.ub) << "seed " << seed;
    for (int x = 0; x < n; ++x)
      EXPECT_EQ(queued.store().domain_size(x), serial.store().domain_size(x)) << "seed " << seed << " x" << x;
    narrowed_by_nogoods += !without_failed && (serial.lb != without.lb || serial.ub != without.ub) ? 1 : 0;
  }
  // Most seeds compared, and in many the pool narrowed after the events.
  EXPECT_GT(compared, 100) << infeasible << " programs and " << pool_failed << " pools failed at the root";
  EXPECT_GT(narrowed_by_nogoods, 10);
}

// A team's watched literals (NogoodPool::propagate with watches) kept across a dive that backtracks
// to ancestors, as the search kernel keeps them: at every node the event-driven fixpoint and AC1, each
// with its own watches, reach the serial fixpoint, which runs every nogood without watches.
TEST(Learning, WatchedNogoodsAcrossADiveReachTheSerialFixpoint) {
  using Space = Kokkos::Serial;
  using Member = Kokkos::TeamPolicy<Space>::member_type;
  int compared = 0, failed = 0, narrowed_by_nogoods = 0;
  for (int seed = 0; seed < 300; ++seed) {
    std::mt19937 rng(900 + seed);
    Program p = test::random_network(rng, 6, 3, 2, 1, 4);
    if (seed % 2) p.give_bitsets(64);
    const int n = p.num_vars();
    const std::vector<std::vector<Literal>> kept = random_kept_nogoods(rng, p, 12, 4);
    if (kept.empty()) continue;
    PoolHolder h = make_pool(p, kept);
    const DeviceProgram<Kokkos::HostSpace> d(p);
    Program root = p;
    if (serial_fixpoint(d, root.store(), 0, &h.pool).failed) continue;
    std::vector<std::int32_t> work(QueueWork::ints(d.num_propagators() + h.pool.count, n), 0);
    const QueueWork w{work.data(), d.num_propagators() + h.pool.count, n};
    std::vector<std::int32_t> queue_watches(2 * std::size_t(h.pool.count), -1), ac1_watches = queue_watches;
    std::vector<Program> path{root};  // the fixpoints of the nodes on the current path
    for (int step = 0; step < 16; ++step) {
      if (path.size() > 1 && rng() % 3 == 0) path.resize(1 + rng() % (path.size() - 1));  // back to an ancestor
      const Program& at = path.back();
      std::vector<int> open;
      for (int x = 0; x < n; ++x)
        if (at.lb[std::size_t(x)] < at.ub[std::size_t(x)]) open.push_back(x);
      if (open.empty()) {
        path.resize(1);
        continue;
      }
      const int x = open[rng() % open.size()];
      const std::int32_t v = at.lb[std::size_t(x)] + std::int32_t(rng() % std::uint32_t(at.ub[std::size_t(x)] - at.lb[std::size_t(x)]));
      const bool up = rng() % 2 != 0;
      const auto decide = [&](const StoreRef<false>& s) { up ? s.narrow_min(x, std::int64_t(v) + 1) : s.narrow_max(x, v); };
      Program serial = at, queued = at, ac1 = at;
      decide(serial.store());
      const bool serial_failed = serial_fixpoint(d, serial.store(), 0, &h.pool).failed;
      Program without = at;
      decide(without.store());
      const bool without_failed = serial_fixpoint(d, without.store()).failed;
      bool queue_failed = false, ac1_failed = false;
      Kokkos::parallel_for(Kokkos::TeamPolicy<Space>(1, 1), [&](const Member& team) {
        const StoreRef<false> s = queued.store();
        decide(pending_events(s, w));
        queue_failed = queue_fixpoint(team, d, s, w, FixpointOptions{}, false, &h.pool, h.pool.count,
                                      queue_watches.data()).failed;
        int flags[fixpoint_flag_count];
        decide(ac1.store());
        ac1_failed = team_fixpoint(team, d, ac1.store(), flags, FixpointOptions{}, &h.pool, ac1_watches.data()).failed;
      });
      ASSERT_EQ(queue_failed, serial_failed) << "seed " << seed << " step " << step;
      ASSERT_EQ(ac1_failed, serial_failed) << "seed " << seed << " step " << step;
      ++compared;
      if (serial_failed) {
        ++failed;
        narrowed_by_nogoods += without_failed ? 0 : 1;
        continue;
      }
      for (Program* q : {&queued, &ac1}) {
        EXPECT_EQ(q->lb, serial.lb) << "seed " << seed << " step " << step;
        EXPECT_EQ(q->ub, serial.ub) << "seed " << seed << " step " << step;
        for (int y = 0; y < n; ++y)
          EXPECT_EQ(q->store().domain_size(y), serial.store().domain_size(y)) << "seed " << seed << " x" << y;
      }
      narrowed_by_nogoods += !without_failed && (serial.lb != without.lb || serial.ub != without.ub) ? 1 : 0;
      path.push_back(serial);
    }
  }
  // Many nodes compared, failures among them, and nogoods that narrowed or failed where the program alone did not.
  EXPECT_GT(compared, 1000);
  EXPECT_GT(failed, 30);
  EXPECT_GT(narrowed_by_nogoods, 50);
}

/// Minimisation: a variable's literals merge into an interval (and its holes), literals true at the
/// root go, a nogood that can never fire (contradictory literals, a literal false at the root) is not
/// kept, duplicates are not kept, the empty nogood is a proof, and the pool keeps the most active half.
TEST(Learning, StoreMinimisesDeduplicatesAndDeletes) {
  Program p;
  for (int x = 0; x < 4; ++x) p.add_var(0, 9);
  NogoodStore store(p, 4, 3);
  std::vector<std::vector<Literal>> kept;
  store.on_learned = [&](const HostNogood& g) { kept.push_back(g.lits); };
  const std::vector<std::int32_t> a = log_of({{lit(0, lit_le, 7), lit(1, lit_eq, 3), lit(0, lit_le, 5), lit(2, lit_ge, 0)},
                                           {lit(0, lit_ge, 4), lit(0, lit_le, 4)},
                                           {lit(1, lit_eq, 3), lit(1, lit_eq, 4)},
                                           {lit(3, lit_le, -1), lit(0, lit_eq, 1)},
                                           {lit(0, lit_le, 5), lit(1, lit_eq, 3)},
                                           {lit(0, lit_ge, 3), lit(0, lit_ne, 3), lit(0, lit_ne, 6), lit(1, lit_le, 2)},
                                           {lit(0, lit_eq, 1), lit(1, lit_eq, 1), lit(2, lit_eq, 1), lit(3, lit_eq, 1)}},
                                          -7);
  store.absorb(a.data(), std::int64_t(a.size()));
  ASSERT_EQ(kept.size(), 3u);
  EXPECT_EQ(kept[0], (std::vector<Literal>{lit(0, lit_le, 5), lit(1, lit_eq, 3)}));  // x2 >= 0 holds at the root
  EXPECT_EQ(kept[1], (std::vector<Literal>{lit(0, lit_eq, 4)}));
  // x0 in [3, 9] \ {3, 6} is x0 >= 4, x0 != 6.
  EXPECT_EQ(kept[2], (std::vector<Literal>{lit(0, lit_ge, 4), lit(0, lit_ne, 6), lit(1, lit_le, 2)}));
  EXPECT_EQ(store.dropped, 4);  // contradictory, false at the root, a duplicate, too long
  EXPECT_EQ(store.nogoods()[0].bound, -7);
  EXPECT_FALSE(store.proved());
  const std::vector<std::int32_t> empty = log_of({{lit(2, lit_ge, 0)}}, 12);
  store.absorb(empty.data(), std::int64_t(empty.size()));
  EXPECT_TRUE(store.proved());
  EXPECT_EQ(store.proof_bound(), 12);

  EXPECT_EQ(store.epoch(), 0);

  // Over capacity (4) at the end of a round: the round's nogoods first, then the most active, keep
  // half the capacity; the ids change (a new epoch).
  NogoodStore full(p, 4, 3);
  const std::vector<std::int32_t> c = log_of({{lit(3, lit_eq, 1)}, {lit(3, lit_eq, 2)}, {lit(3, lit_eq, 3)}}, 5);
  full.absorb(c.data(), std::int64_t(c.size()));
  full.end_round();  // 3 <= 4: nothing deleted
  EXPECT_EQ(full.epoch(), 0);
  const std::vector<std::int32_t> d = log_of({{lit(2, lit_eq, 1)}, {lit(2, lit_eq, 2)}}, 5);
  full.absorb(d.data(), std::int64_t(d.size()));
  const std::vector<std::int32_t> activity{0, 0, 4, 1, 0, 0};  // the pool searched held the first 3
  full.add_activity(activity.data(), 3);
  EXPECT_EQ(full.propagations, 4);
  EXPECT_EQ(full.failures, 1);
  full.end_round();
  ASSERT_EQ(full.size(), 2);
  EXPECT_EQ(full.nogoods()[0].lits, (std::vector<Literal>{lit(2, lit_eq, 1)}));
  EXPECT_EQ(full.nogoods()[1].lits, (std::vector<Literal>{lit(2, lit_eq, 2)}));
  EXPECT_EQ(full.deleted, 3);
  EXPECT_EQ(full.epoch(), 1);
  // With room for three, the most active old one stays.
  NogoodStore three(p, 6, 3);
  three.absorb(c.data(), std::int64_t(c.size()));
  three.end_round();
  three.absorb(d.data(), std::int64_t(d.size()));
  const std::vector<std::int32_t> e = log_of({{lit(1, lit_eq, 1)}, {lit(1, lit_eq, 2)}}, 5);
  three.absorb(e.data(), std::int64_t(e.size()));
  three.add_activity(activity.data(), 3);
  three.end_round();  // 7 > 6: the 4 new ones, cut to 3 (keep = 6 / 2)... the new ones come first
  ASSERT_EQ(three.size(), 3);
  NogoodStore old(p, 4, 3);
  old.absorb(c.data(), std::int64_t(c.size()));
  old.end_round();
  old.absorb(d.data(), std::int64_t(d.size()) / 2);  // one new nogood
  old.add_activity(activity.data(), 3);
  old.end_round();  // 4 <= 4
  const std::vector<std::int32_t> f = log_of({{lit(0, lit_eq, 1)}}, 5);
  old.absorb(f.data(), std::int64_t(f.size()));
  old.end_round();  // 5 > 4: the new one, then the most active (x3 = 2)
  ASSERT_EQ(old.size(), 2);
  EXPECT_EQ(old.nogoods()[0].lits, (std::vector<Literal>{lit(0, lit_eq, 1)}));
  EXPECT_EQ(old.nogoods()[1].lits, (std::vector<Literal>{lit(3, lit_eq, 2)}));
}

/// A random small model: every store value can be enumerated (besides the objective, a sum the
/// others fix).
Program small_optimisation(int seed, int& objective) {
  std::mt19937 rng(4400 + seed);
  Program p = test::random_network(rng, 4 + seed % 2, 1 + seed % 3, 1 + seed % 2, seed % 2, 2);
  objective = p.add_var(-1000, 1000);
  std::vector<std::int32_t> cs{-1};
  std::vector<int> xs{objective};
  for (int x = 0; x < p.num_vars() - 1; ++x) {
    cs.push_back((x % 2 ? -1 : 1) * (1 + (seed + x) % 4));
    xs.push_back(x);
  }
  p.add_row(LinearKind::eq, cs, xs, 0);
  return p;
}

/// A random small scheduling model of the global families: 4-5 starts, a cumulative over them, an
/// all_different over the first three, a table over two of them; the objective (the last variable)
/// a weighted sum of the starts.
Program small_global_optimisation(int seed, int& objective) {
  std::mt19937 rng(9100 + seed);
  Program p;
  const int n = 4 + seed % 2;
  for (int x = 0; x < n; ++x) p.add_var(0, 3 + seed % 3);
  std::uniform_int_distribution<int> small(1, 2), value(0, 3 + seed % 3), coef(1, 3);
  const std::int64_t cap = 1 + seed % 2;
  std::vector<int> starts;
  std::vector<std::int64_t> pars{cap};
  for (int x = 0; x < n; ++x) starts.push_back(x), pars.push_back(small(rng));
  for (int x = 0; x < n; ++x) pars.push_back(std::min<std::int64_t>(small(rng), cap));
  p.add_global<Cumulative>(starts, pars);
  p.add_global<AllDifferent>({0, 1, 2});
  std::vector<std::int64_t> rows;
  for (int r = 0; r < 3 + seed % 4; ++r) rows.push_back(value(rng)), rows.push_back(value(rng));
  p.add_global<Table>({1, n - 1}, rows);
  objective = p.add_var(-1000, 1000);
  std::vector<std::int32_t> cs{-1};
  std::vector<int> xs{objective};
  for (int x = 0; x < n; ++x) cs.push_back((x % 2 ? -1 : 1) * coef(rng)), xs.push_back(x);
  p.add_row(LinearKind::eq, cs, xs, 0);
  return p;
}

/// The solutions of a program's first n variables extended to its variables from n on, each the 0/1
/// reification variable of rows over the first n (ExplainingSearch::add_order_literals' order literals):
/// 1 where its first row holds.
std::vector<std::vector<std::int32_t>> with_order_literals(const Program& p, int n,
                                                           const std::vector<std::vector<std::int32_t>>& solutions) {
  std::vector<std::vector<std::int32_t>> out;
  for (auto s : solutions) {
    s.resize(std::size_t(p.num_vars()), -1);
    for (int r = p.num_rows() - 1; r >= 0; --r) {  // the first row of each: the last one written
      const int b = p.reif_var[std::size_t(r)];
      if (b < n) continue;
      std::int64_t sum = 0;
      for (int k = p.row_begin[std::size_t(r)]; k < p.row_begin[std::size_t(r) + 1]; ++k)
        sum += std::int64_t(p.coef[std::size_t(k)]) * s[std::size_t(p.var[std::size_t(k)])];
      s[std::size_t(b)] = sum <= p.rhs[std::size_t(r)] ? 1 : 0;
    }
    out.push_back(std::move(s));
  }
  return out;
}

/// Every solution of p (the objective is the last variable, fixed by the others).
std::vector<std::vector<std::int32_t>> all_solutions(const Program& p) {
  const int n = p.num_vars() - 1;
  std::vector<std::vector<std::int32_t>> out;
  std::vector<std::int32_t> v(p.lb.begin(), p.lb.begin() + n);
  Program root = p;
  root.fit_layout();
  const DeviceProgram<Kokkos::HostSpace> d(root);
  const StoreRef<false> in_root = root.store();
  std::vector<std::int32_t> lb, ub;
  std::vector<DomainWord> bits;
  for (;;) {
    lb = root.lb;
    ub = root.ub;
    bits = root.bits;
    bool in = true;
    for (int x = 0; x < n; ++x) {
      in = in && in_root.contains(x, v[std::size_t(x)]);
      lb[std::size_t(x)] = ub[std::size_t(x)] = v[std::size_t(x)];
    }
    if (in && !serial_fixpoint(d, d.store<false>(lb.data(), ub.data(), bits.data())).failed) {
      EXPECT_EQ(lb[std::size_t(n)], ub[std::size_t(n)]);
      out.push_back(lb);
    }
    int x = 0;
    while (x < n && v[std::size_t(x)] == p.ub[std::size_t(x)]) v[std::size_t(x)] = p.lb[std::size_t(x)], ++x;
    if (x == n) return out;
    ++v[std::size_t(x)];
  }
}

bool holds(const Literal& l, const std::vector<std::int32_t>& s) {
  const std::int32_t a = s[std::size_t(l.var())];
  switch (l.op()) {
    case lit_eq: return a == l.value;
    case lit_ne: return a != l.value;
    case lit_le: return a <= l.value;
    default: return a >= l.value;
  }
}

/// Every literal of nogood `g` holds in solution `s` (the nogood excludes it).
bool excludes(const std::vector<Literal>& g, const std::vector<std::int32_t>& s) {
  return std::all_of(g.begin(), g.end(), [&](const Literal& l) { return holds(l, s); });
}

/// The nogoods of a log (search/learning.hpp's format) from int `at` on, with their bounds.
std::vector<std::pair<std::vector<Literal>, std::int64_t>> read_log(const std::vector<std::int32_t>& log, std::size_t at = 0) {
  std::vector<std::pair<std::vector<Literal>, std::int64_t>> out;
  for_each_in_log(log.data() + at, std::int64_t(log.size() - at),
                  [&](const std::vector<Literal>& g, std::int64_t bound) { out.emplace_back(g, bound); });
  return out;
}

/// Checks a log against the model's solutions: no nogood excludes a solution better than the bound
/// it was learned under. Returns the nogoods read; `proofs` counts the empty ones.
int check_log(const std::vector<std::int32_t>& log, const std::vector<std::vector<std::int32_t>>& solutions,
              int objective, const std::string& where, int& proofs) {
  const auto nogoods = read_log(log);
  for (const auto& [g, bound] : nogoods) {
    proofs += g.empty() ? 1 : 0;
    for (const auto& s : solutions) {
      if (s[std::size_t(objective)] >= bound) continue;
      EXPECT_FALSE(excludes(g, s)) << where << ": a clause of " << g.size() << " literals excludes a solution of objective "
                        << s[std::size_t(objective)] << " under bound " << bound;
    }
  }
  return static_cast<int>(nogoods.size());
}

/// Stage 2 alone (search/explain.hpp): on random small models (of every family but the globals, and of
/// the global families), with bitsets and without, and restarts
/// from every conflict to every hundred: the explaining search proves the optimum brute force finds,
/// each solution it reports is one of the model's and better than the last, and no clause it learns
/// (every one, exported here, those over a machine's order literals too: against the solutions with
/// theirs) excludes a solution better than the bound it was learned under. Over all models it learned
/// from conflicts, with resolution steps, minimised explanations and lifted cumulative reasons, and
/// some had order literals; and at every fixpoint no propagator narrows further and no clause is unit or
/// false (the watches).
TEST(Explaining, EveryClauseHoldsAndTheOptimumIsProven) {
  const int models = test::quick_mode() ? 100 : 400;
  std::int64_t learned = 0, resolutions = 0, runs = 0, imported = 0, deleted = 0, family = 0, lifted = 0, ordered = 0;
  int read = 0, proofs = 0;
  for (int seed = 0; seed < models; ++seed) {
    int objective = -1;
    Program p = seed % 4 < 2 ? small_optimisation(seed, objective) : small_global_optimisation(seed, objective);
    const std::vector<std::vector<std::int32_t>> solutions = all_solutions(p);
    std::int64_t optimum = INT64_MAX;
    for (const auto& s : solutions) optimum = std::min<std::int64_t>(optimum, s[std::size_t(objective)]);
    if (seed % 2) p.give_bitsets(64);
    ExplainOptions eo;
    eo.objective = objective;
    eo.export_length = 1 << 16;
    eo.restart_base = seed % 3 == 0 ? 1 : seed % 3 == 1 ? 4 : 100;
    // Every other model is fed its own clauses back (new clauses to it) and keeps at most a few:
    // imports, their rechecks after backjumps, and deletions at restarts.
    const bool feed = seed % 2 == 0;
    if (feed) eo.max_clauses = 1 + seed % 5;
    eo.check_fixpoints = true;  // no clause left unit or false at a fixpoint (the watches)
    // Clauses over the machines' order literals are checked too, against the solutions extended by them.
    eo.export_order_literals = true;
    Program with_order = p;
    ExplainingSearch::add_order_literals(with_order, eo.order_literals);
    const std::vector<std::vector<std::int32_t>> extended = with_order_literals(with_order, p.num_vars(), solutions);
    ExplainingSearch e(p, eo);
    std::vector<std::vector<std::int32_t>> found;
    std::vector<std::int32_t> log;
    std::size_t fed = 0;
    for (int i = 0; i < 100000 && !e.finished(); ++i) {
      e.run(seed % 4 == 0 ? 1 : 64, nullptr, found, log);
      if (!feed) continue;
      std::vector<std::vector<Literal>> back;
      for (auto& [g, bound] : read_log(log, fed)) {
        // Reversed, and with two literals true at the root: long enough to be deleted.
        back.emplace_back(g.rbegin(), g.rend());
        back.back().push_back(Literal::make(objective, lit_le, 1000));
        back.back().push_back(Literal::make(objective, lit_ge, -1000));
      }
      fed = log.size();
      e.import(back);
      imported += std::int64_t(back.size());
    }
    const std::string where = "seed " + std::to_string(seed);
    EXPECT_TRUE(e.complete()) << where;
    EXPECT_EQ(e.best(), optimum) << where;
    EXPECT_EQ(e.stats().fixpoint_misses, 0) << where << " of " << e.stats().fixpoint_checks << " fixpoints";
    std::int64_t last = INT64_MAX;
    for (const auto& v : found) {
      EXPECT_LT(v[std::size_t(objective)], last) << where;
      last = v[std::size_t(objective)];
      EXPECT_NE(std::find(solutions.begin(), solutions.end(), v), solutions.end()) << where << ": not a solution";
    }
    EXPECT_EQ(last, optimum) << where;
    read += check_log(log, extended, objective, where, proofs);
    learned += e.stats().learned;
    deleted += e.stats().deleted;
    resolutions += e.stats().resolutions;
    runs += e.stats().explain_runs;
    family += e.stats().family_explanations;
    lifted += e.stats().lifted_explanations;
    ordered += e.stats().order_literals > 0 ? 1 : 0;
  }
  std::printf("explaining: %lld learned, %lld resolutions, %lld explanation runs (%lld family reasons, %lld lifted), "
              "%lld imported, %lld deleted\n",
              (long long)learned, (long long)resolutions, (long long)runs, (long long)family, (long long)lifted,
              (long long)imported, (long long)deleted);
  EXPECT_EQ(std::int64_t(read), learned + models);  // every clause, and one proof per model
  EXPECT_GT(ordered, 0);  // models with a machine got its order literals
  EXPECT_EQ(proofs, models);
  EXPECT_GT(learned, models);
  EXPECT_GT(resolutions, 0);
  EXPECT_GT(runs, 0);
  EXPECT_GT(family, 0);  // cumulatives explained by their own reasons
  EXPECT_GT(lifted, 0);   // some of them with the bounds their steps lifted
  EXPECT_GT(imported, 0);
  EXPECT_GT(deleted, 0);
}

/// Pigeonholes (n pigeons, h holes, pairwise x_i != x_j rows: weak propagation, many conflicts),
/// minimising a weighted sum: with its own clauses fed back between single steps, room for two
/// learned clauses and a restart at every conflict, the explaining search proves what brute force
/// finds (no solution when n > h), and every clause holds.
TEST(Explaining, PigeonholesWithImportsAndDeletions) {
  for (const auto& [n, h] : std::vector<std::pair<int, int>>{{5, 5}, {6, 5}, {5, 4}}) {
    Program p;
    for (int i = 0; i < n; ++i) p.add_var(0, h - 1);
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) p.add_row(LinearKind::ne, {1, -1}, {i, j}, 0);
    const int objective = p.add_var(-1000, 1000);
    std::vector<std::int32_t> cs{-1};
    std::vector<int> xs{objective};
    for (int i = 0; i < n; ++i) cs.push_back(i % 2 ? -(i + 1) : i + 1), xs.push_back(i);
    p.add_row(LinearKind::eq, cs, xs, 0);
    const std::vector<std::vector<std::int32_t>> solutions = all_solutions(p);
    std::int64_t optimum = INT64_MAX;
    for (const auto& s : solutions) optimum = std::min<std::int64_t>(optimum, s[std::size_t(objective)]);
    ExplainOptions eo;
    eo.objective = objective;
    eo.export_length = 1 << 16;
    eo.restart_base = 1;
    eo.max_clauses = 2;
    ExplainingSearch e(p, eo);
    std::vector<std::vector<std::int32_t>> found;
    std::vector<std::int32_t> log;
    std::size_t fed = 0;
    for (int i = 0; i < 1000000 && !e.finished(); ++i) {
      e.run(1, nullptr, found, log);
      std::vector<std::vector<Literal>> back;
      for (auto& [g, bound] : read_log(log, fed)) {
        back.emplace_back(g.rbegin(), g.rend());
        back.back().push_back(Literal::make(objective, lit_le, 1000));
      }
      fed = log.size();
      e.import(back);
    }
    const std::string where = std::to_string(n) + " pigeons, " + std::to_string(h) + " holes";
    EXPECT_TRUE(e.complete()) << where;
    EXPECT_EQ(e.best(), optimum) << where;
    int proofs = 0;
    check_log(log, solutions, objective, where, proofs);
    EXPECT_EQ(proofs, 1) << where;
    EXPECT_GT(e.stats().conflicts, 10) << where;
    EXPECT_GT(e.stats().deleted, 0) << where;
    EXPECT_GT(e.stats().imported, 0) << where;
  }
}

/// Value rows (b <-> a x = c, b <-> a x != c: int_eq_reif, int_ne_reif) wake on x's side only when
/// c / a leaves x's domain or becomes a bound of it (search/explain.cpp's wake_values). On random
/// channelled models — 3 or 4 variables, a Boolean per value (b <-> x = v, x != v, or 2x = 2v), at most
/// one variable per value through the Booleans, rows over x that are not value rows (3x = 3k + 1,
/// two terms), with bitsets and without — every fixpoint the explaining search reaches is one that no
/// propagator narrows further (ExplainOptions::check_fixpoints), and the optimum brute force finds is
/// proven.
TEST(Explaining, ValueRowsWakeWhereEveryChangeWould) {
  const int models = test::quick_mode() ? 30 : 120;
  std::int64_t checks = 0;
  for (int seed = 0; seed < models; ++seed) {
    std::mt19937 rng(7700 + seed);
    const int n = 3 + seed % 2, hi = 4 + seed % 3;
    Program p;
    for (int i = 0; i < n; ++i) p.add_var(0, hi);
    std::vector<std::vector<int>> of_value(std::size_t(hi) + 1);
    for (int i = 0; i < n; ++i)
      for (int v = 0; v <= hi; ++v) {
        const int b = p.add_var(0, 1);
        switch (rng() % 3) {
          case 0: p.add_row(LinearKind::eq, {1}, {i}, v, b, Reification::equivalent); break;
          case 1: {  // b <-> x = v as 1 - b <-> x != v
            const int nb = p.add_var(0, 1);
            p.add_row(LinearKind::eq, {1, 1}, {b, nb}, 1);
            p.add_row(LinearKind::ne, {1}, {i}, v, nb, Reification::equivalent);
            break;
          }
          default: p.add_row(LinearKind::eq, {2}, {i}, 2 * v, b, Reification::equivalent);
        }
        of_value[std::size_t(v)].push_back(b);
      }
    for (int v = 0; v <= hi; ++v)
      p.add_row(LinearKind::le, std::vector<std::int32_t>(of_value[std::size_t(v)].size(), 1), of_value[std::size_t(v)], 1);
    const int odd = p.add_var(0, 1);  // 3 x0 = 3 k + 1 never holds: not a value row (c / a not whole)
    p.add_row(LinearKind::eq, {3}, {0}, 3 * (1 + seed % 3) + 1, odd, Reification::equivalent);
    p.add_row(LinearKind::eq, {1}, {odd}, 0);
    const int sum_b = p.add_var(0, 1);  // b <-> x0 + x1 = hi, two terms
    p.add_row(LinearKind::eq, {1, 1}, {0, 1}, hi, sum_b, Reification::equivalent);
    std::vector<std::int32_t> weight(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) weight[std::size_t(i)] = (i % 2 ? -1 : 1) * int(1 + rng() % 5);
    const int objective = p.add_var(-1000, 1000);
    std::vector<std::int32_t> cs{-1};
    std::vector<int> xs{objective};
    for (int i = 0; i < n; ++i) cs.push_back(weight[std::size_t(i)]), xs.push_back(i);
    p.add_row(LinearKind::eq, cs, xs, 0);
    // Brute force over the x: pairwise different, the Booleans follow.
    std::int64_t optimum = INT64_MAX;
    std::vector<int> x(std::size_t(n), 0);
    for (std::int64_t code = 0, total = std::llround(std::pow(hi + 1, n)); code < total; ++code) {
      std::int64_t c = code, obj = 0;
      for (int i = 0; i < n; ++i) x[std::size_t(i)] = int(c % (hi + 1)), c /= hi + 1;
      bool ok = true;
      for (int i = 0; i < n && ok; ++i)
        for (int j = i + 1; j < n && ok; ++j) ok = x[std::size_t(i)] != x[std::size_t(j)];
      if (!ok) continue;
      for (int i = 0; i < n; ++i) obj += std::int64_t(weight[std::size_t(i)]) * x[std::size_t(i)];
      optimum = std::min(optimum, obj);
    }
    if (seed % 2) p.give_bitsets(64);
    ExplainOptions eo;
    eo.objective = objective;
    eo.restart_base = seed % 3 == 0 ? 1 : 100;
    eo.check_fixpoints = true;
    ExplainingSearch e(p, eo);
    std::vector<std::vector<std::int32_t>> found;
    std::vector<std::int32_t> log;
    for (int i = 0; i < 100000 && !e.finished(); ++i) e.run(seed % 4 == 0 ? 1 : 64, nullptr, found, log);
    const std::string where = "seed " + std::to_string(seed);
    EXPECT_TRUE(e.complete()) << where;
    EXPECT_EQ(e.best(), optimum) << where;
    EXPECT_EQ(e.stats().fixpoint_misses, 0) << where << " of " << e.stats().fixpoint_checks << " fixpoints";
    checks += e.stats().fixpoint_checks;
  }
  EXPECT_GT(checks, 10 * models);
}

/// Every solution (satisfaction, ExplainOptions::all_solutions) on the random small models, with
/// bitsets and without, restarts from every conflict to every hundred, and every other model with
/// room for a few clauses only (deletions at restarts, which keep the blocking nogoods): each solution
/// brute force finds is reported once, nothing else is, the search ends complete with the proof, and
/// no clause excludes a solution not reported before the clause was logged.
TEST(Explaining, EverySolutionOnceAndNoClauseExcludesAnotherOne) {
  const int models = test::quick_mode() ? 60 : 200;
  std::int64_t learned = 0, deleted = 0, restarts = 0, imported = 0;
  // Random small models, then pigeonholes whose weighted sum is fixed to a value few placements reach
  // (bounds only: many conflicts), restarting at every conflict with room for two clauses.
  std::vector<std::pair<Program, int>> ps;
  for (int seed = 0; seed < models; ++seed) {
    int objective = -1;
    ps.emplace_back(seed % 4 < 2 ? small_optimisation(seed, objective) : small_global_optimisation(seed, objective), seed);
  }
  for (const auto& [n, h] : std::vector<std::pair<int, int>>{{5, 5}, {6, 6}, {6, 5}}) {
    Program p;
    for (int i = 0; i < n; ++i) p.add_var(0, h - 1);
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) p.add_row(LinearKind::ne, {1, -1}, {i, j}, 0);
    const int sum = p.add_var(n + 1, n + 1);
    std::vector<std::int32_t> cs{-1};
    std::vector<int> xs{sum};
    for (int i = 0; i < n; ++i) cs.push_back(i % 2 ? -(i + 1) : i + 1), xs.push_back(i);
    p.add_row(LinearKind::eq, cs, xs, 0);
    ps.emplace_back(p, -2);  // even: fed, no bitsets
  }
  for (auto& [p, seed] : ps) {
    std::vector<std::vector<std::int32_t>> solutions = all_solutions(p);
    const int last_var = p.num_vars() - 1;
    if (seed % 2) p.give_bitsets(64);
    ExplainOptions eo;
    eo.all_solutions = true;
    eo.export_length = 1 << 16;
    eo.restart_base = seed < 0 || seed % 3 == 0 ? 1 : seed % 3 == 1 ? 4 : 100;
    // Every other model keeps a few clauses only and is fed its own back, lengthened by two literals
    // true at the root (deleted at restarts, the blocking nogoods kept).
    const bool feed = seed % 2 == 0;
    if (feed) eo.max_clauses = seed < 0 ? 2 : 1 + seed % 5;
    ExplainingSearch e(p, eo);
    std::vector<std::vector<std::int32_t>> found;
    std::vector<std::int32_t> log;
    const std::string where = seed < 0 ? "pigeonholes of " + std::to_string(last_var) : "seed " + std::to_string(seed);
    for (int i = 0; i < 1000000 && !e.finished(); ++i) {
      const std::size_t at = log.size();
      e.run(seed % 4 == 0 ? 1 : 16, nullptr, found, log);
      // The clauses of this step, against the solutions not reported by its end.
      std::vector<std::vector<Literal>> back;
      for (const auto& [g, bound] : read_log(log, at)) {
        EXPECT_EQ(bound, INT64_MAX) << where;
        for (const auto& sol : solutions) {
          if (std::find(found.begin(), found.end(), sol) != found.end()) continue;
          EXPECT_FALSE(excludes(g, sol))
              << where << ": a clause of " << g.size() << " literals excludes a solution not found yet";
        }
        back.emplace_back(g.rbegin(), g.rend());
        back.back().push_back(Literal::make(last_var, lit_le, p.ub[std::size_t(last_var)]));
        back.back().push_back(Literal::make(last_var, lit_ge, p.lb[std::size_t(last_var)]));
      }
      if (feed) e.import(back);
    }
    EXPECT_TRUE(e.complete()) << where;
    EXPECT_EQ(e.stats().solutions, std::int64_t(found.size())) << where;
    std::sort(found.begin(), found.end());
    std::sort(solutions.begin(), solutions.end());
    EXPECT_EQ(found, solutions) << where;  // each once
    learned += e.stats().learned;
    deleted += e.stats().deleted;
    restarts += e.stats().restarts;
    imported += e.stats().imported;
  }
  std::printf("every solution: %lld learned, %lld restarts, %lld imported, %lld deleted\n", (long long)learned,
              (long long)restarts, (long long)imported, (long long)deleted);
  EXPECT_GT(learned, models);
  EXPECT_GT(deleted, 0);
}

template <class Space>
class LearningOnBackend : public ::testing::Test {};
TYPED_TEST_SUITE(LearningOnBackend, test::Backends, test::BackendName);

/// On random small models, with learning on (restarts, every run, one or three explaining threads beside; one
/// team alternating, several, the host's rows beside; runs from the root only, neighbourhoods, or a
/// share of restarts beside them): the optimum complete search proves, proven; every solution improving; and no
/// nogood learned excludes a solution better than the bound it was learned under (brute force over
/// the model's solutions). Over all runs nogoods were learned, propagated and ended searches as proofs.
TYPED_TEST(LearningOnBackend, EveryNogoodHoldsAndTheOptimumIsProven) {
  struct Shape {
    int teams;
    LearnMode learn;
    bool lns;
    double restart_share;
    int host_teams;
    int explain_threads = explain_threads_auto;
  };
  const std::vector<Shape> shapes{{1, LearnMode::restart, false, 0, 0},
                                  {2, LearnMode::all, true, 0, 0},
                                  {3, LearnMode::restart, true, 0.5, 0},
                                  {4, LearnMode::all, true, 0.3, 1},
                                  {2, LearnMode::explain, true, 0.2, 0},
                                  {1, LearnMode::explain, false, 0, 0, 3}};
  const int models = test::quick_mode() ? 12 : 40;
  std::int64_t learned = 0, propagations = 0, proofs = 0, checked = 0;
  for (int seed = 0; seed < models; ++seed) {
    int objective = -1;
    const Program p = small_optimisation(seed, objective);
    const std::vector<std::vector<std::int32_t>> solutions = all_solutions(p);
    std::int64_t optimum = INT64_MAX;
    for (const auto& s : solutions) optimum = std::min<std::int64_t>(optimum, s[std::size_t(objective)]);
    for (const Shape& shape : shapes) {
      SearchOptions o;
      o.objective = objective;
      o.probe_s = 0;
      o.teams = shape.teams;
      o.portfolio = 0.5;
      o.restart_base = 1;
      o.lns = shape.lns;
      o.restart_share = shape.restart_share;
      o.host_teams = shape.host_teams;
      o.learn = shape.learn;
      o.explain_threads = shape.explain_threads;
      o.slice_nodes = 2;
      o.seed = std::uint64_t(seed);
      const std::string where = "seed " + std::to_string(seed) + ", " + std::to_string(shape.teams) + " teams";
      o.on_nogood = [&](const std::vector<Literal>& g, std::int64_t bound) {
        ++checked;
        for (const auto& s : solutions) {
          if (s[std::size_t(objective)] >= bound) continue;
          EXPECT_FALSE(excludes(g, s)) << where << ": a nogood of " << g.size() << " literals excludes a solution of objective "
                            << s[std::size_t(objective)] << " under bound " << bound;
        }
      };
      std::int64_t last = INT64_MAX;
      bool improving = true;
      const SearchReport r = search<TypeParam>(p, o, [&](const std::vector<std::int32_t>& v) {
        improving = improving && v[std::size_t(objective)] < last;
        last = v[std::size_t(objective)];
        return true;
      });
      EXPECT_TRUE(r.complete) << where;
      EXPECT_EQ(r.best, optimum) << where;
      EXPECT_TRUE(improving) << where;
      EXPECT_LE(r.nogoods_kept, r.nogoods_learned) << where;
      if (shape.learn == LearnMode::explain) {
        if (shape.explain_threads != explain_threads_auto) {
          EXPECT_EQ(r.explain_threads, shape.explain_threads) << where;
        } else {
          EXPECT_GE(r.explain_threads, 1) << where;
        }
      }
      learned += r.nogoods_learned;
      propagations += r.nogood_propagations + r.nogood_failures;
      proofs += r.proved_by_nogood ? 1 : 0;
    }
  }
  EXPECT_EQ(checked, learned);
  EXPECT_GT(learned, models);
  EXPECT_GT(propagations, 0);
  EXPECT_GT(proofs, 0);
}

/// Satisfaction with -a and explaining searches (one or three) beside one or two teams, slices of two
/// nodes: every solution once (the fleet's and the threads' meet in the driver), the search complete,
/// and no nogood excluding a solution not yet handed over. Also with a sieve of one byte, where the
/// threads stop at their first handed-over solution and the fleet finishes alone. Over all runs the
/// threads' proofs ended searches, and handed solutions over.
TYPED_TEST(LearningOnBackend, AllSolutionsWithExplainingSearches) {
  const int models = test::quick_mode() ? 12 : 40;
  std::int64_t proofs = 0, explained = 0;
  for (int seed = 0; seed < models; ++seed) {
    int objective = -1;
    const Program p = seed % 2 ? small_optimisation(seed, objective) : small_global_optimisation(seed, objective);
    std::vector<std::vector<std::int32_t>> solutions = all_solutions(p);
    std::sort(solutions.begin(), solutions.end());
    for (int shape = 0; shape < 3; ++shape) {
      SearchOptions o;
      o.max_solutions = 0;
      o.probe_s = 0;
      o.teams = 1 + shape % 2;
      o.slice_nodes = 2;
      o.learn = LearnMode::explain;
      o.explain_threads = shape == 1 ? 3 : 1;
      if (shape == 2) o.explain_solution_bytes = 1;
      const std::string where = "seed " + std::to_string(seed) + ", shape " + std::to_string(shape);
      std::vector<std::vector<std::int32_t>> got;
      o.on_nogood = [&](const std::vector<Literal>& g, std::int64_t) {
        for (const auto& sol : solutions) {
          if (std::find(got.begin(), got.end(), sol) != got.end()) continue;
          EXPECT_FALSE(excludes(g, sol))
              << where << ": a nogood of " << g.size() << " literals excludes a solution not handed over";
        }
      };
      const SearchReport r =
          search<TypeParam>(p, o, [&](const std::vector<std::int32_t>& v) { return got.push_back(v), true; });
      EXPECT_TRUE(r.complete) << where;
      EXPECT_GE(r.explain_threads, 1) << where;
      std::sort(got.begin(), got.end());
      EXPECT_EQ(got, solutions) << where;  // each once
      proofs += r.proved_by_nogood ? 1 : 0;
      explained += r.explain_nodes > 0 ? 1 : 0;
    }
  }
  EXPECT_GT(proofs, 0);
  EXPECT_GT(explained, 0);
}

/// Satisfaction under a solution limit (1 and 3), slices of two nodes. By default the explaining search
/// stays off: the solutions are those the search without learning gives, in its order. Free search
/// (ordered_solutions off): it runs beside, and the solutions are distinct solutions of the model, as
/// many as asked; over all runs some came from it first.
TYPED_TEST(LearningOnBackend, UnderASolutionLimitTheOrderStaysUnlessTheSearchIsFree) {
  const int models = test::quick_mode() ? 12 : 40;
  constexpr bool gpu = on_gpu<TypeParam>();
  for (int seed = 0; seed < models; ++seed) {
    int objective = -1;
    const Program p = seed % 2 ? small_optimisation(seed, objective) : small_global_optimisation(seed, objective);
    const std::vector<std::vector<std::int32_t>> solutions = all_solutions(p);
    for (const std::int64_t limit : {1, 3}) {
      const std::string where = "seed " + std::to_string(seed) + ", -n " + std::to_string(limit);
      SearchOptions o;
      o.max_solutions = limit;
      o.probe_s = 0;
      o.teams = 2;
      o.slice_nodes = 2;
      const auto run = [&](SearchOptions so, std::vector<std::vector<std::int32_t>>& got) {
        return search<TypeParam>(p, so, [&](const std::vector<std::int32_t>& v) { return got.push_back(v), true; });
      };
      std::vector<std::vector<std::int32_t>> plain, ordered, free;
      o.learn = LearnMode::none;
      run(o, plain);
      o.learn = LearnMode::explain;
      const SearchReport r = run(o, ordered);
      EXPECT_EQ(ordered, plain) << where;
      // Asked for one solution the explaining searches run to prove unsatisfiability only (their clauses
      // cut no solution: the order stays); asked for several, not at all.
      EXPECT_EQ(r.explain_threads,
                limit == 1 ? explain_threads_for(gpu, Kokkos::DefaultHostExecutionSpace().concurrency()) : 0)
          << where;
      o.ordered_solutions = false;
      const SearchReport f = run(o, free);
      // One explaining search on the host's backends; beside a GPU one per four host threads.
      EXPECT_EQ(f.explain_threads, explain_threads_for(gpu, Kokkos::DefaultHostExecutionSpace().concurrency())) << where;
      EXPECT_EQ(std::int64_t(free.size()), std::min<std::int64_t>(limit, std::int64_t(solutions.size()))) << where;
      for (const auto& v : free)
        EXPECT_NE(std::find(solutions.begin(), solutions.end(), v), solutions.end()) << where << ": not a solution";
      EXPECT_EQ(std::set<std::vector<std::int32_t>>(free.begin(), free.end()).size(), free.size()) << where;
    }
  }
}

/// FlatZinc for every k-subset of 1..n in strictly decreasing order of its characteristic vector (read
/// as a binary number): one solution, which a search in input order without learning reaches only after
/// millions of nodes for n = 7, k = 3, and the explaining search after a few hundred conflicts
/// (MiniZinc's general/test_set_lt_1, the set order written over Booleans, is of this kind).
std::string ordered_subsets_fzn(int n, int k) {
  int m = 1;
  for (int i = 0; i < k; ++i) m = m * (n - i) / (i + 1);
  const auto x = [](int i, int j) { return "x" + std::to_string(i) + "_" + std::to_string(j); };
  std::string f;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) f += "var 0..1: " + x(i, j) + " :: output_var;\n";
  for (int i = 0; i < m; ++i) {
    std::string ones, vars;
    for (int j = 0; j < n; ++j) ones += (j ? ",1" : "1"), vars += (j ? "," : "") + x(i, j);
    f += "constraint int_lin_eq([" + ones + "],[" + vars + "]," + std::to_string(k) + ");\n";
  }
  for (int i = 0; i + 1 < m; ++i) {  // value(i + 1) - value(i) <= -1
    std::string coefficients, vars;
    for (int side = 0; side < 2; ++side)
      for (int j = 0; j < n; ++j) {
        const std::string sep = side || j ? "," : "";
        coefficients += sep + std::to_string((side ? -1 : 1) * (1 << (n - 1 - j)));
        vars += sep + x(side ? i : i + 1, j);
      }
    f += "constraint int_lin_le([" + coefficients + "],[" + vars + "],-1);\n";
  }
  return f + "solve satisfy;\n";
}

/// Free search under a solution limit hands over the explaining search's solution when it comes first.
/// Without learning, the fleet here searches millions of nodes before its first solution (this VM,
/// OpenMP: over 7M nodes and 10 s with none, free or not); the explaining search finds it after ~240
/// conflicts (0.06 s). So the solution handed over is the thread's on every backend, with a margin of
/// two orders of magnitude and no dependence on timing. The time limit only keeps a defect from hanging.
TYPED_TEST(LearningOnBackend, FreeSearchHandsOverTheExplainingSearchsSolution) {
  const fzn::Model model = fzn::parse_string(ordered_subsets_fzn(7, 3), "ordered_subsets.fzn");
  const Compiled c = compile(model);
  SearchOptions o;
  o.max_solutions = 1;
  o.ordered_solutions = false;
  o.learn = LearnMode::explain;
  o.teams = 2;
  o.probe_s = 0;
  o.time_limit_s = 120;
  int solutions = 0;
  const SearchReport r = search<TypeParam>(c.program, o, [&](const std::vector<std::int32_t>& store) {
    const fzn::CheckResult check = fzn::check_solution(model, model_values(c, store));
    EXPECT_TRUE(check.ok) << check.message;
    return ++solutions, true;
  });
  EXPECT_EQ(solutions, 1);
  EXPECT_EQ(r.solutions_explain, 1);
  EXPECT_GE(r.explain_threads, 1);
}

/// The same model asked for the first solution in the annotations' order: the explaining searches
/// run to prove only, and their solution, which the teams are far from matching, is handed over once
/// SearchOptions::ordered_wait_s has passed, not before.
TYPED_TEST(LearningOnBackend, InOrderTheExplainingSearchsSolutionComesAfterTheWait) {
  const fzn::Model model = fzn::parse_string(ordered_subsets_fzn(7, 3), "ordered_subsets.fzn");
  const Compiled c = compile(model);
  SearchOptions o;
  o.max_solutions = 1;
  o.learn = LearnMode::explain;
  o.ordered_wait_s = 1.5;
  o.teams = 2;
  o.probe_s = 0;
  o.time_limit_s = 120;
  int solutions = 0;
  const auto start = std::chrono::steady_clock::now();
  double at = 0;
  const SearchReport r = search<TypeParam>(c.program, o, [&](const std::vector<std::int32_t>& store) {
    at = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const fzn::CheckResult check = fzn::check_solution(model, model_values(c, store));
    EXPECT_TRUE(check.ok) << check.message;
    return ++solutions, true;
  });
  EXPECT_EQ(solutions, 1);
  EXPECT_EQ(r.solutions_explain, 1);
  EXPECT_GE(at, o.ordered_wait_s);
}

/// Satisfaction asked to learn: the same solutions, in the same order, as without.
TYPED_TEST(LearningOnBackend, SatisfactionIsUntouched) {
  for (int seed = 0; seed < 8; ++seed) {
    int objective = -1;
    const Program p = small_optimisation(seed, objective);
    SearchOptions o;
    o.max_solutions = 0;
    o.teams = 2;
    o.probe_s = 0;
    std::vector<std::vector<std::int32_t>> a, b;
    o.learn = LearnMode::none;
    search<TypeParam>(p, o, [&](const std::vector<std::int32_t>& v) { return a.push_back(v), true; });
    o.learn = LearnMode::all;
    const SearchReport r = search<TypeParam>(p, o, [&](const std::vector<std::int32_t>& v) { return b.push_back(v), true; });
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    EXPECT_EQ(a, b) << "seed " << seed;
    EXPECT_EQ(r.nogoods_learned, 0);
  }
}

}  // namespace
}  // namespace kcp
