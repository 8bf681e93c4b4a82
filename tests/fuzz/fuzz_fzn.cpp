// Fuzz target over the front end: parse arbitrary bytes as FlatZinc, compile what parses; and read
// the same bytes as a solution text of a fixed model (kcp --verify's reader), checking what reads. Any
// input must end in a model, a ParseError/CompileError or a SolutionError; a crash, a hang, a
// sanitizer report or any other exception is a finding. Built two ways: with libFuzzer (the fuzz preset, clang) and, in every build,
// as a replay driver over the kept corpus (ctest), so findings stay fixed.
#include "solver/compile.hpp"
#include "solver/fzn/checker.hpp"
#include "solver/fzn/parser.hpp"
#include "solver/fzn/solution_reader.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const kcp::fzn::Model model = kcp::fzn::parse_string(text, "fuzz.fzn");
    (void)kcp::compile(model);
  } catch (const kcp::fzn::ParseError&) {
  } catch (const kcp::CompileError&) {
  }
  static const kcp::fzn::Model solution_model = kcp::fzn::parse_string(
      "var -5..5: x :: output_var;\nvar bool: b :: output_var;\nvar 0..9: y;\nvar 0..9: z = y;\n"
      "array [1..3] of var int: xs :: output_array([1..3]) = [x, 7, y];\n"
      "constraint int_le(x, y);\nconstraint int_mod(y, x, x);\nsolve satisfy;\n",
      "solution-model.fzn");
  try {
    std::istringstream in{std::string(text)};
    for (const auto& values : kcp::fzn::read_solutions(solution_model, in, "fuzz.txt"))
      (void)kcp::fzn::check_solution(solution_model, values);
  } catch (const kcp::fzn::SolutionError&) {
  }
  return 0;
}

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  // compile runs the root fixpoint on the host through Kokkos.
  Kokkos::initialize(*argc, *argv);
  return 0;
}
