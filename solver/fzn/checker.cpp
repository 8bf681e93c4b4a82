#include "solver/fzn/checker.hpp"

#include "solver/int128.hpp"

#include <algorithm>
#include <map>
#include <cstddef>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kcp::fzn {
namespace {

using kcp::Int128;
using kcp::UInt128;

/// Arrays and sets longer than this are abbreviated in messages: a failure report should stay readable
/// even for a constraint over a hundred thousand variables.
constexpr std::size_t max_shown = 64;

std::string to_string(Int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  // Negating in unsigned arithmetic keeps the most negative value representable.
  UInt128 magnitude = negative ? UInt128(0) - UInt128(v) : UInt128(v);
  std::string digits;
  while (magnitude != 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  }
  if (negative) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

/// An exact signed sum hi * 2^128 + lo (lo unsigned). A linear term a*x fits 127 bits, but a sum of
/// three such terms may not, so the sum carries into a 64-bit high word instead of wrapping.
class WideSum {
 public:
  void add(Int128 v) {
    const UInt128 next = lo_ + static_cast<UInt128>(v);
    // v's two's complement is (v < 0 ? -1 : 0) * 2^128 + UInt128(v); the low words' carry goes up.
    hi_ += (next < lo_ ? 1 : 0) - (v < 0 ? 1 : 0);
    lo_ = next;
  }
  /// Negative, zero or positive as the sum is less than, equal to or greater than c.
  int compare(Int128 c) const {
    WideSum other;
    other.add(c);
    if (hi_ != other.hi_) return hi_ < other.hi_ ? -1 : 1;
    if (lo_ != other.lo_) return lo_ < other.lo_ ? -1 : 1;
    return 0;
  }
  std::string str() const {
    const UInt128 sign_bit = UInt128(1) << 127;
    if ((hi_ == 0 && lo_ < sign_bit) || (hi_ == -1 && lo_ >= sign_bit)) {
      return to_string(static_cast<Int128>(lo_));
    }
    return hi_ < 0 ? "below -2^127" : "above 2^127";
  }

 private:
  UInt128 lo_ = 0;
  std::int64_t hi_ = 0;
};

/// IntSet::contains lives in model.cpp with the parser; the checker keeps its own so that it depends
/// on nothing but the data layout it checks against.
bool set_contains(const IntSet& s, std::int64_t v) {
  const auto it =
      std::lower_bound(s.ranges.begin(), s.ranges.end(), v,
                       [](const std::pair<std::int64_t, std::int64_t>& r, std::int64_t x) { return r.second < x; });
  return it != s.ranges.end() && it->first <= v;
}

std::string show_set(const IntSet& s) {
  std::string out = "{";
  for (std::size_t i = 0; i < s.ranges.size(); ++i) {
    if (i == max_shown) {
      out += ", ... (" + std::to_string(s.ranges.size() - i) + " more ranges)";
      break;
    }
    if (i > 0) out += ", ";
    const auto& [lo, hi] = s.ranges[i];
    out += std::to_string(lo);
    if (hi != lo) out += ".." + std::to_string(hi);
  }
  return out + "}";
}

std::string where(const Model& model, const Location& loc) {
  return (model.file.empty() ? std::string("<input>") : model.file) + ":" + std::to_string(loc.line) + ":" +
         std::to_string(loc.column);
}

/// One constraint's arguments under one assignment. Only built after the call has been validated
/// against its builtin's signature, so every accessor may assume the argument has the right kind and
/// every variable index is in range.
class Call {
 public:
  Call(const Model& model, const Constraint& c, const std::vector<std::int64_t>& values)
      : model_(model), c_(c), values_(values) {}

  std::int64_t value(const Term& t) const {
    return t.is_constant() ? t.value : values_[static_cast<std::size_t>(t.var)];
  }
  std::string show(const Term& t) const {
    if (t.is_constant()) return std::to_string(t.value);
    return model_.variables[static_cast<std::size_t>(t.var)].name + "(=" + std::to_string(value(t)) + ")";
  }

  /// Scalar argument i: its value, its truth (bool arguments are validated to be 0/1), its text.
  std::int64_t val(std::size_t i) const { return value(c_.args[i].scalar); }
  bool truth(std::size_t i) const { return val(i) != 0; }
  std::string str(std::size_t i) const { return show(c_.args[i].scalar); }

  const std::vector<Term>& array(std::size_t i) const { return c_.args[i].array; }
  const IntSet& set(std::size_t i) const { return c_.args[i].set; }

  /// The terms joined by sep, each through fmt, abbreviated after max_shown; `empty` when there are none.
  template <class Fmt>
  std::string join(const std::vector<Term>& terms, const std::string& sep, const std::string& empty, Fmt fmt) const {
    if (terms.empty()) return empty;
    std::string out;
    for (std::size_t i = 0; i < terms.size(); ++i) {
      if (i == max_shown) {
        out += sep + "... (" + std::to_string(terms.size() - i) + " more)";
        break;
      }
      if (i > 0) out += sep;
      out += fmt(terms[i]);
    }
    return out;
  }
  std::string show_array(std::size_t i) const {
    return "[" + join(array(i), ", ", "", [this](const Term& t) { return show(t); }) + "]";
  }

 private:
  const Model& model_;
  const Constraint& c_;
  const std::vector<std::int64_t>& values_;
};

/// A builtin's verdict. The texts are built only when a failure is reported: check_solution runs once
/// per solution over every constraint, and almost all of them hold.
struct Verdict {
  bool holds = false;
  std::function<std::string()> statement;  ///< what must hold, with the arguments' values
  std::function<std::string()> note;       ///< why it cannot hold where the statement does not say; may be empty
};

using CheckFn = std::function<Verdict(const Call&)>;

/// Signature letters: i int, b bool (value must be 0/1), I array of int, B array of bool, S constant set.
struct Builtin {
  std::string name;
  std::string signature;
  CheckFn check;
  bool paired_arrays = false;  ///< arguments 1 and 2 are arrays of equal length (coefficients, terms)
};

enum class Cmp { eq, ne, le, lt };

const char* symbol(Cmp cmp) {
  switch (cmp) {
    case Cmp::eq:
      return "=";
    case Cmp::ne:
      return "!=";
    case Cmp::le:
      return "<=";
    case Cmp::lt:
      return "<";
  }
  return "?";
}

/// Whether a relation holds given the sign of lhs - rhs.
bool holds(Cmp cmp, int sign) {
  switch (cmp) {
    case Cmp::eq:
      return sign == 0;
    case Cmp::ne:
      return sign != 0;
    case Cmp::le:
      return sign <= 0;
    case Cmp::lt:
      return sign < 0;
  }
  return false;
}

int sign_of(Int128 a, Int128 b) { return a < b ? -1 : (a > b ? 1 : 0); }

/// r <-> base, with r the scalar argument r_index.
Verdict reified(const Call& call, std::size_t r_index, Verdict base) {
  const bool r = call.truth(r_index);
  auto inner = base.statement;
  return {r == base.holds, [&call, r_index, inner] { return call.str(r_index) + " <-> (" + inner() + ")"; }, base.note};
}

/// r -> base, with r the scalar argument r_index.
Verdict implied(const Call& call, std::size_t r_index, Verdict base) {
  const bool r = call.truth(r_index);
  auto inner = base.statement;
  return {!r || base.holds, [&call, r_index, inner] { return call.str(r_index) + " -> (" + inner() + ")"; }, base.note};
}

/// x cmp y over scalar arguments 0 and 1 (ints, or bools as 0/1).
CheckFn comparison(Cmp cmp) {
  return [cmp](const Call& call) {
    return Verdict{holds(cmp, sign_of(call.val(0), call.val(1))),
                   [&call, cmp] { return call.str(0) + " " + symbol(cmp) + " " + call.str(1); },
                   {}};
  };
}

/// sum_i as[i] * bs[i] cmp c, for arguments (as, bs, c); exact whatever the magnitudes.
CheckFn linear(Cmp cmp) {
  return [cmp](const Call& call) {
    const std::vector<Term>& coeffs = call.array(0);
    const std::vector<Term>& terms = call.array(1);
    WideSum sum;
    for (std::size_t i = 0; i < coeffs.size(); ++i) {
      sum.add(Int128(call.value(coeffs[i])) * Int128(call.value(terms[i])));
    }
    auto statement = [&call, cmp] {
      const std::vector<Term>& as = call.array(0);
      const std::vector<Term>& bs = call.array(1);
      std::string out;
      for (std::size_t i = 0; i < as.size(); ++i) {
        if (i == max_shown) {
          out += " + ... (" + std::to_string(as.size() - i) + " more terms)";
          break;
        }
        const Term& a = as[i];
        if (a.is_variable()) {
          out += (i > 0 ? " + " : "") + call.show(a);
        } else if (i > 0 && a.value < 0) {
          out += " - " + to_string(-Int128(a.value));
        } else {
          out += (i > 0 ? " + " : "") + std::to_string(a.value);
        }
        out.append("*").append(call.show(bs[i]));  // not "*" + ...: GCC 12 C++20 -Wrestrict (bug 105329)
      }
      if (as.empty()) out = "0";
      return out + " " + symbol(cmp) + " " + call.str(2);
    };
    std::function<std::string()> note;
    // The sum is only shown when some terms are not: otherwise the reader can see it.
    if (coeffs.size() > max_shown) note = [sum] { return "the sum is " + sum.str(); };
    return Verdict{holds(cmp, sum.compare(call.val(2))), statement, note};
  };
}

/// Registers name (plain), name_reif and name_imp for a relation over the arguments in signature.
void add_family(std::vector<Builtin>& table, const std::string& name, const std::string& signature,
                const CheckFn& relation, bool paired_arrays = false) {
  const std::size_t r = signature.size();
  table.push_back({name, signature, relation, paired_arrays});
  table.push_back({name + "_reif", signature + "b",
                   [relation, r](const Call& call) { return reified(call, r, relation(call)); }, paired_arrays});
  table.push_back({name + "_imp", signature + "b",
                   [relation, r](const Call& call) { return implied(call, r, relation(call)); }, paired_arrays});
}

/// x op y = z for scalar arguments (x, y, z), where op(x, y) is total on 64-bit inputs in 128 bits.
template <class Op>
CheckFn arithmetic(const std::string& format_before, const std::string& format_between, const std::string& format_after,
                   Op op) {
  return [=](const Call& call) {
    return Verdict{op(Int128(call.val(0)), Int128(call.val(1))) == Int128(call.val(2)),
                   [&call, format_before, format_between, format_after] {
                     return format_before + call.str(0) + format_between + call.str(1) + format_after + " = " +
                            call.str(2);
                   },
                   {}};
  };
}

/// int_div / int_mod: truncating division (C++'s, and MiniZinc's); a zero divisor makes them false,
/// since the std lib constrains the divisor to be nonzero wherever the result is used.
CheckFn division(bool remainder) {
  return [remainder](const Call& call) {
    const Int128 a = call.val(0);
    const Int128 b = call.val(1);
    auto statement = [&call, remainder] {
      return call.str(0) + (remainder ? " mod " : " div ") + call.str(1) + " = " + call.str(2);
    };
    if (b == 0) return Verdict{false, statement, [] { return std::string("division by zero"); }};
    // In 128 bits, INT64_MIN div -1 is 2^63, which no 64-bit result equals.
    return Verdict{(remainder ? a % b : a / b) == Int128(call.val(2)), statement, {}};
  };
}

/// x^y as the FlatZinc builtin is documented (flatzinc_builtins.mzn, and redefinitions-2.2.1.mzn's
/// decomposition of int_pow_fixed): 1 when y = 0 (0^0 included), 1 div x^-y when y < 0, which is
/// undefined for x = 0 and gives (-1)^y by parity for x = -1. (MiniZinc 2.6's evaluation of par pow
/// gives 0 for (-1)^-1, contradicting its own decomposition; the decomposition is what a solver
/// without a native int_pow_fixed receives, so it is the one followed here.) A result beyond 64 bits is
/// returned as some value beyond 64 bits, which is all a comparison with a 64-bit z needs.
bool power(Int128 x, Int128 y, Int128& result) {
  if (y < 0) {
    if (x == 0) return false;
    result = x == 1 ? 1 : (x == -1 ? ((y % 2 == 0) ? 1 : -1) : 0);
    return true;
  }
  if (x == 0 || x == 1) {
    result = (y == 0) ? 1 : x;
    return true;
  }
  if (x == -1) {
    result = (y % 2 == 0) ? 1 : -1;
    return true;
  }
  // |x| >= 2, so the loop leaves 64 bits within 64 steps; |result| <= 2^63 before each step keeps the
  // product within 2^126.
  const Int128 limit = Int128(1) << 63;
  result = 1;
  for (Int128 i = 0; i < y; ++i) {
    result *= x;
    if (result > limit || result < -limit) return true;
  }
  return true;
}

CheckFn pow_check() {
  return [](const Call& call) {
    Int128 result = 0;
    const bool defined = power(call.val(0), call.val(1), result);
    auto statement = [&call] { return "pow(" + call.str(0) + ", " + call.str(1) + ") = " + call.str(2); };
    if (!defined) return Verdict{false, statement, [] { return std::string("0 to a negative power is undefined"); }};
    return Verdict{result == Int128(call.val(2)), statement, {}};
  };
}

/// as[b] = c for (b, as, c), with FlatZinc's 1-based index; an index outside the array makes it false.
Verdict element(const Call& call) {
  const std::int64_t index = call.val(0);
  const std::vector<Term>& as = call.array(1);
  auto statement = [&call] { return call.show_array(1) + "[" + call.str(0) + "] = " + call.str(2); };
  const auto n = static_cast<std::int64_t>(as.size());
  if (index < 1 || index > n) {
    return Verdict{false, statement, [n] { return "the index is outside 1.." + std::to_string(n); }};
  }
  const Term& chosen = as[static_cast<std::size_t>(index - 1)];
  return Verdict{call.value(chosen) == call.val(2), statement,
                 [&call, index, chosen] { return "element " + std::to_string(index) + " is " + call.show(chosen); }};
}

/// kcp_all_different_int(x): the values are pairwise different (the definition, not kcp's propagator).
Verdict all_different(const Call& call) {
  const std::vector<Term>& xs = call.array(0);
  auto statement = [&call] { return "all_different(" + call.show_array(0) + ")"; };
  std::map<std::int64_t, std::size_t> first;
  for (std::size_t j = 0; j < xs.size(); ++j) {
    const auto [it, fresh] = first.try_emplace(call.value(xs[j]), j);
    if (fresh) continue;
    const std::size_t i = it->second;
    return Verdict{false, statement, [&call, i, j, v = it->first] {
                     return "elements " + std::to_string(i + 1) + " and " + std::to_string(j + 1) + " are both " +
                            std::to_string(v);
                   }};
  }
  return Verdict{true, statement, {}};
}

/// kcp_cumulative(s, d, r, b): at every time t the uses r_i of the tasks with s_i <= t < s_i + d_i add
/// up to at most b, no duration or use is negative (cumulative's assumption), and b >= 0 unless there
/// is no task (MiniZinc's fzn_cumulative). The use is highest at some task's start, so the starts are
/// the times to check.
Verdict cumulative(const Call& call) {
  const std::vector<Term>& s = call.array(0);
  const std::vector<Term>& d = call.array(1);
  const std::vector<Term>& r = call.array(2);
  auto statement = [&call] {
    return "cumulative(" + call.show_array(0) + ", " + call.show_array(1) + ", " + call.show_array(2) + ", " +
           call.str(3) + ")";
  };
  if (d.size() != s.size() || r.size() != s.size())
    return Verdict{false, statement, [] { return std::string("the arrays differ in length"); }};
  for (std::size_t i = 0; i < s.size(); ++i)
    if (call.value(d[i]) < 0 || call.value(r[i]) < 0)
      return Verdict{false, statement, [i] { return "task " + std::to_string(i + 1) + " has a negative duration or use"; }};
  const Int128 cap = call.val(3);
  // MiniZinc's definition: with any task at all, b >= 0 (also where no task uses anything).
  if (cap < 0 && !s.empty())
    return Verdict{false, statement, [] { return std::string("the capacity is negative"); }};
  for (std::size_t k = 0; k < s.size(); ++k) {
    const Int128 t = call.value(s[k]);
    if (call.value(d[k]) == 0) continue;
    Int128 used = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const Int128 si = call.value(s[i]);
      if (si <= t && t < si + Int128(call.value(d[i]))) used += call.value(r[i]);
    }
    if (used > cap)
      return Verdict{false, statement, [t, used] {
                       return "at time " + to_string(t) + " the tasks use " + to_string(used);
                     }};
  }
  return Verdict{true, statement, {}};
}

/// kcp_table_int / kcp_table_bool(x, t): x equals one of t's rows (t has a multiple of |x| cells).
Verdict table(const Call& call) {
  const std::vector<Term>& xs = call.array(0);
  const std::vector<Term>& t = call.array(1);
  auto statement = [&call] { return "table(" + call.show_array(0) + ", " + call.show_array(1) + ")"; };
  const std::size_t k = xs.size();
  if (k == 0) return Verdict{t.empty(), statement, [] { return std::string("cells for no variable"); }};
  if (t.size() % k != 0)
    return Verdict{false, statement, [] { return std::string("the cells do not make whole rows"); }};
  for (std::size_t r = 0; r < t.size() / k; ++r) {
    bool same = true;
    for (std::size_t i = 0; i < k && same; ++i) same = call.value(t[r * k + i]) == call.value(xs[i]);
    if (same) return Verdict{true, statement, {}};
  }
  return Verdict{false, statement, [] { return std::string("no row is the assignment"); }};
}

/// m = min(x) or m = max(x) for (m, x); an empty array has neither, so that is false.
CheckFn extremum(bool maximum) {
  return [maximum](const Call& call) {
    const std::vector<Term>& xs = call.array(1);
    auto statement = [&call, maximum] {
      return call.str(0) + " = " + (maximum ? "max(" : "min(") + call.show_array(1) + ")";
    };
    if (xs.empty()) return Verdict{false, statement, [] { return std::string("the array is empty"); }};
    std::int64_t best = call.value(xs[0]);
    for (const Term& x : xs) best = maximum ? std::max(best, call.value(x)) : std::min(best, call.value(x));
    return Verdict{best == call.val(0), statement, [best, maximum] {
                     return std::string(maximum ? "the maximum" : "the minimum") + " is " + std::to_string(best);
                   }};
  };
}

/// x in S for (x, S).
Verdict membership(const Call& call) {
  return Verdict{
      set_contains(call.set(1), call.val(0)), [&call] { return call.str(0) + " in " + show_set(call.set(1)); }, {}};
}

/// a op b for bool scalar arguments 0 and 1.
CheckFn bool_binary(const std::string& op, bool (*f)(bool, bool)) {
  return [op, f](const Call& call) {
    return Verdict{
        f(call.truth(0), call.truth(1)), [&call, op] { return call.str(0) + " " + op + " " + call.str(1); }, {}};
  };
}

/// The conjunction (all), disjunction (any) or parity (odd) of the bool array argument 0.
enum class Fold { all, any, odd };

CheckFn bool_fold(Fold fold) {
  return [fold](const Call& call) {
    const std::vector<Term>& xs = call.array(0);
    const auto true_count = static_cast<std::size_t>(
        std::count_if(xs.begin(), xs.end(), [&call](const Term& t) { return call.value(t) != 0; }));
    const bool result =
        fold == Fold::all ? true_count == xs.size() : (fold == Fold::any ? true_count > 0 : true_count % 2 == 1);
    return Verdict{result,
                   [&call, fold] {
                     const char* sep = fold == Fold::all ? " /\\ " : (fold == Fold::any ? " \\/ " : " xor ");
                     const char* empty = fold == Fold::all ? "true" : "false";
                     return call.join(call.array(0), sep, empty, [&call](const Term& t) { return call.show(t); });
                   },
                   {}};
  };
}

/// bool_clause(as, bs): some as[i] is true or some bs[j] is false.
Verdict clause(const Call& call) {
  const std::vector<Term>& pos = call.array(0);
  const std::vector<Term>& neg = call.array(1);
  const bool result = std::any_of(pos.begin(), pos.end(), [&call](const Term& t) { return call.value(t) != 0; }) ||
                      std::any_of(neg.begin(), neg.end(), [&call](const Term& t) { return call.value(t) == 0; });
  return Verdict{result,
                 [&call] {
                   const std::string p =
                       call.join(call.array(0), " \\/ ", "", [&call](const Term& t) { return call.show(t); });
                   const std::string n =
                       call.join(call.array(1), " \\/ ", "", [&call](const Term& t) { return "not " + call.show(t); });
                   if (p.empty() && n.empty()) return std::string("false");
                   return p + (!p.empty() && !n.empty() ? " \\/ " : "") + n;
                 },
                 {}};
}

std::vector<Builtin> make_table() {
  std::vector<Builtin> t;
  auto add = [&t](const std::string& name, const std::string& signature, const CheckFn& check) {
    t.push_back({name, signature, check, false});
  };

  // flatzinc_builtins.mzn, "int" group, and the _imp forms of solver libraries with half reification.
  add_family(t, "int_eq", "ii", comparison(Cmp::eq));
  add_family(t, "int_ne", "ii", comparison(Cmp::ne));
  add_family(t, "int_le", "ii", comparison(Cmp::le));
  add_family(t, "int_lt", "ii", comparison(Cmp::lt));
  add_family(t, "int_lin_eq", "IIi", linear(Cmp::eq), true);
  add_family(t, "int_lin_ne", "IIi", linear(Cmp::ne), true);
  add_family(t, "int_lin_le", "IIi", linear(Cmp::le), true);
  add("int_plus", "iii", arithmetic("", " + ", "", [](Int128 a, Int128 b) { return a + b; }));
  add("int_minus", "iii", arithmetic("", " - ", "", [](Int128 a, Int128 b) { return a - b; }));
  add("int_times", "iii", arithmetic("", " * ", "", [](Int128 a, Int128 b) { return a * b; }));
  add("int_min", "iii", arithmetic("min(", ", ", ")", [](Int128 a, Int128 b) { return std::min(a, b); }));
  add("int_max", "iii", arithmetic("max(", ", ", ")", [](Int128 a, Int128 b) { return std::max(a, b); }));
  add("int_div", "iii", division(false));
  add("int_mod", "iii", division(true));
  add("int_abs", "ii", [](const Call& call) {
    const Int128 a = call.val(0);
    return Verdict{
        (a < 0 ? -a : a) == Int128(call.val(1)), [&call] { return "abs(" + call.str(0) + ") = " + call.str(1); }, {}};
  });
  add("int_pow", "iii", pow_check());
  // Declared by redefinitions-2.2.1.mzn; emitted for solvers that take it natively (y is a parameter).
  add("int_pow_fixed", "iii", pow_check());
  add("array_int_element", "iIi", element);
  add("array_var_int_element", "iIi", element);
  add("array_int_minimum", "iI", extremum(false));
  add("array_int_maximum", "iI", extremum(true));
  // kcp's global builtins (mznlib): checked by their definitions.
  add("kcp_all_different_int", "I", all_different);
  add("kcp_cumulative", "IIIi", cumulative);
  add("kcp_table_int", "II", table);
  add("kcp_table_bool", "BB", table);
  add_family(t, "set_in", "iS", membership);

  // flatzinc_builtins.mzn, "bool" group. bool_and/or/xor with three arguments are already reified
  // (r <-> a op b), so their half-reified forms are bool_and_imp etc., and there is no bool_and_reif.
  add_family(t, "bool_eq", "bb", comparison(Cmp::eq));
  add_family(t, "bool_ne", "bb", comparison(Cmp::ne));
  add_family(t, "bool_le", "bb", comparison(Cmp::le));
  add_family(t, "bool_lt", "bb", comparison(Cmp::lt));
  add("bool_not", "bb", [](const Call& call) {
    return Verdict{call.truth(0) != call.truth(1), [&call] { return call.str(1) + " = not " + call.str(0); }, {}};
  });
  const CheckFn conj = bool_binary("/\\", [](bool a, bool b) { return a && b; });
  const CheckFn disj = bool_binary("\\/", [](bool a, bool b) { return a || b; });
  const CheckFn exor = bool_binary("xor", [](bool a, bool b) { return a != b; });
  add("bool_and", "bbb", [conj](const Call& call) { return reified(call, 2, conj(call)); });
  add("bool_and_imp", "bbb", [conj](const Call& call) { return implied(call, 2, conj(call)); });
  add("bool_or", "bbb", [disj](const Call& call) { return reified(call, 2, disj(call)); });
  add("bool_or_imp", "bbb", [disj](const Call& call) { return implied(call, 2, disj(call)); });
  add("bool_xor", "bb", exor);
  add("bool_xor", "bbb", [exor](const Call& call) { return reified(call, 2, exor(call)); });
  add("bool_xor_imp", "bbb", [exor](const Call& call) { return implied(call, 2, exor(call)); });
  const CheckFn all = bool_fold(Fold::all);
  const CheckFn any = bool_fold(Fold::any);
  const CheckFn odd = bool_fold(Fold::odd);
  add("array_bool_and", "Bb", [all](const Call& call) { return reified(call, 1, all(call)); });
  add("array_bool_and_imp", "Bb", [all](const Call& call) { return implied(call, 1, all(call)); });
  add("array_bool_or", "Bb", [any](const Call& call) { return reified(call, 1, any(call)); });
  add("array_bool_or_imp", "Bb", [any](const Call& call) { return implied(call, 1, any(call)); });
  add("array_bool_xor", "B", odd);
  add("array_bool_xor_imp", "Bb", [odd](const Call& call) { return implied(call, 1, odd(call)); });
  add_family(t, "bool_clause", "BB", clause);
  add("array_bool_element", "iBb", element);
  add("array_var_bool_element", "iBb", element);
  add("bool2int", "bi", [](const Call& call) {
    return Verdict{
        call.val(0) == call.val(1), [&call] { return call.str(1) + " = bool2int(" + call.str(0) + ")"; }, {}};
  });
  t.push_back({"bool_lin_eq", "IBi", linear(Cmp::eq), true});
  t.push_back({"bool_lin_le", "IBi", linear(Cmp::le), true});
  return t;
}

const std::vector<Builtin>& table() {
  static const std::vector<Builtin> builtins = make_table();
  return builtins;
}

/// Name -> the table's overloads of it (bool_xor has two arities).
const std::unordered_map<std::string, std::vector<const Builtin*>>& by_name() {
  static const auto index = [] {
    std::unordered_map<std::string, std::vector<const Builtin*>> m;
    for (const Builtin& b : table()) m[b.name].push_back(&b);
    return m;
  }();
  return index;
}

/// Why the call does not fit the builtin's signature, or "" when it does. Run before evaluation so that
/// the builtins can index freely.
std::string validate(const Builtin& b, const Model& model, const Constraint& c,
                     const std::vector<std::int64_t>& values) {
  const std::size_t var_count = std::min(model.variables.size(), values.size());
  for (std::size_t i = 0; i < b.signature.size(); ++i) {
    const char letter = b.signature[i];
    const Arg& arg = c.args[i];
    auto which = [i] { return "argument " + std::to_string(i + 1); };
    const Arg::Kind expected =
        (letter == 'i' || letter == 'b') ? Arg::Kind::scalar : (letter == 'S' ? Arg::Kind::set : Arg::Kind::array);
    if (arg.kind != expected)
      return which() + " should be " + describe_signature_letter(letter) + " but is " + describe(arg.kind);
    if (arg.kind == Arg::Kind::set) continue;
    const bool boolean = letter == 'b' || letter == 'B';
    auto bad_term = [&](const Term& t) -> std::string {
      if (t.is_variable() && (t.var < 0 || static_cast<std::size_t>(t.var) >= var_count)) {
        return which() + " refers to variable index " + std::to_string(t.var) + ", but there are only " +
               std::to_string(var_count) + " variables with values";
      }
      const std::int64_t v = t.is_constant() ? t.value : values[static_cast<std::size_t>(t.var)];
      if (boolean && v != 0 && v != 1) {
        const std::string shown =
            t.is_constant() ? std::to_string(v)
                            : model.variables[static_cast<std::size_t>(t.var)].name + "(=" + std::to_string(v) + ")";
        return which() + " should be " + describe_signature_letter(letter) + " but holds " + shown +
               ", which is not 0 or 1";
      }
      return "";
    };
    if (arg.kind == Arg::Kind::scalar) {
      if (std::string problem = bad_term(arg.scalar); !problem.empty()) return problem;
    } else {
      for (const Term& t : arg.array) {
        if (std::string problem = bad_term(t); !problem.empty()) return problem;
      }
    }
  }
  if (b.paired_arrays && c.args[0].array.size() != c.args[1].array.size()) {
    return "the coefficient array has " + std::to_string(c.args[0].array.size()) + " elements but the term array has " +
           std::to_string(c.args[1].array.size());
  }
  return "";
}

CheckResult failure(std::string message) { return {false, std::move(message)}; }

}  // namespace

CheckResult check_constraint(const Model& model, const Constraint& c, const std::vector<std::int64_t>& values) {
  // Built only on failure: this runs for every constraint of every solution.
  auto head = [&] { return "constraint " + c.name + " at " + where(model, c.loc); };
  const auto found = by_name().find(c.name);
  if (found == by_name().end()) {
    return failure(head() + " uses the unknown builtin " + c.name + ", which the checker cannot evaluate");
  }
  const Builtin* builtin = nullptr;
  for (const Builtin* b : found->second) {
    if (b->signature.size() == c.args.size()) builtin = b;
  }
  if (builtin == nullptr) {
    std::string arities;
    for (const Builtin* b : found->second) {
      arities += (arities.empty() ? "" : " or ") + std::to_string(b->signature.size());
    }
    return failure(head() + " is malformed: it takes " + arities + " arguments, not " + std::to_string(c.args.size()));
  }
  const std::string problem = validate(*builtin, model, c, values);
  if (!problem.empty()) return failure(head() + " is malformed: " + problem);

  const Call call(model, c, values);
  const Verdict verdict = builtin->check(call);
  if (verdict.holds) return {};
  std::string message = head() + " violated: " + verdict.statement() + " is false";
  if (verdict.note) message += " (" + verdict.note() + ")";
  return failure(std::move(message));
}

CheckResult check_solution(const Model& model, const std::vector<std::int64_t>& values) {
  if (values.size() != model.variables.size()) {
    return failure("the solution has " + std::to_string(values.size()) + " values but the model has " +
                   std::to_string(model.variables.size()) + " variables");
  }
  for (std::size_t i = 0; i < model.variables.size(); ++i) {
    const Variable& v = model.variables[i];
    const std::int64_t value = values[i];
    auto head = [&] {
      return "variable " + v.name + " (declared at " + where(model, v.loc) + ") = " + std::to_string(value);
    };
    // A bool's domain is {0..1} even where the parser left it implicit.
    if (v.type == VarType::bool_ && value != 0 && value != 1) return failure(head() + " is not a bool (0 or 1)");
    if (v.domain && !set_contains(*v.domain, value)) {
      return failure(head() + " lies outside its domain " + show_set(*v.domain));
    }
    if (v.alias) {
      const Term& a = *v.alias;
      if (a.is_constant()) {
        if (a.value != value)
          return failure(head() + " disagrees with its alias, the constant " + std::to_string(a.value));
      } else if (a.var < 0 || static_cast<std::size_t>(a.var) >= values.size()) {
        return failure(head() + " is an alias of variable index " + std::to_string(a.var) + ", which does not exist");
      } else if (values[static_cast<std::size_t>(a.var)] != value) {
        const std::size_t j = static_cast<std::size_t>(a.var);
        return failure(head() + " disagrees with its alias " + model.variables[j].name +
                       "(=" + std::to_string(values[j]) + ")");
      }
    }
  }
  for (const Constraint& c : model.constraints) {
    CheckResult r = check_constraint(model, c, values);
    if (!r.ok) return r;
  }
  return {};
}

const std::vector<std::string>& checked_builtins() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Builtin& b : table()) out.push_back(b.name);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }();
  return names;
}

}  // namespace kcp::fzn
