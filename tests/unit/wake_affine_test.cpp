// Unit tests of smp/wake_affine.hpp against the kernel's rules, restated independently:
// - wake_wide: the smaller flip count reaches the LLC size and the ratio of the counts does too
//   (rational arithmetic), for every pair of small counts;
// - record_wakee: a flip per change of wakee, halving strictly after a second, across the
//   64-bit wrap;
// - wake_affine_idle: its decision table, all 16 cases;
// - wake_affine_weight: worked examples in the kernel's integers, the sync rules, capacities,
//   and monotonicity (more load on the waker's CPU never makes it more attractive);
// - select_idle_sibling: against a brute force that walks the candidate list in order;
//   select_idle_cache_hot likewise, with a fit test.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "schedcore/smp/wake_affine.hpp"

namespace {

using namespace schedcore;

static_assert(wake_wide(64, 8, 8) && !wake_wide(63, 8, 8) && !wake_wide(1000, 7, 8), "the header's examples");
static_assert(wake_affine_weight(1024, 3072, 1024, 0, false, 1024, 1024, 117), "two hogs on prev: pull");
static_assert(!wake_affine_weight(1024, 2048, 1024, 0, false, 1024, 1024, 117), "one hog on prev: stay");

TEST(WakeAffine, AWakeupIsWideWhenBothFlipCountsReachTheLlcSizeAndTheirRatioDoesToo) {
  for (u32 llc = 1; llc <= 16; ++llc)
    for (u32 a = 0; a <= 200; ++a)
      for (u32 b = 0; b <= 200; ++b) {
        const u32 lo = a < b ? a : b, hi = a < b ? b : a;
        // hi / lo >= llc as a ratio of integers, lo >= llc > 0.
        const bool expected = lo >= llc && static_cast<long double>(hi) / lo >= static_cast<long double>(llc);
        ASSERT_EQ(wake_wide(a, b, llc), expected) << a << " " << b << " " << llc;
      }
  // The counts are 32-bit; the product is taken in 64 bits.
  EXPECT_TRUE(wake_wide(0xFFFFFFFFu, 0x10000000u, 8));
  EXPECT_FALSE(wake_wide(0xFFFFFFFFu, 0x20000001u, 8));
}

TEST(WakeAffine, RecordWakeeCountsAFlipPerChangeOfWakeeAndHalvesStrictlyAfterASecond) {
  wakee_flips w;
  w.decay_stamp_ns = 5000;
  record_wakee(w, 5000, 7);  // the first wakee: a flip
  EXPECT_EQ(w.flips, 1u);
  record_wakee(w, 6000, 7);  // the same one again: none
  EXPECT_EQ(w.flips, 1u);
  for (u64 i = 0; i < 9; ++i) record_wakee(w, 7000 + i, i % 2 == 0 ? 8 : 7);  // alternating: 9 flips
  EXPECT_EQ(w.flips, 10u);
  EXPECT_EQ(w.last_wakee, 8u);
  record_wakee(w, 5000 + wakee_flip_decay_ns, 8);  // exactly one second: no halving (time_after is strict)
  EXPECT_EQ(w.flips, 10u);
  record_wakee(w, 5001 + wakee_flip_decay_ns, 8);  // one ns more: halved, same wakee, no flip
  EXPECT_EQ(w.flips, 5u);
  EXPECT_EQ(w.decay_stamp_ns, 5001 + wakee_flip_decay_ns);
  record_wakee(w, 5001 + 2 * wakee_flip_decay_ns, 9);  // not yet: only the flip
  EXPECT_EQ(w.flips, 6u);

  // Across the wrap of the 64-bit clock: the stamp half a second before it; 0.1 s after the
  // wrap (0.6 s later) nothing, 0.6 s after it (1.1 s later) a halving.
  wakee_flips x;
  x.flips = 40;
  x.decay_stamp_ns = ~u64{0} - 500000000u;
  x.last_wakee = 3;
  record_wakee(x, 100000000u, 3);
  EXPECT_EQ(x.flips, 40u);
  record_wakee(x, 600000000u, 3);
  EXPECT_EQ(x.flips, 20u);
  record_wakee(x, 700000000u, 3);  // 0.1 s after the new stamp: unchanged
  EXPECT_EQ(x.flips, 20u);
}

TEST(WakeAffine, WakeAffineIdleDecisionTable) {
  using c = wake_affine_choice;
  for (const bool this_idle : {false, true})
    for (const bool prev_idle : {false, true})
      for (const bool sync : {false, true})
        for (const u32 running : {1u, 2u}) {
          // The kernel's order: an idle waking CPU first (it counts no running task then, but
          // the rule does not look), then a sync waker alone, then an idle previous CPU.
          c expected = c::undecided;
          if (this_idle)
            expected = prev_idle ? c::prev_cpu : c::this_cpu;
          else if (sync && running == 1)
            expected = c::this_cpu;
          else if (prev_idle)
            expected = c::prev_cpu;
          EXPECT_EQ(wake_affine_idle(this_idle, prev_idle, sync, running), expected)
              << this_idle << prev_idle << sync << running;
        }
  EXPECT_EQ(wake_affine_idle(false, true, true, 1), c::this_cpu);   // a sync waker beats an idle prev
  EXPECT_EQ(wake_affine_idle(false, true, true, 2), c::prev_cpu);   // not alone: the idle prev
  EXPECT_EQ(wake_affine_idle(false, false, false, 1), c::undecided);
}

TEST(WakeAffine, WakeAffineWeightWorkedExamples) {
  // Weights, equal capacities, imbalance_pct 117 (margin 108). The woken task weighs 1024 and
  // its blocked load is still in prev_load (the kernel's convention).
  // Waker alone on this_cpu, two hogs on prev: 2048 x 100 = 204800 < 2048 x 108 = 221184.
  EXPECT_TRUE(wake_affine_weight(1024, 2048 + 1024, 1024, 0, false, 1024, 1024, 117));
  // One hog: 204800 against 110592.
  EXPECT_FALSE(wake_affine_weight(1024, 1024 + 1024, 1024, 0, false, 1024, 1024, 117));
  // Equal effective loads stay: 100 x (x + t) against 108 x (p - t) at the boundary.
  // this 1024 + t 1024 = 2048 -> 204800; prev - t = 1896.3: 1896 x 108 = 204768 < 204800 (stay),
  // 1897 x 108 = 204876 > 204800 (pull).
  EXPECT_FALSE(wake_affine_weight(1024, 1896 + 1024, 1024, 0, false, 1024, 1024, 117));
  EXPECT_TRUE(wake_affine_weight(1024, 1897 + 1024, 1024, 0, false, 1024, 1024, 117));
  // Sync, one hog: the waker's 1024 leaves, (0 + 1024) x 100 = 102400 < 110592 + 1.
  EXPECT_TRUE(wake_affine_weight(1024, 1024 + 1024, 1024, 1024, true, 1024, 1024, 117));
  // An exact tie stays, except for sync (the + 1): (1000 + 80) x 100 = 108000 against
  // (1080 - 80) x 108 = 108000; sync with a waker of 1000 on a CPU of 2000: the same 108000
  // against 108001.
  EXPECT_FALSE(wake_affine_weight(1000, 1000 + 80, 80, 0, false, 1024, 1024, 117));
  EXPECT_TRUE(wake_affine_weight(2000, 1000 + 80, 80, 1000, true, 1024, 1024, 117));
  // Sync with a waker heavier than its CPU's load (a waker that just arrived there): at once.
  EXPECT_TRUE(wake_affine_weight(500, 100000, 1024, 900, true, 1024, 1024, 117));
  EXPECT_FALSE(wake_affine_weight(500, 1024, 1024, 900, false, 1024, 1024, 117));
  // Capacities: a little waking CPU (446) with no load, prev (1024) at 600 without the task,
  // the task 300: 300 x 100 x 1024 = 30 720 000 against 600 x 108 x 446 = 28 900 800: stay.
  // On a waking CPU of 1024 as well: 300 x 100 < 600 x 108: pull.
  EXPECT_FALSE(wake_affine_weight(0, 900, 300, 0, false, 446, 1024, 117));
  EXPECT_TRUE(wake_affine_weight(0, 900, 300, 0, false, 1024, 1024, 117));
  // imbalance_pct 125 (before 5.10): a margin of 112.
  EXPECT_FALSE(wake_affine_weight(1024, 1828 + 1024, 1024, 0, false, 1024, 1024, 125));  // 204736 < 204800
  EXPECT_TRUE(wake_affine_weight(1024, 1829 + 1024, 1024, 0, false, 1024, 1024, 125));   // 204848
  // A prev_load below the task's (its blocked load decayed elsewhere): negative, never pulls.
  EXPECT_FALSE(wake_affine_weight(0, 10, 1024, 0, false, 1024, 1024, 117));
}

TEST(WakeAffine, MoreLoadOnTheWakersCpuNeverPullsAndMoreOnThePreviousNeverKeeps) {
  std::mt19937_64 rng(0xAFF1);
  for (int i = 0; i < 200000; ++i) {
    const u64 this_load = rng() % 200000, prev_load = rng() % 200000, task = rng() % 90000, waker = rng() % 90000;
    const bool sync = rng() % 2 == 0;
    const u32 tc = 1 + static_cast<u32>(rng() % 1024), pc = 1 + static_cast<u32>(rng() % 1024);
    const u64 more = 1 + rng() % 5000;
    const bool base = wake_affine_weight(this_load, prev_load, task, waker, sync, tc, pc, 117);
    // The waker's CPU heavier: a pull may become a stay, never the reverse. (A sync wakeup
    // whose waker outweighs its CPU pulls at once; adding load there can only end that.)
    if (!base) {
      ASSERT_FALSE(wake_affine_weight(this_load + more, prev_load, task, waker, sync, tc, pc, 117)) << i;
    }
    // The previous CPU heavier: a stay may become a pull, never the reverse.
    if (base) {
      ASSERT_TRUE(wake_affine_weight(this_load, prev_load + more, task, waker, sync, tc, pc, 117)) << i;
    }
  }
}

// The brute force: candidates in the kernel's order, the first usable idle one wins; the
// recent CPU counts only if it differs from both prev and the target.
int brute_force(const std::vector<bool>& usable_idle, int prev, int target, int recent) {
  const int n = static_cast<int>(usable_idle.size());
  std::vector<int> order = {target, prev};
  if (recent >= 0 && recent != prev && recent != target) order.push_back(recent);
  for (int k = 1; k < n; ++k) order.push_back((target + k) % n);
  for (const int c : order)
    if (usable_idle[static_cast<std::size_t>(c)]) return c;
  return target;
}

TEST(WakeAffine, SelectIdleSiblingTakesTheFirstIdleCandidateInTheKernelsOrder) {
  // Hand cases on 4 CPUs.
  const auto pick = [](std::vector<bool> idle, int prev, int target, int& recent) {
    return select_idle_sibling(static_cast<int>(idle.size()), prev, target, recent,
                               [&](int c) noexcept { return static_cast<bool>(idle[static_cast<std::size_t>(c)]); });
  };
  int recent = 3;
  EXPECT_EQ(pick({false, true, false, true}, 2, 1, recent), 1);  // the target is idle
  EXPECT_EQ(recent, 3);                                          // returned before the recent step
  EXPECT_EQ(pick({false, false, true, true}, 2, 1, recent), 2);  // the previous CPU is idle
  EXPECT_EQ(pick({true, false, false, true}, 2, 1, recent), 3);  // the recent CPU (the scan's too)
  EXPECT_EQ(recent, 2);                                          // replaced by prev
  recent = 0;
  EXPECT_EQ(pick({true, false, false, true}, 2, 1, recent), 0);  // recent 0 beats the scan's 3
  EXPECT_EQ(recent, 2);
  EXPECT_EQ(pick({true, false, false, true}, 2, 1, recent), 3);  // recent is prev now: the scan, from 2
  recent = -1;
  EXPECT_EQ(pick({false, false, false, false}, 2, 1, recent), 1);  // nothing idle: the target
  EXPECT_EQ(recent, 2);

  std::mt19937_64 rng(0x515);
  for (int i = 0; i < 100000; ++i) {
    const int n = 1 + static_cast<int>(rng() % 9);
    std::vector<bool> idle(static_cast<std::size_t>(n));
    for (std::size_t c = 0; c < idle.size(); ++c) idle[c] = rng() % 3 == 0;
    const int prev = static_cast<int>(rng() % static_cast<u64>(n));
    const int target = static_cast<int>(rng() % static_cast<u64>(n));
    const int recent0 = static_cast<int>(rng() % static_cast<u64>(n + 1)) - 1;  // -1: none
    int recent_io = recent0;
    const int got = pick(idle, prev, target, recent_io);
    ASSERT_EQ(got, brute_force(idle, prev, target, recent0)) << i;
    const bool reached_recent = !idle[static_cast<std::size_t>(target)] &&
                                (prev == target || !idle[static_cast<std::size_t>(prev)]);
    ASSERT_EQ(recent_io, reached_recent ? prev : recent0) << i;
  }
}

// select_idle_cache_hot with a fit test (an asymmetric machine): the candidates in the kernel's
// order, each taken only when idle and fitting; -1 when none is. Brute force as above, over
// 100 000 random machines, plus the rule that a fitting idle CPU after a non-fitting one wins.
TEST(WakeAffine, TheCacheHotCandidatesCountOnlyWhereTheTaskFits) {
  const auto pick = [](const std::vector<bool>& idle, const std::vector<bool>& fits, int prev, int target,
                       int& recent) {
    return select_idle_cache_hot(
        static_cast<int>(idle.size()), prev, target, recent,
        [&](int c) noexcept { return static_cast<bool>(idle[static_cast<std::size_t>(c)]); },
        [&](int c) noexcept { return static_cast<bool>(fits[static_cast<std::size_t>(c)]); });
  };
  int recent = 3;
  // The target idle but not fitting, prev idle and fitting: prev.
  EXPECT_EQ(pick({false, true, true, true}, {true, false, true, false}, 2, 1, recent), 2);
  EXPECT_EQ(recent, 3);
  // Only the recent CPU fits: it, and recent becomes prev.
  EXPECT_EQ(pick({true, true, true, true}, {false, false, false, true}, 2, 1, recent), 3);
  EXPECT_EQ(recent, 2);
  // Nothing idle fits: -1 (the caller scans by capacity).
  recent = 0;
  EXPECT_EQ(pick({true, true, true, true}, {false, false, false, false}, 2, 1, recent), -1);
  EXPECT_EQ(recent, 2);

  std::mt19937_64 rng(0xCA7);
  for (int i = 0; i < 100000; ++i) {
    const int n = 1 + static_cast<int>(rng() % 9);
    std::vector<bool> idle(static_cast<std::size_t>(n)), fits(static_cast<std::size_t>(n)), both(idle.size());
    for (std::size_t c = 0; c < idle.size(); ++c) {
      idle[c] = rng() % 2 == 0;
      fits[c] = rng() % 2 == 0;
      both[c] = idle[c] && fits[c];
    }
    const int prev = static_cast<int>(rng() % static_cast<u64>(n));
    const int target = static_cast<int>(rng() % static_cast<u64>(n));
    const int recent0 = static_cast<int>(rng() % static_cast<u64>(n + 1)) - 1;
    int recent_io = recent0;
    const int got = pick(idle, fits, prev, target, recent_io);
    std::vector<int> order = {target, prev};
    if (recent0 >= 0 && recent0 != prev && recent0 != target) order.push_back(recent0);
    int want = -1;
    for (const int c : order)
      if (both[static_cast<std::size_t>(c)]) {
        want = c;
        break;
      }
    ASSERT_EQ(got, want) << i;
    const bool reached_recent = !both[static_cast<std::size_t>(target)] &&
                                (prev == target || !both[static_cast<std::size_t>(prev)]);
    ASSERT_EQ(recent_io, reached_recent ? prev : recent0) << i;
  }
}

// SIS_UTIL's depth against the table of the commit that added it (Linux 6.0, "sched/fair:
// Introduce SIS_UTIL to search idle CPU based on sum of util_avg"): the depth on LLCs of 112
// and 16 CPUs at 0, 5, 15, ..., 85, 86 % of their capacity (sum_util = pct·llc·1024/100).
TEST(WakeAffine, SisUtilDepthMatchesTheTableOfItsCommit) {
  const int pcts[] = {0, 5, 15, 25, 35, 45, 55, 65, 75, 85, 86};
  const int on_112[] = {112, 111, 108, 102, 93, 81, 65, 47, 25, 1, 0};
  const int on_16[] = {16, 15, 15, 14, 13, 11, 9, 6, 3, 0, 0};
  for (std::size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); ++i) {
    SCOPED_TRACE(pcts[i]);
    const auto sum = [&](u64 llc) { return llc * 1024u * static_cast<u64>(pcts[i]) / 100u; };
    EXPECT_EQ(sis_util_scan_depth(sum(112), 112), on_112[i]);
    EXPECT_EQ(sis_util_scan_depth(sum(16), 16), on_16[i]);
  }
  // 8 CPUs with n hogs (1024 each): the depths the simulator's tests rely on.
  const int on_8[] = {8, 7, 7, 6, 5, 3, 1, 0, 0};
  for (u64 n = 0; n <= 8; ++n) EXPECT_EQ(sis_util_scan_depth(n * 1024u, 8), on_8[n]) << n;
  // Past full utilisation, and absurd sums, still 0 (x is capped before it is squared); one CPU.
  EXPECT_EQ(sis_util_scan_depth(~u64{0}, 8), 0);
  EXPECT_EQ(sis_util_scan_depth(0, 1), 1);
  EXPECT_EQ(sis_util_scan_depth(1024, 1), 0);
  // Monotone: more utilisation never deepens the scan; a higher imbalance_pct never either.
  for (int llc = 1; llc <= 128; llc += 7) {
    int last = llc;
    for (u64 s = 0; s <= static_cast<u64>(llc) * 1100u; s += 13) {
      const int d = sis_util_scan_depth(s, llc);
      ASSERT_GE(d, 0);
      ASSERT_LE(d, last) << llc << " " << s;
      ASSERT_LE(sis_util_scan_depth(s, llc, 125), d) << llc << " " << s;
      last = d;
    }
  }
  static_assert(sis_util_scan_depth(5u * 1024u, 8) == 3, "usable in constant expressions");
}

// select_idle_cpu with a depth: the allowed CPUs from target + 1 on (wrapping, ending with the
// target), at most `depth` of them looked at; CPUs the task may not use do not count. Hand
// cases, then a brute force over 100 000 random machines.
TEST(WakeAffine, SelectIdleCpuLooksAtNoMoreAllowedCpusThanTheDepth) {
  const auto scan = [](const std::vector<bool>& allowed, const std::vector<bool>& idle, int target, int depth) {
    return select_idle_cpu(
        static_cast<int>(idle.size()), target, depth,
        [&](int c) noexcept { return static_cast<bool>(allowed[static_cast<std::size_t>(c)]); },
        [&](int c) noexcept { return allowed[static_cast<std::size_t>(c)] && idle[static_cast<std::size_t>(c)]; });
  };
  const std::vector<bool> all(8, true);
  const std::vector<bool> idle5 = {false, false, false, false, false, true, false, false};
  EXPECT_EQ(scan(all, idle5, 0, 8), 5);
  EXPECT_EQ(scan(all, idle5, 0, 5), 5);   // CPUs 1..5
  EXPECT_EQ(scan(all, idle5, 0, 4), -1);  // CPUs 1..4
  EXPECT_EQ(scan(all, idle5, 0, 0), -1);  // an overloaded LLC: no scan
  // Only CPUs 0, 5, 6, 7 allowed: a depth of 1 reaches CPU 5 (1..4 are not counted).
  const std::vector<bool> some = {true, false, false, false, false, true, true, true};
  EXPECT_EQ(scan(some, idle5, 0, 1), 5);
  // The target itself comes last: idle there is found only with the whole LLC's depth.
  const std::vector<bool> idle0 = {true, false, false, false, false, false, false, false};
  EXPECT_EQ(scan(all, idle0, 0, 7), -1);
  EXPECT_EQ(scan(all, idle0, 0, 8), 0);
  // Through select_idle_sibling: nothing within the depth leaves the task on its target.
  int recent = -1;
  EXPECT_EQ(select_idle_sibling(
                8, 0, 0, recent, 4, [](int) noexcept { return true; },
                [&](int c) noexcept { return static_cast<bool>(idle5[static_cast<std::size_t>(c)]); }),
            0);

  std::mt19937_64 rng(0x5150);
  for (int i = 0; i < 100000; ++i) {
    const int n = 1 + static_cast<int>(rng() % 12);
    std::vector<bool> allowed(static_cast<std::size_t>(n)), idle(allowed.size());
    for (std::size_t c = 0; c < allowed.size(); ++c) {
      allowed[c] = rng() % 4 != 0;
      idle[c] = rng() % 4 == 0;
    }
    const int target = static_cast<int>(rng() % static_cast<u64>(n));
    const int depth = static_cast<int>(rng() % static_cast<u64>(n + 3)) - 1;
    // Brute force: the allowed CPUs in scan order, the first `depth` of them.
    std::vector<int> order;
    for (int k = 1; k <= n; ++k) {
      const int c = (target + k) % n;
      if (allowed[static_cast<std::size_t>(c)]) order.push_back(c);
    }
    int want = -1;
    for (int k = 0; k < static_cast<int>(order.size()) && k < depth; ++k)
      if (idle[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])]) {
        want = order[static_cast<std::size_t>(k)];
        break;
      }
    ASSERT_EQ(scan(allowed, idle, target, depth), want) << i;
  }
}

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

TEST(WakeAffine, TheFlipDecayCompareIsWrapSafeWhenOnlyTheDeadlineWraps) {
  // record_wakee: time_after(jiffies, wakee_flip_decay_ts + HZ), i.e. (s64)(stamp + HZ - now)
  // < 0. With the stamp half a second before the 64-bit wrap, stamp + 1 s has wrapped to 0.5 s
  // while now, 0.25 s after the stamp, has not: a plain compare of the raw values would halve.
  wakee_flips w;
  w.flips = 40;
  w.decay_stamp_ns = ~u64{0} - 500000000u;
  w.last_wakee = 3;
  record_wakee(w, ~u64{0} - 250000000u, 3);
  EXPECT_EQ(w.flips, 40u) << "0.25 s after the stamp";
  EXPECT_EQ(w.decay_stamp_ns, ~u64{0} - 500000000u);
}

TEST(WakeAffine, ASyncWakerHeavierThanItsCpuPullsAtOnceAndOneAsHeavyDoesNot) {
  // wake_affine_weight: "if (current_load > this_eff_load) return this_cpu;" strictly, before
  // any comparison. Equal capacities, imbalance_pct 117 (margin 108), prev_cpu holding only the
  // task's own blocked load (prev_load = task_load = 1024: prev_eff_load 0, + 1 for sync).
  // Waker 2048 on a CPU whose load reads 1024 (its load not yet caught up): pulled at once,
  // although (0 + 1024) x 100 x 1024 < 0 x 108 x 1024 + 1 is false.
  EXPECT_TRUE(wake_affine_weight(1024, 1024, 1024, 2048, true, 1024, 1024, 117));
  // Waker exactly the CPU's load: no early return; this_eff (1024 - 1024 + 1024) x 100 x 1024 =
  // 104 857 600 against prev_eff 1: stays.
  EXPECT_FALSE(wake_affine_weight(1024, 1024, 1024, 1024, true, 1024, 1024, 117));
}

TEST(WakeAffine, SisUtilDepthIsZeroForAnyOverloadHoweverLarge) {
  // update_idle_cpu_scan: y = 1024 - min(1024, x² pct² / (10⁴ 1024)) reaches 0 once x (the mean
  // utilisation per CPU) is past 1024 · 100 / 117, and stays 0 above: more load never deepens
  // the scan. The kernel's cpu_util_cfs is at most the capacity; a caller passing a larger sum
  // (2^40 on one CPU: x² would need 80 bits) must still get 0, not a wrapped square.
  EXPECT_EQ(sis_util_scan_depth(u64{1} << 40, 1), 0);
  EXPECT_EQ(sis_util_scan_depth(u64{1} << 36, 16), 0);
  EXPECT_EQ(sis_util_scan_depth(2048, 1, 100), 0) << "x = 2048 at imbalance_pct 100";
}

TEST(WakeAffine, ARecentCpuOutsideTheMachineIsNeverACandidate) {
  // select_idle_sibling takes recent_used_cpu only if it is a CPU the task may use
  // (cpumask_test_cpu(recent_used_cpu, p->cpus_ptr)); the header's guard: 0 <= recent < nr_cpus.
  // On 4 CPUs with 2 and 3 idle, a stale recent_used_cpu of 4 is not returned.
  int recent = 4;
  auto idle = [](int k) noexcept { return k >= 2; };
  auto fits = [](int) noexcept { return true; };
  EXPECT_EQ(select_idle_cache_hot(4, 1, 0, recent, idle, fits), -1);
  EXPECT_EQ(recent, 1) << "replaced by prev all the same";
}

}  // namespace
