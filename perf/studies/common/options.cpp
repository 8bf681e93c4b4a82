#include "perf/studies/common/options.hpp"

#include <Kokkos_Core.hpp>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "perf/studies/common/results.hpp"
#include "perf/studies/common/spaces.hpp"

namespace kcp::perf {

void add_common_options(CLI::App& app, CommonOptions& o) {
  app.add_option("--space", o.space, "Execution space (serial, openmp, cuda: those in this build)")
      ->check(CLI::IsMember(available_spaces()));
  app.add_option("--threads", o.threads, "Host threads for OpenMP (0: Kokkos' default)")->check(CLI::NonNegativeNumber);
  app.add_option("--machine", o.machine, "Machine name: results go to perf/results/<machine>/ (default: host name)");
  app.add_option("--output-dir", o.output_dir, "Folder for the CSV (default: perf/results/<machine>)");
  app.add_option("--reps", o.reps, "Timed repetitions after one warm-up; the best is reported")
      ->check(CLI::PositiveNumber);
  app.add_option("--max-variant-s", o.max_variant_s,
                 "A variant that took longer than this at one size (warm-up included) skips the larger sizes")
      ->check(CLI::PositiveNumber);
}

void resolve_defaults(CommonOptions& o) {
  if (o.space.empty()) {
    std::string name = Kokkos::DefaultExecutionSpace::name();
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    o.space = name;
  }
  if (o.machine.empty()) o.machine = hostname();
  if (o.output_dir.empty()) o.output_dir = "perf/results/" + o.machine;
}

std::string output_path(const CommonOptions& o, const std::string& study) {
  std::filesystem::create_directories(o.output_dir);
  return (std::filesystem::path(o.output_dir) / (study + "-" + o.space + ".csv")).string();
}


}  // namespace kcp::perf
