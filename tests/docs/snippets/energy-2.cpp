// Context of docs/guides/energy.md's ```cpp block 2 (utilisation clamps), compiled by
// tests/docs/CMakeLists.txt. The block declares the reader's task type and then uses a task `t`
// of it, so it is cut in two: its #include, using and struct at namespace scope, its statements
// (from the per-CPU `cpu_clamps` on) in a function that is given `t`.
// snippet: freestanding
// snippet-split-before: uclamp_rq<> cpu_clamps
#include SNIPPET_HEAD_FILE

// `t` a task of the block's type that became runnable; the utilisations are the caller's.
void uclamp_example(task& t, u32 cfs_util, u32 task_util) {
#include SNIPPET_TAIL_FILE
  (void)freq_util;  // the fragment's results, which the reader goes on to use
  (void)fit;
}
