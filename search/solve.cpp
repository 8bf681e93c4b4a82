#include "search/solve.hpp"

#include "search/dfs.hpp"

#include <Kokkos_Core.hpp>

#include <chrono>
#include <cmath>
#include <stdexcept>

namespace kcp {

namespace {

/// An upper bound on the depth of the bisection search: a decision at least halves one domain.
int max_search_depth(const Program& p) {
  std::int64_t depth = 1;
  for (int x = 0; x < p.num_vars(); ++x) {
    std::uint64_t size = std::uint64_t(std::int64_t(p.ub[x]) - p.lb[x]) + 1;
    while (size > 1) {
      ++depth;
      size = (size + 1) / 2;
    }
  }
  if (depth > INT32_MAX) throw std::length_error("search depth bound exceeds 2^31");
  return static_cast<int>(depth);
}

template <class ExecSpace, bool Concurrent>
SearchReport run_slices(const Program& program, const SearchOptions& options, const SolutionCallback& on_solution,
                        const LaunchParams& lp) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Dfs = DepthFirstSearch<ExecSpace, Concurrent>;
  const auto start = std::chrono::steady_clock::now();

  Kokkos::Profiling::pushRegion("kcp::search::setup");
  Dfs dfs;
  dfs.program = DeviceProgram<typename ExecSpace::memory_space>(program);
  dfs.state = SearchState<typename ExecSpace::memory_space>(program.num_vars(), max_search_depth(program));
  dfs.objective = options.objective;
  dfs.node_budget = options.slice_nodes;
  Kokkos::Profiling::popRegion();

  SearchReport report;
  report.team_size = lp.team_size;
  report.vector_length = lp.vector_length;
  const std::size_t bytes = Dfs::scratch_bytes(program.num_vars());
  Policy policy(1, lp.team_size, lp.vector_length);
  report.scratch_level = options.scratch_level >= 0 ? options.scratch_level
                         : bytes <= std::size_t(policy.scratch_size_max(0)) ? 0 : 1;
  if (bytes > std::size_t(policy.scratch_size_max(report.scratch_level)))
    throw std::length_error("the store (" + std::to_string(bytes) + " bytes) does not fit in team scratch level " +
                            std::to_string(report.scratch_level));
  policy.set_scratch_size(report.scratch_level, Kokkos::PerTeam(bytes));
  dfs.scratch_level = report.scratch_level;

  auto control = Kokkos::create_mirror_view(dfs.state.control);
  auto solution = Kokkos::create_mirror_view(dfs.state.solution);
  std::vector<std::int32_t> values(program.num_vars());
  bool stop = false;
  while (!stop) {
    Kokkos::parallel_for("kcp::search::dfs", policy, dfs);
    Kokkos::fence();
    Kokkos::deep_copy(control, dfs.state.control);
    if (control(ctl_error)) throw std::runtime_error("the search kernel did not get its team scratch");
    if (control(ctl_new_solution)) {
      Kokkos::deep_copy(solution, dfs.state.solution);
      for (int x = 0; x < program.num_vars(); ++x) values[x] = solution(x);
      control(ctl_new_solution) = 0;
      Kokkos::deep_copy(dfs.state.control, control);
      if (!on_solution(values)) stop = true;
      if (options.objective < 0 && options.max_solutions > 0 && control(ctl_solutions) >= options.max_solutions)
        stop = true;
    }
    if (control(ctl_exhausted)) {
      report.complete = true;
      stop = true;
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (options.time_limit_s > 0 && elapsed >= options.time_limit_s) stop = true;
  }
  report.nodes = control(ctl_nodes);
  report.failures = control(ctl_failures);
  report.solutions = control(ctl_solutions);
  report.peak_depth = control(ctl_peak_depth);
  report.fixpoint_iterations = control(ctl_fixpoint_iterations);
  report.best = control(ctl_best);
  report.solve_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace

template <class ExecSpace>
SearchReport search(const Program& program, const SearchOptions& options, const SolutionCallback& on_solution) {
  LaunchParams lp = default_launch_params<ExecSpace>();
  if (options.team_size > 0) lp.team_size = options.team_size;
  if (options.vector_length > 0) lp.vector_length = options.vector_length;
  // One thread per store needs no atomics; several narrow it concurrently and do.
  SearchReport r = lp.team_size * lp.vector_length > 1
                       ? run_slices<ExecSpace, true>(program, options, on_solution, lp)
                       : run_slices<ExecSpace, false>(program, options, on_solution, lp);
  r.space = ExecSpace::name();
  return r;
}

// One instantiation per enabled execution space: callers (tests, the CLI) link against these.
#ifdef KOKKOS_ENABLE_SERIAL
template SearchReport search<Kokkos::Serial>(const Program&, const SearchOptions&, const SolutionCallback&);
#endif
#ifdef KOKKOS_ENABLE_OPENMP
template SearchReport search<Kokkos::OpenMP>(const Program&, const SearchOptions&, const SolutionCallback&);
#endif
#ifdef KOKKOS_ENABLE_CUDA
template SearchReport search<Kokkos::Cuda>(const Program&, const SearchOptions&, const SolutionCallback&);
#endif

std::vector<std::string> available_spaces() {
  std::vector<std::string> spaces;
#ifdef KOKKOS_ENABLE_SERIAL
  spaces.push_back("serial");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  spaces.push_back("openmp");
#endif
#ifdef KOKKOS_ENABLE_CUDA
  spaces.push_back("cuda");
#endif
  return spaces;
}

SearchReport search_on(const std::string& space, const Program& program, const SearchOptions& options,
                       const SolutionCallback& on_solution) {
  if (space == "default") return search<Kokkos::DefaultExecutionSpace>(program, options, on_solution);
#ifdef KOKKOS_ENABLE_SERIAL
  if (space == "serial") return search<Kokkos::Serial>(program, options, on_solution);
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  if (space == "openmp") return search<Kokkos::OpenMP>(program, options, on_solution);
#endif
#ifdef KOKKOS_ENABLE_CUDA
  if (space == "cuda") return search<Kokkos::Cuda>(program, options, on_solution);
#endif
  std::string names;
  for (const auto& s : available_spaces()) names += (names.empty() ? "" : ", ") + s;
  throw std::invalid_argument("execution space '" + space + "' is not in this build (available: " + names + ")");
}

}  // namespace kcp
