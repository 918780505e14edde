// CFS bandwidth control (cpu.max): the pool (policy/cfs_bandwidth.hpp) and the throttling of
// group_policy (policy/group.hpp).
//
// Oracles:
// - cgroup v2's cpu.max (Documentation/admin-guide/cgroup-v2.rst): "the group may consume up
//   to $MAX in each $PERIOD duration"; cpu.max.burst: up to $BURST more, banked from unused
//   quota. With HZ = 1000 and the quota a whole number of ticks, the kernel's accounting
//   (charged at each tick, throttled at the next put_prev once the local budget and the pool
//   are both empty) gives a hog exactly its quota per period; what the others get is the rest.
// - Documentation/scheduler/sched-bwc.rst: the quota is summed over CPUs (a group with quota
//   = period gets one CPU's worth spread over all of its CPUs); slices of
//   sched_cfs_bandwidth_slice_us (5 ms) are drawn from the global pool into per-CPU budgets;
//   nested limits each apply.
// - kernel/sched/core.c tg_set_cfs_bandwidth: the accepted ranges (period 1 ms..1 s, quota
//   >= 1 ms, burst <= quota); a burst without a quota, which 5.14 accepts and never uses, is
//   refused here as meaningless.
// - fair.c: __refill_cfs_bandwidth_runtime (quota added, capped at quota + burst; nr_bursts),
//   return_cfs_rq_runtime (an emptied queue keeps 1 ms, returns the rest),
//   check_preempt_wakeup_fair (a wakeup under a throttled group does not preempt).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/cfs_bandwidth.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "schedcore/policy/group.hpp"
#include "check_recorder.hpp"
#include "group_setups.hpp"
#include "tick_driver.hpp"

namespace {

using namespace schedcore;
using schedcore_test::behaviour;
using schedcore_test::single_class;
using schedcore_test::tick_driver;

constexpr std::int64_t kMs = 1000000;

// ---------------------------------------------------------------------------------------------
// The pool alone.

TEST(CfsBandwidthPool, DefaultsAreTheKernels) {
  cfs_bandwidth b;
  EXPECT_FALSE(b.limited());
  EXPECT_EQ(b.period(), msec(100));
  EXPECT_EQ(b.slice(), msec(5));
  EXPECT_EQ(cfs_bandwidth::min_local_runtime, msec(1));
  EXPECT_EQ(cfs_bandwidth::max_runtime, ((std::int64_t{1} << 44) - 1) * 1000);
  // Unlimited gives whatever is asked.
  EXPECT_EQ(b.acquire(msec(7), sched_time{}), msec(7));
}

TEST(CfsBandwidthPool, AcquireDrawsWhatIsLeftAndTheRefillAddsTheQuotaUnderTheCap) {
  cfs_bandwidth b;
  ASSERT_EQ(b.configure(msec(20), msec(100), msec(10), sched_time{}), errc::ok);
  EXPECT_EQ(b.runtime(), msec(20));  // 0 + quota
  // The periods start at the first draw.
  EXPECT_EQ(b.acquire(msec(5), sched_time{}), msec(5));
  EXPECT_EQ(b.next_refill(), sched_time{} + msec(100));
  EXPECT_EQ(b.acquire(msec(30), sched_time{} + msec(2)), msec(15));  // what is left
  EXPECT_EQ(b.acquire(msec(1), sched_time{} + msec(3)), 0);
  // At the boundary: 0 + 20. Drawn 20 = quota in the period: no burst.
  EXPECT_EQ(b.acquire(msec(4), sched_time{} + msec(100)), msec(4));
  EXPECT_EQ(b.runtime(), msec(16));
  EXPECT_EQ(b.next_refill(), sched_time{} + msec(200));
  EXPECT_EQ(b.nr_bursts(), 0u);
  // One boundary later: 16 + 20 = 36, capped at quota + burst = 30.
  b.refill_to(sched_time{} + msec(250));
  EXPECT_EQ(b.runtime(), msec(30));
  // Draw 30 in that period (20 quota + 10 banked): the next refill sees a burst of 10.
  EXPECT_EQ(b.acquire(msec(30), sched_time{} + msec(260)), msec(30));
  b.refill_to(sched_time{} + msec(300));
  EXPECT_EQ(b.runtime(), msec(20));
  EXPECT_EQ(b.nr_bursts(), 1u);
  EXPECT_EQ(b.burst_time(), msec(10));
  // Many idle periods at once: the grid is kept and the pool is at the cap.
  b.refill_to(sched_time{} + msec(1234));
  EXPECT_EQ(b.next_refill(), sched_time{} + msec(1300));
  EXPECT_EQ(b.runtime(), msec(30));
  EXPECT_EQ(b.nr_bursts(), 1u);
  b.give_back(msec(2), sched_time{} + msec(1240));
  EXPECT_EQ(b.runtime(), msec(32));
  sched_time at{};
  EXPECT_FALSE(b.slack_timer(at));  // nothing is throttled: no slack timer
}

// The slack timer (start_cfs_slack_bandwidth, do_sched_cfs_slack_timer): budget returned while
// a queue of the group is throttled is handed out 5 ms later, once the pool holds more than a
// slice; an armed timer is not pushed back, none is armed within 7 ms of the refill, and a
// pool drawn down to a slice or less by then hands out nothing.
TEST(CfsBandwidthPool, TheSlackTimerHandsOutReturnedBudget) {
  cfs_bandwidth b;
  const sched_time t0{};
  ASSERT_EQ(b.configure(msec(20), msec(100), 0, t0), errc::ok);
  EXPECT_EQ(cfs_bandwidth::slack_period, msec(5));
  EXPECT_EQ(cfs_bandwidth::min_expiration, msec(2));
  EXPECT_EQ(b.acquire(msec(20), t0), msec(20));  // the period runs from 0 to 100 ms
  sched_time at{};
  b.give_back(msec(6), t0 + msec(8));  // more than a slice, but nobody is throttled
  EXPECT_FALSE(b.slack_timer(at));
  EXPECT_EQ(b.acquire(msec(6), t0 + msec(9)), msec(6));
  b.note_throttle();
  EXPECT_EQ(b.throttled_queues(), 1u);
  b.give_back(msec(3), t0 + msec(10));  // 3 ms: not more than a slice
  EXPECT_FALSE(b.slack_timer(at));
  b.give_back(msec(3), t0 + msec(12));  // 6 ms: armed for 17 ms
  ASSERT_TRUE(b.slack_timer(at));
  EXPECT_EQ(at, t0 + msec(17));
  b.give_back(msec(1), t0 + msec(14));  // not pushed back
  ASSERT_TRUE(b.slack_timer(at));
  EXPECT_EQ(at, t0 + msec(17));
  b.fire_slack(t0 + msec(16));  // not due
  EXPECT_TRUE(b.slack_timer(at));
  EXPECT_EQ(b.slack_round(), 0u);
  b.fire_slack(t0 + msec(17));
  EXPECT_FALSE(b.slack_timer(at));
  EXPECT_EQ(b.slack_round(), 1u);  // 7 ms > a slice: a round
  b.fire_slack(t0 + msec(18));     // fired already
  EXPECT_EQ(b.slack_round(), 1u);
  // Drawn down to a slice before the timer fires: no round.
  EXPECT_EQ(b.acquire(msec(7), t0 + msec(20)), msec(7));
  b.give_back(msec(6), t0 + msec(30));
  ASSERT_TRUE(b.slack_timer(at));
  EXPECT_EQ(b.acquire(msec(1), t0 + msec(31)), msec(1));
  b.fire_slack(t0 + msec(35));
  EXPECT_FALSE(b.slack_timer(at));
  EXPECT_EQ(b.slack_round(), 1u);
  // 7 ms before the refill at 100 ms: still armed (fires at 98, 2 ms before it).
  EXPECT_EQ(b.acquire(msec(5), t0 + msec(40)), msec(5));
  b.give_back(msec(6), t0 + msec(93));
  ASSERT_TRUE(b.slack_timer(at));
  EXPECT_EQ(at, t0 + msec(98));
  b.fire_slack(t0 + msec(98));
  EXPECT_EQ(b.slack_round(), 2u);
  // 6.5 ms before the refill at 200 ms: not armed (the refill comes first).
  EXPECT_EQ(b.acquire(msec(100), t0 + msec(150)), msec(20));  // 6 + 20, capped at 20
  b.give_back(msec(6), t0 + msec(193) + 500000);
  EXPECT_FALSE(b.slack_timer(at));
  // The last throttled queue comes back: no more timers.
  b.note_unthrottle(msec(90));
  EXPECT_EQ(b.throttled_queues(), 0u);
  b.give_back(msec(9), t0 + msec(250));  // refilled at 200 first: 20 + 9
  EXPECT_EQ(b.runtime(), msec(29));
  EXPECT_FALSE(b.slack_timer(at));
  // A timer whose queue came back before it fired (nobody saw it fire) does not block the next.
  b.note_throttle();
  b.give_back(msec(1), t0 + msec(310));
  ASSERT_TRUE(b.slack_timer(at));
  EXPECT_EQ(at, t0 + msec(315));
  b.note_unthrottle(msec(3));
  b.note_throttle();
  b.give_back(msec(1), t0 + msec(330));
  ASSERT_TRUE(b.slack_timer(at));
  EXPECT_EQ(at, t0 + msec(335));
}

// cpu.stat's nr_periods and nr_throttled (do_sched_cfs_period_timer): the period timer counts
// each boundary it passes while active, counts it as throttled when a queue is throttled there,
// marks the pool idle at a boundary after a period with a draw, and stops at a boundary after a
// period with none (nothing throttled) until the next draw restarts it on the same grid.
TEST(CfsBandwidthPool, ThePeriodTimerCountsPeriodsAsCpuStatDoes) {
  cfs_bandwidth b;
  const sched_time t0{};
  ASSERT_EQ(b.configure(msec(20), msec(100), 0, t0), errc::ok);
  EXPECT_EQ(b.acquire(msec(5), t0), msec(5));  // starts the timer: boundaries at 100, 200, ...
  EXPECT_EQ(b.acquire(msec(15), t0 + msec(50)), msec(15));
  b.refill_to(t0 + msec(100));
  EXPECT_EQ(b.nr_periods(), 1u);  // a draw in it: the pool is marked idle, the timer runs on
  EXPECT_EQ(b.acquire(msec(5), t0 + msec(150)), msec(5));
  b.note_throttle();  // a queue runs dry and waits
  EXPECT_EQ(b.acquire(msec(1), t0 + msec(200)), msec(1));  // its timer at the boundary
  EXPECT_EQ(b.nr_periods(), 2u);
  EXPECT_EQ(b.nr_throttled_periods(), 1u);
  b.note_unthrottle(msec(40));
  b.refill_to(t0 + msec(1000));  // 300 (a draw before it: idle), 400 (idle: stops), then nothing
  EXPECT_EQ(b.nr_periods(), 4u);
  b.refill_to(t0 + msec(2000));
  EXPECT_EQ(b.nr_periods(), 4u);
  EXPECT_EQ(b.acquire(msec(1), t0 + msec(2050)), msec(1));  // restarted on the same grid
  b.refill_to(t0 + msec(2100));
  EXPECT_EQ(b.nr_periods(), 5u);
  EXPECT_EQ(b.nr_throttled_periods(), 1u);
  EXPECT_EQ(b.next_refill(), t0 + msec(2200));
  // Marked idle at 2100, but a draw follows: the timer runs through 2200 (idle mark) and
  // stops at 2300.
  EXPECT_EQ(b.acquire(msec(1), t0 + msec(2150)), msec(1));
  b.refill_to(t0 + msec(2500));
  EXPECT_EQ(b.nr_periods(), 7u);
}

TEST(CfsBandwidthPool, TheGridAndTheClockWrapTogether) {
  const sched_time origin{~std::uint64_t{0} - static_cast<std::uint64_t>(msec(150))};
  cfs_bandwidth b;
  ASSERT_EQ(b.configure(msec(10), msec(100), 0, origin), errc::ok);
  EXPECT_EQ(b.acquire(msec(10), origin), msec(10));
  EXPECT_EQ(b.acquire(msec(1), origin + msec(99)), 0);
  EXPECT_EQ(b.acquire(msec(1), origin + msec(100)), msec(1));  // across 2^64
  EXPECT_EQ(b.next_refill(), origin + msec(200));
}

TEST(CfsBandwidthPool, BadLimitsAreRefusedAndChangeNothing) {
  cfs_bandwidth b;
  ASSERT_EQ(b.configure(msec(20), msec(100), msec(5), sched_time{}), errc::ok);
  const std::uint32_t gen = b.generation();
  struct bad {
    std::int64_t quota, period, burst;
    const char* why;
  } const cases[] = {
      {msec(20), usec(999), 0, "period below 1 ms"},
      {msec(20), sec(1) + 1, 0, "period above 1 s"},
      {usec(999), msec(100), 0, "quota below 1 ms"},
      {0, msec(100), 0, "quota 0"},
      {-2, msec(100), 0, "negative quota other than unlimited"},
      {cfs_bandwidth::max_runtime + 1, msec(100), 0, "quota above max_cfs_runtime"},
      {msec(20), msec(100), msec(20) + 1, "burst above the quota"},
      {msec(20), msec(100), -1, "negative burst"},
      {cfs_bandwidth::max_runtime - msec(1), msec(100), msec(2), "quota + burst above max_cfs_runtime"},
      {cfs_bandwidth::unlimited, msec(100), msec(1), "burst without a quota"},
  };
  for (const bad& c : cases) {
    EXPECT_EQ(b.configure(c.quota, c.period, c.burst, sched_time{} + msec(7)), errc::out_of_range) << c.why;
    EXPECT_EQ(b.quota(), msec(20)) << c.why;
    EXPECT_EQ(b.period(), msec(100)) << c.why;
    EXPECT_EQ(b.burst(), msec(5)) << c.why;
    EXPECT_EQ(b.generation(), gen) << c.why;
  }
  EXPECT_EQ(b.set_slice(0), errc::out_of_range);
  EXPECT_EQ(b.set_slice(sec(2)), errc::out_of_range);
  EXPECT_EQ(b.slice(), msec(5));
  EXPECT_EQ(b.set_slice(usec(1)), errc::ok);
  // The limits themselves are accepted.
  EXPECT_EQ(b.configure(msec(1), msec(1), msec(1), sched_time{}), errc::ok);
  EXPECT_EQ(b.configure(cfs_bandwidth::max_runtime, sec(1), 0, sched_time{}), errc::ok);
  EXPECT_EQ(b.configure(cfs_bandwidth::unlimited, sec(1), 0, sched_time{}), errc::ok);
  EXPECT_FALSE(b.limited());
}

// ---------------------------------------------------------------------------------------------
// Throttling in group_policy, under cfs and eevdf.

using cfs_setup = schedcore_test::cfs_group_setup;
using FairSetups = schedcore_test::fair_group_setups;
using setup_names = schedcore_test::fair_group_setup_names;

template <class S>
class GroupBandwidth : public ::testing::Test {};

// One CPU's class with group `g` (under the root) capped by `pool` at `quota` per `period`.
template <class S>
struct capped_group {
  typename S::rq rq;
  typename S::group g;
  cfs_bandwidth pool;
  explicit capped_group(std::int64_t quota, std::int64_t period = msec(100), std::int64_t burst = 0) {
    EXPECT_EQ(rq.attach_group(g, nullptr), errc::ok);
    EXPECT_EQ(pool.configure(quota, period, burst, sched_time{}), errc::ok);
    EXPECT_EQ(rq.set_group_bandwidth(g, &pool, sched_time{}), errc::ok);
  }
  /// Puts `t` (not queued) in the group.
  void join(typename S::task& t) { EXPECT_EQ(rq.set_group(t, &g, sched_time{}), errc::ok); }
  /// Wakes `t` (alone in the group) at `t0` and runs it until the tick at `t0 + ran` finds the
  /// budget and the pool empty: the group is throttled and the CPU has nothing to run.
  void run_until_throttled(typename S::task& t, sched_time t0, std::int64_t ran) {
    rq.enqueue(t, t0, enqueue_flags::wakeup);
    ASSERT_EQ(rq.schedule(nullptr, false, t0), &t);
    EXPECT_TRUE(rq.tick(t, t0 + ran));
    EXPECT_EQ(rq.schedule(&t, true, t0 + ran), nullptr);
  }
};
TYPED_TEST_SUITE(GroupBandwidth, FairSetups, setup_names);

// N CPUs, each with its own object of one group capped by a shared pool at `quota` per 100 ms
// and a task in it behaving as `how[i]`, each CPU driven by its own tick_driver.
template <class S>
struct pool_cpus {
  cfs_bandwidth pool;
  std::vector<typename S::rq> rqs;
  std::vector<typename S::group> groups;
  std::vector<typename S::task> tasks;
  std::vector<std::unique_ptr<tick_driver<typename S::rq>>> drivers;
  pool_cpus(std::int64_t quota, const std::vector<behaviour>& how) : rqs(how.size()), groups(how.size()), tasks(how.size()) {
    EXPECT_EQ(pool.configure(quota, msec(100), 0, sched_time{}), errc::ok);
    for (std::size_t i = 0; i < how.size(); ++i) {
      EXPECT_EQ(rqs[i].attach_group(groups[i], nullptr), errc::ok);
      EXPECT_EQ(rqs[i].set_group_bandwidth(groups[i], &pool, sched_time{}), errc::ok);
      EXPECT_EQ(rqs[i].set_group(tasks[i], &groups[i], sched_time{}), errc::ok);
      drivers.push_back(std::make_unique<tick_driver<typename S::rq>>(rqs[i]));
      drivers.back()->add(tasks[i], how[i]);
    }
  }
  /// Runs the CPUs in lockstep up to `end_ms`, 1 ms at a time, the lower CPU numbers first.
  void run_to(std::int64_t end_ms) {
    for (std::int64_t ms = 1; ms <= end_ms; ++ms)
      for (auto& d : drivers) d->run_until(ms * kMs);
  }
  std::int64_t cpu_ns(std::size_t i) const { return drivers[i]->stats(0).cpu_ns; }
  bool verify() const {
    for (const auto& rq : rqs)
      if (!rq.verify()) return false;
    return true;
  }
};

// cpu.max "50000 100000": a lone hog runs 50 ms of every 100 ms and the CPU idles the rest;
// throttled once per period, 50 ms each time.
TYPED_TEST(GroupBandwidth, ALoneHogGetsItsQuotaInEveryPeriod) {
  using S = TypeParam;
  capped_group<S> capped(msec(50));
  auto& [rq, g, pool] = capped;
  typename S::task t;
  capped.join(t);
  tick_driver<typename S::rq> d(rq);
  d.add(t, behaviour::hog());
  d.run_until(1000 * kMs + 1);
  EXPECT_EQ(d.stats(0).cpu_ns, 500 * kMs + 1);  // 10 periods of 50 ms, and the first ns of the 11th
  EXPECT_EQ(pool.nr_throttled(), 10u);
  EXPECT_EQ(pool.nr_periods(), 10u);  // cpu.stat: 10 periods, each ended throttled
  EXPECT_EQ(pool.nr_throttled_periods(), 10u);
  EXPECT_EQ(pool.throttled_time(), 10 * 50 * kMs);
  EXPECT_TRUE(rq.verify());
  EXPECT_FALSE(g.throttled());
}

// A sibling in the root takes what the throttled group leaves: 20 % against 80 %, where the
// weights alone give 50 % each.
TYPED_TEST(GroupBandwidth, ASiblingGetsWhatTheLimitLeaves) {
  using S = TypeParam;
  for (const bool limit : {false, true}) {
    typename S::rq rq;
    typename S::group g;
    cfs_bandwidth pool;
    ASSERT_EQ(rq.attach_group(g, nullptr), errc::ok);
    if (limit) {
      ASSERT_EQ(pool.configure(msec(20), msec(100), 0, sched_time{}), errc::ok);
      ASSERT_EQ(rq.set_group_bandwidth(g, &pool, sched_time{}), errc::ok);
    }
    typename S::task a, b;
    ASSERT_EQ(rq.set_group(a, &g, sched_time{}), errc::ok);
    tick_driver<typename S::rq> d(rq);
    d.add(a, behaviour::hog());
    d.add(b, behaviour::hog());
    d.run_until(2000 * kMs);
    if (limit) {
      EXPECT_EQ(d.stats(0).cpu_ns, 400 * kMs);
      EXPECT_EQ(d.stats(1).cpu_ns, 1600 * kMs);
      EXPECT_EQ(pool.nr_throttled(), 20u);
    } else {
      EXPECT_NEAR(static_cast<double>(d.stats(0).cpu_ns), 1000.0 * kMs, 10.0 * kMs);
    }
    EXPECT_TRUE(rq.verify());
  }
}

// The quota is the group's: two hogs in it divide 30 ms per period (15 % each), and a hog in
// the root gets the other 70 %.
TYPED_TEST(GroupBandwidth, TheTasksOfAGroupShareItsQuota) {
  using S = TypeParam;
  capped_group<S> capped(msec(30));
  auto& [rq, g, pool] = capped;
  typename S::task t[3];
  capped.join(t[0]);
  capped.join(t[1]);
  tick_driver<typename S::rq> d(rq);
  for (auto& x : t) d.add(x, behaviour::hog());
  d.run_until(4000 * kMs);
  EXPECT_EQ(d.stats(0).cpu_ns + d.stats(1).cpu_ns, 1200 * kMs);
  EXPECT_NEAR(static_cast<double>(d.stats(0).cpu_ns), 600.0 * kMs, 12.0 * kMs);
  EXPECT_EQ(d.stats(2).cpu_ns, 2800 * kMs);
}

// Nested limits each apply: P (40 ms per 100 ms) holds a hog and C (10 ms per 100 ms) with a
// hog. C gets 10 ms a period, P's own hog the other 30, and the CPU idles 60 %.
TYPED_TEST(GroupBandwidth, NestedLimitsEachApply) {
  using S = TypeParam;
  typename S::rq rq;
  typename S::group p, c;
  cfs_bandwidth pp, cp;
  ASSERT_EQ(rq.attach_group(p, nullptr), errc::ok);
  ASSERT_EQ(rq.attach_group(c, &p), errc::ok);
  ASSERT_EQ(pp.configure(msec(40), msec(100), 0, sched_time{}), errc::ok);
  ASSERT_EQ(cp.configure(msec(10), msec(100), 0, sched_time{}), errc::ok);
  ASSERT_EQ(rq.set_group_bandwidth(p, &pp, sched_time{}), errc::ok);
  ASSERT_EQ(rq.set_group_bandwidth(c, &cp, sched_time{}), errc::ok);
  typename S::task in_p, in_c;
  ASSERT_EQ(rq.set_group(in_p, &p, sched_time{}), errc::ok);
  ASSERT_EQ(rq.set_group(in_c, &c, sched_time{}), errc::ok);
  tick_driver<typename S::rq> d(rq);
  d.add(in_p, behaviour::hog());
  d.add(in_c, behaviour::hog());
  d.run_until(1000 * kMs);
  EXPECT_EQ(d.stats(1).cpu_ns, 100 * kMs);
  EXPECT_EQ(d.stats(0).cpu_ns, 300 * kMs);
  EXPECT_TRUE(rq.verify());
}

// cpu.max.burst: a group that used 10 ms every 200 ms for a second (the period timer running
// all along) has banked quota + burst = 40 ms in its pool, plus the 1 ms its emptied queue
// keeps; when a hog joins it at 1000 ms, the two get 41 ms in that period (a burst of 20 ms
// beyond the quota), then 20 ms a period. Without the burst: 21 ms, then 20.
TYPED_TEST(GroupBandwidth, BurstLetsAGroupBankUnusedQuota) {
  using S = TypeParam;
  for (const std::int64_t burst : {std::int64_t{0}, msec(20)}) {
    typename S::rq rq;
    typename S::group g;
    cfs_bandwidth pool;
    ASSERT_EQ(rq.attach_group(g, nullptr), errc::ok);
    ASSERT_EQ(pool.configure(msec(20), msec(100), burst, sched_time{}), errc::ok);
    ASSERT_EQ(rq.set_group_bandwidth(g, &pool, sched_time{}), errc::ok);
    typename S::task light, hog;
    ASSERT_EQ(rq.set_group(light, &g, sched_time{}), errc::ok);
    ASSERT_EQ(rq.set_group(hog, &g, sched_time{}), errc::ok);
    tick_driver<typename S::rq> d(rq);
    d.add(light, behaviour::cycle(10 * kMs, 190 * kMs));
    d.add(hog, behaviour::hog(1000 * kMs));
    d.run_until(1000 * kMs);
    EXPECT_EQ(d.stats(0).cpu_ns, 50 * kMs);
    EXPECT_EQ(pool.nr_throttled(), 0u);
    d.run_until(1100 * kMs);
    const std::int64_t first = d.stats(0).cpu_ns + d.stats(1).cpu_ns - 50 * kMs;
    EXPECT_EQ(first, burst == 0 ? 21 * kMs : 41 * kMs) << burst;
    d.run_until(1500 * kMs);
    EXPECT_EQ(d.stats(0).cpu_ns + d.stats(1).cpu_ns - 50 * kMs - first, 4 * 20 * kMs) << burst;
    EXPECT_EQ(pool.nr_bursts(), burst == 0 ? 0u : 1u);
    EXPECT_EQ(pool.burst_time(), burst == 0 ? 0 : 20 * kMs);
  }
}

// The hooks one by one: what throttling hides, what a wakeup under a throttled group does, the
// slack an emptied queue returns, and the refill that brings the group back.
TYPED_TEST(GroupBandwidth, ThrottledTasksCannotRunOrPreemptAndCountApart) {
  using S = TypeParam;
  capped_group<S> capped(msec(10));
  auto& [rq, g, pool] = capped;
  typename S::task a, b, root;
  capped.join(a);
  capped.join(b);
  sched_time now{};
  rq.enqueue(a, now, enqueue_flags::wakeup);  // the group's first task draws a slice
  EXPECT_EQ(g.runtime_remaining(), msec(5));
  EXPECT_EQ(pool.runtime(), msec(5));
  ASSERT_EQ(rq.pick_next(now), &a);
  rq.set_next(a, now);
  // Each tick charges 1 ms; at 5 ms the budget is topped up by the rest of the pool.
  for (int ms = 1; ms <= 9; ++ms) EXPECT_FALSE(rq.tick(a, now + msec(ms))) << ms;
  EXPECT_EQ(g.runtime_remaining(), msec(1));
  EXPECT_EQ(pool.runtime(), 0);
  now += msec(10);
  EXPECT_TRUE(rq.tick(a, now));  // out of budget, pool empty: reschedule
  EXPECT_FALSE(g.throttled());   // not yet: it is still running
  rq.put_prev(a, now);
  // Nor at put_prev: the kernel picks first, with the group still its parent's curr, and
  // throttles it in the pick's walk (pick_next_task_fair's check_cfs_rq_runtime).
  EXPECT_FALSE(g.throttled());
  EXPECT_EQ(rq.pick_next(now), nullptr);
  EXPECT_TRUE(g.throttled());
  EXPECT_EQ(rq.nr_runnable(), 1u);
  EXPECT_EQ(rq.nr_unthrottled(), 0u);
  EXPECT_EQ(g.h_nr_running(), 1u);
  EXPECT_TRUE(rq.verify());
  // A wakeup under the throttled group queues there and preempts nothing.
  rq.enqueue(root, now, enqueue_flags::wakeup);
  ASSERT_EQ(rq.pick_next(now), &root);
  rq.set_next(root, now);
  rq.enqueue(b, now + msec(1), enqueue_flags::wakeup);
  EXPECT_FALSE(rq.wakeup_preempt(b, root, now + msec(1)));
  EXPECT_EQ(rq.nr_runnable(), 3u);
  EXPECT_EQ(rq.nr_unthrottled(), 1u);
  EXPECT_EQ(g.h_nr_running(), 2u);
  EXPECT_TRUE(rq.verify());
  // The timer waits for the period boundary; before it nothing happens.
  sched_time when{};
  ASSERT_TRUE(rq.next_timer(when));
  EXPECT_EQ(when, sched_time{} + msec(100));
  EXPECT_FALSE(rq.timer(sched_time{} + msec(99)));
  EXPECT_TRUE(g.throttled());
  // At the boundary the group gets its overrun plus 1 ns and comes back; `root` runs, so no
  // reschedule is asked (unthrottle_cfs_rq reschedules an idle CPU only).
  EXPECT_FALSE(rq.timer(sched_time{} + msec(100)));
  EXPECT_FALSE(g.throttled());
  EXPECT_EQ(g.runtime_remaining(), 1);
  EXPECT_EQ(pool.runtime(), msec(10) - 1);
  EXPECT_EQ(rq.nr_unthrottled(), 3u);
  EXPECT_EQ(pool.throttled_time(), msec(90));
  EXPECT_FALSE(rq.next_timer(when));
  EXPECT_TRUE(rq.verify());
  // b blocks after running 1 ms and a leaves too: the emptied queue keeps 1 ms of its budget
  // and returns the rest to the pool.
  now = sched_time{} + msec(100);
  rq.put_prev(root, now);
  typename S::task* next = rq.pick_next(now);
  ASSERT_TRUE(next == &a || next == &b);
  rq.set_next(*next, now);
  (void)rq.tick(*next, now + msec(1));  // 1 ms charged: the budget (1 ns) is topped up to a slice
  EXPECT_EQ(g.runtime_remaining(), msec(5));
  rq.dequeue(*next, now + msec(1), dequeue_flags::sleep);
  typename S::task& other = next == &a ? b : a;
  rq.dequeue(other, now + msec(1), dequeue_flags::sleep);
  EXPECT_EQ(g.runtime_remaining(), msec(1));
  EXPECT_EQ(pool.runtime(), msec(10) - 1 - (msec(6) - 1) + msec(4));
  EXPECT_TRUE(rq.verify());
}

// check_enqueue_throttle: a group whose last task blocked just as the budget and the pool ran
// dry left its parent unthrottled (nothing ran under it any more); its next task is throttled
// at the enqueue, not run on an empty pool, and runs at the period boundary.
TYPED_TEST(GroupBandwidth, AGroupThatRanDryIsThrottledAtItsNextEnqueue) {
  using S = TypeParam;
  capped_group<S> capped(msec(10));
  auto& [rq, g, pool] = capped;
  typename S::task a;
  capped.join(a);
  const sched_time t0{};
  rq.enqueue(a, t0, enqueue_flags::wakeup);
  ASSERT_EQ(rq.pick_next(t0), &a);
  rq.set_next(a, t0);
  for (int ms = 1; ms < 10; ++ms) (void)rq.tick(a, t0 + msec(ms));
  EXPECT_TRUE(rq.tick(a, t0 + msec(10)));  // dry
  rq.dequeue(a, t0 + msec(10), dequeue_flags::sleep);  // it blocks before the reschedule
  EXPECT_FALSE(g.throttled());
  EXPECT_EQ(g.runtime_remaining(), 0);
  EXPECT_EQ(pool.runtime(), 0);
  rq.enqueue(a, t0 + msec(20), enqueue_flags::wakeup);
  EXPECT_TRUE(g.throttled());
  EXPECT_EQ(rq.nr_unthrottled(), 0u);
  EXPECT_EQ(rq.pick_next(t0 + msec(20)), nullptr);
  EXPECT_EQ(pool.nr_throttled(), 1u);
  EXPECT_TRUE(rq.verify());
  EXPECT_TRUE(rq.timer(t0 + msec(100)));  // back, and nothing of the class runs: reschedule
  EXPECT_EQ(rq.pick_next(t0 + msec(100)), &a);
  EXPECT_EQ(pool.throttled_time(), msec(80));
}

// A throttled group whose pool is reconfigured comes back at once (tg_set_cfs_bandwidth
// unthrottles every CPU's queue), and lifting the limit lets its hog run on.
TYPED_TEST(GroupBandwidth, ReconfiguringOrLiftingTheLimitUnthrottles) {
  using S = TypeParam;
  capped_group<S> capped(msec(5));
  auto& [rq, g, pool] = capped;
  typename S::task t;
  capped.join(t);
  tick_driver<typename S::rq> d(rq);
  d.add(t, behaviour::hog());
  d.run_until(30 * kMs);
  ASSERT_TRUE(g.throttled());
  EXPECT_EQ(d.stats(0).cpu_ns, 5 * kMs);
  // Lifted without telling the CPU: its timer notices at the next tick (30 ms), at the
  // period boundary at the latest.
  ASSERT_EQ(pool.configure(cfs_bandwidth::unlimited, msec(100), 0, sched_time{} + msec(30)), errc::ok);
  d.run_until(200 * kMs);
  EXPECT_EQ(d.stats(0).cpu_ns, 5 * kMs + 170 * kMs);
  EXPECT_FALSE(g.throttled());
  // A limit again, and set on the CPU: the budget starts from 0.
  ASSERT_EQ(pool.configure(msec(10), msec(100), 0, sched_time{} + msec(200)), errc::ok);
  ASSERT_EQ(rq.set_group_bandwidth(g, &pool, sched_time{} + msec(200)), errc::ok);
  EXPECT_EQ(g.runtime_remaining(), 0);
  d.run_until(400 * kMs);
  EXPECT_EQ(d.stats(0).cpu_ns, 175 * kMs + 20 * kMs);
  // Removed from the group while throttled: unthrottled at once.
  ASSERT_TRUE(g.throttled());
  ASSERT_EQ(rq.set_group_bandwidth(g, nullptr, sched_time{} + msec(400)), errc::ok);
  EXPECT_FALSE(g.throttled());
  EXPECT_TRUE(rq.verify());
  typename S::group stranger;
  EXPECT_EQ(rq.set_group_bandwidth(stranger, &pool, sched_time{}), errc::invalid_argument);
}

// Documentation/scheduler/sched-bwc.rst: quota = period on a group with a hog on each of N
// CPUs gives it one CPU in all, 1/N of each, and each CPU's queue is throttled once a period.
// The CPUs share one pool; each has its own object of the group.
TYPED_TEST(GroupBandwidth, CpusShareOnePoolAndTogetherGetTheQuota) {
  using S = TypeParam;
  for (const std::size_t cpus : {std::size_t{2}, std::size_t{4}}) {
    pool_cpus<S> m(msec(100), std::vector<behaviour>(cpus, behaviour::hog()));
    m.run_to(1000);
    std::int64_t total = 0;
    for (std::size_t i = 0; i < cpus; ++i) {
      total += m.cpu_ns(i);
      // Each CPU draws 5 ms slices as it runs out: which CPU gets the pool's last one in a
      // period is a race (here won by the lower CPU numbers, which step first), so a CPU's
      // share is off its even part by up to a few ms a period (measured: 509 / 491 ms on 2 CPUs,
      // 259 / 259 / 259 / 223 on 4: 27 ms in 10 periods at most).
      EXPECT_NEAR(static_cast<double>(m.cpu_ns(i)), 1000.0 * kMs / static_cast<double>(cpus), 30.0 * kMs) << cpus << " " << i;
    }
    EXPECT_TRUE(m.verify());
    EXPECT_EQ(total, 1000 * kMs) << cpus;
    EXPECT_EQ(m.pool.nr_throttled(), 10 * cpus) << cpus;  // throttle events, one per CPU per period
    // cpu.stat counts periods: those ended at 100 ... 900 ms (the run stops at the boundary
    // at 1000 ms, before its timer).
    EXPECT_EQ(m.pool.nr_periods(), 9u) << cpus;
    EXPECT_EQ(m.pool.nr_throttled_periods(), 9u) << cpus;
  }
}

// The slack timer across CPUs (sched-bwc.rst: "a slack timer ... returns unused runtime to
// the global pool"): quota 10 ms per 100 ms, three CPUs. A and B (CPUs 0 and 1) run 1 ms and
// sleep for a second; they draw a 5 ms slice each at 0, which empties the pool, so the hog H
// on CPU 2 is throttled at its first enqueue. At 1 ms A and B sleep and give back 3 ms each
// (keeping 1 ms): the pool holds 6 ms > a slice with a queue throttled, so the slack timer
// fires at 6 ms and H comes back with 1 ns, then draws the rest: it runs 6 ms (6-12 ms) in a
// period where it would otherwise have waited for the refill at 100 ms. From then on it gets
// the 10 ms of each period.
TYPED_TEST(GroupBandwidth, TheSlackTimerHandsReturnedBudgetToAQueueThrottledOnAnotherCpu) {
  using S = TypeParam;
  pool_cpus<S> m(msec(10), {behaviour::cycle(msec(1), sec(10)), behaviour::cycle(msec(1), sec(10)), behaviour::hog()});
  m.run_to(2);
  EXPECT_TRUE(m.groups[2].throttled());
  EXPECT_EQ(m.pool.throttled_queues(), 1u);
  sched_time at{};
  ASSERT_TRUE(m.pool.slack_timer(at));
  EXPECT_EQ(at, sched_time{} + msec(6));
  m.run_to(12);
  EXPECT_EQ(m.pool.slack_round(), 1u);
  EXPECT_EQ(m.cpu_ns(2), msec(6));
  m.run_to(100);
  EXPECT_EQ(m.cpu_ns(2), msec(6));  // throttled again at 12 ms, until the refill
  EXPECT_EQ(m.pool.nr_throttled(), 2u);
  m.run_to(1000);
  EXPECT_EQ(m.cpu_ns(2), msec(6) + 9 * msec(10));
  EXPECT_EQ(m.cpu_ns(0) + m.cpu_ns(1), msec(2));
  EXPECT_TRUE(m.verify());
}

// A slack round is for the queues throttled when it opens, not for one throttled later, which
// waits for the refill even when the pool gets a little back (not more than a slice: no new
// round). The hooks one by one on two CPUs' objects of a group under 10 ms per 100 ms; the
// pool's other draws and returns stand for queues on further CPUs.
TYPED_TEST(GroupBandwidth, ASlackRoundIsForTheQueuesThrottledWhenItOpens) {
  using S = TypeParam;
  cfs_bandwidth pool;
  ASSERT_EQ(pool.configure(msec(10), msec(100), 0, sched_time{}), errc::ok);
  typename S::rq rq[2];
  typename S::group g[2];
  typename S::task t[2];
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(rq[i].attach_group(g[i], nullptr), errc::ok);
    ASSERT_EQ(rq[i].set_group_bandwidth(g[i], &pool, sched_time{}), errc::ok);
    ASSERT_EQ(rq[i].set_group(t[i], &g[i], sched_time{}), errc::ok);
  }
  const sched_time t0{};
  ASSERT_EQ(pool.acquire(msec(10), t0), msec(10));  // another CPU took the period's quota
  rq[1].enqueue(t[1], t0, enqueue_flags::wakeup);
  ASSERT_TRUE(g[1].throttled());
  pool.give_back(msec(6), t0 + msec(1));  // returned: the timer fires at 6 ms
  EXPECT_TRUE(rq[1].timer(t0 + msec(6)));
  EXPECT_FALSE(g[1].throttled());
  EXPECT_EQ(pool.slack_round(), 1u);
  ASSERT_EQ(pool.acquire(msec(10), t0 + msec(6)), msec(6) - 1);  // the rest goes elsewhere
  rq[0].enqueue(t[0], t0 + msec(7), enqueue_flags::wakeup);
  ASSERT_TRUE(g[0].throttled());
  pool.give_back(msec(1), t0 + msec(8));
  sched_time at{};
  EXPECT_FALSE(pool.slack_timer(at));
  EXPECT_FALSE(rq[0].timer(t0 + msec(9)));  // round 1 was before its throttle
  EXPECT_TRUE(g[0].throttled());
  EXPECT_EQ(pool.runtime(), msec(1));
  EXPECT_TRUE(rq[0].timer(t0 + msec(100)));  // the refill
  EXPECT_FALSE(g[0].throttled());
  for (auto& r : rq) EXPECT_TRUE(r.verify());
}

// The pool counts the queues throttled on all CPUs (the kernel's throttled_cfs_rq list, which
// the slack timer needs): two hogs on two CPUs under 10 ms per 100 ms are both throttled by
// 10 ms; a new limit given to CPU 0 unthrottles its queue, removing the pool on CPU 1 the other.
TYPED_TEST(GroupBandwidth, ThePoolCountsTheQueuesThrottledOnEveryCpu) {
  using S = TypeParam;
  pool_cpus<S> m(msec(10), {behaviour::hog(), behaviour::hog()});
  m.run_to(50);
  EXPECT_TRUE(m.groups[0].throttled() && m.groups[1].throttled());
  EXPECT_EQ(m.pool.throttled_queues(), 2u);
  ASSERT_EQ(m.pool.configure(msec(10), msec(100), 0, sched_time{} + msec(50)), errc::ok);  // refilled
  ASSERT_EQ(m.rqs[0].set_group_bandwidth(m.groups[0], &m.pool, sched_time{} + msec(50)), errc::ok);
  EXPECT_FALSE(m.groups[0].throttled());
  EXPECT_EQ(m.pool.throttled_queues(), 1u);
  ASSERT_EQ(m.rqs[1].set_group_bandwidth(m.groups[1], nullptr, sched_time{} + msec(50)), errc::ok);
  EXPECT_EQ(m.pool.throttled_queues(), 0u);
  EXPECT_EQ(m.pool.nr_throttled(), 2u);
  EXPECT_TRUE(m.verify());
}

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

// tg_set_cfs_bandwidth calls __refill_cfs_bandwidth_runtime: the pool gains a quota on what it
// held, capped at quota + burst. 20 ms per 100 ms with a 10 ms burst: 20 ms at the first
// configure, 20 + 20 = 40 capped at 30 ms at the second (nothing drawn between them).
TEST(CfsBandwidthPool, AReconfigureAddsTheQuotaToWhatThePoolHeldUnderTheCap) {
  cfs_bandwidth b;
  ASSERT_EQ(b.configure(msec(20), msec(100), msec(10), sched_time{}), errc::ok);
  EXPECT_EQ(b.runtime(), msec(20));
  ASSERT_EQ(b.configure(msec(20), msec(100), msec(10), sched_time{} + msec(5)), errc::ok);
  EXPECT_EQ(b.runtime(), msec(30));
}

// The file comment: "The periods start again at the group's next draw". Configured at 0 and
// drawn at 0 (boundaries 100, 200, ... ms), reconfigured at 30 ms and drawn next at 50 ms: the
// next boundary is 50 + 100 = 150 ms, not the old grid's 100 nor 30 + 100 = 130 ms.
TEST(CfsBandwidthPool, TheFirstDrawAfterAReconfigureStartsThePeriods) {
  cfs_bandwidth b;
  const sched_time t0{};
  ASSERT_EQ(b.configure(msec(20), msec(100), 0, t0), errc::ok);
  EXPECT_EQ(b.acquire(msec(5), t0), msec(5));
  EXPECT_EQ(b.next_refill(), t0 + msec(100));
  ASSERT_EQ(b.configure(msec(20), msec(100), 0, t0 + msec(30)), errc::ok);
  EXPECT_EQ(b.acquire(msec(1), t0 + msec(50)), msec(1));
  EXPECT_EQ(b.next_refill(), t0 + msec(150));
}

// set_slice's documented range is [1 us, max_period]: a slice of exactly max_period (1 s) is
// inside it (sched_cfs_bandwidth_slice_us itself has only the 1 us lower bound).
TEST(CfsBandwidthPool, ASliceOfExactlyTheLongestPeriodIsAccepted) {
  cfs_bandwidth b;
  EXPECT_EQ(b.set_slice(cfs_bandwidth::max_period), errc::ok);
  EXPECT_EQ(b.slice(), sec(1));
  EXPECT_EQ(b.set_slice(cfs_bandwidth::max_period + 1), errc::out_of_range);
}

// The period timer refills at every boundary it passes (__refill_cfs_bandwidth_runtime each
// time): 20 ms per 100 ms with a 10 ms burst, drawn empty at 0 and next used at 200 ms. The
// boundaries at 100 and 200 ms give 0 + 20 = 20, then 20 + 20 = 40 capped at quota + burst =
// 30 ms.
TEST(CfsBandwidthPool, TwoIdleBoundariesRefillTwiceUpToTheCap) {
  cfs_bandwidth b;
  const sched_time t0{};
  ASSERT_EQ(b.configure(msec(20), msec(100), msec(10), t0), errc::ok);
  EXPECT_EQ(b.acquire(msec(20), t0), msec(20));
  b.refill_to(t0 + msec(200));
  EXPECT_EQ(b.runtime(), msec(30));
  EXPECT_EQ(b.next_refill(), t0 + msec(300));
}

// start_cfs_slack_bandwidth is armed only when cfs_b->runtime > sched_cfs_bandwidth_slice(),
// strictly: a pool holding exactly a slice (5 ms) while a queue is throttled arms nothing; 1 ns
// more arms the timer slack_period = 5 ms later.
TEST(CfsBandwidthPool, APoolHoldingExactlyASliceArmsNoSlackTimer) {
  cfs_bandwidth b;
  const sched_time t0{};
  ASSERT_EQ(b.configure(msec(20), msec(100), 0, t0), errc::ok);
  EXPECT_EQ(b.acquire(msec(20), t0), msec(20));
  b.note_throttle();
  sched_time at{};
  b.give_back(msec(5), t0 + msec(10));
  EXPECT_FALSE(b.slack_timer(at));
  b.give_back(1, t0 + msec(11));
  ASSERT_TRUE(b.slack_timer(at));
  EXPECT_EQ(at, t0 + msec(16));
}

// do_sched_cfs_slack_timer returns without distributing when runtime_refresh_within(cfs_b,
// min_bandwidth_expiration): the period ends within 2 ms. Armed at 10 ms (fires at 15 ms);
// the pool is then reconfigured to 10 ms per 2 ms at 11 ms and drawn at 14 ms, which starts
// its periods (boundary at 16 ms). At 15 ms the pool holds 9 ms > a slice, but the refill is 1
// ms away: no round.
TEST(CfsBandwidthPool, NoSlackIsHandedOutWithinMinExpirationOfTheRefill) {
  cfs_bandwidth b;
  const sched_time t0{};
  ASSERT_EQ(b.configure(msec(20), msec(100), 0, t0), errc::ok);
  EXPECT_EQ(b.acquire(msec(20), t0), msec(20));
  b.note_throttle();
  b.give_back(msec(6), t0 + msec(10));
  sched_time at{};
  ASSERT_TRUE(b.slack_timer(at));
  ASSERT_EQ(at, t0 + msec(15));
  ASSERT_EQ(b.configure(msec(10), msec(2), 0, t0 + msec(11)), errc::ok);  // 6 + 10 capped at 10
  EXPECT_EQ(b.acquire(msec(1), t0 + msec(14)), msec(1));
  EXPECT_EQ(b.next_refill(), t0 + msec(16));
  b.fire_slack(t0 + msec(15));
  EXPECT_FALSE(b.slack_timer(at));
  EXPECT_EQ(b.slack_round(), 0u);
}

// The file comment: the periods start again at the first draw after a configure, and until
// then no refill is pending (next_refill is meaningful only once they started), so a slack
// timer due before that draw is not held back by min_expiration. As above, armed at 10 ms and
// reconfigured to 10 ms per 2 ms at 11 ms, but nothing is drawn: at 15 ms the pool's 10 ms >
// a slice open a round.
TEST(CfsBandwidthPool, BeforeTheFirstDrawAfterAReconfigureNoRefillHoldsBackTheSlack) {
  cfs_bandwidth b;
  const sched_time t0{};
  ASSERT_EQ(b.configure(msec(20), msec(100), 0, t0), errc::ok);
  EXPECT_EQ(b.acquire(msec(20), t0), msec(20));
  b.note_throttle();
  b.give_back(msec(6), t0 + msec(10));
  sched_time at{};
  ASSERT_TRUE(b.slack_timer(at));
  ASSERT_EQ(b.configure(msec(10), msec(2), 0, t0 + msec(11)), errc::ok);
  b.fire_slack(t0 + msec(15));
  EXPECT_FALSE(b.slack_timer(at));
  EXPECT_EQ(b.slack_round(), 1u);
}

// A period that straddles the clock's wrap (time.hpp: instants compare wrap-safe) still gives
// the quota once: 10 ms per 100 ms from 150 ms before 2^64; the period from 100 to 200 ms
// after the origin spans the wrap. 1 ms drawn at its start, 9 ms at 120 ms (before the wrap),
// then nothing until the boundary at 200 ms.
TEST(CfsBandwidthPool, APeriodAcrossTheClocksWrapGivesTheQuotaOnce) {
  const sched_time origin{~std::uint64_t{0} - static_cast<std::uint64_t>(msec(150)) + 1};
  cfs_bandwidth b;
  ASSERT_EQ(b.configure(msec(10), msec(100), 0, origin), errc::ok);
  EXPECT_EQ(b.acquire(msec(10), origin), msec(10));
  EXPECT_EQ(b.acquire(msec(1), origin + msec(100)), msec(1));
  EXPECT_EQ(b.acquire(msec(9), origin + msec(120)), msec(9));
  EXPECT_EQ(b.next_refill(), origin + msec(200));
  EXPECT_EQ(b.acquire(msec(1), origin + msec(170)), 0);
  EXPECT_EQ(b.acquire(msec(1), origin + msec(200)), msec(1));
  EXPECT_EQ(b.next_refill(), origin + msec(300));
}

// tg_set_cfs_bandwidth's __refill_cfs_bandwidth_runtime also takes the burst snapshot
// (runtime_snap = runtime), so a period that draws exactly the new quota is no burst. 40 ms
// per 100 ms, drawn whole, refilled at 100 ms (40); reconfigured to 20 ms at 150 ms (40 + 20
// capped at 20), 20 ms drawn, refilled at 250 ms: drawn = quota, nr_bursts stays 0.
TEST(CfsBandwidthPool, AReconfigureTakesTheBurstSnapshot) {
  cfs_bandwidth b;
  const sched_time t0{};
  ASSERT_EQ(b.configure(msec(40), msec(100), 0, t0), errc::ok);
  EXPECT_EQ(b.acquire(msec(40), t0), msec(40));
  b.refill_to(t0 + msec(100));
  EXPECT_EQ(b.runtime(), msec(40));
  ASSERT_EQ(b.configure(msec(20), msec(100), 0, t0 + msec(150)), errc::ok);
  EXPECT_EQ(b.runtime(), msec(20));
  EXPECT_EQ(b.acquire(msec(20), t0 + msec(150)), msec(20));
  b.refill_to(t0 + msec(250));
  EXPECT_EQ(b.runtime(), msec(20));
  EXPECT_EQ(b.nr_bursts(), 0u);
  EXPECT_EQ(b.burst_time(), 0);
}

// The four below were found by an independent model of fair.c's bandwidth code and core.c's
// tg_set_cfs_bandwidth (Linux 6.10) run side by side with the pool and group_policy.
//
// tg_set_cfs_bandwidth comes after the period timer's refills at every boundary passed (the
// timer ran at each; do_sched_cfs_period_timer refills before its idle test). 20 ms per 100 ms
// with 20 ms of burst; the first draw at 0 takes the 20 ms and starts the periods; at 250 ms
// the boundaries at 100 and 200 ms have refilled 0 -> 20 -> 40 (the cap), counted as two
// periods, and the reconfigure's own refill stays at the cap: 40 ms. (Applied to the pool as
// the draw left it: 0 + 20 = 20 ms and no period counted.)
TEST(CfsBandwidthPool, AReconfigureFollowsTheRefillsOfTheBoundariesPassed) {
  cfs_bandwidth b;
  const sched_time t0{};
  ASSERT_EQ(b.configure(msec(20), msec(100), msec(20), t0), errc::ok);
  ASSERT_EQ(b.acquire(msec(20), t0), msec(20));
  ASSERT_EQ(b.configure(msec(20), msec(100), msec(20), t0 + msec(250)), errc::ok);
  EXPECT_EQ(b.runtime(), msec(40));
  EXPECT_EQ(b.nr_periods(), 2u);
}

// __refill_cfs_bandwidth_runtime counts a burst on every refill, the reconfigure's too: 30 ms
// per 100 ms, 25 ms drawn at 0 (the pool at 5 ms, the last refill's level 30 ms); set to 10 ms
// at 1 ms: 5 + 10 = 15 ms, 15 ms below the level of the last refill, a burst of 15 ms; the pool
// is capped at 10 ms.
TEST(CfsBandwidthPool, AReconfigureCountsABurstAgainstTheLastRefill) {
  cfs_bandwidth b;
  const sched_time t0{};
  ASSERT_EQ(b.configure(msec(30), msec(100), 0, t0), errc::ok);
  ASSERT_EQ(b.acquire(msec(25), t0), msec(25));
  ASSERT_EQ(b.configure(msec(10), msec(100), 0, t0 + msec(1)), errc::ok);
  EXPECT_EQ(b.runtime(), msec(10));
  EXPECT_EQ(b.nr_bursts(), 1u);
  EXPECT_EQ(b.burst_time(), msec(15));
}

// "max" (RUNTIME_INF): __refill_cfs_bandwidth_runtime returns at once, so the pool keeps what
// it held: 30 ms, lifted, then 20 ms per 100 ms with 20 ms of burst: 30 + 20 capped at 40 ms
// (emptied by the lift, 20 ms).
TEST(CfsBandwidthPool, LiftingTheLimitKeepsThePool) {
  cfs_bandwidth b;
  const sched_time t0{};
  ASSERT_EQ(b.configure(msec(30), msec(100), 0, t0), errc::ok);
  ASSERT_EQ(b.configure(cfs_bandwidth::unlimited, msec(100), 0, t0), errc::ok);
  EXPECT_EQ(b.runtime(), msec(30));
  ASSERT_EQ(b.configure(msec(20), msec(100), msec(20), t0), errc::ok);
  EXPECT_EQ(b.runtime(), msec(40));
}

// The period timer stops at the end of a period with no draw (refilled to the cap then) and the
// next draw restarts it without a refill: 10 ms per 100 ms, 5 ms drawn at 0, the timer stops at
// 200 ms (the pool at 10 ms). A queue gives back 4 ms at 250 ms: 14 ms, above the cap, and the
// draw at 350 ms gets all 14 ms (refilled at 300 ms as if the timer had run, it got 10).
TEST(CfsBandwidthPool, BudgetGivenBackWhileTheTimerIsStoppedStaysUntilItsNextRefill) {
  cfs_bandwidth b;
  const sched_time t0{};
  ASSERT_EQ(b.configure(msec(10), msec(100), 0, t0), errc::ok);
  ASSERT_EQ(b.acquire(msec(5), t0), msec(5));
  b.give_back(msec(4), t0 + msec(250));
  EXPECT_EQ(b.runtime(), msec(14));
  EXPECT_EQ(b.acquire(msec(20), t0 + msec(350)), msec(14));
  EXPECT_EQ(b.nr_periods(), 2u);
}

// tg_set_cfs_bandwidth sets every CPU's cfs_rq->runtime_remaining to 0, also on a CPU that is
// not told (no set_group_bandwidth here). 50 ms per 100 ms: the enqueue at 0 draws a 5 ms
// slice; 1 ms of run leaves 4 ms. The pool is reconfigured at 1 ms (45 + 50 capped at 50 ms).
// At the 2 ms tick the budget restarts from 0, is charged the 1 ms run since the reconfigure
// (-1 ms) and tops up by a slice plus that overrun (__assign_cfs_rq_runtime: 6 ms drawn), so 5
// ms left and 44 ms in the pool. Kept at 4 ms it would be 3 ms, with 50 ms in the pool.
TYPED_TEST(GroupBandwidth, AReconfiguredPoolResetsTheBudgetOfACpuNotTold) {
  using S = TypeParam;
  capped_group<S> capped(msec(50));
  auto& [rq, g, pool] = capped;
  typename S::task t;
  capped.join(t);
  const sched_time t0{};
  rq.enqueue(t, t0, enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(nullptr, false, t0), &t);
  EXPECT_EQ(g.runtime_remaining(), msec(5));
  (void)rq.tick(t, t0 + msec(1));
  EXPECT_EQ(g.runtime_remaining(), msec(4));
  ASSERT_EQ(pool.configure(msec(50), msec(100), 0, t0 + msec(1)), errc::ok);
  EXPECT_EQ(pool.runtime(), msec(50));
  (void)rq.tick(t, t0 + msec(2));
  EXPECT_EQ(g.runtime_remaining(), msec(5));
  EXPECT_EQ(pool.runtime(), msec(44));
  EXPECT_TRUE(rq.verify());
}

// charge_bandwidth's documented rule (group.hpp): a group whose pool was reconfigured since it
// was last charged starts from 0 and pays the new pool only for the time since the
// reconfigure (the time before it belonged to the old limit; the kernel, whose
// tg_set_cfs_bandwidth does not update_curr first, would charge the new budget the whole
// delta). As above, but reconfigured at 1.5 ms: at the 2 ms tick the budget is 0 - 0.5 ms and
// tops up by a slice plus that overrun (5.5 ms drawn): 5 ms left, 50 - 5.5 = 44.5 ms in the
// pool.
TYPED_TEST(GroupBandwidth, ARunningGroupPaysANewPoolOnlyForTheTimeSinceTheReconfigure) {
  using S = TypeParam;
  capped_group<S> capped(msec(50));
  auto& [rq, g, pool] = capped;
  typename S::task t;
  capped.join(t);
  const sched_time t0{};
  rq.enqueue(t, t0, enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(nullptr, false, t0), &t);
  (void)rq.tick(t, t0 + msec(1));
  EXPECT_EQ(g.runtime_remaining(), msec(4));
  ASSERT_EQ(pool.configure(msec(50), msec(100), 0, t0 + usec(1500)), errc::ok);
  (void)rq.tick(t, t0 + msec(2));
  EXPECT_EQ(g.runtime_remaining(), msec(5));
  EXPECT_EQ(pool.runtime(), msec(44) + usec(500));
  EXPECT_TRUE(rq.verify());
}

// A throttled queue's next timer is the earlier of its pool's period boundary and the slack
// timer (start_cfs_slack_bandwidth arms it cfs_bandwidth_slack_period = 5 ms after a return
// leaves more than a slice with a queue throttled). 10 ms per 100 ms: A's enqueue at 0 draws
// 5 ms, another CPU the other 5; A runs them out and is throttled at 5 ms (boundary at 100 ms).
// At 10 ms a queue on another CPU gives back 6 ms: the next timer here is at 15 ms, when A
// comes back.
TYPED_TEST(GroupBandwidth, AThrottledQueuesNextTimerIsTheSlackTimerWhenItComesFirst) {
  using S = TypeParam;
  capped_group<S> capped(msec(10));
  auto& [rq, g, pool] = capped;
  typename S::task a;
  capped.join(a);
  const sched_time t0{};
  rq.enqueue(a, t0, enqueue_flags::wakeup);
  EXPECT_EQ(pool.acquire(msec(5), t0), msec(5));  // another CPU's slice
  ASSERT_EQ(rq.schedule(nullptr, false, t0), &a);
  EXPECT_TRUE(rq.tick(a, t0 + msec(5)));
  EXPECT_EQ(rq.schedule(&a, true, t0 + msec(5)), nullptr);
  ASSERT_TRUE(g.throttled());
  sched_time when{};
  ASSERT_TRUE(rq.next_timer(when));
  EXPECT_EQ(when, t0 + msec(100));
  pool.give_back(msec(6), t0 + msec(10));
  ASSERT_TRUE(rq.next_timer(when));
  EXPECT_EQ(when, t0 + msec(15));
  EXPECT_TRUE(rq.timer(t0 + msec(15)));
  EXPECT_FALSE(g.throttled());
  EXPECT_TRUE(rq.verify());
}

// tg_set_cfs_bandwidth sets runtime_remaining to 0, and so does set_group_bandwidth (its
// comment: "The budget of this CPU starts at 0"): a group that drew a 5 ms slice from pool A
// at its enqueue and is then given pool B keeps none of it.
TYPED_TEST(GroupBandwidth, AGroupGivenAnotherPoolStartsWithNoBudget) {
  using S = TypeParam;
  capped_group<S> capped(msec(50));
  auto& [rq, g, pool] = capped;
  typename S::task t;
  capped.join(t);
  const sched_time t0{};
  rq.enqueue(t, t0, enqueue_flags::wakeup);
  EXPECT_EQ(g.runtime_remaining(), msec(5));
  cfs_bandwidth other;
  ASSERT_EQ(other.configure(msec(20), msec(100), 0, t0), errc::ok);
  ASSERT_EQ(rq.set_group_bandwidth(g, &other, t0 + msec(1)), errc::ok);
  EXPECT_EQ(g.runtime_remaining(), 0);
  EXPECT_TRUE(rq.verify());
}

// A queue left throttled at a boundary because other CPUs emptied the pool first
// (distribute_cfs_runtime hands out only what the pool holds) waits for the next period timer
// (sched_cfs_period_timer, one period later). 5 ms per 100 ms: A is throttled at 5 ms; at the
// 100 ms boundary another CPU draws the whole refill before this CPU's timer runs, so A stays
// throttled and its next timer is the 200 ms boundary, when it comes back.
TYPED_TEST(GroupBandwidth, AQueueTheRefillCannotServeWaitsForTheNextBoundary) {
  using S = TypeParam;
  capped_group<S> capped(msec(5));
  auto& [rq, g, pool] = capped;
  typename S::task a;
  capped.join(a);
  const sched_time t0{};
  capped.run_until_throttled(a, t0, msec(5));
  ASSERT_TRUE(g.throttled());
  EXPECT_EQ(pool.acquire(msec(5), t0 + msec(100)), msec(5));  // another CPU, first
  EXPECT_FALSE(rq.timer(t0 + msec(100)));
  EXPECT_TRUE(g.throttled());
  sched_time when{};
  ASSERT_TRUE(rq.next_timer(when));
  EXPECT_EQ(when, t0 + msec(200));
  EXPECT_TRUE(rq.timer(t0 + msec(200)));
  EXPECT_FALSE(g.throttled());
  EXPECT_TRUE(rq.verify());
}

// When the running task blocks with its group out of budget and the pool empty, the group is
// throttled if it still holds tasks, in the pick that follows (pick_next_task_fair checks the
// queue whose curr blocked too: check_cfs_rq_runtime under "if (curr)"): 5 ms per 100 ms, A
// and B in the group; A runs 0-5 ms and blocks at 5 ms. B may not run: the CPU idles until the
// refill.
TYPED_TEST(GroupBandwidth, ARunningTaskThatBlocksOutOfBudgetThrottlesItsStillBusyGroup) {
  using S = TypeParam;
  capped_group<S> capped(msec(5));
  auto& [rq, g, pool] = capped;
  typename S::task a, b;
  capped.join(a);
  capped.join(b);
  const sched_time t0{};
  rq.enqueue(a, t0, enqueue_flags::wakeup);
  rq.enqueue(b, t0, enqueue_flags::wakeup);
  typename S::task* first = rq.schedule(nullptr, false, t0);
  ASSERT_NE(first, nullptr);
  EXPECT_TRUE(rq.tick(*first, t0 + msec(5)));  // the slice used up, the pool empty
  rq.dequeue(*first, t0 + msec(5), dequeue_flags::sleep);
  EXPECT_FALSE(g.throttled());
  EXPECT_EQ(rq.schedule(first, false, t0 + msec(5)), nullptr);
  EXPECT_TRUE(g.throttled());
  EXPECT_EQ(rq.nr_unthrottled(), 0u);
  EXPECT_EQ(pool.nr_throttled(), 1u);
  EXPECT_TRUE(rq.verify());
}

// A budget zeroed by tg_set_cfs_bandwidth (runtime_remaining = 0 on every CPU) has nothing to
// give back when its queue empties (return_cfs_rq_runtime returns only what exceeds
// min_cfs_rq_runtime). 50 ms per 100 ms: A's enqueue at 0 draws 5 ms (45 left); the pool is
// reconfigured at 1 ms (45 + 50 capped at 50) before A ever runs, and A leaves at 2 ms: the
// pool stays at 50 ms, not 50 + (5 - 1).
TYPED_TEST(GroupBandwidth, ABudgetZeroedByAReconfigureGivesNothingBack) {
  using S = TypeParam;
  capped_group<S> capped(msec(50));
  auto& [rq, g, pool] = capped;
  typename S::task a;
  capped.join(a);
  const sched_time t0{};
  rq.enqueue(a, t0, enqueue_flags::wakeup);
  EXPECT_EQ(g.runtime_remaining(), msec(5));
  ASSERT_EQ(pool.configure(msec(50), msec(100), 0, t0 + msec(1)), errc::ok);
  EXPECT_EQ(pool.runtime(), msec(50));
  rq.dequeue(a, t0 + msec(2), dequeue_flags::sleep);
  EXPECT_EQ(pool.runtime(), msec(50));
  EXPECT_TRUE(rq.verify());
}

// unthrottle_cfs_rq (tg_set_cfs_bandwidth unthrottles every throttled queue) enqueues the group
// without testing its own budget: after a reconfiguration that budget is 0, drawn at the group's
// next update_curr. 5 ms per 100 ms over two CPUs: CPU 0's wakeup at 0 draws the whole pool as
// its slice, so CPU 1's group is throttled at its enqueue. Reconfigured at 1 ms (the pool back
// at 5 ms) and set on both CPUs: CPU 1's group is back with a budget of 0 and the pool still
// holds 5 ms. (Tested at the unthrottle, it drew the 5 ms there; with the pool empty it would
// have been throttled again on the spot.)
TYPED_TEST(GroupBandwidth, AGroupUnthrottledByAReconfigureDrawsNothingBeforeItRuns) {
  using S = TypeParam;
  const sched_time t0{};
  cfs_bandwidth pool;
  ASSERT_EQ(pool.configure(msec(5), msec(100), 0, t0), errc::ok);
  typename S::rq rq0, rq1;
  typename S::group g0, g1;
  typename S::task a, b;
  ASSERT_EQ(rq0.attach_group(g0, nullptr), errc::ok);
  ASSERT_EQ(rq1.attach_group(g1, nullptr), errc::ok);
  ASSERT_EQ(rq0.set_group_bandwidth(g0, &pool, t0), errc::ok);
  ASSERT_EQ(rq1.set_group_bandwidth(g1, &pool, t0), errc::ok);
  ASSERT_EQ(rq0.set_group(a, &g0, t0), errc::ok);
  ASSERT_EQ(rq1.set_group(b, &g1, t0), errc::ok);
  rq0.enqueue(a, t0, enqueue_flags::wakeup);
  ASSERT_EQ(g0.runtime_remaining(), msec(5));
  rq1.enqueue(b, t0, enqueue_flags::wakeup);
  ASSERT_TRUE(g1.throttled());
  ASSERT_EQ(pool.configure(msec(5), msec(100), 0, t0 + msec(1)), errc::ok);
  ASSERT_EQ(pool.runtime(), msec(5));
  ASSERT_EQ(rq0.set_group_bandwidth(g0, &pool, t0 + msec(1)), errc::ok);
  ASSERT_EQ(rq1.set_group_bandwidth(g1, &pool, t0 + msec(1)), errc::ok);
  EXPECT_FALSE(g1.throttled());
  EXPECT_EQ(g1.runtime_remaining(), 0);
  EXPECT_EQ(pool.runtime(), msec(5));
  EXPECT_TRUE(rq0.verify());
  EXPECT_TRUE(rq1.verify());
}

// unthrottle_cfs_rq puts back only a queue that holds something ("if (!cfs_rq->load.weight)"
// skips the enqueue walk): A is throttled at 5 ms (5 ms per 100 ms) and then pulled to another
// CPU (dequeue migrating) while throttled; at the 100 ms refill the group is unthrottled but
// stays out of the root, and the CPU has nothing to run.
TYPED_TEST(GroupBandwidth, AGroupUnthrottledEmptyStaysOutOfItsParent) {
  using S = TypeParam;
  capped_group<S> capped(msec(5));
  auto& [rq, g, pool] = capped;
  typename S::task a;
  capped.join(a);
  const sched_time t0{};
  capped.run_until_throttled(a, t0, msec(5));
  ASSERT_TRUE(g.throttled());
  rq.dequeue(a, t0 + msec(50), dequeue_flags::migrating);
  (void)rq.timer(t0 + msec(100));
  EXPECT_FALSE(g.throttled());
  EXPECT_FALSE(g.queued);
  EXPECT_EQ(rq.pick_next(t0 + msec(100)), nullptr);
  EXPECT_TRUE(rq.verify());
}

// unthrottle_cfs_rq reschedules an idle CPU only when its root queue then holds something
// ("if (rq->curr == rq->idle && rq->cfs.nr_running) resched_curr(rq)"). Child c (5 ms per
// 20 ms) under parent p (5 ms per 100 ms), A in c: both draw their whole pools at 0, the tick
// at 5 ms finds both out and put_prev throttles both (put_prev_entity's check_cfs_rq_runtime
// at each level). At 20 ms c's refill brings c back, but into p, still throttled until 100 ms:
// nothing can run, so the timer asks for no reschedule.
TYPED_TEST(GroupBandwidth, AGroupBackUnderAThrottledParentAsksForNoReschedule) {
  using S = TypeParam;
  typename S::rq rq;
  typename S::group p, c;
  cfs_bandwidth pp, cp;
  typename S::task a;
  const sched_time t0{};
  ASSERT_EQ(rq.attach_group(p, nullptr), errc::ok);
  ASSERT_EQ(rq.attach_group(c, &p), errc::ok);
  ASSERT_EQ(pp.configure(msec(5), msec(100), 0, t0), errc::ok);
  ASSERT_EQ(cp.configure(msec(5), msec(20), 0, t0), errc::ok);
  ASSERT_EQ(rq.set_group_bandwidth(p, &pp, t0), errc::ok);
  ASSERT_EQ(rq.set_group_bandwidth(c, &cp, t0), errc::ok);
  ASSERT_EQ(rq.set_group(a, &c, t0), errc::ok);
  rq.enqueue(a, t0, enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(nullptr, false, t0), &a);
  EXPECT_TRUE(rq.tick(a, t0 + msec(5)));
  EXPECT_EQ(rq.schedule(&a, true, t0 + msec(5)), nullptr);
  ASSERT_TRUE(c.throttled());
  ASSERT_TRUE(p.throttled());
  sched_time at{};
  ASSERT_TRUE(rq.next_timer(at));
  EXPECT_EQ(at, t0 + msec(20));
  EXPECT_FALSE(rq.timer(t0 + msec(20)));
  EXPECT_FALSE(c.throttled());
  EXPECT_TRUE(p.throttled());
  EXPECT_EQ(rq.nr_unthrottled(), 0u);
  // At p's boundary A can run again: now the idle CPU is told.
  EXPECT_TRUE(rq.timer(t0 + msec(100)));
  EXPECT_EQ(rq.nr_unthrottled(), 1u);
  EXPECT_TRUE(rq.verify());
}

// update_curr returns at "if (unlikely(delta_exec <= 0)) return;" before account_cfs_rq_runtime:
// a charge of 0 ns draws nothing. A is queued in g when g gets its limit at 1 ms (budget 0,
// tg_set_cfs_bandwidth) and is picked at 2 ms; a tick in that same instant leaves the budget at
// 0, the pool full and the periods unstarted. The tick at 3 ms charges 1 ms and draws the slice
// (up to 5 ms: __assign_cfs_rq_runtime asks for slice - runtime_remaining), the periods from 3 ms.
TYPED_TEST(GroupBandwidth, AChargeOfNoTimeDrawsNothing) {
  using S = TypeParam;
  typename S::rq rq;
  typename S::group g;
  cfs_bandwidth pool;
  typename S::task a;
  const sched_time t0{};
  ASSERT_EQ(rq.attach_group(g, nullptr), errc::ok);
  ASSERT_EQ(rq.set_group(a, &g, t0), errc::ok);
  rq.enqueue(a, t0, enqueue_flags::wakeup);
  ASSERT_EQ(pool.configure(msec(20), msec(100), 0, t0 + msec(1)), errc::ok);
  ASSERT_EQ(rq.set_group_bandwidth(g, &pool, t0 + msec(1)), errc::ok);
  ASSERT_EQ(g.runtime_remaining(), 0);
  ASSERT_EQ(rq.schedule(nullptr, false, t0 + msec(2)), &a);
  EXPECT_FALSE(rq.tick(a, t0 + msec(2)));
  EXPECT_EQ(g.runtime_remaining(), 0);
  EXPECT_EQ(pool.runtime(), msec(20));
  EXPECT_FALSE(rq.tick(a, t0 + msec(3)));
  EXPECT_EQ(g.runtime_remaining(), msec(5));
  EXPECT_EQ(pool.runtime(), msec(14));
  EXPECT_EQ(pool.next_refill(), t0 + msec(103));
  EXPECT_TRUE(rq.verify());
}

// tg_set_cfs_bandwidth runs no update_curr: a group above the one reconfigured pays the whole
// interval at the running task's next update_curr, and draws then. Parent p (20 ms per 100 ms)
// draws 5 ms at A's wakeup (check_enqueue_throttle); child c gets a pool at 6 ms, and the tick
// in that instant charges p 6 ms (-1 ms) and tops it up to a slice: 5 ms, the pool at 20 - 11.
// (With the 0 ns rule above, a charge made at the reconfigure would leave p at -1 ms here.)
TYPED_TEST(GroupBandwidth, AReconfigureBelowLeavesTheChargeAboveToTheNextUpdate) {
  using S = TypeParam;
  typename S::rq rq;
  typename S::group p, c;
  cfs_bandwidth pp, cp;
  typename S::task a;
  const sched_time t0{};
  ASSERT_EQ(rq.attach_group(p, nullptr), errc::ok);
  ASSERT_EQ(rq.attach_group(c, &p), errc::ok);
  ASSERT_EQ(pp.configure(msec(20), msec(100), 0, t0), errc::ok);
  ASSERT_EQ(rq.set_group_bandwidth(p, &pp, t0), errc::ok);
  ASSERT_EQ(rq.set_group(a, &c, t0), errc::ok);
  rq.enqueue(a, t0, enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(nullptr, false, t0), &a);
  ASSERT_EQ(p.runtime_remaining(), msec(5));
  ASSERT_EQ(cp.configure(msec(50), msec(100), 0, t0 + msec(6)), errc::ok);
  ASSERT_EQ(rq.set_group_bandwidth(c, &cp, t0 + msec(6)), errc::ok);
  EXPECT_FALSE(rq.tick(a, t0 + msec(6)));
  EXPECT_EQ(p.runtime_remaining(), msec(5));
  EXPECT_EQ(pp.runtime(), msec(9));
  EXPECT_TRUE(rq.verify());
}

// The kernel picks before it throttles (pick_next_task_fair, 6.8): the queues it walks through
// keep their curr, and check_cfs_rq_runtime runs only on those; a group out of budget that the
// pick does not walk into is throttled after the pick (put_prev_entity). Here group g (3 ms
// per 100 ms, weight 1024) holds A; R5 (nice -5) and R6 (nice 0) are in the root. Ticks every
// 1 ms, R5 wakes at 2 ms, each reschedule made at once. At 9 ms A is preempted with g's budget
// and pool used up: the root's pick still counts g's node (its curr) in the average vruntime,
// which makes R5 eligible, and R5 wins on its deadline; g is throttled after the pick. Throttled
// first (before the pick), g's node would be gone and R6 would run. Oracle: the independent
// model of 6.8's fair.c (/tmp/diff-ebw, this script: "b0:3000000:100000000 w0 w6 +1000000 t
// +1000000 w5 t ..."), which picks A 6 5 A 5 6 5 5 A 5.
TEST(GroupBandwidthEevdf, ThePickComesBeforeTheThrottleOfAGroupItDoesNotWalkInto) {
  using S = schedcore_test::eevdf_group_setup;
  typename S::rq rq;
  typename S::group g;
  cfs_bandwidth pool;
  typename S::task a, r5, r6;
  sched_params p5{};
  p5.nice = -5;
  ASSERT_EQ(rq.setup(r5, p5), errc::ok);
  ASSERT_EQ(rq.setup(r6, sched_params{}), errc::ok);
  const sched_time t0{};
  ASSERT_EQ(rq.attach_group(g, nullptr), errc::ok);
  ASSERT_EQ(pool.configure(msec(3), msec(100), 0, t0), errc::ok);
  ASSERT_EQ(rq.set_group_bandwidth(g, &pool, t0), errc::ok);
  ASSERT_EQ(rq.set_group(a, &g, t0), errc::ok);
  std::string picks;
  typename S::task* cur = nullptr;
  const auto schedule = [&](sched_time now) {
    cur = rq.schedule(cur, cur != nullptr, now);
    picks += cur == &a ? 'A' : cur == &r5 ? '5' : cur == &r6 ? '6' : '-';
  };
  rq.enqueue(a, t0, enqueue_flags::wakeup);
  schedule(t0);
  rq.enqueue(r6, t0, enqueue_flags::wakeup);
  if (rq.wakeup_preempt(r6, *cur, t0)) schedule(t0);
  bool throttled_after_pick = false;
  for (int ms = 1; ms <= 10; ++ms) {
    const sched_time now = t0 + msec(ms);
    if (ms == 2) {
      rq.enqueue(r5, now, enqueue_flags::wakeup);
      if (rq.wakeup_preempt(r5, *cur, now)) schedule(now);
    }
    if (rq.tick(*cur, now)) {
      const bool out_before = g.throttled();
      schedule(now);
      if (ms == 9) throttled_after_pick = !out_before && g.throttled();
    }
    ASSERT_TRUE(rq.verify()) << ms;
  }
  EXPECT_EQ(picks.substr(0, 10), "A65A5655A5");
  EXPECT_TRUE(throttled_after_pick);
}

// Every update_curr charges the budget (account_cfs_rq_runtime), not only the tick's: each
// level's, for the group whose queue it is. Parent p (5 ms per 100 ms) holds child c, which
// holds A; A's wakeup at 0 draws p's whole pool as its slice. At 6 ms (no tick since) B wakes
// in c: enqueue_entity's update_curr charges c's queue only (c is queued already, the walk
// stops), so p is not charged. Then c is reweighted: reweight_entity's update_curr of p's queue
// charges p 6 ms, -1 ms with the pool empty: __account_cfs_rq_runtime's resched_curr, which the
// class hands out through take_resched.
TYPED_TEST(GroupBandwidth, EveryUpdateCurrChargesItsLevelAndMayAskForAReschedule) {
  using S = TypeParam;
  typename S::rq rq;
  typename S::group p, c;
  cfs_bandwidth pool;
  typename S::task a, b;
  const sched_time t0{};
  ASSERT_EQ(rq.attach_group(p, nullptr), errc::ok);
  ASSERT_EQ(rq.attach_group(c, &p), errc::ok);
  ASSERT_EQ(pool.configure(msec(5), msec(100), 0, t0), errc::ok);
  ASSERT_EQ(rq.set_group_bandwidth(p, &pool, t0), errc::ok);
  ASSERT_EQ(rq.set_group(a, &c, t0), errc::ok);
  ASSERT_EQ(rq.set_group(b, &c, t0), errc::ok);
  rq.enqueue(a, t0, enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(nullptr, false, t0), &a);
  ASSERT_EQ(p.runtime_remaining(), msec(5));
  ASSERT_EQ(pool.runtime(), 0);
  rq.enqueue(b, t0 + msec(6), enqueue_flags::wakeup);
  EXPECT_EQ(p.runtime_remaining(), msec(5));
  EXPECT_FALSE(rq.take_resched());
  ASSERT_EQ(rq.set_group_weight(c, 2048, t0 + msec(6)), errc::ok);
  EXPECT_EQ(p.runtime_remaining(), -msec(1));
  EXPECT_TRUE(rq.take_resched());
  EXPECT_FALSE(rq.take_resched());  // taken
  EXPECT_TRUE(rq.verify());
}

}  // namespace
