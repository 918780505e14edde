// schedsim's policy registry (policies.cpp; one translation unit per policy, policy_<name>.cpp).
#ifndef SCHEDSIM_POLICIES_HPP
#define SCHEDSIM_POLICIES_HPP

#include <string>

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
void schedsim_register_fifo(schedcore::sim::registry& reg);  // policy_posix.cpp
void schedsim_register_rr(schedcore::sim::registry& reg);    // policy_posix.cpp

/// Policies that run only when named (--policy/--policies): never in compare's, plot's or
/// report's default list, so the default outputs do not change with them: fifo and rr (they
/// make every task real-time: a what-if, not a scheduler of the era) and every policy a
/// SCHEDSIM_NAMED_POLICY file registers (policy_entry.hpp; the custom-policy examples).
bool schedsim_named_only(const std::string& name);

#endif
