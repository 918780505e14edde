// hogs_native: N CPU hogs as real threads on the running Linux kernel, free to run on every
// CPU this process may use, so that tools/kernel_check.sh can compare the kernel's load
// balancing with schedsim's: N + 1 equal hogs on N CPUs is the case a balancer can only make
// fair over time, by rotating them (engine.hpp, machine_model::balance_failed).
//
//   hogs_native [--duration S] N
//
// Output: one line per hog, "hog-I <CPU share %> <migrations>", then "jain <index>". The share
// is the thread's CPU clock over the run's wall time (read once, at its end, so that reading
// it does not change how it is scheduled); a migration is a change of the CPU the thread
// finds itself on (sched_getcpu(), which the vDSO answers without a system call), sampled
// once per millisecond of its own spinning, so a move that is undone within a millisecond is
// not seen. Exit status 2 with a message for bad usage.
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include "native_common.hpp"

namespace {

using kernel_check::clock_ns;
using kernel_check::i64;
using kernel_check::parse_long;

std::atomic<bool> stop_all{false};

struct hog_result {
  i64 cpu_ns = 0;
  long migrations = 0;
};

void hog(hog_result& out) {
  int where = sched_getcpu();
  i64 next_sample = clock_ns(CLOCK_MONOTONIC) + 1000000;
  while (!stop_all.load(std::memory_order_relaxed)) {
    const i64 now = clock_ns(CLOCK_MONOTONIC);  // vDSO: no system call, no accounting
    if (now < next_sample) continue;
    next_sample = now + 1000000;
    const int c = sched_getcpu();
    if (c != where) {
      ++out.migrations;
      where = c;
    }
  }
  out.cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

int usage(const char* why) {
  std::fprintf(stderr, "hogs_native: %s\nusage: hogs_native [--duration S] N   (N hogs, 1..256; S seconds, 1..3600)\n",
               why);
  return 2;
}


}  // namespace

int main(int argc, char** argv) {
  long duration = 20, n = -1;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (a[0] == '-' && a[1] == '-') {
      if (std::strcmp(a, "--duration") != 0) return usage("unknown option");
      if (i + 1 >= argc || !parse_long(argv[++i], 1, 3600, duration)) return usage("--duration takes whole seconds in [1, 3600]");
    } else if (n < 0) {
      if (!parse_long(a, 1, 256, n)) return usage("N takes a hog count in [1, 256]");
    } else {
      return usage("expected one N");
    }
  }
  if (n < 0) return usage("expected N");
  std::vector<hog_result> results(static_cast<std::size_t>(n));
  std::vector<std::thread> threads;
  const i64 t0 = clock_ns(CLOCK_MONOTONIC);
  for (auto& r : results) threads.emplace_back(hog, std::ref(r));
  const timespec d{static_cast<time_t>(duration), 0};
  while (nanosleep(&d, nullptr) == -1 && errno == EINTR) {
  }
  stop_all.store(true);
  for (auto& t : threads) t.join();
  const double wall = static_cast<double>(clock_ns(CLOCK_MONOTONIC) - t0);
  double sum = 0, sq = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const double share = 100.0 * static_cast<double>(results[i].cpu_ns) / wall;
    sum += share;
    sq += share * share;
    std::printf("hog-%zu %6.1f %6ld\n", i, share, results[i].migrations);
  }
  std::printf("jain %.3f\n", sq > 0 ? sum * sum / (static_cast<double>(n) * sq) : 1.0);
  return 0;
}
