// Context of docs/guides/policy-goodness24.md's ```cpp block 1 (a hog and a sleeper at HZ 100),
// compiled and run by tests/docs/CMakeLists.txt: the block is a complete translation unit but
// for main.
// snippet: freestanding
// snippet-run: the sleeper wakes with the goodness 31 the block's comment promises (counter 11
// = 2 * 6 - 1, + 20 - nice 0) and runs at once, the hog has counter 2 (4 ticks into a 6-tick
// slice: goodness 2 + 20 + 1 = 23) and sched_kind::idle is refused with errc::invalid_argument,
// the task left as it was
#include SNIPPET_FILE

int main() {
  task hog, sleeper;
  if (sleeper_goodness(hog, sleeper) != 31) return 1;
  if (sleeper.counter != 11) return 2;
  if (hog.counter != 2) return 3;
  goodness24_policy<task> rq;
  task t;
  if (rq.setup(t, sched_params{sched_kind::idle, 0}) != errc::invalid_argument) return 4;
  if (t.counter != 0 || t.kind != sched_kind::normal) return 5;  // refused: nothing changed
  return 0;
}
