// rt_policy (SCHED_FIFO / SCHED_RR) against the oracles of algorithms-modern.md §4 and
// algorithms-legacy.md §1.8, driven by the deterministic tick driver.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "check_recorder.hpp"
#include "cross_queue_diff.hpp"
#include "schedcore/policy/class_stack.hpp"
#include "schedcore/policy/rt.hpp"
#include "tick_driver.hpp"

namespace {

using namespace schedcore;
using schedcore_test::behaviour;
using schedcore_test::single_class;
using schedcore_test::tick_driver;

struct task : rt_entity {
  int sched_class = 0;
};

// A lower class for throttling tests: plain FIFO over a fixed array, no preemption.
struct background_class {
  using task_type = task;
  task* queued[8] = {};
  usize n = 0;
  void enqueue(task& t, sched_time, enqueue_flags) noexcept { queued[n++] = &t; }
  void dequeue(task& t, sched_time, dequeue_flags) noexcept {
    for (usize i = 0; i < n; ++i)
      if (queued[i] == &t) { queued[i] = queued[--n]; return; }
  }
  task* pick_next(sched_time) noexcept { return n ? queued[0] : nullptr; }
  void set_next(task&, sched_time) noexcept {}
  void put_prev(task&, sched_time) noexcept {}
  bool tick(task&, sched_time) noexcept { return false; }
  bool wakeup_preempt(task&, task&, sched_time) noexcept { return false; }
  usize nr_runnable() const noexcept { return n; }
};

using rt = single_class<rt_policy<task>>;

task make(sched_kind kind, int prio) {
  task t;
  rt_policy<task> setup_only;
  EXPECT_EQ(setup_only.setup(t, sched_params{kind, 0, static_cast<u8>(prio), 0, 0, 0}), errc::ok);
  return t;
}

TEST(RtPolicy, PriorityMappingO43) {
  task hi = make(sched_kind::fifo, 99), lo = make(sched_kind::fifo, 1);
  EXPECT_EQ(hi.prio, 0);   // algorithms-modern.md §4 O4.3
  EXPECT_EQ(lo.prio, 98);
}

TEST(RtPolicy, RoundRobinPeersAlternateEvery100msO42) {
  rt policy;
  ASSERT_EQ(policy.configure({msec(100), -1, sec(1)}), errc::ok);
  task a = make(sched_kind::rr, 50), b = make(sched_kind::rr, 50);
  tick_driver<rt> d(policy, 1000);
  d.add(a, behaviour::hog());
  d.add(b, behaviour::hog());
  d.run_until(sec(1));
  EXPECT_EQ(d.stats(0).cpu_ns, msec(500));
  EXPECT_EQ(d.stats(1).cpu_ns, msec(500));
  // a runs 0-100 ms, b 100-200 ms, ...: 10 slices alternate.
  ASSERT_EQ(d.switch_log().size(), 10u);
  for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(d.switch_log()[i], i % 2);
}

TEST(RtPolicy, FifoPeersNeverAlternateO42) {
  rt policy;
  ASSERT_EQ(policy.configure({msec(100), -1, sec(1)}), errc::ok);
  task a = make(sched_kind::fifo, 50), b = make(sched_kind::fifo, 50);
  tick_driver<rt> d(policy, 1000);
  d.add(a, behaviour::hog());
  d.add(b, behaviour::hog(usec(10)));  // wakes while a runs: equal priority never preempts
  d.run_until(sec(2));
  EXPECT_EQ(d.stats(0).cpu_ns, sec(2));
  EXPECT_EQ(d.stats(1).cpu_ns, 0);
}

TEST(RtPolicy, MoreUrgentWakeupPreemptsAndPreemptedFifoResumesFirst) {
  rt policy;
  ASSERT_EQ(policy.configure({msec(100), -1, sec(1)}), errc::ok);
  task low1 = make(sched_kind::fifo, 10), low2 = make(sched_kind::fifo, 10), high = make(sched_kind::fifo, 80);
  tick_driver<rt> d(policy, 1000);
  d.add(low1, behaviour::hog());
  d.add(low2, behaviour::hog(usec(1)));
  d.add(high, behaviour::cycle(msec(3), msec(7), msec(5)));  // 3 ms every 10 ms from t=5 ms
  d.run_until(msec(100));
  EXPECT_EQ(d.stats(2).cpu_ns, msec(30));
  EXPECT_EQ(d.stats(0).cpu_ns, msec(70)) << "low1 resumes at the head each time";
  EXPECT_EQ(d.stats(1).cpu_ns, 0);
  for (auto lat : d.stats(2).wakeup_latency_ns) EXPECT_EQ(lat, 0) << "preemption is immediate";
}

TEST(RtPolicy, YieldMovesToTail) {
  rt policy;
  task a = make(sched_kind::fifo, 50), b = make(sched_kind::fifo, 50);
  const sched_time t0{};
  policy.enqueue(a, t0, enqueue_flags::wakeup);
  policy.enqueue(b, t0, enqueue_flags::wakeup);
  ASSERT_EQ(policy.schedule(nullptr, false, t0), &a);
  policy.yield(a, t0 + msec(1));
  EXPECT_EQ(policy.schedule(&a, true, t0 + msec(1)), &b);
  EXPECT_TRUE(policy.verify());
}

// Linux (every version: 2.6.22 task_running_tick, 2.6.23+ task_tick_rt) refills an RR task's
// time_slice only when it runs out at a tick (and at fork); enqueue_task_rt on a wakeup leaves it
// alone, so a task that sleeps in the middle of its slice resumes with what was left.
TEST(RtPolicy, WakeupDoesNotRefillTheRoundRobinSlice) {
  rt_policy<task> p;
  ASSERT_EQ(p.configure({msec(100), -1, sec(1)}), errc::ok);
  task a = make(sched_kind::rr, 50), b = make(sched_kind::rr, 50);
  const sched_time t0{};
  p.enqueue(a, t0, enqueue_flags::initial);
  ASSERT_EQ(p.pick_next(t0), &a);
  p.set_next(a, t0);
  EXPECT_FALSE(p.tick(a, t0 + msec(60)));
  p.dequeue(a, t0 + msec(60), dequeue_flags::sleep);  // 40 ms of the slice left
  p.enqueue(a, t0 + msec(70), enqueue_flags::wakeup);
  p.enqueue(b, t0 + msec(70), enqueue_flags::wakeup);
  ASSERT_EQ(p.pick_next(t0 + msec(70)), &a);
  p.set_next(a, t0 + msec(70));
  EXPECT_FALSE(p.tick(a, t0 + msec(109)));
  EXPECT_TRUE(p.tick(a, t0 + msec(110))) << "60 + 40 ms: the slice runs out";
  p.put_prev(a, t0 + msec(110));
  EXPECT_EQ(p.pick_next(t0 + msec(110)), &b);
}

// Linux 3.14+ __sched_setscheduler (81a44c5441d7 "sched: Queue RT tasks to head when prio
// drops"; 4.7+ form: ENQUEUE_HEAD when oldprio < newprio, and no move at all when the
// effective priority is unchanged): a task whose priority is lowered goes to the head of its
// new level, so the priority-ceiling pattern (raise, then drop back) does not lose its turn.
TEST(RtPolicy, PriorityLoweredByParameterChangeGoesToTheHead) {
  rt_policy<task> p;
  task t1 = make(sched_kind::fifo, 80), t2 = make(sched_kind::fifo, 80);
  const sched_time t0{};
  p.enqueue(t1, t0, enqueue_flags::initial);
  p.enqueue(t2, t0, enqueue_flags::initial);
  ASSERT_EQ(p.pick_next(t0), &t1);
  p.set_next(t1, t0);
  auto change = [&](int prio, sched_time now) {
    p.dequeue(t1, now, dequeue_flags::save);
    ASSERT_EQ(p.setup(t1, sched_params{sched_kind::fifo, 0, static_cast<u8>(prio), 0, 0, 0}), errc::ok);
    p.enqueue(t1, now, enqueue_flags::restore);
    p.set_next(t1, now);
  };
  change(90, t0 + msec(1));  // raised: tail of level 90 (alone there)
  ASSERT_EQ(p.pick_next(t0 + msec(1)), &t1);
  change(80, t0 + msec(2));  // lowered back: head of level 80, ahead of t2
  EXPECT_EQ(p.pick_next(t0 + msec(2)), &t1);
  change(80, t0 + msec(3));  // unchanged priority (e.g. FIFO -> RR): keeps its place
  EXPECT_EQ(p.pick_next(t0 + msec(3)), &t1);
  // t2, queued behind t1, made SCHED_RR at the same priority: keeps its place too (behind t1).
  p.dequeue(t2, t0 + msec(4), dequeue_flags::save);
  ASSERT_EQ(p.setup(t2, sched_params{sched_kind::rr, 0, 80, 0, 0, 0}), errc::ok);
  p.enqueue(t2, t0 + msec(4), enqueue_flags::restore);
  EXPECT_EQ(p.pick_next(t0 + msec(4)), &t1);
  EXPECT_TRUE(p.verify());
}

// sched(7): "If the thread's priority is unchanged, its position in the run list is
// unchanged" (the kernel does not move it: no DEQUEUE_MOVE). With three at one level, the
// middle one made SCHED_RR, and the last one made SCHED_FIFO again, each stays where it was;
// the pointer to its predecessor is only trusted when that one is still queued here.
TEST(RtPolicy, UnchangedPriorityKeepsTheTaskWhereItWasAmongThree) {
  rt_policy<task> p;
  task a = make(sched_kind::fifo, 10), b = make(sched_kind::fifo, 10), c = make(sched_kind::fifo, 10);
  const sched_time t0{};
  for (task* t : {&a, &b, &c}) p.enqueue(*t, t0, enqueue_flags::wakeup);
  p.set_next(a, t0);
  auto change = [&](task& t, sched_kind kind, sched_time now) {
    p.dequeue(t, now, dequeue_flags::save);
    ASSERT_EQ(p.setup(t, sched_params{kind, 0, 10, 0, 0, 0}), errc::ok);
    p.enqueue(t, now, enqueue_flags::restore);
  };
  auto order = [&] {
    std::vector<task*> o;
    for (task* q = p.pick_next(t0); q != nullptr; q = p.queue().next_at_same_prio(*q)) o.push_back(q);
    return o;
  };
  change(b, sched_kind::rr, t0 + msec(1));
  EXPECT_EQ(order(), (std::vector<task*>{&a, &b, &c})) << "b went to the tail";
  change(c, sched_kind::fifo, t0 + msec(2));
  EXPECT_EQ(order(), (std::vector<task*>{&a, &b, &c}));
  // The running task, first at its level, stays first.
  change(a, sched_kind::rr, t0 + msec(3));
  p.set_next(a, t0 + msec(3));
  EXPECT_EQ(order(), (std::vector<task*>{&a, &b, &c}));
  // Its predecessor gone meanwhile (a caller that interleaves): the tail, never a stale link.
  p.put_prev(a, t0 + msec(4));
  p.dequeue(c, t0 + msec(4), dequeue_flags::save);
  p.dequeue(b, t0 + msec(4), dequeue_flags::sleep);
  ASSERT_EQ(p.setup(c, sched_params{sched_kind::rr, 0, 10, 0, 0, 0}), errc::ok);
  p.enqueue(c, t0 + msec(4), enqueue_flags::restore);
  EXPECT_EQ(order(), (std::vector<task*>{&a, &c}));
  EXPECT_TRUE(p.verify());
}

// task_tick_rt counts the RR slice at every tick, also the one at which update_curr_rt throttles
// the class: two RR peers under a 99 ms budget, the 100th tick both exhausts the budget and ends
// A's 100 ms slice, so B runs first when the period replenishes (A stayed at the head before).
TEST(RtPolicy, TheTickThatThrottlesStillRotatesAnExpiredRoundRobinSlice) {
  for (const std::int64_t hz : {std::int64_t{0}, std::int64_t{1000}}) {
    rt_policy<task> p;
    ASSERT_EQ(p.configure({msec(100), msec(99), sec(1), hz}), errc::ok);
    task a = make(sched_kind::rr, 10), b = make(sched_kind::rr, 10);
    const sched_time t0{};
    p.enqueue(a, t0, enqueue_flags::wakeup);
    p.enqueue(b, t0, enqueue_flags::wakeup);
    p.set_next(a, t0);
    int t = 1;
    while (!p.tick(a, t0 + msec(t))) ++t;
    EXPECT_EQ(t, 100) << "hz " << hz;
    p.put_prev(a, t0 + msec(t));
    EXPECT_EQ(p.pick_next(t0 + msec(t)), nullptr) << "throttled";
    sched_time when{};
    ASSERT_TRUE(p.next_timer(when));
    (void)p.timer(when);
    EXPECT_EQ(p.pick_next(when), &b) << "hz " << hz << ": A kept the head with its slice used up";
    EXPECT_TRUE(p.verify());
  }
}

// Deadline run time shares the RT budget (update_curr_dl up to 6.11), counted while the RT
// period timer runs (sched_rt_bandwidth_account): 950 ms per 1 s. A task ran 100 ms; 850 ms
// of deadline time brings the period to the budget, 1 ms more throttles the class, whose
// queued task then waits for the period's end (1.5 s). Once the class has been empty through a
// whole period and has nothing to carry, its timer has stopped and deadline time is not
// counted; before any RT task (no timer yet) it never is.
TEST(RtPolicy, SharedDeadlineRunTimeCountsWhileThePeriodTimerRuns) {
  rt_policy<task> p;
  const sched_time t0{};
  p.charge_shared(msec(500), t0 + msec(500));
  EXPECT_EQ(p.rt_time(), 0) << "no RT task yet: no period timer";
  task a = make(sched_kind::fifo, 10);
  p.enqueue(a, t0 + msec(500), enqueue_flags::wakeup);
  p.set_next(a, t0 + msec(500));
  p.put_prev(a, t0 + msec(600));
  EXPECT_EQ(p.rt_time(), msec(100));
  p.charge_shared(msec(850), t0 + msec(1450));
  EXPECT_EQ(p.rt_time(), msec(950));
  EXPECT_FALSE(p.throttled()) << "at the budget, not past it";
  EXPECT_EQ(p.pick_next(t0 + msec(1450)), &a);
  p.charge_shared(msec(1), t0 + msec(1451));
  EXPECT_TRUE(p.throttled());
  EXPECT_EQ(p.pick_next(t0 + msec(1451)), nullptr);
  sched_time when{};
  ASSERT_TRUE(p.next_timer(when));
  EXPECT_EQ(when, t0 + msec(1500));
  EXPECT_TRUE(p.timer(when));
  EXPECT_EQ(p.pick_next(when), &a);
  p.dequeue(a, when, dequeue_flags::sleep);  // empty from 1.5 s, with the 1 ms past the budget carried
  EXPECT_EQ(p.rt_time(), msec(1));
  p.charge_shared(msec(100), t0 + msec(2100));
  EXPECT_EQ(p.rt_time(), msec(101)) << "the period timer still runs through the period after";
  p.charge_shared(msec(100), t0 + msec(3600));
  EXPECT_EQ(p.rt_time(), 0) << "a period that ended with nothing to carry stopped the timer";
  p.charge_shared(msec(900), t0 + msec(4400));
  EXPECT_EQ(p.rt_time(), 0);
  p.enqueue(a, t0 + msec(4400), enqueue_flags::wakeup);  // the timer starts afresh
  p.charge_shared(msec(10), t0 + msec(4410));
  EXPECT_EQ(p.rt_time(), msec(10));
  rt_policy<task> off;
  ASSERT_EQ(off.configure({msec(100), -1, sec(1)}), errc::ok);
  task b = make(sched_kind::fifo, 10);
  off.enqueue(b, t0, enqueue_flags::wakeup);
  off.charge_shared(sec(2), t0 + sec(2));
  EXPECT_FALSE(off.throttled()) << "runtime -1: nothing is counted";
  EXPECT_EQ(off.rt_time(), 0);
  EXPECT_TRUE(p.verify());
}

// Linux __sched_setscheduler leaves rt.time_slice alone (only fork sets it and task_tick_rt
// refills it): an RR task whose priority changes mid-slice keeps what was left.
TEST(RtPolicy, ParameterChangeKeepsTheRoundRobinSlice) {
  rt_policy<task> p;
  ASSERT_EQ(p.configure({msec(100), -1, sec(1)}), errc::ok);
  task a = make(sched_kind::rr, 50), b = make(sched_kind::rr, 60);
  const sched_time t0{};
  p.enqueue(a, t0, enqueue_flags::initial);
  ASSERT_EQ(p.pick_next(t0), &a);
  p.set_next(a, t0);
  EXPECT_FALSE(p.tick(a, t0 + msec(60)));
  p.dequeue(a, t0 + msec(60), dequeue_flags::save);  // raised to 60: 40 ms of the slice left
  ASSERT_EQ(p.setup(a, sched_params{sched_kind::rr, 0, 60, 0, 0, 0}), errc::ok);
  p.enqueue(a, t0 + msec(60), enqueue_flags::restore);
  p.set_next(a, t0 + msec(60));
  p.enqueue(b, t0 + msec(60), enqueue_flags::wakeup);
  EXPECT_FALSE(p.tick(a, t0 + msec(99)));
  EXPECT_TRUE(p.tick(a, t0 + msec(100))) << "60 + 40 ms: the slice runs out";
  p.put_prev(a, t0 + msec(100));
  EXPECT_EQ(p.pick_next(t0 + msec(100)), &b);
}

TEST(RtPolicy, ThrottlingGivesLowerClassesTheRestO41) {
  using stack = class_stack<member_sched_class, rt_policy<task>, background_class>;
  stack rq;  // default knobs: 950 ms per 1 s
  task fifo_hog = make(sched_kind::fifo, 50);
  task fair_hog;
  fair_hog.sched_class = 1;
  tick_driver<stack> d(rq, 1000);
  d.add(fifo_hog, behaviour::hog());
  d.add(fair_hog, behaviour::hog());
  d.run_until(sec(3));
  // The kernel's exact split at HZ 1000 (sched_rt_runtime_exceeded throttles when rt_time
  // *exceeds* the runtime; do_sched_rt_period_timer carries what ran past it): the tick that
  // charges the 951st ms throttles, the first period gives 951 ms and carries 1 ms, and every
  // later one 950 (1 + 950 > 950 at its 950th tick). 950/50 per second, as O4.1 says.
  EXPECT_EQ(d.stats(0).cpu_ns, msec(951 + 950 + 950));
  EXPECT_EQ(d.stats(1).cpu_ns, msec(49 + 50 + 50));
}

// sched_rt_runtime_us = -1 written while the class is throttled: the kernel's period timer
// still fires at the boundary and unthrottles (rt_time < RUNTIME_INF), and nothing throttles
// after it. The hog gets 951 ms of the first second and then every ms; no timer is left armed
// (a port's "run the due timers" loop would otherwise spin on an instant in the past).
TEST(RtPolicy, ThrottlingTurnedOffWhileThrottledEndsAtThePeriodBoundary) {
  using stack = class_stack<member_sched_class, rt_policy<task>, background_class>;
  stack rq;
  task fifo_hog = make(sched_kind::fifo, 50);
  task fair_hog;
  fair_hog.sched_class = 1;
  tick_driver<stack> d(rq, 1000);
  d.add(fifo_hog, behaviour::hog());
  d.add(fair_hog, behaviour::hog());
  d.run_until(msec(960));
  ASSERT_TRUE(rq.get<0>().throttled());
  ASSERT_EQ(rq.get<0>().configure({msec(100), -1, sec(1)}), errc::ok);
  d.run_until(sec(4));
  EXPECT_FALSE(rq.get<0>().throttled());
  EXPECT_EQ(d.stats(0).cpu_ns, msec(951 + 3000));
  EXPECT_EQ(d.stats(1).cpu_ns, msec(49));
  sched_time when{};
  EXPECT_FALSE(rq.get<0>().next_timer(when));
}

// The same over 10 s at HZ 100 with a runtime of 955 ms that the 10 ms ticks cannot hit: the
// throttle comes at 960 ms, the 5 ms past the runtime are carried; the second period also
// throttles at 960 (5 + 950 = 955 is not past 955) and carries 10 ms, then 950 (10 + 950 > 955)
// and 960 alternate: 960, 960, 950, 960, ..., 9560 ms in 10 s. (Zeroing the account at each period would give 960 every second: 9600.)
TEST(RtPolicy, ThrottlingCarriesTheOverrunIntoTheNextPeriod) {
  using stack = class_stack<member_sched_class, rt_policy<task>, background_class>;
  stack rq;
  ASSERT_EQ(rq.get<0>().configure({msec(100), msec(955), sec(1)}), errc::ok);
  task fifo_hog = make(sched_kind::fifo, 50);
  task fair_hog;
  fair_hog.sched_class = 1;
  tick_driver<stack> d(rq, 100);
  d.add(fifo_hog, behaviour::hog());
  d.add(fair_hog, behaviour::hog());
  d.run_until(sec(10));
  EXPECT_EQ(d.stats(0).cpu_ns, msec(9560));
  EXPECT_EQ(d.stats(1).cpu_ns, msec(440));
}

// RT_RUNTIME_SHARE (kernel/sched/rt.c, 2.6.25-5.9 default): when an rt_rq's rt_time exceeds
// its rt_runtime, do_balance_runtime takes from every other rt_rq of the root domain
// diff = (iter->rt_runtime - iter->rt_time) / n (n = CPUs in the domain), capped so that the
// borrower's runtime stays <= the period, stopping once it equals the period; then the
// borrower throttles only if rt_time still exceeds its runtime. Four instances at 500 ms per
// 1 s: B ran 200 ms, C nothing, D 480 ms. A charged 501 ms borrows 300/4 = 75, 500/4 = 125 and
// 20/4 = 5 ms: 705 (B 425, C 375, D 495). Charged 706 ms it borrows 56.25, 93.75 and 3.75 ms:
// 858.75. Charged 990 ms it borrows 42.1875, 70.3125 and 2.8125 ms: 974.0625, still short of
// 990, so it throttles. The domain's total stays 4 x 500 ms throughout.
struct share_domain {
  rt_policy<task>* rqs[4] = {};
  usize n = 0;
  static void borrow(void* self, rt_policy<task>& b, sched_time now) noexcept {
    const share_domain& d = *static_cast<const share_domain*>(self);
    (void)balance_rt_runtime(b, d.rqs, d.n, now);
  }
};

TEST(RtPolicy, RuntimeShareBorrowsOneNthOfEachCpusSpareTimeBeforeThrottling) {
  rt_policy<task> a, b, c, d;
  share_domain dom;
  for (rt_policy<task>* rq : {&a, &b, &c, &d}) {
    ASSERT_EQ(rq->configure({msec(100), msec(500), sec(1)}), errc::ok);
    dom.rqs[dom.n++] = rq;
    rq->set_runtime_share(&share_domain::borrow, &dom);
  }
  const sched_time t0{};
  task ta = make(sched_kind::fifo, 50), tb = make(sched_kind::fifo, 50), td = make(sched_kind::fifo, 50);
  auto run = [](rt_policy<task>& rq, task& t, sched_time from, sched_time to) {
    rq.set_next(t, from);
    rq.put_prev(t, to);
  };
  b.enqueue(tb, t0, enqueue_flags::wakeup);
  d.enqueue(td, t0, enqueue_flags::wakeup);
  a.enqueue(ta, t0, enqueue_flags::wakeup);
  run(b, tb, t0, t0 + msec(200));
  run(d, td, t0, t0 + msec(480));
  // The four runtimes (A, B, C, D) after each charge of A, and whether A throttled; the total
  // stays 4 x 500 ms.
  auto expect_runtimes = [&](bool throttled, duration_ns ra, duration_ns rb, duration_ns rc, duration_ns rd) {
    EXPECT_EQ(a.throttled(), throttled);
    EXPECT_EQ(a.runtime(), ra);
    EXPECT_EQ(b.runtime(), rb);
    EXPECT_EQ(c.runtime(), rc);
    EXPECT_EQ(d.runtime(), rd);
    EXPECT_EQ(a.runtime() + b.runtime() + c.runtime() + d.runtime(), msec(2000));
  };
  run(a, ta, t0, t0 + msec(501));
  expect_runtimes(false, msec(705), msec(425), msec(375), msec(495));
  run(a, ta, t0 + msec(501), t0 + msec(706));
  expect_runtimes(false, usec(858750), usec(368750), usec(281250), usec(491250));
  run(a, ta, t0 + msec(706), t0 + msec(990));
  expect_runtimes(true, 974062500, 326562500, 210937500, 488437500);
  // configure() resets the instance's runtime to the knob (a sysctl write resets every rt_rq).
  ASSERT_EQ(c.configure({msec(100), msec(500), sec(1)}), errc::ok);
  EXPECT_EQ(c.runtime(), msec(500));
  // Nothing is lent with throttling off, nor by an instance to itself.
  ASSERT_EQ(c.configure({msec(100), -1, sec(1)}), errc::ok);
  EXPECT_EQ(c.runtime(), -1);
  EXPECT_FALSE(c.lend_runtime(b, 4, t0 + msec(990)));
  EXPECT_FALSE(b.lend_runtime(b, 4, t0 + msec(990)));
}

// At the defaults (950 ms per 1 s) on two CPUs a FIFO hog past 950 ms borrows from an idle
// CPU 950/2 = 475 ms, capped at 1000 - 950 = 50: its runtime now covers the whole period, so
// it never throttles again (sched_rt_runtime_exceeded returns early), while the lender keeps
// 900 ms for good. The hog runs all 3 s; without the hook it stops at 951 ms of the first.
TEST(RtPolicy, RuntimeShareLetsASpinningTaskTakeTheWholePeriodForGood) {
  for (const bool share : {true, false}) {
    SCOPED_TRACE(share ? "shared" : "not shared");
    rt_policy<task> a, b;
    share_domain dom;
    dom.rqs[0] = &a;
    dom.rqs[1] = &b;
    dom.n = 2;
    if (share) {
      a.set_runtime_share(&share_domain::borrow, &dom);
      b.set_runtime_share(&share_domain::borrow, &dom);
    }
    task hog = make(sched_kind::fifo, 50);
    sched_time now{};
    a.enqueue(hog, now, enqueue_flags::wakeup);
    a.set_next(hog, now);
    duration_ns ran = 0;
    for (int ms = 0; ms < 3000; ++ms) {  // one ms at a time: [now, now + 1 ms)
      if (a.throttled()) {
        sched_time when{};
        ASSERT_TRUE(a.next_timer(when));
        if (now >= when) (void)a.timer(now);
        if (!a.throttled()) a.set_next(hog, now);
      }
      const bool running = !a.throttled();
      now += msec(1);
      if (!running) continue;
      (void)a.tick(hog, now);
      ran += msec(1);
    }
    if (share) {
      EXPECT_EQ(ran, sec(3));
      EXPECT_FALSE(a.throttled());
      EXPECT_EQ(a.runtime(), sec(1));
      EXPECT_EQ(b.runtime(), msec(900));
    } else {
      EXPECT_EQ(ran, msec(951 + 950 + 950));
      EXPECT_EQ(a.runtime(), msec(950));
      EXPECT_EQ(b.runtime(), msec(950));
    }
  }
}

// dequeue_task_rt runs update_curr_rt: the running task is charged whatever task leaves, so a
// migration (or another task's parameter change) can throttle it at once. Runtime 10 ms per
// 100 ms: the running FIFO task has run 10.5 ms when a queued peer is taken out.
TEST(RtPolicy, DequeueOfAnotherTaskChargesTheRunningOne) {
  rt_policy<task> p;
  ASSERT_EQ(p.configure({msec(100), msec(10), msec(100)}), errc::ok);
  task a = make(sched_kind::fifo, 50), b = make(sched_kind::fifo, 40);
  const sched_time t0{};
  p.enqueue(a, t0, enqueue_flags::wakeup);
  p.enqueue(b, t0, enqueue_flags::wakeup);
  p.set_next(a, t0);
  EXPECT_FALSE(p.throttled());
  EXPECT_FALSE(p.take_resched());
  p.dequeue(b, t0 + usec(10500), dequeue_flags::migrating);
  EXPECT_TRUE(p.throttled()) << "a was charged 10.5 ms > 10 ms by b's dequeue";
  EXPECT_TRUE(p.take_resched()) << "and the CPU is asked for at once (update_curr_rt)";
  EXPECT_EQ(p.pick_next(t0 + usec(10500)), nullptr);
  EXPECT_TRUE(p.tick(a, t0 + msec(11)));
  p.put_prev(a, t0 + msec(11));
  EXPECT_FALSE(p.take_resched()) << "answered once a is off the CPU";
  sched_time when{};
  ASSERT_TRUE(p.next_timer(when));
  EXPECT_EQ(when, t0 + msec(100));
}

// task_tick_rt takes one jiffy off the slice of the task current at each tick, however long it
// ran since: with `hz` set, an RR task that a FIFO task preempts for most of every jiffy, but
// that is current at every tick, ends its 100 ms slice at the 100th tick as a hog does (at
// 100 ms, having run 15 ms); counted in ns run it lasts until the tick at 667 ms (0.1 + 0.15 x
// 666 >= 100).
TEST(RtPolicy, WithHzTheRoundRobinSliceIsCountedInTicks) {
  for (const s64 hz : {s64{1000}, s64{0}}) {
    rt_policy<task> p;
    ASSERT_EQ(p.configure({msec(100), -1, sec(1), hz}), errc::ok);
    task a = make(sched_kind::rr, 50), b = make(sched_kind::rr, 50), f = make(sched_kind::fifo, 60);
    const sched_time t0{};
    p.enqueue(a, t0, enqueue_flags::wakeup);
    p.enqueue(b, t0, enqueue_flags::wakeup);
    p.set_next(a, t0);
    int expired_at = 0;
    for (int ms = 1; ms <= 1000 && expired_at == 0; ++ms) {
      // f runs from (ms - 1) + 0.1 to (ms - 1) + 0.95 ms; a runs the rest and is current at the tick.
      const sched_time s = t0 + msec(ms - 1) + usec(100), e = t0 + msec(ms - 1) + usec(950);
      p.enqueue(f, s, enqueue_flags::wakeup);
      ASSERT_TRUE(p.wakeup_preempt(f, a, s));
      p.put_prev(a, s);
      p.set_next(f, s);
      p.dequeue(f, e, dequeue_flags::sleep);
      p.set_next(a, e);
      if (p.tick(a, t0 + msec(ms))) expired_at = ms;
    }
    if (hz != 0) {
      EXPECT_EQ(expired_at, 100) << "one jiffy per tick";
    } else {
      EXPECT_EQ(expired_at, 667) << "100 ms of run at 0.15 ms per ms";
    }
    p.put_prev(a, t0 + msec(expired_at));
    EXPECT_EQ(p.pick_next(t0 + msec(expired_at)), &b);
  }
}

// The slice in jiffies is sched_rr_handler's msecs_to_jiffies(sched_rr_timeslice_ms), which
// rounds up: at HZ 300 a 100 ms slice is 30 ticks (exactly RR_TIMESLICE, though 100 ms over
// the 3333333 ns jiffy is 30.000003), 5 ms is 2 (1.5 rounded up) and 15 ms 5 (4.5); at HZ 100
// 15 ms is 2 and 1 ms 1. (Rounded down, as once here, 5 ms and 15 ms were 1 and 4 ticks.)
TEST(RtPolicy, TheRoundRobinSliceIsWholeJiffies) {
  auto ticks_to_expire = [](duration_ns slice, s64 hz) {
    rt_policy<task> p;
    EXPECT_EQ(p.configure({slice, -1, sec(1), hz}), errc::ok);
    task a, b = make(sched_kind::rr, 50);
    EXPECT_EQ(p.setup(a, sched_params{sched_kind::rr, 0, 50, 0, 0, 0}), errc::ok);
    const sched_time t0{};
    p.enqueue(a, t0, enqueue_flags::wakeup);
    p.enqueue(b, t0, enqueue_flags::wakeup);
    p.set_next(a, t0);
    const duration_ns jiffy = 1000000000 / hz;
    int n = 0;
    while (!p.tick(a, t0 + jiffy * ++n) && n < 1000) {
    }
    return n;
  };
  EXPECT_EQ(ticks_to_expire(msec(100), 300), 30);
  EXPECT_EQ(ticks_to_expire(msec(5), 300), 2);
  EXPECT_EQ(ticks_to_expire(msec(15), 300), 5);
  EXPECT_EQ(ticks_to_expire(msec(15), 100), 2);
  EXPECT_EQ(ticks_to_expire(msec(1), 100), 1);
  EXPECT_EQ(ticks_to_expire(msec(100), 250), 25);
  EXPECT_EQ(ticks_to_expire(usec(100), 1000), 1);  // below a jiffy: one
}

// start_rt_bandwidth / do_sched_rt_period_timer: the period timer stops at a boundary that finds
// the class empty with no run time left, and the next enqueue starts a fresh grid. A FIFO hog
// runs 0-500 ms, sleeps, and hogs again from 2300 ms: its grid restarts at 2300, so it is
// throttled at the tick that charges its 951st ms, 3251 ms, until 3300 ms. (On a grid kept from
// 0 it would run 700 ms to 3000 and be throttled only at 3951.)
TEST(RtPolicy, AnIdleClassRestartsItsPeriodGridAtTheNextEnqueue) {
  rt_policy<task> p;  // 950 ms per 1 s
  task a = make(sched_kind::fifo, 50);
  const sched_time t0{};
  p.enqueue(a, t0, enqueue_flags::wakeup);
  p.set_next(a, t0);
  for (int ms = 1; ms <= 500; ++ms) ASSERT_FALSE(p.tick(a, t0 + msec(ms)));
  p.dequeue(a, t0 + msec(500), dequeue_flags::sleep);
  p.enqueue(a, t0 + msec(2300), enqueue_flags::wakeup);
  p.set_next(a, t0 + msec(2300));
  int throttled_at = 0;
  for (int ms = 2301; ms <= 5000 && throttled_at == 0; ++ms)
    if (p.tick(a, t0 + msec(ms))) throttled_at = ms;
  EXPECT_EQ(throttled_at, 3251);
  sched_time when{};
  ASSERT_TRUE(p.next_timer(when));
  EXPECT_EQ(when, t0 + msec(3300));
  // A class that empties but still has run time to carry keeps its grid: throttled at 3251
  // with 951 ms, it sleeps at once; at 3300 the 1 ms carried is left, so the timer stays active
  // and a task enqueued at 3350 runs on the grid from 3300: 949 ms to 4299 (950 in all, not
  // more), the boundary at 4300 subtracts 950, and the next throttle is at 5250 (1 + 950 >
  // 950). A grid restarted at 3350 would have throttled it at 4301.
  p.put_prev(a, t0 + msec(throttled_at));
  p.dequeue(a, t0 + msec(throttled_at), dequeue_flags::sleep);
  (void)p.timer(t0 + msec(3300));
  p.enqueue(a, t0 + msec(3350), enqueue_flags::wakeup);
  p.set_next(a, t0 + msec(3350));
  throttled_at = 0;
  for (int ms = 3351; ms <= 6000 && throttled_at == 0; ++ms)
    if (p.tick(a, t0 + msec(ms))) throttled_at = ms;
  EXPECT_EQ(throttled_at, 5250);
}

// The carried overrun is capped at one period's runtime (no `hz` here). The kernel's carry is at most a tick;
// a caller that charges rarely (one 10 s charge against 10 us per 1 ms) would otherwise keep
// the class throttled for 10^6 periods. Found by the policies fuzzer (regression seed
// tests/fuzz/corpus/policies/rt-carry-of-a-huge-charge): throttled now, free again within two
// boundaries.
TEST(RtPolicy, AHugeChargeThrottlesForAtMostOneMorePeriod) {
  rt_policy<task> p;
  ASSERT_EQ(p.configure({msec(100), usec(10), msec(1)}), errc::ok);
  task a = make(sched_kind::fifo, 50);
  const sched_time t0{};
  p.enqueue(a, t0, enqueue_flags::wakeup);
  p.set_next(a, t0);
  EXPECT_TRUE(p.tick(a, t0 + sec(10)));
  EXPECT_TRUE(p.throttled());
  sched_time when{};
  int boundaries = 0;
  while (p.throttled() && boundaries < 5) {
    ASSERT_TRUE(p.next_timer(when));
    (void)p.timer(when);
    ++boundaries;
  }
  EXPECT_FALSE(p.throttled());
  EXPECT_LE(boundaries, 2);
}

// A period timer that fires late, after several whole periods (a tickless port, a long
// critical section), pays the run time down by every elapsed period's runtime at once, as
// do_sched_rt_period_timer's overrun loop: 700 ms charged against 300 ms per 1 s throttles;
// a timer at 2.5 s covers two periods, 700 - 2 x 300 = 100 < 300: runnable again. (Paying only
// one period's runtime would leave 400 > 300, still throttled.)
TEST(RtPolicy, ALatePeriodTimerPaysEveryElapsedPeriodsRuntime) {
  rt_policy<task> p;
  ASSERT_EQ(p.configure({msec(100), msec(300), sec(1)}), errc::ok);
  task a = make(sched_kind::fifo, 50);
  const sched_time t0{};
  p.enqueue(a, t0, enqueue_flags::wakeup);
  p.set_next(a, t0);
  EXPECT_TRUE(p.tick(a, t0 + msec(700)));
  ASSERT_TRUE(p.throttled());
  (void)p.timer(t0 + msec(2500));
  EXPECT_FALSE(p.throttled());
  sched_time when{};
  if (p.next_timer(when)) {
    EXPECT_GE(when - t0, msec(2500)) << "the grid moved on by whole periods";
  }
}

// An RR task that changes priority while it sleeps keeps what is left of its slice: only its
// first setup (the kernel's fork) fills it. 70 ms run, asleep, raised from 50 to 60: on its
// next run the slice ends after 30 ms.
TEST(RtPolicy, ParameterChangeWhileAsleepKeepsTheRoundRobinSlice) {
  rt_policy<task> p;
  ASSERT_EQ(p.configure({msec(100), -1, sec(1)}), errc::ok);
  task a = make(sched_kind::rr, 50), b = make(sched_kind::rr, 60);
  const sched_time t0{};
  p.enqueue(a, t0, enqueue_flags::wakeup);
  p.set_next(a, t0);
  EXPECT_FALSE(p.tick(a, t0 + msec(70)));
  p.dequeue(a, t0 + msec(70), dequeue_flags::sleep);
  ASSERT_EQ(p.setup(a, sched_params{sched_kind::rr, 0, 60, 0, 0, 0}), errc::ok);
  EXPECT_EQ(a.slice_left, msec(30));
  p.enqueue(a, t0 + msec(80), enqueue_flags::wakeup);
  p.enqueue(b, t0 + msec(80), enqueue_flags::wakeup);
  ASSERT_EQ(p.pick_next(t0 + msec(80)), &a);
  p.set_next(a, t0 + msec(80));
  EXPECT_FALSE(p.tick(a, t0 + msec(109)));
  EXPECT_TRUE(p.tick(a, t0 + msec(110))) << "30 ms left: its slice ends 30 ms into this run";
}

TEST(RtPolicy, SameScheduleWhenTheClockStartsJustBelowWrap) {
  auto run = [](sched_time origin) {
    rt policy;
    EXPECT_EQ(policy.configure({msec(30), msec(400), msec(500)}), errc::ok);
    task a = make(sched_kind::rr, 20), b = make(sched_kind::rr, 20), c = make(sched_kind::fifo, 40);
    tick_driver<rt> d(policy, 250, origin);
    d.add(a, behaviour::hog());
    d.add(b, behaviour::cycle(msec(7), msec(13)));
    d.add(c, behaviour::cycle(msec(2), msec(50), msec(3)));
    d.run_until(sec(2));
    return std::vector<std::int64_t>{d.stats(0).cpu_ns, d.stats(1).cpu_ns, d.stats(2).cpu_ns,
                                     static_cast<std::int64_t>(d.context_switches())};
  };
  const auto from_zero = run(sched_time{});
  const auto near_wrap = run(sched_time{std::numeric_limits<u64>::max() - msec(700)});
  EXPECT_EQ(from_zero, near_wrap);
  EXPECT_GT(from_zero[0], 0);
}

TEST(RtPolicy, BadParametersAreRefusedWithoutChange) {
  rt_policy<task> policy;
  task t = make(sched_kind::rr, 10);
  EXPECT_EQ(policy.setup(t, {sched_kind::rr, 0, 0, 0, 0, 0}), errc::out_of_range);
  EXPECT_EQ(policy.setup(t, {sched_kind::rr, 0, 100, 0, 0, 0}), errc::out_of_range);
  EXPECT_EQ(policy.setup(t, {sched_kind::normal, 0, 10, 0, 0, 0}), errc::invalid_argument);
  EXPECT_EQ(t.rt_priority, 10);
  policy.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  EXPECT_EQ(policy.setup(t, {sched_kind::fifo, 0, 50, 0, 0, 0}), errc::busy);
  EXPECT_EQ(t.kind, sched_kind::rr);
  auto k = policy.config();
  EXPECT_EQ(policy.configure({0, msec(950), sec(1)}), errc::invalid_argument);  // zero slice
  EXPECT_EQ(policy.configure({msec(100), sec(2), sec(1)}), errc::inverted);    // runtime > period
  EXPECT_EQ(policy.config().timeslice, k.timeslice);
}

struct rtos_config {  // 32 levels in one bitmap word, no bandwidth limit (a typical RTOS)
  static constexpr unsigned nr_prios = 32;
  static constexpr bool throttling = false;
};

TEST(RtPolicy, CompactConfigurationHas32LevelsAndNoThrottling) {
  using small = single_class<rt_policy<task, base_entity<rt_entity>, rtos_config>>;
  small policy;  // default knobs say 950 ms per 1 s, but throttling is compiled out
  task a, b;
  ASSERT_EQ(policy.setup(a, {sched_kind::fifo, 0, 32, 0, 0, 0}), errc::out_of_range) << "32 is beyond 32 levels (1..31 map to prio 30..0)";
  ASSERT_EQ(policy.setup(a, {sched_kind::fifo, 0, 30, 0, 0, 0}), errc::ok);
  EXPECT_EQ(a.prio, 1);
  ASSERT_EQ(policy.setup(b, {sched_kind::fifo, 0, 1, 0, 0, 0}), errc::ok);
  tick_driver<small> d(policy, 1000);
  d.add(a, behaviour::hog());
  d.add(b, behaviour::hog());
  d.run_until(sec(3));
  EXPECT_EQ(d.stats(0).cpu_ns, sec(3)) << "no throttling: the FIFO hog keeps the CPU";
  EXPECT_FALSE(policy.throttled());
}

struct wide_config {  // 256 levels: rt_priority 1..255 (past Linux's 99)
  static constexpr unsigned nr_prios = 256;
  static constexpr bool throttling = false;
};

// The accepted range is the instance's 1..N-1, not sched_setattr's 1..99: with 256 levels
// rt_priority 200 maps to prio 55 and preempts a task at 99 (prio 156); 0 is still refused.
TEST(RtPolicy, A256LevelConfigurationAcceptsPrioritiesPast99) {
  using wide = single_class<rt_policy<task, base_entity<rt_entity>, wide_config>>;
  wide policy;
  task low, high, bad;
  ASSERT_EQ(policy.setup(low, {sched_kind::fifo, 0, 99, 0, 0, 0}), errc::ok);
  ASSERT_EQ(policy.setup(high, {sched_kind::rr, 0, 200, 0, 0, 0}), errc::ok);
  EXPECT_EQ(low.prio, 156);
  EXPECT_EQ(high.prio, 55);
  EXPECT_EQ(policy.setup(bad, {sched_kind::fifo, 0, 255, 0, 0, 0}), errc::ok);
  EXPECT_EQ(bad.prio, 0);
  EXPECT_EQ(policy.setup(bad, {sched_kind::fifo, 0, 0, 0, 0, 0}), errc::out_of_range);
  EXPECT_EQ(bad.prio, 0) << "a refusal changes nothing";
  policy.enqueue(low, sched_time{}, enqueue_flags::wakeup);
  ASSERT_EQ(policy.schedule(nullptr, false, sched_time{}), &low);
  policy.enqueue(high, sched_time{}, enqueue_flags::wakeup);
  EXPECT_TRUE(policy.wakeup_preempt(high, low, sched_time{}));
  EXPECT_EQ(policy.schedule(&low, true, sched_time{}), &high);
  EXPECT_TRUE(policy.verify());
}

// A task never passed to setup() has rt_priority 0, which no setup accepts; its entity's prio
// 0 is the most urgent level, so enqueuing it would put it above FIFO 99. Refused and reported.
TEST(RtPolicy, ATaskNeverSetUpIsRefusedAndReported) {
  rt_policy<task> policy;
  task never;
  schedcore_test::check_scope scope;
  policy.enqueue(never, sched_time{}, enqueue_flags::wakeup);
  EXPECT_EQ(scope.take().size(), 1u);
  EXPECT_EQ(policy.nr_runnable(), 0u);
  EXPECT_EQ(policy.pick_next(sched_time{}), nullptr);
  EXPECT_TRUE(policy.verify());
}

TEST(RtPolicy, DoubleEnqueueIsRefusedAndReported) {
  rt_policy<task> policy;
  task t = make(sched_kind::fifo, 10);
  policy.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  schedcore_test::check_scope scope;
  policy.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  EXPECT_EQ(scope.take().size(), 1u);
  EXPECT_EQ(policy.nr_runnable(), 1u);
  EXPECT_TRUE(policy.verify());
}

// A tick for a task that is not the running one (a stale pointer after its dequeue) is
// refused and reported: no reschedule, no charge to the RR slice or the class's budget.
TEST(RtPolicy, ATickForATaskThatIsNotRunningIsRefusedAndReported) {
  rt_policy<task> p;
  ASSERT_EQ(p.configure({msec(100), msec(10), msec(100)}), errc::ok);
  task a = make(sched_kind::rr, 10), b = make(sched_kind::rr, 10);
  const sched_time t0{};
  p.enqueue(a, t0, enqueue_flags::wakeup);
  p.enqueue(b, t0, enqueue_flags::wakeup);
  p.set_next(a, t0);
  p.dequeue(a, t0 + msec(1), dequeue_flags::sleep);
  const auto left = b.slice_left;
  schedcore_test::check_scope scope;
  EXPECT_FALSE(p.tick(b, t0 + msec(50)));
  EXPECT_EQ(scope.take().size(), 1u);
  EXPECT_EQ(b.slice_left, left);
  EXPECT_FALSE(p.throttled()) << "b's 50 ms were not charged to the 10 ms budget";
  EXPECT_TRUE(p.verify());
}

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

TEST(RtPolicy, RuntimeEqualToPeriodIsAcceptedAndNeverThrottles) {
  // Linux kernel/sched/rt.c sched_rt_global_validate(): -EINVAL only if
  // "sysctl_sched_rt_runtime > sysctl_sched_rt_period" -- runtime == period is valid; and
  // sched_rt_runtime_exceeded() returns 0 early "if (runtime >= sched_rt_period(rt_rq))", so such
  // a class never throttles (algorithms-modern.md §4: throttling only above the runtime).
  rt_policy<task> policy;
  ASSERT_EQ(policy.configure({msec(100), sec(1), sec(1)}), errc::ok);
  EXPECT_EQ(policy.config().runtime, sec(1));
  EXPECT_EQ(policy.configure({msec(100), sec(1) + 1, sec(1)}), errc::inverted);
  EXPECT_EQ(policy.config().runtime, sec(1)) << "a refused configure changes nothing";
  task t = make(sched_kind::fifo, 50);
  const sched_time t0{};
  policy.enqueue(t, t0, enqueue_flags::wakeup);
  policy.set_next(t, t0);
  for (int ms = 1; ms <= 3000; ++ms) policy.tick(t, t0 + msec(ms));
  EXPECT_FALSE(policy.throttled()) << "runtime >= period: never throttled";
}

TEST(RtPolicy, RunTimeExactlyAtTheRuntimeNeitherBorrowsNorThrottles) {
  // Linux kernel/sched/rt.c: balance_runtime() calls do_balance_runtime() only "if
  // (rt_rq->rt_time > rt_rq->rt_runtime)", and sched_rt_runtime_exceeded() throttles only "if
  // (rt_rq->rt_time > runtime)" -- both strictly past the runtime (algorithms-modern.md §4:
  // "above the runtime the rt_rq is dequeued"). Exactly 500 ms of a 500 ms budget: no borrow
  // attempt, no throttle; 1 ns more: one borrow attempt (which finds nothing), then throttled.
  struct counter {
    int calls = 0;
    static void borrow(void* ctx, rt_policy<task>&, sched_time) noexcept { ++static_cast<counter*>(ctx)->calls; }
  } c;
  rt_policy<task> rq;
  ASSERT_EQ(rq.configure({msec(100), msec(500), sec(1)}), errc::ok);
  rq.set_runtime_share(&counter::borrow, &c);
  task t = make(sched_kind::fifo, 50);
  const sched_time t0{};
  rq.enqueue(t, t0, enqueue_flags::wakeup);
  rq.set_next(t, t0);
  rq.put_prev(t, t0 + msec(500));
  EXPECT_EQ(rq.rt_time(), msec(500));
  EXPECT_EQ(c.calls, 0);
  EXPECT_FALSE(rq.throttled());
  rq.set_next(t, t0 + msec(500));
  rq.put_prev(t, t0 + msec(500) + 1);
  EXPECT_EQ(c.calls, 1);
  EXPECT_TRUE(rq.throttled());
}

TEST(RtPolicy, ABorrowThatCoversTheRunTimeExactlyAvoidsTheThrottle) {
  // Linux kernel/sched/rt.c sched_rt_runtime_exceeded(): "balance_runtime(rt_rq); runtime =
  // sched_rt_runtime(rt_rq); ... if (rt_rq->rt_time > runtime) { ... throttle }" -- the test
  // after borrowing is strict. do_balance_runtime() moves diff = (lender's rt_runtime - rt_time)
  // / weight (here 2 CPUs): an idle lender with 500 ms gives 250 ms, so a borrower that ran
  // exactly 750 ms ends with rt_runtime 750 ms == rt_time and is not throttled.
  struct pair {
    rt_policy<task>* lender;
    static void borrow(void* ctx, rt_policy<task>& b, sched_time now) noexcept {
      static_cast<pair*>(ctx)->lender->lend_runtime(b, 2, now);
    }
  };
  rt_policy<task> a, b;
  ASSERT_EQ(a.configure({msec(100), msec(500), sec(1)}), errc::ok);
  ASSERT_EQ(b.configure({msec(100), msec(500), sec(1)}), errc::ok);
  pair ctx{&b};
  a.set_runtime_share(&pair::borrow, &ctx);
  task t = make(sched_kind::fifo, 50);
  const sched_time t0{};
  a.enqueue(t, t0, enqueue_flags::wakeup);
  a.set_next(t, t0);
  a.put_prev(t, t0 + msec(750));
  EXPECT_EQ(a.runtime(), msec(750));
  EXPECT_EQ(b.runtime(), msec(250));
  EXPECT_EQ(a.rt_time(), msec(750));
  EXPECT_FALSE(a.throttled()) << "750 > 750 is false";
}

TEST(RtPolicy, FifoPeersNeverAlternateWithTickCountedSlicesO42) {
  // Linux kernel/sched/rt.c task_tick_rt(): "/* RR tasks need a special form of timeslice
  // management. FIFO tasks have no timeslices. */ if (p->policy != SCHED_RR) return;"
  // (algorithms-modern.md §4: FIFO runs until it blocks, yields or a higher priority arrives).
  // The same as FifoPeersNeverAlternateO42, with the slice counted in jiffies (hz set), where a
  // FIFO task's tick must not count down any slice either.
  rt policy;
  ASSERT_EQ(policy.configure({msec(100), -1, sec(1), 1000}), errc::ok);
  task a = make(sched_kind::fifo, 50), b = make(sched_kind::fifo, 50);
  tick_driver<rt> d(policy, 1000);
  d.add(a, behaviour::hog());
  d.add(b, behaviour::hog(usec(10)));
  d.run_until(sec(2));
  EXPECT_EQ(d.stats(0).cpu_ns, sec(2));
  EXPECT_EQ(d.stats(1).cpu_ns, 0);
}

TEST(RtPolicy, ALoneRoundRobinTaskIsNotRescheduledAtItsSliceEnd) {
  // Linux kernel/sched/rt.c task_tick_rt(): at the end of an RR slice "p->rt.time_slice =
  // sched_rr_timeslice; /* Requeue to the end of queue if we (and all of our ancestors) are not
  // the only element on the queue */ ... if (rt_se->run_list.prev != rt_se->run_list.next) {
  // requeue_task_rt(rq, p, 0); resched_curr(rq); return; }" -- alone at its priority (a less
  // urgent RR task elsewhere does not count) it gets a fresh slice and no reschedule
  // (algorithms-modern.md §4: "requeued at the tail if it has a same-priority peer").
  rt_policy<task> p;
  ASSERT_EQ(p.configure({msec(100), -1, sec(1)}), errc::ok);
  task a = make(sched_kind::rr, 50), low = make(sched_kind::rr, 10);
  const sched_time t0{};
  p.enqueue(a, t0, enqueue_flags::wakeup);
  p.enqueue(low, t0, enqueue_flags::wakeup);
  p.set_next(a, t0);
  for (int ms = 1; ms <= 350; ++ms) EXPECT_FALSE(p.tick(a, t0 + msec(ms))) << "at " << ms << " ms";
  EXPECT_EQ(a.slice_left, msec(50)) << "refilled at 100, 200 and 300 ms";
  EXPECT_EQ(p.pick_next(t0 + msec(350)), &a);
}

TEST(RtPolicy, AnEqualPriorityWakeupDoesNotAskForPreemption) {
  // Linux kernel/sched/rt.c check_preempt_curr_rt(): "if (p->prio < rq->curr->prio) {
  // resched_curr(rq); return; }" -- strictly more urgent (the equal-priority case only tries to
  // push on SMP, check_preempt_equal_prio). algorithms-modern.md §4: FIFO runs until it blocks,
  // yields or a *higher* priority arrives. FifoPeersNeverAlternateO42 cannot see this: an
  // equal-priority "preemption" re-picks the same task from the head.
  rt_policy<task> p;
  task curr = make(sched_kind::fifo, 50), same = make(sched_kind::rr, 50), higher = make(sched_kind::fifo, 51);
  const sched_time t0{};
  p.enqueue(curr, t0, enqueue_flags::wakeup);
  p.set_next(curr, t0);
  p.enqueue(same, t0, enqueue_flags::wakeup);
  p.enqueue(higher, t0, enqueue_flags::wakeup);
  EXPECT_FALSE(p.wakeup_preempt(same, curr, t0));
  EXPECT_TRUE(p.wakeup_preempt(higher, curr, t0));
}

TEST(RtPolicy, ThrottleEndsOnlyOnceTheCarriedRunTimeIsBelowTheRuntime) {
  // Linux kernel/sched/rt.c do_sched_rt_period_timer(): "rt_rq->rt_time -= min(rt_rq->rt_time,
  // overrun*runtime); if (rt_rq->rt_throttled && rt_rq->rt_time < runtime) { rt_rq->rt_throttled
  // = 0; ...}" -- strictly below (algorithms-modern.md §4: "The period timer subtracts up to
  // overrun·runtime and unthrottles"). 300 ms per 1 s: a 600 ms run leaves 600 - 300 = 300 ms at
  // the 1 s boundary, not < 300: still throttled; at 2 s 0 < 300: runnable. Likewise 750 ms
  // (450 ms carried, capped at 300 here; the kernel keeps 450: throttled either way).
  for (const s64 ran_ms : {600, 750}) {
    rt_policy<task> p;
    ASSERT_EQ(p.configure({msec(100), msec(300), sec(1)}), errc::ok);
    task a = make(sched_kind::fifo, 50);
    const sched_time t0{};
    p.enqueue(a, t0, enqueue_flags::wakeup);
    p.set_next(a, t0);
    EXPECT_TRUE(p.tick(a, t0 + msec(ran_ms)));
    ASSERT_TRUE(p.throttled());
    (void)p.timer(t0 + sec(1));
    EXPECT_TRUE(p.throttled()) << ran_ms << " ms: still >= the runtime after one period";
    (void)p.timer(t0 + sec(2));
    EXPECT_FALSE(p.throttled()) << ran_ms << " ms";
  }
}

// The kernel refills an RR task's p->rt.time_slice only at its expiry in task_tick_rt and at
// fork (__sched_fork); a move between CPUs (push_rt_task / pull_rt_task: deactivate_task,
// set_task_cpu, activate_task) and a wakeup on another CPU leave it alone. So a task preempted
// with 70 ms of its slice left, pulled to another CPU where it runs 10 ms, then asleep and woken
// back on the first, still has 60 ms and rotates behind an equal peer after 60 ms there, not 100.
TEST(RtPolicy, TheRoundRobinSliceLeftCrossesCpusWithTheTask) {
  rt rq0, rq1;
  ASSERT_EQ(rq0.configure({msec(100), -1, sec(1)}), errc::ok);
  ASSERT_EQ(rq1.configure({msec(100), -1, sec(1)}), errc::ok);
  task a = make(sched_kind::rr, 50), urgent = make(sched_kind::fifo, 90), peer = make(sched_kind::rr, 50);
  const sched_time t0{};
  rq0.enqueue(a, t0, enqueue_flags::wakeup);
  ASSERT_EQ(rq0.schedule(nullptr, false, t0), &a);
  EXPECT_FALSE(rq0.tick(a, t0 + msec(30)));
  rq0.enqueue(urgent, t0 + msec(30), enqueue_flags::wakeup);
  ASSERT_TRUE(rq0.wakeup_preempt(urgent, a, t0 + msec(30)));
  ASSERT_EQ(rq0.schedule(&a, true, t0 + msec(30)), &urgent);
  ASSERT_EQ(a.slice_left, msec(70));
  rq0.dequeue(a, t0 + msec(30), dequeue_flags::migrating);  // pulled by CPU 1
  rq1.enqueue(a, t0 + msec(30), enqueue_flags::migrated);
  EXPECT_EQ(a.slice_left, msec(70)) << "a move between CPUs keeps the slice";
  ASSERT_EQ(rq1.schedule(nullptr, false, t0 + msec(30)), &a);
  EXPECT_FALSE(rq1.tick(a, t0 + msec(40)));
  rq1.dequeue(a, t0 + msec(40), dequeue_flags::sleep);
  policy_traits<rt_policy<task>>::migrate_task_rq(rq1, a, t0 + msec(50));
  rq0.enqueue(a, t0 + msec(50), enqueue_flags::wakeup | enqueue_flags::migrated);  // wakes on CPU 0
  EXPECT_EQ(a.slice_left, msec(60)) << "and so does a wakeup on another CPU";
  rq0.dequeue(urgent, t0 + msec(50), dequeue_flags::sleep);
  rq0.enqueue(peer, t0 + msec(50), enqueue_flags::wakeup);
  ASSERT_EQ(rq0.schedule(nullptr, false, t0 + msec(50)), &a);
  EXPECT_FALSE(rq0.tick(a, t0 + msec(100)));
  EXPECT_TRUE(rq0.tick(a, t0 + msec(110))) << "the 60 ms left run out: behind its peer";
  EXPECT_TRUE(rq0.verify());
  EXPECT_TRUE(rq1.verify());
}

// Random two-CPU histories (tests/support/cross_queue_diff.hpp): the parent's half of a fork
// onto the other CPU (the kernel runs it in the parent's context, on the parent's queue) does
// not depend on what the child's CPU holds.
struct xq_params {
  static sched_params draw(schedcore_test::xq_rng& r) {
    const sched_kind kind = r.below(2) == 0 ? sched_kind::fifo : sched_kind::rr;
    return sched_params{kind, 0, static_cast<u8>(1 + r.below(10)), 0, 0, 0};
  }
};

TEST(RtPolicy, RandomForksAcrossCpusLeaveTheParentsQueueAlone) {
  schedcore_test::expect_forks_leave_the_parents_queue_alone<rt_policy<task>, xq_params>();
}

// ... and a task that sleeps on one CPU and wakes on the other behaves there whatever its old
// CPU did after it left: the RR slice left travels with the task.
TEST(RtPolicy, RandomWakeupsAcrossCpusDoNotReadTheOldQueue) {
  schedcore_test::expect_wakeups_do_not_read_the_old_queue<rt_policy<task>, xq_params>();
}

}  // namespace

// sched_rt_runtime_exceeded: past the runtime, `if (likely(rt_b->rt_runtime)) { throttle }
// else { rt_rq->rt_time = 0; }` ("Don't actually throttle groups that have no runtime
// assigned but accrue some time due to boosting"). With the knob at 0 a FIFO hog is never
// throttled: it runs all 3 s (it was throttled at its first tick and got 6 ms of 3 s).
TEST(RtPolicy, ARuntimeOfZeroNeverThrottles) {
  rt_policy<task> p;
  ASSERT_EQ(p.configure({msec(100), 0, sec(1)}), errc::ok);
  task a = make(sched_kind::fifo, 50);
  const sched_time t0{};
  p.enqueue(a, t0, enqueue_flags::wakeup);
  p.set_next(a, t0);
  for (int ms = 1; ms <= 3000; ++ms) {
    const sched_time now = t0 + msec(ms);
    sched_time when{};
    while (p.next_timer(when) && when <= now) (void)p.timer(when);
    ASSERT_FALSE(p.tick(a, now)) << ms;
    ASSERT_FALSE(p.throttled()) << ms;
  }
  EXPECT_EQ(p.pick_next(t0 + sec(3)), &a);
}

// A runtime shorter than a tick: the kernel charges a whole tick (10 ms at HZ 100), throttles,
// and do_sched_rt_period_timer pays it down by one runtime (1 ms) per 50 ms period, so the hog
// runs again only after 10 periods: 0-10 ms and 500-510 ms, 2 ticks a second. With `hz` the
// carry is capped at a tick, not at the runtime (which let it run every 100 ms: 10 ticks).
TEST(RtPolicy, ARuntimeShorterThanATickCarriesTheWholeTick) {
  rt_policy<task> p;
  ASSERT_EQ(p.configure({msec(100), msec(1), msec(50), 100}), errc::ok);
  task a = make(sched_kind::fifo, 50);
  const sched_time t0{};
  p.enqueue(a, t0, enqueue_flags::wakeup);
  p.set_next(a, t0);
  bool running = true;
  sched_time start = t0;
  duration_ns ran = 0;
  std::vector<int> starts{0};
  for (int ms = 10; ms <= 1000; ms += 10) {
    const sched_time now = t0 + msec(ms);
    sched_time when{};
    while (p.next_timer(when) && when <= now) (void)p.timer(when);
    if (running) {
      (void)p.tick(a, now);
      if (p.throttled()) {
        p.put_prev(a, now);
        ran += now - start;
        running = false;
      }
    } else if (!p.throttled()) {
      ASSERT_EQ(p.pick_next(now), &a);
      p.set_next(a, now);
      running = true;
      start = now;
      starts.push_back(ms);
    }
  }
  if (running) ran += (t0 + sec(1)) - start;
  EXPECT_EQ(ran, msec(20));
  EXPECT_EQ(starts, (std::vector<int>{0, 500, 1000}));  // and again at 1 s
}
