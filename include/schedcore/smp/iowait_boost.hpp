/// @file
/// @brief schedutil's I/O-wait boost (Linux 4.13+ form, unchanged in 6.x): a CPU where tasks
/// keep waking from I/O waits is given a temporary utilisation floor that doubles with each
/// such wakeup and halves with each frequency evaluation that sees none, so that an I/O-bound
/// task, whose util stays small because it mostly waits, still gets a high frequency for the
/// short bursts between its requests.
///
/// @par The rules (kernel/sched/cpufreq_schedutil.c: sugov_iowait_boost, sugov_iowait_apply,
/// sugov_iowait_reset)
/// Per CPU, a boost on the capacity scale (0 or 128..1024) and a "pending" flag:
/// - every utilisation-update hook on the CPU (an enqueue, a tick ...) calls request(), with
///   `iowait` true when the update is a wakeup from an I/O wait (SCHED_CPUFREQ_IOWAIT):
///   - if a boost is held and more than one tick has passed since the CPU's last update, the
///     boost is reset: to the minimum (128, IOWAIT_BOOST_MIN = 1024 / 8) and pending for an
///     I/O wakeup, to 0 otherwise, and nothing else happens;
///   - otherwise an I/O wakeup that is not already pending sets pending and doubles the boost
///     (at most 1024), or starts it at the minimum;
///   - the hook's time becomes the CPU's last update;
/// - every frequency evaluation calls apply() for each CPU of the policy: a boost held past a
///   tick without an update is reset (as above, not pending); a boost not pending is halved
///   (and dropped below the minimum); pending is cleared; the result, scaled to the CPU's
///   capacity, is a floor under the CPU's utilisation for this evaluation (`max(util, boost)`,
///   before uclamp and the 25 % headroom).
/// So consecutive I/O wakeups within a tick of each other climb 128, 256, 512, 1024, and
/// without them the boost halves at each evaluation: a CPU with an I/O-bound task reaches the
/// top frequency within four wakeups and falls back within four evaluations.
///
/// @par Implementation notes
/// Freestanding, integer only, every function O(1) and noexcept. Times are ns on any monotonic
/// clock; differences are taken as signed 64-bit (wrap-safe). The caller owns one
/// `iowait_boost` per CPU and calls request() from its update hook and apply() when it
/// evaluates a frequency. Not modelled here: which sleeps count as I/O waits (the kernel's
/// `in_iowait`, set by io_schedule()); that is the caller's flag.
#ifndef SCHEDCORE_SMP_IOWAIT_BOOST_HPP
#define SCHEDCORE_SMP_IOWAIT_BOOST_HPP

#include "schedcore/core/types.hpp"
#include "schedcore/smp/capacity.hpp"

namespace schedcore {

/// The smallest boost, and the first one after an idle spell (IOWAIT_BOOST_MIN: 1024 / 8).
inline constexpr u32 iowait_boost_min = cpu_capacity_max / 8;

/// One CPU's I/O-wait boost state (the kernel's sugov_cpu iowait fields).
struct iowait_boost {
  u32 boost = 0;          ///< 0, or 128..1024 on the capacity scale
  bool pending = false;   ///< an I/O wakeup was counted since the last apply()
  u64 last_update = 0;    ///< ns of the CPU's last update hook
};

/// Resets a boost held more than `tick_ns` after the CPU's last update (sugov_iowait_reset):
/// to the minimum and pending when `iowait`, to 0 otherwise. @return whether it reset.
constexpr bool iowait_boost_reset(iowait_boost& s, u64 now_ns, u64 tick_ns, bool iowait) noexcept {
  const s64 since = static_cast<s64>(now_ns - s.last_update);
  if (since <= static_cast<s64>(tick_ns)) return false;
  s.boost = iowait ? iowait_boost_min : 0;
  s.pending = iowait;
  return true;
}

/// The CPU's update hook at `now_ns` (sugov_iowait_boost, then last_update = now): `iowait`
/// when the update is a wakeup from an I/O wait. `tick_ns` is the tick period (TICK_NSEC).
constexpr void iowait_boost_request(iowait_boost& s, u64 now_ns, u64 tick_ns, bool iowait) noexcept {
  const bool reset = s.boost != 0 && iowait_boost_reset(s, now_ns, tick_ns, iowait);
  if (!reset && iowait && !s.pending) {
    s.pending = true;
    if (s.boost != 0) {
      const u32 doubled = s.boost << 1;
      s.boost = doubled < cpu_capacity_max ? doubled : cpu_capacity_max;
    } else {
      s.boost = iowait_boost_min;
    }
  }
  s.last_update = now_ns;
}

/// A frequency evaluation at `now_ns` that includes this CPU (sugov_iowait_apply): decays or
/// resets the boost as described in the file notes and returns it scaled to the CPU's
/// `capacity` (`boost x capacity / 1024`), 0 when none: the floor under the CPU's utilisation.
constexpr u32 iowait_boost_apply(iowait_boost& s, u64 now_ns, u64 tick_ns, u32 capacity) noexcept {
  if (s.boost == 0) return 0;
  if (iowait_boost_reset(s, now_ns, tick_ns, false)) return 0;
  if (!s.pending) {
    s.boost >>= 1;
    if (s.boost < iowait_boost_min) {
      s.boost = 0;
      return 0;
    }
  }
  s.pending = false;
  return static_cast<u32>((static_cast<u64>(s.boost) * capacity) >> 10);
}

}  // namespace schedcore

#endif
