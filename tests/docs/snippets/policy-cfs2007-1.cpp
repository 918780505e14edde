// Context of docs/guides/policy-cfs2007.md's ```cpp block 1 (two hogs under three
// granularities), compiled and run by tests/docs/CMakeLists.txt: the block is a complete
// translation unit but for main.
// snippet: freestanding
// snippet-run: the switch counts are the 91, 500 and 5 the block's comment promises, with the
// CPU times its turn lengths give (a 6 ms first turn, then 11 ms: 6 + 45 x 11 = 501 ms and
// 45 x 11 + 4 = 499 ms; 1 ms, then 2 ms: 500 and 500; 161 ms, then 201 ms: 563 and 437),
// sched_granularity() is 5 ms with two tasks queued, and latency 1 ms is refused as it says
#include SNIPPET_FILE

namespace {
bool ran_ms(const task& t, u64 ms) { return t.sum_exec_runtime == static_cast<u64>(msec(1)) * ms; }
}  // namespace

int main() {
  {
    task a, b;
    if (switches_in_a_second(a, b, -1) != 91) return 1;
    if (!ran_ms(a, 501)) return 2;
    if (!ran_ms(b, 499)) return 3;
  }
  {
    task a, b;
    if (switches_in_a_second(a, b, 0) != 500) return 4;
    if (!ran_ms(a, 500)) return 5;
    if (!ran_ms(b, 500)) return 6;
  }
  {
    task a, b;
    if (switches_in_a_second(a, b, msec(100)) != 5) return 7;
    if (!ran_ms(a, 563)) return 8;
    if (!ran_ms(b, 437)) return 9;
  }
  cfs2007_policy<task> rq;
  task a, b;
  if (rq.setup(a, sched_params{}) != errc::ok || rq.setup(b, sched_params{}) != errc::ok) return 10;
  rq.enqueue(a, sched_time{0}, enqueue_flags::initial);
  rq.enqueue(b, sched_time{0}, enqueue_flags::initial);
  if (rq.sched_latency() != msec(20)) return 11;
  if (rq.sched_granularity() != msec(5)) return 12;
  cfs2007_policy<task>::knobs k{};
  k.latency = msec(1);
  if (rq.configure(k) != errc::inverted || rq.sched_latency() != msec(20)) return 13;
  return 0;
}
