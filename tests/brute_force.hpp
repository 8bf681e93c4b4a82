// Brute-force checks of propagation over small domains (Gecode's test style): a test states what a
// constraint means by listing its solutions within the domains it started from, propagates, and
// checks the bounds left against those solutions.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <vector>

namespace kcp::test {

using Assignment = std::vector<std::int64_t>;

/// Every assignment within [lb, ub] (a small box) that satisfies holds.
template <class Pred>
std::vector<Assignment> solutions_in(const std::vector<std::int32_t>& lb, const std::vector<std::int32_t>& ub,
                                     const Pred& holds) {
  std::vector<Assignment> out;
  Assignment v(lb.begin(), lb.end());
  for (std::size_t i = 0; i < lb.size(); ++i)
    if (lb[i] > ub[i]) return out;
  for (;;) {
    if (holds(v)) out.push_back(v);
    std::size_t i = 0;
    while (i < v.size() && v[i] == ub[i]) v[i] = lb[i], ++i;
    if (i == v.size()) return out;
    ++v[i];
  }
}

/// What a propagator promises at its fixpoint.
enum class Promise {
  /// No solution is lost; it fails only when no solution is left; once every variable is fixed it
  /// fails exactly when the assignment is not a solution.
  sound,
  /// Also fails exactly when no solution is left, and every bound left takes part in a solution:
  /// bounds(Z) consistency.
  bounds,
};

/// Checks the outcome of propagation (failed, or the bounds [lb, ub] left) against the solutions
/// within the domains it started from.
inline ::testing::AssertionResult check_propagation(const std::vector<Assignment>& solutions, bool failed,
                                                    const std::vector<std::int32_t>& lb,
                                                    const std::vector<std::int32_t>& ub, Promise promise) {
  if (failed) {
    if (!solutions.empty()) return ::testing::AssertionFailure() << "failed with " << solutions.size() << " solutions";
    return ::testing::AssertionSuccess();
  }
  for (const Assignment& s : solutions)
    for (std::size_t i = 0; i < lb.size(); ++i)
      if (s[i] < lb[i] || s[i] > ub[i]) {
        return ::testing::AssertionFailure()
               << "lost a solution: x" << i << " = " << s[i] << " outside [" << lb[i] << ", " << ub[i] << "]";
      }
  bool all_fixed = true;
  for (std::size_t i = 0; i < lb.size(); ++i) all_fixed = all_fixed && lb[i] == ub[i];
  if (all_fixed && solutions.empty()) return ::testing::AssertionFailure() << "every variable fixed, not a solution";
  if (promise == Promise::sound) return ::testing::AssertionSuccess();
  if (solutions.empty()) return ::testing::AssertionFailure() << "no solution, and no failure";
  for (std::size_t i = 0; i < lb.size(); ++i) {
    for (const std::int64_t b : {std::int64_t(lb[i]), std::int64_t(ub[i])}) {
      bool supported = false;
      for (const Assignment& s : solutions) supported = supported || s[i] == b;
      if (!supported) return ::testing::AssertionFailure() << "bound " << b << " of x" << i << " has no support";
    }
  }
  return ::testing::AssertionSuccess();
}

/// "[lo, hi] ..." for failure messages.
inline std::string show_domains(const std::vector<std::int32_t>& lb, const std::vector<std::int32_t>& ub) {
  std::ostringstream os;
  for (std::size_t i = 0; i < lb.size(); ++i) os << "x" << i << " in [" << lb[i] << ", " << ub[i] << "] ";
  return os.str();
}

/// Every sub-range [a, b] of [lo, hi].
inline std::vector<std::pair<std::int32_t, std::int32_t>> sub_ranges(std::int32_t lo, std::int32_t hi) {
  std::vector<std::pair<std::int32_t, std::int32_t>> out;
  for (std::int32_t a = lo; a <= hi; ++a)
    for (std::int32_t b = a; b <= hi; ++b) out.emplace_back(a, b);
  return out;
}

}  // namespace kcp::test
