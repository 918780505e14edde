// Context of docs/guides/policy-sd.md's ```cpp block 1 (two hogs at nice 0 and 5), compiled
// and run by tests/docs/CMakeLists.txt: the block is a complete translation unit but for main.
// snippet: freestanding
// snippet-run: the split is the 727 per mille the block's comment promises (160 / 220 = 727.3,
// floored), the hogs ran 1600 and 600 ms (10 x 160 and 10 x 60), the longest waits are 4 ms
// (a) and 16 ms (b), rr_interval() is 8 ms, the quotas 8 and 4 ms in 20 and 15 slots, and
// SCHED_FIFO is refused as it says
#include SNIPPET_FILE

int main() {
  task a, b;
  if (nice_split(a, b) != 727) return 1;
  if (a.ran_ms != 1600 || b.ran_ms != 600) return 2;
  if (a.longest_wait_ms != 4) return 3;
  if (b.longest_wait_ms != 16) return 4;
  sd_policy<task> rq;
  if (rq.rr_interval() != msec(8) || rq.quota_of_nice(0) != msec(8) || rq.quota_of_nice(5) != msec(4)) return 5;
  if (popcount64(rq.slot_row(sched_kind::normal, 0)) != 20 || popcount64(rq.slot_row(sched_kind::normal, 5)) != 15)
    return 6;
  task c;
  if (rq.setup(c, sched_params{sched_kind::fifo, 0, 10}) != errc::invalid_argument) return 7;
  return 0;
}
