// schedsim's fair wakeup placement (select_task_rq_fair's fast path, smp/wake_affine.hpp):
// hand-computed machines where the waker's CPU, the previous CPU, a sync pipe wakeup, the
// recent_used_cpu rule and wake_wide's flip counts each decide where a woken task goes. Where
// it went is read from the trace's sched_wakeup target_cpu, and its cost from CPU times.
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "sim_entries.hpp"
#include "sim_results.hpp"
#include "schedcore/sim/engine.hpp"
#include "schedcore/sim/trace.hpp"

namespace {

using namespace schedcore;
using namespace schedcore::sim;
using schedcore_test::exact_machine;
using schedcore_test::find;
using schedcore_test::looping;

task_spec pinned(task_spec t, int cpu) {
  t.cpus = {cpu};
  return t;
}

task_spec delayed(task_spec t, std::int64_t ns) {
  t.delay = ns;
  return t;
}

// The CPUs the trace's sched_wakeup events put `comm` on, in order (wakeups of a blocked
// task; not sched_wakeup_new).
std::vector<int> wakeup_cpus(const std::string& trace, const std::string& comm) {
  std::vector<int> cpus;
  std::istringstream in(trace);
  const std::string key = "sched_wakeup: comm=" + comm + " ";
  for (std::string line; std::getline(in, line);) {
    const std::size_t at = line.find(key);
    if (at == std::string::npos) continue;
    cpus.push_back(std::stoi(line.substr(line.find("target_cpu=", at) + 11)));
  }
  return cpus;
}

struct traced {
  run_result r;
  std::vector<int> t_cpus;  // where task "T" was woken to
};

traced run_traced(const policy_entry& e, const workload& w, bool wake_affine = true,
                  std::vector<std::uint32_t> capacity = {}) {
  trace_writer tw;
  run_config c = exact_machine();
  c.machine.capacity = std::move(capacity);
  c.trace = &tw;
  c.machine.wake_affine = wake_affine;
  traced out{e.run(w, c, {}), {}};
  out.t_cpus = wakeup_cpus(tw.text(), "T");
  return out;
}

// Two CPUs, 20 ms. W (pinned to CPU 0) runs 10 ms, then resumes T; T, started on the idle CPU
// 1, suspended at once and runs 1 ms per wakeup. `prev_hogs` hogs pinned to CPU 1 join at
// 1 ms. At 10 ms no CPU is idle and wake_affine_weight compares, in nice-0 weights
// (1024 each), 100 x (W + T) = 204800 with 108 x CPU 1's load: 221184 with two hogs (T is
// searched for from W's CPU and stacks there: nothing is idle), 110592 with one (T stays).
workload waker_and_hogs(int prev_hogs, bool by_pipe) {
  workload w;
  w.name = "wake-affine";
  w.cpus = 2;
  w.duration = msec(20);
  if (by_pipe) {
    w.tasks.push_back(pinned(looping("W", {ev::run(msec(10)), ev::pipe_write("p", 1)}), 0));
    w.tasks.push_back(looping("T", {ev::pipe_read("p", 1, msec(1), 0)}));
  } else {
    w.tasks.push_back(pinned(looping("W", {ev::run(msec(10)), ev::on(event_kind::resume, "go")}), 0));
    w.tasks.push_back(looping("T", {ev::on(event_kind::suspend, "go"), ev::run(msec(1))}));
  }
  for (int i = 0; i < prev_hogs; ++i)
    w.tasks.push_back(delayed(pinned(looping("H" + std::to_string(i), {ev::run(sec(1))}), 1), msec(1)));
  return w;
}

// Two hogs on T's previous CPU: T is woken onto W's CPU. Under cfs it preempts W there (its
// sleeper credit, 6 ms, exceeds the 2 ms wakeup granularity of 2 CPUs) and runs 1 ms, so W runs
// 19 of 20 ms and the hogs share all 19 ms of CPU 1. With wake_affine off T goes back to CPU 1:
// W runs 20 ms and the hogs 18.
TEST(SimWakeAffine, ALighterWakersCpuTakesTheWokenTask) {
  for (const policy_entry& e : {schedcore_test::cfs_entry(), schedcore_test::eevdf_entry(), schedcore_test::o1_entry()}) {
    SCOPED_TRACE(e.name);
    const traced on = run_traced(e, waker_and_hogs(2, false));
    EXPECT_EQ(on.t_cpus, std::vector<int>({0}));
    EXPECT_EQ(on.r.totals.affine_wakeups, 1u);
    EXPECT_EQ(find(on.r, "T").migrations, 1u);
    const traced off = run_traced(e, waker_and_hogs(2, false), false);
    EXPECT_EQ(off.t_cpus, std::vector<int>({1}));
    EXPECT_EQ(off.r.totals.affine_wakeups, 0u);
  }
  const traced on = run_traced(schedcore_test::cfs_entry(), waker_and_hogs(2, false));
  EXPECT_EQ(find(on.r, "W").cpu_ns, msec(19));
  EXPECT_EQ(find(on.r, "H0").cpu_ns + find(on.r, "H1").cpu_ns, msec(19));
  const traced off = run_traced(schedcore_test::cfs_entry(), waker_and_hogs(2, false), false);
  EXPECT_EQ(find(off.r, "W").cpu_ns, msec(20));
  EXPECT_EQ(find(off.r, "H0").cpu_ns + find(off.r, "H1").cpu_ns, msec(18));
}

// One hog on T's previous CPU: W's CPU would be the heavier with T (204800 against 110592),
// so T goes back to CPU 1 and W keeps all 20 ms.
TEST(SimWakeAffine, AWakersCpuNoLighterLeavesTheTaskOnItsPreviousCpu) {
  for (const policy_entry& e : {schedcore_test::cfs_entry(), schedcore_test::eevdf_entry(), schedcore_test::o1_entry()}) {
    SCOPED_TRACE(e.name);
    const traced r = run_traced(e, waker_and_hogs(1, false));
    EXPECT_EQ(r.t_cpus, std::vector<int>({1}));
    EXPECT_EQ(r.r.totals.affine_wakeups, 0u);
    EXPECT_EQ(find(r.r, "W").cpu_ns, msec(20));
  }
}

// The same machine with one hog, but W wakes T by writing to a pipe: a sync wakeup, and W is
// the only task running on CPU 0, so wake_affine_idle hands T that CPU (the kernel trusts the
// hint; W here goes on running). Under cfs W then runs 19 ms, the hog all 19 ms of CPU 1.
TEST(SimWakeAffine, ASyncPipeWakeupFromAWakerAloneOnItsCpuTakesThatCpu) {
  for (const policy_entry& e : {schedcore_test::cfs_entry(), schedcore_test::eevdf_entry(), schedcore_test::o1_entry()}) {
    SCOPED_TRACE(e.name);
    const traced r = run_traced(e, waker_and_hogs(1, true));
    EXPECT_EQ(r.t_cpus, std::vector<int>({0}));
    EXPECT_EQ(r.r.totals.affine_wakeups, 1u);
  }
  const traced r = run_traced(schedcore_test::cfs_entry(), waker_and_hogs(1, true));
  EXPECT_EQ(find(r.r, "W").cpu_ns, msec(19));
  EXPECT_EQ(find(r.r, "H0").cpu_ns, msec(19));
  EXPECT_EQ(find(r.r, "T").cpu_ns, msec(1));
}

// The same machine, but W closes the pipe T waits on: fs/pipe.c's pipe_release wakes readers
// without WF_SYNC, so the sync shortcut does not apply and T, woken to see EOF, goes back to
// CPU 1 (W's CPU would be the heavier, as for a resume) to run its last 1 ms. (A close woke
// sync once, and T took CPU 0.) Under cfs T then runs its 1 ms at once; W keeps all 20 ms.
TEST(SimWakeAffine, APipeCloseWakesWithoutTheSyncHint) {
  workload w;
  w.name = "close-wakes";
  w.cpus = 2;
  w.duration = msec(20);
  task_spec closer = pinned(looping("W", {ev::run(msec(10)), ev::pipe_close("p")}, 1), 0);
  closer.phases.push_back(phase{"after", 1, {ev::run(sec(1))}});
  w.tasks.push_back(closer);
  task_spec reader = looping("T", {ev::pipe_read("p", 1, 0, 0)}, 1);
  reader.phases[0].loop = -1;  // until EOF
  reader.phases.push_back(phase{"last", 1, {ev::run(msec(1))}});
  w.tasks.push_back(reader);
  w.tasks.push_back(delayed(pinned(looping("H0", {ev::run(sec(1))}), 1), msec(1)));
  for (const policy_entry& e : {schedcore_test::cfs_entry(), schedcore_test::eevdf_entry(), schedcore_test::o1_entry()}) {
    SCOPED_TRACE(e.name);
    const traced r = run_traced(e, w);
    EXPECT_EQ(r.t_cpus, std::vector<int>({1}));
    EXPECT_EQ(r.r.totals.affine_wakeups, 0u);
  }
  // Under cfs T preempts the hog there (its sleeper credit) and runs its 1 ms; W keeps CPU 0.
  const traced r = run_traced(schedcore_test::cfs_entry(), w);
  EXPECT_EQ(find(r.r, "T").cpu_ns, msec(1));
  EXPECT_EQ(find(r.r, "W").cpu_ns, msec(20));
}

// recent_used_cpu. Three CPUs, T alone and woken by its own timer (1 ms of work every 5 ms).
// It starts on CPU 0; P (pinned to CPU 0) runs there from 2 to 7 ms, Q (pinned to CPU 1) from
// 7 ms on. At 5 ms CPU 0 is busy: T's recent CPU is none yet (it was not forked), it becomes
// 0, and the scan from CPU 0 finds CPU 1. At 10 ms CPU 1 is busy: the recent CPU, 0, is idle
// again and takes T, where the scan from CPU 1 would have found CPU 2 (wake_affine plays no
// part: a timer wakeup runs on the task's own CPU). At 15 ms CPU 0 is idle: T stays.
workload recent_used_machine() {
  workload w;
  w.name = "recent-used";
  w.cpus = 3;
  w.duration = msec(19);
  w.tasks.push_back(looping("T", {ev::run(msec(1)), ev::sleep(msec(4))}));
  w.tasks.push_back(delayed(pinned(looping("P", {ev::run(msec(5))}, 1), 0), msec(2)));
  w.tasks.push_back(delayed(pinned(looping("Q", {ev::run(sec(1))}), 1), msec(7)));
  return w;
}

TEST(SimWakeAffine, ARecentlyUsedIdleCpuComesBeforeTheScan) {
  const workload w = recent_used_machine();
  for (const policy_entry& e : {schedcore_test::cfs_entry(), schedcore_test::eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    for (const bool affine : {true, false}) {
      const traced r = run_traced(e, w, affine);
      EXPECT_EQ(r.t_cpus, std::vector<int>({1, 0, 0}));
      EXPECT_EQ(find(r.r, "T").cpu_ns, msec(4));
      EXPECT_EQ(find(r.r, "T").wait_ns, 0);
    }
  }
}

// wake_wide. Three CPUs. Before the hogs arrive (pinned: two to CPU 1 at 3 ms, one to CPU 2),
// W (pinned to CPU 0) wakes ten helpers, a different one each time (10 flips), and T, on CPU 1,
// wakes three different helpers (3 flips) or one (1 flip); the helpers do no work, land on
// idle CPUs and exit. At 4 ms W wakes T, with every CPU busy. With 3 flips against W's 10 the
// wakeup is wide (3 >= 3 CPUs and 10 >= 3 x 3): no wake_affine, and T stays on CPU 1. With 1
// flip it is not, and the weights (W + T = 2048 against the two hogs on CPU 1) pull it to CPU
// 0. (A pinned wakee records no flip, as in the kernel, where select_task_rq is skipped for
// it, so the helpers may run anywhere.)
workload wide_or_not(int t_flips, bool pin_w_helpers = false) {
  workload w;
  w.name = "wake-wide";
  w.cpus = 3;
  w.duration = msec(6);
  std::vector<event> waker = {ev::run(msec(1))};
  for (int i = 0; i < 10; ++i) {
    waker.push_back(ev::on(event_kind::resume, "e" + std::to_string(i)));
    waker.push_back(ev::run(usec(50)));
  }
  waker.push_back(ev::run(msec(3) - usec(500)));  // to 4 ms
  waker.push_back(ev::on(event_kind::resume, "go"));
  waker.push_back(ev::run(sec(1)));
  w.tasks.push_back(pinned(looping("W", waker, 1), 0));
  std::vector<event> wakee = {ev::sleep(usec(200))};
  for (int i = 0; i < t_flips; ++i) {
    wakee.push_back(ev::on(event_kind::resume, "c" + std::to_string(i)));
    wakee.push_back(ev::run(usec(50)));
  }
  wakee.push_back(ev::on(event_kind::suspend, "go"));
  wakee.push_back(ev::run(msec(1)));
  wakee.push_back(ev::sleep(sec(1)));
  w.tasks.push_back(looping("T", wakee, 1));
  for (int i = 0; i < 10; ++i) {
    const std::string e = "e" + std::to_string(i);
    task_spec helper = looping("helper-" + e, {ev::on(event_kind::suspend, e)}, 1);
    if (pin_w_helpers) helper.cpus = {2};
    w.tasks.push_back(helper);
  }
  for (int i = 0; i < t_flips; ++i) {
    const std::string c = "c" + std::to_string(i);
    w.tasks.push_back(looping("helper-" + c, {ev::on(event_kind::suspend, c)}, 1));
  }
  w.tasks.push_back(delayed(pinned(looping("H0", {ev::run(sec(1))}), 1), msec(3)));
  w.tasks.push_back(delayed(pinned(looping("H1", {ev::run(sec(1))}), 1), msec(3)));
  w.tasks.push_back(delayed(pinned(looping("H2", {ev::run(sec(1))}), 2), msec(3)));
  return w;
}

TEST(SimWakeAffine, AWideWakeupIsNotPulledToTheWaker) {
  for (const policy_entry& e : {schedcore_test::cfs_entry(), schedcore_test::eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    // T's first wakeup is its own timer's at 0.2 ms, on its idle CPU 1; the second is W's.
    const traced wide = run_traced(e, wide_or_not(3));
    EXPECT_EQ(wide.t_cpus, std::vector<int>({1, 1}));
    const traced narrow = run_traced(e, wide_or_not(1));
    EXPECT_EQ(narrow.t_cpus, std::vector<int>({1, 0}));
    // Two flips are not enough either (2 < 3 CPUs).
    EXPECT_EQ(run_traced(e, wide_or_not(2)).t_cpus, std::vector<int>({1, 0}));
  }
}

// ---- asymmetric machines (Linux 6.x): wake_affine_weight per unit of capacity, the cache-hot
// candidates only where the task fits, then select_idle_capacity from the target.

// waker_and_hogs(1) on a big CPU 0 (1024) and a little CPU 1 (512): W, pinned to the big CPU,
// runs 10 ms and then resumes T, placed on CPU 1 and suspended at once; a hog pinned to CPU 1
// joins at 1 ms. At 10 ms neither CPU is idle. The loads (PELT, which asymmetric machines run)
// are W's and the hog's, of tasks that ran about as long; T has none yet. Per unit of
// capacity the big CPU is the lighter by about half: W x 100 x 512 < H x 108 x 1024 while
// W < 2.16 H, so T is woken onto CPU 0 (nothing is idle: select_idle_capacity finds nothing
// and the target stands). Read as equal capacities, W x 100 < H x 108 would need W < 1.08 H,
// and W ran 1 ms longer than the hog. With wake_affine off T stays on CPU 1.
TEST(SimWakeAffine, OnAnAsymmetricMachineLoadsCompareByCapacity) {
  for (const policy_entry& e : {schedcore_test::cfs_entry(), schedcore_test::eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    const traced on = run_traced(e, waker_and_hogs(1, false), true, {1024, 512});
    EXPECT_EQ(on.t_cpus, std::vector<int>({0}));
    EXPECT_EQ(on.r.totals.affine_wakeups, 1u);
    const traced off = run_traced(e, waker_and_hogs(1, false), false, {1024, 512});
    EXPECT_EQ(off.t_cpus, std::vector<int>({1}));
    EXPECT_EQ(off.r.totals.affine_wakeups, 0u);
    // Read as equal capacities, this machine keeps T on CPU 1
    // (AWakersCpuNoLighterLeavesTheTaskOnItsPreviousCpu).
  }
}

// recent_used_cpu on an asymmetric machine: ARecentlyUsedIdleCpuComesBeforeTheScan's machine
// with a smaller CPU 2 (800). At 10 ms T's previous CPU 1 is busy, its recent CPU 0 is idle
// and fits: T goes there, where select_idle_capacity from CPU 1 would have found CPU 2 (T's
// util then, its initial util decaying towards 1 ms in 5, fits 800 but not 512: on a CPU 2 of
// 512 that scan too ends on CPU 0).
TEST(SimWakeAffine, OnAnAsymmetricMachineTheRecentCpuComesFirstWhereTheTaskFits) {
  const workload w = recent_used_machine();
  for (const policy_entry& e : {schedcore_test::cfs_entry(), schedcore_test::eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    const traced r = run_traced(e, w, true, {1024, 1024, 800});
    EXPECT_EQ(r.t_cpus, std::vector<int>({1, 0, 0}));
    EXPECT_EQ(find(r.r, "T").wait_ns, 0);
  }
}

// The capacity scan starts from the target wake_affine chose. Four CPUs of 800, 1024, 800 and
// 1024: W pinned to CPU 3, T placed on CPU 1 (a task pinned to CPU 0 holds it at T's start)
// with two hogs pinned there from 1 ms. At 10 ms W resumes T; both CPUs are busy and W's CPU
// is the lighter (W against two hogs), so the target is CPU 3. Neither it nor CPU 1 is idle,
// and T has no recent CPU; the scan from CPU 3 wraps to CPU 0, idle, which T's util fits
// (under 640). With wake_affine off the scan starts from CPU 1 and finds CPU 2.
TEST(SimWakeAffine, OnAnAsymmetricMachineTheCapacityScanStartsFromTheTarget) {
  workload w;
  w.name = "asym-scan";
  w.cpus = 4;
  w.duration = msec(12);
  w.tasks.push_back(pinned(looping("W", {ev::run(msec(10)), ev::on(event_kind::resume, "go")}), 3));
  w.tasks.push_back(pinned(looping("early", {ev::run(usec(500))}, 1), 0));
  w.tasks.push_back(looping("T", {ev::on(event_kind::suspend, "go"), ev::run(msec(1))}));
  w.tasks.push_back(delayed(pinned(looping("H0", {ev::run(sec(1))}), 1), msec(1)));
  w.tasks.push_back(delayed(pinned(looping("H1", {ev::run(sec(1))}), 1), msec(1)));
  for (const policy_entry& e : {schedcore_test::cfs_entry(), schedcore_test::eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    const traced on = run_traced(e, w, true, {800, 1024, 800, 1024});
    EXPECT_EQ(on.t_cpus, std::vector<int>({0}));
    EXPECT_EQ(on.r.totals.affine_wakeups, 1u);
    const traced off = run_traced(e, w, false, {800, 1024, 800, 1024});
    EXPECT_EQ(off.t_cpus, std::vector<int>({2}));
  }
}

// Only wakees that could have gone elsewhere count as flips: record_wakee runs in
// select_task_rq_fair, which try_to_wake_up skips for a task with one allowed CPU
// (nr_cpus_allowed == 1 in select_task_rq). wide_or_not(3) with W's ten helpers pinned to
// CPU 2 (idle until the hogs come at 3 ms: each runs its no-op there and exits): W records no
// flip, so at 4 ms wake_wide sees W 0 and T 3, min(0, 3) = 0 < 3 CPUs: not wide, and the
// weights pull T to W's CPU 0, as with wide_or_not(1). Counted, W's 10 flips would make the
// wakeup wide (3 >= 3 and 10 >= 9) and leave T on CPU 1.
TEST(SimWakeAffine, PinnedWakeesAreNotFlipsOfTheirWaker) {
  for (const policy_entry& e : {schedcore_test::cfs_entry(), schedcore_test::eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    const traced r = run_traced(e, wide_or_not(3, true));
    EXPECT_EQ(r.t_cpus, std::vector<int>({1, 0}));
    EXPECT_EQ(r.r.totals.affine_wakeups, 1u);
  }
}

// wake_affine is asked only when the wakeup runs on another CPU than the wakee's previous one
// and the wakee may run on that CPU (select_task_rq_fair: want_affine needs
// cpumask_test_cpu(cpu, p->cpus_ptr), and wake_affine is called only for cpu != prev_cpu).
// Three CPUs: W pinned to CPU 0 runs 10 ms and resumes T, which may use CPUs 1 and 2 only; T
// starts on CPU 1 (the less loaded allowed CPU, the first on a tie) and suspends at once. Two
// hogs pinned to CPU 1 and one pinned to CPU 2 join at 1 ms. At 10 ms nothing T may use is
// idle; with CPU 0 out of T's mask no wake_affine is made, the target stays prev = CPU 1 and
// the scan finds nothing: T is woken on CPU 1 (affine_wakeups 0). Asking wake_affine anyway
// would pick CPU 0 (W alone against two hogs, as in ALighterWakersCpuTakesTheWokenTask), a CPU
// T may not use, and the fallback (the least loaded allowed CPU) would put T on CPU 2.
// A timer wakeup runs on the task's own CPU (this_cpu == prev): it never counts as affine,
// here T's second wakeup, 1 ms after the first, on its busy CPU 1. (Where T runs between its
// wakeups is the balancer's business: three tasks on CPU 1 against one on CPU 2.)
TEST(SimWakeAffine, NoWakeAffineTowardsACpuTheTaskMayNotUseOrItsOwnCpu) {
  workload w;
  w.name = "affine-mask";
  w.cpus = 3;
  w.duration = msec(15);
  w.tasks.push_back(pinned(looping("W", {ev::run(msec(10)), ev::on(event_kind::resume, "go"), ev::run(sec(1))}, 1), 0));
  task_spec t = looping("T", {ev::on(event_kind::suspend, "go"), ev::run(usec(500)), ev::sleep(msec(1)),
                              ev::run(usec(500)), ev::on(event_kind::suspend, "never")}, 1);
  t.cpus = {1, 2};
  w.tasks.push_back(t);
  w.tasks.push_back(delayed(pinned(looping("H0", {ev::run(sec(1))}), 1), msec(1)));
  w.tasks.push_back(delayed(pinned(looping("H1", {ev::run(sec(1))}), 1), msec(1)));
  w.tasks.push_back(delayed(pinned(looping("H2", {ev::run(sec(1))}), 2), msec(1)));
  for (const policy_entry& e : {schedcore_test::cfs_entry(), schedcore_test::eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    const traced r = run_traced(e, w);
    EXPECT_EQ(r.t_cpus, std::vector<int>({1, 1}));
    EXPECT_EQ(r.r.totals.affine_wakeups, 0u);
  }
}

// wake_affine_idle: a wakeup from a busy CPU whose wakee's previous CPU is idle keeps the
// previous CPU (available_idle_cpu(prev_cpu): prev_cpu), so the search is not affine.
// waker_and_hogs(0): nothing joins T's CPU 1, which is idle at 10 ms when W, busy on CPU 0,
// resumes T: T is woken on CPU 1 and affine_wakeups stays 0. (Reading the two CPUs' idleness
// the other way round, CPU 0 would be chosen as the target; select_idle_sibling would still
// find the idle CPU 1, so only the count tells.)
TEST(SimWakeAffine, AnIdlePreviousCpuKeepsTheTaskAndTheWakeupIsNotAffine) {
  for (const policy_entry& e : {schedcore_test::cfs_entry(), schedcore_test::eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    const traced r = run_traced(e, waker_and_hogs(0, false));
    EXPECT_EQ(r.t_cpus, std::vector<int>({1}));
    EXPECT_EQ(r.r.totals.affine_wakeups, 0u);
    EXPECT_EQ(find(r.r, "W").cpu_ns, msec(20));
  }
}

// A sync wakeup takes the waker's own load off its CPU (wake_affine_weight: this_eff_load -=
// task_h_load(current)). Two CPUs: W and X pinned to CPU 0, so that wake_affine_idle's
// "sync and one task running" shortcut does not apply (two run there); T starts on CPU 1 (one
// task against two) and blocks on the pipe; two hogs pinned to CPU 1 join at 1 ms. W writes
// after 4 ms of its own work (about 8 ms in, sharing CPU 0 with X; its next write is 8 ms
// later, after the run). In nice-0 weights (no load tracking): this_eff = (2048 - 1024 W +
// 1024 T) x 100 = 204800, prev_eff = 2048 x 108 + 1 = 221185: T is woken onto CPU 0. Without
// taking W's load off, this_eff = 3072 x 100 = 307200 and T would stay on CPU 1.
TEST(SimWakeAffine, ASyncWakeupTakesTheWakersLoadOffItsCpu) {
  workload w;
  w.name = "sync-weight";
  w.cpus = 2;
  w.duration = msec(12);
  w.tasks.push_back(pinned(looping("W", {ev::run(msec(4)), ev::pipe_write("p", 1)}), 0));
  w.tasks.push_back(pinned(looping("X", {ev::run(sec(1))}), 0));
  w.tasks.push_back(looping("T", {ev::pipe_read("p", 1, msec(1), 0)}));
  w.tasks.push_back(delayed(pinned(looping("H0", {ev::run(sec(1))}), 1), msec(1)));
  w.tasks.push_back(delayed(pinned(looping("H1", {ev::run(sec(1))}), 1), msec(1)));
  for (const policy_entry& e : {schedcore_test::cfs_entry(), schedcore_test::eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    const traced r = run_traced(e, w);
    EXPECT_EQ(r.t_cpus, std::vector<int>({0}));
    EXPECT_EQ(r.r.totals.affine_wakeups, 1u);
  }
}

// sched_idle_cpu needs every queued task to be SCHED_IDLE (rq->nr_running ==
// rq->cfs.idle_h_nr_running): a CPU running a normal hog beside a SCHED_IDLE one is busy.
// Two CPUs: H0 pinned to CPU 0; H1 (normal) and I (SCHED_IDLE) pinned to CPU 1; T (1 ms sleep,
// 1 ms of work) starts on CPU 0 (one task against two). At each of T's timer wakeups neither
// CPU is idle or sched-idle, so the target, T's previous CPU 0, stands every time. Taking CPU 1
// for sched-idle because I is queued there would move T there.
TEST(SimWakeAffine, ACpuWithANormalTaskBesideASchedIdleOneIsBusy) {
  workload w;
  w.name = "not-sched-idle";
  w.cpus = 2;
  w.duration = msec(10);
  w.tasks.push_back(pinned(looping("H0", {ev::run(sec(1))}), 0));
  w.tasks.push_back(pinned(looping("H1", {ev::run(sec(1))}), 1));
  task_spec idle_hog = pinned(looping("I", {ev::run(sec(1))}), 1);
  idle_hog.params.kind = sched_kind::idle;
  w.tasks.push_back(idle_hog);
  w.tasks.push_back(looping("T", {ev::sleep(msec(1)), ev::run(msec(1))}));
  for (const policy_entry& e : {schedcore_test::cfs_entry(), schedcore_test::eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    const traced r = run_traced(e, w);
    ASSERT_FALSE(r.t_cpus.empty());
    for (const int cpu : r.t_cpus) EXPECT_EQ(cpu, 0);
    EXPECT_EQ(find(r.r, "T").migrations, 0u);
  }
}

// On an asymmetric machine select_idle_capacity scans only the CPUs the task may use
// (cpumask_and(cpus, sched_domain_span(sd), p->cpus_ptr)). Four CPUs of 1024, 1024, 1024 and
// 512 (the small one makes the machine asymmetric); T may use CPUs 0 and 2. H pinned to CPU 0
// and a SCHED_IDLE hog I pinned to CPU 2 start with T, which starts on CPU 0 (both allowed CPUs
// hold one task: the first). At T's first timer wakeup its CPU 0 is busy; the scan from CPU 0
// passes CPU 1 (idle, not allowed) and takes CPU 2 (sched-idle, fits: T's util is far below
// 819). T then stays there (its previous CPU is sched-idle). Taking the idle CPU 1 instead
// and falling back to the least loaded allowed CPU (0 and 2 hold one task each: the first)
// would put T back beside H.
TEST(SimWakeAffine, OnAnAsymmetricMachineTheCapacityScanSkipsCpusOutsideTheMask) {
  workload w;
  w.name = "asym-mask";
  w.cpus = 4;
  w.duration = msec(10);
  w.tasks.push_back(pinned(looping("H", {ev::run(sec(1))}), 0));
  task_spec idle_hog = pinned(looping("I", {ev::run(sec(1))}), 2);
  idle_hog.params.kind = sched_kind::idle;
  w.tasks.push_back(idle_hog);
  task_spec t = looping("T", {ev::sleep(msec(1)), ev::run(msec(1))});
  t.cpus = {0, 2};
  w.tasks.push_back(t);
  for (const policy_entry& e : {schedcore_test::cfs_entry(), schedcore_test::eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    const traced r = run_traced(e, w, true, {1024, 1024, 1024, 512});
    ASSERT_FALSE(r.t_cpus.empty());
    for (const int cpu : r.t_cpus) EXPECT_EQ(cpu, 2);
    EXPECT_EQ(find(r.r, "H").cpu_ns, msec(10));
  }
}

// A CPU that runs only SCHED_IDLE tasks counts as idle for the search (sched_idle_cpu, 5.4+).
// Two CPUs: a hog H pinned to CPU 0, a SCHED_IDLE hog I pinned to CPU 1, and T (1 ms of work
// after each 1 ms sleep) started on CPU 0 (both CPUs run one task: the lowest index). At each
// of T's timer wakeups nothing is idle; CPU 1 runs only I, so T is woken there every time (its
// previous CPU 1 from the second wakeup on). Counted as busy, CPU 1 would never be chosen:
// T would share CPU 0 with H.
TEST(SimWakeAffine, ACpuRunningOnlySchedIdleTasksCountsAsIdle) {
  workload w;
  w.name = "sched-idle-cpu";
  w.cpus = 2;
  w.duration = msec(10);
  w.tasks.push_back(pinned(looping("H", {ev::run(sec(1))}), 0));
  task_spec idle_hog = pinned(looping("I", {ev::run(sec(1))}), 1);
  idle_hog.params.kind = sched_kind::idle;
  w.tasks.push_back(idle_hog);
  w.tasks.push_back(looping("T", {ev::sleep(msec(1)), ev::run(msec(1))}));
  for (const policy_entry& e : {schedcore_test::cfs_entry(), schedcore_test::eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    const traced r = run_traced(e, w);
    ASSERT_FALSE(r.t_cpus.empty());
    for (const int cpu : r.t_cpus) EXPECT_EQ(cpu, 1);
    EXPECT_EQ(find(r.r, "H").cpu_ns, msec(10));  // H keeps CPU 0 to itself
    EXPECT_EQ(find(r.r, "T").migrations, 1u);
  }
}

// SIS_UTIL. Eight CPUs; hogs pinned to the CPUs in `busy` from 2 ms; T runs 1 ms on CPU 0 from
// 0, sleeps 300 ms and is woken by its timer on CPU 0, now busy. By then each hog's util is
// about 1022, and the depth the balances computed from the summed util is 3 with five hogs
// (x = 5110 / 8 = 638: 1024 - 638²·117²/(10⁴·1024) = 482, 482·8/1024 = 3) and 0 with seven.
// Returns the CPU of T's wakeup.
int sis_util_wakeup(const policy_entry& e, const std::vector<int>& busy, int sis_util, bool by_load = false,
                    std::vector<int> t_cpus = {}) {
  workload w;
  w.name = "sis-util";
  w.cpus = 8;
  w.duration = msec(305);
  task_spec t = looping("T", {ev::run(msec(1)), ev::sleep(msec(300))});
  t.cpus = std::move(t_cpus);
  w.tasks.push_back(t);
  for (const int k : busy)
    w.tasks.push_back(delayed(pinned(looping("H" + std::to_string(k), {ev::run(sec(1))}), k), msec(2)));
  trace_writer tw;
  run_config c = exact_machine();
  c.trace = &tw;
  c.machine.sis_util = sis_util;
  c.machine.balance_by_load = by_load;
  const run_result r = e.run(w, c, {});
  EXPECT_EQ(find(r, "T").cpu_ns, msec(2));  // both jobs ran: T was not left waiting
  const std::vector<int> cpus = wakeup_cpus(tw.text(), "T");
  EXPECT_EQ(cpus.size(), 1u);
  return cpus.empty() ? -2 : cpus.front();
}

TEST(SimWakeAffine, SisUtilShortensTheIdleScanOnABusyMachine) {
  for (const policy_entry& e : {schedcore_test::cfs_entry(), schedcore_test::eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    // Five hogs: the scan looks at CPUs 1, 2, 3 only.
    EXPECT_EQ(sis_util_wakeup(e, {0, 1, 2, 3, 4}, 1), 0);   // nothing idle within 3: T stays on its CPU
    EXPECT_EQ(sis_util_wakeup(e, {0, 1, 2, 3, 4}, 0), 5);   // the full scan finds CPU 5
    EXPECT_EQ(sis_util_wakeup(e, {0, 1, 2, 4, 5}, 1), 3);   // CPU 3 is within the depth
    // Seven hogs (87 % busy): no scan at all, where the full one finds CPU 7.
    EXPECT_EQ(sis_util_wakeup(e, {0, 1, 2, 3, 4, 5, 6}, 1), 0);
    EXPECT_EQ(sis_util_wakeup(e, {0, 1, 2, 3, 4, 5, 6}, 0), 7);
    // Four hogs: depth 5 reaches the idle CPU 4 (x = 511: 1024 - 267 = 757, 757·8/1024 = 5).
    EXPECT_EQ(sis_util_wakeup(e, {0, 1, 2, 3}, 1), 4);
    // Only the CPUs T may use count: allowed 0, 5, 6, 7, the three looked at are 5, 6, 7.
    EXPECT_EQ(sis_util_wakeup(e, {0, 1, 2, 3, 4}, 1, false, {0, 5, 6, 7}), 5);
    // The default: on with load tracking (balance by load), off without it.
    EXPECT_EQ(sis_util_wakeup(e, {0, 1, 2, 3, 4}, -1, true), 0);
    EXPECT_EQ(sis_util_wakeup(e, {0, 1, 2, 3, 4}, -1, false), 5);
  }
}

// What SIS_UTIL's short scan strands, the idle-balance kick (nohz_balancer_kick) undoes, on a
// symmetric machine with fair tasks only and no CPU limits. Two CPUs, SIS_UTIL on. L runs
// 200 ms on one CPU while H and B, a 5 ms run / 5 ms sleep blinker, share the other; then L
// sleeps for the rest of the run. The machine has been fully busy, so the scan depth is 0: B's
// next wakeup, on its own CPU where H runs, looks at no other CPU and B stacks behind H (or H
// behind B) beside the idle CPU, which no newly idle pull reaches (it went idle when B slept).
// A busy tick with two tasks queued kicks the idle CPU to balance: from 200 ms on H and B wait
// a few ms in all (a tick at each stacking). Without the kick (checked by turning it off) they
// wait 60 ms in all under cfs and H runs 770 of the 800 ms.
TEST(SimWakeAffine, AnIdleCpuIsKickedToTakeATaskAWakeupStackedBesideIt) {
  workload w;
  w.name = "kick-after-sis-util";
  w.cpus = 2;
  w.duration = sec(1);
  w.tasks.push_back(looping("H", {ev::run(sec(1))}));
  w.tasks.push_back(looping("B", {ev::run(msec(5)), ev::sleep(msec(5))}));
  w.tasks.push_back(looping("L", {ev::run(msec(200)), ev::sleep(sec(2))}));
  run_config c = exact_machine();
  c.machine.sis_util = 1;
  c.warmup_ns = msec(200);
  for (const policy_entry& e : {schedcore_test::cfs_entry(), schedcore_test::eevdf_entry()}) {
    SCOPED_TRACE(e.name);
    const run_result r = e.run(w, c, {});
    EXPECT_LE(find(r, "H").wait_ns + find(r, "B").wait_ns, msec(4));
    EXPECT_GE(find(r, "H").cpu_ns, msec(796));
  }
}

// A value outside -1..1 is refused before the run starts.
TEST(SimWakeAffine, AnSisUtilValueOutsideItsRangeIsRefused) {
  workload w;
  w.name = "sis-util-bad";
  w.cpus = 2;
  w.duration = msec(10);
  w.tasks.push_back(looping("T", {ev::run(msec(1))}));
  run_config c = exact_machine();
  c.machine.sis_util = 2;
  EXPECT_THROW(schedcore_test::cfs_entry().run(w, c, {}), workload_error);
}

}  // namespace
