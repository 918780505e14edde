// eevdf_policy (Linux 6.6+ EEVDF, 6.8+ tree) against the oracles of algorithms-modern.md §3
// (and §2.1/§2.2 for the weights), driven by the deterministic tick driver and by direct hook
// calls. Every expected value is computed here from the reference's numbers and formulas, or
// by an independent brute force over the entities' own fields.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <new>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

#include "check_recorder.hpp"
#include "test_steps.hpp"
#include "cross_queue_diff.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "tick_driver.hpp"

namespace {

using namespace schedcore;
using schedcore_test::behaviour;
using schedcore_test::single_class;
using schedcore_test::tick_driver;

struct task : eevdf_entity {
  int id = 0;
};

using policy_t = eevdf_policy<task>;
#ifdef __SIZEOF_INT128__
#define SCHEDCORE_TEST_HAVE_INT128 1
__extension__ typedef __int128 i128;  // exact brute-force sums (host only)
#endif
using driven = single_class<policy_t>;

task make(int nice, sched_kind kind = sched_kind::normal) {
  task t;
  policy_t setup_only;
  EXPECT_EQ(setup_only.setup(t, sched_params{kind, static_cast<s8>(nice), 0, 0, 0, 0}), errc::ok);
  return t;
}

policy_t::knobs knobs_hz(int hz) {
  policy_t::knobs k;
  k.hz = hz;
  return k;
}

// ---- weights and shares ----------------------------------------------------------------------

TEST(EevdfPolicy, ChargeIsCalcDeltaFairOfTheWeight) {
  // The charge uses the entity's cached multiply-shift (fair_vscale): it must advance
  // vruntime by exactly calc_delta_fair(delta) for table, SCHED_IDLE and shares weights, and
  // the first deadline must be vruntime + calc_delta_fair(base slice).
  struct weight_case { int nice; sched_kind kind; std::uint32_t shares; };
  const weight_case cases[] = {{0, sched_kind::normal, 0},  {-20, sched_kind::normal, 0}, {5, sched_kind::normal, 0},
                               {19, sched_kind::normal, 0}, {0, sched_kind::idle, 0},     {0, sched_kind::normal, 2},
                               {0, sched_kind::normal, 777}, {0, sched_kind::normal, 1u << 18}};
  for (const weight_case& c : cases) {
    policy_t p;
    task t = make(c.nice, c.kind);
    if (c.shares != 0) {
      ASSERT_EQ(p.set_weight(t, c.shares), errc::ok);
    }
    const load_weight lw{t.weight, t.inv_weight};
    sched_time now{};
    p.enqueue(t, now, enqueue_flags::wakeup);
    ASSERT_EQ(p.pick_next(now), &t);
    p.set_next(t, now);
    for (std::int64_t step : {std::int64_t{1}, std::int64_t{333333}, msec(3), msec(250)}) {
      const vtime before = t.vruntime;
      now += step;
      (void)p.tick(t, now);
      EXPECT_EQ(t.vruntime - before, static_cast<std::int64_t>(calc_delta_fair(static_cast<std::uint64_t>(step), lw)))
          << t.weight << " " << step;
      EXPECT_LE(t.deadline - t.vruntime, static_cast<std::int64_t>(calc_delta_fair(static_cast<std::uint64_t>(p.base_slice()), lw)));
    }
  }
}

// The weighted sums at the edge of s64: a weight-2 task charged one uncharged 18 s run while
// four weight-2^18 tasks wait (the weights set_weight accepts: MIN_SHARES, MAX_SHARES). Its key
// times Σw is about 9.7e18, past 2^63. The kernel computes entity_eligible() in s64 with
// wrapping arithmetic (-fno-strict-overflow); here the same bits, and no undefined behaviour:
// the ASan + UBSan build (-fno-sanitize-recover) aborts on a signed overflow.
TEST(EevdfPolicy, WeightedSumsWrapAsTheKernelsAtExtremeWeights) {
  policy_t p;
  task a, heavy[4];
  ASSERT_EQ(p.set_weight(a, 2), errc::ok);
  for (task& t : heavy) ASSERT_EQ(p.set_weight(t, 1u << 18), errc::ok);
  sched_time now{sec(1)};
  p.enqueue(a, now, enqueue_flags::wakeup);
  ASSERT_EQ(p.pick_next(now), &a);
  p.set_next(a, now);
  for (task& t : heavy) p.enqueue(t, now, enqueue_flags::wakeup);
  now += sec(18);
  p.tick(a, now);
  const std::int64_t key = a.vruntime - p.min_vruntime();
  const std::uint64_t load = 2 + 4 * (std::uint64_t{1} << 18);
  ASSERT_GT(static_cast<double>(key) * static_cast<double>(load), 9.3e18) << "the product must pass 2^63";
  // The kernel's bits: Σ key_i·w_i >= key_a·Σw, each product and sum mod 2^64, compared signed.
  std::uint64_t sum = static_cast<std::uint64_t>(key) * a.weight;
  for (const task& t : heavy) sum += static_cast<std::uint64_t>(t.vruntime - p.min_vruntime()) * t.weight;
  const bool kernel = static_cast<std::int64_t>(sum) >= static_cast<std::int64_t>(static_cast<std::uint64_t>(key) * load);
  EXPECT_EQ(p.entity_eligible(a), kernel);
  EXPECT_TRUE(p.verify());
  (void)p.avg_vruntime();
  EXPECT_NE(p.pick_next(now), nullptr);
}

TEST(EevdfPolicy, NiceZeroAndOneSplit1024To820O21) {
  // algorithms-modern.md §2.2 O2.1: two hogs at nice 0 and 1 split 1024:820 = 55.53 / 44.47 %.
  driven p;
  ASSERT_EQ(p.configure(knobs_hz(1000)), errc::ok);
  task a = make(0), b = make(1);
  tick_driver<driven> d(p, 1000);
  d.add(a, behaviour::hog());
  d.add(b, behaviour::hog());
  const std::int64_t total = sec(20);
  d.run_until(total);
  const double share_a = 100.0 * static_cast<double>(d.stats(0).cpu_ns) / static_cast<double>(total);
  const double expected = 100.0 * 1024.0 / (1024.0 + 820.0);
  EXPECT_NEAR(share_a, expected, 0.5);
  EXPECT_NEAR(100.0 - share_a, 100.0 - expected, 0.5);
  std::printf("nice 0 vs 1: %.2f / %.2f %% (expected %.2f / %.2f)\n", share_a, 100.0 - share_a, expected,
              100.0 - expected);
  EXPECT_TRUE(p.verify());
}

TEST(EevdfPolicy, HogAgainstHalfDutyTaskSplits67To33O31) {
  // algorithms-modern.md §3.5 O3.1: a 100 % hog and a 50 %-duty task (run 5 ms / sleep 5 ms)
  // split 67/33: while both are runnable they share 1:1, so the sleeper needs 10 ms of wall
  // time per 5 ms burst and the hog also runs alone for the 5 ms sleep: 10:5 per 15 ms.
  driven p;
  ASSERT_EQ(p.configure(knobs_hz(1000)), errc::ok);
  task hog = make(0), half = make(0);
  tick_driver<driven> d(p, 1000);
  d.add(hog, behaviour::hog());
  d.add(half, behaviour::cycle(msec(5), msec(5)));
  const std::int64_t total = sec(30);
  d.run_until(total);
  const double hog_share = 100.0 * static_cast<double>(d.stats(0).cpu_ns) / static_cast<double>(total);
  const double half_share = 100.0 * static_cast<double>(d.stats(1).cpu_ns) / static_cast<double>(total);
  EXPECT_NEAR(hog_share, 200.0 / 3.0, 1.0);
  EXPECT_NEAR(half_share, 100.0 / 3.0, 1.0);
  std::printf("hog vs half-duty: %.2f / %.2f %%\n", hog_share, half_share);
  EXPECT_TRUE(p.verify());
}

TEST(EevdfPolicy, EqualHogsRenewAtTheTickAfterTheSliceO34) {
  // algorithms-modern.md §3.3/O3.4: no tick preemption but deadline renewal: two equal hogs
  // with a 3 ms slice and 1 ms ticks take turns of exactly 3 ms (the request is used up on the
  // third tick) and split 50/50.
  driven p;
  policy_t::knobs k = knobs_hz(1000);
  k.base_slice = msec(3);
  ASSERT_EQ(p.configure(k), errc::ok);
  task a = make(0), b = make(0);
  tick_driver<driven> d(p, 1000);
  d.add(a, behaviour::hog());
  d.add(b, behaviour::hog());
  d.run_until(msec(600));
  EXPECT_EQ(d.stats(0).cpu_ns, msec(300));
  EXPECT_EQ(d.stats(1).cpu_ns, msec(300));
  EXPECT_EQ(d.context_switches(), 200u);  // 600 ms / 3 ms turns
}

// ---- virtual time, eligibility, placement ----------------------------------------------------

TEST(EevdfPolicy, AvgVruntimeAndEligibilityO35) {
  // algorithms-modern.md §3.5 O3.5: three nice-0 tasks at keys 0, 1 and 5 ms give V = 2 ms;
  // only the first two are eligible.
  policy_t p;
  task a = make(0), b = make(0), c = make(0);
  const sched_time t0{};
  p.enqueue(a, t0, enqueue_flags::wakeup);
  p.enqueue(b, t0, enqueue_flags::wakeup);
  p.enqueue(c, t0, enqueue_flags::wakeup);
  ASSERT_EQ(a.vruntime, b.vruntime);
  ASSERT_EQ(a.vruntime, c.vruntime);
  p.set_next(c, t0);
  p.put_prev(c, t0 + msec(5));
  p.set_next(b, t0 + msec(5));
  p.put_prev(b, t0 + msec(6));
  ASSERT_EQ(c.vruntime - a.vruntime, msec(5));
  ASSERT_EQ(b.vruntime - a.vruntime, msec(1));
  EXPECT_EQ(p.avg_vruntime() - a.vruntime, msec(2));
  EXPECT_TRUE(p.entity_eligible(a));
  EXPECT_TRUE(p.entity_eligible(b));
  EXPECT_FALSE(p.entity_eligible(c));
  EXPECT_TRUE(p.verify());
}

TEST(EevdfPolicy, LagClampO32) {
  // algorithms-modern.md §3.2/O3.2: the clamp is calc_delta_fair(max(2 slice, TICK_NSEC)):
  // +-6 ms for nice 0 with a 3 ms slice; +-4 ms with 0.75 ms at HZ=250.
  {
    policy_t p;
    policy_t::knobs k = knobs_hz(1000);
    k.base_slice = msec(3);
    ASSERT_EQ(p.configure(k), errc::ok);
    task a = make(0), b = make(0);
    p.enqueue(a, sched_time{}, enqueue_flags::wakeup);
    p.enqueue(b, sched_time{}, enqueue_flags::wakeup);
    EXPECT_EQ(p.lag_limit(a), msec(6));
    // a runs 40 ms alone while b waits: V - v_a = -20 ms, clamped to -6 ms at dequeue.
    p.set_next(a, sched_time{});
    p.dequeue(a, sched_time{} + msec(40), dequeue_flags::sleep);
    EXPECT_EQ(a.vlag, -msec(6));
  }
  {
    policy_t p;
    ASSERT_EQ(p.configure(knobs_hz(250)), errc::ok);
    task a = make(0);
    p.enqueue(a, sched_time{}, enqueue_flags::wakeup);
    EXPECT_EQ(p.lag_limit(a), msec(4));
  }
}

TEST(EevdfPolicy, LagClampUsesTickNsecRoundedToNearest) {
  // Oracle: Linux 6.6-6.8 update_entity_lag clamps to calc_delta_fair(max(2 slice, TICK_NSEC)),
  // and TICK_NSEC is (NSEC_PER_SEC + HZ/2) / HZ (include/vdso/jiffies.h, linux/jiffies.h):
  // rounded to the nearest ns, not truncated. At HZ=60 that is 16666667 ns (1e9/60 truncated
  // is 16666666); at HZ=300, 3333333 both ways; at HZ=24, 41666667.
  struct hz_case { int hz; s64 tick_nsec; };
  for (const hz_case c : {hz_case{60, 16666667}, hz_case{300, 3333333}, hz_case{24, 41666667},
                          hz_case{250, 4000000}}) {
    policy_t p;
    ASSERT_EQ(p.configure(knobs_hz(c.hz)), errc::ok);  // 0.75 ms slice: TICK_NSEC dominates
    task a = make(0), b = make(0);
    p.enqueue(a, sched_time{}, enqueue_flags::wakeup);
    p.enqueue(b, sched_time{}, enqueue_flags::wakeup);
    EXPECT_EQ(p.lag_limit(a), c.tick_nsec) << c.hz;
    // a runs 200 ms while b waits: V - v_b = +100 ms, clamped to +TICK_NSEC at b's dequeue.
    p.set_next(a, sched_time{});
    p.dequeue(b, sched_time{} + msec(200), dequeue_flags::sleep);
    EXPECT_EQ(b.vlag, c.tick_nsec) << c.hz;
    EXPECT_TRUE(p.verify());
  }
}

TEST(EevdfPolicy, PlacementO33) {
  // algorithms-modern.md §3.5/O3.3: a forked nice-0 task at zero lag gets deadline V + slice/2;
  // a nice-10 request is slice * 1024 / 110 ~ 9.3 slices of virtual time.
  policy_t p;
  ASSERT_EQ(p.configure(knobs_hz(1000)), errc::ok);
  task a = make(0), b = make(3), child = make(0), n10 = make(10);
  p.enqueue(a, sched_time{}, enqueue_flags::wakeup);
  p.enqueue(b, sched_time{}, enqueue_flags::wakeup);
  p.set_next(a, sched_time{});
  p.put_prev(a, sched_time{} + msec(2));
  p.task_new(child, &a, sched_time{} + msec(2));
  const vtime v_before = p.avg_vruntime();
  p.enqueue(child, sched_time{} + msec(2), enqueue_flags::initial);
  EXPECT_EQ(child.vruntime, v_before);
  EXPECT_EQ(child.deadline - child.vruntime, usec(750) / 2);
  p.enqueue(n10, sched_time{} + msec(2), enqueue_flags::wakeup);
  const double request = static_cast<double>(n10.deadline - n10.vruntime);
  EXPECT_NEAR(request / static_cast<double>(usec(750)), 1024.0 / 110.0, 1e-5);
  EXPECT_TRUE(p.verify());
}

TEST(EevdfPolicy, LagIsPreservedAcrossSleepO35Placement) {
  // algorithms-modern.md §3.5 place_entity: v = V - vlag (W + w) / W, so that right after the
  // join V - v equals the saved vlag again.
  policy_t p;
  ASSERT_EQ(p.configure(knobs_hz(1000)), errc::ok);
  task a = make(0), b = make(0), c = make(2);
  sched_time t{};
  p.enqueue(a, t, enqueue_flags::wakeup);
  p.enqueue(b, t, enqueue_flags::wakeup);
  p.enqueue(c, t, enqueue_flags::wakeup);
  p.set_next(a, t);
  p.put_prev(a, t + msec(3));
  t += msec(3);
  p.dequeue(b, t, dequeue_flags::sleep);  // b is owed service: positive lag
  const s64 saved = b.vlag;
  EXPECT_GT(saved, 0);
  p.set_next(c, t);
  p.put_prev(c, t + msec(1));
  t += msec(1);
  p.enqueue(b, t, enqueue_flags::wakeup);
  const s64 lag_now = p.avg_vruntime() - b.vruntime;
  EXPECT_LE(std::abs(lag_now - saved), 1) << "rounding of one division at most";
  EXPECT_TRUE(p.verify());
}

// ---- wakeup preemption -----------------------------------------------------------------------

// The wakeup set-up of the tests below (knobs from the caller, slice 3 ms): a and b queued at 0,
// b runs 0-2 ms, then a; `w` wakes at kWake = 2.5 ms, when (relative to the returned start)
// v_a = 0.5, v_b = 2, V = 1.25 ms, and a is eligible with deadline 3 ms.
constexpr sched_time kWake = sched_time{} + usec(2500);
vtime run_b_then_a(policy_t& p, task& a, task& b) {  // returns a's starting vruntime
  const sched_time t{};
  p.enqueue(a, t, enqueue_flags::wakeup);
  p.enqueue(b, t, enqueue_flags::wakeup);
  const vtime start = a.vruntime;
  p.set_next(b, t);
  p.put_prev(b, t + msec(2));
  p.set_next(a, t + msec(2));
  return start;
}
vtime wake_beside_running_a(policy_t& p, task& a, task& b, task& w) {
  const vtime start = run_b_then_a(p, a, b);
  p.enqueue(w, kWake, enqueue_flags::wakeup);
  return start;
}

TEST(EevdfPolicy, WakeupPreemptsOnlyWhenEligibleWithEarlierDeadline) {
  // algorithms-modern.md §3.5: the wakee preempts iff a fresh pick returns it; RUN_TO_PARITY
  // keeps an eligible curr until its deadline renews. Slice 3 ms. b runs 0-2 ms, then a runs;
  // at 2.5 ms (virtual, relative to the start): v_a = 0.5, v_b = 2, V = 1.25, so a is eligible
  // with deadline 3. A zero-lag wakee is placed at v = V = 1.25 with deadline 1.25 + 3 ms x
  // 1024 / w: nice 0 -> 4.25 (later than a: never preempts); nice -10 (w = 9548) -> 1.57
  // (earlier: preempts unless RUN_TO_PARITY protects a).
  for (int parity = 0; parity <= 1; ++parity) {
    for (int wake_nice : {0, -10}) {
      policy_t p;
      policy_t::knobs k = knobs_hz(1000);
      k.run_to_parity = parity;
      k.base_slice = msec(3);
      ASSERT_EQ(p.configure(k), errc::ok);
      task a = make(0), b = make(0), w = make(wake_nice);
      const vtime start = wake_beside_running_a(p, a, b, w);
      EXPECT_EQ(p.avg_vruntime() - start, usec(1250));
      EXPECT_EQ(w.vruntime - start, usec(1250));
      EXPECT_TRUE(p.entity_eligible(a));
      EXPECT_EQ(a.deadline - start, msec(3));
      const bool expected = wake_nice == -10 && parity == 0;
      EXPECT_EQ(p.wakeup_preempt(w, a, kWake), expected) << "parity " << parity << " nice " << wake_nice;
      EXPECT_TRUE(p.verify());
    }
  }
}

TEST(EevdfPolicy, IdleAndBatchWakeupRules) {
  // algorithms-modern.md §2.6 steps 4-5, kept by EEVDF (§3.5).
  policy_t p;
  task idle = make(0, sched_kind::idle), batch = make(0, sched_kind::batch), normal = make(0);
  EXPECT_EQ(idle.weight, 3u);
  sched_time t{};
  p.enqueue(idle, t, enqueue_flags::wakeup);
  p.set_next(idle, t);
  p.enqueue(batch, t + usec(10), enqueue_flags::wakeup);
  EXPECT_TRUE(p.wakeup_preempt(batch, idle, t + usec(10))) << "any non-idle wakee preempts SCHED_IDLE";
  p.put_prev(idle, t + usec(10));
  p.set_next(batch, t + usec(10));
  p.enqueue(normal, t + usec(20), enqueue_flags::wakeup);
  p.dequeue(batch, t + usec(30), dequeue_flags::sleep);
  p.set_next(normal, t + usec(30));
  p.enqueue(batch, t + usec(40), enqueue_flags::wakeup);
  EXPECT_FALSE(p.wakeup_preempt(batch, normal, t + usec(40))) << "a BATCH wakee never preempts";
  EXPECT_TRUE(p.verify());
}

// ---- Linux 6.12 "Complete EEVDF": custom slices, PREEMPT_SHORT, PLACE_REL_DEADLINE ------------

task make_sliced(int nice, duration_ns runtime) {
  task t;
  policy_t setup_only;
  EXPECT_EQ(setup_only.setup(t, sched_params{sched_kind::normal, static_cast<s8>(nice), 0, runtime, 0, 0}), errc::ok);
  return t;
}

TEST(EevdfPolicy, CustomSliceIsTheTasksOwnRequest) {
  // Commit 857b158dc5e8 (6.12): sched_attr.sched_runtime of a fair task is its slice r_i,
  // clamped to [0.1 ms, 100 ms]; vd = v + r_i·1024/w (§3.3), also at every renewal; the lag
  // clamp is calc_delta_fair(max(2·r_i, TICK_NSEC)) (§3.2). A base-slice task follows the knob.
  policy_t p;
  policy_t::knobs k = knobs_hz(1000);
  k.base_slice = msec(3);
  ASSERT_EQ(p.configure(k), errc::ok);
  task own = make_sliced(0, msec(2)), base = make(0), child = make_sliced(0, msec(2));
  EXPECT_TRUE(own.custom_slice);
  EXPECT_FALSE(base.custom_slice);
  sched_time t{};
  p.enqueue(own, t, enqueue_flags::wakeup);
  p.enqueue(base, t, enqueue_flags::wakeup);
  EXPECT_EQ(own.deadline - own.vruntime, msec(2));
  EXPECT_EQ(base.deadline - base.vruntime, msec(3));
  EXPECT_EQ(p.lag_limit(own), msec(4));
  p.enqueue(child, t, enqueue_flags::initial);
  EXPECT_EQ(child.deadline - child.vruntime, msec(1)) << "PLACE_DEADLINE_INITIAL halves the own request too";
  // A renewal issues the own request again, whatever the base slice now is.
  k.base_slice = msec(5);
  ASSERT_EQ(p.configure(k), errc::ok);
  p.set_next(own, t);
  EXPECT_FALSE(p.tick(own, t + msec(1)));
  const vtime v_before_renewal = own.vruntime;
  EXPECT_TRUE(p.tick(own, t + msec(2))) << "2 ms of service: the request is used up";
  EXPECT_EQ(own.deadline - own.vruntime, msec(2));
  EXPECT_EQ(own.vruntime - v_before_renewal, msec(1));
  p.put_prev(own, t + msec(2));
  p.set_next(base, t + msec(2));
  EXPECT_TRUE(p.tick(base, t + msec(5)));
  EXPECT_EQ(base.deadline - base.vruntime, msec(5)) << "the base slice in force at its renewal";
  EXPECT_TRUE(p.verify());
  // Weighted: a nice-5 task's virtual request is r·1024/335.
  task heavy = make_sliced(5, msec(2));
  p.enqueue(heavy, t + msec(5), enqueue_flags::wakeup);
  EXPECT_NEAR(static_cast<double>(heavy.deadline - heavy.vruntime), 2e6 * 1024.0 / 335.0, 1.0);
}

TEST(EevdfPolicy, CustomSliceIsClampedAndANegativeOneRefused) {
  policy_t p;
  EXPECT_EQ(make_sliced(0, usec(50)).slice, usec(100)) << "raised to 0.1 ms";
  EXPECT_EQ(make_sliced(0, usec(100)).slice, usec(100));
  EXPECT_EQ(make_sliced(0, msec(100)).slice, msec(100));
  EXPECT_EQ(make_sliced(0, sec(1)).slice, msec(100)) << "cut to 100 ms";
  task t = make_sliced(3, msec(7));
  EXPECT_EQ(p.setup(t, {sched_kind::normal, 0, 0, -1, 0, 0}), errc::invalid_argument);
  EXPECT_EQ(t.slice, msec(7));
  EXPECT_TRUE(t.custom_slice);
  EXPECT_EQ(t.nice, 3) << "a refused setup changes nothing";
  ASSERT_EQ(p.setup(t, {sched_kind::normal, 0, 0, 0, 0, 0}), errc::ok);
  EXPECT_FALSE(t.custom_slice) << "runtime 0: back to the base slice";
  EXPECT_EQ(t.slice, p.base_slice());
}

// The WakeupPreemptsOnlyWhenEligibleWithEarlierDeadline set-up (slice 3 ms, a running and
// eligible with deadline 3 ms, V = 1.25 ms): a nice-0 wakee with its own slice r is placed at
// V with deadline 1.25 + r. PREEMPT_SHORT (commit 85e511df3cec): with r = 0.5 ms it is eligible,
// shorter and earlier than a, so it cancels a's RUN_TO_PARITY and the pick returns it; with
// r = 2 ms its deadline (3.25) is later than a's, so a stays protected; and without the
// feature RUN_TO_PARITY protects a from both.
TEST(EevdfPolicy, PreemptShort_AShorterEarlierWakeeCancelsRunToParity) {
  for (int feature = 0; feature <= 1; ++feature) {
    for (duration_ns r : {usec(500), msec(2)}) {
      policy_t p;
      policy_t::knobs k = knobs_hz(1000);
      k.base_slice = msec(3);
      k.preempt_short = feature;
      ASSERT_EQ(p.configure(k), errc::ok);
      task a = make(0), b = make(0), w = make_sliced(0, r);
      const vtime start = wake_beside_running_a(p, a, b, w);
      ASSERT_EQ(w.deadline - start, usec(1250) + r);
      ASSERT_TRUE(p.entity_eligible(a));
      ASSERT_TRUE(p.entity_eligible(w));
      const bool cancels = feature == 1 && r == usec(500);
      EXPECT_EQ(p.wakeup_preempt(w, a, kWake), cancels) << "feature " << feature << " r " << r;
      EXPECT_EQ(a.vprot == a.deadline, !cancels) << "feature " << feature << " r " << r;
      EXPECT_TRUE(p.verify());
    }
  }
}

// When the cancel does not hand the CPU to the wakee, curr gives way at the first charge that
// finds it ineligible (6.12 did_preempt_short), not at its deadline. a has its own 10 ms slice
// and +2 ms of lag: placed beside b (v 0, deadline 3) at v_a = -4 ms, deadline 6 ms; it turns
// ineligible after 4 ms of running but only renews at 10 ms. At 5 ms (v_a = 1, V = 0.5) w
// (5 ms slice) wakes at V: deadline 5.5 < 6, shorter, eligible: a loses its protection. The
// pick is b (deadline 3, eligible), not w, so there is no preemption now; with the feature a is
// rescheduled at the next tick, without it a runs on to its deadline at 10 ms.
TEST(EevdfPolicy, PreemptShort_CurrWithoutProtectionYieldsOnceIneligible) {
  for (int feature = 0; feature <= 1; ++feature) {
    policy_t p;
    policy_t::knobs k = knobs_hz(1000);
    k.base_slice = msec(3);
    k.preempt_short = feature;
    ASSERT_EQ(p.configure(k), errc::ok);
    task a = make_sliced(0, msec(10)), b = make(0), w = make_sliced(0, msec(5));
    a.vlag = msec(2);
    const sched_time t{};
    p.enqueue(b, t, enqueue_flags::wakeup);
    const vtime start = b.vruntime;
    p.enqueue(a, t, enqueue_flags::wakeup);
    ASSERT_EQ(a.vruntime - start, -msec(4)) << "v = V - vlag·(W + w)/W";
    ASSERT_EQ(a.deadline - start, msec(6));
    p.set_next(a, t);
    p.enqueue(w, t + msec(5), enqueue_flags::wakeup);
    ASSERT_EQ(w.deadline - start, usec(5500));
    ASSERT_FALSE(p.entity_eligible(a));
    EXPECT_FALSE(p.wakeup_preempt(w, a, t + msec(5))) << "the pick is b";
    EXPECT_EQ(a.vprot != a.deadline, feature == 1);
    sched_time now = t + msec(5);
    int ticks = 0;
    do {
      now += msec(1);
      ++ticks;
    } while (!p.tick(a, now) && ticks < 20);
    EXPECT_EQ(ticks, feature == 1 ? 1 : 5) << "feature " << feature;
    EXPECT_TRUE(p.verify());
  }
}

TEST(EevdfPolicy, PreemptShort_EqualSlicesNeverCancel) {
  // do_preempt_short needs a strictly shorter slice: the nice -10 wakee of
  // WakeupPreemptsOnlyWhenEligibleWithEarlierDeadline (earlier deadline, same slice) still
  // waits for a's RUN_TO_PARITY with the feature on.
  policy_t p;
  policy_t::knobs k = knobs_hz(1000);
  k.base_slice = msec(3);
  k.preempt_short = 1;
  ASSERT_EQ(p.configure(k), errc::ok);
  task a = make(0), b = make(0), w = make(-10);
  wake_beside_running_a(p, a, b, w);
  ASSERT_LT(w.deadline - a.deadline, 0);
  EXPECT_FALSE(p.wakeup_preempt(w, a, kWake));
  EXPECT_EQ(a.vprot, a.deadline);
}

// PLACE_REL_DEADLINE (6.12, commit 82e9d0456e06): a task taken out without sleeping keeps
// deadline − vruntime and gets it back at its placement instead of a fresh request; a renice
// in between scales it by old_w/new_w like the lag (reweight_entity, commit 6d71a9c61604). A
// sleep still ends the request.
TEST(EevdfPolicy, PlaceRelDeadline_KeptAcrossReniceAndMigrationNotAcrossSleep) {
  for (int feature = 0; feature <= 1; ++feature) {
    policy_t p;
    policy_t::knobs k = knobs_hz(1000);
    k.base_slice = msec(3);
    k.place_rel_deadline = feature;
    ASSERT_EQ(p.configure(k), errc::ok);
    task a = make(0), b = make(0);
    sched_time t{};
    p.enqueue(a, t, enqueue_flags::wakeup);
    p.enqueue(b, t, enqueue_flags::wakeup);
    p.set_next(a, t);
    p.put_prev(a, t + msec(1));  // 2 ms of its request left
    t += msec(1);
    ASSERT_EQ(a.deadline - a.vruntime, msec(2));
    // Renice to 5 around a save/restore.
    p.dequeue(a, t, dequeue_flags::save);
    ASSERT_EQ(p.setup(a, {sched_kind::normal, 5, 0, 0, 0, 0}), errc::ok);
    p.enqueue(a, t, enqueue_flags::restore);
    const s64 fresh5 = a.deadline - a.vruntime;
    if (feature == 1) {
      EXPECT_EQ(fresh5, msec(2) * 1024 / 335) << "2 ms of service left, at the new weight";
    } else {
      EXPECT_NEAR(static_cast<double>(fresh5), 3e6 * 1024.0 / 335.0, 1.0) << "a fresh 3 ms request";
    }
    EXPECT_FALSE(a.rel_deadline);
    EXPECT_TRUE(p.verify());
    // A migration to another run queue.
    policy_t there;
    ASSERT_EQ(there.configure(k), errc::ok);
    task c = make(0);
    there.enqueue(c, t, enqueue_flags::wakeup);
    const s64 before = a.deadline - a.vruntime;
    p.dequeue(a, t, dequeue_flags::migrating);
    there.enqueue(a, t, enqueue_flags::migrated);
    if (feature == 1) {
      EXPECT_EQ(a.deadline - a.vruntime, before);
    } else {
      EXPECT_NEAR(static_cast<double>(a.deadline - a.vruntime), 3e6 * 1024.0 / 335.0, 1.0);
    }
    EXPECT_TRUE(there.verify());
    // A sleep: always a fresh request at the wakeup.
    there.set_next(a, t);
    there.put_prev(a, t + usec(500));
    there.dequeue(a, t + usec(500), dequeue_flags::sleep);
    EXPECT_FALSE(a.rel_deadline);
    there.enqueue(a, t + msec(3), enqueue_flags::wakeup);
    EXPECT_NEAR(static_cast<double>(a.deadline - a.vruntime), 3e6 * 1024.0 / 335.0, 1.0);
    EXPECT_TRUE(there.verify());
  }
}

// ---- how the kernel re-picks, and the 6.17+ slice protection -------------------------------

// The kernel does not run set_next_entity when the pick returns prev (pick_next_task_fair with
// FAIR_GROUP_SCHED; put_prev_set_next_task from 6.11): a task re-picked after its deadline
// renewed keeps vprot = its old deadline, so RUN_TO_PARITY does not protect its new request.
// b (nice 0) is queued at v 0, deadline 3 ms; a has +2 ms of lag: v_a = -4, deadline -1. a runs
// 3 ms: its request is used up (deadline 2), and the pick returns it again (eligible, the
// earliest deadline). A nice -10 wakee at V (-0.5 ms) has deadline -0.18 ms, earlier than a's:
// it preempts only when the re-pick left a unprotected.
TEST(EevdfPolicy, RepickKeepsVprot_ARepickedTaskIsNotProtectedForItsNewRequest) {
  for (int knob = 0; knob <= 1; ++knob) {
    policy_t p;
    policy_t::knobs k = knobs_hz(1000);
    k.base_slice = msec(3);
    k.repick_keeps_vprot = knob;
    ASSERT_EQ(p.configure(k), errc::ok);
    task a = make(0), b = make(0), w = make(-10);
    a.vlag = msec(2);
    sched_time t{};
    p.enqueue(b, t, enqueue_flags::wakeup);
    const vtime start = b.vruntime;
    p.enqueue(a, t, enqueue_flags::wakeup);
    ASSERT_EQ(a.vruntime - start, -msec(4));
    p.set_next(a, t);
    t += msec(3);
    ASSERT_TRUE(p.tick(a, t)) << "request used up";
    p.put_prev(a, t);
    ASSERT_EQ(p.pick_next(t), &a);
    p.set_next(a, t);
    EXPECT_EQ(a.deadline - start, msec(2));
    EXPECT_EQ(a.vprot - start, knob == 1 ? -msec(1) : msec(2));
    p.enqueue(w, t, enqueue_flags::wakeup);
    ASSERT_LT(w.deadline - a.deadline, 0);
    ASSERT_TRUE(p.entity_eligible(a));
    EXPECT_EQ(p.wakeup_preempt(w, a, t), knob == 1) << "knob " << knob;
    EXPECT_TRUE(p.verify());
  }
}

policy_t::knobs knobs_617(int run_to_parity = 1) {
  policy_t::knobs k = knobs_hz(1000);
  k.base_slice = msec(3);
  k.preempt_short = 1;
  k.parity_min_slice = 1;
  k.repick_keeps_vprot = 1;
  k.run_to_parity = run_to_parity;
  return k;
}

// 6.17 set_protect_slice ("sched/fair: Limit run to parity to the min slice of enqueued
// entities"): vprot = min(deadline, v + calc_delta_fair(min(shortest queued slice, own
// slice))); and update_curr reschedules as soon as v reaches vprot. With b's 0.5 ms slice
// queued, a (3 ms) is protected for 0.5 ms only and is rescheduled at the first tick after it,
// long before its deadline; without RUN_TO_PARITY the quantum is one unscaled base slice.
TEST(EevdfPolicy, ParityMinSlice_ProtectionEndsAtTheShortestQueuedSlice) {
  {
    policy_t p;
    ASSERT_EQ(p.configure(knobs_617()), errc::ok);
    task a = make(0), b = make_sliced(0, usec(500));
    sched_time t{};
    p.enqueue(a, t, enqueue_flags::wakeup);
    p.enqueue(b, t, enqueue_flags::wakeup);
    p.set_next(a, t);
    EXPECT_EQ(a.vprot - a.vruntime, usec(500));
    EXPECT_EQ(a.deadline - a.vruntime, msec(3));
    EXPECT_TRUE(p.tick(a, t + msec(1))) << "protection over after 0.5 ms: resched at the next tick";
    EXPECT_TRUE(p.verify());
  }
  {  // nothing shorter queued: protected to the deadline, as before 6.17
    policy_t p;
    ASSERT_EQ(p.configure(knobs_617()), errc::ok);
    task a = make(0), b = make(0);
    sched_time t{};
    p.enqueue(a, t, enqueue_flags::wakeup);
    p.enqueue(b, t, enqueue_flags::wakeup);
    p.set_next(a, t);
    EXPECT_EQ(a.vprot, a.deadline);
    EXPECT_FALSE(p.tick(a, t + msec(2)));
    EXPECT_TRUE(p.tick(a, t + msec(3)));
  }
  {  // NO_RUN_TO_PARITY: a minimum quantum of one unscaled base slice (1 ms of 3 ms at 4 CPUs)
    policy_t p;
    policy_t::knobs k = knobs_617(0);
    k.base_slice = msec(1);
    k.cpus = 4;
    ASSERT_EQ(p.configure(k), errc::ok);
    task a = make(0), b = make(0);
    sched_time t{};
    p.enqueue(a, t, enqueue_flags::wakeup);
    p.enqueue(b, t, enqueue_flags::wakeup);
    p.set_next(a, t);
    EXPECT_EQ(a.deadline - a.vruntime, msec(3));
    EXPECT_EQ(a.vprot - a.vruntime, msec(1));
  }
}

// 6.17 check_preempt_wakeup_fair: a wakee with a shorter slice is judged by a pick that
// ignores curr's protection; when it wins, curr's protection is cancelled (vprot = v), and
// when it does not, curr's protection shrinks to the shortest queued slice from now. The
// WakeupPreemptsOnlyWhenEligibleWithEarlierDeadline set-up: a runs protected (deadline 3 ms,
// V = 1.25 ms); w is placed at V with its own slice r.
TEST(EevdfPolicy, ParityMinSlice_AShorterWakeeIsPickedWithoutProtectionOrShrinksIt) {
  for (duration_ns r : {usec(500), msec(2)}) {
    policy_t p;
    ASSERT_EQ(p.configure(knobs_617()), errc::ok);
    task a = make(0), b = make(0), w = make_sliced(0, r);
    const vtime start = wake_beside_running_a(p, a, b, w);
    ASSERT_EQ(a.vprot, a.deadline);
    const bool earlier = r == usec(500);  // deadline 1.75 ms against a's 3 ms; 3.25 otherwise
    EXPECT_EQ(p.wakeup_preempt(w, a, kWake), earlier) << r;
    if (earlier) {
      EXPECT_EQ(a.vprot, a.vruntime) << "cancel_protect_slice";
    } else {
      EXPECT_EQ(a.vprot - start, usec(500) + r) << "update_protect_slice: v_a (0.5 ms) + the shortest slice (w's 2 ms)";
    }
    EXPECT_TRUE(p.verify());
  }
}

// The lag clamp from the longest queued slice (commit 6e3c0a4e1ad1, "sched/fair: Fix lag
// clamp", 2026): calc_delta_fair(max_slice + TICK_NSEC) instead of max(2·slice, TICK_NSEC).
// A 0.75 ms task beside a 10 ms one at HZ=1000: 11 ms instead of 1.5 ms.
TEST(EevdfPolicy, MaxSliceLag_TheClampFollowsTheLongestQueuedSlice) {
  for (int knob = 0; knob <= 1; ++knob) {
    policy_t p;
    policy_t::knobs k = knobs_hz(1000);
    k.max_slice_lag = knob;
    ASSERT_EQ(p.configure(k), errc::ok);
    task a = make(0), b = make_sliced(0, msec(10));
    p.enqueue(a, sched_time{}, enqueue_flags::wakeup);
    EXPECT_EQ(p.lag_limit(a), knob == 1 ? usec(750) + msec(1) : usec(1500));
    p.enqueue(b, sched_time{}, enqueue_flags::wakeup);
    EXPECT_EQ(p.lag_limit(a), knob == 1 ? msec(11) : usec(1500));
    EXPECT_EQ(p.lag_limit(b), knob == 1 ? msec(11) : msec(20));
    // a runs 40 ms while b waits: b's lag +20 ms at its dequeue, clamped.
    p.set_next(a, sched_time{});
    p.dequeue(b, sched_time{} + msec(40), dequeue_flags::sleep);
    EXPECT_EQ(b.vlag, knob == 1 ? msec(11) : msec(20));
    EXPECT_TRUE(p.verify());
  }
}

// ---- 2025-2026: yield, the 6.19 wakeup path, the wakeup pick and delayed sleepers --------------

// Commit 79104becf42b ("sched/fair: Forfeit vruntime on yield", 6.18): an eligible yielder
// sets vruntime = deadline and asks for the next request from there; an ineligible one is left
// alone. Set-up of wake_beside_running_a without the wakee: at 2.5 ms v_a = 0.5, v_b = 2,
// V = 1.25 ms, a eligible with deadline 3 ms; later, at 4.5 ms, v_a = 2.5 > V = 2.25.
TEST(EevdfPolicy, YieldForfeit_AnEligibleYielderGivesUpTheRestOfItsRequest) {
  for (int knob = 0; knob <= 1; ++knob) {
    for (bool eligible : {true, false}) {
      policy_t p;
      policy_t::knobs k = knobs_hz(1000);
      k.base_slice = msec(3);
      k.yield_forfeit = knob;
      ASSERT_EQ(p.configure(k), errc::ok);
      task a = make(0), b = make(0);
      const vtime start = run_b_then_a(p, a, b);
      p.yield(a, sched_time{} + (eligible ? usec(2500) : usec(4500)));
      if (knob == 0) {
        ASSERT_EQ(p.entity_eligible(a), eligible);
      }
      if (knob == 1 && eligible) {
        EXPECT_EQ(a.vruntime - start, msec(3)) << "vruntime = the old deadline";
        EXPECT_EQ(a.deadline - start, msec(6));
        EXPECT_EQ(p.avg_vruntime() - start, usec(2500)) << "V moves with it: (3 + 2) / 2 ms";
      } else {
        EXPECT_EQ(a.vruntime - start, eligible ? usec(500) : usec(2500)) << "knob " << knob;
        EXPECT_EQ(a.deadline - start, knob == 1 ? msec(3) : msec(6)) << "6.6-6.17: the deadline moves a slice";
      }
      EXPECT_TRUE(p.verify());
    }
  }
}

// The commit's reproducer ("taskset -c 1 yield_loop & taskset -c 1 stress --cpu 1": the loop
// yields for 5 s, then spins; vanilla left stress waiting up to 25 s). Each yield of a task
// that hardly runs pushed its deadline a slice further while its vruntime stayed, and once it
// spins RUN_TO_PARITY lets it run until its vruntime reaches that deadline. Here: 1 ms ticks,
// the yielder runs 10 us per turn for 5 s, then both are hogs for 5 s; the hog's longest wait
// in the second half is measured.
std::int64_t yield_loop_then_spin(int forfeit) {
  policy_t p;
  policy_t::knobs k = knobs_hz(1000);
  k.yield_forfeit = forfeit;
  EXPECT_EQ(p.configure(k), errc::ok);
  task y = make(0), s = make(0);
  sched_time now{};
  p.enqueue(y, now, enqueue_flags::wakeup);
  p.enqueue(s, now, enqueue_flags::wakeup);
  task* curr = p.pick_next(now);
  p.set_next(*curr, now);
  const sched_time spin_at = now + sec(5), end = now + sec(10);
  sched_time s_left = now, next_tick = now + msec(1);
  std::int64_t worst = 0;
  auto switch_to_next = [&] {
    p.put_prev(*curr, now);
    if (curr == &s) s_left = now;
    curr = p.pick_next(now);
    p.set_next(*curr, now);
    if (curr == &s && now >= spin_at) worst = std::max<std::int64_t>(worst, now - s_left);
  };
  while (now < end) {
    if (curr == &y && now < spin_at && now + usec(10) < next_tick) {
      now += usec(10);
      p.yield(y, now);
      switch_to_next();
      continue;
    }
    now = next_tick;
    next_tick += msec(1);
    if (p.tick(*curr, now)) switch_to_next();
  }
  if (curr == &y) worst = std::max<std::int64_t>(worst, now - s_left);
  EXPECT_TRUE(p.verify());
  return worst;
}

TEST(EevdfPolicy, YieldForfeit_AYieldLoopNoLongerStarvesAHogOnceItSpins) {
  const std::int64_t before = yield_loop_then_spin(0), after = yield_loop_then_spin(1);
  EXPECT_GT(before, sec(1)) << "6.6-6.17: the spinning yielder runs off its pushed-back deadline";
  EXPECT_LE(after, msec(2)) << "6.18: a slice (0.75 ms) at a time, each ending at the next tick";
}

// 6.19 check_preempt_wakeup_fair (e837456fdca8 with NEXT_BUDDY off; 15257cc2f905 reverted its
// forced preemption of an ineligible waker): "Ignore wakee preemption on WF_FORK", unless
// PREEMPT_SHORT applies. a (3 ms) runs with b (nice 10) queued at a 0.5 ms custom slice, so
// 6.17 protects a only for 0.5 ms; at 1 ms a is past it and ineligible (V = 1024 x 1 ms / 1134
// = 0.90 ms), and a wakee at nice -10 placed at V asks for the earliest deadline, 0.90 + 3 x
// 1024 / 9548 = 1.22 ms (b's is 0.5 x 1024 / 110 = 4.65 ms): a fresh pick returns it.
TEST(EevdfPolicy, Wakeup619_AForkDoesNotPreemptUnlessItsSliceIsShorter) {
  for (int knob = 0; knob <= 1; ++knob) {
    for (bool fork : {false, true}) {
      for (duration_ns wakee_slice : {duration_ns{0}, usec(500)}) {
        policy_t p;
        policy_t::knobs k = knobs_617();
        k.wakeup_619 = knob;
        ASSERT_EQ(p.configure(k), errc::ok);
        task a = make(0), b = make_sliced(10, usec(500)), w = make_sliced(-10, wakee_slice);
        sched_time t{};
        p.enqueue(a, t, enqueue_flags::wakeup);
        p.enqueue(b, t, enqueue_flags::wakeup);
        p.set_next(a, t);
        t += msec(1);
        ASSERT_TRUE(p.tick(a, t)) << "a's protection (0.5 ms) is over";
        p.enqueue(w, t, fork ? enqueue_flags::initial : enqueue_flags::wakeup);
        const bool shorter = wakee_slice != 0;
        const bool want = !(knob == 1 && fork && !shorter);
        EXPECT_EQ(p.wakeup_preempt(w, a, t), want) << "knob " << knob << " fork " << fork << " shorter " << shorter;
        EXPECT_TRUE(p.verify());
      }
    }
  }
}

// 6.19: update_protect_slice follows every wakeup that does not preempt, where 6.17 ran it
// only for a shorter wakee. a is picked with nothing shorter queued (protected to its 3 ms
// deadline); c, with a 0.5 ms slice, then arrives without a wakeup check (a migration's
// enqueue); w, at a's slice and later deadline, wakes at 0.25 ms and does not preempt: 6.19
// shrinks a's protection to v_a + 0.5 ms, 6.17 leaves it.
TEST(EevdfPolicy, Wakeup619_AWakeupThatDoesNotPreemptShrinksTheProtection) {
  for (int knob = 0; knob <= 1; ++knob) {
    policy_t p;
    policy_t::knobs k = knobs_617();
    k.wakeup_619 = knob;
    ASSERT_EQ(p.configure(k), errc::ok);
    task a = make(0), b = make(0), c = make_sliced(0, usec(500)), w = make(0);
    sched_time t{};
    p.enqueue(a, t, enqueue_flags::wakeup);
    p.enqueue(b, t, enqueue_flags::wakeup);
    p.set_next(a, t);
    ASSERT_EQ(a.vprot, a.deadline);
    p.enqueue(c, t, enqueue_flags::migrated);
    t += usec(250);
    p.enqueue(w, t, enqueue_flags::wakeup);
    EXPECT_FALSE(p.wakeup_preempt(w, a, t));
    EXPECT_EQ(a.vprot - a.vruntime, knob == 1 ? usec(500) : a.deadline - a.vruntime) << "knob " << knob;
    EXPECT_TRUE(p.verify());
  }
  policy_t p;  // the 6.19 path is written on 6.17's protection: refused alone, nothing changed
  policy_t::knobs k = knobs_hz(1000);
  k.wakeup_619 = 1;
  EXPECT_EQ(p.configure(k), errc::invalid_argument);
  EXPECT_EQ(p.config().wakeup_619, 0);
}

// Commit ac8e69e69363 ("Fix wakeup_preempt_fair() vs delayed dequeue", 2026): the wakeup's pick
// is pick_next_entity(), which finishes the dequeue of a delayed sleeper it returns (eligible by
// then) and picks again. a (1 ms slice) runs 0.9 ms and blocks in debt: delayed. b runs
// 0.95 ms (inside 6.17's protection, which a's 1 ms slice sets); then v_a = 0.9 <= V = 0.925,
// a's deadline (1 ms) is the earliest, and b is ineligible. w wakes at V with deadline V + 3 ms:
// the first pick is a, the second, once a is gone, w.
TEST(EevdfPolicy, WakeupDequeueDelayed_TheWakeupPickFinishesADelayedSleepersDequeue) {
  for (int v617 = 0; v617 <= 1; ++v617) {
    for (int knob = 0; knob <= 1; ++knob) {
      policy_t p;
      policy_t::knobs k = v617 != 0 ? knobs_617() : knobs_hz(1000);
      k.base_slice = msec(3);
      k.delay_dequeue = 1;
      k.wakeup_dequeue_delayed = knob;
      ASSERT_EQ(p.configure(k), errc::ok);
      task a = make_sliced(0, msec(1)), b = make(0), w = make(0);
      sched_time t{};
      p.enqueue(a, t, enqueue_flags::wakeup);
      p.enqueue(b, t, enqueue_flags::wakeup);
      p.set_next(a, t);
      t += usec(900);
      p.dequeue(a, t, dequeue_flags::sleep);
      ASSERT_TRUE(a.delayed);
      p.set_next(b, t);
      t += usec(950);
      p.enqueue(w, t, enqueue_flags::wakeup);
      ASSERT_TRUE(p.entity_eligible(a));
      ASSERT_FALSE(p.entity_eligible(b));
      EXPECT_EQ(p.wakeup_preempt(w, b, t), knob == 1) << "v617 " << v617 << " knob " << knob;
      EXPECT_EQ(a.delayed, knob == 0) << "the wakeup's pick finished a's dequeue";
      EXPECT_EQ(a.on_rq, knob == 0);
      EXPECT_TRUE(p.verify());
    }
  }
}

// Commit 3da56dc063cd (2026): a fork starts with no relative deadline, whatever its entity held.
TEST(EevdfPolicy, TaskNewClearsAStaleRelativeDeadline) {
  policy_t p;
  ASSERT_EQ(p.configure(knobs_hz(1000)), errc::ok);
  task child = make(0);
  child.rel_deadline = true;
  child.deadline = vtime{static_cast<std::uint64_t>(sec(1000))};
  p.task_new(child, nullptr, sched_time{});
  p.enqueue(child, sched_time{}, enqueue_flags::initial);
  EXPECT_FALSE(child.rel_deadline);
  EXPECT_EQ(child.deadline - child.vruntime, usec(375)) << "half a 0.75 ms request (PLACE_DEADLINE_INITIAL)";
  EXPECT_TRUE(p.verify());
}

#ifdef SCHEDCORE_TEST_HAVE_INT128  // 128-bit brute force: 64-bit hosts only (the -m32 build skips it)
// ---- differential: pick == brute-force EEVDF ----------------------------------------------------

// Independent O(n) EEVDF pick from the entities' own fields (algorithms-modern.md §3.2/§3.4):
// eligible iff sum_j w_j (v_j - v_i) >= 0 (V >= v_i without division, exact in 128 bits);
// the earliest deadline among eligible queued entities; the running entity follows the
// kernel's curr rules (kept under RUN_TO_PARITY while eligible with its picked deadline;
// otherwise wins only with a strictly earlier deadline).
struct brute_result {
  const task* pick = nullptr;
  std::int64_t deadline_rel = 0;  // deadline relative to the pick's own for tie comparison
};

bool brute_eligible(const std::vector<task*>& queued, const task& i) {
  i128 s = 0;
  for (const task* j : queued)
    s += static_cast<i128>(j->weight) * static_cast<std::int64_t>(j->vruntime.ns() - i.vruntime.ns());
  return s >= 0;
}

// `v617`: 6.17's protection test (vruntime short of vprot, unless `protect` is false) instead
// of 6.6's (RUN_TO_PARITY and vprot still the deadline curr was picked with).
const task* brute_pick(const std::vector<task*>& queued, const task* curr, bool parity, bool v617 = false,
                       bool protect = true) {
  if (queued.empty()) return nullptr;
  if (queued.size() == 1) return queued[0];
  const task* c = (curr != nullptr && brute_eligible(queued, *curr)) ? curr : nullptr;
  const bool guarded = c != nullptr && (v617 ? protect && static_cast<std::int64_t>(c->vruntime.ns() - c->vprot.ns()) < 0
                                             : parity && c->vprot == c->deadline);
  if (guarded) return c;
  const task* best = nullptr;
  for (const task* t : queued) {
    if (t == curr || !brute_eligible(queued, *t)) continue;
    if (best == nullptr || static_cast<std::int64_t>(t->deadline.ns() - best->deadline.ns()) < 0) best = t;
  }
  if (best == nullptr || (c != nullptr && static_cast<std::int64_t>(c->deadline.ns() - best->deadline.ns()) < 0))
    best = c;
  return best;
}

// 6.17's protection bound from the fields: min(deadline, v + r·1024/w) for the shortest slice
// r among the queued tasks (and the task's own); exact division, where the kernel multiplies by
// the inverse weight (at most 1 ns apart).
std::int64_t brute_vprot_offset(const std::vector<task*>& queued, const task& c, bool parity, duration_ns base) {
  duration_ns r = parity ? c.slice : base;
  if (parity)
    for (const task* x : queued) r = std::min(r, x->slice);
  r = std::min(r, c.slice);
  const std::int64_t to_deadline = static_cast<std::int64_t>(c.deadline.ns() - c.vruntime.ns());
  if (r == c.slice) return to_deadline;
  return std::min<std::int64_t>(to_deadline, r * 1024 / static_cast<std::int64_t>(c.weight));
}
bool near(std::int64_t got, std::int64_t want) { return got >= want - 1 && got <= want + 1; }

// PREEMPT_SHORT's cancel from the fields (commit 85e511df3cec do_preempt_short): the wakee has
// a strictly shorter slice, is eligible, and has an earlier deadline or curr is not eligible.
bool brute_short(const std::vector<task*>& queued, const task& w, const task& c) {
  if (!(w.slice < c.slice) || !brute_eligible(queued, w)) return false;
  return static_cast<std::int64_t>(w.deadline.ns() - c.deadline.ns()) < 0 || !brute_eligible(queued, c);
}

// With `delay` (DELAY_DEQUEUE), a sleeper that blocks while ineligible stays queued: the brute
// force then sees it among the queued entities, and a pick that returns it removes it and picks
// again (the kernel's pick_next_entity), until a runnable entity or nothing is left.
// With `complete` (the rest of 6.12): a third of the tasks have their own slice (0.1 to 8.1 ms),
// PREEMPT_SHORT and PLACE_REL_DEADLINE are on, every wakeup while a task runs is checked
// against the brute force (the cancel, then the pick), and queued tasks are reniced around a
// save/restore (a relative deadline, scaled by the weights). With `v617` as well: 6.17's slice
// protection (set at every pick that is not a re-pick, shrunk or cancelled at wakeups) and
// re-picks that keep it, each checked against its formula.
void differential(std::uint64_t seed, int parity, int steps, int delay = 0, bool complete = false, bool v617 = false,
                  bool v619 = false, bool v71 = false) {
  std::mt19937_64 rng(seed);
  policy_t p;
  policy_t::knobs k = knobs_hz(1000);
  k.run_to_parity = parity;
  k.delay_dequeue = delay;
  k.preempt_short = complete ? 1 : 0;
  k.place_rel_deadline = complete ? 1 : 0;
  k.parity_min_slice = v617 ? 1 : 0;
  k.repick_keeps_vprot = v617 ? 1 : 0;
  k.wakeup_619 = v619 ? 1 : 0;
  k.wakeup_dequeue_delayed = v619 ? 1 : 0;
  k.yield_forfeit = v619 ? 1 : 0;
  k.delayed_lag_floor = v71 ? 1 : 0;
  ASSERT_EQ(p.configure(k), errc::ok);
  std::uint64_t picks_checked = 0, repicks = 0, shrinks = 0;
  std::uint64_t forks_held = 0, wakeup_dequeues = 0, forfeits = 0, plain_shrinks = 0;
  constexpr std::size_t kTasks = 48;
  std::vector<task> tasks(kTasks);
  auto random_runtime = [&]() -> duration_ns {
    if (!complete || rng() % 3 != 0) return 0;
    return usec(100) + static_cast<duration_ns>(rng() % static_cast<std::uint64_t>(msec(8)));
  };
  for (std::size_t i = 0; i < kTasks; ++i) {
    tasks[i].id = static_cast<int>(i);
    const int nice = static_cast<int>(rng() % 40) - 20;
    ASSERT_EQ(p.setup(tasks[i], sched_params{sched_kind::normal, static_cast<s8>(nice), 0, random_runtime(), 0, 0}),
              errc::ok);
  }
  std::uint64_t wakeups_checked = 0, cancels = 0, short_preemptions = 0, renices = 0;
  sched_time now{std::numeric_limits<std::uint64_t>::max() - msec(500)};  // crosses the wrap too
  task* curr = nullptr;
  std::uint64_t mismatches = 0, eligible_leftmost_fast = 0, delayed_wakeups = 0, delayed_finished = 0;
  std::uint64_t floors_moved = 0;
  for (int step = 0; step < steps; ++step) {
    now += static_cast<std::int64_t>(rng() % 700000);
    const unsigned op = static_cast<unsigned>(rng() % 10);
    task& t = tasks[rng() % kTasks];
    if (op < 3) {
      if (t.delayed) {
        const std::int64_t lag_floor = t.vlag;
        const bool deepened = p.avg_vruntime() - t.vruntime < lag_floor;
        p.enqueue(t, now, enqueue_flags::wakeup);  // requeue in place (or at zero lag)
        ++delayed_wakeups;
        if (v71) {  // requeued at the lag it holds, in [the lag it blocked with, 0] (2 ns of rounding)
          const std::int64_t off = (p.avg_vruntime() - t.vruntime) - t.vlag;
          if (t.vlag > 0 || t.vlag < lag_floor || off < -2 || off > 2) ++mismatches;
          floors_moved += static_cast<std::uint64_t>(deepened);
        }
      } else if (!t.on_rq) {
        const bool fork = rng() % 8 == 0;
        p.enqueue(t, now, fork ? enqueue_flags::initial : enqueue_flags::wakeup);
        if (complete && curr != nullptr) {
          if (p.tick(*curr, now)) {  // charged first, so the brute force reads what the hook will
            p.put_prev(*curr, now);
            curr = nullptr;
          } else {
            std::vector<task*> q;
            for (task& x : tasks)
              if (x.on_rq) q.push_back(&x);
            const bool shorter = t.slice < curr->slice;
            const bool cancel = v617 ? shorter : brute_short(q, t, *curr) && curr->vprot == curr->deadline;
            const vtime old_vprot = curr->vprot;
            const vtime want_vprot = cancel && !v617 ? curr->deadline + 1 : curr->vprot;
            // 6.19: a fork that is not shorter is not judged at all.
            const bool judged = !(v619 && fork && !shorter);
            const task* want = v617 && judged ? brute_pick(q, curr, parity != 0, true, !shorter) : nullptr;
            std::vector<task*> finished;  // wakeup_dequeue_delayed: delayed picks leave, the pick repeats
            while (v619 && want != nullptr && want->delayed) {
              finished.push_back(const_cast<task*>(want));
              q.erase(std::find(q.begin(), q.end(), want));
              want = brute_pick(q, curr, parity != 0, true, !shorter);
            }
            const bool preempted = p.wakeup_preempt(t, *curr, now);
            for (const task* x : finished) {
              ASSERT_FALSE(x->on_rq) << "step " << step;
              ++wakeup_dequeues;
            }
            if (!judged) {
              ASSERT_FALSE(preempted) << "step " << step;
              ASSERT_EQ(curr->vprot, old_vprot) << "step " << step;
              ++forks_held;
            } else if (!v617) {
              ASSERT_EQ(curr->vprot, want_vprot) << "step " << step;
              want = brute_pick(q, curr, parity != 0);
            } else if (preempted) {  // cancel_protect_slice when the shorter wakee won
              const bool guarded = static_cast<std::int64_t>(curr->vruntime.ns() - old_vprot.ns()) < 0;
              ASSERT_EQ(curr->vprot, shorter && guarded ? curr->vruntime : old_vprot) << "step " << step;
            } else if ((shorter || v619) && parity != 0) {  // update_protect_slice: min(vprot, v + shortest slice)
              duration_ns r = curr->slice;
              for (const task* x : q) r = std::min(r, x->slice);
              const std::int64_t bound = r * 1024 / static_cast<std::int64_t>(curr->weight);
              const std::int64_t old_off = static_cast<std::int64_t>(old_vprot.ns() - curr->vruntime.ns());
              const std::int64_t got = static_cast<std::int64_t>(curr->vprot.ns() - curr->vruntime.ns());
              ASSERT_TRUE(old_off <= bound - 2 ? got == old_off : near(got, std::min(old_off, bound)))
                  << "step " << step << " got " << got << " old " << old_off << " bound " << bound;
              shrinks += got < old_off ? 1u : 0u;
              plain_shrinks += got < old_off && !shorter ? 1u : 0u;
            } else {
              ASSERT_EQ(curr->vprot, old_vprot) << "step " << step;
            }
            const bool tie = want != nullptr && want != &t && want->deadline == t.deadline && brute_eligible(q, t);
            if (!tie) {
              ASSERT_EQ(preempted, want == &t) << "step " << step;
            }
            ++wakeups_checked;
            cancels += cancel ? 1u : 0u;
            short_preemptions += (cancel && preempted) ? 1u : 0u;
            if (preempted) {
              p.put_prev(*curr, now);
              curr = nullptr;
            }
          }
        }
      }
    } else if (op < 5) {
      if (t.on_rq && !t.delayed) {
        if (&t == curr) curr = nullptr;
        p.dequeue(t, now, dequeue_flags::sleep);
      }
    } else if (op < 8) {
      task* put_back = nullptr;
      vtime put_back_vprot{};
      if (curr != nullptr && p.tick(*curr, now)) {
        p.put_prev(*curr, now);
        put_back = curr;
        put_back_vprot = curr->vprot;
        curr = nullptr;
      }
      if (curr == nullptr) {
        if (task* n = p.pick_next(now)) {
          p.set_next(*n, now);
          curr = n;
          if (v617) {  // set_protect_slice, unless it is a re-pick (the kernel skips set_next_entity)
            if (n == put_back) {
              ASSERT_EQ(n->vprot, put_back_vprot) << "step " << step;
              ++repicks;
            } else {
              std::vector<task*> q;
              for (task& x : tasks)
                if (x.on_rq) q.push_back(&x);
              const std::int64_t want = brute_vprot_offset(q, *n, parity != 0, k.base_slice);
              ASSERT_TRUE(near(static_cast<std::int64_t>(n->vprot.ns() - n->vruntime.ns()), want)) << "step " << step;
              ++picks_checked;
            }
          }
        }
      }
    } else if (op == 8) {
      if (curr != nullptr) {
        // yield_forfeit: an eligible curr's vruntime jumps to its deadline, the next request
        // starts there (judged after the charge the yield makes first).
        if (v619) (void)p.tick(*curr, now);
        std::vector<task*> q;
        for (task& x : tasks)
          if (x.on_rq) q.push_back(&x);
        const bool forfeit = v619 && q.size() > 1 && brute_eligible(q, *curr);
        const vtime v0 = curr->vruntime, d0 = curr->deadline;
        p.yield(*curr, now);
        if (v619) {
          ASSERT_EQ(curr->vruntime, forfeit ? d0 : v0) << "step " << step;
          if (forfeit) {
            ASSERT_TRUE(near(curr->deadline - d0, curr->slice * 1024 / static_cast<std::int64_t>(curr->weight)))
                << "step " << step;
            ++forfeits;
          }
        }
      }
      if (complete && t.on_rq && !t.delayed && &t != curr) {  // a renice around a save/restore
        const s64 rel = t.deadline - t.vruntime;
        const u32 old_w = t.weight;
        p.dequeue(t, now, dequeue_flags::save);
        const int nice = static_cast<int>(rng() % 40) - 20;
        ASSERT_EQ(p.setup(t, sched_params{sched_kind::normal, static_cast<s8>(nice), 0, random_runtime(), 0, 0}),
                  errc::ok);
        p.enqueue(t, now, enqueue_flags::restore);
        ASSERT_EQ(t.deadline - t.vruntime, rel * static_cast<s64>(old_w) / static_cast<s64>(t.weight))
            << "step " << step;
        ++renices;
      }
    } else {
      if (curr != nullptr) {
        p.put_prev(*curr, now);
        curr = nullptr;
      }
    }
    // Finishing a delayed dequeue charges curr first: charge it now, so that the brute force
    // reads the vruntimes the pick will use (the flag a charge may raise is not used here).
    if (delay != 0 && curr != nullptr) (void)p.tick(*curr, now);
    std::vector<task*> queued;
    for (task& x : tasks)
      if (x.on_rq) queued.push_back(&x);
    const task* want = brute_pick(queued, curr, parity != 0, v617);
    while (want != nullptr && want->delayed) {
      queued.erase(std::find(queued.begin(), queued.end(), want));
      ++delayed_finished;
      want = brute_pick(queued, curr, parity != 0, v617);
    }
    const task* got = p.pick_next(now);
    if (got != want) {
      // Equal deadlines may be ordered differently (the tree keeps FIFO among ties): accept an
      // eligible pick with the same deadline as the brute force's.
      const bool tie = got != nullptr && want != nullptr && got->deadline == want->deadline &&
                       brute_eligible(queued, *got);
      if (!tie) ++mismatches;
    }
    if (got != nullptr && got != curr && p.entity_eligible(*got)) ++eligible_leftmost_fast;
    if (step % 997 == 0) {
      ASSERT_TRUE(p.verify()) << "step " << step;
    }
  }
  EXPECT_EQ(mismatches, 0u);
  EXPECT_TRUE(p.verify());
  EXPECT_GT(eligible_leftmost_fast, 0u);
  if (delay != 0) {  // the delayed paths were exercised, both ends
    EXPECT_GT(delayed_wakeups, schedcore_test::run_count(100));
    if (v71) {
      EXPECT_GT(floors_moved, schedcore_test::run_count(20)) << "the floor must have been reached, or this run proves nothing";
    }
    EXPECT_GT(delayed_finished, schedcore_test::run_count(100));
  } else {
    EXPECT_EQ(delayed_wakeups + delayed_finished, 0u);
  }
  if (complete) {  // and the 6.12 ones
    EXPECT_GT(wakeups_checked, schedcore_test::run_count(1000));
    EXPECT_GT(cancels, schedcore_test::run_count(100));
    EXPECT_GT(short_preemptions, schedcore_test::run_count(10));
    EXPECT_GT(renices, schedcore_test::run_count(1000));
  }
  if (v619) {  // and 6.19's, with the yield and wakeup-pick fixes
    EXPECT_GT(forks_held, schedcore_test::run_count(100));
    EXPECT_GT(wakeup_dequeues, schedcore_test::run_count(10));
    EXPECT_GT(forfeits, schedcore_test::run_count(100));
    if (parity != 0) {
      EXPECT_GT(plain_shrinks, 0u);
    }
  }
  if (v617) {  // and 6.17's
    EXPECT_GT(picks_checked, schedcore_test::run_count(1000));
    EXPECT_GT(repicks, schedcore_test::run_count(100));
    if (parity != 0) {
      EXPECT_GT(shrinks, 0u);  // rare: a wakee shorter than every slice queued at the pick
    }
  }
}

TEST(EevdfPolicy, PickEqualsBruteForceOver1e5StepsRunToParityOff) { differential(0x5eed0001, 0, schedcore_test::run_steps(100000)); }
TEST(EevdfPolicy, PickEqualsBruteForceOver1e5StepsRunToParityOn) { differential(0x5eed0002, 1, schedcore_test::run_steps(100000)); }
TEST(EevdfPolicy, PickEqualsBruteForceOver1e5StepsWithDelayedDequeue) {
  differential(0x5eed0003, 1, schedcore_test::run_steps(100000), 1);
  differential(0x5eed0004, 0, schedcore_test::run_steps(100000), 1);
}
TEST(EevdfPolicy, PickAndWakeupPreemptionEqualBruteForceWithCustomSlicesAndAll612Features) {
  differential(0x5eed0005, 1, schedcore_test::run_steps(100000), 1, true);
  differential(0x5eed0006, 0, schedcore_test::run_steps(100000), 0, true);
}
TEST(EevdfPolicy, PickWakeupAndProtectionEqualBruteForceWith617SliceProtection) {
  differential(0x5eed0007, 1, schedcore_test::run_steps(100000), 1, true, true);
  differential(0x5eed0008, 0, schedcore_test::run_steps(100000), 0, true, true);
}
TEST(EevdfPolicy, PickWakeupProtectionAndYieldEqualBruteForceWith619WakeupsAnd2026Fixes) {
  differential(0x5eed0009, 1, schedcore_test::run_steps(100000), 1, true, true, true);
  differential(0x5eed000a, 0, schedcore_test::run_steps(100000), 1, true, true, true);
}

// The same with 7.1's floor under a delayed sleeper's lag (059258b0d424): every pick still
// equals the brute force, and every wakeup of a delayed sleeper leaves it at the lag it holds.
TEST(EevdfPolicy, PickAndDelayedWakeupsEqualBruteForceWith71DelayedLagFloor) {
  differential(0x5eed000b, 1, schedcore_test::run_steps(100000), 1, true, true, true, true);
}

// ---- delayed dequeue (DELAY_DEQUEUE + DELAY_ZERO, Linux 6.12+) -----------------------------
// features.h: "By delaying the dequeue for non-eligible tasks, they remain in the competition
// and can burn off their negative lag. When they get selected they'll have positive lag by
// definition. DELAY_ZERO clips the lag on dequeue (or wakeup) to 0."

policy_t::knobs knobs_delay(int delay) {
  policy_t::knobs k = knobs_hz(1000);
  k.delay_dequeue = delay;
  return k;
}

// a and b at nice 0 queued at 0; a runs 3 ms alone, then blocks (with `block`) in debt:
// V - v_a = 1.5 ms - 3 ms = -1.5 ms.
struct debtor {
  policy_t p;
  task a, b = make(0);
  sched_time t{};
  // `a_kind`: a's policy (normal, batch or idle); `rel_deadline`: the PLACE_REL_DEADLINE knob.
  explicit debtor(int delay, bool block = true, sched_kind a_kind = sched_kind::normal, int rel_deadline = 0)
      : a(make(0, a_kind)) {
    policy_t::knobs k = knobs_delay(delay);
    k.place_rel_deadline = rel_deadline;
    EXPECT_EQ(p.configure(k), errc::ok);
    p.enqueue(a, t, enqueue_flags::wakeup);
    p.enqueue(b, t, enqueue_flags::wakeup);
    p.set_next(a, t);
    t += msec(3);
    if (block) p.dequeue(a, t, dequeue_flags::sleep);
  }
  // `who` runs `d` from now (set_next, then put_prev).
  void run(task& who, std::int64_t d) {
    p.set_next(who, t);
    t += d;
    p.put_prev(who, t);
  }
};

TEST(EevdfPolicy, DelayDequeue_IneligibleSleeperStaysQueuedUntilPickedThenReturnsAtZeroLag) {
  debtor x(1);
  policy_t& p = x.p;
  EXPECT_TRUE(x.a.on_rq);
  EXPECT_TRUE(x.a.delayed);
  EXPECT_TRUE(p.delayed(x.a));
  EXPECT_EQ(p.nr_runnable(), 1u) << "a delayed sleeper is not runnable";
  EXPECT_LT(p.avg_vruntime() - x.a.vruntime, 0) << "negative lag: that is why it was delayed";
  EXPECT_TRUE(p.verify());
  // b runs; while a is not eligible the pick is b and a stays delayed.
  ASSERT_EQ(p.pick_next(x.t), &x.b);
  x.run(x.b, msec(1));
  EXPECT_EQ(p.pick_next(x.t), &x.b);
  EXPECT_TRUE(x.a.delayed);
  // Once b has caught up, a is eligible with the earlier deadline: the pick finishes its
  // dequeue and returns b again, and a left with its lag clipped to 0.
  x.run(x.b, msec(4));
  EXPECT_EQ(p.pick_next(x.t), &x.b);
  EXPECT_FALSE(x.a.on_rq);
  EXPECT_FALSE(x.a.delayed);
  EXPECT_EQ(x.a.vlag, 0);
  EXPECT_EQ(p.nr_runnable(), 1u);
  EXPECT_TRUE(p.verify());
  // Woken later, a is placed at the average (lag 0), not behind it as 6.6 would place it.
  p.enqueue(x.a, x.t + msec(10), enqueue_flags::wakeup);
  EXPECT_EQ(p.avg_vruntime() - x.a.vruntime, 0);
  EXPECT_TRUE(p.verify());
}

// A delayed sleeper that changes class (sched_setscheduler to SCHED_FIFO while it sleeps)
// leaves the fair queue at once: its owner sees it asleep and hands it to another class, so
// nothing of it may stay in the tree or the sums (the kernel finishes the delayed dequeue
// before the class changes: commit 98442f0ccd82). It keeps the debt it blocked with (DELAY_ZERO
// clips only a positive lag). Found by the policies fuzzer: the entity was left linked, and
// reusing its memory corrupted the tree.
TEST(EevdfPolicy, DelayDequeue_AClassChangeFinishesTheDelayedDequeue) {
  debtor x(1);
  policy_t& p = x.p;
  ASSERT_TRUE(x.a.delayed);
  p.switched_from(x.a, x.t);
  EXPECT_FALSE(x.a.on_rq);
  EXPECT_FALSE(x.a.delayed);
  EXPECT_FALSE(p.delayed(x.a));
  EXPECT_EQ(x.a.vlag, -usec(1500)) << "V - v_a when it blocked: 1.5 ms - 3 ms";
  EXPECT_EQ(p.nr_runnable(), 1u);
  EXPECT_TRUE(p.verify());
  // Its memory may now be reused: the queue no longer reaches it.
  x.a.~task();
  new (&x.a) task(make(0));
  ASSERT_EQ(p.pick_next(x.t), &x.b);
  x.run(x.b, msec(2));
  EXPECT_TRUE(p.verify());
  // A task that is not a delayed sleeper is left alone (the core dequeued it first).
  p.switched_from(x.a, x.t);
  EXPECT_EQ(p.nr_runnable(), 1u);
  EXPECT_TRUE(p.verify());
}

TEST(EevdfPolicy, DelayDequeue_WithoutTheKnobTheSameSleeperKeepsItsNegativeLag) {
  debtor x(0);
  policy_t& p = x.p;
  EXPECT_FALSE(x.a.on_rq);
  EXPECT_FALSE(p.delayed(x.a));
  EXPECT_EQ(x.a.vlag, -msec(1) - usec(500)) << "V - v = 1.5 ms - 3 ms";
  ASSERT_EQ(p.pick_next(x.t), &x.b);
  x.run(x.b, msec(5));
  p.enqueue(x.a, x.t + msec(10), enqueue_flags::wakeup);
  EXPECT_LT(p.avg_vruntime() - x.a.vruntime, 0) << "PLACE_LAG keeps the debt across the sleep";
}

TEST(EevdfPolicy, DelayDequeue_EligibleSleeperLeavesAtOnceKeepingPositiveLag) {
  debtor x(1, false);
  policy_t& p = x.p;
  p.put_prev(x.a, x.t);
  p.dequeue(x.b, x.t, dequeue_flags::sleep);  // b never ran: v_b = 0 < V = 1.5 ms, eligible
  EXPECT_FALSE(x.b.on_rq);
  EXPECT_FALSE(x.b.delayed);
  EXPECT_EQ(x.b.vlag, msec(1) + usec(500)) << "DELAY_ZERO clips only a delayed sleeper's lag";
  EXPECT_TRUE(p.verify());
}

TEST(EevdfPolicy, DelayDequeue_WakeBeforeThePickRequeuesInPlaceOrAtZeroLag) {
  debtor x(1);
  policy_t& p = x.p;
  ASSERT_TRUE(x.a.delayed);
  // Still in debt when it wakes: it is requeued where it is, vruntime and deadline unchanged.
  const vtime v = x.a.vruntime, d = x.a.deadline;
  p.enqueue(x.a, x.t + usec(100), enqueue_flags::wakeup);
  EXPECT_FALSE(x.a.delayed);
  EXPECT_TRUE(x.a.on_rq);
  EXPECT_EQ(x.a.vruntime, v);
  EXPECT_EQ(x.a.deadline, d);
  EXPECT_EQ(p.nr_runnable(), 2u);
  EXPECT_TRUE(p.verify());
  // Delayed again, then b runs far past it without a pick in between (ticks only): a's lag
  // turns positive while it sleeps queued, and the wakeup clips it to 0 (DELAY_ZERO).
  p.set_next(x.a, x.t);
  x.t += msec(3);
  p.dequeue(x.a, x.t, dequeue_flags::sleep);
  ASSERT_TRUE(x.a.delayed);
  p.set_next(x.b, x.t);
  x.t += msec(20);
  (void)p.tick(x.b, x.t);
  EXPECT_GT(p.avg_vruntime() - x.a.vruntime, 0);
  p.enqueue(x.a, x.t, enqueue_flags::wakeup);
  EXPECT_FALSE(x.a.delayed);
  EXPECT_EQ(p.avg_vruntime() - x.a.vruntime, 0);
  EXPECT_TRUE(p.verify());
}

// dequeue_entity charges curr first (update_curr), while the leaving entity is still counted,
// and a request that charge uses up reschedules at once (update_deadline → resched_curr), not
// at the next tick. Three tasks at nice 0, base slice 0.75 ms (one CPU): 0.5 ms into curr's
// run, a migration of a queued task leaves the request alone; 1 ms in, a second one ends it.
// take_resched() reports it there, once.
TEST(EevdfPolicy, ARequestEndedByAnotherTasksDequeueAsksForTheCpuAtOnce) {
  policy_t p;
  task a = make(0), b = make(0), c = make(0);
  sched_time t{msec(5)};
  for (task* x : {&a, &b, &c}) p.enqueue(*x, t, enqueue_flags::wakeup);
  task* const r = p.pick_next(t);
  ASSERT_NE(r, nullptr);
  p.set_next(*r, t);
  task* others[2] = {};
  int n = 0;
  for (task* x : {&a, &b, &c})
    if (x != r) others[n++] = x;
  const vtime v0 = r->vruntime, d0 = r->deadline;
  ASSERT_EQ(d0 - v0, usec(750));
  p.dequeue(*others[0], t + usec(500), dequeue_flags::migrating);
  EXPECT_EQ(r->vruntime - v0, usec(500)) << "curr was charged by the dequeue";
  EXPECT_FALSE(p.take_resched()) << "0.5 ms of a 0.75 ms request: nothing to do";
  p.dequeue(*others[1], t + msec(1), dequeue_flags::migrating);
  EXPECT_EQ(r->vruntime - v0, msec(1));
  EXPECT_EQ(r->deadline - v0, usec(1750)) << "the request was renewed by the charge: v + 0.75 ms";
  EXPECT_TRUE(p.take_resched()) << "and the CPU is asked for at once";
  EXPECT_FALSE(p.take_resched()) << "once";
  EXPECT_FALSE(p.tick(*r, t + msec(1))) << "the tick does not report it again";
  EXPECT_TRUE(p.verify());
}

// The kernel takes a waking delayed sleeper's lag without charging curr first
// (ttwu_runnable → requeue_delayed_entity has no update_curr; the wakeup check after it does):
// V reads curr's vruntime as of its last update. a blocks in debt (v_a = 3 ms, v_b = 0,
// V = 1.5 ms); b then runs 4 ms with no hook between. a wakes at the end of it: with b's stale
// vruntime a's lag is still −1.5 ms and it stays where it is. Charged first (v_b = 4 ms,
// V = 3.5 ms), the lag would be +0.5 ms and DELAY_ZERO would move a to 3.5 ms.
TEST(EevdfPolicy, DelayDequeue_WakeupTakesTheLagBeforeCurrIsCharged) {
  debtor x(1);
  policy_t& p = x.p;
  ASSERT_TRUE(x.a.delayed);
  const vtime v = x.a.vruntime, d = x.a.deadline;
  ASSERT_EQ(p.pick_next(x.t), &x.b);
  const vtime vb = x.b.vruntime;
  p.set_next(x.b, x.t);
  x.t += msec(4);
  p.enqueue(x.a, x.t, enqueue_flags::wakeup);
  EXPECT_FALSE(x.a.delayed);
  EXPECT_EQ(x.a.vruntime, v) << "the lag came from b's vruntime before its 4 ms run";
  EXPECT_EQ(x.a.deadline, d);
  // b's run is not lost: the next hook charges all of it.
  p.put_prev(x.b, x.t);
  EXPECT_EQ(x.b.vruntime - vb, msec(4));
  EXPECT_TRUE(p.verify());
}

// check_preempt_wakeup_fair settles a wakee that may not preempt (SCHED_BATCH, SCHED_IDLE)
// before it charges curr: only a normal wakee's check runs update_curr. Seen through a delayed
// sleeper's wakeup, whose requeue does not charge curr either. a (made BATCH or IDLE) blocks
// in debt at 3 ms; b runs 0.9 ms, past its 0.75 ms request (HZ 1000) with no hook between; a
// wakes. The check answers no and leaves b's request as it was; the tick at 1 ms from b's
// start charges the whole 1 ms and renews the request then: deadline = b0 + 1 ms + 0.75 ms.
// (Charged at the wakeup, the request would have been renewed at 0.9 ms: b0 + 1.65 ms.)
TEST(EevdfPolicy, DelayDequeue_ABatchOrIdleWakeeIsSettledBeforeCurrIsCharged) {
  for (sched_kind kind : {sched_kind::batch, sched_kind::idle}) {
    debtor x(1, true, kind);
    policy_t& p = x.p;
    task &a = x.a, &b = x.b;
    const sched_time t = x.t;
    ASSERT_TRUE(a.delayed);
    ASSERT_EQ(p.pick_next(t), &b);
    p.set_next(b, t);
    const vtime b0 = b.vruntime;
    p.enqueue(a, t + usec(900), enqueue_flags::wakeup);
    EXPECT_FALSE(p.wakeup_preempt(a, b, t + usec(900)));
    EXPECT_EQ(b.vruntime, b0) << "a BATCH/IDLE wakee's check does not charge curr";
    EXPECT_TRUE(p.tick(b, t + msec(1)));
    EXPECT_EQ(b.vruntime - b0, msec(1));
    EXPECT_EQ(b.deadline - b0, msec(1) + usec(750));
    EXPECT_TRUE(p.verify());
  }
}

// In the same order an idle curr is preempted by a non-idle wakee before anything is charged:
// its 2 ms are charged by the put_prev that follows, not by the check.
TEST(EevdfPolicy, WakeupCheckPreemptsAnIdleCurrWithoutChargingIt) {
  policy_t p;
  ASSERT_EQ(p.configure(knobs_hz(1000)), errc::ok);
  task idle = make(0, sched_kind::idle), n = make(0);
  sched_time t{};
  p.enqueue(idle, t, enqueue_flags::wakeup);
  p.set_next(idle, t);
  const vtime v0 = idle.vruntime;
  p.enqueue(n, t, enqueue_flags::wakeup);  // at the same instant: nothing to charge yet
  EXPECT_TRUE(p.wakeup_preempt(n, idle, t + msec(2)));
  EXPECT_EQ(idle.vruntime, v0) << "the idle curr is charged by its put_prev, not by the check";
  p.put_prev(idle, t + msec(2));
  EXPECT_EQ(idle.vruntime - v0, msec(2) * 1024 / 3) << "2 ms at SCHED_IDLE's weight 3";
  EXPECT_TRUE(p.verify());
}

// A delayed sleeper that changes class after the core's `dequeue(save)` (which keeps it marked,
// for a restore) is finished as the kernel's class change does before its save dequeue: as a
// sleep, its positive lag clipped to 0 (DELAY_ZERO) and no relative deadline. b runs 20 ms
// while a sleeps queued, so a's lag turns positive; the save takes it out; switched_from ends
// its delayed state, and a later wakeup into the class is an ordinary one.
TEST(EevdfPolicy, DelayDequeue_AClassChangeAfterTheSaveDequeueFinishesTheDelayedDequeue) {
  debtor x(1, true, sched_kind::normal, 1);
  policy_t& p = x.p;
  task &a = x.a, &b = x.b;
  sched_time t = x.t;
  ASSERT_TRUE(a.delayed);
  p.set_next(b, t);
  t += msec(20);
  (void)p.tick(b, t);
  p.dequeue(a, t, dequeue_flags::save);
  EXPECT_TRUE(a.delayed) << "the save keeps it marked, for a restore";
  EXPECT_GT(a.vlag, 0);
  p.switched_from(a, t);
  EXPECT_FALSE(a.delayed);
  EXPECT_FALSE(p.delayed(a));
  EXPECT_EQ(a.vlag, 0) << "DELAY_ZERO: a positive lag is clipped";
  EXPECT_FALSE(a.rel_deadline) << "the class change's dequeue is a sleep";
  EXPECT_EQ(p.nr_runnable(), 1u);
  EXPECT_TRUE(p.verify());
  // Back in the class later, it wakes like any sleeper: at the average, lag 0.
  p.enqueue(a, t + msec(5), enqueue_flags::wakeup);
  EXPECT_FALSE(a.delayed);
  EXPECT_EQ(p.avg_vruntime() - a.vruntime, 0);
  EXPECT_TRUE(p.verify());
}

// 059258b0d424 ("Prevent negative lag increase during delayed dequeue", 7.1; oracle: its
// description): a delayed sleeper's debt must not deepen while it waits queued. a (nice 0) runs
// 3 ms beside b and c, which never ran; c blocks eligible and leaves with vlag = V − 0 = 1 ms;
// then a blocks in debt: V = (3 + 0) / 2 ms, lag −1.5 ms. c wakes with its credit: placed at
// V − 1 ms·(W + w)/W = 1.5 − 1.5 = 0 ms, which pulls V back to (3 + 0 + 0) / 3 = 1 ms, so a's
// lag is now −2 ms. When a is next woken (`move` false) or taken out (`move` true), the knob
// holds its lag at −1.5 ms: the wakeup places it again (W = 2048 without it: v_a = 0 + 2.25 ms,
// V = 0.75 ms); without the knob it keeps −2 ms.
struct deepened_debt {
  policy_t p;
  task a = make(0), b = make(0), c = make(0);
  sched_time t{};
  explicit deepened_debt(int floor) {
    policy_t::knobs k = knobs_delay(1);
    k.base_slice = msec(3);  // lag clamp ±6 ms: out of the way
    k.delayed_lag_floor = floor;
    EXPECT_EQ(p.configure(k), errc::ok);
    for (task* x : {&a, &b, &c}) p.enqueue(*x, t, enqueue_flags::wakeup);
    p.set_next(a, t);
    t += msec(3);
    p.put_prev(a, t);
    p.dequeue(c, t, dequeue_flags::sleep);
    EXPECT_FALSE(c.on_rq);
    EXPECT_EQ(c.vlag, msec(1));
    p.set_next(a, t);
    p.dequeue(a, t, dequeue_flags::sleep);
    EXPECT_TRUE(a.delayed);
    EXPECT_EQ(p.avg_vruntime() - a.vruntime, -msec(1) - usec(500));
    p.enqueue(c, t, enqueue_flags::wakeup);
    EXPECT_EQ(c.vruntime, b.vruntime) << "b never ran: its vruntime is the 0 of these figures";
    EXPECT_EQ(p.avg_vruntime() - a.vruntime, -msec(2)) << "c's placement deepened a's debt";
    EXPECT_TRUE(p.verify());
  }
};

TEST(EevdfPolicy, DelayedLagFloor_WakeupPlacesADeepenedDebtorBackAtTheLagItBlockedWith) {
  deepened_debt on(1);
  on.p.enqueue(on.a, on.t, enqueue_flags::wakeup);
  EXPECT_FALSE(on.a.delayed);
  EXPECT_EQ(on.p.avg_vruntime() - on.a.vruntime, -msec(1) - usec(500));
  EXPECT_EQ(on.a.vruntime - on.b.vruntime, msec(2) + usec(250)) << "V(b, c) − (−1.5 ms)·3/2";
  EXPECT_EQ(on.p.avg_vruntime() - on.b.vruntime, usec(750));
  EXPECT_TRUE(on.p.verify());
  deepened_debt off(0);
  const vtime v = off.a.vruntime;
  off.p.enqueue(off.a, off.t, enqueue_flags::wakeup);
  EXPECT_EQ(off.a.vruntime, v) << "requeued in place";
  EXPECT_EQ(off.p.avg_vruntime() - off.a.vruntime, -msec(2));
}

TEST(EevdfPolicy, DelayedLagFloor_AMoveSavesTheHeldLagAndAPositiveLagIsStillClippedToZero) {
  deepened_debt on(1), off(0);
  on.p.dequeue(on.a, on.t, dequeue_flags::save);
  off.p.dequeue(off.a, off.t, dequeue_flags::save);
  EXPECT_EQ(on.a.vlag, -msec(1) - usec(500));
  EXPECT_EQ(off.a.vlag, -msec(2));
  EXPECT_TRUE(on.a.delayed);
  on.p.enqueue(on.a, on.t, enqueue_flags::restore);
  EXPECT_TRUE(on.a.delayed);
  EXPECT_TRUE(on.p.verify());
  // b then runs until a's lag is positive, with ticks only: the wakeup clips it to 0 as before.
  on.p.set_next(on.b, on.t);
  on.t += msec(30);
  (void)on.p.tick(on.b, on.t);
  ASSERT_GT(on.p.avg_vruntime() - on.a.vruntime, 0);
  on.p.enqueue(on.a, on.t, enqueue_flags::wakeup);
  EXPECT_FALSE(on.a.delayed);
  EXPECT_EQ(on.p.avg_vruntime() - on.a.vruntime, 0);
  EXPECT_TRUE(on.p.verify());
}

// 6.12+ takes a delayed sleeper out and back around a parameter change (set_user_nice:
// dequeue_task(DEQUEUE_SAVE), reweight, enqueue_task(ENQUEUE_RESTORE); dequeue_task_fair and
// enqueue_task_fair test `se.sched_delayed && DEQUEUE_SAVE/ENQUEUE_RESTORE`): its lag is saved,
// reweighted as any sleeper's (w·vlag kept), and it comes back placed by that lag, still delayed.
TEST(EevdfPolicy, DelayDequeue_ReniceOfADelayedSleeperKeepsItDelayedWithItsRealLag) {
  debtor x(1);
  policy_t& p = x.p;
  ASSERT_TRUE(x.a.delayed);
  EXPECT_EQ(p.setup(x.a, {sched_kind::normal, 5, 0, 0, 0, 0}), errc::busy) << "still queued: dequeue(save) first";
  ASSERT_EQ(x.b.vruntime - x.a.vruntime, -msec(3)) << "b never ran: V = (v_a + v_b) / 2";
  p.dequeue(x.a, x.t, dequeue_flags::save);
  EXPECT_FALSE(x.a.on_rq);
  EXPECT_TRUE(x.a.delayed) << "it leaves the queue, not the delayed state";
  EXPECT_TRUE(p.delayed(x.a));
  EXPECT_EQ(x.a.vlag, -msec(1) - usec(500)) << "V - v_a = 1.5 ms - 3 ms";
  EXPECT_EQ(p.nr_runnable(), 1u);
  EXPECT_TRUE(p.verify());
  ASSERT_EQ(p.setup(x.a, {sched_kind::normal, 5, 0, 0, 0, 0}), errc::ok);
  EXPECT_EQ(x.a.weight, 335u) << "sched_prio_to_weight[25]";
  const std::int64_t vlag = (-msec(1) - usec(500)) * 1024 / 335;  // reweight: w·vlag unchanged
  EXPECT_EQ(x.a.vlag, vlag);
  const vtime avg = p.avg_vruntime();  // b alone
  p.enqueue(x.a, x.t, enqueue_flags::restore);
  EXPECT_TRUE(x.a.on_rq);
  EXPECT_TRUE(x.a.delayed) << "it comes back as a delayed sleeper";
  EXPECT_EQ(p.nr_runnable(), 1u) << "a delayed sleeper is not runnable";
  // PLACE_LAG: v = V - vlag·(W + w)/W, W = b's 1024 (place_entity's inflation).
  EXPECT_EQ(avg - x.a.vruntime, vlag + vlag * 335 / 1024);
  EXPECT_TRUE(p.verify());
  // It burns off its debt while b runs; the pick that finds it eligible finishes its dequeue.
  for (int i = 0; i < 100 && x.a.delayed; ++i) {
    ASSERT_EQ(p.pick_next(x.t), &x.b);
    x.run(x.b, msec(1));
  }
  (void)p.pick_next(x.t);
  EXPECT_FALSE(x.a.delayed);
  EXPECT_FALSE(x.a.on_rq);
  EXPECT_EQ(x.a.vlag, 0) << "DELAY_ZERO";
  p.enqueue(x.a, x.t, enqueue_flags::wakeup);
  EXPECT_EQ(p.nr_runnable(), 2u);
  EXPECT_TRUE(p.verify());
}

// A migration moves a delayed sleeper the same way (dequeue(migrating) here, enqueue(migrated)
// there, still delayed), and its wakeup then belongs to the new run queue.
TEST(EevdfPolicy, DelayDequeue_MigratedDelayedSleeperStaysDelayedOnItsNewQueue) {
  debtor x(1);
  policy_t there;
  ASSERT_EQ(there.configure(knobs_delay(1)), errc::ok);
  task c = make(0);
  there.enqueue(c, x.t, enqueue_flags::wakeup);
  x.p.dequeue(x.a, x.t, dequeue_flags::migrating);
  EXPECT_TRUE(x.p.verify());
  EXPECT_FALSE(x.p.delayed(x.b));
  there.enqueue(x.a, x.t, enqueue_flags::migrated);
  EXPECT_TRUE(there.delayed(x.a));
  EXPECT_EQ(there.nr_runnable(), 1u);
  EXPECT_LT(there.avg_vruntime() - x.a.vruntime, 0) << "its debt travels with it";
  EXPECT_TRUE(there.verify());
  there.enqueue(x.a, x.t, enqueue_flags::wakeup);  // the wakeup requeues it in place
  EXPECT_FALSE(x.a.delayed);
  EXPECT_EQ(there.nr_runnable(), 2u);
  EXPECT_TRUE(there.verify());
}

// Everything else on a delayed sleeper is refused without a change: it cannot sleep twice, and
// once taken out only restore or migrated bring it back.
TEST(EevdfPolicy, DelayDequeue_OtherOperationsOnADelayedSleeperAreRefused) {
  debtor x(1);
  policy_t& p = x.p;
  const vtime v = x.a.vruntime;
  {
    schedcore_test::check_scope scope;
    p.dequeue(x.a, x.t, dequeue_flags::sleep);
    p.dequeue(x.a, x.t, dequeue_flags::dead);
    EXPECT_EQ(scope.take().size(), 2u);
  }
  EXPECT_TRUE(x.a.on_rq);
  EXPECT_TRUE(x.a.delayed);
  EXPECT_EQ(x.a.vruntime, v);
  EXPECT_TRUE(p.verify());
  p.dequeue(x.a, x.t, dequeue_flags::save);
  {
    schedcore_test::check_scope scope;
    p.enqueue(x.a, x.t, enqueue_flags::wakeup);
    p.dequeue(x.a, x.t, dequeue_flags::save);
    EXPECT_EQ(scope.take().size(), 2u);
  }
  EXPECT_FALSE(x.a.on_rq);
  EXPECT_TRUE(x.a.delayed);
  EXPECT_EQ(p.nr_runnable(), 1u);
  EXPECT_TRUE(p.verify());
  p.enqueue(x.a, x.t, enqueue_flags::restore);
  EXPECT_TRUE(x.a.on_rq);
  EXPECT_TRUE(p.verify());
}


// A running task whose dequeue is delayed is still the kernel's cfs_rq->curr in the pick that
// follows (put_prev comes after the pick there): pick_eevdf tests it first. It blocked
// ineligible, but when the pick finishes another delayed sleeper below V, V rises past it, and
// while RUN_TO_PARITY protects it (the deadline it was picked with) pick_eevdf returns it and
// pick_next_entity finishes its dequeue, lag clipped to 0 (DELAY_ZERO), although a runnable
// task has the earlier deadline. Found by a model of 6.12's fair.c run beside the policy.
// The set-up: nice 0, 3 ms slices, all queued at 0 (and `extra`, which never runs): b runs 2 ms
// and blocks ineligible (delayed, deadline 3 ms); c runs 3 ms (deadline 6), d 6 ms (deadline
// 9); a runs 3.5 ms (deadline 6.5), is picked again and blocks 0.5 ms later at 4 ms, above V:
// delayed, on the request it was picked with.
struct former_curr {
  policy_t p;
  task a = make(0), b = make(0), c = make(0), d = make(0);
  sched_time t{};
  explicit former_curr(int run_to_parity, task* extra = nullptr) {
    policy_t::knobs k = knobs_delay(1);
    k.base_slice = msec(3);
    k.run_to_parity = run_to_parity;
    EXPECT_EQ(p.configure(k), errc::ok);
    for (task* e : {&a, &b, &c, &d, extra})
      if (e != nullptr) p.enqueue(*e, t, enqueue_flags::wakeup);
    p.set_next(b, t);
    t += msec(2);
    p.dequeue(b, t, dequeue_flags::sleep);
    EXPECT_TRUE(b.delayed);
    run(c, msec(3));
    run(d, msec(6));
    run(a, usec(3500));
    p.set_next(a, t);
    t += usec(500);
    p.dequeue(a, t, dequeue_flags::sleep);
    EXPECT_TRUE(a.delayed);
    EXPECT_EQ(a.deadline - a.vruntime, usec(2500)) << "still the request it was picked with";
  }
  void run(task& who, std::int64_t ns) {
    p.set_next(who, t);
    t += ns;
    p.put_prev(who, t);
  }
};

// a blocks at 4 ms against V = (4 + 2 + 3 + 6) / 4 = 3.75 ms, lag -0.25 ms. The pick finishes b
// (eligible, the earliest deadline; its lag 1.75 ms clipped to 0), and V = (4 + 3 + 6) / 3 =
// 4.33 ms: a is eligible, and c (deadline 6 ms) and a (6.5 ms) compete.
TEST(EevdfPolicy, DelayDequeue_ThePickFinishesTheDelayedFormerCurrOnceEligibleWhileProtected) {
  for (int parity : {1, 0}) {
    SCOPED_TRACE(parity ? "RUN_TO_PARITY" : "NO_RUN_TO_PARITY");
    former_curr x(parity);
    policy_t& p = x.p;
    ASSERT_EQ(p.avg_vruntime() - x.a.vruntime, -usec(250));
    ASSERT_EQ(x.c.deadline - x.a.deadline, -usec(500));
    EXPECT_EQ(p.pick_next(x.t), &x.c);
    EXPECT_FALSE(x.b.on_rq);
    EXPECT_EQ(x.b.vlag, 0);
    if (parity != 0) {
      EXPECT_FALSE(x.a.on_rq) << "kept by RUN_TO_PARITY, so finished";
      EXPECT_FALSE(x.a.delayed);
      EXPECT_EQ(x.a.vlag, 0) << "its lag, 13/3 - 4 ms, clipped to 0";
      EXPECT_EQ(p.nr_delayed(), 0u);
    } else {
      EXPECT_TRUE(x.a.delayed) << "unprotected, it competes by its deadline: c's is earlier";
      EXPECT_EQ(p.nr_delayed(), 1u);
    }
    EXPECT_TRUE(p.verify());
  }
}

// Only prev is kept that way: once another task has run since (picked after a blocked, and
// blocking at once), the kernel's cfs_rq->curr is that task, and a is a delayed sleeper like
// any other, competing by its deadline. The set-up above with w, a nice -10 task that never
// ran (v 0, deadline 0.32 ms): a blocks at 4 ms against V = 1.13 ms (w weighs 9548), the pick
// returns w (the only eligible task), w blocks at once (eligible, so it leaves), and the pick
// at the same instant finishes b (V = 3.75 ms, the earliest deadline) and reaches V = 13/3 ms:
// a is eligible and on its first request, but it is not prev, so c's earlier deadline wins and
// a stays delayed.
TEST(EevdfPolicy, DelayDequeue_OnlyPrevIsKeptNotAnEarlierCurrOfTheSameInstant) {
  task w = make(-10);
  former_curr x(1, &w);
  policy_t& p = x.p;
  ASSERT_EQ(p.pick_next(x.t), &w);
  p.set_next(w, x.t);
  p.dequeue(w, x.t, dequeue_flags::sleep);
  ASSERT_FALSE(w.on_rq) << "eligible: it leaves at once";
  EXPECT_EQ(p.pick_next(x.t), &x.c);
  EXPECT_FALSE(x.b.on_rq) << "b finished";
  ASSERT_TRUE(p.entity_eligible(x.a));
  ASSERT_EQ(x.a.vprot, x.a.deadline);
  EXPECT_TRUE(x.a.delayed) << "not prev: c's deadline (6 ms) is earlier than a's (6.5 ms)";
  EXPECT_EQ(p.nr_delayed(), 1u);
  EXPECT_TRUE(p.verify());
}

// ---- lag bound over long random runs -------------------------------------------------------------

// Bound used: |lag_i| <= max(2 slice, TICK) + TICK in service time (ns), where
// lag_i = w_i (V - v_i) / 1024 with V the weighted mean over the queued entities, computed here
// from the entities' own fields. Sources: (1) the kernel's limit_lag, which clamps the lag an
// entity carries across a sleep to calc_delta_fair(max(2 slice, TICK_NSEC)), i.e.
// max(2 slice, TICK) of service (algorithms-modern.md §3.2, O3.2: 1.5 ms at HZ=1000, 4 ms at
// HZ=250); (2) Stoica et al., "Earliest
// Eligible Virtual Deadline First" (1996): in a steady system -r_max < lag < max(r_max, q), so
// once in the system a client drifts by at most one quantum beyond its request. Here the
// quantum q is one TICK (no hrtick: a turn ends at the first tick after the request is used).
// At HZ=1000 that composite, 2.5 ms, holds (worst 1.22-2.05 ms over four seeds). At HZ=250
// the worst, 9.37 ms, exceeds it (8 ms) and the paper's steady-state bound alone (r_max + q
// with r_max = slice + TICK: 8.75 ms), which assume joins at zero lag: there the run is held
// to an envelope of three ticks (12 ms), an empirical bound, not a derived one.
struct lag_probe {
  std::int64_t worst = 0;
  std::int64_t bound = 0;
  std::uint64_t samples = 0;
};

lag_probe random_lag_run(std::uint64_t seed, int n, int hz, std::int64_t total) {
  std::mt19937_64 rng(seed);
  driven p;
  EXPECT_EQ(p.configure(knobs_hz(hz)), errc::ok);
  std::vector<task> tasks(static_cast<std::size_t>(n));
  tick_driver<driven> d(p, hz);
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const int nice = static_cast<int>(rng() % 40) - 20;
    EXPECT_EQ(p.setup(tasks[i], sched_params{sched_kind::normal, static_cast<s8>(nice), 0, 0, 0, 0}), errc::ok);
    if (rng() % 4 == 0) {
      d.add(tasks[i], behaviour::hog(static_cast<std::int64_t>(rng() % msec(10))));
    } else {
      d.add(tasks[i], behaviour::cycle(usec(100) + static_cast<std::int64_t>(rng() % msec(20)),
                                       usec(100) + static_cast<std::int64_t>(rng() % msec(30)),
                                       static_cast<std::int64_t>(rng() % msec(10))));
    }
  }
  const std::int64_t tick = sec(1) / hz;
  lag_probe probe;
  // limit_lag + q; at HZ below 1000 three ticks (the envelope above).
  probe.bound = hz >= 1000 ? std::max(2 * p.base_slice(), tick) + tick : 3 * tick;
  const std::int64_t step = tick;
  for (std::int64_t at = step; at <= total; at += step) {
    d.run_until(at);
    std::vector<task*> queued;
    for (task& x : tasks)
      if (x.on_rq) queued.push_back(&x);
    if (queued.size() < 2) continue;
    // V from the entities' own fields: sum w v / sum w relative to the first (128-bit).
    i128 s = 0, w = 0;
    const std::uint64_t ref = queued[0]->vruntime.ns();
    for (const task* x : queued) {
      s += static_cast<i128>(x->weight) * static_cast<std::int64_t>(x->vruntime.ns() - ref);
      w += x->weight;
    }
    for (const task* x : queued) {
      const i128 rel = static_cast<i128>(static_cast<std::int64_t>(x->vruntime.ns() - ref)) * w;
      // service lag = w_i (V - v_i) / 1024 = w_i (s - rel_i w) / (w 1024)
      const i128 lag = static_cast<i128>(x->weight) * (s - rel) / (w * 1024);
      const std::int64_t l = static_cast<std::int64_t>(lag < 0 ? -lag : lag);
      probe.worst = std::max(probe.worst, l);
      ++probe.samples;
    }
    if ((at / step) % 4096 == 0) {
      EXPECT_TRUE(p.verify());
    }
  }
  return probe;
}

TEST(EevdfPolicy, LagStaysWithinTheEevdfBoundOverLongRandomRuns) {
  const std::uint64_t seeds[] = {11, 12, 13, 14};
  const int sizes[] = {3, 8, 16, 40};
  for (int i = 0; i < 4; ++i) {
    const lag_probe pr = random_lag_run(seeds[i], sizes[i], 1000, sec(20));
    EXPECT_GT(pr.samples, 1000u);
    EXPECT_LE(pr.worst, pr.bound) << "seed " << seeds[i] << " n " << sizes[i];
    std::printf("lag seed %llu n %d: worst %lld ns, bound %lld ns, samples %llu\n",
                static_cast<unsigned long long>(seeds[i]), sizes[i], static_cast<long long>(pr.worst),
                static_cast<long long>(pr.bound), static_cast<unsigned long long>(pr.samples));
  }
  const lag_probe pr = random_lag_run(21, 10, 250, sec(20));
  EXPECT_GT(pr.samples, 1000u);
  EXPECT_LE(pr.worst, pr.bound) << "HZ=250";
  std::printf("lag HZ=250 n 10: worst %lld ns, bound %lld ns\n", static_cast<long long>(pr.worst),
              static_cast<long long>(pr.bound));
}
#endif  // SCHEDCORE_TEST_HAVE_INT128

// ---- V and eligibility against the entities' own fields, curr running ---------------------------

// The run queue keeps Σ (v_i − v0)·w_i and Σ w_i with the running entity inside (advanced by
// Δv·w at each charge, corrected by −W·d when v0 advances). Checked here, after every operation
// of a long random run that keeps a running entity charged in several steps (ticks, wakeups,
// yields) between its pick and its put_prev and crosses the 2^64 wrap of both clocks: V and the
// eligibility of every runnable entity (curr included) equal a brute force over the entities'
// own fields, which knows nothing of v0 or of the sums. V = r + floor(Σ (v_j − r)·w_j / Σ w_j)
// for any reference r (the floor of a shifted sum shifts by the same integer); i is eligible
// iff Σ w_j·(v_j − v_i) >= 0. Exact in 64 bits here (overflow is checked, not assumed), so the
// test also runs on the -m32 build.
struct exact_sum {
  std::int64_t s = 0;
  std::int64_t w = 0;
  bool overflow = false;
  void add(std::int64_t rel, std::int64_t weight) {
    std::int64_t term = 0;
    overflow = overflow || __builtin_mul_overflow(rel, weight, &term) || __builtin_add_overflow(s, term, &s);
    w += weight;
  }
};

void avg_and_eligibility_run(std::uint64_t seed, int steps, bool wide_weights) {
  std::mt19937_64 rng(seed);
  policy_t p;
  ASSERT_EQ(p.configure(knobs_hz(1000)), errc::ok);
  constexpr std::size_t kTasks = 24;
  std::vector<task> tasks(kTasks);
  for (std::size_t i = 0; i < kTasks; ++i) {
    tasks[i].id = static_cast<int>(i);
    if (wide_weights && i % 3 == 0) {
      const u32 w = (i % 2 == 0) ? policy_t::weight_min + static_cast<u32>(rng() % 5)
                                 : policy_t::weight_max - static_cast<u32>(rng() % 5);
      ASSERT_EQ(p.set_weight(tasks[i], w), errc::ok);
    } else {
      const int nice = static_cast<int>(rng() % 40) - 20;
      ASSERT_EQ(p.setup(tasks[i], sched_params{sched_kind::normal, static_cast<s8>(nice), 0, 0, 0, 0}), errc::ok);
    }
  }
  sched_time now{std::numeric_limits<std::uint64_t>::max() - msec(300)};  // the clock wraps too
  task* curr = nullptr;
  std::uint64_t checked = 0, curr_checked = 0, curr_ineligible = 0, wraps = 0;
  std::uint64_t prev_v0 = p.min_vruntime().ns();
  for (int step = 0; step < steps; ++step) {
    now += static_cast<std::int64_t>(rng() % 400000);
    const unsigned op = static_cast<unsigned>(rng() % 12);
    task& t = tasks[static_cast<std::size_t>(rng() % kTasks)];
    if (op < 3) {
      if (!t.on_rq) p.enqueue(t, now, (rng() % 8 == 0) ? enqueue_flags::initial : enqueue_flags::wakeup);
      else if (curr != nullptr && &t != curr) (void)p.wakeup_preempt(t, *curr, now);
    } else if (op < 5) {
      if (t.on_rq) {
        if (&t == curr) curr = nullptr;
        p.dequeue(t, now, rng() % 4 == 0 ? dequeue_flags::save : dequeue_flags::sleep);
      }
    } else if (op < 9) {
      if (curr != nullptr) {
        (void)p.tick(*curr, now);  // curr charged again, still running
      } else if (rng() % 4 == 0) {
        if (t.on_rq) {  // any runnable entity may be set running, not only the pick
          p.set_next(t, now);
          curr = &t;
        }
      } else if (task* n = p.pick_next(now)) {
        p.set_next(*n, now);
        curr = n;
      }
    } else if (op == 9) {
      if (curr != nullptr) p.yield(*curr, now);
    } else if (curr != nullptr) {
      p.put_prev(*curr, now);
      curr = nullptr;
    }
    ASSERT_EQ(p.current(), curr);
    std::vector<const task*> queued;
    for (const task& x : tasks)
      if (x.on_rq) queued.push_back(&x);
    if (p.min_vruntime().ns() < prev_v0) ++wraps;
    prev_v0 = p.min_vruntime().ns();
    if (queued.empty()) continue;
    const std::uint64_t ref = queued[0]->vruntime.ns();
    exact_sum sum;
    for (const task* x : queued) sum.add(static_cast<std::int64_t>(x->vruntime.ns() - ref), x->weight);
    ASSERT_FALSE(sum.overflow) << "step " << step;
    const std::int64_t rel = sum.s >= 0 ? sum.s / sum.w : -((-sum.s + sum.w - 1) / sum.w);  // floor
    ASSERT_EQ(p.avg_vruntime().ns(), ref + static_cast<std::uint64_t>(rel)) << "step " << step;
    for (const task* x : queued) {
      exact_sum lag;  // Σ w_j·(v_j − v_x)
      for (const task* y : queued) lag.add(static_cast<std::int64_t>(y->vruntime.ns() - x->vruntime.ns()), y->weight);
      ASSERT_FALSE(lag.overflow);
      ASSERT_EQ(p.entity_eligible(*x), lag.s >= 0) << "step " << step << " task " << x->id;
      ++checked;
      if (x == curr) {
        ++curr_checked;
        if (lag.s < 0) ++curr_ineligible;
      }
    }
    ASSERT_TRUE(p.verify()) << "step " << step;
  }
  EXPECT_GT(checked, static_cast<std::uint64_t>(steps));
  EXPECT_GT(curr_checked, static_cast<std::uint64_t>(steps) / 4);
  EXPECT_GT(curr_ineligible, 0u);  // a running entity charged past V is seen ineligible
  EXPECT_GT(wraps, 0u);            // v0 crossed 2^64
}

TEST(EevdfPolicy, AvgVruntimeAndEligibilityEqualBruteForceWithCurrChargedInSteps) {
  avg_and_eligibility_run(0xa11c0de1, schedcore_test::run_steps(100000), false);
  avg_and_eligibility_run(0xa11c0de2, schedcore_test::run_steps(100000), true);
}

// ---- bad input, misuse, wrap ------------------------------------------------------------------

TEST(EevdfPolicy, BadParametersAreRefusedWithoutChange) {
  policy_t p;
  task t = make(3);
  const u32 w = t.weight;
  EXPECT_EQ(p.setup(t, {sched_kind::normal, 20, 0, 0, 0, 0}), errc::invalid_argument);
  EXPECT_EQ(p.setup(t, {sched_kind::normal, -21, 0, 0, 0, 0}), errc::invalid_argument);
  EXPECT_EQ(p.setup(t, {sched_kind::fifo, 0, 10, 0, 0, 0}), errc::invalid_argument);
  EXPECT_EQ(p.set_weight(t, 0), errc::invalid_argument) << "zero weight";
  EXPECT_EQ(p.set_weight(t, 1), errc::invalid_argument);
  EXPECT_EQ(p.set_weight(t, (1u << 18) + 1), errc::invalid_argument);
  EXPECT_EQ(t.weight, w);
  EXPECT_EQ(t.nice, 3);
  p.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  EXPECT_EQ(p.setup(t, {sched_kind::normal, 0, 0, 0, 0, 0}), errc::busy);
  EXPECT_EQ(p.set_weight(t, 2048), errc::busy);
  EXPECT_EQ(t.weight, w);
  const auto k = p.config();
  policy_t::knobs bad = k;
  bad.base_slice = 0;
  EXPECT_EQ(p.configure(bad), errc::invalid_argument);
  bad = k;
  bad.cpus = 0;
  EXPECT_EQ(p.configure(bad), errc::invalid_argument);
  bad = k;
  bad.run_to_parity = 2;
  EXPECT_EQ(p.configure(bad), errc::invalid_argument);
  EXPECT_EQ(p.config().base_slice, k.base_slice);
  EXPECT_EQ(p.config().cpus, k.cpus);
  EXPECT_TRUE(p.verify());
}

TEST(EevdfPolicy, CpuScalingOfTheBaseSlice) {
  // algorithms-modern.md §3.3: base_slice x (1 + ilog2(min(ncpus, 8))): 0.75 ms at 1 CPU,
  // 2.25 ms at 4, capped at 3 ms.
  policy_t p;
  policy_t::knobs k;
  EXPECT_EQ(p.base_slice(), usec(750));
  k.cpus = 4;
  ASSERT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.base_slice(), usec(2250));
  k.cpus = 64;
  ASSERT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.base_slice(), msec(3));
}

TEST(EevdfPolicy, DoubleEnqueueAndStrayDequeueAreRefusedAndReported) {
  policy_t p;
  task t = make(0), u = make(0);
  p.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  schedcore_test::check_scope scope;
  p.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  p.dequeue(u, sched_time{}, dequeue_flags::sleep);
  EXPECT_EQ(scope.take().size(), 2u);
  EXPECT_EQ(p.nr_runnable(), 1u);
  EXPECT_TRUE(p.verify());
  // set_next of a task that is not queued, and of a queued task while another one runs: each
  // reported, and neither becomes the running task.
  p.set_next(u, sched_time{});
  EXPECT_EQ(scope.take().size(), 1u);
  EXPECT_EQ(p.current(), nullptr);
  p.enqueue(u, sched_time{}, enqueue_flags::wakeup);
  p.set_next(t, sched_time{});
  ASSERT_EQ(p.current(), &t);
  EXPECT_TRUE(scope.take().empty());
  p.set_next(u, sched_time{});
  EXPECT_EQ(scope.take().size(), 1u);
  EXPECT_EQ(p.current(), &t);
  EXPECT_EQ(p.nr_runnable(), 2u);
  EXPECT_TRUE(p.verify());
}

TEST(EevdfPolicy, ReweightKeepsRealLag) {
  // Kernel reweight_entity: vlag scales by old_w / new_w so w vlag is unchanged.
  policy_t p;
  task t = make(0);
  t.vlag = msec(1);
  ASSERT_EQ(p.setup(t, {sched_kind::normal, 5, 0, 0, 0, 0}), errc::ok);
  EXPECT_EQ(t.vlag, msec(1) * 1024 / 335);
}

TEST(EevdfPolicy, SameScheduleWhenTheClockStartsJustBelowWrap) {
  auto run = [](sched_time origin) {
    driven p;
    EXPECT_EQ(p.configure(knobs_hz(1000)), errc::ok);
    task a = make(0), b = make(4), c = make(-3);
    tick_driver<driven> d(p, 1000, origin);
    d.add(a, behaviour::hog());
    d.add(b, behaviour::cycle(msec(7), msec(13)));
    d.add(c, behaviour::cycle(msec(2), msec(5), msec(3)));
    d.run_until(sec(2));
    EXPECT_TRUE(p.verify());
    return std::vector<std::int64_t>{d.stats(0).cpu_ns, d.stats(1).cpu_ns, d.stats(2).cpu_ns,
                                     static_cast<std::int64_t>(d.context_switches())};
  };
  const auto from_zero = run(sched_time{});
  const auto near_wrap = run(sched_time{std::numeric_limits<u64>::max() - msec(700)});
  EXPECT_EQ(from_zero, near_wrap);
  EXPECT_GT(from_zero[2], 0);
}

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

// Source: Linux 6.6 kernel/sched/fair.c avg_vruntime(): "sign flips effective floor / ceiling":
// if (avg < 0) avg -= (load - 1); avg = div_s64(avg, load) -- V is floor(Σ/W), also when Σ < 0.
TEST(EevdfPolicy, AvgVruntimeIsTheFloorWhenTheWeightedSumIsNegative) {
  // b (nice 0) runs 6 ms while a (nice 1, weight 820) waits; a sleeps with a positive lag, the
  // zero point then advances to b's vruntime, and a's wakeup places it behind that zero point,
  // so Σ (v_i − v0)·w_i < 0 and is not a multiple of W = 1844.
  policy_t p;
  task a = make(1), b = make(0);
  sched_time t{};
  p.enqueue(a, t, enqueue_flags::wakeup);
  p.enqueue(b, t, enqueue_flags::wakeup);
  p.set_next(b, t);
  t += msec(6);
  p.dequeue(a, t, dequeue_flags::sleep);
  ASSERT_GT(a.vlag, 0);
  p.enqueue(a, t, enqueue_flags::wakeup);
  ASSERT_LT(a.vruntime - p.min_vruntime(), 0) << "the wakee sits behind the zero point";
  // Brute force from the entities' own fields: V = v_b + floor(Σ w_j (v_j − v_b) / Σ w_j).
  const std::int64_t s = static_cast<std::int64_t>(a.weight) * (a.vruntime - b.vruntime);
  const std::int64_t w = static_cast<std::int64_t>(a.weight + b.weight);
  ASSERT_LT(s, 0);
  ASSERT_NE(s % w, 0) << "a sum that is not a multiple of W, or floor and truncation agree";
  const std::int64_t floor_rel = -((-s + w - 1) / w);
  EXPECT_EQ(p.avg_vruntime() - b.vruntime, floor_rel);
  EXPECT_TRUE(p.verify());
}

// Source: Linux 6.6 kernel/sched/fair.c place_entity(): "if (sched_feat(PLACE_DEADLINE_INITIAL)
// && (flags & ENQUEUE_INITIAL)) vslice /= 2;" -- with the feature off a fork's first request is whole.
TEST(EevdfPolicy, WithoutPlaceDeadlineInitialAForkGetsAWholeFirstRequest) {
  for (const int feature : {1, 0}) {
    policy_t p;
    policy_t::knobs k = knobs_hz(1000);
    k.place_deadline_initial = feature;
    ASSERT_EQ(p.configure(k), errc::ok);
    task a = make(0), child = make(0);
    p.enqueue(a, sched_time{}, enqueue_flags::wakeup);
    p.set_next(a, sched_time{});
    p.task_new(child, &a, sched_time{} + msec(1));
    p.enqueue(child, sched_time{} + msec(1), enqueue_flags::initial);
    EXPECT_EQ(child.deadline - child.vruntime, feature != 0 ? usec(750) / 2 : usec(750)) << feature;
    EXPECT_TRUE(p.verify());
  }
}

// Source: Linux 6.6 kernel/sched/fair.c update_curr() -> update_min_vruntime(): min_vruntime =
// max(min_vruntime, min(curr->vruntime, leftmost/root min_vruntime)), advanced at every charge.
TEST(EevdfPolicy, MinVruntimeFollowsTheRunningTaskAtEveryCharge) {
  policy_t p;
  ASSERT_EQ(p.configure(knobs_hz(1000)), errc::ok);
  task a = make(0), b = make(0);
  sched_time t{};
  p.enqueue(a, t, enqueue_flags::wakeup);
  p.set_next(a, t);
  // Alone: v0 = v_a after each tick.
  for (int i = 0; i < 3; ++i) {
    t += msec(1);
    (void)p.tick(a, t);
    EXPECT_EQ(p.min_vruntime(), a.vruntime) << i;
  }
  // b joins at V = v_a (zero lag); a runs on: v0 stays min(v_a, v_b) = v_b.
  p.enqueue(b, t, enqueue_flags::wakeup);
  t += msec(2);
  (void)p.tick(a, t);
  EXPECT_EQ(p.min_vruntime(), b.vruntime);
  // b runs past a: v0 moves to v_a, the tree minimum, at b's charges.
  p.put_prev(a, t);
  p.set_next(b, t);
  t += msec(5);
  (void)p.tick(b, t);
  EXPECT_EQ(p.min_vruntime(), a.vruntime);
  EXPECT_TRUE(p.verify());
}

// Source: Linux 6.6 kernel/sched/fair.c update_min_vruntime(): "ensure we never gain time by
// being placed backwards" -- cfs_rq->min_vruntime = max_vruntime(cfs_rq->min_vruntime, vruntime).
TEST(EevdfPolicy, MinVruntimeNeverMovesBackWhenAPositiveLagWakeeSitsBehindIt) {
  policy_t p;
  task a = make(0), b = make(0);
  sched_time t{};
  p.enqueue(a, t, enqueue_flags::wakeup);
  p.enqueue(b, t, enqueue_flags::wakeup);
  p.set_next(b, t);
  t += msec(6);
  p.dequeue(a, t, dequeue_flags::sleep);  // a is owed service: positive lag
  ASSERT_GT(a.vlag, 0);
  p.enqueue(a, t, enqueue_flags::wakeup);  // placed behind the zero point
  const vtime v0 = p.min_vruntime();
  ASSERT_LT(a.vruntime - v0, 0);
  p.dequeue(b, t + usec(100), dequeue_flags::sleep);  // only a is left, behind v0
  EXPECT_EQ(p.min_vruntime(), v0) << "min(v_a) is behind v0: v0 stays, never backwards";
  EXPECT_TRUE(p.verify());
}

// Source: Linux 6.6 kernel/sched/fair.c update_deadline(): a used-up request gets a fresh
// deadline, but "if (cfs_rq->nr_running > 1) resched_curr(...)" -- a task alone is not rescheduled.
TEST(EevdfPolicy, ALoneTaskRenewsItsRequestWithoutAReschedule) {
  policy_t p;
  ASSERT_EQ(p.configure(knobs_hz(1000)), errc::ok);
  task a = make(0), b = make(0);
  sched_time t{};
  p.enqueue(a, t, enqueue_flags::wakeup);
  p.set_next(a, t);
  for (int i = 0; i < 5; ++i) {
    const vtime d = a.deadline;
    t += msec(1);  // more than the 0.75 ms request: it renews at every tick
    EXPECT_FALSE(p.tick(a, t)) << i;
    EXPECT_NE(a.deadline, d) << "the request was renewed " << i;
  }
  // With a second task queued the same renewal asks for the CPU.
  p.enqueue(b, t, enqueue_flags::wakeup);
  t += msec(1);
  EXPECT_TRUE(p.tick(a, t));
  EXPECT_TRUE(p.verify());
}

// Source: Linux 6.8 kernel/sched/fair.c pick_eevdf(): "if (!best || (curr && entity_before(curr,
// best))) best = curr;" with entity_before() a strict deadline compare -- on a tie the tree wins.
TEST(EevdfPolicy, AnUnprotectedCurrLosesADeadlineTieToTheQueuedTask) {
  policy_t p;
  policy_t::knobs k = knobs_hz(1000);
  k.run_to_parity = 0;
  ASSERT_EQ(p.configure(k), errc::ok);
  task a = make(0), b = make(0);
  const sched_time t{};
  p.enqueue(a, t, enqueue_flags::wakeup);
  p.enqueue(b, t, enqueue_flags::wakeup);
  ASSERT_EQ(a.deadline, b.deadline);
  p.set_next(a, t);
  ASSERT_TRUE(p.entity_eligible(a));
  ASSERT_TRUE(p.entity_eligible(b));
  EXPECT_EQ(p.pick_next(t), &b);
  EXPECT_TRUE(p.verify());
}

// Source: Linux 6.6 kernel/sched/fair.c check_preempt_wakeup(): "if (unlikely(curr->policy ==
// SCHED_IDLE) && likely(p->policy != SCHED_IDLE)) goto preempt;" then "if (unlikely(p->policy !=
// SCHED_NORMAL) ...) return;" -- a SCHED_IDLE wakee never preempts, not even a SCHED_IDLE curr.
TEST(EevdfPolicy, AnIdleWakeeDoesNotPreemptAnIdleCurr) {
  policy_t p;
  task curr = make(0, sched_kind::idle), woken = make(0, sched_kind::idle);
  sched_time t{};
  p.enqueue(curr, t, enqueue_flags::wakeup);
  p.set_next(curr, t);
  // curr runs 5 ms; the enqueue charges it and renews its request, and the wakee is placed at
  // V = curr's vruntime with the same deadline: a fresh pick would return the wakee (a queued
  // task wins a deadline tie), but an idle wakee never preempts.
  t += msec(5);
  p.enqueue(woken, t, enqueue_flags::wakeup);
  EXPECT_FALSE(p.wakeup_preempt(woken, curr, t));
  EXPECT_EQ(p.pick_next(t), &woken);
  EXPECT_TRUE(p.verify());
}

// Source: Linux 6.12 kernel/sched/fair.c requeue_delayed_entity(): with DELAY_ZERO, "if (se->vlag
// > 0) { ... se->vlag = 0; place_entity(cfs_rq, se, 0); }" -- only a strictly positive lag is
// placed again; a sleeper woken at exactly zero lag keeps its vruntime and its deadline.
TEST(EevdfPolicy, DelayedSleeperWokenAtExactlyZeroLagKeepsItsDeadline) {
  policy_t p;
  policy_t::knobs k = knobs_hz(1000);
  k.delay_dequeue = 1;
  ASSERT_EQ(p.configure(k), errc::ok);
  task a = make(0), b = make(0);
  sched_time t{};
  p.enqueue(a, t, enqueue_flags::wakeup);
  p.enqueue(b, t, enqueue_flags::wakeup);
  p.set_next(a, t);
  t += usec(500);  // within a's 0.75 ms request: its deadline stays the first one
  p.dequeue(a, t, dequeue_flags::sleep);
  ASSERT_TRUE(a.delayed) << "a blocked ineligible (V = v0 + 0.25 ms, v_a = v0 + 0.5 ms)";
  ASSERT_EQ(p.pick_next(t), &b);
  p.set_next(b, t);
  t += usec(500);
  (void)p.tick(b, t);  // b catches up exactly: V = v_a
  ASSERT_EQ(p.avg_vruntime() - a.vruntime, 0);
  const vtime v = a.vruntime, d = a.deadline;
  ASSERT_NE(d - v, usec(750)) << "a fresh request would differ from the one it keeps";
  p.enqueue(a, t, enqueue_flags::wakeup);
  EXPECT_FALSE(a.delayed);
  EXPECT_EQ(a.vruntime, v);
  EXPECT_EQ(a.deadline, d);
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

TEST(EevdfPolicy, RandomForksAcrossCpusLeaveTheParentsQueueAlone) {
  schedcore_test::expect_forks_leave_the_parents_queue_alone<policy_t, xq_params>();
}

// ... and a task that sleeps on one CPU and wakes on the other behaves there whatever its old
// CPU did after it left: a sleeper crosses with its lag only (6.6+ placement by lag, no min_vruntime rebase).
TEST(EevdfPolicy, RandomWakeupsAcrossCpusDoNotReadTheOldQueue) {
  schedcore_test::expect_wakeups_do_not_read_the_old_queue<policy_t, xq_params>();
}

}  // namespace
