#include "domains/store.hpp"

#include "tests/backends.hpp"

#include <gtest/gtest.h>

namespace kcp {
namespace test {

/// Every thread of a league narrows the same variable: the atomic narrowing keeps the tightest bound.
/// (Not in an anonymous namespace: nvcc wants external linkage around device lambdas.)
template <class Space>
std::pair<std::int32_t, std::int32_t> concurrent_narrowing(int threads) {
  Kokkos::View<std::int32_t[1], typename Space::memory_space> lb("lb"), ub("ub");
  Kokkos::deep_copy(lb, -1000);
  Kokkos::deep_copy(ub, 1000);
  Kokkos::parallel_for(
      "kcp::test::narrow", Kokkos::RangePolicy<Space>(0, threads), KOKKOS_LAMBDA(const int i) {
        const auto s = StoreRef<true>::bounds_only(lb.data(), ub.data(), 1);
        s.narrow_min(0, i % 97);
        s.narrow_max(0, 500 - i % 89);
      });
  auto hlb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), lb);
  auto hub = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ub);
  return {hlb(0), hub(0)};
}

}  // namespace test

namespace {

TEST(Store, NarrowingOnlyNarrowsAndReportsChangesAndFailures) {
  std::int32_t lb[2] = {0, -5}, ub[2] = {10, 5};
  const auto s = StoreRef<false>::bounds_only(lb, ub, 2);
  EXPECT_EQ(s.narrow_min(0, -3), prop_unchanged);
  EXPECT_EQ(s.narrow_min(0, 4), prop_changed);
  EXPECT_EQ(lb[0], 4);
  EXPECT_EQ(s.narrow_max(0, 12), prop_unchanged);
  EXPECT_EQ(s.narrow_max(0, 4), prop_changed);
  EXPECT_TRUE(s.fixed(0));
  EXPECT_EQ(s.narrow_max(1, -6), prop_changed | prop_failed);
}

TEST(Store, WideBoundsAreClampedNeverWrapped) {
  std::int32_t lb[1] = {0}, ub[1] = {10};
  const auto s = StoreRef<false>::bounds_only(lb, ub, 1);
  // 2^32 + 3 would wrap to 3 in 32 bits: it must fail instead.
  EXPECT_EQ(s.narrow_min(0, (std::int64_t(1) << 32) + 3), prop_failed);
  EXPECT_EQ(s.narrow_max(0, -(std::int64_t(1) << 32) + 3), prop_failed);
  EXPECT_EQ(s.narrow_max(0, std::int64_t(1) << 40), prop_unchanged);
  EXPECT_EQ(lb[0], 0);
  EXPECT_EQ(ub[0], 10);
}

template <class Space>
class StoreOnBackend : public ::testing::Test {};
TYPED_TEST_SUITE(StoreOnBackend, test::Backends, test::BackendName);

TYPED_TEST(StoreOnBackend, ConcurrentNarrowingKeepsTheTightestBound) {
  const auto [lo, hi] = test::concurrent_narrowing<TypeParam>(10000);
  EXPECT_EQ(lo, 96);
  EXPECT_EQ(hi, 500 - 88);
}

}  // namespace
}  // namespace kcp
