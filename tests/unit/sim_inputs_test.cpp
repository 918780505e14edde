// The simulator's inputs at their own API, without running the engine: interbench's periodic
// job rules (sim/interbench_job.hpp, the steps of interbench's periodic_schedule() as
// interbench.md §2 and §4 describe them), the energy-model file reader (sim/energy_file.hpp,
// the format in its header comment and docs/guides/energy.md) and the workload constructors
// (sim/workload.hpp). Each test pins a rule that the engine-level tests (sim_engine_test's
// interbench cases, sim_energy_test's bad models, sim_cli_test's --energy-model) do not reach:
// boundaries (woken exactly at target + interval, a file of exactly 1 MiB), the early wake of
// X, the zero-interval step, statistics after a warm-up, defaults and ranges of the file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include <unistd.h>

#include "schedcore/sim/energy_file.hpp"
#include "schedcore/sim/interbench_job.hpp"
#include "schedcore/sim/workload.hpp"

namespace {

using namespace schedcore;
using namespace schedcore::sim;

constexpr std::int64_t ms = 1000000;  // the clock's unit is ns, as in the simulator
constexpr std::int64_t burn = interbench_job::burn;
constexpr std::int64_t no_sleep = interbench_job::no_sleep;

// ---------------------------------------------------------------------------------------------
// interbench_job

// Woken exactly at target + interval is not "past" it (interbench.md §2 step 2: dropped only
// when now is already past target + interval): the job still burns, and it then misses its
// deadline. Job at 0 (2 ms work, 10 ms interval) ends at 2, sleeps to 10; woken at 20 = 10 +
// 10: latency 10 ms, burn; it ends at 21, past its deadline 20: k = (21 - 20)/10 + 1 = 1
// deadline missed, sample 10 + 10 = 20 ms, next target 30, and (k = 1) no burn missed.
TEST(SimInputsInterbench, WokenExactlyAtTargetPlusIntervalBurnsAndOneLateDeadlineMissesNoBurn) {
  interbench_job j;
  ASSERT_EQ(j.begin_step(0, 10 * ms, 0), burn);
  ASSERT_EQ(j.finish(2 * ms), 10 * ms);
  EXPECT_EQ(j.begin_step(20 * ms, 10 * ms, 0), burn);
  EXPECT_EQ(j.finish(21 * ms), 30 * ms);
  ASSERT_EQ(j.samples.size(), 2u);
  EXPECT_EQ(j.samples[1], 20 * ms);
  EXPECT_EQ(j.deadlines_met, 1u);
  EXPECT_EQ(j.deadlines_missed, 1u);
  EXPECT_EQ(j.burns_done, 2u);
  EXPECT_EQ(j.burns_missed, 0u);  // "if k > 1 the missed-burn counter also grows by k"
}

// A wake delay that does not cost the deadline is still the step's latency (§2 step 1):
// target 10, woken at 13, work ends at 15 <= 20: met, sample 3 ms, sleep until 20.
TEST(SimInputsInterbench, LatencyOfAStepThatMeetsItsDeadlineIsItsWakeDelay) {
  interbench_job j;
  ASSERT_EQ(j.begin_step(0, 10 * ms, 0), burn);
  ASSERT_EQ(j.finish(2 * ms), 10 * ms);
  ASSERT_EQ(j.begin_step(13 * ms, 10 * ms, 0), burn);
  EXPECT_EQ(j.finish(15 * ms), 20 * ms);
  ASSERT_EQ(j.samples.size(), 2u);
  EXPECT_EQ(j.samples[1], 3 * ms);
  EXPECT_EQ(j.deadlines_met, 2u);
}

// A dropped job with a push-back (X): the task sleeps until q, not q + push-back, and the
// next step's target is q + push-back (interbench's `deadline += pushback` after
// periodic_schedule returns). Step at 0 (interval 10, push 3) ends at 1: sleeps to 10, target
// 13. Woken at 35 with interval 10, push 4: 35 > 13 + 10, dropped, q = 23, k = (35 - 23)/10
// + 1 = 2, q = 43: it sleeps until 43, sample (35 - 13) + 20 = 42 ms, next target 47.
// Woken at 43: 4 ms before its target, so latency 0 (max(0, now - target)).
TEST(SimInputsInterbench, DroppedJobSleepsUntilTheDeadlineAndPushesTheNextTargetBack) {
  interbench_job j;
  ASSERT_EQ(j.begin_step(0, 10 * ms, 3 * ms), burn);
  ASSERT_EQ(j.finish(1 * ms), 10 * ms);
  EXPECT_EQ(j.begin_step(35 * ms, 10 * ms, 4 * ms), 43 * ms);
  ASSERT_EQ(j.samples.size(), 2u);
  EXPECT_EQ(j.samples[1], 42 * ms);
  EXPECT_EQ(j.deadlines_missed, 2u);
  EXPECT_EQ(j.burns_missed, 2u);
  ASSERT_EQ(j.begin_step(43 * ms, 10 * ms, 0), burn);
  // The deadline is target + interval = 47 + 10: ending at 50 meets it.
  EXPECT_EQ(j.finish(50 * ms), 57 * ms);
  ASSERT_EQ(j.samples.size(), 3u);
  EXPECT_EQ(j.samples[2], 0);
  EXPECT_EQ(j.deadlines_met, 2u);
}

// X's early wake (interbench.md §2, "X"): after step i the target is pushed back i ms but the
// task sleeps only until the deadline, so it wakes i ms before its target. That is no negative
// latency: the sample is 0, and the average stays 0 (a negative sample would pull it below).
// Step 1 at 0: 1 ms of work, interval 99, push 1: ends at 1, sleeps until 99, target 100.
// Step 2 at 99 (1 ms early): sample 0.
TEST(SimInputsInterbench, EarlyWakeOfXIsNoNegativeLatency) {
  interbench_job j;
  ASSERT_EQ(j.begin_step(0, 99 * ms, 1 * ms), burn);
  ASSERT_EQ(j.finish(1 * ms), 99 * ms);
  ASSERT_EQ(j.begin_step(99 * ms, 98 * ms, 2 * ms), burn);
  EXPECT_EQ(j.finish(101 * ms), 198 * ms);  // deadline = target 100 + interval 98
  ASSERT_EQ(j.samples.size(), 2u);
  EXPECT_EQ(j.samples[1], 0);
  EXPECT_EQ(j.summary().avg_ms, 0);
}

// Ending exactly at the deadline meets it and returns no_sleep rather than a sleep of 0 ns (a
// sleep until now would be a needless dequeue/enqueue in the engine): X's step i alone ends at
// exactly 100 i ms (sim_engine_test's X ramp). Step at 0, 4 ms of work, interval 4: ends at 4.
TEST(SimInputsInterbench, EndingExactlyAtTheDeadlineMeetsItWithoutSleeping) {
  interbench_job j;
  ASSERT_EQ(j.begin_step(0, 4 * ms, 0), burn);
  EXPECT_EQ(j.finish(4 * ms), no_sleep);
  EXPECT_EQ(j.deadlines_met, 1u);
  EXPECT_EQ(j.deadlines_missed, 0u);
  // The next target is the deadline itself: woken at 6, 2 ms late.
  ASSERT_EQ(j.begin_step(6 * ms, 4 * ms, 0), burn);
  EXPECT_EQ(j.lat, 2 * ms);
}

// The zero-interval step (X's step 100: 100 % CPU, no deadline, no sleep). Woken late it is
// never dropped (no interval to be past, and no division by it); ending late it counts no
// deadline, and the next target is its end plus its push-back (q = now: interbench's
// periodic_schedule returns the current time when the interval is 0).
// Step at 0 (interval 10, push 0) ends at 1: sleeps to 10. Zero-interval step woken at 15
// (target 10): burn, latency 5; it ends at 40: no deadline, no sleep, target 40 + 6 = 46.
// Next step woken at 45: 1 ms early, latency 0 (with the old target 10 + 6 it would be 29).
TEST(SimInputsInterbench, ZeroIntervalStepIsNeverDroppedAndRestartsTheClockAtItsEnd) {
  interbench_job j;
  ASSERT_EQ(j.begin_step(0, 10 * ms, 0), burn);
  ASSERT_EQ(j.finish(1 * ms), 10 * ms);
  EXPECT_EQ(j.begin_step(15 * ms, 0, 6 * ms), burn);
  EXPECT_EQ(j.finish(40 * ms), no_sleep);
  ASSERT_EQ(j.samples.size(), 2u);
  EXPECT_EQ(j.samples[1], 5 * ms);
  EXPECT_EQ(j.deadlines_met, 1u);
  EXPECT_EQ(j.deadlines_missed, 0u);
  EXPECT_EQ(j.burns_done, 2u);
  ASSERT_EQ(j.begin_step(45 * ms, 100 * ms, 0), burn);
  EXPECT_EQ(j.lat, 0);
}

// A target of 0 is a real target, not "no step yet" (the field's -1 is): a zero-interval step
// of no work at clock 0 leaves target 0, and a step woken at 4 ms is 4 ms late. (Treating 0 as
// "first step" would restart the clock there and report 0.)
TEST(SimInputsInterbench, TargetZeroIsARealTarget) {
  interbench_job j;
  ASSERT_EQ(j.begin_step(0, 0, 0), burn);
  ASSERT_EQ(j.finish(0), no_sleep);
  ASSERT_EQ(j.target, 0);
  ASSERT_EQ(j.begin_step(4 * ms, 10 * ms, 0), burn);
  EXPECT_EQ(j.lat, 4 * ms);
}

// Gaming (§2): lateness = max(0, end - (start + work)). `work` is a nominal time and the
// caller's clock is its own (the kernel check measures a calibrated loop on CLOCK_MONOTONIC),
// so a chunk may end before start + work: that is no negative lateness, which would pull the
// average down and the desired-CPU counter up. Sample 0, nothing missed, desired CPU 100 %.
TEST(SimInputsInterbench, GamingChunkEndingEarlyIsNotNegativelyLate) {
  interbench_job j;
  j.begin_chunk(10 * ms, 100 * ms);
  EXPECT_EQ(j.finish(80 * ms), no_sleep);
  ASSERT_EQ(j.samples.size(), 1u);
  EXPECT_EQ(j.samples[0], 0);
  EXPECT_EQ(j.burns_missed, 0u);
  EXPECT_EQ(j.summary().desired_cpu_pct, 100);
}

// One sample: interbench's "SD" divides by n - 1, so it is defined as 0 (§4), not 0/0. The
// first step (target = its wake, 0) ends at 25 ms, past its deadline 10: k = (25 - 10)/10 + 1
// = 2, one sample of 20 ms: avg 20, max 20, "SD" 0, true SD 0.
TEST(SimInputsInterbench, OneSampleHasZeroSd) {
  interbench_job j;
  ASSERT_EQ(j.begin_step(0, 10 * ms, 0), burn);
  ASSERT_EQ(j.finish(25 * ms), 30 * ms);
  const job_summary s = j.summary();
  EXPECT_EQ(s.samples, 1u);
  EXPECT_DOUBLE_EQ(s.avg_ms, 20);
  EXPECT_DOUBLE_EQ(s.max_ms, 20);
  EXPECT_EQ(s.rms_ms, 0);
  EXPECT_EQ(s.sd_ms, 0);
}

// A warm-up's end forgets every statistic (samples, burns, deadlines) but keeps the step
// state: the step after it still measures from the old target. Late finish before the
// clear: k = (35 - 10)/10 + 1 = 3, target 40. After the clear, a step woken at 41 and ending
// at 42 has latency 1 ms and meets its deadline 50: met 100 %, desired CPU 100 %.
TEST(SimInputsInterbench, ClearStatisticsForgetsEverythingButTheTarget) {
  interbench_job j;
  ASSERT_EQ(j.begin_step(0, 10 * ms, 0), burn);
  ASSERT_EQ(j.finish(35 * ms), 40 * ms);
  ASSERT_EQ(j.deadlines_missed, 3u);
  j.clear_statistics();
  EXPECT_TRUE(j.samples.empty());
  EXPECT_EQ(j.deadlines_missed, 0u);
  EXPECT_EQ(j.burns_missed, 0u);
  ASSERT_EQ(j.begin_step(41 * ms, 10 * ms, 0), burn);
  ASSERT_EQ(j.finish(42 * ms), 50 * ms);
  const job_summary s = j.summary();
  EXPECT_EQ(s.samples, 1u);
  EXPECT_DOUBLE_EQ(s.max_ms, 1);
  EXPECT_EQ(s.deadlines_met_pct, 100);
  EXPECT_EQ(s.desired_cpu_pct, 100);
}

// ---------------------------------------------------------------------------------------------
// energy_file

const char* const one_domain = R"({ "domains": [ { "cpus": 1, "capacity": 1024, "states": [ { "khz": 5, "uw": 1 } ] } ] })";

std::string what_of(const std::string& text) {
  try {
    (void)parse_energy_model(text, "em.json");
  } catch (const energy_model_error& e) {
    return e.what();
  }
  return "accepted";
}

// Defaults (energy_file.hpp's format): rate_limit_us 2000 (schedutil's default) -> 2 ms, and
// idle_uw 0 (the kernel's Energy Model has no idle states).
TEST(SimInputsEnergyFile, DefaultsAreTwoMillisecondsAndNoIdlePower) {
  const energy_model_file em = parse_energy_model(one_domain, "em.json");
  EXPECT_EQ(em.rate_limit_ns, 2000000);
  ASSERT_EQ(em.domains.size(), 1u);
  EXPECT_EQ(em.domains[0].idle_uw, 0u);
  EXPECT_EQ(em.cpus(), 1);
}

// rate_limit_us is in microseconds: 0 and 1 000 000 are the ends of its range, 500 us is
// 500 000 ns; idle_uw 0 may be given explicitly.
TEST(SimInputsEnergyFile, RateLimitIsMicrosecondsOverItsWholeRange) {
  EXPECT_EQ(parse_energy_model(R"({ "rate_limit_us": 500, "domains": [ { "cpus": 1, "capacity": 1024, "idle_uw": 0,
      "states": [ { "khz": 5, "uw": 1 } ] } ] })", "em.json").rate_limit_ns, 500000);
  EXPECT_EQ(parse_energy_model(R"({ "rate_limit_us": 0, "domains": [ { "cpus": 1, "capacity": 1024,
      "states": [ { "khz": 5, "uw": 1 } ] } ] })", "em.json").rate_limit_ns, 0);
  EXPECT_EQ(parse_energy_model(R"({ "rate_limit_us": 1000000, "domains": [ { "cpus": 1, "capacity": 1024,
      "states": [ { "khz": 5, "uw": 1 } ] } ] })", "em.json").rate_limit_ns, 1000000000);
}

// The ranges' other edges: 'uw' is 1..2^32 - 1 (a zero-power state would make every
// placement free), 1..256 states (256 accepted, 257 refused).
TEST(SimInputsEnergyFile, PowerAndStateCountRanges) {
  EXPECT_EQ(what_of(R"({ "domains": [ { "cpus": 1, "capacity": 1024, "states": [ { "khz": 5, "uw": 0 } ] } ] })"),
            "em.json:1:77: 'uw' must be an integer in 1..4294967295, not 0");
  auto states = [](int n) {
    std::string s = R"({ "domains": [ { "cpus": 1, "capacity": 1024, "states": [ )";
    for (int i = 1; i <= n; ++i) s += (i > 1 ? ", " : "") + std::string("{ \"khz\": ") + std::to_string(i) + ", \"uw\": 1 }";
    return s + " ] } ] }";
  };
  EXPECT_EQ(parse_energy_model(states(256), "em.json").domains[0].states.size(), 256u);
  EXPECT_EQ(what_of(states(257)), "em.json:1:57: 'states' must be an array of 1..256 states");
}

// Required members and types: the object without 'domains', a domain without 'capacity', a
// name that is not a string, an unknown key inside a state; each names its place.
TEST(SimInputsEnergyFile, MissingMembersAndWrongTypesAreNamed) {
  EXPECT_EQ(what_of("{ }"), "em.json:1:1: missing 'domains' (an array of performance domains)");
  EXPECT_EQ(what_of(R"({ "domains": [ { "cpus": 1, "states": [ { "khz": 5, "uw": 1 } ] } ] })"),
            "em.json:1:16: missing 'capacity' (an integer in 1..1024)");
  EXPECT_EQ(what_of(R"({ "domains": [ { "name": 3, "cpus": 1, "capacity": 1024, "states": [ { "khz": 5, "uw": 1 } ] } ] })"),
            "em.json:1:26: 'name' must be a string, not a number");
  EXPECT_EQ(what_of(R"({ "domains": [ { "cpus": 1, "capacity": 1024, "states": [ { "khz": 5, "uw": 1, "mw": 2 } ] } ] })"),
            "em.json:1:80: unknown key 'mw' in a state (expected khz, uw)");
}

std::string temp_file(const std::string& name, const std::string& text) {
  // The pid keeps two builds' runs of this test (release, sanitized) apart in one TempDir.
  const std::string path = ::testing::TempDir() + "sim_inputs_test_" + std::to_string(::getpid()) + "_" + name;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  return path;
}

// The 1 MiB limit (load_energy_model): a file of exactly 1 MiB is read; one byte more is
// refused at the byte past the limit. The big file is 2^20 newlines and a byte: that byte is
// at line 2^20 + 1, column 1.
TEST(SimInputsEnergyFile, FileOfExactlyOneMebibyteIsReadAndOneByteMoreIsNot) {
  const std::size_t mib = std::size_t{1} << 20;
  std::string exact = one_domain;
  exact.resize(mib, ' ');  // JSON allows trailing whitespace
  const std::string a = temp_file("exact.json", exact);
  EXPECT_EQ(load_energy_model(a).cpus(), 1);
  std::remove(a.c_str());
  const std::string b = temp_file("big.json", std::string(mib, '\n') + "x");
  try {
    (void)load_energy_model(b);
    ADD_FAILURE() << "a file of 1 MiB + 1 byte was accepted";
  } catch (const energy_model_error& e) {
    EXPECT_EQ(std::string(e.what()), b + ":1048577:1: file too large: more than 1 MiB (the limit is reached here)");
  }
  std::remove(b.c_str());
}

// A file that never ends (a device, a FIFO) is read only up to the limit, not to its end:
// /dev/zero is refused as too large instead of filling memory.
TEST(SimInputsEnergyFile, EndlessFileStopsAtTheLimit) {
  if (std::FILE* f = std::fopen("/dev/zero", "rb")) {
    std::fclose(f);
  } else {
    GTEST_SKIP() << "no /dev/zero";
  }
  try {
    (void)load_energy_model("/dev/zero");
    ADD_FAILURE() << "/dev/zero accepted";
  } catch (const energy_model_error& e) {
    EXPECT_EQ(std::string(e.what()), "/dev/zero:1:1048577: file too large: more than 1 MiB (the limit is reached here)");
  }
}

// ---------------------------------------------------------------------------------------------
// workload constructors: each sets the fields its kind uses (workload.hpp, ev::), and the
// event's defaults mean "not given" where the header says so.

TEST(SimInputsWorkload, ConstructorsSetEveryFieldTheirKindUses) {
  const event nop = ev::run_nopreempt(5, 1);
  EXPECT_EQ(nop.kind, event_kind::run);
  EXPECT_TRUE(nop.nopreempt);
  EXPECT_EQ(nop.duration, 5);
  EXPECT_EQ(nop.jitter, 1);
  const event io = ev::io_sleep(7, 2);
  EXPECT_EQ(io.kind, event_kind::sleep);
  EXPECT_TRUE(io.uninterruptible);
  EXPECT_FALSE(ev::sleep(7).uninterruptible);
  const event at = ev::anchored_timer("t", 10, 3);
  EXPECT_EQ(at.kind, event_kind::timer);
  EXPECT_TRUE(at.absolute);  // an anchored grid is kept: absolute
  EXPECT_EQ(at.anchor, 3);
  EXPECT_EQ(at.period, 10);
  EXPECT_EQ(ev::timer("t", 10).anchor, -1);  // -1: the grid starts at first use
  const event job = ev::job(2, 10, 4);
  EXPECT_EQ(job.kind, event_kind::job);
  EXPECT_EQ(job.duration, 2);
  EXPECT_EQ(job.period, 10);
  EXPECT_EQ(job.pushback, 4);
  const event pr = ev::pipe_read("p", 3, 100, 7, 9);
  EXPECT_EQ(pr.count, 3);
  EXPECT_EQ(pr.duration, 100);
  EXPECT_EQ(pr.per_item, 7);
  EXPECT_EQ(pr.jitter, 9);
  const event ds = ev::device_submit("gpu", 50, 5);
  EXPECT_EQ(ds.kind, event_kind::device_submit);
  EXPECT_EQ(ds.duration, 50);
  EXPECT_EQ(ds.jitter, 5);
  const event w = ev::cond(event_kind::wait, "c", "m");
  EXPECT_EQ(w.ref, "c");
  EXPECT_EQ(w.mutex, "m");
  const event uc = ev::set_uclamp(100, 900);
  EXPECT_EQ(uc.util_min, 100);
  EXPECT_EQ(uc.util_max, 900);
  EXPECT_EQ(ev::frame(16).duration, 16);
  // -2: a set_uclamp that does not name a clamp leaves it as it is (not -1, the reset).
  EXPECT_EQ(event{}.util_min, -2);
  EXPECT_EQ(event{}.util_max, -2);
}

// task_spec and cgroup_spec defaults the header documents: a task loops forever, takes the
// machine's cache refill cost; cpu.max's period is 100 ms; cpu.weight is 1..10000, 100 by
// default (cgroup v2's cpu.weight).
TEST(SimInputsWorkload, SpecDefaults) {
  const task_spec t;
  EXPECT_EQ(t.loop, -1);
  EXPECT_EQ(t.refill_ns, -1);
  EXPECT_EQ(t.instances, 1);
  const cgroup_spec g;
  EXPECT_EQ(g.max_period_ns, 100000000);
  EXPECT_EQ(g.max_quota_ns, -1);
  EXPECT_EQ(g.weight, cgroup_weight_default);
  EXPECT_EQ(cgroup_weight_min, 1);
  EXPECT_EQ(cgroup_weight_max, 10000);
  EXPECT_EQ(cgroup_weight_default, 100);
}

}  // namespace
