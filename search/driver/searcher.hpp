// The driver's common pieces (search/solve.cpp's search() and the run loop): the clock and the trace,
// the portfolio's rows, the report's work counters, the watchdog, what a slice leaves (Found, Slice),
// and the Searcher interface behind which a fleet (search/driver/slice_searcher.hpp) runs its kernel.
// docs/architecture.md section 6 says how the parts fit.
#pragma once

#include "search/learning.hpp"
#include "search/solve.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace kcp::driver {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
/// The time point `s` seconds from now.
inline Clock::time_point seconds_from_now(double s) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

/// Whether KCP_TRACE is set: the driver's trace lines on stderr (run_search, trace_stage).
inline bool tracing() {
  static const bool trace = std::getenv("KCP_TRACE") != nullptr;
  return trace;
}

/// Tracing: a line on stderr when a search reaches `stage`, with the seconds since `start` and the wall
/// clock (seconds within the minute), which lines up the traces of a distributed search's ranks.
inline void trace_stage(int rank, const char* stage, Clock::time_point start) {
  if (!tracing()) return;
  const double wall = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  std::fprintf(stderr, "kcp-trace-stage rank=%d t=%.4f wall=%.4f %s\n", rank, seconds_since(start), std::fmod(wall, 60.0),
               stage);
}


/// The rows of the search state (search/modes.hpp): rows 0 .. complete - 1 search the subproblems,
/// the rest run restarts and LNS; one team alternates between a complete row and a free one.
struct Rows {
  int complete = 1, free = 0;
  bool alternate = false;
  int total() const { return complete + free; }
};

/// `o.portfolio` is the share itself: search()'s run resolves the default (-1) by backend first.
inline Rows portfolio_rows(const SearchOptions& o, int teams) {
  if (o.portfolio < 0) throw std::logic_error("kcp: the portfolio's share is not resolved");
  const double share = o.portfolio;
  Rows r;
  if (o.objective >= 0 && o.restart != RestartSequence::none && share > 0)
    r.free = teams == 1 ? 1 : std::clamp(static_cast<int>(std::lround(teams * share)), 1, teams - 1);
  r.alternate = teams == 1 && r.free == 1;
  r.complete = r.alternate ? 1 : teams - r.free;
  return r;
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
inline void add_work(SearchReport& to, const SearchReport& from) {
  for (const Counter c : work_counters) to.*c += from.*c;
  to.peak_depth = std::max(to.peak_depth, from.peak_depth);
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
inline void sort_worst_first(std::vector<Found>& found) {
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

/// The role the run loop drives: a searcher launched in slices, which hands back what each slice left
/// and takes the bound and the incumbent between them.
class SliceRunner {
 public:
  virtual ~SliceRunner() = default;
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
  /// Set up: the shape and the store's figures (the counters stay 0 until add_totals).
  SearchReport setup;
};

/// The role learning asks for (between slices only).
class LearningPart {
 public:
  virtual ~LearningPart() = default;
  /// Adds what the nogoods of the pool last uploaded did to `store`'s activity.
  virtual void collect_activity(NogoodStore& store) = 0;
  /// Uploads `store`'s pool when it changed since.
  virtual void upload_nogoods(const NogoodStore& store) = 0;
};

/// The role a distributed search asks for (search/driver/distributed.hpp; between slices only): the
/// chunks of subproblems it is dealt, and the end-game pieces it trades.
class DistributedPart {
 public:
  virtual ~DistributedPart() = default;
  /// The subproblems of the chunks it holds that no row has taken; the first of them (INT64_MAX: none);
  /// hands it the chunk of 2^chunk_log subproblems from `first` (its idle complete rows take work
  /// again); the end of a failed subtree past the chunk it began in (0: none), reset.
  virtual std::int64_t unclaimed() const = 0;
  virtual std::int64_t first_unclaimed() const = 0;
  virtual void add_chunk(std::int64_t first) = 0;
  virtual std::int64_t take_skip_to() = 0;
  /// End-game splitting across processes (search/modes.hpp's SplitPool): whether its rows split; has
  /// its rows give `extra` pieces more than its own waiting rows ask for (0: none more); takes out up to
  /// `max` published pieces as a piece log (per piece: its subproblem, its length, then five ints per
  /// decision); puts another process's pieces in (its idle complete rows take work again; what does not
  /// fit in the pool waits in a backlog, put in before the next launches); whether such a backlog is left.
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
};

/// One search state and its kernel on one execution space, launched in slices by the driver (run_search,
/// search/driver/run_loop.cpp), which owns time, signals, the incumbent, the bound and the output. The
/// fleet of the chosen backend is one; in a GPU run the host's cores can run a second (free rows only:
/// restarts and LNS, SearchOptions::host_teams) in the same process. SliceSearcher plays every role.
class Searcher : public SliceRunner, public LearningPart, public DistributedPart {};

}  // namespace kcp::driver
