// Per-policy scheduling cycle cost against the run-queue length N (issue 4, "Benchmarks").
//
//   BM_cycle/<policy>/<N>  the steady-state tick-driven switch of N runnable CPU hogs:
//                          advance the clock by dt, tick(curr), put_prev(curr), pick_next,
//                          set_next. Each policy is configured so that the tick ends the
//                          running task's slice (or its run moves it behind the others), so
//                          nearly every cycle rotates to another task (none re-picks curr
//                          under rr, o1, sd, bfs and edf; about 1 in N under goodness24; the
//                          random run lengths let cfs, cfs2007 and stride re-pick it in about
//                          6.5 % of the cycles at N = 8, eevdf in 16 %, eevdf-groups 12-14 %;
//                          nicksched is the exception below):
//       rr          rt_policy, SCHED_RR prio 50, timeslice 1 ms, dt 1 ms, no RT throttling
//       o1          o1_policy, nice 19 at HZ=200 (1-jiffy slice), dt 5 ms: expiry to the
//                   expired array every tick, an array switch every N ticks
//       sd          sd_policy, nice 0, rr_interval 1 ms, dt 1 ms: a slot ends every tick
//                   (next slot, or expired array; a major rotation every 20 N ticks)
//       goodness24  2.4, nice 19 at HZ=100 (NICE_TO_TICKS = 1), dt 10 ms: O(n) goodness scan
//                   per pick, an O(n) counter recalculation every N ticks
//       nicksched   nice 0, HZ=1000, base_timeslice 10 us, dt 1 ms. The slice unit is at
//                   least a jiffy, so a nice-0 hog's slice is 60 jiffies whatever
//                   base_timeslice: it rotates every 60th cycle, and the row mostly measures
//                   a tick and a re-pick of curr (tick() counts calls, one jiffy each)
//       cfs2007     2.6.23 CFS, nice 0, dt 1 + U[0, 4 ms)
//       cfs         modern CFS, nice 0, dt 1 + U[0, 4 ms)
//       eevdf       EEVDF, nice 0, dt 1 + U[0, 4 ms)
//       bfs         BFS, nice 0, rr_interval 6 ms, dt 6 ms + U[0, 4 ms) (every run expires)
//       stride      the custom-policy example (examples/custom-policy/stride.hpp), a policy
//                   written outside the library, nice 0, dt 1 + U[0, 4 ms): what your own
//                   class costs, measured beside the built-in ones
//       eevdf-groups  eevdf under group_policy, the tasks spread over 4 leaf groups at depth 2
//                   (2 top groups of 2): every hook walks 3 queues; dt as eevdf
//       edf         SCHED_DEADLINE hogs with tiny admitted bandwidth (runtime 100 us,
//                   period = deadline = N * 200 us: total 50 %): each run uses the whole
//                   budget, the tick throttles it (ready-tree erase, timer-tree insert), due
//                   replenishment timers run (timer-tree erase, ready-tree insert); when all
//                   are throttled the clock jumps to the next timer (the idle half period).
//   BM_wake/<policy>/<N>   the wakeup path with N runnable and one task running: dequeue(sleep)
//                          the next queued task (round robin over all N, skipping curr),
//                          enqueue(wakeup) the one that slept in the previous iteration,
//                          wakeup_preempt(woken, curr); the clock advances 10 us. All policies
//                          except edf (a deadline wakeup is a CBS rule, not a queue operation).
//
// N in {8, 64, 1024, 16384, 262144}. Method as bench/rb_tree_bench.cpp and cfs_bench.cpp:
// 64-byte-aligned tasks in one dense array, fixed-seed xorshift64, setup and a warm-up of
// 2N + 10000 iterations (goodness24: min(2N + 100, 2000), its cycle is O(N)) outside the timed
// loop, one fixture alive at a time (memory). Expected: rr, o1, sd flat in N (the callgrind
// guard tests/perf/policy_o1_guard proves their instruction counts flat; timings at large N
// also carry cache misses, since the rotation walks all N tasks); goodness24 linear; tree
// policies logarithmic. Compare same-run ratios on a loaded host.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "schedcore/policy/bfs.hpp"
#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/cfs2007.hpp"
#include "schedcore/policy/edf.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "schedcore/policy/goodness24.hpp"
#include "schedcore/policy/group.hpp"
#include "schedcore/policy/nicksched.hpp"
#include "schedcore/policy/o1.hpp"
#include "schedcore/policy/rt.hpp"
#include "schedcore/policy/sd.hpp"
#include "../examples/custom-policy/stride.hpp"

namespace {

namespace sc = schedcore;
using u64 = std::uint64_t;
using s64 = std::int64_t;
using sc::sched_time;

constexpr u64 kSeed = 0x2545f4914f6cdd1dull;

struct xorshift64 {
  u64 s = kSeed;
  u64 operator()() noexcept {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
};

template <class Entity>
struct alignas(64) task : Entity {};

sc::sched_params normal(int nice) {
  sc::sched_params p;
  p.kind = sc::sched_kind::normal;
  p.nice = static_cast<std::int8_t>(nice);
  return p;
}

void must(sc::errc e) {
  if (e != sc::errc::ok) std::abort();
}

// ---- per-policy specifications: configuration, task parameters, the clock step ----

struct rr_spec {
  using task_type = task<sc::rt_entity>;
  using policy = sc::rt_policy<task_type>;
  static constexpr const char* name = "rr";
  static constexpr bool linear = false;
  static void configure(policy& p) {
    policy::knobs k;
    k.timeslice = sc::msec(1);
    k.runtime = -1;
    must(p.configure(k));
  }
  static void setup(policy& p, task_type& t, std::size_t) {
    sc::sched_params sp;
    sp.kind = sc::sched_kind::rr;
    sp.rt_priority = 50;
    must(p.setup(t, sp));
  }
  static s64 dt(xorshift64&) { return sc::msec(1); }
};

struct o1_spec {
  using task_type = task<sc::o1_entity>;
  using policy = sc::o1_policy<task_type>;
  static constexpr const char* name = "o1";
  static constexpr bool linear = false;
  static void configure(policy& p) {
    policy::knobs k;
    k.hz = 200;
    must(p.configure(k));
  }
  static void setup(policy& p, task_type& t, std::size_t) { must(p.setup(t, normal(19))); }
  static s64 dt(xorshift64&) { return sc::msec(5); }
};

struct sd_spec {
  using task_type = task<sc::sd_entity>;
  using policy = sc::sd_policy<task_type>;
  static constexpr const char* name = "sd";
  static constexpr bool linear = false;
  static void configure(policy& p) {
    policy::knobs k;
    k.rr_interval = sc::msec(1);
    must(p.configure(k));
  }
  static void setup(policy& p, task_type& t, std::size_t) { must(p.setup(t, normal(0))); }
  static s64 dt(xorshift64&) { return sc::msec(1); }
};

struct goodness24_spec {
  using task_type = task<sc::goodness24_entity>;
  using policy = sc::goodness24_policy<task_type>;
  static constexpr const char* name = "goodness24";
  static constexpr bool linear = true;
  static void configure(policy& p) {
    policy::knobs k;
    k.hz = 100;
    must(p.configure(k));
  }
  static void setup(policy& p, task_type& t, std::size_t) { must(p.setup(t, normal(19))); }
  static s64 dt(xorshift64&) { return sc::msec(10); }
};

struct nicksched_spec {
  using task_type = task<sc::nicksched_entity>;
  using policy = sc::nicksched_policy<task_type>;
  static constexpr const char* name = "nicksched";
  static constexpr bool linear = false;
  static void configure(policy& p) {
    policy::knobs k;
    k.hz = 1000;
    k.base_timeslice = sc::usec(10);
    must(p.configure(k));
  }
  static void setup(policy& p, task_type& t, std::size_t) { must(p.setup(t, normal(0))); }
  static s64 dt(xorshift64&) { return sc::msec(1); }
};

template <class Entity, template <class, class> class Policy, class Access, const char* Name>
struct fair_spec {
  using task_type = task<Entity>;
  using policy = Policy<task_type, Access>;
  static constexpr const char* name = Name;
  static constexpr bool linear = false;
  static void configure(policy&) {}
  static void setup(policy& p, task_type& t, std::size_t) { must(p.setup(t, normal(0))); }
  static s64 dt(xorshift64& rng) { return static_cast<s64>(1 + rng() % 4000000); }
};
constexpr char kCfs2007[] = "cfs2007";
constexpr char kCfs[] = "cfs";
constexpr char kEevdf[] = "eevdf";
using cfs2007_spec = fair_spec<sc::cfs2007_entity, sc::cfs2007_policy, sc::base_entity<sc::cfs2007_entity>, kCfs2007>;
using cfs_spec = fair_spec<sc::cfs_entity, sc::cfs_policy, sc::base_entity<sc::cfs_entity>, kCfs>;
using eevdf_spec = fair_spec<sc::eevdf_entity, sc::eevdf_policy, sc::base_entity<sc::eevdf_entity>, kEevdf>;
constexpr char kStride[] = "stride";
using stride_spec = fair_spec<stride_example::stride_entity, stride_example::stride_policy,
                              sc::base_entity<stride_example::stride_entity>, kStride>;

// Task groups (policy/group.hpp) over eevdf: the tasks spread round robin over 4 leaf groups
// at depth 2 (2 top groups of 2), so every cycle walks 3 levels: what a cgroup hierarchy costs
// beside the flat eevdf row.
template <class Inner>
struct grouped_policy : sc::group_policy<task<sc::group_node<sc::eevdf_entity>>, Inner> {
  using base = sc::group_policy<task<sc::group_node<sc::eevdf_entity>>, Inner>;
  typename base::task_group top[2], leaf[4];
  grouped_policy() {
    for (auto& g : top) must(this->attach_group(g, nullptr));
    for (int i = 0; i < 4; ++i) must(this->attach_group(leaf[i], &top[i / 2]));
  }
};
struct eevdf_grouped_spec {
  using task_type = task<sc::group_node<sc::eevdf_entity>>;
  using policy = grouped_policy<sc::eevdf_policy<sc::group_node<sc::eevdf_entity>>>;
  static constexpr const char* name = "eevdf-groups";
  static constexpr bool linear = false;
  static void configure(policy&) {}
  static void setup(policy& p, task_type& t, std::size_t i) {
    must(p.setup(t, normal(0)));
    must(p.set_group(t, &p.leaf[i % 4], sched_time{}));
  }
  static s64 dt(xorshift64& rng) { return static_cast<s64>(1 + rng() % 4000000); }
};

struct bfs_spec {
  using task_type = task<sc::bfs_entity>;
  using policy = sc::bfs_policy<task_type>;
  static constexpr const char* name = "bfs";
  static constexpr bool linear = false;
  static void configure(policy& p) {
    policy::knobs k;
    k.rr_interval = sc::msec(6);
    must(p.configure(k));
  }
  static void setup(policy& p, task_type& t, std::size_t) { must(p.setup(t, normal(0))); }
  static s64 dt(xorshift64& rng) { return sc::msec(6) + static_cast<s64>(rng() % 4000000); }
};

// ---- fixtures ----

struct fixture_base {
  virtual ~fixture_base() = default;
};

// N hogs under one policy; `cycle` is the tick-driven switch, `wake` the wakeup path.
template <class Spec>
struct policy_fixture final : fixture_base {
  using task_type = typename Spec::task_type;
  typename Spec::policy p;
  std::vector<task_type> tasks;  // N runnable + 1 sleeping (the wake cycle's spare)
  xorshift64 rng;
  sched_time now{sc::sec(1)};
  task_type* curr = nullptr;
  task_type* sleeper = nullptr;
  std::size_t next_victim = 0;
  std::size_t n;

  explicit policy_fixture(std::size_t count) : tasks(count + 1), n(count) {
    Spec::configure(p);
    for (std::size_t i = 0; i <= count; ++i) Spec::setup(p, tasks[i], i);
    for (std::size_t i = 0; i < count; ++i) p.enqueue(tasks[i], now, sc::enqueue_flags::none);
    sleeper = &tasks[count];
    curr = p.pick_next(now);
    p.set_next(*curr, now);
  }
  BENCHMARK_ALWAYS_INLINE void cycle() {
    now += Spec::dt(rng);
    benchmark::DoNotOptimize(p.tick(*curr, now));
    p.put_prev(*curr, now);
    curr = p.pick_next(now);
    p.set_next(*curr, now);
    benchmark::DoNotOptimize(curr);
  }
  BENCHMARK_ALWAYS_INLINE void wake() {
    now += sc::usec(10);
    task_type* victim;
    do {
      victim = &tasks[next_victim];
      next_victim = next_victim == n ? 0 : next_victim + 1;
    } while (victim == curr || victim == sleeper);
    p.dequeue(*victim, now, sc::dequeue_flags::sleep);
    p.enqueue(*sleeper, now, sc::enqueue_flags::wakeup);
    benchmark::DoNotOptimize(p.wakeup_preempt(*sleeper, *curr, now));
    sleeper = victim;
  }
};

// SCHED_DEADLINE hogs that each exhaust a tiny budget per period (see the file comment).
struct edf_fixture final : fixture_base {
  using task_type = task<sc::edf_entity>;
  static constexpr s64 kRuntime = sc::usec(100);
  sc::edf_policy<task_type> p;
  std::vector<task_type> tasks;
  sched_time now{sc::sec(1)};
  task_type* curr = nullptr;
  std::size_t n;

  explicit edf_fixture(std::size_t count) : tasks(count), n(count) {
    sc::edf_policy<task_type>::knobs k;
    k.deadline_period_max = sc::sec(1000);
    must(p.configure(k));
    const s64 period = static_cast<s64>(count) * 2 * kRuntime;
    for (auto& t : tasks) {
      sc::sched_params sp;
      sp.kind = sc::sched_kind::deadline;
      sp.runtime = kRuntime;
      sp.deadline = period;
      sp.period = period;
      must(p.setup(t, sp));  // admission control accepts: N * bw = 50 % < 95 %
      p.enqueue(t, now, sc::enqueue_flags::none);
    }
    curr = p.pick_next(now);
    p.set_next(*curr, now);
  }
  BENCHMARK_ALWAYS_INLINE void cycle() {
    now += kRuntime;
    benchmark::DoNotOptimize(p.tick(*curr, now));  // budget used up: throttle, arm its timer
    p.put_prev(*curr, now);
    benchmark::DoNotOptimize(p.timer(now));        // replenish whatever is due
    curr = p.pick_next(now);
    if (curr == nullptr) {  // everyone throttled: idle until the next replenishment
      sched_time when{};
      if (!p.next_timer(when)) std::abort();
      now = when;
      benchmark::DoNotOptimize(p.timer(now));
      curr = p.pick_next(now);
    }
    p.set_next(*curr, now);
    benchmark::DoNotOptimize(curr);
  }
  void wake() {}
};

// One fixture alive at a time (262144 tasks of ten policies would not all fit comfortably):
// building a fixture frees the previous one, whatever its type.
std::unique_ptr<fixture_base>* g_slot = nullptr;

template <class F>
F& fixture(std::size_t n, bool linear) {
  static std::unique_ptr<fixture_base> holder;
  static std::size_t holder_n = 0;
  if (g_slot != &holder || holder_n != n || !holder) {
    if (g_slot != nullptr) g_slot->reset();  // free the previous policy's tasks first
    holder.reset();
    auto f = std::make_unique<F>(n);
    // goodness24's cycle is O(N): a 2N warm-up would be O(N^2) (minutes at 262144). Its cost
    // is the scan, the same in any epoch, so a short warm-up suffices.
    const std::size_t warm = linear ? (2 * n + 100 < 2000 ? 2 * n + 100 : 2000) : 2 * n + 10000;
    for (std::size_t i = 0; i < warm; ++i) f->cycle();
    holder = std::move(f);
    holder_n = n;
    g_slot = &holder;
  }
  return static_cast<F&>(*holder);
}

template <class F>
void bm_cycle(benchmark::State& state, std::size_t n, bool linear) {
  F& f = fixture<F>(n, linear);
  for (auto _ : state) {
    f.cycle();
    benchmark::ClobberMemory();
  }
}

template <class F>
void bm_wake(benchmark::State& state, std::size_t n, bool linear) {
  F& f = fixture<F>(n, linear);
  for (auto _ : state) {
    f.wake();
    benchmark::ClobberMemory();
  }
}

template <class Spec>
void register_policy(std::size_t n) {
  using F = policy_fixture<Spec>;
  const std::string suffix = std::string("/") + Spec::name + "/" + std::to_string(n);
  benchmark::RegisterBenchmark(("BM_cycle" + suffix).c_str(),
                               [n](benchmark::State& s) { bm_cycle<F>(s, n, Spec::linear); });
  benchmark::RegisterBenchmark(("BM_wake" + suffix).c_str(),
                               [n](benchmark::State& s) { bm_wake<F>(s, n, Spec::linear); });
}

}  // namespace

int main(int argc, char** argv) {
  // All policies of one N back to back: host drift hits them alike.
  for (std::size_t n : {std::size_t{8}, std::size_t{64}, std::size_t{1024}, std::size_t{16384}, std::size_t{262144}}) {
    register_policy<rr_spec>(n);
    register_policy<o1_spec>(n);
    register_policy<sd_spec>(n);
    register_policy<goodness24_spec>(n);
    register_policy<nicksched_spec>(n);
    register_policy<cfs2007_spec>(n);
    register_policy<cfs_spec>(n);
    register_policy<eevdf_spec>(n);
    register_policy<bfs_spec>(n);
    register_policy<stride_spec>(n);
    register_policy<eevdf_grouped_spec>(n);
    benchmark::RegisterBenchmark(("BM_cycle/edf/" + std::to_string(n)).c_str(),
                                 [n](benchmark::State& s) { bm_cycle<edf_fixture>(s, n, false); });
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
