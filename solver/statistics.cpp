#include "solver/statistics.hpp"

#include "domains/globals.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cstdint>
#include <cstdlib>

namespace kcp {

namespace {

using In = StatisticsInput;

std::string num(std::int64_t v) { return std::to_string(v); }
std::string fixed(double v, int decimals) { return fmt::format("{:.{}f}", v, decimals); }
std::string boolean(bool b) { return b ? "true" : "false"; }
std::string quoted(const std::string& s) { return "\"" + s + "\""; }

bool host_rows(const In& in) { return in.report.host_teams > 0; }
/// Satisfaction learns through the explaining searches alone (rank 0's in a distributed search).
bool explained(const In& in) { return in.learn == LearnMode::explain && in.report.explain_threads > 0; }
bool learning(const In& in) { return in.learn != LearnMode::none && (in.optimise() || explained(in)); }
bool explaining(const In& in) { return in.learn == LearnMode::explain && (in.optimise() || explained(in)); }
bool distributed(const In& in) { return in.report.ranks > 1; }
/// An objective value as the model states it (kcp minimises the negation of a maximised one).
std::int64_t as_stated(const In& in, std::int64_t v) { return in.compiled.maximize ? -v : v; }

std::vector<Statistic> build_table() {
  std::vector<Statistic> t;
  // name, SearchReport fields read, when (null: always), value
  const auto row = [&](std::string name, std::string reads, std::function<bool(const In&)> when,
                       std::function<std::string(const In&)> value) {
    t.push_back(Statistic{std::move(name), std::move(reads), std::move(when), std::move(value)});
  };
  const std::function<bool(const In&)> always;
  // The search's work.
  row("nodes", "nodes", always, [](const In& in) { return num(in.report.nodes); });
  row("completeNodes", "complete_nodes", always, [](const In& in) { return num(in.report.complete_nodes); });
  row("failures", "failures", always, [](const In& in) { return num(in.report.failures); });
  row("solutions", "solutions", always, [](const In& in) { return num(in.report.solutions); });
  row("peakDepth", "peak_depth", always, [](const In& in) { return num(in.report.peak_depth); });
  row("fixpointIterations", "fixpoint_iterations", always, [](const In& in) { return num(in.report.fixpoint_iterations); });
  row("fixpointIterationsPerNode", "fixpoint_iterations nodes", always, [](const In& in) {
    return fixed(in.report.nodes ? double(in.report.fixpoint_iterations) / double(in.report.nodes) : 0.0, 2);
  });
  row("propagations", "propagations", always, [](const In& in) { return num(in.report.propagations); });
  row("propagationsPerNode", "propagations nodes", always, [](const In& in) {
    return fixed(in.report.nodes ? double(in.report.propagations) / double(in.report.nodes) : 0.0, 1);
  });
  row("restores", "restores", always, [](const In& in) { return num(in.report.restores); });
  row("replayedDecisions", "replayed_decisions", always, [](const In& in) { return num(in.report.replayed_decisions); });
  // The model, before and after preprocessing.
  row("variablesBefore", "", always, [](const In& in) { return num(in.compiled.preprocess.before.variables); });
  row("propagatorsBefore", "", always, [](const In& in) { return num(in.compiled.preprocess.before.propagators()); });
  row("variables", "", always, [](const In& in) { return num(in.compiled.program.num_vars()); });
  row("propagators", "", always, [](const In& in) { return num(in.compiled.program.num_propagators()); });
  row("linearRows", "", always, [](const In& in) { return num(in.compiled.program.num_rows()); });
  row("ternaryPropagators", "", always, [](const In& in) { return num(in.compiled.program.num_ternary()); });
  for_each_global_family([&](auto family, int f) {
    row(family.statistic, "", always, [f](const In& in) { return num(std::int64_t(in.compiled.program.global[std::size_t(f)].size())); });
  });
  row("mergedVariables", "", always, [](const In& in) { return num(in.compiled.preprocess.merged_variables); });
  const auto ternarized = [](const In& in) { return in.ternary_rows; };
  row("ternarizedRows", "", ternarized, [](const In& in) { return num(in.compiled.ternarized.rows_rewritten); });
  row("nativeRowsKept", "", ternarized, [](const In& in) { return num(in.compiled.ternarized.rows_kept); });
  row("preprocessTime", "", always, [](const In& in) { return fixed(in.compiled.preprocess.seconds, 3); });
  row("storeBytes", "", always, [](const In& in) { return num(in.compiled.program.store_bytes()); });
  row("bitsetSpan", "", always, [](const In& in) { return num(in.bitset_span); });
#ifdef KOKKOS_ENABLE_OPENMP
  // How idle OpenMP threads wait (solver/main.cpp sets passive unless the user chose).
  row("ompWaitPolicy", "", always, [](const In&) {
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    return quoted(policy ? policy : "default");
  });
#endif
  // The search's layout.
  row("bitsetVariables", "bitset_vars", always, [](const In& in) { return num(in.report.bitset_vars); });
  row("boundsOnlyVariables", "bounds_only_vars", always, [](const In& in) { return num(in.report.bounds_only_vars); });
  row("domainBytesPerTeam", "domain_bytes", always, [](const In& in) { return num(in.report.domain_bytes); });
  row("propagatorBytes", "", always, [](const In& in) { return num(in.compiled.program.propagator_bytes()); });
  row("scratchLevel", "scratch_level", always, [](const In& in) { return num(in.report.scratch_level); });
  row("sharedCarveout", "shared_carveout", always, [](const In& in) { return num(in.report.shared_carveout); });
  row("space", "space", always, [](const In& in) { return quoted(in.report.space); });
  row("teams", "teams", always, [](const In& in) { return num(in.report.teams); });
  row("idleTeams", "idle_teams", always, [](const In& in) { return num(in.report.idle_teams); });
  row("freeTeams", "free_teams", always, [](const In& in) { return num(in.report.free_teams); });
  row("hostTeams", "host_teams", host_rows, [](const In& in) { return num(in.report.host_teams); });
  row("hostNodes", "host_nodes", host_rows, [](const In& in) { return num(in.report.host_nodes); });
  row("fleetWaitTime", "fleet_wait_s", host_rows, [](const In& in) { return fixed(in.report.fleet_wait_s, 3); });
  // The portfolio.
  row("restarts", "restarts", always, [](const In& in) { return num(in.report.restarts); });
  row("neighbourhoods", "neighbourhoods", always, [](const In& in) { return num(in.report.neighbourhoods); });
  row("neighbourhoodsExhausted", "neighbourhoods_exhausted", always,
      [](const In& in) { return num(in.report.neighbourhoods_exhausted); });
  // Learning.
  row("nogoodsLearned", "nogoods_learned", learning, [](const In& in) { return num(in.report.nogoods_learned); });
  row("nogoodsKept", "nogoods_kept", learning, [](const In& in) { return num(in.report.nogoods_kept); });
  row("nogoodsDropped", "nogoods_dropped", learning, [](const In& in) { return num(in.report.nogoods_dropped); });
  row("nogoodsDeleted", "nogoods_deleted", learning, [](const In& in) { return num(in.report.nogoods_deleted); });
  row("nogoodPropagations", "nogood_propagations", learning, [](const In& in) { return num(in.report.nogood_propagations); });
  row("nogoodFailures", "nogood_failures", learning, [](const In& in) { return num(in.report.nogood_failures); });
  row("provedByNogood", "proved_by_nogood", learning, [](const In& in) { return boolean(in.report.proved_by_nogood); });
  // The explaining searches.
  row("explainThreads", "explain_threads", explaining, [](const In& in) { return num(in.report.explain_threads); });
  row("explainNodes", "explain_nodes", explaining, [](const In& in) { return num(in.report.explain_nodes); });
  row("explainConflicts", "explain_conflicts", explaining, [](const In& in) { return num(in.report.explain_conflicts); });
  row("explainLearned", "explain_learned", explaining, [](const In& in) { return num(in.report.explain_learned); });
  row("explainLiterals", "explain_literals", explaining, [](const In& in) { return num(in.report.explain_literals); });
  row("explainExported", "explain_exported", explaining, [](const In& in) { return num(in.report.explain_exported); });
  row("explainResolutions", "explain_resolutions", explaining, [](const In& in) { return num(in.report.explain_resolutions); });
  row("explainRuns", "explain_runs", explaining, [](const In& in) { return num(in.report.explain_runs); });
  row("explainFamilyReasons", "explain_family", explaining, [](const In& in) { return num(in.report.explain_family); });
  row("explainLiftedReasons", "explain_lifted", explaining, [](const In& in) { return num(in.report.explain_lifted); });
  row("explainPropagations", "explain_propagations", explaining, [](const In& in) { return num(in.report.explain_propagations); });
  row("improvementsExplain", "improvements_explain", [](const In& in) { return explaining(in) && in.optimise(); },
      [](const In& in) { return num(in.report.improvements_explain); });
  row("solutionsExplain", "solutions_explain", [](const In& in) { return explaining(in) && !in.optimise(); },
      [](const In& in) { return num(in.report.solutions_explain); });
  row("explainFailed", "explain_failed", [](const In& in) { return explaining(in) && in.report.explain_failed; },
      [](const In&) { return boolean(true); });
  // Optimisation: which rows found the improving solutions, when the best came, the bound.
  const auto optimising = [](const In& in) { return in.optimise(); };
  row("improvementsComplete", "improvements_complete", optimising, [](const In& in) { return num(in.report.improvements_complete); });
  row("improvementsRestart", "improvements_restart", optimising, [](const In& in) { return num(in.report.improvements_restart); });
  row("improvementsLns", "improvements_lns", optimising, [](const In& in) { return num(in.report.improvements_lns); });
  row("improvementsHost", "improvements_host", [](const In& in) { return in.optimise() && host_rows(in); },
      [](const In& in) { return num(in.report.improvements_host); });
  row("timeOfBest", "best_time_s", [](const In& in) { return in.optimise() && in.report.solutions > 0; },
      [](const In& in) { return fixed(in.report.best_time_s, 3); });
  row("objectiveBound", "objective_bound",
      [](const In& in) {
        return in.optimise() && in.report.objective_bound != INT64_MIN && in.report.objective_bound != INT64_MAX;
      },
      [](const In& in) { return num(as_stated(in, in.report.objective_bound)); });
  // Across processes (mpirun).
  row("ranks", "ranks", distributed, [](const In& in) { return num(in.report.ranks); });
  row("mpiWork", "static_chunks", distributed, [](const In& in) { return quoted(in.report.static_chunks ? "static" : "dynamic"); });
  row("chunks", "chunks", distributed, [](const In& in) { return num(in.report.chunks); });
  row("chunkSize", "chunk_size", distributed, [](const In& in) { return num(in.report.chunk_size); });
  row("rankIdleTime", "rank_figures", distributed, [](const In& in) {
    double idle = 0;
    for (const RankFigures& f : in.report.rank_figures) idle += f.idle_s;
    return fixed(idle, 3);
  });
  row("mpiNogoodsReceived", "nogoods_received", distributed, [](const In& in) { return num(in.report.nogoods_received); });
  row("mpiNogoodsAbsorbed", "nogoods_received_absorbed", distributed,
      [](const In& in) { return num(in.report.nogoods_received_absorbed); });
  row("mpiPiecesSent", "split_exported", distributed, [](const In& in) { return num(in.report.split_exported); });
  row("mpiPiecesReceived", "split_imported", distributed, [](const In& in) { return num(in.report.split_imported); });
  // Subproblems, the end game, dives.
  row("subproblems", "subproblems", always, [](const In& in) { return num(in.report.subproblems); });
  row("subproblemsSolved", "subproblems_solved", always, [](const In& in) { return num(in.report.subproblems_solved); });
  row("subproblemsSkipped", "subproblems_skipped", always, [](const In& in) { return num(in.report.subproblems_skipped); });
  row("subproblemRuns", "subproblem_runs", always, [](const In& in) { return num(in.report.subproblem_runs); });
  row("endGameSplit", "end_game_split", always, [](const In& in) { return boolean(in.report.end_game_split); });
  row("splitPieces", "split_pieces", always, [](const In& in) { return num(in.report.split_pieces); });
  row("pathNodes", "path_nodes", always, [](const In& in) { return num(in.report.path_nodes); });
  row("diveCacheDepth", "dive_cache_depth", always, [](const In& in) { return num(in.report.dive_cache_depth); });
  row("diveCacheHits", "dive_cache_hits", always, [](const In& in) { return num(in.report.dive_cache_hits); });
  row("diveCacheMisses", "dive_cache_misses", always, [](const In& in) { return num(in.report.dive_cache_misses); });
  row("divePrefetches", "dive_prefetches", always, [](const In& in) { return num(in.report.dive_prefetches); });
  // The kernel's shape and its launches.
  row("launches", "launches", always, [](const In& in) { return num(in.report.launches); });
  row("teamSize", "team_size", always, [](const In& in) { return num(in.report.team_size); });
  row("vectorLength", "vector_length", always, [](const In& in) { return num(in.report.vector_length); });
  row("snapshots", "snapshots", always, [](const In& in) { return boolean(in.report.snapshots); });
  row("copyDistance", "copy_distance", always, [](const In& in) { return num(in.report.copy_distance); });
  row("storeCopiesPerTeam", "store_slots", always, [](const In& in) { return num(in.report.store_slots); });
  row("fixpoint", "queue_fixpoint", always, [](const In& in) { return quoted(in.report.queue_fixpoint ? "queue" : "ac1"); });
  row("nogoodWatches", "nogood_watches", always, [](const In& in) { return boolean(in.report.nogood_watches); });
  row("readsPerVariable", "reads_per_variable", always, [](const In& in) { return fixed(in.report.reads_per_variable, 2); });
  // Time.
  row("initTime", "", always, [](const In& in) { return fixed(in.init_s, 3); });
  row("solveTime", "solve_time_s", always, [](const In& in) { return fixed(in.report.solve_time_s, 3); });
  row("searchSetupTime", "setup_time_s", always, [](const In& in) { return fixed(in.report.setup_time_s, 3); });
  row("probeTime", "probe_s", always, [](const In& in) { return fixed(in.report.probe_s, 3); });
  row("probeFinished", "probe_finished", always, [](const In& in) { return boolean(in.report.probe_finished); });
  row("nodesPerSecond", "nodes solve_time_s", always, [](const In& in) {
    return fixed(in.report.solve_time_s > 0 ? double(in.report.nodes) / in.report.solve_time_s : 0.0, 0);
  });
  row("objective", "best",
      [](const In& in) { return in.optimise() && in.report.solutions > 0 && in.compiled.objective >= 0; },
      [](const In& in) { return num(as_stated(in, in.report.best)); });
  return t;
}

}  // namespace

const std::vector<Statistic>& statistics_table() {
  static const std::vector<Statistic> table = build_table();
  return table;
}

const std::vector<std::pair<std::string, std::string>>& unprinted_report_fields() {
  static const std::vector<std::pair<std::string, std::string>> fields = {
      {"complete", "the `==========` / `=====UNSATISFIABLE=====` line"},
      {"interrupted", "-v says so; the run ends as after a time limit"},
      {"timed_out", "`=====UNKNOWN=====` or a solution without `==========`"},
      {"subproblem_depth", "subproblems = 2^depth is printed"},
  };
  return fields;
}

void print_statistic(std::ostream& out, const std::string& name, const std::string& value) {
  fmt::print(out, "%%%mzn-stat: {}={}\n", name, value);
}

void print_statistics(std::ostream& out, const StatisticsInput& in) {
  for (const Statistic& s : statistics_table())
    if (!s.when || s.when(in)) print_statistic(out, s.name, s.value(in));
  out << "%%%mzn-stat-end\n";
}

}  // namespace kcp
