// kcp-perf-trapezoid: the trapezoid-rule study (perf/README.md). One CSV row per variant and size.
#include "perf/studies/common/options.hpp"
#include "perf/studies/common/results.hpp"
#include "perf/studies/trapezoid/trapezoid.hpp"
#ifdef KCP_PERF_KERNELS
#include "perf/studies/trapezoid/blas.hpp"
#endif

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace kcp::perf::trapezoid {

struct Options {
  CommonOptions common;
  int min_log2 = 16;
  int max_log2 = 30;
  int block = 256;
  int per_thread = 8;
  int rows_per_thread = 8;
  std::vector<std::string> only;
};

template <class Exec>
void run(const Exec& exec, const Options& o) {
  const std::string path = output_path(o.common, "trapezoid");
  write_kokkos_configuration(path.substr(0, path.size() - 4) + ".kokkos.txt");
  CsvWriter out(path, make_run_info("trapezoid", exec, o.common.machine));
  VariantBudget budget(o.common.max_variant_s);

  const Ladder tree{o.block, 1, block_teams<Exec>(o.block)};
  const Ladder registers{o.block, o.per_thread, block_teams<Exec>(o.block)};
  const TeamShape nested_shape = warp_teams<Exec>();
  const std::string tree_param = fmt::format("block={} team={}", tree.block, tree.shape.str());
  const std::string registers_param = fmt::format("{} per_thread={}", tree_param, registers.per_thread);
  const std::string nested_param = fmt::format("team={} rows={}x32", nested_shape.str(), o.rows_per_thread);

  for (const std::int64_t n : powers_of_two(o.min_log2, o.max_log2)) {
    const Grid grid = Grid::on(n);
    Vector<Exec> values("kcp::perf::trapezoid::values", n);
    Vector<Exec> buffer("kcp::perf::trapezoid::buffer", n);
    const std::int64_t teams = (n + o.block - 1) / o.block;
    Vector<Exec> partial_a("kcp::perf::trapezoid::partial_a", teams);
    Vector<Exec> partial_b("kcp::perf::trapezoid::partial_b", teams);
    auto host_partial = Kokkos::create_mirror_view(partial_a);

    // bytes_per_point == 0: a compute-bound variant, throughput in points/s; otherwise bytes/s.
    auto record = [&](const std::string& variant, const std::string& param, int bytes_per_point, bool has_value,
                      auto&& body) {
      if (!o.only.empty() && std::find(o.only.begin(), o.only.end(), variant) == o.only.end()) return;
      if (!budget.allowed(variant)) return;
      Kokkos::Profiling::pushRegion("kcp::perf::trapezoid::" + variant);
      const Measured m = measure(exec, o.common.reps, body);
      Kokkos::Profiling::popRegion();
      Row row;
      row.variant = variant;
      row.size = n;
      row.param = param;
      if (has_value) {
        row.value = m.value;
        row.error = std::abs(m.value - exact_integral);
      }
      row.timing = m.timing;
      row.throughput = (bytes_per_point == 0 ? 1. : bytes_per_point) * static_cast<double>(n) / m.timing.best_s;
      row.unit = bytes_per_point == 0 ? "points/s" : "B/s";
      out.write(row);
      budget.record(variant, m.timing.total_s);
    };

    // Compute-bound: f evaluated where it is summed.
    record("flat_parallel_reduce", "range", 0, true, [&] { return flat_reduce(exec, grid); });
    record("nested_team_vector", nested_param, 0, true,
           [&] { return nested_reduce(exec, grid, nested_shape, o.rows_per_thread); });
    record("interleaved_host_sum", tree_param, 0, true,
           [&] { return interleaved_host_sum(exec, grid, partial_a, host_partial, tree); });
    record("interleaved_two_pass", tree_param, 0, true, [&] {
      return tree_two_pass<Tree::interleaved>(exec, "kcp::perf::trapezoid::interleaved", grid, partial_a, partial_b,
                                              tree);
    });
    record("sequential_two_pass", tree_param, 0, true, [&] {
      return tree_two_pass<Tree::sequential>(exec, "kcp::perf::trapezoid::sequential", grid, partial_a, partial_b,
                                             tree);
    });
    record("sequential_registers", registers_param, 0, true, [&] {
      return tree_two_pass<Tree::sequential>(exec, "kcp::perf::trapezoid::sequential_registers", grid, partial_a,
                                             partial_b, registers);
    });

    // The note's array, then memory-bound reductions of it against the copy bandwidth.
    record("eval_array", "range", 0, false, [&] {
      evaluate(exec, grid, values);
      return nan;
    });
    evaluate(exec, grid, values);
    record("array_flat_reduce", "range", 8, true, [&] { return array_flat_reduce(exec, values); });
    record("array_sequential_registers", registers_param, 8, true, [&] {
      const std::int64_t m = team_partials<Tree::sequential>(exec, "kcp::perf::trapezoid::array_sequential_registers",
                                                             ArraySource<Exec>{values, n}, n, partial_a, registers);
      return reduce_partials<Tree::sequential>(exec, partial_a, partial_b, m, registers);
    });
#ifdef KCP_PERF_KERNELS
    record("array_kk_sum", "KokkosBlas::sum", 8, true, [&] { return blas_sum<Exec>(values); });
#endif
    record("copy_deep_copy", "deep_copy", 16, false, [&] {
      Kokkos::deep_copy(exec, buffer, values);
      return nan;
    });
    record("copy_kernel", "range", 16, false, [&] {
      copy_kernel(exec, buffer, values);
      return nan;
    });
#ifdef KCP_PERF_KERNELS
    {
      Vector<Exec> weights("kcp::perf::trapezoid::weights", n);
      evaluate_apart(exec, grid, buffer, weights);
      record("array_kk_dot", "KokkosBlas::dot(f,w)", 16, true, [&] { return blas_dot<Exec>(buffer, weights); });
    }
#endif

    // The note's global-memory sums (the array evaluated again in each run, since they overwrite it).
    record("global_single_launch", "range", 0, true, [&] { return global_single_launch(exec, grid, values); });
    record("global_launch_per_stride", "range", 0, true, [&] { return global_launch_per_stride(exec, grid, values); });
  }
}

}  // namespace kcp::perf::trapezoid

int main(int argc, char** argv) {
  using namespace kcp::perf;
  trapezoid::Options o;
  CLI::App app{"Trapezoid rule on [-1, 1]: the seed note's reduction ladder against Kokkos' reductions"};
  add_common_options(app, o.common);
  app.add_option("--min-log2", o.min_log2, "Smallest size: 2^min points")->check(CLI::Range(2, 40));
  app.add_option("--max-log2", o.max_log2, "Largest size: 2^max points")->check(CLI::Range(2, 40));
  app.add_option("--block", o.block, "Leaves per team tree (a power of two; CUDA team size)")
      ->check([](const std::string& s) {
        const int b = std::stoi(s);
        return (b >= 2 && (b & (b - 1)) == 0 && b <= 1024) ? std::string() : std::string("a power of two in 2..1024");
      });
  app.add_option("--per-thread", o.per_thread, "Points each leaf sums in a register (sequential_registers)")
      ->check(CLI::PositiveNumber);
  app.add_option("--rows-per-thread", o.rows_per_thread, "Rows of 32 points per team thread (nested_team_vector)")
      ->check(CLI::PositiveNumber);
  app.add_option("--only", o.only, "Run only these variants");
  CLI11_PARSE(app, argc, argv);
  try {
    KokkosSession session(o.common.threads);
    resolve_defaults(o.common);
    run_on_space(o.common.space, [&](auto exec) { trapezoid::run(exec, o); });
  } catch (const std::exception& e) {
    fmt::print(stderr, "kcp-perf-trapezoid: {}\n", e.what());
    return 1;
  }
  return 0;
}
