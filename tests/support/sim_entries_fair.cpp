// The modern fair stacks of sim_entries.hpp.
#include "sim_entries.hpp"

#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/edf.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "schedcore/policy/rt.hpp"

namespace schedcore_test {

using namespace schedcore;
using namespace schedcore::sim;

policy_entry eevdf_entry(const std::string& name, const std::string& desc) {
  using task_t = sim_task<eevdf_entity, rt_entity>;
  return make_entry<task_t, rt_policy<task_t>, eevdf_policy<task_t>>(name, desc);
}
policy_entry cfs_entry(const std::string& name, const std::string& desc) {
  using task_t = sim_task<cfs_entity, rt_entity>;
  return make_entry<task_t, rt_policy<task_t>, cfs_policy<task_t>>(name, desc);
}
policy_entry cfs_dl_entry(const std::string& name, const std::string& desc) {
  using task_t = sim_task<cfs_entity, rt_entity, edf_entity>;
  return make_entry<task_t, rt_policy<task_t>, cfs_policy<task_t>, edf_policy<task_t>>(name, desc);
}

}  // namespace schedcore_test
