// Queue insertion (seed notes "Intra warp synchronization", lecture 20 of Izzat El Hajj's GPU
// Computing): items that pass a test are appended to a global queue through an atomic tail counter.
// - per item: every passing item does its own atomic_fetch_add on the tail;
// - per group: a group of `width` items counts its passing items (a vector-lane reduction), one
//   leader does one atomic for the whole group and broadcasts the base, and each passing item takes
//   base + (passing items before it in the group) from a vector-lane exclusive scan. This is the
//   note's ballot / popc / ffs / shfl recipe in portable Kokkos: the reduction plays __popc(ballot),
//   single(PerThread) with a value plays the leader's atomic and __shfl_sync, the scan plays
//   __popc(mask & lanes_below).
#pragma once

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "perf/studies/common/launch.hpp"

namespace kcp::perf::warp_cooperation {

template <class Exec>
using Items = Kokkos::View<std::int64_t*, Kokkos::Device<Exec, typename Exec::memory_space>>;
/// The tail counter is unsigned long long: Kokkos 3.4 adds to a 64-bit signed integer with a
/// compare-and-swap loop on CUDA, to an unsigned long long with the hardware atomicAdd (on the host,
/// both are one locked add). A CAS loop under contention would flatter the per-group variant.
using Count = unsigned long long;
template <class Exec>
using Counter = Kokkos::View<Count, Kokkos::Device<Exec, typename Exec::memory_space>>;

KOKKOS_INLINE_FUNCTION std::uint32_t hash32(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

/// The test an item passes with probability permille / 1000.
struct Selection {
  std::int64_t n = 0;
  int permille = 1000;
  KOKKOS_INLINE_FUNCTION int operator()(std::int64_t i) const {
    return i < n && static_cast<int>(hash32(static_cast<std::uint32_t>(i)) % 1000U) < permille ? 1 : 0;
  }
};

template <class Exec>
void queue_per_item(const Exec& exec, const Selection& selected, const Items<Exec>& queue, const Counter<Exec>& tail) {
  Kokkos::parallel_for(
      "kcp::perf::warp_cooperation::queue_per_item",
      Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, selected.n), KOKKOS_LAMBDA(std::int64_t i) {
        if (selected(i)) queue(Kokkos::atomic_fetch_add(&tail(), Count{1})) = i;
      });
}

/// Levels: a team owns groups_per_thread groups per team thread (TeamThreadRange over groups); a
/// group's `width` consecutive items are a ThreadVectorRange (one item per lane of a warp on CUDA
/// with width 32; one thread's loop on a CPU, where the group is a batch of items sharing one atomic).
/// No team barrier: groups are independent; the vector reduction, single and scan synchronise the
/// lanes of one group among themselves.
template <class Exec>
void queue_per_group(const Exec& exec, const Selection& selected, const Items<Exec>& queue, const Counter<Exec>& tail,
                     const TeamShape& shape, int width, int groups_per_thread) {
  const int groups_per_team = shape.team_size * groups_per_thread;
  const std::int64_t items_per_team = std::int64_t{groups_per_team} * width;
  const int league = static_cast<int>((selected.n + items_per_team - 1) / items_per_team);
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  Kokkos::parallel_for(
      "kcp::perf::warp_cooperation::queue_per_group",
      Kokkos::TeamPolicy<Exec>(exec, league, shape.team_size, shape.vector_length),
      KOKKOS_LAMBDA(const member_type& team) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, groups_per_team), [&](int g) {
          const std::int64_t first = std::int64_t{team.league_rank()} * items_per_team + std::int64_t{g} * width;
          std::int64_t count = 0;
          Kokkos::parallel_reduce(
              Kokkos::ThreadVectorRange(team, width), [&](int l, std::int64_t& c) { c += selected(first + l); }, count);
          std::int64_t base = 0;
          Kokkos::single(
              Kokkos::PerThread(team),
              [&](std::int64_t& b) { b = count > 0 ? Kokkos::atomic_fetch_add(&tail(), count) : 0; }, base);
          Kokkos::parallel_scan(Kokkos::ThreadVectorRange(team, width), [&](int l, std::int64_t& before, bool final) {
            const int s = selected(first + l);
            if (final && s) queue(base + before) = first + l;
            before += s;
          });
        });
      });
}

}  // namespace kcp::perf::warp_cooperation
