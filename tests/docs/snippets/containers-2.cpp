// Context of docs/guides/containers.md's ```cpp block 2 (a 140-level prio_array), compiled
// and run by tests/docs/CMakeLists.txt: the block is a complete translation unit but for main.
// The block's second enqueue of t[0] is a misuse: snippet_check_counter.hpp counts the report
// instead of the default trap, so the run works with asserts on or off.
// snippet: freestanding
// snippet-run: the function returns {100, 4, {1, 3, 0, 2}} as the block's comment promises,
// the queue is the 2288 bytes it says on a 64-bit target (its bitmap 32), each task keeps the
// priority the comment gives, and the second enqueue was refused and reported once (asserts on)
#include "../snippet_check_counter.hpp"
#include SNIPPET_FILE

int main() {
  static_assert(sizeof(runqueue::bitmap_type) == 32, "the block says a 32-byte bitmap");
  static_assert(sizeof(void*) != 8 || sizeof(runqueue) == 2288, "the block says 2288 bytes");
  task t[4];
  const picks r = pick_order(t);
  if (r.best != 100) return 1;
  if (r.queued != 4) return 2;
  if (r.order[0] != 1 || r.order[1] != 3) return 3;  // priority 100, FIFO
  if (r.order[2] != 0) return 4;                      // 120
  if (r.order[3] != 2) return 5;                      // 139
  if (t[0].prio != 120 || t[1].prio != 100 || t[2].prio != 139 || t[3].prio != 100) return 6;
  if (docs_snippet::misuse_reports != docs_snippet::expected_misuse_reports(1)) return 7;
  if (docs_snippet::other_reports != 0) return 8;
  return 0;
}
