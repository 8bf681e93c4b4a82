// The device-wide synchronisation study (seed note "Global synchronization of threads across blocks on
// CUDA", neuralgorithm): a time-stepped neuron network, every step reading the previous step of other
// neurons, so that step t + 1 may start only when every neuron has finished step t. Three ways:
// - relaunch: one kernel launch per step (the launch boundary is the synchronisation; the note's ic1);
// - persistent: one launch for all steps, teams meeting at a GridBarrier after each (the note's ic7);
// - cpu_loop: the plain double loop on one host thread (the note's ic0).
//
// The note does not give its model's compute(t, i) (an "internal clock" model). The stand-in here has
// the same shape: each neuron i has an input I_i, reads the traces q of fan_in fixed random partners
// from the previous step, and updates its own trace:
//     u_i = I_i - w sum_k q_{p(i,k)}(t),   z_i = max(u_i, 0),   q_i(t+1) = d q_i(t) + (1 - d) z_i.
// Partners and inputs are hashes of the index, so nothing but the two trace buffers is stored. Every
// variant does the same floating-point operations per neuron in the same order, so their checksums
// agree exactly on one host (and to rounding where a GPU contracts a*b+c into an FMA).
#pragma once

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "perf/studies/common/launch.hpp"
#include "perf/studies/device_sync/grid_barrier.hpp"

namespace kcp::perf::device_sync {

constexpr int fan_in = 8;
constexpr double leak = 0.9;
constexpr double coupling = 1.5 / fan_in;

template <class Exec>
using Traces = Kokkos::View<double*, Kokkos::Device<Exec, typename Exec::memory_space>>;

/// A 32-bit integer hash (lowbias32).
KOKKOS_INLINE_FUNCTION std::uint32_t mix(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

KOKKOS_INLINE_FUNCTION double input(std::uint32_t i) { return 0.5 + static_cast<double>(mix(i) >> 8) / 16777216.; }

/// Partner k of neuron i, uniform in [0, n) (a multiply-shift: no division on the GPU).
KOKKOS_INLINE_FUNCTION std::uint32_t partner(std::uint32_t i, int k, std::uint32_t n) {
  const std::uint32_t h = mix(i * static_cast<std::uint32_t>(fan_in) + static_cast<std::uint32_t>(k) + 0x9e3779b9U);
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(h) * n) >> 32);
}

/// Neuron i's trace after one step, from the traces of the previous step.
KOKKOS_INLINE_FUNCTION double neuron_step(std::uint32_t i, std::uint32_t n, const double* previous) {
  double inhibition = 0.;
  for (int k = 0; k < fan_in; ++k) inhibition += previous[partner(i, k, n)];
  const double u = input(i) - coupling * inhibition;
  const double z = u > 0. ? u : 0.;
  return leak * previous[i] + (1. - leak) * z;
}

/// One step for every neuron; the launch is the barrier between steps.
template <class Exec>
struct Step {
  Traces<Exec> previous, next;
  std::uint32_t n;
  KOKKOS_INLINE_FUNCTION void operator()(std::uint32_t i) const { next(i) = neuron_step(i, n, previous.data()); }
};

template <class Exec>
void relaunch(const Exec& exec, const Traces<Exec>& a, const Traces<Exec>& b, std::uint32_t n, int steps) {
  for (int t = 0; t < steps; ++t) {
    const bool even = t % 2 == 0;
    Kokkos::parallel_for("kcp::perf::device_sync::relaunch_step",
                         Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::uint32_t>>(exec, 0, n),
                         Step<Exec>{even ? a : b, even ? b : a, n});
  }
}

/// Team size of the persistent kernel on CUDA, fixed at compile time by its launch bounds.
constexpr int gpu_team_size = 256;
/// Launch bounds: 256 threads, 8 teams per SM, i.e. 2048 threads, the most an SM holds on Volta to
/// Hopper. nvcc limits the registers so that 8 such teams fit (65536 / 2048 = 32 per thread, spilling
/// if it must); Kokkos' per-team shared memory for a parallel_for is about 2 KiB. So all
/// concurrency() / 256 teams can be resident, which is what the barrier needs. On a CPU the bounds
/// are ignored.
using PersistentBounds = Kokkos::LaunchBounds<gpu_team_size, 8>;

/// All steps in one launch. Levels: team r owns the contiguous neurons [n r / L, n (r + 1) / L) and
/// its threads split them with a TeamThreadRange (coalesced on CUDA; one thread's loop on a CPU); no
/// vector level. Barriers: a GridBarrier after every step, because the next step reads the traces
/// that the other teams have just written.
template <class Exec>
struct Persistent {
  using member_type = typename Kokkos::TeamPolicy<Exec, PersistentBounds>::member_type;
  Traces<Exec> a, b;
  std::uint32_t n;
  int steps;
  GridBarrier<typename Exec::memory_space> barrier;

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    const std::uint64_t teams = static_cast<std::uint64_t>(team.league_size());
    const std::uint64_t r = static_cast<std::uint64_t>(team.league_rank());
    const auto lo = static_cast<std::uint32_t>(n * r / teams);
    const auto hi = static_cast<std::uint32_t>(n * (r + 1) / teams);
    for (int t = 0; t < steps; ++t) {
      const double* previous = t % 2 == 0 ? a.data() : b.data();
      double* next = t % 2 == 0 ? b.data() : a.data();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, lo, hi),
                           [&](std::uint32_t i) { next[i] = neuron_step(i, n, previous); });
      barrier.wait(team, t);
    }
  }
};

/// Teams that can run at once, the most a persistent launch may have:
/// - Serial: one team (the barrier is then a counter that one team fills);
/// - OpenMP: one team of one thread per pool thread; set_chunk_size(1) below gives each thread
///   exactly one team, so a team never waits for one queued behind it on the same thread;
/// - CUDA: concurrency() / team size, with the launch bounds above making that many fit.
/// persistent() checks it: a first launch whose barrier gives up halves the league.
template <class Exec>
int resident_teams(const Exec& exec) {
  if constexpr (is_gpu_space<Exec>()) {
    return exec.concurrency() / gpu_team_size;
  } else {
    return exec.concurrency();
  }
}

/// Spins before the barrier gives up: ~1-5 s on either kind of device, well above a step's cost
/// (a waiting CPU thread may also lose its core to another process for a few scheduler ticks).
template <class Exec>
std::int64_t spin_limit() {
  if constexpr (is_gpu_space<Exec>()) {
    return std::int64_t{1} << 23;
  } else {
    return std::int64_t{1} << 30;
  }
}

template <class Exec>
Kokkos::TeamPolicy<Exec, PersistentBounds> persistent_policy(const Exec& exec, int league) {
  Kokkos::TeamPolicy<Exec, PersistentBounds> policy(exec, league, block_teams<Exec>(gpu_team_size).team_size);
  policy.set_chunk_size(1);
  return policy;
}

/// Runs the persistent kernel; returns false when its barrier gave up (teams not all resident).
template <class Exec>
bool persistent(const Exec& exec, const Traces<Exec>& a, const Traces<Exec>& b, std::uint32_t n, int steps,
                const GridBarrier<typename Exec::memory_space>& barrier) {
  barrier.reset(exec);
  Kokkos::parallel_for("kcp::perf::device_sync::persistent", persistent_policy(exec, barrier.teams),
                       Persistent<Exec>{a, b, n, steps, barrier});
  exec.fence();
  return !barrier.timed_out();
}

/// The league of the persistent kernel for n neurons: one team per team-size neurons (the note's
/// numberOfNeurons / threadsPerBlock), at most the resident teams, halved while a 2-step probe launch
/// finds the barrier giving up.
template <class Exec>
int persistent_league(const Exec& exec, const Traces<Exec>& a, const Traces<Exec>& b, std::uint32_t n) {
  const int team_size = block_teams<Exec>(gpu_team_size).team_size;
  const std::int64_t wanted = (std::int64_t{n} + team_size - 1) / team_size;
  int league = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(resident_teams(exec), wanted)));
  while (!persistent(exec, a, b, n, 2, GridBarrier<typename Exec::memory_space>(league, spin_limit<Exec>()))) {
    if (league == 1) throw std::runtime_error("device_sync: a one-team persistent launch timed out");
    league /= 2;
  }
  return league;
}

}  // namespace kcp::perf::device_sync
