// The innermost level of parallelism a propagator may use, so that each propagator is written once:
// - SerialLanes: plain loops (host tests, the serial reference fixpoint, CPU teams of one thread);
// - VectorLanes: Kokkos::ThreadVectorRange of a team member (the lanes of a CUDA warp).
// Every reduction's result is known to every lane afterwards, so lanes take the same branches.
#pragma once

#include "domains/arithmetic.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kcp {

struct SerialLanes {
  template <class F>
  KOKKOS_INLINE_FUNCTION std::int64_t poison_sum(int n, const F& f) const {
    std::int64_t s = 0;
    for (int i = 0; i < n; ++i) s = poison_add(s, f(i));
    return s;
  }
  template <class F>
  KOKKOS_INLINE_FUNCTION int bit_or(int n, const F& f) const {
    int r = 0;
    for (int i = 0; i < n; ++i) r |= f(i);
    return r;
  }
  /// The or of the 64-bit words f(0) .. f(n - 1) (0 when n == 0).
  template <class F>
  KOKKOS_INLINE_FUNCTION std::uint64_t word_or(int n, const F& f) const {
    std::uint64_t r = 0;
    for (int i = 0; i < n; ++i) r |= f(i);
    return r;
  }
  template <class F>
  KOKKOS_INLINE_FUNCTION int max(int n, const F& f) const {
    int r = -1;
    for (int i = 0; i < n; ++i) r = f(i) > r ? f(i) : r;
    return r;
  }
  template <class F>
  KOKKOS_INLINE_FUNCTION int count(int n, const F& f) const {
    int r = 0;
    for (int i = 0; i < n; ++i) r += f(i) ? 1 : 0;
    return r;
  }
  /// The least / greatest f(i) (64-bit), INT64_MAX / INT64_MIN when n == 0.
  template <class F>
  KOKKOS_INLINE_FUNCTION std::int64_t min_value(int n, const F& f) const {
    std::int64_t r = INT64_MAX;
    for (int i = 0; i < n; ++i) {
      const std::int64_t v = f(i);
      r = v < r ? v : r;
    }
    return r;
  }
  template <class F>
  KOKKOS_INLINE_FUNCTION std::int64_t max_value(int n, const F& f) const {
    std::int64_t r = INT64_MIN;
    for (int i = 0; i < n; ++i) {
      const std::int64_t v = f(i);
      r = v > r ? v : r;
    }
    return r;
  }
};

template <class TeamMember>
struct VectorLanes {
  const TeamMember& team;

  template <class F>
  KOKKOS_INLINE_FUNCTION std::int64_t poison_sum(int n, const F& f) const {
    std::int64_t s = 0;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(team, n),
        [&](const int i, std::int64_t& acc) { acc = poison_add(acc, f(i)); },
        PoisonSum(s));
    return s;
  }
  template <class F>
  KOKKOS_INLINE_FUNCTION int bit_or(int n, const F& f) const {
    int r = 0;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(team, n), [&](const int i, int& acc) { acc |= f(i); },
        OrReducer<int>(r));
    return r;
  }
  template <class F>
  KOKKOS_INLINE_FUNCTION std::uint64_t word_or(int n, const F& f) const {
    std::uint64_t r = 0;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(team, n), [&](const int i, std::uint64_t& acc) { acc |= f(i); },
        OrReducer<std::uint64_t>(r));
    return r;
  }
  template <class F>
  KOKKOS_INLINE_FUNCTION int max(int n, const F& f) const {
    int r = -1;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(team, n),
        [&](const int i, int& acc) {
          const int v = f(i);
          acc = v > acc ? v : acc;
        },
        MaxReducer<int>(r));
    return r < 0 ? -1 : r;
  }
  template <class F>
  KOKKOS_INLINE_FUNCTION int count(int n, const F& f) const {
    int r = 0;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(team, n), [&](const int i, int& acc) { acc += f(i) ? 1 : 0; }, SumReducer<int>(r));
    return r;
  }
  template <class F>
  KOKKOS_INLINE_FUNCTION std::int64_t min_value(int n, const F& f) const {
    std::int64_t r = INT64_MAX;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(team, n),
        [&](const int i, std::int64_t& acc) {
          const std::int64_t v = f(i);
          acc = v < acc ? v : acc;
        },
        MinReducer<std::int64_t>(r));
    return r;
  }
  template <class F>
  KOKKOS_INLINE_FUNCTION std::int64_t max_value(int n, const F& f) const {
    std::int64_t r = INT64_MIN;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(team, n),
        [&](const int i, std::int64_t& acc) {
          const std::int64_t v = f(i);
          acc = v > acc ? v : acc;
        },
        MaxReducer<std::int64_t>(r));
    return r;
  }
};

}  // namespace kcp
