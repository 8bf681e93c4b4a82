#include "domains/arithmetic.hpp"

#include <gtest/gtest.h>

namespace kcp {
namespace {

TEST(Arithmetic, FloorAndCeilDivisionMatchTheMathematicalDefinition) {
  for (std::int64_t a = -20; a <= 20; ++a) {
    for (std::int64_t b = -6; b <= 6; ++b) {
      if (b == 0) continue;
      const double q = double(a) / double(b);
      EXPECT_EQ(floor_div(a, b), static_cast<std::int64_t>(std::floor(q))) << a << "/" << b;
      EXPECT_EQ(ceil_div(a, b), static_cast<std::int64_t>(std::ceil(q))) << a << "/" << b;
    }
  }
}

TEST(Arithmetic, PoisonAddIsExactBelowTheLimitAndAbsorbingAbove) {
  EXPECT_EQ(poison_add(3, -5), -2);
  const std::int64_t big = (std::int64_t(1) << 61) + 7;
  EXPECT_EQ(poison_add(big, big), sum_poisoned);
  EXPECT_EQ(poison_add(-big, -big), sum_poisoned);
  EXPECT_EQ(poison_add(big, -big), 0);
  EXPECT_EQ(poison_add(sum_poisoned, 1), sum_poisoned);
  EXPECT_EQ(poison_add(1, sum_poisoned), sum_poisoned);
  // Largest 32-bit products: four of them overflow int64, and must poison rather than wrap.
  const std::int64_t term = std::int64_t(INT32_MIN) * INT32_MIN;  // 2^62
  EXPECT_EQ(poison_add(0, term - 1), term - 1);
  EXPECT_EQ(poison_add(term - 1, term - 1), sum_poisoned);
}

TEST(Arithmetic, ClampBoundStaysInsideTheStoreRange) {
  EXPECT_EQ(clamp_bound(std::int64_t(1) << 40), bound_max);
  EXPECT_EQ(clamp_bound(-(std::int64_t(1) << 40)), bound_min);
  EXPECT_EQ(clamp_bound(-7), -7);
}

}  // namespace
}  // namespace kcp
