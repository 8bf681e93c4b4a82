// Element over constant arrays, brute force over small domains (Gecode's test style): result =
// values[index - 1] is stated once, every index and result sub-range is enumerated for random arrays,
// and one propagation must keep every solution, fail exactly when none is left, reach bounds(Z)
// consistency, and be idempotent. Then the same constraints on every backend.
#include "domains/element.hpp"

#include "domains/program.hpp"
#include "tests/backends.hpp"
#include "tests/brute_force.hpp"
#include "tests/kernels.hpp"

#include <gtest/gtest.h>

#include <random>

namespace kcp {
namespace {

using test::Assignment;

/// The solutions (index, result) within the domains: variable 0 is the index, 1 the result.
std::vector<Assignment> element_solutions(const std::vector<std::int32_t>& values, const std::vector<std::int32_t>& lb,
                                          const std::vector<std::int32_t>& ub) {
  std::vector<Assignment> out;
  for (std::int64_t i = 1; i <= static_cast<std::int64_t>(values.size()); ++i) {
    const std::int64_t v = values[i - 1];
    if (i >= lb[0] && i <= ub[0] && v >= lb[1] && v <= ub[1]) out.push_back({i, v});
  }
  return out;
}

/// Propagates the program's element 0 once over the domains and checks the outcome; a second run
/// must find nothing to do.
void check_element(const std::vector<std::int32_t>& values, const DeviceProgram<Kokkos::HostSpace>& dp,
                   std::vector<std::int32_t> lb, std::vector<std::int32_t> ub, int& failed, int& narrowed) {
  const std::vector<std::int32_t> lb0 = lb, ub0 = ub;
  const auto s = StoreRef<false>::bounds_only(lb.data(), ub.data(), 2);
  const int st = propagate_element(SerialLanes{}, dp.global.view<global_family<Element>>(), 0, s);
  const bool fail = (st & prop_failed) != 0;
  ASSERT_TRUE(test::check_propagation(element_solutions(values, lb0, ub0), fail, lb, ub, test::Promise::bounds))
      << test::show_domains(lb0, ub0) << "over " << values.size() << " values";
  if (fail) {
    ++failed;
    return;
  }
  ASSERT_EQ(propagate_element(SerialLanes{}, dp.global.view<global_family<Element>>(), 0, s), prop_unchanged) << "not idempotent";
  narrowed += lb != lb0 || ub != ub0;
}

TEST(ElementBruteForce, EverySmallDomainIsBoundsConsistentAndIdempotent) {
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> value(-3, 3);
  int failed = 0, narrowed = 0, cases = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const int n = 1 + trial % 5;
    std::vector<std::int32_t> values(n);
    for (auto& v : values) v = value(rng);
    Program p;
    p.add_var(0, 0);
    p.add_var(0, 0);
    p.add_global<Element>({0, 1}, values);
    const DeviceProgram<Kokkos::HostSpace> dp(p);
    for (const auto& [il, iu] : test::sub_ranges(-1, n + 2))
      for (const auto& [rl, ru] : test::sub_ranges(-3, 3)) {
        check_element(values, dp, {il, rl}, {iu, ru}, failed, narrowed);
        if (HasFatalFailure()) return;
        ++cases;
      }
  }
  EXPECT_GT(failed, cases / 10);
  EXPECT_GT(narrowed, cases / 10);
}

TEST(ElementBruteForce, LargeValuesAndIndexRangesNeverWrap) {
  const std::vector<std::int32_t> values = {bound_max, bound_min, 0, bound_max - 1, bound_min + 1, -1};
  Program p;
  p.add_var(0, 0);
  p.add_var(0, 0);
  p.add_global<Element>({0, 1}, values);
  const DeviceProgram<Kokkos::HostSpace> dp(p);
  const std::vector<std::pair<std::int32_t, std::int32_t>> indices = {
      {bound_min, bound_max}, {bound_min, 0}, {7, bound_max}, {2, 5}, {0, 1}, {6, 6}};
  const std::vector<std::pair<std::int32_t, std::int32_t>> results = {
      {bound_min, bound_max}, {0, bound_max}, {bound_max - 1, bound_max}, {bound_min, -2}, {-1, 0}, {1, 5}};
  int failed = 0, narrowed = 0;
  for (const auto& [il, iu] : indices)
    for (const auto& [rl, ru] : results) {
      check_element(values, dp, {il, rl}, {iu, ru}, failed, narrowed);
      if (HasFatalFailure()) return;
    }
  EXPECT_GT(failed, 0);
  EXPECT_GT(narrowed, 0);
}

TEST(ElementBruteForce, AnEmptyArrayFails) {
  Program p;
  p.add_var(-5, 5);
  p.add_var(-5, 5);
  p.add_global<Element>({0, 1}, {});
  EXPECT_TRUE(test::serial_fixpoint_on(p).failed);
}

/// Elements over shared variables, arrays of 1 to 80 values (longer than a warp).
Program random_elements(std::mt19937& rng, int vars, int elements) {
  std::uniform_int_distribution<int> value(-20, 20), var(0, vars - 1), len(1, 80);
  Program p;
  for (int x = 0; x < vars; ++x) {
    const int a = value(rng), b = value(rng);
    p.add_var(std::min(a, b), std::max(a, b));
  }
  for (int e = 0; e < elements; ++e) {
    std::vector<std::int32_t> values(len(rng));
    for (auto& v : values) v = value(rng);
    int index = var(rng), result = var(rng);
    while (result == index) result = var(rng);
    p.add_global<Element>({index, result}, values);
  }
  return p;
}

template <class Space>
class ElementOnBackend : public ::testing::Test {};
TYPED_TEST_SUITE(ElementOnBackend, test::Backends, test::BackendName);

TYPED_TEST(ElementOnBackend, TeamPropagationEqualsTheSerialReference) {
  int failed = 0, narrowed = 0;
  for (int seed = 0; seed < 200; ++seed) {
    std::mt19937 rng(seed);
    const Program p = random_elements(rng, 2 + seed % 5, 1 + seed % 4);
    const auto c = test::compare_team_with_serial<TypeParam>(p);
    ASSERT_EQ(c.difference, "") << "seed " << seed;
    failed += c.serial.failed;
    narrowed += c.serial.narrowed(p);
  }
  EXPECT_GT(failed, 5);
  EXPECT_GT(narrowed, 20);
}

}  // namespace
}  // namespace kcp
