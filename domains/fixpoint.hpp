// Propagation to a fixpoint (AC1: run every propagator until none changes the store or one fails),
// over the three propagator families of a DeviceProgram: ternary, linear rows, element.
//
// - serial_fixpoint: the Gauss-Seidel reference on one thread; every parallel fixpoint is tested
//   against it. Propagators are monotone, so all fair orders reach the same (greatest) fixpoint: the
//   team's interleaving, sorting the ternary propagators by op, and the warp-local variant change
//   the order, never the result.
// - team_fixpoint: one team. An iteration runs the families one after the other, with no barrier in
//   between (propagators of different families may run at once anyway; narrowing is atomic):
//   1. ternary: TeamThreadRange over chunks of `ternary_chunk` propagators (the vector length: 32
//      lanes of a CUDA warp), ThreadVectorRange inside a chunk, one lane per propagator. Each chunk
//      starts on a reconverged vector group: the portable form of Turbo's __syncwarp after each round
//      of its propagator loop. With `local_ternary`, a vector group reruns its chunk until the chunk
//      changes nothing (a lane reduction decides, so all lanes agree) before moving on.
//   2. rows of at most DeviceProgram's lane_row_terms terms: like the ternary family, one row per lane
//      (most rows of a model are reified comparisons of one or two terms); longer rows:
//      TeamThreadRange over them (one row per vector group), ThreadVectorRange over a row's terms (the
//      lanes reduce the row's sums together).
//   3. element: TeamThreadRange over the elements, ThreadVectorRange over the positions.
//   Barriers: one team_barrier per iteration, after every thread has run its propagators, so that the
//   iteration's changed flag is complete before anyone reads it. The changed flags rotate over three
//   slots: the slot for the next iteration is reset during this one, and the slot just read is not
//   written again until two barriers later, when every thread has read it.
#pragma once

#include "domains/element.hpp"
#include "domains/lanes.hpp"
#include "domains/linear.hpp"
#include "domains/program.hpp"
#include "domains/store.hpp"
#include "domains/ternary.hpp"

#include <Kokkos_Core.hpp>

namespace kcp {

struct FixpointResult {
  bool failed = false;
  int iterations = 0;
  bool capped = false;  ///< stopped at FixpointOptions::max_iterations: sound, but not a fixpoint
};

/// How team_fixpoint runs the ternary family; neither changes the fixpoint it reaches.
struct FixpointOptions {
  /// Ternary propagators per vector group and round: the launch's vector length, so that each lane
  /// runs one. Any positive value is correct.
  int ternary_chunk = 32;
  /// The warp-local variant: each vector group runs its chunk to a local fixpoint first. An option
  /// to measure, not the default.
  bool local_ternary = false;
  /// Stop after this many iterations (0: never). Bounds propagation around a cycle can take as many
  /// iterations as a domain has values; a capped node is simply branched on (every narrowing done so
  /// far is sound), which keeps kernel launches short enough for the time limit. A capped result is
  /// not a proof that a node with every variable fixed is a solution: the caller reruns it uncapped.
  int max_iterations = 0;
};

template <class MemorySpace, bool Concurrent>
KOKKOS_INLINE_FUNCTION FixpointResult serial_fixpoint(const DeviceProgram<MemorySpace>& program,
                                                      const StoreRef<Concurrent>& s) {
  FixpointResult res;
  const SerialLanes lanes{};
  for (bool changed = true; changed;) {
    ++res.iterations;
    int st = prop_unchanged;
    for (int i = 0; i < program.num_ternary() && !(st & prop_failed); ++i) {
      st |= propagate_ternary(program.ternary(i), s);
    }
    for (int r = 0; r < program.rows.size() && !(st & prop_failed); ++r) {
      st |= propagate_linear(lanes, program.rows, r, s);
    }
    for (int e = 0; e < program.elements.size() && !(st & prop_failed); ++e) {
      st |= propagate_element(lanes, program.elements, e, s);
    }
    if (st & prop_failed) {
      res.failed = true;
      return res;
    }
    changed = (st & prop_changed) != 0;
  }
  return res;
}

/// Number of ints of team scratch team_fixpoint needs for its flags.
constexpr int fixpoint_flag_count = 4;

/// flags: fixpoint_flag_count ints shared by the team (team scratch). Every thread of the team must
/// call it; all return the same result.
template <class TeamMember, class MemorySpace, bool Concurrent>
KOKKOS_INLINE_FUNCTION FixpointResult team_fixpoint(const TeamMember& team, const DeviceProgram<MemorySpace>& program,
                                                    const StoreRef<Concurrent>& s, int* flags,
                                                    const FixpointOptions& options = {}) {
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
  const int num_ternary = program.num_ternary();
  const int chunk = options.ternary_chunk > 0 ? options.ternary_chunk : 1;
  const int num_chunks = (num_ternary + chunk - 1) / chunk;
  const int num_rows = program.rows.size();
  const int num_lane_rows = program.num_lane_rows;
  const int num_lane_row_chunks = (num_lane_rows + chunk - 1) / chunk;
  for (;;) {
    const int cur = res.iterations % 3;
    // Every writer stores the same value: the races are benign.
    auto report = [&](int st) {
      if (st & prop_changed) flags[cur] = 1;
      if (st & prop_failed) flags[failed_slot] = 1;
    };
    Kokkos::single(Kokkos::PerTeam(team), [&]() { flags[(res.iterations + 1) % 3] = 0; });
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_chunks), [&](const int c) {
      const int begin = c * chunk;
      const int end = begin + chunk < num_ternary ? begin + chunk : num_ternary;
      if (!options.local_ternary) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, begin, end),
                             [&](const int i) { report(propagate_ternary(program.ternary(i), s)); });
        return;
      }
      for (;;) {
        int st = prop_unchanged;
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(team, begin, end),
            [&](const int i, int& acc) { acc |= propagate_ternary(program.ternary(i), s); },
            OrReducer<int>(st));
        report(st);
        if ((st & prop_failed) || !(st & prop_changed)) break;
      }
    });
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_lane_row_chunks), [&](const int c) {
      const int begin = c * chunk;
      const int end = begin + chunk < num_lane_rows ? begin + chunk : num_lane_rows;
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, begin, end), [&](const int k) {
        report(propagate_linear(SerialLanes{}, program.rows, program.row_order(k), s));
      });
    });
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_lane_rows, num_rows), [&](const int k) {
      report(propagate_linear(lanes, program.rows, program.row_order(k), s));
    });
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, program.elements.size()),
                         [&](const int e) { report(propagate_element(lanes, program.elements, e, s)); });
    team.team_barrier();
    ++res.iterations;
    if (flags[failed_slot] || !flags[cur]) break;
    if (options.max_iterations > 0 && res.iterations >= options.max_iterations) {
      res.capped = true;
      break;
    }
  }
  res.failed = flags[failed_slot] != 0;
  if constexpr (Concurrent) {
    // Two threads narrowing the two bounds of one variable at once may each miss the other's
    // write, so neither reports the wipe-out; a final sweep catches it.
    if (!res.failed) {
      int empty = 0;
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(team, static_cast<int>(0), s.size),
          [&](const int x, int& acc) { acc += s.lb[x] > s.ub[x] ? 1 : 0; }, SumReducer<int>(empty));
      res.failed = empty > 0;
    }
  }
  return res;
}

}  // namespace kcp
