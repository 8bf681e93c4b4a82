#include "solver/preprocess.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <unordered_map>

#include "domains/fixpoint.hpp"
#include "domains/root_fixpoint.hpp"
#include "solver/int128.hpp"

namespace kcp {

Equalities merge_equalities(const fzn::Model& model, VariableClasses& classes) {
  Equalities out;
  out.absorbed.assign(model.constraints.size(), 0);
  const int n = classes.size();
  auto valid = [n](const fzn::Term& t) { return t.is_constant() || (t.var >= 0 && t.var < n); };
  for (std::size_t ci = 0; ci < model.constraints.size(); ++ci) {
    const fzn::Constraint& c = model.constraints[ci];
    const fzn::Term* x = nullptr;
    const fzn::Term* y = nullptr;
    bool boolean = false;
    if ((c.name == "int_eq" || c.name == "bool_eq" || c.name == "bool2int") && c.args.size() == 2 &&
        c.args[0].kind == fzn::Arg::Kind::scalar && c.args[1].kind == fzn::Arg::Kind::scalar) {
      x = &c.args[0].scalar;
      y = &c.args[1].scalar;
      boolean = c.name != "int_eq";
    } else if ((c.name == "int_lin_eq" || c.name == "bool_lin_eq") && c.args.size() == 3 &&
               c.args[0].kind == fzn::Arg::Kind::array && c.args[1].kind == fzn::Arg::Kind::array &&
               c.args[2].kind == fzn::Arg::Kind::scalar) {
      // a*x - a*y = 0 with a != 0.
      const auto& as = c.args[0].array;
      const auto& xs = c.args[1].array;
      const fzn::Term& rhs = c.args[2].scalar;
      if (as.size() != 2 || xs.size() != 2 || !as[0].is_constant() || !as[1].is_constant() || as[0].value == 0 ||
          as[0].value == INT64_MIN || as[1].value != -as[0].value || !rhs.is_constant() || rhs.value != 0)
        continue;
      x = &xs[0];
      y = &xs[1];
    } else {
      continue;
    }
    if (!valid(*x) || !valid(*y)) continue;  // malformed: compile reports it
    if (x->is_variable() && y->is_variable()) {
      classes.unite(x->var, y->var);
      out.absorbed[ci] = 1;
    } else if (x->is_variable() != y->is_variable()) {
      const fzn::Term& v = x->is_variable() ? *x : *y;
      const std::int64_t value = x->is_variable() ? y->value : x->value;
      // bool_eq(b, 2) is malformed rather than unsatisfiable: leave it to compile's argument checks.
      if (boolean && value != 0 && value != 1) continue;
      out.fixings.push_back({v.var, value});
      out.absorbed[ci] = 1;
    }
  }
  return out;
}

RootFixpointResult root_fixpoint(Program& p, std::chrono::steady_clock::time_point deadline) {
  const DeviceProgram<Kokkos::HostSpace> d(p);
  return event_fixpoint(p, d, p.store(), deadline);
}

namespace {

using Clock = std::chrono::steady_clock;

/// x = y op z as the ternary family defines it; false when undefined (a zero divisor, a negative
/// exponent). A power beyond 64 bits comes back as some value beyond the store's range.
bool ternary_value(TernaryOp op, std::int64_t y, std::int64_t z, Int128& x) {
  switch (op) {
    case TernaryOp::add:
      x = Int128(y) + z;
      return true;
    case TernaryOp::mul:
      x = Int128(y) * z;
      return true;
    case TernaryOp::tdiv:
      if (z == 0) return false;
      x = Int128(y) / z;
      return true;
    case TernaryOp::tmod:
      if (z == 0) return false;
      x = Int128(y) % z;
      return true;
    case TernaryOp::min:
      x = std::min(y, z);
      return true;
    case TernaryOp::max:
      x = std::max(y, z);
      return true;
    case TernaryOp::eq_reif:
      x = y == z;
      return true;
    case TernaryOp::le_reif:
      x = y <= z;
      return true;
    case TernaryOp::abs:
      x = y < 0 ? -Int128(y) : Int128(y);
      return true;
    case TernaryOp::pow: {
      if (z < 0) return false;
      if (z == 0) {
        x = 1;  // 0^0 included
      } else if (y == 0 || y == 1) {
        x = y;
      } else if (y == -1) {
        x = z % 2 == 0 ? 1 : -1;
      } else {
        // |y| >= 2: past 2^64 within 64 steps, and nothing beyond the store's range needs the exact value.
        const Int128 limit = Int128(1) << 64;
        x = 1;
        for (std::int64_t i = 0; i < z && x <= limit && x >= -limit; ++i) x *= y;
      }
      return true;
    }
  }
  return false;
}

/// One pass over the program at its current root domains: folds, decides and drops what it can.
class Simplifier {
 public:
  explicit Simplifier(Program& p) : p_(p) {}

  /// The simplified program (same variables; p's domains narrowed in place).
  Program run() {
    for (int r = 0; r < p_.num_rows() && !failed_; ++r) row(r);
    for (const Ternary& t : p_.ternary) {
      if (failed_) break;
      ternary(t);
    }
    // The listed families' constraints stay as they are, but for those their family finds entailed
    // (by default: every variable fixed; the root fixpoint has checked them).
    if (!failed_) {
      const StoreRef<false> s = p_.store();
      for_each_global_family([&](auto family, int f) {
        const FamilyTable& g = p_.global[std::size_t(f)];
        for (int c = 0; c < g.size(); ++c)
          if (!decltype(family)::entailed(g, c, s)) q_.global[std::size_t(f)].append(g, c);
      });
    }
    q_.lb = p_.lb;
    q_.ub = p_.ub;
    q_.bits_at = p_.bits_at;
    q_.bits_base = p_.bits_base;
    q_.bits = p_.bits;
    return std::move(q_);
  }

  bool failed() const { return failed_; }
  /// Some bound narrowed or a propagator changed family: another fixpoint may do more.
  bool changed() const { return changed_; }

 private:
  bool fixed(int x) const { return p_.lb[static_cast<std::size_t>(x)] == p_.ub[static_cast<std::size_t>(x)]; }
  std::int64_t lb(int x) const { return p_.lb[static_cast<std::size_t>(x)]; }
  std::int64_t ub(int x) const { return p_.ub[static_cast<std::size_t>(x)]; }

  /// Through the store, so that a bound landing on a removed value moves on (domains/store.hpp).
  void narrow(int x, Int128 lo, Int128 hi) {
    const auto i = static_cast<std::size_t>(x);
    const StoreRef<false> s = p_.store();
    if (lo > p_.lb[i]) {
      if (lo > p_.ub[i]) {
        failed_ = true;
        return;
      }
      apply(s.narrow_min(x, static_cast<std::int64_t>(lo)));
      if (failed_) return;
    }
    if (hi < p_.ub[i]) {
      if (hi < p_.lb[i]) {
        failed_ = true;
        return;
      }
      apply(s.narrow_max(x, static_cast<std::int64_t>(hi)));
    }
  }
  void apply(int st) {
    if (st & prop_failed) failed_ = true;
    if (st & prop_changed) changed_ = true;
  }

  static Int128 floor_div(Int128 a, Int128 b) {
    const Int128 q = a / b;
    return (q * b != a && ((a < 0) != (b < 0))) ? q - 1 : q;
  }
  static Int128 ceil_div(Int128 a, Int128 b) {
    const Int128 q = a / b;
    return (q * b != a && ((a < 0) == (b < 0))) ? q + 1 : q;
  }

  void copy_row(int r) {
    const auto b = static_cast<std::size_t>(p_.row_begin[static_cast<std::size_t>(r)]);
    const auto e = static_cast<std::size_t>(p_.row_begin[static_cast<std::size_t>(r) + 1]);
    const auto ri = static_cast<std::size_t>(r);
    q_.coef.insert(q_.coef.end(), p_.coef.begin() + static_cast<std::ptrdiff_t>(b),
                   p_.coef.begin() + static_cast<std::ptrdiff_t>(e));
    q_.var.insert(q_.var.end(), p_.var.begin() + static_cast<std::ptrdiff_t>(b),
                  p_.var.begin() + static_cast<std::ptrdiff_t>(e));
    q_.row_begin.push_back(static_cast<std::int32_t>(q_.coef.size()));
    q_.rhs.push_back(p_.rhs[ri]);
    q_.kind.push_back(p_.kind[ri]);
    q_.reif_var.push_back(p_.reif_var[ri]);
    q_.reif_mode.push_back(p_.reif_mode[ri]);
  }

  void row(int r) {
    const auto ri = static_cast<std::size_t>(r);
    auto k = static_cast<LinearKind>(p_.kind[ri]);
    auto mode = static_cast<Reification>(p_.reif_mode[ri]);
    const int b = p_.reif_var[ri];
    Int128 c = p_.rhs[ri];
    a_.clear();
    x_.clear();
    for (auto i = static_cast<std::size_t>(p_.row_begin[ri]); i < static_cast<std::size_t>(p_.row_begin[ri + 1]); ++i) {
      const int x = p_.var[i];
      if (fixed(x)) {
        c -= Int128(p_.coef[i]) * lb(x);
      } else {
        a_.push_back(p_.coef[i]);
        x_.push_back(x);
      }
    }
    if (mode != Reification::none && fixed(b)) {
      if (lb(b) != 0) {
        mode = Reification::none;
      } else if (mode == Reification::implied) {
        return;  // b = 0: the row says nothing
      } else {
        // b = 0: the negation holds.
        negate_row(k, a_, c, [](auto& a) { a = -a; });
        mode = Reification::none;
      }
    }
    Int128 least = 0, most = 0;
    for (std::size_t i = 0; i < a_.size(); ++i) {
      const Int128 a = a_[i];
      least += a > 0 ? a * lb(x_[i]) : a * ub(x_[i]);
      most += a > 0 ? a * ub(x_[i]) : a * lb(x_[i]);
    }
    bool entailed = false, disentailed = false;
    switch (k) {
      case LinearKind::le:
        entailed = most <= c;
        disentailed = least > c;
        break;
      case LinearKind::eq:
        entailed = least == c && most == c;
        disentailed = c < least || c > most;
        break;
      case LinearKind::ne:
        entailed = c < least || c > most;
        disentailed = least == c && most == c;
        break;
    }
    if (mode != Reification::none) {
      if (entailed) {
        if (mode == Reification::equivalent) narrow(b, 1, 1);
        return;
      }
      if (disentailed) {
        narrow(b, 0, 0);
        return;
      }
    } else {
      if (entailed) return;
      if (disentailed) {
        failed_ = true;
        return;
      }
      if (a_.size() == 1) {  // one variable left: a bound (or a hole)
        const Int128 a = a_[0];
        const int x = x_[0];
        switch (k) {
          case LinearKind::le:
            if (a > 0) {
              narrow(x, lb(x), floor_div(c, a));
            } else {
              narrow(x, ceil_div(c, a), ub(x));
            }
            return;
          case LinearKind::eq:
            if (c % a != 0) {
              failed_ = true;
            } else {
              narrow(x, c / a, c / a);
            }
            return;
          case LinearKind::ne: {
            if (c % a != 0) return;  // no integer hits it
            const Int128 v = c / a;
            if (v == lb(x)) {
              narrow(x, v + 1, ub(x));
              return;
            }
            if (v == ub(x)) {
              narrow(x, lb(x), v - 1);
              return;
            }
            if (p_.has_bits(x)) {  // a hole strictly inside: the bitset takes it
              apply(p_.store().remove(x, static_cast<std::int64_t>(v)));
              return;
            }
            break;  // a hole strictly inside a bounds-only domain: keep the row
          }
        }
      }
    }
    if (c >= sum_limit || c <= -sum_limit) {  // folding left a right-hand side rows cannot hold
      copy_row(r);
      return;
    }
    q_.add_row(k, a_, x_, static_cast<std::int64_t>(c), mode == Reification::none ? -1 : b, mode);
  }

  void ternary(const Ternary& t) {
    const bool inputs_fixed = fixed(t.y) && (t.op == TernaryOp::abs || fixed(t.z));
    if (inputs_fixed) {
      Int128 v = 0;
      if (!ternary_value(t.op, lb(t.y), lb(t.z), v)) {
        failed_ = true;
        return;
      }
      narrow(t.x, v, v);
      return;
    }
    if ((t.op == TernaryOp::eq_reif || t.op == TernaryOp::le_reif) && fixed(t.x)) {
      // A decided reified comparison is a plain row: y - z (=, !=, <=) 0 or z - y <= -1.
      const bool truth = lb(t.x) != 0;
      changed_ = true;
      if (t.y == t.z) {
        if (!truth) failed_ = true;  // y = y and y <= y both hold
        return;
      }
      if (t.op == TernaryOp::eq_reif) {
        q_.add_row(truth ? LinearKind::eq : LinearKind::ne, {1, -1}, {t.y, t.z}, 0);
      } else if (truth) {
        q_.add_row(LinearKind::le, {1, -1}, {t.y, t.z}, 0);
      } else {
        q_.add_row(LinearKind::le, {-1, 1}, {t.y, t.z}, -1);
      }
      return;
    }
    q_.ternary.push_back(t);
  }

  Program& p_;
  Program q_;
  bool failed_ = false;
  bool changed_ = false;
  std::vector<std::int32_t> a_;
  std::vector<int> x_;
};

/// Drops the store variables nothing refers to, turns fixed model variables into constants and lets
/// the fixed variables of ternaries and elements share one store variable per value.
void compact(Compiled& cc) {
  Program& p = cc.program;
  const int n = p.num_vars();
  auto fixed = [&p](int x) { return p.lb[static_cast<std::size_t>(x)] == p.ub[static_cast<std::size_t>(x)]; };
  std::vector<char> used(static_cast<std::size_t>(n), 0);
  for (const int x : p.var) used[static_cast<std::size_t>(x)] = 1;
  for (const int b : p.reif_var)
    if (b >= 0) used[static_cast<std::size_t>(b)] = 1;
  for (const Ternary& t : p.ternary) {
    used[static_cast<std::size_t>(t.x)] = 1;
    used[static_cast<std::size_t>(t.y)] = 1;
    used[static_cast<std::size_t>(t.z)] = 1;
  }
  for (const FamilyTable& g : p.global)
    for (const int x : g.vars) used[static_cast<std::size_t>(x)] = 1;

  std::vector<int> canonical(static_cast<std::size_t>(n));
  std::unordered_map<std::int32_t, int> by_value;
  std::vector<char> keep(static_cast<std::size_t>(n), 0);
  for (int x = 0; x < n; ++x) {
    canonical[static_cast<std::size_t>(x)] = x;
    if (used[static_cast<std::size_t>(x)] && fixed(x) && x != cc.objective)
      canonical[static_cast<std::size_t>(x)] = by_value.try_emplace(p.lb[static_cast<std::size_t>(x)], x).first->second;
    if (used[static_cast<std::size_t>(x)]) keep[static_cast<std::size_t>(canonical[static_cast<std::size_t>(x)])] = 1;
  }
  if (cc.objective >= 0) keep[static_cast<std::size_t>(cc.objective)] = 1;
  for (StoreRefTerm& m : cc.model_vars) {
    if (m.is_constant) continue;
    if (fixed(m.var)) {
      m = {true, p.lb[static_cast<std::size_t>(m.var)], -1};
      ++cc.preprocess.fixed_model_variables;
    } else {
      keep[static_cast<std::size_t>(m.var)] = 1;
    }
  }
  std::vector<int> id(static_cast<std::size_t>(n), -1);
  Program q;
  p.fit_layout();
  for (int x = 0; x < n; ++x) {
    if (!keep[static_cast<std::size_t>(x)]) continue;
    const int y = q.add_var(p.lb[static_cast<std::size_t>(x)], p.ub[static_cast<std::size_t>(x)]);
    id[static_cast<std::size_t>(x)] = y;
    if (p.has_bits(x) && !fixed(x)) {
      // The bitset goes along, its words from the first one that holds a value left.
      const std::int64_t base = p.bits_base[static_cast<std::size_t>(x)];
      const std::int64_t first = (std::int64_t(p.lb[static_cast<std::size_t>(x)]) - base) / domain_word_bits;
      const std::int64_t last = (std::int64_t(p.ub[static_cast<std::size_t>(x)]) - base) / domain_word_bits;
      q.bits_at[static_cast<std::size_t>(y)] = static_cast<std::int32_t>(q.bits.size());
      q.bits_base[static_cast<std::size_t>(y)] = static_cast<std::int32_t>(base + first * domain_word_bits);
      for (std::int64_t w = first; w <= last; ++w)
        q.bits.push_back(p.bits[static_cast<std::size_t>(p.bits_at[static_cast<std::size_t>(x)] + w)]);
    }
  }
  auto map = [&](int x) { return id[static_cast<std::size_t>(canonical[static_cast<std::size_t>(x)])]; };
  q.row_begin = std::move(p.row_begin);
  q.coef = std::move(p.coef);
  q.rhs = std::move(p.rhs);
  q.kind = std::move(p.kind);
  q.reif_mode = std::move(p.reif_mode);
  q.var = std::move(p.var);
  for (int& x : q.var) x = map(x);
  q.reif_var = std::move(p.reif_var);
  for (int& b : q.reif_var)
    if (b >= 0) b = map(b);
  q.ternary = std::move(p.ternary);
  for (Ternary& t : q.ternary) {
    t.x = map(t.x);
    t.y = map(t.y);
    t.z = map(t.z);
  }
  q.global = std::move(p.global);
  for (FamilyTable& g : q.global)
    for (std::int32_t& x : g.vars) x = map(x);
  for (StoreRefTerm& m : cc.model_vars)
    if (!m.is_constant) m.var = id[static_cast<std::size_t>(m.var)];
  if (cc.objective >= 0) cc.objective = id[static_cast<std::size_t>(cc.objective)];
  p = std::move(q);
}

/// The model is unsatisfiable: the root domains as compiled, no propagator but one always-false row.
void make_failed(Compiled& cc, std::vector<std::int32_t> lb, std::vector<std::int32_t> ub) {
  Program q;
  q.lb = std::move(lb);
  q.ub = std::move(ub);
  q.add_row(LinearKind::le, {}, {}, -1);
  cc.program = std::move(q);
  cc.root_failed = true;
}

}  // namespace

void preprocess(Compiled& cc, Clock::time_point deadline) {
  const auto start = Clock::now();
  PreprocessStats& st = cc.preprocess;
  Program& p = cc.program;
  const std::vector<std::int32_t> root_lb = p.lb, root_ub = p.ub;
  // Each round runs a fixpoint over the whole program: stop when a simplification pass no longer
  // narrows anything, or after a bounded number of rounds (the program is valid after every round).
  constexpr int max_rounds = 20;
  if (cc.root_failed) {
    make_failed(cc, root_lb, root_ub);
  } else {
    for (int round = 0; round < max_rounds; ++round) {
      ++st.rounds;
      const RootFixpointResult f = root_fixpoint(p, deadline);
      st.propagations += f.propagations;
      if (f.failed) {
        make_failed(cc, root_lb, root_ub);
        break;
      }
      // Out of time: the program as narrowed so far (no simplification of a half-narrowed round).
      if (f.stopped) {
        st.stopped = true;
        break;
      }
      Simplifier s(p);
      Program q = s.run();
      if (s.failed()) {
        make_failed(cc, root_lb, root_ub);
        break;
      }
      p = std::move(q);
      if (!s.changed()) break;
    }
    if (!cc.root_failed) compact(cc);
  }
  st.after = ProgramSize::of(cc.program);
  st.seconds = std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace kcp
