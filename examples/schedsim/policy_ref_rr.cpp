// schedsim policy: the simulator's reference round robin, which also serves as the RT class
// (one entity for both; nice ignored). SCHED_DEADLINE tasks still go to the edf class on top.
#include "policy_entry.hpp"
#include "schedcore/sim/reference_rr.hpp"

void schedsim_register_ref_rr(::schedcore::sim::registry& reg) {
  namespace sim = ::schedcore::sim;
  using task_t = sim::sim_task<sim::reference_rr_entity, ::schedcore::edf_entity>;
  reg.add(sim::make_entry<task_t, sim::reference_rr_policy<task_t>, sim::reference_rr_policy<task_t>,
                          ::schedcore::edf_policy<task_t>>(
      "ref-rr", "simulator reference: strict-priority round robin, nice ignored (sim/reference_rr.hpp)"));
}
