#include "search/solve.hpp"

#include "search/driver/distributed.hpp"
#include "search/driver/explain_crew.hpp"
#include "search/driver/run_loop.hpp"
#include "search/driver/searcher.hpp"
#include "search/driver/setup.hpp"
#include "search/driver/slice_searcher.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

// search(): the entry point. It plans the run (one process or several, the fleet's share of the rows,
// the host's helper beside a GPU, the explaining crew, learning) and hands the parts to the run loop.
// The parts live in search/driver/ (docs/architecture.md section 6).

namespace kcp {

using namespace driver;

namespace {

/// SearchOptions with the free share `share` of the rows (SearchOptions::portfolio).
SearchOptions with_share(SearchOptions f, double share) {
  f.portfolio = share;
  return f;
}

/// A distributed search's plan: every rank splits the root into the same subproblems, 2^p of them, 16
/// (or 4: subproblems_per_row) per complete row of all ranks (the largest fleet's rows times K: one
/// process's share per row), in 64 K chunks (powers of two; chunks of one subproblem where there are
/// fewer); other free runs on every rank, an explaining search on every rank, each in its own order (or
/// rank 0's alone, the others' free rows learning as with it). Sets the fleet's share `fleet_share`.
template <class ExecSpace>
std::unique_ptr<Distributed> plan_distributed(const Program& program, SearchOptions& o, const LaunchParams& lp,
                                              Peers& peers, double& fleet_share) {
  const int rank = peers.rank(), k = peers.size();
  const int teams = fleet_teams<ExecSpace>(program, o, lp);
  if (rank > 0 && o.rank_portfolio >= 0) fleet_share = o.rank_portfolio;
  const int own_rows = portfolio_rows(with_share(o, fleet_share), teams).complete;
  const std::int64_t rows = peers.all_max(own_rows);
  const int p = o.subproblem_depth >= 0
                    ? o.subproblem_depth
                    : std::min(40, static_cast<int>(std::ceil(std::log2(subproblems_per_row(o, int(rows)) * double(k) *
                                                                          double(rows)))));
  o.subproblem_depth = p;
  o.chunk_log = std::max(0, p - static_cast<int>(std::ceil(std::log2(64.0 * k))));
  if (rank > 0) {
    o.free_salt = 0x72616e6bULL * std::uint64_t(rank);
    if (o.learn == LearnMode::explain && !o.explain_every_rank) o.learn = LearnMode::restart;
  }
  o.explain_variant = rank;
  o.explain_variants = k;
  return std::make_unique<Distributed>(peers, o, static_cast<int>(rows), own_rows);
}

/// Learning needs free runs (optimisation with a portfolio) to learn from, or an explaining search.
/// Satisfaction's runs with -a or free search (under a solution limit the solutions otherwise keep the
/// sequential search's order), and on one rank alone: rank 0, which hands the solutions over, keeps each
/// once. Asked for the first solution in order in one process, the explaining searches still run, to
/// prove unsatisfiability only (SearchOptions::explain_proof_only).
void plan_learning(SearchOptions& o, bool distributed, bool other_rank, bool beside_gpu) {
  if (o.objective < 0 && ((o.max_solutions != 0 && o.ordered_solutions) || other_rank)) {
    if (o.learn == LearnMode::explain && o.max_solutions == 1 && o.ordered_solutions && !distributed) {
      o.explain_proof_only = true;
      if (!beside_gpu) o.explain_start_s = explain_proof_start_s;
    } else
      o.learn = LearnMode::none;
  }
  if (portfolio_rows(o, 2).free == 0 && o.learn != LearnMode::explain) o.learn = LearnMode::none;
}

/// The search from the root: the plan (the portfolio, a distributed search's split, learning), the
/// parts (the fleet, the host's helper, the explaining crew) and the run loop.
template <class ExecSpace>
SearchReport plan_and_run(const Program& program, SearchOptions o, const LaunchParams& lp, Peers* peers,
                          const SolutionCallback& cb, bool distributed) {
  constexpr bool beside_gpu = on_gpu<ExecSpace>();
  const auto start = Clock::now();
  if (o.portfolio < 0) o.portfolio = beside_gpu ? default_portfolio_gpu : default_portfolio;
  // The fleet's free share: a distributed rank other than 0 may run one of its own (rank_portfolio);
  // the host's rows and learning go by o.portfolio on every rank.
  double fleet_share = o.portfolio;
  std::unique_ptr<Distributed> dist;
  if (distributed) dist = plan_distributed<ExecSpace>(program, o, lp, *peers, fleet_share);
  plan_learning(o, distributed, distributed && peers->rank() > 0, beside_gpu);
  const int trace_rank = distributed ? peers->rank() : 0;
  trace_stage(trace_rank, "set-up", start);
  const std::unique_ptr<Searcher> fleet = make_searcher<ExecSpace>(program, with_share(o, fleet_share), lp, false);
  trace_stage(trace_rank, "fleet", start);
  // The host's cores beside the fleet: free rows on the host space (one thread each).
  std::unique_ptr<Searcher> helper;
  using Host = Kokkos::DefaultHostExecutionSpace;
  const int host_teams = o.host_teams == host_teams_auto ? (beside_gpu ? -1 : 0) : o.host_teams;
  const int explainers =
      o.explain_threads == explain_threads_auto ? explain_threads_for(beside_gpu, Host().concurrency()) : o.explain_threads;
  if (host_teams != 0 && o.objective >= 0 && portfolio_rows(o, 2).free > 0) {
    SearchOptions h = o;
    h.teams = std::max(0, host_teams);
    // Every host thread but the explaining threads'.
    if (h.teams == 0 && o.learn == LearnMode::explain) h.teams = std::max(1, Host().concurrency() - explainers);
    h.team_size = h.vector_length = 0;
    h.scratch_level = -1;
    helper = make_searcher<Host>(program, h, default_launch_params<Host>(), true);
    // Beside a GPU the cutter ends the host's slices with the GPU's: long ones restore the host's
    // stores less often (a restore per slice kept the host's rows at a few hundred nodes on
    // ma-path-finding, whose GPU slices take a second). Beside a host fleet they take turns.
    if (beside_gpu) helper->aim(1.0);
  }
  trace_stage(trace_rank, "helper", start);
  std::unique_ptr<ExplainCrew> explain;
  if (o.learn == LearnMode::explain) explain = std::make_unique<ExplainCrew>(program, o, explainers);
  trace_stage(trace_rank, "explaining", start);
  return run_search(*fleet, helper.get(), explain.get(), dist.get(), program, o, cb, start);
}

}  // namespace

template <class ExecSpace>
SearchReport search(const Program& program, const SearchOptions& options, const SolutionCallback& on_solution) {
  LaunchParams lp = default_launch_params<ExecSpace>();
  if (options.team_size > 0) lp.team_size = options.team_size;
  if (options.vector_length > 0) lp.vector_length = options.vector_length;
  Peers* const peers = options.peers != nullptr && options.peers->size() > 1 ? options.peers : nullptr;
  constexpr bool beside_gpu = on_gpu<ExecSpace>();
  const auto run = [&](const SearchOptions& o, const SolutionCallback& cb, bool distributed) {
    return plan_and_run<ExecSpace>(program, o, lp, peers, cb, distributed);
  };
  const bool probe = options.probe_s > 0 && options.teams == 0 && options.subproblem_depth < 0 &&
                     (default_teams<ExecSpace>(lp) > 1 || peers != nullptr);
  if (!probe) return run(options, on_solution, peers != nullptr);

  // The probe: one team, no split, solutions held back until it is known whether they are the answer.
  // Beside a GPU it runs on the host: one host thread finishes a small tree 3-5x sooner than one GPU
  // team (rcpsp_J30_44_9: 2-4 ms against 10 ms on an H200, 43_6: 10 against 41 ms), without launches or
  // the GPU's set-up (perf/NOTES.md entry 40).
  const auto start = Clock::now();
  double probe_s = options.probe_s;
  if (beside_gpu && options.objective < 0 && options.max_solutions == 1)
    probe_s = std::max(probe_s, options.time_limit_s > 0 ? std::min(options.satisfaction_probe_s, 0.1 * options.time_limit_s)
                                                          : options.satisfaction_probe_s);
  const bool limit_within_probe = options.time_limit_s > 0 && options.time_limit_s <= probe_s;
  SearchOptions p = options;
  p.teams = 1;
  p.subproblem_depth = 0;
  p.portfolio = 0;  // the probe is one complete search
  if (p.learn == LearnMode::explain) p.learn = LearnMode::restart;  // the explaining thread starts with the fleet
  p.time_limit_s = limit_within_probe ? options.time_limit_s : probe_s;
  std::vector<std::vector<std::int32_t>> held;
  const SolutionCallback hold = [&](const std::vector<std::int32_t>& store) {
    held.push_back(store);
    return true;
  };
  SearchReport pr;
  if constexpr (beside_gpu) {
    // The probe runs on the host, so a requested shape the GPU kernel cannot run is refused here as the
    // fleet would refuse it, not only when the probe leaves the search to the fleet. Without the kernel
    // object its team limit is the launch bounds' (the fleet checks the kernel's own again).
    if (options.team_size > 0 || options.vector_length > 0)
      refuse_unrunnable_shape<ExecSpace>(lp, [&] { return search_max_team_threads / lp.vector_length; });
    p.peers = nullptr;  // every rank probes on its own (below)
    p.team_size = p.vector_length = 0;
    p.scratch_level = -1;
    pr = search<Kokkos::DefaultHostExecutionSpace>(program, p, hold);
  } else {
    pr = run(p, hold, false);
  }
  const bool enough = options.objective < 0 && options.max_solutions > 0 && pr.solutions >= options.max_solutions;
  bool finished = pr.complete || enough || pr.interrupted || limit_within_probe;
  // Distributed: every rank probes the same tree; its answer is the answer when every rank finished
  // (rank 0 hands it over), else they all search from the root.
  if (peers != nullptr) finished = peers->all_min(finished ? 1 : 0) == 1;
  if (finished) {
    pr.solutions = 0;
    for (const auto& store : held) {
      ++pr.solutions;
      if (!on_solution(store)) {
        pr.complete = false;
        break;
      }
    }
    pr.probe_s = pr.solve_time_s;
    pr.probe_finished = true;
    return pr;
  }
  // The fleet, from the root, in what is left of the time limit; the probe's work counts in the totals.
  SearchOptions f = options;
  const double probe_took = seconds_since(start);
  if (options.time_limit_s > 0) f.time_limit_s = std::max(1e-3, options.time_limit_s - probe_took);
  SearchReport r = run(f, on_solution, peers != nullptr);
  add_work(r, pr);
  r.launches += pr.launches;
  r.setup_time_s += pr.setup_time_s;
  r.solve_time_s += probe_took;
  r.probe_s = probe_took;
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

