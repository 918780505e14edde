// Context of docs/guides/writing-a-policy.md's ```cpp block 1 (check_policy), compiled by
// tests/docs/CMakeLists.txt. The guide's policy is the complete example,
// examples/custom-policy/stride.hpp; `my_task` is the reader's task type.
// snippet: freestanding
// snippet-include-dir: examples/custom-policy
#include "stride.hpp"
using stride_example::stride_policy;

struct my_task : stride_example::stride_entity {};  // the least task: it embeds the entity

#include SNIPPET_FILE
