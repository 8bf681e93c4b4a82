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

}  // namespace kcp
