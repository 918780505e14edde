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
void schedsim_register_stride(schedcore::sim::registry& reg);  // examples/custom-policy
void schedsim_register_mlfq(schedcore::sim::registry& reg);    // examples/custom-policy

/// Policies that run only when named (--policy/--policies): never in compare's, plot's or
/// report's default list (fifo and rr make every task real-time: a what-if, not a scheduler of
/// the era; stride and mlfq are the custom-policy examples), so the default outputs do not change with them.
inline bool schedsim_named_only(const std::string& name) { return name == "fifo" || name == "rr" || name == "stride" || name == "mlfq";
}

#endif
