// Context of docs/guides/policy-eevdf.md's ```cpp block 1 (a hog and a half-duty task), compiled
// and run by tests/docs/CMakeLists.txt: the block is a complete translation unit but for main.
// snippet: freestanding
// snippet-run: the sleeper's share is the 333 per mille the block's comment promises (O3.1's 1/3,
// floored), exactly 2 s for the hog and 1 s for the sleeper in the 3 s, the sleeper's saved lag
// at its last sleep is -0.5 ms, and a runtime (own slice) of -1 is refused as it says
#include SNIPPET_FILE

int main() {
  task hog, half;
  const u64 share = half_duty_share(hog, half);
  if (share != 333) return 1;
  if (hog.sum_exec_runtime != static_cast<u64>(sec(2))) return 2;
  if (half.sum_exec_runtime != static_cast<u64>(sec(1))) return 3;
  if (half.vlag != -usec(500)) return 4;
  eevdf_policy<task> rq;
  task c;
  sched_params p{};
  p.runtime = -1;
  if (rq.setup(c, p) != errc::invalid_argument) return 5;
  return 0;
}
