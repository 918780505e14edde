// A class timer hook declared non-const would be silently ignored by policy_traits (its timer
// would never fire): check_policy must reject it with the expected signature.
// expect-error: optional hook `next_timer` must be `bool next_timer(sched_time& when) const noexcept`
#include "minimal_policy.hpp"

namespace {
struct bad_policy : minimal::policy {
  bool next_timer(schedcore::sched_time&) noexcept { return false; }
  bool timer(schedcore::sched_time) noexcept { return false; }
};
schedcore::class_stack<schedcore::member_sched_class, bad_policy> stack;
}  // namespace
int use() { return static_cast<int>(stack.nr_runnable()); }
