// schedsim engine: a hand-computed schedule under the reference policy, exact conservation,
// determinism, exact percentiles, synchronisation semantics, ftrace line format, JSON syntax.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "sim_entries.hpp"
#include "sim_results.hpp"
#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "schedcore/policy/group.hpp"
#include "schedcore/policy/o1.hpp"
#include "schedcore/policy/rt.hpp"
#include "schedcore/policy/sd.hpp"
#include "schedcore/sim/engine.hpp"
#include "schedcore/sim/reference_rr.hpp"
#include "schedcore/sim/registry.hpp"
#include "schedcore/sim/report.hpp"
#include "schedcore/sim/scenarios.hpp"

namespace {

using namespace schedcore;
using namespace schedcore::sim;

using schedcore_test::cfs_entry;
using schedcore_test::eevdf_entry;
using schedcore_test::grouped_cfs_entry;
using schedcore_test::grouped_eevdf_entry;
using schedcore_test::o1_entry;
using schedcore_test::ref_entry;
using schedcore_test::sd_entry;
policy_entry rt_entry() { return schedcore_test::ref_rt_entry(); }

task_spec finite(const std::string& name, std::vector<event> evs, std::int64_t loops = 1) {
  task_spec t;
  t.name = name;
  t.loop = loops;
  phase p;
  p.events = std::move(evs);
  t.phases.push_back(p);
  return t;
}

using schedcore_test::expect_conserved;
using schedcore_test::find;
using schedcore_test::exact_machine;

// Two 25 ms CPU hogs, 10 ms slices, 1 CPU, HZ 1000, no costs:
//   A 0-10, B 10-20, A 20-30, B 30-40, A 40-45 (exits), B 45-50 (exits).
TEST(SimEngine, HandComputedRoundRobin) {
  workload w;
  w.name = "toy";
  w.duration = sec(1);
  w.tasks.push_back(finite("A", {ev::run(msec(25))}));
  w.tasks.push_back(finite("B", {ev::run(msec(25))}));
  const run_result r = ref_entry().run(w, exact_machine(), {{"timeslice", msec(10)}});
  const auto& a = find(r, "A");
  const auto& b = find(r, "B");
  EXPECT_EQ(a.exit_ns, msec(45));
  EXPECT_EQ(b.exit_ns, msec(50));
  EXPECT_EQ(a.cpu_ns, msec(25));
  EXPECT_EQ(b.cpu_ns, msec(25));
  EXPECT_EQ(a.wait_ns, msec(20));
  EXPECT_EQ(b.wait_ns, msec(25));
  EXPECT_EQ(a.switches, 3u);
  EXPECT_EQ(b.switches, 3u);
  EXPECT_EQ(r.totals.context_switches, 7u);  // idle>A, A>B, B>A, A>B, B>A, A>B, B>idle
  EXPECT_EQ(r.totals.makespan_ns, msec(50));
  EXPECT_EQ(r.duration_ns, msec(50));
  EXPECT_EQ(a.latency.max, 0);
  EXPECT_EQ(b.latency.max, msec(10));
  EXPECT_EQ(r.totals.idle_ns, 0);
  expect_conserved(r);
}

// A preemption does not end a ref-rr slice: two hogs under a FIFO task that runs 1 ms every
// 4 ms (so no hog ever runs 10 ms at one go) still take turns, each 10 ms of CPU per turn, and
// split the 300 ms the FIFO task leaves in 400 ms evenly (a slice that restarted at each
// preemption gave the first hog all 300 ms and the second none).
TEST(SimEngine, ARefRrSliceSurvivesPreemption) {
  workload w;
  w.name = "preempted";
  w.duration = msec(400);
  task_spec irq = finite("irq", {ev::run(msec(1)), ev::anchored_timer("t", msec(4), 0)}, -1);
  irq.params.kind = sched_kind::fifo;
  irq.params.rt_priority = 50;
  w.tasks = {irq, finite("A", {ev::run(sec(1))}), finite("B", {ev::run(sec(1))})};
  const run_result r = schedcore_test::ref_rt_entry().run(w, exact_machine(), {{"timeslice", msec(10)}});
  EXPECT_EQ(find(r, "irq").cpu_ns, msec(100));
  EXPECT_EQ(find(r, "A").cpu_ns + find(r, "B").cpu_ns, msec(300));
  // 15 turns each; a turn ends at the first tick at or past 10 ms of CPU, so one whose 10 ms
  // end where the FIFO task wakes runs on to the next tick (11 ms).
  EXPECT_NEAR(static_cast<double>(find(r, "A").cpu_ns), msec(150), msec(16)) << find(r, "B").cpu_ns;
  EXPECT_NEAR(static_cast<double>(find(r, "B").cpu_ns), msec(150), msec(16)) << find(r, "A").cpu_ns;
  expect_conserved(r);
}

// The same toy with a 15 ms warm-up: the schedule is unchanged, every statistic covers
// [15, 50) ms only. A: 20-30, 40-45 (15 ms of CPU), waits 15-20 and 30-40; B: 15-20, 30-40,
// 45-50 (20 ms), waits 20-30 and 40-45. Switches from 15 on: B>A at 20, A>B at 30, B>A at 40,
// A>B at 45, B>idle at 50. Both count as born at 15; B's latency sample (at 10) is before it.
// A run that ends before its warm-up reports the whole run and says so; a warm-up as long as
// the run is refused.
TEST(SimEngine, WarmupWindowCountsOnlyWhatFollowsIt) {
  workload w;
  w.name = "toy-warmup";
  w.duration = sec(1);
  w.tasks.push_back(finite("A", {ev::run(msec(25))}));
  w.tasks.push_back(finite("B", {ev::run(msec(25))}));
  run_config c = exact_machine();
  c.warmup_ns = msec(15);
  const run_result r = ref_entry().run(w, c, {{"timeslice", msec(10)}});
  const auto& a = find(r, "A");
  const auto& b = find(r, "B");
  EXPECT_EQ(r.duration_ns, msec(35));
  EXPECT_EQ(r.warmup_ns, msec(15));
  EXPECT_NE(to_json(r).find("\"duration_ns\": 35000000, \"warmup_ns\": 15000000"), std::string::npos);
  EXPECT_EQ(r.totals.makespan_ns, msec(50));
  EXPECT_EQ(a.start_ns, msec(15));
  EXPECT_EQ(a.exit_ns, msec(45));
  EXPECT_EQ(a.cpu_ns, msec(15));
  EXPECT_EQ(b.cpu_ns, msec(20));
  EXPECT_EQ(a.wait_ns, msec(15));
  EXPECT_EQ(b.wait_ns, msec(15));
  EXPECT_EQ(a.switches, 2u);
  EXPECT_EQ(b.switches, 3u);
  EXPECT_EQ(r.totals.context_switches, 5u);
  EXPECT_EQ(b.latency.count, 0u);
  EXPECT_NEAR(r.totals.cs_per_sec, 5 / 0.035, 1e-6);
  expect_conserved(r);
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.back().find("warm-up"), std::string::npos);
  c.warmup_ns = msec(100);  // the tasks are done at 50 ms
  const run_result whole = ref_entry().run(w, c, {{"timeslice", msec(10)}});
  EXPECT_EQ(whole.duration_ns, msec(50));
  EXPECT_EQ(whole.warmup_ns, 0);
  EXPECT_EQ(find(whole, "A").cpu_ns, msec(25));
  ASSERT_FALSE(whole.notes.empty());
  EXPECT_NE(whole.notes.back().find("ended before its warm-up"), std::string::npos);
  c.warmup_ns = sec(1);
  EXPECT_THROW(ref_entry().run(w, c, {}), workload_error);
  c.warmup_ns = -1;
  EXPECT_THROW(ref_entry().run(w, c, {}), workload_error);
}

// A frame task's samples after a warm-up: one task runs 1 ms then marks a frame, so frames
// fall at 1, 2, ..., 10 ms. With a 5.5 ms warm-up the window holds the frames at 6..9 ms (the
// one at 10 ms is the run's end), four intervals of 1 ms (the first one reaches back to the
// frame at 5 ms: it ends in the window), and the frame times the plots draw are those four
// frames only; the 5 ms frame was once listed too.
TEST(SimEngine, WarmupWindowKeepsOnlyItsOwnFrames) {
  workload w;
  w.name = "frames-warmup";
  w.duration = msec(10);
  w.tasks.push_back(finite("video", {ev::run(msec(1)), ev::frame(msec(1))}, -1));
  run_config c = exact_machine();
  c.keep_samples = true;
  const run_result whole = ref_entry().run(w, c, {});
  EXPECT_EQ(find(whole, "video").frame_times.size(), 9u);
  EXPECT_EQ(find(whole, "video").frame_times.front(), msec(1));
  c.warmup_ns = usec(5500);
  const run_result r = ref_entry().run(w, c, {});
  const auto& v = find(r, "video");
  EXPECT_EQ(v.frame_interval.count, 4u);
  EXPECT_EQ(v.frame_interval.max, msec(1));
  EXPECT_EQ(v.frame_times, (std::vector<std::int64_t>{msec(6), msec(7), msec(8), msec(9)}));
}

// A device's busy time and a pipe's traffic also restart at the warm-up: gpu work 0-30 ms
// submitted at 0; with a 10 ms warm-up it is busy 20 ms of the 30 ms window.
TEST(SimEngine, WarmupWindowCoversDevicesAndPipes) {
  workload w;
  w.name = "dev-warmup";
  w.duration = sec(1);
  w.tasks.push_back(finite("a", {ev::device_submit("gpu", msec(30)), ev::device_wait("gpu")}));
  w.tasks.push_back(finite("w", {ev::sleep(msec(4)), ev::pipe_write("p", 1)}, 5));
  w.tasks.push_back(finite("r", {ev::pipe_read("p", 1, 0, 0)}, 5));
  run_config c = exact_machine();
  c.warmup_ns = msec(10);
  const run_result r = ref_entry().run(w, c, {});
  EXPECT_EQ(r.duration_ns, msec(20));  // the last task (a) is done at 30 ms
  ASSERT_EQ(r.devices.size(), 1u);
  EXPECT_EQ(r.devices[0].busy_ns, msec(20));
  EXPECT_NEAR(r.devices[0].busy_pct, 100.0, 1e-9);
  ASSERT_EQ(r.pipes.size(), 1u);
  EXPECT_EQ(r.pipes[0].items, 3u);  // written at 12, 16, 20 ms; those at 4 and 8 were before
  expect_conserved(r);
}

// Switch overhead and cache refill with the same toy: each switch into a task costs 1 us; B
// starts cold (full 100 us refill), and every return pays refill * x / (x + half).
TEST(SimEngine, SwitchCostAndRefillAreCharged) {
  workload w;
  w.name = "toy-costs";
  w.duration = sec(1);
  w.tasks.push_back(finite("A", {ev::run(msec(25))}));
  w.tasks.push_back(finite("B", {ev::run(msec(25))}));
  run_config c = exact_machine();
  c.machine.cs_cost_ns = 1000;
  c.machine.refill_ns = usec(100);
  c.machine.refill_half_ns = msec(10);
  const run_result r = ref_entry().run(w, c, {{"timeslice", msec(10)}});
  const auto& a = find(r, "A");
  const auto& b = find(r, "B");
  // A: cold start 100 us, then returns after B ran ~10 ms: 100 * 10/(10+10) ~ 50 us each time.
  EXPECT_GT(a.cpu_ns, msec(25) + usec(150));
  EXPECT_LT(a.cpu_ns, msec(25) + usec(250));
  EXPECT_GT(b.cpu_ns, msec(25) + usec(150));
  EXPECT_EQ(r.totals.overhead_ns, 6 * 1000);  // six switches into a task
  expect_conserved(r);
}

TEST(SimEngine, ConservationExactOnEveryScenario) {
  const auto e = ref_entry();
  const auto rt = rt_entry();
  run_config c;
  c.host_timing = false;
  c.duration_ns = sec(3);
  for (const auto& d : builtin_scenarios()) {
    if (d.family == "interbench" && d.name.find("/burn") == std::string::npos && d.name != "interbench/x/compile") continue;
    const workload w = d.make();
    // hackbench's 80 threads pass millions of pipe messages per simulated second: 250 ms
    // of it crosses every kind of event (the sanitizer build took 170 s for 3 s).
    run_config cd = c;
    if (d.family == "eevdf-hackbench") cd.duration_ns = msec(250);
    expect_conserved(e.run(w, cd, {}));
    expect_conserved(rt.run(w, cd, {}));
  }
}

TEST(SimEngine, DeterministicForASeedAndSeedMatters) {
  const auto e = ref_entry();
  run_config c;
  c.host_timing = false;
  c.duration_ns = sec(2);
  const workload w = desktop_2007();
  const std::string a = to_json(e.run(w, c, {}));
  const std::string b = to_json(e.run(w, c, {}));
  EXPECT_EQ(a, b);
  c.seed = 2;
  EXPECT_NE(a, to_json(e.run(w, c, {})));  // jitter draws from the seeded PRNG
}

TEST(SimEngine, PercentilesMatchBruteForce) {
  std::mt19937_64 g(42);
  for (int n : {1, 2, 3, 7, 100, 101, 999}) {
    std::vector<std::int64_t> v;
    for (int i = 0; i < n; ++i) v.push_back(static_cast<std::int64_t>(g() % 1000000));
    const latency_summary s = summarize(v);
    std::vector<std::int64_t> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    auto brute = [&](double p) {
      // smallest x such that at least p% of the samples are <= x
      for (std::int64_t x : sorted) {
        const auto le = std::count_if(v.begin(), v.end(), [&](std::int64_t y) { return y <= x; });
        if (static_cast<double>(le) * 100.0 >= p * n - 1e-9) return x;
      }
      return sorted.back();
    };
    EXPECT_EQ(s.p50, brute(50)) << n;
    EXPECT_EQ(s.p99, brute(99)) << n;
    EXPECT_EQ(s.max, sorted.back());
    EXPECT_EQ(s.count, static_cast<std::uint64_t>(n));
  }
}

// A mutex hands over FIFO; a blocked locker waits exactly as long as the holder keeps it.
TEST(SimEngine, MutexHandoffAndTimers) {
  workload w;
  w.name = "mutex";
  w.duration = sec(1);
  w.cpus = 2;
  w.tasks.push_back(finite("holder", {ev::on(event_kind::lock, "m"), ev::run(msec(5)), ev::on(event_kind::unlock, "m")}));
  task_spec waiter = finite("waiter", {ev::sleep(msec(1)), ev::on(event_kind::lock, "m"), ev::run(msec(1)),
                                       ev::on(event_kind::unlock, "m")});
  w.tasks.push_back(waiter);
  task_spec per = finite("periodic", {ev::timer("t", msec(10)), ev::run(msec(1)), ev::frame(msec(10))}, 5);
  w.tasks.push_back(per);
  const run_result r = ref_entry().run(w, exact_machine(), {});
  EXPECT_EQ(find(r, "holder").exit_ns, msec(5));
  EXPECT_EQ(find(r, "waiter").exit_ns, msec(6));  // gets the mutex at 5 ms, runs 1 ms
  const auto& p = find(r, "periodic");
  EXPECT_EQ(p.frames, 5u);
  EXPECT_EQ(p.deadlines_met, 5u);
  expect_conserved(r);
}

// Response time: from a timer's expiry to the next frame marker, one sample per release; a
// frame with no timer before it does not count. 1 CPU, ref-rr (10 ms slices, no wakeup
// preemption), a 100 ms hog and a task that, every 25 ms, runs 1 ms, marks a frame, runs 1 ms
// more and marks another. The hog is first in order, so the task's timer starts at 10 ms:
//   expiry 35: the hog's slice runs to 40; frame at 41 (6 ms), second frame 42;
//   expiry 60: the hog's slices 42-52, 52-62; frame at 63 (3 ms);
//   expiry 85: the hog's slices 64-74, 74-84, 84-94; frame at 95 (10 ms).
TEST(SimEngine, ResponseTimeRunsFromTheTimersExpiryToTheFrame) {
  workload w;
  w.name = "response";
  w.duration = sec(1);
  w.tasks.push_back(finite("hog", {ev::run(msec(100))}));
  w.tasks.push_back(finite("periodic",
                           {ev::timer("t", msec(25)), ev::run(msec(1)), ev::frame(msec(5)), ev::run(msec(1)), ev::frame()}, 3));
  const run_result r = ref_entry().run(w, exact_machine(), {});
  const auto& p = find(r, "periodic");
  EXPECT_EQ(p.frames, 6u);
  EXPECT_EQ(p.response.count, 3u);
  EXPECT_EQ(p.response.p50, msec(6));
  EXPECT_EQ(p.response.max, msec(10));
  EXPECT_DOUBLE_EQ(p.response.mean, static_cast<double>(msec(6) + msec(3) + msec(10)) / 3);
  EXPECT_EQ(p.deadlines_met, 1u);  // only the 3 ms response meets the 5 ms deadline
  EXPECT_EQ(p.deadlines_missed, 2u);
  EXPECT_EQ(find(r, "hog").response.count, 0u);  // no timer, no frame: no response samples
  expect_conserved(r);
  // The trace carries every sample as a counter on the task's own track (µs): responses 6000,
  // 3000, 10000 at the frames (41, 63, 95 ms), slacks 18000 and 21000 at the timer events
  // (42 and 64 ms); the task is the second created (pid 1001).
  trace_writer tw;
  run_config c = exact_machine();
  c.trace = &tw;
  ref_entry().run(w, c, {});
  std::vector<std::string> marks;
  std::istringstream in(tw.text());
  for (std::string line; std::getline(in, line);) {
    const std::size_t at = line.find("tracing_mark_write: ");
    if (at != std::string::npos) marks.push_back(line.substr(at - 10, 8) + " " + line.substr(at + 20));
  }
  const std::vector<std::string> want = {"0.041000 C|1001|response_us|6000", "0.042000 C|1001|slack_us|18000",
                                         "0.063000 C|1001|response_us|3000", "0.064000 C|1001|slack_us|21000",
                                         "0.095000 C|1001|response_us|10000"};
  EXPECT_EQ(marks, want);
}

// rt-app's per-period slack: at each timer event after the timer's first use, next expiry -
// now. The task above ends its periods at 42 and 64 ms, before the expiries at 60 and 85 ms:
// slack 18 and 21 ms. A task alone on its CPU running 12 ms every 10 ms overruns each period:
//   relative timer (rt-app's default): the period restarts from now, so every slack is -2 ms;
//   absolute timer: expiries stay on the 10 ms grid, 20/30/40 ms at 22/34/46 ms: -2, -4, -6 ms.
TEST(SimEngine, SlackIsTheTimeLeftToTheNextExpiryAndNegativeOnOverrun) {
  {
    workload w;
    w.name = "slack";
    w.duration = sec(1);
    w.tasks.push_back(finite("hog", {ev::run(msec(100))}));
    w.tasks.push_back(finite("periodic", {ev::timer("t", msec(25)), ev::run(msec(1)), ev::frame(), ev::run(msec(1))}, 3));
    const run_result r = ref_entry().run(w, exact_machine(), {});
    const auto& p = find(r, "periodic");
    EXPECT_EQ(p.slack.periods, 2u);  // the first use only arms the timer
    EXPECT_EQ(p.slack.overruns, 0u);
    EXPECT_EQ(p.slack.min, msec(18));
    EXPECT_EQ(p.slack.p50, msec(18));  // nearest rank of {18, 21}
    EXPECT_EQ(find(r, "hog").slack.periods, 0u);
  }
  for (const bool absolute : {false, true}) {
    workload w;
    w.name = "overrun";
    w.duration = sec(1);
    w.tasks.push_back(finite("late", {ev::timer("t", msec(10), absolute), ev::run(msec(12))}, 4));
    const run_result r = ref_entry().run(w, exact_machine(), {});
    const auto& p = find(r, "late");
    EXPECT_EQ(p.slack.periods, 3u) << absolute;
    EXPECT_EQ(p.slack.overruns, 3u) << absolute;
    EXPECT_EQ(p.slack.min, absolute ? -msec(6) : -msec(2));
    EXPECT_EQ(p.slack.p50, absolute ? -msec(4) : -msec(2));
    EXPECT_EQ(p.exit_ns, msec(58));
  }
}

// An anchored timer (event::anchor): expiries at anchor + k x period, wherever the task first
// reaches the timer. Alone on a CPU, anchor 5 ms, period 2 ms, 1 ms of work, 3 loops:
//   first reached at 0: sleeps to 7 ms; runs 7-8, 9-10, 11-12; exits at 12 ms;
//   first reached at 10 ms (after a 10 ms sleep): 7 and 9 ms have passed, so it catches up as an
//   absolute timer does: runs 10-11 (for 7), 11-12 (for 9), 12-13 (for 11); slack -2, -1 ms.
// An anchor below -1 is refused before anything runs. A relative timer takes an anchor too
// (rt-app's timers all count from the thread's start): reached late, it restarts from now.
TEST(SimEngine, AnchoredTimerKeepsTheGridWhereverTheTaskFirstReachesIt) {
  {
    workload w;
    w.name = "anchored";
    w.duration = sec(1);
    w.tasks.push_back(finite("a", {ev::anchored_timer("t", msec(2), msec(5)), ev::run(msec(1))}, 3));
    const run_result r = ref_entry().run(w, exact_machine(), {});
    const auto& a = find(r, "a");
    EXPECT_EQ(a.exit_ns, msec(12));
    EXPECT_EQ(a.cpu_ns, msec(3));
    EXPECT_EQ(a.slack.periods, 2u);
    EXPECT_EQ(a.slack.min, msec(1));  // 9 - 8 and 11 - 10 ms
  }
  {
    workload w;
    w.name = "anchored-late";
    w.duration = sec(1);
    task_spec late;
    late.name = "late";
    late.loop = 1;
    late.phases.push_back(phase{"start", 1, {ev::sleep(msec(10))}});
    late.phases.push_back(phase{"periodic", 3, {ev::anchored_timer("t", msec(2), msec(5)), ev::run(msec(1))}});
    w.tasks.push_back(late);
    const run_result r = ref_entry().run(w, exact_machine(), {});
    const auto& l = find(r, "late");
    EXPECT_EQ(l.exit_ns, msec(13));
    EXPECT_EQ(l.slack.periods, 2u);
    EXPECT_EQ(l.slack.overruns, 2u);
    EXPECT_EQ(l.slack.min, -msec(2));  // 9 - 11 ms; then 11 - 12
  }
  {
    workload w;
    w.name = "anchored-late-relative";
    w.duration = sec(1);
    task_spec late;
    late.name = "late";
    late.loop = 1;
    event relative = ev::timer("t", msec(2));
    relative.anchor = msec(5);
    late.phases.push_back(phase{"start", 1, {ev::sleep(msec(10))}});
    late.phases.push_back(phase{"periodic", 3, {relative, ev::run(msec(1))}});
    w.tasks.push_back(late);
    const run_result r = ref_entry().run(w, exact_machine(), {});
    const auto& l = find(r, "late");
    EXPECT_EQ(l.exit_ns, msec(15));  // 7 ms passed: restarts at 10; runs 10-11, 12-13, 14-15
    EXPECT_EQ(l.slack.periods, 2u);
    EXPECT_EQ(l.slack.overruns, 0u);
    EXPECT_EQ(l.slack.min, msec(1));
  }
  workload bad;
  bad.name = "bad-anchor";
  bad.duration = sec(1);
  bad.tasks.push_back(finite("a", {ev::anchored_timer("t", msec(2), -2), ev::run(msec(1))}));
  EXPECT_THROW(ref_entry().run(bad, exact_machine(), {}), workload_error);
  bad.tasks[0] = finite("a", {ev::anchored_timer("t", msec(2), 0), ev::run(msec(1))});
  EXPECT_NO_THROW(ref_entry().run(bad, exact_machine(), {}));
}

// Non-preemptible work (event::nopreempt: kernel code under PREEMPT_NONE). One CPU, no switch
// cost: a normal task runs 5 ms that cannot be preempted, then 5 ms that can; a SCHED_FIFO task
// sleeps 1 ms, then runs 1 ms. By hand: the FIFO task's wakeup at 1 ms would preempt at once; it
// waits instead until the section ends at 5 ms, runs 5-6 ms (preempting the plain run that
// follows), and the normal task ends at 11 ms. With a plain first run: FIFO runs 1-2 ms, the
// normal task ends at 11 ms too, having waited 1 ms. A task switched in to start such work holds
// reschedules from that moment (a kernel thread is in kernel code as soon as it runs): had the
// FIFO task started after the normal one, its own start would have waited for the section.
TEST(SimEngine, NonPreemptibleRunHoldsAReschedUntilItEnds) {
  for (const bool held : {true, false}) {
    workload w;
    w.name = "nopreempt";
    w.duration = sec(1);
    task_spec fifo = finite("fifo", {ev::sleep(msec(1)), ev::run(msec(1))});
    fifo.params.kind = sched_kind::fifo;
    fifo.params.rt_priority = 50;
    w.tasks.push_back(fifo);  // first: it is asleep before the other starts its section
    w.tasks.push_back(finite("kernel", {held ? ev::run_nopreempt(msec(5)) : ev::run(msec(5)), ev::run(msec(5))}));
    const run_result r = rt_entry().run(w, exact_machine(), {});
    const auto& f = find(r, "fifo");
    const auto& k = find(r, "kernel");
    EXPECT_EQ(f.exit_ns, held ? msec(6) : msec(2)) << held;
    EXPECT_EQ(f.max_wait_ns, held ? msec(4) : 0) << held;
    EXPECT_EQ(k.exit_ns, msec(11)) << held;
    EXPECT_EQ(k.max_wait_ns, msec(1)) << held;
    expect_conserved(r);
  }
  // The tick too: two hogs under ref-rr (10 ms turns at HZ 250 here: 3 ticks of 4 ms, so a
  // turn ends at the 12 ms tick); the first runs 30 ms without preemption, then sleeps, so
  // the second waits the whole 30 ms; preemptible, it would get the CPU at the first turn's end.
  for (const bool held : {true, false}) {
    workload w;
    w.name = "nopreempt-tick";
    w.duration = sec(1);
    w.hz = 250;
    w.tasks.push_back(finite("kernel", {held ? ev::run_nopreempt(msec(30)) : ev::run(msec(30)), ev::sleep(msec(100))}));
    w.tasks.push_back(finite("hog", {ev::run(msec(1))}));
    const run_result r = ref_entry().run(w, exact_machine(), {});
    const auto& h = find(r, "hog");
    if (held) {
      EXPECT_EQ(h.max_wait_ns, msec(30));
      EXPECT_EQ(h.exit_ns, msec(31));
    } else {
      EXPECT_LT(h.max_wait_ns, msec(30));
    }
    expect_conserved(r);
  }
  workload bad;
  bad.name = "bad-nopreempt";
  bad.duration = sec(1);
  event s = ev::sleep(msec(1));
  s.nopreempt = true;
  bad.tasks.push_back(finite("a", {s, ev::run(msec(1))}));
  EXPECT_THROW(ref_entry().run(bad, exact_machine(), {}), workload_error);
}

// Wakeup context as the policies see it. A task that stands in for a device (task_spec::
// interrupt_context) wakes others from interrupt
// context: its resumes and pipe writes enqueue with `wakeup | interrupt`, what o1 credits as
// SLEEP_INTERRUPTED; the same program in an ordinary task wakes with `wakeup` alone, and timer
// wakeups are interrupt context either way. Counted by a reference-RR policy that records the
// flags of every wakeup of the task named "x" (pid 1001: created second).
std::uint64_t g_x_wakeups = 0, g_x_interrupt_wakeups = 0, g_x_uninterruptible_wakeups = 0;
template <class Task>
class wake_flag_spy : public reference_rr_policy<Task> {
 public:
  void enqueue(Task& t, sched_time now, enqueue_flags f) noexcept {
    if (t.pid == 1001 && has(f, enqueue_flags::wakeup)) {
      ++g_x_wakeups;
      g_x_interrupt_wakeups += has(f, enqueue_flags::interrupt) ? 1u : 0u;
      g_x_uninterruptible_wakeups += has(f, enqueue_flags::uninterruptible) ? 1u : 0u;
    }
    reference_rr_policy<Task>::enqueue(t, now, f);
  }
};

TEST(SimEngine, DeviceStandInsWakeFromInterruptContext) {
  using spy_task = sim_task<reference_rr_entity>;
  const policy_entry spy = make_entry<spy_task, wake_flag_spy<spy_task>, wake_flag_spy<spy_task>>("spy", "flag spy");
  for (const bool device : {false, true}) {
    workload w;
    w.name = "irq";
    w.duration = msec(100);
    task_spec dev = finite("dev", {ev::timer("t", msec(10)), ev::on(event_kind::resume, "r"), ev::pipe_write("p", 1)}, -1);
    dev.interrupt_context = device;
    w.tasks.push_back(dev);
    task_spec x = finite("x", {ev::on(event_kind::suspend, "r"), ev::pipe_read("p", 0, usec(100), 0)}, -1);
    w.tasks.push_back(x);
    g_x_wakeups = g_x_interrupt_wakeups = 0;
    spy.run(w, exact_machine(), {});
    EXPECT_GE(g_x_wakeups, 9u) << device;  // one resume per 10 ms period
    EXPECT_EQ(g_x_interrupt_wakeups, device ? g_x_wakeups : 0u) << device;
  }
  // interbench jobs sleep through their timekeeper thread, which wakes them with a semaphore:
  // process context, unlike a plain timed sleep (interrupt context).
  for (const bool job : {false, true}) {
    workload w;
    w.name = "timekeeper";
    w.duration = msec(100);
    w.tasks.push_back(finite("idle", {ev::sleep(sec(1))}));
    w.tasks.push_back(finite("x", {job ? ev::job(msec(1), msec(10)) : ev::sleep(msec(10))}, 6));
    g_x_wakeups = g_x_interrupt_wakeups = 0;
    spy.run(w, exact_machine(), {});
    EXPECT_EQ(g_x_wakeups, 6u) << job;  // each of the 6 passes ends in a sleep
    EXPECT_EQ(g_x_interrupt_wakeups, job ? 0u : 6u) << job;
  }
  // An uninterruptible sleep (disk I/O) ends with a device completion: `interrupt` and
  // `uninterruptible`; the trace shows the sleeper leaving the CPU in state D.
  {
    workload w;
    w.name = "io";
    w.duration = msec(100);
    w.tasks.push_back(finite("idle", {ev::sleep(sec(1))}));
    w.tasks.push_back(finite("x", {ev::run(usec(100)), ev::io_sleep(msec(10))}, 6));
    g_x_wakeups = g_x_interrupt_wakeups = g_x_uninterruptible_wakeups = 0;
    trace_writer tw;
    run_config c = exact_machine();
    c.trace = &tw;
    spy.run(w, c, {});
    EXPECT_EQ(g_x_wakeups, 6u);
    EXPECT_EQ(g_x_interrupt_wakeups, 6u);
    EXPECT_EQ(g_x_uninterruptible_wakeups, 6u);
    EXPECT_NE(tw.text().find("prev_comm=x prev_pid=1001 prev_prio=120 prev_state=D ==>"), std::string::npos);
    EXPECT_EQ(tw.text().find("prev_comm=x prev_pid=1001 prev_prio=120 prev_state=S ==>"), std::string::npos);
  }
}

// interbench's periodic job step (interbench.md §2) and metrics (§4), by hand. A job task
// (2 ms of work every 10 ms, reference RR) and a SCHED_FIFO task that takes the CPU once.
// Late finish: the FIFO task wakes at 11 ms and runs 25 ms, so job 2 (started at 10) finishes
// at 37: its deadline (20) is missed by two periods (k = (37 - 20)/10 + 1 = 2): two missed
// deadlines, two missed burns (k > 1), 20 ms added to its sample, next target 40. Jobs at 0,
// 10, 40, 50, 60; samples 0, 20, 0, 0, 0 ms:
//   average 4 ms, max 20, "SD" sqrt((400 - 16/5)/4) = 9.9599 ms, true SD 8 ms,
//   deadlines met 4 of 6 (66.67 %), desired CPU 5 burns of 7 (71.43 %).
// Dropped job: the FIFO task runs 5-30 ms, so job 2 (target 10) can only start at 30, past
// target + interval: dropped with k = (30 - 20)/10 + 1 = 2 missed deadlines and burns, sample
// 20 + 2 x 10 = 40 ms, next target 40. Jobs 0, (30 dropped), 40, 50; samples 0, 40, 0, 0 ms:
//   average 10 ms, max 40, "SD" sqrt((1600 - 100/4)/3) = 22.9129 ms, true SD 17.3205 ms,
//   deadlines met 3 of 5 (60 %), desired CPU 3 of 5 (60 %).
// Gaming: one 95 ms chunk sharing the CPU with a hog in 10 ms slices (game 0-10, 20-30, ...,
// 160-170, 180-185) ends at 185 ms: 90 ms late; desired CPU 95 / 185 = 51.35 %, no deadlines.
// (95, not 100: a chunk ending exactly on a slice boundary ties with the tick, and the engine's
// (time, sequence) order then preempts first, so it would finish one round later.)
TEST(SimEngine, InterbenchJobStepsAndMetricsByHand) {
  struct expected {
    duration_ns fifo_sleep, fifo_run;
    int jobs;
    double avg, max, rms, sd, met_pct, cpu_pct;
  };
  const expected cases[] = {{msec(11), msec(25), 5, 4, 20, 9.9599197, 8, 100.0 * 4 / 6, 100.0 * 5 / 7},
                            {msec(5), msec(25), 4, 10, 40, 22.9128785, 17.3205081, 60, 60}};
  for (const expected& c : cases) {
    workload w;
    w.name = "interbench-by-hand";
    w.duration = sec(1);
    w.tasks.push_back(finite("job", {ev::job(msec(2), msec(10))}, c.jobs));
    task_spec fifo = finite("fifo", {ev::sleep(c.fifo_sleep), ev::run(c.fifo_run)});
    fifo.params.kind = sched_kind::fifo;
    fifo.params.rt_priority = 50;
    w.tasks.push_back(fifo);
    const run_result r = rt_entry().run(w, exact_machine(), {});
    const auto& j = find(r, "job");
    ASSERT_TRUE(j.has_jobs);
    EXPECT_EQ(j.jobs.samples, static_cast<std::uint64_t>(c.jobs));
    EXPECT_NEAR(j.jobs.avg_ms, c.avg, 1e-9);
    EXPECT_NEAR(j.jobs.max_ms, c.max, 1e-9);
    EXPECT_NEAR(j.jobs.rms_ms, c.rms, 1e-6);
    EXPECT_NEAR(j.jobs.sd_ms, c.sd, 1e-6);
    EXPECT_NEAR(j.jobs.deadlines_met_pct, c.met_pct, 1e-9);
    EXPECT_NEAR(j.jobs.desired_cpu_pct, c.cpu_pct, 1e-9);
    expect_conserved(r);
  }
  workload g;
  g.name = "interbench-gaming";
  g.duration = sec(1);
  g.tasks.push_back(finite("game", {ev::job(msec(95), 0)}, 1));
  g.tasks.push_back(finite("hog", {ev::run(msec(500))}));
  const run_result r = ref_entry().run(g, exact_machine(), {});
  const auto& j = find(r, "game");
  ASSERT_TRUE(j.has_jobs);
  EXPECT_EQ(j.jobs.samples, 1u);
  EXPECT_NEAR(j.jobs.max_ms, 90, 1e-9);
  EXPECT_NEAR(j.jobs.desired_cpu_pct, 100.0 * 95 / 185, 1e-9);
  EXPECT_EQ(j.jobs.deadlines_met_pct, 0);
}

// interbench's X (interbench.md §2): step i = periodic_schedule(i ms, (100 - i) ms, deadline),
// then deadline += i ms. The task sleeps until the deadline periodic_schedule returns, Q_i, and
// the next call's argument is Q_i + i, so it wakes i ms before its nominal start. Alone on a CPU
// with no switch cost, one cycle from t = 0:
//   step 0: burns nothing, sleeps to 100; step i >= 1 starts at 99 i + 1 ms and ends at 100 i
//   (its deadline exactly: met); step 100 (interval 0) starts at 9901, ends at 10001, counts no
//   deadline and does not sleep, so the program ends at 10.001 s.
// 101 samples, all 0 ms; 100 deadlines met of 100; 101 burns, none missed.
TEST(SimEngine, InterbenchXRampWakesEarlyAndMeetsEveryDeadlineWhenAlone) {
  std::vector<event> steps;
  for (int i = 0; i <= 100; ++i) steps.push_back(ev::job(msec(i), msec(100 - i), msec(i)));
  workload w;
  w.name = "x-ramp";
  w.duration = sec(20);
  w.tasks.push_back(finite("x", steps, 1));
  const run_result r = ref_entry().run(w, exact_machine(), {});
  const auto& x = find(r, "x");
  ASSERT_TRUE(x.has_jobs);
  EXPECT_EQ(x.jobs.samples, 101u);
  EXPECT_EQ(x.jobs.max_ms, 0);
  EXPECT_EQ(x.deadlines_met, 100u);
  EXPECT_EQ(x.deadlines_missed, 0u);
  EXPECT_EQ(x.jobs.desired_cpu_pct, 100);
  EXPECT_EQ(x.exit_ns, msec(10001));
  EXPECT_EQ(x.cpu_ns, msec(5050));  // 0 + 1 + ... + 100 ms
}

// Condition ping-pong (sync on a condition under a mutex) alternates strictly and never loses a
// wakeup: X (first in order) waits, xterm signals it and waits in turn, 5000 times.
TEST(SimEngine, ConditionPingPongCompletes) {
  workload w;
  w.name = "ping-pong";
  w.duration = sec(30);
  const std::vector<event> handoff = {ev::on(event_kind::lock, "tty"), ev::cond(event_kind::sync, "pty", "tty"),
                                      ev::on(event_kind::unlock, "tty")};
  std::vector<event> x = handoff, xterm = handoff;
  x.push_back(ev::run(usec(50)));
  xterm.push_back(ev::run(usec(60)));
  task_spec xs = finite("Xorg", x, -1);
  xs.daemon = true;
  w.tasks.push_back(xs);
  w.tasks.push_back(finite("xterm", xterm, 5000));  // 5000 x (60 + 50) us = 550 ms exactly
  const run_result r = ref_entry().run(w, exact_machine(), {});
  const auto& xt = find(r, "xterm");
  ASSERT_GE(xt.exit_ns, 0);
  EXPECT_EQ(xt.cpu_ns, 5000 * usec(60));
  EXPECT_EQ(xt.exit_ns, 5000 * usec(110));  // strictly alternating: X 50 us, xterm 60 us, ...
  expect_conserved(r);
}

TEST(SimEngine, RtClassPreemptsAndBarrierReleasesAll) {
  workload w;
  w.name = "rt";
  w.duration = sec(1);
  w.tasks.push_back(finite("hog", {ev::run(msec(20))}));
  task_spec rt = finite("rt", {ev::sleep(msec(3)), ev::run(msec(2))});
  rt.params.kind = sched_kind::fifo;
  rt.params.rt_priority = 50;
  w.tasks.push_back(rt);
  task_spec b = finite("party", {ev::run(msec(1)), ev::on(event_kind::barrier, "b"), ev::run(msec(1))});
  b.instances = 3;
  w.tasks.push_back(b);
  const run_result r = rt_entry().run(w, exact_machine(), {});
  const auto& t = find(r, "rt");
  EXPECT_EQ(t.exit_ns, msec(5));  // woke at 3 ms, preempted the hog at once, ran 2 ms
  EXPECT_EQ(t.latency.max, 0);
  for (int i = 0; i < 3; ++i) EXPECT_GE(find(r, "party-" + std::to_string(i)).exit_ns, 0);
  expect_conserved(r);
}

TEST(SimEngine, TraceLinesMatchFtraceAndPerfetto) {
  trace_writer tw;
  run_config c = exact_machine();
  c.trace = &tw;
  c.cpus = 2;
  c.duration_ns = msec(200);
  ref_entry().run(games_renice(-10), c, {});
  std::istringstream in(tw.text());
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "# tracer: nop");
  const std::regex perfetto(R"(-(\d+)\s+\(?\s*(\d+|-+)?\)?\s?\[(\d+)\]\s*[a-zA-Z0-9.]{0,4}\s+(\d+\.\d+):\s+(\S+):)");
  const std::regex sw(R"(^ *\S+-\d+ +\[\d{3}\] d\.\.2 +\d+\.\d{6}: sched_switch: prev_comm=[^ =]+ prev_pid=\d+ prev_prio=-?\d+ prev_state=(R|R\+|S|D|X) ==> next_comm=[^ =]+ next_pid=\d+ next_prio=-?\d+$)");
  const std::regex wk(R"(^ *\S+-\d+ +\[\d{3}\] d\.\.2 +\d+\.\d{6}: sched_(waking|wakeup|wakeup_new): comm=[^ =]+ pid=\d+ prio=-?\d+ target_cpu=\d{3}$)");
  // atrace's counter form, as Perfetto's systrace parser reads it: C|tgid|name|integer, written
  // by the task itself (the prefix's pid is the counter's pid).
  const std::regex mark(R"(^ *\S+-(\d+) +\[\d{3}\] d\.\.2 +\d+\.\d{6}: tracing_mark_write: C\|(\d+)\|(response_us|slack_us)\|-?\d+$)");
  // set_task_cpu's line; each task's next switch-in is on the CPU it moved to.
  const std::regex mig(R"(^ *\S+-\d+ +\[\d{3}\] d\.\.2 +\d+\.\d{6}: sched_migrate_task: comm=[^ =]+ pid=(\d+) prio=-?\d+ orig_cpu=(\d+) dest_cpu=(\d+)$)");
  const std::regex switch_in(R"(\[(\d{3})\] .* next_pid=(\d+) )");
  std::map<std::string, int> moved_to;  // pid -> the CPU of its last migration, until it runs
  int switches = 0, wakes = 0, marks = 0, migrations = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    EXPECT_TRUE(std::regex_search(line, perfetto)) << line;
    std::smatch m;
    const bool is_sw = std::regex_match(line, sw), is_wk = std::regex_match(line, wk);
    const bool is_mark = std::regex_match(line, m, mark);
    std::smatch mm;
    const bool is_mig = std::regex_match(line, mm, mig);
    EXPECT_TRUE(is_sw || is_wk || is_mark || is_mig) << line;
    if (is_mark) {
      EXPECT_EQ(m[1].str(), m[2].str()) << line;
    }
    if (is_mig) {
      EXPECT_NE(mm[2].str(), mm[3].str()) << line;
      moved_to[mm[1].str()] = std::stoi(mm[3].str());
    }
    std::smatch sm;
    if (is_sw && std::regex_search(line, sm, switch_in) && moved_to.count(sm[2].str()) != 0) {
      EXPECT_EQ(std::stoi(sm[1].str()), moved_to[sm[2].str()]) << "switched in elsewhere than it moved to: " << line;
      moved_to.erase(sm[2].str());
    }
    switches += is_sw;
    wakes += is_wk;
    marks += is_mark;
    migrations += is_mig;
  }
  EXPECT_GT(switches, 10);
  EXPECT_GT(wakes, 10);
  EXPECT_GT(marks, 0);  // the typist's keystroke echoes (response_us) and key timer (slack_us)
  EXPECT_GT(migrations, 0);
}

// ftrace prints a timestamp rounded to the nearest µs (trace_output.c's trace_print_time through
// ns2usecs: nsec + 500, then / 1000), not truncated: 499 ns past a µs stays, 500 ns goes up, and
// the carry reaches the seconds.
TEST(SimEngine, TraceTimestampsRoundToTheNearestMicrosecondAsFtrace) {
  trace_writer tw;
  for (const std::int64_t ns : {std::int64_t{0}, std::int64_t{1000000499}, std::int64_t{1000000500},
                                std::int64_t{1999999500}, std::int64_t{1999999499}})
    tw.counter(ns, 0, "t", 7, "response_us", 1);
  std::istringstream in(tw.text());
  std::vector<std::string> stamps;
  std::string line;
  const std::regex stamp(R"(\] d\.\.2 +(\d+\.\d{6}): )");
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, stamp)) stamps.push_back(m[1].str());
  }
  EXPECT_EQ(stamps, (std::vector<std::string>{"0.000000", "1.000000", "1.000001", "2.000000", "1.999999"}));
}

// comm is cut to 15 bytes before a UTF-8 character that would not fit whole, never inside
// one: 14 x 'a' + 'é' (2 bytes) keeps the a's only, 13 x 'b' + 'é' fits exactly, and a 3-byte
// '€' after 13 x 'c' is dropped whole.
TEST(SimEngine, TraceCommCutAtCharacterBoundary) {
  workload w;
  w.name = "comm";
  w.duration = msec(10);
  w.tasks.push_back(finite(std::string(14, 'a') + "\xC3\xA9", {ev::run(msec(1))}));
  w.tasks.push_back(finite(std::string(13, 'b') + "\xC3\xA9x", {ev::run(msec(1))}));
  w.tasks.push_back(finite(std::string(13, 'c') + "\xE2\x82\xAC", {ev::run(msec(1))}));
  trace_writer tw;
  run_config c = exact_machine();
  c.trace = &tw;
  ref_entry().run(w, c, {});
  const std::string& t = tw.text();
  EXPECT_NE(t.find("comm=" + std::string(14, 'a') + " pid="), std::string::npos);
  EXPECT_NE(t.find("comm=" + std::string(13, 'b') + "\xC3\xA9 pid="), std::string::npos);
  EXPECT_NE(t.find("comm=" + std::string(13, 'c') + " pid="), std::string::npos);
  EXPECT_EQ(t.find("\xC3 "), std::string::npos);  // no lead byte without its continuation
  EXPECT_EQ(t.find("\xE2\x82 "), std::string::npos);
}

// JSON text is UTF-8 (RFC 8259 §8.1): a name that is not (an input path's Latin-1 byte, which
// the run's "scenario" field carries) is written with U+FFFD for each bad byte; well-formed
// characters pass as they are. Text tables pad by characters, so "Über" lines up with "Uber".
TEST(SimReport, JsonStringsStayUtf8AndTablesPadByCharacter) {
  using schedcore::sim::rep::str;
  EXPECT_EQ(str("inv\xFF.json"), "\"inv\\ufffd.json\"");
  EXPECT_EQ(str("\xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"), "\"\xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"");
  EXPECT_EQ(str("\xE2\x82"), "\"\\ufffd\\ufffd\"");          // a cut sequence: two stray bytes
  EXPECT_EQ(str("\xC0\xAF\xED\xA0\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"");  // overlong '/', a surrogate
  EXPECT_EQ(str("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
  const std::string table = render_table({{"name", "cpu ms"}, {"\xC3\x9C" "ber", "1"}, {"Uber", "22"}});
  EXPECT_EQ(table,
            "name  cpu ms\n"
            "------------\n"
            "\xC3\x9C" "ber       1\n"
            "Uber      22\n");
}

// Unicode white space splits a record for readers whose notion of a space is Unicode's
// (Python's \s, JavaScript's line terminators U+2028 / U+2029): like ASCII space it becomes
// '_', one underscore per character, before the 15-byte cut.
TEST(SimEngine, TraceCommReplacesUnicodeWhiteSpace) {
  workload w;
  w.name = "comm";
  w.duration = msec(10);
  w.tasks.push_back(finite("a\xC2\xA0" "b\xE2\x80\xA8" "c\xE3\x80\x80" "d", {ev::run(msec(1))}));  // NBSP, LS, ideographic
  w.tasks.push_back(finite("e\xE2\x80\x89" "f\xE2\x81\x9F" "g\xC2\x85" "h\xE1\x9A\x80" "i", {ev::run(msec(1))}));
  w.tasks.push_back(finite("\xC3\xA9t\xC3\xA9\xE2\x82\xAC", {ev::run(msec(1))}));  // not white space: kept
  trace_writer tw;
  run_config c = exact_machine();
  c.trace = &tw;
  ref_entry().run(w, c, {});
  const std::string& t = tw.text();
  EXPECT_NE(t.find("comm=a_b_c_d pid="), std::string::npos) << t;
  EXPECT_NE(t.find("comm=e_f_g_h_i pid="), std::string::npos) << t;
  EXPECT_NE(t.find("comm=\xC3\xA9t\xC3\xA9\xE2\x82\xAC pid="), std::string::npos) << t;
  EXPECT_EQ(t.find("\xC2\xA0"), std::string::npos);
  EXPECT_EQ(t.find("\xE2\x80\xA8"), std::string::npos);
}

// Traces print the policy's dynamic priority where it has one (the kernel's p->prio, as ftrace
// does), so interactivity decisions can be read off Perfetto. o1, nice 0, 1 CPU: a task that
// sleeps 10 ms per 1 ms of work reaches the full sleep_avg (MAX_SLEEP_AVG 1 s) and bonus +5:
// prio 115; a CPU hog beside it sinks to the full penalty: 125 (2.6.21 effective_prio).
// SD: a nice-0 hog walks down the staircase, so its printed prio takes several values in
// 100..139. A policy without dynamic priorities (the reference RR) prints 120 + nice.
std::vector<std::pair<std::string, int>> switched_in(const std::string& trace) {
  std::vector<std::pair<std::string, int>> v;
  const std::regex next(R"(next_comm=(\S+) next_pid=\d+ next_prio=(-?\d+))");
  std::istringstream in(trace);
  std::string line;
  std::smatch m;
  while (std::getline(in, line))
    if (std::regex_search(line, m, next)) v.emplace_back(m[1], std::stoi(m[2]));
  return v;
}
TEST(SimEngine, TracesPrintTheDynamicPriority) {
  workload w;
  w.name = "prio";
  w.duration = sec(3);
  task_spec sleeper = finite("sleeper", {ev::sleep(msec(10)), ev::run(msec(1))}, -1);
  task_spec hog = finite("hog", {ev::run(msec(100))}, -1);
  w.tasks = {sleeper, hog};
  run_config c = exact_machine();
  {
    trace_writer tw;
    c.trace = &tw;
    o1_entry("o1", "o1").run(w, c, {});
    int last_sleeper = 0, last_hog = 0;
    for (const auto& [comm, prio] : switched_in(tw.text())) (comm == "sleeper" ? last_sleeper : last_hog) = prio;
    EXPECT_EQ(last_sleeper, 115);
    EXPECT_EQ(last_hog, 125);
  }
  {
    trace_writer tw;
    c.trace = &tw;
    sd_entry("sd", "sd").run(w, c, {});
    std::vector<int> hog_prios;
    for (const auto& [comm, prio] : switched_in(tw.text()))
      if (comm == "hog") hog_prios.push_back(prio);
    ASSERT_FALSE(hog_prios.empty());
    for (int p : hog_prios) {
      EXPECT_GE(p, 100);
      EXPECT_LE(p, 139);
    }
    std::sort(hog_prios.begin(), hog_prios.end());
    EXPECT_GE(std::unique(hog_prios.begin(), hog_prios.end()) - hog_prios.begin(), 3);
  }
  {
    trace_writer tw;
    c.trace = &tw;
    ref_entry().run(w, c, {});
    int checked = 0;
    for (const auto& [comm, prio] : switched_in(tw.text())) {
      if (comm != "swapper/0") {
        EXPECT_EQ(prio, 120) << comm;
        ++checked;
      }
    }
    EXPECT_GT(checked, 10);  // the loop saw the run's switches (none would pass vacuously)
  }
}

// A tiny strict JSON validator (RFC 8259 grammar, no extensions).
struct json_checker {
  const std::string& s;
  std::size_t i = 0;
  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')) ++i;
  }
  bool lit(const char* w) {
    const std::string t(w);
    if (s.compare(i, t.size(), t) != 0) return false;
    i += t.size();
    return true;
  }
  bool str() {
    if (i >= s.size() || s[i] != '"') return false;
    for (++i; i < s.size(); ++i) {
      if (s[i] == '"') { ++i; return true; }
      if (static_cast<unsigned char>(s[i]) < 0x20) return false;
      if (s[i] == '\\') ++i;
    }
    return false;
  }
  bool num() {
    const std::size_t b = i;
    if (i < s.size() && s[i] == '-') ++i;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == 'e' || s[i] == 'E' || s[i] == '+' || s[i] == '-')) ++i;
    return i > b;
  }
  bool value() {
    ws();
    if (i >= s.size()) return false;
    bool ok;
    if (s[i] == '{') {
      ++i; ws();
      if (i < s.size() && s[i] == '}') { ++i; return true; }
      for (;;) {
        ws();
        if (!str()) return false;
        ws();
        if (i >= s.size() || s[i++] != ':') return false;
        if (!value()) return false;
        ws();
        if (i < s.size() && s[i] == ',') { ++i; continue; }
        if (i < s.size() && s[i] == '}') { ++i; return true; }
        return false;
      }
    } else if (s[i] == '[') {
      ++i; ws();
      if (i < s.size() && s[i] == ']') { ++i; return true; }
      for (;;) {
        if (!value()) return false;
        ws();
        if (i < s.size() && s[i] == ',') { ++i; continue; }
        if (i < s.size() && s[i] == ']') { ++i; return true; }
        return false;
      }
    } else if (s[i] == '"') {
      ok = str();
    } else if (lit("true") || lit("false") || lit("null")) {
      ok = true;
    } else {
      ok = num();
    }
    return ok;
  }
  bool document() {
    if (!value()) return false;
    ws();
    return i == s.size();
  }
};

TEST(SimEngine, JsonOutputParsesAndHasContractFields) {
  run_config c;
  c.duration_ns = sec(1);
  std::vector<run_result> rs = {ref_entry().run(desktop_2007(), c, {}), ref_entry().run(kernbench_4cpu(), c, {})};
  rs[0].policy = "ref-rr";
  rs[1].policy = "ref-rr";
  for (const std::string& doc : {to_json(rs), to_json(std::vector<run_result>{rs[0]})}) {
    json_checker jc{doc};
    EXPECT_TRUE(jc.document()) << "at " << jc.i << ": " << doc.substr(jc.i > 40 ? jc.i - 40 : 0, 80);
    for (const char* f : {"\"policy\"", "\"scenario\"", "\"cpus\"", "\"duration_ns\"", "\"totals\"", "\"context_switches\"",
                          "\"cs_per_sec\"", "\"idle_pct\"", "\"makespan_ns\"", "\"events\"", "\"events_per_sec\"",
                          "\"fairness\"", "\"jain\"", "\"tasks\"", "\"name\"", "\"nice\"", "\"cpu_ns\"", "\"wait_ns\"",
                          "\"switches\"", "\"latency_ns\"", "\"p50\"", "\"p99\"", "\"max\"", "\"deadlines\"", "\"met\"",
                          "\"missed\"", "\"fps\""})
      EXPECT_NE(doc.find(f), std::string::npos) << f;
  }
}

// EEVDF's delayed dequeue (delay_dequeue=1, Linux 6.12+) on several CPUs: a sleeper that its
// run queue still holds must be woken on that CPU (the engine asks the class, as the kernel's
// ttwu_runnable() keeps a queued task where it is). Woken on any other CPU, its entity would be
// linked into a second CPU's tree: the class would report that misuse, which fails this test,
// or the run would corrupt. Every run conserves CPU time, and the knob changes the schedule.
TEST(SimEngine, EevdfDelayedSleepersAreWokenWhereTheyAreQueued) {
  registry reg;
  reg.add(eevdf_entry());
  const policy_spec on = parse_policy_spec(reg, "eevdf:delay_dequeue=1");
  const policy_spec off = parse_policy_spec(reg, "eevdf");
  workload desk = desktop_2007();
  desk.cpus = 2;
  desk.duration = sec(4);
  workload intr = massive_intr(2, 40, 0);
  intr.duration = sec(3);
  workload kb = kernbench_4cpu();
  kb.duration = sec(3);
  run_config cfg;
  cfg.host_timing = false;
  for (const workload* w : {&desk, &intr, &kb}) {
    const run_result a = on.entry->run(*w, cfg, on.knobs);
    const run_result b = off.entry->run(*w, cfg, off.knobs);
    expect_conserved(a);
    expect_conserved(b);
    std::vector<std::int64_t> cpu_a, cpu_b;
    for (const auto& t : a.tasks) cpu_a.push_back(t.cpu_ns);
    for (const auto& t : b.tasks) cpu_b.push_back(t.cpu_ns);
    EXPECT_NE(cpu_a, cpu_b) << w->name << ": delay_dequeue changed nothing";
    if (w == &desk) {
      EXPECT_GT(a.totals.migrations, 0u) << "wakeups did choose CPUs: the path under test ran";
    }
  }
}

// Three equal hogs on two CPUs: the balancer sees 2 against 1, a one-task imbalance that a
// move only mirrors. By default it is left alone, so one hog keeps a CPU (100 %) and two share
// the other (50 % each): Jain = (1 + 0.5 + 0.5)^2 / (3 · (1 + 0.25 + 0.25)) = 0.889. With
// machine.balance_failed = 1 (Linux's nr_balance_failed escalation) every second periodic
// balance that finds it moves the waiting hog, the roles swap, and over 20 s each hog gets
// its fair 2/3 of a CPU, as three spinning threads do on Linux 6.18 (65-69 % each,
// docs/results.md). The move rate follows from the rule: one per one to two balance intervals
// (64 ms here), so 156 to 312 in 20 s.
TEST(SimEngine, OneTaskImbalanceRotatesOnlyWithBalanceFailed) {
  workload w;
  w.name = "three-hogs";
  w.cpus = 2;
  w.hz = 250;
  w.duration = sec(20);
  for (const char* name : {"h0", "h1", "h2"}) w.tasks.push_back(finite(name, {ev::run(sec(100))}));
  run_config cfg = exact_machine();
  cfg.machine.balance_ns = msec(64);
  for (const policy_entry& e : {eevdf_entry(), ref_entry()}) {
    cfg.machine.balance_failed = 0;
    const run_result kept = e.run(w, cfg, {});
    cfg.machine.balance_failed = 1;
    const run_result rotated = e.run(w, cfg, {});
    expect_conserved(kept);
    expect_conserved(rotated);
    std::vector<std::int64_t> shares;
    for (const auto& t : kept.tasks) shares.push_back(t.cpu_ns);
    std::sort(shares.begin(), shares.end());
    EXPECT_EQ(shares[2], sec(20)) << e.name << ": one hog keeps its CPU";
    EXPECT_NEAR(static_cast<double>(shares[0]), 0.5 * 20e9, 0.01 * 20e9) << e.name;
    EXPECT_NEAR(kept.jain, 0.889, 0.001) << e.name;
    EXPECT_EQ(kept.totals.migrations, 0u) << e.name;
    for (const auto& t : rotated.tasks)
      EXPECT_NEAR(static_cast<double>(t.cpu_ns), 20e9 * 2 / 3, 0.02 * 20e9) << e.name << " " << t.name;
    EXPECT_GT(rotated.jain, 0.999) << e.name;
    EXPECT_GE(rotated.totals.migrations, 156u) << e.name;
    EXPECT_LE(rotated.totals.migrations, 313u) << e.name;
  }
}

// machine.balance_by_load (--balance-by load): the periodic balance compares PELT loads, not
// task counts, as Linux has since 3.8. A nice -10 hog (weight 9548) and three nice-0 hogs on
// two CPUs: counting tasks settles at 2 + 2, where the heavy hog shares its CPU with a nice-0
// one (90.3 % and 9.7 %) while the other two get 50 % each; by load, the heavy hog ends alone
// (100 %) and the three share the other CPU (33.3 % each). Linux 6.18.44 on this project's
// machine, the same four `sh -c 'while :; do :; done'` under nice: 100.2-100.3 % and
// 32.8-33.8 % in two runs of 5 s.
TEST(SimEngine, BalanceByLoadPutsAHeavyTaskAloneAsLinuxDoes) {
  workload w;
  w.name = "nice-spread";
  w.cpus = 2;
  w.duration = sec(5);
  w.tasks.push_back(scen::task("heavy", -10, {ev::run(sec(100))}));
  for (const char* name : {"h1", "h2", "h3"}) w.tasks.push_back(scen::task(name, 0, {ev::run(sec(100))}));
  for (const policy_entry& e : {eevdf_entry(), cfs_entry()}) {
    run_config cfg = exact_machine();
    const run_result counted = e.run(w, cfg, {});
    cfg.machine.balance_by_load = true;
    const run_result loaded = e.run(w, cfg, {});
    expect_conserved(loaded);
    const double d = static_cast<double>(w.duration);
    EXPECT_LT(static_cast<double>(find(counted, "heavy").cpu_ns) / d, 0.95) << e.name << ": by count it has company";
    EXPECT_GT(static_cast<double>(find(loaded, "heavy").cpu_ns) / d, 0.99) << e.name;
    for (const char* name : {"h1", "h2", "h3"})
      EXPECT_NEAR(static_cast<double>(find(loaded, name).cpu_ns) / d, 1.0 / 3, 0.01) << e.name << " " << name;
  }
}

// The same rotation as above when the balance compares loads: with balance_failed = 1 a
// task's load counts half after one failed balance (nr_balance_failed), so the waiting hog
// moves every second balance and each of the three gets 2/3 of a CPU; with 0 one keeps its CPU.
TEST(SimEngine, BalanceByLoadRotatesAOneTaskImbalanceOnlyWithBalanceFailed) {
  workload w;
  w.name = "three-hogs";
  w.cpus = 2;
  w.hz = 250;
  w.duration = sec(20);
  for (const char* name : {"h0", "h1", "h2"}) w.tasks.push_back(finite(name, {ev::run(sec(100))}));
  run_config cfg = exact_machine();
  cfg.machine.balance_ns = msec(64);
  cfg.machine.balance_by_load = true;
  cfg.machine.balance_failed = 0;
  const run_result kept = eevdf_entry().run(w, cfg, {});
  cfg.machine.balance_failed = 1;
  const run_result rotated = eevdf_entry().run(w, cfg, {});
  EXPECT_NEAR(kept.jain, 0.889, 0.001);
  EXPECT_EQ(kept.totals.migrations, 0u);
  for (const auto& t : rotated.tasks) EXPECT_NEAR(static_cast<double>(t.cpu_ns), 20e9 * 2 / 3, 0.02 * 20e9) << t.name;
  EXPECT_GT(rotated.jain, 0.999);
  EXPECT_GE(rotated.totals.migrations, 100u);
}

// Timestamps (us) of the trace lines whose text after the timestamp's ": " matches `event`.
std::vector<std::int64_t> trace_times_us(const std::string& text, const std::string& event) {
  const std::regex re(" (\\d+)\\.(\\d{6}): " + event);
  std::vector<std::int64_t> at;
  std::istringstream in(text);
  std::smatch m;
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, m, re)) at.push_back(std::stoll(m[1].str()) * 1000000 + std::stoll(m[2].str()));
  return at;
}

// A pull charges the source CPU's running task (the dequeue's update_curr); when that ends its
// EEVDF request, the source CPU reschedules there, not at its next tick (the class's
// take_resched, asked after the migrating dequeue). 2 CPUs, HZ 250: h0 is a hog pinned to CPU
// 0; eight workers forked at the start alternate between the CPUs, those of CPU 1 run 1.1 ms
// and those of CPU 0 3.3 ms, then exit, so CPU 1 runs out first and pulls from CPU 0 (at
// 4.4 ms, 7.7 ms, ...). Nothing on CPU 0 sleeps or wakes after the start, so a preemption
// there (prev_state=R+) off the 4 ms tick grid can only come from a pull's charge.
TEST(SimEngine, APullThatEndsTheSourcesRequestPreemptsThereAtOnce) {
  workload w;
  w.name = "pulls";
  w.cpus = 2;
  w.hz = 250;
  w.duration = msec(60);
  task_spec h0 = finite("h0", {ev::run(sec(1))});
  h0.cpus = {0};
  w.tasks.push_back(h0);
  for (int i = 0; i < 8; ++i)
    w.tasks.push_back(finite("w" + std::to_string(i), {ev::run(i % 2 == 0 ? usec(1500) : usec(2500))}));
  trace_writer tw;
  run_config c = exact_machine();
  c.trace = &tw;
  c.machine.balance_ns = sec(10);  // no periodic balance: only CPU 1's newidle pulls move tasks
  const run_result r = eevdf_entry().run(w, c, {});
  expect_conserved(r);
  EXPECT_GE(r.totals.migrations, 2u) << "the path under test ran";
  int off_grid = 0, on_grid = 0;
  std::istringstream in(tw.text());
  const std::regex cpu0_preempt(R"(\[000\] d\.\.2 +(\d+)\.(\d{6}): sched_switch: .* prev_state=R\+ ==>)");
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (!std::regex_search(line, m, cpu0_preempt)) continue;
    const std::int64_t us = std::stoll(m[1].str()) * 1000000 + std::stoll(m[2].str());
    if (us < 1000) continue;  // the start's wakeups
    (us % 4000 == 0 ? on_grid : off_grid) += 1;
  }
  EXPECT_GT(on_grid, 0) << "the tick still ends requests";
  EXPECT_GT(off_grid, 0) << "a pull's charge ended CPU 0's request and it switched at once";
}

// machine.tick_phase_ns moves the tick grid: two hogs under the reference round robin change
// places only at a tick (its slice expires there), so every such switch is at phase + k·1 ms
// (HZ 1000, trace timestamps in us). A phase of one tick or more is taken modulo the tick.
TEST(SimEngine, TickPhaseMovesTheTickGrid) {
  workload w;
  w.name = "two-hogs";
  w.cpus = 1;
  w.hz = 1000;
  w.duration = msec(200);
  for (const char* name : {"h0", "h1"}) w.tasks.push_back(finite(name, {ev::run(sec(1))}));
  // Microseconds past the last whole ms of each preemption (prev_state=R+) in the trace.
  auto preemption_offsets = [&](std::int64_t phase) {
    trace_writer tw;
    run_config c = exact_machine();
    c.trace = &tw;
    c.machine.tick_phase_ns = phase;
    const run_result r = ref_entry().run(w, c, {});
    expect_conserved(r);
    std::vector<std::int64_t> offsets;
    for (const std::int64_t us : trace_times_us(tw.text(), R"(sched_switch: .* prev_state=R\+ ==>)"))
      offsets.push_back(us % 1000);
    return offsets;
  };
  for (const std::int64_t phase : {std::int64_t{0}, usec(300), usec(1300)}) {
    const std::vector<std::int64_t> off = preemption_offsets(phase);
    ASSERT_GE(off.size(), 10u) << "phase " << phase;
    for (const std::int64_t o : off) EXPECT_EQ(o, (phase % msec(1)) / 1000) << "phase " << phase << " ns";
  }
}

// interbench option D (the model's own): the benchmarked thread is posted D us after the 1 s
// head start. With no load it runs at once, so its first wakeup is at 1 s + D exactly.
TEST(SimEngine, InterbenchStartDelayPostsTheBenchmarkedThreadLater) {
  auto first_bench_wakeup = [](int delay_us) {
    interbench_options o;
    std::string error;
    EXPECT_TRUE(parse_interbench_options("D=" + std::to_string(delay_us), o, error)) << error;
    EXPECT_EQ(o.start_delay_us, delay_us);
    trace_writer tw;
    run_config c = exact_machine();
    c.trace = &tw;
    c.duration_ns = msec(1100);
    (void)eevdf_entry().run(interbench("audio", "none", o), c, {});
    const std::vector<std::int64_t> wakes = trace_times_us(tw.text(), "sched_wakeup: comm=audio ");
    return wakes.empty() ? std::int64_t{-1} : wakes.front();
  };
  EXPECT_EQ(first_bench_wakeup(0), 1000000);
  EXPECT_EQ(first_bench_wakeup(2500), 1002500);
  EXPECT_EQ(first_bench_wakeup(16626), 1016626);
}

// eevdf-slices option J: every cyclictest job costs J us of CPU. A job starts at each timer
// event the thread passes (its first use, then one per `slack` sample: a job that overran skips
// the expiries it missed) and only the last may be cut off by the run's end, so each thread's
// CPU time is J us times its jobs, less at most one job.
TEST(SimEngine, EevdfSlicesJobOptionSetsCyclictestsWorkPerPeriod) {
  for (const int job_us : {10, 23}) {
    std::vector<resolved_scenario> found;
    std::string error;
    const std::string name = job_us == 10 ? "eevdf-slices/none" : "eevdf-slices/none:J=" + std::to_string(job_us);
    ASSERT_TRUE(resolve_scenario(name, found, error)) << error;
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].w.name, name);
    run_config c = exact_machine();
    c.duration_ns = sec(1);
    const run_result r = eevdf_entry().run(found[0].w, c, {});
    expect_conserved(r);
    int seen = 0;
    for (const auto& t : r.tasks) {
      if (t.name.rfind("cyclictest-", 0) != 0) continue;
      const auto jobs = static_cast<std::int64_t>(t.slack.periods) + 1;
      EXPECT_GT(jobs, 300) << name << " " << t.name;  // 1 s of 1-3 ms periods
      EXPECT_LE(t.cpu_ns, jobs * usec(job_us)) << name << " " << t.name;
      EXPECT_GE(t.cpu_ns, (jobs - 1) * usec(job_us)) << name << " " << t.name;
      ++seen;
    }
    EXPECT_EQ(seen, 5) << name;
  }
  std::vector<resolved_scenario> both;
  std::string error;
  ASSERT_TRUE(resolve_scenario("eevdf-slices:J=7", both, error)) << error;
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0].w.name, "eevdf-slices/custom:J=7");
  EXPECT_EQ(both[1].w.name, "eevdf-slices/none:J=7");
  const std::vector<resolved_scenario> before = both;
  EXPECT_FALSE(resolve_scenario("eevdf-slices:J=0", both, error));
  EXPECT_NE(error.find("J='0': expected an integer in [1, 1000]"), std::string::npos) << error;
  EXPECT_EQ(both.size(), before.size());
  EXPECT_EQ(both[0].w.name, before[0].w.name);
}

// eevdf-slices option S: cyclictest thread i's expiries are 50 ms + i x S + k x its period
// (1 + 0.5 i ms), whenever it first runs. Its first wakeup is therefore at 50 ms + i x S + the
// period: with S = 100 us, 51.000, 51.600, 52.200, 52.800 and 53.400 ms; with S = 0, 51.0,
// 51.5, 52.0, 52.5 and 53.0 ms. The canonical name lists J before S and leaves out defaults.
TEST(SimEngine, EevdfSlicesStaggerOptionSetsTheCyclictestGrids) {
  for (const int stagger_us : {0, 100, 333}) {
    std::vector<resolved_scenario> found;
    std::string error;
    const std::string name = "eevdf-slices/none:S=" + std::to_string(stagger_us);
    ASSERT_TRUE(resolve_scenario(name, found, error)) << error;
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].w.name, stagger_us == eevdf_slices_default_stagger_us ? std::string("eevdf-slices/none") : name);
    trace_writer tw;
    run_config c = exact_machine();
    c.trace = &tw;
    c.duration_ns = msec(60);
    (void)eevdf_entry().run(found[0].w, c, {});
    for (int i = 0; i < 5; ++i) {
      const std::int64_t period_us = 1000 + 500 * i;
      // ftrace's comm holds 15 characters: "cyclictest-1000us" shows as "cyclictest-1000".
      const std::vector<std::int64_t> wakes =
          trace_times_us(tw.text(), "sched_wakeup: comm=cyclictest-" + std::to_string(period_us) + " ");
      ASSERT_FALSE(wakes.empty()) << name << " thread " << i;
      EXPECT_EQ(wakes.front(), 50000 + stagger_us * i + period_us) << name << " thread " << i;
    }
  }
  std::vector<resolved_scenario> found;
  std::string error;
  ASSERT_TRUE(resolve_scenario("eevdf-slices:S=5,J=20", found, error)) << error;
  EXPECT_EQ(found[0].w.name, "eevdf-slices/custom:J=20,S=5");
  EXPECT_FALSE(resolve_scenario("eevdf-slices:S=10001", found, error));
  EXPECT_NE(error.find("S='10001': expected an integer in [0, 10000]"), std::string::npos) << error;
}

// eevdf-slices options K and P: a kernel thread on CPU 0 that runs K us without preemption
// (each run uniform in [0, 2K]), then sleeps P ms. Under eevdf with 6.12's rules cyclictest
// (wakeups every 1-3 ms, 500 us slices with `custom`) would preempt a 2 ms run often; made
// non-preemptible, every one of the thread's runs ends with it going to sleep (state S), never
// preempted (R+), always on CPU 0, and no more than 2K long.
TEST(SimEngine, EevdfSlicesKernelThreadOptionRunsUnpreemptedOnCpu0) {
  std::vector<resolved_scenario> found;
  std::string error;
  ASSERT_TRUE(resolve_scenario("eevdf-slices/custom:K=2000,P=20", found, error)) << error;
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].w.name, "eevdf-slices/custom:K=2000,P=20");
  trace_writer tw;
  run_config c = exact_machine();
  c.trace = &tw;
  c.duration_ns = sec(1);
  const std::vector<knob_setting> v612 = {{"delay_dequeue", 1}, {"preempt_short", 1}, {"place_rel_deadline", 1}};
  const run_result r = eevdf_entry().run(found[0].w, c, v612);
  const auto& k = find(r, "kthread");
  EXPECT_GT(k.switches, 20u);
  EXPECT_GT(k.cpu_ns, msec(20));
  const std::string text = tw.text();
  EXPECT_EQ(trace_times_us(text, R"(sched_switch: prev_comm=kthread .* prev_state=R\+)").size(), 0u) << "never preempted";
  const std::vector<std::int64_t> in = trace_times_us(text, R"(sched_switch: .*==> next_comm=kthread )");
  const std::vector<std::int64_t> out = trace_times_us(text, R"(sched_switch: prev_comm=kthread .* prev_state=S )");
  ASSERT_EQ(in.size(), out.size());
  ASSERT_GT(in.size(), 20u);
  for (std::size_t i = 0; i < in.size(); ++i) EXPECT_LE(out[i] - in[i], 4000) << "run " << i << " within 2K";
  EXPECT_EQ(trace_times_us(text, R"(\[001\] .*next_comm=kthread )").size(), 0u) << "pinned to CPU 0";
  trace_writer again;
  c.trace = &again;
  (void)eevdf_entry().run(found[0].w, c, v612);
  EXPECT_EQ(again.text(), text) << "the runs' random lengths come from the run's seed: deterministic";
  // The same thread preemptible (a plain run) is preempted by cyclictest's wakeups: the check
  // above can fail.
  workload w = found[0].w;
  for (task_spec& t : w.tasks)
    if (t.name == "kthread") t.phases[0].events[0].nopreempt = false;
  trace_writer tw2;
  c.trace = &tw2;
  (void)eevdf_entry().run(w, c, v612);
  EXPECT_GT(trace_times_us(tw2.text(), R"(sched_switch: prev_comm=kthread .* prev_state=R\+)").size(), 0u);
  EXPECT_FALSE(resolve_scenario("eevdf-slices:P=5", found, error));
  EXPECT_NE(error.find("P (the kernel thread's sleep) needs K"), std::string::npos) << error;
  EXPECT_FALSE(resolve_scenario("eevdf-slices:K=0,P=5", found, error));
  EXPECT_FALSE(resolve_scenario("eevdf-slices:K=100001", found, error));
  EXPECT_NE(error.find("K='100001': expected an integer in [0, 100000]"), std::string::npos) << error;
}

TEST(SimEngine, KnobSpecsParseAndRefuse) {
  registry reg;
  reg.add(ref_entry());
  const auto ok = parse_policy_spec(reg, "ref-rr:timeslice=2ms");
  ASSERT_EQ(ok.knobs.size(), 1u);
  EXPECT_EQ(ok.knobs[0].value, msec(2));
  EXPECT_EQ(parse_policy_spec(reg, "ref-rr:timeslice=500us").knobs[0].value, usec(500));
  EXPECT_EQ(parse_policy_spec(reg, "ref-rr:timeslice=1.5ms").knobs[0].value, usec(1500));
  EXPECT_THROW(parse_policy_spec(reg, "ref-rr:nope=1ms"), usage_error);
  EXPECT_THROW(parse_policy_spec(reg, "ref-rr:timeslice=11s"), usage_error);
  EXPECT_THROW(parse_policy_spec(reg, "ref-rr:timeslice=2parsecs"), usage_error);
  EXPECT_THROW(parse_policy_spec(reg, "nosuch"), usage_error);
}

// A policy's `hz` knob must be the machine's tick rate (--hz, or the workload's): the engine
// ticks at that rate and the policy counts its ticks as jiffies, so o1:hz=100 on a 1000 Hz
// machine would make its slices 10x shorter, not model HZ 100. The same value is accepted.
TEST(SimEngine, APolicyHzKnobOtherThanTheMachinesIsRefused) {
  const policy_entry o1 = o1_entry();
  workload w;
  w.name = "one-hog";
  w.cpus = 1;
  w.hz = 1000;
  w.duration = msec(50);
  w.tasks.push_back(finite("h", {ev::run(sec(1))}));
  const run_config c = exact_machine();
  EXPECT_THROW((void)o1.run(w, c, {{"hz", 100}}), usage_error);
  const run_result r = o1.run(w, c, {{"hz", 1000}});
  EXPECT_EQ(r.tasks[0].cpu_ns, msec(50));
  run_config at100 = c;
  at100.hz = 100;
  EXPECT_NO_THROW((void)o1.run(w, at100, {{"hz", 100}})) << "--hz 100 sets the machine's rate";
}

// Devices (workload.hpp): a FIFO server beside the CPUs. Hand-computed on 2 CPUs, no costs:
//   a: submits 10 ms at 0 (device busy until 10) and runs 0-2;
//   b: at 1 ms submits 5 ms behind a's work (busy until max(10, 1) + 5 = 15), waits, exits at 15;
//   a: at 2 ms waits for everything submitted so far, b's work included (a drain, not a
//      per-task fence): wakes at 15, runs 15-16, exits at 16;
//   c: at 20 ms waits on the idle device (passes at once), runs 1 ms, exits at 21.
// The CPUs are idle whenever their tasks wait on the device: 2 x 21 - (3 + 1) ms = 38 ms.
TEST(SimEngine, DeviceIsAFifoServerAndWaitsAreIdleTime) {
  workload w;
  w.name = "device";
  w.duration = sec(1);
  w.cpus = 2;
  w.tasks.push_back(finite("a", {ev::device_submit("gpu", msec(10)), ev::run(msec(2)), ev::device_wait("gpu"), ev::run(msec(1))}));
  w.tasks.push_back(finite("b", {ev::sleep(msec(1)), ev::device_submit("gpu", msec(5)), ev::device_wait("gpu")}));
  w.tasks.push_back(finite("c", {ev::sleep(msec(20)), ev::device_wait("gpu"), ev::run(msec(1))}));
  const run_result r = ref_entry().run(w, exact_machine(), {});
  EXPECT_EQ(find(r, "a").exit_ns, msec(16));
  EXPECT_EQ(find(r, "b").exit_ns, msec(15));
  EXPECT_EQ(find(r, "c").exit_ns, msec(21));
  EXPECT_EQ(find(r, "b").cpu_ns, 0);
  EXPECT_EQ(r.duration_ns, msec(21));
  EXPECT_EQ(r.totals.idle_ns, msec(38));
  ASSERT_EQ(r.devices.size(), 1u);
  EXPECT_EQ(r.devices[0].name, "gpu");
  EXPECT_EQ(r.devices[0].requests, 2u);
  EXPECT_EQ(r.devices[0].busy_ns, msec(15));
  EXPECT_NEAR(r.devices[0].busy_pct, 100.0 * 15 / 21, 1e-9);
  expect_conserved(r);
  EXPECT_NE(to_json(r).find("\"devices\": [{ \"name\": \"gpu\", \"requests\": 2, \"busy_ns\": 15000000, "),
            std::string::npos);
}

// Work still queued when the run ends counts only up to the end (busy % is over the run, like
// idle %), and a workload without devices reports none.
TEST(SimEngine, DeviceBacklogAtTheEndIsCutAtTheEnd) {
  workload w;
  w.name = "device-backlog";
  w.duration = msec(10);
  w.tasks.push_back(finite("a", {ev::device_submit("disk", msec(4)), ev::device_submit("disk", msec(26)),
                                 ev::device_wait("disk")}));
  const run_result r = ref_entry().run(w, exact_machine(), {});
  EXPECT_EQ(find(r, "a").exit_ns, -1);  // still waiting at 10 ms
  ASSERT_EQ(r.devices.size(), 1u);
  EXPECT_EQ(r.devices[0].requests, 2u);
  EXPECT_EQ(r.devices[0].busy_ns, msec(10));
  EXPECT_NEAR(r.devices[0].busy_pct, 100.0, 1e-9);
  EXPECT_EQ(r.totals.idle_ns, msec(10));
  expect_conserved(r);
  w.tasks[0] = finite("a", {ev::run(msec(1))});
  EXPECT_TRUE(ref_entry().run(w, exact_machine(), {}).devices.empty());
}

// Pipes (workload.hpp): a bounded FIFO of messages; a full pipe blocks the writer, an empty one
// the reader, and a woken task retries when it runs. Hand-computed on 1 CPU under the reference
// RR (equal priorities: no wakeup preemption, 10 ms slices), no costs, capacity 3 items:
//   w: 6 x {run 1 ms, write 1 item}; r: 2 x {read everything, 1 ms of work per item}.
//   0-4  w runs (r waits behind it), writes at 1, 2, 3; at 4 the pipe is full: w blocks.
//   4-7  r takes all 3 messages (waking w) and works 3 ms; at 7 its next read finds the pipe
//        empty: r blocks.
//   7-9  w's retried write goes in at 7 (waking r), then it writes at 8 and 9 and exits.
//   9-12 r takes the 3 items waiting (one batch: it ran late) and works 3 ms; exits at 12.
TEST(SimEngine, PipeBlocksOnFullAndEmptyAndALateReaderTakesABatch) {
  workload w;
  w.name = "pipe";
  w.duration = sec(1);
  w.pipes.push_back({"p", 3});
  w.tasks.push_back(finite("w", {ev::run(msec(1)), ev::pipe_write("p", 1)}, 6));
  w.tasks.push_back(finite("r", {ev::pipe_read("p", 0, 0, msec(1))}, 2));
  const run_result r = ref_entry().run(w, exact_machine(), {});
  EXPECT_EQ(find(r, "w").exit_ns, msec(9));
  EXPECT_EQ(find(r, "r").exit_ns, msec(12));
  EXPECT_EQ(find(r, "r").cpu_ns, msec(6));
  EXPECT_EQ(r.totals.idle_ns, 0);
  ASSERT_EQ(r.pipes.size(), 1u);
  const pipe_result& q = r.pipes[0];
  EXPECT_EQ(q.name, "p");
  EXPECT_EQ(q.writes, 6u);
  EXPECT_EQ(q.reads, 2u);
  EXPECT_EQ(q.items, 6u);
  EXPECT_DOUBLE_EQ(q.mean_batch, 3.0);
  EXPECT_EQ(q.writer_blocks, 1u);
  EXPECT_EQ(q.reader_blocks, 1u);
  EXPECT_EQ(q.max_items, 3);
  expect_conserved(r);
  EXPECT_NE(to_json(r).find("\"pipes\": [{ \"name\": \"p\", \"writes\": 6, \"reads\": 2, \"items\": 6, \"mean_batch\": 3.000"),
            std::string::npos);
}

// A filter forwards what it read as one message (count 0), and a reader taking one message at a
// time pays per item of that message. src writes 4 one-item messages at 0 and exits; filter
// (queued behind it) takes all 4 at 0, works 1 ms and writes one 4-item message at 1; sink takes
// that one message at 1 and works 4 x 1 ms: exits at 5. An undeclared pipe holds
// default_pipe_capacity items, and a workload without pipes reports none.
TEST(SimEngine, PipeForwardsTheBatchItReadAsOneMessage) {
  workload w;
  w.name = "pipeline";
  w.duration = sec(1);
  w.tasks.push_back(finite("src", {ev::pipe_write("a", 1)}, 4));
  w.tasks.push_back(finite("filter", {ev::pipe_read("a", 0, msec(1), 0), ev::pipe_write("b", 0)}));
  w.tasks.push_back(finite("sink", {ev::pipe_read("b", 1, 0, msec(1))}));
  const run_result r = ref_entry().run(w, exact_machine(), {});
  EXPECT_EQ(find(r, "filter").exit_ns, msec(1));
  EXPECT_EQ(find(r, "sink").exit_ns, msec(5));
  ASSERT_EQ(r.pipes.size(), 2u);
  EXPECT_EQ(r.pipes[0].name, "a");
  EXPECT_EQ(r.pipes[0].items, 4u);
  EXPECT_EQ(r.pipes[0].reads, 1u);
  EXPECT_EQ(r.pipes[1].name, "b");
  EXPECT_EQ(r.pipes[1].writes, 1u);
  EXPECT_DOUBLE_EQ(r.pipes[1].mean_batch, 4.0);
  EXPECT_EQ(r.pipes[1].reader_blocks, 0u);  // sink first runs at 1 ms, after filter wrote
  expect_conserved(r);
  w.tasks = {finite("a", {ev::run(msec(1))})};
  EXPECT_TRUE(ref_entry().run(w, exact_machine(), {}).pipes.empty());
}

// pipe_close is EOF: a reader that finds the pipe closed and empty exits (after taking what was
// left), a writer to a closed pipe exits (SIGPIPE). src writes 2 lines and closes at 0; cat (behind
// it) takes both at 0, works 2 ms, finds EOF at 2 and exits; late (behind cat) starts its 5 ms
// sleep at 2, writes at 7 and dies there.
TEST(SimEngine, PipeCloseIsEndOfFile) {
  workload w;
  w.name = "pipe-eof";
  w.duration = sec(1);
  task_spec src = finite("src", {ev::pipe_write("p", 1)}, 1);
  src.phases[0].loop = 2;
  phase closing;
  closing.events = {ev::pipe_close("p")};
  src.phases.push_back(closing);
  w.tasks.push_back(src);
  task_spec cat = finite("cat", {ev::pipe_read("p", 0, 0, msec(1))}, 1);
  cat.phases[0].loop = -1;  // until EOF, which ends the phase and so the program
  w.tasks.push_back(cat);
  w.tasks.push_back(finite("late", {ev::sleep(msec(5)), ev::pipe_write("p", 1), ev::run(msec(1))}));
  const run_result r = ref_entry().run(w, exact_machine(), {});
  EXPECT_EQ(find(r, "cat").exit_ns, msec(2));
  EXPECT_EQ(find(r, "cat").cpu_ns, msec(2));
  EXPECT_EQ(find(r, "late").exit_ns, msec(7));
  EXPECT_EQ(find(r, "late").cpu_ns, 0);
  ASSERT_EQ(r.pipes.size(), 1u);
  EXPECT_EQ(r.pipes[0].items, 2u);
  EXPECT_EQ(r.pipes[0].reads, 1u);
  expect_conserved(r);
  // EOF in the last phase ends the task whatever its own loop: a cat looping forever would
  // find the same EOF at every pass (the run was refused for exceeding its event budget).
  w.tasks[1].loop = -1;
  const run_result forever = ref_entry().run(w, exact_machine(), {});
  EXPECT_EQ(find(forever, "cat").exit_ns, msec(2));
  EXPECT_EQ(find(forever, "cat").cpu_ns, msec(2));
  // In an earlier phase EOF only moves the program on: the reader's next phase runs 3 ms, then
  // the task exits (its loop is 1).
  w.tasks[1].loop = 1;
  w.tasks[1].phases.push_back(phase{"after", 1, {ev::run(msec(3))}});
  const run_result filter = ref_entry().run(w, exact_machine(), {});
  EXPECT_EQ(find(filter, "cat").exit_ns, msec(5));
}

// Random pipelines never lose an item, never deadlock when every writer finishes, conserve time
// exactly and replay identically, under several policies and on 1 or 3 CPUs: P producers write
// K messages of 1..3 items each into a pipe of random capacity (1..12 items), meet at a barrier
// and close it; one consumer reads up to M messages at a time (M random, 0 = all) with a
// per-item cost and forwards each batch into a second pipe that a sink drains. Checked: the
// consumer and the sink both reach EOF, every item written reaches the sink, and nothing
// runs after the run is over.
TEST(SimEngine, RandomPipelinesDeliverEveryItem) {
  const policy_entry entries[] = {ref_entry(), o1_entry("o1", "o1"), sd_entry("sd", "sd"), cfs_entry("cfs", "cfs")};
  std::mt19937_64 rng(0x5eed);
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1)); };
  for (int round = 0; round < 24; ++round) {
    workload w;
    w.name = "pipes-" + std::to_string(round);
    w.duration = sec(20);
    w.cpus = round % 2 == 0 ? 1 : 3;
    w.pipes = {{"a", pick(1, 12)}, {"b", pick(1, 12)}};
    const int producers = pick(1, 4);
    std::uint64_t total = 0;
    for (int p = 0; p < producers; ++p) {
      const int per_write = pick(1, 3), writes = pick(1, 40);
      task_spec t = finite("p" + std::to_string(p), {ev::run(usec(pick(1, 200))), ev::pipe_write("a", per_write)}, 1);
      t.phases[0].loop = writes;
      t.phases.push_back(phase{"close", 1, {ev::on(event_kind::barrier, "done"), ev::pipe_close("a")}});
      total += static_cast<std::uint64_t>(per_write) * static_cast<std::uint64_t>(writes);
      w.tasks.push_back(t);
    }
    task_spec consumer = finite("consumer", {ev::pipe_read("a", pick(0, 3), usec(pick(0, 50)), usec(pick(0, 30))),
                                             ev::pipe_write("b", 0)},
                                1);
    consumer.phases[0].loop = -1;  // until EOF
    consumer.phases.push_back(phase{"close", 1, {ev::pipe_close("b")}});
    w.tasks.push_back(consumer);
    task_spec sink = finite("sink", {ev::pipe_read("b", pick(0, 2), usec(pick(0, 20)), usec(pick(0, 10)))}, 1);
    sink.phases[0].loop = -1;  // until EOF
    w.tasks.push_back(sink);
    for (const policy_entry& e : entries) {
      const run_result r = e.run(w, exact_machine(), {});
      SCOPED_TRACE(w.name + " under " + e.name);
      EXPECT_GE(find(r, "consumer").exit_ns, 0);
      EXPECT_GE(find(r, "sink").exit_ns, 0);
      ASSERT_EQ(r.pipes.size(), 2u);
      EXPECT_EQ(r.pipes[0].items, total);
      EXPECT_EQ(r.pipes[1].items, total);
      EXPECT_LE(r.pipes[0].max_items, w.pipes[0].capacity);
      EXPECT_LE(r.pipes[1].max_items, w.pipes[1].capacity);
      expect_conserved(r);
      EXPECT_EQ(to_json(e.run(w, exact_machine(), {})), to_json(r));  // deterministic
    }
  }
}

// Counting semaphores (workload.hpp sem_post / sem_wait): a post adds a unit and wakes a
// waiter, which takes it when it runs. Hand-computed on 1 CPU under the reference RR (equal
// priorities, no wakeup preemption), no costs: consumer: 3 x {sem_wait, run 2 ms}; producer:
// 3 x {run 1 ms, sem_post}.
//   0    consumer finds no unit and blocks; producer runs.
//   1    the first post adds a unit (count 1) and wakes consumer (queued behind producer).
//   2, 3 the next two posts are kept (count 2, then 3); producer exits at 3.
//   3-9  consumer takes the first unit (no retry: nobody took it), works 2 ms, then takes the
//        two others without blocking: exits at 9.
// (A post that handed the unit to the sleeper would keep at most 2.) A semaphore-free run
// reports none, and JSON shows one only when there is one.
TEST(SimEngine, SemaphoreKeepsPostsAndWakesItsWaiter) {
  workload w;
  w.name = "sem";
  w.duration = sec(1);
  w.tasks.push_back(finite("consumer", {ev::on(event_kind::sem_wait, "s"), ev::run(msec(2))}, 3));
  w.tasks.push_back(finite("producer", {ev::run(msec(1)), ev::on(event_kind::sem_post, "s")}, 3));
  const run_result r = ref_entry().run(w, exact_machine(), {});
  EXPECT_EQ(find(r, "producer").exit_ns, msec(3));
  EXPECT_EQ(find(r, "consumer").exit_ns, msec(9));
  EXPECT_EQ(find(r, "consumer").cpu_ns, msec(6));
  EXPECT_EQ(r.totals.idle_ns, 0);
  ASSERT_EQ(r.semaphores.size(), 1u);
  const semaphore_result& q = r.semaphores[0];
  EXPECT_EQ(q.name, "s");
  EXPECT_EQ(q.posts, 3u);
  EXPECT_EQ(q.waits, 3u);
  EXPECT_EQ(q.blocks, 1u);
  EXPECT_EQ(q.retries, 0u);
  EXPECT_EQ(q.max_count, 3);
  EXPECT_EQ(q.count, 0);
  EXPECT_EQ(q.waiters, 0u);
  EXPECT_EQ(q.overflows, 0u);
  expect_conserved(r);
  EXPECT_NE(to_json(r).find("\"semaphores\": [{ \"name\": \"s\", \"posts\": 3, \"waits\": 3, \"blocks\": 1, \"retries\": 0, "
                            "\"overflows\": 0, \"count\": 0, \"max_count\": 3, \"waiters\": 0 }]"),
            std::string::npos);
  w.tasks = {finite("a", {ev::run(msec(1))})};
  const run_result none = ref_entry().run(w, exact_machine(), {});
  EXPECT_TRUE(none.semaphores.empty());
  EXPECT_EQ(to_json(none).find("\"semaphores\""), std::string::npos);
}

// Random producer/consumer sets never lose or invent a unit, under several policies on 1 or 3
// CPUs: P producers post K_p units each (1..30, with random work between), C consumers each
// take a random share of them (the shares add up to at most the posts). Checked against the
// arithmetic: every consumer exits, posts and waits are the programs' counts, the units left are
// posts minus waits, blocks never exceed waits, nobody is left waiting, a woken waiter finds its
// unit taken (retries) at most once per post; time is conserved and a rerun is identical. On 3
// CPUs a consumer that runs takes units meant for a woken one, so retries happen.
TEST(SimEngine, RandomSemaphoreTrafficConservesUnits) {
  const policy_entry entries[] = {ref_entry(), o1_entry("o1", "o1"), sd_entry("sd", "sd"), cfs_entry("cfs", "cfs"),
                                  eevdf_entry("eevdf", "eevdf")};
  std::mt19937_64 rng(0x5e3a);
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1)); };
  std::uint64_t blocked = 0, kept = 0, retried = 0;  // over all runs: every path of sem_wait and sem_post is taken
  for (int round = 0; round < 20; ++round) {
    workload w;
    w.name = "sem-" + std::to_string(round);
    w.duration = sec(20);
    w.cpus = round % 2 == 0 ? 1 : 3;
    std::int64_t posts = 0;
    for (int p = 0, n = pick(1, 4); p < n; ++p) {
      const int k = pick(1, 30);
      w.tasks.push_back(finite("p" + std::to_string(p), {ev::run(usec(pick(1, 300))), ev::on(event_kind::sem_post, "s")}, k));
      posts += k;
    }
    std::int64_t left = posts, waits = 0;
    for (int c = 0, n = pick(1, 4); c < n && left > 0; ++c) {
      const std::int64_t k = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(left));
      w.tasks.push_back(finite("c" + std::to_string(c), {ev::on(event_kind::sem_wait, "s"), ev::run(usec(pick(0, 200)))}, k));
      left -= k;
      waits += k;
    }
    for (const policy_entry& e : entries) {
      const run_result r = e.run(w, exact_machine(), {});
      SCOPED_TRACE(w.name + " under " + e.name);
      for (const task_result& t : r.tasks) EXPECT_GE(t.exit_ns, 0) << t.name;
      ASSERT_EQ(r.semaphores.size(), 1u);
      const semaphore_result& q = r.semaphores[0];
      EXPECT_EQ(q.posts, static_cast<std::uint64_t>(posts));
      EXPECT_EQ(q.waits, static_cast<std::uint64_t>(waits));
      EXPECT_EQ(q.count, posts - waits);
      EXPECT_LE(q.blocks, q.waits);
      EXPECT_LE(q.retries, q.posts);
      EXPECT_GE(q.max_count, q.count);
      EXPECT_EQ(q.waiters, 0u);
      blocked += q.blocks;
      kept += static_cast<std::uint64_t>(q.max_count);
      retried += q.retries;
      expect_conserved(r);
      EXPECT_EQ(to_json(e.run(w, exact_machine(), {})), to_json(r));  // deterministic
    }
  }
  EXPECT_GT(blocked, 100u);
  EXPECT_GT(kept, 100u);
  EXPECT_GE(retried, 10u);  // 683 blocked waits, 2960 kept units, 11 retries with this seed
}

// Bad pipe input is refused before anything runs.
TEST(SimEngine, BadPipesAreRefused) {
  workload w;
  w.name = "bad-pipe";
  w.duration = sec(1);
  w.tasks.push_back(finite("a", {ev::pipe_write("p", -1)}));
  EXPECT_THROW(ref_entry().run(w, exact_machine(), {}), workload_error);
  w.tasks[0] = finite("a", {ev::pipe_read("p", 0, 0, -1)});
  EXPECT_THROW(ref_entry().run(w, exact_machine(), {}), workload_error);
  w.tasks[0] = finite("a", {ev::pipe_write("p", 1)});
  w.pipes = {{"p", 0}};
  EXPECT_THROW(ref_entry().run(w, exact_machine(), {}), workload_error);
  w.pipes = {{"p", 4}, {"p", 8}};
  EXPECT_THROW(ref_entry().run(w, exact_machine(), {}), workload_error);
  w.pipes = {{"p", 4}};
  EXPECT_NO_THROW(ref_entry().run(w, exact_machine(), {}));
}

TEST(SimEngine, BadWorkloadsAreRefused) {
  workload w;
  w.name = "bad";
  w.duration = sec(1);
  w.tasks.push_back(finite("a", {ev::on(event_kind::fork, "missing")}));
  EXPECT_THROW(ref_entry().run(w, exact_machine(), {}), workload_error);
  w.tasks[0] = finite("a", {ev::run(-5)});
  EXPECT_THROW(ref_entry().run(w, exact_machine(), {}), workload_error);
  w.tasks[0] = finite("a", {ev::timer("t", -1)});  // 0 is rt-app's reference move, allowed
  EXPECT_THROW(ref_entry().run(w, exact_machine(), {}), workload_error);
}

// The samples kept for exact percentiles are bounded per run (run_config::max_samples, by
// default max_samples_per_run): a task that wakes every 2 us keeps one latency per wakeup, and
// a run that would keep more than the budget is refused as a workload error instead of growing
// without bound. 10 ms of it keep 5000 latencies.
TEST(SimEngine, SamplesKeptForPercentilesAreBoundedPerRun) {
  workload w;
  w.name = "chatty";
  w.duration = msec(10);
  w.tasks.push_back(finite("a", {ev::run(usec(1)), ev::sleep(usec(1))}, -1));
  run_config c = exact_machine();
  const run_result r = ref_entry().run(w, c, {});
  EXPECT_GE(r.tasks[0].latency.count, 4900u);
  c.max_samples = 4000;
  try {
    (void)ref_entry().run(w, c, {});
    ADD_FAILURE() << "the budget was not enforced";
  } catch (const workload_error& e) {
    EXPECT_NE(std::string(e.what()).find("more than 4000 samples"), std::string::npos) << e.what();
  }
  EXPECT_GE(max_samples_per_run, std::uint64_t{1} << 25) << "room for every built-in scenario";
}

// A traced run keeps its trace in memory until it succeeds; its size is bounded per run
// (run_config::max_trace_bytes, by default max_trace_bytes_per_run), past which the run is
// refused rather than exhausting memory.
TEST(SimEngine, TraceTextIsBoundedPerRun) {
  workload w;
  w.name = "two-hogs";
  w.duration = sec(1);
  for (const char* name : {"h0", "h1"}) w.tasks.push_back(finite(name, {ev::run(sec(10))}));
  run_config c = exact_machine();
  trace_writer whole;
  c.trace = &whole;
  (void)ref_entry().run(w, c, {});
  ASSERT_GT(whole.size(), 2000u);
  trace_writer cut;
  c.trace = &cut;
  c.max_trace_bytes = 2000;
  EXPECT_THROW((void)ref_entry().run(w, c, {}), workload_error);
  EXPECT_LE(cut.size(), 2000u + 512u) << "stopped within an event of the bound";
  EXPECT_GE(max_trace_bytes_per_run, std::size_t{1} << 30);
}

}  // namespace

namespace {
std::string workload_error_of(const policy_entry& e, const workload& w) {
  try {
    (void)e.run(w, exact_machine(), {});
  } catch (const workload_error& x) {
    return x.what();
  }
  return "(no error)";
}

// Declared task groups are checked before anything runs, under any policy (grouped or not):
// names, parents declared first, cgroup v2's cpu.weight range, the tasks' and moves' groups.
TEST(SimEngine, CgroupMistakesAreWorkloadErrors) {
  workload base;
  base.name = "cgroups";
  base.duration = msec(10);
  base.tasks.push_back(finite("t", {ev::run(msec(1))}));
  base.cgroups.push_back({"a", "", 100});
  struct bad_case {
    const char* expect;
    void (*spoil)(workload&);
  };
  const bad_case cases[] = {
      {"declared twice", [](workload& w) { w.cgroups.push_back({"a", "", 100}); }},
      {"outside [1, 10000]", [](workload& w) { w.cgroups[0].weight = 0; }},
      {"outside [1, 10000]", [](workload& w) { w.cgroups[0].weight = 10001; }},
      {"is not declared before it", [](workload& w) { w.cgroups.push_back({"b", "c", 100}); }},
      {"its own parent", [](workload& w) { w.cgroups.push_back({"b", "b", 100}); }},
      {"needs a name", [](workload& w) { w.cgroups.push_back({"", "", 100}); }},
      {"unknown cgroup 'zz'", [](workload& w) { w.tasks[0].cgroup = "zz"; }},
      {"move to unknown cgroup 'zz'", [](workload& w) { w.tasks[0].phases[0].events.push_back(ev::set_cgroup("zz")); }},
  };
  for (const bad_case& c : cases) {
    workload w = base;
    c.spoil(w);
    for (const policy_entry& e : {grouped_eevdf_entry(), ref_entry()})
      EXPECT_NE(workload_error_of(e, w).find(c.expect), std::string::npos) << c.expect << " / " << e.name;
  }
  EXPECT_EQ(workload_error_of(grouped_eevdf_entry(), base), "(no error)");
}

// On two CPUs with balancing, wakeups and moves between groups, the grouped class keeps the
// books exact: every ns is a task's, switch overhead or idle; and the moving task really moves
// (by its second phase it shares group b's half with b's hog).
TEST(SimEngine, GroupedRunsOnTwoCpusConserveTime) {
  workload w;
  w.name = "cgroups-smp";
  w.cpus = 2;
  w.duration = sec(2);
  w.cgroups = {{"a", "", 100}, {"b", "", 300}, {"a/x", "a", 50}};
  for (int i = 0; i < 3; ++i) {
    task_spec t = scen::task("hog-a" + std::to_string(i), 0, {ev::run(msec(7)), ev::sleep(usec(300))});
    t.cgroup = i == 2 ? "a/x" : "a";
    w.tasks.push_back(t);
  }
  task_spec hb = scen::task("hog-b", 0, {ev::run(sec(10))});
  hb.cgroup = "b";
  w.tasks.push_back(hb);
  task_spec mover = scen::task("mover", 0, {ev::run(msec(3)), ev::sleep(msec(1))});
  mover.phases[0].loop = 50;
  mover.phases.push_back(phase{"moved", -1, {ev::set_cgroup("b"), ev::run(msec(3)), ev::sleep(msec(1)), ev::set_cgroup("a/x")}});
  w.tasks.push_back(mover);
  run_config cfg = exact_machine();
  cfg.machine.cs_cost_ns = usec(2);
  const run_result r = grouped_eevdf_entry().run(w, cfg, {});
  expect_conserved(r);
  EXPECT_GT(find(r, "mover").cpu_ns, msec(150));
  EXPECT_GT(find(r, "hog-b").cpu_ns, sec(1));  // weight 300 of 400 at the root of its CPU
}
}  // namespace

namespace {
// calc_group_shares on SMP: a group's entity on a CPU weighs shares x (its load there / its
// load everywhere). A (one hog, CPU 0) and B (one hog on CPU 0, two on CPU 1), both cpu.weight
// 100, tasks pinned. B's load is 1024 on CPU 0 of 3072, so B weighs 341 there against A's 1024:
// A's hog gets 1024/1365 = 75 % of CPU 0 (the group fairness the kernel's formula gives; with
// the full 1024 on each CPU it would be 50 %), B's hog on CPU 0 25 %, B's two on CPU 1 half each.
TEST(SimEngine, GroupSharesAreDividedAmongCpusByLoad) {
  workload w;
  w.name = "cgroup-shares";
  w.cpus = 2;
  w.duration = sec(4);
  w.cgroups = {{"A", "", 100}, {"B", "", 100}};
  const struct {
    const char* name;
    const char* group;
    int cpu;
  } hogs[] = {{"a0", "A", 0}, {"b0", "B", 0}, {"b1", "B", 1}, {"b2", "B", 1}};
  for (const auto& h : hogs) {
    task_spec t = scen::task(h.name, 0, {ev::run(sec(100))});
    t.cgroup = h.group;
    t.cpus = {h.cpu};
    w.tasks.push_back(t);
  }
  const run_result r = grouped_eevdf_entry().run(w, exact_machine(), {});
  expect_conserved(r);
  const double total = static_cast<double>(w.duration);
  EXPECT_NEAR(static_cast<double>(find(r, "a0").cpu_ns) / total, 1024.0 / 1365.0, 0.01);
  EXPECT_NEAR(static_cast<double>(find(r, "b0").cpu_ns) / total, 341.0 / 1365.0, 0.01);
  EXPECT_NEAR(static_cast<double>(find(r, "b1").cpu_ns) / total, 0.5, 0.01);
  EXPECT_NEAR(static_cast<double>(find(r, "b2").cpu_ns) / total, 0.5, 0.01);
}
}  // namespace

namespace {

// calc_group_shares reweights the running group at most ticks when the group's load elsewhere
// comes and goes. A reweight must not renew the running group's slice (the kernel's
// reweight_entity keeps it): A (one hog) and B (one hog) share CPU 0, and B also has a task on
// CPU 1 that runs 0.7 ms every 2 ms, so B weighs 512 or 1024 on CPU 0. A's hog gets 1/2 to 2/3
// of CPU 0 and neither hog waits more than a few slices. With a requeue and set_next per
// reweight, B's hog kept CPU 0 for 700 ms at a time (cfs) and took 85 % of it (eevdf).
TEST(SimEngine, GroupSharesReweightKeepsTheRunningGroupsSlice) {
  workload w;
  w.name = "cgroup-reweight";
  w.cpus = 2;
  w.duration = sec(2);
  w.cgroups = {{"A", "", 100}, {"B", "", 100}};
  task_spec a = scen::task("a", 0, {ev::run(sec(100))});
  a.cgroup = "A";
  a.cpus = {0};
  task_spec b = scen::task("b", 0, {ev::run(sec(100))});
  b.cgroup = "B";
  b.cpus = {0};
  task_spec bt = scen::task("bt", 0, {ev::run(usec(700)), ev::sleep(usec(1300))});
  bt.cgroup = "B";
  bt.cpus = {1};
  w.tasks = {a, b, bt};
  for (const policy_entry& e : {grouped_cfs_entry(), grouped_eevdf_entry()}) {
    const run_result r = e.run(w, exact_machine(), {});
    expect_conserved(r);
    const double share = static_cast<double>(find(r, "a").cpu_ns) / static_cast<double>(w.duration);
    EXPECT_GE(share, 0.49) << e.name;
    EXPECT_LE(share, 0.68) << e.name;
    EXPECT_LT(find(r, "a").max_wait_ns, msec(30)) << e.name;
    EXPECT_LT(find(r, "b").max_wait_ns, msec(30)) << e.name;
  }
}
}  // namespace

namespace {
// calc_group_shares reads PELT's load_avg (smp/pelt.hpp), not the instantaneous weight: a group
// that stops running on one CPU keeps part of its weight there for a while, the part decaying
// with PELT's 32-period half-life. A (hog a) and B (hog b) share CPU 0; B's task bt (nice -5,
// weight 3121) runs alone on CPU 1 for its first second and then sleeps. Before, B weighs
// 1024 x 1024 / (1024 + 3121) = 253 on CPU 0 and a gets 80 % of it; after, B's load on CPU 1
// decays as 3121 x 2^(-t / 33.55 ms), and a's share follows
//   share(t) = 1024 / (1024 + 1024 x 1024 / (1024 + 3121 x 2^(-t / 33.55 ms)))
// down to 1/2. Oracle: a's CPU time in the 200 ms after bt blocks is the integral of that,
// about 122 ms. The instantaneous load (cfs_rq->load.weight, before PELT) gives 100 ms.
// The PELT tests' machine: two CPUs, cgroups A and B (and C when asked), A's hog `a` and B's
// hog `b` pinned to CPU 0, and `bt` (nice -5, program `bt_program`, starting in `bt_group`)
// pinned to CPU 1.
workload pelt_shares_workload(const char* name, std::vector<event> bt_program, const char* bt_group, bool with_c) {
  workload w;
  w.name = name;
  w.cpus = 2;
  w.cgroups = {{"A", "", 100}, {"B", "", 100}};
  if (with_c) w.cgroups.push_back({"C", "", 100});
  task_spec a = scen::task("a", 0, {ev::run(sec(100))});
  a.cgroup = "A";
  a.cpus = {0};
  task_spec b = scen::task("b", 0, {ev::run(sec(100))});
  b.cgroup = "B";
  b.cpus = {0};
  task_spec bt = scen::task("bt", -5, std::move(bt_program));
  bt.cgroup = bt_group;
  bt.cpus = {1};
  w.tasks = {a, b, bt};
  return w;
}

double pelt_share_oracle_ms(double window_ms) {
  const double half_life_ms = 32 * 1.048576;
  double total = 0;
  const int steps = 20000;
  for (int i = 0; i < steps; ++i) {
    const double t = (i + 0.5) * window_ms / steps;
    const double elsewhere = 3121.0 * std::pow(2.0, -t / half_life_ms);
    const double b_weight = 1024.0 * 1024.0 / (1024.0 + elsewhere);
    total += 1024.0 / (1024.0 + b_weight) * window_ms / steps;
  }
  return total;
}

TEST(SimEngine, GroupSharesFollowPeltsDecayingLoadAfterAGroupSleeps) {
  workload w = pelt_shares_workload("cgroup-pelt", {ev::run(sec(1)), ev::sleep(sec(100))}, "B", false);
  const double oracle_ms = pelt_share_oracle_ms(200);
  ASSERT_NEAR(oracle_ms, 121.6, 0.5);
  for (const policy_entry& e : {grouped_cfs_entry(), grouped_eevdf_entry()}) {
    w.duration = sec(1);
    const run_result before = e.run(w, exact_machine(), {});
    w.duration = msec(1200);
    const run_result after = e.run(w, exact_machine(), {});
    expect_conserved(after);
    EXPECT_EQ(find(after, "bt").cpu_ns, sec(1)) << e.name;  // alone on CPU 1 for exactly its second
    // The first second: a gets 1024 / (1024 + 253) of CPU 0, 80 %.
    EXPECT_NEAR(static_cast<double>(find(before, "a").cpu_ns) / 1e6, 1000.0 * 1024 / (1024 + 253), 12) << e.name;
    const double window_ms = static_cast<double>(find(after, "a").cpu_ns - find(before, "a").cpu_ns) / 1e6;
    EXPECT_NEAR(window_ms, oracle_ms, 6) << e.name;
  }
}
}  // namespace

namespace {
// A task that changes group takes its PELT history with it at once (the kernel's
// task_change_group_fair: detach_task_cfs_rq, attach_task_cfs_rq). Same machine as above, but
// bt (nice -5, alone on CPU 1 all along) moves at 1 s: out of B into C, so B's weight on
// CPU 0 is back to 1024 at once and a gets 1/2 of CPU 0 (100 ms of the next 200, where a
// history left to decay in B's queue would give about 122); or from C into B, so B drops to
// 253 at once and a gets 80 % (160 ms, where a queue that has to build the load up again
// would give about 135).
TEST(SimEngine, GroupSharesMoveATasksLoadWithItWhenItChangesGroup) {
  for (const bool into_b : {false, true}) {
    workload w = pelt_shares_workload(
        "cgroup-pelt-move", {ev::run(sec(1)), ev::set_cgroup(into_b ? "B" : "C"), ev::run(sec(100))},
        into_b ? "C" : "B", true);
    for (const policy_entry& e : {grouped_cfs_entry(), grouped_eevdf_entry()}) {
      w.duration = sec(1);
      const run_result before = e.run(w, exact_machine(), {});
      w.duration = msec(1200);
      const run_result after = e.run(w, exact_machine(), {});
      expect_conserved(after);
      const double first_ms = static_cast<double>(find(before, "a").cpu_ns) / 1e6;
      const double window_ms = static_cast<double>(find(after, "a").cpu_ns - find(before, "a").cpu_ns) / 1e6;
      EXPECT_NEAR(first_ms, into_b ? 500.0 : 800.0, 12) << e.name << (into_b ? " into B" : " out of B");
      EXPECT_NEAR(window_ms, into_b ? 160.0 : 100.0, 6) << e.name << (into_b ? " into B" : " out of B");
    }
  }
}
}  // namespace

namespace {
// The spread machine: two CPUs, nothing pinned, cgroup A with one hog (a0) and B with four
// (b0-b3), both cpu.weight 100.
workload spread_workload(const char* name, std::int64_t duration) {
  workload w;
  w.name = name;
  w.cpus = 2;
  w.duration = duration;
  w.cgroups = {{"A", "", 100}, {"B", "", 100}};
  for (const char* task : {"a0", "b0", "b1", "b2", "b3"}) {
    task_spec t = scen::task(task, 0, {ev::run(sec(100))});
    t.cgroup = task[0] == 'a' ? "A" : "B";
    w.tasks.push_back(t);
  }
  return w;
}

// With cgroups the periodic balance weighs tasks by their hierarchical load (task_h_load), not
// by count. A holds one hog, B four, both cpu.weight 100, two CPUs, nothing pinned. Counting
// tasks settles at 3 + 2 with A's hog beside two of B's: A then gets 2/3 of one CPU, a third
// of the machine. By load, A's hog (h_load 1024) ends alone on one CPU and B's four (256
// each) on the other: each group gets half of the machine, as its weight says. Linux 6.18.44
// on this project's machine (tools/kernel_cgroup_check.sh, "spread"): A's hog 100.1 % of a
// CPU, B's 25.1-25.2 % each.
TEST(SimEngine, CgroupsBalanceByHierarchicalLoadNotTaskCount) {
  const workload w = spread_workload("cgroup-spread", sec(4));
  for (const policy_entry& e : {grouped_cfs_entry(), grouped_eevdf_entry()}) {
    const run_result r = e.run(w, exact_machine(), {});
    expect_conserved(r);
    const double cpu_time = static_cast<double>(w.duration);
    EXPECT_GT(static_cast<double>(find(r, "a0").cpu_ns) / cpu_time, 0.97) << e.name;
    for (const char* name : {"b0", "b1", "b2", "b3"})
      EXPECT_NEAR(static_cast<double>(find(r, name).cpu_ns) / cpu_time, 0.25, 0.02) << e.name << " " << name;
    EXPECT_LE(find(r, "a0").migrations + find(r, "b0").migrations + find(r, "b1").migrations +
                  find(r, "b2").migrations + find(r, "b3").migrations,
              4u)
        << e.name << ": settles, no ping-pong";
  }
}
}  // namespace

namespace {
// A fork inherits its parent's task group (Linux: the child starts in the cgroup of the thread
// that cloned it; rt-app's set_thread_taskgroup does nothing for a task without a taskgroup).
// The parent, in G, forks a child whose spec names no cgroup: the child joins G, so G's two
// tasks split half of the CPU and the root's hog keeps the other half. (A child that escaped
// to the root would make three equal entities there: a third each.)
TEST(SimEngine, CgroupForkInheritsTheParentsGroup) {
  workload w;
  w.name = "cgroup-fork";
  w.duration = sec(2);
  w.cgroups = {{"G", "", 100}};
  task_spec parent = scen::task("parent", 0, {ev::run(sec(100))});
  parent.phases.insert(parent.phases.begin(), phase{"fork", 1, {ev::on(event_kind::fork, "child")}});
  parent.cgroup = "G";
  task_spec child = scen::task("child", 0, {ev::run(sec(100))});
  child.instances = 0;
  w.tasks = {parent, child, scen::task("other", 0, {ev::run(sec(100))})};
  for (const policy_entry& e : {grouped_cfs_entry(), grouped_eevdf_entry()}) {
    const run_result r = e.run(w, exact_machine(), {});
    expect_conserved(r);
    const double total = static_cast<double>(w.duration);
    EXPECT_NEAR(static_cast<double>(find(r, "other").cpu_ns) / total, 0.5, 0.01) << e.name;
    EXPECT_NEAR(static_cast<double>(find(r, "child").cpu_ns) / total, 0.25, 0.01) << e.name;
    EXPECT_GT(r.jain, 0.99) << e.name << ": entitlements follow the child into G";
  }
}
}  // namespace

namespace {
// --balance-by load with cgroups under a policy without task groups (o1, bfs, cfs and eevdf
// without group_policy): no group queue has a signal, so every task is weighed as in the root.
// It used to index the empty array of group signals and crash (schedsim run --rt-app
// tests/fuzz/corpus/rtapp/cgroups-smp.json --policy o1 --balance-by load: SIGSEGV).
TEST(SimEngine, BalanceByLoadWithCgroupsUnderAnUngroupedPolicy) {
  workload w;
  w.name = "cgroups-ungrouped";
  w.cpus = 2;
  w.duration = msec(200);
  w.cgroups = {{"A", "", 100}, {"B", "", 100}};
  for (const char* name : {"a0", "a1", "b0"}) {
    task_spec t = scen::task(name, 0, {ev::run(msec(3)), ev::sleep(usec(500))});
    t.cgroup = name[0] == 'a' ? "A" : "B";
    w.tasks.push_back(t);
  }
  task_spec mover = scen::task("mover", 0, {ev::run(msec(2)), ev::set_cgroup("B"), ev::run(msec(2)), ev::set_cgroup("A")});
  w.tasks.push_back(mover);
  run_config cfg = exact_machine();
  cfg.machine.balance_by_load = true;
  for (const policy_entry& e : {cfs_entry(), eevdf_entry()}) {
    const run_result r = e.run(w, cfg, {});
    expect_conserved(r);
    EXPECT_GT(r.totals.task_cpu_ns, msec(300)) << e.name;
  }
}
}  // namespace
namespace {
// A group's entity weighs at most its weight on a CPU: its load is weight x the fraction of
// time its queue was loaded, a fraction the kernel clamps to 1 when a task's history arrives
// (update_tg_cfs_load: runnable_sum += se's load_sum, min divider) and does not let collapse
// when one of several runnable tasks leaves (min(se's load_sum, gcfs_rq load_sum / weight)).
// The machine of CgroupsBalanceByHierarchicalLoadNotTaskCount for 100 ms, with
// balance_failed = 1 (the kernel's nr_balance_failed): the balances at 4 and 8 ms leave A's
// hog beside one of B's and three of B's on the other CPU (loads 1024 + 256 against 768),
// then B's task moves and A's hog stays alone: 2 migrations. Adding the task's runnable_avg
// to a signal fed 0/1 put B's entity at 1.3x its weight on the CPU that received the task
// and near 0 on the CPU it left: the loads read backwards (738 against 985) and B's tasks
// went back and forth, 42 migrations in 100 ms.
TEST(SimEngine, CgroupsBalanceByLoadDoesNotPingPongAfterAMove) {
  const workload w = spread_workload("cgroup-spread-fast", msec(100));
  run_config cfg = exact_machine();
  cfg.machine.balance_failed = 1;
  for (const policy_entry& e : {grouped_cfs_entry(), grouped_eevdf_entry()}) {
    const run_result r = e.run(w, cfg, {});
    expect_conserved(r);
    EXPECT_LE(r.totals.migrations, 4u) << e.name;
    EXPECT_GT(static_cast<double>(find(r, "a0").cpu_ns) / static_cast<double>(w.duration), 0.9) << e.name;
  }
}
}  // namespace

namespace {
// A CPU's load is its root queue's load_avg (the kernel's cfs_rq_load_avg of the root, which
// update_sd_lb_stats sums), not the sum of its tasks' h_loads: each task_h_load divides by its
// queue's load_avg + 1, so that sum is a little smaller, and the imbalance left by a group's
// last task on a CPU (half the difference) came out just below that task's own h_load. The
// machine of CgroupsBalanceByHierarchicalLoadNotTaskCount for 100 ms with the default
// balance_failed = 0: from 16 ms CPU 0 holds A's hog and one of B's (1024 + 256), CPU 1 B's
// three (768): the imbalance is 256 and B's task weighs 1023 x 256 / 1025 = 255.5, so it moves
// (Linux: 255 <= 256). Summing h_loads gave 255.1 against 255.5: A's hog stayed at 80 % of its
// CPU for hundreds of ms (78 % of the 100 ms under cfs).
TEST(SimEngine, CgroupsBalanceByLoadMovesAGroupsLastTaskThatFitsTheImbalance) {
  const workload w = spread_workload("cgroup-spread-tie", msec(100));
  for (const policy_entry& e : {grouped_cfs_entry(), grouped_eevdf_entry()}) {
    const run_result r = e.run(w, exact_machine(), {});
    expect_conserved(r);
    EXPECT_GT(static_cast<double>(find(r, "a0").cpu_ns) / static_cast<double>(w.duration), 0.9) << e.name;
    EXPECT_LE(r.totals.migrations, 4u) << e.name;
  }
}
}  // namespace

// ---- boundaries each rule states strictly (a mutation audit found them untested)
namespace {
// metrics.hpp's nearest-rank rule, checked at the case PercentilesMatchBruteForce never reaches:
// no sample at all, where the documented value is 0 (the header: "0 when there is no sample").
// The rank ceil(p n / 100) is checked at exact multiples by hand: 100 samples 1..100 have p50 =
// sample 50 and p99 = sample 99 (ceil of an integer is itself, not one more); 101 samples
// 1..101 have p50 = ceil(50.5) = 51 and p99 = ceil(99.99) = 100.
TEST(SimMetrics, NearestRankPercentileIsZeroWithoutSamplesAndExactAtWholeRanks) {
  EXPECT_EQ(percentile_sorted({}, 50, 100), 0);
  EXPECT_EQ(percentile_sorted({}, 99, 100), 0);
  std::vector<std::int64_t> v;
  for (std::int64_t i = 1; i <= 100; ++i) v.push_back(i);
  EXPECT_EQ(percentile_sorted(v, 50, 100), 50);
  EXPECT_EQ(percentile_sorted(v, 99, 100), 99);
  EXPECT_EQ(percentile_sorted(v, 100, 100), 100);
  v.push_back(101);
  EXPECT_EQ(percentile_sorted(v, 50, 100), 51);
  EXPECT_EQ(percentile_sorted(v, 99, 100), 100);
  const latency_summary none = summarize({});
  EXPECT_EQ(none.count, 0u);
  EXPECT_EQ(none.p50, 0);
  EXPECT_EQ(none.p99, 0);
  EXPECT_EQ(none.max, 0);
}

// latency_summary's mean and population standard deviation (the header: "population standard
// deviation", divided by n, not n - 1), by hand on the textbook set {2, 4, 4, 4, 5, 5, 7, 9} ns:
// mean 40 / 8 = 5 ns; squared deviations 9 + 1 + 1 + 1 + 0 + 0 + 4 + 16 = 32, 32 / 8 = 4, so
// the deviation is 2 ns (the sample deviation would be sqrt(32 / 7) = 2.14 ns). One sample
// deviates by 0. The samples are given unsorted: the summary sorts its copy.
TEST(SimMetrics, MeanAndPopulationStandardDeviationByHand) {
  const latency_summary s = summarize({9, 4, 2, 5, 4, 7, 4, 5});
  EXPECT_EQ(s.count, 8u);
  EXPECT_DOUBLE_EQ(s.mean, 5.0);
  EXPECT_DOUBLE_EQ(s.stddev, 2.0);
  EXPECT_EQ(s.p50, 4);  // sorted 2 4 4 4 5 5 7 9: sample ceil(4) = 4 is 4
  EXPECT_EQ(s.p99, 9);  // sample ceil(7.92) = 8
  EXPECT_EQ(s.max, 9);
  const latency_summary one = summarize({7});
  EXPECT_DOUBLE_EQ(one.mean, 7.0);
  EXPECT_DOUBLE_EQ(one.stddev, 0.0);
}

// rt-app's slack: an overrun is a negative slack (the guide: "negative: the period's work
// overran it"); a period that ends exactly at the expiry (slack 0) met it. Samples {5, 0, -1} ns
// (unsorted): 3 periods, 1 overrun, min -1, p50 the nearest-rank sample ceil(1.5) = 2 of
// {-1, 0, 5}, which is 0. No sample: all zero.
TEST(SimMetrics, SlackOfExactlyZeroIsNotAnOverrun) {
  const slack_summary s = summarize_slack({5, 0, -1});
  EXPECT_EQ(s.periods, 3u);
  EXPECT_EQ(s.overruns, 1u);
  EXPECT_EQ(s.min, -1);
  EXPECT_EQ(s.p50, 0);
  const slack_summary met = summarize_slack({0, 0});
  EXPECT_EQ(met.overruns, 0u);
  const slack_summary none = summarize_slack({});
  EXPECT_EQ(none.periods, 0u);
  EXPECT_EQ(none.overruns, 0u);
}

// Jain's fairness index (Jain, Chiu & Hawe 1984): (sum x)^2 / (n sum x^2), 1 when all n
// shares are equal, 1/n when one of n takes everything. By hand: {1, 0} = 1 / 2; {1, 0, 0, 0}
// = 1 / 4; {1, 2, 3} = 36 / (3 x 14) = 6 / 7; {2, 2, 2} = 1. The header's and the guide's
// conventions: 1.0 for fewer than 2 values and for all zero (no CPU to share is not unfair;
// the formula itself would be 0 / 0).
TEST(SimMetrics, JainIndexByHandAndItsConventions) {
  EXPECT_DOUBLE_EQ(jain_index({1.0, 0.0}), 0.5);
  EXPECT_DOUBLE_EQ(jain_index({1.0, 0.0, 0.0, 0.0}), 0.25);
  EXPECT_DOUBLE_EQ(jain_index({1.0, 2.0, 3.0}), 6.0 / 7.0);
  EXPECT_DOUBLE_EQ(jain_index({2.0, 2.0, 2.0}), 1.0);
  EXPECT_DOUBLE_EQ(jain_index({0.0, 0.0}), 1.0);
  EXPECT_DOUBLE_EQ(jain_index({0.0, 0.0, 0.0}), 1.0);
  EXPECT_DOUBLE_EQ(jain_index({3.0}), 1.0);
  EXPECT_DOUBLE_EQ(jain_index({}), 1.0);
}

// The weight Jain's index divides CPU shares by, the guide's "weight = 1024 / 1.25^nice"
// (nice 0 = 1024, each nice step 1.25x; the kernel's sched_prio_to_weight rounds the same
// curve: 1024, 820, 655, 1277, 3121 for nice 0, 1, 2, -1, -5). The absolute scale matters
// with cgroups, where a root task's nice weight is compared with a group's cpu.weight x 1024
// / 100. By hand: 1024 / 1.25 = 819.2; / 1.5625 = 655.36; x 1.25 = 1280; x 3.0517578125 = 3125.
TEST(SimMetrics, NiceWeightIs1024Over1Point25ToTheNice) {
  EXPECT_DOUBLE_EQ(nice_weight(0), 1024.0);
  EXPECT_NEAR(nice_weight(1), 819.2, 1e-9);
  EXPECT_NEAR(nice_weight(2), 655.36, 1e-9);
  EXPECT_NEAR(nice_weight(-1), 1280.0, 1e-9);
  EXPECT_NEAR(nice_weight(-5), 3125.0, 1e-9);
}
}  // namespace

namespace {
// longest_starvation_ns is the longest single wait of any task, a wait still going at the end of
// the run included (the guide: max_wait_ns is "still counting at the end of the run"). 1 CPU,
// ref-rr with 40 ms slices, a 30 ms run: A (a 100 ms hog) runs 0-30 in its first slice; B (the
// same, started at 1 ms) waits from 1 ms to the end, 29 ms, never having run.
TEST(SimEngine, LongestStarvationCountsAWaitStillGoingAtTheEnd) {
  workload w;
  w.name = "starve-to-the-end";
  w.duration = msec(30);
  w.tasks.push_back(finite("A", {ev::run(msec(100))}));
  task_spec b = finite("B", {ev::run(msec(100))});
  b.delay = msec(1);
  w.tasks.push_back(b);
  const run_result r = ref_entry().run(w, exact_machine(), {{"timeslice", msec(40)}});
  EXPECT_EQ(r.duration_ns, msec(30));
  EXPECT_EQ(find(r, "A").cpu_ns, msec(30));
  EXPECT_EQ(find(r, "B").cpu_ns, 0);
  EXPECT_EQ(find(r, "B").wait_ns, msec(29));
  EXPECT_EQ(find(r, "B").max_wait_ns, msec(29));
  EXPECT_EQ(r.totals.longest_starvation_ns, msec(29));
  expect_conserved(r);
}

// idle % is idle time / (CPUs x duration) (the guide), so it is a share of all CPUs' time. 2 CPUs,
// A runs 30 ms and B 10 ms from 0, one on each CPU: the run ends when A exits at 30 ms and B's
// CPU idled 10-30 ms: 20 ms of the 2 x 30 ms, 33.3 % (not 66.7 %, a share of one CPU).
TEST(SimEngine, IdlePercentIsAShareOfEveryCpusTime) {
  workload w;
  w.name = "idle-share";
  w.duration = sec(1);
  w.cpus = 2;
  w.tasks.push_back(finite("A", {ev::run(msec(30))}));
  w.tasks.push_back(finite("B", {ev::run(msec(10))}));
  const run_result r = ref_entry().run(w, exact_machine(), {});
  EXPECT_EQ(r.duration_ns, msec(30));
  EXPECT_EQ(find(r, "A").exit_ns, msec(30));
  EXPECT_EQ(find(r, "B").exit_ns, msec(10));
  EXPECT_EQ(r.totals.idle_ns, msec(20));
  EXPECT_NEAR(r.totals.idle_pct, 100.0 * 20.0 / (2 * 30.0), 1e-9);
  expect_conserved(r);
}
}  // namespace

// ---------------------------------------------------------------------------------------------
// From a mutation audit of the engine (task programs, accounting, SMP placement): each test
// pins a rule that a plausible slip in engine.hpp broke while every other test still passed.
namespace {

// The cache-refill model by hand (engine.hpp's file comment): a task that never ran owes the
// full `refill`; one resuming on the CPU it last ran on owes refill * x / (x + refill_half),
// x being the CPU time others ran there since it left; the debt is paid by the run it starts
// and only once. 1 CPU, ref-rr, no switch cost, refill 100 us, refill_half 200 us:
//   A: run 1 ms, sleep 1 ms, run 1 ms; B: run 500 us.
//   0      A switched in, never ran: owes 100 us, runs 1.1 ms to 1.1 ms, sleeps to 2.1 ms
//   1.1    B, never ran: 500 + 100 us, exits at 1.7 ms; idle 1.7 - 2.1
//   2.1    A back on its CPU after B ran x = 600 us: 100 * 600 / (600 + 200) = 75 us,
//          runs 1.075 ms, exits at 3.175 ms
TEST(SimEngine, RefillIsOwedOnceAndScalesWithOthersTimeSinceTheTaskLeft) {
  workload w;
  w.name = "refill-by-hand";
  w.duration = sec(1);
  w.tasks.push_back(finite("A", {ev::run(msec(1)), ev::sleep(msec(1)), ev::run(msec(1))}));
  w.tasks.push_back(finite("B", {ev::run(usec(500))}));
  run_config c = exact_machine();
  c.machine.refill_ns = usec(100);
  c.machine.refill_half_ns = usec(200);
  const run_result r = ref_entry().run(w, c, {});
  const auto& a = find(r, "A");
  const auto& b = find(r, "B");
  EXPECT_EQ(b.exit_ns, usec(1700));
  EXPECT_EQ(b.cpu_ns, usec(600));
  EXPECT_EQ(a.exit_ns, usec(3175));
  EXPECT_EQ(a.cpu_ns, usec(2175));  // 1 ms + 100 us, then 1 ms + 75 us
  EXPECT_EQ(r.totals.idle_ns, usec(400));
  expect_conserved(r);
}

// The debt a task owes is at most one full refill: a working set cannot be evicted twice.
// A `runtime` event (wall-clock time, rt-app's runtime) does not pay the debt, so it is still
// owed when A is switched in again, and the run after it pays exactly `refill`.
// 1 CPU, ref-rr 1 ms slices, no switch cost, refill 100 us, refill_half 500 us:
//   A: runtime 3 ms (to 3 ms), run 1 ms; B: runtime 500 us.
//   0    A, never ran: owes 100 us (the runtime leaves it owed)
//   1    A's slice ends; B, from 1 ms to 1.5 ms, exits
//   1.5  A back after x = 500 us of B: 100 * 500 / 1000 = 50 us more, capped: owes 100 us
//   3    its runtime ends; run 1 ms + 100 us: exits at 4.1 ms
TEST(SimEngine, RefillDebtIsCappedAtOneFullRefill) {
  workload w;
  w.name = "refill-cap";
  w.duration = sec(1);
  w.tasks.push_back(finite("A", {ev::runtime(msec(3)), ev::run(msec(1))}));
  w.tasks.push_back(finite("B", {ev::runtime(usec(500))}));
  run_config c = exact_machine();
  c.machine.refill_ns = usec(100);
  c.machine.refill_half_ns = usec(500);
  const run_result r = ref_entry().run(w, c, {{"timeslice", msec(1)}});
  EXPECT_EQ(find(r, "B").exit_ns, usec(1500));
  EXPECT_EQ(find(r, "A").exit_ns, usec(4100));
  expect_conserved(r);
}

// A periodic timer reached exactly at its expiry does not sleep (clock_nanosleep to an
// absolute time that is not in the future returns at once, rt-app does not block). 1 CPU:
// A loops 3 times over {timer 10 ms, run 10 ms}. The timer's first use sleeps to 10 ms; then
// each run ends exactly at the next expiry (20, 30), so A runs 10 - 40 ms without a break.
// Switches: idle>A at 0, A>idle at 0 (the first sleep), idle>A at 10, A>idle at its exit.
TEST(SimEngine, TimerReachedExactlyAtItsExpiryDoesNotSleep) {
  workload w;
  w.name = "timer-exact";
  w.duration = sec(1);
  w.tasks.push_back(finite("A", {ev::timer("t", msec(10)), ev::run(msec(10))}, 3));
  const run_result r = ref_entry().run(w, exact_machine(), {});
  const auto& a = find(r, "A");
  EXPECT_EQ(a.exit_ns, msec(40));
  EXPECT_EQ(a.switches, 2u);
  EXPECT_EQ(r.totals.context_switches, 4u);
  EXPECT_EQ(a.latency.count, 2u);  // its start and the one wakeup at 10 ms
  expect_conserved(r);
}

// A resume wakes every task suspended on its name (workload.hpp: rt-app's cond broadcast).
// 1 CPU, ref-rr: W1 and W2 suspend at 0; R runs 1 ms, resumes, exits; W1 runs 1 - 2 ms, W2
// 2 - 3 ms (FIFO order of their wakeups).
TEST(SimEngine, ResumeWakesEveryTaskSuspendedOnIt) {
  workload w;
  w.name = "resume-all";
  w.duration = sec(1);
  w.tasks.push_back(finite("W1", {ev::on(event_kind::suspend, "s"), ev::run(msec(1))}));
  w.tasks.push_back(finite("W2", {ev::on(event_kind::suspend, "s"), ev::run(msec(1))}));
  w.tasks.push_back(finite("R", {ev::run(msec(1)), ev::on(event_kind::resume, "s")}));
  const run_result r = ref_entry().run(w, exact_machine(), {});
  EXPECT_EQ(find(r, "W1").exit_ns, msec(2));
  EXPECT_EQ(find(r, "W2").exit_ns, msec(3));
  EXPECT_EQ(r.duration_ns, msec(3));  // the run ends with its last task
}

// Frame bookkeeping by hand. A alone on 1 CPU: a timer (first use: sleeps to 10 ms), then 3
// times {run 2 ms, frame with a 2 ms deadline}. Frames at 12, 14, 16 ms.
// - deadline: measured from the release (the timer's expiry for the first frame, the previous
//   frame for the next ones): 2 ms each, exactly the deadline, which is met (<=);
// - response: one sample, the first frame's (a frame no timer released has none): 2 ms;
// - frame interval: two gaps of 2 ms.
TEST(SimEngine, FrameDeadlinesResponsesAndGapsByHand) {
  workload w;
  w.name = "frames";
  w.duration = sec(1);
  task_spec a;
  a.name = "A";
  a.loop = 1;
  a.phases.push_back(phase{"release", 1, {ev::timer("t", msec(10))}});
  a.phases.push_back(phase{"frames", 3, {ev::run(msec(2)), ev::frame(msec(2))}});
  w.tasks.push_back(a);
  const run_result r = ref_entry().run(w, exact_machine(), {});
  const auto& x = find(r, "A");
  EXPECT_EQ(x.exit_ns, msec(16));
  EXPECT_EQ(x.frames, 3u);
  EXPECT_EQ(x.deadlines_met, 3u);
  EXPECT_EQ(x.deadlines_missed, 0u);
  EXPECT_EQ(x.response.count, 1u);
  EXPECT_EQ(x.response.max, msec(2));
  EXPECT_EQ(x.frame_interval.count, 2u);
  EXPECT_EQ(x.frame_interval.max, msec(2));
  EXPECT_EQ(x.frame_interval.p50, msec(2));
}

// fps is frames over the task's own life: an exited task's ends at its exit, not at the end of
// the run. 2 CPUs: A (CPU 0) marks 5 frames 2 ms apart and exits at 10 ms: 5 / 10 ms = 500 fps;
// B (CPU 1) keeps the run going to 100 ms.
TEST(SimEngine, FpsOfAnExitedTaskCountsItsLifeOnly) {
  workload w;
  w.name = "fps-life";
  w.duration = sec(1);
  w.cpus = 2;
  w.tasks.push_back(finite("A", {ev::run(msec(2)), ev::frame()}, 5));
  w.tasks.push_back(finite("B", {ev::run(msec(100))}));
  const run_result r = ref_entry().run(w, exact_machine(), {});
  const auto& a = find(r, "A");
  EXPECT_EQ(a.exit_ns, msec(10));
  EXPECT_EQ(find(r, "B").exit_ns, msec(100));
  EXPECT_EQ(a.frames, 5u);
  EXPECT_DOUBLE_EQ(a.fps, 500.0);
}

// Unlocking a mutex one does not hold is ignored (an error-checking mutex's EPERM: POSIX leaves
// it locked) and noted. 2 CPUs: A locks m at 0 and holds it 5 ms; B, on the other CPU, runs
// 1 ms, unlocks m (ignored), locks it: waits for A's unlock at 5 ms, runs 1 ms, exits at 6 ms.
TEST(SimEngine, UnlockByATaskThatDoesNotHoldTheMutexIsIgnored) {
  workload w;
  w.name = "foreign-unlock";
  w.duration = sec(1);
  w.cpus = 2;
  w.tasks.push_back(finite("A", {ev::on(event_kind::lock, "m"), ev::run(msec(5)), ev::on(event_kind::unlock, "m")}));
  w.tasks.push_back(finite("B", {ev::run(msec(1)), ev::on(event_kind::unlock, "m"), ev::on(event_kind::lock, "m"),
                                 ev::run(msec(1)), ev::on(event_kind::unlock, "m")}));
  const run_result r = ref_entry().run(w, exact_machine(), {});
  EXPECT_EQ(find(r, "A").exit_ns, msec(5));
  EXPECT_EQ(find(r, "B").exit_ns, msec(6));
  const auto noted = std::count_if(r.notes.begin(), r.notes.end(), [](const std::string& n) {
    return n.find("task 'B' unlocked mutex 'm', which it did not hold, 1 time") != std::string::npos;
  });
  EXPECT_EQ(noted, 1);
  expect_conserved(r);
}

// A forked child starts on the least loaded CPU, its parent's first among equals (as the
// kernel's find_idlest_cpu starts from the forking CPU and leaves it only for a strictly
// idler one), and a child forked at or after its spec's delay starts at once from its parent
// (workload.hpp: "a forked instance starts at its fork, or at its delay if that is later").
// 2 CPUs: H runs on CPU 0, P on CPU 1; at 1 ms, C's delay, P forks C (both CPUs hold one
// task: a tie) and runs 1 ms more. C starts on CPU 1 and runs there when P exits at 2 ms: no
// migration, exits at 3 ms. (Started on CPU 0 instead, it would wait behind H until CPU 1,
// idle at 2 ms, pulls it: one migration.)
TEST(SimEngine, ForkedChildStartsOnItsParentsCpuOnATie) {
  workload w;
  w.name = "fork-parent-cpu";
  w.duration = sec(1);
  w.cpus = 2;
  w.tasks.push_back(finite("H", {ev::run(msec(20))}));
  w.tasks.push_back(finite("P", {ev::run(msec(1)), ev::on(event_kind::fork, "C"), ev::run(msec(1))}));
  task_spec child = finite("C", {ev::run(msec(1))});
  child.instances = 0;
  child.delay = msec(1);
  w.tasks.push_back(child);
  const run_result r = ref_entry().run(w, exact_machine(), {});
  const auto& c = find(r, "C");
  EXPECT_EQ(find(r, "P").exit_ns, msec(2));
  EXPECT_EQ(c.start_ns, msec(1));
  EXPECT_EQ(c.exit_ns, msec(3));
  EXPECT_EQ(c.migrations, 0u);
  EXPECT_EQ(r.totals.migrations, 0u);
}

// The balancer pulls from the busiest CPU, the first in CPU order among equally busy ones (the
// kernel's find_busiest_queue keeps the first CPU of the largest load: a strict `>`). 3 CPUs,
// ref-rr: A0 and A1 pinned to CPU 0 run 1 ms each; B pinned to CPU 1 and C pinned to CPU 2 run
// 20 ms; D and E, free, start on the least loaded CPUs: D on CPU 1 (1 and 2 tie, the first),
// E on CPU 2. At 2 ms CPU 0 is idle and CPUs 1 and 2 hold two tasks each: it pulls D, the
// waiting task of CPU 1, which runs there 2 - 22 ms (pulled from CPU 2, E would run 2 - 22 ms
// and D would wait for B's slices on CPU 1).
TEST(SimEngine, TheBalancerPullsFromTheFirstOfEquallyBusyCpus) {
  workload w;
  w.name = "busiest-tie";
  w.duration = sec(1);
  w.cpus = 3;
  const auto pinned = [](const char* n, std::int64_t ms, int cpu) {
    task_spec t = finite(n, {ev::run(msec(ms))});
    t.cpus = {cpu};
    return t;
  };
  w.tasks = {pinned("A0", 1, 0), pinned("A1", 1, 0), pinned("B", 20, 1), pinned("C", 20, 2),
             finite("D", {ev::run(msec(20))}), finite("E", {ev::run(msec(20))})};
  const run_result r = ref_entry().run(w, exact_machine(), {});
  EXPECT_EQ(find(r, "D").migrations, 1u);
  EXPECT_EQ(find(r, "D").exit_ns, msec(22));
  expect_conserved(r);
}

// A forked child's recent_used_cpu is the forking CPU (wake_up_new_task: p->recent_used_cpu =
// task_cpu(current)), so its first wakeup, finding its previous CPU busy, goes back there when
// that CPU is idle, before scanning from its previous CPU (select_idle_sibling). 3 CPUs,
// ref-rr, every task but C pinned: P (CPU 0) runs 1 ms, forks C and exits; Q (CPU 0) waits for
// it, then runs 1 - 2 ms; Y (CPU 2) runs 0 - 2.5 ms; Z (CPU 1) starts at 2 ms for 10 ms.
// At the fork CPU 0 holds P and Q, CPU 1 nothing, CPU 2 Y: C starts on CPU 1, sleeps 2 ms.
// At 3 ms CPU 1 runs Z, CPUs 0 and 2 are idle: C wakes on CPU 0 and runs 3 - 8 ms. X (CPU 2)
// starts at 3.5 ms on the idle CPU 2 and exits at 4.5 ms (had C gone to CPU 2, the first idle
// CPU after CPU 1, X would have waited for it).
TEST(SimEngine, AForkedChildsFirstWakeupReturnsToTheIdleForkingCpu) {
  workload w;
  w.name = "fork-recent-cpu";
  w.duration = sec(1);
  w.cpus = 3;
  const auto pinned = [](const char* n, int cpu, std::int64_t delay, std::vector<event> evs) {
    task_spec t = finite(n, std::move(evs));
    t.cpus = {cpu};
    t.delay = delay;
    return t;
  };
  w.tasks = {pinned("P", 0, 0, {ev::run(msec(1)), ev::on(event_kind::fork, "C")}),
             pinned("Q", 0, 0, {ev::run(msec(1))}),
             pinned("Y", 2, 0, {ev::run(usec(2500))}),
             pinned("Z", 1, msec(2), {ev::run(msec(10))}),
             pinned("X", 2, usec(3500), {ev::run(msec(1))})};
  task_spec child = finite("C", {ev::sleep(msec(2)), ev::run(msec(5))});
  child.instances = 0;
  w.tasks.push_back(child);
  const run_result r = ref_entry().run(w, exact_machine(), {});
  EXPECT_EQ(find(r, "C").exit_ns, msec(8));
  EXPECT_EQ(find(r, "C").migrations, 1u);  // CPU 1 to CPU 0 at its wakeup
  EXPECT_EQ(find(r, "X").exit_ns, usec(4500));
  expect_conserved(r);
}

// The newly idle balance pulls the coldest waiting task the idle CPU may run: the one that
// left a CPU longest ago, a task that never ran first (the kernel's detach_tasks walks
// cfs_tasks from the least recently run end; a never-run task is not cache-hot), skipping
// tasks pinned away from it. 2 CPUs, ref-rr 1 ms slices: D1 and D2, pinned to CPU 1, run
// 0 - 0.5 and 0.5 - 1.5 ms; the others start on CPU 0 (the least loaded CPU, the first on a
// tie), which runs them in order: the first 0 - 1 ms, the second from 1 ms. At 1.5 ms CPU 1
// is idle and CPU 0 runs the second task; two wait.
std::vector<task_spec> coldest_pull_workload(const std::vector<task_spec>& on_cpu0) {
  std::vector<task_spec> ts;
  for (const auto& [dn, dlen] : {std::pair<const char*, std::int64_t>{"D1", usec(500)}, {"D2", msec(1)}}) {
    task_spec d = finite(dn, {ev::run(dlen)});
    d.cpus = {1};
    ts.push_back(d);
  }
  ts.insert(ts.end(), on_cpu0.begin(), on_cpu0.end());
  return ts;
}

// Waiting at 1.5 ms: A (left CPU 0 at 1 ms) and C (never ran, created after A): C is pulled.
TEST(SimEngine, TheBalancerPullsTheTaskThatLeftACpuLongestAgoANeverRunOneFirst) {
  workload w;
  w.name = "coldest-pull";
  w.duration = sec(1);
  w.cpus = 2;
  w.tasks = coldest_pull_workload({finite("A", {ev::run(msec(5))}), finite("B", {ev::run(msec(5))}),
                                   finite("C", {ev::run(msec(5))})});
  const run_result r = ref_entry().run(w, exact_machine(), {{"timeslice", msec(1)}});
  EXPECT_EQ(find(r, "C").migrations, 1u);
  EXPECT_EQ(find(r, "A").migrations, 0u);
  EXPECT_EQ(find(r, "C").exit_ns, usec(6500));  // alone on CPU 1 from 1.5 ms: 5 ms
  expect_conserved(r);
}

// Waiting at 1.5 ms: A (left at 1 ms) and P (never ran, pinned to CPU 0): P is colder but may
// not run on CPU 1, so A is pulled and P never leaves CPU 0.
TEST(SimEngine, TheBalancerSkipsATaskPinnedAwayFromTheIdleCpu) {
  workload w;
  w.name = "pinned-pull";
  w.duration = sec(1);
  w.cpus = 2;
  task_spec p = finite("P", {ev::run(msec(5))});
  p.cpus = {0};
  w.tasks = coldest_pull_workload({finite("A", {ev::run(msec(5))}), finite("M", {ev::run(msec(5))}), p});
  const run_result r = ref_entry().run(w, exact_machine(), {{"timeslice", msec(1)}});
  EXPECT_EQ(find(r, "A").migrations, 1u);
  EXPECT_EQ(find(r, "P").migrations, 0u);
  expect_conserved(r);
}

// A relative timer reached after its expiry (an overrun) does not sleep and restarts its
// period at that instant (rt-app's relative mode), which releases the next frame: the frame's
// response runs from there. 1 CPU, A alone, 2 passes of {timer 10 ms, run 12 ms, frame,
// run 1 ms}: first use sleeps to 10 ms, frame at 22 (response 12 ms), timer at 23 (expiry
// 20: overrun, released at 23), frame at 35 (response 12 ms), exit at 36.
TEST(SimEngine, AnOverrunTimerReleasesTheFrameWhereTheTaskReachesIt) {
  workload w;
  w.name = "overrun-release";
  w.duration = sec(1);
  w.tasks.push_back(finite("A", {ev::timer("t", msec(10)), ev::run(msec(12)), ev::frame(), ev::run(msec(1))}, 2));
  const run_result r = ref_entry().run(w, exact_machine(), {});
  const auto& a = find(r, "A");
  EXPECT_EQ(a.exit_ns, msec(36));
  EXPECT_EQ(a.response.count, 2u);
  EXPECT_EQ(a.response.max, msec(12));
  EXPECT_EQ(a.response.p50, msec(12));
}

// A `runtime` event ends at a wall-clock time; if the task is off the CPU then, it finishes
// when it is back and its switch cost is paid, never in the past. 1 CPU, ref-rr 500 us slices,
// switch cost 10 us, no refill: A: runtime 1.5 ms (from 10 us to 1.51 ms), B: run 2 ms.
//   0     A switched in (runs from 10 us); the tick at 1 ms ends its slice
//   1     B (runs from 1.01 ms); the tick at 2 ms ends its slice, 0.99 ms done
//   2     A, its runtime over since 1.51 ms: exits when its switch is paid, at 2.01 ms
//   2.01  B, 1.01 ms left after its switch: exits at 3.03 ms
// Four switches into a task: 40 us of overhead.
TEST(SimEngine, ARuntimeThatEndedWhileWaitingFinishesAfterTheSwitchBack) {
  workload w;
  w.name = "runtime-after-switch";
  w.duration = sec(1);
  w.tasks.push_back(finite("A", {ev::runtime(usec(1500))}));
  w.tasks.push_back(finite("B", {ev::run(msec(2))}));
  run_config c = exact_machine();
  c.machine.cs_cost_ns = usec(10);
  const run_result r = ref_entry().run(w, c, {{"timeslice", usec(500)}});
  EXPECT_EQ(find(r, "A").exit_ns, usec(2010));
  EXPECT_EQ(find(r, "B").exit_ns, usec(3030));
  EXPECT_EQ(r.totals.overhead_ns, usec(40));
  expect_conserved(r);
}

// A task that leaves its CPU by a change of affinity goes where cpumask_any_and_distribute
// sends it: the first allowed CPU after the last one it chose from this CPU, so successive
// moves spread. 3 CPUs: T1 and T2 start pinned to CPU 0, each sets its affinity to {1, 2}
// and runs 10 ms: T1 goes to CPU 1, T2 to CPU 2; both run at once and exit at 10 ms.
TEST(SimEngine, AffinityMovesFromOneCpuSpreadOverTheAllowedCpus) {
  workload w;
  w.name = "affinity-distribute";
  w.duration = sec(1);
  w.cpus = 3;
  for (const char* n : {"T1", "T2"}) {
    task_spec t = finite(n, {ev::set_affinity({1, 2}), ev::run(msec(10))});
    t.cpus = {0};
    w.tasks.push_back(t);
  }
  const run_result r = ref_entry().run(w, exact_machine(), {});
  EXPECT_EQ(find(r, "T1").exit_ns, msec(10));
  EXPECT_EQ(find(r, "T2").exit_ns, msec(10));
  EXPECT_EQ(find(r, "T1").migrations, 1u);
  EXPECT_EQ(find(r, "T2").migrations, 1u);
  EXPECT_EQ(r.totals.affinity_moves, 2u);
  expect_conserved(r);
}

// set_nice on a real-time task changes nothing (workload.hpp): Linux's set_user_nice only
// records static_prio for a task of an RT or deadline policy. A normal task's renice takes
// effect and is the result's final nice.
TEST(SimEngine, SetNiceOnARealTimeTaskChangesNothing) {
  workload w;
  w.name = "rt-nice";
  w.duration = msec(10);
  task_spec rt = finite("rt", {ev::run(msec(1)), ev::set_nice(7), ev::run(msec(1))});
  rt.params.kind = sched_kind::fifo;
  rt.params.rt_priority = 10;
  w.tasks.push_back(rt);
  w.tasks.push_back(finite("normal", {ev::run(msec(1)), ev::set_nice(7), ev::run(msec(1))}));
  const run_result r = rt_entry().run(w, exact_machine(), {});
  EXPECT_EQ(find(r, "rt").nice, 0);
  EXPECT_EQ(find(r, "rt").kind, "fifo");
  EXPECT_EQ(find(r, "rt").exit_ns, msec(2)) << "ran through, as SCHED_FIFO";
  EXPECT_EQ(find(r, "normal").nice, 7);
  expect_conserved(r);
}

// ---------------------------------------------------------------- setup (mutation audit of compile())

// CPU numbers run 0..cpus-1: the last CPU is accepted as the calibration CPU and in a task's
// "cpus", the next one is refused in both (sched_setaffinity: EINVAL; rt-app: no such CPU). A
// calibration CPU past the end read a capacity beyond the machine's list.
TEST(SimEngineSetup, TheLastCpuIsTheHighestAWorkloadMayName) {
  workload w;
  w.name = "cpu-range";
  w.duration = msec(10);
  w.cpus = 2;
  task_spec t = finite("t", {ev::run(msec(1))});
  t.cpus = {1};
  w.tasks = {t};
  w.calibration_cpu = 1;
  EXPECT_EQ(find(cfs_entry().run(w, exact_machine(), {}), "t").exit_ns, msec(1));
  auto refused = [](const workload& bad, const std::string& says) {
    try {
      (void)cfs_entry().run(bad, exact_machine(), {});
      ADD_FAILURE() << "accepted; expected: " << says;
    } catch (const workload_error& x) {
      EXPECT_NE(std::string(x.what()).find(says), std::string::npos) << x.what();
    }
  };
  workload bad = w;
  bad.calibration_cpu = 2;
  refused(bad, "the calibration CPU 2 is not a CPU of the machine (0..1)");
  bad = w;
  bad.tasks[0].cpus = {2};
  refused(bad, "\"cpus\" names CPU 2, but the machine has 2 CPU(s) (0..1)");
}

// A barrier's parties are the instances of the specs that name it, each spec counted once
// however many of its events name it: two instances that meet twice at "b" are 2 parties, so
// each meeting releases both at once and, on two CPUs, each exits after its 2 x 1 ms of work.
// (Counting the spec once per event made 4 parties: nobody ever passed the first meeting.)
TEST(SimEngineSetup, ABarrierNamedTwiceByATaskCountsEachInstanceOnce) {
  workload w;
  w.name = "barrier-twice";
  w.duration = msec(20);
  w.cpus = 2;
  task_spec t = finite("w", {ev::on(event_kind::barrier, "b"), ev::run(msec(1)), ev::on(event_kind::barrier, "b"),
                             ev::run(msec(1))});
  t.instances = 2;
  w.tasks = {t};
  const run_result r = cfs_entry().run(w, exact_machine(), {});
  EXPECT_EQ(find(r, "w-0").exit_ns, msec(2));
  EXPECT_EQ(find(r, "w-1").exit_ns, msec(2));
  expect_conserved(r);
}

// ---------------------------------------------------------------- load tracking (mutation audit)

// update_cfs_group runs for every level above the running task (entity_tick walks
// for_each_sched_entity): with nested groups the parent's entity is reweighted too. P holds a
// hog "p1" pinned to CPU 1 and a child group C whose hog "c0" is pinned to CPU 0; a root hog
// runs on each CPU. P's load is 1024 on each CPU (C's entity there, p1 here), so P weighs
// 1024 x 1024 / 2048 = 512 on each; C, loaded on CPU 0 only, weighs its whole 1024 inside P.
// c0 then gets 512 / (512 + 1024) = 1/3 of CPU 0, as p1 of CPU 1. (P left at its full 1024 on
// CPU 0 would give c0 half.)
TEST(SimEngineLoad, NestedGroupSharesReweightEveryLevelAboveTheRunningTask) {
  for (const policy_entry& e : {grouped_cfs_entry(), grouped_eevdf_entry()}) {
    workload w;
    w.name = "nested-shares";
    w.cpus = 2;
    w.duration = sec(4);
    w.cgroups = {{"P", "", 100}, {"C", "P", 100}};
    const struct {
      const char* name;
      const char* group;
      int cpu;
    } hogs[] = {{"c0", "C", 0}, {"p1", "P", 1}, {"r0", "", 0}, {"r1", "", 1}};
    for (const auto& h : hogs) {
      task_spec t = scen::task(h.name, 0, {ev::run(sec(100))});
      t.cgroup = h.group;
      t.cpus = {h.cpu};
      w.tasks.push_back(t);
    }
    const run_result r = e.run(w, exact_machine(), {});
    expect_conserved(r);
    const double total = static_cast<double>(w.duration);
    EXPECT_NEAR(static_cast<double>(find(r, "c0").cpu_ns) / total, 1.0 / 3.0, 0.02) << e.name;
    EXPECT_NEAR(static_cast<double>(find(r, "p1").cpu_ns) / total, 1.0 / 3.0, 0.02) << e.name;
  }
}

}  // namespace
