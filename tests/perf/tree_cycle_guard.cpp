// The tree policies' cycle guard driver: K measured scheduling cycles of cfs or eevdf, or of the
// raw rb_tree churn they are built on, at run-queue length N. tree_cycle_guard.sh runs it under
// `valgrind --tool=callgrind --toggle-collect=tree_cycle_guard_rounds` and checks the
// instructions per cycle: policy against raw tree at the same N (ratios), each structure
// against its recorded figure (absolute, recording compiler only), and the raw trees' growth
// from N = 1024 to N = 65536. Deterministic: a fixed-seed xorshift64, no clock; setup and
// warm-up (3N + 10000 cycles) are not collected. It prints "STRUCTURE N=.. rounds=K".
//
//   tree_cycle_guard STRUCTURE N      STRUCTURE: cfs | cfs_raw | eevdf | eevdf_raw | eevdf_aug
//
// The cycles are the benchmarks' (bench/cfs_bench.cpp, bench/eevdf_bench.cpp):
//   cfs        N nice-0 hogs: advance the clock by 1 + U[0, 4 ms), put_prev (update_curr,
//              reinsert), pick_next, set_next (erase);
//   cfs_raw    the same churn on a plain rb_tree with the cfs task's size: key += the same
//              delta, insert, front, erase;
//   eevdf      N tasks at nice U[-5, 5]: pick_next, set_next, advance 1 + U[0, 4 ms), put_prev;
//   eevdf_raw  pop the minimum of a plain rb_tree (tasks of the eevdf task's size), key +=
//              1 + U[0, 4 ms), insert.
//   eevdf_aug  the same on the container eevdf is built on, with eevdf's key dynamics and no
//              policy: tasks at nice U[-5, 5] in a deadline-keyed tree keeping each subtree's
//              minimum vruntime; pop the earliest deadline, vruntime += the weighted
//              1 + U[0, 4 ms), deadline = vruntime + the weighted 0.75 ms slice, insert.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "schedcore/intrusive/rb_tree.hpp"
#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/eevdf.hpp"

#if defined(__clang__)
#define TREE_GUARD_MEASURED extern "C" __attribute__((noinline, used))
#else
#define TREE_GUARD_MEASURED extern "C" __attribute__((noipa, used))
#endif
// Each fixture's cycle() is forced inline into the measured loop. A final class's override
// called through its own type is devirtualised, but g++ -O2 then still emitted a call for the
// larger cfs/eevdf/eevdf_aug cycles (and inlined the raw ones), so the call overhead skewed
// every ratio (cfs 237.4 -> 218.3 instr/cycle at N=8 once inlined). The vtable still gets an
// out-of-line copy for the warm-up's virtual calls.
#define TREE_GUARD_INLINE __attribute__((always_inline))

namespace {

namespace sc = schedcore;
using u64 = std::uint64_t;
constexpr u64 kSlice = 4000000;  // 4 ms in ns
constexpr int kRounds = 20000;

struct xorshift64 {
  u64 s = 0x2545f4914f6cdd1dull;
  u64 operator()() noexcept {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
};

template <std::size_t Size>
struct raw_task {
  u64 key = 0;
  sc::rb_hook<> node;
  char pad[Size - sizeof(u64) - sizeof(sc::rb_hook<>)] = {};
};

struct cfs_task : sc::cfs_entity {
  int id = 0;
};
struct alignas(64) eevdf_task : sc::eevdf_entity {};

struct base {
  virtual ~base() = default;
  virtual void cycle() = 0;
};

struct cfs_fixture final : base {
  std::vector<cfs_task> tasks;
  sc::cfs_policy<cfs_task> p;
  xorshift64 rng;
  sc::sched_time now{};
  cfs_task* curr = nullptr;
  explicit cfs_fixture(std::size_t n) : tasks(n) {
    for (auto& t : tasks) {
      (void)p.setup(t, sc::sched_params{});
      p.enqueue(t, now, sc::enqueue_flags::wakeup);
    }
    curr = p.pick_next(now);
    p.set_next(*curr, now);
  }
  TREE_GUARD_INLINE void cycle() override {
    now += static_cast<std::int64_t>(1 + rng() % kSlice);
    p.put_prev(*curr, now);
    curr = p.pick_next(now);
    p.set_next(*curr, now);
  }
};

struct cfs_raw_fixture final : base {
  using task = raw_task<sizeof(cfs_task)>;
  using tree_t = sc::rb_tree<task, sc::rb_member<&task::node>, sc::rb_member_wrap_less<&task::key>>;
  std::vector<task> tasks;
  tree_t tree;
  xorshift64 rng;
  task* curr = nullptr;
  explicit cfs_raw_fixture(std::size_t n) : tasks(n) {
    for (auto& t : tasks) tree.insert(t);
    curr = tree.front();
    tree.erase(*curr);
  }
  TREE_GUARD_INLINE void cycle() override {
    curr->key += 1 + rng() % kSlice;
    tree.insert(*curr);
    curr = tree.front();
    tree.erase(*curr);
  }
};

struct eevdf_fixture final : base {
  std::vector<eevdf_task> tasks;
  sc::eevdf_policy<eevdf_task> rq;
  xorshift64 rng;
  sc::sched_time now{1ull << 60};
  explicit eevdf_fixture(std::size_t n) : tasks(n) {
    for (auto& t : tasks) {
      const int nice = static_cast<int>(rng() % 11) - 5;
      (void)rq.setup(t, sc::sched_params{sc::sched_kind::normal, static_cast<std::int8_t>(nice), 0, 0, 0, 0});
      rq.enqueue(t, now, sc::enqueue_flags::wakeup);
      now += 1000;
    }
  }
  TREE_GUARD_INLINE void cycle() override {
    eevdf_task* t = rq.pick_next(now);
    rq.set_next(*t, now);
    now += static_cast<std::int64_t>(1 + rng() % kSlice);
    rq.put_prev(*t, now);
  }
};

struct alignas(64) eevdf_raw_task : raw_task<sizeof(eevdf_task)> {};
struct eevdf_raw_fixture final : base {
  using tree_t = sc::rb_tree<raw_task<sizeof(eevdf_task)>, sc::rb_member<&raw_task<sizeof(eevdf_task)>::node>,
                             sc::rb_member_wrap_less<&raw_task<sizeof(eevdf_task)>::key>>;
  std::vector<eevdf_raw_task> tasks;
  tree_t tree;
  xorshift64 rng;
  explicit eevdf_raw_fixture(std::size_t n) : tasks(n) {
    for (auto& t : tasks) {
      t.key = (1ull << 60) + rng() % kSlice;
      tree.insert(t);
    }
  }
  TREE_GUARD_INLINE void cycle() override {
    auto* t = tree.pop_front();
    t->key += 1 + rng() % kSlice;
    tree.insert(*t);
  }
};

// The container eevdf is built on, with no policy: a deadline-keyed tree that keeps each
// subtree's minimum vruntime (the run queue's own augmentation), churned as eevdf_raw.
struct alignas(64) aug_task {
  u64 deadline = 0;
  u64 vruntime = 0;
  u64 min_vruntime = 0;
  sc::rb_hook<> node;
  u64 vslice = 0;           // virtual slice: 0.75 ms scaled by the task's weight
  sc::fair_vscale vscale{};  // ns of run time -> virtual ns (the weight's multiply-shift)
  char pad[sizeof(eevdf_task) - 4 * sizeof(u64) - sizeof(sc::rb_hook<>) - sizeof(sc::fair_vscale)] = {};
};
static_assert(sizeof(aug_task) == sizeof(eevdf_task), "the augmented tree's task has the eevdf task's footprint");
struct min_vruntime_of {
  using value_type = aug_task;
  using best_type = u64;
  static u64 value(const aug_task& t) noexcept { return t.vruntime; }
  static u64 best(const aug_task& t) noexcept { return t.min_vruntime; }
  static void set_best(aug_task& t, u64 v) noexcept { t.min_vruntime = v; }
  static bool better(u64 a, u64 b) noexcept { return static_cast<std::int64_t>(a - b) < 0; }
};
struct eevdf_aug_fixture final : base {
  using tree_t = sc::rb_tree<aug_task, sc::rb_member<&aug_task::node>, sc::rb_member_wrap_less<&aug_task::deadline>,
                             sc::subtree_best<min_vruntime_of>>;
  std::vector<aug_task> tasks;
  tree_t tree;
  xorshift64 rng;
  explicit eevdf_aug_fixture(std::size_t n) : tasks(n) {
    for (auto& t : tasks) {
      const sc::load_weight lw = sc::nice_to_load(static_cast<int>(rng() % 11) - 5);
      t.vslice = sc::calc_delta_fair(750000, lw);  // the eevdf fixture's base slice (1 CPU)
      t.vscale = sc::make_fair_vscale(lw);
      t.vruntime = (1ull << 60) + rng() % kSlice;
      t.deadline = t.vruntime + t.vslice;
      tree.insert(t);
    }
  }
  TREE_GUARD_INLINE void cycle() override {
    auto* t = tree.pop_front();
    t->vruntime += sc::fair_vscale_delta(1 + rng() % kSlice, t->vscale);
    t->deadline = t->vruntime + t->vslice;
    tree.insert(*t);
  }
};

// The fixtures are final and called through a reference of their own type inside the measured
// function, and cycle() is always_inline (TREE_GUARD_INLINE), so each cycle inlines into the
// loop; the virtual only serves the warm-up.
template <class F>
void rounds(F& f) {
  for (int i = 0; i < kRounds; ++i) {
    f.cycle();
    __asm__ volatile("" ::: "memory");
  }
}

base* g_fixture = nullptr;
int g_kind = 0;

}  // namespace

TREE_GUARD_MEASURED void tree_cycle_guard_rounds() {
  switch (g_kind) {
    case 0: rounds(*static_cast<cfs_fixture*>(g_fixture)); break;
    case 1: rounds(*static_cast<cfs_raw_fixture*>(g_fixture)); break;
    case 2: rounds(*static_cast<eevdf_fixture*>(g_fixture)); break;
    case 3: rounds(*static_cast<eevdf_raw_fixture*>(g_fixture)); break;
    default: rounds(*static_cast<eevdf_aug_fixture*>(g_fixture)); break;
  }
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: tree_cycle_guard cfs|cfs_raw|eevdf|eevdf_raw|eevdf_aug N\n");
    return 2;
  }
  const std::size_t n = std::strtoul(argv[2], nullptr, 10);
  if (n < 2) {
    std::fprintf(stderr, "tree_cycle_guard: N must be >= 2\n");
    return 2;
  }
  const char* const names[] = {"cfs", "cfs_raw", "eevdf", "eevdf_raw", "eevdf_aug"};
  g_kind = -1;
  for (int k = 0; k < 5; ++k)
    if (std::strcmp(argv[1], names[k]) == 0) g_kind = k;
  switch (g_kind) {
    case 0: g_fixture = new cfs_fixture(n); break;
    case 1: g_fixture = new cfs_raw_fixture(n); break;
    case 2: g_fixture = new eevdf_fixture(n); break;
    case 3: g_fixture = new eevdf_raw_fixture(n); break;
    case 4: g_fixture = new eevdf_aug_fixture(n); break;
    default: std::fprintf(stderr, "tree_cycle_guard: unknown structure '%s'\n", argv[1]); return 2;
  }
  for (std::size_t i = 0; i < 3 * n + 10000; ++i) g_fixture->cycle();
  tree_cycle_guard_rounds();
  std::printf("%s N=%zu rounds=%d\n", argv[1], n, kRounds);
  delete g_fixture;
  return 0;
}
