// The FlatZinc search annotations (int_search, bool_search, seq_search) turned into the search's
// phases over store variables.
#pragma once

#include "search/solve.hpp"
#include "solver/compile.hpp"
#include "solver/fzn/model.hpp"

#include <string>
#include <vector>

namespace kcp {

struct SearchPlan {
  std::vector<SearchPhase> phases;
  std::vector<std::string> warnings;  ///< annotations ignored or approximated, for the user
};

/// The phases the solve item's annotations ask for, in order. Unknown choices fall back to
/// first_fail / indomain_split with a warning; other annotations (restarts, warm starts) are ignored
/// with a warning.
SearchPlan plan_search(const fzn::Model& model, const Compiled& compiled);

/// Whether the solve item's annotations ask for a value choice that MiniZinc defines as x = v | x != v
/// (indomain_median, indomain_random and their outdomain forms): the search follows those only on a
/// variable with a bitset (search/branching.hpp).
bool wants_value_decisions(const fzn::Model& model);

/// Whether the annotated search reads what only a variable's bitset knows: value decisions
/// (wants_value_decisions), or a variable choice by domain size or by the gap between the two least
/// values (first_fail, anti_first_fail, most_constrained, dom_w_deg, max_regret), which without one
/// would see a width instead of a size. On a GPU bitsets are on by default only for such searches
/// (solver/run.cpp; perf/NOTES.md entry 47).
bool search_reads_holes(const fzn::Model& model);

}  // namespace kcp
