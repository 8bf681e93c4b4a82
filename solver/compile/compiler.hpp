// The compiler's insides (solver/compile.cpp, solver/compile/*.cpp): the Compiler class, which lowers
// a FlatZinc model onto kcp's propagator families, its helpers, and the registry of builtins (the table
// in solver/compile.cpp's header comment).
#pragma once

#include "solver/compile.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "solver/int128.hpp"
#include "solver/preprocess.hpp"

namespace kcp::compile_impl {


using fzn::Constraint;
using fzn::IntSet;
using fzn::Term;

/// Intermediate values stay far below this, so exact Int128 arithmetic never wraps: every
/// coefficient and value entering a sum is a 64-bit integer, every product below 2^126.
constexpr Int128 wide_limit = Int128(1) << 100;

/// Most x != v rows a domain or a set may cost.
constexpr std::int64_t max_holes = 100000;

/// sum of coefficient * store variable + constant, exact.
struct LinearExpr {
  std::vector<std::pair<int, Int128>> terms;  ///< (store variable, coefficient); merged by normalise()
  Int128 constant = 0;

  /// Sorts by variable, merges duplicates, drops zero coefficients.
  void normalise() {
    std::sort(terms.begin(), terms.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::size_t out = 0;
    for (std::size_t i = 0; i < terms.size(); ++i) {
      if (out > 0 && terms[out - 1].first == terms[i].first) {
        terms[out - 1].second += terms[i].second;
      } else {
        terms[out++] = terms[i];
      }
    }
    terms.resize(out);
    terms.erase(std::remove_if(terms.begin(), terms.end(), [](const auto& t) { return t.second == 0; }), terms.end());
  }
};

inline bool holds(LinearKind k, Int128 sum, Int128 c) {
  switch (k) {
    case LinearKind::le:
      return sum <= c;
    case LinearKind::eq:
      return sum == c;
    case LinearKind::ne:
      return sum != c;
  }
  return false;
}

/// not (e (k) c), as a row of the same form.
inline void negate(LinearKind& k, LinearExpr& e, Int128& c) {
  negate_row(k, e.terms, c, [](auto& t) { t.second = -t.second; });
}

inline IntSet intersect(const IntSet& a, const IntSet& b) {
  IntSet out;
  std::size_t i = 0, j = 0;
  while (i < a.ranges.size() && j < b.ranges.size()) {
    const std::int64_t lo = std::max(a.ranges[i].first, b.ranges[j].first);
    const std::int64_t hi = std::min(a.ranges[i].second, b.ranges[j].second);
    if (lo <= hi) out.ranges.push_back({lo, hi});
    if (a.ranges[i].second < b.ranges[j].second) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

class Compiler {
 public:
  Compiler(const fzn::Model& model, const CompileOptions& options) : model_(model), options_(options) {}

  Compiled run();

  [[noreturn]] void fail(fzn::Location loc, const std::string& message) const {
    throw CompileError(model_.file, loc, message);
  }

  // --- arguments (kinds checked by validate() before a registry entry runs) ---------------------

  /// Checks the call against a signature: letters i (int), b (bool), I, B (arrays), S (constant set),
  /// alternatives separated by '|' (bool_xor takes 2 or 3 arguments). Bool arguments must be 0/1:
  /// constants are checked, variables narrowed to 0..1.
  void validate(const Constraint& c, std::string_view signatures);

  const Term& scalar(const Constraint& c, std::size_t i) const { return c.args[i].scalar; }
  const std::vector<Term>& array(const Constraint& c, std::size_t i) const { return c.args[i].array; }
  const IntSet& set(const Constraint& c, std::size_t i) const { return c.args[i].set; }

  // --- the store -----------------------------------------------------------------------------------

  Program& program() { return out_.program; }

  /// Store reference of a term (constants stay constants).
  StoreRefTerm ref(const Term& t) const {
    if (t.is_constant()) return {true, t.value, -1};
    return out_.model_vars.at(static_cast<std::size_t>(t.var));
  }
  std::int64_t lo(const StoreRefTerm& r) const { return r.is_constant ? r.value : out_.program.lb[r.var]; }
  std::int64_t hi(const StoreRefTerm& r) const { return r.is_constant ? r.value : out_.program.ub[r.var]; }

  /// A fixed store variable holding v, one per value.
  int constant(std::int64_t v, fzn::Location loc) {
    if (v < bound_min || v > bound_max)
      fail(loc, "constant " + std::to_string(v) + " is outside the 32-bit store range");
    const auto [it, inserted] = constants_.try_emplace(v, -1);
    if (inserted) it->second = program().add_var(static_cast<std::int32_t>(v), static_cast<std::int32_t>(v));
    return it->second;
  }

  /// A fresh variable; the bounds are clamped into the store's range.
  int new_var(std::int64_t lo, std::int64_t hi) { return program().add_var(clamp_bound(lo), clamp_bound(hi)); }
  int new_bool() { return program().add_var(0, 1); }

  /// The store variable of a term; constants become constant(v).
  int var(const Term& t, fzn::Location loc) {
    const StoreRefTerm r = ref(t);
    return r.is_constant ? constant(r.value, loc) : r.var;
  }

  /// Narrows x's root domain to [lo, hi]; an empty result makes the model unsatisfiable.
  void narrow(int x, std::int64_t lo, std::int64_t hi) {
    Program& p = program();
    const std::int64_t l = std::max<std::int64_t>(p.lb[x], lo);
    const std::int64_t h = std::min<std::int64_t>(p.ub[x], hi);
    if (l > h) {
      unsatisfiable();
      return;
    }
    if (p.has_bits(x)) {  // through the store: a bound landing on a hole moves on
      if (p.store().narrow_to(x, l, h) & prop_failed) unsatisfiable();
      return;
    }
    p.lb[x] = static_cast<std::int32_t>(l);
    p.ub[x] = static_cast<std::int32_t>(h);
  }

  /// The model has no solution: say so, and add an always-false row for searches that do not look.
  void unsatisfiable() {
    if (out_.root_failed) return;
    out_.root_failed = true;
    program().add_row(LinearKind::le, {}, {}, -1);
  }

  // --- rows ----------------------------------------------------------------------------------------

  void add(LinearExpr& e, Int128 a, const Term& t, fzn::Location loc) const {
    const StoreRefTerm r = ref(t);
    if (r.is_constant) {
      e.constant += a * r.value;
      if (e.constant >= wide_limit || e.constant <= -wide_limit) fail(loc, "integer overflow while compiling");
    } else {
      e.terms.push_back({r.var, a});
    }
  }

  /// e (k) rhs, optionally reified by b (a 0/1 constant or variable): b <-> row, or b -> row.
  void post(LinearKind k, LinearExpr e, Int128 rhs, fzn::Location loc, Reification mode = Reification::none,
            StoreRefTerm b = {}) {
    e.normalise();
    Int128 c = rhs - e.constant;
    e.constant = 0;
    if (mode != Reification::none && b.is_constant) {
      if (b.value != 0) {
        mode = Reification::none;
      } else if (mode == Reification::implied) {
        return;
      } else {
        negate(k, e, c);
        mode = Reification::none;
      }
    }
    if (e.terms.empty()) {
      const bool truth = holds(k, 0, c);
      if (mode == Reification::none) {
        if (!truth) unsatisfiable();
      } else if (mode == Reification::equivalent) {
        narrow(b.var, truth, truth);
      } else if (!truth) {
        narrow(b.var, 0, 0);
      }
      return;
    }
    std::vector<std::int32_t> a;
    std::vector<int> x;
    a.reserve(e.terms.size());
    x.reserve(e.terms.size());
    for (const auto& [v, coef] : e.terms) {
      if (coef < INT32_MIN || coef > INT32_MAX) fail(loc, "a coefficient exceeds 32 bits");
      a.push_back(static_cast<std::int32_t>(coef));
      x.push_back(v);
    }
    if (c >= sum_limit || c <= -sum_limit) fail(loc, "linear constant out of range (|c| must be below 2^62)");
    program().add_row(k, a, x, static_cast<std::int64_t>(c), mode == Reification::none ? -1 : b.var, mode);
  }

  /// ax * arg0 + ay * arg1 (k) rhs, reified by arg2 when mode says so.
  void relation(const Constraint& c, Int128 ax, Int128 ay, LinearKind k, Int128 rhs,
                Reification mode = Reification::none) {
    LinearExpr e;
    add(e, ax, scalar(c, 0), c.loc);
    add(e, ay, scalar(c, 1), c.loc);
    post(k, e, rhs, c.loc, mode, mode == Reification::none ? StoreRefTerm{} : ref(scalar(c, 2)));
  }

  /// b <-> (x op y) for op = eq_reif / le_reif: one ternary when x, y, b are variables, else the row
  /// x - y (k) 0 reified by b (a constant side folds into the row; a ternary would need a variable).
  void reified_relation(const Constraint& c, TernaryOp op, LinearKind k) {
    const StoreRefTerm x = ref(scalar(c, 0)), y = ref(scalar(c, 1)), b = ref(scalar(c, 2));
    if (!x.is_constant && !y.is_constant && !b.is_constant) {
      program().add_ternary(op, b.var, x.var, y.var);
      return;
    }
    relation(c, 1, -1, k, 0, Reification::equivalent);
  }

  /// int_lin_* / bool_lin_*: (as, xs, rhs[, b]).
  void linear(const Constraint& c, LinearKind k, Reification mode = Reification::none) {
    const auto& as = array(c, 0);
    const auto& xs = array(c, 1);
    if (as.size() != xs.size())
      fail(c.loc,
           c.name + ": " + std::to_string(as.size()) + " coefficients for " + std::to_string(xs.size()) + " variables");
    LinearExpr e;
    e.terms.reserve(xs.size());
    for (std::size_t i = 0; i < as.size(); ++i) {
      if (!as[i].is_constant()) fail(c.loc, c.name + ": coefficients must be constants");
      add(e, as[i].value, xs[i], c.loc);
    }
    add(e, -1, scalar(c, 2), c.loc);  // the right-hand side moves left: a variable one is fine too
    post(k, e, 0, c.loc, mode, mode == Reification::none ? StoreRefTerm{} : ref(scalar(c, 3)));
  }

  /// The sum of a bool array, times sign.
  LinearExpr sum(const Constraint& c, std::size_t i, Int128 sign) const {
    LinearExpr e;
    for (const Term& t : array(c, i)) add(e, sign, t, c.loc);
    return e;
  }

  // --- ternaries -----------------------------------------------------------------------------------

  /// args[xi] = args[yi] op args[zi].
  void ternary(const Constraint& c, TernaryOp op, std::size_t xi, std::size_t yi, std::size_t zi) {
    program().add_ternary(op, var(scalar(c, xi), c.loc), var(scalar(c, yi), c.loc), var(scalar(c, zi), c.loc));
  }

  void power(const Constraint& c);
  void extremum(const Constraint& c, bool maximum);

  // --- element -------------------------------------------------------------------------------------

  void element(const Constraint& c);
  void var_element(const Constraint& c);

  // --- global families (domains/globals.hpp) -------------------------------------------------------

  void all_different(const Constraint& c);
  void cumulative(const Constraint& c);
  void table(const Constraint& c);

  // --- sets ----------------------------------------------------------------------------------------

  void in_set(const Term& x, const IntSet& s, fzn::Location loc);
  void exclude_holes(int x, const std::vector<std::pair<std::int64_t, std::int64_t>>& ranges, const std::string& what,
                     fzn::Location loc);
  void in_set_reified(const Term& x, const IntSet& s, const Term& b, Reification mode, fzn::Location loc);

 private:
  void compile_variables();
  void compile_objective();

  const fzn::Model& model_;
  CompileOptions options_;
  Compiled out_;
  std::unordered_map<std::int64_t, int> constants_;
  std::vector<char> absorbed_;  ///< per constraint: an equality merged away
};


using CompileFn = void (*)(Compiler&, const Constraint&);

struct Entry {
  const char* signature;  ///< see Compiler::validate
  CompileFn compile;
};

/// The registry: one entry per supported builtin (solver/compile/registry.cpp).
const std::unordered_map<std::string, Entry>& registry();

}  // namespace kcp::compile_impl
