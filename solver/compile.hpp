// compile: fzn::Model (neutral) -> Program (kcp's propagator families). A registry maps each FlatZinc
// builtin to one compile function, so supporting a builtin is one entry (Gecode's habit).
#pragma once

#include "domains/program.hpp"
#include "solver/fzn/model.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace kcp {

/// A model error found while compiling: unsupported builtin, value out of the store's range, ...
class CompileError : public std::runtime_error {
 public:
  CompileError(const std::string& file, fzn::Location loc, const std::string& message)
      : std::runtime_error(file + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column) +
                           ": error: " + message) {}
};

/// Where a model variable's value lives: a store variable, or a constant.
struct StoreRefTerm {
  bool is_constant = false;
  std::int64_t value = 0;
  int var = -1;
};

struct Compiled {
  Program program;
  std::vector<StoreRefTerm> model_vars;  ///< per fzn::Model variable
  int objective = -1;                    ///< store variable minimised, or -1
  bool maximize = false;                 ///< the model maximises: objective is the negation
  bool has_objective = false;            ///< the model minimises or maximises (possibly a constant)
};

Compiled compile(const fzn::Model& model);

/// The value of each model variable, given the store values of a solution.
std::vector<std::int64_t> model_values(const Compiled& compiled, const std::vector<std::int32_t>& store);

/// The builtins compile supports, sorted.
std::vector<std::string> supported_builtins();

}  // namespace kcp
