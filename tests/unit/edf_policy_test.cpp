// edf_policy (SCHED_DEADLINE: EDF + CBS + admission control) against the oracles of
// algorithms-modern.md §5, driven by the tick driver, the periodic-job driver
// (eevdf_driver_ext.hpp) and direct hook calls.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

#include "check_recorder.hpp"
#include "eevdf_driver_ext.hpp"
#include "schedcore/policy/edf.hpp"
#include "tick_driver.hpp"

namespace {

using namespace schedcore;
using schedcore_test::behaviour;
using schedcore_test::periodic_driver;
using schedcore_test::periodic_spec;
using schedcore_test::single_class;
using schedcore_test::tick_driver;

struct task : edf_entity {
  int id = 0;
};

using policy_t = edf_policy<task>;
using driven = single_class<policy_t>;

sched_params dl(std::int64_t q, std::int64_t d, std::int64_t p = 0) {
  return sched_params{sched_kind::deadline, 0, 0, q, d, p};
}

policy_t::knobs knobs_with(std::int64_t bound, std::int64_t hrtick = 0) {
  policy_t::knobs k;
  k.bound = bound;
  k.hrtick = hrtick;
  return k;
}

// The run time sink (kernels up to 6.11 share the RT bandwidth: update_curr_dl adds
// delta_exec to rt_rq->rt_time) gets the wall time curr ran, unscaled: at half frequency a
// 2 ms budget lasts 4 ms, and the sink sees all 4 ms, in the charges the hooks make; nothing
// for a throttled curr, nothing once removed.
TEST(EdfPolicy, TheRunTimeSinkSeesEveryChargeUnscaled) {
  struct seen {
    std::int64_t ns = 0;
    int calls = 0;
    sched_time last{};
  } sink;
  const auto count = [](void* ctx, duration_ns ran, sched_time now) noexcept {
    seen& s = *static_cast<seen*>(ctx);
    s.ns += ran;
    ++s.calls;
    s.last = now;
  };
  policy_t p;
  ASSERT_EQ(p.set_capacity(512, 1024), errc::ok);
  p.set_run_time_sink(count, &sink);
  task t;
  ASSERT_EQ(p.setup(t, dl(msec(2), msec(10))), errc::ok);
  const sched_time t0{};
  p.enqueue(t, t0, enqueue_flags::wakeup);
  ASSERT_EQ(p.pick_next(t0), &t);
  p.set_next(t, t0);
  for (int ms = 1; ms <= 4; ++ms) (void)p.tick(t, t0 + msec(ms));
  EXPECT_EQ(sink.ns, msec(4));
  EXPECT_EQ(sink.calls, 4);
  EXPECT_EQ(sink.last, t0 + msec(4));
  EXPECT_TRUE(t.throttled) << "2 ms of budget at half speed is spent after 4 ms";
  (void)p.tick(t, t0 + msec(5));  // a throttled curr runs nothing
  EXPECT_EQ(sink.ns, msec(4));
  p.put_prev(t, t0 + msec(5));
  p.set_run_time_sink(nullptr, nullptr);
  sched_time when{};
  ASSERT_TRUE(p.next_timer(when));
  (void)p.timer(when);
  p.set_next(t, when);
  (void)p.tick(t, when + msec(1));
  EXPECT_EQ(sink.calls, 4);
  EXPECT_TRUE(p.verify());
}

TEST(EdfPolicy, SpinningTaskGetsExactlyItsRuntimePerPeriodO51) {
  // algorithms-modern.md §5 O5.1: Q = 10 ms, P = D = 100 ms, spinning: exactly 10 ms per
  // 100 ms, and d runs 100, 200, ... ms.
  for (int hrtick = 0; hrtick <= 1; ++hrtick) {
    driven p;
    ASSERT_EQ(p.configure(knobs_with(95, hrtick)), errc::ok);
    task t;
    ASSERT_EQ(p.setup(t, dl(msec(10), msec(100))), errc::ok);
    tick_driver<driven> d(p, 1000);
    d.add(t, behaviour::hog());
    for (int k = 1; k <= 50; ++k) {
      d.run_until(msec(100) * k);
      EXPECT_EQ(d.stats(0).cpu_ns, msec(10) * k) << "after period " << k;
      // At the end of period k the timer has not fired yet (it fires at that instant on the
      // next step): deadline of the current period is 100 k ms.
      EXPECT_EQ(t.deadline - sched_time{}, msec(100) * k);
    }
    EXPECT_TRUE(p.verify());
  }
}

TEST(EdfPolicy, AdmissionRefusesOverTheBoundO52) {
  // algorithms-modern.md §5 O5.2: 4 CPUs allow U <= 3.8; four tasks at 0.9 accepted, a fifth
  // at 0.25 refused; Q > D refused.
  policy_t p;
  policy_t::knobs k;
  k.cpus = 4;
  ASSERT_EQ(p.configure(k), errc::ok);
  // cap = 4 x floor(95 << 20 / 100) = 4 x 996147 (independent arithmetic).
  EXPECT_EQ(p.bandwidth_cap(), 4u * ((95ull << 20) / 100u));
  task t[6];
  for (int i = 0; i < 4; ++i) EXPECT_EQ(p.setup(t[i], dl(msec(90), msec(100))), errc::ok) << i;
  const u64 before = p.total_bandwidth();
  EXPECT_EQ(before, 4u * ((90ull << 20) / 100u));
  EXPECT_EQ(p.setup(t[4], dl(msec(25), msec(100))), errc::overloaded);
  EXPECT_EQ(p.total_bandwidth(), before);
  EXPECT_EQ(t[4].dl_runtime, 0);
  EXPECT_FALSE(t[4].admitted);
  EXPECT_EQ(p.setup(t[5], dl(msec(20), msec(10), msec(100))), errc::inverted) << "Q > D";
  // task_dead releases bandwidth: the refused task fits afterwards.
  p.task_dead(t[0], sched_time{});
  EXPECT_EQ(p.setup(t[4], dl(msec(25), msec(100))), errc::ok);
  // Replacing an admitted task's parameters accounts only the difference.
  EXPECT_EQ(p.setup(t[1], dl(msec(95), msec(100))), errc::ok);
  // Lowering the bound below what is admitted is refused.
  k.bound = 50;
  EXPECT_EQ(p.configure(k), errc::overloaded);
  EXPECT_EQ(p.config().bound, 95);
  // bound -1 disables the test.
  k.bound = -1;
  ASSERT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.setup(t[5], dl(msec(99), msec(100))), errc::ok);

  // A bound exactly at the admitted bandwidth is accepted (sched_dl_global_validate refuses
  // only new_bw x cpus < total_bw): one CPU holding a 1/2 reservation, (1 << 20) / 2 = 524288,
  // against a cap of (50 << 20) / 100 = 524288 at 50 %; 49 % refused; the exact fit is also
  // admitted by setup, a microsecond more of runtime is not.
  policy_t one;
  policy_t::knobs k1;
  ASSERT_EQ(one.configure(k1), errc::ok);
  task h, extra;
  ASSERT_EQ(one.setup(h, dl(msec(50), msec(100))), errc::ok);
  ASSERT_EQ(one.total_bandwidth(), 524288u);
  k1.bound = 50;
  EXPECT_EQ(one.configure(k1), errc::ok);
  EXPECT_EQ(one.bandwidth_cap(), 524288u);
  k1.bound = 49;
  EXPECT_EQ(one.configure(k1), errc::overloaded);
  EXPECT_EQ(one.config().bound, 50);
  one.task_dead(h, sched_time{});
  EXPECT_EQ(one.setup(extra, dl(msec(50), msec(100))), errc::ok);
  one.task_dead(extra, sched_time{});
  EXPECT_EQ(one.setup(extra, dl(usec(50001), msec(100))), errc::overloaded);  // 524298
}

TEST(EdfPolicy, WakeupRuleO54) {
  // algorithms-modern.md §5 O5.4: a wakeup at t = 50 with q = 8, d = 60 (Q = 10, D = 100):
  // 8/10 > 10/100, so d becomes 150 and q 10.
  const sched_time base{sec(1)};
  auto at = [&](std::int64_t ms) { return base + msec(ms); };
  {
    policy_t p;
    task t;
    ASSERT_EQ(p.setup(t, dl(msec(10), msec(100))), errc::ok);
    p.enqueue(t, at(-40), enqueue_flags::wakeup);  // new period: d = 60, q = 10
    p.set_next(t, at(-40));
    p.dequeue(t, at(-38), dequeue_flags::sleep);  // ran 2 ms: q = 8
    ASSERT_EQ(t.runtime, msec(8));
    ASSERT_EQ(t.deadline, at(60));
    p.enqueue(t, at(50), enqueue_flags::wakeup);
    EXPECT_EQ(t.deadline, at(150));
    EXPECT_EQ(t.runtime, msec(10));
  }
  {
    // No overflow: q = 1 with 60 ms left: 1/60 < 10/100: d and q are kept.
    policy_t p;
    task t;
    ASSERT_EQ(p.setup(t, dl(msec(10), msec(100))), errc::ok);
    p.enqueue(t, at(-40), enqueue_flags::wakeup);
    p.set_next(t, at(-40));
    p.dequeue(t, at(-31), dequeue_flags::sleep);
    p.enqueue(t, at(0), enqueue_flags::wakeup);
    EXPECT_EQ(t.deadline, at(60));
    EXPECT_EQ(t.runtime, msec(1));
  }
  {
    // Revised rule for D < P (Abeni, Lipari, Lelli 2015; §5): Q = 10, D = 50, P = 100. q = 8,
    // d = 50, wake at 40: 8/10 > 10/50, so d is kept and q = (Q/D)(d - now) = 0.2 x 10 ms.
    policy_t p;
    task t;
    ASSERT_EQ(p.setup(t, dl(msec(10), msec(50), msec(100))), errc::ok);
    p.enqueue(t, at(0), enqueue_flags::wakeup);
    p.set_next(t, at(0));
    p.dequeue(t, at(2), dequeue_flags::sleep);
    p.enqueue(t, at(40), enqueue_flags::wakeup);
    EXPECT_EQ(t.deadline, at(50));
    EXPECT_NEAR(static_cast<double>(t.runtime), 2e6, 2.0) << "fixed point (Q << 20) / D";
    EXPECT_LE(t.runtime, msec(2));
  }
  {
    // Constrained-deadline rule (§5): the same task woken at 60 (after d = 50, before the next
    // period at 100) is throttled until 100, then replenished: d = 150, q = 10.
    driven p;
    task t;
    ASSERT_EQ(p.setup(t, dl(msec(10), msec(50), msec(100))), errc::ok);
    p.enqueue(t, at(0), enqueue_flags::wakeup);
    p.set_next(t, at(0));
    p.dequeue(t, at(2), dequeue_flags::sleep);
    p.enqueue(t, at(60), enqueue_flags::wakeup);
    EXPECT_TRUE(t.throttled);
    EXPECT_EQ(p.pick_next(at(60)), nullptr);
    sched_time when{};
    ASSERT_TRUE(p.next_timer(when));
    EXPECT_EQ(when, at(100));
    EXPECT_TRUE(p.timer(at(100)));
    EXPECT_EQ(t.deadline, at(150));
    EXPECT_EQ(t.runtime, msec(10));
    EXPECT_EQ(p.pick_next(at(100)), &t);
    EXPECT_TRUE(p.verify());
  }
}

// EDF optimality on one CPU (Liu and Layland 1973; the CBS of §5 with Q = C, D = P = T): a
// periodic set with U <= 1 meets every deadline.
void run_periodic_set(const std::vector<periodic_spec>& set, std::int64_t total, int hrtick) {
  driven p;
  ASSERT_EQ(p.configure(knobs_with(100, hrtick)), errc::ok);
  std::vector<task> tasks(set.size());
  periodic_driver<driven> d(p, 1000, sched_time{std::numeric_limits<u64>::max() - msec(30)}, sec(1));
  for (std::size_t i = 0; i < set.size(); ++i) {
    const std::int64_t dd = set[i].deadline_ns ? set[i].deadline_ns : set[i].period_ns;
    ASSERT_EQ(p.setup(tasks[i], dl(set[i].cost_ns, dd, set[i].period_ns)), errc::ok);
    d.add(tasks[i], set[i]);
  }
  std::int64_t step = msec(97);
  for (std::int64_t at = step; at < total; at += step) {
    d.run_until(at);
    ASSERT_TRUE(p.verify());
  }
  d.run_until(total);
  for (std::size_t i = 0; i < set.size(); ++i) {
    const auto& st = d.stats(i);
    EXPECT_EQ(st.misses, 0u) << "task " << i;
    EXPECT_EQ(d.overdue(i), 0u) << "task " << i;
    EXPECT_GE(st.completed + 1, st.released) << "task " << i;
    EXPECT_GT(st.completed, 0u);
    EXPECT_LE(st.max_lateness_ns, 0);
  }
}

TEST(EdfPolicy, FullUtilisationSetMissesNoDeadline) {
  // U = 2/5 + 3/10 + 3/10 = 1.0; hyperperiod 10 ms; 1000 hyperperiods.
  for (int hrtick = 0; hrtick <= 1; ++hrtick)
    run_periodic_set({{msec(2), msec(5), 0, 0}, {msec(3), msec(10), 0, usec(300)}, {msec(3), msec(10), 0, usec(700)}},
                     sec(10), hrtick);
}

TEST(EdfPolicy, NonHarmonicSetMissesNoDeadline) {
  // U = 1/3 + 2/7 + 3/11 + 1/13 = 0.968; hyperperiod 3003 ms; 5 hyperperiods; odd offsets.
  run_periodic_set({{msec(1), msec(3), 0, 0},
                    {msec(2), msec(7), 0, usec(1100)},
                    {msec(3), msec(11), 0, usec(2300)},
                    {msec(1), msec(13), 0, usec(500)}},
                   msec(3003) * 5, 0);
}

TEST(EdfPolicy, ConstrainedDeadlineSetMissesNoDeadline) {
  // Density test: sum Q/D = 1/2 + 2/8 + 1/5 = 0.95 <= 1 suffices for D < P.
  run_periodic_set({{msec(1), msec(4), msec(2), 0}, {msec(2), msec(10), msec(8), usec(100)},
                    {msec(1), msec(20), msec(5), usec(3100)}},
                   sec(5), 1);
}

TEST(EdfPolicy, OverrunningTaskIsThrottledWithoutTakingOthersBandwidth) {
  // CBS isolation (§5): B reserves Q = 3 ms per 10 ms but spins; A (2/10) and C (4/20) keep
  // every deadline and B gets exactly its 30 %, never the idle time beyond it.
  for (int hrtick = 0; hrtick <= 1; ++hrtick) {
    driven p;
    ASSERT_EQ(p.configure(knobs_with(95, hrtick)), errc::ok);
    task a, b, c;
    ASSERT_EQ(p.setup(a, dl(msec(2), msec(10))), errc::ok);
    ASSERT_EQ(p.setup(b, dl(msec(3), msec(10))), errc::ok);
    ASSERT_EQ(p.setup(c, dl(msec(4), msec(20))), errc::ok);
    periodic_driver<driven> d(p, 1000, sched_time{}, msec(10));
    d.add(a, {msec(2), msec(10), 0, usec(1500)});
    d.add(b, {0, msec(10), 0, 0});  // a hog
    d.add(c, {msec(4), msec(20), 0, usec(4200)});
    d.run_until(sec(5));
    EXPECT_EQ(d.stats(0).misses, 0u);
    EXPECT_EQ(d.stats(2).misses, 0u);
    EXPECT_EQ(d.stats(1).cpu_ns, msec(1500)) << "3 ms of every 10 ms";
    for (std::size_t w = 0; w < d.stats(1).cpu_per_window.size(); ++w)
      EXPECT_EQ(d.stats(1).cpu_per_window[w], msec(3)) << "window " << w;
    EXPECT_TRUE(p.verify());
  }
}

TEST(EdfPolicy, OverrunAtTickResolutionIsPaidBackNextPeriod) {
  // Without HRTICK_DL the budget is checked at ticks: Q = 2.5 ms runs until the 3 ms tick
  // (q = -0.5 ms) and the next period gives 2.0 ms (q += Q); over 2 periods 5 ms exactly.
  driven p;
  task t;
  ASSERT_EQ(p.setup(t, dl(usec(2500), msec(10))), errc::ok);
  tick_driver<driven> d(p, 1000);
  d.add(t, behaviour::hog());
  d.run_until(msec(10));
  EXPECT_EQ(d.stats(0).cpu_ns, msec(3));
  d.run_until(msec(20));
  EXPECT_EQ(d.stats(0).cpu_ns, msec(5));
}

TEST(EdfPolicy, YieldGivesUpTheRestOfThePeriod) {
  // §5 / DLDOC §4.4: sched_yield() throttles the task until its next period.
  driven p;
  task t, u;
  ASSERT_EQ(p.setup(t, dl(msec(10), msec(100))), errc::ok);
  ASSERT_EQ(p.setup(u, dl(msec(10), msec(300))), errc::ok);
  const sched_time t0{};
  p.enqueue(t, t0, enqueue_flags::wakeup);
  p.enqueue(u, t0, enqueue_flags::wakeup);
  ASSERT_EQ(p.schedule(nullptr, false, t0), &t);
  p.yield(t, t0 + msec(3));
  EXPECT_TRUE(t.throttled);
  EXPECT_EQ(p.schedule(&t, true, t0 + msec(3)), &u);
  sched_time when{};
  ASSERT_TRUE(p.next_timer(when));
  EXPECT_EQ(when, t0 + msec(100));
  EXPECT_TRUE(p.timer(t0 + msec(100)));
  EXPECT_EQ(t.deadline, t0 + msec(200));
  EXPECT_EQ(t.runtime, msec(10));
  EXPECT_TRUE(p.verify());
}

TEST(EdfPolicy, EarlierDeadlineWakeupPreempts) {
  policy_t p;
  task a, b;
  ASSERT_EQ(p.setup(a, dl(msec(5), msec(100))), errc::ok);
  ASSERT_EQ(p.setup(b, dl(msec(5), msec(20))), errc::ok);
  const sched_time t0{};
  p.enqueue(a, t0, enqueue_flags::wakeup);
  p.set_next(a, t0);
  p.enqueue(b, t0 + msec(1), enqueue_flags::wakeup);
  EXPECT_TRUE(p.wakeup_preempt(b, a, t0 + msec(1)));
  EXPECT_FALSE(p.wakeup_preempt(a, b, t0 + msec(1)));
}

TEST(EdfPolicy, BadParametersAreRefusedWithoutChange) {
  policy_t p;
  task t;
  ASSERT_EQ(p.setup(t, dl(msec(10), msec(50), msec(100))), errc::ok);
  const u64 bw = p.total_bandwidth();
  auto unchanged = [&] {
    EXPECT_EQ(t.dl_runtime, msec(10));
    EXPECT_EQ(t.dl_deadline, msec(50));
    EXPECT_EQ(t.dl_period, msec(100));
    EXPECT_EQ(p.total_bandwidth(), bw);
  };
  EXPECT_EQ(p.setup(t, dl(msec(60), msec(50), msec(100))), errc::inverted) << "Q > D";
  unchanged();
  EXPECT_EQ(p.setup(t, dl(msec(10), msec(150), msec(100))), errc::inverted) << "D > P";
  unchanged();
  EXPECT_EQ(p.setup(t, dl(usec(10), usec(50), usec(99))), errc::invalid_argument) << "P < 100 us";
  unchanged();
  EXPECT_EQ(p.setup(t, dl(msec(10), msec(50), usec((1 << 22) + 1))), errc::invalid_argument) << "P > 2^22 us";
  unchanged();
  EXPECT_EQ(p.setup(t, dl(1023, msec(50), msec(100))), errc::invalid_argument) << "Q < 1024 ns";
  unchanged();
  EXPECT_EQ(p.setup(t, dl(0, msec(50), msec(100))), errc::invalid_argument);
  unchanged();
  EXPECT_EQ(p.setup(t, sched_params{sched_kind::normal, 0, 0, 0, 0, 0}), errc::invalid_argument);
  unchanged();
  EXPECT_EQ(p.setup(t, dl(1024, usec(100))), errc::ok) << "the limits themselves are accepted";
  EXPECT_EQ(p.setup(t, dl(msec(10), msec(50), msec(100))), errc::ok);
  p.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  EXPECT_EQ(p.setup(t, dl(msec(20), msec(50), msec(100))), errc::busy);
  unchanged();
  auto k = p.config();
  auto bad = k;
  bad.deadline_period_min = msec(10);
  bad.deadline_period_max = msec(5);
  EXPECT_EQ(p.configure(bad), errc::inverted);
  bad = k;
  bad.bound = 101;
  EXPECT_EQ(p.configure(bad), errc::invalid_argument);
  EXPECT_EQ(p.config().bound, 95);
  EXPECT_TRUE(p.verify());
}

TEST(EdfPolicy, DoubleEnqueueAndUnadmittedEnqueueAreRefusedAndReported) {
  policy_t p;
  task t, stranger;
  ASSERT_EQ(p.setup(t, dl(msec(1), msec(10))), errc::ok);
  p.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  schedcore_test::check_scope scope;
  p.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  p.enqueue(stranger, sched_time{}, enqueue_flags::wakeup);
  EXPECT_EQ(scope.take().size(), 2u);
  EXPECT_EQ(p.nr_runnable(), 1u);
  EXPECT_TRUE(p.verify());
}

// A task's bandwidth is counted by the object that admitted it. Its exit or a new setup through
// another object would take it off (or add it to) the wrong total: B's u64 total wrapped to
// 2^64 - 0.3 and refused every later admission, and a second admission left A's 0.5 counted
// forever. Both are reported and refused, with no change to either object or the task.
TEST(EdfPolicy, ExitOrSetupThroughAnObjectThatDidNotAdmitTheTaskIsRefusedAndReported) {
  policy_t a, b;
  task t, u;
  ASSERT_EQ(a.setup(t, dl(msec(3), msec(10))), errc::ok);
  const u64 a_total = a.total_bandwidth();
  EXPECT_EQ(a_total, (3ull << 20) / 10u);
  schedcore_test::check_scope scope;
  b.task_dead(t, sched_time{});
  EXPECT_EQ(scope.take().size(), 1u) << "task_dead through the wrong object was not reported";
  EXPECT_EQ(b.total_bandwidth(), 0u);
  b.switched_from(t, sched_time{});
  EXPECT_EQ(scope.take().size(), 1u) << "switched_from through the wrong object was not reported";
  EXPECT_EQ(b.total_bandwidth(), 0u);
  EXPECT_EQ(b.setup(t, dl(msec(6), msec(10))), errc::busy);
  EXPECT_EQ(scope.take().size(), 1u) << "setup through the wrong object was not reported";
  EXPECT_EQ(a.total_bandwidth(), a_total);
  EXPECT_EQ(b.total_bandwidth(), 0u);
  EXPECT_EQ(t.dl_runtime, msec(3));
  EXPECT_TRUE(t.admitted);
  // B still admits its own tasks, and A releases t.
  EXPECT_EQ(b.setup(u, dl(msec(1), msec(10))), errc::ok);
  a.task_dead(t, sched_time{});
  EXPECT_EQ(a.total_bandwidth(), 0u);
  EXPECT_FALSE(t.admitted);
  EXPECT_TRUE(scope.take().empty());
  // Released, t may be admitted anywhere.
  EXPECT_EQ(b.setup(t, dl(msec(6), msec(10))), errc::ok);
  EXPECT_EQ(b.total_bandwidth(), (1ull << 20) / 10u + (6ull << 20) / 10u);
}

TEST(EdfPolicy, SameScheduleWhenTheClockStartsJustBelowWrap) {
  auto run = [](sched_time origin) {
    driven p;
    task a, b, c;
    EXPECT_EQ(p.setup(a, dl(msec(3), msec(10))), errc::ok);
    EXPECT_EQ(p.setup(b, dl(msec(5), msec(30), msec(40))), errc::ok);
    EXPECT_EQ(p.setup(c, dl(msec(2), msec(7))), errc::ok);
    tick_driver<driven> d(p, 250, origin);
    d.add(a, behaviour::hog());
    d.add(b, behaviour::cycle(msec(7), msec(13)));
    d.add(c, behaviour::cycle(msec(1), msec(5), msec(3)));
    d.run_until(sec(2));
    EXPECT_TRUE(p.verify());
    return std::vector<std::int64_t>{d.stats(0).cpu_ns, d.stats(1).cpu_ns, d.stats(2).cpu_ns,
                                     static_cast<std::int64_t>(d.context_switches())};
  };
  const auto from_zero = run(sched_time{});
  const auto near_wrap = run(sched_time{std::numeric_limits<u64>::max() - msec(700)});
  EXPECT_EQ(from_zero, near_wrap);
  EXPECT_GT(from_zero[0], 0);
}

}  // namespace

namespace {

// Regression (found by tests/fuzz/policies_fuzz, seed corpus/policies/edf-throttled-restore):
// a running task that is throttled when the core changes its parameters goes back to the
// timer tree on enqueue(restore); the core then calls set_next for it, which must be accepted
// (the kernel's set_next_task_dl tolerates a throttled curr) and ask for a reschedule.
TEST(EdfPolicy, ThrottledRunningTaskRestoredAfterRefusedChangeIsAccepted) {
  driven p;
  task t, other;
  ASSERT_EQ(p.setup(t, dl(msec(2), msec(10))), errc::ok);
  ASSERT_EQ(p.setup(other, dl(msec(1), msec(20))), errc::ok);
  const sched_time t0{};
  p.enqueue(t, t0, enqueue_flags::wakeup);
  p.enqueue(other, t0, enqueue_flags::wakeup);
  ASSERT_EQ(p.schedule(nullptr, false, t0), &t);
  ASSERT_TRUE(p.tick(t, t0 + msec(2))) << "budget used: throttled";
  ASSERT_TRUE(t.throttled);
  schedcore_test::check_scope scope;
  p.dequeue(t, t0 + msec(2), dequeue_flags::save);
  EXPECT_NE(p.setup(t, dl(msec(20), msec(10))), errc::ok) << "runtime > deadline is refused";
  p.enqueue(t, t0 + msec(2), enqueue_flags::restore);
  p.set_next(t, t0 + msec(2));
  EXPECT_TRUE(scope.take().empty()) << "no misuse reported for a throttled curr";
  EXPECT_TRUE(p.tick(t, t0 + msec(3))) << "the throttled curr asks to be switched out";
  EXPECT_EQ(p.schedule(&t, true, t0 + msec(3)), &other);
  EXPECT_TRUE(p.verify());
}

// set_next's contract: a throttled task restored as curr "consumes nothing while throttled".
// Here its replenishment timer fires before the core switches it out (the core has not acted
// on the tick's reschedule yet), and the switch-out at that instant charges nothing: the new
// period's budget is whole, and the task has run 2 ms in all.
TEST(EdfPolicy, ThrottledCurrIsNotChargedForTheTimeItWaitedThrottled) {
  policy_t p;
  task t;
  ASSERT_EQ(p.setup(t, dl(msec(2), msec(10))), errc::ok);
  const sched_time t0{};
  p.enqueue(t, t0, enqueue_flags::wakeup);  // d = 10 ms, q = 2 ms
  p.set_next(t, t0);
  ASSERT_TRUE(p.tick(t, t0 + msec(2)));  // budget used: throttled until 10 ms
  ASSERT_TRUE(t.throttled);
  p.dequeue(t, t0 + msec(2), dequeue_flags::save);
  p.enqueue(t, t0 + msec(2), enqueue_flags::restore);
  p.set_next(t, t0 + msec(2));
  p.tick(t, t0 + msec(6));  // a tick while throttled: still nothing charged
  EXPECT_EQ(t.runtime, 0);
  EXPECT_TRUE(p.timer(t0 + msec(10)));
  EXPECT_FALSE(t.throttled);
  EXPECT_EQ(t.runtime, msec(2));
  EXPECT_EQ(t.deadline, t0 + msec(20));
  p.put_prev(t, t0 + msec(10));
  EXPECT_EQ(t.runtime, msec(2)) << "the 8 ms it waited throttled were charged";
  EXPECT_FALSE(t.throttled);
  // And it then gets its 2 ms per 10 ms, period after period.
  p.set_next(t, t0 + msec(10));
  EXPECT_TRUE(p.tick(t, t0 + msec(12)));
  EXPECT_TRUE(t.throttled);
  EXPECT_TRUE(p.timer(t0 + msec(20)));
  EXPECT_EQ(t.runtime, msec(2));
  EXPECT_EQ(t.deadline, t0 + msec(30));
  EXPECT_TRUE(p.verify());
}

// CBS isolation through parameter changes (oracle O5.1, and the kernel's __setparam_dl, which
// sets Q, D, P and the bandwidths only; enqueue_task_dl keeps a throttled task off the queue
// until its replenishment): a spinning task that calls sched_setattr each time it is throttled,
// with the same or new parameters, or with a refused change, still gets Q per P.
TEST(EdfPolicy, ParameterChangesDoNotBuyAFreshBudget) {
  for (int variant = 0; variant < 3; ++variant) {
    driven p;
    task t;
    ASSERT_EQ(p.setup(t, dl(msec(10), msec(100))), errc::ok);
    const sched_time t0{};
    p.enqueue(t, t0, enqueue_flags::wakeup);
    ASSERT_EQ(p.schedule(nullptr, false, t0), &t);
    std::int64_t ran = 0, changes = 0;
    sched_time now = t0;
    task* curr = &t;
    while (now < t0 + msec(1000)) {
      const sched_time next = now + usec(100);
      if (curr != nullptr) ran += next - now;
      now = next;
      bool resched = curr != nullptr && p.tick(*curr, now);
      sched_time when{};
      if (p.next_timer(when) && !(now < when)) resched = p.timer(now) || resched;
      if (curr != nullptr && t.throttled) {
        // It reacts to the throttle with a parameter change of the running task, in
        // sched_setscheduler's order: put_prev, dequeue(save), setup, enqueue(restore), set_next.
        p.put_prev(t, now);
        p.dequeue(t, now, dequeue_flags::save);
        const sched_params np = variant == 0   ? dl(msec(10), msec(100))
                                : variant == 1 ? dl(msec(12), msec(100))
                                               : dl(msec(200), msec(100));  // refused: Q > D
        const errc e = p.setup(t, np);
        EXPECT_EQ(e == errc::ok, variant != 2);
        p.enqueue(t, now, enqueue_flags::restore);
        p.set_next(t, now);
        ++changes;
        resched = true;
      }
      if (resched || curr == nullptr) curr = p.schedule(curr, curr != nullptr, now);
    }
    EXPECT_GE(changes, 9) << variant;
    // 10 periods of 100 ms: 10 ms each (12 ms from the first change on in variant 1).
    const std::int64_t expect = variant == 1 ? msec(10) + 9 * msec(12) : 10 * msec(10);
    EXPECT_LE(ran, expect + usec(100)) << "variant " << variant << ": ran " << ran << " ns in 1 s";
    EXPECT_GE(ran, expect - msec(12)) << "variant " << variant;
    EXPECT_TRUE(p.verify());
  }
}

// A change of an unthrottled task's parameters keeps its deadline and remaining budget (the
// kernel's restore keeps d and q unless d has passed); a task becoming a deadline task, or
// coming back after leaving the class, starts a fresh period at its first enqueue.
TEST(EdfPolicy, ParameterChangeKeepsTheCurrentPeriod) {
  policy_t p;
  task t;
  ASSERT_EQ(p.setup(t, dl(msec(10), msec(100))), errc::ok);
  const sched_time t0{};
  p.enqueue(t, t0, enqueue_flags::wakeup);  // d = 100 ms, q = 10 ms
  p.set_next(t, t0);
  p.put_prev(t, t0 + msec(9));  // q = 1 ms
  p.dequeue(t, t0 + msec(9), dequeue_flags::save);
  ASSERT_EQ(p.setup(t, dl(msec(20), msec(100))), errc::ok);
  p.enqueue(t, t0 + msec(9), enqueue_flags::restore);
  EXPECT_EQ(t.runtime, msec(1));
  EXPECT_EQ(t.deadline, t0 + msec(100));
  // Restored after its deadline: a new period with the new budget.
  p.dequeue(t, t0 + msec(150), dequeue_flags::save);
  ASSERT_EQ(p.setup(t, dl(msec(20), msec(100))), errc::ok);
  p.enqueue(t, t0 + msec(150), enqueue_flags::restore);
  EXPECT_EQ(t.runtime, msec(20));
  EXPECT_EQ(t.deadline, t0 + msec(250));
  // Out of the class and back: fresh.
  p.dequeue(t, t0 + msec(160), dequeue_flags::save);
  p.switched_from(t, t0 + msec(160));
  EXPECT_EQ(p.total_bandwidth(), 0u);
  ASSERT_EQ(p.setup(t, dl(msec(5), msec(50))), errc::ok);
  p.enqueue(t, t0 + msec(170), enqueue_flags::restore);
  EXPECT_EQ(t.runtime, msec(5));
  EXPECT_EQ(t.deadline, t0 + msec(220));
  EXPECT_TRUE(p.verify());
}

// dequeue_task_dl runs update_curr_dl: the running task is charged whatever task leaves. A
// (2 ms per 100 ms) has run 2.5 ms when a queued B is taken out: A is throttled there, 0.5 ms
// in debt, and its replenishment at 100 ms leaves it 1.5 ms (the tick at 3 ms would have
// found 1 ms of debt and left 1 ms).
TEST(EdfPolicy, DequeueOfAnotherTaskChargesTheRunningOne) {
  policy_t p;
  task a, b;
  ASSERT_EQ(p.setup(a, dl(msec(2), msec(100))), errc::ok);
  ASSERT_EQ(p.setup(b, dl(msec(2), msec(200))), errc::ok);
  const sched_time t0{};
  p.enqueue(a, t0, enqueue_flags::wakeup);
  p.enqueue(b, t0, enqueue_flags::wakeup);
  ASSERT_EQ(p.pick_next(t0), &a);
  p.set_next(a, t0);
  p.dequeue(b, t0 + usec(2500), dequeue_flags::migrating);
  EXPECT_TRUE(a.throttled);
  EXPECT_EQ(a.runtime, -usec(500));
  EXPECT_TRUE(p.take_resched()) << "the throttle asks for the CPU at once (update_curr_dl)";
  EXPECT_FALSE(p.take_resched());
  EXPECT_TRUE(p.tick(a, t0 + msec(3))) << "the throttle asks for the CPU back";
  EXPECT_EQ(a.runtime, -usec(500)) << "a throttled curr consumes nothing more";
  p.put_prev(a, t0 + msec(3));
  EXPECT_TRUE(p.timer(t0 + msec(100)));
  EXPECT_EQ(a.runtime, usec(1500));
  EXPECT_TRUE(p.verify());
}

// The kernel's dl_timer is armed once, when the task throttles, at d − D + P with the
// parameters of then; a parameter change (save, __setparam_dl, restore) leaves it where it is,
// and the replenishment it brings uses the new parameters. (9.5, 50, 100) throttles at 9.7 ms:
// timer at 50 − 50 + 100 = 100 ms. Changed to (9.5, 100, 100) while throttled, the timer stays
// at 100 ms, not 100 − 100 + 100 = 50 ms.
TEST(EdfPolicy, AThrottledTasksTimerKeepsItsInstantAcrossAParameterChange) {
  policy_t p;
  task t;
  ASSERT_EQ(p.setup(t, dl(usec(9500), msec(50), msec(100))), errc::ok);
  const sched_time t0{};
  p.enqueue(t, t0, enqueue_flags::wakeup);
  p.set_next(t, t0);
  EXPECT_TRUE(p.tick(t, t0 + usec(9700)));
  ASSERT_TRUE(t.throttled);
  sched_time when{};
  ASSERT_TRUE(p.next_timer(when));
  EXPECT_EQ(when, t0 + msec(100));
  p.dequeue(t, t0 + usec(9700), dequeue_flags::save);
  ASSERT_EQ(p.setup(t, dl(usec(9500), msec(100), msec(100))), errc::ok);
  p.enqueue(t, t0 + usec(9700), enqueue_flags::restore);
  ASSERT_TRUE(p.next_timer(when));
  EXPECT_EQ(when, t0 + msec(100));
  EXPECT_FALSE(p.timer(t0 + msec(50)));
  EXPECT_TRUE(t.throttled);
  EXPECT_TRUE(p.verify());
}

}  // namespace

namespace {

// A task leaving the deadline class for another class releases its admitted bandwidth, as at
// exit (policy.hpp: switched_from); otherwise admission would refuse forever after.
TEST(EdfPolicy, SwitchedFromReleasesBandwidth) {
  policy_t p;  // 1 CPU, 95 % bound
  task a, b;
  ASSERT_EQ(p.setup(a, dl(msec(60), msec(100))), errc::ok);
  EXPECT_EQ(p.setup(b, dl(msec(60), msec(100))), errc::overloaded);
  p.switched_from(a, sched_time{});
  EXPECT_EQ(p.setup(b, dl(msec(60), msec(100))), errc::ok) << "a's 0.6 was released";
}

}  // namespace

namespace {

// Oracle: kernel/sched/deadline.c (4.11+ through 6.x). A task that is throttled and then
// blocks keeps its dl_timer armed (dequeue does not cancel it); when the timer fires on the
// sleeping task, dl_task_timer only replenishes it (d += P until q > 0) at the timer instant
// d - D + P. The later wakeup then goes through enqueue_task_dl: dl_check_constrained_dl for
// a task with D < P (throttle until the next period if d < now < d - D + P), then
// update_dl_entity. Here: Q = 10, D = 50, P = 100 ms; throttled at 10 ms (timer at 100 ms,
// replenished there to d = 150, q = 10), woken at 160 ms: 150 < 160 < 200, so the kernel
// throttles it until 200 ms and replenishes it to d = 250 ms. (The code had replenished at
// the wakeup and reset a "lagging" deadline to now + D = 210 ms, running it at once.)
TEST(EdfPolicy, ThrottledSleeperWokenAfterItsReplenishmentKeepsTheConstrainedRule) {
  const sched_time base{sec(1)};
  auto at = [&](std::int64_t ms) { return base + msec(ms); };
  policy_t p;
  task t;
  ASSERT_EQ(p.setup(t, dl(msec(10), msec(50), msec(100))), errc::ok);
  p.enqueue(t, at(0), enqueue_flags::wakeup);  // d = 50, q = 10
  p.set_next(t, at(0));
  ASSERT_TRUE(p.tick(t, at(10)));  // budget used: throttled until 100
  ASSERT_TRUE(t.throttled);
  p.dequeue(t, at(10), dequeue_flags::sleep);
  p.enqueue(t, at(160), enqueue_flags::wakeup);
  EXPECT_TRUE(t.throttled);
  EXPECT_EQ(t.deadline, at(150));
  EXPECT_EQ(t.runtime, 0);
  EXPECT_EQ(p.pick_next(at(160)), nullptr);
  sched_time when{};
  ASSERT_TRUE(p.next_timer(when));
  EXPECT_EQ(when, at(200));
  EXPECT_TRUE(p.timer(at(200)));
  EXPECT_EQ(t.deadline, at(250));
  EXPECT_EQ(t.runtime, msec(10));
  EXPECT_EQ(p.pick_next(at(200)), &t);
  EXPECT_TRUE(p.verify());
}

// Same oracle, implicit deadline and the constrained wakeup before the next period's end:
// the replenishment the timer made at d - D + P is what the wakeup rule then sees.
TEST(EdfPolicy, ThrottledSleeperWokenAfterItsReplenishmentAppliesTheWakeupRule) {
  const sched_time base{sec(1)};
  auto at = [&](std::int64_t ms) { return base + msec(ms); };
  {
    // D = P = 100: throttled at 10 (timer at 100: d = 200, q = 10); woken at 250: d < now,
    // a fresh period d = 350.
    policy_t p;
    task t;
    ASSERT_EQ(p.setup(t, dl(msec(10), msec(100))), errc::ok);
    p.enqueue(t, at(0), enqueue_flags::wakeup);
    p.set_next(t, at(0));
    ASSERT_TRUE(p.tick(t, at(10)));
    p.dequeue(t, at(10), dequeue_flags::sleep);
    p.enqueue(t, at(250), enqueue_flags::wakeup);
    EXPECT_FALSE(t.throttled);
    EXPECT_EQ(t.deadline, at(350));
    EXPECT_EQ(t.runtime, msec(10));
    EXPECT_EQ(p.pick_next(at(250)), &t);
  }
  {
    // D < P, woken at 120 (timer at 100 gave d = 150, q = 10): 10/30 > 10/50, the revised
    // rule keeps d = 150 and trims q to (Q/D)(d - now) = 6 ms.
    policy_t p;
    task t;
    ASSERT_EQ(p.setup(t, dl(msec(10), msec(50), msec(100))), errc::ok);
    p.enqueue(t, at(0), enqueue_flags::wakeup);
    p.set_next(t, at(0));
    ASSERT_TRUE(p.tick(t, at(10)));
    p.dequeue(t, at(10), dequeue_flags::sleep);
    p.enqueue(t, at(120), enqueue_flags::wakeup);
    EXPECT_FALSE(t.throttled);
    EXPECT_EQ(t.deadline, at(150));
    EXPECT_NEAR(static_cast<double>(t.runtime), 6e6, 8.0);
    EXPECT_TRUE(p.verify());
  }
}

// Oracle: kernel/sched/deadline.c, enqueue_task_dl (4.11-6.7) / enqueue_dl_entity (6.8+):
// dl_check_constrained_dl runs at every enqueue of an unthrottled task with D < P, whatever
// the flags (wakeup, restore after a parameter change, migration), not only at wakeups. A
// queued task with d = 50 ms that is re-enqueued at 60 ms (before its next period at 100 ms)
// is throttled until 100 ms with q = 0; the code had applied the restore rule (a fresh period
// d = now + D) or, for a migration, kept d = 50 with the rest of its budget.
TEST(EdfPolicy, ConstrainedRuleAppliesToRestoreAndMigrationEnqueues) {
  const sched_time base{sec(1)};
  auto at = [&](std::int64_t ms) { return base + msec(ms); };
  for (const enqueue_flags f : {enqueue_flags::restore, enqueue_flags::migrated}) {
    policy_t p;
    task t;
    ASSERT_EQ(p.setup(t, dl(msec(10), msec(50), msec(100))), errc::ok);
    p.enqueue(t, at(0), enqueue_flags::wakeup);  // d = 50, q = 10
    p.set_next(t, at(0));
    p.put_prev(t, at(2));  // q = 8, still queued
    p.dequeue(t, at(60), f == enqueue_flags::restore ? dequeue_flags::save : dequeue_flags::migrating);
    p.enqueue(t, at(60), f);
    EXPECT_TRUE(t.throttled) << static_cast<int>(f);
    EXPECT_EQ(t.runtime, 0);
    EXPECT_EQ(p.pick_next(at(60)), nullptr);
    sched_time when{};
    ASSERT_TRUE(p.next_timer(when));
    EXPECT_EQ(when, at(100));
    EXPECT_TRUE(p.timer(at(100)));
    EXPECT_EQ(t.deadline, at(150));
    EXPECT_EQ(t.runtime, msec(10));
    EXPECT_TRUE(p.verify());
  }
}

}  // namespace

namespace {

// Oracle: kernel/sched/deadline.c, check_preempt_curr_dl (4.x-6.5) / wakeup_preempt_dl
// (6.6+) only compare deadlines (dl_entity_preempt); neither they nor enqueue_task_dl call
// update_curr_dl, so a wakeup is not an accounting point for the running -deadline task:
// without HRTICK_DL its overrun is seen at the next tick (or dequeue/put_prev/yield). Here
// Q = 2.5 ms runs from 0; B (later deadline) wakes at 2.7 ms: the kernel neither throttles A
// nor preempts it; the 1 ms tick at 3 ms finds q = -0.5 ms. (The code had charged A at the
// wakeup, throttled it with q = -0.2 ms and asked for a reschedule.)
// The restore rule (enqueue_dl_entity: ENQUEUE_RESTORE with dl_time_before(deadline, now), a
// strict test): a parameter change's requeue exactly at the deadline keeps the period and its
// budget; one nanosecond later starts a new one (d = now + D, q = Q). Implicit deadline, so the
// constrained rule stays out of the way.
TEST(EdfPolicy, TheRestoreRuleStartsANewPeriodOnlyAfterTheDeadline) {
  const sched_time base{sec(1)};
  auto at = [&](std::int64_t ns) { return base + ns; };
  policy_t p;
  task t;
  ASSERT_EQ(p.setup(t, dl(msec(2), msec(10))), errc::ok);
  p.enqueue(t, at(0), enqueue_flags::wakeup);  // d = 10 ms, q = 2 ms
  p.set_next(t, at(0));
  p.put_prev(t, at(msec(1)));  // q = 1 ms, still queued
  p.dequeue(t, at(msec(10)), dequeue_flags::save);
  p.enqueue(t, at(msec(10)), enqueue_flags::restore);
  EXPECT_EQ(t.deadline, at(msec(10)));
  EXPECT_EQ(t.runtime, msec(1));
  p.dequeue(t, at(msec(10) + 1), dequeue_flags::save);
  p.enqueue(t, at(msec(10) + 1), enqueue_flags::restore);
  EXPECT_EQ(t.deadline, at(msec(20) + 1));
  EXPECT_EQ(t.runtime, msec(2));
  EXPECT_TRUE(p.verify());
}

TEST(EdfPolicy, WakeupDoesNotChargeOrThrottleTheRunningTask) {
  policy_t p;
  task a, b;
  ASSERT_EQ(p.setup(a, dl(usec(2500), msec(10))), errc::ok);
  ASSERT_EQ(p.setup(b, dl(msec(1), msec(20))), errc::ok);
  const sched_time t0{};
  p.enqueue(a, t0, enqueue_flags::wakeup);
  p.set_next(a, t0);
  p.enqueue(b, t0 + usec(2700), enqueue_flags::wakeup);
  EXPECT_FALSE(p.wakeup_preempt(b, a, t0 + usec(2700)));
  EXPECT_FALSE(a.throttled);
  EXPECT_EQ(a.runtime, usec(2500)) << "not charged at the wakeup";
  EXPECT_TRUE(p.tick(a, t0 + msec(3)));
  EXPECT_TRUE(a.throttled);
  EXPECT_EQ(a.runtime, -usec(500));
  EXPECT_TRUE(p.verify());
}

}  // namespace

namespace {

// Oracle: kernel/sched/deadline.c, update_curr_dl (4.x-6.x): when the budget is exhausted and
// the replenishment instant d - D + P has already passed (start_dl_timer fails), the task is
// re-enqueued with ENQUEUE_REPLENISH at once, and curr is rescheduled only
// `if (!is_leftmost(curr))`. Here Q = 100 us, D = P = 1 ms with a 4 ms tick: at the tick
// q = -3.9 ms, the while loop gives d = 41 ms, q = 0.1 ms; alone, it stays leftmost and keeps
// the CPU without a reschedule. With an earlier-deadline task queued it is rescheduled.
TEST(EdfPolicy, ImmediateReplenishReschedulesOnlyWhenNoLongerLeftmost) {
  const sched_time t0{};
  {
    policy_t p;
    task t;
    ASSERT_EQ(p.setup(t, dl(usec(100), msec(1))), errc::ok);
    p.enqueue(t, t0, enqueue_flags::wakeup);
    p.set_next(t, t0);
    EXPECT_FALSE(p.tick(t, t0 + msec(4)));
    EXPECT_FALSE(t.throttled);
    EXPECT_EQ(t.deadline, t0 + msec(41));
    EXPECT_EQ(t.runtime, usec(100));
    EXPECT_EQ(p.pick_next(t0 + msec(4)), &t);
    EXPECT_TRUE(p.verify());
  }
  {
    policy_t p;
    ASSERT_EQ(p.configure(knobs_with(-1)), errc::ok);
    task t, u;
    ASSERT_EQ(p.setup(t, dl(usec(100), msec(1))), errc::ok);
    ASSERT_EQ(p.setup(u, dl(msec(1), msec(20))), errc::ok);
    p.enqueue(t, t0, enqueue_flags::wakeup);
    p.enqueue(u, t0, enqueue_flags::wakeup);  // d = 20 ms < 41 ms
    p.set_next(t, t0);
    EXPECT_TRUE(p.tick(t, t0 + msec(4)));
    EXPECT_EQ(p.pick_next(t0 + msec(4)), &u);
  }
}

// SCHED_FLAG_DL_OVERRUN (4.16+; deadline.c update_curr_dl, posix-cpu-timers.c check_dl_overrun):
// a charge that throttles a task with its budget spent (q <= 0, dl_runtime_exceeded) marks it,
// if it asked; take_overrun() reads and clears the mark, once per overrun. A yield with budget
// left throttles without an overrun, and so does the constrained-deadline rule at a wakeup.
sched_params dl_reporting(std::int64_t q, std::int64_t d, std::int64_t p = 0) {
  sched_params s = dl(q, d, p);
  s.dl_overrun = true;
  return s;
}

// One deadline task set up with `params`, woken and running from 1 s (`at(0)`).
class EdfOverrun : public ::testing::Test {
 protected:
  void start(const sched_params& params, std::int64_t hrtick = 0) {
    ASSERT_EQ(p.configure(knobs_with(95, hrtick)), errc::ok);
    ASSERT_EQ(p.setup(t, params), errc::ok);
    p.enqueue(t, at(0), enqueue_flags::wakeup);
    p.set_next(t, at(0));
  }
  static sched_time at(std::int64_t us) { return sched_time{sec(1)} + usec(us); }
  void spend_twice(bool asked);
  policy_t p;
  task t;
};

// Q = 2 ms spent at the 2 ms tick (q = 0), then at tick resolution a budget that ends between
// ticks (q = -0.5 ms at the 13 ms tick): marked each time if the task asked, once per overrun.
void EdfOverrun::spend_twice(bool asked) {
  start(asked ? dl_reporting(msec(2), msec(10)) : dl(msec(2), msec(10)));
  EXPECT_FALSE(p.tick(t, at(1000)));
  EXPECT_FALSE(policy_t::take_overrun(t)) << "1 ms of 2 ms used";
  EXPECT_TRUE(p.tick(t, at(2000)));  // q = 0: spent, throttled until 10 ms
  ASSERT_TRUE(t.throttled);
  EXPECT_EQ(policy_t::take_overrun(t), asked);
  EXPECT_FALSE(policy_t::take_overrun(t)) << "one signal per overrun";
  EXPECT_TRUE(p.timer(at(10000)));
  EXPECT_FALSE(t.throttled);
  p.set_next(t, at(10500));
  EXPECT_FALSE(p.tick(t, at(11000)));
  EXPECT_TRUE(p.tick(t, at(13000)));
  EXPECT_EQ(t.runtime, -msec(1) / 2);
  EXPECT_EQ(policy_t::take_overrun(t), asked);
  EXPECT_TRUE(p.verify());
}
TEST_F(EdfOverrun, ASpentBudgetIsMarkedForATaskThatAsked) { spend_twice(true); }
TEST_F(EdfOverrun, ASpentBudgetIsNotMarkedForATaskThatDidNotAsk) { spend_twice(false); }

TEST_F(EdfOverrun, AYieldIsAnOverrunOnlyWithTheBudgetSpent) {
  start(dl_reporting(msec(2), msec(10)));
  p.yield(t, at(500));  // 1.5 ms left, given up: throttled, not overrun
  EXPECT_TRUE(t.throttled);
  EXPECT_EQ(t.runtime, 0);
  EXPECT_FALSE(policy_t::take_overrun(t));
  EXPECT_TRUE(p.timer(at(10000)));
  p.set_next(t, at(10000));
  p.yield(t, at(12000));  // yields just as the budget runs out: q = 0, spent
  EXPECT_TRUE(t.throttled);
  EXPECT_TRUE(policy_t::take_overrun(t));
  EXPECT_TRUE(p.verify());
}

TEST_F(EdfOverrun, TheConstrainedDeadlineThrottleIsNoOverrun) {
  start(dl_reporting(msec(2), msec(5), msec(10)));  // d = 5 ms
  p.dequeue(t, at(1000), dequeue_flags::sleep);  // 1 ms used
  p.enqueue(t, at(7000), enqueue_flags::wakeup);  // after d, before the next period
  EXPECT_TRUE(t.throttled);
  EXPECT_FALSE(policy_t::take_overrun(t));
  EXPECT_TRUE(p.verify());
}

TEST_F(EdfOverrun, WithHrtickTheBudgetsEndIsMarkedToTheNanosecond) {
  start(dl_reporting(usec(2500), msec(10)), 1);
  sched_time when{};
  ASSERT_TRUE(p.next_timer(when));
  EXPECT_EQ(when, at(2500));
  EXPECT_FALSE(p.timer(when - 1));
  EXPECT_FALSE(policy_t::take_overrun(t));
  EXPECT_TRUE(p.timer(when));
  EXPECT_EQ(t.runtime, 0);
  EXPECT_TRUE(policy_t::take_overrun(t));
  EXPECT_TRUE(p.verify());
}

// The mark is the task's, not its parameters': it survives a change of parameters (the
// kernel's __setparam_dl leaves dl_overrun), and a task that no longer asks is not marked again.
TEST_F(EdfOverrun, TheMarkSurvivesAParameterChange) {
  start(dl_reporting(msec(2), msec(10)));
  EXPECT_TRUE(p.tick(t, at(2000)));
  p.dequeue(t, at(2000), dequeue_flags::save);
  ASSERT_EQ(p.setup(t, dl(msec(3), msec(10))), errc::ok);
  p.enqueue(t, at(2000), enqueue_flags::restore);
  EXPECT_TRUE(policy_t::take_overrun(t));
  EXPECT_TRUE(p.timer(at(10000)));  // replenished: q = 3 ms
  p.set_next(t, at(10000));
  EXPECT_TRUE(p.tick(t, at(13000)));
  EXPECT_TRUE(t.throttled);
  EXPECT_FALSE(policy_t::take_overrun(t));
  EXPECT_TRUE(p.verify());
}
}  // namespace

namespace {

// Scale invariance (kernel/sched/deadline.c update_curr_dl, 4.16+): the time run is charged as
// cap_scale(cap_scale(delta, freq), cpu) = ((delta·f >> 10)·c) >> 10. Q = 2 ms per P = 10 ms:
// at full scale the budget lasts 2 ms; at half frequency 4 ms; at half frequency on a CPU of
// capacity 512, 8 ms. Checked with the tick driver (a hog, 1 ms ticks, exact at the tick
// boundaries) and with the hrtick (exact to the ns).
TEST(EdfScale, ABudgetLastsItsRuntimeTimesTheInverseScale) {
  struct row {
    std::uint32_t f, c;
    std::int64_t per_period;
  };
  for (const row r : {row{1024, 1024, msec(2)}, row{512, 1024, msec(4)}, row{512, 512, msec(8)}, row{1024, 256, msec(8)}}) {
    for (int hrtick = 0; hrtick <= 1; ++hrtick) {
      driven p;
      ASSERT_EQ(p.configure(knobs_with(95, hrtick)), errc::ok);
      ASSERT_EQ(p.set_capacity(r.f, r.c), errc::ok);
      task t;
      ASSERT_EQ(p.setup(t, dl(msec(2), msec(10))), errc::ok);
      tick_driver<driven> d(p, 1000);
      d.add(t, behaviour::hog());
      for (int k = 1; k <= 20; ++k) {
        d.run_until(msec(10) * k);
        EXPECT_EQ(d.stats(0).cpu_ns, r.per_period * k) << r.f << "/" << r.c << " hrtick " << hrtick << " period " << k;
      }
      EXPECT_TRUE(p.verify());
    }
  }
}

// The truncation and the hrtick's inverse: scaled_delta(t) >= q exactly when
// t >= time_for_budget(q), over random budgets and scales (including 1 and 1024), and the
// kernel's two truncations on small deltas (3 ns at f = 512 charge 1 ns; at f = c = 1, 0).
TEST(EdfScale, TheHrtickInstantIsTheExactInverseOfTheCharge) {
  policy_t p;
  ASSERT_EQ(p.set_capacity(512, 1024), errc::ok);
  EXPECT_EQ(p.scaled_delta(3), 1);
  EXPECT_EQ(p.scaled_delta(1), 0);
  ASSERT_EQ(p.set_capacity(1, 1), errc::ok);
  EXPECT_EQ(p.scaled_delta(1024 * 1024 - 1), 0);
  EXPECT_EQ(p.scaled_delta(1024 * 1024), 1);
  std::uint64_t s = 0x9e3779b97f4a7c15ull;
  auto next = [&] {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  };
  for (int i = 0; i < 100000; ++i) {
    const std::uint32_t f = i % 7 == 0 ? 1024u : static_cast<std::uint32_t>(next() % 1024 + 1);
    const std::uint32_t c = i % 5 == 0 ? 1024u : static_cast<std::uint32_t>(next() % 1024 + 1);
    ASSERT_EQ(p.set_capacity(f, c), errc::ok);
    const std::int64_t q = static_cast<std::int64_t>(next() % sec(5)) + 1;
    const std::int64_t t = p.time_for_budget(q);
    ASSERT_GE(p.scaled_delta(t), q) << f << " " << c << " " << q;
    ASSERT_LT(p.scaled_delta(t - 1), q) << f << " " << c << " " << q;
  }
  EXPECT_EQ(p.time_for_budget(0), 0);
  EXPECT_EQ(p.time_for_budget(-5), 0);
}

TEST(EdfScale, OutOfRangeScalesAreRefusedWithoutChange) {
  policy_t p;
  ASSERT_EQ(p.set_capacity(700, 300), errc::ok);
  EXPECT_EQ(p.set_capacity(0, 300), errc::invalid_argument);
  EXPECT_EQ(p.set_capacity(700, 0), errc::invalid_argument);
  EXPECT_EQ(p.set_capacity(1025, 300), errc::invalid_argument);
  EXPECT_EQ(p.set_capacity(700, 1025), errc::invalid_argument);
  EXPECT_EQ(p.freq_scale(), 700u);
  EXPECT_EQ(p.cpu_scale(), 300u);
}

// Active utilisation (GRUB, 4.13+; Abeni, Lelli, Scordino, Palopoli, "Greedy CPU reclaiming for
// SCHED_DEADLINE", 2014, and the "inactive timer" patch): a task counts from its wakeup; when
// it sleeps it keeps counting until its 0-lag time d - q·P/Q. Q = 2 ms, P = D = 10 ms
// (bw = 2^20 / 5 = 209715, cpu_bw_dl 204): it runs 1 ms from 0 and sleeps, so q = 1 ms,
// d = 10 ms and the 0-lag time is 10 - 1 x 10 / 2 = 5 ms.
TEST(EdfActive, ASleeperCountsUntilItsZeroLagTime) {
  const sched_time t0{};
  policy_t p;
  task t;
  ASSERT_EQ(p.setup(t, dl(msec(2), msec(10))), errc::ok);
  const std::uint64_t bw = (std::uint64_t{2} << 20) / 10;
  EXPECT_EQ(p.running_bw(), 0u);
  p.enqueue(t, t0, enqueue_flags::wakeup);
  EXPECT_EQ(p.running_bw(), bw);
  EXPECT_EQ(p.active_util(), 204u);
  p.set_next(t, t0);
  p.dequeue(t, t0 + msec(1), dequeue_flags::sleep);
  EXPECT_EQ(t.runtime, msec(1));
  EXPECT_EQ(p.running_bw(), bw) << "still active while asleep";
  EXPECT_TRUE(t.non_contending);
  sched_time when{};
  ASSERT_TRUE(p.next_timer(when));
  EXPECT_EQ(when, t0 + msec(5));
  EXPECT_TRUE(p.verify());
  EXPECT_FALSE(p.timer(t0 + msec(5) - 1));
  EXPECT_EQ(p.running_bw(), bw);
  EXPECT_FALSE(p.timer(t0 + msec(5)));
  EXPECT_EQ(p.running_bw(), 0u) << "the inactive timer ends its activity";
  EXPECT_FALSE(t.non_contending);
  EXPECT_FALSE(p.next_timer(when));
  EXPECT_TRUE(p.verify());
  // It wakes later: counted again, once.
  p.enqueue(t, t0 + msec(7), enqueue_flags::wakeup);
  EXPECT_EQ(p.running_bw(), bw);
  EXPECT_TRUE(p.verify());
}

// Woken before its 0-lag time, a sleeper is still counted: its timer is cancelled and its
// bandwidth is not added twice. A sleep after the 0-lag time has passed (q·P/Q >= d - now)
// ends the activity at once. An overrun (q < 0) puts the 0-lag time after d.
TEST(EdfActive, AWakeupBeforeTheZeroLagTimeKeepsOneCount) {
  const sched_time t0{};
  const std::uint64_t bw = (std::uint64_t{2} << 20) / 10;
  {
    policy_t p;
    task t;
    ASSERT_EQ(p.setup(t, dl(msec(2), msec(10))), errc::ok);
    p.enqueue(t, t0, enqueue_flags::wakeup);
    p.set_next(t, t0);
    p.dequeue(t, t0 + msec(1), dequeue_flags::sleep);
    p.enqueue(t, t0 + msec(3), enqueue_flags::wakeup);
    EXPECT_EQ(p.running_bw(), bw);
    EXPECT_FALSE(t.non_contending);
    sched_time when{};
    EXPECT_FALSE(p.next_timer(when)) << "the inactive timer was cancelled";
    EXPECT_TRUE(p.verify());
  }
  {
    policy_t p;
    task t;
    ASSERT_EQ(p.setup(t, dl(msec(2), msec(10))), errc::ok);
    p.enqueue(t, t0, enqueue_flags::wakeup);
    p.set_next(t, t0);
    // Ran 1.5 ms: q = 0.5 ms, 0-lag at 10 - 2.5 = 7.5 ms; it sleeps at 8 ms (after 6.5 ms
    // off-CPU bookkeeping is irrelevant: only d and q matter).
    p.put_prev(t, t0 + usec(1500));
    p.dequeue(t, t0 + msec(8), dequeue_flags::sleep);
    EXPECT_EQ(p.running_bw(), 0u);
    EXPECT_FALSE(t.non_contending);
    EXPECT_TRUE(p.verify());
  }
  {
    policy_t p;  // tick-enforced overrun: q = -1 ms at the dequeue, 0-lag at 10 + 5 = 15 ms
    task t;
    ASSERT_EQ(p.setup(t, dl(msec(2), msec(10))), errc::ok);
    p.enqueue(t, t0, enqueue_flags::wakeup);
    p.set_next(t, t0);
    p.dequeue(t, t0 + msec(3), dequeue_flags::sleep);
    EXPECT_EQ(t.runtime, -msec(1));
    sched_time when{};
    ASSERT_TRUE(p.next_timer(when));
    EXPECT_EQ(when, t0 + msec(15));
    EXPECT_EQ(p.running_bw(), bw);
    EXPECT_TRUE(p.verify());
  }
}

// Throttled tasks stay active; a migration, a save and an exit end the count at once, and a
// sleeper woken on another CPU's queue leaves the first queue's count (migrate_task_rq_dl); a
// parameter change of a non-contending sleeper drops it (dl_change_utilization), and the
// next wakeup counts the new bandwidth.
TEST(EdfActive, EachWayOutOfAQueueEndsItsCountWhereItIs) {
  const sched_time t0{};
  policy_t a, b;
  ASSERT_EQ(a.configure(knobs_with(-1)), errc::ok);
  task t;
  ASSERT_EQ(a.setup(t, dl(msec(2), msec(10))), errc::ok);
  const std::uint64_t bw = (std::uint64_t{2} << 20) / 10;
  a.enqueue(t, t0, enqueue_flags::wakeup);
  a.set_next(t, t0);
  EXPECT_TRUE(a.tick(t, t0 + msec(2)));
  EXPECT_TRUE(t.throttled);
  EXPECT_EQ(a.running_bw(), bw) << "throttled, still contending";
  a.dequeue(t, t0 + msec(2), dequeue_flags::migrating);
  EXPECT_EQ(a.running_bw(), 0u);
  b.enqueue(t, t0 + msec(2), enqueue_flags::migrated);
  EXPECT_EQ(b.running_bw(), bw);
  EXPECT_TRUE(a.verify());
  EXPECT_TRUE(b.verify());
  // Replenished at 10 ms on b, runs 1 ms, sleeps there (0-lag 10 + 10 - 1 x 5 = 15 ms)...
  EXPECT_TRUE(b.timer(t0 + msec(10)));
  b.set_next(t, t0 + msec(10));
  b.dequeue(t, t0 + msec(11), dequeue_flags::sleep);
  EXPECT_TRUE(t.non_contending);
  EXPECT_EQ(b.running_bw(), bw);
  // ... and wakes on a at 12 ms: b stops counting it, a starts.
  a.enqueue(t, t0 + msec(12), enqueue_flags::wakeup);
  EXPECT_EQ(b.running_bw(), 0u);
  EXPECT_EQ(a.running_bw(), bw);
  sched_time when{};
  EXPECT_FALSE(b.next_timer(when)) << "b's inactive timer for it was cancelled";
  EXPECT_TRUE(a.verify());
  EXPECT_TRUE(b.verify());
  // Save / restore around a change of parameters counts the new bandwidth.
  a.dequeue(t, t0 + msec(12), dequeue_flags::save);
  EXPECT_EQ(a.running_bw(), 0u);
  ASSERT_EQ(a.setup(t, dl(msec(3), msec(10))), errc::ok);
  a.enqueue(t, t0 + msec(12), enqueue_flags::restore);
  EXPECT_EQ(a.running_bw(), (std::uint64_t{3} << 20) / 10);
  // A sleeper's change of parameters: dropped at once, the wakeup counts the new value.
  a.dequeue(t, t0 + msec(12), dequeue_flags::sleep);
  EXPECT_TRUE(t.non_contending);
  ASSERT_EQ(a.setup(t, dl(msec(5), msec(10))), errc::ok);
  EXPECT_EQ(a.running_bw(), 0u);
  EXPECT_FALSE(t.non_contending);
  EXPECT_TRUE(a.verify());
  a.enqueue(t, t0 + msec(13), enqueue_flags::wakeup);
  EXPECT_EQ(a.running_bw(), (std::uint64_t{5} << 20) / 10);
  // Exit through the object that admitted it (a, the root domain's) while it sleeps on another
  // queue (b): the count where it sleeps ends (q = 1 ms, d = 20 ms: 0-lag at 20 - 1 x 10 / 5 =
  // 18 ms).
  a.dequeue(t, t0 + msec(13), dequeue_flags::migrating);
  b.enqueue(t, t0 + msec(13), enqueue_flags::migrated);
  b.dequeue(t, t0 + msec(13), dequeue_flags::sleep);
  EXPECT_TRUE(t.non_contending);
  EXPECT_EQ(b.running_bw(), (std::uint64_t{5} << 20) / 10);
  a.task_dead(t, t0 + msec(13));
  EXPECT_EQ(b.running_bw(), 0u);
  EXPECT_EQ(a.running_bw(), 0u);
  EXPECT_TRUE(a.verify());
  EXPECT_TRUE(b.verify());
  // A dequeue for exit ends it at once too.
  task u;
  ASSERT_EQ(a.setup(u, dl(msec(1), msec(10))), errc::ok);
  a.enqueue(u, t0 + msec(14), enqueue_flags::wakeup);
  a.dequeue(u, t0 + msec(14), dequeue_flags::sleep | dequeue_flags::dead);
  EXPECT_EQ(a.running_bw(), 0u);
  EXPECT_TRUE(a.verify());
}

// Over random schedules of several tasks on two queues (wakeups on either, sleeps, ticks,
// timers, migrations of queued tasks), each queue's running_bw equals the sum over the tasks
// it counts, and a task is counted by at most one queue: verify() checks the first, the sum
// over both queues of running_bw equals the bandwidths of the counted tasks.
TEST(EdfActive, RandomSchedulesKeepOneCountPerTask) {
  policy_t q[2];
  ASSERT_EQ(q[0].configure(knobs_with(-1)), errc::ok);
  task ts[6];
  int where[6];
  for (int i = 0; i < 6; ++i) {
    ASSERT_EQ(q[0].setup(ts[i], dl(usec(500) * (i + 1), msec(5) * (i + 2))), errc::ok);
    where[i] = -1;
  }
  std::uint64_t s = 12345;
  auto next = [&] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return s >> 33;
  };
  sched_time now{};
  task* curr[2] = {nullptr, nullptr};
  for (int step = 0; step < 200000; ++step) {
    now = now + static_cast<std::int64_t>(next() % 700 + 1) * 1000;
    for (int c = 0; c < 2; ++c) {
      if (q[c].timer(now) || (curr[c] != nullptr && q[c].tick(*curr[c], now))) {
        if (curr[c] != nullptr) q[c].put_prev(*curr[c], now);
        curr[c] = nullptr;
      }
      if (curr[c] == nullptr) {
        if (task* n = q[c].pick_next(now)) {
          q[c].set_next(*n, now);
          curr[c] = n;
        }
      }
    }
    const int i = static_cast<int>(next() % 6);
    task& t = ts[i];
    if (where[i] < 0) {
      const int c = static_cast<int>(next() % 2);
      q[c].enqueue(t, now, enqueue_flags::wakeup);
      where[i] = c;
    } else if (next() % 3 == 0) {
      const int c = where[i];
      if (curr[c] == &t) curr[c] = nullptr;
      q[c].dequeue(t, now, dequeue_flags::sleep);
      where[i] = -1;
    } else if (next() % 5 == 0) {
      const int c = where[i];
      if (curr[c] == &t) curr[c] = nullptr;
      q[c].dequeue(t, now, dequeue_flags::migrating);
      q[1 - c].enqueue(t, now, enqueue_flags::migrated);
      where[i] = 1 - c;
    }
    ASSERT_TRUE(q[0].verify()) << step;
    ASSERT_TRUE(q[1].verify()) << step;
    std::uint64_t counted = 0;
    for (const task& x : ts)
      if (x.active_rq != nullptr) counted += x.dl_bw;
    ASSERT_EQ(q[0].running_bw() + q[1].running_bw(), counted) << step;
    for (int k = 0; k < 6; ++k) {
      if (where[k] >= 0) {
        ASSERT_EQ(ts[k].active_rq, static_cast<void*>(&q[where[k]])) << step;
      }
    }
  }
}

}  // namespace

namespace {

// Capacity-aware admission and fit (5.9+, dl_bw_capacity and dl_task_fits_capacity): the cap
// is cap_scale(per-CPU bw, Σ capacities) = 996147 x C >> 10. CPUs of capacity 1024 and 446
// (C = 1470) admit 996147 x 1470 >> 10 = 1430015: two reservations of 0.6 (629145 each) fit,
// a third of 0.2 (209715) does not, though two full CPUs (1992294) would take it.
TEST(EdfCapacity, AdmissionCountsTheRootDomainsCapacity) {
  policy_t::knobs k;
  k.cpus = 2;
  policy_t p;
  ASSERT_EQ(p.configure(k), errc::ok);
  ASSERT_EQ(p.set_root_capacity(1470), errc::ok);
  EXPECT_EQ(p.bandwidth_cap(), (996147ull * 1470) >> 10);
  task a, b, c;
  ASSERT_EQ(p.setup(a, dl(msec(6), msec(10))), errc::ok);
  ASSERT_EQ(p.setup(b, dl(msec(6), msec(10))), errc::ok);
  EXPECT_EQ(p.setup(c, dl(msec(2), msec(10))), errc::overloaded);
  EXPECT_EQ(p.total_bandwidth(), 2 * ((std::uint64_t{6} << 20) / 10));
  // A capacity below what is admitted, or absurd, is refused without change.
  EXPECT_EQ(p.set_root_capacity(1024), errc::overloaded);
  EXPECT_EQ(p.set_root_capacity((std::uint64_t{4096} << 10) + 1), errc::invalid_argument);
  EXPECT_EQ(p.root_capacity(), 1470u);
  // 0 restores cpus x 1024: the third fits.
  ASSERT_EQ(p.set_root_capacity(0), errc::ok);
  EXPECT_EQ(p.bandwidth_cap(), 2 * 996147ull);
  EXPECT_EQ(p.setup(c, dl(msec(2), msec(10))), errc::ok);
}

// dl_task_fits_capacity: D x c >> 10 >= Q. Q = 6 ms, D = 10 ms: not on 446 (4.355 ms), on
// 1024; the boundary Q = D x c >> 10 fits, one ns more does not.
TEST(EdfCapacity, AReservationFitsWhereItsRuntimeFitsItsDeadline) {
  policy_t p;
  ASSERT_EQ(p.configure(knobs_with(-1)), errc::ok);
  task t, edge, over;
  ASSERT_EQ(p.setup(t, dl(msec(6), msec(10))), errc::ok);
  EXPECT_FALSE(policy_t::fits_capacity(t, 446));
  EXPECT_TRUE(policy_t::fits_capacity(t, 1024));
  EXPECT_TRUE(policy_t::fits_capacity(t, 615));   // 10 ms x 615 >> 10 = 6.0059 ms
  EXPECT_FALSE(policy_t::fits_capacity(t, 614));  // 5.996 ms
  const std::int64_t q = (msec(10) * 446) >> 10;
  ASSERT_EQ(p.setup(edge, dl(q, msec(10))), errc::ok);
  ASSERT_EQ(p.setup(over, dl(q + 1, msec(10))), errc::ok);
  EXPECT_TRUE(policy_t::fits_capacity(edge, 446));
  EXPECT_FALSE(policy_t::fits_capacity(over, 446));
}

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

// Source: kernel/sched/deadline.c replenish_dl_entity(): after adding whole periods while
// runtime <= 0, `if (dl_time_before(dl_se->deadline, rq_clock(rq))) { printk_deferred_once(
// "sched: DL replenish lagged too much\n"); replenish_dl_new_period(dl_se, rq); }` — a fresh
// period from now: deadline = now + D, runtime = Q (algorithms-modern.md §5, CBS replenishment).
TEST(EdfPolicy, AReplenishmentThatLagsBehindTheClockStartsAFreshPeriod) {
  policy_t p;
  task t;
  ASSERT_EQ(p.setup(t, dl(msec(1), msec(10))), errc::ok);  // Q = 1 ms, D = P = 10 ms
  const sched_time t0{};
  p.enqueue(t, t0, enqueue_flags::wakeup);
  ASSERT_EQ(t.deadline, t0 + msec(10));
  ASSERT_EQ(p.pick_next(t0), &t);
  p.set_next(t, t0);
  (void)p.tick(t, t0 + msec(2));  // 2 ms run on a 1 ms budget: q = -1 ms, throttled
  ASSERT_TRUE(t.throttled);
  p.put_prev(t, t0 + msec(2));
  sched_time when{};
  ASSERT_TRUE(p.next_timer(when));
  ASSERT_EQ(when, t0 + msec(10)) << "d - D + P";
  // The timer is serviced late, at 35 ms: two periods of replenishment (q: -1 -> 0 -> 1 ms,
  // d: 10 -> 20 -> 30 ms) still leave d before now, so the kernel starts a new period.
  (void)p.timer(t0 + msec(35));
  EXPECT_FALSE(t.throttled);
  EXPECT_EQ(t.deadline, t0 + msec(45)) << "now + D, not the stale 30 ms";
  EXPECT_EQ(t.runtime, msec(1)) << "a whole Q";
  EXPECT_TRUE(p.verify());
}

// Source: kernel/sched/deadline.c check_preempt_curr_dl() (wakeup_preempt_dl in 6.x) preempts
// iff dl_entity_preempt(&p->dl, &rq->curr->dl), i.e. dl_time_before(a->deadline, b->deadline):
// strictly earlier (algorithms-modern.md §5: EDF picks the earliest deadline; ties keep curr).
TEST(EdfPolicy, AWakeupWithTheSameDeadlineDoesNotPreempt) {
  policy_t p;
  task a, b;
  ASSERT_EQ(p.setup(a, dl(msec(5), msec(20))), errc::ok);
  ASSERT_EQ(p.setup(b, dl(msec(5), msec(19))), errc::ok);
  const sched_time t0{};
  p.enqueue(a, t0, enqueue_flags::wakeup);  // d = 20 ms
  p.set_next(a, t0);
  p.enqueue(b, t0 + msec(1), enqueue_flags::wakeup);  // d = 1 + 19 = 20 ms
  ASSERT_EQ(b.deadline, a.deadline);
  EXPECT_FALSE(p.wakeup_preempt(b, a, t0 + msec(1))) << "equal deadlines: curr keeps the CPU";
  task c;  // a deadline one nanosecond earlier does preempt
  ASSERT_EQ(p.setup(c, dl(msec(5), msec(19) - 1)), errc::ok);
  p.enqueue(c, t0 + msec(1), enqueue_flags::wakeup);
  ASSERT_EQ(c.deadline, a.deadline - 1);
  EXPECT_TRUE(p.wakeup_preempt(c, a, t0 + msec(1)));
  EXPECT_TRUE(p.verify());
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Against deadline.c (v5.10-6.11), from an independent model run side by side with the policy.

// check_preempt_curr_dl compares the deadline of any woken task with curr's, queued in the tree
// or not: T0 (2 / 10 ms) ran 3 ms and slept throttled (-1 ms, deadline 1.010 s); woken at
// 1.005 s while T1 (1 / 20 ms, deadline 1.023 s) runs, it asks for the schedule, whose put_prev
// charges T1 2 ms and throttles it at once (-1 ms), not at its next tick (-2 ms).
TEST(EdfPolicy, AThrottledWakeeWithAnEarlierDeadlineStillReschedules) {
  policy_t p;
  task t0, t1;
  ASSERT_EQ(p.setup(t0, dl(msec(2), msec(10))), errc::ok);
  ASSERT_EQ(p.setup(t1, dl(msec(1), msec(20))), errc::ok);
  const sched_time base{sec(1)};
  p.enqueue(t0, base, enqueue_flags::wakeup);
  p.set_next(t0, base);
  p.dequeue(t0, base + msec(3), dequeue_flags::sleep);
  ASSERT_TRUE(t0.throttled);
  ASSERT_EQ(t0.runtime, -msec(1));
  p.enqueue(t1, base + msec(3), enqueue_flags::wakeup);
  ASSERT_EQ(p.pick_next(base + msec(3)), &t1);
  p.set_next(t1, base + msec(3));
  p.enqueue(t0, base + msec(5), enqueue_flags::wakeup);
  ASSERT_TRUE(t0.throttled) << "still waiting for its replenishment at 1.010 s";
  EXPECT_TRUE(p.wakeup_preempt(t0, t1, base + msec(5)));
  p.put_prev(t1, base + msec(5));
  EXPECT_TRUE(t1.throttled);
  EXPECT_EQ(t1.runtime, -msec(1));
  EXPECT_EQ(p.pick_next(base + msec(5)), nullptr);
  EXPECT_TRUE(p.verify());
}

// update_curr_dl: `if (unlikely((s64)delta_exec <= 0)) { if (unlikely(dl_se->dl_yielded))
// goto throttle; return; }`. A constrained task (1 / 2 / 10 ms) that ran 0.5 ms wakes exactly at
// its deadline, where the revised wakeup rule leaves it no runtime, and blocks again at the
// same instant: nothing ran, so it is not throttled; woken 9 ms later, past its deadline, it
// starts a fresh period: 1 ms, deadline 1.013 s (throttled at that zero-length charge, its
// timer gave it 0.5 ms and 1.012 s).
TEST(EdfPolicy, AZeroLengthChargeDoesNotThrottle) {
  policy_t p;
  task t;
  ASSERT_EQ(p.setup(t, dl(msec(1), msec(2), msec(10))), errc::ok);
  const sched_time base{sec(1)};
  p.enqueue(t, base, enqueue_flags::wakeup);
  p.set_next(t, base);
  p.dequeue(t, base + usec(500), dequeue_flags::sleep);
  ASSERT_EQ(t.runtime, usec(500));
  p.enqueue(t, base + msec(2), enqueue_flags::wakeup);
  ASSERT_EQ(t.runtime, 0) << "the revised wakeup rule at the deadline itself";
  ASSERT_FALSE(t.throttled);
  p.set_next(t, base + msec(2));
  p.dequeue(t, base + msec(2), dequeue_flags::sleep);
  EXPECT_FALSE(t.throttled) << "a zero-length charge";
  p.enqueue(t, base + msec(11), enqueue_flags::wakeup);
  EXPECT_EQ(t.runtime, msec(1));
  EXPECT_EQ(t.deadline, base + msec(13));
  EXPECT_TRUE(p.verify());
}
