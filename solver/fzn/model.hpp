// The neutral FlatZinc model: what the parser produces and what compile, output and the checker read.
// It knows nothing of Kokkos or of kcp's propagators. Parameters are substituted by the parser, so a
// constraint argument is either a constant, a variable, a constant set, or an array of those.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace kcp::fzn {

/// A position in the FlatZinc source, 1-based.
struct Location {
  int line = 0;
  int column = 0;
};

/// "<file>:<line>:<column>: error: <message>", or "<file>:<line>: error: <message>" for a place known
/// to its line only (column 0): how kcp names a place in a model or a solution text.
inline std::string located_message(const std::string& file, Location loc, const std::string& message) {
  std::string where = file + ":" + std::to_string(loc.line);
  // Appended piece by piece: GCC 12 in C++20 warns falsely (-Wrestrict, its bug 105329) of ":" + string.
  if (loc.column != 0 || loc.line == 0) where.append(":").append(std::to_string(loc.column));
  return where + ": error: " + message;
}

/// An error about a place in a file (parsing, compiling, reading a solution); what() is its
/// located_message, which the command line prints as it is.
class LocatedError : public std::runtime_error {
 public:
  LocatedError(const std::string& file, Location loc, const std::string& message)
      : std::runtime_error(located_message(file, loc, message)) {}
};

/// A set of integers as sorted, disjoint, non-adjacent closed ranges.
struct IntSet {
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges;

  bool empty() const { return ranges.empty(); }
  bool contains(std::int64_t v) const;
  std::int64_t min() const { return ranges.front().first; }
  std::int64_t max() const { return ranges.back().second; }
  /// Builds a normalised set from arbitrary ranges (sorts, merges, drops empty ranges).
  static IntSet from_ranges(std::vector<std::pair<std::int64_t, std::int64_t>> ranges);
  static IntSet range(std::int64_t lo, std::int64_t hi) { return from_ranges({{lo, hi}}); }
};

/// A scalar: an int or bool constant (bools are 0/1) or a variable of the model.
struct Term {
  enum class Kind { constant, variable };
  Kind kind = Kind::constant;
  std::int64_t value = 0;  ///< the constant, when kind == constant
  int var = -1;            ///< index into Model::variables, when kind == variable

  static Term constant(std::int64_t v) { return {Kind::constant, v, -1}; }
  static Term variable(int index) { return {Kind::variable, 0, index}; }
  bool is_constant() const { return kind == Kind::constant; }
  bool is_variable() const { return kind == Kind::variable; }
};

/// A constraint argument after parameter substitution.
struct Arg {
  enum class Kind { scalar, set, array };
  Kind kind = Kind::scalar;
  Term scalar;              ///< kind == scalar
  IntSet set;               ///< kind == set (a constant set; also the elements of a set literal)
  std::vector<Term> array;  ///< kind == array (an array of int/bool terms)
};

/// An argument kind as a message names it ("a scalar", "a set", "an array").
std::string describe(Arg::Kind kind);
/// A letter of a builtin's signature (the checker's and the compiler's: i int, b bool, I and B arrays of
/// them, S a constant set of int) as a message names it.
std::string describe_signature_letter(char letter);

/// An annotation expression: `name`, `name(args...)`, a term, an array, or a string literal.
struct Annotation {
  enum class Kind { call, term, array, string };
  Kind kind = Kind::call;
  std::string name;               ///< call: the annotation's name (args empty for a bare identifier)
  std::vector<Annotation> args;   ///< call: the arguments; array: the elements
  Term term;                      ///< term: a constant or a variable
  std::string text;               ///< string: the literal's contents
};

enum class VarType { int_, bool_ };

struct Variable {
  std::string name;
  VarType type = VarType::int_;
  std::optional<IntSet> domain;  ///< none for an unbounded `var int`; bools have {0..1}
  bool introduced = false;       ///< var_is_introduced
  bool defined = false;          ///< is_defined_var
  std::optional<Term> alias;     ///< `var int: x = y;` or `= 3`: x is the same as this term
  Location loc;
};

struct Constraint {
  std::string name;  ///< the builtin, e.g. "int_lin_le"
  std::vector<Arg> args;
  std::vector<Annotation> annotations;
  Location loc;
};

/// One item of the output specification, in source order.
struct Output {
  std::string name;
  VarType type = VarType::int_;
  bool is_array = false;
  std::vector<std::pair<std::int64_t, std::int64_t>> dims;  ///< output_array([1..3, 1..2]) bounds
  std::vector<Term> elements;                               ///< one for a scalar
};

struct SolveGoal {
  enum class Kind { satisfy, minimize, maximize };
  Kind kind = Kind::satisfy;
  std::optional<Term> objective;  ///< minimize/maximize: the objective (variable or constant)
  std::vector<Annotation> annotations;
  Location loc;
};

struct Model {
  std::string file;  ///< the source's name, for messages
  std::vector<Variable> variables;
  std::vector<Constraint> constraints;
  std::vector<Output> outputs;
  SolveGoal solve;
};

}  // namespace kcp::fzn
