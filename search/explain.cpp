// The explaining search (search/explain.hpp): its store, trail and propagation, and the search loop;
// explanations and conflict analysis are in explain_analysis.cpp.
#include "search/explain_impl.hpp"

#include "search/modes.hpp"

#include <algorithm>

namespace kcp {

int ExplainingSearch::add_order_literals(Program& p, int limit) {
  const FamilyTable& t = p.global[std::size_t(global_family<Cumulative>)];
  int added = 0;
  for (int c = 0; c < t.size(); ++c) {
    const int k = t.arity(c);
    const std::int64_t cap = t.par(c, 0);
    const auto d = [&](int i) { return t.par(c, 1 + i); };
    bool machine = k >= 2 && k <= edge_finding_max_tasks;  // as DisjunctiveTasks::applies, durations > 0
    for (int i = 0; i < k && machine; ++i)
      machine = disjunctive_use(t.par(c, 1 + k + i), cap) && d(i) > 0;
    if (!machine || added + k * (k - 1) / 2 > limit) continue;
    for (int i = 0; i < k; ++i)
      for (int j = i + 1; j < k; ++j) {
        const int si = t.var(c, i), sj = t.var(c, j);
        if (si == sj) continue;
        const int b = p.add_var(0, 1);
        // b <-> s_i + d_i <= s_j; b <-> s_i <= s_j + d_j - 1 (so 0: s_j + d_j <= s_i).
        p.add_row(LinearKind::le, {1, -1}, {si, sj}, -d(i), b, Reification::equivalent);
        p.add_row(LinearKind::le, {1, -1}, {si, sj}, d(j) - 1, b, Reification::equivalent);
        ++added;
      }
  }
  return added;
}

ExplainingSearch::Impl::Impl(const Program& p, const ExplainOptions& o) : opt(o), prog(p) {
  n_model = prog.num_vars();
  if (opt.order_literals > 0) st.order_literals = ExplainingSearch::add_order_literals(prog, opt.order_literals);
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

ExplainingSearch::Impl::Store ExplainingSearch::Impl::store() {
  Store s = dp.store<false, true>(lb.data(), ub.data(), bits.data());
  s.touched_flag = touched_flag.data();
  s.touched_list = touched_list.data();
  s.touched_count = &touched_count;
  return s;
}

void ExplainingSearch::Impl::heap_up(int i) {
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

void ExplainingSearch::Impl::heap_down(int i) {
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

int ExplainingSearch::Impl::heap_pop() {
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

void ExplainingSearch::Impl::bump(int x) {
  double& a = activity[std::size_t(x)];
  a += var_inc;
  if (a > 1e100) {
    for (double& b : activity) b *= 1e-100;
    var_inc *= 1e-100;
  }
  if (heap_pos[std::size_t(x)] >= 0) heap_up(heap_pos[std::size_t(x)]);
}

void ExplainingSearch::Impl::clear_queues() {
  for (std::size_t i = qhead; i < queue.size(); ++i) queued[std::size_t(queue[i])] = 0;
  queue.clear();
  qhead = 0;
  for (const std::int32_t k : cqueue) cqueued[std::size_t(k)] = 0;
  cqueue.clear();
}

bool ExplainingSearch::Impl::value_row(std::size_t r, int x) const {
  const int k = prog.row_begin[r];
  if (prog.row_begin[r + 1] - k != 1 || prog.var[std::size_t(k)] != x || prog.reif_var[r] == x) return false;
  const auto kind = static_cast<LinearKind>(prog.kind[r]);
  const std::int64_t a = prog.coef[std::size_t(k)], c = prog.rhs[r];
  return (kind == LinearKind::eq || kind == LinearKind::ne) && a != 0 && c % a == 0 &&
         c / a >= INT32_MIN && c / a <= INT32_MAX;
}

void ExplainingSearch::Impl::wake_values(int x, std::int64_t from, std::int64_t to) {
  const auto b = value_rows.begin() + value_begin[std::size_t(x)], e = value_rows.begin() + value_begin[std::size_t(x) + 1];
  if (b == e || from > to) return;
  for (auto it = std::lower_bound(b, e, std::make_pair(static_cast<std::int32_t>(std::max<std::int64_t>(from, INT32_MIN)), INT32_MIN));
       it != e && it->first <= to; ++it)
    enqueue(it->second);
}

void ExplainingSearch::Impl::wake_gone(int x, int w, DomainWord gone) {
  if (value_begin[std::size_t(x)] == value_begin[std::size_t(x) + 1]) return;
  for (; gone != 0; gone &= gone - 1) {
    const std::int64_t v = prog.bits_base[std::size_t(x)] + std::int64_t(w) * domain_word_bits + lowest_bit(gone);
    wake_values(x, v, v);
  }
}

void ExplainingSearch::Impl::add_watch(int k, int i) {
  const Literal& l = clauses[std::size_t(k)].lits[std::size_t(i)];
  std::vector<Watch>& list = occ[std::size_t(l.var())].by_op[l.op()];
  const Watch w{k, i, l.value};
  if (list.empty() || list.back().value <= w.value) {
    list.push_back(w);
    return;
  }
  list.insert(std::upper_bound(list.begin(), list.end(), w, [](const Watch& a, const Watch& b) { return a.value < b.value; }), w);
}

void ExplainingSearch::Impl::visit_made_true(int x, int op, std::int64_t lo, std::int64_t hi, const Store& s) {
  std::vector<Watch>& list = occ[std::size_t(x)].by_op[op];
  if (list.empty() || lo > hi || list.front().value > hi || list.back().value < lo) return;
  const auto first = std::lower_bound(list.begin(), list.end(), lo, [](const Watch& a, std::int64_t v) { return a.value < v; });
  auto out = first, it = first;
  moved.clear();
  for (; it != list.end() && it->value <= hi; ++it) {
    const Watch w = *it;
    Clause& c = clauses[std::size_t(w.k)];
    const int slot = c.w[0] == w.i ? 0 : c.w[1] == w.i ? 1 : -1;
    if (slot < 0) continue;  // no longer watched
    const std::vector<Literal>& lits = c.lits;
    const int other = c.w[1 - slot];
    if (other != w.i && literal_state(s, lits[std::size_t(other)]) < 0) {  // the other watch holds the clause
      *out++ = w;
      continue;
    }
    // A literal that is not true to watch instead (MiniSat's move), else the clause is unit or a conflict.
    int found = -1;
    for (int i = 0; i < static_cast<int>(lits.size()) && found < 0 && other != w.i; ++i)
      if (i != c.w[0] && i != c.w[1] && literal_state(s, lits[std::size_t(i)]) <= 0) found = i;
    if (found < 0) {
      *out++ = w;
      enqueue_clause(w.k);
      continue;
    }
    c.w[slot] = found;
    moved.emplace_back(w.k, found);
  }
  list.erase(out, it);
  for (const auto& [k, i] : moved) add_watch(k, i);
}

void ExplainingSearch::Impl::notify_clauses(int x, const Store& s) {
  const auto xs = std::size_t(x);
  const std::int64_t olo = slb[xs], ohi = sub[xs], lo = s.min(x), hi = s.max(x);
  if (lo > olo) {
    visit_made_true(x, lit_ge, olo + 1, lo, s);
    visit_made_true(x, lit_ne, olo, lo - 1, s);
  }
  if (hi < ohi) {
    visit_made_true(x, lit_le, hi, ohi - 1, s);
    visit_made_true(x, lit_ne, hi + 1, ohi, s);
  }
  if (lo == hi && !(olo == ohi)) visit_made_true(x, lit_eq, lo, lo, s);
  if (words_of[xs] > 0 && !occ[xs].by_op[lit_ne].empty())
    for (int w = 0; w < words_of[xs]; ++w) {
      const auto at = std::size_t(prog.bits_at[xs] + w);
      for (DomainWord gone = sbits[at] & ~bits[at]; gone != 0; gone &= gone - 1) {
        const std::int64_t v = prog.bits_base[xs] + std::int64_t(w) * domain_word_bits + lowest_bit(gone);
        if (v >= lo && v <= hi) visit_made_true(x, lit_ne, v, v, s);  // outside: the bounds' ranges above
      }
    }
}

void ExplainingSearch::Impl::notify(int x, std::uint8_t changes) {
  for (int j = dp.var_begin(x); j < dp.var_begin(x + 1); ++j)
    if (wake[std::size_t(j)] & changes) enqueue(dp.var_props(j));
}

ExplainingSearch::Impl::Scan ExplainingSearch::Impl::scan(const std::vector<Literal>& lits, const Store& s) const {
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

int ExplainingSearch::Impl::latest_true(int k, int but, const Store& s) const {
  const std::vector<Literal>& lits = clauses[std::size_t(k)].lits;
  int best_i = -1, best_e = INT32_MIN;
  for (std::size_t i = 0; i < lits.size(); ++i) {
    if (int(i) == but || literal_state(s, lits[i]) <= 0) continue;
    const int e = made_at(lits[i]);
    if (e > best_e) best_e = e, best_i = int(i);
  }
  return best_i;
}

void ExplainingSearch::Impl::settle_watches(int k, const Scan& r, const Store& s) {
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
    if (i != c.w[0] && i != c.w[1]) add_watch(k, i);
  };
  watch(a);
  if (b != a) watch(b);
  c.w[0] = a;
  c.w[1] = b;
}

void ExplainingSearch::Impl::commit_touched(std::int32_t reason, int from, int lit) {
  const Store s = store();
  for (int i = 0; i < touched_count; ++i) {
    const int x = touched_list[std::size_t(i)];
    touched_flag[std::size_t(x)] = 0;
    const auto xs = std::size_t(x);
    notify_clauses(x, s);  // before the saved domain becomes the new one: it tells what was made true
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
    notify(x, changes);
  }
  touched_count = 0;
}

void ExplainingSearch::Impl::restore_touched() {
  for (int i = 0; i < touched_count; ++i) {
    const auto x = std::size_t(touched_list[std::size_t(i)]);
    touched_flag[x] = 0;
    lb[x] = slb[x];
    ub[x] = sub[x];
    for (int w = 0; w < words_of[x]; ++w) bits[std::size_t(prog.bits_at[x] + w)] = sbits[std::size_t(prog.bits_at[x] + w)];
  }
  touched_count = 0;
}

bool ExplainingSearch::Impl::run_propagator(int q) {
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

bool ExplainingSearch::Impl::check_clause(int k) {
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

int ExplainingSearch::Impl::propagate(const volatile int* stop) {
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

void ExplainingSearch::Impl::check_fixpoint() {
  ++st.fixpoint_checks;
  const Store s = store();
  for (const Clause& c : clauses) {  // a clause left unit or false: its watches missed a change
    const Scan r = scan(c.lits, s);
    if (r.falsified < 0 && r.opens <= 1) {
      ++st.fixpoint_misses;
      return;
    }
  }
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

void ExplainingSearch::Impl::run(std::int64_t steps, const volatile int* stop, std::vector<std::vector<std::int32_t>>& solutions, std::vector<std::int32_t>& log) {
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
      const bool model_only =
          std::all_of(learned.begin(), learned.end(), [&](const Literal& l) { return l.var() < n_model; });
      if (int(learned.size()) <= opt.export_length && (model_only || opt.export_order_literals)) {
        append_to_log(log, learned, best);
        ++st.exported;
      }
      assert_clause(learned);
      var_inc /= 0.95;
      clause_inc /= 0.999;
      if (++conflicts_here >= double(luby(st.restarts + 1)) * double(std::max<std::int64_t>(1, opt.restart_base))) {
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
    solutions.emplace_back(lb.begin(), lb.begin() + n_model);
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

void ExplainingSearch::Impl::import(const std::vector<std::vector<Literal>>& nogoods) {
  for (const auto& g : nogoods) {
    if (g.empty() || known.count(nogood_hash(g))) continue;
    ++st.imported;
    const int k = add_clause(g);
    enqueue_clause(k);
    recheck.push_back(k);
  }
}
ExplainingSearch::ExplainingSearch(const Program& program, const ExplainOptions& options)
    : impl_(std::make_unique<Impl>(program, options)) {}
ExplainingSearch::~ExplainingSearch() = default;

void ExplainingSearch::run(std::int64_t steps, const volatile int* stop, std::vector<std::vector<std::int32_t>>& solutions,
                           std::vector<std::int32_t>& log) {
  impl_->run(steps, stop, solutions, log);
}
void ExplainingSearch::tighten(std::int64_t best) { impl_->pending = std::min(impl_->pending, best); }
void ExplainingSearch::guide(const std::vector<std::int32_t>& values) {
  if (values.size() != std::size_t(impl_->n_model)) return;
  impl_->guide_values = values;
  impl_->guide_order_literals();
  impl_->guided = true;
}
void ExplainingSearch::import(const std::vector<std::vector<Literal>>& nogoods) { impl_->import(nogoods); }
bool ExplainingSearch::complete() const { return impl_->proved; }
bool ExplainingSearch::finished() const { return impl_->done; }
std::int64_t ExplainingSearch::best() const { return impl_->best; }
const ExplainStats& ExplainingSearch::stats() const { return impl_->st; }

}  // namespace kcp
