// Unit tests of smp/pelt.hpp, against independent oracles:
// - the decay table against a long double computation of (2^32 - 1) y^n and the reference's
//   runnable_avg_yN_inv[1] = 0xfa83b2da (algorithms-modern.md §6);
// - LOAD_AVG_MAX = 47742 as the fixed point of the header's own integer recurrence;
// - O6.1: a task running from 0 reaches util 512 / 768 / 1010 after 32 / 64 / 200 periods and
//   halves every 32 periods once it stops;
// - the definition of the signal (each 1024-ns unit counts y^(periods since)), computed in long
//   double unit by unit over random histories with random update points;
// - linearity: a queue fed its total weight equals the weighted sum of its entities' signals,
//   which is what makes attach/detach on migration sound;
// - the new-task rule: successive forks on an idle CPU start at util 512, 256, 128;
// - capacity invariance (Linux 4.13-5.0's `util_sum += contrib * scale_cpu`): running on a CPU
//   of capacity c adds c/1024 of what it adds on the biggest CPU, to util only.
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "schedcore/smp/pelt.hpp"

namespace {

using namespace schedcore;

constexpr u64 unit_ns = u64{1} << pelt_unit_shift;        // 1024 ns
constexpr u64 period_ns = unit_ns * pelt_period_units;    // 1,048,576 ns

// The decay at compile time: the header is usable in constant expressions.
static_assert(pelt_decay(1024, 0) == 1024, "y^0 = 1");
static_assert(pelt_decay(~u64{0}, 2017) == 0, "nothing survives 63 half-lives");
static_assert(pelt_divider(pelt_avg{}) == 46718, "PELT_MIN_DIVIDER = 47742 - 1024");

long double y_pow(long double n) { return std::pow(0.5L, n / 32.0L); }
double dbl(long double x) { return static_cast<double>(x); }
double dbl(u64 x) { return static_cast<double>(x); }

TEST(Pelt, DecayTableIsFloorOf2To32Minus1TimesYToTheN) {
  EXPECT_EQ(pelt_decay_factor[1], 0xfa83b2dau);  // algorithms-modern.md §6
  for (u32 n = 0; n < pelt_halflife_periods; ++n) {
    const long double exact = 4294967295.0L * y_pow(static_cast<long double>(n));
    EXPECT_EQ(pelt_decay_factor[n], static_cast<u32>(std::floor(exact))) << "n = " << n;
  }
  // y^16 = 1/sqrt(2): 0xb504f333 is the well-known 2^32 / sqrt(2), truncated.
  EXPECT_EQ(pelt_decay_factor[16], 0xb504f333u);
}

TEST(Pelt, DecayHalvesEvery32PeriodsAndVanishesAfter63HalfLives) {
  const u64 v = u64{1} << 40;
  for (u64 h = 1; h <= 62; ++h) {
    const u64 d = pelt_decay(v, 32 * h);
    // The shift is exact; the table's 0xffffffff / 2^32 then takes off 1 part in 2^32, plus
    // one for the truncation.
    EXPECT_LE(d, v >> h);
    EXPECT_GE(d + ((v >> h) >> 32) + 1, v >> h) << h;
  }
  for (u64 n = 1; n < 300; n += 7) {
    const long double exact = static_cast<long double>(v) * y_pow(static_cast<long double>(n));
    EXPECT_NEAR(dbl(pelt_decay(v, n)), dbl(exact), dbl(exact * 1e-9L + 2)) << n;
  }
  EXPECT_EQ(pelt_decay(~u64{0}, 2016), (~u64{0} >> 63) * pelt_decay_factor[0] >> 32);
  EXPECT_EQ(pelt_decay(~u64{0}, 2017), 0u);
  EXPECT_EQ(pelt_decay(~u64{0}, ~u64{0}), 0u);
}

TEST(Pelt, LoadAvgMaxIsTheFixedPointOfTheIntegerRecurrence) {
  // An entity runnable for ever: each period decays the sum once and adds 1024.
  u64 sum = 0;
  for (int i = 0; i < 10000; ++i) sum = pelt_decay(sum, 1) + pelt_period_units;
  EXPECT_EQ(sum, pelt_sum_max);
  EXPECT_EQ(pelt_decay(sum, 1) + pelt_period_units, sum);  // a fixed point
  // The real series' limit is 1024 / (1 - y), about 47788: the truncations cost 46.
  EXPECT_NEAR(dbl(1024.0L / (1.0L - y_pow(1))), 47788.0, 1.0);
  // The closed form of the full periods, 1024 (y + ... + y^(p-1)) from LOAD_AVG_MAX, agrees
  // with the same sum built period by period (the kernel's pre-4.12 runnable_avg_yN_sum:
  // 0, 1002, 1982, 2941...) to the few tens of units the two orders of truncation differ by.
  u64 by_steps = 0;
  u64 worst = 0;
  for (u64 p = 1; p < 3000; ++p) {
    const u64 closed = pelt_interval_contribution(p, 0, 0);
    worst = std::max(worst, closed > by_steps ? closed - by_steps : by_steps - closed);
    if (p == 1) {
      EXPECT_EQ(by_steps, 0u);
    }
    if (p == 2) {
      EXPECT_EQ(by_steps, 1002u);
    }
    if (p == 3) {
      EXPECT_EQ(by_steps, 1982u);
    }
    if (p == 4) {
      EXPECT_EQ(by_steps, 2941u);
    }
    by_steps = pelt_decay(by_steps + pelt_period_units, 1);
  }
  EXPECT_LE(worst, 32u);  // measured 25 (at p = 346): under 0.07 % of LOAD_AVG_MAX
  EXPECT_EQ(pelt_interval_contribution(1, 0, 0), 0u);  // no full period in between
  EXPECT_EQ(pelt_interval_contribution(5000, 0, 0), pelt_min_divider);  // the whole past
  EXPECT_EQ(pelt_interval_contribution(1, 1024, 0), pelt_decay(1024, 1));
}

// A task running continuously from time 0, updated every `step_ns`.
pelt_avg run_for(u64 periods, u64 step_ns, bool running) {
  pelt_avg a{};
  for (u64 t = step_ns; t <= periods * period_ns; t += step_ns) pelt_update_entity(a, t, 1024, running, running);
  pelt_update_entity(a, periods * period_ns, 1024, running, running);
  return a;
}

TEST(Pelt, O6_1_AContinuousRunnerReaches512Then768Then1010) {
  // algorithms-modern.md O6.1: util ~512 after 32 periods, ~768 after 64, ~1010 after 200.
  for (u64 step : {period_ns, period_ns / 4, u64{4} * 1000 * 1000, u64{1000} * 1000 / 3}) {
    const pelt_avg a32 = run_for(32, step, true);
    const pelt_avg a64 = run_for(64, step, true);
    const pelt_avg a200 = run_for(200, step, true);
    EXPECT_NEAR(a32.util_avg, 512, 6) << step;
    EXPECT_NEAR(a64.util_avg, 768, 6) << step;
    EXPECT_NEAR(a200.util_avg, 1010, 6) << step;
    // load_avg of a nice-0 task runnable all along follows the same curve in weight units.
    EXPECT_NEAR(static_cast<double>(a64.load_avg), 768, 6);
    EXPECT_NEAR(static_cast<double>(a64.runnable_avg), 768, 6);
  }
  // A long run saturates at the weight and at 1024 (to a unit or two of truncation).
  const pelt_avg full = run_for(3000, period_ns, true);
  EXPECT_NEAR(static_cast<double>(full.util_avg), 1024, 2);  // measured 1024
  EXPECT_NEAR(static_cast<double>(full.load_avg), 1024, 2);  // measured 1023
}

TEST(Pelt, AfterItStopsTheSignalHalvesEvery32Periods) {
  pelt_avg a = run_for(3000, period_ns, true);
  const u64 t0 = 3000 * period_ns;
  const u32 start = a.util_avg;
  for (u64 h = 1; h <= 4; ++h) {
    pelt_update_entity(a, t0 + h * 32 * period_ns, 1024, false, false);
    EXPECT_NEAR(a.util_avg, start >> h, 2) << h;
    EXPECT_NEAR(static_cast<double>(a.load_avg), static_cast<double>(start >> h), 3);
  }
}

TEST(Pelt, HalfDutyTaskSettlesAtHalfItsWeight) {
  // Runs 512 units, sleeps 512 (half of every period), nice 5 (weight 335).
  pelt_avg a{};
  u64 t = 0;
  for (int p = 0; p < 400; ++p) {
    t += 512 * unit_ns;
    pelt_update_entity(a, t, 335, true, true);
    t += 512 * unit_ns;
    pelt_update_entity(a, t, 335, false, false);
  }
  // Sampled at a period boundary: the divider is then the full past periods' weight, and the
  // task ran half of each.
  EXPECT_NEAR(a.util_avg, 512, 4);
  EXPECT_NEAR(static_cast<double>(a.load_avg), 335.0 * a.util_avg / 1024, 2);
}

// The definition, unit by unit: each unit of the history adds 1 (times the input) and every
// period boundary multiplies what came before by y.
struct unit_reference {
  long double load = 0, util = 0;
  u64 unit = 0;  // absolute unit index
  void advance(u64 units, long double load_in, bool running) {
    for (u64 i = 0; i < units; ++i) {
      load += load_in;
      if (running) util += 1024;
      if (++unit % pelt_period_units == 0) {
        load *= y_pow(1);
        util *= y_pow(1);
      }
    }
  }
};

TEST(Pelt, RandomHistoriesAgreeWithTheUnitByUnitDefinition) {
  std::mt19937_64 rng(20261202);
  for (int trial = 0; trial < 40; ++trial) {
    pelt_avg a{};
    unit_reference ref;
    u64 now = 0;
    bool queued = false, running = false;
    for (int step = 0; step < 400; ++step) {
      // Segments from a fraction of a unit to a few periods; inputs change only at updates.
      const u64 len_ns = rng() % (3 * period_ns) + rng() % 5000;
      const u64 before_units = now >> pelt_unit_shift;
      now += len_ns;
      const u64 units = (now >> pelt_unit_shift) - before_units;
      ref.advance(units, queued ? 1.0L : 0.0L, running);
      pelt_update_entity(a, now, 1024, queued, running);
      queued = rng() % 3 != 0;
      running = queued && rng() % 2 == 0;
    }
    // The sums: the header truncates at each decay (a unit or so each) and the reference
    // keeps fractions, so they agree to a fraction of a percent.
    EXPECT_NEAR(dbl(a.load_sum), dbl(ref.load), dbl(ref.load * 0.004L + 64)) << trial;
    EXPECT_NEAR(dbl(u64{a.util_sum}), dbl(ref.util), dbl(ref.util * 0.004L + 65536)) << trial;
    EXPECT_EQ(a.period_contrib, ref.unit % pelt_period_units);
  }
}

TEST(Pelt, UpdatePointsDoNotChangeTheResultBeyondRounding) {
  // The same history (runnable 3 ms of every 7 ms) updated at every change, or also every
  // 100 us in between: the sums differ only by truncation.
  pelt_avg coarse{}, fine{};
  for (u64 t = 0; t < 1000ull * 1000 * 1000; t += 7ull * 1000 * 1000) {
    const u64 on_end = t + 3ull * 1000 * 1000, off_end = t + 7ull * 1000 * 1000;
    for (u64 x = t + 100000; x < on_end; x += 100000) pelt_update_entity(fine, x, 2048, true, true);
    pelt_update_entity(fine, on_end, 2048, true, true);
    pelt_update_entity(coarse, on_end, 2048, true, true);
    for (u64 x = on_end + 100000; x < off_end; x += 100000) pelt_update_entity(fine, x, 2048, false, false);
    pelt_update_entity(fine, off_end, 2048, false, false);
    pelt_update_entity(coarse, off_end, 2048, false, false);
  }
  EXPECT_NEAR(static_cast<double>(fine.load_sum), static_cast<double>(coarse.load_sum), 0.003 * static_cast<double>(coarse.load_sum));
  EXPECT_NEAR(static_cast<double>(fine.load_avg), 2048.0 * 3 / 7, 2048.0 * 0.05);
  // The averages date from each signal's last period boundary; refreshed now, they agree.
  pelt_refresh_averages(fine, 2048);
  pelt_refresh_averages(coarse, 2048);
  EXPECT_NEAR(static_cast<double>(coarse.load_avg), static_cast<double>(fine.load_avg), 4);
}

TEST(Pelt, AQueueFedItsWeightIsTheWeightedSumOfItsEntities) {
  // Three entities (weights 1024, 335, 3121) queued and running at random; the queue is fed
  // the weight it holds. Updated at the same instants, the queue's load_avg equals the sum
  // of the entities' load_avg, and its util the sum of theirs, up to truncation.
  std::mt19937_64 rng(7);
  const u32 weight[3] = {1024, 335, 3121};
  pelt_avg e[3] = {}, q{};
  bool queued[3] = {false, false, false};
  int curr = -1;
  u64 now = 0;
  for (int step = 0; step < 3000; ++step) {
    now += rng() % (2 * period_ns) + 1;
    u64 w = 0;
    u32 nr = 0;
    for (int i = 0; i < 3; ++i) {
      pelt_update_entity(e[i], now, weight[i], queued[i], curr == i);
      if (queued[i]) {
        w += weight[i];
        ++nr;
      }
    }
    pelt_update_queue(q, now, w, nr, curr >= 0);
    for (bool& b : queued) b = rng() % 2 == 0;
    curr = -1;
    for (int i = 0; i < 3; ++i)
      if (queued[i] && curr < 0 && rng() % 3 != 0) curr = i;
  }
  u64 load = 0, util = 0;
  for (const pelt_avg& x : e) {
    load += x.load_avg;
    util += x.util_avg;
  }
  EXPECT_NEAR(static_cast<double>(q.load_avg), static_cast<double>(load), 0.01 * static_cast<double>(load) + 4);
  EXPECT_NEAR(q.util_avg, static_cast<double>(util), 4);
  EXPECT_LE(q.util_avg, 1024u);  // one CPU: at most one entity runs
}

TEST(Pelt, AttachAddsAndDetachRemovesAnEntitysHistory) {
  // A task with history on CPU A moves to CPU B (empty): B's queue takes its load at once,
  // A's loses it, and both then evolve as if the task had always been on B.
  pelt_avg task{}, a{}, b{};
  u64 now = 0;
  for (int i = 0; i < 100; ++i) {  // 100 ms on A, alone, running
    now += 1000 * 1000;
    pelt_update_entity(task, now, 1024, true, true);
    pelt_update_queue(a, now, 1024, 1, true);
  }
  const u64 before = task.load_avg;
  ASSERT_GT(before, 800u);
  EXPECT_NEAR(static_cast<double>(a.load_avg), static_cast<double>(before), 3);
  pelt_update_queue(b, now, 0, 0, false);
  pelt_detach(a, task, 1024);
  pelt_attach(b, task, 1024);
  EXPECT_EQ(a.load_avg, 0u);
  EXPECT_EQ(b.load_avg, before);
  EXPECT_EQ(b.util_avg, task.util_avg);
  EXPECT_EQ(task.last_update_ns, b.last_update_ns);
  EXPECT_EQ(task.period_contrib, b.period_contrib);
  // The sums were rebuilt so that the next refresh gives back the same averages.
  pelt_avg copy = b;
  pelt_refresh_averages(copy, 1);
  EXPECT_NEAR(static_cast<double>(copy.load_avg), static_cast<double>(before), 2);
  // From here B's queue (fed its weight) and the task stay together.
  for (int i = 0; i < 50; ++i) {
    now += 1000 * 1000;
    pelt_update_entity(task, now, 1024, true, true);
    pelt_update_queue(b, now, 1024, 1, true);
    pelt_update_queue(a, now, 0, 0, false);
  }
  EXPECT_NEAR(static_cast<double>(b.load_avg), static_cast<double>(task.load_avg), 4);
  EXPECT_NEAR(b.util_avg, task.util_avg, 4);
  EXPECT_EQ(a.load_avg, 0u);
}

TEST(Pelt, DetachNeverUnderflowsAndKeepsSumsAboveAverages) {
  pelt_avg q{}, e{};
  e.load_avg = 500;
  e.util_avg = 700;
  e.runnable_avg = 700;
  pelt_attach(q, e, 1024);
  // A queue that lost part of its signal to rounding: less than the entity holds.
  q.load_avg -= 10;
  q.util_sum /= 2;
  pelt_detach(q, e, 1024);
  EXPECT_EQ(q.load_avg, 0u);
  EXPECT_EQ(q.util_avg, 0u);
  EXPECT_EQ(q.util_sum, 0u);
  pelt_avg r{};
  r.load_avg = 100;
  r.load_sum = 100ull * pelt_divider(r) * 2;
  pelt_avg small{};
  small.load_avg = 10;
  small.load_sum = r.load_sum;  // a sum out of proportion to its average
  pelt_detach(r, small, 1);
  EXPECT_EQ(r.load_avg, 90u);
  EXPECT_EQ(r.load_sum, 90ull * pelt_min_divider);  // floored at avg x PELT_MIN_DIVIDER
}

TEST(Pelt, SuccessiveForksOnAnIdleCpuStartAt512Then256Then128) {
  // algorithms-modern.md §6 (post_init_entity_util_avg).
  pelt_avg q{};
  const u32 expected[4] = {512, 256, 128, 64};
  for (u32 i = 0; i < 4; ++i) {
    pelt_avg t{};
    pelt_init_new_entity(t, 1024, q, 0);
    EXPECT_EQ(t.util_avg, expected[i]) << i;
    EXPECT_EQ(t.runnable_avg, expected[i]);
    EXPECT_EQ(t.load_avg, 1024u);  // load starts as if it had always been runnable
    pelt_attach(q, t, 1024);
  }
  EXPECT_EQ(q.util_avg, 960u);
  // A light task beside a heavier load gets its weighted part, smaller than the spare half:
  // 400 x 15 / (999 + 1) = 6, against a spare half of (1024 - 400) / 2 = 312.
  pelt_avg busy{};
  busy.util_avg = 400;
  busy.load_avg = 999;
  pelt_avg light{};
  pelt_init_new_entity(light, 15, busy, 5);
  EXPECT_EQ(light.util_avg, 6u);
  EXPECT_EQ(light.last_update_ns, 5u);
  // The weighted part's denominator is load_avg + 1, exactly: util 512 leaves a spare half of
  // 256; 512 x 1024 / (2047 + 1) = 256 (the spare half), / (2048 + 1) = 255.87 -> 255.
  pelt_avg half{};
  half.util_avg = 512;
  half.load_avg = 2047;
  pelt_init_new_entity(light, 1024, half, 0);
  EXPECT_EQ(light.util_avg, 256u);
  half.load_avg = 2048;
  pelt_init_new_entity(light, 1024, half, 0);
  EXPECT_EQ(light.util_avg, 255u);
  // A full CPU leaves nothing.
  pelt_avg full{};
  full.util_avg = 1024;
  pelt_init_new_entity(light, 1024, full, 0);
  EXPECT_EQ(light.util_avg, 0u);
}

TEST(Pelt, ANewEntityNeverAttachedKeepsItsStartingSignalConsistent) {
  // A fork's signal that no queue follows (schedsim's tasks in the root): its sums must give
  // back its averages, so that the next period boundary decays them by y instead of dropping
  // them to 0 (util_sum 0 beside util_avg 512 did that).
  pelt_avg idle_queue{};
  pelt_avg t{};
  pelt_init_new_entity(t, 1024, idle_queue, 0);
  ASSERT_EQ(t.util_avg, 512u);
  pelt_update_entity(t, period_ns, 1024, true, false);  // one period queued, not running
  EXPECT_NEAR(t.util_avg, 512 * std::pow(0.5, 1.0 / 32), 2);
  EXPECT_NEAR(dbl(t.runnable_avg), 512 * std::pow(0.5, 1.0 / 32) + 1024 * (1 - std::pow(0.5, 1.0 / 32)), 4);
  EXPECT_NEAR(static_cast<double>(t.load_avg), 1024, 2);  // runnable all along: stays at its weight
}

TEST(Pelt, AQueueTakesTheHistoriesOfManyFullTasksWithoutWrapping) {
  // 100 tasks that each ran all the time elsewhere arrive on one queue at once (the kernel's
  // u32 util_sum would wrap at 88): util_avg is their sum.
  pelt_avg full = run_for(3000, period_ns, true);
  pelt_avg q{};
  q.last_update_ns = full.last_update_ns;
  for (int i = 0; i < 100; ++i) {
    pelt_avg e = full;
    pelt_attach(q, e, 1024);
  }
  EXPECT_EQ(q.util_avg, 100u * full.util_avg);
  pelt_avg refreshed = q;
  pelt_refresh_averages(refreshed, 1);
  EXPECT_NEAR(refreshed.util_avg, 100.0 * full.util_avg, 100);
  EXPECT_GT(q.util_sum, u64{0xFFFFFFFFu});
}

TEST(Pelt, TimeThatWrapsAroundGivesTheSameSignalAndTimeThatStepsBackIsIgnored) {
  // The same history 5 ms before the 64-bit clock wraps and at 0.
  const u64 base = ~u64{0} - 5 * 1000 * 1000;  // only differences count: no alignment needed
  pelt_avg wrapped{}, plain{};
  wrapped.last_update_ns = base;
  for (u64 t = 0; t < 50ull * 1000 * 1000; t += 777777) {
    const bool on = (t / 3000000) % 2 == 0;
    pelt_update_entity(wrapped, base + t, 1024, on, on);
    pelt_update_entity(plain, t, 1024, on, on);
  }
  EXPECT_EQ(wrapped.load_sum, plain.load_sum);
  EXPECT_EQ(wrapped.util_sum, plain.util_sum);
  EXPECT_EQ(wrapped.util_avg, plain.util_avg);
  EXPECT_EQ(wrapped.period_contrib, plain.period_contrib);
  // A step back: nothing accounted, the window restarts there.
  pelt_avg back = plain;
  const u64 earlier = plain.last_update_ns - 3 * period_ns;
  EXPECT_FALSE(pelt_update_entity(back, earlier, 1024, true, true));
  EXPECT_EQ(back.load_sum, plain.load_sum);
  EXPECT_EQ(back.util_avg, plain.util_avg);
  EXPECT_EQ(back.last_update_ns, earlier);
  // Less than a unit: nothing either, and the remainder is kept for later.
  pelt_avg sub = plain;
  EXPECT_FALSE(pelt_update_entity(sub, plain.last_update_ns + 1023, 1024, true, true));
  EXPECT_EQ(sub.last_update_ns, plain.last_update_ns);
  EXPECT_EQ(sub.load_sum, plain.load_sum);
}

TEST(Pelt, ALoadOfZeroMeansNothingRunsWhateverTheOtherInputsSay) {
  pelt_avg a = run_for(100, period_ns, true), b = a;
  pelt_update_queue(a, 200 * period_ns, 0, 3, true);
  pelt_update_queue(b, 200 * period_ns, 0, 0, false);
  EXPECT_EQ(a.util_sum, b.util_sum);
  EXPECT_EQ(a.runnable_sum, b.runnable_sum);
}

TEST(Pelt, RunningOnASmallerCpuAddsUtilInProportionToItsCapacity) {
  // The unit-by-unit definition with util scaled by c / 1024 (the kernel's scale_cpu): an
  // always-running task saturates at its CPU's capacity, a half-duty one at half of it, and
  // load and runnable do not depend on the capacity.
  for (const u32 capacity : {1024u, 700u, 512u, 446u, 160u, 1u}) {
    pelt_avg full{}, half{}, big{};
    u64 t = 0;
    for (int p = 0; p < 600; ++p) {
      t += 512 * unit_ns;
      pelt_update_entity(full, t, 1024, true, true, capacity);
      pelt_update_entity(half, t, 1024, true, true, capacity);
      pelt_update_entity(big, t, 1024, true, true);
      t += 512 * unit_ns;
      pelt_update_entity(full, t, 1024, true, true, capacity);
      pelt_update_entity(half, t, 1024, false, false, capacity);
      pelt_update_entity(big, t, 1024, true, true);
    }
    EXPECT_NEAR(full.util_avg, capacity, 2.0 + capacity * 0.002) << capacity;
    EXPECT_NEAR(half.util_avg, capacity / 2.0, 2.0 + capacity * 0.004) << capacity;
    EXPECT_EQ(full.load_avg, big.load_avg) << capacity;
    EXPECT_EQ(full.runnable_avg, big.runnable_avg) << capacity;
    // The scaled sum is the unscaled one times c / 1024, to the truncations of the decays.
    EXPECT_NEAR(dbl(full.util_sum), dbl(big.util_sum) * capacity / 1024.0, dbl(big.util_sum) * 0.001 + 2048) << capacity;
  }
}

TEST(Pelt, CapacityDefaultsToTheBiggestCpuAndIsCappedThere) {
  // The default argument is 1024, bit for bit; a capacity above 1024 counts as 1024 (util
  // never passes 1024 per running entity); capacity 0 adds no util.
  std::mt19937_64 rng(42);
  pelt_avg plain{}, at_max{}, above{}, zero{}, q_plain{}, q_scaled{};
  u64 now = 0;
  for (int step = 0; step < 2000; ++step) {
    now += rng() % (2 * period_ns) + 1;
    const bool running = rng() % 2 == 0;
    pelt_update_entity(plain, now, 1024, true, running);
    pelt_update_entity(at_max, now, 1024, true, running, 1024);
    pelt_update_entity(above, now, 1024, true, running, 5000);
    pelt_update_entity(zero, now, 1024, true, running, 0);
    pelt_update_queue(q_plain, now, 2048, 2, running);
    pelt_update_queue(q_scaled, now, 2048, 2, running, 300);
  }
  EXPECT_EQ(plain.util_sum, at_max.util_sum);
  EXPECT_EQ(plain.util_sum, above.util_sum);
  EXPECT_EQ(plain.util_avg, above.util_avg);
  EXPECT_GT(plain.util_avg, 100u);
  EXPECT_EQ(zero.util_sum, 0u);
  EXPECT_EQ(zero.load_sum, plain.load_sum);
  EXPECT_EQ(q_scaled.load_avg, q_plain.load_avg);
  EXPECT_NEAR(q_scaled.util_avg, q_plain.util_avg * 300.0 / 1024, 2);
}

TEST(Pelt, AForkOnASmallerCpuStartsAtHalfOfWhatItsCapacityLeaves) {
  // post_init_entity_util_avg's cap = (cpu_scale - the queue's util) / 2.
  pelt_avg idle_queue{}, child{};
  pelt_init_new_entity(child, 1024, idle_queue, 0, 446);
  EXPECT_EQ(child.util_avg, 223u);
  pelt_avg busy_queue{};
  busy_queue.util_avg = 300;
  busy_queue.load_avg = 100;  // a light queue: the weighted share (3000+) is above the cap
  pelt_init_new_entity(child, 1024, busy_queue, 0, 446);
  EXPECT_EQ(child.util_avg, 73u);
  busy_queue.util_avg = 500;  // more used than the CPU has: nothing left
  pelt_init_new_entity(child, 1024, busy_queue, 0, 446);
  EXPECT_EQ(child.util_avg, 0u);
  pelt_init_new_entity(child, 1024, idle_queue, 0, 4000);  // above 1024 counts as 1024
  EXPECT_EQ(child.util_avg, 512u);
}

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

// Source: Linux detach_entity_load_avg() (kernel/sched/fair.c, the "sched/pelt: Relax the sync
// of util_sum/runnable_sum with util_avg/runnable_avg" changes): after sub_positive, util_sum =
// max(util_sum, util_avg * PELT_MIN_DIVIDER) and runnable_sum = max(runnable_sum, runnable_avg
// * PELT_MIN_DIVIDER), as pelt.hpp's pelt_detach documents.
TEST(Pelt, DetachFloorsUtilAndRunnableSumsAtTheirAveragesTimesTheMinDivider) {
  pelt_avg r{};
  r.util_avg = 300;
  r.util_sum = 300ull * pelt_min_divider * 2;
  r.runnable_avg = 300;
  r.runnable_sum = 300ull * pelt_min_divider * 2;
  pelt_avg small{};
  small.util_avg = 100;
  small.util_sum = r.util_sum;  // sums out of proportion to their averages
  small.runnable_avg = 100;
  small.runnable_sum = r.runnable_sum;
  pelt_detach(r, small, 1);
  EXPECT_EQ(r.util_avg, 200u);
  EXPECT_EQ(r.util_sum, 200ull * pelt_min_divider);  // floored at avg x PELT_MIN_DIVIDER
  EXPECT_EQ(r.runnable_avg, 200u);
  EXPECT_EQ(r.runnable_sum, 200ull * pelt_min_divider);
}

}  // namespace
