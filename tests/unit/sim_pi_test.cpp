// schedsim's priority-inheritance mutexes (workload::priority_inheritance, rt-app's global
// pi_enabled; engine.hpp, "priority inheritance"): the classic unbounded priority inversion
// and its cure, hand-timed on one CPU (two for the barging and stealing tests) with no switch cost, under the cfs and
// eevdf stacks (rt over the fair class; edf on top for deadline inheritance). Oracles: the rt_mutex rules of Documentation/locking/rt-mutex-design.rst
// (the owner runs at its top waiter's priority, along the chain; waiters by priority) and the
// timelines worked out by hand in each test.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim_entries.hpp"
#include "sim_results.hpp"
#include "schedcore/sim/registry.hpp"
#include "schedcore/sim/report.hpp"
#include "schedcore/sim/rtapp.hpp"

namespace {

using namespace schedcore;
using namespace schedcore::sim;
using schedcore_test::exact_machine;
using schedcore_test::expect_conserved;
using schedcore_test::fifo;
using schedcore_test::find;
using schedcore_test::reservation;

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

// Deadline inheritance (pi_se): stacks with edf on top, where a deadline waiter lends its
// reservation instead of a priority.
std::vector<policy_entry> dl_stacks() { return {schedcore_test::cfs_dl_entry(), schedcore_test::ref_dl_entry()}; }

// The inversion of the first test with a deadline task waiting (2 ms every 20 ms): without PI
// the hog preempts low at 2 ms and high exits at 111 ms. With PI low joins the deadline class on
// high's reservation at 1 ms (d = 21 ms, q = 2 ms), which the FIFO hog cannot preempt; its
// budget runs out at 3, 5, 7 and 9 ms and is replenished at once (never throttled), so it
// finishes its 10 ms at 10 ms, high runs 1 ms (exit at 11 ms) and the hog runs after, to
// 111 ms. The owner leaves the deadline class at its unlock: it reports its own policy.
TEST(SimPi, ADeadlineWaiterLendsItsReservationToTheOwner) {
  sched_params other;
  for (const policy_entry& e : dl_stacks()) {
    for (const sched_params& own : {fifo(10), other}) {
      workload w;
      w.tasks = {once("low", own, 0, {lock("m"), ev::run(msec(10)), unlock("m")}),
                 once("high", reservation(msec(2), msec(20)), 1, {lock("m"), ev::run(msec(1)), unlock("m")}), hog(2, 100)};
      const std::string what = e.description + (own.kind == sched_kind::fifo ? ", fifo owner" : ", fair owner");
      const run_result off = run(e, w, false), on = run(e, w, true);
      EXPECT_EQ(find(off, "high").exit_ns, msec(111)) << what;
      EXPECT_EQ(find(off, "low").exit_ns, msec(110)) << what;
      EXPECT_EQ(find(on, "low").exit_ns, msec(10)) << what;
      EXPECT_EQ(find(on, "high").exit_ns, msec(11)) << what;
      EXPECT_EQ(find(on, "medium").exit_ns, msec(111)) << what;
      EXPECT_EQ(find(on, "low").kind, own.kind == sched_kind::fifo ? "fifo" : "normal") << what;
    }
  }
}

// A deadline owner (2 ms every 100 ms) that holds the mutex for 5 ms of work is not throttled
// while a deadline waiter with an earlier deadline lends it its reservation. high (1 ms every
// 10 ms, 0.5 ms of work) wakes at 1 ms with d = 11 ms, preempts low (d = 100 ms), asks and
// waits. With PI low runs on high's reservation: its own 1 ms left, then 1 ms budgets replenished
// at once (d += 10 ms), to its unlock at 5 ms; high exits at 5.5 ms. Without PI low is throttled
// at 2 ms until 100 ms, runs 100-102 ms, is throttled to 200 ms and unlocks at 201: high exits at
// 201.5 ms. A waiter with a later deadline (1 ms every 400 ms, d = 401 ms, so it runs only when
// low is throttled at 2 ms) lends nothing: high exits at 201.5 ms either way.
TEST(SimPi, ADeadlineOwnerRunsOnAnEarlierWaitersReservation) {
  for (const policy_entry& e : dl_stacks()) {
    for (const std::int64_t high_period : {msec(10), msec(400)}) {
      workload w;
      w.tasks = {once("low", reservation(msec(2), msec(100)), 0, {lock("m"), ev::run(msec(5)), unlock("m")}),
                 once("high", reservation(msec(1), high_period), 1, {lock("m"), ev::run(usec(500)), unlock("m")})};
      const std::string what = e.description + ", high's period " + std::to_string(high_period / msec(1)) + " ms";
      const run_result off = run(e, w, false), on = run(e, w, true);
      EXPECT_EQ(find(off, "low").exit_ns, msec(201)) << what;
      EXPECT_EQ(find(off, "high").exit_ns, usec(201500)) << what;
      const bool lends = high_period == msec(10);
      EXPECT_EQ(find(on, "low").exit_ns, lends ? msec(5) : msec(201)) << what;
      EXPECT_EQ(find(on, "high").exit_ns, lends ? usec(5500) : usec(201500)) << what;
      EXPECT_EQ(find(on, "low").kind, "deadline") << what;
    }
  }
}

// The chain of the second test with a deadline task at its head: low (SCHED_OTHER) holds m1,
// mid (FIFO 20) takes m2 and waits for m1 at 1 ms (low runs at FIFO 20), high (1 ms every 10 ms)
// waits for m2 at 2 ms and works 0.5 ms: mid, asleep, joins the deadline class on high's
// reservation and lends it on to low, which the hog starting at 3 ms cannot preempt. low unlocks
// at 10 ms, mid runs 1 ms on the reservation (its 1 ms budget spent at 11 ms is replenished at
// once) and exits at 11 ms, back in SCHED_FIFO; high exits at 11.5 ms, the hog runs to
// 111.5 ms. Without PI the hog runs 3-103 ms, low 103-110, mid 110-111: high exits at 111.5 ms.
TEST(SimPi, ADeadlineBoostFollowsTheChainOfOwners) {
  for (const policy_entry& e : dl_stacks()) {
    workload w;
    w.tasks = {once("low", sched_params{}, 0, {lock("m1"), ev::run(msec(10)), unlock("m1")}),
               once("mid", fifo(20), 1, {lock("m2"), lock("m1"), ev::run(msec(1)), unlock("m1"), unlock("m2")}),
               once("high", reservation(msec(1), msec(10)), 2, {lock("m2"), ev::run(usec(500)), unlock("m2")}), hog(3, 100)};
    const run_result off = run(e, w, false), on = run(e, w, true);
    EXPECT_EQ(find(off, "high").exit_ns, usec(111500)) << e.description;
    EXPECT_EQ(find(on, "low").exit_ns, msec(10)) << e.description;
    EXPECT_EQ(find(on, "mid").exit_ns, msec(11)) << e.description;
    EXPECT_EQ(find(on, "high").exit_ns, usec(11500)) << e.description;
    EXPECT_EQ(find(on, "medium").exit_ns, usec(111500)) << e.description;
    EXPECT_EQ(find(on, "mid").kind, "fifo") << e.description;
  }
}

// A deadline waiter's reservation comes before a real-time waiter's priority, and the owner
// falls back to the priority when the reservation leaves. low (SCHED_OTHER) takes m1 and m2 and
// works 5 ms, unlocks m1, works 5 ms more and unlocks m2; rt (FIFO 90) waits for m2 at 1 ms, dl
// (2 ms every 20 ms, 0.5 ms of work) for m1 at 2 ms, a FIFO 95 hog runs 100 ms from 3 ms. With
// PI low runs at FIFO 90 from 1 ms and on dl's reservation from 2 ms, above the hog, to its 5 ms
// at 5 ms; at the unlock of m1 it drops to FIFO 90 (rt still waits), dl runs to 5.5 ms, the hog
// takes the CPU to 105.5 ms, low unlocks m2 at 110.5 and rt exits at 111.5 ms. Without PI the
// hog runs from 3 ms, low resumes at 103 and unlocks m1 at 105: dl exits at 105.5 ms; rt at
// 111.5 ms either way.
TEST(SimPi, TheOwnerFallsBackFromAReservationToAPriority) {
  for (const policy_entry& e : dl_stacks()) {
    workload w;
    w.tasks = {once("low", sched_params{}, 0,
                    {lock("m1"), lock("m2"), ev::run(msec(5)), unlock("m1"), ev::run(msec(5)), unlock("m2")}),
               once("rt", fifo(90), 1, {lock("m2"), ev::run(msec(1)), unlock("m2")}),
               once("dl", reservation(msec(2), msec(20)), 2, {lock("m1"), ev::run(usec(500)), unlock("m1")}),
               once("medium", fifo(95), 3, {ev::run(msec(100))})};
    const run_result off = run(e, w, false), on = run(e, w, true);
    EXPECT_EQ(find(off, "dl").exit_ns, usec(105500)) << e.description;
    EXPECT_EQ(find(off, "rt").exit_ns, usec(111500)) << e.description;
    EXPECT_EQ(find(on, "dl").exit_ns, usec(5500)) << e.description;
    EXPECT_EQ(find(on, "medium").exit_ns, usec(105500)) << e.description;
    EXPECT_EQ(find(on, "low").exit_ns, usec(110500)) << e.description;
    EXPECT_EQ(find(on, "rt").exit_ns, usec(111500)) << e.description;
  }
}

// An owner that changes its own parameters while a reservation is lent keeps the reservation
// (__sched_setscheduler keeps a PI boost in force) and takes them back at the unlock: low
// (SCHED_OTHER) locks, works 3 ms, renices itself to 5 (at 3 ms) and asks for SCHED_FIFO 10 (at
// 4 ms) between 1 ms steps, works 1.5 ms more and unlocks; high (2 ms every 20 ms, 0.5 ms of work)
// waits from 1 ms, a FIFO 50 hog runs 100 ms from 2 ms, and a 16 ms / 20 ms reservation that
// works 1 ms starts at 5 ms: admitted beside high's 0.1 (0.9 <= 0.95), as the lent reservation
// adds no bandwidth. With PI low stays on high's reservation through both changes (its period
// taken again at 4 ms: d = 24 ms, before the new task's 25 ms), unlocks at 5.5 ms; the new task
// runs to 6.5 ms (high's wakeup at 5.5 ms overflows: 2/15.5 > 2/20, d = 25.5 ms), high exits at
// 7 ms, and low ends in SCHED_FIFO 10. Without PI the hog preempts low at 2 ms, the new task
// preempts the hog at 5 ms (the hog ends at 103), low unlocks at 106.5: high exits at 107 ms.
TEST(SimPi, AnOwnChangeUnderALentReservationKeepsIt) {
  for (const policy_entry& e : dl_stacks()) {
    workload w;
    w.tasks = {once("low", sched_params{}, 0,
                    {lock("m"), ev::run(msec(3)), ev::set_nice(5), ev::run(msec(1)), ev::set_policy(fifo(10)),
                     ev::run(usec(1500)), unlock("m")}),
               once("high", reservation(msec(2), msec(20)), 1, {lock("m"), ev::run(usec(500)), unlock("m")}), hog(2, 100),
               once("late", reservation(msec(16), msec(20)), 5, {ev::run(msec(1))})};
    const run_result off = run(e, w, false), on = run(e, w, true);
    EXPECT_EQ(find(off, "high").exit_ns, msec(107)) << e.description;
    EXPECT_EQ(find(on, "low").exit_ns, usec(5500)) << e.description;
    EXPECT_EQ(find(on, "late").exit_ns, usec(6500)) << e.description;
    EXPECT_EQ(find(on, "high").exit_ns, msec(7)) << e.description;
    EXPECT_EQ(find(on, "low").kind, "fifo") << e.description;
    EXPECT_EQ(find(on, "low").rt_priority, 10) << e.description;
  }
}

// The trace has the kernel's sched_pi_setprio line for each boost and deboost, from the task
// that blocks on or releases the mutex, on ftrace's priority scale: in the first test's
// inversion the SCHED_OTHER owner goes from 120 to 9 (FIFO 90) at 1 ms and back at its unlock at
// 10 ms; with a deadline waiter, from 120 to -1 and back.
TEST(SimPi, TheTraceShowsEachBoostAndDeboost) {
  for (const bool deadline_waiter : {false, true}) {
    workload w;
    const sched_params waiter = deadline_waiter ? reservation(msec(2), msec(20)) : fifo(90);
    w.tasks = {once("low", sched_params{}, 0, {lock("m"), ev::run(msec(10)), unlock("m")}),
               once("high", waiter, 1, {lock("m"), ev::run(msec(1)), unlock("m")}), hog(2, 100)};
    w.name = "pi";
    w.duration = sec(1);
    w.priority_inheritance = true;
    run_config c = exact_machine();
    trace_writer trace;
    c.trace = &trace;
    (void)schedcore_test::cfs_dl_entry().run(w, c, {});
    const std::string boosted = deadline_waiter ? "-1" : "9";
    const std::string& text = trace.text();
    // Each line: "<comm>-<pid> [cpu] flags time: sched_pi_setprio: comm=low pid=P oldprio=.. newprio=..".
    const auto line_at = [&](const std::string& when) {
      const std::size_t at = text.find(when + ": sched_pi_setprio: comm=low pid=");
      if (at == std::string::npos) return std::string();
      const std::size_t from = text.rfind('\n', at) + 1;
      return text.substr(from, text.find('\n', at) - from);
    };
    const std::string up = line_at("0.001000"), down = line_at("0.010000");
    EXPECT_NE(up.find(" oldprio=120 newprio=" + boosted), std::string::npos) << up;
    EXPECT_EQ(up.find_first_not_of(' '), up.find("high-")) << "traced by the task that blocks: " << up;
    EXPECT_NE(down.find(" oldprio=" + boosted + " newprio=120"), std::string::npos) << down;
    EXPECT_EQ(down.find_first_not_of(' '), down.find("low-")) << "traced by the task that unlocks: " << down;
    std::size_t lines = 0;
    for (std::size_t at = text.find("sched_pi_setprio"); at != std::string::npos; at = text.find("sched_pi_setprio", at + 1)) ++lines;
    EXPECT_EQ(lines, 2u);
  }
}

// A lock that would close a cycle of owners: a PI futex's lock walks the whole chain
// (futex_lock_pi with RT_MUTEX_FULL_CHAINWALK) and fails with EDEADLK, and rt-app, which does
// not look at pthread_mutex_lock's result, goes on without the mutex; a plain mutex deadlocks.
// - a (FIFO 10) locks m, runs 1 ms and locks m again: with PI it goes on and exits at 2 ms;
//   without, it waits for itself forever.
// - a locks m1 and runs 2 ms; b (FIFO 20) arrives at 1 ms, locks m2 and waits for m1, which
//   lends a FIFO 20; a asks for m2 at 2 ms, held by b, which waits for a: refused, a runs its
//   last 1 ms, its unlock of m2 is ignored (not the owner), m1 goes to b at 3 ms; b runs 1 ms
//   and exits at 4 ms. Without PI both wait forever from 2 ms.
TEST(SimPi, ALockThatWouldCloseACycleFailsWithPiAndDeadlocksWithout) {
  for (const policy_entry& e : stacks()) {
    workload self;
    self.tasks = {once("a", fifo(10), 0, {lock("m"), ev::run(msec(1)), lock("m"), ev::run(msec(1)), unlock("m")})};
    const run_result self_on = run(e, self, true), self_off = run(e, self, false);
    EXPECT_EQ(find(self_on, "a").exit_ns, msec(2)) << e.name;
    EXPECT_EQ(self_on.totals.pi_deadlocks, 1u) << e.name;
    EXPECT_EQ(find(self_off, "a").exit_ns, -1) << e.name << ": a plain mutex deadlocks";
    EXPECT_EQ(self_off.totals.pi_deadlocks, 0u) << e.name;
    workload pair;
    pair.tasks = {once("a", fifo(10), 0, {lock("m1"), ev::run(msec(2)), lock("m2"), ev::run(msec(1)), unlock("m2"), unlock("m1")}),
                  once("b", fifo(20), 1, {lock("m2"), lock("m1"), ev::run(msec(1)), unlock("m1"), unlock("m2")})};
    const run_result on = run(e, pair, true), off = run(e, pair, false);
    EXPECT_EQ(find(on, "a").exit_ns, msec(3)) << e.name;
    EXPECT_EQ(find(on, "b").exit_ns, msec(4)) << e.name;
    EXPECT_EQ(on.totals.pi_deadlocks, 1u) << e.name;
    EXPECT_EQ(find(off, "a").exit_ns, -1) << e.name;
    EXPECT_EQ(find(off, "b").exit_ns, -1) << e.name;
  }
}

// An owner that exits holding mutexes (a program error). The kernel unlocks each PI futex of
// the exiting task that has waiters (exit_pi_state_list): with PI the top waiter takes it and
// goes on. A PI mutex without waiters then, and any plain mutex, stays taken: glibc parks a
// later PI locker that finds its owner gone (ESRCH), and a plain one waits on the futex forever.
// Each exit holding a mutex is noted. a (FIFO 10) locks m and n and runs 2 ms, then exits; b
// (FIFO 20) asks for m at 1 ms (and blocks at once: a runs on), takes it at 2 ms with PI, runs
// 1 ms and exits at 3 ms; c asks for n at 5 ms and never gets it.
TEST(SimPi, AnOwnerThatExitsHoldingAPiMutexHandsItToItsTopWaiter) {
  for (const policy_entry& e : stacks()) {
    workload w;
    w.tasks = {once("a", fifo(10), 0, {lock("m"), lock("n"), ev::run(msec(2))}),
               once("b", fifo(20), 1, {lock("m"), ev::run(msec(1)), unlock("m")}),
               once("c", fifo(30), 5, {lock("n"), ev::run(msec(1)), unlock("n")})};
    const run_result on = run(e, w, true), off = run(e, w, false);
    EXPECT_EQ(find(on, "a").exit_ns, msec(2)) << e.name;
    EXPECT_EQ(find(on, "b").exit_ns, msec(3)) << e.name << ": b takes m at a's exit";
    EXPECT_EQ(find(on, "c").exit_ns, -1) << e.name << ": n had no waiter at a's exit: it stays the dead owner's";
    EXPECT_EQ(find(off, "b").exit_ns, -1) << e.name << ": a plain mutex stays taken";
    EXPECT_EQ(find(off, "c").exit_ns, -1) << e.name;
    const auto noted = [](const run_result& r, const std::string& what) {
      for (const std::string& n : r.notes)
        if (n.find(what) != std::string::npos) return true;
      return false;
    };
    EXPECT_TRUE(noted(on, "task 'a' exited at 2000000 ns holding mutex 'm': its top waiter takes it"))
        << e.name;
    EXPECT_TRUE(noted(on, "holding mutex 'n': it stays taken, and 0 waiting")) << e.name;
    EXPECT_TRUE(noted(off, "holding mutex 'm': it stays taken, and 1 waiting")) << e.name;
  }
}

// Real-time waiters go first, by priority, with PI or without: rt_mutex_waiter_less puts them
// ahead of every other task (DEFAULT_PRIO, arrival order), and so does a plain futex, which
// queues its waiters by min(normal_prio, MAX_RT_PRIO) (__futex_queue: "all RT-threads are woken
// first in priority order, and the others are woken last, in FIFO order"). low (SCHED_OTHER)
// locks, runs 1 ms and sleeps 5 ms holding the mutex; c and d (SCHED_OTHER) ask for it at 2 and
// 3 ms, a (FIFO 20) and b (FIFO 80) at 4 and 5; low runs its last 9 ms from 6 ms (alone:
// everyone else waits) and unlocks at 15. Each waiter holds it 1 ms and exits: b, a, c, d at
// 16, 17, 18, 19 ms either way (arrival order would be c, d, a, b).
TEST(SimPi, RealTimeWaitersTakeTheMutexFirstWithOrWithoutPi) {
  for (const policy_entry& e : stacks()) {
    workload w;
    const std::vector<event> critical = {lock("m"), ev::run(msec(1)), unlock("m")};
    w.tasks = {once("low", sched_params{}, 0, {lock("m"), ev::run(msec(1)), ev::sleep(msec(5)), ev::run(msec(9)), unlock("m")}),
               once("c", sched_params{}, 2, critical), once("d", sched_params{}, 3, critical), once("a", fifo(20), 4, critical),
               once("b", fifo(80), 5, critical)};
    const run_result off = run(e, w, false), on = run(e, w, true);
    const char* const order[] = {"b", "a", "c", "d"};
    for (int k = 0; k < 4; ++k) {
      EXPECT_EQ(find(off, order[k]).exit_ns, msec(16 + k)) << e.name << " without PI: " << order[k];
      EXPECT_EQ(find(on, order[k]).exit_ns, msec(16 + k)) << e.name << " with PI: " << order[k];
    }
    EXPECT_EQ(find(on, "low").exit_ns, msec(15)) << e.name;
    EXPECT_EQ(find(off, "low").exit_ns, msec(15)) << e.name;
  }
}

// A POSIX semaphore wakes its waiters in futex order too (glibc's sem_wait sleeps on a futex;
// sem_post's FUTEX_WAKE takes the first of its plist): deadline waiters in arrival order,
// whatever their deadlines, then RT by priority, then the rest in arrival order. c, d
// (SCHED_OTHER), a (FIFO 20), b (FIFO 80), e1 (2 ms every 100 ms), e2 (2 ms every 20 ms: the
// earlier deadline) each sem_wait at 1..6 ms, run 1 ms and exit; the poster (FIFO 99) posts one
// unit every 2 ms from 7 ms on an absolute timer, so each woken waiter runs alone: e1, e2, b, a,
// c, d exit at 8, 10, ..., 18 ms. Arrival order would be c, d, a, b, e1, e2; deadline order e2
// first. No unit is left and nobody waits at the end.
TEST(SimPi, SemaphoreWaitersWakeInFutexOrder) {
  for (const policy_entry& e : dl_stacks()) {
    workload w;
    const std::vector<event> take = {ev::on(event_kind::sem_wait, "s"), ev::run(msec(1))};
    task_spec poster = once("poster", fifo(99), 0, {ev::anchored_timer("t", msec(2), msec(5)), ev::on(event_kind::sem_post, "s")});
    poster.phases[0].loop = 6;
    w.tasks = {poster,
               once("c", sched_params{}, 1, take),
               once("d", sched_params{}, 2, take),
               once("a", fifo(20), 3, take),
               once("b", fifo(80), 4, take),
               once("e1", reservation(msec(2), msec(100)), 5, take),
               once("e2", reservation(msec(2), msec(20)), 6, take)};
    const run_result r = run(e, w, false);
    const char* const order[] = {"e1", "e2", "b", "a", "c", "d"};
    for (int k = 0; k < 6; ++k) EXPECT_EQ(find(r, order[k]).exit_ns, msec(8 + 2 * k)) << e.name << ": " << order[k];
    ASSERT_EQ(r.semaphores.size(), 1u);
    EXPECT_EQ(r.semaphores[0].posts, 6u);
    EXPECT_EQ(r.semaphores[0].blocks, 6u);
    EXPECT_EQ(r.semaphores[0].count, 0);
    EXPECT_EQ(r.semaphores[0].waiters, 0u);
  }
}

// A condition variable wakes as glibc's (2.25+) does: a signal goes to G1, the waiters that
// were there when the previous group ran dry, and among them to the first of the futex's plist
// (futex order); later waiters join G2, which becomes G1 only once G1 is empty. Each waiter
// locks m, waits on cv, runs 1 ms holding m, unlocks and exits; c (SCHED_OTHER) waits at 1 ms,
// a (FIFO 20) at 2, b (FIFO 80) at 6; the signaller (FIFO 99) acts on an absolute timer.
// Signals at 5, 7, 9 ms: G1 = {c, a}: a first (6 ms); then c (8), although b waits with a
// higher priority, as b came after the switch; then G2 = {b} becomes G1 (10). Arrival order
// would be c, a, b; one priority-ordered queue a, b, c.
// A signal at 5 then a broadcast at 7: a at 6; the broadcast wakes c and b, and each relocks m
// when it runs (glibc's waiter wakes, then locks): b, the higher priority, first: b at 8, c at 9
// (a model that queued them on m in wake order, G1 first, would give c 8, b 9).
TEST(SimPi, ConditionWaitersWakeInFutexOrderWithinGlibcsGroups) {
  for (const policy_entry& e : stacks()) {
    const std::vector<event> waiter = {lock("m"), ev::cond(event_kind::wait, "cv", "m"), ev::run(msec(1)), unlock("m")};
    workload w;
    task_spec signaller = once("signaller", fifo(99), 0, {ev::anchored_timer("t", msec(2), msec(3)), ev::on(event_kind::signal, "cv")});
    signaller.phases[0].loop = 3;
    w.tasks = {signaller, once("c", sched_params{}, 1, waiter), once("a", fifo(20), 2, waiter), once("b", fifo(80), 6, waiter)};
    for (bool pi : {false, true}) {
      const run_result r = run(e, w, pi);
      EXPECT_EQ(find(r, "a").exit_ns, msec(6)) << e.name << " pi " << pi;
      EXPECT_EQ(find(r, "c").exit_ns, msec(8)) << e.name << " pi " << pi;
      EXPECT_EQ(find(r, "b").exit_ns, msec(10)) << e.name << " pi " << pi;
    }
    signaller.phases[0].loop = 1;
    signaller.phases.push_back(phase{"broadcast", 1, {ev::anchored_timer("t", msec(2), msec(3)), ev::on(event_kind::broadcast, "cv")}});
    w.tasks[0] = signaller;
    for (bool pi : {false, true}) {
      const run_result r = run(e, w, pi);
      EXPECT_EQ(find(r, "a").exit_ns, msec(6)) << e.name << " pi " << pi;
      EXPECT_EQ(find(r, "b").exit_ns, msec(8)) << e.name << " pi " << pi;
      EXPECT_EQ(find(r, "c").exit_ns, msec(9)) << e.name << " pi " << pi;
    }
  }
}

// A plain mutex is not handed over: glibc's unlock frees it and wakes the first waiter, which
// tries again when it runs, so a task that locks it first takes it (barging). A PI mutex goes
// to its top waiter: the looper, a fair task as the waiter is, ranks equal in rt_mutex order and
// may not steal it (next test). 2 CPUs, no switch cost: looper (pinned to CPU 0)
// runs 3 x {lock m, run 1 ms, unlock m}; waiter (CPU 1) asks for m at 0.5 ms, holds it 1 ms.
// Plain: at 1 and 2 ms the looper wakes the waiter and locks m again at once, before the waiter
// runs on the other CPU; its two retries fail (lock_retries 2), and it gets m when the looper
// exits at 3: exits at 4. PI: the looper's relock at 1 ms queues behind the woken waiter, which
// takes m when it runs and exits at 2; the looper exits at 4. When the woken waiter preempts the unlocker instead, the kernel switches to
// it at the return from FUTEX_WAKE and it takes the mutex first: one CPU, the looper as above,
// high (FIFO 50) asks at 0.5 ms (preempting it) and holds m 1 ms: high gets m at 1 and exits at
// 2 either way, the looper at 4 (if the looper barged in at 1, high would wait until 3).
TEST(SimPi, APlainMutexGoesToWhoeverLocksItFirstAPiMutexToItsTopWaiter) {
  for (const policy_entry& e : stacks()) {
    task_spec looper = once("looper", sched_params{}, 0, {lock("m"), ev::run(msec(1)), unlock("m")});
    looper.phases[0].loop = 3;
    looper.cpus = {0};
    task_spec waiter = once("waiter", sched_params{}, 0, {ev::sleep(usec(500)), lock("m"), ev::run(msec(1)), unlock("m")});
    waiter.cpus = {1};
    workload w;
    w.cpus = 2;
    w.tasks = {looper, waiter};
    const run_result plain = run(e, w, false), pi = run(e, w, true);
    EXPECT_EQ(find(plain, "looper").exit_ns, msec(3)) << e.name;
    EXPECT_EQ(find(plain, "waiter").exit_ns, msec(4)) << e.name;
    EXPECT_EQ(plain.totals.lock_retries, 2u) << e.name;
    EXPECT_NE(to_json(plain).find("\"lock_retries\": 2"), std::string::npos) << e.name;
    EXPECT_EQ(find(pi, "waiter").exit_ns, msec(2)) << e.name;
    EXPECT_EQ(find(pi, "looper").exit_ns, msec(4)) << e.name;
    EXPECT_EQ(pi.totals.lock_retries, 0u) << e.name;
    task_spec high = once("high", fifo(50), 0, {ev::sleep(usec(500)), lock("m"), ev::run(msec(1)), unlock("m")});
    looper.cpus.clear();
    w.cpus = 1;
    w.tasks = {looper, high};
    for (bool with_pi : {false, true}) {
      const run_result r = run(e, w, with_pi);
      EXPECT_EQ(find(r, "high").exit_ns, msec(2)) << e.name << " pi " << with_pi;
      EXPECT_EQ(find(r, "looper").exit_ns, msec(4)) << e.name << " pi " << with_pi;
      EXPECT_EQ(r.totals.lock_retries, 0u) << e.name << " pi " << with_pi;
    }
  }
}

// The window between a PI unlock and its woken top waiter's run, on 2 CPUs: owner (SCHED_OTHER,
// CPU 0) locks m, runs 1 ms, unlocks, runs 2 ms; waiter (FIFO 10, CPU 1) asks for m at 0.5 ms;
// blocker (FIFO 50, CPU 1) runs 0.9-2.9 ms, so the waiter, woken at 1, cannot run before 2.9.
workload steal_window() {
  task_spec owner = once("owner", sched_params{}, 0, {lock("m"), ev::run(msec(1)), unlock("m"), ev::run(msec(2))});
  owner.cpus = {0};
  task_spec waiter = once("waiter", fifo(10), 0, {ev::sleep(usec(500)), lock("m"), ev::run(msec(1)), unlock("m")});
  waiter.cpus = {1};
  task_spec blocker = once("blocker", fifo(50), 0, {ev::sleep(usec(900)), ev::run(msec(2))});
  blocker.cpus = {1};
  workload w;
  w.cpus = 2;
  w.tasks = {owner, waiter, blocker};
  return w;
}

// A PI mutex's unlock wakes its top waiter, which takes the mutex when it runs; until then a
// locker strictly before it in rt_mutex order steals it (try_to_take_rt_mutex, rt_mutex_steal;
// futex's fixup_pi_state_owner: "we stole the lock"), and the woken waiter sleeps again.
// steal_window() (no switch cost; the owner is boosted to FIFO 10 from 0.5 ms), and a stealer
// on CPU 0 that asks for m at 1.5 ms, preempting the owner, and holds it 1 ms.
// - stealer FIFO 30: it takes m at 1.5 and exits at 2.5 (one steal); the waiter takes m at 2.9
//   and exits at 3.9; the owner runs 1-1.5 and 2.5-4 and exits at 4. (Were m handed to the
//   waiter at the unlock, the stealer would wait for the waiter's 1 ms after 2.9: exit 4.9.)
// - stealer FIFO 10, equal to the waiter: no steal. It queues behind the waiter (nobody to
//   boost) and sleeps; the owner runs 1.5-3 and exits; the waiter unlocks at 3.9, the stealer
//   takes m and exits at 4.9.
// Without PI the unlock frees m: the FIFO 30 stealer takes it at 1.5 as a barging locker would,
// and the waiter's retry at 2.9 finds it free.
TEST(SimPi, AHigherPriorityLockerStealsAPiMutexFromItsWokenTopWaiter) {
  for (const policy_entry& e : stacks()) {
    for (int stealer_prio : {30, 10}) {
      task_spec stealer =
          once("stealer", fifo(stealer_prio), 0, {ev::sleep(usec(1500)), lock("m"), ev::run(msec(1)), unlock("m")});
      stealer.cpus = {0};
      workload w = steal_window();
      w.tasks.push_back(stealer);
      const std::string what = e.name + " stealer FIFO " + std::to_string(stealer_prio);
      const run_result r = run(e, w, true);
      EXPECT_EQ(find(r, "waiter").exit_ns, usec(3900)) << what;
      if (stealer_prio == 30) {
        EXPECT_EQ(find(r, "stealer").exit_ns, usec(2500)) << what;
        EXPECT_EQ(find(r, "owner").exit_ns, msec(4)) << what;
        EXPECT_EQ(r.totals.pi_steals, 1u) << what;
        EXPECT_NE(to_json(r).find("\"pi_steals\": 1"), std::string::npos) << what;
        const run_result plain = run(e, w, false);
        EXPECT_EQ(find(plain, "stealer").exit_ns, usec(2500)) << what;
        EXPECT_EQ(find(plain, "waiter").exit_ns, usec(3900)) << what;
        EXPECT_EQ(plain.totals.pi_steals, 0u) << what;
      } else {
        EXPECT_EQ(find(r, "stealer").exit_ns, usec(4900)) << what;
        EXPECT_EQ(find(r, "owner").exit_ns, msec(3)) << what;
        EXPECT_EQ(r.totals.pi_steals, 0u) << what;
        EXPECT_EQ(to_json(r).find("pi_steals"), std::string::npos) << what;
      }
    }
  }
}

// While the mutex has no owner (its woken top waiter has not run), a requeue that puts another
// waiter first wakes that one to try too (rt_mutex_adjust_prio_chain's exit condition 3, no
// owner to follow). steal_window(), and on CPU 0: second (FIFO 5) locks n at 0, sleeps 0.6
// ms, asks for m (it gets the CPU at 1 ms, when the owner's boost ends) and queues behind the
// woken waiter; booster (FIFO 60) asks for n at 1.5 ms: second, its owner, rises to 60 and to the head of
// m's queue, is woken, takes m, runs 1 ms and unlocks m and n at 2.5 ms (exit); booster takes n,
// runs 1 ms, exits at 3.5; the waiter takes m at 2.9, exits at 3.9; the owner runs 1-1.5 and
// 3.5-5 and exits at 5. (Were second left asleep, nothing could take m again.)
TEST(SimPi, AWaiterRequeuedFirstOfAnOwnerlessMutexIsWokenToTakeIt) {
  for (const policy_entry& e : stacks()) {
    task_spec second = once("second", fifo(5), 0, {lock("n"), ev::sleep(usec(600)), lock("m"), ev::run(msec(1)), unlock("m"), unlock("n")});
    second.cpus = {0};
    task_spec booster = once("booster", fifo(60), 0, {ev::sleep(usec(1500)), lock("n"), ev::run(msec(1)), unlock("n")});
    booster.cpus = {0};
    workload w = steal_window();
    w.tasks.push_back(second);
    w.tasks.push_back(booster);
    const run_result r = run(e, w, true);
    EXPECT_EQ(find(r, "second").exit_ns, usec(2500)) << e.name;
    EXPECT_EQ(find(r, "booster").exit_ns, usec(3500)) << e.name;
    EXPECT_EQ(find(r, "waiter").exit_ns, usec(3900)) << e.name;
    EXPECT_EQ(find(r, "owner").exit_ns, msec(5)) << e.name;
    EXPECT_EQ(r.totals.pi_steals, 0u) << e.name;
  }
}

// A semaphore's post does not hand its unit over either (glibc's sem_post adds a unit, then
// wakes a sleeper, which takes a unit when it runs): used as a lock, it barges as a plain mutex
// does. 2 CPUs, no switch cost: looper (CPU 0) posts once, then runs 3 x {sem_wait s, run 1 ms,
// sem_post s}; waiter (CPU 1) calls sem_wait at 0.5 ms and, with the unit, runs 1 ms and posts.
// At 1 and 2 ms the looper's post wakes the waiter and its next sem_wait takes the unit back
// before the waiter runs on the other CPU: two retries; the waiter gets the unit when the looper
// exits at 3 and exits at 4 (a hand-off would give waiter 2, looper 4). One CPU with a FIFO 50
// waiter instead: it preempts the poster, and the kernel switches to it at FUTEX_WAKE's return,
// so it takes the unit at 1 ms and exits at 2, the looper at 4, no retry.
TEST(SimPi, ASemaphoresUnitGoesToWhoeverWaitsFirstUnlessTheWokenWaiterPreempts) {
  for (const policy_entry& e : stacks()) {
    const event wait = ev::on(event_kind::sem_wait, "s"), post = ev::on(event_kind::sem_post, "s");
    task_spec looper = once("looper", sched_params{}, 0, {post});
    looper.phases.push_back(phase{"loop", 3, {wait, ev::run(msec(1)), post}});
    looper.cpus = {0};
    task_spec waiter = once("waiter", sched_params{}, 0, {ev::sleep(usec(500)), wait, ev::run(msec(1)), post});
    waiter.cpus = {1};
    workload w;
    w.cpus = 2;
    w.tasks = {looper, waiter};
    const run_result two = run(e, w, false);
    EXPECT_EQ(find(two, "looper").exit_ns, msec(3)) << e.name;
    EXPECT_EQ(find(two, "waiter").exit_ns, msec(4)) << e.name;
    ASSERT_EQ(two.semaphores.size(), 1u);
    EXPECT_EQ(two.semaphores[0].retries, 2u) << e.name;
    EXPECT_EQ(two.semaphores[0].blocks, 1u) << e.name;
    EXPECT_EQ(two.semaphores[0].count, 1) << e.name;
    EXPECT_NE(to_json(two).find("\"retries\": 2"), std::string::npos) << e.name;
    task_spec high = once("high", fifo(50), 0, {ev::sleep(usec(500)), wait, ev::run(msec(1)), post});
    looper.cpus.clear();
    w.cpus = 1;
    w.tasks = {looper, high};
    const run_result one = run(e, w, false);
    EXPECT_EQ(find(one, "high").exit_ns, msec(2)) << e.name;
    EXPECT_EQ(find(one, "looper").exit_ns, msec(4)) << e.name;
    EXPECT_EQ(one.semaphores[0].retries, 0u) << e.name;
    EXPECT_EQ(one.semaphores[0].count, 1) << e.name;
  }
}

// Deadline waiters go before real-time ones either way, but only an rt_mutex orders them by
// deadline: a plain futex queues every deadline task at normal_prio -1, in arrival order. low
// (SCHED_OTHER) locks, runs 1 ms and sleeps 5 ms holding the mutex; c (SCHED_OTHER) asks at
// 1 ms, r (FIFO 50) at 2, e1 (2 ms every 100 ms: deadline 103 ms) at 3, e2 (2 ms every 20 ms:
// deadline 24 ms) at 4; low runs 1 ms from 6 ms (alone; with PI on e2's reservation, which
// does not change it) and unlocks at 7. Each waiter holds the mutex 1 ms and exits: without PI
// e1, e2, r, c at 8, 9, 10, 11 ms; with PI e2, e1, r, c.
// Of two deadline waiters the owner runs on the earlier-deadline one's reservation (the top
// waiter in rt_mutex order is the donor, rt_mutex_waiter_less). 1 CPU: low (SCHED_OTHER) takes
// m and works 5 ms; e1 (2 ms every 100 ms) waits for m at 1 ms (d = 101 ms), e2 (2 ms every
// 20 ms) at 2 ms (d = 22 ms); e3 (5 ms every 50 ms, no mutex) wakes at 3 ms with d = 53 ms.
// On e2's reservation low (d = 22 ms, then 42 ms at its one replenishment) stays ahead of e3
// and unlocks at 5 ms; e2 runs to 5.5 ms, e3 (d = 53) before e1 (d = 101) to 8.5 ms, e1 to 9 ms.
// (On e1's reservation, d = 101 ms, e3 would preempt low at 3 ms and low would exit at 8 ms.)
TEST(SimPi, TheEarliestDeadlineWaiterIsTheDonor) {
  for (const policy_entry& e : dl_stacks()) {
    workload w;
    const std::vector<event> critical = {lock("m"), ev::run(usec(500)), unlock("m")};
    w.tasks = {once("low", sched_params{}, 0, {lock("m"), ev::run(msec(5)), unlock("m")}),
               once("e1", reservation(msec(2), msec(100)), 1, critical), once("e2", reservation(msec(2), msec(20)), 2, critical),
               once("e3", reservation(msec(5), msec(50)), 3, {ev::run(msec(3))})};
    const run_result on = run(e, w, true);
    EXPECT_EQ(find(on, "low").exit_ns, msec(5)) << e.name;
    EXPECT_EQ(find(on, "e2").exit_ns, usec(5500)) << e.name;
    EXPECT_EQ(find(on, "e3").exit_ns, usec(8500)) << e.name;
    EXPECT_EQ(find(on, "e1").exit_ns, msec(9)) << e.name;
  }
}

// Deadline waiters with equal deadlines queue for a PI mutex in arrival order
// (rt_mutex_waiter_less is strict: an equal waiter goes behind). 1 CPU: low (SCHED_OTHER) holds
// m for 5 ms; e1 and e2, both 2 ms every 20 ms and started at 1 ms (d = 21 ms each), wait for it
// in that order: e1 takes it at 5 ms and exits at 5.5 ms, e2 at 6 ms.
TEST(SimPi, DeadlineWaitersWithEqualDeadlinesTakeAPiMutexInArrivalOrder) {
  for (const policy_entry& e : dl_stacks()) {
    workload w;
    const std::vector<event> critical = {lock("m"), ev::run(usec(500)), unlock("m")};
    w.tasks = {once("low", sched_params{}, 0, {lock("m"), ev::run(msec(5)), unlock("m")}),
               once("e1", reservation(msec(2), msec(20)), 1, critical), once("e2", reservation(msec(2), msec(20)), 1, critical)};
    const run_result on = run(e, w, true);
    EXPECT_EQ(find(on, "low").exit_ns, msec(5)) << e.name;
    EXPECT_EQ(find(on, "e1").exit_ns, usec(5500)) << e.name;
    EXPECT_EQ(find(on, "e2").exit_ns, msec(6)) << e.name;
  }
}

TEST(SimPi, DeadlineWaitersTakeTheMutexByDeadlineOnlyWithPi) {
  for (const policy_entry& e : dl_stacks()) {
    workload w;
    const std::vector<event> critical = {lock("m"), ev::run(msec(1)), unlock("m")};
    w.tasks = {once("low", sched_params{}, 0, {lock("m"), ev::run(msec(1)), ev::sleep(msec(5)), ev::run(msec(1)), unlock("m")}),
               once("c", sched_params{}, 1, critical), once("r", fifo(50), 2, critical),
               once("e1", reservation(msec(2), msec(100)), 3, critical), once("e2", reservation(msec(2), msec(20)), 4, critical)};
    const run_result off = run(e, w, false), on = run(e, w, true);
    const char* const order_off[] = {"e1", "e2", "r", "c"};
    const char* const order_on[] = {"e2", "e1", "r", "c"};
    for (int k = 0; k < 4; ++k) {
      EXPECT_EQ(find(off, order_off[k]).exit_ns, msec(8 + k)) << e.name << " without PI: " << order_off[k];
      EXPECT_EQ(find(on, order_on[k]).exit_ns, msec(8 + k)) << e.name << " with PI: " << order_on[k];
    }
    EXPECT_EQ(find(off, "low").exit_ns, msec(7)) << e.name;
    EXPECT_EQ(find(on, "low").exit_ns, msec(7)) << e.name;
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

// examples/rt-app/deadline-inheritance.json: a control loop reserved 2 ms every 10 ms (0.5 ms
// of work with the state mutex) shares the mutex with a SCHED_OTHER logger (3 ms with it every
// 50 ms) while a SCHED_FIFO 50 network task runs 40 ms every 100 ms, on one CPU. With PI the
// waiting control loop lends the logger its reservation, which the network task cannot preempt:
// the loop waits at most the logger's 3 ms, so it keeps every period with slack >= 10 - 3 - 0.5
// = 6.5 ms. Without, the logger it waits for is starved by the network task: overruns, with a
// least slack between -29 and -30 ms (40 ms of network less a 10 ms period), as the Pathfinder
// example's.
TEST(SimPi, TheExampleControlLoopKeepsEveryPeriodOnlyWithDeadlineInheritance) {
  const workload pi = load_rtapp(schedcore_test::repo_root() + "/examples/rt-app/deadline-inheritance.json");
  ASSERT_TRUE(pi.priority_inheritance);
  workload plain = pi;
  plain.priority_inheritance = false;
  for (const policy_entry& e : dl_stacks()) {
    const run_result on = e.run(pi, exact_machine(), {}), off = e.run(plain, exact_machine(), {});
    expect_conserved(on);
    expect_conserved(off);
    const task_result& a = find(on, "control-0");
    const task_result& b = find(off, "control-0");
    EXPECT_EQ(a.kind, "deadline") << e.description;
    EXPECT_EQ(a.slack.overruns, 0u) << e.description;
    EXPECT_GE(a.slack.min, usec(6500)) << e.description;
    EXPECT_GE(a.slack.periods, 998u) << e.description;
    EXPECT_EQ(find(on, "logger-0").kind, "normal") << e.description;
    EXPECT_GE(b.slack.overruns, 90u) << e.description;
    EXPECT_LE(b.slack.min, -msec(29)) << e.description;
    EXPECT_GE(b.slack.min, -msec(30)) << e.description;
    EXPECT_LE(b.slack.periods, 700u) << e.description;
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
