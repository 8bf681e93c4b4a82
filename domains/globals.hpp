// Global constraint families: the one place that lists them.
//
// Every global family stores its constraints the same way (GlobalTable on the host, GlobalView on the
// device: each constraint's store variables and 64-bit integer parameters in compressed-row form),
// so the program's upload, copies, renumbering, occurrence counts, event lists, statistics and the
// root, serial and team fixpoints handle every family through the fold below. A family is a struct
// with its name (for `--no-global NAME`, which makes compile lower it to a decomposition instead), its
// statistic and its propagator; adding one means writing that struct and its propagator, listing it
// in GlobalFamilies, and teaching compile (and, for a new builtin, the checker and mznlib) its builtin.
//
// Shape: every global family runs one constraint per vector group (TeamThreadRange over the
// constraints, ThreadVectorRange inside, through VectorLanes), never on the lane path of the
// ternary propagators and short rows, so their register budget is not touched by the globals'.
// Propagator ids: after the ternary propagators, rows and elements, family 0's constraints, then
// family 1's, and so on (DeviceProgram::global_first, propagate_global_id).
#pragma once

#include "domains/all_different.hpp"
#include "domains/cumulative.hpp"
#include "domains/table.hpp"
#include "domains/var_element.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace kcp {

/// Host form of one global family: constraint c reads store variables vars[var_begin[c],
/// var_begin[c + 1]) and has parameters pars[par_begin[c], par_begin[c + 1]).
struct GlobalTable {
  std::vector<std::int32_t> var_begin{0}, vars, par_begin{0};
  std::vector<std::int64_t> pars;

  int size() const { return static_cast<int>(var_begin.size()) - 1; }
  void add(const std::vector<int>& xs, const std::vector<std::int64_t>& ps) {
    vars.insert(vars.end(), xs.begin(), xs.end());
    var_begin.push_back(static_cast<std::int32_t>(vars.size()));
    pars.insert(pars.end(), ps.begin(), ps.end());
    par_begin.push_back(static_cast<std::int32_t>(pars.size()));
  }
  /// Constraint c of `from` appended here.
  void append(const GlobalTable& from, int c) {
    const auto ci = static_cast<std::size_t>(c);
    add(std::vector<int>(from.vars.begin() + from.var_begin[ci], from.vars.begin() + from.var_begin[ci + 1]),
        std::vector<std::int64_t>(from.pars.begin() + from.par_begin[ci], from.pars.begin() + from.par_begin[ci + 1]));
  }
  std::size_t bytes() const { return (var_begin.size() + vars.size() + par_begin.size()) * 4 + pars.size() * 8; }
  bool consistent() const {
    return !var_begin.empty() && par_begin.size() == var_begin.size() && std::size_t(var_begin.back()) == vars.size() &&
           std::size_t(par_begin.back()) == pars.size();
  }
};

/// Device form of one global family (see GlobalTable).
template <class MemorySpace>
struct GlobalView {
  Kokkos::View<const std::int32_t*, MemorySpace> var_begin, vars, par_begin;
  Kokkos::View<const std::int64_t*, MemorySpace> pars;

  KOKKOS_INLINE_FUNCTION int size() const {
    return var_begin.extent(0) > 0 ? static_cast<int>(var_begin.extent(0)) - 1 : 0;
  }
  KOKKOS_INLINE_FUNCTION int arity(int c) const { return var_begin(c + 1) - var_begin(c); }
  KOKKOS_INLINE_FUNCTION int var(int c, int i) const { return vars(var_begin(c) + i); }
  KOKKOS_INLINE_FUNCTION std::int64_t par(int c, int i) const { return pars(par_begin(c) + i); }
  KOKKOS_INLINE_FUNCTION int num_pars(int c) const { return par_begin(c + 1) - par_begin(c); }
};

/// cumulative(s, d, r, C) (builtin kcp_cumulative): variables the starts; parameters C, then
/// d_1..d_n, then r_1..r_n.
struct Cumulative {
  static constexpr const char* name = "cumulative";
  /// Native by default on host backends / on GPUs (else compiled as a decomposition unless --global
  /// NAME asks): set from measurements (perf/NOTES.md entry 17).
  static constexpr bool native_on_host = true, native_on_gpu = true;
  /// Whether it can remove a value from inside its variables' domains (Program::give_bitsets gives
  /// domains wider than one word a bitset only where something can): time-table moves bounds only.
  static constexpr bool makes_holes = false;
  /// Whether it reads only its variables' bounds, so that the event-driven fixpoint wakes it only when
  /// a bound moves (program.hpp's Wake): time-table reads start times' bounds.
  static constexpr bool wakes_on_bounds = true;
  static constexpr const char* statistic = "cumulativePropagators";
  template <class Lanes, class G, class Store>
  static KOKKOS_INLINE_FUNCTION int propagate(const Lanes& lanes, const G& g, int c, const Store& s) {
    return propagate_cumulative(lanes, g, c, s);
  }
};

/// all_different(x) (builtin kcp_all_different_int): variables the x_i; no parameters.
struct AllDifferent {
  static constexpr const char* name = "all_different";
  /// On the host, x_i != x_j rows wake only the variables' own rows and run 1.4-4x more nodes/s on
  /// the dev set's all_different models with no worse objective; on an H100 the native one runs up
  /// to 6.4x more (perf/NOTES.md entry 17).
  static constexpr bool native_on_host = false, native_on_gpu = true;
  /// On GPUs, native up to this many variables (a lane's one pass: hall_chunk), x_i != x_j rows
  /// beyond (CompileOptions::all_different_max_arity; one H200: 300- and 400-queens' first solution
  /// none in 5 s native, 0.52 s as rows; latin squares of order 30–40 need the Hall intervals:
  /// perf/NOTES.md entry 55).
  static constexpr int native_max_arity_gpu = 64;
  static constexpr bool makes_holes = true;
  static constexpr bool wakes_on_bounds = true;  // Hall intervals of the bounds
  static constexpr const char* statistic = "allDifferentPropagators";
  template <class Lanes, class G, class Store>
  static KOKKOS_INLINE_FUNCTION int propagate(const Lanes& lanes, const G& g, int c, const Store& s) {
    return propagate_all_different(lanes, g, c, s);
  }
};

/// result = x[index] (builtins array_var_int_element, array_var_bool_element): variables index,
/// result, x_1..x_n; no parameters.
struct VarElement {
  static constexpr const char* name = "var_element";
  static constexpr bool native_on_host = true, native_on_gpu = true;
  static constexpr bool wakes_on_bounds = false;  // the index reads the array's values
  static constexpr bool makes_holes = true;  // the index's unsupported positions
  static constexpr const char* statistic = "varElementPropagators";
  template <class Lanes, class G, class Store>
  static KOKKOS_INLINE_FUNCTION int propagate(const Lanes& lanes, const G& g, int c, const Store& s) {
    return propagate_var_element(lanes, g, c, s);
  }
};

/// table(x, T) (builtins kcp_table_int, kcp_table_bool; kcp's mznlib also builds regular from it):
/// variables x_1..x_k; parameters the rows of T, row-major.
struct Table {
  static constexpr const char* name = "table";
  static constexpr const char* statistic = "tablePropagators";
  static constexpr bool native_on_host = true, native_on_gpu = true;
  static constexpr bool makes_holes = true;
  static constexpr bool wakes_on_bounds = false;  // the rows' support reads every value
  template <class Lanes, class G, class Store>
  static KOKKOS_INLINE_FUNCTION int propagate(const Lanes& lanes, const G& g, int c, const Store& s) {
    return propagate_table(lanes, g, c, s);
  }
};

template <class... Families>
struct FamilyList {
  static constexpr int size = sizeof...(Families);
};

/// The global families, in propagator-id order. The one list.
using GlobalFamilies = FamilyList<Cumulative, AllDifferent, VarElement, Table>;
constexpr int num_global_families = GlobalFamilies::size;

/// The index of family F in GlobalFamilies.
template <class F, class... Fs>
constexpr int family_index(FamilyList<Fs...>) {
  int i = 0, found = -1;
  ((std::is_same_v<F, Fs> ? (found = i, ++i) : ++i), ...);
  return found;
}
template <class F>
constexpr int global_family = family_index<F>(GlobalFamilies{});

namespace detail {
template <class Lanes, class G, class Store, class... Fs>
KOKKOS_INLINE_FUNCTION int propagate_global(FamilyList<Fs...>, const Lanes& lanes, int family, const G& g, int c,
                                            const Store& s) {
  int st = prop_unchanged, i = 0;
  ((family == i++ ? (st = Fs::propagate(lanes, g, c, s), 0) : 0), ...);
  return st;
}
template <class F, class... Fs>
void for_each_family(FamilyList<Fs...>, const F& f) {
  int i = 0;
  (f(Fs{}, i++), ...);
}
}  // namespace detail

/// Propagates constraint c of global family `family` (its view g) once.
/// On the device not inlined, so that the families' registers stay apart from the search kernel's
/// (perf/NOTES.md entry 17: ptxas spills).
#if defined(__CUDA_ARCH__)
#define KCP_GLOBALS_NOINLINE __noinline__
#else
#define KCP_GLOBALS_NOINLINE
#endif
template <class Lanes, class G, class Store>
KOKKOS_FUNCTION KCP_GLOBALS_NOINLINE int propagate_global(const Lanes& lanes, int family, const G& g, int c,
                                                          const Store& s) {
  return detail::propagate_global(GlobalFamilies{}, lanes, family, g, c, s);
}

/// f(Family{}, index) for every global family, in order (host code: statistics, names).
template <class F>
void for_each_global_family(const F& f) {
  detail::for_each_family(GlobalFamilies{}, f);
}

/// The index of the global family called `name`, or -1.
inline int global_family_named(const std::string& name) {
  int found = -1;
  for_each_global_family([&](auto family, int f) {
    if (name == family.name) found = f;
  });
  return found;
}

}  // namespace kcp
