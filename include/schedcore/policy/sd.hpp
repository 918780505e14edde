/// @file
/// @brief `sd_policy`: Con Kolivas' Staircase Deadline scheduler (SD 0.46/0.48, Apr-May 2007)
/// **as reconstructed** in algorithms-legacy.md §2.3 on top of RSDL's design (§2.2).
///
/// @warning **SD-RECONSTRUCTED.** The SD 0.46/0.48 patch text and its sched-design.txt were not
/// retrievable (algorithms-legacy.md §2.3, §6). Every rule marked [R] there — the 8 ms
/// `rr_interval`, the per-nice quota formula, the `prio_matrix` generator, the enqueue rule
/// (`recalc_task_prio`), SCHED_BATCH's slot set — is implemented *exactly as that reference
/// documents it*, not as the original code may have done. Replace this policy if the patch
/// is found (ck.kolivas.org/patches/staircase-deadline/).
///
/// @par Algorithm (§2.2 [V], §2.3 [R])
/// - `rr` = knob `rr_interval` (8 ms, UP) x `(1 + ilog2(cpus))` (§2.3; the factor CFS later
///   adopted, S11).
/// - Per-task quota per slot by nice: `rr` for -6..0, `max(rr/2, 1 ms)` for nice > 0,
///   `rr*nice^2/40` for nice < -6 (nice -10: 2.5 rr, -20: 10 rr).
/// - `prio_matrix[u]` (u = nice + 20): the 40-bit set of dynamic slots (levels 0..39 = prio
///   100..139) a task may occupy during one major rotation, `sd_prio_matrix_row()` of
///   queue/stair_array.hpp: `40 - u` dithered slots, always including slot 39.
///   CPU per major rotation = quota x slots (§2.5 oracle 4: nice 0 -> 160 ms, 19 -> 4 ms).
/// - Per task (`sd_entity`): `rotation` (the rq epoch its bitmap and slice belong to), `used`
///   (slots consumed this rotation), `time_slice` (ns left of the current slot's quota),
///   `slot` (level). Per rq: `prio_rotation` (the stair_array's epoch), `prio_level[u]` (the
///   deepest level a task of user prio u has run at this rotation), the best queued user prio.
/// - Enqueue (`recalc_task_prio`, §2.3): same rotation with quota left -> back at its level
///   *unchanged*, even when the rq's current level has moved past it (§2.2: "sleepers keep
///   unused high-level quota => low wake latency"; such a task is `kept` there, below the
///   current level, untouched by minor rotations, and charges no level quota since its level
///   has closed); same rotation with quota used -> next entitled slot;
///   fresh rotation -> cleared bitmap, fresh quota, first entitled slot. The next entitled slot
///   is the first slot `>= max(own level, rq current level, prio_level[u], prio_level[best
///   queued u] if that is better than u)` that `prio_matrix[u]` allows and `used` lacks. No
///   slot left -> expired array at its first slot with a fresh bitmap and quota (SD's
///   `queue_expired`). Overrun (time run past the quota, at tick granularity) is carried into
///   the next slot (`p->time_slice += overrun`).
/// - Slot expiry (tick): the same rule moves the running task to its next slot (tail) or to the
///   expired array. Minor rotation (§2.2): each level's quota is the total quota the tasks
///   brought to it this rotation; when a running task has used it up the level closes and
///   everything still queued there moves one level down (stair_array::charge). A level is
///   charged only the run time within the running task's slice: an overrun already comes off
///   the task's next slot (charging it to the level too would close levels early and skip the
///   overrunning task's later slots at tick rates that do not divide the quotas). Major rotation:
///   when the active array is empty and the expired one is not, the arrays swap,
///   `prio_rotation++`, levels and `prio_level[]` reset.
/// - Wakeup preemption iff the woken task's level is strictly better than curr's (§2.3).
///   **No interactivity estimator**: a sleeper's level is whatever the slot rules give, never
///   better than its first entitled slot (§2.2: "no sleep/run measurement").
/// - SCHED_BATCH [R]: the same number of slots (same CPU share) but only the contiguous slots
///   from its static level `u` down to 39 (worse latency); batch tasks do not count as the
///   "best queued" static priority (as SD's best_static_prio). They do move `prio_level[u]` of
///   their nice, which the reference keys by static priority alone: a nice-0 SCHED_NORMAL task
///   queued while a nice-0 batch task runs at level 20 starts at level 21 and does not preempt
///   it (left as the reference reads; keeping batch out of `prio_level` would be a choice the
///   reference does not make).
/// - SCHED_IDLEPRIO (-ck, §5 semantics): a FIFO of idle-priority tasks, round robin by the
///   same per-nice quota, picked only when no SCHED_NORMAL/BATCH task is queued; never
///   preempts them, is preempted by any of them.
///
/// @par Invariants (`verify()`)
/// stair_array's own (rings, bitmaps, counter); every active task has
/// `rotation == prio_rotation`, `time_slice > 0` (curr excepted), sits at
/// `max(slot, current level)` (at `slot` when kept below the current level); every expired task
/// has `rotation == prio_rotation + 1` and sits at `slot`, and the slices of the expired tasks
/// at each level sum to the quota pending for it (credited at the swap); the expired array is
/// non-empty only if the active one is (rotation is eager); idle-priority tasks are only in the
/// idle FIFO; the per-user-prio counts match.
///
/// @par Complexity
/// Every hook O(1): slot choice is one bit scan (`sd_next_slot`), a minor rotation O(1) (see
/// stair_array), a major rotation O(40) (a compile-time constant: splices, quota credits,
/// `prio_level` reset). `verify()` is O(n).
///
/// @par Adaptations to stair_array (what the container lacks)
/// - The container forces a major rotation when the *last* level's quota runs out; SD rotates
///   only when the active array is empty (§2.3). The policy therefore never charges level 39
///   (its quota is never consumed) and calls `major_rotation()` itself when the active array
///   empties.
/// - The container has no quota credit for the *expired* array: quota brought by tasks queued
///   there must become level quota after the swap. The policy keeps `pending_[40]` and adds it
///   with `add_level_quota` right after each `major_rotation()` (O(40)).
/// - The container does not record a task's level; after minor rotations a queued active task
///   sits at `max(slot, current_level())` (closing moves whole levels to the fresh current one),
///   which the policy uses as its level, except a `kept` task (queued with
///   `stair_array::enqueue_keep` below the current level), which sits at `slot`. On dequeue the
///   level is written back to `slot`, so a sleeper returns where it left, not where it was first
///   queued.
/// - `prio_level[]` per static priority and the best queued static priority live in the policy.
///
/// @par Choices and omissions
/// - sched_yield: the task goes to the tail of its current level, keeping its quota.
/// - fork (`task_new`): the child shares the parent's rotation, bitmap and level and takes half
///   of the parent's remaining quota (no CPU time is created by forking). A child placed on
///   another CPU's queue arrives there as from any other queue (next item); the parent still
///   gives up half, as the split comes before the CPU is chosen.
/// - Another CPU's queue (a migration, or a fork placed away from the parent; SD's own SMP
///   balancing is omitted, the simulator's moves tasks): rotation epochs count one queue's
///   major rotations, so the task starts a fresh rotation there (cleared bitmap, a full quota,
///   its first entitled slot from that queue's levels; an overrun is carried) whatever its stamp
///   says. Each entity records the queue its stamp belongs to (`queue`, SD's `p->array`).
/// - A nice change keeps the task's rotation and bitmap; its slice is clamped to the fresh quota.
/// - Tick granularity: slots end at ticks, so a task cannot run less than one tick per slot; at
///   HZ=100 a nice-19 task (one 4 ms slot per rotation) gets 10 ms, and an overrun larger than a
///   whole rotation's entitlement is forgiven rather than carried further.
/// - Omitted: SD 1.00's `interactive` sysctl, SCHED_ISO, SMP balancing, RT (a separate class).
#ifndef SCHEDCORE_POLICY_SD_HPP
#define SCHEDCORE_POLICY_SD_HPP

#include "schedcore/core/assert.hpp"
#include "schedcore/core/bitops.hpp"
#include "schedcore/core/errc.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/intrusive/list.hpp"
#include "schedcore/intrusive/list_hook.hpp"
#include "schedcore/policy/flags.hpp"
#include "schedcore/policy/entity_access.hpp"
#include "schedcore/policy/params.hpp"
#include "schedcore/queue/stair_array.hpp"

namespace schedcore {

/// Tag of the sd class's list hook (a task may embed several hooks).
struct sd_hook_tag {};

/// Per-task state of the sd class, embedded in the task.
struct sd_entity : list_hook<sd_hook_tag> {
  sched_kind kind = sched_kind::normal;  ///< normal, batch or idle (SCHED_IDLEPRIO)
  s8 nice = 0;                           ///< -20..19
  u8 slot = 0;                           ///< level (0..39) it was queued at (active: effective max(slot, rq level))
  bool kept = false;                     ///< queued at `slot` below the rq's current level (a sleeper's leftover quota)
  bool on_rq = false;                    ///< queued in an sd_policy (running counts as queued)
  u64 rotation = ~u64{0};                ///< rq epoch (`prio_rotation`) `used`/`time_slice` belong to;
                                         ///< `prio_rotation + 1` while queued in the expired array
  const void* queue = nullptr;           ///< the sd_policy whose epochs `rotation` counts (SD's `p->array`)
  u64 used = 0;                          ///< slots (bit s = level s) consumed in `rotation`
  duration_ns time_slice = 0;            ///< ns left of the current slot's quota (may be <= 0 briefly)
  sched_time exec_start{};               ///< when the task last started running or was last charged
};

/// Staircase Deadline run queue of one CPU (SD-reconstructed, see the file notes).
/// @tparam Task the task type; embeds `sd_entity` (by default as a base class)
/// @tparam EntityOf accessor from Task to its sd_entity (see policy/params.hpp)
template <class Task, class EntityOf = base_entity<sd_entity>>
class sd_policy {
  using hook_access = entity_hook_access<Task, sd_entity, EntityOf, list_hook<sd_hook_tag>>;
  static constexpr unsigned last_level = sd_levels - 1;
  static constexpr u64 all_slots = (u64{1} << sd_levels) - 1;

 public:
  using task_type = Task;                    ///< the task type
  static constexpr const char* name = "sd";  ///< class name
  static constexpr unsigned nr_levels = sd_levels;  ///< dynamic levels (prio 100..139)
  static constexpr unsigned expired_base = 40;      ///< `level_of` of an expired task: 40 + slot
  static constexpr unsigned idle_level = 80;        ///< `level_of` of a SCHED_IDLEPRIO task

  /// Tunables, named after SD's sysctls (ns / counts).
  struct knobs {
    s64 rr_interval = msec(8);  ///< `/proc/sys/kernel/rr_interval` on UP (§2.3 [R]: 8 ms)
    s64 cpus = 1;               ///< online CPUs: rr_interval is scaled by 1 + ilog2(cpus)
  };
  /// Bounds and meaning of each knob.
  static constexpr knob_info<knobs> knob_table[] = {
      {"rr_interval", knob_unit::time_ns, &knobs::rr_interval, msec(1), sec(1),
       "SD base quota per slot on UP (algorithms-legacy.md 2.3 [R], 8 ms)"},
      {"cpus", knob_unit::count, &knobs::cpus, 1, 4096, "CPU count; rr_interval x (1 + ilog2(cpus))"},
  };

  /// Validates and installs knobs; on error nothing changes. New quotas apply from each
  /// task's next slot.
  errc configure(const knobs& k) noexcept {
    if (const errc e = validate_knobs(k, knob_table); e != errc::ok) return e;
    knobs_ = k;
    rr_ = k.rr_interval * static_cast<s64>(1u + (ilog2)(static_cast<u64>(k.cpus)));
    return errc::ok;
  }
  /// The knobs in force.
  const knobs& config() const noexcept { return knobs_; }
  /// The effective rr_interval: `rr_interval * (1 + ilog2(cpus))`, ns.
  duration_ns rr_interval() const noexcept { return rr_; }

  /// Per-slot quota of nice `nice` at the effective rr_interval (§2.3 [R]). @pre valid_nice
  duration_ns quota_of_nice(int nice) const noexcept { return quota_for(nice, rr_); }
  /// The §2.3 [R] quota formula for any `rr` (ns): rr for -6..0, max(rr/2, 1 ms) for nice > 0,
  /// rr*nice^2/40 for nice < -6.
  static constexpr duration_ns quota_for(int nice, duration_ns rr) noexcept {
    if (nice > 0) return rr / 2 > msec(1) ? rr / 2 : msec(1);
    if (nice >= -6) return rr;
    return rr * nice * nice / 40;
  }
  /// The slots a task of `kind` and `nice` may use in one major rotation: `prio_matrix[u]` for
  /// SCHED_NORMAL (and IDLEPRIO, unused), levels u..39 for SCHED_BATCH (§2.3 [R]).
  static constexpr u64 slot_row(sched_kind kind, int nice) noexcept {
    const unsigned u = nice_to_user_prio(nice);
    if (kind == sched_kind::batch) return (all_slots << u) & all_slots;
    return sd_prio_matrix_row(u);
  }

  /// Loads `p` (kind normal, batch or idle; nice -20..19) into `t`'s entity. Refuses another
  /// kind or a bad nice (`errc::invalid_argument`), and a queued task (`errc::busy`), with no
  /// change. A changed kind restarts the task's entitlement at its next enqueue; a changed
  /// nice keeps it and clamps the slice to the fresh quota.
  errc setup(Task& t, const sched_params& p) noexcept {
    sd_entity& e = EntityOf::get(t);
    if (p.kind != sched_kind::normal && p.kind != sched_kind::batch && p.kind != sched_kind::idle)
      return errc::invalid_argument;
    if (const errc err = validate(p); err != errc::ok) return err;
    if (e.on_rq) return errc::busy;
    if (p.kind != e.kind) {
      e.rotation = stale_rotation();
      e.used = 0;
      e.time_slice = 0;
    }
    e.kind = p.kind;
    e.nice = p.nice;
    const duration_ns q = quota_of_nice(p.nice);
    if (e.time_slice > q) e.time_slice = q;
    return errc::ok;
  }

  /// Queues `t` by SD's `recalc_task_prio` (see the file notes).
  void enqueue(Task& t, sched_time now, enqueue_flags) noexcept {
    sd_entity& e = EntityOf::get(t);
    if (SCHEDCORE_MISUSE(e.on_rq)) return;
    e.exec_start = now;
    e.on_rq = true;
    if (e.kind == sched_kind::idle) {
      if (e.time_slice <= 0) e.time_slice = quota_of_nice(e.nice);
      idle_.push_back(t);
      return;
    }
    count_uprio(e, +1);
    // Epochs are per queue: a task last queued on another CPU's queue (a migration, or a fork
    // placed away from its parent) cannot be in this queue's rotation, whatever its stamp says,
    // and starts a fresh one here (SD's recalc_task_prio takes its same-rotation paths only
    // when p->array is this queue's active or expired array, else task_new_array).
    if (e.queue != this) {
      e.queue = this;
      e.rotation = stale_rotation();
    }
    const u64 epoch = queue_.rotation_epoch();
    e.kept = false;
    if (e.rotation == epoch && e.time_slice > 0) {
      if (e.slot < queue_.current_level()) {
        queue_.enqueue_keep(t, e.slot);
        e.kept = true;
      } else {
        e.slot = static_cast<u8>(queue_.enqueue(t, e.slot));
      }
    } else if (e.rotation == epoch + 1 && e.time_slice > 0) {
      pending_[e.slot] += e.time_slice;
      queue_.enqueue_expired(t, e.slot);
    } else {
      // Same rotation, quota used: the search starts at its own level (a renice while it slept
      // may have made slots above it entitled that this rotation has already passed).
      unsigned own = e.slot;
      if (e.rotation != epoch) {
        new_rotation(e, epoch);
        own = 0;
      }
      if (take_slot(e, next_from(e, own))) {
        e.slot = static_cast<u8>(queue_.enqueue(t, e.slot));
      } else {
        queue_expired(t, e);
      }
    }
    rotate_if_needed();
  }
  /// Removes `t`; if it is running, charges its run time first. A rotation follows if only
  /// expired tasks remain.
  void dequeue(Task& t, sched_time now, dequeue_flags) noexcept {
    sd_entity& e = EntityOf::get(t);
    if (SCHEDCORE_MISUSE(!e.on_rq)) return;
    if (&t == curr_) {
      account(e, now);
      curr_ = nullptr;
    }
    if (e.kind == sched_kind::idle) {
      e.on_rq = false;
      idle_.erase(t);
      return;
    }
    if (expired(e)) {
      pending_[e.slot] -= e.time_slice;
    } else {
      e.slot = static_cast<u8>(level_now(e));  // minor rotations may have moved it down
    }
    e.on_rq = false;
    e.kept = false;
    count_uprio(e, -1);
    queue_.dequeue(t);
    rotate_if_needed();
  }
  /// The head of the best active level; else the first SCHED_IDLEPRIO task; else nullptr. O(1).
  Task* pick_next(sched_time) noexcept {
    if (Task* t = queue_.pick()) return t;
    return idle_.front();
  }
  /// `t` starts running.
  void set_next(Task& t, sched_time now) noexcept {
    sd_entity& e = EntityOf::get(t);
    // refuse: only a queued task, and only when nothing else runs (put_prev first)
    if (SCHEDCORE_MISUSE(!e.on_rq || (curr_ != nullptr && curr_ != &t))) return;
    curr_ = &t;
    e.exec_start = now;
    note_level(e);
  }
  /// Running `t` stops running and keeps its place; an exhausted slot is replaced first.
  void put_prev(Task& t, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&t != curr_)) return;  // refuse: not the running task
    sd_entity& e = EntityOf::get(t);
    account(e, now);
    curr_ = nullptr;
    if (e.time_slice <= 0) expire(t, e);
  }
  /// Charges the running task and its level (minor rotation when the level's quota is used);
  /// at the end of its slot's quota the task moves to its next slot or the expired array.
  bool tick(Task& curr, sched_time now) noexcept {
    // Refused for a task that is not running: its wait would be charged to its quota.
    if (SCHEDCORE_MISUSE(&curr != curr_)) return false;
    sd_entity& e = EntityOf::get(curr);
    account(e, now);
    if (e.time_slice > 0) return false;
    expire(curr, e);
    return true;
  }
  /// Preempt iff the woken task's level is strictly better than curr's (§2.3).
  bool wakeup_preempt(Task& woken, Task& curr, sched_time) noexcept {
    return level_of(woken) < level_of(curr);
  }
  /// Optional hook `change_resched` (policy.hpp): the core of 2.6.21/22 decides for a running
  /// task (taken to be as mainline's under the SD patch; not checked against it), whatever its
  /// class was: sched_setscheduler and rt_mutex_setprio reschedule it
  /// at a worse priority (`if (task_running(rq, p)) { if (p->prio > oldprio)
  /// resched_task(rq->curr); }`), set_user_nice at any move of its priority (`delta = p->prio -
  /// old_prio; ... if (delta < 0 || (delta > 0 && task_running(rq, p)))
  /// resched_task(rq->curr);`). O(1).
  bool change_resched(Task&, const param_change& c, sched_time) const noexcept {
    return c.nice ? c.prio != c.oldprio : c.prio > c.oldprio;
  }
  /// Queued tasks including a running one.
  usize nr_runnable() const noexcept { return queue_.nr_queued() + idle_.size(); }
  /// sched_yield(): the task goes to the tail of its current level, keeping its quota.
  void yield(Task& curr, sched_time now) noexcept {
    sd_entity& e = EntityOf::get(curr);
    if (SCHEDCORE_MISUSE(!e.on_rq || &curr != curr_)) return;
    account(e, now);
    if (e.time_slice <= 0) {
      expire(curr, e);
    } else if (e.kind == sched_kind::idle) {
      idle_.erase(curr);
      idle_.push_back(curr);
    } else if (!expired(e)) {
      if (e.kept) {
        queue_.dequeue(curr);
        queue_.enqueue_keep(curr, e.slot);
      } else {
        e.slot = static_cast<u8>(queue_.requeue_tail(curr, level_now(e)));
      }
    }
  }
  /// Fork: the child shares the parent's rotation, bitmap and level and takes half of the
  /// parent's remaining quota. Without a parent, or across kinds, the child starts fresh; so it
  /// does when the parent is queued on another CPU (its rotation there means nothing here).
  void task_new(Task& child, Task* parent, sched_time) noexcept {
    sd_entity& c = EntityOf::get(child);
    if (SCHEDCORE_MISUSE(c.on_rq)) return;
    c.rotation = stale_rotation();
    c.used = 0;
    c.time_slice = 0;
    if (parent == nullptr) return;
    sd_entity& p = EntityOf::get(*parent);
    if (p.kind != c.kind || p.time_slice <= 0) return;
    c.time_slice = p.time_slice / 2;
    p.time_slice -= c.time_slice;
    // An expired parent (it expired at a tick and still runs) brought its whole slice to
    // pending_; the half it gives away is brought again by the child's enqueue (or by nobody,
    // if the child is queued on another CPU), so it leaves the parent's share here.
    if (p.queue == this && expired(p)) pending_[p.slot] -= c.time_slice;
    // A parent on another CPU's queue: its rotation, bitmap and level mean nothing here, and
    // the child's first enqueue starts a fresh rotation (see enqueue).
    if (p.queue != this) return;
    c.queue = this;
    c.rotation = p.rotation;
    c.used = p.used;
    c.slot = static_cast<u8>(expired(p) || p.kind == sched_kind::idle ? p.slot : level_now(p));
  }

  /// Where `t` is (for preemption and inspection): its active level 0..39 (prio 100 + level),
  /// `expired_base + slot` when expired, `idle_level` for SCHED_IDLEPRIO. @pre t is queued
  unsigned level_of(const Task& t) const noexcept {
    const sd_entity& e = EntityOf::get(t);
    if (e.kind == sched_kind::idle) return idle_level;
    if (expired(e)) return expired_base + e.slot;
    return level_now(e);
  }
  /// `t`'s dynamic priority as SD's `p->prio` (what ftrace prints): 100 + its level on the
  /// staircase (the rq's current level if that moved past it), 100 + its slot when expired or
  /// not queued (where it last was), 139 for SCHED_IDLEPRIO.
  int trace_prio(const Task& t) const noexcept {
    const sd_entity& e = EntityOf::get(t);
    if (e.kind == sched_kind::idle) return 139;
    const unsigned level = e.on_rq && !expired(e) ? level_now(e) : e.slot;
    return 100 + static_cast<int>(level < sd_levels ? level : sd_levels - 1);
  }
  /// Major rotations so far (SD's `rq->prio_rotation`).
  u64 prio_rotation() const noexcept { return queue_.rotation_epoch(); }
  /// The rq's current level (lower levels have closed this rotation).
  unsigned current_level() const noexcept { return queue_.current_level(); }
  /// The deepest level a task of user prio `u` (nice + 20) has run at this rotation.
  unsigned prio_level(unsigned u) const noexcept { return u < sd_levels ? prio_level_[u] : 0u; }
  /// Quota left at `level` this rotation (stair_array's level quota), ns.
  duration_ns level_quota(unsigned level) const noexcept { return queue_.level_quota(level); }

  /// Structural and SD invariants (see the file notes). O(n).
  bool verify() const noexcept {
    if (!queue_.verify() || !idle_.verify()) return false;
    if (queue_.active_empty() && !queue_.expired_empty()) return false;
    const u64 epoch = queue_.rotation_epoch();
    usize by_u[sd_levels] = {};
    usize n = 0;
    for (unsigned l = 0; l < sd_levels; ++l) {
      for (const Task* t = queue_.first_active_at(l); t != nullptr; t = queue_.next_at_same_level(*t)) {
        const sd_entity& e = EntityOf::get(*t);
        if (!e.on_rq || e.kind == sched_kind::idle || e.rotation != epoch) return false;
        if (level_now(e) != l || (e.time_slice <= 0 && t != curr_)) return false;
        if (e.kind == sched_kind::normal) ++by_u[nice_to_user_prio(e.nice)];
        ++n;
      }
      duration_ns brought = 0;  // the quota the expired tasks at l bring to the next rotation
      for (const Task* t = queue_.first_expired_at(l); t != nullptr; t = queue_.next_at_same_level(*t)) {
        const sd_entity& e = EntityOf::get(*t);
        if (!e.on_rq || e.kind == sched_kind::idle || e.rotation != epoch + 1) return false;
        if (e.slot != l || e.time_slice <= 0) return false;
        if (e.kind == sched_kind::normal) ++by_u[nice_to_user_prio(e.nice)];
        brought += e.time_slice;
        ++n;
      }
      if (brought != pending_[l]) return false;
    }
    if (n != queue_.nr_queued()) return false;
    for (unsigned u = 0; u < sd_levels; ++u) {
      if (by_u[u] != nr_uprio_[u] || ((uprio_map_ >> u) & 1u) != (by_u[u] != 0 ? 1u : 0u)) return false;
    }
    for (const Task& t : idle_) {
      const sd_entity& e = EntityOf::get(t);
      if (!e.on_rq || e.kind != sched_kind::idle) return false;
    }
    return true;
  }

 private:
  /// @cond INTERNAL
  u64 stale_rotation() const noexcept { return queue_.rotation_epoch() - 1; }
  /// Queued in the expired array: stamped for the next rotation (a major rotation turns every
  /// expired task active at once, without touching them).
  bool expired(const sd_entity& e) const noexcept {
    return e.on_rq && e.kind != sched_kind::idle && e.rotation == queue_.rotation_epoch() + 1;
  }

  unsigned level_now(const sd_entity& e) const noexcept {
    if (e.kept) return e.slot;
    const unsigned cur = queue_.current_level();
    return e.slot < cur ? cur : e.slot;
  }

  void count_uprio(const sd_entity& e, int delta) noexcept {
    if (e.kind != sched_kind::normal) return;
    const unsigned u = nice_to_user_prio(e.nice);
    if (delta > 0) {
      ++nr_uprio_[u];
      uprio_map_ |= bit64(u);
    } else if (--nr_uprio_[u] == 0) {
      uprio_map_ &= ~bit64(u);
    }
  }

  void note_level(const sd_entity& e) noexcept {
    if (e.kind == sched_kind::idle || expired(e)) return;
    const unsigned u = nice_to_user_prio(e.nice);
    const unsigned l = level_now(e);
    if (l > prio_level_[u]) prio_level_[u] = static_cast<u8>(l);
  }

  /// First level the next slot may take (§2.3 enqueue rule), at least `own`.
  unsigned next_from(const sd_entity& e, unsigned own) const noexcept {
    const unsigned u = nice_to_user_prio(e.nice);
    unsigned from = queue_.current_level();
    if (own > from) from = own;
    if (prio_level_[u] > from) from = prio_level_[u];
    if (uprio_map_ != 0) {
      const unsigned best = lowest_set_bit(uprio_map_);
      if (best < u && prio_level_[best] > from) from = prio_level_[best];
    }
    return from;
  }

  void new_rotation(sd_entity& e, u64 epoch) noexcept {
    e.rotation = epoch;
    e.used = 0;
    // Quota left from an old rotation is not kept; an overrun (a negative slice) is carried
    // into the first slot of this one, as into any next slot.
    if (e.time_slice > 0) e.time_slice = 0;
  }

  /// Takes entitled slots from `from` on until the slice is positive (an overrun may use up
  /// more than one); the final slot's slice is credited to that level. False: none left.
  bool take_slot(sd_entity& e, unsigned from) noexcept {
    const u64 row = slot_row(e.kind, e.nice);
    const duration_ns q = quota_of_nice(e.nice);
    for (;;) {
      const unsigned s = sd_next_slot(row, e.used, from);
      if (s >= sd_levels) return false;
      e.used |= bit64(s);
      e.time_slice += q;
      e.slot = static_cast<u8>(s);
      if (e.time_slice > 0) {
        queue_.add_level_quota(s, e.time_slice);
        return true;
      }
      from = s + 1;
    }
  }

  /// SD's queue_expired: a fresh bitmap for the next rotation, first slot, fresh quota (plus
  /// any overrun carried); the quota is credited to the level after the swap.
  void queue_expired(Task& t, sd_entity& e) noexcept {
    const duration_ns carry = e.time_slice < 0 ? e.time_slice : 0;
    e.kept = false;
    e.rotation = queue_.rotation_epoch() + 1;
    e.used = 0;
    e.time_slice = carry;
    take_expired_slot(e, 0);
    pending_[e.slot] += e.time_slice;
    queue_.enqueue_expired(t, e.slot);
  }

  /// queue_expired's slot step: takes the next rotation's slots from `from` on until the slice
  /// is positive; an overrun beyond a whole rotation's entitlement is forgiven (first slot,
  /// fresh quota).
  void take_expired_slot(sd_entity& e, unsigned from) noexcept {
    const u64 row = slot_row(e.kind, e.nice);
    const duration_ns q = quota_of_nice(e.nice);
    for (;;) {
      const unsigned s = sd_next_slot(row, e.used, from);
      if (s >= sd_levels) {  // an overrun beyond a whole rotation's entitlement is forgiven
        e.used = 0;
        e.time_slice = q;
        e.slot = static_cast<u8>(lowest_set_bit(row));
        e.used = bit64(e.slot);
        break;
      }
      e.used |= bit64(s);
      e.time_slice += q;
      e.slot = static_cast<u8>(s);
      if (e.time_slice > 0) break;
      from = s + 1;
    }
  }

  /// The slot's quota is used (SD's task_expired_entitlement): next slot, or expired array.
  void expire(Task& t, sd_entity& e) noexcept {
    const duration_ns q = quota_of_nice(e.nice);
    if (e.kind == sched_kind::idle) {
      while (e.time_slice <= 0) e.time_slice += q;
      idle_.erase(t);
      idle_.push_back(t);
      return;
    }
    if (expired(e)) {
      // Expired at an earlier tick and still running (its reschedule deferred): it has used up
      // its first slot of the next rotation too, so it takes the next one, as in queue_expired
      // (the next rotation's slot bitmap carries on, with the overrun).
      pending_[e.slot] -= e.time_slice;
      queue_.dequeue(t);
      take_expired_slot(e, e.slot + 1u);
      pending_[e.slot] += e.time_slice;
      queue_.enqueue_expired(t, e.slot);
      return;
    }
    const unsigned own = level_now(e);
    if (e.rotation != queue_.rotation_epoch()) new_rotation(e, queue_.rotation_epoch());
    if (take_slot(e, next_from(e, own))) {
      e.kept = false;
      e.slot = static_cast<u8>(queue_.requeue_tail(t, e.slot));
      return;
    }
    queue_.dequeue(t);
    queue_expired(t, e);
    rotate_if_needed();
  }

  /// Major rotation when only expired tasks remain (SD: active empty -> swap arrays).
  void rotate_if_needed() noexcept {
    if (!queue_.active_empty() || queue_.expired_empty()) return;
    queue_.major_rotation();
    for (unsigned l = 0; l < sd_levels; ++l) {
      if (pending_[l] != 0) queue_.add_level_quota(l, pending_[l]);
      pending_[l] = 0;
      prio_level_[l] = 0;
    }
  }

  /// Charges run time to the task's slice and, up to the slice, to its level's quota (never to
  /// level 39: SD rotates on an empty active array, not on the last level's quota).
  void account(sd_entity& e, sched_time now) noexcept {
    const duration_ns ran = now - e.exec_start;
    if (ran <= 0) return;
    e.exec_start = now;
    // Only the part within the slot's quota is charged to the level: an overrun is already
    // taken from the task's next slot (the carry), which credits its level with less.
    const duration_ns within = e.time_slice <= 0 ? 0 : (ran < e.time_slice ? ran : e.time_slice);
    e.time_slice -= ran;
    if (e.kind == sched_kind::idle) return;
    if (expired(e)) {  // expired at a tick but still running: the quota it brings shrinks too
      pending_[e.slot] -= ran;
      return;
    }
    note_level(e);
    const unsigned l = level_now(e);
    if (l < last_level && within > 0 && !e.kept) queue_.charge(l, within);
  }

  stair_array<Task, sd_levels, hook_access> queue_{};  ///< active + expired staircase
  list<Task, hook_access> idle_{};                     ///< SCHED_IDLEPRIO tasks, FIFO
  Task* curr_ = nullptr;                               ///< running task of this class
  knobs knobs_{};                                      ///< tunables in force
  duration_ns rr_ = msec(8);                           ///< effective rr_interval
  u64 uprio_map_ = 0;                                  ///< user prios with queued SCHED_NORMAL tasks
  usize nr_uprio_[sd_levels] = {};                     ///< queued SCHED_NORMAL tasks per user prio
  u8 prio_level_[sd_levels] = {};                      ///< deepest level run per user prio this rotation
  duration_ns pending_[sd_levels] = {};                ///< quota brought by expired tasks, per level
  /// @endcond
};

}  // namespace schedcore

#endif
