// The kcp command line end to end, in process: exact FlatZinc output on the shipped examples, and a
// clear message with a non-zero exit on bad input.
#include "domains/store.hpp"
#include "solver/options.hpp"
#include "solver/run.hpp"

#include "search/launch.hpp"
#include "tests/source_dir.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

namespace kcp {
namespace {

struct CliRun {
  int code;
  std::string out, err;
};

CliRun run(std::vector<std::string> args) {
  args.insert(args.begin(), "kcp");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  const int code = run_cli(static_cast<int>(argv.size()), argv.data(), out, err);
  return {code, out.str(), err.str()};
}

using test::example;

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

/// The integer statistic `name` of a `-s` run's output, `missing` when it has none.
int stat(const CliRun& r, const std::string& name, int missing = -1) {
  const std::string key = "%%%mzn-stat: " + name + "=";
  const auto at = r.out.find(key);
  return at == std::string::npos ? missing : std::stoi(r.out.substr(at + key.size()));
}

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(EndToEnd, SendMoreMoneyPrintsTheFlatZincSolution) {
  const CliRun r = run({"--check", example("send-more-money.fzn")});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "S = 9;\nE = 5;\nN = 6;\nD = 7;\nM = 1;\nO = 0;\nR = 8;\nY = 2;\n----------\n");
}

TEST(EndToEnd, AllSolutionsOfQueensEndWithTheCompletionMarker) {
  const CliRun r = run({"-a", "--check", example("queens.fzn")});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(count(r.out, "----------\n"), 92);
  EXPECT_EQ(r.out.substr(r.out.size() - 11), "==========\n");
}

TEST(EndToEnd, OptimisationPrintsTheOptimumAndStatistics) {
  const CliRun r = run({"-s", "--check", example("backpack.fzn")});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(count(r.out, "----------\n"), 1);
  EXPECT_NE(r.out.find("take = array1d(1..6, [0, 1, 1, 1, 0, 0]);\n----------\n==========\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("%%%mzn-stat: objective=51\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("%%%mzn-stat: storeBytes="), std::string::npos);
  EXPECT_NE(r.out.find("%%%mzn-stat: propagatorBytes="), std::string::npos);
  EXPECT_NE(r.out.find("%%%mzn-stat: scratchLevel=0\n"), std::string::npos);
  EXPECT_EQ(r.out.substr(r.out.size() - 16), "%%%mzn-stat-end\n");
}

// On the host the bitset span is default_bitset_span. On a GPU it is 0 unless the annotated search reads
// holes (a value choice MiniZinc defines as x = v | x != v, a variable choice by domain size or regret),
// or --bitset-span asks for it; the event-driven fixpoint with bitsets is no longer refused or warned
// about there (perf/NOTES.md entries 45 and 47).
TEST(EndToEnd, BitsetsOnGpusOnlyWhereTheSearchReadsHolesOrAsked) {
  const bool gpu = space_is_gpu("default");
  const CliRun d = run({"-s", example("queens.fzn")});
  EXPECT_EQ(d.code, 0) << d.err;
  EXPECT_NE(d.out.find("%%%mzn-stat: bitsetSpan=" + std::string(gpu ? "0" : std::to_string(default_bitset_span)) + "\n"), std::string::npos) << d.out;
  // (On a GPU queens runs AC1 anyway: its variables are read by over 16 propagators each.)
  if (!gpu) {
    EXPECT_NE(d.out.find("%%%mzn-stat: fixpoint=\"queue\"\n"), std::string::npos) << d.out;
  }
  EXPECT_EQ(d.err.find("warning"), std::string::npos) << d.err;
  const CliRun asked = run({"-s", "--bitset-span", "32", example("queens.fzn")});
  EXPECT_EQ(asked.code, 0) << asked.err;
  EXPECT_NE(asked.out.find("%%%mzn-stat: bitsetSpan=32\n"), std::string::npos) << asked.out;
  EXPECT_NE(asked.out.find("%%%mzn-stat: fixpoint=\"" + std::string(gpu ? "ac1" : "queue") + "\"\n"),
            std::string::npos)
      << asked.out;
  EXPECT_EQ(asked.err.find("warning"), std::string::npos) << asked.err;
  const CliRun queue = run({"-s", "--bitset-span", "32", "--fixpoint", "queue", example("queens.fzn")});
  EXPECT_EQ(queue.code, 0) << queue.err;
  EXPECT_EQ(queue.err.find("warning"), std::string::npos) << queue.err;
  EXPECT_NE(queue.out.find("%%%mzn-stat: fixpoint=\"queue\"\n"), std::string::npos) << queue.out;
  // indomain_median: bitsets everywhere, so that x = v | x != v is followed.
  std::ifstream in(example("queens.fzn"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = text.find("solve  satisfy;");
  ASSERT_NE(at, std::string::npos);
  const std::string original = text;
  text.replace(at, 15, "solve :: int_search(q, input_order, indomain_median, complete) satisfy;");
  const std::string path = ::testing::TempDir() + "kcp-queens-median.fzn";
  std::ofstream(path) << text;
  const CliRun median = run({"-s", path});
  EXPECT_EQ(median.code, 0) << median.err;
  EXPECT_NE(median.out.find("%%%mzn-stat: bitsetSpan=" + std::to_string(default_bitset_span) + "\n"), std::string::npos) << median.out;
  EXPECT_EQ(median.err.find("warning"), std::string::npos) << median.err;
  // A variable choice by size or regret reads holes too; input_order, smallest, largest do not; free
  // search (-f) keeps a GPU's bounds-only default whatever the annotations say.
  for (const std::string var : {"first_fail", "anti_first_fail", "most_constrained", "dom_w_deg", "max_regret",
                                "input_order", "smallest", "largest"}) {
    std::string t = original;
    t.replace(at, 15, "solve :: int_search(q, " + var + ", indomain_min, complete) satisfy;");
    const std::string p = ::testing::TempDir() + "kcp-queens-" + var + ".fzn";
    std::ofstream(p) << t;
    const bool reads = var != "input_order" && var != "smallest" && var != "largest";
    for (const bool free : {false, true}) {
      const CliRun r = free ? run({"-s", "-f", p}) : run({"-s", p});
      EXPECT_EQ(r.code, 0) << var << r.err;
      const bool on = !gpu || (reads && !free);
      EXPECT_NE(r.out.find("%%%mzn-stat: bitsetSpan=" + std::string(on ? std::to_string(default_bitset_span) : "0") + "\n"),
                std::string::npos)
          << var << (free ? " -f" : "") << r.out;
    }
  }
  for (const std::string& space : available_spaces()) EXPECT_EQ(space_is_gpu(space), space == "cuda");
}

// Every option is in one of the three groups; --help lists the user's (one screen), --help-all all.
TEST(EndToEnd, HelpListsTheUsersOptionsAndHelpAllEveryGroup) {
  CLI::App app;
  Options o;
  add_options(app, o);
  std::map<std::string, int> per_group;
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_name() == "--help") continue;  // CLI11's own, in the user's group
    bool known = false;
    for (const OptionGroup g : option_groups) known = known || opt->get_group() == option_group_title(g);
    EXPECT_TRUE(known) << opt->get_name() << " in group '" << opt->get_group() << "'";
    ++per_group[opt->get_group()];
  }
  for (const OptionGroup g : option_groups) EXPECT_GT(per_group[option_group_title(g)], 0) << option_group_title(g);
  const CliRun help = run({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_LE(std::count(help.out.begin(), help.out.end(), '\n'), 40) << help.out;
  for (const char* shown : {"--time-limit", "--space", "--learn", "--verify", "--help-all"})
    EXPECT_NE(help.out.find(shown), std::string::npos) << shown;
  for (const char* hidden : {"--teams", "--bitset-span", "--ternary-rows", "Tuning", "Experiments"})
    EXPECT_EQ(help.out.find(hidden), std::string::npos) << hidden;
  const CliRun all = run({"--help-all"});
  EXPECT_EQ(all.code, 0);
  for (const OptionGroup g : option_groups)
    EXPECT_NE(all.out.find(std::string(option_group_title(g)) + ":"), std::string::npos) << option_group_title(g);
  for (const CLI::Option* opt : app.get_options())
    for (const std::string& name : opt->get_lnames()) EXPECT_NE(all.out.find("--" + name), std::string::npos) << name;
}

// Options bound straight to the search's and the compiler's settings: the structs' defaults when not
// given, the value when given.
TEST(EndToEnd, OptionsBindToTheSearchAndCompileSettings) {
  const auto parsed = [](const std::string& line) {
    CLI::App app;
    Options o;
    add_options(app, o);
    app.parse(line, false);
    return o;
  };
  {
    const Options o = parsed("m.fzn");
    const SearchOptions d;
    EXPECT_EQ(o.search.teams, d.teams);
    EXPECT_EQ(o.search.copy_distance, d.copy_distance);
    EXPECT_EQ(o.search.lns, d.lns);
    EXPECT_EQ(o.search.nogood_capacity, d.nogood_capacity);
    EXPECT_EQ(o.compile.preprocess, CompileOptions{}.preprocess);
  }
  const Options o = parsed("--teams 7 --copy-distance 3 --no-lns --nogood-capacity 99 --restart-share 0.5 "
                           "--no-preprocess --ternary-rows -r 42 m.fzn");
  EXPECT_EQ(o.model, "m.fzn");
  EXPECT_EQ(o.search.teams, 7);
  EXPECT_EQ(o.search.copy_distance, 3);
  EXPECT_FALSE(o.search.lns);
  EXPECT_EQ(o.search.nogood_capacity, 99);
  EXPECT_DOUBLE_EQ(o.search.restart_share, 0.5);
  EXPECT_EQ(o.search.seed, 42u);
  EXPECT_FALSE(o.compile.preprocess);
  EXPECT_TRUE(o.compile.ternary_rows);
}

TEST(EndToEnd, GlobalFamiliesFollowTheBackendDefaultAndTheFlags) {
  // all_different is native on GPUs and decomposed on the host unless asked (perf/NOTES.md entry 17);
  // cumulative and var_element are native everywhere unless --no-global says otherwise.
  const bool gpu = space_is_gpu("default");
  const std::string path = temp_file("kcp-globals.fzn",
                                     "predicate kcp_all_different_int(array [int] of var int: x);\n"
                                     "predicate kcp_cumulative(array [int] of var int: s,array [int] of int: d,"
                                     "array [int] of int: r,int: b);\n"
                                     "var 1..4: x1;\nvar 1..4: x2;\nvar 1..4: x3;\nvar 1..4: x4;\n"
                                     "array [1..4] of var int: x :: output_array([1..4]) = [x1, x2, x3, x4];\n"
                                     "var 1..4: i :: output_var;\nvar 1..4: y :: output_var;\n"
                                     "constraint kcp_all_different_int(x);\n"
                                     "constraint kcp_cumulative(x, [1, 1, 2, 1], [1, 1, 1, 1], 1);\n"
                                     "constraint array_var_int_element(i, x, y);\n"
                                     "constraint int_le(3, y);\nsolve satisfy;\n");
  const CliRun d = run({"-s", "-a", path});
  ASSERT_EQ(d.code, 0) << d.err;
  EXPECT_EQ(stat(d, "allDifferentPropagators"), gpu ? 1 : 0);
  EXPECT_EQ(stat(d, "cumulativePropagators"), 1);
  EXPECT_EQ(stat(d, "varElementPropagators"), 1);
  const int solutions = count(d.out, "----------");
  EXPECT_GT(solutions, 0);
  EXPECT_EQ(count(d.out, "=========="), 1);
  const CliRun native = run({"-s", "-a", "--global", "all_different", path});
  ASSERT_EQ(native.code, 0) << native.err;
  EXPECT_EQ(stat(native, "allDifferentPropagators"), 1);
  const CliRun decomposed =
      run({"-s", "-a", "--no-global", "all_different", "--no-global", "cumulative", "--no-global", "var_element", path});
  ASSERT_EQ(decomposed.code, 0) << decomposed.err;
  EXPECT_EQ(stat(decomposed, "allDifferentPropagators"), 0);
  EXPECT_EQ(stat(decomposed, "cumulativePropagators"), 0);
  EXPECT_EQ(stat(decomposed, "varElementPropagators"), 0);
  // Every form has the same solutions.
  EXPECT_EQ(count(native.out, "----------"), solutions);
  EXPECT_EQ(count(decomposed.out, "----------"), solutions);
  const CliRun both = run({"--global", "all_different", "--no-global", "all_different", path});
  EXPECT_EQ(both.code, 2);
  EXPECT_NE(both.err.find("--global and --no-global both name all_different"), std::string::npos) << both.err;
  const CliRun unknown = run({"--global", "circuit", path});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("circuit"), std::string::npos) << unknown.err;
}

TEST(EndToEnd, IntermediateSolutionsImprove) {
  const CliRun r = run({"-i", example("backpack.fzn")});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_GE(count(r.out, "----------\n"), 1);
  EXPECT_EQ(r.out.substr(r.out.size() - 11), "==========\n");
}

// -t holds while preprocessing: this root fixpoint alone would run 10^9 propagations (minutes).
TEST(EndToEnd, TheTimeLimitStopsALongRootFixpoint) {
  const std::string path = temp_file("kcp-creep.fzn",
                                     "var 0..1000000000: x;\nvar 0..1000000000: y;\nconstraint int_lt(x, y);\n"
                                     "constraint int_lt(y, x);\nsolve satisfy;\n");
  const CliRun r = run({"-t", "300", path});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("=====UNKNOWN=====\n", 0), 0u) << r.out;
}

// The MiniZinc benchmark suite's search_stress with n = 30, k = 4: x[1] = x[k+1] = ... = x[nk+1] is forced
// through 30 blocks of pigeonholes, and x[1] != x[nk+1]. The sequential search cannot refute it (6^30
// leaves); the explaining search, which runs beside it for satisfaction's first solution to prove only,
// does in a few hundred conflicts (perf/NOTES.md entry 50).
TEST(EndToEnd, TheExplainingSearchProvesSatisfactionUnsatisfiable) {
  const int n = 30, k = 4;
  std::ostringstream m;
  for (int v = 1; v <= n * k + 1; ++v) m << "var 1.." << k << ": x" << v << ";\n";
  const auto ne = [&](int a, int b) { m << "constraint int_ne(x" << a << ", x" << b << ");\n"; };
  for (int i = 1; i <= n; ++i) {
    for (int j = 2; j <= k; ++j) {
      ne((i - 1) * k + 1, (i - 1) * k + j);
      ne(i * k + 1, (i - 1) * k + j);
      for (int l = j + 1; l <= k; ++l) ne((i - 1) * k + j, (i - 1) * k + l);
    }
  }
  ne(1, n * k + 1);
  m << "solve :: int_search([";
  for (int v = 1; v <= n * k + 1; ++v) m << (v > 1 ? "," : "") << "x" << v;
  m << "], first_fail, indomain_min, complete) satisfy;\n";
  const std::string path = temp_file("kcp-search-stress.fzn", m.str());
  const CliRun r = run({"-s", "-t", "60000", path});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("=====UNSATISFIABLE=====\n", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("%%%mzn-stat: provedByNogood=true\n"), std::string::npos) << r.out;
  // With --learn none nothing proves it within a second.
  const CliRun none = run({"-t", "1000", "--learn", "none", path});
  EXPECT_EQ(none.out, "=====UNKNOWN=====\n");
}

TEST(EndToEnd, UnsatisfiableModel) {
  const std::string f = temp_file("unsat.fzn", "var 1..3: x :: output_var;\nvar 1..3: y :: output_var;\n"
                                               "constraint int_lin_le([1,1],[x,y],1);\nsolve satisfy;\n");
  const CliRun r = run({f});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "=====UNSATISFIABLE=====\n");
}

TEST(EndToEnd, MissingFileIsAClearError) {
  const CliRun r = run({"/nonexistent/model.fzn"});
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("/nonexistent/model.fzn"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(EndToEnd, UnknownFlagIsAnError) {
  const CliRun r = run({"--frobnicate", example("queens.fzn")});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("frobnicate"), std::string::npos) << r.err;
}

// A number out of its range says what it must be, in a line (CLI11's own checks printed the range's end,
// a double of 309 digits).
TEST(EndToEnd, ANumberOutOfRangeSaysWhatItMustBe) {
  const CliRun neg = run({"--teams", "-1", example("queens.fzn")});
  EXPECT_EQ(neg.code, 2);
  EXPECT_NE(neg.err.find("--teams: must be 0 or more, not -1"), std::string::npos) << neg.err;
  EXPECT_LT(neg.err.size(), 200u) << neg.err;
  const CliRun zero = run({"--copy-budget", "0", example("queens.fzn")});
  EXPECT_EQ(zero.code, 2);
  EXPECT_NE(zero.err.find("--copy-budget: must be more than 0, not 0"), std::string::npos) << zero.err;
  const CliRun word = run({"-t", "soon", example("queens.fzn")});
  EXPECT_EQ(word.code, 2);
  EXPECT_NE(word.err.find("soon"), std::string::npos) << word.err;
}

// MiniZinc passes another solver's backend flag through (Gecode's -node in its test suite): named as it
// was written, not read as "-n ode".
TEST(EndToEnd, MultiLetterSingleDashOptionIsNamed) {
  for (const std::string bad : {"-node", "-ax", "-t5s"}) {
    const CliRun r = run({bad, "1", example("queens.fzn")});
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_NE(r.err.find("unknown option '" + bad + "'"), std::string::npos) << r.err;
  }
  const CliRun ok = run({"-as", "-n1", "-t5000", example("queens.fzn")});
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_EQ(count(ok.out, "----------\n"), 92);
}

// An empty array of set or float variables (MiniZinc's test suite: global_cardinality over sets) declares
// no variable: it is accepted and printed empty.
TEST(EndToEnd, EmptyArraysOfSetAndFloatVariablesPrintEmpty) {
  const std::string f = temp_file("empty-sets.fzn",
                                  "array [1..0] of var set of int: empty:: output_array([1..0]) = [];\n"
                                  "array [1..0] of var float: none:: output_array([1..0]) = [];\n"
                                  "var 1..2: x :: output_var;\nsolve satisfy;\n");
  const CliRun r = run({"--check", f});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "empty = array1d(1..0, []);\nnone = array1d(1..0, []);\nx = 1;\n----------\n");
}

TEST(EndToEnd, UnsupportedBuiltinIsNamedWithItsLocation) {
  const std::string f = temp_file("unsupported.fzn", "var 1..3: x;\nvar 1..3: y;\nconstraint int_frob(x,y);\n"
                                                     "solve satisfy;\n");
  const CliRun r = run({f});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("unsupported.fzn:3:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'int_frob'"), std::string::npos) << r.err;
}

TEST(EndToEnd, UnknownSpaceIsAnError) {
  const CliRun r = run({"--space", "quantum", example("queens.fzn")});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("quantum"), std::string::npos) << r.err;
}

TEST(EndToEnd, TooLargeTeamIsAnErrorNotAnAbort) {
  const CliRun r = run({"--space", "serial", "--team-size", "4", example("queens.fzn")});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("--team-size 4 on Serial: at most 1"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

// The search kernel's shared memory carve-out (search/launch.hpp): set on a GPU built against Kokkos 3
// (fitted by default, or as asked), never on the host; a value out of range is refused.
TEST(EndToEnd, SharedCarveoutIsSetOnTheGpuOnlyAndCheckedOnTheCommandLine) {
  const bool set = space_is_gpu("default") && KOKKOS_VERSION < 40000;
  // -100 when the statistic is missing: -1 is what the host reports.
  auto carveout = [](const CliRun& r) { return stat(r, "sharedCarveout", -100); };
  const CliRun fit = run({"-s", example("queens.fzn")});
  ASSERT_EQ(fit.code, 0) << fit.err;
  if (set) {
    EXPECT_GT(carveout(fit), 0) << fit.out;
    EXPECT_LE(carveout(fit), 100) << fit.out;
  } else {
    EXPECT_EQ(carveout(fit), -1) << fit.out;
  }
  const CliRun asked = run({"-s", "--shared-carveout", "50", example("queens.fzn")});
  ASSERT_EQ(asked.code, 0) << asked.err;
  EXPECT_EQ(carveout(asked), set ? 50 : -1) << asked.out;
  const CliRun kokkos = run({"-s", "--shared-carveout", "kokkos", example("queens.fzn")});
  ASSERT_EQ(kokkos.code, 0) << kokkos.err;
  EXPECT_EQ(carveout(kokkos), -1) << kokkos.out;
  const CliRun bad = run({"--shared-carveout", "101", example("queens.fzn")});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--shared-carveout"), std::string::npos) << bad.err;
  EXPECT_TRUE(bad.out.empty());
}

// The teams' watched literals of the learned pool (domains/nogoods.hpp) change which nogoods wake, not
// the answer: the same checked optimum with them and without, and the statistic says which ran. (With
// them off, the rows' empty watch View was once written past: a crash.)
TEST(EndToEnd, NogoodWatchesOnAndOffGiveTheSameOptimum) {
  for (const std::string w : {"on", "off"}) {
    // No probe: it searches without learning, and its report would be the answer's.
    const CliRun r = run({"-s", "--check", "--probe-ms", "0", "--nogood-watches", w, example("backpack.fzn")});
    ASSERT_EQ(r.code, 0) << w << ": " << r.err;
    EXPECT_NE(r.out.find("----------\n==========\n"), std::string::npos) << w << ": " << r.out;
    EXPECT_NE(r.out.find("%%%mzn-stat: objective=51\n"), std::string::npos) << w << ": " << r.out;
    EXPECT_NE(r.out.find("%%%mzn-stat: nogoodWatches=" + std::string(w == "on" ? "true" : "false") + "\n"),
              std::string::npos)
        << r.out;
  }
  const CliRun bad = run({"--nogood-watches", "sometimes", example("backpack.fzn")});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--nogood-watches"), std::string::npos) << bad.err;
}

TEST(EndToEnd, VerifyAcceptsKcpsOwnSolutionsAndNamesTheConstraintAWrongOneViolates) {
  const CliRun solved = run({"-a", example("queens.fzn")});
  ASSERT_EQ(solved.code, 0);
  const CliRun ok = run({"--verify", temp_file("queens-out.txt", solved.out), example("queens.fzn")});
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("92 solutions, 0 rejected"), std::string::npos) << ok.out;
  // The 2 mod 2 = 2 that Gecode 6.2 prints for int_mod(x, y, y) (tests/differential/diff.py).
  const std::string model = temp_file("mod.fzn", "var 0..3: x :: output_var;\nvar 1..3: y :: output_var;\n"
                                                 "constraint int_mod(x, y, y);\nsolve satisfy;\n");
  const CliRun bad = run({"--verify", temp_file("mod-out.txt", "x = 0;\ny = 2;\n----------\n=========="), model});
  EXPECT_EQ(bad.code, 3);
  EXPECT_NE(bad.out.find("solution 1: rejected: constraint int_mod"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("1 solutions, 1 rejected"), std::string::npos) << bad.out;
  const CliRun garbled = run({"--verify", temp_file("mod-garbled.txt", "x = 0;\nz = 2;\n"), model});
  EXPECT_EQ(garbled.code, 1);
  EXPECT_NE(garbled.err.find("mod-garbled.txt:2: error: 'z' is not an output of the model"), std::string::npos)
      << garbled.err;
}

}  // namespace
}  // namespace kcp
