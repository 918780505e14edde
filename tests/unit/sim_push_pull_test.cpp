// schedsim's SMP real-time balancing (the kernel's RT and deadline push / pull): hand-computed
// pushes and pulls, global fixed priority checked from the trace alone, and global EDF against
// the Goossens-Funk-Baruah utilisation bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
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
using schedcore_test::find;
using schedcore_test::exact_machine;
using schedcore_test::looping;
using schedcore_test::fifo;
using schedcore_test::reservation;

// Push. Two CPUs: a fair hog starts on CPU 0, E (FIFO 30) on CPU 1; at 10 ms F (FIFO 90, pinned
// to CPU 1) starts there and preempts E. E is now the waiting RT task of a CPU that runs an RT
// task; after the switch CPU 1 pushes it to the CPU of lowest rank, CPU 0, whose fair hog it
// preempts: E never waits. At 15 ms F exits; CPU 1 is idle and pulls the hog (the fair
// balancer). Hand-computed over 30 ms: E runs all 30 ms, the hog 10 + 15 ms.
TEST(SimPushPull, APreemptedRtTaskIsPushedToTheCpuRunningAFairTask) {
  for (const policy_entry& e : {schedcore_test::ref_rt_entry(), schedcore_test::cfs_entry()}) {
    SCOPED_TRACE(e.name);
    workload w;
    w.name = "push";
    w.cpus = 2;
    w.duration = msec(30);
    w.tasks.push_back(looping("hog", {ev::run(sec(1))}));
    task_spec rt_e = looping("E", {ev::run(sec(1))});
    rt_e.params = fifo(30);
    w.tasks.push_back(rt_e);
    task_spec rt_f = looping("F", {ev::run(msec(5))}, 1);
    rt_f.params = fifo(90);
    rt_f.cpus = {1};
    rt_f.delay = msec(10);
    w.tasks.push_back(rt_f);
    const run_result r = e.run(w, exact_machine(), {});
    EXPECT_EQ(find(r, "E").cpu_ns, msec(30));
    EXPECT_EQ(find(r, "E").wait_ns, 0);
    EXPECT_EQ(find(r, "F").cpu_ns, msec(5));
    EXPECT_EQ(find(r, "hog").cpu_ns, msec(25));
    EXPECT_EQ(r.totals.rt_pushes, 1u);
    EXPECT_EQ(r.totals.rt_pulls, 0u);
  }
}

// Pull. Two CPUs: A (FIFO 50) on CPU 0 runs 30 ms, B (FIFO 60) on CPU 1 runs 10 ms, then each
// sleeps 100 ms. C (FIFO 40) starts at 5 ms on CPU 0 (the less loaded CPU, the first on a tie)
// behind A; no CPU ranks below it, so it waits. At 10 ms B sleeps: CPU 1's RT priority falls
// and it pulls C from CPU 0, where C would not run at once (A outranks it). C waits exactly
// 5 ms (25 ms without the pull: until A sleeps).
TEST(SimPushPull, ACpuWhoseRtTaskSleepsPullsTheWaitingOne) {
  for (const policy_entry& e : {schedcore_test::ref_rt_entry(), schedcore_test::cfs_entry()}) {
    SCOPED_TRACE(e.name);
    workload w;
    w.name = "pull";
    w.cpus = 2;
    w.duration = msec(40);
    task_spec a = looping("A", {ev::run(msec(30)), ev::sleep(msec(100))});
    a.params = fifo(50);
    task_spec b = looping("B", {ev::run(msec(10)), ev::sleep(msec(100))});
    b.params = fifo(60);
    task_spec c = looping("C", {ev::run(sec(1))});
    c.params = fifo(40);
    c.delay = msec(5);
    w.tasks = {a, b, c};
    const run_result r = e.run(w, exact_machine(), {});
    EXPECT_EQ(find(r, "C").wait_ns, msec(5));
    EXPECT_EQ(find(r, "C").cpu_ns, msec(30));
    EXPECT_EQ(r.totals.rt_pulls, 1u);
  }
}

// Pull after a change of policy (switched_from_rt). Two CPUs: a fair hog H, then A (FIFO 50),
// which preempts it on CPU 0, and B (FIFO 60, a hog) on CPU 1; C (FIFO 40) starts at 5 ms on
// the less loaded CPU 1, behind B, with no CPU below it. At 10 ms A makes itself SCHED_NORMAL:
// CPU 0 has no RT task left and pulls C, which preempts A there. C waits exactly 5 ms (without
// the pull, forever: B never sleeps and the fair balancer does not move RT tasks). A lowering
// its RT priority to 30 instead (prio_changed_rt) pulls C the same way.
TEST(SimPushPull, ACpuWhoseRtTaskLowersItsPriorityPulls) {
  for (const bool to_normal : {true, false}) {
    SCOPED_TRACE(to_normal ? "to SCHED_NORMAL" : "to FIFO 30");
    workload w;
    w.name = "pull-on-change";
    w.cpus = 2;
    w.duration = msec(40);
    w.tasks.push_back(looping("H", {ev::run(sec(10))}));
    task_spec b = looping("B", {ev::run(sec(10))});
    b.params = fifo(60);
    w.tasks.push_back(b);
    const sched_params after = to_normal ? sched_params{} : fifo(30);
    task_spec a = looping("A", {ev::run(msec(10)), ev::set_policy(after), ev::run(sec(10))}, 1);
    a.params = fifo(50);
    w.tasks.push_back(a);
    task_spec c = looping("C", {ev::run(sec(10))});
    c.params = fifo(40);
    c.delay = msec(5);
    w.tasks.push_back(c);
    const run_result r = schedcore_test::cfs_entry().run(w, exact_machine(), {});
    EXPECT_EQ(find(r, "C").wait_ns, msec(5));
    EXPECT_EQ(find(r, "C").cpu_ns, msec(30));
    EXPECT_EQ(find(r, "B").cpu_ns, msec(40));
    EXPECT_EQ(r.totals.rt_pulls, 1u);
  }
}

// A waking RT task whose previous CPU runs a fair task preempts it there, as the kernel does,
// even beside an idle CPU; the idle-balance kick then moves the fair task at the busy CPU's next
// tick. Two CPUs: a fair hog H starts on CPU 0, R (FIFO 10: 5 ms of work, 5 ms of sleep) on
// CPU 1, and S (fair, pinned to CPU 0: 4 ms of work every 20 ms) joins H there at 1 ms; while R
// sleeps, CPU 1 pulls H. So R wakes where H runs while CPU 0 idles between S's bursts. R stays
// on CPU 1 and runs at once every time; the kick at CPU 1's next tick sends H back to CPU 0.
TEST(SimPushPull, AWakingRtTaskStaysOnItsCpuAndTheFairTaskMoves) {
  workload w;
  w.name = "stay";
  w.cpus = 2;
  w.duration = msec(400);
  w.tasks.push_back(looping("H", {ev::run(sec(10))}));
  task_spec r_task = looping("R", {ev::run(msec(5)), ev::sleep(msec(5))});
  r_task.params = fifo(10);
  w.tasks.push_back(r_task);
  task_spec s_task = looping("S", {ev::run(msec(4)), ev::sleep(msec(16))});
  s_task.cpus = {0};
  s_task.delay = msec(1);
  w.tasks.push_back(s_task);
  const run_result r = schedcore_test::cfs_entry().run(w, exact_machine(), {});
  const auto& rt = find(r, "R");
  EXPECT_EQ(rt.wait_ns, 0);
  EXPECT_EQ(rt.migrations, 0u);
  EXPECT_EQ(rt.cpu_ns, msec(200));
  const auto& h = find(r, "H");
  EXPECT_GT(h.migrations, 20u);  // the situation arises, again and again
  EXPECT_GE(h.cpu_ns, msec(330));  // 340 ms; 207 ms without the kick, which leaves it behind R
}

// The trace alone: replays sched_wakeup / sched_switch lines and, at the end of every instant,
// finds the RT tasks (trace prio < 100) that are runnable but not running while some CPU idles
// or runs a task of numerically greater prio (lower priority). Every task may run anywhere.
// Also counts the wakeups of the tasks whose names start with `woken_prefix` logged on another CPU than the one
// the task last ran on (by a task there: the search's CPU is not the previous one).
struct trace_audit {
  int instants_out_of_order = 0;
  std::int64_t first_ns = -1;
  std::uint64_t remote_wakeups = 0;
  std::uint64_t switches = 0;  // sched_switch lines replayed (a parse that matched none would see no inversion)
};
trace_audit audit_trace(const std::string& text, int cpus, const std::string& woken_prefix = "") {
  trace_audit out;
  std::map<int, int> last_cpu;   // pid -> CPU it last ran on
  std::map<int, int> prio;       // pid -> trace prio
  std::map<int, bool> runnable;  // pid -> runnable
  std::vector<int> running(static_cast<std::size_t>(cpus), 0);
  const auto check = [&](std::int64_t ns) {
    for (const auto& [pid, on] : runnable) {
      if (!on || prio[pid] >= 100 || std::find(running.begin(), running.end(), pid) != running.end()) continue;
      for (const int r : running) {
        if (r == 0 || prio[r] > prio[pid]) {
          if (out.instants_out_of_order++ == 0) out.first_ns = ns;
          return;
        }
      }
    }
  };
  std::istringstream in(text);
  std::string line;
  std::int64_t instant = -1;
  while (std::getline(in, line)) {
    const std::size_t br = line.find(" [");
    if (line.empty() || line[0] == '#' || br == std::string::npos) continue;
    int cpu = 0;
    unsigned long long s = 0, us = 0;
    char what[64] = {};
    if (std::sscanf(line.c_str() + br, " [%d] %*s %llu.%llu: %63[^:]", &cpu, &s, &us, what) != 4) continue;
    const std::int64_t ns = static_cast<std::int64_t>(s * 1000000000ull + us * 1000ull);
    if (ns != instant) {
      if (instant >= 0) check(instant);
      instant = ns;
    }
    const std::string body = line.substr(line.find(": ", br) + 2);
    const std::string event(what);
    if (event == "sched_wakeup" || event == "sched_wakeup_new") {
      int pid = 0, p = 0;
      const std::size_t at = body.find(" pid=");
      if (std::sscanf(body.c_str() + at, " pid=%d prio=%d", &pid, &p) == 2) {
        prio[pid] = p;
        runnable[pid] = true;
        const bool named = !woken_prefix.empty() && body.find(" comm=" + woken_prefix) != std::string::npos;
        if (named && last_cpu.count(pid) != 0 && last_cpu[pid] != cpu) ++out.remote_wakeups;
      }
    } else if (event == "sched_switch") {
      int prev_pid = 0, prev_prio = 0, next_pid = 0, next_prio = 0;
      char state[8] = {};
      const std::size_t at = body.find(" prev_pid=");
      const std::size_t nx = body.find(" next_pid=");
      if (std::sscanf(body.c_str() + at, " prev_pid=%d prev_prio=%d prev_state=%7s", &prev_pid, &prev_prio, state) == 3 &&
          std::sscanf(body.c_str() + nx, " next_pid=%d next_prio=%d", &next_pid, &next_prio) == 2) {
        ++out.switches;
        if (prev_pid != 0) runnable[prev_pid] = state[0] == 'R';
        if (next_pid != 0) {
          prio[next_pid] = next_prio;
          runnable[next_pid] = true;
          last_cpu[next_pid] = cpu;
        }
        running[static_cast<std::size_t>(cpu)] = next_pid;
      }
    }
  }
  if (instant >= 0) check(instant);
  return out;
}

// RT_RUNTIME_SHARE (machine_model::rt_runtime_share, Linux 2.6.25-5.9). Two CPUs, 3 s: R, a
// FIFO 50 hog, and F, a fair hog, pinned to CPU 0; G, a fair hog, pinned to CPU 1. Off (5.10+):
// CPU 0's RT class throttles at its 951st ms of each second (the 1 ms past 950 is carried), so
// R runs 951 + 950 + 950 ms and F the rest, 149 ms. On: at 951 ms CPU 0 borrows from CPU 1,
// whose RT class never ran: 950/2 = 475 ms, capped at 1000 - 950 = 50, so CPU 0's runtime
// covers the whole period and it never throttles. R runs all 3000 ms and F starves: the
// behaviour that got the feature turned off (commit 2586af1ac187: "a CPU can easily borrow
// enough rt_runtime to allow a spinning rt-task to run forever"). G runs 3000 ms either way.
// With CPU 0 in a partition of its own, sharing changes nothing.
TEST(SimPushPull, RtRuntimeShareLetsASpinningRtTaskStarveItsCpu) {
  for (const policy_entry& e : {schedcore_test::ref_rt_entry(), schedcore_test::cfs_entry()}) {
    for (const bool share : {false, true}) {
      SCOPED_TRACE(e.name + (share ? " shared" : " not shared"));
      workload w;
      w.name = "rt-runtime-share";
      w.cpus = 2;
      w.duration = sec(3);
      task_spec r = looping("R", {ev::run(sec(10))});
      r.params = fifo(50);
      r.cpus = {0};
      w.tasks.push_back(r);
      task_spec f = looping("F", {ev::run(sec(10))});
      f.cpus = {0};
      w.tasks.push_back(f);
      task_spec g = looping("G", {ev::run(sec(10))});
      g.cpus = {1};
      w.tasks.push_back(g);
      run_config c = exact_machine();
      c.machine.rt_runtime_share = share;
      const run_result res = e.run(w, c, {});
      EXPECT_EQ(find(res, "R").cpu_ns, share ? sec(3) : msec(951 + 950 + 950));
      EXPECT_EQ(find(res, "F").cpu_ns, share ? 0 : msec(49 + 50 + 50));
      EXPECT_EQ(find(res, "G").cpu_ns, sec(3));
      // A CPU borrows within its root domain only (do_balance_runtime walks rd->span): CPU 0
      // alone in an exclusive partition has no one to borrow from and throttles as without
      // sharing (it took CPU 1's runtime across the partition before).
      c.machine.partitions = {0x1};
      const run_result alone = e.run(w, c, {});
      EXPECT_EQ(find(alone, "R").cpu_ns, msec(951 + 950 + 950));
      EXPECT_EQ(find(alone, "F").cpu_ns, msec(49 + 50 + 50));
      EXPECT_EQ(find(alone, "G").cpu_ns, sec(3));
    }
  }
}

// RT throttling's sysctls (machine_model::rt_runtime_ns, rt_period_ns; --rt-runtime,
// --rt-period). One CPU, a FIFO hog R and a fair hog F, 3 s at HZ 1000 (the class throttles at
// the tick that charges one ms past the runtime and carries that ms; algorithms-modern.md §4):
// 300 ms per 1 s gives R 301 + 300 + 300 ms; 50 ms per 100 ms gives it 51 + 29 x 50 = 1501 ms;
// -1 (no throttling, as 2.6.22-2.6.24) all 3000. A runtime above the period, a negative one
// other than -1, and a period outside 1 ms..100 s are refused with usage_error.
TEST(SimPushPull, RtRuntimeAndPeriodAreTheThrottlingSysctls) {
  for (const policy_entry& e : {schedcore_test::ref_rt_entry(), schedcore_test::cfs_entry()}) {
    SCOPED_TRACE(e.name);
    workload w;
    w.name = "rt-bandwidth";
    w.cpus = 1;
    w.duration = sec(3);
    task_spec r = looping("R", {ev::run(sec(10))});
    r.params = fifo(50);
    w.tasks.push_back(r);
    w.tasks.push_back(looping("F", {ev::run(sec(10))}));
    struct row {
      std::int64_t runtime, period, r_ns;
    };
    for (const row x : {row{msec(300), sec(1), msec(901)}, row{msec(50), msec(100), msec(1501)}, row{-1, sec(1), sec(3)}}) {
      SCOPED_TRACE(std::to_string(x.runtime) + " per " + std::to_string(x.period));
      run_config c = exact_machine();
      c.machine.rt_runtime_ns = x.runtime;
      c.machine.rt_period_ns = x.period;
      const run_result res = e.run(w, c, {});
      EXPECT_EQ(find(res, "R").cpu_ns, x.r_ns);
      EXPECT_EQ(find(res, "F").cpu_ns, sec(3) - x.r_ns);
    }
    for (const row bad : {row{msec(20), msec(10), 0}, row{-2, sec(1), 0}, row{msec(1), usec(999), 0}, row{0, sec(101), 0}}) {
      run_config c = exact_machine();
      c.machine.rt_runtime_ns = bad.runtime;
      c.machine.rt_period_ns = bad.period;
      EXPECT_THROW((void)e.run(w, c, {}), usage_error);
    }
  }
}

// Global fixed priority (the property push / pull exist for): on 4 CPUs, 24 random sets of 8
// periodic FIFO / RR tasks (priorities 1..98, some equal; 0.2-3 ms of work then 1-12 ms of
// sleep, whole microseconds so that the trace's timestamps are exact) beside 3 fair hogs, 2 s
// each, under rt over reference and rt over cfs. At the end of every instant no runnable RT task
// waits while a CPU idles or runs something it outranks: by the engine's own audit and by the
// trace replayed independently. Pushes and pulls both happen.
// `chained`: tasks 4-7 are woken by tasks 0-3 instead of by their own timers (each of 0-3
// resumes its partner after its work), so that wakeups run on the waker's CPU and the
// placement's "CPU the search runs on" is not the woken task's previous CPU. The partners then
// sleep 3-12 ms and the woken tasks run 0.2-1.5 ms, so that no CPU's RT class reaches its
// 950 ms a second: RT throttling (per CPU, as the kernel's without RT_RUNTIME_SHARE) leaves a
// throttled CPU's RT task waiting beside idle or fair CPUs, which this property excludes.
struct fp_counts {
  std::uint64_t pushes = 0, pulls = 0, remote_wakeups = 0;
};
fp_counts expect_global_fixed_priority(std::uint64_t seed, bool chained) {
  std::mt19937_64 rng(seed);
  const auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
  };
  fp_counts n;
  for (int round = 0; round < 24; ++round) {
    workload w;
    w.name = "global-fp-" + std::to_string(round);
    w.cpus = 4;
    w.duration = sec(2);
    for (int i = 0; i < 8; ++i) {
      const std::string partner = "kick" + std::to_string(i % 4);
      std::vector<event> evs = {ev::run(usec(pick(200, 3000))), ev::sleep(usec(pick(chained ? 3000 : 1000, 12000)))};
      if (chained && i >= 4) evs = {ev::on(event_kind::suspend, partner), ev::run(usec(pick(200, 1500)))};
      if (chained && i < 4) evs.insert(evs.begin() + 1, ev::on(event_kind::resume, partner));
      task_spec t = looping((chained && i >= 4 ? "rtw" : "rt") + std::to_string(i), evs);
      t.params = fifo(static_cast<int>(pick(1, 98)));
      if (i == 7) t.params.rt_priority = w.tasks[0].params.rt_priority;  // a tie
      if (rng() % 3 == 0) t.params.kind = sched_kind::rr;
      t.delay = usec(pick(0, 5000));
      w.tasks.push_back(t);
    }
    for (int i = 0; i < 3; ++i) w.tasks.push_back(looping("hog" + std::to_string(i), {ev::run(sec(10))}));
    for (const policy_entry& e : {schedcore_test::ref_rt_entry(), schedcore_test::cfs_entry()}) {
      SCOPED_TRACE(w.name + " " + e.name);
      trace_writer tw;
      run_config c = exact_machine();
      c.trace = &tw;
      c.audit_priority = true;
      const run_result r = e.run(w, c, {});
      EXPECT_EQ(r.totals.priority_inversions, 0u) << "first at " << r.totals.first_inversion_ns << " ns";
      const trace_audit a = audit_trace(tw.text(), 4, "rtw");
      EXPECT_EQ(a.instants_out_of_order, 0) << "first at " << a.first_ns << " ns";
      EXPECT_GT(a.switches, 1000u);  // the replay saw the run (2 s of 8 RT tasks and 3 hogs)
      n.pushes += r.totals.rt_pushes;
      n.pulls += r.totals.rt_pulls;
      n.remote_wakeups += a.remote_wakeups;
    }
  }
  return n;
}

// The trace audit's negative control: two FIFO hogs pinned to CPU 0 (which the audit's "every
// task may run anywhere" does not expect) leave the lower one waiting beside the idle CPU 1 at
// every instant of the run, and the replay must say so.
TEST(SimPushPull, TheTraceAuditSeesAnRtTaskWaitingBesideAnIdleCpu) {
  workload w;
  w.name = "audit-control";
  w.cpus = 2;
  w.duration = msec(10);
  for (const int prio : {50, 40}) {
    task_spec t = looping("rt" + std::to_string(prio), {ev::run(sec(1))});
    t.params = fifo(prio);
    t.cpus = {0};
    w.tasks.push_back(t);
  }
  trace_writer tw;
  run_config c = exact_machine();
  c.trace = &tw;
  schedcore_test::cfs_entry().run(w, c, {});
  const trace_audit a = audit_trace(tw.text(), 2);
  EXPECT_GT(a.instants_out_of_order, 0);
  EXPECT_EQ(a.first_ns, 0);
  EXPECT_GE(a.switches, 1u);
}

TEST(SimPushPull, RtTasksRunByGlobalFixedPriority) {
  const fp_counts n = expect_global_fixed_priority(0xF1F0, false);
  EXPECT_GT(n.pushes, 100u);
  EXPECT_GT(n.pulls, 100u);
}

TEST(SimPushPull, RtTasksWokenByOtherTasksRunByGlobalFixedPriority) {
  const fp_counts n = expect_global_fixed_priority(0xC4A1, true);
  EXPECT_GT(n.pushes, 100u);
  EXPECT_GT(n.pulls, 100u);
  EXPECT_GT(n.remote_wakeups, 1000u);  // woken from another CPU than the one they last ran on
}

// Global EDF: on M CPUs, implicit-deadline periodic tasks meet every deadline when
// U <= M - (M - 1) u_max (Goossens, Funk and Baruah 2003, the GFB bound). 30 random sets on
// 2 and 4 CPUs, each at the bound (3-7 reservations, periods 5-50 ms, jobs 10 us short of their
// runtime so that the reservation never throttles them), beside fair hogs, 3 s each: no job
// misses its deadline (25 129 jobs), the audit finds no reservation waiting behind a later
// deadline, a fair task or an idle CPU, and pushes and pulls both happen. Without the push,
// reservations stack up on one CPU: 134 tasks miss deadlines; without the pull, 29 sets are
// out of order.
TEST(SimPushPull, ReservationsRunByGlobalEdfAndMeetTheGfbBound) {
  std::mt19937_64 rng(0xED5);
  const auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
  };
  std::uint64_t pushes = 0, pulls = 0, jobs = 0;
  for (int round = 0; round < 30; ++round) {
    const int m = round % 2 == 0 ? 2 : 4;
    const int n = static_cast<int>(pick(m + 1, m + 3));
    // Draw utilisations, then scale them to the GFB bound (and under admission's 95 % x M).
    std::vector<double> u(static_cast<std::size_t>(n));
    for (double& x : u) x = 0.05 + static_cast<double>(pick(0, 1000)) / 1000.0 * 0.45;
    double sum = 0, umax = 0;
    for (const double x : u) {
      sum += x;
      umax = std::max(umax, x);
    }
    // Scale by k: k sum <= m - (m - 1) k umax  <=>  k <= m / (sum + (m - 1) umax).
    const double k = std::min(1.0, 0.98 * m / (sum + (m - 1) * umax));
    workload w;
    w.name = "global-edf-" + std::to_string(round);
    w.cpus = m;
    w.duration = sec(3);
    for (int i = 0; i < n; ++i) {
      const std::int64_t period = msec(pick(5, 50));
      const std::int64_t runtime = std::max<std::int64_t>(usec(100), static_cast<std::int64_t>(u[static_cast<std::size_t>(i)] * k * static_cast<double>(period)) / 1000 * 1000);
      task_spec t = looping("dl" + std::to_string(i), {ev::timer("t" + std::to_string(i), period), ev::run(runtime - usec(10)), ev::frame(period)});
      t.params = reservation(runtime, period);
      t.delay = usec(pick(0, 3000));
      w.tasks.push_back(t);
    }
    for (int i = 0; i < m; ++i) w.tasks.push_back(looping("hog" + std::to_string(i), {ev::run(sec(10))}));
    SCOPED_TRACE(w.name);
    run_config c = exact_machine();
    c.audit_priority = true;
    const run_result r = schedcore_test::cfs_dl_entry().run(w, c, {});
    EXPECT_EQ(r.totals.priority_inversions, 0u) << "first at " << r.totals.first_inversion_ns << " ns";
    for (int i = 0; i < n; ++i) {
      const auto& t = find(r, "dl" + std::to_string(i));
      EXPECT_EQ(t.deadlines_missed, 0u) << t.name;
      jobs += t.deadlines_met;
    }
    pushes += r.totals.dl_pushes;
    pulls += r.totals.dl_pulls;
  }
  EXPECT_GT(jobs, 10000u);
  EXPECT_GT(pushes, 100u);
  EXPECT_GT(pulls, 100u);
}

// Where a woken RT task or reservation goes when its previous CPU runs something it may not
// preempt: find_lowest_rq / find_later_rq take the waker's CPU if it is a candidate. Three
// CPUs: a fair hog pinned to CPU 1 and a fair waker pinned to CPU 2. W starts on CPU 0 (the
// idle one) and suspends there; at 1 ms a task pinned to CPU 0 starts and runs forever
// (FIFO 50 against W at FIFO 10, or a reservation of 5 ms every 10 ms with a deadline before
// W's). At 5 ms the waker resumes W. CPUs 1 and 2 both rank lowest (fair tasks only); the
// kernel takes CPU 2, the waker's ("cheaper to preempt than a remote processor"), so W's 3 ms
// come out of the waker's time: the hog runs all 20 ms, the waker 17. (Scanning from the
// previous CPU instead would take CPU 1: the hog 17, the waker 20.)
TEST(SimPushPull, AWokenRtTaskOrReservationTakesTheWakersCpuWhenItRanksLowest) {
  for (const bool deadline : {false, true}) {
    SCOPED_TRACE(deadline ? "reservations" : "FIFO");
    workload w;
    w.name = "waker-cpu";
    w.cpus = 3;
    w.duration = msec(20);
    task_spec woken = looping("W", {ev::on(event_kind::suspend, "go"), ev::run(msec(3)),
                                    ev::on(event_kind::suspend, "never")}, 1);
    woken.params = deadline ? reservation(msec(4), msec(100)) : fifo(10);
    task_spec hog = looping("hog", {ev::run(sec(1))});
    hog.cpus = {1};
    task_spec waker = looping("waker", {ev::run(msec(5)), ev::on(event_kind::resume, "go"), ev::run(sec(1))}, 1);
    waker.cpus = {2};
    task_spec boss = looping("boss", {ev::run(sec(1))});
    boss.params = deadline ? reservation(msec(5), msec(10)) : fifo(50);
    boss.cpus = {0};
    boss.delay = msec(1);
    w.tasks = {woken, hog, waker, boss};
    const policy_entry e = deadline ? schedcore_test::ref_dl_entry() : schedcore_test::ref_rt_entry();
    run_config c = exact_machine();
    c.machine.dl_bound_pct = -1;  // a reservation pinned to CPU 0: Linux allows it with admission off only
    const run_result r = e.run(w, c, {});
    EXPECT_EQ(find(r, "W").cpu_ns, msec(3));
    EXPECT_EQ(find(r, "W").wait_ns, 0);
    EXPECT_EQ(find(r, "W").migrations, 1u);
    EXPECT_EQ(find(r, "hog").cpu_ns, msec(20));
    EXPECT_EQ(find(r, "waker").cpu_ns, msec(17));
  }
}

// When neither the previous CPU nor the searching one is a candidate, cpumask_any_and_distribute
// spreads successive choices over the candidates from the searching CPU's cursor (5.11+), which
// starts at 0 and so first takes CPU 1. Four CPUs: fair hogs pinned to CPUs 1, 2 and 3; W1, W2
// and W3 (FIFO 10) start on CPU 0 one after another, each suspending at once; from 1 ms B
// (FIFO 90, pinned to CPU 0) runs there and resumes them at 2, 4 and 6 ms. Each wakes where B
// runs, and the candidates are CPUs 1-3 every time (the one woken before has finished its
// 1 ms): the cursor of CPU 0 gives CPU 1, then 2, then 3, so each hog loses 1 ms (with a
// first-in-scan-order choice CPU 1 would take all three and its hog would lose 3 ms).
TEST(SimPushPull, SuccessiveWakeupsFromOneCpuSpreadOverTheLowestCpus) {
  workload w;
  w.name = "distribute";
  w.cpus = 4;
  w.duration = msec(20);
  for (int i = 1; i <= 3; ++i) {
    const std::string go = "go" + std::to_string(i);
    task_spec t = looping("W" + std::to_string(i), {ev::on(event_kind::suspend, go), ev::run(msec(1)),
                                                     ev::on(event_kind::suspend, "never")}, 1);
    t.params = fifo(10);
    t.delay = usec(100) * (i - 1);
    w.tasks.push_back(t);
  }
  for (int i = 1; i <= 3; ++i) {
    task_spec h = looping("hog" + std::to_string(i), {ev::run(sec(1))});
    h.cpus = {i};
    w.tasks.push_back(h);
  }
  task_spec b = looping("B", {ev::run(msec(1)), ev::on(event_kind::resume, "go1"), ev::run(msec(2)),
                              ev::on(event_kind::resume, "go2"), ev::run(msec(2)), ev::on(event_kind::resume, "go3"),
                              ev::run(sec(1))}, 1);
  b.params = fifo(90);
  b.cpus = {0};
  b.delay = msec(1);
  w.tasks.push_back(b);
  for (const policy_entry& e : {schedcore_test::ref_rt_entry(), schedcore_test::cfs_entry()}) {
    SCOPED_TRACE(e.name);
    const run_result r = e.run(w, exact_machine(), {});
    for (int i = 1; i <= 3; ++i) {
      EXPECT_EQ(find(r, "W" + std::to_string(i)).cpu_ns, msec(1));
      EXPECT_EQ(find(r, "W" + std::to_string(i)).wait_ns, 0);
      EXPECT_EQ(find(r, "hog" + std::to_string(i)).cpu_ns, msec(19)) << "hog" << i;
    }
  }
}

// The machine's config for the tests below with reservations: exact times, admission control off
// (sched_rt_runtime_us = -1), as Linux allows a pinned or partly pinned reservation only then.
run_config admission_off() {
  run_config c = exact_machine();
  c.machine.dl_bound_pct = -1;
  return c;
}

// push_rt_tasks pushes the best *pushable* task: one pinned to its CPU is never on the
// pushable list (enqueue_pushable_task only for nr_cpus_allowed > 1), so it does not hide a
// migratable one behind it. Two CPUs: B (FIFO 90) and P (FIFO 60), both pinned to CPU 0,
// start there and suspend at once; H (fair, pinned to CPU 1) runs 0.5 ms and resumes both
// (one event: two wakeups, then the switch); M (FIFO 50) starts on CPU 0 at 0.1 ms (the less
// loaded CPU). At 0.5 ms B preempts M (P waits too; no push at the wakeups, CPU 0 being already
// due to reschedule) and, after that switch, CPU 0 pushes its best pushable waiting task, M, to
// CPU 1, where it preempts H: one push, and M has run since 0.1 ms without a wait. Taking P as
// the best would find no CPU for it and stop there, leaving M behind B for the rest of the run.
TEST(SimPushPull, APinnedWaitingTaskDoesNotHideAPushableOne) {
  workload w;
  w.name = "pushable";
  w.cpus = 2;
  w.duration = msec(5);
  task_spec b = looping("B", {ev::on(event_kind::suspend, "go"), ev::run(sec(1))}, 1);
  b.params = fifo(90);
  b.cpus = {0};
  task_spec p_task = looping("P", {ev::on(event_kind::suspend, "go"), ev::run(sec(1))}, 1);
  p_task.params = fifo(60);
  p_task.cpus = {0};
  task_spec h = looping("H", {ev::run(usec(500)), ev::on(event_kind::resume, "go"), ev::run(sec(1))}, 1);
  h.cpus = {1};
  task_spec m = looping("M", {ev::run(sec(1))});
  m.params = fifo(50);
  m.delay = usec(100);
  w.tasks = {b, p_task, h, m};
  for (const policy_entry& e : {schedcore_test::ref_rt_entry(), schedcore_test::cfs_entry()}) {
    SCOPED_TRACE(e.name);
    const run_result r = e.run(w, exact_machine(), {});
    EXPECT_EQ(find(r, "M").cpu_ns, msec(5) - usec(100));
    EXPECT_EQ(find(r, "M").wait_ns, 0);
    EXPECT_EQ(find(r, "M").migrations, 1u);
    EXPECT_EQ(find(r, "B").cpu_ns, msec(5) - usec(500));
    EXPECT_EQ(find(r, "P").cpu_ns, 0);
    EXPECT_EQ(r.totals.rt_pushes, 1u);
  }
}

// pull_rt_task takes the best waiting task that may run on the pulling CPU
// (pick_highest_pushable_task checks cpumask_test_cpu(cpu, task->cpus_ptr)). Three CPUs: A
// (FIFO 50) on CPU 0, B (FIFO 60: 10 ms of work, then a long sleep) on CPU 1, E1 and E2
// (FIFO 70, pinned to CPU 2) on CPU 2, all from 0. D (FIFO 40) starts at 1 ms and C (FIFO 45,
// allowed on CPUs 0 and 2) at 2 ms, both on CPU 0 (the least loaded allowed CPU, the first on a
// tie); no CPU ranks below either, so both wait behind A. At 10 ms B sleeps and CPU 1 pulls:
// C outranks D but may not run on CPU 1, so D is pulled (one pull) and runs 10-12 ms; C never
// moves. Pulling C would run it where its affinity forbids.
TEST(SimPushPull, APullTakesOnlyATaskAllowedOnThePullingCpu) {
  workload w;
  w.name = "pull-mask";
  w.cpus = 3;
  w.duration = msec(12);
  task_spec a = looping("A", {ev::run(sec(1))});
  a.params = fifo(50);
  task_spec b = looping("B", {ev::run(msec(10)), ev::sleep(sec(1))});
  b.params = fifo(60);
  task_spec e1 = looping("E1", {ev::run(sec(1))});
  e1.params = fifo(70);
  e1.cpus = {2};
  task_spec e2 = e1;
  e2.name = "E2";
  task_spec d = looping("D", {ev::run(sec(1))});
  d.params = fifo(40);
  d.delay = msec(1);
  task_spec c = looping("C", {ev::run(sec(1))});
  c.params = fifo(45);
  c.cpus = {0, 2};
  c.delay = msec(2);
  w.tasks = {a, b, e1, e2, d, c};
  for (const policy_entry& e : {schedcore_test::ref_rt_entry(), schedcore_test::cfs_entry()}) {
    SCOPED_TRACE(e.name);
    const run_result r = e.run(w, exact_machine(), {});
    EXPECT_EQ(find(r, "D").cpu_ns, msec(2));
    EXPECT_EQ(find(r, "D").migrations, 1u);
    EXPECT_EQ(find(r, "C").cpu_ns, 0);
    EXPECT_EQ(find(r, "C").migrations, 0u);
    EXPECT_EQ(find(r, "A").cpu_ns, msec(12));
    EXPECT_EQ(r.totals.rt_pulls, 1u);
  }
}

// push_rt_tasks / push_dl_tasks push while they can (while (push_rt_task(rq, false))), not
// once, and only pushable tasks (a pinned one is never on the pushable list). Three CPUs: B
// (FIFO 90, or a reservation of 5 ms every 10 ms; pinned to CPU 0) starts there and suspends;
// M1 and M2 (FIFO 50, or 5 ms every 20 ms) start on CPU 0 at 0.1 and 0.2 ms (the least loaded
// CPU: B sleeps) and suspend too; with reservations, P (5 ms every 15 ms, pinned to CPU 0)
// does the same from 0. Fair hogs H1 and H2 are pinned to CPUs 1 and 2, and H1 resumes all of
// them at 0.5 ms (one event; CPU 0 is idle, so each is woken there). B runs (the highest
// priority, the earliest deadline, 10.5 ms), and after that switch CPU 0 pushes M1 to CPU 1,
// then M2 to CPU 2 (CPUs running fair tasks only, taken in turn from CPU 0's cursor): two
// pushes, neither waits. P, pinned, is skipped though its deadline (15.5 ms) is earlier than
// theirs (20.5 ms). Stopping after one push, or at P, would leave M2 (or both) behind B.
// M1 and M2 tie (same priority or deadline, woken at the same instant): the first woken goes
// first (the plist / the deadline tree keep equal keys in insertion order), so M1 takes CPU 1.
TEST(SimPushPull, APushMovesEveryTaskItCanNotJustOne) {
  // The dest_cpu of `comm`'s first sched_migrate_task line in `trace` (-1: none).
  const auto moved_to = [](const std::string& trace, const std::string& comm) {
    const std::size_t at = trace.find("sched_migrate_task: comm=" + comm + " ");
    if (at == std::string::npos) return -1;
    return std::stoi(trace.substr(trace.find("dest_cpu=", at) + 9));
  };
  for (const bool deadline : {false, true}) {
    SCOPED_TRACE(deadline ? "reservations" : "FIFO");
    workload w;
    w.name = "push-all";
    w.cpus = 3;
    w.duration = msec(5);
    task_spec b = looping("B", {ev::on(event_kind::suspend, "go"), ev::run(sec(1))}, 1);
    b.params = deadline ? reservation(msec(5), msec(10)) : fifo(90);
    b.cpus = {0};
    w.tasks.push_back(b);
    if (deadline) {
      task_spec p_task = looping("P", {ev::on(event_kind::suspend, "go"), ev::run(sec(1))}, 1);
      p_task.params = reservation(msec(5), msec(15));
      p_task.cpus = {0};
      w.tasks.push_back(p_task);
    }
    for (int i = 1; i <= 2; ++i) {
      task_spec m = looping("M" + std::to_string(i), {ev::on(event_kind::suspend, "go"), ev::run(sec(1))}, 1);
      m.params = deadline ? reservation(msec(5), msec(20)) : fifo(50);
      m.delay = usec(100) * i;
      w.tasks.push_back(m);
    }
    task_spec h1 = looping("H1", {ev::run(usec(500)), ev::on(event_kind::resume, "go"), ev::run(sec(1))}, 1);
    h1.cpus = {1};
    w.tasks.push_back(h1);
    task_spec h2 = looping("H2", {ev::run(sec(1))});
    h2.cpus = {2};
    w.tasks.push_back(h2);
    const policy_entry e = deadline ? schedcore_test::ref_dl_entry() : schedcore_test::ref_rt_entry();
    trace_writer tw;
    run_config c = admission_off();
    c.trace = &tw;
    const run_result r = e.run(w, c, {});
    EXPECT_EQ(moved_to(tw.text(), "M1"), 1);
    EXPECT_EQ(moved_to(tw.text(), "M2"), 2);
    for (const char* name : {"M1", "M2"}) {
      EXPECT_EQ(find(r, name).cpu_ns, msec(5) - usec(500)) << name;
      EXPECT_EQ(find(r, name).wait_ns, 0) << name;
    }
    EXPECT_EQ(deadline ? r.totals.dl_pushes : r.totals.rt_pushes, 2u);
  }
}

// pull_rt_task takes only a task of strictly higher priority than the pulling CPU's best
// (p->prio < this_rq->rt.highest_prio.curr). Two CPUs: A (FIFO 50) on CPU 0 and B (FIFO 60:
// 10 ms of work, then a long sleep) on CPU 1 from 0; C (FIFO 40) starts at 5 ms on CPU 0 (both
// CPUs hold one task: the first) and F (FIFO 40) at 6 ms on CPU 1 (one task against two); no
// CPU ranks below 40, so both wait. At 10 ms B sleeps: CPU 1's best is now F (40), and C
// (40) is no higher: no pull. F runs 10-12 ms, C waits all along. Pulling C on a tie would
// move it to CPU 1 (one pull).
TEST(SimPushPull, APullNeedsATaskAboveThePullingCpusBest) {
  workload w;
  w.name = "pull-tie";
  w.cpus = 2;
  w.duration = msec(12);
  task_spec a = looping("A", {ev::run(sec(1))});
  a.params = fifo(50);
  task_spec b = looping("B", {ev::run(msec(10)), ev::sleep(sec(1))});
  b.params = fifo(60);
  task_spec c = looping("C", {ev::run(sec(1))});
  c.params = fifo(40);
  c.delay = msec(5);
  task_spec f = looping("F", {ev::run(sec(1))});
  f.params = fifo(40);
  f.delay = msec(6);
  w.tasks = {a, b, c, f};
  for (const policy_entry& e : {schedcore_test::ref_rt_entry(), schedcore_test::cfs_entry()}) {
    SCOPED_TRACE(e.name);
    const run_result r = e.run(w, exact_machine(), {});
    EXPECT_EQ(find(r, "F").cpu_ns, msec(2));
    EXPECT_EQ(find(r, "C").cpu_ns, 0);
    EXPECT_EQ(find(r, "C").migrations, 0u);
    EXPECT_EQ(r.totals.rt_pulls, 0u);
  }
}

// A CPU whose reservation is throttled pulls reservations (the throttle dequeues it, and
// balance_dl pulls when !on_dl_rq(prev)), although the task itself is still runnable. Two
// CPUs, admission off: A (2 ms every 10 ms, pinned to CPU 0) and a fair hog F (pinned to CPU 0)
// on CPU 0; X (5 ms every 10 ms, pinned to CPU 1) on CPU 1; Y (4 ms every 20 ms) starts at
// 0.5 ms on CPU 1 (one task there against two) behind X (deadline 10 ms against Y's 20.5 ms;
// no CPU is free and no CPU's earliest deadline is later than Y's: no push). At 2 ms A is
// throttled: CPU 0 pulls Y (one pull), which runs there at once to the end (2-6 ms: 4 ms, its
// whole budget): it waited 1.5 ms. Without the pull Y would wait for X's throttle at 5 ms.
TEST(SimPushPull, ACpuWhoseReservationIsThrottledPullsAWaitingOne) {
  workload w;
  w.name = "pull-at-throttle";
  w.cpus = 2;
  w.duration = msec(6);
  task_spec a = looping("A", {ev::run(sec(1))});
  a.params = reservation(msec(2), msec(10));
  a.cpus = {0};
  task_spec f = looping("F", {ev::run(sec(1))});
  f.cpus = {0};
  task_spec x = looping("X", {ev::run(sec(1))});
  x.params = reservation(msec(5), msec(10));
  x.cpus = {1};
  task_spec y = looping("Y", {ev::run(sec(1))});
  y.params = reservation(msec(4), msec(20));
  y.delay = usec(500);
  w.tasks = {a, f, x, y};
  const run_result r = schedcore_test::ref_dl_entry().run(w, admission_off(), {});
  EXPECT_EQ(find(r, "Y").cpu_ns, msec(4));
  EXPECT_EQ(find(r, "Y").wait_ns, usec(1500));
  EXPECT_EQ(find(r, "Y").migrations, 1u);
  EXPECT_EQ(r.totals.dl_pulls, 1u);
}

// When a CPU's reservation stops being queued and no reservation is left to pull, it pulls
// RT tasks too (the class balance callbacks run from prev's class down: balance_dl, then
// balance_rt, whose need_pull_rt_task holds since any RT priority is below a deadline task's).
// Two CPUs, admission off: D (10 ms every 100 ms, pinned to CPU 0) runs 2 ms on CPU 0 and
// sleeps; a fair hog F is pinned to CPU 0; H (FIFO 90) runs on CPU 1; R (FIFO 10) starts at
// 0.5 ms on CPU 1 (one task there against two) and waits behind H (CPU 0, with a runnable
// reservation, ranks above every RT priority: no push). At 2 ms D sleeps and CPU 0 pulls R
// (one pull), which preempts F: R waited 1.5 ms. Without the RT pull, R would wait behind H
// for the rest of the run.
TEST(SimPushPull, ACpuWhoseReservationSleepsPullsAnRtTask) {
  workload w;
  w.name = "dl-then-rt-pull";
  w.cpus = 2;
  w.duration = msec(6);
  task_spec d = looping("D", {ev::run(msec(2)), ev::sleep(sec(1))});
  d.params = reservation(msec(10), msec(100));
  d.cpus = {0};
  task_spec f = looping("F", {ev::run(sec(1))});
  f.cpus = {0};
  task_spec h = looping("H", {ev::run(sec(1))});
  h.params = fifo(90);
  task_spec r_task = looping("R", {ev::run(sec(1))});
  r_task.params = fifo(10);
  r_task.delay = usec(500);
  w.tasks = {d, f, h, r_task};
  const run_result r = schedcore_test::ref_dl_entry().run(w, admission_off(), {});
  EXPECT_EQ(find(r, "R").cpu_ns, msec(4));
  EXPECT_EQ(find(r, "R").wait_ns, usec(1500));
  EXPECT_EQ(find(r, "R").migrations, 1u);
  EXPECT_EQ(find(r, "H").cpu_ns, msec(6));
  EXPECT_EQ(r.totals.rt_pulls, 1u);
}

// The priority audit (run_config::audit_priority) reports the first instant it found out of
// global priority order, not the last. Two CPUs, admission off: R (FIFO 10) runs on CPU 0
// from 0, a fair hog H is pinned to CPU 1; D (2 ms every 10 ms, pinned to CPU 0) starts at
// 1 ms and preempts R. Nothing pushes an RT task a reservation preempted (the kernel's push
// triggers are RT events; after the switch to D only deadline tasks are pushed), so R waits
// while CPU 1 runs a fair task: an inversion from 1 ms, seen at 1 ms and at the 2 ms tick,
// until D's budget ends at 3 ms and R runs again (R waited 2 ms).
TEST(SimPushPull, ThePriorityAuditReportsTheFirstInversion) {
  workload w;
  w.name = "audit-first";
  w.cpus = 2;
  w.duration = msec(5);
  task_spec r_task = looping("R", {ev::run(sec(1))});
  r_task.params = fifo(10);
  task_spec h = looping("H", {ev::run(sec(1))});
  h.cpus = {1};
  task_spec d = looping("D", {ev::run(sec(1))});
  d.params = reservation(msec(2), msec(10));
  d.cpus = {0};
  d.delay = msec(1);
  w.tasks = {r_task, h, d};
  run_config c = admission_off();
  c.audit_priority = true;
  const run_result r = schedcore_test::ref_dl_entry().run(w, c, {});
  EXPECT_EQ(find(r, "R").wait_ns, msec(2));
  EXPECT_EQ(r.totals.priority_inversions, 2u);
  EXPECT_EQ(r.totals.first_inversion_ns, msec(1));
  // Both inversions come before a 4 ms warm-up: the window has none, and no first one (it
  // kept the one at 1 ms while the count restarted).
  c.warmup_ns = msec(4);
  const run_result late = schedcore_test::ref_dl_entry().run(w, c, {});
  EXPECT_EQ(late.totals.priority_inversions, 0u);
  EXPECT_EQ(late.totals.first_inversion_ns, -1);
}

// A CPU with a single RT task is not RT-overloaded (rt_rq->overloaded needs rt_nr_total > 1),
// so no CPU pulls from it, even when that task waits behind a reservation. Two CPUs, admission
// off: R (FIFO 10) runs on CPU 0 from 0; Q (FIFO 20, pinned to CPU 1) runs 1.5 ms and sleeps;
// D (2 ms every 10 ms, pinned to CPU 0) starts at 1 ms and preempts R. At 1.5 ms Q sleeps and
// CPU 1 looks for RT tasks to pull: CPU 0 holds one only, so none; R waits until D's budget
// ends at 3 ms (2 ms), while CPU 1 idles. No pull.
TEST(SimPushPull, NoPullFromACpuWithASingleRtTask) {
  workload w;
  w.name = "single-rt";
  w.cpus = 2;
  w.duration = msec(5);
  task_spec r_task = looping("R", {ev::run(sec(1))});
  r_task.params = fifo(10);
  task_spec q = looping("Q", {ev::run(usec(1500)), ev::sleep(sec(1))});
  q.params = fifo(20);
  q.cpus = {1};
  task_spec d = looping("D", {ev::run(sec(1))});
  d.params = reservation(msec(2), msec(10));
  d.cpus = {0};
  d.delay = msec(1);
  w.tasks = {r_task, q, d};
  const run_result r = schedcore_test::ref_dl_entry().run(w, admission_off(), {});
  EXPECT_EQ(find(r, "R").wait_ns, msec(2));
  EXPECT_EQ(find(r, "R").migrations, 0u);
  EXPECT_EQ(r.totals.rt_pulls, 0u);
}

// ---- where a waking RT task or reservation goes (select_task_rq_rt / select_task_rq_dl)

// select_task_rq_rt moves a waking RT task when its CPU runs an RT task of equal priority
// (curr->prio <= p->prio), not only a higher one: the wakeup itself goes to find_lowest_rq's
// CPU, so no push is needed. Two CPUs: T (FIFO 50) starts on CPU 0 and sleeps 1 ms at once; a
// fair hog H pinned to CPU 1; R (FIFO 50) starts at 0.5 ms on CPU 0 (the less loaded CPU: T
// sleeps). At 1 ms T's timer wakes it on CPU 0, where R runs: find_lowest_rq gives CPU 1
// (level 0 below T's 50) and T preempts H there. rt_pushes stays 0: kept on CPU 0 behind R,
// T would wait there until task_woken_rt pushed it to the same CPU 1 (one push).
TEST(SimPushPull, ARtTaskWokenBehindAnEqualPriorityOneGoesElsewhereAtTheWakeup) {
  workload w;
  w.name = "equal-prio-wakeup";
  w.cpus = 2;
  w.duration = msec(5);
  task_spec t = looping("T", {ev::sleep(msec(1)), ev::run(msec(1)), ev::on(event_kind::suspend, "never")}, 1);
  t.params = fifo(50);
  task_spec h = looping("H", {ev::run(sec(1))});
  h.cpus = {1};
  task_spec r_task = looping("R", {ev::run(sec(1))});
  r_task.params = fifo(50);
  r_task.delay = usec(500);
  w.tasks = {t, h, r_task};
  for (const policy_entry& e : {schedcore_test::ref_rt_entry(), schedcore_test::cfs_entry()}) {
    SCOPED_TRACE(e.name);
    const run_result r = e.run(w, exact_machine(), {});
    EXPECT_EQ(find(r, "T").cpu_ns, msec(1));
    EXPECT_EQ(find(r, "T").wait_ns, 0);
    EXPECT_EQ(find(r, "T").migrations, 1u);
    EXPECT_EQ(find(r, "R").cpu_ns, msec(5) - usec(500));
    EXPECT_EQ(r.totals.rt_pushes, 0u);
  }
}

// find_lowest_rq prefers the task's previous CPU among the lowest-ranked candidates, before
// the CPU running the wakeup ("if (cpumask_test_cpu(cpu, lowest_mask)) return cpu" with cpu =
// task_cpu(task), then this_cpu). Three CPUs: T (FIFO 50) starts on CPU 0 and suspends; W
// (FIFO 10, pinned to CPU 1) runs 1 ms and resumes T; P (FIFO 10, pinned to CPU 0) starts at
// 0.5 ms; B (FIFO 90) is pinned to CPU 2. At 1 ms T's CPU 0 runs the pinned P, so T looks for
// the lowest CPUs: 0 and 1 (level 10 each; CPU 2 is at 90). The previous CPU 0 wins: T
// preempts P there for 1 ms (P pinned: no push), and W runs all 5 ms. Taking the waker's
// CPU 1 would cost W the 1 ms instead.
TEST(SimPushPull, AWokenRtTaskPrefersItsPreviousCpuAmongTheLowest) {
  workload w;
  w.name = "prev-among-lowest";
  w.cpus = 3;
  w.duration = msec(5);
  task_spec t = looping("T", {ev::on(event_kind::suspend, "go"), ev::run(msec(1)), ev::on(event_kind::suspend, "never")}, 1);
  t.params = fifo(50);
  task_spec waker = looping("W", {ev::run(msec(1)), ev::on(event_kind::resume, "go"), ev::run(sec(1))}, 1);
  waker.params = fifo(10);
  waker.cpus = {1};
  task_spec b = looping("B", {ev::run(sec(1))});
  b.params = fifo(90);
  b.cpus = {2};
  task_spec p_task = looping("P", {ev::run(sec(1))});
  p_task.params = fifo(10);
  p_task.cpus = {0};
  p_task.delay = usec(500);
  w.tasks = {t, waker, b, p_task};
  for (const policy_entry& e : {schedcore_test::ref_rt_entry(), schedcore_test::cfs_entry()}) {
    SCOPED_TRACE(e.name);
    const run_result r = e.run(w, exact_machine(), {});
    EXPECT_EQ(find(r, "T").cpu_ns, msec(1));
    EXPECT_EQ(find(r, "T").migrations, 0u);
    EXPECT_EQ(find(r, "W").cpu_ns, msec(5));
    EXPECT_EQ(find(r, "P").cpu_ns, msec(5) - usec(500) - msec(1));
    EXPECT_EQ(r.totals.rt_pushes, 0u);
  }
}

// A waking RT task leaves a CPU whose running RT task, even of lower priority, is pinned there
// (select_task_rq_rt: curr->nr_cpus_allowed < 2), since that one could not be pushed away.
// Two CPUs: T (FIFO 50) starts on CPU 0 and sleeps 1 ms; P (FIFO 10, pinned to CPU 0) starts at
// 0.5 ms; a fair hog H is pinned to CPU 1. At 1 ms T wakes on CPU 0: it goes to CPU 1
// (find_lowest_rq: level 0) and preempts H, so P runs on undisturbed: 4.5 of 5 ms, no wait.
// Kept on CPU 0, T would preempt P for 1 ms (P pinned: nothing to push).
TEST(SimPushPull, ARtTaskWokenWhereAPinnedLowerRtTaskRunsGoesElsewhere) {
  workload w;
  w.name = "pinned-curr";
  w.cpus = 2;
  w.duration = msec(5);
  task_spec t = looping("T", {ev::sleep(msec(1)), ev::run(msec(1)), ev::on(event_kind::suspend, "never")}, 1);
  t.params = fifo(50);
  task_spec p_task = looping("P", {ev::run(sec(1))});
  p_task.params = fifo(10);
  p_task.cpus = {0};
  p_task.delay = usec(500);
  task_spec h = looping("H", {ev::run(sec(1))});
  h.cpus = {1};
  w.tasks = {t, p_task, h};
  for (const policy_entry& e : {schedcore_test::ref_rt_entry(), schedcore_test::cfs_entry()}) {
    SCOPED_TRACE(e.name);
    const run_result r = e.run(w, exact_machine(), {});
    EXPECT_EQ(find(r, "T").wait_ns, 0);
    EXPECT_EQ(find(r, "T").migrations, 1u);
    EXPECT_EQ(find(r, "P").cpu_ns, msec(5) - usec(500));
    EXPECT_EQ(find(r, "P").wait_ns, 0);
    EXPECT_EQ(find(r, "H").cpu_ns, msec(4));
  }
}

// find_lowest_rq ranks a CPU with a runnable reservation above every RT priority (cpupri's
// CPUPRI_HIGHER, 5.11+): an RT task is not sent there. Three CPUs: T (FIFO 50) starts on CPU 0
// and sleeps 1 ms; B (FIFO 90, pinned to CPU 0) starts at 0.5 ms; D, a reservation of 5 ms
// every 10 ms pinned to CPU 1, runs from 0 (its budget lasts to 5 ms); L (FIFO 10) is pinned
// to CPU 2. At 1 ms T wakes behind B: the candidates are CPU 1 (a reservation: above T) and
// CPU 2 (level 10): T goes to CPU 2 and preempts L for 1 ms, with no wait. Ranked by its RT
// tasks alone (none), CPU 1 would be the lowest, and T would wait behind D until 5 ms.
TEST(SimPushPull, ARtTaskIsNotWokenOntoACpuRunningAReservation) {
  workload w;
  w.name = "cpupri-higher";
  w.cpus = 3;
  w.duration = msec(5);
  task_spec t = looping("T", {ev::sleep(msec(1)), ev::run(msec(1)), ev::on(event_kind::suspend, "never")}, 1);
  t.params = fifo(50);
  task_spec b = looping("B", {ev::run(sec(1))});
  b.params = fifo(90);
  b.cpus = {0};
  b.delay = usec(500);
  task_spec d = looping("D", {ev::run(sec(1))});
  d.params = reservation(msec(5), msec(10));
  d.cpus = {1};
  task_spec l = looping("L", {ev::run(sec(1))});
  l.params = fifo(10);
  l.cpus = {2};
  w.tasks = {t, b, d, l};
  const run_result r = schedcore_test::ref_dl_entry().run(w, admission_off(), {});
  EXPECT_EQ(find(r, "T").cpu_ns, msec(1));
  EXPECT_EQ(find(r, "T").wait_ns, 0);
  EXPECT_EQ(find(r, "L").cpu_ns, msec(4));
  EXPECT_EQ(find(r, "D").cpu_ns, msec(5));
}

// select_task_rq_dl moves a waking reservation off a CPU whose running reservation is pinned
// there (curr->nr_cpus_allowed < 2), even when the woken one's deadline is earlier, and
// find_later_rq's free CPUs leave out those whose only reservation is throttled (off the
// deadline queue). Two CPUs: T (2 ms every 5 ms: its 1 ms job ends before its budget does)
// starts on CPU 0 and sleeps 2 ms; A (9 ms every 100 ms, pinned to CPU 0) runs there from 0;
// C (1 ms every 50 ms, pinned to CPU 1) uses its budget by 1 ms and is throttled until 50 ms.
// At 2 ms T wakes (its deadline, 5 ms, is earlier than A's, 100 ms): A is pinned, so
// find_later_rq runs; CPU 1 is free (C throttled), and T runs there 1 ms at once while A keeps
// CPU 0: A runs all 6 ms.
// Kept on CPU 0 (A's pin ignored), or with CPU 1 not free (C counted: the latest earliest
// deadline is then A's, on CPU 0), T would preempt A for 1 ms.
TEST(SimPushPull, AReservationWokenWhereAPinnedOneRunsGoesToAFreeCpu) {
  workload w;
  w.name = "dl-pinned-curr";
  w.cpus = 2;
  w.duration = msec(6);
  task_spec t = looping("T", {ev::sleep(msec(2)), ev::run(msec(1)), ev::on(event_kind::suspend, "never")}, 1);
  t.params = reservation(msec(2), msec(5));
  task_spec a = looping("A", {ev::run(sec(1))});
  a.params = reservation(msec(9), msec(100));
  a.cpus = {0};
  task_spec c = looping("C", {ev::run(sec(1))});
  c.params = reservation(msec(1), msec(50));
  c.cpus = {1};
  w.tasks = {t, a, c};
  const run_result r = schedcore_test::ref_dl_entry().run(w, admission_off(), {});
  EXPECT_EQ(find(r, "T").cpu_ns, msec(1));
  EXPECT_EQ(find(r, "T").wait_ns, 0);
  EXPECT_EQ(find(r, "T").migrations, 1u);
  EXPECT_EQ(find(r, "A").cpu_ns, msec(6));
  EXPECT_EQ(find(r, "C").cpu_ns, msec(1));
}

// find_later_rq looks only at the CPUs the reservation may use (cpumask_and with
// p->cpus_ptr in cpudl_find). Three CPUs: T (1 ms every 5 ms, allowed CPUs 0 and 1) starts on
// CPU 0 and sleeps 1 ms; A (9 ms every 200 ms) pinned to CPU 0 and B (9 ms every 100 ms) pinned
// to CPU 1 run from 0; CPU 2 stays idle. At 1 ms T wakes where A (pinned) runs: no allowed CPU
// is free, so cpudl's maximum decides: the CPU whose earliest deadline is the latest, CPU 0
// (200 ms against 100 ms), later than T's 5 ms: T stays and preempts A for 1 ms. Taking the
// idle CPU 2 would run T where its affinity forbids.
TEST(SimPushPull, AReservationIsNotWokenOntoACpuOutsideItsAffinity) {
  workload w;
  w.name = "dl-mask";
  w.cpus = 3;
  w.duration = msec(5);
  task_spec t = looping("T", {ev::sleep(msec(1)), ev::run(msec(1)), ev::on(event_kind::suspend, "never")}, 1);
  t.params = reservation(msec(1), msec(5));
  t.cpus = {0, 1};
  task_spec a = looping("A", {ev::run(sec(1))});
  a.params = reservation(msec(9), msec(200));
  a.cpus = {0};
  task_spec b = looping("B", {ev::run(sec(1))});
  b.params = reservation(msec(9), msec(100));
  b.cpus = {1};
  w.tasks = {t, a, b};
  const run_result r = schedcore_test::ref_dl_entry().run(w, admission_off(), {});
  EXPECT_EQ(find(r, "T").cpu_ns, msec(1));
  EXPECT_EQ(find(r, "T").migrations, 0u);
  EXPECT_EQ(find(r, "A").cpu_ns, msec(4));
  EXPECT_EQ(find(r, "B").cpu_ns, msec(5));
  EXPECT_EQ(r.totals.idle_ns, msec(5));  // CPU 2 never ran anything
}

}  // namespace
