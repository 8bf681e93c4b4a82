// kcp-perf-device-sync: the device-wide synchronisation study (perf/README.md).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "perf/studies/common/options.hpp"
#include "perf/studies/common/results.hpp"
#include "perf/studies/device_sync/device_sync.hpp"

namespace kcp::perf::device_sync {

struct Options {
  CommonOptions common;
  int min_log2 = 10;
  int max_log2 = 20;
  int steps = 1000;
  int cpu_loop_max_log2 = 20;
  std::vector<std::string> only;
};

/// The note's ic0: the double loop on one host thread, no Kokkos. Returns the final traces.
std::vector<double> cpu_loop(std::uint32_t n, int steps) {
  std::vector<double> previous(n, 0.), next(n);
  for (int t = 0; t < steps; ++t) {
    for (std::uint32_t i = 0; i < n; ++i) next[i] = neuron_step(i, n, previous.data());
    std::swap(previous, next);
  }
  return previous;
}

/// Sum of the traces in index order, the same order for every variant.
template <class View>
double checksum(const View& traces) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), traces);
  double s = 0.;
  for (std::size_t i = 0; i < host.extent(0); ++i) s += host(i);
  return s;
}

template <class Exec>
void run(const Exec& exec, const Options& o) {
  const std::string path = output_path(o.common, "device_sync");
  write_kokkos_configuration(path.substr(0, path.size() - 4) + ".kokkos.txt");
  CsvWriter out(path, make_run_info("device_sync", exec, o.common.machine));
  VariantBudget budget(o.common.max_variant_s);
  auto selected = [&](const std::string& v) {
    return (o.only.empty() || std::find(o.only.begin(), o.only.end(), v) != o.only.end()) && budget.allowed(v);
  };

  for (const std::int64_t size : powers_of_two(o.min_log2, o.max_log2)) {
    const auto n = static_cast<std::uint32_t>(size);
    Traces<Exec> a("kcp::perf::device_sync::a", n), b("kcp::perf::device_sync::b", n);
    const Traces<Exec>& final_traces = o.steps % 2 == 0 ? a : b;

    // The CPU loop's checksum: the other variants' error is relative to it (to relaunch's where the
    // CPU loop is not run).
    double reference = nan;
    auto emit = [&](const std::string& variant, const std::string& param, const Measured& m, double value,
                    const std::string& backend_note) {
      Row row;
      row.variant = variant;
      row.size = size;
      row.param = param + backend_note;
      row.value = value;
      row.error = std::isnan(reference) ? nan : std::abs(value - reference) / std::abs(reference);
      row.timing = m.timing;
      row.throughput = static_cast<double>(size) * o.steps / m.timing.best_s;
      row.unit = "neuron-steps/s";
      out.write(row);
      budget.record(variant, m.timing.total_s);
    };
    const std::string steps_param = fmt::format("steps={}", o.steps);

    if (selected("cpu_loop") && o.cpu_loop_max_log2 >= 0 && size <= (std::int64_t{1} << o.cpu_loop_max_log2)) {
      Kokkos::Profiling::pushRegion("kcp::perf::device_sync::cpu_loop");
      std::vector<double> traces;
      const Measured m = measure(Kokkos::DefaultHostExecutionSpace(), o.common.reps, [&] {
        traces = cpu_loop(n, o.steps);
        return nan;
      });
      Kokkos::Profiling::popRegion();
      double s = 0.;
      for (double q : traces) s += q;
      reference = s;
      emit("cpu_loop", steps_param, m, s, " host-thread=1");
    }

    if (selected("relaunch")) {
      Kokkos::Profiling::pushRegion("kcp::perf::device_sync::relaunch");
      const Measured m = measure(exec, o.common.reps, [&] {
        Kokkos::deep_copy(exec, a, 0.);
        relaunch(exec, a, b, n, o.steps);
        return nan;
      });
      Kokkos::Profiling::popRegion();
      const double value = checksum(final_traces);
      emit("relaunch", steps_param, m, value, "");
      if (std::isnan(reference)) reference = value;
    }

    if (selected("persistent")) {
      Kokkos::Profiling::pushRegion("kcp::perf::device_sync::persistent");
      const int league = persistent_league(exec, a, b, n);
      const GridBarrier<typename Exec::memory_space> barrier(league, spin_limit<Exec>());
      bool resident = true;
      const Measured m = measure(exec, o.common.reps, [&] {
        Kokkos::deep_copy(exec, a, 0.);
        resident = persistent(exec, a, b, n, o.steps, barrier) && resident;
        return nan;
      });
      Kokkos::Profiling::popRegion();
      const std::string param =
          fmt::format("{} teams={} team={}", steps_param, league, block_teams<Exec>(gpu_team_size).team_size);
      if (!resident) fmt::print("  persistent: the barrier gave up during the timed runs: value not valid\n");
      emit("persistent", param, m, resident ? checksum(final_traces) : nan, resident ? "" : " barrier-timeout");
    }
  }
}

}  // namespace kcp::perf::device_sync

int main(int argc, char** argv) {
  using namespace kcp::perf;
  device_sync::Options o;
  CLI::App app{
      "Time-stepped neuron network: one launch per step against one persistent kernel with a device-wide "
      "barrier, and the serial CPU loop"};
  add_common_options(app, o.common);
  app.add_option("--min-log2", o.min_log2, "Fewest neurons: 2^min")->check(CLI::Range(1, 30));
  app.add_option("--max-log2", o.max_log2, "Most neurons: 2^max")->check(CLI::Range(1, 30));
  app.add_option("--steps", o.steps, "Time steps")->check(CLI::PositiveNumber);
  app.add_option("--cpu-loop-max-log2", o.cpu_loop_max_log2,
                 "Run the one-thread CPU loop up to 2^max neurons only (-1: never); beyond, errors are against "
                 "relaunch")
      ->check(CLI::Range(-1, 30));
  app.add_option("--only", o.only, "Run only these variants (cpu_loop, relaunch, persistent)");
  CLI11_PARSE(app, argc, argv);
  try {
    KokkosSession session(o.common.threads);
    resolve_defaults(o.common);
    run_on_space(o.common.space, [&](auto exec) { device_sync::run(exec, o); });
  } catch (const std::exception& e) {
    fmt::print(stderr, "kcp-perf-device-sync: {}\n", e.what());
    return 1;
  }
  return 0;
}
