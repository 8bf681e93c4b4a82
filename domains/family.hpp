// What every listed propagator family shares (domains/globals.hpp lists them): its constraints' data
// in compressed-row form (FamilyTable on the host, FamilyView on the device), and the defaults of a
// family's traits and hooks (FamilyDefaults), which a family overrides by declaring its own.
//
// A family is one struct, in the file of its propagator, deriving from FamilyDefaults:
//   name, statistic                  `--global NAME` / `--no-global NAME`, its statistic's name
//   using Par                        the type of its parameters on the device (int64 by default)
//   placement                        Placement::group: one constraint per vector group (TeamThreadRange
//                                    over the constraints, ThreadVectorRange inside); Placement::lane:
//                                    one constraint per lane in the event-driven fixpoint, like the
//                                    ternary propagators (a vector group in the AC1 fixpoint)
//   native_on_host, native_on_gpu,   native or decomposed by default; decomposable: compile can lower
//   decomposable                     it (false: no `--no-global NAME`)
//   holes_in                         how many of a constraint's variables (the first ones) it can remove
//                                    an inside value from (every_var, none_var or a count): bitsets
//   wakes_on_bounds                  it reads only bounds: woken only when a bound moves
//   propagate(lanes, view, c, s)     one run of constraint c (device code)
// and, optionally (host code, defaults here):
//   entailed(table, c, s)            preprocessing drops constraint c at the root: default, every
//                                    variable fixed (the root fixpoint has checked it)
//   reasons(view, c, x, target, reached, in, lo, hi)
//                                    the explaining search's own reasons (search/explain_analysis.cpp):
//                                    with the box loaded in store x and what is to be explained in
//                                    `target` (ReasonTarget), mark in `in` the positions of the
//                                    constraint's variables whose literals suffice: 1 with the bounds in
//                                    lo/hi (weaker than the box's; INT64_MIN / INT64_MAX: none needed),
//                                    2 with the box's only (tried when the first try does not derive the
//                                    target); false: none (the generic minimisation runs)
#pragma once

#include <Kokkos_Core.hpp>

#include <climits>
#include <cstdint>
#include <vector>

namespace kcp {

/// Host form of one family: constraint c reads store variables vars[var_begin[c], var_begin[c + 1])
/// and has parameters pars[par_begin[c], par_begin[c + 1]) (64-bit here; narrowed to the family's
/// Par on upload).
struct FamilyTable {
  std::vector<std::int32_t> var_begin{0}, vars, par_begin{0};
  std::vector<std::int64_t> pars;

  int size() const { return static_cast<int>(var_begin.size()) - 1; }
  int arity(int c) const { return var_begin[std::size_t(c) + 1] - var_begin[std::size_t(c)]; }
  int var(int c, int i) const { return vars[std::size_t(var_begin[std::size_t(c)] + i)]; }
  std::int64_t par(int c, int i) const { return pars[std::size_t(par_begin[std::size_t(c)] + i)]; }
  int num_pars(int c) const { return par_begin[std::size_t(c) + 1] - par_begin[std::size_t(c)]; }
  template <class Xs, class Ps>
  void add(const Xs& xs, const Ps& ps) {
    for (const auto x : xs) vars.push_back(static_cast<std::int32_t>(x));
    var_begin.push_back(static_cast<std::int32_t>(vars.size()));
    for (const auto v : ps) pars.push_back(static_cast<std::int64_t>(v));
    par_begin.push_back(static_cast<std::int32_t>(pars.size()));
  }
  /// Constraint c of `from` appended here.
  void append(const FamilyTable& from, int c) {
    const auto ci = static_cast<std::size_t>(c);
    add(std::vector<int>(from.vars.begin() + from.var_begin[ci], from.vars.begin() + from.var_begin[ci + 1]),
        std::vector<std::int64_t>(from.pars.begin() + from.par_begin[ci], from.pars.begin() + from.par_begin[ci + 1]));
  }
  /// Bytes on the device, parameters of `par_bytes` each.
  std::size_t bytes(std::size_t par_bytes = 8) const {
    return (var_begin.size() + vars.size() + par_begin.size()) * 4 + pars.size() * par_bytes;
  }
  bool consistent() const {
    return !var_begin.empty() && par_begin.size() == var_begin.size() && std::size_t(var_begin.back()) == vars.size() &&
           std::size_t(par_begin.back()) == pars.size();
  }
};

/// Device form of one family (see FamilyTable), its parameters of type Par.
template <class MemorySpace, class Par = std::int64_t>
struct FamilyView {
  Kokkos::View<const std::int32_t*, MemorySpace> var_begin, vars, par_begin;
  Kokkos::View<const Par*, MemorySpace> pars;

  KOKKOS_INLINE_FUNCTION int size() const {
    return var_begin.extent(0) > 0 ? static_cast<int>(var_begin.extent(0)) - 1 : 0;
  }
  KOKKOS_INLINE_FUNCTION int arity(int c) const { return var_begin(c + 1) - var_begin(c); }
  KOKKOS_INLINE_FUNCTION int var(int c, int i) const { return vars(var_begin(c) + i); }
  KOKKOS_INLINE_FUNCTION std::int64_t par(int c, int i) const { return pars(par_begin(c) + i); }
  KOKKOS_INLINE_FUNCTION int num_pars(int c) const { return par_begin(c + 1) - par_begin(c); }
};

/// Where a family's constraints run on a team (see the top of this file).
enum class Placement { lane, group };

/// What the explaining search asks a family's `reasons` for: the variable whose change is explained
/// (-1: a failure) and the bounds it must reach (lo: at least, hi: at most; INT64_MIN / INT64_MAX where
/// none is asked); `bounds_only` false when a removed value is asked as well.
struct ReasonTarget {
  int var = -1;
  std::int64_t lo = INT64_MIN, hi = INT64_MAX;
  bool bounds_only = true;
};

struct FamilyDefaults {
  using Par = std::int64_t;
  static constexpr Placement placement = Placement::group;
  static constexpr bool native_on_host = true, native_on_gpu = true, decomposable = true;
  static constexpr int every_var = INT_MAX, none_var = 0;
  static constexpr int holes_in = none_var;
  static constexpr bool wakes_on_bounds = false;

  /// Every variable of constraint c fixed (the root fixpoint has checked it).
  template <class Table, class Store>
  static bool entailed(const Table& t, int c, const Store& s) {
    for (int i = 0; i < t.arity(c); ++i)
      if (!s.fixed(t.var(c, i))) return false;
    return true;
  }
  /// No reasons of its own: the explaining search minimises the box.
  template <class View, class Store, class Reached>
  static bool reasons(const View&, int, const Store&, const ReasonTarget&, const Reached&, std::vector<char>&,
                      std::vector<std::int64_t>&, std::vector<std::int64_t>&) {
    return false;
  }
};

}  // namespace kcp
