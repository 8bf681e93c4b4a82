// The search modes a row of the search state runs (search/parallel_search.hpp dispatches to them at
// the two points where they differ: taking the next piece of work, and ending it).
//
// - Complete: the subproblems of the split (the bit paths of parallel_search.hpp), taken in order
//   from one global counter; a row is idle once none is left. Only complete rows prove optimality or
//   infeasibility: the search is complete when every complete row is idle.
// - Free (the portfolio's other rows; optimisation only): runs that end after a number of failures
//   from a restart sequence (Luby or geometric, times a base). Before any solution exists a run is a
//   restart: the search from the root, with the variable choice's ties broken from a random rotation
//   (search/branching.hpp), so that each run dives elsewhere; runs alternate between the model's
//   search annotations and free search (dom/wdeg over every variable), where the two differ (a
//   portfolio of heuristics as well as of teams). Once the host has published an
//   incumbent, a run is a neighbourhood of large-neighbourhood search (LNS): a random share of the
//   neighbourhood variables (the annotated decision variables, else all, the objective excepted), or
//   on every other one all but a window of consecutive ones (a structured neighbourhood), fixed
//   to their incumbent values as the never-undone prefix of the decision stack, and the rest searched
//   under the objective bound, branching towards the incumbent's values first (solution phase
//   saving, Demirović, Chu and Stuckey, CP 2018). The share adapts per row: a neighbourhood searched
//   to the end within its limit fixes less next time (it was too small to hold an improvement), one
//   cut by the limit fixes more. An improvement reaches every row at once through the shared bound, and the next
//   neighbourhoods through the incumbent, which the host updates between launches.
// A run's prefix is replayed like a subproblem path: copies of the store start below it, and
// restores replay from them, so a neighbourhood costs its fixings' propagation once.
#pragma once

#include "search/branching.hpp"
#include "search/search_state.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

namespace kcp {

/// How the failure limits of successive free runs grow.
enum class RestartSequence : std::int8_t { none = 0, luby, geometric };

/// The Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ... (i >= 1).
KOKKOS_INLINE_FUNCTION std::int64_t luby(std::int64_t i) {
  for (;;) {
    int k = 1;
    while ((std::int64_t(1) << k) - 1 < i) ++k;
    if (i == (std::int64_t(1) << k) - 1) return std::int64_t(1) << (k - 1);
    i -= (std::int64_t(1) << (k - 1)) - 1;
  }
}

/// The subproblem a process's counter value `local` names: in the chunk local >> chunk_log of those it
/// holds (their first subproblems in `chunks`, SearchState::chunks), at the place the low bits say.
KOKKOS_INLINE_FUNCTION std::int64_t dealt_subproblem(const std::int64_t* chunks, std::int64_t local, int chunk_log) {
  return chunks[local >> chunk_log] + (local & ((std::int64_t(1) << chunk_log) - 1));
}

/// How many of subproblem i's path decisions subproblem j's path shares, of the first `held` (those
/// still on the row's stack).
KOKKOS_INLINE_FUNCTION int shared_path(std::int64_t i, std::int64_t j, int path_length, int held) {
  int common = 0;
  while (common < path_length && common < held && ((i ^ j) >> (path_length - 1 - common)) == 0) ++common;
  return common;
}

/// The depth a complete row's dive into subproblem i starts from: the decisions of its last
/// subproblem's path still on its stack that i's path shares.
template <class Row>
KOKKOS_INLINE_FUNCTION int dive_start(const Row& ts, std::int64_t i, int path_length) {
  const std::int64_t last = ts(team_last_subproblem);
  return last >= 0 ? shared_path(i, last, path_length, static_cast<int>(ts(team_last_path))) : 0;
}

/// Complete rows: take the next subproblem. A row holds a run of consecutive counter values
/// [team_run_next, team_run_end) and takes them in order; when its run is spent it takes the next
/// run from the process's counter (through SearchState::chunks): up to `run_cap` values, fewer when
/// what is left of the counter's chunk is short (at most that over the complete rows, at least one).
/// Consecutive subproblems share all but their last few path decisions, so a row's next dive
/// re-descends ~2 levels instead of the ~log2(rows) that interleaved single subproblems cost. The cap
/// keeps a heavy region of the tree (its subproblems are consecutive) spread over several rows: runs
/// of a share of what is left (guided self-scheduling) gave one row whole heavy subtrees (perf/NOTES.md
/// entry 26). run_cap <= 1: one subproblem at a time. Returns false when none is left (the caller then
/// takes a piece, waits for one, or marks the row idle: SplitPool). The dive of subproblem i starts where its
/// path leaves the row's last subproblem's: the dive above the subproblems is the same tree in every
/// row, so the decisions on a common prefix are.
template <class MemorySpace, class Row>
KOKKOS_INLINE_FUNCTION bool take_subproblem(const SearchState<MemorySpace>& state, const Row& ts, int path_length,
                                            int chunk_log, int run_cap, int complete_rows) {
  std::int64_t local = ts(team_run_next);
  if (local < ts(team_run_end)) {
    ts(team_run_next) = local + 1;
  } else {
    std::int64_t* const counter = &state.control(ctl_next_subproblem);
    if (run_cap <= 1) {
      local = Kokkos::atomic_fetch_add(counter, std::int64_t(1));
      if (local >= state.control(ctl_subproblem_end)) local = -1;
      else ts(team_run_next) = ts(team_run_end) = local + 1;
    } else {
      // The counter never moves past the end here (the host's add_chunk starts the next chunk there).
      local = Kokkos::atomic_fetch_add(counter, std::int64_t(0));
      for (;;) {
        const std::int64_t end = state.control(ctl_subproblem_end);
        if (local >= end) {
          local = -1;
          break;
        }
        const std::int64_t chunk_end = ((local >> chunk_log) + 1) << chunk_log;
        const std::int64_t limit = chunk_end < end ? chunk_end : end;
        std::int64_t run = (limit - local) / complete_rows;
        if (run > run_cap) run = run_cap;
        if (run < 1) run = 1;
        const std::int64_t seen = Kokkos::atomic_compare_exchange(counter, local, local + run);
        if (seen == local) {
          ts(team_run_next) = local + 1;
          ts(team_run_end) = local + run;
          ts(team_subproblem_runs) += 1;
          break;
        }
        local = seen;
      }
    }
    if (local < 0) return false;
  }
  const std::int64_t i = dealt_subproblem(state.chunks.data(), local, chunk_log);
  const int common = dive_start(ts, i, path_length);
  ts(team_subproblem) = i;
  ts(team_local_subproblem) = local;
  ts(team_prefix) = path_length;
  ts(team_depth) = common;
  ts(team_restore) = 1;
  ts(team_snapshot) = 0;
  return true;
}

/// Complete rows: no work is left for the row (until the host hands the process another chunk).
template <class MemorySpace, class Row>
KOKKOS_INLINE_FUNCTION void mark_idle(const SearchState<MemorySpace>& state, const Row& ts) {
  ts(team_idle) = 1;
  Kokkos::atomic_add(&state.control(ctl_complete_idle), std::int64_t(1));
}

/// The end game of the complete search: splitting the subproblems still in hand. Once the counter
/// has none left, the search ends with the last heavy subproblems, one row each, while the other rows
/// idle (perf/NOTES.md entries 23 and 26). A complete row that finds the counter empty takes a piece
/// from this pool instead; when there is none, it waits (it leaves the launch, and tries again in the
/// next one) as long as some row still holds work or a piece is pooled, and is idle after that. While
/// rows wait, a row that holds work gives away its shallowest open alternative (the right branch of
/// its topmost decision whose left branch it is in), one per node, as long as fewer pieces are pooled
/// than rows wait: the piece is its decision stack down to that decision, with the right branch
/// taken, which the taker replays from the root as its never-undone prefix; the giver marks the
/// decision donated and backtracks past it. Each piece belongs to the giver's subproblem (its index:
/// its first path_length decisions are that subproblem's path), so a solution found in it, and the
/// next dive of the row that took it, need nothing else. Not with satisfaction in order (a piece's
/// solution could come before an earlier one of its subproblem's left part).
//
// Memory: a slot's header is its state (0 free, 1 being written, 2 published, 3 being read), then the
// subproblem, the counter value that gave it and the piece's length; the giver's one thread writes it
// and publishes it behind a fence, the taker claims it with a compare-and-swap, its team copies the
// decisions with volatile loads (another block wrote them in this launch: no stale L1 line), and frees
// the slot. The counts (ctl_split_*) order the end: a giver holds work while it gives, and counts the
// piece pooled before it publishes it and before it stops holding, so a row that reads no holder and
// then no piece pooled knows no work is left (one that misses a piece taken meanwhile is idle early:
// the taker still holds it, so the search is not over).
template <class MemorySpace>
struct SplitPool {
  enum : int { head_state = 0, head_subproblem, head_local, head_length, head_count };
  Kokkos::View<std::int64_t**, Kokkos::LayoutRight, MemorySpace> head;  ///< [slot][head_count]
  Kokkos::View<Decision**, Kokkos::LayoutRight, MemorySpace> pieces;    ///< [slot][decision]

  SplitPool() = default;
  SplitPool(int slots, int piece_capacity)
      : head("kcp::search::split_head", slots, head_count),
        pieces(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kcp::search::split_pieces"), slots, piece_capacity) {}

  KOKKOS_INLINE_FUNCTION bool enabled() const { return head.extent(0) > 0; }

  KOKKOS_INLINE_FUNCTION static std::int64_t peek(const std::int64_t& word) {
    return *static_cast<volatile const std::int64_t*>(&word);
  }

  /// A row holding work (one thread): gives away its shallowest open alternative when rows wait for
  /// more pieces than are pooled. `decisions` is the row's stack, `prefix` its never-undone part.
  template <class Row, class Decisions>
  KOKKOS_INLINE_FUNCTION void give(const SearchState<MemorySpace>& state, const Row& ts, const Decisions& decisions,
                                   int prefix) const {
    const std::int64_t waiting = peek(state.control(ctl_split_waiting));
    const std::int64_t pooled = peek(state.control(ctl_split_pooled));
    if (waiting <= 0 || pooled >= waiting) return;
    // Only other processes' demand is left: the rows whose pieces start shallowest give (their open
    // branches are the largest), so that a round of pieces across processes moves more work.
    const std::int64_t cap = peek(state.control(ctl_split_give_cap));
    if (cap > 0 && pooled >= waiting - peek(state.control(ctl_split_extra)) && ts(team_prefix) >= cap) return;
    const int depth = static_cast<int>(ts(team_depth));
    const int room = static_cast<int>(pieces.extent(1));
    int open = -1;
    for (int i = prefix; i < depth && i < room && open < 0; ++i)
      if (!decisions(i).right && !decisions(i).donated) open = i;
    if (open < 0) return;
    const int slots = static_cast<int>(head.extent(0));
    int slot = -1;
    for (int k = 0; k < slots && slot < 0; ++k)
      if (peek(head(k, head_state)) == 0 && Kokkos::atomic_compare_exchange(&head(k, head_state), std::int64_t(0), std::int64_t(1)) == 0)
        slot = k;
    if (slot < 0) return;
    Kokkos::atomic_add(&state.control(ctl_split_pooled), std::int64_t(1));
    head(slot, head_subproblem) = ts(team_subproblem);
    head(slot, head_local) = ts(team_local_subproblem);
    head(slot, head_length) = open + 1;
    for (int i = 0; i <= open; ++i) {
      Decision d = decisions(i);
      d.donated = 0;
      if (i == open) d.right = 1;
      pieces(slot, i) = d;
    }
    decisions(open).donated = 1;
    ts(team_split_given) += 1;
    Kokkos::memory_fence();
    Kokkos::atomic_exchange(&head(slot, head_state), std::int64_t(2));
  }

  /// A complete row the counter has no subproblem left for (one thread): claims a piece and sets the
  /// row up for it (its stack is filled by copy() below); returns the slot, or -1 when none is
  /// pooled, the row then waiting (shared ending 1) or, when no work is left anywhere, idle.
  template <class Row>
  KOKKOS_INLINE_FUNCTION int take(const SearchState<MemorySpace>& state, const Row& ts) const {
    int slot = -1;
    if (peek(state.control(ctl_split_pooled)) > 0) {
      const int slots = static_cast<int>(head.extent(0));
      for (int k = 0; k < slots && slot < 0; ++k)
        if (peek(head(k, head_state)) == 2 && Kokkos::atomic_compare_exchange(&head(k, head_state), std::int64_t(2), std::int64_t(3)) == 2)
          slot = k;
    }
    if (slot < 0) {
      // Holders first: a piece is pooled before its giver stops holding.
      const bool quiet = Kokkos::atomic_fetch_add(&state.control(ctl_split_holding), std::int64_t(0)) == 0 &&
                         Kokkos::atomic_fetch_add(&state.control(ctl_split_pooled), std::int64_t(0)) == 0;
      if (quiet) {
        stop_waiting(state, ts);
        mark_idle(state, ts);
      } else if (!ts(team_split_waiting)) {
        ts(team_split_waiting) = 1;
        Kokkos::atomic_add(&state.control(ctl_split_waiting), std::int64_t(1));
      }
      return -1;
    }
    Kokkos::atomic_add(&state.control(ctl_split_holding), std::int64_t(1));
    Kokkos::atomic_add(&state.control(ctl_split_pooled), std::int64_t(-1));
    stop_waiting(state, ts);
    const std::int64_t length = peek(head(slot, head_length));
    ts(team_subproblem) = peek(head(slot, head_subproblem));
    ts(team_local_subproblem) = peek(head(slot, head_local));
    ts(team_prefix) = length;
    ts(team_depth) = length;
    ts(team_restore) = 1;
    ts(team_snapshot) = 0;
    ts(team_split_taken) += 1;
    return slot;
  }

  /// The team copies the claimed piece into its stack (its length is the row's depth by now), then one
  /// thread frees the slot.
  template <class TeamMember, class Decisions>
  KOKKOS_INLINE_FUNCTION void copy(const TeamMember& team, int slot, const Decisions& decisions, int length) const {
    volatile const std::int32_t* from = reinterpret_cast<volatile const std::int32_t*>(&pieces(slot, 0));
    std::int32_t* to = reinterpret_cast<std::int32_t*>(&decisions(0));
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 5 * length), [&](const int w) { to[w] = from[w]; });
    team.team_barrier();
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      Kokkos::memory_fence();
      Kokkos::atomic_exchange(&head(slot, head_state), std::int64_t(0));
    });
  }

  /// A row took work (true: it counts as holding) or ended what it held.
  KOKKOS_INLINE_FUNCTION void hold(const SearchState<MemorySpace>& state, bool holding) const {
    Kokkos::atomic_add(&state.control(ctl_split_holding), std::int64_t(holding ? 1 : -1));
  }

  template <class Row>
  KOKKOS_INLINE_FUNCTION static void stop_waiting(const SearchState<MemorySpace>& state, const Row& ts) {
    if (!ts(team_split_waiting)) return;
    ts(team_split_waiting) = 0;
    Kokkos::atomic_add(&state.control(ctl_split_waiting), std::int64_t(-1));
  }
};

/// Complete rows: the stores of the dive's nodes at one depth above the subproblems, the roots of
/// blocks of 2^block_log consecutive subproblems, shared by the process's rows. A dive starts below
/// the longest prefix its row's last subproblem shared with it (take_subproblem), and rows take
/// interleaved subproblems: where many rows search, and in a distributed search whose chunks are
/// scattered, that prefix is short (four GPUs dived about 11 of 15 levels per subproblem, perf/NOTES.md
/// entry 37). A row that takes a subproblem whose block is published below the prefix its stack
/// shares copies the block's root (its store after the fixpoint, and the decisions above it) and dives
/// from there. Above the subproblems the tree is the same in every row (no bound, no nogoods,
/// branching on the store alone: ParallelSearch), so the copy is the node the row would have reached.
///
/// Rows take a block's subproblems in a burst (the counter passes them in a few milliseconds on a GPU,
/// sooner than one dive), so a block is published ahead: a row that takes counter value v first
/// claims the block of value v + ahead, when dealt and unclaimed, dives to its root, publishes it, and
/// comes back to its own subproblem (a prefetch). A row whose dive reaches an unclaimed block's root
/// publishes it too. A block whose claimer's dive ends above its root (an empty subtree, a leaf) or
/// whose root's fixpoint was cut short is marked none: its rows dive on their own.
//
// Memory: a block's state is 0 (unclaimed), 1 (claimed), 2 (published) or 3 (none), each block
// written once per search; the writing row's threads fence before its one thread publishes, and a
// reading team copies with volatile loads (another block wrote them in this launch: no stale L1 line).
template <class MemorySpace>
struct DiveCache {
  enum : std::int64_t { unclaimed = 0, claimed = 1, published_state = 2, none = 3 };
  Kokkos::View<std::int64_t*, MemorySpace> state;                          ///< [block]
  Kokkos::View<std::int32_t**, Kokkos::LayoutRight, MemorySpace> bounds;   ///< [block][2 * variable]: lb, ub
  Kokkos::View<DomainWord**, Kokkos::LayoutRight, MemorySpace> bits;       ///< [block][word]; empty without bitsets
  Kokkos::View<Decision**, Kokkos::LayoutRight, MemorySpace> decisions;    ///< [block][depth]
  int depth = 0;             ///< the blocks' roots' depth; 0: off
  int block_log = 0;         ///< a block holds 2^block_log consecutive subproblems
  std::int64_t ahead = 0;    ///< counter values between a row's subproblem and the block it prefetches

  DiveCache() = default;
  DiveCache(int path_length, int log, int num_vars, int words, int complete_rows)
      : state("kcp::search::dive_state", std::size_t(1) << (path_length - log)),
        bounds(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kcp::search::dive_bounds"),
               std::size_t(1) << (path_length - log), 2 * std::size_t(num_vars)),
        bits(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kcp::search::dive_bits"),
             words > 0 ? std::size_t(1) << (path_length - log) : 0, std::size_t(words)),
        decisions(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kcp::search::dive_decisions"),
                  std::size_t(1) << (path_length - log), std::size_t(path_length - log)),
        depth(path_length - log),
        block_log(log),
        // Two blocks, or a value per complete row: more than the rows take while one dives (a quarter
        // of the rows missed half the blocks on diameterc-mst, whose subproblems are mostly small).
        ahead(std::max<std::int64_t>(std::int64_t(2) << log, complete_rows)) {}

  /// The block size's log for 2^p subproblems of stores of `store_bytes`: at most 4,096 blocks in at
  /// most `budget` bytes, at least 4 subproblems a block; p (off) where no block root lies below the root.
  static int choose_log(int path_length, std::int64_t store_bytes, double budget) {
    const double per_block = double(store_bytes) + double(path_length) * sizeof(Decision) + sizeof(std::int64_t);
    int blocks_log = 12;
    while (blocks_log > 0 && per_block * double(std::int64_t(1) << blocks_log) > budget) --blocks_log;
    const int log = path_length - blocks_log < 2 ? 2 : path_length - blocks_log;
    return log >= path_length ? path_length : log;
  }

  KOKKOS_INLINE_FUNCTION bool enabled() const { return depth > 0; }
  /// Block b's store, laid out as the rows' copies are (load_store, save_store).
  KOKKOS_INLINE_FUNCTION std::int32_t* block_bounds(std::int64_t b) const {
    return bounds.data() + std::size_t(b) * bounds.stride(0);
  }
  KOKKOS_INLINE_FUNCTION DomainWord* block_bits(std::int64_t b) const {
    return bits.data() + std::size_t(b) * bits.stride(0);
  }
  KOKKOS_INLINE_FUNCTION std::int64_t block(std::int64_t subproblem) const { return subproblem >> block_log; }
  KOKKOS_INLINE_FUNCTION bool published(std::int64_t b) const {
    return Kokkos::atomic_fetch_add(&state(b), std::int64_t(0)) == published_state;
  }
  /// One thread: whether this row writes block b (no other row claimed it).
  KOKKOS_INLINE_FUNCTION bool claim(std::int64_t b) const {
    return SplitPool<MemorySpace>::peek(state(b)) == unclaimed &&
           Kokkos::atomic_compare_exchange(&state(b), std::int64_t(unclaimed), std::int64_t(claimed)) == unclaimed;
  }

  /// One thread, a complete row that has just taken a subproblem (`may_prefetch`) or come back to it
  /// from a prefetch: either it starts a prefetch (its stack's depth set for it), or, when its
  /// subproblem's block is published below the prefix its stack shares, it starts from there (the block
  /// returned, for load()), or it dives as it is (-1).
  template <class Row>
  KOKKOS_INLINE_FUNCTION std::int64_t enter(const SearchState<MemorySpace>& st, const Row& ts, int path_length,
                                            int chunk_log, bool may_prefetch) const {
    const std::int64_t i = ts(team_subproblem);
    if (may_prefetch) {
      const std::int64_t v = ts(team_local_subproblem) + ahead;
      if (v < SplitPool<MemorySpace>::peek(st.control(ctl_subproblem_end))) {
        const std::int64_t j = dealt_subproblem(st.chunks.data(), v, chunk_log);
        if (block(j) != block(i) && claim(block(j))) {
          ts(team_dive_saved) = i;
          ts(team_dive_prefetch) = 1;
          ts(team_dive_prefetches) += 1;
          ts(team_subproblem) = j;
          ts(team_depth) = dive_start(ts, j, path_length);
          return -1;
        }
      }
    }
    if (ts(team_depth) < depth) {
      if (published(block(i))) {
        ts(team_depth) = depth;
        ts(team_dive_cache_hits) += 1;
        return block(i);
      }
      ts(team_dive_cache_misses) += 1;
    }
    return -1;
  }

  /// One thread: the prefetch ends at the node at `node_depth` (its block's root, published or not, or
  /// a node above it that failed or is a leaf); the row goes back to its own subproblem, below the
  /// prefix the prefetch's path shares with it.
  template <class Row>
  KOKKOS_INLINE_FUNCTION void come_back(const Row& ts, int node_depth, bool published_here, int path_length) const {
    const std::int64_t j = ts(team_subproblem), i = ts(team_dive_saved);
    if (!published_here) Kokkos::atomic_exchange(&state(block(j)), std::int64_t(none));
    ts(team_subproblem) = i;
    ts(team_dive_prefetch) = 0;
    ts(team_dive_enter) = 1;
    ts(team_depth) = shared_path(i, j, path_length, node_depth);
    ts(team_restore) = 1;
    ts(team_snapshot) = 0;
  }

  /// The team writes the node's store and the `depth` decisions above it into block b (claimed by this
  /// row), then one thread publishes it.
  template <class TeamMember, class Decisions>
  KOKKOS_INLINE_FUNCTION void publish(const TeamMember& team, std::int64_t b, const Decisions& row, int n, int words,
                                      const std::int32_t* lb, const std::int32_t* ub, const DomainWord* bw) const {
    save_store(team, block_bounds(b), block_bits(b), n, words, lb, ub, bw);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, depth), [&](const int d) {
      Decision dec = row(d);
      dec.donated = 0;
      decisions(b, d) = dec;
    });
    Kokkos::memory_fence();
    team.team_barrier();
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      Kokkos::memory_fence();
      Kokkos::atomic_exchange(&state(b), std::int64_t(published_state));
    });
  }

  /// The team copies published block b into its store and the bottom of its stack (the caller puts a
  /// barrier after it).
  template <class TeamMember, class Decisions>
  KOKKOS_INLINE_FUNCTION void load(const TeamMember& team, std::int64_t b, const Decisions& row, int n, int words,
                                   std::int32_t* lb, std::int32_t* ub, DomainWord* bw) const {
    load_store(team, static_cast<volatile const std::int32_t*>(block_bounds(b)),
               static_cast<volatile const DomainWord*>(block_bits(b)), n, words, lb, ub, bw);
    volatile const std::int32_t* from_decisions = reinterpret_cast<volatile const std::int32_t*>(&decisions(b, 0));
    std::int32_t* to = reinterpret_cast<std::int32_t*>(&row(0));
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 5 * depth), [&](const int w) { to[w] = from_decisions[w]; });
  }
};

/// Complete rows: the subproblems sharing the first `depth` bits of `index` (taken at counter value
/// `local`) are empty; move past those of its chunk (they count as skipped): the row's own run first,
/// then the counter, and note where the subtree ends when it runs past the chunk (a distributed search
/// skips the rest for every process).
template <class MemorySpace, class Row>
KOKKOS_INLINE_FUNCTION void skip_subtree(const SearchState<MemorySpace>& state, const Row& ts, std::int64_t index,
                                         std::int64_t local, int depth, int path_length, int chunk_log) {
  const int below = path_length - depth;
  const std::int64_t end = ((index >> below) + 1) << below;
  const std::int64_t chunk_end = ((local >> chunk_log) + 1) << chunk_log;
  const std::int64_t local_end = local + (end - index) < chunk_end ? local + (end - index) : chunk_end;
  std::int64_t skipped = 0;
  const std::int64_t run_end = ts(team_run_end);
  const std::int64_t own_end = local_end < run_end ? local_end : run_end;
  if (own_end > ts(team_run_next)) {
    skipped += own_end - ts(team_run_next);
    ts(team_run_next) = own_end;
  }
  if (local_end > run_end) {
    const std::int64_t old = Kokkos::atomic_fetch_max(&state.control(ctl_next_subproblem), local_end);
    const std::int64_t from = old > run_end ? old : run_end;
    if (local_end > from) skipped += local_end - from;
  }
  if (skipped > 0) Kokkos::atomic_add(&state.control(ctl_skipped), skipped);
  if (local + (end - index) > chunk_end) Kokkos::atomic_fetch_max(&state.control(ctl_skip_to), end);
}

/// Free rows: restarts and LNS neighbourhoods (see above).
template <class MemorySpace>
struct FreeRuns {
  /// The neighbourhood variables (store variables).
  Kokkos::View<const std::int32_t*, MemorySpace> vars;
  RestartSequence sequence = RestartSequence::luby;
  std::int64_t base = 100;  ///< failures of the sequence's unit
  bool lns = true;          ///< neighbourhoods once an incumbent exists; false: restarts only
  bool alternate = false;   ///< odd runs follow the annotations, even ones free search (the two differ)
  bool phase_saving = true; ///< once an incumbent exists, branch towards its values first
  /// Once an incumbent exists, this share of the runs (in 1/1000) still restarts from the root (under
  /// the bound, branching towards the incumbent): the runs that learn (search/learning.hpp).
  int restart_permille = 0;
  std::uint64_t seed = 0;
  static constexpr int initial_fix_permille = 600, min_fix_permille = 50, max_fix_permille = 990, fix_step = 30;

  /// The failure limit of a row's run number `run` (1, 2, ...).
  KOKKOS_INLINE_FUNCTION std::int64_t limit(std::int64_t run) const {
    if (sequence == RestartSequence::luby) return base * luby(run);
    std::int64_t l = base;  // geometric: base * 1.5^(run - 1), capped
    for (std::int64_t k = 1; k < run && l < (std::int64_t(1) << 40); ++k) l += l / 2;
    return l;
  }

  /// Starts row `row`'s next run (one thread): its prefix on the decision stack and its limits.
  template <class Row, class Decisions>
  KOKKOS_INLINE_FUNCTION void start(const SearchState<MemorySpace>& state, int row, const Row& ts,
                                    const Decisions& decisions, int num_vars) const {
    const std::int64_t run = ts(team_runs) + 1;
    ts(team_runs) = run;
    ts(team_run_failures) = 0;
    ts(team_run_limit) = limit(run);
    const std::uint64_t draw = detail::mix(seed ^ detail::mix(std::uint64_t(row) * 0x9e3779b97f4a7c15ULL + std::uint64_t(run)));
    ts(team_salt) = static_cast<std::int64_t>((draw >> 1) | 1);
    ts(team_free_heuristic) = alternate && run % 2 == 0 ? 1 : 0;
    int depth = 0;
    const bool restart = restart_permille > 0 && static_cast<int>((draw >> 20) % 1000) < restart_permille;
    ts(team_in_neighbourhood) = 0;
    if (lns && state.incumbent(num_vars) != 0 && !restart) {
      ts(team_in_neighbourhood) = 1;
      ts(team_neighbourhoods) += 1;
      if (ts(team_fix_permille) == 0) ts(team_fix_permille) = initial_fix_permille;
      const std::uint64_t fix = static_cast<std::uint64_t>(ts(team_fix_permille));
      // Half the stack at most: the search below the neighbourhood needs the rest.
      const int room = state.capacity / 2;
      const int count = static_cast<int>(vars.extent(0));
      // A random share of the neighbourhood variables keeps the incumbent's values. (Windows of
      // consecutive variables instead, every other time, were 7 better / 7 worse: perf/NOTES.md entry 19;
      // retired in session 36.)
      for (int i = 0; i < count && depth < room; ++i) {
        if (detail::mix(draw ^ (std::uint64_t(i) * 0xbf58476d1ce4e5b9ULL)) % 1000 >= fix) continue;
        const int x = vars(i);
        const std::int32_t v = state.incumbent(x);
        decisions(depth++) = Decision{x, v, v, v, 0, 0, decide_value, 0};
      }
    }
    ts(team_subproblem) = run;
    ts(team_prefix) = depth;
    ts(team_depth) = depth;
    ts(team_restore) = 1;
    ts(team_snapshot) = 0;
  }

  /// The values free runs branch towards (search/branching.hpp's branch_towards): the incumbent's,
  /// once the host has published one, with phase saving; else none.
  KOKKOS_INLINE_FUNCTION const std::int32_t* guide(const SearchState<MemorySpace>& state, int num_vars) const {
    return phase_saving && state.incumbent(num_vars) != 0 ? state.incumbent.data() : nullptr;
  }

  /// Whether the run in hand has spent its failures.
  template <class Row>
  KOKKOS_INLINE_FUNCTION bool spent(const Row& ts) const {
    return ts(team_run_failures) >= ts(team_run_limit);
  }

  /// Ends the run in hand (one thread): `exhausted` when its tree below the prefix was searched to
  /// the end. A neighbourhood adapts the share it fixes.
  template <class Row>
  KOKKOS_INLINE_FUNCTION void end(const Row& ts, bool exhausted) const {
    if (ts(team_in_neighbourhood) != 0) {
      std::int64_t f = ts(team_fix_permille);
      if (exhausted) {
        ts(team_lns_exhausted) += 1;
        f -= fix_step;
      } else {
        f += fix_step / 3;
      }
      ts(team_fix_permille) = f < min_fix_permille ? min_fix_permille : f > max_fix_permille ? max_fix_permille : f;
    }
    ts(team_subproblem) = -1;
  }
};

}  // namespace kcp
