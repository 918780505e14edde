// Run-queue tree benchmarks: schedcore's rb_tree against Boost.Intrusive multiset (normal_link,
// with and without optimize_size) and std::multiset, in one binary so ratios come from one run.
//
//   BM_<op>/<structure>/<N>   op: pick | churn | wake;  N: 8 64 1024 16384 262144
//
// - pick:  peek the minimum (one cached pointer in every structure).
// - churn: pop the minimum, advance its key by 1 + U[0, 4 ms), reinsert (CFS tick/requeue).
// - wake:  erase a random task (not the minimum), reinsert it with a key near the minimum,
//          min - 3 ms + U[0, 6 ms) (a sleeper leaves, a waker arrives near min_vruntime).
//
// The method follows /work/shared/design/perf-anchors.md: 64-byte tasks in one dense array,
// u64 keys from 2^60 compared wrap-safe ((s64)(a - b) < 0) in every structure, fixed-seed
// xorshift64 (identical operation sequence for every structure), index reduction by
// multiply-shift, build + warm-up (3N + 10000 ops of the measured kind; pick uses a churned
// structure) outside the timed loop; one instance serves all runs of a cell.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "schedcore/intrusive/rb_tree.hpp"

#if SCHEDCORE_HAVE_BOOST
#include <boost/intrusive/set.hpp>
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
};

template <class Task>
struct boost_less {
  bool operator()(const Task& a, const Task& b) const noexcept { return key_before(a.key, b.key); }
};

template <class Hook, const char* Name>
struct boost_rb {
  static constexpr const char* name = Name;
  using task = boost_task<Hook>;
  static_assert(sizeof(task) == 64);
  bi::multiset<task, bi::member_hook<task, Hook, &task::node>, bi::compare<boost_less<task>>> set;
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
using boost_rb_normal =
    boost_rb<bi::set_member_hook<bi::link_mode<bi::normal_link>, bi::optimize_size<false>>, boost_normal_name>;
using boost_rb_osz =
    boost_rb<bi::set_member_hook<bi::link_mode<bi::normal_link>, bi::optimize_size<true>>, boost_osz_name>;
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

// ---- harness --------------------------------------------------------------------------------

enum class op { pick, churn, wake };

template <class Q>
struct fixture {
  using task = typename Q::task;
  std::vector<task> tasks;
  Q q;
  xorshift64 rng;
  std::size_t n;

  explicit fixture(std::size_t count) : tasks(count), n(count) {
    for (auto& t : tasks) {
      t.key = kKeyBase + rng() % kSlice;
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
#endif
    register_one<Op, std_multiset>(op_name, n);
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_op<op::pick>("pick");
  register_op<op::churn>("churn");
  register_op<op::wake>("wake");
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
