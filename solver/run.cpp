#include "solver/run.hpp"

#include "search/launch.hpp"
#include "search/solve.hpp"
#include "solver/compile.hpp"
#include "solver/fzn/checker.hpp"
#include "solver/fzn/output.hpp"
#include "solver/fzn/parser.hpp"
#include "solver/fzn/solution_reader.hpp"
#include "solver/search_plan.hpp"

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <new>
#include <ostream>
#include <streambuf>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace kcp {

namespace {

struct Options {
  std::string model;
  bool all = false;
  std::int64_t num_solutions = 1;
  bool intermediate = false;
  bool free_search = false;
  int threads = 0;
  std::uint64_t seed = 0;
  bool statistics = false;
  std::int64_t time_limit_ms = 0;
  bool verbose = false;
  std::string space = "default";
  int team_size = 0;
  int vector_length = 0;
  int scratch_level = -1;
  std::string shared_carveout = "fit";
  std::int64_t slice_nodes = 0;
  int probe_ms = 20;
  int teams = 0;
  int subproblem_depth = -1;
  int subproblem_runs = 1;
  std::string subproblem_path = "auto";
  std::string end_game_givers = "auto";
  int max_depth = 0;
  bool sort_propagators = true;
  bool local_fixpoint = false;
  bool reconverge = true;
  std::vector<std::string> global, no_global;  ///< global families forced native / decomposed
  bool ternary_rows = false;
  std::string verify;
  int lane_row_terms = default_lane_row_terms;
  bool snapshots = true;
  bool dive_cache = true;
  double portfolio = -1;
  double rank_portfolio = -1;
  std::string free_var_choice = "dom_w_deg";
  std::string restart = "luby";
  std::int64_t restart_base = 100;
  bool lns = true;
  bool phase_saving = true;
  bool lns_windows = false;
  double restart_share = 0.2;
  std::string learn = "explain";
  std::string mpi_work = "dynamic";
  std::string mpi_explain = "all";
  int nogood_capacity = 1024;
  int nogood_max_length = 8;
  std::string nogood_watches = "auto";
  std::string end_game_split = "on";
  int explain_export_length = 8;
  int host_teams = kcp::host_teams_auto;
  int explain_threads = kcp::explain_threads_auto;
  int copy_distance = kcp::default_copy_distance;
  std::string fixpoint = "auto";
  bool preprocess = true;
  int max_fixpoint_iterations = 4096;
  std::int64_t bitset_span = default_bitset_span;
  bool bitset_span_given = false;  ///< --bitset-span on the command line (see solve)
#ifdef NDEBUG
  bool check = false;
#else
  bool check = true;  // debug builds check every solution
#endif
};

void add_options(CLI::App& app, Options& o) {
  app.add_option("model", o.model, "FlatZinc model to solve")->required();
  app.add_flag("-a,--all-solutions", o.all, "Satisfaction: print every solution; optimisation: every improving one");
  app.add_option("-n,--num-solutions", o.num_solutions, "Satisfaction: stop after N solutions")
      ->check(CLI::PositiveNumber);
  app.add_flag("-i,--intermediate", o.intermediate, "Optimisation: print every improving solution");
  app.add_flag("-f,--free-search", o.free_search, "Ignore the search annotations");
  app.add_option("-p,--parallel", o.threads, "Host threads (OpenMP); 0: Kokkos' default")
      ->check(CLI::NonNegativeNumber);
  app.add_option("-r,--random-seed", o.seed, "Seed for random choices");
  app.add_flag("-s,--statistics", o.statistics, "Print statistics as %%%mzn-stat lines");
  app.add_option("-t,--time-limit", o.time_limit_ms, "Time limit in milliseconds (0: none)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("-v,--verbose", o.verbose, "Progress messages on stderr");
  app.add_option("--verify", o.verify,
                 "Check the solutions in FILE (any solver's FlatZinc output) against the model instead of "
                 "solving; exit status 3 when one is rejected")
      ->check(CLI::ExistingFile);
  std::vector<std::string> spaces = available_spaces();
  spaces.insert(spaces.begin(), "default");
  app.add_option("--space", o.space, "Execution space to search on")->check(CLI::IsMember(spaces));
  app.add_option("--team-size", o.team_size, "Threads per team (0: the backend's default)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--vector-length", o.vector_length, "Vector lanes per thread (0: the backend's default)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--scratch-level", o.scratch_level, "Team scratch level of the store (-1: 0 when it fits)")
      ->check(CLI::Range(-1, 1));
  app.add_option("--shared-carveout", o.shared_carveout,
                 "CUDA, Kokkos 3: the search kernel's shared memory share of the SM's L1 and shared memory, in "
                 "percent; fit: what its resident teams need, kokkos: Kokkos' choice (all of it)")
      ->check(CLI::IsMember({"fit", "kokkos"}) | CLI::Range(0, 100));
  app.add_option("--teams", o.teams, "Teams searching at once (0: as many as the backend runs at once)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--subproblems", o.subproblem_depth,
                 "Split the root into 2^P subproblems (-1: 0 for one team, else at least 16 per complete team, 4 when "
                 "optimising with --end-game-split)")
      ->check(CLI::Range(-1, 40));
  app.add_option("--subproblem-runs", o.subproblem_runs,
                 "Complete teams take runs of up to N consecutive subproblems (fewer when what is left over the "
                 "teams is less; default 1: one at a time, as runs measured no faster)")
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("--subproblem-path", o.subproblem_path,
                 "The decisions on the subproblems' paths: branching (as the search annotations or free search "
                 "branch), halves (the chosen variable's values split in two halves by count, so that the "
                 "subproblems are more even; not with satisfaction's first solutions in order), or auto (the "
                 "default: halves under mpirun on GPUs, else branching)")
      ->check(CLI::IsMember({"branching", "halves", "auto"}));
  app.add_option("--end-game-givers", o.end_game_givers,
                 "Under mpirun with --end-game-split: which teams give the pieces other ranks ask for: any, "
                 "shallow (the quarter of the busy teams whose work starts shallowest: larger pieces), or auto "
                 "(the default: shallow on GPUs, else any)")
      ->check(CLI::IsMember({"any", "shallow", "auto"}));
  app.add_option("--end-game-split", o.end_game_split,
                 "Once no subproblem is left, teams with none take open branches of the subproblems other teams "
                 "still search: on (the default) or off (never with satisfaction's first solutions: they keep "
                 "the sequential search's order)")
      ->check(CLI::IsMember({"on", "off"}));
  app.add_option("--max-depth", o.max_depth, "Decisions per team's stack (0: sized from the model)")
      ->check(CLI::NonNegativeNumber);
  // These two may be given twice, the last one counting (test scripts add them to arguments that may have them).
  app.add_option("--slice-nodes", o.slice_nodes, "Nodes per team per kernel launch (0: adapted to ~0.1 s launches)")
      ->check(CLI::NonNegativeNumber)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--probe-ms", o.probe_ms,
                 "With the default teams and subproblems on a backend of several teams: search with one team "
                 "(beside a GPU: one host thread) for up to this long first, and keep its answer when it "
                 "finishes (0: no probe)")
      ->check(CLI::NonNegativeNumber)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
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
  app.add_option("--host-teams", o.host_teams,
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
  app.add_option("--restart-base", o.restart_base, "Failures of the restart sequence's unit (default 100)")
      ->check(CLI::PositiveNumber);
  app.add_flag("--lns,!--no-lns", o.lns,
               "The portfolio's runs search neighbourhoods of the best solution once one exists (default on; "
               "off: restarts only)");
  app.add_option("--restart-share", o.restart_share,
                 "Once a solution exists, the share of the portfolio's runs that still restart from the root "
                 "instead of searching a neighbourhood (they are the runs --learn restart learns from; default 0.2)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_flag("--lns-windows,!--no-lns-windows", o.lns_windows,
               "Every other LNS neighbourhood frees a window of consecutive decision variables instead of a "
               "random share (default off)");
  app.add_flag("--phase-saving,!--no-phase-saving", o.phase_saving,
               "The portfolio's runs branch towards the best solution's values first once one exists (solution "
               "phase saving; default on)");
  app.add_option("--learn", o.learn,
                 "What kcp learns: none; restart (when optimising, the portfolio's runs from the root leave "
                 "reduced nld-nogoods for every team, and a proof when one is searched to the end); all "
                 "(neighbourhoods too); or explain (restart, and on one more host thread a search that explains "
                 "its failures and learns clauses by conflict analysis, the short ones shared; on satisfaction "
                 "models with -a or -f it also finds solutions; the default)")
      ->check(CLI::IsMember({"none", "restart", "all", "explain"}));
  app.add_option("--explain-threads", o.explain_threads,
                 "With --learn explain: explaining searches per process, each on a host thread, in its own variable "
                 "order and restart unit, sharing their clauses (0, the default: one per four host threads beside "
                 "a GPU, at most four, taken from --host-teams -1's; one on the host's backends)")
      ->check(CLI::Range(0, 256));
  app.add_option("--mpi-work", o.mpi_work,
                 "Under mpirun: how the ranks share the subproblems: dynamic (chunks from one counter on rank 0, "
                 "the default) or static (chunks dealt round-robin by rank)")
      ->check(CLI::IsMember({"dynamic", "static"}));
  app.add_option("--mpi-explain", o.mpi_explain,
                 "Under mpirun with --learn explain: all (every rank runs an explaining search in its own variable "
                 "order and sends the clauses it shares to the others; the default) or root (rank 0's alone)")
      ->check(CLI::IsMember({"all", "root"}));
  app.add_option("--explain-length", o.explain_export_length,
                 "With --learn explain: the longest learned clause shared with every team, in literals (default 8)")
      ->check(CLI::Range(0, 1 << 16));
  app.add_option("--nogood-capacity", o.nogood_capacity,
                 "Nogoods the learned pool holds (the least active half goes when it is full; default 1024)")
      ->check(CLI::Range(1, 1 << 24));
  app.add_option("--nogood-length", o.nogood_max_length, "Longest nogood kept, in literals (default 8)")
      ->check(CLI::Range(1, 1 << 16));
  app.add_option("--nogood-watches", o.nogood_watches,
                 "Teams watch two literals of each nogood, so that only those wake it: on, off, or auto (the "
                 "default: on)")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  app.add_flag("--preprocess,!--no-preprocess", o.preprocess,
               "Equality merging, root propagation and removal of entailed propagators (default on)");
  {
    std::vector<std::string> names;
    std::string list, host_decomposed, gpu_decomposed;
    auto join = [](std::string& to, const char* name) { to += (to.empty() ? "" : ", ") + std::string(name); };
    for_each_global_family([&](auto family, int) {
      names.push_back(family.name);
      join(list, family.name);
      if (!family.native_on_host) join(host_decomposed, family.name);
      if (!family.native_on_gpu) join(gpu_decomposed, family.name);
    });
    app.add_option("--global", o.global,
                   "Propagate this global family natively, where the backend's default is its decomposition "
                   "(repeatable; one of " + list + "; decomposed by default on the host: " +
                       (host_decomposed.empty() ? "none" : host_decomposed) + "; on GPUs: " +
                       (gpu_decomposed.empty() ? "none" : gpu_decomposed) + ")")
        ->check(CLI::IsMember(names));
    app.add_option("--no-global", o.no_global,
                   "Compile this global family as a decomposition instead (repeatable; one of " + list + ")")
        ->check(CLI::IsMember(names));
  }
  app.add_option("--max-fixpoint-iterations", o.max_fixpoint_iterations,
                 "Per node; a node still changing after that many is branched on (0: no limit)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--bitset-span", o.bitset_span,
                 "Variables whose domain spans at most K values keep a bitset of the values left (domains with "
                 "holes), the narrowest first while all of them fit in " + std::to_string(default_bitset_words) +
                     " 64-bit words; the others keep bounds only (statistic boundsOnlyVariables). 0: bounds only for "
                     "all (default " + std::to_string(default_bitset_span) + "; on a GPU 0 unless the annotated search reads holes: "
                     "indomain_median/random, or first_fail, anti_first_fail, most_constrained, dom_w_deg, max_regret; "
                     "perf/NOTES.md entry 47)")
      ->check(CLI::Range(std::int64_t(0), std::int64_t(1) << 20));
  app.add_flag("--sort,!--no-sort", o.sort_propagators, "Order ternary propagators by operation (default on)");
  app.add_flag("--local-fixpoint", o.local_fixpoint,
               "Each vector group runs its ternary propagators to a local fixpoint first (an option to measure)");
  app.add_flag("--reconverge,!--no-reconverge", o.reconverge,
               "Start each chunk of lane propagators on a reconverged vector group (default on; off to measure)");
  app.add_flag("--ternary-rows", o.ternary_rows,
               "Rewrite linear rows as ternary propagators x = y op z, Turbo's form (to measure native rows)");
  app.add_option("--lane-row-terms", o.lane_row_terms,
                 "Linear rows of at most K terms run on one vector lane each, longer ones on a vector group")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--fixpoint", o.fixpoint,
                 "queue: run only the propagators of changed variables; ac1: every propagator each iteration; auto "
                 "(default): queue, but ac1 on GPUs when a variable is read by over 16 propagators on average")
      ->check(CLI::IsMember({"auto", "queue", "ac1"}));
  app.add_flag("--snapshot,!--no-snapshot", o.snapshots,
               "Backtrack from saved copies of stores, not from the root (default on)");
  app.add_flag("--dive-cache,!--no-dive-cache", o.dive_cache,
               "Teams share the stores at one depth of their dives into the subproblems, and a dive starts from "
               "there when another team reached it (default on)");
  app.add_option("--copy-distance", o.copy_distance,
                 "Copy the store every K levels below a subproblem's root and recompute a node from the deepest "
                 "copy above it (default " +
                     std::to_string(kcp::default_copy_distance) + "); 0: copy only the subproblem's root")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--check,!--no-check", o.check, "Check every solution with the independent checker before printing");
}

/// Set by SIGINT/SIGTERM: the search stops at the end of its current launch, and kcp prints the best
/// solution and the statistics.
volatile std::sig_atomic_t interrupted = 0;
extern "C" void on_signal(int) { interrupted = 1; }

/// Installs the handlers for the lifetime of a solve and restores the previous ones.
class SignalScope {
 public:
  SignalScope() {
    interrupted = 0;
    old_int_ = std::signal(SIGINT, on_signal);
    old_term_ = std::signal(SIGTERM, on_signal);
  }
  ~SignalScope() {
    std::signal(SIGINT, old_int_);
    std::signal(SIGTERM, old_term_);
  }
  SignalScope(const SignalScope&) = delete;
  SignalScope& operator=(const SignalScope&) = delete;

 private:
  void (*old_int_)(int);
  void (*old_term_)(int);
};

/// The message for an error that is not a fzn::LocatedError: out of memory (std::bad_alloc, or Kokkos'
/// allocation failure) and system errors (a thread that cannot start) name what kcp was `doing`, which
/// solve and verify keep up to date; Kokkos' trailing traceback line is dropped.
std::string describe(const std::exception& e, const std::string& doing) {
  std::string what = e.what();
  if (const auto at = what.find("Traceback functionality not available"); at != std::string::npos) what.erase(at);
  while (!what.empty() && std::isspace(static_cast<unsigned char>(what.back()))) what.pop_back();
  // Kokkos 3.4: "... failed to allocate memory ..."; 4.x: "Kokkos ERROR: Host memory space failed to allocate
  // 186.3 GiB (label=...)", a std::runtime_error either way.
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr || what.find("failed to allocate") != std::string::npos)
    return "out of memory while " + doing + (what == "std::bad_alloc" ? "" : " (" + what + ")");
  if (dynamic_cast<const std::system_error*>(&e) != nullptr)
    return "the system refused a resource (" + what + ") while " + doing;
  return what;
}

void stat(std::ostream& out, const char* name, const std::string& value) {
  fmt::print(out, "%%%mzn-stat: {}={}\n", name, value);
}

int solve(const Options& o, std::ostream& out, std::ostream& err, std::string& doing) {
  const auto t0 = std::chrono::steady_clock::now();
  doing = "parsing " + o.model;
  const fzn::Model model = fzn::parse_file(o.model);
  // On a GPU bitsets are on by default only where the annotated search reads them (value decisions x = v |
  // x != v, a variable choice by domain size or regret: search_reads_holes), or when asked for. Elsewhere
  // they cost a GPU 0.25-0.9x the nodes/s on 12 of 14 development instances at the same or a worse
  // objective, while first_fail models with all_different gain most (latin squares, sudoku, queens;
  // perf/NOTES.md entry 47; entry 45 gave the GPU its event-driven fixpoint with bitsets back).
  const bool gpu = space_is_gpu(o.space);
  std::int64_t bitset_span = o.bitset_span;
  if (gpu && !o.bitset_span_given && (o.free_search || !search_reads_holes(model))) bitset_span = 0;
  CompileOptions co;
  co.preprocess = o.preprocess;
  co.ternary_rows = o.ternary_rows;
  co.bitset_span = bitset_span;
  // Each global family native or decomposed: the backend's default (domains/globals.hpp), then the flags.
  for_each_global_family([&](auto family, int f) {
    co.native_global[std::size_t(f)] = gpu ? family.native_on_gpu : family.native_on_host;
  });
  for (const std::string& name : o.global) co.native_global[std::size_t(global_family_named(name))] = true;
  for (const std::string& name : o.no_global) co.native_global[std::size_t(global_family_named(name))] = false;
  if (o.time_limit_ms > 0) co.deadline = t0 + std::chrono::milliseconds(o.time_limit_ms);
  doing = "compiling " + o.model;
  const Compiled compiled = compile(model, co);
  const auto since_t0 = [&]() { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  double init_s = since_t0();
  // Under mpirun every rank waits here for the others (their processes, MPI and the GPU's context start
  // unevenly: 25-55 ms apart on four H200s, perf/NOTES.md entry 41), so that each rank's search, and its
  // clock (solveTime), starts with the others'; the wait counts in initTime. Whether the limit leaves
  // time to search is decided alike on every rank (one rank searching alone would wait for the others
  // forever).
  bool no_time = o.time_limit_ms > 0 && init_s * 1000.0 >= o.time_limit_ms && !compiled.root_failed;
  if (Peers* const peers = process_peers(); peers != nullptr && peers->size() > 1) {
    no_time = peers->all_max(no_time ? 1 : 0) == 1;
    init_s = since_t0();
  }
  if (o.verbose)
    fmt::print(err, "kcp: {} variables, {} rows after compile ({:.3f} s{})\n", compiled.program.num_vars(),
               compiled.program.num_rows(), init_s,
               compiled.preprocess.stopped ? "; the time limit stopped the root fixpoint" : "");

  SearchOptions so;
  {
    SearchPlan plan = plan_search(model, compiled);
    // LNS fixes the model's decision variables: the annotated ones (under -f too), else the output
    // variables; not the variables the model defines from them (fixing those fixes little more).
    for (const SearchPhase& ph : plan.phases) so.neighbourhood.insert(so.neighbourhood.end(), ph.vars.begin(), ph.vars.end());
    if (so.neighbourhood.empty())
      for (const fzn::Output& item : model.outputs)
        for (const fzn::Term& t : item.elements)
          if (t.is_variable() && !compiled.model_vars.at(std::size_t(t.var)).is_constant)
            so.neighbourhood.push_back(compiled.model_vars.at(std::size_t(t.var)).var);
    if (!o.free_search) {
      for (const std::string& w : plan.warnings) fmt::print(err, "kcp: warning: {}\n", w);
      so.phases = std::move(plan.phases);
    }
  }
  so.seed = o.seed;
  so.teams = o.teams;
  so.subproblem_depth = o.subproblem_depth;
  so.subproblem_runs = o.subproblem_runs;
  // Under mpirun on GPUs: halved paths, shallow givers, and ranks after the first giving their GPU's
  // teams all to the complete search (diameterc-mst on four H200s 2.05 -> 0.96 s, perf/NOTES.md entry 36),
  // rank 0's a twentieth free (below, entry 38); on the host's backends, unmeasured there, as in one process.
  Peers* const peers = process_peers();
  const bool gpu_ranks = gpu && peers != nullptr && peers->size() > 1;
  so.halve_path = o.subproblem_path == "halves" || (o.subproblem_path == "auto" && gpu_ranks);
  so.shallow_givers = o.end_game_givers == "shallow" || (o.end_game_givers == "auto" && gpu_ranks);
  so.end_game_split = o.end_game_split == "on";
  so.max_depth = o.max_depth;
  so.interrupted = &interrupted;
  so.objective = compiled.objective;
  so.max_solutions = o.all ? 0 : o.num_solutions;
  so.ordered_solutions = !o.free_search;  // the sequential order is the annotations'
  // What parsing and compiling left of the limit; never 0, which would mean no limit.
  so.time_limit_s = o.time_limit_ms > 0 ? std::max(1e-3, o.time_limit_ms / 1000.0 - init_s) : 0;
  so.slice_nodes = o.slice_nodes;
  so.bitset_span = bitset_span;
  so.probe_s = o.probe_ms / 1000.0;
  so.team_size = o.team_size;
  so.vector_length = o.vector_length;
  so.scratch_level = o.scratch_level;
  so.shared_carveout = o.shared_carveout == "fit" ? -1 : o.shared_carveout == "kokkos" ? -2 : std::stoi(o.shared_carveout);
  so.sort_propagators = o.sort_propagators;
  so.local_fixpoint = o.local_fixpoint;
  so.reconverge = o.reconverge;
  so.lane_row_terms = o.lane_row_terms;
  so.snapshots = o.snapshots;
  so.dive_cache = o.dive_cache;
  so.copy_distance = o.copy_distance;
  so.fixpoint_mode = o.fixpoint == "queue" ? FixpointMode::queue
                     : o.fixpoint == "ac1" ? FixpointMode::ac1
                                           : FixpointMode::automatic;
  so.max_fixpoint_iterations = o.max_fixpoint_iterations;
  so.portfolio = o.portfolio >= 0 ? o.portfolio : gpu_ranks ? default_portfolio_gpu_ranks : -1.0;
  so.rank_portfolio = o.rank_portfolio >= 0 ? o.rank_portfolio : gpu_ranks ? 0.0 : -1.0;
  so.free_var_choice = o.free_var_choice == "first_fail" ? VarChoice::first_fail : VarChoice::dom_wdeg;
  so.restart = o.restart == "geometric" ? RestartSequence::geometric
               : o.restart == "none"    ? RestartSequence::none
                                        : RestartSequence::luby;
  so.restart_base = o.restart_base;
  so.lns = o.lns;
  so.phase_saving = o.phase_saving;
  so.lns_windows = o.lns_windows;
  so.restart_share = o.restart_share;
  so.learn = o.learn == "restart"   ? LearnMode::restart
             : o.learn == "all"     ? LearnMode::all
             : o.learn == "explain" ? LearnMode::explain
                                    : LearnMode::none;
  so.explain_export_length = o.explain_export_length;
  so.nogood_capacity = o.nogood_capacity;
  so.nogood_max_length = o.nogood_max_length;
  so.nogood_watches = o.nogood_watches == "on" ? 1 : o.nogood_watches == "off" ? 0 : -1;
  so.host_teams = o.host_teams;
  so.explain_threads = o.explain_threads;
  so.peers = peers;
  so.static_chunks = o.mpi_work == "static";
  so.explain_every_rank = o.mpi_explain == "all";

  const bool optimise = compiled.has_objective;
  const bool print_each = !optimise || o.all || o.intermediate;
  std::vector<std::int64_t> best;
  bool checker_rejected = false;
  auto on_solution = [&](const std::vector<std::int32_t>& store) {
    std::vector<std::int64_t> values = model_values(compiled, store);
    if (o.check) {
      const fzn::CheckResult r = fzn::check_solution(model, values);
      if (!r.ok) {
        fmt::print(err, "kcp: internal error: the checker rejects a solution: {}\n", r.message);
        checker_rejected = true;
        return false;
      }
    }
    if (print_each) {
      fzn::print_solution(out, model, values);
      // With -s, each improving solution's objective and time as a statistics block (anytime curves).
      if (o.statistics && optimise && compiled.objective >= 0) {
        const std::int64_t v = store[std::size_t(compiled.objective)];
        stat(out, "objective", std::to_string(compiled.maximize ? -v : v));
        stat(out, "solutionTime",
             fmt::format("{:.3f}", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()));
        out << "%%%mzn-stat-end\n";
      }
      out.flush();
    }
    best = std::move(values);
    return true;
  };
  SignalScope signals;
  SearchReport rep;
  if (no_time) {
    // Parsing and compiling took the whole limit: setting up a search (uploads, the root fixpoint)
    // would only run past it.
    if (o.verbose) fmt::print(err, "kcp: the time limit passed while parsing and compiling; no search\n");
    rep.timed_out = true;
    rep.space = o.space;
  } else {
    doing = "setting up and running the search (--space " + o.space + ", " +
                 std::to_string(compiled.program.num_vars()) + " variables, " +
                 std::to_string(compiled.program.num_propagators()) + " propagators)";
    rep = search_on(o.space, compiled.program, so, on_solution);
  }
  doing = "printing the results";
  if (rep.interrupted && o.verbose) fmt::print(err, "kcp: interrupted\n");
  if (o.verbose)
    for (std::size_t r = 0; r < rep.rank_figures.size(); ++r) {
      const RankFigures& f = rep.rank_figures[r];
      fmt::print(err, "kcp: rank {}: {} nodes, {} subproblems solved, {} chunks, idle at the end {:.3f} s\n", r,
                 f.nodes, f.subproblems_solved, f.chunks, f.idle_s);
    }
  if (checker_rejected) return 3;

  if (!print_each && !best.empty()) fzn::print_solution(out, model, best);
  if (rep.complete) {
    out << (rep.solutions > 0 ? "==========\n" : "=====UNSATISFIABLE=====\n");
  } else if (rep.solutions == 0) {
    out << "=====UNKNOWN=====\n";
  }
  if (o.statistics) {
    stat(out, "nodes", std::to_string(rep.nodes));
    stat(out, "completeNodes", std::to_string(rep.complete_nodes));
    stat(out, "failures", std::to_string(rep.failures));
    stat(out, "solutions", std::to_string(rep.solutions));
    stat(out, "peakDepth", std::to_string(rep.peak_depth));
    stat(out, "fixpointIterations", std::to_string(rep.fixpoint_iterations));
    stat(out, "fixpointIterationsPerNode",
         fmt::format("{:.2f}", rep.nodes ? double(rep.fixpoint_iterations) / rep.nodes : 0.0));
    stat(out, "propagations", std::to_string(rep.propagations));
    stat(out, "propagationsPerNode", fmt::format("{:.1f}", rep.nodes ? double(rep.propagations) / rep.nodes : 0.0));
    stat(out, "restores", std::to_string(rep.restores));
    stat(out, "replayedDecisions", std::to_string(rep.replayed_decisions));
    const PreprocessStats& pre = compiled.preprocess;
    stat(out, "variablesBefore", std::to_string(pre.before.variables));
    stat(out, "propagatorsBefore", std::to_string(pre.before.propagators()));
    stat(out, "variables", std::to_string(compiled.program.num_vars()));
    stat(out, "propagators", std::to_string(compiled.program.num_propagators()));
    stat(out, "linearRows", std::to_string(compiled.program.num_rows()));
    stat(out, "ternaryPropagators", std::to_string(compiled.program.num_ternary()));
    stat(out, "elementPropagators", std::to_string(compiled.program.num_elements()));
    for_each_global_family([&](auto family, int f) {
      stat(out, family.statistic, std::to_string(compiled.program.global[std::size_t(f)].size()));
    });
    stat(out, "mergedVariables", std::to_string(pre.merged_variables));
    if (o.ternary_rows) {
      stat(out, "ternarizedRows", std::to_string(compiled.ternarized.rows_rewritten));
      stat(out, "nativeRowsKept", std::to_string(compiled.ternarized.rows_kept));
    }
    stat(out, "preprocessTime", fmt::format("{:.3f}", pre.seconds));
    stat(out, "storeBytes", std::to_string(compiled.program.store_bytes()));
    stat(out, "bitsetSpan", std::to_string(bitset_span));
#ifdef KOKKOS_ENABLE_OPENMP
    // How idle OpenMP threads wait (solver/main.cpp sets passive unless the user chose).
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    stat(out, "ompWaitPolicy", "\"" + std::string(policy ? policy : "default") + "\"");
#endif
    stat(out, "bitsetVariables", std::to_string(rep.bitset_vars));
    stat(out, "boundsOnlyVariables", std::to_string(rep.bounds_only_vars));
    stat(out, "domainBytesPerTeam", std::to_string(rep.domain_bytes));
    stat(out, "propagatorBytes", std::to_string(compiled.program.propagator_bytes()));
    stat(out, "scratchLevel", std::to_string(rep.scratch_level));
    stat(out, "sharedCarveout", std::to_string(rep.shared_carveout));
    stat(out, "space", "\"" + rep.space + "\"");
    stat(out, "teams", std::to_string(rep.teams));
    stat(out, "idleTeams", std::to_string(rep.idle_teams));
    stat(out, "freeTeams", std::to_string(rep.free_teams));
    if (rep.host_teams > 0) {
      stat(out, "hostTeams", std::to_string(rep.host_teams));
      stat(out, "hostNodes", std::to_string(rep.host_nodes));
      stat(out, "fleetWaitTime", fmt::format("{:.3f}", rep.fleet_wait_s));
    }
    stat(out, "restarts", std::to_string(rep.restarts));
    stat(out, "neighbourhoods", std::to_string(rep.neighbourhoods));
    stat(out, "neighbourhoodsExhausted", std::to_string(rep.neighbourhoods_exhausted));
    // Satisfaction learns through the explaining searches alone (rank 0's in a distributed search).
    const bool explained = so.learn == LearnMode::explain && rep.explain_threads > 0;
    if (so.learn != LearnMode::none && (optimise || explained)) {
      stat(out, "nogoodsLearned", std::to_string(rep.nogoods_learned));
      stat(out, "nogoodsKept", std::to_string(rep.nogoods_kept));
      stat(out, "nogoodsDropped", std::to_string(rep.nogoods_dropped));
      stat(out, "nogoodsDeleted", std::to_string(rep.nogoods_deleted));
      stat(out, "nogoodPropagations", std::to_string(rep.nogood_propagations));
      stat(out, "nogoodFailures", std::to_string(rep.nogood_failures));
      stat(out, "provedByNogood", rep.proved_by_nogood ? "true" : "false");
    }
    if (so.learn == LearnMode::explain && (optimise || explained)) {
      stat(out, "explainThreads", std::to_string(rep.explain_threads));
      stat(out, "explainNodes", std::to_string(rep.explain_nodes));
      stat(out, "explainConflicts", std::to_string(rep.explain_conflicts));
      stat(out, "explainLearned", std::to_string(rep.explain_learned));
      stat(out, "explainLiterals", std::to_string(rep.explain_literals));
      stat(out, "explainExported", std::to_string(rep.explain_exported));
      stat(out, "explainResolutions", std::to_string(rep.explain_resolutions));
      stat(out, "explainRuns", std::to_string(rep.explain_runs));
      stat(out, "explainFamilyReasons", std::to_string(rep.explain_family));
      stat(out, "explainPropagations", std::to_string(rep.explain_propagations));
      stat(out, optimise ? "improvementsExplain" : "solutionsExplain",
           std::to_string(optimise ? rep.improvements_explain : rep.solutions_explain));
      if (rep.explain_failed) stat(out, "explainFailed", "true");
    }
    if (optimise) {
      stat(out, "improvementsComplete", std::to_string(rep.improvements_complete));
      stat(out, "improvementsRestart", std::to_string(rep.improvements_restart));
      stat(out, "improvementsLns", std::to_string(rep.improvements_lns));
      if (rep.host_teams > 0) stat(out, "improvementsHost", std::to_string(rep.improvements_host));
      if (rep.solutions > 0) stat(out, "timeOfBest", fmt::format("{:.3f}", rep.best_time_s));
      if (rep.objective_bound != INT64_MIN && rep.objective_bound != INT64_MAX)
        stat(out, "objectiveBound",
             std::to_string(compiled.maximize ? -rep.objective_bound : rep.objective_bound));
    }
    if (rep.ranks > 1) {
      stat(out, "ranks", std::to_string(rep.ranks));
      stat(out, "mpiWork", rep.static_chunks ? "\"static\"" : "\"dynamic\"");
      stat(out, "chunks", std::to_string(rep.chunks));
      stat(out, "chunkSize", std::to_string(rep.chunk_size));
      double idle = 0;
      for (const RankFigures& f : rep.rank_figures) idle += f.idle_s;
      stat(out, "rankIdleTime", fmt::format("{:.3f}", idle));
      stat(out, "mpiNogoodsReceived", std::to_string(rep.nogoods_received));
      stat(out, "mpiNogoodsAbsorbed", std::to_string(rep.nogoods_received_absorbed));
      stat(out, "mpiPiecesSent", std::to_string(rep.split_exported));
      stat(out, "mpiPiecesReceived", std::to_string(rep.split_imported));
    }
    stat(out, "subproblems", std::to_string(rep.subproblems));
    stat(out, "subproblemsSolved", std::to_string(rep.subproblems_solved));
    stat(out, "subproblemsSkipped", std::to_string(rep.subproblems_skipped));
    stat(out, "subproblemRuns", std::to_string(rep.subproblem_runs));
    stat(out, "endGameSplit", rep.end_game_split ? "true" : "false");
    stat(out, "splitPieces", std::to_string(rep.split_pieces));
    stat(out, "pathNodes", std::to_string(rep.path_nodes));
    stat(out, "diveCacheDepth", std::to_string(rep.dive_cache_depth));
    stat(out, "diveCacheHits", std::to_string(rep.dive_cache_hits));
    stat(out, "diveCacheMisses", std::to_string(rep.dive_cache_misses));
    stat(out, "divePrefetches", std::to_string(rep.dive_prefetches));
    stat(out, "launches", std::to_string(rep.launches));
    stat(out, "teamSize", std::to_string(rep.team_size));
    stat(out, "vectorLength", std::to_string(rep.vector_length));
    stat(out, "snapshots", rep.snapshots ? "true" : "false");
    stat(out, "copyDistance", std::to_string(rep.copy_distance));
    stat(out, "storeCopiesPerTeam", std::to_string(rep.store_slots));
    stat(out, "fixpoint", rep.queue_fixpoint ? "\"queue\"" : "\"ac1\"");
    stat(out, "nogoodWatches", rep.nogood_watches ? "true" : "false");
    stat(out, "readsPerVariable", fmt::format("{:.2f}", rep.reads_per_variable));
    stat(out, "initTime", fmt::format("{:.3f}", init_s));
    stat(out, "solveTime", fmt::format("{:.3f}", rep.solve_time_s));
    stat(out, "searchSetupTime", fmt::format("{:.3f}", rep.setup_time_s));
    stat(out, "probeTime", fmt::format("{:.3f}", rep.probe_s));
    stat(out, "probeFinished", rep.probe_finished ? "true" : "false");
    stat(out, "nodesPerSecond", fmt::format("{:.0f}", rep.solve_time_s > 0 ? rep.nodes / rep.solve_time_s : 0.0));
    if (optimise && rep.solutions > 0 && compiled.objective >= 0)
      stat(out, "objective", std::to_string(compiled.maximize ? -rep.best : rep.best));
    out << "%%%mzn-stat-end\n";
  }
  out.flush();
  return 0;
}

/// --verify: every solution in o.verify through the independent checker. 0: all accepted, 3: some
/// rejected (each named with the constraint it violates).
int verify(const Options& o, std::ostream& out, std::string& doing) {
  doing = "parsing " + o.model;
  const fzn::Model model = fzn::parse_file(o.model);
  doing = "checking the solutions in " + o.verify;
  std::ifstream in(o.verify);
  if (!in) throw std::runtime_error("cannot read " + o.verify);
  const auto solutions = fzn::read_solutions(model, in, o.verify);
  int rejected = 0;
  for (std::size_t i = 0; i < solutions.size(); ++i) {
    const fzn::CheckResult r = fzn::check_solution(model, solutions[i]);
    if (r.ok) {
      fmt::print(out, "solution {}: ok\n", i + 1);
    } else {
      ++rejected;
      fmt::print(out, "solution {}: rejected: {}\n", i + 1, r.message);
    }
  }
  fmt::print(out, "{} solutions, {} rejected\n", solutions.size(), rejected);
  return rejected > 0 ? 3 : 0;
}

/// CLI11 reads "-node" as "-n ode" and then complains about the value: a single-dash word must be a group
/// of the app's short flags, or one of its short options that take a value followed by digits. Returns the
/// first word that is neither ("" when none). MiniZinc passes other solvers' backend flags, such as
/// Gecode's -node, through unchanged.
std::string unknown_short_group(const CLI::App& app, int argc, const char* const* argv) {
  std::string flags, valued;  // the short names, by whether the option takes a value
  for (const CLI::Option* opt : app.get_options())
    for (const std::string& name : opt->get_snames()) (opt->get_expected_min() == 0 ? flags : valued) += name;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.size() <= 2 || a[0] != '-' || a[1] == '-' || std::isdigit(static_cast<unsigned char>(a[1]))) continue;
    const std::string rest = a.substr(2);
    const bool ok = valued.find(a[1]) != std::string::npos
                        ? rest.find_first_not_of("0123456789") == std::string::npos
                        : flags.find(a[1]) != std::string::npos && rest.find_first_not_of(flags) == std::string::npos;
    if (!ok) return a;
  }
  return "";
}

}  // namespace

int run_cli(int argc, const char* const* argv, std::ostream& output_stream, std::ostream& error_stream) {
  // Under mpirun rank 0 prints, the others' output goes nowhere; every rank parses the same command
  // line and reads the same file, so rank 0 alone names their errors too.
  Peers* const peers = process_peers();
  struct Discard : std::streambuf {
    int overflow(int c) override { return c; }
  } discard;
  std::ostream nowhere(&discard);
  const bool speaks = peers == nullptr || peers->rank() == 0;
  std::ostream& out = speaks ? output_stream : nowhere;
  std::ostream& err = speaks ? error_stream : nowhere;
  CLI::App app{"kcp: a constraint solver for FlatZinc models on Kokkos (Serial, OpenMP, CUDA)", "kcp"};
  app.set_version_flag("--version", KCP_VERSION);
  Options o;
  add_options(app, o);
  if (const std::string bad = unknown_short_group(app, argc, argv); !bad.empty()) {
    fmt::print(err, "kcp: error: unknown option '{}' (short options are single letters; long ones start with "
               "--)\nRun with --help for the options.\n", bad);
    return 2;
  }
  try {
    app.parse(argc, argv);
    o.bitset_span_given = app.count("--bitset-span") > 0;
    for (const std::string& name : o.global)
      if (std::find(o.no_global.begin(), o.no_global.end(), name) != o.no_global.end())
        throw CLI::ValidationError("--global and --no-global both name " + name);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return 0;
  } catch (const CLI::CallForVersion&) {
    out << "kcp " << KCP_VERSION << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    fmt::print(err, "kcp: error: {}\nRun with --help for the options.\n", e.what());
    return 2;
  }
  std::string doing = "starting";
  try {
    if (!o.verify.empty()) return verify(o, out, doing);
    doing = "starting Kokkos";
    // Under mpirun, a GPU per rank on a host (the node-local rank's, round-robin), and the host's
    // cores shared among its ranks unless OMP_NUM_THREADS or --threads says otherwise.
    if (peers != nullptr && o.threads == 0 && std::getenv("OMP_NUM_THREADS") == nullptr)
      o.threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / peers->local_size());
    KokkosSession kokkos(o.threads, peers != nullptr ? peers->local_rank() : -1);
    return solve(o, out, err, doing);
  } catch (const fzn::LocatedError& e) {  // parse, compile and solution errors name their place
    fmt::print(err, "{}\n", e.what());
  } catch (const std::exception& e) {
    // Other failures (memory) may be one rank's own: every rank says so, naming itself.
    fmt::print(error_stream, "kcp{}: error: {}\n", peers != nullptr ? fmt::format(" (rank {})", peers->rank()) : "",
               describe(e, doing));
  }
  return 1;
}

}  // namespace kcp
