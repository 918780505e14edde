// Context of docs/guides/policy-o1.md's ```cpp block 1 (hogs at nice 0 and 19), compiled and
// run by tests/docs/CMakeLists.txt: the block is a complete translation unit but for main.
// snippet: freestanding
// snippet-run: a's share is the 952 per mille the block's comment promises (100/105 = 952.4,
// floored), exactly 2000 ms and 100 ms in the 2.1 s, dynamic priorities 125 and 139, slices of
// 100, 5 and 800 ms at nice 0, 19 and -20, and sched_kind::fifo is refused as it says
#include SNIPPET_FILE

int main() {
  task a, b;
  const u64 share = nice19_split(a, b);
  if (share != 952) return 1;
  if (a.ran_ms != 2000 || b.ran_ms != 100) return 2;
  if (o1_policy<task>::trace_prio(a) != 125 || o1_policy<task>::trace_prio(b) != 139) return 3;
  o1_policy<task> rq;
  task n0, n19, n20;
  if (rq.setup(n0, sched_params{sched_kind::normal, 0}) != errc::ok) return 4;
  if (rq.setup(n19, sched_params{sched_kind::normal, 19}) != errc::ok) return 5;
  if (rq.setup(n20, sched_params{sched_kind::normal, -20}) != errc::ok) return 6;
  if (rq.timeslice(n0) != msec(100)) return 7;
  if (rq.timeslice(n19) != msec(5)) return 8;
  if (rq.timeslice(n20) != msec(800)) return 9;
  task rt;
  sched_params p{};
  p.kind = sched_kind::fifo;
  p.rt_priority = 10;
  if (rq.setup(rt, p) != errc::invalid_argument) return 10;
  return 0;
}
