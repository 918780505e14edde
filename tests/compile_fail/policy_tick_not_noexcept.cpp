// A hook that may throw (tick without noexcept) must be rejected: hooks run under the rq lock.
// expect-error: missing or malformed `bool tick(task_type& curr, sched_time) noexcept`
#include "schedcore/policy/class_stack.hpp"

namespace {
struct task { int sched_class = 0; };
struct ok_policy {
  using task_type = task;
  void enqueue(task&, schedcore::sched_time, schedcore::enqueue_flags) noexcept {}
  void dequeue(task&, schedcore::sched_time, schedcore::dequeue_flags) noexcept {}
  task* pick_next(schedcore::sched_time) noexcept { return nullptr; }
  void set_next(task&, schedcore::sched_time) noexcept {}
  void put_prev(task&, schedcore::sched_time) noexcept {}
  bool tick(task&, schedcore::sched_time) { return false; }
  bool wakeup_preempt(task&, task&, schedcore::sched_time) noexcept { return false; }
  schedcore::usize nr_runnable() const noexcept { return 0; }
};
schedcore::class_stack<schedcore::member_sched_class, ok_policy> stack;
}  // namespace
int use() { return static_cast<int>(stack.nr_runnable()); }
