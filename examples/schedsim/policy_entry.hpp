// One registry entry per translation unit (examples/schedsim/policy_<name>.cpp), so a parallel
// build compiles the policies side by side. A SCHEDSIM_POLICY entry stacks
//   fair_server_stack<member_sched_class, edf_policy, rt_policy, POLICY>
// (a class_stack with Linux's fair server over POLICY) over sim_task<ENTITY, rt_entity,
// edf_entity>: SCHED_DEADLINE tasks always run in the edf class (top), fifo/rr tasks in the rt
// class, normal/batch/idle tasks in POLICY. SCHEDSIM_GROUPED_POLICY runs group_policy over
// POLICY instead when the workload declares cgroups; ref-rr (policy_ref_rr.cpp) is its own RT
// class. (The policy
// under test's entity comes first in the task object: its run queue is the one a busy CPU
// walks on every switch, so its hooks and keys open the task's first cache line.)
#ifndef SCHEDSIM_POLICY_ENTRY_HPP
#define SCHEDSIM_POLICY_ENTRY_HPP

#include <string>
#include <utility>
#include <vector>

#include "policies.hpp"
#include "schedcore/policy/edf.hpp"
#include "schedcore/policy/group.hpp"
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

/// SCHEDSIM_POLICY for a fair policy with group scheduling (policy/group.hpp): a workload
/// that declares cgroups runs with `group_policy<task, POLICY<group_node<ENTITY>>>` as the
/// fair class, one task group per cgroup on each CPU; any other workload runs the plain POLICY,
/// exactly as SCHEDSIM_POLICY does. Knobs are POLICY's in both.
#define SCHEDSIM_GROUPED_POLICY(FN, NAME, DESC, ENTITY, POLICY)                                             \
  void FN(::schedcore::sim::registry& reg) {                                                                \
    using task_t = ::schedcore::sim::sim_task<ENTITY, ::schedcore::rt_entity, ::schedcore::edf_entity>;     \
    using node_t = ::schedcore::group_node<ENTITY>;                                                         \
    using gtask_t = ::schedcore::sim::sim_task<node_t, ::schedcore::rt_entity, ::schedcore::edf_entity>;    \
    ::schedcore::sim::policy_entry flat =                                                                   \
        ::schedcore::sim::make_entry<task_t, ::schedcore::rt_policy<task_t>, POLICY<task_t>,                \
                                     ::schedcore::edf_policy<task_t>>(NAME, DESC);                          \
    ::schedcore::sim::policy_entry grouped = ::schedcore::sim::make_entry<                                  \
        gtask_t, ::schedcore::rt_policy<gtask_t>, ::schedcore::group_policy<gtask_t, POLICY<node_t>>,        \
        ::schedcore::edf_policy<gtask_t>>(NAME, DESC);                                                      \
    flat.run = [plain = flat.run, groups = grouped.run](const ::schedcore::sim::workload& w,                \
                                                        const ::schedcore::sim::run_config& cfg,            \
                                                        const std::vector<::schedcore::sim::knob_setting>& ks) { \
      return w.cgroups.empty() ? plain(w, cfg, ks) : groups(w, cfg, ks);                                    \
    };                                                                                                      \
    reg.add(flat);                                                                                          \
  }

/// The policies registered by SCHEDSIM_NAMED_POLICY files, filled before main by one static
/// registrar per file (hosted code; construct on first use, so the order of static
/// initialisation between files does not matter). schedsim_register_policies() adds them after
/// the built-in ones, sorted by name, and schedsim_named_only() keeps them out of the default
/// rows.
inline std::vector<std::pair<std::string, void (*)(::schedcore::sim::registry&)>>& schedsim_named_policies() {
  static std::vector<std::pair<std::string, void (*)(::schedcore::sim::registry&)>> all;
  return all;
}
/// Adds one SCHEDSIM_NAMED_POLICY registration (see the macro).
struct schedsim_named_policy_registrar {
  schedsim_named_policy_registrar(const char* name, void (*add)(::schedcore::sim::registry&)) {
    schedsim_named_policies().emplace_back(name, add);
  }
};

/// A policy of your own in one file and nothing else to edit: registers NAME like
/// SCHEDSIM_POLICY, runs only when named (`--policy NAME`, `--policies ...,NAME`), never in the
/// default rows, so the seed comparisons do not change. Drop the file into examples/schedsim/
/// as policy_<name>.cpp (CMake globs them), or keep it in your own tree and configure with
/// `-DSCHEDSIM_EXTRA_POLICY_SOURCES=/path/a.cpp;/path/b.cpp`. One file may register several
/// policies (each use gets its own names from __COUNTER__). A name registered twice stops
/// schedsim with exit 2.
#define SCHEDSIM_NAMED_POLICY(NAME, DESC, ENTITY, POLICY) \
  SCHEDSIM_DETAIL_NAMED_POLICY(NAME, DESC, ENTITY, POLICY, __COUNTER__)
/// @cond INTERNAL
#define SCHEDSIM_DETAIL_NAMED_POLICY(NAME, DESC, ENTITY, POLICY, N) \
  SCHEDSIM_DETAIL_NAMED_POLICY_N(NAME, DESC, ENTITY, POLICY, N)
#define SCHEDSIM_DETAIL_NAMED_POLICY_N(NAME, DESC, ENTITY, POLICY, N)                                         \
  namespace {                                                                                                 \
  SCHEDSIM_POLICY(schedsim_register_named_policy_##N, NAME, DESC, ENTITY, POLICY)                             \
  const schedsim_named_policy_registrar schedsim_named_policy_registration_##N{NAME,                          \
                                                                              &schedsim_register_named_policy_##N}; \
  }
/// @endcond

#endif
