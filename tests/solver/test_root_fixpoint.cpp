// Every benchmark instance compiles (every builtin it uses is supported) and its root fixpoint does
// not fail where Gecode found a solution. Prints, per instance, the program's size before and after
// preprocessing and the time compile took; the 90 MB ma-path-finding instance is the scale test.
//
// The instances are $KCP_BENCHMARKS_DIR (.fzn or .fzn.gz) or ../shared/benchmarks/instances; Gecode's
// results are reference/gecode-60s.csv beside that folder. Without the instances the test is skipped.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "domains/fixpoint.hpp"
#include "solver/compile.hpp"
#include "solver/fzn/parser.hpp"
#include "solver/preprocess.hpp"
#include "tests/source_dir.hpp"

namespace kcp {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

fs::path benchmarks_dir() {
  if (const char* env = std::getenv("KCP_BENCHMARKS_DIR"); env && *env) return env;
  const std::vector<fs::path> candidates = {"/work/shared/benchmarks/instances",
                                            fs::path(test::source_dir()) / "../shared/benchmarks/instances"};
  for (const fs::path& p : candidates) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) return p;
  }
  return candidates.front();
}

bool read_gzip(const fs::path& path, std::string& out) {
  std::string quoted = "'";
  for (char c : path.string()) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  quoted += "'";
  std::FILE* pipe = popen(("gzip -dc " + quoted).c_str(), "r");
  if (!pipe) return false;
  char buf[1 << 16];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  return pclose(pipe) == 0;
}

/// instance name -> Gecode's status (OPTIMAL, SATISFIED, UNSAT, UNKNOWN).
std::map<std::string, std::string> gecode_status(const fs::path& instances) {
  std::map<std::string, std::string> out;
  std::ifstream in(instances.parent_path() / "reference" / "gecode-60s.csv");
  std::string line;
  std::getline(in, line);  // header: instance,kind,status,...
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string name, kind, status;
    std::getline(ss, name, ',');
    std::getline(ss, kind, ',');
    std::getline(ss, status, ',');
    out[name] = status;
  }
  return out;
}

std::string instance_name(const fs::path& file) {
  std::string name = file.filename().string();
  for (const std::string suffix : {".fzn.gz", ".fzn"})
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      return name.substr(0, name.size() - suffix.size());
  return name;
}

std::string size_text(const ProgramSize& s) {
  return std::to_string(s.variables) + " vars, " + std::to_string(s.rows) + " rows, " + std::to_string(s.ternaries) +
         " ternaries, " + std::to_string(s.globals) + " listed";
}

TEST(RootFixpoint, EveryBenchmarkCompilesAndSurvivesItsRootFixpoint) {
  const fs::path dir = benchmarks_dir();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) GTEST_SKIP() << "no benchmark folder " << dir;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.find(".fzn") != std::string::npos && name.find(".ozn") == std::string::npos) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty()) << "no instances in " << dir;
  const auto status = gecode_status(dir);

  for (const fs::path& file : files) {
    const std::string name = instance_name(file);
    SCOPED_TRACE(name);
    std::string text;
    if (file.extension() == ".gz") {
      ASSERT_TRUE(read_gzip(file, text)) << "gzip -dc failed";
    } else {
      std::ifstream in(file, std::ios::binary);
      text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    auto t0 = Clock::now();
    const fzn::Model model = fzn::parse_string(text, file.string());
    const double parse_s = since(t0);
    text.clear();
    text.shrink_to_fit();
    t0 = Clock::now();
    Compiled c;
    try {
      c = compile(model);
    } catch (const CompileError& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    const double compile_s = since(t0);
    const PreprocessStats& st = c.preprocess;
    std::cout << "  " << name << ": " << model.variables.size() << " model vars, " << model.constraints.size()
              << " constraints\n    before:   " << size_text(st.before) << "\n    compiled: " << size_text(st.compiled)
              << "\n    after:    " << size_text(st.after) << "\n    merged " << st.merged_variables << " vars ("
              << st.absorbed_constraints << " equalities), fixed " << st.fixed_model_variables << " model vars, "
              << st.rounds << " rounds, " << st.propagations << " propagations; parse " << parse_s << " s, compile "
              << compile_s << " s (preprocess " << st.seconds << " s)" << (c.root_failed ? "; ROOT FAILED" : "")
              << "\n";

    const auto s = status.find(name);
    const bool solved = s != status.end() && (s->second == "SATISFIED" || s->second == "OPTIMAL");
    if (solved) {
      EXPECT_FALSE(c.root_failed) << "Gecode found a solution, but the root fixpoint fails";
    }
    if (!c.root_failed) {
      // The program handed to search is at the serial reference fixpoint already: running it fails
      // nothing and narrows nothing.
      Program p = c.program;
      const DeviceProgram<Kokkos::HostSpace> d(p);
      t0 = Clock::now();
      const FixpointResult f = serial_fixpoint(d, p.store());
      const double reference_s = since(t0);
      EXPECT_FALSE(f.failed);
      EXPECT_EQ(f.iterations, 1);
      EXPECT_TRUE(p.lb == c.program.lb && p.ub == c.program.ub) << "the reference fixpoint narrows further";
      std::cout << "    reference fixpoint on the result: " << f.iterations << " iteration(s), " << reference_s
                << " s\n";
    }
    if (name.rfind("ma-path-finding", 0) == 0) {
      // The scale test: 90 MB of FlatZinc. A generous bound, for a shared machine.
      EXPECT_LT(compile_s, 20.0) << "compiling the 90 MB instance took " << compile_s << " s";
    }
  }
}

}  // namespace
}  // namespace kcp
