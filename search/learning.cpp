// The host's nogood store (search/learning.hpp).
#include "search/learning.hpp"

#include <algorithm>
#include <numeric>

namespace kcp {

bool NogoodStore::minimise(std::vector<Literal>& lits) const {
  std::sort(lits.begin(), lits.end(), [](const Literal& a, const Literal& b) {
    return a.var_op != b.var_op ? a.var_op < b.var_op : a.value < b.value;
  });
  std::vector<Literal> out;
  for (std::size_t i = 0; i < lits.size();) {
    const int x = lits[i].var();
    // The literals on x together: x in [lo, hi] (x = v: lo = hi = v), minus the values `ne`.
    std::int64_t lo = lb_[std::size_t(x)], hi = ub_[std::size_t(x)];
    std::vector<std::int32_t> ne;
    bool eq = false;
    for (; i < lits.size() && lits[i].var() == x; ++i) {
      const std::int64_t v = lits[i].value;
      switch (lits[i].op()) {
        case lit_eq:
          if (eq && v != lo) return false;  // x = a and x = b: never all true
          eq = true;
          lo = std::max(lo, v);
          hi = std::min(hi, v);
          break;
        case lit_ne: ne.push_back(lits[i].value); break;
        case lit_le: hi = std::min(hi, v); break;
        default: lo = std::max(lo, v); break;
      }
    }
    // Values removed at either end tighten the interval.
    std::sort(ne.begin(), ne.end());
    ne.erase(std::unique(ne.begin(), ne.end()), ne.end());
    while (lo <= hi && std::binary_search(ne.begin(), ne.end(), std::int32_t(lo))) ++lo;
    while (lo <= hi && std::binary_search(ne.begin(), ne.end(), std::int32_t(hi))) --hi;
    if (lo > hi) return false;  // the literals on x contradict each other (or the root): never all true
    if (lo == hi) {  // x = lo (true at the root when the root fixes x)
      if (lb_[std::size_t(x)] != ub_[std::size_t(x)]) out.push_back(Literal::make(x, lit_eq, static_cast<std::int32_t>(lo)));
      continue;
    }
    if (lo > lb_[std::size_t(x)]) out.push_back(Literal::make(x, lit_ge, static_cast<std::int32_t>(lo)));
    if (hi < ub_[std::size_t(x)]) out.push_back(Literal::make(x, lit_le, static_cast<std::int32_t>(hi)));
    for (const std::int32_t v : ne)
      if (v > lo && v < hi) out.push_back(Literal::make(x, lit_ne, v));
  }
  lits.swap(out);
  return true;
}

void NogoodStore::absorb(const std::int32_t* data, std::int64_t ints) {
  for_each_in_log(data, ints, [&](const std::vector<Literal>& lits, std::int64_t bound) {
    HostNogood g;
    g.bound = bound;
    g.born = round_;
    g.lits = lits;
    if (!minimise(g.lits)) {
      ++dropped;
      return;
    }
    if (g.lits.empty()) {
      // No solution below g.bound at all.
      if (!proved_ || g.bound < proof_bound_) proof_bound_ = g.bound;
      proved_ = true;
      return;
    }
    if (int(g.lits.size()) > max_length_ || !seen_.insert(nogood_hash(g.lits)).second) {
      ++dropped;  // too long, or held already
      return;
    }
    ++learned;
    if (on_learned) on_learned(g);
    kept_.push_back(std::move(g));
    ++generation_;
  });
}

void NogoodStore::add_activity(const std::int32_t* activity, int count) {
  for (int k = 0; k < count && k < size(); ++k) {
    kept_[std::size_t(k)].activity += activity[2 * k] + activity[2 * k + 1];
    propagations += activity[2 * k];
    failures += activity[2 * k + 1];
  }
}

void NogoodStore::end_round() {
  ++round_;
  if (size() <= capacity_) return;
  // Keep the most active half of the pool (ties: the shorter, then the newer); this round's stay.
  std::vector<std::size_t> order(kept_.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const HostNogood &p = kept_[a], &q = kept_[b];
    const bool pn = p.born + 1 >= round_, qn = q.born + 1 >= round_;
    if (pn != qn) return pn;
    if (p.activity != q.activity) return p.activity > q.activity;
    if (p.lits.size() != q.lits.size()) return p.lits.size() < q.lits.size();
    return p.born > q.born;
  });
  const std::size_t keep = std::size_t(capacity_) / 2;
  std::vector<HostNogood> next;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (i < keep) {
      next.push_back(std::move(kept_[order[i]]));
    } else {
      ++deleted;
    }
  }
  kept_.swap(next);
  ++generation_;
  ++epoch_;
}

void NogoodStore::layout(int n, std::vector<std::int32_t>& begin, std::vector<Literal>& lits,
                         std::vector<std::int32_t>& watch_begin, std::vector<std::int32_t>& watch,
                         std::vector<std::int32_t>& watch_nogood) const {
  const int count = std::min(size(), capacity_);
  begin.assign(1, 0);
  lits.clear();
  std::vector<std::int32_t> per_var(std::size_t(n) + 1, 0);
  for (int k = 0; k < count; ++k) {
    for (const Literal& l : kept_[std::size_t(k)].lits) {
      lits.push_back(l);
      ++per_var[std::size_t(l.var()) + 1];
    }
    begin.push_back(static_cast<std::int32_t>(lits.size()));
  }
  for (int x = 0; x < n; ++x) per_var[std::size_t(x) + 1] += per_var[std::size_t(x)];
  watch_begin = per_var;
  watch.assign(lits.size(), 0);
  watch_nogood.assign(lits.size(), 0);
  std::vector<std::int32_t> fill(per_var.begin(), per_var.end() - 1);
  for (int k = 0; k < count; ++k) {
    for (int i = begin[std::size_t(k)]; i < begin[std::size_t(k) + 1]; ++i) {
      const auto at = std::size_t(fill[std::size_t(lits[std::size_t(i)].var())]++);
      watch[at] = i;
      watch_nogood[at] = k;
    }
  }
}

}  // namespace kcp
