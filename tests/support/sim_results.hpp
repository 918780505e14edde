// Helpers the simulator's GoogleTest suites share: a task of a run_result by name, the engine's
// exact conservation of CPU time, a machine of given capacities and SCHED_DEADLINE parameters.
#ifndef SCHEDCORE_TESTS_SIM_RESULTS_HPP
#define SCHEDCORE_TESTS_SIM_RESULTS_HPP

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "schedcore/policy/params.hpp"
#include "schedcore/sim/engine.hpp"
#include "schedcore/sim/metrics.hpp"

namespace schedcore_test {

/// The checkout's root directory (this header is tests/support/sim_results.hpp in it), for the
/// tests that load the examples' files and the shared workloads (`repo_root() + "/examples/..."`).
inline std::string repo_root() {
  std::string here = __FILE__;
  for (int i = 0; i < 3; ++i) here = here.substr(0, here.find_last_of('/'));
  return here;
}

/// The task named `name` in `r` (a failure and an empty result when there is none).
inline const schedcore::sim::task_result& find(const schedcore::sim::run_result& r, const std::string& name) {
  for (const auto& t : r.tasks)
    if (t.name == name) return t;
  static const schedcore::sim::task_result none;
  ADD_FAILURE() << "no task " << name;
  return none;
}

/// Every ns of every CPU is a task's CPU time, switch overhead or idle, exactly (the engine
/// charges idle and overhead apart from the tasks); no task ran longer than the run, on one CPU
/// at a time; and the totals' task time is the sum of the tasks' (the report's own consistency).
inline void expect_conserved(const schedcore::sim::run_result& r) {
  std::int64_t cpu = 0;
  for (const auto& t : r.tasks) {
    EXPECT_GE(t.cpu_ns, 0) << t.name;
    EXPECT_LE(t.cpu_ns, r.duration_ns) << t.name << ": more CPU time than the run lasted";
    cpu += t.cpu_ns;
  }
  EXPECT_EQ(cpu, r.totals.task_cpu_ns) << r.scenario << " under " << r.policy;
  EXPECT_EQ(cpu + r.totals.overhead_ns + r.totals.idle_ns, static_cast<std::int64_t>(r.cpus) * r.duration_ns)
      << r.scenario << " under " << r.policy;
}

/// The default machine with no switch or cache-refill cost and no host timing: every CPU time is
/// the workload's own, so tests can compare results with hand-computed values to the ns.
inline schedcore::sim::run_config exact_machine() {
  schedcore::sim::run_config c;
  c.machine.cs_cost_ns = 0;
  c.machine.refill_ns = 0;
  c.host_timing = false;
  return c;
}

/// exact_machine() with CPUs of the given capacities (no performance domains).
inline schedcore::sim::run_config capacity_machine(std::vector<std::uint32_t> capacity) {
  schedcore::sim::run_config c = exact_machine();
  c.cpus = static_cast<int>(capacity.size());
  c.machine.capacity = std::move(capacity);
  return c;
}

/// A daemon task (the run ends without waiting for it) of one phase, `events`, repeated `loops`
/// times (-1: forever).
inline schedcore::sim::task_spec looping(const std::string& name, std::vector<schedcore::sim::event> events,
                                         std::int64_t loops = -1) {
  schedcore::sim::task_spec t;
  t.name = name;
  t.loop = loops;
  t.daemon = true;
  schedcore::sim::phase p;
  p.events = std::move(events);
  t.phases.push_back(p);
  return t;
}

/// SCHED_DEADLINE parameters with the relative deadline equal to the period (ns).
inline schedcore::sched_params reservation(std::int64_t runtime, std::int64_t period) {
  schedcore::sched_params p;
  p.kind = schedcore::sched_kind::deadline;
  p.runtime = runtime;
  p.deadline = period;
  p.period = period;
  return p;
}

/// SCHED_FIFO parameters at real-time priority `prio` (1..99).
inline schedcore::sched_params fifo(int prio) {
  schedcore::sched_params p;
  p.kind = schedcore::sched_kind::fifo;
  p.rt_priority = static_cast<schedcore::u8>(prio);
  return p;
}

}  // namespace schedcore_test

#endif
