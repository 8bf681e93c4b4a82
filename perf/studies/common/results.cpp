#include "perf/studies/common/results.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <sstream>
#include <stdexcept>

#ifndef KCP_SOURCE_DIR
#define KCP_SOURCE_DIR "."
#endif
#ifndef KCP_CONFIGURE_REVISION
#define KCP_CONFIGURE_REVISION "unknown"
#endif

namespace kcp::perf {

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string number(double v) { return std::isnan(v) ? std::string() : fmt::format("{:.17g}", v); }

/// stdout of a shell command, trailing newline removed; empty when it fails.
std::string command_output(const std::string& command) {
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[256];
    while (fgets(buffer, sizeof buffer, pipe)) out += buffer;
    if (pclose(pipe) != 0) return {};
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string utc_timestamp() {
  std::time_t now = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return buffer;
}

}  // namespace

CsvWriter::CsvWriter(const std::string& path, RunInfo info) : out_(path), info_(std::move(info)) {
  if (!out_) throw std::runtime_error("cannot write " + path);
  out_ << "study,variant,backend,device,threads,size,param,value,error,time_s,time_median_s,reps,throughput,"
          "throughput_unit,revision,kokkos,machine,timestamp\n";
  out_.flush();
  fmt::print("{} on {} ({}, {} threads), revision {}, {}\n", info_.study, info_.backend, info_.device, info_.threads,
             info_.revision, info_.kokkos);
  fmt::print("{:<30} {:>11} {:<24} {:>22} {:>10} {:>11} {:>11} {:>12}\n", "variant", "size", "param", "value", "error",
             "best s", "median s", "throughput");
}

void CsvWriter::write(const Row& r) {
  out_ << csv_field(info_.study) << ',' << csv_field(r.variant) << ',' << csv_field(info_.backend) << ','
       << csv_field(info_.device) << ',' << info_.threads << ',' << r.size << ',' << csv_field(r.param) << ','
       << number(r.value) << ',' << number(r.error) << ',' << number(r.timing.best_s) << ','
       << number(r.timing.median_s) << ',' << r.timing.reps << ',' << number(r.throughput) << ',' << csv_field(r.unit)
       << ',' << csv_field(info_.revision) << ',' << csv_field(info_.kokkos) << ',' << csv_field(info_.machine) << ','
       << utc_timestamp() << '\n';
  out_.flush();
  fmt::print("{:<30} {:>11} {:<24} {:>22.15g} {:>10.3g} {:>11.4g} {:>11.4g} {:>9.4g} {}\n", r.variant, r.size, r.param,
             r.value, r.error, r.timing.best_s, r.timing.median_s, r.throughput, r.unit);
  std::fflush(stdout);
}

void VariantBudget::record(const std::string& variant, double spent_s) {
  if (spent_s > max_s_) {
    over_[variant] = spent_s;
    fmt::print("  ({} took {:.1f} s at this size: larger sizes skipped, --max-variant-s {})\n", variant, spent_s,
               max_s_);
  }
}

std::string hostname() {
  char buffer[256] = {};
  if (gethostname(buffer, sizeof buffer - 1) != 0 || buffer[0] == '\0') return "unknown-host";
  return buffer;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) {
        auto start = line.find_first_not_of(' ', colon + 1);
        return start == std::string::npos ? "cpu" : line.substr(start);
      }
    }
  }
  return "cpu";
}

std::string source_revision() {
  if (const char* env = std::getenv("KCP_REVISION"); env && *env) return env;
  const std::string dir = KCP_SOURCE_DIR;
  std::string rev = command_output("git -C '" + dir + "' rev-parse --short=12 HEAD 2>/dev/null");
  if (rev.empty()) return KCP_CONFIGURE_REVISION;
  // Only perf/studies decides what a study measures: the other folders' work in progress does not.
  const std::string changes =
      command_output("git -C '" + dir + "' status --porcelain -- perf/studies perf/CMakeLists.txt 2>/dev/null");
  return changes.empty() ? rev : rev + "+perf-modified";
}

std::string kokkos_summary() {
  const int major = KOKKOS_VERSION / 10000, minor = (KOKKOS_VERSION / 100) % 100, patch = KOKKOS_VERSION % 100;
  std::string devices;
  auto add = [&](const std::string& d) { devices += (devices.empty() ? "" : "+") + d; };
#ifdef KOKKOS_ENABLE_SERIAL
  add("Serial");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  add("OpenMP");
#endif
#ifdef KOKKOS_ENABLE_CUDA
  std::string arch = "Cuda";
#if defined(KOKKOS_ARCH_HOPPER90)
  arch += "(sm_90)";
#elif defined(KOKKOS_ARCH_AMPERE86)
  arch += "(sm_86)";
#elif defined(KOKKOS_ARCH_AMPERE80)
  arch += "(sm_80)";
#elif defined(KOKKOS_ARCH_VOLTA70)
  arch += "(sm_70)";
#endif
  add(arch);
#endif
#ifdef KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK
  add("bounds-check");
#endif
  return fmt::format("Kokkos {}.{}.{} {}", major, minor, patch, devices);
}

void write_kokkos_configuration(const std::string& path) {
  std::ofstream out(path);
  std::string load;
  std::getline(std::ifstream("/proc/loadavg"), load);
  // On a shared machine the load at the start says how much the timings may be disturbed.
  out << kokkos_summary() << "\nrevision " << source_revision() << "\nhost " << hostname() << ", load average at start "
      << load << "\n\n";
  Kokkos::print_configuration(out, true);
}

std::vector<std::int64_t> powers_of_two(int lo, int hi) {
  std::vector<std::int64_t> sizes;
  for (int e = lo; e <= hi; ++e) sizes.push_back(std::int64_t{1} << e);
  return sizes;
}

}  // namespace kcp::perf
