// Linear rows, brute force over small domains (Gecode's test style): state what a row means, enumerate
// every assignment, and check that propagation never removes a solution, fails exactly when no
// solution remains, and reaches the promised consistency. Then the same rows on every backend.
#include "domains/linear.hpp"

#include "tests/backends.hpp"
#include "tests/brute_force.hpp"
#include "tests/kernels.hpp"

#include <gtest/gtest.h>

#include <random>

namespace kcp {
namespace {

struct Row {
  LinearKind kind;
  std::vector<std::int32_t> a;
  std::vector<int> x;  // distinct variables 0..k-1
  std::int64_t c;
};

bool holds(const Row& r, const std::vector<std::int64_t>& v) {
  std::int64_t s = 0;
  for (std::size_t i = 0; i < r.a.size(); ++i) s += r.a[i] * v[r.x[i]];
  switch (r.kind) {
    case LinearKind::le: return s <= r.c;
    case LinearKind::eq: return s == r.c;
    case LinearKind::ne: return s != r.c;
  }
  return false;
}

/// Every solution of r within [lb, ub].
std::vector<test::Assignment> solutions(const Row& r, const std::vector<std::int32_t>& lb,
                                        const std::vector<std::int32_t>& ub) {
  return test::solutions_in(lb, ub, [&](const test::Assignment& v) { return holds(r, v); });
}

Program program_of(const Row& r, const std::vector<std::int32_t>& lb, const std::vector<std::int32_t>& ub) {
  Program p;
  for (std::size_t i = 0; i < lb.size(); ++i) p.add_var(lb[i], ub[i]);
  p.add_row(r.kind, r.a, r.x, r.c);
  return p;
}

Row random_row(std::mt19937& rng, LinearKind kind, int k) {
  std::uniform_int_distribution<int> coef(-3, 3), rhs(-6, 6);
  Row r{kind, {}, {}, rhs(rng)};
  for (int i = 0; i < k; ++i) {
    int a = 0;
    while (a == 0) a = coef(rng);
    r.a.push_back(a);
    r.x.push_back(i);
  }
  return r;
}

void random_domains(std::mt19937& rng, int k, std::vector<std::int32_t>& lb, std::vector<std::int32_t>& ub) {
  std::uniform_int_distribution<int> v(-3, 3);
  lb.assign(k, 0);
  ub.assign(k, 0);
  for (int i = 0; i < k; ++i) {
    int a = v(rng), b = v(rng);
    lb[i] = std::min(a, b);
    ub[i] = std::max(a, b);
  }
}

class LinearBruteForce : public ::testing::TestWithParam<LinearKind> {};

TEST_P(LinearBruteForce, SoundCompleteAndBoundsConsistent) {
  const LinearKind kind = GetParam();
  std::mt19937 rng(12345 + static_cast<int>(kind));
  int failures = 0, narrowed = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int k = 1 + trial % 3;
    const Row r = random_row(rng, kind, k);
    std::vector<std::int32_t> lb, ub;
    random_domains(rng, k, lb, ub);
    const auto before = solutions(r, lb, ub);
    const test::FixpointOutcome out = test::serial_fixpoint_on(program_of(r, lb, ub));
    // Failing is always sound. For <= and != it is also complete: they fail exactly when no solution
    // is left. An equality is only bounds(R) consistent (2x + 2y = 3 survives), but once every
    // variable is fixed it fails exactly when the row is false.
    if (out.failed) {
      ASSERT_TRUE(before.empty()) << "trial " << trial;
    }
    bool all_fixed = true;
    for (int i = 0; i < k; ++i) all_fixed = all_fixed && out.lb[i] == out.ub[i];
    if (kind != LinearKind::eq || all_fixed) {
      ASSERT_EQ(out.failed, before.empty()) << "trial " << trial;
    }
    if (out.failed) {
      ++failures;
      continue;
    }
    narrowed += out.lb != lb || out.ub != ub;
    // Sound: every solution survives.
    for (const auto& s : before)
      for (int i = 0; i < k; ++i) ASSERT_TRUE(s[i] >= out.lb[i] && s[i] <= out.ub[i]) << "trial " << trial;
    // Consistency: <= and != reach bounds(Z) consistency: every bound takes part in a solution.
    // = reaches bounds(R) consistency: every bound extends to a real solution within the others' bounds.
    for (int i = 0; i < k; ++i) {
      for (const std::int32_t b : {out.lb[i], out.ub[i]}) {
        if (kind != LinearKind::eq) {
          bool supported = false;
          for (const auto& s : before) supported = supported || s[i] == b;
          EXPECT_TRUE(supported) << "trial " << trial << ": bound " << b << " of x" << i << " has no support";
        } else {
          std::int64_t lo = 0, hi = 0;
          for (int j = 0; j < k; ++j) {
            if (j == i) continue;
            lo += std::min(r.a[j] * std::int64_t(out.lb[j]), r.a[j] * std::int64_t(out.ub[j]));
            hi += std::max(r.a[j] * std::int64_t(out.lb[j]), r.a[j] * std::int64_t(out.ub[j]));
          }
          const std::int64_t rest = r.c - r.a[i] * std::int64_t(b);
          EXPECT_TRUE(rest >= lo && rest <= hi) << "trial " << trial << ": bound " << b << " of x" << i;
        }
      }
    }
  }
  // The trials exercise all three outcomes.
  EXPECT_GT(failures, kind == LinearKind::ne ? 5 : 100);
  EXPECT_GT(narrowed, 100);
}

std::string kind_name(const ::testing::TestParamInfo<LinearKind>& info) {
  switch (info.param) {
    case LinearKind::le: return "le";
    case LinearKind::eq: return "eq";
    case LinearKind::ne: return "ne";
  }
  return "unknown";
}

INSTANTIATE_TEST_SUITE_P(Kinds, LinearBruteForce, ::testing::Values(LinearKind::le, LinearKind::eq, LinearKind::ne),
                         kind_name);

/// r over variables 0..k-1, reified by variable k with domain [bl, bu].
Program reified_program_of(const Row& r, Reification mode, const std::vector<std::int32_t>& lb,
                           const std::vector<std::int32_t>& ub) {
  Program p;
  for (std::size_t i = 0; i < lb.size(); ++i) p.add_var(lb[i], ub[i]);
  p.add_row(r.kind, r.a, r.x, r.c, static_cast<int>(lb.size()) - 1, mode);
  return p;
}

using ReifiedParam = std::tuple<LinearKind, Reification>;
class ReifiedLinearBruteForce : public ::testing::TestWithParam<ReifiedParam> {};

TEST_P(ReifiedLinearBruteForce, SoundAndDecidesTheBooleanWhenTheSumsDo) {
  const auto [kind, mode] = GetParam();
  const bool equivalent = mode == Reification::equivalent;
  std::mt19937 rng(4321 + 3 * static_cast<int>(kind) + static_cast<int>(mode));
  int failures = 0, decided = 0, propagated = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int k = 1 + trial % 3;
    const Row r = random_row(rng, kind, k);
    std::vector<std::int32_t> lb, ub;
    random_domains(rng, k, lb, ub);
    const int b_domain = trial % 4;  // [0, 1] twice as often as [0, 0] or [1, 1]
    lb.push_back(b_domain == 1 ? 1 : 0);
    ub.push_back(b_domain == 0 ? 0 : 1);
    auto meaning = [&](const test::Assignment& v) {
      const bool row = holds(r, v);
      return equivalent ? (v[k] == 1) == row : (v[k] == 0 || row);
    };
    const auto sols = test::solutions_in(lb, ub, meaning);
    const test::FixpointOutcome out = test::serial_fixpoint_on(reified_program_of(r, mode, lb, ub));
    ASSERT_TRUE(test::check_propagation(sols, out.failed, out.lb, out.ub, test::Promise::sound))
        << "trial " << trial << ": " << test::show_domains(lb, ub);
    if (out.failed) {
      ++failures;
      continue;
    }
    auto b_supported = [&](int value) {
      for (const auto& s : sols)
        if (s[k] == value) return true;
      return false;
    };
    if (out.lb[k] == out.ub[k]) {
      decided += lb[k] != ub[k];
      // b fixed: the row (b = 1) or its negation (b = 0, b <-> row) was propagated. <=, >= and !=
      // are bounds(Z) consistent; = (and the negation of !=) only bounds(R), checked in LinearBruteForce.
      const bool negated = out.lb[k] == 0;
      if (negated && !equivalent) continue;
      propagated += out.lb != lb || out.ub != ub;
      const bool is_eq = negated ? kind == LinearKind::ne : kind == LinearKind::eq;
      if (!is_eq) {
        ASSERT_TRUE(test::check_propagation(sols, out.failed, out.lb, out.ub, test::Promise::bounds))
            << "trial " << trial << ": " << test::show_domains(lb, ub);
      }
    } else {
      // b free: it stays free only while the extreme sums leave both values open. They prove it for
      // <= (both ways) and for b = 1 of != and b = 0 of = (a value outside the sums' range); gaps in
      // the sums (2x = 3) are not seen, so b = 1 of = and b = 0 of <-> != are not checked.
      if (kind != LinearKind::eq) {
        EXPECT_TRUE(b_supported(1)) << "trial " << trial << ": " << test::show_domains(lb, ub);
      }
      if (!(equivalent && kind == LinearKind::ne)) {
        EXPECT_TRUE(b_supported(0)) << "trial " << trial << ": " << test::show_domains(lb, ub);
      }
    }
  }
  // The trials exercise failing, deciding b and propagating the row; b -> (sum != c) rarely does any.
  const int least = kind == LinearKind::ne && !equivalent ? 1 : 100;
  EXPECT_GE(failures, least);
  EXPECT_GE(decided, least);
  EXPECT_GE(propagated, least);
}

std::string reified_name(const ::testing::TestParamInfo<ReifiedParam>& info) {
  return kind_name({std::get<0>(info.param), info.index}) +
         (std::get<1>(info.param) == Reification::equivalent ? "_equivalent" : "_implied");
}

INSTANTIATE_TEST_SUITE_P(Kinds, ReifiedLinearBruteForce,
                         ::testing::Combine(::testing::Values(LinearKind::le, LinearKind::eq, LinearKind::ne),
                                            ::testing::Values(Reification::equivalent, Reification::implied)),
                         reified_name);

TEST(Linear, HugeCoefficientsAndBoundsNeverWrap) {
  // 2^30 * x + 2^30 * y <= 2^31 with x, y in [0, 2^31 - 2]: sums exceed 2^61 but stay exact.
  Program p;
  p.add_var(0, bound_max);
  p.add_var(0, bound_max);
  p.add_row(LinearKind::le, {1 << 30, 1 << 30}, {0, 1}, std::int64_t(1) << 31);
  const auto out = test::serial_fixpoint_on(p);
  ASSERT_FALSE(out.failed);
  EXPECT_EQ(out.ub[0], 2);
  EXPECT_EQ(out.ub[1], 2);
  // Four unbounded terms of 2^31 coefficients: the least sum is poisoned, nothing is pruned, no failure.
  Program q;
  for (int i = 0; i < 4; ++i) q.add_var(bound_min, bound_max);
  q.add_row(LinearKind::le, {INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX}, {0, 1, 2, 3}, 0);
  const auto o2 = test::serial_fixpoint_on(q);
  EXPECT_FALSE(o2.failed);
  EXPECT_EQ(o2.ub[0], bound_max);
}

template <class Space>
class LinearOnBackend : public ::testing::Test {};
TYPED_TEST_SUITE(LinearOnBackend, test::Backends, test::BackendName);

TYPED_TEST(LinearOnBackend, TeamPropagationEqualsTheSerialReferencePerRow) {
  std::mt19937 rng(777);
  for (int trial = 0; trial < 200; ++trial) {
    const LinearKind kind = static_cast<LinearKind>(trial % 3);
    const int k = 1 + trial % 5;
    const Row r = random_row(rng, kind, k);
    std::vector<std::int32_t> lb, ub;
    random_domains(rng, k, lb, ub);
    const Program p = program_of(r, lb, ub);
    ASSERT_EQ(test::compare_team_with_serial<TypeParam>(p).difference, "") << "trial " << trial;
  }
}

TYPED_TEST(LinearOnBackend, ReifiedRowsEqualTheSerialReference) {
  std::mt19937 rng(778);
  for (int trial = 0; trial < 300; ++trial) {
    const LinearKind kind = static_cast<LinearKind>(trial % 3);
    const Reification mode = trial % 2 ? Reification::equivalent : Reification::implied;
    const int k = 1 + trial % 5;
    const Row r = random_row(rng, kind, k);
    std::vector<std::int32_t> lb, ub;
    random_domains(rng, k, lb, ub);
    lb.push_back(trial % 7 == 1 ? 1 : 0);
    ub.push_back(trial % 7 == 0 ? 0 : 1);
    const Program p = reified_program_of(r, mode, lb, ub);
    ASSERT_EQ(test::compare_team_with_serial<TypeParam>(p).difference, "") << "trial " << trial;
  }
}

}  // namespace
}  // namespace kcp
