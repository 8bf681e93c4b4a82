// The registry: every supported builtin, its signature and how it compiles (the table in
// solver/compile.cpp's header comment says onto which families).
#include "solver/compile/compiler.hpp"

namespace kcp::compile_impl {

namespace {
/// bool_clause(as, bs), reified by argument 2 unless `mode` is none: -sum as + sum bs <= |bs| - 1.
void clause(Compiler& cc, const Constraint& c, Reification mode) {
  LinearExpr e = cc.sum(c, 0, -1);
  for (const Term& t : cc.array(c, 1)) cc.add(e, 1, t, c.loc);
  cc.post(LinearKind::le, e, static_cast<Int128>(cc.array(c, 1).size()) - 1, c.loc, mode,
          mode == Reification::none ? StoreRefTerm{} : cc.ref(cc.scalar(c, 2)));
}
}  // namespace

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
      // Some as[i] true or some bs[j] false: -sum as + sum bs <= |bs| - 1 (bool_clause_reif/_imp: b <-> / b -> it).
      {"bool_clause", {"BB", [](C cc, Con c) { clause(cc, c, R::none); }}},
      {"bool_clause_reif", {"BBb", [](C cc, Con c) { clause(cc, c, R::equivalent); }}},
      {"bool_clause_imp", {"BBb", [](C cc, Con c) { clause(cc, c, R::implied); }}},
      {"bool2int", {"bi", [](C cc, Con c) { cc.relation(c, 1, -1, K::eq, 0); }}},
      {"bool_lin_eq", {"IBi", [](C cc, Con c) { cc.linear(c, K::eq); }}},
      {"bool_lin_le", {"IBi", [](C cc, Con c) { cc.linear(c, K::le); }}},
  };
  return r;
}
}  // namespace kcp::compile_impl
