// Random small programs for the fixpoint and propagator tests.
#pragma once

#include "domains/program.hpp"

#include <algorithm>
#include <random>

namespace kcp::test {

/// A variable with random bounds inside [-dom, dom].
inline int add_random_var(Program& p, std::mt19937& rng, int dom) {
  std::uniform_int_distribution<int> value(-dom, dom);
  const int a = value(rng), b = value(rng);
  return p.add_var(std::min(a, b), std::max(a, b));
}

/// A row of 1-4 terms over variables [0, n) with coefficients in [-3, 3] \ {0}, of a random kind,
/// with a right-hand side in [-dom, dom]; reified by b when mode says so.
inline void add_random_row(Program& p, std::mt19937& rng, int n, int dom, int b = -1,
                           Reification mode = Reification::none) {
  std::uniform_int_distribution<int> value(-dom, dom), coef(-3, 3), kind(0, 2), len(1, 4), var(0, n - 1);
  std::vector<std::int32_t> cs;
  std::vector<int> xs;
  const int k = len(rng);
  for (int i = 0; i < k; ++i) {
    int c = 0;
    while (c == 0) c = coef(rng);
    cs.push_back(c);
    xs.push_back(var(rng));
  }
  const auto row_kind = static_cast<LinearKind>(kind(rng));
  p.add_row(row_kind, cs, xs, value(rng), b, mode);
}

/// A random network: n variables with domains inside [-dom, dom], rows of 1-4 terms with coefficients
/// in [-3, 3] \ {0} of random kinds.
inline Program random_program(std::mt19937& rng, int n, int rows, int dom) {
  Program p;
  for (int x = 0; x < n; ++x) add_random_var(p, rng, dom);
  for (int r = 0; r < rows; ++r) add_random_row(p, rng, n, dom);
  return p;
}

/// A random network of every family: n integer variables inside [-dom, dom] and n / 2 + 1 Booleans;
/// rows as random_program, a third of them reified by a Boolean (b <-> row or b -> row); ternary
/// propagators of every op whose x is, three times in four, a new variable inside [-dom^2, dom^2] (a
/// Boolean for the reified ops) and else any variable so far, and whose operands are any variables
/// so far (possibly aliased); elements over arrays of 1-8 values in [-dom, dom], three in four with a
/// new index inside [0, length + 1], half with a new result inside [-dom, dom].
inline Program random_network(std::mt19937& rng, int n, int rows, int ternaries, int elements, int dom) {
  Program p;
  for (int x = 0; x < n; ++x) add_random_var(p, rng, dom);
  const int booleans = n / 2 + 1;
  for (int x = 0; x < booleans; ++x) p.add_var(0, 1);
  std::uniform_int_distribution<int> boolean(n, n + booleans - 1), value(-dom, dom), third(0, 2), op(0, 9), len(1, 8);
  auto any_var = [&]() { return std::uniform_int_distribution<int>(0, p.num_vars() - 1)(rng); };
  for (int r = 0; r < rows; ++r) {
    if (third(rng) == 0) {
      add_random_row(p, rng, n, dom, boolean(rng), rng() % 2 ? Reification::equivalent : Reification::implied);
    } else {
      add_random_row(p, rng, n, dom);
    }
  }
  for (int t = 0; t < ternaries; ++t) {
    const auto o = static_cast<TernaryOp>(op(rng));
    const bool reified = o == TernaryOp::eq_reif || o == TernaryOp::le_reif;
    const int y = any_var(), z = o == TernaryOp::abs ? y : any_var();
    int x = any_var();
    if (rng() % 4 != 0) x = reified ? p.add_var(0, 1) : p.add_var(-dom * dom, dom * dom);
    p.add_ternary(o, x, y, z);
  }
  for (int e = 0; e < elements; ++e) {
    std::vector<std::int32_t> values(len(rng));
    for (auto& v : values) v = value(rng);
    const int index = rng() % 4 != 0 ? p.add_var(0, static_cast<std::int32_t>(values.size()) + 1) : any_var();
    const int result = rng() % 2 ? p.add_var(-dom, dom) : any_var();
    p.add_global<Element>({index, result}, values);
  }
  return p;
}

}  // namespace kcp::test
