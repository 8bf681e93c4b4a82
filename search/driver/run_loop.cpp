#include "search/driver/run_loop.hpp"

#include "search/driver/delivery.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace kcp::driver {

namespace {

/// While a helper's slice runs beside a fleet's slice on a GPU, ends the helper's slice (its stop
/// flag, at its next node) as soon as the fleet's has ended, so that the GPU waits for the host one
/// node at most, not a whole slice; a thread polling the fleet every 100 us while armed.
class SliceCutter {
 public:
  SliceCutter(const SliceRunner& fleet, volatile int* helper_stop)
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

/// The driver's loop, one round per fleet slice, in five named phases: take a slice (launch the fleet,
/// the helper's slices beside it, a distributed search's messages), collect solutions (hand them over,
/// in the sequential search's order where asked), exchange the bound and the incumbent, absorb learning
/// (the nogood pool), and decide whether to stop. It launches the fleet in slices and, with a helper
/// (the host's free rows beside a GPU), the helper's slices while the fleet's runs; it checks the time
/// limit and the interrupt flag, and the search is complete when the fleet's complete rows are all idle.
class RunLoop {
 public:
  RunLoop(Searcher& fleet, Searcher* helper, ExplainCrew* explain, Distributed* dist, const Program& program,
          const SearchOptions& options, const SolutionCallback& on_solution, Clock::time_point start)
      : fleet_(fleet),
        helper_(helper),
        explain_(explain),
        dist_(dist),
        options_(options),
        on_solution_(on_solution),
        start_(start),
        report_(fleet.setup),
        worker_(dist != nullptr && !dist->root()),
        watchdog_(stop_flags(fleet, helper), options, start),
        learning_(options.learn != LearnMode::none),
        trace_(tracing()),
        trace_rank_(dist != nullptr ? dist->rank() : 0) {
    if (helper_ != nullptr) report_.host_teams = helper_->setup.teams;
    // Beside a fleet on another device, the helper's slices end with the fleet's.
    if (helper_ != nullptr && fleet_.asynchronous())
      cutter_ = std::make_unique<SliceCutter>(fleet_, helper_->stop_flag());
    if (learning_) nogoods_ = NogoodStore(program, std::max(1, options_.nogood_capacity), options_.nogood_max_length);
    if (learning_ && options_.on_nogood)
      nogoods_.on_learned = [this](const HostNogood& g) { options_.on_nogood(g.lits, g.bound); };
    if (explain_ != nullptr && options_.objective < 0 && !worker_ && !options_.explain_proof_only)
      sieve_.emplace(options_.explain_solution_bytes);
  }

  SearchReport run() {
    trace_stage(trace_rank_, "slices", start_);
    if (dist_ != nullptr) {
      dist_->supply(fleet_, false);
      if (worker_) dist_->send_status(dist_->open(fleet_, INT64_MAX));
    }
    while (!stop_) {
      Round round;
      take_slice(round);
      collect_solutions(round);
      exchange_bound(round);
      absorb_learning(round);
      decide_termination(round);
    }
    return conclude();
  }

 private:
  /// What one round carries from phase to phase.
  struct Round {
    bool resting = false;  ///< distributed: this rank's part of the tree is done; it waits for the others
    Slice slice;
    Distributed::Inbox inbox;
    std::vector<Found> found;  ///< the fleet's (and other ranks') solutions to hand over
    std::vector<Found> explained;  ///< the explaining searches' solutions since the last round
    std::vector<std::int32_t> explained_log;  ///< and their clauses
    std::int64_t bound = INT64_MAX;  ///< the best objective published this round
  };

  static std::vector<volatile int*> stop_flags(Searcher& fleet, Searcher* helper) {
    std::vector<volatile int*> flags{fleet.stop_flag()};
    if (helper != nullptr) flags.push_back(helper->stop_flag());
    return flags;
  }

  // KCP_TRACE set: a line per slice on stderr (perf/NOTES.md entry 32): when it ended and how long it
  // took, the fleet's idle and waiting complete rows and unclaimed subproblems, the helper's slices in it
  // and its nodes (rank 0 in a probe, which runs without peers); and where a round took over 20 ms, how
  // long each of its parts took (the receive, the pieces, the solutions, the bound, learning, the rest).
  void phase(int k) {
    if (trace_) phase_at_[k] = seconds_since(start_);
  }

  /// Hands solutions over (a worker sends them to rank 0): when optimising only improving ones, in
  /// satisfaction each once; counts the improvements by the rows that found them; stops at the solution
  /// limit or when the caller says so.
  void deliver(std::vector<Found>& found) {
    for (auto& [key, source, host, values] : found) {
      if (worker_) {  // to rank 0, which hands solutions over (satisfaction's are sent with their subproblem)
        if (key >= std::min(best_reported_, shared_best_)) continue;
        best_reported_ = key;
        incumbent_ = values;
        dist_->send_solution(Found{key, source, host, values}, 0);
        continue;
      }
      if (stop_) {
        unreported_ = unreported_ || options_.objective < 0;
        continue;
      }
      if (sieve_ && !sieve_->fresh(values, source == from_explain)) continue;
      if (options_.objective >= 0) {
        if (key >= best_reported_) continue;
        best_reported_ = key;
        report_.best_time_s = seconds_since(start_);
        (source == from_complete  ? report_.improvements_complete
         : source == from_lns     ? report_.improvements_lns
         : source == from_explain ? report_.improvements_explain
                                  : report_.improvements_restart) += 1;
        report_.improvements_host += host ? 1 : 0;
        incumbent_ = values;
      }
      ++report_.solutions;
      if (options_.objective < 0 && source == from_explain) ++report_.solutions_explain;
      if (!on_solution_(values)) {
        stop_ = limit_reached_ = true;
        unreported_ = true;
      }
      if (options_.objective < 0 && options_.max_solutions > 0 && report_.solutions >= options_.max_solutions)
        stop_ = limit_reached_ = true;
    }
  }

  /// Hands solutions over even after the loop decided to stop (what was held, late ones from other ranks).
  void deliver_after_stop(std::vector<Found>& found) {
    stop_ = false;
    deliver(found);
    stop_ = true;
  }

  /// One slice of the fleet, and the helper's beside it.
  Slice run_slice() {
    fleet_.launch();
    std::optional<Clock::time_point> fleet_end;
    if (helper_ != nullptr) {
      // The helper's slices while the fleet's runs (one after it on a host fleet, whose launch
      // returned done); its improvements reach its own next slice at once, the fleet's next one.
      // When the fleet's slice ended, as near as the driver and the cutter saw it: its node budget
      // is measured to there, not to the end of the host's slice.
      std::optional<Clock::time_point> cut;
      do {
        if (!watchdog_.fired()) *helper_->stop_flag() = 0;  // raised by the cutter in the last slice
        const bool beside = cutter_ != nullptr && fleet_.running();
        if (!beside && !fleet_end) fleet_end = Clock::now();
        if (beside) cutter_->arm();
        helper_->launch();
        Slice h = helper_->finish();
        ++helper_slices_;
        if (beside && (cut = cutter_->disarm())) fleet_end = cut;
        deliver(h.found);
        if (learning_) nogoods_.absorb(h.learned.data(), std::int64_t(h.learned.size()));
        helper_->publish(std::min(best_reported_, shared_best_), incumbent_);
      } while (fleet_.running() && !stop_);
      if (cut) report_.fleet_wait_s += seconds_since(*cut);
    }
    return fleet_.finish(fleet_end);
  }

  /// Phase 1: the fleet's slice (a resting rank only listens), the other ranks' messages and pieces.
  void take_slice(Round& r) {
    r.resting = dist_ != nullptr && dist_->done();
    if (r.resting) {
      dist_->receive(r.inbox, 0.002);
    } else {
      const auto slice_start = Clock::now();
      helper_slices_ = 0;
      r.slice = run_slice();
      if (trace_) {
        SearchReport h;
        if (helper_ != nullptr) helper_->add_totals(h);
        std::fprintf(stderr,
                     "kcp-trace rank=%d t=%.4f slice=%.4f idle=%d waiting=%lld unclaimed=%lld helper_slices=%d helper_nodes=%lld %s\n",
                     trace_rank_, seconds_since(start_), seconds_since(slice_start), r.slice.idle,
                     static_cast<long long>(fleet_.waiting()), static_cast<long long>(fleet_.unclaimed()),
                     helper_slices_, static_cast<long long>(h.nodes), fleet_.holdings().c_str());
      }
      phase(0);
      if (dist_ != nullptr) dist_->receive(r.inbox);
    }
    phase(1);
    if (dist_ != nullptr) dist_->share_pieces(fleet_, r.inbox);
  }

  /// Phase 2: hands the new solutions over (satisfaction's in the sequential search's order where a
  /// limit asks for it: search/driver/delivery.hpp). Distributed: rank 0 holds the others' solutions with
  /// its own, releasing each once no rank can still find one in an earlier subproblem; the others send
  /// theirs as found. Then the explaining searches' solutions and clauses since the last round (their
  /// solutions are each a better one than they knew of; those not better than the fleet's are dropped
  /// by deliver).
  void collect_solutions(Round& r) {
    if (options_.objective >= 0) {
      r.found = std::move(r.slice.found);
      if (!r.inbox.solutions.empty()) dist_->take_solutions(r.inbox, r.found);
    } else {
      for (auto& [index, values] : r.slice.held) held_.hold(index, std::move(values));
      for (auto& [index, f] : r.inbox.solutions) held_.hold(index, std::move(f.values));
      if (worker_)
        held_.drain([&](std::int64_t index, std::vector<std::int32_t> values) {
          dist_->send_solution(Found{0, from_complete, false, std::move(values)}, index);
        });
      const std::int64_t open =
          dist_ != nullptr && !worker_ ? dist_->global_open(dist_->open(fleet_, r.slice.open)) : r.slice.open;
      held_.release(open, options_.max_solutions > 0, r.found);
    }
    phase(2);
    deliver(r.found);
    if (explain_ != nullptr) explain_->take(r.explained, r.explained_log);
    if (options_.explain_proof_only && !r.explained.empty()) {
      // A solution exists: nothing left for the explaining searches to prove. Theirs is kept aside,
      // handed over if the teams' first in order has not come within options_.ordered_wait_s.
      if (spare_.empty()) spare_.push_back(std::move(r.explained.front()));
      r.explained.clear();
      explain_->signal();
    }
    if (report_.solutions > 0) {
      spare_.clear();  // the teams' first came: theirs stands
    } else if (!spare_.empty() && seconds_since(start_) >= options_.ordered_wait_s) {
      deliver(spare_);
      spare_.clear();
    }
    deliver(r.explained);
    if (sieve_ && sieve_->over_budget()) {
      // Too many solutions to keep: the threads stop, their last solutions handed over first.
      explain_->halt();
      r.explained.clear();
      explain_->take(r.explained, r.explained_log);
      deliver(r.explained);
      sieve_->threads_stopped();
    }
  }

  /// Phase 3: the best objective and the incumbent, shared between ranks and published to the fleet,
  /// the helper and the explaining searches.
  void exchange_bound(Round& r) {
    if (dist_ != nullptr && options_.objective >= 0) {
      if (r.inbox.incumbent_best < std::min(best_reported_, shared_best_)) incumbent_ = std::move(r.inbox.incumbent);
      shared_best_ = dist_->share_best(std::min({best_reported_, shared_best_, r.inbox.incumbent_best}));
      if (!worker_ && !incumbent_.empty() && best_reported_ < best_sent_) {
        dist_->send_incumbent(best_reported_, incumbent_);
        best_sent_ = best_reported_;
      }
    }
    phase(3);
    r.bound = std::min(best_reported_, shared_best_);
    if (options_.objective >= 0 && r.bound != INT64_MAX) {
      fleet_.publish(r.bound, incumbent_);
      if (helper_ != nullptr) helper_->publish(r.bound, incumbent_);
      if (explain_ != nullptr) explain_->hand(r.bound, incumbent_);
      incumbent_.clear();  // published: the next publish sends values only when they change
    }
    phase(4);
  }

  /// Phase 4: the round's nogoods into the pool, the pool to the searchers, and the empty nogood's proof.
  void absorb_learning(Round& r) {
    if (learning_) {
      // After the bound: a nogood holds under the bound it was learned with, which the best
      // published is at or below. Every searcher's activity is in before the pool changes.
      nogoods_.absorb(r.slice.learned.data(), std::int64_t(r.slice.learned.size()));
      nogoods_.absorb(r.explained_log.data(), std::int64_t(r.explained_log.size()));
      if (dist_ != nullptr) {
        if (options_.explain_every_rank) dist_->send_nogoods(r.explained_log);
        // Other ranks' clauses travel after the solutions they were learned beside, and after the
        // sender's bound went to the shared cell: a rank absorbs one only under a bound at or below the
        // one it was learned under (held until then).
        for_each_in_log(r.inbox.nogoods.data(), std::int64_t(r.inbox.nogoods.size()),
                        [&](const std::vector<Literal>&, std::int64_t) { ++report_.nogoods_received; });
        remote_held_.insert(remote_held_.end(), r.inbox.nogoods.begin(), r.inbox.nogoods.end());
        if (!remote_held_.empty()) {
          std::vector<std::int32_t> usable, held_back;
          for_each_in_log(remote_held_.data(), std::int64_t(remote_held_.size()),
                          [&](const std::vector<Literal>& lits, std::int64_t b) {
                            append_to_log(b >= r.bound ? usable : held_back, lits, b);
                            if (b >= r.bound) ++report_.nogoods_received_absorbed;
                          });
          nogoods_.absorb(usable.data(), std::int64_t(usable.size()));
          remote_held_.swap(held_back);
        }
      }
      fleet_.collect_activity(nogoods_);
      if (helper_ != nullptr) helper_->collect_activity(nogoods_);
      nogoods_.end_round();
      // Proving only, the pool stays with the explaining searches: a clause cuts no solution but prunes
      // values, and first_fail reads the sizes it prunes, a random value the nodes it saves, so the
      // teams' tree, and their first solution, would no longer be the annotations' (seen on CUDA, where
      // the explaining search starts at once: ValueChoiceOnBackend.FirstSolutionIsTheSequentialSearchsFirst).
      if (!options_.explain_proof_only) {
        fleet_.upload_nogoods(nogoods_);
        if (helper_ != nullptr) helper_->upload_nogoods(nogoods_);
      }
      if (explain_ != nullptr) explain_->share(nogoods_);
      // The empty nogood: no solution below its bound, which is at or above the best found (another
      // rank's proof counts at rank 0 once the best it was learned under has arrived there).
      if (nogoods_.proved()) proof_ = std::max(proof_, nogoods_.proof_bound());
      if (worker_ && nogoods_.proved()) dist_->send_proof(nogoods_.proof_bound());
    }
    phase(5);
  }

  /// Phase 5: a proof, every complete row idle (rank 0: every rank's), a stop from another rank, the
  /// time limit or a signal end the loop; what is held then is handed over.
  void decide_termination(Round& r) {
    proof_ = std::max(proof_, r.inbox.proof);
    if (!worker_ && proof_ >= best_reported_ && proof_ != INT64_MIN && !stop_) {
      report_.complete = report_.proved_by_nogood = true;
      stop_ = true;
    }

    if (!r.resting) report_.idle_teams = r.slice.idle;
    if (dist_ != nullptr) {
      // Rank 0 alone decides that the search is complete: when every rank's part of the tree is done.
      if (!r.resting) dist_->supply(fleet_, r.slice.complete);
      if (worker_) dist_->send_status(dist_->open(fleet_, r.slice.open));
      if (!worker_ && dist_->all_done() && !stop_) {
        report_.complete = true;
        stop_ = true;
      }
      if (r.inbox.stop) {  // from rank 0; at rank 0, another rank stopped on its time limit or a signal
        report_.interrupted = report_.interrupted || (!report_.complete && r.inbox.interrupted);
        report_.timed_out = report_.timed_out || (!report_.complete && r.inbox.timed_out);
        stop_ = true;
      }
    } else if (r.slice.complete) {  // free rows never finish: the complete ones decide
      report_.complete = true;
      stop_ = true;
    }
    phase(6);
    if (trace_ && !r.resting && phase_at_[6] - phase_at_[0] > 0.02) {
      std::fprintf(stderr, "kcp-trace-gap rank=%d t=%.4f", trace_rank_, seconds_since(start_));
      for (int k = 1; k < 7; ++k) std::fprintf(stderr, " %.4f", phase_at_[k] - phase_at_[k - 1]);
      std::fprintf(stderr, "\n");
    }
    if (options_.time_limit_s > 0 && seconds_since(start_) >= options_.time_limit_s) {
      report_.timed_out = !report_.complete;
      stop_ = true;
    }
    if (options_.interrupted && *options_.interrupted) {
      report_.interrupted = !report_.complete;
      stop_ = true;
    }
    if (stop_ && !held_.empty()) {
      // Stopping for time, a signal or every team idle: what is held is a solution all the same,
      // handed over in order. Stopped by the limit or the caller: it stays unreported.
      if (limit_reached_) {
        unreported_ = true;
      } else {
        std::vector<Found> rest;
        held_.release(INT64_MAX, false, rest);
        deliver_after_stop(rest);
      }
      held_.clear();
    }
    if (stop_ && !spare_.empty() && !limit_reached_ && report_.solutions == 0) deliver_after_stop(spare_);
    if (stop_) spare_.clear();
  }

  /// After the loop: the searchers wound down and their figures added up.
  SearchReport conclude() {
    // Solutions found but not handed over (the solution limit, or the caller, stopped first) mean the
    // search is not complete, even when every team happens to be idle.
    if (unreported_) report_.complete = false;
    trace_stage(trace_rank_, "loop-end", start_);
    // The explaining threads and (rank 0) the other ranks wind down together: each rank joins its
    // threads before it sends its figures, so told one after the other they added up to 50-80 ms at the
    // end of a four-GPU proof of a second (perf/NOTES.md entry 41).
    if (explain_ != nullptr) explain_->signal();
    if (dist_ != nullptr) dist_->stop_others();

    fleet_.add_totals(report_);
    trace_stage(trace_rank_, "totals", start_);
    if (explain_ != nullptr) explain_->stop(report_);
    trace_stage(trace_rank_, "explain-stopped", start_);
    if (helper_ != nullptr) {
      SearchReport h;
      helper_->add_totals(h);
      report_.host_nodes = h.nodes;
      report_.free_teams += helper_->setup.free_teams;
      report_.setup_time_s += helper_->setup.setup_time_s;
      add_work(report_, h);
    }
    if (learning_) {
      report_.nogoods_learned = nogoods_.learned;
      report_.nogoods_dropped += nogoods_.dropped;
      report_.nogoods_deleted = nogoods_.deleted;
      report_.nogoods_kept = nogoods_.size();
      report_.nogood_propagations = nogoods_.propagations;
      report_.nogood_failures = nogoods_.failures;
    }
    if (dist_ != nullptr) {
      // Rank 0's last solutions from the others (improving ones are still handed over when optimising).
      dist_->conclude(report_, [&](Distributed::Inbox& in) {
        if (options_.objective < 0 || limit_reached_ || in.solutions.empty()) return;
        std::vector<Found> late;
        dist_->take_solutions(in, late);
        deliver_after_stop(late);
      });
      trace_stage(trace_rank_, "concluded", start_);
    }
    report_.best = best_reported_;
    if (report_.complete && options_.objective >= 0) report_.objective_bound = best_reported_;
    report_.solve_time_s = seconds_since(start_);
    return report_;
  }

  Searcher& fleet_;
  Searcher* helper_;
  ExplainCrew* explain_;
  Distributed* dist_;
  const SearchOptions& options_;
  const SolutionCallback& on_solution_;
  const Clock::time_point start_;
  SearchReport report_;
  std::int64_t best_reported_ = INT64_MAX;
  // Distributed: the best objective of all ranks as last seen (a bound: its solution is on its way to
  // rank 0), and rank 0's best sent to the others with its values.
  std::int64_t shared_best_ = INT64_MAX, best_sent_ = INT64_MAX;
  const bool worker_;
  bool stop_ = false, unreported_ = false;
  bool limit_reached_ = false;  ///< the solution limit or the caller stopped the search
  const Watchdog watchdog_;
  std::unique_ptr<SliceCutter> cutter_;
  // Satisfaction: solutions by subproblem (collect_solutions).
  OrderedSolutions held_;
  // Satisfaction asking for the first solution in order: the explaining searches' first, kept aside.
  std::vector<Found> spare_;
  // The incumbent the free rows build neighbourhoods from, published between slices.
  std::vector<std::int32_t> incumbent_;
  // Learning: the nogoods of every searcher's rows, one pool for all (search/learning.hpp).
  const bool learning_;
  NogoodStore nogoods_;
  std::optional<SolutionSieve> sieve_;
  const bool trace_;
  const int trace_rank_;
  int helper_slices_ = 0;
  double phase_at_[7] = {};
  std::int64_t proof_ = INT64_MIN;  ///< distributed, rank 0: the highest bound a rank's empty nogood holds under
  std::vector<std::int32_t> remote_held_;  ///< distributed: other ranks' clauses not yet absorbed (a log)
};

}  // namespace

SearchReport run_search(Searcher& fleet, Searcher* helper, ExplainCrew* explain, Distributed* dist,
                        const Program& program, const SearchOptions& options, const SolutionCallback& on_solution,
                        Clock::time_point start) {
  return RunLoop(fleet, helper, explain, dist, program, options, on_solution, start).run();
}

}  // namespace kcp::driver
