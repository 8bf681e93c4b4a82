// Ternary propagators, brute force over small domains (Gecode's test style): what x = y op z means
// is stated once (meaning), every assignment of every small domain is enumerated, and propagation
// to the propagator's own fixpoint must keep every solution, fail exactly when none is left where
// the op promises bounds consistency (else fail only then, and exactly when false once all is
// fixed), and reach the promised consistency. Then the same ops on every backend.
#include "domains/ternary.hpp"

#include "tests/backends.hpp"
#include "tests/brute_force.hpp"
#include "tests/kernels.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <random>

namespace kcp {
namespace {

using test::Assignment;
using test::Promise;
using Range = std::pair<std::int32_t, std::int32_t>;

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

/// What x = y op z means: the one x for (y, z), or none (z = 0 for tdiv and tmod, z < 0 for pow).
/// Powers beyond 2^40 in magnitude come back as +-2^40, outside every store domain.
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
      const std::int64_t big = std::int64_t(1) << 40;
      std::int64_t acc = 1;
      for (std::int64_t i = 0; i < z; ++i) {
        acc *= y;
        if (acc > big || acc < -big) return acc > 0 ? big : -big;
        if (acc == 0 || acc == 1) break;  // 0 and 1 stay; -1 alternates, handled below
        if (acc == -1) return (z % 2 == 0) ? 1 : -1;
      }
      return acc;
    }
  }
  return std::nullopt;
}

bool promises_bounds(TernaryOp op) {
  return op == TernaryOp::add || op == TernaryOp::min || op == TernaryOp::max || op == TernaryOp::eq_reif ||
         op == TernaryOp::le_reif || op == TernaryOp::abs;
}

struct Outcome {
  bool failed = false;
  std::vector<std::int32_t> lb, ub;
};

/// Runs one propagator to its own fixpoint on the host.
Outcome propagate_alone(const Ternary& t, std::vector<std::int32_t> lb, std::vector<std::int32_t> ub) {
  const auto s = StoreRef<false>::bounds_only(lb.data(), ub.data(), static_cast<int>(lb.size()));
  for (int round = 0; round < 10000; ++round) {
    const int st = propagate_ternary(t, s);
    if (st & prop_failed) return {true, lb, ub};
    if (!(st & prop_changed)) {
      for (std::size_t i = 0; i < lb.size(); ++i) EXPECT_LE(lb[i], ub[i]) << "an empty domain was not reported";
      return {false, lb, ub};
    }
  }
  ADD_FAILURE() << "no fixpoint after 10000 rounds";
  return {true, lb, ub};
}

/// The solutions of t within the domains (x, y, z are variables 0, 1, 2; abs has no z): x is a
/// function of (y, z), so only y and z are enumerated and x's domain may be as wide as the store's.
std::vector<Assignment> ternary_solutions(TernaryOp op, const std::vector<std::int32_t>& lb,
                                          const std::vector<std::int32_t>& ub) {
  std::vector<Assignment> out;
  const bool has_z = op != TernaryOp::abs;
  for (std::int64_t y = lb[1]; y <= ub[1]; ++y)
    for (std::int64_t z = has_z ? lb[2] : y; z <= (has_z ? ub[2] : y); ++z) {
      const auto x = meaning(op, y, z);
      if (!x || *x < lb[0] || *x > ub[0]) continue;
      out.push_back(has_z ? Assignment{*x, y, z} : Assignment{*x, y});
    }
  return out;
}

struct Tally {
  int cases = 0, failed = 0, narrowed = 0;
};

/// Propagates x = y op z over every combination of the domains given for x, y and z (abs: no z) and
/// checks each outcome against the brute-force solutions.
Tally check_all(TernaryOp op, const std::vector<Range>& xs, const std::vector<Range>& ys,
                const std::vector<Range>& zs) {
  Tally tally;
  const Ternary t{op, 0, 1, op == TernaryOp::abs ? 1 : 2};
  const Promise promise = promises_bounds(op) ? Promise::bounds : Promise::sound;
  const std::vector<Range> no_z = {{0, 0}};
  for (const Range& x : xs)
    for (const Range& y : ys)
      for (const Range& z : op == TernaryOp::abs ? no_z : zs) {
        std::vector<std::int32_t> lb = {x.first, y.first, z.first}, ub = {x.second, y.second, z.second};
        if (op == TernaryOp::abs) {
          lb.pop_back();
          ub.pop_back();
        }
        const Outcome out = propagate_alone(t, lb, ub);
        const auto sols = ternary_solutions(op, lb, ub);
        EXPECT_TRUE(test::check_propagation(sols, out.failed, out.lb, out.ub, promise))
            << op_name(op) << ": " << test::show_domains(lb, ub);
        if (::testing::Test::HasFailure()) return tally;
        ++tally.cases;
        tally.failed += out.failed;
        tally.narrowed += !out.failed && (out.lb != lb || out.ub != ub);
      }
  return tally;
}

class TernaryBruteForce : public ::testing::TestWithParam<TernaryOp> {};

TEST_P(TernaryBruteForce, EverySmallDomain) {
  const TernaryOp op = GetParam();
  const auto ranges = test::sub_ranges(-3, 3);
  const Tally tally = check_all(op, ranges, ranges, ranges);
  // The cases exercise failing and narrowing, not only the trivial outcome.
  EXPECT_GT(tally.failed, tally.cases / 50) << op_name(op);
  EXPECT_GT(tally.narrowed, tally.cases / 10) << op_name(op);
}

TEST_P(TernaryBruteForce, LargeMagnitudesNeverWrap) {
  // x may span the whole store; y and z are short ranges near 2^31, its square root (46341^2 > 2^31)
  // and cube root (1291^3 > 2^31), or around 0; pow gets exponents up to 32.
  const TernaryOp op = GetParam();
  const std::vector<Range> xs = {{bound_min, bound_max}, {0, bound_max},          {bound_min, 0},
                                 {bound_max - 5, bound_max}, {bound_min, bound_min + 5}, {-3, 3},
                                 {2147395600, 2147395600}, {-8, -8}};
  const std::vector<Range> ys = {{bound_max - 3, bound_max}, {bound_min, bound_min + 3}, {46339, 46341},
                                 {-46341, -46339}, {1289, 1291}, {-3, 3}, {-1, 1}, {65535, 65537}, {-2, -2}};
  const std::vector<Range> zs_pow = {{0, 3}, {29, 32}, {1, 2}, {2, 2}, {3, 3}, {-2, 1}, {30, 31}, {0, 0}};
  const Tally tally = check_all(op, xs, ys, op == TernaryOp::pow ? zs_pow : ys);
  EXPECT_GT(tally.failed, 0) << op_name(op);
  EXPECT_GT(tally.narrowed, 0) << op_name(op);
}

TEST_P(TernaryBruteForce, AliasedVariablesAreSound) {
  // x = y op y, x = x op z, x = y op x, x = x op x: every solution survives; all fixed and false fails.
  const TernaryOp op = GetParam();
  const auto ranges = test::sub_ranges(-3, 3);
  const int patterns[4][3] = {{0, 1, 1}, {0, 0, 1}, {0, 1, 0}, {0, 0, 0}};
  for (const auto& pat : patterns) {
    const Ternary t{op, pat[0], pat[1], pat[2]};
    const int k = 1 + std::max({pat[0], pat[1], pat[2]});
    auto holds = [&](const Assignment& v) {
      const auto x = meaning(op, v[t.y], op == TernaryOp::abs ? v[t.y] : v[t.z]);
      return x && *x == v[t.x];
    };
    for (const Range& a : ranges)
      for (const Range& b : ranges) {
        std::vector<std::int32_t> lb = {a.first, b.first}, ub = {a.second, b.second};
        lb.resize(k);
        ub.resize(k);
        const Outcome out = propagate_alone(t, lb, ub);
        ASSERT_TRUE(test::check_propagation(test::solutions_in(lb, ub, holds), out.failed, out.lb, out.ub,
                                            Promise::sound))
            << op_name(op) << " (" << pat[0] << ", " << pat[1] << ", " << pat[2] << "): " << test::show_domains(lb, ub);
        if (k == 1) break;
      }
  }
}

std::string op_param_name(const ::testing::TestParamInfo<TernaryOp>& info) { return op_name(info.param); }

INSTANTIATE_TEST_SUITE_P(Ops, TernaryBruteForce, ::testing::ValuesIn(all_ops), op_param_name);

TEST(Ternary, IsSixteenTriviallyCopyableBytes) {
  EXPECT_EQ(sizeof(Ternary), 16u);
  EXPECT_TRUE(std::is_trivially_copyable_v<Ternary>);
}

TEST(Ternary, SortingByOpKeepsEveryPropagatorAndOrdersThem) {
  std::mt19937 rng(5);
  Program p;
  for (int i = 0; i < 4; ++i) p.add_var(-5, 5);
  std::uniform_int_distribution<int> op(0, 9), v(0, 3);
  for (int i = 0; i < 50; ++i) p.add_ternary(static_cast<TernaryOp>(op(rng)), v(rng), v(rng), v(rng));
  Program q = p;
  sort_ternary_by_op(q);
  ASSERT_EQ(q.ternary.size(), p.ternary.size());
  for (std::size_t i = 1; i < q.ternary.size(); ++i) EXPECT_LE(q.ternary[i - 1].op, q.ternary[i].op);
  auto key = [](const Ternary& t) { return std::make_tuple(static_cast<int>(t.op), t.x, t.y, t.z); };
  std::vector<std::tuple<int, int, int, int>> a, b;
  for (const Ternary& t : p.ternary) a.push_back(key(t));
  for (const Ternary& t : q.ternary) b.push_back(key(t));
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b);
}

template <class Space>
class TernaryOnBackend : public ::testing::Test {};
TYPED_TEST_SUITE(TernaryOnBackend, test::Backends, test::BackendName);

TYPED_TEST(TernaryOnBackend, TeamPropagationEqualsTheSerialReferencePerOp) {
  std::mt19937 rng(2024);
  std::uniform_int_distribution<int> value(-4, 4);
  for (const TernaryOp op : all_ops) {
    for (int trial = 0; trial < 40; ++trial) {
      Program p;
      for (int i = 0; i < 3; ++i) {
        const int a = value(rng), b = value(rng);
        p.add_var(std::min(a, b), std::max(a, b));
      }
      p.add_ternary(op, 0, 1, op == TernaryOp::abs ? 1 : 2);
      ASSERT_EQ(test::compare_team_with_serial<TypeParam>(p).difference, "") << op_name(op) << " trial " << trial;
    }
  }
}

}  // namespace
}  // namespace kcp
