// schedsim policy: CFS as merged in 2.6.23.
#include "policy_entry.hpp"
#include "schedcore/policy/cfs2007.hpp"

SCHEDSIM_POLICY(schedsim_register_cfs2007, "cfs2007", "CFS as merged in 2.6.23, the 2007 granularity knobs (policy/cfs2007.hpp)", ::schedcore::cfs2007_entity, ::schedcore::cfs2007_policy)
