#pragma once
// The event-driven fixpoint of a whole program on the host, one propagator at a time: the root
// fixpoint of preprocessing (solver/preprocess.cpp) and of the search's set-up (search/driver/setup.hpp).
// A propagator runs again only when one of its variables changed; propagators are monotone, so this
// reaches the same fixpoint as AC1's serial_fixpoint (domains/fixpoint.hpp), which reruns every
// propagator until none changes anything: on the 90 MB benchmark instance 214 sweeps over 550,000
// rows, 3 s instead of a fraction of one; on pentominoes_02's 720 tables with bitsets 1.6 s of the
// search's set-up (perf/NOTES.md entry 49). tests/solver/test_root_fixpoint.cpp checks that AC1
// changes nothing after it.

#include <chrono>
#include <cstdint>
#include <vector>

#include "domains/fixpoint.hpp"
#include "domains/program.hpp"

namespace kcp {

struct RootFixpointResult {
  bool failed = false;
  bool stopped = false;           ///< the deadline came first, or max_propagations: sound, not a fixpoint
  std::int64_t propagations = 0;  ///< propagator runs
};

/// Narrows `s` (a store over `p`'s variables; `d` is `p` uploaded to the host) to the fixpoint of all of
/// p's propagators. At `deadline` (looked at every 4,096 propagator runs) or after `max_propagations`
/// runs (0: no limit) it stops early: `s` is then narrowed only partly, which is sound. When it fails,
/// `s` holds whatever it left.
inline RootFixpointResult event_fixpoint(
    const Program& p, const DeviceProgram<Kokkos::HostSpace>& d, StoreRef<false> s,
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max(),
    std::int64_t max_propagations = 0) {
  const auto n = static_cast<std::size_t>(p.num_vars());
  std::vector<std::int32_t> touched_flag(n, 0), touched_list(n);
  int touched_count = 0;
  s.touched_flag = touched_flag.data();
  s.touched_list = touched_list.data();
  s.touched_count = &touched_count;
  const int np = p.num_propagators();
  // For each variable the propagators that read it (ids as DeviceProgram numbers them).
  std::vector<std::int32_t> watch_begin, watchers;
  propagators_of_variables(p, watch_begin, watchers);

  // A FIFO ring holding each propagator at most once; everything starts in it.
  std::vector<int> queue(static_cast<std::size_t>(np));
  for (int id = 0; id < np; ++id) queue[static_cast<std::size_t>(id)] = id;
  std::vector<char> queued(static_cast<std::size_t>(np), 1);
  std::size_t head = 0, size = static_cast<std::size_t>(np);
  const SerialLanes lanes{};
  RootFixpointResult res;
  while (size > 0) {
    if ((max_propagations > 0 && res.propagations >= max_propagations) ||
        ((res.propagations & 4095) == 4095 && std::chrono::steady_clock::now() >= deadline)) {
      res.stopped = true;
      return res;
    }
    const int id = queue[head];
    head = head + 1 == queue.size() ? 0 : head + 1;
    --size;
    queued[static_cast<std::size_t>(id)] = 0;
    ++res.propagations;
    touched_count = 0;
    const int st = propagate_any(lanes, d, id, s);
    for (int k = 0; k < touched_count; ++k) touched_flag[static_cast<std::size_t>(touched_list[static_cast<std::size_t>(k)])] = 0;
    if (st & prop_failed) {
      res.failed = true;
      return res;
    }
    for (int k = 0; k < touched_count; ++k) {
      const int x = touched_list[static_cast<std::size_t>(k)];
      if (s.min(x) > s.max(x)) {
        res.failed = true;
        return res;
      }
      // Every propagator of x runs again, this one included: propagators need not be idempotent.
      for (int w = watch_begin[static_cast<std::size_t>(x)]; w < watch_begin[static_cast<std::size_t>(x) + 1]; ++w) {
        const int q = watchers[static_cast<std::size_t>(w)];
        if (queued[static_cast<std::size_t>(q)]) continue;
        queued[static_cast<std::size_t>(q)] = 1;
        std::size_t tail = head + size;
        if (tail >= queue.size()) tail -= queue.size();
        queue[tail] = q;
        ++size;
      }
    }
  }
  return res;
}

}  // namespace kcp
