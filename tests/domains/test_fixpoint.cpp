// The team fixpoint equals the serial Gauss-Seidel reference on random propagator networks.
#include "domains/fixpoint.hpp"

#include "tests/backends.hpp"
#include "tests/kernels.hpp"
#include "tests/random_programs.hpp"

#include <gtest/gtest.h>

namespace kcp {
namespace {

template <class Space>
class FixpointOnBackend : public ::testing::Test {};
TYPED_TEST_SUITE(FixpointOnBackend, test::Backends, test::BackendName);

TYPED_TEST(FixpointOnBackend, TeamFixpointEqualsSerialFixpointOnRandomNetworks) {
  int failed = 0, narrowed = 0;
  for (int seed = 0; seed < 400; ++seed) {
    std::mt19937 rng(seed);
    const Program p = test::random_program(rng, 3 + seed % 12, 2 + seed % 20, 6);
    const auto expected = test::serial_fixpoint_on(p);
    const auto got = test::team_fixpoint_on<TypeParam>(p);
    ASSERT_EQ(got.failed, expected.failed) << "seed " << seed;
    if (expected.failed) {
      ++failed;
      continue;
    }
    narrowed += expected.lb != p.lb || expected.ub != p.ub;
    ASSERT_EQ(got.lb, expected.lb) << "seed " << seed;
    ASSERT_EQ(got.ub, expected.ub) << "seed " << seed;
  }
  // The networks cover failing and narrowing cases, not only trivial ones.
  EXPECT_GT(failed, 20);
  EXPECT_GT(narrowed, 20);
}

TYPED_TEST(FixpointOnBackend, ChainsNeedSeveralIterations) {
  // x0 <= x1 - 1 <= x2 - 2 ... with x_last <= 10: the bound travels back one row per iteration at worst.
  Program p;
  const int n = 50;
  for (int i = 0; i < n; ++i) p.add_var(0, 100);
  for (int i = n - 2; i >= 0; --i) p.add_row(LinearKind::le, {1, -1}, {i + 1, i}, -1);  // x_i+1 - x_i <= -1
  p.add_row(LinearKind::le, {1}, {0}, 60);
  const auto got = test::team_fixpoint_on<TypeParam>(p);
  ASSERT_FALSE(got.failed);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(got.lb[i], n - 1 - i) << i;
  }
  EXPECT_EQ(got.ub[0], 60);
  EXPECT_EQ(got.ub[n - 1], 60 - (n - 1));
  EXPECT_GE(got.iterations, 2);
}

}  // namespace
}  // namespace kcp
