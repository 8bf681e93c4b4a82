// Family 1: ternary propagators  x = y op z  (Turbo's "ternary normal form"), 16 bytes each.
// One propagator runs on one lane: there are no lane reductions in here, so the fixpoint spreads a
// chunk of propagators over the lanes of a vector group (see domains/fixpoint.hpp).
//
// Checklist (Chuffed's):
// - Fails when x, y and z are fixed and x != y op z: once y and z are fixed every op narrows x to the
//   one value y op z (or fails: z = 0 for tdiv and tmod, z < 0 for pow), so a fixed false triple fails.
// - Entailment: never declared (a PropStatus has no such bit); a propagator whose constraint holds
//   simply narrows nothing.
// - Overflow: bounds are 32-bit, so a product of two bounds fits 63 bits and is computed in int64;
//   powers saturate at 2^31 in magnitude (beyond the store's range, so narrowing to a saturated
//   value is a no-op or a correct failure, never a wrong bound); nothing wraps.
// - Idempotence: not idempotent (x is narrowed first, then y and z from the new x): the fixpoint
//   reruns them.
// Consistency: bounds(Z) at the fixpoint of the propagator for add, min, max, eq_reif, le_reif and
// abs (every bound left takes part in a solution within the others' bounds); sound bounds for mul,
// tdiv, tmod and pow (no solution is lost; see each op for what is narrowed).
// Monotone: every narrowing is the hull of a superset of the solutions that can only shrink when the
// domains shrink, so the fixpoint does not depend on the order the propagators run in (team or
// serial, sorted or not). Aliased variables (x = y * y) are sound, not bounds consistent.
// Concurrency: other threads may narrow the same variables meanwhile. Each bound read is a fact
// ("y <= 5") that stays true, so every conclusion is drawn from bounds read, never from the negation
// of a test (a bound that was not yet narrowed may be now), and every divisor is a value read once and
// tested nonzero.
#pragma once

#include "domains/arithmetic.hpp"
#include "domains/program.hpp"
#include "domains/store.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kcp {

namespace detail {

/// Powers saturate here: one more than the largest store bound, so a saturated power is out of range.
constexpr std::int64_t pow_limit = std::int64_t(bound_max) + 1;

/// A store variable seen with a sign, v = sign * x, so that one rule serves both signs: max(y, z) is
/// -min(-y, -z), and a negative divisor is a positive one of the negated quotient.
template <bool C, bool H>
struct SignedVar {
  const StoreRef<C, H>& s;
  int x;
  int sign;  ///< +1 or -1

  KOKKOS_INLINE_FUNCTION std::int64_t lo() const { return sign > 0 ? s.min(x) : -std::int64_t(s.max(x)); }
  KOKKOS_INLINE_FUNCTION std::int64_t hi() const { return sign > 0 ? s.max(x) : -std::int64_t(s.min(x)); }
  KOKKOS_INLINE_FUNCTION int narrow_min(std::int64_t v) const {
    return sign > 0 ? s.narrow_min(x, v) : s.narrow_max(x, -v);
  }
  KOKKOS_INLINE_FUNCTION int narrow_max(std::int64_t v) const {
    return sign > 0 ? s.narrow_max(x, v) : s.narrow_min(x, -v);
  }
};

/// x outside [a, b]: bounds move past it, and a bitset loses the values inside.
template <bool C, bool H>
KOKKOS_INLINE_FUNCTION int narrow_outside(const StoreRef<C, H>& s, int x, std::int64_t a, std::int64_t b) {
  return s.remove_range(x, a, b);
}

/// The least |v| and greatest |v| over the bounds [lo, hi].
KOKKOS_INLINE_FUNCTION std::int64_t min_abs(std::int64_t lo, std::int64_t hi) {
  return lo > 0 ? lo : (hi < 0 ? -hi : 0);
}
KOKKOS_INLINE_FUNCTION std::int64_t max_abs(std::int64_t lo, std::int64_t hi) { return max64(-lo, hi); }

/// A closed integer interval; empty when lo > hi. Hulls are built with join.
struct Range {
  std::int64_t lo = INT64_MAX, hi = INT64_MIN;
  KOKKOS_INLINE_FUNCTION void join(std::int64_t l, std::int64_t h) {
    lo = min64(lo, l);
    hi = max64(hi, h);
  }
  KOKKOS_INLINE_FUNCTION bool empty() const { return lo > hi; }
};

/// The parts of [lo, hi] without 0, each of one sign: [lo, -1] and [1, hi], possibly empty.
struct NonzeroParts {
  std::int64_t neg_lo, neg_hi, pos_lo, pos_hi;
  KOKKOS_INLINE_FUNCTION NonzeroParts(std::int64_t lo, std::int64_t hi)
      : neg_lo(lo), neg_hi(min64(hi, -1)), pos_lo(max64(lo, 1)), pos_hi(hi) {}
};

/// Adds to r the hull of the real quotients x / d for x in [xl, xu] and d in [dl, du], a range of one
/// sign without 0, rounded inwards to integers. For a fixed d the quotient is monotone in x and for a
/// fixed x monotone in d, so the extremes lie at the corners (ceil and floor are monotone too).
KOKKOS_INLINE_FUNCTION void join_quotients(Range& r, std::int64_t xl, std::int64_t xu, std::int64_t dl,
                                           std::int64_t du) {
  if (dl > du) return;
  r.join(min64(min64(ceil_div(xl, dl), ceil_div(xl, du)), min64(ceil_div(xu, dl), ceil_div(xu, du))),
         max64(max64(floor_div(xl, dl), floor_div(xl, du)), max64(floor_div(xu, dl), floor_div(xu, du))));
}

/// b^e for e >= 0 (0^0 = 1), saturated at +-pow_limit. At most 32 multiplications: |b| >= 2 doubles
/// the magnitude each time, and |acc| <= 2^31, |b| < 2^31 keep every product within 63 bits.
KOKKOS_INLINE_FUNCTION std::int64_t pow_sat(std::int64_t b, std::int64_t e) {
  if (e == 0 || b == 1) return 1;
  if (b == 0) return 0;
  if (b == -1) return (e % 2 == 0) ? 1 : -1;
  std::int64_t acc = 1;
  for (std::int64_t i = 0; i < e; ++i) {
    acc *= b;
    if (abs64(acc) >= pow_limit) return (b < 0 && e % 2 == 1) ? -pow_limit : pow_limit;
  }
  return acc;
}

/// The largest r >= 0 with r^e <= m, for e >= 1 and m >= 0 (binary search: r^e is increasing).
KOKKOS_INLINE_FUNCTION std::int64_t int_root(std::int64_t m, std::int64_t e) {
  if (e == 1) return m;
  std::int64_t lo = 0, hi = min64(m, pow_limit);  // lo^e <= m < (hi + 1)^e
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo + 1) / 2;
    if (pow_sat(mid, e) <= m) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

/// x = min(y, z) over signed views (max is min of the negations). Bounds(Z) consistent at its fixpoint.
template <bool C, bool H>
KOKKOS_INLINE_FUNCTION int propagate_min(const SignedVar<C, H>& x, const SignedVar<C, H>& y, const SignedVar<C, H>& z) {
  int st = x.narrow_min(min64(y.lo(), z.lo()));
  st |= x.narrow_max(min64(y.hi(), z.hi()));
  if (st & prop_failed) return st;
  st |= y.narrow_min(x.lo());
  st |= z.narrow_min(x.lo());
  if (st & prop_failed) return st;
  // The one that cannot be the minimum leaves it to the other.
  if (z.lo() > x.hi()) st |= y.narrow_max(x.hi());
  if (y.lo() > x.hi()) st |= z.narrow_max(x.hi());
  return st;
}

template <bool C, bool H>
KOKKOS_INLINE_FUNCTION int propagate_add(const StoreRef<C, H>& s, int x, int y, int z) {
  int st = s.narrow_to(x, std::int64_t(s.min(y)) + s.min(z), std::int64_t(s.max(y)) + s.max(z));
  if (st & prop_failed) return st;
  st |= s.narrow_to(y, std::int64_t(s.min(x)) - s.max(z), std::int64_t(s.max(x)) - s.min(z));
  if (st & prop_failed) return st;
  return st | s.narrow_to(z, std::int64_t(s.min(x)) - s.max(y), std::int64_t(s.max(x)) - s.min(y));
}

/// y (or z) of x = y * z from x and the other factor d: within the quotients x / d for d != 0, unless
/// x and d may both be 0 (then y is free).
template <bool C, bool H>
KOKKOS_INLINE_FUNCTION int narrow_factor(const StoreRef<C, H>& s, int y, int x, int d) {
  const std::int64_t xl = s.min(x), xu = s.max(x), dl = s.min(d), du = s.max(d);
  if (xl <= 0 && xu >= 0 && dl <= 0 && du >= 0) return prop_unchanged;
  Range r;
  const NonzeroParts p(dl, du);
  join_quotients(r, xl, xu, p.neg_lo, p.neg_hi);
  join_quotients(r, xl, xu, p.pos_lo, p.pos_hi);
  if (r.empty()) return prop_failed;
  return s.narrow_to(y, r.lo, r.hi);
}

/// Sound bounds: x within the products of the corners; y and z within the quotients; a nonzero x
/// makes both factors nonzero.
template <bool C, bool H>
KOKKOS_INLINE_FUNCTION int propagate_mul(const StoreRef<C, H>& s, int x, int y, int z) {
  const std::int64_t yl = s.min(y), yu = s.max(y), zl = s.min(z), zu = s.max(z);
  const std::int64_t a = yl * zl, b = yl * zu, c = yu * zl, d = yu * zu;  // each within 62 bits
  int st = s.narrow_to(x, min64(min64(a, b), min64(c, d)), max64(max64(a, b), max64(c, d)));
  if (st & prop_failed) return st;
  if (s.min(x) > 0 || s.max(x) < 0) {
    st |= narrow_outside(s, y, 0, 0);
    if (st & prop_failed) return st;
    st |= narrow_outside(s, z, 0, 0);
    if (st & prop_failed) return st;
  }
  st |= narrow_factor(s, y, x, z);
  if (st & prop_failed) return st;
  return st | narrow_factor(s, z, x, y);
}

/// The hull of the y with trunc(y / d) in [xl, xu] for d in [dl, du], 1 <= dl <= du. The least such
/// y for one (x, d) is x*d when x > 0, else (x-1)*d + 1; the greatest is (x+1)*d - 1 when x >= 0,
/// else x*d: both increase with x, so x's bounds give the extremes, and each is monotone in d.
KOKKOS_INLINE_FUNCTION void join_dividends(Range& r, std::int64_t xl, std::int64_t xu, std::int64_t dl,
                                           std::int64_t du) {
  if (dl > du || xl > xu) return;
  r.join(xl > 0 ? xl * dl : (xl - 1) * du + 1, xu >= 0 ? (xu + 1) * du - 1 : xu * dl);
}

/// Sound bounds for x = y div z (truncating), z != 0: x within the quotients at the corners of each
/// sign part of z (trunc(y/d) is monotone in y and in d on each part); y within the dividends that
/// x's bounds allow; z nonzero, |z| <= max|y| / min|x| when x != 0, |z| > min|y| when x = 0, and of
/// the sign that x and y give it.
template <bool C, bool H>
KOKKOS_INLINE_FUNCTION int propagate_tdiv(const StoreRef<C, H>& s, int x, int y, int z) {
  int st = narrow_outside(s, z, 0, 0);
  if (st & prop_failed) return st;
  {
    const std::int64_t yl = s.min(y), yu = s.max(y);
    const NonzeroParts p(s.min(z), s.max(z));
    Range r;
    for (int part = 0; part < 2; ++part) {
      const std::int64_t dl = part == 0 ? p.neg_lo : p.pos_lo, du = part == 0 ? p.neg_hi : p.pos_hi;
      if (dl > du) continue;
      r.join(min64(min64(yl / dl, yl / du), min64(yu / dl, yu / du)),
             max64(max64(yl / dl, yl / du), max64(yu / dl, yu / du)));
    }
    if (r.empty()) return st | prop_failed;
    st |= s.narrow_to(x, r.lo, r.hi);
    if (st & prop_failed) return st;
  }
  {
    // A negative divisor d gives -x = trunc(y / -d): the positive case with x negated.
    const std::int64_t xl = s.min(x), xu = s.max(x);
    const NonzeroParts p(s.min(z), s.max(z));
    Range r;
    join_dividends(r, xl, xu, p.pos_lo, p.pos_hi);
    join_dividends(r, -xu, -xl, -p.neg_hi, -p.neg_lo);
    if (r.empty()) return st | prop_failed;
    st |= s.narrow_to(y, r.lo, r.hi);
    if (st & prop_failed) return st;
  }
  const std::int64_t xl = s.min(x), xu = s.max(x), yl = s.min(y), yu = s.max(y);
  if (xl > 0 || xu < 0) {
    const std::int64_t m = max_abs(yl, yu) / min_abs(xl, xu);
    st |= s.narrow_to(z, -m, m);
    if (st & prop_failed) return st;
    if (yl > 0 || yu < 0) {  // sign(z) = sign(x) * sign(y)
      st |= ((xl > 0) == (yl > 0)) ? s.narrow_min(z, 1) : s.narrow_max(z, -1);
    }
  } else if (xl == 0 && xu == 0) {
    const std::int64_t m = min_abs(yl, yu);
    st |= narrow_outside(s, z, -m, m);
  }
  return st;
}

/// Sound bounds for x = y mod z (the remainder of tdiv, with y's sign), z != 0: |x| < |z|, |x| <= |y|,
/// x of y's sign; x = y when every |z| exceeds every |y|; exact once y and z are fixed.
template <bool C, bool H>
KOKKOS_INLINE_FUNCTION int propagate_tmod(const StoreRef<C, H>& s, int x, int y, int z) {
  const std::int64_t a = min_abs(s.min(x), s.max(x));
  int st = narrow_outside(s, z, -a, a);  // |z| > |x| >= a, and z != 0 when a = 0
  if (st & prop_failed) return st;
  const std::int64_t zl = s.min(z), zu = s.max(z), yl = s.min(y), yu = s.max(y);
  if (yl == yu && zl == zu && zl != 0) {
    const std::int64_t v = yl % zl;  // C++'s % truncates like FlatZinc's mod
    return st | s.narrow_to(x, v, v);
  }
  const std::int64_t m = max_abs(zl, zu) - 1;
  if (min_abs(zl, zu) > max_abs(yl, yu)) {  // y mod z = y
    st |= s.narrow_to(x, yl, yu);
    if (st & prop_failed) return st;
    return st | s.narrow_to(y, s.min(x), s.max(x));
  }
  st |= s.narrow_to(x, yl >= 0 ? 0 : max64(yl, -m), yu <= 0 ? 0 : min64(yu, m));
  if (st & prop_failed) return st;
  if (s.min(x) > 0) st |= s.narrow_min(y, s.min(x));
  if (s.max(x) < 0) st |= s.narrow_max(y, s.max(x));
  return st;
}

/// Sound bounds for x = y ^ z, z >= 0 (a negative exponent is no solution here; 0^0 = 1).
/// x: the hull of the powers at y in {ly, uy, 0} and z in {lz, lz+1, uz-1, uz}: for a fixed z the
/// extremes over y lie at the bounds or 0; for a fixed y they lie at the largest or smallest exponent
/// of each parity. y: |y| <= the lz-th root of max|x| (lz >= 1), y != 0 when x != 0, y < 0 when x < 0.
/// z: (min|y|)^z <= max|x| when |y| >= 2.
template <bool C, bool H>
KOKKOS_INLINE_FUNCTION int propagate_pow(const StoreRef<C, H>& s, int x, int y, int z) {
  int st = s.narrow_min(z, 0);
  if (st & prop_failed) return st;
  {
    const std::int64_t yl = s.min(y), yu = s.max(y), zl = s.min(z), zu = s.max(z);
    const std::int64_t ys[3] = {yl, yu, (yl < 0 && yu > 0) ? 0 : yl};
    const std::int64_t zs[4] = {zl, min64(zl + 1, zu), max64(zu - 1, zl), zu};
    Range r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j) {
        const std::int64_t v = pow_sat(ys[i], zs[j]);
        r.join(v, v);
      }
    st |= s.narrow_to(x, r.lo, r.hi);
    if (st & prop_failed) return st;
  }
  const std::int64_t xl = s.min(x), xu = s.max(x), zl = s.min(z);
  const std::int64_t mx = max_abs(xl, xu);
  if (zl >= 1) {
    const std::int64_t r = int_root(mx, zl);
    st |= s.narrow_to(y, -r, r);
    if (st & prop_failed) return st;
    if (xl > 0 || xu < 0) st |= narrow_outside(s, y, 0, 0);
    if (st & prop_failed) return st;
  }
  if (xu < 0) st |= s.narrow_max(y, -1);
  if (st & prop_failed) return st;
  const std::int64_t my = min_abs(s.min(y), s.max(y));
  if (my >= 2) {
    std::int64_t k = 0;  // the largest k with my^k <= mx, or -1: at most 31 steps since my >= 2
    if (mx < 1) {
      k = -1;
    } else {
      while (pow_sat(my, k + 1) <= mx) ++k;
    }
    st |= s.narrow_max(z, k);
  }
  return st;
}

template <bool C, bool H>
KOKKOS_INLINE_FUNCTION int propagate_eq_reif(const StoreRef<C, H>& s, int x, int y, int z) {
  int st = s.narrow_to(x, 0, 1);
  if (st & prop_failed) return st;
  const std::int64_t yl = s.min(y), yu = s.max(y), zl = s.min(z), zu = s.max(z);
  if (yu < zl || zu < yl) st |= s.narrow_max(x, 0);
  if (yl == yu && zl == zu && yl == zl) st |= s.narrow_min(x, 1);
  if (st & prop_failed) return st;
  if (s.min(x) == 1) {
    st |= s.narrow_to(y, s.min(z), s.max(z));
    if (st & prop_failed) return st;
    st |= s.narrow_to(z, s.min(y), s.max(y));
  } else if (s.max(x) == 0) {
    if (s.fixed(z)) st |= narrow_outside(s, y, s.min(z), s.min(z));
    if (st & prop_failed) return st;
    if (s.fixed(y)) st |= narrow_outside(s, z, s.min(y), s.min(y));
  }
  return st;
}

template <bool C, bool H>
KOKKOS_INLINE_FUNCTION int propagate_le_reif(const StoreRef<C, H>& s, int x, int y, int z) {
  int st = s.narrow_to(x, 0, 1);
  if (st & prop_failed) return st;
  if (s.max(y) <= s.min(z)) st |= s.narrow_min(x, 1);
  if (s.min(y) > s.max(z)) st |= s.narrow_max(x, 0);
  if (st & prop_failed) return st;
  if (s.min(x) == 1) {  // y <= z
    st |= s.narrow_max(y, s.max(z));
    if (st & prop_failed) return st;
    st |= s.narrow_min(z, s.min(y));
  } else if (s.max(x) == 0) {  // y > z
    st |= s.narrow_min(y, std::int64_t(s.min(z)) + 1);
    if (st & prop_failed) return st;
    st |= s.narrow_max(z, std::int64_t(s.max(y)) - 1);
  }
  return st;
}

template <bool C, bool H>
KOKKOS_INLINE_FUNCTION int propagate_abs(const StoreRef<C, H>& s, int x, int y) {
  const std::int64_t yl = s.min(y), yu = s.max(y);
  int st = s.narrow_to(x, min_abs(yl, yu), max_abs(yl, yu));
  if (st & prop_failed) return st;
  const std::int64_t xl = s.min(x), xu = s.max(x);
  st |= s.narrow_to(y, -xu, xu);
  if (st & prop_failed) return st;
  if (xl > 0) st |= narrow_outside(s, y, 1 - xl, xl - 1);
  return st;
}

}  // namespace detail

/// Propagates one ternary propagator once; returns prop_changed / prop_failed bits.
template <bool C, bool H>
KOKKOS_INLINE_FUNCTION int propagate_ternary(const Ternary& t, const StoreRef<C, H>& s) {
  using detail::SignedVar;
  switch (t.op) {
    case TernaryOp::add:
      return detail::propagate_add(s, t.x, t.y, t.z);
    case TernaryOp::mul:
      return detail::propagate_mul(s, t.x, t.y, t.z);
    case TernaryOp::tdiv:
      return detail::propagate_tdiv(s, t.x, t.y, t.z);
    case TernaryOp::tmod:
      return detail::propagate_tmod(s, t.x, t.y, t.z);
    case TernaryOp::min:
      return detail::propagate_min(SignedVar<C, H>{s, t.x, 1}, SignedVar<C, H>{s, t.y, 1}, SignedVar<C, H>{s, t.z, 1});
    case TernaryOp::max:
      return detail::propagate_min(SignedVar<C, H>{s, t.x, -1}, SignedVar<C, H>{s, t.y, -1}, SignedVar<C, H>{s, t.z, -1});
    case TernaryOp::eq_reif:
      return detail::propagate_eq_reif(s, t.x, t.y, t.z);
    case TernaryOp::le_reif:
      return detail::propagate_le_reif(s, t.x, t.y, t.z);
    case TernaryOp::abs:
      return detail::propagate_abs(s, t.x, t.y);
    case TernaryOp::pow:
      return detail::propagate_pow(s, t.x, t.y, t.z);
  }
  return prop_unchanged;
}

}  // namespace kcp
