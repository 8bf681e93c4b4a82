// Family 2: n-ary linear rows  sum_i a_i * x_i  (<= | = | !=)  c,  in compressed-row form, each
// optionally reified by a 0/1 variable b: b <-> row, or b -> row.
//
// Checklist (Chuffed's): fails when every variable is fixed and the row is false; narrows to bounds
// consistency for <= and = (each x_i within what the others' extreme sums leave); for != narrows only
// when one variable is left (its value removed); never overflows: a term a*x fits 63 bits (32-bit a and
// x), sums are poison_add'ed and a poisoned sum narrows nothing. With holes (domains/store.hpp): a
// bound that lands on a removed value moves on to the next value left, and != with one free term
// removes its value from the middle of a bitset domain. Not idempotent: the fixpoint reruns it.
// Reified: b = 1 propagates the row; b = 0 propagates its negation (<= becomes >= c + 1, = becomes !=,
// != becomes =) for b <-> row, nothing for b -> row; while b is free, b is fixed only when the row is
// proven entailed (b = 1, for <->) or disentailed (b = 0) by the extreme sums; a poisoned sum proves
// nothing. b must be a 0/1 variable (compile gives it [0, 1]).
// Lanes: every branch depends only on the row's data and on lane reductions, never on a bound one
// lane read, so the lanes of a vector group take the same branches and reduce together.
#pragma once

#include "domains/lanes.hpp"
#include "domains/store.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kcp {

enum class LinearKind : std::int8_t { le = 0, eq = 1, ne = 2 };

/// not (sum a_i x_i (k) c) as a row of the same form, on the host (compile, preprocessing): <= becomes
/// -sum <= -c - 1, = and != swap. `negate_term` negates one term's coefficient in the caller's storage.
template <class Terms, class Int, class NegateTerm>
void negate_row(LinearKind& k, Terms& terms, Int& c, const NegateTerm& negate_term) {
  switch (k) {
    case LinearKind::le:
      for (auto& t : terms) negate_term(t);
      c = -c - 1;
      break;
    case LinearKind::eq:
      k = LinearKind::ne;
      break;
    case LinearKind::ne:
      k = LinearKind::eq;
      break;
  }
}

/// How a linear row is tied to a Boolean b: not at all, b <-> row, or b -> row.
enum class Reification : std::int8_t { none = 0, equivalent = 1, implied = 2 };

/// The rows of a program, as Views in MemorySpace. Row r's terms are [begin(r), begin(r+1)).
template <class MemorySpace>
struct LinearRows {
  Kokkos::View<const std::int32_t*, MemorySpace> row_begin;  ///< rows + 1 entries
  Kokkos::View<const std::int32_t*, MemorySpace> coef;
  Kokkos::View<const std::int32_t*, MemorySpace> var;
  Kokkos::View<const std::int64_t*, MemorySpace> rhs;
  Kokkos::View<const std::int8_t*, MemorySpace> kind;
  Kokkos::View<const std::int32_t*, MemorySpace> reif_var;  ///< b of a reified row, -1 when none
  Kokkos::View<const std::int8_t*, MemorySpace> reif_mode;  ///< a Reification

  KOKKOS_INLINE_FUNCTION int size() const { return static_cast<int>(rhs.extent(0)); }
};

namespace detail {

/// The least value of sign * a_i x_i, term i of the terms starting at b.
template <class Rows, class Store>
KOKKOS_INLINE_FUNCTION std::int64_t term_min(const Rows& rows, int b, int i, int sign, const Store& s) {
  const std::int64_t a = sign * std::int64_t(rows.coef(b + i));
  const int x = rows.var(b + i);
  return a > 0 ? a * s.min(x) : a * s.max(x);
}

/// The least value of sign * sum_i a_i x_i over the terms [b, b+n), or sum_poisoned.
template <class Lanes, class Rows, class Store>
KOKKOS_INLINE_FUNCTION std::int64_t least_sum(const Lanes& lanes, const Rows& rows, int b, int n, int sign,
                                              const Store& s) {
  return lanes.poison_sum(n, [&](int i) { return term_min(rows, b, i, sign, s); });
}

/// sum_i a_i x_i <= c, given the terms [b, b+n).
template <class Lanes, class Rows, class Store>
KOKKOS_INLINE_FUNCTION int propagate_le(const Lanes& lanes, const Rows& rows, int b, int n,
                                        std::int64_t c, int sign, const Store& s) {
  // Each term's least value; sign = -1 propagates -sum <= -c (the >= half of an equality).
  auto term_min = [&](int i) { return detail::term_min(rows, b, i, sign, s); };
  const std::int64_t least = lanes.poison_sum(n, term_min);
  if (least == sum_poisoned) return prop_unchanged;
  if (least > c) return prop_failed;
  return lanes.bit_or(n, [&](int i) {
    const std::int64_t a = sign * std::int64_t(rows.coef(b + i));
    const int x = rows.var(b + i);
    // The others' least sum; |c| < 2^62 (compile checks it), so c - others cannot wrap.
    const std::int64_t others = poison_add(least, -term_min(i));
    if (others == sum_poisoned) return int(prop_unchanged);
    const std::int64_t slack = c - others;  // a * x <= slack
    // No division where the term cannot narrow (most terms, most runs): its greatest value fits the
    // slack already. A bound read stale is a weaker one, so a skip is never wrong. A unit coefficient
    // needs no division either (a 64-bit division is a long emulated sequence on a GPU).
    if ((a > 0 ? a * s.max(x) : a * s.min(x)) <= slack) return int(prop_unchanged);
    if (a > 0) return s.narrow_max(x, a == 1 ? slack : floor_div(slack, a));
    return s.narrow_min(x, a == -1 ? -slack : ceil_div(slack, a));
  });
}

template <class Lanes, class Rows, class Store>
KOKKOS_INLINE_FUNCTION int propagate_ne(const Lanes& lanes, const Rows& rows, int b, int n,
                                        std::int64_t c, const Store& s) {
  const int free_terms = lanes.count(n, [&](int i) { return !s.fixed(rows.var(b + i)); });
  if (free_terms > 1) return prop_unchanged;
  const std::int64_t fixed_sum = lanes.poison_sum(n, [&](int i) -> std::int64_t {
    const int x = rows.var(b + i);
    return s.fixed(x) ? std::int64_t(rows.coef(b + i)) * s.min(x) : 0;
  });
  if (fixed_sum == sum_poisoned) return prop_unchanged;
  if (free_terms == 0) return fixed_sum == c ? prop_failed : prop_unchanged;
  const int i = lanes.max(n, [&](int j) { return s.fixed(rows.var(b + j)) ? -1 : j; });
  if (i < 0) return prop_unchanged;  // fixed meanwhile by another thread: the next iteration sees it
  const std::int64_t a = rows.coef(b + i);
  const int x = rows.var(b + i);
  const std::int64_t rest = c - fixed_sum;  // a * x != rest
  if (rest % a != 0) return prop_unchanged;
  return s.remove(x, rest / a);  // at a bound, the bound moves; inside, a bitset loses it
}

/// Whether a two-term row of kind k with coefficients a, a' is a x + a' y = c with a, a' in {1, -1}:
/// support_unit_pair makes it domain consistent (and Program::hole_prone counts its variables as ones
/// a hole can reach).
KOKKOS_INLINE_FUNCTION bool is_unit_pair(LinearKind k, std::int64_t a, std::int64_t a2) {
  return k == LinearKind::eq && (a == 1 || a == -1) && (a2 == 1 || a2 == -1);
}

/// Term i of a two-term row a x + a' y = c with unit coefficients: y keeps only the values v whose
/// partner u = (c - a' v) / a is in x's domain, a word of y at a time (a window of x's domain, shifted
/// where y = x + d, bit-reversed where y = e - x). Domain consistency for such a row (the aliases
/// MiniZinc makes for q[i] + i); y must have a bitset.
template <class Rows, class Store>
KOKKOS_INLINE_FUNCTION int support_unit_pair(const Rows& rows, int b, int i, std::int64_t c, const Store& s) {
  const int y = rows.var(b + i), x = rows.var(b + 1 - i);
  const std::int64_t ay = rows.coef(b + i), ax = rows.coef(b + 1 - i);
  if (s.min(y) > s.max(y)) return prop_failed;
  // u = (c - ay v) / ax = ax c - ax ay v: u = v + d when ax ay = -1, u = e - v when ax ay = 1.
  const bool reversed = ax * ay == 1;
  const std::int64_t k = ax * c;
  int st = prop_unchanged;
  const int first = s.first_word(y), last = s.last_word(y);
  for (int w = first; w <= last; ++w) {
    const std::int64_t v0 = s.word_base(y, w);
    DomainWord keep;
    if (!reversed) {
      keep = s.window(x, v0 + k);  // u = v + k
    } else {
      keep = reverse_bits(s.window(x, k - v0 - 63));  // u = k - v: bit j of y is bit 63 - j of the window
    }
    st |= s.keep_word(y, w, keep);
    if (st & prop_failed) return st;
  }
  if (st & prop_changed) st |= s.normalise(y);
  return st;
}

template <class Lanes, class Rows, class Store>
KOKKOS_INLINE_FUNCTION int propagate_eq(const Lanes& lanes, const Rows& rows, int b, int n, std::int64_t c,
                                        const Store& s) {
  int st = propagate_le(lanes, rows, b, n, c, 1, s);
  if (st & prop_failed) return st;
  st |= propagate_le(lanes, rows, b, n, -c, -1, s);
  if constexpr (Store::holes) {
    // Two unit terms whose variables both keep holes: the holes cross (row data and the layout only,
    // so every lane takes the same branch).
    if (!(st & prop_failed) && n == 2 && is_unit_pair(LinearKind::eq, rows.coef(b), rows.coef(b + 1)) &&
        s.has_bits(rows.var(b)) && s.has_bits(rows.var(b + 1)))
      st |= lanes.bit_or(2, [&](int i) { return support_unit_pair(rows, b, i, c, s); });
  }
  return st;
}

/// The row sum (k) c over the terms [b, b+n), or its negation. |c| < 2^62, so -c - 1 cannot wrap.
template <class Lanes, class Rows, class Store>
KOKKOS_INLINE_FUNCTION int propagate_row(const Lanes& lanes, const Rows& rows, int b, int n, std::int64_t c,
                                         LinearKind k, bool negated, const Store& s) {
  switch (k) {
    case LinearKind::le:  // negated: -sum <= -(c + 1)
      return negated ? propagate_le(lanes, rows, b, n, -c - 1, -1, s) : propagate_le(lanes, rows, b, n, c, 1, s);
    case LinearKind::eq:
      return negated ? propagate_ne(lanes, rows, b, n, c, s) : propagate_eq(lanes, rows, b, n, c, s);
    case LinearKind::ne:
      return negated ? propagate_eq(lanes, rows, b, n, c, s) : propagate_ne(lanes, rows, b, n, c, s);
  }
  return prop_unchanged;
}

/// +1 when the row holds for every assignment within the bounds, -1 when for none, 0 when the extreme
/// sums do not tell (or are poisoned).
template <class Lanes, class Rows, class Store>
KOKKOS_INLINE_FUNCTION int row_decided(const Lanes& lanes, const Rows& rows, int b, int n, std::int64_t c, LinearKind k,
                                       const Store& s) {
  const std::int64_t least = least_sum(lanes, rows, b, n, 1, s);
  const std::int64_t least_negated = least_sum(lanes, rows, b, n, -1, s);
  if (least == sum_poisoned || least_negated == sum_poisoned) return 0;
  const std::int64_t most = -least_negated;
  const bool never_c = least > c || most < c;
  const bool always_c = least == c && most == c;
  switch (k) {
    case LinearKind::le:
      return most <= c ? 1 : (least > c ? -1 : 0);
    case LinearKind::eq:
      return always_c ? 1 : (never_c ? -1 : 0);
    case LinearKind::ne:
      return never_c ? 1 : (always_c ? -1 : 0);
  }
  return 0;
}

}  // namespace detail

/// Propagates row r once. Lanes: SerialLanes or VectorLanes (the row's terms spread over the lanes).
template <class Lanes, class Rows, class Store>
KOKKOS_INLINE_FUNCTION int propagate_linear(const Lanes& lanes, const Rows& rows, int r, const Store& s) {
  const int b = rows.row_begin(r);
  const int n = rows.row_begin(r + 1) - b;
  const std::int64_t c = rows.rhs(r);
  const LinearKind k = static_cast<LinearKind>(rows.kind(r));
  const int bv = rows.reif_var(r);
  if (bv < 0) return detail::propagate_row(lanes, rows, b, n, c, k, false, s);
  const bool equivalent = static_cast<Reification>(rows.reif_mode(r)) == Reification::equivalent;
  // b's bounds, read by one lane and shared, so that all lanes take the same branch below.
  const int b_state = lanes.bit_or(1, [&](int) { return (s.min(bv) >= 1 ? 1 : 0) | (s.max(bv) <= 0 ? 2 : 0); });
  if (b_state == 3) return prop_failed;  // b is empty
  if (b_state == 1) return detail::propagate_row(lanes, rows, b, n, c, k, false, s);
  if (b_state == 2) return equivalent ? detail::propagate_row(lanes, rows, b, n, c, k, true, s) : prop_unchanged;
  const int decided = detail::row_decided(lanes, rows, b, n, c, k, s);
  if (decided < 0) return s.narrow_max(bv, 0);
  if (decided > 0 && equivalent) return s.narrow_min(bv, 1);
  return prop_unchanged;
}

}  // namespace kcp
