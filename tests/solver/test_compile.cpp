// compile, checked against the independent checker: for every registry entry, tiny models whose
// compiled Program, evaluated by brute force over its store (with a host reference evaluator of the
// three families written here, independent of domains/), has exactly the solutions the checker
// accepts, projected onto the model's variables; with and without preprocessing. Plus: the registry
// covers every builtin the checker knows, preprocessing keeps the solutions of random models, and bad
// calls are CompileErrors that name their location.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "domains/globals.hpp"
#include "solver/compile.hpp"
#include "solver/fzn/checker.hpp"
#include "solver/fzn/parser.hpp"
#include "solver/int128.hpp"
#include "tests/kernels.hpp"

namespace kcp {
namespace {

using Tuple = std::vector<std::int64_t>;
using Solutions = std::set<Tuple>;

// --- the reference evaluator: what each family means, on a full assignment -----------------------

bool row_holds(const Program& p, int r, const std::vector<std::int64_t>& v) {
  const auto ri = static_cast<std::size_t>(r);
  Int128 sum = 0;
  for (auto i = static_cast<std::size_t>(p.row_begin[ri]); i < static_cast<std::size_t>(p.row_begin[ri + 1]); ++i)
    sum += Int128(p.coef[i]) * v[static_cast<std::size_t>(p.var[i])];
  const Int128 c = p.rhs[ri];
  bool holds = false;
  switch (static_cast<LinearKind>(p.kind[ri])) {
    case LinearKind::le:
      holds = sum <= c;
      break;
    case LinearKind::eq:
      holds = sum == c;
      break;
    case LinearKind::ne:
      holds = sum != c;
      break;
  }
  const auto mode = static_cast<Reification>(p.reif_mode[ri]);
  if (mode == Reification::none) return holds;
  const std::int64_t b = v[static_cast<std::size_t>(p.reif_var[ri])];
  if (b != 0 && b != 1) return false;
  return mode == Reification::equivalent ? (b == 1) == holds : (b == 0 || holds);
}

bool ternary_holds(const Ternary& t, const std::vector<std::int64_t>& v) {
  const Int128 x = v[static_cast<std::size_t>(t.x)], y = v[static_cast<std::size_t>(t.y)],
               z = v[static_cast<std::size_t>(t.z)];
  switch (t.op) {
    case TernaryOp::add:
      return x == y + z;
    case TernaryOp::mul:
      return x == y * z;
    case TernaryOp::tdiv:
      return z != 0 && x == y / z;
    case TernaryOp::tmod:
      return z != 0 && x == y % z;
    case TernaryOp::min:
      return x == std::min(y, z);
    case TernaryOp::max:
      return x == std::max(y, z);
    case TernaryOp::eq_reif:
      return (x == 0 || x == 1) && (x == 1) == (y == z);
    case TernaryOp::le_reif:
      return (x == 0 || x == 1) && (x == 1) == (y <= z);
    case TernaryOp::abs:
      return x == (y < 0 ? -y : y);
    case TernaryOp::pow: {
      if (z < 0) return false;
      Int128 r = 1;
      for (Int128 i = 0; i < z; ++i) {
        r *= y;
        if (r > (Int128(1) << 80) || r < -(Int128(1) << 80)) return false;  // no store value is that big
      }
      return x == r;
    }
  }
  return false;
}

/// Constraint c of listed family f (domains/globals.hpp) by definition.
bool global_holds(const Program& p, int f, int c, const std::vector<std::int64_t>& v) {
  const FamilyTable& g = p.global[static_cast<std::size_t>(f)];
  const auto ci = static_cast<std::size_t>(c);
  std::vector<std::int64_t> xs, ps(g.pars.begin() + g.par_begin[ci], g.pars.begin() + g.par_begin[ci + 1]);
  for (int k = g.var_begin[ci]; k < g.var_begin[ci + 1]; ++k) xs.push_back(v[static_cast<std::size_t>(g.vars[static_cast<std::size_t>(k)])]);
  const std::size_t n = xs.size();
  if (f == global_family<Element>) return xs[0] >= 1 && xs[0] <= std::int64_t(ps.size()) && xs[1] == ps[std::size_t(xs[0] - 1)];
  if (f == global_family<AllDifferent>) return std::set<std::int64_t>(xs.begin(), xs.end()).size() == n;
  if (f == global_family<Table>) {
    for (std::size_t r = 0; r + n <= ps.size(); r += n)
      if (std::equal(xs.begin(), xs.end(), ps.begin() + std::ptrdiff_t(r))) return true;
    return n == 0;
  }
  if (f == global_family<VarElement>) return xs[0] >= 1 && xs[0] <= std::int64_t(n) - 2 && xs[1] == xs[static_cast<std::size_t>(1 + xs[0])];
  if (f == global_family<Cumulative>) {
    for (std::size_t k = 0; k < n; ++k) {
      std::int64_t used = 0;
      for (std::size_t i = 0; i < n; ++i)
        if (xs[i] <= xs[k] && xs[k] < xs[i] + ps[1 + i]) used += ps[1 + n + i];
      if (used > ps[0]) return false;
    }
    return true;
  }
  ADD_FAILURE() << "global family " << f << " has no reference evaluator here";
  return false;
}

/// The solutions of a compiled program projected onto the model's variables, by depth-first
/// enumeration of the store: the model's store variables first (every assignment of them), then the
/// auxiliary ones (the first completion is enough). A propagator is evaluated as soon as its last
/// variable is assigned.
class Enumerator {
 public:
  explicit Enumerator(const Compiled& c) : c_(c), p_(c.program) {
    const int n = p_.num_vars();
    std::vector<int> pos(static_cast<std::size_t>(n), -1);
    for (const StoreRefTerm& m : c_.model_vars) {
      if (m.is_constant || pos[static_cast<std::size_t>(m.var)] >= 0) continue;
      pos[static_cast<std::size_t>(m.var)] = static_cast<int>(order_.size());
      order_.push_back(m.var);
    }
    model_prefix_ = static_cast<int>(order_.size());
    for (int x = 0; x < n; ++x) {
      if (pos[static_cast<std::size_t>(x)] >= 0) continue;
      pos[static_cast<std::size_t>(x)] = static_cast<int>(order_.size());
      order_.push_back(x);
    }
    checks_.resize(order_.size() + 1);
    auto at = [&](std::initializer_list<int> vars, int id) {
      int depth = -1;
      for (int x : vars) depth = std::max(depth, pos[static_cast<std::size_t>(x)]);
      checks_[static_cast<std::size_t>(depth + 1)].push_back(id);
    };
    for (int r = 0; r < p_.num_rows(); ++r) {
      int depth = -1;
      for (int i = p_.row_begin[static_cast<std::size_t>(r)]; i < p_.row_begin[static_cast<std::size_t>(r) + 1]; ++i)
        depth = std::max(depth, pos[static_cast<std::size_t>(p_.var[static_cast<std::size_t>(i)])]);
      if (p_.reif_var[static_cast<std::size_t>(r)] >= 0)
        depth = std::max(depth, pos[static_cast<std::size_t>(p_.reif_var[static_cast<std::size_t>(r)])]);
      checks_[static_cast<std::size_t>(depth + 1)].push_back(r);
    }
    for (int t = 0; t < p_.num_ternary(); ++t) {
      const Ternary& tt = p_.ternary[static_cast<std::size_t>(t)];
      at({tt.x, tt.y, tt.z}, p_.num_rows() + t);
    }
    int id = p_.num_rows() + p_.num_ternary();
    for (const FamilyTable& g : p_.global)
      for (int c = 0; c < g.size(); ++c, ++id) {
        int depth = -1;
        for (int k = g.var_begin[static_cast<std::size_t>(c)]; k < g.var_begin[static_cast<std::size_t>(c) + 1]; ++k)
          depth = std::max(depth, pos[static_cast<std::size_t>(g.vars[static_cast<std::size_t>(k)])]);
        checks_[static_cast<std::size_t>(depth + 1)].push_back(id);
      }
    value_.assign(static_cast<std::size_t>(n), 0);
    // The values of each root domain: its bitset's where it has one (holes), else its bounds'.
    Program copy = p_;
    for (int x = 0; x < n; ++x) domain_.push_back(copy.values(x));
  }

  /// False when the enumeration was cut off (too large to brute-force).
  bool run(Solutions& out) {
    out_ = &out;
    if (!holds_at(0)) return true;
    search(0);
    return nodes_ <= max_nodes;
  }

 private:
  static constexpr std::int64_t max_nodes = 20'000'000;

  bool holds(int id) const {
    if (id < p_.num_rows()) return row_holds(p_, id, value_);
    id -= p_.num_rows();
    if (id < p_.num_ternary()) return ternary_holds(p_.ternary[static_cast<std::size_t>(id)], value_);
    id -= p_.num_ternary();
    for (int f = 0; f < num_global_families; ++f) {
      const int size = p_.global[static_cast<std::size_t>(f)].size();
      if (id < size) return global_holds(p_, f, id, value_);
      id -= size;
    }
    return false;
  }
  bool holds_at(std::size_t level) const {
    for (int id : checks_[level])
      if (!holds(id)) return false;
    return true;
  }

  /// Whether some completion of the assignment so far is a solution.
  bool search(std::size_t depth) {
    if (++nodes_ > max_nodes) return true;
    if (depth == order_.size()) {
      std::vector<std::int32_t> store(value_.begin(), value_.end());
      out_->insert(model_values(c_, store));
      return true;
    }
    const int x = order_[depth];
    bool found = false;
    for (const std::int64_t v : domain_[static_cast<std::size_t>(x)]) {
      value_[static_cast<std::size_t>(x)] = v;
      if (!holds_at(depth + 1)) continue;
      if (search(depth + 1)) {
        found = true;
        if (static_cast<int>(depth) >= model_prefix_) break;  // one completion of the model's part is enough
      }
    }
    return found;
  }

  const Compiled& c_;
  const Program& p_;
  std::vector<int> order_;
  int model_prefix_ = 0;
  std::vector<std::vector<int>> checks_;  ///< per depth + 1: the propagators whose last variable it assigns
  std::vector<std::int64_t> value_;
  std::vector<std::vector<std::int64_t>> domain_;
  Solutions* out_ = nullptr;
  std::int64_t nodes_ = 0;
};

::testing::AssertionResult program_solutions(const Compiled& c, Solutions& out) {
  const Program& p = c.program;
  for (int x = 0; x < p.num_vars(); ++x)
    if (p.lb[static_cast<std::size_t>(x)] > p.ub[static_cast<std::size_t>(x)])
      return ::testing::AssertionFailure() << "store variable " << x << " has an empty root domain";
  if (!Enumerator(c).run(out)) return ::testing::AssertionFailure() << "too many store assignments to enumerate";
  return ::testing::AssertionSuccess();
}

/// The values to try for a model variable: its domain; an alias without one takes its target's.
fzn::IntSet enumeration_domain(const fzn::Model& m, const fzn::Variable& v) {
  if (v.domain) return *v.domain;
  if (v.alias && v.alias->is_constant()) return fzn::IntSet::range(v.alias->value, v.alias->value);
  if (v.alias) return enumeration_domain(m, m.variables[static_cast<std::size_t>(v.alias->var)]);
  EXPECT_EQ(v.type, fzn::VarType::bool_) << v.name << " is unbounded: no brute force over it";
  return fzn::IntSet::range(0, 1);
}

/// Every assignment of the model's variables over their declared domains that the checker accepts.
Solutions checker_solutions(const fzn::Model& m) {
  Solutions out;
  Tuple values(m.variables.size());
  std::vector<std::vector<std::int64_t>> domains;
  for (const fzn::Variable& v : m.variables) {
    std::vector<std::int64_t> d;
    const fzn::IntSet s = enumeration_domain(m, v);
    for (const auto& [lo, hi] : s.ranges)
      for (std::int64_t x = lo; x <= hi; ++x) d.push_back(x);
    domains.push_back(std::move(d));
  }
  auto rec = [&](auto&& self, std::size_t i) -> void {
    if (i == values.size()) {
      if (fzn::check_solution(m, values).ok) out.insert(values);
      return;
    }
    for (std::int64_t x : domains[i]) {
      values[i] = x;
      self(self, i + 1);
    }
  };
  rec(rec, 0);
  return out;
}

std::string show(const Solutions& s, std::size_t limit = 12) {
  std::ostringstream o;
  std::size_t k = 0;
  for (const Tuple& t : s) {
    if (k++ == limit) {
      o << " ...";
      break;
    }
    o << " (";
    for (std::size_t i = 0; i < t.size(); ++i) o << (i ? "," : "") << t[i];
    o << ")";
  }
  return o.str();
}

/// Names of the header's variables, for messages.
std::string names(const fzn::Model& m) {
  std::string out;
  for (const fzn::Variable& v : m.variables) out += (out.empty() ? "" : ",") + v.name;
  return out;
}

::testing::AssertionResult same_solutions(const std::string& text, int* solutions = nullptr, int* space = nullptr) {
  const fzn::Model m = fzn::parse_string(text, "t.fzn");
  const Solutions expected = checker_solutions(m);
  // Without preprocessing, with it, with it and the rows in ternary form, and with every global
  // family lowered to its decomposition (--no-global).
  for (const int variant : {0, 1, 2, 3}) {
    const bool pre = variant > 0;
    CompileOptions options;
    options.preprocess = pre;
    options.ternary_rows = variant == 2;
    if (variant == 3) options.native_global.fill(false);
    const Compiled c = compile(m, options);
    Solutions got;
    if (auto r = program_solutions(c, got); !r) return r << "\n" << text;
    if (got != expected) {
      Solutions missing, extra;
      std::set_difference(expected.begin(), expected.end(), got.begin(), got.end(),
                          std::inserter(missing, missing.begin()));
      std::set_difference(got.begin(), got.end(), expected.begin(), expected.end(),
                          std::inserter(extra, extra.begin()));
      return ::testing::AssertionFailure()
             << "preprocess=" << pre << " ternary_rows=" << options.ternary_rows
             << " decomposed=" << (variant == 3) << ": the compiled program " << (missing.empty() ? "" : "misses") << show(missing)
             << (extra.empty() ? "" : " and wrongly accepts") << show(extra) << " over (" << names(m) << ")\n"
             << text;
    }
    if (expected.empty() && pre && !c.root_failed) {
      // Not required (root propagation is not complete), but the tiny models here are all decided.
    }
  }
  if (solutions) *solutions = static_cast<int>(expected.size());
  if (space) {
    std::int64_t n = 1;
    for (const fzn::Variable& v : m.variables) {
      std::int64_t size = 0;
      for (const auto& [lo, hi] : enumeration_domain(m, v).ranges) size += hi - lo + 1;
      n *= size;
    }
    *space = static_cast<int>(n);
  }
  return ::testing::AssertionSuccess();
}

// --- the cases: for every builtin, calls over a fixed set of small variables -----------------------

const char* const header =
    "var -2..2: x;\nvar -2..2: y;\nvar -3..3: z;\nvar bool: a;\nvar bool: b;\nvar bool: r;\nvar 0..4: i;\n";

std::vector<std::string> comparisons_int(bool reified) {
  std::vector<std::string> plain = {"x, y", "x, 1", "-1, y", "x, x", "z, y", "1, 2", "2, 2"};
  if (!reified) return plain;
  std::vector<std::string> out;
  for (const auto& args : plain) out.push_back(args + ", r");
  for (const auto& args : {"x, y, true", "x, y, false", "x, 1, false", "z, x, true"}) out.push_back(args);
  return out;
}

std::vector<std::string> comparisons_bool(bool reified) {
  std::vector<std::string> plain = {"a, b", "a, true", "false, b", "a, a", "true, false", "r, a"};
  if (!reified) return plain;
  std::vector<std::string> out;
  for (const auto& args : plain) out.push_back(args + ", r");
  for (const auto& args : {"a, b, true", "a, b, false", "a, false, true"}) out.push_back(args);
  return out;
}

std::vector<std::string> linear_int(bool reified) {
  std::vector<std::string> plain = {"[1, -2], [x, y], 1", "[2, 1, -1], [x, y, z], 0", "[1, 1], [x, 3], 2",
                                    "[1, -1], [x, y], 0", "[-1, 1], [x, z], 0",       "[3], [x], 3",
                                    "[1, 1], [x, x], 2",  "[1, -1], [x, x], 0",       "[], [], 0",
                                    "[1, 1], [x, y], z",  "[2, -1], [x, 1], 1"};
  if (!reified) return plain;
  std::vector<std::string> out;
  for (const auto& args : plain) out.push_back(args + ", r");
  for (const auto& args : {"[1, -2], [x, y], 1, true", "[1, -2], [x, y], 1, false", "[1, 1], [x, y], 0, false"})
    out.push_back(args);
  return out;
}

std::vector<std::string> arithmetic() {
  return {"x, y, z", "x, 1, z", "x, y, 1", "2, -1, z", "x, x, z", "x, y, x", "2, 2, z", "x, -2, y"};
}

std::map<std::string, std::vector<std::string>> cases() {
  std::map<std::string, std::vector<std::string>> c;
  for (const std::string rel : {"eq", "ne", "le", "lt"}) {
    c["int_" + rel] = comparisons_int(false);
    c["int_" + rel + "_reif"] = comparisons_int(true);
    c["int_" + rel + "_imp"] = comparisons_int(true);
    c["bool_" + rel] = comparisons_bool(false);
    c["bool_" + rel + "_reif"] = comparisons_bool(true);
    c["bool_" + rel + "_imp"] = comparisons_bool(true);
  }
  for (const std::string rel : {"eq", "ne", "le"}) {
    c["int_lin_" + rel] = linear_int(false);
    c["int_lin_" + rel + "_reif"] = linear_int(true);
    c["int_lin_" + rel + "_imp"] = linear_int(true);
  }
  for (const std::string rel : {"eq", "le"})
    c["bool_lin_" + rel] = {"[1, 2, -1], [a, b, r], 1", "[1, 1], [a, true], 1", "[2, 2], [a, a], 2",
                            "[1, -1], [a, b], 0",       "[1], [a], 0",          "[1, 1], [a, b], x"};
  for (const std::string op : {"plus", "minus", "times", "div", "mod", "min", "max"}) c["int_" + op] = arithmetic();
  c["int_div"].push_back("x, 0, z");
  c["int_mod"].push_back("z, 0, x");
  c["int_abs"] = {"x, z", "-2, z", "x, 1", "z, z", "x, -1"};
  // int_pow: exponents of both signs, only negative (n), and constants; 0 and +-1 bases.
  c["int_pow"] = {
      "x, y, z", "x, 2, z", "x, -1, z", "x, -2, z", "2, y, z", "0, y, z",  "-1, y, z",  "x, y, 1",
      "x, n, z", "x, n, 0", "x, 0, z",  "z, y, x",  "x, x, z", "x, -3, z", "-1, -3, z", "x, -9223372036854775807, z"};
  c["int_pow_fixed"] = {"x, 2, z", "x, -1, z", "x, 0, z", "x, 3, z", "0, -1, z"};
  c["array_int_element"] = {
      "i, [3, -1, 2], z",      "i, [3, -1, 2], 2", "2, [3, -1, 2], z", "i, [1, 1, 5000000000], z", "x, [0, 1], z",
      "i, [2, 2, 2, 2, 2], z", "7, [1, 2], z",     "i, [], z",         "i, [-3, 3, 0, 1], x"};
  c["array_var_int_element"] = {"i, [x, y, z], z", "i, [x, 1, y], x", "2, [x, y, z], z", "i, [x, y, z], 1",
                                "x, [y, z], i",    "i, [1, 2, 3], z", "0, [x, y], z",    "i, [x, x, x, x], y"};
  c["array_bool_element"] = {"i, [true, false, true], a", "i, [false, true, false], true", "2, [false, true], a",
                             "x, [true, false], false"};
  c["array_var_bool_element"] = {"i, [a, b, r], b", "i, [a, true, b], r", "i, [a, b], false", "3, [a, b, r], a"};
  for (const std::string ext : {"minimum", "maximum"})
    c["array_int_" + ext] = {"z, [x, y]",           "z, [x, y, 1]", "x, [y]", "z, [1, -2]", "z, [x, 5000000000]",
                             "z, [x, -5000000000]", "z, [x, y, z]", "z, []",  "1, [x, y]"};
  c["set_in"] = {"x, {-1, 1}", "x, -1..1", "x, {-2, 0, 2}", "x, {5}", "1, {1, 2}", "z, {-3, -1, 0, 3, 9}"};
  for (const std::string suffix : {"_reif", "_imp"})
    c["set_in" + suffix] = {
        "x, {-1, 1}, r",     "x, -1..1, r",  "x, {-2, 0, 1}, r",     "x, 0..9, r",  "x, {7}, r", "x, {-1, 1}, true",
        "x, {-1, 1}, false", "2, {1, 2}, r", "z, {-3, -1, 0, 3}, r", "x, -2..2, r", "x, {}, r"};
  c["bool_not"] = {"a, b", "a, a", "a, true", "false, b"};
  for (const std::string op : {"and", "or", "xor"}) {
    c["bool_" + op] = {"a, b, r", "a, true, r", "a, a, r", "a, b, false", "a, b, true", "false, b, r"};
    c["bool_" + op + "_imp"] = c["bool_" + op];
  }
  for (const auto& args : {"a, b", "a, a", "a, true"}) c["bool_xor"].push_back(args);
  for (const std::string op : {"and", "or"}) {
    c["array_bool_" + op] = {"[a, b], r", "[a, b, true], r", "[], r", "[a, a], r", "[a, b], false", "[a, false], r"};
    c["array_bool_" + op + "_imp"] = c["array_bool_" + op];
  }
  c["array_bool_xor"] = {"[a, b, r]", "[a, true]", "[a, a]", "[]", "[true, true, a]"};
  c["array_bool_xor_imp"] = {"[a, b], r", "[a, a], r", "[], r", "[a, b, true], false", "[true], r"};
  c["bool_clause"] = {"[a, b], [r]", "[a], []", "[], [a, b]", "[a], [a]", "[false], [true]", "[], []"};
  for (const std::string suffix : {"_reif", "_imp"})
    c["bool_clause" + suffix] = {"[a], [b], r", "[a, b], [], r",  "[], [a], r",     "[a], [a], r",
                                 "[], [], r",   "[a], [b], true", "[a], [b], false"};
  c["bool2int"] = {"a, x", "a, i", "true, x", "a, 1", "a, 2", "false, 0"};
  c["kcp_table_int"] = {"[x, y], [1, 2, -1, 0, 2, 2]", "[x, y, z], [0, 0, 0, 1, -1, 3]", "[x], []",
                        "[x, x], [1, 1, 2, 0]",         "[x, 1], [1, 1, 0, 1, 2, 2]",     "[x, y], [5, 5, 9, 1]"};
  c["kcp_table_bool"] = {"[a, b], [true, false, false, true]", "[a, b, r], [true, true, true]", "[a], []",
                         "[a, true], [false, true, true, false]"};
  c["kcp_all_different_int"] = {"[x, y, z]", "[x, y, 1]", "[x, x]", "[x, 2, 2]", "[]", "[i, x, y, z]", "[x, z]"};
  // starts, durations, uses, capacity: overlaps, zero durations and uses, a use above the capacity.
  c["kcp_cumulative"] = {"[x, y, z], [2, 1, 3], [1, 1, 1], 1", "[x, y], [2, 2], [1, 2], 2", "[x, y, z], [1, 2, 1], [2, 1, 1], 2",
                         "[x, x], [1, 1], [1, 1], 1",  "[x, y], [0, 3], [5, 0], 1",  "[x, y], [1, 1], [2, 1], 1",
                         "[], [], [], 0",               "[x, 1, y], [2, 3, 1], [1, 1, 1], 1",
                         "[x], [2], [0], -1",           "[], [], [], -1"};
  return c;
}

std::string model_text(const std::string& name, const std::string& args) {
  std::string extra = args.find('n') != std::string::npos && name == "int_pow" ? "var -2..-1: n;\n" : "";
  return std::string(header) + extra + "constraint " + name + "(" + args + ");\nsolve satisfy;\n";
}

TEST(Compile, RegistryCoversEveryCheckedBuiltin) {
  const std::vector<std::string> supported = supported_builtins();
  std::vector<std::string> missing;
  for (const std::string& name : fzn::checked_builtins())
    if (!std::binary_search(supported.begin(), supported.end(), name)) missing.push_back(name);
  std::string list;
  for (const auto& m : missing) list += " " + m;
  EXPECT_TRUE(missing.empty()) << "builtins the checker knows but compile does not:" << list;
}

TEST(Compile, EveryEntryHasCases) {
  const auto c = cases();
  for (const std::string& name : supported_builtins()) EXPECT_TRUE(c.count(name)) << "no cases for " << name;
}

/// One parameterised test per builtin: ctest shows each on its own.
class CompileBuiltin : public ::testing::TestWithParam<std::string> {};

TEST_P(CompileBuiltin, CompiledSolutionsEqualCheckerSolutions) {
  const std::string& name = GetParam();
  const auto all = cases();
  const auto it = all.find(name);
  ASSERT_NE(it, all.end());
  bool some_with = false, some_without = false;
  for (const std::string& args : it->second) {
    int solutions = 0, space = 0;
    EXPECT_TRUE(same_solutions(model_text(name, args), &solutions, &space)) << name << "(" << args << ")";
    some_with = some_with || solutions > 0;
    some_without = some_without || solutions < space;
  }
  // The cases mean something: some assignments satisfy the builtin, some do not.
  EXPECT_TRUE(some_with) << name << ": no case has a solution";
  EXPECT_TRUE(some_without) << name << ": every case accepts everything";
}

INSTANTIATE_TEST_SUITE_P(, CompileBuiltin, ::testing::ValuesIn(supported_builtins()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

TEST(Compile, DomainsWithHolesAndAliases) {
  EXPECT_TRUE(
      same_solutions("var {-2, 0, 2}: h;\nvar -1..3: y;\nvar int: w = y;\nvar 1..5: v = 3;\nvar {0, 3}: u = w;\n"
                     "constraint int_le(h, y);\nsolve satisfy;\n"));
  // The alias's declared domain is outside the constant: no solution.
  EXPECT_TRUE(same_solutions("var 1..2: v = 3;\nvar 0..1: x;\nsolve satisfy;\n"));
  // Gaps of three values and more take a Boolean and two rows (exclude_holes), in domains and sets.
  EXPECT_TRUE(same_solutions("var {1, 5, 6, 12}: h;\nvar -3..14: y;\nconstraint int_le(h, y);\n"
                             "constraint set_in(y, {-3, 0, 1, 2, 9, 14});\nsolve satisfy;\n"));
}

/// A bound entering a wide gap of a domain leaves it in one step of the gap's rows, not one value per
/// fixpoint iteration: x in {1, 14, 15, 24} with x >= 2 is x >= 14 after at most three iterations.
/// The gap encoding serves domains wider than the bitset span (here forced with bitset_span 0).
TEST(Compile, WideDomainGapsAreCrossedInAFewIterations) {
  CompileOptions o;
  o.bitset_span = 0;
  const Compiled c = compile(fzn::parse_string("var {1, 14, 15, 24}: x;\nsolve satisfy;\n", "t.fzn"), o);
  Program p = c.program;
  const auto x = static_cast<std::size_t>(c.model_vars[0].var);
  EXPECT_FALSE(p.has_bits(static_cast<int>(x)));
  EXPECT_LE(p.num_rows(), 4);  // two gaps, two rows each (was 20 x != v rows)
  p.lb[x] = 2;
  const test::FixpointOutcome out = test::serial_fixpoint_on(p);
  ASSERT_FALSE(out.failed);
  EXPECT_EQ(out.lb[x], 14);
  EXPECT_EQ(out.ub[x], 24);
  EXPECT_LE(out.iterations, 3);
  p.lb[x] = 16;
  const test::FixpointOutcome top = test::serial_fixpoint_on(p);
  ASSERT_FALSE(top.failed);
  EXPECT_EQ(top.lb[x], 24);
}

/// A domain within the bitset span keeps its holes in its bitset: no row, and a bound moved into a
/// hole lands on the next value at once.
TEST(Compile, SmallDomainHolesGoToTheBitset) {
  const Compiled c = compile(fzn::parse_string("var {1, 14, 15, 24}: x;\nsolve satisfy;\n", "t.fzn"));
  Program p = c.program;
  const int x = c.model_vars[0].var;
  ASSERT_TRUE(p.has_bits(x));
  EXPECT_EQ(p.num_rows(), 0);
  EXPECT_EQ(p.values(x), (std::vector<std::int64_t>{1, 14, 15, 24}));
  EXPECT_EQ(p.store().narrow_min(x, 2), prop_changed);
  EXPECT_EQ(p.lb[static_cast<std::size_t>(x)], 14);
  EXPECT_EQ(p.store().remove(x, 24), prop_changed);
  EXPECT_EQ(p.ub[static_cast<std::size_t>(x)], 15);
  EXPECT_EQ(p.store().remove(x, 14) | p.store().remove(x, 15), prop_changed | prop_failed);
}

// A set over the bounds' hull whose gaps take x's last values: x in {3, 7} with x in {2, 6, 8} (an
// element over a constant array with a constant result). The hull narrows x to 6; the gap 4..6
// empties it, and the compiler must say so (it once ignored the failed removal and printed x = 7).
TEST(Compile, AGapTakingTheLastValueLeftIsUnsatisfiable) {
  const Compiled c = compile(fzn::parse_string(
      "var {2, 6, 8}: x;\nconstraint array_int_element(x, [-57, -57, 59, 60, -57, -56, 59, -57], 59);\n"
      "solve satisfy;\n",
      "t.fzn"));
  EXPECT_TRUE(c.root_failed);
  const Compiled d = compile(fzn::parse_string(
      "var {2, 6, 7}: x;\nconstraint set_in(x, {3, 7});\nsolve satisfy;\n", "t.fzn"));
  ASSERT_FALSE(d.root_failed);
  const StoreRefTerm x = d.model_vars[0];
  if (x.is_constant) {
    EXPECT_EQ(x.value, 7);
  } else {
    Program p = d.program;
    EXPECT_EQ(p.values(x.var), (std::vector<std::int64_t>{7}));
  }
}

TEST(Compile, EqualityMergingKeepsModelVariablesOnTheRepresentative) {
  const fzn::Model m = fzn::parse_string(
      "var 0..5: x;\nvar 2..9: y;\nvar bool: b;\nvar 0..3: k;\n"
      "constraint int_eq(x, y);\nconstraint bool2int(b, k);\nconstraint int_lin_eq([2, -2], [y, k], 0);\n"
      "solve satisfy;\n",
      "t.fzn");
  const Compiled c = compile(m);
  // x = y = k = b, so all four are one value in 0..1 intersect 2..9 ... which is empty.
  EXPECT_TRUE(c.root_failed);
  EXPECT_EQ(c.preprocess.merged_variables, 3);
  EXPECT_EQ(c.preprocess.absorbed_constraints, 3);

  const Compiled d = compile(fzn::parse_string(
      "var 0..5: x;\nvar 2..9: y;\nvar 1..3: k;\nconstraint int_eq(x, y);\nconstraint int_lin_le([1, 1], [y, k], 7);\n"
      "solve satisfy;\n",
      "t.fzn"));
  ASSERT_FALSE(d.root_failed);
  EXPECT_EQ(d.model_vars[0].var, d.model_vars[1].var);
  EXPECT_EQ(d.program.lb[static_cast<std::size_t>(d.model_vars[0].var)], 2);
  EXPECT_EQ(d.program.ub[static_cast<std::size_t>(d.model_vars[0].var)], 5);
  EXPECT_EQ(d.preprocess.before.variables, 3);
  EXPECT_EQ(d.preprocess.before.rows, 2);
  EXPECT_EQ(d.preprocess.after.variables, 2);
}

TEST(Compile, RootPropagationFixesAndRemovesEntailedPropagators) {
  const fzn::Model m = fzn::parse_string(
      "var 0..9: x;\nvar 0..9: y;\nvar 0..20: s;\nvar bool: b;\n"
      "constraint int_le(x, 3);\nconstraint int_le(3, x);\nconstraint int_plus(x, y, s);\n"
      "constraint int_le_reif(x, 5, b);\nconstraint int_lin_le([1, 1], [x, y], 100);\nsolve satisfy;\n",
      "t.fzn");
  const Compiled off = compile(m, {false});
  const Compiled on = compile(m);
  ASSERT_FALSE(on.root_failed);
  EXPECT_TRUE(on.model_vars[0].is_constant);
  EXPECT_EQ(on.model_vars[0].value, 3);
  EXPECT_TRUE(on.model_vars[3].is_constant);  // b <-> 3 <= 5
  EXPECT_EQ(on.model_vars[3].value, 1);
  EXPECT_EQ(on.program.num_rows(), 0);     // x fixed, b decided, the sum row entailed
  EXPECT_EQ(on.program.num_ternary(), 1);  // s = 3 + y
  EXPECT_LT(on.preprocess.after.variables, off.program.num_vars());
  EXPECT_EQ(on.preprocess.compiled.rows, off.program.num_rows());
}

TEST(Compile, AllDifferentBeyondItsNativeArityBecomesNotEqualRows) {
  // kcp_all_different_int over n variables: native up to all_different_max_arity, n(n-1)/2 != rows beyond.
  const auto model = [](int n) {
    std::ostringstream out;
    out << "predicate kcp_all_different_int(array [int] of var int: x);\n";
    for (int i = 0; i < n; ++i) out << "var 1.." << n << ": x" << i << ";\n";
    out << "constraint kcp_all_different_int([";
    for (int i = 0; i < n; ++i) out << (i ? ", " : "") << "x" << i;
    out << "]);\nsolve satisfy;\n";
    return fzn::parse_string(out.str(), "t.fzn");
  };
  CompileOptions options{false};
  options.all_different_max_arity = 5;
  const Compiled five = compile(model(5), options), six = compile(model(6), options);
  EXPECT_EQ(five.program.global[std::size_t(global_family<AllDifferent>)].size(), 1);
  EXPECT_EQ(five.program.num_rows(), 0);
  EXPECT_EQ(six.program.global[std::size_t(global_family<AllDifferent>)].size(), 0);
  EXPECT_EQ(six.program.num_rows(), 15);
  options.all_different_max_arity = 0;  // no limit
  EXPECT_EQ(compile(model(6), options).program.global[std::size_t(global_family<AllDifferent>)].size(), 1);
}

TEST(Compile, UnsatisfiableAtTheRootIsAResultNotAnError) {
  const Compiled c =
      compile(fzn::parse_string("var 0..3: x;\nconstraint int_lin_le([1], [x], -1);\nsolve satisfy;\n", "t.fzn"));
  EXPECT_TRUE(c.root_failed);
  Solutions s;
  ASSERT_TRUE(program_solutions(c, s));
  EXPECT_TRUE(s.empty());
}

// x < y and y < x over 0..10^9: the root fixpoint narrows by one value a run, 10^9 runs to the failure.
// A deadline already passed stops it after a few thousand, with a valid, partly narrowed program.
TEST(Compile, TheRootFixpointStopsAtTheDeadline) {
  const fzn::Model m = fzn::parse_string(
      "var 0..1000000000: x;\nvar 0..1000000000: y;\nconstraint int_lt(x, y);\nconstraint int_lt(y, x);\n"
      "solve satisfy;\n",
      "t.fzn");
  CompileOptions o;
  o.deadline = std::chrono::steady_clock::now();
  const Compiled c = compile(m, o);
  EXPECT_TRUE(c.preprocess.stopped);
  EXPECT_FALSE(c.root_failed);
  EXPECT_LE(c.preprocess.propagations, 8192);
  for (const StoreRefTerm& v : c.model_vars) {
    ASSERT_FALSE(v.is_constant);
    const auto x = static_cast<std::size_t>(v.var);
    EXPECT_LE(c.program.lb[x], c.program.ub[x]);
    EXPECT_GT(c.program.ub[x] - c.program.lb[x], 999000000);  // narrowed a little, not to the end
  }
  // Without a deadline the same fixpoint ends, here on a narrower copy: the failure.
  const Compiled small = compile(fzn::parse_string(
      "var 0..100000: x;\nvar 0..100000: y;\nconstraint int_lt(x, y);\nconstraint int_lt(y, x);\nsolve satisfy;\n",
      "t.fzn"));
  EXPECT_FALSE(small.preprocess.stopped);
  EXPECT_TRUE(small.root_failed);
}

TEST(Compile, ObjectiveSurvivesPreprocessing) {
  for (const char* goal : {"minimize z", "maximize z"}) {
    const std::string text =
        std::string(header) + "constraint int_plus(x, y, z);\nconstraint int_eq(z, 2);\nsolve " + goal + ";\n";
    const Compiled c = compile(fzn::parse_string(text, "t.fzn"));
    ASSERT_FALSE(c.root_failed);
    ASSERT_GE(c.objective, 0) << goal;
    EXPECT_TRUE(c.has_objective);
    const auto o = static_cast<std::size_t>(c.objective);
    EXPECT_EQ(c.program.lb[o], c.maximize ? -2 : 2) << goal;
    EXPECT_EQ(c.program.ub[o], c.maximize ? -2 : 2) << goal;
  }
}

// --- preprocessing on random models ---------------------------------------------------------------

TEST(Compile, PreprocessingKeepsTheSolutionsOfRandomModels) {
  const auto all = cases();
  std::vector<std::pair<std::string, std::string>> pool;
  for (const auto& [name, argss] : all)
    for (const auto& args : argss)
      if (args.find('n') == std::string::npos || name != "int_pow") pool.push_back({name, args});
  // Equalities that merge variables, more often than the pool alone would pick them.
  for (const auto& eq : {std::pair<std::string, std::string>{"int_eq", "x, y"},
                         {"int_eq", "z, x"},
                         {"bool2int", "a, i"},
                         {"int_lin_eq", "[1, -1], [y, z], 0"},
                         {"bool_eq", "a, r"}})
    for (int k = 0; k < 8; ++k) pool.push_back(eq);
  std::mt19937 rng(7);
  int with_solutions = 0, unsatisfiable = 0;
  for (int model = 0; model < 150; ++model) {
    std::string text = header;
    const int n = 2 + static_cast<int>(rng() % 4);
    for (int k = 0; k < n; ++k) {
      const auto& [name, args] = pool[rng() % pool.size()];
      text += "constraint " + name + "(" + args + ");\n";
    }
    text += "solve satisfy;\n";
    int solutions = 0;
    ASSERT_TRUE(same_solutions(text, &solutions)) << "model " << model;
    (solutions > 0 ? with_solutions : unsatisfiable)++;
  }
  EXPECT_GT(with_solutions, 30);
  EXPECT_GT(unsatisfiable, 5);
}

// --- errors ---------------------------------------------------------------------------------------

void expect_compile_error(const std::string& text, const std::string& what) {
  const fzn::Model m = fzn::parse_string(text, "t.fzn");
  for (const bool pre : {false, true}) {
    try {
      compile(m, {pre});
      ADD_FAILURE() << "no CompileError for:\n" << text;
    } catch (const CompileError& e) {
      EXPECT_EQ(std::string(e.what()), what);
    }
  }
}

TEST(CompileErrors, UnknownBuiltinNamesItsLocation) {
  expect_compile_error("var 1..3: x;\nvar 1..3: y;\nconstraint int_frob(x, y);\nsolve satisfy;\n",
                       "t.fzn:3:1: error: unsupported builtin 'int_frob'");
}

/// A gap too wide for the Boolean encoding's 32-bit coefficient is counted value by value, as it would
/// be excluded: over the limit, a clear error rather than billions of rows.
TEST(CompileErrors, GapsTooWideForTheBooleanEncodingCountValueByValue) {
  expect_compile_error("var {-2000000000, 0, 2000000000}: x;\nsolve satisfy;\n",
                       "t.fzn:1:1: error: domain of 'x' has too many holes for the bounds store");
}

TEST(CompileErrors, WrongArgumentKinds) {
  expect_compile_error("var 1..3: x;\nconstraint int_le([x], x);\nsolve satisfy;\n",
                       "t.fzn:2:1: error: int_le: argument 1 should be an int but is an array");
  expect_compile_error("var 1..3: x;\nconstraint int_lin_le(x, [x], 1);\nsolve satisfy;\n",
                       "t.fzn:2:1: error: int_lin_le: argument 1 should be an array of int but is a scalar");
  expect_compile_error("var 1..3: x;\nconstraint set_in(x, [1, 2]);\nsolve satisfy;\n",
                       "t.fzn:2:1: error: set_in: argument 2 should be a set of int but is an array");
  expect_compile_error("var 1..3: x;\nconstraint int_plus(x, x);\nsolve satisfy;\n",
                       "t.fzn:2:1: error: int_plus takes 3 arguments, not 2");
  expect_compile_error("var bool: a;\nconstraint bool_xor(a);\nsolve satisfy;\n",
                       "t.fzn:2:1: error: bool_xor takes 2 or 3 arguments, not 1");
  expect_compile_error("var bool: a;\nconstraint bool_and(a, 2, a);\nsolve satisfy;\n",
                       "t.fzn:2:1: error: bool_and: argument 2 should be a bool but is 2");
  expect_compile_error("var 1..3: x;\nconstraint int_lin_le([1, 2], [x], 1);\nsolve satisfy;\n",
                       "t.fzn:2:1: error: int_lin_le: 2 coefficients for 1 variables");
  expect_compile_error("var 1..3: x;\nconstraint int_lin_le([x], [x], 1);\nsolve satisfy;\n",
                       "t.fzn:2:1: error: int_lin_le: coefficients must be constants");
  expect_compile_error("var 1..3: x;\nvar 1..3: y;\nconstraint int_times(x, 5000000000, y);\nsolve satisfy;\n",
                       "t.fzn:3:1: error: constant 5000000000 is outside the 32-bit store range");
}

}  // namespace
}  // namespace kcp
