// Team shapes of the studies, chosen in one place per backend (the convention of search/launch.hpp,
// kept separate so that a change there does not silently change a measurement): on a GPU a team is a
// block of team_size threads of vector_length lanes; on a CPU a team is one thread, and its vector
// loops are plain (auto-vectorisable) loops.
#pragma once

#include <fmt/format.h>

#include <string>

#include "perf/studies/common/spaces.hpp"

namespace kcp::perf {

struct TeamShape {
  int team_size = 1;
  int vector_length = 1;
  std::string str() const { return fmt::format("{}x{}", team_size, vector_length); }
};

/// Teams of warps: 8 threads x 32 lanes on CUDA (one warp per thread's vector loop), 1 x 1 on a CPU.
template <class Exec>
TeamShape warp_teams() {
  if constexpr (is_gpu_space<Exec>()) {
    return {8, 32};
  } else {
    return {1, 1};
  }
}

/// Teams of plain threads (the seed notes' blocks): `block` threads on CUDA, one thread on a CPU.
template <class Exec>
TeamShape block_teams(int block) {
  if constexpr (is_gpu_space<Exec>()) {
    return {block, 1};
  } else {
    (void)block;
    return {1, 1};
  }
}

}  // namespace kcp::perf
