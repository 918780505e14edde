// cfs2007_policy (CFS as merged in 2.6.23, plus the v-series granularity knob) against the
// oracles of algorithms-modern.md §1.2-§1.3 and §2.2, driven by the tick driver or directly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

#include "check_recorder.hpp"
#include "cross_queue_diff.hpp"
#include "schedcore/policy/cfs2007.hpp"
#include "tick_driver.hpp"
#include "verifying.hpp"

namespace {

using namespace schedcore;
using schedcore_test::behaviour;
using schedcore_test::single_class;
using schedcore_test::tick_driver;

struct task : cfs2007_entity {
  int id = 0;
};

using policy_t = cfs2007_policy<task>;

using verifying = schedcore_test::verifying<policy_t>;

task make(int nice, sched_kind kind = sched_kind::normal) {
  task t;
  policy_t setup_only;
  EXPECT_EQ(setup_only.setup(t, sched_params{kind, static_cast<s8>(nice), 0, 0, 0, 0}), errc::ok);
  return t;
}

template <class P>
task* schedule(P& p, task* prev, bool runnable, sched_time now) {
  if (prev && runnable) p.put_prev(*prev, now);
  task* n = p.pick_next(now);
  if (n) p.set_next(*n, now);
  return n;
}

double pct(std::int64_t part, std::int64_t total) {
  return 100.0 * static_cast<double>(part) / static_cast<double>(total);
}

// ---- tunables (§1.3) ---------------------------------------------------------------------

TEST(Cfs2007Policy, DefaultsAndCpuScalingO12) {
  policy_t p;
  // §1.3 table (2.6.23 code defaults, UP).
  EXPECT_EQ(p.sched_latency(), msec(20));
  EXPECT_EQ(p.min_granularity(), msec(2));
  EXPECT_EQ(p.wakeup_granularity(), msec(1));
  EXPECT_EQ(p.runtime_limit(), msec(20));
  EXPECT_EQ(p.config().batch_wakeup_granularity, msec(25));
  policy_t::knobs k;
  k.cpus = 4;  // §1.3 O1.2: factor 3 on 4 CPUs -> latency 60 ms
  ASSERT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.sched_latency(), msec(60));
  EXPECT_EQ(p.min_granularity(), msec(6));
  EXPECT_EQ(p.wakeup_granularity(), msec(3));
  k.cpus = 64;  // O1.2: factor 7 (no 8-CPU cap) -> 140 ms, capped at 100 ms in 2.6.23.17
  ASSERT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(policy_t::scale_factor(64), 7u);
  EXPECT_EQ(p.sched_latency(), msec(100));
  EXPECT_EQ(p.min_granularity(), msec(14));
}

TEST(Cfs2007Policy, DynamicGranularityO11) {
  // §1.3 O1.1: UP gran = max(lat/nr - lat/nr^2, min_gran): 2 tasks 5 ms, 4 tasks 3.75 ms,
  // 10 tasks 1.8 ms raised to 2 ms.
  const struct { int nr; std::int64_t gran; } cases[] = {{1, msec(20)}, {2, msec(5)}, {4, usec(3750)}, {10, msec(2)}};
  for (const auto& c : cases) {
    policy_t p;
    std::vector<task> ts(static_cast<std::size_t>(c.nr), make(0));
    for (auto& t : ts) p.enqueue(t, sched_time{}, enqueue_flags::wakeup);
    EXPECT_EQ(p.sched_granularity(), c.gran) << c.nr;
  }
  // The v-series knob replaces it with a fixed value (0 and 500 ms accepted).
  policy_t p;
  policy_t::knobs k;
  k.granularity = 0;
  ASSERT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.sched_granularity(), 0);
  k.granularity = msec(500);
  ASSERT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.sched_granularity(), msec(500));
}

TEST(Cfs2007Policy, GranularityFollowsNrRunningAndConfigure) {
  // sched_granularity() and the ideal runtime are cached per nr_running: they must follow
  // every enqueue and dequeue and a configure() that changes latency with nr unchanged.
  policy_t p;
  std::vector<task> ts(10, make(0));
  const std::int64_t expect[] = {msec(20), msec(20), msec(5), std::int64_t{6666666 - 2222222}, usec(3750)};
  for (std::size_t i = 0; i < 4; ++i) {
    p.enqueue(ts[i], sched_time{}, enqueue_flags::wakeup);
    EXPECT_EQ(p.sched_granularity(), expect[i + 1]) << i;
  }
  p.dequeue(ts[3], sched_time{}, dequeue_flags::sleep);
  EXPECT_EQ(p.sched_granularity(), expect[3]);
  p.dequeue(ts[2], sched_time{}, dequeue_flags::sleep);
  EXPECT_EQ(p.sched_granularity(), msec(5));
  policy_t::knobs k;
  k.latency = msec(40);  // nr stays 2: 40/2 - 40/4 = 10 ms
  ASSERT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.sched_granularity(), msec(10));
  k.granularity = msec(3);  // the v-series knob still wins over the cache
  ASSERT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.sched_granularity(), msec(3));
}

TEST(Cfs2007Policy, NicedGranularity) {
  // §1.3: niced(g) = g·w/1024 for w < 1024, g·1024/w for w > 1024.
  task n0 = make(0), n5 = make(5), m5 = make(-5);
  EXPECT_EQ(policy_t::niced_granularity(n0, msec(5)), msec(5));
  EXPECT_EQ(policy_t::niced_granularity(n5, msec(5)), msec(5) * 335 / 1024);
  EXPECT_LE(std::abs(policy_t::niced_granularity(m5, msec(5)) - msec(5) * 1024 / 3121), 1);
}

// ---- CPU shares (§1.2, §2.2) --------------------------------------------------------------

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

TEST(Cfs2007Policy, TwoHogsNice0And1Split1024To820) {
  int bad = 0;
  const auto cpu = run_hogs({0, 1}, sec(20), 1000, &bad);
  const std::int64_t total = cpu[0] + cpu[1];
  // §2.2 weights (identical in 2.6.23) and §1.2 rules 1-3: shares follow w/W: 55.53 / 44.47 %.
  EXPECT_NEAR(pct(cpu[0], total), 100.0 * 1024 / 1844, 0.5);
  EXPECT_NEAR(pct(cpu[1], total), 100.0 * 820 / 1844, 0.5);
  EXPECT_EQ(bad, 0);
  std::printf("cfs2007 nice 0/1: %.3f %% / %.3f %% (oracle 55.531 / 44.469)\n", pct(cpu[0], total),
              pct(cpu[1], total));
}

TEST(Cfs2007Policy, ThreeEqualHogsGetAThirdEach) {
  int bad = 0;
  const auto cpu = run_hogs({0, 0, 0}, sec(9), 1000, &bad);
  for (auto c : cpu) EXPECT_NEAR(pct(c, sec(9)), 100.0 / 3, 1.0);  // §1.2: the ideal CPU
  EXPECT_EQ(bad, 0);
  std::printf("cfs2007 3 hogs: %.3f / %.3f / %.3f %%\n", pct(cpu[0], sec(9)), pct(cpu[1], sec(9)),
              pct(cpu[2], sec(9)));
}

std::vector<std::int64_t> run_pair_with_latency(int n0, int n1, std::int64_t latency, std::int64_t dur,
                                               std::int64_t runtime_limit = -1) {
  verifying p;
  policy_t::knobs k;
  k.latency = latency;
  k.runtime_limit = runtime_limit;
  EXPECT_EQ(p.configure(k), errc::ok);
  task a = make(n0), b = make(n1);
  tick_driver<verifying> d(p, 1000);
  d.add(a, behaviour::hog());
  d.add(b, behaviour::hog());
  d.run_until(dur);
  EXPECT_EQ(p.failures, 0);
  return {d.stats(0).cpu_ns, d.stats(1).cpu_ns};
}

TEST(Cfs2007Policy, Nice0VsNice19O13) {
  // §1.4 O1.3: nice 19 against nice 0 should get 15/1039 = 1.44 %. Under 2.6.23 *as merged*
  // it gets far less: one wait is credited at most 2·runtime_limit of fair clock
  // (update_stats_wait_end), 40 ms x 15/1024 = 0.59 ms at the UP defaults, less than the
  // 1 ms x (1 - 15/1039) = 0.986 ms one tick of running costs it, so its wait_runtime sinks
  // to the -20 ms clamp and its key sits 20 ms x 1024/15 = 1.37 s behind. It then runs about one
  // tick per 0.65 s -> below 0.2 % (measured 0.153 %). The direction matches the 2007 reports
  // that high nice levels got much less than their weight (§7, Roman Zippel's review).
  const auto cpu = run_hogs({0, 19}, sec(30));
  EXPECT_LT(pct(cpu[1], cpu[0] + cpu[1]), 0.2);
  EXPECT_GT(cpu[1], 0);  // but it is never starved outright
  std::printf("cfs2007 nice 0/19 (defaults): nice 19 gets %.3f %% (weight ratio 1.444)\n",
              pct(cpu[1], cpu[0] + cpu[1]));
  // With the cap out of the way (latency 100 ms: limit 100 ms, cap 200 ms x 15/1024 = 2.9 ms
  // of credit per wait) the 1024:15 split of the weights returns.
  const auto big = run_pair_with_latency(0, 19, msec(100), sec(30));
  EXPECT_NEAR(pct(big[1], big[0] + big[1]), 100.0 * 15 / 1039, 0.15);
  std::printf("cfs2007 nice 0/19 (latency 100 ms): nice 19 gets %.3f %% (oracle 1.444)\n",
              pct(big[1], big[0] + big[1]));
  // Writing sched_latency_ns = 100 ms on a running 2.6.23 leaves sched_runtime_limit_ns at its
  // boot value (20 ms on UP: sched_init_granularity copies the latency once): the credit cap
  // stays 40 ms x 15/1024, so the share falls back below 0.2 %.
  const auto written = run_pair_with_latency(0, 19, msec(100), sec(30), msec(20));
  EXPECT_LT(pct(written[1], written[0] + written[1]), 0.2);
  EXPECT_GT(written[1], 0);
  std::printf("cfs2007 nice 0/19 (latency 100 ms, runtime limit 20 ms): nice 19 gets %.3f %%\n",
              pct(written[1], written[0] + written[1]));
}

// The runtime limit knob (sched_runtime_limit_ns, bounds 100 µs .. 1 s as 2.6.23's sysctl table):
// -1 follows the effective latency (the boot rule, x the CPU factor), a value is used as written
// (not scaled); below the sysctl's minimum it is refused and nothing changes.
TEST(Cfs2007Policy, RuntimeLimitKnobIsTheSysctlAsWritten) {
  policy_t p;
  policy_t::knobs k;
  k.cpus = 4;
  ASSERT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.runtime_limit(), msec(60));  // 20 ms x (1 + ilog2 4)
  k.runtime_limit = msec(20);
  ASSERT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.runtime_limit(), msec(20));  // as written, not x 3
  EXPECT_EQ(p.sched_latency(), msec(60));
  for (const std::int64_t bad : {std::int64_t{0}, usec(99), sec(1) + 1, std::int64_t{-2}}) {
    policy_t::knobs b = k;
    b.runtime_limit = bad;
    EXPECT_EQ(p.configure(b), errc::invalid_argument) << bad;
    EXPECT_EQ(p.runtime_limit(), msec(20));
    EXPECT_EQ(p.config().runtime_limit, msec(20));
  }
  k.runtime_limit = usec(100);
  EXPECT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.runtime_limit(), usec(100));
}

// ---- sleepers, fork, preemption (§1.2 rule 4, §1.3) ----------------------------------------

TEST(Cfs2007Policy, SleeperCreditedFairTimeSleptClampedToLimit) {
  for (sched_kind kind : {sched_kind::normal, sched_kind::batch}) {
    policy_t p;
    task a = make(0), b = make(0, kind);
    sched_time now{};
    p.enqueue(a, now, enqueue_flags::wakeup);
    p.enqueue(b, now, enqueue_flags::wakeup);
    schedule(p, nullptr, false, now);
    task* c = p.current();
    task* o = c == &a ? &b : &a;
    if (o != &b) {  // make b the sleeper
      now += usec(10);
      p.tick(*c, now);
      std::swap(c, o);
      schedule(p, o, true, now);
    }
    p.dequeue(b, now, dequeue_flags::sleep);
    const std::int64_t wr_before = b.wait_runtime;
    schedule(p, &b, false, now);
    const vtime fc0 = p.fair_clock();
    now += msec(8);  // a alone: fair_clock advances 8 ms
    p.tick(a, now);
    ASSERT_EQ(p.fair_clock() - fc0, msec(8));
    p.enqueue(b, now, enqueue_flags::wakeup);
    if (kind == sched_kind::batch) {
      EXPECT_EQ(b.wait_runtime, wr_before);  // §1.2 rule 4: SCHED_BATCH gets no credit
      EXPECT_EQ(p.sleeper_bonus(), 0u);
    } else {
      // §1.2 rule 4: credited the 8 ms of fair clock slept, clamped to ±limit (20 ms).
      const std::int64_t want = std::min<std::int64_t>(wr_before + msec(8), msec(20));
      EXPECT_EQ(b.wait_runtime, want);
      EXPECT_EQ(p.sleeper_bonus(), static_cast<u64>(want - wr_before));
      EXPECT_EQ(b.fair_key, p.fair_clock() - want);  // rule 5, nice 0
    }
    EXPECT_TRUE(p.verify());
  }
}

// 2.6.23's set_task_cpu (try_to_wake_up moving a sleeper): sleep_start_fair is shifted by
// the two queues' fair-clock offset, so the credit is the fair clock the *old* queue ran while
// b slept. Queue a: b sleeps while a nice -5 task (weight 3121) runs 8 ms alone there, so a's
// fair clock advances 8 ms x 1024 / 3121 = 2.625 ms; b then wakes on queue b2. Through
// migrate_task_rq b is credited those 2.625 ms; a driver that only passes `migrated` gets the
// wall-clock 8 ms (the documented approximation).
TEST(Cfs2007Policy, AMigratedSleeperIsCreditedTheFairClockItsOldQueueRan) {
  for (const bool hook : {true, false}) {
    SCOPED_TRACE(hook ? "migrate_task_rq" : "no hook");
    policy_t a, b2;
    task b = make(0), heavy = make(-5);
    sched_time now{};
    a.enqueue(b, now, enqueue_flags::wakeup);
    schedule(a, nullptr, false, now);
    ASSERT_EQ(a.current(), &b);
    now += usec(10);
    (void)a.tick(b, now);
    a.dequeue(b, now, dequeue_flags::sleep);
    const std::int64_t wr_before = b.wait_runtime;
    a.enqueue(heavy, now, enqueue_flags::wakeup);
    schedule(a, nullptr, false, now);
    const vtime fc0 = a.fair_clock();
    now += msec(8);
    (void)a.tick(heavy, now);
    const duration_ns ran = a.fair_clock() - fc0;
    ASSERT_LE(std::abs(ran - 2624800), 1000) << ran;  // 8 ms x 1024 / 3121, within rounding
    if (hook) policy_traits<policy_t>::migrate_task_rq(a, b, now);
    b2.enqueue(b, now, enqueue_flags::wakeup | enqueue_flags::migrated);
    EXPECT_EQ(b.wait_runtime, wr_before + (hook ? ran : msec(8)));
    EXPECT_TRUE(a.verify());
    EXPECT_TRUE(b2.verify());
  }
}

// The same wakeup where the new queue has a nice-0 task running, last charged at its tick
// 0.7 ms before the wakeup: set_task_cpu rebased the sleep start on that stale clock, and
// enqueue_entity's update_curr then runs it 0.7 ms x 1024/1024 on, which the sleeper is
// credited too (2.6.23: 8 ms on the old queue's nice-0 clock + 0.7 ms = 8.7 ms).
TEST(Cfs2007Policy, AMigratedSleeperIsAlsoCreditedTheNewQueuesCatchUp) {
  policy_t a, b2;
  task b = make(0), old_hog = make(0), new_hog = make(0);
  sched_time now{};
  a.enqueue(b, now, enqueue_flags::wakeup);
  schedule(a, nullptr, false, now);
  now += usec(100);
  a.dequeue(b, now, dequeue_flags::sleep);
  a.enqueue(old_hog, now, enqueue_flags::wakeup);
  schedule(a, nullptr, false, now);
  b2.enqueue(new_hog, now, enqueue_flags::wakeup);
  schedule(b2, nullptr, false, now);
  for (int i = 0; i < 8; ++i) {
    now += msec(1);
    (void)a.tick(old_hog, now);
    (void)b2.tick(new_hog, now);
  }
  now += usec(700);
  const std::int64_t wr_before = b.wait_runtime;
  policy_traits<policy_t>::migrate_task_rq(a, b, now);
  b2.enqueue(b, now, enqueue_flags::wakeup | enqueue_flags::migrated);
  EXPECT_EQ(b.wait_runtime - wr_before, msec(8) + usec(700));
  EXPECT_TRUE(a.verify());
  EXPECT_TRUE(b2.verify());
}

// A running task reniced: 2.6.23's set_user_nice dequeues and enqueues it but, unlike 2.6.24+,
// never calls set_curr_task, so prev_sum_exec_runtime is kept and the tick's ideal-runtime rule
// (ran > max(latency / nr, min_gran) = 10 ms with two tasks) still counts from its pick. a runs
// from 0, b arrives at 8 ms, a is reniced to +1 at 10.5 ms (the simulator's dequeue(save),
// enqueue(restore), set_next): the tick at 11 ms preempts it (11 ms run), not one at 13 ms.
TEST(Cfs2007Policy, ARenicedRunningTaskKeepsCountingItsSliceFromItsPick) {
  policy_t p;
  task a = make(0), b = make(0);
  p.enqueue(a, sched_time{}, enqueue_flags::initial);
  schedule(p, nullptr, false, sched_time{});
  ASSERT_EQ(p.current(), &a);
  for (int ms = 1; ms <= 8; ++ms) EXPECT_FALSE(p.tick(a, sched_time{} + msec(ms)));
  p.enqueue(b, sched_time{} + msec(8), enqueue_flags::initial);
  EXPECT_FALSE(p.wakeup_preempt(b, a, sched_time{} + msec(8)));
  EXPECT_FALSE(p.tick(a, sched_time{} + msec(9)));
  EXPECT_FALSE(p.tick(a, sched_time{} + msec(10)));
  const sched_time renice = sched_time{} + usec(10500);
  p.dequeue(a, renice, dequeue_flags::save);
  ASSERT_EQ(p.setup(a, sched_params{sched_kind::normal, 1, 0, 0, 0, 0}), errc::ok);
  p.enqueue(a, renice, enqueue_flags::restore);
  p.set_next(a, renice);
  EXPECT_EQ(a.sum_exec_runtime - a.prev_sum_exec_runtime, static_cast<std::uint64_t>(usec(10500)));
  EXPECT_TRUE(p.tick(a, sched_time{} + msec(11)));
  EXPECT_TRUE(p.verify());
  // A plain pick after that starts a new count.
  p.put_prev(a, sched_time{} + msec(11));
  p.set_next(a, sched_time{} + msec(11));
  EXPECT_EQ(a.sum_exec_runtime, a.prev_sum_exec_runtime);
}

TEST(Cfs2007Policy, ForkedChildRunsFirstWithStartDebit) {
  policy_t p;
  task parent = make(0), child = make(0);
  sched_time now{};
  p.enqueue(parent, now, enqueue_flags::wakeup);
  schedule(p, nullptr, false, now);
  now += msec(3);
  p.tick(parent, now);
  p.task_new(child, &parent, now);
  // §1.3 fork: key = curr.key - niced(gran) - 1 with gran = sched_granularity() (nr = 1:
  // latency, 20 ms); START_DEBIT: wait_runtime = -gran/2.
  EXPECT_EQ(child.fair_key, parent.fair_key - msec(20) - 1);
  EXPECT_EQ(child.wait_runtime, -msec(10));
  p.enqueue(child, now, enqueue_flags::initial);
  EXPECT_EQ(child.fair_key, parent.fair_key - msec(20) - 1);
  EXPECT_TRUE(p.wakeup_preempt(child, parent, now));
  EXPECT_EQ(schedule(p, &parent, true, now), &child);
  EXPECT_TRUE(p.verify());
}

// Oracle: 2.6.23.17 kernel/sched.c wake_up_new_task: the class's task_new (task_new_fair,
// child key before curr's, START_DEBIT) runs only when the child is queued on the CPU where
// its parent is running (task_cpu(p) == this_cpu, current->se.on_rq); otherwise, e.g. a
// child placed on another CPU by the fork balancing, it is activate_task(rq, p, 0): a plain
// enqueue, wait_runtime 0 (from __sched_fork), key = fair_clock. Another task that happens
// to run on the child's queue is not the reference (task_new_fair reads cfs_rq_curr, which
// is the parent by construction).
TEST(Cfs2007Policy, ForkedChildStartsPlainlyWhenParentIsNotThisQueuesCurr) {
  policy_t p;
  task running = make(0), elsewhere = make(0), child = make(0);
  sched_time now{};
  p.enqueue(running, now, enqueue_flags::wakeup);
  schedule(p, nullptr, false, now);
  now += msec(3);
  p.tick(running, now);
  ASSERT_EQ(p.current(), &running);
  p.task_new(child, &elsewhere, now);  // the parent runs on another CPU
  EXPECT_EQ(child.wait_runtime, 0);    // no START_DEBIT
  p.enqueue(child, now, enqueue_flags::initial);
  EXPECT_EQ(child.fair_key, p.fair_clock());  // update_stats_enqueue, nice 0
  EXPECT_EQ(running.wait_runtime, 0);  // the running task is neither read nor touched
  EXPECT_TRUE(p.verify());
}

TEST(Cfs2007Policy, WakeupPreemptsOnlyBeyondWakeupGranularity) {
  // §1.3: a woken task uses the wakeup granularity: preempt iff curr.key - woken.key > 1 ms
  // (nice-0 curr that has not yet run its ideal time).
  for (std::int64_t lead : {std::int64_t{0}, msec(1), msec(1) + 1, msec(3)}) {
    policy_t p;
    task curr = make(0), woken = make(0);
    sched_time now{};
    p.enqueue(curr, now, enqueue_flags::wakeup);
    schedule(p, nullptr, false, now);
    now += usec(100);
    p.tick(curr, now);
    p.enqueue(woken, now, enqueue_flags::wakeup);  // fresh: key = fair_clock
    // Place the woken task `lead` ns before curr (it is alone with curr in the tree).
    woken.fair_key = curr.fair_key - lead;
    EXPECT_EQ(p.wakeup_preempt(woken, curr, now), lead > msec(1)) << lead;
  }
}

// 2.6.23 yield_task_fair: alone in the tree, nothing; else, by default, curr is dequeued and
// enqueued again (its key refreshed with the run charged), and with sched_compat_yield its key
// becomes the rightmost task's + 1, so every other task runs first. Three nice-0 tasks queued
// at once, a runs 100 us and yields: b or c runs next either way.
TEST(Cfs2007Policy, YieldRefreshesCurrsKeyOrWithCompatYieldPutsItLast) {
  for (std::int64_t compat : {std::int64_t{0}, std::int64_t{1}}) {
    policy_t p;
    policy_t::knobs k;
    k.compat_yield = compat;
    ASSERT_EQ(p.configure(k), errc::ok);
    task a = make(0), b = make(0), c = make(0);
    sched_time now{};
    for (task* t : {&a, &b, &c}) p.enqueue(*t, now, enqueue_flags::wakeup);
    ASSERT_EQ(schedule(p, nullptr, false, now), &a);
    now += usec(100);
    p.yield(a, now);
    if (compat != 0) {
      EXPECT_EQ(a.fair_key, std::max(b.fair_key, c.fair_key) + 1);
      EXPECT_NE(schedule(p, &a, true, now), &a) << "compat_yield: everybody else first";
    } else {
      EXPECT_LE(a.fair_key, std::max(b.fair_key, c.fair_key) + msec(1)) << "a refreshed key, charged its 100 us";
      EXPECT_NE(schedule(p, &a, true, now), &a) << "b and c, queued with a's key at the start, have not run";
    }
    EXPECT_TRUE(p.verify());
  }
  policy_t alone;
  task t = make(0);
  sched_time now{};
  alone.enqueue(t, now, enqueue_flags::wakeup);
  ASSERT_EQ(schedule(alone, nullptr, false, now), &t);
  const auto key = t.fair_key;
  alone.yield(t, now + usec(100));
  EXPECT_EQ(t.fair_key, key) << "alone: yield changes nothing";
}

// ---- the v-series granularity knob (desktop-2007 / kernbench-4cpu replay) ------------------

std::uint64_t switches_with_granularity(std::int64_t gran, std::int64_t* max_wait = nullptr) {
  verifying p;
  policy_t::knobs k;
  k.granularity = gran;
  EXPECT_EQ(p.configure(k), errc::ok);
  task a = make(0), b = make(0), c = make(0), v = make(0);
  tick_driver<verifying> d(p, 1000);
  d.add(a, behaviour::hog());
  d.add(b, behaviour::hog());
  d.add(c, behaviour::hog());
  d.add(v, behaviour::cycle(msec(4), msec(16)));  // a 50 fps "video" task
  d.run_until(sec(5));
  EXPECT_EQ(p.failures, 0);
  if (max_wait) *max_wait = std::max(d.stats(0).max_wait_ns, d.stats(1).max_wait_ns);
  return d.context_switches();
}

TEST(Cfs2007Policy, GranularityKnobMovesSwitchRate) {
  // scenarios.md desktop-2007 / kernbench-4cpu: smaller sched_granularity_ns, more switches.
  std::int64_t w0 = 0, w500 = 0;
  const auto s0 = switches_with_granularity(0, &w0);
  const auto s2 = switches_with_granularity(msec(2));
  const auto s5 = switches_with_granularity(msec(5));
  const auto s100 = switches_with_granularity(msec(100));
  const auto s500 = switches_with_granularity(msec(500), &w500);
  const auto sdyn = switches_with_granularity(-1);
  std::printf("cfs2007 switches/5 s: gran 0: %llu, 2 ms: %llu, 5 ms: %llu, 100 ms: %llu, 500 ms: %llu, 2.6.23: %llu\n",
              (unsigned long long)s0, (unsigned long long)s2, (unsigned long long)s5, (unsigned long long)s100,
              (unsigned long long)s500, (unsigned long long)sdyn);
  EXPECT_GT(s0, s2);
  EXPECT_GT(s2, s5);
  EXPECT_GT(s5, s100);
  EXPECT_GE(s100, s500);
  EXPECT_GT(w500, w0);
}

// ---- bad input, misuse --------------------------------------------------------------------

TEST(Cfs2007Policy, BadParametersAreRefusedWithoutChange) {
  policy_t p;
  task t = make(-3);
  EXPECT_EQ(p.setup(t, {sched_kind::normal, 20, 0, 0, 0, 0}), errc::invalid_argument);
  EXPECT_EQ(p.setup(t, {sched_kind::rr, 0, 5, 0, 0, 0}), errc::invalid_argument);
  EXPECT_EQ(t.nice, -3);
  EXPECT_EQ(t.load.weight, 1991u);
  p.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  EXPECT_EQ(p.setup(t, {sched_kind::normal, 0, 0, 0, 0, 0}), errc::busy);
  EXPECT_EQ(t.load.weight, 1991u);

  policy_t::knobs k;
  k.latency = 0;
  EXPECT_EQ(p.configure(k), errc::invalid_argument);
  k = {};
  k.min_granularity = 0;
  EXPECT_EQ(p.configure(k), errc::invalid_argument);
  k = {};
  k.latency = msec(1);  // below min_granularity 2 ms
  EXPECT_EQ(p.configure(k), errc::inverted);
  k = {};
  k.granularity = -2;
  EXPECT_EQ(p.configure(k), errc::invalid_argument);
  k = {};
  k.granularity = sec(2);
  EXPECT_EQ(p.configure(k), errc::invalid_argument);
  k = {};
  k.cpus = 0;
  EXPECT_EQ(p.configure(k), errc::invalid_argument);
  EXPECT_EQ(p.config().granularity, -1);
  EXPECT_EQ(p.sched_latency(), msec(20));
  EXPECT_EQ(p.reset_fair_clock(vtime{1}), errc::busy);
}

TEST(Cfs2007Policy, DoubleEnqueueAndStrayDequeueAreRefusedAndReported) {
  policy_t p;
  task t = make(0), u = make(0);
  p.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  schedcore_test::check_scope scope;
  p.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  EXPECT_EQ(scope.take().size(), 1u);
  p.dequeue(u, sched_time{}, dequeue_flags::sleep);
  EXPECT_EQ(scope.take().size(), 1u);
  EXPECT_EQ(p.nr_runnable(), 1u);
  EXPECT_TRUE(p.verify());
}

// ---- wrap ------------------------------------------------------------------------------------

std::vector<std::int64_t> mixed_run(sched_time origin, u64 fair_clock, std::int64_t gran) {
  verifying p;
  policy_t::knobs k;
  k.granularity = gran;
  EXPECT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.reset_fair_clock(vtime{fair_clock}), errc::ok);
  task a = make(0), b = make(3), c = make(-2), d2 = make(0), e = make(10, sched_kind::batch);
  tick_driver<verifying> d(p, 250, origin);
  d.add(a, behaviour::hog());
  d.add(b, behaviour::hog(msec(1)));
  d.add(c, behaviour::cycle(msec(3), msec(11), msec(2)));
  d.add(d2, behaviour::cycle(usec(700), msec(4), usec(300)));
  d.add(e, behaviour::cycle(msec(20), msec(35)));
  d.run_until(sec(3));
  std::vector<std::int64_t> r;
  for (std::size_t i = 0; i < 5; ++i) {
    r.push_back(d.stats(i).cpu_ns);
    for (auto l : d.stats(i).wakeup_latency_ns) r.push_back(l);
  }
  for (auto x : d.switch_log()) r.push_back(static_cast<std::int64_t>(x));
  r.push_back(p.failures);
  return r;
}

TEST(Cfs2007Policy, SameScheduleWhenClockOrFairClockStartsJustBelowWrap) {
  for (std::int64_t gran : {std::int64_t{-1}, msec(2)}) {
    const auto base = mixed_run(sched_time{}, 0, gran);
    EXPECT_EQ(base.back(), 0);  // verify() held throughout
    EXPECT_EQ(mixed_run(sched_time{std::numeric_limits<u64>::max() - msec(1500)}, 0, gran), base);
    EXPECT_EQ(mixed_run(sched_time{}, std::numeric_limits<u64>::max() - msec(100), gran), base);
    EXPECT_EQ(mixed_run(sched_time{std::numeric_limits<u64>::max() - 1}, std::numeric_limits<u64>::max() - 3, gran),
              base);
  }
}

}  // namespace

namespace {

// Regression (found by tests/fuzz/policies_fuzz, seed corpus/policies/
// cfs2007-fork-debit-beyond-limit): with a v-series granularity above twice runtime_limit,
// START_DEBIT on fork used to set wait_runtime = -gran/2 beyond the ±runtime_limit clamp that
// every wait_runtime change obeys in 2.6.23, and verify() failed.
TEST(Cfs2007Policy, ForkDebitIsClampedToRuntimeLimit) {
  policy_t p;
  policy_t::knobs k;
  k.granularity = msec(48);  // gran/2 = 24 ms > runtime_limit = 20 ms (latency at 1 CPU)
  ASSERT_EQ(p.configure(k), errc::ok);
  ASSERT_EQ(p.runtime_limit(), msec(20));
  task parent, child;
  ASSERT_EQ(p.setup(parent, {sched_kind::normal, 0, 0, 0, 0, 0}), errc::ok);
  ASSERT_EQ(p.setup(child, {sched_kind::normal, 0, 0, 0, 0, 0}), errc::ok);
  const sched_time t0{};
  p.enqueue(parent, t0, enqueue_flags::wakeup);
  p.set_next(parent, t0);
  p.task_new(child, &parent, t0 + msec(3));
  EXPECT_EQ(child.wait_runtime, -msec(20));
  p.enqueue(child, t0 + msec(3), enqueue_flags::initial);
  EXPECT_TRUE(p.verify());
}

// The runtime limit (= the effective latency) bounds every queued task's |wait_runtime|
// (verify()). 2.6.23 derives it once, at boot; configure() on a queue whose tasks would fall
// outside a smaller limit is refused (errc::busy) and changes nothing; within it, accepted.
// Two tasks started at `now` and run for 3 ms of 1 ms ticks: their wait_runtimes spread past
// 0.5 ms. Returns the running task; `now` advances.
task* run_two_for_3ms(policy_t& p, task (&t)[2], sched_time& now) {
  for (task& x : t) {
    p.task_new(x, nullptr, now);
    p.enqueue(x, now, enqueue_flags::initial);
  }
  task* cur = p.pick_next(now);
  p.set_next(*cur, now);
  for (int k = 0; k < 3; ++k) {
    now += msec(1);
    if (p.tick(*cur, now)) {
      p.put_prev(*cur, now);
      cur = p.pick_next(now);
      p.set_next(*cur, now);
    }
  }
  return cur;
}

TEST(Cfs2007Policy, ConfigureRefusesALimitBelowAQueuedTasksWaitRuntime) {
  policy_t p;
  task t[2] = {make(0), make(0)};
  sched_time now{};
  (void)run_two_for_3ms(p, t, now);
  const duration_ns worst = std::max(std::abs(t[0].wait_runtime), std::abs(t[1].wait_runtime));
  ASSERT_GT(worst, usec(500));
  ASSERT_TRUE(p.verify());
  const policy_t::knobs before = p.config();
  const duration_ns limit_before = p.runtime_limit();
  policy_t::knobs k = before;
  k.latency = usec(500);
  k.min_granularity = usec(100);
  EXPECT_EQ(p.configure(k), errc::busy);
  EXPECT_EQ(p.runtime_limit(), limit_before);
  EXPECT_EQ(p.config().latency, before.latency);
  EXPECT_TRUE(p.verify());
  k.latency = worst + usec(100);  // still smaller than before, but above every queued task's
  EXPECT_EQ(p.configure(k), errc::ok);
  EXPECT_EQ(p.runtime_limit(), k.latency);
  EXPECT_TRUE(p.verify());
  k.latency = msec(40);  // a larger limit is always accepted
  EXPECT_EQ(p.configure(k), errc::ok);
  EXPECT_TRUE(p.verify());
}

// configure() checks only the queued tasks' wait_runtime against a lower limit; a sleeper keeps
// the value it left with. Its next enqueue clamps it (a SCHED_BATCH wakeup gets no sleeper
// credit, the path that never clamped), so |wait_runtime| <= runtime_limit holds for every
// queued task (verify's invariant).
TEST(Cfs2007Policy, ASleepersWaitRuntimeIsClampedToALimitLoweredWhileItSlept) {
  policy_t p;
  task t[2] = {make(0, sched_kind::batch), make(0, sched_kind::batch)};
  sched_time now{};
  task* cur = run_two_for_3ms(p, t, now);
  const duration_ns worst = std::max(std::abs(t[0].wait_runtime), std::abs(t[1].wait_runtime));
  ASSERT_GT(worst, usec(500));
  p.put_prev(*cur, now);
  for (task& x : t) p.dequeue(x, now, dequeue_flags::sleep);  // both asleep: the queue is empty
  policy_t::knobs k = p.config();
  k.latency = usec(500);
  k.min_granularity = usec(100);
  ASSERT_EQ(p.configure(k), errc::ok) << "an empty queue accepts any valid limit";
  ASSERT_EQ(p.runtime_limit(), usec(500));
  now += msec(1);
  for (task& x : t) {
    p.enqueue(x, now, enqueue_flags::wakeup);
    EXPECT_LE(std::abs(x.wait_runtime), p.runtime_limit());
  }
  EXPECT_TRUE(p.verify());
}

// policy.hpp, "Time": a step back of `now` is charged as no run time and the stamp is kept, so
// the forward step after it is not charged twice. Ticks at +10, +5 (a step back), +11 ms: the
// task ran 11 ms, not 10 + 6.
TEST(Cfs2007Policy, AStepBackOfTheClockIsNotChargedTwice) {
  policy_t p;
  task a = make(0);
  const sched_time t0{sec(1)};
  p.task_new(a, nullptr, t0);
  p.enqueue(a, t0, enqueue_flags::initial);
  p.set_next(a, t0);
  (void)p.tick(a, t0 + msec(10));
  (void)p.tick(a, t0 + msec(5));
  (void)p.tick(a, t0 + msec(11));
  EXPECT_EQ(a.sum_exec_runtime, static_cast<u64>(msec(11)));
  EXPECT_TRUE(p.verify());
}

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

// Source: 2.6.23 kernel/sched_fair.c __update_curr(): `if (cfs_rq->sleeper_bonus >
// sysctl_sched_min_granularity) { delta = min((u64)delta_mine, cfs_rq->sleeper_bonus); delta =
// min(delta, (unsigned long)((long)sysctl_sched_runtime_limit - curr->wait_runtime));
// cfs_rq->sleeper_bonus -= delta; delta_mine -= delta; }` (algorithms-modern.md §1.2 rule 4:
// the credit is totalled in sleeper_bonus and clawed back from the running task once it
// exceeds min_gran). With two nice-0 tasks queued, delta_mine of 1 ms is 1 ms x 1024 / 2048
// = 0.5 ms (rule 2), so each 1 ms tick repays 0.5 ms until the bonus is at most min_gran (2 ms).
TEST(Cfs2007Policy, TheRunningTaskRepaysTheSleeperBonusUntilItIsBelowMinGran) {
  policy_t p;
  task a = make(0), b = make(0);
  sched_time now{};
  p.enqueue(a, now, enqueue_flags::wakeup);
  p.enqueue(b, now, enqueue_flags::wakeup);
  schedule(p, nullptr, false, now);
  task* c = p.current();
  task* o = c == &a ? &b : &a;
  if (o != &b) {  // make b the sleeper
    now += usec(10);
    p.tick(*c, now);
    std::swap(c, o);
    schedule(p, o, true, now);
  }
  p.dequeue(b, now, dequeue_flags::sleep);
  schedule(p, &b, false, now);
  now += msec(8);  // a alone: b sleeps 8 ms of fair clock
  p.tick(a, now);
  p.enqueue(b, now, enqueue_flags::wakeup);
  const u64 bonus = p.sleeper_bonus();
  ASSERT_GT(bonus, static_cast<u64>(msec(2))) << "above min_gran: the claw-back is on";
  ASSERT_EQ(p.current(), &a);
  const std::int64_t wr = a.wait_runtime;
  now += msec(1);
  p.tick(a, now);
  EXPECT_EQ(p.sleeper_bonus(), bonus - static_cast<u64>(usec(500))) << "0.5 ms repaid";
  EXPECT_EQ(a.wait_runtime, wr - msec(1)) << "a's whole delta_mine went to the bonus";
  // Repayment continues only while the bonus exceeds min_gran.
  for (int i = 0; i < 40 && p.current() == &a; ++i) {
    now += msec(1);
    p.tick(a, now);
  }
  EXPECT_EQ(p.sleeper_bonus(), static_cast<u64>(msec(2))) << "8 ms in 0.5 ms steps stops at min_gran";
  EXPECT_TRUE(p.verify());
}

// Source: 2.6.23 kernel/sched_fair.c __enqueue_sleeper(): "Do not boost sleepers if there's too
// much bonus 'in flight' already: if (unlikely(cfs_rq->sleeper_bonus >
// sysctl_sched_runtime_limit)) return;" (algorithms-modern.md §1.2 rule 4; runtime_limit =
// sched_latency = 20 ms on UP, §1.3).
TEST(Cfs2007Policy, NoSleeperCreditWhileMoreThanTheLimitOfBonusIsOutstanding) {
  policy_t p;
  task t[4] = {make(0), make(0), make(0), make(0)};
  sched_time now{};
  for (task& x : t) p.enqueue(x, now, enqueue_flags::wakeup);
  task* runner = schedule(p, nullptr, false, now);
  ASSERT_NE(runner, nullptr);
  std::vector<task*> sleepers;
  for (task& x : t)
    if (&x != runner) sleepers.push_back(&x);
  for (task* s : sleepers) p.dequeue(*s, now, dequeue_flags::sleep);
  for (task* s : sleepers) ASSERT_EQ(s->wait_runtime, 0);
  now += msec(40);  // the runner alone: the fair clock advances 40 ms (2 x limit, the cap)
  p.tick(*runner, now);
  ASSERT_EQ(p.sleeper_bonus(), 0u);
  p.enqueue(*sleepers[0], now, enqueue_flags::wakeup);
  EXPECT_EQ(sleepers[0]->wait_runtime, msec(20)) << "credited up to the limit";
  EXPECT_EQ(p.sleeper_bonus(), static_cast<u64>(msec(20))) << "= limit: not yet over it";
  p.enqueue(*sleepers[1], now, enqueue_flags::wakeup);
  EXPECT_EQ(sleepers[1]->wait_runtime, msec(20));
  EXPECT_EQ(p.sleeper_bonus(), static_cast<u64>(msec(40)));
  p.enqueue(*sleepers[2], now, enqueue_flags::wakeup);
  EXPECT_EQ(sleepers[2]->wait_runtime, 0) << "40 ms of bonus in flight > 20 ms limit: no credit";
  EXPECT_EQ(p.sleeper_bonus(), static_cast<u64>(msec(40)));
  EXPECT_TRUE(p.verify());
}

// Source: 2.6.23 kernel/sched.c `#define WEIGHT_IDLEPRIO 2` and `#define WMULT_IDLEPRIO
// (1 << 31)` (algorithms-modern.md §1.3: "WEIGHT_IDLEPRIO was 2 then (3 later)"); a SCHED_IDLE
// hog against a nice-0 hog therefore gets 2 / (1024 + 2) of the CPU in 2.6.23 (3 / 1027 today).
TEST(Cfs2007Policy, SchedIdleHasThe2623WeightTwo) {
  const task idle = make(0, sched_kind::idle);
  EXPECT_EQ(idle.load.weight, 2u) << "2.6.23 WEIGHT_IDLEPRIO";
  EXPECT_EQ(idle.load.inv_weight, 1u << 31) << "2.6.23 WMULT_IDLEPRIO";
  // Its niced granularity (w < 1024: g * w >> 10): 2 ms * 2 / 1024 = 3906 ns.
  EXPECT_EQ(policy_t::niced_granularity(idle, msec(2)), 3906);
  // The queue load W with a nice-0 task: 1024 + 2.
  policy_t p;
  task n = make(0), i = make(0, sched_kind::idle);
  sched_time now{};
  p.enqueue(n, now, enqueue_flags::wakeup);
  p.enqueue(i, now, enqueue_flags::wakeup);
  EXPECT_EQ(p.load(), 1026u) << "1024 + WEIGHT_IDLEPRIO";
}

// Source: 2.6.23 kernel/sched_fair.c __check_preempt_curr_fair(): ideal_runtime =
// max(sysctl_sched_latency / nr_running, sysctl_sched_min_granularity); `if (delta_exec >
// ideal_runtime) granularity = 0;` then preempt iff curr->fair_key - se->fair_key >
// niced_granularity(curr, granularity) (algorithms-modern.md §1.3 "Preemption test"; O1.1:
// 2 tasks on UP give gran = 20/2 - 20/4 = 5 ms; ideal = max(20/2, 2) = 10 ms).
TEST(Cfs2007Policy, ACurrThatRanPastItsIdealRuntimeIsPreemptedWithoutGranularity) {
  policy_t p;
  task a = make(0), b = make(0);
  sched_time now{};
  p.enqueue(a, now, enqueue_flags::wakeup);
  p.enqueue(b, now, enqueue_flags::wakeup);
  task* y = schedule(p, nullptr, false, now);
  ASSERT_NE(y, nullptr);
  task* x = y == &a ? &b : &a;
  // y keeps the CPU for 12 ms (preemption requests ignored): its key ends 12 ms ahead of x's.
  for (int ms = 0; ms < 12; ++ms) {
    now += msec(1);
    (void)p.tick(*y, now);
  }
  p.put_prev(*y, now);
  ASSERT_EQ(p.pick_next(now), x);
  p.set_next(*x, now);
  const duration_ns gran = msec(5), ideal = msec(10);
  ASSERT_EQ(p.sched_granularity(), gran);
  bool rule_decided = false;
  for (int ms = 1; ms <= 20; ++ms) {
    now += msec(1);
    const bool preempt = p.tick(*x, now);
    const duration_ns lead = x->fair_key - y->fair_key;
    const u64 ran = x->sum_exec_runtime - x->prev_sum_exec_runtime;
    const bool want = lead > (ran > static_cast<u64>(ideal) ? 0 : gran);  // nice 0: niced(g) = g
    EXPECT_EQ(preempt, want) << "x ran " << ms << " ms, lead " << lead;
    if (ran > static_cast<u64>(ideal) && lead > 0 && lead <= gran) rule_decided = true;
    if (preempt) break;
  }
  EXPECT_TRUE(rule_decided) << "the scenario must reach ran > ideal with 0 < lead <= gran";
  EXPECT_TRUE(p.verify());
}

// Source: 2.6.23 kernel/sched_fair.c __check_preempt_curr_fair(): ideal_runtime =
// max(sysctl_sched_latency / cfs_rq->nr_running, (unsigned long)sysctl_sched_min_granularity)
// (algorithms-modern.md §1.3: ideal = max(lat/nr, min_gran)). With 11 nice-0 tasks on UP:
// lat/nr = 1.818 ms < min_gran 2 ms, so ideal = 2 ms, and gran = max(20/11 - 20/121, 2) = 2 ms
// (O1.1's floor). A curr that has run 1.9 ms has not passed its ideal runtime: it keeps the
// 2 ms granularity and a 1.9 ms key lead does not preempt it.
TEST(Cfs2007Policy, TheIdealRuntimeIsFlooredAtMinGranularity) {
  policy_t p;
  task t[11];
  for (task& x : t) x = make(0);
  sched_time now{};
  for (task& x : t) p.enqueue(x, now, enqueue_flags::wakeup);
  task* c = schedule(p, nullptr, false, now);
  ASSERT_NE(c, nullptr);
  ASSERT_EQ(p.sched_granularity(), msec(2)) << "O1.1: 20/11 - 20/121 < 2 ms, floored";
  now += usec(1900);
  const bool preempt = p.tick(*c, now);
  task* next = p.pick_next(now);
  ASSERT_NE(next, c) << "another task's key is now smaller";
  const duration_ns lead = c->fair_key - next->fair_key;
  const u64 ran = c->sum_exec_runtime - c->prev_sum_exec_runtime;
  ASSERT_GT(ran, static_cast<u64>(msec(20) / 11)) << "past latency / nr";
  ASSERT_LE(ran, static_cast<u64>(msec(2))) << "not past min_gran";
  ASSERT_GT(lead, 0);
  ASSERT_LE(lead, msec(2));
  EXPECT_FALSE(preempt) << "ideal = max(1.818, 2) ms = 2 ms not exceeded: granularity 2 ms applies";
  EXPECT_TRUE(p.verify());
}

// Source: 2.6.23 kernel/sched_fair.c check_preempt_curr_fair(): `gran =
// sysctl_sched_wakeup_granularity; /* Batch tasks prefer throughput over latency: */ if
// (unlikely(p->policy == SCHED_BATCH)) gran = sysctl_sched_batch_wakeup_granularity;` with the
// 2.6.23 default sched_batch_wakeup_granularity = 25 ms (algorithms-modern.md §1.3 table).
TEST(Cfs2007Policy, AWokenBatchTaskUsesTheBatchWakeupGranularity) {
  for (std::int64_t lead : {msec(3), msec(25), msec(25) + 1}) {
    policy_t p;
    task curr = make(0), woken = make(0, sched_kind::batch);
    sched_time now{};
    p.enqueue(curr, now, enqueue_flags::wakeup);
    schedule(p, nullptr, false, now);
    now += usec(100);
    p.tick(curr, now);
    p.enqueue(woken, now, enqueue_flags::wakeup);  // fresh: key = fair_clock
    woken.fair_key = curr.fair_key - lead;         // `lead` ns before curr
    EXPECT_EQ(p.wakeup_preempt(woken, curr, now), lead > msec(25)) << lead;
  }
}

// Random two-CPU histories (tests/support/cross_queue_diff.hpp): the parent's half of a fork
// onto the other CPU (the kernel runs it in the parent's context, on the parent's queue) does
// not depend on what the child's CPU holds.
TEST(Cfs2007Policy, RandomForksAcrossCpusLeaveTheParentsQueueAlone) {
  schedcore_test::expect_forks_leave_the_parents_queue_alone<policy_t>();
}

}  // namespace
