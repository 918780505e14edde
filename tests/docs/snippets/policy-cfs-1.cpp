// Context of docs/guides/policy-cfs.md's ```cpp block 1 (two hogs at nice 0 and 1), compiled
// and run by tests/docs/CMakeLists.txt: the block is a complete translation unit but for main.
// snippet: freestanding
// snippet-run: the split is the 555 per mille the block's comment promises (1024 / 1844 =
// 555.3, floored), the two hogs shared the whole ten seconds, sched_latency() is the 18 ms the
// comment says and nice 20 is refused as it says
#include SNIPPET_FILE

int main() {
  task a, b;
  const u64 share = nice_split(a, b);
  if (share != 555) return 1;
  if (a.sum_exec_runtime + b.sum_exec_runtime != static_cast<u64>(sec(10))) return 2;
  cfs_policy<task> rq;
  cfs_policy<task>::knobs k{};
  k.cpus = 4;
  if (rq.configure(k) != errc::ok || rq.sched_latency() != msec(18)) return 3;
  task c;
  if (rq.setup(c, sched_params{sched_kind::normal, 20}) != errc::invalid_argument) return 4;
  return 0;
}
