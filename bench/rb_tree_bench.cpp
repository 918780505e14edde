// Run-queue tree benchmarks: schedcore's rb_tree against the baselines of perf-anchors.md (B, C)
// in one binary so ratios come from one run: Boost.Intrusive multiset (normal_link, with and
// without optimize_size), avl_multiset and treap_multiset (normal_link), std::multiset with a
// malloc per reinsert and with C++17 node-handle reuse, and std::priority_queue.
//
//   BM_<op>/<structure>/<N>   op: pick | churn | wake;  N: 8 64 1024 16384 262144
//
// - pick:  peek the minimum (one cached pointer in every structure).
// - churn: pop the minimum, advance its key by 1 + U[0, 4 ms), reinsert (CFS tick/requeue).
// - wake:  erase a random task (not the minimum), reinsert it with a key near the minimum,
//          min - 3 ms + U[0, 6 ms) (a sleeper leaves, a waker arrives near min_vruntime).
//          std_pq has no wake row: a binary heap cannot erase an arbitrary task.
//
// The method follows /work/shared/design/perf-anchors.md: 64-byte tasks in one dense array,
// u64 keys from 2^60 compared wrap-safe ((s64)(a - b) < 0) in every structure, fixed-seed
// xorshift64 (identical operation sequence for every structure), index reduction by
// multiply-shift, build + warm-up (3N + 10000 ops of the measured kind; pick uses a churned
// structure) outside the timed loop; one instance serves all runs of a cell.
// Without Boost at configure time the boost_* rows are absent; the run then says so in its
// context header ("boost_baselines: NOT BUILT ...") and bench/CMakeLists.txt warns.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "schedcore/intrusive/rb_tree.hpp"

#if SCHEDCORE_HAVE_BOOST
#include <boost/intrusive/avl_set.hpp>
#include <boost/intrusive/set.hpp>
#include <boost/intrusive/treap_set.hpp>
#endif

namespace {

using u64 = std::uint64_t;

constexpr u64 kSeed = 0x2545f4914f6cdd1dull;
constexpr u64 kKeyBase = 1ull << 60;
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

// Multiply-shift reduction of a random word to [0, n) (no division in the loop).
inline std::size_t reduce(u64 x, std::size_t n) noexcept {
  return static_cast<std::size_t>(((x >> 32) * static_cast<u64>(n)) >> 32);
}

inline bool key_before(u64 a, u64 b) noexcept { return static_cast<std::int64_t>(a - b) < 0; }

// ---- schedcore ------------------------------------------------------------------------------

struct alignas(64) sc_task {
  u64 key;
  schedcore::rb_hook<> node;
};
static_assert(sizeof(sc_task) == 64);

struct schedcore_rb {
  static constexpr const char* name = "schedcore_rb";
  using task = sc_task;
  schedcore::rb_tree<sc_task, schedcore::rb_member<&sc_task::node>, schedcore::rb_member_wrap_less<&sc_task::key>>
      tree;
  task* pick() noexcept { return tree.front(); }
  task* pop_min() noexcept { return tree.pop_front(); }
  void erase(task& t) noexcept { tree.erase(t); }
  void insert(task& t) noexcept { tree.insert(t); }
};

// ---- Boost.Intrusive ------------------------------------------------------------------------

#if SCHEDCORE_HAVE_BOOST
namespace bi = boost::intrusive;

template <class Hook>
struct alignas(64) boost_task {
  u64 key;
  Hook node;
  u64 heap_prio;  // treap only: random heap priority (perf-anchors' boost_treap_normal); unused otherwise
};

template <class Task>
struct boost_less {
  bool operator()(const Task& a, const Task& b) const noexcept { return key_before(a.key, b.key); }
};
template <class Task>
struct boost_heap_prio_less {
  bool operator()(const Task& a, const Task& b) const noexcept { return a.heap_prio < b.heap_prio; }
};

// One adapter for every Boost.Intrusive ordered multiset: Set<task, options...> is
// bi::multiset, bi::avl_multiset or bi::treap_multiset; the idiomatic API in each case
// (insert(value), erase(iterator_to(value)), begin()).
template <class Hook, template <class, class...> class Set, const char* Name, class... Extra>
struct boost_tree {
  static constexpr const char* name = Name;
  using task = boost_task<Hook>;
  static_assert(sizeof(task) == 64);
  Set<task, bi::member_hook<task, Hook, &task::node>, bi::compare<boost_less<task>>, Extra...> set;
  task* pick() noexcept { return &*set.begin(); }
  task* pop_min() noexcept {
    auto it = set.begin();
    task* t = &*it;
    set.erase(it);
    return t;
  }
  void erase(task& t) noexcept { set.erase(set.iterator_to(t)); }
  void insert(task& t) noexcept { set.insert(t); }
};

constexpr char boost_normal_name[] = "boost_rb_normal";
constexpr char boost_osz_name[] = "boost_rb_osz";
constexpr char boost_avl_name[] = "boost_avl_normal";
constexpr char boost_treap_name[] = "boost_treap_normal";
using boost_rb_normal = boost_tree<bi::set_member_hook<bi::link_mode<bi::normal_link>, bi::optimize_size<false>>,
                                   bi::multiset, boost_normal_name>;
using boost_rb_osz = boost_tree<bi::set_member_hook<bi::link_mode<bi::normal_link>, bi::optimize_size<true>>,
                                bi::multiset, boost_osz_name>;
using boost_avl_normal =
    boost_tree<bi::avl_set_member_hook<bi::link_mode<bi::normal_link>>, bi::avl_multiset, boost_avl_name>;
using treap_hook = bi::bs_set_member_hook<bi::link_mode<bi::normal_link>>;
using boost_treap_normal = boost_tree<treap_hook, bi::treap_multiset, boost_treap_name,
                                      bi::priority<boost_heap_prio_less<boost_task<treap_hook>>>>;
#endif

// ---- std::multiset --------------------------------------------------------------------------

struct pair_less {
  template <class P>
  bool operator()(const P& a, const P& b) const noexcept {
    return key_before(a.first, b.first);
  }
};

struct ms_task;
using ms_set = std::multiset<std::pair<u64, ms_task*>, pair_less>;

struct alignas(64) ms_task {
  u64 key;
  ms_set::iterator it;
};

struct std_multiset {
  static constexpr const char* name = "std_multiset";
  using task = ms_task;
  ms_set set;
  task* pick() noexcept { return set.begin()->second; }
  task* pop_min() noexcept {
    auto it = set.begin();
    task* t = it->second;
    set.erase(it);
    return t;
  }
  void erase(task& t) noexcept { set.erase(t.it); }
  void insert(task& t) { t.it = set.emplace(t.key, &t); }
};

// The same container with C++17 node handles: erase extracts the node into the task and insert
// puts it back, so a reinsert costs no free + malloc (perf-anchors' std_multiset_nh).
struct nh_task;
using nh_set = std::multiset<std::pair<u64, nh_task*>, pair_less>;

struct alignas(64) nh_task {
  u64 key;
  nh_set::iterator it;
  nh_set::node_type parked;  // the task's node while it is out of the set (empty while queued)
};
static_assert(sizeof(nh_task) == 64);

struct std_multiset_nh {
  static constexpr const char* name = "std_multiset_nh";
  using task = nh_task;
  nh_set set;
  task* pick() noexcept { return set.begin()->second; }
  task* pop_min() noexcept {
    nh_set::node_type node = set.extract(set.begin());
    task* t = node.value().second;
    t->parked = std::move(node);
    return t;
  }
  void erase(task& t) noexcept { t.parked = set.extract(t.it); }
  void insert(task& t) {
    if (t.parked.empty()) {  // first insert only (build): the node is allocated once per task
      t.it = set.emplace(t.key, &t);
      return;
    }
    t.parked.value().first = t.key;
    t.it = set.insert(std::move(t.parked));
  }
};

// ---- std::priority_queue --------------------------------------------------------------------

// A binary min-heap of (key, task) in one std::vector: pick is top(), churn is top + pop + push.
// It cannot erase an arbitrary task, so it has no wake row and is not a run queue by itself; it
// shows what an array layout buys at large N (perf-anchors' std_pq).
struct pq_task;
using pq_entry = std::pair<u64, pq_task*>;

struct alignas(64) pq_task {
  u64 key;
};

// priority_queue's top is the greatest element under its comparator: "a after b" puts the
// earliest key (wrap-safe) on top.
struct pq_after {
  bool operator()(const pq_entry& a, const pq_entry& b) const noexcept { return key_before(b.first, a.first); }
};

struct std_pq {
  static constexpr const char* name = "std_pq";
  using task = pq_task;
  std::priority_queue<pq_entry, std::vector<pq_entry>, pq_after> heap;
  task* pick() noexcept { return heap.top().second; }
  task* pop_min() noexcept {
    task* t = heap.top().second;
    heap.pop();
    return t;
  }
  void insert(task& t) { heap.emplace(t.key, &t); }
};

// ---- harness --------------------------------------------------------------------------------

enum class op { pick, churn, wake };

template <class T, class = void>
struct has_heap_prio : std::false_type {};
template <class T>
struct has_heap_prio<T, std::void_t<decltype(std::declval<T&>().heap_prio)>> : std::true_type {};

template <class Q>
struct fixture {
  using task = typename Q::task;
  std::vector<task> tasks;
  Q q;
  xorshift64 rng;
  xorshift64 heap_rng{~kSeed};  // treap priorities: own stream, so every structure sees the same keys
  std::size_t n;

  explicit fixture(std::size_t count) : tasks(count), n(count) {
    for (auto& t : tasks) {
      t.key = kKeyBase + rng() % kSlice;
      if constexpr (has_heap_prio<task>::value) t.heap_prio = heap_rng();
      q.insert(t);
    }
  }

  BENCHMARK_ALWAYS_INLINE void churn() {
    task* t = q.pop_min();
    t->key += 1 + rng() % kSlice;
    q.insert(*t);
  }

  BENCHMARK_ALWAYS_INLINE void wake() {
    task* first = q.pick();
    std::size_t i = reduce(rng(), n);
    task* v = &tasks[i];
    if (v == first) v = &tasks[i + 1 == n ? 0 : i + 1];
    q.erase(*v);
    v->key = first->key - 3000000 + rng() % 6000000;
    q.insert(*v);
  }
};

template <class Q, op Op>
void run(benchmark::State& state, std::size_t n) {
  // One instance per (structure, op), rebuilt when N changes: build and warm-up are not timed.
  static std::unique_ptr<fixture<Q>> cached;
  if (!cached || cached->n != n) {
    cached.reset();
    cached = std::make_unique<fixture<Q>>(n);
    const std::size_t warm = 3 * n + 10000;
    for (std::size_t i = 0; i < warm; ++i) {
      if constexpr (Op == op::wake) {
        cached->wake();
      } else {
        cached->churn();
      }
    }
  }
  fixture<Q>& f = *cached;
  if constexpr (Op == op::pick) {
    for (auto _ : state) {
      auto* t = f.q.pick();
      benchmark::DoNotOptimize(t);
    }
  } else if constexpr (Op == op::churn) {
    for (auto _ : state) {
      f.churn();
      benchmark::ClobberMemory();
    }
  } else {
    for (auto _ : state) {
      f.wake();
      benchmark::ClobberMemory();
    }
  }
}

template <op Op, class Q>
void register_one(const char* op_name, std::size_t n) {
  const std::string name = std::string("BM_") + op_name + "/" + Q::name + "/" + std::to_string(n);
  benchmark::RegisterBenchmark(name.c_str(), [n](benchmark::State& s) { run<Q, Op>(s, n); });
}

template <op Op>
void register_op(const char* op_name) {
  // All structures of one (op, N) cell back to back: host drift hits them alike.
  for (std::size_t n : {std::size_t{8}, std::size_t{64}, std::size_t{1024}, std::size_t{16384}, std::size_t{262144}}) {
    register_one<Op, schedcore_rb>(op_name, n);
#if SCHEDCORE_HAVE_BOOST
    register_one<Op, boost_rb_normal>(op_name, n);
    register_one<Op, boost_rb_osz>(op_name, n);
    register_one<Op, boost_avl_normal>(op_name, n);
    register_one<Op, boost_treap_normal>(op_name, n);
#endif
    register_one<Op, std_multiset>(op_name, n);
    register_one<Op, std_multiset_nh>(op_name, n);
    if constexpr (Op != op::wake) register_one<Op, std_pq>(op_name, n);  // no arbitrary erase
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_op<op::pick>("pick");
  register_op<op::churn>("churn");
  register_op<op::wake>("wake");
#if SCHEDCORE_HAVE_BOOST
  benchmark::AddCustomContext("boost_baselines", "built (Boost.Intrusive rb, avl, treap)");
#else
  // Say so in every report (console header, JSON context): missing rows are not a filter.
  benchmark::AddCustomContext("boost_baselines",
                              "NOT BUILT: Boost was not found at configure time, no boost_* rows");
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
