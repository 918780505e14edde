// schedsim policy: modern CFS.
#include "policy_entry.hpp"
#include "schedcore/policy/cfs.hpp"

SCHEDSIM_GROUPED_POLICY(schedsim_register_cfs, "cfs", "modern CFS (policy/cfs.hpp)", ::schedcore::cfs_entity, ::schedcore::cfs_policy)
