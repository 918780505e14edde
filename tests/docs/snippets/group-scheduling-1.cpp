// Context of docs/guides/group-scheduling.md's ```cpp block 1 (using group_policy), compiled
// by tests/docs/CMakeLists.txt. The block declares the task type and then uses a task `t` of
// it, so it is cut in two: its #includes, using and types at namespace scope, its statements
// (from the run queue `rq` on, ending in `return;`) in a void function that is given `t`.
// snippet: freestanding
// snippet-split-before: class_stack<
#include SNIPPET_HEAD_FILE

// `t` a task of the block's type, not queued; `now` the caller's clock.
void group_example(task& t, sched_time now) {
#include SNIPPET_TAIL_FILE
}
