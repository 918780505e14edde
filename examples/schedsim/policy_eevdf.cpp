// schedsim policy: Linux 6.6+ EEVDF.
#include "policy_entry.hpp"
#include "schedcore/policy/eevdf.hpp"

SCHEDSIM_POLICY(schedsim_register_eevdf, "eevdf", "Linux 6.6+ EEVDF (policy/eevdf.hpp; delay_dequeue=1 for 6.12+)", ::schedcore::eevdf_entity, ::schedcore::eevdf_policy)
