// The search kernel: embarrassingly parallel search over subproblems, depth-first search by
// recomputation inside each, branch and bound through a shared best objective.
//
// Subproblems. The root is split into 2^p subproblems; subproblem i is named by its bit path: at
// depth d < p the dive takes the right half when bit p-1-d of i is set. Subproblems need no storage
// and partition the tree. A team takes the next index from one global counter (one atomic per team,
// by one thread). When the dive of i fails at depth d < p, every subproblem sharing i's first d bits
// is empty: the team moves the counter past them (an atomic max) and they count as skipped. When the
// dive reaches a node where every variable is fixed at depth d < p, the subtree holds one leaf, owned
// by the subproblem whose remaining bits are zero; the others are empty and skipped the same way.
//
// The dive of the next subproblem a team takes starts below the longest prefix of its path that the
// team's last subproblem shared (those decisions are still on its stack): teams take subproblems in
// increasing order, so a dive costs about log2(teams) nodes instead of p; or below the root of its
// block of consecutive subproblems when another team published that node's store (search/modes.hpp's
// DiveCache: teams publish blocks ahead of the counter, and where thousands of teams take scattered
// chunks a dive is otherwise nearly all of p).
//
// The end game (search/modes.hpp's SplitPool, when on): once the counter is empty, a team without a
// subproblem takes a piece of another team's from a pool, or leaves the launch to try again in the
// next while some team still holds work; a team holding work gives its shallowest open branch to the
// pool while teams wait (its decisions down to there, the right branch taken: the taker's prefix).
//
// Inside a subproblem, depth-first search by hybrid recomputation: going down, a decision narrows the
// store in team scratch and the fixpoint runs on it, and every `copy_distance` levels from the
// subproblem's root down the node's store (after its fixpoint) is copied to the team's next slot in
// global memory (SearchState::snapshot; as many slots as fit in the memory the host grants). After a
// failure or a solution, the next node is recomputed from the deepest copy above it by replaying the
// decisions below that copy, and its event-driven fixpoint starts from those decisions' events only:
// with copy_distance 1, one decision and the propagation it causes, whatever the depth. (Replaying
// every decision from the subproblem's root re-derived the whole path's propagation at every node:
// 9x the propagator runs per node of a one-team search on rcpsp, perf/NOTES.md entry 13.) Slots
// 0 .. k - 1 are valid (team_snapshot = k); changing decision i (backtracking to its right branch, or
// a split that replaces it) drops the copies of the nodes below it. A copy is made only after a
// complete fixpoint, so a restored store is a fixpoint plus the replayed decisions' events.
// A split on the same variable as the top of the stack, when the top is a split whose left half is
// exhausted, replaces it (its node's bounds imply the top's right half, and the copy above it plus
// the new split reach the same fixpoint), which keeps stacks short under indomain_min/max; a value
// decision (x = v | x != v) never replaces one, nor is replaced, since x != v is not an interval.
// The store is the bounds and the bitset words (domains/store.hpp), restored and saved together.
//
// Branch and bound: before every node the objective's upper bound is set below the best objective
// any team has found (read atomically from the shared control word); a new solution lowers it with
// an atomic min.
//
// Slices: a launch runs every team for at most node_budget nodes; a team also stops when it finds a
// solution (its slot must be read by the host first) or when no subproblem is left. The state lives
// in SearchState between launches.
//
// Levels: one team per subproblem worker (CUDA: a block; OpenMP: a thread). The control logic runs in
// Kokkos::single(PerTeam) and is published through team scratch behind a team_barrier; store copies
// are TeamThreadRange; branching is a TeamThreadRange reduction; the fixpoint is the event-driven queue_fixpoint or
// AC1's team_fixpoint (domains/fixpoint.hpp; SearchReport::queue_fixpoint says which).
#pragma once

#include "domains/fixpoint.hpp"
#include "domains/program.hpp"
#include "search/branching.hpp"
#include "search/learning.hpp"
#include "search/modes.hpp"
#include "search/search_state.hpp"

#include <Kokkos_Core.hpp>

namespace kcp {

/// Holes: whether the program has bitsets (domains/store.hpp); without, the kernel is compiled with no
/// bitset path at all (it cost a quarter of the nodes/s on the GPU through register spills).
template <class ExecSpace, bool Concurrent, bool Holes>
struct ParallelSearch {
  using MemorySpace = typename ExecSpace::memory_space;
  using TeamMember = typename Kokkos::TeamPolicy<ExecSpace>::member_type;

  DeviceProgram<MemorySpace> program;
  SearchPhases<MemorySpace> phases;
  /// Free search's phases (one, over every variable): free rows' runs alternate between them and
  /// `phases` (search/modes.hpp); they share `phases`' failure weights.
  SearchPhases<MemorySpace> free_phases;
  SearchState<MemorySpace> state;
  int objective = -1;              ///< store variable minimised, or -1
  int path_length = 0;             ///< p: 2^p subproblems
  int chunk_log = 0;               ///< subproblems come in chunks of 2^chunk_log (SearchState::chunks)
  /// Complete rows take runs of up to this many consecutive subproblems (search/modes.hpp's
  /// take_subproblem); 1: one at a time.
  int run_cap = 1;
  bool halve_path = false;         ///< SearchOptions::halve_path
  std::int64_t node_budget = 1;    ///< nodes per team per launch
  int scratch_level = 0;
  FixpointOptions fixpoint;
  /// The event-driven fixpoint (queue_fixpoint) with state.work as each team's workspace; else AC1.
  bool queue = false;
  /// Whether program's root store is a fixpoint (then a restore from it starts from its events only).
  bool root_fixpoint = false;
  /// Levels between two copies of the store on the way down (>= 1; see above), into state.slots
  /// slots per team; a distance beyond the stack's capacity keeps only the subproblem's root.
  int copy_distance = 1;
  /// Rows of the state (search/modes.hpp): rows below complete_rows search the subproblems, the others
  /// are free (restarts and LNS, free_runs). A launch runs rows first_row .. first_row + league - 1
  /// (one team of the Serial backend alternates between a complete row and a free one).
  int complete_rows = 1 << 30;
  int first_row = 0;
  FreeRuns<MemorySpace> free_runs;
  /// End-game splitting of the complete rows' subproblems (search/modes.hpp); empty: off.
  SplitPool<MemorySpace> split;
  /// The stores of the dive's nodes at the roots of blocks of subproblems (search/modes.hpp); empty: off.
  DiveCache<MemorySpace> dive;
  /// Learned nogoods (search/learning.hpp): the pool every team propagates (rebuilt by the host
  /// between launches), what free runs learn (none, restarts from the root, every run), and the
  /// longest nogood logged.
  NogoodPool<MemorySpace> pool;
  LearnMode learn = LearnMode::none;
  int max_nogood_length = 0;

  /// The copy slot of the node at `depth` below a prefix of `prefix` decisions (-1: no copy there).
  KOKKOS_INLINE_FUNCTION int slot_at(int depth, int prefix) const {
    const int below = depth - prefix;
    if (below < 0 || below % copy_distance != 0 || below / copy_distance >= state.slots) return -1;
    return below / copy_distance;
  }
  /// Decision i (>= prefix) changed: the copies of the nodes below it no longer hold.
  KOKKOS_INLINE_FUNCTION void drop_copies_below(std::int64_t& saved, int i, int prefix) const {
    const std::int64_t keep = (i - prefix) / copy_distance + 1;
    if (saved > keep) saved = keep;
  }

  static constexpr int shared_ints = 5;
  /// Team scratch: the bitset words, lb, ub, the fixpoint flags and the shared control words; a
  /// multiple of 16 bytes, since level-1 scratch lays the teams' shares end to end and each begins
  /// with 8-byte words (an odd count of ints misaligned every other team's: CUDA's misaligned address
  /// at scratch level 1).
  static std::size_t scratch_bytes(int num_vars, int domain_words) {
    const std::size_t bytes = sizeof(DomainWord) * domain_words + 2 * sizeof(std::int32_t) * num_vars +
                              sizeof(int) * (fixpoint_flag_count + shared_ints) + 64;
    return (bytes + 15) / 16 * 16;
  }

  using Store = StoreRef<Concurrent, Holes>;

  /// Team-wide moves of the store in scratch (bounds, then bitset words): from row t's copy slot, from
  /// the program's root, to row t's copy slot. The caller puts a barrier after them.
  KOKKOS_INLINE_FUNCTION void load_copy(const TeamMember& team, int t, int slot, std::int32_t* lb, std::int32_t* ub,
                                        DomainWord* bits) const {
    const int n = program.num_vars, words = Holes ? program.domain_words() : 0;
    load_store(team, copy_bounds(t, slot), copy_bits(t, slot), n, words, lb, ub, bits);
  }
  KOKKOS_INLINE_FUNCTION void load_root(const TeamMember& team, std::int32_t* lb, std::int32_t* ub,
                                        DomainWord* bits) const {
    const int n = program.num_vars, words = Holes ? program.domain_words() : 0;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int x) {
      lb[x] = program.root_lb(x);
      ub[x] = program.root_ub(x);
    });
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, words), [&](const int w) { bits[w] = program.root_bits(w); });
  }
  KOKKOS_INLINE_FUNCTION void save_copy(const TeamMember& team, int t, int slot, const std::int32_t* lb,
                                        const std::int32_t* ub, const DomainWord* bits) const {
    const int n = program.num_vars, words = Holes ? program.domain_words() : 0;
    save_store(team, copy_bounds(t, slot), copy_bits(t, slot), n, words, lb, ub, bits);
  }
  /// Row t's copy slot `slot` (SearchState::snapshot, snapshot_bits).
  KOKKOS_INLINE_FUNCTION std::int32_t* copy_bounds(int t, int slot) const {
    return state.snapshot.data() + std::size_t(t) * state.snapshot.stride(0) + std::size_t(slot) * 2 * program.num_vars;
  }
  KOKKOS_INLINE_FUNCTION DomainWord* copy_bits(int t, int slot) const {
    const std::size_t words = Holes ? program.domain_words() : 0;
    return state.snapshot_bits.data() + std::size_t(t) * state.snapshot_bits.stride(0) + std::size_t(slot) * words;
  }

  KOKKOS_INLINE_FUNCTION static void apply(const Decision& d, bool right, const Store& s, int& st) {
    const bool second = (right != 0) != (d.reversed != 0);
    if (d.kind == decide_value) {
      st |= second ? s.remove(d.var, d.v) : s.narrow_to(d.var, d.v, d.v);
      return;
    }
    const bool upper_half = second;
    if (upper_half) {
      st |= s.narrow_min(d.var, std::int64_t(d.v) + 1);
      st |= s.narrow_max(d.var, d.hi);
    } else {
      st |= s.narrow_min(d.var, d.lo);
      st |= s.narrow_max(d.var, d.v);
    }
  }

#ifdef KCP_CHECK_INVARIANTS
  /// A checking build (CMake KCP_CHECK_INVARIANTS): after a complete fixpoint that did not fail, one
  /// thread checks what the search relies on and counts violations in state.control (ctl_check_*):
  /// the event workspace is clean, the store is normalised, a serial fixpoint on a copy narrows
  /// nothing more, and above the subproblem depth the node's store is the one other teams have there
  /// (a hash per node). It found the CUDA queue fixpoint's incomplete nodes (perf/NOTES.md, entry 16),
  /// and its own serial fixpoint disagreeing with itself (entry 44): both were ptxas at -O2/-O3 (entry
  /// 45; kcp's device code compiles at KCP_CUDA_PTXAS_LEVEL, default 1).
  KOKKOS_FUNCTION void check_invariants(const TeamMember& team, const Store& s, const QueueWork& qw, int depth,
                                        bool restored, bool use_pool) const {
    team.team_barrier();
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      const int t = first_row + team.league_rank();
      const int n = program.num_vars;
      Kokkos::atomic_add(&state.control(ctl_check_nodes), std::int64_t(1));
      if (queue) {
        bool leak = qw.counters()[3] != 0 || qw.counters()[4] != 0;
        for (int x = 0; x < n; ++x) leak = leak || qw.touched_flag()[x] != 0;
        for (int p = 0; p < qw.num_props; ++p) leak = leak || qw.queued()[p] != 0;
        if (leak) Kokkos::atomic_add(&state.control(ctl_check_leaks), std::int64_t(1));
      }
      bool unnormalised = false;
      for (int x = 0; x < n; ++x)
        unnormalised = unnormalised || s.lb[x] > s.ub[x] ||
                       (s.has_bits(x) && (!s.contains(x, s.lb[x]) || !s.contains(x, s.ub[x])));
      if (unnormalised) Kokkos::atomic_add(&state.control(ctl_check_unnormalised), std::int64_t(1));
      std::int32_t* clb = &state.check_bounds(t, 0);
      std::int32_t* cub = clb + n;
      DomainWord* cbits = &state.check_bits(t, 0);
      const int words = Holes ? program.domain_words() : 0;
      for (int x = 0; x < n; ++x) {
        clb[x] = s.lb[x];
        cub[x] = s.ub[x];
      }
      for (int w = 0; w < words; ++w) cbits[w] = s.bits[w];
      const auto c = program.template store<false, Holes>(clb, cub, cbits);
      const FixpointResult r = serial_fixpoint(program, c, 0, use_pool ? &pool : nullptr);
      int changed = -1;
      for (int x = 0; x < n && changed < 0; ++x)
        if (clb[x] != s.lb[x] || cub[x] != s.ub[x] || (s.has_bits(x) && s.domain_size(x) != c.domain_size(x)))
          changed = x;
      if (r.failed || changed >= 0) {
        if (Kokkos::atomic_fetch_add(&state.control(ctl_check_incomplete), std::int64_t(1)) == 0) {
          const int x = changed >= 0 ? changed : 0;
          state.control(ctl_check_first) = depth;
          state.control(ctl_check_first + 1) = r.failed ? -1 - x : x;
          state.control(ctl_check_first + 2) = s.lb[x];
          state.control(ctl_check_first + 3) = s.ub[x];
          state.control(ctl_check_first + 4) = clb[x];
          state.control(ctl_check_first + 5) = cub[x];
        }
        if (restored) Kokkos::atomic_add(&state.control(ctl_check_incomplete_restored), std::int64_t(1));
      }
      if (t < complete_rows && depth < path_length && state.check_tree.extent(0) > 0) {
        std::uint64_t h = 1469598103934665603ULL;
        auto mixin = [&](std::uint64_t v) { h = (h ^ v) * 1099511628211ULL; };
        for (int x = 0; x < n; ++x) {
          mixin(std::uint32_t(s.lb[x]));
          mixin(std::uint32_t(s.ub[x]));
          if (s.has_bits(x)) mixin(std::uint64_t(s.domain_size(x)));
        }
        if (h == 0) h = 1;
        const std::int64_t index = state.team(t, team_subproblem);
        const std::size_t at = (std::size_t(1) << depth) - 1 + std::size_t(index >> (path_length - depth));
        const std::uint64_t old = Kokkos::atomic_compare_exchange(&state.check_tree(at), std::uint64_t(0), h);
        if (old != 0 && old != h) Kokkos::atomic_add(&state.control(ctl_check_tree), std::int64_t(1));
      }
    });
    team.team_barrier();
  }
#endif

  KOKKOS_INLINE_FUNCTION void operator()(const TeamMember& team) const {
    const int t = first_row + team.league_rank();
    const bool complete = t < complete_rows;
    const int n = program.num_vars;
    auto& scratch = team.team_scratch(scratch_level);
    const int words = Holes ? program.domain_words() : 0;
    DomainWord* bits = static_cast<DomainWord*>(scratch.get_shmem(sizeof(DomainWord) * words));
    std::int32_t* lb = static_cast<std::int32_t*>(scratch.get_shmem(sizeof(std::int32_t) * n));
    std::int32_t* ub = static_cast<std::int32_t*>(scratch.get_shmem(sizeof(std::int32_t) * n));
    int* flags = static_cast<int*>(scratch.get_shmem(sizeof(int) * (fixpoint_flag_count + shared_ints)));
    auto ts = Kokkos::subview(state.team, t, Kokkos::ALL());
    if (flags == nullptr) {  // the launch asked for less scratch than this needs: report, do not corrupt
      Kokkos::single(Kokkos::PerTeam(team), [&]() { state.control(ctl_error) = 1; });
      return;
    }
    // One thread reads whether the team is done and tells the others: a thread that read it on its
    // own could start late, after a faster one had found no subproblem left and marked the team idle,
    // and return while the faster one waited for it at a barrier (a hang with --team-size 2 on OpenMP).
    int done = 0;
    Kokkos::single(
        Kokkos::PerTeam(team), [&](int& d) { d = (ts(team_idle) || ts(team_has_solution)) ? 1 : 0; }, done);
    if (done) return;
    // [0]: node failed; [1]: what next; [2]: out of work; [3]: the split pool's slot of a piece taken;
    // [4]: the dive cache's block a new subproblem's dive starts from (-1: none)
    int* shared = flags + fixpoint_flag_count;
    // The row's watched literals of the pool's nogoods (NogoodPool::propagate), unset when the pool's
    // epoch is not the one they were set in (the host deleted nogoods since: ids moved).
    std::int32_t* const watches = state.nogood_watches.extent(0) > 0 ? &state.nogood_watches(t, 0) : nullptr;
    if (watches != nullptr) {
      int stale = 0;
      Kokkos::single(
          Kokkos::PerTeam(team), [&](int& v) { v = ts(team_watch_epoch) != pool.epoch + 1 ? 1 : 0; }, stale);
      if (stale) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 2 * pool.capacity), [&](const int i) { watches[i] = -1; });
        team.team_barrier();
        Kokkos::single(Kokkos::PerTeam(team), [&]() { ts(team_watch_epoch) = pool.epoch + 1; });
      }
    }
    const Store s = program.template store<Concurrent, Holes>(lb, ub, bits);
    // The event-driven fixpoint's workspace; narrowing between fixpoints goes through `es`, which
    // records the changes as the next fixpoint's events.
    const QueueWork qw{queue ? &state.work(t, 0) : nullptr, program.num_propagators() + pool.capacity, n};
    const Store es = queue ? pending_events(s, qw) : s;
    const auto row_decisions = Kokkos::subview(state.decisions, t, Kokkos::ALL());
    // Free rows with an incumbent take its values first where they can (solution phase saving); the
    // host publishes the incumbent between launches only.
    const std::int32_t* const guide = complete ? nullptr : free_runs.guide(state, n);

    bool last_capped = false;
    // How many of the pool's nogoods the store is a fixpoint of (plus the events since): the next
    // fixpoint that uses the pool runs the others once.
    int pool_applied = 0;
    for (std::int64_t visited = 0; visited < node_budget; ++visited) {
      // Take a subproblem when none is in hand.
      Kokkos::single(Kokkos::PerTeam(team), [&]() {
        shared[0] = 0;
        shared[2] = 0;
        shared[3] = -1;
        shared[4] = -1;
        // The host's watchdog raises the stop flag at the time limit or on a signal, while the launch
        // runs: end it at this node boundary, with the state as the last node left it.
        // A free row ends with the complete search: it alone decides when the search is over (a
        // state without complete rows, the host's beside a GPU, is stopped by the host).
        if (*static_cast<volatile const int*>(state.stop.data()) != 0 ||
            (!complete && complete_rows > 0 &&
             Kokkos::atomic_fetch_add(&state.control(ctl_complete_idle), std::int64_t(0)) >= complete_rows)) {
          shared[2] = 1;
        } else if (ts(team_subproblem) < 0) {
          if (!complete) {
            free_runs.start(state, t, ts, row_decisions, n);
          } else if (take_subproblem(state, ts, path_length, chunk_log, run_cap, complete_rows)) {
            // A prefetch first, or its block's root when published (search/modes.hpp's DiveCache).
            if (dive.enabled()) shared[4] = static_cast<int>(dive.enter(state, ts, path_length, chunk_log, true));
            if (split.enabled()) {
              split.stop_waiting(state, ts);
              split.hold(state, true);
            }
          } else if (split.enabled()) {
            shared[3] = split.take(state, ts);
            if (shared[3] < 0) shared[2] = 1;
          } else {
            mark_idle(state, ts);
            shared[2] = 1;
          }
        } else if (complete && ts(team_dive_enter)) {
          // Back from a prefetch: its own subproblem's block root, when published.
          ts(team_dive_enter) = 0;
          shared[4] = static_cast<int>(dive.enter(state, ts, path_length, chunk_log, false));
        } else if (complete && split.enabled()) {
          split.give(state, ts, row_decisions, static_cast<int>(ts(team_prefix)));
        }
      });
      team.team_barrier();
      if (shared[2]) return;
      // A piece of another row's subproblem (SplitPool): its decisions become the row's prefix.
      if (shared[3] >= 0) split.copy(team, shared[3], row_decisions, static_cast<int>(ts(team_depth)));
      // The row's never-undone prefix: the subproblem's path, or the free run's fixings.
      const int prefix = static_cast<int>(ts(team_prefix));
      // Diving to a block's root for the other rows (search/modes.hpp's DiveCache), not in its own subproblem.
      const bool prefetching = complete && ts(team_dive_prefetch) != 0;

      // The node's store: recomputed from the root, or the current one after a decision. A launch
      // starts with a recomputation: team scratch does not outlive the launch.
      const bool restore = visited == 0 || ts(team_restore) != 0;
      // Whether the event-driven fixpoint must run every propagator: the store is not known to be a
      // fixpoint plus recorded events (the last node's fixpoint was capped, or the root is none).
      bool full = last_capped;
      int replay_from = 0;
      if (restore) {
        // From the deepest copy above the node (the decisions below it are replayed; the node's
        // last decision is at depth - 1), else from the root (all of them).
        const int depth = static_cast<int>(ts(team_depth));
        const int saved = static_cast<int>(ts(team_snapshot));
        int slot = -1;
        if (saved > 0 && depth - 1 >= prefix) {
          slot = (depth - 1 - prefix) / copy_distance;
          if (slot > saved - 1) slot = saved - 1;
        }
        // A block's root from the dive cache is a complete fixpoint with nothing to replay.
        const bool from_dive = shared[4] >= 0;
        const bool from_snapshot = !from_dive && slot >= 0;
        full = !from_dive && !from_snapshot && !root_fixpoint;
        replay_from = from_dive ? depth : from_snapshot ? prefix + slot * copy_distance : 0;
        pool_applied = from_snapshot && pool.count > 0 ? pool.applied(state.snapshot_pool(t, slot)) : 0;
        if (from_dive) {
          dive.load(team, shared[4], row_decisions, n, words, lb, ub, bits);
        } else if (from_snapshot) {
          load_copy(team, t, slot, lb, ub, bits);
        } else {
          load_root(team, lb, ub, bits);
        }
        team.team_barrier();
        // Narrowing commutes, so the threads replay the decisions in any order (atomically when the
        // store is shared); a wipe-out missed by two racing narrowings is caught by the fixpoint's
        // final sweep.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, replay_from, static_cast<int>(ts(team_depth))), [&](const int d) {
          Kokkos::single(Kokkos::PerThread(team), [&]() {
            int st = 0;
            apply(state.decisions(t, d), state.decisions(t, d).right, es, st);
            if (st & prop_failed) shared[0] = 1;
          });
        });
        team.team_barrier();
      }
      Kokkos::single(Kokkos::PerTeam(team), [&]() {
        int st = shared[0] ? prop_failed : 0;
        if (restore) {
          ts(team_restore) = 0;
          ts(team_restores) += 1;
          ts(team_replayed) += ts(team_depth) - replay_from;
        }
        // The bound applies from the subproblems' roots down: the dive above them must see the same
        // tree in every team at every time, or the bit paths would not partition it. Free rows
        // share no tree: everywhere.
        if (objective >= 0 && (!complete || ts(team_depth) >= prefix)) {
          // An atomic read: another team may have lowered the best objective since the last node.
          const std::int64_t best = Kokkos::atomic_fetch_min(&state.control(ctl_best), INT64_MAX);
          if (best != INT64_MAX) st |= es.narrow_max(objective, best - 1);
        }
        shared[0] = (st & prop_failed) ? 1 : 0;
      });
      team.team_barrier();
      bool failed = shared[0] != 0;
      int iterations = 0;
      std::int64_t propagations = 0;
      bool capped = false;
      // The nogoods apply where the bound does.
      const bool use_pool = pool.count > 0 && (!complete || ts(team_depth) >= prefix);
      const NogoodPool<MemorySpace>* const nogoods = use_pool ? &pool : nullptr;
      if (!failed) {
        const FixpointResult fp = queue ? queue_fixpoint(team, program, s, qw, fixpoint, full, nogoods, pool_applied, watches)
                                        : team_fixpoint(team, program, s, flags, fixpoint, nogoods, watches);
        failed = fp.failed;
        iterations = fp.iterations;
        propagations = fp.propagations;
        capped = fp.capped;
      }
      last_capped = capped;
      pool_applied = use_pool ? pool.count : 0;
      const int node_depth = static_cast<int>(ts(team_depth));
#ifdef KCP_CHECK_INVARIANTS
      if (!failed && !capped) check_invariants(team, s, qw, node_depth, restore, use_pool);
#endif
      // A dive at a block's root that no other row claimed: publish it (search/modes.hpp's DiveCache;
      // a prefetch claimed it before it began).
      bool published_here = false;
      if (complete && node_depth == dive.depth && node_depth < prefix && !failed && !capped && dive.enabled()) {
        int claimed = 0;
        Kokkos::single(
            Kokkos::PerTeam(team),
            [&](int& c) { c = prefetching || dive.claim(dive.block(ts(team_subproblem))) ? 1 : 0; }, claimed);
        if (claimed) dive.publish(team, dive.block(ts(team_subproblem)), row_decisions, n, words, lb, ub, bits);
        published_here = claimed != 0;
      }
      // A copy level: save the store in the next slot. The bound in it may be weaker than a later
      // one, which the node after a restore applies again: the copy stays a sound starting point.
      const int slot = failed || capped ? -1 : slot_at(node_depth, prefix);
      if (slot >= 0 && slot == ts(team_snapshot)) {
        save_copy(team, t, slot, lb, ub, bits);
        team.team_barrier();
        Kokkos::single(Kokkos::PerTeam(team), [&]() {
          ts(team_snapshot) = slot + 1;
          if (state.snapshot_pool.extent(0) > 0) state.snapshot_pool(t, slot) = pool.mark(pool_applied);
        });
      }
      // Random value choices depend on the node's store only (search/branching.hpp), so the dive
      // above the subproblems is the same tree in every team.
      // Free rows break ties from their run's rotation; failure weights count where the tree is the row's own.
      Branch b = failed ? Branch{}
                        : select_branch(team, !complete && ts(team_free_heuristic) ? free_phases : phases, s,
                                        complete ? 0 : std::uint64_t(ts(team_salt)),
                                        !complete || static_cast<int>(ts(team_depth)) >= prefix,
                                        guide);
      if (capped && b.var < 0) {
        // Every variable is fixed but the capped fixpoint did not finish: only a complete one proves
        // a solution. With every variable fixed nothing can narrow, so it ends at once.
        FixpointOptions complete = fixpoint;
        complete.max_iterations = 0;
        const FixpointResult fp = queue ? queue_fixpoint(team, program, s, qw, complete, true, nogoods, 0, watches)
                                        : team_fixpoint(team, program, s, flags, complete, nogoods, watches);
        failed = fp.failed;
        iterations += fp.iterations;
        propagations += fp.propagations;
        last_capped = false;
      }

      // A leaf above the subproblem depth belongs to the subproblem whose remaining bits are 0.
      const std::int64_t index = ts(team_subproblem);
      const bool solution = !failed && b.var < 0 && !prefetching &&
                            (!complete || node_depth >= prefix ||
                             (index & ((std::int64_t(1) << (path_length - node_depth)) - 1)) == 0);
      if (solution) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int x) { state.solution(t, x) = lb[x]; });
        team.team_barrier();
      }

      // 0: go on; 1: a solution is in the slot, end the launch for this team.
      Kokkos::single(Kokkos::PerTeam(team), [&]() {
        ts(team_nodes) += 1;
        if (complete && node_depth < path_length) ts(team_path_nodes) += 1;
        ts(team_fixpoint_iterations) += iterations;
        ts(team_propagations) += propagations;
        int depth = node_depth;
        int next = 0;
        if (prefetching && (failed || b.var < 0 || node_depth >= dive.depth)) {
          // The prefetch ends: back to the row's own subproblem (the depth its dive starts from).
          if (failed) ts(team_failures) += 1;
          dive.come_back(ts, node_depth, published_here, path_length);
          depth = static_cast<int>(ts(team_depth));
        } else if (!failed && b.var >= 0) {
          // On a subproblem's path (free rows start below their prefix) the branch may be halved.
          Decision dec = decision_of(depth < prefix && halve_path ? halve(s, b) : b);
          if (depth < prefix) {
            dec.right = static_cast<std::int8_t>((index >> (path_length - 1 - depth)) & 1);
          } else if (depth > prefix && b.kind == decide_split && state.decisions(t, depth - 1).right &&
                     state.decisions(t, depth - 1).var == b.var && state.decisions(t, depth - 1).kind == decide_split) {
            // The new split takes the exhausted one's place: its [lo, hi] implies the old right half.
            // Not for value decisions: x != v is no interval, and would be lost.
            --depth;
            drop_copies_below(ts(team_snapshot), depth, prefix);
          }
          if (depth >= state.capacity) {
            state.control(ctl_error) = 2;
            ts(team_idle) = 1;
            next = 1;
          } else {
            state.decisions(t, depth) = dec;
            ++depth;
            if (depth > ts(team_peak_depth)) ts(team_peak_depth) = depth;
            int st = 0;
            apply(dec, dec.right, es, st);
          }
        } else {
          if (failed) {
            ts(team_failures) += 1;
            ts(team_run_failures) += 1;
            // dom/wdeg: the failure counts against the variable the node's last decision branched on.
            if (depth > 0 && phases.weights.extent(0) > 0) {
              std::int32_t& w = phases.weights(state.decisions(t, depth - 1).var);
              if (w < (1 << 30)) Kokkos::atomic_add(&w, std::int32_t(1));  // a racy cap, far from overflow
            }
          }
          if (solution) {
            ts(team_has_solution) = 1;
            ts(team_solution_subproblem) = index;
            if (objective >= 0) Kokkos::atomic_fetch_min(&state.control(ctl_best), std::int64_t(lb[objective]));
            next = 1;
          }
          if (complete && depth < prefix)
            skip_subtree(state, ts, index, ts(team_local_subproblem), depth, path_length, chunk_log);
          // A free run that spent its failures ends here.
          const bool spent = !complete && free_runs.spent(ts);
          // Backtrack below the prefix (the subproblem's path, the run's fixings, a piece's decisions),
          // never into it, and past decisions whose right branch went to another row.
          while (depth > prefix && (state.decisions(t, depth - 1).right || state.decisions(t, depth - 1).donated)) --depth;
          if (depth <= prefix || spent) {
            if (complete) {
              ts(team_last_subproblem) = index;
              ts(team_last_path) = depth;
              ts(team_subproblem) = -1;
              // A piece (its prefix is below the path) is part of a subproblem its giver counts.
              if (prefix <= path_length) ts(team_solved) += 1;
              if (split.enabled()) split.hold(state, false);
            } else {
              // What the run leaves (search/learning.hpp): searched to the end, its fixings (the
              // empty nogood from the root); else the nld-nogoods of its branch, whose deepest
              // decision on its first branch has just had that branch refuted.
              const bool exhausted = depth <= prefix;
              if (learn == LearnMode::all || (learn == LearnMode::restart && prefix == 0)) {
                const std::int64_t bound =
                    objective >= 0 ? Kokkos::atomic_fetch_min(&state.control(ctl_best), INT64_MAX) : INT64_MAX;
                if (exhausted) {
                  log_exhausted(state, row_decisions, prefix, max_nogood_length, bound);
                } else {
                  log_restart_nogoods(state, row_decisions, depth, depth - 1, max_nogood_length, bound);
                }
              }
              free_runs.end(ts, !spent || exhausted);
            }
            depth = 0;
          } else {
            state.decisions(t, depth - 1).right = 1;
            drop_copies_below(ts(team_snapshot), depth - 1, prefix);
            ts(team_restore) = 1;
          }
        }
        ts(team_depth) = depth;
        shared[1] = next;
      });
      team.team_barrier();
      if (shared[1] != 0) return;
    }
  }
};

}  // namespace kcp
