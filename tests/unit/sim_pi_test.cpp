// schedsim's priority-inheritance mutexes (workload::priority_inheritance, rt-app's global
// pi_enabled; engine.hpp, "priority inheritance"): the classic unbounded priority inversion
// and its cure, hand-timed on one CPU with no switch cost, under the cfs and eevdf stacks (rt
// over the fair class). Oracles: the rt_mutex rules of Documentation/locking/rt-mutex-design.rst
// (the owner runs at its top waiter's priority, along the chain; waiters by priority) and the
// timelines worked out by hand in each test.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim_entries.hpp"
#include "sim_results.hpp"
#include "schedcore/sim/registry.hpp"
#include "schedcore/sim/rtapp.hpp"

namespace {

using namespace schedcore;
using namespace schedcore::sim;
using schedcore_test::exact_machine;
using schedcore_test::expect_conserved;
using schedcore_test::fifo;
using schedcore_test::find;

// A task that starts at `delay` ms and runs `events` once, then exits.
task_spec once(const std::string& name, const sched_params& p, std::int64_t delay_ms, std::vector<event> events) {
  task_spec t;
  t.name = name;
  t.params = p;
  t.delay = msec(delay_ms);
  t.loop = 1;
  phase ph;
  ph.events = std::move(events);
  t.phases.push_back(ph);
  return t;
}
event lock(const char* m) { return ev::on(event_kind::lock, m); }
event unlock(const char* m) { return ev::on(event_kind::unlock, m); }
// The medium-priority hog that starves the lock's owner: SCHED_FIFO 50 for `ms`.
task_spec hog(std::int64_t delay_ms, std::int64_t ms) { return once("medium", fifo(50), delay_ms, {ev::run(msec(ms))}); }

std::vector<policy_entry> stacks() { return {schedcore_test::cfs_entry(), schedcore_test::eevdf_entry()}; }

run_result run(const policy_entry& e, workload w, bool pi, const std::vector<knob_setting>& knobs = {}) {
  w.name = "pi";
  w.duration = sec(1);
  w.priority_inheritance = pi;
  const run_result r = e.run(w, exact_machine(), knobs);
  expect_conserved(r);
  return r;
}

// Mars Pathfinder's inversion: low (the owner) holds the mutex for 10 ms of work, high
// (SCHED_FIFO 90) asks for it at 1 ms, medium (SCHED_FIFO 50) starts a 100 ms run at 2 ms.
// Without PI medium preempts low, and high waits for both: low resumes at 102 ms, unlocks at
// 110, high runs 1 ms and exits at 111 ms. With PI low runs at high's priority from 1 ms:
// unlock at 10 ms (its last step: it exits there), high exits at 11 ms, medium runs after,
// to 111 ms. The same whether the owner is
// SCHED_FIFO 10 (its priority raised) or SCHED_OTHER (it joins the RT class while it lends),
// and at the end low reports its own policy.
TEST(SimPi, TheOwnerRunsAtItsWaitersPriorityAboveTheMediumHog) {
  sched_params other;
  for (const policy_entry& e : stacks()) {
    for (const sched_params& own : {fifo(10), other}) {
      workload w;
      w.tasks = {once("low", own, 0, {lock("m"), ev::run(msec(10)), unlock("m")}),
                 once("high", fifo(90), 1, {lock("m"), ev::run(msec(1)), unlock("m")}), hog(2, 100)};
      const std::string what = e.name + (own.kind == sched_kind::fifo ? " fifo owner" : " fair owner");
      const run_result off = run(e, w, false), on = run(e, w, true);
      EXPECT_EQ(find(off, "high").exit_ns, msec(111)) << what;
      EXPECT_EQ(find(off, "low").exit_ns, msec(110)) << what;
      EXPECT_EQ(find(on, "high").exit_ns, msec(11)) << what;
      EXPECT_EQ(find(on, "low").exit_ns, msec(10)) << what;
      EXPECT_EQ(find(on, "medium").exit_ns, msec(111)) << what;
      EXPECT_EQ(find(on, "low").kind, own.kind == sched_kind::fifo ? "fifo" : "normal") << what;
      EXPECT_EQ(find(on, "low").rt_priority, own.rt_priority) << what;
    }
  }
}

// The boost follows the chain: low (SCHED_OTHER) holds m1; mid (SCHED_FIFO 20) takes m2 and
// waits for m1 at 1 ms; high (SCHED_FIFO 90) waits for m2 at 2 ms; the 100 ms hog starts at 3.
// With PI, high's priority passes through mid to low: low finishes its 10 ms at 10 ms, mid runs
// 1 ms with both mutexes (it exits at 11 ms), high 1 ms: exit at 12 ms. Without, low has done
// 3 ms when the hog
// starts and resumes at 103 ms: high exits at 112 ms.
TEST(SimPi, TheBoostFollowsTheChainOfOwners) {
  for (const policy_entry& e : stacks()) {
    workload w;
    w.tasks = {once("low", sched_params{}, 0, {lock("m1"), ev::run(msec(10)), unlock("m1")}),
               once("mid", fifo(20), 1, {lock("m2"), lock("m1"), ev::run(msec(1)), unlock("m1"), unlock("m2")}),
               once("high", fifo(90), 2, {lock("m2"), ev::run(msec(1)), unlock("m2")}), hog(3, 100)};
    const run_result off = run(e, w, false), on = run(e, w, true);
    EXPECT_EQ(find(off, "high").exit_ns, msec(112)) << e.name;
    EXPECT_EQ(find(on, "low").exit_ns, msec(10)) << e.name;
    EXPECT_EQ(find(on, "high").exit_ns, msec(12)) << e.name;
    EXPECT_EQ(find(on, "mid").exit_ns, msec(11)) << e.name;
    EXPECT_EQ(find(on, "medium").exit_ns, msec(112)) << e.name;
  }
}

// An owner boosted while it waits in its CPU's queue preempts the task running there: low
// (SCHED_OTHER) holds the mutex and has run 2 ms when the hog (20 ms) preempts it; high asks at
// 5 ms. With PI low, queued, runs at once at 90: 8 ms to its unlock at 13, high exits at 14.
// Without, the hog ends at 22, low at 30, high at 31. With PI the hog, preempted from 5 to
// 14 ms, ends at 31.
TEST(SimPi, AQueuedOwnerBoostedPreemptsItsCpu) {
  for (const policy_entry& e : stacks()) {
    workload w;
    w.tasks = {once("low", sched_params{}, 0, {lock("m"), ev::run(msec(10)), unlock("m")}),
               once("high", fifo(90), 5, {lock("m"), ev::run(msec(1)), unlock("m")}), hog(2, 20)};
    const run_result off = run(e, w, false), on = run(e, w, true);
    EXPECT_EQ(find(off, "high").exit_ns, msec(31)) << e.name;
    EXPECT_EQ(find(on, "high").exit_ns, msec(14)) << e.name;
    EXPECT_EQ(find(on, "medium").exit_ns, msec(31)) << e.name;
  }
}

// An owner boosted while it sleeps holding the mutex wakes at the boosted priority: low
// (SCHED_OTHER) locks, runs 1 ms, sleeps 5 ms, runs 2 ms and unlocks; high asks at 2 ms, the
// hog starts at 3. With PI low preempts the hog at its wakeup (6 ms) and unlocks at 8: high
// exits at 9 (low at 8). Without, low waits for the hog (103 ms): high exits at 106.
TEST(SimPi, AnOwnerBoostedAsleepWakesBoosted) {
  for (const policy_entry& e : stacks()) {
    workload w;
    w.tasks = {once("low", sched_params{}, 0, {lock("m"), ev::run(msec(1)), ev::sleep(msec(5)), ev::run(msec(2)), unlock("m")}),
               once("high", fifo(90), 2, {lock("m"), ev::run(msec(1)), unlock("m")}), hog(3, 100)};
    const run_result off = run(e, w, false), on = run(e, w, true);
    EXPECT_EQ(find(off, "high").exit_ns, msec(106)) << e.name;
    EXPECT_EQ(find(on, "high").exit_ns, msec(9)) << e.name;
    EXPECT_EQ(find(on, "low").exit_ns, msec(8)) << e.name;
  }
}

// An owner that EEVDF still holds asleep (DELAY_DEQUEUE: it slept ineligible) is boosted at its
// wakeup, as any sleeper: low (SCHED_OTHER) shares the CPU with another fair hog, does 3.3 ms of
// work under the mutex (done at 6.3 ms), sleeps 10 ms, works 2 ms more and unlocks; high
// (FIFO 90) asks at 8 ms, the FIFO 50 hog starts at 9. With PI low wakes at 16.3 ms at high's
// priority, unlocks at 18.3, high exits at 19.3 ms, with or without DELAY_DEQUEUE. Without PI
// low waits for the hog: high exits after 110 ms.
TEST(SimPi, AnOwnerItsClassStillHoldsAsleepIsBoostedAtItsWakeup) {
  const policy_entry e = schedcore_test::eevdf_entry();
  workload w;
  w.tasks = {once("low", sched_params{}, 0, {lock("m"), ev::run(usec(3300)), ev::sleep(msec(10)), ev::run(msec(2)), unlock("m")}),
             once("other", sched_params{}, 0, {ev::run(msec(300))}), once("high", fifo(90), 8, {lock("m"), ev::run(msec(1)), unlock("m")}),
             hog(9, 100)};
  for (const std::int64_t delay : {1, 0}) {
    const std::vector<knob_setting> k = {{"delay_dequeue", delay}};
    EXPECT_EQ(find(run(e, w, true, k), "high").exit_ns, usec(19300)) << "delay_dequeue " << delay;
    EXPECT_GT(find(run(e, w, false, k), "high").exit_ns, msec(110)) << "delay_dequeue " << delay;
  }
}

// Waiters queue by priority with PI (rt_mutex_waiter_less: real-time by priority, the others
// at DEFAULT_PRIO in arrival order), in arrival order without. low (SCHED_OTHER) locks, runs
// 1 ms and sleeps 5 ms holding the mutex; c and d (SCHED_OTHER) ask for it at 2 and 3 ms, a
// (FIFO 20) and b (FIFO 80) at 4 and 5; low runs its last 9 ms from 6 ms (alone: everyone else
// waits) and unlocks at 15. Each waiter holds it 1 ms and exits: with PI b, a, c, d at 16, 17,
// 18, 19 ms; without, c, d, a, b.
TEST(SimPi, WaitersTakeTheMutexByPriorityOnlyWithPi) {
  for (const policy_entry& e : stacks()) {
    workload w;
    const std::vector<event> critical = {lock("m"), ev::run(msec(1)), unlock("m")};
    w.tasks = {once("low", sched_params{}, 0, {lock("m"), ev::run(msec(1)), ev::sleep(msec(5)), ev::run(msec(9)), unlock("m")}),
               once("c", sched_params{}, 2, critical), once("d", sched_params{}, 3, critical), once("a", fifo(20), 4, critical),
               once("b", fifo(80), 5, critical)};
    const run_result off = run(e, w, false), on = run(e, w, true);
    const char* const order_off[] = {"c", "d", "a", "b"};
    const char* const order_on[] = {"b", "a", "c", "d"};
    for (int k = 0; k < 4; ++k) {
      EXPECT_EQ(find(off, order_off[k]).exit_ns, msec(16 + k)) << e.name << " without PI: " << order_off[k];
      EXPECT_EQ(find(on, order_on[k]).exit_ns, msec(16 + k)) << e.name << " with PI: " << order_on[k];
    }
    EXPECT_EQ(find(on, "low").exit_ns, msec(15)) << e.name;
  }
}

// examples/rt-app/priority-inversion.json, the Mars Pathfinder pattern on one CPU: the bus
// manager (FIFO 90, 0.5 ms with the bus mutex every 10 ms), meteo (FIFO 10, 4 ms with it every
// 50 ms), comms (FIFO 50, 40 ms every 100 ms, no mutex). With PI the bus manager waits at most
// one of meteo's critical sections: its slack never falls below 10 - 4 - 0.5 = 5.5 ms, and it
// keeps every period. Without, whenever comms preempts meteo inside its critical section the
// bus manager waits for comms' 40 ms too: it overruns, by up to 30 ms (40 ms of comms less a
// 10 ms period), and loses periods.
TEST(SimPi, TheExampleBusManagerKeepsEveryPeriodOnlyWithPi) {
  const workload pi = load_rtapp(schedcore_test::repo_root() + "/examples/rt-app/priority-inversion.json");
  ASSERT_TRUE(pi.priority_inheritance);
  workload plain = pi;
  plain.priority_inheritance = false;
  for (const policy_entry& e : stacks()) {
    const run_result on = e.run(pi, exact_machine(), {}), off = e.run(plain, exact_machine(), {});
    expect_conserved(on);
    expect_conserved(off);
    const task_result& a = find(on, "bus_manager-0");
    const task_result& b = find(off, "bus_manager-0");
    EXPECT_EQ(a.slack.overruns, 0u) << e.name;
    EXPECT_GE(a.slack.min, usec(5500)) << e.name;
    EXPECT_GE(a.slack.periods, 998u) << e.name;
    EXPECT_GE(b.slack.overruns, 90u) << e.name;
    EXPECT_LE(b.slack.min, -msec(29)) << e.name;
    EXPECT_GE(b.slack.min, -msec(30)) << e.name;
    EXPECT_LE(b.slack.periods, 700u) << e.name;
  }
}

// rt-app's global "pi_enabled" turns it on (it was a note before: accepted without effect).
TEST(SimPi, RtAppsPiEnabledMakesEveryMutexAPiMutex) {
  const std::string body = R"(, "tasks": {"t": {"lock": "m", "run": 1, "unlock": "m"}}})";
  EXPECT_TRUE(parse_rtapp(R"({"global": {"duration": 1, "pi_enabled": true})" + body).priority_inheritance);
  const workload off = parse_rtapp(R"({"global": {"duration": 1, "pi_enabled": false})" + body);
  EXPECT_FALSE(off.priority_inheritance);
  for (const std::string& n : off.notes) EXPECT_EQ(n.find("pi_enabled"), std::string::npos) << n;
  EXPECT_FALSE(parse_rtapp(R"({"global": {"duration": 1})" + body).priority_inheritance);
}

}  // namespace
