// The fleet: one search state and its kernel (search/parallel_search.hpp) on one execution space,
// launched in bounded slices by the run loop (search/driver/run_loop.hpp) through the Searcher
// interface; make_searcher picks the kernel's instance (concurrent narrowing, bitsets) the program and
// the team shape need.
#pragma once

#include "search/driver/searcher.hpp"
#include "search/driver/setup.hpp"
#include "search/parallel_search.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kcp::driver {

/// The teams a fleet runs: SearchOptions::teams, else the backend's default, fewer where the searcher
/// would run the event-driven queue (queue_wanted, as SliceSearcher decides it) but the default teams'
/// workspaces do not fit its budget (queue_fitted_teams). The workspace counts a pool's room whatever the
/// learning, so that every caller (the searcher, a distributed search's split) gets the same number.
template <class ExecSpace>
int fleet_teams(const Program& program, const SearchOptions& options, const LaunchParams& lp) {
  if (options.teams > 0) return options.teams;
  const int teams = default_teams<ExecSpace>(lp);
  const int n = program.num_vars();
  const double bytes =
      double(QueueWork::ints(program.num_propagators() + std::max(1, options.nogood_capacity), n)) * sizeof(std::int32_t);
  if (double(teams) * bytes <= queue_work_budget_bytes) return teams;
  // SliceSearcher's choice needs the reads per variable of the program it builds.
  const bool one_thread = lp.team_size * lp.vector_length == 1;
  double reads = 0;
  if (!one_thread && n > 0) {
    std::vector<std::int32_t> begin, props;
    propagators_of_variables(program, begin, props);
    reads = double(props.size()) / n;
  }
  return queue_wanted(options.fixpoint_mode, one_thread, reads) ? queue_fitted_teams(teams, bytes) : teams;
}

/// Refuses a requested team shape the search kernel cannot run on ExecSpace, naming the option (Kokkos
/// aborts on a team it cannot run): a vector length beyond the backend's, or more threads a team than
/// max_team() (asked only once the vector length is known to be valid) allows at that vector length.
template <class ExecSpace, class MaxTeam>
void refuse_unrunnable_shape(const LaunchParams& lp, const MaxTeam& max_team) {
  using Policy = Kokkos::TeamPolicy<ExecSpace, SearchLaunchBounds>;
  if (lp.vector_length > Policy::vector_length_max())
    throw std::invalid_argument("--vector-length " + std::to_string(lp.vector_length) + " on " + ExecSpace::name() +
                                ": at most " + std::to_string(Policy::vector_length_max()));
  const int most = max_team();
  if (lp.team_size > most)
    throw std::invalid_argument("--team-size " + std::to_string(lp.team_size) + " on " + ExecSpace::name() +
                                ": at most " + std::to_string(most) + " threads per team here (vector length " +
                                std::to_string(lp.vector_length) + ")");
}

template <class ExecSpace, bool Concurrent, bool Holes>
class SliceSearcher final : public Searcher {
  using Memory = typename ExecSpace::memory_space;
  using Kernel = ParallelSearch<ExecSpace, Concurrent, Holes>;
  using Policy = Kokkos::TeamPolicy<ExecSpace, SearchLaunchBounds>;
  /// Whether the host reads the state where it is (no copies, no global fences: a host searcher
  /// beside a GPU must not wait for the GPU's slice).
  static constexpr bool host_state = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible;

 public:
  /// `helper`: free rows only, for the host beside another searcher that runs the complete search.
  SliceSearcher(const Program& original, const SearchOptions& options, const LaunchParams& lp, bool helper)
      : options_(options), helper_(helper), policy_(1, 1) {
    const auto start = Clock::now();
    SearchReport& report = setup;
    shape_fleet(original, options, lp, helper);
    const int rows = rows_.total();

    Kokkos::Profiling::pushRegion("kcp::search::setup");
    // The program the kernel runs: the ternary propagators sorted by op (an option), the root store
    // replaced by its fixpoint. Built once on the host (the root fixpoint runs there), then copied to
    // Memory (shared on a CPU).
    Program program = original;
    if (options.sort_propagators) sort_ternary_by_op(program);
    give_search_bitsets(program, options);
    report.bitset_vars = program.num_bitset_vars();
    report.bounds_only_vars = program.num_bounds_only_vars();
    DeviceProgram<Kokkos::HostSpace> host(program, options.lane_row_terms);
    const bool root_fixpoint = root_to_fixpoint(program, host, options.max_fixpoint_iterations, options.time_limit_s);
    n_ = program.num_vars();
    const int words = static_cast<int>(program.bits.size());
    if (!Holes && words > 0) throw std::logic_error("kcp: a program with bitsets in a kernel compiled without");
    report.domain_bytes = std::int64_t(n_) * 2 * sizeof(std::int32_t) + std::int64_t(words) * sizeof(DomainWord);
    std::int64_t capacity = options.max_depth;
    if (capacity <= 0) {
      // The decision stacks of all teams together stay within 2^25 entries (640 MB), each at least 1024.
      const std::int64_t each = std::max<std::int64_t>(1024, (std::int64_t(1) << 25) / rows);
      capacity = std::min(std::max<std::int64_t>(expected_depth(program) + report.subproblem_depth, 1024), each);
    }
    capacity_ = std::max<std::int64_t>(capacity, report.subproblem_depth + 1);
    kernel_.program = DeviceProgram<Memory>(host);
    allocate_state(program, options, lp, words);
    configure_kernel(program, options, lp, helper, root_fixpoint, words);
    report.setup_time_s = seconds_since(start);
    Kokkos::Profiling::popRegion();
    set_up_launch(options, lp, helper, words);
  }

  void launch() override {
    if (!backlog_.empty()) flush_backlog();
    kernel_.node_budget = budget_;
    // One team alternates: the complete row on even launches, the free row on odd ones.
    kernel_.first_row = rows_.alternate ? launches_ % 2 : 0;
    launch_start_ = Clock::now();
    Kokkos::parallel_for("kcp::search::parallel", policy_, kernel_);
    // After the first launch, where Kokkos 3 sets its own preference.
    if (launches_ == 0 && options_.shared_carveout != -2)
      setup.shared_carveout = set_shared_carveout<Kernel>(policy_, level0_bytes_, options_.shared_carveout);
  }

  bool running() const override {
#ifdef KOKKOS_ENABLE_CUDA
    if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>)
      return cudaStreamQuery(ExecSpace().cuda_stream()) == cudaErrorNotReady;
#endif
    return false;
  }

  Slice finish(std::optional<Clock::time_point> ended = std::nullopt) override {
    ExecSpace().fence();
    ++launches_;
    const double launch_s = std::chrono::duration<double>(ended.value_or(Clock::now()) - launch_start_).count();
    const int rows = rows_.total();
    std::vector<std::int64_t> nodes_before(rows);
    for (int t = 0; t < rows; ++t) nodes_before[t] = team_(t, team_nodes);
    if constexpr (!host_state) Kokkos::deep_copy(team_, kernel_.state.team);
    if (options_.slice_nodes <= 0) {
      // Aim at launches of about slice_s_: prompt to stop and print, cheap to relaunch. The busiest
      // team's nodes in this launch measure what a node costs; a launch that ended early (solutions,
      // teams out of work) says little, so the budget grows at most twofold per launch.
      std::int64_t busiest = 1;
      for (int t = 0; t < rows; ++t) busiest = std::max(busiest, team_(t, team_nodes) - nodes_before[t]);
      const double per_node = launch_s / double(busiest);
      const double target = per_node > 0 ? slice_s_ / per_node : double(2 * budget_);
      budget_ = std::max<std::int64_t>(1, std::min<std::int64_t>(2 * budget_, static_cast<std::int64_t>(target)));
    }
    if constexpr (!host_state) Kokkos::deep_copy(control_, kernel_.state.control);
    if (control_(ctl_error) == 1) throw std::runtime_error("the search kernel did not get its team scratch");
    Slice slice;
    if (control_(ctl_learned_ints) > 0) {
      // The log's entries that fit; the counter restarts for the next launch.
      const std::int64_t ints = std::min<std::int64_t>(control_(ctl_learned_ints), kernel_.state.learned.extent(0));
      slice.learned = fetch(kernel_.state.learned, std::size_t(ints));
      control_(ctl_learned_ints) = 0;
      if constexpr (!host_state) Kokkos::deep_copy(Kokkos::subview(kernel_.state.control, int(ctl_learned_ints)), std::int64_t(0));
    }
    if (control_(ctl_error) == 2)
      throw std::runtime_error("a decision stack overflowed (" + std::to_string(capacity_) +
                               " decisions); rerun with a larger --max-depth");

    bool any = false;
    for (int t = 0; t < rows; ++t) {
      if (!team_(t, team_has_solution)) continue;
      any = true;
      std::vector<std::int32_t> values(std::size_t(n_), 0);
      if constexpr (host_state) {
        for (int x = 0; x < n_; ++x) values[std::size_t(x)] = kernel_.state.solution(t, x);
      } else {
        Kokkos::deep_copy(solution_row_, Kokkos::subview(kernel_.state.solution, t, Kokkos::ALL()));
        std::copy(solution_row_.data(), solution_row_.data() + n_, values.begin());
      }
      if (options_.objective >= 0) {
        const Source source = t < rows_.complete ? from_complete
                              : team_(t, team_in_neighbourhood) ? from_lns
                                                                : from_restart;
        const std::int64_t key = values[std::size_t(options_.objective)];
        slice.found.push_back(Found{key, source, helper_, std::move(values)});
      } else {
        slice.held.emplace_back(team_(t, team_solution_subproblem), std::move(values));
      }
      team_(t, team_has_solution) = 0;
    }
    if (!host_state && any) Kokkos::deep_copy(kernel_.state.team, team_);
    sort_worst_first(slice.found);
    for (int t = 0; t < rows; ++t)
      if (team_(t, team_subproblem) >= 0) slice.open = std::min(slice.open, team_(t, team_subproblem));
    // A row diving ahead for the dive cache holds its own subproblem aside.
    for (int t = 0; t < rows_.complete && t < rows; ++t)
      if (team_(t, team_dive_prefetch)) slice.open = std::min(slice.open, team_(t, team_dive_saved));
    // A complete row's run holds subproblems it has not started: the least of them is open too.
    for (int t = 0; t < rows_.complete && t < rows; ++t)
      if (team_(t, team_run_next) < team_(t, team_run_end))
        slice.open = std::min(slice.open, subproblem_at(team_(t, team_run_next)));
    for (int t = 0; t < rows_.complete; ++t) slice.idle += team_(t, team_idle) ? 1 : 0;
    slice.complete = rows_.complete > 0 && slice.idle == rows_.complete;
    if (extra_wanted_ > 0) choose_givers();
    return slice;
  }

  void publish(std::int64_t best, const std::vector<std::int32_t>& incumbent) override {
    if (best < control_(ctl_best)) {
      control_(ctl_best) = best;
      if constexpr (!host_state) Kokkos::deep_copy(Kokkos::subview(kernel_.state.control, int(ctl_best)), best);
    }
    if (rows_.free == 0 || incumbent.empty()) return;
    for (int x = 0; x < n_; ++x) incumbent_(x) = incumbent[std::size_t(x)];
    incumbent_(n_) = 1;
    if constexpr (!host_state) Kokkos::deep_copy(kernel_.state.incumbent, incumbent_);
  }

  void collect_activity(NogoodStore& store) override {
    if (kernel_.pool.count == 0) return;
    const std::size_t ints = 2 * std::size_t(kernel_.pool.count);
    store.add_activity(fetch(pool_activity_, ints).data(), kernel_.pool.count);
    put(pool_activity_, std::vector<std::int32_t>(ints, 0));  // only the counters in use, no parallel region
  }

  void upload_nogoods(const NogoodStore& store) override {
    if (kernel_.pool.capacity == 0 || store.generation() == uploaded_generation_) return;
    std::vector<std::int32_t> begin, watch_begin, watch, watch_nogood;
    std::vector<Literal> lits;
    store.layout(n_, begin, lits, watch_begin, watch, watch_nogood);
    put(pool_begin_, begin);
    put(pool_lits_, lits);
    put(pool_watch_begin_, watch_begin);
    put(pool_watch_, watch);
    put(pool_watch_nogood_, watch_nogood);
    kernel_.pool.count = static_cast<int>(begin.size()) - 1;
    kernel_.pool.epoch = store.epoch();
    uploaded_generation_ = store.generation();
  }

  std::int64_t unclaimed() const override {
    const std::int64_t end = control_(ctl_subproblem_end);
    return end - std::min(control_(ctl_next_subproblem), end);
  }

  std::int64_t first_unclaimed() const override {
    const std::int64_t next = control_(ctl_next_subproblem);
    if (next >= control_(ctl_subproblem_end)) return INT64_MAX;
    return subproblem_at(next);
  }
  /// The subproblem the counter's value `local` names (alone: itself; distributed: in a dealt chunk).
  std::int64_t subproblem_at(std::int64_t local) const {
    return chunks_.empty() ? local : dealt_subproblem(chunks_.data(), local, kernel_.chunk_log);
  }

  void add_chunk(std::int64_t first) override {
    const std::int64_t size = std::int64_t(1) << kernel_.chunk_log, end = control_(ctl_subproblem_end);
    if (std::int64_t(chunks_.size()) >= std::int64_t(kernel_.state.chunks.extent(0)))
      throw std::logic_error("kcp: more chunks dealt than subproblems");
    Kokkos::deep_copy(Kokkos::subview(kernel_.state.chunks, chunks_.size()), first);
    chunks_.push_back(first);
    // Rows that found no subproblem moved the counter past the end: the new chunk starts at the end.
    control_(ctl_next_subproblem) = std::min(control_(ctl_next_subproblem), end);
    control_(ctl_subproblem_end) = end + size;
    put_control(ctl_next_subproblem);
    put_control(ctl_subproblem_end);
    resume_idle_rows();
  }

  std::int64_t take_skip_to() override {
    const std::int64_t to = control_(ctl_skip_to);
    if (to == 0) return 0;
    control_(ctl_skip_to) = 0;
    if constexpr (!host_state) Kokkos::deep_copy(Kokkos::subview(kernel_.state.control, int(ctl_skip_to)), std::int64_t(0));
    return to;
  }

  bool splits() const override { return kernel_.split.enabled(); }

  void want_pieces(std::int64_t extra) override {
    if (!splits() || extra == extra_wanted_) return;
    control_(ctl_split_waiting) += extra - extra_wanted_;
    control_(ctl_split_extra) = extra;
    extra_wanted_ = extra;
    put_control(ctl_split_waiting);
    put_control(ctl_split_extra);
    choose_givers();
  }

  /// SearchOptions::shallow_givers: while other processes want pieces, the shallowest quarter of the
  /// holding complete rows by prefix give them (ctl_split_give_cap); after every slice, as rows move on.
  void choose_givers() {
    std::int64_t cap = 0;
    if (shallow_givers_ && extra_wanted_ > 0) {
      std::vector<std::int64_t> prefixes = holders().second;
      if (!prefixes.empty()) {
        const auto q = prefixes.begin() + std::ptrdiff_t(prefixes.size() / 4);
        std::nth_element(prefixes.begin(), q, prefixes.end());
        cap = *q + 1;
      }
    }
    if (cap == control_(ctl_split_give_cap)) return;
    control_(ctl_split_give_cap) = cap;
    put_control(ctl_split_give_cap);
  }

  std::vector<std::int64_t> take_pieces(std::int64_t max) override {
    std::vector<std::int64_t> log;
    if (!splits() || max <= 0) return log;
    using Pool = SplitPool<Memory>;
    const auto head = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kernel_.split.head);
    std::vector<int> published;
    for (int s = 0; s < int(head.extent(0)) && std::int64_t(published.size()) < max; ++s)
      if (head(s, Pool::head_state) == 2) published.push_back(s);
    if (published.empty()) return log;
    const auto pieces = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kernel_.split.pieces);
    for (const int s : published) {
      const std::int64_t length = head(s, Pool::head_length);
      log.push_back(head(s, Pool::head_subproblem));
      log.push_back(length);
      const auto* words = reinterpret_cast<const std::int32_t*>(&pieces(s, 0));
      log.insert(log.end(), words, words + 5 * length);
      head(s, Pool::head_state) = 0;
    }
    Kokkos::deep_copy(kernel_.split.head, head);
    const std::int64_t taken = std::int64_t(published.size());
    control_(ctl_split_pooled) -= taken;
    put_control(ctl_split_pooled);
    exported_ += taken;
    return log;
  }

  void put_pieces(const std::vector<std::int64_t>& log) override {
    for (std::size_t k = 0; k + 2 <= log.size();) {
      const std::size_t end = k + 2 + 5 * std::size_t(log[k + 1]);
      if (end > log.size()) throw std::logic_error("kcp: a truncated piece log");
      backlog_.emplace_back(log.begin() + std::ptrdiff_t(k), log.begin() + std::ptrdiff_t(end));
      k = end;
      imported_ += 1;
    }
    flush_backlog();
  }

  bool backlog() const override { return !backlog_.empty(); }

  std::int64_t waiting() const override {
    return splits() ? std::max<std::int64_t>(0, control_(ctl_split_waiting) - extra_wanted_) : 0;
  }

  /// The complete rows holding a subproblem or a piece of one at the last slice's end: their
  /// subproblems and their never-undone prefixes' lengths.
  std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> holders() const {
    std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> h;
    for (int t = 0; t < rows_.complete; ++t)
      if (team_(t, team_subproblem) >= 0 && !team_(t, team_idle)) {
        h.first.push_back(team_(t, team_subproblem));
        h.second.push_back(team_(t, team_prefix));
      }
    return h;
  }

  std::string holdings() const override {
    auto [subproblems, prefixes] = holders();
    if (prefixes.empty()) return "held=0";
    std::map<std::int64_t, int> held;
    for (const std::int64_t s : subproblems) ++held[s];
    const auto top = std::max_element(held.begin(), held.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    std::sort(prefixes.begin(), prefixes.end());
    return "held=" + std::to_string(prefixes.size()) + " distinct=" + std::to_string(held.size()) +
           " top=" + std::to_string(top->first) + ":" + std::to_string(top->second) +
           " prefix_min=" + std::to_string(prefixes.front()) + " prefix_med=" + std::to_string(prefixes[prefixes.size() / 2]);
  }

  void add_totals(SearchReport& report) const override {
    report.split_exported += exported_;
    report.split_imported += imported_;
    add_team_totals(report, team_, rows_);
    report.nogoods_dropped += control_(ctl_learned_dropped);
    report.subproblems_skipped += control_(ctl_skipped);
    report.launches += launches_;
    report.shared_carveout = setup.shared_carveout;
#ifdef KCP_PHASE_PROFILE
    print_phase_profile();
#endif
#ifdef KCP_CHECK_INVARIANTS
    const auto& control = control_;
    std::fprintf(stderr,
                 "kcp-check: teams=%d p=%d nodes=%lld leaks=%lld unnormalised=%lld incomplete=%lld (restored %lld) "
                 "tree=%lld first=[%lld %lld %lld %lld %lld %lld]\n",
                 setup.teams, setup.subproblem_depth, (long long)control(ctl_check_nodes),
                 (long long)control(ctl_check_leaks), (long long)control(ctl_check_unnormalised),
                 (long long)control(ctl_check_incomplete), (long long)control(ctl_check_incomplete_restored),
                 (long long)control(ctl_check_tree), (long long)control(ctl_check_first),
                 (long long)control(ctl_check_first + 1), (long long)control(ctl_check_first + 2),
                 (long long)control(ctl_check_first + 3), (long long)control(ctl_check_first + 4),
                 (long long)control(ctl_check_first + 5));
#endif
  }

#ifdef KCP_PHASE_PROFILE
  /// A profiling build's table (search/search_state.hpp's KernelPhase): each phase's time per node
  /// and its share over every row, then over the complete rows and over the free ones (device: SM
  /// cycles at the clock's rate; host: ns).
  void print_phase_profile() const {
    print_phase_profile("all", 0, rows_.total());
    if (rows_.complete > 0 && rows_.complete < rows_.total()) {
      print_phase_profile("complete", 0, rows_.complete);
      print_phase_profile("free", rows_.complete, rows_.total());
    }
  }
  void print_phase_profile(const char* which, int from, int to) const {
    std::int64_t nodes = 0, ticks[phase_count] = {}, all = 0;
    for (int t = from; t < to; ++t) {
      nodes += team_(t, team_nodes);
      for (int p = 0; p < phase_count; ++p) ticks[p] += team_(t, team_phase_ticks + p), all += team_(t, team_phase_ticks + p);
    }
    double khz = 1e6;  // host: ticks are ns
#ifdef KOKKOS_ENABLE_CUDA
    if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
      int rate = 0;
      cudaDeviceGetAttribute(&rate, cudaDevAttrClockRate, ExecSpace().cuda_device());
      khz = rate;
    }
#endif
    std::fprintf(stderr, "kcp-phases: space=%s %s rows=%d nodes=%lld clock_khz=%.0f ns_per_node=%.1f", ExecSpace::name(),
                 which, to - from, (long long)nodes, khz, nodes > 0 ? double(all) / nodes * 1e6 / khz : 0.0);
    for (int p = 0; p < phase_count; ++p)
      std::fprintf(stderr, " %s=%.1f/%.1f%%", kernel_phase_names[p], nodes > 0 ? double(ticks[p]) / nodes * 1e6 / khz : 0.0,
                   all > 0 ? 100.0 * double(ticks[p]) / double(all) : 0.0);
    std::fprintf(stderr, "\n");
  }
#endif

  volatile int* stop_flag() override { return kernel_.state.stop.data(); }

  void aim(double slice_s) override { slice_s_ = slice_s; }

  bool asynchronous() const override { return !host_state; }

  void bind_thread() const override {
#ifdef KOKKOS_ENABLE_CUDA
    if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) cudaSetDevice(ExecSpace().cuda_device());
#endif
  }

 private:
  /// Distributed (SearchOptions::chunk_log): the subproblems are dealt to it in chunks by the driver.
  static bool dealt(const SearchOptions& options, bool helper) { return options.chunk_log >= 0 && !helper; }

  /// The fleet's teams, its rows (complete and free), and the subproblems' depth.
  void shape_fleet(const Program& original, const SearchOptions& options, const LaunchParams& lp, bool helper) {
    SearchReport& report = setup;
    report.space = ExecSpace::name();
    report.team_size = lp.team_size;
    report.vector_length = lp.vector_length;
    report.teams = fleet_teams<ExecSpace>(original, options, lp);
    rows_ = helper ? Rows{0, report.teams, false} : portfolio_rows(options, report.teams);
    report.free_teams = rows_.free;
    if (helper) {
      report.subproblem_depth = 0;
    } else if (options.subproblem_depth >= 0) {
      report.subproblem_depth = options.subproblem_depth;
    } else if (rows_.complete > 1) {
      report.subproblem_depth =
          static_cast<int>(std::ceil(std::log2(subproblems_per_row(options, rows_.complete) * rows_.complete)));
    }
    if (report.subproblem_depth > 40) throw std::invalid_argument("at most 2^40 subproblems");
    report.subproblems = std::int64_t(1) << report.subproblem_depth;
  }

  /// The search state of every row: stacks, stores, the event-driven fixpoint's workspaces (when they fit),
  /// the nogood pool.
  void allocate_state(const Program& program, const SearchOptions& options, const LaunchParams& lp, int words) {
    SearchReport& report = setup;
    const int rows = rows_.total();
    kernel_.phases = upload_phases<Memory>(program, options.phases, options);
    kernel_.free_phases = upload_phases<Memory>(program, {}, options, &kernel_.phases);
    const int distance = copy_distance(options, rows, report.domain_bytes);
    report.store_slots = store_slots(options, distance, rows, report.domain_bytes, capacity_ - report.subproblem_depth);
    report.snapshots = report.store_slots > 0;
    report.copy_distance = report.snapshots ? distance : 0;
    // The event-driven fixpoint's workspaces of all teams together stay within queue_work_budget_bytes,
    // else AC1 (fleet_teams has fitted the default teams where it could).
    // Learning: the pool's room, in the event-driven fixpoint's queue too (domains/nogoods.hpp).
    const int pool_capacity = options.learn != LearnMode::none ? std::max(1, options.nogood_capacity) : 0;
    const std::size_t work_ints = QueueWork::ints(program.num_propagators() + pool_capacity, n_);
    report.reads_per_variable = n_ > 0 ? double(kernel_.program.var_props.extent(0)) / n_ : 0;
    const bool one_thread = lp.team_size * lp.vector_length == 1;
    report.queue_fixpoint = queue_wanted(options.fixpoint_mode, one_thread, report.reads_per_variable) &&
                            double(rows) * double(work_ints) * sizeof(std::int32_t) <= queue_work_budget_bytes;
    // Watched literals of the pool (NogoodPool::propagate): on unless turned off (perf/NOTES.md entries
    // 25 and 26: the CUDA tests, compute-sanitizer and the differential with learning ran with them).
    report.nogood_watches = pool_capacity > 0 && options.nogood_watches != 0;
    kernel_.state = SearchState<Memory>(rows, n_, static_cast<int>(capacity_), report.store_slots,
                                        report.queue_fixpoint ? work_ints : 0, words,
                                        pool_capacity > 0 && rows_.free > 0 ? std::size_t(options.nogood_log_ints) : 0,
                                        pool_capacity > 0, report.nogood_watches ? pool_capacity : 0);
    if (pool_capacity > 0) allocate_pool(options, pool_capacity);
    kernel_.queue = report.queue_fixpoint;
#ifdef KCP_CHECK_INVARIANTS
    if (report.subproblem_depth <= 22)
      kernel_.state.check_tree = decltype(kernel_.state.check_tree)("kcp::search::check_tree",
                                                                    std::size_t(1) << report.subproblem_depth);
#endif
  }

  /// The nogood pool's room (domains/nogoods.hpp) and what the rows learn.
  void allocate_pool(const SearchOptions& options, int pool_capacity) {
    const std::size_t lits = std::size_t(pool_capacity) * std::size_t(std::max(1, options.nogood_max_length));
    // Written before they are read (upload_nogoods): no zeroing (a parallel region each at set-up).
    const auto bare = [](const char* name) { return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(name)); };
    pool_begin_ = decltype(pool_begin_)(bare("kcp::search::nogood_begin"), std::size_t(pool_capacity) + 1);
    pool_lits_ = decltype(pool_lits_)(bare("kcp::search::nogood_lits"), lits);
    pool_watch_begin_ = decltype(pool_watch_begin_)(bare("kcp::search::nogood_watch_begin"), std::size_t(n_) + 1);
    pool_watch_ = decltype(pool_watch_)(bare("kcp::search::nogood_watch"), lits);
    pool_watch_nogood_ = decltype(pool_watch_nogood_)(bare("kcp::search::nogood_watch_nogood"), lits);
    pool_activity_ = decltype(pool_activity_)("kcp::search::nogood_activity", 2 * std::size_t(pool_capacity));
    kernel_.pool.begin = pool_begin_;
    kernel_.pool.lits = pool_lits_;
    kernel_.pool.watch_begin = pool_watch_begin_;
    kernel_.pool.watch = pool_watch_;
    kernel_.pool.watch_nogood = pool_watch_nogood_;
    kernel_.pool.activity = pool_activity_;
    kernel_.pool.capacity = pool_capacity;
    // Raw nogoods up to twice the length kept: merging a variable's literals shortens many.
    kernel_.max_nogood_length = 2 * std::max(1, options.nogood_max_length);
    // The explaining thread beside: the free rows learn as with restart.
    const LearnMode rows_learn = options.learn == LearnMode::explain ? LearnMode::restart : options.learn;
    kernel_.learn = rows_.free > 0 ? rows_learn : LearnMode::none;
  }

  /// What the kernel is told: the root, the subproblems' dealing, the dive cache, end-game splitting, the
  /// free runs, the fixpoint's limits.
  void configure_kernel(const Program& program, const SearchOptions& options, const LaunchParams& lp, bool helper,
                        bool root_fixpoint, int words) {
    SearchReport& report = setup;
    kernel_.root_fixpoint = root_fixpoint;
    kernel_.objective = options.objective;
    kernel_.path_length = report.subproblem_depth;
    // The chunks of subproblems it holds (SearchState::chunks): alone, one of all 2^p; distributed,
    // none until the driver deals them (at most all of them).
    const bool dealt = SliceSearcher::dealt(options, helper);
    kernel_.chunk_log = dealt ? std::min(options.chunk_log, report.subproblem_depth) : report.subproblem_depth;
    kernel_.state.chunks = decltype(kernel_.state.chunks)(
        "kcp::search::chunks", dealt ? std::size_t(1) << (report.subproblem_depth - kernel_.chunk_log) : 1);
    kernel_.complete_rows = rows_.complete;
    kernel_.stop_poll = host_state ? 1 : options.stop_poll > 0 ? options.stop_poll : default_stop_poll(rows_.total());
    kernel_.run_cap = std::max(1, options.subproblem_runs);
    shallow_givers_ = options.shallow_givers;
    kernel_.halve_path = options.halve_path && !(options.objective < 0 && options.max_solutions > 0 && options.ordered_solutions);
    // The dive cache: where several complete rows dive into 2^p subproblems, p >= 3, in at most 4,096
    // blocks within 64 MiB (a 16th of the copies' default budget; --copy-budget leaves it).
    if (options.dive_cache && rows_.complete > 1 && report.subproblem_depth >= 3) {
      const int p = report.subproblem_depth;
      const int log = DiveCache<Memory>::choose_log(p, report.domain_bytes, default_copy_budget_bytes / 16);
      if (log < p) {
        kernel_.dive = DiveCache<Memory>(p, log, n_, words, rows_.complete);
        report.dive_cache_depth = p - log;
      }
    }
    // End-game splitting: a slot per complete row up to 256; pieces from decisions up to 256 levels
    // below the subproblems' roots.
    report.end_game_split = splits_end_game(options, rows_.complete);
    if (report.end_game_split)
      kernel_.split = SplitPool<Memory>(std::min(rows_.complete, 256),
                                        static_cast<int>(std::min<std::int64_t>(capacity_, report.subproblem_depth + 256)));
    kernel_.free_runs.vars =
        detail::upload<std::int32_t, Memory>("kcp::search::lns_vars", neighbourhood_vars(options, n_));
    kernel_.free_runs.sequence = options.restart;
    kernel_.free_runs.base = std::max<std::int64_t>(1, options.restart_base);
    kernel_.free_runs.lns = options.lns;
    kernel_.free_runs.restart_permille = static_cast<int>(std::lround(std::clamp(options.restart_share, 0.0, 1.0) * 1000));
    kernel_.free_runs.phase_saving = options.phase_saving;
    kernel_.free_runs.alternate = !options.phases.empty();
    // The host's rows draw other runs than the GPU's under the same seed.
    // A distributed search's ranks too, by free_salt (the complete rows' random value choices stay the
    // same everywhere: they shape the tree the subproblems are numbered in).
    std::uint64_t free_seed = helper ? detail::mix(options.seed + 0x68656c70ULL) : options.seed;
    if (options.free_salt != 0) free_seed = detail::mix(free_seed + options.free_salt);
    kernel_.free_runs.seed = free_seed;
    if (options.objective >= 0) report.objective_bound = program.lb[std::size_t(options.objective)];
    // Distance 0 (the subproblem's root only): a distance no depth below the root reaches.
    kernel_.copy_distance = report.copy_distance > 0 ? report.copy_distance : static_cast<int>(capacity_) + 1;
    kernel_.fixpoint.ternary_chunk = lp.vector_length;
    kernel_.fixpoint.max_iterations = options.max_fixpoint_iterations;
  }

  /// The launch: the team policy (a requested shape refused by name when it cannot run), the store's scratch
  /// level, the host mirrors, the first slice's budget.
  void set_up_launch(const SearchOptions& options, const LaunchParams& lp, bool helper, int words) {
    SearchReport& report = setup;
    const std::size_t bytes = Kernel::scratch_bytes(n_, words);
    // Kokkos aborts on a team it cannot run: refuse a requested shape with the options' names instead
    // (the backend's default shape is the one measured, and is not second-guessed).
    if (!helper && (options.team_size > 0 || options.vector_length > 0))
      refuse_unrunnable_shape<ExecSpace>(
          lp, [&] { return Policy(1, 1, lp.vector_length).team_size_max(kernel_, Kokkos::ParallelForTag()); });
    policy_ = Policy(report.teams, lp.team_size, lp.vector_length);
    report.scratch_level = options.scratch_level >= 0 ? options.scratch_level
                           : bytes <= std::size_t(policy_.scratch_size_max(0)) ? 0 : 1;
    if (bytes > std::size_t(policy_.scratch_size_max(report.scratch_level)))
      throw std::length_error("the store (" + std::to_string(bytes) + " bytes) does not fit in team scratch level " +
                              std::to_string(report.scratch_level));
    policy_.set_scratch_size(report.scratch_level, Kokkos::PerTeam(bytes));
    level0_bytes_ = report.scratch_level == 0 ? bytes : 0;
    kernel_.scratch_level = report.scratch_level;

    team_ = Kokkos::create_mirror_view(kernel_.state.team);
    control_ = Kokkos::create_mirror_view(kernel_.state.control);
    // The counter's end: all 2^p subproblems, or, distributed, none until the driver deals chunks
    // before the first launch (add_chunk reads the mirrors).
    Kokkos::deep_copy(control_, kernel_.state.control);
    control_(ctl_subproblem_end) = dealt(options, helper) ? 0 : report.subproblems;
    Kokkos::deep_copy(kernel_.state.control, control_);
    if (dealt(options, helper)) Kokkos::deep_copy(team_, kernel_.state.team);
    incumbent_ = Kokkos::create_mirror_view(kernel_.state.incumbent);
    solution_row_ = Kokkos::create_mirror_view(Kokkos::subview(kernel_.state.solution, 0, Kokkos::ALL()));
    budget_ = options.slice_nodes > 0 ? options.slice_nodes : 1;  // grows with the measured cost
  }

  SearchOptions options_;
  bool helper_ = false;  ///< the host's rows beside a GPU (their solutions are marked Found::host)
  Rows rows_;
  int n_ = 0;
  std::int64_t capacity_ = 0;
  Kernel kernel_;
  Policy policy_;
  std::size_t level0_bytes_ = 0;  ///< team scratch of level 0 per team (set_shared_carveout)
  typename decltype(Kernel::state.team)::HostMirror team_;
  typename decltype(Kernel::state.control)::HostMirror control_;
  typename decltype(Kernel::state.incumbent)::HostMirror incumbent_;
  decltype(Kokkos::create_mirror_view(Kokkos::subview(Kernel().state.solution, 0, Kokkos::ALL()))) solution_row_;
  std::int64_t budget_ = 1;
  double slice_s_ = 0.05;  ///< the launch time the node budget aims at
  int launches_ = 0;
  Clock::time_point launch_start_;
  /// Distributed end-game splitting: pieces asked of the rows beyond their own waiting ones, pieces
  /// taken out and put in, and those from another process not yet in the pool (piece logs of one).
  std::int64_t extra_wanted_ = 0, exported_ = 0, imported_ = 0;
  bool shallow_givers_ = false;  ///< SearchOptions::shallow_givers
  std::deque<std::vector<std::int64_t>> backlog_;

  /// Writes the host's value of a control slot to the state (between launches).
  void put_control(int k) {
    if constexpr (!host_state) Kokkos::deep_copy(Kokkos::subview(kernel_.state.control, k), control_(k));
  }
  /// The idle complete rows take work again (between launches: new subproblems or pieces came).
  void resume_idle_rows() {
    std::int64_t resumed = 0;
    for (int t = 0; t < rows_.complete; ++t)
      if (team_(t, team_idle)) {
        team_(t, team_idle) = 0;
        ++resumed;
      }
    if (resumed == 0) return;
    control_(ctl_complete_idle) -= resumed;
    put_control(ctl_complete_idle);
    if constexpr (!host_state) Kokkos::deep_copy(kernel_.state.team, team_);
  }
  /// Puts backlog pieces into the pool's free slots, published (between launches).
  void flush_backlog() {
    if (!splits()) throw std::logic_error("kcp: pieces for a search that does not split");
    using Pool = SplitPool<Memory>;
    const auto head = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kernel_.split.head);
    const auto pieces = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kernel_.split.pieces);
    std::int64_t put = 0;
    for (int s = 0; s < int(head.extent(0)) && !backlog_.empty(); ++s) {
      if (head(s, Pool::head_state) != 0) continue;
      const std::vector<std::int64_t>& p = backlog_.front();
      const std::int64_t length = p[1];
      if (length > std::int64_t(pieces.extent(1))) throw std::logic_error("kcp: a piece longer than the pool holds");
      head(s, Pool::head_subproblem) = p[0];
      head(s, Pool::head_local) = 0;  // read only above the subproblems' depth, where pieces never are
      head(s, Pool::head_length) = length;
      auto* words = reinterpret_cast<std::int32_t*>(&pieces(s, 0));
      for (std::int64_t w = 0; w < 5 * length; ++w) words[w] = static_cast<std::int32_t>(p[std::size_t(2 + w)]);
      head(s, Pool::head_state) = 2;
      backlog_.pop_front();
      ++put;
    }
    if (put == 0) return;
    Kokkos::deep_copy(kernel_.split.pieces, pieces);
    Kokkos::deep_copy(kernel_.split.head, head);
    control_(ctl_split_pooled) += put;
    put_control(ctl_split_pooled);
    resume_idle_rows();
  }
  /// The first n values of a View of the state (read in place on the host: no fence of other spaces).
  template <class V>
  static std::vector<typename V::non_const_value_type> fetch(const V& view, std::size_t n) {
    std::vector<typename V::non_const_value_type> out(n);
    if constexpr (host_state) {
      std::copy(view.data(), view.data() + n, out.begin());
    } else {
      const Kokkos::View<typename V::non_const_value_type*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> to(out.data(), n);
      Kokkos::deep_copy(to, Kokkos::subview(view, std::make_pair(std::size_t(0), n)));
    }
    return out;
  }
  /// Writes `values` to the front of a View of the state (in place on the host).
  template <class V, class T>
  static void put(const V& view, const std::vector<T>& values) {
    if constexpr (host_state) {
      std::copy(values.begin(), values.end(), view.data());
    } else {
      const Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> from(values.data(), values.size());
      Kokkos::deep_copy(Kokkos::subview(view, std::make_pair(std::size_t(0), values.size())), from);
    }
  }

  // The nogood pool's buffers (kernel_.pool reads them; empty without learning).
  Kokkos::View<std::int32_t*, Memory> pool_begin_, pool_watch_begin_, pool_watch_, pool_watch_nogood_, pool_activity_;
  Kokkos::View<Literal*, Memory> pool_lits_;
  int uploaded_generation_ = 0;
  std::vector<std::int64_t> chunks_;  ///< the chunks dealt to it (distributed), as in SearchState::chunks
};

/// A searcher on ExecSpace with the kernel the program and the shape need: one thread per store needs
/// no atomics, several narrow it concurrently and do; bitsets only where the program has them.
template <class ExecSpace>
std::unique_ptr<Searcher> make_searcher(const Program& program, const SearchOptions& o, const LaunchParams& lp,
                                        bool helper) {
  const bool shared = lp.team_size * lp.vector_length > 1, holes = has_bitsets(program, o);
  if (shared && holes) return std::make_unique<SliceSearcher<ExecSpace, true, true>>(program, o, lp, helper);
  if (shared) return std::make_unique<SliceSearcher<ExecSpace, true, false>>(program, o, lp, helper);
  if (holes) return std::make_unique<SliceSearcher<ExecSpace, false, true>>(program, o, lp, helper);
  return std::make_unique<SliceSearcher<ExecSpace, false, false>>(program, o, lp, helper);
}

}  // namespace kcp::driver
