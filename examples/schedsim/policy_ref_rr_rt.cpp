// schedsim policy: the reference round robin under the real rt class (an engine check).
#include "policy_entry.hpp"
#include "schedcore/sim/reference_rr.hpp"

SCHEDSIM_POLICY(schedsim_register_ref_rr_rt, "ref-rr-rt", "the reference round robin under the real rt class (engine check)", ::schedcore::sim::reference_rr_entity, ::schedcore::sim::reference_rr_policy)
