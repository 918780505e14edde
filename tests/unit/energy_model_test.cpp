// Unit tests of smp/energy_model.hpp against independent formulations of the Energy Model and
// schedutil (Documentation/power/energy-model.rst, Documentation/scheduler/sched-energy.rst):
// - a state's cost is the energy of one unit of work: power x f_max / f (exact rationals);
// - a state is inefficient iff some faster state's cost is not higher (brute force over
//   random tables);
// - the state chosen for a utilisation u is the lowest efficient one whose capacity at that
//   frequency covers 1.25 u (the 6.8+ "performance" formulation: capacity x f / f_max, in
//   exact rationals), allowing only the kernel's floor of the target frequency;
// - the energy estimate is what the domain's CPUs draw when each is busy u_i / cap_s of the
//   time at power p_s (sched-energy.rst's derivation), in long double;
// - bad tables are refused and change nothing.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "schedcore/smp/energy_model.hpp"

namespace {

using namespace schedcore;

// Three states at 0.5, 1.0 and 2.0 GHz on a 1024 CPU; the middle one is efficient.
std::vector<em_perf_state> three_states() {
  return {{500000, 100000, 0, false}, {1000000, 300000, 0, false}, {2000000, 1200000, 0, false}};
}

// A random table: 1..max_states states, frequencies rising by min_step + U[0, 400000) kHz,
// powers min_power + U[0, 3000000) µW (drawn in that order, state by state).
std::vector<em_perf_state> random_states(std::mt19937_64& rng, u32 max_states, u32 min_step, u32 min_power) {
  const u32 n = 1 + static_cast<u32>(rng() % max_states);
  std::vector<em_perf_state> states(n);
  u32 f = 0;
  for (auto& s : states) {
    f += min_step + static_cast<u32>(rng() % 400000);
    s.frequency_khz = f;
    s.power_uw = min_power + static_cast<u32>(rng() % 3000000);
  }
  return states;
}

TEST(EnergyModel, CostIsPowerTimesTopFrequencyOverFrequency) {
  auto states = three_states();
  em_perf_domain pd{};
  ASSERT_EQ(em_perf_domain_init(pd, states.data(), 3, 1024), errc::ok);
  // 100 mW at a quarter of f_max: 400 000 µW per unit of work at f_max; 300 mW at half: 600 000.
  EXPECT_EQ(states[0].cost, 400000u);
  EXPECT_EQ(states[1].cost, 600000u);
  EXPECT_EQ(states[2].cost, 1200000u);
  EXPECT_EQ(em_max_khz(pd), 2000000u);
  EXPECT_EQ(em_state_capacity(pd, 0), 256u);
  EXPECT_EQ(em_state_capacity(pd, 1), 512u);
  EXPECT_EQ(em_state_capacity(pd, 2), 1024u);
  for (const auto& s : states) EXPECT_FALSE(s.inefficient);
}

TEST(EnergyModel, InefficientStatesAreThoseAFasterStateBeatsOnCost) {
  std::mt19937_64 rng(0x5eed);
  for (int round = 0; round < 2000; ++round) {
    std::vector<em_perf_state> states = random_states(rng, 12, 1, 1);
    const u32 n = static_cast<u32>(states.size());
    const u32 f = states.back().frequency_khz;
    em_perf_domain pd{};
    ASSERT_EQ(em_perf_domain_init(pd, states.data(), n, 1 + static_cast<u32>(rng() % 1024)), errc::ok);
    for (u32 i = 0; i < n; ++i) {
      // Oracle: the definition, against every faster state; the cost is power x f_max / f floored.
      bool beaten = false;
      for (u32 j = i + 1; j < n; ++j) beaten = beaten || states[j].cost <= states[i].cost;
      ASSERT_EQ(states[i].inefficient, beaten) << "round " << round << " state " << i;
      const long double exact = static_cast<long double>(states[i].power_uw) * f / states[i].frequency_khz;
      ASSERT_LE(static_cast<long double>(states[i].cost), exact);
      ASSERT_GT(static_cast<long double>(states[i].cost) + 1, exact);
    }
    ASSERT_FALSE(states[n - 1].inefficient);
  }
}

TEST(EnergyModel, SelectionSkipsInefficientStatesUnlessTold) {
  // 1.0 GHz draws 600 mW: cost 1.2 W per unit of work, as much as the top state: inefficient.
  std::vector<em_perf_state> states = {{500000, 100000, 0, false}, {1000000, 600000, 0, false}, {2000000, 1200000, 0, false}};
  em_perf_domain pd{};
  ASSERT_EQ(em_perf_domain_init(pd, states.data(), 3, 1024), errc::ok);
  EXPECT_TRUE(states[1].inefficient);
  EXPECT_EQ(em_state_at_or_above(pd, 700000), 2u);  // 1.0 GHz is skipped: straight to 2.0
  EXPECT_EQ(em_state_at_or_above(pd, 500000), 0u);
  pd.skip_inefficient = false;
  EXPECT_EQ(em_state_at_or_above(pd, 700000), 1u);
  EXPECT_EQ(em_state_at_or_above(pd, 2000001), 2u);  // above the top: the top
}

TEST(EnergyModel, SchedutilAsksForOneAndAQuarterTimesTheUtilisation) {
  auto states = three_states();
  em_perf_domain pd{};
  ASSERT_EQ(em_perf_domain_init(pd, states.data(), 3, 1024), errc::ok);
  // 410 + 102 = 512: exactly 1.0 GHz. 411 + 102 = 513: just above, so 2.0 GHz.
  EXPECT_EQ(schedutil_state(pd, 410), 1u);
  EXPECT_EQ(schedutil_state(pd, 411), 2u);
  EXPECT_EQ(schedutil_state(pd, 0), 0u);
  EXPECT_EQ(schedutil_state(pd, 205), 0u);  // 205 + 51 = 256: exactly 500 000 kHz, state 0
  EXPECT_EQ(schedutil_state(pd, 206), 1u);  // 206 + 51 = 257: 501 953 kHz
  EXPECT_EQ(schedutil_state(pd, 5000), 2u);  // clamped to the capacity, then the top
}

TEST(EnergyModel, SchedutilStateIsTheLowestEfficientStateCoveringTheHeadroomedUtilisation) {
  std::mt19937_64 rng(0xfeed);
  for (int round = 0; round < 300; ++round) {
    std::vector<em_perf_state> states = random_states(rng, 10, 1000, 1);
    const u32 n = static_cast<u32>(states.size());
    const u32 f = states.back().frequency_khz;
    const u32 capacity = 1 + static_cast<u32>(rng() % 1024);
    em_perf_domain pd{};
    ASSERT_EQ(em_perf_domain_init(pd, states.data(), n, capacity), errc::ok);
    pd.skip_inefficient = (round & 1) != 0;
    const long double fmax = f;
    for (u32 util = 0; util <= 1300; ++util) {
      const u32 s = schedutil_state(pd, util);
      const long double need = static_cast<long double>(util_with_headroom(util < capacity ? util : capacity));
      auto usable = [&](u32 i) { return i == n - 1 || !pd.skip_inefficient || !states[i].inefficient; };
      // Performance of state i: capacity x f_i / f_max; it covers the need when >= need.
      auto covers_with_floor = [&](u32 i) {  // the kernel floors the target frequency: allow < 1 kHz short
        return (static_cast<long double>(states[i].frequency_khz) + 1) * capacity / fmax > need;
      };
      ASSERT_TRUE(usable(s));
      ASSERT_TRUE(s == n - 1 || covers_with_floor(s)) << "round " << round << " util " << util;
      for (u32 i = 0; i < s; ++i)
        ASSERT_FALSE(usable(i) && static_cast<long double>(states[i].frequency_khz) * capacity / fmax >= need)
            << "a lower state " << i << " covers util " << util << " (round " << round << ")";
    }
  }
}

TEST(EnergyModel, EstimateIsWhatTheCpusDrawBusyAtTheChosenState) {
  std::mt19937_64 rng(0xbeef);
  for (int round = 0; round < 3000; ++round) {
    std::vector<em_perf_state> states = random_states(rng, 8, 10000, 1000);
    const u32 n = static_cast<u32>(states.size());
    const u32 f = states.back().frequency_khz;
    const u32 capacity = 64 + static_cast<u32>(rng() % 961);
    em_perf_domain pd{};
    ASSERT_EQ(em_perf_domain_init(pd, states.data(), n, capacity), errc::ok);
    const int cpus = 1 + static_cast<int>(rng() % 4);
    u32 max_util = 0;
    u64 sum_util = 0;
    std::vector<u32> utils;
    for (int c = 0; c < cpus; ++c) {
      const u32 u = static_cast<u32>(rng() % (capacity + 1));
      utils.push_back(u);
      max_util = u > max_util ? u : max_util;
      sum_util += u;
    }
    const u64 e = em_pd_energy(pd, max_util, sum_util, capacity);
    // The state the estimate uses: the one schedutil picks for the busiest CPU (both clamp to
    // the capacity, here nothing is above it).
    const u32 s = schedutil_state(pd, max_util);
    const long double cap_s = static_cast<long double>(capacity) * states[s].frequency_khz / f;
    long double drawn = 0;  // µW: each CPU busy u / cap_s of the time at p_s
    for (u32 u : utils) drawn += static_cast<long double>(states[s].power_uw) * u / cap_s;
    // The kernel's floors: cost floored (< 1 per unit of sum/capacity), the result floored.
    const long double slack = static_cast<long double>(sum_util) / capacity + 1;
    ASSERT_LE(static_cast<long double>(e), drawn + 1e-6L) << "round " << round;
    ASSERT_GE(static_cast<long double>(e), drawn - slack) << "round " << round;
  }
}

TEST(EnergyModel, AllowedCapacityCapsTheStateOfTheEstimate) {
  auto states = three_states();
  em_perf_domain pd{};
  ASSERT_EQ(em_perf_domain_init(pd, states.data(), 3, 1024), errc::ok);
  // util 600 wants 750 -> 2.0 GHz: cost 1 200 000 x 600 / 1024 = 703 125.
  EXPECT_EQ(em_pd_energy(pd, 600, 600, 1024), 703125u);
  // Thermally capped at 512 (1.0 GHz): the estimate uses that state's cost, 600 000 x 600 / 1024.
  EXPECT_EQ(em_pd_energy(pd, 600, 600, 512), 351562u);
  // Two CPUs at 200 and 100: 250 -> 488 281 kHz, state 0; 400 000 x 300 / 1024.
  EXPECT_EQ(em_pd_energy(pd, 200, 300, 1024), 117187u);
  EXPECT_EQ(em_pd_energy(pd, 0, 0, 1024), 0u);
}

// No 64-bit product may wrap, whatever the table and the utilisation (the header promises
// this for 32-bit powers and frequencies): with f_max near 2^32 kHz, an utilisation past the
// capacity asks for f_max (the kernel clamps it to the capacity first), and the estimate
// stays exact where it fits in 64 bits and saturates where it does not. Without the clamps
// the first product wrapped to ~4 GHz (state 0) and the estimate halved.
TEST(EnergyModel, NoProductWrapsForAnyTableOrUtilisation) {
  std::vector<em_perf_state> fast = {{5000000, 1000, 0, false}, {4294967295u, 2000000, 0, false}};
  em_perf_domain pd{};
  ASSERT_EQ(em_perf_domain_init(pd, fast.data(), 2, 1024), errc::ok);
  EXPECT_EQ(schedutil_state(pd, 1024), 1u);
  EXPECT_EQ(schedutil_state(pd, 3435973839u), 1u);  // 1.25 x util x f_max is 2^64 + 2^32 - 2
  EXPECT_EQ(schedutil_state(pd, 0xffffffffu), 1u);
  EXPECT_EQ(em_pd_energy(pd, 3435973839u, 1024, 0xffffffffu), fast[1].cost);

  // Every state kept (no inefficiency skipping): the slowest state's cost is nearly 2^64.
  std::vector<em_perf_state> steep = {{1, 0xffffffffu, 0, false}, {0xffffffffu, 0xffffffffu, 0, false}};
  ASSERT_EQ(em_perf_domain_init(pd, steep.data(), 2, 1024), errc::ok);
  pd.skip_inefficient = false;
  const u64 c0 = steep[0].cost;
  ASSERT_EQ(c0, 0xffffffffull * 0xffffffffull);
  EXPECT_EQ(em_pd_energy(pd, 0, 2, 1024), c0 / 512);
  EXPECT_EQ(em_pd_energy(pd, 0, 1024, 1024), c0);
  EXPECT_EQ(em_pd_energy(pd, 0, 1000, 1024), c0 / 1024 * 1000 + c0 % 1024 * 1000 / 1024);
  EXPECT_EQ(em_pd_energy(pd, 0, 2048, 1024), ~u64{0});  // 2 x c0 does not fit: saturated
  for (u64 sum = 0; sum < 4096; sum += 97)  // never decreasing in the utilisation
    EXPECT_LE(em_pd_energy(pd, 0, sum, 1024), em_pd_energy(pd, 0, sum + 97, 1024)) << sum;
}

TEST(EnergyModel, BadTablesAreRefusedAndChangeNothing) {
  auto good = three_states();
  em_perf_domain pd{};
  ASSERT_EQ(em_perf_domain_init(pd, good.data(), 3, 1024), errc::ok);
  const em_perf_domain before = pd;
  auto expect_refused = [&](std::vector<em_perf_state> t, u32 n, u32 capacity, errc want) {
    const std::vector<em_perf_state> copy = t;
    EXPECT_EQ(em_perf_domain_init(pd, t.empty() ? nullptr : t.data(), n, capacity), want);
    EXPECT_EQ(pd.states, before.states);
    EXPECT_EQ(pd.nr_states, before.nr_states);
    EXPECT_EQ(pd.capacity, before.capacity);
    for (std::size_t i = 0; i < t.size(); ++i) {
      EXPECT_EQ(t[i].cost, copy[i].cost);
      EXPECT_EQ(t[i].inefficient, copy[i].inefficient);
    }
  };
  expect_refused({}, 0, 1024, errc::invalid_argument);
  expect_refused(three_states(), 0, 1024, errc::invalid_argument);
  expect_refused(three_states(), 3, 0, errc::invalid_argument);
  expect_refused(three_states(), 3, 1025, errc::invalid_argument);
  expect_refused({{500000, 0, 0, false}, {1000000, 300000, 0, false}}, 2, 1024, errc::invalid_argument);
  expect_refused({{0, 100, 0, false}, {1000000, 300000, 0, false}}, 2, 1024, errc::invalid_argument);
  expect_refused({{1000000, 100, 0, false}, {1000000, 300000, 0, false}}, 2, 1024, errc::inverted);
  expect_refused({{1000000, 100, 0, false}, {500000, 300000, 0, false}}, 2, 1024, errc::inverted);
}

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

TEST(EnergyModel, InitKeepsTheCallersChoiceOfSkippingInefficientStates) {
  // em_perf_domain_init binds the table, its length and the capacity, nothing else: whether
  // frequency selection skips inefficient states is a property of the domain
  // (EM_PERF_DOMAIN_SKIP_INEFFICIENCIES, set or cleared apart from the table), so a domain told
  // not to skip keeps that through a re-initialisation.
  // Two states: 0.5 GHz at 400 000 µW (cost 800 000) and 1.0 GHz at 600 000 µW (cost 600 000):
  // the slow one is inefficient.
  std::vector<em_perf_state> states = {{500000, 400000, 0, false}, {1000000, 600000, 0, false}};
  em_perf_domain pd{};
  pd.skip_inefficient = false;
  ASSERT_EQ(em_perf_domain_init(pd, states.data(), 2, 1024), errc::ok);
  ASSERT_TRUE(states[0].inefficient);
  EXPECT_FALSE(pd.skip_inefficient);
  // util 100 wants 125 -> 122 070 kHz (1 000 000 x 125 / 1024): the slow state, not skipped.
  EXPECT_EQ(schedutil_state(pd, 100), 0u);
}

}  // namespace
