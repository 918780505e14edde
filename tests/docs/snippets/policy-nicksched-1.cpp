// Context of docs/guides/policy-nicksched.md's ```cpp block 1 (a hog and a 1 ms / 10 ms
// sleeper), compiled and run by tests/docs/CMakeLists.txt: the block is a complete translation
// unit but for main.
// snippet: freestanding
// snippet-run: the sleeper ends at the priority 122 the block's comment promises, with the
// sleep_avg 918 it names, the hog at sleep_avg 0 and priority 140, and SCHED_BATCH is refused
// as it says
#include SNIPPET_FILE

int main() {
  using policy = nicksched_policy<task>;
  task hog, s;
  if (sleeper_priority(hog, s) != 122) return 1;
  if (policy::sleep_avg(s) != 918) return 2;
  if (policy::sleep_avg(hog) != 0 || policy::trace_prio(hog) != 140) return 3;
  policy rq;
  task c;
  if (rq.setup(c, sched_params{sched_kind::batch, 0}) != errc::invalid_argument) return 4;
  return 0;
}
