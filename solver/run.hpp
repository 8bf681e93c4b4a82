// The kcp command line: options, Kokkos start-up, parse -> compile -> search -> print.
#pragma once

#include <iosfwd>

namespace kcp {

/// Runs kcp with the given command line, printing to out (solutions, statistics) and err (messages).
/// Returns the process exit code. Initialises and finalises Kokkos when it is not yet initialised.
int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace kcp
