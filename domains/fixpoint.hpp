// Propagation to a fixpoint (AC1: run every propagator until none changes the store or one fails).
//
// - serial_fixpoint: the Gauss-Seidel reference on one thread; every parallel fixpoint is tested
//   against it. Propagators are monotone, so all fair orders reach the same (greatest) fixpoint.
// - team_fixpoint: one team. Levels: TeamThreadRange over the rows (one row per thread) and
//   ThreadVectorRange over a row's terms (the lanes of a warp reduce its sums together). Barriers:
//   one team_barrier per iteration, after every thread has run its rows, so that the iteration's
//   changed flag is complete before anyone reads it. The changed flags rotate over three slots: the
//   slot for the next iteration is reset during this one, and the slot just read is not written
//   again until two barriers later, when every thread has read it.
#pragma once

#include "domains/lanes.hpp"
#include "domains/linear.hpp"
#include "domains/store.hpp"

#include <Kokkos_Core.hpp>

namespace kcp {

struct FixpointResult {
  bool failed = false;
  int iterations = 0;
};

template <class Rows, bool Concurrent>
KOKKOS_INLINE_FUNCTION FixpointResult serial_fixpoint(const Rows& rows, const StoreRef<Concurrent>& s) {
  FixpointResult res;
  bool changed = true;
  while (changed) {
    changed = false;
    ++res.iterations;
    for (int r = 0; r < rows.size(); ++r) {
      const int st = propagate_linear(SerialLanes{}, rows, r, s);
      if (st & prop_failed) {
        res.failed = true;
        return res;
      }
      changed = changed || (st & prop_changed);
    }
  }
  return res;
}

/// Number of ints of team scratch team_fixpoint needs for its flags.
constexpr int fixpoint_flag_count = 4;

/// flags: fixpoint_flag_count ints shared by the team (team scratch). Every thread of the team must
/// call it; all return the same result.
template <class TeamMember, class Rows, bool Concurrent>
KOKKOS_INLINE_FUNCTION FixpointResult team_fixpoint(const TeamMember& team, const Rows& rows,
                                                    const StoreRef<Concurrent>& s, int* flags) {
  constexpr int failed_slot = 3;
  Kokkos::single(Kokkos::PerTeam(team), [&]() {
    flags[0] = 0;
    flags[1] = 0;
    flags[2] = 0;
    flags[failed_slot] = 0;
  });
  team.team_barrier();
  FixpointResult res;
  const VectorLanes<TeamMember> lanes{team};
  for (;;) {
    const int cur = res.iterations % 3;
    Kokkos::single(Kokkos::PerTeam(team), [&]() { flags[(res.iterations + 1) % 3] = 0; });
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, rows.size()), [&](const int r) {
      const int st = propagate_linear(lanes, rows, r, s);
      // Every writer stores the same value: the race is benign.
      if (st & prop_changed) flags[cur] = 1;
      if (st & prop_failed) flags[failed_slot] = 1;
    });
    team.team_barrier();
    ++res.iterations;
    if (flags[failed_slot] || !flags[cur]) break;
  }
  res.failed = flags[failed_slot] != 0;
  if constexpr (Concurrent) {
    // Two threads narrowing the two bounds of one variable at once may each miss the other's
    // write, so neither reports the wipe-out; a final sweep catches it.
    if (!res.failed) {
      int empty = 0;
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(team, static_cast<int>(0), s.size),
          [&](const int x, int& acc) { acc += s.lb[x] > s.ub[x] ? 1 : 0; }, empty);
      res.failed = empty > 0;
    }
  }
  return res;
}

}  // namespace kcp
