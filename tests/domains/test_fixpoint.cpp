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
    const auto c = test::compare_team_with_serial<TypeParam>(p);
    ASSERT_EQ(c.difference, "") << "seed " << seed;
    failed += c.serial.failed;
    narrowed += c.serial.narrowed(p);
  }
  // The networks cover failing and narrowing cases, not only trivial ones.
  EXPECT_GT(failed, 20);
  EXPECT_GT(narrowed, 20);
}

TYPED_TEST(FixpointOnBackend, AllFamiliesTeamEqualsSerialWithAndWithoutSorting) {
  // Every family at once; the team fixpoint under each option, on the program as built and sorted by
  // op, reaches the serial fixpoint of the program as built.
  // Under test::quick_mode (racecheck) 60 networks, with the coverage thresholds scaled to match.
  const FixpointOptions variants[] = {{32}, {1}, {3}};
  const int networks = test::quick_mode() ? 60 : 300;
  int failed = 0, narrowed = 0;
  for (int seed = 0; seed < networks; ++seed) {
    std::mt19937 rng(1000 + seed);
    const Program p = test::random_network(rng, 3 + seed % 10, seed % 5, 1 + seed % 6, seed % 3, 8);
    Program sorted = p;
    sort_ternary_by_op(sorted);
    const auto expected = test::serial_fixpoint_on(p);
    const auto serial_sorted = test::serial_fixpoint_on(sorted);
    ASSERT_EQ(serial_sorted.failed, expected.failed) << "seed " << seed;
    if (!expected.failed) {
      ASSERT_EQ(serial_sorted.lb, expected.lb) << "seed " << seed;
      ASSERT_EQ(serial_sorted.ub, expected.ub) << "seed " << seed;
    }
    for (const FixpointOptions& options : variants)
      for (const Program* q : {&p, static_cast<const Program*>(&sorted)})
        // Rows all on vector groups, short ones on lanes, all on lanes.
        for (const int lane_row_terms : {0, 2, 1 << 30}) {
          // Sorting does not change the serial fixpoint (checked above), so either reference will do.
          ASSERT_EQ(test::compare_team_with_serial<TypeParam>(*q, options, lane_row_terms).difference, "")
              << "seed " << seed << ", chunk " << options.ternary_chunk
              << (q == &sorted ? ", sorted" : "") << ", lane rows up to " << lane_row_terms << " terms";
        }
    failed += expected.failed;
    narrowed += expected.narrowed(p);
  }
  EXPECT_GT(failed, networks / 10);
  EXPECT_GT(narrowed, networks / 6);
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

TYPED_TEST(FixpointOnBackend, QueueFixpointFromTheRootEqualsSerial) {
  // Every propagator queued at first: the event-driven fixpoint reaches the serial one.
  int failed = 0;
  for (int seed = 0; seed < 300; ++seed) {
    std::mt19937 rng(5000 + seed);
    Program p = test::random_network(rng, 3 + seed % 10, seed % 5, 1 + seed % 6, seed % 3, 8);
    if (seed % 2) sort_ternary_by_op(p);
    const auto expected = test::serial_fixpoint_on(p);
    // Rows of more than two terms on vector groups, or every row on a lane.
    for (const int lane_row_terms : {2, default_lane_row_terms}) {
      const auto got = test::queue_fixpoint_on<TypeParam>(p, {{}}, true, nullptr, lane_row_terms);
      ASSERT_EQ(got.failed, expected.failed) << "seed " << seed << ", lane rows up to " << lane_row_terms;
      if (!expected.failed) {
        ASSERT_EQ(got.lb, expected.lb) << "seed " << seed << ", lane rows up to " << lane_row_terms;
        ASSERT_EQ(got.ub, expected.ub) << "seed " << seed << ", lane rows up to " << lane_row_terms;
      }
    }
    failed += expected.failed;
  }
  EXPECT_GT(failed, 30);
}

TYPED_TEST(FixpointOnBackend, QueueFixpointFromEventsEqualsSerialRoundAfterRound) {
  // From a fixpoint, rounds of narrowings (like the decisions of a dive) recorded as events: each
  // round's event-driven fixpoint equals the serial fixpoint of the same narrowed store, and the
  // workspace is clean for the next round (a stale flag would hide a later event).
  int checked = 0, failed = 0;
  for (int seed = 0; seed < 600; ++seed) {
    std::mt19937 rng(9000 + seed);
    const Program p = test::random_network(rng, 4 + seed % 10, 1 + seed % 5, 1 + seed % 6, seed % 3, 10);
    const auto root = test::serial_fixpoint_on(p);
    if (root.failed) continue;
    std::vector<std::vector<test::Narrowing>> rounds;
    Program narrowed = p;
    narrowed.lb = root.lb;
    narrowed.ub = root.ub;
    bool expect_failure = false;
    int expected_round = -1;
    for (int r = 0; r < 4; ++r) {
      std::vector<test::Narrowing> round;
      for (int k = 0; k < 1 + seed % 3; ++k) {
        const int x = std::uniform_int_distribution<int>(0, p.num_vars() - 1)(rng);
        const std::int32_t lo = narrowed.lb[x], hi = narrowed.ub[x];
        const std::int32_t v = std::uniform_int_distribution<std::int32_t>(lo, hi)(rng);
        round.push_back(rng() % 2 ? test::Narrowing{x, lo, v} : test::Narrowing{x, v, hi});
      }
      rounds.push_back(round);
      for (const auto& nw : round) {
        narrowed.lb[nw.x] = std::max(narrowed.lb[nw.x], nw.lo);
        narrowed.ub[nw.x] = std::min(narrowed.ub[nw.x], nw.hi);
      }
      bool empty = false;  // two narrowings of one variable in a round may leave nothing
      for (const auto& nw : round) empty = empty || narrowed.lb[nw.x] > narrowed.ub[nw.x];
      const auto fp = empty ? test::FixpointOutcome{true, {}, {}, {}, 0} : test::serial_fixpoint_on(narrowed);
      if (fp.failed) {
        expect_failure = true;
        expected_round = r;
        break;
      } else {
        narrowed.lb = fp.lb;
        narrowed.ub = fp.ub;
      }
    }
    const auto got = test::queue_fixpoint_on<TypeParam>(p, rounds, false, &root, 1 + seed % 3);
    ASSERT_EQ(got.failed, expect_failure) << "seed " << seed;
    if (expect_failure) {
      ASSERT_EQ(got.iterations, expected_round) << "seed " << seed;
      ++failed;
    } else {
      ASSERT_EQ(got.lb, narrowed.lb) << "seed " << seed;
      ASSERT_EQ(got.ub, narrowed.ub) << "seed " << seed;
    }
    ++checked;
  }
  EXPECT_GT(checked, 150);
  EXPECT_GT(failed, 15);
  EXPECT_GT(checked - failed, 50);
}

}  // namespace
}  // namespace kcp
