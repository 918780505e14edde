// schedsim policy: Nick Piggin's scheduler.
#include "policy_entry.hpp"
#include "schedcore/policy/nicksched.hpp"

SCHEDSIM_POLICY(schedsim_register_nicksched, "nicksched", "Nick Piggin's 2003-04 scheduler (policy/nicksched.hpp)", ::schedcore::nicksched_entity, ::schedcore::nicksched_policy)
