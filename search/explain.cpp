// Explanations and conflict analysis on one host thread (search/explain.hpp).
#include "search/explain.hpp"

#include "domains/fixpoint.hpp"
#include "search/learning.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <unordered_map>
#include <unordered_set>

namespace kcp {

namespace {

constexpr int kind_lb = 0, kind_ub = 1, kind_word = 2;
constexpr std::int32_t reason_decision = -1, reason_root = -2;

/// One change of the store on the trail.
struct Entry {
  std::int32_t var;
  std::int32_t kind;    ///< kind_lb, kind_ub, kind_word
  std::int32_t level;
  std::int32_t reason;  ///< a propagator, num_propagators + a clause, reason_decision, reason_root
  std::int32_t from;    ///< where the run that made it started on the trail (the box is the domains there)
  std::int32_t prev;    ///< the variable's previous entry of the same kind (words: of any word)
  std::int32_t word;    ///< kind_word: the word's index in the variable's bitset
  std::int32_t lit;     ///< clause reasons: the literal made false
  std::int64_t old_v, new_v;  ///< the bound, or the word's bits, before and after
};

/// The Luby sequence 1 1 2 1 1 2 4 ..., term i (from 0).
double luby(std::int64_t i) {
  std::int64_t size = 1, seq = 0;
  while (size < i + 1) {
    ++seq;
    size = 2 * size + 1;
  }
  while (size - 1 != i) {
    size = (size - 1) >> 1;
    --seq;
    i = i % size;
  }
  return std::pow(2.0, double(seq));
}


}  // namespace

struct ExplainingSearch::Impl {
  using Store = StoreRef<false, true>;
  struct Clause {
    std::vector<Literal> lits;
    double activity = 0;
    std::int32_t w[2] = {0, 0};  ///< the two watched literals' indices (settle_watches)
    bool kept = false;           ///< a solution's blocking nogood: never reduced
  };
  /// A variable's domain at some trail position.
  struct Dom {
    std::int64_t lo = 0, hi = 0;
    std::vector<DomainWord> words;
  };

  ExplainOptions opt;
  Program prog;
  DeviceProgram<Kokkos::HostSpace> dp;
  int n = 0, num_props = 0;
  std::vector<std::int32_t> scope_begin, scope_vars, words_of;
  // The store, its shadow (the values the trail last recorded), the level-0 domains, and the scratch
  // store explanations are tested on (equal to the level-0 domains outside a test).
  std::vector<std::int32_t> lb, ub, slb, sub, r0lb, r0ub, xlb, xub;
  std::vector<DomainWord> bits, sbits, r0bits, xbits;
  std::vector<std::int32_t> touched_flag, touched_list;
  int touched_count = 0;
  std::vector<Entry> trail;
  std::vector<std::int32_t> last_lb, last_ub, last_word;
  std::vector<std::int32_t> level_start{0};
  std::vector<Literal> level_decision{Literal{0, 0}};
  int level = 0;
  std::vector<std::int32_t> queue, cqueue;
  /// Per entry of the program's var_props (a variable's propagators): the changes of that variable
  /// the propagator reads (wake_lb, wake_ub, wake_holes). An unreified linear row sum a x <= c reads
  /// only the lower bounds of its positive terms and the upper bounds of its negative ones; rows read
  /// bounds alone; other propagators every change.
  std::vector<std::uint8_t> wake;
  enum : std::uint8_t { wake_lb = 1, wake_ub = 2, wake_holes = 4, wake_all = 7 };
  /// Value rows: b <-> a x = c and b <-> a x != c with c / a = v whole (int_eq_reif, int_ne_reif).
  /// Such a row does something on x's side only when v leaves x's domain or becomes a bound of it (x
  /// fixed at v, or x != v to push the bound past), so it is woken by those alone (commit_touched), not by
  /// every change of x: a variable channelled to a Boolean per value has one row per value, and on
  /// ma-path-finding they were ~80 % of the propagator runs, nearly all doing nothing (perf/NOTES.md
  /// entry 39). Per variable its value rows (value, propagator), sorted by value.
  std::vector<std::int32_t> value_begin;
  std::vector<std::pair<std::int32_t, std::int32_t>> value_rows;
  std::size_t qhead = 0;
  std::vector<char> queued, cqueued;
  std::vector<Clause> clauses;
  /// Per variable: (clause, literal) of the literals watched on it; entries of literals no longer
  /// watched are dropped when the variable next changes.
  std::vector<std::vector<std::pair<std::int32_t, std::int32_t>>> occ;
  std::unordered_set<std::uint64_t> known;
  std::vector<Literal> conflict;
  // Heuristics.
  std::vector<double> activity;
  double var_inc = 1, clause_inc = 1;
  std::vector<std::int32_t> heap, heap_pos;
  std::vector<std::int32_t> phase, guide_values;
  std::vector<char> has_phase;
  bool guided = false;
  std::int64_t best = INT64_MAX, pending = INT64_MAX;
  bool done = false, proved = false, bound_due = false;
  /// Clauses added from outside, checked after every backjump until checked at a level-0 fixpoint
  /// (one unit or false at level 0 is woken by no change).
  std::vector<std::int32_t> recheck;
  std::int64_t conflicts_here = 0;
  ExplainStats st;

  Impl(const Program& p, const ExplainOptions& o) : opt(o), prog(p) {
    prog.fit_layout();
    dp = DeviceProgram<Kokkos::HostSpace>(prog);
    n = prog.num_vars();
    num_props = dp.num_propagators();
    std::vector<std::int32_t> vb, vp;
    propagators_of_variables(prog, vb, vp);
    std::vector<std::int32_t> count(std::size_t(num_props) + 1, 0);
    for (const std::int32_t q : vp) ++count[std::size_t(q) + 1];
    for (int q = 0; q < num_props; ++q) count[std::size_t(q) + 1] += count[std::size_t(q)];
    scope_begin = count;
    scope_vars.assign(vp.size(), 0);
    for (int x = 0; x < n; ++x)
      for (int j = vb[std::size_t(x)]; j < vb[std::size_t(x) + 1]; ++j) scope_vars[std::size_t(count[std::size_t(vp[std::size_t(j)])]++)] = x;
    // Each bitset's words: up to the next one's first (Program::give_bits lays them out in a row).
    words_of.assign(std::size_t(n), 0);
    std::vector<std::pair<std::int32_t, int>> starts;
    for (int x = 0; x < n; ++x)
      if (prog.has_bits(x)) starts.emplace_back(prog.bits_at[std::size_t(x)], x);
    std::sort(starts.begin(), starts.end());
    for (std::size_t i = 0; i < starts.size(); ++i) {
      const std::int32_t end = i + 1 < starts.size() ? starts[i + 1].first : static_cast<std::int32_t>(prog.bits.size());
      words_of[std::size_t(starts[i].second)] = end - starts[i].first;
    }
    lb = slb = r0lb = xlb = prog.lb;
    ub = sub = r0ub = xub = prog.ub;
    bits = sbits = r0bits = xbits = prog.bits;
    touched_flag.assign(std::size_t(n), 0);
    touched_list.assign(std::size_t(n), 0);
    last_lb.assign(std::size_t(n), -1);
    last_ub.assign(std::size_t(n), -1);
    last_word.assign(std::size_t(n), -1);
    queued.assign(std::size_t(num_props), 0);
    for (int q = 0; q < num_props; ++q) enqueue(q);
    const int first_row = static_cast<int>(prog.ternary.size()), rows_end = first_row + prog.num_rows();
    wake.assign(std::size_t(dp.var_begin(n)), wake_all);
    value_begin.assign(1, 0);
    for (int x = 0; x < n; ++x) {
      for (int j = dp.var_begin(x); j < dp.var_begin(x + 1); ++j) {
        const int q = dp.var_props(j);
        if (q < first_row || q >= rows_end) continue;
        const auto r = std::size_t(q - first_row);
        if (prog.reif_var[r] >= 0) {
          wake[std::size_t(j)] = wake_lb | wake_ub;
          if (value_row(r, x)) {  // woken by value (commit_touched), not through x's list
            wake[std::size_t(j)] = 0;
            const auto k = std::size_t(prog.row_begin[r]);
            value_rows.emplace_back(static_cast<std::int32_t>(prog.rhs[r] / prog.coef[k]), q);
          }
          continue;
        }
        std::uint8_t m = 0;
        for (int k = prog.row_begin[r]; k < prog.row_begin[r + 1]; ++k) {
          if (prog.var[std::size_t(k)] != x) continue;
          const std::int32_t a = prog.coef[std::size_t(k)];
          m |= static_cast<LinearKind>(prog.kind[r]) != LinearKind::le ? (wake_lb | wake_ub)
               : a > 0                                                 ? wake_lb
               : a < 0                                                 ? wake_ub
                                                                       : 0;
        }
        wake[std::size_t(j)] = m;
      }
      std::sort(value_rows.begin() + value_begin.back(), value_rows.end());
      value_begin.push_back(static_cast<std::int32_t>(value_rows.size()));
    }
    occ.resize(std::size_t(n));
    activity.assign(std::size_t(n), 0);
    // At equal activity the given order first (tiny initial activities), then the variables' order.
    for (std::size_t i = 0; i < opt.order.size(); ++i) {
      const int x = opt.order[i];
      if (x >= 0 && x < n && activity[std::size_t(x)] == 0) activity[std::size_t(x)] = 1e-9 * double(opt.order.size() - i);
    }
    heap_pos.assign(std::size_t(n), -1);
    for (int x = 0; x < n; ++x) heap_insert(x);
    phase.assign(std::size_t(n), 0);
    has_phase.assign(std::size_t(n), 0);
  }

  Store store() {
    Store s = dp.store<false, true>(lb.data(), ub.data(), bits.data());
    s.touched_flag = touched_flag.data();
    s.touched_list = touched_list.data();
    s.touched_count = &touched_count;
    return s;
  }
  Store scratch() { return dp.store<false, true>(xlb.data(), xub.data(), xbits.data()); }
  bool fixed(int x) const { return lb[std::size_t(x)] == ub[std::size_t(x)]; }

  // --- The variable heap (a binary max-heap by activity, ties by the lower index) ---
  bool before(int a, int b) const {
    const double p = activity[std::size_t(a)], q = activity[std::size_t(b)];
    return p != q ? p > q : a < b;
  }
  void heap_up(int i) {
    const int x = heap[std::size_t(i)];
    while (i > 0) {
      const int parent = (i - 1) / 2;
      if (!before(x, heap[std::size_t(parent)])) break;
      heap[std::size_t(i)] = heap[std::size_t(parent)];
      heap_pos[std::size_t(heap[std::size_t(i)])] = i;
      i = parent;
    }
    heap[std::size_t(i)] = x;
    heap_pos[std::size_t(x)] = i;
  }
  void heap_down(int i) {
    const int x = heap[std::size_t(i)], size = static_cast<int>(heap.size());
    for (;;) {
      int child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && before(heap[std::size_t(child) + 1], heap[std::size_t(child)])) ++child;
      if (!before(heap[std::size_t(child)], x)) break;
      heap[std::size_t(i)] = heap[std::size_t(child)];
      heap_pos[std::size_t(heap[std::size_t(i)])] = i;
      i = child;
    }
    heap[std::size_t(i)] = x;
    heap_pos[std::size_t(x)] = i;
  }
  void heap_insert(int x) {
    if (heap_pos[std::size_t(x)] >= 0) return;
    heap.push_back(x);
    heap_up(static_cast<int>(heap.size()) - 1);
  }
  int heap_pop() {
    const int x = heap[0];
    heap_pos[std::size_t(x)] = -1;
    heap[0] = heap.back();
    heap.pop_back();
    if (!heap.empty()) {
      heap_pos[std::size_t(heap[0])] = 0;
      heap_down(0);
    }
    return x;
  }
  void bump(int x) {
    double& a = activity[std::size_t(x)];
    a += var_inc;
    if (a > 1e100) {
      for (double& b : activity) b *= 1e-100;
      var_inc *= 1e-100;
    }
    if (heap_pos[std::size_t(x)] >= 0) heap_up(heap_pos[std::size_t(x)]);
  }

  // --- Propagation ---
  void enqueue(int q) {
    if (queued[std::size_t(q)]) return;
    queued[std::size_t(q)] = 1;
    queue.push_back(q);
  }
  void enqueue_clause(int k) {
    if (cqueued[std::size_t(k)]) return;
    cqueued[std::size_t(k)] = 1;
    cqueue.push_back(k);
  }
  void clear_queues() {
    for (std::size_t i = qhead; i < queue.size(); ++i) queued[std::size_t(queue[i])] = 0;
    queue.clear();
    qhead = 0;
    for (const std::int32_t k : cqueue) cqueued[std::size_t(k)] = 0;
    cqueue.clear();
  }
  /// Whether reified row r is a value row of x: one term a x, kind eq or ne, c / a whole, b not x.
  bool value_row(std::size_t r, int x) const {
    const int k = prog.row_begin[r];
    if (prog.row_begin[r + 1] - k != 1 || prog.var[std::size_t(k)] != x || prog.reif_var[r] == x) return false;
    const auto kind = static_cast<LinearKind>(prog.kind[r]);
    const std::int64_t a = prog.coef[std::size_t(k)], c = prog.rhs[r];
    return (kind == LinearKind::eq || kind == LinearKind::ne) && a != 0 && c % a == 0 &&
           c / a >= INT32_MIN && c / a <= INT32_MAX;
  }
  /// x's value rows at values in [from, to].
  void wake_values(int x, std::int64_t from, std::int64_t to) {
    const auto b = value_rows.begin() + value_begin[std::size_t(x)], e = value_rows.begin() + value_begin[std::size_t(x) + 1];
    if (b == e || from > to) return;
    for (auto it = std::lower_bound(b, e, std::make_pair(static_cast<std::int32_t>(std::max<std::int64_t>(from, INT32_MIN)), INT32_MIN));
         it != e && it->first <= to; ++it)
      enqueue(it->second);
  }
  /// x's value rows at the values whose bits `gone` cleared in its bitset word w.
  void wake_gone(int x, int w, DomainWord gone) {
    if (value_begin[std::size_t(x)] == value_begin[std::size_t(x) + 1]) return;
    for (; gone != 0; gone &= gone - 1) {
      const std::int64_t v = prog.bits_base[std::size_t(x)] + std::int64_t(w) * domain_word_bits + lowest_bit(gone);
      wake_values(x, v, v);
    }
  }
  /// x changed (`changes`: wake_lb, wake_ub, wake_holes): its propagators that read those changes, and
  /// its clauses with a watched literal on x now true.
  void notify(int x, std::uint8_t changes, const Store& s) {
    for (int j = dp.var_begin(x); j < dp.var_begin(x + 1); ++j)
      if (wake[std::size_t(j)] & changes) enqueue(dp.var_props(j));
    auto& list = occ[std::size_t(x)];
    std::size_t kept = 0;
    for (std::size_t j = 0; j < list.size(); ++j) {
      const auto [k, i] = list[j];
      const Clause& c = clauses[std::size_t(k)];
      if (i != c.w[0] && i != c.w[1]) continue;  // no longer watched
      list[kept++] = list[j];
      if (literal_state(s, c.lits[std::size_t(i)]) > 0) enqueue_clause(k);
    }
    list.resize(kept);
  }
  /// Clause k's literals by state: open ones (the first two), a false one (-1: none), and how many open.
  struct Scan {
    int opens = 0, open = -1, open2 = -1, falsified = -1;
  };
  Scan scan(const std::vector<Literal>& lits, const Store& s) const {
    Scan r;
    for (std::size_t i = 0; i < lits.size(); ++i) {
      const int state = literal_state(s, lits[i]);
      if (state < 0) {
        if (r.falsified < 0) r.falsified = int(i);
      } else if (state == 0) {
        if (r.opens == 0) r.open = int(i);
        else if (r.opens == 1) r.open2 = int(i);
        ++r.opens;
      }
    }
    return r;
  }
  /// The trail entry that made true literal l true (-1: at the root).
  int made_at(const Literal& l) const {
    if (l.op() != lit_eq) return entry_of(l);
    return std::max(bound_entry(l.var(), true, l.value), bound_entry(l.var(), false, l.value));
  }
  /// Of clause k's true literals other than `but`, the one made true last (-1: none).
  int latest_true(int k, int but, const Store& s) const {
    const std::vector<Literal>& lits = clauses[std::size_t(k)].lits;
    int best_i = -1, best_e = INT32_MIN;
    for (std::size_t i = 0; i < lits.size(); ++i) {
      if (int(i) == but || literal_state(s, lits[i]) <= 0) continue;
      const int e = made_at(lits[i]);
      if (e > best_e) best_e = e, best_i = int(i);
    }
    return best_i;
  }
  /// Two watched literals per clause: a clause is woken when a watched literal becomes true, so each
  /// watches two literals that are not true where it can (then no change of its other literals can make
  /// it unit); where it cannot, an open or false one and the true one made last, which a backjump
  /// undoes first. Sets k's watches from the states in s (scanned as `r`).
  void settle_watches(int k, const Scan& r, const Store& s) {
    Clause& c = clauses[std::size_t(k)];
    const auto open_at = [&](int i) { return i >= 0 && literal_state(s, c.lits[std::size_t(i)]) == 0; };
    int a, b;
    if (r.opens >= 2) {
      a = open_at(c.w[0]) ? c.w[0] : open_at(c.w[1]) ? c.w[1] : r.open;
      b = open_at(c.w[1]) && c.w[1] != a ? c.w[1] : open_at(c.w[0]) && c.w[0] != a ? c.w[0] : r.open == a ? r.open2 : r.open;
    } else if (r.opens == 1) {
      a = r.open;
      b = r.falsified >= 0 ? r.falsified : latest_true(k, a, s);
    } else if (r.falsified >= 0) {
      a = r.falsified;
      b = latest_true(k, a, s);
    } else {
      a = latest_true(k, -1, s);
      b = latest_true(k, a, s);
    }
    if (a < 0) a = b >= 0 ? b : 0;
    if (b < 0) b = a;
    const auto watch = [&](int i) {
      if (i != c.w[0] && i != c.w[1]) occ[std::size_t(c.lits[std::size_t(i)].var())].emplace_back(k, i);
    };
    watch(a);
    if (b != a) watch(b);
    c.w[0] = a;
    c.w[1] = b;
  }
  void push_entry(int x, int kind, std::int64_t old_v, std::int64_t new_v, int word, std::int32_t reason, int from, int lit) {
    std::int32_t& last = kind == kind_lb ? last_lb[std::size_t(x)] : kind == kind_ub ? last_ub[std::size_t(x)] : last_word[std::size_t(x)];
    trail.push_back(Entry{x, kind, level, reason, from, last, word, lit, old_v, new_v});
    last = static_cast<std::int32_t>(trail.size()) - 1;
  }
  /// The touched variables' changes onto the trail, with their reason.
  void commit_touched(std::int32_t reason, int from, int lit) {
    const Store s = store();
    for (int i = 0; i < touched_count; ++i) {
      const int x = touched_list[std::size_t(i)];
      touched_flag[std::size_t(x)] = 0;
      const auto xs = std::size_t(x);
      // Value rows wake where a bound passed or now sits on their value, or a hole removed it (x
      // fixed at v: both bounds on v).
      std::uint8_t changes = 0;
      if (lb[xs] != slb[xs]) {
        wake_values(x, slb[xs], lb[xs]);
        push_entry(x, kind_lb, slb[xs], lb[xs], 0, reason, from, lit), slb[xs] = lb[xs], changes |= wake_lb;
      }
      if (ub[xs] != sub[xs]) {
        wake_values(x, ub[xs], sub[xs]);
        push_entry(x, kind_ub, sub[xs], ub[xs], 0, reason, from, lit), sub[xs] = ub[xs], changes |= wake_ub;
      }
      for (int w = 0; w < words_of[xs]; ++w) {
        const auto at = std::size_t(prog.bits_at[xs] + w);
        if (bits[at] != sbits[at]) {
          wake_gone(x, w, sbits[at] & ~bits[at]);
          push_entry(x, kind_word, std::int64_t(sbits[at]), std::int64_t(bits[at]), w, reason, from, lit);
          sbits[at] = bits[at];
          changes |= wake_holes;
        }
      }
      if (lb[xs] == ub[xs]) {
        phase[xs] = lb[xs];
        has_phase[xs] = 1;
      }
      notify(x, changes, s);
    }
    touched_count = 0;
  }
  /// Undoes what a failed run left on the touched variables.
  void restore_touched() {
    for (int i = 0; i < touched_count; ++i) {
      const auto x = std::size_t(touched_list[std::size_t(i)]);
      touched_flag[x] = 0;
      lb[x] = slb[x];
      ub[x] = sub[x];
      for (int w = 0; w < words_of[x]; ++w) bits[std::size_t(prog.bits_at[x] + w)] = sbits[std::size_t(prog.bits_at[x] + w)];
    }
    touched_count = 0;
  }

  bool run_propagator(int q) {
    const int from = static_cast<int>(trail.size());
    const int r = propagate_any(SerialLanes{}, dp, q, store());
    ++st.propagations;
    if (r & prop_failed) {
      restore_touched();
      conflict = explain_box(q, from, {});
      return true;
    }
    commit_touched(q, from, -1);
    return false;
  }

  bool check_clause(int k) {
    const Store s = store();
    const std::vector<Literal>& lits = clauses.at(std::size_t(k)).lits;  // checked: ids change at deletions
    const Scan r = scan(lits, s);
    settle_watches(k, r, s);
    if (r.falsified >= 0 || r.opens >= 2) return false;
    const int open = r.open;
    clauses[std::size_t(k)].activity += clause_inc;
    if (open < 0) {
      conflict = lits;
      return true;
    }
    const int from = static_cast<int>(trail.size());
    ++st.clause_propagations;
    if (falsify(s, lits[std::size_t(open)]) & prop_failed) {  // not expected: an open literal can be made false
      restore_touched();
      conflict.clear();
      for (std::size_t i = 0; i < lits.size(); ++i)
        if (int(i) != open) conflict.push_back(lits[i]);
      const int x = lits[std::size_t(open)].var();
      box_literals(x, domain_before(x, from), conflict);
      return true;
    }
    commit_touched(num_props + k, from, open);
    return false;
  }

  /// 1: a conflict (in `conflict`); 0: a fixpoint; -1: stopped first (the queues stay for the next call).
  int propagate(const volatile int* stop) {
    std::int64_t runs = 0;
    for (;;) {
      if (!cqueue.empty()) {
        const int k = cqueue.back();
        cqueue.pop_back();
        cqueued[std::size_t(k)] = 0;
        if (check_clause(k)) return 1;
        continue;
      }
      if (qhead < queue.size()) {
        const int q = queue[qhead++];
        queued[std::size_t(q)] = 0;
        if (qhead == queue.size()) {
          queue.clear();
          qhead = 0;
        }
        if (run_propagator(q)) return 1;
        // Every 64 runs: a stopping search is joined at once (perf/NOTES.md entry 41).
        if ((++runs & 63) == 0 && stop != nullptr && *stop) return -1;
        continue;
      }
      if (opt.check_fixpoints) check_fixpoint();
      return 0;
    }
  }
  /// ExplainOptions::check_fixpoints: whether any propagator narrows (or fails) the store at this
  /// fixpoint; whatever it did is undone.
  void check_fixpoint() {
    ++st.fixpoint_checks;
    for (int q = 0; q < num_props; ++q) {
      const int r = propagate_any(SerialLanes{}, dp, q, store());
      const bool missed = (r & prop_failed) != 0 || touched_count != 0;
      restore_touched();
      if (missed) {
        ++st.fixpoint_misses;
        return;
      }
    }
  }

  // --- Domains at a trail position, literals, and the entries that made them true ---
  Dom domain_before(int x, int pos) const {
    const auto xs = std::size_t(x);
    Dom d;
    d.lo = lb[xs];
    for (int e = last_lb[xs]; e >= pos; e = trail[std::size_t(e)].prev) d.lo = trail[std::size_t(e)].old_v;
    d.hi = ub[xs];
    for (int e = last_ub[xs]; e >= pos; e = trail[std::size_t(e)].prev) d.hi = trail[std::size_t(e)].old_v;
    if (words_of[xs] > 0) {
      d.words.assign(bits.begin() + prog.bits_at[xs], bits.begin() + prog.bits_at[xs] + words_of[xs]);
      for (int e = last_word[xs]; e >= pos; e = trail[std::size_t(e)].prev)
        d.words[std::size_t(trail[std::size_t(e)].word)] = DomainWord(trail[std::size_t(e)].old_v);
    }
    return d;
  }
  bool bit(const DomainWord* words, int x, std::int64_t v) const {
    const std::int64_t off = v - prog.bits_base[std::size_t(x)];
    return (words[off >> 6] >> (off & 63)) & 1;
  }
  bool in_root(int x, std::int64_t v) const {
    const auto xs = std::size_t(x);
    if (v < r0lb[xs] || v > r0ub[xs]) return false;
    return words_of[xs] == 0 || bit(&r0bits[std::size_t(prog.bits_at[xs])], x, v);
  }
  /// The literals of x's domain d that do not hold at level 0: x >= lo, x <= hi, x != v for its holes.
  void box_literals(int x, const Dom& d, std::vector<Literal>& out) const {
    const auto xs = std::size_t(x);
    if (d.lo > r0lb[xs]) out.push_back(Literal::make(x, lit_ge, static_cast<std::int32_t>(d.lo)));
    if (d.hi < r0ub[xs]) out.push_back(Literal::make(x, lit_le, static_cast<std::int32_t>(d.hi)));
    if (words_of[xs] > 0)
      for (std::int64_t v = d.lo + 1; v < d.hi; ++v)
        if (!bit(d.words.data(), x, v) && in_root(x, v)) out.push_back(Literal::make(x, lit_ne, static_cast<std::int32_t>(v)));
  }
  /// The trail entry that made a true bound literal true (x >= a: lb, else ub), or -1 (true at the root).
  int bound_entry(int x, bool lower, std::int64_t a) const {
    int e = lower ? last_lb[std::size_t(x)] : last_ub[std::size_t(x)];
    const auto holds = [&](std::int64_t v) { return lower ? v >= a : v <= a; };
    if (e < 0 || !holds(trail[std::size_t(e)].new_v)) return -1;
    while (trail[std::size_t(e)].prev >= 0 && holds(trail[std::size_t(trail[std::size_t(e)].prev)].new_v)) e = trail[std::size_t(e)].prev;
    return holds(trail[std::size_t(e)].old_v) ? -1 : e;
  }
  /// The entry that made a true literal true, earliest (-1: it holds at the root). Not for x = v.
  int entry_of(const Literal& l) const {
    const int x = l.var();
    const std::int64_t v = l.value;
    switch (l.op()) {
      case lit_ge: return bound_entry(x, true, v);
      case lit_le: return bound_entry(x, false, v);
      default: {  // lit_ne
        if (!in_root(x, v)) return -1;
        int best_e = INT32_MAX;
        if (lb[std::size_t(x)] > v) best_e = std::min(best_e, bound_entry(x, true, v + 1));
        if (ub[std::size_t(x)] < v) best_e = std::min(best_e, bound_entry(x, false, v - 1));
        if (words_of[std::size_t(x)] > 0) {
          const std::int64_t off = v - prog.bits_base[std::size_t(x)];
          const int w = static_cast<int>(off >> 6);
          const DomainWord m = DomainWord(1) << (off & 63);
          for (int e = last_word[std::size_t(x)]; e >= 0; e = trail[std::size_t(e)].prev) {
            const Entry& E = trail[std::size_t(e)];
            if (E.word == w && (DomainWord(E.old_v) & m) && !(DomainWord(E.new_v) & m)) {
              best_e = std::min(best_e, e);
              break;
            }
          }
        }
        return best_e == INT32_MAX ? -1 : best_e;  // -1 among them: at the root (never reached: in_root)
      }
    }
  }

  // --- Explanations ---
  /// Whether propagator q, alone on the scratch store set to the level-0 domains narrowed by the
  /// kept literals of `cand` (over q's scope), derives every target (none: a failure).
  bool derives(int q, const std::vector<Literal>& cand, const std::vector<char>& keep, const std::vector<Literal>& targets) {
    const Store x = scratch();
    const int b = scope_begin[std::size_t(q)], e = scope_begin[std::size_t(q) + 1];
    load_scratch(cand, keep);
    bool ok = false, failed = false;
    for (int j = b; j < e && !failed; ++j) failed = (x.normalise(scope_vars[std::size_t(j)]) & prop_failed) != 0;
    const auto reached = [&]() {
      return !targets.empty() &&
             std::all_of(targets.begin(), targets.end(), [&](const Literal& t) { return literal_state(x, t) > 0; });
    };
    // Runs until the targets hold (or it fails), or until it changes nothing more.
    for (int it = 0; it < 64 && !failed && !ok; ++it) {
      const int r = propagate_any(SerialLanes{}, dp, q, x);
      ++st.explain_runs;
      if (r & prop_failed) failed = true;
      else if (reached()) ok = true;
      else if (!(r & prop_changed)) break;
    }
    ok = ok || failed;
    reset_scope(q);
    return ok;
  }
  /// The scratch store (at the level-0 domains over q's scope) narrowed by the kept literals of `cand`.
  void load_scratch(const std::vector<Literal>& cand, const std::vector<char>& keep) {
    for (std::size_t i = 0; i < cand.size(); ++i) {
      if (!keep[i]) continue;
      const Literal& l = cand[i];
      const auto y = std::size_t(l.var());
      if (l.op() == lit_ge) xlb[y] = l.value;
      else if (l.op() == lit_le) xub[y] = l.value;
      else {
        const std::int64_t off = std::int64_t(l.value) - prog.bits_base[y];
        xbits[std::size_t(prog.bits_at[y] + (off >> 6))] &= ~(DomainWord(1) << (off & 63));
      }
    }
  }
  void reset_scope(int q) {
    for (int j = scope_begin[std::size_t(q)]; j < scope_begin[std::size_t(q) + 1]; ++j) reset_scratch(scope_vars[std::size_t(j)]);
  }
  void reset_scratch(int y) {
    const auto ys = std::size_t(y);
    xlb[ys] = r0lb[ys];
    xub[ys] = r0ub[ys];
    for (int w = 0; w < words_of[ys]; ++w) xbits[std::size_t(prog.bits_at[ys] + w)] = r0bits[std::size_t(prog.bits_at[ys] + w)];
  }

  /// A cumulative's change or failure (cand: its box): the run replayed on the box task by task as
  /// domains/cumulative.hpp's cumulative_task does, noting which tasks' compulsory parts each sweep
  /// met (its reasons); the explanation keeps the box literals of the task that made the target (or
  /// failed) and of its reasons, and of theirs when narrowed earlier in the run. False when the replay
  /// does not reach the target (another kind of target), leaving `keep` to the generic minimisation.
  bool cumulative_keep(int q, const std::vector<Literal>& cand, const std::vector<int>& group,
                       const std::vector<Literal>& targets, std::vector<char>& keep) {
    constexpr int f = global_family<Cumulative>;
    if (q < dp.global_first[f] || q >= dp.global_first[f + 1]) return false;
    const int c = q - dp.global_first[f];
    const CumulativeRef<GlobalView<Kokkos::HostSpace>> t{dp.global[f], c, dp.global[f].arity(c)};
    for (const Literal& l : targets)
      if (l.var() != targets[0].var()) return false;
    const Store x = scratch();
    std::fill(keep.begin(), keep.end(), 1);
    load_scratch(cand, keep);
    // reasons[k]: the tasks whose parts task k's sweeps met; narrowed[k]: task k changed (order: at k).
    const auto n = std::size_t(t.n);
    std::vector<std::vector<int>> reasons(n);
    std::vector<char> narrowed(n, 0);
    int culprit = -1;
    for (int k = 0; k < t.n && culprit < 0; ++k) {
      const int y = t.start(k);
      const int status = cumulative_task(t, k, x, [&](int j) { reasons[std::size_t(k)].push_back(j); });
      if (status & prop_failed) culprit = k;
      else if (status & prop_changed) narrowed[std::size_t(k)] = 1;
      if (culprit < 0 && !targets.empty() && y == targets[0].var() &&
          std::all_of(targets.begin(), targets.end(), [&](const Literal& l) { return literal_state(x, l) > 0; }))
        culprit = k;
    }
    reset_scope(q);
    if (culprit < 0) return false;
    // The culprit, its reasons, and theirs for the reasons narrowed before it in the run.
    std::vector<char> in(n, 0);
    std::vector<int> todo{culprit};
    in[std::size_t(culprit)] = 1;
    while (!todo.empty()) {
      const int k = todo.back();
      todo.pop_back();
      for (const int j : reasons[std::size_t(k)]) {
        if (in[std::size_t(j)]) continue;
        in[std::size_t(j)] = 1;
        if (narrowed[std::size_t(j)] && j < k) todo.push_back(j);
      }
    }
    // Group g holds the literals of the scope's g-th variable (the scope in increasing variable order).
    const auto first = scope_vars.begin() + scope_begin[std::size_t(q)], last = scope_vars.begin() + scope_begin[std::size_t(q) + 1];
    std::fill(keep.begin(), keep.end(), 0);
    for (std::size_t j = 0; j < n; ++j) {
      if (!in[j]) continue;
      const auto g = std::size_t(std::lower_bound(first, last, t.start(int(j))) - first);
      for (int k = group[g]; k < group[g + 1]; ++k) keep[std::size_t(k)] = 1;
    }
    return true;
  }

  /// Why propagator q, run at trail position `from`, derived `targets` (none: failed): its box, minimised.
  std::vector<Literal> explain_box(int q, int from, const std::vector<Literal>& targets) {
    std::vector<Literal> cand;
    std::vector<int> group{0};
    const int b = scope_begin[std::size_t(q)], e = scope_begin[std::size_t(q) + 1];
    for (int j = b; j < e; ++j) {
      const int y = scope_vars[std::size_t(j)];
      box_literals(y, domain_before(y, from), cand);
      group.push_back(static_cast<int>(cand.size()));
    }
    if (cand.empty() || int(cand.size()) > opt.max_minimise_literals) return cand;
    std::vector<char> keep(cand.size(), 1);
    // A family's own reasons first, checked by one run (else the generic minimisation from the box).
    if (cumulative_keep(q, cand, group, targets, keep)) {
      if (derives(q, cand, keep, targets)) {
        ++st.family_explanations;
        std::vector<Literal> out;
        for (std::size_t i = 0; i < cand.size(); ++i)
          if (keep[i]) out.push_back(cand[i]);
        return out;
      }
      std::fill(keep.begin(), keep.end(), 1);
    }
    if (!derives(q, cand, keep, targets)) return cand;  // not expected: the run derived them from the box
    // Variables dropped by halves: a range of them at once, else each half (few runs when few
    // variables are needed, as a cumulative's explanation needs few of its tasks).
    const auto set_range = [&](std::size_t a, std::size_t b, char v) {
      for (int i = group[a]; i < group[b]; ++i) keep[std::size_t(i)] = v;
    };
    const auto drop = [&](const auto& self, std::size_t a, std::size_t b) -> void {
      if (group[b] == group[a]) return;
      set_range(a, b, 0);
      if (derives(q, cand, keep, targets)) return;
      set_range(a, b, 1);
      if (b - a == 1) return;
      const std::size_t m = (a + b) / 2;
      self(self, a, m);
      self(self, m, b);
    };
    drop(drop, 0, group.size() - 1);
    for (std::size_t g = 0; g + 1 < group.size(); ++g) {
      if (group[g + 1] - group[g] < 2) continue;
      for (int i = group[g]; i < group[g + 1]; ++i) {
        if (!keep[std::size_t(i)]) continue;
        keep[std::size_t(i)] = 0;
        if (!derives(q, cand, keep, targets)) keep[std::size_t(i)] = 1;
      }
    }
    std::vector<Literal> out;
    for (std::size_t i = 0; i < cand.size(); ++i)
      if (keep[i]) out.push_back(cand[i]);
    return out;
  }

  /// Why entry e's change holds the targets (literals on its variable made true by it).
  std::vector<Literal> explain_entry(int e, const std::vector<Literal>& targets) {
    const Entry E = trail[std::size_t(e)];
    if (E.reason < num_props) return explain_box(E.reason, E.from, targets);
    // A clause: its other literals; and the variable's own domain when the negated literal alone
    // (over the level-0 domain) does not give the targets (a bound moved past removed values).
    const std::vector<Literal>& lits = clauses[std::size_t(E.reason - num_props)].lits;
    std::vector<Literal> out;
    for (std::size_t i = 0; i < lits.size(); ++i)
      if (int(i) != E.lit) out.push_back(lits[i]);
    const Literal open = lits[std::size_t(E.lit)];
    const int x = open.var();
    const Store s = scratch();
    const bool alone = !(falsify(s, open) & prop_failed) &&
                       std::all_of(targets.begin(), targets.end(), [&](const Literal& t) { return literal_state(s, t) > 0; });
    reset_scratch(x);
    if (!alone) box_literals(x, domain_before(x, E.from), out);
    return out;
  }

  // --- Conflict analysis (1-UIP) ---
  /// What analyse ended with.
  enum class Analysis { learned, proof, stopped };
  /// Learns from `conflict` at level > 0: the clause (its asserting literal first) and the level to
  /// jump back to; a proof when the conflict holds at level 0 (after jumping to lower levels as needed);
  /// stopped when `*stop` was seen between two resolutions (one conflict of a large model took seconds
  /// of explanations: jp-encoding_data400 ran 3 s past -t, perf/NOTES.md entry 46).
  Analysis analyse(std::vector<Literal>& learned, int& back, const volatile int* stop) {
    for (;;) {
      std::unordered_map<int, std::vector<Literal>> need;
      std::priority_queue<int> pending_entries;
      int at_level = 0;
      std::vector<Literal> lower;
      const auto add_one = [&](const Literal& l) {
        const int e = entry_of(l);
        if (e < 0) return;
        const Entry& E = trail[std::size_t(e)];
        if (E.level == 0) return;
        bump(l.var());
        if (E.level < level) {
          lower.push_back(l);
          return;
        }
        auto [it, fresh] = need.try_emplace(e);
        if (fresh) {
          pending_entries.push(e);
          ++at_level;
        }
        it->second.push_back(l);
      };
      const auto add = [&](const Literal& l) {
        if (l.op() == lit_eq) {
          add_one(Literal::make(l.var(), lit_ge, l.value));
          add_one(Literal::make(l.var(), lit_le, l.value));
        } else {
          add_one(l);
        }
      };
      for (const Literal& l : conflict) add(l);
      bool found = false;
      Literal uip{0, 0};
      while (!pending_entries.empty()) {
        const int e = pending_entries.top();
        pending_entries.pop();
        --at_level;
        std::vector<Literal> lits = std::move(need[e]);
        const Entry& E = trail[std::size_t(e)];
        if (E.reason == reason_decision) {
          uip = level_decision[std::size_t(level)];
          found = true;
          break;
        }
        merge(lits);
        if (at_level == 0 && lits.size() == 1) {
          uip = lits[0];
          found = true;
          break;
        }
        if (stop != nullptr && *stop) return Analysis::stopped;
        ++st.resolutions;
        for (const Literal& l : explain_entry(e, lits)) add(l);
      }
      if (!found) {
        // The conflict holds at a lower level already: go there and analyse it again.
        if (lower.empty()) return Analysis::proof;
        int top = 0;
        for (const Literal& l : lower) top = std::max(top, trail[std::size_t(entry_of(l))].level);
        backjump(top);
        conflict = lower;
        continue;
      }
      merge(lower);
      learned.assign(1, uip);
      back = 0;
      for (const Literal& l : lower) {
        if (subsumed_by(uip, l)) continue;
        learned.push_back(l);
        back = std::max(back, trail[std::size_t(entry_of(l))].level);
      }
      return Analysis::learned;
    }
  }
  /// Keeps the strongest literal per variable and bound; removed values once.
  static void merge(std::vector<Literal>& lits) {
    std::sort(lits.begin(), lits.end(), [](const Literal& a, const Literal& b) {
      if (a.var_op != b.var_op) return a.var_op < b.var_op;
      return a.op() == lit_le ? a.value < b.value : a.value > b.value;  // the strongest first
    });
    std::vector<Literal> out;
    for (const Literal& l : lits) {
      if (!out.empty() && out.back().var_op == l.var_op && (l.op() != lit_ne || out.back().value == l.value)) continue;
      out.push_back(l);
    }
    lits.swap(out);
  }
  /// `l` follows from `u` (same variable and bound, u as strong or stronger).
  static bool subsumed_by(const Literal& u, const Literal& l) {
    if (u.var_op != l.var_op) return false;
    switch (l.op()) {
      case lit_ge: return u.value >= l.value;
      case lit_le: return u.value <= l.value;
      default: return u.value == l.value;
    }
  }

  void backjump(int to) {
    if (level <= to) return;
    const auto end = std::size_t(level_start[std::size_t(to) + 1]);
    for (std::size_t i = trail.size(); i-- > end;) {
      const Entry& E = trail[i];
      const auto x = std::size_t(E.var);
      if (E.kind == kind_lb) {
        lb[x] = slb[x] = static_cast<std::int32_t>(E.old_v);
        last_lb[x] = E.prev;
      } else if (E.kind == kind_ub) {
        ub[x] = sub[x] = static_cast<std::int32_t>(E.old_v);
        last_ub[x] = E.prev;
      } else {
        const auto at = std::size_t(prog.bits_at[x] + E.word);
        bits[at] = sbits[at] = DomainWord(E.old_v);
        last_word[x] = E.prev;
      }
      heap_insert(E.var);
    }
    trail.resize(end);
    level_start.resize(std::size_t(to) + 1);
    level_decision.resize(std::size_t(to) + 1);
    level = to;
    clear_queues();
    for (const std::int32_t k : recheck) enqueue_clause(k);
  }

  /// Adds a clause, watching two of its literals as the store is now (settle_watches), and returns its id.
  int add_clause(std::vector<Literal> lits) {
    const int k = static_cast<int>(clauses.size());
    known.insert(nogood_hash(lits));
    clauses.push_back(Clause{std::move(lits), clause_inc});
    Clause& c = clauses.back();
    c.w[0] = c.w[1] = -1;
    const Store s = store();
    settle_watches(k, scan(c.lits, s), s);
    cqueued.push_back(0);
    return k;
  }

  /// At level 0: keeps the most active half of the clauses longer than two.
  void reduce() {
    if (int(clauses.size()) <= opt.max_clauses) return;
    std::vector<double> acts;
    for (const Clause& c : clauses)
      if (c.lits.size() > 2 && !c.kept) acts.push_back(c.activity);
    if (acts.empty()) return;
    std::nth_element(acts.begin(), acts.begin() + std::ptrdiff_t(acts.size() / 2), acts.end());
    const double median = acts[acts.size() / 2];
    std::vector<Clause> kept;
    for (Clause& c : clauses) {
      if (c.lits.size() > 2 && !c.kept && c.activity < median) {
        ++st.deleted;
        continue;
      }
      kept.push_back(std::move(c));
    }
    clauses.clear();
    for (auto& o : occ) o.clear();
    cqueue.clear();  // ids from before (backjump re-queued the rechecked ones): every clause is queued below
    cqueued.clear();
    recheck.clear();
    for (Clause& c : kept) {
      const double a = c.activity;
      const bool keep = c.kept;
      const int k = add_clause(std::move(c.lits));
      clauses[std::size_t(k)].activity = a;
      clauses[std::size_t(k)].kept = keep;
      enqueue_clause(k);  // ids changed: each is checked at level 0 once
    }
  }

  /// The next decision, or false when every variable is fixed.
  bool decide() {
    while (!heap.empty() && fixed(heap[0])) heap_pop();
    if (heap.empty()) return false;
    const int x = heap_pop();
    const auto xs = std::size_t(x);
    const Store s = store();
    std::int64_t v = lb[xs];
    if (guided && s.contains(x, guide_values[xs])) v = guide_values[xs];
    else if (has_phase[xs] && s.contains(x, phase[xs])) v = phase[xs];
    Literal d;
    if (prog.has_bits(x)) d = Literal::make(x, lit_eq, static_cast<std::int32_t>(v));
    else if (v == lb[xs]) d = Literal::make(x, lit_le, static_cast<std::int32_t>(v));
    else if (v == ub[xs]) d = Literal::make(x, lit_ge, static_cast<std::int32_t>(v));
    else d = Literal::make(x, lit_le, static_cast<std::int32_t>(v));
    ++level;
    level_start.push_back(static_cast<std::int32_t>(trail.size()));
    level_decision.push_back(d);
    const int from = static_cast<int>(trail.size());
    if (d.op() == lit_eq) s.narrow_to(x, v, v);
    else if (d.op() == lit_le) s.narrow_max(x, v);
    else s.narrow_min(x, v);
    commit_touched(reason_decision, from, -1);
    heap_insert(x);  // may be unfixed still (a bound decision)
    ++st.nodes;
    return true;
  }

  /// At level 0: the objective below `best`; false when that fails (a proof).
  bool apply_bound() {
    bound_due = false;
    if (opt.objective < 0 || best == INT64_MAX) return true;
    const int from = static_cast<int>(trail.size());
    if (store().narrow_max(opt.objective, best - 1) & prop_failed) {
      restore_touched();
      return false;
    }
    commit_touched(reason_root, from, -1);
    return true;
  }

  void finish_proof(std::vector<std::int32_t>& log) {
    done = proved = true;
    append_to_log(log, {}, best);
  }

  /// After the backjump: adds a clause whose first literal is open and the others true, and makes
  /// that literal false (the clause its reason).
  int assert_clause(const std::vector<Literal>& lits) {
    const int k = add_clause(lits);
    const int from = static_cast<int>(trail.size());
    if (falsify(store(), clauses[std::size_t(k)].lits[0]) & prop_failed) {  // not expected: the literal is open here
      restore_touched();
      enqueue_clause(k);
    } else {
      commit_touched(num_props + k, from, 0);
    }
    return k;
  }

  void run(std::int64_t steps, const volatile int* stop, std::vector<std::vector<std::int32_t>>& solutions,
           std::vector<std::int32_t>& log) {
    if (done) return;
    if (pending < best) {
      best = pending;
      bound_due = true;
    }
    if (bound_due) {
      backjump(0);
      if (!apply_bound()) return finish_proof(log);
    }
    for (std::int64_t step = 0; step < steps && !done; ++step) {
      if (stop != nullptr && *stop) return;
      const int r = propagate(stop);
      if (r < 0) return;
      if (r > 0) {
        ++st.conflicts;
        if (level == 0) return finish_proof(log);
        std::vector<Literal> learned;
        int back = 0;
        const Analysis a = analyse(learned, back, stop);
        if (a == Analysis::proof) return finish_proof(log);
        if (a == Analysis::stopped) {
          // Nothing learned: the root again (the conflict comes back if the search goes on).
          backjump(0);
          return;
        }
        backjump(back);
        ++st.learned;
        st.learned_literals += std::int64_t(learned.size());
        if (int(learned.size()) <= opt.export_length) {
          append_to_log(log, learned, best);
          ++st.exported;
        }
        assert_clause(learned);
        var_inc /= 0.95;
        clause_inc /= 0.999;
        if (++conflicts_here >= luby(st.restarts) * double(std::max<std::int64_t>(1, opt.restart_base))) {
          backjump(0);
          ++st.restarts;
          conflicts_here = 0;
          reduce();
        }
        continue;
      }
      if (level == 0) {
        // Level 0 at a fixpoint: the domains explanations widen to.
        recheck.clear();
        r0lb = xlb = lb;
        r0ub = xub = ub;
        r0bits = xbits = bits;
      }
      if (decide()) continue;
      // Every variable fixed at a fixpoint: a solution.
      ++st.solutions;
      solutions.push_back(lb);
      if (opt.objective < 0) {
        if (!opt.all_solutions) {
          done = true;
          return;
        }
        // Blocked: the decisions, the last first (asserted one level up); none left is the proof.
        if (level == 0) return finish_proof(log);
        std::vector<Literal> block(level_decision.rbegin(), level_decision.rend() - 1);
        backjump(level - 1);
        clauses[std::size_t(assert_clause(block))].kept = true;
        continue;
      }
      guide_values = lb;
      guided = true;
      best = std::min<std::int64_t>(best, lb[std::size_t(opt.objective)]);
      backjump(0);
      if (!apply_bound()) return finish_proof(log);
    }
  }

  void import(const std::vector<std::vector<Literal>>& nogoods) {
    for (const auto& g : nogoods) {
      if (g.empty() || known.count(nogood_hash(g))) continue;
      ++st.imported;
      const int k = add_clause(g);
      enqueue_clause(k);
      recheck.push_back(k);
    }
  }
};

ExplainingSearch::ExplainingSearch(const Program& program, const ExplainOptions& options)
    : impl_(std::make_unique<Impl>(program, options)) {}
ExplainingSearch::~ExplainingSearch() = default;

void ExplainingSearch::run(std::int64_t steps, const volatile int* stop, std::vector<std::vector<std::int32_t>>& solutions,
                           std::vector<std::int32_t>& log) {
  impl_->run(steps, stop, solutions, log);
}
void ExplainingSearch::tighten(std::int64_t best) { impl_->pending = std::min(impl_->pending, best); }
void ExplainingSearch::guide(const std::vector<std::int32_t>& values) {
  if (values.size() != std::size_t(impl_->n)) return;
  impl_->guide_values = values;
  impl_->guided = true;
}
void ExplainingSearch::import(const std::vector<std::vector<Literal>>& nogoods) { impl_->import(nogoods); }
bool ExplainingSearch::complete() const { return impl_->proved; }
bool ExplainingSearch::finished() const { return impl_->done; }
std::int64_t ExplainingSearch::best() const { return impl_->best; }
const ExplainStats& ExplainingSearch::stats() const { return impl_->st; }

}  // namespace kcp
