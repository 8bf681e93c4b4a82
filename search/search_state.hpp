// The search state that lives in Views between slices of the search kernel, so that the host can
// stop, print and resume without copying the tree back and forth. Per team: a decision stack, the
// subproblem it works on, counters and a solution slot. Global: the next subproblem, the best
// objective, the skipped-subproblem count.
#pragma once

#include "domains/store.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kcp {

/// What a decision does to its variable (see search/branching.hpp).
enum DecisionKind : std::int8_t {
  decide_split = 0,  ///< x's domain at the node was [lo, hi]: left x in [lo, v], right x in [v + 1, hi]
  decide_value = 1,  ///< left x = v, right x != v
};

/// One decision. A split: left is [lo, v] (reversed: [v+1, hi]), right the other half. A value
/// decision: left x = v, right x != v (reversed: the other way round). `right` is 1 once the left
/// branch is exhausted (or, on a subproblem's path, when the path takes the right branch).
/// `donated` is 1 once its right branch went to another row (search/modes.hpp's SplitPool): the row
/// backtracks past it when its left branch is exhausted.
struct Decision {
  std::int32_t var;
  std::int32_t lo, hi, v;
  std::int8_t reversed;
  std::int8_t right;
  std::int8_t kind;  ///< a DecisionKind
  std::int8_t donated;
};
// SplitPool copies decisions between rows as 32-bit words.
static_assert(sizeof(Decision) == 5 * sizeof(std::int32_t), "a Decision is five 32-bit words");

/// Slots of SearchState::control (int64 each), shared by all teams.
enum Control : int {
  ctl_next_subproblem = 0,  ///< the counter teams take subproblems from
  ctl_best,                 ///< best objective found (minimisation); INT64_MAX while none
  ctl_skipped,              ///< subproblems never taken: their subtree failed during another's dive
  ctl_error,                ///< 1: no team scratch; 2: a decision stack overflowed
  ctl_complete_idle,        ///< complete rows with no subproblem left: all of them ends the free rows' launch too
  ctl_learned_ints,         ///< ints of SearchState::learned reserved in this launch (search/learning.hpp)
  ctl_learned_dropped,      ///< nogoods that did not fit in the log or were too long
  /// The subproblems this process holds (SearchState::chunks): ctl_next_subproblem counts up to this
  /// (2^p in one process; a distributed search raises it chunk by chunk, search/peers.hpp).
  ctl_subproblem_end,
  ctl_skip_to,              ///< a failed subtree's end (a subproblem index) past the chunk it began in; 0: none
  // End-game splitting (search/modes.hpp's SplitPool).
  ctl_split_waiting,        ///< complete rows waiting for a piece (no subproblem left to take)
  ctl_split_pooled,         ///< pieces in the pool, reserved or published, not yet taken
  ctl_split_holding,        ///< complete rows holding a subproblem or a piece
  ctl_split_extra,          ///< of ctl_split_waiting, the pieces other processes asked for (the host's)
  /// While only other processes' demand is left, rows whose never-undone prefix is this long or longer
  /// do not give (the host's choice, SearchOptions::shallow_givers); 0: every row gives.
  ctl_split_give_cap,
#ifdef KCP_CHECK_INVARIANTS
  // The counts of a KCP_CHECK_INVARIANTS build (ParallelSearch::check_invariants).
  ctl_check_nodes,          ///< nodes checked (a complete fixpoint, no failure)
  ctl_check_leaks,          ///< nodes after whose fixpoint the event workspace was not clean
  ctl_check_unnormalised,   ///< nodes with a bound on a removed value or an empty domain
  ctl_check_incomplete,     ///< nodes whose store a serial fixpoint still narrowed (or failed)
  ctl_check_incomplete_restored,  ///< of those, nodes recomputed from a copy or the root
  ctl_check_tree,           ///< nodes above the subproblem depth whose store differed from another team's
  ctl_check_first,          ///< the first incomplete node: depth, variable, lb, ub, then the serial lb, ub
  ctl_check_first_end = ctl_check_first + 5,
#endif
  ctl_count
};

/// A profiling build's phases of the kernel's node (KCP_PHASE_PROFILE; ParallelSearch::operator()):
/// the clock ticks a team spends in each, between the marks its first thread sets after each phase
/// (the phases end at team barriers, so a mark counts the slowest thread). Device: SM cycles
/// (clock64); host: nanoseconds (steady_clock).
enum KernelPhase : int {
  phase_take_stop,   ///< take_work's read of the stop flag (and a free row's of the idle count)
  phase_take_work,   ///< the rest of take_work: the next subproblem, run or split piece
  phase_restore,     ///< begin_node and restore: a store copied back, decisions replayed
  phase_bound,       ///< apply_bound: the objective's bound
  phase_propagate,   ///< propagate: the fixpoint (and the nogood pool)
  phase_save,        ///< publish_dive and save_snapshot: store copies out
  phase_branch,      ///< branch: the variable and value choice, the decision pushed
  phase_next,        ///< record_solution and next_node: solutions, backtracking, the node's end
  phase_count
};
inline constexpr const char* kernel_phase_names[phase_count] = {"take_stop", "take_work", "restore", "bound", "propagate",
                                                                "save", "branch", "next"};

/// Slots of SearchState::team (int64 each), one row per team.
enum TeamSlot : int {
  team_subproblem = 0,  ///< index of the subproblem in hand, -1 when none
  team_idle,            ///< 1 once no subproblem is left to take
  team_depth,           ///< decisions on the stack
  team_restore,         ///< 1 when the next node is rebuilt: from the dive cache, the deepest store copy above it, or the root
  team_has_solution,    ///< 1 when the solution slot holds a solution the host has not seen
  team_nodes,
  team_failures,
  team_fixpoint_iterations,
  team_peak_depth,
  team_solved,          ///< subproblems this team finished
  team_last_subproblem, ///< the subproblem taken before the one in hand, -1 when none
  team_last_path,       ///< how many of the last one's path decisions are still on the stack
  team_snapshot,        ///< copies of stores held for the subproblem in hand: slots 0 .. this - 1 (ParallelSearch)
  team_solution_subproblem,  ///< the subproblem the solution in the slot belongs to
  team_restores,        ///< nodes whose store was recomputed (copied back, then decisions replayed)
  team_replayed,        ///< decisions replayed by those recomputations
  team_propagations,    ///< propagator runs in the fixpoints (FixpointResult::propagations)
  // The run in hand of a row that restarts (search/free_runs.hpp); a complete row keeps prefix = p.
  team_prefix,          ///< decisions at the bottom of the stack never undone: the subproblem path or a neighbourhood
  team_runs,            ///< runs this row started (restarts and neighbourhoods)
  team_neighbourhoods,  ///< of those, neighbourhoods of an incumbent (LNS)
  team_run_failures,    ///< failures in the run in hand
  team_run_limit,       ///< failures after which the run in hand ends
  team_fix_permille,    ///< LNS: the share of the neighbourhood variables fixed to the incumbent, in 1/1000
  team_in_neighbourhood,  ///< 1: the run in hand is a neighbourhood (LNS), 0: a restart from the root
  team_salt,            ///< the run's tie-breaking (search/branching.hpp's rotation); 0: none
  team_lns_exhausted,   ///< neighbourhoods searched to the end within their limit
  team_free_heuristic,  ///< 1: the run in hand branches by free search (ParallelSearch::free_phases), 0: as annotated
  team_local_subproblem,  ///< the counter's value that gave the subproblem in hand (its place in SearchState::chunks)
  team_watch_epoch,     ///< the pool's epoch + 1 the row's nogood watches were set in (0: never)
  // A complete row's run of consecutive counter values (search/modes.hpp's take_subproblem).
  team_run_next,        ///< the next counter value of the run in hand to take
  team_run_end,         ///< the end of the run in hand (team_run_next == this: none left)
  team_subproblem_runs, ///< runs this row took from the counter
  // End-game splitting (search/modes.hpp's SplitPool).
  team_split_waiting,   ///< 1 while the row counts in ctl_split_waiting
  team_split_given,     ///< pieces this row gave to the pool
  team_split_taken,     ///< pieces this row took from it
  // The dive above the subproblems (search/modes.hpp's DiveCache).
  team_path_nodes,      ///< nodes above the subproblems' roots (a complete row's dives)
  team_dive_cache_hits, ///< dives that started from a block's root in the dive cache
  team_dive_prefetch,   ///< 1 while the row dives to a block's root ahead for the others (a prefetch)
  team_dive_saved,      ///< during a prefetch, the subproblem in hand (team_subproblem is the prefetch's)
  team_dive_enter,      ///< 1 when the row is back from a prefetch and has not looked into the cache yet
  team_dive_prefetches, ///< prefetches this row made
  team_dive_cache_misses,  ///< dives that started above their block's root while it was not published
#ifdef KCP_PHASE_PROFILE
  team_phase_ticks,     ///< KCP_PHASE_PROFILE: ticks in each KernelPhase (phase_count slots from here)
  team_phase_ticks_end = team_phase_ticks + phase_count - 1,
#endif
  team_slot_count
};

/// Team-wide moves of a store between team scratch (lb, ub, bitset words) and memory laid out as the
/// copies are (SearchState::snapshot: each variable's lb and ub side by side; the words apart). `Bound`
/// and `Word` may be volatile-qualified: another block wrote them in this launch (search/modes.hpp's
/// DiveCache). The caller puts a barrier after them.
template <class TeamMember, class Bound, class Word>
KOKKOS_INLINE_FUNCTION void load_store(const TeamMember& team, Bound* bounds, Word* words_from, int n, int words,
                                       std::int32_t* lb, std::int32_t* ub, DomainWord* bits) {
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int x) {
    lb[x] = bounds[2 * x];
    ub[x] = bounds[2 * x + 1];
  });
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, words), [&](const int w) { bits[w] = words_from[w]; });
}
template <class TeamMember>
KOKKOS_INLINE_FUNCTION void save_store(const TeamMember& team, std::int32_t* bounds, DomainWord* words_to, int n,
                                       int words, const std::int32_t* lb, const std::int32_t* ub,
                                       const DomainWord* bits) {
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int x) {
    bounds[2 * x] = lb[x];
    bounds[2 * x + 1] = ub[x];
  });
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, words), [&](const int w) { words_to[w] = bits[w]; });
}

/// Where the stop flag lives: memory the host can write while a kernel runs and the kernel can read.
template <class MemorySpace>
struct StopFlagSpace {
  using type = Kokkos::HostSpace;
};
#ifdef KOKKOS_ENABLE_CUDA
template <>
struct StopFlagSpace<Kokkos::CudaSpace> {
  using type = Kokkos::CudaHostPinnedSpace;
};
#endif

template <class MemorySpace>
struct SearchState {
  int teams = 0;
  int capacity = 0;  ///< decisions per team
  int slots = 0;     ///< copies of stores per team (see snapshot)
  // Row-major on every backend: a team's stack, slots and solution are contiguous (the host copies
  // one team's solution row at a time).
  Kokkos::View<Decision**, Kokkos::LayoutRight, MemorySpace> decisions;     ///< [team][depth]
  Kokkos::View<std::int64_t**, Kokkos::LayoutRight, MemorySpace> team;      ///< [team][TeamSlot]
  Kokkos::View<std::int32_t**, Kokkos::LayoutRight, MemorySpace> solution;  ///< [team][variable]
  /// Copies of stores on the way down each team's subproblem, `slots` per team ([team][slot * 2 *
  /// variables + 2 * variable]: lb, ub), slot s holding the store of the node at depth path_length +
  /// s * copy distance (ParallelSearch); empty when not even one fits (every backtrack then
  /// recomputes from the root).
  Kokkos::View<std::int32_t**, Kokkos::LayoutRight, MemorySpace> snapshot;
  /// The bitset words of the same stores ([team][slot * words + word]); empty without copies or bitsets.
  Kokkos::View<DomainWord**, Kokkos::LayoutRight, MemorySpace> snapshot_bits;
  /// Of each copy, the nogood pool's mark (NogoodPool::mark: the nogoods it is a fixpoint of),
  /// written with the copy; empty without learning.
  Kokkos::View<std::int64_t**, Kokkos::LayoutRight, MemorySpace> snapshot_pool;
  /// Each row's watched literals of the nogood pool (NogoodPool::propagate: 2 per nogood, valid in the
  /// epoch team_watch_epoch names); empty without learning or without watches (pool_capacity 0).
  Kokkos::View<std::int32_t**, Kokkos::LayoutRight, MemorySpace> nogood_watches;
  /// Each team's workspace of the event-driven fixpoint (QueueWork), zeroed; empty when unused.
  Kokkos::View<std::int32_t**, Kokkos::LayoutRight, MemorySpace> work;
  Kokkos::View<std::int64_t*, MemorySpace> control;
  Kokkos::View<int, typename StopFlagSpace<MemorySpace>::type> stop;  ///< 1: end the launch now
  /// The best solution the host has seen ([variable]; [variables] = 1 once it holds one), written by
  /// the host between launches: the neighbourhoods of large-neighbourhood search are built from it.
  Kokkos::View<std::int32_t*, MemorySpace> incumbent;
  /// The nogoods the teams learned in this launch (search/learning.hpp's log); empty without learning.
  Kokkos::View<std::int32_t*, MemorySpace> learned;
  /// The chunks of subproblems this process holds, in the order it got them: counter value i is
  /// subproblem chunks(i >> chunk_log) + (i & (2^chunk_log - 1)) (ParallelSearch::chunk_log). One
  /// process holds one chunk, 0, of all 2^p; a distributed search's chunks come from a counter all
  /// processes share (search/peers.hpp).
  Kokkos::View<std::int64_t*, MemorySpace> chunks;
#ifdef KCP_CHECK_INVARIANTS
  /// Per team, a copy of the store for check_invariants' serial fixpoint (2 n bounds; the words).
  Kokkos::View<std::int32_t**, Kokkos::LayoutRight, MemorySpace> check_bounds;
  Kokkos::View<DomainWord**, Kokkos::LayoutRight, MemorySpace> check_bits;
  /// A hash of the store of each node above the subproblem depth (heap order), 0 while unseen.
  Kokkos::View<std::uint64_t*, MemorySpace> check_tree;
#endif

  SearchState() = default;
  SearchState(int num_teams, int num_vars, int stack_capacity, int store_slots = 0, std::size_t work_ints = 0,
              int domain_words = 0, std::size_t learned_ints = 0, bool pool = false, int pool_capacity = 0)
      : teams(num_teams),
        capacity(stack_capacity),
        slots(store_slots),
        decisions(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kcp::search::decisions"), num_teams,
                  stack_capacity),
        team("kcp::search::team", num_teams, team_slot_count),
        solution(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kcp::search::solution"), num_teams, num_vars),
        snapshot(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kcp::search::snapshot"),
                 store_slots > 0 ? num_teams : 0, std::size_t(store_slots) * 2 * num_vars),
        snapshot_bits(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kcp::search::snapshot_bits"),
                      store_slots > 0 && domain_words > 0 ? num_teams : 0, std::size_t(store_slots) * domain_words),
        snapshot_pool(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kcp::search::snapshot_pool"),
                      pool ? num_teams : 0, store_slots),
        // Unset by each row before its first use (team_watch_epoch 0).
        nogood_watches(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kcp::search::nogood_watches"),
                       pool_capacity > 0 ? num_teams : 0, 2 * std::size_t(pool_capacity > 0 ? pool_capacity : 0)),
        work("kcp::search::work", work_ints > 0 ? num_teams : 0, work_ints),
        control("kcp::search::control", ctl_count),
        stop("kcp::search::stop"),
        incumbent("kcp::search::incumbent", std::size_t(num_vars) + 1),
        learned(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kcp::search::learned"), learned_ints) {
    auto h = Kokkos::create_mirror_view(team);
    for (int t = 0; t < num_teams; ++t) {
      for (int k = 0; k < team_slot_count; ++k) h(t, k) = 0;
      h(t, team_subproblem) = -1;
      h(t, team_last_subproblem) = -1;
    }
    Kokkos::deep_copy(team, h);
    auto c = Kokkos::create_mirror_view(control);
    for (int k = 0; k < ctl_count; ++k) c(k) = 0;
    c(ctl_best) = INT64_MAX;
    Kokkos::deep_copy(control, c);
#ifdef KCP_CHECK_INVARIANTS
    check_bounds = decltype(check_bounds)("kcp::search::check_bounds", num_teams, 2 * std::size_t(num_vars));
    check_bits = decltype(check_bits)("kcp::search::check_bits", num_teams, std::size_t(domain_words > 0 ? domain_words : 1));
#endif
  }
};

}  // namespace kcp
