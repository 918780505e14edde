/// @file
/// @brief Utilisation estimation (Linux's util_est, 4.17+; the 6.8+ form): a task's expected
/// utilisation when it wakes, so that a task that sleeps between bursts is not judged by a
/// util_avg that decayed while it slept.
///
/// @par The problem
/// PELT's util_avg (smp/pelt.hpp) decays while a task sleeps: a thread that runs 16 ms every
/// 100 ms wakes with a util about a sixth of what it reaches by the end of its burst. Anything
/// that sizes the task at wakeup (which CPU it fits, which CPU costs least energy, which
/// frequency its CPU needs) then undersizes it, and it ramps up late.
///
/// @par The estimate
/// At each dequeue for sleep the task's util_avg (`dequeued`) updates an EWMA of such samples:
/// - an increase replaces the estimate at once (`ewma = dequeued`): the estimate smooths
///   decreases only;
/// - a decrease of less than 1 % of the capacity scale (10, UTIL_EST_MARGIN) leaves it;
/// - a sample above the capacity of the CPU it ran on is skipped (the task may not have had
///   the idle time to show its real size);
/// - a sample taken while the task waited for the CPU (`dequeued + 10 < runnable_avg`) is
///   skipped (it did not get all the CPU it wanted, so its util understates it);
/// - otherwise `ewma += (dequeued - ewma) / 4` (UTIL_EST_WEIGHT_SHIFT = 2: each sample weighs
///   1/4), computed as `((ewma << 2) - (ewma - dequeued)) >> 2`.
/// After an update the estimate is marked *unchanged* (UTIL_AVG_UNCHANGED); a dequeue finds it
/// still marked when util_avg was not refreshed since (no PELT period boundary crossed: too
/// short to be another sample) and skips. The caller clears the mark whenever PELT refreshes the
/// task's averages (`util_est_util_changed`, where pelt_update_entity returns true).
///
/// The task's estimate is then `max(util_avg, ewma)` (task_util_est); a CPU's is `max(its
/// util_avg, the sum of the EWMAs of the tasks queued on it)` (cpu_util with util_est: the
/// root queue's util_est sums `_task_util_est`, the EWMA alone, `util_est_value` here; the
/// caller keeps that sum).
///
/// @par Implementation notes
/// Integer only, one u32 per task, every function O(1) and noexcept. The 6.8+ form: one EWMA
/// (the 4.17-6.7 `enqueued` field and the UTIL_EST_FASTUP feature are folded into the reset on
/// increase). Not modelled: uclamp's clamp of the estimate.
#ifndef SCHEDCORE_SMP_UTIL_EST_HPP
#define SCHEDCORE_SMP_UTIL_EST_HPP

#include "schedcore/core/types.hpp"

namespace schedcore {

/// The mark of an estimate updated since the task's util_avg last changed (UTIL_AVG_UNCHANGED).
inline constexpr u32 util_est_unchanged = 0x80000000u;
/// A change below this (1 % of the capacity scale) does not move the estimate (UTIL_EST_MARGIN).
inline constexpr u32 util_est_margin = 1024 / 100;
/// Each sample weighs 1 / 2^shift (UTIL_EST_WEIGHT_SHIFT).
inline constexpr unsigned util_est_weight_shift = 2;

/// The estimate without its mark.
constexpr u32 util_est_value(u32 est) noexcept { return est & ~util_est_unchanged; }

/// PELT refreshed the task's averages: its next dequeue is another sample.
constexpr void util_est_util_changed(u32& est) noexcept { est &= ~util_est_unchanged; }

/// The task dequeues to sleep with `util_avg` and `runnable_avg` (its PELT signal, brought up
/// to now) from a CPU of `cpu_capacity`: updates the estimate as described in the file notes
/// (util_est_update with task_sleep).
constexpr void util_est_dequeue_sleep(u32& est, u32 util_avg, u32 runnable_avg, u32 cpu_capacity) noexcept {
  if ((est & util_est_unchanged) != 0) return;  // util_avg not refreshed since the last sample
  u32 ewma = est;
  const u32 dequeued = util_avg;
  if (ewma <= dequeued) {
    est = dequeued | util_est_unchanged;  // increases replace the estimate
    return;
  }
  const u32 drop = ewma - dequeued;
  if (drop < util_est_margin) {
    est = ewma | util_est_unchanged;
    return;
  }
  if (dequeued > cpu_capacity) return;  // no idle time to show its size: no sample, no mark
  if (static_cast<u64>(dequeued) + util_est_margin < runnable_avg) {
    est = ewma | util_est_unchanged;  // it waited: its util understates it
    return;
  }
  ewma = ((ewma << util_est_weight_shift) - drop) >> util_est_weight_shift;
  est = ewma | util_est_unchanged;
}

/// The task's expected utilisation: the larger of its util_avg and its estimate (task_util_est).
constexpr u32 task_util_est(u32 util_avg, u32 est) noexcept {
  const u32 e = util_est_value(est);
  return util_avg > e ? util_avg : e;
}

}  // namespace schedcore

#endif
