// A user's program: includes schedcore through the package, computes something with it.
#include <cstdio>

#include <schedcore/schedcore.hpp>

int main() {
  using namespace schedcore;
  const sched_time start{~0ull - 5};  // just below the wrap
  const sched_time later = start + msec(1);
  if (!(start < later) || later - start != msec(1)) return 1;
  if (ctz64(0x80) != 7) return 1;
  std::printf("consumer ok: schedcore %d.%d.%d\n", SCHEDCORE_VERSION_MAJOR, SCHEDCORE_VERSION_MINOR,
              SCHEDCORE_VERSION_PATCH);
  return 0;
}
