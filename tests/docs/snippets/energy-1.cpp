// Context of docs/guides/energy.md's ```cpp block 1 (the Energy Model), compiled by
// tests/docs/CMakeLists.txt. A fragment: its statements run in a function of the reader's.
// snippet: freestanding
#include "schedcore/smp/energy_model.hpp"  // the block's own #include, so that its copy in the
                                           // function below is a guarded no-op

// The utilisations the fragment reads are the caller's (PELT's, @ref load_tracking).
void energy_example(schedcore::u32 cpu_util, schedcore::u32 max_util, schedcore::u64 sum_util) {
#include SNIPPET_FILE
  (void)state;  // the fragment's results, which the reader goes on to use
  (void)estimate;
}
