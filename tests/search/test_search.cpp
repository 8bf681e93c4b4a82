// Search on every backend: solution counts, optima and unsatisfiability on small models with known
// answers (checked against Gecode: queens 92, SEND+MORE 1, backpack optimum 51).
#include "search/solve.hpp"

#include "solver/compile.hpp"
#include "solver/fzn/checker.hpp"
#include "solver/fzn/parser.hpp"
#include "tests/backends.hpp"

#include "tests/source_dir.hpp"

#include <gtest/gtest.h>

#include <set>

namespace kcp {
namespace {

using test::example;

struct Outcome {
  SearchReport report;
  std::set<std::vector<std::int64_t>> distinct;
  std::int64_t reported = 0;
  std::vector<std::int64_t> last;
};

/// Solves a FlatZinc file on Space; every solution is checked by the independent checker.
template <class Space>
Outcome solve_file(const std::string& path, SearchOptions options) {
  const fzn::Model model = fzn::parse_file(path);
  const Compiled c = compile(model);
  options.objective = c.objective;
  Outcome out;
  out.report = search<Space>(c.program, options, [&](const std::vector<std::int32_t>& store) {
    const auto values = model_values(c, store);
    const fzn::CheckResult check = fzn::check_solution(model, values);
    EXPECT_TRUE(check.ok) << check.message;
    out.distinct.insert(values);
    out.last = values;
    ++out.reported;
    return true;
  });
  return out;
}

template <class Space>
class SearchOnBackend : public ::testing::Test {};
TYPED_TEST_SUITE(SearchOnBackend, test::Backends, test::BackendName);

TYPED_TEST(SearchOnBackend, QueensHas92SolutionsEachFoundOnce) {
  SearchOptions o;
  o.max_solutions = 0;
  const Outcome out = solve_file<TypeParam>(example("queens.fzn"), o);
  EXPECT_TRUE(out.report.complete);
  EXPECT_EQ(out.reported, 92);
  EXPECT_EQ(out.distinct.size(), 92u);
  EXPECT_EQ(out.report.solutions, 92);
}

TYPED_TEST(SearchOnBackend, SendMoreMoneyHasOneSolution) {
  SearchOptions o;
  o.max_solutions = 0;
  const Outcome out = solve_file<TypeParam>(example("send-more-money.fzn"), o);
  EXPECT_TRUE(out.report.complete);
  ASSERT_EQ(out.reported, 1);
  // S E N D M O R Y
  EXPECT_EQ(out.last, (std::vector<std::int64_t>{9, 5, 6, 7, 1, 0, 8, 2}));
}

TYPED_TEST(SearchOnBackend, StopsAfterTheRequestedNumberOfSolutions) {
  SearchOptions o;
  o.max_solutions = 5;
  const Outcome out = solve_file<TypeParam>(example("queens.fzn"), o);
  EXPECT_FALSE(out.report.complete);
  EXPECT_EQ(out.reported, 5);
}

TYPED_TEST(SearchOnBackend, BackpackOptimumIs51AndProven) {
  const Outcome out = solve_file<TypeParam>(example("backpack.fzn"), SearchOptions{});
  EXPECT_TRUE(out.report.complete);
  ASSERT_GE(out.reported, 1);
  // Maximisation runs as minimisation of the negation.
  EXPECT_EQ(-out.report.best, 51);
  // Each reported solution improves on the previous one: the last is the optimum.
  EXPECT_EQ(out.last[6], 51);  // total
}

TYPED_TEST(SearchOnBackend, OneNodePerLaunchGivesTheSameAnswers) {
  SearchOptions o;
  o.max_solutions = 0;
  o.slice_nodes = 1;  // the search state must survive between kernel launches
  const Outcome out = solve_file<TypeParam>(example("queens.fzn"), o);
  EXPECT_TRUE(out.report.complete);
  EXPECT_EQ(out.distinct.size(), 92u);
}

TYPED_TEST(SearchOnBackend, UnsatisfiableModelIsProvenUnsatisfiable) {
  Program p;
  for (int i = 0; i < 4; ++i) p.add_var(1, 3);
  // Four pairwise different values in 1..3: pigeonhole.
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) p.add_row(LinearKind::ne, {1, -1}, {i, j}, 0);
  int found = 0;
  const SearchReport r = search<TypeParam>(p, SearchOptions{}, [&](const std::vector<std::int32_t>&) {
    ++found;
    return true;
  });
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(found, 0);
  EXPECT_GT(r.failures, 0);
}

TYPED_TEST(SearchOnBackend, StoreInScratchLevelOneGivesTheSameCount) {
  SearchOptions o;
  o.max_solutions = 0;
  o.scratch_level = 1;
  const Outcome out = solve_file<TypeParam>(example("queens.fzn"), o);
  EXPECT_EQ(out.report.scratch_level, 1);
  EXPECT_EQ(out.distinct.size(), 92u);
}

}  // namespace
}  // namespace kcp
