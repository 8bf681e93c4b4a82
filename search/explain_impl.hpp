// The explaining search's state and its steps (search/explain.hpp): what explain.cpp (the store, the
// trail, propagation, the search loop) and explain_analysis.cpp (explanations, conflict analysis,
// clauses, decisions) share. Internal to those two files.
#pragma once

#include "search/explain.hpp"

#include "domains/fixpoint.hpp"
#include "search/learning.hpp"

#include <cstdint>
#include <vector>
#include <unordered_set>

namespace kcp {

struct ExplainingSearch::Impl {
  static constexpr int kind_lb = 0, kind_ub = 1, kind_word = 2;
  static constexpr std::int32_t reason_decision = -1, reason_root = -2;

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
  /// The model's variables: 0 .. n_model - 1; the order literals come after them (add_order_literals),
  /// and neither solutions nor exported clauses carry them.
  int n_model = 0;
  /// The order literals' values in guide_values, from the model variables' there: 1 where the first
  /// of its two rows (add_order_literals: the last 2 (n - n_model) rows, in pairs) holds.
  void guide_order_literals() {
    guide_values.resize(std::size_t(n), 0);
    const int first = prog.num_rows() - 2 * (n - n_model);
    for (int k = 0; k < n - n_model; ++k) {
      const auto r = std::size_t(first + 2 * k);
      std::int64_t sum = 0;
      for (int j = prog.row_begin[r]; j < prog.row_begin[r + 1]; ++j)
        sum += std::int64_t(prog.coef[std::size_t(j)]) * guide_values[std::size_t(prog.var[std::size_t(j)])];
      guide_values[std::size_t(n_model + k)] = sum <= prog.rhs[r] ? 1 : 0;
    }
  }
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
  /// A watched literal: clause k's literal i, whose value is `value` (its variable and operator: the
  /// list it is in).
  struct Watch {
    std::int32_t k, i, value;
  };
  /// Per variable and literal operator (LiteralOp): the literals watched on it, sorted by value, so
  /// that a change visits only the literals it makes true (a bound's move a range of them, a hole the
  /// removed values'); an entry whose literal is no longer watched is dropped when it is next visited.
  struct VarWatches {
    std::vector<Watch> by_op[4];
    void clear() {
      for (auto& l : by_op) l.clear();
    }
  };
  std::vector<VarWatches> occ;
  /// Watches literal i of clause k (an entry in its variable's list).
  void add_watch(int k, int i);
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

  Impl(const Program& p, const ExplainOptions& o);

  Store store();
  Store scratch() { return dp.store<false, true>(xlb.data(), xub.data(), xbits.data()); }
  bool fixed(int x) const { return lb[std::size_t(x)] == ub[std::size_t(x)]; }

  // --- The variable heap (a binary max-heap by activity, ties by the lower index) ---
  bool before(int a, int b) const {
    const double p = activity[std::size_t(a)], q = activity[std::size_t(b)];
    return p != q ? p > q : a < b;
  }
  void heap_up(int i);
  void heap_down(int i);
  void heap_insert(int x) {
    if (heap_pos[std::size_t(x)] >= 0) return;
    heap.push_back(x);
    heap_up(static_cast<int>(heap.size()) - 1);
  }
  int heap_pop();
  void bump(int x);

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
  void clear_queues();
  /// Whether reified row r is a value row of x: one term a x, kind eq or ne, c / a whole, b not x.
  bool value_row(std::size_t r, int x) const;
  /// x's value rows at values in [from, to].
  void wake_values(int x, std::int64_t from, std::int64_t to);
  /// x's value rows at the values whose bits `gone` cleared in its bitset word w.
  void wake_gone(int x, int w, DomainWord gone);
  /// x changed (`changes`: wake_lb, wake_ub, wake_holes): its propagators that read those changes.
  void notify(int x, std::uint8_t changes);
  /// x changed, its saved domain (slb, sub, sbits) still the old one: each watched literal on x that
  /// the change made true moves its watch to a literal of the clause that is not true; a clause where
  /// none is left is queued (unit or a conflict: check_clause). Literals true before are not visited.
  void notify_clauses(int x, const Store& s);
  /// The watches of list `op` of x with values in [lo, hi], all made true by the change: moved, kept,
  /// or their clauses queued (notify_clauses).
  void visit_made_true(int x, int op, std::int64_t lo, std::int64_t hi, const Store& s);
  std::vector<std::pair<int, int>> moved;  ///< visit_made_true's new watches, added after its walk
  /// Clause k's literals by state: open ones (the first two), a false one (-1: none), and how many open.
  struct Scan {
    int opens = 0, open = -1, open2 = -1, falsified = -1;
  };
  Scan scan(const std::vector<Literal>& lits, const Store& s) const;
  /// The trail entry that made true literal l true (-1: at the root).
  int made_at(const Literal& l) const {
    if (l.op() != lit_eq) return entry_of(l);
    return std::max(bound_entry(l.var(), true, l.value), bound_entry(l.var(), false, l.value));
  }
  /// Of clause k's true literals other than `but`, the one made true last (-1: none).
  int latest_true(int k, int but, const Store& s) const;
  /// Two watched literals per clause: a clause is woken when a watched literal becomes true, so each
  /// watches two literals that are not true where it can (then no change of its other literals can make
  /// it unit); where it cannot, an open or false one and the true one made last, which a backjump
  /// undoes first. Sets k's watches from the states in s (scanned as `r`).
  void settle_watches(int k, const Scan& r, const Store& s);
  void push_entry(int x, int kind, std::int64_t old_v, std::int64_t new_v, int word, std::int32_t reason, int from, int lit) {
    std::int32_t& last = kind == kind_lb ? last_lb[std::size_t(x)] : kind == kind_ub ? last_ub[std::size_t(x)] : last_word[std::size_t(x)];
    trail.push_back(Entry{x, kind, level, reason, from, last, word, lit, old_v, new_v});
    last = static_cast<std::int32_t>(trail.size()) - 1;
  }
  /// The touched variables' changes onto the trail, with their reason.
  void commit_touched(std::int32_t reason, int from, int lit);
  /// Undoes what a failed run left on the touched variables.
  void restore_touched();

  bool run_propagator(int q);

  bool check_clause(int k);

  /// 1: a conflict (in `conflict`); 0: a fixpoint; -1: stopped first (the queues stay for the next call).
  int propagate(const volatile int* stop);
  /// ExplainOptions::check_fixpoints: whether any propagator narrows (or fails) the store at this
  /// fixpoint; whatever it did is undone.
  void check_fixpoint();

  // --- Domains at a trail position, literals, and the entries that made them true ---
  Dom domain_before(int x, int pos) const;
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
  void box_literals(int x, const Dom& d, std::vector<Literal>& out) const;
  /// The trail entry that made a true bound literal true (x >= a: lb, else ub), or -1 (true at the root).
  int bound_entry(int x, bool lower, std::int64_t a) const;
  /// The entry that made a true literal true, earliest (-1: it holds at the root). Not for x = v.
  int entry_of(const Literal& l) const;

  // --- Explanations ---
  /// Whether propagator q, alone on the scratch store set to the level-0 domains narrowed by the
  /// kept literals of `cand` (over q's scope), derives every target (none: a failure).
  bool derives(int q, const std::vector<Literal>& cand, const std::vector<char>& keep, const std::vector<Literal>& targets);
  /// The scratch store (at the level-0 domains over q's scope) narrowed by the kept literals of `cand`.
  void load_scratch(const std::vector<Literal>& cand, const std::vector<char>& keep);
  void reset_scope(int q) {
    for (int j = scope_begin[std::size_t(q)]; j < scope_begin[std::size_t(q) + 1]; ++j) reset_scratch(scope_vars[std::size_t(j)]);
  }
  void reset_scratch(int y) {
    const auto ys = std::size_t(y);
    xlb[ys] = r0lb[ys];
    xub[ys] = r0ub[ys];
    for (int w = 0; w < words_of[ys]; ++w) xbits[std::size_t(prog.bits_at[ys] + w)] = r0bits[std::size_t(prog.bits_at[ys] + w)];
  }

  /// A listed family's own reasons for propagator q's change or failure (cand: its box, targets all on
  /// one variable): the family's `reasons` hook (domains/family.hpp; cumulative replays its run task by
  /// task) marks the constraint's variables that suffice. `lifted` takes cand's literals with the
  /// hook's weaker bounds (never stronger than the box's, never past the root's) and `keep` keeps the
  /// variables the hook lifted; `keep_box` keeps every variable it marked, at the box's literals (cand).
  /// The caller checks the first by one run and falls back to the second. False when the family has
  /// no hook or it does not reach the target (the generic minimisation runs).
  bool family_keep(int q, const std::vector<Literal>& cand, std::vector<Literal>& lifted, const std::vector<int>& group,
                   const std::vector<Literal>& targets, std::vector<char>& keep, std::vector<char>& keep_box);

  /// Why propagator q, run at trail position `from`, derived `targets` (none: failed): its box, minimised.
  std::vector<Literal> explain_box(int q, int from, const std::vector<Literal>& targets);

  /// Why entry e's change holds the targets (literals on its variable made true by it).
  std::vector<Literal> explain_entry(int e, const std::vector<Literal>& targets);

  // --- Conflict analysis (1-UIP) ---
  /// What analyse ended with.
  enum class Analysis { learned, proof, stopped };
  /// Learns from `conflict` at level > 0: the clause (its asserting literal first) and the level to
  /// jump back to; a proof when the conflict holds at level 0 (after jumping to lower levels as needed);
  /// stopped when `*stop` was seen between two resolutions (one conflict of a large model took seconds
  /// of explanations: jp-encoding_data400 ran 3 s past -t, perf/NOTES.md entry 46).
  Analysis analyse(std::vector<Literal>& learned, int& back, const volatile int* stop);
  /// Keeps the strongest literal per variable and bound; removed values once.
  static void merge(std::vector<Literal>& lits);
  /// `l` follows from `u` (same variable and bound, u as strong or stronger).
  static bool subsumed_by(const Literal& u, const Literal& l);

  void backjump(int to);

  /// Adds a clause, watching two of its literals as the store is now (settle_watches), and returns its id.
  int add_clause(std::vector<Literal> lits);

  /// At level 0: keeps the most active half of the clauses longer than two.
  void reduce();

  /// The next decision, or false when every variable is fixed.
  bool decide();

  /// At level 0: the objective below `best`; false when that fails (a proof).
  bool apply_bound();

  void finish_proof(std::vector<std::int32_t>& log) {
    done = proved = true;
    append_to_log(log, {}, best);
  }

  /// After the backjump: adds a clause whose first literal is open and the others true, and makes
  /// that literal false (the clause its reason).
  int assert_clause(const std::vector<Literal>& lits);

  void run(std::int64_t steps, const volatile int* stop, std::vector<std::vector<std::int32_t>>& solutions, std::vector<std::int32_t>& log);

  void import(const std::vector<std::vector<Literal>>& nogoods);
};

}  // namespace kcp
