/// @file
/// @brief `o1_policy`: the Linux 2.6.21/2.6.22 mainline O(1) scheduler for SCHED_NORMAL and
/// SCHED_BATCH tasks (algorithms-legacy.md §1).
///
/// @par Implementation notes
/// - Algorithm (§1.1, §1.5): two `prio_array`s, *active* and *expired*. A task runs from the
///   head of the best non-empty priority of the active array; when its time slice runs out at a
///   tick it gets a fresh slice and goes to the expired array, unless it is rated interactive
///   (`TASK_INTERACTIVE`) and the expired tasks are not starving (`EXPIRED_STARVING`), in which
///   case it is re-queued at the tail of the active array. When the active array is empty the
///   two are swapped (no recalculation loop: slices are refilled at expiry). The swap is done
///   where 2.6.22 does it, in schedule(): `pick_next` (pure) returns the head of the expired
///   array when the active one is empty, and `set_next` on such a task performs the switch
///   (resetting `expired_timestamp` and `best_expired_prio`). schedule() also clears
///   `expired_timestamp` when it switches to idle; here that is done by the `dequeue` that
///   empties this class (not a `save` one), since `pick_next` has no side effects.
/// - 40 levels, not 140: the kernel's `prio_array` had 140 lists because SCHED_FIFO/RR tasks
///   (prio 0..99) lived in the same arrays (§1.8). Here RT tasks are `rt_policy`'s, stacked
///   above this class in a `class_stack`. The split is equivalent because in 2.6.22 an RT task
///   (prio < 100) always sorted before every normal task in the shared bitmap search, always
///   preempted a normal task, never entered the expired array and got no sleep_avg processing,
///   and the array switch cannot happen while an RT task is queued in active (the active array
///   is not empty then), just as here it happens only when this class is picked, i.e. when no
///   RT task is runnable. Two small differences remain and are documented: `EXPIRED_STARVING`
///   multiplies by this class's runnable count (the kernel's `nr_running` also counted RT
///   tasks; likewise the idle-time reset of `expired_timestamp` happens when this class, not
///   the whole run queue, runs empty), and no 141st delimiter bit is needed (the bitmap's `empty()` replaces it, §1.1).
///   Priorities keep the kernel's numbering (static 100..139, `NICE_TO_PRIO(n) = 120 + n`);
///   the array index is `prio - 100`.
/// - Time slices (§1.3): `SCALE_PRIO(x, sp) = max(x * (140 - sp) / 20, MIN_TIMESLICE)` with
///   x = 4 * DEF_TIMESLICE below nice 0 and DEF_TIMESLICE from nice 0 up, in jiffies of the
///   `hz` knob (800/100/50/5 ms at nice -20/0/10/19, HZ=1000). `time_slice` counts jiffies and
///   is decremented once per `tick()` call, as `task_running_tick`: the port must call `tick`
///   at `hz`. `sleep_avg` and run-time charging are in ns, as 2.6.22's `sched_clock()` ones.
/// - Interactivity (§1.4): `sleep_avg` (ns, 0..MAX_SLEEP_AVG = 1 s) gives `CURRENT_BONUS`
///   0..10 and the dynamic priority `static_prio - (CURRENT_BONUS - 5)` clamped to 100..139.
///   Run time is charged at every schedule point (`put_prev`, or `dequeue` of the running task)
///   as `min(now - timestamp, 1 s) / max(CURRENT_BONUS, 1)`. Sleep is credited at wakeup by
///   `recalc_task_prio` (INTERACTIVE_SLEEP ceiling for one long sleep of a user task, limited
///   credit for NONINTERACTIVE sleeps), and again when a woken task is first picked: 100 % of
///   its run-queue wait if woken by an interrupt (SLEEP_INTERRUPTED), 30 % (ON_RUNQUEUE_WEIGHT,
///   as `* 38 / 128`) otherwise (SLEEP_INTERACTIVE); the task is requeued at its fresh priority
///   before it runs. The port says how a task was woken: `enqueue_flags::interrupt` (or
///   `o1_entity::wake_source` = interrupt) for a wakeup from interrupt context (a timer or a
///   device), `enqueue_flags::uninterruptible` (or `wake_source` = uninterruptible) for one
///   from TASK_UNINTERRUPTIBLE / TASK_NONINTERACTIVE, which rates it NONINTERACTIVE even with
///   `interrupt` set, set before `enqueue(wakeup)`; the default is an ordinary process-context
///   wakeup (another task woke it).
/// - Tick (§1.5): slice expiry as above (`expired_timestamp` set at the first expiry since the
///   last switch; `best_expired_prio` lowered on entering expired); otherwise an interactive
///   task is round-robined to the tail of its priority every TIMESLICE_GRANULARITY jiffies
///   (`10ms * 2^((MAX_BONUS - CURRENT_BONUS or 1) - 1) * cpus`) while at least that much slice
///   remains. A running task found in the expired array just asks for a reschedule.
/// - EXPIRED_STARVING: `curr->static_prio > best_expired_prio`, or more than
///   `STARVATION_LIMIT * nr_runnable` jiffies have passed since the first expiry, counted in
///   whole jiffies as the kernel's `jiffies - expired_timestamp` (a fork's forced tick, which
///   comes between ticks, is dated at the tick it follows). 2.6.22's STARVATION_LIMIT is
///   MAX_SLEEP_AVG = DEF_TIMESLICE x MAX_BONUS jiffies, DEF_TIMESLICE = 100 HZ / 1000 in
///   integers: 1 s when HZ is a multiple of 10, 120 jiffies (0.9375 s) at HZ 128. The knob
///   `starvation_limit` replaces it with a time (whole jiffies of it); its default -1 keeps the
///   kernel's, and 0 disables the timer part as the kernel's `!STARVATION_LIMIT`.
/// - Preemption, yield, nice (§1.6): a woken task preempts iff its prio is numerically lower
///   (sync wakeups are not modelled: the contract has no sync flag). `yield` moves a normal task
///   to the expired array (keeping its slice; no `best_expired_prio` update, as the kernel).
///   A nice change is `dequeue(save)`, `setup`, `enqueue(restore)`: the task returns to the
///   array it left and keeps its slice; the core decides the reschedule (the kernel's: if the
///   priority improved, or the running task's worsened). A policy change (normal <-> batch, or
///   a return from another class after `switched_from`) is sched_setscheduler's: the task is
///   queued by `__activate_task` rules, SCHED_BATCH in expired, SCHED_NORMAL in active. A
///   parameter change that keeps the kind is taken as set_user_nice (the contract cannot tell
///   it from a same-policy sched_setscheduler call, which would move an expired task to active).
/// - SCHED_BATCH: `setup` zeroes sleep_avg, wakeups earn no sleep credit, and a batch task
///   woken or newly queued goes to the expired array (`__activate_task`).
/// - Fork and exit (§1.7): `task_new(child, parent)` copies the parent's policy, nice and
///   sleep_avg (dup_task_struct), splits the slice (child `(slice + 1) / 2`, parent
///   `slice / 2`; a parent left with 0 gets 1 and is ticked at once, and when that tick
///   ends its slice the next `wakeup_preempt` or `take_resched` answers true), applies
///   CHILD_PENALTY 95 % / PARENT_PENALTY 100 % to the bonus (the child's priority is its own),
///   and when the parent is the running task of this run queue marks the child to run first:
///   `enqueue(initial)` queues it just before the parent in the parent's array at the
///   parent's priority (list_add_tail before `current`: the list's head unless a requeue put
///   the parent further back), and `wakeup_preempt` answers true for it. A port forking a
///   CLONE_VM thread clears `o1_entity::run_first` after `task_new` (the kernel queues threads
///   by `__activate_task`, at their own priority). `task_dead` returns an unused first
///   slice to the parent (capped at one `task_timeslice` of the child) and blends a hoggish
///   child's sleep_avg into the parent's (`3/4 parent + 1/4 child`). The parent link is an
///   entity pointer: call `orphan(child)` if the parent's entity dies first (the kernel
///   reparents to init).
/// - Invariants (`verify()`): both arrays are structurally sound; every queued task is
///   `on_rq`, records the array it is in and sits at the level of its `prio`; `sleep_avg` is
///   within 0..MAX_SLEEP_AVG; the running task (if any) is queued.
/// - Complexity: every hook O(1) (prio_array operations, a bit scan, integer arithmetic with
///   64-bit divisions). `verify` O(40 + n).
/// - Omissions: SMP balancing (§1.9: the simulator balances), sync wakeups, PI boosting (the
///   simulator's PI mutexes boost through parameter changes instead),
///   `sched_exit`'s same-CPU check is "the parent was last queued on this policy object".
///   The first enqueue of a task that never ran and was not forked through `task_new` credits
///   no sleep (the kernel stamps every task at fork).
#ifndef SCHEDCORE_POLICY_O1_HPP
#define SCHEDCORE_POLICY_O1_HPP

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

/// Tag of the o1 class's list hook (a task may embed several hooks).
struct o1_hook_tag {};

/// How the last sleep is rated (2.6.22's `sleep_type`).
enum class o1_sleep_type : u8 {
  normal,          ///< SLEEP_NORMAL: nothing pending
  noninteractive,  ///< SLEEP_NONINTERACTIVE: uninterruptible sleep, or capped by INTERACTIVE_SLEEP
  interactive,     ///< SLEEP_INTERACTIVE: 30 % of the run-queue wait is credited when picked
  interrupted,     ///< SLEEP_INTERRUPTED: woken by an interrupt, 100 % of the wait is credited
};

/// How a sleeping task is being woken; set by the port before `enqueue(wakeup)`.
enum class o1_wake_source : u8 {
  process,          ///< an ordinary wakeup from TASK_INTERRUPTIBLE in process context
  interrupt,        ///< woken from interrupt context (`in_interrupt()`): SLEEP_INTERRUPTED
  uninterruptible,  ///< woke from TASK_UNINTERRUPTIBLE or a TASK_NONINTERACTIVE sleep
};

/// Per-task state of the o1 class, embedded in the task.
struct o1_entity : list_hook<o1_hook_tag> {
  sched_kind kind = sched_kind::normal;  ///< normal or batch
  u8 static_prio = 120;                  ///< `NICE_TO_PRIO(nice)`: 100..139
  u8 prio = 125;                         ///< dynamic priority 100..139 (lower is better)
  u8 array = 0;                          ///< index of the array the task is queued in (0 or 1)
  bool on_rq = false;                    ///< queued in an o1_policy (running counts as queued)
  bool was_expired = false;              ///< `restore`/`migrated` queue it in expired (the array it left,
                                         ///< or after a policy change SCHED_BATCH's)
  bool first_time_slice = false;         ///< still on the slice it got at fork
  bool run_first = false;                ///< forked child that should run before its parent
  bool stamped = false;                  ///< `timestamp` holds a real time (forked or enqueued once)
  bool kthread = false;                  ///< a kernel thread (`!p->mm`): no INTERACTIVE_SLEEP ceiling
  o1_sleep_type sleep_type = o1_sleep_type::normal;       ///< rating of the pending wakeup
  o1_wake_source wake_source = o1_wake_source::process;   ///< set by the port before a wakeup
  s32 time_slice = 0;                    ///< remaining slice in jiffies (0: not yet assigned)
  duration_ns sleep_avg = 0;             ///< interactivity estimate, ns, 0..MAX_SLEEP_AVG
  sched_time timestamp{};                ///< last switch in/out, wakeup or fork
  o1_entity* parent = nullptr;           ///< forking parent (for task_dead), or nullptr
  const void* rq = nullptr;              ///< the policy object the task was last queued on
};

/// Linux 2.6.22 O(1) run queue of one CPU for SCHED_NORMAL / SCHED_BATCH.
/// @tparam Task the task type; embeds `o1_entity` (by default as a base class)
/// @tparam EntityOf accessor from Task to its o1_entity (see policy/params.hpp)
template <class Task, class EntityOf = base_entity<o1_entity>>
class o1_policy {
  using hook_access = entity_hook_access<Task, o1_entity, EntityOf, list_hook<o1_hook_tag>>;

 public:
  using task_type = Task;                    ///< the task type
  static constexpr const char* name = "o1";  ///< class name
  static constexpr unsigned max_rt_prio = 100;   ///< MAX_RT_PRIO: first normal priority
  static constexpr unsigned max_prio = 140;      ///< MAX_PRIO
  static constexpr unsigned nr_prios = 40;       ///< levels per array (normal priorities only)
  static constexpr s64 max_bonus = 10;           ///< MAX_BONUS = 40 * PRIO_BONUS_RATIO(25) / 100
  static constexpr s64 interactive_delta = 2;    ///< INTERACTIVE_DELTA
  static constexpr s64 on_runqueue_weight = 30;  ///< ON_RUNQUEUE_WEIGHT, percent
  static constexpr s64 child_penalty = 95;       ///< CHILD_PENALTY, percent
  static constexpr s64 parent_penalty = 100;     ///< PARENT_PENALTY, percent
  static constexpr s64 exit_weight = 3;          ///< EXIT_WEIGHT

  /// Tunables. 2.6.22 had no scheduler sysctls: HZ and the CPU count were its only inputs;
  /// `starvation_limit` exposes the compile-time STARVATION_LIMIT for experiments.
  struct knobs {
    s64 hz = 1000;                    ///< jiffies per second (CONFIG_HZ)
    s64 cpus = 1;                     ///< online CPUs (scales TIMESLICE_GRANULARITY)
    s64 starvation_limit = -1;        ///< STARVATION_LIMIT; -1 the kernel's MAX_SLEEP_AVG, 0 disables
  };
  /// Bounds and meaning of each knob.
  static constexpr knob_info<knobs> knob_table[] = {
      {"hz", knob_unit::count, &knobs::hz, 10, 100000, "timer ticks per second (CONFIG_HZ); slices are in jiffies"},
      {"cpus", knob_unit::count, &knobs::cpus, 1, 4096, "online CPUs; TIMESLICE_GRANULARITY is multiplied by it"},
      {"starvation_limit", knob_unit::time_ns, &knobs::starvation_limit, -1, sec(3600),
       "EXPIRED_STARVING after this times nr_running since the first expiry (whole jiffies); -1 MAX_SLEEP_AVG's jiffies, 0 disables"},
  };

  /// Validates and installs knobs; on error nothing changes.
  errc configure(const knobs& k) noexcept {
    if (const errc e = validate_knobs(k, knob_table); e != errc::ok) return e;
    knobs_ = k;
    return errc::ok;
  }
  /// The knobs in force.
  const knobs& config() const noexcept { return knobs_; }
  /// The STARVATION_LIMIT in force, ns: whole jiffies (MAX_SLEEP_AVG's, or the knob's); 0 off.
  duration_ns starvation_limit() const noexcept { return jiffies_to_ns(starvation_limit_jiffies()); }

  /// Loads `p` (kind normal or batch, nice -20..19) into `t`'s entity: static priority,
  /// dynamic priority, and a full slice if the task has none yet. SCHED_BATCH zeroes
  /// sleep_avg. Refuses other kinds and bad nice (`errc::invalid_argument`) and a queued task
  /// (`errc::busy`), changing nothing.
  errc setup(Task& t, const sched_params& p) noexcept {
    o1_entity& e = EntityOf::get(t);
    if (p.kind != sched_kind::normal && p.kind != sched_kind::batch) return errc::invalid_argument;
    // validate(p) restricted to the kinds accepted above (its switch would pull
    // __gnu_thumb1_case_uqi into Cortex-M0 builds).
    if (!valid_nice(p.nice)) return errc::invalid_argument;
    if (e.on_rq) return errc::busy;
    // A policy change is sched_setscheduler's: the task is queued again by __activate_task
    // (expired for SCHED_BATCH, active otherwise), not in the array it left.
    const bool becomes_batch = p.kind == sched_kind::batch && e.kind != sched_kind::batch;
    if (p.kind != e.kind) e.was_expired = p.kind == sched_kind::batch;
    e.kind = p.kind;
    e.static_prio = static_cast<u8>(120 + p.nice);
    // 2.6.22's __setscheduler computes the priority first (normal_prio, from the sleep_avg the
    // task has) and only then zeroes sleep_avg for SCHED_BATCH: the task keeps its bonus until
    // its priority is next recomputed. A nice change (set_user_nice) never zeroes it. (A
    // sched_setscheduler to SCHED_BATCH of a task already SCHED_BATCH, which would zero it,
    // cannot be told from a nice change here.)
    e.prio = effective_prio(e);
    if (becomes_batch) e.sleep_avg = 0;
    if (e.time_slice <= 0) e.time_slice = static_cast<s32>(task_timeslice(e));
    return errc::ok;
  }

  /// Queues `t`. A wakeup (on this CPU or migrated) credits the sleep (`recalc_task_prio`) and
  /// rates it for the pick-time credit; `restore` and a runnable task's `migrated` return it to
  /// the array kind it left (after a policy change:
  /// expired for SCHED_BATCH, active otherwise); a marked forked child
  /// goes ahead of its parent; otherwise the active array (a batch task: the expired one).
  SCHEDCORE_ALWAYS_INLINE void enqueue(Task& t, sched_time now, enqueue_flags flags) noexcept {
    o1_entity& e = EntityOf::get(t);
    if (SCHEDCORE_MISUSE(e.on_rq)) return;
    u8 target = active_;
    // A task moved while runnable (a restore, the balancer's move) keeps its array kind; a
    // task woken on another CPU (wakeup | migrated) is a wakeup like any other: 2.6.22's
    // activate_task credits its sleep wherever it lands (only correcting for clock drift).
    const bool keep_array = has(flags, enqueue_flags::restore) ||
                            (has(flags, enqueue_flags::migrated) && !has(flags, enqueue_flags::wakeup));
    if (keep_array) {
      target = e.was_expired ? expired_index() : active_;
    } else if (e.run_first && e.parent != nullptr && e.parent->on_rq && e.parent->rq == this) {
      queue_before_parent(t, e, now);
      return;
    } else {
      if (has(flags, enqueue_flags::wakeup) && e.stamped) {
        if (e.wake_source == o1_wake_source::uninterruptible || has(flags, enqueue_flags::uninterruptible))
          e.sleep_type = o1_sleep_type::noninteractive;
        e.prio = recalc_task_prio(e, now - e.timestamp);
        if (e.sleep_type == o1_sleep_type::normal)
          e.sleep_type = e.wake_source == o1_wake_source::interrupt || has(flags, enqueue_flags::interrupt)
                             ? o1_sleep_type::interrupted
                             : o1_sleep_type::interactive;
      }
      e.wake_source = o1_wake_source::process;
      e.timestamp = now;
      if (e.kind == sched_kind::batch) target = expired_index();
    }
    e.stamped = true;
    e.run_first = false;
    insert(t, e, target, has(flags, enqueue_flags::head));
  }

  /// Removes `t`; if it is running its run time is charged first (a schedule point). When
  /// this empties the run queue (other than around a parameter change) the CPU goes idle, and
  /// `expired_timestamp` is cleared as 2.6.22's schedule() does on switching to idle.
  void dequeue(Task& t, sched_time now, dequeue_flags flags) noexcept {
    o1_entity& e = EntityOf::get(t);
    if (SCHEDCORE_MISUSE(!e.on_rq)) return;
    if (&t == curr_) {
      // A parameter change of the running task (save ... restore, set_next) is not a schedule
      // point: 2.6.22's set_user_nice and __setscheduler charge nothing, and the next
      // schedule() charges the whole run since the task's timestamp, at its changed bonus.
      if (has(flags, dequeue_flags::save)) {
        restored_curr_ = &t;
      } else {
        charge(e, now);
        fork_resched_ = false;
      }
      curr_ = nullptr;
    } else if (restored_curr_ == &t) {
      restored_curr_ = nullptr;
    }
    e.was_expired = e.array != active_;
    arrays_[e.array].dequeue(t);
    e.on_rq = false;
    if (!has(flags, dequeue_flags::save) && nr_runnable() == 0) expired_ts_valid_ = false;
  }

  /// The head of the best priority of the active array, or of the expired array when the
  /// active one is empty (the switch itself happens in `set_next`). No side effects.
  Task* pick_next(sched_time) noexcept {
    if (Task* t = arrays_[active_].pick()) return t;
    return arrays_[expired_index()].pick();
  }

  /// `t` starts running: switches the arrays if `t` comes from the expired one, applies the
  /// pick-time on-runqueue credit of an interactive/interrupted wakeup (requeueing at the new
  /// priority), and stamps the start of the run.
  void set_next(Task& t, sched_time now) noexcept {
    o1_entity& e = EntityOf::get(t);
    // refuse: only a queued task, and only when nothing else runs (put_prev first)
    if (SCHEDCORE_MISUSE(!e.on_rq || (curr_ != nullptr && curr_ != &t))) return;
    // The switch is schedule()'s. A running task put back after a parameter change (the core's
    // set_curr_task) is not a schedule: one moved to the expired array (SCHED_BATCH) runs on
    // there, and its next tick asks for the schedule that switches.
    if (e.array != active_ && arrays_[active_].empty() && &t != restored_curr_) switch_arrays();
    if (e.sleep_type == o1_sleep_type::interactive || e.sleep_type == o1_sleep_type::interrupted) {
      duration_ns delta = now - e.timestamp;
      if (delta < 0) delta = 0;
      if (e.sleep_type == o1_sleep_type::interactive) delta = delta * (on_runqueue_weight * 128 / 100) / 128;
      const u8 new_prio = recalc_task_prio(e, delta);
      if (new_prio != e.prio) {
        e.prio = new_prio;
        arrays_[e.array].requeue_tail(t, level(e));
      }
    }
    e.sleep_type = o1_sleep_type::normal;
    e.run_first = false;
    if (&t != restored_curr_) e.timestamp = now;  // a restored curr keeps its run's start
    restored_curr_ = nullptr;
    curr_ = &t;
  }

  /// Running `t` stops running (a schedule point): its run time is charged.
  void put_prev(Task& t, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&t != curr_)) return;  // refuse: not the running task
    charge(EntityOf::get(t), now);
    curr_ = nullptr;
    fork_resched_ = false;  // the schedule it asked for is this one
  }

  /// `task_running_tick`: decrements the slice; on expiry refills it and moves the task to the
  /// expired array (or back to active's tail if interactive and nobody starves); otherwise
  /// round-robins an interactive task every TIMESLICE_GRANULARITY. True asks for a reschedule.
  bool tick(Task& curr, sched_time now) noexcept {
    o1_entity& e = EntityOf::get(curr);
    // Refused for a task that is not running: it would use up a waiting task's slice.
    if (SCHEDCORE_MISUSE(!e.on_rq || &curr != curr_)) return false;
    last_tick_ = now;
    last_tick_valid_ = true;
    return running_tick(curr, e, now);
  }

  /// `TASK_PREEMPTS_CURR`: a strictly better dynamic priority preempts; a child marked to run
  /// before its parent always does, and so does any wakeup after a fork whose forced tick
  /// ended the parent's slice (sched_fork's task_running_tick set need_resched).
  bool wakeup_preempt(Task& woken, Task& curr, sched_time) noexcept {
    o1_entity& w = EntityOf::get(woken);
    if (take_resched()) return true;
    if (w.run_first) return true;
    return w.prio < EntityOf::get(curr).prio;
  }

  /// The reschedule a fork's forced tick asked for (for a port that queues the child without a
  /// preemption check, as 2.6.22 does a CLONE_VM thread); asking clears it.
  bool take_resched() noexcept {
    if (!fork_resched_) return false;
    fork_resched_ = false;
    return true;
  }

  /// `t`'s dynamic priority, the kernel's `p->prio` (100..139, lower is better; what ftrace's
  /// sched_switch prints as prev_prio/next_prio). Valid queued or not: the last value computed.
  static int trace_prio(const Task& t) noexcept { return EntityOf::get(t).prio; }
  /// Optional hook `change_resched` (policy.hpp): the core of 2.6.22 decides for a
  /// running task, whatever its class was: sched_setscheduler and rt_mutex_setprio reschedule it
  /// at a worse priority (`if (task_running(rq, p)) { if (p->prio > oldprio)
  /// resched_task(rq->curr); }`), set_user_nice at any move of its priority (`delta = p->prio -
  /// old_prio; ... if (delta < 0 || (delta > 0 && task_running(rq, p)))
  /// resched_task(rq->curr);`). O(1).
  bool change_resched(Task&, const param_change& c, sched_time) const noexcept {
    return c.nice ? c.prio != c.oldprio : c.prio > c.oldprio;
  }
  /// Queued tasks in both arrays, including a running one.
  usize nr_runnable() const noexcept { return arrays_[0].nr_queued() + arrays_[1].nr_queued(); }

  /// sched_yield(): a normal task moves to the expired array (tail of its priority).
  void yield(Task& curr, sched_time) noexcept {
    o1_entity& e = EntityOf::get(curr);
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

  /// Fork (`sched_fork` + `wake_up_new_task`): copies the parent's policy, nice and sleep_avg,
  /// splits the parent's slice, applies the fork penalties and marks child-runs-first when the
  /// parent is this run queue's running task. `parent` nullptr: a fresh task with its own slice.
  void task_new(Task& child, Task* parent, sched_time now) noexcept {
    o1_entity& c = EntityOf::get(child);
    if (SCHEDCORE_MISUSE(c.on_rq)) return;
    c.stamped = true;
    c.timestamp = now;
    c.sleep_type = o1_sleep_type::normal;
    c.wake_source = o1_wake_source::process;
    c.first_time_slice = true;
    c.run_first = false;
    c.parent = nullptr;
    c.was_expired = false;
    if (parent == nullptr) {
      if (c.time_slice <= 0) c.time_slice = static_cast<s32>(task_timeslice(c));
      c.prio = effective_prio(c);
      return;
    }
    o1_entity& p = EntityOf::get(*parent);
    c.kind = p.kind;
    c.static_prio = p.static_prio;
    c.kthread = p.kthread;
    c.sleep_avg = p.sleep_avg;
    c.parent = &p;
    c.time_slice = (p.time_slice + 1) / 2;
    p.time_slice /= 2;
    const bool parent_running = parent == curr_ && p.on_rq;
    if (p.time_slice <= 0) {
      p.time_slice = 1;
      // sched_fork's task_running_tick, between ticks: jiffies has not moved since the last
      // tick, so that is its date (EXPIRED_STARVING counts jiffies); its reschedule request
      // stands whether or not the child is checked for preemption.
      if (parent_running && running_tick(*parent, p, tick_before(now))) fork_resched_ = true;
    }
    c.sleep_avg = jiffies_to_ns(current_bonus(c) * child_penalty / 100 * max_sleep_avg() / max_bonus);
    // The child's own priority; only the child-runs-first enqueue gives it the parent's
    // (wake_up_new_task copies current->prio outside CLONE_VM alone).
    c.prio = effective_prio(c);
    if (parent_running) c.run_first = true;
    p.sleep_avg = jiffies_to_ns(current_bonus(p) * parent_penalty / 100 * max_sleep_avg() / max_bonus);
  }

  /// Exit (`sched_exit`): an unused first slice goes back to the parent (capped at one
  /// `task_timeslice` of the child) and a hoggish child drags the parent's sleep_avg down.
  void task_dead(Task& t, sched_time) noexcept {
    o1_entity& e = EntityOf::get(t);
    if (SCHEDCORE_MISUSE(e.on_rq)) return;
    o1_entity* const p = e.parent;
    e.parent = nullptr;
    if (p == nullptr) return;
    if (e.first_time_slice && p->rq == this) {
      const s64 cap = task_timeslice(e);
      s64 slice = static_cast<s64>(p->time_slice) + e.time_slice;
      if (slice > cap) slice = cap;
      p->time_slice = static_cast<s32>(slice);
    }
    if (e.sleep_avg < p->sleep_avg)
      p->sleep_avg = p->sleep_avg / (exit_weight + 1) * exit_weight + e.sleep_avg / (exit_weight + 1);
  }

  /// `t` (not queued) moves to another class: if it comes back, `enqueue(restore)` queues it
  /// as sched_setscheduler's __activate_task does (expired for SCHED_BATCH, else active).
  void switched_from(Task& t, sched_time) noexcept {
    o1_entity& e = EntityOf::get(t);
    e.was_expired = e.kind == sched_kind::batch;
  }

  /// Forgets `child`'s parent link (call when the parent's entity goes away first).
  static void orphan(Task& child) noexcept { EntityOf::get(child).parent = nullptr; }

  /// `task_timeslice` of `t` (what `sched_rr_get_interval` reports), in ns.
  duration_ns timeslice(const Task& t) const noexcept { return jiffies_to_ns(task_timeslice(EntityOf::get(t))); }
  /// `CURRENT_BONUS(t)`: 0..10 from its sleep_avg.
  s64 bonus(const Task& t) const noexcept { return current_bonus(EntityOf::get(t)); }
  /// `TASK_INTERACTIVE(t)`: its dynamic priority is at least DELTA better than its static one.
  bool interactive(const Task& t) const noexcept { return task_interactive(EntityOf::get(t)); }
  /// True when `t` is queued in the expired array.
  bool in_expired(const Task& t) const noexcept {
    const o1_entity& e = EntityOf::get(t);
    return e.on_rq && e.array != active_;
  }

  /// Structural check: both arrays, and every queued task's bookkeeping. O(40 + n).
  bool verify() const noexcept {
    for (u8 a = 0; a < 2; ++a) {
      if (!arrays_[a].verify()) return false;
      for (unsigned lvl = 0; lvl < nr_prios; ++lvl) {
        for (const Task* t = arrays_[a].first_at(lvl); t != nullptr; t = arrays_[a].next_at_same_prio(*t)) {
          const o1_entity& e = EntityOf::get(*t);
          if (!e.on_rq || e.array != a || level(e) != lvl || e.rq != this) return false;
          if (e.sleep_avg < 0 || e.sleep_avg > ns_max_sleep_avg()) return false;
          if (e.time_slice <= 0) return false;
        }
      }
    }
    return curr_ == nullptr || EntityOf::get(*curr_).on_rq;
  }

 private:
  // task_running_tick (the public tick, or a fork's forced one).
  bool running_tick(Task& curr, o1_entity& e, sched_time now) noexcept {
    if (e.array != active_) return true;  // expired but not yet scheduled away
    if (--e.time_slice <= 0) {
      const usize nr_running = nr_runnable();
      e.prio = effective_prio(e);
      e.time_slice = static_cast<s32>(task_timeslice(e));
      e.first_time_slice = false;
      if (!expired_ts_valid_) {
        expired_ts_ = now;
        expired_ts_valid_ = true;
      }
      if (!task_interactive(e) || expired_starving(e, now, nr_running)) {
        arrays_[e.array].dequeue(curr);
        e.array = expired_index();
        arrays_[e.array].enqueue(curr, level(e));
        if (e.static_prio < best_expired_prio_) best_expired_prio_ = e.static_prio;
      } else {
        arrays_[e.array].requeue_tail(curr, level(e));
      }
      return true;
    }
    const s64 tsg = timeslice_granularity(e);
    if (task_interactive(e) && (task_timeslice(e) - e.time_slice) % tsg == 0 && e.time_slice >= tsg) {
      arrays_[e.array].requeue_tail(curr, level(e));
      return true;
    }
    return false;
  }

  // A forked child that runs first: wake_up_new_task's list_add_tail(&p->run_list,
  // &current->run_list) puts it just before the parent in its list, at the parent's priority
  // (the head only when the parent is; a fork-time tick or a requeue may have put it further
  // back). Out of line: a fork is rare, and the wakeup path stays small enough to inline.
  SCHEDCORE_COLD void queue_before_parent(Task& t, o1_entity& e, sched_time now) noexcept {
    e.prio = e.parent->prio;
    Task& parent = EntityOf::template task_of<Task>(*e.parent);
    e.array = e.parent->array;
    if (Task* before = arrays_[e.array].prev_at_same_prio(parent)) {
      arrays_[e.array].enqueue_after(t, *before);
    } else {
      arrays_[e.array].enqueue_head(t, level(e));
    }
    e.on_rq = true;
    e.rq = this;
    e.timestamp = now;
  }

  u8 expired_index() const noexcept { return static_cast<u8>(active_ ^ 1u); }
  static unsigned level(const o1_entity& e) noexcept { return static_cast<unsigned>(e.prio) - max_rt_prio; }

  void insert(Task& t, o1_entity& e, u8 target, bool at_head) noexcept {
    e.array = target;
    if (at_head) {
      arrays_[target].enqueue_head(t, level(e));
    } else {
      arrays_[target].enqueue(t, level(e));
    }
    e.on_rq = true;
    e.rq = this;
  }

  void switch_arrays() noexcept {
    active_ = expired_index();
    expired_ts_valid_ = false;
    best_expired_prio_ = max_prio;
  }

  // Jiffy arithmetic of the era, from the hz knob.
  s64 tick_ns() const noexcept { return sec(1) / knobs_.hz; }
  duration_ns jiffies_to_ns(s64 j) const noexcept { return j * tick_ns(); }
  s64 ns_to_jiffies(duration_ns ns) const noexcept { return ns / tick_ns(); }
  // The last tick at or before `now` on this queue's tick grid (ticks fall every tick_ns()
  // from the last one seen); `now` itself before any tick.
  sched_time tick_before(sched_time now) const noexcept {
    if (!last_tick_valid_) return now;
    const duration_ns since = now - last_tick_;
    if (since < 0) return now;
    return last_tick_ + since / tick_ns() * tick_ns();
  }
  s64 min_timeslice() const noexcept {
    const s64 j = 5 * knobs_.hz / 1000;
    return j > 1 ? j : 1;
  }
  s64 def_timeslice() const noexcept { return 100 * knobs_.hz / 1000; }
  s64 max_sleep_avg() const noexcept { return def_timeslice() * max_bonus; }
  duration_ns ns_max_sleep_avg() const noexcept { return jiffies_to_ns(max_sleep_avg()); }
  s64 granularity() const noexcept {
    const s64 j = 10 * knobs_.hz / 1000;
    return j > 0 ? j : 1;
  }

  // SCALE_PRIO / static_prio_timeslice, jiffies.
  s64 task_timeslice(const o1_entity& e) const noexcept {
    const s64 sp = e.static_prio;
    const s64 x = sp < 120 ? 4 * def_timeslice() : def_timeslice();
    const s64 slice = x * (static_cast<s64>(max_prio) - sp) / 20;
    const s64 min = min_timeslice();
    return slice > min ? slice : min;
  }
  s64 current_bonus(const o1_entity& e) const noexcept {
    return ns_to_jiffies(e.sleep_avg) * max_bonus / max_sleep_avg();
  }
  u8 effective_prio(const o1_entity& e) const noexcept {
    s64 prio = static_cast<s64>(e.static_prio) - (current_bonus(e) - max_bonus / 2);
    if (prio < static_cast<s64>(max_rt_prio)) prio = max_rt_prio;
    if (prio > static_cast<s64>(max_prio) - 1) prio = max_prio - 1;
    return static_cast<u8>(prio);
  }
  static s64 delta(const o1_entity& e) noexcept {
    const s64 nice = static_cast<s64>(e.static_prio) - 120;
    return (nice + 20) * max_bonus / 40 - max_bonus / 2 + interactive_delta;
  }
  static bool task_interactive(const o1_entity& e) noexcept {
    return static_cast<s64>(e.prio) <= static_cast<s64>(e.static_prio) - delta(e);
  }
  duration_ns interactive_sleep(const o1_entity& e) const noexcept {
    return jiffies_to_ns(max_sleep_avg() * (max_bonus / 2 + delta(e) + 1) / max_bonus - 1);
  }
  s64 timeslice_granularity(const o1_entity& e) const noexcept {
    s64 shift = max_bonus - current_bonus(e);
    if (shift == 0) shift = 1;
    return granularity() * (s64{1} << (shift - 1)) * knobs_.cpus;
  }
  // STARVATION_LIMIT in jiffies: the kernel's MAX_SLEEP_AVG, or the knob's whole jiffies.
  s64 starvation_limit_jiffies() const noexcept {
    return knobs_.starvation_limit < 0 ? max_sleep_avg() : ns_to_jiffies(knobs_.starvation_limit);
  }
  // `expired_timestamp` and `now` both fall on ticks (task_new dates its forced tick at the tick
  // before it), so the whole jiffies between them are the kernel's jiffies difference.
  bool expired_starving(const o1_entity& curr, sched_time now, usize nr_running) const noexcept {
    if (curr.static_prio > best_expired_prio_) return true;
    if (knobs_.starvation_limit == 0 || !expired_ts_valid_) return false;
    return ns_to_jiffies(now - expired_ts_) > starvation_limit_jiffies() * static_cast<s64>(nr_running);
  }

  // recalc_task_prio(p, p->timestamp + sleep_time): credits a sleep, returns the fresh prio.
  u8 recalc_task_prio(o1_entity& e, duration_ns sleep_time) const noexcept {
    if (e.kind == sched_kind::batch) sleep_time = 0;
    if (sleep_time > 0) {
      const duration_ns ceiling = interactive_sleep(e);
      if (!e.kthread && sleep_time > ceiling && e.sleep_avg < ceiling) {
        e.sleep_avg = ceiling;  // one long sleep makes a task just interactive, never maximal
        e.sleep_type = o1_sleep_type::noninteractive;
      } else {
        if (e.sleep_type == o1_sleep_type::noninteractive && !e.kthread) {
          if (e.sleep_avg >= ceiling) {
            sleep_time = 0;
          } else if (e.sleep_avg + sleep_time >= ceiling) {
            e.sleep_avg = ceiling;
            sleep_time = 0;
          }
        }
        e.sleep_avg += sleep_time;
      }
      if (e.sleep_avg > ns_max_sleep_avg()) e.sleep_avg = ns_max_sleep_avg();
    }
    return effective_prio(e);
  }

  // schedule()'s charge for prev: run time since the last stamp, divided by the bonus.
  void charge(o1_entity& e, sched_time now) noexcept {
    duration_ns run = now - e.timestamp;
    if (run < 0) return;  // a step back charges nothing and keeps the stamp (policy.hpp, "Time")
    if (run > ns_max_sleep_avg()) run = ns_max_sleep_avg();
    const s64 cb = current_bonus(e);
    run /= cb > 0 ? cb : 1;
    e.sleep_avg -= run;
    if (e.sleep_avg < 0) e.sleep_avg = 0;
    e.timestamp = now;
  }

  prio_array<Task, nr_prios, prio_order::lower_first, hook_access> arrays_[2]{};  ///< the two arrays
  u8 active_ = 0;                     ///< index of the active array
  Task* curr_ = nullptr;              ///< the running task of this class, if any
  Task* restored_curr_ = nullptr;     ///< curr taken out by dequeue(save), its run not yet charged
  knobs knobs_{};                     ///< tunables in force
  sched_time expired_ts_{};           ///< `expired_timestamp`: first expiry since the last switch
  bool expired_ts_valid_ = false;     ///< expired_ts_ is set (the kernel's non-zero test)
  sched_time last_tick_{};            ///< the last tick seen: where jiffies last moved
  bool last_tick_valid_ = false;      ///< last_tick_ is set
  bool fork_resched_ = false;         ///< a fork's forced tick asked for a reschedule
  unsigned best_expired_prio_ = max_prio;  ///< best static prio that expired since the switch
};

}  // namespace schedcore

#endif
