// cfs_policy pick_next + put_prev cycle against the raw tree churn it is built on, in one
// binary so the ratio comes from one run.
//
//   BM_cycle/cfs/<N>       N nice-0 hogs under cfs_policy: pick_next, set_next (erase from
//                          the timeline), run 1 + U[0, 4 ms) ns, put_prev (update_curr:
//                          calc_delta_fair, update_min_vruntime; reinsert) — the churn of a hog
//                          set under the policy, one context switch per iteration. Nice 0 makes
//                          vruntime += delta exactly and the deltas are the raw tree's, so the
//                          difference is the policy's own cost (the keys themselves differ: the
//                          hogs start at their placed vruntimes, the raw tree's at one key).
//   BM_cycle/cfs_nice/<N>  the same with nice values cycling over -5..5 (calc_delta_fair does
//                          its fixed-point multiply; key sequence differs from raw_tree).
//   BM_cycle/cfs2007/<N>   the same cycle under cfs2007_policy (2.6.23: curr stays in the tree,
//                          so a cycle is front + wait credit + update_curr; no tree change
//                          until a tick re-keys curr: this one also ticks once per cycle).
//   BM_cycle/raw_tree/<N>  schedcore's rb_tree alone: front, erase, key += the same delta,
//                          insert (the rb_tree_bench churn with the policy's task layout).
//   N: 8 64 1024 16384 262144. Target (issue 5): cfs within 1.2x of raw_tree at every N.
//
// Method as bench/rb_tree_bench.cpp (perf-anchors.md): tasks in one dense array, fixed-seed
// xorshift64 (identical delta sequence for every structure), build + warm-up (3N + 10000
// cycles) outside the timed loop, one instance per cell. Compare CPU time on a loaded host.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/cfs2007.hpp"

namespace {

using u64 = std::uint64_t;
using schedcore::sched_time;

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

struct cfs_task : schedcore::cfs_entity {
  int id = 0;
};
struct cfs2007_task : schedcore::cfs2007_entity {
  int id = 0;
};
// The raw tree's task: a key and a hook, padded to the cfs task's size (same cache footprint).
struct raw_task {
  u64 key = 0;
  schedcore::rb_hook<> node;
  char pad[sizeof(cfs_task) > sizeof(u64) + sizeof(schedcore::rb_hook<>)
               ? sizeof(cfs_task) - sizeof(u64) - sizeof(schedcore::rb_hook<>)
               : 1] = {};
};

template <class Policy, class Task, bool Tick, bool MixedNice = false>
struct policy_fixture {
  std::vector<Task> tasks;
  Policy p;
  xorshift64 rng;
  sched_time now{};
  Task* curr = nullptr;
  std::size_t n;

  explicit policy_fixture(std::size_t count) : tasks(count), n(count) {
    for (std::size_t i = 0; i < count; ++i) {
      schedcore::sched_params sp;
      if (MixedNice) sp.nice = static_cast<std::int8_t>(static_cast<int>(i % 11) - 5);
      (void)p.setup(tasks[i], sp);
      p.enqueue(tasks[i], now, schedcore::enqueue_flags::wakeup);
    }
    curr = p.pick_next(now);
    p.set_next(*curr, now);
  }
  BENCHMARK_ALWAYS_INLINE void cycle() {
    now += static_cast<std::int64_t>(1 + rng() % kSlice);
    if constexpr (Tick) benchmark::DoNotOptimize(p.tick(*curr, now));
    p.put_prev(*curr, now);
    curr = p.pick_next(now);
    p.set_next(*curr, now);
  }
};

struct raw_fixture {
  using tree_t = schedcore::rb_tree<raw_task, schedcore::rb_member<&raw_task::node>,
                                    schedcore::rb_member_wrap_less<&raw_task::key>>;
  std::vector<raw_task> tasks;
  tree_t tree;
  xorshift64 rng;
  raw_task* curr = nullptr;
  std::size_t n;

  explicit raw_fixture(std::size_t count) : tasks(count), n(count) {
    for (auto& t : tasks) tree.insert(t);  // equal keys, like hogs enqueued at one instant
    curr = tree.front();
    tree.erase(*curr);
  }
  BENCHMARK_ALWAYS_INLINE void cycle() {
    curr->key += 1 + rng() % kSlice;
    tree.insert(*curr);
    curr = tree.front();
    tree.erase(*curr);
  }
};

template <class F>
void run(benchmark::State& state, std::size_t n) {
  static std::unique_ptr<F> cached;
  if (!cached || cached->n != n) {
    cached.reset();
    cached = std::make_unique<F>(n);
    const std::size_t warm = 3 * n + 10000;
    for (std::size_t i = 0; i < warm; ++i) cached->cycle();
  }
  F& f = *cached;
  for (auto _ : state) {
    f.cycle();
    benchmark::ClobberMemory();
  }
}

template <class F>
void register_one(const char* structure, std::size_t n) {
  const std::string name = std::string("BM_cycle/") + structure + "/" + std::to_string(n);
  benchmark::RegisterBenchmark(name.c_str(), [n](benchmark::State& s) { run<F>(s, n); });
}

}  // namespace

int main(int argc, char** argv) {
  // All structures of one N back to back: host drift hits them alike.
  for (std::size_t n : {std::size_t{8}, std::size_t{64}, std::size_t{1024}, std::size_t{16384}, std::size_t{262144}}) {
    register_one<policy_fixture<schedcore::cfs_policy<cfs_task>, cfs_task, false>>("cfs", n);
    register_one<raw_fixture>("raw_tree", n);
    register_one<policy_fixture<schedcore::cfs_policy<cfs_task>, cfs_task, false, true>>("cfs_nice", n);
    register_one<policy_fixture<schedcore::cfs2007_policy<cfs2007_task>, cfs2007_task, true>>("cfs2007", n);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
