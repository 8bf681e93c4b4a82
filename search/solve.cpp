#include "search/solve.hpp"

#include "domains/root_fixpoint.hpp"
#include "search/explain.hpp"
#include "search/parallel_search.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <unordered_set>

namespace kcp {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
/// The time point `s` seconds from now.
Clock::time_point seconds_from_now(double s) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

/// Whether KCP_TRACE is set: the driver's trace lines on stderr (run_search, trace_stage).
bool tracing() {
  static const bool trace = std::getenv("KCP_TRACE") != nullptr;
  return trace;
}

/// Tracing: a line on stderr when a search reaches `stage`, with the seconds since `start` and the wall
/// clock (seconds within the minute), which lines up the traces of a distributed search's ranks.
void trace_stage(int rank, const char* stage, Clock::time_point start) {
  if (!tracing()) return;
  const double wall = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  std::fprintf(stderr, "kcp-trace-stage rank=%d t=%.4f wall=%.4f %s\n", rank, seconds_since(start), std::fmod(wall, 60.0),
               stage);
}

/// A generous guess at the decisions a dive needs: a few per variable, more for wide domains
/// (indomain_min may take one per value where decisions on other variables come between).
std::int64_t expected_depth(const Program& p) {
  std::int64_t depth = 1;
  for (int x = 0; x < p.num_vars(); ++x) depth += std::min<std::int64_t>(std::int64_t(p.ub[x]) - p.lb[x] + 1, 64);
  return depth;
}

/// How often each store variable occurs in a propagator (for the occurrence choices).
std::vector<std::int32_t> occurrences(const Program& p) {
  std::vector<std::int32_t> occ(p.num_vars(), 0);
  for (const int x : p.var) ++occ[x];
  for (const int b : p.reif_var)
    if (b >= 0) ++occ[b];
  for (const Ternary& t : p.ternary) {
    ++occ[t.x];
    ++occ[t.y];
    if (t.z != t.y) ++occ[t.z];
  }
  for (int e = 0; e < p.num_elements(); ++e) {
    ++occ[p.elem_index[e]];
    ++occ[p.elem_result[e]];
  }
  for (const GlobalTable& g : p.global)
    for (const int x : g.vars) ++occ[x];
  return occ;
}

/// The phases `phases` and the final one over every variable, on the device. With `shared`, the
/// occurrences and the failure weights are shared's (computed and allocated once for both sets).
template <class MemorySpace>
SearchPhases<MemorySpace> upload_phases(const Program& p, std::vector<SearchPhase> phases, const SearchOptions& o,
                                        const SearchPhases<MemorySpace>* shared = nullptr) {
  SearchPhase all{o.free_var_choice, ValueChoice::split, {}};
  for (int x = 0; x < p.num_vars(); ++x) all.vars.push_back(x);
  phases.push_back(all);  // every variable is fixed at a leaf
  std::vector<std::int32_t> begin{0}, vars;
  std::vector<std::int8_t> vc, valc;
  for (const SearchPhase& ph : phases) {
    if (ph.vars.size() >= (std::size_t(1) << 28)) throw std::length_error("a search phase has 2^28 variables or more");
    for (const int x : ph.vars) {
      if (x < 0 || x >= p.num_vars()) throw std::out_of_range("search phase names an unknown variable");
      vars.push_back(x);
    }
    begin.push_back(static_cast<std::int32_t>(vars.size()));
    vc.push_back(static_cast<std::int8_t>(ph.var_choice));
    valc.push_back(static_cast<std::int8_t>(ph.value_choice));
  }
  SearchPhases<MemorySpace> d;
  d.begin = detail::upload<std::int32_t, MemorySpace>("kcp::search::phase_begin", begin);
  d.vars = detail::upload<std::int32_t, MemorySpace>("kcp::search::phase_vars", vars);
  d.var_choice = detail::upload<std::int8_t, MemorySpace>("kcp::search::var_choice", vc);
  d.value_choice = detail::upload<std::int8_t, MemorySpace>("kcp::search::value_choice", valc);
  if (shared != nullptr) {
    d.occurrences = shared->occurrences;
    d.weights = shared->weights;  // both sets end with the same phase: dom_wdeg in one is in the other
  } else {
    d.occurrences = detail::upload<std::int32_t, MemorySpace>("kcp::search::occurrences", occurrences(p));
    if (std::find(vc.begin(), vc.end(), static_cast<std::int8_t>(VarChoice::dom_wdeg)) != vc.end())
      d.weights = Kokkos::View<std::int32_t*, MemorySpace>("kcp::search::weights", std::size_t(p.num_vars()));
  }
  d.seed = o.seed;
  return d;
}

/// The variables the search's value choices branch on by x = v | x != v (median, random and their
/// outdomain forms): they want a bitset whatever their width (Program::give_bitsets).
std::vector<char> value_decision_vars(const Program& p, const SearchOptions& o) {
  std::vector<char> wanted(std::size_t(p.num_vars()), 0);
  for (const SearchPhase& ph : o.phases)
    if (ph.value_choice == ValueChoice::median || ph.value_choice == ValueChoice::random ||
        ph.value_choice == ValueChoice::out_median || ph.value_choice == ValueChoice::out_random)
      for (const int x : ph.vars) wanted[std::size_t(x)] = 1;
  return wanted;
}

/// The bitsets the search gives a program (SearchOptions::bitset_span, default_bitset_words): the one
/// place the searchers and the explaining search build their layout from.
void give_search_bitsets(Program& p, const SearchOptions& o) {
  if (o.bitset_span > 0) p.give_bitsets(o.bitset_span, default_bitset_words, value_decision_vars(p, o));
}

/// Whether the program the search runs has bitsets: the original's, or the ones bitset_span gives.
bool has_bitsets(const Program& p, const SearchOptions& o) {
  if (!p.bits.empty()) return true;
  return o.bitset_span > 0 && !p.bitset_candidates(o.bitset_span, value_decision_vars(p, o)).empty();
}

/// The rows of the search state (search/modes.hpp): rows 0 .. complete - 1 search the subproblems,
/// the rest run restarts and LNS; one team alternates between a complete row and a free one.
struct Rows {
  int complete = 1, free = 0;
  bool alternate = false;
  int total() const { return complete + free; }
};

/// `o.portfolio` is the share itself: search()'s run resolves the default (-1) by backend first.
Rows portfolio_rows(const SearchOptions& o, int teams) {
  if (o.portfolio < 0) throw std::logic_error("kcp: the portfolio's share is not resolved");
  const double share = o.portfolio;
  Rows r;
  if (o.objective >= 0 && o.restart != RestartSequence::none && share > 0)
    r.free = teams == 1 ? 1 : std::clamp(static_cast<int>(std::lround(teams * share)), 1, teams - 1);
  r.alternate = teams == 1 && r.free == 1;
  r.complete = r.alternate ? 1 : teams - r.free;
  return r;
}

/// The variables LNS fixes from: the caller's, else the annotated decision variables, else every
/// variable; never the objective (the bound constrains it).
std::vector<std::int32_t> neighbourhood_vars(const SearchOptions& o, int n) {
  std::vector<std::int32_t> vars;
  std::vector<char> seen(std::size_t(n), 0);
  const auto add = [&](int x) {
    if (x >= 0 && x < n && x != o.objective && !seen[std::size_t(x)]) seen[std::size_t(x)] = 1, vars.push_back(x);
  };
  for (const int x : o.neighbourhood) add(x);
  if (vars.empty())
    for (const SearchPhase& ph : o.phases)
      for (const int x : ph.vars) add(x);
  if (vars.empty())
    for (int x = 0; x < n; ++x) add(x);
  return vars;
}

/// Replaces the program's root store by its fixpoint (so that a restore from the root starts the
/// event-driven fixpoint from the replayed decisions' events only); keeps it when the root fails, or
/// when the fixpoint stops first: at the time limit (`time_limit_s` from now, 0: none), or after
/// max_iterations AC1 sweeps' worth of propagator runs. Returns whether it did. Event-driven: AC1 took
/// 1.6 s of pentominoes_02's 3 s here (perf/NOTES.md entry 49).
bool root_to_fixpoint(Program& program, DeviceProgram<Kokkos::HostSpace>& host, int max_iterations, double time_limit_s) {
  std::vector<std::int32_t> lb = program.lb, ub = program.ub;
  std::vector<DomainWord> bits = program.bits;
  const Clock::time_point deadline = time_limit_s > 0 ? seconds_from_now(time_limit_s) : Clock::time_point::max();
  const RootFixpointResult r =
      event_fixpoint(program, host, host.store<false>(lb.data(), ub.data(), bits.data()), deadline,
                     std::int64_t(max_iterations > 0 ? max_iterations : 4096) * std::max(1, program.num_propagators()));
  if (r.failed || r.stopped) return false;
  host.root_lb = detail::upload<std::int32_t, Kokkos::HostSpace>("kcp::program::root_lb", lb);
  host.root_ub = detail::upload<std::int32_t, Kokkos::HostSpace>("kcp::program::root_ub", ub);
  host.root_bits = detail::upload<DomainWord, Kokkos::HostSpace>("kcp::program::root_bits", bits);
  program.lb = std::move(lb);
  program.ub = std::move(ub);
  program.bits = std::move(bits);
  return true;
}

/// The per-team counters of the state's rows added into the report.
template <class TeamMirror>
void add_team_totals(SearchReport& report, const TeamMirror& team, const Rows& rows) {
  for (int t = 0; t < rows.total(); ++t) {
    if (t >= rows.complete) {
      report.neighbourhoods += team(t, team_neighbourhoods);
      report.restarts += team(t, team_runs) - team(t, team_neighbourhoods);
      report.neighbourhoods_exhausted += team(t, team_lns_exhausted);
    }
    report.nodes += team(t, team_nodes);
    if (t < rows.complete) {
      report.complete_nodes += team(t, team_nodes);
      report.path_nodes += team(t, team_path_nodes);
      report.dive_cache_hits += team(t, team_dive_cache_hits);
      report.dive_prefetches += team(t, team_dive_prefetches);
      report.dive_cache_misses += team(t, team_dive_cache_misses);
    }
    report.failures += team(t, team_failures);
    report.fixpoint_iterations += team(t, team_fixpoint_iterations);
    report.restores += team(t, team_restores);
    report.replayed_decisions += team(t, team_replayed);
    report.propagations += team(t, team_propagations);
    report.peak_depth = std::max(report.peak_depth, team(t, team_peak_depth));
    report.subproblems_solved += team(t, team_solved);
    report.subproblem_runs += team(t, team_subproblem_runs);
    report.split_pieces += team(t, team_split_taken);
  }
}

using Counter = std::int64_t SearchReport::*;
/// The work counters that add up over searchers (nodes first; the peak depth is a maximum).
constexpr Counter work_counters[] = {&SearchReport::nodes,
                                     &SearchReport::failures,
                                     &SearchReport::fixpoint_iterations,
                                     &SearchReport::restores,
                                     &SearchReport::replayed_decisions,
                                     &SearchReport::propagations,
                                     &SearchReport::restarts,
                                     &SearchReport::neighbourhoods,
                                     &SearchReport::neighbourhoods_exhausted,
                                     &SearchReport::subproblem_runs,
                                     &SearchReport::split_pieces,
                                     &SearchReport::complete_nodes,
                                     &SearchReport::path_nodes,
                                     &SearchReport::dive_cache_hits,
                                     &SearchReport::dive_prefetches,
                                     &SearchReport::dive_cache_misses};

/// Adds the work counters of `from` (another searcher's, the probe's) into `to`.
void add_work(SearchReport& to, const SearchReport& from) {
  for (const Counter c : work_counters) to.*c += from.*c;
  to.peak_depth = std::max(to.peak_depth, from.peak_depth);
}

/// Whether the complete rows split their subproblems in the end game (search/modes.hpp's SplitPool):
/// among two complete rows at least, not with satisfaction in order.
bool splits_end_game(const SearchOptions& o, int complete_rows) {
  return o.end_game_split && complete_rows >= 2 && !(o.objective < 0 && o.max_solutions > 0);
}

/// Subproblems per complete row when the split depth is left to kcp: 16, for balance when a row's
/// subproblems are its only work; 4 when optimising with end-game splitting, which balances the end
/// instead (a coarser split saves the dives: perf/NOTES.md entry 30).
double subproblems_per_row(const SearchOptions& o, int complete_rows) {
  return o.objective >= 0 && splits_end_game(o, complete_rows) ? 4.0 : 16.0;
}

/// Copies of stores per row: one every copy_distance of the `levels` below the subproblem's root, at
/// most 512, and as many as fit in the budget over all rows (none when not even the subproblem's root
/// fits). The levels below the last one replay from it.
int store_slots(const SearchOptions& o, int rows, std::int64_t domain_bytes, std::int64_t levels) {
  constexpr std::int64_t max_store_slots = 512;
  if (!o.snapshots) return 0;
  const double per_slot = double(rows) * double(domain_bytes);
  const std::int64_t fit = per_slot > 0 ? static_cast<std::int64_t>(o.copy_budget_bytes / per_slot) : 0;
  const std::int64_t wanted = o.copy_distance > 0 ? (levels + o.copy_distance - 1) / o.copy_distance + 1 : 1;
  return static_cast<int>(std::min({fit, wanted, max_store_slots}));
}

/// A host thread that calls poll() every `period` until it returns false or the object is destroyed
/// (the thread is joined then). Declare it after the members poll() uses: it stops before they go.
class PollingThread {
 public:
  template <class Poll>
  PollingThread(std::chrono::microseconds period, Poll poll)
      : thread_([this, period, poll = std::move(poll)]() mutable {
          while (!done_.load() && poll()) std::this_thread::sleep_for(period);
        }) {}
  ~PollingThread() {
    done_ = true;
    thread_.join();
  }
  PollingThread(const PollingThread&) = delete;
  PollingThread& operator=(const PollingThread&) = delete;

 private:
  std::atomic<bool> done_{false};
  std::thread thread_;
};

/// Raises the kernels' stop flags at the time limit or on a signal, so that a long launch (a huge
/// store, a slow fixpoint) ends at its next node, on every backend.
class Watchdog {
 public:
  Watchdog(std::vector<volatile int*> stop_flags, const SearchOptions& o, Clock::time_point start)
      : poller_(std::chrono::milliseconds(10), [this, flags = std::move(stop_flags), &o, start]() {
          if ((o.time_limit_s <= 0 || seconds_since(start) < o.time_limit_s) && !(o.interrupted && *o.interrupted))
            return true;
          for (volatile int* f : flags) *f = 1;
          fired_ = true;
          return false;
        }) {}
  /// Whether it has raised the flags (they stay raised).
  bool fired() const { return fired_.load(); }

 private:
  std::atomic<bool> fired_{false};
  PollingThread poller_;
};

/// A solution found: its key (the objective, or 0), which kind of row found it, and its values.
enum Source { from_complete, from_restart, from_lns, from_explain };
struct Found {
  std::int64_t key;
  Source source;
  bool host;  ///< found by the host's searcher beside the GPU (SearchOptions::host_teams)
  std::vector<std::int32_t> values;
};

/// Sorts solutions worst first, so that handing them over in order is an improving sequence.
void sort_worst_first(std::vector<Found>& found) {
  std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.key > b.key; });
}

/// What one launch of a searcher left.
struct Slice {
  std::vector<Found> found;  ///< optimisation: its solutions
  /// Satisfaction: its solutions by subproblem (the order of the sequential search).
  std::vector<std::pair<std::int64_t, std::vector<std::int32_t>>> held;
  int idle = 0;                       ///< complete rows with no subproblem left
  bool complete = false;              ///< it has complete rows and every one is idle
  std::int64_t open = INT64_MAX;      ///< the least subproblem still in a row's hands
  std::vector<std::int32_t> learned;  ///< the nogoods its rows logged (search/learning.hpp)
};

/// One search state and its kernel on one execution space, launched in slices by the driver
/// (run_search below), which owns time, signals, the incumbent, the bound and the output. The fleet
/// of the chosen backend is one; in a GPU run the host's cores can run a second (free rows only:
/// restarts and LNS, SearchOptions::host_teams) in the same process.
class Searcher {
 public:
  virtual ~Searcher() = default;
  /// Starts a slice (asynchronous on a GPU).
  virtual void launch() = 0;
  /// Whether the slice launched is still running (false on a host space, whose launches return done).
  virtual bool running() const = 0;
  /// Whether its launches return before the slice ends (a GPU's).
  virtual bool asynchronous() const = 0;
  /// Waits for the slice and collects what it left (solutions worst first); `ended`: when the slice was seen to end, if the
  /// caller did something else meanwhile (the node budget aims at launches of a fixed length).
  virtual Slice finish(std::optional<Clock::time_point> ended = std::nullopt) = 0;
  /// Hands the best objective and the incumbent's values (empty: none new) to the next slice.
  virtual void publish(std::int64_t best, const std::vector<std::int32_t>& incumbent) = 0;
  /// Adds the rows' counters into `report`.
  virtual void add_totals(SearchReport& report) const = 0;
  /// The flag that ends a running slice at its next node (raised by the Watchdog).
  virtual volatile int* stop_flag() = 0;
  /// Makes the calling thread able to ask running() (the GPU it runs on current in that thread).
  virtual void bind_thread() const {}
  /// The launch time the node budget aims at (default 50 ms).
  virtual void aim(double slice_s) = 0;
  /// Learning: adds what the nogoods of the pool last uploaded did to `store`'s activity, and
  /// uploads `store`'s pool when it changed since (between slices only).
  virtual void collect_activity(NogoodStore& store) = 0;
  virtual void upload_nogoods(const NogoodStore& store) = 0;
  /// Distributed (between slices): the subproblems of the chunks it holds that no row has taken; the
  /// first of them (INT64_MAX: none); hands it the chunk of 2^chunk_log subproblems from `first` (its
  /// idle complete rows take work again); the end of a failed subtree past the chunk it began in
  /// (0: none), reset.
  virtual std::int64_t unclaimed() const = 0;
  virtual std::int64_t first_unclaimed() const = 0;
  virtual void add_chunk(std::int64_t first) = 0;
  virtual std::int64_t take_skip_to() = 0;
  /// Distributed, end-game splitting across processes (between slices; search/modes.hpp's SplitPool):
  /// whether its rows split; has its rows give `extra` pieces more than its own waiting rows ask for
  /// (0: none more); takes out up to `max` published pieces as a piece log (per piece: its subproblem,
  /// its length, then five ints per decision); puts another process's pieces in (its idle complete rows
  /// take work again; what does not fit in the pool waits in a backlog, put in before the next
  /// launches); whether such a backlog is left.
  virtual bool splits() const = 0;
  virtual void want_pieces(std::int64_t extra) = 0;
  virtual std::vector<std::int64_t> take_pieces(std::int64_t max) = 0;
  virtual void put_pieces(const std::vector<std::int64_t>& log) = 0;
  virtual bool backlog() const = 0;
  /// Complete rows waiting for a piece at the last slice's end (those it was asked for beyond them not counted).
  virtual std::int64_t waiting() const = 0;
  /// KCP_TRACE: what the complete rows held at the last slice's end (rows holding a subproblem or a piece
  /// of one, how many distinct subproblems, the most held one and by how many rows, and the shortest
  /// and median never-undone prefix among the holders: how deep their pieces start).
  virtual std::string holdings() const { return {}; }
  /// Set up: the shape and the store's figures (the counters stay 0 until add_totals).
  SearchReport setup;
};

/// The teams a fleet runs: SearchOptions::teams, else the backend's default, fewer where the searcher
/// would run the event-driven queue (queue_wanted, as SliceSearcher decides it) but the default teams'
/// workspaces do not fit its budget (queue_fitted_teams). The workspace counts a pool's room whatever the
/// learning, so that every caller (the searcher, a distributed search's split) gets the same number.
template <class ExecSpace>
int fleet_teams(const Program& program, const SearchOptions& options, const LaunchParams& lp) {
  if (options.teams > 0) return options.teams;
  const int teams = default_teams<ExecSpace>(lp);
  const int n = program.num_vars();
  const double bytes =
      double(QueueWork::ints(program.num_propagators() + std::max(1, options.nogood_capacity), n)) * sizeof(std::int32_t);
  if (double(teams) * bytes <= queue_work_budget_bytes) return teams;
  // SliceSearcher's choice needs the reads per variable of the program it builds.
  const bool one_thread = lp.team_size * lp.vector_length == 1;
  double reads = 0;
  if (!one_thread && n > 0) {
    std::vector<std::int32_t> begin, props;
    propagators_of_variables(program, begin, props);
    reads = double(props.size()) / n;
  }
  return queue_wanted(options.fixpoint_mode, one_thread, reads) ? queue_fitted_teams(teams, bytes) : teams;
}

/// Refuses a requested team shape the search kernel cannot run on ExecSpace, naming the option (Kokkos
/// aborts on a team it cannot run): a vector length beyond the backend's, or more threads a team than
/// max_team() (asked only once the vector length is known to be valid) allows at that vector length.
template <class ExecSpace, class MaxTeam>
void refuse_unrunnable_shape(const LaunchParams& lp, const MaxTeam& max_team) {
  using Policy = Kokkos::TeamPolicy<ExecSpace, SearchLaunchBounds>;
  if (lp.vector_length > Policy::vector_length_max())
    throw std::invalid_argument("--vector-length " + std::to_string(lp.vector_length) + " on " + ExecSpace::name() +
                                ": at most " + std::to_string(Policy::vector_length_max()));
  const int most = max_team();
  if (lp.team_size > most)
    throw std::invalid_argument("--team-size " + std::to_string(lp.team_size) + " on " + ExecSpace::name() +
                                ": at most " + std::to_string(most) + " threads per team here (vector length " +
                                std::to_string(lp.vector_length) + ")");
}

template <class ExecSpace, bool Concurrent, bool Holes>
class SliceSearcher final : public Searcher {
  using Memory = typename ExecSpace::memory_space;
  using Kernel = ParallelSearch<ExecSpace, Concurrent, Holes>;
  using Policy = Kokkos::TeamPolicy<ExecSpace, SearchLaunchBounds>;
  /// Whether the host reads the state where it is (no copies, no global fences: a host searcher
  /// beside a GPU must not wait for the GPU's slice).
  static constexpr bool host_state = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible;

 public:
  /// `helper`: free rows only, for the host beside another searcher that runs the complete search.
  SliceSearcher(const Program& original, const SearchOptions& options, const LaunchParams& lp, bool helper)
      : options_(options), helper_(helper), policy_(1, 1) {
    const auto start = Clock::now();
    SearchReport& report = setup;
    report.space = ExecSpace::name();
    report.team_size = lp.team_size;
    report.vector_length = lp.vector_length;
    report.teams = fleet_teams<ExecSpace>(original, options, lp);
    rows_ = helper ? Rows{0, report.teams, false} : portfolio_rows(options, report.teams);
    const int rows = rows_.total();
    report.free_teams = rows_.free;
    if (helper) {
      report.subproblem_depth = 0;
    } else if (options.subproblem_depth >= 0) {
      report.subproblem_depth = options.subproblem_depth;
    } else if (rows_.complete > 1) {
      report.subproblem_depth =
          static_cast<int>(std::ceil(std::log2(subproblems_per_row(options, rows_.complete) * rows_.complete)));
    }
    if (report.subproblem_depth > 40) throw std::invalid_argument("at most 2^40 subproblems");
    report.subproblems = std::int64_t(1) << report.subproblem_depth;

    Kokkos::Profiling::pushRegion("kcp::search::setup");
    // The program the kernel runs: the ternary propagators sorted by op (an option), the root store
    // replaced by its fixpoint. Built once on the host (the root fixpoint runs there), then copied to
    // Memory (shared on a CPU).
    Program program = original;
    if (options.sort_propagators) sort_ternary_by_op(program);
    give_search_bitsets(program, options);
    report.bitset_vars = program.num_bitset_vars();
    report.bounds_only_vars = program.num_bounds_only_vars();
    DeviceProgram<Kokkos::HostSpace> host(program, options.lane_row_terms);
    const bool root_fixpoint = root_to_fixpoint(program, host, options.max_fixpoint_iterations, options.time_limit_s);
    n_ = program.num_vars();
    const int words = static_cast<int>(program.bits.size());
    if (!Holes && words > 0) throw std::logic_error("kcp: a program with bitsets in a kernel compiled without");
    report.domain_bytes = std::int64_t(n_) * 2 * sizeof(std::int32_t) + std::int64_t(words) * sizeof(DomainWord);
    std::int64_t capacity = options.max_depth;
    if (capacity <= 0) {
      // The decision stacks of all teams together stay within 2^25 entries (640 MB), each at least 1024.
      const std::int64_t each = std::max<std::int64_t>(1024, (std::int64_t(1) << 25) / rows);
      capacity = std::min(std::max<std::int64_t>(expected_depth(program) + report.subproblem_depth, 1024), each);
    }
    capacity_ = std::max<std::int64_t>(capacity, report.subproblem_depth + 1);
    kernel_.program = DeviceProgram<Memory>(host);
    kernel_.phases = upload_phases<Memory>(program, options.phases, options);
    kernel_.free_phases = upload_phases<Memory>(program, {}, options, &kernel_.phases);
    report.store_slots = store_slots(options, rows, report.domain_bytes, capacity_ - report.subproblem_depth);
    report.snapshots = report.store_slots > 0;
    report.copy_distance = report.snapshots ? options.copy_distance : 0;
    // The event-driven fixpoint's workspaces of all teams together stay within queue_work_budget_bytes,
    // else AC1 (fleet_teams has fitted the default teams where it could).
    // Learning: the pool's room, in the event-driven fixpoint's queue too (domains/nogoods.hpp).
    const int pool_capacity = options.learn != LearnMode::none ? std::max(1, options.nogood_capacity) : 0;
    const std::size_t work_ints = QueueWork::ints(program.num_propagators() + pool_capacity, n_);
    report.reads_per_variable = n_ > 0 ? double(kernel_.program.var_props.extent(0)) / n_ : 0;
    const bool one_thread = lp.team_size * lp.vector_length == 1;
    report.queue_fixpoint = queue_wanted(options.fixpoint_mode, one_thread, report.reads_per_variable) &&
                            double(rows) * double(work_ints) * sizeof(std::int32_t) <= queue_work_budget_bytes;
    // Watched literals of the pool (NogoodPool::propagate): on unless turned off (perf/NOTES.md entries
    // 25 and 26: the CUDA tests, compute-sanitizer and the differential with learning ran with them).
    report.nogood_watches = pool_capacity > 0 && options.nogood_watches != 0;
    kernel_.state = SearchState<Memory>(rows, n_, static_cast<int>(capacity_), report.store_slots,
                                        report.queue_fixpoint ? work_ints : 0, words,
                                        pool_capacity > 0 && rows_.free > 0 ? std::size_t(options.nogood_log_ints) : 0,
                                        pool_capacity > 0, report.nogood_watches ? pool_capacity : 0);
    if (pool_capacity > 0) {
      const std::size_t lits = std::size_t(pool_capacity) * std::size_t(std::max(1, options.nogood_max_length));
      // Written before they are read (upload_nogoods): no zeroing (a parallel region each at set-up).
      const auto bare = [](const char* name) { return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(name)); };
      pool_begin_ = decltype(pool_begin_)(bare("kcp::search::nogood_begin"), std::size_t(pool_capacity) + 1);
      pool_lits_ = decltype(pool_lits_)(bare("kcp::search::nogood_lits"), lits);
      pool_watch_begin_ = decltype(pool_watch_begin_)(bare("kcp::search::nogood_watch_begin"), std::size_t(n_) + 1);
      pool_watch_ = decltype(pool_watch_)(bare("kcp::search::nogood_watch"), lits);
      pool_watch_nogood_ = decltype(pool_watch_nogood_)(bare("kcp::search::nogood_watch_nogood"), lits);
      pool_activity_ = decltype(pool_activity_)("kcp::search::nogood_activity", 2 * std::size_t(pool_capacity));
      kernel_.pool.begin = pool_begin_;
      kernel_.pool.lits = pool_lits_;
      kernel_.pool.watch_begin = pool_watch_begin_;
      kernel_.pool.watch = pool_watch_;
      kernel_.pool.watch_nogood = pool_watch_nogood_;
      kernel_.pool.activity = pool_activity_;
      kernel_.pool.capacity = pool_capacity;
      // Raw nogoods up to twice the length kept: merging a variable's literals shortens many.
      kernel_.max_nogood_length = 2 * std::max(1, options.nogood_max_length);
      // The explaining thread beside: the free rows learn as with restart.
      const LearnMode rows_learn = options.learn == LearnMode::explain ? LearnMode::restart : options.learn;
      kernel_.learn = rows_.free > 0 ? rows_learn : LearnMode::none;
    }
    kernel_.queue = report.queue_fixpoint;
#ifdef KCP_CHECK_INVARIANTS
    if (report.subproblem_depth <= 22)
      kernel_.state.check_tree = decltype(kernel_.state.check_tree)("kcp::search::check_tree",
                                                                    std::size_t(1) << report.subproblem_depth);
#endif
    kernel_.root_fixpoint = root_fixpoint;
    kernel_.objective = options.objective;
    kernel_.path_length = report.subproblem_depth;
    // The chunks of subproblems it holds (SearchState::chunks): alone, one of all 2^p; distributed,
    // none until the driver deals them (at most all of them).
    const bool dealt = options.chunk_log >= 0 && !helper;
    kernel_.chunk_log = dealt ? std::min(options.chunk_log, report.subproblem_depth) : report.subproblem_depth;
    kernel_.state.chunks = decltype(kernel_.state.chunks)(
        "kcp::search::chunks", dealt ? std::size_t(1) << (report.subproblem_depth - kernel_.chunk_log) : 1);
    kernel_.complete_rows = rows_.complete;
    kernel_.run_cap = std::max(1, options.subproblem_runs);
    shallow_givers_ = options.shallow_givers;
    kernel_.halve_path = options.halve_path && !(options.objective < 0 && options.max_solutions > 0 && options.ordered_solutions);
    // The dive cache: where several complete rows dive into 2^p subproblems, p >= 3, in at most 4,096
    // blocks within a 16th of the copies' budget (64 MiB by default).
    if (options.dive_cache && rows_.complete > 1 && report.subproblem_depth >= 3) {
      const int p = report.subproblem_depth;
      const int log = DiveCache<Memory>::choose_log(p, report.domain_bytes, options.copy_budget_bytes / 16);
      if (log < p) {
        kernel_.dive = DiveCache<Memory>(p, log, n_, words, rows_.complete);
        report.dive_cache_depth = p - log;
      }
    }
    // End-game splitting: a slot per complete row up to 256; pieces from decisions up to 256 levels
    // below the subproblems' roots.
    report.end_game_split = splits_end_game(options, rows_.complete);
    if (report.end_game_split)
      kernel_.split = SplitPool<Memory>(std::min(rows_.complete, 256),
                                        static_cast<int>(std::min<std::int64_t>(capacity_, report.subproblem_depth + 256)));
    kernel_.free_runs.vars =
        detail::upload<std::int32_t, Memory>("kcp::search::lns_vars", neighbourhood_vars(options, n_));
    kernel_.free_runs.sequence = options.restart;
    kernel_.free_runs.base = std::max<std::int64_t>(1, options.restart_base);
    kernel_.free_runs.lns = options.lns;
    kernel_.free_runs.restart_permille = static_cast<int>(std::lround(std::clamp(options.restart_share, 0.0, 1.0) * 1000));
    kernel_.free_runs.phase_saving = options.phase_saving;
    kernel_.free_runs.windows = options.lns_windows;
    kernel_.free_runs.alternate = !options.phases.empty();
    // The host's rows draw other runs than the GPU's under the same seed.
    // A distributed search's ranks too, by free_salt (the complete rows' random value choices stay the
    // same everywhere: they shape the tree the subproblems are numbered in).
    std::uint64_t free_seed = helper ? detail::mix(options.seed + 0x68656c70ULL) : options.seed;
    if (options.free_salt != 0) free_seed = detail::mix(free_seed + options.free_salt);
    kernel_.free_runs.seed = free_seed;
    if (options.objective >= 0) report.objective_bound = program.lb[std::size_t(options.objective)];
    // Distance 0 (the subproblem's root only): a distance no depth below the root reaches.
    kernel_.copy_distance = report.copy_distance > 0 ? report.copy_distance : static_cast<int>(capacity_) + 1;
    kernel_.fixpoint.ternary_chunk = lp.vector_length;
    kernel_.fixpoint.local_ternary = options.local_fixpoint;
    kernel_.fixpoint.reconverge = options.reconverge;
    kernel_.fixpoint.max_iterations = options.max_fixpoint_iterations;
    report.setup_time_s = seconds_since(start);
    Kokkos::Profiling::popRegion();

    const std::size_t bytes = Kernel::scratch_bytes(n_, words);
    // Kokkos aborts on a team it cannot run: refuse a requested shape with the options' names instead
    // (the backend's default shape is the one measured, and is not second-guessed).
    if (!helper && (options.team_size > 0 || options.vector_length > 0))
      refuse_unrunnable_shape<ExecSpace>(
          lp, [&] { return Policy(1, 1, lp.vector_length).team_size_max(kernel_, Kokkos::ParallelForTag()); });
    policy_ = Policy(report.teams, lp.team_size, lp.vector_length);
    report.scratch_level = options.scratch_level >= 0 ? options.scratch_level
                           : bytes <= std::size_t(policy_.scratch_size_max(0)) ? 0 : 1;
    if (bytes > std::size_t(policy_.scratch_size_max(report.scratch_level)))
      throw std::length_error("the store (" + std::to_string(bytes) + " bytes) does not fit in team scratch level " +
                              std::to_string(report.scratch_level));
    policy_.set_scratch_size(report.scratch_level, Kokkos::PerTeam(bytes));
    level0_bytes_ = report.scratch_level == 0 ? bytes : 0;
    kernel_.scratch_level = report.scratch_level;

    team_ = Kokkos::create_mirror_view(kernel_.state.team);
    control_ = Kokkos::create_mirror_view(kernel_.state.control);
    // The counter's end: all 2^p subproblems, or, distributed, none until the driver deals chunks
    // before the first launch (add_chunk reads the mirrors).
    Kokkos::deep_copy(control_, kernel_.state.control);
    control_(ctl_subproblem_end) = dealt ? 0 : report.subproblems;
    Kokkos::deep_copy(kernel_.state.control, control_);
    if (dealt) Kokkos::deep_copy(team_, kernel_.state.team);
    incumbent_ = Kokkos::create_mirror_view(kernel_.state.incumbent);
    solution_row_ = Kokkos::create_mirror_view(Kokkos::subview(kernel_.state.solution, 0, Kokkos::ALL()));
    budget_ = options.slice_nodes > 0 ? options.slice_nodes : 1;  // grows with the measured cost
  }

  void launch() override {
    if (!backlog_.empty()) flush_backlog();
    kernel_.node_budget = budget_;
    // One team alternates: the complete row on even launches, the free row on odd ones.
    kernel_.first_row = rows_.alternate ? launches_ % 2 : 0;
    launch_start_ = Clock::now();
    Kokkos::parallel_for("kcp::search::parallel", policy_, kernel_);
    // After the first launch, where Kokkos 3 sets its own preference.
    if (launches_ == 0 && options_.shared_carveout != -2)
      setup.shared_carveout = set_shared_carveout<Kernel>(policy_, level0_bytes_, options_.shared_carveout);
  }

  bool running() const override {
#ifdef KOKKOS_ENABLE_CUDA
    if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>)
      return cudaStreamQuery(ExecSpace().cuda_stream()) == cudaErrorNotReady;
#endif
    return false;
  }

  Slice finish(std::optional<Clock::time_point> ended = std::nullopt) override {
    ExecSpace().fence();
    ++launches_;
    const double launch_s = std::chrono::duration<double>(ended.value_or(Clock::now()) - launch_start_).count();
    const int rows = rows_.total();
    std::vector<std::int64_t> nodes_before(rows);
    for (int t = 0; t < rows; ++t) nodes_before[t] = team_(t, team_nodes);
    if constexpr (!host_state) Kokkos::deep_copy(team_, kernel_.state.team);
    if (options_.slice_nodes <= 0) {
      // Aim at launches of about slice_s_: prompt to stop and print, cheap to relaunch. The busiest
      // team's nodes in this launch measure what a node costs; a launch that ended early (solutions,
      // teams out of work) says little, so the budget grows at most twofold per launch.
      std::int64_t busiest = 1;
      for (int t = 0; t < rows; ++t) busiest = std::max(busiest, team_(t, team_nodes) - nodes_before[t]);
      const double per_node = launch_s / double(busiest);
      const double target = per_node > 0 ? slice_s_ / per_node : double(2 * budget_);
      budget_ = std::max<std::int64_t>(1, std::min<std::int64_t>(2 * budget_, static_cast<std::int64_t>(target)));
    }
    if constexpr (!host_state) Kokkos::deep_copy(control_, kernel_.state.control);
    if (control_(ctl_error) == 1) throw std::runtime_error("the search kernel did not get its team scratch");
    Slice slice;
    if (control_(ctl_learned_ints) > 0) {
      // The log's entries that fit; the counter restarts for the next launch.
      const std::int64_t ints = std::min<std::int64_t>(control_(ctl_learned_ints), kernel_.state.learned.extent(0));
      slice.learned = fetch(kernel_.state.learned, std::size_t(ints));
      control_(ctl_learned_ints) = 0;
      if constexpr (!host_state) Kokkos::deep_copy(Kokkos::subview(kernel_.state.control, int(ctl_learned_ints)), std::int64_t(0));
    }
    if (control_(ctl_error) == 2)
      throw std::runtime_error("a decision stack overflowed (" + std::to_string(capacity_) +
                               " decisions); rerun with a larger --max-depth");

    bool any = false;
    for (int t = 0; t < rows; ++t) {
      if (!team_(t, team_has_solution)) continue;
      any = true;
      std::vector<std::int32_t> values(std::size_t(n_), 0);
      if constexpr (host_state) {
        for (int x = 0; x < n_; ++x) values[std::size_t(x)] = kernel_.state.solution(t, x);
      } else {
        Kokkos::deep_copy(solution_row_, Kokkos::subview(kernel_.state.solution, t, Kokkos::ALL()));
        std::copy(solution_row_.data(), solution_row_.data() + n_, values.begin());
      }
      if (options_.objective >= 0) {
        const Source source = t < rows_.complete ? from_complete
                              : team_(t, team_in_neighbourhood) ? from_lns
                                                                : from_restart;
        const std::int64_t key = values[std::size_t(options_.objective)];
        slice.found.push_back(Found{key, source, helper_, std::move(values)});
      } else {
        slice.held.emplace_back(team_(t, team_solution_subproblem), std::move(values));
      }
      team_(t, team_has_solution) = 0;
    }
    if (!host_state && any) Kokkos::deep_copy(kernel_.state.team, team_);
    sort_worst_first(slice.found);
    for (int t = 0; t < rows; ++t)
      if (team_(t, team_subproblem) >= 0) slice.open = std::min(slice.open, team_(t, team_subproblem));
    // A row diving ahead for the dive cache holds its own subproblem aside.
    for (int t = 0; t < rows_.complete && t < rows; ++t)
      if (team_(t, team_dive_prefetch)) slice.open = std::min(slice.open, team_(t, team_dive_saved));
    // A complete row's run holds subproblems it has not started: the least of them is open too.
    for (int t = 0; t < rows_.complete && t < rows; ++t)
      if (team_(t, team_run_next) < team_(t, team_run_end))
        slice.open = std::min(slice.open, subproblem_at(team_(t, team_run_next)));
    for (int t = 0; t < rows_.complete; ++t) slice.idle += team_(t, team_idle) ? 1 : 0;
    slice.complete = rows_.complete > 0 && slice.idle == rows_.complete;
    if (extra_wanted_ > 0) choose_givers();
    return slice;
  }

  void publish(std::int64_t best, const std::vector<std::int32_t>& incumbent) override {
    if (best < control_(ctl_best)) {
      control_(ctl_best) = best;
      if constexpr (!host_state) Kokkos::deep_copy(Kokkos::subview(kernel_.state.control, int(ctl_best)), best);
    }
    if (rows_.free == 0 || incumbent.empty()) return;
    for (int x = 0; x < n_; ++x) incumbent_(x) = incumbent[std::size_t(x)];
    incumbent_(n_) = 1;
    if constexpr (!host_state) Kokkos::deep_copy(kernel_.state.incumbent, incumbent_);
  }

  void collect_activity(NogoodStore& store) override {
    if (kernel_.pool.count == 0) return;
    const std::size_t ints = 2 * std::size_t(kernel_.pool.count);
    store.add_activity(fetch(pool_activity_, ints).data(), kernel_.pool.count);
    put(pool_activity_, std::vector<std::int32_t>(ints, 0));  // only the counters in use, no parallel region
  }

  void upload_nogoods(const NogoodStore& store) override {
    if (kernel_.pool.capacity == 0 || store.generation() == uploaded_generation_) return;
    std::vector<std::int32_t> begin, watch_begin, watch, watch_nogood;
    std::vector<Literal> lits;
    store.layout(n_, begin, lits, watch_begin, watch, watch_nogood);
    put(pool_begin_, begin);
    put(pool_lits_, lits);
    put(pool_watch_begin_, watch_begin);
    put(pool_watch_, watch);
    put(pool_watch_nogood_, watch_nogood);
    kernel_.pool.count = static_cast<int>(begin.size()) - 1;
    kernel_.pool.epoch = store.epoch();
    uploaded_generation_ = store.generation();
  }

  std::int64_t unclaimed() const override {
    const std::int64_t end = control_(ctl_subproblem_end);
    return end - std::min(control_(ctl_next_subproblem), end);
  }

  std::int64_t first_unclaimed() const override {
    const std::int64_t next = control_(ctl_next_subproblem);
    if (next >= control_(ctl_subproblem_end)) return INT64_MAX;
    return subproblem_at(next);
  }
  /// The subproblem the counter's value `local` names (alone: itself; distributed: in a dealt chunk).
  std::int64_t subproblem_at(std::int64_t local) const {
    return chunks_.empty() ? local : dealt_subproblem(chunks_.data(), local, kernel_.chunk_log);
  }

  void add_chunk(std::int64_t first) override {
    const std::int64_t size = std::int64_t(1) << kernel_.chunk_log, end = control_(ctl_subproblem_end);
    if (std::int64_t(chunks_.size()) >= std::int64_t(kernel_.state.chunks.extent(0)))
      throw std::logic_error("kcp: more chunks dealt than subproblems");
    Kokkos::deep_copy(Kokkos::subview(kernel_.state.chunks, chunks_.size()), first);
    chunks_.push_back(first);
    // Rows that found no subproblem moved the counter past the end: the new chunk starts at the end.
    control_(ctl_next_subproblem) = std::min(control_(ctl_next_subproblem), end);
    control_(ctl_subproblem_end) = end + size;
    put_control(ctl_next_subproblem);
    put_control(ctl_subproblem_end);
    resume_idle_rows();
  }

  std::int64_t take_skip_to() override {
    const std::int64_t to = control_(ctl_skip_to);
    if (to == 0) return 0;
    control_(ctl_skip_to) = 0;
    if constexpr (!host_state) Kokkos::deep_copy(Kokkos::subview(kernel_.state.control, int(ctl_skip_to)), std::int64_t(0));
    return to;
  }

  bool splits() const override { return kernel_.split.enabled(); }

  void want_pieces(std::int64_t extra) override {
    if (!splits() || extra == extra_wanted_) return;
    control_(ctl_split_waiting) += extra - extra_wanted_;
    control_(ctl_split_extra) = extra;
    extra_wanted_ = extra;
    put_control(ctl_split_waiting);
    put_control(ctl_split_extra);
    choose_givers();
  }

  /// SearchOptions::shallow_givers: while other processes want pieces, the shallowest quarter of the
  /// holding complete rows by prefix give them (ctl_split_give_cap); after every slice, as rows move on.
  void choose_givers() {
    std::int64_t cap = 0;
    if (shallow_givers_ && extra_wanted_ > 0) {
      std::vector<std::int64_t> prefixes = holders().second;
      if (!prefixes.empty()) {
        const auto q = prefixes.begin() + std::ptrdiff_t(prefixes.size() / 4);
        std::nth_element(prefixes.begin(), q, prefixes.end());
        cap = *q + 1;
      }
    }
    if (cap == control_(ctl_split_give_cap)) return;
    control_(ctl_split_give_cap) = cap;
    put_control(ctl_split_give_cap);
  }

  std::vector<std::int64_t> take_pieces(std::int64_t max) override {
    std::vector<std::int64_t> log;
    if (!splits() || max <= 0) return log;
    using Pool = SplitPool<Memory>;
    const auto head = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kernel_.split.head);
    std::vector<int> published;
    for (int s = 0; s < int(head.extent(0)) && std::int64_t(published.size()) < max; ++s)
      if (head(s, Pool::head_state) == 2) published.push_back(s);
    if (published.empty()) return log;
    const auto pieces = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kernel_.split.pieces);
    for (const int s : published) {
      const std::int64_t length = head(s, Pool::head_length);
      log.push_back(head(s, Pool::head_subproblem));
      log.push_back(length);
      const auto* words = reinterpret_cast<const std::int32_t*>(&pieces(s, 0));
      log.insert(log.end(), words, words + 5 * length);
      head(s, Pool::head_state) = 0;
    }
    Kokkos::deep_copy(kernel_.split.head, head);
    const std::int64_t taken = std::int64_t(published.size());
    control_(ctl_split_pooled) -= taken;
    put_control(ctl_split_pooled);
    exported_ += taken;
    return log;
  }

  void put_pieces(const std::vector<std::int64_t>& log) override {
    for (std::size_t k = 0; k + 2 <= log.size();) {
      const std::size_t end = k + 2 + 5 * std::size_t(log[k + 1]);
      if (end > log.size()) throw std::logic_error("kcp: a truncated piece log");
      backlog_.emplace_back(log.begin() + std::ptrdiff_t(k), log.begin() + std::ptrdiff_t(end));
      k = end;
      imported_ += 1;
    }
    flush_backlog();
  }

  bool backlog() const override { return !backlog_.empty(); }

  std::int64_t waiting() const override {
    return splits() ? std::max<std::int64_t>(0, control_(ctl_split_waiting) - extra_wanted_) : 0;
  }

  /// The complete rows holding a subproblem or a piece of one at the last slice's end: their
  /// subproblems and their never-undone prefixes' lengths.
  std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> holders() const {
    std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> h;
    for (int t = 0; t < rows_.complete; ++t)
      if (team_(t, team_subproblem) >= 0 && !team_(t, team_idle)) {
        h.first.push_back(team_(t, team_subproblem));
        h.second.push_back(team_(t, team_prefix));
      }
    return h;
  }

  std::string holdings() const override {
    auto [subproblems, prefixes] = holders();
    if (prefixes.empty()) return "held=0";
    std::map<std::int64_t, int> held;
    for (const std::int64_t s : subproblems) ++held[s];
    const auto top = std::max_element(held.begin(), held.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    std::sort(prefixes.begin(), prefixes.end());
    return "held=" + std::to_string(prefixes.size()) + " distinct=" + std::to_string(held.size()) +
           " top=" + std::to_string(top->first) + ":" + std::to_string(top->second) +
           " prefix_min=" + std::to_string(prefixes.front()) + " prefix_med=" + std::to_string(prefixes[prefixes.size() / 2]);
  }

  void add_totals(SearchReport& report) const override {
    report.split_exported += exported_;
    report.split_imported += imported_;
    add_team_totals(report, team_, rows_);
    report.nogoods_dropped += control_(ctl_learned_dropped);
    report.subproblems_skipped += control_(ctl_skipped);
    report.launches += launches_;
    report.shared_carveout = setup.shared_carveout;
#ifdef KCP_CHECK_INVARIANTS
    const auto& control = control_;
    std::fprintf(stderr,
                 "kcp-check: teams=%d p=%d nodes=%lld leaks=%lld unnormalised=%lld incomplete=%lld (restored %lld) "
                 "tree=%lld first=[%lld %lld %lld %lld %lld %lld]\n",
                 setup.teams, setup.subproblem_depth, (long long)control(ctl_check_nodes),
                 (long long)control(ctl_check_leaks), (long long)control(ctl_check_unnormalised),
                 (long long)control(ctl_check_incomplete), (long long)control(ctl_check_incomplete_restored),
                 (long long)control(ctl_check_tree), (long long)control(ctl_check_first),
                 (long long)control(ctl_check_first + 1), (long long)control(ctl_check_first + 2),
                 (long long)control(ctl_check_first + 3), (long long)control(ctl_check_first + 4),
                 (long long)control(ctl_check_first + 5));
#endif
  }

  volatile int* stop_flag() override { return kernel_.state.stop.data(); }

  void aim(double slice_s) override { slice_s_ = slice_s; }

  bool asynchronous() const override { return !host_state; }

  void bind_thread() const override {
#ifdef KOKKOS_ENABLE_CUDA
    if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) cudaSetDevice(ExecSpace().cuda_device());
#endif
  }

 private:
  SearchOptions options_;
  bool helper_ = false;  ///< the host's rows beside a GPU (their solutions are marked Found::host)
  Rows rows_;
  int n_ = 0;
  std::int64_t capacity_ = 0;
  Kernel kernel_;
  Policy policy_;
  std::size_t level0_bytes_ = 0;  ///< team scratch of level 0 per team (set_shared_carveout)
  typename decltype(Kernel::state.team)::HostMirror team_;
  typename decltype(Kernel::state.control)::HostMirror control_;
  typename decltype(Kernel::state.incumbent)::HostMirror incumbent_;
  decltype(Kokkos::create_mirror_view(Kokkos::subview(Kernel().state.solution, 0, Kokkos::ALL()))) solution_row_;
  std::int64_t budget_ = 1;
  double slice_s_ = 0.05;  ///< the launch time the node budget aims at
  int launches_ = 0;
  Clock::time_point launch_start_;
  /// Distributed end-game splitting: pieces asked of the rows beyond their own waiting ones, pieces
  /// taken out and put in, and those from another process not yet in the pool (piece logs of one).
  std::int64_t extra_wanted_ = 0, exported_ = 0, imported_ = 0;
  bool shallow_givers_ = false;  ///< SearchOptions::shallow_givers
  std::deque<std::vector<std::int64_t>> backlog_;

  /// Writes the host's value of a control slot to the state (between launches).
  void put_control(int k) {
    if constexpr (!host_state) Kokkos::deep_copy(Kokkos::subview(kernel_.state.control, k), control_(k));
  }
  /// The idle complete rows take work again (between launches: new subproblems or pieces came).
  void resume_idle_rows() {
    std::int64_t resumed = 0;
    for (int t = 0; t < rows_.complete; ++t)
      if (team_(t, team_idle)) {
        team_(t, team_idle) = 0;
        ++resumed;
      }
    if (resumed == 0) return;
    control_(ctl_complete_idle) -= resumed;
    put_control(ctl_complete_idle);
    if constexpr (!host_state) Kokkos::deep_copy(kernel_.state.team, team_);
  }
  /// Puts backlog pieces into the pool's free slots, published (between launches).
  void flush_backlog() {
    if (!splits()) throw std::logic_error("kcp: pieces for a search that does not split");
    using Pool = SplitPool<Memory>;
    const auto head = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kernel_.split.head);
    const auto pieces = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kernel_.split.pieces);
    std::int64_t put = 0;
    for (int s = 0; s < int(head.extent(0)) && !backlog_.empty(); ++s) {
      if (head(s, Pool::head_state) != 0) continue;
      const std::vector<std::int64_t>& p = backlog_.front();
      const std::int64_t length = p[1];
      if (length > std::int64_t(pieces.extent(1))) throw std::logic_error("kcp: a piece longer than the pool holds");
      head(s, Pool::head_subproblem) = p[0];
      head(s, Pool::head_local) = 0;  // read only above the subproblems' depth, where pieces never are
      head(s, Pool::head_length) = length;
      auto* words = reinterpret_cast<std::int32_t*>(&pieces(s, 0));
      for (std::int64_t w = 0; w < 5 * length; ++w) words[w] = static_cast<std::int32_t>(p[std::size_t(2 + w)]);
      head(s, Pool::head_state) = 2;
      backlog_.pop_front();
      ++put;
    }
    if (put == 0) return;
    Kokkos::deep_copy(kernel_.split.pieces, pieces);
    Kokkos::deep_copy(kernel_.split.head, head);
    control_(ctl_split_pooled) += put;
    put_control(ctl_split_pooled);
    resume_idle_rows();
  }
  /// The first n values of a View of the state (read in place on the host: no fence of other spaces).
  template <class V>
  static std::vector<typename V::non_const_value_type> fetch(const V& view, std::size_t n) {
    std::vector<typename V::non_const_value_type> out(n);
    if constexpr (host_state) {
      std::copy(view.data(), view.data() + n, out.begin());
    } else {
      const Kokkos::View<typename V::non_const_value_type*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> to(out.data(), n);
      Kokkos::deep_copy(to, Kokkos::subview(view, std::make_pair(std::size_t(0), n)));
    }
    return out;
  }
  /// Writes `values` to the front of a View of the state (in place on the host).
  template <class V, class T>
  static void put(const V& view, const std::vector<T>& values) {
    if constexpr (host_state) {
      std::copy(values.begin(), values.end(), view.data());
    } else {
      const Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> from(values.data(), values.size());
      Kokkos::deep_copy(Kokkos::subview(view, std::make_pair(std::size_t(0), values.size())), from);
    }
  }

  // The nogood pool's buffers (kernel_.pool reads them; empty without learning).
  Kokkos::View<std::int32_t*, Memory> pool_begin_, pool_watch_begin_, pool_watch_, pool_watch_nogood_, pool_activity_;
  Kokkos::View<Literal*, Memory> pool_lits_;
  int uploaded_generation_ = 0;
  std::vector<std::int64_t> chunks_;  ///< the chunks dealt to it (distributed), as in SearchState::chunks
};

/// While a helper's slice runs beside a fleet's slice on a GPU, ends the helper's slice (its stop
/// flag, at its next node) as soon as the fleet's has ended, so that the GPU waits for the host one
/// node at most, not a whole slice; a thread polling the fleet every 100 us while armed.
class SliceCutter {
 public:
  SliceCutter(const Searcher& fleet, volatile int* helper_stop)
      : poller_(std::chrono::microseconds(100), [this, &fleet, helper_stop, bound = false]() mutable {
          if (!bound) fleet.bind_thread();
          bound = true;
          const std::lock_guard<std::mutex> lock(mutex_);
          if (armed_ && !fleet.running()) {
            *helper_stop = 1;
            armed_ = false;
            cut_at_ = Clock::now();
            cut_ = true;
          }
          return true;
        }) {}
  void arm() {
    const std::lock_guard<std::mutex> lock(mutex_);
    armed_ = true;
    cut_ = false;
  }
  /// Disarms; returns when it saw the fleet's slice end, if it cut the helper's.
  std::optional<Clock::time_point> disarm() {
    const std::lock_guard<std::mutex> lock(mutex_);
    armed_ = false;
    return cut_ ? std::optional<Clock::time_point>(cut_at_) : std::nullopt;
  }

 private:
  std::mutex mutex_;
  bool armed_ = false, cut_ = false;
  Clock::time_point cut_at_;
  PollingThread poller_;
};

/// The explaining search (search/explain.hpp) on a thread of its own beside the fleet (and the
/// helper), for the whole search: between slices the driver takes its improving solutions and its
/// learned clauses, and hands it the best objective, the incumbent and the pool's nogoods.
class ExplainThread {
 public:
  ExplainThread(const Program& original, const SearchOptions& o) {
    Program program = original;
    give_search_bitsets(program, o);
    ExplainOptions eo;
    eo.objective = o.objective;
    eo.all_solutions = o.objective < 0 && o.max_solutions != 1;
    // Variants beside the first restart on other units too: 1, 2, 1/2 and 4 times the base, in turn.
    static constexpr double restart_scale[] = {1.0, 2.0, 0.5, 4.0};
    eo.restart_base = std::max<std::int64_t>(
        1, std::llround(double(o.restart_base) * restart_scale[std::size_t(o.explain_variant) % 4]));
    eo.export_length = std::min(o.explain_export_length, o.nogood_max_length);
    for (const SearchPhase& ph : o.phases) eo.order.insert(eo.order.end(), ph.vars.begin(), ph.vars.end());
    if (o.explain_variants > 1 && !eo.order.empty())
      std::rotate(eo.order.begin(),
                  eo.order.begin() + std::ptrdiff_t(eo.order.size() * std::size_t(o.explain_variant) /
                                                    std::size_t(o.explain_variants)),
                  eo.order.end());
    objective_ = o.objective;
    start_s_ = o.explain_start_s;
    // The engine is built here, before the fleet's first launch. Built in the thread instead, beside
    // the fleet's first slices, it made four GPUs' proof of diameterc-mst 0.25 s slower: the first
    // slice of ranks 1-3 took 0.47 s (its build makes Kokkos host views and copies them from that
    // thread; not taken apart, perf/NOTES.md entry 41).
    engine_ = std::make_unique<ExplainingSearch>(program, eo);
    thread_ = std::thread([this]() {
      // Out of memory (or any failure) in the thread ends the thread, not the process: the fleet
      // searches on without it.
      try {
        loop();
      } catch (const std::exception&) {
        failed_ = 1;
      }
    });
  }
  ~ExplainThread() { stop(); }
  /// Takes the solutions (worst first) and the log it left since the last call.
  void take(std::vector<Found>& found, std::vector<std::int32_t>& learned) {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (auto& v : solutions_) {
      const std::int64_t key = objective_ >= 0 ? v[std::size_t(objective_)] : 0;
      found.push_back(Found{key, from_explain, false, std::move(v)});
    }
    solutions_.clear();
    learned.insert(learned.end(), log_.begin(), log_.end());
    log_.clear();
  }
  /// Hands it the best objective and the incumbent (empty: none new).
  void hand(std::int64_t best, const std::vector<std::int32_t>& incumbent) {
    const std::lock_guard<std::mutex> lock(mutex_);
    best_ = std::min(best_, best);
    if (!incumbent.empty()) incumbent_ = incumbent;
  }
  /// The pool's nogoods, when it changed since the last call.
  void share(const NogoodStore& store) {
    if (store.generation() == generation_) return;
    generation_ = store.generation();
    const std::lock_guard<std::mutex> lock(mutex_);
    for (const HostNogood& g : store.nogoods()) imports_.push_back(g.lits);
  }
  /// Tells the thread to stop at its next check, without waiting for it.
  void signal() { quit_ = 1; }
  void stop() {
    signal();
    if (thread_.joinable()) thread_.join();
  }
  /// After stop().
  const ExplainStats& stats() const { return engine_->stats(); }
  /// The thread ended on an exception (out of memory): the search went on without it.
  bool failed() const { return failed_ != 0; }

 private:
  void loop() {
    std::vector<std::vector<std::int32_t>> solutions;
    std::vector<std::int32_t> log, incumbent;
    std::vector<std::vector<Literal>> imports;
    // SearchOptions::explain_start_s: a wait that a stop ends.
    const Clock::time_point begin = seconds_from_now(start_s_);
    while (!quit_ && Clock::now() < begin) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    while (!quit_ && !engine_->finished()) {
      std::int64_t best;
      {
        const std::lock_guard<std::mutex> lock(mutex_);
        best = best_;
        incumbent.swap(incumbent_);
        imports.swap(imports_);
      }
      engine_->tighten(best);
      if (!incumbent.empty()) engine_->guide(incumbent);
      incumbent.clear();
      if (!imports.empty()) engine_->import(imports);
      imports.clear();
      engine_->run(256, &quit_, solutions, log);
      if (!solutions.empty() || !log.empty()) {
        const std::lock_guard<std::mutex> lock(mutex_);
        for (auto& v : solutions) solutions_.push_back(std::move(v));
        log_.insert(log_.end(), log.begin(), log.end());
        solutions.clear();
        log.clear();
      }
    }
  }
  std::unique_ptr<ExplainingSearch> engine_;
  int objective_ = 0;
  double start_s_ = 0;
  std::mutex mutex_;
  std::vector<std::vector<std::int32_t>> solutions_;
  std::vector<std::int32_t> log_, incumbent_;
  std::vector<std::vector<Literal>> imports_;
  std::int64_t best_ = INT64_MAX;
  int generation_ = -1;
  volatile int quit_ = 0;
  volatile int failed_ = 0;
  std::thread thread_;
};

/// The process's explaining searches (SearchOptions::explain_threads): each on its own thread, variant
/// rank * threads + i of ranks * threads. The driver takes, hands and shares with all of them at once.
class ExplainCrew {
 public:
  ExplainCrew(const Program& program, const SearchOptions& o, int threads) {
    for (int i = 0; i < threads; ++i) {
      SearchOptions v = o;
      v.explain_variant = o.explain_variant * threads + i;
      v.explain_variants = o.explain_variants * threads;
      crew_.push_back(std::make_unique<ExplainThread>(program, v));
    }
  }
  int size() const { return static_cast<int>(crew_.size()); }
  void take(std::vector<Found>& found, std::vector<std::int32_t>& learned) {
    for (auto& t : crew_) t->take(found, learned);
  }
  void hand(std::int64_t best, const std::vector<std::int32_t>& incumbent) {
    for (auto& t : crew_) t->hand(best, incumbent);
  }
  void share(const NogoodStore& store) {
    for (auto& t : crew_) t->share(store);
  }
  /// Tells every thread to stop, without waiting: they wind down together (joined one by one, each
  /// told only as the one before it had ended, four threads took 20-40 ms on an H200's host).
  void signal() {
    for (auto& t : crew_) t->signal();
  }
  /// Stops every thread (their figures stay for stop(report)).
  void halt() {
    signal();
    for (auto& t : crew_) t->stop();
  }
  /// Stops every thread and adds their figures to `report`.
  void stop(SearchReport& report) {
    halt();
    report.explain_threads = size();
    for (auto& t : crew_) {
      const ExplainStats& e = t->stats();
      report.explain_nodes += e.nodes;
      report.explain_conflicts += e.conflicts;
      report.explain_learned += e.learned;
      report.explain_exported += e.exported;
      report.explain_literals += e.learned_literals;
      report.explain_resolutions += e.resolutions;
      report.explain_runs += e.explain_runs;
      report.explain_family += e.family_explanations;
      report.explain_propagations += e.propagations + e.clause_propagations;
      report.explain_failed = report.explain_failed || t->failed();
    }
  }

 private:
  std::vector<std::unique_ptr<ExplainThread>> crew_;
};

/// Satisfaction with explaining searches beside the fleet: both can find the same solution (the fleet's
/// tree loses a solution the thread found only where a clause learned after it, short enough to be
/// shared, reaches it), and each is handed over once. The threads' solutions are kept for good, the
/// fleet's while a thread searches, within a memory budget (SearchOptions::explain_solution_bytes);
/// past it the driver stops the threads.
class SolutionSieve {
 public:
  explicit SolutionSieve(std::size_t budget) : budget_(budget) {}
  /// True the first time these values come (from either side).
  bool fresh(const std::vector<std::int32_t>& values, bool from_explain) {
    if (from_explain) {
      if (others_.count(values) != 0 || !explained_.insert(values).second) return false;
    } else {
      if (explained_.count(values) != 0) return false;
      if (threads_on_) others_.insert(values);
    }
    bytes_ += values.size() * sizeof(std::int32_t) + 64;
    return true;
  }
  bool over_budget() const { return threads_on_ && bytes_ > budget_; }
  /// The threads stopped: the fleet's solutions need no keeping any more.
  void threads_stopped() {
    threads_on_ = false;
    others_.clear();
  }

 private:
  struct Hash {
    std::size_t operator()(const std::vector<std::int32_t>& v) const {
      std::uint64_t h = 0x9e3779b97f4a7c15ULL;
      for (const std::int32_t x : v) h = (h ^ std::uint32_t(x)) * 0x100000001b3ULL;
      return std::size_t(h);
    }
  };
  std::unordered_set<std::vector<std::int32_t>, Hash> explained_, others_;
  std::size_t bytes_ = 0, budget_;
  bool threads_on_ = true;
};

/// A distributed search's part in the driver (search/peers.hpp): deals this rank's chunks of
/// subproblems to its fleet, shares the best objective, and carries the messages: solutions and
/// status to rank 0, which alone hands solutions to the caller and decides when the search ends; the
/// incumbent and the stop from rank 0; every rank's counters at the end.
class Distributed {
 public:
  enum Kind : std::int64_t { msg_solution = 1, msg_status, msg_proof, msg_final, msg_incumbent, msg_stop, msg_nogoods, msg_pieces, msg_want };
  /// What rank 0 (solutions, proofs, stops) or another rank (the incumbent, the stop) sent.
  struct Inbox {
    std::vector<std::pair<std::int64_t, Found>> solutions;  ///< with their subproblem (satisfaction)
    std::int64_t incumbent_best = INT64_MAX;
    std::vector<std::int32_t> incumbent;
    std::int64_t proof = INT64_MIN;  ///< the highest bound a rank's empty nogood holds under
    bool stop = false;  ///< from rank 0: stop; at rank 0: a rank stopped on its own (time, a signal)
    bool interrupted = false, timed_out = false;  ///< at rank 0: why
    std::vector<std::int32_t> nogoods;  ///< other ranks' explaining searches' clauses (search/learning.hpp's log)
    /// End-game splitting: piece logs (Searcher::take_pieces) with their senders; rank 0's last ask
    /// for pieces (-1: none came).
    std::vector<std::pair<int, std::vector<std::int64_t>>> pieces;
    std::int64_t want = -1;
  };

  /// `complete_rows`: the most complete rows of any rank's fleet; `own_rows`: this rank's.
  Distributed(Peers& peers, const SearchOptions& o, int complete_rows, int own_rows)
      : peers_(peers),
        rank_(peers.rank()),
        size_(peers.size()),
        static_(o.static_chunks),
        chunk_log_(o.chunk_log),
        rows_(complete_rows),
        own_rows_(own_rows),
        total_(std::int64_t(1) << (o.subproblem_depth - o.chunk_log)),
        next_own_(rank_),
        in_order_(o.objective < 0 && o.max_solutions > 0),
        done_(std::size_t(size_), false),
        open_(std::size_t(size_), 0) {}

  bool root() const { return rank_ == 0; }
  int rank() const { return rank_; }
  std::int64_t chunk_size() const { return std::int64_t(1) << chunk_log_; }
  /// Whether this rank's part of the tree is done (no chunk left for it, every complete row idle).
  bool done() const { return done_[std::size_t(rank_)]; }
  /// Rank 0: whether every rank's part is.
  bool all_done() const { return std::all_of(done_.begin(), done_.end(), [](bool d) { return d; }); }

  /// After a slice (and before the first): moves the shared counter past the fleet's failed subtrees,
  /// deals it chunks while its rows would run short (what they took in the last slice, and one
  /// subproblem per complete row: more would leave the other ranks idle at the end while it holds
  /// work), and notes whether its part is done (`idle`: every complete row was idle at the slice's end).
  void supply(Searcher& fleet, bool idle) {
    // Pieces put in since the slice (share_pieces) are work its rows have not seen.
    idle = idle && !fresh_ && !fleet.backlog();
    fresh_ = false;
    if (done()) return;
    if (const std::int64_t to = fleet.take_skip_to(); to > 0) {
      const std::int64_t end = std::min(total_, (to + chunk_size() - 1) >> chunk_log_);
      if (static_) {
        if (next_own_ < end) {
          const std::int64_t jumps = (end - next_own_ + size_ - 1) / size_;
          next_own_ += jumps * size_;
          skipped_ += jumps;
        }
      } else {
        skipped_ += std::max<std::int64_t>(0, end - peers_.fetch_max(Peers::next_chunk, end));
      }
    }
    const std::int64_t took = std::max<std::int64_t>(0, unclaimed_ - fleet.unclaimed());
    const std::int64_t want = rows_ + took;
    bool dealt = false;
    while (!exhausted_ && fleet.unclaimed() < want) {
      const std::int64_t c = static_ ? next_own_ : peers_.fetch_add(Peers::next_chunk, 1);
      if (c >= total_) {
        exhausted_ = true;
        break;
      }
      if (static_) next_own_ += size_;
      fleet.add_chunk(c << chunk_log_);
      ++chunks_;
      dealt = true;
      // Every chunk dealt to it later starts at or above this: its least open subproblem is never below.
      floor_ = (static_ ? next_own_ : c + 1) << chunk_log_;
    }
    unclaimed_ = fleet.unclaimed();
    if (exhausted_) floor_ = INT64_MAX;
    // Starving: no subproblem left for it and half its complete rows or more waiting for pieces; rank 0
    // has other ranks give it pieces, as to a rank whose part is done.
    starving_[std::size_t(rank_)] = own_rows_ > 0 && exhausted_ && unclaimed_ == 0 && 2 * fleet.waiting() >= own_rows_;
    if (exhausted_ && idle && !dealt && unclaimed_ == 0) {
      done_[std::size_t(rank_)] = true;
      done_at_ = Clock::now();
    }
  }

  /// This rank's least subproblem not yet finished, or above it (satisfaction's first solution).
  std::int64_t open(const Searcher& fleet, std::int64_t in_hand) const {
    return std::min({in_hand, fleet.first_unclaimed(), floor_});
  }

  /// Rank 0: the least subproblem some rank may still find a solution in.
  std::int64_t global_open(std::int64_t own) {
    std::int64_t open = own;
    for (int r = 1; r < size_; ++r) open = std::min(open, open_[std::size_t(r)]);
    if (!static_) open = std::min(open, std::min(total_, peers_.fetch_add(Peers::next_chunk, 0)) << chunk_log_);
    return open;
  }

  /// The best objective of all ranks, after offering this rank's.
  std::int64_t share_best(std::int64_t best) { return std::min(best, peers_.fetch_min(Peers::best, best)); }

  void send_solution(const Found& f, std::int64_t subproblem) {
    std::vector<std::int64_t> m{msg_solution, f.key, f.source, f.host ? 1 : 0, subproblem};
    m.insert(m.end(), f.values.begin(), f.values.end());
    peers_.send(0, std::move(m));
  }
  /// Another rank: its status, when it changed (`open` matters for satisfaction in order only).
  void send_status(std::int64_t open) {
    if (!in_order_) open = 0;
    const bool starving = starving_[std::size_t(rank_)];
    if (done() == sent_done_ && open == sent_open_ && received_ == sent_received_ && starving == sent_starving_) return;
    sent_done_ = done();
    sent_open_ = open;
    sent_received_ = received_;
    sent_starving_ = starving;
    peers_.send(0, {msg_status, done() ? 1 : 0, open, received_, starving ? 1 : 0});
  }

  /// End-game splitting across ranks (after each receive; search/modes.hpp's SplitPool): while some
  /// rank is hungry (its part done, or starving: see supply), rank 0 asks every other rank for pieces
  /// (one per complete row of every hungry rank; its rows give that many beyond their own waiting
  /// rows), and hands each piece log that comes to a hungry rank (another than its sender; to its own
  /// fleet when there is none); a rank sends rank 0 what its rows gave for it, and puts the pieces it
  /// is handed into its fleet (its part is not done until they are searched).
  /// Rank 0 counts the pieces it hands each rank, and a rank is done only once its status says that
  /// it received them all, so no piece is in flight when the search ends.
  void share_pieces(Searcher& fleet, Inbox& in) {
    if (!fleet.splits()) return;
    if (in.want >= 0) ask(fleet, in.want);
    std::vector<std::pair<int, std::vector<std::int64_t>>> logs = std::move(in.pieces);
    in.pieces.clear();
    if (asked_ > 0 && !done()) {
      std::vector<std::int64_t> own = fleet.take_pieces(asked_);
      if (!own.empty()) {
        ask(fleet, std::max<std::int64_t>(0, asked_ - piece_count(own)));
        if (root()) {
          logs.emplace_back(0, std::move(own));
        } else {
          send_pieces(0, own);
        }
      }
    }
    if (!root()) {
      for (const auto& [from, log] : logs) put(fleet, log);
      return;
    }
    for (const auto& [from, log] : logs) {
      int to = 0;
      for (int k = 0; k < size_; ++k) {
        const int r = (next_hungry_ + k) % size_;
        if (hungry(r) && r != from) {
          to = r;
          next_hungry_ = (r + 1) % size_;
          break;
        }
      }
      if (to == 0) {
        put(fleet, log);
      } else {
        send_pieces(to, log);
        sent_to_[std::size_t(to)] += piece_count(log);
        done_[std::size_t(to)] = false;
        starving_[std::size_t(to)] = false;
      }
    }
    if (all_done()) return;  // the search is over
    std::int64_t hungry_ranks = 0;
    for (int r = 0; r < size_; ++r) hungry_ranks += hungry(r) ? 1 : 0;
    for (int r = 0; r < size_; ++r) {
      // A piece for every complete row of each hungry rank (64 at most before: a rank idled a third of
      // diameterc-mst's end on two GPUs, fetching its next 64; perf/NOTES.md entry 31).
      const std::int64_t desired = hungry(r) ? 0 : hungry_ranks * rows_;
      if (desired == want_sent_[std::size_t(r)]) continue;
      want_sent_[std::size_t(r)] = desired;
      if (r == 0) {
        ask(fleet, desired);
      } else {
        peers_.send(r, {msg_want, desired});
      }
    }
  }
  /// Rank 0, once its search loop has ended: tells every other rank to stop (once).
  void stop_others() {
    if (!root() || stops_sent_) return;
    stops_sent_ = true;
    for (int r = 1; r < size_; ++r) peers_.send(r, {msg_stop});
  }
  void send_proof(std::int64_t bound) {
    if (bound <= sent_proof_) return;
    sent_proof_ = bound;
    peers_.send(0, {msg_proof, bound});
  }
  /// The clauses this rank's explaining search shares (a log), to every other rank's pool.
  void send_nogoods(const std::vector<std::int32_t>& log) {
    if (log.empty()) return;
    std::vector<std::int64_t> m{msg_nogoods};
    m.insert(m.end(), log.begin(), log.end());
    for (int r = 0; r < size_; ++r)
      if (r != rank_) peers_.send(r, m);
  }
  /// Rank 0: the incumbent to every other rank.
  void send_incumbent(std::int64_t best, const std::vector<std::int32_t>& values) {
    for (int r = 1; r < size_; ++r) {
      std::vector<std::int64_t> m{msg_incumbent, best};
      m.insert(m.end(), values.begin(), values.end());
      peers_.send(r, std::move(m));
    }
  }

  /// Optimisation: moves the solutions that arrived in `in` to `found`, worst first among them.
  static void take_solutions(Inbox& in, std::vector<Found>& found) {
    for (auto& [index, f] : in.solutions) found.push_back(std::move(f));
    in.solutions.clear();
    sort_worst_first(found);
  }

  /// Reads what arrived (waiting up to wait_s for the first message).
  void receive(Inbox& in, double wait_s = 0) {
    int from = 0;
    std::vector<std::int64_t> m;
    while (peers_.receive(from, m, wait_s)) {
      wait_s = 0;
      const std::size_t r = std::size_t(from);
      switch (m.at(0)) {
        case msg_solution: {
          Found f{m.at(1), Source(m.at(2)), m.at(3) != 0, std::vector<std::int32_t>(m.begin() + 5, m.end())};
          in.solutions.emplace_back(m.at(4), std::move(f));
          break;
        }
        case msg_status:
          // Done only once every piece rank 0 handed it has arrived there; starving likewise.
          done_[r] = m.at(1) != 0 && m.at(3) == sent_to_[r];
          starving_[r] = m.at(4) != 0 && m.at(3) == sent_to_[r];
          open_[r] = m.at(2);
          break;
        case msg_proof:
          in.proof = std::max(in.proof, m.at(1));
          break;
        case msg_final:
          final_[r] = std::move(m);
          in.stop = true;  // a rank that stops on its own (time, a signal) stops the others
          in.interrupted = in.interrupted || final_[r].at(1) == 1;
          in.timed_out = in.timed_out || final_[r].at(1) == 2;
          break;
        case msg_incumbent:
          if (m.at(1) < in.incumbent_best) {
            in.incumbent_best = m.at(1);
            in.incumbent.assign(m.begin() + 2, m.end());
          }
          break;
        case msg_stop:
          in.stop = true;
          stop_received_ = true;
          break;
        case msg_nogoods:
          for (std::size_t k = 1; k < m.size(); ++k) in.nogoods.push_back(static_cast<std::int32_t>(m[k]));
          break;
        case msg_pieces:
          in.pieces.emplace_back(from, std::vector<std::int64_t>(m.begin() + 1, m.end()));
          break;
        case msg_want:
          in.want = m.at(1);
          break;
        default:
          throw std::runtime_error("kcp: an unknown message from rank " + std::to_string(from));
      }
    }
  }

  /// The end, after this rank's totals are in `report`. Rank 0 stops the others and adds their
  /// counters (their last solutions go to `late`); another rank sends its counters and waits for the
  /// stop.
  void conclude(SearchReport& report, const std::function<void(Inbox&)>& late) {
    const double idle_s = idle_total_s_ + (done() ? seconds_since(done_at_) : 0);
    report.subproblems_skipped += skipped_ << chunk_log_;  // the chunks it moved the shared counter past
    const std::vector<std::int64_t> own = counters(report, idle_s);
    if (!root()) {
      std::vector<std::int64_t> m{msg_final, report.interrupted ? 1 : report.timed_out ? 2 : 0};
      m.insert(m.end(), own.begin(), own.end());
      peers_.send(0, std::move(m));
      Inbox in;
      while (!stop_received_) receive(in, 0.01);
      return;
    }
    stop_others();
    final_[0] = {msg_final, 0};
    final_[0].insert(final_[0].end(), own.begin(), own.end());
    for (;;) {
      Inbox in;
      receive(in, 0.01);
      late(in);
      if (std::all_of(final_.begin(), final_.end(), [](const std::vector<std::int64_t>& f) { return !f.empty(); })) break;
    }
    report.ranks = size_;
    report.chunk_size = chunk_size();
    report.static_chunks = static_;
    report.rank_figures.clear();
    for (int r = 0; r < size_; ++r) {
      const std::vector<std::int64_t> c(final_[std::size_t(r)].begin() + 2, final_[std::size_t(r)].end());
      if (r > 0) add(report, c);
      RankFigures f;
      f.nodes = c.at(0);
      f.subproblems_solved = c.at(counted_count);
      f.chunks = c.at(counted_count + 1);
      f.idle_s = double(c.at(counted_count + 2)) / 1e6;
      report.rank_figures.push_back(f);
    }
    report.chunks = 0;
    for (const RankFigures& f : report.rank_figures) report.chunks += f.chunks;
  }

 private:
  /// The counters every rank adds to rank 0's report besides the work counters (which come first).
  static constexpr Counter counted[] = {
      &SearchReport::subproblems_skipped, &SearchReport::host_nodes,        &SearchReport::explain_nodes,
      &SearchReport::explain_conflicts,   &SearchReport::explain_learned,   &SearchReport::explain_exported,
      &SearchReport::explain_literals,    &SearchReport::explain_resolutions, &SearchReport::explain_runs,
      &SearchReport::explain_propagations, &SearchReport::nogoods_learned,  &SearchReport::nogoods_dropped,
      &SearchReport::nogoods_deleted,     &SearchReport::nogood_propagations, &SearchReport::nogood_failures,
      &SearchReport::nogoods_received,    &SearchReport::nogoods_received_absorbed, &SearchReport::split_exported,
      &SearchReport::split_imported,      &SearchReport::explain_threads,   &SearchReport::explain_family};
  static constexpr std::size_t work_count = sizeof(work_counters) / sizeof(work_counters[0]);
  static constexpr std::size_t counted_count = work_count + sizeof(counted) / sizeof(counted[0]);
  /// The work counters, counted, then subproblems solved, chunks, idle microseconds, teams, free teams,
  /// host teams, launches, peak depth.
  std::vector<std::int64_t> counters(const SearchReport& r, double idle_s) const {
    std::vector<std::int64_t> c;
    for (const Counter field : work_counters) c.push_back(r.*field);
    for (const Counter field : counted) c.push_back(r.*field);
    c.push_back(r.subproblems_solved);
    c.push_back(chunks_);
    c.push_back(static_cast<std::int64_t>(idle_s * 1e6));
    for (const std::int64_t v : {std::int64_t(r.teams), std::int64_t(r.free_teams), std::int64_t(r.host_teams),
                                 std::int64_t(r.launches), r.peak_depth})
      c.push_back(v);
    return c;
  }
  void add(SearchReport& to, const std::vector<std::int64_t>& c) const {
    std::size_t k = 0;
    for (const Counter field : work_counters) to.*field += c.at(k++);
    for (const Counter field : counted) to.*field += c.at(k++);
    to.subproblems_solved += c.at(k);
    k += 3;
    to.teams += static_cast<int>(c.at(k++));
    to.free_teams += static_cast<int>(c.at(k++));
    to.host_teams += static_cast<int>(c.at(k++));
    to.launches += static_cast<int>(c.at(k++));
    to.peak_depth = std::max(to.peak_depth, c.at(k));
  }

  /// Rank 0: whether rank r is handed pieces (its part done, or it starves).
  bool hungry(int r) const { return done_[std::size_t(r)] || starving_[std::size_t(r)]; }
  /// The number of pieces in a piece log.
  static std::int64_t piece_count(const std::vector<std::int64_t>& log) {
    std::int64_t count = 0;
    for (std::size_t k = 0; k + 2 <= log.size(); k += 2 + 5 * std::size_t(log[k + 1])) ++count;
    return count;
  }
  /// Has the fleet's rows give `pieces` beyond their own (rank 0 asked for them).
  void ask(Searcher& fleet, std::int64_t pieces) {
    asked_ = pieces;
    fleet.want_pieces(pieces);
  }
  void send_pieces(int to, const std::vector<std::int64_t>& log) {
    std::vector<std::int64_t> m{msg_pieces};
    m.insert(m.end(), log.begin(), log.end());
    peers_.send(to, std::move(m));
  }
  /// Pieces handed to this rank: its part is not done until they are searched.
  void put(Searcher& fleet, const std::vector<std::int64_t>& log) {
    if (log.empty()) return;
    fleet.put_pieces(log);
    received_ += piece_count(log);
    fresh_ = true;
    if (done()) {
      idle_total_s_ += seconds_since(done_at_);
      done_[std::size_t(rank_)] = false;
    }
  }

  Peers& peers_;
  int rank_, size_;
  bool static_;
  int chunk_log_;
  std::int64_t rows_, own_rows_;
  std::int64_t total_;      ///< chunks in all
  std::int64_t next_own_;   ///< static: the next chunk of this rank's
  bool in_order_;
  bool exhausted_ = false;  ///< no chunk is left for this rank
  std::int64_t chunks_ = 0, skipped_ = 0;  ///< chunks dealt to it; chunks it moved the counter past
  std::int64_t unclaimed_ = 0;  ///< the fleet's unclaimed subproblems after the last supply
  std::int64_t floor_ = 0;
  Clock::time_point done_at_;
  std::vector<bool> done_;           ///< rank 0: each rank's part done (this rank's own everywhere)
  /// Rank 0: each rank starving (supply; this rank's own everywhere): pieces go to it as to a done one.
  std::vector<bool> starving_ = std::vector<bool>(std::size_t(size_), false);
  bool sent_starving_ = false;
  std::vector<std::int64_t> open_;   ///< rank 0: each rank's least open subproblem, as last reported
  std::vector<std::vector<std::int64_t>> final_ = std::vector<std::vector<std::int64_t>>(std::size_t(size_));
  bool sent_done_ = false;
  std::int64_t sent_open_ = -1, sent_proof_ = INT64_MIN;
  // End-game splitting across ranks (share_pieces): pieces rank 0 asked of this rank, pieces handed
  // to it (and as its last status said), whether some were put in since the last supply, the idle
  // time of its earlier done spells; rank 0: pieces handed to each rank, what it last asked of each,
  // where the next search for a hungry rank starts.
  std::int64_t asked_ = 0, received_ = 0, sent_received_ = 0;
  bool fresh_ = false;
  double idle_total_s_ = 0;
  std::vector<std::int64_t> sent_to_ = std::vector<std::int64_t>(std::size_t(size_), 0);
  std::vector<std::int64_t> want_sent_ = std::vector<std::int64_t>(std::size_t(size_), 0);
  int next_hungry_ = 1;
  bool stop_received_ = false, stops_sent_ = false;
};

/// A searcher on ExecSpace with the kernel the program and the shape need: one thread per store needs
/// no atomics, several narrow it concurrently and do; bitsets only where the program has them.
template <class ExecSpace>
std::unique_ptr<Searcher> make_searcher(const Program& program, const SearchOptions& o, const LaunchParams& lp,
                                        bool helper) {
  const bool shared = lp.team_size * lp.vector_length > 1, holes = has_bitsets(program, o);
  if (shared && holes) return std::make_unique<SliceSearcher<ExecSpace, true, true>>(program, o, lp, helper);
  if (shared) return std::make_unique<SliceSearcher<ExecSpace, true, false>>(program, o, lp, helper);
  if (holes) return std::make_unique<SliceSearcher<ExecSpace, false, true>>(program, o, lp, helper);
  return std::make_unique<SliceSearcher<ExecSpace, false, false>>(program, o, lp, helper);
}

/// The driver: launches the fleet in slices and, with a helper (the host's free rows beside a GPU),
/// the helper's slices while the fleet's runs; between slices it hands new solutions to the caller,
/// shares the best objective and the incumbent between the two, checks the time limit and the
/// interrupt flag, and decides when to stop (when the fleet's complete rows are all idle).
SearchReport run_search(Searcher& fleet, Searcher* helper, ExplainCrew* explain, Distributed* dist,
                        const Program& program, const SearchOptions& options, const SolutionCallback& on_solution,
                        Clock::time_point start) {
  SearchReport report = fleet.setup;
  if (helper != nullptr) report.host_teams = helper->setup.teams;
  std::int64_t best_reported = INT64_MAX;
  // Distributed: the best objective of all ranks as last seen (a bound: its solution is on its way to
  // rank 0), and rank 0's best sent to the others with its values.
  std::int64_t shared_best = INT64_MAX, best_sent = INT64_MAX;
  const bool worker = dist != nullptr && !dist->root();
  bool stop = false, unreported = false;
  std::vector<volatile int*> flags{fleet.stop_flag()};
  if (helper != nullptr) flags.push_back(helper->stop_flag());
  const Watchdog watchdog(flags, options, start);
  // Beside a fleet on another device, the helper's slices end with the fleet's.
  std::unique_ptr<SliceCutter> cutter;
  if (helper != nullptr && fleet.asynchronous()) cutter = std::make_unique<SliceCutter>(fleet, helper->stop_flag());
  // Satisfaction: solutions by subproblem, in the order found within one (see below).
  std::multimap<std::int64_t, std::vector<std::int32_t>> held;
  bool limit_reached = false;  ///< the solution limit or the caller stopped the search
  // The incumbent the free rows build neighbourhoods from, published between slices.
  std::vector<std::int32_t> incumbent;
  // Learning: the nogoods of every searcher's rows, one pool for all (search/learning.hpp).
  const bool learning = options.learn != LearnMode::none;
  NogoodStore nogoods;
  if (learning) nogoods = NogoodStore(program, std::max(1, options.nogood_capacity), options.nogood_max_length);
  if (learning && options.on_nogood) nogoods.on_learned = [&](const HostNogood& g) { options.on_nogood(g.lits, g.bound); };
  std::optional<SolutionSieve> sieve;
  if (explain != nullptr && options.objective < 0 && !worker && !options.explain_proof_only)
    sieve.emplace(options.explain_solution_bytes);
  const auto deliver = [&](std::vector<Found>& found) {
    for (auto& [key, source, host, values] : found) {
      if (worker) {  // to rank 0, which hands solutions over (satisfaction's are sent with their subproblem)
        if (key >= std::min(best_reported, shared_best)) continue;
        best_reported = key;
        incumbent = values;
        dist->send_solution(Found{key, source, host, values}, 0);
        continue;
      }
      if (stop) {
        unreported = unreported || options.objective < 0;
        continue;
      }
      if (sieve && !sieve->fresh(values, source == from_explain)) continue;
      if (options.objective >= 0) {
        if (key >= best_reported) continue;
        best_reported = key;
        report.best_time_s = seconds_since(start);
        (source == from_complete  ? report.improvements_complete
         : source == from_lns     ? report.improvements_lns
         : source == from_explain ? report.improvements_explain
                                  : report.improvements_restart) += 1;
        report.improvements_host += host ? 1 : 0;
        incumbent = values;
      }
      ++report.solutions;
      if (options.objective < 0 && source == from_explain) ++report.solutions_explain;
      if (!on_solution(values)) {
        stop = limit_reached = true;
        unreported = true;
      }
      if (options.objective < 0 && options.max_solutions > 0 && report.solutions >= options.max_solutions)
        stop = limit_reached = true;
    }
  };
  // KCP_TRACE set: a line per slice on stderr (perf/NOTES.md entry 32): when it ended and how long it
  // took, the fleet's idle and waiting complete rows and unclaimed subproblems, the helper's slices in it
  // and its nodes (rank 0 in a probe, which runs without peers); and where a loop of the driver took
  // over 20 ms, how long each phase took (the receive, the pieces, the solutions, the bound, learning,
  // the rest).
  const bool trace = tracing();
  // The start and the end of the search, stage by stage.
  const int trace_rank = dist != nullptr ? dist->rank() : 0;
  trace_stage(trace_rank, "slices", start);
  int helper_slices = 0;
  double phase_at[7] = {};
  const auto phase = [&](int k) {
    if (trace) phase_at[k] = seconds_since(start);
  };
  // One slice of the fleet, and the helper's beside it.
  const auto run_slice = [&]() {
    fleet.launch();
    std::optional<Clock::time_point> fleet_end;
    if (helper != nullptr) {
      // The helper's slices while the fleet's runs (one after it on a host fleet, whose launch
      // returned done); its improvements reach its own next slice at once, the fleet's next one.
      // When the fleet's slice ended, as near as the driver and the cutter saw it: its node budget
      // is measured to there, not to the end of the host's slice.
      std::optional<Clock::time_point> cut;
      do {
        if (!watchdog.fired()) *helper->stop_flag() = 0;  // raised by the cutter in the last slice
        const bool beside = cutter != nullptr && fleet.running();
        if (!beside && !fleet_end) fleet_end = Clock::now();
        if (beside) cutter->arm();
        helper->launch();
        Slice h = helper->finish();
        ++helper_slices;
        if (beside && (cut = cutter->disarm())) fleet_end = cut;
        deliver(h.found);
        if (learning) nogoods.absorb(h.learned.data(), std::int64_t(h.learned.size()));
        helper->publish(std::min(best_reported, shared_best), incumbent);
      } while (fleet.running() && !stop);
      if (cut) report.fleet_wait_s += seconds_since(*cut);
    }
    return fleet.finish(fleet_end);
  };
  std::int64_t proof = INT64_MIN;  ///< distributed, rank 0: the highest bound a rank's empty nogood holds under
  std::vector<std::int32_t> remote_held;  ///< distributed: other ranks' clauses not yet absorbed (a log)
  if (dist != nullptr) {
    dist->supply(fleet, false);
    if (worker) dist->send_status(dist->open(fleet, INT64_MAX));
  }
  while (!stop) {
    std::vector<Found> found;
    Slice slice;
    Distributed::Inbox inbox;
    // Distributed: a rank whose part of the tree is done waits for the others (or the stop).
    const bool resting = dist != nullptr && dist->done();
    if (resting) {
      dist->receive(inbox, 0.002);
    } else {
      const auto slice_start = Clock::now();
      helper_slices = 0;
      slice = run_slice();
      if (trace) {
        SearchReport h;
        if (helper != nullptr) helper->add_totals(h);
        std::fprintf(stderr,
                     "kcp-trace rank=%d t=%.4f slice=%.4f idle=%d waiting=%lld unclaimed=%lld helper_slices=%d helper_nodes=%lld %s\n",
                     dist != nullptr ? dist->rank() : 0, seconds_since(start), seconds_since(slice_start), slice.idle,
                     static_cast<long long>(fleet.waiting()), static_cast<long long>(fleet.unclaimed()), helper_slices,
                     static_cast<long long>(h.nodes), fleet.holdings().c_str());
      }
      phase(0);
      if (dist != nullptr) dist->receive(inbox);
    }
    phase(1);
    if (dist != nullptr) dist->share_pieces(fleet, inbox);

    // Hand the new solutions over. Satisfaction with a solution limit: in the order of the
    // sequential search, so that the first solution printed is the one a sequential search following
    // the annotations reaches first: a solution is held until every subproblem before its own is
    // finished (subproblems are numbered in depth-first order, and each team's search inside one is
    // sequential). Satisfaction with -a: as found.
    // Distributed: rank 0 holds the others' solutions with its own, releasing each once no rank can
    // still find one in an earlier subproblem; the others send theirs as found.
    if (options.objective >= 0) {
      found = std::move(slice.found);
      if (!inbox.solutions.empty()) dist->take_solutions(inbox, found);
    } else {
      for (auto& [index, values] : slice.held) held.emplace(index, std::move(values));
      for (auto& [index, f] : inbox.solutions) held.emplace(index, std::move(f.values));
      if (worker) {
        for (auto& [index, values] : held) dist->send_solution(Found{0, from_complete, false, std::move(values)}, index);
        held.clear();
      }
      const bool in_order = options.max_solutions > 0;
      const std::int64_t open = dist != nullptr && !worker ? dist->global_open(dist->open(fleet, slice.open)) : slice.open;
      while (!held.empty() && (!in_order || held.begin()->first <= open)) {
        found.push_back(Found{0, from_complete, false, std::move(held.begin()->second)});
        held.erase(held.begin());
      }
    }
    // The explaining thread's solutions and clauses since the last slice (its solutions are each a
    // better one than it knew of; those not better than the fleet's are dropped by deliver).
    std::vector<Found> explained;
    std::vector<std::int32_t> explained_log;
    phase(2);
    deliver(found);
    if (explain != nullptr) explain->take(explained, explained_log);
    if (options.explain_proof_only && !explained.empty()) {
      explained.clear();  // a solution exists: nothing left for the explaining searches to prove
      explain->signal();
    }
    deliver(explained);
    if (sieve && sieve->over_budget()) {
      // Too many solutions to keep: the threads stop, their last solutions handed over first.
      explain->halt();
      explained.clear();
      explain->take(explained, explained_log);
      deliver(explained);
      sieve->threads_stopped();
    }
    if (dist != nullptr && options.objective >= 0) {
      if (inbox.incumbent_best < std::min(best_reported, shared_best)) incumbent = std::move(inbox.incumbent);
      shared_best = dist->share_best(std::min({best_reported, shared_best, inbox.incumbent_best}));
      if (!worker && !incumbent.empty() && best_reported < best_sent) {
        dist->send_incumbent(best_reported, incumbent);
        best_sent = best_reported;
      }
    }
    phase(3);
    const std::int64_t bound = std::min(best_reported, shared_best);
    if (options.objective >= 0 && bound != INT64_MAX) {
      fleet.publish(bound, incumbent);
      if (helper != nullptr) helper->publish(bound, incumbent);
      if (explain != nullptr) explain->hand(bound, incumbent);
      incumbent.clear();  // published: the next publish sends values only when they change
    }
    phase(4);
    if (learning) {
      // After the bound: a nogood holds under the bound it was learned with, which the best
      // published is at or below. Every searcher's activity is in before the pool changes.
      nogoods.absorb(slice.learned.data(), std::int64_t(slice.learned.size()));
      nogoods.absorb(explained_log.data(), std::int64_t(explained_log.size()));
      if (dist != nullptr) {
        if (options.explain_every_rank) dist->send_nogoods(explained_log);
        // Other ranks' clauses travel after the solutions they were learned beside, and after the
        // sender's bound went to the shared cell: a rank absorbs one only under a bound at or below the
        // one it was learned under (held until then).
        for_each_in_log(inbox.nogoods.data(), std::int64_t(inbox.nogoods.size()),
                        [&](const std::vector<Literal>&, std::int64_t) { ++report.nogoods_received; });
        remote_held.insert(remote_held.end(), inbox.nogoods.begin(), inbox.nogoods.end());
        if (!remote_held.empty()) {
          std::vector<std::int32_t> usable, held_back;
          for_each_in_log(remote_held.data(), std::int64_t(remote_held.size()),
                          [&](const std::vector<Literal>& lits, std::int64_t b) {
                            append_to_log(b >= bound ? usable : held_back, lits, b);
                            if (b >= bound) ++report.nogoods_received_absorbed;
                          });
          nogoods.absorb(usable.data(), std::int64_t(usable.size()));
          remote_held.swap(held_back);
        }
      }
      fleet.collect_activity(nogoods);
      if (helper != nullptr) helper->collect_activity(nogoods);
      nogoods.end_round();
      // Proving only, the pool stays with the explaining searches: a clause cuts no solution but prunes
      // values, and first_fail reads the sizes it prunes, a random value the nodes it saves, so the
      // teams' tree, and their first solution, would no longer be the annotations' (seen on CUDA, where
      // the explaining search starts at once: ValueChoiceOnBackend.FirstSolutionIsTheSequentialSearchsFirst).
      if (!options.explain_proof_only) {
        fleet.upload_nogoods(nogoods);
        if (helper != nullptr) helper->upload_nogoods(nogoods);
      }
      if (explain != nullptr) explain->share(nogoods);
      // The empty nogood: no solution below its bound, which is at or above the best found (another
      // rank's proof counts at rank 0 once the best it was learned under has arrived there).
      if (nogoods.proved()) proof = std::max(proof, nogoods.proof_bound());
      if (worker && nogoods.proved()) dist->send_proof(nogoods.proof_bound());
    }
    phase(5);
    proof = std::max(proof, inbox.proof);
    if (!worker && proof >= best_reported && proof != INT64_MIN && !stop) {
      report.complete = report.proved_by_nogood = true;
      stop = true;
    }

    if (!resting) report.idle_teams = slice.idle;
    if (dist != nullptr) {
      // Rank 0 alone decides that the search is complete: when every rank's part of the tree is done.
      if (!resting) dist->supply(fleet, slice.complete);
      if (worker) dist->send_status(dist->open(fleet, slice.open));
      if (!worker && dist->all_done() && !stop) {
        report.complete = true;
        stop = true;
      }
      if (inbox.stop) {  // from rank 0; at rank 0, another rank stopped on its time limit or a signal
        report.interrupted = report.interrupted || (!report.complete && inbox.interrupted);
        report.timed_out = report.timed_out || (!report.complete && inbox.timed_out);
        stop = true;
      }
    } else if (slice.complete) {  // free rows never finish: the complete ones decide
      report.complete = true;
      stop = true;
    }
    phase(6);
    if (trace && !resting && phase_at[6] - phase_at[0] > 0.02) {
      std::fprintf(stderr, "kcp-trace-gap rank=%d t=%.4f", dist != nullptr ? dist->rank() : 0, seconds_since(start));
      for (int k = 1; k < 7; ++k) std::fprintf(stderr, " %.4f", phase_at[k] - phase_at[k - 1]);
      std::fprintf(stderr, "\n");
    }
    if (options.time_limit_s > 0 && seconds_since(start) >= options.time_limit_s) {
      report.timed_out = !report.complete;
      stop = true;
    }
    if (options.interrupted && *options.interrupted) {
      report.interrupted = !report.complete;
      stop = true;
    }
    if (stop && !held.empty()) {
      // Stopping for time, a signal or every team idle: what is held is a solution all the same,
      // handed over in order. Stopped by the limit or the caller: it stays unreported.
      if (limit_reached) {
        unreported = true;
      } else {
        std::vector<Found> rest;
        for (auto& [index, values] : held) rest.push_back(Found{0, from_complete, false, std::move(values)});
        stop = false;
        deliver(rest);
        stop = true;
      }
      held.clear();
    }
  }
  // Solutions found but not handed over (the solution limit, or the caller, stopped first) mean the
  // search is not complete, even when every team happens to be idle.
  if (unreported) report.complete = false;
  trace_stage(trace_rank, "loop-end", start);
  // The explaining threads and (rank 0) the other ranks wind down together: each rank joins its
  // threads before it sends its figures, so told one after the other they added up to 50-80 ms at the
  // end of a four-GPU proof of a second (perf/NOTES.md entry 41).
  if (explain != nullptr) explain->signal();
  if (dist != nullptr) dist->stop_others();

  fleet.add_totals(report);
  trace_stage(trace_rank, "totals", start);
  if (explain != nullptr) explain->stop(report);
  trace_stage(trace_rank, "explain-stopped", start);
  if (helper != nullptr) {
    SearchReport h;
    helper->add_totals(h);
    report.host_nodes = h.nodes;
    report.free_teams += helper->setup.free_teams;
    report.setup_time_s += helper->setup.setup_time_s;
    add_work(report, h);
  }
  if (learning) {
    report.nogoods_learned = nogoods.learned;
    report.nogoods_dropped += nogoods.dropped;
    report.nogoods_deleted = nogoods.deleted;
    report.nogoods_kept = nogoods.size();
    report.nogood_propagations = nogoods.propagations;
    report.nogood_failures = nogoods.failures;
  }
  if (dist != nullptr) {
    // Rank 0's last solutions from the others (improving ones are still handed over when optimising).
    dist->conclude(report, [&](Distributed::Inbox& in) {
      if (options.objective < 0 || limit_reached || in.solutions.empty()) return;
      std::vector<Found> late;
      dist->take_solutions(in, late);
      stop = false;
      deliver(late);
      stop = true;
    });
    trace_stage(trace_rank, "concluded", start);
  }
  report.best = best_reported;
  if (report.complete && options.objective >= 0) report.objective_bound = best_reported;
  report.solve_time_s = seconds_since(start);
  return report;
}

}  // namespace

template <class ExecSpace>
SearchReport search(const Program& program, const SearchOptions& options, const SolutionCallback& on_solution) {
  LaunchParams lp = default_launch_params<ExecSpace>();
  if (options.team_size > 0) lp.team_size = options.team_size;
  if (options.vector_length > 0) lp.vector_length = options.vector_length;
  Peers* const peers = options.peers != nullptr && options.peers->size() > 1 ? options.peers : nullptr;
  constexpr bool beside_gpu = on_gpu<ExecSpace>();
  const auto run = [&](SearchOptions o, const SolutionCallback& cb, bool distributed) {
    const auto start = Clock::now();
    if (o.portfolio < 0) o.portfolio = beside_gpu ? default_portfolio_gpu : default_portfolio;
    // The fleet's free share: a distributed rank other than 0 may run one of its own (rank_portfolio);
    // the host's rows and learning go by o.portfolio on every rank.
    const auto with_share = [](SearchOptions f, double share) {
      f.portfolio = share;
      return f;
    };
    double fleet_share = o.portfolio;
    std::unique_ptr<Distributed> dist;
    if (distributed) {
      // Every rank splits the root into the same subproblems: 2^p of them, 16 (or 4: subproblems_per_row)
      // per complete row of all ranks (the largest fleet's rows times K: one process's share per row),
      // in 64 K chunks (powers of two; chunks of one subproblem where there are fewer).
      const int rank = peers->rank(), k = peers->size();
      const int teams = fleet_teams<ExecSpace>(program, o, lp);
      if (rank > 0 && o.rank_portfolio >= 0) fleet_share = o.rank_portfolio;
      const int own_rows = portfolio_rows(with_share(o, fleet_share), teams).complete;
      const std::int64_t rows = peers->all_max(own_rows);
      const int p = o.subproblem_depth >= 0
                        ? o.subproblem_depth
                        : std::min(40, static_cast<int>(std::ceil(std::log2(subproblems_per_row(o, int(rows)) *
                                                                              double(k) * double(rows)))));
      o.subproblem_depth = p;
      o.chunk_log = std::max(0, p - static_cast<int>(std::ceil(std::log2(64.0 * k))));
      // Other free runs on every rank; an explaining search on every rank, each in its own order (or rank
      // 0's alone, the others' free rows learning as with it).
      if (rank > 0) {
        o.free_salt = 0x72616e6bULL * std::uint64_t(rank);
        if (o.learn == LearnMode::explain && !o.explain_every_rank) o.learn = LearnMode::restart;
      }
      o.explain_variant = rank;
      o.explain_variants = k;
      dist = std::make_unique<Distributed>(*peers, o, static_cast<int>(rows), own_rows);
    }
    // Learning needs free runs (optimisation with a portfolio) to learn from, or an explaining search.
    // Satisfaction's runs with -a or free search (under a solution limit the solutions otherwise keep
    // the sequential search's order), and on one rank alone: rank 0, which hands the solutions over,
    // keeps each once. Asked for the first solution in order in one process, the explaining searches
    // still run, to prove unsatisfiability only (SearchOptions::explain_proof_only).
    if (o.objective < 0 && ((o.max_solutions != 0 && o.ordered_solutions) || (distributed && peers->rank() > 0))) {
      if (o.learn == LearnMode::explain && o.max_solutions == 1 && o.ordered_solutions && !distributed) {
        o.explain_proof_only = true;
        if (!beside_gpu) o.explain_start_s = explain_proof_start_s;
      } else
        o.learn = LearnMode::none;
    }
    if (portfolio_rows(o, 2).free == 0 && o.learn != LearnMode::explain) o.learn = LearnMode::none;
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
