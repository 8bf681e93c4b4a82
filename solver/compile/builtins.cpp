// How each builtin is lowered: the Compiler's methods for arguments' checks, powers, extrema, element,
// set membership and the global families (solver/compile/compiler.hpp).
#include "solver/compile/compiler.hpp"

namespace kcp::compile_impl {

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
      fail(c.loc, c.name + ": argument " + std::to_string(i + 1) + " should be " +
                      fzn::describe_signature_letter(letter) + " but is " + fzn::describe(a.kind));
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
  program().add_global<Element>({index.var, result.var}, stored);
}

/// array_var_int_element / array_var_bool_element: result = xs[index] over an array of variables. Native
/// by default (the global family var_element); with `--no-global var_element` decomposed soundly:
/// e_i <-> (index = i) and e_i -> (result = xs[i]) for each position the index can take, sum e_i = 1,
/// and the result within the hull of the candidates (a Boolean and two rows per position).
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
  const int max_arity = options_.all_different_max_arity;
  if (options_.native_global[global_family<AllDifferent>] && (max_arity <= 0 || int(xs.size()) <= max_arity)) {
    program().add_global<AllDifferent>(xs);
    return;
  }
  // The decomposition (--no-global all_different, or beyond all_different_max_arity): x_i != x_j.
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
    program().add_global<Element>({index, vars[i]}, column);
  }
}

}  // namespace kcp::compile_impl
