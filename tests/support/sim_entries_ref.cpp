// The reference stacks of sim_entries.hpp.
#include "sim_entries.hpp"

#include "schedcore/policy/edf.hpp"
#include "schedcore/policy/rt.hpp"
#include "schedcore/sim/reference_rr.hpp"

namespace schedcore_test {

using namespace schedcore;
using namespace schedcore::sim;

policy_entry ref_entry(const std::string& name, const std::string& desc) {
  using task_t = sim_task<reference_rr_entity>;
  return make_entry<task_t, reference_rr_policy<task_t>, reference_rr_policy<task_t>>(name, desc);
}
policy_entry ref_rt_entry(const std::string& name, const std::string& desc) {
  using task_t = sim_task<rt_entity, reference_rr_entity>;
  return make_entry<task_t, rt_policy<task_t>, reference_rr_policy<task_t>>(name, desc);
}
policy_entry ref_dl_entry(const std::string& name, const std::string& desc) {
  using task_t = sim_task<reference_rr_entity, rt_entity, edf_entity>;
  return make_entry<task_t, rt_policy<task_t>, reference_rr_policy<task_t>, edf_policy<task_t>>(name, desc);
}

}  // namespace schedcore_test
