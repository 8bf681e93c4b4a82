// The statistics kcp prints with -s: one table (statistics.cpp) of every `%%%mzn-stat` line at the end of
// a run — its name, the SearchReport fields it reads, when it is printed, and its value — printed in the
// table's order. Adding a statistic is one row there; tests/solver/test_statistics.cpp checks that every
// SearchReport field is read by a row or listed as not printed, and that the names are unique.
#pragma once

#include "search/solve.hpp"
#include "solver/compile.hpp"

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace kcp {

/// What the end-of-run statistics are read from.
struct StatisticsInput {
  const SearchReport& report;
  const Compiled& compiled;
  LearnMode learn;           ///< the search's learning mode (after the driver's choices)
  bool ternary_rows = false;  ///< CompileOptions::ternary_rows
  std::int64_t bitset_span = 0;
  double init_s = 0;  ///< parsing and compiling
  bool optimise() const { return compiled.has_objective; }
};

/// One `%%%mzn-stat` line of the end-of-run block.
struct Statistic {
  std::string name;
  /// The SearchReport fields it reads, space-separated ("" when it reads none: the model, the options).
  std::string reads;
  /// Whether it is printed in this run (null: always).
  std::function<bool(const StatisticsInput&)> when;
  std::function<std::string(const StatisticsInput&)> value;
};

/// The table, in print order (the global families' sizes from domains/globals.hpp's list among them).
const std::vector<Statistic>& statistics_table();

/// SearchReport fields no statistic prints, each with the reason (how the run reports it otherwise).
const std::vector<std::pair<std::string, std::string>>& unprinted_report_fields();

/// Prints the end-of-run block: a `%%%mzn-stat: name=value` line per row whose `when` holds, then
/// `%%%mzn-stat-end`.
void print_statistics(std::ostream& out, const StatisticsInput& in);

/// One `%%%mzn-stat: name=value` line.
void print_statistic(std::ostream& out, const std::string& name, const std::string& value);

}  // namespace kcp
