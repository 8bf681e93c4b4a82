// Tests of the independent solution checker: every builtin it knows, satisfied and violated, plus
// domains, aliases, unknown builtins, malformed calls, exact arithmetic and message format.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "solver/fzn/checker.hpp"

namespace kcp::fzn {
namespace {

using Ranges = std::vector<std::pair<std::int64_t, std::int64_t>>;

constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t int64_min = std::numeric_limits<std::int64_t>::min();

// IntSet::from_ranges belongs to the parser's model.cpp; these tests fill ranges directly (already
// normalised) so that they link against the checker alone.
IntSet make_set(Ranges ranges) {
  IntSet s;
  s.ranges = std::move(ranges);
  return s;
}

Arg scalar_arg(Term t) {
  Arg a;
  a.kind = Arg::Kind::scalar;
  a.scalar = t;
  return a;
}

Arg array_arg(std::vector<Term> ts) {
  Arg a;
  a.kind = Arg::Kind::array;
  a.array = std::move(ts);
  return a;
}

Arg set_arg(Ranges ranges) {
  Arg a;
  a.kind = Arg::Kind::set;
  a.set = make_set(std::move(ranges));
  return a;
}

/// Builds a model and its assignment side by side.
class ModelBuilder {
 public:
  ModelBuilder() { model_.file = "test.fzn"; }

  /// A fresh variable with the given value; unbounded int unless told otherwise.
  Term var(std::int64_t value, const std::string& name = "", VarType type = VarType::int_,
           std::optional<IntSet> domain = std::nullopt) {
    Variable v;
    v.name = name.empty() ? "x" + std::to_string(model_.variables.size()) : name;
    v.type = type;
    v.domain = std::move(domain);
    v.loc = {static_cast<int>(model_.variables.size()) + 1, 1};
    model_.variables.push_back(v);
    values_.push_back(value);
    return Term::variable(static_cast<int>(model_.variables.size()) - 1);
  }

  std::vector<Term> vars(const std::vector<std::int64_t>& values) {
    std::vector<Term> out;
    for (std::int64_t v : values) out.push_back(var(v));
    return out;
  }

  Variable& variable(const Term& t) { return model_.variables[static_cast<std::size_t>(t.var)]; }

  Constraint& post(const std::string& name, std::vector<Arg> args, int line = 1, int column = 1) {
    Constraint c;
    c.name = name;
    c.args = std::move(args);
    c.loc = {line, column};
    model_.constraints.push_back(std::move(c));
    return model_.constraints.back();
  }

  Model& model() { return model_; }
  std::vector<std::int64_t>& values() { return values_; }
  CheckResult check() const { return check_solution(model_, values_); }

 private:
  Model model_;
  std::vector<std::int64_t> values_;
};

/// One argument of a table case: a variable or a constant (scalar or array of them), or a set.
struct ArgSpec {
  enum class Kind { var, constant, vars, constants, set };
  Kind kind;
  std::vector<std::int64_t> values;
  Ranges ranges;
};

ArgSpec v(std::int64_t x) { return {ArgSpec::Kind::var, {x}, {}}; }
ArgSpec k(std::int64_t x) { return {ArgSpec::Kind::constant, {x}, {}}; }
ArgSpec vs(std::vector<std::int64_t> xs) { return {ArgSpec::Kind::vars, std::move(xs), {}}; }
ArgSpec ks(std::vector<std::int64_t> xs) { return {ArgSpec::Kind::constants, std::move(xs), {}}; }
ArgSpec set(Ranges r) { return {ArgSpec::Kind::set, {}, std::move(r)}; }

std::string describe(const ArgSpec& a) {
  auto list = [&a](const char* prefix) {
    std::string out = "[";
    for (std::size_t i = 0; i < a.values.size(); ++i) out += (i ? ", " : "") + (prefix + std::to_string(a.values[i]));
    return out + "]";
  };
  switch (a.kind) {
    case ArgSpec::Kind::var:
      return "var " + std::to_string(a.values[0]);
    case ArgSpec::Kind::constant:
      return std::to_string(a.values[0]);
    case ArgSpec::Kind::vars:
      return list("var ");
    case ArgSpec::Kind::constants:
      return list("");
    case ArgSpec::Kind::set: {
      std::string out = "{";
      for (const auto& [lo, hi] : a.ranges) out += std::to_string(lo) + ".." + std::to_string(hi) + " ";
      return out + "}";
    }
  }
  return "?";
}

struct Case {
  std::string builtin;
  std::vector<ArgSpec> args;
  bool ok;
};

std::string describe(const Case& c) {
  std::string out = c.builtin + "(";
  for (std::size_t i = 0; i < c.args.size(); ++i) out += (i ? ", " : "") + describe(c.args[i]);
  return out + ") expected " + (c.ok ? "to hold" : "to be violated");
}

/// Every builtin the checker knows, satisfied and violated; reified forms both ways where it matters.
const std::vector<Case>& cases() {
  static const std::vector<Case> table = {
      // int comparisons
      {"int_eq", {v(3), v(3)}, true},
      {"int_eq", {v(3), v(4)}, false},
      {"int_eq_reif", {v(3), v(3), v(1)}, true},
      {"int_eq_reif", {v(3), v(4), v(0)}, true},
      {"int_eq_reif", {v(3), v(4), v(1)}, false},
      {"int_eq_reif", {v(3), v(3), v(0)}, false},
      {"int_eq_imp", {v(3), v(4), v(0)}, true},
      {"int_eq_imp", {v(3), v(3), v(1)}, true},
      {"int_eq_imp", {v(3), v(4), v(1)}, false},
      {"int_ne", {v(3), k(4)}, true},
      {"int_ne", {v(3), k(3)}, false},
      {"int_ne_reif", {v(3), v(4), v(1)}, true},
      {"int_ne_reif", {v(3), v(3), v(1)}, false},
      {"int_ne_imp", {v(3), v(3), v(0)}, true},
      {"int_ne_imp", {v(3), v(3), v(1)}, false},
      {"int_le", {v(3), v(3)}, true},
      {"int_le", {v(4), v(3)}, false},
      {"int_le_reif", {v(4), v(3), v(0)}, true},
      {"int_le_reif", {v(3), v(4), v(0)}, false},
      {"int_le_imp", {v(4), v(3), v(0)}, true},
      {"int_le_imp", {v(4), v(3), v(1)}, false},
      {"int_lt", {v(-4), v(3)}, true},
      {"int_lt", {v(3), v(3)}, false},
      {"int_lt_reif", {v(3), v(3), v(0)}, true},
      {"int_lt_reif", {v(2), v(3), v(0)}, false},
      {"int_lt_imp", {v(2), v(3), v(1)}, true},
      {"int_lt_imp", {v(3), v(3), v(1)}, false},
      // linear
      {"int_lin_eq", {ks({2, 3}), vs({1, 2}), k(8)}, true},
      {"int_lin_eq", {ks({2, 3}), vs({1, 2}), k(9)}, false},
      {"int_lin_eq", {ks({}), vs({}), k(0)}, true},
      {"int_lin_eq", {ks({}), vs({}), k(1)}, false},
      {"int_lin_eq_reif", {ks({2, 3}), vs({1, 2}), k(8), v(1)}, true},
      {"int_lin_eq_reif", {ks({2, 3}), vs({1, 2}), k(9), v(0)}, true},
      {"int_lin_eq_reif", {ks({2, 3}), vs({1, 2}), k(9), v(1)}, false},
      {"int_lin_eq_imp", {ks({2, 3}), vs({1, 2}), k(9), v(0)}, true},
      {"int_lin_eq_imp", {ks({2, 3}), vs({1, 2}), k(9), v(1)}, false},
      {"int_lin_le", {ks({2, -3}), vs({1, 2}), k(-4)}, true},
      {"int_lin_le", {ks({2, -3}), vs({1, 2}), k(-5)}, false},
      {"int_lin_le_reif", {ks({2, -3}), vs({1, 2}), k(-5), v(0)}, true},
      {"int_lin_le_reif", {ks({2, -3}), vs({1, 2}), k(-4), v(0)}, false},
      {"int_lin_le_imp", {ks({2, -3}), vs({1, 2}), k(-5), v(0)}, true},
      {"int_lin_le_imp", {ks({2, -3}), vs({1, 2}), k(-5), v(1)}, false},
      {"int_lin_ne", {ks({1, 1}), vs({1, 2}), k(4)}, true},
      {"int_lin_ne", {ks({1, 1}), vs({1, 2}), k(3)}, false},
      {"int_lin_ne_reif", {ks({1, 1}), vs({1, 2}), k(3), v(0)}, true},
      {"int_lin_ne_reif", {ks({1, 1}), vs({1, 2}), k(3), v(1)}, false},
      {"int_lin_ne_imp", {ks({1, 1}), vs({1, 2}), k(3), v(0)}, true},
      {"int_lin_ne_imp", {ks({1, 1}), vs({1, 2}), k(3), v(1)}, false},
      // arithmetic
      {"int_plus", {v(2), v(3), v(5)}, true},
      {"int_plus", {v(2), v(3), v(6)}, false},
      {"int_minus", {v(2), v(3), v(-1)}, true},
      {"int_minus", {v(2), v(3), v(1)}, false},
      {"int_times", {v(-2), v(3), v(-6)}, true},
      {"int_times", {v(-2), v(3), v(6)}, false},
      {"int_div", {v(7), v(2), v(3)}, true},
      {"int_div", {v(7), v(2), v(4)}, false},
      {"int_mod", {v(7), v(3), v(1)}, true},
      {"int_mod", {v(7), v(3), v(2)}, false},
      {"int_min", {v(2), v(5), v(2)}, true},
      {"int_min", {v(2), v(5), v(5)}, false},
      {"int_max", {v(2), v(5), v(5)}, true},
      {"int_max", {v(2), v(5), v(2)}, false},
      {"int_abs", {v(-4), v(4)}, true},
      {"int_abs", {v(4), v(4)}, true},
      {"int_abs", {v(-4), v(-4)}, false},
      {"int_pow", {v(2), v(10), v(1024)}, true},
      {"int_pow", {v(3), v(3), v(26)}, false},
      {"int_pow_fixed", {v(3), k(2), v(9)}, true},
      {"int_pow_fixed", {v(3), k(2), v(6)}, false},
      // element, extrema, sets
      {"array_int_element", {v(2), ks({5, 6, 7}), v(6)}, true},
      {"array_int_element", {v(2), ks({5, 6, 7}), v(7)}, false},
      {"array_int_element", {v(0), ks({5, 6, 7}), v(5)}, false},
      {"array_int_element", {v(4), ks({5, 6, 7}), v(7)}, false},
      {"array_var_int_element", {v(3), vs({5, 6, 7}), v(7)}, true},
      {"array_var_int_element", {v(3), vs({5, 6, 7}), v(5)}, false},
      {"array_var_int_element", {v(-1), vs({5, 6, 7}), v(5)}, false},
      {"array_bool_element", {v(1), ks({0, 1}), v(0)}, true},
      {"array_bool_element", {v(2), ks({0, 1}), v(0)}, false},
      {"array_bool_element", {v(3), ks({0, 1}), v(0)}, false},
      {"array_var_bool_element", {v(2), vs({0, 1}), v(1)}, true},
      {"array_var_bool_element", {v(2), vs({0, 1}), v(0)}, false},
      {"array_int_minimum", {v(2), vs({5, 2, 7})}, true},
      {"array_int_minimum", {v(5), vs({5, 2, 7})}, false},
      {"array_int_minimum", {v(0), vs({})}, false},
      {"array_int_maximum", {v(7), vs({5, 2, 7})}, true},
      {"array_int_maximum", {v(5), vs({5, 2, 7})}, false},
      {"array_int_maximum", {v(0), vs({})}, false},
      {"kcp_table_int", {vs({1, 2}), ks({0, 0, 1, 2})}, true},
      {"kcp_table_int", {vs({1, 2}), ks({0, 0, 2, 1})}, false},
      {"kcp_table_int", {vs({1}), ks({})}, false},
      {"kcp_table_bool", {vs({1, 0}), ks({0, 0, 1, 0})}, true},
      {"kcp_table_bool", {vs({1, 1}), ks({0, 0, 1, 0})}, false},
      {"kcp_all_different_int", {vs({3, 1, 2})}, true},
      {"kcp_all_different_int", {vs({})}, true},
      {"kcp_all_different_int", {vs({3, 1, 3})}, false},
      // Tasks [0, 2) use 1 and [1, 4) use 2 against capacity 3 / 2; zero durations use nothing.
      {"kcp_cumulative", {vs({0, 1}), ks({2, 3}), ks({1, 2}), v(3)}, true},
      {"kcp_cumulative", {vs({0, 1}), ks({2, 3}), ks({1, 2}), v(2)}, false},
      {"kcp_cumulative", {vs({0, 2}), ks({2, 3}), ks({1, 2}), v(2)}, true},
      {"kcp_cumulative", {vs({0, 0}), ks({0, 3}), ks({5, 2}), v(2)}, true},
      {"kcp_cumulative", {vs({0, 1}), ks({-1, 3}), ks({1, 2}), v(9)}, false},
      {"kcp_cumulative", {vs({0}), ks({2}), ks({0}), v(-1)}, false},  // b >= 0 with any task
      {"kcp_cumulative", {vs({}), ks({}), ks({}), v(-1)}, true},
      {"set_in", {v(5), set({{1, 3}, {5, 5}})}, true},
      {"set_in", {v(1), set({{1, 3}, {5, 5}})}, true},
      {"set_in", {v(4), set({{1, 3}, {5, 5}})}, false},
      {"set_in", {v(6), set({{1, 3}, {5, 5}})}, false},
      {"set_in", {v(0), set({})}, false},
      {"set_in_reif", {v(4), set({{1, 3}, {5, 5}}), v(0)}, true},
      {"set_in_reif", {v(4), set({{1, 3}, {5, 5}}), v(1)}, false},
      {"set_in_imp", {v(4), set({{1, 3}, {5, 5}}), v(0)}, true},
      {"set_in_imp", {v(5), set({{1, 3}, {5, 5}}), v(1)}, true},
      {"set_in_imp", {v(4), set({{1, 3}, {5, 5}}), v(1)}, false},
      // bool comparisons
      {"bool_eq", {v(1), v(1)}, true},
      {"bool_eq", {v(1), v(0)}, false},
      {"bool_eq_reif", {v(1), v(0), v(0)}, true},
      {"bool_eq_reif", {v(1), v(1), v(0)}, false},
      {"bool_eq_imp", {v(1), v(0), v(0)}, true},
      {"bool_eq_imp", {v(1), v(0), v(1)}, false},
      {"bool_ne", {v(1), v(0)}, true},
      {"bool_ne", {v(0), v(0)}, false},
      {"bool_ne_reif", {v(0), v(0), v(0)}, true},
      {"bool_ne_reif", {v(0), v(1), v(0)}, false},
      {"bool_ne_imp", {v(0), v(0), v(0)}, true},
      {"bool_ne_imp", {v(0), v(0), v(1)}, false},
      {"bool_le", {v(0), v(1)}, true},
      {"bool_le", {v(1), v(1)}, true},
      {"bool_le", {v(1), v(0)}, false},
      {"bool_le_reif", {v(1), v(0), v(0)}, true},
      {"bool_le_reif", {v(1), v(0), v(1)}, false},
      {"bool_le_imp", {v(1), v(0), v(0)}, true},
      {"bool_le_imp", {v(1), v(0), v(1)}, false},
      {"bool_lt", {v(0), v(1)}, true},
      {"bool_lt", {v(1), v(1)}, false},
      {"bool_lt_reif", {v(0), v(0), v(0)}, true},
      {"bool_lt_reif", {v(0), v(1), v(0)}, false},
      {"bool_lt_imp", {v(0), v(0), v(0)}, true},
      {"bool_lt_imp", {v(0), v(0), v(1)}, false},
      // bool connectives: bool_and/or/xor with three arguments are r <-> a op b
      {"bool_not", {v(1), v(0)}, true},
      {"bool_not", {v(1), v(1)}, false},
      {"bool_and", {v(1), v(1), v(1)}, true},
      {"bool_and", {v(1), v(0), v(0)}, true},
      {"bool_and", {v(1), v(0), v(1)}, false},
      {"bool_and", {v(1), v(1), v(0)}, false},
      {"bool_and_imp", {v(1), v(0), v(0)}, true},
      {"bool_and_imp", {v(1), v(0), v(1)}, false},
      {"bool_or", {v(0), v(1), v(1)}, true},
      {"bool_or", {v(0), v(0), v(0)}, true},
      {"bool_or", {v(0), v(0), v(1)}, false},
      {"bool_or", {v(1), v(0), v(0)}, false},
      {"bool_or_imp", {v(0), v(0), v(0)}, true},
      {"bool_or_imp", {v(0), v(0), v(1)}, false},
      {"bool_xor", {v(1), v(0)}, true},
      {"bool_xor", {v(1), v(1)}, false},
      {"bool_xor", {v(1), v(1), v(0)}, true},
      {"bool_xor", {v(1), v(0), v(1)}, true},
      {"bool_xor", {v(1), v(1), v(1)}, false},
      {"bool_xor", {v(0), v(1), v(0)}, false},
      {"bool_xor_imp", {v(1), v(1), v(0)}, true},
      {"bool_xor_imp", {v(1), v(1), v(1)}, false},
      {"array_bool_and", {vs({1, 1}), v(1)}, true},
      {"array_bool_and", {vs({1, 0}), v(0)}, true},
      {"array_bool_and", {vs({}), v(1)}, true},
      {"array_bool_and", {vs({1, 0}), v(1)}, false},
      {"array_bool_and", {vs({1, 1}), v(0)}, false},
      {"array_bool_and", {vs({}), v(0)}, false},
      {"array_bool_and_imp", {vs({1, 0}), v(0)}, true},
      {"array_bool_and_imp", {vs({1, 0}), v(1)}, false},
      {"array_bool_or", {vs({0, 1}), v(1)}, true},
      {"array_bool_or", {vs({}), v(0)}, true},
      {"array_bool_or", {vs({0, 0}), v(1)}, false},
      {"array_bool_or", {vs({0, 1}), v(0)}, false},
      {"array_bool_or_imp", {vs({0, 0}), v(0)}, true},
      {"array_bool_or_imp", {vs({0, 0}), v(1)}, false},
      {"array_bool_xor", {vs({1, 1, 1})}, true},
      {"array_bool_xor", {vs({1, 0})}, true},
      {"array_bool_xor", {vs({1, 1})}, false},
      {"array_bool_xor", {vs({})}, false},
      {"array_bool_xor_imp", {vs({1, 1}), v(0)}, true},
      {"array_bool_xor_imp", {vs({0, 1}), v(1)}, true},
      {"array_bool_xor_imp", {vs({1, 1}), v(1)}, false},
      {"bool_clause", {vs({0, 1}), vs({1})}, true},
      {"bool_clause", {vs({0}), vs({1, 0})}, true},
      {"bool_clause", {vs({0, 0}), vs({1, 1})}, false},
      {"bool_clause", {vs({}), vs({})}, false},
      {"bool_clause_reif", {vs({0}), vs({1}), v(0)}, true},
      {"bool_clause_reif", {vs({0}), vs({0}), v(1)}, true},
      {"bool_clause_reif", {vs({0}), vs({1}), v(1)}, false},
      {"bool_clause_reif", {vs({1}), vs({1}), v(0)}, false},
      {"bool_clause_imp", {vs({0}), vs({1}), v(0)}, true},
      {"bool_clause_imp", {vs({0}), vs({1}), v(1)}, false},
      {"array_bool_element", {v(1), ks({1, 0}), v(1)}, true},
      {"bool2int", {v(1), v(1)}, true},
      {"bool2int", {v(0), v(0)}, true},
      {"bool2int", {v(1), v(0)}, false},
      {"bool_lin_eq", {ks({2, 3}), vs({1, 1}), v(5)}, true},
      {"bool_lin_eq", {ks({2, 3}), vs({1, 1}), v(3)}, false},
      {"bool_lin_le", {ks({2, 3}), vs({1, 0}), k(2)}, true},
      {"bool_lin_le", {ks({2, 3}), vs({1, 0}), k(1)}, false},
  };
  return table;
}

/// Runs one table case through check_constraint and check_solution, which must agree.
CheckResult run_case(const Case& c) {
  ModelBuilder b;
  std::vector<Arg> args;
  for (const ArgSpec& a : c.args) {
    switch (a.kind) {
      case ArgSpec::Kind::var:
        args.push_back(scalar_arg(b.var(a.values[0])));
        break;
      case ArgSpec::Kind::constant:
        args.push_back(scalar_arg(Term::constant(a.values[0])));
        break;
      case ArgSpec::Kind::vars:
        args.push_back(array_arg(b.vars(a.values)));
        break;
      case ArgSpec::Kind::constants: {
        std::vector<Term> ts;
        for (std::int64_t x : a.values) ts.push_back(Term::constant(x));
        args.push_back(array_arg(ts));
        break;
      }
      case ArgSpec::Kind::set:
        args.push_back(set_arg(a.ranges));
        break;
    }
  }
  const Constraint& posted = b.post(c.builtin, std::move(args), 7, 3);
  const CheckResult one = check_constraint(b.model(), posted, b.values());
  const CheckResult all = b.check();
  EXPECT_EQ(one.ok, all.ok) << describe(c);
  EXPECT_EQ(one.message, all.message) << describe(c);
  return one;
}

TEST(CheckerTable, EveryCaseHasTheExpectedVerdict) {
  for (const Case& c : cases()) {
    const CheckResult r = run_case(c);
    EXPECT_EQ(r.ok, c.ok) << describe(c) << ": " << r.message;
    if (r.ok) {
      EXPECT_TRUE(r.message.empty()) << describe(c);
    } else {
      // A violation names the constraint and its location, and is a violation, not a malformed call.
      EXPECT_EQ(r.message.rfind("constraint " + c.builtin + " at test.fzn:7:3 violated: ", 0), 0u)
          << describe(c) << ": " << r.message;
    }
  }
}

TEST(CheckerTable, EveryCheckedBuiltinIsTestedBothWays) {
  std::map<std::string, std::pair<bool, bool>> seen;  // name -> (has a satisfied case, has a violated case)
  for (const Case& c : cases()) (c.ok ? seen[c.builtin].first : seen[c.builtin].second) = true;
  for (const std::string& name : checked_builtins()) {
    EXPECT_TRUE(seen[name].first) << name << " has no satisfied case";
    EXPECT_TRUE(seen[name].second) << name << " has no violated case";
  }
  const auto& names = checked_builtins();
  for (const Case& c : cases()) {
    EXPECT_TRUE(std::binary_search(names.begin(), names.end(), c.builtin)) << c.builtin << " is not a checked builtin";
  }
}

TEST(CheckedBuiltins, SortedUniqueAndCoverTheStdLibCore) {
  const auto& names = checked_builtins();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
  for (const char* name :
       {"int_lin_le", "int_lin_eq_reif", "int_times", "int_div", "int_mod", "int_pow", "array_var_int_element",
        "array_int_minimum", "set_in_reif", "bool_clause", "bool_clause_reif", "bool2int", "array_bool_or", "bool_xor",
        "bool_lin_eq", "int_le_imp", "array_bool_and_imp"}) {
    EXPECT_TRUE(std::binary_search(names.begin(), names.end(), name)) << name;
  }
}

TEST(CheckerMessages, LinearViolationNamesTermsAndValues) {
  ModelBuilder b;
  b.model().file = "model.fzn";
  const Term x = b.var(3, "x");
  const Term y = b.var(4, "y");
  b.post("int_lin_le",
         {array_arg({Term::constant(1), Term::constant(2)}), array_arg({x, y}), scalar_arg(Term::constant(10))}, 12, 1);
  const CheckResult r = b.check();
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.message, "constraint int_lin_le at model.fzn:12:1 violated: 1*x(=3) + 2*y(=4) <= 10 is false");
}

TEST(CheckerMessages, NegativeCoefficientsReadAsSubtraction) {
  ModelBuilder b;
  const Term x = b.var(1, "x");
  const Term y = b.var(2, "y");
  b.post("int_lin_eq",
         {array_arg({Term::constant(2), Term::constant(-3)}), array_arg({x, y}), scalar_arg(Term::constant(5))}, 2, 1);
  EXPECT_EQ(b.check().message, "constraint int_lin_eq at test.fzn:2:1 violated: 2*x(=1) - 3*y(=2) = 5 is false");
}

TEST(CheckerMessages, ReifiedAndElementMessagesShowValues) {
  ModelBuilder b;
  const Term x = b.var(3, "x");
  const Term y = b.var(2, "y");
  const Term r = b.var(1, "r", VarType::bool_);
  b.post("int_le_reif", {scalar_arg(x), scalar_arg(y), scalar_arg(r)}, 4, 2);
  EXPECT_EQ(b.check().message, "constraint int_le_reif at test.fzn:4:2 violated: r(=1) <-> (x(=3) <= y(=2)) is false");

  ModelBuilder e;
  const Term i = e.var(4, "i");
  const Term z = e.var(6, "z");
  e.post("array_int_element", {scalar_arg(i), array_arg({Term::constant(5), Term::constant(6)}), scalar_arg(z)});
  EXPECT_EQ(e.check().message,
            "constraint array_int_element at test.fzn:1:1 violated: [5, 6][i(=4)] = z(=6) is false "
            "(the index is outside 1..2)");
}

TEST(CheckerMessages, LongSumsAreAbbreviatedButShowTheSum) {
  ModelBuilder b;
  std::vector<Term> coeffs(100, Term::constant(1));
  const std::vector<Term> xs = b.vars(std::vector<std::int64_t>(100, 1));
  b.post("int_lin_le", {array_arg(coeffs), array_arg(xs), scalar_arg(Term::constant(99))});
  const CheckResult r = b.check();
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("... (36 more terms)"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("(the sum is 100)"), std::string::npos) << r.message;
}

TEST(CheckerDomains, ValueOutsideDomainFails) {
  ModelBuilder b;
  const Term x = b.var(4, "x", VarType::int_, make_set({{1, 3}, {5, 7}}));
  CheckResult r = b.check();
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("variable x"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("= 4"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("{1..3, 5..7}"), std::string::npos) << r.message;
  for (std::int64_t ok : {1, 3, 5, 7}) {
    b.values()[static_cast<std::size_t>(x.var)] = ok;
    EXPECT_TRUE(b.check().ok) << ok;
  }
  for (std::int64_t bad : {std::int64_t(0), std::int64_t(8), int64_min, int64_max}) {
    b.values()[static_cast<std::size_t>(x.var)] = bad;
    EXPECT_FALSE(b.check().ok) << bad;
  }
}

TEST(CheckerDomains, BoolsAreZeroOrOneEvenWithoutADomain) {
  ModelBuilder b;
  b.var(2, "flag", VarType::bool_);
  const CheckResult r = b.check();
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("flag"), std::string::npos) << r.message;
  b.values()[0] = 1;
  EXPECT_TRUE(b.check().ok);
}

TEST(CheckerDomains, UnboundedIntAcceptsAnything) {
  ModelBuilder b;
  b.var(int64_min, "x");
  b.var(int64_max, "y");
  EXPECT_TRUE(b.check().ok);
}

TEST(CheckerAliases, DisagreementWithVariableAliasFails) {
  ModelBuilder b;
  const Term y = b.var(4, "y");
  const Term x = b.var(3, "x");
  b.variable(x).alias = y;
  CheckResult r = b.check();
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("variable x"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("y(=4)"), std::string::npos) << r.message;
  b.values()[static_cast<std::size_t>(x.var)] = 4;
  EXPECT_TRUE(b.check().ok);
}

TEST(CheckerAliases, DisagreementWithConstantAliasFails) {
  ModelBuilder b;
  const Term x = b.var(3, "x");
  b.variable(x).alias = Term::constant(5);
  EXPECT_FALSE(b.check().ok);
  b.values()[0] = 5;
  EXPECT_TRUE(b.check().ok);
}

TEST(CheckerAliases, AliasToMissingVariableFails) {
  ModelBuilder b;
  const Term x = b.var(3, "x");
  b.variable(x).alias = Term::variable(9);
  EXPECT_FALSE(b.check().ok);
}

TEST(CheckerUnknown, UnknownBuiltinIsReportedByName) {
  for (const char* name : {"fzn_all_different_int", "int_ge", "float_lin_le", "bool_and_reif"}) {
    ModelBuilder b;
    const Term x = b.var(1);
    const Term y = b.var(2);
    b.post(name, {scalar_arg(x), scalar_arg(y)}, 5, 9);
    const CheckResult r = b.check();
    EXPECT_FALSE(r.ok) << name;
    EXPECT_NE(r.message.find(std::string("unknown builtin ") + name), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("test.fzn:5:9"), std::string::npos) << r.message;
  }
}

TEST(CheckerOverflow, HugeProductsDoNotWrap) {
  const std::int64_t p40 = std::int64_t(1) << 40;
  // 2^40 * 2^40 = 2^80, which wraps to 0 in 64 bits.
  {
    ModelBuilder b;
    const Term x = b.var(p40);
    b.post("int_lin_eq", {array_arg({Term::constant(p40)}), array_arg({x}), scalar_arg(Term::constant(0))});
    EXPECT_FALSE(b.check().ok);
  }
  {
    ModelBuilder b;
    const Term x = b.var(p40);
    b.post("int_lin_le", {array_arg({Term::constant(p40)}), array_arg({x}), scalar_arg(Term::constant(0))});
    EXPECT_FALSE(b.check().ok);
  }
  {
    ModelBuilder b;
    b.post("int_times", {scalar_arg(b.var(p40)), scalar_arg(b.var(p40)), scalar_arg(b.var(0))});
    EXPECT_FALSE(b.check().ok);
  }
  {
    ModelBuilder b;
    const Term x = b.var(1);
    b.post("bool_lin_eq", {array_arg({Term::constant(int64_max), Term::constant(int64_max), Term::constant(2)}),
                           array_arg({x, x, x}), scalar_arg(Term::constant(0))});
    EXPECT_FALSE(b.check().ok);  // 2 * (2^63 - 1) + 2 = 2^64 wraps to 0
  }
}

TEST(CheckerOverflow, SumsBeyond128BitsAreExact) {
  // Four terms of (2^63 - 1)^2 ~ 2^126 sum to ~2^128, which wraps negative in 128 bits.
  ModelBuilder b;
  const std::vector<Term> xs = b.vars({int64_max, int64_max, int64_max, int64_max});
  const std::vector<Term> as(4, Term::constant(int64_max));
  b.post("int_lin_le", {array_arg(as), array_arg(xs), scalar_arg(Term::constant(0))});
  EXPECT_FALSE(b.check().ok);
  b.model().constraints.back().args[2] = scalar_arg(Term::constant(-1));
  EXPECT_FALSE(b.check().ok);

  // The same sum cancelled by four negative terms is exactly 0: the carries must cancel too.
  ModelBuilder d;
  const std::vector<Term> zs =
      d.vars({int64_max, int64_max, int64_max, int64_max, int64_max, int64_max, int64_max, int64_max});
  std::vector<Term> cs(4, Term::constant(int64_max));
  for (int i = 0; i < 4; ++i) cs.push_back(Term::constant(-int64_max));
  d.post("int_lin_eq", {array_arg(cs), array_arg(zs), scalar_arg(Term::constant(0))});
  EXPECT_TRUE(d.check().ok) << d.check().message;
  d.model().constraints.back().args[2] = scalar_arg(Term::constant(-1));
  EXPECT_FALSE(d.check().ok);

  // Many terms of -2^126 and a right-hand side of int64_min: a large negative sum is <= any int64.
  ModelBuilder e;
  const std::vector<Term> ws = e.vars(std::vector<std::int64_t>(8, int64_min));
  const std::vector<Term> es(8, Term::constant(int64_max));
  e.post("int_lin_le", {array_arg(es), array_arg(ws), scalar_arg(Term::constant(int64_min))});
  EXPECT_TRUE(e.check().ok) << e.check().message;
  e.model().constraints.back().args[2] = scalar_arg(Term::constant(0));
  EXPECT_TRUE(e.check().ok) << e.check().message;
  e.model().constraints.back().name = "int_lin_eq";
  EXPECT_FALSE(e.check().ok);
}

TEST(CheckerOverflow, ScalarEdgeCases) {
  auto check3 = [](const char* name, std::int64_t a, std::int64_t b, std::int64_t c) {
    ModelBuilder m;
    m.post(name, {scalar_arg(m.var(a)), scalar_arg(m.var(b)), scalar_arg(m.var(c))});
    return m.check().ok;
  };
  EXPECT_FALSE(check3("int_plus", int64_max, 1, int64_min));
  EXPECT_FALSE(check3("int_minus", int64_min, 1, int64_max));
  EXPECT_FALSE(check3("int_times", int64_min, -1, int64_min));
  EXPECT_FALSE(check3("int_div", int64_min, -1, int64_min));
  EXPECT_TRUE(check3("int_mod", int64_min, -1, 0));
  EXPECT_TRUE(check3("int_div", int64_min, 1, int64_min));
  EXPECT_FALSE(check3("int_pow", 2, 64, 0));  // 2^64 wraps to 0 in 64 bits
  EXPECT_TRUE(check3("int_pow", -2, 63, int64_min));
  EXPECT_TRUE(check3("int_pow", 2, 62, std::int64_t(1) << 62));
  EXPECT_FALSE(check3("int_pow", 3, 1000000, 0));
  EXPECT_TRUE(check3("int_pow", -1, int64_max, -1));
  EXPECT_TRUE(check3("int_pow", 1, int64_max, 1));

  ModelBuilder m;
  m.post("int_abs", {scalar_arg(m.var(int64_min)), scalar_arg(m.var(int64_min))});
  EXPECT_FALSE(m.check().ok);
}

TEST(CheckerDivision, TruncatesTowardZeroAndModTakesTheDividendsSign) {
  struct Div {
    std::int64_t a, b, quotient, remainder;
  };
  for (const Div& d : {Div{7, 2, 3, 1}, Div{-7, 2, -3, -1}, Div{7, -2, -3, 1}, Div{-7, -2, 3, -1}, Div{6, 3, 2, 0},
                       Div{-6, 3, -2, 0}, Div{0, -5, 0, 0}}) {
    for (std::int64_t delta : {0, -1, 1}) {
      ModelBuilder b;
      b.post("int_div", {scalar_arg(b.var(d.a)), scalar_arg(b.var(d.b)), scalar_arg(b.var(d.quotient + delta))});
      EXPECT_EQ(b.check().ok, delta == 0) << d.a << " div " << d.b << " = " << d.quotient + delta;
      ModelBuilder c;
      c.post("int_mod", {scalar_arg(c.var(d.a)), scalar_arg(c.var(d.b)), scalar_arg(c.var(d.remainder + delta))});
      EXPECT_EQ(c.check().ok, delta == 0) << d.a << " mod " << d.b << " = " << d.remainder + delta;
    }
  }
}

TEST(CheckerDivision, DivisionByZeroIsAViolation) {
  for (const char* name : {"int_div", "int_mod"}) {
    for (std::int64_t c : {0, 1, -1}) {
      ModelBuilder b;
      b.post(name, {scalar_arg(b.var(7)), scalar_arg(b.var(0)), scalar_arg(b.var(c))});
      const CheckResult r = b.check();
      EXPECT_FALSE(r.ok) << name << " " << c;
      EXPECT_NE(r.message.find("division by zero"), std::string::npos) << r.message;
    }
  }
}

// x^y for y < 0 is 1 div x^-y (redefinitions-2.2.1.mzn), so (-1)^y goes by parity and 0^y is undefined.
TEST(CheckerPow, NegativeExponentsFollowMiniZinc) {
  struct Pow {
    std::int64_t x, y, z;
    bool ok;
  };
  for (const Pow& p : {Pow{1, -1, 1, true}, Pow{1, -7, 1, true}, Pow{-1, -1, -1, true}, Pow{-1, -2, 1, true},
                       Pow{-1, -3, -1, true}, Pow{-1, -3, 1, false}, Pow{2, -1, 0, true}, Pow{-5, -2, 0, true},
                       Pow{2, -1, 1, false}, Pow{0, -1, 0, false}, Pow{0, -1, 1, false}, Pow{0, 0, 1, true},
                       Pow{0, 3, 0, true}, Pow{5, 0, 1, true}, Pow{-3, 3, -27, true}, Pow{-3, 2, 9, true}}) {
    for (const char* name : {"int_pow", "int_pow_fixed"}) {
      ModelBuilder b;
      b.post(name, {scalar_arg(b.var(p.x)), scalar_arg(Term::constant(p.y)), scalar_arg(b.var(p.z))});
      EXPECT_EQ(b.check().ok, p.ok) << name << "(" << p.x << ", " << p.y << ", " << p.z << ")";
    }
  }
}

TEST(CheckerMalformed, WrongArityKindOrValuesAreFailures) {
  {
    ModelBuilder b;
    b.post("int_le", {scalar_arg(b.var(1)), scalar_arg(b.var(2)), scalar_arg(b.var(3))});
    const CheckResult r = b.check();
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.message.find("malformed"), std::string::npos) << r.message;
  }
  {
    ModelBuilder b;
    b.post("bool_xor", {scalar_arg(b.var(1))});
    const CheckResult r = b.check();
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.message.find("2 or 3"), std::string::npos) << r.message;
  }
  {
    ModelBuilder b;
    b.post("int_lin_eq", {scalar_arg(Term::constant(1)), array_arg({b.var(1)}), scalar_arg(Term::constant(1))});
    const CheckResult r = b.check();
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.message.find("argument 1"), std::string::npos) << r.message;
  }
  {
    ModelBuilder b;
    b.post("int_lin_eq",
           {array_arg({Term::constant(1), Term::constant(1)}), array_arg({b.var(1)}), scalar_arg(Term::constant(1))});
    EXPECT_FALSE(b.check().ok);
  }
  {
    ModelBuilder b;
    b.post("set_in", {scalar_arg(b.var(1)), array_arg({Term::constant(1)})});
    EXPECT_FALSE(b.check().ok);
  }
  {
    ModelBuilder b;
    b.post("int_eq", {scalar_arg(b.var(1)), scalar_arg(Term::variable(5))});
    const CheckResult r = b.check();
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.message.find("variable index 5"), std::string::npos) << r.message;
  }
  {
    // A bool argument holding 2 would make bool_and(2, 1, 1) "hold" under C++ truthiness.
    ModelBuilder b;
    b.post("bool_and", {scalar_arg(b.var(2, "a")), scalar_arg(b.var(1)), scalar_arg(b.var(1))});
    const CheckResult r = check_constraint(b.model(), b.model().constraints[0], b.values());
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.message.find("a(=2)"), std::string::npos) << r.message;
  }
  {
    ModelBuilder b;
    b.post("bool_clause", {array_arg({Term::constant(3)}), array_arg({})});
    EXPECT_FALSE(b.check().ok);
  }
}

TEST(CheckerSolution, ReportsTheFirstViolatedConstraint) {
  ModelBuilder b;
  const Term x = b.var(1, "x");
  const Term y = b.var(2, "y");
  b.post("int_le", {scalar_arg(x), scalar_arg(y)}, 1, 1);
  b.post("int_eq", {scalar_arg(x), scalar_arg(y)}, 2, 1);
  b.post("int_lt", {scalar_arg(y), scalar_arg(x)}, 3, 1);
  const CheckResult r = b.check();
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.message, "constraint int_eq at test.fzn:2:1 violated: x(=1) = y(=2) is false");
}

TEST(CheckerSolution, DomainsAreCheckedBeforeConstraints) {
  ModelBuilder b;
  const Term x = b.var(9, "x", VarType::int_, make_set({{0, 5}}));
  b.post("int_eq", {scalar_arg(x), scalar_arg(Term::constant(0))});
  const CheckResult r = b.check();
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.message.rfind("variable x", 0), 0u) << r.message;
}

TEST(CheckerSolution, WrongNumberOfValuesFails) {
  ModelBuilder b;
  b.var(1);
  b.var(2);
  b.values().pop_back();
  EXPECT_FALSE(b.check().ok);
}

TEST(CheckerSolution, SatisfiedModelIsOk) {
  ModelBuilder b;
  const Term x = b.var(2, "x", VarType::int_, make_set({{0, 5}}));
  const Term y = b.var(3, "y", VarType::int_, make_set({{0, 5}}));
  const Term r = b.var(1, "r", VarType::bool_, make_set({{0, 1}}));
  b.post("int_lin_eq",
         {array_arg({Term::constant(1), Term::constant(1)}), array_arg({x, y}), scalar_arg(Term::constant(5))});
  b.post("int_lt_reif", {scalar_arg(x), scalar_arg(y), scalar_arg(r)});
  b.post("bool2int", {scalar_arg(r), scalar_arg(Term::constant(1))});
  const CheckResult result = b.check();
  EXPECT_TRUE(result.ok) << result.message;
  EXPECT_TRUE(result.message.empty());
}

}  // namespace
}  // namespace kcp::fzn
