/// @file
/// @brief `nicksched_policy`: Nick Piggin's 2003 scheduler policy ("Nick's scheduler policy"
/// v13, 2.6.0-test), as documented in algorithms-legacy.md §4.
///
/// @par Implementation notes
/// - Structure: active/expired `prio_array`s of 60 levels. Priorities keep the patch's
///   numbering: `MAX_PRIO = 100 + 60`, `NICE_TO_PRIO(n) = 130 + n` (static 110..149), dynamic
///   priority 100..159, array index `prio - 100`. RT tasks belong to `rt_policy` stacked above
///   in a `class_stack` (in the patch they shared the arrays at prio 0..99 and always sorted
///   first, so the split is equivalent; see o1.hpp for the argument). Only SCHED_NORMAL is
///   accepted: the patch predates SCHED_BATCH (2.6.16).
/// - History (§4): per task `total_time` and `sleep_time`, both `1024 * ns` fixed point.
///   `add_task_time(t, type)` over the window MAX_SLEEP = 1 s: clamp t (sleep and run:
///   MAX_SLEEP/4; run-queue wait: MAX_SLEEP/16), decay both sums by `(MAX_SLEEP - t)/MAX_SLEEP`
///   rounded to nearest (`(r*sum + MAX_SLEEP/2) / MAX_SLEEP`),
///   add `1024 t` to total (and to sleep for a sleep); a wait only decays. `total_time` is
///   floored at MIN_HISTORY = 0.5 s of history. `sleep_avg = 1024 * sleep_time / total_time`
///   (0..1024); when the floor applies, sleep_time is rescaled to keep sleep_avg (v13's
///   add_task_time and fork). v13 stores sleep_avg and updates it only for a run or a sleep;
///   here it is derived from the sums, so a wait, which decays both, can move it by a rounding
///   step (a child's history exactly at 436 read 435 after a 1 ns wait: rare, left as it is).
///   Sleep is added at wakeup, run time at every schedule point
///   (`put_prev`, `dequeue` of the running task; a slice expiry recomputes the priority
///   before the `put_prev` that charges the slice, as v13's scheduler_tick does before
///   schedule()), wait time when the task is picked
///   (`set_next`). The patch counted in the units of its era's clock; this model counts ns
///   with the documented 1 s window, so sub-jiffy sleeps count (a documented choice).
/// - Priority: `task_priority = clamp(100 + USER_PRIO(static) + 10 - round(20 * sleep_avg /
///   1024), 100, 159)`, so nice 0 spans 120 (always sleeping) .. 140 (hog). It is recomputed at
///   wakeup and at slice expiry (the points where the task is requeued).
/// - Time slice (§4): with `idx` the best runnable priority on this run queue (min over both
///   arrays and the task itself), `delta = prio - idx`, `base = 61 / (delta + 2)` and
///   `slice = base * (USER_PRIO(idx) + 8) / 24` in units of `base_timeslice` (1 ms; the -mm
///   version's `base_timeslice` sysctl) taken in whole jiffies of the `hz` knob, at least one:
///   v13's MIN_TIMESLICE, `HZ/1000` jiffies or 1, so up to HZ 1000 the unit is a jiffy and a
///   lone nice-0 hog gets 60 jiffies (600 ms at HZ 100, 240 ms at HZ 250); above HZ 1000 the
///   unit is HZ/1000 jiffies, rounded down (60 ms, 120 jiffies, at HZ 2000). v13 multiplies by
///   MIN_TIMESLICE before dividing (`MIN_TIMESLICE * 61 / (delta + 2)`), which differs above HZ
///   1000 only (122 jiffies, 61 ms, at HZ 2000); the unit's rounding is this model's.
///   At HZ=1000: a lone nice-0 hog (idx = prio = 140) gets 60 ms; a hog beside a fully
///   interactive nice-0 task (idx 120) 2 ms, the interactive task 35 ms. The slice is a
///   function of the queue, so a task keeps `used_slice` (jiffies run since its slice began,
///   +1 per `tick`) and expires at the tick where `used_slice >= slice` for the queue as it is
///   then. [R] The reference gives the formula and the counter; evaluating it at each tick is
///   this model's reading of how they combine.
/// - Expiry: every expiring task goes to the expired array (no interactive re-insertion, no
///   starvation timer); `used_slice` restarts. When the active array is empty the arrays are
///   swapped (in `set_next`, as o1.hpp) and `array_sequence` increments; a task that slept
///   across a switch restarts its slice at wakeup (`used_slice = 0`), and so does one that wakes
///   on another CPU's queue (whose sequence counts that queue's switches, not the task's).
/// - A queued task moved by a balancer (`migrated` without `wakeup`) lands in the destination's
///   active array whichever array it left, its slice and history unchanged: 2.6.0-test's
///   pull_task, v13's base, enqueues into `this_rq->active` (pulling expired tasks into the
///   expired array came to mainline later). A `restore` keeps the array kind.
/// - Preemption: a woken task preempts iff its recomputed priority is numerically lower.
/// - Fork/exit (§4): `task_new` splits the parent's remaining slice 50/50 through `used_slice`
///   (the child gets the odd jiffy; the slice is the one the parent has on its own run queue,
///   and a parent left with none is expired there at once, also for a child placed on another
///   CPU: v13's sched_fork runs in the parent's context, and rates the expiring parent on its
///   whole history before the split below), the child inherits 1/4 of the
///   parent's history (total floored at MIN_HISTORY, its sleep_time then set from the parent's
///   sleep_avg: v13 wake_up_forked_process; the history never reaches MAX_SLEEP = 1 s, so a
///   quarter of it is always below the 0.5 s floor and the child always starts with
///   MIN_HISTORY at the parent's sleep_avg: v13's constants make the floor win) and the parent
///   loses 1/4 of its sleep_time; the child is queued at the tail of the active array.
///   `task_dead` gives an unused first slice back to the parent (`used_slice` lowered, not
///   below 0) and, if the child slept less than the parent (a hoggish child), charges the
///   parent MAX_SLEEP · (parent's sleep_avg − child's) / 1024 / 2 of run history, in whole
///   jiffies and clamped like any run (the patch's sched_exit), on whichever CPU the parent is.
///   The child's rounding at fork is this model's choice [R]. Where v13's unsigned arithmetic
///   wraps, the model clamps: a child's unused slice returned to a parent is not allowed to
///   raise the parent's used_slice (a child that overran a shrunk first slice), and a parent
///   already past its slice at a fork gives the child no slice rather than a wrapped one (both
///   expire at their next tick either way).
/// - `yield` moves the task to the expired array keeping its `used_slice`, as the mainline of
///   the era (the patch text for yield is not in the reference) [R].
/// - A task that never ran and was not forked through `task_new` starts with MIN_HISTORY of
///   pure run history (sleep_avg 0: rated a hog until it sleeps) and its first enqueue credits
///   no sleep [R].
/// - Invariants (`verify()`): both arrays sound; every queued task is `on_rq`, records its
///   array, sits at its `prio` level; `sleep_time <= total_time`, `total_time >= MIN_HISTORY`.
/// - Complexity: every hook O(1): bitmap scans and a fixed number of 64-bit multiply-divides
///   (`mul_div_u64`, exact on 32-bit targets). `verify` O(60 + n).
/// - Omissions: SMP balancing, the 2004 (v30 / -mm) variants and their `sched_min_base` /
///   `sched_max_base` bounds, v8's waker/wakee credit split (§4: not the documented form).
#ifndef SCHEDCORE_POLICY_NICKSCHED_HPP
#define SCHEDCORE_POLICY_NICKSCHED_HPP

#include "schedcore/core/arith.hpp"
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

/// Tag of the nicksched class's list hook (a task may embed several hooks).
struct nicksched_hook_tag {};

/// Per-task state of the nicksched class, embedded in the task.
struct nicksched_entity : list_hook<nicksched_hook_tag> {
  /// MIN_HISTORY (0.5 s) in the `1024 * ns` fixed point of the history sums.
  static constexpr u64 min_history = u64{500000000} << 10;

  u8 static_prio = 130;           ///< `NICE_TO_PRIO(nice) = 130 + nice`: 110..149
  u8 prio = 140;                  ///< dynamic priority 100..159 (lower is better)
  u8 array = 0;                   ///< index of the array the task is queued in (0 or 1)
  bool on_rq = false;             ///< queued in a nicksched_policy (running counts as queued)
  bool was_expired = false;       ///< left from the expired array (where `restore` puts it back)
  bool first_time_slice = false;  ///< still on the slice it got at fork
  bool stamped = false;           ///< `timestamp` holds a real time (forked or enqueued once)
  s32 used_slice = 0;             ///< jiffies run since the current slice began
  u32 array_seq = 0;              ///< run queue's array_sequence when last queued
  u64 total_time = min_history;   ///< decayed history length, 1024 * ns
  u64 sleep_time = 0;             ///< decayed sleep within the history, 1024 * ns
  sched_time timestamp{};         ///< last switch in/out, wakeup or fork
  nicksched_entity* parent = nullptr;  ///< forking parent (for task_dead), or nullptr
  void* rq = nullptr;             ///< the policy object the task was last queued on
};

/// Nick Piggin's v13 scheduler: run queue of one CPU for SCHED_NORMAL tasks.
/// @tparam Task the task type; embeds `nicksched_entity` (by default as a base class)
/// @tparam EntityOf accessor from Task to its nicksched_entity (see policy/params.hpp)
template <class Task, class EntityOf = base_entity<nicksched_entity>>
class nicksched_policy {
  using hook_access = entity_hook_access<Task, nicksched_entity, EntityOf, list_hook<nicksched_hook_tag>>;

 public:
  using task_type = Task;                           ///< the task type
  static constexpr const char* name = "nicksched";  ///< class name
  static constexpr unsigned max_rt_prio = 100;      ///< MAX_RT_PRIO: first normal priority
  static constexpr unsigned max_user_prio = 60;     ///< user priority levels
  static constexpr unsigned max_prio = max_rt_prio + max_user_prio;  ///< MAX_PRIO = 160
  static constexpr unsigned nr_prios = max_user_prio;                ///< levels per array
  static constexpr duration_ns max_sleep = sec(1);  ///< MAX_SLEEP: the history window
  static constexpr u64 min_history = nicksched_entity::min_history;  ///< MIN_HISTORY, 1024 * ns

  /// Classes of time fed to the history (`add_task_time`'s type).
  enum class time_kind : u8 {
    run,    ///< CPU time: grows total only
    sleep,  ///< sleep: grows total and sleep
    wait,   ///< run-queue wait: decays both, adds nothing
  };

  /// Tunables.
  struct knobs {
    s64 hz = 1000;                   ///< jiffies per second (CONFIG_HZ)
    s64 base_timeslice = msec(1);    ///< unit of the slice formula, in whole jiffies, at least one (-mm `base_timeslice`)
  };
  /// Bounds and meaning of each knob.
  static constexpr knob_info<knobs> knob_table[] = {
      {"hz", knob_unit::count, &knobs::hz, 10, 100000, "timer ticks per second (CONFIG_HZ); slices are in jiffies"},
      {"base_timeslice", knob_unit::time_ns, &knobs::base_timeslice, usec(10), msec(100),
       "unit of the slice formula base = 61/(delta+2), slice = base*(USER_PRIO(idx)+8)/24; whole jiffies, at least one (v13's MIN_TIMESLICE)"},
  };

  /// Validates and installs knobs; on error nothing changes.
  errc configure(const knobs& k) noexcept {
    if (const errc e = validate_knobs(k, knob_table); e != errc::ok) return e;
    knobs_ = k;
    return errc::ok;
  }
  /// The knobs in force.
  const knobs& config() const noexcept { return knobs_; }

  /// Loads `p` (kind normal, nice -20..19) into `t`'s entity: static and dynamic priority.
  /// Refuses other kinds and bad nice (`errc::invalid_argument`) and a queued task
  /// (`errc::busy`), changing nothing.
  errc setup(Task& t, const sched_params& p) noexcept {
    nicksched_entity& e = EntityOf::get(t);
    if (p.kind != sched_kind::normal) return errc::invalid_argument;
    // validate(p) restricted to the kinds accepted above (its switch would pull
    // __gnu_thumb1_case_uqi into Cortex-M0 builds).
    if (!valid_nice(p.nice)) return errc::invalid_argument;
    if (e.on_rq) return errc::busy;
    const u8 static_prio = static_cast<u8>(130 + p.nice);
    if (e.stamped && static_prio == e.static_prio) return errc::ok;  // set_user_nice: same nice, no change
    e.static_prio = static_prio;
    // A nice change of a task with a history (v13's set_user_nice, 2.6.0's formula: prio +=
    // NICE_TO_PRIO(nice) − the old *dynamic* prio) leaves prio = NICE_TO_PRIO(nice): the history
    // bonus is dropped until the next wakeup or expiry recomputes it. A task's first setup
    // takes its priority from its (empty) history.
    e.prio = e.stamped ? e.static_prio : task_priority(e);
    return errc::ok;
  }

  /// Queues `t`. A wakeup adds the sleep to the history, recomputes the priority and restarts
  /// the slice if an array switch happened meanwhile or it wakes on another CPU's queue;
  /// `restore` returns it to the array kind it left; otherwise (a balancer's `migrated`
  /// included, as 2.6.0-test's pull_task) the tail of the active array.
  void enqueue(Task& t, sched_time now, enqueue_flags flags) noexcept {
    nicksched_entity& e = EntityOf::get(t);
    if (SCHEDCORE_MISUSE(e.on_rq)) return;
    u8 target = active_;
    // A restore (a parameter change) keeps its array kind, as set_user_nice requeues it in the
    // array it is in. A runnable task moved by the balancer goes to this queue's active array
    // whichever it left, and nothing else changes: 2.6.0-test's pull_task (v13's base) does
    // enqueue_task(p, this_rq->active). A wakeup on another CPU (wakeup | migrated) is a
    // wakeup: its sleep enters the history.
    if (has(flags, enqueue_flags::restore)) {
      if (e.was_expired) target = expired_index();
    } else if (has(flags, enqueue_flags::migrated) && !has(flags, enqueue_flags::wakeup)) {
      // pull_task: the active array, the slice and the history as they were
    } else {
      if (has(flags, enqueue_flags::wakeup) && e.stamped) {
        add_task_time(e, now - e.timestamp, time_kind::sleep);
        e.prio = task_priority(e);
        // Sequences count one queue's switches: on another CPU's queue the comparison means
        // nothing (equal numbers there are a coincidence), and the wakeup restarts the slice.
        if (e.array_seq != array_sequence_ || e.rq != this) e.used_slice = 0;
      }
      e.timestamp = now;
      e.stamped = true;
    }
    e.array = target;
    if (has(flags, enqueue_flags::head)) {
      arrays_[target].enqueue_head(t, level(e));
    } else {
      arrays_[target].enqueue(t, level(e));
    }
    e.on_rq = true;
    e.rq = this;
    e.array_seq = array_sequence_;
  }

  /// Removes `t`; if it is running its run time is charged first (a schedule point).
  void dequeue(Task& t, sched_time now, dequeue_flags) noexcept {
    nicksched_entity& e = EntityOf::get(t);
    if (SCHEDCORE_MISUSE(!e.on_rq)) return;
    if (&t == curr_) {
      charge_run(e, now);
      curr_ = nullptr;
    }
    e.was_expired = e.array != active_;
    e.array_seq = array_sequence_;
    arrays_[e.array].dequeue(t);
    e.on_rq = false;
  }

  /// Head of the best priority of the active array, or of the expired array when the active
  /// one is empty (the switch happens in `set_next`). No side effects.
  Task* pick_next(sched_time) noexcept {
    if (Task* t = arrays_[active_].pick()) return t;
    return arrays_[expired_index()].pick();
  }

  /// `t` starts running: switches arrays if it comes from the expired one (array_sequence
  /// increments) and charges its run-queue wait to the history.
  void set_next(Task& t, sched_time now) noexcept {
    nicksched_entity& e = EntityOf::get(t);
    // refuse: only a queued task, and only when nothing else runs (put_prev first)
    if (SCHEDCORE_MISUSE(!e.on_rq || (curr_ != nullptr && curr_ != &t))) return;
    if (e.array != active_ && arrays_[active_].empty()) {
      active_ = expired_index();
      ++array_sequence_;
    }
    if (&t != curr_) add_task_time(e, now - e.timestamp, time_kind::wait);
    e.array_seq = array_sequence_;
    e.timestamp = now;
    curr_ = &t;
  }

  /// Running `t` stops running (a schedule point): its run time is charged.
  void put_prev(Task& t, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&t != curr_)) return;  // refuse: not the running task
    charge_run(EntityOf::get(t), now);
    curr_ = nullptr;
  }

  /// One jiffy of `used_slice`; at or past the slice the queue allows now, the task expires:
  /// priority recomputed (from the history as of its last schedule point: the slice's run is
  /// charged by the `put_prev` that follows), `used_slice` restarted, moved to the expired
  /// array. True asks for a reschedule.
  bool tick(Task& curr, sched_time) noexcept {
    nicksched_entity& e = EntityOf::get(curr);
    // Refused for a task that is not running: it would use up a waiting task's slice.
    if (SCHEDCORE_MISUSE(!e.on_rq || &curr != curr_)) return false;
    if (e.array != active_) return true;
    ++e.used_slice;
    if (e.used_slice < timeslice_jiffies(e.prio)) return false;
    // No run charge here: put_prev (the schedule point that follows) charges the slice, so
    // the priority below comes from the history as of the last schedule point.
    e.used_slice = 0;
    e.first_time_slice = false;
    arrays_[e.array].dequeue(curr);
    e.prio = task_priority(e);
    e.array = expired_index();
    arrays_[e.array].enqueue(curr, level(e));
    return true;
  }

  /// A woken task preempts iff its priority is strictly better; and any check finds a curr that
  /// already expired (a fork's tick, see task_new) due for the reschedule the kernel asked.
  bool wakeup_preempt(Task& woken, Task& curr, sched_time) noexcept {
    const nicksched_entity& c = EntityOf::get(curr);
    if (c.on_rq && c.array != active_) return true;
    return EntityOf::get(woken).prio < c.prio;
  }

  /// `t`'s dynamic priority, the patch's `p->prio` (100..159 on its doubled scale, lower is
  /// better; what ftrace prints). Valid queued or not: the last value computed.
  static int trace_prio(const Task& t) noexcept { return EntityOf::get(t).prio; }
  /// Optional hook `change_resched` (policy.hpp): 2.6.0's core decides for a running task:
  /// set_user_nice (which returns early for an unchanged nice) reschedules it at every change
  /// (`if ((NICE_TO_PRIO(nice) < p->static_prio) || task_running(rq, p))
  /// resched_task(rq->curr);`, tested after static_prio was set, so the running test alone
  /// decides); a change of policy or a priority boost reschedules it at a worse priority, as
  /// the 2.6 sched_setscheduler (`if (p->prio > oldprio)`). O(1).
  bool change_resched(Task&, const param_change& c, sched_time) const noexcept {
    return c.nice || c.prio > c.oldprio;
  }
  /// Queued tasks in both arrays, including a running one.
  usize nr_runnable() const noexcept { return arrays_[0].nr_queued() + arrays_[1].nr_queued(); }

  /// sched_yield(): the task moves to the expired array, keeping its used slice.
  void yield(Task& curr, sched_time) noexcept {
    nicksched_entity& e = EntityOf::get(curr);
    if (SCHEDCORE_MISUSE(!e.on_rq || &curr != curr_)) return;
    const u8 target = expired_index();
    if (e.array != target) {
      arrays_[e.array].dequeue(curr);
      e.array = target;
      arrays_[target].enqueue(curr, level(e));
    } else {
      arrays_[target].requeue_tail(curr, level(e));
    }
  }

  /// Fork: the child inherits the parent's nice and 1/4 of its history (floored at
  /// MIN_HISTORY with the parent's sleep_avg), the parent loses 1/4 of its sleep, and the
  /// parent's remaining slice is split between them.
  void task_new(Task& child, Task* parent, sched_time now) noexcept {
    nicksched_entity& c = EntityOf::get(child);
    if (SCHEDCORE_MISUSE(c.on_rq)) return;
    c.stamped = true;
    c.timestamp = now;
    c.first_time_slice = true;
    c.parent = nullptr;
    c.was_expired = false;
    c.array_seq = array_sequence_;
    if (parent == nullptr) {
      c.used_slice = 0;
      c.prio = task_priority(c);
      return;
    }
    nicksched_entity& p = EntityOf::get(*parent);
    c.static_prio = p.static_prio;
    c.parent = &p;
    // v13 sched_fork runs in the parent's context: the slice split is the one the parent has
    // on its own run queue (task_timeslice(current, task_rq(current))), and a parent left
    // with none is ticked there, wherever the child is placed.
    nicksched_policy& home =
        p.on_rq && p.rq != nullptr ? *static_cast<nicksched_policy*>(p.rq) : *this;
    const s32 slice = static_cast<s32>(home.timeslice_jiffies(p.prio));
    s32 left = slice - p.used_slice;
    if (left < 0) left = 0;
    const s32 child_part = (left + 1) / 2;
    p.used_slice += child_part;
    c.used_slice = slice - child_part;
    // v13 sched_fork: a parent left with no slice is put one jiffy short of it and ticked at
    // once, so it expires at the fork (and is rescheduled) rather than at its next tick.
    if (p.used_slice >= slice) {
      p.used_slice = slice - 1;
      if (parent == home.curr_ && p.on_rq) static_cast<void>(home.tick(*parent, now));
    }
    // Then wake_up_forked_process's history split (after copy_process's sched_fork, whose
    // tick above rated an expiring parent on its whole history): the child takes a quarter,
    // the parent loses a quarter of its sleep.
    c.total_time = p.total_time / 4;
    c.sleep_time = p.sleep_time / 4;
    if (c.total_time < min_history) {  // floored: the child keeps the parent's sleep_avg
      c.total_time = min_history;
      c.sleep_time = (min_history >> 10) * sleep_avg_of(p);
    }
    p.sleep_time = 3 * p.sleep_time / 4;
    c.prio = task_priority(c);
  }

  /// Exit: an unused first slice goes back to the parent, and a child that slept less than
  /// its parent charges the parent its remembered run time.
  void task_dead(Task& t, sched_time) noexcept {
    nicksched_entity& e = EntityOf::get(t);
    if (SCHEDCORE_MISUSE(e.on_rq)) return;
    nicksched_entity* const p = e.parent;
    e.parent = nullptr;
    if (p == nullptr) return;
    // The parent's fields only (no queue of another CPU is touched), as sched_exit does for a
    // parent on any CPU; the slice is the child's on its own run queue (task_timeslice(p, rq)).
    if (e.first_time_slice) {
      s32 unused = static_cast<s32>(timeslice_jiffies(e.prio)) - e.used_slice;
      if (unused < 0) unused = 0;
      p->used_slice = p->used_slice > unused ? p->used_slice - unused : 0;
    }
    const u32 child_avg = sleep_avg_of(e), parent_avg = sleep_avg_of(*p);
    if (child_avg < parent_avg) {
      // MAX_SLEEP (HZ jiffies) · Δsleep_avg / SLEEP_FACTOR / 2, truncated to whole jiffies.
      const u64 jiffies = static_cast<u64>(knobs_.hz) * (parent_avg - child_avg) / 2048u;
      add_task_time(*p, static_cast<duration_ns>(jiffies) * (sec(1) / knobs_.hz), time_kind::run);
    }
  }

  /// Forgets `child`'s parent link (call when the parent's entity goes away first).
  static void orphan(Task& child) noexcept { EntityOf::get(child).parent = nullptr; }

  /// `sleep_avg` of `t`: 1024 * sleep_time / total_time, 0..1024.
  static u32 sleep_avg(const Task& t) noexcept { return sleep_avg_of(EntityOf::get(t)); }
  /// The priority `t`'s history gives now (what the next wakeup or expiry will set).
  static unsigned priority_from_history(const Task& t) noexcept { return task_priority(EntityOf::get(t)); }
  /// The slice `t` would get on this run queue as it is now, in ns.
  duration_ns timeslice(const Task& t) const noexcept {
    return timeslice_jiffies(EntityOf::get(t).prio) * (sec(1) / knobs_.hz);
  }
  /// Number of array switches so far (`array_sequence`).
  u32 array_sequence() const noexcept { return array_sequence_; }
  /// Adds `d` of kind `k` to `t`'s history (`add_task_time`); exposed for ports that account
  /// time the hooks do not see.
  static void add_time(Task& t, duration_ns d, time_kind k) noexcept { add_task_time(EntityOf::get(t), d, k); }

  /// Structural check: both arrays, and every queued task's bookkeeping. O(60 + n).
  bool verify() const noexcept {
    for (u8 a = 0; a < 2; ++a) {
      if (!arrays_[a].verify()) return false;
      for (unsigned lvl = 0; lvl < nr_prios; ++lvl) {
        for (const Task* t = arrays_[a].first_at(lvl); t != nullptr; t = arrays_[a].next_at_same_prio(*t)) {
          const nicksched_entity& e = EntityOf::get(*t);
          if (!e.on_rq || e.array != a || level(e) != lvl || e.rq != this) return false;
          if (e.sleep_time > e.total_time || e.total_time < min_history || e.used_slice < 0) return false;
        }
      }
    }
    return curr_ == nullptr || EntityOf::get(*curr_).on_rq;
  }

 private:
  u8 expired_index() const noexcept { return static_cast<u8>(active_ ^ 1u); }
  static unsigned level(const nicksched_entity& e) noexcept { return static_cast<unsigned>(e.prio) - max_rt_prio; }

  static void add_task_time(nicksched_entity& e, duration_ns t, time_kind k) noexcept {
    if (t <= 0) return;
    const duration_ns cap = k == time_kind::wait ? max_sleep / 16 : max_sleep / 4;
    if (t > cap) t = cap;
    u32 avg = sleep_avg_of(e);  // v13 stores sleep_avg and a wait leaves it alone
    const u32 keep = static_cast<u32>(max_sleep - t);
    const u64 window = static_cast<u64>(max_sleep);
    e.total_time = decay(e.total_time, keep, window);
    e.sleep_time = decay(e.sleep_time, keep, window);
    if (k != time_kind::wait) e.total_time += static_cast<u64>(t) << 10;
    if (k == time_kind::sleep) e.sleep_time += static_cast<u64>(t) << 10;
    if (k != time_kind::wait) avg = sleep_avg_of(e);
    if (e.total_time < min_history) {  // floored: sleep_time rescaled to keep sleep_avg
      e.total_time = min_history;
      e.sleep_time = (min_history >> 10) * avg;
    }
  }
  // v13's `(r * sum + MAX_SLEEP / 2) / MAX_SLEEP`: rounded to nearest. The floor comes from
  // mul_div_u64 (the product needs more than 64 bits); the remainder, below the window, is
  // exact in wrapping 64-bit arithmetic.
  static u64 decay(u64 sum, u32 keep, u64 window) noexcept {
    const u64 floor = mul_div_u64(sum, keep, window);
    const u64 rem = sum * keep - floor * window;
    return floor + (rem >= window - window / 2 ? 1u : 0u);
  }
  static u32 sleep_avg_of(const nicksched_entity& e) noexcept {
    return static_cast<u32>((e.sleep_time << 10) / e.total_time);
  }
  static u8 task_priority(const nicksched_entity& e) noexcept {
    const s64 bonus = (20 * static_cast<s64>(sleep_avg_of(e)) + 512) / 1024;
    s64 prio = static_cast<s64>(max_rt_prio) + (static_cast<s64>(e.static_prio) - max_rt_prio) + 10 - bonus;
    if (prio < static_cast<s64>(max_rt_prio)) prio = max_rt_prio;
    if (prio > static_cast<s64>(max_prio) - 1) prio = max_prio - 1;
    return static_cast<u8>(prio);
  }
  // The slice a task at `prio` gets with the queue as it is, in jiffies (>= 1).
  s64 timeslice_jiffies(unsigned prio) const noexcept {
    unsigned idx = prio;
    for (const auto& a : arrays_) {
      const unsigned best = a.best_prio();
      if (best != a.npos && best + max_rt_prio < idx) idx = best + max_rt_prio;
    }
    const s64 delta = static_cast<s64>(prio) - static_cast<s64>(idx);
    const s64 base = static_cast<s64>(max_user_prio + 1) / (delta + 2);
    const s64 units = base * (static_cast<s64>(idx - max_rt_prio) + 8) / 24;
    // v13's MIN_TIMESLICE: the unit in whole jiffies, at least one (1 ms is one jiffy at HZ
    // 1000, two at HZ 2000, and rounds up to one jiffy below HZ 1000).
    const s64 jiffy = sec(1) / knobs_.hz;
    const s64 unit_jiffies = knobs_.base_timeslice / jiffy;
    const s64 j = units * (unit_jiffies > 1 ? unit_jiffies : 1);
    return j > 1 ? j : 1;
  }
  void charge_run(nicksched_entity& e, sched_time now) noexcept {
    const duration_ns ran = now - e.timestamp;
    if (ran < 0) return;  // a step back charges nothing and keeps the stamp (policy.hpp, "Time")
    add_task_time(e, ran, time_kind::run);
    e.timestamp = now;
  }

  prio_array<Task, nr_prios, prio_order::lower_first, hook_access> arrays_[2]{};  ///< the two arrays
  u8 active_ = 0;              ///< index of the active array
  u32 array_sequence_ = 0;     ///< array switches so far
  Task* curr_ = nullptr;       ///< the running task of this class, if any
  knobs knobs_{};              ///< tunables in force
};

}  // namespace schedcore

#endif
