#include <gtest/gtest.h>

#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/fzn/output.hpp"
#include "solver/fzn/parser.hpp"
#include "solver/fzn/solution_reader.hpp"

namespace kcp::fzn {
namespace {

std::string print(const Model& m, const std::vector<std::int64_t>& values) {
  std::ostringstream os;
  print_solution(os, m, values);
  return os.str();
}

Output scalar(std::string name, VarType type, Term t) {
  Output o;
  o.name = std::move(name);
  o.type = type;
  o.elements = {t};
  return o;
}

Output array(std::string name, VarType type,
             std::vector<std::pair<std::int64_t, std::int64_t>> dims, std::vector<Term> elements) {
  Output o;
  o.name = std::move(name);
  o.type = type;
  o.is_array = true;
  o.dims = std::move(dims);
  o.elements = std::move(elements);
  return o;
}

TEST(FznOutput, NoOutputsPrintsOnlyTheSeparator) {
  Model m;
  EXPECT_EQ(print(m, {}), "----------\n");
}

TEST(FznOutput, Scalars) {
  Model m;
  m.outputs.push_back(scalar("x", VarType::int_, Term::variable(0)));
  m.outputs.push_back(scalar("b", VarType::bool_, Term::variable(1)));
  m.outputs.push_back(scalar("c", VarType::bool_, Term::variable(2)));
  m.outputs.push_back(scalar("k", VarType::int_, Term::constant(-7)));
  m.outputs.push_back(scalar("t", VarType::bool_, Term::constant(1)));
  EXPECT_EQ(print(m, {3, 1, 0}),
            "x = 3;\n"
            "b = true;\n"
            "c = false;\n"
            "k = -7;\n"
            "t = true;\n"
            "----------\n");
}

TEST(FznOutput, ExtremeValues) {
  Model m;
  m.outputs.push_back(scalar("lo", VarType::int_, Term::variable(0)));
  m.outputs.push_back(scalar("hi", VarType::int_, Term::variable(1)));
  EXPECT_EQ(print(m, {std::numeric_limits<std::int64_t>::min(),
                      std::numeric_limits<std::int64_t>::max()}),
            "lo = -9223372036854775808;\n"
            "hi = 9223372036854775807;\n"
            "----------\n");
}

TEST(FznOutput, OneDimensionalArrayWithConstants) {
  Model m;
  m.outputs.push_back(array("xs", VarType::int_, {{1, 3}},
                            {Term::variable(0), Term::constant(2), Term::variable(1)}));
  EXPECT_EQ(print(m, {1, 3}), "xs = array1d(1..3, [1, 2, 3]);\n----------\n");
}

TEST(FznOutput, TwoDimensionalArray) {
  Model m;
  std::vector<Term> elements;
  for (int i = 0; i < 6; ++i) elements.push_back(Term::variable(i));
  m.outputs.push_back(array("m", VarType::int_, {{1, 2}, {1, 3}}, elements));
  EXPECT_EQ(print(m, {1, 2, 3, 4, 5, 6}),
            "m = array2d(1..2, 1..3, [1, 2, 3, 4, 5, 6]);\n----------\n");
}

TEST(FznOutput, BoolArrayAndNonUnitIndexSets) {
  Model m;
  m.outputs.push_back(
      array("bs", VarType::bool_, {{0, 1}, {-1, 0}},
            {Term::variable(0), Term::constant(0), Term::constant(1), Term::variable(1)}));
  EXPECT_EQ(print(m, {0, 1}),
            "bs = array2d(0..1, -1..0, [false, false, true, true]);\n----------\n");
}

TEST(FznOutput, EmptyArray) {
  Model m;
  m.outputs.push_back(array("e", VarType::int_, {{1, 0}}, {}));
  EXPECT_EQ(print(m, {}), "e = array1d(1..0, []);\n----------\n");
}

TEST(FznOutput, SixDimensions) {
  Model m;
  m.outputs.push_back(array("h", VarType::int_, {{1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 2}},
                            {Term::constant(4), Term::variable(0)}));
  EXPECT_EQ(print(m, {5}),
            "h = array6d(1..1, 1..1, 1..1, 1..1, 1..1, 1..2, [4, 5]);\n----------\n");
}

TEST(FznOutput, ArrayWithoutDimsPrintsAsOneDimensional) {
  Model m;
  m.outputs.push_back(array("a", VarType::int_, {}, {Term::constant(1), Term::constant(2)}));
  EXPECT_EQ(print(m, {}), "a = array1d(1..2, [1, 2]);\n----------\n");
}

TEST(FznOutput, MissingValueThrows) {
  Model m;
  m.outputs.push_back(scalar("x", VarType::int_, Term::variable(2)));
  std::ostringstream os;
  EXPECT_THROW(print_solution(os, m, {1, 2}), std::out_of_range);
  EXPECT_TRUE(os.str().empty());  // nothing half-printed
}

TEST(FznOutput, ParsedModelRoundTrip) {
  Model m = parse_string(
      "var 1..9: x :: output_var;\n"
      "var bool: b :: output_var;\n"
      "var 1..9: y;\n"
      "array [1..6] of var int: grid :: output_array([1..2, 1..3]) = [x, 0, y, 7, x, y];\n"
      "array [1..2] of var bool: flags :: output_array([1..2]) = [b, true];\n"
      "solve satisfy;\n");
  EXPECT_EQ(print(m, {4, 0, 9}),
            "x = 4;\n"
            "b = false;\n"
            "grid = array2d(1..2, 1..3, [4, 0, 9, 7, 4, 9]);\n"
            "flags = array1d(1..2, [false, true]);\n"
            "----------\n");
}

// --- reading solutions back (kcp --verify) -------------------------------------------------------

const char* const round_trip_model =
    "var 1..9: x :: output_var;\n"
    "var bool: b :: output_var;\n"
    "var 1..9: y;\n"
    "var 1..9: z = x;\n"
    "var 5..5: k;\n"
    "array [1..6] of var int: grid :: output_array([1..2, 1..3]) = [x, 0, y, 7, z, y];\n"
    "solve satisfy;\n";

std::vector<std::vector<std::int64_t>> read(const Model& m, const std::string& text) {
  std::istringstream in(text);
  return read_solutions(m, in, "out.txt");
}

TEST(FznSolutionReader, ReadsWhatPrintSolutionWritesAndFillsAliasesAndFixedVariables) {
  const Model m = parse_string(round_trip_model);
  const std::vector<std::int64_t> values{4, 1, 9, 4, 5};
  const std::string printed = print(m, values) + print(m, {2, 0, 3, 2, 5}) + "==========\n";
  const auto got = read(m, "% a comment\n" + printed);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], values);
  EXPECT_EQ(got[1], (std::vector<std::int64_t>{2, 0, 3, 2, 5}));
  // Gecode's spacing and an assignment over two lines read the same.
  const auto spaced = read(m, "x = 4;\nb = true;\ngrid = array2d(1..2, 1..3,\n [4,0,9,7,4,9]);\n----------\n");
  ASSERT_EQ(spaced.size(), 1u);
  EXPECT_EQ(spaced[0], values);
  EXPECT_TRUE(read(m, "=====UNSATISFIABLE=====\n").empty());
}

TEST(FznSolutionReader, NamesTheLineOfEveryProblem) {
  const Model m = parse_string(round_trip_model);
  auto error = [&](const std::string& text) -> std::string {
    try {
      read(m, text);
    } catch (const SolutionError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(error("x = 4;\nw = 1;\n"), "out.txt:2: error: 'w' is not an output of the model");
  EXPECT_EQ(error("x = four;\n"), "out.txt:1: error: expected an integer, found 'four'");
  EXPECT_EQ(error("x = 4;\nb = 2;\n"), "out.txt:2: error: expected true or false, found '2'");
  EXPECT_EQ(error("x = 4\n"), "out.txt:1: error: an assignment without its closing ';'");
  EXPECT_EQ(error("x = 4;\n"), "out.txt:2: error: a solution without its closing '----------'");
  EXPECT_EQ(error("x = 4;\nb = true;\n----------\n"), "out.txt:3: error: no value for variable y (not an output of the model)");
  EXPECT_EQ(error("grid = [4, 1, 9, 7, 4, 9];\n"), "out.txt:1: error: grid: a constant of the model is 0, not 1");
  EXPECT_EQ(error("grid = [4, 0, 9];\n"), "out.txt:1: error: grid: 3 values for 6 elements");
  EXPECT_EQ(error("x = 4;\ngrid = [3, 0, 9, 7, 3, 9];\n"), "out.txt:2: error: grid: variable x given two values");
}

}  // namespace
}  // namespace kcp::fzn
