// Positive control: a minimal complete policy compiles in a class_stack, so the must-fail
// tests beside it fail for the reason they name and not for a broken header; so does one with
// correctly declared optional hooks, one whose hook sits in an overload set beside an unrelated
// member of the same name, and a `final` policy (the name probe cannot derive from it).
// expect-error: NONE
#include "minimal_policy.hpp"

namespace {
struct with_optional_hooks : minimal::policy {
  void yield(minimal::task&, schedcore::sched_time) noexcept {}
  bool next_timer(schedcore::sched_time&) const noexcept { return false; }
  bool timer(schedcore::sched_time) noexcept { return false; }
};
struct with_overloaded_hook : minimal::policy {
  void yield() noexcept {}
  void yield(minimal::task&, schedcore::sched_time) noexcept {}
};
struct final_policy final : with_optional_hooks {};
schedcore::class_stack<schedcore::member_sched_class, minimal::policy> stack;
schedcore::class_stack<schedcore::member_sched_class, with_optional_hooks> stack_with_hooks;
schedcore::class_stack<schedcore::member_sched_class, with_overloaded_hook> stack_overloaded;
schedcore::class_stack<schedcore::member_sched_class, final_policy> stack_final;
static_assert(schedcore::detail::has_yield<with_overloaded_hook>::value, "the overload set's hook is called");
}  // namespace
int use() {
  return static_cast<int>(stack.nr_runnable() + stack_with_hooks.nr_runnable() + stack_overloaded.nr_runnable() +
                          stack_final.nr_runnable());
}
