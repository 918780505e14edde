// An optional hook declared with another signature (yield without noexcept) must be rejected,
// not silently replaced by policy_traits' default (which would never call it).
// expect-error: optional hook `yield` must be `void yield(task_type& curr, sched_time) noexcept`
#include "minimal_policy.hpp"

namespace {
struct bad_policy : minimal::policy {
  void yield(minimal::task&, schedcore::sched_time) {}
};
schedcore::class_stack<schedcore::member_sched_class, bad_policy> stack;
}  // namespace
int use() { return static_cast<int>(stack.nr_runnable()); }
