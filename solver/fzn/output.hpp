// Printing solutions in the FlatZinc output format.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "solver/fzn/model.hpp"

namespace kcp::fzn {

/// Prints one solution: every Model::outputs item in order, per the FlatZinc spec
/// ("x = 3;", "b = true;", "xs = array1d(1..3, [1, 2, 3]);", "m = array2d(1..2, 1..3, [...]);"),
/// then "----------". values[i] is the value of Model::variables[i] (bools 0/1); constants inside
/// output arrays print as themselves. Throws std::out_of_range when an output refers to a variable
/// that has no value.
void print_solution(std::ostream& os, const Model& model, const std::vector<std::int64_t>& values);

}  // namespace kcp::fzn
