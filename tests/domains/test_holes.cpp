// Domains with holes (the bitsets of domains/store.hpp):
// 1. the store's operations against a std::set model, on random domains of 1 to 200 values (bitsets of
//    one to four words), for a store of one thread and for a concurrent store run one call at a time;
// 2. every propagator family, brute force over small domains with holes (Gecode's test style): what
//    the constraint means is stated once, every assignment of the values (not the bounds) is
//    enumerated, and the fixpoint must keep every solution, add no value, leave its bounds on values
//    of the domain, fail only without a solution (and exactly when false once all is fixed), and keep
//    the promises each family makes about holes; then the same on every backend, equal to the serial
//    fixpoint;
// 3. the team fixpoint and the event-driven fixpoint (rounds of narrowings and removals) against the
//    serial reference on random networks whose variables got bitsets and random holes.
#include "domains/fixpoint.hpp"
#include "domains/program.hpp"
#include "domains/store.hpp"

#include "tests/backends.hpp"
#include "tests/brute_force.hpp"
#include "tests/kernels.hpp"
#include "tests/random_programs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <iterator>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace kcp {
namespace {

using test::Assignment;
using test::FixpointOutcome;
using Values = std::vector<std::int64_t>;
using Model = std::set<std::int64_t>;

template <class C>
std::string show(const C& values) {
  std::ostringstream os;
  os << "{";
  bool first = true;
  for (const auto v : values) {
    os << (first ? "" : ",") << v;
    first = false;
  }
  os << "}";
  return os.str();
}

int uniform(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// ---------------------------------------------------------------------------------------------------
// 1. The store against a std::set model.

/// A store over p's root domains: Program::store() for one thread, or a concurrent one over the same
/// arrays (its atomics run one call at a time here: the semantics must be the same).
template <bool Concurrent>
StoreRef<Concurrent> store_of(Program& p) {
  if constexpr (Concurrent) {
    p.fit_layout();
    return StoreRef<true>(p.lb.data(), p.ub.data(), p.bits.data(), p.layout());
  } else {
    return p.store();
  }
}

/// x's state in s against its model: bounds, fixed, size, ranks, and membership, next and previous
/// values at every v of [lo - 3, hi + 3] (lo, hi: x's root bounds).
template <class Store>
::testing::AssertionResult matches(const Store& s, int x, const Model& m, std::int64_t lo, std::int64_t hi) {
  const std::int64_t l = s.min(x), u = s.max(x);
  if (m.empty()) {
    if (l <= u) return ::testing::AssertionFailure() << "x" << x << " should be empty, has [" << l << ", " << u << "]";
    if (s.domain_size(x) != 0) return ::testing::AssertionFailure() << "empty x" << x << " has size " << s.domain_size(x);
    return ::testing::AssertionSuccess();
  }
  if (l != *m.begin() || u != *m.rbegin())
    return ::testing::AssertionFailure() << "x" << x << " has bounds [" << l << ", " << u << "], its values are " << show(m);
  if (s.fixed(x) != (m.size() == 1)) return ::testing::AssertionFailure() << "x" << x << ": fixed() wrong for " << show(m);
  if (s.domain_size(x) != static_cast<std::int64_t>(m.size()))
    return ::testing::AssertionFailure() << "x" << x << ": domain_size " << s.domain_size(x) << " for " << show(m);
  std::int64_t k = 0;
  for (const std::int64_t v : m) {
    if (s.value_at_rank(x, k) != v)
      return ::testing::AssertionFailure() << "x" << x << ": value_at_rank(" << k << ") = " << s.value_at_rank(x, k)
                                           << ", expected " << v << " of " << show(m);
    ++k;
  }
  for (std::int64_t v = lo - 3; v <= hi + 3; ++v) {
    if (s.contains(x, v) != (m.count(v) == 1))
      return ::testing::AssertionFailure() << "x" << x << ": contains(" << v << ") wrong for " << show(m);
    const auto next = m.lower_bound(v);
    const std::int64_t want_next = next == m.end() ? u + 1 : *next;
    if (s.next_value(x, v) != want_next)
      return ::testing::AssertionFailure() << "x" << x << ": next_value(" << v << ") = " << s.next_value(x, v)
                                           << ", expected " << want_next << " for " << show(m);
    const auto after = m.upper_bound(v);
    const std::int64_t want_prev = after == m.begin() ? l - 1 : *std::prev(after);
    if (s.prev_value(x, v) != want_prev)
      return ::testing::AssertionFailure() << "x" << x << ": prev_value(" << v << ") = " << s.prev_value(x, v)
                                           << ", expected " << want_prev << " for " << show(m);
  }
  return ::testing::AssertionSuccess();
}

Model interval(std::int64_t lo, std::int64_t hi) {
  Model m;
  for (std::int64_t v = lo; v <= hi; ++v) m.insert(v);
  return m;
}

/// One variable over [lo, lo + span - 1] with a bitset.
Program one_var(std::int32_t lo, std::int32_t span) {
  Program p;
  p.give_bits(p.add_var(lo, lo + span - 1));
  return p;
}

TEST(HoleStore, RemovingAValueInsideMakesAHoleAndLeavesTheBounds) {
  Program p = one_var(0, 10);
  const auto s = p.store();
  EXPECT_EQ(s.remove(0, 5), prop_changed);
  EXPECT_EQ(s.remove(0, 5), prop_unchanged);   // gone already
  EXPECT_EQ(s.remove(0, 12), prop_unchanged);  // outside the bounds
  EXPECT_EQ(s.remove(0, -1), prop_unchanged);
  EXPECT_EQ(s.min(0), 0);
  EXPECT_EQ(s.max(0), 9);
  EXPECT_FALSE(s.contains(0, 5));
  EXPECT_EQ(s.domain_size(0), 9);
  EXPECT_EQ(s.next_value(0, 5), 6);
  EXPECT_EQ(s.prev_value(0, 5), 4);
  EXPECT_EQ(s.value_at_rank(0, 5), 6);
  EXPECT_EQ(p.values(0), (Values{0, 1, 2, 3, 4, 6, 7, 8, 9}));
}

TEST(HoleStore, RemovingABoundMovesItPastTheValuesRemovedBefore) {
  Program p = one_var(-3, 10);  // [-3, 6]
  const auto s = p.store();
  EXPECT_EQ(s.remove(0, -2), prop_changed);
  EXPECT_EQ(s.remove(0, -1), prop_changed);
  EXPECT_EQ(s.remove(0, -3), prop_changed);
  EXPECT_EQ(s.min(0), 0);
  EXPECT_EQ(s.remove(0, 5), prop_changed);
  EXPECT_EQ(s.remove(0, 4), prop_changed);
  EXPECT_EQ(s.remove(0, 6), prop_changed);
  EXPECT_EQ(s.max(0), 3);
  EXPECT_EQ(p.values(0), (Values{0, 1, 2, 3}));
}

TEST(HoleStore, RemovingTheLastValueFails) {
  Program p = one_var(7, 1);
  EXPECT_EQ(p.store().remove(0, 7), prop_changed | prop_failed);
  EXPECT_GT(p.lb[0], p.ub[0]);
  EXPECT_EQ(p.store().domain_size(0), 0);

  Program q = one_var(0, 3);  // {0, 1, 2}: 1, then 0 (lb moves to 2), then 2
  const auto s = q.store();
  EXPECT_EQ(s.remove(0, 1), prop_changed);
  EXPECT_EQ(s.remove(0, 0), prop_changed);
  EXPECT_EQ(s.min(0), 2);
  EXPECT_TRUE(s.fixed(0));
  EXPECT_EQ(s.remove(0, 2), prop_changed | prop_failed);
  EXPECT_GT(q.lb[0], q.ub[0]);
}

TEST(HoleStore, NarrowingOntoARemovedValueMovesOnToTheNextValueLeft) {
  Program p = one_var(0, 10);
  const auto s = p.store();
  for (const int v : {3, 4, 6, 7}) s.remove(0, v);  // {0, 1, 2, 5, 8, 9}
  EXPECT_EQ(s.narrow_min(0, 3), prop_changed);
  EXPECT_EQ(s.min(0), 5);
  EXPECT_EQ(s.narrow_max(0, 7), prop_changed);
  EXPECT_EQ(s.max(0), 5);
  EXPECT_TRUE(s.fixed(0));

  Program q = one_var(0, 10);
  const auto t = q.store();
  for (const int v : {3, 4, 6, 7}) t.remove(0, v);
  EXPECT_EQ(t.narrow_to(0, 3, 4), prop_changed | prop_failed);  // nothing left in [3, 4]
  EXPECT_GT(q.lb[0], q.ub[0]);

  Program r = one_var(0, 10);
  const auto u = r.store();
  for (const int v : {7, 8}) u.remove(0, v);
  EXPECT_EQ(u.narrow_min(0, 7), prop_changed);  // lands on 7, moves on to 9
  EXPECT_EQ(u.min(0), 9);
  EXPECT_EQ(u.narrow_min(0, 8), prop_unchanged);  // below the bound
}

TEST(HoleStore, RemoveRangeAcrossWords) {
  Program p = one_var(-20, 151);  // [-20, 130]: three words
  const auto s = p.store();
  EXPECT_EQ(s.remove_range(0, 10, 120), prop_changed);
  EXPECT_EQ(s.domain_size(0), 151 - 111);
  EXPECT_EQ(s.next_value(0, 10), 121);
  EXPECT_EQ(s.prev_value(0, 120), 9);
  EXPECT_EQ(s.remove_range(0, 10, 120), prop_unchanged);
  EXPECT_EQ(s.remove_range(0, -30, -5), prop_changed);  // a bound inside: it moves past the range
  EXPECT_EQ(s.min(0), -4);
  EXPECT_EQ(s.remove_range(0, 0, 9), prop_changed);  // the values -4..-1 and 121..130 are left
  EXPECT_EQ(s.domain_size(0), 14);
  EXPECT_EQ(s.remove_range(0, -1, 125), prop_changed);  // the upper part of the range is empty already
  EXPECT_EQ(p.values(0), (Values{-4, -3, -2, 126, 127, 128, 129, 130}));
  EXPECT_EQ(s.remove_range(0, 128, 500), prop_changed);
  EXPECT_EQ(s.max(0), 127);
  EXPECT_EQ(s.remove_range(0, 5, 3), prop_unchanged);  // an empty range
  EXPECT_EQ(s.remove_range(0, -4, 127), prop_changed | prop_failed);
  EXPECT_GT(p.lb[0], p.ub[0]);
}

TEST(HoleStore, BoundsOnlyVariablesKeepTheValuesInsideAndMoveTheirBounds) {
  Program p;
  p.add_var(0, 9);
  p.give_bits(p.add_var(0, 9));
  const auto s = p.store();
  EXPECT_FALSE(s.has_bits(0));
  EXPECT_TRUE(s.has_bits(1));
  EXPECT_EQ(s.remove(0, 4), prop_unchanged);  // sound, weaker
  EXPECT_TRUE(s.contains(0, 4));
  EXPECT_EQ(s.remove(0, 0), prop_changed);
  EXPECT_EQ(s.min(0), 1);
  EXPECT_EQ(s.remove_range(0, 3, 5), prop_unchanged);
  EXPECT_EQ(s.remove_range(0, 7, 12), prop_changed);
  EXPECT_EQ(s.max(0), 6);
  // The other variable's bitset is untouched.
  EXPECT_EQ(s.domain_size(1), 10);
  EXPECT_EQ(p.values(0), (Values{1, 2, 3, 4, 5, 6}));
}

struct StoreTally {
  int sequences = 0, operations = 0, failures = 0, changes = 0, multiword = 0;
};

/// Random operations on 1 to 4 variables of 1 to 200 values (a fifth of them bounds-only), the
/// bitsets laid out in a random order, against one std::set per variable. A sequence ends at the
/// first failure (an operation that empties a domain) or after 300 operations.
template <bool Concurrent>
void random_store_operations(std::uint32_t seed, StoreTally& tally) {
  std::mt19937 rng(seed);
  struct Var {
    int x;
    bool bits;
    std::int64_t lo, hi;
    Model m;
  };
  Program p;
  std::vector<Var> vars;
  const int n = uniform(rng, 1, 4);
  const int spans[] = {1, 2, 3, 63, 64, 65, 127, 128, 129, 191, 192, 193, 200};
  for (int i = 0; i < n; ++i) {
    const int span = rng() % 2 ? spans[rng() % std::size(spans)] : uniform(rng, 1, 200);
    const int lo = uniform(rng, -100, 100);
    const int x = p.add_var(lo, lo + span - 1);
    vars.push_back({x, rng() % 5 != 0, lo, lo + span - 1, interval(lo, lo + span - 1)});
    tally.multiword += span > 64;
  }
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  for (const int i : order)
    if (vars[i].bits) p.give_bits(vars[i].x);
  const StoreRef<Concurrent> s = store_of<Concurrent>(p);
  ++tally.sequences;
  for (int op = 0; op < 300; ++op) {
    Var& var = vars[rng() % n];
    const int x = var.x;
    const std::int64_t l = s.min(x), u = s.max(x);
    Model want = var.m;
    auto erase_below = [&](std::int64_t a) { want.erase(want.begin(), want.lower_bound(a)); };
    auto erase_above = [&](std::int64_t b) { want.erase(want.upper_bound(b), want.end()); };
    // Removing v: with a bitset always; bounds-only only at a bound.
    auto erase_value = [&](std::int64_t v) {
      if (var.bits || (!want.empty() && (v == *want.begin() || v == *want.rbegin()))) want.erase(v);
    };
    // Removing [a, b]: with a bitset every value; bounds-only only when a bound is inside (the rest
    // is an interval, so erasing the whole range moves the bound past it).
    auto erase_range = [&](std::int64_t a, std::int64_t b) {
      if (a > b || want.empty()) return;
      const bool bound_inside = (*want.begin() >= a && *want.begin() <= b) || (*want.rbegin() >= a && *want.rbegin() <= b);
      if (var.bits || bound_inside) want.erase(want.lower_bound(a), want.upper_bound(b));
    };
    // Near a bound (a few values move it) or anywhere (it may jump far or fail).
    auto near_lb = [&]() -> std::int64_t { return rng() % 6 ? l + uniform(rng, -2, 4) : uniform(rng, l - 2, u + 2); };
    auto near_ub = [&]() -> std::int64_t { return rng() % 6 ? u - uniform(rng, -2, 4) : uniform(rng, l - 2, u + 2); };
    int st = 0;
    std::ostringstream what;
    switch (rng() % 7) {
      case 0: {  // remove a value of the domain
        const std::int64_t v = *std::next(var.m.begin(), rng() % var.m.size());
        what << "remove(" << v << ")";
        st = s.remove(x, v);
        erase_value(v);
        break;
      }
      case 1: {  // remove a bound
        const std::int64_t v = rng() % 2 ? l : u;
        what << "remove(" << v << ")";
        st = s.remove(x, v);
        erase_value(v);
        break;
      }
      case 2: {  // remove anything near the domain, maybe a hole or outside
        const std::int64_t v = uniform(rng, l - 2, u + 2);
        what << "remove(" << v << ")";
        st = s.remove(x, v);
        erase_value(v);
        break;
      }
      case 3: {
        const std::int64_t a = near_lb();
        what << "narrow_min(" << a << ")";
        st = s.narrow_min(x, a);
        erase_below(a);
        break;
      }
      case 4: {
        const std::int64_t b = near_ub();
        what << "narrow_max(" << b << ")";
        st = s.narrow_max(x, b);
        erase_above(b);
        break;
      }
      case 5: {
        const std::int64_t a = near_lb(), b = near_ub();
        what << "narrow_to(" << a << ", " << b << ")";
        st = s.narrow_to(x, a, b);
        erase_below(a);
        erase_above(b);
        break;
      }
      case 6: {
        const std::int64_t a = uniform(rng, l - 3, u + 3), b = a + uniform(rng, -1, 8);
        what << "remove_range(" << a << ", " << b << ")";
        st = s.remove_range(x, a, b);
        erase_range(a, b);
        break;
      }
    }
    ++tally.operations;
    const std::string context = "seed " + std::to_string(seed) + ", operation " + std::to_string(op) + ": x" +
                                std::to_string(x) + (var.bits ? "" : " (bounds only)") + " " + show(var.m) + ", " +
                                what.str();
    if (want.empty()) {
      ASSERT_TRUE(st & prop_failed) << context << " emptied the domain without failing";
      ASSERT_GT(s.min(x), s.max(x)) << context << " failed, but lb <= ub";
      ++tally.failures;
      return;
    }
    ASSERT_FALSE(st & prop_failed) << context << " failed, leaving " << show(want);
    ASSERT_EQ((st & prop_changed) != 0, want != var.m) << context << ": status " << st << ", leaving " << show(want);
    tally.changes += want != var.m;
    var.m = want;
    ASSERT_TRUE(matches(s, x, var.m, var.lo, var.hi)) << context;
    for (const Var& other : vars) {  // the others are untouched
      ASSERT_EQ(s.min(other.x), *other.m.begin()) << context << ": x" << other.x << " changed";
      ASSERT_EQ(s.max(other.x), *other.m.rbegin()) << context << ": x" << other.x << " changed";
      ASSERT_EQ(s.domain_size(other.x), static_cast<std::int64_t>(other.m.size())) << context << ": x" << other.x << " changed";
    }
  }
  for (const Var& var : vars) {
    ASSERT_TRUE(matches(s, var.x, var.m, var.lo, var.hi)) << "seed " << seed << " at the end";
    ASSERT_EQ(p.values(var.x), Values(var.m.begin(), var.m.end())) << "seed " << seed;
  }
}

template <bool Concurrent>
void check_random_store_operations() {
  StoreTally tally;
  const int sequences = test::quick_mode() ? 100 : 600;
  for (int seed = 0; seed < sequences; ++seed) {
    random_store_operations<Concurrent>(static_cast<std::uint32_t>(seed), tally);
    if (::testing::Test::HasFatalFailure()) return;
  }
  // Long sequences that end in failures, over multi-word bitsets.
  EXPECT_GT(tally.operations, sequences * 20);
  EXPECT_GT(tally.failures, sequences / 2);
  EXPECT_GT(tally.changes, tally.operations / 3);
  EXPECT_GT(tally.multiword, sequences / 2);
}

TEST(HoleStore, RandomOperationsMatchASetModel) { check_random_store_operations<false>(); }

TEST(HoleStore, ConcurrentStoreRunOneCallAtATimeMatchesASetModel) { check_random_store_operations<true>(); }

// ---------------------------------------------------------------------------------------------------
// 2. Brute force per family over small domains with holes.

using Pred = std::function<bool(const Assignment&)>;

/// Adds a variable over [lo, hi], with a bitset five times in six, and removes each of its values
/// with probability 1/3 (Program::store().remove; a bounds-only variable loses only values at its
/// bounds), keeping one. add_holey_var: 1 to 8 values around 0 (one value when `fixed`).
int add_holey_range(Program& p, std::mt19937& rng, int lo, int hi) {
  const int x = p.add_var(lo, hi);
  if (rng() % 6 != 0) p.give_bits(x);
  const auto s = p.store();
  for (int v = lo; v <= hi; ++v)
    if (s.domain_size(x) > 1 && rng() % 3 == 0) s.remove(x, v);
  return x;
}
int add_holey_var(Program& p, std::mt19937& rng, bool fixed = false) {
  const int span = fixed ? 1 : uniform(rng, 1, 8);
  const int lo = -(span / 2) + uniform(rng, -2, 2);
  return add_holey_range(p, rng, lo, lo + span - 1);
}

/// A 0/1 variable: {0}, {1} or {0, 1} (twice as often), with a bitset half the time.
int add_boolean(Program& p, std::mt19937& rng) {
  const int r = uniform(rng, 0, 3);
  const int b = p.add_var(r == 1 ? 1 : 0, r == 0 ? 0 : 1);
  if (rng() % 2) p.give_bits(b);
  return b;
}

/// A constraint over small domains with holes, its meaning and its solutions within the domains.
struct Case {
  Program p;
  std::vector<Values> before;  ///< each variable's values at the start
  Pred holds;
  std::vector<Assignment> solutions;  ///< every assignment of the values in `before` that holds
  std::string text;

  /// Records the domains and enumerates the solutions (call once p and holds are final).
  void finish() {
    before.clear();
    for (int x = 0; x < p.num_vars(); ++x) before.push_back(p.values(x));
    solutions.clear();
    Assignment v(before.size());
    std::function<void(std::size_t)> go = [&](std::size_t i) {
      if (i == before.size()) {
        if (holds(v)) solutions.push_back(v);
        return;
      }
      for (const std::int64_t a : before[i]) {
        v[i] = a;
        go(i + 1);
      }
    };
    go(0);
  }
  std::string show_domains() const {
    std::string s = text + " over";
    for (std::size_t x = 0; x < before.size(); ++x)
      s += " x" + std::to_string(x) + (p.has_bits(static_cast<int>(x)) ? " in " : " (bounds only) in ") + show(before[x]);
    return s;
  }
};

/// x's values after a fixpoint: its domain when it has a bitset, else every value of its bounds.
Values values_after(const Program& p, const FixpointOutcome& out, int x) {
  if (p.has_bits(x)) return out.domain(p, x);
  Values v;
  for (std::int64_t a = out.lb[x]; a <= out.ub[x]; ++a) v.push_back(a);
  return v;
}

struct Tally {
  int cases = 0, failed = 0, narrowed = 0;
  int holes_made = 0;  ///< cases where propagation removed a value strictly inside the bounds it left
  int promised = 0;    ///< cases where a family's promise about holes applied
  int promised_removals = 0;  ///< ... and a value strictly inside had to go
};

/// What every propagator keeps over domains with holes: no solution lost, no value added, bounds on
/// values of the domain, failure only without a solution, and, once every variable is fixed, failure
/// exactly when that is no solution.
::testing::AssertionResult keeps_every_solution(const Case& c, const FixpointOutcome& out, Tally& t) {
  ++t.cases;
  if (out.failed) {
    ++t.failed;
    if (!c.solutions.empty())
      return ::testing::AssertionFailure() << "failed with " << c.solutions.size() << " solutions, e.g. "
                                           << show(c.solutions.front());
    return ::testing::AssertionSuccess();
  }
  std::vector<Values> after;
  bool narrowed = false, hole = false, all_fixed = true;
  for (int x = 0; x < c.p.num_vars(); ++x) {
    if (out.lb[x] > out.ub[x])
      return ::testing::AssertionFailure() << "x" << x << " is empty, [" << out.lb[x] << ", " << out.ub[x]
                                           << "], without a failure";
    after.push_back(values_after(c.p, out, x));
    const Values& d = after.back();
    if (d.empty() || d.front() != out.lb[x] || d.back() != out.ub[x])
      return ::testing::AssertionFailure() << "x" << x << "'s bounds [" << out.lb[x] << ", " << out.ub[x]
                                           << "] are not values of its domain " << show(d);
    for (const std::int64_t v : d)
      if (!std::binary_search(c.before[x].begin(), c.before[x].end(), v))
        return ::testing::AssertionFailure() << "x" << x << " gained the value " << v << ": " << show(d);
    narrowed = narrowed || d != c.before[x];
    for (const std::int64_t v : c.before[x]) hole = hole || (v > d.front() && v < d.back() && !std::binary_search(d.begin(), d.end(), v));
    all_fixed = all_fixed && d.size() == 1;
  }
  for (const Assignment& s : c.solutions)
    for (int x = 0; x < c.p.num_vars(); ++x)
      if (!std::binary_search(after[x].begin(), after[x].end(), s[x]))
        return ::testing::AssertionFailure() << "lost the solution " << show(s) << ": x" << x << " in " << show(after[x]);
  if (all_fixed) {
    const Assignment a(out.lb.begin(), out.lb.end());
    if (!c.holds(a)) return ::testing::AssertionFailure() << "every variable fixed to " << show(a) << ", no solution";
  }
  t.narrowed += narrowed;
  t.holes_made += hole;
  return ::testing::AssertionSuccess();
}

/// d without v, as a removal leaves it: with a bitset always, bounds-only only at a bound.
Values without(const Program& p, int x, Values d, std::int64_t v) {
  if (!d.empty() && (p.has_bits(x) || v == d.front() || v == d.back())) d.erase(std::remove(d.begin(), d.end(), v), d.end());
  return d;
}

/// The fixpoint leaves x's domain `expected` and every other variable's as it was.
::testing::AssertionResult leaves_exactly(const Case& c, const FixpointOutcome& out, int x, const Values& expected) {
  if (out.failed) return ::testing::AssertionFailure() << "failed; x" << x << " should be left " << show(expected);
  for (int y = 0; y < c.p.num_vars(); ++y) {
    const Values d = values_after(c.p, out, y), want = y == x ? expected : c.before[y];
    if (d != want) return ::testing::AssertionFailure() << "x" << y << " left " << show(d) << ", expected " << show(want);
  }
  return ::testing::AssertionSuccess();
}

/// Every bound of the outcome takes part in a solution, checked against the solutions of `solutions`
/// (the domains' or the bounds').
::testing::AssertionResult bounds_supported(const std::vector<Assignment>& solutions, const FixpointOutcome& out) {
  for (std::size_t x = 0; x < out.lb.size(); ++x)
    for (const std::int64_t b : {std::int64_t(out.lb[x]), std::int64_t(out.ub[x])}) {
      bool supported = false;
      for (const Assignment& s : solutions) supported = supported || s[x] == b;
      if (!supported) return ::testing::AssertionFailure() << "bound " << b << " of x" << x << " has no support";
    }
  return ::testing::AssertionSuccess();
}

// Linear rows.

struct LinearRow {
  LinearKind kind;
  Reification mode;
  std::vector<std::int32_t> a;
  std::vector<int> x;  // distinct variables 0..k-1
  std::int64_t c;
  int b;  // variable k when reified
};

std::string kind_name(LinearKind k) {
  switch (k) {
    case LinearKind::le: return "le";
    case LinearKind::eq: return "eq";
    case LinearKind::ne: return "ne";
  }
  return "unknown";
}
std::string mode_name(Reification m) {
  switch (m) {
    case Reification::none: return "plain";
    case Reification::equivalent: return "equivalent";
    case Reification::implied: return "implied";
  }
  return "unknown";
}

bool row_holds(const LinearRow& r, const Assignment& v) {
  std::int64_t s = 0;
  for (std::size_t i = 0; i < r.a.size(); ++i) s += r.a[i] * v[r.x[i]];
  switch (r.kind) {
    case LinearKind::le: return s <= r.c;
    case LinearKind::eq: return s == r.c;
    case LinearKind::ne: return s != r.c;
  }
  return false;
}

/// 1-3 terms over variables with holes, reified by a 0/1 variable unless mode is none. A third of the
/// cases have every term but one fixed, half of those with the row's value aimed at a value of the
/// free term (what != removes).
std::pair<Case, LinearRow> linear_case(std::mt19937& rng, LinearKind kind, Reification mode, int trial) {
  Case c;
  const int k = 1 + trial % 3;
  const bool one_free = trial % 3 == 0;
  const int free_term = uniform(rng, 0, k - 1);
  LinearRow r{kind, mode, {}, {}, uniform(rng, -6, 6), -1};
  for (int i = 0; i < k; ++i) {
    r.x.push_back(add_holey_var(c.p, rng, one_free && i != free_term));
    int a = 0;
    while (a == 0) a = uniform(rng, -3, 3);
    r.a.push_back(a);
  }
  if (mode != Reification::none) r.b = add_boolean(c.p, rng);
  if (one_free && trial % 2 == 0) {
    std::int64_t fixed_sum = 0;
    for (int i = 0; i < k; ++i)
      if (i != free_term) fixed_sum += r.a[i] * std::int64_t(c.p.lb[r.x[i]]);
    const Values d = c.p.values(r.x[free_term]);
    r.c = fixed_sum + r.a[free_term] * d[rng() % d.size()];
  }
  c.p.add_row(kind, r.a, r.x, r.c, r.b, mode);
  c.holds = [r](const Assignment& v) {
    const bool row = row_holds(r, v);
    switch (r.mode) {
      case Reification::none: return row;
      case Reification::equivalent: return (v[r.b] == 1) == row;
      case Reification::implied: return v[r.b] == 0 || row;
    }
    return false;
  };
  std::ostringstream os;
  for (int i = 0; i < k; ++i) os << (i ? " + " : "") << r.a[i] << "*x" << r.x[i];
  os << " " << kind_name(kind) << " " << r.c;
  if (mode != Reification::none) os << " " << mode_name(mode) << " by x" << r.b;
  c.text = os.str();
  c.finish();
  return {c, r};
}

/// The row a fixed b makes the propagator run, as (negated?): the row itself, its negation (b = 0 of
/// b <-> row), or none (b free, or b = 0 of b -> row).
std::optional<bool> runs_negated(const LinearRow& r, std::int64_t b_lo, std::int64_t b_hi) {
  if (r.mode == Reification::none || b_lo == 1) return false;
  if (b_hi == 0 && r.mode == Reification::equivalent) return true;
  return std::nullopt;
}

/// What a row promises over holes: != (or the negation of =) with one free term removes exactly the
/// value the fixed terms leave it; <=, its negation and != reach bounds(Z) consistency on the domains
/// (every bound takes part in a solution); a free b stays free only while both of its values may.
::testing::AssertionResult linear_promises(const Case& c, const LinearRow& r, const FixpointOutcome& out, Tally& t) {
  const int k = static_cast<int>(r.x.size());
  auto ne_like = [&](bool negated) { return (r.kind == LinearKind::ne) != negated && r.kind != LinearKind::le; };
  {
    const auto negated = r.b < 0 ? std::optional<bool>(false) : runs_negated(r, c.before[r.b].front(), c.before[r.b].back());
    int free_term = -1, free_terms = 0;
    for (int i = 0; i < k; ++i)
      if (c.before[r.x[i]].size() > 1) free_term = i, ++free_terms;
    if (negated && ne_like(*negated) && free_terms == 1) {
      std::int64_t rest = r.c;
      for (int i = 0; i < k; ++i)
        if (i != free_term) rest -= r.a[i] * c.before[r.x[i]].front();
      const int x = r.x[free_term];
      Values expected = c.before[x];
      if (rest % r.a[free_term] == 0) {
        const std::int64_t v = rest / r.a[free_term];
        expected = without(c.p, x, expected, v);
        if (c.p.has_bits(x) && v > c.before[x].front() && v < c.before[x].back() && expected != c.before[x]) ++t.promised_removals;
      }
      ++t.promised;
      auto exact = leaves_exactly(c, out, x, expected);
      if (!exact) return exact << " (one free term of !=)";
    }
  }
  if (out.failed) return ::testing::AssertionSuccess();
  const std::optional<bool> negated = r.b < 0 ? std::optional<bool>(false) : runs_negated(r, out.lb[r.b], out.ub[r.b]);
  if (negated) {
    const bool eq_like = (r.kind == LinearKind::eq && !*negated) || (r.kind == LinearKind::ne && *negated);
    if (!eq_like) {
      auto b = bounds_supported(c.solutions, out);
      if (!b) return b << " (bounds(Z) consistency of " << (*negated ? "the negated row" : "the row") << ")";
    }
  } else if (r.b >= 0 && out.lb[r.b] != out.ub[r.b]) {
    auto b_supported = [&](int value) {
      for (const Assignment& s : c.solutions)
        if (s[r.b] == value) return true;
      return false;
    };
    // As in test_linear.cpp: the extreme sums (over bounds that are values of the domains) prove
    // both values of b for <=, b = 1 of != and b = 0 of =; gaps in the sums are not seen.
    if (r.kind != LinearKind::eq && !b_supported(1)) return ::testing::AssertionFailure() << "b free, but b = 1 has no support";
    if (!(r.mode == Reification::equivalent && r.kind == LinearKind::ne) && !b_supported(0))
      return ::testing::AssertionFailure() << "b free, but b = 0 has no support";
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult check_linear(const Case& c, const LinearRow& r, const FixpointOutcome& out, Tally& t) {
  const auto sound = keeps_every_solution(c, out, t);
  if (!sound) return sound;
  return linear_promises(c, r, out, t);
}

using LinearParam = std::tuple<LinearKind, Reification>;
const LinearKind all_kinds[] = {LinearKind::le, LinearKind::eq, LinearKind::ne};
const Reification all_modes[] = {Reification::none, Reification::equivalent, Reification::implied};

std::uint32_t linear_seed(LinearKind k, Reification m) { return 31000 + 3 * static_cast<int>(k) + static_cast<int>(m); }

class HoleLinearBruteForce : public ::testing::TestWithParam<LinearParam> {};

TEST_P(HoleLinearBruteForce, SoundAndKeepsItsPromisesOverHoles) {
  const auto [kind, mode] = GetParam();
  std::mt19937 rng(linear_seed(kind, mode));
  Tally t;
  const int trials = test::quick_mode() ? 300 : 2000;
  for (int trial = 0; trial < trials; ++trial) {
    const auto [c, r] = linear_case(rng, kind, mode, trial);
    ASSERT_TRUE(check_linear(c, r, test::serial_fixpoint_on(c.p), t)) << "trial " << trial << ": " << c.show_domains();
  }
  // b -> (sum != c) rarely does anything.
  const bool rarely = kind == LinearKind::ne && mode == Reification::implied;
  EXPECT_GT(t.failed, trials / (rarely ? 200 : 50));
  EXPECT_GT(t.narrowed, trials / (rarely ? 20 : 10));
  // != (and the negation of =, b = 0 of b <-> =) with one free term removes values inside.
  if (kind == LinearKind::ne || (kind == LinearKind::eq && mode == Reification::equivalent)) {
    EXPECT_GT(t.promised, trials / 30);
    EXPECT_GT(t.promised_removals, trials / 200);
  }
}

std::string linear_param_name(const ::testing::TestParamInfo<LinearParam>& info) {
  return kind_name(std::get<0>(info.param)) + "_" + mode_name(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Kinds, HoleLinearBruteForce,
                         ::testing::Combine(::testing::ValuesIn(all_kinds), ::testing::ValuesIn(all_modes)),
                         linear_param_name);

TEST(HoleLinear, ABoundLandingInAHoleMovesOnToTheNextValue) {
  auto program = [](LinearKind k, std::vector<std::int32_t> a, std::int64_t c) {
    Program p;
    const int x = p.add_var(0, 9);
    p.give_bits(x);
    for (const int v : {3, 4, 5}) p.store().remove(x, v);  // {0, 1, 2, 6, 7, 8, 9}
    const int y = p.add_var(1, 3);
    std::vector<int> xs = {x, y};
    xs.resize(a.size());
    p.add_row(k, a, xs, c);
    return p;
  };
  {
    const Program p = program(LinearKind::le, {1, 1}, 6);  // x + y <= 6: x <= 5, then 2
    const auto out = test::serial_fixpoint_on(p);
    ASSERT_FALSE(out.failed);
    EXPECT_EQ(out.domain(p, 0), (Values{0, 1, 2}));
  }
  {
    const Program p = program(LinearKind::le, {-1}, -3);  // x >= 3: then 6
    const auto out = test::serial_fixpoint_on(p);
    ASSERT_FALSE(out.failed);
    EXPECT_EQ(out.lb[0], 6);
    EXPECT_EQ(out.domain(p, 0), (Values{6, 7, 8, 9}));
  }
  {
    const Program p = program(LinearKind::eq, {2, -1}, 7);  // 2x - y = 7, y in [1, 3]: x in [4, 5]: none left
    EXPECT_TRUE(test::serial_fixpoint_on(p).failed);
  }
  {
    const Program p = program(LinearKind::ne, {1, -1}, 4);  // x - y != 4 with y fixed to 3: x != 7
    Program q = p;
    q.ub[1] = 3;
    q.lb[1] = 3;
    const auto out = test::serial_fixpoint_on(q);
    ASSERT_FALSE(out.failed);
    EXPECT_EQ(out.domain(q, 0), (Values{0, 1, 2, 6, 8, 9}));
  }
}

// Ternary propagators.

constexpr TernaryOp all_ops[] = {TernaryOp::add, TernaryOp::mul,     TernaryOp::tdiv,    TernaryOp::tmod,
                                 TernaryOp::min, TernaryOp::max,     TernaryOp::eq_reif, TernaryOp::le_reif,
                                 TernaryOp::abs, TernaryOp::pow};

std::string op_name(TernaryOp op) {
  switch (op) {
    case TernaryOp::add: return "add";
    case TernaryOp::mul: return "mul";
    case TernaryOp::tdiv: return "tdiv";
    case TernaryOp::tmod: return "tmod";
    case TernaryOp::min: return "min";
    case TernaryOp::max: return "max";
    case TernaryOp::eq_reif: return "eq_reif";
    case TernaryOp::le_reif: return "le_reif";
    case TernaryOp::abs: return "abs";
    case TernaryOp::pow: return "pow";
  }
  return "unknown";
}

/// What x = y op z means (as in test_ternary.cpp): the one x for (y, z), or none.
std::optional<std::int64_t> meaning(TernaryOp op, std::int64_t y, std::int64_t z) {
  switch (op) {
    case TernaryOp::add: return y + z;
    case TernaryOp::mul: return y * z;
    case TernaryOp::tdiv: return z == 0 ? std::nullopt : std::optional<std::int64_t>(y / z);
    case TernaryOp::tmod: return z == 0 ? std::nullopt : std::optional<std::int64_t>(y % z);
    case TernaryOp::min: return std::min(y, z);
    case TernaryOp::max: return std::max(y, z);
    case TernaryOp::eq_reif: return y == z ? 1 : 0;
    case TernaryOp::le_reif: return y <= z ? 1 : 0;
    case TernaryOp::abs: return y < 0 ? -y : y;
    case TernaryOp::pow: {
      if (z < 0) return std::nullopt;
      std::int64_t acc = 1;
      for (std::int64_t i = 0; i < z; ++i) acc *= y;  // |y| <= 8, z <= 8 here: no overflow
      return acc;
    }
  }
  return std::nullopt;
}

/// The ops whose propagator reaches bounds(Z) consistency within the others' bounds (ternary.hpp).
bool promises_bounds(TernaryOp op) {
  return op == TernaryOp::add || op == TernaryOp::min || op == TernaryOp::max || op == TernaryOp::eq_reif ||
         op == TernaryOp::le_reif || op == TernaryOp::abs;
}

/// x = y op z over variables 0, 1, 2 with holes (abs: x = |y|, no z); x in {0, 1} for the reified ops.
/// Half of the eq_reif cases have x = 0 and one side fixed, mostly to a value of the other side.
Case ternary_case(std::mt19937& rng, TernaryOp op, int trial) {
  Case c;
  const bool reified = op == TernaryOp::eq_reif || op == TernaryOp::le_reif;
  const bool eq_false = op == TernaryOp::eq_reif && trial % 2 == 0;
  const int x = eq_false ? c.p.add_var(0, 0) : (reified ? add_boolean(c.p, rng) : add_holey_var(c.p, rng));
  const int y = add_holey_var(c.p, rng);
  const int z = op == TernaryOp::abs ? y : add_holey_var(c.p, rng);
  if (eq_false) {
    // One side fixed, mostly to a value of the other: it gets a new one-value domain (bounds-only or
    // a new bitset; its old words stay unused).
    const int fixed = rng() % 2 ? y : z, other = y + z - fixed;
    const Values d = c.p.values(other);
    const auto v = static_cast<std::int32_t>(rng() % 4 ? d[rng() % d.size()] : uniform(rng, -5, 5));
    c.p.lb[fixed] = c.p.ub[fixed] = v;
    c.p.bits_at[fixed] = -1;
    c.p.bits_base[fixed] = v;
    if (rng() % 2) c.p.give_bits(fixed);
  }
  c.p.add_ternary(op, x, y, z);
  c.holds = [op](const Assignment& v) {
    const auto r = meaning(op, v[1], op == TernaryOp::abs ? v[1] : v[2]);
    return r && *r == v[0];
  };
  c.text = "x0 = " + (op == TernaryOp::abs ? "abs(x1)" : op_name(op) + "(x1, x2)");
  c.finish();
  return c;
}

/// What a ternary propagator promises over holes: eq_reif false with one side fixed removes that
/// value from the other side; the ops of promises_bounds reach bounds(Z) consistency within the
/// bounds they leave (every bound takes part in a solution where the others range over their bounds).
::testing::AssertionResult ternary_promises(const Case& c, TernaryOp op, const FixpointOutcome& out, Tally& t) {
  if (op == TernaryOp::eq_reif && c.before[0] == Values{0} && (c.before[1].size() == 1) != (c.before[2].size() == 1)) {
    const int fixed = c.before[1].size() == 1 ? 1 : 2, other = 3 - fixed;
    const std::int64_t v = c.before[fixed].front();
    const Values expected = without(c.p, other, c.before[other], v);
    if (c.p.has_bits(other) && v > c.before[other].front() && v < c.before[other].back() && expected != c.before[other])
      ++t.promised_removals;
    ++t.promised;
    auto exact = leaves_exactly(c, out, other, expected);
    if (!exact) return exact << " (eq_reif false, x" << fixed << " fixed)";
  }
  if (out.failed || !promises_bounds(op)) return ::testing::AssertionSuccess();
  auto b = bounds_supported(test::solutions_in(out.lb, out.ub, c.holds), out);
  if (!b) return b << " within the bounds left";
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult check_ternary(const Case& c, TernaryOp op, const FixpointOutcome& out, Tally& t) {
  const auto sound = keeps_every_solution(c, out, t);
  if (!sound) return sound;
  return ternary_promises(c, op, out, t);
}

class HoleTernaryBruteForce : public ::testing::TestWithParam<TernaryOp> {};

TEST_P(HoleTernaryBruteForce, SoundAndKeepsItsPromisesOverHoles) {
  const TernaryOp op = GetParam();
  std::mt19937 rng(32000 + static_cast<int>(op));
  Tally t;
  const int trials = test::quick_mode() ? 300 : 3000;
  for (int trial = 0; trial < trials; ++trial) {
    const Case c = ternary_case(rng, op, trial);
    ASSERT_TRUE(check_ternary(c, op, test::serial_fixpoint_on(c.p), t)) << "trial " << trial << ": " << c.show_domains();
  }
  EXPECT_GT(t.failed, trials / 50) << op_name(op);
  EXPECT_GT(t.narrowed, trials / 10) << op_name(op);
  if (op == TernaryOp::eq_reif) {
    EXPECT_GT(t.promised, trials / 4);
    EXPECT_GT(t.promised_removals, trials / 20);
  }
}

TEST_P(HoleTernaryBruteForce, AliasedVariablesAreSoundOverHoles) {
  // x = y op y, x = x op z, x = y op x, x = x op x over domains with holes: every solution survives,
  // bounds stay on values, and all fixed and false fails.
  const TernaryOp op = GetParam();
  const int patterns[4][3] = {{0, 1, 1}, {0, 0, 1}, {0, 1, 0}, {0, 0, 0}};
  std::mt19937 rng(34000 + static_cast<int>(op));
  Tally t;
  const int trials = test::quick_mode() ? 100 : 1000;
  for (int trial = 0; trial < trials; ++trial) {
    const auto& pat = patterns[trial % 4];
    const int k = 1 + std::max({pat[0], pat[1], pat[2]});
    Case c;
    for (int i = 0; i < k; ++i) add_holey_var(c.p, rng);
    c.p.add_ternary(op, pat[0], pat[1], op == TernaryOp::abs ? pat[1] : pat[2]);
    c.holds = [op, pat](const Assignment& v) {
      const auto x = meaning(op, v[pat[1]], op == TernaryOp::abs ? v[pat[1]] : v[pat[2]]);
      return x && *x == v[pat[0]];
    };
    c.text = "x" + std::to_string(pat[0]) + " = " + op_name(op) + "(x" + std::to_string(pat[1]) + ", x" +
             std::to_string(op == TernaryOp::abs ? pat[1] : pat[2]) + ")";
    c.finish();
    ASSERT_TRUE(keeps_every_solution(c, test::serial_fixpoint_on(c.p), t)) << "trial " << trial << ": " << c.show_domains();
  }
  EXPECT_GT(t.failed, 0) << op_name(op);
  EXPECT_GT(t.narrowed, trials / 20) << op_name(op);
}

std::string op_param_name(const ::testing::TestParamInfo<TernaryOp>& info) { return op_name(info.param); }

INSTANTIATE_TEST_SUITE_P(Ops, HoleTernaryBruteForce, ::testing::ValuesIn(all_ops), op_param_name);

// Element.

/// result = values[index - 1] over an index (variable 0) of 1 to n + 3 values from -1, 0, 1 or 2 and
/// a result (variable 1) around 0 or over the array's values, both with holes; arrays of 1 to 6
/// values in [-4, 4].
std::pair<Case, std::vector<std::int32_t>> element_case(std::mt19937& rng) {
  Case c;
  std::vector<std::int32_t> values(uniform(rng, 1, 6));
  for (auto& v : values) v = uniform(rng, -4, 4);
  const int n = static_cast<int>(values.size());
  const int span = uniform(rng, 1, n + 3), lo = uniform(rng, -1, 2);
  const int index = add_holey_range(c.p, rng, lo, lo + span - 1);
  const auto [least, most] = std::minmax_element(values.begin(), values.end());
  const int result = rng() % 2 ? add_holey_var(c.p, rng) : add_holey_range(c.p, rng, *least, *most);
  c.p.add_global<Element>({index, result}, values);
  c.holds = [values](const Assignment& v) {
    return v[0] >= 1 && v[0] <= static_cast<std::int64_t>(values.size()) && values[v[0] - 1] == v[1];
  };
  c.text = "x1 = " + show(values) + "[x0]";
  c.finish();
  return {c, values};
}

/// What element promises over holes: it fails exactly when no solution is left, every bound takes
/// part in a solution, and an index with a bitset keeps only supported positions (domain consistency).
::testing::AssertionResult element_promises(const Case& c, const FixpointOutcome& out, Tally& t) {
  if (out.failed) return ::testing::AssertionSuccess();
  if (c.solutions.empty()) return ::testing::AssertionFailure() << "no solution, and no failure";
  const auto b = bounds_supported(c.solutions, out);
  if (!b) return b;
  if (!c.p.has_bits(0)) return ::testing::AssertionSuccess();
  ++t.promised;
  const Values index = out.domain(c.p, 0);
  for (const std::int64_t i : index) {
    bool supported = false;
    for (const Assignment& s : c.solutions) supported = supported || s[0] == i;
    if (!supported) return ::testing::AssertionFailure() << "index " << i << " of " << show(index) << " has no support";
  }
  for (const std::int64_t i : c.before[0])
    if (i > index.front() && i < index.back() && !std::binary_search(index.begin(), index.end(), i)) {
      ++t.promised_removals;
      break;
    }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult check_element(const Case& c, const FixpointOutcome& out, Tally& t) {
  const auto sound = keeps_every_solution(c, out, t);
  if (!sound) return sound;
  return element_promises(c, out, t);
}

TEST(HoleElementBruteForce, SoundCompleteAndDomainConsistentOnTheIndex) {
  std::mt19937 rng(33000);
  Tally t;
  const int trials = test::quick_mode() ? 500 : 5000;
  for (int trial = 0; trial < trials; ++trial) {
    const auto [c, values] = element_case(rng);
    ASSERT_TRUE(check_element(c, test::serial_fixpoint_on(c.p), t)) << "trial " << trial << ": " << c.show_domains();
  }
  EXPECT_GT(t.failed, trials / 20);
  EXPECT_GT(t.narrowed, trials / 5);
  EXPECT_GT(t.promised_removals, trials / 50);
}

TEST(HoleElement, TheIndexLosesEveryUnsupportedPositionAndTheResultMovesPastHoles) {
  Program p;
  const int index = p.add_var(1, 5);
  p.give_bits(index);
  const int result = p.add_var(3, 9);
  p.give_bits(result);
  p.store().remove_range(result, 4, 8);  // {3, 9}
  p.add_global<Element>({index, result}, {3, 7, 3, 9, 3});
  const auto out = test::serial_fixpoint_on(p);
  ASSERT_FALSE(out.failed);
  EXPECT_EQ(out.domain(p, index), (Values{1, 3, 4, 5}));
  EXPECT_EQ(out.domain(p, result), (Values{3, 9}));
  // The result loses 9: position 4 goes too.
  p.store().remove(result, 9);
  const auto out2 = test::serial_fixpoint_on(p);
  ASSERT_FALSE(out2.failed);
  EXPECT_EQ(out2.domain(p, index), (Values{1, 3, 5}));
  EXPECT_EQ(out2.domain(p, result), (Values{3}));
}

TEST(HoleTernary, EqReifFalseWithOneSideFixedRemovesItsValue) {
  Program p;
  const int b = p.add_var(0, 0);
  const int y = p.add_var(0, 9);
  p.give_bits(y);
  const int z = p.add_var(4, 4);
  p.add_ternary(TernaryOp::eq_reif, b, y, z);
  const auto out = test::serial_fixpoint_on(p);
  ASSERT_FALSE(out.failed);
  EXPECT_EQ(out.domain(p, y), (Values{0, 1, 2, 3, 5, 6, 7, 8, 9}));
}

// Per backend: the team fixpoint equals the serial one on the same cases and keeps the same promises.

template <class Space>
class HoleFamiliesOnBackend : public ::testing::Test {};
TYPED_TEST_SUITE(HoleFamiliesOnBackend, test::Backends, test::BackendName);

TYPED_TEST(HoleFamiliesOnBackend, LinearRowsEqualTheSerialReferenceAndKeepTheirPromises) {
  const int trials = test::quick_mode() ? 8 : 60;
  for (const LinearKind kind : all_kinds)
    for (const Reification mode : all_modes) {
      std::mt19937 rng(linear_seed(kind, mode) + 500);
      Tally t;
      for (int trial = 0; trial < trials; ++trial) {
        const auto [c, r] = linear_case(rng, kind, mode, trial);
        const auto cmp = test::compare_team_with_serial<TypeParam>(c.p);
        ASSERT_EQ(cmp.difference, "") << kind_name(kind) << " " << mode_name(mode) << " trial " << trial << ": " << c.show_domains();
        ASSERT_TRUE(check_linear(c, r, cmp.team, t)) << "trial " << trial << ": " << c.show_domains();
      }
    }
}

TYPED_TEST(HoleFamiliesOnBackend, TernaryEqualsTheSerialReferenceAndKeepsItsPromises) {
  const int trials = test::quick_mode() ? 8 : 50;
  for (const TernaryOp op : all_ops) {
    std::mt19937 rng(32500 + static_cast<int>(op));
    Tally t;
    for (int trial = 0; trial < trials; ++trial) {
      const Case c = ternary_case(rng, op, trial);
      const auto cmp = test::compare_team_with_serial<TypeParam>(c.p);
      ASSERT_EQ(cmp.difference, "") << op_name(op) << " trial " << trial << ": " << c.show_domains();
      ASSERT_TRUE(check_ternary(c, op, cmp.team, t)) << "trial " << trial << ": " << c.show_domains();
    }
  }
}

TYPED_TEST(HoleFamiliesOnBackend, ElementEqualsTheSerialReferenceAndKeepsItsPromises) {
  std::mt19937 rng(33500);
  Tally t;
  const int trials = test::quick_mode() ? 60 : 400;
  for (int trial = 0; trial < trials; ++trial) {
    const auto [c, values] = element_case(rng);
    const auto cmp = test::compare_team_with_serial<TypeParam>(c.p);
    ASSERT_EQ(cmp.difference, "") << "trial " << trial << ": " << c.show_domains();
    ASSERT_TRUE(check_element(c, cmp.team, t)) << "trial " << trial << ": " << c.show_domains();
  }
  EXPECT_GT(t.promised_removals, 0);
}

TYPED_TEST(HoleFamiliesOnBackend, PromisedRemovalsHappenOnTheTeamToo) {
  // != with one free term, eq_reif false with one side fixed, and element's unsupported positions.
  Program p;
  const int x = p.add_var(0, 9), y = p.add_var(3, 3), b = p.add_var(0, 0), w = p.add_var(0, 9), z = p.add_var(4, 4);
  const int index = p.add_var(1, 5), result = p.add_var(3, 9);
  for (const int v : {x, w, index, result}) p.give_bits(v);
  p.store().remove_range(result, 4, 8);
  p.add_row(LinearKind::ne, {1, -1}, {x, y}, 2);  // x != 5
  p.add_ternary(TernaryOp::eq_reif, b, w, z);     // w != 4
  p.add_global<Element>({index, result}, {3, 7, 3, 9, 3});  // index != 2
  const auto out = test::team_fixpoint_on<TypeParam>(p);
  ASSERT_FALSE(out.failed);
  EXPECT_EQ(out.domain(p, x), (Values{0, 1, 2, 3, 4, 6, 7, 8, 9}));
  EXPECT_EQ(out.domain(p, w), (Values{0, 1, 2, 3, 5, 6, 7, 8, 9}));
  EXPECT_EQ(out.domain(p, index), (Values{1, 3, 4, 5}));
  EXPECT_EQ(test::compare_team_with_serial<TypeParam>(p).difference, "");
}

// ---------------------------------------------------------------------------------------------------
// 3. Team and event-driven fixpoints on random networks with holes.

/// Gives every variable of 3 to `span` values a bitset and removes each of its values with
/// probability 1/4, keeping one.
void punch_holes(Program& p, std::mt19937& rng, std::int64_t span) {
  p.give_bitsets(span);
  const auto s = p.store();
  for (int x = 0; x < p.num_vars(); ++x) {
    if (!p.has_bits(x)) continue;
    const std::int32_t lo = p.lb[x], hi = p.ub[x];
    for (std::int32_t v = lo; v <= hi; ++v)
      if (s.domain_size(x) > 1 && rng() % 4 == 0) s.remove(x, v);
  }
}

/// p with holes punched (punch_holes). When `alive`, up to 8 patterns are tried for one whose serial
/// fixpoint does not fail (holes make most random networks fail; a network that fails without any
/// keeps failing).
Program with_holes(const Program& p, std::mt19937& rng, std::int64_t span, bool alive) {
  Program q = p;
  punch_holes(q, rng, span);
  for (int attempt = 1; alive && attempt < 8 && test::serial_fixpoint_on(q).failed; ++attempt) {
    q = p;
    punch_holes(q, rng, span);
  }
  return q;
}

/// Whether the fixpoint removed a value strictly inside the bounds it left (a hole made by
/// propagation, not only bounds moved).
bool made_a_hole(const Program& p, const FixpointOutcome& out) {
  if (out.failed) return false;
  const auto root = FixpointOutcome::root_domains(p);
  for (int x = 0; x < p.num_vars(); ++x) {
    if (!p.has_bits(x)) continue;
    const Values d = out.domain(p, x);
    for (const std::int64_t v : root[x])
      if (v > out.lb[x] && v < out.ub[x] && !std::binary_search(d.begin(), d.end(), v)) return true;
  }
  return false;
}

/// Every bitset variable's bounds are values of its domain (the bounds are kept normalised).
std::string unnormalised(const Program& p, const FixpointOutcome& out) {
  if (out.failed) return {};
  for (int x = 0; x < p.num_vars(); ++x) {
    if (!p.has_bits(x)) continue;
    const Values d = out.domain(p, x);
    if (d.empty() || d.front() != out.lb[x] || d.back() != out.ub[x])
      return "x" + std::to_string(x) + ": bounds [" + std::to_string(out.lb[x]) + ", " + std::to_string(out.ub[x]) +
             "], values " + show(d);
  }
  return {};
}

template <class Space>
class HoleFixpointOnBackend : public ::testing::Test {};
TYPED_TEST_SUITE(HoleFixpointOnBackend, test::Backends, test::BackendName);

TYPED_TEST(HoleFixpointOnBackend, TeamFixpointEqualsSerialOnRandomRowNetworksWithHoles) {
  int failed = 0, narrowed = 0, holes = 0;
  const int networks = test::quick_mode() ? 60 : 400;
  for (int seed = 0; seed < networks; ++seed) {
    std::mt19937 rng(41000 + seed);
    const Program p = with_holes(test::random_program(rng, 3 + seed % 12, 1 + seed % 12, 6), rng, 64, seed % 4 != 0);
    const auto c = test::compare_team_with_serial<TypeParam>(p);
    ASSERT_EQ(c.difference, "") << "seed " << seed;
    ASSERT_EQ(unnormalised(p, c.serial), "") << "seed " << seed;
    failed += c.serial.failed;
    narrowed += c.serial.narrowed(p);
    holes += made_a_hole(p, c.serial);
  }
  // Random rows fail often; != with one free term makes holes.
  EXPECT_GT(failed, networks / 10);
  EXPECT_GT(narrowed, networks / 10);
  EXPECT_GT(holes, networks / 200);
}

TYPED_TEST(HoleFixpointOnBackend, AllFamiliesTeamEqualsSerialWithHoles) {
  // Every family; bitsets of one word (span 64) or up to three (span 256: the ternary results of
  // [-64, 64]); the team fixpoint under two options, on the program as built or sorted by op, with
  // every row on a vector group or every row on a lane.
  const FixpointOptions variants[] = {{32}, {3}};
  const int networks = test::quick_mode() ? 40 : 300;
  int failed = 0, narrowed = 0, holes = 0;
  for (int seed = 0; seed < networks; ++seed) {
    std::mt19937 rng(42000 + seed);
    const Program p = with_holes(test::random_network(rng, 3 + seed % 10, seed % 5, 1 + seed % 6, seed % 3, 8), rng,
                                 seed % 3 == 0 ? 256 : 64, seed % 4 != 0);
    const auto expected = test::serial_fixpoint_on(p);
    ASSERT_EQ(unnormalised(p, expected), "") << "seed " << seed;
    Program sorted = p;
    sort_ternary_by_op(sorted);
    const auto serial_sorted = test::serial_fixpoint_on(sorted);
    ASSERT_EQ(serial_sorted.failed, expected.failed) << "seed " << seed;
    if (!expected.failed) {
      ASSERT_EQ(test::domain_difference(p, serial_sorted, expected), "") << "seed " << seed << ", sorted";
    }
    const Program& q = seed % 2 ? sorted : p;
    for (const FixpointOptions& options : variants)
      for (const int lane_row_terms : {0, 1 << 30}) {
        const auto c = test::compare_team_with_serial<TypeParam>(q, options, lane_row_terms);
        ASSERT_EQ(c.difference, "") << "seed " << seed << ", chunk " << options.ternary_chunk
                                    << (seed % 2 ? ", sorted" : "")
                                    << ", lane rows up to " << lane_row_terms << " terms";
        ASSERT_EQ(unnormalised(q, c.team), "") << "seed " << seed;
      }
    failed += expected.failed;
    narrowed += expected.narrowed(p);
    holes += made_a_hole(p, expected);
  }
  EXPECT_GT(failed, networks / 10);
  EXPECT_GT(narrowed, networks / 6);
  EXPECT_GT(holes, networks / 20);
}

TYPED_TEST(HoleFixpointOnBackend, QueueFixpointFromTheRootEqualsSerialWithHoles) {
  int failed = 0, holes = 0;
  const int networks = test::quick_mode() ? 40 : 300;
  for (int seed = 0; seed < networks; ++seed) {
    std::mt19937 rng(43000 + seed);
    Program p = with_holes(test::random_network(rng, 3 + seed % 10, seed % 5, 1 + seed % 6, seed % 3, 8), rng,
                           seed % 3 == 0 ? 256 : 64, seed % 4 != 0);
    if (seed % 2) sort_ternary_by_op(p);
    const auto expected = test::serial_fixpoint_on(p);
    for (const int lane_row_terms : {2, default_lane_row_terms}) {
      const auto got = test::queue_fixpoint_on<TypeParam>(p, {{}}, true, nullptr, lane_row_terms);
      ASSERT_EQ(got.failed, expected.failed) << "seed " << seed << ", lane rows up to " << lane_row_terms;
      if (!expected.failed) {
        ASSERT_EQ(test::domain_difference(p, got, expected), "") << "seed " << seed << ", lane rows up to " << lane_row_terms;
      }
    }
    failed += expected.failed;
    holes += made_a_hole(p, expected);
  }
  EXPECT_GT(failed, networks / 10);
  EXPECT_GT(holes, networks / 20);
}

struct EventTally {
  int checked = 0, failed = 0, removals = 0, inside = 0;
};

/// From p's serial fixpoint (skipped when it fails), up to 4 rounds of `per_round` narrowings and
/// removals (a dive's decisions: x != v twice as often as x = v, x <= v or x >= v; a removed value is
/// mostly strictly inside the domain) recorded as events: each round's event-driven fixpoint on Space
/// equals the serial fixpoint of the same narrowed store, holes included, and the first failing
/// round is the same.
template <class Space>
::testing::AssertionResult events_equal_serial(const Program& p, std::mt19937& rng, int per_round, int lane_row_terms,
                                               EventTally& t) {
  const auto root = test::serial_fixpoint_on(p);
  if (root.failed) return ::testing::AssertionSuccess();
  std::vector<std::vector<test::Narrowing>> rounds;
  Program narrowed = p;
  narrowed.lb = root.lb;
  narrowed.ub = root.ub;
  narrowed.bits = root.bits;
  int expected_round = -1;
  for (int r = 0; r < 4 && expected_round < 0; ++r) {
    std::vector<test::Narrowing> round;
    const auto s = narrowed.store();
    for (int k = 0; k < per_round; ++k) {
      const int x = uniform(rng, 0, p.num_vars() - 1);
      const std::int32_t lo = s.min(x), hi = s.max(x);
      const std::int64_t size = s.domain_size(x);
      // A value of the domain (strictly inside half the time, when there is one), else any value of
      // the bounds (maybe a hole).
      std::int32_t v;
      if (rng() % 2 && size >= 3) {
        v = static_cast<std::int32_t>(s.value_at_rank(x, 1 + static_cast<std::int64_t>(rng() % (size - 2))));
      } else if (rng() % 3) {
        v = static_cast<std::int32_t>(s.value_at_rank(x, static_cast<std::int64_t>(rng() % size)));
      } else {
        v = uniform(rng, lo, hi);
      }
      switch (rng() % 5) {
        case 0:
        case 1:
          round.push_back(test::Narrowing{x, v, v, true});
          ++t.removals;
          t.inside += p.has_bits(x) && v > lo && v < hi && s.contains(x, v);
          break;
        case 2: round.push_back(test::Narrowing{x, v, v}); break;
        case 3: round.push_back(test::Narrowing{x, lo, v}); break;
        default: round.push_back(test::Narrowing{x, v, hi}); break;
      }
    }
    rounds.push_back(round);
    int st = 0;
    for (const auto& nw : round) st |= nw.remove ? s.remove(nw.x, nw.lo) : s.narrow_to(nw.x, nw.lo, nw.hi);
    const auto fp = (st & prop_failed) ? FixpointOutcome{true, {}, {}, {}, 0} : test::serial_fixpoint_on(narrowed);
    if (fp.failed) {
      expected_round = r;
    } else {
      const std::string u = unnormalised(narrowed, fp);
      if (!u.empty()) return ::testing::AssertionFailure() << "serial fixpoint of round " << r << ": " << u;
      narrowed.lb = fp.lb;
      narrowed.ub = fp.ub;
      narrowed.bits = fp.bits;
    }
  }
  const auto got = test::queue_fixpoint_on<Space>(p, rounds, false, &root, lane_row_terms);
  ++t.checked;
  if (got.failed != (expected_round >= 0))
    return ::testing::AssertionFailure() << (got.failed ? "the queue fixpoint fails in round " + std::to_string(got.iterations)
                                                        : std::string("the queue fixpoint does not fail"))
                                         << ", the serial one " << (expected_round >= 0 ? "in round " + std::to_string(expected_round) : "does not");
  if (expected_round >= 0) {
    ++t.failed;
    if (got.iterations != expected_round)
      return ::testing::AssertionFailure() << "the queue fixpoint fails in round " << got.iterations << ", the serial one in "
                                           << expected_round;
    return ::testing::AssertionSuccess();
  }
  FixpointOutcome expected;
  expected.lb = narrowed.lb;
  expected.ub = narrowed.ub;
  expected.bits = narrowed.bits;
  const std::string d = test::domain_difference(p, got, expected);
  if (!d.empty()) return ::testing::AssertionFailure() << "queue against serial: " << d;
  return ::testing::AssertionSuccess();
}

TYPED_TEST(HoleFixpointOnBackend, QueueFixpointFromEventsWithRemovalsEqualsSerialRoundAfterRound) {
  EventTally t;
  const int networks = test::quick_mode() ? 80 : 600;
  for (int seed = 0; seed < networks; ++seed) {
    std::mt19937 rng(44000 + seed);
    const Program p = with_holes(test::random_network(rng, 4 + seed % 10, 1 + seed % 5, 1 + seed % 6, seed % 3, 10),
                                 rng, seed % 4 == 0 ? 256 : 64, true);
    ASSERT_TRUE(events_equal_serial<TypeParam>(p, rng, 1 + seed % 3, 1 + seed % 3, t)) << "seed " << seed;
  }
  EXPECT_GT(t.checked, networks / 5);
  EXPECT_GT(t.failed, networks / 12);
  EXPECT_GT(t.checked - t.failed, networks / 12);
  EXPECT_GT(t.inside, networks / 15);
  EXPECT_GT(t.removals, networks / 3);
}

TEST(HoleFixpoint, EachVariablesPropagatorsAreOrderedByTheChangesThatWakeThem) {
  // x != y over two bitsets wakes on fixes only; over a bounds-only z (whose bound may later move
  // onto the value) on a bound; reified (its negation carries holes across) on any change; <= on a
  // bound.
  Program p;
  const int x = p.add_var(0, 9), y = p.add_var(0, 9), z = p.add_var(0, 99), b = p.add_var(0, 1), w = p.add_var(3, 4);
  p.give_bits(x);
  p.give_bits(y);
  p.add_row(LinearKind::ne, {1, -1}, {x, y}, 0);                              // 0: fixed
  p.add_row(LinearKind::ne, {1, -1}, {x, z}, 0);                              // 1: z bounds-only
  p.add_row(LinearKind::ne, {1, -1}, {x, y}, 1, b, Reification::equivalent);  // 2: reified
  p.add_row(LinearKind::le, {1, -1}, {x, y}, 0);                              // 3
  p.add_row(LinearKind::ne, {1, 1, 2}, {x, y, w}, 5);                         // 4: w has two values
  p.add_row(LinearKind::eq, {1, -1}, {x, y}, 2);                              // 5: a unit pair
  std::vector<std::int32_t> begin, props, wake;
  propagators_of_variables(p, begin, props, &wake);
  ASSERT_EQ(wake.size(), std::size_t(2 * p.num_vars()));
  using Ids = std::vector<std::int32_t>;
  const auto part = [&](int v, Wake kind) {
    const auto at = [&](int k) { return props.begin() + k; };
    const auto x2 = std::size_t(2 * v);
    switch (kind) {
      case Wake::fixed: return Ids(at(begin[std::size_t(v)]), at(wake[x2]));
      case Wake::bound: return Ids(at(wake[x2]), at(wake[x2 + 1]));
      default: return Ids(at(wake[x2 + 1]), at(begin[std::size_t(v) + 1]));
    }
  };
  EXPECT_EQ(part(x, Wake::fixed), (Ids{0, 4}));
  EXPECT_EQ(part(x, Wake::bound), (Ids{1, 3}));
  EXPECT_EQ(part(x, Wake::value), (Ids{2, 5}));
  EXPECT_EQ(part(y, Wake::fixed), (Ids{0, 4}));
  EXPECT_EQ(part(y, Wake::bound), (Ids{3}));
  EXPECT_EQ(part(z, Wake::fixed), (Ids{}));
  EXPECT_EQ(part(z, Wake::bound), (Ids{1}));
  EXPECT_EQ(part(w, Wake::fixed), (Ids{4}));
  EXPECT_EQ(part(b, Wake::value), (Ids{2}));
}

TYPED_TEST(HoleFixpointOnBackend, AllDifferentAsNotEqualRowsWokenOnFixesEqualsSerialRoundAfterRound) {
  // Queens' shape: x_i in [0, n), d_i = x_i + i, e_i = x_i - i, and x_i != x_j, d_i != d_j, e_i != e_j
  // for i < j. A third of the networks leave the d_i bounds-only (spans beyond the bitset span), so
  // their rows are woken by bounds.
  EventTally t;
  int fix_only = 0;
  const int networks = test::quick_mode() ? 60 : 300;
  for (int seed = 0; seed < networks; ++seed) {
    std::mt19937 rng(46000 + seed);
    const int n = 4 + seed % 9;
    const int wide = seed % 3 == 0 ? 70 : 2 * n;
    Program p;
    std::vector<int> xs, ds, es;
    for (int i = 0; i < n; ++i) xs.push_back(p.add_var(0, n - 1));
    for (int i = 0; i < n; ++i) ds.push_back(p.add_var(-wide, wide));
    for (int i = 0; i < n; ++i) es.push_back(p.add_var(-2 * n, 2 * n));
    for (int i = 0; i < n; ++i) {
      p.add_row(LinearKind::eq, {1, -1}, {ds[std::size_t(i)], xs[std::size_t(i)]}, i);
      p.add_row(LinearKind::eq, {1, -1}, {es[std::size_t(i)], xs[std::size_t(i)]}, -i);
    }
    // Every other network has the native all_different over the x_i (woken on bounds: Hall intervals).
    if (seed % 2) p.add_global<AllDifferent>(xs);
    for (const auto* vs : {&xs, &ds, &es})
      for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
          if (vs != &xs || seed % 2 == 0) p.add_row(LinearKind::ne, {1, -1}, {(*vs)[std::size_t(i)], (*vs)[std::size_t(j)]}, 0);
    const Program q = with_holes(p, rng, 64, true);
    std::vector<std::int32_t> begin, props, wake;
    propagators_of_variables(q, begin, props, &wake);
    for (int x = 0; x < q.num_vars(); ++x) fix_only += wake[std::size_t(2 * x)] - begin[std::size_t(x)];
    ASSERT_TRUE(events_equal_serial<TypeParam>(q, rng, 1 + seed % 3, default_lane_row_terms, t)) << "seed " << seed;
  }
  EXPECT_GT(fix_only, networks * 10);
  EXPECT_GT(t.checked, networks / 2);
  EXPECT_GT(t.failed, networks / 20);
  EXPECT_GT(t.checked - t.failed, networks / 12);
}

/// Elements over shared variables (any variable may be an index or a result): domains from [-2, 2]
/// to [5, 11], arrays of 1 to 10 values in [-2, 11]. Element propagation is the one that reads
/// values inside the bounds (a removed index position or result value), so a removal inside matters
/// here.
Program random_element_network(std::mt19937& rng, int vars, int elements) {
  Program p;
  for (int x = 0; x < vars; ++x) p.add_var(uniform(rng, -2, 2), uniform(rng, 5, 11));
  for (int e = 0; e < elements; ++e) {
    std::vector<std::int32_t> values(uniform(rng, 1, 10));
    for (auto& v : values) v = uniform(rng, -2, 11);
    const int index = uniform(rng, 0, vars - 1);
    int result = uniform(rng, 0, vars - 1);
    while (vars > 1 && result == index) result = uniform(rng, 0, vars - 1);
    p.add_global<Element>({index, result}, values);
  }
  return p;
}

TYPED_TEST(HoleFixpointOnBackend, ElementNetworksWithHolesTeamAndQueueEqualSerial) {
  int failed = 0, holes = 0;
  EventTally t;
  const int networks = test::quick_mode() ? 100 : 1000;
  for (int seed = 0; seed < networks; ++seed) {
    std::mt19937 rng(45000 + seed);
    const Program p = with_holes(random_element_network(rng, 2 + seed % 6, 1 + seed % 4), rng, 64, seed % 4 != 0);
    const auto c = test::compare_team_with_serial<TypeParam>(p);
    ASSERT_EQ(c.difference, "") << "seed " << seed;
    failed += c.serial.failed;
    holes += made_a_hole(p, c.serial);
    ASSERT_TRUE(events_equal_serial<TypeParam>(p, rng, 1 + seed % 2, default_lane_row_terms, t)) << "seed " << seed;
  }
  EXPECT_GT(failed, networks / 20);
  EXPECT_GT(holes, networks / 20);
  EXPECT_GT(t.checked - t.failed, networks / 20);
  EXPECT_GT(t.inside, networks / 10);
}

TYPED_TEST(HoleFixpointOnBackend, ARemovalInsideIsAnEventForTheQueueFixpoint) {
  // result = {5, 1, 5, 5, 9}[index]: removing position 2 (inside the index's bounds) leaves the
  // result no 1, and removing the result's 5 then leaves the index only position 5.
  Program p;
  const int index = p.add_var(1, 5), result = p.add_var(0, 10);
  p.give_bits(index);
  p.give_bits(result);
  p.add_global<Element>({index, result}, {5, 1, 5, 5, 9});
  const auto root = test::serial_fixpoint_on(p);
  ASSERT_FALSE(root.failed);
  ASSERT_EQ(root.lb[result], 1);
  const auto one = test::queue_fixpoint_on<TypeParam>(p, {{test::Narrowing{index, 2, 2, true}}}, false, &root);
  ASSERT_FALSE(one.failed);
  EXPECT_EQ(one.domain(p, index), (Values{1, 3, 4, 5}));
  EXPECT_EQ(one.lb[result], 5);
  EXPECT_EQ(one.ub[result], 9);
  const auto two = test::queue_fixpoint_on<TypeParam>(
      p, {{test::Narrowing{index, 2, 2, true}}, {test::Narrowing{result, 7, 7, true}, test::Narrowing{result, 5, 5, true}}},
      false, &root);
  ASSERT_FALSE(two.failed);
  EXPECT_EQ(two.domain(p, index), (Values{5}));
  EXPECT_EQ(two.domain(p, result), (Values{9}));
}

}  // namespace
}  // namespace kcp
