// The explaining search alone, proving a known optimum (issue 57; perf/README.md): for each instance,
// the FlatZinc compiled as kcp compiles it (kcp's preprocessing, the search's bitsets), one
// ExplainingSearch (search/explain.hpp) set up as kcp's first explaining thread sets it up, given the
// optimum as its incumbent's objective, so that it searches below it until a conflict at level 0
// proves that nothing better exists, or the limit. Single-threaded and deterministic: the conflicts to
// the proof measure a change of the explanations or the analysis without the fleet's noise (a 15 s run
// of kcp on a 2-core VM moves with its teams' incumbents).
//
// usage: kcp-perf-explain-proof --list LIST [--seconds S] [--restart-base N] [--out CSV]
// LIST: lines "PATH OPTIMUM" (the model's objective as the model states it; maximisation negated by kcp).
#include "search/driver/setup.hpp"
#include "search/explain.hpp"
#include "solver/compile.hpp"
#include "solver/fzn/parser.hpp"
#include "solver/search_plan.hpp"

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  CLI::App app{"The explaining search alone, proving a known optimum"};
  std::string list, out;
  double seconds = 15;
  std::int64_t restart_base = kcp::SearchOptions{}.restart_base;
  app.add_option("--list", list, "Lines: FlatZinc path, then the optimum")->required();
  app.add_option("--seconds", seconds, "Limit per instance");
  app.add_option("--restart-base", restart_base, "Conflicts of the Luby sequence's unit");
  app.add_option("--out", out, "CSV to append rows to (default: standard output)");
  int order_literals = kcp::ExplainOptions{}.order_literals;
  app.add_option("--order-literals", order_literals, "ExplainOptions::order_literals (0: none)");
  CLI11_PARSE(app, argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  std::ifstream in(list);
  if (!in) {
    std::cerr << "explain-proof: cannot read " << list << "\n";
    return 2;
  }
  std::ofstream file;
  if (!out.empty()) file.open(out, std::ios::app);
  std::ostream& csv = out.empty() ? std::cout : file;
  csv << "instance,optimum,proved,seconds,conflicts,nodes,learned,literals_per_clause,explain_runs,family,lifted,order_literals\n";
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string path;
    std::int64_t optimum = 0;
    if (!(words >> path >> optimum)) continue;
    const kcp::fzn::Model model = kcp::fzn::parse_file(path);
    kcp::Compiled compiled = kcp::compile(model, kcp::CompileOptions{});
    if (compiled.objective < 0) {
      std::cerr << "explain-proof: " << path << " has no objective variable\n";
      continue;
    }
    kcp::SearchOptions so;
    so.objective = compiled.objective;
    so.phases = kcp::plan_search(model, compiled).phases;
    kcp::Program program = compiled.program;
    kcp::driver::give_search_bitsets(program, so);
    kcp::ExplainOptions eo;
    eo.objective = compiled.objective;
    eo.restart_base = restart_base;
    eo.order_literals = order_literals;
    eo.export_length = std::min(so.explain_export_length, so.nogood_max_length);
    for (const kcp::SearchPhase& ph : so.phases) eo.order.insert(eo.order.end(), ph.vars.begin(), ph.vars.end());
    kcp::ExplainingSearch e(program, eo);
    e.tighten(compiled.maximize ? -optimum : optimum);
    const auto start = std::chrono::steady_clock::now();
    double elapsed = 0;
    std::vector<std::vector<std::int32_t>> solutions;
    std::vector<std::int32_t> log;
    while (!e.finished() && elapsed < seconds) {
      e.run(1000, nullptr, solutions, log);
      log.clear();
      elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    const kcp::ExplainStats& st = e.stats();
    const std::string name = path.substr(path.find_last_of('/') + 1);
    char row[512];
    std::snprintf(row, sizeof row, "%s,%lld,%d,%.3f,%lld,%lld,%lld,%.2f,%lld,%lld,%lld,%lld\n", name.c_str(),
                  (long long)optimum, e.complete() ? 1 : 0, elapsed, (long long)st.conflicts, (long long)st.nodes,
                  (long long)st.learned, st.learned > 0 ? double(st.learned_literals) / double(st.learned) : 0.0,
                  (long long)st.explain_runs, (long long)st.family_explanations, (long long)st.lifted_explanations, (long long)st.order_literals);
    csv << row << std::flush;
    if (!solutions.empty())
      std::cerr << "explain-proof: " << name << ": a solution better than " << optimum << " (the optimum given is wrong)\n";
  }
  return 0;
}
