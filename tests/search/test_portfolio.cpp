// The portfolio (search/modes.hpp): free rows running restarts and LNS beside the complete subproblem
// search. What it must keep: the optimum complete search proves, proven the same way (only complete
// rows end the search); every reported solution a solution, each improving the last; satisfaction
// untouched; the same run under a fixed seed on Serial; stopping at the time limit and on a signal;
// the host's rows beside the fleet (SearchOptions::host_teams) and solution phase saving likewise.
#include "search/solve.hpp"

#include "domains/fixpoint.hpp"
#include "search/modes.hpp"
#include "search/parallel_search.hpp"
#include "tests/backends.hpp"
#include "tests/random_programs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <random>
#include <vector>

namespace kcp {
namespace {

/// A random network of every family with an objective: a weighted sum of its first variables.
Program random_optimisation(int seed, int& objective) {
  std::mt19937 rng(9100 + seed);
  Program p = test::random_network(rng, 8 + seed % 6, seed % 3, 1 + seed % 3, seed % 2, 7);
  const int terms = std::min(p.num_vars(), 4 + seed % 5);
  objective = p.add_var(-10000, 10000);
  std::vector<std::int32_t> cs{-1};
  std::vector<int> xs{objective};
  for (int x = 0; x < terms; ++x) {
    cs.push_back((x % 2 ? -1 : 1) * (1 + (seed + x) % 3));
    xs.push_back(x);
  }
  p.add_row(LinearKind::eq, cs, xs, 0);
  return p;
}

/// Whether `values` satisfies every propagator of p (a sound propagator fails on a fixed store
/// exactly when it is violated).
bool satisfies(Program p, const std::vector<std::int32_t>& values) {
  for (int x = 0; x < p.num_vars(); ++x) {
    if (!p.store().contains(x, values[std::size_t(x)])) return false;
    p.lb[std::size_t(x)] = p.ub[std::size_t(x)] = values[std::size_t(x)];
  }
  const DeviceProgram<Kokkos::HostSpace> d(p);
  return !serial_fixpoint(d, p.store()).failed;
}

struct Run {
  SearchReport report;
  std::vector<std::vector<std::int32_t>> solutions;
  bool all_valid = true, improving = true;
};

/// One team searching completely (no free rows): the reference run a portfolio's must agree with.
SearchOptions complete_search(int objective, LearnMode learn) {
  SearchOptions o;
  o.objective = objective;
  o.teams = 1;
  o.portfolio = 0;
  o.learn = learn;
  return o;
}

template <class Space>
Run run(const Program& p, SearchOptions o) {
  Run r;
  std::int64_t last = INT64_MAX;
  o.probe_s = 0;
  r.report = search<Space>(p, o, [&](const std::vector<std::int32_t>& values) {
    r.all_valid = r.all_valid && satisfies(p, values);
    if (o.objective >= 0) {
      r.improving = r.improving && values[std::size_t(o.objective)] < last;
      last = values[std::size_t(o.objective)];
    }
    r.solutions.push_back(values);
    return true;
  });
  return r;
}

/// The values of x (the program's only variable) left in q's store within [from, to]; none once its
/// bounds cross.
std::vector<std::int64_t> values_in(Program& q, int x, std::int64_t from, std::int64_t to) {
  std::vector<std::int64_t> out;
  for (std::int64_t v = from; v <= to; ++v)
    if (q.lb[std::size_t(x)] <= q.ub[std::size_t(x)] && q.store().contains(x, v)) out.push_back(v);
  return out;
}

/// Solution phase saving (search/branching.hpp's branch_towards): the first branch keeps the guide's
/// value and reaches x = g within two decisions; the two branches partition x's domain, with a bitset
/// and without, for every value of the domain as the guide.
TEST(Portfolio, PhaseSavingBranchesTowardsTheGuideAndPartitions) {
  using Search = ParallelSearch<Kokkos::DefaultHostExecutionSpace, false, true>;
  for (const bool bits : {false, true}) {
    Program p;
    const int x = p.add_var(3, 11);
    if (bits) p.give_bitsets(64);
    p.store().remove(x, 6);  // a hole (kept with a bitset only)
    const std::vector<std::int64_t> root = values_in(p, x, 3, 11);
    for (const std::int64_t g : root) {
      const Decision d = decision_of(branch_towards(p.store(), x, static_cast<std::int32_t>(g)));
      Program left = p, right = p;
      int st = 0;
      Search::apply(d, false, left.store(), st);
      Search::apply(d, true, right.store(), st);
      std::vector<std::int64_t> both = values_in(left, x, 3, 11), r = values_in(right, x, 3, 11);
      const std::string where = (bits ? "bitset, g = " : "bounds, g = ") + std::to_string(g);
      EXPECT_TRUE(std::find(both.begin(), both.end(), g) != both.end()) << where;
      EXPECT_TRUE(std::find(r.begin(), r.end(), g) == r.end()) << where;
      both.insert(both.end(), r.begin(), r.end());
      std::sort(both.begin(), both.end());
      EXPECT_EQ(both, root) << where;  // disjoint and covering
      if (left.lb[0] != left.ub[0]) {  // a second decision on x takes x = g
        const Decision d2 = decision_of(branch_towards(left.store(), x, static_cast<std::int32_t>(g)));
        Search::apply(d2, false, left.store(), st);
        EXPECT_EQ(left.lb[0], g) << where;
        EXPECT_EQ(left.ub[0], g) << where;
      }
      if (bits) {
        EXPECT_EQ(left.lb[0], left.ub[0]) << where;  // x = g at once
      }
    }
  }
}

/// Halved subproblem paths (search/branching.hpp's halve): the two branches partition x's domain into
/// halves by count (the first at most one value larger or smaller), with a bitset and without, and the
/// half first explored holds the end the branch it replaces took first.
TEST(Portfolio, HalvesPartitionTheDomainEvenlyInTheBranchsDirection) {
  using Search = ParallelSearch<Kokkos::DefaultHostExecutionSpace, false, true>;
  for (const bool bits : {false, true}) {
    for (const int hi : {5, 11, 12}) {
      Program p;
      const int x = p.add_var(3, hi);
      if (bits) p.give_bitsets(64);
      p.store().remove(x, 4);  // a hole (kept with a bitset only)
      const std::vector<std::int64_t> root = values_in(p, x, 3, hi);
      const std::int32_t lo = p.lb[0], top = p.ub[0];
      // Branches as the phases make them, each with whether its first branch takes the top end first:
      // x = lo | x > lo, x = hi | x < hi, x = lo | x != lo, x = hi | x != hi, x != lo | x = lo.
      const std::pair<Branch, bool> branches[] = {{{x, lo, top, lo, false, decide_split}, false},
                                                  {{x, lo, top, top - 1, true, decide_split}, true},
                                                  {{x, lo, top, lo, false, decide_value}, false},
                                                  {{x, lo, top, top, false, decide_value}, true},
                                                  {{x, lo, top, lo, true, decide_value}, true}};
      for (const auto& [b, high_first] : branches) {
        const Decision d = decision_of(halve(p.store(), b));
        Program first = p, second = p;
        int st = 0;
        Search::apply(d, false, first.store(), st);
        Search::apply(d, true, second.store(), st);
        const std::vector<std::int64_t> a = values_in(first, x, 3, hi), c = values_in(second, x, 3, hi);
        const std::string where = std::string(bits ? "bitset" : "bounds") + ", 3.." + std::to_string(hi) +
                                  ", branch v = " + std::to_string(b.v) + (b.reversed ? " reversed" : "") +
                                  (b.kind == decide_value ? " (value)" : " (split)");
        ASSERT_FALSE(a.empty()) << where;
        ASSERT_FALSE(c.empty()) << where;
        EXPECT_LE(std::abs(std::int64_t(a.size()) - std::int64_t(c.size())), 1) << where;
        std::vector<std::int64_t> both = a;
        both.insert(both.end(), c.begin(), c.end());
        std::sort(both.begin(), both.end());
        EXPECT_EQ(both, root) << where;  // disjoint and covering
        // The first half holds the end the phase's first branch took first.
        EXPECT_EQ(high_first ? a.back() : a.front(), high_first ? std::int64_t(top) : std::int64_t(lo)) << where;
      }
    }
  }
}

/// LNS neighbourhoods (FreeRuns::start): each fixes a random share of the neighbourhood variables
/// (about the share the fix permille says, a different set each run), each fixing the incumbent's
/// value, as a value decision on the prefix.
TEST(Portfolio, NeighbourhoodsFixARandomShareAtTheIncumbentsValues) {
  const int n = 400;
  SearchState<Kokkos::HostSpace> state(1, n + 1, 1024);
  for (int x = 0; x < n + 1; ++x) state.incumbent(x) = 100 + x;
  state.incumbent(n + 1) = 1;  // holds a solution
  std::vector<std::int32_t> vars;
  for (int x = 0; x < n; ++x) vars.push_back(x);  // the objective (n) is not among them
  FreeRuns<Kokkos::HostSpace> f;
  f.vars = detail::upload<std::int32_t, Kokkos::HostSpace>("vars", vars);
  f.seed = 5;
  const auto ts = Kokkos::subview(state.team, 0, Kokkos::ALL());
  const auto decisions = Kokkos::subview(state.decisions, 0, Kokkos::ALL());
  std::vector<char> before;
  int differing = 0;
  for (int run = 0; run < 12; ++run) {
    f.start(state, 0, ts, decisions, n + 1);
    const int depth = static_cast<int>(ts(team_prefix));
    std::vector<char> fixed(std::size_t(n), 0);
    for (int d = 0; d < depth; ++d) {
      const Decision& dec = decisions(d);
      ASSERT_GE(dec.var, 0);
      ASSERT_LT(dec.var, n);
      EXPECT_EQ(dec.v, 100 + dec.var);
      EXPECT_EQ(dec.kind, decide_value);
      fixed[std::size_t(dec.var)] = 1;
    }
    const double share = double(ts(team_fix_permille)) / 1000;
    EXPECT_NEAR(double(depth) / n, share, 0.1) << "run " << run;
    differing += !before.empty() && fixed != before;
    before = fixed;
    f.end(ts, run % 3 == 0);  // the share moves: exhausted runs fix less, cut ones more
  }
  EXPECT_EQ(differing, 11);
}

TEST(Portfolio, LubySequence) {
  const std::vector<std::int64_t> expected{1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 1};
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(luby(std::int64_t(i) + 1), expected[i]) << i + 1;
  FreeRuns<Kokkos::HostSpace> f;
  f.base = 10;
  f.sequence = RestartSequence::geometric;
  EXPECT_EQ(f.limit(1), 10);
  EXPECT_EQ(f.limit(2), 15);
  EXPECT_EQ(f.limit(3), 22);
  f.sequence = RestartSequence::luby;
  EXPECT_EQ(f.limit(7), 40);
}

template <class Space>
class PortfolioOnBackend : public ::testing::Test {};
TYPED_TEST_SUITE(PortfolioOnBackend, test::Backends, test::BackendName);

/// Random models whose optimum complete search proves: every portfolio shape reaches and proves the
/// same optimum, each solution valid and improving; over all of them, neighbourhoods ran and found
/// improvements (the portfolio is not inert).
TYPED_TEST(PortfolioOnBackend, ReachesAndProvesTheOptimumOfCompleteSearch) {
  struct Shape {
    int teams;
    double share;
    RestartSequence sequence;
    std::int64_t base;
    bool lns;
    bool phase_saving;
    int host_teams;
  };
  const std::vector<Shape> shapes{{1, 0.5, RestartSequence::luby, 1, true, true, 0},
                                  {2, 0.5, RestartSequence::luby, 2, true, false, 0},
                                  {4, 0.75, RestartSequence::geometric, 1, true, true, 0},
                                  {3, 0.5, RestartSequence::luby, 1, false, true, 0},
                                  {1, 0.5, RestartSequence::luby, 1, true, true, 2},
                                  {3, 0.5, RestartSequence::luby, 2, true, true, 1}};
  const int models = test::quick_mode() ? 15 : 60;
  std::int64_t neighbourhoods = 0, free_improvements = 0, optimised = 0, host_nodes = 0;
  for (int seed = 0; seed < models; ++seed) {
    int objective = -1;
    const Program p = random_optimisation(seed, objective);
    // The portfolio's own rows (learning from restarts): the explaining thread beside them
    // (search/explain.hpp) would find most of these small models' solutions first.
    SearchOptions o = complete_search(objective, LearnMode::restart);
    const Run reference = run<Kokkos::Serial>(p, o);
    ASSERT_TRUE(reference.report.complete) << "seed " << seed;
    ASSERT_TRUE(reference.all_valid && reference.improving) << "seed " << seed;
    if (reference.report.solutions > 0) ++optimised;
    for (const Shape& shape : shapes) {
      SearchOptions f = o;
      f.teams = shape.teams;
      f.portfolio = shape.share;
      f.restart = shape.sequence;
      f.restart_base = shape.base;
      f.lns = shape.lns;
      f.phase_saving = shape.phase_saving;
      f.host_teams = shape.host_teams;
      f.seed = std::uint64_t(seed);
      f.slice_nodes = 3;  // many launches: the incumbent reaches the free rows early
      const Run r = run<TypeParam>(p, f);
      const std::string where = "seed " + std::to_string(seed) + ", " + std::to_string(shape.teams) + " teams, share " +
                                std::to_string(shape.share) + ", host teams " + std::to_string(shape.host_teams);
      EXPECT_TRUE(r.report.complete) << where;
      EXPECT_EQ(r.report.best, reference.report.best) << where;
      EXPECT_TRUE(r.all_valid) << where;
      EXPECT_TRUE(r.improving) << where;
      EXPECT_EQ(r.report.free_teams, shape.host_teams + (shape.teams == 1 ? 1 : std::clamp(int(std::lround(shape.teams * shape.share)), 1, shape.teams - 1)))
          << where;
      EXPECT_EQ(r.report.host_teams, shape.host_teams) << where;
      EXPECT_LE(r.report.host_nodes, r.report.nodes) << where;
      if (shape.host_teams == 0) {
        EXPECT_EQ(r.report.host_nodes, 0) << where;
      }
      EXPECT_LE(r.report.improvements_host, r.report.improvements_lns + r.report.improvements_restart) << where;
      host_nodes += r.report.host_nodes;
      if (!shape.lns) {
        EXPECT_EQ(r.report.neighbourhoods, 0) << where;
      }
      neighbourhoods += r.report.neighbourhoods;
      free_improvements += r.report.improvements_lns + r.report.improvements_restart;
      EXPECT_EQ(r.report.improvements_complete + r.report.improvements_lns + r.report.improvements_restart +
                    r.report.improvements_explain,
                r.report.solutions)
          << where;
    }
  }
  EXPECT_GT(optimised, models / 3);
  EXPECT_GT(neighbourhoods, 0);
  EXPECT_GT(free_improvements, 0);
  EXPECT_GT(host_nodes, 0);
}

/// Satisfaction keeps the complete search alone: the same solutions, none twice, with a portfolio asked for.
TYPED_TEST(PortfolioOnBackend, SatisfactionSearchesCompletelyOnly) {
  for (int seed = 0; seed < 10; ++seed) {
    int objective = -1;
    const Program p = random_optimisation(seed, objective);
    SearchOptions o;
    o.max_solutions = 200;
    o.teams = 1;
    o.portfolio = 0;
    const Run reference = run<Kokkos::Serial>(p, o);
    o.teams = 3;
    o.portfolio = 0.5;
    o.slice_nodes = 3;
    const Run r = run<TypeParam>(p, o);
    EXPECT_EQ(r.report.free_teams, 0);
    EXPECT_EQ(r.solutions, reference.solutions) << "seed " << seed;  // in the sequential order
    EXPECT_EQ(r.report.complete, reference.report.complete) << "seed " << seed;
  }
}

/// The default share of free teams: half on the host's backends, a quarter on a GPU (its teams share
/// its SMs: perf/NOTES.md entry 34); the optimum is the complete search's either way.
TYPED_TEST(PortfolioOnBackend, DefaultShareIsHalfOnTheHostAndAQuarterOnAGpu) {
  constexpr bool gpu = on_gpu<TypeParam>();
  for (int seed = 0; seed < 5; ++seed) {
    int objective = -1;
    const Program p = random_optimisation(seed, objective);
    SearchOptions o = complete_search(objective, LearnMode::none);
    const Run reference = run<Kokkos::Serial>(p, o);
    o.teams = 8;
    o.portfolio = -1;
    o.host_teams = 0;
    const Run r = run<TypeParam>(p, o);
    EXPECT_EQ(r.report.free_teams, gpu ? 2 : 4) << "seed " << seed;
    EXPECT_TRUE(r.report.complete) << "seed " << seed;
    EXPECT_EQ(r.report.best, reference.report.best) << "seed " << seed;
  }
}

/// A knapsack too large to finish: the time limit and an interrupt stop every row, and the search is
/// not reported complete.
Program knapsack(int& objective) {
  Program p;
  std::vector<std::int32_t> weights, values;
  std::vector<int> xs;
  for (int i = 0; i < 40; ++i) {
    xs.push_back(p.add_var(0, 3));
    weights.push_back(3 + (i * 7) % 11);
    values.push_back(-(2 + (i * 5) % 13));
  }
  p.add_row(LinearKind::le, weights, xs, 150);
  objective = p.add_var(-100000, 0);
  values.push_back(-1);
  std::vector<int> with = xs;
  with.push_back(objective);
  p.add_row(LinearKind::eq, values, with, 0);
  return p;
}

TYPED_TEST(PortfolioOnBackend, TimeLimitAndInterruptStopEveryRow) {
  int objective = -1;
  const Program p = knapsack(objective);
  // With the host's rows beside the fleet too: they stop with it, and share its solutions.
  for (const int host_teams : {0, 2}) {
    SearchOptions o;
    o.objective = objective;
    o.teams = 2;
    o.portfolio = 0.5;
    o.restart_base = 5;
    o.host_teams = host_teams;
    o.time_limit_s = 0.5;  // set-up included: a few parallel regions, slow on an oversubscribed host
    const std::string where = std::to_string(host_teams) + " host teams";
    const Run timed = run<TypeParam>(p, o);
    EXPECT_TRUE(timed.report.timed_out) << where;
    EXPECT_FALSE(timed.report.complete) << where;
    EXPECT_LT(timed.report.solve_time_s, 5.0) << where;
    EXPECT_GT(timed.report.solutions, 0) << where << " (set-up " << timed.report.setup_time_s << " s)";
    EXPECT_TRUE(timed.all_valid && timed.improving) << where;
    EXPECT_GT(timed.report.restarts + timed.report.neighbourhoods, 0) << where;
    EXPECT_EQ(timed.report.host_teams, host_teams) << where;
    EXPECT_EQ(timed.report.host_nodes > 0, host_teams > 0) << where;

    static volatile std::sig_atomic_t flag = 1;
    o.time_limit_s = 0;
    o.interrupted = &flag;
    const Run stopped = run<TypeParam>(p, o);
    EXPECT_TRUE(stopped.report.interrupted) << where;
    EXPECT_FALSE(stopped.report.complete) << where;
  }
}

#ifdef KOKKOS_ENABLE_SERIAL
/// Serial runs its teams in order, so a fixed seed and slice give the same run twice, free rows
/// included (one team alternating, and three teams side by side); another seed draws other runs.
TEST(Portfolio, FixedSeedGivesTheSameRunOnSerial) {
  int objective = -1;
  const Program p = knapsack(objective);
  for (const int teams : {1, 3}) {
    SearchOptions o;
    o.objective = objective;
    o.teams = teams;
    o.portfolio = 0.5;
    o.restart_base = 3;
    o.slice_nodes = 50;
    o.seed = 11;
    o.learn = LearnMode::restart;  // the explaining thread runs on its own clock
    // A node budget instead of a time limit: stop after a fixed number of solutions via the callback.
    auto limited = [&](std::uint64_t seed) {
      SearchOptions s = o;
      s.seed = seed;
      s.probe_s = 0;
      std::vector<std::vector<std::int32_t>> found;
      SearchReport rep = search<Kokkos::Serial>(p, s, [&](const std::vector<std::int32_t>& values) {
        found.push_back(values);
        return found.size() < 25;
      });
      return std::make_pair(found, rep.nodes);
    };
    const auto a = limited(11), b = limited(11);
    EXPECT_EQ(a.first, b.first) << teams << " teams";
    EXPECT_EQ(a.second, b.second) << teams << " teams";
    EXPECT_EQ(a.first.size(), 25u);
  }
}
#endif

}  // namespace
}  // namespace kcp
