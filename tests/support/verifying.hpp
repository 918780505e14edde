// A policy wrapper for driven tests: runs the policy's verify() after every hook the tick
// driver calls (enqueue, dequeue, wakeup_preempt, tick, timer, schedule) and counts the
// failures, so a test can assert `failures == 0` over a whole run.
#ifndef SCHEDCORE_TESTS_VERIFYING_HPP
#define SCHEDCORE_TESTS_VERIFYING_HPP

#include "tick_driver.hpp"

namespace schedcore_test {

template <class P>
struct verifying : single_class<P> {
  using task_type = typename P::task_type;
  int failures = 0;
  void check() {
    if (!this->verify()) ++failures;
  }
  void enqueue(task_type& t, sched_time now, enqueue_flags f) noexcept {
    P::enqueue(t, now, f);
    check();
  }
  void dequeue(task_type& t, sched_time now, dequeue_flags f) noexcept {
    P::dequeue(t, now, f);
    check();
  }
  bool tick(task_type& t, sched_time now) noexcept {
    const bool r = P::tick(t, now);
    check();
    return r;
  }
  bool wakeup_preempt(task_type& woken, task_type& curr, sched_time now) noexcept {
    const bool r = P::wakeup_preempt(woken, curr, now);
    check();
    return r;
  }
  bool timer(sched_time now) noexcept {
    const bool r = single_class<P>::timer(now);
    check();
    return r;
  }
  task_type* schedule(task_type* prev, bool runnable, sched_time now) noexcept {
    task_type* n = single_class<P>::schedule(prev, runnable, now);
    check();
    return n;
  }
};

}  // namespace schedcore_test

#endif
