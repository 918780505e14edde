// The length of the suites' long random and differential runs, per build.
//
// The release phase of tools/test.sh runs every count as written (a million bitmap and tree
// operations, 10^5 eevdf steps against the brute force, 20000 contract steps per policy). The
// sanitizer and 32-bit phases run the same code again for what they add: ASan and UBSan find a
// bad access or an overflow on the first path that makes one, and qemu-i386 runs the 32-bit
// arithmetic. There a run's length mostly buys time: under ASan these runs were 60 % of the
// phase's test time (policy_contract_test alone 88 s against about 10 s in the release build).
// Those builds define SCHEDCORE_TEST_STEP_DIVISOR (tests/CMakeLists.txt,
// SCHEDCORE_TEST_STEP_DIVISOR cache variable; CMakePresets.json sets it) and the runs are that
// many times shorter, from the same seeds: a shortened run is a prefix of the full one.
#ifndef SCHEDCORE_TESTS_TEST_STEPS_HPP
#define SCHEDCORE_TESTS_TEST_STEPS_HPP

#ifndef SCHEDCORE_TEST_STEP_DIVISOR
#define SCHEDCORE_TEST_STEP_DIVISOR 1
#endif
static_assert(SCHEDCORE_TEST_STEP_DIVISOR >= 1, "SCHEDCORE_TEST_STEP_DIVISOR divides step counts");

namespace schedcore_test {

/// `full` steps in the release build; full / SCHEDCORE_TEST_STEP_DIVISOR where that is set.
constexpr long run_steps(long full) { return full / SCHEDCORE_TEST_STEP_DIVISOR; }
/// The same for an int count.
constexpr int run_steps(int full) { return full / SCHEDCORE_TEST_STEP_DIVISOR; }
/// A floor on how often a run exercised a path (a coverage check: "more than 100 delayed
/// sleepers were finished"), lowered with the run that counts it. A rare path is not met
/// evenly along a run (wakeup_dequeues: 2 in the first quarter of a run that meets it more than
/// 10 times), so a shortened run's floor is half its share: full / (2 x divisor).
constexpr unsigned long long run_count(unsigned long long full) {
  return SCHEDCORE_TEST_STEP_DIVISOR == 1 ? full : full / (2ull * SCHEDCORE_TEST_STEP_DIVISOR);
}

}  // namespace schedcore_test

#endif  // SCHEDCORE_TESTS_TEST_STEPS_HPP
