// The explaining searches beside the fleet (search/explain.hpp), each on a host thread of its own
// (ExplainThread), as one crew the run loop takes from and hands to between slices.
#pragma once

#include "search/driver/searcher.hpp"
#include "search/driver/setup.hpp"
#include "search/explain.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace kcp::driver {

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
      report.explain_lifted += e.lifted_explanations;
      report.explain_propagations += e.propagations + e.clause_propagations;
      report.explain_failed = report.explain_failed || t->failed();
    }
  }

 private:
  std::vector<std::unique_ptr<ExplainThread>> crew_;
};

}  // namespace kcp::driver
