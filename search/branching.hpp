// Branching: which variable to branch on and how to split its domain, following the FlatZinc search
// annotations (int_search / bool_search / seq_search), compiled on the host into phases.
//
// A phase is a list of store variables with a variable choice and a value choice. The first phase
// with an unfixed variable decides; the last phase covers every store variable, so a node where no
// phase has an unfixed variable has every variable fixed (and, after the fixpoint, is a solution).
//
// A decision partitions x's domain into two branches, so every solution lies under exactly one leaf
// (-a prints each once) and the subproblem bit paths of the parallel search name disjoint subtrees:
// - a split at v: left x in [lo, v], right x in [v + 1, hi]; reversed: the other way round.
//   indomain_min is x = lo | x > lo (the same as x = lo | x != lo); indomain_max x = hi | x < hi;
//   split and reverse_split halve [lo, hi] at (lo + hi) div 2 (truncated, as MiniZinc's div; lo when
//   hi = lo + 1); outdomain_min is x > lo | x = lo, outdomain_max
//   x < hi | x = hi.
// - a value decision: left x = v, right x != v (MiniZinc's definition of indomain_median and
//   indomain_random; outdomain_median / outdomain_random reversed). The median is the value of rank
//   (size - 1) / 2 of the domain left (the greatest value not above the median: Gecode's
//   INT_VAL_MED); the random value is drawn from a hash of the seed (-r), x and x's domain at the
//   node, so that it depends on the node only, never on the team or the backend that visits it. On a
//   variable without a bitset (a domain wider than the bitset span, domains/store.hpp) x != v cannot
//   be stored: the value choice falls back to a split at v (x <= v | x > v).
// Domain sizes (first_fail, most_constrained) count the values left, holes excluded; max_regret is
// the gap between the two least values left.
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
#include "search/search_state.hpp"

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
  max_regret,  ///< the greatest gap between the two least values left
  /// The smallest domain size over failure weight (dom/wdeg in its variable form): a node that fails
  /// adds one to the weight of the variable its last decision branched on, in weights shared by every
  /// team (SearchPhases::weights). Read only where the tree is a team's own (below a subproblem's
  /// path, or in a free run): above the paths every team must see the same tree, so there the weights
  /// count as zero (first_fail).
  dom_wdeg,
};

enum class ValueChoice : std::int8_t {
  min = 0,
  max,
  split,
  reverse_split,
  median,
  random,
  out_min,     ///< outdomain_min
  out_max,     ///< outdomain_max
  out_median,  ///< outdomain_median
  out_random,  ///< outdomain_random
};

/// Device form of the phases: phase k owns vars[begin[k], begin[k + 1]).
template <class MemorySpace>
struct SearchPhases {
  Kokkos::View<const std::int32_t*, MemorySpace> begin;
  Kokkos::View<const std::int32_t*, MemorySpace> vars;
  Kokkos::View<const std::int8_t*, MemorySpace> var_choice;
  Kokkos::View<const std::int8_t*, MemorySpace> value_choice;
  Kokkos::View<const std::int32_t*, MemorySpace> occurrences;  ///< per store variable
  /// Failure weights per store variable (VarChoice::dom_wdeg), added to atomically; empty when no
  /// phase uses dom_wdeg.
  Kokkos::View<std::int32_t*, MemorySpace> weights;
  std::uint64_t seed = 0;

  KOKKOS_INLINE_FUNCTION int size() const { return static_cast<int>(var_choice.extent(0)); }
};

struct Branch {
  int var = -1;  ///< -1: every variable is fixed
  std::int32_t lo = 0, hi = 0, v = 0;
  bool reversed = false;
  std::int8_t kind = 0;  ///< a DecisionKind (search/search_state.hpp)
};

namespace detail {

/// Key to minimise: the choice's criterion in the high bits, the position in the phase in the low
/// 28 bits, so ties go to the earliest variable on every backend. size: values left - 1 (< 2^32);
/// regret: the gap between the two least values (< 2^32).
KOKKOS_INLINE_FUNCTION std::int64_t choice_key(VarChoice c, std::int32_t lb, std::int32_t ub, std::int64_t size,
                                               std::int64_t regret, std::int32_t occ, int position,
                                               std::int32_t weight = 0) {
  if (occ > (1 << 20) - 1) occ = (1 << 20) - 1;
  std::int64_t primary = 0;
  switch (c) {
    case VarChoice::input_order: primary = 0; break;
    case VarChoice::max_regret: primary = -regret; break;
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
    case VarChoice::dom_wdeg: {
      // size / (1 + weight) in fixed point; sizes above 2^17 count as equal (key below 2^62).
      const std::int64_t capped = size < (1 << 17) ? size : (1 << 17);
      primary = (capped << 16) / (1 + std::int64_t(weight < 0 ? 0 : weight));
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

/// The random value choice's draw at a node: a hash of the seed, the variable and its domain there.
template <class Store>
KOKKOS_INLINE_FUNCTION std::uint64_t node_draw(std::uint64_t seed, const Store& s, int x,
                                               std::int64_t size) {
  return detail::mix(seed ^ detail::mix(std::uint64_t(x) * 0x9e3779b97f4a7c15ULL ^ std::uint64_t(std::uint32_t(s.min(x)))) ^
                     detail::mix((std::uint64_t(std::uint32_t(s.max(x))) << 32) ^ std::uint64_t(size)));
}

/// How the value choice `vc` branches on x at this node (x unfixed): a split or a value decision.
template <class Store>
KOKKOS_INLINE_FUNCTION Branch branch_on(const Store& s, int x, ValueChoice vc, std::uint64_t seed) {
  Branch b;
  b.var = x;
  b.lo = s.min(x);
  b.hi = s.max(x);
  // MiniZinc's (lb + ub) div 2, which truncates towards zero, and lb for two values (Gecode's
  // INT_VAL_SPLIT_MIN exactly): lo <= mid < hi.
  const std::int64_t mid = std::int64_t(b.hi) - b.lo == 1 ? std::int64_t(b.lo) : (std::int64_t(b.lo) + b.hi) / 2;
  const bool out = vc == ValueChoice::out_median || vc == ValueChoice::out_random;
  switch (vc) {
    case ValueChoice::min: b.v = b.lo; break;
    case ValueChoice::max: b.v = b.hi - 1; b.reversed = true; break;
    case ValueChoice::out_min: b.v = b.lo; b.reversed = true; break;
    case ValueChoice::out_max: b.v = b.hi - 1; break;
    case ValueChoice::split: b.v = static_cast<std::int32_t>(mid); break;
    case ValueChoice::reverse_split: b.v = static_cast<std::int32_t>(mid); b.reversed = true; break;
    case ValueChoice::median:
    case ValueChoice::out_median:
    case ValueChoice::random:
    case ValueChoice::out_random: {
      const std::int64_t size = s.domain_size(x);
      const bool median = vc == ValueChoice::median || vc == ValueChoice::out_median;
      const std::int64_t rank =
          median ? (size - 1) / 2 : static_cast<std::int64_t>(node_draw(seed, s, x, size) % std::uint64_t(size));
      b.v = static_cast<std::int32_t>(s.value_at_rank(x, rank));
      if (s.has_bits(x)) {
        b.kind = decide_value;
        b.reversed = out;
      } else if (b.v == b.hi) {
        // A split at v needs v < hi: the top value goes to the right half (x < hi | x = hi).
        b.v = b.hi - 1;
        b.reversed = !out;
      } else {
        b.reversed = out;
      }
      break;
    }
  }
  return b;
}

/// The decision that takes `b`'s first branch (the search stack's entry for it).
KOKKOS_INLINE_FUNCTION Decision decision_of(const Branch& b) {
  return Decision{b.var, b.lo, b.hi, b.v, static_cast<std::int8_t>(b.reversed), 0, b.kind, 0};
}

/// The branch `b` (on an unfixed variable) as a split of its variable's values into halves by count
/// (SearchOptions::halve_path), the half holding b's first branch's end first.
template <class Store>
KOKKOS_INLINE_FUNCTION Branch halve(const Store& s, const Branch& b) {
  Branch h;
  h.var = b.var;
  h.lo = s.min(b.var);
  h.hi = s.max(b.var);
  h.kind = decide_split;
  h.v = static_cast<std::int32_t>(s.value_at_rank(b.var, (s.domain_size(b.var) - 1) / 2));  // lo <= v < hi
  // Does b's first branch take the values above v first? A split's when reversed; a value decision's
  // when it is x = hi, or x != lo.
  h.reversed = b.kind == decide_split ? b.reversed : b.reversed ? b.v == h.lo : b.v == h.hi;
  return h;
}

/// Solution phase saving: the branch on x (unfixed) whose first branch leads towards x = g, the
/// value x has in the incumbent (g in x's domain): x = g | x != g with a bitset; else a split whose
/// first half keeps g at one of its ends, so that the next decision on x (g an end) takes x = g.
/// Still a partition of x's domain, as every branch is.
template <class Store>
KOKKOS_INLINE_FUNCTION Branch branch_towards(const Store& s, int x, std::int32_t g) {
  Branch b;
  b.var = x;
  b.lo = s.min(x);
  b.hi = s.max(x);
  if (s.has_bits(x)) {
    b.v = g;
    b.kind = decide_value;
  } else if (g == b.hi) {
    b.v = b.hi - 1;  // x = hi | x < hi
    b.reversed = true;
  } else {
    b.v = g;  // x <= g | x > g: x = lo at once when g = lo
  }
  return b;
}

/// The branching decision at the current node. `salt` (0: none) breaks the variable choice's ties
/// from a rotation of each phase: the tie goes to the first variable at or after position salt mod
/// the phase's size, instead of the first one (the free rows' restarts, search/modes.hpp). `adaptive`:
/// whether dom_wdeg reads the failure weights here (see VarChoice::dom_wdeg). `guide` (null: none):
/// solution phase saving, the value choice replaced by branch_towards the guide's value where it is
/// still in the chosen variable's domain (the free rows' incumbent).
template <class TeamMember, class Phases, class Store>
KOKKOS_INLINE_FUNCTION Branch select_branch(const TeamMember& team, const Phases& phases, const Store& s,
                                            std::uint64_t salt = 0, bool adaptive = false,
                                            const std::int32_t* guide = nullptr) {
  for (int k = 0; k < phases.size(); ++k) {
    const int first = phases.begin(k);
    const int n = phases.begin(k + 1) - first;
    const VarChoice vc = static_cast<VarChoice>(phases.var_choice(k));
    const int rotation = salt != 0 && n > 0 ? static_cast<int>(salt % std::uint64_t(n)) : 0;
    std::int64_t best = INT64_MAX;
    if (k > 0) team.team_barrier();  // every thread has read the last phase's result (see above)
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, n),
        [&](const int i, std::int64_t& acc) {
          const int x = phases.vars(first + i);
          const std::int32_t lb = s.min(x), ub = s.max(x);
          if (lb >= ub) return;
          const bool sized = vc == VarChoice::first_fail || vc == VarChoice::anti_first_fail ||
                             vc == VarChoice::most_constrained || vc == VarChoice::dom_wdeg;
          const std::int64_t size = sized ? s.domain_size(x) - 1 : 0;
          const std::int64_t regret = vc == VarChoice::max_regret ? s.next_value(x, std::int64_t(lb) + 1) - lb : 0;
          const int rank = i >= rotation ? i - rotation : i - rotation + n;
          const std::int32_t weight = vc == VarChoice::dom_wdeg && adaptive ? phases.weights(x) : 0;
          const std::int64_t key = detail::choice_key(vc, lb, ub, size, regret, phases.occurrences(x), rank, weight);
          if (key < acc) acc = key;
        },
        MinReducer<std::int64_t>(best));
    if (best == INT64_MAX) continue;
    const int rank = static_cast<int>(((best % (1 << 28)) + (1 << 28)) % (1 << 28));
    const int position = rank + rotation < n ? rank + rotation : rank + rotation - n;
    const int x = phases.vars(first + position);
    if (guide != nullptr && s.contains(x, guide[x])) return branch_towards(s, x, guide[x]);
    return branch_on(s, x, static_cast<ValueChoice>(phases.value_choice(k)), phases.seed);
  }
  return Branch{};
}

}  // namespace kcp
