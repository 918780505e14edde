// Context of docs/guides/policy-rt.md's ```cpp block 2 (rt_policy's Config), compiled by
// tests/docs/CMakeLists.txt. The block prints the library's default, schedcore::rt_defaults:
// it is compiled in a namespace of its own, must equal the library's, and must be accepted as
// a Config ("any struct with two members").
// snippet: freestanding
#include "schedcore/policy/policy.hpp"
#include "schedcore/policy/rt.hpp"

namespace guide {
#include SNIPPET_FILE
}  // namespace guide

static_assert(guide::rt_defaults::nr_prios == schedcore::rt_defaults::nr_prios);
static_assert(guide::rt_defaults::throttling == schedcore::rt_defaults::throttling);

struct rt_task : schedcore::rt_entity {};  // a task type to instantiate the class with
static_assert(schedcore::check_policy<
              schedcore::rt_policy<rt_task, schedcore::base_entity<schedcore::rt_entity>, guide::rt_defaults>>());
