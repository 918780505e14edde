// Unit tests of smp/group_shares.hpp (calc_group_shares), against the arithmetic of cgroup
// weights (docs/guides/group-scheduling.md): a group's shares split over CPUs in proportion to
// its load on each, at least MIN_SHARES (2), at most the shares; the local load is the larger
// of the queued weight and the PELT average; the CPU's own stale publication is replaced.
#include <gtest/gtest.h>

#include "schedcore/smp/group_shares.hpp"

namespace {

using namespace schedcore;

static_assert(calc_group_shares(1024, 1024, 0, 1024, 1024) == 1024, "usable in constant expressions");

TEST(GroupShares, OneCpuKeepsTheWholeShares) {
  EXPECT_EQ(calc_group_shares(1024, 3072, 3000, 3000, 3000), 1024u);
  EXPECT_EQ(calc_group_shares(2048, 1024, 0, 0, 0), 2048u);  // nothing published yet
}

TEST(GroupShares, SplitInProportionToTheLoadOnEachCpu) {
  // One hog here, two on another CPU: 1024 x 1024 / 3072 = 341.
  EXPECT_EQ(calc_group_shares(1024, 1024, 1024, 3072, 1024), 341u);
  // The other CPU's view: 2048 / 3072 of the shares.
  EXPECT_EQ(calc_group_shares(1024, 2048, 2048, 3072, 2048), 682u);
  // Four CPUs with one hog each: a quarter each.
  EXPECT_EQ(calc_group_shares(4096, 1024, 1024, 4096, 1024), 1024u);
}

TEST(GroupShares, TheLargerOfQueuedWeightAndAverageCounts) {
  // Just woke here: queued 1024 although the average is still 100; the other CPU has 1024.
  EXPECT_EQ(calc_group_shares(1024, 1024, 100, 1124, 100), 512u);
  // Sleeping briefly here: nothing queued, the average 900 keeps most of its part.
  EXPECT_EQ(calc_group_shares(1024, 0, 900, 1924, 900), 1024u * 900 / 1924);
}

TEST(GroupShares, ThisCpusStalePublicationIsReplacedByItsCurrentLoad) {
  // Published 500 when the sum was taken; now 1024: tg_weight = (1524 - 500) + 1024.
  EXPECT_EQ(calc_group_shares(1024, 1024, 1024, 1524, 500), 1024u * 1024 / 2048);
  // A publication larger than the sum (rounding elsewhere) does not underflow.
  EXPECT_EQ(calc_group_shares(1024, 1024, 1024, 10, 500), 1024u);
}

TEST(GroupShares, ClampedToMinSharesAndToTheShares) {
  EXPECT_EQ(calc_group_shares(1024, 0, 0, 5000, 0), group_min_shares);       // idle here
  EXPECT_EQ(calc_group_shares(1024, 1, 0, 1000000, 0), group_min_shares);    // a sliver
  EXPECT_EQ(calc_group_shares(1024, 0, 0, 0, 0), group_min_shares);          // idle everywhere
  // Huge loads: the product shares x load needs more than 64 bits, the result does not.
  const u64 huge = u64{1} << 56;
  EXPECT_EQ(calc_group_shares(group_max_shares, huge, 0, huge, huge), group_max_shares);
  EXPECT_EQ(calc_group_shares(group_max_shares, huge / 2, 0, huge, huge / 2), group_max_shares / 2);
}

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

TEST(GroupShares, TheFloorIsTwoAndTheCeilingTwoToTheEighteenth) {
  // fair.c: MIN_SHARES = 1 << 1, MAX_SHARES = 1 << 18 (unscaled, as the policies take them).
  EXPECT_EQ(group_min_shares, 2u);
  EXPECT_EQ(group_max_shares, 262144u);
  // cpu.weight 1 (shares 10) with a hog (1024) on each of 64 CPUs: 10 x 1024 / 65536 is 0,
  // raised to MIN_SHARES.
  EXPECT_EQ(calc_group_shares(10, 1024, 1024, 65536, 1024), 2u);
  // A group at MAX_SHARES alone on this CPU keeps all of it.
  EXPECT_EQ(calc_group_shares(262144, 1024, 1024, 1024, 1024), 262144u);
}

TEST(GroupShares, SharesBelowTheFloorAreReturnedAsTheyAre) {
  // calc_group_shares ends in clamp_t(long, shares, MIN_SHARES, tg_shares), i.e.
  // min(max(shares, MIN_SHARES), tg_shares): the ceiling is applied last, so a group whose
  // shares are below 2 gets its shares, never more (the header: "shares itself when shares < 2").
  EXPECT_EQ(calc_group_shares(1, 1024, 1024, 1024, 1024), 1u);  // 1 x 1024 / 1024 = 1
  EXPECT_EQ(calc_group_shares(1, 0, 0, 5000, 0), 1u);           // idle here: 0, floor 2, ceiling 1
  EXPECT_EQ(calc_group_shares(0, 1024, 1024, 1024, 1024), 0u);
}

}  // namespace
