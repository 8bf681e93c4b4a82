// Fuzz target over the front end: parse arbitrary bytes as FlatZinc, compile what parses. Any input
// must end in a model or a ParseError/CompileError; a crash, a hang, a sanitizer report or any other
// exception is a finding. Built two ways: with libFuzzer (the fuzz preset, clang) and, in every build,
// as a replay driver over the kept corpus (ctest), so findings stay fixed.
#include "solver/compile.hpp"
#include "solver/fzn/parser.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
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
  return 0;
}

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  // compile runs the root fixpoint on the host through Kokkos.
  Kokkos::initialize(*argc, *argv);
  return 0;
}
