// schedsim's policy registry: a file of your own may register several named policies, a name
// registered twice is refused (usage error, exit 2) instead of listed and never run, and a knob
// table whose configure() has another signature is detected rather than silently dropped; the
// value and policy-spec parsers, the machine's bounds and the class a deadline task falls to.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../../examples/custom-policy/stride.hpp"
#include "../../examples/schedsim/policy_entry.hpp"
#include "sim_entries.hpp"
#include "sim_results.hpp"

// Two registrations in one file: each use of the macro gets its own names (__COUNTER__).
SCHEDSIM_NAMED_POLICY("registry-test-a", "stride, first registration of this file", ::stride_example::stride_entity,
                      ::stride_example::stride_policy)
SCHEDSIM_NAMED_POLICY("registry-test-b", "stride, second registration of this file", ::stride_example::stride_entity,
                      ::stride_example::stride_policy)

namespace {

using namespace schedcore;
using schedcore::sim::registry;
using schedcore::sim::usage_error;

void add_named(registry& reg, const std::string& name) {
  for (const auto& [n, add] : schedsim_named_policies())
    if (n == name) add(reg);
}

TEST(SimRegistry, OneFileRegistersTwoNamedPolicies) {
  ASSERT_EQ(schedsim_named_policies().size(), 2u);
  registry reg;
  add_named(reg, "registry-test-a");
  add_named(reg, "registry-test-b");
  ASSERT_EQ(reg.entries().size(), 2u);
  EXPECT_NE(reg.find("registry-test-a"), nullptr);
  EXPECT_NE(reg.find("registry-test-b"), nullptr);
  EXPECT_FALSE(reg.find("registry-test-a")->knobs.empty()) << "stride's knob table (quantum) is listed";
}

TEST(SimRegistry, ANameRegisteredTwiceIsRefused) {
  registry reg;
  add_named(reg, "registry-test-a");
  try {
    add_named(reg, "registry-test-a");
    FAIL() << "a second 'registry-test-a' was accepted";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("'registry-test-a' is registered twice"), std::string::npos) << e.what();
  }
  EXPECT_EQ(reg.entries().size(), 1u) << "the refused entry changed nothing";
}

// Knob tables: all three parts or none (checked at compile time; describe() static_asserts it
// for every registered policy).
struct no_knobs {};
struct good_knobs {
  struct knobs {
    s64 quantum = 1;
  };
  static constexpr int knob_table = 0;  // only its presence matters to the detector
  errc configure(const knobs&) noexcept { return errc::ok; }
};
struct non_const_configure {
  struct knobs {
    s64 quantum = 1;
  };
  static constexpr int knob_table = 0;
  errc configure(knobs&) noexcept { return errc::ok; }
};
struct configure_returns_void {
  struct knobs {
    s64 quantum = 1;
  };
  static constexpr int knob_table = 0;
  void configure(const knobs&) noexcept {}
};
struct table_without_configure {
  struct knobs {
    s64 quantum = 1;
  };
  static constexpr int knob_table = 0;
};
static_assert(sim::detail_sim::knobs_well_formed<no_knobs>);
static_assert(sim::detail_sim::knobs_well_formed<good_knobs>);
static_assert(!sim::detail_sim::knobs_well_formed<non_const_configure>);
static_assert(!sim::detail_sim::knobs_well_formed<configure_returns_void>);
static_assert(!sim::detail_sim::knobs_well_formed<table_without_configure>);
static_assert(sim::detail_sim::knobs_well_formed<::stride_example::stride_policy<sim::sim_task<
                  ::stride_example::stride_entity, rt_entity, edf_entity>>>);

}  // namespace

// Command-line times are whole ns: a unit and up to nine decimals, exact. A value finer than
// 1 ns was truncated (`--warmup 0.1ns` became 0, `--rt-runtime 0.1ns` no RT runtime at all);
// now it is refused, as a malformed one is.
TEST(SimRegistry, TimesAreWholeNanosecondsAndFinerOnesAreRefused) {
  using schedcore::knob_unit;
  const auto time = [](const char* text) {
    std::int64_t v = -12345;
    const bool ok = schedcore::sim::parse_value(text, knob_unit::time_ns, v);
    return ok ? v : -12345;
  };
  EXPECT_EQ(time("1.5us"), 1500);
  EXPECT_EQ(time("0.75ms"), 750000);
  EXPECT_EQ(time("1.000000001s"), 1000000001);
  EXPECT_EQ(time("2.0000000000s"), 2000000000);  // zeros past the ninth decimal change nothing
  EXPECT_EQ(time("-1.25ms"), -1250000);
  EXPECT_EQ(time("7"), 7);
  EXPECT_EQ(time("0.1ns"), -12345);
  EXPECT_EQ(time("1.7ns"), -12345);
  EXPECT_EQ(time("1.0005us"), -12345);
  EXPECT_EQ(time("1.0000000001s"), -12345);
  EXPECT_EQ(time("1.5"), -12345);  // no unit: ns
  std::int64_t n = 0;
  EXPECT_FALSE(schedcore::sim::parse_value("1.5", knob_unit::count, n));
}

// From a mutation audit of registry.hpp: the number's edges (no digit at all, an overflow past
// INT64_MAX ns, the largest whole seconds that fit), every flag word, and an empty knob entry.
TEST(SimRegistry, ValuesWithoutDigitsOrPastINT64MAXAreRefusedAndEveryFlagWordIsRead) {
  using schedcore::knob_unit;
  const auto time = [](const char* text) {
    std::int64_t v = -12345;
    const bool ok = schedcore::sim::parse_value(text, knob_unit::time_ns, v);
    return ok ? v : -12345;
  };
  EXPECT_EQ(time("ms"), -12345);  // a unit alone is no time (it read as 0)
  EXPECT_EQ(time(""), -12345);
  EXPECT_EQ(time("-"), -12345);
  EXPECT_EQ(time("."), -12345);
  // INT64_MAX ns is 9223372036.854775807 s: 9223372036 s fit, 9223372037 s and 10^10 s do not
  // (whole x 10^9 would overflow: refused before it is formed).
  EXPECT_EQ(time("9223372036s"), 9223372036000000000);
  EXPECT_EQ(time("9223372037s"), -12345);
  EXPECT_EQ(time("10000000000s"), -12345);
  EXPECT_EQ(time("9223372036.854775807s"), INT64_MAX);
  EXPECT_EQ(time("9223372036.854775808s"), -12345);
  for (const char* yes : {"true", "on", "yes"}) {
    std::int64_t v = -1;
    EXPECT_TRUE(schedcore::sim::parse_value(yes, knob_unit::flag, v)) << yes;
    EXPECT_EQ(v, 1) << yes;
  }
  for (const char* no : {"false", "off", "no"}) {
    std::int64_t v = -1;
    EXPECT_TRUE(schedcore::sim::parse_value(no, knob_unit::flag, v)) << no;
    EXPECT_EQ(v, 0) << no;
  }
  std::int64_t v = -1;
  EXPECT_FALSE(schedcore::sim::parse_value("maybe", knob_unit::flag, v));
  EXPECT_EQ(v, -1) << "a refused value leaves the output alone";

  registry reg;
  add_named(reg, "registry-test-a");
  for (const char* spec : {"registry-test-a:", "registry-test-a:quantum=1ms,", "registry-test-a:,quantum=1ms"}) {
    try {
      schedcore::sim::parse_policy_spec(reg, spec);
      ADD_FAILURE() << spec << " was accepted";
    } catch (const usage_error& e) {
      EXPECT_NE(std::string(e.what()).find("an empty knob entry (a stray ':' or ','): expected KNOB=VALUE"), std::string::npos)
          << spec << ": " << e.what();
    }
  }
}

// The machine's bounds are inclusive, as the kernel's sysctls are: sched_rt_period_us = 1000
// (1 ms), an admission bound of 100 %, the fair server's shortest period (100 us), and a fair
// server taking its whole period when admission is off. One past each is refused.
TEST(SimRegistry, MachineBoundsAreInclusive) {
  using schedcore::sim::run_config;
  schedcore::sim::workload w;
  w.name = "bounds";
  w.duration = 10000000;  // 10 ms
  schedcore::sim::task_spec t;
  t.name = "hog";
  t.daemon = true;
  schedcore::sim::phase p;
  p.loop = -1;
  p.events.push_back(schedcore::sim::ev::run(1000000));
  t.phases.push_back(p);
  w.tasks.push_back(t);
  const auto runs = [&](const run_config& c) {
    try {
      schedcore_test::ref_dl_entry().run(w, c, {});
      return std::string("ran");
    } catch (const usage_error& e) {
      return std::string(e.what());
    }
  };
  run_config c = schedcore_test::exact_machine();
  c.machine.rt_period_ns = 1000000;
  c.machine.rt_runtime_ns = -1;
  EXPECT_EQ(runs(c), "ran");
  c.machine.rt_period_ns = 999999;
  EXPECT_NE(runs(c).find("must be from 1ms to 100s"), std::string::npos) << runs(c);
  c = schedcore_test::exact_machine();
  c.machine.dl_bound_pct = 100;
  EXPECT_EQ(runs(c), "ran");
  c.machine.dl_bound_pct = 101;
  EXPECT_NE(runs(c).find("must be -1 (admission off) or from 0 to 100"), std::string::npos) << runs(c);
  c = schedcore_test::exact_machine();
  c.machine.fair_server_period_ns = schedcore::deferrable_server::period_min;
  EXPECT_EQ(runs(c), "ran");
  c.machine.fair_server_period_ns = schedcore::deferrable_server::period_min - 1;
  EXPECT_NE(runs(c).find("must be from 100us to 2^22 us"), std::string::npos) << runs(c);
  c = schedcore_test::exact_machine();
  c.machine.dl_bound_pct = -1;
  c.machine.fair_server_period_ns = 1000000;
  c.machine.fair_server_runtime_ns = 1000000;
  EXPECT_EQ(runs(c), "ran");
  c.machine.fair_server_runtime_ns = 1000001;
  EXPECT_NE(runs(c).find("runtime (--fair-server) must be from 0 (off) to its period"), std::string::npos) << runs(c);
}

// Without a deadline class, a SCHED_DEADLINE task runs as SCHED_FIFO priority 99
// (registry.hpp's stack_binding), the top: a FIFO 99 task waking while it runs does not preempt
// it (equal FIFO priorities never preempt) and runs when it is done; at 98 it would be preempted.
TEST(SimRegistry, ADeadlineTaskWithoutADeadlineClassRunsAsFifo99) {
  schedcore::sim::workload w;
  w.name = "dl-as-fifo";
  w.duration = 50000000;  // 50 ms
  const auto once = [](const char* name, std::vector<schedcore::sim::event> evs, schedcore::sched_params params) {
    schedcore::sim::task_spec t;
    t.name = name;
    t.loop = 1;  // the program once, then exit
    t.params = params;
    schedcore::sim::phase p;
    p.events = std::move(evs);
    t.phases.push_back(p);
    return t;
  };
  w.tasks.push_back(once("dl", {schedcore::sim::ev::run(10000000)}, schedcore_test::reservation(2000000, 20000000)));
  w.tasks.push_back(once("rt99", {schedcore::sim::ev::run(1000000)}, schedcore_test::fifo(99)));
  w.tasks.back().delay = 1000000;  // starts at 1 ms, while dl runs
  const schedcore::sim::run_result r = schedcore_test::ref_rt_entry().run(w, schedcore_test::exact_machine(), {});
  EXPECT_EQ(schedcore_test::find(r, "dl").exit_ns, 10000000) << "not preempted";
  EXPECT_EQ(schedcore_test::find(r, "rt99").exit_ns, 11000000) << "started at 1 ms, ran when dl was done";
  schedcore_test::expect_conserved(r);
}
