// Unit tests of smp/uclamp.hpp and the clamped fit of smp/capacity.hpp, against what Linux
// documents for uclamp (Documentation/scheduler/sched-util-clamp.rst, 6.x util_fits_cpu):
// - buckets: width round(1024 / n), 205 for the default 5, the last bucket taking the rest;
// - aggregation: a CPU's clamp is the max over its runnable tasks, exact when no two tasks
//   share a bucket, and otherwise never below that max nor outside its bucket (the documented
//   overboost within a bucket), over 10^5 random enqueue/dequeue steps against a task list;
//   an idle CPU drops the boost and keeps the last cap; the next enqueue replaces it;
// - applying: clamp(util, min, max), the min winning an inversion, a task's clamps joining;
// - the fit: the kernel's worked regions (capped, boosted, boost out of reach), equality with
//   the plain fit for default clamps at every util and capacity;
// - select_idle_capacity: a boosted small task goes big, a capped big task stays little;
// - misuse refused without change.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "check_recorder.hpp"
#include "schedcore/smp/capacity.hpp"
#include "schedcore/smp/uclamp.hpp"

namespace {

using namespace schedcore;

struct xorshift {
  std::uint64_t s;
  std::uint64_t operator()() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
};

TEST(Uclamp, BucketsAreRoundedWidthsWithTheRestInTheLast) {
  EXPECT_EQ(uclamp_bucket_delta(5), 205u);   // 204.8 rounded
  EXPECT_EQ(uclamp_bucket_delta(20), 51u);   // 51.2 rounded
  EXPECT_EQ(uclamp_bucket_delta(6), 171u);   // 170.67 rounded
  const std::uint32_t edges5[] = {0, 205, 410, 615, 820};
  for (std::uint32_t v = 0; v <= 1024; ++v) {
    std::uint32_t want = 0;
    for (std::uint32_t b = 0; b < 5; ++b)
      if (v >= edges5[b]) want = b;
    ASSERT_EQ(uclamp_bucket_id(v, 5), want) << v;
  }
  for (std::uint32_t n = 5; n <= 20; ++n) {
    std::uint32_t last = 0;
    for (std::uint32_t v = 0; v <= 1024; ++v) {
      const std::uint32_t id = uclamp_bucket_id(v, n);
      ASSERT_LT(id, n);
      ASSERT_GE(id, last) << "monotone";
      last = id;
    }
    EXPECT_EQ(uclamp_bucket_id(1024, n), n - 1) << n;
  }
}

TEST(Uclamp, RequestValidationAndEffectiveValue) {
  EXPECT_EQ(uclamp_check_request(0, 1024), errc::ok);
  EXPECT_EQ(uclamp_check_request(300, 300), errc::ok);
  EXPECT_EQ(uclamp_check_request(1025, 1025), errc::invalid_argument);
  EXPECT_EQ(uclamp_check_request(0, 2000), errc::invalid_argument);
  EXPECT_EQ(uclamp_check_request(600, 500), errc::inverted);
  EXPECT_EQ(uclamp_effective(700), 700u);
  EXPECT_EQ(uclamp_effective(700, 0, 512), 512u);         // the group caps it
  EXPECT_EQ(uclamp_effective(100, 256, 1024), 256u);      // the group's min protects it
  EXPECT_EQ(uclamp_effective(700, 0, 1024, 600), 600u);   // the system limit
  EXPECT_EQ(uclamp_effective(100, 256, 1024, 200), 200u); // the limit applies last
}

// A reference: the tasks counted on one CPU, as a list of (min, max) values.
struct reference_cpu {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> tasks;
  std::uint32_t max_of(int id) const {
    std::uint32_t m = 0;
    for (const auto& t : tasks) m = std::max(m, id == 0 ? t.first : t.second);
    return m;
  }
};

template <std::uint32_t Buckets>
void random_walk(std::uint64_t seed, bool bucket_bases_only) {
  constexpr int kTasks = 12;
  uclamp_rq<Buckets> rq;
  uclamp_task tasks[kTasks];
  std::pair<std::uint32_t, std::uint32_t> values[kTasks];
  bool queued[kTasks] = {};
  reference_cpu ref;
  std::uint32_t last_max = 1024;  // the idle CPU's retained cap (initially uclamp_none(max))
  xorshift rng{seed};
  const std::uint32_t delta = uclamp_bucket_delta(Buckets);
  auto draw = [&] {
    if (bucket_bases_only) return static_cast<std::uint32_t>(rng() % Buckets) * delta;  // one value per bucket
    return static_cast<std::uint32_t>(rng() % 1025);
  };
  for (int step = 0; step < 100000; ++step) {
    const int i = static_cast<int>(rng() % kTasks);
    if (!queued[i]) {
      const bool was_idle = ref.tasks.empty();
      std::uint32_t lo = draw(), hi = draw();
      if (lo > hi) std::swap(lo, hi);
      values[i] = {lo, hi};
      rq.enqueue(tasks[i], lo, hi);
      queued[i] = true;
      ref.tasks.push_back(values[i]);
      if (was_idle) {  // leaving idle: exactly the task's clamps
        ASSERT_EQ(rq.value(uclamp_id::min), lo);
        ASSERT_EQ(rq.value(uclamp_id::max), hi);
      }
    } else {
      rq.dequeue(tasks[i]);
      queued[i] = false;
      ref.tasks.erase(std::find(ref.tasks.begin(), ref.tasks.end(), values[i]));
      last_max = values[i].second;
    }
    ASSERT_TRUE(rq.verify()) << step;
    ASSERT_EQ(rq.idle(), ref.tasks.empty()) << step;
    if (ref.tasks.empty()) {
      ASSERT_EQ(rq.value(uclamp_id::min), 0u) << "the boost goes with the last task";
      ASSERT_EQ(rq.value(uclamp_id::max), last_max) << "the cap stays at the last task's";
      continue;
    }
    for (int id = 0; id < 2; ++id) {
      const std::uint32_t exact = ref.max_of(id);
      const std::uint32_t got = rq.value(static_cast<uclamp_id>(id));
      if (bucket_bases_only) {
        ASSERT_EQ(got, exact) << "step " << step << " id " << id;
      } else {
        ASSERT_GE(got, exact) << "never below a runnable task's clamp, step " << step;
        ASSERT_EQ(uclamp_bucket_id(got, Buckets), uclamp_bucket_id(exact, Buckets)) << "overboost stays in the bucket, step " << step;
      }
    }
  }
}

TEST(Uclamp, AggregationIsTheMaxOfTheRunnableTasks) {
  random_walk<5>(0x9e3779b97f4a7c15ull, true);
  random_walk<20>(0x2545f4914f6cdd1dull, true);
  random_walk<5>(0x1234567887654321ull, false);
  random_walk<13>(0x0f0f0f0f12345677ull, false);
}

TEST(Uclamp, LocalMaxAggregationOverboostsWithinABucketUntilItEmpties) {
  uclamp_rq<> rq;
  uclamp_task a, b, c;
  rq.enqueue(a, 300, 1024);  // bucket 1 (205..409)
  rq.enqueue(b, 250, 1024);  // same bucket
  EXPECT_EQ(rq.value(uclamp_id::min), 300u);
  rq.dequeue(a);  // b alone: the bucket keeps 300 (documented overboost)
  EXPECT_EQ(rq.value(uclamp_id::min), 300u);
  EXPECT_EQ(rq.bucket_tasks(uclamp_id::min, 1), 1u);
  rq.enqueue(c, 100, 1024);  // bucket 0
  rq.dequeue(b);             // bucket 1 empties: the next non-empty bucket's value
  EXPECT_EQ(rq.value(uclamp_id::min), 100u);
  rq.dequeue(c);
  EXPECT_TRUE(rq.idle());
  EXPECT_TRUE(rq.verify());
}

TEST(Uclamp, ApplyingClampsToAUtilisation) {
  uclamp_rq<> rq;
  EXPECT_EQ(rq.util_with(700), 700u) << "idle, no task: clamp(u, 0, 1024)";
  uclamp_task boosted, capped;
  rq.enqueue(boosted, 512, 1024);
  EXPECT_EQ(rq.util_with(100), 512u);
  EXPECT_EQ(rq.util_with(900), 900u);
  rq.dequeue(boosted);
  rq.enqueue(capped, 0, 300);
  EXPECT_EQ(rq.util_with(900), 300u);
  EXPECT_EQ(rq.util_with(900, 0, 1024), 900u) << "a task without a cap lifts the CPU's cap";
  EXPECT_EQ(rq.util_with(100, 600, 1024), 600u) << "a boosted task joining";
  rq.enqueue(boosted, 512, 1024);
  EXPECT_EQ(rq.util_with(100), 512u);
  uclamp_task low_cap;
  rq.dequeue(boosted);
  rq.enqueue(boosted, 700, 700);
  rq.dequeue(capped);
  rq.enqueue(low_cap, 0, 200);
  EXPECT_EQ(rq.util_with(50), 700u) << "min 700 and max 700: 700 (min winning an inverted pair is AnInvertedPairOnTheCpuGivesTheBoost's)";
  rq.dequeue(boosted);
  rq.dequeue(low_cap);
  EXPECT_TRUE(rq.idle());
  EXPECT_EQ(rq.value(uclamp_id::max), 200u) << "the idle CPU keeps the last cap";
  EXPECT_EQ(rq.util_with(900), 200u) << "blocked util on an idle CPU stays capped";
  EXPECT_EQ(rq.util_with(900, 0, 1024), 900u) << "a waking task's own clamps replace an idle CPU's";
  uclamp_task full;
  rq.enqueue(full, 1024, 1024);  // the range's top is a valid clamp (SCHED_CAPACITY_SCALE)
  EXPECT_TRUE(full.active());
  EXPECT_EQ(rq.util_with(0), 1024u);
  rq.dequeue(full);
  EXPECT_TRUE(rq.verify());
}

TEST(Uclamp, MisuseIsRefusedWithoutChange) {
  uclamp_rq<> rq;
  uclamp_task t, u;
  rq.enqueue(t, 100, 800);
  schedcore_test::check_scope scope;
  rq.enqueue(t, 900, 900);    // already counted
  rq.dequeue(u);              // never counted
  rq.enqueue(u, 1025, 1024);  // out of range
  const auto checks = scope.take();
  ASSERT_EQ(checks.size(), 3u);
  for (const auto& c : checks) EXPECT_EQ(c.kind, check_kind::misuse);
  EXPECT_EQ(rq.value(uclamp_id::min), 100u);
  EXPECT_EQ(rq.value(uclamp_id::max), 800u);
  EXPECT_FALSE(u.active());
  EXPECT_TRUE(rq.verify());
}

TEST(UtilFitsCpu, DefaultClampsAreThePlainFit) {
  for (std::uint32_t cap = 1; cap <= 1024; cap += 7)
    for (std::uint32_t util = 0; util <= 1300; ++util)
      ASSERT_EQ(util_fits_cpu(util, 0, 1024, cap, cap), util_fits_capacity(util, cap) ? 1 : 0) << util << " on " << cap;
  for (std::uint32_t util = 0; util <= 1300; ++util)
    ASSERT_EQ(util_fits_cpu(util, 0, 1024, 1024, 1024), util_fits_capacity(util, 1024) ? 1 : 0) << util;
}

TEST(UtilFitsCpu, TheKernelsRegions) {
  // (a) capped: util above the cap; the cap at or below the CPU's full capacity forces a fit.
  EXPECT_EQ(util_fits_cpu(600, 0, 400, 446, 446), 1);
  EXPECT_EQ(util_fits_cpu(600, 0, 446, 446, 446), 1);
  EXPECT_EQ(util_fits_cpu(600, 0, 447, 446, 446), 0) << "a cap above the little CPU does not help";
  EXPECT_EQ(util_fits_cpu(1000, 0, 800, 300, 1024), 1) << "pressure (capacity_of 300) does not undo a cap";
  EXPECT_EQ(util_fits_cpu(900, 0, 1024, 1024, 1024), 0) << "no cap on the biggest CPU: saturation shows";
  EXPECT_EQ(util_fits_cpu(900, 0, 1000, 1024, 1024), 1) << "any real cap on the biggest CPU fits";
  // (b) util between the clamps: the plain fit.
  EXPECT_EQ(util_fits_cpu(356, 100, 900, 446, 446), 1);
  EXPECT_EQ(util_fits_cpu(357, 100, 900, 446, 446), 0);
  // (c) boosted: util below the boost; -1 when the boost exceeds the CPU's full capacity.
  EXPECT_EQ(util_fits_cpu(100, 512, 1024, 446, 446), -1);
  EXPECT_EQ(util_fits_cpu(100, 446, 1024, 446, 446), 1) << "a boost the CPU can give";
  EXPECT_EQ(util_fits_cpu(100, 512, 1024, 1024, 1024), 1);
  EXPECT_EQ(util_fits_cpu(100, 512, 1024, 1024, 1024, 600), -1) << "thermal pressure counts for the boost";
  EXPECT_EQ(util_fits_cpu(500, 500, 1024, 1024, 1024, 600), 1) << "util at the boost: it needs no boost (util < uclamp_min is strict)";
  EXPECT_EQ(util_fits_cpu(499, 500, 1024, 1024, 1024, 600), -1);
  EXPECT_EQ(util_fits_cpu(600, 512, 1024, 446, 446), 0) << "does not fit at all: 0, not -1";
  EXPECT_EQ(util_fits_cpu(100, 800, 300, 446, 446), 1) << "inverted pair: the cap (300) is the boost";
  EXPECT_EQ(util_fits_cpu(100, 800, 500, 446, 446), -1) << "inverted: boost min(800, 500) = 500 > 446";
}

TEST(SelectIdleCapacity, ClampsSteerTheChoice) {
  const std::uint32_t caps[6] = {446, 446, 446, 446, 1024, 1024};
  auto all_idle = [](int) noexcept { return true; };
  auto cap = [&](int k) noexcept { return caps[k]; };
  EXPECT_EQ(select_idle_capacity(6, 0, 100, 0, 1024, all_idle, cap), 0) << "a small task stays little";
  EXPECT_EQ(select_idle_capacity(6, 0, 100, 700, 1024, all_idle, cap), 4) << "a boosted one goes big";
  EXPECT_EQ(select_idle_capacity(6, 0, 600, 0, 1024, all_idle, cap), 4) << "a big one goes big";
  EXPECT_EQ(select_idle_capacity(6, 0, 600, 0, 400, all_idle, cap), 0) << "a capped big one stays little";
  auto littles_idle = [](int k) noexcept { return k < 4; };
  EXPECT_EQ(select_idle_capacity(6, 2, 100, 700, 1024, littles_idle, cap), 2)
      << "no big CPU idle: the first of the boost-short ones (-1 ranks above 0)";
  const std::uint32_t mixed[3] = {300, 446, 800};
  auto cap3 = [&](int k) noexcept { return mixed[k]; };
  EXPECT_EQ(select_idle_capacity(3, 0, 100, 900, 1024, all_idle, cap3), 2) << "the biggest of the -1s";
  EXPECT_EQ(select_idle_capacity(3, 0, 900, 0, 1024, all_idle, cap3), 2) << "nothing fits: the biggest";
  // Default clamps: the unclamped overload's result, over random machines and idle sets.
  xorshift rng{77};
  for (int trial = 0; trial < 20000; ++trial) {
    std::uint32_t c[8];
    for (auto& x : c) x = static_cast<std::uint32_t>(rng() % 1024) + 1;
    const std::uint64_t idle_mask = rng();
    const std::uint32_t util = static_cast<std::uint32_t>(rng() % 1100);
    const int target = static_cast<int>(rng() % 8);
    auto idle = [&](int k) noexcept { return ((idle_mask >> k) & 1u) != 0; };
    auto capk = [&](int k) noexcept { return c[k]; };
    // The reference: first fitting CPU from target, else the biggest (first on a tie).
    int want = -1;
    for (int s = 0; s < 8 && want < 0; ++s) {
      const int k = (target + s) % 8;
      if (idle(k) && util_fits_capacity(util, c[k])) want = k;
    }
    if (want < 0)
      for (int s = 0; s < 8; ++s) {
        const int k = (target + s) % 8;
        if (idle(k) && (want < 0 || c[k] > c[want])) want = k;
      }
    ASSERT_EQ(select_idle_capacity(8, target, util, idle, capk), want) << trial;
    ASSERT_EQ(select_idle_capacity(8, target, util, 0, 1024, idle, capk), want) << trial;
  }
}

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

TEST(Uclamp, TheTopOfTheRangeIsAValidBoost) {
  // sched_setattr refuses a clamp only above SCHED_CAPACITY_SCALE (uclamp_validate: value >
  // 1024); a boost of exactly 1024 is what RT tasks have by default.
  EXPECT_EQ(uclamp_check_request(1024, 1024), errc::ok);
  EXPECT_EQ(uclamp_check_request(1025, 1024), errc::invalid_argument);
}

TEST(Uclamp, AnInvertedPairOnTheCpuGivesTheBoost) {
  // uclamp_rq_util_with: "if (unlikely(min_util >= max_util)) return min_util;" A task whose
  // effective min is 800 and max 300 (sysctl util_max capped at 300) inverts the CPU's pair.
  uclamp_rq<> rq;
  uclamp_task t;
  rq.enqueue(t, 800, 300);
  EXPECT_EQ(rq.util_with(100), 800u);
  EXPECT_EQ(rq.util_with(1000), 800u);
  rq.dequeue(t);
  EXPECT_EQ(rq.util_with(100, 800, 300), 800u) << "a waking task's own inverted pair on an idle CPU";
}

TEST(Uclamp, AWakingTasksClampsJoinTheCpusByMaxAndReplaceAnIdleCpus) {
  // uclamp_rq_util_with with p: min = max(p's min, rq's min), max = max(p's max, rq's max),
  // except that on an idle rq (UCLAMP_FLAG_IDLE) p's clamps alone count.
  uclamp_rq<> rq;
  uclamp_task a;
  rq.enqueue(a, 512, 800);
  EXPECT_EQ(rq.util_with(100, 0, 1024), 512u) << "the CPU's boost stays: max(0, 512)";
  EXPECT_EQ(rq.util_with(900, 0, 300), 800u) << "the CPU's cap 800 beats the task's 300";
  rq.dequeue(a);
  ASSERT_TRUE(rq.idle());
  ASSERT_EQ(rq.value(uclamp_id::max), 800u);
  EXPECT_EQ(rq.util_with(600, 0, 300), 300u) << "idle: the retained cap 800 does not lift the task's 300";
}

}  // namespace
