// Context of docs/guides/porting-rtos.md's ```cpp block 1 (the policy and the task type),
// compiled by tests/docs/CMakeLists.txt. Declarations at namespace scope; then the policy they
// name is checked against the contract (writing-a-policy.md's line), which instantiates it.
// snippet: freestanding
#include "schedcore/policy/policy.hpp"
#include "schedcore/policy/rt.hpp"

#include SNIPPET_FILE

static_assert(schedcore::check_policy<policy_type>());
