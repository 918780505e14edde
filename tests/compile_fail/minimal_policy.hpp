// The smallest complete policy (every required hook, correct signatures), shared by the
// must-fail tests that add one malformed optional hook to it and by the positive control.
#ifndef SCHEDCORE_TESTS_COMPILE_FAIL_MINIMAL_POLICY_HPP
#define SCHEDCORE_TESTS_COMPILE_FAIL_MINIMAL_POLICY_HPP

#include "schedcore/policy/class_stack.hpp"

namespace minimal {
struct task { int sched_class = 0; };
struct policy {
  using task_type = task;
  void enqueue(task&, schedcore::sched_time, schedcore::enqueue_flags) noexcept {}
  void dequeue(task&, schedcore::sched_time, schedcore::dequeue_flags) noexcept {}
  task* pick_next(schedcore::sched_time) noexcept { return nullptr; }
  void set_next(task&, schedcore::sched_time) noexcept {}
  void put_prev(task&, schedcore::sched_time) noexcept {}
  bool tick(task&, schedcore::sched_time) noexcept { return false; }
  bool wakeup_preempt(task&, task&, schedcore::sched_time) noexcept { return false; }
  schedcore::usize nr_runnable() const noexcept { return 0; }
};
}  // namespace minimal

#endif
