#include "solver/options.hpp"

#include <fmt/format.h>

#include "domains/globals.hpp"
#include "search/launch.hpp"

namespace kcp {

const char* option_group_title(OptionGroup g) {
  switch (g) {
    case OptionGroup::user:
      return "Options";
    case OptionGroup::tuning:
      return "Tuning (measured defaults; perf/NOTES.md)";
    case OptionGroup::experiment:
      return "Experiments (kept to repeat a measurement)";
  }
  return "";
}

namespace {

/// CLI11 2.1's NonNegativeNumber and PositiveNumber name their range as "0.000000 to 1797693..." (309
/// digits): the same checks, saying what the value must be.
CLI::Validator number_check(bool zero_allowed) {
  return CLI::Validator(
      [zero_allowed](std::string& s) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(s, v)) return "'" + s + "' is not a number";
        if (zero_allowed ? v >= 0 : v > 0) return {};
        return std::string(zero_allowed ? "must be 0 or more" : "must be more than 0") + ", not " + s;
      },
      zero_allowed ? "NONNEGATIVE" : "POSITIVE");
}
const CLI::Validator non_negative = number_check(true);
const CLI::Validator positive = number_check(false);

/// The user's options: what a MiniZinc user sets (MiniZinc's standard flags and kcp's few of its own).
void add_user_options(CLI::App& app, Options& o) {
  app.option_defaults()->group(option_group_title(OptionGroup::user));
  app.add_option("model", o.model, "FlatZinc model to solve")->required();
  app.add_flag("-a,--all-solutions", o.all, "Satisfaction: print every solution; optimisation: every improving one");
  app.add_option("-n,--num-solutions", o.num_solutions, "Satisfaction: stop after N solutions")
      ->check(positive);
  app.add_flag("-i,--intermediate", o.intermediate, "Optimisation: print every improving solution");
  app.add_flag("-f,--free-search", o.free_search, "Ignore the search annotations");
  app.add_option("-p,--parallel", o.threads, "Host threads (OpenMP); 0: Kokkos' default")
      ->check(non_negative);
  app.add_option("-r,--random-seed", o.search.seed, "Seed for random choices");
  app.add_flag("-s,--statistics", o.statistics, "Print statistics as %%%mzn-stat lines");
  app.add_option("-t,--time-limit", o.time_limit_ms, "Time limit in milliseconds (0: none)")
      ->check(non_negative);
  app.add_flag("-v,--verbose", o.verbose, "Progress messages on stderr");
  std::vector<std::string> spaces = available_spaces();
  spaces.insert(spaces.begin(), "default");
  app.add_option("--space", o.space, "Execution space to search on")->check(CLI::IsMember(spaces));
  app.add_option("--learn", o.learn,
                 "What kcp learns: none; restart (when optimising, the portfolio's runs from the root leave "
                 "reduced nld-nogoods for every team, and a proof when one is searched to the end); all "
                 "(neighbourhoods too); or explain (restart, and on one more host thread a search that explains "
                 "its failures and learns clauses by conflict analysis, the short ones shared; on satisfaction "
                 "models with -a or -f it also finds solutions, and asked for one solution it proves unsatisfiability; the "
                 "default)")
      ->check(CLI::IsMember({"none", "restart", "all", "explain"}));
  app.add_flag("--check,!--no-check", o.check, "Check every solution with the independent checker before printing");
  app.add_option("--verify", o.verify,
                 "Check the solutions in FILE (any solver's FlatZinc output) against the model instead of "
                 "solving; exit status 3 when one is rejected")
      ->check(CLI::ExistingFile);
}

/// Tuning: settings with measured defaults (perf/DECISIONS.md says on what), for runs on other machines
/// and models. The fleet: the teams, their shape, the split, slices and the probe.
void add_fleet_options(CLI::App& app, Options& o) {
  app.option_defaults()->group(option_group_title(OptionGroup::tuning));
  app.add_option("--teams", o.search.teams, "Teams searching at once (0: as many as the backend runs at once)")
      ->check(non_negative);
  app.add_option("--team-size", o.search.team_size, "Threads per team (0: the backend's default)")
      ->check(non_negative);
  app.add_option("--vector-length", o.search.vector_length, "Vector lanes per thread (0: the backend's default)")
      ->check(non_negative);
  app.add_option("--shared-carveout", o.shared_carveout,
                 "CUDA, Kokkos 3: the search kernel's shared memory share of the SM's L1 and shared memory, in "
                 "percent; fit: what its resident teams need, kokkos: Kokkos' choice (all of it)")
      ->check(CLI::IsMember({"fit", "kokkos"}) | CLI::Range(0, 100));
  app.add_option("--subproblems", o.search.subproblem_depth,
                 "Split the root into 2^P subproblems (-1: 0 for one team, else at least 16 per complete team, 4 when "
                 "optimising with --end-game-split)")
      ->check(CLI::Range(-1, 40));
  app.add_option("--subproblem-path", o.subproblem_path,
                 "The decisions on the subproblems' paths: branching (as the search annotations or free search "
                 "branch), halves (the chosen variable's values split in two halves by count, so that the "
                 "subproblems are more even; not with satisfaction's first solutions in order), or auto (the "
                 "default: halves under mpirun on GPUs, else branching)")
      ->check(CLI::IsMember({"branching", "halves", "auto"}));
  app.add_option("--end-game-split", o.end_game_split,
                 "Once no subproblem is left, teams with none take open branches of the subproblems other teams "
                 "still search: on (the default) or off (never with satisfaction's first solutions: they keep "
                 "the sequential search's order)")
      ->check(CLI::IsMember({"on", "off"}));
  // These two may be given twice, the last one counting (test scripts add them to arguments that may have them).
  app.add_option("--slice-nodes", o.search.slice_nodes, "Nodes per team per kernel launch (0: adapted to launches of ~0.05 s)")
      ->check(non_negative)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--stop-poll", o.search.stop_poll,
                 "On a GPU: nodes between a team's reads of the stop flag, which lives in host memory (0, the "
                 "default: " + std::to_string(default_stop_poll_gpu) + ", or the teams / " +
                     std::to_string(stop_poll_teams_per_node) + " where more; perf/NOTES.md entry 66)")
      ->check(non_negative);
  app.add_option("--probe-ms", o.probe_ms,
                 "With the default teams and subproblems on a backend of several teams: search with one team "
                 "(beside a GPU: one host thread) for up to this long first, and keep its answer when it "
                 "finishes (0: no probe)")
      ->check(non_negative)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

/// Tuning, the portfolio and learning: the free teams' share, restarts, LNS, the explaining searches,
/// the nogood pool, how ranks share the subproblems.
void add_portfolio_options(CLI::App& app, Options& o) {
  app.option_defaults()->group(option_group_title(OptionGroup::tuning));
  app.add_option("--portfolio", o.portfolio,
                 "Optimisation: the share of the teams running restarts and large-neighbourhood search beside "
                 "the complete search, which alone proves optimality (0: complete search only; one team "
                 "alternates between the two; default " +
                     fmt::format("{}, {} on a GPU, {} on rank 0 under mpirun on GPUs", default_portfolio,
                                 default_portfolio_gpu, default_portfolio_gpu_ranks) +
                     ")")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--rank-portfolio", o.rank_portfolio,
                 "Under mpirun: the share of the teams running restarts and large-neighbourhood search on ranks "
                 "other than 0 (their complete search gets the rest; the host's teams beside a GPU run on every "
                 "rank either way; -1, the default: 0 on GPUs, else as --portfolio)")
      ->check(CLI::Range(-1.0, 1.0));
  app.add_option("--host-teams", o.search.host_teams,
                 "Optimisation: host threads running restarts and large-neighbourhood search beside the "
                 "backend's teams, in the same process, sharing the best solution (0: none; -1: every host "
                 "thread; -2, the default: -1 on a GPU, 0 on the host's backends)")
      ->check(CLI::Range(-2, 1 << 20));
  app.add_option("--free-var-choice", o.free_var_choice,
                 "Variable choice of free search (-f, and the variables no annotation covers): dom_w_deg "
                 "(failure-weighted, the default) or first_fail; the value choice splits the domain")
      ->check(CLI::IsMember({"dom_w_deg", "first_fail"}));
  app.add_option("--restart", o.restart,
                 "Failure limits of the portfolio's runs: luby or geometric (times --restart-base), or none "
                 "(no restarts or LNS: complete search only)")
      ->check(CLI::IsMember({"luby", "geometric", "none"}));
  app.add_option("--restart-base", o.search.restart_base, "Failures of the restart sequence's unit (default 100)")
      ->check(positive);
  app.add_flag("--lns,!--no-lns", o.search.lns,
               "The portfolio's runs search neighbourhoods of the best solution once one exists (default on; "
               "off: restarts only)");
  app.add_option("--restart-share", o.search.restart_share,
                 "Once a solution exists, the share of the portfolio's runs that still restart from the root "
                 "instead of searching a neighbourhood (they are the runs --learn restart learns from; default 0.2)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_flag("--phase-saving,!--no-phase-saving", o.search.phase_saving,
               "The portfolio's runs branch towards the best solution's values first once one exists (solution "
               "phase saving; default on)");
  app.add_option("--explain-threads", o.search.explain_threads,
                 "With --learn explain: explaining searches per process, each on a host thread, in its own variable "
                 "order and restart unit, sharing their clauses (0, the default: one per four host threads beside "
                 "a GPU, at most four, taken from --host-teams -1's; one on the host's backends)")
      ->check(CLI::Range(0, 256));
  app.add_option("--explain-length", o.search.explain_export_length,
                 "With --learn explain: the longest learned clause shared with every team, in literals (default 8)")
      ->check(CLI::Range(0, 1 << 16));
  app.add_option("--nogood-capacity", o.search.nogood_capacity,
                 "Nogoods the learned pool holds (the least active half goes when it is full; default 1024)")
      ->check(CLI::Range(1, 1 << 24));
  app.add_option("--nogood-length", o.search.nogood_max_length, "Longest nogood kept, in literals (default 8)")
      ->check(CLI::Range(1, 1 << 16));
  app.add_option("--mpi-work", o.mpi_work,
                 "Under mpirun: how the ranks share the subproblems: dynamic (chunks from one counter on rank 0, "
                 "the default) or static (chunks dealt round-robin by rank)")
      ->check(CLI::IsMember({"dynamic", "static"}));
}

/// Tuning, the model's form and the store: preprocessing, the global families, bitsets, the fixpoint,
/// store copies, stacks.
void add_store_options(CLI::App& app, Options& o) {
  app.option_defaults()->group(option_group_title(OptionGroup::tuning));
  app.add_flag("--preprocess,!--no-preprocess", o.compile.preprocess,
               "Equality merging, root propagation and removal of entailed propagators (default on)");
  {
    std::vector<std::string> names;
    std::string list, host_decomposed, gpu_decomposed;
    auto join = [](std::string& to, const char* name) { to += (to.empty() ? "" : ", ") + std::string(name); };
    for_each_global_family([&](auto family, int) {
      if (!family.decomposable) return;  // always native (element): no choice to make
      names.push_back(family.name);
      join(list, family.name);
      if (!family.native_on_host) join(host_decomposed, family.name);
      if (!family.native_on_gpu) join(gpu_decomposed, family.name);
    });
    app.add_option("--global", o.global,
                   "Propagate this global family natively, where the backend's default is its decomposition "
                   "(repeatable; one of " + list + "; decomposed by default on the host: " +
                       (host_decomposed.empty() ? "none" : host_decomposed) + "; on GPUs: " +
                       (gpu_decomposed.empty() ? "none" : gpu_decomposed) + ", and all_different over more than " +
                       std::to_string(AllDifferent::native_max_arity_gpu) + " variables unless asked for)")
        ->check(CLI::IsMember(names));
    app.add_option("--no-global", o.no_global,
                   "Compile this global family as a decomposition instead (repeatable; one of " + list + ")")
        ->check(CLI::IsMember(names));
  }
  app.add_option("--bitset-span", o.bitset_span,
                 "Variables whose domain spans at most K values keep a bitset of the values left (domains with "
                 "holes), the narrowest first while all of them fit in " + std::to_string(default_bitset_words) +
                     " 64-bit words; the others keep bounds only (statistic boundsOnlyVariables). 0: bounds only for "
                     "all (default " + std::to_string(default_bitset_span) + "; on a GPU 0 unless the annotated search reads holes: "
                     "indomain_median/random, or first_fail, anti_first_fail, most_constrained, dom_w_deg, max_regret; "
                     "perf/NOTES.md entry 47)")
      ->check(CLI::Range(std::int64_t(0), std::int64_t(1) << 20));
  app.add_option("--fixpoint", o.fixpoint,
                 "queue: run only the propagators of changed variables; ac1: every propagator each iteration; auto "
                 "(default): queue, but ac1 on GPUs when a variable is read by over 16 propagators on average")
      ->check(CLI::IsMember({"auto", "queue", "ac1"}));
  app.add_option("--max-fixpoint-iterations", o.search.max_fixpoint_iterations,
                 "Per node; a node still changing after that many is branched on (0: no limit)")
      ->check(non_negative);
  app.add_flag("--snapshot,!--no-snapshot", o.search.snapshots,
               "Backtrack from saved copies of stores, not from the root (default on)");
  app.add_option("--copy-distance", o.search.copy_distance,
                 fmt::format("Copy the store every K levels below a subproblem's root and recompute a node from the "
                             "deepest copy above it (default: {0}, or wider where --copy-budget gives a team fewer than "
                             "{1} copies, so that they reach {1} levels, at most {2} apart; 0: copy only the "
                             "subproblem's root)",
                             default_copy_distance, copy_reach_levels, max_auto_copy_distance))
      ->check(non_negative);
  app.add_option_function<double>(
         "--copy-budget", [&o](double mib) { o.search.copy_budget_bytes = mib * 1024.0 * 1024.0; },
         fmt::format("Memory the copies of stores may take over all teams, in MiB (default {}); the levels below the "
                     "last copy that fits replay from it (statistic storeCopiesPerTeam; perf/NOTES.md entry 66)",
                     default_copy_budget_bytes / (1024.0 * 1024.0)))
      ->check(positive);
  app.add_option("--max-depth", o.search.max_depth, "Decisions per team's stack (0: sized from the model)")
      ->check(non_negative);
}

/// Experiments: switches kept so that a measurement can be repeated; one that measurement retires goes
/// (its figures stay in perf/NOTES.md).
void add_experiment_options(CLI::App& app, Options& o) {
  app.option_defaults()->group(option_group_title(OptionGroup::experiment));
  app.add_option("--scratch-level", o.search.scratch_level, "Team scratch level of the store (-1: 0 when it fits)")
      ->check(CLI::Range(-1, 1));
  app.add_option("--subproblem-runs", o.search.subproblem_runs,
                 "Complete teams take runs of up to N consecutive subproblems (fewer when what is left over the "
                 "teams is less; default 1: one at a time, as runs measured no faster)")
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("--end-game-givers", o.end_game_givers,
                 "Under mpirun with --end-game-split: which teams give the pieces other ranks ask for: any, "
                 "shallow (the quarter of the busy teams whose work starts shallowest: larger pieces), or auto "
                 "(the default: shallow on GPUs, else any)")
      ->check(CLI::IsMember({"any", "shallow", "auto"}));
  app.add_option("--mpi-explain", o.mpi_explain,
                 "Under mpirun with --learn explain: all (every rank runs an explaining search in its own variable "
                 "order and sends the clauses it shares to the others; the default) or root (rank 0's alone)")
      ->check(CLI::IsMember({"all", "root"}));
  app.add_option("--nogood-watches", o.nogood_watches,
                 "Teams watch two literals of each nogood, so that only those wake it: on, off, or auto (the "
                 "default: on)")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  app.add_flag("--dive-cache,!--no-dive-cache", o.search.dive_cache,
               "Teams share the stores at one depth of their dives into the subproblems, and a dive starts from "
               "there when another team reached it (default on)");
  app.add_flag("--sort,!--no-sort", o.search.sort_propagators, "Order ternary propagators by operation (default on)");
  app.add_flag("--ternary-rows", o.compile.ternary_rows,
               "Rewrite linear rows as ternary propagators x = y op z, Turbo's form (to measure native rows)");
  app.add_option("--lane-row-terms", o.search.lane_row_terms,
                 "Linear rows of at most K terms run on one vector lane each, longer ones on a vector group")
      ->check(non_negative);
}

}  // namespace

void add_options(CLI::App& app, Options& o) {
  add_user_options(app, o);
  add_fleet_options(app, o);
  add_portfolio_options(app, o);
  add_store_options(app, o);
  add_experiment_options(app, o);
  app.option_defaults()->group(option_group_title(OptionGroup::user));
}

std::string help_text(CLI::App& app, bool all) {
  if (!all) {
    // CLI11 leaves an option of the empty group out of the help.
    for (CLI::Option* opt : app.get_options([](CLI::Option*) { return true; }))
      if (opt->get_group() != option_group_title(OptionGroup::user)) opt->group("");
  }
  std::string text = app.help();
  while (text.size() > 1 && text[text.size() - 1] == '\n' && text[text.size() - 2] == '\n') text.pop_back();
  return text;
}

}  // namespace kcp
