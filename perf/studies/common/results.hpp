// What every study writes: one CSV row per (variant, size, parameter) with the run's revision,
// Kokkos configuration, backend, device and threads, plus the timing helpers all studies share.
#pragma once

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "perf/studies/common/spaces.hpp"

namespace kcp::perf {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

/// Wall-clock times of `reps` runs after one warm-up run, each between two fences.
struct Timing {
  double best_s = nan;
  double median_s = nan;
  double total_s = 0;  ///< warm-up included: what the measurement cost
  int reps = 0;
};

/// A timed run and the value its last repetition computed.
struct Measured {
  Timing timing;
  double value = nan;
};

/// Runs `run` (returning the variant's result as a double) once to warm up, then `reps` times.
/// The best time is reported: the machines these run on are shared, and the minimum is the run least
/// disturbed by others; the median is kept beside it to show the spread.
template <class Exec, class Run>
Measured measure(const Exec& exec, int reps, Run&& run) {
  Measured m;
  Kokkos::Timer total;
  exec.fence();
  m.value = run();
  exec.fence();
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    exec.fence();
    Kokkos::Timer timer;
    m.value = run();
    exec.fence();
    times.push_back(timer.seconds());
  }
  std::sort(times.begin(), times.end());
  m.timing.reps = reps;
  if (!times.empty()) {
    m.timing.best_s = times.front();
    m.timing.median_s = times[times.size() / 2];
  }
  m.timing.total_s = total.seconds();
  return m;
}

struct Row {
  std::string variant;
  std::int64_t size = 0;
  std::string param;
  double value = nan;
  double error = nan;
  Timing timing;
  double throughput = nan;  ///< per second, in `unit`
  std::string unit;
};

/// What every row of one run shares.
struct RunInfo {
  std::string study, backend, device, revision, kokkos, machine;
  int threads = 1;
};

/// Writes the header on construction and one line per row (flushed, so an interrupted run keeps its
/// rows); each row is also printed on stdout.
class CsvWriter {
 public:
  CsvWriter(const std::string& path, RunInfo info);
  void write(const Row& row);
  const RunInfo& info() const { return info_; }

 private:
  std::ofstream out_;
  RunInfo info_;
};

/// Skips a variant's larger sizes once one size cost more than the budget: sizes grow by 2x or more,
/// so the next one would cost at least twice as much.
class VariantBudget {
 public:
  explicit VariantBudget(double max_s) : max_s_(max_s) {}
  bool allowed(const std::string& variant) const { return over_.count(variant) == 0; }
  void record(const std::string& variant, double spent_s);

 private:
  double max_s_;
  std::map<std::string, double> over_;
};

std::string hostname();
std::string cpu_model();
/// git revision of the source tree (12 digits), with "+perf-modified" when perf/studies differs from
/// it; KCP_REVISION in the environment overrides; the revision at configure time when git fails.
std::string source_revision();
/// "Kokkos 3.4.1 Serial+OpenMP+Cuda(sm_90)": the part of Kokkos' configuration a result depends on.
std::string kokkos_summary();
/// Kokkos::print_configuration, written beside the CSV.
void write_kokkos_configuration(const std::string& path);

template <class Exec>
std::string device_name(const Exec&) {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<Exec, Kokkos::Cuda>) {
    return Kokkos::Cuda().cuda_device_prop().name;
  } else {
    return cpu_model();
  }
#else
  return cpu_model();
#endif
}

/// Threads the space runs at once: 1 for Serial, the pool for OpenMP, resident threads for CUDA.
template <class Exec>
int space_threads(const Exec& exec) {
  return exec.concurrency();
}

template <class Exec>
RunInfo make_run_info(const std::string& study, const Exec& exec, const std::string& machine) {
  RunInfo info;
  info.study = study;
  info.backend = Exec::name();
  std::transform(info.backend.begin(), info.backend.end(), info.backend.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  info.device = device_name(exec);
  info.threads = space_threads(exec);
  info.revision = source_revision();
  info.kokkos = kokkos_summary();
  info.machine = machine;
  return info;
}

/// log2 sizes lo..hi as values.
std::vector<std::int64_t> powers_of_two(int lo, int hi);

}  // namespace kcp::perf
