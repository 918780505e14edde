// The link test's view of the custom-policy examples (examples/custom-policy): a policy written
// outside the library must keep the freestanding promise where it counts, in the instantiated
// code. check_header.sh only parses the headers (an uninstantiated template body is never
// compiled for real); this file instantiates stride_policy and mlfq_policy under rt_policy in a
// class_stack and drives every hook, so check_link.sh sees their object code on each target:
// no undefined symbol outside libgcc's integer helpers, no soft-float call, no static
// constructor. Entry point: schedcore_freestanding_entry (no main, no C runtime).
#include "../examples/custom-policy/mlfq.hpp"
#include "../examples/custom-policy/stride.hpp"
#include "schedcore/policy/class_stack.hpp"
#include "schedcore/policy/rt.hpp"

namespace {

using namespace schedcore;

volatile u64 sink;
volatile u64 source = 0x15a76ad270bd7233ull;

// A port's scheduler loop over one CPU: three tasks in the custom class, one RR task above it,
// sleeps and wakeups, a renice, class timers; returns a digest of the decisions.
template <class Entity, template <class...> class Policy>
u64 drive() noexcept {
  struct link_task : rt_entity, Entity {
    int sched_class = 1;
  };
  static link_task tasks[4];
  static class_stack<member_sched_class, rt_policy<link_task>, Policy<link_task>> rq;
  const sched_time t0{source};
  for (unsigned i = 0; i < 3; ++i) {
    (void)rq.template get<1>().setup(tasks[i], sched_params{sched_kind::normal, static_cast<s8>(i * 5), 0, 0, 0, 0});
    rq.enqueue(tasks[i], t0, enqueue_flags::initial);
  }
  tasks[3].sched_class = 0;
  (void)rq.template get<0>().setup(tasks[3], sched_params{sched_kind::rr, 0, 10, 0, 0, 0});
  u64 acc = 0;
  link_task* curr = rq.schedule(nullptr, false, t0);
  for (unsigned tick = 1; tick <= 400; ++tick) {
    const sched_time now = t0 + msec(tick);
    if (curr != nullptr && rq.tick(*curr, now)) curr = rq.schedule(curr, true, now);
    sched_time when{};
    if (rq.next_timer(when) && when <= now && rq.timer(now)) curr = rq.schedule(curr, true, now);
    if (tick % 37 == 0 && curr != nullptr) {  // the running task sleeps and is woken at once
      link_task* const sleeper = curr;
      rq.dequeue(*sleeper, now, dequeue_flags::sleep);
      curr = rq.schedule(nullptr, false, now);
      rq.enqueue(*sleeper, now, enqueue_flags::wakeup);
      if (curr == nullptr) {
        curr = rq.schedule(nullptr, false, now);
      } else if (rq.wakeup_preempt(*sleeper, *curr, now)) {
        curr = rq.schedule(curr, true, now);
      }
    }
    if (tick % 101 == 0 && curr != &tasks[1]) {  // renice a queued task
      rq.dequeue(tasks[1], now, dequeue_flags::save);
      (void)rq.template get<1>().setup(tasks[1], sched_params{sched_kind::normal, static_cast<s8>(tick % 7), 0, 0, 0, 0});
      rq.enqueue(tasks[1], now, enqueue_flags::restore);
      rq.prio_changed(tasks[1], now);
    }
    if (tick == 200) rq.enqueue(tasks[3], now, enqueue_flags::wakeup);
    if (tick == 260 && static_cast<rt_entity&>(tasks[3]).on_rq) {
      rq.dequeue(tasks[3], now, dequeue_flags::sleep);
      if (curr == &tasks[3]) curr = rq.schedule(nullptr, false, now);
    }
    if (curr != nullptr && tick % 13 == 0) {
      rq.yield(*curr, now);
      curr = rq.schedule(curr, true, now);
    }
    acc = acc * 31u + (curr != nullptr ? static_cast<u64>(curr - tasks) : 7u);
  }
  return acc + (rq.verify() ? 1u : 0u) + rq.nr_runnable();
}

template <class Task>
using mlfq4 = mlfq_example::mlfq_policy<Task>;
template <class Task>
using stride = stride_example::stride_policy<Task>;

}  // namespace

extern "C" int schedcore_freestanding_entry() noexcept {
  sink = drive<stride_example::stride_entity, stride>();
  sink = drive<mlfq_example::mlfq_entity, mlfq4>();
  return 0;
}
