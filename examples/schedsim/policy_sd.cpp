// schedsim policy: Staircase Deadline.
#include "policy_entry.hpp"
#include "schedcore/policy/sd.hpp"

SCHEDSIM_POLICY(schedsim_register_sd, "sd", "Staircase Deadline 0.46-0.48 (policy/sd.hpp)", ::schedcore::sd_entity, ::schedcore::sd_policy)
