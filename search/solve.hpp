// The host control loop of the search: one loop for every backend. It launches the search kernel in
// bounded slices; between slices it hands new solutions to the caller (each improving one, in order,
// when optimising), checks the time limit and the interrupt flag, and decides when to stop.
#pragma once

#include "domains/program.hpp"
#include "search/branching.hpp"
#include "search/launch.hpp"
#include "search/learning.hpp"
#include "search/modes.hpp"
#include "search/peers.hpp"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace kcp {

/// One phase of the branching, in store variables (host form of SearchPhases).
struct SearchPhase {
  VarChoice var_choice = VarChoice::input_order;
  ValueChoice value_choice = ValueChoice::min;
  std::vector<int> vars;
};

enum class FixpointMode { automatic, queue, ac1 };
/// The variable choice of free search (-f, and the variables no annotation covers).
constexpr VarChoice default_free_var_choice = VarChoice::dom_wdeg;
/// Copies of stores one level apart where the budget allows (perf/NOTES.md, entry 13).
constexpr int default_copy_distance = 1;
/// SearchOptions::copy_distance by default: default_copy_distance where a row gets copy_reach_levels
/// copies or more, else the copies spaced to reach that many levels, at most max_auto_copy_distance apart
/// (search/driver/setup.hpp's copy_distance; perf/NOTES.md entry 66).
constexpr int copy_distance_auto = -1;
constexpr std::int64_t copy_reach_levels = 64;
constexpr std::int64_t max_auto_copy_distance = 16;
/// See SearchOptions::fixpoint_mode.
constexpr double auto_ac1_reads = 16;
/// Whether a search runs the event-driven fixpoint (the queue), before its workspaces' budget: asked for,
/// or FixpointMode::automatic's choice — on teams of several threads only at auto_ac1_reads reads a
/// variable or fewer. (Until perf/NOTES.md entry 45 CUDA ran AC1 whenever a program had bitsets: the
/// queue lost solutions there, which was ptxas's -O3, not the queue.)
inline bool queue_wanted(FixpointMode mode, bool one_thread_teams, double reads_per_variable) {
  return mode == FixpointMode::queue ||
         (mode == FixpointMode::automatic && (one_thread_teams || reads_per_variable <= auto_ac1_reads));
}
/// The event-driven fixpoint's workspaces (QueueWork, global memory) of all teams together stay within
/// this many bytes, else AC1 (or fewer teams: queue_fitted_teams).
constexpr double queue_work_budget_bytes = double(std::size_t(2) << 30);

/// A fleet left to its backend's teams (SearchOptions::teams 0) that wants the event-driven fixpoint
/// (queue_wanted) but whose `teams` workspaces of `work_bytes` each exceed queue_work_budget_bytes: as
/// many teams as fit, where that is at least an eighth of them; else all of them (on AC1). On ma-path-finding (328k
/// propagators, 239k variables: 6.8 MB a workspace) an H200's 1,056 teams on AC1 ran 15k nodes in 15 s at
/// 14M propagations a node, 256 on the queue 29k at 0.7M, 132 20k (perf/NOTES.md entry 40).
inline int queue_fitted_teams(int teams, double work_bytes) {
  const double fit = std::floor(queue_work_budget_bytes / std::max(1.0, work_bytes));
  if (fit >= teams) return teams;
  return fit >= std::max(1.0, teams / 8.0) ? static_cast<int>(fit) : teams;
}

/// SearchOptions::explain_start_s with explain_proof_only on the host's backends.
constexpr double explain_proof_start_s = 1.0;

/// SearchOptions::host_teams: the backend's default.
constexpr int host_teams_auto = -2;
/// SearchOptions::explain_threads: the backend's default (explain_threads_for).
constexpr int explain_threads_auto = 0;

/// Memory for the copies of stores over all teams (SearchOptions::copy_budget_bytes): 1 GiB.
inline constexpr double default_copy_budget_bytes = double(1u << 30);

/// Nodes between a GPU team's reads of the stop flag (SearchOptions::stop_poll; perf/NOTES.md entry 66):
/// 16 for the default 1,056 teams of an H200, more for more teams, so that the reads per node stay the
/// same (their round trips over the bus queue behind each other: read every node, they took a third
/// of a small model's node).
inline constexpr std::int64_t default_stop_poll_gpu = 16;
/// With more teams than default_stop_poll_gpu times this, a read every teams / this many nodes.
inline constexpr std::int64_t stop_poll_teams_per_node = 64;
inline std::int64_t default_stop_poll(std::int64_t teams) {
  return std::max(default_stop_poll_gpu, teams / stop_poll_teams_per_node);
}

struct SearchOptions {
  int objective = -1;                ///< store variable to minimise, or -1 for satisfaction
  std::int64_t max_solutions = 1;    ///< satisfaction: stop after this many; 0: all
  /// Satisfaction under a solution limit: the solutions in the order a sequential search reaches them
  /// (the fleet alone). False (free search, -f): with LearnMode::explain the explaining search runs
  /// beside the fleet too, and its solutions come as found.
  bool ordered_solutions = true;
  double time_limit_s = 0;           ///< 0: none
  std::vector<SearchPhase> phases;   ///< branching; a final phase over every variable is added:
  VarChoice free_var_choice = default_free_var_choice;  ///< its variable choice (split on the value)
  std::uint64_t seed = 0;            ///< random value choices
  std::uint64_t free_salt = 0;       ///< mixed into the free runs' draws only (a distributed search's ranks)
  std::int64_t slice_nodes = 0;      ///< nodes per team per launch; 0: adapted to ~0.05 s launches (1 s for the host's teams beside a GPU)
  /// Nodes between a team's reads of the stop flag on a GPU (host memory there, each read a trip over
  /// the bus); 0: default_stop_poll (16 for up to 1,087 teams). The host's backends read it every node.
  std::int64_t stop_poll = 0;
  int teams = 0;                     ///< 0: as many as the backend runs at once
  int subproblem_depth = -1;         ///< p for 2^p subproblems; -1: 0 for one team, else >= 16 per complete team (4: see search/driver/setup.hpp's subproblems_per_row)
  int max_depth = 0;                 ///< decision stack per team; 0: sized from the model and the teams
  int team_size = 0;                 ///< 0: the backend's default
  int vector_length = 0;             ///< 0: the backend's default
  int scratch_level = -1;            ///< -1: 0 when the store fits, else 1
  /// CUDA with Kokkos 3: the search kernel's shared memory carve-out in percent of the SM's (the rest
  /// is L1); -1: what the resident teams need (search/launch.hpp); -2: Kokkos' (prefer shared memory).
  int shared_carveout = -1;
  bool sort_propagators = true;      ///< ternary propagators ordered by op (neighbouring lanes, same code)
  int lane_row_terms = default_lane_row_terms;  ///< rows up to this long run one per lane (domains/program.hpp)
  bool snapshots = true;             ///< backtrack from copies of stores, not from the root (when one fits)
  /// Levels between two copies of the store on a team's way down its subproblem (hybrid
  /// recomputation, search/parallel_search.hpp); 0: only the subproblem's root is copied;
  /// copy_distance_auto: 1, or wider where the budget gives a row few copies.
  int copy_distance = copy_distance_auto;
  /// Memory all teams' copies may take together (bytes); the levels below the last copy that fits
  /// replay from it.
  double copy_budget_bytes = default_copy_budget_bytes;
  /// The event-driven fixpoint (queue), AC1, or automatic: queue, except AC1 on teams of several
  /// threads (GPUs) when a variable is read by more than auto_ac1_reads propagators on average, where
  /// the queue holds most of the propagators anyway and building it costs more than it saves.
  FixpointMode fixpoint_mode = FixpointMode::automatic;
  int max_fixpoint_iterations = 4096; ///< per node, then branch (0: no limit); see FixpointOptions
  /// Variables whose root domain spans 3 to this many values get a bitset (domains with holes,
  /// domains/store.hpp); wider ones stay bounds-only. 0: none (the bounds-only store, an ablation).
  std::int64_t bitset_span = default_bitset_span;
  /// Where the backend runs several teams and the caller leaves teams and subproblems to it: first
  /// search with one team and no split for at most this long. A tree that small is then finished
  /// without the fleet's subproblem dives (on CUDA, 1,056 teams explored 150x the nodes of queens'
  /// whole tree); otherwise its solutions are dropped and the fleet starts from the root. Beside a GPU
  /// it runs on one host thread. 0: no probe. 20 ms: every development instance a one-thread probe
  /// finishes takes at most 13 ms on this VM, none 13-200 ms (perf/NOTES.md entry 40).
  double probe_s = 0.02;
  /// Beside a GPU, for satisfaction's first solution (max_solutions 1), the probe runs up to this long
  /// instead (at most a tenth of the time limit): the sequential search finds 150- to 300-queens in a
  /// few hundred nodes on one host core, where a GPU team took 25 ms a node on their AC1 fixpoint and
  /// the fleet 4 s or more (perf/NOTES.md entry 42).
  double satisfaction_probe_s = 1.5;
  /// The portfolio when optimising (search/modes.hpp): the share of the teams on free runs (restarts,
  /// then LNS), the rest on the complete subproblem search, which alone proves optimality. One team
  /// (Serial) alternates launches between a complete row and a free one. 0: complete search only;
  /// -1: default_portfolio (default_portfolio_gpu on a GPU; the driver passes default_portfolio_gpu_ranks
  /// under mpirun on GPUs, solver/run.cpp). Satisfaction always searches completely.
  double portfolio = -1;
  /// Distributed: the share of the fleet's rows that run free on ranks other than 0 (-1: portfolio's).
  /// Free rows take the complete search's share of a GPU (perf/NOTES.md entry 34), and rank 0's with
  /// every rank's host rows may find the incumbents that other ranks' would; the host's rows and
  /// learning go by portfolio on every rank.
  double rank_portfolio = -1;
  RestartSequence restart = RestartSequence::luby;  ///< the free runs' failure limits; none: no free runs
  std::int64_t restart_base = 100;                  ///< failures of the sequence's unit
  bool lns = true;                                  ///< free runs take neighbourhoods once a solution exists
  /// Of those, the share that restarts from the root instead (FreeRuns::restart_permille), in [0, 1]:
  /// the runs that learn and prove (perf/NOTES.md entry 20).
  double restart_share = 0.2;
  bool phase_saving = true;                         ///< free runs branch towards the incumbent's values first
  /// Host threads that run free rows (restarts and LNS) beside the fleet, on the host's execution
  /// space, sharing the bound and the incumbent (meant for a GPU fleet; on a CPU fleet the two take
  /// turns). 0: none; -1: every host thread; host_teams_auto: -1 beside a GPU, else 0 (perf/NOTES.md
  /// entry 19). Optimisation with a portfolio only.
  int host_teams = host_teams_auto;
  /// Learning (search/learning.hpp): what the portfolio's free runs leave as nogoods for every team
  /// (optimisation with a portfolio only): none, the runs from the root (restarts), or every run
  /// (neighbourhoods too); explain: restarts, and the explaining search on one more host thread
  /// (search/explain.hpp; optimisation, with or without a portfolio, and satisfaction with every
  /// solution asked for, max_solutions 0, or without ordered_solutions, where it finds solutions
  /// too). Default: explain (perf/NOTES.md entries 20, 21 and 33).
  LearnMode learn = LearnMode::explain;
  int nogood_capacity = 1024;        ///< nogoods the pool holds (the least active half goes when full)
  int nogood_max_length = 8;         ///< longer ones are not kept (perf/NOTES.md entry 25: 8, not 32)
  /// Two watched literals per nogood and team (domains/nogoods.hpp): 1 on, 0 off, -1 the default (on).
  int nogood_watches = -1;
  std::int64_t nogood_log_ints = std::int64_t(1) << 20;  ///< a launch's log, per searcher (ints)
  /// LearnMode::explain: the explaining thread's learned clauses at most this long go to the pool
  /// (and at most nogood_max_length).
  int explain_export_length = 8;
  /// Called with every nogood kept into the pool and the objective bound it holds under (tests check
  /// each against the model).
  std::function<void(const std::vector<Literal>&, std::int64_t)> on_nogood;
  /// The variables LNS fixes from (store variables); empty: those of `phases`, else every variable.
  std::vector<int> neighbourhood;
  const volatile std::sig_atomic_t* interrupted = nullptr;  ///< set by a signal handler: stop soon
  /// The other processes of a distributed search (search/peers.hpp); null or one rank: a search alone.
  Peers* peers = nullptr;
  /// Distributed: chunks of subproblems dealt round-robin by rank instead of from the shared counter.
  bool static_chunks = false;
  /// Subproblems come in chunks of 2^chunk_log (search/search_state.hpp's chunks); -1: one chunk of
  /// all of them (a search alone; a distributed search chooses it).
  int chunk_log = -1;
  /// Complete rows take runs of up to this many consecutive subproblems (fewer when what is left over
  /// the complete rows is less; search/modes.hpp); 1: one at a time.
  int subproblem_runs = 1;
  /// On the subproblems' paths (the first p decisions) complete rows halve the chosen variable's values
  /// (search/branching.hpp's halve) instead of branching as the phase says: with x = v | x != v (or
  /// x = lo | x > lo) the subproblem of every right branch holds most of the tree, halves split it
  /// evenly. Never with satisfaction in order (the halves change the order of solutions).
  bool halve_path = false;
  /// Complete rows share the stores of the dive's nodes at one depth above the subproblems (the roots
  /// of blocks of consecutive subproblems: search/modes.hpp's DiveCache), and a dive into a subproblem
  /// of a block another row reached starts there; false: every dive from its row's own prefix.
  bool dive_cache = true;
  /// End-game splitting (search/modes.hpp's SplitPool): once no subproblem is left, complete rows
  /// give open branches of those in hand to rows with none. Never with satisfaction in order.
  bool end_game_split = true;
  /// Distributed end game: the pieces other ranks ask for come from the quarter of the holding complete
  /// rows whose prefixes are shortest (their open branches are the largest) instead of from any row.
  bool shallow_givers = false;
  /// Distributed with --learn explain: every rank runs an explaining search (its variable order rotated by
  /// rank) and sends the clauses it shares to every other rank; false: rank 0's alone, the others' rows
  /// learning as with restart.
  bool explain_every_rank = true;
  /// Satisfaction asking for the sequential search's first solution (set by search(), not an option):
  /// the explaining searches only prove unsatisfiability. Their first solution stops them and is kept
  /// aside (ordered_wait_s) and their clauses stay among them: the teams do not propagate the pool, whose clauses,
  /// though they cut no solution, prune values that first_fail's sizes and a random value's draws read,
  /// so the teams' first solution would no longer be the annotations' first (perf/NOTES.md entry 51).
  /// Before, learning was off there, and a chain of pigeonholes (search_stress_08_04) that Chuffed
  /// refutes at once ran out of time (perf/NOTES.md entry 50).
  bool explain_proof_only = false;
  /// With explain_proof_only: how long the teams have to find the first solution in the annotations'
  /// order before the explaining searches' solution, when they found one, is handed over instead (also
  /// when the search stops for time first). A learning search finds solutions the sequential order does
  /// not reach in time (QCP_qcp-20-187-6, nonogram, elitserien: perf/NOTES.md entry 58); the textbook
  /// models' first solutions in order come well within it.
  double ordered_wait_s = 2.0;
  /// The explaining searches start this long after the search (set by search(), not an option): with
  /// explain_proof_only on the host's backends 1 s, where their thread takes a core from the teams and
  /// most satisfaction models are answered sooner (on this VM's 2 cores it made queens_200 0.52 ->
  /// 0.89 s, queens_300 1.95 -> 3.17 s; perf/NOTES.md entry 50); else 0.
  double explain_start_s = 0;
  /// LearnMode::explain: explaining searches per process, each on a host thread of its own, each in its
  /// own variable order and restart unit, sharing their clauses through the pool between slices (beside
  /// a GPU they take host threads from the host's rows). explain_threads_auto: explain_threads_for.
  int explain_threads = explain_threads_auto;
  /// The explaining search's variable order rotated by variant / variants of its length (a distributed
  /// search's rank and ranks; the process's threads divide a rank's share).
  int explain_variant = 0, explain_variants = 1;
  /// Satisfaction with the explaining search beside the fleet: the solutions the driver keeps to hand
  /// each over once (the explaining searches' and the fleet's can meet), at most this many bytes; past
  /// it the explaining searches stop and the fleet searches on alone.
  std::size_t explain_solution_bytes = std::size_t(4) << 20;
};

/// A distributed search: one rank's figures (SearchReport::rank_figures).
struct RankFigures {
  std::int64_t nodes = 0, subproblems_solved = 0, chunks = 0;
  double idle_s = 0;  ///< from when its part of the tree was done to the end
};

/// SearchOptions::explain_threads_auto: one explaining search beside a host fleet (which has the
/// cores), and beside a GPU one per four host threads, at most four (perf/NOTES.md entry 31).
inline int explain_threads_for(bool beside_gpu, int host_threads) {
  return beside_gpu ? std::clamp(host_threads / 4, 1, 4) : 1;
}

/// Whether a search on ExecSpace runs beside the host rather than on it: a GPU, a space whose memory
/// the host cannot read (its host threads then run free rows and explaining searches beside it).
template <class ExecSpace>
constexpr bool on_gpu() {
  return !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
}

/// SearchOptions::portfolio by default: half the teams on the host's backends (a team a core); a
/// quarter beside a GPU, whose teams share its SMs: one GPU's search runs about as fast on a quarter of
/// its teams as on all of them, so free teams take the complete search's throughput in proportion to
/// their number (diameterc-mst proved 1.4x sooner at a quarter, objectives no worse: perf/NOTES.md
/// entry 34).
constexpr double default_portfolio = 0.5, default_portfolio_gpu = 0.25;
/// Under mpirun on GPUs, rank 0's (ranks after it give their GPUs to the complete search:
/// rank_portfolio): every rank's host teams search freely too, so rank 0's GPU keeps a twentieth of its
/// teams free, not a quarter (diameterc-mst on two H200s 1.51 -> 1.37 s, on four 1.04 -> 0.98 s:
/// perf/NOTES.md entry 38).
constexpr double default_portfolio_gpu_ranks = 0.05;

struct SearchReport {
  bool complete = false;     ///< the whole tree was explored (optimum proven / all solutions found)
  bool interrupted = false;  ///< stopped by the interrupt flag
  bool timed_out = false;
  std::int64_t nodes = 0, failures = 0, solutions = 0, peak_depth = 0, fixpoint_iterations = 0;
  /// Where a node's work goes besides its own fixpoint: nodes recomputed after a backtrack or at a
  /// launch's start, the decisions they replayed, and propagator runs in all fixpoints.
  std::int64_t restores = 0, replayed_decisions = 0, propagations = 0;
  std::int64_t best = INT64_MAX;
  std::int64_t subproblems = 0, subproblems_solved = 0, subproblems_skipped = 0;
  std::int64_t subproblem_runs = 0;  ///< runs of consecutive subproblems the complete rows took from the counter (SearchOptions::subproblem_runs)
  std::int64_t split_pieces = 0;     ///< pieces of subproblems complete rows took from others in the end game (SplitPool)
  /// The complete rows' nodes above the subproblems' roots (their dives), and the dives that started
  /// from a block's root in the dive cache (SearchOptions::dive_cache) at depth dive_cache_depth (0: off).
  std::int64_t path_nodes = 0, dive_cache_hits = 0;
  std::int64_t dive_prefetches = 0;  ///< dives to a block's root made ahead for the other rows (DiveCache)
  std::int64_t dive_cache_misses = 0;  ///< dives that started above their block's root, not yet published
  int dive_cache_depth = 0;
  bool end_game_split = false;       ///< whether the complete rows split in the end game (SearchOptions::end_game_split)
  /// Distributed: pieces a rank's rows gave to other ranks, and pieces ranks took from others.
  std::int64_t split_exported = 0, split_imported = 0;
  int idle_teams = 0;  ///< complete teams with no subproblem left when the search stopped
  int free_teams = 0;  ///< rows on free runs (the portfolio; a Serial team's second row counts)
  std::int64_t restarts = 0, neighbourhoods = 0;  ///< free runs without and with an incumbent
  std::int64_t neighbourhoods_exhausted = 0;      ///< neighbourhoods searched to the end in their limit
  /// Improving solutions handed over, by the rows that found them: complete, free before any
  /// incumbent existed (restarts), free from a neighbourhood (LNS).
  std::int64_t improvements_complete = 0, improvements_restart = 0, improvements_lns = 0;
  std::int64_t improvements_host = 0;  ///< of those, found by the host's rows beside the fleet
  std::int64_t improvements_explain = 0;  ///< of those, found by the explaining thread (LearnMode::explain)
  std::int64_t solutions_explain = 0;  ///< satisfaction: of the solutions, those the explaining searches handed over first
  /// The explaining thread: its decisions, conflicts, clauses learned (their literals together),
  /// those sent to the pool, resolution steps, the propagator runs that minimised explanations, and
  /// its propagations (propagators and clauses).
  std::int64_t explain_nodes = 0, explain_conflicts = 0, explain_learned = 0, explain_exported = 0;
  std::int64_t explain_literals = 0, explain_resolutions = 0, explain_runs = 0, explain_propagations = 0;
  std::int64_t explain_family = 0;  ///< of the explanations, those a family gave itself (search/explain.hpp)
  std::int64_t explain_lifted = 0;  ///< of those, with the family's lifted bounds
  bool explain_failed = false;  ///< an explaining thread ended on an exception (out of memory); the rest went on
  std::int64_t explain_threads = 0;  ///< explaining searches (distributed: over every rank)
  int host_teams = 0;                  ///< the host's rows beside the fleet (SearchOptions::host_teams)
  std::int64_t host_nodes = 0;         ///< of nodes, the host's rows'
  std::int64_t complete_nodes = 0;     ///< of nodes, the complete rows' (the rest: free rows, the host's)
  /// Beside the host's rows: how long the fleet's finished slices waited for the host's slice to end.
  double fleet_wait_s = 0;
  /// Learning: nogoods kept into the pool over the search, learned but not kept (too long, duplicates,
  /// never firing, or past the log), deleted to make room, in the pool at the end; narrowings and
  /// failures they caused; whether the search was proven complete by the empty nogood.
  std::int64_t nogoods_learned = 0, nogoods_dropped = 0, nogoods_deleted = 0, nogoods_kept = 0;
  std::int64_t nogood_propagations = 0, nogood_failures = 0;
  bool proved_by_nogood = false;
  /// Distributed: clauses other ranks' explaining searches sent this one, and of those, absorbed into its pool.
  std::int64_t nogoods_received = 0, nogoods_received_absorbed = 0;
  double best_time_s = 0;  ///< when the last improving solution was handed over (since the search began)
  /// Minimisation: a lower bound on the objective (the root fixpoint's; the best when complete).
  std::int64_t objective_bound = INT64_MIN;
  int bitset_vars = 0;     ///< store variables with a bitset
  int bounds_only_vars = 0;  ///< store variables of 3 or more values left without one (span or budget)
  std::int64_t domain_bytes = 0;  ///< one team's store: bounds and bitset words
  bool snapshots = false;  ///< whether backtracking restored copies of stores (SearchOptions::snapshots)
  int copy_distance = 0;   ///< levels between copies (0: the subproblem's root only)
  int store_slots = 0;     ///< copies of the store each team can hold
  bool queue_fixpoint = false;  ///< whether the event-driven fixpoint ran (SearchOptions::fixpoint_mode)
  bool nogood_watches = false;  ///< whether the teams watched two literals per nogood (SearchOptions::nogood_watches)
  double reads_per_variable = 0;  ///< propagators reading a variable, on average
  int scratch_level = 0, teams = 1, team_size = 1, vector_length = 1, subproblem_depth = 0, launches = 0;
  int shared_carveout = -1;  ///< the carve-out set (SearchOptions::shared_carveout), percent; -1: none
  double solve_time_s = 0;
  double setup_time_s = 0;  ///< of solve_time_s: uploads, the root fixpoint, allocations (before the first launch)
  double probe_s = 0;       ///< of solve_time_s: the one-team probe (SearchOptions::probe_s); 0: none ran
  bool probe_finished = false;  ///< the probe's answer is the answer (the report is the probe's)
  std::string space;
  /// A distributed search (search/peers.hpp): its ranks (the counters above are summed over them),
  /// the chunks dealt and their size, and each rank's figures (rank 0 first).
  int ranks = 1;
  std::int64_t chunks = 0, chunk_size = 0;
  bool static_chunks = false;
  std::vector<RankFigures> rank_figures;
};

/// Called with the store values of each solution (when optimising, each improving one, in order);
/// returns false to stop the search.
using SolutionCallback = std::function<bool(const std::vector<std::int32_t>&)>;

template <class ExecSpace>
SearchReport search(const Program& program, const SearchOptions& options, const SolutionCallback& on_solution);

/// Runs `search` on the execution space named `space` ("serial", "openmp", "cuda", or "default").
/// Throws std::invalid_argument for a space this build does not have.
SearchReport search_on(const std::string& space, const Program& program, const SearchOptions& options,
                       const SolutionCallback& on_solution);

}  // namespace kcp
