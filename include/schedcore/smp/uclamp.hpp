/// @file
/// @brief Utilisation clamping (Linux's uclamp, 5.3+; the 6.x rules): per-task hints that
/// raise (`min`) or cap (`max`) the utilisation the scheduler and the frequency governor see,
/// and the per-CPU aggregation that turns the hints of the runnable tasks into one clamp pair.
///
/// @par What a clamp does
/// A task asks for `util_min` (a boost: "treat me as at least this big", for a UI thread that
/// must finish a frame quickly although its average is small) and `util_max` (a cap: "never
/// treat me as bigger than this", for a background job that should not raise the frequency or
/// move to a big CPU), both on the capacity scale 0..1024. Defaults: min 0, max 1024, except
/// that a real-time task's min defaults to sysctl_sched_uclamp_util_min_rt_default (1024: RT
/// tasks run at the top frequency unless told otherwise). Only the fair and RT classes take
/// part (their sched_class::uclamp_enabled); deadline tasks have their bandwidth instead.
///
/// @par Effective value (uclamp_eff_get)
/// The request is first restricted to the task group's range `[group_min, group_max]`
/// (cpu.uclamp.min / cpu.uclamp.max), then capped by the system-wide limit
/// (sysctl_sched_uclamp_util_min / _max, both 1024 by default): uclamp_effective().
///
/// @par Per-CPU aggregation (uclamp_rq: the kernel's rq->uclamp[] buckets)
/// A CPU's clamp is the *maximum* over its runnable tasks, per clamp id: the most boosted task
/// sets the boost, the least capped one sets the cap. To keep enqueue and dequeue O(1) the
/// values 0..1024 are grouped into `Buckets` buckets (CONFIG_UCLAMP_BUCKETS_COUNT, 5..20,
/// default 5) of width `round(1024 / Buckets)` (205 for 5); the last bucket also takes the
/// remainder up to 1024. Each bucket counts its tasks and keeps the largest value of the
/// tasks that joined it since it was last empty ("local max aggregation": a bucket may keep
/// boosting with the value of a task that has left, until the bucket empties). The CPU's value:
/// - rises at once when a task with a larger value is enqueued;
/// - when a dequeue empties the bucket that set it, falls to the value of the highest bucket
///   that still has tasks;
/// - with no task left: `min` falls to 0, `max` *keeps* the last task's value and the CPU is
///   marked idle (UCLAMP_FLAG_IDLE), so that the blocked utilisation of an idle CPU is not
///   suddenly uncapped; the next enqueue replaces both values with that task's.
///
/// @par Applying the clamps (uclamp_rq_util_with)
/// A utilisation `u` on a CPU becomes `clamp(u, rq_min, rq_max)`; when a task is about to be
/// placed there its own effective clamps are max-aggregated in first (on an idle CPU, only
/// the task's count). When the aggregated min exceeds the aggregated max (tasks with
/// different clamps), the min wins. The fit test with clamps, util_fits_cpu(), is in
/// smp/capacity.hpp.
///
/// @par Implementation notes
/// Freestanding, integer only, no heap: the aggregation is a fixed array of `2 x Buckets`
/// counters in the run queue, the task's side two small records (`uclamp_task`). enqueue()
/// and dequeue() are O(1) except the dequeue that empties the top bucket (O(Buckets)).
/// Misuse (a second enqueue of an active task, a dequeue of an inactive one, a value above
/// 1024) is refused without change (SCHEDCORE_MISUSE). Not modelled here: the cgroup
/// hierarchy's own min/max propagation (the caller passes the group's effective range) and
/// the sched_setattr flags (SCHED_FLAG_UTIL_CLAMP_RESET); uclamp_check_request() gives the
/// syscall's validation.
#ifndef SCHEDCORE_SMP_UCLAMP_HPP
#define SCHEDCORE_SMP_UCLAMP_HPP

#include "schedcore/core/assert.hpp"
#include "schedcore/core/errc.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/smp/capacity.hpp"

namespace schedcore {

/// Which of the two clamps.
enum class uclamp_id : u8 {
  min = 0,  ///< the boost (UCLAMP_MIN)
  max = 1,  ///< the cap (UCLAMP_MAX)
};

/// The kernel's default number of buckets (CONFIG_UCLAMP_BUCKETS_COUNT).
inline constexpr u32 uclamp_buckets_default = 5;

/// Width of one bucket, capacity units: 1024 / buckets rounded to nearest (205 for 5, 51 for 20).
constexpr u32 uclamp_bucket_delta(u32 buckets) noexcept { return (cpu_capacity_max + buckets / 2) / buckets; }

/// The bucket a clamp value falls in: `value / delta`, the last bucket taking the rest
/// (with 5 buckets: 0..204 -> 0, 205..409 -> 1, ..., 820..1024 -> 4).
constexpr u32 uclamp_bucket_id(u32 value, u32 buckets) noexcept {
  const u32 id = value / uclamp_bucket_delta(buckets);
  return id < buckets - 1 ? id : buckets - 1;
}

/// The validation sched_setattr applies to a clamp request: each value in 0..1024
/// (`invalid_argument` otherwise) and min <= max (`inverted` otherwise). Pass the value in
/// force for a clamp the request leaves unchanged.
constexpr errc uclamp_check_request(u32 util_min, u32 util_max) noexcept {
  if (util_min > cpu_capacity_max || util_max > cpu_capacity_max) return errc::invalid_argument;
  if (util_min > util_max) return errc::inverted;
  return errc::ok;
}

/// The effective clamp of a task (uclamp_eff_get): its `requested` value restricted to its
/// group's `[group_min, group_max]` (pass 0 and 1024 for no group), then capped by the
/// system-wide `system_limit` (1024 by default).
/// @pre group_min <= group_max (a group's effective min never exceeds its max).
constexpr u32 uclamp_effective(u32 requested, u32 group_min = 0, u32 group_max = cpu_capacity_max,
                               u32 system_limit = cpu_capacity_max) noexcept {
  u32 v = requested < group_min ? group_min : requested;
  if (v > group_max) v = group_max;
  return v > system_limit ? system_limit : v;
}

/// A task's contribution to one clamp of the CPU it is enqueued on (the kernel's uclamp_se as
/// an active record): the value it was counted with and its bucket, so that the dequeue takes
/// out exactly what the enqueue put in even if the task's request changed meanwhile.
struct uclamp_se {
  u16 value = 0;        ///< the effective value counted, 0..1024
  u8 bucket = 0;        ///< its bucket
  bool active = false;  ///< counted in a CPU's buckets
};

/// The task side of uclamp: one record per clamp id. Embed one in the task.
struct uclamp_task {
  uclamp_se se[2];  ///< [uclamp_id::min], [uclamp_id::max]
  /// Whether the task is counted on a CPU.
  constexpr bool active() const noexcept { return se[0].active; }
};

/// The per-CPU aggregation of the runnable tasks' clamps (see the file notes). Embed one per
/// CPU run queue; enqueue() every fair or RT task that becomes runnable there, dequeue() it
/// when it stops being runnable there (sleep, migration away, exit).
/// @tparam Buckets number of buckets per clamp, 5..20 (CONFIG_UCLAMP_BUCKETS_COUNT).
template <u32 Buckets = uclamp_buckets_default>
class uclamp_rq {
  static_assert(Buckets >= 5 && Buckets <= 20, "the kernel allows 5 to 20 clamp buckets");

 public:
  /// An idle CPU: min 0, max 1024 (uclamp_none), marked idle.
  constexpr uclamp_rq() noexcept = default;

  /// Counts a task that becomes runnable here with effective clamps `util_min` and `util_max`
  /// (uclamp_effective: each 0..1024). Refuses (SCHEDCORE_MISUSE, no change) a task already
  /// counted somewhere or a value above 1024. @par Complexity O(1).
  void enqueue(uclamp_task& t, u32 util_min, u32 util_max) noexcept {
    if (SCHEDCORE_MISUSE(t.active() || util_min > cpu_capacity_max || util_max > cpu_capacity_max)) return;
    count_in(t.se[0], 0, util_min);
    count_in(t.se[1], 1, util_max);
    idle_ = false;
  }

  /// Takes out a task counted here by enqueue(). Refuses (SCHEDCORE_MISUSE, no change) a task
  /// that is not counted. @par Complexity O(1), O(Buckets) when it empties the top bucket.
  void dequeue(uclamp_task& t) noexcept {
    if (SCHEDCORE_MISUSE(!t.active())) return;
    count_out(t.se[0], 0);
    count_out(t.se[1], 1);
  }

  /// The CPU's clamp `id` (uclamp_rq_get): the max over its runnable tasks, as kept by the
  /// buckets; while idle, min 0 and the last max.
  constexpr u32 value(uclamp_id id) const noexcept { return value_[static_cast<u32>(id)]; }
  /// Whether no task is counted (UCLAMP_FLAG_IDLE: the max clamp is a retained one).
  constexpr bool idle() const noexcept { return idle_; }
  /// Tasks counted in bucket `b` of clamp `id` (statistics, tests).
  constexpr u32 bucket_tasks(uclamp_id id, u32 b) const noexcept { return b < Buckets ? bucket_[static_cast<u32>(id)][b].tasks : 0; }

  /// `util` clamped by this CPU's clamps (uclamp_rq_util_with with no task).
  constexpr u32 util_with(u32 util) const noexcept { return apply(util, value_[0], value_[1]); }
  /// `util` clamped as if a task with effective clamps `task_min` and `task_max` were added
  /// here (uclamp_rq_util_with with the task): the task's clamps max-aggregated with the
  /// CPU's, or the task's alone when the CPU is idle.
  constexpr u32 util_with(u32 util, u32 task_min, u32 task_max) const noexcept {
    if (idle_) return apply(util, task_min, task_max);
    return apply(util, task_min > value_[0] ? task_min : value_[0], task_max > value_[1] ? task_max : value_[1]);
  }

  /// Checks the aggregation: each clamp's value is the largest non-empty bucket's value (or
  /// the idle value when every bucket is empty), and min and max count the same tasks.
  /// @par Complexity O(Buckets).
  constexpr bool verify() const noexcept {
    u32 counted[2] = {0, 0};
    for (u32 id = 0; id < 2; ++id) {
      u32 top = Buckets;
      for (u32 b = 0; b < Buckets; ++b) {
        counted[id] += bucket_[id][b].tasks;
        if (bucket_[id][b].tasks != 0) {
          top = b;
          if (uclamp_bucket_id(bucket_[id][b].value, Buckets) != b) return false;
        }
      }
      if (top < Buckets && value_[id] != bucket_[id][top].value) return false;
      if (top == Buckets && id == 0 && value_[0] != 0) return false;
    }
    return counted[0] == counted[1] && (counted[0] == 0) == idle_;
  }

 private:
  struct bucket {
    u32 tasks = 0;  ///< runnable tasks counted here
    u16 value = 0;  ///< the largest value of the tasks that joined since it was last empty
  };

  /// clamp(util, lo, hi), where an inverted pair (lo > hi, tasks with different clamps) gives lo.
  static constexpr u32 apply(u32 util, u32 lo, u32 hi) noexcept {
    if (lo >= hi) return lo;
    return util < lo ? lo : (util > hi ? hi : util);
  }

  void count_in(uclamp_se& se, u32 id, u32 v) noexcept {
    if (idle_) value_[id] = static_cast<u16>(v);  // leaving idle: the retained max goes
    const u32 b = uclamp_bucket_id(v, Buckets);
    bucket& bk = bucket_[id][b];
    ++bk.tasks;
    if (bk.tasks == 1 || v > bk.value) bk.value = static_cast<u16>(v);
    if (v > value_[id]) value_[id] = static_cast<u16>(v);
    se.value = static_cast<u16>(v);
    se.bucket = static_cast<u8>(b);
    se.active = true;
  }

  void count_out(uclamp_se& se, u32 id) noexcept {
    bucket& bk = bucket_[id][se.bucket];
    --bk.tasks;
    se.active = false;
    if (bk.tasks != 0) return;  // the bucket keeps its value while it has tasks
    if (bk.value < value_[id]) return;  // not the bucket that sets the CPU's value
    for (u32 b = Buckets; b-- > 0;) {
      if (bucket_[id][b].tasks != 0) {
        value_[id] = bucket_[id][b].value;
        return;
      }
    }
    // No task left: the boost goes; the cap stays at the last task's value until the next
    // enqueue (uclamp_idle_value).
    if (id == 0) {
      value_[0] = 0;
    } else {
      value_[1] = se.value;
      idle_ = true;
    }
  }

  bucket bucket_[2][Buckets] = {};
  u16 value_[2] = {0, static_cast<u16>(cpu_capacity_max)};
  bool idle_ = true;
};

}  // namespace schedcore

#endif
