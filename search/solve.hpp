// The host control loop of the search: one loop for every backend. It launches the search kernel in
// bounded slices; between slices it hands new solutions to the caller, checks the time limit and
// decides when to stop.
#pragma once

#include "domains/program.hpp"
#include "search/launch.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace kcp {

struct SearchOptions {
  int objective = -1;                ///< store variable to minimise, or -1 for satisfaction
  std::int64_t max_solutions = 1;    ///< stop after this many (satisfaction); 0: all
  double time_limit_s = 0;           ///< 0: none
  std::int64_t slice_nodes = 100000; ///< nodes per kernel launch
  int team_size = 0;                 ///< 0: the backend's default
  int vector_length = 0;             ///< 0: the backend's default
  int scratch_level = -1;            ///< -1: 0 when the store fits, else 1
};

struct SearchReport {
  bool complete = false;  ///< the whole tree was explored (optimum proven / all solutions found)
  std::int64_t nodes = 0, failures = 0, solutions = 0, peak_depth = 0, fixpoint_iterations = 0;
  std::int64_t best = INT64_MAX;
  int scratch_level = 0, teams = 1, team_size = 1, vector_length = 1;
  double solve_time_s = 0;
  std::string space;
};

/// Called with the store values of each solution; returns false to stop the search.
using SolutionCallback = std::function<bool(const std::vector<std::int32_t>&)>;

template <class ExecSpace>
SearchReport search(const Program& program, const SearchOptions& options, const SolutionCallback& on_solution);

/// Runs `search` on the execution space named `space` ("serial", "openmp", "cuda", or "default").
/// Throws std::invalid_argument for a space this build does not have.
SearchReport search_on(const std::string& space, const Program& program, const SearchOptions& options,
                       const SolutionCallback& on_solution);

/// The execution spaces this build has, by name.
std::vector<std::string> available_spaces();

}  // namespace kcp
