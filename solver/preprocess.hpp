// Host-side preprocessing of a model on its way to the device, in two places of compile:
//
// 1. Before store variables exist: equality merging. int_eq, bool_eq and bool2int between two
//    variables, and int_lin_eq / bool_lin_eq rows a*x - a*y = 0, put x and y in one class of a
//    union-find; each class becomes one store variable whose domain is the intersection of its members'
//    domains, and the equality itself is not compiled. The same calls with a constant side only narrow
//    the class's domain. Aliases (`var int: x = y;`) are classes too, merged with or without this step.
//
// 2. After compilation: root propagation and simplification, repeated until nothing changes:
//    - the root fixpoint of the families' propagators (domains/) narrows the root domains; if it fails,
//      the model is unsatisfiable (Compiled::root_failed), which is a result, not an error;
//    - fixed variables are folded into the rows' right-hand sides and a row whose Boolean is fixed loses
//      its reification (b = 1) or is negated or dropped (b = 0);
//    - propagators that are entailed are removed (a row whose largest sum is <= c, a ternary or element
//      whose arguments are fixed and satisfy it), after fixing the result of those whose inputs are fixed
//      (constant folding) and the Boolean of reified rows that are decided; one-variable rows become
//      bounds;
//    then the store is compacted: fixed model variables become constants of Compiled::model_vars,
//    variables no propagator and no model variable refers to disappear, and fixed variables used by
//    ternaries and elements share one store variable per value.
//
// Every step keeps the set of solutions, projected onto the model's variables, the same; the tests
// check this by brute force on small models (tests/solver/test_compile.cpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <utility>
#include <vector>

#include "domains/root_fixpoint.hpp"
#include "solver/compile.hpp"

namespace kcp {

/// Union-find over the model's variables, with path halving.
class VariableClasses {
 public:
  explicit VariableClasses(int n) : parent_(static_cast<std::size_t>(n)) {
    for (int i = 0; i < n; ++i) parent_[static_cast<std::size_t>(i)] = i;
  }
  int find(int x) {
    while (parent_[static_cast<std::size_t>(x)] != x) {
      auto& px = parent_[static_cast<std::size_t>(x)];
      px = parent_[static_cast<std::size_t>(px)];
      x = px;
    }
    return x;
  }
  /// Unites the classes of x and y; the smaller index stays the representative, so that store
  /// variables keep the model's order. Returns whether they were apart.
  bool unite(int x, int y) {
    x = find(x);
    y = find(y);
    if (x == y) return false;
    if (y < x) std::swap(x, y);
    parent_[static_cast<std::size_t>(y)] = x;
    return true;
  }
  int size() const { return static_cast<int>(parent_.size()); }

 private:
  std::vector<int> parent_;
};

/// What equality merging found in a model.
struct Equalities {
  std::vector<char> absorbed;                         ///< per constraint: merged away, do not compile
  std::vector<std::pair<int, std::int64_t>> fixings;  ///< (model variable, value) from x = constant
};

/// Step 1: unites the variables of every equality between two variables in `classes` and lists the
/// equalities with a constant side.
Equalities merge_equalities(const fzn::Model& model, VariableClasses& classes);

/// Step 2 on a compiled program: narrows, simplifies and compacts it in place, fills
/// compiled.preprocess (all but `before` and the merge counts, which compile fills) and sets
/// compiled.root_failed when the model is unsatisfiable.
void preprocess(Compiled& compiled,
                std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

/// The root fixpoint of the whole program (event_fixpoint, domains/root_fixpoint.hpp); narrows p's
/// domains in place. When it fails, they hold whatever it left (some lb > ub); at `deadline` it stops
/// early, p narrowed only partly, which is sound (RootFixpointResult::stopped).
RootFixpointResult root_fixpoint(Program& p,
                                 std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

}  // namespace kcp
