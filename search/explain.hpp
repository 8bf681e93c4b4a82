// Learning from failure, stage 2: explanations and conflict analysis, on one host thread (issue 23).
//
// Lazy clause generation in kcp's own terms (Ohrimenko, Stuckey and Codish 2009; Chuffed): a
// sequential search over the store with a trail, where every domain change is recorded with its
// reason, and every failure is analysed back to the first unique implication point (1-UIP) of its
// decision level. The learned clause is a nogood over the literals of domains/nogoods.hpp; it is
// propagated by this search at once (a backjump to the level where it becomes unit) and the short
// ones go to the shared pool, where every team of the fleet propagates them (search/learning.hpp).
//
// Explanations without per-family code. A propagator is a monotone function of the domains of its
// scope, so when it changed a variable, the domains of its scope just before it ran (the box: bound
// literals x >= l, x <= u and, for bitset variables, the holes x != v inside them) explain the change:
// any store inside the box makes it change the same way. Boxes are long and specific, so each is
// minimised by deletion: a literal whose removal (its variable widened to its level-0 domain there)
// still lets the propagator, run alone to its own fixpoint on a scratch store, derive what is being
// explained is dropped (per variable first, then per literal). The result is what the propagator
// needs, whatever the family: for a linear row the bounds on its "min" side, for x = y + z the two
// operand bounds that matter. Costs one propagator run per literal tried, on the host, per
// resolution step. Boxes are not stored: the trail rebuilds a variable's domain at any position.
// A clause's propagation is explained by its other literals (and the variable's own domain, when a
// removed value at the bound moved it further).
//
// The trail records bound changes and bitset words (old and new word), per variable chained, so
// that the entry which made a literal true is found by walking back from the variable's last one.
// Decisions are x = v (bitset variables, or v at a bound) and x <= v / x >= v, always onto values of
// the domain, so that a decision's entries are exactly its literal.
//
// Search: VSIDS over every store variable (activity bumped for the variables of every literal met in
// analysis), the incumbent's value first, else the saved phase, else the least; Luby restarts; the
// objective bound is a level-0 fact (a restart to level 0 when it tightens), so every clause learned
// is valid under the bound it was learned with, as stage 1's nogoods are. A conflict at level 0 is a
// proof: no solution below the bound (the empty nogood).
//
// Every solution of a satisfaction problem (ExplainOptions::all_solutions): a solution's decisions are
// a nogood that excludes it alone (they propagate to it, every variable fixed), added for good (never
// reduced) and asserted as a learned clause is, a backjump of one level. Clauses learned after that
// hold for every solution not yet found: shared, they keep the fleet from the found ones only, which
// the driver has by then (search/driver/run_loop.cpp takes a solution before a clause learned after it). A
// conflict at level 0 is then the proof that there is no other solution.
#pragma once

#include "domains/nogoods.hpp"
#include "domains/program.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace kcp {

struct ExplainOptions {
  int objective = -1;                  ///< store variable minimised (-1: satisfaction)
  /// Satisfaction: every solution, each blocked once found (its decisions as a nogood, kept for good),
  /// instead of the first alone. complete() is then: no solution beside those found.
  bool all_solutions = false;
  std::int64_t restart_base = 100;     ///< conflicts of the Luby sequence's unit
  int export_length = 8;               ///< learned clauses at most this long go to the log
  int max_clauses = 20000;             ///< learned clauses kept; the least active half goes at a restart
  int max_minimise_literals = 256;     ///< boxes with more literals are used as they are
  std::vector<int> order;              ///< the decision variables tried first at equal activity
  /// Order literals for machines (Impl::add_order_literals): every pair of tasks of a cumulative whose
  /// tasks are all disjunctive gets a 0/1 variable b with b <-> s_i + d_i <= s_j and b <-> s_i <= s_j +
  /// d_j - 1 (j before i when 0), in this search's own copy of the program, at most this many; the
  /// search decides them first, the most active first (as Chuffed's disjunctive gives VSIDS its
  /// precedence literals), then the model's variables. 0: none (perf/NOTES.md entry 64).
  int order_literals = 20000;
  bool export_order_literals = false;  ///< tests: clauses over order literals go to the log as well
  /// Tests: at every fixpoint, run every propagator once more and count in stats().fixpoint_misses
  /// the fixpoints one of them would have narrowed (the wake-up rules left it asleep), or where a
  /// clause is unit or false (its watches missed a change); undone after.
  bool check_fixpoints = false;
};

struct ExplainStats {
  std::int64_t nodes = 0, conflicts = 0, restarts = 0, solutions = 0;
  std::int64_t learned = 0, learned_literals = 0, exported = 0, imported = 0, deleted = 0;
  std::int64_t propagations = 0, clause_propagations = 0;
  std::int64_t resolutions = 0, explain_runs = 0;  ///< resolution steps, propagator runs to minimise boxes
  std::int64_t family_explanations = 0;  ///< boxes a family explained itself (a cumulative's parts), one run each
  std::int64_t lifted_explanations = 0;  ///< of those, with the family's lifted bounds (its first try)
  std::int64_t order_literals = 0;  ///< the machines' order literals added (ExplainOptions::order_literals)
  std::int64_t fixpoint_checks = 0, fixpoint_misses = 0;  ///< with ExplainOptions::check_fixpoints
};

/// The search. `program`: as the fleet runs it (bitsets given, root to fixpoint or not).
class ExplainingSearch {
 public:
  ExplainingSearch(const Program& program, const ExplainOptions& options);
  ~ExplainingSearch();
  ExplainingSearch(const ExplainingSearch&) = delete;
  ExplainingSearch& operator=(const ExplainingSearch&) = delete;

  /// Adds the machines' order literals (ExplainOptions::order_literals) to p after its variables, at
  /// most `limit`, as the search adds them to its copy; returns how many.
  static int add_order_literals(Program& p, int limit);

  /// Searches for about `steps` nodes and conflicts (less when `stop` is raised, or once complete).
  /// Improving solutions (store values) are appended to `solutions`; learned clauses at most
  /// export_length long to `log`, in search/learning.hpp's format (with the bound they hold under).
  void run(std::int64_t steps, const volatile int* stop, std::vector<std::vector<std::int32_t>>& solutions,
           std::vector<std::int32_t>& log);
  /// A better solution exists elsewhere: search below `best` from the next restart on.
  void tighten(std::int64_t best);
  /// Values to try first (the incumbent's).
  void guide(const std::vector<std::int32_t>& values);
  /// Adds nogoods learned elsewhere (valid under a bound at or above the current one).
  void import(const std::vector<std::vector<Literal>>& nogoods);
  /// Searched to the end: no solution below best() (none at all when best() is INT64_MAX).
  bool complete() const;
  /// Nothing left to do: complete, or satisfaction's solution found (one asked for).
  bool finished() const;
  std::int64_t best() const;
  const ExplainStats& stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kcp
