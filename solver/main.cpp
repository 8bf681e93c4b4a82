#include "solver/run.hpp"

#include <Kokkos_Macros.hpp>  // KOKKOS_ENABLE_OPENMP

#include <cstdlib>
#include <iostream>

#if defined(KOKKOS_ENABLE_OPENMP) && defined(__linux__)
#include <unistd.h>
#endif

int main(int argc, char** argv) {
#if defined(KOKKOS_ENABLE_OPENMP) && defined(__linux__)
  // OpenMP threads that wait for the next launch spin (libgomp's default) unless told otherwise, and
  // beside another busy process that spinning takes the cores the search needs: MiniZinc's bug259 ran
  // 4.3x slower beside one busy loop on 2 cores, passive 1.6x, the share of the cores it got
  // (perf/NOTES.md entry 15). libgomp reads OMP_WAIT_POLICY when it is loaded, before main, so kcp
  // starts itself again once with it set; a policy or spin count the user set is left alone.
  if (std::getenv("OMP_WAIT_POLICY") == nullptr && std::getenv("GOMP_SPINCOUNT") == nullptr) {
    setenv("OMP_WAIT_POLICY", "passive", 1);
    execv("/proc/self/exe", argv);  // returns only on failure: go on with the default policy
  }
#endif
  return kcp::run_cli(argc, argv, std::cout, std::cerr);
}
