// The trace as a record of the schedule: what Perfetto draws from a schedsim trace must be the
// run the simulator reports. sim_engine_test checks each line's format; this suite reads a whole
// trace back, as a trace viewer does, and checks it against itself and against the run's result:
// - per CPU, every sched_switch leaves the task the previous one switched in (the chain Perfetto
//   turns into slices), and every line's head names the task current on its CPU (the
//   `comm-pid` of the header's format), except the migration stopper's own line;
// - a task is never current on two CPUs at once, and each is switched in on the CPU its last
//   sched_wakeup / sched_wakeup_new target_cpu or sched_migrate_task dest_cpu named, and a
//   wakeup names another CPU than the task's last only after a sched_migrate_task;
// - a task switched out asleep (S, D) is woken before it runs again, one that exited (X)
//   never runs again, one switched out runnable (R, R+) is not woken;
// - timestamps never go back;
// - each task's time between switch-in and switch-out equals its reported CPU time plus the
//   switch cost of each switch-in (the engine charges `cs_cost_ns` to no task, after the
//   switch, or what the interval lasted if shorter), to the trace's microsecond; the idle
//   task's time is the run's idle time, the switch costs the run's overhead.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "sim_entries.hpp"
#include "sim_results.hpp"
#include "schedcore/sim/engine.hpp"
#include "schedcore/sim/scenarios.hpp"
#include "schedcore/sim/trace.hpp"
#include "schedcore/sim/workload.hpp"

namespace {

using namespace schedcore::sim;

std::int64_t msec(std::int64_t v) { return v * 1000000; }
std::int64_t usec(std::int64_t v) { return v * 1000; }

/// What the replay learned about one task.
struct replayed_task {
  int cpu = -1;                 ///< where it is (its last wakeup target, migration dest or run)
  int running_on = -1;          ///< the CPU it is current on, -1 when none
  std::int64_t since_us = 0;    ///< when it was switched in, µs
  std::int64_t on_cpu_us = 0;   ///< summed switch-in to switch-out, µs
  std::int64_t switch_ins = 0;  ///< times it was switched in
  std::int64_t intervals = 0;   ///< closed or open on-CPU intervals (each rounds by up to 1 µs)
  std::int64_t overhead_us = 0; ///< the switch cost its intervals paid: min(length, cs_cost) each
  std::int64_t short_ones = 0;  ///< intervals shorter than cs_cost (the cost cut short; rounded)
  char state = 'N';             ///< 'N' not yet woken, 'R' runnable, 'S' asleep, 'X' exited
};

/// Replays `text` (a trace of `r`, `cpus` CPUs, `cs_cost_ns` per switch-in) and checks it.
void replay_and_check(const std::string& text, const run_result& r, int cpus, std::int64_t cs_cost_ns) {
  const std::regex line_re(R"(^ *(\S+)-(\d+) +\[(\d{3})\] d\.\.2 +(\d+)\.(\d{6}): ([a-z_]+): (.*)$)");
  const std::regex switch_re(
      R"(^prev_comm=(\S+) prev_pid=(\d+) prev_prio=-?\d+ prev_state=(R\+?|S|D|X) ==> next_comm=(\S+) next_pid=(\d+) next_prio=-?\d+$)");
  const std::regex wake_re(R"(^comm=(\S+) pid=(\d+) prio=-?\d+ target_cpu=(\d{3})$)");
  const std::regex migrate_re(R"(^comm=\S+ pid=(\d+) prio=-?\d+ orig_cpu=(\d+) dest_cpu=(\d+)$)");
  std::map<int, int> current;  // CPU -> pid current there (0: idle)
  for (int c = 0; c < cpus; ++c) current[c] = 0;
  std::map<int, std::int64_t> idle_since_us, idle_us;
  std::int64_t idle_intervals = cpus;  // every CPU starts idle
  for (int c = 0; c < cpus; ++c) idle_since_us[c] = 0;
  std::map<int, replayed_task> tasks;
  // A switch-in pays cs_cost_ns before the task's own time starts (sim/engine.hpp's account):
  // all of it, or what the interval lasted when the task leaves first or the run ends.
  const std::int64_t cs_us = cs_cost_ns / 1000;
  const auto close_interval = [cs_us](replayed_task& t, std::int64_t until_us) {
    const std::int64_t len = until_us - t.since_us;
    t.on_cpu_us += len;
    t.overhead_us += len < cs_us ? len : cs_us;
    t.short_ones += len <= cs_us ? 1 : 0;
  };
  std::map<std::string, std::vector<int>> pids_of;  // comm -> the pids that carried it
  const auto name_pid = [&](const std::string& comm, int pid) {
    std::vector<int>& v = pids_of[comm];
    if (pid != 0 && std::find(v.begin(), v.end(), pid) == v.end()) v.push_back(pid);
  };
  std::int64_t last_us = 0;
  long lines = 0, switches = 0, wakeups = 0, migrations = 0;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::smatch m;
    ASSERT_TRUE(std::regex_match(line, m, line_re)) << line;
    ++lines;
    const int head_pid = std::stoi(m[2].str());
    const int cpu = std::stoi(m[3].str());
    const std::int64_t us = std::stoll(m[4].str()) * 1000000 + std::stoll(m[5].str());
    const std::string event = m[6].str(), body = m[7].str();
    ASSERT_LT(cpu, cpus) << line;
    EXPECT_GE(us, last_us) << "time went back: " << line;
    last_us = us;
    const bool stopper_line = event == "sched_migrate_task" && head_pid == 100 + cpu;  // migration/N
    if (!stopper_line) {
      EXPECT_EQ(head_pid, current[cpu]) << "the head is not the CPU's current task: " << line;
    }
    std::smatch b;
    if (event == "sched_switch") {
      ASSERT_TRUE(std::regex_match(body, b, switch_re)) << line;
      ++switches;
      const int prev = std::stoi(b[2].str()), next = std::stoi(b[5].str());
      const char prev_state = b[3].str()[0];
      name_pid(b[1].str(), prev);
      name_pid(b[4].str(), next);
      EXPECT_EQ(prev, current[cpu]) << "switched out a task that was not current: " << line;
      EXPECT_NE(prev, next) << line;
      if (prev == 0) {
        idle_us[cpu] += us - idle_since_us[cpu];
      } else {
        close_interval(tasks[prev], us);
        replayed_task& p = tasks[prev];
        p.running_on = -1;
        p.state = prev_state == 'D' ? 'S' : prev_state;  // D and S both wait for a wakeup; R+ reads R
      }
      if (next == 0) {
        idle_since_us[cpu] = us;
        ++idle_intervals;
      } else {
        replayed_task& n = tasks[next];
        EXPECT_EQ(n.running_on, -1) << "pid " << next << " switched in while current on CPU " << n.running_on << ": " << line;
        EXPECT_EQ(n.state, 'R') << "pid " << next << " switched in without being woken (state " << n.state << "): " << line;
        EXPECT_EQ(n.cpu, cpu) << "pid " << next << " switched in away from its last wakeup target or migration: " << line;
        n.running_on = cpu;
        n.since_us = us;
        ++n.switch_ins;
        ++n.intervals;
      }
      current[cpu] = next;
    } else if (event == "sched_waking" || event == "sched_wakeup" || event == "sched_wakeup_new") {
      ASSERT_TRUE(std::regex_match(body, b, wake_re)) << line;
      ++wakeups;
      replayed_task& t = tasks[std::stoi(b[2].str())];
      name_pid(b[1].str(), std::stoi(b[2].str()));
      EXPECT_NE(t.state, 'X') << "woke an exited task: " << line;
      EXPECT_EQ(t.running_on, -1) << "woke a task current on a CPU: " << line;
      if (event == "sched_wakeup_new") {
        EXPECT_EQ(t.state, 'N') << line;
      }
      if (event == "sched_waking") {
        EXPECT_NE(t.state, 'R') << "sched_waking for a runnable task: " << line;
      }
      if (event != "sched_waking") {
        // try_to_wake_up's set_task_cpu writes sched_migrate_task before the wakeup when the
        // task changes CPU: a target other than where it last was needs that line first.
        const int target = std::stoi(b[3].str());
        if (t.cpu >= 0) {
          EXPECT_EQ(target, t.cpu) << "woken onto another CPU without a sched_migrate_task: " << line;
        }
        t.state = 'R';
        t.cpu = target;
      }
    } else if (event == "sched_migrate_task") {
      ASSERT_TRUE(std::regex_match(body, b, migrate_re)) << line;
      ++migrations;
      replayed_task& t = tasks[std::stoi(b[1].str())];
      EXPECT_NE(b[2].str(), b[3].str()) << line;
      // set_task_cpu moves a task that is not running (the stopper's push leaves it first); a
      // wakeup's migration comes before its sched_wakeup, so the task may still be asleep.
      EXPECT_EQ(t.running_on, -1) << line;
      if (t.state == 'R') {
        EXPECT_EQ(t.cpu, std::stoi(b[2].str())) << "moved from a CPU it was not on: " << line;
      }
      t.cpu = std::stoi(b[3].str());
    }
  }
  // Close what is still open at the end of the run.
  const std::int64_t end_us = (r.duration_ns + 500) / 1000;
  for (auto& [cpu, pid] : current) {
    if (pid == 0) {
      idle_us[cpu] += end_us - idle_since_us[cpu];
    } else {
      close_interval(tasks[pid], end_us);
    }
  }
  EXPECT_GT(switches, 20);  // kernbench's files run 150..440 ms: few switches, few wakeups
  EXPECT_GT(wakeups, 20);
  ASSERT_GT(lines, 0);
  // Each interval's two ends round by up to 0.5 µs each: up to 1 µs per interval.
  std::int64_t all_idle_us = 0;
  for (const auto& [cpu, v] : idle_us) all_idle_us += v;
  EXPECT_NEAR(static_cast<double>(all_idle_us), static_cast<double>(r.totals.idle_ns) / 1000.0,
              static_cast<double>(idle_intervals + cpus))
      << r.scenario << " under " << r.policy;
  // The trace names a task by its comm, the name cut to 15 bytes (ASCII names here); tasks that
  // share one (forked children) are compared together.
  std::map<std::string, std::int64_t> reported_ns;
  for (const auto& t : r.tasks) reported_ns[t.name.substr(0, 15)] += t.cpu_ns;
  std::int64_t overhead_us = 0, short_ones = 0;
  int seen = 0;
  for (const auto& [comm, ns] : reported_ns) {
    if (pids_of[comm].empty()) {
      EXPECT_EQ(ns, 0) << comm << " ran but never appears in the trace";
      continue;
    }
    ++seen;
    std::int64_t on_cpu_us = 0, own_overhead_us = 0, intervals = 0, switch_ins = 0;
    for (const int pid : pids_of[comm]) {
      const replayed_task& rt = tasks[pid];
      on_cpu_us += rt.on_cpu_us;
      own_overhead_us += rt.overhead_us;
      intervals += rt.intervals;
      switch_ins += rt.switch_ins;
      short_ones += rt.short_ones;
    }
    EXPECT_NEAR(static_cast<double>(on_cpu_us - own_overhead_us), static_cast<double>(ns) / 1000.0,
                static_cast<double>(intervals + 1))
        << comm << " (" << pids_of[comm].size() << " pids, " << switch_ins << " switch-ins) under " << r.policy;
    overhead_us += own_overhead_us;
  }
  EXPECT_GT(seen, 1);
  // The overhead is cs_cost per switch into a task, exact to the µs but where the interval was
  // shorter than the cost (its length is rounded).
  EXPECT_NEAR(static_cast<double>(overhead_us), static_cast<double>(r.totals.overhead_ns) / 1000.0,
              static_cast<double>(short_ones))
      << r.scenario << " under " << r.policy;
}

/// The default machine (2 µs per switch, cache refill on) with `cpus` CPUs, tracing into `tw`.
run_config traced(trace_writer& tw, int cpus, std::int64_t duration_ns) {
  run_config c;
  c.host_timing = false;
  c.cpus = cpus;
  c.duration_ns = duration_ns;
  c.trace = &tw;
  return c;
}

class TraceReplay : public ::testing::TestWithParam<const char*> {
 protected:
  policy_entry entry() const {
    const std::string p = GetParam();
    if (p == "cfs") return schedcore_test::cfs_entry();
    if (p == "eevdf") return schedcore_test::eevdf_entry();
    if (p == "o1") return schedcore_test::o1_entry();
    if (p == "sd") return schedcore_test::sd_entry();
    if (p == "cfs_dl") return schedcore_test::cfs_dl_entry();
    return schedcore_test::ref_entry();
  }
};

// kernbench's sixteen compile jobs on 3 CPUs (on its 4 they stay put): sleeping 3 ms between
// files, balanced and migrated.
TEST_P(TraceReplay, KernbenchOnThreeCpus) {
  trace_writer tw;
  const run_config c = traced(tw, 3, msec(1500));
  const run_result r = entry().run(kernbench_4cpu(), c, {});
  replay_and_check(tw.text(), r, 3, c.machine.cs_cost_ns);
}

// massive_intr: seven processes of "work 8 ms, sleep 1 ms" on 3 CPUs, woken where they slept or
// elsewhere.
TEST_P(TraceReplay, MassiveIntrOnThreeCpus) {
  trace_writer tw;
  const run_config c = traced(tw, 3, msec(1500));
  const run_result r = entry().run(massive_intr(3, 7, 0), c, {});
  EXPECT_GT(r.totals.migrations, 0u) << "the run must move tasks for the replay to check migrations";
  replay_and_check(tw.text(), r, 3, c.machine.cs_cost_ns);
}

// games-renice on two CPUs: X, a game, a typist and a compile, waking each other through pipes.
TEST_P(TraceReplay, GamesReniceOnTwoCpus) {
  trace_writer tw;
  const run_config c = traced(tw, 2, msec(1500));
  const run_result r = entry().run(games_renice(-10), c, {});
  replay_and_check(tw.text(), r, 2, c.machine.cs_cost_ns);
}

// The task programs that move tasks in other ways, on 2 CPUs: a priority-inheritance mutex
// shared by a SCHED_FIFO task and two normal ones (which yield), a parent forking children that
// exit, a task renicing itself, and one changing its affinity back and forth (the migration
// stopper moves it off a CPU it may no longer use).
workload mixed_programs() {
  using schedcore_test::fifo;
  workload w;
  w.name = "mixed-programs";
  w.cpus = 2;
  w.duration = msec(1000);
  w.priority_inheritance = true;
  task_spec rt = scen::task("locker-rt", 0, {ev::sleep(msec(3)), ev::on(event_kind::lock, "m"), ev::run(usec(200)),
                                             ev::on(event_kind::unlock, "m")});
  rt.params = fifo(50);
  w.tasks.push_back(rt);
  for (const char* name : {"locker-a", "locker-b"})
    w.tasks.push_back(scen::task(name, 0, {ev::on(event_kind::lock, "m"), ev::run(msec(1)), ev::on(event_kind::unlock, "m"),
                                           ev::run(usec(500)), ev::simple(event_kind::yield), ev::sleep(msec(1))}));
  w.tasks.push_back(scen::task("parent", 0, {ev::on(event_kind::fork, "child"), ev::run(msec(2)), ev::sleep(msec(2))}));
  task_spec child = scen::task("child", 0, {ev::run(usec(300)), ev::simple(event_kind::exit)});
  child.instances = 0;
  w.tasks.push_back(child);
  w.tasks.push_back(scen::task("renicer", 0, {ev::run(msec(1)), ev::set_nice(5), ev::run(msec(1)), ev::set_nice(-5),
                                              ev::sleep(usec(500))}));
  w.tasks.push_back(scen::task("pinner", 0, {ev::set_affinity({1}), ev::run(msec(1)), ev::set_affinity({0}),
                                             ev::run(msec(1))}));
  w.tasks.push_back(scen::task("hog", 0, {ev::run(msec(100))}));
  return w;
}

TEST_P(TraceReplay, MixedProgramsOnTwoCpus) {
  trace_writer tw;
  const run_config c = traced(tw, 2, msec(1000));
  const run_result r = entry().run(mixed_programs(), c, {});
  EXPECT_GT(r.totals.affinity_moves, 0u) << "the stopper's line must be in the trace for the replay to check it";
  EXPECT_NE(tw.text().find("sched_pi_setprio: "), std::string::npos) << "no priority was lent";
  replay_and_check(tw.text(), r, 2, c.machine.cs_cost_ns);
}

INSTANTIATE_TEST_SUITE_P(Policies, TraceReplay, ::testing::Values("ref", "cfs", "eevdf", "o1", "sd", "cfs_dl"),
                         [](const ::testing::TestParamInfo<const char*>& i) { return std::string(i.param); });

}  // namespace
