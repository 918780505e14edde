// Unit tests of smp/iowait_boost.hpp against schedutil's documented behaviour (the comments of
// kernel/sched/cpufreq_schedutil.c): the boost starts at 1024 / 8, doubles at each I/O wakeup
// (once per evaluation) up to 1024, halves at each evaluation without one and is dropped below
// the minimum, resets after a tick without updates, and is scaled to the CPU's capacity; times
// wrap safely.
#include <gtest/gtest.h>

#include <cstdint>

#include "schedcore/smp/iowait_boost.hpp"

namespace {

using namespace schedcore;

constexpr u64 kTick = 1000000;  // HZ = 1000

static_assert(iowait_boost_min == 128, "IOWAIT_BOOST_MIN = SCHED_CAPACITY_SCALE / 8");

TEST(IowaitBoost, DoublesAtEachIoWakeupUpToTheCapacity) {
  iowait_boost s;
  u64 now = 5 * kTick;
  const u32 want[] = {128, 256, 512, 1024, 1024, 1024};
  for (u32 w : want) {
    iowait_boost_request(s, now, kTick, true);
    EXPECT_EQ(iowait_boost_apply(s, now, kTick, 1024), w);
    now += kTick / 2;  // the next I/O wakeup half a tick later
  }
}

TEST(IowaitBoost, HalvesAtEachEvaluationWithoutOne) {
  iowait_boost s;
  u64 now = 0;
  for (int i = 0; i < 4; ++i) {
    iowait_boost_request(s, now, kTick, true);
    (void)iowait_boost_apply(s, now, kTick, 1024);
    now += 1000;
  }
  ASSERT_EQ(s.boost, 1024u);
  // Updates without I/O (a tick on the busy CPU) keep last_update fresh; each evaluation halves.
  const u32 want[] = {512, 256, 128, 0, 0};
  for (u32 w : want) {
    iowait_boost_request(s, now, kTick, false);
    EXPECT_EQ(iowait_boost_apply(s, now, kTick, 1024), w);
    now += kTick / 2;
  }
  EXPECT_EQ(s.boost, 0u) << "64 is below the minimum: dropped";
}

TEST(IowaitBoost, DoublesOnlyOncePerEvaluation) {
  iowait_boost s;
  iowait_boost_request(s, 0, kTick, true);
  iowait_boost_request(s, 100, kTick, true);
  iowait_boost_request(s, 200, kTick, true);
  EXPECT_EQ(iowait_boost_apply(s, 300, kTick, 1024), 128u) << "three requests, one evaluation";
  iowait_boost_request(s, 400, kTick, true);
  iowait_boost_request(s, 500, kTick, true);
  EXPECT_EQ(iowait_boost_apply(s, 600, kTick, 1024), 256u);
}

TEST(IowaitBoost, ResetsAfterATickWithoutUpdates) {
  iowait_boost s;
  u64 now = 0;
  for (int i = 0; i < 3; ++i) {
    iowait_boost_request(s, now, kTick, true);
    (void)iowait_boost_apply(s, now, kTick, 1024);
    now += 1000;
  }
  ASSERT_EQ(s.boost, 512u);
  // An I/O wakeup after an idle spell longer than a tick starts again from the minimum.
  now += 2 * kTick;
  iowait_boost_request(s, now, kTick, true);
  EXPECT_EQ(s.boost, 128u);
  EXPECT_TRUE(s.pending);
  EXPECT_EQ(iowait_boost_apply(s, now, kTick, 1024), 128u) << "reset, not doubled";
  // Exactly one tick later the boost is held and halved, and 128 halves below the minimum (a
  // reset would give 0 too: ABoostIsKeptExactlyOneTickAfterTheLastUpdate checks the bound).
  now += kTick;
  EXPECT_EQ(iowait_boost_apply(s, now, kTick, 1024), 0u) << "halved below the minimum";
  // Any other update after a tick drops it; an evaluation of a CPU left alone for a tick too.
  iowait_boost_request(s, now, kTick, true);
  ASSERT_EQ(s.boost, 128u);
  iowait_boost_request(s, now + kTick + 1, kTick, false);
  EXPECT_EQ(s.boost, 0u);
  iowait_boost_request(s, now + 3 * kTick, kTick, true);
  EXPECT_EQ(iowait_boost_apply(s, now + 4 * kTick + 1, kTick, 1024), 0u) << "no update for more than a tick";
}

TEST(IowaitBoost, ScaledToTheCapacityAndWrapSafe) {
  iowait_boost s;
  u64 now = ~u64{0} - kTick / 4;  // the clock wraps during the run
  for (int i = 0; i < 4; ++i) {
    iowait_boost_request(s, now, kTick, true);
    (void)iowait_boost_apply(s, now, kTick, 1024);
    now += kTick / 8;
  }
  ASSERT_EQ(s.boost, 1024u);
  iowait_boost_request(s, now, kTick, true);
  EXPECT_EQ(iowait_boost_apply(s, now, kTick, 446), 446u);
  iowait_boost_request(s, now + 10, kTick, false);
  EXPECT_EQ(iowait_boost_apply(s, now + 20, kTick, 446), 223u) << "512 x 446 / 1024";
}

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

TEST(IowaitBoost, ABoostIsKeptExactlyOneTickAfterTheLastUpdate) {
  // sugov_iowait_reset resets only when delta_ns > TICK_NSEC: at exactly one tick the boost
  // is still held, so the evaluation halves it (512 -> 256) instead of dropping it.
  iowait_boost s;
  u64 now = 0;
  for (int i = 0; i < 3; ++i) {  // 128, 256, 512
    iowait_boost_request(s, now, kTick, true);
    (void)iowait_boost_apply(s, now, kTick, 1024);
    now += 1000;
  }
  ASSERT_EQ(s.boost, 512u);
  iowait_boost_request(s, now, kTick, false);  // last update at `now`
  EXPECT_EQ(iowait_boost_apply(s, now + kTick, kTick, 1024), 256u) << "a tick is not more than a tick";
  // One nanosecond more and the evaluation resets it (sugov_iowait_apply returns early).
  iowait_boost_request(s, now + kTick, kTick, false);
  EXPECT_EQ(iowait_boost_apply(s, now + 2 * kTick + 1, kTick, 1024), 0u);
}

TEST(IowaitBoost, AnEvaluationThatResetsLeavesNeitherBoostNorPending) {
  // sugov_iowait_apply calls sugov_iowait_reset(sg_cpu, time, false): the boost becomes 0 and
  // pending false (set_iowait_boost is false), so nothing is left for the next evaluation.
  iowait_boost s;
  iowait_boost_request(s, 0, kTick, true);
  ASSERT_EQ(s.boost, 128u);
  EXPECT_EQ(iowait_boost_apply(s, 2 * kTick, kTick, 1024), 0u) << "held past a tick without an update";
  EXPECT_EQ(s.boost, 0u);
  EXPECT_FALSE(s.pending);
  EXPECT_EQ(iowait_boost_apply(s, 2 * kTick + 1000, kTick, 1024), 0u) << "no boost reappears";
}

}  // namespace
