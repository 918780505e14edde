// schedsim policy: Linux 6.6+ EEVDF.
#include "policy_entry.hpp"
#include "schedcore/policy/eevdf.hpp"

SCHEDSIM_POLICY(schedsim_register_eevdf, "eevdf", "Linux 6.6+ EEVDF (policy/eevdf.hpp)", ::schedcore::eevdf_entity, ::schedcore::eevdf_policy)
