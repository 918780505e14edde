// quickstart: the README's taste grown into a run. One CPU's run queue with real time above EEVDF;
// three tasks (an RR task and two EEVDF tasks at nice -5 and 0) driven by a 1 ms tick for 60 ms
// of a clock that starts just below 2^64. Prints who ran each millisecond and the shares.
// Demonstrates: entities embedded in the task, setup() validation, the class_stack pick loop,
// wrap-safe time. Behaves badly: nothing here models sleeping; see schedsim for that.
#include <cstdio>

#include <schedcore/schedcore.hpp>

using namespace schedcore;

struct task : rt_entity, eevdf_entity {
  int sched_class = 1;  // 0 = rt, 1 = eevdf (index into the class_stack below)
  char name = '?';
};

int main() {
  static class_stack<member_sched_class, rt_policy<task>, eevdf_policy<task>> rq;
  task a, b, r;
  a.name = 'a';
  b.name = 'b';
  r.name = 'R';
  r.sched_class = 0;
  if (rq.get<1>().setup(a, sched_params{sched_kind::normal, -5}) != errc::ok ||
      rq.get<1>().setup(b, sched_params{sched_kind::normal, 0}) != errc::ok ||
      rq.get<0>().setup(r, sched_params{sched_kind::rr, 0, 10}) != errc::ok)
    return 1;
  if (rq.get<1>().setup(a, sched_params{sched_kind::normal, 25}) != errc::invalid_argument) return 1;

  const sched_time start{~0ull - msec(30)};  // wraps half way through the run
  rq.enqueue(a, start, enqueue_flags::wakeup);
  rq.enqueue(b, start, enqueue_flags::wakeup);
  task* curr = rq.schedule(nullptr, false, start);
  int ran_a = 0, ran_b = 0, ran_r = 0;
  std::printf("ms  ");
  for (int ms = 1; ms <= 60; ++ms) {
    const sched_time now = start + msec(ms);
    (curr == &a ? ran_a : curr == &b ? ran_b : ran_r) += 1;
    std::putchar(curr ? curr->name : '.');
    if (ms == 40) {  // an RR task wakes and preempts (a more important class always does)
      rq.enqueue(r, now, enqueue_flags::wakeup);
      if (rq.wakeup_preempt(r, *curr, now)) curr = rq.schedule(curr, true, now);
      continue;
    }
    // The tick, then the class timers (next_timer()/timer()): RT bandwidth throttling (950 ms per
    // second by default) and SCHED_DEADLINE replenishment end only there, so a port that ticks
    // without them would starve its RT tasks after the first second.
    bool resched = rq.tick(*curr, now);
    if (rq.timer(now)) resched = true;
    if (resched) curr = rq.schedule(curr, true, now);
  }
  std::printf("\nnice -5: %d ms, nice 0: %d ms, rr: %d ms (weights 3121:1024 before the rr task)\n", ran_a,
              ran_b, ran_r);
  // What the line above should say: 40 ms at weights 3121:1024 (30.1 and 9.9 ms, in whole
  // ticks 30 and 10), then the RR task alone for the last 20.
  if (ran_a != 30 || ran_b != 10 || ran_r != 20) return 1;
  return rq.verify() ? 0 : 1;
}
