// Context of docs/guides/writing-a-policy.md's ```cpp block 3 (charge), compiled by
// tests/docs/CMakeLists.txt. A member function of the policy: it goes in a class with the
// members it reads, of the types examples/custom-policy/stride.hpp gives them, and the
// example's entity. The block names the library's helpers unqualified: `using namespace`.
// snippet: freestanding
// snippet-include-dir: examples/custom-policy
#include "stride.hpp"

namespace guide {
using namespace schedcore;
using stride_example::stride_entity;

struct my_task : stride_entity {};  // the least task: it embeds the entity

class stride_policy_part {
  static stride_entity& E(my_task& t) noexcept { return t; }
  my_task* curr_ = nullptr;
  vtime global_pass_{};
  u32 total_inv_ = fair_inv_weight(0);

 public:
#include SNIPPET_FILE
};
}  // namespace guide
