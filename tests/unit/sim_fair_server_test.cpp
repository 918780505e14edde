// schedsim with Linux 6.12's fair server (machine_model::fair_server_runtime_ns): hand-computed
// schedules from the deferrable server's rules (policy/dl_server.hpp, tests/unit/dl_server_test.cpp)
// with RT throttling off, as 6.12 without RT_GROUP_SCHED.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim_entries.hpp"
#include "sim_results.hpp"
#include "schedcore/sim/engine.hpp"

namespace {

using namespace schedcore;
using namespace schedcore::sim;
using schedcore_test::exact_machine;
using schedcore_test::find;
using schedcore_test::looping;
using schedcore_test::fifo;
using schedcore_test::reservation;

run_config server_machine(std::int64_t runtime = msec(50), std::int64_t period = sec(1)) {
  run_config c = exact_machine();
  c.machine.rt_runtime_ns = -1;
  c.machine.fair_server_runtime_ns = runtime;
  c.machine.fair_server_period_ns = period;
  return c;
}

workload starved(int cpus) {
  workload w;
  w.name = "fair-server";
  w.cpus = cpus;
  w.duration = sec(3);
  for (int c = 0; c < cpus; ++c) {
    task_spec r = looping("R" + std::to_string(c), {ev::run(sec(10))});
    r.params = fifo(50);
    r.cpus = {c};
    w.tasks.push_back(r);
  }
  for (int c = 0; c < cpus; ++c) w.tasks.push_back(looping("F" + std::to_string(c), {ev::run(sec(10))}));
  return w;
}

// One CPU, a FIFO hog and a fair hog from t = 0, 3 s. The server starts deferred (d = 1 s,
// timer at 950 ms), so the RT task runs first; at 950 ms the fair task was starved: the server
// is replenished (50/50 overflows 50/1000: d = 1950 ms) and runs it 50 ms, throttled at 1 s
// until d; in the running state each later period is served at its start: 1950-2000,
// 2950-3000 ms. Fair: 150 ms, never waiting more than 950 ms. Without the server (and without
// RT throttling) it gets nothing.
TEST(SimFairServer, AStarvedFairTaskRunsAtTheZeroLaxityInstantThenAtEachPeriodsStart) {
  for (const policy_entry& e : {schedcore_test::ref_dl_entry(), schedcore_test::cfs_dl_entry()}) {
    SCOPED_TRACE(e.name);
    const workload w = starved(1);
    const run_result on = e.run(w, server_machine(), {});
    EXPECT_EQ(find(on, "F0").cpu_ns, msec(150));
    EXPECT_EQ(find(on, "R0").cpu_ns, msec(2850));
    EXPECT_EQ(find(on, "F0").max_wait_ns, msec(950));
    schedcore_test::expect_conserved(on);
    const run_result off = e.run(w, server_machine(0), {});
    EXPECT_EQ(find(off, "F0").cpu_ns, 0);
    // 20 ms per 100 ms: deferred to 80 ms (d = 180 ms from there), served 80-100 ms and at the
    // start of each later period, 180-200 ms, ...: 20 ms in each of 30 periods.
    const run_result tight = e.run(w, server_machine(msec(20), msec(100)), {});
    EXPECT_EQ(find(tight, "F0").cpu_ns, msec(600));
  }
}

// With no fair task the server never starts: a FIFO hog alone keeps the whole CPU, where RT
// throttling (950 ms per 1 s) idles it 49-50 ms of every second.
TEST(SimFairServer, WithNoFairTaskTheRtTaskKeepsTheWholeCpu) {
  workload w;
  w.name = "fair-server-rt-alone";
  w.cpus = 1;
  w.duration = sec(3);
  task_spec r = looping("R", {ev::run(sec(10))});
  r.params = fifo(50);
  w.tasks.push_back(r);
  const policy_entry e = schedcore_test::cfs_dl_entry();
  EXPECT_EQ(find(e.run(w, server_machine(), {}), "R").cpu_ns, sec(3));
  EXPECT_EQ(find(e.run(w, exact_machine(), {}), "R").cpu_ns, msec(2851));
}

// The engine's priority audit (run_config::audit_priority) counts an RT task waiting behind a
// fair task the server runs as no inversion: that fair task holds a reservation's priority.
// Two CPUs: FIFO hogs pinned to each and fair hogs; while the servers run, RT tasks wait.
TEST(SimFairServer, ARunningServerIsNoPriorityInversion) {
  run_config c = server_machine();
  c.audit_priority = true;
  const run_result r = schedcore_test::cfs_dl_entry().run(starved(2), c, {});
  EXPECT_EQ(r.totals.priority_inversions, 0u) << "first at " << r.totals.first_inversion_ns << " ns";
  EXPECT_EQ(find(r, "R0").cpu_ns, msec(2850));
}

// Two CPUs, a pinned FIFO hog on each and two fair hogs: each CPU has its own server.
TEST(SimFairServer, EachCpuHasItsOwnServer) {
  const run_result r = schedcore_test::cfs_dl_entry().run(starved(2), server_machine(), {});
  EXPECT_EQ(find(r, "F0").cpu_ns + find(r, "F1").cpu_ns, msec(300));
  EXPECT_EQ(find(r, "R0").cpu_ns, msec(2850));
  EXPECT_EQ(find(r, "R1").cpu_ns, msec(2850));
  schedcore_test::expect_conserved(r);
}

// The deferral: a FIFO task that runs 5 ms every 10 ms leaves the fair hog half the CPU; the
// hog's run time uses up each deferred period's 50 ms long before its zero-laxity instant, so
// the server never runs and the RT task never waits (a server that ran at once, as before the
// deferral, would delay it whenever both were runnable).
TEST(SimFairServer, TheServerNeverRunsWhileTheFairClassGetsItsShare) {
  for (const policy_entry& e : {schedcore_test::ref_dl_entry(), schedcore_test::cfs_dl_entry()}) {
    SCOPED_TRACE(e.name);
    workload w;
    w.name = "fair-server-share";
    w.cpus = 1;
    w.duration = sec(3);
    task_spec r = looping("R", {ev::run(msec(5)), ev::sleep(msec(5))});
    r.params = fifo(50);
    w.tasks.push_back(r);
    w.tasks.push_back(looping("F", {ev::run(sec(10))}));
    const run_result res = e.run(w, server_machine(), {});
    EXPECT_EQ(find(res, "R").cpu_ns, msec(1500));
    EXPECT_EQ(find(res, "R").wait_ns, 0);
    EXPECT_EQ(find(res, "F").cpu_ns, msec(1500));
  }
}

// Idle time counts as served (dl_server_update_idle_time). The fair task starts the server at
// t = 0 (d = 1 s) and sleeps at once; the CPU idles 100 ms, which the wakeup charges: q = 0.
// A FIFO hog starts then. With q = 0 the old deadline stands (no overflow) and the zero-laxity
// instant is d itself: the task waits until 1 s, and runs 40 ms by the end of the run at
// 1040 ms. With a full q it would wait until 1050 ms (50/900 overflows 50/1000: d = 1100 ms).
TEST(SimFairServer, IdleTimeCountsAsServed) {
  for (const policy_entry& e : {schedcore_test::ref_dl_entry(), schedcore_test::cfs_dl_entry()}) {
    SCOPED_TRACE(e.name);
    workload w;
    w.name = "fair-server-idle";
    w.cpus = 1;
    w.duration = msec(1040);
    task_spec f = looping("F", {ev::sleep(msec(100)), ev::run(sec(10))}, 1);
    w.tasks.push_back(f);
    task_spec r = looping("R", {ev::run(sec(10))});
    r.params = fifo(50);
    r.delay = msec(100);
    w.tasks.push_back(r);
    const run_result res = e.run(w, server_machine(), {});
    EXPECT_EQ(find(res, "F").cpu_ns, msec(40));
    EXPECT_EQ(find(res, "F").max_wait_ns, msec(900));
  }
}

// A reservation (10 ms per 100 ms), a FIFO hog and a fair hog: the server competes by deadline
// with the reservation, which keeps its 10 ms in every period (its deadlines are always the
// earlier ones); the fair task gets the server's 150 ms; the RT task the rest.
TEST(SimFairServer, ReservationsKeepTheirBandwidthBesideTheServer) {
  for (const policy_entry& e : {schedcore_test::ref_dl_entry(), schedcore_test::cfs_dl_entry()}) {
    SCOPED_TRACE(e.name);
    workload w = starved(1);
    task_spec d = looping("D", {ev::run(sec(10))});
    d.params = reservation(msec(10), msec(100));
    w.tasks.push_back(d);
    const run_result r = e.run(w, server_machine(), {});
    EXPECT_EQ(find(r, "D").cpu_ns, msec(300));
    EXPECT_EQ(find(r, "F0").cpu_ns, msec(150));
    EXPECT_EQ(find(r, "R0").cpu_ns, msec(2550));
    schedcore_test::expect_conserved(r);
  }
}

// A reservation that wakes while the server runs the fair task, with an earlier deadline
// (955 + 100 ms against the server's 1950 ms), preempts it at once: EDF between the two.
TEST(SimFairServer, AReservationWithAnEarlierDeadlinePreemptsTheServer) {
  for (const policy_entry& e : {schedcore_test::ref_dl_entry(), schedcore_test::cfs_dl_entry()}) {
    SCOPED_TRACE(e.name);
    workload w = starved(1);
    w.duration = msec(1500);
    task_spec d = looping("D", {ev::run(msec(5)), ev::sleep(msec(95))});
    d.params = reservation(msec(10), msec(100));
    d.delay = msec(955);
    w.tasks.push_back(d);
    const run_result r = e.run(w, server_machine(), {});
    EXPECT_EQ(find(r, "D").cpu_ns, msec(30));  // six jobs of 5 ms, at 955, 1055, ... 1455 ms
    EXPECT_EQ(find(r, "D").max_wait_ns, 0);
    EXPECT_EQ(find(r, "F0").cpu_ns, msec(50));
  }
}

// With RT throttling left on (950 ms per 1 s) beside the server, the server comes first: at
// 950 ms it runs the fair task, so the RT class never reaches its runtime.
TEST(SimFairServer, TheServerPreemptsRtThrottling) {
  run_config c = server_machine();
  c.machine.rt_runtime_ns = msec(950);
  const run_result r = schedcore_test::cfs_dl_entry().run(starved(1), c, {});
  EXPECT_EQ(find(r, "F0").cpu_ns, msec(150));
  EXPECT_EQ(find(r, "R0").cpu_ns, msec(2850));
}

// The servers' bandwidth counts in the root domain's admission (dl_server_apply_params): on one
// CPU, 50/1000 of the 95 % bound is taken, so a reservation of 900 ms per 1 s still fits
// (0.90 + 0.05) and one of 910 ms does not; without the server it does. Two CPUs, two servers:
// 1.9 - 0.1 leaves room for 1.8.
TEST(SimFairServer, TheServersBandwidthCountsInAdmission) {
  const policy_entry e = schedcore_test::cfs_dl_entry();
  workload w = starved(1);
  w.duration = msec(100);
  task_spec d = looping("D", {ev::run(sec(10))});
  d.params = reservation(msec(900), sec(1));
  w.tasks.push_back(d);
  EXPECT_NO_THROW((void)e.run(w, server_machine(), {}));
  w.tasks.back().params = reservation(msec(910), sec(1));
  try {
    (void)e.run(w, server_machine(), {});
    ADD_FAILURE() << "expected an admission refusal";
  } catch (const workload_error& err) {
    EXPECT_NE(std::string(err.what()).find("task 'D'"), std::string::npos) << err.what();
  }
  EXPECT_NO_THROW((void)e.run(w, server_machine(0), {}));
  workload two = starved(2);
  two.duration = msec(100);
  for (const char* name : {"D1", "D2"}) {
    task_spec t = looping(name, {ev::run(sec(10))});
    t.params = reservation(msec(900), sec(1));
    two.tasks.push_back(t);
  }
  EXPECT_NO_THROW((void)e.run(two, server_machine(), {}));
  two.tasks.back().params = reservation(msec(910), sec(1));
  EXPECT_THROW((void)e.run(two, server_machine(), {}), workload_error);
}

// Linux 6.19's rules (machine_model::fair_server_rules; dl_server.hpp): the server is not
// stopped when the fair class empties, so a deadline it got earlier holds across a sleep. One
// CPU: F runs 1 ms every 100 ms from 0; R, a FIFO hog, arrives at 502 ms, 1 ms after F fell
// asleep.
// - 6.19: each wake on the idle CPU charges the 99 ms idle to the still-active server and
//   pushes its period (at 500: d = 1500, q = 50, timer 1450); F's run takes q to 49, the idle
//   millisecond before R to 48. At 600 F wakes behind R. At 1450 the zero-laxity instant has
//   moved by more than 1 ms (d - q = 1452): the timer moves there; at 1452, 48/48 overflows:
//   d = 2452, q = 50, F runs 1452-1453 (wait 852 ms). An empty pick stops the server; F wakes
//   at 1552, 49 ms left by 2452 overflows 50/1000: a fresh period, zero laxity at 2502 (wait
//   950 ms).
// - 6.12: each sleep stops the server, which F's next wake restarts; its idle charge stops at
//   q = 0 and its run then starts a fresh period (d = 1501 after the run at 500). At 600, 49 ms
//   (1 ms idle before R) over 901 overflows: d = 1600, F runs at 1550 (wait 950 ms), and again
//   at 2600 (wait 950 ms).
// Both give F 8 ms; only the first wait behind R differs. A fair hog is served the same 150 ms
// under both rules.
TEST(SimFairServer, Rules619_TheServerOutlivesASleepAndKeepsItsDeadline) {
  workload w;
  w.name = "fair-server-6.19";
  w.cpus = 1;
  w.duration = sec(3);
  w.tasks.push_back(looping("F", {ev::run(msec(1)), ev::sleep(msec(99))}));
  task_spec r = looping("R", {ev::run(sec(10))});
  r.params = fifo(50);
  r.delay = msec(502);
  w.tasks.push_back(r);
  const auto long_waits = [](const run_result& res) {
    std::vector<std::int64_t> out;
    for (std::int64_t v : find(res, "F").latency_samples)
      if (v > 0) out.push_back(v);
    return out;
  };
  for (const policy_entry& e : {schedcore_test::ref_dl_entry(), schedcore_test::cfs_dl_entry()}) {
    SCOPED_TRACE(e.name);
    run_config late = server_machine();
    late.keep_samples = true;
    late.machine.fair_server_rules = server_rules::linux_6_19;
    const run_result a = e.run(w, late, {});
    EXPECT_EQ(find(a, "F").cpu_ns, msec(8));
    EXPECT_EQ(long_waits(a), (std::vector<std::int64_t>{msec(852), msec(950)}));
    schedcore_test::expect_conserved(a);
    run_config early = server_machine();
    early.keep_samples = true;
    const run_result b = e.run(w, early, {});
    EXPECT_EQ(find(b, "F").cpu_ns, msec(8));
    EXPECT_EQ(long_waits(b), (std::vector<std::int64_t>{msec(950), msec(950)}));
    // The common case is the same under both: a starved fair hog gets 50 ms per second.
    EXPECT_EQ(find(e.run(starved(1), late, {}), "F0").cpu_ns, msec(150));
  }
}

// 6.19: a fair task and a FIFO hog wake at the same instant on a CPU that idled longer than the
// server's runtime. F runs 1 ms at 0 (q = 49 ms) and sleeps 100 ms; at 101 ms R arrives, then
// F wakes (the engine's order at one instant). R is picked first: the 100 ms of idle charged
// then, with R queued, is run time (idle_rq), which empties q of the still-active, deferred
// server and pushes its activation (d = 1101 ms, timer 1051 ms). F's wake starts the active
// server: nothing changes. At 1051 ms F is served until q runs out: 51 ms in 1.2 s, longest
// wait 950 ms. 6.12 charges the idle 100 ms at F's enqueue down to q = 0 and keeps d = 1000:
// F runs 1000-1050, waiting 899 ms.
TEST(SimFairServer, Rules619_AFairTaskWokenWithAnRtHogAfterLongIdleIsStillServed) {
  workload w;
  w.name = "fair-server-wake-together";
  w.cpus = 1;
  w.duration = msec(1200);
  task_spec f;
  f.name = "F";
  phase p;
  p.events = {ev::run(msec(1)), ev::sleep(msec(100)), ev::run(sec(10))};
  f.phases.push_back(p);
  f.daemon = true;
  w.tasks.push_back(f);
  task_spec r = looping("R", {ev::run(sec(10))});
  r.params = fifo(50);
  r.delay = msec(101);
  w.tasks.push_back(r);
  for (const policy_entry& e : {schedcore_test::ref_dl_entry(), schedcore_test::cfs_dl_entry()}) {
    SCOPED_TRACE(e.name);
    run_config late = server_machine();
    late.machine.fair_server_rules = server_rules::linux_6_19;
    const run_result a = e.run(w, late, {});
    EXPECT_EQ(find(a, "F").cpu_ns, msec(51));
    EXPECT_EQ(find(a, "F").max_wait_ns, msec(950));
    const run_result b = e.run(w, server_machine(), {});
    EXPECT_EQ(find(b, "F").cpu_ns, msec(51));
    EXPECT_EQ(find(b, "F").max_wait_ns, msec(899));
  }
}

TEST(SimFairServer, ImpossibleSettingsAreUsageErrors) {
  const workload w = starved(1);
  const policy_entry e = schedcore_test::cfs_dl_entry();
  EXPECT_THROW((void)e.run(w, server_machine(sec(2), sec(1)), {}), usage_error);
  EXPECT_THROW((void)e.run(w, server_machine(-1, sec(1)), {}), usage_error);
  EXPECT_THROW((void)e.run(w, server_machine(usec(10), usec(99)), {}), usage_error);
  EXPECT_THROW((void)e.run(w, server_machine(msec(1), usec((std::int64_t{1} << 22) + 1)), {}), usage_error);
  EXPECT_NO_THROW((void)e.run(w, server_machine(usec(100), msec(1)), {}));
  run_config bad_rules = server_machine();
  bad_rules.machine.fair_server_rules = static_cast<server_rules>(7);
  EXPECT_THROW((void)e.run(w, bad_rules, {}), usage_error);
  // The server's bandwidth must fit the admission bound (95 % of the CPU): all of it does not.
  EXPECT_THROW((void)e.run(w, server_machine(usec(100), usec(100)), {}), usage_error);
  // A stack with no deadline class has no place for the server.
  EXPECT_THROW((void)schedcore_test::cfs_entry().run(w, server_machine(), {}), usage_error);
  EXPECT_NO_THROW((void)schedcore_test::cfs_entry().run(w, server_machine(0), {}));
}

}  // namespace
