// The backend tests' kernels (tests/kernels.hpp), compiled once and instantiated for every space of
// tests/backends.hpp: the test files call them without compiling the fixpoint themselves.
#include "tests/kernels.hpp"

namespace kcp::test {

template <class Space, bool Concurrent>
struct TeamFixpointKernel {
  using TeamMember = typename Kokkos::TeamPolicy<Space>::member_type;
  DeviceProgram<typename Space::memory_space> program;
  Kokkos::View<std::int32_t*, typename Space::memory_space> lb, ub;
  Kokkos::View<DomainWord*, typename Space::memory_space> bits;
  Kokkos::View<int[2], typename Space::memory_space> result;  // failed, iterations
  FixpointOptions options;

  KOKKOS_INLINE_FUNCTION void operator()(const TeamMember& team) const {
    const int n = program.num_vars;
    const int words = program.domain_words();
    auto* sbits = static_cast<DomainWord*>(team.team_shmem().get_shmem(sizeof(DomainWord) * words));
    auto* slb = static_cast<std::int32_t*>(team.team_shmem().get_shmem(sizeof(std::int32_t) * n));
    auto* sub = static_cast<std::int32_t*>(team.team_shmem().get_shmem(sizeof(std::int32_t) * n));
    int* flags = static_cast<int*>(team.team_shmem().get_shmem(sizeof(int) * fixpoint_flag_count));
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int x) {
      slb[x] = program.root_lb(x);
      sub[x] = program.root_ub(x);
    });
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, words), [&](const int w) { sbits[w] = program.root_bits(w); });
    team.team_barrier();
    const FixpointResult r = team_fixpoint(team, program, program.template store<Concurrent>(slb, sub, sbits), flags, options);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int x) {
      lb(x) = slb[x];
      ub(x) = sub[x];
    });
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, words), [&](const int w) { bits(w) = sbits[w]; });
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      result(0) = r.failed ? 1 : 0;
      result(1) = r.iterations;
    });
  }
};

/// Runs team_fixpoint on the root of p with one team of the backend's default shape.
template <class Space>
FixpointOutcome team_fixpoint_on(const Program& p, const FixpointOptions& options,
                                 int lane_row_terms) {
  using MemSpace = typename Space::memory_space;
  const LaunchParams lp = default_launch_params<Space>();
  const int n = p.num_vars();
  const int words = static_cast<int>(p.bits.size());
  Kokkos::View<std::int32_t*, MemSpace> lb("lb", n), ub("ub", n);
  Kokkos::View<DomainWord*, MemSpace> bits("bits", words);
  Kokkos::View<int[2], MemSpace> result("result");
  const std::size_t bytes =
      sizeof(DomainWord) * words + sizeof(std::int32_t) * 2 * n + sizeof(int) * fixpoint_flag_count + 64;
  Kokkos::TeamPolicy<Space> policy(1, lp.team_size, lp.vector_length);
  policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
  if (lp.team_size * lp.vector_length > 1) {
    Kokkos::parallel_for("kcp::test::team_fixpoint", policy,
                         TeamFixpointKernel<Space, true>{DeviceProgram<MemSpace>(p, lane_row_terms), lb, ub, bits, result, options});
  } else {
    Kokkos::parallel_for("kcp::test::team_fixpoint", policy,
                         TeamFixpointKernel<Space, false>{DeviceProgram<MemSpace>(p, lane_row_terms), lb, ub, bits, result, options});
  }
  FixpointOutcome out;
  auto hlb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), lb);
  auto hub = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ub);
  auto hres = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), result);
  out.failed = hres(0) != 0;
  out.iterations = hres(1);
  out.lb.assign(hlb.data(), hlb.data() + n);
  out.ub.assign(hub.data(), hub.data() + n);
  auto hbits = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bits);
  out.bits.assign(hbits.data(), hbits.data() + words);
  return out;
}

template <class Space, bool Concurrent>
struct QueueFixpointKernel {
  using TeamMember = typename Kokkos::TeamPolicy<Space>::member_type;
  using MemSpace = typename Space::memory_space;
  DeviceProgram<MemSpace> program;
  Kokkos::View<std::int32_t*, MemSpace> lb, ub, work;
  Kokkos::View<DomainWord*, MemSpace> bits;
  Kokkos::View<const Narrowing*, MemSpace> narrowings;
  Kokkos::View<const int*, MemSpace> round_begin;  ///< rounds + 1 entries
  Kokkos::View<int*, MemSpace> failed_at;          ///< [0]: first failed round or -1
  FixpointOptions options;
  bool full_first = true;

  KOKKOS_INLINE_FUNCTION void operator()(const TeamMember& team) const {
    const int n = program.num_vars;
    const int words = program.domain_words();
    auto* sbits = static_cast<DomainWord*>(team.team_shmem().get_shmem(sizeof(DomainWord) * words));
    auto* slb = static_cast<std::int32_t*>(team.team_shmem().get_shmem(sizeof(std::int32_t) * n));
    auto* sub = static_cast<std::int32_t*>(team.team_shmem().get_shmem(sizeof(std::int32_t) * n));
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int x) {
      slb[x] = lb(x);
      sub[x] = ub(x);
    });
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, words), [&](const int w) { sbits[w] = bits(w); });
    team.team_barrier();
    const StoreRef<Concurrent> s = program.template store<Concurrent>(slb, sub, sbits);
    const QueueWork w{work.data(), program.num_propagators(), n};
    const StoreRef<Concurrent> es = pending_events(s, w);
    int failed = -1;
    for (int r = 0; r + 1 < static_cast<int>(round_begin.extent(0)) && failed < 0; ++r) {
      int st = 0;
      Kokkos::single(
          Kokkos::PerTeam(team),
          [&](int& acc) {
            acc = 0;
            for (int k = round_begin(r); k < round_begin(r + 1); ++k)
              acc |= narrowings(k).remove ? es.remove(narrowings(k).x, narrowings(k).lo)
                                          : es.narrow_to(narrowings(k).x, narrowings(k).lo, narrowings(k).hi);
          },
          st);
      team.team_barrier();
      if ((st & prop_failed) || queue_fixpoint(team, program, s, w, options, full_first && r == 0).failed) failed = r;
    }
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int x) {
      lb(x) = slb[x];
      ub(x) = sub[x];
    });
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, words), [&](const int w) { bits(w) = sbits[w]; });
    Kokkos::single(Kokkos::PerTeam(team), [&]() { failed_at(0) = failed; });
  }
};

/// queue_fixpoint on Space: from `start` (p's root when empty), each round applies its narrowings as
/// events and runs the fixpoint (every propagator in the first round when full_first). `failed` of the
/// outcome: some round failed; `iterations` holds the first failed round (-1: none).
template <class Space>
FixpointOutcome queue_fixpoint_on(const Program& p, const std::vector<std::vector<Narrowing>>& rounds,
                                  bool full_first, const FixpointOutcome* start,
                                  int lane_row_terms) {
  using MemSpace = typename Space::memory_space;
  const LaunchParams lp = default_launch_params<Space>();
  const int n = p.num_vars();
  std::vector<Narrowing> all;
  std::vector<int> begin{0};
  for (const auto& r : rounds) {
    all.insert(all.end(), r.begin(), r.end());
    begin.push_back(static_cast<int>(all.size()));
  }
  const std::vector<std::int32_t>& lb0 = start ? start->lb : p.lb;
  const std::vector<std::int32_t>& ub0 = start ? start->ub : p.ub;
  const std::vector<DomainWord>& bits0 = start ? start->bits : p.bits;
  const int words = static_cast<int>(p.bits.size());
  QueueFixpointKernel<Space, true> k1;
  k1.program = DeviceProgram<MemSpace>(p, lane_row_terms);
  k1.lb = Kokkos::View<std::int32_t*, MemSpace>("lb", n);
  k1.ub = Kokkos::View<std::int32_t*, MemSpace>("ub", n);
  Kokkos::deep_copy(k1.lb, Kokkos::View<const std::int32_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(lb0.data(), n));
  Kokkos::deep_copy(k1.ub, Kokkos::View<const std::int32_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(ub0.data(), n));
  k1.bits = Kokkos::View<DomainWord*, MemSpace>("bits", words);
  Kokkos::deep_copy(k1.bits, Kokkos::View<const DomainWord*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(bits0.data(), words));
  k1.work = Kokkos::View<std::int32_t*, MemSpace>("work", QueueWork::ints(p.num_propagators(), n));
  k1.narrowings = detail::upload<Narrowing, MemSpace>("narrowings", all);
  k1.round_begin = detail::upload<int, MemSpace>("round_begin", begin);
  k1.failed_at = Kokkos::View<int*, MemSpace>("failed_at", 1);
  k1.full_first = full_first;
  k1.options.ternary_chunk = lp.vector_length;
  const std::size_t bytes = sizeof(DomainWord) * words + sizeof(std::int32_t) * 2 * n + 64;
  Kokkos::TeamPolicy<Space> policy(1, lp.team_size, lp.vector_length);
  policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
  if (lp.team_size * lp.vector_length > 1) {
    Kokkos::parallel_for("kcp::test::queue_fixpoint", policy, k1);
  } else {
    QueueFixpointKernel<Space, false> k0{k1.program, k1.lb, k1.ub, k1.work, k1.bits, k1.narrowings, k1.round_begin,
                                         k1.failed_at, k1.options, k1.full_first};
    Kokkos::parallel_for("kcp::test::queue_fixpoint", policy, k0);
  }
  FixpointOutcome out;
  auto hlb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k1.lb);
  auto hub = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k1.ub);
  auto hf = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k1.failed_at);
  out.failed = hf(0) >= 0;
  out.iterations = hf(0);
  out.lb.assign(hlb.data(), hlb.data() + n);
  out.ub.assign(hub.data(), hub.data() + n);
  auto hbits = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k1.bits);
  out.bits.assign(hbits.data(), hbits.data() + words);
  return out;
}

/// The serial Gauss-Seidel reference on the host.
FixpointOutcome serial_fixpoint_on(const Program& p) {
  FixpointOutcome out;
  out.lb = p.lb;
  out.ub = p.ub;
  out.bits = p.bits;
  const DeviceProgram<Kokkos::HostSpace> hp(p);
  const FixpointResult r = serial_fixpoint(hp, hp.store<false>(out.lb.data(), out.ub.data(), out.bits.data()));
  out.failed = r.failed;
  out.iterations = r.iterations;
  return out;
}

// Every space of tests/backends.hpp's Backends (the same conditions).
#define KCP_TEST_KERNELS(Space)                                                                              \
  template FixpointOutcome team_fixpoint_on<Space>(const Program&, const FixpointOptions&, int);           \
  template FixpointOutcome queue_fixpoint_on<Space>(const Program&, const std::vector<std::vector<Narrowing>>&, \
                                                    bool, const FixpointOutcome*, int);
#ifdef KOKKOS_ENABLE_CUDA
KCP_TEST_KERNELS(Kokkos::Cuda)
#endif
#ifdef KOKKOS_ENABLE_OPENMP
KCP_TEST_KERNELS(Kokkos::OpenMP)
#endif
KCP_TEST_KERNELS(Kokkos::Serial)
#undef KCP_TEST_KERNELS

}  // namespace kcp::test
