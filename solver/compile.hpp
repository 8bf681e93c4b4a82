// compile: fzn::Model (neutral) -> Program (kcp's propagator families). A registry maps each FlatZinc
// builtin to one compile function, so supporting a builtin is one entry (Gecode's habit). Host-side
// preprocessing (solver/preprocess.hpp) runs inside compile when CompileOptions::preprocess is set.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <array>
#include <chrono>
#include <string>
#include <vector>

#include "domains/program.hpp"
#include "solver/fzn/model.hpp"
#include "solver/ternarize.hpp"

namespace kcp {

/// A model error found while compiling: unsupported builtin, malformed call, value out of the store's
/// range, ... An unsatisfiable model is not an error: see Compiled::root_failed.
class CompileError : public fzn::LocatedError {
 public:
  using fzn::LocatedError::LocatedError;
};

/// Where a model variable's value lives: a store variable, or a constant.
struct StoreRefTerm {
  bool is_constant = false;
  std::int64_t value = 0;
  int var = -1;
};

/// Every global family native (CompileOptions::native_global's default).
inline std::array<bool, num_global_families> all_native_globals() {
  std::array<bool, num_global_families> a{};
  a.fill(true);
  return a;
}

struct CompileOptions {
  /// Equality merging, root propagation (constant folding) and removal of entailed propagators, to a
  /// fixpoint. Off: every constraint is compiled as its registry entry says, nothing more.
  bool preprocess = true;
  /// After preprocessing, rewrite the linear rows in ternary normal form (solver/ternarize.hpp): the
  /// ablation of native rows, not a default.
  bool ternary_rows = false;
  /// A variable whose domain has holes and spans at most this many values gets a bitset that holds
  /// them (domains/store.hpp); wider ones, or all with 0, get the gap encoding (compile.cpp,
  /// exclude_holes). Search gives the other small domains theirs (SearchOptions::bitset_span).
  std::int64_t bitset_span = default_bitset_span;
  /// Per global family (domains/globals.hpp, GlobalFamilies' order): false lowers its constraints to
  /// a decomposition instead (all_different: x_i != x_j rows; cumulative: MiniZinc's task
  /// decomposition in reified rows; var_element: e_i <-> index = i, e_i -> result = x_i, sum e_i = 1),
  /// for measurement (`--no-global NAME`).
  std::array<bool, num_global_families> native_global = all_native_globals();
  /// A native all_different over more variables than this is compiled as its x_i != x_j rows instead
  /// (0: no limit). Its Hall intervals cost O(n^2) a run, where the rows, woken only when a variable
  /// becomes fixed, cost O(n) a fix: on GPUs (AllDifferent::native_max_arity_gpu) 300-queens' probe
  /// on one host core ran out of time with it (perf/NOTES.md entry 55). --global all_different lifts it.
  int all_different_max_arity = 0;
  /// Preprocessing stops here (the time limit): the root fixpoint looks at the clock every few thousand
  /// propagations and ends early, leaving a valid program that is only less narrowed
  /// (PreprocessStats::stopped). A propagation-stress model of the breadth set ran its root fixpoint
  /// for minutes without looking (perf/NOTES.md entry 46).
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

/// The size of a program, per family.
struct ProgramSize {
  int variables = 0;
  int rows = 0;
  int ternaries = 0;
  int globals = 0;  ///< constraints of every listed family (element and the global constraints)

  int propagators() const { return rows + ternaries + globals; }
  static ProgramSize of(const Program& p) {
    return {p.num_vars(), p.num_rows(), p.num_ternary(), p.num_globals()};
  }
};

/// What preprocessing did. When it is off, the three sizes are the compiled program's and the rest 0.
struct PreprocessStats {
  /// As the registry alone would have compiled the model: `compiled` plus one store variable per merged
  /// model variable and one row per equality absorbed by merging.
  ProgramSize before;
  ProgramSize compiled;           ///< as compiled, after equality merging, before root propagation
  ProgramSize after;              ///< the program handed to search
  int merged_variables = 0;       ///< model variables that share another's store variable through an equality
  int absorbed_constraints = 0;   ///< equalities that merging made redundant (not compiled)
  int fixed_model_variables = 0;  ///< model variables turned into constants by root propagation
  int rounds = 0;                 ///< root fixpoint + simplification rounds
  std::int64_t propagations = 0;  ///< propagator runs of the root fixpoint, over all rounds
  double seconds = 0;             ///< time spent preprocessing (merging excluded: it is part of compiling)
  bool stopped = false;           ///< the deadline (CompileOptions::deadline) ended it early
};

struct Compiled {
  Program program;
  std::vector<StoreRefTerm> model_vars;  ///< per fzn::Model variable
  int objective = -1;                    ///< store variable minimised, or -1
  bool maximize = false;                 ///< the model maximises: objective is the negation
  bool has_objective = false;            ///< the model minimises or maximises (possibly a constant)
  /// The model is unsatisfiable, found without search (empty domain, failed root fixpoint). The program
  /// then also holds an always-false row, so a search that does not look at this flag finds nothing.
  bool root_failed = false;
  PreprocessStats preprocess;
  TernarizeStats ternarized;  ///< zero unless CompileOptions::ternary_rows
};

Compiled compile(const fzn::Model& model, const CompileOptions& options = {});

/// The value of each model variable, given the store values of a solution.
std::vector<std::int64_t> model_values(const Compiled& compiled, const std::vector<std::int32_t>& store);

/// The builtins compile supports, sorted.
std::vector<std::string> supported_builtins();

}  // namespace kcp
