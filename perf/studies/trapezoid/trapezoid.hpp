// The trapezoid-rule study (seed note "Warps, Blocks, and Synchronization", K. Cooper, 2014): the
// note's f(x) = sin(g(x)) + 2 cos(g(x)), g(x) = 2 + x(-1 + x(0.5 - 0.2 x)), on [-1, 1] with N points
// x_i = -1 + i h, h = 2 / (N - 1), summed as h/2 f(x_0) + h f(x_1) + ... + h/2 f(x_{N-1}).
//
// The note's ladder of reductions, each a Kokkos kernel that runs unchanged on Serial, OpenMP and
// CUDA, against the reductions Kokkos and Kokkos Kernels provide. A "block" of the note is a team; on
// CUDA it has `block` threads (one leaf each), on a CPU one thread walks the same tree.
#pragma once

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <utility>

#include "perf/studies/common/launch.hpp"

namespace kcp::perf::trapezoid {

/// The integral of f over [-1, 1] as the note gives it (checked against f by perf/studies/report.py).
constexpr double exact_integral = -0.34702211863386324383;

template <class Exec>
using Vector = Kokkos::View<double*, Kokkos::LayoutLeft, Kokkos::Device<Exec, typename Exec::memory_space>>;

template <class Exec>
using Range = Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>;

/// The note's function, g in Horner form as the note writes it.
KOKKOS_INLINE_FUNCTION double f(double x) {
  const double g = 2. + x * (-1. + x * (0.5 - x * 0.2));
  return ::sin(g) + 2. * ::cos(g);
}

struct Grid {
  std::int64_t n = 0;
  double a = -1., h = 0.;
  static Grid on(std::int64_t n) { return {n, -1., 2. / static_cast<double>(n - 1)}; }
  KOKKOS_INLINE_FUNCTION double x(std::int64_t i) const { return a + static_cast<double>(i) * h; }
  KOKKOS_INLINE_FUNCTION double weight(std::int64_t i) const { return (i == 0 || i == n - 1) ? 0.5 * h : h; }
  /// The note's array entry: the weighted function value, 0 past the end (padding of the last team).
  KOKKOS_INLINE_FUNCTION double term(std::int64_t i) const { return i < n ? weight(i) * f(x(i)) : 0.; }
};

/// Leaves of a tree computed on the fly (the first pass over the points).
struct PointSource {
  Grid grid;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t i) const { return grid.term(i); }
};

/// Leaves of a tree read from an array (the second pass over partial sums, or a precomputed array).
template <class Exec>
struct ArraySource {
  Vector<Exec> v;
  std::int64_t n = 0;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t i) const { return i < n ? v(i) : 0.; }
};

enum class Tree { interleaved, sequential };

/// Shape of the note's block reduction: `block` leaves per team (a power of two), each leaf the sum of
/// `per_thread` consecutive-by-block items kept in a register, and the team's threads.
struct Ladder {
  int block = 256;
  int per_thread = 1;
  TeamShape shape;
  std::int64_t items_per_team() const { return std::int64_t{block} * per_thread; }
};

/// One team reduces items [t B k, (t+1) B k) of `source` (B = block, k = per_thread) into partial(t).
/// Levels: the leaves and the tree steps are TeamThreadRange loops (one leaf per thread on CUDA, one
/// thread walking them all on a CPU); no vector level. Barriers: one after the leaves and one after
/// each tree step, because the next step reads what other threads just wrote in scratch (the note's
/// __syncthreads()). The tree lives in team scratch (the note's shared memory).
/// - interleaved: step `jump` adds leaf j + jump into leaf j for j a multiple of 2 jump; every warp
///   keeps one active thread to the end (the note's divergent branch).
/// - sequential: step `jump` adds the upper half into the lower half; only the first `jump` threads
///   work, so whole warps drop out (the note's "count differently").
template <class Exec, class Source, Tree tree>
struct TeamTree {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using Scratch = Kokkos::View<double*, typename Exec::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  Source source;
  Vector<Exec> partial;
  int block;
  int per_thread;

  KOKKOS_FUNCTION void operator()(const member_type& team) const {
    Scratch leaves(team.team_scratch(0), block);
    const std::int64_t first = std::int64_t{team.league_rank()} * block * per_thread;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, block), [&](int j) {
      double s = 0.;  // a register: per_thread items, `block` apart so that a warp's loads are contiguous
      for (int c = 0; c < per_thread; ++c) s += source(first + std::int64_t{c} * block + j);
      leaves(j) = s;
    });
    team.team_barrier();
    if constexpr (tree == Tree::interleaved) {
      for (int jump = 1; jump < block; jump *= 2) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, block), [&](int j) {
          if (j % (2 * jump) == 0) leaves(j) += leaves(j + jump);
        });
        team.team_barrier();
      }
    } else {
      for (int jump = block / 2; jump > 0; jump /= 2) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, jump), [&](int j) { leaves(j) += leaves(j + jump); });
        team.team_barrier();
      }
    }
    Kokkos::single(Kokkos::PerTeam(team), [&]() { partial(team.league_rank()) = leaves(0); });
  }
};

/// Launches TeamTree over `items` items of `source`; returns the number of partial sums written.
template <Tree tree, class Exec, class Source>
std::int64_t team_partials(const Exec& exec, const char* label, const Source& source, std::int64_t items,
                           const Vector<Exec>& partial, const Ladder& ladder) {
  const std::int64_t league = (items + ladder.items_per_team() - 1) / ladder.items_per_team();
  using Scratch = typename TeamTree<Exec, Source, tree>::Scratch;
  Kokkos::TeamPolicy<Exec> policy(exec, static_cast<int>(league), ladder.shape.team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(Scratch::shmem_size(ladder.block)));
  Kokkos::parallel_for(label, policy, TeamTree<Exec, Source, tree>{source, partial, ladder.block, ladder.per_thread});
  return league;
}

/// The note's second pass: the same tree over the partial sums, relaunched until one value is left
/// (each launch boundary is the device-wide synchronisation the blocks need).
template <Tree tree, class Exec>
double reduce_partials(const Exec& exec, Vector<Exec> in, Vector<Exec> out, std::int64_t n, const Ladder& ladder) {
  while (n > 1) {
    n = team_partials<tree>(exec, "kcp::perf::trapezoid::second_pass", ArraySource<Exec>{in, n}, n, out, ladder);
    std::swap(in, out);
  }
  double result = 0.;
  Kokkos::deep_copy(result, Kokkos::subview(in, 0));
  return result;
}

/// Scratch trees over the points, then the partial sums reduced on the device.
template <Tree tree, class Exec>
double tree_two_pass(const Exec& exec, const char* label, const Grid& grid, const Vector<Exec>& a,
                     const Vector<Exec>& b, const Ladder& ladder) {
  const std::int64_t n = team_partials<tree>(exec, label, PointSource{grid}, grid.n, a, ladder);
  return reduce_partials<tree>(exec, a, b, n, ladder);
}

/// Interleaved scratch trees, then the note's "stupid sloppy sequential sum" of the partials on the host.
template <class Exec, class HostVector>
double interleaved_host_sum(const Exec& exec, const Grid& grid, const Vector<Exec>& partial, const HostVector& host,
                            const Ladder& ladder) {
  const std::int64_t n = team_partials<Tree::interleaved>(exec, "kcp::perf::trapezoid::interleaved_host_sum",
                                                          PointSource{grid}, grid.n, partial, ladder);
  const auto range = std::make_pair(std::int64_t{0}, n);
  Kokkos::deep_copy(exec, Kokkos::subview(host, range), Kokkos::subview(partial, range));
  exec.fence();
  double s = 0.;
  for (std::int64_t i = 0; i < n; ++i) s += host(i);
  return s;
}

/// The flat baseline: one parallel_reduce over the points; Kokkos picks the tree (on CUDA: per-thread
/// sums, warp shuffles, one block-level step, a last-block finish).
template <class Exec>
double flat_reduce(const Exec& exec, const Grid& grid) {
  double s = 0.;
  Kokkos::parallel_reduce(
      "kcp::perf::trapezoid::flat", Range<Exec>(exec, 0, grid.n),
      KOKKOS_LAMBDA(std::int64_t i, double& sum) { sum += grid.term(i); }, s);
  return s;
}

/// The hierarchical baseline. Levels: a team owns rows x `width` consecutive points; TeamThreadRange
/// over its rows, ThreadVectorRange over a row's points (the lanes of a warp on CUDA, a plain loop on
/// a CPU), the team's sum added once per team (single PerTeam). No explicit barrier: the nested
/// reductions end with their own.
template <class Exec>
double nested_reduce(const Exec& exec, const Grid& grid, const TeamShape& shape, int rows_per_thread) {
  const int width = 32;
  const int rows = shape.team_size * rows_per_thread;
  const std::int64_t per_team = std::int64_t{rows} * width;
  const int league = static_cast<int>((grid.n + per_team - 1) / per_team);
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  double s = 0.;
  Kokkos::parallel_reduce(
      "kcp::perf::trapezoid::nested", Kokkos::TeamPolicy<Exec>(exec, league, shape.team_size, shape.vector_length),
      KOKKOS_LAMBDA(const member_type& team, double& total) {
        const std::int64_t first = std::int64_t{team.league_rank()} * per_team;
        double team_sum = 0.;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, rows),
            [&](int r, double& row_sums) {
              double row = 0.;
              Kokkos::parallel_reduce(
                  Kokkos::ThreadVectorRange(team, width),
                  [&](int v, double& lanes) { lanes += grid.term(first + std::int64_t{r} * width + v); }, row);
              row_sums += row;
            },
            team_sum);
        Kokkos::single(Kokkos::PerTeam(team), [&]() { total += team_sum; });
      },
      s);
  return s;
}

/// The note's array of weighted function values.
template <class Exec>
void evaluate(const Exec& exec, const Grid& grid, const Vector<Exec>& values) {
  Kokkos::parallel_for(
      "kcp::perf::trapezoid::evaluate", Range<Exec>(exec, 0, grid.n),
      KOKKOS_LAMBDA(std::int64_t i) { values(i) = grid.term(i); });
}

/// f(x_i) and the weights apart, for a dot product.
template <class Exec>
void evaluate_apart(const Exec& exec, const Grid& grid, const Vector<Exec>& fx, const Vector<Exec>& w) {
  Kokkos::parallel_for(
      "kcp::perf::trapezoid::evaluate_apart", Range<Exec>(exec, 0, grid.n), KOKKOS_LAMBDA(std::int64_t i) {
        fx(i) = f(grid.x(i));
        w(i) = grid.weight(i);
      });
}

/// The note's first attempt: evaluate, then ONE launch in which item i adds i + jump for every stride
/// its index allows, with nothing ordering one stride after the previous one in other threads. It is
/// wrong wherever items do not all run in lock step: on CUDA blocks run in waves (the value changes
/// from run to run), on a CPU item 0 runs before item 2 has added item 3 (wrong every time, the same
/// way). The race is the point of this variant and formally a data race; the volatile pointer keeps
/// every read and write a memory access, as in the note's CUDA code, so the value is what the
/// interleaving of the hardware gives and not what the optimiser makes of it.
template <class Exec>
double global_single_launch(const Exec& exec, const Grid& grid, const Vector<Exec>& values) {
  evaluate(exec, grid, values);
  const std::int64_t n = grid.n;
  Kokkos::parallel_for(
      "kcp::perf::trapezoid::global_single_launch", Range<Exec>(exec, 0, n), KOKKOS_LAMBDA(std::int64_t i) {
        volatile double* v = values.data();
        for (std::int64_t jump = 1; jump < n; jump *= 2) {
          if (i % (2 * jump) != 0) return;
          if (i + jump < n) v[i] = v[i] + v[i + jump];
        }
      });
  double result = 0.;
  Kokkos::deep_copy(result, Kokkos::subview(values, 0));
  return result;
}

/// The fix: the same interleaved sum in global memory, one launch per stride ("any time we need all
/// blocks to run before we proceed, we must quit the current kernel and start another").
template <class Exec>
double global_launch_per_stride(const Exec& exec, const Grid& grid, const Vector<Exec>& values) {
  evaluate(exec, grid, values);
  const std::int64_t n = grid.n;
  for (std::int64_t jump = 1; jump < n; jump *= 2) {
    const std::int64_t pairs = (n - jump + 2 * jump - 1) / (2 * jump);  // i = 2 jump k with i + jump < n
    Kokkos::parallel_for(
        "kcp::perf::trapezoid::global_stride", Range<Exec>(exec, 0, pairs), KOKKOS_LAMBDA(std::int64_t k) {
          const std::int64_t i = 2 * jump * k;
          values(i) += values(i + jump);
        });
  }
  double result = 0.;
  Kokkos::deep_copy(result, Kokkos::subview(values, 0));
  return result;
}

/// Memory-bound baseline: a flat parallel_reduce over a precomputed array.
template <class Exec>
double array_flat_reduce(const Exec& exec, const Vector<Exec>& values) {
  double s = 0.;
  Kokkos::parallel_reduce(
      "kcp::perf::trapezoid::array_flat", Range<Exec>(exec, 0, values.extent(0)),
      KOKKOS_LAMBDA(std::int64_t i, double& sum) { sum += values(i); }, s);
  return s;
}

/// Copy bandwidth reference: a copy kernel (the same Kokkos code on every backend).
template <class Exec>
void copy_kernel(const Exec& exec, const Vector<Exec>& dst, const Vector<Exec>& src) {
  Kokkos::parallel_for(
      "kcp::perf::trapezoid::copy", Range<Exec>(exec, 0, src.extent(0)),
      KOKKOS_LAMBDA(std::int64_t i) { dst(i) = src(i); });
}

}  // namespace kcp::perf::trapezoid
