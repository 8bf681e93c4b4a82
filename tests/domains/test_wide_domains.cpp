// Domains of many words (issue 51): variables spanning 65 to 400 values keep bitsets of several words.
// 1. Two-term rows with unit coefficients (x = y + d, x + y = e: MiniZinc's aliases such as q[i] + i)
//    carry holes across, word by word: at the serial fixpoint each domain is exactly its supported
//    values (domain consistency), checked value by value against the other domain.
// 2. The same rows in chains on every backend: the team fixpoint equals the serial one.
// 3. all_different over more variables than one Hall histogram chunk of a GPU lane (64) and domains of
//    several words: every Hall interval of the fixpoint's bounds is cleared from the variables not
//    inside it, none is overfull, and a planted solution survives.
// 4. Program::give_bitsets keeps its word budget, narrowest domains first, and gives a domain wider
//    than one word a bitset only where a propagator or the search can make a hole in it.
#include "domains/fixpoint.hpp"
#include "domains/program.hpp"
#include "domains/store.hpp"

#include "tests/backends.hpp"
#include "tests/kernels.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <vector>

namespace kcp {
namespace {

/// A variable over [lo, lo + span - 1] with a bitset and about `holes` of its values removed.
int wide_var(Program& p, std::mt19937& rng, std::int32_t lo, std::int32_t span, double holes) {
  const int x = p.add_var(lo, lo + span - 1);
  p.give_bits(x);
  const StoreRef<false> s = p.store();
  std::bernoulli_distribution drop(holes);
  for (std::int32_t v = lo; v < lo + span; ++v)
    if (drop(rng)) s.remove(x, v);
  if (p.lb[std::size_t(x)] > p.ub[std::size_t(x)]) {  // every value went: keep one
    p.lb[std::size_t(x)] = p.ub[std::size_t(x)] = lo;
    p.bits[std::size_t(p.bits_at[std::size_t(x)])] |= 1;
  }
  return x;
}

std::set<std::int64_t> as_set(const std::vector<std::int64_t>& d) { return {d.begin(), d.end()}; }

TEST(WideUnitRows, DomainConsistentOverMultiWordDomains) {
  int pruned_inside = 0, failed = 0;
  const int trials = test::quick_mode() ? 150 : 600;
  for (int trial = 0; trial < trials; ++trial) {
    std::mt19937 rng(51000 + trial);
    Program p;
    std::uniform_int_distribution<int> span(65, 400), lo(-300, 300), sign(0, 1);
    const int x = wide_var(p, rng, lo(rng), span(rng), 0.3 + 0.6 * (trial % 3) / 3.0);
    const int y = wide_var(p, rng, lo(rng), span(rng), 0.2 + 0.3 * (trial % 2));
    const std::int32_t a = sign(rng) ? 1 : -1, b = sign(rng) ? 1 : -1;
    // c near a value some pair takes, so that most rows have supports.
    const auto root = test::FixpointOutcome::root_domains(p);
    const std::int64_t c = a * root[std::size_t(x)][rng() % root[std::size_t(x)].size()] +
                           b * root[std::size_t(y)][rng() % root[std::size_t(y)].size()];
    std::int64_t c_used = c;
    if (trial % 10 == 0) {
      // Only even values on both sides and an odd c: no support anywhere, yet the bounds allow one.
      const StoreRef<false> s = p.store();
      for (const int z : {x, y})
        for (const std::int64_t v : root[std::size_t(z)])
          if (v % 2 != 0) s.remove(z, v);
      c_used = (c % 2 == 0) ? c + 1 : c;
    }
    const std::int64_t c_row = c_used;
    p.add_row(LinearKind::eq, {a, b}, {x, y}, c_row);
    const auto rooted = test::FixpointOutcome::root_domains(p);
    const auto out = test::serial_fixpoint_on(p);
    const auto dx = as_set(rooted[std::size_t(x)]), dy = as_set(rooted[std::size_t(y)]);
    std::set<std::int64_t> sx, sy;  // the supported values
    for (const std::int64_t u : dx)
      if ((c_row - a * u) % b == 0 && dy.count((c_row - a * u) / b)) {
        sx.insert(u);
        sy.insert((c_row - a * u) / b);
      }
    if (sx.empty()) {
      ASSERT_TRUE(out.failed) << "trial " << trial << ": no support, yet no failure";
      ++failed;
      continue;
    }
    ASSERT_FALSE(out.failed) << "trial " << trial;
    ASSERT_EQ(as_set(out.domain(p, x)), sx) << "trial " << trial << ": x's domain is not its supported values";
    ASSERT_EQ(as_set(out.domain(p, y)), sy) << "trial " << trial << ": y's domain is not its supported values";
    ASSERT_EQ(out.lb[std::size_t(x)], *sx.begin());
    ASSERT_EQ(out.ub[std::size_t(x)], *sx.rbegin());
    // A value strictly inside the supported hull went: more than bounds consistency did.
    for (const std::int64_t u : dx)
      if (u > *sx.begin() && u < *sx.rbegin() && !sx.count(u)) {
        ++pruned_inside;
        break;
      }
  }
  EXPECT_GT(pruned_inside, trials / 2);
  EXPECT_GT(failed, 0);
}

/// Chains x0 - x1 = d1, x1 + x2 = e2, ... over wide domains with holes.
Program unit_chain(std::mt19937& rng, int n) {
  Program p;
  std::uniform_int_distribution<int> span(65, 200), lo(-100, 100), pick(0, 1);
  std::vector<int> x;
  for (int i = 0; i < n; ++i) x.push_back(wide_var(p, rng, lo(rng), span(rng), 0.25));
  for (int i = 1; i < n; ++i) {
    const std::int32_t a = 1, b = pick(rng) ? 1 : -1;
    const std::int64_t c = a * p.lb[std::size_t(x[i - 1])] + b * p.lb[std::size_t(x[i])] + (rng() % 60);
    p.add_row(LinearKind::eq, {a, b}, {x[i - 1], x[i]}, c);
  }
  return p;
}

template <class Space>
class WideDomainsOnBackend : public ::testing::Test {};
TYPED_TEST_SUITE(WideDomainsOnBackend, test::Backends, test::BackendName);

TYPED_TEST(WideDomainsOnBackend, UnitRowChainsTeamFixpointEqualsSerial) {
  int narrowed = 0;
  const int networks = test::quick_mode() ? 30 : 150;
  for (int seed = 0; seed < networks; ++seed) {
    std::mt19937 rng(52000 + seed);
    const Program p = unit_chain(rng, 3 + seed % 6);
    const auto c = test::compare_team_with_serial<TypeParam>(p);
    ASSERT_EQ(c.difference, "") << "seed " << seed;
    narrowed += c.serial.narrowed(p);
  }
  EXPECT_GT(narrowed, networks / 3);
}

/// Reference: every interval [a, b] between some lower and some upper bound holding the domains of
/// exactly b - a + 1 variables (a Hall interval): no other variable keeps a value of it; none overfull.
::testing::AssertionResult hall_intervals_cleared(const Program& p, const test::FixpointOutcome& out, int n) {
  std::set<std::int64_t> lows, highs;
  for (int x = 0; x < n; ++x) lows.insert(out.lb[std::size_t(x)]), highs.insert(out.ub[std::size_t(x)]);
  for (const std::int64_t a : lows)
    for (const std::int64_t b : highs) {
      if (b < a) continue;
      int inside = 0;
      for (int x = 0; x < n; ++x) inside += out.lb[std::size_t(x)] >= a && out.ub[std::size_t(x)] <= b;
      if (inside > b - a + 1) return ::testing::AssertionFailure() << "[" << a << ", " << b << "] overfull";
      if (inside < b - a + 1) continue;
      for (int x = 0; x < n; ++x) {
        if (out.lb[std::size_t(x)] >= a && out.ub[std::size_t(x)] <= b) continue;
        for (const std::int64_t v : out.domain(p, x))
          if (v >= a && v <= b)
            return ::testing::AssertionFailure() << "x" << x << " keeps " << v << " of the Hall interval [" << a << ", " << b << "]";
      }
    }
  return ::testing::AssertionSuccess();
}

TEST(WideAllDifferent, HallIntervalsClearedBeyondOneChunkAndAPlantedSolutionSurvives) {
  int narrowed = 0;
  const int trials = test::quick_mode() ? 20 : 80;
  for (int trial = 0; trial < trials; ++trial) {
    std::mt19937 rng(53000 + trial);
    const int n = 65 + trial % 70;
    const int values = n + 5 + trial % 40;
    // A planted solution: a random injection into [0, values).
    std::vector<std::int32_t> all(static_cast<std::size_t>(values));
    std::iota(all.begin(), all.end(), 0);
    std::shuffle(all.begin(), all.end(), rng);
    Program p;
    std::uniform_int_distribution<int> width(0, 3 + trial % 30);
    for (int x = 0; x < n; ++x) {
      const std::int32_t s = all[std::size_t(x)];
      // Narrow domains around the planted value, so that Hall intervals form.
      const std::int32_t lo = std::max(0, s - width(rng)), hi = std::min(values - 1, s + width(rng));
      p.add_var(lo, hi);
    }
    p.give_bitsets(1 << 20);
    {
      const StoreRef<false> s = p.store();
      for (int x = 0; x < n; ++x)
        for (std::int32_t v = p.lb[std::size_t(x)]; v <= p.ub[std::size_t(x)]; ++v)
          if (v != all[std::size_t(x)] && rng() % 4 == 0) s.remove(x, v);
    }
    std::vector<int> vars(static_cast<std::size_t>(n));
    std::iota(vars.begin(), vars.end(), 0);
    p.add_global<AllDifferent>(vars);
    const auto out = test::serial_fixpoint_on(p);
    ASSERT_FALSE(out.failed) << "trial " << trial << ": a solution exists";
    for (int x = 0; x < n; ++x) {
      const auto d = out.domain(p, x);
      ASSERT_TRUE(std::find(d.begin(), d.end(), all[std::size_t(x)]) != d.end())
          << "trial " << trial << ": x" << x << " lost its planted value " << all[std::size_t(x)];
    }
    ASSERT_TRUE(hall_intervals_cleared(p, out, n)) << "trial " << trial;
    narrowed += out.narrowed(p);
  }
  EXPECT_GT(narrowed, trials / 2);
}

TEST(WideAllDifferent, PigeonholesOverMoreThanAChunkFail) {
  // 100 variables over 99 values: the interval [0, 98] is overfull at the root.
  Program p;
  std::vector<int> vars;
  for (int x = 0; x < 100; ++x) vars.push_back(p.add_var(0, 98));
  p.give_bitsets(1 << 20);
  p.add_global<AllDifferent>(vars);
  EXPECT_TRUE(test::serial_fixpoint_on(p).failed);
}

TEST(BitsetBudget, NarrowestDomainsFirstWithinTheWords) {
  Program p;
  const int wide = p.add_var(0, 999);    // 16 words
  const int narrow = p.add_var(0, 99);   // 2 words
  const int middle = p.add_var(0, 300);  // 5 words
  const int tiny = p.add_var(0, 1);      // no value inside its bounds: never a bitset
  p.add_row(LinearKind::ne, {1, -1}, {wide, narrow}, 0);
  p.add_row(LinearKind::ne, {1, -1}, {middle, tiny}, 0);
  EXPECT_EQ(p.give_bitsets(4096, 8), 2);  // 2 + 5 words fit in 8, the 16 do not
  EXPECT_TRUE(p.has_bits(narrow));
  EXPECT_TRUE(p.has_bits(middle));
  EXPECT_FALSE(p.has_bits(wide));
  EXPECT_FALSE(p.has_bits(tiny));
  EXPECT_EQ(p.num_bounds_only_vars(), 1);
  EXPECT_LE(p.bits.size(), 8u);
  Program q;
  const int far = q.add_var(0, 5000);  // beyond the span
  q.add_row(LinearKind::ne, {1}, {far}, 7);
  EXPECT_EQ(q.give_bitsets(4096), 0);
  EXPECT_EQ(q.num_bounds_only_vars(), 1);
}

TEST(BitsetBudget, WideDomainsOnlyWhereAHoleCanArise) {
  Program p;
  const int start = p.add_var(0, 199), other = p.add_var(0, 199);  // only in <= rows: bounds only
  const int small = p.add_var(0, 30);                                  // one word: a bitset whatever
  const int queen = p.add_var(1, 150), diagonal = p.add_var(2, 151);  // q + 1 = d, d != 77
  const int wanted = p.add_var(0, 500);                                // asked for by the search
  p.add_row(LinearKind::le, {1, -1}, {start, other}, -5);
  p.add_row(LinearKind::le, {1, 1}, {small, start}, 100);
  p.add_row(LinearKind::eq, {1, -1}, {queen, diagonal}, -1);
  p.add_row(LinearKind::ne, {1}, {diagonal}, 77);
  std::vector<char> asked(std::size_t(p.num_vars()), 0);
  asked[std::size_t(wanted)] = 1;
  p.give_bitsets(4096, default_bitset_words, asked);
  EXPECT_FALSE(p.has_bits(start));
  EXPECT_FALSE(p.has_bits(other));
  EXPECT_TRUE(p.has_bits(small));
  EXPECT_TRUE(p.has_bits(queen));
  EXPECT_TRUE(p.has_bits(diagonal));
  EXPECT_TRUE(p.has_bits(wanted));
  EXPECT_EQ(p.num_bounds_only_vars(), 0);  // start and other cannot get a hole
}

}  // namespace
}  // namespace kcp
