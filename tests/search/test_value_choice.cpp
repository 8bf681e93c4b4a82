// Value choices as MiniZinc defines them, on every backend: random small models with holes, searched
// with each variable and value choice, must report as their first solution the one a sequential
// depth-first search that follows the definitions reaches first (search/branching.hpp: indomain_min
// x = min | x != min, indomain_median x = median | x != median, indomain_random x = r | x != r, ...),
// whatever the teams and the subproblem split. The reference below is written from the definitions
// on plain value lists; it shares only the fixpoint (serial_fixpoint, which every team fixpoint equals)
// and the random draw (node_draw, a function of the node) with kcp.
#include "search/solve.hpp"

#include "domains/fixpoint.hpp"
#include "search/branching.hpp"
#include "tests/backends.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>

namespace kcp {
namespace {

const ValueChoice all_value_choices[] = {ValueChoice::min,        ValueChoice::max,       ValueChoice::split,
                                         ValueChoice::reverse_split, ValueChoice::median, ValueChoice::random,
                                         ValueChoice::out_min,    ValueChoice::out_max,   ValueChoice::out_median,
                                         ValueChoice::out_random};
const VarChoice some_var_choices[] = {VarChoice::input_order, VarChoice::first_fail, VarChoice::max_regret};

/// A node of the reference search: a whole program (its root domains are the node's domains).
struct Reference {
  const std::vector<SearchPhase>& phases;
  std::uint64_t seed;
  std::int64_t nodes = 0;

  std::optional<std::vector<std::int32_t>> first(Program node) {
    if (++nodes > 200000) return std::nullopt;
    {
      const DeviceProgram<Kokkos::HostSpace> d(node);
      if (serial_fixpoint(d, node.store()).failed) return std::nullopt;
    }
    // The variable: the first phase with an unfixed one decides; then every variable, first fail.
    int x = -1;
    ValueChoice vc = ValueChoice::split;
    for (const SearchPhase& ph : phases) {
      x = choose(node, ph.var_choice, ph.vars);
      if (x >= 0) {
        vc = ph.value_choice;
        break;
      }
    }
    if (x < 0) {
      std::vector<int> all;
      for (int v = 0; v < node.num_vars(); ++v) all.push_back(v);
      x = choose(node, VarChoice::first_fail, all);
    }
    if (x < 0) return node.lb;  // every variable fixed
    const std::vector<std::int64_t> values = node.values(x);
    const std::int64_t lo = values.front(), hi = values.back(), mid = hi - lo == 1 ? lo : (lo + hi) / 2;  // MiniZinc's div
    // Each choice as (left, right) restrictions: an interval [a, b] or, for x != v, a removed value.
    auto interval = [&](std::int64_t a, std::int64_t b) {
      Program q = node;
      if (q.store().narrow_to(x, a, b) & prop_failed) return std::optional<Program>();
      return std::optional<Program>(q);
    };
    auto without = [&](std::int64_t v) {
      Program q = node;
      if (q.store().remove(x, v) & prop_failed) return std::optional<Program>();
      return std::optional<Program>(q);
    };
    const std::int64_t median = values[(values.size() - 1) / 2];
    const std::int64_t drawn = values[node_draw(seed, node.store(), x, std::int64_t(values.size())) % values.size()];
    std::optional<Program> left, right;
    switch (vc) {
      case ValueChoice::min: left = interval(lo, lo); right = without(lo); break;
      case ValueChoice::max: left = interval(hi, hi); right = without(hi); break;
      case ValueChoice::split: left = interval(lo, mid); right = interval(mid + 1, hi); break;
      case ValueChoice::reverse_split: left = interval(mid + 1, hi); right = interval(lo, mid); break;
      case ValueChoice::median: left = interval(median, median); right = without(median); break;
      case ValueChoice::random: left = interval(drawn, drawn); right = without(drawn); break;
      case ValueChoice::out_min: left = without(lo); right = interval(lo, lo); break;
      case ValueChoice::out_max: left = without(hi); right = interval(hi, hi); break;
      case ValueChoice::out_median: left = without(median); right = interval(median, median); break;
      case ValueChoice::out_random: left = without(drawn); right = interval(drawn, drawn); break;
    }
    if (left)
      if (auto s = first(*left)) return s;
    if (right) return first(*right);
    return std::nullopt;
  }

  /// The variable `vc` picks among `vars` (ties to the earliest), -1 when all are fixed.
  static int choose(Program& node, VarChoice vc, const std::vector<int>& vars) {
    int best = -1;
    std::int64_t best_key = 0;
    for (const int x : vars) {
      const std::vector<std::int64_t> values = node.values(x);
      if (values.size() < 2) continue;
      std::int64_t key = 0;
      if (vc == VarChoice::first_fail) key = static_cast<std::int64_t>(values.size());
      if (vc == VarChoice::max_regret) key = -(values[1] - values[0]);
      if (best < 0 || key < best_key) {
        best = x;
        best_key = key;
      }
    }
    return best;
  }
};

/// n variables with random small domains with holes (bitsets), rows of 2-3 terms (!=, <=, =), some
/// x != y pairs: usually satisfiable, with many solutions, so that the first one says something.
Program random_model(std::mt19937& rng, int n) {
  Program p;
  std::uniform_int_distribution<int> lo(-3, 2), span(3, 9), var(0, n - 1), coef(-2, 2), kind(0, 9);
  for (int x = 0; x < n; ++x) {
    const int l = lo(rng);
    p.add_var(l, l + span(rng) - 1);
    p.give_bits(x);
    const int holes = static_cast<int>(rng() % 3);
    for (int h = 0; h < holes; ++h) p.store().remove(x, l + static_cast<int>(rng() % 9));
    if (p.lb[static_cast<std::size_t>(x)] > p.ub[static_cast<std::size_t>(x)]) p.lb[static_cast<std::size_t>(x)] = p.ub[static_cast<std::size_t>(x)] = l;
  }
  const int rows = n + static_cast<int>(rng() % n);
  for (int r = 0; r < rows; ++r) {
    const int a = var(rng), b = var(rng);
    if (a == b) continue;
    const int k = kind(rng);
    if (k < 5) {
      p.add_row(LinearKind::ne, {1, -1}, {a, b}, 0);
    } else if (k < 8) {
      int ca = 0, cb = 0;
      while (ca == 0) ca = coef(rng);
      while (cb == 0) cb = coef(rng);
      p.add_row(LinearKind::le, {ca, cb}, {a, b}, static_cast<std::int64_t>(rng() % 7) - 1);
    } else {
      p.add_row(LinearKind::ne, {1, 1}, {a, b}, static_cast<std::int64_t>(rng() % 7) - 2);
    }
  }
  return p;
}

template <class Space>
class ValueChoiceOnBackend : public ::testing::Test {};
TYPED_TEST_SUITE(ValueChoiceOnBackend, test::Backends, test::BackendName);

TYPED_TEST(ValueChoiceOnBackend, FirstSolutionIsTheSequentialSearchsFirst) {
  std::mt19937 rng(20261125);
  const int models = test::quick_mode() ? 6 : 40;
  int compared = 0, unsat = 0;
  for (int m = 0; m < models; ++m) {
    const int n = 5 + m % 4;
    const Program p = random_model(rng, n);
    for (const VarChoice var : some_var_choices) {
      for (const ValueChoice val : all_value_choices) {
        if (test::quick_mode() && (static_cast<int>(val) + m) % 3 != 0) continue;
        std::vector<SearchPhase> phases{{var, val, {}}};
        for (int x = n - 1; x >= 0; --x) phases[0].vars.push_back(x);  // not the store's order
        const std::uint64_t seed = 17 + static_cast<std::uint64_t>(m);
        Reference ref{phases, seed};
        const auto expected = ref.first(p);
        ASSERT_LT(ref.nodes, 200000) << "model " << m;
        // One team; several teams over a split; the backend's default (all with the probe off).
        for (const auto& [teams, depth] : {std::pair{1, 0}, std::pair{3, 4}, std::pair{0, -1}}) {
          SearchOptions o;
          o.phases = phases;
          o.seed = seed;
          o.teams = test::quick_mode() && teams == 0 ? 4 : teams;
          o.subproblem_depth = depth;
          o.max_solutions = 1;
          o.probe_s = 0;
          std::vector<std::vector<std::int32_t>> got;
          const SearchReport r = search<TypeParam>(p, o, [&](const std::vector<std::int32_t>& s) {
            got.push_back(s);
            return true;
          });
          const std::string what = "model " + std::to_string(m) + " var " + std::to_string(int(var)) + " value " +
                                   std::to_string(int(val)) + " teams " + std::to_string(teams) + " depth " +
                                   std::to_string(depth);
          if (!expected) {
            EXPECT_TRUE(got.empty()) << what;
            EXPECT_TRUE(r.complete) << what;
            continue;
          }
          ASSERT_EQ(got.size(), 1u) << what;
          EXPECT_EQ(got[0], *expected) << what;
          ++compared;
        }
        unsat += expected ? 0 : 1;
      }
    }
  }
  // The test means something only when most models have solutions.
  EXPECT_GT(compared, 10 * unsat);
}

}  // namespace
}  // namespace kcp
