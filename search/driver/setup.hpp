// What a searcher is built from (search/driver/slice_searcher.hpp, the explaining crew): the search's
// phases on the device, which variables keep bitsets, the root store at its fixpoint, neighbourhood
// variables, store copies per row, and the rows' counters added into the report.
#pragma once

#include "domains/program.hpp"
#include "domains/root_fixpoint.hpp"
#include "search/branching.hpp"
#include "search/driver/searcher.hpp"
#include "search/search_state.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace kcp::driver {

/// A generous guess at the decisions a dive needs: a few per variable, more for wide domains
/// (indomain_min may take one per value where decisions on other variables come between).
inline std::int64_t expected_depth(const Program& p) {
  std::int64_t depth = 1;
  for (int x = 0; x < p.num_vars(); ++x) depth += std::min<std::int64_t>(std::int64_t(p.ub[x]) - p.lb[x] + 1, 64);
  return depth;
}

/// How often each store variable occurs in a propagator (for the occurrence choices).
inline std::vector<std::int32_t> occurrences(const Program& p) {
  std::vector<std::int32_t> occ(p.num_vars(), 0);
  for (const int x : p.var) ++occ[x];
  for (const int b : p.reif_var)
    if (b >= 0) ++occ[b];
  for (const Ternary& t : p.ternary) {
    ++occ[t.x];
    ++occ[t.y];
    if (t.z != t.y) ++occ[t.z];
  }
  for (const FamilyTable& g : p.global)
    for (const int x : g.vars) ++occ[x];
  return occ;
}

/// The phases `phases` and the final one over every variable, on the device. With `shared`, the
/// occurrences and the failure weights are shared's (computed and allocated once for both sets).
template <class MemorySpace>
SearchPhases<MemorySpace> upload_phases(const Program& p, std::vector<SearchPhase> phases, const SearchOptions& o,
                                        const SearchPhases<MemorySpace>* shared = nullptr) {
  SearchPhase all{o.free_var_choice, ValueChoice::split, {}};
  for (int x = 0; x < p.num_vars(); ++x) all.vars.push_back(x);
  phases.push_back(all);  // every variable is fixed at a leaf
  std::vector<std::int32_t> begin{0}, vars;
  std::vector<std::int8_t> vc, valc;
  for (const SearchPhase& ph : phases) {
    if (ph.vars.size() >= (std::size_t(1) << 28)) throw std::length_error("a search phase has 2^28 variables or more");
    for (const int x : ph.vars) {
      if (x < 0 || x >= p.num_vars()) throw std::out_of_range("search phase names an unknown variable");
      vars.push_back(x);
    }
    begin.push_back(static_cast<std::int32_t>(vars.size()));
    vc.push_back(static_cast<std::int8_t>(ph.var_choice));
    valc.push_back(static_cast<std::int8_t>(ph.value_choice));
  }
  SearchPhases<MemorySpace> d;
  d.begin = detail::upload<std::int32_t, MemorySpace>("kcp::search::phase_begin", begin);
  d.vars = detail::upload<std::int32_t, MemorySpace>("kcp::search::phase_vars", vars);
  d.var_choice = detail::upload<std::int8_t, MemorySpace>("kcp::search::var_choice", vc);
  d.value_choice = detail::upload<std::int8_t, MemorySpace>("kcp::search::value_choice", valc);
  if (shared != nullptr) {
    d.occurrences = shared->occurrences;
    d.weights = shared->weights;  // both sets end with the same phase: dom_wdeg in one is in the other
  } else {
    d.occurrences = detail::upload<std::int32_t, MemorySpace>("kcp::search::occurrences", occurrences(p));
    if (std::find(vc.begin(), vc.end(), static_cast<std::int8_t>(VarChoice::dom_wdeg)) != vc.end())
      d.weights = Kokkos::View<std::int32_t*, MemorySpace>("kcp::search::weights", std::size_t(p.num_vars()));
  }
  d.seed = o.seed;
  return d;
}

/// The variables the search's value choices branch on by x = v | x != v (median, random and their
/// outdomain forms): they want a bitset whatever their width (Program::give_bitsets).
inline std::vector<char> value_decision_vars(const Program& p, const SearchOptions& o) {
  std::vector<char> wanted(std::size_t(p.num_vars()), 0);
  for (const SearchPhase& ph : o.phases)
    if (ph.value_choice == ValueChoice::median || ph.value_choice == ValueChoice::random ||
        ph.value_choice == ValueChoice::out_median || ph.value_choice == ValueChoice::out_random)
      for (const int x : ph.vars) wanted[std::size_t(x)] = 1;
  return wanted;
}

/// The bitsets the search gives a program (SearchOptions::bitset_span, default_bitset_words): the one
/// place the searchers and the explaining search build their layout from.
inline void give_search_bitsets(Program& p, const SearchOptions& o) {
  if (o.bitset_span > 0) p.give_bitsets(o.bitset_span, default_bitset_words, value_decision_vars(p, o));
}

/// Whether the program the search runs has bitsets: the original's, or the ones bitset_span gives.
inline bool has_bitsets(const Program& p, const SearchOptions& o) {
  if (!p.bits.empty()) return true;
  return o.bitset_span > 0 && !p.bitset_candidates(o.bitset_span, value_decision_vars(p, o)).empty();
}

/// The variables LNS fixes from: the caller's, else the annotated decision variables, else every
/// variable; never the objective (the bound constrains it).
inline std::vector<std::int32_t> neighbourhood_vars(const SearchOptions& o, int n) {
  std::vector<std::int32_t> vars;
  std::vector<char> seen(std::size_t(n), 0);
  const auto add = [&](int x) {
    if (x >= 0 && x < n && x != o.objective && !seen[std::size_t(x)]) seen[std::size_t(x)] = 1, vars.push_back(x);
  };
  for (const int x : o.neighbourhood) add(x);
  if (vars.empty())
    for (const SearchPhase& ph : o.phases)
      for (const int x : ph.vars) add(x);
  if (vars.empty())
    for (int x = 0; x < n; ++x) add(x);
  return vars;
}

/// Replaces the program's root store by its fixpoint (so that a restore from the root starts the
/// event-driven fixpoint from the replayed decisions' events only); keeps it when the root fails, or
/// when the fixpoint stops first: at the time limit (`time_limit_s` from now, 0: none), or after
/// max_iterations AC1 sweeps' worth of propagator runs. Returns whether it did. Event-driven: AC1 took
/// 1.6 s of pentominoes_02's 3 s here (perf/NOTES.md entry 49).
inline bool root_to_fixpoint(Program& program, DeviceProgram<Kokkos::HostSpace>& host, int max_iterations, double time_limit_s) {
  std::vector<std::int32_t> lb = program.lb, ub = program.ub;
  std::vector<DomainWord> bits = program.bits;
  const Clock::time_point deadline = time_limit_s > 0 ? seconds_from_now(time_limit_s) : Clock::time_point::max();
  const RootFixpointResult r =
      event_fixpoint(program, host, host.store<false>(lb.data(), ub.data(), bits.data()), deadline,
                     std::int64_t(max_iterations > 0 ? max_iterations : 4096) * std::max(1, program.num_propagators()));
  if (r.failed || r.stopped) return false;
  host.root_lb = detail::upload<std::int32_t, Kokkos::HostSpace>("kcp::program::root_lb", lb);
  host.root_ub = detail::upload<std::int32_t, Kokkos::HostSpace>("kcp::program::root_ub", ub);
  host.root_bits = detail::upload<DomainWord, Kokkos::HostSpace>("kcp::program::root_bits", bits);
  program.lb = std::move(lb);
  program.ub = std::move(ub);
  program.bits = std::move(bits);
  return true;
}

/// The per-team counters of the state's rows added into the report.
template <class TeamMirror>
inline void add_team_totals(SearchReport& report, const TeamMirror& team, const Rows& rows) {
  for (int t = 0; t < rows.total(); ++t) {
    if (t >= rows.complete) {
      report.neighbourhoods += team(t, team_neighbourhoods);
      report.restarts += team(t, team_runs) - team(t, team_neighbourhoods);
      report.neighbourhoods_exhausted += team(t, team_lns_exhausted);
    }
    report.nodes += team(t, team_nodes);
    if (t < rows.complete) {
      report.complete_nodes += team(t, team_nodes);
      report.path_nodes += team(t, team_path_nodes);
      report.dive_cache_hits += team(t, team_dive_cache_hits);
      report.dive_prefetches += team(t, team_dive_prefetches);
      report.dive_cache_misses += team(t, team_dive_cache_misses);
    }
    report.failures += team(t, team_failures);
    report.fixpoint_iterations += team(t, team_fixpoint_iterations);
    report.restores += team(t, team_restores);
    report.replayed_decisions += team(t, team_replayed);
    report.propagations += team(t, team_propagations);
    report.peak_depth = std::max(report.peak_depth, team(t, team_peak_depth));
    report.subproblems_solved += team(t, team_solved);
    report.subproblem_runs += team(t, team_subproblem_runs);
    report.split_pieces += team(t, team_split_taken);
  }
}

/// Whether the complete rows split their subproblems in the end game (search/modes.hpp's SplitPool):
/// among two complete rows at least, not with satisfaction in order.
inline bool splits_end_game(const SearchOptions& o, int complete_rows) {
  return o.end_game_split && complete_rows >= 2 && !(o.objective < 0 && o.max_solutions > 0);
}

/// Subproblems per complete row when the split depth is left to kcp: 16, for balance when a row's
/// subproblems are its only work; 4 when optimising with end-game splitting, which balances the end
/// instead (a coarser split saves the dives: perf/NOTES.md entry 30).
inline double subproblems_per_row(const SearchOptions& o, int complete_rows) {
  return o.objective >= 0 && splits_end_game(o, complete_rows) ? 4.0 : 16.0;
}

/// Copies of stores per row the budget allows (SearchOptions::copy_budget_bytes over all rows).
inline std::int64_t store_slots_fit(const SearchOptions& o, int rows, std::int64_t domain_bytes) {
  const double per_slot = double(rows) * double(domain_bytes);
  return per_slot > 0 ? static_cast<std::int64_t>(o.copy_budget_bytes / per_slot) : 0;
}

/// Levels between two copies of a row's store: SearchOptions::copy_distance when given, else 1 where
/// the budget allows each row copy_reach_levels copies or more, and otherwise the copies spaced to reach
/// that deep below the subproblem's root (at most max_auto_copy_distance apart). A GPU's 1,056 rows get 5-18 copies of a
/// store of 55-200 KB in the 1 GiB: with one a level, a node below the last copy replayed 3-17
/// decisions and reran their fixpoint (perf/NOTES.md entry 66).
inline int copy_distance(const SearchOptions& o, int rows, std::int64_t domain_bytes) {
  if (o.copy_distance != copy_distance_auto) return o.copy_distance;
  const std::int64_t fit = store_slots_fit(o, rows, domain_bytes);
  if (fit <= 0 || fit >= copy_reach_levels) return default_copy_distance;
  return static_cast<int>(std::min(max_auto_copy_distance, (copy_reach_levels + fit - 1) / fit));
}

/// Copies of stores per row: one every `distance` of the `levels` below the subproblem's root, at
/// most 512, and as many as fit in the budget over all rows (none when not even the subproblem's root
/// fits). The levels below the last one replay from it.
inline int store_slots(const SearchOptions& o, int distance, int rows, std::int64_t domain_bytes, std::int64_t levels) {
  constexpr std::int64_t max_store_slots = 512;
  if (!o.snapshots) return 0;
  const std::int64_t fit = store_slots_fit(o, rows, domain_bytes);
  const std::int64_t wanted = distance > 0 ? (levels + distance - 1) / distance + 1 : 1;
  return static_cast<int>(std::min({fit, wanted, max_store_slots}));
}

}  // namespace kcp::driver
