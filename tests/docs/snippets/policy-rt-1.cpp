// Context of docs/guides/policy-rt.md's ```cpp block 1 (two RR hogs and a FIFO hog under RT
// throttling), compiled and run by tests/docs/CMakeLists.txt: the block is a complete
// translation unit but for main.
// snippet: freestanding
// snippet-run: the CPU idled the 49 ms the block's comment promises, a ran 500 ms and b 451
// (the class 951 ms: throttled at the first tick strictly past 950), c not at all, and
// rt_priority 100 is refused with out_of_range as it says, the task left as it was
#include SNIPPET_FILE

int main() {
  task a, b, c;
  if (rr_pair_and_throttle(a, b, c) != 49) return 1;
  if (a.ran_ms != 500) return 2;
  if (b.ran_ms != 451) return 3;
  if (c.ran_ms != 0) return 4;
  rt_policy<task> rq;
  task d;
  if (rq.setup(d, sched_params{sched_kind::rr, 0, 50}) != errc::ok) return 5;
  if (rq.setup(d, sched_params{sched_kind::fifo, 0, 100}) != errc::out_of_range) return 6;
  if (d.kind != sched_kind::rr) return 7;  // the refused setup changed nothing
  return 0;
}
