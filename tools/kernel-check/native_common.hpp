// What the kernel-check runners (interbench_native.cpp, hogs_native.cpp) share: clock reads and
// strict command-line integers. Hosted, Linux; never part of the library.
#ifndef SCHEDCORE_TOOLS_KERNEL_CHECK_NATIVE_COMMON_HPP
#define SCHEDCORE_TOOLS_KERNEL_CHECK_NATIVE_COMMON_HPP

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

}  // namespace kernel_check

#endif
