/// @file
/// @brief `rt_policy`: POSIX real-time scheduling, SCHED_FIFO and SCHED_RR, as Linux's
/// `rt_sched_class` (algorithms-modern.md §4; 2.6.22's RT in algorithms-legacy.md §1.8).
///
/// @par Implementation notes
/// - Structure: one `prio_array<Task, 100>` (kernel prio 0..99, lower is more urgent; user
///   `rt_priority` p maps to `99 - p`, so 99 -> 0 and 1 -> 98: oracle O4.3). The running task
///   stays queued at its position, so a FIFO task preempted by a more urgent one resumes first
///   at its priority, as POSIX requires.
/// - FIFO runs until it blocks, yields (moves to the tail of its priority) or a more urgent task
///   arrives. RR additionally has a time slice (`timeslice`, 100 ms = `RR_TIMESLICE`): when it
///   runs out at a tick the slice is refilled and the task goes to the tail of its priority if
///   a peer is queued there (oracle O4.2). Only that expiry (and a task's first `setup`, the
///   kernel's fork) refills the slice: a task that sleeps or changes priority or policy
///   mid-slice resumes with what was left, as sched_setscheduler never touches time_slice.
///   With the `hz` knob (the simulator sets it to its tick rate) the slice is counted as the
///   kernel's task_tick_rt counts it: whole jiffies (the timeslice rounded up), one taken at
///   each tick that finds the task current, however little it ran since; a task preempted
///   between ticks and current at each tick uses its slice up as fast as a hog. Without it (hz 0) the slice is the nanoseconds
///   actually run, checked at ticks (at HZ 1000 a 100 ms slice of a hog ends at the 100th tick
///   either way).
/// - Wakeup preemption is strict: only a more urgent priority preempts (equal never does).
/// - Parameter change (`dequeue(save)`, `setup`, `enqueue(restore)`), as Linux 4.7+
///   `__sched_setscheduler`: a task whose priority is lowered goes to the head of its new
///   level; raised goes to the tail; unchanged keeps its place (sched(7): "its position in the
///   run list is unchanged"; the kernel leaves it on its list, no DEQUEUE_MOVE; 3.14 to 4.6
///   queued an unchanged one at the head, `oldprio <= p->prio`): behind the
///   task that was before it, found by a walk of its level (O(tasks at that level), on this
///   rare path only), or first when it was first. A class switch
///   into rt must be preceded by `switched_from` on the old class as policy.hpp requires; this
///   class does not know the priority a task had in another class, so the caller passes
///   `enqueue_flags::head` when it was higher (a SCHED_DEADLINE task, prio -1, becoming
///   SCHED_FIFO or a deboost from a lent reservation: the kernel's `oldprio < p->prio`), as
///   the simulator does.
/// - Throttling (`runtime`/`period`, the kernel's sched_rt_runtime_us / sched_rt_period_us,
///   950 ms per 1 s by default; runtime -1 disables it): once this class has run `runtime` in
///   the current period, `pick_next` returns nullptr so lower classes get the rest of the
///   period (oracle O4.1: a FIFO hog and a fair hog split 950/50 ms per second). As the
///   kernel's: the class throttles when its run time *exceeds* the runtime, and what ran past
///   it (a tick's worth when charges come at ticks) counts against the next period, so at HZ
///   1000 the first second gives 951 ms and each later one 950. The period is a class timer
///   (`next_timer`/`timer`), so unthrottling is exact, not tick-rounded. The period grid starts
///   at the class's first enqueue (start_rt_bandwidth); the kernel's timer stops at a period
///   boundary that finds the class empty with no run time to carry, and the next enqueue
///   starts a fresh grid at its own time, as here.
///   2.6.22 had no throttling: runtime = -1 replays that much of the era (its other RT rules
///   differ: an RR slice refilled by nice, task_timeslice's 800 / 100 / 5 ms at nice -20 / 0 /
///   19, a task alone at its level requeued and rescheduled all the same, any setscheduler to
///   the tail, the slice split at fork). A runtime of 0 never throttles, as the kernel's
///   sched_rt_runtime_exceeded ("Don't actually throttle groups that have no runtime assigned
///   but accrue some time due to boosting": the run time is dropped instead; it tests the
///   knob, rt_b->rt_runtime, not a CPU's borrowed share). Deadline tasks' run time
///   counts against the same budget where the caller passes it on (`charge_shared`; kernels up
///   to 6.11 do).
/// - Complexity: every hook O(1) (prio_array operations and a bit scan), except the rare
///   `enqueue(restore)` of a parameter change that keeps the priority (above: a walk of its
///   level).
/// - RT_RUNTIME_SHARE (on by default from 2.6.25 to 5.9, off since 5.10, commit 2586af1ac187):
///   each instance keeps its own runtime (`runtime()`, the rt_rq's rt_runtime, starting at the
///   knob). A caller that runs several CPUs installs a borrowing hook (`set_runtime_share`),
///   called when this class's run time exceeds its runtime, before it would throttle, and at a
///   period end that finds it throttled (sched_rt_runtime_exceeded and
///   do_sched_rt_period_timer calling balance_runtime). The hook moves runtime from other
///   instances with `lend_runtime` (do_balance_runtime: 1/n of each lender's spare time, n the
///   CPUs sharing, until the borrower's runtime reaches the period). An instance whose runtime
///   covers the whole period never throttles, so a spinning RT task that borrowed enough keeps
///   its CPU forever: why the feature was turned off. Lent runtime is never given back (the
///   kernel returns it only at CPU hotplug); `configure` resets it, as a sysctl write does.
/// - Omissions from this class: priority inheritance and SMP push/pull (the simulator does both
///   around it: boosts by parameter changes, save / setup / restore, and moves tasks).
#ifndef SCHEDCORE_POLICY_RT_HPP
#define SCHEDCORE_POLICY_RT_HPP

#include "schedcore/core/assert.hpp"
#include "schedcore/core/errc.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/intrusive/list_hook.hpp"
#include "schedcore/policy/flags.hpp"
#include "schedcore/policy/entity_access.hpp"
#include "schedcore/policy/params.hpp"
#include "schedcore/queue/prio_array.hpp"

namespace schedcore {

/// Tag of the rt class's list hook (a task may embed several hooks).
struct rt_hook_tag {};

/// Per-task state of the rt class, embedded in the task.
struct rt_entity : list_hook<rt_hook_tag> {
  sched_kind kind = sched_kind::fifo;  ///< fifo or rr
  u8 rt_priority = 0;                  ///< POSIX priority 1..99 (higher is more urgent)
  u8 prio = 0;                         ///< kernel priority 0..98 (`99 - rt_priority`), lower is more urgent
  bool on_rq = false;                  ///< queued in an rt_policy (running counts as queued)
  bool saved = false;                  ///< dequeued with `save` (a parameter change is under way)
  bool saved_first = false;            ///< it was first at its priority when saved
  u8 saved_prio = 0;                   ///< its kernel priority when saved
  void* saved_prev = nullptr;          ///< the task (a `Task*`) queued just before it when saved
  duration_ns slice_left = 0;          ///< RR: remaining time slice, ns
  sched_time exec_start{};             ///< when the task last started running or was last charged
};

/// Compile-time shape of an rt_policy: the kernel's 100 priorities with RT throttling.
/// An RTOS port that needs fewer levels or no bandwidth limit supplies its own struct with the
/// same two members (for example 32 priorities fit one bitmap word on a 32-bit CPU).
struct rt_defaults {
  /// Number of kernel priorities (MAX_RT_PRIO); user priorities 1..nr_prios-1 are accepted.
  static constexpr unsigned nr_prios = 100;
  /// Compile in the runtime/period bandwidth limit (sched_rt_runtime_us).
  static constexpr bool throttling = true;
};

/// POSIX SCHED_FIFO / SCHED_RR run queue of one CPU.
/// @tparam Task the task type; embeds `rt_entity` (by default as a base class)
/// @tparam EntityOf accessor from Task to its rt_entity (see policy/params.hpp)
/// @tparam Config compile-time shape (`rt_defaults`: 100 priorities, throttling compiled in)
template <class Task, class EntityOf = base_entity<rt_entity>, class Config = rt_defaults>
class rt_policy {
  static_assert(Config::nr_prios >= 2 && Config::nr_prios <= 256, "rt_policy: 2..256 priorities");
  using hook_access = entity_hook_access<Task, rt_entity, EntityOf, list_hook<rt_hook_tag>>;

 public:
  using task_type = Task;                   ///< the task type
  static constexpr const char* name = "rt"; ///< class name
  static constexpr unsigned nr_prios = Config::nr_prios;  ///< kernel MAX_RT_PRIO

  /// Tunables, named after the kernel's (ns; -1 disables throttling).
  struct knobs {
    s64 timeslice = msec(100);  ///< RR time slice (`sched_rr_timeslice_ms`, RR_TIMESLICE)
    s64 runtime = msec(950);    ///< RT runtime per period (`sched_rt_runtime_us`); -1: unlimited
    s64 period = sec(1);        ///< RT accounting period (`sched_rt_period_us`)
    /// The tick rate that counts an RR slice, or 0. With HZ set, the slice is the kernel's:
    /// `timeslice` rounded up to whole jiffies (sched_rr_handler's msecs_to_jiffies; the
    /// default 100 ms gives RR_TIMESLICE's jiffies at HZ 100, 250, 300 and 1000), and each
    /// tick takes one jiffy off the task current at that tick, however long it ran since
    /// (task_tick_rt); with 0, the slice is the nanoseconds the task actually ran, checked at
    /// ticks.
    s64 hz = 0;
  };
  /// Bounds and meaning of each knob.
  static constexpr knob_info<knobs> knob_table[] = {
      {"timeslice", knob_unit::time_ns, &knobs::timeslice, usec(100), sec(10), "SCHED_RR time slice (RR_TIMESLICE)"},
      {"runtime", knob_unit::time_ns, &knobs::runtime, -1, sec(100), "RT runtime per period; -1 disables throttling. Needs runtime <= period"},
      {"period", knob_unit::time_ns, &knobs::period, msec(1), sec(100), "RT bandwidth period. Needs period >= runtime"},
      {"hz", knob_unit::count, &knobs::hz, 0, 100000, "tick rate counting RR slices in jiffies (0: in ns run); the simulator sets it to --hz"},
  };

  /// Validates and installs knobs; on error nothing changes. runtime must not exceed period.
  errc configure(const knobs& k) noexcept {
    if (const errc e = validate_knobs(k, knob_table); e != errc::ok) return e;
    if (k.runtime > k.period) return errc::inverted;
    knobs_ = k;
    runtime_ = k.runtime;
    // One jiffy in ns; a 32-bit division (hz <= 100000), which 32-bit CPUs do in hardware.
    tick_ns_ = k.hz > 0 ? static_cast<duration_ns>(1000000000u / static_cast<u32>(k.hz)) : 0;
    // The RR slice: with hz, ceil(timeslice x hz / 10^9) jiffies counted in tick_ns_ units
    // (exact: 100 ms at HZ 300 is 30 jiffies, not the 31 that 100 ms / 3333333 ns would
    // round up to); timeslice <= 10 s and hz <= 10^5 keep the product below 2^50.
    if (k.hz > 0) {
      const u64 jiffies = (static_cast<u64>(k.timeslice) * static_cast<u64>(k.hz) + 999999999u) / 1000000000u;
      rr_slice_ = static_cast<duration_ns>(jiffies) * tick_ns_;
    } else {
      rr_slice_ = k.timeslice;
    }
    return errc::ok;
  }
  /// The knobs in force.
  const knobs& config() const noexcept { return knobs_; }

  /// RT_RUNTIME_SHARE's borrowing hook: `borrower` (this instance) has run more than its
  /// runtime in the current period at `now`; the hook may raise its runtime by calling
  /// `lend_runtime(borrower, n, now)` on other CPUs' instances.
  using runtime_share_fn = void (*)(void* context, rt_policy& borrower, sched_time now) noexcept;
  /// Installs (or, with nullptr, removes) the borrowing hook and its context. Without one, the
  /// runtime stays the knob's (RT_RUNTIME_SHARE off, the 5.10+ default).
  void set_runtime_share(runtime_share_fn fn, void* context) noexcept {
    share_fn_ = fn;
    share_ctx_ = context;
  }
  /// Run time of the deadline class on this CPU, `ran` ns up to `now`, counted against this
  /// class's budget as kernels up to 6.11 count it (update_curr_dl: "we share the rt
  /// bandwidth"), so real-time and deadline tasks together leave the lower classes (period -
  /// runtime) per period. Counted while the period timer runs (sched_rt_bandwidth_account).
  /// The timer stops at the first period end that finds the class empty with nothing to
  /// carry; while it is stopped the kernel counts only up to the runtime and pays that back
  /// as soon as the timer restarts, so nothing is counted here. Throttles at once when the
  /// total passes the runtime (the kernel at its next RT charge, within a tick). O(1).
  void charge_shared(duration_ns ran, sched_time now) noexcept {
    if constexpr (!Config::throttling) return;
    if (knobs_.runtime < 0 || ran <= 0 || !period_valid_) return;
    roll_period(now);
    if (queue_.empty() && !throttled_ && rt_time_ == 0 && period_start_ != emptied_period_) return;  // timer stopped
    count_run_time(ran, now);
  }
  /// This instance's runtime per period, ns (the rt_rq's rt_runtime: the knob, plus what it
  /// borrowed, minus what it lent); -1 when throttling is off.
  duration_ns runtime() const noexcept { return knobs_.runtime < 0 ? -1 : runtime_; }
  /// Run time charged in the current period, ns (the rt_rq's rt_time).
  duration_ns rt_time() const noexcept { return rt_time_; }
  /// do_balance_runtime's step for one lender (this instance): from its spare time in the
  /// current period (runtime - rt_time, its period first brought up to `now`), `borrower`
  /// takes 1/`sharing_cpus` of it, no more than brings the borrower's runtime to the period.
  /// Nothing when throttling is off or there is no spare time. @return true if runtime moved
  /// @pre both instances have the same knobs; `sharing_cpus` >= 1
  bool lend_runtime(rt_policy& borrower, usize sharing_cpus, sched_time now) noexcept {
    if constexpr (!Config::throttling) return false;
    if (&borrower == this || knobs_.runtime < 0 || sharing_cpus == 0) return false;
    if (period_valid_) roll_period(now, false);  // no borrowing of its own from here: no re-entry
    duration_ns diff = runtime_ - rt_time_;
    if (diff <= 0) return false;
    diff = static_cast<duration_ns>(static_cast<u64>(diff) / sharing_cpus);  // usize widens to u64
    if (borrower.runtime_ + diff > knobs_.period) diff = knobs_.period - borrower.runtime_;
    if (diff <= 0) return false;
    runtime_ -= diff;
    borrower.runtime_ += diff;
    return true;
  }

  /// Loads `p` (kind fifo or rr, rt_priority 1..nr_prios-1) into `t`'s entity; a full RR slice
  /// at its first setup only (any later change keeps what was left, as the kernel's).
  /// Refuses a non-RT kind or a bad priority (`errc`), and a queued task (`errc::busy`).
  errc setup(Task& t, const sched_params& p) noexcept {
    rt_entity& e = EntityOf::get(t);
    if (p.kind != sched_kind::fifo && p.kind != sched_kind::rr) return errc::invalid_argument;
    // The range is this instance's, not validate()'s Linux 1..99: a port with 256 levels
    // accepts 1..255, one with 32 levels 1..31.
    if (p.rt_priority < rt_priority_min || p.rt_priority >= nr_prios) return errc::out_of_range;
    if (e.on_rq) return errc::busy;
    // Only a task's first setup here (the kernel's __sched_fork) fills the RR slice; the kernel's
    // sched_setscheduler never touches time_slice, so a later change, even while the task
    // sleeps or after it left the class for a while, keeps what was left.
    if (!e.saved && e.rt_priority == 0) e.slice_left = rr_slice_;
    e.kind = p.kind;
    e.rt_priority = p.rt_priority;
    e.prio = static_cast<u8>(nr_prios - 1 - p.rt_priority);
    return errc::ok;
  }

  /// Queues `t` at the tail of its priority (head with `enqueue_flags::head`, or on a restore
  /// after its priority was lowered; see the notes).
  void enqueue(Task& t, sched_time now, enqueue_flags flags) noexcept {
    rt_entity& e = EntityOf::get(t);
    if (SCHEDCORE_MISUSE(e.on_rq)) return;
    // A task never set up (rt_priority 0, which setup refuses) would sit at prio 0, the most
    // urgent level, above every FIFO 99 task: refused.
    if (SCHEDCORE_MISUSE(e.rt_priority == 0)) return;
    if (queue_.empty()) restart_period_if_idle(now);
    const bool restore = has(flags, enqueue_flags::restore) && e.saved;
    const bool to_head = restore && (e.prio > e.saved_prio || (e.prio == e.saved_prio && e.saved_first));
    // Unchanged priority, not first: back behind the task it followed.
    Task* const after = restore && !to_head && e.prio == e.saved_prio && e.saved_prev != nullptr &&
                                !has(flags, enqueue_flags::head)
                            ? queued_at(static_cast<Task*>(e.saved_prev), e.prio)
                            : nullptr;
    e.saved = false;
    e.saved_prev = nullptr;
    if (has(flags, enqueue_flags::head) || to_head) {
      queue_.enqueue_head(t, e.prio);
    } else if (after != nullptr) {
      queue_.enqueue_after(t, *after);
    } else {
      queue_.enqueue(t, e.prio);
    }
    e.on_rq = true;
    e.exec_start = now;
  }
  /// Removes `t`. The running task is charged first, whichever task leaves (the kernel's
  /// dequeue_task_rt runs update_curr_rt), so a migration or another task's parameter change
  /// can throttle it there.
  void dequeue(Task& t, sched_time now, dequeue_flags flags) noexcept {
    rt_entity& e = EntityOf::get(t);
    if (SCHEDCORE_MISUSE(!e.on_rq)) return;
    e.saved = has(flags, dequeue_flags::save);
    e.saved_prio = e.prio;
    Task* const before = queue_.prev_at_same_prio(t);
    e.saved_first = before == nullptr;
    e.saved_prev = before;
    if (curr_ != nullptr) charge(EntityOf::get(*curr_), now);
    if (&t == curr_) curr_ = nullptr;
    queue_.dequeue(t);
    e.on_rq = false;
    if (queue_.empty() && period_valid_) {  // the period in which the class went empty
      roll_period(now);
      emptied_period_ = period_start_;
    }
  }
  /// The most urgent queued task, or nullptr when empty or throttled.
  Task* pick_next(sched_time) noexcept { return throttled_ ? nullptr : queue_.pick(); }
  /// `t` starts running.
  void set_next(Task& t, sched_time now) noexcept {
    // refuse: only a queued task runs, and only when nothing else does (put_prev first: else
    // the running task's time since its set_next would never be charged)
    if (SCHEDCORE_MISUSE(!EntityOf::get(t).on_rq || (curr_ != nullptr && curr_ != &t))) return;
    curr_ = &t;
    EntityOf::get(t).exec_start = now;
  }
  /// Running `t` stops running; it keeps its queue position.
  void put_prev(Task& t, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&t != curr_)) return;  // refuse: not the running task
    charge(EntityOf::get(t), now);
    curr_ = nullptr;
  }
  /// Charges the running task; RR slice expiry requeues it behind its peers.
  bool tick(Task& curr, sched_time now) noexcept {
    // A tick for a task that is not this class's running one (a caller's stale pointer) is
    // refused: it would charge the budget and the RR slice for time the task did not run.
    if (SCHEDCORE_MISUSE(&curr != curr_)) return false;
    rt_entity& e = EntityOf::get(curr);
    charge(e, now);
    // A throttled class asks for a reschedule, and the RR slice is still counted and rotated
    // at this tick (task_tick_rt: update_curr_rt may throttle, the slice handling follows).
    const bool throttled = throttled_;
    if (e.kind != sched_kind::rr) return throttled;
    // With hz: one jiffy per tick that finds it current, and the slice (a whole number of
    // jiffies, see configure) ends at the tick that takes its last one, with no division.
    if (tick_ns_ > 0) {
      e.slice_left -= tick_ns_;
      if (e.slice_left >= tick_ns_) return throttled;
    } else if (e.slice_left > 0) {
      return throttled;
    }
    e.slice_left = rr_slice_;
    if (queue_.first_at(e.prio) == &curr && queue_.next_at_same_prio(curr) == nullptr) return throttled;
    queue_.requeue_tail(curr, e.prio);
    return true;
  }
  /// Only a strictly more urgent priority preempts.
  bool wakeup_preempt(Task& woken, Task& curr, sched_time) noexcept {
    return EntityOf::get(woken).prio < EntityOf::get(curr).prio;
  }
  /// `t` (not queued) leaves this class: a saved priority no longer applies.
  void switched_from(Task& t, sched_time) noexcept { EntityOf::get(t).saved = false; }
  /// Optional hook `change_resched` (policy.hpp): a running task entering the class is not
  /// rescheduled (switched_to_rt acts only for a task that is not current: `if
  /// (task_current(rq, p)) { update_rt_rq_load_avg(...); return; }`); one whose priority moved
  /// (check_class_changed calls prio_changed only then; set_user_nice always) is rescheduled
  /// when a more urgent task waits here (prio_changed_rt, SMP: `if (p->prio >
  /// rq->rt.highest_prio.curr) resched_curr(rq);`; the pull it queues at a lower priority is
  /// the caller's). O(1).
  bool change_resched(Task& curr, const param_change& c, sched_time) const noexcept {
    if (c.switched || (!c.nice && c.prio == c.oldprio)) return false;
    return !queue_.empty() && EntityOf::get(curr).prio > queue_.best_prio();
  }
  /// Queued tasks including a running one.
  usize nr_runnable() const noexcept { return queue_.nr_queued(); }
  /// The queued tasks by kernel priority (read only: the order within a level, for a port's
  /// ps-like listing and for tests).
  const prio_array<Task, nr_prios, prio_order::lower_first, hook_access>& queue() const noexcept { return queue_; }
  /// sched_yield(): the task moves to the tail of its priority.
  void yield(Task& curr, sched_time now) noexcept {
    // Refused for a task that is not running: it would charge the budget for its wait.
    if (SCHEDCORE_MISUSE(&curr != curr_)) return;
    rt_entity& e = EntityOf::get(curr);
    charge(e, now);
    queue_.requeue_tail(curr, e.prio);
  }
  /// The end of the current throttling period when throttled (the unthrottle timer).
  bool next_timer(sched_time& when) const noexcept {
    if (!throttled_) return false;
    when = period_start_ + knobs_.period;
    return true;
  }
  /// Unthrottles at the period boundary; true when runnable tasks become eligible again.
  bool timer(sched_time now) noexcept {
    roll_period(now);
    return !throttled_ && !queue_.empty() && was_throttled_and_cleared();
  }
  /// True while the class has used up its runtime for this period.
  bool throttled() const noexcept { return throttled_; }
  /// True while a task of this class runs although the class is throttled: a dequeue of
  /// another task charges curr, which can throttle the class there (update_curr_rt reschedules
  /// at once). It stays true until the core puts that task back.
  bool take_resched() const noexcept { return throttled_ && curr_ != nullptr; }
  /// Structural check of the array.
  bool verify() const noexcept { return queue_.verify(); }

 private:
  /// `which` if it is queued at kernel priority `prio` in this class, else nullptr: a walk of
  /// that level, O(tasks there), because a pointer alone could name a task that has since left
  /// or moved to another CPU's queue. Out of line: only a parameter change gets here.
  SCHEDCORE_COLD Task* queued_at(Task* which, u8 prio) const noexcept {
    for (Task* q = queue_.first_at(prio); q != nullptr; q = queue_.next_at_same_prio(*q))
      if (q == which) return q;
    return nullptr;
  }
  void charge(rt_entity& e, sched_time now) noexcept {
    const duration_ns ran = now - e.exec_start;
    if (ran <= 0) return;
    e.exec_start = now;
    if (e.kind == sched_kind::rr && tick_ns_ == 0) e.slice_left -= ran;
    if constexpr (!Config::throttling) return;
    if (knobs_.runtime < 0) return;
    if (!period_valid_) {
      period_start_ = e.exec_start - ran;
      period_valid_ = true;
    }
    roll_period(now);
    count_run_time(ran, now);
  }
  // Adds `ran` to the current period's run time, then sched_rt_runtime_exceeded(): never
  // when the runtime covers the whole period; else, past the runtime, borrow
  // (RT_RUNTIME_SHARE), then throttle if still strictly past it, unless the knob's runtime is
  // 0 (the kernel drops the run time instead). @pre the period is rolled up to `now`
  void count_run_time(duration_ns ran, sched_time now) noexcept {
    rt_time_ += ran;
    if (throttled_ || runtime_ >= knobs_.period || rt_time_ <= runtime_) return;
    if (share_fn_ != nullptr) share_fn_(share_ctx_, *this, now);
    if (rt_time_ <= runtime_) return;
    if (knobs_.runtime == 0) {
      rt_time_ = 0;
    } else {
      throttled_ = true;
    }
  }
  // start_rt_bandwidth(), at an enqueue into an empty class: the period timer starts here if it
  // is not running. It stopped (do_sched_rt_period_timer found the class idle) at the first
  // period boundary that found nothing queued and no run time left to carry; then the next
  // enqueue starts a fresh grid at its own time, not on the old one.
  void restart_period_if_idle(sched_time now) noexcept {
    if constexpr (!Config::throttling) return;
    if (knobs_.runtime < 0) return;
    if (!period_valid_) {
      period_start_ = now;
      period_valid_ = true;
      return;
    }
    roll_period(now);
    if (rt_time_ == 0 && !throttled_ && period_start_ != emptied_period_) period_start_ = now;
  }
  // `may_borrow`: a throttled class may borrow at the period end (false when this instance is
  // being asked to lend, so that the hook never re-enters an instance in the middle of a roll).
  void roll_period(sched_time now, bool may_borrow = true) noexcept {
    if constexpr (!Config::throttling) return;
    if (knobs_.runtime < 0) {
      // Throttling turned off (sched_rt_runtime_us = -1) while the class was throttled: the
      // period timer still fires at the boundary and lets it run (rt_time < RUNTIME_INF), and
      // nothing is counted from then on.
      if (throttled_ && now - period_start_ >= knobs_.period) {
        throttled_ = false;
        unthrottled_ = true;
        rt_time_ = 0;
        period_valid_ = false;
      }
      return;
    }
    if (!period_valid_) {  // the first charge opens the first period (the clock may start anywhere)
      period_start_ = now;
      period_valid_ = true;
      return;
    }
    const duration_ns since = now - period_start_;
    if (since < knobs_.period) return;
    // do_sched_rt_period_timer: a throttled class tries to borrow before its run time is
    // paid down with its own runtime.
    if (may_borrow && throttled_ && share_fn_ != nullptr && rt_time_ > runtime_) share_fn_(share_ctx_, *this, now);
    // Whole periods elapsed (`overrun`): the kernel's do_sched_rt_period_timer subtracts
    // min(rt_time, overrun * runtime), so what ran past the budget before the throttle took
    // (a tick's worth, at tick-driven accounting) is carried into the next period, and
    // unthrottles once rt_time < runtime. The common case (less than two periods) needs no
    // 64-bit division, which is a libgcc call on 32-bit CPUs.
    const duration_ns runtime = runtime_;
    if (since < 2 * knobs_.period) {
      period_start_ += knobs_.period;
      rt_time_ -= rt_time_ < runtime ? rt_time_ : runtime;
    } else {
      const duration_ns overrun = since / knobs_.period;
      period_start_ += overrun * knobs_.period;
      // overrun * runtime may not fit: compare through a division instead.
      if (runtime == 0 || rt_time_ / runtime >= overrun) {
        rt_time_ -= runtime == 0 ? 0 : overrun * runtime;
      } else {
        rt_time_ = 0;
      }
    }
    if (runtime == 0) rt_time_ = 0;  // nothing to carry: a zero budget starts every period empty
    // The kernel's carry is at most a tick (it charges at every tick and throttles at the
    // first one past the runtime); a caller that charges rarely could carry debt for an
    // unbounded number of periods. Capped at one period's runtime, or at a tick when `hz` is
    // set and a tick is longer (a runtime under a tick: the kernel pays a whole tick's debt
    // down a runtime per period, so a 1 ms / 50 ms budget at HZ 100 runs 2 ticks a second):
    // a throttle then lasts at most one tick's worth of periods.
    const duration_ns cap = runtime > tick_ns_ ? runtime : tick_ns_;
    if (rt_time_ > cap) rt_time_ = cap;
    if (throttled_ && rt_time_ < runtime + (runtime == 0 ? 1 : 0)) {
      throttled_ = false;
      unthrottled_ = true;
    }
  }
  bool was_throttled_and_cleared() noexcept {
    const bool u = unthrottled_;
    unthrottled_ = false;
    return u;
  }

  prio_array<Task, nr_prios, prio_order::lower_first, hook_access> queue_{};  ///< queued tasks by kernel prio
  Task* curr_ = nullptr;        ///< the running task of this class, if any
  knobs knobs_{};               ///< tunables in force
  duration_ns tick_ns_ = 0;     ///< one jiffy, ns, when `hz` is set; else 0 (slices in ns run)
  duration_ns rr_slice_ = knobs{}.timeslice;  ///< an RR slice, ns: whole jiffies of tick_ns_ with `hz`, else `timeslice`
  sched_time period_start_{};   ///< start of the current throttling period
  duration_ns rt_time_ = 0;     ///< run time charged in the current period, ns
  duration_ns runtime_ = knobs{}.runtime;  ///< this instance's runtime per period (rt_rq->rt_runtime), ns
  runtime_share_fn share_fn_ = nullptr;  ///< RT_RUNTIME_SHARE's borrowing hook, or nullptr
  void* share_ctx_ = nullptr;            ///< its context
  bool throttled_ = false;      ///< runtime exhausted for this period
  bool unthrottled_ = false;    ///< a throttle ended at the last period roll
  bool period_valid_ = false;   ///< period_start_ has been set (the kernel's period timer is active)
  sched_time emptied_period_{}; ///< start of the period in which the class last became empty
};

/// RT_RUNTIME_SHARE's do_balance_runtime: `borrower`, one of the `n` instances of a root
/// domain (`instances`, in CPU order), takes runtime from each other instance in turn
/// (`lend_runtime` with n sharing CPUs) and stops once its runtime covers the whole period.
/// @return true if any runtime moved. @par Complexity O(n)
template <class Rt>
bool balance_rt_runtime(Rt& borrower, Rt* const* instances, usize n, sched_time now) noexcept {
  bool moved = false;
  for (usize i = 0; i < n; ++i) {
    Rt* const lender = instances[i];
    if (lender == nullptr || lender == &borrower) continue;
    if (lender->lend_runtime(borrower, n, now)) moved = true;
    if (borrower.runtime() >= borrower.config().period) break;
  }
  return moved;
}

}  // namespace schedcore

#endif
