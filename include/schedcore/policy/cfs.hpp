/// @file
/// @brief `cfs_policy`: the Completely Fair Scheduler of Linux 5.x–6.5 (vruntime,
/// min_vruntime, weights, sched_slice, place_entity, buddies), algorithms-modern.md §2.
///
/// @par Implementation notes
/// - Model: each task has a virtual runtime `vruntime` (a wrap-safe `vtime`) that advances by
///   `calc_delta_fair(δ) = δ·1024/w` while it runs (§2.2, fixed point through the inverse
///   weight tables and the kernel's `__calc_delta` shift handling: fair_weights.hpp). The
///   timeline is an rb_tree keyed by vruntime with the leftmost cached; ties are FIFO, as the
///   kernel's `entity_before()` (§2.1). As in the kernel the running task (`curr`) is *out* of
///   the tree: set_next erases it, put_prev reinserts it with its fresh vruntime.
/// - `min_vruntime` = max(old, min(curr.vr if curr is queued, leftmost.vr)): monotonic (§2.1).
///   It starts at 2^64 − 2^20 ns as in the kernel's `init_cfs_rq` (so every run crosses the
///   wrap early); `reset_vruntime()` sets it on an empty queue (tests, ports).
/// - Tunables (§2.3): `latency` 6 ms, `min_granularity` 0.75 ms and `wakeup_granularity` 1 ms
///   are the kernel's *normalized* (base) values, multiplied by the CPU-count factor
///   (`tunable_scaling` 1 = LOG: 1 + ilog2(min(cpus, 8)); 0 = NONE: 1; 2 = LINEAR:
///   min(cpus, 8)). `nr_latency` = ceil(latency / min_granularity) (8 by default).
///   `period(nr)` = latency, or nr·min_granularity when nr > nr_latency; `sched_slice(se)` =
///   period(nr_running + !on_rq) · w / (W + (on_rq ? 0 : w)) through `__calc_delta` with the
///   queue's inverse load, then (BASE_SLICE, 5.13+) at least min_granularity, or for a
///   SCHED_IDLE task beside non-idle ones at least `idle_min_granularity` (0.75 ms, not scaled;
///   5.15+).
/// - place_entity (§2.4): a fresh task starts at min_vruntime + vslice (START_DEBIT; sched_vslice,
///   so with BASE_SLICE at least min_granularity of wall time, scaled by its weight); a waking
///   task at max(own vruntime, min_vruntime − thresh) with thresh = latency (min_granularity for
///   SCHED_IDLE, 5.15+), halved by GENTLE_FAIR_SLEEPERS. task_new() also starts from the
///   parent's vruntime when the parent is this queue's running task (`task_fork_fair`, which
///   runs in the parent's context) and honours `child_runs_first` (swap with that parent).
///   When the parent runs on another CPU's queue, the child is placed there, as the kernel's
///   fork does before the child's CPU is chosen: max(parent's vruntime, that queue's
///   min_vruntime + vslice), left relative to that queue; its enqueue(initial) here adds this
///   queue's min_vruntime (wake_up_new_task's migration). The child keeps the parent's lead
///   over its own queue. child_runs_first is not applied across CPUs (the parent's CPU would
///   need the reschedule).
/// - Tick (§2.5, `check_preempt_tick`): the ideal slice is sched_slice, capped at sched_latency
///   from 6.2 (`limit_slice`); resched when the task ran more than it since it was picked
///   (then its buddies are cleared); else, once it ran min_granularity,
///   when curr.vr − leftmost.vr > ideal slice (a virtual difference against a wall slice, as
///   in the kernel).
/// - Wakeup (§2.6, `check_preempt_wakeup`): a non-idle wakee preempts an idle (SCHED_IDLE)
///   curr; batch and idle wakees never preempt; otherwise after update_curr it preempts when
///   curr.vr − wakee.vr > calc_delta_fair(wakeup_granularity, wakee) (the weight-scaled
///   `wakeup_gran`), and becomes the `next` buddy; LAST_BUDDY makes the preempted curr the
///   `last` buddy when nr_running ≥ nr_latency; NEXT_BUDDY (off by default) marks every
///   non-fork wakee when nr_running ≥ nr_latency.
/// - Pick (§2.7): leftmost (or curr when it is before it); the `skip` buddy (set by yield) is
///   avoided when the second candidate is within one wakeup granularity; `next` then `last`
///   win when within one wakeup granularity of the leftmost. The kernel clears the chosen
///   task's buddies inside pick; here pick_next has no side effects (the policy contract) and
///   set_next clears them, which is the same as long as the picked task is the one set.
/// - Relative vruntime (§2.4 last bullet): a task leaving other than by sleeping (`save`,
///   `migrating`) keeps vruntime − min_vruntime and is renormalised on its next enqueue;
///   task_new leaves the child relative too. A sleeping task keeps its absolute vruntime. A
///   *migrated wakeup* is renormalised as the kernel's `migrate_task_rq_fair` does (5.x-6.5):
///   the driver calls migrate_task_rq() on the old queue just before the destination queue's
///   `enqueue(wakeup|migrated)`, which makes the vruntime relative to the old queue's
///   min_vruntime *at the wakeup*; the enqueue adds the destination queue's. A driver that does not
///   call it gets the old queue's min_vruntime at the time the task slept (recorded in the
///   entity) instead: that can only place the task later, never earlier, than the kernel
///   (the old queue's min_vruntime has only grown since), by up to everything the old queue
///   ran while the task slept. The sleeper credit applies after, either way.
/// - A task enqueued for the first time without task_new() (a driver that only wakes tasks) is
///   placed as a fresh task: min_vruntime + vslice (START_DEBIT), as if forked by nobody. One
///   that enters from another class while queued (`restore`) lands at min_vruntime, no debit
///   (the kernel's vruntime 0 from __sched_fork, renormalised). One that enters while asleep
///   and then wakes is still placed as fresh; the kernel would place it as a sleeper against
///   the min_vruntime of its class change, which a policy without a switched_to hook never
///   sees.
/// - Class changes (`switched_from`): a sleeping task leaving the class is placed as a wakeup
///   and kept relative (detach_task_cfs_rq); its return renormalises it against the
///   min_vruntime of its next enqueue, where the kernel uses that of its return (attach), so a
///   task that returns while asleep and wakes later can be placed later than the kernel's.
/// - Complexity: enqueue, dequeue, put_prev, set_next O(log n); pick_next O(1) (leftmost,
///   plus one `next()` step, O(1) amortised, when the skip buddy is leftmost); tick,
///   wakeup_preempt, yield O(1); verify O(n). No division on the hot path except one 32-bit
///   division when the queue's load changed since the last sched_slice.
/// - Omissions from this class, provided around it: the cfs_rq hierarchy and shares
///   (`group_policy`), CFS bandwidth (`policy/cfs_bandwidth.hpp`), PELT (`smp/pelt.hpp`),
///   wake-affine (`smp/wake_affine.hpp`; the simulator places wakeups with it and balances by
///   load when asked). Not modelled: 6.3's long-sleeper reset (entity_is_long_sleeper: a sleep
///   over 2^63 / NICE_0_LOAD ns, about 104 days, places the vruntime afresh; commit
///   829c1651e9c4 first proposed 60 s), which no simulated run reaches,
///   ALT_PERIOD (the same count without group scheduling); `prio_changed` cannot request a
///   reschedule in this contract (the caller reschedules after a parameter change).
/// - Versions: the defaults are 6.5's, the last CFS (BASE_SLICE and the latency cap on). The
///   reference's §2 describes the 5.4–5.12 form: `base_slice=0 limit_slice=0`; 5.13–6.1 is
///   `limit_slice=0` (5.13–5.14 had no separate idle floor: set `idle_min_granularity` to
///   min_granularity's effective value).
/// - Nothing here is reconstructed: every rule is as documented in §2, or in the kernel commits
///   named above (BASE_SLICE, the SCHED_IDLE floor, "Limit sched slice duration").
#ifndef SCHEDCORE_POLICY_CFS_HPP
#define SCHEDCORE_POLICY_CFS_HPP

#include "schedcore/core/assert.hpp"
#include "schedcore/core/bitops.hpp"
#include "schedcore/core/errc.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/intrusive/rb_hook.hpp"
#include "schedcore/intrusive/rb_tree.hpp"
#include "schedcore/policy/fair_weights.hpp"
#include "schedcore/policy/flags.hpp"
#include "schedcore/policy/entity_access.hpp"
#include "schedcore/policy/params.hpp"

namespace schedcore {

/// Tag of the cfs class's tree hook (a task may embed several hooks).
struct cfs_hook_tag {};

/// Which frame a cfs entity's vruntime is in.
enum class cfs_vstate : u8 {
  fresh,     ///< never placed: the first enqueue places it as a fresh task
  relative,  ///< vruntime − min_vruntime (after task_new or a non-sleep dequeue)
  absolute,  ///< on this queue's vruntime scale (queued, or asleep)
};

/// Per-task state of the cfs class, embedded in the task (the kernel's `sched_entity`).
struct cfs_entity : rb_hook<link_mode::normal, cfs_hook_tag> {
  vtime vruntime{};                        ///< virtual runtime (the tree key while queued)
  vtime sleep_min_vruntime{};              ///< queue's min_vruntime when the task last slept
  sched_time exec_start{};                 ///< when it last started running or was last charged
  u64 sum_exec_runtime = 0;                ///< CPU time received, ns
  u64 prev_sum_exec_runtime = 0;           ///< sum_exec_runtime when it was last picked
  load_weight load{};                      ///< weight and inverse weight (nice table)
  sched_kind kind = sched_kind::normal;    ///< normal, batch or idle
  s8 nice = 0;                             ///< nice value -20..19
  bool on_rq = false;                      ///< queued (running counts as queued)
  cfs_vstate vstate = cfs_vstate::fresh;   ///< frame of `vruntime`
  /// While on_rq: the cfs_policy that holds it (read only by a fork on another CPU, which
  /// places the child on the parent's queue; caller-side, that needs both queues' locks).
  void* queue = nullptr;
};

/// Modern CFS run queue of one CPU (Linux 5.x–6.5 `cfs_rq` without group scheduling).
/// @tparam Task the task type; embeds `cfs_entity` (by default as a base class)
/// @tparam EntityOf accessor from Task to its cfs_entity (see policy/params.hpp)
template <class Task, class EntityOf = base_entity<cfs_entity>>
class cfs_policy {
  /// @cond INTERNAL
  using hook = rb_hook<link_mode::normal, cfs_hook_tag>;
  using hook_access = entity_hook_access<Task, cfs_entity, EntityOf, hook>;
  struct by_vruntime {
    using value_type = Task;
    bool operator()(const Task& a, const Task& b) const noexcept {
      return EntityOf::get(a).vruntime < EntityOf::get(b).vruntime;
    }
    // One wrap-safe key: the tree's insert descent compares raw counters (rb_has_wrap_key).
    static const u64& wrap_key(const Task& a) noexcept { return rb_time_key(EntityOf::get(a).vruntime); }
  };
  static cfs_entity& E(Task& t) noexcept { return EntityOf::get(t); }
  static const cfs_entity& E(const Task& t) noexcept { return EntityOf::get(t); }
  /// @endcond

 public:
  using task_type = Task;                    ///< the task type
  static constexpr const char* name = "cfs"; ///< class name
  /// The kernel's initial min_vruntime, (u64)(−(1 << 20)).
  static constexpr u64 initial_min_vruntime = ~static_cast<u64>(0) - (static_cast<u64>(1) << 20) + 1;

  /// Tunables, named after the kernel's sysctls and features (times in ns, base values).
  struct knobs {
    s64 latency = usec(6000);             ///< sched_latency_ns base (normalized) value
    s64 min_granularity = usec(750);      ///< sched_min_granularity_ns base value
    s64 wakeup_granularity = usec(1000);  ///< sched_wakeup_granularity_ns base value
    s64 cpus = 1;                         ///< online CPUs (the scaling factor's input)
    s64 tunable_scaling = 1;              ///< 0 NONE, 1 LOG (default), 2 LINEAR
    s64 gentle_fair_sleepers = 1;         ///< GENTLE_FAIR_SLEEPERS: sleeper credit latency/2
    s64 start_debit = 1;                  ///< START_DEBIT: fresh tasks start one vslice late
    s64 wakeup_preemption = 1;            ///< WAKEUP_PREEMPTION
    s64 next_buddy = 0;                   ///< NEXT_BUDDY (off by default)
    s64 last_buddy = 1;                   ///< LAST_BUDDY
    s64 child_runs_first = 0;             ///< sched_child_runs_first
    s64 base_slice = 1;                   ///< BASE_SLICE (5.13+): a slice is at least min_granularity
    s64 idle_min_granularity = usec(750); ///< sched_idle_min_granularity_ns (5.15+), not scaled
    s64 limit_slice = 1;                  ///< 6.2+ check_preempt_tick: ideal slice capped at sched_latency
  };
  /// Bounds and meaning of each knob (the kernel's sysctl bounds: 100 µs..1 s, wakeup 0..1 s).
  static constexpr knob_info<knobs> knob_table[] = {
      {"latency", knob_unit::time_ns, &knobs::latency, usec(100), sec(1),
       "targeted preemption latency, base value scaled by the CPU factor (sched_latency_ns). Needs latency >= min_granularity"},
      {"min_granularity", knob_unit::time_ns, &knobs::min_granularity, usec(100), sec(1),
       "minimal preemption granularity, base value scaled by the CPU factor. Needs min_granularity <= latency"},
      {"wakeup_granularity", knob_unit::time_ns, &knobs::wakeup_granularity, 0, sec(1),
       "wakeup preemption granularity, base value scaled by the CPU factor"},
      {"cpus", knob_unit::count, &knobs::cpus, 1, 4096, "online CPUs: factor 1 + ilog2(min(cpus, 8))"},
      {"tunable_scaling", knob_unit::count, &knobs::tunable_scaling, 0, 2,
       "sched_tunable_scaling: 0 none, 1 log, 2 linear"},
      {"gentle_fair_sleepers", knob_unit::flag, &knobs::gentle_fair_sleepers, 0, 1,
       "halve the sleeper credit (GENTLE_FAIR_SLEEPERS)"},
      {"start_debit", knob_unit::flag, &knobs::start_debit, 0, 1, "fresh tasks start one vslice late"},
      {"wakeup_preemption", knob_unit::flag, &knobs::wakeup_preemption, 0, 1, "wakeups may preempt"},
      {"next_buddy", knob_unit::flag, &knobs::next_buddy, 0, 1, "prefer the last wakee (NEXT_BUDDY)"},
      {"last_buddy", knob_unit::flag, &knobs::last_buddy, 0, 1, "return the CPU to a preempted task"},
      {"child_runs_first", knob_unit::flag, &knobs::child_runs_first, 0, 1,
       "a forked child runs before its parent"},
      {"base_slice", knob_unit::flag, &knobs::base_slice, 0, 1,
       "BASE_SLICE (5.13+): sched_slice is at least min_granularity (0: the 5.4-5.12 slice)"},
      {"idle_min_granularity", knob_unit::time_ns, &knobs::idle_min_granularity, usec(100), sec(1),
       "BASE_SLICE floor of a SCHED_IDLE task competing with non-idle ones (5.15+; not scaled)"},
      {"limit_slice", knob_unit::flag, &knobs::limit_slice, 0, 1,
       "tick preemption caps the ideal slice at sched_latency (6.2-6.5; 0: before 6.2)"},
  };

  /// Validates and installs knobs; on error nothing changes. latency < min_granularity is
  /// `errc::inverted`.
  errc configure(const knobs& k) noexcept {
    if (const errc e = validate_knobs(k, knob_table); e != errc::ok) return e;
    if (k.latency < k.min_granularity) return errc::inverted;
    knobs_ = k;
    const s64 f = static_cast<s64>(scale_factor(k));
    latency_ = k.latency * f;
    min_gran_ = k.min_granularity * f;
    wakeup_gran_ = k.wakeup_granularity * f;
    nr_latency_ = static_cast<u64>((latency_ + min_gran_ - 1) / min_gran_);
    return errc::ok;
  }
  /// The knobs in force.
  const knobs& config() const noexcept { return knobs_; }
  /// The CPU-count factor of `k` (1 + ilog2(min(cpus, 8)) under LOG scaling).
  static constexpr unsigned scale_factor(const knobs& k) noexcept {
    const s64 c = k.cpus < 1 ? 1 : (k.cpus > 8 ? 8 : k.cpus);
    if (k.tunable_scaling == 0) return 1;
    if (k.tunable_scaling == 2) return static_cast<unsigned>(c);
    return fair_scale_factor(k.cpus);
  }
  /// Effective sched_latency (base × factor), ns.
  duration_ns sched_latency() const noexcept { return latency_; }
  /// Effective sched_min_granularity, ns.
  duration_ns min_granularity() const noexcept { return min_gran_; }
  /// Effective sched_wakeup_granularity, ns.
  duration_ns wakeup_granularity() const noexcept { return wakeup_gran_; }
  /// sched_nr_latency = ceil(latency / min_granularity).
  u64 nr_latency() const noexcept { return nr_latency_; }

  /// Loads `p` (kind normal, batch or idle; nice -20..19) into `t`'s entity: the weight from
  /// the nice table, or 3 for SCHED_IDLE. Refuses other kinds and bad nice values (`errc`),
  /// and a queued task (`errc::busy`); on refusal nothing changes.
  errc setup(Task& t, const sched_params& p) noexcept {
    cfs_entity& e = E(t);
    if (p.kind != sched_kind::normal && p.kind != sched_kind::batch && p.kind != sched_kind::idle)
      return errc::invalid_argument;
    if (!valid_nice(p.nice)) return errc::invalid_argument;  // validate(p) for these kinds
    if (e.on_rq) return errc::busy;
    e.kind = p.kind;
    e.nice = p.nice;
    e.load = p.kind == sched_kind::idle ? idle_load() : nice_to_load(p.nice);
    return errc::ok;
  }

  /// Smallest weight accepted by set_weight() (the kernel's MIN_SHARES).
  static constexpr u32 weight_min = 2;
  /// Largest weight accepted by set_weight() (the kernel's MAX_SHARES, 2^18).
  static constexpr u32 weight_max = 1u << 18;
  /// Gives `t` an explicit weight (a task group's shares, group.hpp), kind normal. Refuses
  /// weights outside [weight_min, weight_max] (`errc::invalid_argument`) and a queued task
  /// (`errc::busy`); on refusal nothing changes.
  errc set_weight(Task& t, u32 weight) noexcept {
    if (weight < weight_min || weight > weight_max) return errc::invalid_argument;
    cfs_entity& e = E(t);
    if (e.on_rq) return errc::busy;
    e.kind = sched_kind::normal;
    e.nice = 0;
    e.load = weight == nice_0_load ? nice_to_load(0) : make_load(weight);
    return errc::ok;
  }

  /// Gives a *queued* `t` (running or not) the explicit weight `weight`, in place: the
  /// kernel's reweight_entity (update_cfs_group's per-CPU group shares). Curr is charged first
  /// at its old weight; the vruntime and the slice already used stay, so a running entity
  /// reweighted at every tick is still preempted when its slice is used up. A task not queued
  /// is reweighted as set_weight() does. Refuses weights outside [weight_min, weight_max]
  /// (`errc::invalid_argument`); on refusal nothing changes. O(1).
  errc reweight(Task& t, u32 weight, sched_time now) noexcept {
    if (weight < weight_min || weight > weight_max) return errc::invalid_argument;
    cfs_entity& e = E(t);
    if (!e.on_rq) return set_weight(t, weight);
    if (&t == curr_) update_curr(now);
    account(e, false);
    e.kind = sched_kind::normal;
    e.nice = 0;
    e.load = weight == nice_0_load ? nice_to_load(0) : make_load(weight);
    account(e, true);
    return errc::ok;
  }

  /// Sets min_vruntime on an empty queue (tests and ports: start the virtual clock anywhere).
  /// `errc::busy` when tasks are queued.
  errc reset_vruntime(vtime v) noexcept {
    if (nr_running_ != 0) return errc::busy;
    min_vruntime_ = v;
    return errc::ok;
  }
  /// The queue's min_vruntime.
  vtime min_vruntime() const noexcept { return min_vruntime_; }
  /// Sum of the weights of the queued tasks (running included).
  u64 load() const noexcept { return load_; }
  /// The running task of this class, or nullptr.
  Task* current() const noexcept { return curr_; }

  /// The kernel's `sched_period(nr)`: latency, or nr·min_granularity beyond nr_latency.
  u64 sched_period(u64 nr) const noexcept {
    return nr > nr_latency_ ? nr * static_cast<u64>(min_gran_) : static_cast<u64>(latency_);
  }
  /// The kernel's `sched_slice(cfs_rq, se)`: `t`'s share of the period, wall ns. With
  /// BASE_SLICE (5.13+) at least min_granularity, or idle_min_granularity for a SCHED_IDLE
  /// task on a queue that also holds non-idle tasks (5.15+: so that they get back on the CPU
  /// sooner, at the cost of more switches for the idle task).
  u64 sched_slice(const Task& t) const noexcept { return slice_of(E(t)); }
  /// `sched_vslice`: sched_slice in `t`'s virtual time.
  u64 sched_vslice(const Task& t) const noexcept { return calc_delta_fair(sched_slice(t), E(t).load); }
  /// The weight-scaled wakeup granularity of `t` (`wakeup_gran`), virtual ns.
  u64 wakeup_gran(const Task& t) const noexcept {
    return calc_delta_fair(static_cast<u64>(wakeup_gran_), E(t).load);
  }

  /// Fork (`task_fork_fair`): the child starts at max(parent's vruntime, min_vruntime + vslice)
  /// (START_DEBIT), or swaps with the parent under child_runs_first; it is left relative to
  /// min_vruntime until its enqueue(initial). As in the kernel, where the fork runs in the
  /// parent's context and `cfs_rq->curr` is the parent, the reference is `parent` when it is
  /// this queue's running task; otherwise (no parent, a parent running elsewhere or in another
  /// class) there is none, as for a non-fair forker: min_vruntime + vslice, no swap. Another
  /// task that happens to be running here is neither read nor touched.
  void task_new(Task& child, Task* parent, sched_time now) noexcept {
    cfs_entity& e = E(child);
    if (SCHEDCORE_MISUSE(e.on_rq)) return;
    if (parent != nullptr && parent != curr_ && E(*parent).on_rq && E(*parent).queue != nullptr &&
        E(*parent).queue != this) {
      cfs_policy& parents_queue = *static_cast<cfs_policy*>(E(*parent).queue);
      if (parents_queue.curr_ == parent) {
        parents_queue.fork_place(child, *parent, now);
        return;
      }
    }
    update_curr(now);
    e.sum_exec_runtime = 0;
    e.prev_sum_exec_runtime = 0;
    Task* const forker = parent != nullptr && parent == curr_ ? curr_ : nullptr;
    e.vruntime = forker != nullptr ? E(*forker).vruntime : min_vruntime_;
    place_entity(e, true);
    if (knobs_.child_runs_first && forker != nullptr && E(*forker).vruntime < e.vruntime) {
      const vtime tmp = E(*forker).vruntime;
      E(*forker).vruntime = e.vruntime;
      e.vruntime = tmp;
      fork_resched_ = &child;
    }
    e.vruntime = vtime{e.vruntime.ns() - min_vruntime_.ns()};
    e.vstate = cfs_vstate::relative;
  }

  /// @cond INTERNAL
 private:
  // task_fork_fair for a child whose parent runs on this queue while the child starts on
  // another: placed from the parent's vruntime and left relative to this queue, with no
  // child_runs_first swap.
  void fork_place(Task& child, Task& parent, sched_time now) noexcept {
    cfs_entity& e = E(child);
    update_curr(now);
    e.sum_exec_runtime = 0;
    e.prev_sum_exec_runtime = 0;
    e.vruntime = E(parent).vruntime;
    place_entity(e, true);
    e.vruntime = vtime{e.vruntime.ns() - min_vruntime_.ns()};
    e.vstate = cfs_vstate::relative;
  }
  /// @endcond

 public:
  /// `t` becomes runnable: renormalised if relative, placed as fresh if fresh, given the sleeper
  /// credit on `wakeup`, then inserted into the timeline.
  void enqueue(Task& t, sched_time now, enqueue_flags flags) noexcept {
    cfs_entity& e = E(t);
    if (SCHEDCORE_MISUSE(e.on_rq)) return;
    update_curr(now);
    new_task_ = nullptr;
    if (e.vstate == cfs_vstate::fresh && has(flags, enqueue_flags::restore) && !has(flags, enqueue_flags::wakeup) &&
        !has(flags, enqueue_flags::initial)) {
      // A task that enters from another class while queued (sched_setscheduler to
      // SCHED_NORMAL) and never ran here: the kernel's __sched_fork left its vruntime 0, and
      // the restore renormalises it to min_vruntime exactly, with no START_DEBIT.
      e.vruntime = min_vruntime_;
    } else if (e.vstate == cfs_vstate::fresh) {
      e.vruntime = min_vruntime_;
      place_entity(e, true);
      new_task_ = &t;
    } else {
      if (e.vstate == cfs_vstate::relative) {
        e.vruntime = vtime{e.vruntime.ns() + min_vruntime_.ns()};
        if (has(flags, enqueue_flags::initial)) new_task_ = &t;
      } else if (has(flags, enqueue_flags::migrated)) {
        e.vruntime = vtime{e.vruntime.ns() - e.sleep_min_vruntime.ns() + min_vruntime_.ns()};
      }
      if (has(flags, enqueue_flags::wakeup)) place_entity(e, false);
    }
    e.vstate = cfs_vstate::absolute;
    e.on_rq = true;
    e.queue = this;
    account(e, true);
    tree_.insert(t);
  }

  /// `t` leaves: a sleeping (or dying) task keeps its absolute vruntime, any other leaves
  /// relative to min_vruntime. If `t` is running it stops being curr (no put_prev follows).
  void dequeue(Task& t, sched_time now, dequeue_flags flags) noexcept {
    cfs_entity& e = E(t);
    if (SCHEDCORE_MISUSE(!e.on_rq)) return;
    update_curr(now);
    clear_buddies(t);
    if (fork_resched_ == &t) fork_resched_ = nullptr;
    if (&t == curr_) {
      curr_ = nullptr;
    } else {
      tree_.erase(t);
    }
    e.on_rq = false;
    e.queue = nullptr;
    account(e, false);
    if (has(flags, dequeue_flags::sleep) || has(flags, dequeue_flags::dead)) {
      e.sleep_min_vruntime = min_vruntime_;
    } else {
      e.vruntime = vtime{e.vruntime.ns() - min_vruntime_.ns()};
      e.vstate = cfs_vstate::relative;
    }
    // dequeue_entity: not after a bare SAVE (a renice); SAVE | MOVE does update it.
    if (!has(flags, dequeue_flags::save) || has(flags, dequeue_flags::move)) update_min_vruntime();
  }

  /// The leftmost task, adjusted by the skip, next and last buddies (§2.7); no side effects.
  Task* pick_next(sched_time) noexcept {
    Task* left = tree_.front();
    if (curr_ != nullptr && (left == nullptr || before(*curr_, *left))) left = curr_;
    if (left == nullptr) return nullptr;
    // No buddy set (the common case: buddies live from a wakeup or yield to the next pick):
    // the leftmost, exactly what the buddy rules below return when all three are null.
    if (skip_ == nullptr && next_ == nullptr && last_ == nullptr) return left;
    return pick_with_buddies(left);
  }

  /// `t` starts running: it leaves the timeline, its buddies are cleared, its slice starts.
  void set_next(Task& t, sched_time now) noexcept {
    cfs_entity& e = E(t);
    // refuse: only a queued task runs, and only when nothing else does (put_prev comes first)
    if (SCHEDCORE_MISUSE(!e.on_rq || (curr_ != nullptr && curr_ != &t))) return;
    if (&t == curr_) {
      update_curr(now);
    } else {
      // The pick is nearly always the leftmost: pop_front()'s shorter unlink
      // (rb_algorithms erase_leftmost: no two-children case, no "which side" test).
      if (&t == tree_.front()) {
        tree_.pop_front();
      } else {
        tree_.erase(t);
      }
      curr_ = &t;
    }
    clear_buddies(t);
    e.exec_start = now;
    e.prev_sum_exec_runtime = e.sum_exec_runtime;
  }

  /// Running `t` stops running: charged, then reinserted at its fresh vruntime.
  void put_prev(Task& t, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&t != curr_)) return;  // refuse: not the running task
    update_curr(now);
    curr_ = nullptr;
    tree_.insert(t);
  }

 private:
  // pick_next() with a skip, next or last buddy set (§2.7): out of line.
  Task* pick_with_buddies(Task* left) noexcept {
    Task* se = left;
    if (skip_ == se) {
      Task* second;
      if (se == curr_) {
        second = tree_.front();
      } else {
        second = tree_.next(*se);
        if (second == nullptr || (curr_ != nullptr && before(*curr_, *second))) second = curr_;
      }
      if (second != nullptr && preempt_entity(*second, *left) < 1) se = second;
    }
    if (next_ != nullptr && preempt_entity(*next_, *left) < 1) {
      se = next_;
    } else if (last_ != nullptr && preempt_entity(*last_, *left) < 1) {
      se = last_;
    }
    return se;
  }

 public:
  /// Charges curr; with other tasks queued, `check_preempt_tick` (§2.5).
  bool tick(Task& curr, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&curr != curr_)) return false;  // refuse: not the running task
    update_curr(now);
    if (nr_running_ <= 1) return false;
    cfs_entity& e = E(curr);
    u64 ideal = sched_slice(curr);
    // 6.2 ("Limit sched slice duration"): many light tasks can stretch the period, and with it
    // a heavy task's slice, far beyond sched_latency.
    if (knobs_.limit_slice != 0 && ideal > static_cast<u64>(latency_)) ideal = static_cast<u64>(latency_);
    const u64 ran = e.sum_exec_runtime - e.prev_sum_exec_runtime;
    if (ran > ideal) {
      clear_buddies(curr);
      return true;
    }
    if (ran < static_cast<u64>(min_gran_)) return false;
    const Task* left = tree_.front();
    if (left == nullptr) return false;
    const duration_ns d = e.vruntime - E(*left).vruntime;
    if (d < 0) return false;
    return static_cast<u64>(d) > ideal;
  }

  /// `check_preempt_wakeup` (§2.6): true when `woken` (just enqueued) should preempt `curr`.
  bool wakeup_preempt(Task& woken, Task& curr, sched_time now) noexcept {
    u8 marks = 0;
    const bool preempt = wakeup_preempt_matched(woken, *this, curr, *this, woken, curr, now, marks);
    if ((marks & (mark_woken_path | mark_next_above)) != 0) set_next_buddy(woken);
    if ((marks & mark_last_above) != 0) last_ = &curr;
    return preempt;
  }

  /// @name Buddies across a hierarchy (group_policy)
  /// The kernel's buddy marks are per queue, but it sets and clears them along a task's whole
  /// path (for_each_sched_entity): set_next_buddy and set_last_buddy mark the entity and every
  /// level above it, stopping at one that is not queued or is idle; clear_buddies, in each
  /// queue where the entity is marked, climbs while the queue above marks that entity's parent
  /// (6.5's fair.c). A queue of this policy does its own level; these let group_policy do the
  /// rest. Marks as bits: `buddy_next`, `buddy_last`, `buddy_skip`.
  /// @{
  static constexpr u8 buddy_next = 1;  ///< the next buddy (a preempting wakee)
  static constexpr u8 buddy_last = 2;  ///< the last buddy (a preempted task)
  static constexpr u8 buddy_skip = 4;  ///< the skip buddy (a yielder)
  /// Which of this queue's buddies name `t`. O(1).
  u8 buddy_marks(const Task& t) const noexcept {
    return static_cast<u8>((next_ == &t ? buddy_next : 0) | (last_ == &t ? buddy_last : 0) |
                           (skip_ == &t ? buddy_skip : 0));
  }
  /// Clears the buddies of `kinds` that name `t`. O(1).
  void clear_buddy_marks(const Task& t, u8 kinds) noexcept {
    if ((kinds & buddy_next) != 0 && next_ == &t) next_ = nullptr;
    if ((kinds & buddy_last) != 0 && last_ == &t) last_ = nullptr;
    if ((kinds & buddy_skip) != 0 && skip_ == &t) skip_ = nullptr;
  }
  /// One level of set_next_buddy (`buddy_next`), set_last_buddy (`buddy_last`) or
  /// set_skip_buddy (`buddy_skip`): `t` becomes that buddy. The first two leave a node that is
  /// not queued or is SCHED_IDLE unmarked, where the kernel's walk stops (false); the skip
  /// buddy's walk has no such test.
  bool mark_buddy(Task& t, u8 kind) noexcept {
    if (kind == buddy_skip) {
      skip_ = &t;
      return true;
    }
    if (E(t).kind == sched_kind::idle || !E(t).on_rq) return false;
    if (kind == buddy_next) next_ = &t;
    if (kind == buddy_last) last_ = &t;
    return true;
  }
  /// What wakeup_preempt_matched asks the caller to mark (bits of `marks`).
  static constexpr u8 mark_woken_path = 1;  ///< NEXT_BUDDY: the woken task and each level above it are next buddies
  static constexpr u8 mark_next_above = 2;  ///< `woken_at` and each level above it are next buddies
  static constexpr u8 mark_last_above = 4;  ///< `curr_at` (then curr itself) and each level above it are last buddies

  /// check_preempt_wakeup where `woken` and `curr` are tasks anywhere in a hierarchy, in
  /// queues `woken_rq` and `curr_rq`, and `woken_at` and `curr_at` are their paths' nodes in
  /// this queue (find_matching_se; the tasks themselves in a flat queue). The kernel decides
  /// some things on the tasks: sched_nr_latency's `scale` on curr's own queue, NEXT_BUDDY's
  /// fork test and the SCHED_IDLE and SCHED_BATCH rules on the tasks' policies, and a last
  /// buddy only when the nodes compared are the tasks (entity_is_task). The comparison is the
  /// nodes', here. Returns the decision and sets in `marks` the buddies the caller marks (this
  /// queue marks none). O(1).
  bool wakeup_preempt_matched(Task& woken, const cfs_policy& woken_rq, Task& curr, const cfs_policy& curr_rq,
                              Task& woken_at, Task& curr_at, sched_time now, u8& marks) noexcept {
    marks = 0;
    if (&woken == &curr) return false;
    if (fork_resched_ == &woken) {  // child_runs_first swapped vruntimes at fork
      fork_resched_ = nullptr;
      return true;
    }
    const cfs_entity& we = E(woken);
    const bool scale = curr_rq.nr_running_ >= curr_rq.nr_latency_;
    if (knobs_.next_buddy && scale && woken_rq.new_task_ != &woken) marks |= mark_woken_path;
    // The last buddy, as preempt's tail: curr still queued, not SCHED_IDLE (set_last_buddy
    // stops there at once), and the nodes compared are the tasks.
    const bool last = knobs_.last_buddy && scale && &curr_at == &curr && E(curr).on_rq &&
                      E(curr).kind != sched_kind::idle;
    if (E(curr).kind == sched_kind::idle && we.kind != sched_kind::idle) return true;  // no last buddy: curr is idle
    if (we.kind != sched_kind::normal || !knobs_.wakeup_preemption) return false;
    if (&curr_at == curr_) update_curr(now);
    if (preempt_entity(curr_at, woken_at) == 1) {
      if ((marks & mark_woken_path) == 0) marks |= mark_next_above;
      if (last) marks |= mark_last_above;
      return true;
    }
    return false;
  }
  /// @}

  /// Optional hook `change_resched` (policy.hpp): after a change of the running task's
  /// parameters, switched_to_fair reschedules a task that enters the class (`if (rq->curr ==
  /// p) resched_curr(rq)`); otherwise prio_changed_fair (6.x; set_user_nice calls it too
  /// since 5.6, "sched: Use fair:prio_changed() instead of ad-hoc implementation") returns
  /// when the class queues one entity (`if (rq->cfs.nr_running == 1) return;`, curr
  /// included) and reschedules only at a worse priority (`if (p->prio > oldprio)
  /// resched_curr(rq)`). Under group_policy this is asked of the root queue. O(1).
  bool change_resched(Task&, const param_change& c, sched_time) const noexcept {
    if (c.switched) return true;
    return nr_running_ != 1 && c.prio > c.oldprio;
  }
  /// Queued tasks including a running one.
  usize nr_runnable() const noexcept { return nr_running_; }

  /// sched_yield(): curr becomes the skip buddy (avoided by the next pick if that is not too
  /// unfair). Batch tasks are not charged first (`yield_task_fair`).
  void yield(Task& curr, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&curr != curr_)) return;  // refuse: not the running task
    if (nr_running_ <= 1) return;
    yield_at_level(curr, now);
  }
  /// Under group_policy, yield_task_fair in the yielder's own queue: its buddies here are
  /// cleared, it is charged (unless SCHED_BATCH) and becomes the skip buddy, whatever this
  /// queue holds. The kernel tests only the CPU's count (rq->nr_running == 1), which
  /// group_policy does; it then clears the marks above (clear_buddies' climb) and makes each
  /// group on the path the skip buddy of its queue (set_skip_buddy), so a task alone in its
  /// group still yields its group's turn above, and its own turn to a task that joins it.
  void yield_at_level(Task& curr, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&curr != curr_)) return;  // refuse: not the running node
    clear_buddies(curr);
    if (E(curr).kind != sched_kind::batch) update_curr(now);
    skip_ = &curr;
  }

  /// `t` leaves this class (a policy change) while it is not queued. A task that slept here
  /// holds an absolute vruntime: it is placed now as a wakeup would place it (the sleeper
  /// credit, so that time spent in the other class earns no unbounded bonus) and kept relative
  /// to min_vruntime, which its next enqueue here adds back, as the kernel's switched_from_fair
  /// → detach_task_cfs_rq does (6.5; curr is not charged first). A task taken out with `save` is
  /// relative already, and a fresh one has never run here: both are left as they are.
  void switched_from(Task& t, sched_time) noexcept {
    cfs_entity& e = E(t);
    if (e.on_rq || e.vstate != cfs_vstate::absolute) return;
    clear_buddies(t);
    place_entity(e, false);
    e.vruntime = vtime{e.vruntime.ns() - min_vruntime_.ns()};
    e.vstate = cfs_vstate::relative;
  }

  /// Optional hook `migrate_task_rq`: `t`, asleep after running here, is about to be woken on
  /// another CPU's queue (the kernel's migrate_task_rq_fair for a TASK_WAKING task, 5.x-6.5):
  /// its vruntime becomes relative to this queue's min_vruntime now, which the destination queue's
  /// enqueue adds back. Nothing for a task that is queued, already relative or fresh.
  /// @par Complexity O(1).
  void migrate_task_rq(Task& t, sched_time) noexcept {
    cfs_entity& e = E(t);
    if (e.on_rq || e.vstate != cfs_vstate::absolute) return;
    e.vruntime = vtime{e.vruntime.ns() - min_vruntime_.ns()};
    e.vstate = cfs_vstate::relative;
  }

  /// The task is gone: forget any buddy pointer to it. @pre `t` is not queued (a queued task
  /// would stay in the tree after its memory is gone: reported and refused, nothing changes).
  void task_dead(Task& t, sched_time) noexcept {
    if (SCHEDCORE_MISUSE(E(t).on_rq)) return;
    clear_buddies(t);
    if (fork_resched_ == &t) fork_resched_ = nullptr;
    if (new_task_ == &t) new_task_ = nullptr;
  }

  /// Structural check: tree shape and order, curr out of the tree, every tree task queued,
  /// nr_running and load equal to their recount, buddies queued. O(n).
  bool verify() const noexcept {
    if (!tree_.verify()) return false;
    usize n = 0;
    usize idle = 0;
    u64 w = 0;
    for (const Task& t : tree_) {
      if (!E(t).on_rq || E(t).queue != this || &t == curr_) return false;
      ++n;
      idle += E(t).kind == sched_kind::idle ? 1u : 0u;
      w += E(t).load.weight;
    }
    if (curr_ != nullptr) {
      if (!E(*curr_).on_rq || E(*curr_).queue != this) return false;
      ++n;
      idle += E(*curr_).kind == sched_kind::idle ? 1u : 0u;
      w += E(*curr_).load.weight;
    }
    if (n != nr_running_ || idle != nr_idle_ || w != load_) return false;
    const Task* const buddies[3] = {next_, last_, skip_};
    for (const Task* b : buddies)
      if (b != nullptr && !E(*b).on_rq) return false;
    return true;
  }

 private:
  static bool before(const Task& a, const Task& b) noexcept { return E(a).vruntime < E(b).vruntime; }

  u32 load_inv() const noexcept {
    if (load_inv_ == 0) load_inv_ = fair_inv_weight(load_);
    return load_inv_;
  }
  void account(const cfs_entity& e, bool add) noexcept {
    const usize idle = e.kind == sched_kind::idle ? 1u : 0u;
    if (add) {
      load_ += e.load.weight;
      ++nr_running_;
      nr_idle_ += idle;
    } else {
      load_ -= e.load.weight;
      --nr_running_;
      nr_idle_ -= idle;
    }
    load_inv_ = 0;
  }

  // Runs on every put_prev, tick and wakeup: inlined. The charge is calc_delta_fair: δ itself
  // for nice 0 (a predictable branch when most tasks are nice 0), otherwise the weight's
  // multiply-shift derived on the fly without branches (fair_vscale_of: a bit scan instead of
  // calc_delta_fair's data-dependent shift reductions; callgrind with mixed nice: 0.18 fewer
  // mispredicts and 1 fewer instruction per cycle). A cached fair_vscale, as eevdf keeps,
  // would grow the entity by 8 bytes (88 to 96 today), which cost more in memory misses at
  // large N (callgrind, bench/cfs_bench.cpp at N = 262144, measured when it was 80 to 88
  // bytes: 8.05 -> 8.72 LL misses per cycle).
  SCHEDCORE_ALWAYS_INLINE void update_curr(sched_time now) noexcept {
    if (curr_ == nullptr) return;
    cfs_entity& e = E(*curr_);
    const duration_ns delta = now - e.exec_start;
    if (delta <= 0) return;
    e.exec_start = now;
    e.sum_exec_runtime += static_cast<u64>(delta);
    const u64 d = static_cast<u64>(delta);
    e.vruntime += static_cast<duration_ns>(e.load.weight == nice_0_load ? d : fair_vscale_delta(d, fair_vscale_of(e.load)));
    update_min_vruntime();
  }

  void update_min_vruntime() noexcept {
    vtime v = min_vruntime_;
    bool have = false;
    if (curr_ != nullptr && E(*curr_).on_rq) {
      v = E(*curr_).vruntime;
      have = true;
    }
    if (const Task* left = tree_.front()) v = have ? earlier_of(v, E(*left).vruntime) : E(*left).vruntime;
    min_vruntime_ = later_of(min_vruntime_, v);
  }

  // sched_slice() of an entity: its share of the period (counted in if not queued), floored
  // by BASE_SLICE.
  u64 slice_of(const cfs_entity& e) const noexcept {
    const u64 nr = nr_running_ + (e.on_rq ? 0u : 1u);
    const u64 period = sched_period(nr);
    const u64 slice = e.on_rq ? fair_calc_delta(period, e.load.weight, load_inv())
                              : fair_calc_delta(period, e.load.weight, fair_inv_weight(load_ + e.load.weight));
    if (knobs_.base_slice == 0) return slice;
    // sched_idle_cfs_rq(): every queued task is SCHED_IDLE (and at least one is queued).
    const bool idle_only_queue = nr_running_ != 0 && nr_idle_ == nr_running_;
    const u64 floor = e.kind == sched_kind::idle && !idle_only_queue ? static_cast<u64>(knobs_.idle_min_granularity)
                                                                     : static_cast<u64>(min_gran_);
    return slice > floor ? slice : floor;
  }

  // place_entity(): `initial` = a fresh task (START_DEBIT), else a wakeup (sleeper credit).
  void place_entity(cfs_entity& e, bool initial) noexcept {
    vtime v = min_vruntime_;
    if (initial) {
      // START_DEBIT: one sched_vslice, the BASE_SLICE floor included (kernel 5.13+).
      if (knobs_.start_debit) v += static_cast<duration_ns>(calc_delta_fair(slice_of(e), e.load));
    } else {
      duration_ns thresh = e.kind == sched_kind::idle ? min_gran_ : latency_;
      if (knobs_.gentle_fair_sleepers) thresh >>= 1;
      v -= thresh;
    }
    e.vruntime = later_of(e.vruntime, v);
  }

  // wakeup_preempt_entity(curr, se): -1 if se is not behind curr, 1 if it is more than
  // wakeup_gran(se) behind, else 0.
  int preempt_entity(const Task& curr, const Task& se) const noexcept {
    const duration_ns vdiff = E(curr).vruntime - E(se).vruntime;
    if (vdiff <= 0) return -1;
    return static_cast<u64>(vdiff) > wakeup_gran(se) ? 1 : 0;
  }

  void set_next_buddy(Task& t) noexcept {
    if (E(t).kind == sched_kind::idle || !E(t).on_rq) return;
    next_ = &t;
  }
  void clear_buddies(const Task& t) noexcept {
    if (next_ == &t) next_ = nullptr;
    if (last_ == &t) last_ = nullptr;
    if (skip_ == &t) skip_ = nullptr;
  }

  rb_tree<Task, hook_access, by_vruntime> tree_{};  ///< the timeline (curr is not in it)
  Task* curr_ = nullptr;                            ///< running task of this class
  Task* next_ = nullptr;                            ///< next buddy (the wakee that preempted)
  Task* last_ = nullptr;                            ///< last buddy (the preempted task)
  Task* skip_ = nullptr;                            ///< skip buddy (the yielder)
  Task* fork_resched_ = nullptr;                    ///< child that swapped with curr at fork
  Task* new_task_ = nullptr;                        ///< the last task enqueued as new (fork)
  u64 load_ = 0;                                    ///< Σ weight of queued tasks
  mutable u32 load_inv_ = 0;                        ///< cached inverse of load_ (0: stale)
  usize nr_running_ = 0;                            ///< queued tasks, curr included
  usize nr_idle_ = 0;                               ///< queued SCHED_IDLE tasks, curr included
  vtime min_vruntime_{initial_min_vruntime};        ///< monotonic floor of the queue's vruntimes
  knobs knobs_{};                                   ///< tunables in force
  duration_ns latency_ = usec(6000);                ///< effective sched_latency
  duration_ns min_gran_ = usec(750);                ///< effective sched_min_granularity
  duration_ns wakeup_gran_ = usec(1000);            ///< effective sched_wakeup_granularity
  u64 nr_latency_ = 8;                              ///< sched_nr_latency
};

}  // namespace schedcore

#endif
