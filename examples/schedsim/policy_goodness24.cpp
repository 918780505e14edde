// schedsim policy: Linux 2.4 goodness().
#include "policy_entry.hpp"
#include "schedcore/policy/goodness24.hpp"

SCHEDSIM_POLICY(schedsim_register_goodness24, "goodness24", "Linux 2.4 goodness() (policy/goodness24.hpp)", ::schedcore::goodness24_entity, ::schedcore::goodness24_policy)
