// nicksched_policy (Nick Piggin's v13 scheduler, 2003) against the oracles of
// algorithms-legacy.md §4, driven by the deterministic tick driver (tests/support/
// o1_driver_ext.hpp adds scripted phases and run-segment/pick logs) or by calling the hooks
// directly. Expected values are computed by hand from the §4 formulas:
//   prio  = clamp(100 + USER_PRIO(static) + 10 - round(20 * sleep_avg / 1024), 100, 159)
//   slice = (61 / (prio - idx + 2)) * (USER_PRIO(idx) + 8) / 24 ms at HZ=1000
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "check_recorder.hpp"
#include "cross_queue_diff.hpp"
#include "o1_driver_ext.hpp"
#include "schedcore/policy/nicksched.hpp"
#include "tick_driver.hpp"

namespace {

using namespace schedcore;
using schedcore_test::script;
using schedcore_test::script_driver;
using schedcore_test::single_class;

struct task : nicksched_entity {
  int id = 0;
};

using policy_type = nicksched_policy<task>;
using ns = single_class<policy_type>;

task make(int nice) {
  task t;
  policy_type setup_only;
  EXPECT_EQ(setup_only.setup(t, sched_params{sched_kind::normal, static_cast<s8>(nice), 0, 0, 0, 0}), errc::ok);
  return t;
}

struct manual {
  ns policy;
  sched_time now{};
  task* curr = nullptr;
  void step_to(s64 ms) { now = sched_time{} + msec(ms); }
  void schedule(bool prev_runnable = true) { curr = policy.schedule(curr, prev_runnable, now); }
};

TEST(NickschedPolicy, PriorityMapping) {
  // §4: NICE_TO_PRIO(n) = 130 + n; a task with no sleep history is a hog: 140 at nice 0.
  task a = make(0), b = make(-20), c = make(19);
  EXPECT_EQ(a.static_prio, 130);
  EXPECT_EQ(b.static_prio, 110);
  EXPECT_EQ(c.static_prio, 149);
  EXPECT_EQ(a.prio, 140);
  EXPECT_EQ(b.prio, 120);
  EXPECT_EQ(c.prio, 159);
}

TEST(NickschedPolicy, LoneHogSliceIs60msOracle1) {
  // §4 oracle 1: idx = prio = 140, delta 0: base 61/2 = 30, slice 30 * (40 + 8) / 24 = 60 ms.
  ns policy;
  task t = make(0);
  script_driver<ns> d(policy, 1000);
  d.add(t, script::hog());
  d.run_until(msec(241));
  const auto& picks = d.picks();
  ASSERT_EQ(picks.size(), 5u);
  for (std::size_t k = 0; k < picks.size(); ++k) EXPECT_EQ(picks[k].at_ns, msec(60) * static_cast<s64>(k));
  EXPECT_EQ(policy.timeslice(t), msec(60));
  EXPECT_EQ(policy.array_sequence(), 4u) << "each expiry empties active: one switch per slice";
}

// v13's task_timeslice counts in jiffies with MIN_TIMESLICE = HZ/1000 jiffies, at least one:
// a lone nice-0 hog gets 60 jiffies at any HZ up to 1000 (600 ms at HZ 100, 240 ms at HZ 250)
// and 120 at HZ 2000 (60 ms); a hog beside a fully interactive task 2 jiffies, the interactive
// task 35 (the formula's; checked at HZ 1000 by HogBesideInteractiveTaskGets2msOracle2, only the
// lone hog here). (Before, the 1 ms unit was truncated to jiffies: 60 ms at every HZ, and 1 and 8
// jiffies at HZ 250.)
TEST(NickschedPolicy, SlicesAreInJiffiesOfMinTimesliceAtAnyHz) {
  const struct {
    s64 hz;
    duration_ns lone;
  } cases[] = {{100, msec(600)}, {250, msec(240)}, {1000, msec(60)}, {2000, msec(60)}};
  for (const auto& c : cases) {
    ns policy;
    ns::knobs k;
    k.hz = c.hz;
    ASSERT_EQ(policy.configure(k), errc::ok);
    task t = make(0);
    script_driver<ns> d(policy, static_cast<int>(c.hz));
    d.add(t, script::hog());
    d.run_until(c.lone * 2 + 1);
    const auto& picks = d.picks();
    ASSERT_EQ(picks.size(), 3u) << "HZ " << c.hz;
    EXPECT_EQ(picks[1].at_ns, c.lone) << "HZ " << c.hz;
    EXPECT_EQ(policy.timeslice(t), c.lone) << "HZ " << c.hz;
  }
}

TEST(NickschedPolicy, TwoEqualHogsAlternate60msOracle3) {
  // §4 oracle 3: two nice-0 hogs alternate 60 ms each, 50/50.
  ns policy;
  task a = make(0), b = make(0);
  script_driver<ns> d(policy, 1000);
  d.add(a, script::hog());
  d.add(b, script::hog());
  d.on_step([&] { ASSERT_TRUE(policy.verify()); });
  d.run_until(msec(1200));
  EXPECT_EQ(d.stats(0).cpu_ns, msec(600));
  EXPECT_EQ(d.stats(1).cpu_ns, msec(600));
  ASSERT_EQ(d.segments().size(), 20u);
  for (std::size_t i = 0; i < 20; ++i) {
    EXPECT_EQ(d.segments()[i].task, i % 2);
    EXPECT_EQ(d.segments()[i].length(), msec(60));
  }
}

TEST(NickschedPolicy, HogBesideInteractiveTaskGets2msOracle2) {
  // §4 oracle 2: an interactive nice-0 task (prio 120) always preempts the hog (140); when
  // both are runnable: interactive idx 120, delta 0: 30 * 28 / 24 = 35 ms; the hog delta 20:
  // 61 / 22 = 2, 2 * 28 / 24 = 2 ms.
  // I sleeps 199 ms per 200 ms for 5 s (sleep_avg -> ~1020, prio 120), then spins.
  ns policy;
  task i = make(0), h = make(0);
  script_driver<ns> d(policy, 1000);
  script si;
  si.then(msec(1), msec(199), 25).then(0, 0);
  d.add(i, si);
  d.add(h, script::hog());
  d.on_step([&] { ASSERT_TRUE(policy.verify()); });
  d.run_until(sec(5));
  EXPECT_EQ(i.prio, 120);
  EXPECT_EQ(h.prio, 140);
  // Always preempts: after the history has built up, every wakeup runs at once.
  const auto& lat = d.stats(0).wakeup_latency_ns;
  ASSERT_EQ(lat.size(), 25u);
  for (auto l : lat) EXPECT_EQ(l, 0);
  // H's slice was 60 ms while I slept.
  EXPECT_EQ(policy.timeslice(h), msec(60));
  d.run_until(sec(5) + 1);  // I woke at 5 s and runs; both runnable now
  EXPECT_EQ(d.current(), 0u);
  EXPECT_EQ(policy.timeslice(i), msec(35));
  EXPECT_EQ(policy.timeslice(h), msec(2));
  d.run_until(sec(5) + msec(400));
  // I's first slice (from 5 s, used_slice restarted because it slept across switches) is
  // 35 ms: the next schedule() is at 5.035 s.
  std::size_t k = 0;
  while (k < d.picks().size() && d.picks()[k].at_ns < sec(5)) ++k;
  ASSERT_LT(k + 1, d.picks().size());
  EXPECT_EQ(d.picks()[k].at_ns, sec(5));
  EXPECT_EQ(d.picks()[k].task, 0u);
  EXPECT_EQ(d.picks()[k + 1].at_ns - d.picks()[k].at_ns, msec(35));
  // While I spins its prio drifts from 120 towards 126, so the hog's slices stay 2-4 ms
  // (formula: 61 / (140 - p + 2) * (p - 100 + 8) / 24 for I at p = 120..126) instead of 60.
  int hog_slices = 0;
  for (const auto& seg : d.segments()) {
    if (seg.start_ns < sec(5) || seg.task != 1) continue;
    ++hog_slices;
    EXPECT_GE(seg.length(), msec(2));
    EXPECT_LE(seg.length(), msec(4));
  }
  EXPECT_GE(hog_slices, 5);
}

TEST(NickschedPolicy, HalfDutySleepAvgConvergesTo512Oracle4) {
  // §4 oracle 4: 50 ms run / 50 ms sleep. By hand (window 1 s): per period both sums decay by
  // 0.95 twice and gain 50 ms (sleep) / 100 ms (total), so sleep -> 512.8 ms, total -> 1000 ms
  // (history units), sleep_avg 1024 * 0.4872 .. 0.5128 = 499 .. 525 around the cycle, ~512;
  // prio = 140 - round(20 * 0.5) = 130.
  ns policy;
  task t = make(0);
  script_driver<ns> d(policy, 1000);
  d.add(t, script::cycle(msec(50), msec(50)));
  for (int k = 0; k < 8; ++k) {
    d.run_until(sec(10) + msec(25) * k);
    EXPECT_GE(policy_type::sleep_avg(t), 499u);
    EXPECT_LE(policy_type::sleep_avg(t), 525u);
    EXPECT_EQ(policy_type::priority_from_history(t), 130u);
  }
  EXPECT_TRUE(policy.verify());
}

TEST(NickschedPolicy, HistoryClampsEachEventSection4) {
  // §4 add_task_time: a 10 s sleep counts as MAX_SLEEP/4 = 250 ms. From a fresh history
  // (total 0.5 s, sleep 0): total 0.5 * 0.75 + 0.25 = 0.625 s, sleep 0.25 s -> 1024 * 0.4 = 409.
  manual m;
  task t = make(0);
  m.policy.enqueue(t, m.now, enqueue_flags::initial);
  m.schedule();
  m.policy.dequeue(t, m.now, dequeue_flags::sleep);
  m.schedule(false);
  m.step_to(10000);
  m.policy.enqueue(t, m.now, enqueue_flags::wakeup);
  EXPECT_EQ(t.total_time, u64{625000000} << 10);
  EXPECT_EQ(t.sleep_time, u64{250000000} << 10);
  EXPECT_EQ(policy_type::sleep_avg(t), 409u);
  EXPECT_EQ(t.prio, 140 - 8);  // round(20 * 409 / 1024) = round(7.99) = 8
  // A 1 s run-queue wait is capped at MAX_SLEEP/16 = 62.5 ms and only decays:
  // both sums * 0.9375, floor 0.5 s not reached (0.586 s).
  m.step_to(11000);
  m.schedule(false);
  ASSERT_EQ(m.curr, &t);
  EXPECT_EQ(t.total_time, (u64{625000000} << 10) / 16 * 15);
  EXPECT_EQ(t.sleep_time, (u64{250000000} << 10) / 16 * 15);
}

TEST(NickschedPolicy, SleepAcrossArraySwitchRestartsSliceSection4) {
  // §4: a task that slept across an array switch restarts its slice (used_slice = 0); one that
  // did not keeps it.
  for (int across = 0; across < 2; ++across) {
    manual m;
    task a = make(0), b = make(0);
    m.policy.enqueue(a, m.now, enqueue_flags::initial);
    m.policy.enqueue(b, m.now, enqueue_flags::initial);
    m.schedule();
    ASSERT_EQ(m.curr, &a);
    for (int ms = 1; ms <= 20; ++ms) {
      m.step_to(ms);
      ASSERT_FALSE(m.policy.tick(a, m.now));
    }
    m.policy.dequeue(a, m.now, dequeue_flags::sleep);
    m.schedule(false);
    ASSERT_EQ(m.curr, &b);
    EXPECT_EQ(a.used_slice, 20);
    const u32 seq = m.policy.array_sequence();
    int ms = 21;
    if (across) {  // b runs out its 60 ms alone: expires, active empties, switch at the pick
      while (!m.policy.tick(b, m.now + msec(0))) m.step_to(++ms);
      m.schedule();
      EXPECT_EQ(m.policy.array_sequence(), seq + 1);
    }
    m.step_to(ms + 1);
    m.policy.enqueue(a, m.now, enqueue_flags::wakeup);
    EXPECT_EQ(a.used_slice, across ? 0 : 20);
    EXPECT_TRUE(m.policy.verify());
  }
}

// Source: algorithms-legacy.md §4 ("rq->array_sequence increments on array switch and a task
// that slept across a switch restarts its slice"): the sequence counts one run queue's switches.
// A task runs 20 ms of its slice on CPU 0, sleeps and wakes on CPU 1. Neither queue has
// switched arrays, so the two sequences are equal, which is a coincidence and not a sign that
// the slice belongs to CPU 1's arrays: the wakeup restarts it (used_slice = 0), as every
// wakeup on another CPU does.
TEST(NickschedPolicy, AWakeupOnAnotherCpusQueueRestartsTheSliceWhateverItsSequence) {
  ns rq0, rq1;
  task a = make(0);
  const sched_time t0{};
  rq0.enqueue(a, t0, enqueue_flags::initial);
  ASSERT_EQ(rq0.schedule(nullptr, false, t0), &a);
  for (int ms = 1; ms <= 20; ++ms) ASSERT_FALSE(rq0.tick(a, t0 + msec(ms)));
  rq0.dequeue(a, t0 + msec(20), dequeue_flags::sleep);
  ASSERT_EQ(a.used_slice, 20);
  ASSERT_EQ(rq0.array_sequence(), rq1.array_sequence()) << "the coincidence the test is about";
  rq1.enqueue(a, t0 + msec(30), enqueue_flags::wakeup | enqueue_flags::migrated);
  EXPECT_EQ(a.used_slice, 0);
  EXPECT_TRUE(rq1.verify());
}

TEST(NickschedPolicy, ForkSplitsRemainingSliceAndHistorySection4) {
  // §4 fork: the parent's remaining slice is split 50/50 through used_slice; the child gets
  // 1/4 of the history (floored at 0.5 s), the parent loses 1/4 of its sleep_time.
  manual m;
  task parent = make(0), child;
  m.policy.enqueue(parent, m.now, enqueue_flags::initial);
  m.schedule();
  for (int ms = 1; ms <= 20; ++ms) {
    m.step_to(ms);
    ASSERT_FALSE(m.policy.tick(parent, m.now));
  }
  parent.sleep_time = u64{400000000} << 10;  // give it some sleep history to split
  parent.total_time = u64{800000000} << 10;
  m.policy.task_new(child, &parent, m.now);
  EXPECT_EQ(parent.used_slice, 40);  // 60 - 20 = 40 left: 20 each
  EXPECT_EQ(child.used_slice, 40);
  // v13 wake_up_forked_process: when the child's 1/4 of the history (0.2 s) is floored to
  // MIN_HISTORY, its sleep_time is set from the parent's sleep_avg (512): 0.25 s.
  EXPECT_EQ(child.total_time, nicksched_entity::min_history);
  EXPECT_EQ(child.sleep_time, u64{250000000} << 10);
  EXPECT_EQ(policy_type::sleep_avg(child), 512u);
  EXPECT_EQ(parent.sleep_time, u64{300000000} << 10);
  EXPECT_EQ(child.static_prio, 130);
  m.policy.enqueue(child, m.now, enqueue_flags::initial);
  // The parent (prio 140, unchanged until its next requeue) runs out its 20 ms first; the
  // child's prio from its history is 140 - round(20 * 0.5) = 130 < 140, so it preempts.
  EXPECT_EQ(child.prio, 130);
  EXPECT_TRUE(m.policy.wakeup_preempt(child, parent, m.now));
  m.schedule();
  ASSERT_EQ(m.curr, &child);
  // Exit on the first slice after 5 ms: the unused part returns to the parent.
  for (int ms = 21; ms <= 25; ++ms) {
    m.step_to(ms);
    ASSERT_FALSE(m.policy.tick(child, m.now));
  }
  // The child's slice at idx = its own prio 130: 30 * (30 + 8) / 24 = 47; used 40 + 5 = 45;
  // 2 unused jiffies go back: parent used_slice 40 - 2 = 38. The child did not sleep less
  // than the parent (sleep_avg ~506 at its exit against the parent's 374): no run history
  // is charged to the parent.
  const u64 parent_sleep = parent.sleep_time;
  const u64 parent_total = parent.total_time;
  m.policy.dequeue(child, m.now, dequeue_flags::dead);
  m.policy.task_dead(child, m.now);
  EXPECT_EQ(parent.used_slice, 38);
  EXPECT_EQ(parent.sleep_time, parent_sleep);
  EXPECT_EQ(parent.total_time, parent_total);
  EXPECT_TRUE(m.policy.verify());
}

// The parent, running on `parent_rq` with 400 of 800 ms of history asleep, forks `child` on
// `fork_on`; the child is made a pure CPU hog by hand.
void fork_hoggish_child(manual& parent_rq, manual& fork_on, task& parent, task& child) {
  parent_rq.policy.enqueue(parent, parent_rq.now, enqueue_flags::initial);
  parent_rq.schedule();
  parent.sleep_time = u64{400000000} << 10;
  parent.total_time = u64{800000000} << 10;
  fork_on.policy.task_new(child, &parent, fork_on.now);
  child.sleep_time = 0;
}

TEST(NickschedPolicy, HoggishChildChargesItsParentAtExitSection4) {
  // §4 exit: a child that slept less than its parent charges the parent run history, so the
  // parent's sleep_time decays (the exit penalty path of the fork test above).
  manual m;
  task parent = make(0), child;
  fork_hoggish_child(m, m, parent, child);
  // The patch's sched_exit: add_task_time(parent, MAX_SLEEP * (parent's sleep_avg - child's)
  // / SLEEP_FACTOR / 2, STIME_RUN), MAX_SLEEP = HZ jiffies. The parent lost 1/4 of its
  // sleep_time at the fork: sleep_avg 1024 * 300 / 800 = 384; the child's is 0. At HZ 1000:
  // 1000 * 384 / 2048 = 187 jiffies of run (the child's own remembered run time, 0.5 s, would
  // have been clamped to 250 ms).
  ASSERT_EQ(policy_type::sleep_avg(parent), 384u);
  task expected = parent;
  policy_type::add_time(expected, msec(187), policy_type::time_kind::run);
  m.policy.task_dead(child, m.now);
  EXPECT_EQ(parent.sleep_time, expected.sleep_time);
  EXPECT_EQ(parent.total_time, expected.total_time);
  // r = 1 s - 187 ms: sleep 300 ms * 0.813 = 243.9 ms; total 800 * 0.813 + 187 = 837.4 ms.
  EXPECT_NEAR(static_cast<double>(parent.sleep_time >> 10), 243.9e6, 0.1e6);
  EXPECT_NEAR(static_cast<double>(parent.total_time >> 10), 837.4e6, 0.1e6);
  EXPECT_TRUE(m.policy.verify());
}

// sched_exit charges the parent on whatever CPU it is: a parent last queued on another run
// queue gets its first slice back and the hog penalty too (the same 187 jiffies as above).
TEST(NickschedPolicy, ExitReachesAParentOnAnotherCpu) {
  manual m, other;
  task parent = make(0), child;
  fork_hoggish_child(other, m, parent, child);
  const auto used = parent.used_slice;
  task expected = parent;
  policy_type::add_time(expected, msec(187), policy_type::time_kind::run);
  m.policy.task_dead(child, m.now);
  EXPECT_LT(parent.used_slice, used) << "the child's unused first slice came back";
  EXPECT_EQ(parent.sleep_time, expected.sleep_time);
  EXPECT_TRUE(other.policy.verify());
}

TEST(NickschedPolicy, FloorAtMinHistoryKeepsSleepAvgSection4) {
  // v13 add_task_time: when the decayed total_time falls below MIN_HISTORY it is raised to
  // MIN_HISTORY and sleep_time is set to MIN_HISTORY * sleep_avg / 1024, with sleep_avg the
  // stored value (a run-queue wait does not change it). Fresh history + a 250 ms sleep:
  // total 0.625 s, sleep 0.25 s, sleep_avg 409; four capped 62.5 ms waits decay the total to
  // 0.483 s < 0.5 s.
  task t = make(0);
  policy_type::add_time(t, msec(250), policy_type::time_kind::sleep);
  ASSERT_EQ(policy_type::sleep_avg(t), 409u);
  for (int i = 0; i < 4; ++i) policy_type::add_time(t, msec(1000), policy_type::time_kind::wait);
  EXPECT_EQ(t.total_time, nicksched_entity::min_history);
  EXPECT_EQ(policy_type::sleep_avg(t), 409u);
  EXPECT_EQ(t.sleep_time, u64{500000000} * 409);
}

TEST(NickschedPolicy, ExpiryPriorityUsesHistoryAsOfLastSchedulePoint) {
  // v13 scheduler_tick: on slice expiry p->prio = task_priority(p) is computed before the
  // schedule() that follows adds the slice's run time (add_task_time(prev, run_time,
  // STIME_RUN)); the run moves the priority only at the next recompute.
  // Eight capped 250 ms sleeps: sleep_avg 970, prio 140 - round(18.9) = 121; lone task:
  // slice 30 * (21 + 8) / 24 = 36 ms; 36 ms of run would give sleep_avg 933, prio 122.
  manual m;
  task a = make(0);
  for (int i = 0; i < 8; ++i) policy_type::add_time(a, msec(250), policy_type::time_kind::sleep);
  ASSERT_EQ(m.policy.setup(a, sched_params{sched_kind::normal, 0, 0, 0, 0, 0}), errc::ok);
  ASSERT_EQ(a.prio, 121);
  m.policy.enqueue(a, m.now, enqueue_flags::initial);
  m.schedule();
  ASSERT_EQ(m.curr, &a);
  int ms = 0;
  do m.step_to(++ms);
  while (!m.policy.tick(a, m.now) && ms < 100);
  EXPECT_EQ(ms, 36);
  EXPECT_EQ(a.prio, 121) << "priority from the history before this slice's run";
  m.schedule();  // the schedule point charges the 36 ms
  EXPECT_EQ(policy_type::priority_from_history(a), 122u);
  EXPECT_TRUE(m.policy.verify());
}

// Oracle: v13 set_user_nice (2.6.0's formula, old_prio = p->prio): prio += NICE_TO_PRIO(nice)
// − prio, so prio = NICE_TO_PRIO(nice) = 130 + nice until the next wakeup or expiry. A lone hog
// at prio 140 (no sleep in its history) reniced to +1 gets 131, not 141, and its next expiry
// recomputes 141 from the history.
// Oracle: v13 sched_fork: when the split leaves the parent no slice, its used slice is set one
// jiffy short and scheduler_tick() runs at once: the parent expires at the fork. A lone hog
// with 1 ms of its 60 ms left forks: the child takes that jiffy, the parent expires (used slice
// back to 0, requeued in the expired array) and the child's check reschedules it.
TEST(NickschedPolicy, ForkWithNoSliceLeftExpiresTheParentAtTheFork) {
  manual m;
  task parent = make(0), child;
  m.policy.task_new(parent, nullptr, m.now);
  m.policy.enqueue(parent, m.now, enqueue_flags::initial);
  m.schedule();
  for (int ms = 1; ms <= 59; ++ms) {
    m.step_to(ms);
    ASSERT_FALSE(m.policy.tick(parent, m.now));
  }
  ASSERT_EQ(parent.used_slice, 59);
  m.policy.task_new(child, &parent, m.now);
  EXPECT_EQ(child.used_slice, 59) << "the child gets the last jiffy";
  EXPECT_EQ(parent.used_slice, 0) << "the parent expired at the fork";
  EXPECT_FALSE(parent.first_time_slice);
  EXPECT_TRUE(m.policy.tick(parent, m.now)) << "a tick before the reschedule still asks for it (the parent has expired)";
  EXPECT_EQ(parent.used_slice, 0) << "and charges nothing to a slice it no longer runs on";
  m.policy.enqueue(child, m.now, enqueue_flags::initial);
  EXPECT_TRUE(m.policy.wakeup_preempt(child, parent, m.now));
  m.schedule();
  EXPECT_EQ(m.curr, &child);
  EXPECT_TRUE(m.policy.verify());
}

// v13's sched_fork runs in the parent's context and splits the slice the parent has on its
// own run queue: ts = task_timeslice(current, task_rq(current)) under that queue's lock, then
// used_slice += (ts - used_slice + 1) / 2 for the parent and the child starts at the rest. A
// child the simulator places on another CPU must not make the split use that CPU's queue
// (there a better-priority task shrinks a nice-0 task's slice to 7 jiffies).
TEST(NickschedPolicy, ForkOnAnotherCpuSplitsTheSliceTheParentHasOnItsOwnQueue) {
  manual m0, m1;
  task parent = make(0), other = make(-10), child;
  m0.policy.task_new(parent, nullptr, m0.now);
  m0.policy.enqueue(parent, m0.now, enqueue_flags::initial);
  m0.schedule();
  m1.policy.task_new(other, nullptr, m1.now);
  m1.policy.enqueue(other, m1.now, enqueue_flags::initial);
  ASSERT_EQ(m0.policy.timeslice(parent), msec(60)) << "alone on its queue: 60 jiffies";
  ASSERT_EQ(m1.policy.timeslice(parent), msec(7)) << "what CPU 1's queue would give it: less than it ran";
  for (int ms = 1; ms <= 20; ++ms) {
    m0.step_to(ms);
    ASSERT_FALSE(m0.policy.tick(parent, m0.now));
  }
  m1.step_to(20);
  m1.policy.task_new(child, &parent, m1.now);
  EXPECT_EQ(parent.used_slice, 40) << "60 - 20 = 40 left on the parent's queue: 20 each";
  EXPECT_EQ(child.used_slice, 40);
  EXPECT_TRUE(parent.first_time_slice) << "the parent has 20 jiffies left: no expiry";
  EXPECT_TRUE(m0.policy.verify());
}

// The same sched_fork, when the parent is left with no slice: used_slice = ts - 1 and a
// scheduler_tick() in the parent's context, on the parent's CPU, expires it at the fork --
// wherever the child goes.
TEST(NickschedPolicy, ForkOnAnotherCpuWithNoSliceLeftExpiresTheParentOnItsQueue) {
  manual m0, m1;
  task parent = make(0), child;
  m0.policy.task_new(parent, nullptr, m0.now);
  m0.policy.enqueue(parent, m0.now, enqueue_flags::initial);
  m0.schedule();
  for (int ms = 1; ms <= 59; ++ms) {
    m0.step_to(ms);
    ASSERT_FALSE(m0.policy.tick(parent, m0.now));
  }
  m1.step_to(59);
  m1.policy.task_new(child, &parent, m1.now);
  EXPECT_EQ(child.used_slice, 59) << "the child gets the last jiffy";
  EXPECT_EQ(parent.used_slice, 0) << "the parent expired at the fork";
  EXPECT_FALSE(parent.first_time_slice);
  EXPECT_TRUE(m0.policy.tick(parent, m0.now)) << "its queue's next tick asks for the reschedule";
  EXPECT_TRUE(m0.policy.verify());
  EXPECT_TRUE(m1.policy.verify());
}

// Random two-CPU histories (tests/support/cross_queue_diff.hpp): the parent's half of a fork
// onto the other CPU does not depend on what that CPU holds, and a task waking on another CPU
// (its used_slice restarted there) behaves there whatever its old CPU did after it left.
TEST(NickschedPolicy, RandomForksAcrossCpusLeaveTheParentsQueueAlone) {
  schedcore_test::expect_forks_leave_the_parents_queue_alone<policy_type>();
}

TEST(NickschedPolicy, RandomWakeupsAcrossCpusDoNotReadTheOldQueue) {
  schedcore_test::expect_wakeups_do_not_read_the_old_queue<policy_type>();
}

TEST(NickschedPolicy, NiceChangeSetsThePriorityToTheNewStaticOne) {
  manual m;
  task h = make(0);
  m.policy.task_new(h, nullptr, m.now);
  m.policy.enqueue(h, m.now, enqueue_flags::initial);
  m.schedule();
  ASSERT_EQ(m.curr, &h);
  for (int i = 1; i <= 30; ++i) {
    m.step_to(i);
    (void)m.policy.tick(h, m.now);
  }
  ASSERT_EQ(h.prio, 140);
  // A nice change of the running task, in sched_setscheduler's order (policy.hpp).
  m.policy.put_prev(h, m.now);
  m.policy.dequeue(h, m.now, dequeue_flags::save);
  ASSERT_EQ(m.policy.setup(h, sched_params{sched_kind::normal, 1, 0, 0, 0, 0}), errc::ok);
  m.policy.enqueue(h, m.now, enqueue_flags::restore);
  m.policy.set_next(h, m.now);
  EXPECT_EQ(h.prio, 131);
  m.schedule();
  for (int i = 31; i <= 200 && h.prio == 131; ++i) {
    m.step_to(i);
    if (m.policy.tick(h, m.now)) m.schedule();
  }
  EXPECT_EQ(h.prio, 141) << "the expiry recomputes it from the history";
  // v13's set_user_nice returns at once for the nice the task has (`if (TASK_NICE(p) == nice
  // ...) return;`): a task with a history bonus keeps its priority.
  m.policy.put_prev(h, m.now);
  m.policy.dequeue(h, m.now, dequeue_flags::sleep);
  m.schedule(false);
  m.step_to(1000);
  m.policy.enqueue(h, m.now, enqueue_flags::wakeup);
  m.schedule(false);
  ASSERT_NE(h.prio, h.static_prio) << "premise: a priority from the history";
  const unsigned bonus_prio = h.prio;
  m.policy.put_prev(h, m.now);
  m.policy.dequeue(h, m.now, dequeue_flags::save);
  ASSERT_EQ(m.policy.setup(h, sched_params{sched_kind::normal, 1, 0, 0, 0, 0}), errc::ok);
  m.policy.enqueue(h, m.now, enqueue_flags::restore);
  m.policy.set_next(h, m.now);
  EXPECT_EQ(h.prio, bonus_prio) << "the same nice: nothing changes";
  EXPECT_TRUE(m.policy.verify());
}

TEST(NickschedPolicy, YieldGoesToExpired) {
  manual m;
  task a = make(0), b = make(0);
  m.policy.enqueue(a, m.now, enqueue_flags::initial);
  m.policy.enqueue(b, m.now, enqueue_flags::initial);
  m.schedule();
  ASSERT_EQ(m.curr, &a);
  m.policy.yield(a, m.now);
  m.schedule();
  EXPECT_EQ(m.curr, &b);
  EXPECT_TRUE(m.policy.verify());
}

// A queued task taken out and put back unchanged (dequeue(save) / enqueue(restore): a nice or
// policy change, a move between groups) returns to the array it left: an expired one does not
// jump the queue. a (nice 0) yields into the expired array and b (nice 5, a worse priority)
// runs; a is saved and restored: b keeps the CPU, and a runs only after the array switch.
TEST(NickschedPolicy, ARestoredExpiredTaskStaysExpired) {
  manual m;
  task a = make(0), b = make(5);
  m.policy.enqueue(a, m.now, enqueue_flags::initial);
  m.policy.enqueue(b, m.now, enqueue_flags::initial);
  m.schedule();
  ASSERT_EQ(m.curr, &a);
  m.policy.yield(a, m.now);
  m.schedule();
  ASSERT_EQ(m.curr, &b);
  m.step_to(1);
  m.policy.dequeue(a, m.now, dequeue_flags::save);
  m.policy.enqueue(a, m.now, enqueue_flags::restore);
  m.schedule();
  EXPECT_EQ(m.curr, &b) << "a restored into the active array would preempt b (a better priority)";
  m.step_to(2);
  m.policy.dequeue(b, m.now, dequeue_flags::sleep);  // b sleeps: the active array is empty, the arrays switch
  m.schedule(false);
  EXPECT_EQ(m.curr, &a);
  EXPECT_TRUE(m.policy.verify());
}

// v13 is a patch to 2.6.0-test5, whose pull_task() (kernel/sched.c, untouched by the patch but
// for its TASK_PREEMPTS_CURR test) dequeues the task from whichever array it is in on the busiest
// queue and enqueues it into `this_rq->active`; nothing else changes (no deactivate_task, so
// neither used_slice nor the history). The balancer's "expired array into expired array" rule
// (move_tasks' dst_array) came to mainline later. So an expired task pulled to another CPU is
// active there: it preempts a worse-priority task at once instead of waiting for that queue's
// array switch.
TEST(NickschedPolicy, ABalancerMovePutsAnExpiredTaskInTheActiveArrayAsPullTaskDid) {
  manual m0, m1;
  task a = make(0), b = make(5), c = make(5);
  m0.policy.enqueue(a, m0.now, enqueue_flags::initial);
  m0.policy.enqueue(b, m0.now, enqueue_flags::initial);
  m0.schedule();
  ASSERT_EQ(m0.curr, &a);
  m0.policy.yield(a, m0.now);  // to the expired array
  m0.schedule();
  ASSERT_EQ(m0.curr, &b);
  m1.policy.enqueue(c, m1.now, enqueue_flags::initial);
  m1.schedule();
  ASSERT_EQ(m1.curr, &c);
  ASSERT_LT(a.prio, c.prio);
  m0.step_to(1);
  m1.step_to(1);
  const s32 used = a.used_slice;
  m0.policy.dequeue(a, m0.now, dequeue_flags::migrating);  // CPU 1's balancer pulls a
  m1.policy.enqueue(a, m1.now, enqueue_flags::migrated);
  EXPECT_TRUE(m1.policy.wakeup_preempt(a, c, m1.now));
  m1.schedule();
  EXPECT_EQ(m1.curr, &a) << "pulled into CPU 1's active array, a runs before c";
  EXPECT_EQ(a.used_slice, used) << "pull_task leaves the slice alone";
  EXPECT_TRUE(m0.policy.verify());
  EXPECT_TRUE(m1.policy.verify());
}

std::vector<std::int64_t> mixed_run(sched_time origin, int hz) {
  ns policy;
  EXPECT_EQ(policy.configure({hz, msec(1)}), errc::ok);
  task a = make(0), b = make(5), c = make(-3), e = make(0);
  script_driver<ns> d(policy, hz, origin);
  d.add(a, script::hog());
  d.add(b, script::cycle(msec(7), msec(13)));
  script sc;
  sc.then(msec(1), msec(150), 10).then(0, 0);
  d.add(c, sc);
  d.add(e, script::cycle(msec(30), msec(5), msec(3)));
  d.on_step([&] { ASSERT_TRUE(policy.verify()); });
  d.run_until(sec(6));
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < 4; ++i) {
    out.push_back(d.stats(i).cpu_ns);
    out.push_back(static_cast<std::int64_t>(d.stats(i).switches));
    out.push_back(d.stats(i).max_wait_ns);
  }
  out.push_back(policy_type::sleep_avg(b));
  out.push_back(policy_type::sleep_avg(c));
  return out;
}

TEST(NickschedPolicy, SameScheduleWhenTheClockStartsJustBelowWrap) {
  for (int hz : {1000, 250}) {
    const auto from_zero = mixed_run(sched_time{}, hz);
    const auto near_wrap = mixed_run(sched_time{std::numeric_limits<u64>::max() - msec(700)}, hz);
    EXPECT_EQ(from_zero, near_wrap) << "hz " << hz;
    EXPECT_GT(from_zero[0], 0);
    EXPECT_GT(from_zero[3], 0);
  }
}

TEST(NickschedPolicy, BadParametersAreRefusedWithoutChange) {
  policy_type policy;
  task t = make(3);
  EXPECT_EQ(policy.setup(t, {sched_kind::normal, 20, 0, 0, 0, 0}), errc::invalid_argument);
  EXPECT_EQ(policy.setup(t, {sched_kind::normal, -21, 0, 0, 0, 0}), errc::invalid_argument);
  EXPECT_EQ(policy.setup(t, {sched_kind::rr, 0, 10, 0, 0, 0}), errc::invalid_argument);
  EXPECT_EQ(policy.setup(t, {sched_kind::batch, 0, 0, 0, 0, 0}), errc::invalid_argument);
  EXPECT_EQ(policy.setup(t, {static_cast<sched_kind>(42), 0, 0, 0, 0, 0}), errc::invalid_argument);
  EXPECT_EQ(t.static_prio, 133);
  EXPECT_EQ(t.prio, 143);
  policy.enqueue(t, sched_time{}, enqueue_flags::initial);
  EXPECT_EQ(policy.setup(t, {sched_kind::normal, -5, 0, 0, 0, 0}), errc::busy);
  EXPECT_EQ(t.static_prio, 133);
  const auto k = policy.config();
  EXPECT_EQ(policy.configure({0, msec(1)}), errc::invalid_argument);       // hz 0
  EXPECT_EQ(policy.configure({1000, 0}), errc::invalid_argument);          // zero base slice
  EXPECT_EQ(policy.configure({1000, -msec(1)}), errc::invalid_argument);   // negative
  EXPECT_EQ(policy.config().hz, k.hz);
  EXPECT_EQ(policy.config().base_timeslice, k.base_timeslice);
  EXPECT_TRUE(policy.verify());
}

TEST(NickschedPolicy, DoubleEnqueueAndStrayDequeueAreRefusedAndReported) {
  policy_type policy;
  task t = make(0), u = make(0);
  policy.enqueue(t, sched_time{}, enqueue_flags::initial);
  schedcore_test::check_scope scope;
  policy.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  EXPECT_EQ(scope.take().size(), 1u);
  policy.dequeue(u, sched_time{}, dequeue_flags::sleep);
  EXPECT_EQ(scope.take().size(), 1u);
  EXPECT_EQ(policy.nr_runnable(), 1u);
  EXPECT_TRUE(policy.verify());
}

static_assert(check_policy<policy_type>());

// A wakeup on another CPU (enqueue(wakeup | migrated)) is a wakeup (§4 "Wakeup: add sleep
// history, recompute prio"): the same sleep gives the same history and priority on either CPU.
TEST(NickschedPolicy, WakeupOnAnotherCpuAddsTheSleepToTheHistory) {
  u32 avg[2] = {};
  int prio[2] = {};
  for (const bool migrated : {false, true}) {
    policy_type cpu0, cpu1;
    task t = make(0);
    cpu0.task_new(t, nullptr, sched_time{});
    for (int i = 0; i < 50; ++i) {  // a half-sleeper's history
      policy_type::add_time(t, msec(50), policy_type::time_kind::sleep);
      policy_type::add_time(t, msec(50), policy_type::time_kind::run);
    }
    cpu0.enqueue(t, sched_time{}, enqueue_flags::initial);
    cpu0.set_next(t, sched_time{});
    cpu0.dequeue(t, sched_time{} + msec(10), dequeue_flags::sleep);
    const u32 before = policy_type::sleep_avg(t);
    policy_type& dst = migrated ? cpu1 : cpu0;
    dst.enqueue(t, sched_time{} + msec(210),
                migrated ? enqueue_flags::wakeup | enqueue_flags::migrated : enqueue_flags::wakeup);
    avg[migrated] = policy_type::sleep_avg(t);
    prio[migrated] = t.prio;
    EXPECT_GT(avg[migrated], before) << "the 200 ms sleep enters the history (" << (migrated ? "migrated" : "same CPU") << ")";
    EXPECT_LT(prio[migrated], 140);
  }
  EXPECT_EQ(avg[0], avg[1]);
  EXPECT_EQ(prio[0], prio[1]);
}

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

TEST(NickschedPolicy, AnEqualPriorityWakeupDoesNotPreemptSection4) {
  // algorithms-legacy.md §4 (Nick Piggin, "Nick's scheduler policy v13", LKML 8 Sep 2003):
  // "TASK_PREEMPTS_CURR <=> prio < curr prio" -- strictly. Two fresh nice-0 tasks (no sleep
  // history: prio 130 + 10 = 140): the second does not preempt the first; a nice -1 one (139) does.
  manual m;
  task curr = make(0), same = make(0), better = make(-1);
  m.policy.enqueue(curr, m.now, enqueue_flags::initial);
  m.schedule();
  ASSERT_EQ(m.curr, &curr);
  m.policy.enqueue(same, m.now, enqueue_flags::initial);
  m.policy.enqueue(better, m.now, enqueue_flags::initial);
  ASSERT_EQ(curr.prio, 140);
  ASSERT_EQ(same.prio, 140);
  ASSERT_EQ(better.prio, 139);
  EXPECT_FALSE(m.policy.wakeup_preempt(same, curr, m.now));
  EXPECT_TRUE(m.policy.wakeup_preempt(better, curr, m.now));
  EXPECT_TRUE(m.policy.verify());
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Against the v13 patch text (LKML, "[PATCH] Nick's scheduler policy v13"), from an
// independent model of it run side by side with the policy.

// add_task_time: `p->total_time = (r*p->total_time + MAX_SLEEP/2) / MAX_SLEEP`, rounded to
// nearest (both sums). After the 10 s sleep of HistoryClampsEachEventSection4, a 1234567 ns run
// and a 2 ms sleep, a run whose length makes both remainders over half the window (the first
// from 1 ms on) decays both sums by r = MAX_SLEEP - t, rounded up.
TEST(NickschedPolicy, TheHistoryDecayRoundsToNearestAsV13) {
  // (r * sum + W/2) / W with sum = q W + rem: r q + (r rem + W/2) / W, every product in 64 bits
  // (r and rem are below W = 10^9).
  constexpr std::uint64_t window = 1000000000u;  // MAX_SLEEP, ns
  const auto v13_decay = [](std::uint64_t sum, std::int64_t t) {
    const std::uint64_t r = window - static_cast<std::uint64_t>(t);
    return r * (sum / window) + (r * (sum % window) + window / 2) / window;
  };
  const auto remainder = [](std::uint64_t sum, std::int64_t t) {
    return ((window - static_cast<std::uint64_t>(t)) * (sum % window)) % window;
  };
  manual m;
  task t = make(0);
  m.policy.enqueue(t, m.now, enqueue_flags::initial);
  m.schedule();
  m.policy.dequeue(t, m.now, dequeue_flags::sleep);
  m.schedule(false);
  m.step_to(10000);
  m.policy.enqueue(t, m.now, enqueue_flags::wakeup);
  m.schedule(false);
  ASSERT_EQ(m.curr, &t);
  m.now = m.now + 1234567;
  m.policy.dequeue(t, m.now, dequeue_flags::sleep);
  m.schedule(false);
  m.now = m.now + msec(2);
  m.policy.enqueue(t, m.now, enqueue_flags::wakeup);
  m.schedule(false);
  ASSERT_EQ(m.curr, &t);
  const std::uint64_t total = t.total_time, sleep = t.sleep_time;
  std::int64_t ran = msec(1);
  while (ran < msec(2) && (remainder(total, ran) < window / 2 || remainder(sleep, ran) < window / 2)) ++ran;
  ASSERT_GE(remainder(total, ran), window / 2) << "premise: rounding up differs from the floor";
  ASSERT_GE(remainder(sleep, ran), window / 2) << "premise";
  m.now = m.now + ran;
  m.policy.dequeue(t, m.now, dequeue_flags::sleep);
  EXPECT_EQ(t.total_time, v13_decay(total, ran) + (static_cast<std::uint64_t>(ran) << 10));
  EXPECT_EQ(t.sleep_time, v13_decay(sleep, ran));
}

// v13: copy_process calls sched_fork, whose scheduler_tick expires a parent left with no slice
// and rates it with task_priority on its whole history; only then does do_fork call
// wake_up_forked_process, where the parent loses a quarter of its sleep. A nice-0 parent with
// sleep_avg 512 (bonus 10: prio 130) expires at the fork at prio 130, not at the 132 of its
// reduced history (3/4 x 512 = 384: bonus round(20 x 384 / 1024) = 8).
TEST(NickschedPolicy, AParentExpiredByItsForkIsRatedOnItsWholeHistory) {
  manual m;
  task parent = make(0), child;
  m.policy.task_new(parent, nullptr, m.now);
  m.policy.enqueue(parent, m.now, enqueue_flags::initial);
  m.schedule();
  for (int ms = 1; ms <= 59; ++ms) {
    m.step_to(ms);
    ASSERT_FALSE(m.policy.tick(parent, m.now));
  }
  parent.total_time = u64{800000000} << 10;  // sleep_avg 512
  parent.sleep_time = u64{400000000} << 10;
  m.policy.task_new(child, &parent, m.now);
  ASSERT_EQ(parent.used_slice, 0) << "expired at the fork";
  EXPECT_EQ(parent.prio, 130);
  EXPECT_EQ(parent.sleep_time, (u64{400000000} << 10) / 4 * 3) << "the split still comes after";
  EXPECT_EQ(policy_type::sleep_avg(parent), 384u);
  EXPECT_TRUE(m.policy.verify());
}
