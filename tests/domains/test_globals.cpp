// The global families (domains/globals.hpp: cumulative, all_different, var_element, table), brute force over small domains (Gecode's test style):
// each constraint is stated once here by its definition, every small instance's solutions are
// listed, and the serial fixpoint must keep every solution, fail exactly when the promise says, and
// reach the consistency the family's header claims. Then random networks of every family with
// globals on every backend: the team and event-driven fixpoints reach the serial one.
#include "domains/globals.hpp"

#include "domains/program.hpp"
#include "tests/backends.hpp"
#include "tests/brute_force.hpp"
#include "tests/kernels.hpp"
#include "tests/random_programs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <random>
#include <set>

namespace kcp {
namespace {

using test::Assignment;

bool all_different_holds(const Assignment& v) {
  const std::set<std::int64_t> values(v.begin(), v.end());
  return values.size() == v.size();
}

struct Task {
  std::int64_t d, r;
};

bool cumulative_holds(const Assignment& s, const std::vector<Task>& tasks, std::int64_t cap) {
  for (std::size_t k = 0; k < s.size(); ++k) {
    std::int64_t used = 0;
    for (std::size_t i = 0; i < s.size(); ++i)
      if (s[i] <= s[k] && s[k] < s[i] + tasks[i].d) used += tasks[i].r;
    if (used > cap) return false;
  }
  return true;
}

/// n variables with random sub-ranges of [lo, hi].
Program random_box(std::mt19937& rng, int n, int lo, int hi) {
  Program p;
  std::uniform_int_distribution<int> v(lo, hi);
  for (int i = 0; i < n; ++i) {
    int a = v(rng), b = v(rng);
    if (a > b) std::swap(a, b);
    p.add_var(a, b);
  }
  return p;
}

std::vector<int> first_vars(int n) {
  std::vector<int> xs(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) xs[static_cast<std::size_t>(i)] = i;
  return xs;
}

/// A brute-force case: a program whose variables are all the constraint's, and the constraint by its
/// definition.
struct Case {
  Program p;
  std::function<bool(const Assignment&)> holds;
};

/// Runs `cases` cases (make(rng, seed) builds each) through the serial fixpoint and checks the
/// outcome against the solutions within the case's box under `promise`; counts the failed and the
/// narrowed ones, which the caller bounds from below so that the cases mean something.
template <class Make>
void brute_force(int cases, test::Promise promise, const Make& make, int& failed, int& narrowed) {
  failed = narrowed = 0;
  for (int seed = 0; seed < cases; ++seed) {
    std::mt19937 rng(seed);
    const Case c = make(rng, seed);
    const auto out = test::serial_fixpoint_on(c.p);
    const auto sols = test::solutions_in(c.p.lb, c.p.ub, c.holds);
    ASSERT_TRUE(test::check_propagation(sols, out.failed, out.lb, out.ub, promise))
        << "seed " << seed << ": " << test::show_domains(c.p.lb, c.p.ub);
    failed += out.failed;
    narrowed += out.narrowed(c.p);
  }
}

TEST(AllDifferentBruteForce, BoundsConsistentAtTheFixpointAndFailsExactlyWithoutSolutions) {
  // Bounds-only domains: Hall intervals give bounds(Z) consistency, which on intervals means every
  // bound left takes part in a solution, and a failure exactly when there is none (Hall's theorem).
  int failed = 0, narrowed = 0;
  brute_force(3000, test::Promise::bounds, [](std::mt19937& rng, int seed) {
    const int n = 2 + seed % 4;
    Case c{random_box(rng, n, 0, n + 1), all_different_holds};
    c.p.add_global<AllDifferent>(first_vars(n));
    return c;
  }, failed, narrowed);
  EXPECT_GT(failed, 100);
  EXPECT_GT(narrowed, 500);
}

TEST(AllDifferentBruteForce, WithHolesNoSolutionIsLost) {
  // Bitset domains with random holes: every solution within them stays, and a wipe-out only when
  // there is none.
  int failed = 0, holes_cut = 0;
  for (int seed = 0; seed < 2000; ++seed) {
    std::mt19937 rng(seed);
    const int n = 2 + seed % 4;
    Program p = random_box(rng, n, 0, n + 2);
    p.give_bitsets(64);
    {
      const StoreRef<false> s = p.store();
      std::uniform_int_distribution<int> v(0, n + 2);
      for (int k = 0; k < n; ++k) s.remove(k, v(rng));
      for (int x = 0; x < n; ++x)
        if (p.lb[std::size_t(x)] > p.ub[std::size_t(x)]) p.lb[std::size_t(x)] = p.ub[std::size_t(x)] = 0;
    }
    p.add_global<AllDifferent>(first_vars(n));
    const auto root = test::FixpointOutcome::root_domains(p);
    auto in_domains = [&](const Assignment& a, const std::vector<std::vector<std::int64_t>>& d) {
      for (std::size_t i = 0; i < a.size(); ++i)
        if (std::find(d[i].begin(), d[i].end(), a[i]) == d[i].end()) return false;
      return true;
    };
    const auto sols = test::solutions_in(p.lb, p.ub, [&](const Assignment& a) {
      return in_domains(a, root) && all_different_holds(a);
    });
    const auto out = test::serial_fixpoint_on(p);
    if (out.failed) {
      ASSERT_TRUE(sols.empty()) << "seed " << seed << ": failed with " << sols.size() << " solutions";
      ++failed;
      continue;
    }
    const auto left = out.domains(p);
    for (const Assignment& a : sols) ASSERT_TRUE(in_domains(a, left)) << "seed " << seed << ": lost a solution";
    for (int x = 0; x < n; ++x) holes_cut += left[std::size_t(x)].size() < root[std::size_t(x)].size();
  }
  EXPECT_GT(failed, 50);
  EXPECT_GT(holes_cut, 200);
}

/// A cumulative over the first tasks.size() variables of p (the tasks' starts) and its definition.
Case cumulative_case(Program p, const std::vector<Task>& tasks, std::int64_t cap) {
  std::vector<std::int64_t> pars{cap};
  for (const Task& t : tasks) pars.push_back(t.d);
  for (const Task& t : tasks) pars.push_back(t.r);
  p.add_global<Cumulative>(first_vars(static_cast<int>(tasks.size())), pars);
  return Case{std::move(p), [tasks, cap](const Assignment& s) { return cumulative_holds(s, tasks, cap); }};
}

TEST(CumulativeBruteForce, NoSolutionIsLostAndFixedSchedulesAreDecidedExactly) {
  // Time-table filtering promises soundness (and a failure once every start is fixed and the use
  // exceeds the capacity somewhere); it must also prune on these small cases.
  int failed = 0, narrowed = 0;
  brute_force(3000, test::Promise::sound, [](std::mt19937& rng, int seed) {
    const int n = 1 + seed % 4;
    Program p = random_box(rng, n, 0, 5);
    std::uniform_int_distribution<int> small(1, 3);
    std::vector<Task> tasks;
    const std::int64_t cap = 1 + seed % 4;
    for (int i = 0; i < n; ++i) tasks.push_back({small(rng), std::min<std::int64_t>(small(rng), cap)});
    return cumulative_case(std::move(p), tasks, cap);
  }, failed, narrowed);
  EXPECT_GT(failed, 100);
  EXPECT_GT(narrowed, 300);
}

TEST(CumulativeBruteForce, EdgeFindingOnDisjunctiveTasksLosesNoSolution) {
  // Five or six tasks in [0, 9], all disjunctive (2 r > C: a machine, or uses 2 and 3 under capacity
  // 3), where edge finding runs beside the time-table; every third case one task of use 1 under
  // capacity 3, where it does not: sound, and it prunes.
  int failed = 0, narrowed = 0;
  brute_force(400, test::Promise::sound, [](std::mt19937& rng, int seed) {
    const int n = 5 + seed % 2;
    Program p = random_box(rng, n, 0, 9);
    std::uniform_int_distribution<int> dur(1, 3), use(2, 3);
    std::vector<Task> tasks;
    const std::int64_t cap = seed % 2 ? 1 : 3;
    for (int i = 0; i < n; ++i) tasks.push_back({dur(rng), cap == 1 ? 1 : use(rng)});
    if (cap == 3 && seed % 3 == 0) tasks[0].r = 1;
    return cumulative_case(std::move(p), tasks, cap);
  }, failed, narrowed);
  EXPECT_GT(failed, 20);
  EXPECT_GT(narrowed, 100);
}

TEST(CumulativeBruteForce, EdgeFindingOrdersATaskAfterATaskInterval) {
  // A machine: tasks 0 and 1 (d 3) start in [0, 3], so both run inside [0, 6] and neither has a
  // compulsory part (the time-table sees nothing). Task 2 (d 2) in [0, 10] cannot run before 6 with
  // them (0 + 6 + 2 > 6): it ends after both, and starts at 6 or later.
  Program p;
  p.add_var(0, 3);
  p.add_var(0, 3);
  p.add_var(0, 10);
  p.add_global<Cumulative>({0, 1, 2}, {1, 3, 3, 2, 1, 1, 1});
  const auto out = test::serial_fixpoint_on(p);
  ASSERT_FALSE(out.failed);
  EXPECT_EQ(out.lb[2], 6);
  EXPECT_EQ(out.ub[2], 10);
  EXPECT_EQ(out.lb[0], 0);
  EXPECT_EQ(out.ub[0], 3);
  // Three tasks of 3 in [0, 8] (starts in [0, 5]) need 9: an overload, though no part is compulsory.
  Program q;
  for (int i = 0; i < 3; ++i) q.add_var(0, 5);
  q.add_global<Cumulative>({0, 1, 2}, {1, 3, 3, 3, 1, 1, 1});
  EXPECT_TRUE(test::serial_fixpoint_on(q).failed);
}

TEST(VarElementBruteForce, BoundsConsistentAtTheFixpointAndFailsExactlyWithoutSolutions) {
  // result = x[index] over bounds-only domains: every bound left (index, result, each x_j) takes part
  // in a solution, and a failure exactly when there is none.
  int failed = 0, narrowed = 0;
  brute_force(3000, test::Promise::bounds, [](std::mt19937& rng, int seed) {
    const int n = 1 + seed % 3;
    Case c{random_box(rng, n + 2, -1, 4), [n](const Assignment& a) {  // x0 the index, x1 the result
             return a[0] >= 1 && a[0] <= n && a[1] == a[static_cast<std::size_t>(1 + a[0])];
           }};
    c.p.add_global<VarElement>(first_vars(n + 2));
    return c;
  }, failed, narrowed);
  EXPECT_GT(failed, 100);
  EXPECT_GT(narrowed, 500);
}

TEST(TableBruteForce, ArcConsistentWithBitsetsAndBoundsConsistentWithout) {
  // Random tables of 1-3 columns over [0, 4] (both paths of propagate_table): with bitsets every value left takes part in an alive
  // row (a row of values all still in the domains: a solution), without them every bound does; a
  // failure exactly when no row is alive.
  int failed = 0, narrowed = 0, holes_cut = 0, long_tables = 0;
  for (int seed = 0; seed < 3000; ++seed) {
    std::mt19937 rng(seed);
    const int k = 1 + seed % 3;
    const bool bits = seed % 2 == 1;
    Program p = random_box(rng, k, 0, 4);
    if (bits) p.give_bitsets(64);
    std::uniform_int_distribution<int> value(0, 4), rows(0, 6);
    std::vector<std::int64_t> t;
    std::vector<Assignment> table;
    for (int r = rows(rng); r > 0; --r) {
      Assignment row;
      for (int i = 0; i < k; ++i) row.push_back(value(rng));
      table.push_back(row);
      t.insert(t.end(), row.begin(), row.end());
    }
    // Every twentieth table repeats its rows past detail::table_bitmap_rows: on the host that is the lanes'
    // path (a pass over the rows per variable and bitset word), the GPU's, and not the bitmap of alive rows.
    if (seed % 20 == 5 && !t.empty()) {
      const std::vector<std::int64_t> once = t;
      while (t.size() / std::size_t(k) <= std::size_t(detail::table_bitmap_rows)) t.insert(t.end(), once.begin(), once.end());
      ++long_tables;
    }
    p.add_global<Table>(first_vars(k), t);
    const auto out = test::serial_fixpoint_on(p);
    const auto sols = test::solutions_in(p.lb, p.ub, [&](const Assignment& a) {
      return std::find(table.begin(), table.end(), a) != table.end();
    });
    if (!bits) {
      ASSERT_TRUE(test::check_propagation(sols, out.failed, out.lb, out.ub, test::Promise::bounds))
          << "seed " << seed << ": " << test::show_domains(p.lb, p.ub);
    } else if (out.failed) {
      ASSERT_TRUE(sols.empty()) << "seed " << seed;
    } else {
      // Arc consistency: the values left are exactly those of the solutions.
      const auto left = out.domains(p);
      for (int i = 0; i < k; ++i) {
        std::set<std::int64_t> supported;
        for (const Assignment& a : sols) supported.insert(a[std::size_t(i)]);
        const std::set<std::int64_t> kept(left[std::size_t(i)].begin(), left[std::size_t(i)].end());
        ASSERT_EQ(kept, supported) << "seed " << seed << ", x" << i;
        holes_cut += kept.size() < std::size_t(p.ub[std::size_t(i)] - p.lb[std::size_t(i)] + 1) && kept.size() > 1 &&
                     *kept.rbegin() - *kept.begin() + 1 > std::int64_t(kept.size());
      }
    }
    failed += out.failed;
    narrowed += out.narrowed(p);
  }
  EXPECT_GT(failed, 200);
  EXPECT_GT(narrowed, 500);
  EXPECT_GT(holes_cut, 100);
  EXPECT_GT(long_tables, 100);
}

/// Two tasks under one cumulative: starts in [lo0, hi0] and [lo1, hi1], durations d, uses r.
test::FixpointOutcome two_tasks(std::int64_t cap, std::array<int, 4> starts, std::array<std::int64_t, 2> d,
                                std::array<std::int64_t, 2> r) {
  Program p;
  p.add_var(starts[0], starts[1]);
  p.add_var(starts[2], starts[3]);
  p.add_global<Cumulative>({0, 1}, {cap, d[0], d[1], r[0], r[1]});
  return test::serial_fixpoint_on(p);
}

TEST(CumulativeBruteForce, TimeTablePushesAStartPastACompulsoryPart) {
  // Task 0 (d 3, r 2) is fixed at 2: it runs over [2, 5). Task 1 (d 2, r 1) in [1, 6] with capacity
  // 2 cannot overlap it: from 1 (its window [1, 3) meets [2, 5)) its earliest start moves to 5.
  const auto out = two_tasks(2, {2, 2, 1, 6}, {3, 2}, {2, 1});
  ASSERT_FALSE(out.failed);
  EXPECT_EQ(out.lb[1], 5);
  EXPECT_EQ(out.ub[1], 6);
  // A latest start is pushed down the same way: from 4 in [0, 4] to 0.
  const auto back = two_tasks(2, {2, 2, 0, 4}, {3, 2}, {2, 1});
  ASSERT_FALSE(back.failed);
  EXPECT_EQ(back.lb[1], 0);
  EXPECT_EQ(back.ub[1], 0);
  // Both run over [1, 3) wherever they start in [0, 1]: an overload, which fails.
  EXPECT_TRUE(two_tasks(1, {0, 1, 0, 1}, {3, 3}, {1, 1}).failed);
}

/// A random network of every family, with all_different and cumulative constraints over its
/// variables; with bitsets when `holes`.
Program random_network_with_globals(std::mt19937& rng, int seed, bool holes) {
  Program p = test::random_network(rng, 4 + seed % 8, seed % 4, seed % 3, seed % 2, 6);
  const int n = p.num_vars();
  std::uniform_int_distribution<int> var(0, n - 1), small(1, 3);
  for (int g = 0; g < 1 + seed % 2; ++g) {
    std::vector<int> xs;
    for (int k = 0; k < 2 + seed % 4; ++k) {
      const int x = var(rng);
      if (std::find(xs.begin(), xs.end(), x) == xs.end()) xs.push_back(x);
    }
    if (xs.size() >= 2) p.add_global<AllDifferent>(xs);
  }
  {
    std::vector<int> starts;
    for (int k = 0; k < 2 + seed % 4; ++k) starts.push_back(var(rng));
    const std::int64_t cap = 1 + seed % 3;
    std::vector<std::int64_t> pars{cap};
    for (std::size_t i = 0; i < starts.size(); ++i) pars.push_back(small(rng));
    for (std::size_t i = 0; i < starts.size(); ++i) pars.push_back(std::min<std::int64_t>(small(rng), cap));
    p.add_global<Cumulative>(starts, pars);
  }
  if (seed % 3 != 0) {
    // result = x[index] over an index and a result of their own and some of the network's variables.
    const int index = p.add_var(0, 3 + seed % 3), result = p.add_var(-6, 6);
    std::vector<int> vars{index, result};
    for (int k = 0; k < 2 + seed % 3; ++k) vars.push_back(var(rng));
    p.add_global<VarElement>(vars);
  }
  if (seed % 4 != 3) {
    // A table of 2-3 columns over the network's variables, 1-8 rows of values within their domains.
    std::vector<int> xs;
    for (int k = 0; k < 2 + seed % 2; ++k) xs.push_back(var(rng));
    std::vector<std::int64_t> rows;
    for (int r = 0; r < 1 + seed % 8; ++r)
      for (const int x : xs)
        rows.push_back(std::uniform_int_distribution<int>(p.lb[std::size_t(x)], p.ub[std::size_t(x)])(rng));
    p.add_global<Table>(xs, rows);
  }
  if (holes) p.give_bitsets(64);
  return p;
}

template <class Space>
class GlobalsOnBackend : public ::testing::Test {};
TYPED_TEST_SUITE(GlobalsOnBackend, test::Backends, test::BackendName);

TYPED_TEST(GlobalsOnBackend, TeamAndEventDrivenFixpointsReachTheSerialOne) {
  const int networks = test::quick_mode() ? 60 : 400;
  int failed = 0, narrowed = 0;
  for (int seed = 0; seed < networks; ++seed) {
    std::mt19937 rng(7000 + seed);
    const Program p = random_network_with_globals(rng, seed, seed % 2 == 1);
    for (const int lane_row_terms : {0, default_lane_row_terms}) {
      const auto c = test::compare_team_with_serial<TypeParam>(p, {}, lane_row_terms);
      ASSERT_EQ(c.difference, "") << "seed " << seed << ", lane rows up to " << lane_row_terms << " terms";
    }
    const auto serial = test::serial_fixpoint_on(p);
    const auto queue = test::queue_fixpoint_on<TypeParam>(p, {{}}, true);
    ASSERT_EQ(queue.failed, serial.failed) << "seed " << seed;
    if (!serial.failed) {
      ASSERT_EQ(test::domain_difference(p, queue, serial), "") << "seed " << seed;
    }
    failed += serial.failed;
    narrowed += serial.narrowed(p);
  }
  EXPECT_GT(failed, networks / 10);
  EXPECT_GT(narrowed, networks / 4);
}

}  // namespace
}  // namespace kcp
