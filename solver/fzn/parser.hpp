// The FlatZinc front end: a hand-written lexer and recursive-descent parser for FlatZinc as
// MiniZinc 2.6 emits it (FlatZinc 1.6 grammar), producing the neutral kcp::fzn::Model.
//
// Parameters are substituted where they are used and do not appear in the model. Float and set
// parameters parse, but a float used as a constraint argument, a float or set variable, and an
// array of sets used as a constraint argument are reported as unsupported.
//
// Annotations are kept generically (Annotation trees) on constraints and on the solve item:
// - an identifier naming a variable or an int/bool parameter becomes a term, an identifier naming
//   an array becomes an array of its elements, any other identifier a call without arguments;
// - a range `a..b` becomes a call named ".." with the two bounds as term arguments, a set `{...}`
//   (or a set parameter) a call named "{}" whose arguments are the set's ranges, each a ".." call;
// - a float literal becomes a string annotation holding the literal's source text.
// On variable declarations only output_var, output_array, is_defined_var and var_is_introduced are
// interpreted (Variable has no annotation list); others are parsed and dropped.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "solver/fzn/model.hpp"

namespace kcp::fzn {

/// A syntax or support error; what() is "<file>:<line>:<col>: error: <message>".
class ParseError : public LocatedError {
 public:
  ParseError(std::string file, Location loc, const std::string& message);

  const Location& location() const { return loc_; }
  const std::string& file() const { return file_; }
  /// The message alone, without the file and location.
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  Location loc_;
  std::string message_;
};

/// Parses a FlatZinc file. A missing or unreadable file is a ParseError at line 0.
Model parse_file(const std::string& path);

/// Parses FlatZinc source text; `name` stands for the file in messages and in Model::file.
Model parse_string(std::string_view text, const std::string& name = "<string>");

}  // namespace kcp::fzn
