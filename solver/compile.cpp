#include "solver/compile.hpp"

#include "solver/int128.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <unordered_map>

namespace kcp {

namespace {

/// sum of coef * store var + constant, merged per variable.
struct LinearExpr {
  std::map<int, std::int64_t> coef;
  std::int64_t constant = 0;
};

class Compiler {
 public:
  explicit Compiler(const fzn::Model& model) : model_(model) {}

  Compiled run();

  [[noreturn]] void fail(fzn::Location loc, const std::string& message) const {
    throw CompileError(model_.file, loc, message);
  }

  /// Store reference of a term (constants stay constants).
  StoreRefTerm ref(const fzn::Term& t) const {
    if (t.is_constant()) return {true, t.value, -1};
    return out_.model_vars.at(t.var);
  }

  const fzn::Arg& arg(const fzn::Constraint& c, std::size_t i, fzn::Arg::Kind kind) const {
    if (i >= c.args.size())
      fail(c.loc, c.name + " expects at least " + std::to_string(i + 1) + " arguments, got " +
                      std::to_string(c.args.size()));
    if (c.args[i].kind != kind)
      fail(c.loc, c.name + ": argument " + std::to_string(i + 1) + " has the wrong kind");
    return c.args[i];
  }

  void add_term(LinearExpr& e, std::int64_t a, const fzn::Term& t, fzn::Location loc) const {
    const StoreRefTerm r = ref(t);
    if (r.is_constant) {
      e.constant = checked(e.constant + checked(Int128(a) * r.value, loc), loc);
    } else {
      e.coef[r.var] = checked(e.coef[r.var] + Int128(a), loc);
    }
  }

  /// expr (kind) rhs as a row; coefficients must fit 32 bits and the right-hand side 62.
  void add_row(LinearKind kind, const LinearExpr& e, std::int64_t rhs, fzn::Location loc) {
    std::vector<std::int32_t> a;
    std::vector<int> x;
    for (const auto& [v, c] : e.coef) {
      if (c == 0) continue;
      if (c < INT32_MIN || c > INT32_MAX) fail(loc, "coefficient " + std::to_string(c) + " exceeds 32 bits");
      a.push_back(static_cast<std::int32_t>(c));
      x.push_back(v);
    }
    const Int128 c = Int128(rhs) - e.constant;
    if (c >= sum_limit || c <= -sum_limit) fail(loc, "linear constant out of range (|c| must be below 2^62)");
    out_.program.add_row(kind, a, x, static_cast<std::int64_t>(c));
  }

  /// x - y (kind) rhs.
  void binary(LinearKind kind, const fzn::Constraint& c, std::int64_t rhs) {
    LinearExpr e;
    add_term(e, 1, arg(c, 0, fzn::Arg::Kind::scalar).scalar, c.loc);
    add_term(e, -1, arg(c, 1, fzn::Arg::Kind::scalar).scalar, c.loc);
    add_row(kind, e, rhs, c.loc);
  }

  /// int_lin_*(as, xs, c).
  void linear(LinearKind kind, const fzn::Constraint& c) {
    const auto& as = arg(c, 0, fzn::Arg::Kind::array).array;
    const auto& xs = arg(c, 1, fzn::Arg::Kind::array).array;
    const fzn::Term& rhs = arg(c, 2, fzn::Arg::Kind::scalar).scalar;
    if (as.size() != xs.size())
      fail(c.loc, c.name + ": " + std::to_string(as.size()) + " coefficients for " + std::to_string(xs.size()) +
                      " variables");
    LinearExpr e;
    for (std::size_t i = 0; i < as.size(); ++i) {
      if (!as[i].is_constant()) fail(c.loc, c.name + ": coefficients must be constants");
      add_term(e, as[i].value, xs[i], c.loc);
    }
    if (!rhs.is_constant()) fail(c.loc, c.name + ": the right-hand side must be a constant");
    add_row(kind, e, rhs.value, c.loc);
  }

 private:
  std::int64_t checked(Int128 v, fzn::Location loc) const {
    if (v > INT64_MAX || v < INT64_MIN) fail(loc, "integer overflow while compiling");
    return static_cast<std::int64_t>(v);
  }

  void compile_variables();
  void compile_objective();

  const fzn::Model& model_;
  Compiled out_;
};

using CompileFn = std::function<void(Compiler&, const fzn::Constraint&)>;

/// The registry: one entry per supported builtin.
const std::unordered_map<std::string, CompileFn>& registry() {
  using K = LinearKind;
  static const std::unordered_map<std::string, CompileFn> r = {
      {"int_le", [](Compiler& cc, const fzn::Constraint& c) { cc.binary(K::le, c, 0); }},
      {"int_lt", [](Compiler& cc, const fzn::Constraint& c) { cc.binary(K::le, c, -1); }},
      {"int_eq", [](Compiler& cc, const fzn::Constraint& c) { cc.binary(K::eq, c, 0); }},
      {"int_ne", [](Compiler& cc, const fzn::Constraint& c) { cc.binary(K::ne, c, 0); }},
      {"bool_le", [](Compiler& cc, const fzn::Constraint& c) { cc.binary(K::le, c, 0); }},
      {"bool_lt", [](Compiler& cc, const fzn::Constraint& c) { cc.binary(K::le, c, -1); }},
      {"bool_eq", [](Compiler& cc, const fzn::Constraint& c) { cc.binary(K::eq, c, 0); }},
      {"bool2int", [](Compiler& cc, const fzn::Constraint& c) { cc.binary(K::eq, c, 0); }},
      {"int_lin_le", [](Compiler& cc, const fzn::Constraint& c) { cc.linear(K::le, c); }},
      {"int_lin_eq", [](Compiler& cc, const fzn::Constraint& c) { cc.linear(K::eq, c); }},
      {"int_lin_ne", [](Compiler& cc, const fzn::Constraint& c) { cc.linear(K::ne, c); }},
      {"bool_lin_le", [](Compiler& cc, const fzn::Constraint& c) { cc.linear(K::le, c); }},
      {"bool_lin_eq", [](Compiler& cc, const fzn::Constraint& c) { cc.linear(K::eq, c); }},
  };
  return r;
}

void Compiler::compile_variables() {
  const auto& vars = model_.variables;
  out_.model_vars.resize(vars.size());
  // Aliases may point forward only to earlier variables in FlatZinc, but resolve in a loop anyway.
  for (std::size_t i = 0; i < vars.size(); ++i) {
    const fzn::Variable& v = vars[i];
    if (v.alias) continue;
    std::int64_t lo = bound_min, hi = bound_max;
    if (v.domain) {
      if (v.domain->empty()) fail(v.loc, "variable '" + v.name + "' has an empty domain");
      lo = v.domain->min();
      hi = v.domain->max();
      if (lo < bound_min || hi > bound_max)
        fail(v.loc, "domain of '" + v.name + "' exceeds the 32-bit store range [" + std::to_string(bound_min) +
                        ", " + std::to_string(bound_max) + "]");
    }
    const int x = out_.program.add_var(static_cast<std::int32_t>(lo), static_cast<std::int32_t>(hi));
    out_.model_vars[i] = {false, 0, x};
    // Holes inside the hull: one x != v row each (the store keeps bounds only).
    if (v.domain) {
      const auto& rs = v.domain->ranges;
      std::int64_t holes = 0;
      for (std::size_t k = 1; k < rs.size(); ++k) holes += rs[k].first - rs[k - 1].second - 1;
      if (holes > 100000) fail(v.loc, "domain of '" + v.name + "' has too many holes for the bounds store");
      for (std::size_t k = 1; k < rs.size(); ++k)
        for (std::int64_t h = rs[k - 1].second + 1; h < rs[k].first; ++h)
          out_.program.add_row(LinearKind::ne, {1}, {x}, h);
    }
  }
  for (std::size_t i = 0; i < vars.size(); ++i) {
    if (!vars[i].alias) continue;
    fzn::Term t = *vars[i].alias;
    for (std::size_t hops = 0; t.is_variable() && vars[t.var].alias; ++hops) {
      if (hops > vars.size()) fail(vars[i].loc, "cyclic alias for '" + vars[i].name + "'");
      t = *vars[t.var].alias;
    }
    out_.model_vars[i] = t.is_constant() ? StoreRefTerm{true, t.value, -1} : out_.model_vars[t.var];
    // The alias's own declared domain still constrains the shared variable.
    if (vars[i].domain && !out_.model_vars[i].is_constant) {
      const int x = out_.model_vars[i].var;
      out_.program.add_row(LinearKind::le, {1}, {x}, vars[i].domain->max());
      out_.program.add_row(LinearKind::le, {-1}, {x}, -vars[i].domain->min());
    } else if (vars[i].domain && !vars[i].domain->contains(out_.model_vars[i].value)) {
      out_.program.add_row(LinearKind::le, {}, {}, -1);  // an always-false row: the model is unsatisfiable
    }
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
  for (const fzn::Constraint& c : model_.constraints) {
    const auto& reg = registry();
    const auto it = reg.find(c.name);
    if (it == reg.end()) fail(c.loc, "unsupported builtin '" + c.name + "'");
    it->second(*this, c);
  }
  compile_objective();
  return std::move(out_);
}

}  // namespace

Compiled compile(const fzn::Model& model) { return Compiler(model).run(); }

std::vector<std::int64_t> model_values(const Compiled& compiled, const std::vector<std::int32_t>& store) {
  std::vector<std::int64_t> values(compiled.model_vars.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const StoreRefTerm& r = compiled.model_vars[i];
    values[i] = r.is_constant ? r.value : store.at(r.var);
  }
  return values;
}

std::vector<std::string> supported_builtins() {
  std::vector<std::string> names;
  for (const auto& [name, fn] : registry()) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace kcp
