// slices_native: the eevdf-slices experiment (scenarios.hpp eevdf_slices(), the PREEMPT_SHORT
// commit's "massive_intr at a 100 ms slice, cyclictest at 500 us") as real threads on the running
// Linux kernel, with the slices requested the way rt-app and cyclictest users do, through
// sched_setattr(2)'s sched_runtime on SCHED_OTHER threads (Linux 6.12+), so that
// tools/kernel_check.sh can compare the kernel's delays with schedsim's.
//
//   slices_native [--duration S] [--intr N] [--cyclic N] [--intr-slice US] [--cyclic-slice US]
//                 [--stagger US]
//
// Defaults: 30 s, 5 intr threads with 100000 us, 5 cyclictest threads with 500 us, stagger 0. A
// slice of 0 asks for none (the base slice), which is the experiment's control. The threads run
// unpinned, on every CPU this process may use (the model is given the same CPU count).
// - intr-I: massive_intr's loop, "work 8 ms, sleep 1 ms" (CPU work as burn() counts it).
// - cyclic-I: cyclictest's loop at its default intervals, 1000 us + 500 us x I (`-d 500`):
//   an absolute CLOCK_MONOTONIC sleep to the next period, then 10 us of work. Timer slack 1 ns.
//   Its grid is start + I x stagger + k x interval, "start" being the common start (a late job
//   runs at once, catching up: schedsim's absolute timer). With stagger 0 the threads' grids
//   are as far apart as their first reads of the clock after the start, a few us, and vary from
//   run to run; a stagger of 25 us or more fixes their phases (schedsim's eevdf-slices:S=US).
// All threads are created first and start together; the main thread sleeps.
//
// Output, two lines, from the kernel's own books (/proc/thread-self/schedstat: run_delay, the
// time runnable but waiting, and pcount, the times it was put on a CPU; the thread's context
// switch counters):
//   cyclictest <times run> <avg delay ms> <delay sum s> <max wakeup latency ms> <cpu per run us>
//   intr <switches> <delay sum s> <cpu %>
// "avg delay" is run_delay / pcount, as perf sched latency's "Avg delay"; the wakeup latency is
// the time from each timer expiry to the thread running again (what cyclictest reports; it
// includes the timer's own expiry latency). "cpu per run" is the CPU time the kernel charged a
// cyclictest thread per time run: the 10 us of work plus the system calls and wakeup path
// around it (schedsim's eevdf-slices:J=US). Exit status 2 with a message for bad usage, 1 when
// the kernel refuses sched_setattr (before 6.12 a SCHED_OTHER runtime is refused or ignored).
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "native_common.hpp"

namespace {

using kernel_check::burn;
using kernel_check::clock_ns;
using kernel_check::context_switches;
using kernel_check::i64;
using kernel_check::mono_ns;
using kernel_check::parse_long;
using kernel_check::sleep_until;
constexpr i64 kUs = 1000;       // ns
constexpr i64 kMs = 1000 * kUs;  // ns

// struct sched_attr (include/uapi/linux/sched/types.h, SCHED_ATTR_SIZE_VER1): glibc 2.36 has
// no wrapper, so the system call is made directly.
struct sched_attr_v1 {
  std::uint32_t size;
  std::uint32_t sched_policy;
  std::uint64_t sched_flags;
  std::int32_t sched_nice;
  std::uint32_t sched_priority;
  std::uint64_t sched_runtime;
  std::uint64_t sched_deadline;
  std::uint64_t sched_period;
  std::uint32_t sched_util_min;
  std::uint32_t sched_util_max;
};

// SCHED_OTHER at nice 0 with `slice` ns as its custom slice. False if refused. 0 makes no
// system call: the thread keeps the policy it inherited (SCHED_OTHER, no custom slice, when
// started from a shell), so the control runs on any kernel.
bool set_slice(i64 slice) {
  if (slice == 0) return true;
  sched_attr_v1 a{};
  a.size = sizeof a;
  a.sched_policy = 0;  // SCHED_OTHER
  a.sched_runtime = static_cast<std::uint64_t>(slice);
  return syscall(SYS_sched_setattr, 0, &a, 0) == 0;
}

struct thread_books {
  i64 run_delay = 0;   // ns runnable but not running (schedstat field 2)
  i64 pcount = 0;      // times put on a CPU (schedstat field 3)
  i64 cpu = 0;         // ns on a CPU (schedstat field 1)
  long switches = 0;   // voluntary + involuntary context switches
  i64 max_latency = 0; // cyclictest: longest expiry-to-running, ns
  bool refused = false;
};

void read_books(thread_books& b) {
  if (FILE* f = std::fopen("/proc/thread-self/schedstat", "r")) {
    long long cpu = 0, delay = 0, count = 0;
    if (std::fscanf(f, "%lld %lld %lld", &cpu, &delay, &count) == 3) {
      b.cpu = cpu;
      b.run_delay = delay;
      b.pcount = count;
    }
    std::fclose(f);
  }
  b.switches = context_switches();
}

std::atomic<int> ready{0};
std::atomic<bool> go{false}, stop_all{false};

void start(const char* comm, i64 slice, thread_books& b) {
  prctl(PR_SET_NAME, comm, 0, 0, 0);
  prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
  b.refused = !set_slice(slice);
  ready.fetch_add(1);
  while (!go.load()) std::this_thread::yield();
}

void intr(int i, i64 slice, thread_books& b) {
  char comm[16];
  std::snprintf(comm, sizeof comm, "intr-%d", i);
  start(comm, slice, b);
  while (!stop_all.load(std::memory_order_relaxed)) {
    burn(8 * kMs);
    sleep_until(mono_ns() + kMs);
  }
  read_books(b);
}

i64 start_ns = 0;  // the common start, CLOCK_MONOTONIC ns (written before `go`)

void cyclic(int i, i64 slice, i64 stagger, thread_books& b) {
  char comm[16];
  std::snprintf(comm, sizeof comm, "cyclic-%d", i);
  start(comm, slice, b);
  const i64 interval = 1000 * kUs + 500 * kUs * i;
  i64 next = (stagger > 0 ? start_ns + stagger * i : mono_ns()) + interval;
  while (!stop_all.load(std::memory_order_relaxed)) {
    sleep_until(next);
    const i64 late = mono_ns() - next;
    if (late > b.max_latency) b.max_latency = late;
    burn(10 * kUs);
    next += interval;
  }
  read_books(b);
}

int usage(const char* why) {
  std::fprintf(stderr,
               "slices_native: %s\n"
               "usage: slices_native [--duration S] [--intr N] [--cyclic N] [--intr-slice US] [--cyclic-slice US]\n"
               "                     [--stagger US]\n"
               "       S 1..3600 s; N 0..64 threads; slices 0 (none) or 100..100000 us; stagger 0..10000 us\n",
               why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  long duration = 30, n_intr = 5, n_cyclic = 5, intr_slice = 100000, cyclic_slice = 500, stagger = 0;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    auto value = [&](long lo, long hi, long& out) { return i + 1 < argc && parse_long(argv[++i], lo, hi, out); };
    auto slice = [&](long& out) { return value(0, 100000, out) && (out == 0 || out >= 100); };
    if (std::strcmp(a, "--duration") == 0) {
      if (!value(1, 3600, duration)) return usage("--duration takes whole seconds in [1, 3600]");
    } else if (std::strcmp(a, "--intr") == 0) {
      if (!value(0, 64, n_intr)) return usage("--intr takes a thread count in [0, 64]");
    } else if (std::strcmp(a, "--cyclic") == 0) {
      if (!value(0, 64, n_cyclic)) return usage("--cyclic takes a thread count in [0, 64]");
    } else if (std::strcmp(a, "--intr-slice") == 0) {
      if (!slice(intr_slice)) return usage("--intr-slice takes 0 or microseconds in [100, 100000] (the kernel's clamp)");
    } else if (std::strcmp(a, "--cyclic-slice") == 0) {
      if (!slice(cyclic_slice)) return usage("--cyclic-slice takes 0 or microseconds in [100, 100000] (the kernel's clamp)");
    } else if (std::strcmp(a, "--stagger") == 0) {
      if (!value(0, 10000, stagger)) return usage("--stagger takes microseconds in [0, 10000]");
    } else {
      return usage("unknown argument");
    }
  }
  std::vector<thread_books> ib(static_cast<std::size_t>(n_intr)), cb(static_cast<std::size_t>(n_cyclic));
  std::vector<std::thread> threads;
  for (int i = 0; i < n_intr; ++i) threads.emplace_back(intr, i, intr_slice * kUs, std::ref(ib[static_cast<std::size_t>(i)]));
  for (int i = 0; i < n_cyclic; ++i)
    threads.emplace_back(cyclic, i, cyclic_slice * kUs, stagger * kUs, std::ref(cb[static_cast<std::size_t>(i)]));
  while (ready.load() < n_intr + n_cyclic) std::this_thread::yield();
  start_ns = mono_ns();
  go.store(true);
  const i64 t0 = start_ns;
  sleep_until(t0 + duration * 1000 * kMs);
  stop_all.store(true);
  const i64 wall = mono_ns() - t0;
  for (auto& t : threads) t.join();
  bool refused = false;
  i64 c_delay = 0, c_count = 0, c_max = 0, c_cpu = 0, i_delay = 0, i_cpu = 0;
  long i_switches = 0;
  for (const auto& b : cb) {
    refused = refused || b.refused;
    c_delay += b.run_delay;
    c_count += b.pcount;
    c_cpu += b.cpu;
    if (b.max_latency > c_max) c_max = b.max_latency;
  }
  for (const auto& b : ib) {
    refused = refused || b.refused;
    i_delay += b.run_delay;
    i_cpu += b.cpu;
    i_switches += b.switches;
  }
  if (refused) {
    std::fprintf(stderr, "slices_native: sched_setattr refused a SCHED_OTHER runtime (%s): custom slices need Linux 6.12+\n",
                 std::strerror(errno));
    return 1;
  }
  std::printf("cyclictest %" PRId64 " %.3f %.3f %.2f %.1f\n", c_count,
              c_count > 0 ? static_cast<double>(c_delay) / static_cast<double>(c_count) / 1e6 : 0.0,
              static_cast<double>(c_delay) / 1e9, static_cast<double>(c_max) / 1e6,
              c_count > 0 ? static_cast<double>(c_cpu) / static_cast<double>(c_count) / 1e3 : 0.0);
  std::printf("intr %ld %.3f %.1f\n", i_switches, static_cast<double>(i_delay) / 1e9,
              100.0 * static_cast<double>(i_cpu) / static_cast<double>(wall > 0 ? wall : 1));
  return 0;
}
