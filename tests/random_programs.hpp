// Random small programs for the fixpoint and propagator tests.
#pragma once

#include "domains/program.hpp"

#include <random>

namespace kcp::test {

/// A random network: n variables with domains inside [-dom, dom], rows of 1-4 terms with coefficients
/// in [-3, 3] \ {0} of random kinds.
inline Program random_program(std::mt19937& rng, int n, int rows, int dom) {
  std::uniform_int_distribution<int> value(-dom, dom), coef(-3, 3), kind(0, 2), len(1, 4), var(0, n - 1);
  Program p;
  for (int x = 0; x < n; ++x) {
    int a = value(rng), b = value(rng);
    p.add_var(std::min(a, b), std::max(a, b));
  }
  for (int r = 0; r < rows; ++r) {
    std::vector<std::int32_t> cs;
    std::vector<int> xs;
    const int k = len(rng);
    for (int i = 0; i < k; ++i) {
      int c = 0;
      while (c == 0) c = coef(rng);
      cs.push_back(c);
      xs.push_back(var(rng));
    }
    p.add_row(static_cast<LinearKind>(kind(rng)), cs, xs, value(rng));
  }
  return p;
}

}  // namespace kcp::test
