// Kernels the backend tests launch, as free functions over an execution space.
#pragma once

#include "domains/fixpoint.hpp"
#include "domains/program.hpp"
#include "search/launch.hpp"

#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace kcp::test {

struct FixpointOutcome {
  bool failed = false;
  std::vector<std::int32_t> lb, ub;
  std::vector<DomainWord> bits;  ///< the bitset words (p's layout)
  int iterations = 0;

  /// Whether it narrowed p's root domains without failing.
  bool narrowed(const Program& p) const { return !failed && (lb != p.lb || ub != p.ub || domains(p) != root_domains(p)); }

  /// x's domain as a list of values (bounds-only domains: their bounds), in p's layout.
  std::vector<std::int64_t> domain(const Program& p, int x) const {
    if (!p.has_bits(x) || lb[x] > ub[x]) return {lb[x], ub[x]};
    const DomainLayout l{p.bits_at.data(), p.bits_base.data(), p.num_vars(), static_cast<int>(bits.size())};
    const StoreRef<false> s(const_cast<std::int32_t*>(lb.data()), const_cast<std::int32_t*>(ub.data()),
                            const_cast<DomainWord*>(bits.data()), l);
    std::vector<std::int64_t> out;
    for (std::int64_t v = s.next_value(x, lb[x]); v <= ub[x]; v = s.next_value(x, v + 1)) out.push_back(v);
    return out;
  }
  std::vector<std::vector<std::int64_t>> domains(const Program& p) const {
    std::vector<std::vector<std::int64_t>> d;
    for (int x = 0; x < p.num_vars(); ++x) d.push_back(domain(p, x));
    return d;
  }
  static std::vector<std::vector<std::int64_t>> root_domains(const Program& p) {
    FixpointOutcome o;
    o.lb = p.lb;
    o.ub = p.ub;
    o.bits = p.bits;
    return o.domains(p);
  }
};

/// Runs team_fixpoint on the root of p with one team of the backend's default shape. Defined in
/// tests/kernels.cpp, instantiated there once per test backend: each kernel instantiates the whole
/// fixpoint, which took minutes per test file under nvcc when every file compiled its own.
template <class Space>
FixpointOutcome team_fixpoint_on(const Program& p, const FixpointOptions& options = {},
                                 int lane_row_terms = default_lane_row_terms);

/// One narrowing applied between event-driven fixpoints: x in [lo, hi], or, when `remove`, x != lo.
struct Narrowing {
  int x;
  std::int32_t lo, hi;
  bool remove = false;
};

/// queue_fixpoint on Space: from `start` (p's root when empty), each round applies its narrowings as
/// events and runs the fixpoint (every propagator in the first round when full_first). `failed` of the
/// outcome: some round failed; `iterations` holds the first failed round (-1: none). Defined in
/// tests/kernels.cpp, as team_fixpoint_on.
template <class Space>
FixpointOutcome queue_fixpoint_on(const Program& p, const std::vector<std::vector<Narrowing>>& rounds,
                                  bool full_first, const FixpointOutcome* start = nullptr,
                                  int lane_row_terms = default_lane_row_terms);

/// The serial Gauss-Seidel reference on the host (tests/kernels.cpp).
FixpointOutcome serial_fixpoint_on(const Program& p);

/// Empty when a and b leave every variable of p the same domain, else the first that differs.
inline std::string domain_difference(const Program& p, const FixpointOutcome& a, const FixpointOutcome& b) {
  auto show = [](const std::vector<std::int64_t>& d) {
    std::string s = "{";
    for (std::size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
    return s + "}";
  };
  for (int x = 0; x < p.num_vars(); ++x) {
    const auto da = a.domain(p, x), db = b.domain(p, x);
    if (a.lb[x] != b.lb[x] || a.ub[x] != b.ub[x] || da != db)
      return "x" + std::to_string(x) + ": " + show(da) + " [" + std::to_string(a.lb[x]) + ", " +
             std::to_string(a.ub[x]) + "] against " + show(db) + " [" + std::to_string(b.lb[x]) + ", " +
             std::to_string(b.ub[x]) + "]";
  }
  return {};
}

/// The serial reference and team_fixpoint on Space, on the root of one program.
struct Comparison {
  FixpointOutcome serial, team;
  std::string difference;  ///< empty when both fail, or both leave the same bounds
};

template <class Space>
Comparison compare_team_with_serial(const Program& p, const FixpointOptions& options = {},
                                    int lane_row_terms = default_lane_row_terms) {
  Comparison c{serial_fixpoint_on(p), team_fixpoint_on<Space>(p, options, lane_row_terms), {}};
  if (c.team.failed != c.serial.failed) {
    c.difference = c.serial.failed ? "the serial fixpoint fails, the team's does not"
                                   : "the team fixpoint fails, the serial one does not";
  } else if (!c.serial.failed) {
    c.difference = domain_difference(p, c.team, c.serial);
  }
  return c;
}

}  // namespace kcp::test
