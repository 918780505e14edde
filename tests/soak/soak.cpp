// Soak (issue 9, part 5): 10^9 scheduling events through every policy, each stacked under
// rt_policy in a class_stack, driven by the policies fuzz harness (tests/fuzz/policies_fuzz.cpp)
// from an endless pseudo-random stream instead of a fuzz input. Every event is one harness op
// (tick, fork, wakeup, sleep, yield, nice/class change, migration, exit, class timer, drain),
// after which the harness checks conservation (the stack's and each class's nr_runnable equal
// the model's counts, pick_next returns a runnable task), verify() of every class and that no
// schedcore check fired; each run ends with a full drain (every runnable task comes out of the
// policy exactly once). Memory must stay flat: RSS (/proc/self/statm) is sampled before and
// after, and after each policy.
//
//   soak [EVENTS] [SEED]     (default 10^9 events, split evenly over the policies)
//
// Registered with ctest only when SCHEDCORE_SOAK_TESTS=ON (label `soak`); see tests/soak/CMakeLists.txt.
#define SCHEDCORE_FUZZ_NO_ENTRY 1
#include "policies_fuzz.cpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace {

long rss_kib() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * 4;  // 4 KiB pages on every soak host (x86-64, arm64 Linux)
}

// One harness instance per chunk of events: tasks are created, forked, exited and drained many
// times inside a chunk; a fresh policy object per chunk also exercises construction.
template <class Use>
unsigned long soak_policy(const char* name, unsigned long events, std::uint64_t seed) {
  constexpr unsigned long chunk = 1ul << 20;
  unsigned long done = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (std::uint64_t round = 0; done < events; ++round) {
    const unsigned long n = events - done < chunk ? events - done : chunk;
    reader in(seed ^ (round * 0x9e3779b97f4a7c15ull));
    fuzz::op_index() = 0;
    fuzz::checks() = fuzz::check_log{};
    harness<Use> h(in);
    h.run(n, 63);  // conservation after every event, verify() every 64th and at every drain step
    done += fuzz::op_index();
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("  %-10s %12lu events %8.2f s %8.2f M events/s  rss %ld KiB\n", name, done, s, static_cast<double>(done) / s / 1e6,
              rss_kib());
  std::fflush(stdout);
  return done;
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned long total = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1000000000ul;
  const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 20240509u;
  constexpr unsigned nr = 11;
  const unsigned long per = total / nr;
  const long rss0 = rss_kib();
  std::printf("soak: %lu events over %u policies (seed %llu), rss at start %ld KiB\n", total, nr,
              static_cast<unsigned long long>(seed), rss0);
  const auto t0 = std::chrono::steady_clock::now();
  unsigned long events = 0;
  long rss_after_first = 0;
  events += soak_policy<use_o1>("o1", per, seed + 1);
  rss_after_first = rss_kib();
  events += soak_policy<use_sd>("sd", per, seed + 2);
  events += soak_policy<use_goodness24>("goodness24", per, seed + 3);
  events += soak_policy<use_nicksched>("nicksched", per, seed + 4);
  events += soak_policy<use_eevdf>("eevdf", per, seed + 5);
  events += soak_policy<use_bfs>("bfs", per, seed + 6);
  events += soak_policy<use_edf>("edf", per, seed + 7);
  events += soak_policy<use_cfs>("cfs", per, seed + 8);
  events += soak_policy<use_cfs2007>("cfs2007", per, seed + 9);
  events += soak_policy<use_grouped_eevdf>("eevdf in task groups", per, seed + 10);
  events += soak_policy<use_grouped_cfs>("cfs in task groups", total - 10 * per, seed + 11);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const long rss1 = rss_kib();
  std::printf("soak: %lu events in %.1f s (%.2f M events/s); rss %ld KiB at start, %ld after the first policy, "
              "%ld at the end\n",
              events, s, static_cast<double>(events) / s / 1e6, rss0, rss_after_first, rss1);
  // Flat memory: nothing may grow with the number of events (the harness and the policies
  // allocate nothing per event); allow 1 MiB of allocator and stdio noise.
  if (rss1 - rss_after_first > 1024) {
    std::printf("FAIL: RSS grew by %ld KiB during the soak\n", rss1 - rss_after_first);
    return 1;
  }
  if (events < total) {
    std::printf("FAIL: only %lu of %lu events ran\n", events, total);
    return 1;
  }
  std::printf("ok\n");
  return 0;
}
