// Context of docs/guides/containers.md's ```cpp block 1 (a FreeRTOS-style prio_bitmap),
// compiled and run by tests/docs/CMakeLists.txt: the block is a complete translation unit but
// for main. The block's set(32) is a misuse: the handler below counts the report instead of
// the default trap, so the run works with asserts on or off.
// snippet: freestanding
// snippet-run: the walk gives the 3 priorities {17, 3, 0} in that order, as the block's
// comment promises; the map is the 4 bytes it says; set(32) marked nothing and was reported
// once as a misuse (when asserts are on), nothing else reported
#define SCHEDCORE_ASSERT_HANDLER containers_1_check_handler
#include SNIPPET_FILE

static int misuse_reports = 0;
static int other_reports = 0;
void containers_1_check_handler(const schedcore::check_failure& failure) noexcept {
  if (failure.kind == schedcore::check_kind::misuse) ++misuse_reports;
  else ++other_reports;
}

int main() {
  static_assert(sizeof(ready_map) == 4, "the block says one u32, 4 bytes");
  unsigned out[32] = {};
  const unsigned n = ready_levels(out);
  if (n != 3) return 1;
  if (out[0] != 17) return 2;
  if (out[1] != 3) return 3;
  if (out[2] != 0) return 4;
  if (misuse_reports != (SCHEDCORE_ENABLE_ASSERTS ? 1 : 0)) return 5;
  if (other_reports != 0) return 6;
  return 0;
}
