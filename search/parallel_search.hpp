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

#include <utility>
#ifdef KCP_PHASE_PROFILE
#include <chrono>
#endif

namespace kcp {

/// The kernel's phase clock (KCP_PHASE_PROFILE builds; search/search_state.hpp's KernelPhase): a team's
/// first thread adds the ticks since its last mark to the phase's slot. Without the option it is empty.
struct PhaseTimer {
#ifdef KCP_PHASE_PROFILE
  std::int64_t* ticks;
  std::int64_t last;
  static KOKKOS_INLINE_FUNCTION std::int64_t now() {
#if defined(__CUDA_ARCH__)
    return static_cast<std::int64_t>(clock64());
#else
    return static_cast<std::int64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
  }
  KOKKOS_INLINE_FUNCTION explicit PhaseTimer(std::int64_t* row_ticks) : ticks(row_ticks), last(now()) {}
  template <class Team>
  KOKKOS_INLINE_FUNCTION void mark(const Team& team, int phase) {
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      const std::int64_t t = now();
      ticks[phase] += t - last;
      last = t;
    });
  }
  /// A mark set by the team's first thread inside its own Kokkos::single (a phase's part).
  KOKKOS_INLINE_FUNCTION void lap(int phase) {
    const std::int64_t t = now();
    ticks[phase] += t - last;
    last = t;
  }
#else
  KOKKOS_INLINE_FUNCTION explicit PhaseTimer(std::int64_t*) {}
  template <class Team>
  KOKKOS_INLINE_FUNCTION void mark(const Team&, int) const {}
  KOKKOS_INLINE_FUNCTION void lap(int) const {}
#endif
};

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
  /// A team reads the stop flag (and a free row the complete rows' idle count) on a launch's first node
  /// and then every stop_poll nodes (SearchOptions::stop_poll).
  std::int64_t stop_poll = 1;
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

  /// What the threads of a team share about a node, in team scratch after the fixpoint's flags: written
  /// by one thread (Kokkos::single), read by all after a barrier.
  struct NodeShared {
    int failed;       ///< the node failed while its store was made (a replayed decision, the bound)
    int end_launch;   ///< the team ends the launch: a solution is in its slot, or an error
    int out_of_work;  ///< no work for the team in this launch (or the stop flag)
    int piece;        ///< the split pool's slot of a piece taken (-1: none)
    int dive_block;   ///< the dive cache's block a new subproblem's dive starts from (-1: none)
  };
  static constexpr int shared_ints = static_cast<int>(sizeof(NodeShared) / sizeof(int));
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

  using RowSlots = decltype(Kokkos::subview(std::declval<const decltype(SearchState<MemorySpace>::team)&>(), 0,
                                            Kokkos::ALL()));
  using RowDecisions = decltype(Kokkos::subview(std::declval<const decltype(SearchState<MemorySpace>::decisions)&>(),
                                                0, Kokkos::ALL()));

  /// A team's row through a launch: its state's slots and decisions, its store in team scratch (`s`; `es`
  /// narrows and records the changes as the next fixpoint's events), and what carries from node to node.
  struct Row {
    int t;
    bool complete;  ///< a complete row (the subproblems), else free (restarts and LNS)
    std::int32_t* lb;
    std::int32_t* ub;
    DomainWord* bits;
    int* flags;  ///< team_fixpoint's flags
    NodeShared* shared;
    RowSlots ts;
    RowDecisions decisions;
    /// The row's watched literals of the pool's nogoods (NogoodPool::propagate); null: none.
    std::int32_t* watches;
    Store s, es;
    QueueWork qw;
    /// Free rows with an incumbent take its values first where they can (solution phase saving); the
    /// host publishes the incumbent between launches only.
    const std::int32_t* guide;
    /// The last node's fixpoint was capped: the next one runs every propagator.
    bool last_capped;
    /// How many of the pool's nogoods the store is a fixpoint of (plus the events since): the next
    /// fixpoint that uses the pool runs the others once.
    int pool_applied;
  };

  /// One node: where it stands, what its fixpoint did, how it branches.
  struct Node {
    int prefix;        ///< the row's never-undone prefix: the subproblem's path, the free run's fixings
    bool prefetching;  ///< diving to a block's root for the other rows (DiveCache), not in its own subproblem
    bool restore;      ///< the store is recomputed from a copy, the dive cache or the root
    bool full;         ///< the event-driven fixpoint runs every propagator
    int replay_from;   ///< restore: the first decision replayed
    int depth;
    bool use_pool;     ///< the nogoods apply here (where the bound does)
    bool failed = false, capped = false;
    int iterations = 0;
    std::int64_t propagations = 0;
    bool published = false;  ///< this node's store was published to the dive cache
    Branch branch;
    bool solution = false;
  };

  /// The kernel: a team searches its row for up to node_budget nodes, as phases per node.
  KOKKOS_INLINE_FUNCTION void operator()(const TeamMember& team) const {
    auto& scratch = team.team_scratch(scratch_level);
    const int n = program.num_vars, words = Holes ? program.domain_words() : 0;
    DomainWord* bits = static_cast<DomainWord*>(scratch.get_shmem(sizeof(DomainWord) * words));
    std::int32_t* lb = static_cast<std::int32_t*>(scratch.get_shmem(sizeof(std::int32_t) * n));
    std::int32_t* ub = static_cast<std::int32_t*>(scratch.get_shmem(sizeof(std::int32_t) * n));
    int* flags = static_cast<int*>(scratch.get_shmem(sizeof(int) * (fixpoint_flag_count + shared_ints)));
    const int t = first_row + team.league_rank();
    if (flags == nullptr) {  // the launch asked for less scratch than this needs: report, do not corrupt
      Kokkos::single(Kokkos::PerTeam(team), [&]() { state.control(ctl_error) = 1; });
      return;
    }
    const Store s = program.template store<Concurrent, Holes>(lb, ub, bits);
    const QueueWork qw{queue ? &state.work(t, 0) : nullptr, program.num_propagators() + pool.capacity, n};
    const bool complete = t < complete_rows;
    Row row{t,
            complete,
            lb,
            ub,
            bits,
            flags,
            reinterpret_cast<NodeShared*>(flags + fixpoint_flag_count),
            Kokkos::subview(state.team, t, Kokkos::ALL()),
            Kokkos::subview(state.decisions, t, Kokkos::ALL()),
            state.nogood_watches.extent(0) > 0 ? &state.nogood_watches(t, 0) : nullptr,
            s,
            queue ? pending_events(s, qw) : s,
            qw,
            complete ? nullptr : free_runs.guide(state, n),
            false,
            0};
    if (!enter(team, row)) return;
#ifdef KCP_PHASE_PROFILE
    PhaseTimer timer{&state.team(t, team_phase_ticks)};
#else
    PhaseTimer timer{nullptr};
#endif
    for (std::int64_t visited = 0; visited < node_budget; ++visited) {
      const bool more = take_work(team, row, visited % stop_poll == 0, timer);
      timer.mark(team, phase_take_work);
      if (!more) return;
      Node node = begin_node(team, row, visited == 0);
      if (node.restore) restore(team, row, node);
      timer.mark(team, phase_restore);
      apply_bound(team, row, node);
      timer.mark(team, phase_bound);
      propagate(team, row, node);
      timer.mark(team, phase_propagate);
#ifdef KCP_CHECK_INVARIANTS
      if (!node.failed && !node.capped) check_invariants(team, s, qw, node.depth, node.restore, node.use_pool);
#endif
      publish_dive(team, row, node);
      save_snapshot(team, row, node);
      timer.mark(team, phase_save);
      branch(team, row, node);
      timer.mark(team, phase_branch);
      record_solution(team, row, node);
      const bool ends = next_node(team, row, node);
      timer.mark(team, phase_next);
      if (ends) return;
    }
  }

  // --- The kernel's phases ---

  /// Whether the team searches in this launch (not idle, no solution waiting in its slot); resets the
  /// row's watched literals when the pool's epoch is not the one they were set in (the host deleted
  /// nogoods since: ids moved).
  KOKKOS_INLINE_FUNCTION bool enter(const TeamMember& team, const Row& row) const {
    // One thread reads whether the team is done and tells the others: a thread that read it on its
    // own could start late, after a faster one had found no subproblem left and marked the team idle,
    // and return while the faster one waited for it at a barrier (a hang with --team-size 2 on OpenMP).
    const auto& ts = row.ts;
    int done = 0;
    Kokkos::single(
        Kokkos::PerTeam(team), [&](int& d) { d = (ts(team_idle) || ts(team_has_solution)) ? 1 : 0; }, done);
    if (done) return false;
    if (row.watches != nullptr) {
      int stale = 0;
      Kokkos::single(
          Kokkos::PerTeam(team), [&](int& v) { v = ts(team_watch_epoch) != pool.epoch + 1 ? 1 : 0; }, stale);
      if (stale) {
        std::int32_t* const watches = row.watches;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 2 * pool.capacity), [&](const int i) { watches[i] = -1; });
        team.team_barrier();
        Kokkos::single(Kokkos::PerTeam(team), [&]() { ts(team_watch_epoch) = pool.epoch + 1; });
      }
    }
    return true;
  }

  /// Take work when none is in hand: a subproblem (and where its dive starts), a free run, a piece of
  /// another row's subproblem; false when there is none (or the stop flag is up).
  KOKKOS_INLINE_FUNCTION bool take_work(const TeamMember& team, const Row& row, bool poll, PhaseTimer& timer) const {
    const auto& ts = row.ts;
    NodeShared& sh = *row.shared;
    const bool complete = row.complete;
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      sh.failed = 0;
      sh.out_of_work = 0;
      sh.piece = -1;
      sh.dive_block = -1;
      // The host's watchdog raises the stop flag at the time limit or on a signal, while the launch
      // runs: end it at this node boundary, with the state as the last node left it. On a GPU the flag
      // is host memory, each read a round trip over the bus that every team's reads queue for: it is
      // read every stop_poll nodes.
      // A free row ends with the complete search: it alone decides when the search is over (a
      // state without complete rows, the host's beside a GPU, is stopped by the host).
      const bool stop = poll && (*static_cast<volatile const int*>(state.stop.data()) != 0 ||
                                 (!complete && complete_rows > 0 &&
                                  Kokkos::atomic_fetch_add(&state.control(ctl_complete_idle), std::int64_t(0)) >=
                                      complete_rows));
      timer.lap(phase_take_stop);
      if (stop) {
        sh.out_of_work = 1;
      } else if (ts(team_subproblem) < 0) {
        if (!complete) {
          free_runs.start(state, row.t, ts, row.decisions, program.num_vars);
        } else if (take_subproblem(state, ts, path_length, chunk_log, run_cap, complete_rows)) {
          // A prefetch first, or its block's root when published (search/modes.hpp's DiveCache).
          if (dive.enabled()) sh.dive_block = static_cast<int>(dive.enter(state, ts, path_length, chunk_log, true));
          if (split.enabled()) {
            split.stop_waiting(state, ts);
            split.hold(state, true);
          }
        } else if (split.enabled()) {
          sh.piece = split.take(state, ts);
          if (sh.piece < 0) sh.out_of_work = 1;
        } else {
          mark_idle(state, ts);
          sh.out_of_work = 1;
        }
      } else if (complete && ts(team_dive_enter)) {
        // Back from a prefetch: its own subproblem's block root, when published.
        ts(team_dive_enter) = 0;
        sh.dive_block = static_cast<int>(dive.enter(state, ts, path_length, chunk_log, false));
      } else if (complete && split.enabled()) {
        split.give(state, ts, row.decisions, static_cast<int>(ts(team_prefix)));
      }
    });
    team.team_barrier();
    if (sh.out_of_work) return false;
    // A piece of another row's subproblem (SplitPool): its decisions become the row's prefix.
    if (sh.piece >= 0) split.copy(team, sh.piece, row.decisions, static_cast<int>(ts(team_depth)));
    return true;
  }

  /// The node's place: its prefix, whether it is a prefetch, whether its store is recomputed (a launch
  /// starts with a recomputation: team scratch does not outlive the launch) and how its fixpoint starts.
  KOKKOS_INLINE_FUNCTION Node begin_node(const TeamMember&, const Row& row, bool first) const {
    Node node;
    node.prefix = static_cast<int>(row.ts(team_prefix));
    node.prefetching = row.complete && row.ts(team_dive_prefetch) != 0;
    node.restore = first || row.ts(team_restore) != 0;
    // Whether the event-driven fixpoint must run every propagator: the store is not known to be a
    // fixpoint plus recorded events (the last node's fixpoint was capped, or the root is none).
    node.full = row.last_capped;
    node.replay_from = 0;
    return node;
  }

  /// Recompute the node's store: from the deepest copy above it (the decisions below it are replayed; the
  /// node's last decision is at depth - 1), from a block's root in the dive cache (a complete fixpoint,
  /// nothing to replay), else from the root (all of them).
  KOKKOS_INLINE_FUNCTION void restore(const TeamMember& team, Row& row, Node& node) const {
    const auto& ts = row.ts;
    const int t = row.t;
    const int depth = static_cast<int>(ts(team_depth));
    const int saved = static_cast<int>(ts(team_snapshot));
    int slot = -1;
    if (saved > 0 && depth - 1 >= node.prefix) {
      slot = (depth - 1 - node.prefix) / copy_distance;
      if (slot > saved - 1) slot = saved - 1;
    }
    const int block = row.shared->dive_block;
    const bool from_dive = block >= 0;
    const bool from_snapshot = !from_dive && slot >= 0;
    node.full = !from_dive && !from_snapshot && !root_fixpoint;
    node.replay_from = from_dive ? depth : from_snapshot ? node.prefix + slot * copy_distance : 0;
    row.pool_applied = from_snapshot && pool.count > 0 ? pool.applied(state.snapshot_pool(t, slot)) : 0;
    const int words = Holes ? program.domain_words() : 0;
    if (from_dive) {
      dive.load(team, block, row.decisions, program.num_vars, words, row.lb, row.ub, row.bits);
    } else if (from_snapshot) {
      load_copy(team, t, slot, row.lb, row.ub, row.bits);
    } else {
      load_root(team, row.lb, row.ub, row.bits);
    }
    team.team_barrier();
    // Narrowing commutes, so the threads replay the decisions in any order (atomically when the
    // store is shared); a wipe-out missed by two racing narrowings is caught by the fixpoint's
    // final sweep.
    const Store& es = row.es;
    NodeShared& sh = *row.shared;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, node.replay_from, depth), [&](const int d) {
      Kokkos::single(Kokkos::PerThread(team), [&]() {
        int st = 0;
        apply(state.decisions(t, d), state.decisions(t, d).right, es, st);
        if (st & prop_failed) sh.failed = 1;
      });
    });
    team.team_barrier();
  }

  /// The bound (and the restore's counts): the objective below the best any team has found, from the
  /// subproblems' roots down. The dive above them must see the same tree in every team at every time, or
  /// the bit paths would not partition it; free rows share no tree: everywhere.
  KOKKOS_INLINE_FUNCTION void apply_bound(const TeamMember& team, const Row& row, Node& node) const {
    const auto& ts = row.ts;
    NodeShared& sh = *row.shared;
    const Store& es = row.es;
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      int st = sh.failed ? prop_failed : 0;
      if (node.restore) {
        ts(team_restore) = 0;
        ts(team_restores) += 1;
        ts(team_replayed) += ts(team_depth) - node.replay_from;
      }
      if (objective >= 0 && (!row.complete || ts(team_depth) >= node.prefix)) {
        // An atomic read: another team may have lowered the best objective since the last node.
        const std::int64_t best = Kokkos::atomic_fetch_min(&state.control(ctl_best), INT64_MAX);
        if (best != INT64_MAX) st |= es.narrow_max(objective, best - 1);
      }
      sh.failed = (st & prop_failed) ? 1 : 0;
    });
    team.team_barrier();
    node.failed = sh.failed != 0;
  }

  /// The node's fixpoint: the event-driven queue or AC1, with the pool's nogoods where the bound applies.
  KOKKOS_INLINE_FUNCTION void propagate(const TeamMember& team, Row& row, Node& node) const {
    node.use_pool = pool.count > 0 && (!row.complete || row.ts(team_depth) >= node.prefix);
    if (!node.failed) {
      const FixpointResult fp = run_fixpoint(team, row, node, fixpoint, node.full, row.pool_applied);
      node.failed = fp.failed;
      node.iterations = fp.iterations;
      node.propagations = fp.propagations;
      node.capped = fp.capped;
    }
    row.last_capped = node.capped;
    row.pool_applied = node.use_pool ? pool.count : 0;
    node.depth = static_cast<int>(row.ts(team_depth));
  }

  KOKKOS_INLINE_FUNCTION FixpointResult run_fixpoint(const TeamMember& team, const Row& row, const Node& node,
                                                     const FixpointOptions& options, bool full, int applied) const {
    const NogoodPool<MemorySpace>* const nogoods = node.use_pool ? &pool : nullptr;
    return queue ? queue_fixpoint(team, program, row.s, row.qw, options, full, nogoods, applied, row.watches)
                 : team_fixpoint(team, program, row.s, row.flags, options, nogoods, row.watches);
  }

  /// A dive at a block's root that no other row claimed: publish it (search/modes.hpp's DiveCache; a
  /// prefetch claimed it before it began).
  KOKKOS_INLINE_FUNCTION void publish_dive(const TeamMember& team, const Row& row, Node& node) const {
    if (!(row.complete && node.depth == dive.depth && node.depth < node.prefix && !node.failed && !node.capped &&
          dive.enabled()))
      return;
    const auto& ts = row.ts;
    int claimed = 0;
    Kokkos::single(
        Kokkos::PerTeam(team),
        [&](int& c) { c = node.prefetching || dive.claim(dive.block(ts(team_subproblem))) ? 1 : 0; }, claimed);
    if (claimed)
      dive.publish(team, dive.block(ts(team_subproblem)), row.decisions, program.num_vars,
                   Holes ? program.domain_words() : 0, row.lb, row.ub, row.bits);
    node.published = claimed != 0;
  }

  /// A copy level: save the store in the next slot. The bound in it may be weaker than a later one, which
  /// the node after a restore applies again: the copy stays a sound starting point.
  KOKKOS_INLINE_FUNCTION void save_snapshot(const TeamMember& team, const Row& row, const Node& node) const {
    const int slot = node.failed || node.capped ? -1 : slot_at(node.depth, node.prefix);
    if (slot < 0 || slot != row.ts(team_snapshot)) return;
    save_copy(team, row.t, slot, row.lb, row.ub, row.bits);
    team.team_barrier();
    const auto& ts = row.ts;
    const int t = row.t;
    const int applied = row.pool_applied;
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      ts(team_snapshot) = slot + 1;
      if (state.snapshot_pool.extent(0) > 0) state.snapshot_pool(t, slot) = pool.mark(applied);
    });
  }

  /// The branch. Random value choices depend on the node's store only (search/branching.hpp), so the dive
  /// above the subproblems is the same tree in every team; free rows break ties from their run's rotation;
  /// failure weights count where the tree is the row's own. Every variable fixed after a capped fixpoint:
  /// only a complete one proves a solution (with every variable fixed it ends at once).
  KOKKOS_INLINE_FUNCTION void branch(const TeamMember& team, Row& row, Node& node) const {
    const auto& ts = row.ts;
    const bool complete = row.complete;
    node.branch = node.failed ? Branch{}
                              : select_branch(team, !complete && ts(team_free_heuristic) ? free_phases : phases, row.s,
                                              complete ? 0 : std::uint64_t(ts(team_salt)),
                                              !complete || static_cast<int>(ts(team_depth)) >= node.prefix, row.guide);
    if (node.capped && node.branch.var < 0) {
      FixpointOptions to_the_end = fixpoint;
      to_the_end.max_iterations = 0;
      const FixpointResult fp = run_fixpoint(team, row, node, to_the_end, true, 0);
      node.failed = fp.failed;
      node.iterations += fp.iterations;
      node.propagations += fp.propagations;
      row.last_capped = false;
    }
  }

  /// A solution: every variable fixed, not a prefetch, and owned by the row (a leaf above the subproblem
  /// depth belongs to the subproblem whose remaining bits are 0); its values go to the row's slot.
  KOKKOS_INLINE_FUNCTION void record_solution(const TeamMember& team, const Row& row, Node& node) const {
    const std::int64_t index = row.ts(team_subproblem);
    node.solution = !node.failed && node.branch.var < 0 && !node.prefetching &&
                    (!row.complete || node.depth >= node.prefix ||
                     (index & ((std::int64_t(1) << (path_length - node.depth)) - 1)) == 0);
    if (!node.solution) return;
    const int t = row.t;
    const std::int32_t* lb = row.lb;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, program.num_vars), [&](const int x) { state.solution(t, x) = lb[x]; });
    team.team_barrier();
  }

  /// The node's counts, then the next node: back from a prefetch, down by the branch, or back up (a new
  /// subproblem or run when the row's work is done). True when the team ends the launch (a solution in its
  /// slot, or a full stack).
  KOKKOS_INLINE_FUNCTION bool next_node(const TeamMember& team, const Row& row, const Node& node) const {
    const auto& ts = row.ts;
    NodeShared& sh = *row.shared;
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      ts(team_nodes) += 1;
      if (row.complete && node.depth < path_length) ts(team_path_nodes) += 1;
      ts(team_fixpoint_iterations) += node.iterations;
      ts(team_propagations) += node.propagations;
      int depth = node.depth;
      int end = 0;
      if (node.prefetching && (node.failed || node.branch.var < 0 || node.depth >= dive.depth)) {
        // The prefetch ends: back to the row's own subproblem (the depth its dive starts from).
        if (node.failed) ts(team_failures) += 1;
        dive.come_back(ts, node.depth, node.published, path_length);
        depth = static_cast<int>(ts(team_depth));
      } else if (!node.failed && node.branch.var >= 0) {
        end = descend(row, node, depth);
      } else {
        end = backtrack(row, node, depth);
      }
      ts(team_depth) = depth;
      sh.end_launch = end;
    });
    team.team_barrier();
    return sh.end_launch != 0;
  }

  /// One thread: the branch's left decision, pushed and applied (on a subproblem's path, the side its bits
  /// name; free rows start below their prefix, and the path's branch may be halved). 1: the stack is full.
  KOKKOS_INLINE_FUNCTION int descend(const Row& row, const Node& node, int& depth) const {
    const auto& ts = row.ts;
    const int t = row.t, prefix = node.prefix;
    const Branch& b = node.branch;
    const std::int64_t index = ts(team_subproblem);
    Decision dec = decision_of(depth < prefix && halve_path ? halve(row.s, b) : b);
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
      return 1;
    }
    state.decisions(t, depth) = dec;
    ++depth;
    if (depth > ts(team_peak_depth)) ts(team_peak_depth) = depth;
    int st = 0;
    apply(dec, dec.right, row.es, st);
    return 0;
  }

  /// One thread, after a failure or a solution: the failure's counts, the solution's slot, then back up to
  /// the deepest left branch below the prefix (the subproblem's path, the run's fixings, a piece's
  /// decisions: never into it, and past decisions whose right branch went to another row). Above it the
  /// row's work is done: a complete row's subproblem is solved, a free run leaves what it learned. 1: a
  /// solution is in the slot.
  KOKKOS_INLINE_FUNCTION int backtrack(const Row& row, const Node& node, int& depth) const {
    const auto& ts = row.ts;
    const int t = row.t, prefix = node.prefix;
    const bool complete = row.complete;
    const std::int64_t index = ts(team_subproblem);
    int end = 0;
    if (node.failed) {
      ts(team_failures) += 1;
      ts(team_run_failures) += 1;
      // dom/wdeg: the failure counts against the variable the node's last decision branched on.
      if (depth > 0 && phases.weights.extent(0) > 0) {
        std::int32_t& w = phases.weights(state.decisions(t, depth - 1).var);
        if (w < (1 << 30)) Kokkos::atomic_add(&w, std::int32_t(1));  // a racy cap, far from overflow
      }
    }
    if (node.solution) {
      ts(team_has_solution) = 1;
      ts(team_solution_subproblem) = index;
      if (objective >= 0) Kokkos::atomic_fetch_min(&state.control(ctl_best), std::int64_t(row.lb[objective]));
      end = 1;
    }
    if (complete && depth < prefix) skip_subtree(state, ts, index, ts(team_local_subproblem), depth, path_length, chunk_log);
    // A free run that spent its failures ends here.
    const bool spent = !complete && free_runs.spent(ts);
    while (depth > prefix && (state.decisions(t, depth - 1).right || state.decisions(t, depth - 1).donated)) --depth;
    if (depth > prefix && !spent) {
      state.decisions(t, depth - 1).right = 1;
      drop_copies_below(ts(team_snapshot), depth - 1, prefix);
      ts(team_restore) = 1;
      return end;
    }
    if (complete) {
      ts(team_last_subproblem) = index;
      ts(team_last_path) = depth;
      ts(team_subproblem) = -1;
      // A piece (its prefix is below the path) is part of a subproblem its giver counts.
      if (prefix <= path_length) ts(team_solved) += 1;
      if (split.enabled()) split.hold(state, false);
    } else {
      // What the run leaves (search/learning.hpp): searched to the end, its fixings (the empty nogood
      // from the root); else the nld-nogoods of its branch, whose deepest decision on its first branch
      // has just had that branch refuted.
      const bool exhausted = depth <= prefix;
      if (learn == LearnMode::all || (learn == LearnMode::restart && prefix == 0)) {
        const std::int64_t bound =
            objective >= 0 ? Kokkos::atomic_fetch_min(&state.control(ctl_best), INT64_MAX) : INT64_MAX;
        if (exhausted) {
          log_exhausted(state, row.decisions, prefix, max_nogood_length, bound);
        } else {
          log_restart_nogoods(state, row.decisions, depth, depth - 1, max_nogood_length, bound);
        }
      }
      free_runs.end(ts, !spent || exhausted);
    }
    depth = 0;
    return end;
  }
};

}  // namespace kcp
