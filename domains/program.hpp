// What the propagation engine runs: the root store and the propagators, first as host vectors
// (built by solver/compile), then uploaded as Views (DeviceProgram). Plain data: no virtual functions,
// no pointers to host objects, so a DeviceProgram is copied into kernels by value.
#pragma once

#include "domains/globals.hpp"
#include "domains/linear.hpp"
#include "domains/store.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace kcp {

/// Family 1: ternary bytecode, `x = y op z` over store variables (constants are fixed variables).
/// 16 bytes, Turbo's "ternary normal form".
enum class TernaryOp : std::int32_t {
  add = 0,   ///< x = y + z
  mul,       ///< x = y * z
  tdiv,      ///< x = y div z, truncating toward zero (FlatZinc int_div); z != 0
  tmod,      ///< x = y mod z, remainder of tdiv, sign of y (FlatZinc int_mod); z != 0
  min,       ///< x = min(y, z)
  max,       ///< x = max(y, z)
  eq_reif,   ///< x <-> (y = z), x in {0, 1}
  le_reif,   ///< x <-> (y <= z), x in {0, 1}
  abs,       ///< x = |y| (z unused, set it to y)
  pow,       ///< x = y ^ z, z >= 0 (FlatZinc int_pow; a negative z is compiled elsewhere)
};

struct Ternary {
  TernaryOp op;
  std::int32_t x, y, z;
};
static_assert(sizeof(Ternary) == 16, "a ternary propagator is 16 bytes");
static_assert(std::is_trivially_copyable_v<Ternary>, "ternary propagators are copied to the device as bytes");

/// Host form, filled by compile and by tests.
struct Program {
  std::vector<std::int32_t> lb, ub;  ///< root domain of each store variable
  /// Domains with holes (see domains/store.hpp): per variable its first word in `bits` (-1: bounds
  /// only) and the value of its bit 0, and the root bitsets' words. bits_at and bits_base may be
  /// shorter than lb (a program filled by hand): the missing variables are bounds-only.
  std::vector<std::int32_t> bits_at, bits_base;
  std::vector<DomainWord> bits;

  // Family 2: linear rows in compressed-row form; row r is reified by reif_var[r] (-1: none).
  std::vector<std::int32_t> row_begin{0};
  std::vector<std::int32_t> coef, var;
  std::vector<std::int64_t> rhs;
  std::vector<std::int8_t> kind;
  std::vector<std::int32_t> reif_var;
  std::vector<std::int8_t> reif_mode;

  // Family 1: ternary propagators.
  std::vector<Ternary> ternary;

  // The listed families (domains/globals.hpp: element and the global constraints), in
  // GlobalFamilies' order.
  std::array<FamilyTable, num_global_families> global;

  int num_vars() const { return static_cast<int>(lb.size()); }
  int num_rows() const { return static_cast<int>(rhs.size()); }
  int num_ternary() const { return static_cast<int>(ternary.size()); }
  /// Constraints of every listed family.
  int num_globals() const {
    int n = 0;
    for (const FamilyTable& g : global) n += g.size();
    return n;
  }
  int num_propagators() const { return num_rows() + num_ternary() + num_globals(); }

  int add_var(std::int32_t lo, std::int32_t hi) {
    fit_layout();
    lb.push_back(lo);
    ub.push_back(hi);
    bits_at.push_back(-1);
    bits_base.push_back(lo);
    return num_vars() - 1;
  }

  /// bits_at and bits_base as long as lb (the variables they miss are bounds-only).
  void fit_layout() {
    for (std::size_t x = bits_at.size(); x < lb.size(); ++x) bits_at.push_back(-1);
    for (std::size_t x = bits_base.size(); x < lb.size(); ++x) bits_base.push_back(lb[x]);
  }
  bool has_bits(int x) const { return std::size_t(x) < bits_at.size() && bits_at[std::size_t(x)] >= 0; }
  /// Gives x a bitset over its current bounds (every value in), unless it has one.
  void give_bits(int x) {
    fit_layout();
    const auto i = std::size_t(x);
    if (bits_at[i] >= 0) return;
    const std::int64_t words = (std::int64_t(ub[i]) - lb[i]) / domain_word_bits + 1;
    bits_at[i] = static_cast<std::int32_t>(bits.size());
    bits_base[i] = lb[i];
    bits.resize(bits.size() + std::size_t(words), ~DomainWord(0));
  }
  /// Per variable, whether some propagator can remove a value from inside its domain: a != row (or
  /// a reified = row, whose negation is one), a two-term row with unit coefficients (it carries
  /// holes across), a ternary propagator other than add, min, max and le_reif (x != 0 of mul and div,
  /// |y| outside an interval, eq_reif's y != z), element's index, and a global family that
  /// makes_holes. Bounds-only propagation (<= rows, longer = rows, cumulative) never makes one.
  std::vector<char> hole_prone() const {
    std::vector<char> prone(std::size_t(num_vars()), 0);
    for (int r = 0; r < num_rows(); ++r) {
      const int b = row_begin[std::size_t(r)], e = row_begin[std::size_t(r) + 1];
      const auto k = static_cast<LinearKind>(kind[std::size_t(r)]);
      const bool unit_pair = e - b == 2 && detail::is_unit_pair(k, coef[std::size_t(b)], coef[std::size_t(b) + 1]);
      // A reified = (its negation is a !=) can; a reified <= cannot (its negation is a <= again).
      if (k == LinearKind::ne || (k == LinearKind::eq && reif_var[std::size_t(r)] >= 0) || unit_pair)
        for (int i = b; i < e; ++i) prone[std::size_t(var[std::size_t(i)])] = 1;
    }
    for (const Ternary& t : ternary)
      if (t.op != TernaryOp::add && t.op != TernaryOp::min && t.op != TernaryOp::max && t.op != TernaryOp::le_reif)
        prone[std::size_t(t.x)] = prone[std::size_t(t.y)] = prone[std::size_t(t.z)] = 1;
    for_each_global_family([&](auto family, int f) {
      const FamilyTable& g = global[std::size_t(f)];
      for (int c = 0; c < g.size(); ++c)
        for (int i = 0; i < g.arity(c) && i < decltype(family)::holes_in; ++i) prone[std::size_t(g.var(c, i))] = 1;
    });
    return prone;
  }

  /// The variables give_bitsets would give a bitset, before its budget, narrowest first: those
  /// without one whose domain spans 3 to max_span values (fewer cannot have a hole inside), a
  /// one-word domain (64 values) always, a wider one only where hole_prone() or `wanted` (the search's
  /// x = v | x != v decisions) says a hole can arise (scheduling's wide start times keep bounds only
  /// and cost nothing more).
  std::vector<int> bitset_candidates(std::int64_t max_span, const std::vector<char>& wanted = {}) const {
    const std::vector<char> prone = max_span > domain_word_bits ? hole_prone() : std::vector<char>();
    std::vector<std::pair<std::int64_t, int>> chosen;  // (span, variable)
    for (int x = 0; x < num_vars(); ++x) {
      const auto i = std::size_t(x);
      const std::int64_t span = std::int64_t(ub[i]) - lb[i] + 1;
      if (has_bits(x) || span < 3 || span > max_span) continue;
      if (span > domain_word_bits && !prone[i] && !(i < wanted.size() && wanted[i])) continue;
      chosen.emplace_back(span, x);
    }
    std::stable_sort(chosen.begin(), chosen.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<int> out;
    for (const auto& c : chosen) out.push_back(c.second);
    return out;
  }

  /// A bitset for each of bitset_candidates(max_span, wanted), narrowest first, while all bitsets
  /// together stay within max_words words (the others stay bounds-only: num_bounds_only_vars).
  /// Returns how many variables have one now.
  int give_bitsets(std::int64_t max_span, std::int64_t max_words = default_bitset_words,
                   const std::vector<char>& wanted = {}) {
    fit_layout();
    for (const int x : bitset_candidates(max_span, wanted)) {
      const std::int64_t span = std::int64_t(ub[std::size_t(x)]) - lb[std::size_t(x)] + 1;
      if (std::int64_t(bits.size()) + (span - 1) / domain_word_bits + 1 > max_words) break;
      give_bits(x);
    }
    return num_bitset_vars();
  }
  /// Variables left bounds-only where a hole could arise (hole_prone, a span of 3 or more): beyond
  /// the span, or beyond the words' budget.
  int num_bounds_only_vars() const {
    const std::vector<char> prone = hole_prone();
    int n = 0;
    for (int x = 0; x < num_vars(); ++x)
      n += !has_bits(x) && prone[std::size_t(x)] && std::int64_t(ub[std::size_t(x)]) - lb[std::size_t(x)] + 1 >= 3 ? 1 : 0;
    return n;
  }
  int num_bitset_vars() const {
    int with = 0;
    for (int x = 0; x < num_vars(); ++x) with += has_bits(x) ? 1 : 0;
    return with;
  }
  /// The root store on the host (compile, preprocessing, tests): narrowing it narrows the program.
  StoreRef<false> store() {
    fit_layout();
    return StoreRef<false>(lb.data(), ub.data(), bits.data(), layout());
  }
  /// Where the bitsets are (call fit_layout first when the program was filled by hand).
  DomainLayout layout() const {
    return DomainLayout{bits_at.data(), bits_base.data(), num_vars(), static_cast<int>(bits.size())};
  }
  /// The values of x's root domain, in increasing order (for tests and tools; x's span must be small).
  std::vector<std::int64_t> values(int x) {
    std::vector<std::int64_t> out;
    const StoreRef<false> s = store();
    for (std::int64_t v = s.next_value(x, lb[std::size_t(x)]); v <= ub[std::size_t(x)]; v = s.next_value(x, v + 1))
      out.push_back(v);
    return out;
  }
  /// sum a_i x_i (k) c, optionally reified by the 0/1 variable b.
  void add_row(LinearKind k, const std::vector<std::int32_t>& a, const std::vector<int>& x, std::int64_t c,
               int b = -1, Reification mode = Reification::none) {
    coef.insert(coef.end(), a.begin(), a.end());
    var.insert(var.end(), x.begin(), x.end());
    row_begin.push_back(static_cast<std::int32_t>(coef.size()));
    rhs.push_back(c);
    kind.push_back(static_cast<std::int8_t>(k));
    reif_var.push_back(mode == Reification::none ? -1 : b);
    reif_mode.push_back(static_cast<std::int8_t>(mode));
  }
  void add_ternary(TernaryOp op, int x, int y, int z) { ternary.push_back({op, x, y, z}); }
  /// A constraint of family F over store variables xs with parameters ps.
  template <class F, class Ps = std::vector<std::int64_t>>
  void add_global(const std::vector<int>& xs, const Ps& ps = {}) {
    global[global_family<F>].add(xs, ps);
  }

  std::size_t store_bytes() const { return lb.size() * 2 * sizeof(std::int32_t) + bits.size() * sizeof(DomainWord); }
  std::size_t propagator_bytes() const {
    return row_begin.size() * 4 + coef.size() * 4 + var.size() * 4 + rhs.size() * 8 + kind.size() +
           reif_var.size() * 4 + reif_mode.size() + ternary.size() * sizeof(Ternary) + global_bytes();
  }
  std::size_t global_bytes() const {
    std::size_t b = 0;
    for_each_global_family([&](auto family, int f) {
      b += global[std::size_t(f)].bytes(sizeof(typename decltype(family)::Par));
    });
    return b;
  }
};

/// Orders the ternary propagators by op (stably), so that neighbouring lanes of a vector group run
/// the same code (Turbo's next step after warp reconvergence). The fixpoint does not change: the
/// propagators are monotone, so every order reaches the same one; only the order they run in does.
inline void sort_ternary_by_op(Program& p) {
  std::stable_sort(p.ternary.begin(), p.ternary.end(), [](const Ternary& a, const Ternary& b) { return a.op < b.op; });
}

namespace detail {
template <class T, class MemorySpace>
Kokkos::View<const T*, MemorySpace> upload(const std::string& label, const std::vector<T>& v) {
  Kokkos::View<T*, MemorySpace> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), v.size());
  Kokkos::deep_copy(d, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()));
  return d;
}

/// v in MemorySpace: the same View when it is there already, else a copy.
template <class MemorySpace, class T, class OtherSpace>
Kokkos::View<const T*, MemorySpace> copy_to(const Kokkos::View<const T*, OtherSpace>& v) {
  if constexpr (std::is_same_v<typename Kokkos::View<const T*, OtherSpace>::memory_space, MemorySpace>) {
    return v;
  } else {
    Kokkos::View<T*, MemorySpace> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, v.label()), v.extent(0));
    Kokkos::deep_copy(d, v);
    return d;
  }
}
}  // namespace detail

/// Rows of at most this many terms run on one lane each (a team's threads and vector lanes all take
/// rows); longer ones on a vector group, the terms spread over its lanes. Most rows of a FlatZinc model
/// are reified comparisons of one or two terms: on a vector group of 32 lanes, 30 would idle.
constexpr int default_lane_row_terms = 16;

/// Row ids split for team_fixpoint: rows of at most `lane_row_terms` terms (ordered by reification,
/// kind and length, so that neighbouring lanes take the same branches), then the longer ones.
inline std::vector<std::int32_t> rows_by_width(const Program& p, int lane_row_terms, std::int32_t& num_lane_rows) {
  std::vector<std::int32_t> ids(p.rhs.size());
  for (std::size_t r = 0; r < ids.size(); ++r) ids[r] = static_cast<std::int32_t>(r);
  auto terms = [&](std::int32_t r) { return p.row_begin[r + 1] - p.row_begin[r]; };
  auto key = [&](std::int32_t r) {
    const bool lane = terms(r) <= lane_row_terms;
    return std::make_tuple(!lane, p.reif_mode[r], p.kind[r], terms(r));
  };
  std::stable_sort(ids.begin(), ids.end(), [&](std::int32_t a, std::int32_t b) { return key(a) < key(b); });
  num_lane_rows = static_cast<std::int32_t>(
      std::count_if(ids.begin(), ids.end(), [&](std::int32_t r) { return terms(r) <= lane_row_terms; }));
  return ids;
}

/// Whether unreified row r is a != that can narrow only when a variable of it becomes fixed, and
/// whose narrowing then stays done: != does something only when one term is left free, and where
/// every term's variable has a bitset (or at most two values) the value it removes stays removed, so
/// no later change of a variable still free (a bound move onto that value of a bounds-only domain)
/// can wake it. The decomposed all_different's x_i != x_j are such rows; 300-queens has 134,550.
inline bool row_wakes_on_fix_only(const Program& p, int r) {
  if (static_cast<LinearKind>(p.kind[std::size_t(r)]) != LinearKind::ne || p.reif_var[std::size_t(r)] >= 0) return false;
  for (int k = p.row_begin[std::size_t(r)]; k < p.row_begin[std::size_t(r) + 1]; ++k) {
    const auto x = std::size_t(p.var[std::size_t(k)]);
    if (!p.has_bits(int(x)) && std::int64_t(p.ub[x]) - p.lb[x] > 1) return false;
  }
  return true;
}

/// Which changes of its variables wake a propagator in the event-driven fixpoint (queue_fixpoint).
enum class Wake : std::int8_t {
  fixed = 0,  ///< only a variable becoming fixed (row_wakes_on_fix_only)
  bound = 1,  ///< a bound moving (or the variable fixed): it reads its variables' bounds alone
  value = 2,  ///< any change: it reads the values inside the bounds too
};

/// Row r's wake: a linear row reads only bounds (extreme sums, fixed terms), except an = of two unit
/// terms, which carries holes across (support_unit_pair), and a reified != of two unit terms, whose
/// negation is one.
inline Wake row_wake(const Program& p, int r) {
  if (row_wakes_on_fix_only(p, r)) return Wake::fixed;
  const auto k = static_cast<LinearKind>(p.kind[std::size_t(r)]);
  const auto b = std::size_t(p.row_begin[std::size_t(r)]);
  const bool two = p.row_begin[std::size_t(r) + 1] - p.row_begin[std::size_t(r)] == 2;
  const bool pair = two && detail::is_unit_pair(LinearKind::eq, p.coef[b], p.coef[b + 1]) &&
                    (k == LinearKind::eq || (k == LinearKind::ne && p.reif_var[std::size_t(r)] >= 0));
  return pair ? Wake::value : Wake::bound;
}

/// For the event-driven fixpoint: propagators are numbered ternary first, then rows, then the listed
/// families' constraints in GlobalFamilies' order;
/// var_props lists, for each variable, the propagators that read it (compressed rows, var_begin).
/// Each variable's list is ordered by Wake, each part by id: (*var_wake)[2x] is where x's
/// Wake::bound propagators begin, (*var_wake)[2x + 1] where its Wake::value ones do. Ternary
/// propagators wake on any change; a listed family's on a bound where its `wakes_on_bounds`.
inline void propagators_of_variables(const Program& p, std::vector<std::int32_t>& var_begin,
                                     std::vector<std::int32_t>& var_props,
                                     std::vector<std::int32_t>* var_wake = nullptr) {
  const int n = p.num_vars();
  std::vector<std::vector<std::int32_t>> of(n);
  std::vector<Wake> wake;
  auto add = [&](int x, std::int32_t id) {
    if (x >= 0 && x < n && (of[x].empty() || of[x].back() != id)) of[x].push_back(id);
  };
  std::int32_t id = 0;
  for (const Ternary& t : p.ternary) {
    add(t.x, id);
    add(t.y, id);
    add(t.z, id);
    wake.push_back(Wake::value);
    ++id;
  }
  for (int r = 0; r < p.num_rows(); ++r, ++id) {
    for (int k = p.row_begin[r]; k < p.row_begin[r + 1]; ++k) add(p.var[k], id);
    add(p.reif_var[r], id);
    wake.push_back(row_wake(p, r));
  }
  for_each_global_family([&](auto family, int f) {
    const FamilyTable& g = p.global[std::size_t(f)];
    for (int c = 0; c < g.size(); ++c, ++id) {
      for (int k = g.var_begin[std::size_t(c)]; k < g.var_begin[std::size_t(c) + 1]; ++k) add(g.vars[std::size_t(k)], id);
      wake.push_back(decltype(family)::wakes_on_bounds ? Wake::bound : Wake::value);
    }
  });
  var_begin.assign(1, 0);
  var_props.clear();
  if (var_wake) var_wake->clear();
  const auto by_wake = [&](std::int32_t a, std::int32_t b) {
    return std::make_pair(wake[std::size_t(a)], a) < std::make_pair(wake[std::size_t(b)], b);
  };
  for (int x = 0; x < n; ++x) {
    auto& ids = of[x];
    std::sort(ids.begin(), ids.end(), by_wake);
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    if (var_wake)
      for (const Wake w : {Wake::bound, Wake::value}) {
        const auto from = std::partition_point(ids.begin(), ids.end(), [&](std::int32_t q) { return wake[std::size_t(q)] < w; });
        var_wake->push_back(static_cast<std::int32_t>(var_props.size() + std::size_t(from - ids.begin())));
      }
    var_props.insert(var_props.end(), ids.begin(), ids.end());
    var_begin.push_back(static_cast<std::int32_t>(var_props.size()));
  }
}

/// Device form: Views in MemorySpace, one structure of arrays per propagator family.
template <class MemorySpace>
struct DeviceProgram {
  int num_vars = 0;
  Kokkos::View<const std::int32_t*, MemorySpace> root_lb, root_ub;
  /// Domains with holes: the root bitsets' words and where each variable's are (see Program).
  Kokkos::View<const DomainWord*, MemorySpace> root_bits;
  Kokkos::View<const std::int32_t*, MemorySpace> bits_at, bits_base;
  Kokkos::View<const Ternary*, MemorySpace> ternary;
  LinearRows<MemorySpace> rows;
  /// Every row id once: the first num_lane_rows run one per lane, the rest one per vector group.
  Kokkos::View<const std::int32_t*, MemorySpace> row_order;
  int num_lane_rows = 0;
  int lane_row_terms = default_lane_row_terms;
  /// The listed families (view<f>() is family f's), and the id of each one's first constraint
  /// (global_first[num_global_families] is num_propagators()).
  GlobalViews<MemorySpace> global;
  int global_first[num_global_families + 1] = {};
  /// The propagators reading each variable, ordered by Wake (see propagators_of_variables), and where
  /// each variable's Wake::bound and Wake::value parts begin (wake_from).
  Kokkos::View<const std::int32_t*, MemorySpace> var_begin, var_props, var_wake;

  DeviceProgram() = default;
  /// Throws std::invalid_argument when p's arrays disagree in length (a Program filled by hand).
  explicit DeviceProgram(const Program& p, int lane_row_terms = default_lane_row_terms)
      : num_vars(p.num_vars()), lane_row_terms(lane_row_terms) {
    const std::size_t r = p.rhs.size();
    if (p.ub.size() != p.lb.size() || p.row_begin.size() != r + 1 || p.kind.size() != r || p.reif_var.size() != r ||
        p.reif_mode.size() != r ||
        p.coef.size() != p.var.size() ||
        !std::all_of(p.global.begin(), p.global.end(), [](const FamilyTable& g) { return g.consistent(); })) {
      throw std::invalid_argument("kcp::DeviceProgram: the program's arrays disagree in length");
    }
    using detail::upload;
    root_lb = upload<std::int32_t, MemorySpace>("kcp::program::root_lb", p.lb);
    root_ub = upload<std::int32_t, MemorySpace>("kcp::program::root_ub", p.ub);
    {
      std::vector<std::int32_t> at(p.lb.size(), -1), base(p.lb.begin(), p.lb.end());
      std::copy(p.bits_at.begin(), p.bits_at.begin() + std::min(p.bits_at.size(), at.size()), at.begin());
      std::copy(p.bits_base.begin(), p.bits_base.begin() + std::min(p.bits_base.size(), base.size()), base.begin());
      bits_at = upload<std::int32_t, MemorySpace>("kcp::program::bits_at", at);
      bits_base = upload<std::int32_t, MemorySpace>("kcp::program::bits_base", base);
      root_bits = upload<DomainWord, MemorySpace>("kcp::program::root_bits", p.bits);
    }
    ternary = upload<Ternary, MemorySpace>("kcp::program::ternary", p.ternary);
    rows.row_begin = upload<std::int32_t, MemorySpace>("kcp::program::row_begin", p.row_begin);
    rows.coef = upload<std::int32_t, MemorySpace>("kcp::program::coef", p.coef);
    rows.var = upload<std::int32_t, MemorySpace>("kcp::program::var", p.var);
    rows.rhs = upload<std::int64_t, MemorySpace>("kcp::program::rhs", p.rhs);
    rows.kind = upload<std::int8_t, MemorySpace>("kcp::program::kind", p.kind);
    rows.reif_var = upload<std::int32_t, MemorySpace>("kcp::program::reif_var", p.reif_var);
    rows.reif_mode = upload<std::int8_t, MemorySpace>("kcp::program::reif_mode", p.reif_mode);
    row_order = upload<std::int32_t, MemorySpace>("kcp::program::row_order",
                                                  rows_by_width(p, lane_row_terms, num_lane_rows));
    global_first[0] = static_cast<int>(p.ternary.size() + r);
    upload_families(p, std::make_integer_sequence<int, num_global_families>{});
    std::vector<std::int32_t> begin, props, wake;
    propagators_of_variables(p, begin, props, &wake);
    var_begin = upload<std::int32_t, MemorySpace>("kcp::program::var_begin", begin);
    var_props = upload<std::int32_t, MemorySpace>("kcp::program::var_props", props);
    var_wake = upload<std::int32_t, MemorySpace>("kcp::program::var_wake", wake);
  }

  /// The same program in another memory space: the Views copied (shared when the space is the same),
  /// the host-side work (row order, propagators of each variable) not redone.
  template <class OtherSpace>
  explicit DeviceProgram(const DeviceProgram<OtherSpace>& o)
      : num_vars(o.num_vars), num_lane_rows(o.num_lane_rows), lane_row_terms(o.lane_row_terms) {
    using detail::copy_to;
    root_lb = copy_to<MemorySpace>(o.root_lb);
    root_ub = copy_to<MemorySpace>(o.root_ub);
    root_bits = copy_to<MemorySpace>(o.root_bits);
    bits_at = copy_to<MemorySpace>(o.bits_at);
    bits_base = copy_to<MemorySpace>(o.bits_base);
    ternary = copy_to<MemorySpace>(o.ternary);
    rows.row_begin = copy_to<MemorySpace>(o.rows.row_begin);
    rows.coef = copy_to<MemorySpace>(o.rows.coef);
    rows.var = copy_to<MemorySpace>(o.rows.var);
    rows.rhs = copy_to<MemorySpace>(o.rows.rhs);
    rows.kind = copy_to<MemorySpace>(o.rows.kind);
    rows.reif_var = copy_to<MemorySpace>(o.rows.reif_var);
    rows.reif_mode = copy_to<MemorySpace>(o.rows.reif_mode);
    row_order = copy_to<MemorySpace>(o.row_order);
    copy_families(o, std::make_integer_sequence<int, num_global_families>{});
    for (int f = 0; f <= num_global_families; ++f) global_first[f] = o.global_first[f];
    var_begin = copy_to<MemorySpace>(o.var_begin);
    var_props = copy_to<MemorySpace>(o.var_props);
    var_wake = copy_to<MemorySpace>(o.var_wake);
  }

  /// Where the bitsets are, for StoreRef's constructor.
  KOKKOS_INLINE_FUNCTION DomainLayout layout() const {
    return DomainLayout{bits_at.data(), bits_base.data(), num_vars, domain_words()};
  }
  KOKKOS_INLINE_FUNCTION int domain_words() const { return static_cast<int>(root_bits.extent(0)); }
  /// A store over bounds and words laid out as this program's (the one place a StoreRef is built
  /// from a program).
  template <bool Concurrent, bool Holes = true>
  KOKKOS_INLINE_FUNCTION StoreRef<Concurrent, Holes> store(std::int32_t* lb, std::int32_t* ub, DomainWord* bits) const {
    return StoreRef<Concurrent, Holes>(lb, ub, bits, layout());
  }

  /// The first id of a family that runs on a vector group (Placement::group); the lane families'
  /// ids are [global_first[0], group_first()).
  KOKKOS_INLINE_FUNCTION int group_first() const { return global_first[num_lane_families]; }
  /// Constraints of the group families.
  KOKKOS_INLINE_FUNCTION int num_group_globals() const { return global_first[num_global_families] - group_first(); }

  /// Whether propagator `id` (numbered as in propagators_of_variables) runs on a vector group: a row
  /// too long for a lane, or a group family's constraint.
  KOKKOS_INLINE_FUNCTION bool runs_on_group(int id) const {
    if (id >= group_first()) return true;
    const int r = id - num_ternary();
    return r >= 0 && r < rows.size() && rows.row_begin(r + 1) - rows.row_begin(r) > lane_row_terms;
  }

  KOKKOS_INLINE_FUNCTION int num_propagators() const { return global_first[num_global_families]; }
  /// The first of x's propagators that a change of the kinds `touched` (TouchKind bits) wakes: all of
  /// them when x is fixed, those reading bounds when a bound moved, else those reading values.
  KOKKOS_INLINE_FUNCTION int wake_from(int x, bool fixed, std::int32_t touched) const {
    return fixed ? var_begin(x) : var_wake(2 * x + ((touched & touched_bound) ? 0 : 1));
  }
  KOKKOS_INLINE_FUNCTION int num_globals() const { return global_first[num_global_families] - global_first[0]; }

  /// The family of listed constraint `id` (a propagator id at or past global_first[0]).
  KOKKOS_INLINE_FUNCTION int family_of(int id) const {
    int f = 0;
    while (f + 1 < num_global_families && id >= global_first[f + 1]) ++f;
    return f;
  }
  /// Runs listed constraint `id` (a propagator id at or past global_first[0]) once: a lane family's
  /// inlined, a group family's through propagate_group_family.
  template <class Lanes, class Store>
  KOKKOS_INLINE_FUNCTION int propagate_global_id(const Lanes& lanes, int id, const Store& s) const {
    return id < group_first() ? propagate_lane_id(lanes, id, s) : propagate_group_id(lanes, id, s);
  }
  /// Runs group family constraint `id` (at or past group_first()) once.
  template <class Lanes, class Store>
  KOKKOS_INLINE_FUNCTION int propagate_group_id(const Lanes& lanes, int id, const Store& s) const {
    const int f = family_of(id);
    return propagate_group_family(lanes, f, global, id - global_first[f], s);
  }
  /// Runs lane family constraint `id` (in [global_first[0], group_first())) once, inlined.
  template <class Lanes, class Store>
  KOKKOS_INLINE_FUNCTION int propagate_lane_id(const Lanes& lanes, int id, const Store& s) const {
    const int f = family_of(id);
    return propagate_lane_family(lanes, f, global, id - global_first[f], s);
  }

 private:
  template <int... F>
  void upload_families(const Program& p, std::integer_sequence<int, F...>) {
    (upload_family<F>(p), ...);
  }
  template <int F>
  void upload_family(const Program& p) {
    using detail::upload;
    using Par = std::remove_const_t<typename decltype(global.template view<F>().pars)::value_type>;
    const FamilyTable& g = p.global[std::size_t(F)];
    auto& v = global.template view<F>();
    v.var_begin = upload<std::int32_t, MemorySpace>("kcp::program::family_var_begin", g.var_begin);
    v.vars = upload<std::int32_t, MemorySpace>("kcp::program::family_vars", g.vars);
    v.par_begin = upload<std::int32_t, MemorySpace>("kcp::program::family_par_begin", g.par_begin);
    std::vector<Par> pars;
    pars.reserve(g.pars.size());
    for (const std::int64_t x : g.pars) {
      if (x < std::numeric_limits<Par>::min() || x > std::numeric_limits<Par>::max())
        throw std::invalid_argument("kcp::DeviceProgram: a parameter does not fit its family's type");
      pars.push_back(static_cast<Par>(x));
    }
    v.pars = upload<Par, MemorySpace>("kcp::program::family_pars", pars);
    global_first[F + 1] = global_first[F] + g.size();
  }
  template <class OtherSpace, int... F>
  void copy_families(const DeviceProgram<OtherSpace>& o, std::integer_sequence<int, F...>) {
    (copy_family<F>(o), ...);
  }
  template <int F, class OtherSpace>
  void copy_family(const DeviceProgram<OtherSpace>& o) {
    using detail::copy_to;
    auto& v = global.template view<F>();
    const auto& from = o.global.template view<F>();
    v.var_begin = copy_to<MemorySpace>(from.var_begin);
    v.vars = copy_to<MemorySpace>(from.vars);
    v.par_begin = copy_to<MemorySpace>(from.par_begin);
    v.pars = copy_to<MemorySpace>(from.pars);
  }

 public:

  KOKKOS_INLINE_FUNCTION int num_ternary() const { return static_cast<int>(ternary.extent(0)); }
};

}  // namespace kcp
