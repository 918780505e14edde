// Helpers the simulator's GoogleTest suites share for reading a run_result: a task by name, and
// the engine's exact conservation of CPU time.
#ifndef SCHEDCORE_TESTS_SIM_RESULTS_HPP
#define SCHEDCORE_TESTS_SIM_RESULTS_HPP

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "schedcore/sim/metrics.hpp"

namespace schedcore_test {

/// The task named `name` in `r` (a failure and an empty result when there is none).
inline const schedcore::sim::task_result& find(const schedcore::sim::run_result& r, const std::string& name) {
  for (const auto& t : r.tasks)
    if (t.name == name) return t;
  static const schedcore::sim::task_result none;
  ADD_FAILURE() << "no task " << name;
  return none;
}

/// Every ns of every CPU is a task's CPU time, switch overhead or idle, exactly; the totals'
/// task time is the sum of the tasks'.
inline void expect_conserved(const schedcore::sim::run_result& r) {
  std::int64_t cpu = 0;
  for (const auto& t : r.tasks) cpu += t.cpu_ns;
  EXPECT_EQ(cpu, r.totals.task_cpu_ns) << r.scenario << " under " << r.policy;
  EXPECT_EQ(cpu + r.totals.overhead_ns + r.totals.idle_ns, static_cast<std::int64_t>(r.cpus) * r.duration_ns)
      << r.scenario << " under " << r.policy;
}

}  // namespace schedcore_test

#endif
