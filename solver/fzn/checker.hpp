// The independent solution checker: decides whether an assignment satisfies a FlatZinc model by
// evaluating every constraint from its definition in the MiniZinc standard library. It shares no code
// with kcp's propagators or compile step, so a bug there cannot hide itself here.
//
// All arithmetic is exact: products are taken in 128 bits and linear sums in a 192-bit accumulator,
// so a huge coefficient times a huge value cannot wrap into a false "ok". An unknown builtin, a
// malformed call (wrong arity or argument kind, a non-Boolean value for a bool argument, a variable
// index outside the model) is a failure that names the constraint, never a silent pass.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "solver/fzn/model.hpp"

namespace kcp::fzn {

struct CheckResult {
  bool ok = true;
  /// On failure: names the first violated constraint (or variable) with its location and the values
  /// of its arguments, e.g.
  /// "constraint int_lin_le at model.fzn:12:1 violated: 1*x(=3) + 2*y(=4) <= 10 is false".
  std::string message;
};

/// values[i] is the value of model.variables[i] (bools 0/1). Checks, in this order, that every value
/// lies in its variable's domain and agrees with its alias (variables in order), then that every
/// constraint holds (constraints in order); reports the first failure.
CheckResult check_solution(const Model& model, const std::vector<std::int64_t>& values);

/// Evaluates one constraint of `model` under `values`; exposed for tests.
CheckResult check_constraint(const Model& model, const Constraint& c, const std::vector<std::int64_t>& values);

/// The builtin names the checker knows, sorted (for the solver to cross-check its own registry).
const std::vector<std::string>& checked_builtins();

}  // namespace kcp::fzn
