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

}  // namespace
