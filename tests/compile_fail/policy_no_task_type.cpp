// A policy that does not say which task type it queues must be rejected.
// expect-error: must declare `using task_type = ...;`
#include "schedcore/policy/class_stack.hpp"

namespace {
struct task { int sched_class = 0; };
struct ok_policy {

  void enqueue(task&, schedcore::sched_time, schedcore::enqueue_flags) noexcept {}
  void dequeue(task&, schedcore::sched_time, schedcore::dequeue_flags) noexcept {}
  task* pick_next(schedcore::sched_time) noexcept { return nullptr; }
  void set_next(task&, schedcore::sched_time) noexcept {}
  void put_prev(task&, schedcore::sched_time) noexcept {}
  bool tick(task&, schedcore::sched_time) noexcept { return false; }
  bool wakeup_preempt(task&, task&, schedcore::sched_time) noexcept { return false; }
  schedcore::usize nr_runnable() const noexcept { return 0; }
};
schedcore::class_stack<schedcore::member_sched_class, ok_policy> stack;
}  // namespace
int use() { return static_cast<int>(stack.nr_runnable()); }
