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
#include "solver/compile.hpp"

#include "solver/compile/compiler.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace kcp {

namespace compile_impl {


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

}  // namespace compile_impl

using compile_impl::Compiler;
using compile_impl::registry;

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
