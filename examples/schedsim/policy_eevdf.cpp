// schedsim policy: Linux 6.6+ EEVDF.
#include "policy_entry.hpp"
#include "schedcore/policy/eevdf.hpp"

SCHEDSIM_GROUPED_POLICY(schedsim_register_eevdf, "eevdf", "Linux 6.6+ EEVDF (policy/eevdf.hpp; the 6.12+ and 6.17+ features are knobs, off by default)", ::schedcore::eevdf_entity, ::schedcore::eevdf_policy)
