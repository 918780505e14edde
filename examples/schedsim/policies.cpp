// The policy registry of schedsim, in `schedsim list` order. Each policy lives in its own
// translation unit, examples/schedsim/policy_<name>.cpp (a parallel build compiles them side by
// side), holding one SCHEDSIM_POLICY line (policy_entry.hpp). To add a policy: write that file
// (CMake picks up policy_*.cpp), declare its function in policies.hpp, call it here.
#include "policies.hpp"

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
  schedsim_register_stride(reg);  // named only: the custom-policy examples
  schedsim_register_mlfq(reg);
}
