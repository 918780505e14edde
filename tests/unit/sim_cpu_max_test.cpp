// schedsim with cgroup v2's cpu.max (workload.hpp cgroup_spec::max_quota_ns; CFS bandwidth
// control, policy/cfs_bandwidth.hpp and policy/group.hpp): the quota per period summed over
// CPUs, sibling shares, the burst, and the throttling of bursty workers whose average is below
// their limit (the Kubernetes "CPU throttling" complaint). Oracles: cgroup-v2.rst's cpu.max
// ("the group may consume up to $MAX in each $PERIOD duration"), sched-bwc.rst (the quota is
// spread over CPUs; a burst of the period's quota on many CPUs throttles), and hand-computed
// schedules with HZ = 1000.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "sim_entries.hpp"
#include "sim_results.hpp"
#include "schedcore/sim/engine.hpp"
#include "schedcore/sim/scenarios.hpp"

namespace {

using namespace schedcore;
using namespace schedcore::sim;
using schedcore_test::exact_machine;
using schedcore_test::find;

const cgroup_result& stats_of(const run_result& r, const std::string& name) {
  for (const cgroup_result& g : r.cgroups)
    if (g.name == name) return g;
  static const cgroup_result none{};
  ADD_FAILURE() << "no cgroup result for " << name;
  return none;
}

// One CPU: a hog capped at 20 ms per 100 ms beside a hog in the root gets exactly 20 % (400 ms
// of 2 s), the other 80 %; unlimited they split 50/50. Throttled once a period.
TEST(SimCpuMax, ACappedGroupGetsItsQuotaAndASiblingTheRest) {
  for (const policy_entry& e : {schedcore_test::grouped_cfs_entry(), schedcore_test::grouped_eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    workload w;
    w.name = "cpu-max";
    w.duration = sec(2);
    w.cgroups = {{"capped", "", 100}};
    task_spec in = scen::task("capped-hog", 0, {ev::run(sec(10))});
    in.cgroup = "capped";
    w.tasks = {in, scen::task("root-hog", 0, {ev::run(sec(10))})};
    const run_result free = e.run(w, exact_machine(), {});
    EXPECT_NEAR(static_cast<double>(find(free, "capped-hog").cpu_ns), 1e9, 1e7);
    EXPECT_TRUE(free.cgroups.empty());  // no limit, no cgroups section
    w.cgroups[0].max_quota_ns = msec(20);
    const run_result capped = e.run(w, exact_machine(), {});
    EXPECT_EQ(find(capped, "capped-hog").cpu_ns, msec(400));
    EXPECT_EQ(find(capped, "root-hog").cpu_ns, msec(1600));
    const cgroup_result& g = stats_of(capped, "capped");
    EXPECT_EQ(g.quota_ns, msec(20));
    EXPECT_EQ(g.period_ns, msec(100));
    EXPECT_EQ(g.nr_throttled, 20u);
    // cpu.stat's counts: the periods that ended, at 100 ... 1900 ms (the first draw at 0
    // starts the grid; the boundary at 2 s is the run's end), each with the group throttled.
    EXPECT_EQ(g.nr_periods, 19u);
    EXPECT_EQ(g.nr_throttled_periods, 19u);
    schedcore_test::expect_conserved(capped);
  }
}

// sched-bwc.rst: quota = period is one CPU's worth however many CPUs the group runs on. Four
// hogs in the group on 4 CPUs get 1 s of 1 s in all, and the CPUs idle the other 3 s; with
// quota 200 ms per 100 ms, 2 s. Unlimited, 4 s.
TEST(SimCpuMax, TheQuotaIsSummedOverCpus) {
  for (const policy_entry& e : {schedcore_test::grouped_cfs_entry(), schedcore_test::grouped_eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    workload w;
    w.name = "cpu-max-smp";
    w.cpus = 4;
    w.duration = sec(1);
    w.cgroups = {{"pod", "", 100}};
    for (int i = 0; i < 4; ++i) {
      task_spec t = scen::task("w" + std::to_string(i), 0, {ev::run(sec(10))});
      t.cgroup = "pod";
      t.cpus = {i};
      w.tasks.push_back(t);
    }
    run_config cfg = exact_machine();
    cfg.cpus = 4;
    for (const std::int64_t quota : {std::int64_t{-1}, msec(100), msec(200)}) {
      w.cgroups[0].max_quota_ns = quota;
      const run_result r = e.run(w, cfg, {});
      std::int64_t total = 0;
      for (const task_result& t : r.tasks) total += t.cpu_ns;
      EXPECT_EQ(total, quota == -1 ? sec(4) : quota * 10) << quota;
      EXPECT_EQ(r.totals.idle_ns, sec(4) - total) << quota;
      if (quota != -1) {
        EXPECT_EQ(stats_of(r, "pod").nr_throttled, 40u) << quota;  // each CPU once a period
        EXPECT_EQ(stats_of(r, "pod").nr_throttled_periods, stats_of(r, "pod").nr_periods) << quota;  // all 4 in each
        for (const task_result& t : r.tasks)  // each CPU's share is exact to a slice a period
          EXPECT_NEAR(static_cast<double>(t.cpu_ns), static_cast<double>(quota * 10 / 4), 30e6) << quota << " " << t.name;
      }
      schedcore_test::expect_conserved(r);
    }
  }
}

// The Kubernetes complaint: 8 workers of a pod wake together every 200 ms and run 10 ms each
// on 4 CPUs: 80 ms per 200 ms, 0.4 CPU on average, under a limit of 0.5 CPU (cpu.max 50 ms per
// 100 ms). Unlimited, the second four wait 10 ms for a CPU. Capped, each burst uses the
// period's 50 ms and the rest waits for the next period, some 85 ms later. With cpu.max.burst
// 30 ms the pool banks what the idle periods leave, up to quota + burst = 80 ms: 70 ms by the
// second burst (20 left + 50), 80 ms from the third on, which then runs unthrottled.
TEST(SimCpuMax, BurstyWorkersAreThrottledBelowTheirAverageAndTheBurstHelps) {
  for (const policy_entry& e : {schedcore_test::grouped_cfs_entry(), schedcore_test::grouped_eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    workload w;
    w.name = "cpu-max-bursty";
    w.cpus = 4;
    w.duration = sec(2);
    w.cgroups = {{"pod", "", 100}};
    for (int i = 0; i < 8; ++i) {
      const std::string name = "worker" + std::to_string(i);
      task_spec t = scen::task(name, 0, {ev::run(msec(10)), ev::anchored_timer("period-" + name, msec(200), 0)});
      t.cgroup = "pod";
      w.tasks.push_back(t);
    }
    run_config cfg = exact_machine();
    cfg.cpus = 4;
    auto longest_wait = [](const run_result& r) {
      std::int64_t m = 0;
      for (const task_result& t : r.tasks) m = std::max(m, t.max_wait_ns);
      return m;
    };
    const run_result free = e.run(w, cfg, {});
    EXPECT_LE(longest_wait(free), msec(11));
    w.cgroups[0].max_quota_ns = msec(50);
    const run_result capped = e.run(w, cfg, {});
    EXPECT_GE(longest_wait(capped), msec(50));
    EXPECT_GE(stats_of(capped, "pod").nr_throttled, 10u);  // each burst, on several CPUs
    std::int64_t capped_cpu = 0;
    for (const task_result& t : capped.tasks) capped_cpu += t.cpu_ns;
    EXPECT_EQ(capped_cpu, msec(800));  // the work still gets done: 8 x 10 ms x 10 bursts
    w.cgroups[0].max_burst_ns = msec(30);
    const run_result burst = e.run(w, cfg, {});
    const cgroup_result& b = stats_of(burst, "pod");
    EXPECT_EQ(b.burst_ns, msec(30));
    // Throttled in the first two bursts only (at most once per CPU in each; the warm-up run
    // below shows none after them).
    EXPECT_GE(b.nr_throttled, 2u);
    EXPECT_LE(b.nr_throttled, 8u);
    // Every burst from the second drew more than the quota in its period, by at most 30 ms.
    EXPECT_GE(b.nr_bursts, 8u);
    EXPECT_LE(b.burst_used_ns, static_cast<std::int64_t>(b.nr_bursts) * msec(30));
    EXPECT_GT(b.burst_used_ns, static_cast<std::int64_t>(b.nr_bursts - 1) * msec(20));
    run_config after = cfg;
    after.warmup_ns = msec(350);
    const run_result later = e.run(w, after, {});
    EXPECT_EQ(stats_of(later, "pod").nr_throttled, 0u);
    EXPECT_LE(longest_wait(later), msec(11));
    schedcore_test::expect_conserved(burst);
  }
}

// The slack timer across CPUs (policy/cfs_bandwidth.hpp): 10 ms per 100 ms over three CPUs.
// A and B (CPUs 0 and 1) run 1 ms and sleep; their queues drew a 5 ms slice each at 0, which
// left nothing for the hog H on CPU 2, throttled at once. At 1 ms they give back 3 ms each
// (keeping 1 ms): 6 ms, more than a slice, with a queue throttled, so the slack timer hands
// them to H at 6 ms, and H runs 6 ms in a period where it would otherwise have waited for the
// refill at 100 ms. Over 1 s: 6 + 9 x 10 = 96 ms.
TEST(SimCpuMax, TheSlackTimerHandsReturnedBudgetAcrossCpus) {
  for (const policy_entry& e : {schedcore_test::grouped_cfs_entry(), schedcore_test::grouped_eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    workload w;
    w.name = "cpu-max-slack";
    w.cpus = 3;
    w.duration = sec(1);
    w.cgroups = {{"pod", "", 100}};
    w.cgroups[0].max_quota_ns = msec(10);
    const char* names[] = {"A", "B", "H"};
    for (int i = 0; i < 3; ++i) {
      task_spec t = scen::task(names[i], 0, i < 2 ? std::vector<event>{ev::run(msec(1)), ev::sleep(sec(10))}
                                                   : std::vector<event>{ev::run(sec(10))});
      t.cgroup = "pod";
      t.cpus = {i};
      w.tasks.push_back(t);
    }
    run_config cfg = exact_machine();
    cfg.cpus = 3;
    const run_result r = e.run(w, cfg, {});
    EXPECT_EQ(find(r, "A").cpu_ns, msec(1));
    EXPECT_EQ(find(r, "B").cpu_ns, msec(1));
    EXPECT_EQ(find(r, "H").cpu_ns, msec(96));
    EXPECT_EQ(find(r, "H").latency.max, msec(6));  // its first run came with the slack
    schedcore_test::expect_conserved(r);
  }
}

// Limits outside the kernel's ranges are workload errors, under any policy.
TEST(SimCpuMax, LimitsOutsideTheKernelsRangesAreWorkloadErrors) {
  workload base;
  base.name = "cpu-max-bad";
  base.duration = msec(10);
  base.tasks.push_back(scen::task("t", 0, {ev::run(msec(1))}));
  base.cgroups.push_back({"a", "", 100});
  struct bad_case {
    std::int64_t quota, period, burst;
  };
  const bad_case cases[] = {{usec(999), msec(100), 0}, {msec(10), usec(999), 0}, {msec(10), sec(1) + 1, 0},
                            {msec(10), msec(100), msec(11)}, {-1, msec(100), msec(1)}, {0, msec(100), 0}};
  for (const bad_case& c : cases) {
    workload w = base;
    w.cgroups[0].max_quota_ns = c.quota;
    w.cgroups[0].max_period_ns = c.period;
    w.cgroups[0].max_burst_ns = c.burst;
    for (const policy_entry& e : {schedcore_test::grouped_eevdf_entry(), schedcore_test::ref_entry()}) {
      try {
        (void)e.run(w, exact_machine(), {});
        ADD_FAILURE() << "accepted quota " << c.quota << " period " << c.period << " burst " << c.burst;
      } catch (const workload_error& x) {
        EXPECT_NE(std::string(x.what()).find("cpu.max"), std::string::npos) << x.what();
      }
    }
  }
}

// ---------------------------------------------------------------- setup limits (mutation audit)

// cgroup v2's limits, inclusive: cpu.weight 1..10000 (10000 accepted, and a group at 10000
// beside a root hog of 1024 shares takes 102400 / (102400 + 1024) = 99.0 % of the CPU), and
// 33 levels of nesting (group_policy nests 32 levels below the root's groups: a 33-deep chain
// runs, a 34-deep one is refused); a group cannot be its own parent.
TEST(SimCpuMax, CgroupLimitsAreInclusive) {
  const policy_entry e = schedcore_test::grouped_cfs_entry();
  workload w;
  w.name = "cgroup-limits";
  w.duration = sec(1);
  w.cgroups = {{"heavy", "", 10000}};
  task_spec in = scen::task("in", 0, {ev::run(sec(10))});
  in.cgroup = "heavy";
  w.tasks = {in, scen::task("root", 0, {ev::run(sec(10))})};
  const run_result r = e.run(w, exact_machine(), {});
  EXPECT_NEAR(static_cast<double>(find(r, "in").cpu_ns) / 1e9, 102400.0 / 103424.0, 0.01);
  workload deep = w;
  deep.cgroups.clear();
  for (int d = 1; d <= 33; ++d)
    deep.cgroups.push_back({"g" + std::to_string(d), d == 1 ? std::string() : "g" + std::to_string(d - 1), 100});
  deep.tasks[0].cgroup = "g33";
  const run_result r33 = e.run(deep, exact_machine(), {});
  EXPECT_NEAR(static_cast<double>(find(r33, "in").cpu_ns), 5e8, 1e7) << "33 levels: one 1024-share group beside the hog";
  auto refused = [&](const workload& bad, const std::string& says) {
    try {
      (void)e.run(bad, exact_machine(), {});
      ADD_FAILURE() << "accepted; expected: " << says;
    } catch (const workload_error& x) {
      EXPECT_NE(std::string(x.what()).find(says), std::string::npos) << x.what();
    }
  };
  workload bad = deep;
  bad.cgroups.push_back({"g34", "g33", 100});
  bad.tasks[0].cgroup = "g34";
  refused(bad, "cgroup 'g34': nested 34 levels deep, beyond 33");
  bad = w;
  bad.cgroups[0].weight = 10001;
  refused(bad, "cpu.weight 10001 is outside [1, 10000]");
}

// cpu.stat after a warm-up covers the window only: the same run as ACappedGroupGetsItsQuota...
// (one CPU, 20 ms per 100 ms, beside a root hog) with a 1 s warm-up reports what the 2 s run
// reports less what a 1 s run reports (the schedule is the same; the period boundary at 1 s
// ends the throttle of the period before it, so nothing straddles the cut): nr_periods
// 19 - 9 = 10, nr_throttled 20 - 10, throttled_ns the second second's.
TEST(SimCpuMax, CpuStatAfterAWarmUpCoversTheWindowOnly) {
  for (const policy_entry& e : {schedcore_test::grouped_cfs_entry(), schedcore_test::grouped_eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    workload w;
    w.name = "cpu-max-window";
    w.duration = sec(2);
    w.cgroups = {{"capped", "", 100}};
    w.cgroups[0].max_quota_ns = msec(20);
    task_spec in = scen::task("capped-hog", 0, {ev::run(sec(10))});
    in.cgroup = "capped";
    w.tasks = {in, scen::task("root-hog", 0, {ev::run(sec(10))})};
    const cgroup_result full = stats_of(e.run(w, exact_machine(), {}), "capped");
    workload first = w;
    first.duration = sec(1);
    const cgroup_result head = stats_of(e.run(first, exact_machine(), {}), "capped");
    run_config warm = exact_machine();
    warm.warmup_ns = sec(1);
    const cgroup_result tail = stats_of(e.run(w, warm, {}), "capped");
    EXPECT_EQ(full.nr_periods, 19u);
    EXPECT_EQ(head.nr_periods, 9u);
    EXPECT_EQ(tail.nr_periods, full.nr_periods - head.nr_periods);
    EXPECT_EQ(tail.nr_throttled, full.nr_throttled - head.nr_throttled);
    EXPECT_GT(head.throttled_ns, 0);
    EXPECT_EQ(tail.throttled_ns, full.throttled_ns - head.throttled_ns);
  }
}

}  // namespace

// Two CPUs, 1 s: a group capped at 20 ms per 100 ms (idle 80 % of the time) whose two hogs
// are pinned to CPU 1, "capped0" and "capped1".
workload capped_pair_on_cpu1(const std::string& name) {
  workload w;
  w.name = name;
  w.cpus = 2;
  w.duration = sec(1);
  w.cgroups = {{"capped", "", 100}};
  w.cgroups[0].max_quota_ns = msec(20);
  for (const char* hog : {"capped0", "capped1"}) {
    task_spec t = scen::task(hog, 0, {ev::run(sec(10))});
    t.cgroup = "capped";
    t.cpus = {1};
    w.tasks.push_back(t);
  }
  return w;
}

// The kernel takes a throttled group's tasks off its CPU's nr_running (throttle_cfs_rq), so a
// CPU whose capped group waits for its period has spare room for the balancer. Two CPUs: CPU 1
// holds a capped group's two hogs (20 ms per 100 ms, pinned) and a pinned root hog F; three
// root hogs start unpinned. Counting the throttled pair, the CPUs look even (3 and 3): F gets
// CPU 1's 800 ms alone and the other three share CPU 0, 333 ms each. Leaving them out, the
// balancer moves a root hog to CPU 1 while the group is throttled, and the four root hogs
// share the 1800 ms the cap leaves, about 450 ms each.
TEST(SimCpuMax, ThrottledTasksDoNotCountInACpusLoad) {
  for (const policy_entry& e : {schedcore_test::grouped_cfs_entry(), schedcore_test::grouped_eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    workload w = capped_pair_on_cpu1("cpu-max-load");
    task_spec f = scen::task("F", 0, {ev::run(sec(10))});
    f.cpus = {1};
    w.tasks.push_back(f);
    for (const char* name : {"A", "B", "E"}) w.tasks.push_back(scen::task(name, 0, {ev::run(sec(10))}));
    run_config cfg = exact_machine();
    cfg.cpus = 2;
    const run_result r = e.run(w, cfg, {});
    EXPECT_EQ(find(r, "capped0").cpu_ns + find(r, "capped1").cpu_ns, msec(200));
    EXPECT_LE(find(r, "F").cpu_ns, msec(500));
    std::int64_t roots = find(r, "F").cpu_ns;
    for (const char* name : {"A", "B", "E"}) {
      EXPECT_GE(find(r, name).cpu_ns, msec(380)) << name;
      roots += find(r, name).cpu_ns;
    }
    EXPECT_EQ(roots, msec(1800));
    EXPECT_EQ(r.totals.idle_ns, 0);
    schedcore_test::expect_conserved(r);
  }
}

// idle_cpu() reads nr_running, so a CPU whose only tasks wait for their group's next period is
// idle to a wakeup. CPU 1 holds a capped group's two pinned hogs (20 ms per 100 ms: idle 80 %
// of the time), CPU 0 a pinned root hog H. A periodic task P (1 ms every 10 ms) starts beside
// H. Its wakeups find CPU 1 idle while the group is throttled and move there, so H keeps CPU 0
// (991 ms of 1 s: P's first job and the move took the rest). Counting the throttled hogs,
// neither CPU ever looks idle, P stays on CPU 0 and takes 100 ms of H's time while CPU 1 idles
// 800 ms.
TEST(SimCpuMax, ACpuWhoseTasksAreAllThrottledIsIdleToAWakeup) {
  for (const policy_entry& e : {schedcore_test::grouped_cfs_entry(), schedcore_test::grouped_eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    workload w = capped_pair_on_cpu1("cpu-max-idle");
    task_spec h = scen::task("H", 0, {ev::run(sec(10))});
    h.cpus = {0};
    w.tasks.push_back(h);
    w.tasks.push_back(scen::task("P", 0, {ev::run(msec(1)), ev::anchored_timer("period", msec(10), 0)}));
    run_config cfg = exact_machine();
    cfg.cpus = 2;
    const run_result r = e.run(w, cfg, {});
    EXPECT_GE(find(r, "P").migrations, 1u);
    EXPECT_EQ(find(r, "P").cpu_ns, msec(100));  // every job done
    EXPECT_GE(find(r, "H").cpu_ns, msec(980));
    EXPECT_EQ(find(r, "capped0").cpu_ns + find(r, "capped1").cpu_ns, msec(200));
    EXPECT_LE(r.totals.idle_ns, msec(720));
    schedcore_test::expect_conserved(r);
  }
}

// throttled_lb_pair: the balancer does not move a task whose group is throttled on its CPU or
// on the destination; it could not run on arrival (the pool is dry on both) and would only
// wait there. Three hogs of a group capped at 20 ms per 100 ms share two CPUs with four root
// tasks that run 3 ms and sleep 1-4 ms, so the CPUs go idle and balance often, and the
// throttled hogs, queued longest, are the coldest candidates. With the rule the capped hogs
// moved 18 (cfs) and 26 (eevdf) times in 1 s; moving them while throttled, 39 and 65 times.
TEST(SimCpuMax, TheBalancerLeavesThrottledTasksWhereTheyAre) {
  for (const policy_entry& e : {schedcore_test::grouped_cfs_entry(), schedcore_test::grouped_eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    workload w;
    w.name = "cpu-max-balance";
    w.cpus = 2;
    w.duration = sec(1);
    w.cgroups = {{"capped", "", 100}};
    w.cgroups[0].max_quota_ns = msec(20);
    for (int i = 0; i < 3; ++i) {
      task_spec t = scen::task("capped" + std::to_string(i), 0, {ev::run(sec(10))});
      t.cgroup = "capped";
      w.tasks.push_back(t);
    }
    for (int i = 0; i < 4; ++i)
      w.tasks.push_back(scen::task("root" + std::to_string(i), 0, {ev::run(msec(3)), ev::sleep(msec(i + 1))}));
    run_config cfg = exact_machine();
    cfg.cpus = 2;
    const run_result r = e.run(w, cfg, {});
    std::uint64_t capped_moves = 0;
    std::int64_t capped_cpu = 0;
    for (int i = 0; i < 3; ++i) {
      capped_moves += find(r, "capped" + std::to_string(i)).migrations;
      capped_cpu += find(r, "capped" + std::to_string(i)).cpu_ns;
    }
    EXPECT_LE(capped_moves, 30u);
    EXPECT_EQ(capped_cpu, msec(200));
    schedcore_test::expect_conserved(r);
  }
}
