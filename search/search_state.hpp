// The search state that lives in Views between slices of the search kernel, so the host can stop,
// print and resume without copying the tree back and forth.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kcp {

/// Slots of SearchState::control (int64 each).
enum Control : int {
  ctl_depth = 0,          ///< decisions on the stack
  ctl_exhausted,          ///< 1 once the whole tree has been explored
  ctl_nodes,              ///< nodes (fixpoints) so far
  ctl_failures,           ///< failed nodes so far
  ctl_solutions,          ///< solutions found so far
  ctl_peak_depth,         ///< deepest stack seen
  ctl_fixpoint_iterations,
  ctl_best,               ///< best objective found (minimisation); INT64_MAX while none
  ctl_new_solution,       ///< 1 when `solution` holds a solution the host has not seen
  ctl_restore,            ///< 1 when the next node must be recomputed from the root
  ctl_error,              ///< 1 when the kernel could not get its team scratch
  ctl_count
};

template <class MemorySpace>
struct SearchState {
  Kokkos::View<std::int32_t*, MemorySpace> decision_var;  ///< branching variable per depth
  Kokkos::View<std::int32_t*, MemorySpace> decision_val;  ///< left: x <= val; right: x >= val + 1
  Kokkos::View<std::int8_t*, MemorySpace> decision_right; ///< 1 once the right branch is taken
  Kokkos::View<std::int64_t*, MemorySpace> control;
  Kokkos::View<std::int32_t*, MemorySpace> solution;      ///< the last solution found (store values)

  SearchState() = default;
  SearchState(int num_vars, int max_depth)
      : decision_var("kcp::search::decision_var", max_depth),
        decision_val("kcp::search::decision_val", max_depth),
        decision_right("kcp::search::decision_right", max_depth),
        control("kcp::search::control", ctl_count),
        solution("kcp::search::solution", num_vars) {
    auto h = Kokkos::create_mirror_view(control);
    for (int i = 0; i < ctl_count; ++i) h(i) = 0;
    h(ctl_best) = INT64_MAX;
    h(ctl_restore) = 1;
    Kokkos::deep_copy(control, h);
  }
};

}  // namespace kcp
