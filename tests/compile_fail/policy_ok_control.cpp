// Positive control: a minimal complete policy compiles in a class_stack, so the must-fail
// tests beside it fail for the reason they name and not for a broken header; so does one with
// correctly declared optional hooks.
// expect-error: NONE
#include "minimal_policy.hpp"

namespace {
struct with_optional_hooks : minimal::policy {
  void yield(minimal::task&, schedcore::sched_time) noexcept {}
  bool next_timer(schedcore::sched_time&) const noexcept { return false; }
  bool timer(schedcore::sched_time) noexcept { return false; }
};
schedcore::class_stack<schedcore::member_sched_class, minimal::policy> stack;
schedcore::class_stack<schedcore::member_sched_class, with_optional_hooks> stack_with_hooks;
}  // namespace
int use() { return static_cast<int>(stack.nr_runnable() + stack_with_hooks.nr_runnable()); }
