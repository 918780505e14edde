// The policy descriptions the policies fuzz targets share (policies_fuzz.cpp: one run queue;
// policies_smp_fuzz.cpp: two, with migrations between them; tests/soak/soak.cpp): for each
// policy its entity, its template, the scheduling parameters its setup() accepts (decoded from
// the input, now and then invalid on purpose) and whether it can throttle; the grouped
// variants; knob fuzzing; detectors for optional members. Header-local (an anonymous
// namespace): each target is one translation unit.
#ifndef SCHEDCORE_TESTS_FUZZ_POLICY_USES_HPP
#define SCHEDCORE_TESTS_FUZZ_POLICY_USES_HPP

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "fuzz_common.hpp"
#include "schedcore/policy/bfs.hpp"
#include "schedcore/policy/class_stack.hpp"
#include "schedcore/policy/fair_server_stack.hpp"
#include "schedcore/policy/edf.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "schedcore/policy/group.hpp"
#include "schedcore/policy/goodness24.hpp"
#include "schedcore/policy/nicksched.hpp"
#include "schedcore/policy/o1.hpp"
#include "schedcore/policy/rt.hpp"
#include "schedcore/policy/sd.hpp"
#ifndef SCHEDCORE_FUZZ_CFS
#define SCHEDCORE_FUZZ_CFS 1  // cfs and cfs2007 are fuzzed too (0 leaves them out)
#endif
#if SCHEDCORE_FUZZ_CFS
#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/cfs2007.hpp"
#endif

namespace {

using namespace schedcore;
using fuzz::reader;

sched_params normal_params(reader& in, const sched_kind* kinds, unsigned nkinds) {
  sched_params p;
  p.kind = kinds[in.below(nkinds)];
  p.nice = static_cast<s8>(static_cast<int>(in.below(40)) - 20);
  const unsigned bad = in.u8();
  if (bad >= 250) p.nice = static_cast<s8>(bad & 1u ? 20 : -21);  // refused
  if (bad == 249) p.kind = sched_kind::deadline;                   // refused (wrong kind)
  return p;
}

// Policy descriptions: entity, policy template, the kinds its setup accepts, quirks.
struct use_o1 {
  using entity = o1_entity;
  template <class T> using policy = o1_policy<T>;
  static constexpr bool can_throttle = false;
  static sched_params params(reader& in) {
    static constexpr sched_kind k[] = {sched_kind::normal, sched_kind::normal, sched_kind::batch};
    return normal_params(in, k, 3);
  }
};
struct use_sd {
  using entity = sd_entity;
  template <class T> using policy = sd_policy<T>;
  static constexpr bool can_throttle = false;
  static sched_params params(reader& in) {
    static constexpr sched_kind k[] = {sched_kind::normal, sched_kind::normal, sched_kind::batch, sched_kind::idle};
    return normal_params(in, k, 4);
  }
};
struct use_goodness24 {
  using entity = goodness24_entity;
  template <class T> using policy = goodness24_policy<T>;
  static constexpr bool can_throttle = false;
  static sched_params params(reader& in) {
    static constexpr sched_kind k[] = {sched_kind::normal, sched_kind::normal, sched_kind::normal, sched_kind::fifo,
                                       sched_kind::rr};
    sched_params p = normal_params(in, k, 5);
    if (p.kind == sched_kind::fifo || p.kind == sched_kind::rr) p.rt_priority = static_cast<u8>(1 + in.below(99));
    return p;
  }
};
struct use_nicksched {
  using entity = nicksched_entity;
  template <class T> using policy = nicksched_policy<T>;
  static constexpr bool can_throttle = false;
  static sched_params params(reader& in) {
    static constexpr sched_kind k[] = {sched_kind::normal};
    return normal_params(in, k, 1);
  }
};
struct use_eevdf {
  using entity = eevdf_entity;
  template <class T> using policy = eevdf_policy<T>;
  static constexpr bool can_throttle = false;
  static sched_params params(reader& in) {
    static constexpr sched_kind k[] = {sched_kind::normal, sched_kind::normal, sched_kind::batch, sched_kind::idle};
    return normal_params(in, k, 4);
  }
};
struct use_bfs {
  using entity = bfs_entity;
  template <class T> using policy = bfs_policy<T>;
  static constexpr bool can_throttle = false;
  static sched_params params(reader& in) {
    static constexpr sched_kind k[] = {sched_kind::normal, sched_kind::normal, sched_kind::batch, sched_kind::idle};
    return normal_params(in, k, 4);
  }
};
struct use_edf {
  using entity = edf_entity;
  template <class T> using policy = edf_policy<T>;
  static constexpr bool can_throttle = true;
  static sched_params params(reader& in) {
    sched_params p;
    p.kind = sched_kind::deadline;
    const duration_ns period = usec(100) + static_cast<duration_ns>(in.u16()) * usec(20);  // 0.1 .. 1.4 s
    const duration_ns deadline = in.flip() ? period : period / 2 + static_cast<duration_ns>(in.u16()) % (period / 2);
    duration_ns runtime = 1024 + static_cast<duration_ns>(in.u32()) % (deadline / 4 + 1);
    if (runtime > deadline) runtime = deadline;
    p.period = in.flip() && deadline == period ? 0 : period;
    p.deadline = deadline;
    p.runtime = runtime;
    const unsigned bad = in.u8();
    if (bad >= 252) p.runtime = deadline + 1;  // refused: Q > D
    if (bad == 251) p.runtime = 1000;          // refused: Q < 1024 ns
    p.reclaim = (bad & 1u) != 0;               // GRUB reclaiming on about half the tasks
    p.dl_overrun = (bad & 2u) != 0;            // SCHED_FLAG_DL_OVERRUN on about half
    return p;
  }
};
#if SCHEDCORE_FUZZ_CFS
struct use_cfs {
  using entity = cfs_entity;
  template <class T> using policy = cfs_policy<T>;
  static constexpr bool can_throttle = false;
  static sched_params params(reader& in) {
    static constexpr sched_kind k[] = {sched_kind::normal, sched_kind::normal, sched_kind::batch, sched_kind::idle};
    return normal_params(in, k, 4);
  }
};
struct use_cfs2007 {
  using entity = cfs2007_entity;
  template <class T> using policy = cfs2007_policy<T>;
  static constexpr bool can_throttle = false;
  static sched_params params(reader& in) {
    static constexpr sched_kind k[] = {sched_kind::normal, sched_kind::normal, sched_kind::batch, sched_kind::idle};
    return normal_params(in, k, 4);
  }
};
#endif

// Task groups (policy/group.hpp) over eevdf and cfs: three groups, one nested; every successful
// setup moves the task to the next of root, G0, G0/G1, G2 (after_setup, with the harness's
// clock), so the changes, class changes and migrations also move tasks between groups. The
// knobs are fuzzed as for the flat policies, eevdf's delayed dequeue included. G0/G1 and G2 are
// capped (cpu.max 1 ms per 3 ms, and 2 ms per 5 ms with a 1 ms burst; slices of 0.3 ms), so
// groups are throttled and brought back all the time. On two CPUs (policies_smp) the instances
// share the pools (`share_pools_with`), so the slack timer hands budget across CPUs.
template <class Task, class Inner>
struct fuzz_grouped : group_policy<Task, Inner> {
  using base = group_policy<Task, Inner>;
  typename base::task_group groups[3];
  cfs_bandwidth pools[2];
  unsigned next_place = 0;
  fuzz_grouped() noexcept {
    (void)this->attach_group(groups[0], nullptr);
    (void)this->attach_group(groups[1], &groups[0]);
    (void)this->attach_group(groups[2], nullptr);
    FUZZ_REQUIRE(pools[0].configure(msec(1), msec(3), 0, sched_time{}) == errc::ok);
    FUZZ_REQUIRE(pools[1].configure(msec(2), msec(5), msec(1), sched_time{}) == errc::ok);
    for (cfs_bandwidth& b : pools) FUZZ_REQUIRE(b.set_slice(usec(300)) == errc::ok);
    FUZZ_REQUIRE(this->set_group_bandwidth(groups[1], &pools[0], sched_time{}) == errc::ok);
    FUZZ_REQUIRE(this->set_group_bandwidth(groups[2], &pools[1], sched_time{}) == errc::ok);
  }
  fuzz_grouped(const fuzz_grouped&) = delete;
  fuzz_grouped& operator=(const fuzz_grouped&) = delete;
  void place(Task& t, sched_time now) noexcept {
    typename base::task_group* const where[] = {nullptr, &groups[0], &groups[1], &groups[2]};
    FUZZ_REQUIRE(this->set_group(t, where[next_place++ % 4], now) == errc::ok);
  }
  /// `t`, queued nowhere, moves here from `other` (another CPU's instance): it joins this
  /// instance's copy of the group it had there, as the simulator's bind_group does before a
  /// migrated enqueue.
  void adopt(Task& t, const fuzz_grouped& other, sched_time now) noexcept {
    const typename base::task_group* had = base::group_of_task(t);
    typename base::task_group* mine = nullptr;
    for (unsigned k = 0; k < 3; ++k)
      if (had == &other.groups[k]) mine = &groups[k];
    FUZZ_REQUIRE(this->set_group(t, mine, now) == errc::ok);
  }
  /// The capped groups draw from `other`'s pools instead (one pool per group shared by the
  /// CPUs, as cpu.max is), so that budget returned on one CPU reaches the other through the
  /// slack timer. Call before any task is placed.
  void share_pools_with(fuzz_grouped& other) noexcept {
    FUZZ_REQUIRE(this->set_group_bandwidth(groups[1], &other.pools[0], sched_time{}) == errc::ok);
    FUZZ_REQUIRE(this->set_group_bandwidth(groups[2], &other.pools[1], sched_time{}) == errc::ok);
  }
  /// This instance's throttled groups drawing from `pool`.
  unsigned throttled_on(const cfs_bandwidth& pool) const noexcept {
    unsigned n = 0;
    for (const auto& g : groups) n += g.bandwidth() == &pool && g.throttled() ? 1u : 0u;
    return n;
  }
};
struct use_grouped_eevdf {
  using entity = group_node<eevdf_entity>;
  template <class T> using policy = fuzz_grouped<T, eevdf_policy<group_node<eevdf_entity>>>;
  static constexpr bool can_throttle = true;  // cpu.max
  static sched_params params(reader& in) { return use_eevdf::params(in); }
};
#if SCHEDCORE_FUZZ_CFS
struct use_grouped_cfs {
  using entity = group_node<cfs_entity>;
  template <class T> using policy = fuzz_grouped<T, cfs_policy<group_node<cfs_entity>>>;
  static constexpr bool can_throttle = true;  // cpu.max
  static sched_params params(reader& in) { return use_cfs::params(in); }
};
#endif

sched_params rt_params(reader& in) {
  sched_params p;
  p.kind = in.flip() ? sched_kind::rr : sched_kind::fifo;
  p.rt_priority = static_cast<u8>(1 + in.below(99));
  if (in.u8() >= 252) p.rt_priority = 0;  // refused
  return p;
}

// Optional policy members, detected.
template <class P, class T, class = void>
struct has_orphan : std::false_type {};
template <class P, class T>
struct has_orphan<P, T, std::void_t<decltype(P::orphan(std::declval<T&>()))>> : std::true_type {};
template <class P, class = void>
struct has_throttled : std::false_type {};
template <class P>
struct has_throttled<P, std::void_t<decltype(std::declval<const P&>().throttled())>> : std::true_type {};

/// Fills a policy's knobs from the input: each knob kept at its default or set anywhere in its
/// documented bounds. configure() may refuse a combination (then the defaults stay).
/// With `also`, the same knobs go to a second instance (the other CPU's run queue).
template <class P>
void fuzz_knobs(P& p, reader& in, P* also = nullptr) {
  typename P::knobs k{};
  for (const auto& info : P::knob_table) {
    if (in.u8() < 200) continue;
    const u64 span = static_cast<u64>(info.max - info.min) + 1;
    k.*(info.field) = info.min + static_cast<s64>(in.u64() % span);
    if (fuzz::tracing()) std::fprintf(stderr, "knob %s = %lld\n", info.name, static_cast<long long>(k.*(info.field)));
  }
  const errc e = p.configure(k);
  if (fuzz::tracing()) std::fprintf(stderr, "configure: %d\n", static_cast<int>(e));
  if (also != nullptr) (void)also->configure(k);  // the same knobs: the same answer
}

/// True when policy P has `set_weight(Task&, u32)` (explicit, cgroup-style weights: eevdf).
template <class P, class Task, class = void>
struct has_set_weight : std::false_type {};
template <class P, class Task>
struct has_set_weight<P, Task, std::void_t<decltype(std::declval<P&>().set_weight(std::declval<Task&>(), 0u))>>
    : std::true_type {};

/// True when policy P places a set-up task somewhere (fuzz_grouped: the next task group).
template <class P, class Task, class = void>
struct has_place : std::false_type {};
template <class P, class Task>
struct has_place<P, Task, std::void_t<decltype(std::declval<P&>().place(std::declval<Task&>(), sched_time{}))>>
    : std::true_type {};

/// The clock origin byte 1 selects: 0, just below 2^64 (< 4.3 s, or whole ms), or anywhere.
inline sched_time decode_origin(reader& in) {
  switch (in.below(4)) {
    case 0: return sched_time{};
    case 1: return sched_time{0} - static_cast<duration_ns>(in.u32());  // < 4.3 s below 2^64
    case 2: return sched_time{0} - static_cast<duration_ns>(in.u16()) * msec(1);
    default: return sched_time{in.u64()};
  }
}

/// How far the clock moves before an op: 0-127 us, 0-11.1 ms in 100 us steps, or 50-800 ms.
inline duration_ns decode_step(reader& in) {
  const unsigned k = in.u8();
  if (k < 128) return static_cast<duration_ns>(k) * usec(1);
  if (k < 240) return static_cast<duration_ns>(k - 128) * usec(100);
  return static_cast<duration_ns>(k - 239) * msec(50);
}

/// Byte 0 of an input names the policy, in the same order for every policies target:
/// `Harness<use_...>(in).run()` for it.
template <template <class> class Harness>
void run_policy(reader& in) {
#if SCHEDCORE_FUZZ_CFS
  constexpr unsigned nr_policies = 11;
#else
  constexpr unsigned nr_policies = 8;
#endif
  switch (in.below(nr_policies)) {
    case 0: Harness<use_o1>(in).run(); break;
    case 1: Harness<use_sd>(in).run(); break;
    case 2: Harness<use_goodness24>(in).run(); break;
    case 3: Harness<use_nicksched>(in).run(); break;
    case 4: Harness<use_eevdf>(in).run(); break;
    case 5: Harness<use_bfs>(in).run(); break;
    case 6: Harness<use_edf>(in).run(); break;
    case 7: Harness<use_grouped_eevdf>(in).run(); break;
#if SCHEDCORE_FUZZ_CFS
    case 8: Harness<use_cfs>(in).run(); break;
    case 9: Harness<use_cfs2007>(in).run(); break;
    case 10: Harness<use_grouped_cfs>(in).run(); break;
#endif
    default: break;
  }
}

}  // namespace

#endif
