#include "solver/run.hpp"

#include "search/launch.hpp"
#include "search/solve.hpp"
#include "solver/compile.hpp"
#include "solver/fzn/checker.hpp"
#include "solver/fzn/output.hpp"
#include "solver/fzn/parser.hpp"
#include "solver/fzn/solution_reader.hpp"
#include "solver/options.hpp"
#include "solver/search_plan.hpp"
#include "solver/statistics.hpp"

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

/// The compile options of a run: the backend's bitsets and global families, the user's choices, the deadline.
CompileOptions compile_options_for(const Options& o, const fzn::Model& model, std::chrono::steady_clock::time_point t0) {
  // On a GPU bitsets are on by default only where the annotated search reads them (value decisions x = v |
  // x != v, a variable choice by domain size or regret: search_reads_holes), or when asked for. Elsewhere
  // they cost a GPU 0.25-0.9x the nodes/s on 12 of 14 development instances at the same or a worse
  // objective, while first_fail models with all_different gain most (latin squares, sudoku, queens;
  // perf/NOTES.md entry 47; entry 45 gave the GPU its event-driven fixpoint with bitsets back).
  const bool gpu = space_is_gpu(o.space);
  CompileOptions co = o.compile;
  co.bitset_span = o.bitset_span;
  if (gpu && !o.bitset_span_given && (o.free_search || !search_reads_holes(model))) co.bitset_span = 0;
  // Each global family native or decomposed: the backend's default (domains/globals.hpp), then the flags.
  for_each_global_family([&](auto family, int f) {
    co.native_global[std::size_t(f)] = gpu ? family.native_on_gpu : family.native_on_host;
  });
  if (gpu) co.all_different_max_arity = AllDifferent::native_max_arity_gpu;
  for (const std::string& name : o.global) {
    co.native_global[std::size_t(global_family_named(name))] = true;
    if (global_family_named(name) == global_family<AllDifferent>) co.all_different_max_arity = 0;
  }
  for (const std::string& name : o.no_global) co.native_global[std::size_t(global_family_named(name))] = false;
  if (o.time_limit_ms > 0) co.deadline = t0 + std::chrono::milliseconds(o.time_limit_ms);
  return co;
}

/// The search options of a run: the search plan (the annotations' phases, LNS's variables), the
/// options mapped to the search's settings, and what parsing and compiling (`init_s`) left of the limit.
SearchOptions search_options_for(const Options& o, const fzn::Model& model, const Compiled& compiled,
                                 std::int64_t bitset_span, double init_s, std::ostream& err) {
  SearchOptions so = o.search;
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
  // Under mpirun on GPUs: halved paths, shallow givers, and ranks after the first giving their GPU's
  // teams all to the complete search (diameterc-mst on four H200s 2.05 -> 0.96 s, perf/NOTES.md entry 36),
  // rank 0's a twentieth free (below, entry 38); on the host's backends, unmeasured there, as in one process.
  Peers* const peers = process_peers();
  const bool gpu_ranks = space_is_gpu(o.space) && peers != nullptr && peers->size() > 1;
  so.halve_path = o.subproblem_path == "halves" || (o.subproblem_path == "auto" && gpu_ranks);
  so.shallow_givers = o.end_game_givers == "shallow" || (o.end_game_givers == "auto" && gpu_ranks);
  so.end_game_split = o.end_game_split == "on";
  so.interrupted = &interrupted;
  so.objective = compiled.objective;
  so.max_solutions = o.all ? 0 : o.num_solutions;
  so.ordered_solutions = !o.free_search;  // the sequential order is the annotations'
  // What parsing and compiling left of the limit; never 0, which would mean no limit.
  so.time_limit_s = o.time_limit_ms > 0 ? std::max(1e-3, o.time_limit_ms / 1000.0 - init_s) : 0;
  so.bitset_span = bitset_span;
  so.probe_s = o.probe_ms / 1000.0;
  so.shared_carveout = o.shared_carveout == "fit" ? -1 : o.shared_carveout == "kokkos" ? -2 : std::stoi(o.shared_carveout);
  so.fixpoint_mode = o.fixpoint == "queue" ? FixpointMode::queue
                     : o.fixpoint == "ac1" ? FixpointMode::ac1
                                           : FixpointMode::automatic;
  so.portfolio = o.portfolio >= 0 ? o.portfolio : gpu_ranks ? default_portfolio_gpu_ranks : -1.0;
  so.rank_portfolio = o.rank_portfolio >= 0 ? o.rank_portfolio : gpu_ranks ? 0.0 : -1.0;
  so.free_var_choice = o.free_var_choice == "first_fail" ? VarChoice::first_fail : VarChoice::dom_wdeg;
  so.restart = o.restart == "geometric" ? RestartSequence::geometric
               : o.restart == "none"    ? RestartSequence::none
                                        : RestartSequence::luby;
  so.learn = o.learn == "restart"   ? LearnMode::restart
             : o.learn == "all"     ? LearnMode::all
             : o.learn == "explain" ? LearnMode::explain
                                    : LearnMode::none;
  so.nogood_watches = o.nogood_watches == "on" ? 1 : o.nogood_watches == "off" ? 0 : -1;
  so.peers = peers;
  so.static_chunks = o.mpi_work == "static";
  so.explain_every_rank = o.mpi_explain == "all";
  return so;
}

/// A solve: parse, compile, search, print (solutions as found or the best at the end, the final line,
/// the statistics).
int solve(const Options& o, std::ostream& out, std::ostream& err, std::string& doing) {
  const auto t0 = std::chrono::steady_clock::now();
  doing = "parsing " + o.model;
  const fzn::Model model = fzn::parse_file(o.model);
  const CompileOptions co = compile_options_for(o, model, t0);
  const std::int64_t bitset_span = co.bitset_span;
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
  const SearchOptions so = search_options_for(o, model, compiled, bitset_span, init_s, err);

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
        print_statistic(out, "objective", std::to_string(compiled.maximize ? -v : v));
        print_statistic(out, "solutionTime",
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
  if (o.statistics)
    print_statistics(out, StatisticsInput{rep, compiled, so.learn, o.compile.ternary_rows, bitset_span, init_s});
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
  app.set_help_all_flag("--help-all", "Print every option, the tuning and experiment groups too, and exit");
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
    out << help_text(app, false) << "\n--help-all: every option, the tuning and experiment groups too.\n";
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    out << help_text(app, true);
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
