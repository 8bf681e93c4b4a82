// The delivery of solutions in the run loop: satisfaction's solutions held by subproblem and released in
// the sequential search's order (OrderedSolutions), and the sieve that hands a solution over once
// whichever side, the fleet or an explaining search, found it (SolutionSieve).
#pragma once

#include "search/driver/searcher.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace kcp::driver {

/// Satisfaction's solutions by subproblem, in the order found within one. With a solution limit they
/// are released in the order of the sequential search, so that the first solution printed is the one a
/// sequential search following the annotations reaches first: a solution is held until every subproblem
/// before its own is finished (subproblems are numbered in depth-first order, and each team's search
/// inside one is sequential). With -a: as found.
class OrderedSolutions {
 public:
  void hold(std::int64_t subproblem, std::vector<std::int32_t> values) { held_.emplace(subproblem, std::move(values)); }
  bool empty() const { return held_.empty(); }
  /// Moves out the solutions of subproblems up to `open` (the least subproblem still in a row's hands;
  /// every one when not `in_order`), in order.
  void release(std::int64_t open, bool in_order, std::vector<Found>& out) {
    while (!held_.empty() && (!in_order || held_.begin()->first <= open)) {
      out.push_back(Found{0, from_complete, false, std::move(held_.begin()->second)});
      held_.erase(held_.begin());
    }
  }
  /// Calls send(subproblem, values) for every solution held, in order, and forgets them.
  template <class Send>
  void drain(Send send) {
    for (auto& [index, values] : held_) send(index, std::move(values));
    held_.clear();
  }
  void clear() { held_.clear(); }

 private:
  std::multimap<std::int64_t, std::vector<std::int32_t>> held_;
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

}  // namespace kcp::driver
