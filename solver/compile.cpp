// The registry: every int and bool builtin of MiniZinc 2.6's FlatZinc library (the set the checker
// knows) onto kcp's propagator families (ternary, linear rows, element, and the globals of
// domains/globals.hpp). Constants become fixed store variables where a family
// needs a variable (`constant(v)`, cached per value); in rows they fold into the right-hand side.
//
//   builtin                                   families
//   int_{eq,ne,le,lt}, bool_{eq,ne,le,lt}     row over x, y                 (merged away: see preprocess.hpp)
//   ..._reif, ..._imp                         reified row  b <-> row / b -> row
//   int_eq_reif, int_le_reif, bool_eq_reif,   ternary eq_reif / le_reif  b = (x op y)   when x, y, b are
//     bool_le_reif                              variables; else a reified row
//   int_lin_{eq,ne,le}[_reif|_imp]            row [reified]
//   bool_lin_{eq,le}                          row
//   int_plus, int_minus                       ternary add
//   int_times, int_div, int_mod               ternary mul, tdiv, tmod
//   int_min, int_max, int_abs                 ternary min, max, abs
//   int_pow, int_pow_fixed                    ternary pow when the exponent is >= 0; else 1 div x^-y as
//                                              tdiv + abs + pow, with reified rows choosing the case
//   array_int_element, array_bool_element     element (constant array)
//   array_int_{minimum,maximum}               chain of ternary min / max
//   set_in, holes in a variable's domain      bounds; holes in a domain spanning at most
//                                              CompileOptions::bitset_span values: its bitset; else a
//                                              hole of 1-2 values: x != v rows; wider: a Boolean and
//                                              two rows (exclude_holes)
//   set_in_reif, set_in_imp                   reified rows G_j <-> x >= l_j, H_j <-> x > h_j per range
//                                              [l_j, h_j]; x in S <-> sum G_j - sum H_j = 1 (a row)
//   bool_not, bool_xor (2 args)               row a + b = 1
//   bool_and, bool_or, bool_xor (3 args)      reified row r <-> a + b >= 2 / >= 1 / = 1 (and _imp)
//   bool_clause[_reif|_imp]                   row sum as - sum bs >= 1 - |bs| [reified]
//   array_bool_and, array_bool_or [_imp]      reified row r <-> sum >= n / sum >= 1
//   array_bool_xor [_imp]                     row sum - 2k = 1, k a fresh variable in 0..n/2 [implied]
//   bool2int                                  row b - i = 0 (merged away)
//   kcp_cumulative(s, d, r, b)                global family cumulative (constant d, r, b; kcp's
//                                              mznlib emits it for fzn_cumulative and disjunctive)
//   kcp_all_different_int(x)                  global family all_different (mznlib: fzn_all_different_int)
//   array_var_{int,bool}_element              global family var_element
//   kcp_table_int, kcp_table_bool(x, t)       global family table (mznlib: fzn_table_*, fzn_regular)
//   (--no-global NAME lowers a family to its decomposition: see CompileOptions::native_global)
//   set_in with a variable set, float and set variables: not FlatZinc int/bool builtins; unsupported.
#include "solver/compile.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "solver/int128.hpp"
#include "solver/preprocess.hpp"

namespace kcp {

namespace {

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

bool holds(LinearKind k, Int128 sum, Int128 c) {
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
void negate(LinearKind& k, LinearExpr& e, Int128& c) {
  negate_row(k, e.terms, c, [](auto& t) { t.second = -t.second; });
}

IntSet intersect(const IntSet& a, const IntSet& b) {
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

std::string describe(char letter) {
  switch (letter) {
    case 'i':
      return "an int";
    case 'b':
      return "a bool";
    case 'I':
      return "an array of int";
    case 'B':
      return "an array of bool";
    case 'S':
      return "a set of int";
  }
  return "?";
}

std::string describe(fzn::Arg::Kind kind) {
  switch (kind) {
    case fzn::Arg::Kind::scalar:
      return "a scalar";
    case fzn::Arg::Kind::set:
      return "a set";
    case fzn::Arg::Kind::array:
      return "an array";
  }
  return "?";
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

void Compiler::validate(const Constraint& c, std::string_view signatures) {
  std::string_view sig;
  bool found = false;
  std::string arities;
  for (std::size_t start = 0; start <= signatures.size();) {
    std::size_t end = signatures.find('|', start);
    if (end == std::string_view::npos) end = signatures.size();
    const std::string_view alt = signatures.substr(start, end - start);
    if (alt.size() == c.args.size()) {
      sig = alt;
      found = true;
    }
    arities += (arities.empty() ? "" : " or ") + std::to_string(alt.size());
    start = end + 1;
  }
  if (!found) fail(c.loc, c.name + " takes " + arities + " arguments, not " + std::to_string(c.args.size()));
  auto bool_term = [&](const Term& t, std::size_t i) {
    if (t.is_constant()) {
      if (t.value != 0 && t.value != 1)
        fail(c.loc,
             c.name + ": argument " + std::to_string(i + 1) + " should be a bool but is " + std::to_string(t.value));
      return;
    }
    const StoreRefTerm r = ref(t);
    if (r.is_constant) {
      if (r.value != 0 && r.value != 1) unsatisfiable();
    } else {
      narrow(r.var, 0, 1);
    }
  };
  for (std::size_t i = 0; i < sig.size(); ++i) {
    const char letter = sig[i];
    const fzn::Arg& a = c.args[i];
    const fzn::Arg::Kind expected = (letter == 'i' || letter == 'b') ? fzn::Arg::Kind::scalar
                                    : letter == 'S'                  ? fzn::Arg::Kind::set
                                                                     : fzn::Arg::Kind::array;
    if (a.kind != expected)
      fail(c.loc, c.name + ": argument " + std::to_string(i + 1) + " should be " + describe(letter) + " but is " +
                      describe(a.kind));
    if (letter == 'b') bool_term(a.scalar, i);
    if (letter == 'B')
      for (const Term& t : a.array) bool_term(t, i);
  }
}

/// z = x^y with FlatZinc's (and the checker's) meaning: y >= 0 is the pow ternary; for y < 0 it is
/// 1 div x^-y, undefined for x = 0. Since 1 div x^k = (1 div x)^k for k >= 1 and 1 div x is in -1..1,
/// the negative case is w = 1 div x (ternary tdiv, which requires x != 0), z = w^|y|; no power beyond
/// 32 bits is needed. When y may take both signs, Booleans neg <-> y <= -1 and pos <-> y >= 0 choose:
/// the nonnegative case computes x^max(y, 0), the negative case divides by xd, which is x when neg and
/// 1 otherwise (so a zero x is only forbidden when the exponent is negative).
void Compiler::power(const Constraint& c) {
  const fzn::Location loc = c.loc;
  const StoreRefTerm x = ref(scalar(c, 0)), y = ref(scalar(c, 1));
  const int z = var(scalar(c, 2), loc);
  if (lo(y) >= 0) {
    program().add_ternary(TernaryOp::pow, z, var(scalar(c, 0), loc), var(scalar(c, 1), loc));
    return;
  }
  // |y|; a constant one only matters by its parity, since the base it raises is -1, 0 or 1 then.
  const int yv = y.is_constant ? -1 : y.var;
  const int ay = y.is_constant ? constant(y.value % 2 == 0 ? 2 : 1, loc) : new_var(0, std::max(-lo(y), hi(y)));
  if (!y.is_constant) program().add_ternary(TernaryOp::abs, ay, yv, yv);
  if (hi(y) < 0) {
    const int w = new_var(-1, 1);
    program().add_ternary(TernaryOp::tdiv, w, constant(1, loc), var(scalar(c, 0), loc));
    program().add_ternary(TernaryOp::pow, z, w, ay);
    return;
  }
  const int xv = var(scalar(c, 0), loc);
  const int neg = new_bool(), pos = new_bool();
  LinearExpr e;
  e.terms = {{yv, 1}};
  post(LinearKind::le, e, -1, loc, Reification::equivalent, {false, 0, neg});
  e.terms = {{yv, -1}};
  post(LinearKind::le, e, 0, loc, Reification::equivalent, {false, 0, pos});
  e.terms = {{neg, 1}, {pos, 1}};
  post(LinearKind::eq, e, 1, loc);
  // Nonnegative case: z = x^max(y, 0).
  const Int128 xmag = std::max(lo(x) < 0 ? -Int128(lo(x)) : Int128(lo(x)), hi(x) < 0 ? -Int128(hi(x)) : Int128(hi(x)));
  Int128 m = 1;
  if (xmag >= 2)  // at most 31 steps before m leaves the store range
    for (std::int64_t i = 0; i < hi(y) && m <= bound_max; ++i) m *= xmag;
  const std::int64_t bound = m > bound_max ? bound_max : static_cast<std::int64_t>(m);
  const int ymax = new_var(0, hi(y));
  program().add_ternary(TernaryOp::max, ymax, yv, constant(0, loc));
  const int p = new_var(-bound, std::max<std::int64_t>(bound, 1));
  program().add_ternary(TernaryOp::pow, p, xv, ymax);
  e.terms = {{z, 1}, {p, -1}};
  post(LinearKind::eq, e, 0, loc, Reification::implied, {false, 0, pos});
  // Negative case: z = (1 div xd)^|y|.
  const int xd = new_var(std::min<std::int64_t>(lo(x), 1), std::max<std::int64_t>(hi(x), 1));
  e.terms = {{xd, 1}, {xv, -1}};
  post(LinearKind::eq, e, 0, loc, Reification::implied, {false, 0, neg});
  e.terms = {{xd, 1}};
  post(LinearKind::eq, e, 1, loc, Reification::implied, {false, 0, pos});
  const int w = new_var(-1, 1);
  program().add_ternary(TernaryOp::tdiv, w, constant(1, loc), xd);
  const int q = new_var(-1, 1);
  program().add_ternary(TernaryOp::pow, q, w, ay);
  e.terms = {{z, 1}, {q, -1}};
  post(LinearKind::eq, e, 0, loc, Reification::implied, {false, 0, neg});
}

/// m = min(xs) / max(xs): constants fold into one, then a chain t1 = op(x1, x2), t2 = op(t1, x3), ...
/// whose last link writes m.
void Compiler::extremum(const Constraint& c, bool maximum) {
  const Term& m = scalar(c, 0);
  const auto& xs = array(c, 1);
  if (xs.empty()) {
    unsatisfiable();
    return;
  }
  std::optional<std::int64_t> best;
  std::vector<int> vars;
  for (const Term& t : xs) {
    const StoreRefTerm r = ref(t);
    if (r.is_constant) {
      best = !best ? r.value : (maximum ? std::max(*best, r.value) : std::min(*best, r.value));
    } else {
      vars.push_back(r.var);
    }
  }
  auto equals = [&](const StoreRefTerm& r) {
    LinearExpr e;
    add(e, 1, m, c.loc);
    if (r.is_constant) {
      e.constant -= r.value;
    } else {
      e.terms.push_back({r.var, -1});
    }
    post(LinearKind::eq, e, 0, c.loc);
  };
  if (best) {
    // A constant beyond the store range decides the result (every variable is within it) or never does.
    const bool decides = maximum ? *best > bound_max : *best < bound_min;
    const bool irrelevant = maximum ? *best < bound_min : *best > bound_max;
    if (vars.empty() || decides) {
      equals({true, *best, -1});
      return;
    }
    if (!irrelevant) vars.push_back(constant(*best, c.loc));
  }
  if (vars.size() == 1) {
    equals({false, 0, vars[0]});
    return;
  }
  const TernaryOp op = maximum ? TernaryOp::max : TernaryOp::min;
  const Program& p = program();
  int acc = vars[0];
  std::int64_t acc_lo = p.lb[acc], acc_hi = p.ub[acc];
  for (std::size_t i = 1; i < vars.size(); ++i) {
    const int x = vars[i];
    acc_lo = maximum ? std::max<std::int64_t>(acc_lo, p.lb[x]) : std::min<std::int64_t>(acc_lo, p.lb[x]);
    acc_hi = maximum ? std::max<std::int64_t>(acc_hi, p.ub[x]) : std::min<std::int64_t>(acc_hi, p.ub[x]);
    const int target = i + 1 == vars.size() ? var(m, c.loc) : new_var(acc_lo, acc_hi);
    program().add_ternary(op, target, acc, x);
    acc = target;
  }
}

/// array_int_element / array_bool_element: result = as[index] over a constant array. An array holding
/// a variable goes to var_element.
void Compiler::element(const Constraint& c) {
  const StoreRefTerm index = ref(scalar(c, 0));
  const auto& as = array(c, 1);
  const StoreRefTerm result = ref(scalar(c, 2));
  std::vector<std::int64_t> values;
  values.reserve(as.size());
  for (const Term& t : as) {
    const StoreRefTerm r = ref(t);
    if (!r.is_constant) {
      var_element(c);
      return;
    }
    values.push_back(r.value);
  }
  const auto n = static_cast<std::int64_t>(values.size());
  if (n == 0) {
    unsatisfiable();
    return;
  }
  if (index.is_constant) {
    if (index.value < 1 || index.value > n) {
      unsatisfiable();
      return;
    }
    LinearExpr e;
    add(e, 1, scalar(c, 2), c.loc);
    e.constant -= values[static_cast<std::size_t>(index.value - 1)];
    post(LinearKind::eq, e, 0, c.loc);
    return;
  }
  narrow(index.var, 1, n);
  if (result.is_constant) {
    // Only the positions holding the result remain.
    std::vector<std::pair<std::int64_t, std::int64_t>> positions;
    for (std::int64_t i = 0; i < n; ++i)
      if (values[static_cast<std::size_t>(i)] == result.value) positions.push_back({i + 1, i + 1});
    in_set(scalar(c, 0), IntSet::from_ranges(std::move(positions)), c.loc);
    return;
  }
  std::vector<std::int32_t> stored(values.size());
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t v = values[static_cast<std::size_t>(i)];
    if (v < bound_min || v > bound_max) {
      // No store value equals it: the position is impossible, and any stored value will do.
      program().add_row(LinearKind::ne, {1}, {index.var}, i + 1);
      stored[static_cast<std::size_t>(i)] = 0;
    } else {
      stored[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(v);
    }
  }
  program().add_element(index.var, result.var, stored);
}

/// array_var_int_element / array_var_bool_element: result = xs[index] over an array of variables. There
/// is no native family for it yet (one would be better: this costs a Boolean and two rows per
/// position, and propagates less than a native element would), so it is decomposed soundly:
/// e_i <-> (index = i) and e_i -> (result = xs[i]) for each position the index can take, sum e_i = 1,
/// and the result within the hull of the candidates.
void Compiler::var_element(const Constraint& c) {
  const StoreRefTerm index = ref(scalar(c, 0));
  const auto& xs = array(c, 1);
  const auto n = static_cast<std::int64_t>(xs.size());
  if (std::all_of(xs.begin(), xs.end(), [this](const Term& t) { return ref(t).is_constant; })) {
    element(c);  // a constant array after all
    return;
  }
  if (index.is_constant) {
    if (index.value < 1 || index.value > n) {
      unsatisfiable();
      return;
    }
    LinearExpr e;
    add(e, 1, scalar(c, 2), c.loc);
    add(e, -1, xs[static_cast<std::size_t>(index.value - 1)], c.loc);
    post(LinearKind::eq, e, 0, c.loc);
    return;
  }
  narrow(index.var, 1, n);
  if (out_.root_failed) return;
  if (options_.native_global[global_family<VarElement>]) {
    std::vector<int> vars{index.var, var(scalar(c, 2), c.loc)};
    for (const Term& t : xs) vars.push_back(var(t, c.loc));
    program().add_global<VarElement>(vars);
    return;
  }
  // The decomposition (--no-global var_element).
  const std::int64_t first = program().lb[index.var], last = program().ub[index.var];
  LinearExpr one;
  std::int64_t result_lo = bound_max, result_hi = bound_min;
  for (std::int64_t i = first; i <= last; ++i) {
    const Term& xi = xs[static_cast<std::size_t>(i - 1)];
    const int e = new_bool();
    const StoreRefTerm lit{false, 0, e};
    LinearExpr is_i;
    is_i.terms = {{index.var, 1}};
    post(LinearKind::eq, is_i, i, c.loc, Reification::equivalent, lit);
    LinearExpr same;
    add(same, 1, scalar(c, 2), c.loc);
    add(same, -1, xi, c.loc);
    post(LinearKind::eq, same, 0, c.loc, Reification::implied, lit);
    one.terms.push_back({e, 1});
    const StoreRefTerm r = ref(xi);
    result_lo = std::min(result_lo, lo(r));
    result_hi = std::max(result_hi, hi(r));
  }
  post(LinearKind::eq, one, 1, c.loc);
  const StoreRefTerm result = ref(scalar(c, 2));
  if (!result.is_constant) narrow(result.var, result_lo, result_hi);
}

/// x in s: x's bounds narrow to s's hull, each hole inside costs one x != v row.
void Compiler::in_set(const Term& x, const IntSet& s, fzn::Location loc) {
  const StoreRefTerm r = ref(x);
  if (r.is_constant) {
    if (!s.contains(r.value)) unsatisfiable();
    return;
  }
  const IntSet clipped = intersect(s, IntSet::range(lo(r), hi(r)));
  if (clipped.empty()) {
    unsatisfiable();
    return;
  }
  narrow(r.var, clipped.min(), clipped.max());
  exclude_holes(r.var, clipped.ranges, "the set", loc);
}

/// The gaps between consecutive `ranges` (sorted, disjoint, inside x's bounds) excluded from x. A gap
/// of one or two values costs one x != v row per value. A wider gap [a, b] costs a fresh Boolean g
/// and two rows, g <-> x >= b + 1 and x - (ub(x) - a + 1) g <= a - 1 (g = 0: x <= a - 1): a bound
/// that enters the gap leaves it in two fixpoint iterations, where one row per value moved it one
/// value per iteration (sudoku-opt's domains such as {1, 14, 15, 24}: perf/NOTES.md, entry 7).
void Compiler::exclude_holes(int x, const std::vector<std::pair<std::int64_t, std::int64_t>>& ranges,
                             const std::string& what, fzn::Location loc) {
  const std::int64_t top = program().ub[static_cast<std::size_t>(x)];
  if (ranges.size() > 1 && top - program().lb[static_cast<std::size_t>(x)] + 1 <= options_.bitset_span) {
    // A small domain: its bitset holds the holes (domains/store.hpp).
    program().give_bits(x);
    const StoreRef<false> s = program().store();
    // The ranges were clipped to x's bounds before they narrowed onto x's values: a gap may take
    // the last value left (x in {3, 7} with x in {2, 6, 8}).
    for (std::size_t k = 1; k < ranges.size(); ++k) {
      if (s.remove_range(x, ranges[k - 1].second + 1, ranges[k].first - 1) & prop_failed) {
        unsatisfiable();
        return;
      }
    }
    return;
  }
  // Gap k is [a, b]; big_m = top - a + 1 makes x - big_m <= a - 1 hold for every x <= top. A gap of one
  // or two values, or one whose big_m is no 32-bit coefficient, is excluded value by value.
  auto gap = [&](std::size_t k) { return std::make_pair(ranges[k - 1].second + 1, ranges[k].first - 1); };
  auto by_value = [&](std::int64_t a, std::int64_t b) {
    return b - a + 1 <= 2 || top - a + 1 > std::numeric_limits<std::int32_t>::max();
  };
  std::int64_t rows = 0;
  for (std::size_t k = 1; k < ranges.size(); ++k) {
    const auto [a, b] = gap(k);
    rows += by_value(a, b) ? b - a + 1 : 2;
  }
  if (rows > max_holes) fail(loc, what + " has too many holes for the bounds store");
  for (std::size_t k = 1; k < ranges.size(); ++k) {
    const auto [a, b] = gap(k);
    if (by_value(a, b)) {
      for (std::int64_t h = a; h <= b; ++h) program().add_row(LinearKind::ne, {1}, {x}, h);
      continue;
    }
    const std::int64_t big_m = top - a + 1;
    const int g = new_bool();
    program().add_row(LinearKind::le, {-1}, {x}, -(b + 1), g, Reification::equivalent);
    program().add_row(LinearKind::le, {1, -static_cast<std::int32_t>(big_m)}, {x, g}, a - 1);
  }
}

/// b <-> x in s (or b -> x in s). Over the ranges [l_j, h_j] of s within x's bounds, with
/// G_j <-> x >= l_j and H_j <-> x >= h_j + 1 (reified rows), x lies in range j exactly when
/// G_j - H_j = 1, and the sum over j of G_j - H_j is 0 or 1 since the ranges are sorted and disjoint:
/// x in s  <->  sum_j G_j - sum_j H_j = 1, one more row. G_j is 1 when l_j is at or below x's least
/// value, H_j is 0 when h_j is at or above its greatest, so a range costs at most two Booleans.
void Compiler::in_set_reified(const Term& x, const IntSet& s, const Term& b, Reification mode, fzn::Location loc) {
  const StoreRefTerm r = ref(x), lit = ref(b);
  if (r.is_constant) {
    post(LinearKind::le, {}, s.contains(r.value) ? 0 : -1, loc, mode, lit);
    return;
  }
  const std::int64_t xlo = lo(r), xhi = hi(r);
  const IntSet clipped = intersect(s, IntSet::range(xlo, xhi));
  LinearExpr in;
  for (const auto& [l, h] : clipped.ranges) {
    if (l <= xlo) {
      in.constant += 1;
    } else {
      const int g = new_bool();
      LinearExpr e;
      e.terms = {{r.var, -1}};
      post(LinearKind::le, e, -l, loc, Reification::equivalent, {false, 0, g});
      in.terms.push_back({g, 1});
    }
    if (h < xhi) {
      const int hv = new_bool();
      LinearExpr e;
      e.terms = {{r.var, -1}};
      post(LinearKind::le, e, -(h + 1), loc, Reification::equivalent, {false, 0, hv});
      in.terms.push_back({hv, -1});
    }
  }
  if (mode == Reification::equivalent && !lit.is_constant) {
    in.terms.push_back({lit.var, -1});  // the sum is 0 or 1: b equals it
    post(LinearKind::eq, in, 0, loc);
  } else {
    post(LinearKind::eq, in, 1, loc, mode, lit);
  }
}

/// kcp_all_different_int(x): the global family; a variable listed twice (also after equalities merged
/// two, or two equal constants) makes the model unsatisfiable.
void Compiler::all_different(const Constraint& c) {
  std::vector<int> xs;
  for (const Term& t : array(c, 0)) xs.push_back(var(t, c.loc));
  if (xs.size() < 2) return;
  std::vector<int> sorted = xs;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    unsatisfiable();
    return;
  }
  if (options_.native_global[global_family<AllDifferent>]) {
    program().add_global<AllDifferent>(xs);
    return;
  }
  // The decomposition (--no-global all_different): x_i != x_j.
  for (std::size_t i = 0; i < xs.size(); ++i)
    for (std::size_t j = i + 1; j < xs.size(); ++j) program().add_row(LinearKind::ne, {1, -1}, {xs[i], xs[j]}, 0);
}

/// kcp_cumulative(s, d, r, b): durations, uses and the capacity are constants within the store's
/// 32-bit range, durations and uses non-negative (cumulative's own assumption). Tasks with a zero
/// duration or use are dropped; a task using more than the capacity, or a negative capacity with any
/// task at all (MiniZinc's definition asks b >= 0 then), makes the model unsatisfiable.
void Compiler::cumulative(const Constraint& c) {
  const auto& s = array(c, 0);
  const auto& d = array(c, 1);
  const auto& r = array(c, 2);
  if (d.size() != s.size() || r.size() != s.size())
    fail(c.loc, c.name + ": the start, duration and use arrays have " + std::to_string(s.size()) + ", " +
                    std::to_string(d.size()) + " and " + std::to_string(r.size()) + " elements");
  auto constant_arg = [&](const Term& t, const char* what, bool non_negative) {
    const StoreRefTerm v = ref(t);
    if (!v.is_constant) fail(c.loc, c.name + ": " + what + " must be constants (kcp's mznlib decomposes the rest)");
    if (non_negative && v.value < 0)
      fail(c.loc, c.name + ": " + what + " must be non-negative, not " + std::to_string(v.value));
    if (v.value < bound_min || v.value > bound_max)
      fail(c.loc, c.name + ": " + what + " must lie in the 32-bit store range, not " + std::to_string(v.value));
    return v.value;
  };
  const std::int64_t cap = constant_arg(scalar(c, 3), "the capacity", false);
  if (cap < 0 && !s.empty()) {  // MiniZinc's definition: b >= 0 whenever there is a task
    unsatisfiable();
    return;
  }
  std::vector<int> starts;
  std::vector<std::int64_t> dur, use;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const std::int64_t di = constant_arg(d[i], "durations", true), ri = constant_arg(r[i], "uses", true);
    if (di == 0 || ri == 0) continue;
    if (ri > cap) {
      unsatisfiable();
      return;
    }
    starts.push_back(var(s[i], c.loc));
    dur.push_back(di);
    use.push_back(ri);
  }
  if (starts.empty()) return;
  if (options_.native_global[global_family<Cumulative>]) {
    std::vector<std::int64_t> pars{cap};
    pars.insert(pars.end(), dur.begin(), dur.end());
    pars.insert(pars.end(), use.begin(), use.end());
    program().add_global<Cumulative>(starts, pars);
    return;
  }
  // The decomposition (--no-global cumulative), MiniZinc's task form: when task j starts, the tasks
  // running (s_i <= s_j < s_i + d_i, task j itself included) use at most the capacity.
  // run <-> (s_i <= s_j) /\ (s_j <= s_i + d_i - 1), through two reified rows and a third.
  for (std::size_t j = 0; j < starts.size(); ++j) {
    std::vector<std::int32_t> coef{static_cast<std::int32_t>(use[j])};
    std::vector<int> vars{constant(1, c.loc)};
    for (std::size_t i = 0; i < starts.size(); ++i) {
      if (i == j) continue;
      const int after = new_bool(), before = new_bool(), run = new_bool();
      program().add_row(LinearKind::le, {1, -1}, {starts[i], starts[j]}, 0, after, Reification::equivalent);
      program().add_row(LinearKind::le, {1, -1}, {starts[j], starts[i]}, dur[i] - 1, before, Reification::equivalent);
      program().add_row(LinearKind::le, {-1, -1}, {after, before}, -2, run, Reification::equivalent);
      coef.push_back(static_cast<std::int32_t>(use[i]));
      vars.push_back(run);
    }
    program().add_row(LinearKind::le, coef, vars, cap);
  }
}

/// kcp_table_int / kcp_table_bool(x, t): x equals one of the rows of t (length a multiple of x's).
/// Rows with a value outside the store's range cannot match and are dropped; no row left makes the
/// model unsatisfiable. Decomposed (--no-global table): a row index i in 1..m and, per column j,
/// element(i, column j, x_j) (MiniZinc's own decomposition).
void Compiler::table(const Constraint& c) {
  const auto& xs = array(c, 0);
  const auto& t = array(c, 1);
  const std::size_t k = xs.size();
  if (k == 0) {
    if (t.empty()) return;  // the empty tuple, if the table has it
    fail(c.loc, c.name + ": a table of " + std::to_string(t.size()) + " cells for no variable");
  }
  if (t.size() % k != 0)
    fail(c.loc, c.name + ": the table has " + std::to_string(t.size()) + " cells, not a multiple of the " +
                    std::to_string(k) + " variables");
  std::vector<int> vars;
  for (const Term& x : xs) vars.push_back(var(x, c.loc));
  std::vector<std::int64_t> rows;
  for (std::size_t r = 0; r < t.size() / k; ++r) {
    bool in_range = true;
    for (std::size_t i = 0; i < k; ++i) {
      const StoreRefTerm v = ref(t[r * k + i]);
      if (!v.is_constant) fail(c.loc, c.name + ": the table must be constant");
      in_range = in_range && v.value >= bound_min && v.value <= bound_max;
    }
    if (!in_range) continue;
    for (std::size_t i = 0; i < k; ++i) rows.push_back(ref(t[r * k + i]).value);
  }
  const auto m = static_cast<std::int64_t>(rows.size() / k);
  if (m == 0) {
    unsatisfiable();
    return;
  }
  if (options_.native_global[global_family<Table>]) {
    program().add_global<Table>(vars, rows);
    return;
  }
  const int index = new_var(1, m);
  for (std::size_t i = 0; i < k; ++i) {
    std::vector<std::int32_t> column;
    for (std::int64_t r = 0; r < m; ++r) column.push_back(static_cast<std::int32_t>(rows[std::size_t(r) * k + i]));
    program().add_element(index, vars[i], column);
  }
}

using CompileFn = void (*)(Compiler&, const Constraint&);

struct Entry {
  const char* signature;  ///< see Compiler::validate
  CompileFn compile;
};

/// The registry: one entry per supported builtin.
const std::unordered_map<std::string, Entry>& registry() {
  using K = LinearKind;
  using R = Reification;
  using Op = TernaryOp;
  using C = Compiler&;
  using Con = const Constraint&;
  static const std::unordered_map<std::string, Entry> r = {
      // int comparisons: x - y (k) c.
      {"int_eq", {"ii", [](C cc, Con c) { cc.relation(c, 1, -1, K::eq, 0); }}},
      {"int_ne", {"ii", [](C cc, Con c) { cc.relation(c, 1, -1, K::ne, 0); }}},
      {"int_le", {"ii", [](C cc, Con c) { cc.relation(c, 1, -1, K::le, 0); }}},
      {"int_lt", {"ii", [](C cc, Con c) { cc.relation(c, 1, -1, K::le, -1); }}},
      {"int_eq_reif", {"iib", [](C cc, Con c) { cc.reified_relation(c, Op::eq_reif, K::eq); }}},
      {"int_ne_reif", {"iib", [](C cc, Con c) { cc.relation(c, 1, -1, K::ne, 0, R::equivalent); }}},
      {"int_le_reif", {"iib", [](C cc, Con c) { cc.reified_relation(c, Op::le_reif, K::le); }}},
      {"int_lt_reif", {"iib", [](C cc, Con c) { cc.relation(c, 1, -1, K::le, -1, R::equivalent); }}},
      {"int_eq_imp", {"iib", [](C cc, Con c) { cc.relation(c, 1, -1, K::eq, 0, R::implied); }}},
      {"int_ne_imp", {"iib", [](C cc, Con c) { cc.relation(c, 1, -1, K::ne, 0, R::implied); }}},
      {"int_le_imp", {"iib", [](C cc, Con c) { cc.relation(c, 1, -1, K::le, 0, R::implied); }}},
      {"int_lt_imp", {"iib", [](C cc, Con c) { cc.relation(c, 1, -1, K::le, -1, R::implied); }}},
      // int_lin_*: sum as * xs (k) c.
      {"int_lin_eq", {"IIi", [](C cc, Con c) { cc.linear(c, K::eq); }}},
      {"int_lin_ne", {"IIi", [](C cc, Con c) { cc.linear(c, K::ne); }}},
      {"int_lin_le", {"IIi", [](C cc, Con c) { cc.linear(c, K::le); }}},
      {"int_lin_eq_reif", {"IIib", [](C cc, Con c) { cc.linear(c, K::eq, R::equivalent); }}},
      {"int_lin_ne_reif", {"IIib", [](C cc, Con c) { cc.linear(c, K::ne, R::equivalent); }}},
      {"int_lin_le_reif", {"IIib", [](C cc, Con c) { cc.linear(c, K::le, R::equivalent); }}},
      {"int_lin_eq_imp", {"IIib", [](C cc, Con c) { cc.linear(c, K::eq, R::implied); }}},
      {"int_lin_ne_imp", {"IIib", [](C cc, Con c) { cc.linear(c, K::ne, R::implied); }}},
      {"int_lin_le_imp", {"IIib", [](C cc, Con c) { cc.linear(c, K::le, R::implied); }}},
      // Arithmetic: ternaries x = y op z; (a, b, c) means a op b = c.
      {"int_plus", {"iii", [](C cc, Con c) { cc.ternary(c, Op::add, 2, 0, 1); }}},
      {"int_minus", {"iii", [](C cc, Con c) { cc.ternary(c, Op::add, 0, 2, 1); }}},  // a = c + b
      {"int_times", {"iii", [](C cc, Con c) { cc.ternary(c, Op::mul, 2, 0, 1); }}},
      {"int_div", {"iii", [](C cc, Con c) { cc.ternary(c, Op::tdiv, 2, 0, 1); }}},
      {"int_mod", {"iii", [](C cc, Con c) { cc.ternary(c, Op::tmod, 2, 0, 1); }}},
      {"int_min", {"iii", [](C cc, Con c) { cc.ternary(c, Op::min, 2, 0, 1); }}},
      {"int_max", {"iii", [](C cc, Con c) { cc.ternary(c, Op::max, 2, 0, 1); }}},
      {"int_abs", {"ii", [](C cc, Con c) { cc.ternary(c, Op::abs, 1, 0, 0); }}},  // b = |a|
      {"int_pow", {"iii", [](C cc, Con c) { cc.power(c); }}},
      {"int_pow_fixed", {"iii", [](C cc, Con c) { cc.power(c); }}},
      // Element and extrema.
      {"array_int_element", {"iIi", [](C cc, Con c) { cc.element(c); }}},
      {"array_bool_element", {"iBb", [](C cc, Con c) { cc.element(c); }}},
      {"array_var_int_element", {"iIi", [](C cc, Con c) { cc.var_element(c); }}},
      {"array_var_bool_element", {"iBb", [](C cc, Con c) { cc.var_element(c); }}},
      {"array_int_minimum", {"iI", [](C cc, Con c) { cc.extremum(c, false); }}},
      {"array_int_maximum", {"iI", [](C cc, Con c) { cc.extremum(c, true); }}},
      // Global families, emitted by kcp's mznlib.
      {"kcp_all_different_int", {"I", [](C cc, Con c) { cc.all_different(c); }}},
      {"kcp_cumulative", {"IIIi", [](C cc, Con c) { cc.cumulative(c); }}},
      {"kcp_table_int", {"II", [](C cc, Con c) { cc.table(c); }}},
      {"kcp_table_bool", {"BB", [](C cc, Con c) { cc.table(c); }}},
      // Constant sets.
      {"set_in", {"iS", [](C cc, Con c) { cc.in_set(cc.scalar(c, 0), cc.set(c, 1), c.loc); }}},
      {"set_in_reif",
       {"iSb",
        [](C cc, Con c) { cc.in_set_reified(cc.scalar(c, 0), cc.set(c, 1), cc.scalar(c, 2), R::equivalent, c.loc); }}},
      {"set_in_imp",
       {"iSb",
        [](C cc, Con c) { cc.in_set_reified(cc.scalar(c, 0), cc.set(c, 1), cc.scalar(c, 2), R::implied, c.loc); }}},
      // bool comparisons over 0/1: a = b, a != b (a + b = 1), a <= b, a < b.
      {"bool_eq", {"bb", [](C cc, Con c) { cc.relation(c, 1, -1, K::eq, 0); }}},
      {"bool_ne", {"bb", [](C cc, Con c) { cc.relation(c, 1, 1, K::eq, 1); }}},
      {"bool_le", {"bb", [](C cc, Con c) { cc.relation(c, 1, -1, K::le, 0); }}},
      {"bool_lt", {"bb", [](C cc, Con c) { cc.relation(c, 1, -1, K::le, -1); }}},
      {"bool_eq_reif", {"bbb", [](C cc, Con c) { cc.reified_relation(c, Op::eq_reif, K::eq); }}},
      {"bool_ne_reif", {"bbb", [](C cc, Con c) { cc.relation(c, 1, 1, K::eq, 1, R::equivalent); }}},
      {"bool_le_reif", {"bbb", [](C cc, Con c) { cc.reified_relation(c, Op::le_reif, K::le); }}},
      {"bool_lt_reif", {"bbb", [](C cc, Con c) { cc.relation(c, 1, -1, K::le, -1, R::equivalent); }}},
      {"bool_eq_imp", {"bbb", [](C cc, Con c) { cc.relation(c, 1, -1, K::eq, 0, R::implied); }}},
      {"bool_ne_imp", {"bbb", [](C cc, Con c) { cc.relation(c, 1, 1, K::eq, 1, R::implied); }}},
      {"bool_le_imp", {"bbb", [](C cc, Con c) { cc.relation(c, 1, -1, K::le, 0, R::implied); }}},
      {"bool_lt_imp", {"bbb", [](C cc, Con c) { cc.relation(c, 1, -1, K::le, -1, R::implied); }}},
      {"bool_not", {"bb", [](C cc, Con c) { cc.relation(c, 1, 1, K::eq, 1); }}},
      // r <-> a /\ b: -a - b <= -2; r <-> a \/ b: -a - b <= -1; r <-> a xor b: a + b = 1.
      {"bool_and", {"bbb", [](C cc, Con c) { cc.relation(c, -1, -1, K::le, -2, R::equivalent); }}},
      {"bool_and_imp", {"bbb", [](C cc, Con c) { cc.relation(c, -1, -1, K::le, -2, R::implied); }}},
      {"bool_or", {"bbb", [](C cc, Con c) { cc.relation(c, -1, -1, K::le, -1, R::equivalent); }}},
      {"bool_or_imp", {"bbb", [](C cc, Con c) { cc.relation(c, -1, -1, K::le, -1, R::implied); }}},
      {"bool_xor",
       {"bb|bbb",
        [](C cc, Con c) {
          cc.relation(c, 1, 1, K::eq, 1, c.args.size() == 3 ? R::equivalent : R::none);
        }}},
      {"bool_xor_imp", {"bbb", [](C cc, Con c) { cc.relation(c, 1, 1, K::eq, 1, R::implied); }}},
      // Arrays of bools as rows over 0/1 variables.
      {"array_bool_and",
       {"Bb",
        [](C cc, Con c) {
          const auto n = static_cast<Int128>(cc.array(c, 0).size());
          cc.post(K::le, cc.sum(c, 0, -1), -n, c.loc, R::equivalent, cc.ref(cc.scalar(c, 1)));
        }}},
      {"array_bool_and_imp",
       {"Bb",
        [](C cc, Con c) {
          const auto n = static_cast<Int128>(cc.array(c, 0).size());
          cc.post(K::le, cc.sum(c, 0, -1), -n, c.loc, R::implied, cc.ref(cc.scalar(c, 1)));
        }}},
      {"array_bool_or",
       {"Bb",
        [](C cc, Con c) {
          const StoreRefTerm r = cc.ref(cc.scalar(c, 1));
          cc.post(K::le, cc.sum(c, 0, -1), -1, c.loc, R::equivalent, r);
        }}},
      {"array_bool_or_imp",
       {"Bb",
        [](C cc, Con c) {
          const StoreRefTerm r = cc.ref(cc.scalar(c, 1));
          cc.post(K::le, cc.sum(c, 0, -1), -1, c.loc, R::implied, r);
        }}},
      // Odd parity: sum - 2k = 1 with k in 0..n/2.
      {"array_bool_xor",
       {"B",
        [](C cc, Con c) {
          LinearExpr e = cc.sum(c, 0, 1);
          e.terms.push_back({cc.new_var(0, static_cast<std::int64_t>(cc.array(c, 0).size() / 2)), -2});
          cc.post(K::eq, e, 1, c.loc);
        }}},
      {"array_bool_xor_imp",
       {"Bb",
        [](C cc, Con c) {
          LinearExpr e = cc.sum(c, 0, 1);
          e.terms.push_back({cc.new_var(0, static_cast<std::int64_t>(cc.array(c, 0).size() / 2)), -2});
          cc.post(K::eq, e, 1, c.loc, R::implied, cc.ref(cc.scalar(c, 1)));
        }}},
      // Some as[i] true or some bs[j] false: -sum as + sum bs <= |bs| - 1.
      {"bool_clause",
       {"BB",
        [](C cc, Con c) {
          LinearExpr e = cc.sum(c, 0, -1);
          for (const Term& t : cc.array(c, 1)) cc.add(e, 1, t, c.loc);
          cc.post(K::le, e, static_cast<Int128>(cc.array(c, 1).size()) - 1, c.loc);
        }}},
      {"bool_clause_reif",
       {"BBb",
        [](C cc, Con c) {
          LinearExpr e = cc.sum(c, 0, -1);
          for (const Term& t : cc.array(c, 1)) cc.add(e, 1, t, c.loc);
          cc.post(K::le, e, static_cast<Int128>(cc.array(c, 1).size()) - 1, c.loc, R::equivalent,
                  cc.ref(cc.scalar(c, 2)));
        }}},
      {"bool_clause_imp",
       {"BBb",
        [](C cc, Con c) {
          LinearExpr e = cc.sum(c, 0, -1);
          for (const Term& t : cc.array(c, 1)) cc.add(e, 1, t, c.loc);
          cc.post(K::le, e, static_cast<Int128>(cc.array(c, 1).size()) - 1, c.loc, R::implied,
                  cc.ref(cc.scalar(c, 2)));
        }}},
      {"bool2int", {"bi", [](C cc, Con c) { cc.relation(c, 1, -1, K::eq, 0); }}},
      {"bool_lin_eq", {"IBi", [](C cc, Con c) { cc.linear(c, K::eq); }}},
      {"bool_lin_le", {"IBi", [](C cc, Con c) { cc.linear(c, K::le); }}},
  };
  return r;
}

void Compiler::compile_variables() {
  const auto& vars = model_.variables;
  const int n = static_cast<int>(vars.size());
  out_.model_vars.resize(vars.size());
  VariableClasses classes(n);
  for (int i = 0; i < n; ++i) {
    const auto& alias = vars[static_cast<std::size_t>(i)].alias;
    if (alias && alias->is_variable()) {
      if (alias->var < 0 || alias->var >= n)
        fail(vars[static_cast<std::size_t>(i)].loc, "alias of an unknown variable");
      classes.unite(i, alias->var);
    }
  }
  auto count_classes = [&] {
    int count = 0;
    for (int i = 0; i < n; ++i) count += classes.find(i) == i;
    return count;
  };
  Equalities equalities;
  if (options_.preprocess) {
    const int before = count_classes();
    equalities = merge_equalities(model_, classes);
    absorbed_ = std::move(equalities.absorbed);
    out_.preprocess.merged_variables = before - count_classes();
    out_.preprocess.absorbed_constraints = static_cast<int>(std::count(absorbed_.begin(), absorbed_.end(), char(1)));
  }

  // Each class's domain is the intersection of its members' (none: unbounded).
  std::vector<std::optional<IntSet>> domain(vars.size());
  std::vector<std::optional<std::int64_t>> fixed_to(vars.size());  // aliased to a constant
  auto meet = [&](int r, const IntSet& s) {
    auto& d = domain[static_cast<std::size_t>(r)];
    d = d ? intersect(*d, s) : s;
  };
  for (int i = 0; i < n; ++i) {
    const fzn::Variable& v = vars[static_cast<std::size_t>(i)];
    const int r = classes.find(i);
    if (v.domain) {
      if (v.domain->empty()) fail(v.loc, "variable '" + v.name + "' has an empty domain");
      meet(r, *v.domain);
    } else if (v.type == fzn::VarType::bool_) {
      meet(r, IntSet::range(0, 1));
    }
    if (v.alias && v.alias->is_constant()) {
      meet(r, IntSet::range(v.alias->value, v.alias->value));
      fixed_to[static_cast<std::size_t>(r)] = v.alias->value;
    }
  }
  for (const auto& [x, value] : equalities.fixings) meet(classes.find(x), IntSet::range(value, value));

  // One store variable per class, in the order of the model's variables.
  std::vector<int> store(vars.size(), -1);
  for (int i = 0; i < n; ++i) {
    const fzn::Variable& v = vars[static_cast<std::size_t>(i)];
    const auto r = static_cast<std::size_t>(classes.find(i));
    const std::optional<IntSet>& d = domain[r];
    if (fixed_to[r]) {
      if (d->empty()) unsatisfiable();
      out_.model_vars[static_cast<std::size_t>(i)] = {true, *fixed_to[r], -1};
      continue;
    }
    if (store[r] < 0) {
      if (d && d->empty()) {
        unsatisfiable();
        store[r] = program().add_var(0, 0);
      } else {
        std::int64_t lo = bound_min, hi = bound_max;
        if (d) {
          lo = d->min();
          hi = d->max();
          if (lo < bound_min || hi > bound_max)
            fail(v.loc, "domain of '" + v.name + "' exceeds the 32-bit store range [" + std::to_string(bound_min) +
                            ", " + std::to_string(bound_max) + "]");
        }
        const int x = program().add_var(static_cast<std::int32_t>(lo), static_cast<std::int32_t>(hi));
        store[r] = x;
        // Holes inside the hull (the store keeps bounds only).
        if (d) exclude_holes(x, d->ranges, "domain of '" + v.name + "'", v.loc);
      }
    }
    out_.model_vars[static_cast<std::size_t>(i)] = {false, 0, store[r]};
  }
}

void Compiler::compile_objective() {
  const fzn::SolveGoal& goal = model_.solve;
  if (goal.kind == fzn::SolveGoal::Kind::satisfy) return;
  out_.has_objective = true;
  out_.maximize = goal.kind == fzn::SolveGoal::Kind::maximize;
  if (!goal.objective) fail(goal.loc, "minimize/maximize without an objective");
  const StoreRefTerm r = ref(*goal.objective);
  if (r.is_constant) return;  // nothing to optimise: any solution is optimal
  if (!out_.maximize) {
    out_.objective = r.var;
    return;
  }
  // Maximisation is minimisation of the negation: y = -x.
  Program& p = out_.program;
  const int y = p.add_var(-p.ub[r.var], -p.lb[r.var]);
  p.add_row(LinearKind::eq, {1, 1}, {r.var, y}, 0);
  out_.objective = y;
}

Compiled Compiler::run() {
  compile_variables();
  const auto& reg = registry();
  for (std::size_t i = 0; i < model_.constraints.size(); ++i) {
    if (!absorbed_.empty() && absorbed_[i]) continue;
    const Constraint& c = model_.constraints[i];
    const auto it = reg.find(c.name);
    if (it == reg.end()) fail(c.loc, "unsupported builtin '" + c.name + "'");
    validate(c, it->second.signature);
    it->second.compile(*this, c);
  }
  compile_objective();
  PreprocessStats& st = out_.preprocess;
  st.compiled = ProgramSize::of(out_.program);
  st.before = st.compiled;
  st.before.variables += st.merged_variables;
  st.before.rows += st.absorbed_constraints;
  if (options_.preprocess) {
    preprocess(out_, options_.deadline);
  } else {
    st.after = st.compiled;
  }
  if (options_.ternary_rows) out_.ternarized = ternarize_rows(out_.program);
  return std::move(out_);
}

}  // namespace

Compiled compile(const fzn::Model& model, const CompileOptions& options) { return Compiler(model, options).run(); }

std::vector<std::int64_t> model_values(const Compiled& compiled, const std::vector<std::int32_t>& store) {
  std::vector<std::int64_t> values(compiled.model_vars.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const StoreRefTerm& r = compiled.model_vars[i];
    values[i] = r.is_constant ? r.value : store.at(static_cast<std::size_t>(r.var));
  }
  return values;
}

std::vector<std::string> supported_builtins() {
  std::vector<std::string> names;
  for (const auto& [name, entry] : registry()) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace kcp
