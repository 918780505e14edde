// Context of docs/guides/policy-edf.md's ```cpp block 1 (two reservations on one CPU and a
// third refused), compiled and run by tests/docs/CMakeLists.txt: the block is a complete
// translation unit but for main.
// snippet: freestanding
// snippet-run: the 10 ms / 100 ms hog gets the 100 ms of one second the block's comment
// promises and the 15 ms / 50 ms hog 300 ms (600 ms idle), the 56 ms / 100 ms reservation is
// refused with errc::overloaded and leaves its task as it was, 55 ms would fit (996145 of the
// cap 996147) and b, deadline 50 ms, is picked first
#include SNIPPET_FILE

int main() {
  task a, b, c;
  if (two_reservations(a, b, c) != 100 || a.ran != msec(100)) return 1;
  if (b.ran != msec(300)) return 2;
  if (c.admitted || c.dl_runtime != 0 || c.dl_bw != 0) return 3;  // refused: nothing changed
  // The same two reservations on a queue of the context's own: the cap, the sum at 55 ms, the
  // refusal at 56 ms, the first pick.
  edf_policy<task> rq;
  task x, y, z;
  sched_params p{};
  p.kind = sched_kind::deadline;
  p.runtime = msec(10);
  p.deadline = p.period = msec(100);
  if (rq.setup(x, p) != errc::ok) return 4;
  p.runtime = msec(15);
  p.deadline = p.period = msec(50);
  if (rq.setup(y, p) != errc::ok) return 4;
  p.runtime = msec(56);
  p.deadline = p.period = msec(100);
  if (rq.setup(z, p) != errc::overloaded || rq.total_bandwidth() != 419429) return 5;
  p.runtime = msec(55);
  if (rq.setup(z, p) != errc::ok || rq.total_bandwidth() != 996145 || rq.bandwidth_cap() != 996147) return 6;
  sched_time now{0};
  rq.enqueue(x, now, enqueue_flags::initial);
  rq.enqueue(y, now, enqueue_flags::initial);
  if (rq.pick_next(now) != &y || edf_policy<task>::deadline_of(y) != sched_time{0} + msec(50)) return 7;
  return 0;
}
