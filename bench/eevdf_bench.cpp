// EEVDF run-queue benchmarks: the policy's pick_next + set_next + put_prev cycle against the
// raw tree churn it is built on, in one binary so the ratio comes from one run.
//
//   BM_cycle/eevdf/<N>     pick_next, set_next, advance the clock by 1 + U[0, 4 ms), put_prev
//                          (put_prev charges the run: vruntime, deadline renewal, avg sums,
//                          min_vruntime, reinsert into the augmented tree).
//   BM_cycle/raw_tree/<N>  pop the minimum of a plain rb_tree, advance its key by
//                          1 + U[0, 4 ms), reinsert (rb_tree_bench's churn).
//   BM_cycle/augmented_tree/<N>  the same churn on the container eevdf is built on: a
//                          deadline-keyed rb_tree keeping each subtree's minimum vruntime
//                          (subtree_best), with eevdf's weighted key dynamics and no
//                          policy (pop, advance vruntime, deadline = vruntime + vslice,
//                          reinsert).
//   BM_pick/eevdf/<N>      pick_next alone on a churned queue (nothing running).
//
// N in {8, 64, 1024, 16384, 262144}; 64-byte-aligned tasks in one dense array, random nice
// in [-5, 5] (eevdf), fixed-seed xorshift64, build and 3N + 10000 warm-up cycles untimed.
// The raw tree's task is padded to sizeof(eevdf_task), as in cfs_bench: both sides walk the same
// memory (cache/TLB footprint) at every N, so the ratio measures only the policy's own work.
// Targets (issue 5): eevdf cycle within 1.2x of raw tree churn; eevdf pick < 40 ns at 16384.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "schedcore/intrusive/rb_tree.hpp"
#include "schedcore/policy/eevdf.hpp"

namespace {

using u64 = std::uint64_t;
constexpr u64 kSeed = 0x2545f4914f6cdd1dull;
constexpr u64 kSlice = 4000000;  // 4 ms in ns

struct xorshift64 {
  u64 s = kSeed;
  u64 operator()() noexcept {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
};

struct alignas(64) eevdf_task : schedcore::eevdf_entity {};

struct eevdf_fixture {
  std::vector<eevdf_task> tasks;
  schedcore::eevdf_policy<eevdf_task> rq;
  schedcore::sched_time now{1ull << 60};
  xorshift64 rng;
  std::size_t n;
  explicit eevdf_fixture(std::size_t count) : tasks(count), n(count) {
    for (auto& t : tasks) {
      const int nice = static_cast<int>(rng() % 11) - 5;
      if (rq.setup(t, schedcore::sched_params{schedcore::sched_kind::normal, static_cast<std::int8_t>(nice), 0, 0, 0, 0}) !=
          schedcore::errc::ok)
        std::abort();  // nice in [-5, 5] is always valid
      rq.enqueue(t, now, schedcore::enqueue_flags::wakeup);
      now += 1000;
    }
  }
  BENCHMARK_ALWAYS_INLINE void cycle() {
    eevdf_task* t = rq.pick_next(now);
    rq.set_next(*t, now);
    now += static_cast<std::int64_t>(1 + rng() % kSlice);
    rq.put_prev(*t, now);
  }
};

// The raw tree's task: a key and a hook, padded to the eevdf task's size (same cache footprint).
struct raw_task {
  u64 key;
  schedcore::rb_hook<> node;
  char pad[sizeof(eevdf_task) > sizeof(u64) + sizeof(schedcore::rb_hook<>)
               ? sizeof(eevdf_task) - sizeof(u64) - sizeof(schedcore::rb_hook<>)
               : 1];
};
struct alignas(64) raw_task_aligned : raw_task {};
static_assert(sizeof(raw_task_aligned) == sizeof(eevdf_task), "raw tree task must have the eevdf task's footprint");

struct raw_fixture {
  using tree_t = schedcore::rb_tree<raw_task, schedcore::rb_member<&raw_task::node>,
                                    schedcore::rb_member_wrap_less<&raw_task::key>>;
  std::vector<raw_task_aligned> tasks;
  tree_t tree;
  xorshift64 rng;
  std::size_t n;
  explicit raw_fixture(std::size_t count) : tasks(count), n(count) {
    for (auto& t : tasks) {
      t.key = (1ull << 60) + rng() % kSlice;
      tree.insert(t);
    }
  }
  BENCHMARK_ALWAYS_INLINE void cycle() {
    raw_task* t = tree.pop_front();
    t->key += 1 + rng() % kSlice;
    tree.insert(*t);
  }
};

// The augmented raw tree: the container the eevdf run queue is built on, with eevdf's key
// dynamics and no policy. Tasks at nice U[-5, 5] keyed by a deadline, each node keeping the
// minimum vruntime of its subtree (subtree_best, the run queue's own augmentation); a cycle pops
// the earliest deadline, advances vruntime by the weighted 1 + U[0, 4 ms) and the deadline to
// vruntime + the weighted 0.75 ms slice, and reinserts. It separates the two costs
// the cycle adds to the plain churn: the augment upkeep (this fixture against raw_fixture) and
// the policy's own work (eevdf_fixture against this one).
struct aug_task {
  u64 deadline;
  u64 vruntime;
  u64 min_vruntime;
  schedcore::rb_hook<> node;
  u64 vslice;                     // virtual slice: the base slice scaled by the task's weight
  schedcore::fair_vscale vscale;  // ns of run time -> virtual ns (the weight's multiply-shift)
  char pad[sizeof(eevdf_task) - 4 * sizeof(u64) - sizeof(schedcore::rb_hook<>) - sizeof(schedcore::fair_vscale)];
};
struct alignas(64) aug_task_aligned : aug_task {};
static_assert(sizeof(aug_task_aligned) == sizeof(eevdf_task), "augmented tree task must have the eevdf task's footprint");
struct min_vruntime_of {
  using value_type = aug_task;
  using best_type = u64;
  static u64 value(const aug_task& t) noexcept { return t.vruntime; }
  static u64 best(const aug_task& t) noexcept { return t.min_vruntime; }
  static void set_best(aug_task& t, u64 v) noexcept { t.min_vruntime = v; }
  static bool better(u64 a, u64 b) noexcept { return static_cast<std::int64_t>(a - b) < 0; }
};

struct aug_fixture {
  using tree_t = schedcore::rb_tree<aug_task, schedcore::rb_member<&aug_task::node>,
                                    schedcore::rb_member_wrap_less<&aug_task::deadline>,
                                    schedcore::subtree_best<min_vruntime_of>>;
  std::vector<aug_task_aligned> tasks;
  tree_t tree;
  xorshift64 rng;
  std::size_t n;
  explicit aug_fixture(std::size_t count) : tasks(count), n(count) {
    for (auto& t : tasks) {
      const schedcore::load_weight lw = schedcore::nice_to_load(static_cast<int>(rng() % 11) - 5);
      t.vslice = schedcore::calc_delta_fair(750000, lw);  // the eevdf fixture's base slice (1 CPU)
      t.vscale = schedcore::make_fair_vscale(lw);
      t.vruntime = (1ull << 60) + rng() % kSlice;
      t.deadline = t.vruntime + t.vslice;
      tree.insert(t);
    }
  }
  BENCHMARK_ALWAYS_INLINE void cycle() {
    aug_task* t = tree.pop_front();
    t->vruntime += schedcore::fair_vscale_delta(1 + rng() % kSlice, t->vscale);
    t->deadline = t->vruntime + t->vslice;
    tree.insert(*t);
  }
};

template <class F>
F& fixture_for(std::size_t n) {
  static std::unique_ptr<F> cached;
  if (!cached || cached->n != n) {
    cached.reset();
    cached = std::make_unique<F>(n);
    for (std::size_t i = 0; i < 3 * n + 10000; ++i) cached->cycle();
  }
  return *cached;
}

template <class F>
void bm_cycle(benchmark::State& state, std::size_t n) {
  F& f = fixture_for<F>(n);
  for (auto _ : state) {
    f.cycle();
    benchmark::ClobberMemory();
  }
}

void bm_pick(benchmark::State& state, std::size_t n) {
  eevdf_fixture& f = fixture_for<eevdf_fixture>(n);
  for (auto _ : state) {
    auto* t = f.rq.pick_next(f.now);
    benchmark::DoNotOptimize(t);
  }
}

}  // namespace

int main(int argc, char** argv) {
  for (std::size_t n : {std::size_t{8}, std::size_t{64}, std::size_t{1024}, std::size_t{16384}, std::size_t{262144}}) {
    const std::string suffix = "/" + std::to_string(n);
    benchmark::RegisterBenchmark(("BM_cycle/eevdf" + suffix).c_str(),
                                 [n](benchmark::State& s) { bm_cycle<eevdf_fixture>(s, n); });
    benchmark::RegisterBenchmark(("BM_cycle/raw_tree" + suffix).c_str(),
                                 [n](benchmark::State& s) { bm_cycle<raw_fixture>(s, n); });
    benchmark::RegisterBenchmark(("BM_cycle/augmented_tree" + suffix).c_str(),
                                 [n](benchmark::State& s) { bm_cycle<aug_fixture>(s, n); });
    benchmark::RegisterBenchmark(("BM_pick/eevdf" + suffix).c_str(), [n](benchmark::State& s) { bm_pick(s, n); });
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
