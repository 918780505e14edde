// schedsim on SMT machines (machine_model::smt_threads, smt_gain_pct): a hardware thread whose
// siblings are idle does its CPU's whole work rate, and with b of its core's threads busy each
// does (1 + gain / 100) / b of it. Each completion time below is computed by hand from that
// rule (the oracle), to the nanosecond; a machine without SMT, threads on different cores and
// a wall-time `runtime` are unaffected; impossible SMT settings are refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim_entries.hpp"
#include "sim_results.hpp"
#include "schedcore/sim/engine.hpp"
#include "schedcore/sim/registry.hpp"
#include "schedcore/sim/report.hpp"
#include "schedcore/sim/scenarios.hpp"

namespace {

using namespace schedcore;
using namespace schedcore::sim;
using schedcore_test::exact_machine;
using schedcore_test::expect_conserved;
using schedcore_test::find;

std::vector<policy_entry> fair_entries() { return {schedcore_test::eevdf_entry(), schedcore_test::cfs_entry()}; }

/// A task that does `evs` once on CPU `cpu` only.
task_spec pinned(const std::string& name, int cpu, std::vector<event> evs) {
  task_spec t = scen::task(name, 0, std::move(evs), false);
  t.phases[0].loop = 1;
  t.loop = 1;
  t.cpus = {cpu};
  return t;
}

run_config smt_machine(int cpus, int threads, int gain_pct) {
  run_config c = exact_machine();  // no switch cost, no cache refill: the work is the task's own
  c.cpus = cpus;
  c.machine.smt_threads = threads;
  c.machine.smt_gain_pct = gain_pct;
  return c;
}

workload two_on(int cpu_a, std::int64_t work_a, int cpu_b, std::int64_t work_b) {
  workload w;
  w.name = "smt";
  w.duration = sec(1);
  w.tasks = {pinned("a", cpu_a, {ev::run(work_a)}), pinned("b", cpu_b, {ev::run(work_b)})};
  return w;
}

// Two threads of one core busy together with a 25 % gain: each does 1.25 / 2 = 0.625 of its
// rate, so 10 ms of work takes 16 ms. Without SMT, 10 ms.
TEST(SimSmt, TwoBusyThreadsOfACoreShareItsGain) {
  for (const policy_entry& e : fair_entries()) {
    const run_result smt = e.run(two_on(0, msec(10), 1, msec(10)), smt_machine(2, 2, 25), {});
    EXPECT_EQ(find(smt, "a").exit_ns, msec(16)) << e.name;
    EXPECT_EQ(find(smt, "b").exit_ns, msec(16)) << e.name;
    expect_conserved(smt);
    const run_result plain = e.run(two_on(0, msec(10), 1, msec(10)), smt_machine(2, 1, 25), {});
    EXPECT_EQ(find(plain, "a").exit_ns, msec(10)) << e.name;
    EXPECT_EQ(find(plain, "b").exit_ns, msec(10)) << e.name;
  }
}

// The rate follows the sibling: b's 4 ms of work at 0.625 ends at 6.4 ms; by then a has done
// 4 ms of its 10, and the remaining 6 ms run alone at the full rate: a ends at 12.4 ms.
TEST(SimSmt, AThreadSpeedsUpWhenItsSiblingGoesIdle) {
  for (const policy_entry& e : fair_entries()) {
    const run_result r = e.run(two_on(0, msec(10), 1, msec(4)), smt_machine(2, 2, 25), {});
    EXPECT_EQ(find(r, "b").exit_ns, usec(6400)) << e.name;
    EXPECT_EQ(find(r, "a").exit_ns, usec(12400)) << e.name;
    expect_conserved(r);
  }
}

// ... and slows down when its sibling starts: c starts on CPU 1 at 2 ms, so a runs 2 ms alone
// (2 ms of work), then both at 0.625: c's 5 ms take 8 ms (until 10 ms), in which a does 5 ms
// more; a's last 3 ms run alone again: 13 ms.
TEST(SimSmt, AThreadSlowsDownWhenItsSiblingStarts) {
  for (const policy_entry& e : fair_entries()) {
    workload w = two_on(0, msec(10), 1, msec(5));
    w.tasks[1].delay = msec(2);
    const run_result r = e.run(w, smt_machine(2, 2, 25), {});
    EXPECT_EQ(find(r, "b").exit_ns, msec(10)) << e.name;
    EXPECT_EQ(find(r, "a").exit_ns, msec(13)) << e.name;
    expect_conserved(r);
  }
}

// Threads of different cores do not slow each other: CPUs 0 and 2 of a 4-CPU machine with two
// threads per core.
TEST(SimSmt, ThreadsOfDifferentCoresKeepTheirRate) {
  for (const policy_entry& e : fair_entries()) {
    const run_result r = e.run(two_on(0, msec(10), 2, msec(10)), smt_machine(4, 2, 25), {});
    EXPECT_EQ(find(r, "a").exit_ns, msec(10)) << e.name;
    EXPECT_EQ(find(r, "b").exit_ns, msec(10)) << e.name;
  }
}

// The gain's bounds and more threads: no gain halves each of two threads (20 ms); a 100 % gain
// gives each its whole rate (10 ms); four busy threads of one core with 25 % each do
// 1.25 / 4 = 0.3125 (32 ms). A `runtime` is wall time and does not stretch.
TEST(SimSmt, TheGainAndTheThreadCountSetTheShare) {
  const policy_entry e = schedcore_test::eevdf_entry();
  EXPECT_EQ(find(e.run(two_on(0, msec(10), 1, msec(10)), smt_machine(2, 2, 0), {}), "a").exit_ns, msec(20));
  EXPECT_EQ(find(e.run(two_on(0, msec(10), 1, msec(10)), smt_machine(2, 2, 100), {}), "a").exit_ns, msec(10));
  workload four;
  four.name = "smt4";
  four.duration = sec(1);
  for (int c = 0; c < 4; ++c) four.tasks.push_back(pinned("t" + std::to_string(c), c, {ev::run(msec(10))}));
  const run_result r = e.run(four, smt_machine(4, 4, 25), {});
  for (int c = 0; c < 4; ++c) EXPECT_EQ(find(r, "t" + std::to_string(c)).exit_ns, msec(32)) << c;
  expect_conserved(r);
  workload wall = two_on(0, msec(10), 1, msec(10));
  wall.tasks[0] = pinned("a", 0, {ev::runtime(msec(10))});
  EXPECT_EQ(find(e.run(wall, smt_machine(2, 2, 25), {}), "a").exit_ns, msec(10));
}

// The JSON names the SMT machine, and only an SMT machine.
TEST(SimSmt, TheJsonSaysTheMachineIsSmt) {
  const policy_entry e = schedcore_test::eevdf_entry();
  const std::string smt = to_json(e.run(two_on(0, msec(1), 1, msec(1)), smt_machine(2, 2, 30), {}));
  EXPECT_NE(smt.find("\"smt\": { \"threads_per_core\": 2, \"gain_pct\": 30 }"), std::string::npos) << smt.substr(0, 300);
  const std::string plain = to_json(e.run(two_on(0, msec(1), 1, msec(1)), smt_machine(2, 1, 30), {}));
  EXPECT_EQ(plain.find("\"smt\": {"), std::string::npos);
}

// Whole scenarios on SMT machines: every ns of every CPU is accounted (task time, switch
// overhead, idle), two runs are byte-identical, and the contention costs work: kernbench's build
// on 4 CPUs of 2 threads per core takes longer than on 4 whole CPUs, and less than on 2.
TEST(SimSmt, ScenariosStayConservedAndDeterministic) {
  for (const policy_entry& e : {schedcore_test::eevdf_entry(), schedcore_test::cfs_entry()}) {
    run_config c = smt_machine(4, 2, 25);
    c.host_timing = false;
    c.duration_ns = sec(2);
    for (const workload& w : {desktop_2007(), games_renice(-10, true)}) {
      const run_result a = e.run(w, c, {});
      expect_conserved(a);
      EXPECT_EQ(to_json(a), to_json(e.run(w, c, {}))) << e.name << " " << w.name;
    }
  }
  const policy_entry e = schedcore_test::eevdf_entry();
  run_config c = smt_machine(4, 2, 25);
  c.host_timing = false;
  const std::int64_t smt = e.run(kernbench_4cpu(), c, {}).totals.makespan_ns;
  c.machine.smt_threads = 1;
  const std::int64_t four = e.run(kernbench_4cpu(), c, {}).totals.makespan_ns;
  c.cpus = 2;
  const std::int64_t two = e.run(kernbench_4cpu(), c, {}).totals.makespan_ns;
  EXPECT_GT(smt, four);
  EXPECT_LT(smt, two);
}

// Impossible settings are refused before anything runs: threads outside 1..8, CPUs that are
// not whole cores, a gain outside 0..100 %.
TEST(SimSmt, ImpossibleSettingsAreRefused) {
  const policy_entry e = schedcore_test::eevdf_entry();
  const workload w = two_on(0, msec(1), 1, msec(1));
  EXPECT_THROW(e.run(w, smt_machine(2, 0, 25), {}), workload_error);
  EXPECT_THROW(e.run(w, smt_machine(16, 9, 25), {}), workload_error);
  EXPECT_THROW(e.run(w, smt_machine(3, 2, 25), {}), workload_error);
  EXPECT_THROW(e.run(w, smt_machine(2, 2, -1), {}), workload_error);
  EXPECT_THROW(e.run(w, smt_machine(2, 2, 101), {}), workload_error);
  EXPECT_NO_THROW(e.run(w, smt_machine(2, 2, 100), {}));
}

}  // namespace
