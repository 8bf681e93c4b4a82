// Search on every backend: solution counts, optima and unsatisfiability on small models with known
// answers (checked against Gecode: queens 92, SEND+MORE 1, backpack optimum 51).
#include "search/solve.hpp"

#include "search/branching.hpp"
#include "search/launch.hpp"
#include "search/driver/setup.hpp"

#include "solver/compile.hpp"
#include "solver/fzn/checker.hpp"
#include "solver/fzn/parser.hpp"
#include "solver/search_plan.hpp"
#include "tests/backends.hpp"

#include "tests/source_dir.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <set>
#include <sstream>
#include <type_traits>

namespace kcp {
namespace {

using test::example;

struct Outcome {
  SearchReport report;
  std::vector<std::vector<std::int64_t>> solutions;  ///< as reported, in order
  std::set<std::vector<std::int64_t>> distinct;
  std::int64_t reported() const { return static_cast<std::int64_t>(solutions.size()); }
  const std::vector<std::int64_t>& first() const { return solutions.front(); }
  const std::vector<std::int64_t>& last() const { return solutions.back(); }
};

using test::sweep;

/// Under test::quick_mode (compute-sanitizer runs: the backend's default of 1,056 CUDA teams takes
/// minutes a case under racecheck), searches that leave the team count to the backend run 4 teams;
/// the answers the tests expect do not depend on it. The probe (SearchOptions::probe_s) is off unless
/// a test sets it: with it, whether one team or the fleet finishes a small tree depends on timing, and
/// the fleet is what these tests are about.
SearchOptions quick(SearchOptions o) {
  if (o.teams == 0 && test::quick_mode()) o.teams = 4;
  if (o.probe_s == SearchOptions{}.probe_s) o.probe_s = 0;
  return o;
}

/// Solves `model` on Space with the search annotations or without; every solution is checked by the
/// independent checker.
template <class Space>
Outcome solve_model(const fzn::Model& model, SearchOptions options, const CompileOptions& compile_options,
                    bool annotations) {
  const Compiled c = compile(model, compile_options);
  options.objective = c.objective;
  if (annotations) options.phases = plan_search(model, c).phases;
  Outcome out;
  out.report = search<Space>(c.program, quick(options), [&](const std::vector<std::int32_t>& store) {
    const auto values = model_values(c, store);
    const fzn::CheckResult check = fzn::check_solution(model, values);
    EXPECT_TRUE(check.ok) << check.message;
    out.distinct.insert(values);
    out.solutions.push_back(values);
    return true;
  });
  return out;
}

/// A FlatZinc file, its search annotations ignored.
template <class Space>
Outcome solve_file(const std::string& path, SearchOptions options, const CompileOptions& compile_options = {}) {
  return solve_model<Space>(fzn::parse_file(path), options, compile_options, false);
}

/// FlatZinc text, its search annotations followed.
template <class Space>
Outcome solve_text(const std::string& text, SearchOptions options) {
  return solve_model<Space>(fzn::parse_string(text, "test.fzn"), options, {}, true);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// examples/queens.fzn with `solve :: int_search(q, var, value, complete) satisfy;`.
std::string annotated_queens(const std::string& var, const std::string& value) {
  std::string text = read_file(example("queens.fzn"));
  const std::string plain = "solve  satisfy;";
  const auto at = text.find(plain);
  EXPECT_NE(at, std::string::npos);
  text.replace(at, plain.size(), "solve :: int_search(q, " + var + ", " + value + ", complete) satisfy;");
  return text;
}

/// The q values of a queens solution (the first 8 model variables).
std::vector<std::int64_t> queens_of(const std::vector<std::int64_t>& values) {
  return std::vector<std::int64_t>(values.begin(), values.begin() + 8);
}

/// select_branch over `phases` phases of `per_phase` variables each and a last phase of all of them
/// (as the search builds them), on stores where every variable is fixed but one, u: every thread of
/// every team must choose u. u changes per round, so the phases before u's, all fixed, make the
/// consecutive team reductions that raced on CUDA (search/branching.hpp). Counts the threads that
/// chose another variable.
template <class Space>
struct BranchAgreementKernel {
  using TeamMember = typename Kokkos::TeamPolicy<Space>::member_type;
  SearchPhases<typename Space::memory_space> phases;
  int n = 0, rounds = 0;
  Kokkos::View<int, typename Space::memory_space> disagreements;

  KOKKOS_INLINE_FUNCTION void operator()(const TeamMember& team) const {
    auto* lb = static_cast<std::int32_t*>(team.team_shmem().get_shmem(sizeof(std::int32_t) * n));
    auto* ub = static_cast<std::int32_t*>(team.team_shmem().get_shmem(sizeof(std::int32_t) * n));
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int x) { lb[x] = ub[x] = 0; });
    team.team_barrier();
    const auto s = StoreRef<true>::bounds_only(lb, ub, n);
    for (int r = 0; r < rounds; ++r) {
      const int u = static_cast<int>(detail::mix(std::uint64_t(team.league_rank()) * 1000003u + r) % std::uint64_t(n));
      Kokkos::single(Kokkos::PerTeam(team), [&]() { ub[u] = 1; });
      team.team_barrier();
      const Branch b = select_branch(team, phases, s);
      if (b.var != u) Kokkos::atomic_add(&disagreements(), 1);
      team.team_barrier();
      Kokkos::single(Kokkos::PerTeam(team), [&]() { ub[u] = 0; });
      team.team_barrier();
    }
  }
};

template <class Space>
int branch_disagreements(int num_phases, int per_phase, int teams, int rounds, LaunchParams lp) {
  using MemSpace = typename Space::memory_space;
  const int n = num_phases * per_phase;
  Kokkos::View<std::int32_t*, MemSpace> begin("begin", num_phases + 2), vars("vars", 2 * n), occ("occ", n);
  Kokkos::View<std::int8_t*, MemSpace> vc("vc", num_phases + 1), valc("valc", num_phases + 1);
  auto hbegin = Kokkos::create_mirror_view(begin);
  auto hvars = Kokkos::create_mirror_view(vars);
  auto hvc = Kokkos::create_mirror_view(vc);
  for (int k = 0; k <= num_phases + 1; ++k) hbegin(k) = k <= num_phases ? k * per_phase : 2 * n;
  for (int i = 0; i < n; ++i) hvars(i) = hvars(n + i) = i;
  for (int k = 0; k <= num_phases; ++k) hvc(k) = static_cast<std::int8_t>(VarChoice::first_fail);
  Kokkos::deep_copy(begin, hbegin);
  Kokkos::deep_copy(vars, hvars);
  Kokkos::deep_copy(vc, hvc);
  SearchPhases<MemSpace> phases;
  phases.begin = begin;
  phases.vars = vars;
  phases.var_choice = vc;
  phases.value_choice = valc;
  phases.occurrences = occ;
  Kokkos::View<int, MemSpace> disagreements("disagreements");
  Kokkos::TeamPolicy<Space> policy(teams, lp.team_size, lp.vector_length);
  policy.set_scratch_size(0, Kokkos::PerTeam(sizeof(std::int32_t) * 2 * n + 64));
  Kokkos::parallel_for("kcp::test::branch_agreement", policy,
                       BranchAgreementKernel<Space>{phases, n, rounds, disagreements});
  int h = 0;
  Kokkos::deep_copy(h, disagreements);
  return h;
}

template <class Space>
class SearchOnBackend : public ::testing::Test {};
TYPED_TEST_SUITE(SearchOnBackend, test::Backends, test::BackendName);

TYPED_TEST(SearchOnBackend, QueensHas92SolutionsEachFoundOnce) {
  SearchOptions o;
  o.max_solutions = 0;
  const Outcome out = solve_file<TypeParam>(example("queens.fzn"), o);
  EXPECT_TRUE(out.report.complete);
  EXPECT_EQ(out.reported(), 92);
  EXPECT_EQ(out.distinct.size(), 92u);
  EXPECT_EQ(out.report.solutions, 92);
}

TYPED_TEST(SearchOnBackend, SendMoreMoneyHasOneSolution) {
  SearchOptions o;
  o.max_solutions = 0;
  const Outcome out = solve_file<TypeParam>(example("send-more-money.fzn"), o);
  EXPECT_TRUE(out.report.complete);
  ASSERT_EQ(out.reported(), 1);
  // S E N D M O R Y
  EXPECT_EQ(out.last(), (std::vector<std::int64_t>{9, 5, 6, 7, 1, 0, 8, 2}));
}

TYPED_TEST(SearchOnBackend, StopsAfterTheRequestedNumberOfSolutions) {
  SearchOptions o;
  o.max_solutions = 5;
  const Outcome out = solve_file<TypeParam>(example("queens.fzn"), o);
  EXPECT_FALSE(out.report.complete);
  EXPECT_EQ(out.reported(), 5);
}

TYPED_TEST(SearchOnBackend, BackpackOptimumIs51AndProven) {
  const Outcome out = solve_file<TypeParam>(example("backpack.fzn"), SearchOptions{});
  EXPECT_TRUE(out.report.complete);
  ASSERT_GE(out.reported(), 1);
  // Maximisation runs as minimisation of the negation.
  EXPECT_EQ(-out.report.best, 51);
  // Each reported solution improves on the previous one: the last is the optimum.
  EXPECT_EQ(out.last()[6], 51);  // total
}

/// The probe (SearchOptions::probe_s) on backends that run several teams by default: a tree this small
/// is finished by the one-team probe, which is then the answer; a probe too short to finish hands
/// over to the fleet, which starts from the root, and no solution is reported twice or lost.
TYPED_TEST(SearchOnBackend, AProbeThatFinishesIsTheAnswerAndOneThatRunsOutHandsOver) {
  // Under quick_mode the tests run 4 teams, which turns the probe off: only the answers are checked.
  const int teams = default_teams<TypeParam>(default_launch_params<TypeParam>());
  const bool fleet = teams > 1 && !test::quick_mode();
  for (const double probe_s : {10.0, 1e-9}) {
    const bool finishes = probe_s > 1;
    const std::string what = finishes ? "a probe that finishes" : "a probe that runs out";
    SearchOptions o;
    o.max_solutions = 0;
    o.probe_s = probe_s;
    const Outcome queens = solve_file<TypeParam>(example("queens.fzn"), o);
    EXPECT_TRUE(queens.report.complete) << what;
    EXPECT_EQ(queens.reported(), 92) << what;
    EXPECT_EQ(queens.distinct.size(), 92u) << what;
    EXPECT_EQ(queens.report.solutions, 92) << what;
    EXPECT_EQ(queens.report.probe_finished, fleet && finishes) << what;
    EXPECT_EQ(queens.report.probe_s > 0, fleet) << what;
    if (fleet) {
      EXPECT_EQ(queens.report.teams, finishes ? 1 : teams) << what;
    }

    SearchOptions b;
    b.probe_s = probe_s;
    const Outcome backpack = solve_file<TypeParam>(example("backpack.fzn"), b);
    EXPECT_TRUE(backpack.report.complete) << what;
    ASSERT_GE(backpack.reported(), 1) << what;
    EXPECT_EQ(backpack.last()[6], 51) << what;
    for (std::size_t i = 1; i < backpack.solutions.size(); ++i)
      EXPECT_GT(backpack.solutions[i][6], backpack.solutions[i - 1][6]) << what << ": solution " << i << " does not improve";
    EXPECT_EQ(backpack.report.probe_finished, fleet && finishes) << what;
  }
}

/// A fleet whose event-driven workspaces exceed their budget runs as many teams as fit, down to an
/// eighth of its teams; below that all of them stay (on AC1), and teams that fit are left alone.
TEST(QueueFittedTeams, FitsTheBudgetDownToAnEighthOfTheTeams) {
  const double mib = double(1 << 20), budget_mib = queue_work_budget_bytes / mib;
  EXPECT_EQ(queue_fitted_teams(1056, 1.0 * mib), 1056);
  EXPECT_EQ(queue_fitted_teams(1056, budget_mib / 1056.5 * mib), 1056);  // just within the budget
  // ma-path-finding on an H200 (exp86: 316 teams): 324,675 propagators and a pool of 1,024, 238,890 variables.
  EXPECT_EQ(queue_fitted_teams(1056, 4.0 * (3 * (324675 + 1024) + 3 * 238890 + 8)), 316);
  EXPECT_EQ(queue_fitted_teams(1056, budget_mib / 132.5 * mib), 132);   // an eighth: still fitted
  EXPECT_EQ(queue_fitted_teams(1056, budget_mib / 131.5 * mib), 1056);  // fewer would fit: AC1 on all
  EXPECT_EQ(queue_fitted_teams(1, 2 * queue_work_budget_bytes), 1);
  EXPECT_EQ(queue_fitted_teams(4, queue_work_budget_bytes / 3.5), 3);
}

/// The event-driven fixpoint when asked for; automatically on teams of several threads only up to
/// auto_ac1_reads reads a variable; never when AC1 is asked for.
TEST(QueueFittedTeams, TheQueueIsWantedWhereTheAutomaticChoiceTakesIt) {
  using M = FixpointMode;
  EXPECT_TRUE(queue_wanted(M::automatic, false, 3.9));  // ma-path-finding on a GPU
  EXPECT_FALSE(queue_wanted(M::automatic, false, auto_ac1_reads + 1));
  EXPECT_TRUE(queue_wanted(M::automatic, true, auto_ac1_reads + 1));  // one thread a team
  EXPECT_TRUE(queue_wanted(M::queue, false, auto_ac1_reads + 1));
  EXPECT_FALSE(queue_wanted(M::ac1, true, 1));
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
  // The teams' own refutation: the explaining search, which since perf/NOTES.md entry 50 runs beside a
  // satisfaction search for one solution, may prove it first (EndToEnd tests that proof).
  SearchOptions o = quick(SearchOptions{});
  o.learn = LearnMode::none;
  const SearchReport r = search<TypeParam>(p, o, [&](const std::vector<std::int32_t>&) {
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

/// How a team recomputes a node after a backtrack: from copies every `distance` levels (0: the
/// subproblem's root only), or from the root (no copies at all).
struct CopyMode {
  bool snapshots;
  int distance;
  std::string name() const {
    return snapshots ? "copies every " + std::to_string(distance) + " levels" : "from the root";
  }
  void apply(SearchOptions& o) const {
    o.snapshots = snapshots;
    o.copy_distance = distance;
  }
};
const std::vector<CopyMode> copy_modes = {{true, 1}, {true, 3}, {true, 0}, {false, 0}};

TYPED_TEST(SearchOnBackend, EveryTeamAndSubproblemSplitFindsEachSolutionOnce) {
  for (const CopyMode& mode : copy_modes) {
    for (const int teams : sweep<int>({1, 2, 3, 8})) {
      for (const int depth : sweep<int>({0, 1, 4, 12})) {
        SearchOptions o;
        o.max_solutions = 0;
        o.learn = LearnMode::none;  // the fleet's own accounting: no explaining search to end it first
        o.teams = teams;
        o.subproblem_depth = depth;
        // Runs of consecutive subproblems: one at a time (the default), up to 4, up to 64.
        o.subproblem_runs = std::array<int, 3>{1, 4, 64}[std::size_t(teams + depth) % 3];
        mode.apply(o);
        const std::string what = std::to_string(teams) + " teams, 2^" + std::to_string(depth) + ", runs " +
                                 std::to_string(o.subproblem_runs) + ", " + mode.name();
        const Outcome out = solve_file<TypeParam>(example("queens.fzn"), o);
        EXPECT_EQ(out.report.snapshots, mode.snapshots) << what;
        EXPECT_TRUE(out.report.complete) << what;
        EXPECT_EQ(out.reported(), 92) << what;
        EXPECT_EQ(out.distinct.size(), 92u) << what;
        // Every subproblem is either explored by a team or skipped as part of a failed subtree.
        EXPECT_EQ(out.report.subproblems_solved + out.report.subproblems_skipped, std::int64_t(1) << depth) << what;
        EXPECT_EQ(out.report.idle_teams, teams) << what;
      }
    }
  }
}

TYPED_TEST(SearchOnBackend, EndGameSplitHandsOutPiecesAndKeepsEveryAnswer) {
  // Fewer subproblems than teams: the counter runs out at once, and the teams without one take pieces
  // of the others' (search/modes.hpp's SplitPool), also across launches of a few nodes. Off: none.
  std::int64_t pieces = 0;
  for (const bool split : {true, false}) {
    for (const CopyMode& mode : copy_modes) {
      for (const int depth : {0, 1, 3}) {
        for (const std::int64_t slice : {std::int64_t(0), std::int64_t(3)}) {
          SearchOptions o;
          o.max_solutions = 0;
          o.learn = LearnMode::none;  // the fleet's own accounting: no explaining search to end it first
          o.teams = 8;
          o.subproblem_depth = depth;
          o.slice_nodes = slice;
          o.end_game_split = split;
          mode.apply(o);
          const std::string what = std::string(split ? "split" : "no split") + ", 2^" + std::to_string(depth) +
                                   ", slices of " + std::to_string(slice) + ", " + mode.name();
          const Outcome out = solve_file<TypeParam>(example("queens.fzn"), o);
          EXPECT_EQ(out.report.end_game_split, split) << what;
          EXPECT_TRUE(out.report.complete) << what;
          EXPECT_EQ(out.reported(), 92) << what;
          EXPECT_EQ(out.distinct.size(), 92u) << what;
          // Pieces are parts of subproblems: each subproblem still counts once.
          EXPECT_EQ(out.report.subproblems_solved + out.report.subproblems_skipped, std::int64_t(1) << depth) << what;
          EXPECT_EQ(out.report.idle_teams, 8) << what;
          if (!split) {
            EXPECT_EQ(out.report.split_pieces, 0) << what;
          }
          pieces += out.report.split_pieces;

          SearchOptions b = o;
          b.max_solutions = 1;
          const Outcome best = solve_file<TypeParam>(example("backpack.fzn"), b);
          EXPECT_EQ(best.report.end_game_split, split) << what;
          EXPECT_TRUE(best.report.complete) << what;
          EXPECT_EQ(-best.report.best, 51) << what;
          EXPECT_EQ(best.last()[6], 51) << what;
          if (!split) {
            EXPECT_EQ(best.report.split_pieces, 0) << what;
          }
          pieces += best.report.split_pieces;
        }
      }
    }
  }
  EXPECT_GT(pieces, 0);
  // Satisfaction's first solutions keep the sequential search's order: no splitting there.
  SearchOptions first;
  first.max_solutions = 1;
  first.teams = 8;
  first.subproblem_depth = 0;
  const Outcome out = solve_file<TypeParam>(example("queens.fzn"), first);
  EXPECT_FALSE(out.report.end_game_split);
  EXPECT_EQ(out.reported(), 1);
}

/// Hybrid recomputation changes where a node's store is recomputed from, never the tree: one team,
/// no split and fixed slices (so that launches, and the restores at their starts, are the same), for
/// every copy distance, explore the same nodes, failures, solutions and restores as copying only the
/// subproblem's root. The replays add up: with a copy every level each restore replays exactly the
/// node's last decision (the first node of the search, at the root, replays none), and its fixpoints
/// run fewer propagators; any distance replays no more than copying only the root, and recomputing
/// from the root no less. Value decisions (indomain_median: x = v | x != v) and splits that replace an
/// exhausted one (first_fail/indomain_min) both change the stack; teams of one thread (a plain store)
/// and, on OpenMP with two threads, of two (a shared store).
TYPED_TEST(SearchOnBackend, HybridRecomputationExploresTheSameTreeAndItsReplaysAddUp) {
  struct Case {
    std::string name, text;
    std::int64_t max_solutions;
  };
  const std::vector<Case> cases = {
      {"queens, first_fail/indomain_min, all", annotated_queens("first_fail", "indomain_min"), 0},
      {"queens, input_order/indomain_median, all", annotated_queens("input_order", "indomain_median"), 0},
      {"backpack (optimum 51)", read_file(example("backpack.fzn")), 1},
  };
  std::vector<int> team_sizes = {0};
#ifdef KOKKOS_ENABLE_OPENMP
  if (std::is_same_v<TypeParam, Kokkos::OpenMP> && Kokkos::OpenMP().concurrency() >= 2) team_sizes.push_back(2);
#endif
  for (const Case& c : cases) {
    for (const int team_size : team_sizes) {
      for (const std::int64_t slice : {std::int64_t(5), std::int64_t(1) << 40}) {
        const auto run = [&](const CopyMode& mode) {
          SearchOptions o;
          o.teams = 1;
          o.team_size = team_size;
          o.subproblem_depth = 0;
          o.portfolio = 0;  // the complete search's tree alone (free rows' runs differ with the slices)
          o.learn = LearnMode::none;  // and no explaining thread beside it (its proofs end the search early)
          o.slice_nodes = slice;
          o.max_solutions = c.max_solutions;
          mode.apply(o);
          return solve_text<TypeParam>(c.text, o);
        };
        const std::string what =
            c.name + ", slices of " + std::to_string(slice) + " nodes, team size " + std::to_string(team_size);
        const Outcome root_copy = run({true, 0});
        const SearchReport& r0 = root_copy.report;
        ASSERT_TRUE(r0.complete) << what;
        ASSERT_GT(r0.restores, 10) << what;
        for (const int distance : {1, 2, 3, 7}) {
          const Outcome out = run({true, distance});
          const SearchReport& r = out.report;
          const std::string at = what + ", copies every " + std::to_string(distance);
          EXPECT_EQ(r.copy_distance, distance) << at;
          EXPECT_GT(r.store_slots, 8) << at;
          EXPECT_TRUE(r.complete) << at;
          EXPECT_EQ(r.nodes, r0.nodes) << at;
          EXPECT_EQ(r.failures, r0.failures) << at;
          EXPECT_EQ(r.restores, r0.restores) << at;
          EXPECT_EQ(out.solutions, root_copy.solutions) << at;
          EXPECT_EQ(r.best, r0.best) << at;
          // Every restore but the first (at the root) replays at least the node's last decision.
          EXPECT_GE(r.replayed_decisions, r.restores - 1) << at;
          EXPECT_LE(r.replayed_decisions, r0.replayed_decisions) << at;
          if (distance == 1) {
            EXPECT_EQ(r.replayed_decisions, r.restores - 1) << at;
            EXPECT_LT(r.replayed_decisions, r0.replayed_decisions) << at;
            // Propagator runs are exact with one thread per team; with two, which thread's narrowing
            // lands first decides what the next iteration queues, so counts vary by a few runs
            // (backpack: 135 against 134, under ctest -j2 on this 2-core VM): there only no more by a tenth.
            if (team_size <= 1) {
              EXPECT_LT(r.propagations, r0.propagations) << at;
            } else {
              EXPECT_LE(r.propagations, r0.propagations + r0.propagations / 10) << at;
            }
          }
        }
        const Outcome from_root = run({false, 0});
        EXPECT_EQ(from_root.report.nodes, r0.nodes) << what;
        EXPECT_EQ(from_root.report.store_slots, 0) << what;
        EXPECT_GE(from_root.report.replayed_decisions, r0.replayed_decisions) << what;
      }
    }
  }
}

/// Where the copies' budget gives a team fewer than 64 copies, they are spaced to reach 64 levels (at
/// most 16 apart); given, --copy-distance is kept.
TEST(CopyDistance, WiderWhereTheBudgetGivesFewCopies) {
  SearchOptions o;
  const std::int64_t store = 63864;  // team-assignment's store; 1,056 teams: 15 copies in 1 GiB
  EXPECT_EQ(driver::copy_distance(o, 1056, store), 5);
  EXPECT_EQ(driver::copy_distance(o, 1056, 800), 1);      // 1,271 copies
  EXPECT_EQ(driver::copy_distance(o, 1056, 200784), 13);  // 5 copies
  EXPECT_EQ(driver::copy_distance(o, 1056, std::int64_t(1) << 30), 1);  // none fits: no copies at all
  EXPECT_EQ(driver::copy_distance(o, 1, 1 << 30), 16);    // one copy: at most 16 apart
  o.copy_distance = 1;
  EXPECT_EQ(driver::copy_distance(o, 1056, store), 1);
  o.copy_distance = 0;
  EXPECT_EQ(driver::copy_distance(o, 1056, store), 0);
}

/// Eight copies for the one team of an all-solutions search: spaced 8 apart, the same tree.
TYPED_TEST(SearchOnBackend, FewCopiesSpacedFindTheSameTree) {
  SearchOptions o;
  o.max_solutions = 0;
  o.teams = 1;
  o.learn = LearnMode::none;
  const Outcome wide = solve_file<TypeParam>(example("queens.fzn"), o);
  ASSERT_EQ(wide.report.copy_distance, 1);
  ASSERT_GT(wide.report.store_slots, 8);
  o.copy_budget_bytes = 8.0 * double(wide.report.domain_bytes);
  const Outcome few = solve_file<TypeParam>(example("queens.fzn"), o);
  EXPECT_EQ(few.report.copy_distance, 8);
  EXPECT_EQ(few.report.store_slots, 8);
  EXPECT_EQ(few.distinct.size(), 92u);
  EXPECT_EQ(few.report.nodes, wide.report.nodes);
  EXPECT_EQ(few.report.failures, wide.report.failures);
  EXPECT_GE(few.report.replayed_decisions, wide.report.replayed_decisions);
}

/// A team larger than the backend can run (CUDA: the search kernel's launch bounds; host: the thread
/// pool) is refused with a message naming the option, not handed to Kokkos, which aborts.
TYPED_TEST(SearchOnBackend, TeamsLargerThanTheBackendRunsAreRefused) {
  const Program p = compile(fzn::parse_file(example("queens.fzn"))).program;
  SearchOptions o;
  o.team_size = 4 * search_max_team_threads;
  // With the probe (SearchOptions::probe_s, satisfaction_probe_s) as a user gets it: beside a GPU the
  // host probe answers queens before any team is launched, and the shape is still refused.
  o.probe_s = 0.02;
  try {
    search<TypeParam>(p, o, [](const std::vector<std::int32_t>&) { return true; });
    ADD_FAILURE() << "a team of " << o.team_size << " threads was launched";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--team-size 1024"), std::string::npos) << e.what();
  }
}

/// A team shape (SearchOptions::team_size x vector_length; 0 x 0: the backend's default).
struct TeamShape {
  int team_size, vector_length;
};

/// The team shapes a backend runs: its default; on CUDA also one warp a team (1 x 32) and eight
/// one-lane threads (8 x 1); on OpenMP with two threads or more, two threads a team.
template <class Space>
std::vector<TeamShape> team_shapes() {
  std::vector<TeamShape> shapes = {{0, 0}};
#ifdef KOKKOS_ENABLE_CUDA
  if (std::is_same_v<Space, Kokkos::Cuda>) {
    shapes.push_back({1, 32});
    shapes.push_back({8, 1});
  }
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  if (std::is_same_v<Space, Kokkos::OpenMP> && Kokkos::OpenMP().concurrency() >= 2) shapes.push_back({2, 1});
#endif
  return shapes;
}

/// Every solution, on `shape`, with `mode`'s fixpoint.
SearchOptions all_solutions_on(const TeamShape& shape, FixpointMode mode) {
  SearchOptions o;
  o.max_solutions = 0;
  o.team_size = shape.team_size;
  o.vector_length = shape.vector_length;
  o.fixpoint_mode = mode;
  return o;
}

/// The shape and the fixpoint, for failure messages.
std::string shape_name(const TeamShape& shape, FixpointMode mode) {
  return "team " + std::to_string(shape.team_size) + " x " + std::to_string(shape.vector_length) +
         (mode == FixpointMode::queue ? ", queue" : ", AC1");
}

/// A holes-differential model that the CUDA search with bitsets got wrong (perf/NOTES.md, entry 16):
/// 420 solutions (Gecode), the `!=` rows removing values inside bitset domains. On the GPU the
/// event-driven fixpoint with bitsets ended early at some nodes (a `!=` row reported no change and
/// left its value in place), so teams disagreed on the tree above the subproblems: 382-420 solutions
/// with 8 x 1 teams, lost or doubled. The cause was ptxas at -O3 (entry 45). Both fixpoints, every
/// team shape the backend runs, the fleet and 2^15 subproblems.
TYPED_TEST(SearchOnBackend, HoleRowsKeepEverySolutionOnEveryTeamShape) {
  const std::string text =
      "var {-2,3,4}: x0 :: output_var;\n"
      "var 3..8: x1 :: output_var;\n"
      "var -1..1: x2 :: output_var;\n"
      "var {4,6}: x3 :: output_var;\n"
      "var {-2,-1,0}: x4 :: output_var;\n"
      "var bool: b0 :: output_var;\n"
      "var bool: b1 :: output_var;\n"
      "constraint int_lin_ne([3,-2,-2],[x2,x3,-1],-7);\n"
      "constraint int_lin_ne([3,2],[x2,-1],-2);\n"
      "constraint int_lin_ne([3,-2,-1],[-2,x1,-1],-11);\n"
      "constraint int_ne(x3,x0);\n"
      "solve :: int_search([x3,x0,x4,x2,x1], smallest, indomain_max, complete) satisfy;\n";
  for (const TeamShape& shape : team_shapes<TypeParam>()) {
    for (const int depth : {-1, 15}) {
      for (const FixpointMode mode : {FixpointMode::queue, FixpointMode::ac1}) {
        SearchOptions o = all_solutions_on(shape, mode);
        o.subproblem_depth = depth;
        ASSERT_GT(o.bitset_span, 0);
        const Outcome out = solve_text<TypeParam>(text, o);
        const std::string what = shape_name(shape, mode) + ", subproblem depth " + std::to_string(depth);
        EXPECT_TRUE(out.report.complete) << what;
        EXPECT_GT(out.report.bitset_vars, 0) << what;
        EXPECT_EQ(out.reported(), 420) << what;
        EXPECT_EQ(out.distinct.size(), 420u) << what;
        EXPECT_EQ(out.report.failures, 0) << what << ": the complete fixpoint never fails on this model";
      }
    }
  }
}

/// n-queens as MiniZinc's standard library flattens it (an int_ne and two unit int_lin_ne rows a pair:
/// perf/bench/device/queens_fzn.py), every solution of 10 queens with bitsets and first_fail,
/// indomain_median: the model on which the CUDA queue fixpoint lost or doubled solutions in every run
/// while ptxas optimised at -O3 (perf/NOTES.md entries 43-45). Both fixpoints, every team shape the
/// backend runs (8 queens on the host: two threads a team on this VM's two cores take seconds for 10).
TYPED_TEST(SearchOnBackend, QueensKeepEverySolutionOnEveryTeamShape) {
  const bool gpu = on_gpu<TypeParam>();
  const int n = gpu ? 10 : 8;
  const std::int64_t solutions = gpu ? 724 : 92;
  std::string text;
  for (int i = 0; i < n; ++i) text += "var 1.." + std::to_string(n) + ": q" + std::to_string(i) + " :: output_var;\n";
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      const std::string qi = "q" + std::to_string(i), qj = "q" + std::to_string(j), d = std::to_string(j - i);
      text += "constraint int_ne(" + qi + "," + qj + ");\n";
      text += "constraint int_lin_ne([1,-1],[" + qi + "," + qj + "]," + d + ");\n";
      text += "constraint int_lin_ne([1,-1],[" + qi + "," + qj + "],-" + d + ");\n";
    }
  text += "solve :: int_search([";
  for (int i = 0; i < n; ++i) text += (i ? ",q" : "q") + std::to_string(i);
  text += "], first_fail, indomain_median, complete) satisfy;\n";
  for (const TeamShape& shape : team_shapes<TypeParam>()) {
    for (const FixpointMode mode : {FixpointMode::queue, FixpointMode::ac1}) {
      const Outcome out = solve_text<TypeParam>(text, all_solutions_on(shape, mode));
      const std::string what = shape_name(shape, mode);
      EXPECT_TRUE(out.report.complete) << what;
      EXPECT_GT(out.report.bitset_vars, 0) << what;
      EXPECT_EQ(out.reported(), solutions) << what;
      EXPECT_EQ(std::int64_t(out.distinct.size()), solutions) << what;
    }
  }
}

/// The ablation switch of perf/ (rows in ternary form) changes how propagation runs, never the
/// answers: under both fixpoints and several team counts.
TYPED_TEST(SearchOnBackend, TernaryRowsKeepTheAnswers) {
  for (const bool ternary : {false, true}) {
    for (const FixpointMode mode : {FixpointMode::queue, FixpointMode::ac1}) {
      for (const int teams : test::quick_mode() ? std::vector<int>{3} : std::vector<int>{1, 3}) {
        CompileOptions co;
        co.ternary_rows = ternary;
        SearchOptions o;
        o.fixpoint_mode = mode;
        o.teams = teams;
        const std::string what = std::string(ternary ? "ternary rows" : "native rows") +
                                 (mode == FixpointMode::queue ? ", queue, " : ", ac1, ") + std::to_string(teams) +
                                 " teams";
        const Outcome backpack = solve_file<TypeParam>(example("backpack.fzn"), o, co);
        EXPECT_TRUE(backpack.report.complete) << what;
        EXPECT_EQ(-backpack.report.best, 51) << what;
        o.max_solutions = 0;
        const Outcome queens = solve_file<TypeParam>(example("queens.fzn"), o, co);
        EXPECT_EQ(queens.distinct.size(), 92u) << what;
        EXPECT_EQ(queens.reported(), 92) << what;
        const Outcome money = solve_file<TypeParam>(example("send-more-money.fzn"), o, co);
        EXPECT_EQ(money.reported(), 1) << what;
        EXPECT_EQ(money.last(), (std::vector<std::int64_t>{9, 5, 6, 7, 1, 0, 8, 2})) << what;
      }
    }
  }
}

TYPED_TEST(SearchOnBackend, OptimumIsTheSameForEveryTeamCount) {
  for (const CopyMode& mode : copy_modes) {
    for (const int teams : {1, 2, 5}) {
      for (const int depth : {0, 3, 9}) {
        SearchOptions o;
        o.teams = teams;
        o.subproblem_depth = depth;
        mode.apply(o);
        const Outcome out = solve_file<TypeParam>(example("backpack.fzn"), o);
        EXPECT_TRUE(out.report.complete);
        EXPECT_EQ(-out.report.best, 51) << teams << " teams, 2^" << depth << ", " << mode.name();
        EXPECT_EQ(out.last()[6], 51);
      }
    }
  }
}

/// First solutions of queens under each annotation, as Gecode 6.2 (fzn-gecode) finds them: with one
/// team and no split, kcp's depth-first order is the same.
struct AnnotationCase {
  const char* var;
  const char* value;
  std::vector<std::int64_t> first;
};

const std::vector<AnnotationCase>& annotation_cases() {
  static const std::vector<AnnotationCase> cases = {
      {"input_order", "indomain_min", {1, 5, 8, 6, 3, 7, 2, 4}},
      {"input_order", "indomain_max", {8, 4, 1, 3, 6, 2, 7, 5}},
      {"first_fail", "indomain_min", {1, 5, 8, 6, 3, 7, 2, 4}},
      {"first_fail", "indomain_max", {8, 4, 1, 3, 6, 2, 7, 5}},
      {"anti_first_fail", "indomain_min", {1, 7, 5, 8, 2, 4, 6, 3}},
      {"anti_first_fail", "indomain_max", {8, 2, 4, 1, 7, 5, 3, 6}},
      {"smallest", "indomain_min", {1, 7, 5, 8, 2, 4, 6, 3}},
      {"smallest", "indomain_max", {8, 4, 1, 3, 6, 2, 7, 5}},
      {"largest", "indomain_min", {1, 5, 8, 6, 3, 7, 2, 4}},
      {"largest", "indomain_max", {8, 2, 4, 1, 7, 5, 3, 6}},
  };
  return cases;
}

TYPED_TEST(SearchOnBackend, AnnotatedSearchFindsGecodesFirstSolution) {
  for (const auto& c : annotation_cases()) {
    SearchOptions o;
    o.teams = 1;
    o.subproblem_depth = 0;
    const Outcome out = solve_text<TypeParam>(annotated_queens(c.var, c.value), o);
    ASSERT_EQ(out.reported(), 1) << c.var << " " << c.value;
    EXPECT_EQ(queens_of(out.first()), c.first) << c.var << " " << c.value;
  }
}

/// Every solution of queens, on `teams` teams over 2^depth subproblems (the fleet's own accounting: no
/// explaining search to end it first).
SearchOptions enumeration(int teams, int depth, bool halves, bool split) {
  SearchOptions o;
  o.max_solutions = 0;
  o.teams = teams;
  o.subproblem_depth = depth;
  o.seed = 7;
  o.halve_path = halves;
  o.end_game_split = split;
  o.learn = LearnMode::none;
  return o;
}

/// The 92 solutions of queens, each once, and every one of the 2^depth subproblems searched or skipped.
void expect_every_queens_solution(const Outcome& out, int depth, const std::string& what) {
  EXPECT_EQ(out.distinct.size(), 92u) << what;
  EXPECT_EQ(out.reported(), 92) << what;
  EXPECT_TRUE(out.report.complete) << what;
  EXPECT_EQ(out.report.subproblems_solved + out.report.subproblems_skipped, std::int64_t(1) << depth) << what;
}

/// Halved subproblem paths (SearchOptions::halve_path): every branching choice still enumerates each
/// solution once and proves the optimum, with the end game on and off; satisfaction's first solution
/// in order ignores them (the first solution is the sequential search's).
TYPED_TEST(SearchOnBackend, HalvedPathsKeepEveryAnswer) {
  const char* vars[] = {"input_order", "first_fail", "dom_w_deg"};
  const char* values[] = {"indomain_min", "indomain_max", "indomain_median", "indomain_split"};
  for (const char* v : vars) {
    for (const char* val : values) {
      for (const bool split : {true, false}) {
        const std::string what = std::string(v) + " " + val + (split ? ", end game" : ", no end game");
        const SearchOptions o = enumeration(4, 6, true, split);
        expect_every_queens_solution(solve_text<TypeParam>(annotated_queens(v, val), o), 6, what);
        SearchOptions first = o;
        first.max_solutions = 1;
        SearchOptions plain = first;
        plain.halve_path = false;
        EXPECT_EQ(solve_text<TypeParam>(annotated_queens(v, val), first).solutions,
                  solve_text<TypeParam>(annotated_queens(v, val), plain).solutions) << what;
      }
    }
  }
  SearchOptions b;
  b.max_solutions = 1;
  b.teams = 4;
  b.subproblem_depth = 6;
  b.halve_path = true;
  b.learn = LearnMode::none;
  const Outcome best = solve_file<TypeParam>(example("backpack.fzn"), b);
  EXPECT_TRUE(best.report.complete);
  EXPECT_EQ(-best.report.best, 51);
}

/// The dive cache (SearchOptions::dive_cache): teams that start their dives from a block's root
/// another team published enumerate every solution once and prove the optimum, as without it, on
/// plain and halved paths, with and without the end game; and the dives do start there.
TYPED_TEST(SearchOnBackend, DiveCacheKeepsEveryAnswer) {
  for (const bool halves : {false, true}) {
    for (const bool split : {true, false}) {
      const std::string what = std::string(halves ? "halves" : "branching") + (split ? ", end game" : ", no end game");
      const SearchOptions o = enumeration(16, 9, halves, split);
      const Outcome out = solve_text<TypeParam>(annotated_queens("first_fail", "indomain_median"), o);
      expect_every_queens_solution(out, 9, what);
      EXPECT_EQ(out.report.dive_cache_depth, 7) << what;  // 128 blocks of 4: within the budget
      EXPECT_GT(out.report.dive_cache_hits, 0) << what;
      EXPECT_GT(out.report.path_nodes, 0) << what;
      SearchOptions off = o;
      off.dive_cache = false;
      const Outcome plain = solve_text<TypeParam>(annotated_queens("first_fail", "indomain_median"), off);
      EXPECT_EQ(plain.distinct, out.distinct) << what;
      EXPECT_EQ(plain.report.dive_cache_depth, 0) << what;
      EXPECT_EQ(plain.report.dive_cache_hits, 0) << what;
    }
  }
  SearchOptions b;
  b.teams = 16;
  b.subproblem_depth = 9;
  b.learn = LearnMode::none;
  const Outcome best = solve_file<TypeParam>(example("backpack.fzn"), b);
  EXPECT_TRUE(best.report.complete);
  EXPECT_EQ(-best.report.best, 51);
  EXPECT_GT(best.report.dive_cache_depth, 0);
}

TYPED_TEST(SearchOnBackend, EveryBranchingChoiceEnumeratesEverySolutionOnce) {
  const char* vars[] = {"input_order", "first_fail", "anti_first_fail", "smallest", "largest",
                        "occurrence", "most_constrained", "max_regret", "dom_w_deg"};
  const char* values[] = {"indomain_min", "indomain_max", "indomain_split", "indomain_reverse_split",
                          "indomain_median", "indomain_random"};
  // Under quick_mode each variable choice once, with the value choices in turn (all of both are met),
  // to the first 3 solutions: racecheck ran 8 whole enumerations past 555 s on an H100 (exp15).
  const int wanted = test::quick_mode() ? 3 : 92;
  for (int i = 0; i < 9; ++i) {
    for (int j = 0; j < 6; ++j) {
      if (test::quick_mode() && j != i % 6) continue;
      const char* v = vars[i];
      const char* val = values[j];
      SearchOptions o;
      o.max_solutions = wanted == 92 ? 0 : wanted;
      o.teams = 2;
      o.subproblem_depth = 5;
      o.seed = 7;
      const Outcome out = solve_text<TypeParam>(annotated_queens(v, val), o);
      EXPECT_EQ(out.distinct.size(), std::size_t(wanted)) << v << " " << val;
      EXPECT_EQ(out.reported(), wanted) << v << " " << val;
    }
  }
}

/// Every thread of a team agrees on the branching variable when the annotated phases before it are
/// all fixed (each phase is one team reduction; on CUDA two in a row raced in Kokkos 3.4 and let one
/// warp report an unfixed node as a solution). CUDA: 528 teams of 8 warps, the search's shape; the
/// host backends with teams of up to 4 threads. KCP_TEST_QUICK=1 runs 2 teams for 4 rounds: enough for
/// compute-sanitizer racecheck, which sees the hazard whatever the timing (perf/bench/device/exp12.sh).
TYPED_TEST(SearchOnBackend, EveryThreadChoosesTheSameBranchAfterFixedPhases) {
  LaunchParams lp = default_launch_params<TypeParam>();
  const bool gpu = lp.vector_length > 1;
  if (!gpu) lp.team_size = std::min(4, TypeParam().concurrency());
  const bool quick = test::quick_mode();
  EXPECT_EQ(branch_disagreements<TypeParam>(6, 40, quick ? 2 : gpu ? 528 : 4, quick ? 4 : gpu ? 400 : 50, lp), 0);
}

}  // namespace
}  // namespace kcp
