// cfs_policy (modern CFS, Linux 5.x-6.5) against the oracles of algorithms-modern.md §2,
// driven by the deterministic tick driver or by direct hook calls.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

#include "check_recorder.hpp"
#include "cross_queue_diff.hpp"
#include "schedcore/policy/cfs.hpp"
#include "tick_driver.hpp"
#include "verifying.hpp"

namespace {

using namespace schedcore;
using schedcore_test::behaviour;
using schedcore_test::single_class;
using schedcore_test::tick_driver;

struct task : cfs_entity {
  int id = 0;
};

using policy_t = cfs_policy<task>;

using verifying = schedcore_test::verifying<policy_t>;

task make(int nice, sched_kind kind = sched_kind::normal) {
  task t;
  policy_t setup_only;
  EXPECT_EQ(setup_only.setup(t, sched_params{kind, static_cast<s8>(nice), 0, 0, 0, 0}), errc::ok);
  return t;
}

// ---- tables and arithmetic (§2.2) ------------------------------------------------------------

TEST(CfsPolicy, WeightTableSpotChecks) {
  // algorithms-modern.md §2.2 table.
  EXPECT_EQ(nice_to_weight(-20), 88761u);
  EXPECT_EQ(nice_to_weight(0), 1024u);
  EXPECT_EQ(nice_to_weight(1), 820u);
  EXPECT_EQ(nice_to_weight(5), 335u);
  EXPECT_EQ(nice_to_weight(19), 15u);
  EXPECT_EQ(nice_to_wmult(0), 4194304u);
  EXPECT_EQ(nice_to_wmult(-20), 48388u);
  EXPECT_EQ(nice_to_wmult(19), 286331153u);
  // §2.2: wmult ≈ 2^32 / weight (within 1 of the exact quotient), every entry.
  for (int n = -20; n <= 19; ++n) {
    const std::uint64_t exact = (std::uint64_t{1} << 32) / nice_to_weight(n);
    EXPECT_LE(nice_to_wmult(n) > exact ? nice_to_wmult(n) - exact : exact - nice_to_wmult(n), 1u) << n;
  }
  // §2.2: neighbours differ by about 1.25x.
  for (int n = -20; n < 19; ++n) {
    const double r = double(nice_to_weight(n)) / nice_to_weight(n + 1);
    EXPECT_GE(r, 1.19) << n;
    EXPECT_LT(r, 1.3) << n;
  }
  task t = make(0, sched_kind::idle);
  EXPECT_EQ(t.load.weight, 3u);  // §2.2 SCHED_IDLE
  EXPECT_EQ(t.load.inv_weight, 1431655765u);
}

TEST(CfsPolicy, CalcDeltaFairIntegerPathO24) {
  // algorithms-modern.md §2.2 O2.4: calc_delta_fair(1 ms).
  EXPECT_EQ(calc_delta_fair(1000000, nice_to_load(5)), 3056716u);
  EXPECT_EQ(calc_delta_fair(1000000, nice_to_load(1)), 1248780u);
  EXPECT_EQ(calc_delta_fair(1000000, nice_to_load(19)), 68266666u);
  EXPECT_EQ(calc_delta_fair(1000000, nice_to_load(0)), 1000000u);  // nice 0: identity
}

TEST(CfsPolicy, CalcDeltaFairMatchesExactDivisionWithin1ns) {
  // Oracle: exact integer delta * 1024 / weight (§2.2), computed here without the code under
  // test. Deltas below 2^22 ns (4.19 ms, longer than a tick at HZ >= 250): within 1 ns.
  std::mt19937_64 rng(12345);
  std::int64_t worst = 0;
  for (int i = 0; i < 200000; ++i) {
    const int nice = static_cast<int>(rng() % 40) - 20;
    const std::uint64_t delta = rng() & ((std::uint64_t{1} << 22) - 1);
    const std::uint64_t exact = delta * 1024 / nice_to_weight(nice);
    const std::uint64_t got = calc_delta_fair(delta, nice_to_load(nice));
    const std::int64_t err = std::int64_t(got) - std::int64_t(exact);
    worst = std::max(worst, err < 0 ? -err : err);
  }
  EXPECT_LE(worst, 1);
  // Longer deltas (up to 2^40 ns, 18 min): the fixed-point error grows as delta / 2^22.
  for (int i = 0; i < 200000; ++i) {
    const int nice = static_cast<int>(rng() % 40) - 20;
    const std::uint64_t delta = rng() & ((std::uint64_t{1} << 40) - 1);
    const std::uint64_t exact = delta * 1024 / nice_to_weight(nice);
    const std::uint64_t got = calc_delta_fair(delta, nice_to_load(nice));
    const std::uint64_t err = got > exact ? got - exact : exact - got;
    EXPECT_LE(err, (delta >> 22) + 1) << "nice " << nice << " delta " << delta;
  }
}

TEST(CfsPolicy, VscaleIsBitIdenticalToCalcDeltaFair) {
  // fair_vscale (the per-entity multiply-shift the policies charge with) must give exactly
  // calc_delta_fair for every load the policies can hold: the 40 nice levels, SCHED_IDLE and
  // arbitrary shares weights (fair_inv_weight), over short, long and near-2^64 deltas.
  std::vector<load_weight> loads;
  for (int nice = -20; nice <= 19; ++nice) loads.push_back(nice_to_load(nice));
  loads.push_back(idle_load());
  for (std::uint32_t w : {2u, 3u, 15u, 1023u, 1024u, 1025u, 4096u, 100000u, 1u << 18}) loads.push_back(make_load(w));
  loads.push_back(load_weight{nice_0_load, fair_inv_weight(nice_0_load)});  // nice 0 with a computed inverse
  std::mt19937_64 rng(777);
  for (const load_weight lw : loads) {
    const fair_vscale s = make_fair_vscale(lw);
    // The branch-free derivation cfs charges with must give the same factor and shift.
    EXPECT_EQ(fair_vscale_of(lw).fact, s.fact) << lw.weight;
    EXPECT_EQ(fair_vscale_of(lw).shift, s.shift) << lw.weight;
    EXPECT_GE(s.shift, 1u);
    EXPECT_LE(s.shift, 32u);
    for (std::uint64_t d : {0ull, 1ull, 999ull, 1000000ull, 4000000ull, 0xFFFFFFFFull, 0x100000000ull,
                            0x123456789abcdefull, ~0ull}) {
      EXPECT_EQ(fair_vscale_delta(d, s), calc_delta_fair(d, lw)) << lw.weight << " " << d;
    }
    for (int i = 0; i < 2000; ++i) {
      const std::uint64_t d = rng() >> (rng() % 64);
      ASSERT_EQ(fair_vscale_delta(d, s), calc_delta_fair(d, lw)) << lw.weight << " " << d;
    }
  }
}

TEST(CfsPolicy, VscaleOfEqualsMakeFairVscaleForEveryWeight) {
  // fair_vscale_of (branch-free, cfs's charge) against make_fair_vscale (the kernel's
  // reductions) for every weight a policy accepts with its computed inverse, every nice level,
  // SCHED_IDLE, and nice 0's weight with a computed inverse (the identity either way).
  auto same = [](load_weight lw) {
    const fair_vscale a = fair_vscale_of(lw);
    const fair_vscale b = make_fair_vscale(lw);
    return a.fact == b.fact && a.shift == b.shift;
  };
  for (std::uint32_t w = 1; w <= (1u << 18); ++w) ASSERT_TRUE(same(make_load(w))) << w;
  for (int nice = -20; nice <= 19; ++nice) ASSERT_TRUE(same(nice_to_load(nice))) << nice;
  EXPECT_TRUE(same(idle_load()));
  EXPECT_TRUE(same(load_weight{nice_0_load, fair_inv_weight(nice_0_load)}));
  for (std::uint64_t inv = 1; inv <= 0xFFFFFFFFull; inv += 65521) {  // any inverse, weight != 1024
    ASSERT_TRUE(same(load_weight{3, static_cast<std::uint32_t>(inv)})) << inv;
  }
}

TEST(CfsPolicy, CalcDeltaShiftReductionWithLargeFactors) {
  // fact = weight * inv needs more than 32 bits for light tasks (SCHED_IDLE: 1024 * 1431655765
  // ~ 2^40): the reduced shift keeps the result within 1 ns of delta * 1024 / 3 (§2.2).
  for (std::uint64_t delta : {1ull, 999ull, 1000000ull, 4000000ull}) {
    const std::uint64_t exact = delta * 1024 / 3;
    const std::uint64_t got = calc_delta_fair(delta, idle_load());
    EXPECT_LE(got > exact ? got - exact : exact - got, 1u) << delta;
  }
  // A factor that itself exceeds 32 bits exercises the first reduction: 3·2^32 · 1 / 2^32 = 3.
  EXPECT_EQ(fair_calc_delta(1000000, std::uint64_t{3} << 32, 1), 3000000u);
  EXPECT_EQ(fair_inv_weight(std::uint64_t{1} << 33), 1u);  // loads beyond 32 bits: inverse 1
  EXPECT_EQ(fair_inv_weight(0), 0xFFFFFFFFu);
}

// ---- tunables and slices (§2.3) --------------------------------------------------------------

TEST(CfsPolicy, TunablesScaleWithCpuCountO22) {
  policy_t p;
  EXPECT_EQ(p.sched_latency(), msec(6));  // UP: factor 1
  EXPECT_EQ(p.min_granularity(), usec(750));
  EXPECT_EQ(p.nr_latency(), 8u);
  policy_t::knobs k;
  k.cpus = 4;  // §2.3 O2.2: 6 ms x (1 + ilog2 4) = 18 ms, 0.75 x 3 = 2.25 ms, wakeup 3 ms
  ASSERT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.sched_latency(), msec(18));
  EXPECT_EQ(p.min_granularity(), usec(2250));
  EXPECT_EQ(p.wakeup_granularity(), msec(3));
  k.cpus = 16;  // O2.2: factor capped at 4 -> 24 ms
  ASSERT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.sched_latency(), msec(24));
  k.cpus = 2;
  ASSERT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.sched_latency(), msec(12));
  k.cpus = 4;
  k.tunable_scaling = 0;  // NONE
  ASSERT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.sched_latency(), msec(6));
  k.tunable_scaling = 2;  // LINEAR: min(cpus, 8)
  ASSERT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.sched_latency(), msec(24));
}

TEST(CfsPolicy, PeriodAndSlicesO23) {
  policy_t p;
  std::vector<task> hogs(10, make(0));
  for (auto& t : hogs) p.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  // §2.3 O2.3: 10 hogs on UP: period = 10 x 0.75 = 7.5 ms, each slice 0.75 ms.
  EXPECT_EQ(p.sched_period(10), usec(7500));
  // 7.5 ms x 1024 x (0xFFFFFFFF / 10240) >> 32 = 749 999: the kernel's fixed point (±1 ns).
  EXPECT_LE(std::abs(static_cast<std::int64_t>(p.sched_slice(hogs[0])) - usec(750)), 1);
  EXPECT_EQ(p.sched_period(8), msec(6));

  policy_t q;
  task a = make(0), b = make(5);
  q.enqueue(a, sched_time{}, enqueue_flags::wakeup);
  q.enqueue(b, sched_time{}, enqueue_flags::wakeup);
  // O2.3: nice 0 + nice 5: 6 ms x 1024/1359 = 4.52 ms, 6 ms x 335/1359 = 1.48 ms.
  const std::int64_t sa = static_cast<std::int64_t>(q.sched_slice(a));
  const std::int64_t sb = static_cast<std::int64_t>(q.sched_slice(b));
  EXPECT_LE(std::abs(sa - 6000000LL * 1024 / 1359), 2);
  EXPECT_LE(std::abs(sb - 6000000LL * 335 / 1359), 2);
  EXPECT_TRUE(q.verify());
}

// BASE_SLICE (5.13+, on by default until 6.5; commit "sched,fair: Alternative sched_slice()"):
// sched_slice() is at least sysctl_sched_min_granularity. Oracle: nice 19 (weight 15) beside
// nice 0 on UP gets 6 ms x 15/1039 = 86.6 us of period share, raised to the 0.75 ms floor;
// with the feature off (the 5.4-5.12 slice) the share itself.
TEST(CfsPolicy, BaseSliceFloorsTheSliceAtMinGranularity) {
  for (const int base : {1, 0}) {
    policy_t p;
    policy_t::knobs k;
    k.base_slice = base;
    ASSERT_EQ(p.configure(k), errc::ok);
    task a = make(0), b = make(19);
    p.enqueue(a, sched_time{}, enqueue_flags::wakeup);
    p.enqueue(b, sched_time{}, enqueue_flags::wakeup);
    const std::int64_t light = static_cast<std::int64_t>(p.sched_slice(b));
    const std::int64_t heavy = static_cast<std::int64_t>(p.sched_slice(a));
    if (base == 1) {
      EXPECT_EQ(light, usec(750));
    } else {
      EXPECT_LE(std::abs(light - 6000000LL * 15 / 1039), 2);
    }
    EXPECT_LE(std::abs(heavy - 6000000LL * 1024 / 1039), 2) << "above the floor: unchanged";
    EXPECT_TRUE(p.verify());
  }
}

// BASE_SLICE for SCHED_IDLE (5.15+, commit "sched: SCHED_IDLE entities... idle_min_granularity"):
// a SCHED_IDLE task (weight 3) competing with non-idle tasks is floored at
// sysctl_sched_idle_min_granularity (0.75 ms, which has no normalized twin: it is not scaled
// by the CPU factor); on a queue of SCHED_IDLE tasks only (sched_idle_cfs_rq) the floor is
// min_granularity like any task. At 4 CPUs (factor 3) the two floors differ: 0.75 vs 2.25 ms.
TEST(CfsPolicy, IdleTaskFloorIsIdleMinGranularityBesideNonIdleTasks) {
  policy_t::knobs k;
  k.cpus = 4;
  {
    policy_t p;
    ASSERT_EQ(p.configure(k), errc::ok);
    ASSERT_EQ(p.min_granularity(), usec(2250));
    task n = make(0), i = make(0, sched_kind::idle);
    p.enqueue(n, sched_time{}, enqueue_flags::wakeup);
    p.enqueue(i, sched_time{}, enqueue_flags::wakeup);
    EXPECT_EQ(p.sched_slice(i), static_cast<std::uint64_t>(usec(750)));  // share: 18 ms x 3/1027 = 52.6 us
    EXPECT_TRUE(p.verify());
  }
  {
    // An idle floor above min_granularity tells the two floors apart on UP (0.75 ms): beside a
    // nice-0 task the idle task gets the 5 ms idle floor; once the queue holds SCHED_IDLE tasks
    // only (ten of them: period 7.5 ms, 0.75 ms each) it is back to min_granularity.
    policy_t p;
    policy_t::knobs up;
    up.idle_min_granularity = msec(5);
    ASSERT_EQ(p.configure(up), errc::ok);
    task n = make(0);
    std::vector<task> idle(10, make(0, sched_kind::idle));
    p.enqueue(n, sched_time{}, enqueue_flags::wakeup);
    p.enqueue(idle[0], sched_time{}, enqueue_flags::wakeup);
    EXPECT_EQ(p.sched_slice(idle[0]), static_cast<std::uint64_t>(msec(5)));
    p.dequeue(n, sched_time{}, dequeue_flags::sleep);
    for (std::size_t x = 1; x < idle.size(); ++x) p.enqueue(idle[x], sched_time{}, enqueue_flags::wakeup);
    EXPECT_LE(std::abs(static_cast<std::int64_t>(p.sched_slice(idle[0])) - usec(750)), 1)
        << "idle-only queue (sched_idle_cfs_rq): the min_granularity floor";
    EXPECT_TRUE(p.verify());
  }
}

// 6.2 "sched/fair: Limit sched slice duration" (Vincent Guittot): check_preempt_tick caps the
// ideal runtime at sysctl_sched_latency. Oracle: one nice -20 task (88761) and 15 nice-19 tasks
// (15 each) on UP: period = 16 x 0.75 = 12 ms, the heavy task's slice 12 ms x 88761/88986 =
// 11.97 ms. Having run 7 ms it is rescheduled at a tick with the cap (7 > 6 ms), not without it
// (7 < 11.97 ms, and its vruntime lead is far below the slice).
TEST(CfsPolicy, LimitSliceCapsTheTickIdealAtLatency) {
  for (const int limit : {1, 0}) {
    policy_t p;
    policy_t::knobs k;
    k.limit_slice = limit;
    ASSERT_EQ(p.configure(k), errc::ok);
    task heavy = make(-20);
    std::vector<task> light(15, make(19));
    const sched_time t0{};
    p.enqueue(heavy, t0, enqueue_flags::wakeup);
    for (auto& t : light) p.enqueue(t, t0, enqueue_flags::wakeup);
    const std::int64_t slice = static_cast<std::int64_t>(p.sched_slice(heavy));
    // The kernel's 32-bit inverse of the load (88986) costs ~14 ppm here: 11.969 ms +- 1 us.
    EXPECT_LE(std::abs(slice - 12000000LL * 88761 / 88986), 1000);
    p.set_next(heavy, t0);
    EXPECT_FALSE(p.tick(heavy, t0 + msec(5))) << "5 ms < every ideal";
    EXPECT_EQ(p.tick(heavy, t0 + msec(7)), limit == 1) << "limit_slice=" << limit;
    EXPECT_TRUE(p.verify());
  }
}

// ---- CPU shares (§2.2, §2.5) -----------------------------------------------------------------

double pct(std::int64_t part, std::int64_t total) {
  return 100.0 * static_cast<double>(part) / static_cast<double>(total);
}

std::vector<std::int64_t> run_hogs(const std::vector<int>& nices, std::int64_t dur, int hz = 1000,
                                   int* verify_failures = nullptr) {
  verifying p;
  std::vector<task> ts;
  for (int n : nices) ts.push_back(make(n));
  tick_driver<verifying> d(p, hz);
  for (auto& t : ts) d.add(t, behaviour::hog());
  d.run_until(dur);
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < ts.size(); ++i) out.push_back(d.stats(i).cpu_ns);
  if (verify_failures) *verify_failures = p.failures;
  return out;
}

TEST(CfsPolicy, TwoHogsNice0And1Split1024To820O21) {
  int bad = 0;
  const auto cpu = run_hogs({0, 1}, sec(20), 1000, &bad);
  const std::int64_t total = cpu[0] + cpu[1];
  // §2.5 O2.1: 1024 / (1024 + 820) = 55.53 %, 44.47 %; within 0.5 percentage points.
  EXPECT_NEAR(pct(cpu[0], total), 100.0 * 1024 / 1844, 0.5);
  EXPECT_NEAR(pct(cpu[1], total), 100.0 * 820 / 1844, 0.5);
  EXPECT_EQ(bad, 0);
  std::printf("cfs nice 0/1: %.3f %% / %.3f %% (oracle 55.531 / 44.469)\n", pct(cpu[0], total),
              pct(cpu[1], total));
}

TEST(CfsPolicy, Nice0Vs5AndMinus10Vs0O21) {
  auto a = run_hogs({0, 5}, sec(20));
  EXPECT_NEAR(pct(a[0], a[0] + a[1]), 75.3, 1.0);  // §2.5 O2.1: 1024/1359
  std::printf("cfs nice 0/5: %.3f %% (oracle 75.35)\n", pct(a[0], a[0] + a[1]));
  a = run_hogs({-10, 0}, sec(20));
  EXPECT_NEAR(pct(a[0], a[0] + a[1]), 90.3, 1.0);  // O2.1: 9548/10572
  std::printf("cfs nice -10/0: %.3f %% (oracle 90.314)\n", pct(a[0], a[0] + a[1]));
}

TEST(CfsPolicy, ThreeEqualHogsGetAThirdEach) {
  int bad = 0;
  const auto cpu = run_hogs({0, 0, 0}, sec(9), 1000, &bad);
  for (auto c : cpu) EXPECT_NEAR(pct(c, sec(9)), 100.0 / 3, 1.0);  // §2.1: equal weights
  std::printf("cfs 3 hogs: %.3f / %.3f / %.3f %%\n", pct(cpu[0], sec(9)), pct(cpu[1], sec(9)), pct(cpu[2], sec(9)));
  EXPECT_EQ(bad, 0);
}

TEST(CfsPolicy, Nice0VsNice19Hog1024To15O13) {
  const auto cpu = run_hogs({0, 19}, sec(30));
  const std::int64_t total = cpu[0] + cpu[1];
  // §1.4 O1.3 (and §2.2): nice 19 gets 15/1039 = 1.44 % against nice 0, independent of HZ.
  // A nice-19 task's share of the period (87 µs, floored to 0.75 ms by BASE_SLICE) is below
  // one tick, so it runs whole ticks: 1 ms in every ~69 ms (1 + 68.27 ms, its vruntime step),
  // 1.44 %.
  EXPECT_NEAR(pct(cpu[1], total), 100.0 * 15 / 1039, 0.1);
  std::printf("cfs nice 0/19: nice 19 gets %.3f %% (oracle 1.444)\n", pct(cpu[1], total));
  const auto cpu250 = run_hogs({0, 19}, sec(30), 250);
  EXPECT_NEAR(pct(cpu250[1], cpu250[0] + cpu250[1]), 100.0 * 15 / 1039, 0.1);  // HZ-independent
  std::printf("cfs nice 0/19 HZ=250: nice 19 gets %.3f %%\n", pct(cpu250[1], cpu250[0] + cpu250[1]));
}

// ---- placement (§2.4) ------------------------------------------------------------------------

// The kernel core's schedule(): put_prev (if still runnable), pick_next, set_next.
template <class P>
task* schedule(P& p, task* prev, bool runnable, sched_time now) {
  if (prev && runnable) p.put_prev(*prev, now);
  task* n = p.pick_next(now);
  if (n) p.set_next(*n, now);
  return n;
}

TEST(CfsPolicy, SleeperPlacedAtMinVruntimeMinusHalfLatencyO25) {
  for (int gentle = 0; gentle <= 1; ++gentle) {
    policy_t p;
    policy_t::knobs k;
    k.gentle_fair_sleepers = gentle;
    ASSERT_EQ(p.configure(k), errc::ok);
    task a = make(0), b = make(0);
    const sched_time t0{};
    p.enqueue(a, t0, enqueue_flags::wakeup);
    p.enqueue(b, t0, enqueue_flags::wakeup);
    task* c = schedule(p, nullptr, false, t0);
    task* other = c == &a ? &b : &a;
    // `other` sleeps at once; `c` runs alone for 100 ms.
    p.dequeue(*other, t0, dequeue_flags::sleep);
    sched_time now = t0;
    for (int i = 0; i < 100; ++i) {
      now += msec(1);
      p.tick(*c, now);
    }
    p.enqueue(*other, now, enqueue_flags::wakeup);
    // §2.4 / O2.5: placed at max(old, min_vruntime - thresh), thresh = latency (6 ms) halved
    // by GENTLE_FAIR_SLEEPERS; min_vruntime is the running task's vruntime.
    EXPECT_EQ(p.min_vruntime(), c->vruntime);
    EXPECT_EQ(other->vruntime, p.min_vruntime() - (gentle ? msec(3) : msec(6))) << gentle;
    EXPECT_TRUE(p.verify());
  }
}

TEST(CfsPolicy, ShortSleepKeepsOwnVruntime) {
  policy_t p;
  task a = make(0), b = make(0);
  sched_time now{};
  p.enqueue(a, now, enqueue_flags::wakeup);
  p.enqueue(b, now, enqueue_flags::wakeup);
  task* c = schedule(p, nullptr, false, now);
  now += msec(2);
  p.dequeue(*c, now, dequeue_flags::sleep);
  const vtime before = c->vruntime;
  task* o = schedule(p, c, false, now);
  now += msec(1);
  p.tick(*o, now);
  p.enqueue(*c, now, enqueue_flags::wakeup);
  // §2.4: "never gain time by being placed backwards": max(own, min_vruntime - 3 ms) = own.
  EXPECT_EQ(c->vruntime, before);
}

TEST(CfsPolicy, NewTaskStartsOneVsliceLateStartDebit) {
  policy_t p;
  task parent = make(0), child = make(0);
  sched_time now{};
  p.enqueue(parent, now, enqueue_flags::wakeup);
  ASSERT_EQ(schedule(p, nullptr, false, now), &parent);
  now += msec(10);
  p.tick(parent, now);
  const vtime minv = p.min_vruntime();
  ASSERT_EQ(minv, parent.vruntime);
  p.task_new(child, &parent, now);
  p.enqueue(child, now, enqueue_flags::initial);
  // §2.4 START_DEBIT: v = min_vruntime + vslice; with the parent queued the child's slice is
  // period(2) x 1024/2048 = 3 ms (nice 0: vslice = slice); the kernel's fixed point gives
  // 6 ms x 1024 x (0xFFFFFFFF / 2048) >> 32 = 2 999 998 ns.
  EXPECT_LE(std::abs((child.vruntime - minv) - msec(3)), 2);
  EXPECT_FALSE(p.wakeup_preempt(child, parent, now));  // the child waits: it is 3 ms behind
  EXPECT_TRUE(p.verify());

  // Without START_DEBIT the child starts at the parent's vruntime.
  policy_t q;
  policy_t::knobs k;
  k.start_debit = 0;
  ASSERT_EQ(q.configure(k), errc::ok);
  task p2 = make(0), c2 = make(0);
  q.enqueue(p2, sched_time{}, enqueue_flags::wakeup);
  schedule(q, nullptr, false, sched_time{});
  q.tick(p2, sched_time{} + msec(4));
  q.task_new(c2, &p2, sched_time{} + msec(4));
  q.enqueue(c2, sched_time{} + msec(4), enqueue_flags::initial);
  EXPECT_EQ(c2.vruntime, p2.vruntime);
}

// START_DEBIT adds sched_vslice(), and sched_slice() carries the BASE_SLICE floor (5.13+):
// a newcomer whose share of the period is below min_granularity (a light task, a crowded
// queue, SCHED_IDLE) is still debited at least min_granularity (idle_min_granularity for
// SCHED_IDLE) of wall time, scaled by its own weight. Oracles: §2.3 "vslice =
// calc_delta_fair(slice)", kernel 6.5 sched_slice()'s max(slice, min_gran).
TEST(CfsPolicy, StartDebitCarriesTheBaseSliceFloor) {
  struct newcomer {
    int nice;
    sched_kind kind;
    std::uint64_t debit;  // expected child vruntime - min_vruntime, virtual ns
  };
  // Queue: a nice -10 parent running, one nice 0 task waiting (load 9548 + 1024). The raw
  // share of a nice 0 child is 6 ms x 1024 / 11596 = 0.53 ms < 0.75 ms: floored. A nice 19
  // child: 0.75 ms x 1024 / 15 = 51.2 ms virtual (51 199 999 in the kernel's fixed point).
  // A SCHED_IDLE child (weight 3): idle_min_granularity 0.75 ms x 1024 / 3 = 256 ms virtual.
  for (const newcomer n : {newcomer{0, sched_kind::normal, 750000}, newcomer{19, sched_kind::normal, 51199999},
                           newcomer{0, sched_kind::idle, 255999999}}) {
    for (const int base_slice : {1, 0}) {
      policy_t p;
      policy_t::knobs k;
      k.base_slice = base_slice;
      ASSERT_EQ(p.configure(k), errc::ok);
      task parent = make(-10), other = make(0), child = make(n.nice, n.kind);
      sched_time now{};
      p.enqueue(parent, now, enqueue_flags::wakeup);
      ASSERT_EQ(schedule(p, nullptr, false, now), &parent);
      p.enqueue(other, now, enqueue_flags::wakeup);  // waits; no preemption check
      const vtime minv = p.min_vruntime();
      // The child starts at max(parent's vruntime, min_vruntime + debit). The parent, itself
      // placed with a debit of 6 ms x 1024 / 9548 = 0.64 ms, lies below every floored debit
      // here and above every raw share, so without BASE_SLICE the child starts level with it.
      const std::uint64_t parent_ahead = static_cast<std::uint64_t>(parent.vruntime - minv);
      ASSERT_LT(parent_ahead, 750000u);
      p.task_new(child, &parent, now);
      p.enqueue(child, now, enqueue_flags::initial);
      const std::uint64_t debit = static_cast<std::uint64_t>(child.vruntime - minv);
      if (base_slice != 0) {
        EXPECT_LE(debit > n.debit ? debit - n.debit : n.debit - debit, 2u)
            << "nice " << n.nice << (n.kind == sched_kind::idle ? " idle" : "") << ": debit " << debit;
      } else {
        // Without BASE_SLICE the raw share: 6 ms x w / (11596 - 1024 + w), in virtual time.
        const std::uint64_t w = n.kind == sched_kind::idle ? 3 : nice_to_weight(n.nice);
        const std::uint64_t share = 6000000 * w / (9548 + 1024 + w) * 1024 / w;
        ASSERT_LT(share, parent_ahead) << "nice " << n.nice;  // the premise: every raw share is below the parent
        EXPECT_EQ(debit, parent_ahead) << "nice " << n.nice << " without BASE_SLICE: level with the parent";
        EXPECT_LT(debit, n.debit);
      }
      EXPECT_TRUE(p.verify());
    }
  }
}

TEST(CfsPolicy, ChildRunsFirstSwapsAndPreempts) {
  policy_t p;
  policy_t::knobs k;
  k.child_runs_first = 1;
  ASSERT_EQ(p.configure(k), errc::ok);
  task parent = make(0), child = make(0);
  sched_time now{};
  p.enqueue(parent, now, enqueue_flags::wakeup);
  schedule(p, nullptr, false, now);
  now += msec(5);
  p.task_new(child, &parent, now);
  p.enqueue(child, now, enqueue_flags::initial);
  EXPECT_TRUE(child.vruntime < parent.vruntime);
  EXPECT_TRUE(p.wakeup_preempt(child, parent, now));
  EXPECT_EQ(schedule(p, &parent, true, now), &child);
}

// Oracle: Linux 5.x-6.5 kernel/sched/fair.c task_fork_fair(): the fork runs in the parent's
// context, so the reference entity is cfs_rq->curr of the *forking task's* queue, which is the
// parent itself (or none when the forker is not a fair task). The child then starts at
// max(parent.vr, min_vruntime + vslice), and sched_child_runs_first swaps with the parent only.
// A task that merely happens to be running on the queue is neither read nor touched.
TEST(CfsPolicy, ForkReferenceIsTheParentOnlyWhenItIsTheRunningTask) {
  for (int with_parent = 0; with_parent <= 1; ++with_parent) {
    policy_t p;
    task a = make(0), b = make(0), child = make(0);
    sched_time now{};
    p.enqueue(a, now, enqueue_flags::wakeup);
    p.enqueue(b, now, enqueue_flags::wakeup);
    task* c = schedule(p, nullptr, false, now);
    task* o = c == &a ? &b : &a;
    now += msec(1);
    p.tick(*c, now);
    // The running task is 10 ms of vruntime ahead of the waiting one (which holds min_vruntime).
    c->vruntime = o->vruntime + msec(10);
    now += 1;
    p.tick(*c, now);  // update_curr: min_vruntime moves up to the waiting task
    c->vruntime = o->vruntime + msec(10);
    const vtime minv = p.min_vruntime();
    ASSERT_EQ(minv, o->vruntime);
    p.task_new(child, with_parent ? c : nullptr, now);
    // vslice with the child counted: period(3) x 1024/3072 = 2 ms (2 ms - 1 ns in fixed point:
    // 6e6 x 1024 x (0xFFFFFFFF / 3072) >> 32 = 1999999).
    const std::int64_t rel = child.vruntime.ns() > (u64{1} << 63) ? -1 : static_cast<std::int64_t>(child.vruntime.ns());
    if (with_parent) {
      EXPECT_EQ(rel, msec(10)) << "the parent's vruntime is the reference";
    } else {
      EXPECT_EQ(rel, msec(2) - 1) << "no fair forker: min_vruntime + vslice";
    }
  }
  // child_runs_first swaps with the parent only: with no parent the running task keeps its
  // vruntime and is not preempted by the child.
  policy_t p;
  policy_t::knobs k;
  k.child_runs_first = 1;
  ASSERT_EQ(p.configure(k), errc::ok);
  task runner = make(0), child = make(0);
  sched_time now{};
  p.enqueue(runner, now, enqueue_flags::wakeup);
  schedule(p, nullptr, false, now);
  now += msec(5);
  p.tick(runner, now);
  const vtime before = runner.vruntime;
  p.task_new(child, nullptr, now);
  p.enqueue(child, now, enqueue_flags::initial);
  EXPECT_EQ(runner.vruntime, before);
  EXPECT_FALSE(child.vruntime < runner.vruntime);
  EXPECT_FALSE(p.wakeup_preempt(child, runner, now));
  EXPECT_TRUE(p.verify());
}

// A fork whose child starts on another CPU. Oracle: Linux 5.x-6.5 task_fork_fair() runs on the
// parent's CPU before wake_up_new_task() chooses the child's: the child is placed against the
// parent's cfs_rq (max(parent.vr, min_vruntime + vslice), vslice counting the child in the
// parent's queue), normalised by that queue's min_vruntime, and renormalised by the new queue's
// at the enqueue (ENQUEUE_INITIAL, not a wakeup). Queue A holds a and b, the running one 10 ms
// of vruntime ahead of min_vruntime; queue B holds one task of its own. The child keeps the
// 10 ms lead over B's min_vruntime. With the parent only 0.5 ms ahead, the child gets A's
// vslice with 3 tasks counted, 2 ms (6 ms x 1024/3072, 1 ns under in fixed point), not B's with
// 2 counted (3 ms). child_runs_first does not swap across CPUs.
TEST(CfsPolicy, AForkOntoAnotherCpuIsPlacedAgainstTheParentsQueue) {
  for (const std::int64_t lead : {msec(10), usec(500)}) {
    for (const int child_first : {0, 1}) {
      SCOPED_TRACE(std::to_string(lead) + " ns ahead, child_runs_first " + std::to_string(child_first));
      policy_t qa, qb;
      policy_t::knobs k;
      k.child_runs_first = child_first;
      ASSERT_EQ(qa.configure(k), errc::ok);
      ASSERT_EQ(qb.configure(k), errc::ok);
      task a = make(0), b = make(0), other = make(0), child = make(0);
      sched_time now{};
      qa.enqueue(a, now, enqueue_flags::wakeup);
      qa.enqueue(b, now, enqueue_flags::wakeup);
      qb.enqueue(other, now, enqueue_flags::wakeup);
      task* c = schedule(qa, nullptr, false, now);
      task* o = c == &a ? &b : &a;
      ASSERT_EQ(schedule(qb, nullptr, false, now), &other);
      now += msec(1);
      qa.tick(*c, now);
      c->vruntime = o->vruntime + msec(10);
      now += 1;
      qa.tick(*c, now);  // update_curr: A's min_vruntime moves up to the waiting task
      c->vruntime = vtime{o->vruntime.ns() + static_cast<u64>(lead)};
      ASSERT_EQ(qa.min_vruntime(), o->vruntime);
      const vtime parent_before = c->vruntime;
      qb.task_new(child, c, now);
      qb.enqueue(child, now, enqueue_flags::initial);
      const std::int64_t rel = static_cast<std::int64_t>(child.vruntime.ns() - qb.min_vruntime().ns());
      if (lead == msec(10)) {
        EXPECT_EQ(rel, msec(10)) << "the parent's lead over its own queue";
      } else {
        EXPECT_EQ(rel, msec(2) - 1) << "the parent's queue's vslice (3 tasks), not B's (3 ms)";
      }
      EXPECT_EQ(c->vruntime, parent_before) << "no swap across CPUs";
      EXPECT_FALSE(qb.wakeup_preempt(child, other, now)) << "a child 2 ms or more behind does not preempt";
      EXPECT_TRUE(qa.verify());
      EXPECT_TRUE(qb.verify());
    }
  }
}

// ---- preemption (§2.5, §2.6) -----------------------------------------------------------------

// curr runs alone; `woken` is put to sleep once (so its vruntime is absolute), then its
// vruntime is set `behind` ns behind curr's and it wakes.
bool wake_behind(int woken_nice, std::int64_t behind) {
  policy_t p;
  task curr = make(0), woken = make(woken_nice);
  sched_time now{};
  p.enqueue(woken, now, enqueue_flags::wakeup);
  p.dequeue(woken, now, dequeue_flags::sleep);
  p.enqueue(curr, now, enqueue_flags::wakeup);
  schedule(p, nullptr, false, now);
  now += msec(20);
  p.tick(curr, now);
  woken.vruntime = curr.vruntime - behind;
  p.enqueue(woken, now, enqueue_flags::wakeup);
  if (behind <= msec(3)) {
    EXPECT_EQ(woken.vruntime, curr.vruntime - behind);  // within the 3 ms sleeper window
  } else {
    // §2.4: placement clamps a waking task to min_vruntime - 3 ms, so a nice-5 wakee (gran
    // 3.06 ms) cannot preempt a nice-0 curr by sleeping alone; set its vruntime after the
    // enqueue (it is the only task in the tree, so the order is unaffected).
    EXPECT_EQ(woken.vruntime, curr.vruntime - msec(3));
    woken.vruntime = curr.vruntime - behind;
  }
  return p.wakeup_preempt(woken, curr, now);
}

TEST(CfsPolicy, WakeupPreemptsOnlyBeyondWakeupGranO25) {
  // §2.6 / O2.5: a nice-0 wakee preempts a nice-0 curr only when more than 1 ms behind.
  EXPECT_FALSE(wake_behind(0, 0));
  EXPECT_FALSE(wake_behind(0, msec(1)));
  EXPECT_TRUE(wake_behind(0, msec(1) + 1));
  EXPECT_TRUE(wake_behind(0, msec(2)));
  // §2.6: gran = calc_delta_fair(1 ms, wakee): 3 056 716 ns for a nice-5 wakee (O2.4).
  EXPECT_FALSE(wake_behind(5, 3056716));
  EXPECT_TRUE(wake_behind(5, 3056717));
  // A nice -5 wakee: 1 ms x 1024/3121 = 328 099 ns in fixed point (328 099.97 exactly).
  EXPECT_FALSE(wake_behind(-5, 328099));
  EXPECT_TRUE(wake_behind(-5, 328100));
}

TEST(CfsPolicy, BatchAndIdleWakeesNeverPreemptIdleCurrAlwaysPreempted) {
  for (sched_kind kind : {sched_kind::batch, sched_kind::idle}) {
    policy_t p;
    task curr = make(0), woken = make(0, kind);
    sched_time now{};
    p.enqueue(curr, now, enqueue_flags::wakeup);
    schedule(p, nullptr, false, now);
    now += msec(50);
    p.enqueue(woken, now, enqueue_flags::wakeup);
    woken.vruntime = curr.vruntime - msec(40);  // far behind: a normal wakee would preempt
    EXPECT_FALSE(p.wakeup_preempt(woken, curr, now));  // §2.6 step 5
  }
  policy_t p;
  task curr = make(0, sched_kind::idle), woken = make(0);
  sched_time now{};
  p.enqueue(curr, now, enqueue_flags::wakeup);
  schedule(p, nullptr, false, now);
  p.enqueue(woken, now, enqueue_flags::wakeup);
  EXPECT_TRUE(p.wakeup_preempt(woken, curr, now));  // §2.6 step 4
}

TEST(CfsPolicy, TickPreemptsAfterIdealSlice) {
  // Two nice-0 hogs on UP: ideal slice = 6 ms x 1/2 = 3 ms (§2.5), which the kernel's fixed
  // point computes as 2 999 998 ns, so the 3rd tick (ran 3 ms > ideal) reschedules: they
  // alternate every 3 ms (0, 3, ..., 39 ms: 14 switches in 40 ms).
  policy_t p;
  tick_driver<single_class<policy_t>> d(*static_cast<single_class<policy_t>*>(&p), 1000);
  task a = make(0), b = make(0);
  d.add(a, behaviour::hog());
  d.add(b, behaviour::hog());
  d.run_until(msec(40));
  EXPECT_EQ(d.stats(0).cpu_ns + d.stats(1).cpu_ns, msec(40));
  EXPECT_EQ(d.context_switches(), 14u);
  EXPECT_EQ(d.stats(0).max_wait_ns, msec(3));
  EXPECT_EQ(d.stats(1).max_wait_ns, msec(3));
}

TEST(CfsPolicy, YieldUsesTheSkipBuddy) {
  policy_t p;
  task a = make(0), b = make(0);
  sched_time now{};
  p.enqueue(a, now, enqueue_flags::wakeup);
  p.enqueue(b, now, enqueue_flags::wakeup);
  task* c = schedule(p, nullptr, false, now);
  task* o = c == &a ? &b : &a;
  now += usec(100);
  p.tick(*c, now);
  // Make curr the leftmost after put_prev, but within one wakeup granularity of the other.
  c->vruntime = o->vruntime - usec(500);
  p.yield(*c, now);
  EXPECT_EQ(schedule(p, c, true, now), o);  // §2.7: the skip buddy is avoided
  // The skip buddy persists until the yielder is picked or leaves: still avoided.
  now += usec(10);
  EXPECT_EQ(schedule(p, o, true, now), o);
  // Once the other task is more than one wakeup granularity ahead, the yielder runs again.
  now += msec(2);
  p.tick(*o, now);
  EXPECT_EQ(schedule(p, o, true, now), c);
  EXPECT_TRUE(p.verify());
}

TEST(CfsPolicy, NextBuddyRunsTheWakeeThatPreemptedWithinAGranularityOfTheLeftmost) {
  // §2.6 step 7 / §2.7: a preempting wakee becomes `next` and wins the pick while within one
  // wakeup granularity of the leftmost; beyond it the leftmost runs (pick_next_entity: "if
  // (cfs_rq->next && wakeup_preempt_entity(cfs_rq->next, left) < 1) se = cfs_rq->next;").
  const struct {
    std::int64_t woken_behind, curr_ahead;  // of the leftmost waiter, ns
    bool woken_runs;
  } cases[] = {{usec(500), msec(2), true}, {usec(1500), msec(3), false}};
  for (const auto& k : cases) {
    SCOPED_TRACE(k.woken_behind);
    policy_t p;
    task curr = make(0), waiter = make(0), woken = make(0);
    sched_time now{};
    p.enqueue(curr, now, enqueue_flags::wakeup);
    p.enqueue(waiter, now, enqueue_flags::wakeup);
    p.enqueue(woken, now, enqueue_flags::wakeup);
    p.dequeue(woken, now, dequeue_flags::sleep);
    schedule(p, nullptr, false, now);
    task* c = p.current();
    task* w = c == &curr ? &waiter : &curr;
    now += msec(2);
    p.tick(*c, now);
    woken.vruntime = w->vruntime + k.woken_behind;  // behind curr by > 1 ms, so it preempts
    c->vruntime = w->vruntime + k.curr_ahead;
    p.enqueue(woken, now, enqueue_flags::wakeup);
    ASSERT_EQ(woken.vruntime, w->vruntime + k.woken_behind);
    ASSERT_TRUE(p.wakeup_preempt(woken, *c, now));  // woken is the next buddy now
    EXPECT_EQ(schedule(p, c, true, now), k.woken_runs ? &woken : w);
    EXPECT_TRUE(p.verify());
  }
}

// ---- bad input, misuse ---------------------------------------------------------------------

TEST(CfsPolicy, BadParametersAreRefusedWithoutChange) {
  policy_t p;
  task t = make(3);
  EXPECT_EQ(p.setup(t, {sched_kind::normal, 20, 0, 0, 0, 0}), errc::invalid_argument);
  EXPECT_EQ(p.setup(t, {sched_kind::normal, -21, 0, 0, 0, 0}), errc::invalid_argument);
  EXPECT_EQ(p.setup(t, {sched_kind::fifo, 0, 10, 0, 0, 0}), errc::invalid_argument);
  EXPECT_EQ(p.setup(t, {sched_kind::deadline, 0, 0, 1, 2, 3}), errc::invalid_argument);
  EXPECT_EQ(t.nice, 3);
  EXPECT_EQ(t.load.weight, 526u);
  p.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  EXPECT_EQ(p.setup(t, {sched_kind::normal, 0, 0, 0, 0, 0}), errc::busy);
  EXPECT_EQ(t.nice, 3);
  EXPECT_EQ(p.load(), 526u);

  const policy_t::knobs before = p.config();
  policy_t::knobs k;
  k.latency = 0;
  EXPECT_EQ(p.configure(k), errc::invalid_argument);
  k = {};
  k.min_granularity = 0;
  EXPECT_EQ(p.configure(k), errc::invalid_argument);
  k = {};
  k.cpus = 0;
  EXPECT_EQ(p.configure(k), errc::invalid_argument);
  k = {};
  k.latency = usec(500);  // below min_granularity 750 µs
  EXPECT_EQ(p.configure(k), errc::inverted);
  k = {};
  k.wakeup_granularity = -1;
  EXPECT_EQ(p.configure(k), errc::invalid_argument);
  k = {};
  k.tunable_scaling = 3;
  EXPECT_EQ(p.configure(k), errc::invalid_argument);
  EXPECT_EQ(p.config().latency, before.latency);
  EXPECT_EQ(p.config().min_granularity, before.min_granularity);
  EXPECT_EQ(p.sched_latency(), msec(6));
  k = {};
  k.wakeup_granularity = 0;  // the kernel allows 0
  EXPECT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.reset_vruntime(vtime{5}), errc::busy);  // queue not empty

  // Explicit weights (a group's shares) outside [MIN_SHARES 2, MAX_SHARES 2^18]: refused, for a
  // task asleep (set_weight) and queued (reweight), nothing changed; a queued task's
  // set_weight is busy.
  task w = make(0);
  for (u32 bad : {0u, 1u, policy_t::weight_max + 1, ~0u}) {
    EXPECT_EQ(p.set_weight(w, bad), errc::invalid_argument) << bad;
    EXPECT_EQ(p.reweight(t, bad, sched_time{}), errc::invalid_argument) << bad;
  }
  EXPECT_EQ(w.load.weight, 1024u);
  EXPECT_EQ(t.load.weight, 526u);
  EXPECT_EQ(p.load(), 526u);
  EXPECT_EQ(p.set_weight(t, 2048), errc::busy);
  EXPECT_EQ(t.load.weight, 526u);
  EXPECT_EQ(p.set_weight(w, policy_t::weight_min), errc::ok);
  EXPECT_EQ(p.set_weight(w, policy_t::weight_max), errc::ok);
  EXPECT_EQ(w.load.weight, policy_t::weight_max);
}

TEST(CfsPolicy, DoubleEnqueueStrayDequeueAndQueuedExitAreRefusedAndReported) {
  policy_t p;
  task t = make(0), u = make(0);
  p.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  schedcore_test::check_scope scope;
  p.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  EXPECT_EQ(scope.take().size(), 1u);
  EXPECT_EQ(p.nr_runnable(), 1u);
  p.dequeue(u, sched_time{}, dequeue_flags::sleep);
  EXPECT_EQ(scope.take().size(), 1u);
  EXPECT_EQ(p.nr_runnable(), 1u);
  EXPECT_TRUE(p.verify());
  // Exit while still queued (the caller skipped the final dequeue): reported, the task stays.
  p.task_dead(t, sched_time{});
  EXPECT_EQ(scope.take().size(), 1u);
  EXPECT_EQ(p.nr_runnable(), 1u);
  EXPECT_EQ(p.pick_next(sched_time{}), &t);
  EXPECT_TRUE(p.verify());
}

// ---- wrap (§2.1: wrap-safe vruntime compare) -------------------------------------------------

struct run_result {
  std::vector<std::int64_t> cpu;
  std::vector<std::size_t> log;
  std::vector<std::int64_t> lat;
  int verify_failures;
  bool operator==(const run_result& o) const {
    return cpu == o.cpu && log == o.log && lat == o.lat && verify_failures == o.verify_failures;
  }
};

run_result mixed_run(sched_time origin, bool reset_min, u64 min_vr) {
  verifying p;
  if (reset_min) {
    EXPECT_EQ(p.reset_vruntime(vtime{min_vr}), errc::ok);
  }
  task a = make(0), b = make(3), c = make(-2), d2 = make(0), e = make(10);
  tick_driver<verifying> d(p, 250, origin);
  d.add(a, behaviour::hog());
  d.add(b, behaviour::hog(msec(1)));
  d.add(c, behaviour::cycle(msec(3), msec(11), msec(2)));
  d.add(d2, behaviour::cycle(usec(700), msec(4), usec(300)));
  d.add(e, behaviour::cycle(msec(20), msec(35)));
  d.run_until(sec(3));
  run_result r;
  for (std::size_t i = 0; i < 5; ++i) {
    r.cpu.push_back(d.stats(i).cpu_ns);
    for (auto l : d.stats(i).wakeup_latency_ns) r.lat.push_back(l);
  }
  r.log = d.switch_log();
  r.verify_failures = p.failures;
  return r;
}

TEST(CfsPolicy, SameScheduleWhenClockOrVruntimeStartsJustBelowWrap) {
  const run_result base = mixed_run(sched_time{}, true, 0);
  EXPECT_EQ(base.verify_failures, 0);
  EXPECT_GT(base.cpu[0], 0);
  EXPECT_GT(base.log.size(), 100u);
  // The driver's clock just below 2^64.
  EXPECT_TRUE(mixed_run(sched_time{std::numeric_limits<u64>::max() - msec(1500)}, true, 0) == base);
  // min_vruntime just below 2^64 (the vruntimes cross the wrap during the run).
  EXPECT_TRUE(mixed_run(sched_time{}, true, std::numeric_limits<u64>::max() - msec(200)) == base);
  // The kernel's own start, 2^64 - 2^20 (the default).
  EXPECT_TRUE(mixed_run(sched_time{}, false, 0) == base);
  // Both at once.
  EXPECT_TRUE(mixed_run(sched_time{std::numeric_limits<u64>::max() - msec(10)}, true,
                        std::numeric_limits<u64>::max() - 5) == base);
}

TEST(CfsPolicy, MigrationAndParameterChangeKeepRelativeVruntime) {
  policy_t a, b;
  ASSERT_EQ(b.reset_vruntime(vtime{1ull << 40}), errc::ok);
  task t = make(0), u = make(0);
  sched_time now{};
  a.enqueue(t, now, enqueue_flags::wakeup);
  a.enqueue(u, now, enqueue_flags::wakeup);
  schedule(a, nullptr, false, now);
  task* c = a.current();
  task* o = c == &t ? &u : &t;
  now += msec(2);
  a.tick(*c, now);
  const std::int64_t lead = o->vruntime - a.min_vruntime();
  a.dequeue(*o, now, dequeue_flags::migrating);
  b.enqueue(*o, now, enqueue_flags::migrated);
  EXPECT_EQ(o->vruntime - b.min_vruntime(), lead);  // §2.4: migration renormalises
  // A nice change through dequeue(save) / setup / enqueue(restore) keeps the offset.
  b.dequeue(*o, now, dequeue_flags::save);
  EXPECT_EQ(b.setup(*o, {sched_kind::normal, 7, 0, 0, 0, 0}), errc::ok);
  b.enqueue(*o, now, enqueue_flags::restore);
  EXPECT_EQ(o->vruntime - b.min_vruntime(), lead);
  EXPECT_EQ(b.load(), 215u);
  EXPECT_TRUE(a.verify());
  EXPECT_TRUE(b.verify());
}

// Oracle: Linux 5.x-6.5 migrate_task_rq_fair() for a TASK_WAKING task: vruntime -= the old
// cfs_rq's min_vruntime *at the wakeup*, then enqueue_entity() adds the new one's and
// place_entity() gives the sleeper credit. s runs 1 ms on queue a and sleeps; h then runs 20 ms
// alone there, so a's min_vruntime moves 20 ms past s. s wakes on queue b: with the hook it is
// 19 ms behind a's min_vruntime, so the credit's floor places it at b's min_vruntime -
// latency/2 (3 ms). Without the hook (a driver that only passes `migrated`), the offset at the
// time s slept is all the entity knows: s lands 1 ms after b's min_vruntime.
TEST(CfsPolicy, AMigratedWakeupIsRenormalisedByTheOldQueuesMinVruntimeAtTheWakeup) {
  for (const bool hook : {true, false}) {
    SCOPED_TRACE(hook ? "migrate_task_rq" : "no hook");
    policy_t a, b;
    policy_t::knobs k;
    k.start_debit = 0;  // first enqueues at min_vruntime: the offsets below are the run times
    ASSERT_EQ(a.configure(k), errc::ok);
    ASSERT_EQ(b.configure(k), errc::ok);
    task s = make(0), h = make(0), other = make(0);
    sched_time now{};
    a.enqueue(s, now, enqueue_flags::wakeup);
    a.enqueue(h, now, enqueue_flags::wakeup);
    a.set_next(s, now);
    now += msec(1);
    a.dequeue(s, now, dequeue_flags::sleep);  // s: 1 ms of vruntime, a's min_vruntime at 0
    ASSERT_EQ(schedule(a, nullptr, false, now), &h);
    for (int i = 0; i < 20; ++i) (void)a.tick(h, now += msec(1));
    ASSERT_EQ(a.min_vruntime() - s.vruntime, msec(19));
    b.enqueue(other, now, enqueue_flags::wakeup);
    b.set_next(other, now);
    for (int i = 0; i < 7; ++i) (void)b.tick(other, now += msec(1));
    if (hook) {
      policy_traits<policy_t>::migrate_task_rq(a, s, now);
      const vtime rel = s.vruntime;
      policy_traits<policy_t>::migrate_task_rq(a, s, now);  // a second call changes nothing
      EXPECT_EQ(s.vruntime, rel);
    }
    b.enqueue(s, now, enqueue_flags::wakeup | enqueue_flags::migrated);
    EXPECT_EQ(s.vruntime - b.min_vruntime(), hook ? -(b.sched_latency() / 2) : msec(1));
    EXPECT_TRUE(a.verify());
    EXPECT_TRUE(b.verify());
  }
  // A queued task is not touched (its migration is dequeue(migrating) / enqueue(migrated)).
  policy_t a;
  task q = make(0);
  a.enqueue(q, sched_time{}, enqueue_flags::wakeup);
  const vtime before = q.vruntime;
  policy_traits<policy_t>::migrate_task_rq(a, q, sched_time{} + msec(1));
  EXPECT_EQ(q.vruntime, before);
  EXPECT_TRUE(a.verify());
}

// Oracle: Linux 6.5 switched_from_fair() → detach_task_cfs_rq(): a sleeping task that leaves
// the fair class is placed as a wakeup (max(v, min_vruntime − latency/2), GENTLE_FAIR_SLEEPERS)
// and kept relative; its return through enqueue_entity(ENQUEUE_RESTORE) adds the min_vruntime
// of then. s runs 1 ms and sleeps; h runs alone to 100 ms; s is made SCHED_FIFO while asleep,
// runs as RT, and is made SCHED_NORMAL again at 151 ms while it runs: it comes back latency/2
// (3 ms) behind min_vruntime, not with the 98 ms its absolute vruntime had fallen behind.
TEST(CfsPolicy, ASleeperLeavingTheClassIsPlacedAsAWakeupAndKeptRelative) {
  policy_t p;
  task s = make(0), h = make(0);
  sched_time now{};
  p.enqueue(s, now, enqueue_flags::wakeup);
  p.enqueue(h, now, enqueue_flags::wakeup);
  p.set_next(s, now);
  now += msec(1);
  p.dequeue(s, now, dequeue_flags::sleep);
  task* c = schedule(p, nullptr, false, now);
  ASSERT_EQ(c, &h);
  for (int i = 0; i < 99; ++i) (void)p.tick(h, now += msec(1));
  policy_traits<policy_t>::switched_from(p, s, now);  // sched_setscheduler(s, SCHED_FIFO) while s sleeps (the core calls the hook this way)
  EXPECT_EQ(s.vruntime.ns(), static_cast<std::uint64_t>(-(p.sched_latency() / 2)))
      << "placed at min_vruntime - latency/2, kept relative";
  EXPECT_TRUE(p.verify());
  for (int i = 0; i < 50; ++i) (void)p.tick(h, now += msec(1));
  p.put_prev(h, now);  // s wakes as an RT task and runs
  now += msec(1);
  ASSERT_EQ(p.setup(s, sched_params{sched_kind::normal, 0, 0, 0, 0, 0}), errc::ok);
  p.enqueue(s, now, enqueue_flags::restore);  // sched_setscheduler(s, SCHED_NORMAL) while it runs
  EXPECT_EQ(s.vruntime - p.min_vruntime(), -(p.sched_latency() / 2));
  EXPECT_TRUE(p.verify());
  // A task taken out with `save` is relative already: switched_from leaves it as it is.
  p.dequeue(s, now, dequeue_flags::save);
  const vtime rel = s.vruntime;
  policy_traits<policy_t>::switched_from(p, s, now);
  EXPECT_EQ(s.vruntime, rel);
}

// Oracle: Linux 6.5 __sched_fork() sets se.vruntime = 0 and an RT task has no task_fork, so a
// task that has only ever run in another class and is made SCHED_NORMAL while queued is
// renormalised by enqueue_entity(ENQUEUE_RESTORE) to min_vruntime exactly: no START_DEBIT.
TEST(CfsPolicy, ATaskEnteringFromAnotherClassWhileQueuedLandsAtMinVruntime) {
  policy_t p;
  task h = make(0), r = make(0);
  sched_time now{};
  p.enqueue(h, now, enqueue_flags::wakeup);
  task* c = schedule(p, nullptr, false, now);
  for (int i = 0; i < 10; ++i) (void)p.tick(*c, now += msec(1));
  p.dequeue(h, now, dequeue_flags::sleep);
  p.enqueue(r, now, enqueue_flags::restore);
  EXPECT_EQ(r.vruntime, p.min_vruntime());
  p.set_next(r, now);
  // h wakes 0.5 ms later: placed at its own vruntime (it slept 0.5 ms), 0.5 ms before r, less
  // than a wakeup granularity: no preemption (with START_DEBIT r would have been 6 ms ahead).
  (void)p.tick(r, now += usec(500));
  p.enqueue(h, now, enqueue_flags::wakeup);
  EXPECT_EQ(r.vruntime - h.vruntime, usec(500));
  EXPECT_FALSE(p.wakeup_preempt(h, r, now));
  EXPECT_TRUE(p.verify());
}

// Oracle: Linux 5.x-6.5 kernel/sched/fair.c dequeue_entity(): min_vruntime is not advanced
// when DEQUEUE_SAVE is set without DEQUEUE_MOVE, whatever other bits come with it (the test
// masks the flags with SAVE|MOVE), so a saved task is not placed later on its restore. With
// DEQUEUE_MOVE (__sched_setscheduler, rt_mutex_setprio and sched_move_task dequeue with
// SAVE | MOVE; only set_user_nice with SAVE alone) it is updated, to the one task left; the
// task keeps its vruntime relative to min_vruntime (dequeue_entity subtracts the old one, the
// restore adds the updated one), so it comes back that much later.
TEST(CfsPolicy, SaveDequeueAdvancesMinVruntimeOnlyWithMove) {
  for (dequeue_flags f : {dequeue_flags::save, dequeue_flags::save | dequeue_flags::migrating,
                          dequeue_flags::save | dequeue_flags::move}) {
    const bool move = has(f, dequeue_flags::move);
    policy_t p;
    task a = make(0), b = make(0);
    sched_time now{};
    p.enqueue(a, now, enqueue_flags::wakeup);
    p.enqueue(b, now, enqueue_flags::wakeup);
    task* c = schedule(p, nullptr, false, now);
    task* o = c == &a ? &b : &a;
    now += usec(100);
    p.tick(*c, now);
    c->vruntime = o->vruntime - msec(2);  // the running task holds min_vruntime back
    const vtime minv = p.min_vruntime();
    ASSERT_LT(minv, o->vruntime);
    const s64 relative = c->vruntime - minv;
    p.dequeue(*c, now, f);
    EXPECT_EQ(p.min_vruntime(), move ? o->vruntime : minv) << static_cast<int>(f);
    p.enqueue(*c, now, enqueue_flags::restore);
    EXPECT_EQ(c->vruntime - p.min_vruntime(), relative) << static_cast<int>(f);
    EXPECT_TRUE(p.verify());
  }
}

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

// Source: kernel/sched/fair.c __update_inv_weight: `lw->inv_weight = WMULT_CONST / w` with
// WMULT_CONST = ~0U (algorithms-modern.md §2.2: inv_weight = 0xFFFFFFFF / w); the kernel's own
// WMULT_IDLEPRIO 1431655765 is exactly 0xFFFFFFFF / WEIGHT_IDLEPRIO (3).
TEST(CfsPolicy, FairInvWeightIsWmultConstOverWeight) {
  EXPECT_EQ(fair_inv_weight(weight_idleprio), wmult_idleprio);  // 0xFFFFFFFF / 3
  EXPECT_EQ(make_load(3).inv_weight, 1431655765u);
  EXPECT_EQ(fair_inv_weight(5), 858993459u);      // 0xFFFFFFFF / 5, exact
  EXPECT_EQ(fair_inv_weight(255), 16843009u);     // 0xFFFFFFFF / 255, exact
  EXPECT_EQ(fair_inv_weight(65535), 65537u);      // 0xFFFFFFFF / 65535, exact
  EXPECT_EQ(fair_inv_weight(1), 0xFFFFFFFFu);
  EXPECT_EQ(fair_inv_weight(1024), 4194303u);     // 0xFFFFFFFF / 1024 (the table has 2^22)
  EXPECT_EQ(fair_inv_weight(0xFFFFFFFFull), 1u);  // w >= WMULT_CONST: 1
}

// Source: Linux 5.x kernel/sched/fair.c sched_proc_update_handler() / update_sysctl():
// sched_nr_latency = DIV_ROUND_UP(sysctl_sched_latency, sysctl_sched_min_granularity).
TEST(CfsPolicy, NrLatencyRoundsUpWhenLatencyIsNotAMultipleOfMinGranularity) {
  policy_t p;
  policy_t::knobs k;
  k.min_granularity = usec(800);  // 6 ms / 0.8 ms = 7.5 -> 8
  ASSERT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.nr_latency(), 8u);
  // __sched_period(): nr_running > sched_nr_latency ? nr * min_gran : latency.
  EXPECT_EQ(p.sched_period(8), msec(6));
  EXPECT_EQ(p.sched_period(9), 9 * usec(800));
  k.min_granularity = usec(750);  // an exact multiple: 8 either way
  ASSERT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.nr_latency(), 8u);
}

// Source: Linux 5.x kernel/sched/fair.c pick_next_entity(): "clear_buddies(cfs_rq, se);" -- the
// skip buddy a yield set lasts until the yielder is picked; once it has run it is not skipped.
TEST(CfsPolicy, TheSkipBuddyIsClearedWhenTheYielderIsPicked) {
  policy_t p;
  task a = make(0), b = make(0);
  sched_time now{};
  p.enqueue(a, now, enqueue_flags::wakeup);
  p.enqueue(b, now, enqueue_flags::wakeup);
  task* c = schedule(p, nullptr, false, now);
  task* o = c == &a ? &b : &a;
  now += usec(100);
  p.tick(*c, now);
  c->vruntime = o->vruntime - usec(500);
  p.yield(*c, now);
  ASSERT_EQ(schedule(p, c, true, now), o);  // skipped
  now += msec(2);
  p.tick(*o, now);  // o is now more than a wakeup granularity ahead: the yielder is picked
  ASSERT_EQ(schedule(p, o, true, now), c);
  // c runs a little and is put back as the leftmost, within one granularity of o: with no
  // buddy left the leftmost wins.
  now += usec(100);
  p.tick(*c, now);
  c->vruntime = o->vruntime - usec(500);
  EXPECT_EQ(schedule(p, c, true, now), c);
  EXPECT_TRUE(p.verify());
}

// Source: Linux 5.x kernel/sched/fair.c check_preempt_wakeup(): "int scale = cfs_rq->nr_running >=
// sched_nr_latency;" and, on preemption, "if (sched_feat(LAST_BUDDY) && scale && entity_is_task(se))
// set_last_buddy(se);" -- with exactly sched_nr_latency (8) tasks queued the preempted curr
// becomes the last buddy and gets the CPU back while within one wakeup granularity of the leftmost.
TEST(CfsPolicy, LastBuddyIsSetWithExactlyNrLatencyTasksQueued) {
  policy_t p;
  policy_t::knobs k;
  k.start_debit = 0;  // every newcomer at min_vruntime
  ASSERT_EQ(p.configure(k), errc::ok);
  ASSERT_EQ(p.nr_latency(), 8u);
  std::vector<task> ts(7, make(0));
  task w = make(0);
  sched_time now{};
  for (task& t : ts) p.enqueue(t, now, enqueue_flags::wakeup);
  p.enqueue(w, now, enqueue_flags::wakeup);
  p.dequeue(w, now, dequeue_flags::sleep);
  task* c = schedule(p, nullptr, false, now);
  const vtime v0 = c->vruntime;
  now += usec(500);
  p.tick(*c, now);  // c is 0.5 ms ahead of the six others
  w.vruntime = v0 - msec(3);
  p.enqueue(w, now, enqueue_flags::wakeup);  // 8 queued now
  ASSERT_EQ(p.nr_runnable(), 8u);
  ASSERT_TRUE(p.wakeup_preempt(w, *c, now));  // 3.5 ms behind c: preempts
  ASSERT_EQ(schedule(p, c, true, now), &w);
  now += msec(4);
  p.tick(w, now);  // w runs past everyone
  // The leftmost is one of the six at v0; c, 0.5 ms ahead of it (< 1 ms granularity), is the
  // last buddy and is picked.
  EXPECT_EQ(schedule(p, &w, true, now), c);
  EXPECT_TRUE(p.verify());
}

// Source: Linux 5.x kernel/sched/fair.c sched_slice(): "slice = __sched_period(cfs_rq->nr_running
// + !se->on_rq);" -- a task not yet queued counts itself in the period (and its weight in the load).
TEST(CfsPolicy, TheSliceOfATaskNotQueuedCountsItInThePeriod) {
  policy_t p;
  policy_t::knobs k;
  k.base_slice = 0;  // no min_granularity floor: the share itself
  ASSERT_EQ(p.configure(k), errc::ok);
  std::vector<task> ts(8, make(0));
  for (task& t : ts) p.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  task out = make(0);
  // period(9) = 9 x 0.75 ms = 6.75 ms, share 1024/9216: 0.75 ms (not period(8) = 6 ms: 0.667 ms).
  EXPECT_LE(std::abs(static_cast<std::int64_t>(p.sched_slice(out)) - usec(750)), 2);
  // A queued one: period(8) = 6 ms, share 1024/8192 = 0.75 ms as well.
  EXPECT_LE(std::abs(static_cast<std::int64_t>(p.sched_slice(ts[0])) - usec(750)), 2);
  EXPECT_TRUE(p.verify());
}

// Source: Linux 5.x kernel/sched/fair.c update_min_vruntime(): "ensure we never gain time by being
// placed backwards." cfs_rq->min_vruntime = max_vruntime(cfs_rq->min_vruntime, vruntime);
TEST(CfsPolicy, MinVruntimeDoesNotMoveBackForASleeperPlacedBehindIt) {
  policy_t p;
  task a = make(0), b = make(0);
  sched_time now{};
  p.enqueue(a, now, enqueue_flags::wakeup);
  p.enqueue(b, now, enqueue_flags::wakeup);
  task* c = schedule(p, nullptr, false, now);
  task* o = c == &a ? &b : &a;
  p.dequeue(*o, now, dequeue_flags::sleep);
  now += msec(20);
  p.tick(*c, now);
  p.enqueue(*o, now, enqueue_flags::wakeup);  // placed at min_vruntime - 3 ms
  const vtime minv = p.min_vruntime();
  ASSERT_EQ(minv - o->vruntime, msec(3));
  now += msec(1);
  p.tick(*c, now);  // min(curr, leftmost) = the sleeper, 3 ms behind: min_vruntime stays
  EXPECT_EQ(p.min_vruntime(), minv);
  p.dequeue(*c, now, dequeue_flags::sleep);
  EXPECT_EQ(p.min_vruntime(), minv);
  EXPECT_TRUE(p.verify());
}

// Source: Linux 5.x kernel/sched/fair.c check_preempt_tick(): "if (delta_exec <
// sysctl_sched_min_granularity) return;" -- strict: a curr that has run exactly min_granularity
// goes on to the vruntime test "delta = curr->vruntime - se->vruntime; if (delta > ideal_runtime)".
TEST(CfsPolicy, TickAfterExactlyMinGranularityStillComparesVruntimes) {
  policy_t p;
  task a = make(0), b = make(0);
  sched_time now{};
  p.enqueue(a, now, enqueue_flags::wakeup);
  p.enqueue(b, now, enqueue_flags::wakeup);
  task* c = schedule(p, nullptr, false, now);
  task* o = c == &a ? &b : &a;
  p.dequeue(*o, now, dequeue_flags::sleep);
  now += msec(10);
  p.tick(*c, now);  // alone: 10 ms
  p.enqueue(*o, now, enqueue_flags::wakeup);  // at min_vruntime - 3 ms: 3 ms behind c
  p.put_prev(*c, now);
  p.set_next(*c, now);  // picked again (e.g. by a higher class's return): ran restarts at 0
  now += usec(750);     // exactly min_granularity
  const std::int64_t d = c->vruntime - o->vruntime + usec(750);
  ASSERT_GT(d, static_cast<std::int64_t>(p.sched_slice(*c)));  // 3.75 ms > ideal 3 ms
  EXPECT_TRUE(p.tick(*c, now));
  EXPECT_TRUE(p.verify());
}

// Source: Linux 5.x kernel/sched/fair.c check_preempt_tick(): "if (delta_exec > ideal_runtime) {
// resched_curr(...); ...}" -- strict: a curr that has run exactly its ideal slice is not yet preempted.
TEST(CfsPolicy, TickAtExactlyTheIdealSliceDoesNotPreempt) {
  policy_t p;
  policy_t::knobs k;
  k.start_debit = 0;  // all ten at min_vruntime
  ASSERT_EQ(p.configure(k), errc::ok);
  std::vector<task> ts(10, make(0));
  sched_time now{};
  for (task& t : ts) p.enqueue(t, now, enqueue_flags::wakeup);
  task* c = schedule(p, nullptr, false, now);
  // period 10 x 0.75 ms, share 1/10, floored by BASE_SLICE at min_granularity: exactly 0.75 ms.
  ASSERT_EQ(p.sched_slice(*c), static_cast<std::uint64_t>(usec(750)));
  now += usec(750);  // ran == ideal; vruntime 0.75 ms past the leftmost, not more
  EXPECT_FALSE(p.tick(*c, now));
  now += 1;  // one ns more: ran > ideal
  EXPECT_TRUE(p.tick(*c, now));
  EXPECT_TRUE(p.verify());
}

// Source: Linux 5.15 kernel/sched/fair.c place_entity(): "if (se_is_idle(se)) thresh =
// sysctl_sched_min_granularity; else thresh = sysctl_sched_latency;" then halved by
// GENTLE_FAIR_SLEEPERS -- a SCHED_IDLE sleeper's credit is min_granularity/2, not latency/2.
TEST(CfsPolicy, AnIdleSleepersCreditIsHalfTheMinGranularity) {
  for (const sched_kind kind : {sched_kind::normal, sched_kind::idle}) {
    policy_t p;
    policy_t::knobs k;
    k.start_debit = 0;  // both start at min_vruntime (an idle newcomer's debit is ~256 ms)
    ASSERT_EQ(p.configure(k), errc::ok);
    task a = make(0), s = make(0, kind);
    sched_time now{};
    p.enqueue(a, now, enqueue_flags::wakeup);
    p.enqueue(s, now, enqueue_flags::wakeup);
    p.dequeue(s, now, dequeue_flags::sleep);
    ASSERT_EQ(schedule(p, nullptr, false, now), &a);
    now += msec(50);
    p.tick(a, now);
    p.enqueue(s, now, enqueue_flags::wakeup);
    EXPECT_EQ(p.min_vruntime() - s.vruntime, kind == sched_kind::idle ? usec(375) : msec(3));
    EXPECT_TRUE(p.verify());
  }
}

// Source: Linux 5.x kernel/sched/fair.c check_preempt_wakeup(): "int scale = cfs_rq->nr_running >=
// sched_nr_latency;" ... "if (sched_feat(LAST_BUDDY) && scale && entity_is_task(se))
// set_last_buddy(se);" -- below sched_nr_latency tasks the preempted curr is not the last buddy.
TEST(CfsPolicy, NoLastBuddyBelowNrLatencyTasks) {
  policy_t p;
  policy_t::knobs k;
  k.start_debit = 0;
  ASSERT_EQ(p.configure(k), errc::ok);
  std::vector<task> ts(3, make(0));
  task w = make(0);
  sched_time now{};
  for (task& t : ts) p.enqueue(t, now, enqueue_flags::wakeup);
  p.enqueue(w, now, enqueue_flags::wakeup);
  p.dequeue(w, now, dequeue_flags::sleep);
  task* c = schedule(p, nullptr, false, now);
  const vtime v0 = c->vruntime;
  now += usec(500);
  p.tick(*c, now);
  w.vruntime = v0 - msec(3);
  p.enqueue(w, now, enqueue_flags::wakeup);  // 4 queued: below sched_nr_latency (8)
  ASSERT_TRUE(p.wakeup_preempt(w, *c, now));
  ASSERT_EQ(schedule(p, c, true, now), &w);
  now += msec(4);
  p.tick(w, now);
  // c is within one granularity of the leftmost but is no buddy: the leftmost (at v0) runs.
  task* n = schedule(p, &w, true, now);
  EXPECT_NE(n, c);
  EXPECT_EQ(n->vruntime, v0);
  EXPECT_TRUE(p.verify());
}

// Source: Linux 5.x kernel/sched/fair.c yield_task_fair(): "if (curr->policy != SCHED_BATCH) {
// update_rq_clock(rq); update_curr(cfs_rq); ... }" -- a SCHED_BATCH yielder is not charged there.
TEST(CfsPolicy, ABatchYielderIsNotChargedAtTheYield) {
  for (const sched_kind kind : {sched_kind::normal, sched_kind::batch}) {
    policy_t p;
    task y = make(0, kind), o = make(0);
    sched_time now{};
    p.enqueue(y, now, enqueue_flags::wakeup);
    p.enqueue(o, now, enqueue_flags::wakeup);
    p.set_next(y, now);
    const vtime v = y.vruntime;
    now += msec(1);
    p.yield(y, now);
    EXPECT_EQ(y.vruntime - v, kind == sched_kind::batch ? 0 : msec(1));
    EXPECT_TRUE(p.verify());
  }
}

// Source: Linux 5.x kernel/sched/fair.c pick_next_entity(): "if (!left || (curr &&
// entity_before(curr, left))) left = curr;" with entity_before() = (s64)(a->vruntime -
// b->vruntime) < 0, a wrap-safe compare (algorithms-modern.md §2.1).
TEST(CfsPolicy, CurrBeforeTheLeftmostAcrossTheVruntimeWrapIsPicked) {
  policy_t p;
  policy_t::knobs k;
  k.start_debit = 0;
  ASSERT_EQ(p.configure(k), errc::ok);
  ASSERT_EQ(p.reset_vruntime(vtime{~std::uint64_t{0} - usec(500) + 1}), errc::ok);  // 0.5 ms below 2^64
  task a = make(0), b = make(0);
  sched_time now{};
  p.enqueue(a, now, enqueue_flags::wakeup);
  p.enqueue(b, now, enqueue_flags::wakeup);
  p.set_next(b, now);
  now += msec(1);
  p.put_prev(b, now);  // b's vruntime has wrapped past 0
  p.set_next(a, now);
  now += usec(100);
  p.tick(a, now);  // a is still below the wrap, 0.9 ms of vruntime before b
  ASSERT_GT(a.vruntime.ns(), b.vruntime.ns()) << "raw counters: a looks later";
  ASSERT_LT(a.vruntime - b.vruntime, 0);
  EXPECT_EQ(p.pick_next(now), &a);  // curr still set: it sorts before the leftmost
  EXPECT_TRUE(p.verify());
}

// Source: Linux 5.15 kernel/sched/fair.c sched_idle_cfs_rq(): "return cfs_rq->nr_running &&
// cfs_rq->nr_running == cfs_rq->idle_nr_running;" and sched_slice()'s BASE_SLICE floor -- an
// empty queue is not an idle-only queue, so a SCHED_IDLE task's floor there is idle_min_granularity.
TEST(CfsPolicy, OnAnEmptyQueueAnIdleTasksFloorIsIdleMinGranularity) {
  policy_t p;
  policy_t::knobs k;
  k.idle_min_granularity = msec(10);  // above sched_latency (6 ms), so the floor shows
  ASSERT_EQ(p.configure(k), errc::ok);
  task idle = make(0, sched_kind::idle);
  EXPECT_EQ(p.sched_slice(idle), static_cast<std::uint64_t>(msec(10)));
  EXPECT_TRUE(p.verify());
}

// Random two-CPU histories (tests/support/cross_queue_diff.hpp): the parent's half of a fork
// onto the other CPU (the kernel runs it in the parent's context, on the parent's queue) does
// not depend on what the child's CPU holds.
struct xq_params {
  static sched_params draw(schedcore_test::xq_rng& r) {
    const sched_kind kind = r.below(6) == 0 ? sched_kind::batch : sched_kind::normal;
    return sched_params{kind, static_cast<s8>(static_cast<int>(r.below(30)) - 10), 0, 0, 0, 0};
  }
};

TEST(CfsPolicy, RandomForksAcrossCpusLeaveTheParentsQueueAlone) {
  schedcore_test::expect_forks_leave_the_parents_queue_alone<policy_t, xq_params>();
}

}  // namespace
