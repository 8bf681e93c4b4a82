// Options every study driver takes, and the Kokkos session they run in.
#pragma once

#include "search/launch.hpp"

#include <CLI/CLI.hpp>
#include <string>

namespace kcp::perf {

struct CommonOptions {
  std::string space;          ///< empty: Kokkos' default execution space
  int threads = 0;            ///< OpenMP threads; 0: Kokkos' default (OMP_NUM_THREADS, else every core)
  std::string machine;        ///< empty: the host name
  std::string output_dir;     ///< empty: perf/results/<machine>
  int reps = 5;               ///< timed repetitions after one warm-up
  double max_variant_s = 30;  ///< a variant whose warm-up and repetitions took longer skips larger sizes
};

void add_common_options(CLI::App& app, CommonOptions& options);

/// Fills the defaults that need Kokkos or the host (space, machine, output folder).
void resolve_defaults(CommonOptions& options);

/// <output_dir>/<study>-<space>.csv, the folder created.
std::string output_path(const CommonOptions& options, const std::string& study);

/// Starts Kokkos with the requested threads and finalises it at the end of the scope.
/// Kokkos start-up with --threads: the solver's (search/launch.hpp).
using kcp::KokkosSession;

}  // namespace kcp::perf
