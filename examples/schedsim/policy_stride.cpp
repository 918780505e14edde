// schedsim policy: stride scheduling, the custom-policy example (examples/custom-policy/). It
// shows that a policy written outside the library runs in the simulator with one line; it is
// named only (`--policy stride`, `--policies ...,stride`), not a row of the default comparisons.
#include "../custom-policy/stride.hpp"
#include "policy_entry.hpp"

SCHEDSIM_NAMED_POLICY("stride",
                "example: stride scheduling (Waldspurger & Weihl 1995), tickets = nice weight, whole quanta "
                "(examples/custom-policy/stride.hpp)",
                ::stride_example::stride_entity, ::stride_example::stride_policy)
