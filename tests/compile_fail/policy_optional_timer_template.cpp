// A member template named like an optional hook that does not match it (no noexcept) must be
// rejected: taking the address of a template names no single function, so it would otherwise
// count as absent and be silently replaced by the default (no class timer ever runs).
// expect-error: optional hook `timer` must be `bool timer(sched_time) noexcept`
#include "minimal_policy.hpp"

namespace {
struct bad_policy : minimal::policy {
  template <class Time>
  bool timer(Time) {
    return true;
  }
};
schedcore::class_stack<schedcore::member_sched_class, bad_policy> stack;
}  // namespace
int use() { return static_cast<int>(stack.nr_runnable()); }
