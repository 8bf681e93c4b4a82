#pragma once
// kcp's command line: the options as the user gave them, each registered once (solver/options.cpp) in one
// of three groups. solve() (solver/run.cpp) turns them into CompileOptions and SearchOptions.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "domains/program.hpp"
#include "domains/store.hpp"
#include "search/solve.hpp"
#include "solver/compile.hpp"

namespace kcp {

/// Who an option is for. `kcp --help` lists the user's options; `--help-all` every group.
enum class OptionGroup {
  user,        ///< what a MiniZinc user sets: MiniZinc's standard flags and kcp's few of its own
  tuning,      ///< settings with measured defaults (perf/NOTES.md), for other machines and models
  experiment,  ///< switches kept so that a measurement can be repeated
};
inline constexpr OptionGroup option_groups[] = {OptionGroup::user, OptionGroup::tuning, OptionGroup::experiment};

/// The group's heading in the help text (the title add_options gives its options).
const char* option_group_title(OptionGroup g);

/// What the command line asked for. Defaults that depend on the backend or the model are decided in
/// solve() (solver/run.cpp); the others are the ones written here.
struct Options {
  std::string model;
  bool all = false;
  std::int64_t num_solutions = 1;
  bool intermediate = false;
  bool free_search = false;
  int threads = 0;
  bool statistics = false;
  std::int64_t time_limit_ms = 0;
  bool verbose = false;
  std::string space = "default";
  std::string shared_carveout = "fit";
  int probe_ms = 20;
  std::string subproblem_path = "auto";
  std::string end_game_givers = "auto";
  std::vector<std::string> global, no_global;  ///< global families forced native / decomposed
  std::string verify;
  double portfolio = -1;
  double rank_portfolio = -1;
  std::string free_var_choice = "dom_w_deg";
  std::string restart = "luby";
  std::string learn = "explain";
  std::string mpi_work = "dynamic";
  std::string mpi_explain = "all";
  std::string nogood_watches = "auto";
  std::string end_game_split = "on";
  std::string fixpoint = "auto";
  std::int64_t bitset_span = default_bitset_span;
  bool bitset_span_given = false;  ///< --bitset-span on the command line (see solve)
  /// Options that are the search's or the compiler's settings as they are bind to these directly (their
  /// defaults are the structs'); solve() fills in the rest.
  SearchOptions search;
  CompileOptions compile;
#ifdef NDEBUG
  bool check = false;
#else
  bool check = true;  // debug builds check every solution
#endif
};

/// Registers every option of the command line on `app`, bound to `o`'s fields, in its group.
void add_options(CLI::App& app, Options& o);

/// The help text: the user's options only, or (`all`) every group.
std::string help_text(CLI::App& app, bool all);

}  // namespace kcp
