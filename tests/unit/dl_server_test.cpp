// deferrable_server: Linux's fair server state machine. Every expected value is worked out by
// hand from the rules of deadline.c (commit a110a81c52a9, "Deferrable dl server", and the fix
// 115135422562), quoted at each step: the zero-laxity instant d - q, the CBS overflow test
// q/(d - now) > Q/D, the background charge that restarts a deferred period, the idle charge
// that stops at q = 0, dl_server_min_res = 1 ms. The Rules619 tests follow the 6.19 rules
// (f5a538c07df2's dl_defer_idle, a3a70caf7906, 077e1e2e0015; the state diagram of 2614069c5912).
#include <gtest/gtest.h>

#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/dl_server.hpp"
#include "schedcore/policy/edf.hpp"
#include "schedcore/policy/fair_server_stack.hpp"
#include "schedcore/policy/rt.hpp"

namespace {

using namespace schedcore;

sched_time at_ms(s64 ms) { return sched_time{} + msec(ms); }

// A server started at `start_ms`, with the kernel's 50 ms per 1 s.
deferrable_server started(s64 start_ms, server_rules rules = server_rules::linux_6_12) {
  deferrable_server s;
  EXPECT_EQ(s.configure(deferrable_server::default_runtime, deferrable_server::default_period, rules), errc::ok);
  s.start(at_ms(start_ms));
  return s;
}

sched_time timer_of(const deferrable_server& s) {
  sched_time w{};
  EXPECT_TRUE(s.next_timer(w));
  return w;
}

TEST(DeferrableServer, ConfigurationFollowsTheDebugfsRules) {
  deferrable_server s;
  EXPECT_FALSE(s.enabled());
  s.start(at_ms(0));  // disabled: nothing happens
  EXPECT_FALSE(s.active());
  EXPECT_EQ(s.configure(msec(50), sec(1)), errc::ok);
  EXPECT_TRUE(s.enabled());
  // Refused, nothing changes: runtime above the period, negative, periods out of range.
  EXPECT_EQ(s.configure(sec(2), sec(1)), errc::out_of_range);
  EXPECT_EQ(s.configure(-1, sec(1)), errc::out_of_range);
  EXPECT_EQ(s.configure(usec(10), usec(99)), errc::out_of_range);
  EXPECT_EQ(s.configure(msec(1), usec((s64{1} << 22) + 1)), errc::out_of_range);
  EXPECT_EQ(s.dl_runtime(), msec(50));
  EXPECT_EQ(s.dl_period(), sec(1));
  // Boundaries accepted: 100 us and 2^22 us; runtime = period.
  EXPECT_EQ(s.configure(usec(100), usec(100)), errc::ok);
  EXPECT_EQ(s.configure(0, usec(s64{1} << 22)), errc::ok);
  EXPECT_FALSE(s.enabled());
  // Active: refused (the owner stops it first).
  EXPECT_EQ(s.configure(msec(50), sec(1)), errc::ok);
  s.start(at_ms(0));
  EXPECT_EQ(s.configure(msec(10), sec(1)), errc::busy);
  EXPECT_EQ(s.dl_runtime(), msec(50));
  EXPECT_TRUE(s.verify());
}

// A start defers: a fresh period d = now + 1 s, q = 50 ms, throttled, timer at d - q.
TEST(DeferrableServer, AStartIsDeferredToTheZeroLaxityInstant) {
  deferrable_server s = started(10);
  EXPECT_TRUE(s.active());
  EXPECT_FALSE(s.queued());
  EXPECT_TRUE(s.throttled());
  EXPECT_TRUE(s.defer_armed());
  EXPECT_EQ(s.deadline(), at_ms(1010));
  EXPECT_EQ(s.runtime(), msec(50));
  EXPECT_EQ(timer_of(s), at_ms(960));
  EXPECT_FALSE(s.timer(at_ms(959), true));  // not due
  // Starved until then: at 960 the server enters the running state. The CBS rule at the
  // replenishment: q/(d - now) = 50/50 > 50/1000 overflows, so a new period d = 960 + 1000.
  EXPECT_TRUE(s.timer(at_ms(960), true));
  EXPECT_TRUE(s.queued());
  EXPECT_TRUE(s.defer_running());
  EXPECT_FALSE(s.throttled());
  EXPECT_EQ(s.deadline(), at_ms(1960));
  EXPECT_EQ(s.runtime(), msec(50));
  EXPECT_TRUE(s.verify());
}

// Fair time run in the background is charged; the timer moves back by what was used (only
// if more than dl_server_min_res away), and the period's CBS check decides the deadline.
TEST(DeferrableServer, BackgroundRunTimePushesTheZeroLaxityInstantBack) {
  deferrable_server s = started(0);
  EXPECT_FALSE(s.charge(msec(30), at_ms(100), true));
  EXPECT_EQ(s.runtime(), msec(20));
  EXPECT_EQ(timer_of(s), at_ms(950));  // the timer keeps its instant until it fires
  EXPECT_FALSE(s.timer(at_ms(950), true));  // 950 < 1000 - 20 - 1: pushed to d - q
  EXPECT_FALSE(s.queued());
  EXPECT_EQ(timer_of(s), at_ms(980));
  // At 980, q/(d - now) = 20/20 overflows: a new period, 50 ms by 1980.
  EXPECT_TRUE(s.timer(at_ms(980), true));
  EXPECT_TRUE(s.queued());
  EXPECT_EQ(s.deadline(), at_ms(1980));
  EXPECT_EQ(s.runtime(), msec(50));

  // Within dl_server_min_res of d - q, the timer is not pushed: 0.5 ms charged at 900 moves
  // d - q to 950.5, less than 1 ms past the armed 950.
  deferrable_server t = started(0);
  EXPECT_FALSE(t.charge(usec(500), at_ms(900), true));
  EXPECT_TRUE(t.timer(at_ms(950), true));  // 950 >= 1000 - 49.5 - 1
  EXPECT_TRUE(t.defer_running());
}

// The whole runtime consumed in the background: the class was not starved, a new deferred
// period starts at once (d = now + 1 s) and the server never ran.
TEST(DeferrableServer, ARuntimeConsumedInTheBackgroundStartsANewDeferredPeriod) {
  deferrable_server s = started(0);
  EXPECT_FALSE(s.charge(msec(49), at_ms(49), true));
  EXPECT_FALSE(s.charge(msec(1), at_ms(50), true));
  EXPECT_FALSE(s.queued());
  EXPECT_TRUE(s.defer_armed());
  EXPECT_EQ(s.deadline(), at_ms(1050));
  EXPECT_EQ(s.runtime(), msec(50));
  EXPECT_EQ(timer_of(s), at_ms(1000));
  EXPECT_TRUE(s.verify());
}

// The running state: the server runs its 50 ms, throttles until d, and is replenished there
// (d += P, q += Q) and queued at once, not deferred, for as long as the starvation lasts.
TEST(DeferrableServer, InTheRunningStateEachPeriodIsServedAtItsStart) {
  deferrable_server s = started(0);
  ASSERT_TRUE(s.timer(at_ms(950), true));
  ASSERT_EQ(s.deadline(), at_ms(1950));
  EXPECT_FALSE(s.charge(msec(30), at_ms(980), true));
  EXPECT_EQ(s.runtime(), msec(20));
  // An overrun of 2 ms (enforcement at the tick) throttles it, the timer at d.
  EXPECT_TRUE(s.charge(msec(22), at_ms(1002), true));
  EXPECT_FALSE(s.queued());
  EXPECT_TRUE(s.throttled());
  EXPECT_FALSE(s.defer_armed());
  EXPECT_EQ(s.runtime(), msec(-2));
  EXPECT_EQ(timer_of(s), at_ms(1950));
  EXPECT_TRUE(s.timer(at_ms(1950), true));
  EXPECT_TRUE(s.queued());
  EXPECT_EQ(s.deadline(), at_ms(2950));
  EXPECT_EQ(s.runtime(), msec(48));  // the overrun is paid back
  EXPECT_TRUE(s.verify());
}

// While throttled in the running state, the class runs on its own again: the charge finds the
// runtime exhausted in the background, leaves the running state and defers a new period.
TEST(DeferrableServer, RunningOnItsOwnEndsTheRunningState) {
  deferrable_server s = started(0);
  ASSERT_TRUE(s.timer(at_ms(950), true));
  ASSERT_TRUE(s.charge(msec(50), at_ms(1000), true));
  EXPECT_FALSE(s.charge(msec(1), at_ms(1001), true));
  EXPECT_FALSE(s.defer_running());
  EXPECT_TRUE(s.defer_armed());
  EXPECT_EQ(s.deadline(), at_ms(2001));
  EXPECT_EQ(timer_of(s), at_ms(1951));
}

// Idle time counts as served, down to q = 0, which also ends the running state.
TEST(DeferrableServer, IdleTimeIsChargedDownToZero) {
  deferrable_server s = started(0);
  s.charge_idle(msec(20), at_ms(20));
  EXPECT_EQ(s.runtime(), msec(30));
  s.charge_idle(msec(40), at_ms(60));
  EXPECT_EQ(s.runtime(), 0);
  s.charge_idle(msec(5), at_ms(65));
  EXPECT_EQ(s.runtime(), 0);
  // With q = 0 the zero-laxity instant is d itself: the timer moves from 950 to 1000, and
  // there the replenishment (q = 0 does not overflow) gives d = 2000, q = 50.
  EXPECT_FALSE(s.timer(at_ms(950), true));
  EXPECT_EQ(timer_of(s), at_ms(1000));
  EXPECT_TRUE(s.timer(at_ms(1000), true));
  EXPECT_EQ(s.deadline(), at_ms(2000));
  EXPECT_EQ(s.runtime(), msec(50));

  deferrable_server r = started(0);
  ASSERT_TRUE(r.timer(at_ms(950), true));
  r.charge_idle(msec(60), at_ms(1010));
  EXPECT_FALSE(r.defer_running());
}

// stop keeps the running state; a start before the deadline then queues at once. A start
// after the deadline lapsed defers a new period (115135422562).
TEST(DeferrableServer, AStopKeepsTheRunningStateUntilTheDeadlineLapses) {
  deferrable_server s = started(0);
  ASSERT_TRUE(s.timer(at_ms(950), true));  // d = 1950, running
  ASSERT_FALSE(s.charge(msec(10), at_ms(960), true));
  s.stop();
  EXPECT_FALSE(s.active());
  EXPECT_FALSE(s.queued());
  EXPECT_TRUE(s.defer_running());
  sched_time w{};
  EXPECT_FALSE(s.next_timer(w));
  // Back at 1000: 40 ms left by 1950 does not overflow (40/950 < 50/1000): the old deadline.
  s.start(at_ms(1000));
  EXPECT_TRUE(s.queued());
  EXPECT_EQ(s.deadline(), at_ms(1950));
  EXPECT_EQ(s.runtime(), msec(40));
  s.stop();
  // Back at 1951: the deadline lapsed, a new deferred period.
  s.start(at_ms(1951));
  EXPECT_FALSE(s.queued());
  EXPECT_FALSE(s.defer_running());
  EXPECT_EQ(s.deadline(), at_ms(2951));
  EXPECT_EQ(timer_of(s), at_ms(2901));
  // A deferred server that ran 30 ms in the background, stopped and restarted inside its
  // period keeps d (20/951 does not overflow 50/1000) and re-arms at d - q.
  ASSERT_FALSE(s.charge(msec(30), at_ms(1990), true));
  s.stop();
  s.start(at_ms(2000));
  EXPECT_FALSE(s.queued());
  EXPECT_EQ(s.deadline(), at_ms(2951));
  EXPECT_EQ(timer_of(s), at_ms(2931));
  // With 20 ms left at 2940, 11 ms before d, it overflows (20/11 > 50/1000): a new period, deferred.
  s.stop();
  s.start(at_ms(2940));  // 20/11 overflows
  EXPECT_FALSE(s.queued());
  EXPECT_EQ(s.deadline(), at_ms(3940));
  EXPECT_EQ(timer_of(s), at_ms(3890));
  EXPECT_TRUE(s.verify());
}

// An empty pick gives up the period: throttled until d, then d + P with a full runtime.
TEST(DeferrableServer, AnEmptyPickYieldsThePeriod) {
  deferrable_server s = started(0);
  ASSERT_TRUE(s.timer(at_ms(950), true));  // d = 1950, q = 50
  s.yield_empty(at_ms(960), true);
  EXPECT_FALSE(s.queued());
  EXPECT_TRUE(s.throttled());
  EXPECT_EQ(timer_of(s), at_ms(1950));
  EXPECT_TRUE(s.timer(at_ms(1950), true));
  EXPECT_EQ(s.deadline(), at_ms(2950));
  EXPECT_EQ(s.runtime(), msec(50));
  // A timer with no task left replenishes without queuing.
  deferrable_server t = started(0);
  EXPECT_FALSE(t.timer(at_ms(950), false));
  EXPECT_FALSE(t.queued());
}

// 6.19 (f5a538c07df2): idle time pushes a deferred activation forward once (state C,
// defer_idle); after that it only takes q down to 0, and the timer at the zero-laxity instant
// stops the server. Under the 6.12 rules the same idle time only takes q to 0.
TEST(DeferrableServer, Rules619_IdleTimePushesTheActivationOnceThenTheTimerStopsTheServer) {
  deferrable_server s = started(0, server_rules::linux_6_19);  // d = 1000, q = 50, timer 950
  EXPECT_EQ(s.rules(), server_rules::linux_6_19);
  s.charge_idle(msec(20), at_ms(20));
  EXPECT_EQ(s.runtime(), msec(30));
  EXPECT_FALSE(s.defer_idle());
  // q = 30 - 40 < 0 while deferred: a fresh period from 60, d = 1060, timer at 1060 - 50.
  s.charge_idle(msec(40), at_ms(60));
  EXPECT_TRUE(s.defer_idle());
  EXPECT_EQ(s.deadline(), at_ms(1060));
  EXPECT_EQ(s.runtime(), msec(50));
  EXPECT_EQ(timer_of(s), at_ms(1010));
  EXPECT_TRUE(s.verify());
  // More idle: q 50 -> 20 -> 0 (-5 pinned at 0), the activation is not pushed again.
  s.charge_idle(msec(30), at_ms(90));
  EXPECT_EQ(s.runtime(), msec(20));
  s.charge_idle(msec(25), at_ms(115));
  EXPECT_EQ(s.runtime(), 0);
  EXPECT_EQ(s.deadline(), at_ms(1060));
  EXPECT_EQ(timer_of(s), at_ms(1010));
  // The timer finds a whole period of idle time: the server stops.
  EXPECT_FALSE(s.timer(at_ms(1010), true));
  EXPECT_FALSE(s.active());
  EXPECT_FALSE(s.defer_idle());
  sched_time w{};
  EXPECT_FALSE(s.next_timer(w));
  EXPECT_TRUE(s.verify());

  // 6.12: the same charges stop at q = 0 and push nothing; the timer moves to d - 0 = 1000.
  deferrable_server old = started(0);
  old.charge_idle(msec(20), at_ms(20));
  old.charge_idle(msec(40), at_ms(60));
  EXPECT_EQ(old.runtime(), 0);
  EXPECT_EQ(old.deadline(), at_ms(1000));
  EXPECT_FALSE(old.defer_idle());
  EXPECT_FALSE(old.timer(at_ms(950), true));
  EXPECT_EQ(timer_of(old), at_ms(1000));
}

// 6.19: run time of the served class ends the idle-wait (defer_idle = 0), and so does a start,
// which otherwise leaves an active server alone; the timer then queues the server, whether or
// not its class has tasks (077e1e2e0015 removed server_has_tasks).
TEST(DeferrableServer, Rules619_RunTimeOrAStartEndTheIdleWait) {
  deferrable_server s = started(0, server_rules::linux_6_19);
  s.charge_idle(msec(60), at_ms(60));  // q < 0: d = 1060, q = 50, timer 1010, idle-wait
  ASSERT_TRUE(s.defer_idle());
  EXPECT_FALSE(s.charge(msec(10), at_ms(70), true));  // a fair task ran 10 ms
  EXPECT_FALSE(s.defer_idle());
  EXPECT_EQ(s.runtime(), msec(40));
  EXPECT_EQ(s.deadline(), at_ms(1060));
  // Idle takes q 40 -> 0 at 110: not in idle-wait, so a fresh period d = 1110, timer 1060.
  s.charge_idle(msec(40), at_ms(110));
  EXPECT_TRUE(s.defer_idle());
  EXPECT_EQ(s.deadline(), at_ms(1110));
  EXPECT_EQ(timer_of(s), at_ms(1060));
  // A fair task's first enqueue: start() of an active server only clears the mark.
  s.start(at_ms(120));
  EXPECT_FALSE(s.defer_idle());
  EXPECT_TRUE(s.active());
  EXPECT_FALSE(s.queued());
  EXPECT_EQ(s.deadline(), at_ms(1110));
  EXPECT_EQ(s.runtime(), msec(50));
  EXPECT_EQ(timer_of(s), at_ms(1060));
  // At 1060 (not before d - q - 1 ms = 1059): the running state; q = 50 over d - now = 50 ms
  // overflows 50/1000, so d = 2060, q = 50, queued, even though told the class is empty.
  EXPECT_TRUE(s.timer(at_ms(1060), false));
  EXPECT_TRUE(s.queued());
  EXPECT_TRUE(s.defer_running());
  EXPECT_EQ(s.deadline(), at_ms(2060));
  EXPECT_EQ(s.runtime(), msec(50));
  EXPECT_TRUE(s.verify());
  // Under the 6.12 rules a timer told the class is empty replenishes without queuing.
  deferrable_server old = started(0);
  EXPECT_FALSE(old.timer(at_ms(950), false));
  EXPECT_FALSE(old.queued());
}

// 6.19: idle time charged while tasks are queued (the CPU leaving idle for them) is run time,
// as mainline's update_curr_dl_se tests idle_rq(): it pushes the activation without the idle
// mark, so the timer serves the class instead of stopping the server.
TEST(DeferrableServer, Rules619_IdleTimeWithTasksQueuedIsChargedAsRunTime) {
  deferrable_server s = started(0, server_rules::linux_6_19);
  s.charge_idle(msec(60), at_ms(60), false);
  EXPECT_FALSE(s.defer_idle());
  EXPECT_EQ(s.deadline(), at_ms(1060));
  EXPECT_EQ(timer_of(s), at_ms(1010));
  EXPECT_TRUE(s.timer(at_ms(1010), true));  // served, not stopped
  EXPECT_TRUE(s.queued());
  deferrable_server idle = started(0, server_rules::linux_6_19);
  idle.charge_idle(msec(60), at_ms(60), true);
  EXPECT_TRUE(idle.defer_idle());
  EXPECT_FALSE(idle.timer(at_ms(1010), true));
  EXPECT_FALSE(idle.active());
}

// 6.19: a server queued in the running state whose CPU idles before the pick that would run
// it (the idle charge comes first) runs out of q on idle time: it leaves the queue throttled,
// its timer at d (not deferred: the running state is kept), and that timer queues it again
// with a fresh q for the next period.
TEST(DeferrableServer, Rules619_AQueuedServerOutOfRuntimeOnIdleTimeWaitsForItsDeadline) {
  deferrable_server s = started(0, server_rules::linux_6_19);  // d = 1000, timer 950
  ASSERT_TRUE(s.timer(at_ms(950), true));  // running: q = 50 over 50 ms overflows, d = 1950
  ASSERT_TRUE(s.queued());
  ASSERT_EQ(s.deadline(), at_ms(1950));
  s.charge_idle(msec(30), at_ms(980));
  EXPECT_TRUE(s.queued());
  EXPECT_EQ(s.runtime(), msec(20));
  s.charge_idle(msec(25), at_ms(1005));  // q = -5
  EXPECT_FALSE(s.queued());
  EXPECT_TRUE(s.throttled());
  EXPECT_FALSE(s.defer_armed());
  EXPECT_TRUE(s.defer_running());
  EXPECT_EQ(timer_of(s), at_ms(1950));
  EXPECT_TRUE(s.verify());
  EXPECT_FALSE(s.timer(at_ms(1949), true));  // not yet due
  EXPECT_TRUE(s.timer(at_ms(1950), true));
  EXPECT_TRUE(s.queued());
  EXPECT_FALSE(s.throttled());
  EXPECT_EQ(s.deadline(), at_ms(2950));
  EXPECT_EQ(s.runtime(), msec(45));  // the 5 ms overrun is paid from the new period
  EXPECT_TRUE(s.verify());
}

// 6.19: idle time is charged only to an active server (dl_server_update_idle tests
// dl_server_active); 6.12 charges it to a stopped one too (dl_server_update_idle_time).
// Rules outside the enumeration are refused and change nothing.
TEST(DeferrableServer, Rules619_IdleTimeOfAStoppedServerIsNotCharged) {
  deferrable_server s = started(0, server_rules::linux_6_19);
  ASSERT_FALSE(s.charge(msec(10), at_ms(10), true));
  s.stop();
  s.charge_idle(msec(30), at_ms(40));
  EXPECT_EQ(s.runtime(), msec(40));
  deferrable_server old = started(0);
  ASSERT_FALSE(old.charge(msec(10), at_ms(10), true));
  old.stop();
  old.charge_idle(msec(30), at_ms(40));
  EXPECT_EQ(old.runtime(), msec(10));

  deferrable_server r;
  EXPECT_EQ(r.configure(msec(50), sec(1), static_cast<server_rules>(7)), errc::invalid_argument);
  EXPECT_FALSE(r.enabled());
  EXPECT_EQ(r.rules(), server_rules::linux_6_12);
}

// Over a long random run the server never holds more than Q, never sits queued while
// throttled, and its runtime never falls below one overrun (-3 ms, the largest charge); under either
// rules (the 6.19 owner stops the server where the 6.12 one yields the period).
class DeferrableServerRandom : public ::testing::TestWithParam<server_rules> {};

TEST_P(DeferrableServerRandom, RandomOperationsKeepTheInvariants) {
  const server_rules rules = GetParam();
  deferrable_server s;
  ASSERT_EQ(s.configure(msec(5), msec(100), rules), errc::ok);
  u64 x = 0x9e3779b97f4a7c15ull;
  sched_time now{};
  int idle_waits = 0;
  for (int i = 0; i < 200000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const duration_ns step = static_cast<duration_ns>(x % 3000000);
    now += step;
    switch (x >> 60) {
      case 0: s.start(now); break;
      case 1: s.stop(); break;
      case 2: s.charge_idle(step, now, ((x >> 40) & 1u) != 0); break;
      case 3:
        if (rules == server_rules::linux_6_19)
          s.stop();
        else
          s.yield_empty(now, true);
        break;
      case 4:
      case 5: {
        sched_time w{};
        if (s.next_timer(w) && w <= now) (void)s.timer(now, s.active());
        break;
      }
      default: (void)s.charge(step, now, true); break;
    }
    ASSERT_TRUE(s.verify()) << i;
    ASSERT_GE(s.runtime(), -msec(3)) << i;  // one step of overrun at most
    idle_waits += s.defer_idle() ? 1 : 0;
  }
  // The 6.19 idle-wait state is reached (and left: verify() held throughout); never under 6.12.
  if (rules == server_rules::linux_6_19)
    EXPECT_GT(idle_waits, 0);
  else
    EXPECT_EQ(idle_waits, 0);
}

INSTANTIATE_TEST_SUITE_P(BothRules, DeferrableServerRandom,
                         ::testing::Values(server_rules::linux_6_12, server_rules::linux_6_19));

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

// Source: Linux replenish_dl_entity() (kernel/sched/deadline.c): after adding periods until q >
// 0, "if (dl_time_before(dl_se->deadline, rq_clock(rq))) { printk_deferred_once("sched: DL
// replenish lagged too much\n"); replenish_dl_new_period(dl_se, rq); }" - a replenished
// deadline is never left in the past.
// The server runs from 960 (d = 1960) but the fair class only gets the CPU much later: its
// 50 ms are charged at once at 3500, long after d. No timer can start (d < now): the
// replenishment adds one period (d = 2960, q = 50), which is still behind now, so the server
// restarts with a new period d = now + 1 s and a full q.
TEST(DeferrableServer, AReplenishmentThatLagsBehindNowStartsANewPeriod) {
  deferrable_server s = started(10);
  EXPECT_TRUE(s.timer(at_ms(960), true));
  ASSERT_TRUE(s.queued());
  ASSERT_TRUE(s.defer_running());
  ASSERT_EQ(s.deadline(), at_ms(1960));
  EXPECT_TRUE(s.charge(msec(50), at_ms(3500), true));
  EXPECT_TRUE(s.queued());
  EXPECT_FALSE(s.throttled());
  EXPECT_EQ(s.deadline(), at_ms(4500));  // not 2960, which is already past
  EXPECT_EQ(s.runtime(), msec(50));
  EXPECT_TRUE(s.verify());
}


// fair_server_stack (policy/fair_server_stack.hpp) over edf, rt and a fair class.
struct served_task : edf_entity, rt_entity, cfs_entity {
  int sched_class = 2;  // 0: deadline, 1: rt, 2: fair
};
using served_stack =
    fair_server_stack<member_sched_class, edf_policy<served_task>, rt_policy<served_task>, cfs_policy<served_task>>;
// `t` becomes a SCHED_FIFO task at priority 50 in the stack's RT class (class 1).
errc make_fifo50(served_stack& rq, served_task& t) {
  t.sched_class = 1;
  sched_params p;
  p.kind = sched_kind::fifo;
  p.rt_priority = 50;
  return rq.get<1>().setup(t, p);
}

// The stack's fair server takes what debugfs fair_server/cpuN/{runtime,period} takes
// (sched_fair_server_write refuses only "runtime > period" and a period outside the DL
// limits): a runtime equal to the period (the server may have the whole CPU) is accepted, 1 ns
// more is not, and a refusal changes nothing.
TEST(FairServerStack, ARuntimeEqualToThePeriodIsAccepted) {
  served_stack rq;
  EXPECT_EQ(rq.configure_fair_server(sec(1), sec(1)), errc::ok);
  EXPECT_EQ(rq.fair_server().dl_runtime(), sec(1));
  EXPECT_EQ(rq.configure_fair_server(sec(1) + 1, sec(1)), errc::out_of_range);
  EXPECT_EQ(rq.fair_server().dl_runtime(), sec(1));
  EXPECT_EQ(rq.configure_fair_server(deferrable_server::period_min, deferrable_server::period_min), errc::ok);
  EXPECT_EQ(rq.configure_fair_server(0, deferrable_server::period_max), errc::ok);
  EXPECT_FALSE(rq.fair_server().enabled());
}

// A fair task F queued at 0 under the kernel's 50 ms per 1 s server (deferred: timer at 950
// ms, where the replenishment overflows, d = 950 + 1000 = 1950 ms, as in
// AStartIsDeferredToTheZeroLaxityInstant), and a reservation R (10 ms per 1 s) woken at 950
// ms, just before the server's timer: d = 950 + 1000 = 1950 ms too. EDF orders by deadline
// with ties left in queue order (__dl_less is dl_time_before, strict; the rb tree puts an
// equal key after the one queued first), and dl_entity_preempt is strict as well.
void reservation_at_950(served_stack& rq, served_task& f, served_task& r) {
  EXPECT_EQ(rq.configure_fair_server(deferrable_server::default_runtime, deferrable_server::default_period), errc::ok);
  rq.enqueue(f, at_ms(0), enqueue_flags::wakeup);
  r.sched_class = 0;
  sched_params p;
  p.kind = sched_kind::deadline;
  p.runtime = msec(10);
  p.deadline = p.period = sec(1);
  EXPECT_EQ(rq.get<0>().setup(r, p), errc::ok);
}

// ... so R, queued first, is picked ahead of the server with the same deadline.
TEST(FairServerStack, AReservationWithTheServersDeadlineQueuedFirstIsPickedFirst) {
  served_stack rq;
  served_task f, r;
  reservation_at_950(rq, f, r);
  rq.enqueue(r, at_ms(950), enqueue_flags::wakeup);
  EXPECT_TRUE(rq.timer(at_ms(950)));  // the server is queued; the CPU idles: reschedule
  ASSERT_TRUE(rq.fair_server().queued());
  ASSERT_EQ(rq.fair_server().deadline(), at_ms(1950));
  EXPECT_EQ(rq.schedule(nullptr, false, at_ms(950)), &r);
  EXPECT_FALSE(rq.served());
}

// ... and R, already running when the server's timer queues it, keeps the CPU (dl_server_timer
// reschedules only if the server preempts the running reservation: not on an equal deadline).
TEST(FairServerStack, ARunningReservationWithTheServersDeadlineKeepsTheCpu) {
  served_stack rq;
  served_task f, r;
  reservation_at_950(rq, f, r);
  rq.enqueue(r, at_ms(950), enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(950)), &r);
  EXPECT_FALSE(rq.timer(at_ms(950)));
  ASSERT_TRUE(rq.fair_server().queued());
  EXPECT_EQ(rq.fair_server().deadline(), at_ms(1950));
}

// served() says whether the running task was picked through the server (fair_server_stack's
// rule; the kernel's p->dl_server): F picked by the plain class pick while the server is
// deferred (not queued, timer at 950 ms) is not served; F picked at 950 ms through the server
// the timer queued is.
TEST(FairServerStack, OnlyAFairTaskPickedThroughTheServerIsServed) {
  {
    served_stack rq;
    served_task f;
    ASSERT_EQ(rq.configure_fair_server(deferrable_server::default_runtime, deferrable_server::default_period), errc::ok);
    rq.enqueue(f, at_ms(0), enqueue_flags::wakeup);
    ASSERT_FALSE(rq.fair_server().queued());
    ASSERT_EQ(rq.schedule(nullptr, false, at_ms(0)), &f);
    EXPECT_FALSE(rq.served());
  }
  served_stack rq;
  served_task f;
  ASSERT_EQ(rq.configure_fair_server(deferrable_server::default_runtime, deferrable_server::default_period), errc::ok);
  rq.enqueue(f, at_ms(0), enqueue_flags::wakeup);
  EXPECT_TRUE(rq.timer(at_ms(950)));
  ASSERT_TRUE(rq.fair_server().queued());
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(950)), &f);
  EXPECT_TRUE(rq.served());
}

// dequeue_task_fair's update_curr charges the server for the run time of a served task up to
// its block (dl_server_update), and dl_server_start asks for a reschedule when it queues the
// server at once and the running task is no deadline task that keeps the CPU. F, served from
// 950 ms (q = 50 ms, d = 1950 ms, running state), blocks at 970 ms: q = 50 - 20 = 30 ms, and
// the last fair dequeue stops the server (6.12). A FIFO task H runs. F wakes at 980 ms: the
// deadline has not lapsed and 30 / 970 <= 50 / 1000 (no overflow), so the server restarts
// queued at once (the running state is not deferred) and preempts H.
TEST(FairServerStack, AServedTaskThatBlocksIsChargedAndItsWakeupRestartsTheServerAtOnce) {
  served_stack rq;
  served_task f, h;
  ASSERT_EQ(make_fifo50(rq, h), errc::ok);
  ASSERT_EQ(rq.configure_fair_server(deferrable_server::default_runtime, deferrable_server::default_period), errc::ok);
  rq.enqueue(f, at_ms(0), enqueue_flags::wakeup);
  EXPECT_TRUE(rq.timer(at_ms(950)));
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(950)), &f);
  ASSERT_TRUE(rq.served());
  rq.dequeue(f, at_ms(970), dequeue_flags::sleep);
  EXPECT_EQ(rq.fair_server().runtime(), msec(30));
  EXPECT_FALSE(rq.fair_server().active());
  rq.enqueue(h, at_ms(970), enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(&f, false, at_ms(970)), &h);
  rq.enqueue(f, at_ms(980), enqueue_flags::wakeup);
  EXPECT_TRUE(rq.fair_server().queued());
  EXPECT_EQ(rq.fair_server().deadline(), at_ms(1950));
  EXPECT_TRUE(rq.wakeup_preempt(f, h, at_ms(980)));
  EXPECT_EQ(rq.schedule(&h, true, at_ms(980)), &f);
  EXPECT_TRUE(rq.served());
}

// 6.19's dl_server_start returns at once for a server still active ("if (!dl_server(dl_se) ||
// dl_se->dl_server_active) return"), so it asks for no reschedule. Under the 6.19 rules the
// server outlives the last dequeue: F, served from 950 ms, blocks at 970 ms and wakes at 975
// ms before any pick; the server is still queued, and nothing asks for a reschedule.
TEST(FairServerStack, Rules619_AWakeupWhileTheServerIsStillQueuedAsksNoReschedule) {
  served_stack rq;
  served_task f;
  ASSERT_EQ(rq.configure_fair_server(deferrable_server::default_runtime, deferrable_server::default_period, sched_time{},
                                     server_rules::linux_6_19),
            errc::ok);
  rq.enqueue(f, at_ms(0), enqueue_flags::wakeup);
  EXPECT_TRUE(rq.timer(at_ms(950)));
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(950)), &f);
  rq.dequeue(f, at_ms(970), dequeue_flags::sleep);
  ASSERT_TRUE(rq.fair_server().queued());
  EXPECT_FALSE(rq.take_resched());
  rq.enqueue(f, at_ms(975), enqueue_flags::wakeup);
  EXPECT_TRUE(rq.fair_server().queued());
  EXPECT_FALSE(rq.take_resched());
}

// The three below were found by an independent model of deadline.c and fair.c run side by side
// with the stack over random sequences (6.12 and 6.19 rules).
//
// 6.12's enqueue_task_fair charges idle time only "if (!rq->nr_running)": with a task of another
// class queued since the CPU went idle, the fair class's first task starts the server without
// it, and the idle time is charged at the pick (put_prev_task_idle), to the new period. Server
// 5 ms per 20 ms; the CPU idles from 0; a FIFO task R wakes at 0, a fair task F at 5 ms: a
// fresh period, q = 5 ms, d = 25 ms, timer at the zero-laxity instant 25 - 5 = 20 ms. The pick
// at 6 ms charges the 6 ms of idle: q = 5 - 6, floored at 0 (dl_server_update_idle_time), and
// R runs. (Charged at the enqueue, the 5 ms went to the old period and the pick's 1 ms to the
// new one: q = 4 ms.)
TEST(FairServerStack, AFairWakeupAfterAnotherClassWokeLeavesTheIdleTimeToThePick) {
  served_stack rq;
  served_task f, r;
  ASSERT_EQ(make_fifo50(rq, r), errc::ok);
  ASSERT_EQ(rq.configure_fair_server(msec(5), msec(20)), errc::ok);
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(0)), nullptr);
  rq.enqueue(r, at_ms(0), enqueue_flags::wakeup);
  rq.enqueue(f, at_ms(5), enqueue_flags::wakeup);
  EXPECT_TRUE(rq.fair_server().active());
  EXPECT_EQ(rq.fair_server().runtime(), msec(5));
  EXPECT_EQ(rq.fair_server().deadline(), at_ms(25));
  EXPECT_EQ(timer_of(rq.fair_server()), at_ms(20));
  EXPECT_EQ(rq.schedule(nullptr, false, at_ms(6)), &r);
  EXPECT_EQ(rq.fair_server().runtime(), 0);
  EXPECT_EQ(rq.fair_server().deadline(), at_ms(25));
}

// 6.19's dl_server_timer calls update_curr first, then stops a server marked dl_defer_idle;
// the idle time that update_curr charges can itself use up the deferred period, start the next
// one and mark it. F starts the server at 0 (deferred: q = 50 ms, d = 1 s, timer at 950 ms)
// and blocks at once; the CPU idles. At 950 ms the 950 ms of idle time use up q: a new period
// (d = 1950 ms), marked idle-waiting, and the timer stops the server at once, not one period
// later at 1900 ms.
TEST(FairServerStack, Rules619_TheTimerStopsAServerItsOwnIdleChargeMarked) {
  served_stack rq;
  served_task f;
  ASSERT_EQ(rq.configure_fair_server(deferrable_server::default_runtime, deferrable_server::default_period, sched_time{},
                                     server_rules::linux_6_19),
            errc::ok);
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(0)), nullptr);
  rq.enqueue(f, at_ms(0), enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(0)), &f);
  rq.dequeue(f, at_ms(0), dequeue_flags::sleep);
  ASSERT_EQ(rq.schedule(&f, false, at_ms(0)), nullptr);
  ASSERT_TRUE(rq.fair_server().active());
  ASSERT_EQ(timer_of(rq.fair_server()), at_ms(950));
  EXPECT_FALSE(rq.timer(at_ms(950)));
  EXPECT_FALSE(rq.fair_server().active());
  sched_time w{};
  EXPECT_FALSE(rq.fair_server().next_timer(w));
}

// The kernel's clocks run whether or not the server is on: the fair class's update_curr
// advances exec_start at every accounting point, and the idle task's exec_start is set when it
// is picked. Server on (50 ms per 1 s), the CPU idles from 0; off at 1 ms; F wakes at 2 ms and
// runs; on again at 10 ms (F queued: started, deferred). The tick at 30 ms charges F's 28 ms
// since it was picked (q = 22 ms), the schedule at 40 ms 10 ms more (q = 12 ms). (Not tracked
// while off, the tick charged nothing and the schedule 40 ms of idle time from 0: q = 10 ms.)
TEST(FairServerStack, AServerTurnedOnAgainChargesFromTheClassesOwnClocks) {
  served_stack rq;
  served_task f;
  ASSERT_EQ(rq.configure_fair_server(deferrable_server::default_runtime, deferrable_server::default_period), errc::ok);
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(0)), nullptr);
  ASSERT_EQ(rq.configure_fair_server(0, deferrable_server::default_period, at_ms(1)), errc::ok);
  rq.enqueue(f, at_ms(2), enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(2)), &f);
  ASSERT_EQ(rq.configure_fair_server(deferrable_server::default_runtime, deferrable_server::default_period, at_ms(10)),
            errc::ok);
  ASSERT_TRUE(rq.fair_server().active());
  EXPECT_EQ(rq.fair_server().runtime(), msec(50));
  EXPECT_FALSE(rq.tick(f, at_ms(30)));
  EXPECT_EQ(rq.fair_server().runtime(), msec(22));
  EXPECT_EQ(rq.schedule(&f, true, at_ms(40)), &f);
  EXPECT_EQ(rq.fair_server().runtime(), msec(12));
}


// The ones below were found by the same kind of model run side by side (a second triage).
//
// 6.19's __pick_next_task takes a fast path when the previous task's class is not above the
// fair class and every queued task is fair (rq->nr_running == rq->cfs.h_nr_queued; the server
// never counts in nr_running, inc_dl_tasks skips a dl_server): pick_task_fair, then the idle
// task; the deadline class is not asked, so a queued server is not stopped there. Only
// __pick_task_dl reaching the server with nothing to run stops it ("if (!p) {
// dl_server_stop(dl_se); goto again; }"), on the slow path: another class's task queued, or a
// previous task of a class above the fair class.
// F is starved by a FIFO task H until the server's timer at 950 ms (d = 1950 ms, q = 50 ms,
// running state; as in AServedTaskThatBlocksIsChargedAndItsWakeupRestartsTheServerAtOnce); H
// migrates away, F blocks at 970 ms: q = 50 - 20 = 30 ms. The pick (prev F, nothing queued)
// is the fast path: idle, the server stays queued. F wakes at 1000 ms (dl_server_start returns:
// already active); the pick's put_prev_task_idle charges the 30 ms of idle time, as run time
// since F is queued (not idle_rq()): q = 0, throttled until d = 1950 ms (the running state is
// not deferred: the timer at d). F runs on its own; H, woken at 1000 ms, preempts it and runs.
// (Stopped at 970 ms, the server kept q = 30 ms, restarted queued at 1000 ms and ran F ahead of H.)
TEST(FairServerStack, Rules619_AnEmptyPickOnTheFairFastPathLeavesTheServerQueued) {
  served_stack rq;
  served_task f, h;
  ASSERT_EQ(make_fifo50(rq, h), errc::ok);
  ASSERT_EQ(rq.configure_fair_server(deferrable_server::default_runtime, deferrable_server::default_period, sched_time{},
                                     server_rules::linux_6_19),
            errc::ok);
  rq.enqueue(h, at_ms(0), enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(0)), &h);
  rq.enqueue(f, at_ms(0), enqueue_flags::wakeup);
  EXPECT_TRUE(rq.timer(at_ms(950)));
  ASSERT_EQ(rq.schedule(&h, true, at_ms(950)), &f);
  ASSERT_TRUE(rq.served());
  rq.dequeue(h, at_ms(950), dequeue_flags::migrating);
  rq.dequeue(f, at_ms(970), dequeue_flags::sleep);
  EXPECT_EQ(rq.schedule(&f, false, at_ms(970)), nullptr);
  EXPECT_TRUE(rq.fair_server().active());
  EXPECT_TRUE(rq.fair_server().queued());
  EXPECT_EQ(rq.fair_server().runtime(), msec(30));
  EXPECT_EQ(rq.fair_server().deadline(), at_ms(1950));
  rq.enqueue(f, at_ms(1000), enqueue_flags::wakeup);
  EXPECT_EQ(rq.schedule(nullptr, false, at_ms(1000)), &f);
  EXPECT_FALSE(rq.served());
  EXPECT_FALSE(rq.fair_server().queued());
  EXPECT_TRUE(rq.fair_server().throttled());
  EXPECT_EQ(rq.fair_server().runtime(), 0);
  EXPECT_EQ(timer_of(rq.fair_server()), at_ms(1950));
  rq.enqueue(h, at_ms(1000), enqueue_flags::wakeup);
  EXPECT_TRUE(rq.wakeup_preempt(h, f, at_ms(1000)));
  EXPECT_EQ(rq.schedule(&f, true, at_ms(1000)), &h);
  EXPECT_TRUE(rq.verify());
}

// ... and the slow path still stops it. (1) Another class's task queued: F, served from 950 ms,
// blocks at 970 ms (q = 30 ms) while H waits: the pick reaches the server, which has nothing to
// run, stops it and runs H. (2) A previous task above the fair class: H runs, F wakes at 980
// ms and restarts the server queued at once (d = 1950 ms not lapsed, 30 / 970 <= 50 / 1000, the
// running state kept across the stop), then migrates away before any pick; H blocks at 985 ms:
// nr_running (0) == h_nr_queued (0), but H's class is above the fair class, so the slow path
// asks the deadline class, whose empty server stops. The CPU idles.
TEST(FairServerStack, Rules619_AnEmptyPickOnTheSlowPathStopsTheServer) {
  served_stack rq;
  served_task f, h;
  ASSERT_EQ(make_fifo50(rq, h), errc::ok);
  ASSERT_EQ(rq.configure_fair_server(deferrable_server::default_runtime, deferrable_server::default_period, sched_time{},
                                     server_rules::linux_6_19),
            errc::ok);
  rq.enqueue(h, at_ms(0), enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(0)), &h);
  rq.enqueue(f, at_ms(0), enqueue_flags::wakeup);
  EXPECT_TRUE(rq.timer(at_ms(950)));
  ASSERT_EQ(rq.schedule(&h, true, at_ms(950)), &f);
  rq.dequeue(f, at_ms(970), dequeue_flags::sleep);
  EXPECT_EQ(rq.schedule(&f, false, at_ms(970)), &h);
  EXPECT_FALSE(rq.fair_server().active());
  EXPECT_EQ(rq.fair_server().runtime(), msec(30));
  rq.enqueue(f, at_ms(980), enqueue_flags::wakeup);
  ASSERT_TRUE(rq.fair_server().queued());
  EXPECT_EQ(rq.fair_server().deadline(), at_ms(1950));
  rq.dequeue(f, at_ms(980), dequeue_flags::migrating);
  rq.dequeue(h, at_ms(985), dequeue_flags::sleep);
  EXPECT_EQ(rq.schedule(&h, false, at_ms(985)), nullptr);
  EXPECT_FALSE(rq.fair_server().active());
  EXPECT_FALSE(rq.fair_server().queued());
  EXPECT_TRUE(rq.verify());
}

// fair.c's enqueue_entity and dequeue_entity begin with update_curr(cfs_rq), which charges the
// running fair task to the server (dl_server_update), whichever fair task is enqueued or
// dequeued (6.12 and 6.19 alike). Server 5 ms per 20 ms; F starts it at 0 (deferred: q = 5 ms,
// d = 20 ms, timer at 15 ms) and runs on its own. F2 wakes at 7 ms: F's 7 ms are charged,
// q = 5 - 7 <= 0 while deferred, so the class was not starved: a new deferred period at 7 ms
// (replenish_dl_new_period: d = 27 ms, q = 5 ms, timer at 22 ms). The tick at 8 ms charges 1
// ms: q = 4 ms. F2 migrates away at 10 ms: 2 ms more, q = 2 ms; the timer stays at 22 ms (the
// hrtimer is not moved; dl_server_timer pushes it when it fires). (Charged only at the tick, the
// 8 ms ran past q at 8 ms: d = 28 ms, q = 5 ms, timer 23 ms, 1 ms late; and 5 ms at 10 ms.)
TEST(FairServerStack, AFairEnqueueOrDequeueChargesTheRunningFairTask) {
  for (server_rules rules : {server_rules::linux_6_12, server_rules::linux_6_19}) {
    served_stack rq;
    served_task f, f2;
    ASSERT_EQ(rq.configure_fair_server(msec(5), msec(20), sched_time{}, rules), errc::ok);
    ASSERT_EQ(rq.schedule(nullptr, false, at_ms(0)), nullptr);
    rq.enqueue(f, at_ms(0), enqueue_flags::wakeup);
    ASSERT_EQ(rq.schedule(nullptr, false, at_ms(0)), &f);
    ASSERT_EQ(timer_of(rq.fair_server()), at_ms(15));
    rq.enqueue(f2, at_ms(7), enqueue_flags::wakeup);
    EXPECT_EQ(rq.fair_server().runtime(), msec(5));
    EXPECT_EQ(rq.fair_server().deadline(), at_ms(27));
    EXPECT_EQ(timer_of(rq.fair_server()), at_ms(22));
    EXPECT_FALSE(rq.fair_server().queued());
    (void)rq.tick(f, at_ms(8));  // the fair class may ask to switch to F2; F keeps running here
    EXPECT_EQ(rq.fair_server().runtime(), msec(4));
    EXPECT_EQ(rq.fair_server().deadline(), at_ms(27));
    rq.dequeue(f2, at_ms(10), dequeue_flags::migrating);
    EXPECT_FALSE(rq.take_resched());
    EXPECT_EQ(rq.fair_server().runtime(), msec(2));
    EXPECT_EQ(rq.fair_server().deadline(), at_ms(27));
    EXPECT_EQ(timer_of(rq.fair_server()), at_ms(22));
    EXPECT_TRUE(rq.verify());
  }
}

// 6.12's sched_fair_server_write stops an active server (dl_server_stop) and applies the new
// parameters (dl_server_apply_params: runtime = deadline = 0) without update_curr first, so the
// running task's time since its last charge is charged to the new server by the next one. F
// starts the server at 0 and runs on its own; the write at 10 ms (50 ms per 1 s again) restarts
// it: d = 1010 ms, q = 50 ms, timer at 960 ms. The tick at 20 ms charges F's 20 ms since 0:
// q = 30 ms. (Charged to the old server before the write, the first 10 ms were lost: q = 40 ms.)
TEST(FairServerStack, AReconfigureLeavesTheRunningTasksTimeToTheNewServer) {
  served_stack rq;
  served_task f;
  ASSERT_EQ(rq.configure_fair_server(deferrable_server::default_runtime, deferrable_server::default_period), errc::ok);
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(0)), nullptr);
  rq.enqueue(f, at_ms(0), enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(0)), &f);
  ASSERT_EQ(rq.configure_fair_server(deferrable_server::default_runtime, deferrable_server::default_period, at_ms(10)),
            errc::ok);
  EXPECT_EQ(rq.fair_server().runtime(), msec(50));
  EXPECT_EQ(rq.fair_server().deadline(), at_ms(1010));
  EXPECT_EQ(timer_of(rq.fair_server()), at_ms(960));
  EXPECT_FALSE(rq.tick(f, at_ms(20)));
  EXPECT_EQ(rq.fair_server().runtime(), msec(30));
  EXPECT_TRUE(rq.verify());
}

// 6.19's sched_server_write_common restarts the server iff it was active ("if (is_active)
// dl_server_start"), with its class empty too. F starts the server at 0 (d = 1 s, q = 50 ms),
// runs and blocks at 10 ms (q = 40 ms; the 6.19 server stays active); the CPU idles. The write
// at 20 ms stops it and restarts it: dl_server_start's update_curr (before dl_server_active is
// set) drops the idle time from 10 to 20 ms, and the deadline 0 that dl_server_apply_params left
// has lapsed: a new deferred period, d = 1020 ms, q = 50 ms, timer at 970 ms. F wakes at 30 ms
// (dl_server_start returns: active); the pick charges the 10 ms of idle since the restart as run
// time (F is queued): q = 40 ms, d and timer kept. (Left stopped by the write, the server
// started at F's wakeup: d = 1030 ms, q = 50 ms.)
TEST(FairServerStack, Rules619_AReconfigureRestartsAServerThatWasActive) {
  served_stack rq;
  served_task f;
  ASSERT_EQ(rq.configure_fair_server(deferrable_server::default_runtime, deferrable_server::default_period, sched_time{},
                                     server_rules::linux_6_19),
            errc::ok);
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(0)), nullptr);
  rq.enqueue(f, at_ms(0), enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(0)), &f);
  rq.dequeue(f, at_ms(10), dequeue_flags::sleep);
  ASSERT_EQ(rq.schedule(&f, false, at_ms(10)), nullptr);
  ASSERT_TRUE(rq.fair_server().active());
  ASSERT_EQ(rq.fair_server().runtime(), msec(40));
  ASSERT_EQ(rq.configure_fair_server(deferrable_server::default_runtime, deferrable_server::default_period, at_ms(20),
                                     server_rules::linux_6_19),
            errc::ok);
  EXPECT_TRUE(rq.fair_server().active());
  EXPECT_EQ(rq.fair_server().runtime(), msec(50));
  EXPECT_EQ(rq.fair_server().deadline(), at_ms(1020));
  EXPECT_EQ(timer_of(rq.fair_server()), at_ms(970));
  rq.enqueue(f, at_ms(30), enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(30)), &f);
  EXPECT_EQ(rq.fair_server().runtime(), msec(40));
  EXPECT_EQ(rq.fair_server().deadline(), at_ms(1020));
  EXPECT_EQ(timer_of(rq.fair_server()), at_ms(970));
  EXPECT_TRUE(rq.verify());
}

// 6.19's dl_server_timer goes on after its update_curr whatever that charge did. Server 250 us
// per 1 ms (P - Q = 750 us, within dl_server_min_res = 1 ms); F starts it at 0 (deferred: d = 1
// ms, q = 250 us, timer at 750 us) and runs on its own. At 750 us the timer finds it throttled
// and charges F's 750 us: q = 250 - 750 <= 0 while deferred, so update_curr_dl_se starts a new
// deferred period (d = 1750 us, q = 250 us) and its timer at d - q = 1500 us. The callback then
// goes on: dl_defer_armed, and 750 < 1750 - 250 - 1000 is false, so the server enters the
// running state and is replenished and queued (250 / 1000 does not overflow Q / P: d kept),
// while the timer at 1500 us stays queued. F runs in the server from 750 us; the tick at 1000 us
// uses up q: throttled, and start_dl_timer leaves the queued timer where it is
// (hrtimer_is_queued), at 1500 us, not d = 1750 us. At 1500 us that timer charges F's 500 us on
// its own (q <= 0 while throttled: a new period at 1500 us, d = 2500 us, timer at 2250 us) and
// queues the server again in the same way. (Had the timer stopped at the new period's instant,
// the server stayed deferred at 750 us, timer 1500 us, and F ran on its own.)
TEST(FairServerStack, Rules619_TheServersTimerGoesOnAfterItsChargeStartsANewPeriod) {
  served_stack rq;
  served_task f;
  ASSERT_EQ(rq.configure_fair_server(usec(250), msec(1), sched_time{}, server_rules::linux_6_19), errc::ok);
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(0)), nullptr);
  rq.enqueue(f, at_ms(0), enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(0)), &f);
  ASSERT_EQ(timer_of(rq.fair_server()), sched_time{} + usec(750));
  EXPECT_TRUE(rq.timer(sched_time{} + usec(750)));
  EXPECT_TRUE(rq.fair_server().queued());
  EXPECT_TRUE(rq.fair_server().defer_running());
  EXPECT_EQ(rq.fair_server().deadline(), sched_time{} + usec(1750));
  EXPECT_EQ(rq.fair_server().runtime(), usec(250));
  EXPECT_EQ(timer_of(rq.fair_server()), sched_time{} + usec(1500));
  EXPECT_TRUE(rq.verify());
  ASSERT_EQ(rq.schedule(&f, true, sched_time{} + usec(750)), &f);
  EXPECT_TRUE(rq.served());
  EXPECT_TRUE(rq.tick(f, at_ms(1)));
  EXPECT_TRUE(rq.fair_server().throttled());
  EXPECT_EQ(timer_of(rq.fair_server()), sched_time{} + usec(1500));
  ASSERT_EQ(rq.schedule(&f, true, at_ms(1)), &f);
  EXPECT_FALSE(rq.served());
  EXPECT_TRUE(rq.timer(sched_time{} + usec(1500)));
  EXPECT_TRUE(rq.fair_server().queued());
  EXPECT_EQ(rq.fair_server().deadline(), sched_time{} + usec(2500));
  EXPECT_EQ(rq.fair_server().runtime(), usec(250));
  EXPECT_EQ(timer_of(rq.fair_server()), sched_time{} + usec(2250));
  EXPECT_TRUE(rq.verify());
}

// 6.12's dl_server_update_idle_time returns before it moves the idle task's clock when the
// server's runtime is below 0 ("no need to discount more"); the next call charges the same
// idle time again. Server 5 ms per 20 ms; a FIFO hog H starves F from 0: the timer at 15 ms
// queues the server (5 / 5 overflows 5 / 20: d = 35 ms, q = 5 ms) and F runs in it. The tick at
// 22 ms charges 7 ms: q = -2 ms, throttled until d = 35 ms. F blocks at 22 ms (the last fair
// dequeue stops the server, q still -2 ms), H blocks at 23 ms: the CPU idles. F wakes at 40 ms:
// enqueue_task_fair's idle charge returns at once (q < 0), the idle clock stays at 23 ms; the
// start finds d = 35 ms lapsed: a new deferred period, d = 60 ms, q = 5 ms. The pick's
// put_prev_task_idle then charges the 17 ms since 23 ms: q = 0. (Moved to 40 ms by the skipped
// charge, the pick charged nothing: q = 5 ms.)
TEST(FairServerStack, AnIdleChargeSkippedForANegativeRuntimeIsChargedAtThePick) {
  served_stack rq;
  served_task f, h;
  ASSERT_EQ(make_fifo50(rq, h), errc::ok);
  ASSERT_EQ(rq.configure_fair_server(msec(5), msec(20)), errc::ok);
  rq.enqueue(h, at_ms(0), enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(0)), &h);
  rq.enqueue(f, at_ms(0), enqueue_flags::wakeup);
  EXPECT_TRUE(rq.timer(at_ms(15)));
  ASSERT_EQ(rq.schedule(&h, true, at_ms(15)), &f);
  ASSERT_EQ(rq.fair_server().deadline(), at_ms(35));
  EXPECT_TRUE(rq.tick(f, at_ms(22)));
  EXPECT_EQ(rq.fair_server().runtime(), -msec(2));
  rq.dequeue(f, at_ms(22), dequeue_flags::sleep);
  EXPECT_FALSE(rq.fair_server().active());
  ASSERT_EQ(rq.schedule(&f, false, at_ms(22)), &h);
  rq.dequeue(h, at_ms(23), dequeue_flags::sleep);
  ASSERT_EQ(rq.schedule(&h, false, at_ms(23)), nullptr);
  rq.enqueue(f, at_ms(40), enqueue_flags::wakeup);
  EXPECT_EQ(rq.fair_server().runtime(), msec(5));
  EXPECT_EQ(rq.fair_server().deadline(), at_ms(60));
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(40)), &f);
  EXPECT_EQ(rq.fair_server().runtime(), 0);
  EXPECT_EQ(rq.fair_server().deadline(), at_ms(60));
  EXPECT_TRUE(rq.verify());
}

// 6.19's update_curr_dl_se tests idle_rq() when it charges: a task woken on an idle CPU and
// pulled away again before any pick leaves nothing queued, so the idle time is idle time.
// Server 50 ms per 1 s. F wakes on the idle CPU at 0 (deferred: d = 1 s, q = 50 ms, timer at 950
// ms) and migrates away at 190 ms. The pick at 190 ms charges 190 ms of idle: q <= 0 while
// deferred, a new period (d = 1190 ms, q = 50 ms, timer at 1140 ms) marked idle-waiting. The
// timer at 1140 ms charges 950 ms more (q only falls to 0) and stops the server, which keeps d =
// 1190 ms. H (FIFO) and F wake at 1150 ms: the start keeps d (0 / 40 does not overflow), deferred
// to d - q = 1190 ms; there the server is replenished (d = 2190 ms, q = 50 ms) and runs F ahead
// of H. (Charged as run time, the first idle charge marked nothing; the timer's charge started
// another period, d = 2140 ms, and F waited for 2090 ms.)
TEST(FairServerStack, Rules619_AWakeupPulledAwayBeforeThePickLeavesIdleTimeIdle) {
  served_stack rq;
  served_task f, h;
  ASSERT_EQ(make_fifo50(rq, h), errc::ok);
  ASSERT_EQ(rq.configure_fair_server(deferrable_server::default_runtime, deferrable_server::default_period, sched_time{},
                                     server_rules::linux_6_19),
            errc::ok);
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(0)), nullptr);
  rq.enqueue(f, at_ms(0), enqueue_flags::wakeup);
  rq.dequeue(f, at_ms(190), dequeue_flags::migrating);
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(190)), nullptr);
  EXPECT_TRUE(rq.fair_server().defer_idle());
  EXPECT_EQ(rq.fair_server().deadline(), at_ms(1190));
  EXPECT_EQ(timer_of(rq.fair_server()), at_ms(1140));
  EXPECT_FALSE(rq.timer(at_ms(1140)));
  EXPECT_FALSE(rq.fair_server().active());
  EXPECT_EQ(rq.fair_server().runtime(), 0);
  EXPECT_EQ(rq.fair_server().deadline(), at_ms(1190));
  rq.enqueue(h, at_ms(1150), enqueue_flags::wakeup);
  rq.enqueue(f, at_ms(1150), enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(nullptr, false, at_ms(1150)), &h);
  EXPECT_EQ(timer_of(rq.fair_server()), at_ms(1190));
  EXPECT_TRUE(rq.timer(at_ms(1190)));
  EXPECT_EQ(rq.schedule(&h, true, at_ms(1190)), &f);
  EXPECT_TRUE(rq.served());
  EXPECT_EQ(rq.fair_server().deadline(), at_ms(2190));
  EXPECT_TRUE(rq.verify());
}

}  // namespace
