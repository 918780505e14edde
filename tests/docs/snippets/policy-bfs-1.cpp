// Context of docs/guides/policy-bfs.md's ```cpp block 1 (two hogs at nice 0 and 5), compiled
// and run by tests/docs/CMakeLists.txt: the block is a complete translation unit but for main.
// snippet: freestanding
// snippet-run: the split is the 800 per mille the block's comment promises (2400 and 600 ms in
// 3 s), the ratios are 836 and 1344 and the deadline offsets 39.1875 and 63 ms at the 6 ms
// rr_interval it configures, and an rr_interval of 2000 ms is refused as it says, the knobs
// left as they were
#include SNIPPET_FILE

int main() {
  task a, b;
  if (nice_split(a, b) != 800) return 1;
  if (a.ran_ms != 2400 || b.ran_ms != 600) return 2;
  if (bfs_prio_ratios.ratio[20] != 836 || bfs_prio_ratios.ratio[25] != 1344) return 3;
  bfs_policy<task> rq;
  bfs_policy<task>::knobs k{};
  k.rr_interval = msec(6);
  if (rq.configure(k) != errc::ok) return 4;
  if (rq.deadline_offset(0) != 39187500 || rq.deadline_offset(5) != msec(63)) return 5;
  k.rr_interval = msec(2000);
  if (rq.configure(k) != errc::invalid_argument || rq.config().rr_interval != msec(6)) return 6;
  return 0;
}
