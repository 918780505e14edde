// Built with NDEBUG and without a handler: the cheap tier and the invariant tier must compile
// to nothing (their expressions are not evaluated), while WARN_ON and MISUSE still evaluate
// their condition and return it.
#include <gtest/gtest.h>

#include "schedcore/core/assert.hpp"

static_assert(SCHEDCORE_ENABLE_ASSERTS == 0, "NDEBUG must turn the cheap tier off");
static_assert(SCHEDCORE_ENABLE_INVARIANTS == 0, "invariants are opt-in");

namespace {

int evaluations = 0;
bool counted(bool v) {
  ++evaluations;
  return v;
}

TEST(ReleaseTier, AssertAndInvariantAreNotEvaluated) {
  evaluations = 0;
  SCHEDCORE_ASSERT(counted(false));     // would trap (default handler) if evaluated
  SCHEDCORE_INVARIANT(counted(false));  // likewise
  EXPECT_EQ(evaluations, 0);
}

TEST(ReleaseTier, WarnOnAndMisuseStillReturnTheirCondition) {
  evaluations = 0;
  EXPECT_TRUE(SCHEDCORE_WARN_ON(counted(true)));  // default handler ignores warnings
  EXPECT_FALSE(SCHEDCORE_WARN_ON(counted(false)));
  EXPECT_TRUE(SCHEDCORE_MISUSE(counted(true)));   // not reported in release, still refused
  EXPECT_EQ(evaluations, 3);
}

}  // namespace
