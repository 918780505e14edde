// What the engine tells a class about a task that changes CPU. Each CPU runs its own instance
// of a class; a task enqueued on another instance than its last must come with
// `enqueue_flags::migrated`, and a wakeup there after the old instance's migrate_task_rq
// (the kernel's set_task_cpu in try_to_wake_up: migrate_task_rq_fair, then the enqueue with
// ENQUEUE_MIGRATED). cfs2007's credit for a migrated sleeper and goodness24's per-instance
// task list read the flag, cfs's and eevdf's placement what migrate_task_rq left; none of them
// shows a missing flag in a seed scenario's numbers, so a recording class checks the contract
// itself (tests/support/sim_entries_spy.cpp): reference_rr whose fair class compares every
// enqueue's flags with the instance the task was last enqueued on.
#include <gtest/gtest.h>

#include <cstdint>

#include "sim_entries.hpp"
#include "sim_results.hpp"
#include "schedcore/sim/engine.hpp"
#include "schedcore/sim/scenarios.hpp"
#include "schedcore/sim/workload.hpp"

namespace {

using namespace schedcore::sim;
using schedcore_test::enqueue_flag_record;
using schedcore_test::flag_spy_record;

std::int64_t msec(std::int64_t v) { return v * 1000000; }

run_config machine(int cpus, std::int64_t duration_ns) {
  run_config c;
  c.host_timing = false;
  c.cpus = cpus;
  c.duration_ns = duration_ns;
  return c;
}

/// Runs `w` under the recording stack and checks what it recorded; returns the record (and the
/// run's result in `out`).
enqueue_flag_record run_recorded(const workload& w, const run_config& c, run_result* out = nullptr) {
  flag_spy_record() = enqueue_flag_record{};
  const run_result r = schedcore_test::flag_spy_entry().run(w, c, {});
  if (out != nullptr) *out = r;
  const enqueue_flag_record rec = flag_spy_record();
  EXPECT_EQ(rec.flag_mismatches, 0) << w.name << ": an enqueue's `migrated` disagrees with where the task was";
  EXPECT_EQ(rec.wakeups_without_look, 0) << w.name << ": a wakeup moved a task its old queue never saw leave";
  EXPECT_EQ(rec.looks_elsewhere, 0) << w.name << ": migrate_task_rq asked of a queue the task is not on";
  // The engine's own count of CPU changes is the moves the class saw (a fork child's first
  // enqueue is no move: it was on no queue).
  EXPECT_EQ(static_cast<std::uint64_t>(rec.moves), r.totals.migrations) << w.name;
  return rec;
}

// Three duty cycles on 2 CPUs (2 ms on / 2 off, 3 on / 1 off, 1 on / 3 off): a sleeper often
// wakes to find its CPU busy and the other idle, and the wakeup moves it there.
TEST(SimEnqueueFlags, WakeupsOntoAnotherCpuSayMigrated) {
  workload w;
  w.name = "three-duty-cycles";
  w.cpus = 2;
  w.duration = msec(1000);
  w.tasks.push_back(scen::task("a", 0, {ev::run(msec(2)), ev::sleep(msec(2))}));
  w.tasks.push_back(scen::task("b", 0, {ev::run(msec(3)), ev::sleep(msec(1))}));
  w.tasks.push_back(scen::task("c", 0, {ev::run(msec(1)), ev::sleep(msec(3))}));
  const enqueue_flag_record rec = run_recorded(w, machine(2, msec(1000)));
  EXPECT_GT(rec.moved_wakeups, 100) << "the run must wake tasks on the other CPU";
}

// massive_intr's three "work 8 ms, sleep 1 ms" processes on 2 CPUs: the odd one out is pulled
// back and forth by the balancer (the reference class wakes a task where it slept).
TEST(SimEnqueueFlags, BalancerPullsSayMigrated) {
  const enqueue_flag_record rec = run_recorded(massive_intr(2, 3, 0), machine(2, msec(1000)));
  EXPECT_GT(rec.moves - rec.moved_wakeups, 100) << "the run must have the balancer move tasks";
}

// A task changing its affinity back and forth (the migration stopper moves it off a CPU it may
// no longer use), a parent forking children that exit, and two hogs, on 2 CPUs.
TEST(SimEnqueueFlags, AffinityMovesAndForksSayMigrated) {
  workload w;
  w.name = "affinity-and-forks";
  w.cpus = 2;
  w.duration = msec(500);
  w.tasks.push_back(scen::task("pinner", 0, {ev::set_affinity({1}), ev::run(msec(1)), ev::sleep(msec(1)),
                                             ev::set_affinity({0}), ev::run(msec(1))}));
  w.tasks.push_back(scen::task("parent", 0, {ev::on(event_kind::fork, "child"), ev::run(msec(2)), ev::sleep(msec(2))}));
  task_spec child = scen::task("child", 0, {ev::run(msec(1)), ev::simple(event_kind::exit)});
  child.instances = 0;
  w.tasks.push_back(child);
  for (const char* name : {"hog-a", "hog-b"}) w.tasks.push_back(scen::task(name, 0, {ev::run(msec(100))}));
  run_result r;
  const enqueue_flag_record rec = run_recorded(w, machine(2, msec(500)), &r);
  EXPECT_GT(r.totals.affinity_moves, 0u) << "the stopper must move the pinner";
  EXPECT_GT(rec.moves, 0);
}

}  // namespace
