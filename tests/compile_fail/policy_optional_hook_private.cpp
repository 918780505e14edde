// A private member with an optional hook's exact signature is not callable by policy_traits,
// which would silently use the default instead: rejected, with a message that says public.
// expect-error: (public; a member of this name that is not the hook is an error
#include "minimal_policy.hpp"

namespace {
struct bad_policy : minimal::policy {
 private:
  void prio_changed(minimal::task&, schedcore::sched_time) noexcept {}
};
schedcore::class_stack<schedcore::member_sched_class, bad_policy> stack;
}  // namespace
int use() { return static_cast<int>(stack.nr_runnable()); }
