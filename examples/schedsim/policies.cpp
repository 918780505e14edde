// The policy registry of schedsim, in `schedsim list` order. Each policy lives in its own
// translation unit, examples/schedsim/policy_<name>.cpp (a parallel build compiles them side by
// side), holding one SCHEDSIM_POLICY line (policy_entry.hpp). To add a built-in policy: write
// that file (CMake picks up policy_*.cpp), declare its function in policies.hpp, call it here.
// To add your own, named only: one file with SCHEDSIM_NAMED_POLICY, nothing else to edit.
#include "policies.hpp"

#include <algorithm>

#include "policy_entry.hpp"

void schedsim_register_policies(schedcore::sim::registry& reg) {
  schedsim_register_ref_rr(reg);
  schedsim_register_o1(reg);
  schedsim_register_sd(reg);
  schedsim_register_cfs(reg);
  schedsim_register_bfs(reg);
  schedsim_register_goodness24(reg);
  schedsim_register_nicksched(reg);
  schedsim_register_eevdf(reg);
  schedsim_register_ref_rr_rt(reg);
  schedsim_register_cfs2007(reg);
  schedsim_register_fifo(reg);  // named only: not in compare's default list (main.cpp)
  schedsim_register_rr(reg);
  // Files with SCHEDSIM_NAMED_POLICY (your own policies, the custom-policy examples), after the
  // built-in ones, in name order (static registration order between files is unspecified).
  auto named = schedsim_named_policies();
  std::sort(named.begin(), named.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [name, add] : named) add(reg);
}

bool schedsim_named_only(const std::string& name) {
  if (name == "fifo" || name == "rr") return true;
  for (const auto& entry : schedsim_named_policies())
    if (entry.first == name) return true;
  return false;
}
