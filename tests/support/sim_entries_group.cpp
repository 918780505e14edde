// The group-scheduling stacks of sim_entries.hpp.
#include "sim_entries.hpp"

#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "schedcore/policy/group.hpp"
#include "schedcore/policy/rt.hpp"

namespace schedcore_test {

using namespace schedcore;
using namespace schedcore::sim;

policy_entry grouped_eevdf_entry(const std::string& name, const std::string& desc) {
  using task_t = sim_task<group_node<eevdf_entity>, rt_entity>;
  return make_entry<task_t, rt_policy<task_t>, group_policy<task_t, eevdf_policy<group_node<eevdf_entity>>>>(name, desc);
}
policy_entry grouped_cfs_entry(const std::string& name, const std::string& desc) {
  using task_t = sim_task<group_node<cfs_entity>, rt_entity>;
  return make_entry<task_t, rt_policy<task_t>, group_policy<task_t, cfs_policy<group_node<cfs_entity>>>>(name, desc);
}

}  // namespace schedcore_test
