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

/// Complete rows: take the next subproblem. A row holds a run of consecutive counter values
/// [team_run_next, team_run_end) and takes them in order; when its run is spent it takes the next
/// run from the process's counter (through SearchState::chunks): up to `run_cap` values, fewer when
/// what is left of the counter's chunk is short (at most that over the complete rows, at least one).
/// Consecutive subproblems share all but their last few path decisions, so a row's next dive
/// re-descends ~2 levels instead of the ~log2(rows) that interleaved single subproblems cost. The cap
/// keeps a heavy region of the tree (its subproblems are consecutive) spread over several rows: runs
/// of a share of what is left (guided self-scheduling) gave one row whole heavy subtrees (perf/NOTES.md
/// entry 26). run_cap <= 1: one subproblem at a time. Returns false when none is left (the row is then
/// idle, until the host hands the process another chunk). The dive of subproblem i starts where its
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
    if (local < 0) {
      ts(team_idle) = 1;
      Kokkos::atomic_add(&state.control(ctl_complete_idle), std::int64_t(1));
      return false;
    }
  }
  const std::int64_t i = dealt_subproblem(state.chunks.data(), local, chunk_log);
  const std::int64_t last = ts(team_last_subproblem);
  int common = 0;
  if (last >= 0) {
    while (common < path_length && ((i ^ last) >> (path_length - 1 - common)) == 0) ++common;
    if (common > ts(team_last_path)) common = static_cast<int>(ts(team_last_path));
  }
  ts(team_subproblem) = i;
  ts(team_local_subproblem) = local;
  ts(team_prefix) = path_length;
  ts(team_depth) = common;
  ts(team_restore) = 1;
  ts(team_snapshot) = 0;
  return true;
}

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
  bool windows = false;     ///< every other neighbourhood frees a window of consecutive variables
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
      // Every other neighbourhood (with windows) frees a window of consecutive neighbourhood
      // variables, from a random start (wrapping round), instead of a random share: neighbours in the
      // model's order (an array's row, a resource's tasks) are often the ones that must move together.
      const bool window = windows && ts(team_neighbourhoods) % 2 == 0 && count > 0;
      const std::int64_t freed = count - static_cast<std::int64_t>(count) * std::int64_t(fix) / 1000;
      const std::int64_t from = window ? static_cast<std::int64_t>(draw % std::uint64_t(count)) : 0;
      for (int i = 0; i < count && depth < room; ++i) {
        if (window ? (i - from + count) % count < freed
                   : detail::mix(draw ^ (std::uint64_t(i) * 0xbf58476d1ce4e5b9ULL)) % 1000 >= fix)
          continue;
        const int x = vars(i);
        const std::int32_t v = state.incumbent(x);
        decisions(depth++) = Decision{x, v, v, v, 0, 0, decide_value};
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
