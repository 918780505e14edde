// goodness24_policy (Linux 2.4 goodness scheduler) against algorithms-legacy.md §3 and its
// HZ=100 oracles, driven by the deterministic tick driver. Expected values come from §3's
// formulas and numbers written out in this file, never from the code under test.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

#include "check_recorder.hpp"
#include "cross_queue_diff.hpp"
#include "schedcore/policy/goodness24.hpp"
#include "tick_driver.hpp"

namespace {

using namespace schedcore;
using schedcore_test::behaviour;
using schedcore_test::single_class;
using schedcore_test::tick_driver;

struct task : goodness24_entity {
  int id = 0;
};

using policy_t = goodness24_policy<task>;
static_assert(check_policy<policy_t>());

// verify() after every hook the driver calls.
struct checked : single_class<policy_t> {
  using base = single_class<policy_t>;
  bool ok = true;
  void note() {
    if (!verify()) ok = false;
  }
  bool tick(task& t, sched_time now) noexcept {
    const bool r = base::tick(t, now);
    note();
    return r;
  }
  void enqueue(task& t, sched_time now, enqueue_flags f) noexcept {
    base::enqueue(t, now, f);
    note();
  }
  void dequeue(task& t, sched_time now, dequeue_flags f) noexcept {
    base::dequeue(t, now, f);
    note();
  }
  task* schedule(task* prev, bool runnable, sched_time now) noexcept {
    task* next = base::schedule(prev, runnable, now);
    note();
    return next;
  }
};

void make(policy_t& p, task& t, int nice) {
  ASSERT_EQ(p.setup(t, sched_params{sched_kind::normal, static_cast<s8>(nice), 0, 0, 0, 0}), errc::ok);
}

double share(std::int64_t a, std::int64_t b) { return 100.0 * static_cast<double>(a) / static_cast<double>(a + b); }

// §3: NICE_TO_TICKS table at HZ=100 (i386): -20: 11, -10: 8, 0: 6, 5: 4, 10: 3, 19: 1; and the
// TICK_SCALE bands (at HZ~1024: nice 0 -> 41, 19 -> 3).
TEST(Goodness24Policy, NiceToTicksTable) {
  EXPECT_EQ(policy_t::nice_to_ticks(-20, 100), 11);
  EXPECT_EQ(policy_t::nice_to_ticks(-10, 100), 8);
  EXPECT_EQ(policy_t::nice_to_ticks(0, 100), 6);
  EXPECT_EQ(policy_t::nice_to_ticks(5, 100), 4);
  EXPECT_EQ(policy_t::nice_to_ticks(10, 100), 3);
  EXPECT_EQ(policy_t::nice_to_ticks(19, 100), 1);
  EXPECT_EQ(policy_t::nice_to_ticks(0, 1024), 41);
  EXPECT_EQ(policy_t::nice_to_ticks(19, 1024), 3);
  EXPECT_EQ(policy_t::nice_to_ticks(0, 250), 11);  // 20>>1 + 1
  EXPECT_EQ(policy_t::nice_to_ticks(0, 500), 21);  // 20 + 1
  EXPECT_EQ(policy_t::nice_to_ticks(0, 2000), 81); // 20<<2 + 1
}

// §3 oracle 1 (HZ=100): slices 60 / 10 / 110 ms for nice 0 / 19 / -20: two equal hogs alternate
// in whole slices.
TEST(Goodness24Policy, SlicesAtHz100Oracle1) {
  for (auto [nice, slice] : {std::pair<int, std::int64_t>{0, msec(60)}, {19, msec(10)}, {-20, msec(110)}}) {
    checked p;
    task a, b;
    make(p, a, nice);
    make(p, b, nice);
    tick_driver<checked> d(p, 100);
    d.add(a, behaviour::hog());
    d.add(b, behaviour::hog());
    d.run_until(slice);
    EXPECT_EQ(d.stats(0).cpu_ns + d.stats(1).cpu_ns, slice);
    EXPECT_TRUE(d.stats(0).cpu_ns == slice || d.stats(1).cpu_ns == slice) << "one whole slice first, nice " << nice;
    d.run_until(20 * slice);
    EXPECT_EQ(d.stats(0).cpu_ns, 10 * slice) << "nice " << nice;
    EXPECT_EQ(d.stats(1).cpu_ns, 10 * slice);
    // The same-mm +1 makes the task that ran last win the tie after each recalculation, so
    // slices come in pairs: b a a b b a a ... (20 slices, 11 switches).
    EXPECT_EQ(d.context_switches(), 11u);
    EXPECT_TRUE(p.ok);
  }
}

void two_hogs(int nice_a, int nice_b, double expect_a, std::int64_t period, std::int64_t cpu_a) {
  checked p;
  task a, b;
  make(p, a, nice_a);
  make(p, b, nice_b);
  tick_driver<checked> d(p, 100);
  d.add(a, behaviour::hog());
  d.add(b, behaviour::hog());
  d.run_until(50 * period);
  const double got = share(d.stats(0).cpu_ns, d.stats(1).cpu_ns);
  std::printf("  goodness24 two hogs nice %d vs %d: %.2f / %.2f %% (expected %.1f)\n", nice_a, nice_b, got, 100.0 - got,
              expect_a);
  EXPECT_NEAR(got, expect_a, 0.1);
  EXPECT_EQ(d.stats(0).cpu_ns, 50 * cpu_a);
  EXPECT_EQ(d.stats(0).cpu_ns + d.stats(1).cpu_ns, 50 * period);
  EXPECT_TRUE(p.ok);
}

// §3 oracle 2 (HZ=100): nice 0 vs 5 => 6:4 = 60/40 %; nice 0 vs 19 => 6:1 = 85.7/14.3 %;
// and the nice 0 vs 10 => 6:3 = 66.7/33.3 %.
TEST(Goodness24Policy, TwoHogsSplitOracle2) {
  two_hogs(0, 5, 60.0, msec(100), msec(60));
  two_hogs(0, 19, 85.7, msec(70), msec(60));
  two_hogs(0, 10, 66.7, msec(90), msec(60));
}

// §3 oracle 3 (HZ=100): a nice-0 task sleeping through several epochs reaches counter 11
// (6 -> 9 -> 10 -> 11 -> 11); on wakeup its goodness 31 (+1 with the hog's mm: 32) beats any
// nice-0 hog's <= 27 and it preempts immediately.
TEST(Goodness24Policy, SleeperReachesCounter11AndPreemptsOracle3) {
  checked p;
  task h1, h2, s;
  make(p, h1, 0);
  make(p, h2, 0);
  make(p, s, 0);
  tick_driver<checked> d(p, 100);
  d.add(h1, behaviour::hog());
  d.add(h2, behaviour::hog());
  d.add(s, behaviour::cycle(msec(10), sec(2), msec(605)));  // first wakeup at 605 ms
  d.run_until(msec(600));
  EXPECT_GE(p.recalculations(), 4u);  // epochs at 120, 240, 360, 480, 600 ms
  EXPECT_EQ(s.counter, 11);
  EXPECT_EQ(p.goodness_of(s), 11 + 20);
  EXPECT_LE(p.goodness_of(h1), 6 + 20 + 1);
  EXPECT_LE(p.goodness_of(h2), 6 + 20 + 1);
  d.run_until(msec(700));
  ASSERT_EQ(d.stats(2).wakeup_latency_ns.size(), 1u);
  EXPECT_EQ(d.stats(2).wakeup_latency_ns[0], 0) << "preempts the hog at once";
  EXPECT_TRUE(p.ok);
}

// §3: the pick keeps the *first* strictly greater goodness; 2.4.16 adds woken tasks at the
// head of the run list (add_to_runqueue = list_add), so among equals the latest wins.
TEST(Goodness24Policy, PickIsFirstStrictlyGreater) {
  single_class<policy_t> p;
  task a, b, c;
  make(p, a, 0);
  make(p, b, 0);
  make(p, c, -5);
  const sched_time t0{};
  p.enqueue(a, t0, enqueue_flags::wakeup);
  p.enqueue(b, t0, enqueue_flags::wakeup);
  EXPECT_EQ(p.pick_next(t0), &b);
  p.enqueue(c, t0, enqueue_flags::wakeup);
  EXPECT_EQ(p.pick_next(t0), &c);  // 6+... nice -5: counter 7, 7 + 25 = 32 > 26
  EXPECT_EQ(p.goodness_of(c), 7 + 25);
  EXPECT_EQ(p.goodness_of(a), 6 + 20);
  EXPECT_EQ(p.nr_runnable(), 3u);
  EXPECT_TRUE(p.verify());
}

// §3: tick decrements; at 0 the task has goodness 0 and, when every runnable task is at 0,
// the recalculation covers sleeping tasks too (counter = counter/2 + NICE_TO_TICKS).
TEST(Goodness24Policy, RecalculationCoversSleepingTasks) {
  single_class<policy_t> p;
  task run, sleeper;
  make(p, run, 0);
  make(p, sleeper, 10);  // never enqueued: asleep the whole time
  const sched_time t0{};
  p.enqueue(run, t0, enqueue_flags::wakeup);
  ASSERT_EQ(p.schedule(nullptr, false, t0), &run);
  for (int i = 1; i <= 5; ++i) EXPECT_FALSE(p.tick(run, t0 + msec(10 * i)));
  EXPECT_EQ(p.recalculations(), 0u);
  EXPECT_TRUE(p.tick(run, t0 + msec(60)));  // counter hits 0: epoch over
  EXPECT_EQ(p.recalculations(), 1u);
  EXPECT_EQ(run.counter, 0 / 2 + 6);
  EXPECT_EQ(sleeper.counter, 3 / 2 + 3);
  EXPECT_TRUE(p.verify());
}

// §3: wakeup preempts iff goodness(p) - goodness(curr) > 0 (curr gets the same-mm +1).
TEST(Goodness24Policy, WakeupPreemptionByGoodnessDifference) {
  single_class<policy_t> p;
  task curr, equal, better, thread;
  make(p, curr, 0);
  make(p, equal, 0);
  make(p, better, -1);
  make(p, thread, 0);
  curr.mm_id = thread.mm_id = 7;  // threads of one process
  const sched_time t0{};
  p.enqueue(curr, t0, enqueue_flags::wakeup);
  ASSERT_EQ(p.schedule(nullptr, false, t0), &curr);
  p.enqueue(equal, t0, enqueue_flags::wakeup);
  EXPECT_FALSE(p.wakeup_preempt(equal, curr, t0)) << "26 - 27 <= 0";
  p.enqueue(better, t0, enqueue_flags::wakeup);  // counter 6 (20-(-1) = 21 >> 2 = 5, +1), weight 27
  EXPECT_FALSE(p.wakeup_preempt(better, curr, t0)) << "27 - 27 = 0 does not preempt";
  p.tick(curr, t0 + msec(10));  // curr: counter 5 -> 5 + 20 + 1 = 26
  EXPECT_TRUE(p.wakeup_preempt(better, curr, t0 + msec(10)));
  p.enqueue(thread, t0 + msec(10), enqueue_flags::wakeup);  // 6 + 20 + 1 (same mm) = 27 > 26
  EXPECT_TRUE(p.wakeup_preempt(thread, curr, t0 + msec(10)));
  EXPECT_TRUE(p.verify());
}

// §3: fork halves the counter: child (parent + 1)/2, parent /= 2.
TEST(Goodness24Policy, ForkHalvesTheCounter) {
  single_class<policy_t> p;
  task parent, child;
  make(p, parent, -20);  // 11 ticks
  ASSERT_EQ(parent.counter, 11);
  const sched_time t0{};
  p.enqueue(parent, t0, enqueue_flags::initial);
  ASSERT_EQ(p.schedule(nullptr, false, t0), &parent);
  p.task_new(child, &parent, t0);
  EXPECT_EQ(child.counter, 6);
  EXPECT_EQ(parent.counter, 5);
  p.enqueue(child, t0, enqueue_flags::initial);
  EXPECT_EQ(p.nr_runnable(), 2u);
  EXPECT_TRUE(p.verify());
  p.dequeue(child, t0, dequeue_flags::dead);
  p.task_dead(child, t0);
  EXPECT_TRUE(p.verify());
}

// §3: sched_yield sets SCHED_YIELD (goodness -1 for one pick) and moves to the tail.
TEST(Goodness24Policy, YieldGivesWayForOnePick) {
  single_class<policy_t> p;
  task a, b;
  make(p, a, -10);  // higher goodness than b
  make(p, b, 0);
  const sched_time t0{};
  p.enqueue(a, t0, enqueue_flags::wakeup);
  p.enqueue(b, t0, enqueue_flags::wakeup);
  ASSERT_EQ(p.schedule(nullptr, false, t0), &a);
  p.yield(a, t0);
  EXPECT_EQ(p.goodness_of(a), -1);
  EXPECT_EQ(p.schedule(&a, true, t0), &b);
  EXPECT_GT(p.goodness_of(a), p.goodness_of(b)) << "the flag lasts for one pick only";
  EXPECT_TRUE(p.verify());
  // Alone on the CPU, yield changes nothing.
  single_class<policy_t> q;
  task c;
  make(q, c, 0);
  q.enqueue(c, t0, enqueue_flags::wakeup);
  ASSERT_EQ(q.schedule(nullptr, false, t0), &c);
  q.yield(c, t0);
  EXPECT_EQ(q.goodness_of(c), 6 + 20);  // no flag (and no previous task yet: no mm bonus)
}

// §3: SCHED_RR inside the 2.4 run queue: 1000 + rt_priority, refilled and moved to the tail.
TEST(Goodness24Policy, RealTimeTasksRunFirstAndRrRotates) {
  checked p;
  task r1, r2, other;
  ASSERT_EQ(p.setup(r1, {sched_kind::rr, 0, 10, 0, 0, 0}), errc::ok);
  ASSERT_EQ(p.setup(r2, {sched_kind::rr, 0, 10, 0, 0, 0}), errc::ok);
  make(p, other, -20);
  tick_driver<checked> d(p, 100);
  d.add(r1, behaviour::hog());
  d.add(r2, behaviour::hog());
  d.add(other, behaviour::hog());
  d.run_until(sec(12) / 10);
  EXPECT_EQ(d.stats(2).cpu_ns, 0);
  EXPECT_EQ(d.stats(0).cpu_ns, msec(600));  // 60 ms slices (nice 0 ticks) alternate
  EXPECT_EQ(d.stats(1).cpu_ns, msec(600));
  EXPECT_TRUE(p.ok);
}

// §3: a real-time task's goodness is 1000 + rt_priority, so the higher rt_priority runs first
// and preempts the lower on wakeup, never the reverse.
TEST(Goodness24Policy, RealTimeGoodnessFollowsRtPriority) {
  single_class<policy_t> p;
  task low, high, other;
  ASSERT_EQ(p.setup(low, {sched_kind::fifo, 0, 10, 0, 0, 0}), errc::ok);
  ASSERT_EQ(p.setup(high, {sched_kind::fifo, 0, 50, 0, 0, 0}), errc::ok);
  make(p, other, -20);
  const sched_time t0{};
  p.enqueue(other, t0, enqueue_flags::wakeup);
  p.enqueue(low, t0, enqueue_flags::wakeup);
  EXPECT_EQ(p.goodness_of(low), 1010);
  EXPECT_EQ(p.goodness_of(high), 1050);
  ASSERT_EQ(p.schedule(nullptr, false, t0), &low);
  p.enqueue(high, t0, enqueue_flags::wakeup);
  EXPECT_TRUE(p.wakeup_preempt(high, low, t0));
  ASSERT_EQ(p.schedule(&low, true, t0), &high);
  EXPECT_FALSE(p.wakeup_preempt(low, high, t0));
  EXPECT_TRUE(p.verify());
}

// The same-address-space bonus goes to tasks sharing the mm of the task that ran last (2.4's
// schedule(): goodness against prev->active_mm). A task that leaves the run list without
// having run (it went back to sleep while queued) is not that task.
TEST(Goodness24Policy, AQueuedTaskThatLeavesHasNotRunLast) {
  single_class<policy_t> p;
  task a, b, c;
  make(p, a, -1);  // counter 6, 21 for nice: 27, the best goodness
  make(p, b, 0);
  make(p, c, 0);
  a.mm_id = 3;
  b.mm_id = c.mm_id = 5;
  const sched_time t0{};
  for (task* t : {&a, &b, &c}) p.enqueue(*t, t0, enqueue_flags::wakeup);
  ASSERT_EQ(p.schedule(nullptr, false, t0), &a);
  p.dequeue(b, t0 + msec(1), dequeue_flags::sleep);
  EXPECT_EQ(p.goodness_of(c), 6 + 20) << "no bonus: b never ran";
  EXPECT_EQ(p.schedule(&a, true, t0 + msec(1)), &a) << "a ran last: 6 + 21 + 1 (its own mm) against c's 26";
  EXPECT_TRUE(p.verify());
}

TEST(Goodness24Policy, SameScheduleWhenTheClockStartsJustBelowWrap) {
  auto run = [](sched_time origin) {
    checked p;
    task a, b, c;
    make(p, a, 0);
    make(p, b, 5);
    make(p, c, -3);
    tick_driver<checked> d(p, 100, origin);
    d.add(a, behaviour::hog());
    d.add(b, behaviour::cycle(msec(7), msec(13)));
    d.add(c, behaviour::cycle(msec(25), msec(50), msec(3)));
    d.run_until(sec(3));
    EXPECT_TRUE(p.ok);
    std::vector<std::int64_t> r;
    for (std::size_t i = 0; i < 3; ++i) r.push_back(d.stats(i).cpu_ns), r.push_back(d.stats(i).max_wait_ns);
    r.push_back(static_cast<std::int64_t>(d.context_switches()));
    r.push_back(static_cast<std::int64_t>(p.recalculations()));
    return r;
  };
  const auto from_zero = run(sched_time{});
  const auto near_wrap = run(sched_time{std::numeric_limits<u64>::max() - msec(1500)});
  EXPECT_EQ(from_zero, near_wrap);
  EXPECT_GT(from_zero.back(), 2);
}

TEST(Goodness24Policy, BadParametersAreRefusedWithoutChange) {
  policy_t p;
  task t;
  make(p, t, 3);
  EXPECT_EQ(p.setup(t, {sched_kind::normal, 20, 0, 0, 0, 0}), errc::invalid_argument);
  EXPECT_EQ(p.setup(t, {sched_kind::normal, -21, 0, 0, 0, 0}), errc::invalid_argument);
  EXPECT_EQ(p.setup(t, {sched_kind::batch, 0, 0, 0, 0, 0}), errc::invalid_argument);
  EXPECT_EQ(p.setup(t, {sched_kind::rr, 0, 0, 0, 0, 0}), errc::out_of_range);
  EXPECT_EQ(p.setup(t, {sched_kind::fifo, 0, 100, 0, 0, 0}), errc::out_of_range);
  EXPECT_EQ(t.nice, 3);
  EXPECT_EQ(t.kind, sched_kind::normal);
  EXPECT_EQ(t.counter, 5);  // NICE_TO_TICKS(3) at HZ=100 = 17>>2 + 1
  p.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  EXPECT_EQ(p.setup(t, {sched_kind::normal, -5, 0, 0, 0, 0}), errc::busy);
  EXPECT_EQ(t.nice, 3);
  const auto k = p.config();
  EXPECT_EQ(p.configure({0, 1, 15, 1}), errc::invalid_argument);     // HZ 0
  EXPECT_EQ(p.configure({100, 0, 15, 1}), errc::invalid_argument);   // no CPU
  EXPECT_EQ(p.configure({100, 1, -1, 1}), errc::invalid_argument);   // negative penalty
  EXPECT_EQ(p.configure({100, 1, 15, -3}), errc::invalid_argument);  // negative bonus
  EXPECT_EQ(p.config().hz, k.hz);
  EXPECT_EQ(p.config().proc_change_penalty, 15);
  EXPECT_TRUE(p.verify());
}

TEST(Goodness24Policy, DoubleEnqueueAndStrayDequeueAreRefusedAndReported) {
  policy_t p;
  task t, u;
  make(p, t, 0);
  make(p, u, 0);
  p.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  schedcore_test::check_scope scope;
  p.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  p.dequeue(u, sched_time{}, dequeue_flags::sleep);
  p.task_dead(t, sched_time{});  // still queued
  EXPECT_EQ(scope.take().size(), 3u);
  EXPECT_EQ(p.nr_runnable(), 1u);
  EXPECT_TRUE(p.verify());
}

// SMP knobs: PROC_CHANGE_PENALTY applies only with cpus > 1 and to tasks that last ran here.
TEST(Goodness24Policy, ProcChangePenaltyOnlyOnSmp) {
  single_class<policy_t> p;
  ASSERT_EQ(p.configure({100, 2, 15, 1}), errc::ok);
  task a, b;
  make(p, a, 0);
  make(p, b, 0);
  const sched_time t0{};
  p.enqueue(a, t0, enqueue_flags::wakeup);
  ASSERT_EQ(p.schedule(nullptr, false, t0), &a);
  p.enqueue(b, t0, enqueue_flags::wakeup | enqueue_flags::migrated);
  p.put_prev(a, t0);
  EXPECT_EQ(p.goodness_of(a), 6 + 15 + 1 + 20);
  EXPECT_EQ(p.goodness_of(b), 6 + 20);
  EXPECT_TRUE(p.verify());
}

}  // namespace

namespace {

// 2.4.16 kernel/fork.c do_fork (CONFIG_SMP): the child's `processor` is copied from the
// parent (current->processor), so on the parent's CPU goodness() gives the child
// PROC_CHANGE_PENALTY like any task that last ran there.
TEST(Goodness24Policy, ForkedChildCountsAsLastRunOnTheParentsCpu) {
  single_class<policy_t> p;
  ASSERT_EQ(p.configure({100, 2, 15, 1}), errc::ok);
  task parent, child;
  make(p, parent, 0);  // 6 ticks
  const sched_time t0{};
  p.enqueue(parent, t0, enqueue_flags::initial);
  ASSERT_EQ(p.schedule(nullptr, false, t0), &parent);
  p.task_new(child, &parent, t0);  // child 3 ticks, parent 3
  p.enqueue(child, t0, enqueue_flags::initial);
  EXPECT_EQ(p.goodness_of(child), 3 + 15 + 20) << "own address space: no same-mm bonus";
  // Forked from a parent that is not running on this CPU: no bonus.
  single_class<policy_t> other;
  ASSERT_EQ(other.configure({100, 2, 15, 1}), errc::ok);
  task orphan;
  make(other, orphan, 0);
  other.task_new(orphan, &parent, t0);  // (3 + 1) / 2 = 2 ticks
  other.enqueue(orphan, t0, enqueue_flags::initial);
  EXPECT_EQ(other.goodness_of(orphan), 2 + 20);
  EXPECT_TRUE(p.verify());
}

// A fork placed on another CPU (the simulator sets the child up and calls task_new on the
// child's run queue): the parent, running on CPU A with 1 tick left, keeps 1 / 2 = 0 and becomes
// cold, the child (1 + 1) / 2 = 1 tick on CPU B. The class change is counted in A's counts,
// where the parent is queued, not in B's: both queues verify (before the fix, A still counted
// the parent hot and B's cold count went up for a task it does not hold). A's next tick then
// finds nothing hot and recalculates: the parent gets 0 / 2 + 6 ticks.
TEST(Goodness24Policy, AForkOnAnotherCpuCountsTheParentsChangeWhereItIsQueued) {
  single_class<policy_t> a, b;
  task parent, other_on_a, child;
  make(a, parent, 0);
  make(a, other_on_a, 0);
  const sched_time t0{};
  parent.counter = 1;
  other_on_a.counter = 0;  // cold: the parent is A's only hot task
  a.enqueue(parent, t0, enqueue_flags::initial);
  a.enqueue(other_on_a, t0, enqueue_flags::initial);
  ASSERT_EQ(a.schedule(nullptr, false, t0), &parent);
  b.task_new(child, &parent, t0);
  EXPECT_EQ(parent.counter, 0);
  EXPECT_EQ(child.counter, 1);
  b.enqueue(child, t0, enqueue_flags::initial);
  EXPECT_TRUE(a.verify());
  EXPECT_TRUE(b.verify());
  EXPECT_EQ(b.nr_runnable(), 1u);
  const auto recalcs = a.recalculations();
  a.tick(parent, t0 + msec(10));
  EXPECT_EQ(a.recalculations(), recalcs + 1);
  EXPECT_EQ(parent.counter, 6);  // NICE_TO_TICKS(0) at HZ = 100
  EXPECT_TRUE(a.verify());
}

// 2.4.16 kernel/sched.c: goodness() adds PROC_CHANGE_PENALTY when `p->processor == this_cpu`,
// and only schedule() writes `processor` (next->processor = this_cpu, when the task is picked to
// run). A task placed on another CPU and brought back before it ran there never left its CPU
// in 2.4's sense: back on it, it still has the bonus. Here: it last ran on A, wakes on B (no
// bonus there, it never ran on B), and a balancer moves it back to A before it runs.
TEST(Goodness24Policy, ATaskMovedAwayAndBackBeforeItRanKeepsTheBonusOnItsCpu) {
  single_class<policy_t> a, b;
  ASSERT_EQ(a.configure({100, 2, 15, 1}), errc::ok);
  ASSERT_EQ(b.configure({100, 2, 15, 1}), errc::ok);
  task x, y;
  make(a, x, 0);
  make(a, y, 0);
  const sched_time t0{};
  a.enqueue(x, t0, enqueue_flags::initial);
  a.enqueue(y, t0, enqueue_flags::initial);
  a.set_next(x, t0);
  a.dequeue(x, t0, dequeue_flags::sleep);  // x ran on A and blocks
  b.enqueue(x, t0, enqueue_flags::wakeup | enqueue_flags::migrated);
  EXPECT_EQ(b.goodness_of(x), 6 + 20) << "on B, where it never ran: no PROC_CHANGE_PENALTY";
  b.dequeue(x, t0, dequeue_flags::migrating);
  a.enqueue(x, t0, enqueue_flags::migrated);
  EXPECT_EQ(a.goodness_of(x), 6 + 15 + 1 + 20) << "back on A, its `processor`: the bonus again (and +1: it ran there last)";
  EXPECT_TRUE(a.verify());
  EXPECT_TRUE(b.verify());
}

// The same for a fork: 2.4.16's do_fork copies `processor` from the parent, so a child the
// simulator placed on B and a balancer moved to its parent's CPU A before it ran gets the bonus
// on A (and none on B).
TEST(Goodness24Policy, AChildForkedOntoAnotherCpuAndPulledToItsParentsCpuGetsTheBonusThere) {
  single_class<policy_t> a, b;
  ASSERT_EQ(a.configure({100, 2, 15, 1}), errc::ok);
  ASSERT_EQ(b.configure({100, 2, 15, 1}), errc::ok);
  task parent, child;
  make(a, parent, 0);  // 6 ticks
  const sched_time t0{};
  a.enqueue(parent, t0, enqueue_flags::initial);
  ASSERT_EQ(a.schedule(nullptr, false, t0), &parent);
  b.task_new(child, &parent, t0);  // child 3 ticks, parent 3
  b.enqueue(child, t0, enqueue_flags::initial);
  EXPECT_EQ(b.goodness_of(child), 3 + 20);
  b.dequeue(child, t0, dequeue_flags::migrating);
  a.enqueue(child, t0, enqueue_flags::migrated);
  EXPECT_EQ(a.goodness_of(child), 3 + 15 + 20);
  EXPECT_TRUE(a.verify());
  EXPECT_TRUE(b.verify());
}

// 2.4.16 kernel/exit.c release_task(): the reaper (the parent, in wait4) takes back the dead
// child's counter, `current->counter += p->counter`, and `if (current->counter >= MAX_COUNTER)
// current->counter = MAX_COUNTER` with MAX_COUNTER = 20*HZ/100 (include/linux/sched.h): 20
// ticks at HZ = 100, 200 at HZ = 1000. Numbers: a nice 0 parent with NICE_TO_TICKS(0) = 6
// forks (child (6+1)/2 = 3, parent 6/2 = 3); the child runs 1 tick (2 left) and exits: the
// parent has 3 + 2 = 5. A parent at 19 getting 5 stops at 20; one at 21 (above the cap after
// recalculations at nice -20: fixed point 2*11-1) getting 0 is cut to 20.
TEST(Goodness24Policy, AnExitGivesTheChildsTicksBackToItsParentUpToMaxCounter) {
  single_class<policy_t> p;
  task parent, child;
  make(p, parent, 0);
  sched_time now{};
  ASSERT_EQ(parent.counter, 6);
  p.enqueue(parent, now, enqueue_flags::initial);
  ASSERT_EQ(p.schedule(nullptr, false, now), &parent);
  p.task_new(child, &parent, now);
  ASSERT_EQ(parent.counter, 3);
  ASSERT_EQ(child.counter, 3);
  p.enqueue(child, now, enqueue_flags::initial);
  p.dequeue(parent, now, dequeue_flags::sleep);  // the parent waits for the child
  ASSERT_EQ(p.schedule(&parent, false, now), &child);
  EXPECT_FALSE(p.tick(child, now += msec(10)));
  ASSERT_EQ(child.counter, 2);
  p.dequeue(child, now, dequeue_flags::dead);
  p.task_dead(child, now);
  EXPECT_EQ(parent.counter, 5);
  EXPECT_EQ(child.parent, nullptr);
  EXPECT_TRUE(p.verify());

  EXPECT_EQ(p.max_counter(), 20);
  auto exit_with = [&](int parent_ticks, int child_ticks) {
    task c;
    p.task_new(c, &parent, now);
    parent.counter = parent_ticks;
    c.counter = child_ticks;
    p.task_dead(c, now);
    return parent.counter;
  };
  EXPECT_EQ(exit_with(19, 5), 20);
  EXPECT_EQ(exit_with(21, 0), 20) << "2.4 clamps with >=: a parent above MAX_COUNTER is cut to it";
  EXPECT_EQ(exit_with(0, 0), 0);
  EXPECT_EQ(exit_with(7, 12), 19);

  policy_t fast;
  policy_t::knobs k;
  k.hz = 1000;
  ASSERT_EQ(fast.configure(k), errc::ok);
  EXPECT_EQ(fast.max_counter(), 200);
  task p2, c2;
  make(fast, p2, 0);
  fast.task_new(c2, &p2, now);
  p2.counter = 150;
  c2.counter = 41;
  fast.task_dead(c2, now);
  EXPECT_EQ(p2.counter, 191);
  fast.task_new(c2, &p2, now);  // halves the parent: 191 -> 95
  p2.counter = 191;
  c2.counter = 41;
  fast.task_dead(c2, now);
  EXPECT_EQ(p2.counter, 200);
}

// The credit goes only to a live parent of this class: none after the parent died (its entity
// stays readable in the simulator, a reused one is cut off by orphan()), none after orphan(),
// and a child that leaves the class (switched_from) keeps its link but pays nothing on the way
// out. A parent queued cold on another CPU's queue turns hot there: that queue's counts follow
// (verify), as for a fork.
TEST(Goodness24Policy, AnExitCreditsOnlyALiveParentAndIsCountedWhereTheParentIsQueued) {
  single_class<policy_t> a, b;
  sched_time now{};
  task parent, hot_on_a, child;
  make(a, parent, 0);
  make(a, hot_on_a, 0);
  a.enqueue(hot_on_a, now, enqueue_flags::initial);
  ASSERT_EQ(a.schedule(nullptr, false, now), &hot_on_a);
  b.task_new(child, &parent, now);  // parent 6 -> 3, child 3
  parent.counter = 0;
  a.enqueue(parent, now, enqueue_flags::wakeup);  // queued cold on A
  b.enqueue(child, now, enqueue_flags::initial);
  ASSERT_EQ(b.schedule(nullptr, false, now), &child);
  b.dequeue(child, now, dequeue_flags::dead);
  b.task_dead(child, now);
  EXPECT_EQ(parent.counter, 3);
  EXPECT_TRUE(a.verify()) << "the parent's change of class is counted in A's counts";
  EXPECT_TRUE(b.verify());
  // A now has two hot tasks: the parent's goodness is 3 + 20 (no same-CPU bonus on UP).
  EXPECT_EQ(a.goodness_of(parent), 23);

  // Dead parent: no credit.
  task p2, c2;
  make(a, p2, 0);
  a.task_new(c2, &p2, now);
  a.task_dead(p2, now);
  const int before = p2.counter;
  c2.counter = 4;
  a.task_dead(c2, now);
  EXPECT_EQ(p2.counter, before);
  // orphan(): no credit.
  task p3, c3;
  make(a, p3, 0);
  a.task_new(c3, &p3, now);
  policy_t::orphan(c3);
  c3.counter = 4;
  a.task_dead(c3, now);
  EXPECT_EQ(p3.counter, 3);
  // switched_from: no credit on leaving, the link kept.
  task c4;
  a.task_new(c4, &p3, now);  // p3: 3 -> 1, c4: 2
  a.switched_from(c4, now);
  EXPECT_EQ(p3.counter, 1);
  EXPECT_EQ(c4.parent, &p3);
  EXPECT_TRUE(a.verify());
}

// 2.4's setscheduler() changes the policy and rt_priority only: a nice 10 task made SCHED_RR
// keeps nice 10, so its RR quantum is NICE_TO_TICKS(10) (§3: an exhausted RR task gets
// counter = NICE_TO_TICKS(nice)), 3 ticks at HZ = 100, not nice 0's 6.
// Oracle: 2.4.16 sys_nice / sys_setpriority set p->nice only and leave the run list alone
// (only setscheduler moves a task to the head, move_first_runqueue). Run list [A, B], B running
// with counter 4 calls nice(-1): B's goodness 4 + 20 + 1 + 1 (the same-mm bonus of the task that
// ran last) = 26 ties A's 6 + 20; the pick keeps the first strictly greater, A. Pushed to the
// head by the change, B would win the tie.
TEST(Goodness24Policy, ANiceChangeLeavesTheRunListOrderAlone) {
  policy_t p;
  policy_t::knobs k;
  k.hz = 100;
  ASSERT_EQ(p.configure(k), errc::ok);
  task a, b;
  make(p, a, 0);
  make(p, b, 0);
  a.id = 1;
  b.id = 2;
  sched_time now{};
  p.enqueue(b, now, enqueue_flags::wakeup);
  p.enqueue(a, now, enqueue_flags::wakeup);  // at the head: [A, B]
  p.set_next(b, now);
  for (int i = 0; i < 2; ++i) (void)p.tick(b, now += msec(10));
  ASSERT_EQ(b.counter, 4);
  p.dequeue(b, now, dequeue_flags::save);
  ASSERT_EQ(p.setup(b, {sched_kind::normal, -1, 0, 0, 0, 0}), errc::ok);
  p.enqueue(b, now, enqueue_flags::restore);
  p.set_next(b, now);
  p.put_prev(b, now);
  EXPECT_EQ(p.pick_next(now), &a) << "a tie at 26: the first in the run list, A";
  // A change of kind is setscheduler's (the task goes to the head): B as SCHED_RR 10 runs.
  p.dequeue(b, now, dequeue_flags::save);
  ASSERT_EQ(p.setup(b, {sched_kind::rr, 0, 10, 0, 0, 0}), errc::ok);
  p.enqueue(b, now, enqueue_flags::restore);
  EXPECT_EQ(p.pick_next(now), &b);
  EXPECT_TRUE(p.verify());
}

// So is a change of rt_priority alone (sched_setparam, or sched_setscheduler with the same
// policy: 2.4.16's setscheduler() ends with move_first_runqueue for any queued task). Run list
// [A, B], A FIFO 20 and B FIFO 10; B raised to FIFO 20 ties A at goodness 1020, and from the
// head it wins the tie (the pick keeps the first strictly greater). Restored to its old place
// behind A, A would run.
TEST(Goodness24Policy, AChangeOfRtPriorityAloneMovesTheTaskToTheHead) {
  policy_t p;
  task a, b;
  ASSERT_EQ(p.setup(a, {sched_kind::fifo, 0, 20, 0, 0, 0}), errc::ok);
  ASSERT_EQ(p.setup(b, {sched_kind::fifo, 0, 10, 0, 0, 0}), errc::ok);
  sched_time now{};
  p.enqueue(b, now, enqueue_flags::wakeup);
  p.enqueue(a, now, enqueue_flags::wakeup);  // at the head: [A, B]
  p.dequeue(b, now, dequeue_flags::save);
  ASSERT_EQ(p.setup(b, {sched_kind::fifo, 0, 20, 0, 0, 0}), errc::ok);
  p.enqueue(b, now, enqueue_flags::restore);
  EXPECT_EQ(p.pick_next(now), &b);
  // An unchanged kind and rt_priority (a nice change; an RT task keeps its nice) keeps the
  // place: A stays behind B.
  p.dequeue(a, now, dequeue_flags::save);
  ASSERT_EQ(p.setup(a, {sched_kind::fifo, 5, 20, 0, 0, 0}), errc::ok);
  p.enqueue(a, now, enqueue_flags::restore);
  EXPECT_EQ(p.pick_next(now), &b);
  EXPECT_TRUE(p.verify());
}

TEST(Goodness24Policy, ATaskMadeSchedRrKeepsItsNiceAndItsQuantum) {
  policy_t p;
  policy_t::knobs k;
  k.hz = 100;
  ASSERT_EQ(p.configure(k), errc::ok);
  task t, other;
  ASSERT_EQ(p.setup(t, {sched_kind::normal, 10, 0, 0, 0, 0}), errc::ok);
  ASSERT_EQ(p.setup(other, {sched_kind::normal, 0, 0, 0, 0, 0}), errc::ok);
  ASSERT_EQ(p.setup(t, {sched_kind::rr, 0, 50, 0, 0, 0}), errc::ok);  // sched_setscheduler(SCHED_RR, 50)
  EXPECT_EQ(t.nice, 10);
  ASSERT_EQ(policy_t::nice_to_ticks(10, 100), 3);
  p.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  p.enqueue(other, sched_time{}, enqueue_flags::wakeup);
  task* c = p.pick_next(sched_time{});
  ASSERT_EQ(c, &t) << "the RR task goes first";
  p.set_next(*c, sched_time{});
  sched_time now{};
  do {
    now += msec(10);
  } while (!p.tick(*c, now));
  EXPECT_EQ(t.counter, 3) << "refilled with NICE_TO_TICKS(10)";
  // Back to SCHED_OTHER with another nice: that nice is taken.
  p.put_prev(*c, now);
  p.dequeue(t, now, dequeue_flags::save);
  ASSERT_EQ(p.setup(t, {sched_kind::normal, -5, 0, 0, 0, 0}), errc::ok);
  EXPECT_EQ(t.nice, -5);
}

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

TEST(Goodness24Policy, TickScaleBandEdgesFollowTheHzThresholds) {
  // Linux 2.4.16 kernel/sched.c: "#if HZ < 200 TICK_SCALE(x) ((x) >> 2) #elif HZ < 400 ((x) >> 1)
  // #elif HZ < 800 (x) #elif HZ < 1600 ((x) << 1) #else ((x) << 2)", NICE_TO_TICKS(nice) =
  // TICK_SCALE(20 - nice) + 1 (algorithms-legacy.md §3). Each threshold belongs to the upper band.
  EXPECT_EQ(policy_t::nice_to_ticks(0, 199), 20 / 4 + 1);
  EXPECT_EQ(policy_t::nice_to_ticks(0, 200), 20 / 2 + 1);
  EXPECT_EQ(policy_t::nice_to_ticks(0, 399), 20 / 2 + 1);
  EXPECT_EQ(policy_t::nice_to_ticks(0, 400), 20 + 1);
  EXPECT_EQ(policy_t::nice_to_ticks(0, 799), 20 + 1);
  EXPECT_EQ(policy_t::nice_to_ticks(0, 800), 20 * 2 + 1);
  EXPECT_EQ(policy_t::nice_to_ticks(0, 1599), 20 * 2 + 1);
  EXPECT_EQ(policy_t::nice_to_ticks(0, 1600), 20 * 4 + 1);
}

// Random two-CPU histories (tests/support/cross_queue_diff.hpp): the parent's half of a fork
// onto the other CPU (the kernel runs it in the parent's context, on the parent's queue) does
// not depend on what the child's CPU holds.
TEST(Goodness24Policy, RandomForksAcrossCpusLeaveTheParentsQueueAlone) {
  schedcore_test::expect_forks_leave_the_parents_queue_alone<policy_t>();
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Against 2.4.16's source, from an independent model of schedule(), do_fork and release_task
// run side by side with the policy.

// do_fork: `current->counter >>= 1; if (!current->counter) current->need_resched = 1;`, and
// schedule() then moves an exhausted SCHED_RR prev to the tail with a fresh quantum (`if
// (prev->policy == SCHED_RR) if (!prev->counter) { counter = NICE_TO_TICKS(nice);
// move_last_runqueue(prev); }`), whatever emptied it. An RR task alone with one tick left
// forks: the child (a new RR task at the head, equal goodness) runs, and the parent is at the
// tail with NICE_TO_TICKS(0) = 6 ticks (HZ 100).
TEST(Goodness24Policy, AForkThatLeavesAnRrParentNoTicksReschedulesAndRequeuesIt) {
  policy_t p;
  task parent, child;
  ASSERT_EQ(p.setup(parent, {sched_kind::rr, 0, 10, 0, 0, 0}), errc::ok);
  sched_time now{};
  p.enqueue(parent, now, enqueue_flags::wakeup);
  ASSERT_EQ(p.pick_next(now), &parent);
  p.set_next(parent, now);
  for (int i = 1; i <= 5; ++i) {
    now = now + msec(10);
    ASSERT_FALSE(p.tick(parent, now)) << i;
  }
  ASSERT_EQ(parent.counter, 1);
  ASSERT_EQ(p.setup(child, {sched_kind::rr, 0, 10, 0, 0, 0}), errc::ok);  // the parent's policy
  p.task_new(child, &parent, now);
  ASSERT_EQ(parent.counter, 0);
  EXPECT_EQ(child.counter, 1);
  p.enqueue(child, now, enqueue_flags::initial);  // head: [child, parent]
  EXPECT_TRUE(p.wakeup_preempt(child, parent, now)) << "need_resched, though the goodness ties";
  EXPECT_FALSE(p.take_resched()) << "asked once";
  p.put_prev(parent, now);
  EXPECT_EQ(parent.counter, 6) << "refilled at the schedule";
  EXPECT_EQ(p.pick_next(now), &child);
  p.set_next(child, now);
  p.dequeue(child, now, dequeue_flags::sleep);
  EXPECT_EQ(p.pick_next(now), &parent);
  EXPECT_TRUE(p.verify());
  // A SCHED_OTHER parent left with 0 asks for the reschedule too (take_resched, for a port
  // that makes no preemption check after a fork).
  policy_t q;
  task other, kid;
  make(q, other, 0);
  q.enqueue(other, now, enqueue_flags::wakeup);
  q.set_next(other, now);
  for (int i = 1; i <= 5; ++i) q.tick(other, now + msec(10 * i));
  q.task_new(kid, &other, now + msec(50));
  EXPECT_TRUE(q.take_resched());
  EXPECT_FALSE(q.take_resched());
}

// The same schedule() rule for a FIFO task that used up its counter (ticks count it down for
// every policy) and is then made SCHED_RR: at the next schedule it is refilled and goes behind
// the RR task of equal priority, which runs.
TEST(Goodness24Policy, AnExhaustedTaskMadeSchedRrGoesLastAtTheNextSchedule) {
  policy_t p;
  task a, b;
  ASSERT_EQ(p.setup(a, {sched_kind::fifo, 0, 1, 0, 0, 0}), errc::ok);
  sched_time now{};
  p.enqueue(a, now, enqueue_flags::wakeup);
  p.set_next(a, now);
  for (int i = 1; i <= 6; ++i) p.tick(a, now + msec(10 * i));  // FIFO: no refill, counter 0
  now = now + msec(60);
  ASSERT_EQ(a.counter, 0);
  ASSERT_EQ(p.setup(b, {sched_kind::rr, 0, 1, 0, 0, 0}), errc::ok);
  p.enqueue(b, now, enqueue_flags::wakeup);  // [b, a]
  p.dequeue(a, now, dequeue_flags::save);
  ASSERT_EQ(p.setup(a, {sched_kind::rr, 0, 1, 0, 0, 0}), errc::ok);
  p.enqueue(a, now, enqueue_flags::restore);  // a change of kind: head, [a, b]
  p.set_next(a, now);
  ASSERT_EQ(p.pick_next(now), &a);
  p.put_prev(a, now);
  EXPECT_EQ(a.counter, 6);
  EXPECT_EQ(p.pick_next(now), &b) << "a went behind b";
  EXPECT_TRUE(p.verify());
}

// schedule() computes goodness against `prev->active_mm`, which an exiting task keeps until
// after the pick (__exit_mm clears mm only): a thread of the dead task's process still gets
// the +1 bonus. Run list [C (own mm), B (A's process), A]; A exits: B has 6 + 20 + 1 = 27,
// C 26, so B runs although C is first.
TEST(Goodness24Policy, AnExitingTasksAddressSpaceStillGivesTheSameMmBonus) {
  policy_t p;
  task a, b, c;
  make(p, a, 0);
  make(p, b, 0);
  make(p, c, 0);
  a.mm_id = b.mm_id = 4;
  sched_time now{};
  p.enqueue(a, now, enqueue_flags::wakeup);
  p.set_next(a, now);
  p.enqueue(b, now, enqueue_flags::wakeup);
  p.enqueue(c, now, enqueue_flags::wakeup);
  p.dequeue(a, now, dequeue_flags::dead);
  p.task_dead(a, now);
  EXPECT_EQ(p.goodness_of(b), 27);
  EXPECT_EQ(p.goodness_of(c), 26);
  EXPECT_EQ(p.pick_next(now), &b);
  EXPECT_TRUE(p.verify());
}
