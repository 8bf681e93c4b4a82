// The propagator families behind the one list (GlobalFamilies below): element and the global
// constraints. A family is one struct in its propagator's file (domains/family.hpp says what it
// declares); the program's upload, copies, renumbering, occurrence counts, event lists, statistics,
// preprocessing, the explaining search and the root, serial, team and queue fixpoints handle every
// family through the folds below. Adding one means writing that struct and its propagator, listing
// it in GlobalFamilies, and teaching compile (and, for a new builtin, the checker and mznlib) its
// builtin. (The ternary propagators and the linear rows are not in the list yet: the rows are run
// in an order sorted by length, and both are the lane path's hottest code; perf/NOTES.md entry 60.)
//
// Shape: a family's Placement says where its constraints run on a team. Group families run one
// constraint per vector group (TeamThreadRange over the constraints, ThreadVectorRange inside,
// through VectorLanes) and are dispatched through a function the device does not inline, so that
// their register budget stays apart from the ternary propagators' and short rows'. Lane families
// (element) run one constraint per lane in the event-driven fixpoint, inlined like the ternary ones.
// Propagator ids: after the ternary propagators and rows, family 0's constraints, then family 1's,
// and so on (DeviceProgram::global_first, propagate_global_id).
#pragma once

#include "domains/all_different.hpp"
#include "domains/cumulative.hpp"
#include "domains/element.hpp"
#include "domains/table.hpp"
#include "domains/var_element.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kcp {

template <class... Families>
struct FamilyList {
  static constexpr int size = sizeof...(Families);
};

/// The families, in propagator-id order: the one list. Those that run on a lane first (their ids
/// follow the rows without a gap, so the event-driven fixpoint's lane entries are one id range).
using GlobalFamilies = FamilyList<Element, Cumulative, AllDifferent, VarElement, Table>;
constexpr int num_global_families = GlobalFamilies::size;

namespace detail {
template <class... Fs>
constexpr int count_lane_families(FamilyList<Fs...>) {
  return (0 + ... + (Fs::placement == Placement::lane ? 1 : 0));
}
template <class... Fs>
constexpr bool lane_families_first(FamilyList<Fs...>) {
  bool group_seen = false, ok = true;
  ((Fs::placement == Placement::group ? (group_seen = true) : (ok = ok && !group_seen)), ...);
  return ok;
}
}  // namespace detail

/// Families 0 .. num_lane_families - 1 run on a lane in the event-driven fixpoint, the rest on a group.
constexpr int num_lane_families = detail::count_lane_families(GlobalFamilies{});
static_assert(detail::lane_families_first(GlobalFamilies{}), "list the lane families before the group ones");

/// The index of family F in GlobalFamilies.
template <class F, class... Fs>
constexpr int family_index(FamilyList<Fs...>) {
  int i = 0, found = -1;
  ((std::is_same_v<F, Fs> ? (found = i, ++i) : ++i), ...);
  return found;
}
template <class F>
constexpr int global_family = family_index<F>(GlobalFamilies{});

/// The device views of every family, each with its own parameter type: view<I>() is family I's.
template <class MemorySpace, class... Fs>
struct FamilyViewList {
  template <int I>
  KOKKOS_INLINE_FUNCTION void view() const {}
};
template <class MemorySpace, class F, class... Fs>
struct FamilyViewList<MemorySpace, F, Fs...> {
  FamilyView<MemorySpace, typename F::Par> head;
  FamilyViewList<MemorySpace, Fs...> tail;
  template <int I>
  KOKKOS_INLINE_FUNCTION const auto& view() const {
    if constexpr (I == 0) return head;
    else return tail.template view<I - 1>();
  }
  template <int I>
  auto& view() {
    if constexpr (I == 0) return head;
    else return tail.template view<I - 1>();
  }
};
template <class MemorySpace, class List>
struct ViewsOfList;
template <class MemorySpace, class... Fs>
struct ViewsOfList<MemorySpace, FamilyList<Fs...>> {
  using type = FamilyViewList<MemorySpace, Fs...>;
};
template <class MemorySpace>
using GlobalViews = typename ViewsOfList<MemorySpace, GlobalFamilies>::type;

namespace detail {
template <class F, int I, Placement P, class Lanes, class Views, class Store>
KOKKOS_INLINE_FUNCTION void propagate_if(int family, int& st, const Lanes& lanes, const Views& views, int c,
                                         const Store& s) {
  if constexpr (F::placement == P) {
    if (family == I) st = F::propagate(lanes, views.template view<I>(), c, s);
  }
}
template <Placement P, class Lanes, class Views, class Store, class... Fs, int... I>
KOKKOS_INLINE_FUNCTION int propagate_placed(FamilyList<Fs...>, std::integer_sequence<int, I...>, const Lanes& lanes,
                                            int family, const Views& views, int c, const Store& s) {
  int st = prop_unchanged;
  (propagate_if<Fs, I, P>(family, st, lanes, views, c, s), ...);
  return st;
}
template <class F, class... Fs>
void for_each_family(FamilyList<Fs...>, const F& f) {
  int i = 0;
  (f(Fs{}, i++), ...);
}
}  // namespace detail

/// Propagates constraint c of lane family `family` (< num_lane_families) once, inlined.
template <class Lanes, class Views, class Store>
KOKKOS_INLINE_FUNCTION int propagate_lane_family(const Lanes& lanes, int family, const Views& views, int c,
                                                 const Store& s) {
  return detail::propagate_placed<Placement::lane>(GlobalFamilies{},
                                                   std::make_integer_sequence<int, num_global_families>{}, lanes,
                                                   family, views, c, s);
}

/// Propagates constraint c of group family `family` (>= num_lane_families) once.
/// On the device not inlined, so that the families' registers stay apart from the search kernel's
/// (perf/NOTES.md entry 17: ptxas spills).
#if defined(__CUDA_ARCH__)
#define KCP_GLOBALS_NOINLINE __noinline__
#else
#define KCP_GLOBALS_NOINLINE
#endif
template <class Lanes, class Views, class Store>
KOKKOS_FUNCTION KCP_GLOBALS_NOINLINE int propagate_group_family(const Lanes& lanes, int family, const Views& views,
                                                                int c, const Store& s) {
  return detail::propagate_placed<Placement::group>(GlobalFamilies{},
                                                    std::make_integer_sequence<int, num_global_families>{}, lanes,
                                                    family, views, c, s);
}

/// f(Family{}, index) for every family, in order (host code: statistics, names, hooks).
template <class F>
void for_each_global_family(const F& f) {
  detail::for_each_family(GlobalFamilies{}, f);
}

namespace detail {
template <class Views, class F, class... Fs, int... I>
void for_each_view(FamilyList<Fs...>, std::integer_sequence<int, I...>, const Views& views, const F& f) {
  (f(Fs{}, views.template view<I>(), I), ...);
}
}  // namespace detail

/// f(Family{}, its view, index) for every family, in order (host code: the explaining search's hooks).
template <class Views, class F>
void for_each_family_view(const Views& views, const F& f) {
  detail::for_each_view(GlobalFamilies{}, std::make_integer_sequence<int, num_global_families>{}, views, f);
}

/// The index of the family called `name`, or -1.
inline int global_family_named(const std::string& name) {
  int found = -1;
  for_each_global_family([&](auto family, int f) {
    if (name == family.name) found = f;
  });
  return found;
}

}  // namespace kcp
