// schedsim policies: every normal/batch/idle task as POSIX SCHED_FIFO or SCHED_RR (priority 1,
// nice ignored) under the library's rt_policy, in the fair slot (sim/posix_fair.hpp). Not in
// compare's default list (main.cpp, report_cmd.hpp): they run only when named.
#include "policy_entry.hpp"
#include "schedcore/sim/posix_fair.hpp"

SCHEDSIM_POLICY(schedsim_register_fifo, "fifo", "every normal/batch/idle task as SCHED_FIFO priority 1, nice ignored (policy/rt.hpp via sim/posix_fair.hpp)", ::schedcore::sim::posix_fair_entity, ::schedcore::sim::posix_fifo_policy)
SCHEDSIM_POLICY(schedsim_register_rr, "rr", "every normal/batch/idle task as SCHED_RR priority 1, nice ignored (policy/rt.hpp via sim/posix_fair.hpp)", ::schedcore::sim::posix_fair_entity, ::schedcore::sim::posix_rr_policy)
