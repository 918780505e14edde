// The portable scheduler part (see sched.hpp): the one instantiation of the schedcore policy.
// Compiled as its own object so that the ports can measure its code size alone
// (`arm-none-eabi-size sched.o`); every member is a plain forward to a policy hook. The optional
// hooks go through policy_traits, so a policy without them costs nothing (task_new, task_dead,
// prio_changed, yield: the contract's documented defaults).
#include "sched.hpp"

namespace port {

bool run_queue::init() noexcept {
#if PORT_SCHED_FAIR == 3
  policy_type::knobs k{};
  k.quantum = mlfq_quantum;
  return policy_.configure(k) == errc::ok;
#elif PORT_SCHED_FAIR == 2
  policy_type::knobs k{};
  k.quantum = stride_quantum;
  return policy_.configure(k) == errc::ok;
#elif PORT_SCHED_FAIR
  policy_type::knobs k{};
  k.base_slice = fair_base_slice;
  k.hz = 1000;  // the ports tick at 1 kHz (the lag clamp is at least one tick)
  return policy_.configure(k) == errc::ok;
#else
  policy_type::knobs k{};
  k.timeslice = rr_slice;
  k.runtime = -1;  // no RT throttling: nothing below this class would use the time
  return policy_.configure(k) == errc::ok;
#endif
}

errc run_queue::setup(sched_entity& se, const sched_params& p) noexcept { return policy_.setup(se, p); }

void run_queue::enqueue(sched_entity& se, sched_time now, bool wakeup) noexcept {
  // A new task: the fork hook, once before its first enqueue (the demo's tasks have no parent).
  if (!wakeup) schedcore::policy_traits<policy_type>::task_new(policy_, se, nullptr, now);
  policy_.enqueue(se, now, wakeup ? schedcore::enqueue_flags::wakeup : schedcore::enqueue_flags::initial);
}

void run_queue::dequeue(sched_entity& se, sched_time now, schedcore::dequeue_flags flags) noexcept {
  policy_.dequeue(se, now, flags);
  if (schedcore::has(flags, schedcore::dequeue_flags::dead))
    schedcore::policy_traits<policy_type>::task_dead(policy_, se, now);
}

sched_entity* run_queue::schedule(sched_entity* prev, bool prev_runnable, sched_time now) noexcept {
  if (prev != nullptr && prev_runnable) policy_.put_prev(*prev, now);
  sched_entity* const next = policy_.pick_next(now);
  if (next != nullptr) policy_.set_next(*next, now);
  return next;
}

bool run_queue::tick(sched_entity& curr, sched_time now) noexcept { return policy_.tick(curr, now); }

bool run_queue::wakeup_preempt(sched_entity& woken, sched_entity& curr, sched_time now) noexcept {
  return policy_.wakeup_preempt(woken, curr, now);
}

errc run_queue::change(sched_entity& se, const sched_params& p, bool running, sched_time now) noexcept {
  if (running) policy_.put_prev(se, now);
  policy_.dequeue(se, now, schedcore::dequeue_flags::save);
  const errc e = policy_.setup(se, p);
  policy_.enqueue(se, now, schedcore::enqueue_flags::restore);
  if (running) policy_.set_next(se, now);
  if (e == errc::ok) schedcore::policy_traits<policy_type>::prio_changed(policy_, se, now);
  return e;
}

// Through policy_traits: a policy without a yield hook gets the contract's default (nothing;
// the next pick may choose curr again).
void run_queue::yield(sched_entity& curr, sched_time now) noexcept {
  schedcore::policy_traits<policy_type>::yield(policy_, curr, now);
}

}  // namespace port
