// The 2.6-era stacks of sim_entries.hpp.
#include "sim_entries.hpp"

#include "schedcore/policy/o1.hpp"
#include "schedcore/policy/rt.hpp"
#include "schedcore/policy/sd.hpp"

namespace schedcore_test {

using namespace schedcore;
using namespace schedcore::sim;

policy_entry o1_entry(const std::string& name, const std::string& desc) {
  using task_t = sim_task<o1_entity, rt_entity>;
  return make_entry<task_t, rt_policy<task_t>, o1_policy<task_t>>(name, desc);
}
policy_entry sd_entry(const std::string& name, const std::string& desc) {
  using task_t = sim_task<sd_entity, rt_entity>;
  return make_entry<task_t, rt_policy<task_t>, sd_policy<task_t>>(name, desc);
}

}  // namespace schedcore_test
