// schedsim with performance domains (machine_model::perf_domains): frequency-scaled work,
// schedutil's choice of state, the rate limit, RT at f_max, and exact energy accounting, each
// against an oracle from the definitions (energy = power x time; a CPU at f does f / f_max of
// its work per unit of time; schedutil asks for 1.25 x the frequency-invariant utilisation);
// a model whose frequency cannot change changes no schedule; refused models; utilisation
// clamps (boosts and caps on the frequency, placement and misfit; neutral clamps change nothing);
// the RT and deadline classes' terms (the RT class's util_avg, the deadline class's active
// utilisation held to the 0-lag time, reservations charged in the biggest CPU's work).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sim_entries.hpp"
#include "sim_results.hpp"
#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/edf.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "schedcore/policy/rt.hpp"
#include "schedcore/sim/energy_file.hpp"
#include "schedcore/sim/engine.hpp"
#include "schedcore/sim/registry.hpp"
#include "schedcore/sim/report.hpp"
#include "schedcore/sim/rtapp.hpp"
#include "schedcore/sim/scenarios.hpp"
#include "schedcore/sim/trace.hpp"

namespace {

using namespace schedcore;
using namespace schedcore::sim;
using schedcore_test::expect_conserved;
using schedcore_test::exact_machine;
using schedcore_test::find;

std::vector<policy_entry> fair_entries() { return {schedcore_test::eevdf_entry(), schedcore_test::cfs_entry()}; }

perf_domain_model domain(int cpus, std::uint32_t capacity, std::vector<std::pair<std::uint32_t, std::uint32_t>> states,
                         std::uint32_t idle_uw = 0) {
  perf_domain_model d;
  d.cpus = cpus;
  d.capacity = capacity;
  d.states = std::move(states);
  d.idle_uw = idle_uw;
  return d;
}

run_config machine(std::vector<perf_domain_model> domains, std::int64_t rate_limit_ns = msec(2)) {
  run_config c = exact_machine();
  int cpus = 0;
  for (const auto& d : domains) cpus += d.cpus;
  c.cpus = cpus;
  c.machine.perf_domains = std::move(domains);
  c.machine.dvfs_rate_limit_ns = rate_limit_ns;
  c.machine.util_est = 0;  // util_avg alone: the oracles below are PELT's (util_est has its own tests)
  return c;
}

std::int64_t time_at(const domain_result& d, std::uint32_t khz) {
  for (const auto& [f, ns] : d.time_in_state)
    if (f == khz) return ns;
  ADD_FAILURE() << "no state " << khz;
  return 0;
}

// Every cpu_frequency line of a trace: (seconds, kHz), in order.
std::vector<std::pair<double, unsigned>> frequency_changes(const std::string& text) {
  std::vector<std::pair<double, unsigned>> out;
  std::size_t line = 0;
  while (line < text.size()) {
    std::size_t end = text.find('\n', line);
    if (end == std::string::npos) end = text.size();
    const std::string l = text.substr(line, end - line);
    const auto at = l.find(": cpu_frequency: state=");
    if (at != std::string::npos) {
      const auto space = l.rfind(' ', at - 1);
      out.emplace_back(std::stod(l.substr(space + 1, at - space - 1)),
                       static_cast<unsigned>(std::stoul(l.substr(at + 23))));
    }
    line = end + 1;
  }
  return out;
}

// Five states at 20 % steps of 1 GHz; power grows faster than frequency (every state efficient).
std::vector<std::pair<std::uint32_t, std::uint32_t>> five_states() {
  return {{200000, 20000}, {400000, 50000}, {600000, 100000}, {800000, 180000}, {1000000, 300000}};
}

// Energy is power x time, exactly: with one state per domain (no frequency to choose), each
// domain's energy is its busy power times its CPUs' busy time plus its idle power times their
// idle time (no switch cost here, so busy time is the CPU time of the tasks pinned there), to
// the nanojoule (each CPU floors once), and every domain spends the whole window in its state.
TEST(SimEnergy, EnergyIsPowerTimesBusyAndIdleTime) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "mixed";
    w.duration = sec(3);
    task_spec hog = scen::task("hog", 0, {ev::run(msec(100))});
    hog.cpus = {2};
    task_spec blinker = scen::task("blinker", 0, {ev::run(msec(3)), ev::sleep(msec(7))});
    blinker.cpus = {0, 1};
    task_spec rare = scen::task("rare", 0, {ev::run(msec(1)), ev::sleep(msec(50))});
    rare.cpus = {0, 1};
    w.tasks = {hog, blinker, rare};
    const run_result r =
        e.run(w, machine({domain(2, 1024, {{1000000, 700000}}, 30000), domain(1, 512, {{600000, 90000}}, 5000)}), {});
    expect_conserved(r);
    ASSERT_EQ(r.domains.size(), 2u);
    const std::uint64_t T = static_cast<std::uint64_t>(r.duration_ns);
    const std::uint64_t busy0 = static_cast<std::uint64_t>(find(r, "blinker").cpu_ns + find(r, "rare").cpu_ns);
    const std::uint64_t busy1 = static_cast<std::uint64_t>(find(r, "hog").cpu_ns);
    EXPECT_EQ(busy1, T) << e.name;
    const std::uint64_t fj0 = 700000 * busy0 + 30000 * (2 * T - busy0), fj1 = 90000 * busy1 + 5000 * (T - busy1);
    EXPECT_LE(r.domains[0].energy_nj, fj0 / 1000000) << e.name;
    EXPECT_GE(r.domains[0].energy_nj + 1, fj0 / 1000000) << e.name;  // two CPUs, two floors
    EXPECT_EQ(r.domains[1].energy_nj, fj1 / 1000000) << e.name;
    EXPECT_EQ(time_at(r.domains[0], 1000000), r.duration_ns);
    EXPECT_EQ(time_at(r.domains[1], 600000), r.duration_ns);
    EXPECT_EQ(r.domains[0].freq_changes, 0u);
  }
}

// Exactly, on one CPU: a single-state domain's energy is p_busy x busy + p_idle x idle (fJ to nJ).
TEST(SimEnergy, OneCpuEnergyIsExact) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "one";
    w.duration = msec(1234);
    w.tasks = {scen::task("blinker", 0, {ev::run(usec(3333)), ev::sleep(usec(7777))})};
    const run_result r = e.run(w, machine({domain(1, 1024, {{1500000, 123457}}, 4321)}), {});
    expect_conserved(r);
    const std::uint64_t busy = static_cast<std::uint64_t>(r.duration_ns - r.totals.idle_ns);
    const std::uint64_t idle = static_cast<std::uint64_t>(r.totals.idle_ns);
    const std::uint64_t fj_busy = 123457ull * busy, fj_idle = 4321ull * idle;
    // Charged in pieces with an fJ remainder carried: the total is floor(sum / 1e6) exactly.
    EXPECT_EQ(r.domains[0].energy_nj, (fj_busy + fj_idle) / 1000000) << e.name;
  }
}

// A CPU at frequency f does capacity x f / f_max of a 1024 CPU's work per unit of time, that
// speed floored to 1/1024 as the kernel's frequency scale is (arch_scale_freq_capacity): a
// light periodic task (3 ms of work every 20 ms: util ~154, asking for ~192 / 1024 of f_max)
// runs at the lowest state, 200 MHz of 1 GHz, speed 204 / 1024, where each period's 3 ms of
// work takes ceil(3 ms x 1024 / 204) of CPU time, exactly.
TEST(SimEnergy, WorkStretchesByTheTopFrequencyOverTheFrequency) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "light";
    w.duration = sec(4);
    w.tasks = {scen::task("periodic", 0, {ev::run(msec(3)), ev::timer("t", msec(20), true)})};
    run_config c = machine({domain(1, 1024, five_states())});
    c.warmup_ns = sec(1);  // the start: the initial state is the top one, until util settles
    const run_result r = e.run(w, c, {});
    expect_conserved(r);
    const domain_result& d = r.domains[0];
    EXPECT_EQ(time_at(d, 200000), r.duration_ns) << e.name << ": the whole window at the lowest state";
    // 150 periods in the 3 s window, each 3 ms of work at speed 204: 15.058824 ms.
    const std::int64_t per_period = (msec(3) * 1024 + 203) / 204;
    EXPECT_EQ(per_period, 15058824);
    EXPECT_EQ(find(r, "periodic").cpu_ns, 150 * per_period) << e.name;
    // The work reported is CPU time x speed / 1024: the 3 ms asked for in each period plus the
    // part of a ns the rounded-up wall time adds (0.09 ns per period).
    EXPECT_EQ(d.work_ns, 150 * per_period * 204 / 1024) << e.name;
    EXPECT_NEAR(static_cast<double>(d.work_ns), static_cast<double>(150 * msec(3)), 150.0) << e.name;
    // Energy: 20 mW for that CPU time.
    EXPECT_EQ(d.energy_nj, 20000ull * static_cast<std::uint64_t>(150 * per_period) / 1000000) << e.name;
  }
}

// A new task's first util is bounded by what its queue already uses
// (post_init_entity_util_avg: cap = (cpu_scale - cfs_rq util_avg) / 2): three hogs started
// together on one idle CPU begin at 512, 256 and 128, whether in the root queue or in a group.
// Read from the trace's util counters at each one's first tick on the CPU. (Before, a task in the root started at 512 whatever its CPU held.)
TEST(SimEnergy, TasksStartedTogetherOnACpuStartAtHalfOfWhatIsLeft) {
  workload w;
  w.name = "forks";
  w.duration = msec(40);
  for (const char* name : {"a", "b", "c"}) {
    task_spec t = scen::task(name, 0, {ev::run(sec(1))});
    t.cpus = {0};
    w.tasks.push_back(t);
  }
  trace_writer trace;
  run_config c = machine({domain(1, 1024, {{1000000, 300000}})});
  c.trace = &trace;
  (void)schedcore_test::cfs_entry().run(w, c, {});
  std::map<int, int> first;  // pid -> its first util_avg sample
  std::istringstream lines(trace.text());
  for (std::string l; std::getline(lines, l);) {
    const std::size_t at = l.find("tracing_mark_write: C|");
    if (at == std::string::npos || l.find("|util_avg|") == std::string::npos) continue;
    const int pid = std::stoi(l.substr(at + 22));
    const int util = std::stoi(l.substr(l.rfind('|') + 1));
    first.emplace(pid, util);
  }
  ASSERT_EQ(first.size(), 3u) << trace.text().substr(0, 2000);
  // The order they first run in is the policy's; each sample is its start value, decayed by
  // its wait (y^8 = 0.84 for 8 ms) and grown by its 1 ms of running: 446, 256, 141 here.
  EXPECT_GE(first[1000], 400);
  EXPECT_LE(first[1000], 560);
  EXPECT_GE(first[1001], 230);
  EXPECT_LE(first[1001], 300) << "half of the 512 the first task leaves";
  EXPECT_GE(first[1002], 110);
  EXPECT_LE(first[1002], 170) << "half of the 256 the first two leave";
}

// The I/O-wait boost stays within the CPU's clamps (sugov_iowait_apply with
// uclamp_rq_util_with, 5.18+, d37aee9018e6): a task capped at util_max 200, pinned to CPU 0,
// doing 200 us of work per 500 us of I/O wait, beside a 3 ms / 10 ms task on CPU 1 of the same
// domain, leaves the domain where plain sleeps leave it (400 / 600 MHz, no state above); without
// the cap its I/O waits boost the domain to the top. (Before, the boost escaped the cap: 800 and
// 1000 MHz, 1.9x the energy.)
TEST(SimEnergy, TheIowaitBoostStaysWithinTheCpusClamp) {
  const auto run = [](bool io, std::int32_t util_max) {
    workload w;
    w.name = "io";
    w.duration = sec(2);
    task_spec t = scen::task("io", 0, {ev::run(usec(200)), io ? ev::io_sleep(usec(500)) : ev::sleep(usec(500))});
    t.util_max = util_max;
    t.cpus = {0};
    task_spec o = scen::task("other", 0, {ev::run(msec(3)), ev::timer("t", msec(10), true)});
    o.cpus = {1};
    w.tasks = {t, o};
    run_config c = machine({domain(2, 1024, five_states())});
    c.machine.iowait_boost = true;
    c.warmup_ns = msec(200);
    return schedcore_test::cfs_entry().run(w, c, {});
  };
  const auto top_share = [](const run_result& r) {  // time at 800 MHz and above
    std::int64_t ns = 0;
    for (const auto& [f, t] : r.domains[0].time_in_state)
      if (f >= 800000) ns += t;
    return static_cast<double>(ns) / static_cast<double>(r.duration_ns);
  };
  const run_result plain = run(false, 200), capped = run(true, 200), free = run(true, 1024);
  EXPECT_EQ(top_share(plain), 0.0);
  EXPECT_EQ(top_share(capped), 0.0) << "the boost went past util_max 200";
  EXPECT_NEAR(static_cast<double>(capped.domains[0].energy_nj), static_cast<double>(plain.domains[0].energy_nj),
              0.02 * static_cast<double>(plain.domains[0].energy_nj));
  EXPECT_GT(top_share(free), 0.5) << "without the cap the I/O waits boost the domain";
}

// Work is conserved across frequency changes: a task that sleeps 300 ms (the domain drops to
// its lowest state when it wakes) and then runs 200 ms of work while schedutil steps the
// frequency up exits when the speed integrated over its run, read back from the trace's
// frequency changes, reaches 200 ms x 1024 (within the trace's microsecond timestamps).
TEST(SimEnergy, WorkIsConservedAcrossFrequencyChanges) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "ramp";
    w.duration = sec(2);
    task_spec t = scen::task("worker", 0, {ev::sleep(msec(300)), ev::run(msec(200))}, false);
    t.phases[0].loop = 1;
    t.loop = 1;
    w.tasks = {t};
    trace_writer trace;
    run_config c = machine({domain(1, 1024, five_states())});
    c.trace = &trace;
    const run_result r = e.run(w, c, {});
    const std::int64_t exit_ns = find(r, "worker").exit_ns;
    ASSERT_GT(exit_ns, msec(500)) << e.name;
    const auto changes = frequency_changes(trace.text());
    ASSERT_GE(changes.size(), 3u) << e.name << ": the run should step through several states";
    double work = 0, from = 0.3;
    unsigned khz = 0;
    std::size_t steps = 0;
    for (const auto& [at, f] : changes) {
      if (at > from && khz != 0 && at < static_cast<double>(exit_ns) / 1e9) {
        work += (at - from) * std::floor(1024.0 * khz / 1e6);
        from = at;
        ++steps;
      }
      if (at <= 0.3) khz = f;  // the state in force at the wakeup
      else if (at < static_cast<double>(exit_ns) / 1e9) khz = f;
    }
    work += (static_cast<double>(exit_ns) / 1e9 - from) * std::floor(1024.0 * khz / 1e6);
    EXPECT_GE(steps, 2u) << e.name;
    EXPECT_NEAR(work, 0.2 * 1024, 1024 * 2e-6 * static_cast<double>(steps + 1)) << e.name;
    EXPECT_LT(exit_ns, msec(300) + msec(200) * 5) << e.name;
    EXPECT_NEAR(static_cast<double>(r.domains[0].work_ns), static_cast<double>(msec(200)), 1.0) << e.name;
    // Each line's head is the task running on that CPU (trace.hpp): the changes while the
    // worker runs are on its line, the one at time 0 on the idle task's (before, every
    // cpu_frequency line claimed <idle>-0).
    std::istringstream lines(trace.text());
    std::size_t on_worker = 0, on_idle = 0;
    for (std::string l; std::getline(lines, l);) {
      if (l.find(": cpu_frequency: ") == std::string::npos) continue;
      const std::string head = l.substr(l.find_first_not_of(' '));
      if (head.rfind("worker-1000 ", 0) == 0) ++on_worker;
      else if (head.rfind("<idle>-0 ", 0) == 0) ++on_idle;
      else ADD_FAILURE() << e.name << ": " << l;
    }
    EXPECT_GE(on_worker, 2u) << e.name;
    EXPECT_GE(on_idle, 1u) << e.name;
  }
}

// schedutil's state follows 1.25 x the frequency-invariant utilisation. A task with 30 % of a
// 1 GHz CPU's work per period (util ~307) needs 384 / 1024: the 40 % state (capacity 409),
// where the work takes 75 % of each period. Were util measured in time (not invariant), it
// would read 768 and ask for f_max.
TEST(SimEnergy, SchedutilPicksTheStateCoveringOneAndAQuarterTimesTheUtilisation) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "thirty";
    w.duration = sec(4);
    w.tasks = {scen::task("periodic", 0, {ev::run(msec(3)), ev::timer("t", msec(10), true)})};
    run_config c = machine({domain(1, 1024, five_states())});
    c.warmup_ns = sec(1);
    const run_result r = e.run(w, c, {});
    const domain_result& d = r.domains[0];
    EXPECT_GE(time_at(d, 400000), r.duration_ns * 95 / 100) << e.name;
    const task_result& t = find(r, "periodic");
    EXPECT_NEAR(static_cast<double>(t.cpu_ns) / static_cast<double>(r.duration_ns), 0.75, 0.03) << e.name;
    EXPECT_EQ(t.slack.overruns, 0u) << e.name;
  }
}

// A CPU-bound task saturates whatever state it runs at; its invariant util climbs past that
// state's capacity / 1.25 and schedutil steps up until f_max, where it stays. From the lowest
// state (an idle start: a sleeper first brings the domain down) it gets there within the
// PELT climb to 820 (= 1024 / 1.25) plus a rate-limit interval per step.
TEST(SimEnergy, AHogDrivesItsDomainToTheTopState) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "hog";
    w.duration = sec(2);
    task_spec hog = scen::task("hog", 0, {ev::run(sec(10))});
    hog.delay = msec(500);
    w.tasks = {scen::task("idler", 0, {ev::run(usec(100)), ev::sleep(msec(100))}), hog};
    trace_writer trace;
    run_config c = machine({domain(1, 1024, five_states())});
    c.trace = &trace;
    const run_result r = e.run(w, c, {});
    const domain_result& d = r.domains[0];
    // The top state: until the idler first brings the domain down, and after the climb.
    EXPECT_GT(time_at(d, 1000000), sec(1)) << e.name;
    EXPECT_LT(time_at(d, 1000000), sec(1) + msec(500)) << e.name;
    EXPECT_GT(time_at(d, 200000), msec(300)) << e.name;  // from the idler's second wakeup to the hog's start
    // The last frequency change: to the top, within the PELT climb from a fork's util (at
    // least 204 here: 32 x log2(1024 / 204) periods) to 820, plus a rate-limit interval for
    // each of the four steps.
    const auto changes = frequency_changes(trace.text());
    ASSERT_FALSE(changes.empty());
    EXPECT_EQ(changes.back().second, 1000000u) << e.name;
    EXPECT_GT(changes.back().first, 0.5) << e.name;
    EXPECT_LT(changes.back().first, 0.5 + 32 * 1.048576e-3 * std::log2(1024.0 / 204.0) + 4 * 0.002) << e.name;
  }
}

// A SCHED_FIFO task (priority 50) running 1 ms every 20 ms for 2 s.
workload rt_periodic() {
  workload w;
  w.name = "rt";
  w.duration = sec(2);
  task_spec rt = scen::task("rt", 0, {ev::run(msec(1)), ev::timer("t", msec(20), true)});
  rt.params.kind = sched_kind::fifo;
  rt.params.rt_priority = 50;
  w.tasks = {rt};
  return w;
}

// A runnable RT task asks for f_max (effective_cpu_util without uclamp): with no rate limit,
// every ns an RT task runs is at the top state, so the busy energy is exactly p_top x its CPU
// time, while a fair task with the same program runs at the lowest state.
TEST(SimEnergy, RealTimeRunsAtTheTopFrequency) {
  for (const policy_entry& e : fair_entries()) {
    const workload w = rt_periodic();
    const run_result r = e.run(w, machine({domain(1, 1024, five_states())}, 0), {});
    const std::uint64_t cpu = static_cast<std::uint64_t>(find(r, "rt").cpu_ns);
    EXPECT_EQ(cpu, static_cast<std::uint64_t>(100 * msec(1))) << e.name;
    EXPECT_EQ(r.domains[0].energy_nj, 300000ull * cpu / 1000000) << e.name;
  }
}

// The rate limit: a domain changes frequency at most once per interval, and with a longer
// interval never more often.
TEST(SimEnergy, TheRateLimitSpacesFrequencyChanges) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "bursty";
    w.duration = sec(2);
    w.tasks = {scen::task("burst", 0, {ev::run(msec(8)), ev::sleep(msec(12))}),
               scen::task("flicker", 0, {ev::run(usec(300)), ev::sleep(usec(2700))})};
    std::uint64_t previous = ~std::uint64_t{0};
    for (const std::int64_t limit : {std::int64_t{0}, msec(2), msec(10), msec(50)}) {
      trace_writer trace;
      run_config c = machine({domain(1, 1024, five_states())}, limit);
      c.trace = &trace;
      const run_result r = e.run(w, c, {});
      const std::uint64_t changes = r.domains[0].freq_changes;
      EXPECT_GT(changes, 0u) << e.name << " limit " << limit;
      EXPECT_LE(changes, previous) << e.name << " limit " << limit;
      if (limit > 0) {
        EXPECT_LE(static_cast<std::int64_t>(changes), r.duration_ns / limit + 1) << e.name;
      }
      // In the trace (one line per CPU at 0, then one per change): changes >= limit apart.
      const auto lines = frequency_changes(trace.text());
      ASSERT_EQ(lines.size(), changes + 1) << e.name;
      for (std::size_t i = 2; i < lines.size(); ++i)
        EXPECT_GE(lines[i].first - lines[i - 1].first, static_cast<double>(limit) / 1e9 - 1e-6) << e.name << " limit " << limit;
      previous = changes;
    }
  }
}

// A model whose frequencies cannot change (one state per domain, at the CPUs' capacities)
// changes no schedule: every task's numbers equal those of the same machine without it.
TEST(SimEnergy, AFixedFrequencyModelChangesNoSchedule) {
  for (const policy_entry& e : fair_entries()) {
    for (const char* name : {"desktop-2007", "kernbench-4cpu"}) {
      std::vector<resolved_scenario> found;
      std::string error;
      ASSERT_TRUE(resolve_scenario(name, found, error)) << error;
      const workload& w = found.front().w;
      run_config plain;
      plain.host_timing = false;
      plain.duration_ns = sec(3);
      run_config dvfs = plain;
      const int cpus = w.cpus;
      dvfs.machine.perf_domains = {domain(cpus, 1024, {{2000000, 1000000}})};
      const run_result a = e.run(w, plain, {}), b = e.run(w, dvfs, {});
      ASSERT_EQ(a.tasks.size(), b.tasks.size());
      for (std::size_t i = 0; i < a.tasks.size(); ++i) {
        EXPECT_EQ(a.tasks[i].cpu_ns, b.tasks[i].cpu_ns) << name << " " << a.tasks[i].name;
        EXPECT_EQ(a.tasks[i].switches, b.tasks[i].switches) << name << " " << a.tasks[i].name;
        EXPECT_EQ(a.tasks[i].latency.max, b.tasks[i].latency.max) << name << " " << a.tasks[i].name;
      }
      EXPECT_EQ(a.totals.context_switches, b.totals.context_switches) << name;
      EXPECT_EQ(a.totals.migrations, b.totals.migrations) << name;
      ASSERT_EQ(b.domains.size(), 1u);
      // 1 W while busy: the energy in nJ is the busy time in ns.
      EXPECT_EQ(b.domains[0].energy_nj,
                static_cast<std::uint64_t>(static_cast<std::int64_t>(b.cpus) * b.duration_ns - b.totals.idle_ns)) << name;
    }
  }
}

// Energy-aware placement. CPU 0 is big (1024) and CPU 1 little (446), each its own domain,
// with the example model's tables. The Energy Model's cost per unit of util at the lowest
// states: little 40 320 µW x 850 / 450 / 446 = 170.8, big 160 367 µW x 1100 / 450 / 1024 =
// 382.8 (computed below with em_pd_energy), so a small task is cheaper on the little CPU.
std::vector<perf_domain_model> big_then_little() {
  return {domain(1, 1024, {{450000, 160367}, {625000, 239328}, {800000, 343440}, {950000, 478640}, {1100000, 642758}}),
          domain(1, 446, {{450000, 40320}, {575000, 58161}, {700000, 79380}, {775000, 97921}, {850000, 119000}})};
}

// Two CPUs, little (446) then big (1024), no frequencies, no switch or refill cost.
run_config little_then_big() {
  run_config c = exact_machine();
  c.cpus = 2;
  c.machine.capacity = std::vector<std::uint32_t>{446, 1024};
  return c;
}

TEST(SimEnergy, EnergyAwarePlacementPutsASmallTaskWhereItCostsLeast) {
  // The oracle: the estimate of each domain with the task's util (~52: 1 ms in 20) added.
  std::vector<em_perf_state> big_states, little_states;
  const std::vector<perf_domain_model> model = big_then_little();
  for (const auto& [khz, uw] : model[0].states) big_states.push_back({khz, uw, 0, false});
  for (const auto& [khz, uw] : model[1].states) little_states.push_back({khz, uw, 0, false});
  em_perf_domain big{}, little{};
  ASSERT_EQ(em_perf_domain_init(big, big_states.data(), 5, 1024), errc::ok);
  ASSERT_EQ(em_perf_domain_init(little, little_states.data(), 5, 446), errc::ok);
  EXPECT_LT(em_pd_energy(little, 52, 52, 446), em_pd_energy(big, 52, 52, 1024));
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "small";
    w.duration = sec(3);
    w.tasks = {scen::task("small", 0, {ev::run(msec(1)), ev::timer("t", msec(20), true)})};
    run_config c = machine(big_then_little());
    c.warmup_ns = sec(1);
    const run_result on = e.run(w, c, {});
    EXPECT_EQ(on.domains[0].energy_nj, 0u) << e.name << ": nothing runs on the big CPU";
    EXPECT_GT(on.domains[1].energy_nj, 0u) << e.name;
    EXPECT_GT(on.totals.eas_wakeups, 90u) << e.name;  // every wakeup in the 2 s window (100)
    c.machine.energy_aware = false;
    const run_result off = e.run(w, c, {});
    EXPECT_GT(off.domains[0].energy_nj, 0u) << e.name << ": without EAS it stays on the big CPU it started on";
    EXPECT_EQ(off.domains[1].energy_nj, 0u) << e.name;
    EXPECT_EQ(off.totals.eas_wakeups, 0u) << e.name;
    EXPECT_LT(on.domains[1].energy_nj, off.domains[0].energy_nj) << e.name;
  }
}

// Two small tasks that wake together both go to the little CPU (each adds little energy
// there), and while nothing is overutilized the balancer leaves them: one waits its turn on
// the little CPU rather than being pulled to the idle big one, the known price of EAS.
TEST(SimEnergy, EnergyAwarePackingIsNotUndoneByTheBalancer) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "pair";
    w.duration = sec(3);
    w.tasks = {scen::task("a", 0, {ev::run(msec(1)), ev::anchored_timer("ta", msec(20), 0)}),
               scen::task("b", 0, {ev::run(msec(1)), ev::anchored_timer("tb", msec(20), 0)})};
    run_config c = machine(big_then_little());
    c.warmup_ns = sec(1);
    const run_result r = e.run(w, c, {});
    EXPECT_EQ(r.domains[0].energy_nj, 0u) << e.name << ": the big CPU stays idle";
    EXPECT_GT(find(r, "a").wait_ns + find(r, "b").wait_ns, 100 * msec(1)) << e.name << ": one waits every period";
    c.machine.energy_aware = false;
    const run_result off = e.run(w, c, {});
    EXPECT_GT(off.domains[0].energy_nj, 0u) << e.name;
  }
}

// util_est: a task that runs 30 ms of work then sleeps 170 ms ends each burst with a util of
// about 1024 (1 - y^(30/1.048576)) / (1 - y^(200/1.048576)) = 481 on the big CPU (PELT
// periods of 1.048576 ms; more than the little CPU's 356), and wakes with that decayed to about
// 14 after 170 ms. Sized by its util_avg, EAS puts it on
// the little CPU at each wakeup (its util then climbs only to about 340 in the 69 ms the burst
// takes there: never a misfit); sized by util_est (the end-of-burst util, remembered), it never
// fits the little CPU and stays big.
TEST(SimEnergy, UtilEstKeepsABurstyTaskOffACpuItOutgrows) {
  const double y = std::pow(0.5, 1.0 / 32), per_ms = 1 / 1.048576;
  const double end = 1024 * (1 - std::pow(y, 30 * per_ms)) / (1 - std::pow(y, 200 * per_ms));
  ASSERT_GT(end, 356.0);
  ASSERT_LT(end * std::pow(y, 170 * per_ms), 20.0);
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "bursty";
    w.duration = sec(4);
    w.tasks = {scen::task("bursty", 0, {ev::run(msec(30)), ev::sleep(msec(170))})};
    run_config c = machine(big_then_little());
    c.warmup_ns = sec(1);
    c.machine.util_est = 1;
    const run_result with = e.run(w, c, {});
    EXPECT_EQ(with.domains[1].energy_nj, 0u) << e.name << ": with util_est it never runs little";
    c.machine.util_est = 0;
    const run_result without = e.run(w, c, {});
    EXPECT_GT(without.domains[1].energy_nj, 0u) << e.name << ": by util_avg it wakes little";
  }
}

// A CPU's util_est is the sum of its queued tasks' EWMAs (_task_util_est), not of max(util_avg,
// EWMA). One CPU, states 200..1000 MHz (capacities 204, 409, 614, 819, 1024), util_est on:
// - b runs 20 ms per 200 ms. Alone, each of its wakeups asks for 600 MHz, so its EWMA e has
//   409 < 1.25 e <= 614: e in (327, 491]; its util after 180 ms asleep is a few units.
// - n, a hog started 6.9 ms before b's wakeup at 1.2469 s, has util u < 560 then (its first
//   util is half the CPU, and 7 ms of running adds little): the estimate the kernel takes is
//   max(u + util_b, e) < 565, so 1.25 x that < 819: 800 MHz at most. Summing max(util_avg,
//   EWMA) per task would give u + e > 827 and ask 1 GHz (the engine did).
TEST(SimEnergy, ACpusEstimateSumsItsQueuedTasksEwmas) {
  const auto run = [](bool with_n) {
    workload w;
    w.name = "est";
    w.duration = msec(1300);
    w.tasks = {scen::task("b", 0, {ev::run(msec(20)), ev::sleep(msec(180))})};
    if (with_n) {
      task_spec n = scen::task("n", 0, {ev::run(sec(10))});
      n.delay = msec(1240);
      w.tasks.push_back(n);
    }
    trace_writer trace;
    run_config c = machine({domain(1, 1024, five_states())});
    c.machine.util_est = 1;
    c.trace = &trace;
    (void)schedcore_test::cfs_entry().run(w, c, {});
    return trace.text();
  };
  // The frequency in force once everything at b's last wakeup before 1.26 s is done, and n's
  // util at its last tick before that wakeup.
  const auto at_wakeup = [](const std::string& text, unsigned& khz, int& n_util) {
    double wake = -1;
    std::istringstream lines(text);
    for (std::string l; std::getline(lines, l);) {
      if (l.empty() || l[0] == '#') continue;  // the header
      const double t = std::stod(l.substr(l.find("] d..2") + 6));
      if (t > 1.26) break;
      if (l.find("sched_wakeup: comm=b ") != std::string::npos) wake = t;
    }
    khz = 0;
    n_util = -1;
    std::istringstream again(text);
    for (std::string l; std::getline(again, l);) {
      if (l.empty() || l[0] == '#') continue;
      const double t = std::stod(l.substr(l.find("] d..2") + 6));
      if (t > wake) break;
      if (const auto at = l.find("cpu_frequency: state="); at != std::string::npos) khz = static_cast<unsigned>(std::stoul(l.substr(at + 21)));
      if (t < wake && l.find("C|1001|util_avg|") != std::string::npos) n_util = std::stoi(l.substr(l.rfind('|') + 1));
    }
    return wake;
  };
  unsigned alone_khz = 0, with_khz = 0;
  int n_util = 0, unused = 0;
  const double alone_wake = at_wakeup(run(false), alone_khz, unused);
  const double with_wake = at_wakeup(run(true), with_khz, n_util);
  EXPECT_NEAR(alone_wake, 1.2469, 0.0005);
  EXPECT_DOUBLE_EQ(with_wake, alone_wake) << "b's wakeups are set by its sleeps";
  EXPECT_EQ(alone_khz, 600000u) << "b's EWMA in (327, 491]";
  ASSERT_GT(n_util, 400);
  ASSERT_LT(n_util, 560);
  EXPECT_EQ(with_khz, 800000u) << "the estimate counted n's util_avg as well as b's EWMA";
}

// EAS's busy time for a candidate CPU is its domain's without the waking task plus the task's
// whole task_util_est (6.0-6.7 compute_energy), not the CPU's max(util_avg, util_est) with the
// task's two parts added to their own sums. They differ on a CPU whose util_avg runs ahead of
// its estimate: a hog started 10 ms ago (util 512 at its start, about 600 now; EWMA 0: it
// never slept). One state per domain, so the estimate is power x busy / capacity and only the busy
// time decides; the big CPU costs twice the little one per unit of util.
// - p runs 2 ms of work every 100 ms on the little CPU (4.6 ms there): its EWMA e, the util
//   at the end of a burst, is about 446 x (1 - y^4.6) / (1 - y^100) = 46; 95 ms asleep leave
//   util_avg a = e y^95 = 6 at its wakeup at 1.0 s.
// - The kernel's deltas: big 2 x e, little e: p stays little. Adding a to the hog's util_avg
//   (the old sum) made the big CPU cost 2 x a < e, and p moved to the hog's CPU.
TEST(SimEnergy, TheBusyTimeAddsTheWakingTasksWholeEstimate) {
  em_perf_state big_state{1000000, 200000, 0, false}, little_state{500000, 43555, 0, false};
  em_perf_domain big{}, little{};
  ASSERT_EQ(em_perf_domain_init(big, &big_state, 1, 1024), errc::ok);
  ASSERT_EQ(em_perf_domain_init(little, &little_state, 1, 446), errc::ok);
  // The decision for every e in [30, 60] and a <= 10 (the hog's util between 560 and 700 adds
  // nothing to either side: one state, a sum).
  for (std::uint32_t e = 30; e <= 60; ++e) {
    const std::uint64_t little_delta = em_pd_energy(little, e, e, 446);
    ASSERT_GT(em_pd_energy(big, 700, 600 + e, 1024) - em_pd_energy(big, 700, 600, 1024), little_delta) << e;
    ASSERT_LT(em_pd_energy(big, 700, 600 + 10, 1024) - em_pd_energy(big, 700, 600, 1024), little_delta) << e;
  }
  for (const policy_entry& pe : fair_entries()) {
    workload w;
    w.name = "busy";
    w.duration = msec(1020);
    task_spec hog = scen::task("hog", 0, {ev::run(sec(10))});
    hog.cpus = {0};
    hog.delay = msec(990);
    w.tasks = {scen::task("p", 0, {ev::run(msec(2)), ev::anchored_timer("p", msec(100), 0)}), hog};
    trace_writer trace;
    run_config c = machine({domain(1, 1024, {{1000000, 200000}}), domain(1, 446, {{500000, 43555}})});
    c.machine.util_est = 1;
    c.trace = &trace;
    (void)pe.run(w, c, {});
    // The CPU p runs on after each wakeup ("[00k]" of each sched_switch to p), and the utils
    // the trace shows at ticks: p's last before 0.95 s (4.4 of its 4.6 ms burst: e is a little
    // more), the hog's at 1.0 s.
    std::map<int, int> before, after;
    int p_util = -1, hog_util = -1;
    std::istringstream lines(trace.text());
    for (std::string l; std::getline(lines, l);) {
      if (l.empty() || l[0] == '#') continue;
      const double t = std::stod(l.substr(l.find("] d..2") + 6));
      if (l.find("C|1000|util_avg|") != std::string::npos && t < 0.95) p_util = std::stoi(l.substr(l.rfind('|') + 1));
      if (l.find("C|1001|util_avg|") != std::string::npos && t <= 1.0) hog_util = std::stoi(l.substr(l.rfind('|') + 1));
      if (l.find("sched_switch:") == std::string::npos || l.find("next_comm=p ") == std::string::npos) continue;
      const int cpu = std::stoi(l.substr(l.find(" [") + 2, 3));
      if (t > 0.45) ++(t < 0.95 ? before : after)[cpu];
    }
    EXPECT_GE(p_util, 30) << pe.name;
    EXPECT_LE(p_util, 55) << pe.name;
    EXPECT_GE(hog_util, 560) << pe.name;
    EXPECT_LE(hog_util, 700) << pe.name;
    EXPECT_EQ(before[1], 5) << pe.name << ": alone, p settles on the little CPU";
    EXPECT_EQ(before[0], 0) << pe.name;
    EXPECT_EQ(after[0], 0) << pe.name << ": its whole estimate costs more on the big CPU";
    EXPECT_EQ(after[1], 1) << pe.name;
  }
}

// A task whose util does not fit the little CPU (10 ms in 20: util ~512 > 356) is never placed
// there by energy, however cheap the little CPU is.
TEST(SimEnergy, EnergyAwarePlacementKeepsABigTaskOnTheBigCpu) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "big";
    w.duration = sec(3);
    w.tasks = {scen::task("big", 0, {ev::run(msec(10)), ev::timer("t", msec(20), true)})};
    run_config c = machine(big_then_little());
    c.warmup_ns = sec(1);
    const run_result r = e.run(w, c, {});
    EXPECT_EQ(r.domains[1].energy_nj, 0u) << e.name;
    EXPECT_EQ(find(r, "big").slack.overruns, 0u) << e.name;
  }
}

// An overutilized machine (CPU hogs: util 1024 fits no CPU) is scheduled exactly as without
// energy awareness: placement by capacity and the load balancer, every decision the same.
TEST(SimEnergy, EnergyAwarenessStandsAsideWhenOverutilized) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "hogs";
    w.duration = sec(2);
    for (int i = 0; i < 5; ++i) w.tasks.push_back(scen::task("hog" + std::to_string(i), 0, {ev::run(msec(30)), ev::sleep(usec(100))}));
    std::vector<perf_domain_model> doms = big_then_little();
    doms[0].cpus = 2;
    doms[1].cpus = 2;
    run_config c = machine(doms);
    c.warmup_ns = msec(500);  // the hogs' util is past every CPU's 80 % by then
    const run_result on = e.run(w, c, {});
    c.machine.energy_aware = false;
    const run_result off = e.run(w, c, {});
    EXPECT_EQ(on.totals.eas_wakeups, 0u) << e.name;
    ASSERT_EQ(on.tasks.size(), off.tasks.size());
    for (std::size_t i = 0; i < on.tasks.size(); ++i) {
      EXPECT_EQ(on.tasks[i].cpu_ns, off.tasks[i].cpu_ns) << e.name << " " << on.tasks[i].name;
      EXPECT_EQ(on.tasks[i].migrations, off.tasks[i].migrations) << e.name << " " << on.tasks[i].name;
    }
  }
}

// Two runs with the same seed give the same bytes, and CPU time is conserved, with DVFS on
// an asymmetric machine (the example file's big.LITTLE).
TEST(SimEnergy, DeterministicAndConservedOnBigLittle) {
  const energy_model_file em = parse_energy_model(R"({ "domains": [
      { "name": "little", "cpus": 2, "capacity": 446, "states": [ { "khz": 450000, "uw": 40320 }, { "khz": 850000, "uw": 119000 } ] },
      { "name": "big", "cpus": 2, "capacity": 1024, "states": [ { "khz": 450000, "uw": 160367 }, { "khz": 1100000, "uw": 642758 } ] } ] })",
                                                  "inline");
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "mix";
    w.duration = sec(3);
    w.tasks = {scen::task("hog", 0, {ev::run(msec(50))}), scen::task("light", 0, {ev::run(msec(2)), ev::sleep(msec(18))}),
               scen::task("mid", 0, {ev::run(msec(6)), ev::sleep(msec(10))})};
    run_config c = machine(em.domains);
    const run_result a = e.run(w, c, {}), b = e.run(w, c, {});
    EXPECT_EQ(to_json(a), to_json(b)) << e.name;
    expect_conserved(a);
    EXPECT_GT(energy_mj(a), 0) << e.name;
    EXPECT_NE(to_json(a).find("\"energy\": { \"total_mj\""), std::string::npos);
  }
}

// Bad models: the engine refuses domains that do not match the machine or hold bad tables,
// and the file reader names the file, line and column of what is wrong.
TEST(SimEnergy, BadModelsAreRefused) {
  const policy_entry e = fair_entries().front();
  workload w;
  w.name = "one";
  w.duration = msec(100);
  w.tasks = {scen::task("t", 0, {ev::run(msec(1)), ev::sleep(msec(1))})};
  auto refused = [&](run_config c, const std::string& says) {
    try {
      (void)e.run(w, c, {});
      ADD_FAILURE() << "accepted; expected: " << says;
    } catch (const workload_error& x) {
      EXPECT_NE(std::string(x.what()).find(says), std::string::npos) << x.what();
    }
  };
  run_config c = machine({domain(2, 1024, five_states())});
  c.cpus = 3;
  refused(c, "hold 2 CPUs for 3 CPUs");
  refused(machine({domain(1, 1024, {{2000, 5}, {1000, 9}})}), "ascend strictly");
  refused(machine({domain(1, 0, five_states())}), "capacity must be in 1..1024");
  refused(machine({domain(1, 1024, {{1000, 0}})}), "non-zero");
  refused(machine({domain(1, 1024, {})}), "1..256 states");
  refused(machine({domain(1, 1024, five_states())}, -1), "rate limit");
  c = machine({domain(1, 512, five_states()), domain(1, 1024, five_states())});
  c.machine.capacity = {1024, 1024};
  refused(c, "disagrees");

  auto file_error = [](const char* text, const std::string& says) {
    try {
      (void)parse_energy_model(text, "em.json");
      ADD_FAILURE() << "accepted; expected: " << says;
    } catch (const energy_model_error& x) {
      EXPECT_NE(std::string(x.what()).find(says), std::string::npos) << x.what() << " / expected: " << says;
    }
  };
  file_error("{ \"domains\": [ ] }", "em.json:1:14: 'domains' must be a non-empty array");
  file_error("{ \"domains\": [ { \"cpus\": 1, \"capacity\": 1024, \"states\": [ { \"khz\": 5, \"uw\": 1 } ], \"colour\": 3 } ] }",
             "em.json:1:84: unknown key 'colour' in a performance domain");
  file_error("{\n \"domains\": [ { \"cpus\": 1, \"capacity\": 1024,\n \"states\": [ { \"khz\": 5, \"uw\": 1 }, { \"khz\": 5, \"uw\": 2 } ] } ] }",
             "em.json:3:46: state frequencies must ascend strictly");
  file_error("{ \"domains\": [ { \"cpus\": 1, \"capacity\": 1025, \"states\": [ { \"khz\": 5, \"uw\": 1 } ] } ] }",
             "em.json:1:41: 'capacity' must be an integer in 1..1024, not 1025");
  file_error("{ \"domains\": [ { \"cpus\": 1.5, \"capacity\": 1024, \"states\": [ { \"khz\": 5, \"uw\": 1 } ] } ] }",
             "'cpus' must be an integer in 1..64, not 1.5");
  file_error("{ \"domains\": [ { \"cpus\": 1, \"capacity\": 1024 } ] }", "missing 'states'");
  file_error("{ \"rate_limit_us\": -1, \"domains\": [ ] }", "'rate_limit_us' must be an integer in 0..1000000, not -1");
  file_error("{ \"domains\": [ { \"cpus\": 40, \"capacity\": 1, \"states\": [ { \"khz\": 5, \"uw\": 1 } ] }, "
             "{ \"cpus\": 40, \"capacity\": 1, \"states\": [ { \"khz\": 5, \"uw\": 1 } ] } ] }",
             "the domains hold 80 CPUs, more than 64");
  file_error("{ \"domains\": [ { \"cpus\": 1, \"cpus\": 2, \"capacity\": 1, \"states\": [ { \"khz\": 5, \"uw\": 1 } ] } ] }",
             "key 'cpus' repeated");
  file_error("{ \"domains\": [ ", "em.json:1:");
  // Tables and the JSON tell domains apart by name: a name given twice is refused at the second.
  file_error("{ \"domains\": [ { \"name\": \"d\", \"cpus\": 1, \"capacity\": 512, \"states\": [ { \"khz\": 5, \"uw\": 1 } ] }, "
             "{ \"name\": \"d\", \"cpus\": 1, \"capacity\": 1024, \"states\": [ { \"khz\": 5, \"uw\": 1 } ] } ] }",
             "em.json:1:108: 'name': domain \"d\" given twice");
}

// util_est of a task alone at a low frequency: 0.2 ms of work every 0.5 ms of sleep settles at
// the 40 % state (util ~205: 1.25 x 205 fits 409), and its estimate follows its util down from
// the fork's value. Its runnable_avg counts wall time (512 while it runs half the time at 40 %
// speed) where util counts work; compared unscaled, util_est's "it waited" test skipped every
// sample, the estimate stayed at the fork's ~512, and each wakeup took the domain to 800 MHz
// (found in development; the engine scales runnable by the CPU's speed, as clock_pelt does).
TEST(SimEnergy, UtilEstFollowsATaskAloneAtALowFrequency) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "alone";
    w.duration = sec(1);
    w.tasks = {scen::task("t", 0, {ev::run(usec(200)), ev::sleep(usec(500))})};
    run_config c = machine({domain(1, 1024, five_states())});
    c.warmup_ns = msec(100);
    c.machine.util_est = 1;
    const run_result r = e.run(w, c, {});
    EXPECT_EQ(time_at(r.domains[0], 400000), r.duration_ns) << e.name;
    EXPECT_EQ(r.domains[0].freq_changes, 0u) << e.name;
  }
}

// schedutil's I/O-wait boost: the same task with I/O waits starts or doubles its CPU's boost at
// each wakeup (each sooner than a tick after the last update), once per frequency evaluation.
// An evaluation without a new wakeup halves it: the one at the task's sleep, when the frequency
// did not just change (the rate limit counts from the last change, as in the kernel). So the
// domain climbs to the top within a few wakeups and then moves between the top (boost 1024,
// 1.25 x 1024) and 800 MHz (halved to 512: 1.25 x 512 = 640 <= 819), never below. Without the
// boost, or with the same waits interruptible (not I/O), it stays at the 40 % state.
TEST(SimEnergy, IoWaitBoostClimbsToTheTopForAnIoBoundTask) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "io";
    w.duration = sec(1);
    w.tasks = {scen::task("io", 0, {ev::run(usec(200)), ev::io_sleep(usec(500))})};
    run_config c = machine({domain(1, 1024, five_states())});
    c.warmup_ns = msec(100);
    const run_result boosted = e.run(w, c, {});
    const std::int64_t window = boosted.duration_ns;
    EXPECT_EQ(time_at(boosted.domains[0], 1000000) + time_at(boosted.domains[0], 800000), window) << e.name;
    EXPECT_GE(time_at(boosted.domains[0], 1000000), window / 3) << e.name;
    c.machine.iowait_boost = false;
    const run_result off = e.run(w, c, {});
    EXPECT_LE(time_at(off.domains[0], 1000000), window / 100) << e.name;
    EXPECT_GE(time_at(off.domains[0], 400000), window * 9 / 10) << e.name;
    c.machine.iowait_boost = true;
    w.tasks = {scen::task("io", 0, {ev::run(usec(200)), ev::sleep(usec(500))})};
    const run_result plain = e.run(w, c, {});
    EXPECT_EQ(to_json(plain), to_json(e.run(w, [&] { run_config o = c; o.machine.iowait_boost = false; return o; }(), {})))
        << e.name << ": no I/O wait, no boost";
    EXPECT_LE(time_at(plain.domains[0], 1000000), window / 100) << e.name;
  }
}

// ---------------------------------------------------------------- utilisation clamps
// The oracles: schedutil's state for a clamped utilisation (schedutil_state of the clamp),
// energy = the state's power x busy time, util_fits_cpu's rules for placement and misfit, and
// neutral clamps (min 0, max 1024 everywhere) changing nothing at all.

// A boost raises the frequency to the one the boost asks for: a 30 %-duty task (util ~307,
// the 40 % state unclamped) with util_min 600 asks for 1.25 x 600 = 750 of 1024: the 80 %
// state (capacity 819), where its 3 ms of work take 3.75 ms. With util_min 820 (1.25 x 820 >
// 1024) the top state, 3 ms.
TEST(SimUclamp, ABoostRaisesTheFrequencyToWhatTheBoostAsksFor) {
  std::vector<em_perf_state> states;
  for (const auto& [khz, uw] : five_states()) states.push_back({khz, uw, 0, false});
  em_perf_domain pd{};
  ASSERT_EQ(em_perf_domain_init(pd, states.data(), 5, 1024), errc::ok);
  ASSERT_EQ(pd.states[schedutil_state(pd, 600)].frequency_khz, 800000u);
  ASSERT_EQ(pd.states[schedutil_state(pd, 820)].frequency_khz, 1000000u);
  for (const policy_entry& e : fair_entries()) {
    for (const auto& [boost, khz, duty] : {std::tuple<int, std::uint32_t, double>{600, 800000u, 0.375},
                                           std::tuple<int, std::uint32_t, double>{820, 1000000u, 0.3}}) {
      workload w;
      w.name = "boosted";
      w.duration = sec(3);
      task_spec t = scen::task("periodic", 0, {ev::run(msec(3)), ev::timer("t", msec(10), true)});
      t.util_min = boost;
      w.tasks = {t};
      run_config c = machine({domain(1, 1024, five_states())}, 0);
      c.warmup_ns = sec(1);
      const run_result r = e.run(w, c, {});
      const task_result& tr = find(r, "periodic");
      EXPECT_NEAR(static_cast<double>(tr.cpu_ns) / static_cast<double>(r.duration_ns), duty, 0.001) << e.name << " " << boost;
      // Busy time is all at the boosted state: energy = its power x the CPU time (idle power 0).
      const std::uint64_t uw = five_states()[khz / 200000 - 1].second;
      EXPECT_NEAR(static_cast<double>(r.domains[0].energy_nj), static_cast<double>(uw) * static_cast<double>(tr.cpu_ns) / 1e6, 2.0)
          << e.name << " " << boost;
    }
  }
}

// A cap holds a CPU hog's frequency down: util_max 300 asks for 375 of 1024, the 40 % state
// (capacity 409), whatever the hog's util. A set_uclamp event that lifts the cap once the
// capped work is done lets the domain climb to the top.
TEST(SimUclamp, ACapHoldsAHogsFrequencyAndLiftingItReleasesIt) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "capped";
    w.duration = sec(4);
    task_spec hog = scen::task("hog", 0, {ev::run(sec(2))});
    hog.phases[0].events = {ev::set_uclamp(-2, 300), ev::run(sec(2)), ev::set_uclamp(-2, -1), ev::run(sec(100))};
    hog.phases[0].loop = 1;
    w.tasks = {hog};
    trace_writer trace;
    run_config c = machine({domain(1, 1024, five_states())}, 0);
    c.trace = &trace;
    const run_result r = e.run(w, c, {});
    const auto changes = frequency_changes(trace.text());
    ASSERT_FALSE(changes.empty()) << e.name;
    // 2 s of a 1024 CPU's work at 40 % speed take 5 s: the cap holds for the whole run.
    EXPECT_EQ(changes.back().second, 400000u) << e.name;
    EXPECT_GE(time_at(r.domains[0], 400000), r.duration_ns - msec(5)) << e.name;
    // With 0.8 s of capped work the cap is lifted at 2 s and the hog climbs to the top.
    hog.phases[0].events[1] = ev::run(msec(800));
    w.tasks = {hog};
    trace_writer trace2;
    c.trace = &trace2;
    const run_result lifted = e.run(w, c, {});
    const auto changes2 = frequency_changes(trace2.text());
    ASSERT_FALSE(changes2.empty()) << e.name;
    EXPECT_EQ(changes2.back().second, 1000000u) << e.name;
    // Capped until the work is done: 0.8 s of work at speed floor(1024 x 400 / 1000) = 409.
    EXPECT_NEAR(static_cast<double>(time_at(lifted.domains[0], 400000)), 8e8 * 1024 / 409, 1e3) << e.name;
  }
}

// RT tasks reach the top through their default boost (1024); the sysctl's default lowered to
// 400 asks for 1.25 x 400 = 500 of 1024: the 60 % state (capacity 614), at its power.
TEST(SimUclamp, RtDefaultBoostSetsTheFrequencyOfRtTasks) {
  for (const policy_entry& e : fair_entries()) {
    const workload w = rt_periodic();
    for (const auto& [boost, uw] : {std::pair<std::uint32_t, std::uint64_t>{1024, 300000}, {400, 100000}}) {
      run_config c = machine({domain(1, 1024, five_states())}, 0);
      c.machine.uclamp_rt_min_default = boost;
      const run_result r = e.run(w, c, {});
      const std::uint64_t cpu = static_cast<std::uint64_t>(find(r, "rt").cpu_ns);
      EXPECT_NEAR(static_cast<double>(r.domains[0].energy_nj), static_cast<double>(uw * cpu) / 1e6, 1.0) << e.name << " " << boost;
    }
  }
}

// Placement with energy awareness: a small task (util ~52) boosted to 700 cannot have its boost
// met by the little CPU (util_fits_cpu: -1) and goes big, at the 950 MHz state its boost asks
// for (1.25 x 700 = 875 of 1024: 950 of 1100 MHz gives capacity 884); a task of util ~512 that
// does not fit the little CPU goes there when capped at 300 (a cap within the little CPU's
// capacity fits), and pays in overruns, its work taking longer than its period there.
TEST(SimUclamp, EnergyAwarePlacementHonoursBoostsAndCaps) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "boost";
    w.duration = sec(3);
    task_spec small = scen::task("small", 0, {ev::run(msec(1)), ev::timer("t", msec(20), true)});
    small.util_min = 700;
    w.tasks = {small};
    run_config c = machine(big_then_little(), 0);
    c.warmup_ns = sec(1);
    const run_result boosted = e.run(w, c, {});
    EXPECT_EQ(boosted.domains[1].energy_nj, 0u) << e.name << ": never little";
    const std::uint64_t cpu = static_cast<std::uint64_t>(find(boosted, "small").cpu_ns);
    EXPECT_NEAR(static_cast<double>(boosted.domains[0].energy_nj), 478640.0 * static_cast<double>(cpu) / 1e6, 2.0) << e.name;
    // 1 ms of work per period at speed floor(1024 x 950 / 1100) = 884, 100 periods.
    EXPECT_EQ(cpu, 100u * static_cast<std::uint64_t>((msec(1) * 1024 + 883) / 884)) << e.name;

    task_spec big = scen::task("big", 0, {ev::run(msec(10)), ev::timer("t", msec(20), true)});
    w.tasks = {big};
    const run_result uncapped = e.run(w, c, {});
    EXPECT_EQ(uncapped.domains[1].energy_nj, 0u) << e.name;
    EXPECT_EQ(find(uncapped, "big").slack.overruns, 0u) << e.name;
    big.util_max = 300;
    w.tasks = {big};
    const run_result capped = e.run(w, c, {});
    EXPECT_EQ(capped.domains[0].energy_nj, 0u) << e.name << ": capped, it fits the little CPU and stays there";
    EXPECT_GT(find(capped, "big").slack.overruns, 10u) << e.name;

    // 7.5 ms in 20 (util ~384 > 356) capped at 300 fits the little CPU at its capped speed
    // (406: 18.9 ms of each 20), and its CPU is not overutilized (the cap fits), so energy
    // awareness keeps placing it: every wakeup of the window.
    task_spec heavy = scen::task("heavy", 0, {ev::run(usec(7500)), ev::timer("t", msec(20), true)});
    heavy.util_max = 300;
    w.tasks = {heavy};
    const run_result kept = e.run(w, c, {});
    EXPECT_EQ(kept.domains[0].energy_nj, 0u) << e.name;
    EXPECT_EQ(find(kept, "heavy").slack.overruns, 0u) << e.name;
    EXPECT_GE(kept.totals.eas_wakeups, 99u) << e.name;
  }
}

// The energy of a boost: a task of util ~52 boosted to 440 fits the little CPUs (440 <= 446),
// but the boost takes their whole domain to 850 MHz, where a pinned task of util ~205 beside
// it then runs too. The Energy Model's deltas (em_pd_energy, below): little 14 808 + 13 874,
// big (its own idle domain, at the 625 MHz the boost asks for there) 21 390: the boosted task
// goes big. Estimated at its util alone (no clamps in the frequency), little would win.
TEST(SimUclamp, ABoostsFrequencyCountsInTheEnergyEstimate) {
  std::vector<perf_domain_model> doms = big_then_little();
  doms[1].cpus = 2;
  std::vector<em_perf_state> big_states, little_states;
  for (const auto& [khz, uw] : doms[0].states) big_states.push_back({khz, uw, 0, false});
  for (const auto& [khz, uw] : doms[1].states) little_states.push_back({khz, uw, 0, false});
  em_perf_domain big{}, little{};
  ASSERT_EQ(em_perf_domain_init(big, big_states.data(), 5, 1024), errc::ok);
  ASSERT_EQ(em_perf_domain_init(little, little_states.data(), 5, 446), errc::ok);
  const std::uint64_t little_delta = em_pd_energy(little, 440, 205 + 52, 446) - em_pd_energy(little, 205, 205, 446);
  const std::uint64_t big_delta = em_pd_energy(big, 440, 52, 1024);
  ASSERT_LT(big_delta, little_delta);
  ASSERT_GT(em_pd_energy(big, 52, 52, 1024), em_pd_energy(little, 205, 205 + 52, 446) - em_pd_energy(little, 205, 205, 446));
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "boost-energy";
    w.duration = sec(3);
    task_spec steady = scen::task("steady", 0, {ev::run(msec(4)), ev::timer("s", msec(20), true)});
    steady.cpus = {1};
    task_spec boosted = scen::task("boosted", 0, {ev::run(msec(1)), ev::anchored_timer("b", msec(20), msec(7))});
    boosted.util_min = 440;
    w.tasks = {steady, boosted};
    run_config c = machine(doms, 0);
    c.warmup_ns = sec(1);
    const run_result r = e.run(w, c, {});
    const std::uint64_t cpu = static_cast<std::uint64_t>(find(r, "boosted").cpu_ns);
    EXPECT_NEAR(static_cast<double>(r.domains[0].energy_nj), 239328.0 * static_cast<double>(cpu) / 1e6, 2.0)
        << e.name << ": every run of the boosted task on the big CPU, at 625 MHz";
  }
}

// The non-energy path (capacity only): a waking task takes an idle CPU whose capacity meets
// its boost (select_idle_capacity with clamps); a small task boosted to 700 leaves the little
// CPU it started on for the big one, where it stays.
TEST(SimUclamp, ABoostedTaskWakesOnABigEnoughCpu) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "boost-wake";
    w.duration = sec(1);
    // Runs of 0.3 ms of work (0.69 ms on the little CPU) from 0.2 ms into each 20 ms: never
    // running at a tick, so never moved as a misfit; only the wakeup's choice can move it.
    // A first sleep of 300 ms lets the fork's initial util decay (it would not fit the little
    // CPU by itself).
    task_spec small = scen::task("small", 0, {ev::run(usec(300)), ev::anchored_timer("t", msec(20), msec(300) + usec(200))});
    small.delay = usec(200);
    phase settle;
    settle.name = "settle";
    settle.events = {ev::sleep(msec(300))};
    small.phases.insert(small.phases.begin(), settle);
    small.loop = 1;
    w.tasks = {small};
    const run_config c = little_then_big();
    const run_result plain = e.run(w, c, {});
    EXPECT_EQ(find(plain, "small").migrations, 0u) << e.name << ": it starts little, where it fits";
    w.tasks[0].util_min = 700;
    const run_result boosted = e.run(w, c, {});
    EXPECT_EQ(find(boosted, "small").migrations, 1u) << e.name << ": one move to the big CPU";
  }
}

// A class change recounts the task's clamps at once: a fair task that becomes SCHED_FIFO
// before a long run gets the RT default boost (600 here: 1.25 x 600 = 750, the 80 % state)
// from the change, not at its next wakeup. The boost holds until the RT class's own util_avg
// (from 0: this CPU never ran RT before) passes it: running at speed 819 it grows as
// 819 (1 - y^n) over n PELT periods, so 1.25 x util exceeds the 80 % state's 819 when
// y^n < 1 - 655.2 / 819 = 0.2, n > 32 log2 5 = 74.3 periods (77.9 ms), at the first period
// boundary after that; from then on the top.
TEST(SimUclamp, AClassChangeRecountsTheClampsAtOnce) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "to-rt";
    w.duration = sec(2);
    sched_params fifo{};
    fifo.kind = sched_kind::fifo;
    fifo.rt_priority = 50;
    task_spec t = scen::task("t", 0, {ev::run(msec(1)), ev::sleep(msec(99))});
    t.phases[0].loop = 5;  // 0.5 s of a light fair task
    phase rt;
    rt.name = "rt";
    rt.loop = 1;
    rt.events = {ev::set_policy(fifo), ev::run(msec(500)), ev::sleep(sec(10))};
    t.phases.push_back(rt);
    w.tasks = {t};
    run_config c = machine({domain(1, 1024, five_states())}, 0);
    c.machine.uclamp_rt_min_default = 600;
    trace_writer tr;
    c.trace = &tr;
    (void)e.run(w, c, {});
    // The change to 800 MHz comes as the class changes (the fair phase ends at 0.5 s plus its
    // last run), the next one to the top when the RT class's util passes the boost.
    const auto changes = frequency_changes(tr.text());
    std::size_t at = 0;
    while (at < changes.size() && !(changes[at].first >= 0.5 && changes[at].second == 800000u)) ++at;
    ASSERT_LT(at + 1, changes.size()) << e.name;
    EXPECT_LT(changes[at].first, 0.52) << e.name;
    const double crossing = 32 * std::log2(5.0) * 1.048576e-3;
    EXPECT_GE(changes[at + 1].first - changes[at].first, crossing) << e.name;
    EXPECT_LE(changes[at + 1].first - changes[at].first, crossing + 1.048576e-3) << e.name;
    EXPECT_EQ(changes[at + 1].second, 1000000u) << e.name;
  }
}

// Misfit with a cap (capacity only, no frequencies): a hog on a little CPU outgrows it (its
// util reaches 446 > 356) and is moved to the big one; capped at 300 it fits the little CPU
// (util_fits_cpu: the cap is within its capacity) and stays.
TEST(SimUclamp, ACappedHogIsNoMisfit) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "misfit";
    w.duration = sec(2);
    task_spec hog = scen::task("hog", 0, {ev::run(sec(10))});
    hog.cpus = {0, 1};
    w.tasks = {scen::task("sitter", 0, {ev::run(sec(10))}), hog};
    w.tasks[0].cpus = {1};
    w.tasks[0].delay = 0;
    w.tasks[1].delay = usec(1);  // CPU 1 (big) is taken: the hog starts on CPU 0 (little)
    const run_config c = little_then_big();
    w.tasks[0].phases[0].events = {ev::run(msec(300))};
    w.tasks[0].phases[0].loop = 1;
    w.tasks[0].loop = 1;  // the sitter leaves at 300 ms: the big CPU idles, the hog is a misfit
    const run_result free_run = e.run(w, c, {});
    EXPECT_GE(find(free_run, "hog").migrations, 1u) << e.name;
    w.tasks[1].util_max = 300;
    const run_result capped = e.run(w, c, {});
    EXPECT_EQ(find(capped, "hog").migrations, 0u) << e.name;
    expect_conserved(capped);
  }
}

// Neutral clamps change nothing: every task of the rt-app video pipeline given util_min 0 and
// util_max 1024 (uclamp on, every rule in play) schedules exactly as without clamps, on the
// example big.LITTLE model, with and without EAS.
TEST(SimUclamp, NeutralClampsChangeNothing) {
  const std::string here = schedcore_test::repo_root();
  const workload plain = load_rtapp(here + "/../shared/workloads/rt-app/video-short.json");
  const energy_model_file em = load_energy_model(here + "/examples/energy-models/big-little.json");
  workload neutral = plain;
  for (task_spec& t : neutral.tasks) {
    t.util_min = 0;
    t.util_max = 1024;
  }
  for (const policy_entry& e : fair_entries()) {
    for (const bool eas : {true, false}) {
      run_config c = machine(em.domains);
      c.duration_ns = sec(3);
      c.machine.energy_aware = eas;
      c.machine.util_est = -1;
      const run_result a = e.run(plain, c, {}), b = e.run(neutral, c, {});
      EXPECT_EQ(to_json(a), to_json(b)) << e.name << " eas " << eas;
      EXPECT_GT(a.totals.eas_wakeups + (eas ? 0u : 1u), 0u);
    }
  }
}

// The example workload (examples/rt-app/ui-and-background.json) on the example big.LITTLE
// model, against the same file without its clamps: capping the background threads cuts the
// energy per unit of work (they fit little CPUs at low frequencies instead of filling big ones
// at the top), and boosting the UI thread finishes its frames earlier (a larger least slack
// before the next vsync) with nothing waiting. The docs' table comes from these runs (10 s).
TEST(SimUclamp, TheExampleUiAndBackgroundWorkload) {
  const std::string here = schedcore_test::repo_root();
  const workload clamped = load_rtapp(here + "/examples/rt-app/ui-and-background.json");
  workload plain = clamped;
  for (task_spec& t : plain.tasks) t.util_min = t.util_max = -1;
  const energy_model_file em = load_energy_model(here + "/examples/energy-models/big-little.json");
  for (const policy_entry& e : fair_entries()) {
    run_config c = machine(em.domains);
    c.duration_ns = sec(3);
    c.machine.util_est = -1;
    const run_result with = e.run(clamped, c, {}), without = e.run(plain, c, {});
    auto per_work = [](const run_result& r) {
      std::int64_t work = 0;
      for (const domain_result& d : r.domains) work += d.work_ns;
      return energy_mj(r) / static_cast<double>(work);
    };
    const double per_work_with = per_work(with), per_work_without = per_work(without);
    EXPECT_LT(per_work_with, per_work_without * 0.6) << e.name;
    const task_result& ui_with = find(with, "ui-0");
    const task_result& ui_without = find(without, "ui-0");
    EXPECT_GT(ui_with.slack.min, ui_without.slack.min + msec(3)) << e.name;
    EXPECT_EQ(ui_with.slack.overruns, 0u) << e.name;
    EXPECT_EQ(ui_with.wait_ns, 0) << e.name;
    expect_conserved(with);
  }
}

// Bad clamps: out of range or inverted in a task, an event that would invert the clamps in
// force (sched_setattr's EINVAL), and a bad RT default, each refused with a message.
TEST(SimUclamp, BadClampsAreRefused) {
  const policy_entry e = fair_entries().front();
  auto refused = [&](workload w, run_config c, const std::string& says) {
    try {
      (void)e.run(w, c, {});
      ADD_FAILURE() << "accepted; expected: " << says;
    } catch (const workload_error& x) {
      EXPECT_NE(std::string(x.what()).find(says), std::string::npos) << x.what();
    }
  };
  const run_config c = machine({domain(1, 1024, five_states())});
  workload w;
  w.name = "bad";
  w.duration = msec(100);
  w.tasks = {scen::task("t", 0, {ev::run(msec(1)), ev::sleep(msec(1))})};
  workload bad = w;
  bad.tasks[0].util_min = 1025;
  refused(bad, c, "util_min and util_max must be in 0..1024");
  bad = w;
  bad.tasks[0].util_min = 600;
  bad.tasks[0].util_max = 500;
  refused(bad, c, "util_min 600 is above util_max 500");
  bad = w;
  bad.tasks[0].phases[0].events.push_back(ev::set_uclamp(700, 600));
  refused(bad, c, "sets util_min 700 above util_max 600");
  bad = w;
  bad.tasks[0].phases[0].events.push_back(ev::set_uclamp(-3, 600));
  refused(bad, c, "-1 (default) or -2 (unchanged)");
  bad = w;
  bad.tasks[0].util_max = 300;
  bad.tasks[0].phases[0].events.push_back(ev::set_uclamp(400, -2));
  refused(bad, c, "task 't': its clamps would become util_min 400 above util_max 300");
  run_config rt = c;
  rt.machine.uclamp_rt_min_default = 2000;
  refused(w, rt, "uclamp_rt_min_default) must be in 0..1024, not 2000");
}


// ---------------------------------------------------------------- RT and deadline classes

policy_entry dl_entry() { return schedcore_test::cfs_dl_entry(); }
using schedcore_test::reservation;
using schedcore_test::capacity_machine;
// One periodic reservation "job" for 1 s: a frame of `work` every 10 ms (its deadline the
// period), Q = `runtime` per 10 ms.
workload periodic_reservation(const std::string& name, std::int64_t work, std::int64_t runtime) {
  workload w;
  w.name = name;
  w.duration = sec(1);
  task_spec job = scen::task("job", 0, {ev::timer("t", msec(10)), ev::run(work), ev::frame(msec(10))});
  job.params = reservation(runtime, msec(10));
  w.tasks = {job};
  return w;
}

// The RT class's util_avg (rq->avg_rt, Linux 4.19+) joins the fair util in schedutil: after an
// RT task sleeps, its CPU's frequency follows the class's decaying util instead of dropping to
// the bottom. An RT task running 10 ms of every 20 ms at f_max: in PELT's steady state
// (y^32 = 1/2, periods of 1.048576 ms, r = 10 / 1.048576 periods per half) its util swings
// between 1024 y^r / (1 + y^r) = 459 and 1024 / (1 + y^r) = 565. While it sleeps schedutil asks
// for 1.25 x that, 574..706; an idle CPU has no tick to re-evaluate, so the state chosen when
// the task sleeps, for 1.25 x 565 = 706, the 80 % state (up to 819; 60 % ends at 614), holds
// until it wakes; while it runs, the top (RT runnable, no clamps). Without the RT class's util
// the sleeping half would be at the bottom. Window after 0.5 s of warm-up.
TEST(SimEnergy, TheRtClassUtilHoldsTheFrequencyWhileItsTaskSleeps) {
  const double yr = std::pow(0.5, 10.0 / 1.048576 / 32.0);
  EXPECT_NEAR(1024 * yr / (1 + yr), 459, 1);
  EXPECT_NEAR(1024 / (1 + yr), 565, 1);
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "rt-half";
    w.duration = sec(2);
    task_spec rt = scen::task("rt", 0, {ev::run(msec(10)), ev::timer("t", msec(20), true)});
    rt.params.kind = sched_kind::fifo;
    rt.params.rt_priority = 50;
    w.tasks = {rt};
    run_config c = machine({domain(1, 1024, five_states())}, 0);
    c.warmup_ns = msec(500);
    const run_result r = e.run(w, c, {});
    const domain_result& d = r.domains[0];
    EXPECT_EQ(time_at(d, 200000), 0) << e.name;
    EXPECT_EQ(time_at(d, 400000), 0) << e.name;
    EXPECT_EQ(time_at(d, 600000), 0) << e.name;
    EXPECT_EQ(time_at(d, 1000000), find(r, "rt").cpu_ns) << e.name;
    EXPECT_EQ(time_at(d, 800000) + time_at(d, 1000000), msec(1500)) << e.name;
    EXPECT_NEAR(static_cast<double>(time_at(d, 800000)), static_cast<double>(msec(750)), static_cast<double>(msec(1))) << e.name;
  }
}

// A reservation is in units of the biggest CPU's work (update_curr_dl's scale invariance,
// 4.16+): Q = 2 ms per 10 ms buys 2 ms of CPU per period on a CPU of capacity 1024 and 4 ms
// on one of capacity 512 (the charge is the time run x 512 / 1024), each pinned hog throttled
// at its budget. Exact to a tick's overrun, paid back the next period.
TEST(SimDeadlineScaled, AReservationBuysTheSameWorkOnALittleCpu) {
  workload w;
  w.name = "dl-asym";
  w.duration = sec(1);
  task_spec big = scen::task("on-big", 0, {ev::run(sec(5))});
  big.params = reservation(msec(2), msec(10));
  big.cpus = {0};
  task_spec little = scen::task("on-little", 0, {ev::run(sec(5))});
  little.params = reservation(msec(2), msec(10));
  little.cpus = {1};
  w.tasks = {big, little};
  run_config c = capacity_machine({1024, 512});
  c.machine.dl_bound_pct = -1;  // pinned reservations: Linux allows them with admission off only
  const run_result r = dl_entry().run(w, c, {});
  expect_conserved(r);
  EXPECT_NEAR(static_cast<double>(find(r, "on-big").cpu_ns), static_cast<double>(msec(200)), static_cast<double>(msec(1)));
  EXPECT_NEAR(static_cast<double>(find(r, "on-little").cpu_ns), static_cast<double>(msec(400)), static_cast<double>(msec(1)));
}

// schedutil gives a reservation its bandwidth (cpu_bw_dl, 4.16+) instead of f_max, and the
// bandwidth stays until the sleeper's 0-lag time (GRUB's inactive timer, 4.13+). A job of
// 1 ms of work (at f_max) every 10 ms under Q = 2.5 ms, P = 10 ms: bandwidth 2.5 / 10 x 1024 =
// 256, x 1.25 = 320, the 40 % state (capacity 409). The job runs 1 ms x 1024 / 409 = 2.50 ms
// of wall time, charged 2.50 x 409 / 1024 = 1 ms of budget, so q = 1.5 ms at its sleep and the
// 0-lag time is d - q P / Q = 10 - 6 = 4 ms into the period. Then the domain drops to the
// bottom (its util_avg alone asks for less than 204), and the next wakeup brings it back.
// Every busy ns is at 400 MHz (energy = 50 mW x CPU time), no deadline is missed.
TEST(SimDeadlineScaled, AReservationRunsAtItsBandwidthUntilItsZeroLagTime) {
  const workload w = periodic_reservation("dl-freq", msec(1), usec(2500));
  trace_writer trace;
  run_config c = machine({domain(1, 1024, five_states())}, 0);
  c.trace = &trace;
  const run_result r = dl_entry().run(w, c, {});
  const auto& t = find(r, "job");
  EXPECT_EQ(t.deadlines_missed, 0u);
  EXPECT_GE(t.frames, 99u);
  EXPECT_EQ(r.domains[0].energy_nj, 50000ull * static_cast<std::uint64_t>(t.cpu_ns) / 1000000);
  EXPECT_EQ(time_at(r.domains[0], 1000000), 0) << "never at f_max";
  // Each drop to the bottom comes at the 0-lag time, 4 ms into the period (±10 µs of rounding);
  // the first, at 0, is the task's first sleep with its whole budget (0-lag time = d - P = now).
  int drops = 0;
  for (const auto& [when, khz] : frequency_changes(trace.text())) {
    if (khz != 200000 || when == 0.0) continue;
    ++drops;
    const double into = std::fmod(when * 1e3, 10.0);
    EXPECT_NEAR(into, 4.0, 0.01) << when;
  }
  EXPECT_GE(drops, 99);
}


// Deadline tasks on CPUs of different capacity (5.9+): a reservation of Q = 6 ms per 10 ms fits
// no CPU of capacity 446 (10 ms x 446 / 1024 = 4.36 ms of big-CPU work < 6 ms) and wakes on
// the big CPU (select_task_rq_dl with dl_task_fits_capacity), where each 5 ms job takes 5 ms
// and misses nothing; admission counts Σ capacity (dl_bw_capacity): on 446 + 446 + 1024 the
// cap is 0.95 x 1916 / 1024 = 1.78 CPUs, so a second 0.6 reservation fits and a third does
// not (it would on three full CPUs, 2.85).
TEST(SimDeadlineScaled, AReservationWakesWhereItFitsAndAdmissionCountsCapacity) {
  workload w = periodic_reservation("dl-fit", msec(5), msec(6));
  const task_spec job = w.tasks[0];
  run_config c = capacity_machine({446, 446, 1024});
  const run_result r = dl_entry().run(w, c, {});
  const auto& t = find(r, "job");
  EXPECT_EQ(t.deadlines_missed, 0u);
  EXPECT_GE(t.frames, 99u);
  EXPECT_LE(t.migrations, 1u) << "to the big CPU at the first wakeup, never back";
  EXPECT_GE(t.cpu_ns, 99 * msec(5));
  EXPECT_EQ(t.cpu_ns % msec(5), 0) << "every job at full speed (on a little CPU one takes 11.48 ms)";
  // Admission against Σ capacity.
  task_spec second = job;
  second.name = "second";
  w.tasks.push_back(second);
  EXPECT_NO_THROW(dl_entry().run(w, c, {}));
  task_spec third = job;
  third.name = "third";
  w.tasks.push_back(third);
  EXPECT_THROW(dl_entry().run(w, c, {}), workload_error);
  c.machine.capacity = {1024, 1024, 1024};
  EXPECT_NO_THROW(dl_entry().run(w, c, {}));
}

// select_task_rq_dl (5.9+) and task_woken_dl's push: a waking reservation stays on its CPU
// when it would preempt the reservation running there (by the deadline it had, strictly
// earlier: dl_entity_preempt), and looks for a CPU without a reservation when that one is
// pinned there; woken where it does not preempt (its renewed deadline not earlier), it is
// pushed to such a CPU at once. On {1024, 1024, 446}, fair hogs pinned to CPUs 1 and 2 (so
// that no idle CPU pulls), B (1 ms per 10 ms, 0.5 ms of work) starts on CPU 0 and a hog A
// (allowed on CPUs 0 and 1) arrives at 7 ms, while B sleeps, and takes CPU 0:
// - A with 30 ms per 50 ms: its deadlines are at least 17 ms away when B wakes, every 10 ms,
//   so B preempts it each time and never moves;
// - A with 6 ms per 10 ms: at 10 ms B's old deadline (10) is before A's (17), so it stays,
//   but its renewed one (20) is not, so it is pushed to CPU 1, once;
// - A (6 / 10) pinned to CPU 0: B leaves for CPU 1 at its wakeup, once.
// Every time B runs at once. (Before, any reservation queued on B's CPU sent it away.)
TEST(SimDeadlineScaled, AReservationStaysWhereItPreemptsTheRunningOneAndIsPushedOtherwise) {
  struct variant {
    std::int64_t a_runtime, a_period;
    bool pinned;
    std::uint64_t moves;
  };
  for (const variant v : {variant{msec(30), msec(50), false, 0}, variant{msec(6), msec(10), false, 1},
                          variant{msec(6), msec(10), true, 1}}) {
    workload w;
    w.name = "dl-preempt";
    w.duration = msec(500);
    task_spec b = scen::task("b", 0, {ev::timer("t", msec(10)), ev::run(usec(500)), ev::frame(msec(10))});
    b.params = reservation(msec(1), msec(10));
    task_spec a = scen::task("a", 0, {ev::run(sec(1))});
    a.params = reservation(v.a_runtime, v.a_period);
    a.delay = msec(7);
    a.cpus = v.pinned ? std::vector<int>{0} : std::vector<int>{0, 1};
    a.daemon = true;
    task_spec h1 = scen::task("hog-1", 0, {ev::run(sec(1))}), h2 = scen::task("hog-2", 0, {ev::run(sec(1))});
    h1.daemon = h2.daemon = true;
    h1.cpus = {1};
    h2.cpus = {2};
    w.tasks = {b, a, h1, h2};
    run_config c = capacity_machine({1024, 1024, 446});
    c.machine.dl_bound_pct = -1;  // A is pinned to fewer CPUs than the machine's: admission off, as Linux needs
    const run_result r = dl_entry().run(w, c, {});
    expect_conserved(r);
    const std::string what = "A " + std::to_string(v.a_runtime / msec(1)) + "/" + std::to_string(v.a_period / msec(1)) +
                             (v.pinned ? " pinned" : "");
    EXPECT_EQ(find(r, "b").migrations, v.moves) << what;
    EXPECT_EQ(find(r, "b").deadlines_missed, 0u) << what;
    EXPECT_GE(find(r, "b").frames, 49u) << what;
    EXPECT_EQ(find(r, "b").latency.max, 0) << what;
  }
}

// The example examples/rt-app/camera-reservation.json (a 30 fps stage of 4 ms of work as a
// reservation of 8 ms per 33.3 ms, beside a light UI task) against the same file with the
// camera at SCHED_FIFO 50, on big-little.json: the reservation's frequency is its bandwidth
// x 1.25; the RT task, with RT tasks' default boost, fits only a big CPU and runs there at
// f_max, so the reservation costs less energy for the same work (measured: 384.9 against
// 875.6 mJ over 10 s, both policies) and both make every frame. With the boost lowered to 0
// the RT task stays on a little CPU (315.2 mJ).
TEST(SimDeadlineScaled, TheExampleCameraReservationCostsLessThanRtForTheSameFrames) {
  const std::string here = schedcore_test::repo_root();
  const workload reserved = load_rtapp(here + "/examples/rt-app/camera-reservation.json");
  workload fifo = reserved;
  for (task_spec& t : fifo.tasks) {
    if (t.params.kind != sched_kind::deadline) continue;
    t.params = sched_params{};
    t.params.kind = sched_kind::fifo;
    t.params.rt_priority = 50;
  }
  const energy_model_file em = load_energy_model(here + "/examples/energy-models/big-little.json");
  run_config c = machine(em.domains);
  c.duration_ns = sec(3);
  c.machine.util_est = -1;
  const run_result dl = dl_entry().run(reserved, c, {}), rt = dl_entry().run(fifo, c, {});
  EXPECT_EQ(find(dl, "camera-0").kind, "deadline");
  EXPECT_EQ(find(rt, "camera-0").kind, "fifo");
  // The same work, but for the frame in progress at the end.
  EXPECT_NEAR(static_cast<double>(work_ns(dl)), static_cast<double>(work_ns(rt)), static_cast<double>(msec(5)));
  EXPECT_LT(energy_mj(dl), energy_mj(rt) * 0.9);
  // The RT camera does not fit a little CPU with RT tasks' default boost (uclamp_min 1024,
  // rt_task_fits_capacity): its first wakeup takes it to a big one. With the boost lowered to 0
  // (Android's sched_util_clamp_min_rt_default) it stays where it started, as the reservation does.
  EXPECT_EQ(find(rt, "camera-0").migrations, 1u);
  EXPECT_EQ(find(dl, "camera-0").migrations, 0u);
  run_config android = c;
  android.machine.uclamp_rt_min_default = 0;
  const run_result rt0 = dl_entry().run(fifo, android, {});
  EXPECT_EQ(find(rt0, "camera-0").migrations, 0u);
  EXPECT_NEAR(static_cast<double>(work_ns(rt0)), static_cast<double>(work_ns(rt)), static_cast<double>(msec(5)));
  for (const run_result* r : {&dl, &rt, &rt0}) {
    EXPECT_EQ(find(*r, "camera-0").slack.overruns, 0u);
    EXPECT_GE(find(*r, "camera-0").slack.periods, 89u);
    expect_conserved(*r);
  }
}

// ---------------------------------------------------------------- setup, ticks, EAS and clamps (mutation audit)

// The time of every util_avg counter sample of a trace (one per tick of a CPU running a fair
// task), in seconds, in order.
std::vector<double> util_sample_times(const std::string& text) {
  std::vector<double> out;
  std::istringstream lines(text);
  for (std::string l; std::getline(lines, l);) {
    const std::size_t at = l.find(": tracing_mark_write: C|");
    if (at == std::string::npos || l.find("|util_avg|") == std::string::npos) continue;
    const std::size_t space = l.rfind(' ', at - 1);
    out.push_back(std::stod(l.substr(space + 1, at - space - 1)));
  }
  return out;
}

// A performance domain starts at its top state (machine_model::perf_domains: the state a
// kernel boots at before schedutil's first request): the trace's first frequency line, at 0,
// names 1 GHz. The tick grid starts at its phase: with tick_phase_ns 300 us at HZ 1000 the
// ticks are at 0.3, 1.3, 2.3 ... ms, so the running hog's first util_avg sample (written at
// each tick) is at 0.3 ms, not a tick later.
TEST(SimEnergy, ADomainStartsAtTheTopAndTheFirstTickIsAtThePhase) {
  workload w;
  w.name = "start";
  w.duration = msec(5);
  w.hz = 1000;
  w.tasks = {scen::task("hog", 0, {ev::run(sec(1))})};
  trace_writer trace;
  run_config c = machine({domain(1, 1024, five_states())});
  c.trace = &trace;
  c.machine.tick_phase_ns = usec(300);
  (void)schedcore_test::cfs_entry().run(w, c, {});
  const auto changes = frequency_changes(trace.text());
  ASSERT_FALSE(changes.empty());
  EXPECT_EQ(changes.front().first, 0.0);
  EXPECT_EQ(changes.front().second, 1000000u);
  const std::vector<double> ticks = util_sample_times(trace.text());
  ASSERT_GE(ticks.size(), 4u);
  EXPECT_NEAR(ticks[0], 0.0003, 1e-7);
  EXPECT_NEAR(ticks[1], 0.0013, 1e-7);
}

// Performance-domain limits: 256 states is the most a domain may have (accepted), a domain
// needs at least one CPU even when the counts add up, and the energy totals (u64 nJ) must not
// be able to wrap: one CPU at 4 000 000 000 uW for 4 550 000 s could use 4e9 x 4.55e15 ns / 1e6
// = 1.82e19 nJ, within 1 % of 2^64 = 1.845e19 (refused at 1.8e19, whatever the run would use).
TEST(SimEnergy, PerformanceDomainLimits) {
  workload w;
  w.name = "limits";
  w.duration = msec(20);
  w.tasks = {scen::task("t", 0, {ev::run(msec(1))}, false)};
  w.tasks[0].loop = 1;
  w.tasks[0].phases[0].loop = 1;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> many;
  for (std::uint32_t i = 1; i <= 256; ++i) many.emplace_back(1000 * i, 10 * i * i);
  const run_result r = schedcore_test::cfs_entry().run(w, machine({domain(1, 1024, many)}), {});
  ASSERT_EQ(r.domains.size(), 1u);
  EXPECT_EQ(r.domains[0].time_in_state.size(), 256u);
  EXPECT_GT(find(r, "t").exit_ns, 0) << "its 1 ms of work done within the 20 ms";
  auto refused = [&](const workload& x, const run_config& c, const std::string& says) {
    try {
      (void)schedcore_test::cfs_entry().run(x, c, {});
      ADD_FAILURE() << "accepted; expected: " << says;
    } catch (const workload_error& err) {
      EXPECT_NE(std::string(err.what()).find(says), std::string::npos) << err.what();
    }
  };
  refused(w, machine({domain(0, 1024, five_states()), domain(1, 1024, five_states())}),
          "performance domain 0 needs at least one CPU");
  workload longer = w;
  longer.duration = 4550000 * sec(1);
  refused(longer, machine({domain(1, 1024, {{1000000, 4000000000u}})}), "could pass 2^64 nJ");
}

// util_est's default (machine_model::util_est -1) is on with performance domains (schedutil
// reads it): the same run as util_est 1, to the nJ, and not the same as util_est 0, for a task
// of 3 ms of work per 10 ms period whose util_avg dips between its bursts below what its
// estimate remembers.
TEST(SimEnergy, UtilEstIsOnByDefaultWithPerformanceDomains) {
  workload w;
  w.name = "default-util-est";
  w.duration = sec(1);
  w.tasks = {scen::task("t", 0, {ev::run(msec(3)), ev::sleep(msec(7))})};
  auto energy = [&](int util_est) {
    run_config c = machine({domain(1, 1024, five_states())}, 0);
    c.machine.util_est = util_est;
    return schedcore_test::cfs_entry().run(w, c, {}).domains[0].energy_nj;
  };
  const std::uint64_t dflt = energy(-1), on = energy(1), off = energy(0);
  EXPECT_EQ(dflt, on);
  EXPECT_NE(dflt, off);
}

// Energy-aware placement needs CPUs of different capacities (the kernel builds the perf
// domains for EAS only with SD_ASYM_CPUCAPACITY): two 1024 CPUs in two domains with
// energy_aware set run as without it, no wakeup placed by energy.
TEST(SimEnergy, EnergyAwarenessNeedsCpusOfDifferentCapacities) {
  workload w;
  w.name = "symmetric";
  w.duration = sec(1);
  w.tasks = {scen::task("a", 0, {ev::run(msec(1)), ev::timer("ta", msec(20), true)}),
             scen::task("b", 0, {ev::run(msec(2)), ev::timer("tb", msec(15), true)})};
  run_config c = machine({domain(1, 1024, five_states()), domain(1, 1024, five_states())});
  c.machine.energy_aware = true;
  const run_result on = schedcore_test::cfs_entry().run(w, c, {});
  c.machine.energy_aware = false;
  const run_result off = schedcore_test::cfs_entry().run(w, c, {});
  EXPECT_EQ(on.totals.eas_wakeups, 0u);
  EXPECT_EQ(on.domains[0].energy_nj, off.domains[0].energy_nj);
  EXPECT_EQ(on.domains[1].energy_nj, off.domains[1].energy_nj);
  EXPECT_EQ(on.totals.migrations, off.totals.migrations);
}

// find_energy_efficient_cpu sizes each CPU without the waking task (cpu_util(cpu, p, dst):
// lsub_positive of p's util on its previous CPU). A task of 4 ms of work per 20 ms (util ~205)
// on the little CPU (capacity 446: fits below 446 x 1024 / 1280 = 356) fits there with its
// own util counted once, and costs least there: it stays, never a migration in the window and
// nothing on the big CPU. Counted twice (410) it would not fit its own CPU and would bounce
// between the two at every wakeup.
TEST(SimEnergy, EnergyAwarePlacementCountsTheWakingTaskOnceOnItsPreviousCpu) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "prev";
    w.duration = sec(2);
    w.tasks = {scen::task("t", 0, {ev::run(msec(4)), ev::timer("t", msec(20), true)})};
    run_config c = machine(big_then_little());
    c.warmup_ns = sec(1);
    const run_result r = e.run(w, c, {});
    EXPECT_GT(r.totals.eas_wakeups, 45u) << e.name;  // 50 wakeups in the window
    EXPECT_EQ(find(r, "t").migrations, 0u) << e.name;
    EXPECT_EQ(r.domains[0].energy_nj, 0u) << e.name << ": nothing runs on the big CPU";
    EXPECT_EQ(find(r, "t").slack.overruns, 0u) << e.name;
  }
}

// Ties in find_energy_efficient_cpu (6.x: `cur_delta < best_delta`, `best_delta < prev_delta`,
// both strict): with two identical little CPUs, each its own domain, and a big one, a small
// task (1 ms per 20 ms) costs the same on either little CPU. Started pinned to the second
// little CPU and then let onto all, it stays there (moving needs a strictly smaller energy);
// started pinned to the big CPU, it leaves for the first little CPU in domain order. Each
// stays: the other little domain never runs anything (idle power 0: energy 0).
TEST(SimEnergy, EnergyAwarePlacementBreaksTiesTowardsPrevThenTheFirstDomain) {
  const perf_domain_model little = big_then_little()[1];
  const perf_domain_model big = big_then_little()[0];
  for (const int start : {1, 2}) {
    workload w;
    w.name = "ties";
    w.duration = sec(1);
    task_spec t = scen::task("t", 0, {});
    phase pin;
    pin.loop = 1;
    pin.events = {ev::set_affinity({start}), ev::run(msec(1)), ev::set_affinity({})};
    phase loop;
    loop.loop = -1;
    loop.events = {ev::run(msec(1)), ev::timer("t", msec(20), true)};
    t.phases = {pin, loop};
    w.tasks = {t};
    const run_result r = schedcore_test::cfs_entry().run(w, machine({little, little, big}), {});
    EXPECT_GT(r.totals.eas_wakeups, 40u) << start;
    if (start == 1) {
      EXPECT_EQ(r.domains[0].energy_nj, 0u) << "equal energy elsewhere: the task stays on CPU 1";
      EXPECT_GT(r.domains[1].energy_nj, 0u);
    } else {
      EXPECT_GT(r.domains[0].energy_nj, 0u);
      EXPECT_EQ(r.domains[1].energy_nj, 0u) << "of two equal candidates the first domain's";
    }
  }
}

// uclamp limits are inclusive (sched_setattr: EINVAL only for util_min > util_max): a task
// created at 300/300, changed to 500/500 and then to "unchanged"/500 runs; its hog's util
// (~1024) capped at 500 asks for 1.25 x 500 = 625 of 1024: the 80 % state (capacity 819; the
// 60 % one, 614, is short), the whole window. A change that leaves util_min at 400 ("unchanged",
// -2) and sets util_max 300 is checked against the 400 in force and refused.
TEST(SimUclamp, ClampLimitsAreInclusive) {
  workload w;
  w.name = "inclusive";
  w.duration = sec(1);
  task_spec t = scen::task("hog", 0, {ev::set_uclamp(500, 500), ev::set_uclamp(-2, 500), ev::run(sec(10))});
  t.util_min = 300;
  t.util_max = 300;
  w.tasks = {t};
  run_config c = machine({domain(1, 1024, five_states())}, 0);
  c.warmup_ns = msec(10);
  const run_result r = schedcore_test::cfs_entry().run(w, c, {});
  EXPECT_EQ(time_at(r.domains[0], 800000), r.duration_ns);
  workload bad = w;
  bad.tasks[0].util_min = 400;
  bad.tasks[0].util_max = -1;
  bad.tasks[0].phases[0].events = {ev::run(msec(1)), ev::set_uclamp(-2, 300), ev::run(msec(1))};
  try {
    (void)schedcore_test::cfs_entry().run(bad, c, {});
    ADD_FAILURE() << "accepted util_min 400 with util_max 300";
  } catch (const workload_error& x) {
    EXPECT_NE(std::string(x.what()).find("its clamps would become util_min 400 above util_max 300"), std::string::npos)
        << x.what();
  }
}

// RT tasks' default boost (sysctl_sched_uclamp_util_min_rt_default) applies to SCHED_FIFO and
// SCHED_RR tasks that did not set util_min themselves (__setscheduler_uclamp: only when the
// request is not user_defined). With the default at 1000 (1.25 x 1000 > 1024: f_max), an RR
// task of 1 ms per 20 ms runs at the top, its 100 ms of work in exactly 100 ms of CPU time; a
// FIFO task that asked for util_min 0 runs at what its util asks for: the RT class's util_avg
// (rq->avg_rt) grows frequency-invariantly, by speed / 1024 while the task runs, so 1 ms of
// work per 20 ms keeps it near 1024 / 20 = 51 at any speed; 1.25 x that is the lowest state
// (200 MHz, speed 204), each 1 ms of work taking ceil(1 ms x 1024 / 204) = 5.019608 ms. (Fed
// at 1024 per ms of wall time instead, it would read ~5x more and ask for a higher state.)
TEST(SimUclamp, TheRtDefaultBoostIsForRtTasksThatAskedForNone) {
  for (const policy_entry& e : fair_entries()) {
    run_config c = machine({domain(1, 1024, five_states())}, 0);
    c.machine.uclamp_rt_min_default = 1000;
    workload rr = rt_periodic();
    rr.tasks[0].params.kind = sched_kind::rr;
    EXPECT_EQ(find(e.run(rr, c, {}), "rt").cpu_ns, 100 * msec(1)) << e.name;
    workload own = rt_periodic();
    own.tasks[0].util_min = 0;
    c.warmup_ns = msec(500);
    const run_result r = e.run(own, c, {});
    EXPECT_EQ(find(r, "rt").cpu_ns, 75 * ((msec(1) * 1024 + 203) / 204)) << e.name;
  }
}

// A deadline task takes no part in the clamps (dl_sched_class has no uclamp_enabled): a hog
// capped at util_max 300 (375 of 1024 with schedutil's margin: the 40 % state) beside a
// reservation of 1 ms per 10 ms, whose bandwidth (102) adds after the clamp (effective_cpu_util:
// 300 + 102 = 402, x 1.25 = 503: the 60 % state at most), never reaches the top state. Counted in
// the clamps, the reservation's default util_max 1024 would lift the cap whenever it is queued.
TEST(SimUclamp, DeadlineTasksTakeNoPartInTheClamps) {
  workload w;
  w.name = "dl-clamp";
  w.duration = sec(1);
  task_spec hog = scen::task("hog", 0, {ev::run(sec(10))});
  hog.util_max = 300;
  task_spec job = scen::task("job", 0, {ev::timer("t", msec(10)), ev::run(usec(500))});
  job.params = reservation(msec(1), msec(10));
  w.tasks = {hog, job};
  run_config c = machine({domain(1, 1024, five_states())}, 0);
  c.warmup_ns = msec(100);
  const run_result r = dl_entry().run(w, c, {});
  EXPECT_EQ(time_at(r.domains[0], 1000000), 0);
  EXPECT_EQ(time_at(r.domains[0], 800000), 0);
  EXPECT_GT(find(r, "job").cpu_ns, 0);
}

// A frequency change settles every CPU of the domain at the old speed first: work done before
// the change counts at the speed it was done at. CPU 0 runs a pinned hog of 100 ms of work
// (at speed 1024) alone, capped at util_max 300 (by itself the 40 % state); CPU 1, in the same
// domain, runs 2 ms of work per 3 ms of sleep, whose util (from the fork's 512 towards a swing
// of about 400..420: 1.25 x that is in the 60 % state) moves the domain at CPU 1's own events,
// between CPU 0's ticks (9 changes before the hog exits at about 176 ms). The hog's
// speed is piecewise constant, floor(1024 x f / 1 GHz) at each state f, so its exit time T
// satisfies sum(speed x time) over [0, T] = 100 ms x 1024 (plus under one ns at the last
// speed: the completion is rounded up). The trace gives each change to the nearest us: the sum
// from it is exact to 500 ns x |speed step| per change. Charging CPU 0's time since its last
// tick at the new speed instead misses by up to 1 ms x the step, per change.
TEST(SimEnergy, AFrequencyChangeSettlesTheDomainsOtherCpusAtTheOldSpeed) {
  workload w;
  w.name = "settle";
  w.duration = sec(1);
  task_spec hog = scen::task("hog", 0, {ev::run(msec(100))}, false);
  hog.loop = 1;
  hog.phases[0].loop = 1;
  hog.cpus = {0};
  hog.util_max = 300;  // CPU 0 alone asks for 1.25 x 300 = 375 of 1024: the 40 % state
  task_spec other = scen::task("other", 0, {ev::run(msec(2)), ev::sleep(msec(3))});
  other.cpus = {1};
  w.tasks = {hog, other};
  trace_writer trace;
  run_config c = machine({domain(2, 1024, five_states())}, 0);
  c.trace = &trace;
  const run_result r = schedcore_test::cfs_entry().run(w, c, {});
  const std::int64_t exit_ns = find(r, "hog").exit_ns;
  ASSERT_GT(exit_ns, msec(100));
  // CPU 0's speed timeline: (change time in ns, rounded to the us; speed out of 1024).
  std::vector<std::pair<std::int64_t, std::int64_t>> steps;
  std::istringstream lines(trace.text());
  for (std::string l; std::getline(lines, l);) {
    const std::size_t at = l.find(": cpu_frequency: state=");
    if (at == std::string::npos || l.find("cpu_id=0") == std::string::npos) continue;
    const std::size_t space = l.rfind(' ', at - 1);
    const std::int64_t ns = std::llround(std::stod(l.substr(space + 1, at - space - 1)) * 1e6) * 1000;
    const std::int64_t khz = std::stoll(l.substr(at + 23));
    steps.emplace_back(ns, khz * 1024 / 1000000);
  }
  ASSERT_GE(steps.size(), 5u) << "the other task should move the frequency";
  double work = 0, slack = 0;  // in ns x speed (1/1024 ns of full-speed work)
  for (std::size_t i = 0; i < steps.size() && steps[i].first < exit_ns; ++i) {
    const std::int64_t until = i + 1 < steps.size() ? std::min(steps[i + 1].first, exit_ns) : exit_ns;
    work += static_cast<double>(until - steps[i].first) * static_cast<double>(steps[i].second);
    if (i > 0) slack += 500.0 * static_cast<double>(std::llabs(steps[i].second - steps[i - 1].second));
  }
  EXPECT_NEAR(work, 1e8 * 1024, slack + 1024) << steps.size() << " changes";
}

// post_init_entity_util_avg reads the CPU's root queue as it stands: its util_avg includes the
// decaying util of tasks asleep there, and a new task's util is the smaller of half the
// capacity left, (1024 - util) / 2, and its weight's share of that util, util x w / (load + 1).
// Read from the trace's util counter at each task's first tick (one CPU, one state: speed 1024;
// PELT periods of 1.024 ms, y^32 = 1/2):
// - A starts alone at 512, runs 20 ms (19.5 periods: 1024 - 512 y^19.5 = 688) and sleeps; B,
//   forked 5 ms later (A's util decayed by y^4.9 to ~619, its load from 1024 to ~922), starts
//   at min((1024 - 619) / 2, 619 x 1024 / 923) = 202 and reads ~219 at its first tick. (Without
//   A's sleeping util it would start at 512.)
// - A at nice -10 (weight 9548) and B at nice 0 forked 1 ms later: A's util ~523, its load
//   ~9548, so B starts at its weight's share, 523 x 1024 / 9549 = 56, well under the cap
//   (1024 - 523) / 2 = 250, and decays while it waits behind A. (Without the load it takes the
//   cap.)
TEST(SimEnergy, ANewTasksFirstUtilCountsItsCpusSleepersAndLoad) {
  auto first_samples = [](const workload& w) {
    trace_writer trace;
    run_config c = machine({domain(1, 1024, {{1000000, 300000}})});
    c.trace = &trace;
    (void)schedcore_test::cfs_entry().run(w, c, {});
    std::map<int, int> first;  // pid -> its first util_avg sample
    std::istringstream lines(trace.text());
    for (std::string l; std::getline(lines, l);) {
      const std::size_t at = l.find("tracing_mark_write: C|");
      if (at == std::string::npos || l.find("|util_avg|") == std::string::npos) continue;
      first.emplace(std::stoi(l.substr(at + 22)), std::stoi(l.substr(l.rfind('|') + 1)));
    }
    return first;
  };
  workload sleeper;
  sleeper.name = "sleeper";
  sleeper.duration = msec(40);
  task_spec b = scen::task("b", 0, {ev::run(sec(1))});
  b.delay = msec(25);
  sleeper.tasks = {scen::task("a", 0, {ev::run(msec(20)), ev::sleep(sec(10))}), b};
  std::map<int, int> s = first_samples(sleeper);
  ASSERT_EQ(s.count(1001), 1u);
  EXPECT_GE(s[1001], 190);
  EXPECT_LE(s[1001], 250) << "B's start counts A's sleeping util";
  workload heavy;
  heavy.name = "heavy";
  heavy.duration = msec(60);
  task_spec a = scen::task("a", -10, {ev::run(sec(1))});
  b.delay = msec(1);
  heavy.tasks = {a, b};
  s = first_samples(heavy);
  ASSERT_EQ(s.count(1001), 1u);
  EXPECT_GE(s[1001], 20);
  EXPECT_LE(s[1001], 90) << "B's start is its weight's share of the util";
}

// util_est counts in a CPU's estimate only while its task is queued (util_est_enqueue /
// util_est_dequeue): once B sleeps, its CPU asks for its decaying util_avg alone. Two CPUs in
// one domain, util_est on: a hog capped at util_max 300 on CPU 0 (1.25 x 300 = 375: the 40 %
// state, capacity 409) and B on CPU 1, 20 ms of work per 60 ms of sleep, whose estimate and
// end-of-burst util (~430; x 1.25 = 538) ask for the 60 % state. B runs only at 600 MHz (its
// estimate joins at each wakeup), 20 ms of work at speed 614 taking 33.4 ms; after each burst
// CPU 0's ticks re-evaluate the domain and it drops to 400 MHz once B's util_avg decays below
// 409 / 1.25 = 327 (y^t = 327 / 430: t = 12.7 PELT periods, 13 ms), for the rest of the sleep.
// So the domain spends more than half the window at 400 MHz; were the sleeper's estimate
// kept, never.
TEST(SimEnergy, ASleepersUtilEstLeavesItsCpusEstimate) {
  workload w;
  w.name = "sleeper-estimate";
  w.duration = sec(3);
  task_spec hog = scen::task("hog", 0, {ev::run(sec(100))});
  hog.cpus = {0};
  hog.util_max = 300;
  task_spec b = scen::task("b", 0, {ev::run(msec(20)), ev::sleep(msec(60))});
  b.cpus = {1};
  w.tasks = {hog, b};
  run_config c = machine({domain(2, 1024, five_states())}, 0);
  c.machine.util_est = 1;
  c.warmup_ns = sec(1);
  const run_result r = schedcore_test::cfs_entry().run(w, c, {});
  const domain_result& d = r.domains[0];
  EXPECT_EQ(time_at(d, 400000) + time_at(d, 600000), r.duration_ns);
  EXPECT_GE(time_at(d, 600000), find(r, "b").cpu_ns) << "B runs at 600 MHz";
  EXPECT_GT(time_at(d, 400000), r.duration_ns / 2);
}

}  // namespace
