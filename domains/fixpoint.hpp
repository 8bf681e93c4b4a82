// Propagation to a fixpoint (AC1: run every propagator until none changes the store or one fails),
// over the propagator families of a DeviceProgram: ternary, linear rows, and the listed families of
// domains/globals.hpp (element, the global constraints); and, when the caller passes one, the nogoods of a learned pool
// (domains/nogoods.hpp), one per lane like the ternary family.
//
// - serial_fixpoint: the Gauss-Seidel reference on one thread; every parallel fixpoint is tested
//   against it. Propagators are monotone, so all fair orders reach the same (greatest) fixpoint: the
//   team's interleaving, sorting the ternary propagators by op, and the warp-local variant change
//   the order, never the result.
// - team_fixpoint: one team. An iteration runs the families one after the other, with no barrier in
//   between (propagators of different families may run at once anyway; narrowing is atomic):
//   1. ternary: TeamThreadRange over chunks of `ternary_chunk` propagators (the vector length: 32
//      lanes of a CUDA warp), ThreadVectorRange inside a chunk, one lane per propagator. Each chunk
//      starts on a reconverged vector group: the portable form of Turbo's __syncwarp after each round
//      of its propagator loop (for_each_lane). (Two ablations of this loop were measured and retired
//      in session 36: lanes striding over a whole family without reconvergence, 0.97x, and a warp-local
//      fixpoint of each chunk; perf/README.md.)
//   2. rows of at most DeviceProgram's lane_row_terms terms: like the ternary family, one row per lane
//      (most rows of a model are reified comparisons of one or two terms); longer rows:
//      TeamThreadRange over them (one row per vector group), ThreadVectorRange over a row's terms (the
//      lanes reduce the row's sums together).
//   3. the listed families' constraints (element, then the global constraints): TeamThreadRange over
//      them, ThreadVectorRange inside.
//   Barriers: one team_barrier per iteration, after every thread has run its propagators, so that the
//   iteration's changed flag is complete before anyone reads it. The changed flags and the failed
//   flags rotate over three slots each: the slot for the next iteration is reset during this one, and
//   the slot just read is not written again until two barriers later, when every thread has read it.
//   (A single failed flag let a fast thread's failure in iteration k + 1 reach a slow thread still
//   reading iteration k's flags: that thread left the loop one barrier early. compute-sanitizer's
//   racecheck found it.)
#pragma once

#include "domains/lanes.hpp"
#include "domains/linear.hpp"
#include "domains/nogoods.hpp"
#include "domains/program.hpp"
#include "domains/store.hpp"
#include "domains/ternary.hpp"

#include <Kokkos_Core.hpp>

namespace kcp {

struct FixpointResult {
  bool failed = false;
  int iterations = 0;
  bool capped = false;  ///< stopped at FixpointOptions::max_iterations: sound, but not a fixpoint
  /// Propagator runs: every propagator per iteration for AC1, the queue's length for the event-driven
  /// fixpoint (a statistic: where a node's time goes, perf/NOTES.md entry 13).
  std::int64_t propagations = 0;
};

/// How team_fixpoint runs the ternary family; neither changes the fixpoint it reaches.
struct FixpointOptions {
  /// Ternary propagators per vector group and round: the launch's vector length, so that each lane
  /// runs one. Any positive value is correct.
  int ternary_chunk = 32;
  /// Stop after this many iterations (0: never). Bounds propagation around a cycle can take as many
  /// iterations as a domain has values; a capped node is simply branched on (every narrowing done so
  /// far is sound), which keeps kernel launches short enough for the time limit. A capped result is
  /// not a proof that a node with every variable fixed is a solution: the caller reruns it uncapped.
  int max_iterations = 0;
};

template <class MemorySpace, class Store>
KOKKOS_INLINE_FUNCTION FixpointResult serial_fixpoint(const DeviceProgram<MemorySpace>& program, const Store& s,
                                                      int max_iterations = 0,
                                                      const NogoodPool<MemorySpace>* pool = nullptr) {
  FixpointResult res;
  const SerialLanes lanes{};
  for (bool changed = true; changed;) {
    if (max_iterations > 0 && res.iterations >= max_iterations) {
      res.capped = true;
      return res;
    }
    ++res.iterations;
    const int num_nogoods = pool != nullptr ? pool->size() : 0;
    res.propagations += program.num_propagators() + num_nogoods;
    int st = prop_unchanged;
    for (int i = 0; i < program.num_ternary() && !(st & prop_failed); ++i) {
      st |= propagate_ternary(program.ternary(i), s);
    }
    for (int r = 0; r < program.rows.size() && !(st & prop_failed); ++r) {
      st |= propagate_linear(lanes, program.rows, r, s);
    }
    for (int id = program.global_first[0]; id < program.num_propagators() && !(st & prop_failed); ++id) {
      st |= program.propagate_global_id(lanes, id, s);
    }
    for (int k = 0; k < num_nogoods && !(st & prop_failed); ++k) st |= pool->propagate(k, s);
    if (st & prop_failed) {
      res.failed = true;
      return res;
    }
    changed = (st & prop_changed) != 0;
  }
  return res;
}

/// After a fixpoint that found no failure, on a shared store: two threads narrowing the two bounds of
/// one variable at once may each miss the other's write, so neither reports the wipe-out, and a
/// bound may be left on a value another thread removed at the same time (domains/store.hpp); this
/// final sweep catches both: prop_failed for an empty domain, prop_changed when a bound moved (the
/// fixpoint then goes on from that change). Every thread of the team calls it; all return the same.
template <class TeamMember, class Store>
KOKKOS_INLINE_FUNCTION int final_sweep(const TeamMember& team, const Store& s) {
  if constexpr (!Store::concurrent) {
    return prop_unchanged;
  } else {
    int st = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, static_cast<int>(0), s.size),
        [&](const int x, int& acc) { acc |= s.normalise(x); }, OrReducer<int>(st));
    return st;
  }
}

/// Number of ints of team scratch team_fixpoint needs for its flags: changed and failed, three of each.
constexpr int fixpoint_flag_count = 6;

/// g(begin, end) for consecutive chunks [begin, end) of [0, n), `chunk` long (the last may be
/// shorter), one chunk per vector group at a time (TeamThreadRange over the chunks).
template <class TeamMember, class G>
KOKKOS_INLINE_FUNCTION void for_each_chunk(const TeamMember& team, int n, int chunk, const G& g) {
  const int num_chunks = (n + chunk - 1) / chunk;
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_chunks), [&](const int c) {
    const int begin = c * chunk;
    g(begin, begin + chunk < n ? begin + chunk : n);
  });
}

/// f(i) for every i in [0, n), one index per lane of the team: TeamThreadRange over chunks,
/// ThreadVectorRange inside. Kokkos ends each vector loop with a __syncwarp on CUDA, so the chunks are
/// `chunk` long (the vector length: one index per lane) and each starts on a full vector group (Turbo
/// 1.1.3). One call site of f: f is a whole propagator family inlined, and a second copy cost 28
/// registers per thread (128 -> 156), one resident team per SM instead of two (perf/NOTES.md, entry 5).
template <class TeamMember, class F>
KOKKOS_INLINE_FUNCTION void for_each_lane(const TeamMember& team, int n, int chunk, const F& f) {
  for_each_chunk(team, n, chunk, [&](const int begin, const int end) {
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, begin, end), f);
  });
}

/// `watches` (null: none): the team's watched literals of the pool's nogoods (NogoodPool::propagate).
/// flags: fixpoint_flag_count ints shared by the team (team scratch). Every thread of the team must
/// call it; all return the same result.
template <class TeamMember, class MemorySpace, class Store>
KOKKOS_INLINE_FUNCTION FixpointResult team_fixpoint(const TeamMember& team, const DeviceProgram<MemorySpace>& program,
                                                    const Store& s, int* flags,
                                                    const FixpointOptions& options = {},
                                                    const NogoodPool<MemorySpace>* pool = nullptr,
                                                    std::int32_t* watches = nullptr) {
  // Changed flags in slots 0-2, failed flags in 3-5, both rotating: a thread that has read iteration
  // k's flags and gone on may set iteration k + 1's before a slower one reads iteration k's.
  constexpr int failed_base = 3;
  Kokkos::single(Kokkos::PerTeam(team), [&]() {
    for (int i = 0; i < fixpoint_flag_count; ++i) flags[i] = 0;
  });
  team.team_barrier();
  FixpointResult res;
  const VectorLanes<TeamMember> lanes{team};
  const int num_ternary = program.num_ternary();
  const int chunk = options.ternary_chunk > 0 ? options.ternary_chunk : 1;
  const int num_rows = program.rows.size();
  const int num_lane_rows = program.num_lane_rows;
  const int num_nogoods = pool != nullptr ? pool->size() : 0;
  int last = 0;
  for (;;) {
    if (res.iterations > 0) {
      // The iterations reached a fixpoint (or a failure, or the cap): sweep, and go on when it moved a
      // bound. Without bitsets the sweep can only find a wipe-out: it runs once, after the loop.
      if (!Store::holes || flags[failed_base + last]) break;
      const int swept = final_sweep(team, s);
      team.team_barrier();
      if (swept & prop_failed) {
        res.failed = true;
        return res;
      }
      if (res.capped || !(swept & prop_changed)) break;
      // The next iteration runs every propagator again; its slot's flags are reset as usual.
    }
  for (;;) {
    const int cur = res.iterations % 3;
    // Every writer stores the same value: the races are benign.
    auto report = [&](int st) {
      if (st & prop_changed) flags[cur] = 1;
      if (st & prop_failed) flags[failed_base + cur] = 1;
    };
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      flags[(res.iterations + 1) % 3] = 0;
      flags[failed_base + (res.iterations + 1) % 3] = 0;
    });
    for_each_lane(team, num_ternary, chunk, [&](const int i) { report(propagate_ternary(program.ternary(i), s)); });
    for_each_lane(team, num_lane_rows, chunk, [&](const int k) {
      report(propagate_linear(SerialLanes{}, program.rows, program.row_order(k), s));
    });
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_lane_rows, num_rows), [&](const int k) {
      report(propagate_linear(lanes, program.rows, program.row_order(k), s));
    });
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, program.global_first[0], program.num_propagators()),
                         [&](const int id) { report(program.propagate_global_id(lanes, id, s)); });
    if (num_nogoods > 0)
      for_each_lane(team, num_nogoods, chunk, [&](const int k) { report(pool->propagate(k, s, watches)); });
    team.team_barrier();
    ++res.iterations;
    res.propagations += program.num_propagators() + num_nogoods;
    last = cur;
    if (flags[failed_base + cur] || !flags[cur]) break;
    if (options.max_iterations > 0 && res.iterations >= options.max_iterations) {
      res.capped = true;
      break;
    }
  }
  }
  res.failed = flags[failed_base + last] != 0 || (!Store::holes && (final_sweep(team, s) & prop_failed));
  return res;
}

}  // namespace kcp

namespace kcp {

/// Per-team workspace of queue_fixpoint (global memory, zeroed once, clean between calls and kernel
/// launches), over P propagators (the program's, then room for a nogood pool's: ids past the
/// program's are nogoods) and n variables: two propagator queues, a queued flag per
/// propagator, a touched flag per variable, two touched lists, and counters (failed, two queue
/// sizes, two touched counts, two group-queue sizes). A queue holds the propagators that run on one
/// lane from its bottom up and those that run on a vector group (DeviceProgram::runs_on_group: rows
/// too long for a lane, group families' constraints) from its top down.
struct QueueWork {
  std::int32_t* data = nullptr;
  int num_props = 0, num_vars = 0;

  static KOKKOS_INLINE_FUNCTION std::size_t ints(int num_props, int num_vars) {
    return 3 * std::size_t(num_props) + 3 * std::size_t(num_vars) + 8;
  }
  KOKKOS_INLINE_FUNCTION std::int32_t* queue(int q) const { return data + std::size_t(q) * num_props; }
  KOKKOS_INLINE_FUNCTION std::int32_t* queued() const { return data + 2 * std::size_t(num_props); }
  KOKKOS_INLINE_FUNCTION std::int32_t* touched_flag() const { return data + 3 * std::size_t(num_props); }
  KOKKOS_INLINE_FUNCTION std::int32_t* touched_list(int t) const {
    return data + 3 * std::size_t(num_props) + std::size_t(1 + t) * num_vars;
  }
  KOKKOS_INLINE_FUNCTION int* counters() const { return data + 3 * std::size_t(num_props) + 3 * std::size_t(num_vars); }
};

/// s with change tracking into `work`'s touched list t.
template <class Store>
KOKKOS_INLINE_FUNCTION Store tracking(Store s, const QueueWork& work, int t) {
  s.touched_flag = work.touched_flag();
  s.touched_list = work.touched_list(t);
  s.touched_count = work.counters() + 3 + t;
  return s;
}

/// The store a queue_fixpoint caller narrows through between calls (decisions, the bound): its
/// changes are the next call's starting events.
template <class Store>
KOKKOS_INLINE_FUNCTION Store pending_events(const Store& s, const QueueWork& work) {
  return tracking(s, work, 0);
}

/// Runs propagator `id` of the ternary family, the rows or a lane family (ids below
/// program.group_first()) once.
template <class Lanes, class MemorySpace, class Store>
KOKKOS_INLINE_FUNCTION int propagate_local(const Lanes& lanes, const DeviceProgram<MemorySpace>& program, int id,
                                           const Store& s) {
  const int num_ternary = program.num_ternary();
  if (id < num_ternary) return propagate_ternary(program.ternary(id), s);
  if (id < program.global_first[0]) return propagate_linear(lanes, program.rows, id - num_ternary, s);
  return program.propagate_lane_id(lanes, id, s);
}

/// Runs propagator `id` (ternary, then rows, then the lane families; never a group family's
/// constraint, which runs on a vector group) on one lane.
template <class MemorySpace, class Store>
KOKKOS_INLINE_FUNCTION int propagate_one(const DeviceProgram<MemorySpace>& program, int id, const Store& s) {
  return propagate_local(SerialLanes{}, program, id, s);
}

/// Runs propagator `id` of any family once (the host's root fixpoint; on a team, group families and
/// long rows run on a vector group and the rest on one lane: see queue_fixpoint).
template <class Lanes, class MemorySpace, class Store>
KOKKOS_INLINE_FUNCTION int propagate_any(const Lanes& lanes, const DeviceProgram<MemorySpace>& program, int id,
                                         const Store& s) {
  return id >= program.group_first() ? program.propagate_group_id(lanes, id, s)
                                     : propagate_local(lanes, program, id, s);
}

/// queue_fixpoint's counters in the workspace (QueueWork::counters) and the sizes it uses. Queue sizes and
/// touched counts rotate over two slots.
struct QueueCounters {
  int* failed;
  int* qsize;   ///< [2]: entries at the bottom of each queue (one lane each)
  int* tcount;  ///< [2]: variables in each touched list; pending events are in list 0
  int* gsize;   ///< [2]: entries at the top of each queue (a vector group each)
  int top;      ///< the queue's length: group entries fill it from the top down
  int num_props;
  int num_nogoods;
};

/// With `full`: every propagator into queue 0, the ternary ones, rows for one lane and the lane
/// families' at the bottom, the long rows and the group families' at the top.
template <class TeamMember, class MemorySpace>
KOKKOS_INLINE_FUNCTION void queue_every_propagator(const TeamMember& team, const DeviceProgram<MemorySpace>& program,
                                                   const QueueWork& work, const QueueCounters& c) {
  const int num_props = c.num_props, top = c.top;
  const int num_ternary = program.num_ternary();
  const int num_rows = program.rows.size();
  const int num_group_rows = num_rows - program.num_lane_rows;
  const int num_group = num_group_rows + program.num_group_globals();
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_props), [&](const int i) {
    const int lane_end = num_ternary + program.num_lane_rows;
    const int from_top = num_props - 1 - i;
    std::int32_t id;
    if (i < num_ternary) {
      id = i;
    } else if (i < lane_end) {
      id = num_ternary + program.row_order(i - num_ternary);
    } else if (i < num_props - num_group) {
      id = num_ternary + num_rows + (i - lane_end);
    } else if (from_top < num_group_rows) {
      id = num_ternary + program.row_order(program.num_lane_rows + from_top);
    } else {
      id = program.group_first() + (from_top - num_group_rows);
    }
    work.queue(0)[i < num_props - num_group ? i : top - 1 - from_top] = id;
  });
}

/// (B) of an iteration: the variables of touched list t into queue q, each propagator (and nogood) that
/// reads their kinds of change once (a queued flag; group ones from the top down), their touched flags
/// cleared. Without `schedule` (every propagator is queued already) only the flags are cleared.
template <class TeamMember, class MemorySpace, class Store>
KOKKOS_INLINE_FUNCTION void schedule_events(const TeamMember& team, const DeviceProgram<MemorySpace>& program,
                                            const Store& s, const QueueWork& work, const QueueCounters& c,
                                            const NogoodPool<MemorySpace>* pool, std::int32_t* watches, int t, int q,
                                            bool schedule) {
  int* const qsize = c.qsize;
  int* const gsize = c.gsize;
  const int top = c.top, num_props = c.num_props, num_nogoods = c.num_nogoods;
  const std::int32_t* list = work.touched_list(t);
  const auto enqueue = [&](const std::int32_t p, const bool group) {
    if constexpr (Store::concurrent) {
      if (Kokkos::atomic_exchange(&work.queued()[p], 1) == 0) {
        if (group) {
          work.queue(q)[top - 1 - Kokkos::atomic_fetch_add(&gsize[q], 1)] = p;
        } else {
          work.queue(q)[Kokkos::atomic_fetch_add(&qsize[q], 1)] = p;
        }
      }
    } else {
      if (work.queued()[p] == 0) {
        work.queued()[p] = 1;
        if (group) {
          work.queue(q)[top - 1 - gsize[q]++] = p;
        } else {
          work.queue(q)[qsize[q]++] = p;
        }
      }
    }
  };
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, c.tcount[t]), [&](const int k) {
    const int x = list[k];
    const std::int32_t touched = work.touched_flag()[x];
    work.touched_flag()[x] = 0;
    if (!schedule) return;
    // A variable left free wakes only the propagators that read its kinds of change (program.hpp's
    // Wake); a bounds-only store runs them all (a != row over a bounds-only variable is no Wake::fixed).
    const int begin = program.wake_from(x, !Store::holes || s.fixed(x), touched);
    const int end = program.var_begin(x + 1);
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, begin, end), [&](const int j) {
      const std::int32_t p = program.var_props(j);
      enqueue(p, program.runs_on_group(p));
    });
    if (num_nogoods > 0)
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, pool->watch_first(x), pool->watch_end(x)),
                           [&](const int j) {
                             const int k = pool->woken(j, s, watches);
                             if (k >= 0) enqueue(num_props + k, false);
                           });
  });
}

/// (A) of an iteration: queue q's `size` lane entries (one propagator or nogood per lane) and
/// `group_size` group entries (a long row or a global on a vector group) run on `st`, which records
/// their changes; a failure sets *c.failed.
template <class TeamMember, class MemorySpace, class Store>
KOKKOS_INLINE_FUNCTION void run_queue(const TeamMember& team, const DeviceProgram<MemorySpace>& program, const Store& st,
                                      const QueueWork& work, const QueueCounters& c, const NogoodPool<MemorySpace>* pool,
                                      std::int32_t* watches, int q, int size, int group_size, int chunk) {
  int* const failed = c.failed;
  const int num_props = c.num_props, top = c.top;
  const int num_ternary = program.num_ternary();
  const std::int32_t* queue = work.queue(q);
  for_each_lane(team, size, chunk, [&](const int k) {
    const std::int32_t p = queue[k];
    work.queued()[p] = 0;
    if ((p < num_props ? propagate_one(program, p, st) : pool->propagate(p - num_props, st, watches)) & prop_failed) *failed = 1;
  });
  const VectorLanes<TeamMember> lanes{team};
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, group_size), [&](const int k) {
    const std::int32_t p = queue[top - 1 - k];
    Kokkos::single(Kokkos::PerThread(team), [&]() { work.queued()[p] = 0; });
    const int status = p >= program.group_first() ? program.propagate_group_id(lanes, p, st)
                                                  : propagate_linear(lanes, program.rows, p - num_ternary, st);
    if (status & prop_failed) *failed = 1;
  });
}

/// Clears the touched flags of list t's variables (the events a failure left). The caller puts a barrier
/// after it.
template <class TeamMember>
KOKKOS_INLINE_FUNCTION void clear_touched(const TeamMember& team, const QueueWork& work, const QueueCounters& c, int t) {
  const std::int32_t* left = work.touched_list(t);
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, c.tcount[t]), [&](const int k) { work.touched_flag()[left[k]] = 0; });
}

/// Event-driven fixpoint of one team: each iteration runs only the propagators (and the nogoods of
/// `pool`, when given) that read a variable changed in the previous one, one propagator per lane (TeamThreadRange over chunks of
/// `ternary_chunk` queue entries, ThreadVectorRange inside). The store must be a fixpoint except for
/// the changes made through pending_events(s, work) since then (the events), unless `full`:
/// then every propagator runs in the first iteration; the nogoods from `nogoods_from` on do too (the
/// store is a fixpoint of the program and of the pool's first nogoods only). With `watches` (the team's
/// watched literals, NogoodPool::woken), a changed variable wakes only the nogoods watching it there. Reaches the same fixpoint as serial_fixpoint.
///
/// Iteration, with two barriers: (B) the variables touched so far are turned into the queue, each
/// propagator once (a queued flag), and their touched flags cleared (schedule_events); (A) the queue
/// runs, its narrowings touching variables into the other touched list (run_queue). Queue sizes and
/// touched counts rotate over two slots, each reset one phase after its last reader.
/// On exit the workspace is clean: no touched variable, no queued propagator.
template <class TeamMember, class MemorySpace, class Store>
KOKKOS_INLINE_FUNCTION FixpointResult queue_fixpoint(const TeamMember& team, const DeviceProgram<MemorySpace>& program,
                                                     const Store& s, const QueueWork& work,
                                                     const FixpointOptions& options, bool full,
                                                     const NogoodPool<MemorySpace>* pool = nullptr,
                                                     int nogoods_from = 0, std::int32_t* watches = nullptr) {
  const int num_props = program.num_propagators();
  const int num_nogoods = pool != nullptr ? pool->size() : 0;
  const QueueCounters c{work.counters(),     work.counters() + 1, work.counters() + 3, work.counters() + 5,
                        work.num_props, num_props,           num_nogoods};
  int* const failed = c.failed;
  int* const qsize = c.qsize;
  int* const tcount = c.tcount;
  int* const gsize = c.gsize;
  const int chunk = options.ternary_chunk > 0 ? options.ternary_chunk : 1;
  const int top = c.top;
  const int first_nogood = full ? 0 : nogoods_from < num_nogoods ? nogoods_from : num_nogoods;
  const int initial_nogoods = num_nogoods - first_nogood;
  FixpointResult res;
  int q = 0, t = 0;
  const int num_group = program.rows.size() - program.num_lane_rows + program.num_group_globals();
  Kokkos::single(Kokkos::PerTeam(team), [&]() {
    *failed = 0;
    qsize[0] = (full ? num_props - num_group : 0) + initial_nogoods;
    gsize[0] = full ? num_group : 0;
    qsize[1] = 0;
    gsize[1] = 0;
  });
  if (full) queue_every_propagator(team, program, work, c);
  if (initial_nogoods > 0) {
    // After the lane propagators; queued, so that the first events do not queue them again.
    const int at = full ? num_props - num_group : 0;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, initial_nogoods), [&](const int k) {
      work.queue(0)[at + k] = num_props + first_nogood + k;
      work.queued()[num_props + first_nogood + k] = 1;
    });
  }
  team.team_barrier();
  for (bool first = true;; first = false) {
    // (B) events of list t into queue q (when every propagator is queued already, only clear them).
    schedule_events(team, program, s, work, c, pool, watches, t, q, !(full && first));
    Kokkos::single(Kokkos::PerTeam(team), [&]() { tcount[t ^ 1] = 0; });
    team.team_barrier();
    const int size = qsize[q];
    const int group_size = gsize[q];
    if (size == 0 && group_size == 0) {
      // A fixpoint, unless racing threads left something for the final sweep: a wipe-out (fail) or a
      // bound on a removed value (moved now, its events into the empty list t ^ 1, which the next
      // pass schedules). Without bitsets it can only find a wipe-out: it runs after the loop.
      if constexpr (!Store::holes) break;
      const int swept = final_sweep(team, tracking(s, work, t ^ 1));
      team.team_barrier();
      if (swept & prop_failed) {
        Kokkos::single(Kokkos::PerTeam(team), [&]() { *failed = 1; });
        t ^= 1;
        team.team_barrier();
        clear_touched(team, work, c, t);
        team.team_barrier();
        break;
      }
      if (!(swept & prop_changed)) break;
      t ^= 1;
      continue;
    }
    if (options.max_iterations > 0 && res.iterations >= options.max_iterations) {
      // Capped: the queued propagators stay unrun; unqueue them so the workspace is clean.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, size),
                           [&](const int k) { work.queued()[work.queue(q)[k]] = 0; });
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, group_size),
                           [&](const int k) { work.queued()[work.queue(q)[top - 1 - k]] = 0; });
      res.capped = true;
      team.team_barrier();
      // A capped node is branched on: it must not hide a wipe-out (its moved bounds need no events:
      // the next fixpoint after a capped one runs every propagator).
      if constexpr (Store::holes) {
        if (final_sweep(team, s) & prop_failed) Kokkos::single(Kokkos::PerTeam(team), [&]() { *failed = 1; });
        team.team_barrier();
      }
      break;
    }
    // (A) run queue q; changes go to touched list t ^ 1.
    run_queue(team, program, tracking(s, work, t ^ 1), work, c, pool, watches, q, size, group_size, chunk);
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      qsize[q ^ 1] = 0;
      gsize[q ^ 1] = 0;
    });
    team.team_barrier();
    ++res.iterations;
    res.propagations += size + group_size;
    q ^= 1;
    t ^= 1;
    if (*failed) {
      // Clear the events the failed iteration left.
      clear_touched(team, work, c, t);
      team.team_barrier();
      break;
    }
  }
  // Both touched lists are empty; pending events of the next call go to list 0.
  Kokkos::single(Kokkos::PerTeam(team), [&]() {
    tcount[0] = 0;
    tcount[1] = 0;
  });
  res.failed = *failed != 0 || (!Store::holes && (final_sweep(team, s) & prop_failed));
  team.team_barrier();
  return res;
}

}  // namespace kcp
