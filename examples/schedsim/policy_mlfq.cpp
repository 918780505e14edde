// schedsim policy: a multi-level feedback queue, the second custom-policy example
// (examples/custom-policy/mlfq.hpp: OSTEP chapter 8's rules, 4 levels). Named only
// (`--policy mlfq`, `--policies ...,mlfq`), not a row of the default comparisons.
#include "../custom-policy/mlfq.hpp"
#include "policy_entry.hpp"

SCHEDSIM_NAMED_POLICY("mlfq",
                "example: multi-level feedback queue (OSTEP ch. 8), 4 levels, allotments and boost, nice ignored "
                "(examples/custom-policy/mlfq.hpp)",
                ::mlfq_example::mlfq_entity, ::mlfq_example::mlfq_policy)
