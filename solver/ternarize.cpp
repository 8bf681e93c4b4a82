#include "solver/ternarize.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include "domains/arithmetic.hpp"

namespace kcp {

namespace {

bool in_store_range(std::int64_t v) { return v >= bound_min && v <= bound_max; }

class Ternarizer {
 public:
  explicit Ternarizer(Program& p) : p_(p) {}

  TernarizeStats run() {
    Program rows_in;  // the rows to rewrite, moved out; p_ keeps the others
    std::swap(rows_in.row_begin, p_.row_begin);
    std::swap(rows_in.coef, p_.coef);
    std::swap(rows_in.var, p_.var);
    std::swap(rows_in.rhs, p_.rhs);
    std::swap(rows_in.kind, p_.kind);
    std::swap(rows_in.reif_var, p_.reif_var);
    std::swap(rows_in.reif_mode, p_.reif_mode);
    p_.row_begin = {0};
    const int vars_before = p_.num_vars();
    const int ternary_before = p_.num_ternary();
    for (int r = 0; r < rows_in.num_rows(); ++r) {
      const auto b = static_cast<std::size_t>(rows_in.row_begin[static_cast<std::size_t>(r)]);
      const auto e = static_cast<std::size_t>(rows_in.row_begin[static_cast<std::size_t>(r) + 1]);
      std::vector<std::int32_t> a(rows_in.coef.begin() + static_cast<std::ptrdiff_t>(b),
                                  rows_in.coef.begin() + static_cast<std::ptrdiff_t>(e));
      std::vector<int> x(rows_in.var.begin() + static_cast<std::ptrdiff_t>(b),
                         rows_in.var.begin() + static_cast<std::ptrdiff_t>(e));
      const auto k = static_cast<LinearKind>(rows_in.kind[static_cast<std::size_t>(r)]);
      const auto mode = static_cast<Reification>(rows_in.reif_mode[static_cast<std::size_t>(r)]);
      const int reif = rows_in.reif_var[static_cast<std::size_t>(r)];
      const std::int64_t c = rows_in.rhs[static_cast<std::size_t>(r)];
      if (rewritable(a, x, c)) {
        rewrite(a, x, k, c, reif, mode);
        ++stats_.rows_rewritten;
      } else {
        p_.add_row(k, a, x, c, reif, mode);
        ++stats_.rows_kept;
      }
    }
    stats_.variables_added = p_.num_vars() - vars_before;
    stats_.ternaries_added = p_.num_ternary() - ternary_before;
    return stats_;
  }

 private:
  /// Every constant, coefficient and partial sum interval fits the store (the row is not empty).
  bool rewritable(const std::vector<std::int32_t>& a, const std::vector<int>& x, std::int64_t c) const {
    if (a.empty() || !in_store_range(c)) return false;
    std::int64_t lo = 0, hi = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!in_store_range(a[i])) return false;
      const auto [tlo, thi] = term_bounds(a[i], x[i]);
      if (!in_store_range(tlo) || !in_store_range(thi)) return false;
      lo += tlo;
      hi += thi;
      if (!in_store_range(lo) || !in_store_range(hi)) return false;
    }
    return true;
  }

  std::pair<std::int64_t, std::int64_t> term_bounds(std::int64_t a, int x) const {
    const std::int64_t l = a * p_.lb[static_cast<std::size_t>(x)];
    const std::int64_t h = a * p_.ub[static_cast<std::size_t>(x)];
    return {std::min(l, h), std::max(l, h)};
  }

  int constant(std::int64_t v) {
    const auto it = constants_.find(v);
    if (it != constants_.end()) return it->second;
    const int x = p_.add_var(static_cast<std::int32_t>(v), static_cast<std::int32_t>(v));
    constants_.emplace(v, x);
    return x;
  }

  int fresh(std::int64_t lo, std::int64_t hi) {
    return p_.add_var(static_cast<std::int32_t>(lo), static_cast<std::int32_t>(hi));
  }

  void rewrite(const std::vector<std::int32_t>& a, const std::vector<int>& x, LinearKind k, std::int64_t c, int b,
               Reification mode) {
    // s = sum a_i x_i as a chain of ternaries; [lo, hi] is s's interval.
    int s = -1;
    std::int64_t lo = 0, hi = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const auto [tlo, thi] = term_bounds(a[i], x[i]);
      int t = x[i];
      if (a[i] != 1) {
        t = fresh(tlo, thi);
        p_.add_ternary(TernaryOp::mul, t, constant(a[i]), x[i]);
      }
      if (s < 0) {
        s = t;
        lo = tlo;
        hi = thi;
        continue;
      }
      lo += tlo;
      hi += thi;
      const int sum = fresh(lo, hi);
      p_.add_ternary(TernaryOp::add, sum, s, t);
      s = sum;
    }
    const int cv = constant(c);
    if (mode == Reification::none && k == LinearKind::ne) {
      p_.add_ternary(TernaryOp::eq_reif, constant(0), s, cv);
      return;
    }
    // out <-> (s (k) c), where out is 1, b, or a fresh r with b <= r.
    int out = constant(1);
    if (mode == Reification::equivalent) out = b;
    if (mode == Reification::implied) {
      out = fresh(0, 1);
      p_.add_ternary(TernaryOp::max, out, b, out);
    }
    switch (k) {
      case LinearKind::le:
        p_.add_ternary(TernaryOp::le_reif, out, s, cv);
        break;
      case LinearKind::eq:
        p_.add_ternary(TernaryOp::eq_reif, out, s, cv);
        break;
      case LinearKind::ne: {
        const int equal = fresh(0, 1);
        p_.add_ternary(TernaryOp::eq_reif, equal, s, cv);
        p_.add_ternary(TernaryOp::add, constant(1), out, equal);
        break;
      }
    }
  }

  Program& p_;
  TernarizeStats stats_;
  std::map<std::int64_t, int> constants_;
};

}  // namespace

TernarizeStats ternarize_rows(Program& p) { return Ternarizer(p).run(); }

}  // namespace kcp
