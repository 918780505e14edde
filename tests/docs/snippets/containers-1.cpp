// Context of docs/guides/containers.md's ```cpp block 1 (a FreeRTOS-style prio_bitmap),
// compiled and run by tests/docs/CMakeLists.txt: the block is a complete translation unit but
// for main. The block's set(32) is a misuse: snippet_check_counter.hpp counts the report
// instead of the default trap, so the run works with asserts on or off.
// snippet: freestanding
// snippet-run: the walk gives the 3 priorities {17, 3, 0} in that order, as the block's
// comment promises; the map is the 4 bytes it says; set(32) marked nothing and was reported
// once as a misuse (when asserts are on), nothing else reported
#include "../snippet_check_counter.hpp"
#include SNIPPET_FILE

int main() {
  static_assert(sizeof(ready_map) == 4, "the block says one u32, 4 bytes");
  unsigned out[32] = {};
  const unsigned n = ready_levels(out);
  if (n != 3) return 1;
  if (out[0] != 17) return 2;
  if (out[1] != 3) return 3;
  if (out[2] != 0) return 4;
  if (docs_snippet::misuse_reports != docs_snippet::expected_misuse_reports(1)) return 5;
  if (docs_snippet::other_reports != 0) return 6;
  return 0;
}
