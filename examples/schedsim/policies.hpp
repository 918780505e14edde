// schedsim's policy registry (policies.cpp; one translation unit per policy, policy_<name>.cpp).
#ifndef SCHEDSIM_POLICIES_HPP
#define SCHEDSIM_POLICIES_HPP

#include "schedcore/sim/registry.hpp"

/// Registers every policy schedsim knows, in `schedsim list` order.
void schedsim_register_policies(schedcore::sim::registry& reg);

// One function per policy file (examples/schedsim/policy_<name>.cpp).
void schedsim_register_ref_rr(schedcore::sim::registry& reg);
void schedsim_register_o1(schedcore::sim::registry& reg);
void schedsim_register_sd(schedcore::sim::registry& reg);
void schedsim_register_cfs(schedcore::sim::registry& reg);
void schedsim_register_cfs2007(schedcore::sim::registry& reg);
void schedsim_register_bfs(schedcore::sim::registry& reg);
void schedsim_register_goodness24(schedcore::sim::registry& reg);
void schedsim_register_nicksched(schedcore::sim::registry& reg);
void schedsim_register_eevdf(schedcore::sim::registry& reg);
void schedsim_register_ref_rr_rt(schedcore::sim::registry& reg);

#endif
