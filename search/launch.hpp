// Launch parameters, chosen in one place per backend (Kokkos Kernels' habit): on a GPU a team is a
// block of team_size warps of vector_length lanes; on a CPU a team is one thread.
#pragma once

#include <Kokkos_Core.hpp>
#include <cstdlib>
#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

namespace kcp {

struct LaunchParams {
  int team_size = 1;
  int vector_length = 1;
};

/// The search kernel's launch bounds on CUDA (host backends ignore them): teams of at most
/// search_max_team_threads threads, and registers few enough for KCP_CUDA_MIN_BLOCKS resident teams
/// per SM (the CMake cache variable of that name). Without bounds ptxas chose 124-172 registers
/// depending on unrelated code changes, which moved the kernel between two resident teams per SM and
/// one (perf/NOTES.md, entry 5). 4 (at most 64 registers, 36 B spilled) ran 1.28x the nodes/s of 2
/// on exp9's subset (entry 6).
#ifndef KCP_CUDA_MIN_BLOCKS
#define KCP_CUDA_MIN_BLOCKS 4
#endif
constexpr int search_max_team_threads = 256;
constexpr int search_min_teams_per_sm = KCP_CUDA_MIN_BLOCKS;
using SearchLaunchBounds = Kokkos::LaunchBounds<search_max_team_threads, search_min_teams_per_sm>;

template <class ExecSpace>
LaunchParams default_launch_params() {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) return {8, 32};
#endif
  return {1, 1};
}

/// Kokkos 3.x launches every team kernel with cudaFuncCachePreferShared (Kokkos_Cuda_Parallel.hpp:
/// TeamPolicy's ParallelFor passes prefer_shmem = true), which on Hopper leaves the L1 data cache
/// 23 KB of the SM's 256 KB while the search kernel's teams need a few KB of shared memory: the
/// propagators, the nogoods and the register spills then come from L2 (perf/NOTES.md, entry 25).
/// Called after the kernel's first launch (Kokkos sets its preference there, once), this sets the
/// shared memory carve-out of `Functor`'s kernel to `percent` of the SM's shared memory, or (percent
/// < 0) to what its resident teams need, rounded up to 8 KB, the rest going to L1 — what Kokkos 4
/// computes itself (nothing to do there). `level0_bytes`: the team scratch of level 0 per team.
/// Returns the carve-out set, in percent (-1: none: another backend, Kokkos 4, or CUDA refused).
template <class Functor, class Policy>
int set_shared_carveout(const Policy& policy, std::size_t level0_bytes, int percent) {
#if defined(KOKKOS_ENABLE_CUDA) && KOKKOS_VERSION < 40000
  if constexpr (std::is_same_v<typename Policy::execution_space, Kokkos::Cuda>) {
    using Launch = Kokkos::Impl::CudaParallelLaunch<Kokkos::Impl::ParallelFor<Functor, Policy>,
                                                    typename Policy::launch_bounds>;
    const void* func = reinterpret_cast<const void*>(Launch::get_kernel_func());
    if (percent < 0) {
      const cudaFuncAttributes& attributes = Launch::get_cuda_func_attributes();
      const cudaDeviceProp& prop = Kokkos::Cuda().cuda_device_prop();
      // Kokkos' own dynamic shared memory per team (its team reductions' buffer) is below 1 KB.
      const std::size_t dynamic = level0_bytes + 1024;
      int blocks = 0;
      if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, func, policy.team_size() * policy.impl_vector_length(),
                                                        dynamic) != cudaSuccess ||
          blocks <= 0) {
        (void)cudaGetLastError();
        return -1;
      }
      const std::size_t per_block = dynamic + attributes.sharedSizeBytes + prop.reservedSharedMemPerBlock;
      const std::size_t granule = 8192, total = prop.sharedMemPerMultiprocessor;
      const std::size_t needed = (std::size_t(blocks) * per_block + granule - 1) / granule * granule;
      percent = static_cast<int>(std::min<std::size_t>(100, (100 * needed + total - 1) / total));
    }
    if (cudaFuncSetAttribute(func, cudaFuncAttributePreferredSharedMemoryCarveout, percent) != cudaSuccess) {
      (void)cudaGetLastError();
      return -1;
    }
    return percent;
  }
#endif
  (void)policy;
  (void)level0_bytes;
  (void)percent;
  return -1;
}

/// Teams the search runs when the caller leaves it to the backend: as many as run at once.
template <class ExecSpace>
int default_teams(const LaunchParams& lp) {
  const int threads = ExecSpace().concurrency();
  return std::max(1, threads / std::max(1, lp.team_size * lp.vector_length));
}

/// Whether --space NAME ("default" included) searches on a GPU.
inline bool space_is_gpu(const std::string& space) {
#ifdef KOKKOS_ENABLE_CUDA
  return space == "cuda" || (space == "default" && std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>);
#else
  (void)space;
  return false;
#endif
}

/// The execution spaces this build has, by the names of the --space options.
inline std::vector<std::string> available_spaces() {
  std::vector<std::string> spaces;
#ifdef KOKKOS_ENABLE_SERIAL
  spaces.push_back("serial");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  spaces.push_back("openmp");
#endif
#ifdef KOKKOS_ENABLE_CUDA
  spaces.push_back("cuda");
#endif
  return spaces;
}

/// Starts Kokkos with `threads` host threads (0: Kokkos' default) unless the caller already has, and
/// finalises it at the end of the scope when it started it. One start-up for kcp and the perf drivers.
class KokkosSession {
 public:
  /// `device`: a GPU to use, modulo the GPUs present (-1: Kokkos' choice); ignored without one.
  explicit KokkosSession(int threads, int device = -1) {
    if (Kokkos::is_initialized()) return;
    // Kokkos warns when OMP_PROC_BIND is unset. The OpenMP runtime has read its environment when it
    // was loaded, so this changes nothing but the message: unset means false, which is what it uses.
    setenv("OMP_PROC_BIND", "false", 0);
    std::vector<std::string> args{"kcp"};
#if KOKKOS_VERSION >= 30700
    if (threads > 0) args.push_back("--kokkos-num-threads=" + std::to_string(threads));
#else
    if (threads > 0) args.push_back("--kokkos-threads=" + std::to_string(threads));
#endif
#ifdef KOKKOS_ENABLE_CUDA
    int gpus = 0;
    if (device >= 0 && cudaGetDeviceCount(&gpus) == cudaSuccess && gpus > 0)
      args.push_back("--kokkos-device-id=" + std::to_string(device % gpus));
#else
    (void)device;
#endif
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    int argc = static_cast<int>(argv.size());
    Kokkos::initialize(argc, argv.data());
    owner_ = true;
  }
  ~KokkosSession() {
    if (owner_) Kokkos::finalize();
  }
  KokkosSession(const KokkosSession&) = delete;
  KokkosSession& operator=(const KokkosSession&) = delete;

 private:
  bool owner_ = false;
};

}  // namespace kcp
