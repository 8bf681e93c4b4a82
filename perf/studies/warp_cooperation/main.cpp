// kcp-perf-warp-cooperation: queue insertion and ELL/JDS SpMV (perf/README.md).
#include "perf/studies/common/options.hpp"
#include "perf/studies/common/results.hpp"
#include "perf/studies/warp_cooperation/queue.hpp"
#include "perf/studies/warp_cooperation/spmv.hpp"
#ifdef KCP_PERF_KERNELS
#include "perf/studies/warp_cooperation/kk_spmv.hpp"
#endif

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace kcp::perf::warp_cooperation {

struct Options {
  CommonOptions common;
  int queue_min_log2 = 16;
  int queue_max_log2 = 24;
  std::vector<double> select{1.0, 0.1};
  int width = 32;
  int groups_per_thread = 4;
  int spmv_min_log2 = 14;
  int spmv_max_log2 = 20;
  int rows_per_team = 256;
  std::vector<std::string> only;
};

/// Items the queue should hold, and how many of the queue's do not match (0: correct).
double queue_mismatches(const Selection& selected, std::int64_t count, const std::vector<std::int64_t>& got) {
  std::vector<std::int64_t> expected;
  for (std::int64_t i = 0; i < selected.n; ++i)
    if (selected(i)) expected.push_back(i);
  if (count != static_cast<std::int64_t>(expected.size()))
    return std::abs(static_cast<double>(count - expected.size()));
  std::vector<std::int64_t> sorted(got.begin(), got.begin() + count);
  std::sort(sorted.begin(), sorted.end());
  std::int64_t wrong = 0;
  for (std::size_t k = 0; k < sorted.size(); ++k) wrong += sorted[k] != expected[k];
  return static_cast<double>(wrong);
}

template <class Exec>
void run(const Exec& exec, const Options& o) {
  const std::string path = output_path(o.common, "warp_cooperation");
  write_kokkos_configuration(path.substr(0, path.size() - 4) + ".kokkos.txt");
  CsvWriter out(path, make_run_info("warp_cooperation", exec, o.common.machine));
  VariantBudget budget(o.common.max_variant_s);
  const TeamShape shape = warp_teams<Exec>();
  auto selected_variant = [&](const std::string& v, const std::string& key) {
    return (o.only.empty() || std::find(o.only.begin(), o.only.end(), v) != o.only.end()) && budget.allowed(key);
  };
  auto timed = [&](const std::string& variant, auto&& body) {
    Kokkos::Profiling::pushRegion("kcp::perf::warp_cooperation::" + variant);
    const Measured m = measure(exec, o.common.reps, body);
    Kokkos::Profiling::popRegion();
    return m;
  };

  // Queue insertion, per selectivity (1.0: every item inserts, the most contention on the tail).
  for (const std::int64_t n : powers_of_two(o.queue_min_log2, o.queue_max_log2)) {
    Items<Exec> queue("kcp::perf::warp_cooperation::queue", n);
    Counter<Exec> tail("kcp::perf::warp_cooperation::tail");
    for (const double fraction : o.select) {
      const Selection selected{n, static_cast<int>(std::lround(fraction * 1000))};
      const std::string base_param = fmt::format("select={}", fraction);
      auto record = [&](const std::string& variant, const std::string& param, auto&& body) {
        const std::string key = variant + " " + base_param;
        if (!selected_variant(variant, key)) return;
        const Measured m = timed(variant, body);
        Count tail_value = 0;
        Kokkos::deep_copy(tail_value, tail);
        const auto count = static_cast<std::int64_t>(tail_value);
        auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), queue);
        std::vector<std::int64_t> got(host.data(), host.data() + std::min<std::int64_t>(count, n));
        Row row;
        row.variant = variant;
        row.size = n;
        row.param = param;
        row.value = static_cast<double>(count);
        row.error = queue_mismatches(selected, count, got);
        row.timing = m.timing;
        row.throughput = static_cast<double>(n) / m.timing.best_s;
        row.unit = "items/s";
        out.write(row);
        budget.record(key, m.timing.total_s);
      };
      record("queue_atomic_per_item", base_param, [&] {
        Kokkos::deep_copy(exec, tail, Count{0});
        queue_per_item(exec, selected, queue, tail);
        return nan;
      });
      record("queue_atomic_per_group",
             fmt::format("{} width={} team={} groups={}", base_param, o.width, shape.str(), o.groups_per_thread), [&] {
               Kokkos::deep_copy(exec, tail, Count{0});
               queue_per_group(exec, selected, queue, tail, shape, o.width, o.groups_per_thread);
               return nan;
             });
    }
  }

  // SpMV on a banded and an irregular matrix.
  for (const std::int64_t size : powers_of_two(o.spmv_min_log2, o.spmv_max_log2)) {
    const int n = static_cast<int>(size);
    std::vector<double> x_host(n);
    for (int j = 0; j < n; ++j) x_host[j] = 1. + 0.001 * (j % 1000);
    for (const std::string matrix : {"banded", "irregular"}) {
      const HostCrs a = matrix == "banded" ? banded_matrix(n, 3) : irregular_matrix(n);
      const std::vector<double> reference = host_spmv(a, x_host);
      double reference_max = 0.;
      for (double v : reference) reference_max = std::max(reference_max, std::abs(v));
      const Crs<Exec> crs = to_device_crs<Exec>(a);
      const Ell<Exec> ell = to_device_ell<Exec>(a);
      const Jds<Exec> jds = to_device_jds<Exec>(a);
      Vector<Exec> x("kcp::perf::warp_cooperation::x", n), y("kcp::perf::warp_cooperation::y", n);
      Kokkos::deep_copy(x, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(x_host.data(), n));
      const std::string base_param = fmt::format("matrix={} nnz={} max_row={}", matrix, a.nnz(), a.max_row_length());

      auto record = [&](const std::string& variant, const std::string& param, auto&& body) {
        const std::string key = variant + " " + matrix;
        if (!selected_variant(variant, key)) return;
        Kokkos::deep_copy(y, 0.);
        const Measured m = timed(variant, body);
        auto y_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
        double diff = 0., sum = 0.;
        for (int i = 0; i < n; ++i) {
          diff = std::max(diff, std::abs(y_host(i) - reference[i]));
          sum += y_host(i);
        }
        Row row;
        row.variant = variant;
        row.size = n;
        row.param = param;
        row.value = sum;
        row.error = diff / reference_max;
        row.timing = m.timing;
        row.throughput = 2. * a.nnz() / m.timing.best_s;
        row.unit = "flop/s";
        out.write(row);
        budget.record(key, m.timing.total_s);
      };
      const std::string team_param = fmt::format("{} team={} rows={}", base_param, shape.str(), o.rows_per_team);
      record("spmv_ell", fmt::format("{} width={}", team_param, ell.width), [&] {
        for_each_row(exec, "kcp::perf::warp_cooperation::ell", n, shape, o.rows_per_team, EllRow<Exec>{ell, x, y});
        return nan;
      });
      record("spmv_jds", fmt::format("{} diagonals={}", team_param, jds.diagonals), [&] {
        for_each_row(exec, "kcp::perf::warp_cooperation::jds", n, shape, o.rows_per_team, JdsRow<Exec>{jds, x, y});
        return nan;
      });
      record("spmv_crs_vector", team_param, [&] {
        crs_vector_spmv(exec, crs, x, y, shape, o.rows_per_team);
        return nan;
      });
#ifdef KCP_PERF_KERNELS
      record("spmv_kk_crs", base_param + " KokkosSparse::spmv", [&] {
        kk_spmv(crs, x, y);
        return nan;
      });
#endif
    }
  }
}

}  // namespace kcp::perf::warp_cooperation

int main(int argc, char** argv) {
  using namespace kcp::perf;
  warp_cooperation::Options o;
  CLI::App app{"Warp-level cooperation: aggregated queue insertion, ELL and JDS SpMV against Kokkos Kernels"};
  add_common_options(app, o.common);
  app.add_option("--queue-min-log2", o.queue_min_log2, "Fewest queue items: 2^min")->check(CLI::Range(4, 34));
  app.add_option("--queue-max-log2", o.queue_max_log2, "Most queue items: 2^max")->check(CLI::Range(4, 34));
  app.add_option("--select", o.select, "Fractions of items that insert (1: every item, the most contention)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--width", o.width, "Items per group sharing one atomic (a warp: 32)")->check(CLI::Range(1, 1024));
  app.add_option("--groups-per-thread", o.groups_per_thread, "Groups per team thread")->check(CLI::PositiveNumber);
  app.add_option("--spmv-min-log2", o.spmv_min_log2, "Fewest matrix rows: 2^min")->check(CLI::Range(4, 28));
  app.add_option("--spmv-max-log2", o.spmv_max_log2, "Most matrix rows: 2^max")->check(CLI::Range(4, 28));
  app.add_option("--rows-per-team", o.rows_per_team, "Rows per team in the SpMV team kernels")
      ->check(CLI::PositiveNumber);
  app.add_option("--only", o.only, "Run only these variants");
  CLI11_PARSE(app, argc, argv);
  try {
    KokkosSession session(o.common.threads);
    resolve_defaults(o.common);
    run_on_space(o.common.space, [&](auto exec) { warp_cooperation::run(exec, o); });
  } catch (const std::exception& e) {
    fmt::print(stderr, "kcp-perf-warp-cooperation: {}\n", e.what());
    return 1;
  }
  return 0;
}
