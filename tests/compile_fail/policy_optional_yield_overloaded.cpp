// An overload set named like an optional hook in which no member is the hook (here the hook's
// parameters without noexcept, beside an unrelated yield()) must be rejected: `&P::yield` is
// ambiguous, so a detector that took the address would call the name absent and policy_traits
// would silently never call it.
// expect-error: optional hook `yield` must be `void yield(task_type& curr, sched_time) noexcept`
#include "minimal_policy.hpp"

namespace {
struct bad_policy : minimal::policy {
  void yield() noexcept {}
  void yield(minimal::task&, schedcore::sched_time) {}
};
schedcore::class_stack<schedcore::member_sched_class, bad_policy> stack;
}  // namespace
int use() { return static_cast<int>(stack.nr_runnable()); }
