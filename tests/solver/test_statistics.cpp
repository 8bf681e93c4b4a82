// The statistics table (solver/statistics.cpp): every SearchReport field is printed by a row or listed as
// not printed, the names are unique, and a run prints the table's rows in its order.
#include "solver/run.hpp"
#include "solver/statistics.hpp"

#include "tests/source_dir.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace kcp {
namespace {

/// The data members of `struct SearchReport` as search/solve.hpp declares them (one or several per
/// line, `type a = x, b = y;`), read from the source so that a field added there without a row fails here.
std::vector<std::string> report_fields() {
  std::ifstream in(test::source_dir() + "/search/solve.hpp");
  std::string line;
  bool inside = false;
  std::vector<std::string> fields;
  const std::regex member(R"(^\s+(?:const\s+)?[A-Za-z_][\w:<>]*(?:<[^;]*>)?\s+([a-z_][\w]*(?:\s*=\s*[^,;]+)?(?:\s*,\s*[a-z_]\w*(?:\s*=\s*[^,;]+)?)*)\s*;\s*)");
  while (std::getline(in, line)) {
    if (line.rfind("struct SearchReport {", 0) == 0) {
      inside = true;
      continue;
    }
    if (!inside) continue;
    if (line.rfind("};", 0) == 0) break;
    line = line.substr(0, line.find("//"));
    std::smatch m;
    if (!std::regex_match(line, m, member)) continue;
    std::stringstream names(m[1].str());
    std::string part;
    while (std::getline(names, part, ',')) {
      part = part.substr(0, part.find('='));
      part.erase(0, part.find_first_not_of(" \t"));
      part.erase(part.find_last_not_of(" \t") + 1);
      if (!part.empty()) fields.push_back(part);
    }
  }
  return fields;
}

TEST(Statistics, EveryReportFieldIsPrintedOrListed) {
  const std::vector<std::string> fields = report_fields();
  // The parse found the struct (57 fields when this test was written).
  ASSERT_GT(fields.size(), 50u);
  std::set<std::string> known(fields.begin(), fields.end());
  std::set<std::string> read;
  for (const Statistic& s : statistics_table()) {
    std::stringstream words(s.reads);
    std::string w;
    while (words >> w) {
      EXPECT_TRUE(known.count(w)) << "row " << s.name << " reads `" << w << "`, which SearchReport does not have";
      read.insert(w);
    }
  }
  for (const auto& [field, why] : unprinted_report_fields()) {
    EXPECT_TRUE(known.count(field)) << "`" << field << "` is listed as not printed but SearchReport does not have it";
    EXPECT_FALSE(read.count(field)) << "`" << field << "` is listed as not printed but row(s) read it";
    EXPECT_FALSE(why.empty());
    read.insert(field);
  }
  for (const std::string& f : fields)
    EXPECT_TRUE(read.count(f)) << "SearchReport::" << f
                               << " is neither read by a statistic (solver/statistics.cpp) nor listed as not printed";
}

TEST(Statistics, NamesAreUniqueAndEveryRowHasAValue) {
  std::set<std::string> names;
  for (const Statistic& s : statistics_table()) {
    EXPECT_FALSE(s.name.empty());
    EXPECT_TRUE(names.insert(s.name).second) << "two rows print " << s.name;
    EXPECT_TRUE(bool(s.value)) << s.name;
  }
}

/// The names of the `%%%mzn-stat` lines of the last block of `text`.
std::vector<std::string> printed_names(const std::string& text) {
  std::vector<std::string> names;
  std::stringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("%%%mzn-stat: ", 0) == 0) names.push_back(line.substr(13, line.find('=') - 13));
    if (line == "%%%mzn-stat-end" && in.peek() != EOF) names.clear();
  }
  return names;
}

TEST(Statistics, ARunPrintsTheTablesRowsInOrder) {
  for (const std::string& model : {test::example("send-more-money.fzn"), test::example("backpack.fzn")}) {
    std::vector<const char*> argv{"kcp", "-s", "--space", "serial", model.c_str()};
    std::ostringstream out, err;
    ASSERT_EQ(run_cli(static_cast<int>(argv.size()), argv.data(), out, err), 0) << err.str();
    const std::vector<std::string> printed = printed_names(out.str());
    ASSERT_GT(printed.size(), 60u) << out.str();
    EXPECT_EQ(printed.front(), "nodes");
    // Every printed name is a row, in the table's order.
    std::size_t next = 0;
    for (const std::string& name : printed) {
      while (next < statistics_table().size() && statistics_table()[next].name != name) ++next;
      ASSERT_LT(next, statistics_table().size()) << name << " printed out of the table's order, or not in it";
      ++next;
    }
  }
}

}  // namespace
}  // namespace kcp
