// Branching: which variable to branch on and how to split its domain, following the FlatZinc search
// annotations (int_search / bool_search / seq_search), compiled on the host into phases.
//
// A phase is a list of store variables with a variable choice and a value choice. The first phase
// with an unfixed variable decides; the last phase covers every store variable, so a node where no
// phase has an unfixed variable has every variable fixed (and, after the fixpoint, is a solution).
//
// A decision always splits the domain [lo, hi] of x at v into two halves that partition it:
// left x in [lo, v], right x in [v + 1, hi]; or, when `reversed`, left [v + 1, hi], right [lo, v].
// So every solution lies under exactly one leaf (-a prints each once), and the subproblem bit paths
// of the parallel search name disjoint subtrees. indomain_min is x = lo | x > lo; indomain_max is
// x = hi | x < hi; split and reverse_split halve the domain; median and random split at the median
// and at a random value (the bounds store cannot express x != v, so x = v | x != v becomes a split).
//
// Levels: select_branch is called by every thread of a team; the choice is a TeamThreadRange
// reduction per phase, so all threads agree on it. Two of those reductions in a row need a team
// barrier between them on CUDA with Kokkos 3.4: its inter-warp step (cuda_inter_warp_reduction) leaves
// the partial results in one static __shared__ array per reducer type with no barrier after the
// threads read them, so a warp that starts the next phase's reduction can overwrite a partial that a
// slower warp has not read yet. That warp then chose a different variable, or none ("every variable is
// fixed") while the others went on: an unfixed node reported as a solution, which kcp's checker caught
// on accap_a4 (perf/NOTES.md, entry 6).
#pragma once

#include "domains/store.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kcp {

enum class VarChoice : std::int8_t {
  input_order = 0,
  first_fail,
  anti_first_fail,
  smallest,
  largest,
  occurrence,
  most_constrained,
  max_regret,  ///< bounds domains have no inner gaps: every regret is 1, so this is input order
};

enum class ValueChoice : std::int8_t { min = 0, max, split, reverse_split, median, random };

/// Device form of the phases: phase k owns vars[begin[k], begin[k + 1]).
template <class MemorySpace>
struct SearchPhases {
  Kokkos::View<const std::int32_t*, MemorySpace> begin;
  Kokkos::View<const std::int32_t*, MemorySpace> vars;
  Kokkos::View<const std::int8_t*, MemorySpace> var_choice;
  Kokkos::View<const std::int8_t*, MemorySpace> value_choice;
  Kokkos::View<const std::int32_t*, MemorySpace> occurrences;  ///< per store variable
  std::uint64_t seed = 0;

  KOKKOS_INLINE_FUNCTION int size() const { return static_cast<int>(var_choice.extent(0)); }
};

struct Branch {
  int var = -1;  ///< -1: every variable is fixed
  std::int32_t lo = 0, hi = 0, v = 0;
  bool reversed = false;
};

namespace detail {

/// Key to minimise: the choice's criterion in the high bits, the position in the phase in the low
/// 28 bits, so ties go to the earliest variable on every backend.
KOKKOS_INLINE_FUNCTION std::int64_t choice_key(VarChoice c, std::int32_t lb, std::int32_t ub, std::int32_t occ,
                                               int position) {
  const std::int64_t size = std::int64_t(ub) - lb;  // < 2^32
  if (occ > (1 << 20) - 1) occ = (1 << 20) - 1;
  std::int64_t primary = 0;
  switch (c) {
    case VarChoice::input_order:
    case VarChoice::max_regret: primary = 0; break;
    case VarChoice::first_fail: primary = size; break;
    case VarChoice::anti_first_fail: primary = -size; break;
    case VarChoice::smallest: primary = lb; break;
    case VarChoice::largest: primary = -std::int64_t(ub); break;
    case VarChoice::occurrence: primary = -std::int64_t(occ); break;
    case VarChoice::most_constrained: {
      // Smallest domain, ties to the most occurrences; sizes above 2^13 count as equal so that the
      // key keeps below 2^62.
      const std::int64_t capped = size < (1 << 13) ? size : (1 << 13);
      primary = (capped << 20) - occ;
      break;
    }
  }
  // |primary| < 2^34, so the key stays below 2^62.
  return primary * (std::int64_t(1) << 28) + position;
}

KOKKOS_INLINE_FUNCTION std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

}  // namespace detail

/// The branching decision at the current node; `salt` varies random choices between nodes.
template <class TeamMember, class Phases, bool Concurrent>
KOKKOS_INLINE_FUNCTION Branch select_branch(const TeamMember& team, const Phases& phases,
                                            const StoreRef<Concurrent>& s, std::uint64_t salt) {
  Branch b;
  for (int k = 0; k < phases.size(); ++k) {
    const int first = phases.begin(k);
    const int n = phases.begin(k + 1) - first;
    const VarChoice vc = static_cast<VarChoice>(phases.var_choice(k));
    std::int64_t best = INT64_MAX;
    if (k > 0) team.team_barrier();  // every thread has read the last phase's result (see above)
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, n),
        [&](const int i, std::int64_t& acc) {
          const int x = phases.vars(first + i);
          const std::int32_t lb = s.min(x), ub = s.max(x);
          if (lb == ub) return;
          const std::int64_t key = detail::choice_key(vc, lb, ub, phases.occurrences(x), i);
          if (key < acc) acc = key;
        },
        MinReducer<std::int64_t>(best));
    if (best == INT64_MAX) continue;
    const int position = static_cast<int>(((best % (1 << 28)) + (1 << 28)) % (1 << 28));
    b.var = phases.vars(first + position);
    b.lo = s.min(b.var);
    b.hi = s.max(b.var);
    const std::int64_t mid = b.lo + (std::int64_t(b.hi) - b.lo) / 2;  // lo <= mid < hi
    switch (static_cast<ValueChoice>(phases.value_choice(k))) {
      case ValueChoice::min: b.v = b.lo; break;
      case ValueChoice::max: b.v = b.hi - 1; b.reversed = true; break;
      case ValueChoice::split:
      case ValueChoice::median: b.v = static_cast<std::int32_t>(mid); break;
      case ValueChoice::reverse_split: b.v = static_cast<std::int32_t>(mid); b.reversed = true; break;
      case ValueChoice::random: {
        const std::uint64_t r = detail::mix(phases.seed ^ detail::mix(salt) ^ std::uint64_t(b.var));
        b.v = static_cast<std::int32_t>(b.lo + std::int64_t(r % std::uint64_t(std::int64_t(b.hi) - b.lo)));
        break;
      }
    }
    return b;
  }
  return b;
}

}  // namespace kcp
