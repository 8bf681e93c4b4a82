// Reading solutions back: the FlatZinc output format of any solver (kcp's, fzn-gecode's) into the
// values of a model's variables, so that the independent checker can judge another solver's answers
// (`kcp --verify OUTPUT MODEL.fzn`; the differential tests arbitrate disagreements with it).
#pragma once

#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/fzn/model.hpp"

namespace kcp::fzn {

/// A solution text that does not fit the model: an unknown name, a malformed value, a variable left
/// without a value. The message names the line.
class SolutionError : public LocatedError {
 public:
  using LocatedError::LocatedError;
};

/// Every solution in `in` (assignments "name = value;" of the model's output items, each solution
/// ended by "----------"; "==========", "=====...=====" and "%" lines are skipped), as values of
/// Model::variables (bools 0/1). A variable that no output names takes its alias's value or its
/// domain's only value; any other is an error, since the checker needs every value. `source` names
/// the text in messages.
std::vector<std::vector<std::int64_t>> read_solutions(const Model& model, std::istream& in, const std::string& source);

}  // namespace kcp::fzn
