// Unit tests of smp/capacity.hpp against independent formulations of its rules
// (Documentation/scheduler/sched-capacity.rst, fair.c's fits_capacity and capacity_greater):
// - a utilisation fits a capacity when it is below 80 % of it (util / capacity < 4 / 5, in
//   exact rational arithmetic), for every utilisation and capacity in range;
// - a capacity is greater than another when their ratio exceeds 1078 / 1024 (about 5 %);
// - a misfit does not fit its CPU and a bigger CPU exists;
// - the idle-CPU choice against a brute force that ranks every CPU explicitly (fits first,
//   then capacity, then distance from the target in wrap order).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "schedcore/smp/capacity.hpp"

namespace {

using namespace schedcore;

static_assert(util_fits_capacity(819, 1024) && !util_fits_capacity(820, 1024), "the 80 % margin at 1024");
static_assert(capacity_greater(1024, 972) && !capacity_greater(1024, 973), "the 5 % margin");

TEST(Capacity, AUtilisationFitsWhenBelowEightyPercentOfTheCapacity) {
  for (u32 capacity = 0; capacity <= cpu_capacity_max; ++capacity)
    for (u32 util = 0; util <= 1300; ++util)
      ASSERT_EQ(util_fits_capacity(util, capacity), 5 * util < 4 * capacity) << util << " " << capacity;
  // A Cortex-A53 beside an A72 (capacity 446): up to 356 fits.
  EXPECT_TRUE(util_fits_capacity(356, 446));
  EXPECT_FALSE(util_fits_capacity(357, 446));
  // No overflow at the top of the 32-bit range.
  EXPECT_FALSE(util_fits_capacity(0xFFFFFFFFu, 0xFFFFFFFFu));
  EXPECT_TRUE(util_fits_capacity(0xCCCCCCCBu, 0xFFFFFFFFu));
}

TEST(Capacity, OneCapacityIsGreaterOnlyByMoreThanFivePercent) {
  for (u32 a = 1; a <= cpu_capacity_max; ++a)
    for (u32 b = 1; b <= cpu_capacity_max; b += 7)
      ASSERT_EQ(capacity_greater(a, b), static_cast<long double>(a) / b > 1078.0L / 1024.0L) << a << " " << b;
  EXPECT_FALSE(capacity_greater(512, 512));
  EXPECT_TRUE(capacity_greater(1024, 446));
  EXPECT_FALSE(capacity_greater(446, 1024));
}

TEST(Capacity, AMisfitDoesNotFitItsCpuAndABiggerOneExists) {
  EXPECT_TRUE(task_misfit(400, 446, 1024));
  EXPECT_FALSE(task_misfit(300, 446, 1024));       // fits its little CPU
  EXPECT_FALSE(task_misfit(1024, 1024, 1024));     // already on the biggest CPU
  EXPECT_FALSE(task_misfit(1024, 446, 446));       // a symmetric machine of small CPUs
  EXPECT_TRUE(task_misfit(900, 1024 - 1, 1024));   // no margin on the existence of a bigger CPU
}

// The brute force: every usable idle CPU gets a rank (does not fit, -capacity, wrap distance
// from the target); the smallest rank wins.
int brute_force(const std::vector<u32>& capacity, const std::vector<bool>& usable_idle, int target, u32 util) {
  const int n = static_cast<int>(capacity.size());
  int best = -1;
  long long best_rank[3] = {0, 0, 0};
  for (int cpu = 0; cpu < n; ++cpu) {
    if (!usable_idle[static_cast<std::size_t>(cpu)]) continue;
    const u32 c = capacity[static_cast<std::size_t>(cpu)];
    const bool fits = 5ull * util < 4ull * c;
    const long long distance = (cpu - target + n) % n;
    // A fitting CPU ranks by distance alone; the others by capacity, then distance.
    const long long rank[3] = {fits ? 0 : 1, fits ? 0 : -static_cast<long long>(c), distance};
    bool better = best < 0;
    for (int k = 0; k < 3 && !better; ++k) {
      if (rank[k] != best_rank[k]) {
        better = rank[k] < best_rank[k];
        break;
      }
    }
    if (better) {
      best = cpu;
      for (int k = 0; k < 3; ++k) best_rank[k] = rank[k];
    }
  }
  return best;
}

TEST(Capacity, TheIdleCpuChoiceMatchesABruteForceRanking) {
  std::mt19937_64 rng(20261202);
  for (int trial = 0; trial < 20000; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 12);
    std::vector<u32> capacity(static_cast<std::size_t>(n));
    std::vector<bool> idle(static_cast<std::size_t>(n));
    const u32 kinds[4] = {1024, 446, 871, static_cast<u32>(rng() % 1024) + 1};
    for (int k = 0; k < n; ++k) {
      capacity[static_cast<std::size_t>(k)] = kinds[rng() % 4];
      idle[static_cast<std::size_t>(k)] = rng() % 3 != 0;
    }
    const int target = static_cast<int>(rng() % static_cast<u64>(n));
    const u32 util = static_cast<u32>(rng() % 1100);
    const int got = select_idle_capacity(
        n, target, util, [&](int cpu) noexcept { return static_cast<bool>(idle[static_cast<std::size_t>(cpu)]); },
        [&](int cpu) noexcept { return capacity[static_cast<std::size_t>(cpu)]; });
    ASSERT_EQ(got, brute_force(capacity, idle, target, util)) << "trial " << trial;
  }
}

TEST(Capacity, AHeavyTaskWakingOnALittleCpuTakesAnIdleBigOne) {
  const u32 capacity[4] = {1024, 1024, 446, 446};
  auto cap = [&](int cpu) noexcept { return capacity[cpu]; };
  bool idle[4] = {false, true, true, true};
  auto usable = [&](int cpu) noexcept { return idle[cpu]; };
  EXPECT_EQ(select_idle_capacity(4, 2, 600, usable, cap), 1);  // 2 and 3 are too small, 0 is busy
  EXPECT_EQ(select_idle_capacity(4, 2, 100, usable, cap), 2);  // a light task stays where it was
  idle[1] = false;
  EXPECT_EQ(select_idle_capacity(4, 3, 600, usable, cap), 3);  // nothing fits: the biggest idle, nearest first
  idle[2] = idle[3] = false;
  EXPECT_EQ(select_idle_capacity(4, 2, 100, usable, cap), -1);  // nothing idle
  idle[0] = true;
  EXPECT_EQ(select_idle_capacity(4, 9, 100, usable, cap), 0);   // a target out of range scans from 0
}

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

TEST(Capacity, ATargetOutsideTheMachineScansFromCpuZero) {
  // The documented guard: 0 <= target < nr_cpus, else the scan starts at CPU 0 (for_each_cpu_wrap
  // of the kernel only ever gets a valid CPU). nr_cpus itself is outside.
  const u32 caps[4] = {1024, 1024, 1024, 1024};
  auto idle = [](int k) noexcept { return k >= 0 && k < 4; };
  auto cap = [&](int k) noexcept { return k >= 0 && k < 4 ? caps[k] : 0u; };
  EXPECT_EQ(select_idle_capacity(4, 4, 100, idle, cap), 0);
  EXPECT_EQ(select_idle_capacity(4, -1, 100, idle, cap), 0);
  EXPECT_EQ(select_idle_capacity(4, 3, 100, idle, cap), 3);
}

TEST(Capacity, ACpuShortOnlyOfTheBoostRanksAboveOneTheTaskDoesNotFit) {
  // select_idle_capacity (Linux 6.x): "(fits < best_fits)" first, so -1 beats 0 whichever is
  // met first. util 300, uclamp_min 600: on capacity 300 util does not fit (300 x 1280 >=
  // 300 x 1024): 0; on 446 it fits (384000 < 456704) but the boost 600 > 446: -1.
  EXPECT_EQ(util_fits_cpu(300, 600, 1024, 300, 300), 0);
  EXPECT_EQ(util_fits_cpu(300, 600, 1024, 446, 446), -1);
  const u32 caps[2] = {300, 446};
  auto idle = [](int) noexcept { return true; };
  auto cap = [&](int k) noexcept { return caps[k]; };
  EXPECT_EQ(select_idle_capacity(2, 0, 300, 600, 1024, idle, cap), 1) << "the 0 CPU is met first";
  EXPECT_EQ(select_idle_capacity(2, 1, 300, 600, 1024, idle, cap), 1) << "the -1 CPU is met first";
}

}  // namespace
