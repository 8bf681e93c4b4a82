#include "solver/run.hpp"

#include <Kokkos_Macros.hpp>  // KOKKOS_ENABLE_OPENMP

#include <cstdlib>
#include <iostream>

#ifdef KCP_HAVE_MPI
#include "search/mpi_peers.hpp"
#endif

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
#ifdef KCP_HAVE_MPI
  // Under mpirun (run_cli lets rank 0 print): a rank that fails ends the job (the others would wait for it).
  try {
    kcp::MpiSession mpi(argc, argv);
    const int rc = kcp::run_cli(argc, argv, std::cout, std::cerr);
    std::cout.flush();
    if (rc != 0 && mpi.size() > 1) mpi.abort(rc);
    return rc;
  } catch (const std::exception& e) {
    std::cerr << "kcp: error: " << e.what() << "\n";
    return 1;
  }
#else
  return kcp::run_cli(argc, argv, std::cout, std::cerr);
#endif
}
