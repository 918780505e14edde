// The O(1) guard's driver: K measured rounds of pick + dequeue + enqueue on one structure at
// one run-queue length N, run under `valgrind --tool=callgrind --toggle-collect=<rounds fn>`
// by o1_guard.sh, which compares the instruction counts at N=16 and N=65536. Deterministic:
// fixed seeds, no clock; setup (N inserts) runs outside the collected function.
//
//   o1_guard STRUCTURE N     STRUCTURE: prio_array | stair_array | linear_list (negative control)
//
// Workload (identical at every N, so that only N differs): 8 probe tasks cycle through 8
// reserved priorities; the other N - 8 background tasks fill the remaining priorities round
// robin, starting at the most urgent one. Each round peeks at the most urgent task, dequeues
// probe r % 8 and enqueues it at reserved priority (3r + 1) % 8. The touched lists have the
// same occupancy history at every N, so an O(1) structure executes the same instructions; a
// structure whose cost grows with N (a tree, a scan) does not. linear_list is such a structure
// (pick = scan of an unsorted list), kept as the guard's proof that it can fail.
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
constexpr unsigned kRounds = 20000;
constexpr unsigned kReservedBase = 10;  // reserved priorities kReservedBase .. +7

// Background priority for the i-th background task, skipping the reserved band.
unsigned background_prio(unsigned i, unsigned nr_prios) {
  const unsigned span = nr_prios - kProbes;
  unsigned p = i % span;
  return p < kReservedBase ? p : p + kProbes;
}

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

volatile unsigned long long g_sink;

template <class Q>
__attribute__((always_inline)) inline void rounds(Q& q, task* probes, unsigned nr_rounds = kRounds) {
  unsigned long long acc = 0;
  for (unsigned r = 0; r < nr_rounds; ++r) {
    task* best = q.pick();
    acc += reinterpret_cast<unsigned long long>(best);
    task& t = probes[r % kProbes];
    q.dequeue(t);
    const unsigned p = kReservedBase + (3 * r + 1) % kProbes;
    t.prio = p;
    q.enqueue(t, p);
  }
  g_sink = acc;
}

using rt_array = schedcore::prio_array<task, 140>;
using sd_array = schedcore::stair_array<task, 40>;

}  // namespace

// The collected functions: callgrind counts only what runs inside them.
extern "C" __attribute__((noinline)) void o1_guard_rounds_prio_array(rt_array* q, task* probes) {
  rounds(*q, probes);
}
extern "C" __attribute__((noinline)) void o1_guard_rounds_stair_array(sd_array* q, task* probes) {
  rounds(*q, probes);
}
extern "C" __attribute__((noinline)) void o1_guard_rounds_linear_list(linear_list* q, task* probes) {
  rounds(*q, probes, 50);  // O(n) per round: few rounds keep valgrind quick
}

namespace {

template <class Q, class F>
int run(unsigned n, unsigned nr_prios, F measured) {
  static Q q;  // constant-initialised
  std::vector<task> tasks(n);
  for (unsigned i = 0; i < kProbes; ++i) q.enqueue(tasks[i], kReservedBase + i);
  for (unsigned i = kProbes; i < n; ++i) q.enqueue(tasks[i], background_prio(i - kProbes, nr_prios));
  measured(&q, tasks.data());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s prio_array|stair_array|linear_list N\n", argv[0]);
    return 2;
  }
  const unsigned n = static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10));
  if (n < kProbes + 1) return 2;
  if (std::strcmp(argv[1], "prio_array") == 0) return run<rt_array>(n, 140, o1_guard_rounds_prio_array);
  if (std::strcmp(argv[1], "stair_array") == 0) return run<sd_array>(n, 40, o1_guard_rounds_stair_array);
  if (std::strcmp(argv[1], "linear_list") == 0) return run<linear_list>(n, 140, o1_guard_rounds_linear_list);
  return 2;
}
