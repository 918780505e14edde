// schedsim's task lifecycle and switch bookkeeping (engine.hpp's "lifecycle" and "schedule"
// sections): what ends a run, and how a switch is reported in the trace. Hand-computed runs.
#include <gtest/gtest.h>

#include <cstddef>
#include <sstream>
#include <string>

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

// The run ends when the last foreground task exits (workload.hpp: daemons do not hold it).
// Two CPUs: F (foreground) runs 10 ms and exits; D (a daemon) runs 2 ms and exits. D's exit
// at 2 ms must not count against the foreground tasks: the run goes on to F's exit, so the
// makespan is 10 ms and F gets all 10 ms of work done.
TEST(SimLifecycle, ADaemonsExitDoesNotEndTheRun) {
  workload w;
  w.name = "daemon-exit";
  w.cpus = 2;
  w.duration = msec(50);
  task_spec f = looping("F", {ev::run(msec(10))}, 1);
  f.daemon = false;
  w.tasks = {f, looping("D", {ev::run(msec(2))}, 1)};
  for (const policy_entry& e : {schedcore_test::ref_entry(), schedcore_test::cfs_entry()}) {
    SCOPED_TRACE(e.name);
    const run_result r = e.run(w, exact_machine(), {});
    EXPECT_EQ(r.totals.makespan_ns, msec(10));
    EXPECT_EQ(find(r, "F").cpu_ns, msec(10));
    EXPECT_EQ(find(r, "D").cpu_ns, msec(2));
  }
}

// The number of sched_switch lines of `trace` away from a task (not from the idle swapper,
// which ftrace prints as R too) whose prev_state is `state`.
std::size_t task_switches(const std::string& trace, const std::string& state) {
  std::istringstream in(trace);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);)
    n += line.find("prev_state=" + state + " ==>") != std::string::npos &&
                 line.find("prev_comm=swapper") == std::string::npos
             ? 1
             : 0;
  return n;
}

// A sched_yield marks only the switch it causes: ftrace prints that prev as R (a voluntary
// schedule of a runnable task), every later switch away from a preempted task as R+
// (TASK_REPORT_MAX, preempt). One CPU under cfs: A runs 1 ms, yields, then runs on; B runs on.
// The yield hands the CPU to B: one switch with prev_state=R. After that the two hogs take
// turns by preemption only, every such switch R+ (over 30 ms there are several).
TEST(SimSchedule, AYieldMarksOnlyTheSwitchItCauses) {
  workload w;
  w.name = "yield-state";
  w.cpus = 1;
  w.duration = msec(30);
  w.tasks = {looping("A", {ev::run(msec(1)), ev::simple(event_kind::yield), ev::run(sec(1))}, 1),
             looping("B", {ev::run(sec(1))})};
  trace_writer tw;
  run_config c = exact_machine();
  c.trace = &tw;
  schedcore_test::cfs_entry().run(w, c, {});
  EXPECT_EQ(task_switches(tw.text(), "R"), 1u);
  EXPECT_GE(task_switches(tw.text(), "R+"), 2u);
}

}  // namespace
