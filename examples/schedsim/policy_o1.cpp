// schedsim policy: Linux 2.6.21/22 mainline O(1).
#include "policy_entry.hpp"
#include "schedcore/policy/o1.hpp"

SCHEDSIM_POLICY(schedsim_register_o1, "o1", "Linux 2.6.21/22 mainline O(1) (policy/o1.hpp)", ::schedcore::o1_entity, ::schedcore::o1_policy)
