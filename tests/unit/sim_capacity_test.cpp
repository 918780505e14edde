// schedsim on machines whose CPUs differ in capacity (machine_model::capacity): work scaled by
// capacity, exactly; capacity-aware wakeup placement, misfit migration and its limits, each
// against an oracle computed from PELT's curve and the kernel's rules (smp/capacity.hpp);
// symmetric capacity lists that change nothing; refused capacity lists.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "sim_entries.hpp"
#include "sim_results.hpp"
#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "schedcore/policy/rt.hpp"
#include "schedcore/sim/engine.hpp"
#include "schedcore/sim/registry.hpp"
#include "schedcore/sim/report.hpp"
#include "schedcore/sim/scenarios.hpp"
#include "schedcore/smp/capacity.hpp"

namespace {

using namespace schedcore;
using namespace schedcore::sim;

std::vector<policy_entry> fair_entries() { return {schedcore_test::eevdf_entry(), schedcore_test::cfs_entry()}; }

using schedcore_test::capacity_machine;

task_spec finite(const std::string& name, std::vector<event> evs, std::int64_t delay = 0) {
  task_spec t = scen::task(name, 0, std::move(evs), false);
  t.phases[0].loop = 1;
  t.loop = 1;
  t.delay = delay;
  return t;
}

using schedcore_test::expect_conserved;
using schedcore_test::find;

// PELT's time to climb from `from` to `to` while running all the time on a CPU of `capacity`
// (util -> capacity with half-life 32 periods of 1.048576 ms), ms: the independent oracle of
// when a task becomes a misfit.
double pelt_climb_ms(double from, double to, double capacity) {
  const double periods = 32.0 * std::log2((capacity - from) / (capacity - to));
  return periods * 1.048576;
}

// A CPU of capacity c does c/1024 of the biggest CPU's work per unit of time: 100 ms of work
// takes 1024/c times as long, to the nanosecond (rounded up), alone or shared, and time spent
// in a `runtime` (wall time) does not stretch.
TEST(SimCapacity, WorkTakesLongerOnASmallerCpuInProportionToItsCapacity) {
  for (const std::uint32_t capacity : {1024u, 512u, 446u, 300u, 1u}) {
    for (const policy_entry& e : fair_entries()) {
      workload w;
      w.name = "one-cpu";
      w.duration = sec(400);
      w.tasks.push_back(finite("worker", {ev::run(msec(100))}));
      const run_result alone = e.run(w, capacity_machine({capacity}), {});
      const std::int64_t expected = (msec(100) * 1024 + capacity - 1) / capacity;
      EXPECT_EQ(find(alone, "worker").exit_ns, expected) << e.name << " capacity " << capacity;
      expect_conserved(alone);
      if (capacity == 1) continue;
      // Two tasks that preempt each other: the carried fractions lose nothing, so the last
      // one ends when the pair's 150 ms of work is done, within a nanosecond per switch.
      w.tasks = {finite("a", {ev::run(msec(100))}), finite("b", {ev::run(msec(50))})};
      const run_result shared = e.run(w, capacity_machine({capacity}), {});
      const double last = static_cast<double>(std::max(find(shared, "a").exit_ns, find(shared, "b").exit_ns));
      EXPECT_NEAR(last, msec(150) * 1024.0 / capacity,
                  static_cast<double>(find(shared, "a").switches + find(shared, "b").switches) + 2)
          << e.name << " capacity " << capacity;
      // A runtime is wall time: 30 ms on any CPU.
      w.tasks = {finite("wall", {ev::runtime(msec(30))})};
      EXPECT_EQ(find(e.run(w, capacity_machine({capacity}), {}), "wall").exit_ns, msec(30)) << e.name;
      expect_conserved(shared);
    }
  }
}

// A list of equal capacities is not an asymmetric machine: a list of 1024s changes nothing.
TEST(SimCapacity, ACapacityListOfEqualBigCpusChangesNothing) {
  const workload w = kernbench_4cpu();
  for (const policy_entry& e : fair_entries()) {
    run_config plain = capacity_machine({1024, 1024, 1024, 1024});
    plain.machine.capacity.clear();
    plain.duration_ns = msec(1500);
    run_config listed = capacity_machine({1024, 1024, 1024, 1024});
    listed.duration_ns = msec(1500);
    std::string a = to_json(e.run(w, plain, {})), b = to_json(e.run(w, listed, {}));
    for (const std::string cut : {", \"capacity\": [1024, 1024, 1024, 1024]", ", \"misfit_moves\": 0"}) {
      const std::size_t at = b.find(cut);
      ASSERT_NE(at, std::string::npos) << cut;
      b.erase(at, cut.size());
    }
    EXPECT_EQ(a, b) << e.name;
  }
}

// A hog that starts on the little CPU of a {1024, 446} machine while the big one is busy for
// 20 ms. Its util starts at 223 (half the little CPU's capacity) and climbs towards 446; it
// is a misfit once past 356 (80 % of 446), about 44 ms in by PELT's curve. By then the big
// CPU is idle, so the little CPU's tick sends it there (an active balance), and its 3 s of
// work ends at T + (3000 - T x 446/1024) ms. Left on the little CPU it would take 6888 ms;
// moved at once, 3000 ms.
TEST(SimCapacity, AMisfitMovesToAnIdleBigCpuWhenItsUtilPassesEightyPercent) {
  const double misfit_at = pelt_climb_ms(223, 357, 446);
  const double expected_exit = misfit_at + 3000 - misfit_at * 446 / 1024;
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "grow";
    w.duration = sec(20);
    w.tasks = {finite("filler", {ev::run(msec(20))}), finite("grow", {ev::run(sec(3))})};
    run_config cfg = capacity_machine({1024, 446});
    trace_writer trace;
    cfg.trace = &trace;
    const run_result r = e.run(w, cfg, {});
    expect_conserved(r);
    const task_result& grow = find(r, "grow");
    // The trace's util_avg counter on the little CPU: it rises from 223 and the move follows
    // the first tick that reads 357 or more, on the next switch of CPU 1.
    const std::string& text = trace.text();
    std::size_t at = 0;
    int first = -1, last_little = -1;
    while ((at = text.find("|util_avg|", at)) != std::string::npos) {
      const std::size_t line = text.rfind('\n', at) + 1;
      const int value = std::stoi(text.substr(at + 10));
      if (text.substr(line, at - line).find(" [001] ") != std::string::npos) {
        if (first < 0) first = value;
        last_little = value;
      }
      at += 10;
    }
    EXPECT_EQ(first, 223) << e.name << ": a fork on an idle CPU of capacity 446";
    EXPECT_GE(last_little, 357) << e.name << ": the last sample on the little CPU is the misfit's";
    EXPECT_LT(last_little, 446) << e.name;
    EXPECT_EQ(grow.migrations, 1u) << e.name;
    EXPECT_EQ(r.totals.misfit_moves, 1u) << e.name;
    // Within two ticks and a PELT period of the curve's crossing.
    EXPECT_NEAR(static_cast<double>(grow.exit_ns) / 1e6, expected_exit, 2.0) << e.name;
  }
}

// Where the tick sends a misfit (check_misfit_status / nohz_balancer_kick here: the idle CPU of
// greatest capacity, the lowest index on a tie, among the CPUs the task may use and only of a
// capacity greater by more than ~5 %, capacity_greater). A hog "grow" starts alone on the
// little CPU 0 (446; every CPU is empty: the first) and becomes a misfit about 44 ms in (util
// past 356, as in AMisfitMovesToAnIdleBigCpuWhenItsUtilPassesEightyPercent); the other CPUs
// idle or run a pinned hog. The trace's sched_migrate_task line says where it went.
// - {446, 700, 1024, 1024}: CPU 2 (the biggest idle, the first of two), not the first bigger
//   one (CPU 1) nor the last biggest (CPU 3);
// - {446, 700, 1024} with grow allowed on CPUs 0 and 1: CPU 1, the biggest it may use;
// - {446, 460}: nowhere (460 is not greater than 446 by ~5 %: 460 x 1024 = 471040 <= 446 x
//   1078 = 480788; nothing else moves a task between two CPUs that hold one task between
//   them), so grow never moves.
TEST(SimCapacity, TheTickSendsAMisfitToTheBiggestIdleCpuItMayUse) {
  struct variant {
    std::vector<std::uint32_t> capacity;
    std::vector<int> grow_cpus;
    int to;  // -1: no move
  };
  const variant variants[] = {{{446, 700, 1024, 1024}, {}, 2}, {{446, 700, 1024}, {0, 1}, 1}, {{446, 460}, {}, -1}};
  for (const policy_entry& e : fair_entries()) {
    for (const variant& v : variants) {
      SCOPED_TRACE(e.name + " on " + std::to_string(v.capacity.size()) + " CPUs, CPU 1 of " +
                   std::to_string(v.capacity[1]));
      workload w;
      w.name = "misfit-target";
      w.duration = msec(200);
      task_spec grow = finite("grow", {ev::run(sec(10))});
      grow.cpus = v.grow_cpus;
      w.tasks = {grow};
      run_config cfg = capacity_machine(v.capacity);
      trace_writer trace;
      cfg.trace = &trace;
      const run_result r = e.run(w, cfg, {});
      expect_conserved(r);
      const std::string& text = trace.text();
      if (v.to < 0) {
        EXPECT_EQ(find(r, "grow").migrations, 0u);
        EXPECT_EQ(text.find("sched_migrate_task: comm=grow "), std::string::npos);
      } else {
        EXPECT_EQ(find(r, "grow").migrations, 1u);
        EXPECT_EQ(r.totals.misfit_moves, 1u);
        EXPECT_NE(text.find("sched_migrate_task: comm=grow pid=1000 prio=120 orig_cpu=0 dest_cpu=" + std::to_string(v.to)),
                  std::string::npos);
      }
    }
  }
}

// The same hog beside a big CPU that is fully busy: a hog there since 100 ms before, whose
// util (above 875) leaves no spare capacity (group_has_spare needs 17 % headroom). The
// kernel's balance then leaves the misfit alone; so does this one: no migration, and each hog
// has its CPU to itself.
TEST(SimCapacity, AMisfitStaysWhenTheBigCpuHasNoSpareCapacity) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "no-spare";
    w.duration = sec(2);
    w.tasks = {scen::task("big", 0, {ev::run(sec(100))}), scen::task("little", 0, {ev::run(sec(100))})};
    w.tasks[1].delay = msec(100);
    const run_result r = e.run(w, capacity_machine({1024, 446}), {});
    expect_conserved(r);
    EXPECT_EQ(r.totals.migrations, 0u) << e.name;
    EXPECT_EQ(find(r, "little").cpu_ns, sec(2) - msec(100)) << e.name;
    EXPECT_EQ(find(r, "big").cpu_ns, sec(2)) << e.name;
  }
}

// A periodic task that needs 4 ms of big-CPU work every 10 ms (util 409 on any CPU), alone on
// a {446, 1024} machine. It starts on the little CPU, where a burst lasts 9.18 ms; rt-app's
// timer takes its reference at its first use, so bursts start at 0, 19.18, 29.18... ms and
// end 0.82 ms before the next release. HZ 100 with the ticks at 8.8 ms past each 10 ms puts
// every tick but the first (8.8 ms, util far below the threshold) in those sleeps, so no tick
// sees it run there and only a wakeup can move it: the first wakeup at which its util has
// passed 356 finds the little CPU too small and takes the idle big one (select_idle_capacity).
// It then stays: 409 fits 1024. The oracle follows PELT's continuous curve (half-life 32
// periods, util -> 446 while running there, -> 0 while asleep) from its starting 223.
TEST(SimCapacity, AWakingTaskTakesAnIdleCpuItsUtilFits) {
  const double half_life_ms = 32 * 1.048576, burst_ms = 4 * 1024.0 / 446;
  double util = 446 - (446 - 223) * std::exp2(-burst_ms / half_life_ms);
  util *= std::exp2(-10 / half_life_ms);  // the first timer use waits a whole period
  double release_ms = burst_ms + 10;
  while (util < 357) {
    util = 446 - (446 - util) * std::exp2(-burst_ms / half_life_ms);
    util *= std::exp2(-(10 - burst_ms) / half_life_ms);
    release_ms += 10;
  }
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "periodic";
    w.duration = msec(300);
    w.hz = 100;
    w.tasks = {scen::task("periodic", 0, {ev::run(msec(4)), ev::timer("tick", msec(10), true)})};
    run_config cfg = capacity_machine({446, 1024});
    cfg.machine.tick_phase_ns = usec(8800);
    trace_writer trace;
    cfg.trace = &trace;
    const run_result r = e.run(w, cfg, {});
    expect_conserved(r);
    EXPECT_EQ(find(r, "periodic").migrations, 1u) << e.name;
    EXPECT_EQ(r.totals.misfit_moves, 0u) << e.name << ": moved by its wakeup, not by a balance";
    // The first wakeup on the big CPU.
    const std::string& text = trace.text();
    const std::size_t hit = text.find("target_cpu=001");
    ASSERT_NE(hit, std::string::npos) << e.name;
    const std::size_t line = text.rfind('\n', hit) + 1;
    const std::size_t colon = text.find(": sched_wak", line);  // sched_waking, then sched_wakeup
    ASSERT_LT(colon, hit) << text.substr(line, hit - line);
    const std::size_t stamp = text.rfind(' ', colon) + 1;
    const double moved_ms = std::stod(text.substr(stamp, colon - stamp)) * 1e3;
    // PELT refreshes its averages once per period: one burst of slack either way.
    EXPECT_NEAR(moved_ms, release_ms, 10.5) << e.name;
  }
}

// A hog left sharing a big CPU with a task pinned there, while another big CPU idles and so
// does a little one that comes first. The busy CPU's tick kicks an idle CPU to balance
// (nohz_balancer_kick); the kernel's idle-load-balance CPU then balances on behalf of every
// idle CPU whose tick is stopped (_nohz_idle_balance), so the idle big CPU takes the hog.
// Here the little CPU 0 is kicked: the hog exceeds its capacity and the other task is
// pinned, so it takes nothing, and the idle big CPU must still get its turn. Over the times
// at which CPU 2's short task leaves (the hog then running or waiting on CPU 1), the hog ends
// up alone on the big CPU 2 within a few balance intervals.
TEST(SimCapacity, AnIdleBigCpuTakesAHogSharingABusyOneWhenTheKickedIdleCpuIsLittle) {
  for (const policy_entry& e : fair_entries()) {
    for (const std::int64_t leave_us : {1500, 2000, 2500, 3000, 3500, 5000, 7000}) {
      workload w;
      w.name = "strand";
      w.duration = sec(2);
      w.tasks = {finite("z", {ev::run(msec(1))}), finite("y", {ev::run(usec(leave_us))}),
                 scen::task("hog", 0, {ev::run(msec(100))}, false),
                 scen::task("pinned", 0, {ev::run(msec(100))}, false)};
      w.tasks[0].cpus = {0};
      w.tasks[1].cpus = {2};
      w.tasks[3].cpus = {1};
      const run_result r = e.run(w, capacity_machine({446, 1024, 1024}), {});
      expect_conserved(r);
      EXPECT_GE(find(r, "hog").cpu_ns, sec(2) - msec(30)) << e.name << ", y leaves at " << leave_us << " us";
      EXPECT_GE(find(r, "pinned").cpu_ns, sec(2) - msec(30)) << e.name << ", y leaves at " << leave_us << " us";
    }
  }
}

// An active balance that moves a misfit to a big CPU where another task runs: the little CPU
// it left goes idle and balances at once, and the misfit (util <= 446, so no larger than the
// little CPU) is queued, not running, on a CPU with two tasks: the newly-idle pull took it
// straight back, a round trip in zero time that counted two migrations and a misfit move and
// left it where it was. The kernel's newly-idle balance does not take it: it ran within
// sysctl_sched_migration_cost (task_hot). Oracle: every migration of the misfit is followed
// by a run on the CPU it moved to (a CPU change between its switches in the trace), and a
// few misfit moves at most.
TEST(SimCapacity, AnActiveBalanceIsNotUndoneByTheNewlyIdlePullOfTheCpuItLeft) {
  for (const policy_entry& e : fair_entries()) {
    workload w;
    w.name = "bounce";
    w.duration = msec(200);
    w.tasks = {scen::task("b", 0, {ev::run(msec(2)), ev::timer("t", msec(4), true)}, false),
               scen::task("m", 0, {ev::run(msec(100))}, false)};
    w.tasks[0].cpus = {0};
    run_config cfg = capacity_machine({1024, 446});
    trace_writer trace;
    cfg.trace = &trace;
    const run_result r = e.run(w, cfg, {});
    expect_conserved(r);
    const std::string& text = trace.text();
    std::uint64_t changes = 0;
    int last = -1;
    for (std::size_t at = 0; (at = text.find("next_comm=m", at)) != std::string::npos; ++at) {
      const std::size_t line = text.rfind('\n', at) + 1;
      const std::size_t open = text.find(" [", line);
      const int on = std::stoi(text.substr(open + 2, 3));
      if (last >= 0 && on != last) ++changes;
      last = on;
    }
    // The premise first: the misfit was moved by an active balance (otherwise the two checks
    // below hold as 0 == 0 and 0 <= 0).
    EXPECT_GE(r.totals.misfit_moves, 1u) << e.name;
    EXPECT_GT(changes, 0u) << e.name;
    EXPECT_EQ(find(r, "m").migrations, changes) << e.name;
    EXPECT_LE(r.totals.misfit_moves, changes) << e.name;
  }
}

// Capacity lists the engine refuses, as a workload error that names the problem.
// RT placement on CPUs of different capacity (select_task_rq_rt with rt_task_fits_capacity,
// 5.6+; cpupri_find_fitness, 5.10+). Oracle: a CPU fits an RT task when its capacity covers
// min(uclamp_min, uclamp_max), RT tasks' uclamp_min defaulting to uclamp_rt_min_default (1024).
// A FIFO 50 task of 1 ms every 10 ms starts on little CPU 0 of {446, 446, 1024}: by default
// its first wakeup moves it to the big CPU 2 and it stays there; with the default boost lowered
// to 0 (what Android writes to sched_util_clamp_min_rt_default) or its own util_min 400, little
// CPUs fit it and it never moves (it stays on its previous CPU: the RT class does not look for
// an idle one while nothing of its priority runs there).
task_spec rt_periodic(const std::string& name, int prio, std::int64_t delay = 0) {
  task_spec t = scen::task(name, 0, {ev::run(msec(1)), ev::timer("tick", msec(10), true)});
  t.params = sched_params{};
  t.params.kind = sched_kind::fifo;
  t.params.rt_priority = static_cast<std::uint8_t>(prio);
  t.delay = delay;
  return t;
}
task_spec rt_hog(const std::string& name, int prio, int pinned, std::int64_t delay = 0) {
  task_spec t = scen::task(name, 0, {ev::run(sec(10))});
  t.params = sched_params{};
  t.params.kind = sched_kind::fifo;
  t.params.rt_priority = static_cast<std::uint8_t>(prio);
  t.cpus = {pinned};
  t.delay = delay;
  t.daemon = true;
  return t;
}

TEST(SimRtCapacity, ARealTimeTaskMovesToABigCpuUnlessItsBoostFitsALittleOne) {
  for (const policy_entry& e : fair_entries()) {
    for (int variant = 0; variant < 3; ++variant) {
      workload w;
      w.name = "rt-fit";
      w.duration = msec(300);
      w.tasks = {rt_periodic("rt", 50)};
      run_config cfg = capacity_machine({446, 446, 1024});
      if (variant == 1) cfg.machine.uclamp_rt_min_default = 0;
      if (variant == 2) w.tasks[0].util_min = 400;
      trace_writer trace;
      cfg.trace = &trace;
      const run_result r = e.run(w, cfg, {});
      expect_conserved(r);
      EXPECT_EQ(find(r, "rt").migrations, variant == 0 ? 1u : 0u) << e.name << " variant " << variant;
      const bool on_big = trace.text().find("target_cpu=002") != std::string::npos;
      EXPECT_EQ(on_big, variant == 0) << e.name << " variant " << variant;
      EXPECT_GE(find(r, "rt").cpu_ns, msec(29)) << e.name;
    }
  }
}

// When no CPU below its priority fits, the lowest-priority CPUs are taken without the fit, but
// a move made only for the fit is not made to a CPU that does not fit either: on {446, 1024}
// with a FIFO 90 hog pinned to the big CPU, the FIFO 50 task stays on little CPU 0. When a
// FIFO 60 hog pinned to its big CPU arrives (at 100.5 ms, preempting it), it leaves for the
// little CPU, which does not fit but runs nothing of higher priority. On {446, 1024, 1024},
// a FIFO 60 hog allowed on both big CPUs arrives on CPU 1 while the task sleeps: at its next
// wakeup (112.3 ms) CPU 1 runs a task of higher priority, so it goes to the other big CPU.
TEST(SimRtCapacity, WithoutAFittingCpuItTakesTheLowestPriorityOne) {
  for (const policy_entry& e : fair_entries()) {
    {
      workload w;
      w.name = "rt-nofit";
      w.duration = msec(300);
      w.tasks = {rt_hog("hog90", 90, 1), rt_periodic("rt", 50, msec(1))};
      const run_result r = e.run(w, capacity_machine({446, 1024}), {});
      expect_conserved(r);
      EXPECT_EQ(find(r, "rt").migrations, 0u) << e.name;
      EXPECT_GE(find(r, "rt").cpu_ns, msec(29)) << e.name;
    }
    {
      workload w;
      w.name = "rt-displaced";
      w.duration = msec(300);
      w.tasks = {rt_periodic("rt", 50), rt_hog("hog60", 60, 1, msec(100) + usec(500))};
      trace_writer trace;
      run_config cfg = capacity_machine({446, 1024});
      cfg.trace = &trace;
      const run_result r = e.run(w, cfg, {});
      expect_conserved(r);
      EXPECT_EQ(find(r, "rt").migrations, 2u) << e.name << ": to the big CPU, then back when the hog takes it";
      EXPECT_LT(find(r, "rt").latency.max, msec(2)) << e.name << ": never waits long behind the hog";
    }
    {
      workload w;
      w.name = "rt-outranked";
      w.duration = msec(300);
      task_spec hog = rt_hog("hog60", 60, 1, msec(105));
      hog.cpus = {1, 2};
      w.tasks = {rt_periodic("rt", 50), hog};
      trace_writer trace;
      run_config cfg = capacity_machine({446, 1024, 1024});
      cfg.trace = &trace;
      const run_result r = e.run(w, cfg, {});
      expect_conserved(r);
      EXPECT_EQ(find(r, "rt").migrations, 2u) << e.name;
      // Its wakeups come 2.296 ms into each 10 ms (the first run of 1 ms on the little CPU
      // takes 1024/446 ms = 2.29596 ms; the trace rounds to the µs): the first after the hog's
      // arrival.
      EXPECT_NE(trace.text().find(" 0.112296: sched_waking: comm=rt pid=1000 prio=49 target_cpu=002"), std::string::npos)
          << e.name;
      EXPECT_EQ(find(r, "rt").latency.max, 0) << e.name;
    }
  }
}

// select_task_rq_rt: a move asked for only because the task does not fit its CPU (its running
// task does not outrank it) is not made to a CPU that does not fit either
// (`!test && !rt_task_fits_capacity(p, target)`: the task stays and preempts there). CPUs of
// 1024, 512 and 512; RT tasks' default uclamp_min is 1024, so only CPU 0 fits one. B (FIFO 90)
// is pinned to CPU 0. T (FIFO 50) starts on the idle CPU 1 and sleeps 1 ms; L (FIFO 10, not
// pinned) starts at 0.5 ms on CPU 1 (the first of the two empty CPUs). At 1 ms T wakes on
// CPU 1: L does not outrank it, but T does not fit there; find_lowest_rq has no fitting CPU
// below 50 (CPU 0 runs B) and falls back to the lowest level, CPU 2 (0; CPU 1 is at 10), which
// does not fit either: T stays on CPU 1 and preempts L. After that switch CPU 1 pushes L to
// CPU 2 (its level 0 is below L's 10): one push, and T never moves.
TEST(SimRtCapacity, AMoveOnlyForTheFitIsNotMadeToACpuThatDoesNotFitEither) {
  for (const policy_entry& e : fair_entries()) {
    SCOPED_TRACE(e.name);
    workload w;
    w.name = "rt-fit-only";
    w.duration = msec(5);
    task_spec t = finite("T", {ev::sleep(msec(1)), ev::run(msec(1)), ev::on(event_kind::suspend, "never")});
    t.params.kind = sched_kind::fifo;
    t.params.rt_priority = 50;
    t.daemon = true;
    task_spec l = rt_hog("L", 10, 1, usec(500));
    l.cpus = {};
    w.tasks = {rt_hog("B", 90, 0), t, l};
    const run_result r = e.run(w, capacity_machine({1024, 512, 512}), {});
    expect_conserved(r);
    EXPECT_EQ(find(r, "T").migrations, 0u);
    EXPECT_EQ(find(r, "T").wait_ns, 0);
    EXPECT_EQ(find(r, "L").migrations, 1u);
    EXPECT_EQ(r.totals.rt_pushes, 1u);
  }
}

// A big CPU's balance pulls a misfit only with spare capacity (group_has_spare): not while it
// runs a real-time task (capacity_of leaves the fair class nothing of a CPU the RT class
// fills), and at once when it goes idle (its newly idle balance: an empty CPU has all its
// capacity spare). {446, 1024}: R (FIFO 50, pinned to CPU 1) runs 100.5 ms and exits; the fair
// hog "grow" runs on CPU 0 and is a misfit from about 44 ms on. While R runs, no CPU is idle
// (no tick kick) and CPU 1 has no spare capacity: grow stays. When R exits, CPU 1's newly idle
// balance pulls grow at once (the active balance moves it in the same instant, 100.5 ms), not
// at CPU 0's next tick.
TEST(SimCapacity, ABigCpuPullsAMisfitWhenItGoesIdleNotWhileItRunsARealTimeTask) {
  for (const policy_entry& e : fair_entries()) {
    SCOPED_TRACE(e.name);
    workload w;
    w.name = "misfit-spare";
    w.duration = msec(200);
    task_spec rt = finite("R", {ev::run(msec(100) + usec(500))});
    rt.params.kind = sched_kind::fifo;
    rt.params.rt_priority = 50;
    rt.cpus = {1};
    rt.daemon = true;
    w.tasks = {rt, finite("grow", {ev::run(sec(10))})};
    run_config cfg = capacity_machine({446, 1024});
    trace_writer trace;
    cfg.trace = &trace;
    const run_result r = e.run(w, cfg, {});
    expect_conserved(r);
    EXPECT_EQ(find(r, "grow").migrations, 1u);
    EXPECT_EQ(r.totals.misfit_moves, 1u);
    EXPECT_NE(trace.text().find(" 0.100500: sched_migrate_task: comm=grow pid=1001 prio=120 orig_cpu=0 dest_cpu=1"),
              std::string::npos);
  }
}

// And not at all when the bigger CPU has no spare capacity or is not bigger enough. The fair hog
// "grow" on the little CPU 0 as above (a misfit from about 44 ms on), 200 ms:
// - {446, 1024} with two fair hogs pinned to CPU 1: two tasks leave it no spare capacity
//   (group_has_spare: nr_running >= the group's one CPU, and its util is full), and no CPU is
//   idle: grow never moves;
// - {446, 460} with R (FIFO 50, pinned to CPU 1: 45 ms of work, which takes 45 x 1024 / 460 =
//   100.17 ms there) exiting then: CPU 1's newly idle balance finds it idle, but 460 is not
//   greater than 446 by ~5 % (capacity_greater), so it does not pull grow (nor does the tick,
//   for the same reason).
TEST(SimCapacity, ABigCpuWithNoSpareCapacityOrNotBiggerEnoughDoesNotPullAMisfit) {
  for (const policy_entry& e : fair_entries()) {
    SCOPED_TRACE(e.name);
    for (const bool two_hogs : {true, false}) {
      workload w;
      w.name = "misfit-no-pull";
      w.duration = msec(200);
      w.tasks = {finite("grow", {ev::run(sec(10))})};
      if (two_hogs) {
        for (const char* name : {"hog1", "hog2"}) {
          task_spec hog = finite(name, {ev::run(sec(10))});
          hog.cpus = {1};
          w.tasks.push_back(hog);
        }
      } else {
        task_spec rt = finite("R", {ev::run(msec(45))});
        rt.params.kind = sched_kind::fifo;
        rt.params.rt_priority = 50;
        rt.cpus = {1};
        rt.daemon = true;
        w.tasks.push_back(rt);
      }
      const run_result r = e.run(w, capacity_machine(two_hogs ? std::vector<std::uint32_t>{446, 1024}
                                                              : std::vector<std::uint32_t>{446, 460}), {});
      expect_conserved(r);
      EXPECT_EQ(find(r, "grow").migrations, 0u) << (two_hogs ? "two hogs" : "460");
      EXPECT_EQ(r.totals.misfit_moves, 0u);
    }
  }
}

TEST(SimCapacity, BadCapacityListsAreRefused) {
  workload w;
  w.name = "bad";
  w.duration = msec(10);
  w.tasks = {finite("t", {ev::run(msec(1))})};
  const policy_entry e = fair_entries()[0];
  auto message = [&](run_config cfg) -> std::string {
    try {
      e.run(w, cfg, {});
    } catch (const workload_error& x) {
      return x.what();
    }
    return "accepted";
  };
  run_config three = capacity_machine({1024, 446, 446});
  three.cpus = 2;
  EXPECT_NE(message(three).find("3 entries for 2 CPUs"), std::string::npos) << message(three);
  EXPECT_NE(message(capacity_machine({1024, 0})).find("1..1024"), std::string::npos);
  EXPECT_NE(message(capacity_machine({1025, 512})).find("1..1024"), std::string::npos);
}

}  // namespace
