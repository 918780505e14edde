// schedsim's policy registry: a file of your own may register several named policies, a name
// registered twice is refused (usage error, exit 2) instead of listed and never run, and a knob
// table whose configure() has another signature is detected rather than silently dropped.
#include <gtest/gtest.h>

#include <string>

#include "../../examples/custom-policy/stride.hpp"
#include "../../examples/schedsim/policy_entry.hpp"

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
