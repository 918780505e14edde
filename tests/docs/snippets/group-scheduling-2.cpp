// Context of docs/guides/group-scheduling.md's ```cpp block 2 (cpu.max), compiled by
// tests/docs/CMakeLists.txt. A fragment that continues the guide's first block: it names the
// library unqualified and uses one fair class object (`fair[cpu]`) and one task group
// (`session[cpu]`) per CPU, as set up there.
// snippet: freestanding
#include <schedcore/policy/cfs_bandwidth.hpp>  // the block's own #include (guarded no-op below)
#include <schedcore/policy/eevdf.hpp>
#include <schedcore/policy/group.hpp>
using namespace schedcore;  // the first block's

// The first block's types: the reader's task and one CPU's fair class.
using node = group_node<eevdf_entity>;
struct task : node {};
using fair_class = group_policy<task, eevdf_policy<node>>;

// Each CPU's fair class and its object of the group; the block ends in `return;`.
void bandwidth_example(fair_class* fair, fair_class::task_group* session, int ncpus, sched_time now) {
#include SNIPPET_FILE
}
