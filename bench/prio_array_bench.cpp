// Priority-array benchmarks: schedcore's prio_array (140 priorities, Linux layout) and
// stair_array (40 SD levels, active array), against a hand-written 140-level bitmap + per-level
// circular lists (perf-anchors.md's "bitmap140", and "bitmap140_rr" for the round-robin churn);
// and prio_array<4096> against a hand-written 4096-level two-level bitmap ("bitmap4096_2lvl",
// priority = key % 4096); in one binary so ratios come from one run.
//
//   BM_<op>/<structure>/<N>   op: pick | churn | wake | churn_rr;  N: 8 64 1024 16384 262144
//
// - pick:     peek at the most urgent task.
// - churn:    pop the most urgent task, advance its key by 1 + U[0, 4e6), requeue it at priority
//             key % P (P = 140, or 40 for the staircase), as perf-anchors' bitmap140.
// - wake:     erase a random task (not the current most urgent one) and insert it again with a
//             key near the most urgent task's key, at priority key % P.
// - churn_rr: pop the most urgent task, advance its key as churn, requeue it at the tail of its
//             own priority (round robin, as the O(1) and RT schedulers do; perf-anchors'
//             bitmap140_rr). prio_array and the hand-written queue only (the staircase moves
//             tasks between levels by design).
// Fixed-seed xorshift64, multiply-shift index reduction; tasks are 64-byte aligned, one cache
// line each, in one contiguous array. Setup (N inserts + 3N + 10000 warm-up ops of the measured
// kind; pick warms with churn) is outside the timed loop. All structures of one (op, N) cell are
// registered back to back, so host drift hits them alike and same-run ratios are seconds apart.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "schedcore/queue/prio_array.hpp"
#include "schedcore/queue/stair_array.hpp"

namespace {

struct bl_node {
  bl_node* next;
  bl_node* prev;
};

struct alignas(64) task {
  bl_node bl;                       // baseline hook (first member: node <-> task by cast)
  std::uint64_t key = 0;
  unsigned prio = 0;
  schedcore::list_hook<> sc;        // schedcore hook (safe link mode, the default)
};
static_assert(sizeof(task) == 64, "one cache line per task");

using sc_access = schedcore::list_member<&task::sc>;

// ---- baseline: 140 circular lists with 16-byte sentinels + uint64_t[3] ----
class baseline_bitmap {
 public:
  static constexpr unsigned kPrios = 140;
  baseline_bitmap() {
    for (auto& h : heads_) h.next = h.prev = &h;
  }
  void insert(task& t, unsigned p) {
    t.prio = p;
    bl_node* h = &heads_[p];
    bl_node* n = &t.bl;
    n->prev = h->prev;
    n->next = h;
    h->prev->next = n;
    h->prev = n;
    bits_[p >> 6] |= std::uint64_t{1} << (p & 63);
  }
  void erase(task& t) {
    bl_node* n = &t.bl;
    n->prev->next = n->next;
    n->next->prev = n->prev;
    const unsigned p = t.prio;
    if (heads_[p].next == &heads_[p]) bits_[p >> 6] &= ~(std::uint64_t{1} << (p & 63));
  }
  task* pick() const {
    unsigned idx;
    if (bits_[0]) idx = static_cast<unsigned>(__builtin_ctzll(bits_[0]));
    else if (bits_[1]) idx = 64 + static_cast<unsigned>(__builtin_ctzll(bits_[1]));
    else if (bits_[2]) idx = 128 + static_cast<unsigned>(__builtin_ctzll(bits_[2]));
    else return nullptr;
    return reinterpret_cast<task*>(heads_[idx].next);
  }
  task* pop() {
    task* t = pick();
    if (t) erase(*t);
    return t;
  }

 private:
  std::uint64_t bits_[3] = {};
  bl_node heads_[kPrios];
};

// ---- baseline: 4096 circular lists, 64 bitmap words + one 64-bit summary word ----
// perf-anchors.md's "bitmap4096_2lvl": pick = ctz(summary), then ctz(word); a word's summary
// bit is cleared when its last list empties.
class baseline_bitmap4096 {
 public:
  static constexpr unsigned kPrios = 4096;
  baseline_bitmap4096() {
    for (auto& h : heads_) h.next = h.prev = &h;
  }
  void insert(task& t, unsigned p) {
    t.prio = p;
    bl_node* h = &heads_[p];
    bl_node* n = &t.bl;
    n->prev = h->prev;
    n->next = h;
    h->prev->next = n;
    h->prev = n;
    words_[p >> 6] |= std::uint64_t{1} << (p & 63);
    summary_ |= std::uint64_t{1} << (p >> 6);
  }
  void erase(task& t) {
    bl_node* n = &t.bl;
    n->prev->next = n->next;
    n->next->prev = n->prev;
    const unsigned p = t.prio;
    if (heads_[p].next != &heads_[p]) return;
    words_[p >> 6] &= ~(std::uint64_t{1} << (p & 63));
    if (words_[p >> 6] == 0) summary_ &= ~(std::uint64_t{1} << (p >> 6));
  }
  task* pick() const {
    if (summary_ == 0) return nullptr;
    const unsigned w = static_cast<unsigned>(__builtin_ctzll(summary_));
    const unsigned idx = 64 * w + static_cast<unsigned>(__builtin_ctzll(words_[w]));
    return reinterpret_cast<task*>(heads_[idx].next);
  }
  task* pop() {
    task* t = pick();
    if (t) erase(*t);
    return t;
  }

 private:
  std::uint64_t summary_ = 0;
  std::uint64_t words_[kPrios / 64] = {};
  bl_node heads_[kPrios];
};

// ---- schedcore adapters (thin: every call is the library's own) ----
class sc_prio_array {
 public:
  static constexpr unsigned kPrios = 140;
  void insert(task& t, unsigned p) { q_.enqueue(t, p); }
  void erase(task& t) { q_.dequeue(t); }
  task* pick() const { return q_.pick(); }
  task* pop() { return q_.pop(); }

 private:
  schedcore::prio_array<task, 140, schedcore::prio_order::lower_first, sc_access> q_;
};

// The two-level bitmap side of prio_array, against baseline_bitmap4096 (priority = key % 4096).
class sc_prio_array4096 {
 public:
  static constexpr unsigned kPrios = 4096;
  void insert(task& t, unsigned p) { q_.enqueue(t, p); }
  void erase(task& t) { q_.dequeue(t); }
  task* pick() const { return q_.pick(); }
  task* pop() { return q_.pop(); }

 private:
  schedcore::prio_array<task, 4096, schedcore::prio_order::lower_first, sc_access> q_;
};

class sc_stair_array {
 public:
  static constexpr unsigned kPrios = 40;
  void insert(task& t, unsigned p) { q_.enqueue(t, p); }
  void erase(task& t) { q_.dequeue(t); }
  task* pick() const { return q_.pick(); }
  task* pop() { return q_.pop(); }

 private:
  schedcore::stair_array<task, 40, sc_access> q_;
};

struct xorshift64 {
  std::uint64_t s = 0x9E3779B97F4A7C15ull;
  std::uint64_t operator()() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
};

inline std::size_t reduce(std::uint64_t r, std::size_t n) {
  return static_cast<std::size_t>((static_cast<std::uint64_t>(static_cast<std::uint32_t>(r)) * n) >> 32);
}

enum class op { pick, churn, wake, churn_rr };

template <class Q>
struct fixture {
  std::vector<task> tasks;
  std::unique_ptr<Q> q;
  xorshift64 rng;

  explicit fixture(std::size_t n) : tasks(n), q(new Q) {
    for (auto& t : tasks) {
      t.key = (std::uint64_t{1} << 60) + rng() % 4000000;
      t.prio = static_cast<unsigned>(t.key % Q::kPrios);  // churn_rr's fixed priority (schedcore ignores it)
      q->insert(t, t.prio);
    }
  }
  SCHEDCORE_ALWAYS_INLINE void churn() {
    task* t = q->pop();
    t->key += 1 + rng() % 4000000;
    q->insert(*t, static_cast<unsigned>(t->key % Q::kPrios));
  }
  SCHEDCORE_ALWAYS_INLINE void churn_rr() {
    task* t = q->pop();
    t->key += 1 + rng() % 4000000;
    q->insert(*t, t->prio);
  }
  SCHEDCORE_ALWAYS_INLINE void wake() {
    task* first = q->pick();
    std::size_t i = reduce(rng(), tasks.size());
    task* v = &tasks[i];
    if (v == first) v = &tasks[i + 1 == tasks.size() ? 0 : i + 1];
    q->erase(*v);
    v->key = first->key - 3000000 + rng() % 6000000;
    q->insert(*v, static_cast<unsigned>(v->key % Q::kPrios));
  }
};

template <class Q, op Op>
void bm(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  fixture<Q> f(n);
  for (std::size_t i = 0; i < 3 * n + 10000; ++i) {
    if (Op == op::wake) f.wake();
    else if (Op == op::churn_rr) f.churn_rr();
    else f.churn();
  }
  for (auto _ : state) {
    if constexpr (Op == op::pick) {
      task* t = f.q->pick();
      benchmark::DoNotOptimize(t);
    } else if constexpr (Op == op::churn) {
      f.churn();
    } else if constexpr (Op == op::churn_rr) {
      f.churn_rr();
    } else {
      f.wake();
    }
  }
  benchmark::ClobberMemory();
}

template <class Q, op Op>
void register_one(const char* op_name, const char* structure, std::int64_t n) {
  const std::string name = std::string("BM_") + op_name + "/" + structure;
  benchmark::RegisterBenchmark(name.c_str(), &bm<Q, Op>)->Arg(n);  // reported as <name>/<n>
}

template <op Op>
void register_op(const char* op_name) {
  // All structures of one (op, N) cell back to back: host drift hits them alike.
  for (std::int64_t n : {8, 64, 1024, 16384, 262144}) {
    register_one<sc_prio_array, Op>(op_name, "schedcore_prio_array", n);
    if constexpr (Op == op::churn_rr) {
      register_one<baseline_bitmap, Op>(op_name, "baseline_bitmap140_rr", n);
    } else {
      register_one<sc_stair_array, Op>(op_name, "schedcore_stair_array", n);
      register_one<baseline_bitmap, Op>(op_name, "baseline_bitmap", n);
      register_one<sc_prio_array4096, Op>(op_name, "schedcore_prio_array4096", n);
      register_one<baseline_bitmap4096, Op>(op_name, "baseline_bitmap4096_2lvl", n);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_op<op::pick>("pick");
  register_op<op::churn>("churn");
  register_op<op::wake>("wake");
  register_op<op::churn_rr>("churn_rr");
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
