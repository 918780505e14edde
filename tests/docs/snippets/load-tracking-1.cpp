// Context of docs/guides/load-tracking.md's ```cpp block 1 (using PELT), compiled by
// tests/docs/CMakeLists.txt. A fragment: its statements run in a function of the reader's.
// snippet: freestanding
#include "schedcore/smp/pelt.hpp"  // the block's own #include (its copy below is a guarded no-op)

// The clock and the other signals the fragment names are the caller's: the queues a migrating
// task leaves and joins, and a newly forked task.
void pelt_example(schedcore::u64 now_ns, schedcore::pelt_avg& old_queue, schedcore::pelt_avg& new_queue,
                  schedcore::pelt_avg& child) {
#include SNIPPET_FILE
}
