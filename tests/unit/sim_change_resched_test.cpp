// The reschedule after a change of the running task's parameters (engine.hpp, change_params and
// resched_after_change): the task's class decides (policy.hpp, `change_resched`), as the kernel's
// check_class_changed leaves it to switched_to / prio_changed, or the era's core does. One CPU,
// HZ 1000, no switch cost; each timeline is worked out by hand from the kernel rule named.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim_entries.hpp"
#include "sim_results.hpp"
#include "schedcore/sim/registry.hpp"

namespace {

using namespace schedcore;
using namespace schedcore::sim;
using schedcore_test::exact_machine;
using schedcore_test::expect_conserved;
using schedcore_test::find;

task_spec finite(const std::string& name, std::vector<event> evs, std::int64_t delay = 0) {
  task_spec t;
  t.name = name;
  t.loop = 1;
  t.delay = delay;
  phase p;
  p.events = std::move(evs);
  t.phases.push_back(p);
  return t;
}

run_result run(const policy_entry& e, std::vector<task_spec> tasks) {
  workload w;
  w.name = "change-resched";
  w.duration = msec(500);
  w.tasks = std::move(tasks);
  const run_result r = e.run(w, exact_machine(), {});
  expect_conserved(r);
  return r;
}

// cfs (6.5): "a" runs from 0; "b" starts at 0.1 ms, placed after it (START_DEBIT: min_vruntime
// + a 3 ms slice, 3.1 ms), so a keeps the CPU until the 4 ms tick (its 3 ms ideal runtime is
// exceeded). At 3.5 ms a's vruntime (3.5 ms) is past b's: a pick there would choose b. a then
// renices. prio_changed_fair reschedules a running task only at a worse priority (`if
// (p->prio > oldprio) resched_curr(rq);`): to nice -5 a keeps the CPU, finishes its last
// 0.2 ms and exits at 3.7 ms; to nice 5 b runs from 3.5 ms.
TEST(SimChangeResched, CfsKeepsARunningTaskWhosePriorityImproves) {
  for (const int nice : {-5, 5}) {
    const run_result r = run(schedcore_test::cfs_entry(),
                             {finite("a", {ev::run(usec(3500)), ev::set_nice(nice), ev::run(usec(200))}),
                              finite("b", {ev::run(msec(20))}, usec(100))});
    if (nice < 0) {
      EXPECT_EQ(find(r, "a").exit_ns, usec(3700)) << "no reschedule at a better priority";
    } else {
      EXPECT_GT(find(r, "a").exit_ns, usec(3700)) << "a worse priority reschedules: b runs first";
    }
  }
}

// The same with a change of policy that leaves p->prio as it was (SCHED_NORMAL to SCHED_BATCH,
// nice 0): check_class_changed calls no prio_changed (`else if (oldprio != p->prio ||
// dl_task(p))`), so nothing reschedules a.
TEST(SimChangeResched, CfsKeepsARunningTaskWhosePriorityStays) {
  sched_params batch;
  batch.kind = sched_kind::batch;
  const run_result r = run(schedcore_test::cfs_entry(),
                           {finite("a", {ev::run(usec(3500)), ev::set_policy(batch), ev::run(usec(200))}),
                            finite("b", {ev::run(msec(20))}, usec(100))});
  EXPECT_EQ(find(r, "a").exit_ns, usec(3700));
  EXPECT_EQ(find(r, "a").kind, "batch");
}

// o1 (2.6.22): "b" starts at 0.1 ms at a's priority and does not preempt it (TASK_PREEMPTS_CURR
// needs a better one). At 0.5 ms a becomes SCHED_BATCH: __activate_task queues it in the
// expired array, and its priority does not change (2.6.22's __setscheduler computes it before
// zeroing sleep_avg), so sched_setscheduler does not reschedule it (`if (task_running(rq, p))
// { if (p->prio > oldprio) resched_task(rq->curr); }`): a finishes its 0.2 ms and exits at
// 0.7 ms, before the 1 ms tick that would find it expired. Rescheduled at 0.5 ms, it would
// have waited for b's 20 ms of work (its slice is 100 ms) and exited at 20.7 ms.
TEST(SimChangeResched, O1KeepsARunningTaskWhosePriorityStaysAsTwoSixTwentyTwo) {
  sched_params batch;
  batch.kind = sched_kind::batch;
  const run_result r = run(schedcore_test::o1_entry(),
                           {finite("a", {ev::run(usec(500)), ev::set_policy(batch), ev::run(usec(200))}),
                            finite("b", {ev::run(msec(20))}, usec(100))});
  EXPECT_EQ(find(r, "a").exit_ns, usec(700));
}

// set_user_nice returns at once for the nice a task has (`if (task_nice(p) == nice || ...)
// return;`): no dequeue, no reschedule. Under cfs a renice to its own nice leaves a running.
TEST(SimChangeResched, ARenicedToItsOwnNiceChangesNothing) {
  const run_result r = run(schedcore_test::cfs_entry(),
                           {finite("a", {ev::run(usec(3500)), ev::set_nice(0), ev::run(usec(200))}),
                            finite("b", {ev::run(msec(20))}, usec(100))});
  EXPECT_EQ(find(r, "a").exit_ns, usec(3700));
}

}  // namespace
