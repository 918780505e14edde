/// @file
/// @brief HOSTED. `sim::posix_fair_policy<Task, Kind>`: the library's `rt_policy` (POSIX
/// SCHED_FIFO / SCHED_RR, policy/rt.hpp), unmodified, in the simulator's fair slot: "what if
/// every normal/batch/idle task of this workload were SCHED_FIFO (or SCHED_RR)".
///
/// Semantics:
/// - `setup` of a SCHED_NORMAL / SCHED_BATCH / SCHED_IDLE task (its nice validated as the
///   kernel does, then ignored, as POSIX real-time scheduling ignores nice) loads the embedded
///   rt_policy with kind `Kind` (fifo or rr) at one fixed real-time priority,
///   `posix_fair_priority` (1). Every such task is therefore an equal-priority peer: FIFO runs
///   the first one until it blocks or yields, RR rotates them every `timeslice` (100 ms,
///   RR_TIMESLICE). A kind the fair slot never receives (fifo, rr, deadline) is refused.
/// - Every other hook is forwarded as is (enqueue, dequeue, pick, tick, wakeup preemption,
///   yield, switched_from, the throttling timer).
/// - Knobs: the rt class's own (`timeslice` for rr only, `runtime`, `period`), with its
///   defaults and bounds. The fair slot's rt_policy has its own bandwidth budget, separate
///   from the real rt class above it: with the default 950 ms per 1 s the CPU idles 5% of
///   each period when only these tasks are runnable (`runtime=-1` disables throttling).
/// - The workload's own fifo/rr/deadline tasks still run in the real rt and edf classes above
///   this slot, so they preempt these tasks whatever their priority.
/// - Per-task state: `posix_fair_entity`, which holds its own `rt_entity` as a data member
///   (sim_task already derives from `rt_entity` for the real rt class, so a second base would
///   be ambiguous); `posix_fair_access` is the rt_policy `EntityOf` accessor to it.
#ifndef SCHEDCORE_SIM_POSIX_FAIR_HPP
#define SCHEDCORE_SIM_POSIX_FAIR_HPP

#include "schedcore/core/errc.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/policy/flags.hpp"
#include "schedcore/policy/params.hpp"
#include "schedcore/policy/rt.hpp"

namespace schedcore {
namespace sim {

/// The real-time priority every normal/batch/idle task gets under `posix_fair_policy`.
inline constexpr u8 posix_fair_priority = 1;

/// Per-task state of `posix_fair_policy`: an `rt_entity` held as a member.
struct posix_fair_entity {
  rt_entity posix_rt;  ///< the embedded rt_policy's per-task state
};

/// `EntityOf` accessor of the embedded rt_policy: task -> `posix_fair_entity::posix_rt` and back.
struct posix_fair_access : member_entity<&posix_fair_entity::posix_rt> {};

/// @cond INTERNAL
namespace detail_sim {
/// The knob table of `posix_fair_policy<., Kind>`: rt_policy's knobs with rt_policy's bounds
/// (written out: clang cannot index rt_policy's in-class table in a constant expression;
/// sim_posix_policy_test checks that they match), without `timeslice` for FIFO (no slice).
template <class Knobs, sched_kind Kind>
struct posix_knob_table {
  static constexpr knob_info<Knobs> table[] = {
      {"timeslice", knob_unit::time_ns, &Knobs::timeslice, usec(100), sec(10), "SCHED_RR time slice (RR_TIMESLICE) of every task"},
      {"runtime", knob_unit::time_ns, &Knobs::runtime, -1, sec(100),
       "RT runtime per period of these tasks (own budget, apart from the rt class); -1 disables throttling"},
      {"period", knob_unit::time_ns, &Knobs::period, msec(1), sec(100), "RT bandwidth period"},
      {"hz", knob_unit::count, &Knobs::hz, 0, 100000, "tick rate counting RR slices in jiffies (0: in ns run); set from --hz"},
  };
};
template <class Knobs>
struct posix_knob_table<Knobs, sched_kind::fifo> {
  static constexpr knob_info<Knobs> table[] = {
      {"runtime", knob_unit::time_ns, &Knobs::runtime, -1, sec(100),
       "RT runtime per period of these tasks (own budget, apart from the rt class); -1 disables throttling"},
      {"period", knob_unit::time_ns, &Knobs::period, msec(1), sec(100), "RT bandwidth period"},
      {"hz", knob_unit::count, &Knobs::hz, 0, 100000, "tick rate counting RR slices in jiffies (0: in ns run); set from --hz"},
  };
};
}  // namespace detail_sim
/// @endcond

/// Every normal/batch/idle task as a POSIX `Kind` (fifo or rr) task at `posix_fair_priority`,
/// scheduled by an embedded, unmodified `rt_policy`.
/// @tparam Task the task type; derives from `posix_fair_entity`
/// @tparam Kind `sched_kind::fifo` or `sched_kind::rr`
template <class Task, sched_kind Kind>
class posix_fair_policy {
  static_assert(Kind == sched_kind::fifo || Kind == sched_kind::rr, "posix_fair_policy: Kind is fifo or rr");

 public:
  using task_type = Task;                          ///< the task type
  using rt_type = rt_policy<Task, posix_fair_access>;  ///< the embedded class
  using knobs = typename rt_type::knobs;           ///< rt_policy's tunables
  static constexpr const char* name = Kind == sched_kind::fifo ? "fifo" : "rr";  ///< class name
  /// The priority a trace prints for every task of this slot: the kernel's `p->prio` of a
  /// real-time task at `posix_fair_priority`, 99 - 1 = 98 (not 120 + nice: nice is ignored).
  static int trace_prio(const Task&) noexcept { return rt_priority_max - posix_fair_priority; }
  /// rt_policy's knobs (no `timeslice` for FIFO), with its bounds.
  static constexpr const auto& knob_table = detail_sim::posix_knob_table<knobs, Kind>::table;

  /// Validates (this table's bounds, then rt_policy's) and installs `k`; on error nothing changes.
  errc configure(const knobs& k) noexcept {
    if (const errc e = validate_knobs(k, knob_table); e != errc::ok) return e;
    return rt_.configure(k);
  }
  /// The knobs in force.
  const knobs& config() const noexcept { return rt_.config(); }

  /// A normal/batch/idle `p` (nice checked, then ignored) becomes `Kind` at
  /// `posix_fair_priority`; other kinds are refused (they belong to the rt and edf classes).
  errc setup(Task& t, const sched_params& p) noexcept {
    if (p.kind != sched_kind::normal && p.kind != sched_kind::batch && p.kind != sched_kind::idle)
      return errc::invalid_argument;
    if (const errc e = validate(p); e != errc::ok) return e;
    sched_params q;
    q.kind = Kind;
    q.rt_priority = posix_fair_priority;
    return rt_.setup(t, q);
  }

  /// Queues `t` at the tail of its (single) priority (rt_policy::enqueue).
  void enqueue(Task& t, sched_time now, enqueue_flags flags) noexcept { rt_.enqueue(t, now, flags); }
  /// Removes `t`, charging the running task first (rt_policy::dequeue).
  void dequeue(Task& t, sched_time now, dequeue_flags flags) noexcept { rt_.dequeue(t, now, flags); }
  /// The queue's head, or nullptr when empty or throttled.
  Task* pick_next(sched_time now) noexcept { return rt_.pick_next(now); }
  /// `t` starts running.
  void set_next(Task& t, sched_time now) noexcept { rt_.set_next(t, now); }
  /// Running `t` stops running; it keeps its queue position.
  void put_prev(Task& t, sched_time now) noexcept { rt_.put_prev(t, now); }
  /// Charges the running task; under RR, slice expiry requeues it behind its peers.
  bool tick(Task& curr, sched_time now) noexcept { return rt_.tick(curr, now); }
  /// Only a strictly higher priority preempts: never among this class's tasks (one priority).
  bool wakeup_preempt(Task& woken, Task& curr, sched_time now) noexcept { return rt_.wakeup_preempt(woken, curr, now); }
  /// `t` (not queued) leaves this class.
  void switched_from(Task& t, sched_time now) noexcept { rt_.switched_from(t, now); }
  /// Queued tasks including a running one.
  usize nr_runnable() const noexcept { return rt_.nr_runnable(); }
  /// sched_yield(): `curr` moves to the tail of the queue.
  void yield(Task& curr, sched_time now) noexcept { rt_.yield(curr, now); }
  /// The end of the current throttling period when throttled (the unthrottle timer).
  bool next_timer(sched_time& when) const noexcept { return rt_.next_timer(when); }
  /// Unthrottles at the period boundary; true when queued tasks become eligible again.
  bool timer(sched_time now) noexcept { return rt_.timer(now); }
  /// True while these tasks have used up their runtime for this period.
  bool throttled() const noexcept { return rt_.throttled(); }
  /// Structural check of the embedded rt_policy's array.
  bool verify() const noexcept { return rt_.verify(); }

 private:
  rt_type rt_{};  ///< the unmodified POSIX class
};

/// `posix_fair_policy` as SCHED_FIFO (one template parameter, for SCHEDSIM_POLICY).
template <class Task>
using posix_fifo_policy = posix_fair_policy<Task, sched_kind::fifo>;
/// `posix_fair_policy` as SCHED_RR (one template parameter, for SCHEDSIM_POLICY).
template <class Task>
using posix_rr_policy = posix_fair_policy<Task, sched_kind::rr>;

}  // namespace sim
}  // namespace schedcore

#endif
