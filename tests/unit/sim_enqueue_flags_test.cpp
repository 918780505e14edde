// What the engine tells a class about a task that changes CPU, and about what woke it.
//
// Moves. Each CPU runs its own instance of a class; a task enqueued on another instance than
// its last must come with
// `enqueue_flags::migrated`, and a wakeup there after the old instance's migrate_task_rq
// (the kernel's set_task_cpu in try_to_wake_up: migrate_task_rq_fair, then the enqueue with
// ENQUEUE_MIGRATED). cfs2007's credit for a migrated sleeper and goodness24's per-instance
// task list read the flag, cfs's and eevdf's placement what migrate_task_rq left; none of them
// shows a missing flag in a seed scenario's numbers, so a recording class checks the contract
// itself (tests/support/sim_entries_spy.cpp): reference_rr whose fair class compares every
// enqueue's flags with the instance the task was last enqueued on.
//
// Wake sources. A wakeup by a task (a barrier's last party, a condition signal or broadcast, a
// mutex unlock, a resume, a pipe write, a semaphore post) runs in that task's context; one by a
// timer (sleep, periodic timer) or a device completion runs in interrupt context and says
// `enqueue_flags::interrupt`, which o1 turns into SLEEP_INTERRUPTED's full sleep credit; the end
// of an I/O sleep also says `uninterruptible` (TASK_UNINTERRUPTIBLE: o1's SLEEP_NONINTERACTIVE,
// whose credit is capped).
//
// Queue position. A task leaving a reservation for the RT class (sched_setattr, or a deboost
// when the deadline waiter it served takes the mutex) goes to the head of its new priority, as
// Linux 3.14+ queues any task whose priority drops (`oldprio < p->prio`: ENQUEUE_HEAD, commit
// 81a44c5441d7; a reservation's prio is -1): it keeps the CPU ahead of the RT tasks of that
// priority that were waiting.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

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
std::int64_t usec(std::int64_t v) { return v * 1000; }

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

/// A waker and the task(s) it wakes, each with a CPU of its own (2 or 3 CPUs, 400 ms): the
/// waker loops "run 1 ms, wake" by `how` ("barrier" with two parties waiting, "signal",
/// "broadcast", "unlock", "resume", "pipe", "sem_post"); the waiter blocks and runs 200 us.
workload woken_by_a_task(const std::string& how, bool interrupt_context) {
  workload w;
  w.name = "woken-by-" + how;
  w.cpus = 2;
  w.duration = msec(400);
  task_spec waker, waiter;
  if (how == "barrier") {
    w.cpus = 3;
    waker = scen::task("waker", 0, {ev::run(msec(1)), ev::on(event_kind::barrier, "b")});
    waiter = scen::task("waiter", 0, {ev::on(event_kind::barrier, "b"), ev::run(usec(200))});
    waiter.instances = 2;
  } else if (how == "signal" || how == "broadcast") {
    const event_kind k = how == "signal" ? event_kind::signal : event_kind::broadcast;
    waker = scen::task("waker", 0, {ev::run(msec(1)), ev::on(event_kind::lock, "m"), ev::on(k, "c"),
                                    ev::on(event_kind::unlock, "m")});
    waiter = scen::task("waiter", 0, {ev::on(event_kind::lock, "m"), ev::cond(event_kind::wait, "c", "m"),
                                      ev::on(event_kind::unlock, "m"), ev::run(usec(200))});
  } else if (how == "unlock") {
    // The waker holds the mutex 1 ms of every 1.2 ms; the waiter, asking for it meanwhile,
    // sleeps on it until the unlock.
    waker = scen::task("waker", 0, {ev::on(event_kind::lock, "m"), ev::run(msec(1)), ev::on(event_kind::unlock, "m"),
                                    ev::run(usec(200))});
    waiter = scen::task("waiter", 0, {ev::run(usec(100)), ev::on(event_kind::lock, "m"), ev::run(usec(10)),
                                      ev::on(event_kind::unlock, "m")});
  } else if (how == "resume") {
    waker = scen::task("waker", 0, {ev::run(msec(1)), ev::on(event_kind::resume, "s")});
    waiter = scen::task("waiter", 0, {ev::on(event_kind::suspend, "s"), ev::run(usec(200))});
  } else if (how == "pipe") {
    waker = scen::task("waker", 0, {ev::run(msec(1)), ev::pipe_write("p", 1)});
    waiter = scen::task("waiter", 0, {ev::pipe_read("p", 1, usec(200), 0)});
  } else {
    waker = scen::task("waker", 0, {ev::run(msec(1)), ev::on(event_kind::sem_post, "sem")});
    waiter = scen::task("waiter", 0, {ev::on(event_kind::sem_wait, "sem"), ev::run(usec(200))});
  }
  waker.interrupt_context = interrupt_context;
  w.tasks.push_back(waker);
  w.tasks.push_back(waiter);
  return w;
}

class WakeupByATask : public ::testing::TestWithParam<const char*> {};

// A task's wakeup runs in its context: no `interrupt`, no `uninterruptible`.
TEST_P(WakeupByATask, IsNoInterrupt) {
  const workload w = woken_by_a_task(GetParam(), false);
  const enqueue_flag_record rec = run_recorded(w, machine(w.cpus, msec(400)));
  EXPECT_GT(rec.wakeups, 250) << "the waiter must be woken about every 1.2 ms";
  EXPECT_EQ(rec.interrupt_wakeups, 0);
  EXPECT_EQ(rec.uninterruptible_wakeups, 0);
}

// A waker standing in for a device (interrupt_context) wakes from interrupt context through
// resume and pipes; a barrier, a condition, a mutex and a semaphore are still its own
// (workload.hpp's task_spec::interrupt_context).
TEST_P(WakeupByATask, IsAnInterruptOnlyFromADevicesResumeOrPipe) {
  const std::string how = GetParam();
  const workload w = woken_by_a_task(how, true);
  const enqueue_flag_record rec = run_recorded(w, machine(w.cpus, msec(400)));
  EXPECT_GT(rec.wakeups, 250);
  EXPECT_EQ(rec.interrupt_wakeups, how == "resume" || how == "pipe" ? rec.wakeups : 0);
  EXPECT_EQ(rec.uninterruptible_wakeups, 0);
}

INSTANTIATE_TEST_SUITE_P(Kinds, WakeupByATask,
                         ::testing::Values("barrier", "signal", "broadcast", "unlock", "resume", "pipe", "sem_post"),
                         [](const ::testing::TestParamInfo<const char*>& i) { return std::string(i.param); });

// Timers, devices and I/O: a sleeper, a periodic task, a device's submitter and an I/O sleeper.
TEST(SimEnqueueFlags, TimerDeviceAndIoWakeupsAreInterrupts) {
  workload w;
  w.name = "timers-and-devices";
  w.cpus = 2;
  w.duration = msec(400);
  w.tasks.push_back(scen::task("sleeper", 0, {ev::run(msec(1)), ev::sleep(msec(2))}));
  w.tasks.push_back(scen::task("periodic", 0, {ev::run(msec(1)), ev::timer("t", msec(4))}));
  w.tasks.push_back(scen::task("disk-user", 0, {ev::device_submit("disk", msec(2)), ev::device_wait("disk"), ev::run(usec(500))}));
  w.tasks.push_back(scen::task("io-sleeper", 0, {ev::run(msec(1)), ev::io_sleep(msec(3))}));
  const enqueue_flag_record rec = run_recorded(w, machine(2, msec(400)));
  EXPECT_GT(rec.wakeups, 400);
  EXPECT_EQ(rec.interrupt_wakeups, rec.wakeups);
  // Only io-sleeper's wakeups (one per 4 ms cycle at most) are uninterruptible.
  EXPECT_GT(rec.uninterruptible_wakeups, 50);
  EXPECT_LT(rec.uninterruptible_wakeups, 101);
}

/// One CPU, no switch or refill cost (every time below is the workload's own), 30 ms.
run_config exact_one_cpu() {
  run_config c = schedcore_test::exact_machine();
  c.cpus = 1;
  c.duration_ns = msec(30);
  return c;
}

// Parameter changes. set_user_nice dequeues with DEQUEUE_SAVE alone, __sched_setscheduler
// with DEQUEUE_SAVE | DEQUEUE_MOVE: the fair class's dequeue_entity updates min_vruntime after
// the second only (cfs, eevdf and group_policy read `move`). A task reniced twice and switched
// to SCHED_BATCH twice, each while it runs, beside a hog: four save dequeues, two with move.
TEST(SimEnqueueFlags, ARenicesDequeueIsABareSaveAPolicyChangesASaveWithMove) {
  workload w;
  w.name = "renice-and-setscheduler";
  w.cpus = 1;
  w.duration = msec(100);
  schedcore::sched_params batch;
  batch.kind = schedcore::sched_kind::batch;
  batch.nice = 5;
  w.tasks.push_back(scen::task("changer", 0, {ev::run(msec(1)), ev::set_nice(5), ev::run(msec(1)), ev::set_policy(batch),
                                              ev::run(msec(1)), ev::set_nice(0), ev::run(msec(1)),
                                              ev::set_policy(schedcore::sched_params{}), ev::sleep(msec(1000))}));
  w.tasks.push_back(scen::task("hog", 0, {ev::run(msec(1000))}));
  const enqueue_flag_record rec = run_recorded(w, machine(1, msec(100)));
  EXPECT_EQ(rec.save_dequeues, 4);
  EXPECT_EQ(rec.save_move_dequeues, 2);
}

// A reservation (3 ms every 10 ms) runs 2 ms, becomes SCHED_FIFO 50 and runs 3 ms more; a FIFO
// 50 hog arrived at 1 ms and waits behind it. At the head of FIFO 50 it runs those 3 ms at once
// (done at 5 ms) and sleeps; the hog has the other 25 ms. At the tail it would wait behind the
// hog for the whole run (2 ms of CPU).
TEST(SimEnqueueFlags, LeavingAReservationForRtQueuesAtTheHead) {
  workload w;
  w.name = "reservation-to-fifo";
  w.cpus = 1;
  w.duration = msec(30);
  task_spec a = scen::task("leaver", 0, {ev::run(msec(2)), ev::set_policy(schedcore_test::fifo(50)), ev::run(msec(3)),
                                         ev::sleep(msec(100))});
  a.params = schedcore_test::reservation(msec(3), msec(10));
  task_spec hog = scen::task("fifo-hog", 0, {ev::run(msec(100))});
  hog.params = schedcore_test::fifo(50);
  hog.delay = msec(1);
  w.tasks.push_back(a);
  w.tasks.push_back(hog);
  const run_result r = schedcore_test::ref_dl_entry().run(w, exact_one_cpu(), {});
  EXPECT_EQ(schedcore_test::find(r, "leaver").cpu_ns, msec(5));
  EXPECT_EQ(schedcore_test::find(r, "fifo-hog").cpu_ns, msec(25));
  EXPECT_EQ(schedcore_test::find(r, "leaver").switches, 1u) << "it must leave the CPU only to sleep";
}

// A FIFO 50 owner holds a PI mutex for 5 ms of CPU; a reservation (2 ms every 20 ms) asks for it
// at 1 ms and lends the owner its reservation; a FIFO 50 hog waits from 0.5 ms. The unlock at
// 5 ms deboosts the owner to FIFO 50 (prio -1 -> 49: the head) and wakes the reservation, which
// runs 0.5 ms and sleeps; the owner then runs its last 3 ms before the hog (done at 8.5 ms),
// which has the rest: 30 - 8.5 - 0.5 = 21 ms.
TEST(SimEnqueueFlags, ADeboostFromAReservationToRtQueuesAtTheHead) {
  workload w;
  w.name = "deboost-to-fifo";
  w.cpus = 1;
  w.duration = msec(30);
  w.priority_inheritance = true;
  task_spec owner = scen::task("owner", 0, {ev::on(event_kind::lock, "m"), ev::run(msec(5)), ev::on(event_kind::unlock, "m"),
                                            ev::run(msec(3)), ev::sleep(msec(100))});
  owner.params = schedcore_test::fifo(50);
  task_spec waiter = scen::task("dl-waiter", 0, {ev::on(event_kind::lock, "m"), ev::run(usec(500)),
                                                 ev::on(event_kind::unlock, "m"), ev::sleep(msec(100))});
  waiter.params = schedcore_test::reservation(msec(2), msec(20));
  waiter.delay = msec(1);
  task_spec hog = scen::task("fifo-hog", 0, {ev::run(msec(100))});
  hog.params = schedcore_test::fifo(50);
  hog.delay = usec(500);
  w.tasks.push_back(owner);
  w.tasks.push_back(waiter);
  w.tasks.push_back(hog);
  const run_result r = schedcore_test::ref_dl_entry().run(w, exact_one_cpu(), {});
  EXPECT_EQ(schedcore_test::find(r, "owner").cpu_ns, msec(8));
  EXPECT_EQ(schedcore_test::find(r, "dl-waiter").cpu_ns, usec(500));
  EXPECT_EQ(schedcore_test::find(r, "fifo-hog").cpu_ns, msec(30) - msec(8) - usec(500));
}

}  // namespace
