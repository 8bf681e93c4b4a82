#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/fzn/parser.hpp"

// The CMake build defines KCP_SOURCE_DIR; a standalone build finds the repository from __FILE__.
#ifdef KCP_SOURCE_DIR
#include "tests/source_dir.hpp"
#endif

namespace kcp::fzn {
namespace {

namespace fs = std::filesystem;

// Parses `text` expecting an error at line:column with exactly `message`.
void expect_error(std::string_view text, int line, int column, const std::string& message) {
  try {
    parse_string(text, "t.fzn");
  } catch (const ParseError& e) {
    EXPECT_EQ(e.message(), message);
    EXPECT_EQ(e.location().line, line);
    EXPECT_EQ(e.location().column, column);
    EXPECT_EQ(e.file(), "t.fzn");
    EXPECT_EQ(std::string(e.what()), "t.fzn:" + std::to_string(line) + ":" +
                                         std::to_string(column) + ": error: " + message);
    return;
  }
  ADD_FAILURE() << "no ParseError for:\n" << text;
}

Model parse(std::string_view text) { return parse_string(text, "t.fzn"); }

const Variable& var_named(const Model& m, const std::string& name) {
  for (const Variable& v : m.variables) {
    if (v.name == name) return v;
  }
  throw std::runtime_error("no variable " + name);
}

int var_index(const Model& m, const std::string& name) {
  for (std::size_t i = 0; i < m.variables.size(); ++i) {
    if (m.variables[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

::testing::AssertionResult is_var(const Term& t, int index) {
  if (t.is_variable() && t.var == index) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "term is " << (t.is_variable() ? "variable " : "constant ")
         << (t.is_variable() ? t.var : t.value) << ", expected variable " << index;
}

::testing::AssertionResult is_const(const Term& t, std::int64_t value) {
  if (t.is_constant() && t.value == value) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "term is " << (t.is_variable() ? "variable " : "constant ")
         << (t.is_variable() ? t.var : t.value) << ", expected constant " << value;
}

using Ranges = std::vector<std::pair<std::int64_t, std::int64_t>>;

// --- IntSet -----------------------------------------------------------------------------------

TEST(FznIntSet, FromRangesSortsMergesAndDropsEmpty) {
  IntSet s = IntSet::from_ranges({{7, 9}, {1, 2}, {3, 4}, {5, 4}, {8, 12}, {20, 20}});
  EXPECT_EQ(s.ranges, (Ranges{{1, 4}, {7, 12}, {20, 20}}));
  EXPECT_EQ(s.min(), 1);
  EXPECT_EQ(s.max(), 20);
  EXPECT_TRUE(s.contains(1));
  EXPECT_TRUE(s.contains(4));
  EXPECT_FALSE(s.contains(5));
  EXPECT_TRUE(s.contains(12));
  EXPECT_FALSE(s.contains(13));
  EXPECT_TRUE(s.contains(20));
  EXPECT_FALSE(s.contains(21));
  EXPECT_FALSE(s.contains(0));
}

TEST(FznIntSet, ExtremesDoNotOverflow) {
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  const std::int64_t min = std::numeric_limits<std::int64_t>::min();
  IntSet s = IntSet::from_ranges({{max, max}, {min, min}, {max - 1, max}, {min, min + 1}});
  EXPECT_EQ(s.ranges, (Ranges{{min, min + 1}, {max - 1, max}}));
  EXPECT_TRUE(s.contains(max));
  EXPECT_TRUE(s.contains(min));
  EXPECT_FALSE(s.contains(0));
  EXPECT_TRUE(IntSet::range(3, 2).empty());
  EXPECT_FALSE(IntSet{}.contains(0));
}

// --- malformed input --------------------------------------------------------------------------

TEST(FznParserErrors, MissingSemicolonAfterConstraint) {
  // Reported just after the constraint's last token, where the ';' belongs.
  expect_error("var int: x;\nconstraint int_le(x, 3)\nsolve satisfy;\n", 2, 24,
               "expected ';' after constraint");
}

TEST(FznParserErrors, MissingSemicolonAfterVariable) {
  expect_error("var 1..3: x :: output_var\nsolve satisfy;\n", 1, 26,
               "expected ';' after variable declaration");
}

TEST(FznParserErrors, MissingSemicolonAfterSolve) {
  expect_error("var 1..3: x;\nsolve minimize x", 2, 17, "expected ';' after solve item");
}

TEST(FznParserErrors, UndefinedIdentifier) {
  expect_error("var int: x;\nconstraint int_le(x, foo);\nsolve satisfy;\n", 2, 22,
               "undefined identifier 'foo'");
}

TEST(FznParserErrors, UndefinedIdentifierInArrayLiteral) {
  expect_error("var int: x;\nconstraint int_lin_le([1, 2], [x, y], 3);\nsolve satisfy;\n", 2, 35,
               "undefined identifier 'y'");
}

TEST(FznParserErrors, UndefinedObjective) {
  expect_error("solve maximize obj;", 1, 16, "undefined identifier 'obj'");
}

TEST(FznParserErrors, VariableUsedInItsOwnDeclaration) {
  expect_error("var int: x = x;\nsolve satisfy;\n", 1, 14, "undefined identifier 'x'");
}

TEST(FznParserErrors, IntegerLiteralOutOfRange) {
  expect_error("var int: x;\nconstraint int_le(x, 99999999999999999999);\nsolve satisfy;\n", 2, 22,
               "integer literal out of range: 99999999999999999999");
}

TEST(FznParserErrors, IntegerLiteralJustOutOfRange) {
  expect_error("int: a = 9223372036854775808;", 1, 10,
               "integer literal out of range: 9223372036854775808");
  expect_error("int: a = -9223372036854775809;", 1, 10,
               "integer literal out of range: -9223372036854775809");
  expect_error("int: a = 0x10000000000000000;", 1, 10,
               "integer literal out of range: 0x10000000000000000");
}

TEST(FznParserErrors, WrongArrayLength) {
  expect_error("array [1..3] of int: a = [1, 2];\nsolve satisfy;\n", 1, 1,
               "array 'a' declared with 3 elements but has 2");
  expect_error("var int: x;\narray [1..1] of var int: xs = [x, x];\nsolve satisfy;\n", 2, 1,
               "array 'xs' declared with 1 elements but has 2");
}

TEST(FznParserErrors, EmptyFile) { expect_error("", 1, 1, "missing solve item"); }

TEST(FznParserErrors, OnlyCommentsAndBlanks) {
  expect_error("% nothing here\n\n  ", 3, 3, "missing solve item");
}

TEST(FznParserErrors, MissingSolveItem) {
  expect_error("var int: x;\nconstraint int_le(x, 3);\n", 3, 1, "missing solve item");
}

TEST(FznParserErrors, ItemAfterSolve) {
  expect_error("var int: x;\nsolve satisfy;\nconstraint int_le(x, 3);\n", 3, 1,
               "expected end of file after solve item");
  expect_error("solve satisfy;\nsolve satisfy;\n", 2, 1, "expected end of file after solve item");
}

TEST(FznParserErrors, BinaryGarbage) {
  expect_error("\x01\x02\x03", 1, 1, "unexpected character '\\x01'");
  expect_error("var int: x;\n\x7f", 2, 1, "unexpected character '\\x7f'");
  expect_error("solve satisfy;\xff\xfe", 1, 15, "unexpected character '\\xff'");
  expect_error("var int: x @;", 1, 12, "unexpected character '@'");
}

TEST(FznParserErrors, EmbeddedNulByte) {
  const std::string text("var int: x;\0solve satisfy;", 26);
  expect_error(text, 1, 12, "unexpected character '\\x00'");
}

TEST(FznParserErrors, FloatVariable) {
  expect_error("var int: y;\nvar float: x :: output_var;\nsolve satisfy;\n", 2, 1,
               "float variables are not supported (variable 'x')");
  expect_error("var 0.5..1.5: x;\nsolve satisfy;\n", 1, 1,
               "float variables are not supported (variable 'x')");
  expect_error("var {0.5, 1.5}: x;\nsolve satisfy;\n", 1, 1,
               "float variables are not supported (variable 'x')");
}

TEST(FznParserErrors, FloatVariableArray) {
  expect_error("array [1..2] of var float: fs = [1.0, 2.0];\nsolve satisfy;\n", 1, 1,
               "float variables are not supported (array 'fs')");
}

TEST(FznParserErrors, SetVariable) {
  expect_error("var set of 1..5: s :: output_var;\nsolve satisfy;\n", 1, 1,
               "set variables are not supported (variable 's')");
  expect_error("var int: x;\n  var set of {1, 3}: s;\nsolve satisfy;\n", 2, 3,
               "set variables are not supported (variable 's')");
  expect_error("array [1..1] of var set of int: ss = [{}];\nsolve satisfy;\n", 1, 1,
               "set variables are not supported (array 'ss')");
}

TEST(FznParserErrors, FloatArgument) {
  expect_error("float: f = 1.5;\nvar int: x;\nconstraint foo(x, f);\nsolve satisfy;\n", 3, 19,
               "float arguments are not supported");
  expect_error("var int: x;\nconstraint foo(x, 2.5);\nsolve satisfy;\n", 2, 19,
               "float arguments are not supported");
  expect_error("array [1..2] of float: fs = [1.0, 2];\nconstraint foo(fs);\nsolve satisfy;\n", 2,
               16, "float arguments are not supported");
  expect_error("constraint foo([1, 2.5]);\nsolve satisfy;\n", 1, 20,
               "float arguments are not supported");
}

TEST(FznParserErrors, UnterminatedString) {
  expect_error("solve :: foo(\"abc) satisfy;\n", 1, 14, "unterminated string literal");
  expect_error("solve :: foo(\"abc\n\") satisfy;\n", 1, 14, "unterminated string literal");
  // An escaped quote does not end the string.
  expect_error("solve :: foo(\"ab\\\") satisfy;", 1, 14, "unterminated string literal");
}

TEST(FznParserErrors, CommentEdgeCases) {
  // A '%' comment without a final newline ends at the end of the file.
  expect_error("var int: x; % comment", 1, 22, "missing solve item");
  // Garbage inside comments is ignored; the unterminated block comment is reported at its start.
  expect_error("% \x01\x02 \"\n/* \x01 */ var int: x;\n  /* never closed\n", 3, 3,
               "unterminated comment");
  expect_error("var int: x; /*/", 1, 13, "unterminated comment");
}

TEST(FznParserErrors, DeepAnnotationNesting) {
  std::string text = "solve :: ";
  for (int i = 0; i < 100000; ++i) text += "a(";
  text += "b";
  for (int i = 0; i < 100000; ++i) text += ")";
  text += " satisfy;";
  // "solve :: " is 9 characters; the 257th nested call starts at column 10 + 2 * 256.
  expect_error(text, 1, 522, "annotation nested more than 256 levels deep");

  std::string arrays = "solve :: " + std::string(100000, '[') + " satisfy;";
  expect_error(arrays, 1, 10 + 256, "annotation nested more than 256 levels deep");
}

TEST(FznParserErrors, DeepArgumentNesting) {
  // Constraint arguments are at most one array deep, so nesting fails at the second bracket.
  std::string text = "constraint foo(" + std::string(100000, '[') + ");\nsolve satisfy;\n";
  expect_error(text, 1, 17, "expected an array element");
  expect_error("constraint foo({{1}});\nsolve satisfy;\n", 1, 17,
               "expected an integer in set literal");
}

TEST(FznParserErrors, UnbalancedPredicate) {
  expect_error("predicate p(array [int] of var int: x;\nsolve satisfy;\n", 1, 38,
               "expected ')' to close the predicate's parameters");
  expect_error("predicate p(var int: x", 1, 1, "unterminated predicate declaration");
}

TEST(FznParserErrors, DuplicateDeclaration) {
  expect_error("var int: x;\nvar bool: x;\nsolve satisfy;\n", 2, 11,
               "identifier 'x' is already declared");
  expect_error("int: n = 1;\narray [1..1] of var int: n = [1];\nsolve satisfy;\n", 2, 26,
               "identifier 'n' is already declared");
}

TEST(FznParserErrors, ArrayIndexOutOfRange) {
  expect_error("array [1..3] of int: c = [1, 2, 3];\nconstraint foo(c[4]);\nsolve satisfy;\n", 2,
               18, "index 4 is out of range for array 'c' (1..3)");
  expect_error("array [1..3] of int: c = [1, 2, 3];\nconstraint foo(c[0]);\nsolve satisfy;\n", 2,
               18, "index 0 is out of range for array 'c' (1..3)");
  expect_error("var int: x;\nconstraint foo(x[1]);\nsolve satisfy;\n", 2, 16,
               "'x' is not an array");
}

TEST(FznParserErrors, MiscSyntax) {
  expect_error("constraint foo(1 2);\nsolve satisfy;\n", 1, 18,
               "expected ',' or ')' after constraint argument");
  expect_error("constraint foo;\nsolve satisfy;\n", 1, 15, "expected '(' after constraint name");
  expect_error("var int x;\nsolve satisfy;\n", 1, 9, "expected ':' after the variable's type");
  expect_error("var int: int;\nsolve satisfy;\n", 1, 10, "expected a variable name");
  expect_error("solve optimize x;", 1, 7, "expected 'satisfy', 'minimize' or 'maximize'");
  expect_error("x = 3;", 1, 1,
               "expected an item (predicate, parameter, variable, constraint or solve)");
  expect_error("var int: x;\narray [1..1] of var int: xs;\nsolve satisfy;\n", 2, 28,
               "expected '=' and the elements of array 'xs'");
  expect_error("array [1..1] of int: a = [x];\nsolve satisfy;\n", 1, 27,
               "undefined identifier 'x'");
  expect_error("var int: x;\narray [1..1] of int: a = [x];\nsolve satisfy;\n", 2, 27,
               "parameter array 'a' cannot contain variables");
  expect_error("var int: x;\nint: n = x;\nsolve satisfy;\n", 2, 10,
               "expected a constant value for parameter 'n'");
  expect_error("var 1..: x;", 1, 8, "expected an integer after '..'");
  expect_error("var int: x;\nsolve minimize {1};", 2, 16,
               "expected an integer or boolean objective");
  expect_error("solve minimize 1.5;", 1, 16, "float objectives are not supported");
  expect_error("var int: x = {1};", 1, 14, "expected an integer or boolean value");
  expect_error("var int: x;\nsolve :: int_search(x, ) satisfy;", 2, 24, "expected an annotation");
  expect_error("var 1..3: x :: output_array([1..3]);\nsolve satisfy;\n", 1, 16,
               "output_array on scalar variable 'x'");
  expect_error(
      "var int: x;\narray [1..2] of var int: xs :: output_array([1..3]) = [x, x];\nsolve "
      "satisfy;\n",
      2, 32, "output_array of 'xs' describes 3 elements but the array has 2");
  expect_error(
      "var int: x;\narray [1..1] of var int: xs :: "
      "output_array([1..1,1..1,1..1,1..1,1..1,1..1,1..1]) = [x];\nsolve satisfy;\n",
      2, 32, "output_array with 7 dimensions is not supported (1 to 6)");
  expect_error(
      "var int: x;\narray [1..1] of var int: xs :: output_array(3) = [x];\nsolve satisfy;\n", 2, 32,
      "output_array expects a list of index ranges");
  expect_error("var int: x;\nconstraint foo(x);\n-", 3, 1, "unexpected character '-'");
  expect_error("var int: x;\nconstraint foo(x.);", 2, 17, "unexpected character '.'");
}

TEST(FznParserErrors, MissingFile) {
  try {
    parse_file("/nonexistent/dir/model.fzn");
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.location().line, 0);
    EXPECT_EQ(e.file(), "/nonexistent/dir/model.fzn");
    EXPECT_EQ(e.message(), "cannot open file: No such file or directory");
    EXPECT_EQ(std::string(e.what()),
              "/nonexistent/dir/model.fzn:0:0: error: cannot open file: No such file or directory");
  }
}

TEST(FznParserErrors, DirectoryIsNotAFile) {
  std::string dir = ::testing::TempDir();
  try {
    parse_file(dir);
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.location().line, 0);
    EXPECT_EQ(e.message().rfind("cannot", 0), 0u) << e.message();
  }
}

// --- well-formed input ------------------------------------------------------------------------

TEST(FznParser, VariablesAndDomains) {
  Model m = parse(
      "var int: a;\n"
      "var 1..5: b;\n"
      "var {1,3,5, 4}: c;\n"
      "var bool: d;\n"
      "var -5..-1: e;\n"
      "var 3..2: f;\n"
      "solve satisfy;\n");
  ASSERT_EQ(m.variables.size(), 6u);
  EXPECT_EQ(m.file, "t.fzn");
  EXPECT_FALSE(m.variables[0].domain.has_value());
  EXPECT_EQ(m.variables[0].type, VarType::int_);
  EXPECT_EQ(m.variables[1].domain->ranges, (Ranges{{1, 5}}));
  EXPECT_EQ(m.variables[2].domain->ranges, (Ranges{{1, 1}, {3, 5}}));
  EXPECT_EQ(m.variables[3].type, VarType::bool_);
  EXPECT_EQ(m.variables[3].domain->ranges, (Ranges{{0, 1}}));
  EXPECT_EQ(m.variables[4].domain->ranges, (Ranges{{-5, -1}}));
  EXPECT_TRUE(m.variables[5].domain->empty());
  EXPECT_EQ(m.variables[2].name, "c");
  EXPECT_EQ(m.variables[2].loc.line, 3);
  EXPECT_EQ(m.variables[2].loc.column, 1);
  EXPECT_EQ(m.solve.kind, SolveGoal::Kind::satisfy);
  EXPECT_FALSE(m.solve.objective.has_value());
  EXPECT_TRUE(m.outputs.empty());
  EXPECT_TRUE(m.constraints.empty());
}

TEST(FznParser, IntegerLiterals) {
  Model m = parse(
      "constraint foo(9223372036854775807, -9223372036854775808, 0x1F, 0o17, -0x10, 007);\n"
      "solve satisfy;\n");
  ASSERT_EQ(m.constraints.size(), 1u);
  const auto& args = m.constraints[0].args;
  ASSERT_EQ(args.size(), 6u);
  EXPECT_TRUE(is_const(args[0].scalar, std::numeric_limits<std::int64_t>::max()));
  EXPECT_TRUE(is_const(args[1].scalar, std::numeric_limits<std::int64_t>::min()));
  EXPECT_TRUE(is_const(args[2].scalar, 31));
  EXPECT_TRUE(is_const(args[3].scalar, 15));
  EXPECT_TRUE(is_const(args[4].scalar, -16));
  EXPECT_TRUE(is_const(args[5].scalar, 7));
}

TEST(FznParser, ParametersAreSubstituted) {
  Model m = parse(
      "int: n = 3;\n"
      "bool: t = true;\n"
      "float: f = 2.5;\n"
      "set of int: S = {1, 3, 5};\n"
      "set of int: R = 2..4;\n"
      "array [1..3] of int: c = [1, -2, n];\n"
      "array [1..2] of bool: bs = [false, t];\n"
      "array [1..2] of float: fs = [1.0, 2];\n"
      "array [1..2] of set of int: ss = [{1}, 2..3];\n"
      "var 1..10: x;\n"
      "constraint int_lin_le(c, [x, x, x], n);\n"
      "constraint set_in(x, S);\n"
      "constraint set_in(x, R);\n"
      "constraint bool_eq(t, false);\n"
      "constraint foo(bs, ss[2], c[2], bs[2]);\n"
      "solve satisfy;\n");
  ASSERT_EQ(m.variables.size(), 1u);  // parameters do not become variables
  ASSERT_EQ(m.constraints.size(), 5u);
  const auto& lin = m.constraints[0];
  EXPECT_EQ(lin.name, "int_lin_le");
  ASSERT_EQ(lin.args.size(), 3u);
  ASSERT_EQ(lin.args[0].kind, Arg::Kind::array);
  ASSERT_EQ(lin.args[0].array.size(), 3u);
  EXPECT_TRUE(is_const(lin.args[0].array[0], 1));
  EXPECT_TRUE(is_const(lin.args[0].array[1], -2));
  EXPECT_TRUE(is_const(lin.args[0].array[2], 3));
  ASSERT_EQ(lin.args[1].kind, Arg::Kind::array);
  for (const Term& t : lin.args[1].array) EXPECT_TRUE(is_var(t, 0));
  EXPECT_EQ(lin.args[2].kind, Arg::Kind::scalar);
  EXPECT_TRUE(is_const(lin.args[2].scalar, 3));
  ASSERT_EQ(m.constraints[1].args[1].kind, Arg::Kind::set);
  EXPECT_EQ(m.constraints[1].args[1].set.ranges, (Ranges{{1, 1}, {3, 3}, {5, 5}}));
  EXPECT_EQ(m.constraints[2].args[1].set.ranges, (Ranges{{2, 4}}));
  EXPECT_TRUE(is_const(m.constraints[3].args[0].scalar, 1));
  EXPECT_TRUE(is_const(m.constraints[3].args[1].scalar, 0));
  const auto& foo = m.constraints[4].args;
  ASSERT_EQ(foo.size(), 4u);
  ASSERT_EQ(foo[0].kind, Arg::Kind::array);
  EXPECT_TRUE(is_const(foo[0].array[0], 0));
  EXPECT_TRUE(is_const(foo[0].array[1], 1));
  ASSERT_EQ(foo[1].kind, Arg::Kind::set);
  EXPECT_EQ(foo[1].set.ranges, (Ranges{{2, 3}}));
  EXPECT_TRUE(is_const(foo[2].scalar, -2));
  EXPECT_TRUE(is_const(foo[3].scalar, 1));
}

TEST(FznParser, SetAndRangeLiteralsAndEmptyArguments) {
  Model m = parse(
      "var int: x;\n"
      "constraint set_in(x, {5, 1, 2, 3});\n"
      "constraint set_in(x, 1..5);\n"
      "constraint foo([], {});\n"
      "constraint bar();\n"
      "solve satisfy;\n");
  EXPECT_EQ(m.constraints[0].args[1].set.ranges, (Ranges{{1, 3}, {5, 5}}));
  EXPECT_EQ(m.constraints[1].args[1].set.ranges, (Ranges{{1, 5}}));
  EXPECT_EQ(m.constraints[2].args[0].kind, Arg::Kind::array);
  EXPECT_TRUE(m.constraints[2].args[0].array.empty());
  EXPECT_EQ(m.constraints[2].args[1].kind, Arg::Kind::set);
  EXPECT_TRUE(m.constraints[2].args[1].set.empty());
  EXPECT_TRUE(m.constraints[3].args.empty());
}

TEST(FznParser, ArrayAccess) {
  Model m = parse(
      "var 1..3: a;\n"
      "var 1..3: b;\n"
      "array [1..3] of var int: xs = [a, 7, b];\n"
      "array [1..2] of int: c = [10, 20];\n"
      "constraint int_eq(xs[3], c[2]);\n"
      "constraint int_eq(xs[2], xs[1]);\n"
      "constraint foo([xs[1], c[1], 4]);\n"
      "solve minimize xs[3];\n");
  const auto& c0 = m.constraints[0].args;
  EXPECT_TRUE(is_var(c0[0].scalar, 1));
  EXPECT_TRUE(is_const(c0[1].scalar, 20));
  EXPECT_TRUE(is_const(m.constraints[1].args[0].scalar, 7));
  EXPECT_TRUE(is_var(m.constraints[1].args[1].scalar, 0));
  const auto& arr = m.constraints[2].args[0].array;
  ASSERT_EQ(arr.size(), 3u);
  EXPECT_TRUE(is_var(arr[0], 0));
  EXPECT_TRUE(is_const(arr[1], 10));
  EXPECT_TRUE(is_const(arr[2], 4));
  ASSERT_TRUE(m.solve.objective.has_value());
  EXPECT_TRUE(is_var(*m.solve.objective, 1));
}

TEST(FznParser, ArrayOfVariablesMixesVariablesAndConstants) {
  Model m = parse(
      "int: k = 4;\n"
      "var 1..3: a;\n"
      "var bool: p;\n"
      "array [1..5] of var int: xs = [a, 3, -1, k, a];\n"
      "array [1..3] of var bool: bs = [p, true, false];\n"
      "constraint foo(xs, bs);\n"
      "solve satisfy;\n");
  const auto& xs = m.constraints[0].args[0].array;
  ASSERT_EQ(xs.size(), 5u);
  EXPECT_TRUE(is_var(xs[0], 0));
  EXPECT_TRUE(is_const(xs[1], 3));
  EXPECT_TRUE(is_const(xs[2], -1));
  EXPECT_TRUE(is_const(xs[3], 4));
  EXPECT_TRUE(is_var(xs[4], 0));
  const auto& bs = m.constraints[0].args[1].array;
  ASSERT_EQ(bs.size(), 3u);
  EXPECT_TRUE(is_var(bs[0], 1));
  EXPECT_TRUE(is_const(bs[1], 1));
  EXPECT_TRUE(is_const(bs[2], 0));
  EXPECT_EQ(m.variables.size(), 2u);  // arrays of variables do not add variables
}

TEST(FznParser, Aliases) {
  Model m = parse(
      "int: n = 7;\n"
      "var 1..9: x;\n"
      "var int: y = x;\n"
      "var int: z = 5;\n"
      "var bool: b :: var_is_introduced = true;\n"
      "var int: w = n;\n"
      "array [1..1] of var int: xs = [x];\n"
      "var int: v = xs[1];\n"
      "constraint int_le(y, z);\n"
      "solve satisfy;\n");
  ASSERT_EQ(m.variables.size(), 6u);
  EXPECT_FALSE(var_named(m, "x").alias.has_value());
  ASSERT_TRUE(var_named(m, "y").alias.has_value());
  EXPECT_TRUE(is_var(*var_named(m, "y").alias, var_index(m, "x")));
  EXPECT_TRUE(is_const(*var_named(m, "z").alias, 5));
  EXPECT_TRUE(is_const(*var_named(m, "b").alias, 1));
  EXPECT_TRUE(var_named(m, "b").introduced);
  EXPECT_TRUE(is_const(*var_named(m, "w").alias, 7));
  EXPECT_TRUE(is_var(*var_named(m, "v").alias, var_index(m, "x")));
  // Uses of an alias refer to the alias variable itself; compile resolves it.
  EXPECT_TRUE(is_var(m.constraints[0].args[0].scalar, var_index(m, "y")));
}

TEST(FznParser, DeclarationAnnotations) {
  Model m = parse(
      "var 1..3: a :: output_var;\n"
      "var bool: b ::var_is_introduced :: is_defined_var;\n"
      "var 0..1: c :: is_defined_var :: output_var :: some_other(1, [2]) :: mystery;\n"
      "constraint bool2int(b, c) :: defines_var(c);\n"
      "solve satisfy;\n");
  EXPECT_FALSE(m.variables[0].introduced);
  EXPECT_FALSE(m.variables[0].defined);
  EXPECT_TRUE(m.variables[1].introduced);
  EXPECT_TRUE(m.variables[1].defined);
  EXPECT_FALSE(m.variables[2].introduced);
  EXPECT_TRUE(m.variables[2].defined);
  ASSERT_EQ(m.outputs.size(), 2u);
  EXPECT_EQ(m.outputs[0].name, "a");
  EXPECT_EQ(m.outputs[1].name, "c");
  const auto& anns = m.constraints[0].annotations;
  ASSERT_EQ(anns.size(), 1u);
  EXPECT_EQ(anns[0].kind, Annotation::Kind::call);
  EXPECT_EQ(anns[0].name, "defines_var");
  ASSERT_EQ(anns[0].args.size(), 1u);
  EXPECT_EQ(anns[0].args[0].kind, Annotation::Kind::term);
  EXPECT_TRUE(is_var(anns[0].args[0].term, 2));
}

TEST(FznParser, OutputsInSourceOrder) {
  Model m = parse(
      "int: k :: output_var = 4;\n"
      "var 1..3: x :: output_var;\n"
      "var bool: b :: output_var;\n"
      "array [1..6] of var int: m :: output_array([1..2, 1..3]) = [x, 1, 2, x, 3, 4];\n"
      "var 1..3: y :: output_var;\n"
      "array [1..2] of var bool: bs :: output_array([0..1]) = [b, false];\n"
      "array [1..2] of int: ps :: output_array([1..2]) = [5, 6];\n"
      "solve satisfy;\n");
  ASSERT_EQ(m.outputs.size(), 7u);
  const Output& k = m.outputs[0];
  EXPECT_EQ(k.name, "k");
  EXPECT_FALSE(k.is_array);
  ASSERT_EQ(k.elements.size(), 1u);
  EXPECT_TRUE(is_const(k.elements[0], 4));
  const Output& x = m.outputs[1];
  EXPECT_EQ(x.name, "x");
  EXPECT_EQ(x.type, VarType::int_);
  EXPECT_TRUE(x.dims.empty());
  ASSERT_EQ(x.elements.size(), 1u);
  EXPECT_TRUE(is_var(x.elements[0], 0));
  EXPECT_EQ(m.outputs[2].name, "b");
  EXPECT_EQ(m.outputs[2].type, VarType::bool_);
  const Output& mat = m.outputs[3];
  EXPECT_EQ(mat.name, "m");
  EXPECT_TRUE(mat.is_array);
  EXPECT_EQ(mat.type, VarType::int_);
  EXPECT_EQ(mat.dims, (Ranges{{1, 2}, {1, 3}}));
  ASSERT_EQ(mat.elements.size(), 6u);
  EXPECT_TRUE(is_var(mat.elements[0], 0));
  EXPECT_TRUE(is_const(mat.elements[1], 1));
  EXPECT_TRUE(is_const(mat.elements[5], 4));
  EXPECT_EQ(m.outputs[4].name, "y");
  const Output& bs = m.outputs[5];
  EXPECT_EQ(bs.type, VarType::bool_);
  EXPECT_EQ(bs.dims, (Ranges{{0, 1}}));
  EXPECT_TRUE(is_var(bs.elements[0], 1));
  EXPECT_TRUE(is_const(bs.elements[1], 0));
  EXPECT_EQ(m.outputs[6].name, "ps");
  EXPECT_TRUE(is_const(m.outputs[6].elements[1], 6));
}

TEST(FznParser, OutputArraySixDimensions) {
  Model m = parse(
      "var int: x;\n"
      "array [1..1] of var int: h :: output_array([1..1,1..1,1..1,1..1,1..1,1..1]) = [x];\n"
      "array [1..0] of var int: e :: output_array([1..0, 1..3]) = [];\n"
      "solve satisfy;\n");
  ASSERT_EQ(m.outputs.size(), 2u);
  EXPECT_EQ(m.outputs[0].dims.size(), 6u);
  EXPECT_EQ(m.outputs[1].dims, (Ranges{{1, 0}, {1, 3}}));
  EXPECT_TRUE(m.outputs[1].elements.empty());
}

TEST(FznParser, SeqSearchAnnotationTree) {
  Model m = parse(
      "var 1..3: x;\n"
      "var bool: b;\n"
      "array [1..2] of var int: xs = [x, 2];\n"
      "solve :: seq_search([int_search(xs, first_fail, indomain_min, complete),\n"
      "                     bool_search([b], input_order, indomain_max, complete)])\n"
      "      :: restart_geometric(1.5, 100) :: note(\"a \\\"q\\\"\", 1..4, {1, 3})\n"
      "      minimize x;\n");
  const SolveGoal& s = m.solve;
  EXPECT_EQ(s.kind, SolveGoal::Kind::minimize);
  ASSERT_TRUE(s.objective.has_value());
  EXPECT_TRUE(is_var(*s.objective, 0));
  EXPECT_EQ(s.loc.line, 4);
  EXPECT_EQ(s.loc.column, 1);
  ASSERT_EQ(s.annotations.size(), 3u);

  const Annotation& seq = s.annotations[0];
  EXPECT_EQ(seq.kind, Annotation::Kind::call);
  EXPECT_EQ(seq.name, "seq_search");
  ASSERT_EQ(seq.args.size(), 1u);
  ASSERT_EQ(seq.args[0].kind, Annotation::Kind::array);
  ASSERT_EQ(seq.args[0].args.size(), 2u);

  const Annotation& is = seq.args[0].args[0];
  EXPECT_EQ(is.name, "int_search");
  ASSERT_EQ(is.args.size(), 4u);
  ASSERT_EQ(is.args[0].kind, Annotation::Kind::array);  // the array variable, expanded
  ASSERT_EQ(is.args[0].args.size(), 2u);
  EXPECT_TRUE(is_var(is.args[0].args[0].term, 0));
  EXPECT_TRUE(is_const(is.args[0].args[1].term, 2));
  EXPECT_EQ(is.args[1].kind, Annotation::Kind::call);
  EXPECT_EQ(is.args[1].name, "first_fail");
  EXPECT_TRUE(is.args[1].args.empty());
  EXPECT_EQ(is.args[2].name, "indomain_min");
  EXPECT_EQ(is.args[3].name, "complete");

  const Annotation& bsr = seq.args[0].args[1];
  EXPECT_EQ(bsr.name, "bool_search");
  ASSERT_EQ(bsr.args[0].kind, Annotation::Kind::array);
  ASSERT_EQ(bsr.args[0].args.size(), 1u);
  EXPECT_EQ(bsr.args[0].args[0].kind, Annotation::Kind::term);
  EXPECT_TRUE(is_var(bsr.args[0].args[0].term, 1));
  EXPECT_EQ(bsr.args[2].name, "indomain_max");

  const Annotation& restart = s.annotations[1];
  EXPECT_EQ(restart.name, "restart_geometric");
  ASSERT_EQ(restart.args.size(), 2u);
  EXPECT_EQ(restart.args[0].kind, Annotation::Kind::string);  // floats keep their source text
  EXPECT_EQ(restart.args[0].text, "1.5");
  EXPECT_TRUE(is_const(restart.args[1].term, 100));

  const Annotation& note = s.annotations[2];
  ASSERT_EQ(note.args.size(), 3u);
  EXPECT_EQ(note.args[0].kind, Annotation::Kind::string);
  EXPECT_EQ(note.args[0].text, "a \"q\"");
  EXPECT_EQ(note.args[1].name, "..");
  ASSERT_EQ(note.args[1].args.size(), 2u);
  EXPECT_TRUE(is_const(note.args[1].args[0].term, 1));
  EXPECT_TRUE(is_const(note.args[1].args[1].term, 4));
  EXPECT_EQ(note.args[2].name, "{}");
  ASSERT_EQ(note.args[2].args.size(), 2u);
  EXPECT_EQ(note.args[2].args[1].name, "..");
  EXPECT_TRUE(is_const(note.args[2].args[1].args[0].term, 3));
}

TEST(FznParser, SolveMaximizeAndConstantObjective) {
  Model m = parse("var 1..3: x;\nsolve maximize x;\n");
  EXPECT_EQ(m.solve.kind, SolveGoal::Kind::maximize);
  EXPECT_TRUE(is_var(*m.solve.objective, 0));
  Model c = parse("int: n = 4;\nsolve  minimize n;\n");
  EXPECT_EQ(c.solve.kind, SolveGoal::Kind::minimize);
  EXPECT_TRUE(is_const(*c.solve.objective, 4));
}

TEST(FznParser, PredicateDeclarationsAreSkipped) {
  Model m = parse(
      "predicate fzn_foo(array [int] of var int: x, var set of int: s,\n"
      "                  array [1..2] of var float: f, var 1.0..2.0: g, set of int: d,\n"
      "                  array [int] of set of int: ss, var {1,3}: h, int: n);\n"
      "predicate bar(var bool: b);\n"
      "var int: x;\n"
      "constraint fzn_foo(x);\n"
      "solve satisfy;\n");
  EXPECT_EQ(m.variables.size(), 1u);
  ASSERT_EQ(m.constraints.size(), 1u);
  EXPECT_EQ(m.constraints[0].name, "fzn_foo");
}

TEST(FznParser, AnyConstraintNameParses) {
  Model m = parse("var int: x;\nconstraint totally_unknown_builtin(x, [x], 3);\nsolve satisfy;\n");
  EXPECT_EQ(m.constraints[0].name, "totally_unknown_builtin");
  EXPECT_EQ(m.constraints[0].loc.line, 2);
  EXPECT_EQ(m.constraints[0].loc.column, 1);
}

TEST(FznParser, CommentsWhitespaceAndLineEndings) {
  Model m = parse(
      "% a comment\r\n"
      "var 1..3: x; % trailing\r\n"
      "/* block\n comment */ constraint\tint_le( x ,\n 3 ) ;\r\n"
      "solve satisfy; % done");
  ASSERT_EQ(m.constraints.size(), 1u);
  EXPECT_EQ(m.constraints[0].loc.line, 4);
  EXPECT_EQ(m.constraints[0].loc.column, 13);
}

TEST(FznParser, FloatAndSetParametersParseWhenUnused) {
  Model m = parse(
      "float: f = 1.5e3;\n"
      "float: g = -2;\n"
      "array [1..3] of float: fs = [1.0, -2.5E-3, f];\n"
      "set of int: S = {};\n"
      "array [1..0] of set of int: none = [];\n"
      "solve :: note(f, fs) satisfy;\n");
  EXPECT_TRUE(m.variables.empty());
  ASSERT_EQ(m.solve.annotations.size(), 1u);
  const Annotation& note = m.solve.annotations[0];
  EXPECT_EQ(note.args[0].text, "1.5e3");
  ASSERT_EQ(note.args[1].args.size(), 3u);
  EXPECT_EQ(note.args[1].args[1].text, "-2.5E-3");
  EXPECT_EQ(note.args[1].args[2].text, "1.5e3");
}

TEST(FznParser, ParseFileReadsTheWholeFile) {
  fs::path path = fs::path(::testing::TempDir()) / "kcp_parser_test.fzn";
  {
    std::ofstream out(path, std::ios::binary);
    out << "var 1..3: x :: output_var;\n";
    for (int i = 0; i < 20000; ++i) out << "constraint int_le(x, " << i << ");\n";
    out << "solve satisfy;\n";
  }
  Model m = parse_file(path.string());
  EXPECT_EQ(m.file, path.string());
  EXPECT_EQ(m.constraints.size(), 20000u);
  EXPECT_TRUE(is_const(m.constraints.back().args[1].scalar, 19999));
  fs::remove(path);
}

// --- the benchmark instances ------------------------------------------------------------------

fs::path repo_root() {
#ifdef KCP_SOURCE_DIR
  return kcp::test::source_dir();
#else
  return fs::path(__FILE__).parent_path() / "../..";
#endif
}

fs::path benchmarks_dir() {
  if (const char* env = std::getenv("KCP_BENCHMARKS_DIR"); env && *env) return env;
  const std::vector<fs::path> candidates = {"/work/shared/benchmarks/instances",
                                            repo_root() / "../shared/benchmarks/instances"};
  for (const fs::path& p : candidates) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) return p;
  }
  return candidates.front();
}

bool read_gzip(const fs::path& path, std::string& out) {
  std::string quoted = "'";
  for (char c : path.string()) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  quoted += "'";
  std::FILE* pipe = popen(("gzip -dc " + quoted).c_str(), "r");
  if (!pipe) return false;
  char buf[1 << 16];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  return pclose(pipe) == 0;
}

std::size_t count_lines_starting_with(const std::string& text, std::string_view prefix) {
  std::size_t count = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    if (text.compare(pos, prefix.size(), prefix) == 0) ++count;
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return count;
}

TEST(FznBenchmarks, EveryInstanceParses) {
  fs::path dir = benchmarks_dir();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) GTEST_SKIP() << "no benchmark folder " << dir;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    auto ends_with = [&](std::string_view suffix) {
      return name.size() >= suffix.size() &&
             name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (ends_with(".fzn") || ends_with(".fzn.gz")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty()) << "no instances in " << dir;

  double total = 0;
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    std::string text;
    bool gz = file.extension() == ".gz";
    if (gz) {
      ASSERT_TRUE(read_gzip(file, text)) << "gzip -dc failed";
    } else {
      std::ifstream in(file, std::ios::binary);
      text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    auto start = std::chrono::steady_clock::now();
    Model m;
    try {
      m = gz ? parse_string(text, file.string()) : parse_file(file.string());
    } catch (const ParseError& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    total += seconds;
    std::cout << "  parsed " << file.filename().string() << " in " << seconds << " s ("
              << text.size() << " bytes, " << m.variables.size() << " variables, "
              << m.constraints.size() << " constraints)\n";

    // MiniZinc writes one item per line: every `var` line is one variable, every `constraint`
    // line one constraint.
    EXPECT_EQ(m.variables.size(), count_lines_starting_with(text, "var "));
    EXPECT_EQ(m.constraints.size(), count_lines_starting_with(text, "constraint "));
    EXPECT_FALSE(m.outputs.empty());
    std::size_t solve_pos = text.rfind("\nsolve ");
    ASSERT_NE(solve_pos, std::string::npos);
    std::string solve_line =
        text.substr(solve_pos + 1, text.find('\n', solve_pos + 1) - solve_pos - 1);
    if (solve_line.find(" minimize ") != std::string::npos) {
      EXPECT_EQ(m.solve.kind, SolveGoal::Kind::minimize);
    } else if (solve_line.find(" maximize ") != std::string::npos) {
      EXPECT_EQ(m.solve.kind, SolveGoal::Kind::maximize);
    } else {
      EXPECT_EQ(m.solve.kind, SolveGoal::Kind::satisfy);
    }
    for (const Output& o : m.outputs) {
      for (const Term& t : o.elements) {
        if (t.is_variable()) {
          EXPECT_LT(static_cast<std::size_t>(t.var), m.variables.size());
        }
      }
    }
  }
  std::cout << "  parsed " << files.size() << " instances in " << total << " s\n";
}

}  // namespace
}  // namespace kcp::fzn
