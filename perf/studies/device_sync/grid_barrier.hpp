// A barrier across all the teams of one kernel launch, built on Kokkos atomics (the seed note's
// globalsynchronize(), made reusable: the note's version resets the counter that the other blocks are
// polling, so a block that is late to see the 0 can miss it once a fast block has arrived at the next
// barrier, and wait forever). This one counts arrivals and releases by bumping a generation number.
//
// It is correct only if every team of the launch runs at the same time: a team spinning here while
// another waits for its turn to start never returns. The caller sizes the league so that it does
// (device_sync.hpp: resident teams per backend) and the barrier gives up after a bounded number of
// spins, setting a flag, so that a wrong guess is reported instead of hanging the device.
#pragma once

#include <Kokkos_Core.hpp>
#include <cstdint>

namespace kcp::perf::device_sync {

template <class MemorySpace>
struct GridBarrier {
  /// [0] teams arrived at the current barrier, [1] generation (barriers passed), [2] timed out.
  Kokkos::View<int[3], MemorySpace> state;
  int teams = 1;
  std::int64_t spin_limit = std::int64_t{1} << 30;

  explicit GridBarrier(int teams_, std::int64_t spin_limit_)
      : state("kcp::perf::device_sync::barrier"), teams(teams_), spin_limit(spin_limit_) {}

  /// On the study's execution space: a plain deep_copy would fill on the memory space's default one
  /// (OpenMP for host memory, even in a Serial run).
  template <class Exec>
  void reset(const Exec& exec) const {
    Kokkos::deep_copy(exec, state, 0);
  }

  bool timed_out() const {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state);
    return host(2) != 0;
  }

  /// Called by every thread of every team, the k-th time with generation == k. Barriers: a team
  /// barrier so that the team's writes of this step are done; the leader's fence (release), arrival
  /// and wait; a fence (acquire) so that the other teams' writes are seen; a team barrier so that no
  /// thread of the team runs ahead of its leader. The spin reads through a volatile pointer: a plain
  /// load could be hoisted out of the loop, an atomic read-modify-write would make every waiting team
  /// queue on the counter's cache line.
  template <class Member>
  KOKKOS_FUNCTION void wait(const Member& team, int generation) const {
    team.team_barrier();
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      int* arrived = &state(0);
      volatile int* passed = &state(1);
      volatile int* failed = &state(2);
      Kokkos::memory_fence();
      if (Kokkos::atomic_fetch_add(arrived, 1) == teams - 1) {
        // Last to arrive: nobody can arrive at the next barrier before the generation moves, so the
        // reset cannot race with an arrival.
        Kokkos::atomic_exchange(arrived, 0);
        Kokkos::memory_fence();
        Kokkos::atomic_fetch_add(&state(1), 1);
      } else {
        std::int64_t spins = 0;
        while (*passed == generation) {
          if (*failed != 0 || ++spins == spin_limit) {
            Kokkos::atomic_exchange(&state(2), 1);
            break;
          }
        }
      }
      Kokkos::memory_fence();
    });
    team.team_barrier();
  }
};

}  // namespace kcp::perf::device_sync
