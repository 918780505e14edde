// A class timer hook declared non-const would be silently ignored by policy_traits (its timer
// would never fire): check_policy must reject it with the expected signature.
// expect-error: optional hook `next_timer` must be `bool next_timer(sched_time& when) const noexcept`
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
  bool tick(task&, schedcore::sched_time) noexcept { return false; }
  bool wakeup_preempt(task&, task&, schedcore::sched_time) noexcept { return false; }
  schedcore::usize nr_runnable() const noexcept { return 0; }
  bool next_timer(schedcore::sched_time&) noexcept { return false; }
  bool timer(schedcore::sched_time) noexcept { return false; }
};
schedcore::class_stack<schedcore::member_sched_class, ok_policy> stack;
}  // namespace
int use() { return static_cast<int>(stack.nr_runnable()); }
