/// @file
/// @brief `sim::interbench_job`: the bookkeeping of interbench's job steps (periodic_schedule()
/// and the Gaming chunk, interbench.md §2 and §4) on a clock the caller supplies.
///
/// @par Why a separate header
/// The same steps run on two clocks: the simulator's (engine.hpp, simulated ns) and a real
/// kernel's (tools/kernel-check/interbench_native.cpp, CLOCK_MONOTONIC ns). Keeping the rules in
/// one place means the two can only differ in what the scheduler under them did, which is what
/// the kernel check compares.
///
/// @par Protocol
/// A periodic step (Audio, Video, X): the task is awake at `now`; `begin_step(now, interval,
/// pushback)` either drops the job (the result is the time to sleep until, always > now) or
/// returns `burn`, in which case the caller does the job's CPU work and then calls
/// `finish(now)`, which returns the time to sleep until or `no_sleep`. A Gaming chunk:
/// `begin_chunk(now, work)`, the work, `finish(now)` (never sleeps). Units are whatever the
/// clock's are (ns in both users); only differences of times are used.
///
/// @par Rules (interbench.md §2)
/// - Latency of a step = max(0, wake − target), target being the `deadline` argument of
///   interbench's periodic_schedule(): the previous step's deadline plus its push-back.
/// - Woken past target + interval: the job is dropped; k = (now − (target + interval)) /
///   interval + 1 deadlines and burns are missed, k·interval joins the sample, and the task
///   sleeps until the next deadline not yet passed.
/// - Otherwise the deadline q = target + interval is met if the work ended by it; if not, k =
///   (end − q) / interval + 1 deadlines are missed, k·interval joins the sample, q advances by
///   k·interval, and the burns counter grows by k only when k > 1. An interval of 0 (X's 100 %
///   step) counts no deadline when late and does not sleep.
/// - The task then sleeps until q, not until q + push-back: that is X's early wake.
/// - Gaming: lateness = end − (start + work); the achieved counter grows by the work and the
///   missed counter by the lateness (both in time units, so % desired CPU = work / wall time).
#ifndef SCHEDCORE_SIM_INTERBENCH_JOB_HPP
#define SCHEDCORE_SIM_INTERBENCH_JOB_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "schedcore/sim/metrics.hpp"

namespace schedcore {
namespace sim {

/// One benchmarked task's interbench job state and statistics.
struct interbench_job {
  /// `begin_step` / `finish` result: do not sleep (burn now, or the step ended without a sleep).
  static constexpr std::int64_t no_sleep = std::numeric_limits<std::int64_t>::min();
  /// `begin_step` result: the job is not dropped; do its work, then call `finish`.
  static constexpr std::int64_t burn = no_sleep;

  // --- state of the step in progress
  std::int64_t target = -1;    ///< the `deadline` argument of the current step (-1: first step)
  std::int64_t lat = 0;        ///< latency of the step in progress
  std::int64_t period = 0;     ///< its interval (0: X's last step)
  std::int64_t pushback = 0;   ///< added to the next step's target here (X: i ms); the returned wake time excludes it
  std::int64_t chunk = 0;      ///< Gaming: the chunk's work
  bool gaming = false;         ///< the step in progress is a Gaming chunk

  // --- statistics (cleared by clear_statistics(), e.g. at the end of a warm-up)
  std::vector<std::int64_t> samples;     ///< latency per step, including whole-period penalties
  std::uint64_t burns_done = 0;          ///< achieved burns (Gaming: work, in time units)
  std::uint64_t burns_missed = 0;        ///< missed burns (Gaming: lateness, in time units)
  std::uint64_t deadlines_met = 0;       ///< periodic deadlines met
  std::uint64_t deadlines_missed = 0;    ///< periodic deadlines missed (whole periods)

  /// A Gaming chunk of `work` starts at `now`.
  void begin_chunk(std::int64_t now, std::int64_t work) {
    gaming = true;
    target = now + work;
    chunk = work;
    period = 0;
    pushback = 0;
  }

  /// A periodic step starts: the task is awake at `now`. Returns `burn`, or (a dropped job)
  /// the time to sleep until, which is later than `now`.
  std::int64_t begin_step(std::int64_t now, std::int64_t interval, std::int64_t push) {
    gaming = false;
    if (target < 0) target = now;
    const std::int64_t I = interval;
    std::int64_t l = std::max<std::int64_t>(0, now - target);
    if (I > 0 && now > target + I) {  // dropped: missed before it could burn
      std::int64_t q = target + I;
      const std::int64_t k = (now - q) / I + 1;
      deadlines_missed += static_cast<std::uint64_t>(k);
      burns_missed += static_cast<std::uint64_t>(k);
      l += k * I;
      q += k * I;
      samples.push_back(l);
      target = q + push;  // interbench's caller does `deadline += pushback`; done here
      return q;           // q > now by the choice of k
    }
    lat = l;
    period = I;
    pushback = push;
    return burn;
  }

  /// The work of the step in progress ended at `now`. Returns the time to sleep until, or
  /// `no_sleep`.
  std::int64_t finish(std::int64_t now) {
    if (gaming) {
      const std::int64_t late = std::max<std::int64_t>(0, now - target);
      burns_done += static_cast<std::uint64_t>(chunk);
      burns_missed += static_cast<std::uint64_t>(late);
      samples.push_back(late);
      return no_sleep;
    }
    const std::int64_t I = period;
    std::int64_t l = lat;
    ++burns_done;
    std::int64_t q = target + I;
    if (q >= now) {
      ++deadlines_met;
    } else if (I > 0) {
      const std::int64_t k = (now - q) / I + 1;
      deadlines_missed += static_cast<std::uint64_t>(k);
      l += k * I;
      q += k * I;
      if (k > 1) burns_missed += static_cast<std::uint64_t>(k);
    } else {
      q = now;
    }
    samples.push_back(l);
    target = q + pushback;
    return q > now ? q : no_sleep;
  }

  /// Forgets the statistics, keeps the step state (a warm-up's end).
  void clear_statistics() {
    samples.clear();
    burns_done = burns_missed = deadlines_met = deadlines_missed = 0;
  }

  /// interbench's table row (interbench.md §4). `ns_per_ms` converts the clock's unit to ms.
  job_summary summary(double ns_per_ms = 1e6) const {
    job_summary j;
    j.samples = samples.size();
    if (j.samples > 0) {
      long double sum = 0, sq = 0;
      std::int64_t mx = 0;
      for (std::int64_t v : samples) {
        sum += v;
        sq += static_cast<long double>(v) * v;
        mx = std::max(mx, v);
      }
      const long double n = static_cast<long double>(j.samples);
      const long double mean = sum / n;
      j.avg_ms = static_cast<double>(mean / ns_per_ms);
      // interbench's "SD" exactly as its show_latencies() computes it (interbench.md §4):
      // sqrt((Σx² − mean²/n) / (n − 1)), in effect the root mean square; 0 for one sample.
      j.rms_ms = static_cast<double>((j.samples > 1 ? std::sqrt((sq - mean * mean / n) / (n - 1)) : 0.0L) / ns_per_ms);
      long double var = 0;
      for (std::int64_t v : samples) var += (v - mean) * (v - mean);
      j.sd_ms = static_cast<double>(std::sqrt(var / n) / ns_per_ms);
      j.max_ms = static_cast<double>(mx) / ns_per_ms;
    }
    const double a = static_cast<double>(burns_done), m = static_cast<double>(burns_missed);
    j.desired_cpu_pct = a + m > 0 ? 100.0 * a / (a + m) : 0;
    const double dm = static_cast<double>(deadlines_met), dx = static_cast<double>(deadlines_missed);
    j.deadlines_met_pct = deadlines_met > 0 ? 100.0 * dm / (dm + dx) : 0;
    return j;
  }
};

}  // namespace sim
}  // namespace schedcore

#endif
