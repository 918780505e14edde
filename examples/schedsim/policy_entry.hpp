// One registry entry per translation unit (examples/schedsim/policy_<name>.cpp), so a parallel
// build compiles the policies side by side. Every entry stacks
//   class_stack<member_sched_class, edf_policy, rt_policy, POLICY>
// over sim_task<ENTITY, rt_entity, edf_entity>: SCHED_DEADLINE tasks always run in the edf
// class (top), fifo/rr tasks in the rt class, normal/batch/idle tasks in POLICY. (The policy
// under test's entity comes first in the task object: its run queue is the one a busy CPU
// walks on every switch, so its hooks and keys open the task's first cache line.)
#ifndef SCHEDSIM_POLICY_ENTRY_HPP
#define SCHEDSIM_POLICY_ENTRY_HPP

#include "policies.hpp"
#include "schedcore/policy/edf.hpp"
#include "schedcore/policy/rt.hpp"
#include "schedcore/sim/registry.hpp"

/// Defines `void FN(schedcore::sim::registry&)` registering NAME (string) with DESCRIPTION, the
/// policy's entity type and class template: the one line a policy file contains.
#define SCHEDSIM_POLICY(FN, NAME, DESC, ENTITY, POLICY)                                                     \
  void FN(::schedcore::sim::registry& reg) {                                                                \
    using task_t = ::schedcore::sim::sim_task<ENTITY, ::schedcore::rt_entity, ::schedcore::edf_entity>;     \
    reg.add(::schedcore::sim::make_entry<task_t, ::schedcore::rt_policy<task_t>, POLICY<task_t>,            \
                                         ::schedcore::edf_policy<task_t>>(NAME, DESC));                     \
  }

#endif
