// quickstart: the smallest tour of schedcore's core layer. Prints what wrap-safe time and the
// bit scans do at the edges that matter to a scheduler (a clock about to wrap, an empty word is
// never scanned). Grows into a run-queue tour as containers and policies land.
#include <cstdio>

#include <schedcore/schedcore.hpp>

int main() {
  using namespace schedcore;
  const sched_time just_before_wrap{~0ull - msec(1) + 1};
  const sched_time after_wrap = just_before_wrap + msec(2);
  std::printf("clock %llu + 2 ms = %llu; ordered: %s, distance %lld ns\n",
              static_cast<unsigned long long>(just_before_wrap.ns()),
              static_cast<unsigned long long>(after_wrap.ns()),
              just_before_wrap < after_wrap ? "yes" : "NO",
              static_cast<long long>(after_wrap - just_before_wrap));
  const u64 ready = bit64(5) | bit64(42);
  std::printf("most urgent of {5, 42}: %u; least urgent: %u\n", lowest_set_bit(ready), highest_set_bit(ready));
  return 0;
}
