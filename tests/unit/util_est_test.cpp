// Unit tests of smp/util_est.hpp against its definition (Linux 6.8+ util_est_update):
// - the EWMA of decreasing samples against ewma_n = s + (e0 - s) (3/4)^n in long double,
//   within one unit per step (each step floors);
// - each rule alone: a rise replaces, a drop under 1 % leaves it, an over-capacity sample is
//   skipped unmarked, a sample of a task that waited is skipped marked, the mark skips until
//   PELT refreshes util;
// - with PELT itself: a task that runs 16 ms every 100 ms wakes with util_avg down to about
//   a sixth of its end-of-burst util (84 ms asleep, 80.1 PELT periods of 1.048576 ms:
//   2^(-80.1/32) = 0.176), and its estimate holds the end-of-burst value.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "schedcore/smp/pelt.hpp"
#include "schedcore/smp/util_est.hpp"

namespace {

using namespace schedcore;

static_assert(util_est_margin == 10, "1 % of SCHED_CAPACITY_SCALE");

TEST(UtilEst, DecreasesFollowAQuarterWeightEwma) {
  for (u32 e0 : {1024u, 800u, 300u}) {
    for (u32 sample : {0u, 50u, 200u}) {
      if (sample + util_est_margin >= e0) continue;
      u32 est = e0;
      for (int n = 1; n <= 30; ++n) {
        util_est_util_changed(est);  // a new activation: util_avg was refreshed
        util_est_dequeue_sleep(est, sample, sample, 1024);
        const long double oracle = sample + (static_cast<long double>(e0) - sample) * std::pow(0.75L, n);
        const u32 value = util_est_value(est);
        // Each step floors by < 1; and the ewma stops moving once within the 1 % margin.
        if (oracle - sample >= static_cast<long double>(util_est_margin) + n) {
          EXPECT_LE(static_cast<long double>(value), oracle) << e0 << " -> " << sample << " step " << n;
          EXPECT_GE(static_cast<long double>(value) + n, oracle) << e0 << " -> " << sample << " step " << n;
        }
        EXPECT_LT(value - sample, std::max<u32>(util_est_margin + static_cast<u32>(n), static_cast<u32>(oracle - sample + 1.0L)))
            << e0 << " -> " << sample << " step " << n;
      }
      EXPECT_LT(util_est_value(est) - sample, util_est_margin + 4) << "converged within the margin";
    }
  }
}

TEST(UtilEst, EachRuleAlone) {
  u32 est = 300;
  util_est_dequeue_sleep(est, 500, 500, 1024);  // a rise replaces at once
  EXPECT_EQ(util_est_value(est), 500u);
  EXPECT_NE(est & util_est_unchanged, 0u);
  util_est_dequeue_sleep(est, 100, 100, 1024);  // marked: util_avg not refreshed since: skipped
  EXPECT_EQ(util_est_value(est), 500u);
  util_est_util_changed(est);
  util_est_dequeue_sleep(est, 491, 491, 1024);  // a drop of 9 < 10: kept, marked
  EXPECT_EQ(est, 500u | util_est_unchanged);
  util_est_util_changed(est);
  util_est_dequeue_sleep(est, 490, 490, 1024);  // a drop of 10: (2000 - 10) / 4
  EXPECT_EQ(util_est_value(est), 497u);
  util_est_util_changed(est);
  util_est_dequeue_sleep(est, 400, 600, 1024);  // it waited (400 + 10 < 600): kept, marked
  EXPECT_EQ(est, 497u | util_est_unchanged);
  util_est_util_changed(est);
  est = 600;
  util_est_dequeue_sleep(est, 450, 450, 446);  // above the CPU's capacity: skipped, not marked
  EXPECT_EQ(est, 600u);
  util_est_dequeue_sleep(est, 440, 440, 446);  // fits: (2400 - 160) / 4 = 560
  EXPECT_EQ(util_est_value(est), 560u);
  EXPECT_EQ(task_util_est(300, est), 560u);
  EXPECT_EQ(task_util_est(700, est), 700u);
  EXPECT_EQ(task_util_est(0, 0), 0u);
  // The two skips are strict, as util_est_update's tests: a util exactly at the CPU's capacity
  // is a sample, and so is one exactly UTIL_EST_MARGIN below its runnable average.
  est = 600;
  util_est_dequeue_sleep(est, 446, 446, 446);  // (2400 - 154) / 4 = 561
  EXPECT_EQ(util_est_value(est), 561u);
  util_est_util_changed(est);
  util_est_dequeue_sleep(est, 400, 410, 1024);  // 400 + 10 = 410, not below it: (2244 - 161) / 4 = 520
  EXPECT_EQ(util_est_value(est), 520u);
}

TEST(UtilEst, AnEstimateRemembersWhatSleepErases) {
  // A task that runs 16 ms then sleeps 84 ms, on a 1024 CPU, for 3 s.
  pelt_avg a{};
  u32 est = 0;
  std::uint64_t now = 1'000'000'000;
  a.last_update_ns = now;
  u32 at_dequeue = 0, at_wakeup = 0;
  for (int period = 0; period < 30; ++period) {
    if (pelt_update_entity(a, now, 1024, false, false)) util_est_util_changed(est);
    at_wakeup = a.util_avg;
    now += 16'000'000;
    if (pelt_update_entity(a, now, 1024, true, true)) util_est_util_changed(est);
    at_dequeue = a.util_avg;
    util_est_dequeue_sleep(est, a.util_avg, static_cast<u32>(a.runnable_avg), 1024);
    now += 84'000'000;
  }
  // PELT's steady state: the end-of-burst util u satisfies u = u y^100 + 1024 (1 - y^16)
  // in continuous time (y^32 = 1/2, one period per 1.048576 ms).
  const double y = std::pow(0.5, 1.0 / 32);
  const double ms = 1.048576;
  const double end = 1024 * (1 - std::pow(y, 16 / ms)) / (1 - std::pow(y, 100 / ms));
  EXPECT_NEAR(at_dequeue, end, 12);
  EXPECT_NEAR(at_wakeup, end * std::pow(y, 84 / ms), 12);
  EXPECT_LT(at_wakeup * 5, at_dequeue) << "sleep erases most of it";
  EXPECT_EQ(util_est_value(est), at_dequeue) << "the estimate holds the burst's size";
  EXPECT_EQ(task_util_est(at_wakeup, est), util_est_value(est));
}

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

TEST(UtilEst, AnEwmaUpdateIsMarkedSoASecondDequeueWithoutARefreshSkips) {
  // util_est_update ends with `ewma |= UTIL_AVG_UNCHANGED` on every path through `done`, the
  // EWMA step included: until PELT refreshes util_avg, another dequeue is not another sample.
  u32 est = 400;
  util_est_dequeue_sleep(est, 200, 200, 1024);  // (4 x 400 - 200) / 4 = 350
  EXPECT_EQ(est, 350u | util_est_unchanged);
  util_est_dequeue_sleep(est, 200, 200, 1024);  // the same util_avg again: skipped
  EXPECT_EQ(util_est_value(est), 350u);
  util_est_util_changed(est);
  util_est_dequeue_sleep(est, 200, 200, 1024);  // refreshed: (4 x 350 - 150) / 4 = 312.5, floored
  EXPECT_EQ(util_est_value(est), 312u);
}

}  // namespace
