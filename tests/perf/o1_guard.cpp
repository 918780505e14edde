// The O(1) guard's driver: K measured rounds of pick + two dequeue/enqueue pairs on one
// structure at one run-queue length N, run under `valgrind --tool=callgrind --toggle-collect=<rounds fn>`
// by o1_guard.sh, which compares the instruction counts at N=16 and N=65536. Deterministic:
// fixed seeds, no clock; setup (N inserts) runs outside the collected function.
//
//   o1_guard STRUCTURE N     STRUCTURE: prio_array | stair_array (the guarded structures)
//                                       | linear_list | enqueue_walk (negative controls)
//
// Workload (identical at every N, so that only N differs; N >= 11, the guard uses 16 and 65536):
// - 8 probe tasks cycle through 8 reserved priorities (10..17) that nothing else uses;
// - 1 churned task and 1 anchor task sit at the least urgent priority (139 of 140, 39 of 40);
// - the other N - 10 background tasks fill the unreserved priorities round robin, starting at
//   the most urgent one: at N = 16 the 6 of them hold priorities 0..5, at N = 65536 every
//   unreserved priority holds ~496 (140 levels, 132 unreserved) or ~2048 (40 levels, 32
//   unreserved), the churned task's included.
// Each round peeks at the most urgent task (the head of priority 0), dequeues probe r % 8 and
// enqueues it at reserved priority 10 + (3r + 1) % 8, then dequeues the churned task and
// enqueues it again at the tail of its priority. The probes only join lists that hold nothing
// but probes, so they alone would not see an enqueue or dequeue whose cost grows with the
// length of its list; the churned task's list grows with N, while the anchor keeps it non-empty
// at every N, so bitmap updates and branch outcomes are the same at N = 16 and N = 65536. An
// O(1) structure therefore executes the same instructions at every N; a structure whose cost
// grows with N (a tree, a scan, a list walk) does not. The negative controls are such
// structures, kept as the guard's proof that it can fail: linear_list's pick scans an unsorted
// list; enqueue_walk is prio_array with an enqueue that first walks its target list.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "schedcore/intrusive/list.hpp"
#include "schedcore/queue/prio_array.hpp"
#include "schedcore/queue/stair_array.hpp"

namespace {

struct task : schedcore::list_hook<> {
  unsigned prio = 0;
};

constexpr unsigned kProbes = 8;
constexpr unsigned kChurned = kProbes;       // tasks[kChurned]: dequeued and enqueued every round
constexpr unsigned kAnchor = kProbes + 1;    // tasks[kAnchor]: never moves; keeps that list non-empty
constexpr unsigned kFirstBackground = kProbes + 2;
constexpr unsigned kMinTasks = kFirstBackground + 1;  // one background task at priority 0, the
                                                     // head every pick returns
constexpr unsigned kRounds = 20000;
constexpr unsigned kReservedBase = 10;  // reserved priorities kReservedBase .. +7

// Background priority for the i-th background task, skipping the reserved band.
unsigned background_prio(unsigned i, unsigned nr_prios) {
  const unsigned span = nr_prios - kProbes;
  unsigned p = i % span;
  return p < kReservedBase ? p : p + kProbes;
}
// The churned task's and the anchor's priority: the least urgent one, a background priority
// that only gets background tasks once N - 10 exceeds the other unreserved priorities (so at
// N = 16 it holds the anchor and the churned task only, at N = 65536 ~496 or ~2048 more).
unsigned churn_prio(unsigned nr_prios) { return nr_prios - 1; }

struct linear_list {
  schedcore::list<task> l;
  void enqueue(task& t, unsigned p) { t.prio = p; l.push_back(t); }
  void dequeue(task& t) { l.erase(t); }
  task* pick() {
    task* best = nullptr;
    for (task& t : l)
      if (best == nullptr || t.prio < best->prio) best = &t;
    return best;
  }
};

using rt_array = schedcore::prio_array<task, 140>;
using sd_array = schedcore::stair_array<task, 40>;

// Negative control for enqueue: prio_array whose enqueue first walks the list it joins (a
// test-only wrapper, O(length of that list)).
struct enqueue_walk {
  rt_array q;
  void enqueue(task& t, unsigned p) {
    unsigned long c = 0;
    for (task* x = q.first_at(p); x != nullptr; x = q.next_at_same_prio(*x)) ++c;
    __asm__ volatile("" ::"r"(c));
    q.enqueue(t, p);
  }
  void dequeue(task& t) { q.dequeue(t); }
  task* pick() { return q.pick(); }
};

volatile unsigned long long g_sink;

// `tasks` is the run's task array: tasks[0..7] are the probes, tasks[kChurned] the churned task.
template <class Q>
__attribute__((always_inline)) inline void rounds(Q& q, task* tasks, unsigned nr_prios,
                                                  unsigned nr_rounds = kRounds) {
  unsigned long long acc = 0;
  task& churned = tasks[kChurned];
  const unsigned cp = churn_prio(nr_prios);
  for (unsigned r = 0; r < nr_rounds; ++r) {
    task* best = q.pick();
    acc += reinterpret_cast<unsigned long long>(best);
    task& t = tasks[r % kProbes];
    q.dequeue(t);
    const unsigned p = kReservedBase + (3 * r + 1) % kProbes;
    t.prio = p;
    q.enqueue(t, p);
    q.dequeue(churned);  // never the last task of its list: the anchor stays
    q.enqueue(churned, cp);
  }
  g_sink = acc;
}

}  // namespace

// The collected functions: callgrind counts only what runs inside them.
extern "C" __attribute__((noinline)) void o1_guard_rounds_prio_array(rt_array* q, task* tasks) {
  rounds(*q, tasks, 140);
}
extern "C" __attribute__((noinline)) void o1_guard_rounds_stair_array(sd_array* q, task* tasks) {
  rounds(*q, tasks, 40);
}
extern "C" __attribute__((noinline)) void o1_guard_rounds_linear_list(linear_list* q, task* tasks) {
  rounds(*q, tasks, 140, 50);  // O(n) per round: few rounds keep valgrind quick
}
extern "C" __attribute__((noinline)) void o1_guard_rounds_enqueue_walk(enqueue_walk* q, task* tasks) {
  rounds(*q, tasks, 140);
}

namespace {

template <class Q, class F>
int run(unsigned n, unsigned nr_prios, F measured) {
  static Q q;  // constant-initialised
  std::vector<task> tasks(n);
  for (unsigned i = 0; i < kProbes; ++i) q.enqueue(tasks[i], kReservedBase + i);
  q.enqueue(tasks[kChurned], churn_prio(nr_prios));
  q.enqueue(tasks[kAnchor], churn_prio(nr_prios));
  for (unsigned i = kFirstBackground; i < n; ++i)
    q.enqueue(tasks[i], background_prio(i - kFirstBackground, nr_prios));
  measured(&q, tasks.data());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s prio_array|stair_array|linear_list|enqueue_walk N (N >= %u)\n", argv[0],
                 kMinTasks);
    return 2;
  }
  const unsigned n = static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10));
  if (n < kMinTasks) return 2;
  if (std::strcmp(argv[1], "prio_array") == 0) return run<rt_array>(n, 140, o1_guard_rounds_prio_array);
  if (std::strcmp(argv[1], "stair_array") == 0) return run<sd_array>(n, 40, o1_guard_rounds_stair_array);
  if (std::strcmp(argv[1], "linear_list") == 0) return run<linear_list>(n, 140, o1_guard_rounds_linear_list);
  if (std::strcmp(argv[1], "enqueue_walk") == 0) return run<enqueue_walk>(n, 140, o1_guard_rounds_enqueue_walk);
  return 2;
}
