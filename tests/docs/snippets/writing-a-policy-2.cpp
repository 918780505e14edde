// Context of docs/guides/writing-a-policy.md's ```cpp block 2 (the entity), compiled by
// tests/docs/CMakeLists.txt. The block's unqualified s64, vtime and sched_time are the
// using-declarations of the example's namespace (examples/custom-policy/stride.hpp); the block
// goes in a namespace of its own beside them.
// snippet: freestanding
#include "schedcore/core/time.hpp"
#include "schedcore/intrusive/rb_hook.hpp"
#include "schedcore/policy/fair_weights.hpp"

namespace guide {
using schedcore::s64;
using schedcore::sched_time;
using schedcore::vtime;

#include SNIPPET_FILE
}  // namespace guide
