// The search kernel: depth-first search by recomputation, run by one team.
//
// The store lives in team scratch (level 0 when it fits, else level 1). Going down, a decision narrows
// the current store and the fixpoint runs on it; after a failure or a solution, the node to visit next
// is recomputed: the store is restored from the root, the objective bound and every decision on the
// stack are applied, and the fixpoint runs. Memory is O(variables + depth), allocated before launch.
//
// Branching (the thin default; annotations come later): the first unfixed variable in input order,
// bisected: left x <= mid, right x >= mid + 1, so the depth is at most the sum of log2 domain sizes.
//
// A launch runs until it finds a solution, exhausts the tree or has visited `node_budget` nodes; the
// host then prints, checks the time, and relaunches. State between launches lives in SearchState.
//
// Levels: the control logic (stack, branching choice) runs in Kokkos::single(PerTeam) and is published
// through team scratch behind a team_barrier; store copies are TeamThreadRange x ThreadVectorRange;
// the fixpoint is team_fixpoint (see domains/fixpoint.hpp).
#pragma once

#include "domains/fixpoint.hpp"
#include "domains/program.hpp"
#include "search/search_state.hpp"

#include <Kokkos_Core.hpp>

namespace kcp {

template <class ExecSpace, bool Concurrent>
struct DepthFirstSearch {
  using MemorySpace = typename ExecSpace::memory_space;
  using TeamMember = typename Kokkos::TeamPolicy<ExecSpace>::member_type;

  DeviceProgram<MemorySpace> program;
  SearchState<MemorySpace> state;
  int objective = -1;  ///< store variable minimised, or -1
  std::int64_t node_budget = 1;
  int scratch_level = 0;  ///< team scratch level holding the store (0: fast, small; 1: large)

  /// Team scratch: lb, ub, the fixpoint flags and the shared control word.
  static std::size_t scratch_bytes(int num_vars) {
    return 2 * sizeof(std::int32_t) * num_vars + sizeof(int) * (fixpoint_flag_count + 2) + 64;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const TeamMember& team) const {
    const int n = program.num_vars;
    auto& scratch = team.team_scratch(scratch_level);
    std::int32_t* lb = static_cast<std::int32_t*>(scratch.get_shmem(sizeof(std::int32_t) * n));
    std::int32_t* ub = static_cast<std::int32_t*>(scratch.get_shmem(sizeof(std::int32_t) * n));
    int* flags = static_cast<int*>(scratch.get_shmem(sizeof(int) * (fixpoint_flag_count + 2)));
    int* shared = flags + fixpoint_flag_count;  // [0]: the node failed; [1]: what next
    const StoreRef<Concurrent> s{lb, ub, n};
    auto& ctl = state.control;
    if (flags == nullptr) {  // the launch asked for less scratch than this needs: report, do not corrupt
      Kokkos::single(Kokkos::PerTeam(team), [&]() { ctl(ctl_error) = 1; });
      return;
    }

    for (std::int64_t visited = 0; visited < node_budget; ++visited) {
      if (ctl(ctl_restore)) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int x) {
          lb[x] = program.root_lb(x);
          ub[x] = program.root_ub(x);
        });
        team.team_barrier();
        Kokkos::single(Kokkos::PerTeam(team), [&]() {
          int st = 0;
          const std::int64_t best = ctl(ctl_best);
          if (objective >= 0 && best != INT64_MAX) st |= s.narrow_max(objective, best - 1);
          const int depth = static_cast<int>(ctl(ctl_depth));
          for (int d = 0; d < depth; ++d) {
            const int x = state.decision_var(d);
            st |= state.decision_right(d) ? s.narrow_min(x, std::int64_t(state.decision_val(d)) + 1)
                                          : s.narrow_max(x, state.decision_val(d));
          }
          shared[0] = (st & prop_failed) ? 1 : 0;
          ctl(ctl_restore) = 0;
        });
        team.team_barrier();
      } else {
        Kokkos::single(Kokkos::PerTeam(team), [&]() { shared[0] = 0; });
        team.team_barrier();
      }
      bool failed = shared[0] != 0;
      if (!failed) {
        const FixpointResult fp = team_fixpoint(team, program.rows, s, flags);
        failed = fp.failed;
        Kokkos::single(Kokkos::PerTeam(team), [&]() { ctl(ctl_fixpoint_iterations) += fp.iterations; });
      }
      // Branching variable: the first unfixed one (n when all are fixed).
      int branch = n;
      if (!failed) {
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, n),
            [&](const int x, int& acc) {
              if (lb[x] != ub[x] && x < acc) acc = x;
            },
            Kokkos::Min<int>(branch));
      }
      // 0: go down; 1: new solution, end the launch; 2: tree exhausted, end the launch.
      Kokkos::single(Kokkos::PerTeam(team), [&]() {
        ctl(ctl_nodes) += 1;
        int next = 0;
        if (!failed && branch < n) {
          const int depth = static_cast<int>(ctl(ctl_depth));
          const std::int32_t mid =
              static_cast<std::int32_t>(lb[branch] + (std::int64_t(ub[branch]) - lb[branch]) / 2);
          state.decision_var(depth) = branch;
          state.decision_val(depth) = mid;
          state.decision_right(depth) = 0;
          ctl(ctl_depth) = depth + 1;
          if (depth + 1 > ctl(ctl_peak_depth)) ctl(ctl_peak_depth) = depth + 1;
          s.narrow_max(branch, mid);
        } else {
          if (failed) {
            ctl(ctl_failures) += 1;
          } else {
            for (int x = 0; x < n; ++x) state.solution(x) = lb[x];
            ctl(ctl_solutions) += 1;
            ctl(ctl_new_solution) = 1;
            if (objective >= 0) ctl(ctl_best) = lb[objective];
            next = 1;
          }
          // Backtrack: drop exhausted right branches, take the right branch of the deepest left one.
          int depth = static_cast<int>(ctl(ctl_depth));
          while (depth > 0 && state.decision_right(depth - 1)) --depth;
          if (depth == 0) {
            ctl(ctl_exhausted) = 1;
            next = 2;
          } else {
            state.decision_right(depth - 1) = 1;
          }
          ctl(ctl_depth) = depth;
          ctl(ctl_restore) = 1;
        }
        shared[1] = next;
      });
      team.team_barrier();
      if (shared[1] != 0) return;
    }
  }
};

}  // namespace kcp
