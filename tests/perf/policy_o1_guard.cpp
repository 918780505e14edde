// The policies' O(1) guard driver: K measured rounds of the scheduling cycle of one policy at
// one run-queue length N, run by policy_o1_guard.sh under
// `valgrind --tool=callgrind --toggle-collect=policy_o1_guard_rounds_<policy>`, which compares
// the instruction counts of the same K rounds at two N. Deterministic: no clock, no random
// numbers; setup (N enqueues) runs outside the collected function.
//
//   policy_o1_guard POLICY N       POLICY: rr | o1 | sd | goodness24
//
// One round (the steady-state tick-driven switch, plus two wakeups):
//   now += tick; tick(curr); put_prev(curr); curr = pick_next(); set_next(curr);
//   dequeue(sleep) the next queued probe; enqueue(wakeup) the probe that slept since the last
//   round; wakeup_preempt(woken, curr);
//   dequeue(sleep) the churned background task; enqueue(wakeup) it; wakeup_preempt(it, curr).
//
// Workload, identical at every N so that only N differs: 8 *probe* tasks are more urgent than
// the N - 8 *background* tasks, so only probes ever run within the K rounds and the touched
// lists have the same history at every N; an O(1) policy then executes the same instructions,
// a policy whose cost grows with N (goodness24's scan) does not. The driver counts background
// picks inside the rounds and fails (exit 3) if any happened, since the histories would then
// differ for a reason other than N.
// The probes' wakeups only join levels that hold nothing but probes, so they alone would not
// see an enqueue or dequeue whose cost grows with the length of its level. The *churned* task
// is the first background task (tasks[8]); the second (tasks[9]) is its *anchor*, at the same
// level, never moved: the churned task's level holds the anchor (and more background tasks as N
// grows) at every N, so it never empties and the bitmap updates and branch outcomes are the
// same at N = 16 and N = 65536, while its length (the cost of a walk along it) grows with N.
// The driver checks after the rounds that the churned task is queued at its anchor's level
// (exit 3 if not) and prints that level.
//   rr          SCHED_RR, timeslice 2 ms, throttling off, tick 1 ms; probes rt_priority 99,
//               background rt_priority 1, 1, 2, 3, .., 98, 1, 2, .. (the churned task and its
//               anchor at 1, then round robin over 1..98).
//   o1          HZ=1000, STARVATION_LIMIT 0 (off); probes nice 0 with a full sleep_avg
//               (interactive: at slice end they are requeued in the active array, as
//               TASK_INTERACTIVE tasks are while nothing starves), background nice 19 hogs,
//               also with a full sleep_avg: prio 134 (bonus +5; never interactive at nice 19).
//               A wakeup credits the 1 ms since the churned task's last enqueue, which the
//               MAX_SLEEP_AVG cap absorbs, so it wakes at 134, into the active array's level
//               every background task holds (from an empty sleep_avg the credits would raise
//               its priority, over the rounds, to levels that no other task holds). Printed
//               levels are 1000 * array + prio.
//   sd          rr_interval 1 ms, tick 1 ms; probes nice -20 (slots at all 40 levels, 10 ms
//               each: 3.2 s of entitlement for 8 probes, more than the K = 2500 ticks),
//               background nice 19 (slot 39 only, which the probes do not reach within K);
//               the woken churned task keeps its rotation and slot 39, the level all the
//               background tasks hold.
//   goodness24  HZ=100; probes SCHED_RR rt_priority 50 (goodness 1050), background
//               SCHED_OTHER nice 0 (one run queue: "level" 0). Its pick is the O(n) goodness()
//               scan of the run queue: the guard's positive control (it must grow with N).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "schedcore/policy/goodness24.hpp"
#include "schedcore/policy/o1.hpp"
#include "schedcore/policy/rt.hpp"
#include "schedcore/policy/sd.hpp"

#if defined(__clang__)
#define POLICY_GUARD_MEASURED extern "C" __attribute__((noinline, used))
#else
#define POLICY_GUARD_MEASURED extern "C" __attribute__((noipa, used))
#endif

namespace {

namespace sc = schedcore;

constexpr unsigned kProbes = 8;
constexpr unsigned kChurned = kProbes;     // tasks[kChurned]: the background task that sleeps and wakes
constexpr unsigned kAnchor = kProbes + 1;  // tasks[kAnchor]: at the churned task's level, never moved

template <class Entity>
struct task : Entity {
  bool probe = false;
};

void must(sc::errc e, const char* what) {
  if (e != sc::errc::ok) {
    std::fprintf(stderr, "policy_o1_guard: setup refused: %s\n", what);
    std::exit(2);
  }
}

sc::sched_params params(sc::sched_kind kind, int nice, int rt_priority) {
  sc::sched_params p;
  p.kind = kind;
  p.nice = static_cast<sc::s8>(nice);
  p.rt_priority = static_cast<sc::u8>(rt_priority);
  return p;
}

struct rr_spec {
  using task_type = task<sc::rt_entity>;
  using policy = sc::rt_policy<task_type>;
  static constexpr unsigned rounds = 20000;
  static constexpr sc::duration_ns tick = sc::msec(1);
  static void configure(policy& p) {
    policy::knobs k;
    k.timeslice = sc::msec(2);
    k.runtime = -1;
    must(p.configure(k), "rr knobs");
  }
  static void probe(policy& p, task_type& t) { must(p.setup(t, params(sc::sched_kind::rr, 0, 99)), "rr probe"); }
  // i = 0 (churned) and 1 (anchor) at rt_priority 1, then 1..98 round robin from i = 2 on.
  static void background(policy& p, task_type& t, unsigned i) {
    const unsigned prio = i == 0 ? 1 : 1 + (i - 1) % 98;
    must(p.setup(t, params(sc::sched_kind::rr, 0, static_cast<int>(prio))), "rr background");
  }
  static unsigned level(const policy&, const task_type& t) { return t.prio; }  // kernel prio
};

struct o1_spec {
  using task_type = task<sc::o1_entity>;
  using policy = sc::o1_policy<task_type>;
  static constexpr unsigned rounds = 20000;
  static constexpr sc::duration_ns tick = sc::msec(1);
  static void configure(policy& p) {
    policy::knobs k;
    k.hz = 1000;
    k.starvation_limit = 0;
    must(p.configure(k), "o1 knobs");
  }
  static void probe(policy& p, task_type& t) {
    t.sleep_avg = sc::sec(1);  // MAX_SLEEP_AVG at HZ=1000: CURRENT_BONUS 10, interactive
    must(p.setup(t, params(sc::sched_kind::normal, 0, 0)), "o1 probe");
  }
  static void background(policy& p, task_type& t, unsigned) {
    t.sleep_avg = sc::sec(1);  // full: prio 134, which a wakeup's capped credit keeps
    must(p.setup(t, params(sc::sched_kind::normal, 19, 0)), "o1 background");
  }
  static unsigned level(const policy&, const task_type& t) { return 1000u * t.array + t.prio; }  // array, prio
};

struct sd_spec {
  using task_type = task<sc::sd_entity>;
  using policy = sc::sd_policy<task_type>;
  static constexpr unsigned rounds = 2500;
  static constexpr sc::duration_ns tick = sc::msec(1);
  static void configure(policy& p) {
    policy::knobs k;
    k.rr_interval = sc::msec(1);
    must(p.configure(k), "sd knobs");
  }
  static void probe(policy& p, task_type& t) { must(p.setup(t, params(sc::sched_kind::normal, -20, 0)), "sd probe"); }
  static void background(policy& p, task_type& t, unsigned) {
    must(p.setup(t, params(sc::sched_kind::normal, 19, 0)), "sd background");
  }
  static unsigned level(const policy& p, const task_type& t) { return p.level_of(t); }
};

struct goodness24_spec {
  using task_type = task<sc::goodness24_entity>;
  using policy = sc::goodness24_policy<task_type>;
  static constexpr unsigned rounds = 1000;
  static constexpr sc::duration_ns tick = sc::msec(10);
  static void configure(policy& p) {
    policy::knobs k;
    k.hz = 100;
    must(p.configure(k), "goodness24 knobs");
  }
  static void probe(policy& p, task_type& t) {
    must(p.setup(t, params(sc::sched_kind::rr, 0, 50)), "goodness24 probe");
  }
  static void background(policy& p, task_type& t, unsigned) {
    must(p.setup(t, params(sc::sched_kind::normal, 0, 0)), "goodness24 background");
  }
  static unsigned level(const policy&, const task_type&) { return 0; }  // one run queue
};

// Everything the measured rounds touch.
template <class Spec>
struct state {
  using task_type = typename Spec::task_type;
  typename Spec::policy p;
  task_type* probes = nullptr;
  task_type* curr = nullptr;
  task_type* sleeper = nullptr;
  task_type* churned = nullptr;
  sc::sched_time now{sc::sec(1)};
  unsigned next_victim = 0;
  unsigned long background_picks = 0;
  unsigned long switches = 0;
  unsigned long sink = 0;
};

template <class Spec>
__attribute__((always_inline)) inline void rounds(state<Spec>& s) {
  using task_type = typename Spec::task_type;
  for (unsigned r = 0; r < Spec::rounds; ++r) {
    s.now += Spec::tick;
    s.sink += s.p.tick(*s.curr, s.now) ? 1u : 0u;
    s.p.put_prev(*s.curr, s.now);
    task_type* next = s.p.pick_next(s.now);
    if (next == nullptr) __builtin_trap();
    if (!next->probe) ++s.background_picks;
    if (next != s.curr) ++s.switches;
    s.curr = next;
    s.p.set_next(*s.curr, s.now);
    // The wakeup pair: the next queued probe (not curr) sleeps, the previous sleeper wakes.
    task_type* victim;
    do {
      victim = &s.probes[s.next_victim];
      s.next_victim = (s.next_victim + 1) % kProbes;
    } while (victim == s.curr || victim == s.sleeper);
    s.p.dequeue(*victim, s.now, sc::dequeue_flags::sleep);
    s.p.enqueue(*s.sleeper, s.now, sc::enqueue_flags::wakeup);
    s.sink += s.p.wakeup_preempt(*s.sleeper, *s.curr, s.now) ? 1u : 0u;
    s.sleeper = victim;
    // The background pair: the churned task sleeps and wakes at a level it shares with its
    // anchor (and, as N grows, with more background tasks); never curr (it never runs).
    s.p.dequeue(*s.churned, s.now, sc::dequeue_flags::sleep);
    s.p.enqueue(*s.churned, s.now, sc::enqueue_flags::wakeup);
    s.sink += s.p.wakeup_preempt(*s.churned, *s.curr, s.now) ? 1u : 0u;
  }
}

}  // namespace

// The collected functions: callgrind counts only what runs inside them.
POLICY_GUARD_MEASURED void policy_o1_guard_rounds_rr(state<rr_spec>* s) { rounds(*s); }
POLICY_GUARD_MEASURED void policy_o1_guard_rounds_o1(state<o1_spec>* s) { rounds(*s); }
POLICY_GUARD_MEASURED void policy_o1_guard_rounds_sd(state<sd_spec>* s) { rounds(*s); }
POLICY_GUARD_MEASURED void policy_o1_guard_rounds_goodness24(state<goodness24_spec>* s) { rounds(*s); }

namespace {

template <class Spec>
int run(const char* name, unsigned n, void (*measured)(state<Spec>*)) {
  using task_type = typename Spec::task_type;
  static state<Spec> s;
  std::vector<task_type> tasks(n);
  Spec::configure(s.p);
  for (unsigned i = 0; i < n; ++i) {
    if (i < kProbes) {
      tasks[i].probe = true;
      Spec::probe(s.p, tasks[i]);
    } else {
      Spec::background(s.p, tasks[i], i - kProbes);
    }
  }
  // All tasks but the last probe are runnable; that probe starts asleep (the wakeup pair's).
  for (unsigned i = 0; i < n; ++i)
    if (i != kProbes - 1) s.p.enqueue(tasks[i], s.now, sc::enqueue_flags::none);
  s.probes = tasks.data();
  s.sleeper = &tasks[kProbes - 1];
  s.churned = &tasks[kChurned];
  s.curr = s.p.pick_next(s.now);
  if (s.curr == nullptr || !s.curr->probe) {
    std::fprintf(stderr, "policy_o1_guard: %s N=%u: the first pick is not a probe\n", name, n);
    return 3;
  }
  s.p.set_next(*s.curr, s.now);
  measured(&s);
  const bool ok = s.p.verify();
  const unsigned churned_level = Spec::level(s.p, tasks[kChurned]);
  const unsigned anchor_level = Spec::level(s.p, tasks[kAnchor]);
  std::printf("%s N=%u rounds=%u switches=%lu background_picks=%lu churned_level=%u anchor_level=%u verify=%s\n",
              name, n, Spec::rounds, s.switches, s.background_picks, churned_level, anchor_level,
              ok ? "ok" : "FAILED");
  if (!ok) return 3;
  if (churned_level != anchor_level) {
    std::fprintf(stderr, "policy_o1_guard: %s N=%u: the churned task left its anchor's level\n", name, n);
    return 3;
  }
  if (s.background_picks != 0) {
    std::fprintf(stderr, "policy_o1_guard: %s N=%u: a background task ran; the workload is not the same at every N\n",
                 name, n);
    return 3;
  }
  if (s.switches == 0) {
    std::fprintf(stderr, "policy_o1_guard: %s N=%u: the policy never switched tasks\n", name, n);
    return 3;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s rr|o1|sd|goodness24 N\n", argv[0]);
    return 2;
  }
  const unsigned n = static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10));
  if (n < kAnchor + 1) return 2;
  const char* p = argv[1];
  if (std::strcmp(p, "rr") == 0) return run<rr_spec>(p, n, policy_o1_guard_rounds_rr);
  if (std::strcmp(p, "o1") == 0) return run<o1_spec>(p, n, policy_o1_guard_rounds_o1);
  if (std::strcmp(p, "sd") == 0) return run<sd_spec>(p, n, policy_o1_guard_rounds_sd);
  if (std::strcmp(p, "goodness24") == 0) return run<goodness24_spec>(p, n, policy_o1_guard_rounds_goodness24);
  std::fprintf(stderr, "policy_o1_guard: unknown policy %s\n", p);
  return 2;
}
