// The explaining search (search/explain.hpp): a variable's domain at a trail position, explanations by
// deletion, conflict analysis (1-UIP), the clause database and decisions.
#include "search/explain_impl.hpp"

#include <algorithm>
#include <queue>
#include <unordered_map>

namespace kcp {

ExplainingSearch::Impl::Dom ExplainingSearch::Impl::domain_before(int x, int pos) const {
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

void ExplainingSearch::Impl::box_literals(int x, const Dom& d, std::vector<Literal>& out) const {
  const auto xs = std::size_t(x);
  if (d.lo > r0lb[xs]) out.push_back(Literal::make(x, lit_ge, static_cast<std::int32_t>(d.lo)));
  if (d.hi < r0ub[xs]) out.push_back(Literal::make(x, lit_le, static_cast<std::int32_t>(d.hi)));
  if (words_of[xs] > 0)
    for (std::int64_t v = d.lo + 1; v < d.hi; ++v)
      if (!bit(d.words.data(), x, v) && in_root(x, v)) out.push_back(Literal::make(x, lit_ne, static_cast<std::int32_t>(v)));
}

int ExplainingSearch::Impl::bound_entry(int x, bool lower, std::int64_t a) const {
  int e = lower ? last_lb[std::size_t(x)] : last_ub[std::size_t(x)];
  const auto holds = [&](std::int64_t v) { return lower ? v >= a : v <= a; };
  if (e < 0 || !holds(trail[std::size_t(e)].new_v)) return -1;
  while (trail[std::size_t(e)].prev >= 0 && holds(trail[std::size_t(trail[std::size_t(e)].prev)].new_v)) e = trail[std::size_t(e)].prev;
  return holds(trail[std::size_t(e)].old_v) ? -1 : e;
}

int ExplainingSearch::Impl::entry_of(const Literal& l) const {
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

bool ExplainingSearch::Impl::derives(int q, const std::vector<Literal>& cand, const std::vector<char>& keep, const std::vector<Literal>& targets) {
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

void ExplainingSearch::Impl::load_scratch(const std::vector<Literal>& cand, const std::vector<char>& keep) {
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

bool ExplainingSearch::Impl::family_keep(int q, const std::vector<Literal>& cand, std::vector<Literal>& lifted,
                                         const std::vector<int>& group, const std::vector<Literal>& targets,
                                         std::vector<char>& keep, std::vector<char>& keep_box) {
  if (q < dp.global_first[0]) return false;
  ReasonTarget target;
  for (const Literal& l : targets) {
    if (l.var() != targets[0].var()) return false;
    if (l.op() == lit_ge) target.lo = std::max<std::int64_t>(target.lo, l.value);
    else if (l.op() == lit_le) target.hi = std::min<std::int64_t>(target.hi, l.value);
    else target.bounds_only = false;
  }
  target.var = targets.empty() ? -1 : targets[0].var();
  const int f = dp.family_of(q), c = q - dp.global_first[f];
  const Store x = scratch();
  std::fill(keep.begin(), keep.end(), 1);
  load_scratch(cand, keep);
  const auto reached = [&]() {
    return std::all_of(targets.begin(), targets.end(), [&](const Literal& l) { return literal_state(x, l) > 0; });
  };
  // in[j]: the constraint's j-th variable is a reason, 1 at lo/hi, 2 at the box's (FamilyDefaults::reasons).
  std::vector<char> in;
  std::vector<std::int64_t> lo, hi;
  bool found = false;
  for_each_family_view(dp.global, [&](auto family, const auto& view, int g) {
    if (g == f) found = decltype(family)::reasons(view, c, x, target, reached, in, lo, hi);
  });
  reset_scope(q);
  if (!found) return false;
  // Group k holds the literals of the scope's k-th variable (the scope in increasing variable order).
  const auto first = scope_vars.begin() + scope_begin[std::size_t(q)], last = scope_vars.begin() + scope_begin[std::size_t(q) + 1];
  const FamilyTable& t = prog.global[std::size_t(f)];
  lifted = cand;
  std::fill(keep.begin(), keep.end(), 0);
  std::fill(keep_box.begin(), keep_box.end(), 0);
  for (std::size_t j = 0; j < in.size(); ++j) {
    if (!in[j]) continue;
    const int y = t.var(c, int(j));
    const auto k = std::size_t(std::lower_bound(first, last, y) - first);
    for (int i = group[k]; i < group[k + 1]; ++i) {
      keep_box[std::size_t(i)] = 1;
      if (in[j] != 1) continue;
      keep[std::size_t(i)] = 1;
      // The hook's bound where it gives one (else the root's: not needed), never stronger than the box's.
      Literal& l = lifted[std::size_t(i)];
      const auto ys = std::size_t(y);
      if (l.op() == lit_ge && lo[j] < l.value) l.value = static_cast<std::int32_t>(std::max<std::int64_t>(lo[j], r0lb[ys]));
      else if (l.op() == lit_le && hi[j] > l.value) l.value = static_cast<std::int32_t>(std::min<std::int64_t>(hi[j], r0ub[ys]));
    }
  }
  return true;
}

std::vector<Literal> ExplainingSearch::Impl::explain_box(int q, int from, const std::vector<Literal>& targets) {
  std::vector<Literal> cand;
  std::vector<int> group{0};
  const int b = scope_begin[std::size_t(q)], e = scope_begin[std::size_t(q) + 1];
  for (int j = b; j < e; ++j) {
    const int y = scope_vars[std::size_t(j)];
    box_literals(y, domain_before(y, from), cand);
    group.push_back(static_cast<int>(cand.size()));
  }
  if (cand.empty() || int(cand.size()) > opt.max_minimise_literals) return cand;
  std::vector<char> keep(cand.size(), 1), keep_box(cand.size(), 1);
  // A family's own reasons first, checked by one run (else the generic minimisation from the box): with
  // the bounds it lifts, else with the box's.
  std::vector<Literal> lifted;
  if (family_keep(q, cand, lifted, group, targets, keep, keep_box)) {
    // The box's alone when nothing was lifted.
    const bool none = std::none_of(keep.begin(), keep.end(), [](char k) { return k != 0; });
    for (int k = none || (lifted == cand && keep == keep_box) ? 1 : 0; k < 2; ++k) {
      const std::vector<Literal>& from = k == 0 ? lifted : cand;
      const std::vector<char>& kept = k == 0 ? keep : keep_box;
      if (!derives(q, from, kept, targets)) continue;
      ++st.family_explanations;
      if (k == 0) ++st.lifted_explanations;
      std::vector<Literal> out;
      for (std::size_t i = 0; i < from.size(); ++i)
        if (kept[i]) out.push_back(from[i]);
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

std::vector<Literal> ExplainingSearch::Impl::explain_entry(int e, const std::vector<Literal>& targets) {
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

ExplainingSearch::Impl::Analysis ExplainingSearch::Impl::analyse(std::vector<Literal>& learned, int& back, const volatile int* stop) {
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

void ExplainingSearch::Impl::merge(std::vector<Literal>& lits) {
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

bool ExplainingSearch::Impl::subsumed_by(const Literal& u, const Literal& l) {
  if (u.var_op != l.var_op) return false;
  switch (l.op()) {
    case lit_ge: return u.value >= l.value;
    case lit_le: return u.value <= l.value;
    default: return u.value == l.value;
  }
}

void ExplainingSearch::Impl::backjump(int to) {
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

int ExplainingSearch::Impl::add_clause(std::vector<Literal> lits) {
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

void ExplainingSearch::Impl::reduce() {
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

bool ExplainingSearch::Impl::decide() {
  // The machines' order literals first, the most active (a scan: a few thousand at most, cheap beside
  // the explanations' runs), then VSIDS's heap of the model's variables.
  int x = -1;
  for (int y = n_model; y < n; ++y)
    if (!fixed(y) && (x < 0 || activity[std::size_t(y)] > activity[std::size_t(x)])) x = y;
  if (x < 0) {
    while (!heap.empty() && fixed(heap[0])) heap_pop();
    if (heap.empty()) return false;
    x = heap_pop();
  }
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

bool ExplainingSearch::Impl::apply_bound() {
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

int ExplainingSearch::Impl::assert_clause(const std::vector<Literal>& lits) {
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

}  // namespace kcp
