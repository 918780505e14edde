// Context of docs/guides/containers.md's ```cpp block 3 (EEVDF's augmented rb_tree), compiled
// and run by tests/docs/CMakeLists.txt: the block is a complete translation unit but for main.
// The block's second insert of t[0] is a misuse: snippet_check_counter.hpp counts the report
// instead of the default trap, so the run works with asserts on or off.
// snippet: freestanding
// snippet-run: the function returns {10, 3, 30, 5} as the block's comment promises; the raw
// counters are as it says (10's is 2^64 - 15, 30's is 5, the smallest of the five); exactly
// (60, 3) and (30, 5) have vruntime <= base + 8; the second insert was reported once (asserts
// on) and the tree holds the five tasks, each linked
#include "../snippet_check_counter.hpp"
#include SNIPPET_FILE

int main() {
  task t[5];
  const summary s = eevdf_pick(t);
  if (s.front != 10) return 1;
  if (s.min_vruntime != 3) return 2;
  if (s.eligible != 30) return 3;
  if (s.size != 5) return 4;
  // t[3] is (10, 15), t[4] is (30, 5), t[2] is (60, 3).
  if (t[3].deadline.ns() != ~u64{0} - 14 || t[4].deadline.ns() != 5) return 5;  // 2^64 - 15, 5
  for (const task& x : t) {
    if (x.deadline.ns() < 5) return 6;  // 30's raw counter is the smallest
    if (!x.node.is_linked()) return 7;
  }
  const vtime base{~u64{0} - 24};
  for (int i = 0; i < 5; ++i) {
    const bool eligible = t[i].vruntime <= base + 8;
    if (eligible != (i == 2 || i == 4)) return 8;
  }
  if (docs_snippet::misuse_reports != docs_snippet::expected_misuse_reports(1)) return 9;
  if (docs_snippet::other_reports != 0) return 10;
  return 0;
}
