// What the kernel-check runners (interbench_native.cpp, hogs_native.cpp, slices_native.cpp)
// share: clock reads, absolute sleeps, CPU work counted as the kernel charges it, and strict
// command-line integers. Hosted, Linux; never part of the library.
#ifndef SCHEDCORE_TOOLS_KERNEL_CHECK_NATIVE_COMMON_HPP
#define SCHEDCORE_TOOLS_KERNEL_CHECK_NATIVE_COMMON_HPP

#include <sys/resource.h>
#include <time.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>

namespace kernel_check {

using i64 = std::int64_t;

/// `id`'s clock in ns. CLOCK_MONOTONIC is served by the vDSO (no system call, no accounting);
/// CLOCK_THREAD_CPUTIME_ID is a system call that makes the kernel account the caller first.
inline i64 clock_ns(clockid_t id) {
  timespec ts{};
  clock_gettime(id, &ts);
  return static_cast<i64>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

/// `s` as a whole decimal number in [lo, hi] into `out`; false (and `out` unchanged) for
/// anything else: empty, trailing characters, out of range.
inline bool parse_long(const char* s, long lo, long hi, long& out) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi) return false;
  out = v;
  return true;
}

inline i64 mono_ns() { return clock_ns(CLOCK_MONOTONIC); }

inline void sleep_until(i64 t) {
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(t / 1000000000);
  ts.tv_nsec = static_cast<long>(t % 1000000000);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
}

// CPU work as the model has it: `work` ns of this thread's time on the CPU. A preempted job
// takes longer in wall time but never does more work.
//
// Not a calibrated loop count, which is what interbench uses: on this kind of machine (a VM
// whose vCPUs share host cores) the CPU's speed is not constant. A count calibrated at start
// was measured to take from 0.64x to 1.62x its nominal CPU time from one 10 s run to the next,
// and single jobs from 0.45x to 2.3x within one, which moved Video's % desired CPU under Burn
// from 28 to 96 %: the load the jobs put on the scheduler was the machine's, not interbench's.
//
// Not a loop on the thread's CPU clock either: reading it (CLOCK_THREAD_CPUTIME_ID, a system
// call) makes the kernel account the running task on the spot (task_sched_runtime() ->
// update_curr()), which renews an expired EEVDF deadline and preempts the reader at its exact
// slice end instead of at the next tick: with reads in the loop the thread is scheduled unlike
// every other one (measured: 378 switches per second against 4 spinners instead of 250), and a
// single read at the end of a job preempts it just before it sleeps (Audio under Burn then
// read 2.2 ms of latency instead of 6-7).
//
// So the loop reads CLOCK_MONOTONIC, which the vDSO serves in user space (about 30 ns here, no
// system call, no accounting), and counts the time between consecutive reads as its own. A gap
// longer than kShortGap may be a preemption: the thread's context-switch counters
// (getrusage(RUSAGE_THREAD), which reads them without accounting the thread) tell, and a gap
// with a switch in it is not counted. A shorter gap, or a longer one without a switch (an
// interrupt, the host stalling the vCPU), is counted, as the kernel charges it to the running
// task too. Complexity: one clock read per ~30 ns of work, one system call per preemption.
constexpr i64 kShortGap = 20000;  // ns; far below a competitor's turn, above a read or a tick's interrupt

inline long context_switches() {
  rusage ru{};
  getrusage(RUSAGE_THREAD, &ru);
  return ru.ru_nvcsw + ru.ru_nivcsw;
}

inline void burn(i64 work) {
  long switches = context_switches();
  i64 done = 0;
  i64 prev = mono_ns();
  while (done < work) {
    const i64 now = mono_ns();
    const i64 gap = now - prev;
    prev = now;
    if (gap <= kShortGap) {
      done += gap;
      continue;
    }
    const long s = context_switches();
    if (s == switches) done += gap;  // no switch: still this thread's time in the kernel's books
    switches = s;
  }
}

}  // namespace kernel_check

#endif
