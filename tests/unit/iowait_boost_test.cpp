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
  // Exactly one tick later is not yet "more than a tick".
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

}  // namespace
