// schedsim with the deadline class stacked on top (class_stack<edf, rt, fair>): SCHED_DEADLINE
// tasks get exactly their CBS budget, preempt real-time tasks, and pass through one global
// (root-domain) admission control whose refusals name the task; exit and a policy change away
// from SCHED_DEADLINE release bandwidth. Also: the engine's event heap against
// std::priority_queue, and the hot/cold task split's name accessor.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "sim_entries.hpp"
#include "sim_results.hpp"
#include "schedcore/policy/edf.hpp"
#include "schedcore/policy/rt.hpp"
#include "schedcore/sim/engine.hpp"
#include "schedcore/sim/reference_rr.hpp"
#include "schedcore/sim/registry.hpp"
#include "schedcore/sim/report.hpp"
#include "schedcore/sim/rtapp.hpp"

namespace {

using namespace schedcore;
using namespace schedcore::sim;

using dl_task = sim_task<reference_rr_entity, rt_entity, edf_entity>;
using dl_binding = stack_binding<dl_task, rt_policy<dl_task>, reference_rr_policy<dl_task>, edf_policy<dl_task>>;

policy_entry dl_entry() { return schedcore_test::ref_dl_entry(); }

task_spec forever(const std::string& name, std::vector<event> evs) {
  task_spec t;
  t.name = name;
  t.daemon = true;
  phase p;
  p.loop = -1;
  p.events = std::move(evs);
  t.phases.push_back(p);
  return t;
}

// The message of the workload error a run of `w` on `c` under dl_entry() stops with, or
// "(no error)".
std::string workload_error_of(const workload& w, const run_config& c) {
  try {
    (void)dl_entry().run(w, c, {});
  } catch (const workload_error& e) {
    return e.what();
  }
  return "(no error)";
}

// 100 ms on 3 CPUs: two hogs, x and y, start pinned to CPU 0 and, after 100 us of work each,
// are let onto CPUs {0, 1}, so an idle CPU 1 must pull one of them; three more, p1-p3, are
// pinned to CPU 2, the busiest.
workload hogs_let_onto_cpus_0_1() {
  workload w;
  w.name = "pull";
  w.duration = msec(100);
  for (const char* name : {"x", "y"}) {
    task_spec t = forever(name, {ev::run(usec(100))});
    t.cpus = {0};
    t.phases[0].loop = 1;
    phase rest;
    rest.loop = -1;
    rest.events = {ev::set_affinity({0, 1}), ev::run(sec(1))};
    t.phases.push_back(rest);
    w.tasks.push_back(t);
  }
  for (const char* name : {"p1", "p2", "p3"}) {
    task_spec t = forever(name, {ev::run(sec(1))});
    t.cpus = {2};
    w.tasks.push_back(t);
  }
  return w;
}

using schedcore_test::expect_conserved;
using schedcore_test::exact_machine;
using schedcore_test::find;
using schedcore_test::reservation;

TEST(SimDeadline, BindingPutsEachKindInItsClass) {
  using stack = dl_binding::stack_type;
  static_assert(stack::nr_classes == 3, "edf, rt, fair");
  stack root, local;
  dl_task t;
  sched_params fifo;
  fifo.kind = sched_kind::fifo;
  fifo.rt_priority = 10;
  EXPECT_EQ(dl_binding::setup(local, root, t, fifo, sched_time(0)), errc::ok);
  EXPECT_EQ(t.sched_class, 1);
  EXPECT_EQ(dl_binding::setup(local, root, t, sched_params{}, sched_time(0)), errc::ok);
  EXPECT_EQ(t.sched_class, 2);
  EXPECT_EQ(dl_binding::setup(local, root, t, reservation(msec(2), msec(10)), sched_time(0)), errc::ok);
  EXPECT_EQ(t.sched_class, 0);
  EXPECT_EQ(root.get<0>().total_bandwidth(), edf_policy<dl_task>::to_ratio(msec(10), msec(2)));
  EXPECT_EQ(local.get<0>().total_bandwidth(), 0u);  // admission is the root domain's
  // Leaving SCHED_DEADLINE releases the bandwidth.
  EXPECT_EQ(dl_binding::setup(local, root, t, sched_params{}, sched_time(0)), errc::ok);
  EXPECT_EQ(t.sched_class, 2);
  EXPECT_EQ(root.get<0>().total_bandwidth(), 0u);
}

// 2 ms every 10 ms against two normal hogs and a FIFO 99 hog: the deadline task gets its
// budget every period (tick enforcement may overrun by < 1 tick, paid back next period). Its
// run time counts against the RT budget too (update_curr_dl up to 6.11: "we share the rt
// bandwidth"), so FIFO throttles once both have run 950 ms: 950 - 190 = 760 ms by then, and
// the fair hogs share the last 50 ms less the deadline task's 10 ms in it (before, FIFO ran
// 800 ms and the hogs nothing).
TEST(SimDeadline, DeadlineTaskGetsItsBudgetAboveRt) {
  workload w;
  w.name = "dl";
  w.duration = sec(1);
  task_spec d = forever("dl", {ev::run(sec(1))});
  d.params = reservation(msec(2), msec(10));
  w.tasks.push_back(d);
  task_spec f = forever("fifo", {ev::run(sec(1))});
  f.params.kind = sched_kind::fifo;
  f.params.rt_priority = 99;
  w.tasks.push_back(f);
  w.tasks.push_back(forever("hog-a", {ev::run(sec(1))}));
  w.tasks.push_back(forever("hog-b", {ev::run(sec(1))}));
  const run_result r = dl_entry().run(w, exact_machine(), {});
  expect_conserved(r);
  const auto& dl = find(r, "dl");
  EXPECT_EQ(dl.kind, "deadline");
  EXPECT_GE(dl.cpu_ns, msec(198));
  EXPECT_LE(dl.cpu_ns, msec(202));
  EXPECT_GE(find(r, "fifo").cpu_ns, msec(759));
  EXPECT_LE(find(r, "fifo").cpu_ns, msec(761));
  EXPECT_GE(find(r, "hog-a").cpu_ns + find(r, "hog-b").cpu_ns, msec(39));
  EXPECT_LE(find(r, "hog-a").cpu_ns + find(r, "hog-b").cpu_ns, msec(41));
}

// The shared RT bandwidth (Linux up to 6.11): on one CPU for 10 s a 500 ms / 1 s reservation,
// a FIFO hog and a fair hog: the reservation runs its 500 ms of each second first, FIFO then
// runs until the two together pass 950 ms (450 ms), and the fair hog gets the last 50 ms:
// 5000 / 4500 / 500 ms (before, FIFO took all 5000 ms left and the fair hog starved). With
// RT throttling off nothing is left for the fair hog; a reservation alone (no RT task, so the
// RT period timer never runs) leaves the fair hog all its 5000 ms.
TEST(SimDeadline, DeadlineRunTimeCountsAgainstTheRtBudget) {
  workload w;
  w.name = "dl-rt-fair";
  w.duration = sec(10);
  task_spec d = forever("dl", {ev::run(sec(1))});
  d.params = reservation(msec(500), sec(1));
  task_spec f = forever("fifo", {ev::run(sec(1))});
  f.params.kind = sched_kind::fifo;
  f.params.rt_priority = 50;
  const task_spec fair = forever("fair", {ev::run(sec(1))});
  w.tasks = {d, f, fair};
  const run_result r = dl_entry().run(w, exact_machine(), {});
  expect_conserved(r);
  EXPECT_EQ(find(r, "dl").cpu_ns, msec(5000));
  EXPECT_NEAR(static_cast<double>(find(r, "fifo").cpu_ns), static_cast<double>(msec(4500)), static_cast<double>(msec(1)));
  EXPECT_NEAR(static_cast<double>(find(r, "fair").cpu_ns), static_cast<double>(msec(500)), static_cast<double>(msec(1)));
  run_config off = exact_machine();
  off.machine.rt_runtime_ns = -1;
  const run_result unthrottled = dl_entry().run(w, off, {});
  EXPECT_EQ(find(unthrottled, "fifo").cpu_ns, msec(5000));
  EXPECT_EQ(find(unthrottled, "fair").cpu_ns, 0);
  w.tasks = {d, fair};
  const run_result no_rt = dl_entry().run(w, exact_machine(), {});
  EXPECT_EQ(find(no_rt, "dl").cpu_ns, msec(5000));
  EXPECT_EQ(find(no_rt, "fair").cpu_ns, msec(5000));
}

// Periodic deadline task (timer + run): each job finishes within its period.
TEST(SimDeadline, PeriodicDeadlineJobsBeatAnRtHog) {
  workload w;
  w.name = "dl-periodic";
  w.duration = sec(1);
  task_spec d = forever("cam", {ev::timer("t", msec(10)), ev::run(msec(3)), ev::frame(msec(10))});
  d.params = reservation(msec(4), msec(10));
  w.tasks.push_back(d);
  task_spec f = forever("rt-hog", {ev::run(sec(1))});
  f.params.kind = sched_kind::fifo;
  f.params.rt_priority = 99;
  w.tasks.push_back(f);
  const run_result r = dl_entry().run(w, exact_machine(), {});
  const auto& cam = find(r, "cam");
  EXPECT_GE(cam.frames, 99u);
  EXPECT_EQ(cam.deadlines_missed, 0u);
}

// GRUB reclaiming in the engine: a reclaiming 2 ms / 10 ms hog above a FIFO 99 hog on one CPU
// reclaims up to Umax of the CPU (95 %, within bw_ratio's truncation, 256 / 269 = 95.2 %: its
// budget drains at 0.2 / 0.95 of the time it runs). Without the flag it keeps exactly its 20 %
// (tick enforcement: within a tick per second). The FIFO hog runs in the reservation's gaps
// until the two together have run the RT budget, 950 ms of each second (update_curr_dl up to
// 6.11 shares the rt bandwidth): since one or the other always runs, that is at 0.95 s into
// each period, so FIFO gets (1 - share) x 0.95 of the CPU and the rest of each second idles.
TEST(SimDeadlineReclaim, AReclaimingHogRunsOnToUmaxAboveAnRtHog) {
  for (const bool reclaim : {false, true}) {
    workload w;
    w.name = "grub";
    w.duration = sec(2);
    task_spec d = forever("dl", {ev::run(sec(2))});
    d.params = reservation(msec(2), msec(10));
    d.params.reclaim = reclaim;
    w.tasks.push_back(d);
    task_spec f = forever("fifo", {ev::run(sec(2))});
    f.params.kind = sched_kind::fifo;
    f.params.rt_priority = 99;
    w.tasks.push_back(f);
    const run_result r = dl_entry().run(w, exact_machine(), {});
    expect_conserved(r);
    const double share = static_cast<double>(find(r, "dl").cpu_ns) / static_cast<double>(sec(2));
    EXPECT_NEAR(share, reclaim ? 0.95 : 0.20, reclaim ? 0.004 : 0.001) << "reclaim " << reclaim;
    EXPECT_NEAR(static_cast<double>(find(r, "fifo").cpu_ns) / static_cast<double>(sec(2)), (1.0 - share) * 0.95, 0.005)
        << "reclaim " << reclaim;
  }
}

// examples/rt-app/decoder-reclaim.json: a 30 fps decoder reserved 4 ms per 33.3 ms, enough for
// its average frame (3.75 ms) but not for every fourth one, a 9 ms I-frame, beside a background
// build on the same CPU. Reclaiming, it keeps every period (its budget drains at 0.12 / 0.95 of
// the time it runs: the I-frame costs 1.2 ms of budget) and does all its frames' work, 120 x
// 3.75 = 450 ms in 4 s. Without the flag CBS holds it to its reservation (4 / 33.3 of the time,
// within a tick per second): each I-frame is throttled after 4 ms and finishes in a later
// period, so the frame timer overruns and periods are lost, and SIGXCPU tells it so.
TEST(SimDeadlineReclaim, TheExampleDecoderKeepsItsIFramesOnlyWithReclaiming) {
  const std::string here = schedcore_test::repo_root();
  const workload reclaiming = load_rtapp(here + "/examples/rt-app/decoder-reclaim.json");
  workload plain = reclaiming;
  for (task_spec& t : plain.tasks) {
    if (t.params.kind == sched_kind::deadline) {
      EXPECT_TRUE(t.params.reclaim);
      t.params.reclaim = false;
    }
  }
  run_config c = exact_machine();
  c.duration_ns = sec(4);
  const run_result with = dl_entry().run(reclaiming, c, {}), without = dl_entry().run(plain, c, {});
  const auto& a = find(with, "decoder-0");
  const auto& b = find(without, "decoder-0");
  EXPECT_EQ(a.slack.overruns, 0u);
  EXPECT_GE(a.slack.periods, 119u);
  EXPECT_GT(a.slack.min, msec(20)) << "an I-frame (9 ms) ends well within its period";
  EXPECT_GE(a.cpu_ns, msec(450) - msec(9)) << "every frame's work, but for the one in progress at the end";
  // 30 I-frames in 4 s.
  EXPECT_GE(b.slack.overruns, 20u);
  EXPECT_LE(b.slack.periods, 110u);
  EXPECT_LT(b.slack.min, -msec(20));
  EXPECT_LE(b.cpu_ns, sec(4) * 4000 / 33333 + msec(4));
  // The file also asks for SCHED_FLAG_DL_OVERRUN's signals. Reclaiming, the decoder never
  // spends its budget (an I-frame costs 1.2 ms of it): no SIGXCPU. Held to its reservation,
  // each I-frame spends two budgets (9 ms of work is 4 + 4 + 1), and each SIGXCPU stands for a
  // whole budget run: at least 2 x 20 I-frames' worth, and never more than cpu / 4 ms.
  EXPECT_TRUE(a.reports_overrun);
  EXPECT_EQ(a.sigxcpu, 0u);
  EXPECT_GE(b.sigxcpu, 40u);
  EXPECT_LE(static_cast<std::int64_t>(b.sigxcpu) * msec(4), b.cpu_ns);
  for (const run_result* r : {&with, &without}) expect_conserved(*r);
}

// SCHED_FLAG_DL_OVERRUN in the engine: the kernel sends SIGXCPU at a tick that finds the marked
// task running (check_dl_overrun, after the scheduler's tick). A 2 ms / 10 ms hog is throttled
// at the ticks 2, 12, ..., 992 ms, each signalled in its own tick: 100 in 1 s. A periodic job
// that spends its whole 2.5 ms budget (q = 0, an overrun as dl_runtime_exceeded counts it) is
// throttled when it sleeps, between ticks, and signalled at the first tick of its next period
// (11, 21, ..., 991 ms): 99, the last mark still pending at the end. A 2.4 ms job leaves 0.1 ms
// and is never signalled; nor is a task that did not ask, which also has no "sigxcpu" field.
TEST(SimDeadlineOverrun, EachOverrunIsSignalledAtATickThatFindsTheTaskRunning) {
  workload w;
  w.name = "overrun";
  w.duration = sec(1);
  auto reporting = [](std::int64_t q, bool asked) {
    sched_params p = reservation(q, msec(10));
    p.dl_overrun = asked;
    return p;
  };
  task_spec hog = forever("hog", {ev::run(sec(1))});
  hog.params = reporting(msec(2), true);
  hog.cpus = {0};
  w.tasks.push_back(hog);
  task_spec spends = forever("spends", {ev::run(usec(2500)), ev::anchored_timer("a", msec(10), 0)});
  spends.params = reporting(usec(2500), true);
  spends.cpus = {1};
  w.tasks.push_back(spends);
  task_spec within = forever("within", {ev::run(usec(2400)), ev::anchored_timer("b", msec(10), 0)});
  within.params = reporting(usec(2500), true);
  within.cpus = {2};
  w.tasks.push_back(within);
  task_spec silent = forever("silent", {ev::run(sec(1))});
  silent.params = reporting(msec(2), false);
  silent.cpus = {3};
  w.tasks.push_back(silent);
  run_config c = exact_machine();
  c.cpus = 4;
  c.machine.dl_bound_pct = -1;  // reservations pinned one per CPU: Linux allows them with admission off only
  trace_writer trace;
  c.trace = &trace;
  const run_result r = dl_entry().run(w, c, {});
  expect_conserved(r);
  EXPECT_EQ(find(r, "hog").sigxcpu, 100u);
  EXPECT_EQ(find(r, "hog").cpu_ns, msec(200));
  EXPECT_EQ(find(r, "spends").sigxcpu, 99u);
  EXPECT_EQ(find(r, "spends").cpu_ns, msec(250));
  EXPECT_EQ(find(r, "within").sigxcpu, 0u);
  EXPECT_TRUE(find(r, "within").reports_overrun);
  EXPECT_EQ(find(r, "silent").sigxcpu, 0u);
  EXPECT_FALSE(find(r, "silent").reports_overrun);
  // The trace has the kernel's signal_generate line for each, at the tick.
  const std::string& text = trace.text();
  EXPECT_NE(text.find("0.002000: signal_generate: sig=24 errno=0 code=128 comm=hog pid="), std::string::npos);
  EXPECT_NE(text.find("0.011000: signal_generate: sig=24 errno=0 code=128 comm=spends pid="), std::string::npos);
  std::size_t lines = 0;
  for (std::size_t at = text.find("signal_generate"); at != std::string::npos; at = text.find("signal_generate", at + 1)) ++lines;
  EXPECT_EQ(lines, 199u);
  // JSON and the task table: the count for the tasks that asked, nothing for the others.
  const std::string json = to_json(r);
  EXPECT_NE(json.find("\"sigxcpu\": 100"), std::string::npos);
  EXPECT_NE(json.find("\"sigxcpu\": 0"), std::string::npos);
  std::size_t fields = 0;
  for (std::size_t at = json.find("\"sigxcpu\""); at != std::string::npos; at = json.find("\"sigxcpu\"", at + 1)) ++fields;
  EXPECT_EQ(fields, 3u);
  EXPECT_NE(task_table(r).find("sigxcpu"), std::string::npos);
  // A warm-up restarts the count with every other statistic: from 500 ms the hog's ticks 502,
  // 512, ..., 992 ms and the spender's 501, ..., 991 ms, 50 each (it kept the whole run's 100).
  c.trace = nullptr;
  c.warmup_ns = msec(500);
  const run_result half = dl_entry().run(w, c, {});
  EXPECT_EQ(find(half, "hog").sigxcpu, 50u);
  EXPECT_EQ(find(half, "spends").sigxcpu, 50u);
  EXPECT_EQ(find(half, "hog").cpu_ns, msec(100));
  c.warmup_ns = 0;
  w.tasks.resize(1);
  w.tasks[0].params.dl_overrun = false;
  c.trace = nullptr;
  const run_result quiet = dl_entry().run(w, c, {});
  EXPECT_EQ(to_json(quiet).find("sigxcpu"), std::string::npos);
  EXPECT_EQ(task_table(quiet).find("sigxcpu"), std::string::npos);
}

// A phase that only asks for the signals is a change (the kernel's dl_param_changed compares
// sched_flags): a 2 ms / 10 ms reservation working 5 ms per 10 ms timer runs 2 ms a period and
// is throttled at the 2 ms tick with its budget spent. 50 ms of work: throttles at 2, 12, ...,
// 242 ms. The quiet phase's 25 ms end at 120.5 ms; from the throttle at 122 ms on, each is
// signalled: 13 SIGXCPUs, the first at 0.122 s.
TEST(SimDeadlineOverrun, APhaseThatOnlyAsksForTheSignalsGetsThem) {
  const workload w = parse_rtapp(R"({"global": {"duration": 1}, "tasks": {"t": {
      "policy": "SCHED_DEADLINE", "dl-runtime": 2000, "dl-period": 10000, "loop": 1, "phases": {
        "quiet": {"loop": 5, "run": 5000, "timer": {"ref": "a", "period": 10000}},
        "loud": {"dl-runtime": 2000, "dl-period": 10000, "dl-overrun": true, "loop": 5, "run": 5000,
                 "timer": {"ref": "a", "period": 10000}}}}}})");
  trace_writer trace;
  run_config c = exact_machine();
  c.trace = &trace;
  const run_result r = dl_entry().run(w, c, {});
  const auto& t = find(r, "t-0");
  EXPECT_TRUE(t.reports_overrun);
  EXPECT_EQ(t.cpu_ns, msec(50));
  EXPECT_EQ(t.sigxcpu, 13u);
  const std::size_t first = trace.text().find("signal_generate");
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(trace.text().substr(first - 10, 8), "0.122000");
}

// Admission is global (root domain, cap = cpus x 95 %): two 60 % tasks fit on 2 CPUs, not on 1;
// the refusal is a workload error naming the task.
TEST(SimDeadline, AdmissionRefusalNamesTheTask) {
  workload w;
  w.name = "overload";
  w.duration = msec(100);
  task_spec a = forever("dl-a", {ev::run(sec(1))});
  a.params = reservation(msec(6), msec(10));
  task_spec b = a;
  b.name = "dl-b";
  w.tasks.push_back(a);
  w.tasks.push_back(b);
  try {
    (void)dl_entry().run(w, exact_machine(), {});
    ADD_FAILURE() << "expected an admission refusal";
  } catch (const workload_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("task 'dl-b'"), std::string::npos) << m;
    EXPECT_NE(m.find("admission"), std::string::npos) << m;
    EXPECT_NE(m.find("(the bound, 95 %, x its 1 CPU;"), std::string::npos) << m;
  }
  run_config two = exact_machine();
  two.cpus = 2;
  const run_result r = dl_entry().run(w, two, {});
  EXPECT_GE(find(r, "dl-a").cpu_ns, msec(59));
  EXPECT_GE(find(r, "dl-b").cpu_ns, msec(59));
  // The bound (machine_model::dl_bound_pct, --dl-bound): each task's to_ratio(10 ms, 6 ms) =
  // (6 << 20) / 10 = 629145; the cap on 2 CPUs is 2 x (bound << 20) / 100: 1258291 at 60 %
  // admits both (1258290), 1237319 at 59 % refuses the second. Off (-1), one CPU takes both.
  two.machine.dl_bound_pct = 60;
  EXPECT_GE(find(dl_entry().run(w, two, {}), "dl-b").cpu_ns, msec(59));
  two.machine.dl_bound_pct = 59;
  try {
    (void)dl_entry().run(w, two, {});
    ADD_FAILURE() << "expected an admission refusal at 59 %";
  } catch (const workload_error& e) {
    const std::string m = e.what();  // the message names the bound in force, not the default
    EXPECT_NE(m.find("task 'dl-b'"), std::string::npos) << m;
    EXPECT_NE(m.find("(the bound, 59 %, x its 2 CPUs;"), std::string::npos) << m;
  }
  run_config one_off = exact_machine();
  one_off.machine.dl_bound_pct = -1;
  const run_result both = dl_entry().run(w, one_off, {});
  EXPECT_EQ(find(both, "dl-a").kind, "deadline");
  EXPECT_EQ(find(both, "dl-b").kind, "deadline");
  // Outside -1..100: a usage error.
  two.machine.dl_bound_pct = 101;
  EXPECT_THROW((void)dl_entry().run(w, two, {}), usage_error);
  two.machine.dl_bound_pct = -2;
  EXPECT_THROW((void)dl_entry().run(w, two, {}), usage_error);
}

// While admission control is on, Linux gives SCHED_DEADLINE only to tasks allowed on every CPU of
// their root domain (the whole machine here), as bandwidth is accounted per domain:
// sched_setaffinity of a deadline task to fewer CPUs fails with EBUSY (dl_task_check_affinity),
// sched_setattr to SCHED_DEADLINE of a task pinned to fewer with EPERM (__sched_setscheduler), and
// rt-app stops. Each is a workload error naming the task, the CPUs and the instant. With admission
// off (sched_rt_runtime_us = -1, here machine_model::dl_bound_pct = -1) the same tasks run, and an affinity to
// every CPU, or a one-CPU machine, was never narrower.
TEST(SimDeadline, APinnedDeadlineTaskIsRefusedWhileAdmissionIsOn) {
  run_config two = exact_machine();
  two.cpus = 2;
  run_config two_off = two;
  two_off.machine.dl_bound_pct = -1;

  // Pinned from the start: refused at 0 ns; runs with admission off, 2 ms of every 10.
  workload pinned;
  pinned.name = "pinned";
  pinned.duration = msec(100);
  task_spec d = forever("d", {ev::run(sec(1))});
  d.params = reservation(msec(2), msec(10));
  d.cpus = {1};
  pinned.tasks.push_back(d);
  std::string m = workload_error_of(pinned, two);
  EXPECT_NE(m.find("task 'd': SCHED_DEADLINE with affinity to CPUs {1} of the machine's 2 at 0 ns: sched_setaffinity fails with EBUSY"),
            std::string::npos)
      << m;
  const run_result off = dl_entry().run(pinned, two_off, {});
  EXPECT_EQ(find(off, "d").cpu_ns, msec(20));
  EXPECT_EQ(find(off, "d").kind, "deadline");
  // Every CPU named is no narrowing; nor is one CPU of a one-CPU machine.
  pinned.tasks[0].cpus = {0, 1};
  EXPECT_EQ(find(dl_entry().run(pinned, two, {}), "d").cpu_ns, msec(20));
  pinned.tasks[0].cpus = {0};
  EXPECT_EQ(find(dl_entry().run(pinned, exact_machine(), {}), "d").cpu_ns, msec(20));

  // A deadline task narrowing its own affinity after 5 ms of work: refused at that instant.
  workload narrows;
  narrows.name = "narrows";
  narrows.duration = msec(100);
  task_spec n = forever("n", {ev::run(msec(1)), ev::set_affinity({0}), ev::run(sec(1))});
  n.params = reservation(msec(2), msec(10));
  narrows.tasks.push_back(n);
  m = workload_error_of(narrows, two);
  EXPECT_NE(m.find("task 'n': SCHED_DEADLINE with affinity to CPUs {0} of the machine's 2 at 1000000 ns: sched_setaffinity fails with EBUSY"),
            std::string::npos)
      << m;
  EXPECT_EQ(workload_error_of(narrows, two_off), "(no error)");

  // A pinned normal task asking for SCHED_DEADLINE: EPERM. A normal task may pin itself.
  workload asks;
  asks.name = "asks";
  asks.duration = msec(100);
  task_spec a = forever("a", {ev::run(msec(3)), ev::set_policy(reservation(msec(2), msec(10))), ev::run(sec(1))});
  a.cpus = {0};
  asks.tasks.push_back(a);
  m = workload_error_of(asks, two);
  EXPECT_NE(m.find("task 'a': SCHED_DEADLINE with affinity to CPUs {0} of the machine's 2 at 3000000 ns: sched_setattr fails with EPERM"),
            std::string::npos)
      << m;
  const run_result allowed = dl_entry().run(asks, two_off, {});
  EXPECT_EQ(find(allowed, "a").kind, "deadline");
  asks.tasks[0].phases[0].events = {ev::run(msec(3)), ev::set_affinity({1}), ev::run(sec(1))};
  EXPECT_EQ(workload_error_of(asks, two), "(no error)");
}

// A phase asking for the affinity the task already has changes nothing (sched_setaffinity with
// the same mask: no move, no stop): 10 passes of {cpus {0}, run 1 ms} end at exactly 10 ms on a
// 2-CPU machine, the task never leaving CPU 0 (no affinity move) and never waiting.
TEST(SimDeadline, TheSameAffinityAgainChangesNothing) {
  run_config two = exact_machine();
  two.cpus = 2;
  workload w;
  w.name = "same-affinity";
  w.duration = msec(100);
  task_spec t;
  t.name = "t";
  t.cpus = {0};
  t.loop = 1;
  phase p;
  p.loop = 10;
  p.events = {ev::set_affinity({0}), ev::run(msec(1))};
  t.phases.push_back(p);
  w.tasks = {t};
  const run_result r = dl_entry().run(w, two, {});
  EXPECT_EQ(find(r, "t").exit_ns, msec(10));
  EXPECT_EQ(find(r, "t").cpu_ns, msec(10));
  EXPECT_EQ(r.totals.affinity_moves, 0u);
}

// Exclusive cpuset partitions (machine_model::partitions, --partition): each is a root domain of
// its own, the CPUs no partition names another (the root cpuset's). Oracles: the kernel's
// per-root-domain deadline bandwidth (__dl_overflow against dl_bw_cpus x bound), its affinity
// rule against the domain's span (dl_task_check_affinity: cpumask_subset(rd->span, mask)),
// sched_setaffinity's mask & the cpuset's CPUs (EINVAL when empty), and sched domains that end at
// a partition. 3 CPUs, partition {2}: the default domain is {0, 1}.
TEST(SimDeadline, APartitionIsARootDomainOfItsOwn) {
  run_config three = exact_machine();
  three.cpus = 3;
  three.machine.partitions = {std::uint64_t{1} << 2};
  auto dl = [](const std::string& name, std::vector<int> cpus) {
    task_spec t = forever(name, {ev::run(sec(1))});
    t.params = reservation(msec(6), msec(10));
    t.cpus = std::move(cpus);
    return t;
  };
  workload w;
  w.name = "partitioned";
  w.duration = msec(100);
  // Admission per domain: 0.6 on the partition's one CPU (cap 0.95), 2 x 0.6 on the default
  // domain's two (cap 1.9). Each reservation gets 6 ms of every 10: 60 ms.
  w.tasks = {dl("p1", {2}), dl("d1", {}), dl("d2", {0, 1})};
  const run_result r = dl_entry().run(w, three, {});
  for (const char* name : {"p1", "d1", "d2"}) EXPECT_EQ(find(r, name).cpu_ns, msec(60)) << name;
  // Without the partition the machine is one domain, and p1's pin to CPU 2 is refused (EBUSY).
  run_config whole = three;
  whole.machine.partitions.clear();
  EXPECT_NE(workload_error_of(w, whole).find("task 'p1': SCHED_DEADLINE with affinity to CPUs {2} of the machine's 3"), std::string::npos);
  // A second 0.6 in the partition overflows its one CPU; a third in the default domain its two.
  workload over = w;
  over.tasks.push_back(dl("p2", {2}));
  std::string m = workload_error_of(over, three);
  EXPECT_NE(m.find("task 'p2'"), std::string::npos) << m;
  EXPECT_NE(m.find("(the bound, 95 %, x its 1 CPU {2};"), std::string::npos) << m;
  over.tasks.back() = dl("d3", {});  // 1.8 of 1.9 fits; a fourth 0.6 does not
  EXPECT_EQ(workload_error_of(over, three), "(no error)");
  over.tasks.push_back(dl("d4", {0, 1}));
  m = workload_error_of(over, three);
  EXPECT_NE(m.find("task 'd4'"), std::string::npos) << m;
  EXPECT_NE(m.find("(the bound, 95 %, x its 2 CPUs {0,1};"), std::string::npos) << m;
  // The affinity rule holds against the task's own domain: {0} of {0,1} is refused.
  workload narrow = w;
  narrow.tasks[2] = dl("d2", {0});
  m = workload_error_of(narrow, three);
  EXPECT_NE(m.find("task 'd2': SCHED_DEADLINE with affinity to CPUs {0} of its root domain's {0,1} at 0 ns: sched_setaffinity fails with EBUSY"),
            std::string::npos)
      << m;
  // A mask across two partitions, with no CPU of the default domain: EINVAL at the start.
  run_config split = exact_machine();
  split.cpus = 3;
  split.machine.partitions = {std::uint64_t{1} << 1, std::uint64_t{1} << 2};
  workload across;
  across.name = "across";
  across.duration = msec(10);
  task_spec h = forever("h", {ev::run(sec(1))});
  h.cpus = {1, 2};
  across.tasks = {h};
  m = workload_error_of(across, split);
  EXPECT_NE(m.find("task 'h': its CPUs {1,2} lie in no single partition and include none of the default root domain's {0}"),
            std::string::npos)
      << m;
  // A task may not leave its partition at a phase (EINVAL: no CPU of its cpuset named).
  across.tasks[0].cpus = {2};
  across.tasks[0].phases[0].events = {ev::run(msec(1)), ev::set_affinity({0, 1}), ev::run(sec(1))};
  m = workload_error_of(across, split);
  EXPECT_NE(m.find("task 'h': a phase asks for CPUs {0,1} at 1000000 ns, none of them in its cpuset's root domain {2}"),
            std::string::npos)
      << m;
  // Bad partitions: usage errors.
  for (const std::vector<std::uint64_t>& bad : {std::vector<std::uint64_t>{0}, {8}, {3, 2}, {7}}) {
    run_config c = three;
    c.machine.partitions = bad;
    EXPECT_THROW((void)dl_entry().run(w, c, {}), usage_error) << bad.size();
  }
}

// Fair tasks under partitions: a task that names no CPU runs in the root cpuset, on the CPUs no
// partition has; one whose CPUs lie in a partition runs there. Load balancing stays inside a
// domain, so tasks pinned in the partition do not stop the default domain's idle CPU from
// pulling (without that limit the balancer would look at the busier partition CPU, find
// nothing it may take, and leave CPU 1 idle). 3 CPUs, partition {2}, 100 ms.
TEST(SimDeadline, FairTasksStayInTheirRootDomain) {
  run_config three = exact_machine();
  three.cpus = 3;
  three.machine.partitions = {std::uint64_t{1} << 2};
  workload w;
  w.name = "fair";
  w.duration = msec(100);
  // Three unpinned hogs share CPUs 0 and 1: 200 ms between them; one pinned to CPU 2 has it.
  for (const char* name : {"a", "b", "c"}) w.tasks.push_back(forever(name, {ev::run(sec(1))}));
  task_spec p = forever("p", {ev::run(sec(1))});
  p.cpus = {2};
  w.tasks.push_back(p);
  run_result r = dl_entry().run(w, three, {});
  EXPECT_EQ(find(r, "a").cpu_ns + find(r, "b").cpu_ns + find(r, "c").cpu_ns, msec(200));
  EXPECT_EQ(find(r, "p").cpu_ns, msec(100));
  // hogs_let_onto_cpus_0_1(): CPU 1 pulls one of the two (the busy CPUs' ticks kick it:
  // affinity limits turn the idle-balance kick on), and they have about a CPU each (200 ms
  // between them; 100 ms if CPU 1 stayed idle).
  r = dl_entry().run(hogs_let_onto_cpus_0_1(), three, {});
  EXPECT_GE(find(r, "x").cpu_ns + find(r, "y").cpu_ns, msec(180));
}

// examples/rt-app/partitioned-edf.json: a filter reserved 9.2 ms / 10 ms (9 ms of work) and two
// sensors 1.5 ms within 5 ms / 10 ms (1.2 ms each), released together by absolute timers, 1.22
// CPUs of bandwidth on two. Partitioned (the filter alone on CPU 1, a partition; the sensors on
// CPU 0): every period kept, the filter's slack 10 - 9 = 1 ms less switch costs. Global EDF (the
// pins removed): admitted just the same, but at each release the sensors' earlier deadlines
// take both CPUs for 1.2 ms and the filter, starting late, overruns (Dhall's effect; global EDF
// bounds tardiness only). The pinned file without a partition is refused (EBUSY).
TEST(SimDeadline, TheExampleFilterKeepsItsPeriodsOnlyPartitioned) {
  const workload w = load_rtapp(schedcore_test::repo_root() + "/examples/rt-app/partitioned-edf.json");
  run_config part = exact_machine();
  part.cpus = 2;
  part.machine.partitions = {std::uint64_t{1} << 1};
  for (const policy_entry& e : {schedcore_test::cfs_dl_entry(), dl_entry()}) {
    const run_result r = e.run(w, part, {});
    expect_conserved(r);
    for (const char* name : {"filter-0", "sensor-0", "sensor-1"}) {
      EXPECT_EQ(find(r, name).slack.overruns, 0u) << e.name << " " << name;
      EXPECT_GE(find(r, name).slack.periods, 998u) << e.name << " " << name;
    }
    EXPECT_GE(find(r, "filter-0").slack.min, usec(990)) << e.name;
    workload global = w;
    for (task_spec& t : global.tasks) t.cpus.clear();
    run_config two = exact_machine();
    two.cpus = 2;
    const run_result g = e.run(global, two, {});
    EXPECT_GE(find(g, "filter-0").slack.overruns, 400u) << e.name;
    EXPECT_LT(find(g, "filter-0").slack.min, 0) << e.name;
    EXPECT_EQ(find(g, "sensor-0").slack.overruns + find(g, "sensor-1").slack.overruns, 0u) << e.name;
    EXPECT_THROW((void)e.run(w, two, {}), workload_error) << e.name;
  }
}

// Within one root domain too, a CPU whose fair tasks are all pinned away from the balancing CPU
// does not stop the balance: the kernel's load_balance finds no task there that may run on the
// destination (LBF_ALL_PINNED) and tries again without that CPU. hogs_let_onto_cpus_0_1() with
// no partition: CPU 1, kicked by the busy CPUs' ticks, pulls x or y (200 ms between them; 100 ms
// if the balance stopped at CPU 2, or if nothing kicked the idle CPU).
TEST(SimDeadline, ABalanceLooksPastACpuWhoseTasksArePinnedAway) {
  run_config three = exact_machine();
  three.cpus = 3;
  const run_result r = dl_entry().run(hogs_let_onto_cpus_0_1(), three, {});
  EXPECT_GE(find(r, "x").cpu_ns + find(r, "y").cpu_ns, msec(180));
  EXPECT_EQ(find(r, "p1").cpu_ns + find(r, "p2").cpu_ns + find(r, "p3").cpu_ns, msec(100));
}

TEST(SimDeadline, InvalidDeadlineParametersAreAWorkloadError) {
  workload w;
  w.name = "bad";
  w.duration = msec(10);
  task_spec a = forever("tiny", {ev::run(sec(1))});
  a.params = reservation(500, msec(10));  // runtime < 1024 ns
  w.tasks.push_back(a);
  EXPECT_THROW((void)dl_entry().run(w, exact_machine(), {}), workload_error);
}

// An exited deadline task returns its bandwidth: a second 60 % task starting after it is admitted.
TEST(SimDeadline, ExitReleasesBandwidth) {
  workload w;
  w.name = "release";
  w.duration = msec(200);
  task_spec a;
  a.name = "first";
  a.loop = 1;
  a.params = reservation(msec(6), msec(10));
  phase p;
  p.events = {ev::run(msec(5))};
  a.phases.push_back(p);
  task_spec b = forever("second", {ev::run(sec(1))});
  b.params = reservation(msec(6), msec(10));
  b.delay = msec(50);
  b.daemon = false;  // keeps the run going after `first` exits
  w.tasks.push_back(a);
  w.tasks.push_back(b);
  const run_result r = dl_entry().run(w, exact_machine(), {});
  EXPECT_GE(find(r, "first").exit_ns, 0);
  EXPECT_GE(find(r, "second").cpu_ns, msec(80));
}

// A runtime switch to SCHED_DEADLINE that admission refuses leaves the task as it was; a
// switch away from SCHED_DEADLINE frees the bandwidth for another task.
TEST(SimDeadline, PolicyChangesGoThroughAdmission) {
  workload w;
  w.name = "setattr";
  w.duration = msec(300);
  task_spec hold = forever("holder", {ev::run(msec(30)), ev::set_policy(sched_params{}), ev::run(sec(10))});
  hold.params = reservation(msec(6), msec(10));
  task_spec want;
  want.name = "wants-dl";
  want.loop = -1;
  phase p0;
  p0.loop = 1;
  p0.events = {ev::set_policy(reservation(msec(6), msec(10))), ev::sleep(msec(100))};
  phase p1;
  p1.loop = -1;
  p1.events = {ev::set_policy(reservation(msec(6), msec(10))), ev::run(sec(10))};
  want.phases = {p0, p1};
  want.daemon = true;
  w.tasks.push_back(hold);
  w.tasks.push_back(want);
  const run_result r = dl_entry().run(w, exact_machine(), {});
  EXPECT_EQ(find(r, "holder").kind, "normal");  // switched away, bandwidth released
  EXPECT_EQ(find(r, "wants-dl").kind, "deadline");
}

// A refused switch is not recorded as the task's own policy: sched_setattr fails (EBUSY) and the
// task keeps the parameters it had, so its result reports the kind it ran with. The holder's
// 6 ms / 10 ms (60 %) plus another 60 % exceed the 95 % admission bound of the one CPU.
TEST(SimDeadline, AnAdmissionRefusalLeavesTheTasksOwnPolicyAsItWas) {
  workload w;
  w.name = "setattr-refused";
  w.duration = msec(100);
  task_spec hold = forever("holder", {ev::run(sec(10))});
  hold.params = reservation(msec(6), msec(10));
  hold.daemon = true;
  w.tasks.push_back(hold);
  w.tasks.push_back(forever("wants-dl", {ev::set_policy(reservation(msec(6), msec(10))), ev::run(msec(10))}));
  w.tasks.back().loop = 1;
  const run_result r = dl_entry().run(w, exact_machine(), {});
  EXPECT_EQ(find(r, "holder").kind, "deadline");
  EXPECT_EQ(find(r, "wants-dl").kind, "normal");
}

TEST(SimEngineInternals, EventHeapOrdersLikeAPriorityQueue) {
  using detail_sim::qevent;
  struct greater {
    bool operator()(const qevent& a, const qevent& b) const { return detail_sim::before(b, a); }
  };
  std::mt19937_64 rng(42);
  detail_sim::event_heap h;
  std::priority_queue<qevent, std::vector<qevent>, greater> ref;
  std::uint64_t seq = 0;
  for (int round = 0; round < 20000; ++round) {
    if (ref.empty() || rng() % 3 != 0) {
      const qevent e{static_cast<std::int64_t>(rng() % 64), seq++, static_cast<std::uint32_t>(rng() % 6), 0, 0};
      h.push(e);
      ref.push(e);
    } else {
      ASSERT_EQ(h.top().seq, ref.top().seq);
      h.pop();
      ref.pop();
    }
    ASSERT_EQ(h.size(), ref.size());
  }
  while (!ref.empty()) {
    ASSERT_EQ(h.top().seq, ref.top().seq);
    h.pop();
    ref.pop();
  }
  EXPECT_TRUE(h.empty());
}

TEST(SimEngineInternals, NamesAreBuiltOnDemandAndSpeedIsMeasured) {
  workload w;
  w.name = "names";
  w.duration = msec(50);
  task_spec h = forever("hog", {ev::run(sec(1))});
  h.instances = 3;
  w.tasks.push_back(h);
  w.tasks.push_back(forever("solo", {ev::run(sec(1))}));
  run_config c = exact_machine();
  c.host_timing = true;
  engine<dl_binding> eng(w, c, [](dl_binding::stack_type&, int) {});
  const run_result r = eng.run();
  ASSERT_EQ(eng.tasks().size(), 4u);
  EXPECT_EQ(eng.task_name(*eng.tasks()[0]), "hog-0");
  EXPECT_EQ(eng.task_name(*eng.tasks()[2]), "hog-2");
  EXPECT_EQ(eng.task_name(*eng.tasks()[3]), "solo");
  EXPECT_EQ(r.tasks[1].name, "hog-1");
  EXPECT_GT(r.totals.events, 0u);
  EXPECT_GT(r.totals.events_per_sec, 0.0);
}

}  // namespace
