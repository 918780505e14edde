/// @file
/// @brief `goodness24_policy`: the Linux 2.4 scheduler (2.4.16): `goodness()`, per-task
/// `counter` in ticks, epoch recalculation over every task, O(n) pick (algorithms-legacy.md §3).
///
/// @par Algorithm (§3, source S4 = pristine 2.4.16 kernel/sched.c, timer.c, fork.c)
/// - `NICE_TO_TICKS(n) = TICK_SCALE(20 - n) + 1` with TICK_SCALE(x) = x>>2 (HZ < 200), x>>1
///   (< 400), x (< 800), x<<1 (< 1600), x<<2 otherwise (knob `hz`, 100 as on i386): at HZ=100
///   nice -20/0/19 get 11/6/1 ticks = 110/60/10 ms.
/// - `goodness(p)`: SCHED_YIELD set -> -1; RT (fifo/rr) -> 1000 + rt_priority; SCHED_OTHER:
///   0 if `counter` is 0, else `counter + 20 - nice`, + `proc_change_penalty` (15 on i386) if
///   the task last ran on this CPU and `cpus > 1` (2.4 applies it under CONFIG_SMP only),
///   + `same_mm_bonus` (1) if it shares the address space of the task that ran last.
/// - pick: scan the whole run list, keep the *first strictly greater* goodness, starting from
///   -1000 (idle). Epoch recalculation when the best goodness would be 0 (every runnable
///   SCHED_OTHER task has counter 0): `counter = counter/2 + NICE_TO_TICKS(nice)` over **all**
///   tasks of the policy including sleeping ones — so sleepers accumulate up to the fixed
///   point 2N-1 (11 ticks at nice 0, HZ=100: §3 oracle 3).
/// - tick: `if (--counter <= 0) { counter = 0; resched }`; an exhausted SCHED_RR task gets
///   `NICE_TO_TICKS(nice)` and moves to the tail. 2.4 does that in schedule(), for whatever
///   emptied the counter, so `put_prev` does it too (a fork halving an RR parent's last tick to
///   0, a FIFO task with no ticks left made SCHED_RR), and a dequeue of the running task
///   refills the counter of one that leaves the run list.
/// - wakeup: the task is added at the **head** of the run list (2.4.16's `add_to_runqueue` is
///   `list_add`; algorithms-legacy.md §3 says "appends at tail", which is later 2.4 releases'
///   behaviour — the source S4 itself uses the head) and preempts iff
///   `goodness(p) - goodness(curr) > 0` with curr's address space as reference (UP rule).
/// - Parameter change (`dequeue(save)`, `setup`, `enqueue(restore)`): 2.4's sys_nice and
///   setpriority only set `p->nice`, leaving the run list alone, so a restore with the same
///   kind puts the task back where it was (before the task that followed it); setscheduler moves the
///   task to the head (`move_first_runqueue`), which a restore with a changed kind or
///   rt_priority does. A setscheduler call that changes nothing also moved it to the head in
///   2.4 (no early return); here it is a nice change and keeps the place. `setup` keeps an RT
///   task's nice (setscheduler does; sched_params' nice is not the task's for an RT kind), so a
///   nice change of an RT task, which sizes its RR quantum in 2.4, cannot be made through it.
/// - fork (`task_new`): child `counter = (parent + 1)/2`, parent `counter /= 2` (a parent left
///   with 0 asks for a reschedule, do_fork's `need_resched`: when it is this instance's running
///   task, the next `wakeup_preempt` or `take_resched` answers true); the child
///   inherits the parent's CPU (`processor`), so it counts as having last run here when the
///   parent is this instance's running task (PROC_CHANGE_PENALTY on SMP). `task_new` runs on
///   the child's run queue, and on SMP the parent may be queued on another CPU's: the change of
///   the parent's class (its counter may drop to 0) is counted in that queue's counts, which
///   each queued entity points to (`counted_in`). A caller running CPUs in parallel holds both
///   queues' locks for a fork across them. The parent's queue recalculates at its next hook.
/// - exit (`task_dead`): the child's remaining ticks go back to its parent, capped at
///   `MAX_COUNTER = 20*HZ/100` (2.4.16's `release_task`, run by the reaper, normally the parent
///   in wait4; here at the child's exit, since the simulator has no wait). Every tick counts,
///   recalculated ones included: Andrea Arcangeli's -aa trees limited the credit to children
///   forked since the last recalculation (`get_child_timeslice`), mainline 2.4 did not. The
///   parent link is an entity pointer: call `orphan(child)` if the parent's entity goes first.
/// - sched_yield: if another task is runnable, SCHED_OTHER tasks get the SCHED_YIELD flag
///   (goodness -1 for the next pick only: it is cleared when the next task is set running, as
///   in `__schedule_tail`) and the task moves to the tail of the run list.
///
/// @par Modelling choices
/// - Address spaces: the simulator has no mm. `goodness24_entity::mm_id` names one: 0 (the
///   default) means "a process of its own", so the same-mm bonus goes only to the task that
///   ran last (2.4's `p->mm == this_mm` for single-threaded processes); tasks with the same
///   non-zero `mm_id` are threads of one process. Kernel threads (no mm, always +1) are not
///   modelled. Both bonuses are knobs (`same_mm_bonus`, `proc_change_penalty`).
/// - One instance is one CPU's run queue (2.4 had one global run queue); the "last ran on this
///   CPU" test compares the instance the task last ran on (`ran_on`, set when it is picked to
///   run, copied from the parent at a fork) with the picking one, so a task moved away and back
///   without running keeps the bonus, as 2.4's `processor` does. On several CPUs an
///   epoch covers the tasks of its own instance only: 2.4's `for_each_task` recalculated every
///   task of the system, and a sleeper last queued on a quiet CPU missed none of a busy CPU's
///   epochs (after 1 s of a nice-0 hog on the other CPU it wakes with counter 11 in 2.4, 6
///   here). On one CPU the two are the same.
/// - The epoch recalculation is done eagerly, at the end of the hook after which 2.4's
///   schedule() would find `c == 0` (tick, dequeue, yield, enqueue into a queue of exhausted
///   tasks), so `pick_next` stays free of side effects; the result is the same because a
///   schedule follows each of those at the same instant. O(1) counters of runnable tasks with
///   positive (`hot`) and zero (`cold`) goodness make the test O(1).
/// - All tasks: an intrusive list (`all` hook) of every task set up or forked into this policy
///   (and any task enqueued unregistered), removed in `task_dead`. Call `setup` on the
///   instance that will run the task. The list has no size counter, so a task migrating in
///   (`enqueue_flags::migrated`) can be moved from another instance's list in O(1).
/// - Initial counter: a task set up outside fork starts with `NICE_TO_TICKS(nice)` (2.4's tasks
///   all descend from init via fork; `DEF_COUNTER` only seeds init). A later setup (nice
///   change) keeps the counter, as 2.4's sys_nice and setpriority do.
///
/// @par Invariants (`verify()`)
/// Both lists are consistent rings; every queued task is `on_rq` and registered; the hot/cold
/// counts equal a recount; the counter is never negative.
///
/// @par Complexity
/// pick_next O(n runnable) (2.4's cost, §3 oracle 4); a recalculation O(all tasks); every other
/// hook O(1).
///
/// @par Omissions
/// SMP `reschedule_idle` (CPU choice: the simulator's business), `PF_*` flags, the "signal
/// pending keeps an interruptible task runnable" rule, kernel threads' lazy mm.
#ifndef SCHEDCORE_POLICY_GOODNESS24_HPP
#define SCHEDCORE_POLICY_GOODNESS24_HPP

#include "schedcore/core/assert.hpp"
#include "schedcore/core/errc.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/intrusive/list.hpp"
#include "schedcore/intrusive/list_hook.hpp"
#include "schedcore/policy/flags.hpp"
#include "schedcore/policy/entity_access.hpp"
#include "schedcore/policy/params.hpp"

namespace schedcore {

/// Tag of the goodness24 run-list hook.
struct goodness24_run_tag {};
/// Tag of the goodness24 all-tasks hook.
struct goodness24_all_tag {};

/// One run queue's runnable tasks by goodness class (goodness24_policy keeps its own; see
/// goodness24_entity::counted_in).
struct goodness24_counts {
  usize hot = 0;   ///< runnable tasks with goodness > 0
  usize cold = 0;  ///< runnable SCHED_OTHER tasks with counter 0, not yielded
};

/// Per-task state of the goodness24 class, embedded in the task.
struct goodness24_entity : list_hook<goodness24_run_tag>, list_hook<goodness24_all_tag> {
  sched_kind kind = sched_kind::normal;  ///< normal (SCHED_OTHER), fifo or rr
  s8 nice = 0;                           ///< -20..19
  u8 rt_priority = 0;                    ///< 1..99 for fifo/rr
  bool on_rq = false;                    ///< on the run list (running counts)
  bool yielded = false;                  ///< the SCHED_YIELD flag
  s32 counter = 0;                       ///< remaining ticks (2.4's `p->counter`)
  u32 mm_id = 0;                         ///< address space: 0 = its own; equal non-zero ids share one
  /// The instance (CPU) it last ran on, or nullptr: 2.4's `p->processor`, written only when it
  /// is picked to run (a fork copies the parent's). PROC_CHANGE_PENALTY goes to a task whose
  /// `ran_on` is the picking instance, however often it was moved without running.
  const void* ran_on = nullptr;
  /// While on_rq: the class counts of the run queue that holds it. A fork halves the parent's
  /// counter from the child's queue, which on SMP may be another CPU's: the change of the
  /// parent's class is counted where the parent is queued.
  goodness24_counts* counted_in = nullptr;
  /// The forking parent while both live (2.4's reaper at the child's exit), or nullptr: the
  /// child's unused ticks go back to it (`release_task`). Cleared by `orphan`.
  goodness24_entity* parent = nullptr;
};

/// Linux 2.4 goodness scheduler run queue (see the file notes).
/// @tparam Task the task type; embeds `goodness24_entity` (by default as a base class)
/// @tparam EntityOf accessor from Task to its goodness24_entity (see policy/params.hpp)
template <class Task, class EntityOf = base_entity<goodness24_entity>>
class goodness24_policy {
  template <class Tag>
  using hook_access = entity_hook_access<Task, goodness24_entity, EntityOf, list_hook<Tag>>;
  using run_access = hook_access<goodness24_run_tag>;
  using all_access = hook_access<goodness24_all_tag>;

 public:
  using task_type = Task;                            ///< the task type
  static constexpr const char* name = "goodness24";  ///< class name

  /// Tunables: 2.4's compile-time constants as knobs.
  struct knobs {
    s64 hz = 100;                  ///< timer frequency (i386 2.4: 100); scales NICE_TO_TICKS
    s64 cpus = 1;                  ///< CPUs; the PROC_CHANGE_PENALTY applies only when > 1
    s64 proc_change_penalty = 15;  ///< same-CPU bonus (PROC_CHANGE_PENALTY, i386)
    s64 same_mm_bonus = 1;         ///< same-address-space bonus
  };
  /// Bounds and meaning of each knob.
  static constexpr knob_info<knobs> knob_table[] = {
      {"hz", knob_unit::count, &knobs::hz, 10, 10000, "timer frequency; NICE_TO_TICKS uses TICK_SCALE by HZ"},
      {"cpus", knob_unit::count, &knobs::cpus, 1, 4096, "CPU count; PROC_CHANGE_PENALTY is SMP-only"},
      {"proc_change_penalty", knob_unit::count, &knobs::proc_change_penalty, 0, 1000,
       "goodness bonus for the CPU the task last ran on (15 on i386)"},
      {"same_mm_bonus", knob_unit::count, &knobs::same_mm_bonus, 0, 1000,
       "goodness bonus for sharing the last task's address space (1)"},
  };

  /// Validates and installs knobs; on error nothing changes.
  errc configure(const knobs& k) noexcept {
    if (const errc e = validate_knobs(k, knob_table); e != errc::ok) return e;
    knobs_ = k;
    return errc::ok;
  }
  /// The knobs in force.
  const knobs& config() const noexcept { return knobs_; }

  /// 2.4's `NICE_TO_TICKS(nice)` at `hz`: `TICK_SCALE(20 - nice) + 1` ticks.
  static constexpr s32 nice_to_ticks(int nice, s64 hz) noexcept {
    const s32 x = 20 - nice;
    s32 scaled = 0;
    if (hz < 200) {
      scaled = x >> 2;
    } else if (hz < 400) {
      scaled = x >> 1;
    } else if (hz < 800) {
      scaled = x;
    } else if (hz < 1600) {
      scaled = x << 1;
    } else {
      scaled = x << 2;
    }
    return scaled + 1;
  }
  /// `NICE_TO_TICKS(nice)` at the configured HZ.
  s32 nice_to_ticks(int nice) const noexcept { return nice_to_ticks(nice, knobs_.hz); }

  /// Loads `p` (normal, fifo or rr) into `t`'s entity and registers `t` in this policy's list
  /// of all tasks (an unregistered task starts with `NICE_TO_TICKS(nice)`). Refuses another
  /// kind, a bad nice or RT priority (`errc`), and a queued task (`errc::busy`), with no change.
  errc setup(Task& t, const sched_params& p) noexcept {
    goodness24_entity& e = EntityOf::get(t);
    if (p.kind != sched_kind::normal && p.kind != sched_kind::fifo && p.kind != sched_kind::rr)
      return errc::invalid_argument;
    if (const errc err = validate(p); err != errc::ok) return err;
    if (e.on_rq) return errc::busy;
    e.kind = p.kind;
    e.rt_priority = p.kind == sched_kind::normal ? u8{0} : p.rt_priority;
    // 2.4's setscheduler() changes the policy and rt_priority only: a task becoming SCHED_RR
    // keeps its nice, which sizes its RR quantum (NICE_TO_TICKS) and its epoch refills.
    // (A task first set up as RT takes `p.nice` when it is a valid nice: sched_params' RT fields do not
    // check it.)
    if (p.kind == sched_kind::normal) {
      e.nice = p.nice;
    } else if (!registered(t)) {
      e.nice = valid_nice(p.nice) ? p.nice : s8{0};
    }
    if (!registered(t)) {
      e.counter = nice_to_ticks(e.nice);
      all_.push_back(t);
    }
    return errc::ok;
  }

  /// Puts `t` at the head of the run list (2.4.16's `add_to_runqueue`); a restore of the same
  /// kind and rt_priority puts it back where its `dequeue(save)` took it from (a nice change
  /// leaves 2.4's run list alone; a change of kind or rt_priority can only come from
  /// setscheduler / setparam, whose `move_first_runqueue` puts it at the head).
  void enqueue(Task& t, sched_time, enqueue_flags flags) noexcept {
    goodness24_entity& e = EntityOf::get(t);
    if (SCHEDCORE_MISUSE(e.on_rq)) return;
    // A task migrating in leaves whichever instance's list holds it (no size counter).
    if (has(flags, enqueue_flags::migrated) && registered(t)) all_.erase(t);
    if (!registered(t)) all_.push_back(t);
    if (has(flags, enqueue_flags::restore) && saved_ == &t && saved_kind_ == e.kind &&
        saved_rt_priority_ == e.rt_priority) {
      if (saved_next_ != nullptr && EntityOf::get(*saved_next_).on_rq) {
        run_.insert(run_.iterator_to(*saved_next_), t);
      } else {
        run_.push_back(t);
      }
    } else {
      run_.push_front(t);
    }
    saved_ = nullptr;
    e.on_rq = true;
    e.counted_in = &counts_;
    count(e, +1);
    maybe_recalculate();
  }
  /// Removes `t` from the run list (a `save` remembers where, for the restore).
  void dequeue(Task& t, sched_time, dequeue_flags flags) noexcept {
    goodness24_entity& e = EntityOf::get(t);
    if (SCHEDCORE_MISUSE(!e.on_rq)) return;
    saved_ = nullptr;
    if (has(flags, dequeue_flags::save)) {
      saved_ = &t;
      saved_kind_ = e.kind;
      saved_rt_priority_ = e.rt_priority;
      auto next = run_.iterator_to(t);
      ++next;
      saved_next_ = next == run_.end() ? nullptr : &*next;
    }
    if (&t == curr_) {
      note_prev(t);
      curr_ = nullptr;
      if (!has(flags, dequeue_flags::save)) {
        fork_resched_ = false;
        // schedule() refills an exhausted RR task before it leaves the run list
        if (e.kind == sched_kind::rr && e.counter == 0) e.counter = nice_to_ticks(e.nice);
      }
    }
    count(e, -1);
    run_.erase(t);
    e.on_rq = false;
    e.counted_in = nullptr;
    if (yielder_ == &t) {
      e.yielded = false;
      yielder_ = nullptr;
    }
    if (!has(flags, dequeue_flags::save)) maybe_recalculate();
  }
  /// O(n): the first task of the run list with the strictly greatest goodness, or nullptr.
  Task* pick_next(sched_time) noexcept {
    Task* best = nullptr;
    int c = -1000;
    for (Task& t : run_) {
      const int w = goodness(EntityOf::get(t), same_mm(t, prev_, prev_mm_));
      if (w > c) {
        c = w;
        best = &t;
      }
    }
    return best;
  }
  /// `t` starts running; the previous task's SCHED_YIELD flag is cleared (`__schedule_tail`).
  void set_next(Task& t, sched_time) noexcept {
    // refuse: only a queued task, and only when nothing else runs (put_prev first)
    if (SCHEDCORE_MISUSE(!EntityOf::get(t).on_rq || (curr_ != nullptr && curr_ != &t))) return;
    curr_ = &t;
    EntityOf::get(t).ran_on = this;
    if (yielder_ != nullptr) {
      goodness24_entity& y = EntityOf::get(*yielder_);
      count(y, -1);
      y.yielded = false;
      count(y, +1);
      yielder_ = nullptr;
      maybe_recalculate();
    }
  }
  /// Running `t` stops running; it keeps its run-list position.
  void put_prev(Task& t, sched_time) noexcept {
    if (SCHEDCORE_MISUSE(&t != curr_)) return;  // refuse: not the running task
    note_prev(t);
    curr_ = nullptr;
    fork_resched_ = false;  // the schedule it asked for is this one
    goodness24_entity& e = EntityOf::get(t);
    if (e.kind == sched_kind::rr && e.counter == 0) {  // schedule(): an exhausted RR task goes last
      count(e, -1);
      e.counter = nice_to_ticks(e.nice);
      count(e, +1);
      run_.erase(t);
      run_.push_back(t);
    }
  }
  /// `--counter`; at 0 ask for a reschedule (an RR task is refilled and moved to the tail).
  bool tick(Task& curr, sched_time) noexcept {
    // Refused for a task that is not running: it would use up a waiting task's counter.
    if (SCHEDCORE_MISUSE(&curr != curr_)) return false;
    goodness24_entity& e = EntityOf::get(curr);
    count(e, -1);
    bool resched = false;
    if (--e.counter <= 0) {
      e.counter = 0;
      resched = true;
      if (e.kind == sched_kind::rr && e.on_rq) {
        e.counter = nice_to_ticks(e.nice);
        run_.erase(curr);
        run_.push_back(curr);
      }
    }
    count(e, +1);
    maybe_recalculate();
    return resched;
  }
  /// UP `reschedule_idle`: preempt iff `goodness(woken) - goodness(curr) > 0`, both against
  /// curr's address space.
  bool wakeup_preempt(Task& woken, Task& curr, sched_time) noexcept {
    if (take_resched()) return true;
    const goodness24_entity& c = EntityOf::get(curr);
    const int gw = goodness(EntityOf::get(woken), same_mm(woken, &curr, c.mm_id));
    const int gc = goodness(c, true);
    return gw - gc > 0;
  }
  /// The reschedule a fork asked for when it left the running parent no ticks (do_fork's
  /// `need_resched`); asking clears it.
  bool take_resched() noexcept {
    if (!fork_resched_) return false;
    fork_resched_ = false;
    return true;
  }
  /// Optional hook `change_resched` (policy.hpp): 2.4's setscheduler() always asks the caller
  /// (here the task itself) to reschedule (`current->need_resched = 1;`); a nice change
  /// (sys_setpriority's `p->nice = niceval;`, sys_nice's `current->nice = newprio;`) only
  /// writes the value. O(1).
  bool change_resched(Task&, const param_change& c, sched_time) const noexcept { return !c.nice; }
  /// Tasks on the run list (including a running one).
  usize nr_runnable() const noexcept { return run_.size(); }
  /// sched_yield(): when another task is runnable, SCHED_OTHER gets SCHED_YIELD for the next
  /// pick; the task moves to the tail of the run list.
  void yield(Task& curr, sched_time) noexcept {
    goodness24_entity& e = EntityOf::get(curr);
    if (SCHEDCORE_MISUSE(!e.on_rq || &curr != curr_)) return;
    if (run_.size() <= 1) return;
    if (e.kind == sched_kind::normal && !e.yielded) {
      if (yielder_ != nullptr && yielder_ != &curr) {  // at most one pending flag
        goodness24_entity& y = EntityOf::get(*yielder_);
        count(y, -1);
        y.yielded = false;
        count(y, +1);
      }
      count(e, -1);
      e.yielded = true;
      count(e, +1);
      yielder_ = &curr;
    }
    run_.erase(curr);
    run_.push_back(curr);
    maybe_recalculate();
  }
  /// Fork: child `counter = (parent + 1)/2`, parent `counter /= 2`; registers the child and
  /// links it to its parent for the exit credit.
  void task_new(Task& child, Task* parent, sched_time) noexcept {
    goodness24_entity& c = EntityOf::get(child);
    if (SCHEDCORE_MISUSE(c.on_rq)) return;
    if (!registered(child)) all_.push_back(child);
    // 2.4 copies the parent's `processor`: the child "last ran" where its parent runs now,
    // which for a child placed on another CPU is not this instance.
    c.ran_on = parent != nullptr ? EntityOf::get(*parent).ran_on : nullptr;
    c.parent = nullptr;
    if (parent == nullptr) return;
    goodness24_entity& p = EntityOf::get(*parent);
    c.parent = &p;
    count(p, -1);
    c.counter = (p.counter + 1) / 2;
    p.counter /= 2;
    count(p, +1);
    if (p.counter == 0 && parent == curr_) fork_resched_ = true;
  }
  /// Exit: unregisters `t` from the list of all tasks, and gives its remaining ticks back to
  /// its parent if the parent is alive in this class (2.4's `release_task`: the reaper's
  /// `counter += p->counter`, then `counter >= MAX_COUNTER` sets it to MAX_COUNTER, which can
  /// also lower a parent already above it). @pre t is not queued
  void task_dead(Task& t, sched_time) noexcept {
    goodness24_entity& e = EntityOf::get(t);
    if (SCHEDCORE_MISUSE(e.on_rq)) return;
    unregister(t);
    goodness24_entity* const p = e.parent;
    e.parent = nullptr;
    if (p == nullptr || !static_cast<const list_hook<goodness24_all_tag>&>(*p).is_linked()) return;
    // The parent may be queued, or running, on another CPU's queue: its class change is
    // counted there (counted_in), as at a fork. A credit only adds ticks or clamps at the
    // maximum, so no recalculation can become due.
    count(*p, -1);
    const s32 max = max_counter();
    p->counter += e.counter;
    if (p->counter >= max) p->counter = max;
    count(*p, +1);
  }

  /// `t` moves to another class: it leaves the all-tasks list the epoch recalculation walks,
  /// as when it dies, and keeps its parent link (setup or task_new in this class registers it
  /// again; the credit is paid only if it dies in this class).
  void switched_from(Task& t, sched_time) noexcept { unregister(t); }

  /// Forgets `child`'s parent link. Call it when the parent's entity goes away first (2.4
  /// reparents the child to init, which reaps it with no credit to anyone modelled).
  static void orphan(Task& child) noexcept { EntityOf::get(child).parent = nullptr; }

  /// 2.4's `MAX_COUNTER`, `20 * HZ / 100` ticks (20 at HZ = 100): the cap of an exit credit.
  s32 max_counter() const noexcept { return static_cast<s32>(20 * knobs_.hz / 100); }

  /// 2.4's goodness of `t` for the next pick (against the last task's address space).
  int goodness_of(const Task& t) const noexcept { return goodness(EntityOf::get(t), same_mm(t, prev_, prev_mm_)); }
  /// Number of epoch recalculations so far.
  u64 recalculations() const noexcept { return recalcs_; }

  /// Ring consistency of both lists, run-list membership and the hot/cold counts. O(all).
  bool verify() const noexcept {
    if (!run_.verify() || !all_.verify()) return false;
    usize hot = 0, cold = 0;
    for (const Task& t : run_) {
      const goodness24_entity& e = EntityOf::get(t);
      if (!e.on_rq || e.counted_in != &counts_ || !registered(t) || e.counter < 0) return false;
      const int k = klass(e);
      hot += k > 0 ? 1u : 0u;
      cold += k == 0 ? 1u : 0u;
    }
    for (const Task& t : all_) {
      if (EntityOf::get(t).counter < 0) return false;
    }
    return hot == counts_.hot && cold == counts_.cold;
  }

 private:
  /// @cond INTERNAL
  static bool registered(const Task& t) noexcept {
    return static_cast<const list_hook<goodness24_all_tag>&>(EntityOf::get(t)).is_linked();
  }
  static bool is_rt(const goodness24_entity& e) noexcept { return e.kind != sched_kind::normal; }

  /// Takes `t` out of the all-tasks list and forgets it as the last or yielding task. Its
  /// address space stays the reference of the next pick (2.4's schedule() compares with
  /// `prev->active_mm`, which an exiting task keeps until after the pick).
  void unregister(Task& t) noexcept {
    if (registered(t)) all_.erase(t);
    if (prev_ == &t) prev_ = nullptr;
    if (yielder_ == &t) yielder_ = nullptr;
  }

  bool same_mm(const Task& t, const Task* ref, u32 ref_mm) const noexcept {
    if (&t == ref) return true;
    const u32 mm = EntityOf::get(t).mm_id;
    return mm != 0 && mm == ref_mm;
  }

  int goodness(const goodness24_entity& e, bool same_mm_as_prev) const noexcept {
    if (e.yielded) return -1;
    if (is_rt(e)) return 1000 + e.rt_priority;
    if (e.counter <= 0) return 0;
    s64 w = e.counter;
    if (knobs_.cpus > 1 && e.ran_on == this) w += knobs_.proc_change_penalty;
    if (same_mm_as_prev) w += knobs_.same_mm_bonus;
    w += 20 - e.nice;
    return static_cast<int>(w);
  }

  /// +1 hot (goodness > 0), 0 cold (SCHED_OTHER with counter 0), -1 neither (yielded).
  static int klass(const goodness24_entity& e) noexcept {
    if (e.yielded) return -1;
    if (is_rt(e) || e.counter > 0) return 1;
    return 0;
  }
  /// Counts `e` in (+1) or out of (-1) the class counts of the queue that holds it, if any
  /// (this one, except for a forking parent running on another CPU).
  static void count(const goodness24_entity& e, int delta) noexcept {
    if (!e.on_rq || e.counted_in == nullptr) return;
    const int k = klass(e);
    usize& n = k > 0 ? e.counted_in->hot : e.counted_in->cold;
    if (k < 0) return;
    if (delta > 0) {
      ++n;
    } else {
      --n;
    }
  }

  void note_prev(const Task& t) noexcept {
    prev_ = &t;
    prev_mm_ = EntityOf::get(t).mm_id;
  }

  /// 2.4's `if (!c)` in schedule(): every runnable SCHED_OTHER task is out of ticks.
  void maybe_recalculate() noexcept {
    if (counts_.hot != 0 || counts_.cold == 0) return;
    for (Task& t : all_) {
      goodness24_entity& e = EntityOf::get(t);
      count(e, -1);
      e.counter = e.counter / 2 + nice_to_ticks(e.nice);
      count(e, +1);
    }
    ++recalcs_;
  }

  list<Task, run_access> run_{};         ///< runnable tasks (2.4's runqueue_head)
  list<Task, all_access, false> all_{};  ///< every task of the policy, sleeping ones too
  Task* curr_ = nullptr;                 ///< the running task of this class
  const Task* prev_ = nullptr;           ///< the task that ran last (identity only, never read)
  u32 prev_mm_ = 0;                      ///< its address space (0: none to share)
  bool fork_resched_ = false;            ///< a fork left the running parent no ticks
  Task* yielder_ = nullptr;              ///< the task whose SCHED_YIELD flag is pending
  Task* saved_ = nullptr;                ///< the task a `dequeue(save)` took out, until its restore
  Task* saved_next_ = nullptr;           ///< the task that followed it in the run list (nullptr: it was last)
  sched_kind saved_kind_ = sched_kind::normal;  ///< its kind when saved
  u8 saved_rt_priority_ = 0;             ///< its rt_priority when saved
  goodness24_counts counts_{};           ///< this queue's runnable tasks by class (its entities point here)
  u64 recalcs_ = 0;                      ///< epoch recalculations
  knobs knobs_{};                        ///< tunables in force
  /// @endcond
};

}  // namespace schedcore

#endif
