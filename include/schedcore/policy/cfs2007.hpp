/// @file
/// @brief `cfs2007_policy`: CFS as merged in Linux 2.6.23 (fair_clock, wait_runtime, fair_key),
/// with the `granularity` knob of the 2007 v-series so the 2007 reports can be replayed
/// (algorithms-modern.md §1.2–§1.3).
///
/// @par Which version
/// The model is **2.6.23 as merged** (read from 2.6.23.17's `kernel/sched_fair.c` and
/// `kernel/sched.c`, the [K23] source of the reference), with its default features
/// (FAIR_SLEEPERS, SLEEPER_LOAD_AVG and START_DEBIT on, SLEEPER_AVG, PRECISE_CPU_LOAD and
/// SKIP_INITIAL off; SLEEPER_LOAD_AVG only picks the load SLEEPER_AVG scales by, so it has no
/// effect while SLEEPER_AVG is off) and
/// `sched_stat_granularity` 0 (every update applied at once). It is the 64-bit build:
/// `WMULT_CONST` = 2^32 and `calc_weighted` uncapped, on every target (the arithmetic is u64).
///
/// @par Implementation notes
/// - Queue state: `fair_clock` (a wrap-safe vtime), load W = Σ w (curr included: in 2.6.23 the
///   running task *stays in the tree*), `sleeper_bonus`; per task `wait_runtime` (ns of CPU
///   it is owed), `fair_key`, `wait_start_fair`, `sleep_start_fair`.
/// - update_curr (§1.2 rules 1–2): for δ ns run, fair_clock += δ·1024/W and the runner's
///   wait_runtime += δ·w/W − δ, both with 2.6.23's `calc_delta_mine` (inverse of W =
///   (2^32 − W/2)/W + 1, rounding shifts `SRR`, the 2×16-bit split above 2^32); when the
///   outstanding sleeper_bonus exceeds min_granularity it is clawed back from δ·w/W.
/// - A waiting task is credited (fair_clock − wait_start_fair)·w/1024 (capped at 2·limit) when
///   it is picked or dequeued (rule 3); wait_runtime is clamped to ±runtime_limit (= the
///   effective latency, as `sched_init_granularity` sets it) (rule 4).
/// - Key (rule 5): fair_key = fair_clock − wait_runtime, the wait term scaled by 1024/w
///   (via the inverse weight, `>> 22`) for non-nice-0 tasks. The key is refreshed only at
///   enqueue, at each tick (curr is dequeued and re-enqueued, rule 6) and by yield: between
///   ticks curr's key is stale, as in 2.6.23.
/// - Sleepers (rule 4): a waking task (not SCHED_BATCH) is credited the fair-clock time it
///   slept, capped at 2·limit, weighted by w/1024 for non-nice-0 tasks, clamped, unless more
///   than runtime_limit of bonus is already outstanding; the credit is added to sleeper_bonus.
/// - Preemption (§1.3, `__check_preempt_curr_fair`): resched when curr.key − next.key >
///   niced(gran), where niced(g) = g·w/1024 for w < 1024 and g·inv_w >> 22 for w > 1024. At a
///   tick gran = `sched_granularity()` = max(lat/nr − lat/nr², min_gran) for nr > 1 (latency
///   for nr ≤ 1), and is 0 once curr has run more than ideal = max(lat/nr, min_gran) since it
///   was picked. A wakeup uses `wakeup_granularity` (`batch_wakeup_granularity` for a
///   SCHED_BATCH wakee) with the same ideal rule. (A woken RT task preempts through the class
///   stack.)
/// - Fork (`task_new_fair`, child_runs_first, on by default): when the parent is this queue's
///   running task, the child's key is parent.key − niced(gran) − 1 so it runs first, and
///   START_DEBIT sets its wait_runtime to −gran/2. A parent that is not running here (the child
///   was placed on another CPU) gets `wake_up_new_task`'s activate_task path, as do a queue
///   with no running task and child_runs_first off: the child is enqueued plainly with
///   wait_runtime 0. A start without a parent (nullptr; the kernel has none) takes the running
///   task as the forker (our choice). Not modelled: CLONE_VM forks (threads) also take the
///   plain path, which the hook cannot see.
/// - Yield: curr's key is refreshed (dequeue + enqueue), or with `compat_yield` it moves
///   behind the rightmost task.
/// - Tunables (§1.3, from `sched_init_granularity` of 2.6.23.17): `latency` 20 ms and
///   `min_granularity` 2 ms are multiplied by 1 + ilog2(cpus) (no 8-CPU cap) and the product is
///   capped at 100 ms (a base value set above 100 ms is used as written); `wakeup_granularity`
///   1 ms is multiplied by the same factor (2.6.23.17 derives it at boot as the scaled
///   min_granularity / 2: the same value at the default bases; a min_granularity base other
///   than twice the wakeup base gives another wakeup granularity there, so set both to follow
///   the boot rule, or only min_granularity to model a sysctl write, which leaves the wakeup
///   granularity alone); `batch_wakeup_granularity` 25 ms is not scaled; runtime_limit = the
///   effective latency, as sched_init_granularity sets it at boot, unless the `runtime_limit`
///   knob gives it as written. The knobs are the kernel's boot values: writing
///   `sched_latency_ns` on a running 2.6.23 changes neither the runtime limit nor the CPU
///   scaling, so to replay such a write set `latency` and `runtime_limit` (the boot latency,
///   20 ms × the factor) together. NOTE: the reference's §1.3 summary (cap 200 ms, all four
///   scaled) matches 2.6.24's `sched_init_granularity`; this header follows the 2.6.23.17 code
///   it cites, which differs only when the cap bites (≥ 32 CPUs at the defaults) and for the
///   batch granularity.
///
/// @par The `granularity` knob (the v-series' `sched_granularity_ns`)
/// The v-series' central tunable was `sched_granularity_ns`: the key distance the leftmost task
/// must lead by before it preempts the running one (§1.3, [DOC07]); v6 added a separate wakeup
/// granularity, and later versions a runtime limit and batch knobs derived from it. 2.6.23
/// replaced it by the dynamic `sched_granularity()` above. `granularity` = −1 (the default) is
/// 2.6.23; a value ≥ 0 approximates a v-series kernel with `sched_granularity_ns` written to
/// that value on 2.6.23's machinery. Not modelled (no v6 source is available; a 2.6.23-rc
/// sched_fair.c of the last fixed-granularity code, about v19/v20, shows them): its claw-back
/// (above `sched_granularity_ns` of outstanding bonus, a different amount), no cap on the
/// outstanding sleeper bonus, SLEEPER_AVG on, a runtime limit derived from the granularity
/// (its comment: 5 × the base; here the limit stays the latency, or the `runtime_limit`
/// knob), and its niced granularity for negative nice, which shifts by 32 where 2.6.23 shifts
/// by 22 (g / w instead of g · 1024 / w, later fixed: 209 ns instead of about 214 µs for a
/// nice −10 task at 2 ms). The tick
/// test uses that fixed granularity (niced as above) and **no** ideal-runtime reset (the
/// v-series had none), and fork uses it for the child's key and START_DEBIT. The value is used
/// as written (not scaled by CPU count: the 2007 reports wrote the sysctl, which holds the
/// post-scaling value). 0 preempts as soon as another task's key is smaller (the desktop-2007
/// "granularity 0" run); 100 ms and 500 ms (kernbench-4cpu) let hogs run long. Bounds: −1 .. 1 s.
/// `wakeup_granularity` stays its own knob in both modes, scaled by the CPU factor in both
/// (cfs-v6 introduced it, default 0 there: set `wakeup_granularity=0` for v6's value; the
/// rules above remain 2.6.23's).
///
/// @par Deviations and omissions
/// - The kernel's 0 sentinels for `wait_start_fair` / `sleep_start_fair` are explicit flags
///   (fair_clock may legitimately be 0 and wraps); a task woken without a preceding sleep
///   dequeue gets no sleeper credit.
/// - A task enqueued first without task_new() (a driver that only wakes tasks) is enqueued as
///   a plain fresh task (wait_runtime 0, no sleeper credit), as `activate_task(p, 0)`.
/// - Migrated wakeups (`wakeup|migrated`): the kernel's set_task_cpu shifts sleep_start_fair by
///   the two queues' fair-clock offset at migration, so the credit is the fair-clock time that
///   passed on the *old* queue (its fair_clock as last updated, as set_task_cpu reads it) plus
///   how far the destination queue's fair clock runs in enqueue_entity's update_curr
///   (set_task_cpu read it stale too). The driver calls migrate_task_rq() on the old queue
///   first, which records the first part; enqueue(wakeup|migrated) adds the second. A driver
///   that does not call it gets the wall-clock sleep time instead (the fair clock's rate with one
///   nice-0 task; our approximation, not from the reference), which exceeds the kernel's credit
///   when the queues were busier (W > 1024) or idle during the sleep, and falls short of it when
///   their load was below 1024 (only positive-nice tasks). Either is capped at 2·limit.
/// - Omitted: group scheduling, SLEEPER_AVG (off by default; SLEEPER_LOAD_AVG, on, only feeds
///   it), the load balancer's iterators, schedstats, sched_stat_granularity batching (0 by
///   default).
/// - Complexity: enqueue, dequeue, tick, yield O(log n); pick_next O(1) (cached leftmost);
///   set_next, put_prev, wakeup_preempt O(1); verify O(n). One 64-bit division per load
///   change (the inverse of W) and three per nr_running change (sched_granularity() and the
///   ideal runtime, cached until nr_running or the knobs change), none otherwise: the tick
///   path divides only on the first tick after an enqueue or dequeue.
#ifndef SCHEDCORE_POLICY_CFS2007_HPP
#define SCHEDCORE_POLICY_CFS2007_HPP

#include "schedcore/core/arith.hpp"
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

/// Tag of the cfs2007 class's tree hook (a task may embed several hooks).
struct cfs2007_hook_tag {};

/// Per-task state of the cfs2007 class (2.6.23's `sched_entity`), embedded in the task.
struct cfs2007_entity : rb_hook<link_mode::normal, cfs2007_hook_tag> {
  vtime fair_key{};                      ///< tree key: fair_clock − wait_runtime (scaled)
  vtime wait_start_fair{};               ///< fair_clock when it started waiting
  vtime sleep_start_fair{};              ///< fair_clock when it went to sleep
  sched_time exec_start{};               ///< when it last started running or was last charged
  sched_time sleep_start{};              ///< wall clock when it went to sleep (migrated wakeups)
  s64 wait_runtime = 0;                  ///< CPU time owed (+) or overdrawn (−), ns
  u64 sum_exec_runtime = 0;              ///< CPU time received, ns
  u64 prev_sum_exec_runtime = 0;         ///< sum_exec_runtime when it was last picked
  load_weight load{};                    ///< weight and inverse weight
  sched_kind kind = sched_kind::normal;  ///< normal, batch or idle
  s8 nice = 0;                           ///< nice value -20..19
  bool on_rq = false;                    ///< queued (running counts as queued)
  bool waiting = false;                  ///< wait_start_fair is set
  bool sleeping = false;                 ///< sleep_start_fair / sleep_start are set
  bool slept_measured = false;           ///< migrate_task_rq set slept_fair (a migrated wakeup follows)
  s64 slept_fair = 0;                    ///< fair-clock time its old queue ran while it slept, ns
  bool fresh = true;                     ///< never enqueued
  bool key_preset = false;               ///< task_new set fair_key for the first enqueue
};

/// CFS run queue of one CPU as in Linux 2.6.23 (`cfs_rq` without group scheduling).
/// @tparam Task the task type; embeds `cfs2007_entity` (by default as a base class)
/// @tparam EntityOf accessor from Task to its cfs2007_entity (see policy/params.hpp)
template <class Task, class EntityOf = base_entity<cfs2007_entity>>
class cfs2007_policy {
  /// @cond INTERNAL
  using hook = rb_hook<link_mode::normal, cfs2007_hook_tag>;
  using hook_access = entity_hook_access<Task, cfs2007_entity, EntityOf, hook>;
  struct by_key {
    using value_type = Task;
    bool operator()(const Task& a, const Task& b) const noexcept {
      return EntityOf::get(a).fair_key < EntityOf::get(b).fair_key;
    }
    // One wrap-safe key: the tree's insert descent compares raw counters (rb_has_wrap_key).
    static const u64& wrap_key(const Task& a) noexcept { return rb_time_key(EntityOf::get(a).fair_key); }
  };
  static cfs2007_entity& E(Task& t) noexcept { return EntityOf::get(t); }
  static const cfs2007_entity& E(const Task& t) noexcept { return EntityOf::get(t); }
  /// @endcond

 public:
  using task_type = Task;                        ///< the task type
  static constexpr const char* name = "cfs2007"; ///< class name
  /// 2.6.23.17's cap on the scaled latency and min_granularity (`sched_init_granularity`).
  static constexpr s64 scaled_limit = msec(100);
  /// `WEIGHT_IDLEPRIO` of 2.6.23 (SCHED_IDLE weight).
  static constexpr u32 weight_idleprio_2623 = 2;
  /// `WMULT_IDLEPRIO` of 2.6.23.
  static constexpr u32 wmult_idleprio_2623 = 1u << 31;

  /// Tunables of 2.6.23 plus the v-series granularity (ns; base values before CPU scaling).
  struct knobs {
    s64 granularity = -1;                     ///< v-series sched_granularity_ns; −1: 2.6.23 dynamic
    s64 latency = msec(20);                   ///< sched_latency_ns base
    s64 min_granularity = msec(2);            ///< sched_min_granularity_ns base
    s64 wakeup_granularity = msec(1);         ///< sched_wakeup_granularity_ns base
    s64 batch_wakeup_granularity = msec(25);  ///< sched_batch_wakeup_granularity_ns (not scaled)
    s64 cpus = 1;                             ///< online CPUs: factor 1 + ilog2(cpus)
    s64 fair_sleepers = 1;                    ///< FAIR_SLEEPERS feature
    s64 start_debit = 1;                      ///< START_DEBIT feature
    s64 child_runs_first = 1;                 ///< sched_child_runs_first
    s64 compat_yield = 0;                     ///< sched_compat_yield
    s64 runtime_limit = -1;                   ///< sched_runtime_limit_ns as written; −1: effective latency
  };
  /// Bounds and meaning of each knob (2.6.23's sysctl bounds: 100 µs..1 s, wakeup 0..1 s).
  static constexpr knob_info<knobs> knob_table[] = {
      {"granularity", knob_unit::time_ns, &knobs::granularity, -1, sec(1),
       "v-series sched_granularity_ns (fixed preemption granularity, used as written); -1: 2.6.23"},
      {"latency", knob_unit::time_ns, &knobs::latency, usec(100), sec(1),
       "sched_latency_ns base, x (1 + ilog2 cpus), capped at 100 ms. Needs latency >= min_granularity"},
      {"min_granularity", knob_unit::time_ns, &knobs::min_granularity, usec(100), sec(1),
       "sched_min_granularity_ns base, x (1 + ilog2 cpus), capped at 100 ms. Needs min_granularity <= latency"},
      {"wakeup_granularity", knob_unit::time_ns, &knobs::wakeup_granularity, 0, sec(1),
       "sched_wakeup_granularity_ns base, x (1 + ilog2 cpus)"},
      {"batch_wakeup_granularity", knob_unit::time_ns, &knobs::batch_wakeup_granularity, 0, sec(1),
       "wakeup granularity for SCHED_BATCH wakees"},
      {"cpus", knob_unit::count, &knobs::cpus, 1, 4096, "online CPUs: factor 1 + ilog2(cpus)"},
      {"fair_sleepers", knob_unit::flag, &knobs::fair_sleepers, 0, 1, "credit sleepers (FAIR_SLEEPERS)"},
      {"start_debit", knob_unit::flag, &knobs::start_debit, 0, 1, "fresh tasks start owing gran/2"},
      {"child_runs_first", knob_unit::flag, &knobs::child_runs_first, 0, 1, "a forked child runs first"},
      {"compat_yield", knob_unit::flag, &knobs::compat_yield, 0, 1, "yield moves behind every task"},
      {"runtime_limit", knob_unit::time_ns, &knobs::runtime_limit, -1, sec(1),
       "sched_runtime_limit_ns (wait_runtime clamp), used as written, 100 us .. 1 s; -1: the effective latency (boot rule)"},
  };

  /// Validates and installs knobs; on error nothing changes. latency < min_granularity is
  /// `errc::inverted`; a runtime_limit in 0 .. 100 µs is `errc::invalid_argument` (the
  /// sysctl's minimum); a latency or runtime_limit whose runtime limit would be below a queued task's
  /// |wait_runtime| is `errc::busy` (2.6.23 sets the limit once, at boot; change it on an
  /// idle queue, or one whose tasks are within the smaller limit). A sleeping task's
  /// wait_runtime is clamped to the lower limit when it is next enqueued. O(n) with tasks queued.
  errc configure(const knobs& k) noexcept {
    if (const errc e = validate_knobs(k, knob_table); e != errc::ok) return e;
    if (k.runtime_limit >= 0 && k.runtime_limit < usec(100)) return errc::invalid_argument;  // sysctl minimum
    if (k.latency < k.min_granularity) return errc::inverted;
    const s64 f = static_cast<s64>(scale_factor(k.cpus));
    const duration_ns new_limit = k.runtime_limit >= 0 ? k.runtime_limit : scaled(k.latency, f);
    if (new_limit < runtime_limit_) {
      for (const Task& t : tree_) {
        const duration_ns w = E(t).wait_runtime;
        if (w > new_limit || w < -new_limit) return errc::busy;
      }
    }
    knobs_ = k;
    latency_ = scaled(k.latency, f);
    min_gran_ = scaled(k.min_granularity, f);
    wakeup_gran_ = k.wakeup_granularity * f;
    runtime_limit_ = new_limit;
    nr_cache_ = nr_cache_stale;  // latency_ and min_gran_ changed
    return errc::ok;
  }
  /// The knobs in force.
  const knobs& config() const noexcept { return knobs_; }
  /// 2.6.23's factor: 1 + ilog2(cpus), no cap on the CPU count.
  static constexpr unsigned scale_factor(s64 cpus) noexcept {
    return 1u + (ilog2)(static_cast<u64>(cpus < 1 ? 1 : cpus));
  }
  /// Effective sched_latency, ns.
  duration_ns sched_latency() const noexcept { return latency_; }
  /// Effective sched_min_granularity, ns.
  duration_ns min_granularity() const noexcept { return min_gran_; }
  /// Effective sched_wakeup_granularity, ns.
  duration_ns wakeup_granularity() const noexcept { return wakeup_gran_; }
  /// sched_runtime_limit (the wait_runtime clamp), ns.
  duration_ns runtime_limit() const noexcept { return runtime_limit_; }
  /// The current preemption granularity: the `granularity` knob, or 2.6.23's
  /// `sched_granularity()` = max(lat/nr − lat/nr², min_gran) for nr > 1.
  duration_ns sched_granularity() const noexcept {
    if (knobs_.granularity >= 0) return knobs_.granularity;
    refresh_nr_cache();
    return gran_cache_;
  }
  /// 2.6.23's `niced_granularity(curr, g)`: g·w/1024 for w < 1024, g·inv_w >> 22 for w > 1024.
  static duration_ns niced_granularity(const Task& t, duration_ns g) noexcept {
    const cfs2007_entity& e = E(t);
    const u64 ug = static_cast<u64>(g);
    if (e.load.weight == nice_0_load) return g;
    if (e.load.weight < nice_0_load) return static_cast<duration_ns>((e.load.weight * ug) >> nice_0_shift);
    return static_cast<duration_ns>(mul_u64_u32_shr(ug, e.load.inv_weight, wmult_shift - nice_0_shift));
  }

  /// Loads `p` (kind normal, batch or idle; nice -20..19) into `t`'s entity: 2.6.23's weight
  /// table (SCHED_IDLE: 2) and, as `set_load_weight`, wait_runtime = 0. Refuses other kinds and
  /// bad nice values, and a queued task (`errc::busy`); on refusal nothing changes.
  errc setup(Task& t, const sched_params& p) noexcept {
    cfs2007_entity& e = E(t);
    if (p.kind != sched_kind::normal && p.kind != sched_kind::batch && p.kind != sched_kind::idle)
      return errc::invalid_argument;
    if (!valid_nice(p.nice)) return errc::invalid_argument;  // validate(p) for these kinds
    if (e.on_rq) return errc::busy;
    e.kind = p.kind;
    e.nice = p.nice;
    e.load = p.kind == sched_kind::idle ? load_weight{weight_idleprio_2623, wmult_idleprio_2623}
                                        : nice_to_load(p.nice);
    e.wait_runtime = 0;
    return errc::ok;
  }

  /// Sets fair_clock on an empty queue (tests and ports). `errc::busy` when tasks are queued.
  errc reset_fair_clock(vtime v) noexcept {
    if (nr_running_ != 0) return errc::busy;
    fair_clock_ = v;
    return errc::ok;
  }
  /// The queue's fair clock.
  vtime fair_clock() const noexcept { return fair_clock_; }
  /// Sum of the queued weights (running included).
  u64 load() const noexcept { return load_; }
  /// Sleeper credit handed out and not yet clawed back, ns.
  u64 sleeper_bonus() const noexcept { return sleeper_bonus_; }
  /// The running task of this class, or nullptr.
  Task* current() const noexcept { return curr_; }

  /// 2.6.23's `calc_delta_mine(delta, weight, W)` with the queue's load W: delta·weight/W,
  /// rounded, capped at LONG_MAX. @pre load() != 0
  u64 calc_delta_mine(u64 delta, u32 weight) const noexcept {
    if (load_inv_ == 0) load_inv_ = inverse_2623(load_);
    u64 tmp = delta * weight;
    if (tmp > (static_cast<u64>(1) << 32)) {
      tmp = srr(srr(tmp, 16) * load_inv_, 16);
    } else {
      tmp = srr(tmp * load_inv_, 32);
    }
    const u64 long_max = ~static_cast<u64>(0) >> 1;
    return tmp < long_max ? tmp : long_max;
  }

  /// Fork (`task_new_fair` under child_runs_first): when `parent` is this queue's running task
  /// (or is nullptr and a task runs here, which then stands in for the forker) the child's key
  /// is set just before curr's (key − niced(gran) − 1) and START_DEBIT gives it wait_runtime =
  /// −gran/2; otherwise (a parent running on another CPU or not running, no running task,
  /// child_runs_first off) the child starts plainly (wait_runtime 0), as `wake_up_new_task`'s
  /// activate_task path.
  void task_new(Task& child, Task* parent, sched_time now) noexcept {
    cfs2007_entity& e = E(child);
    if (SCHEDCORE_MISUSE(e.on_rq)) return;
    e.sum_exec_runtime = 0;
    e.prev_sum_exec_runtime = 0;
    e.wait_runtime = 0;
    e.waiting = false;
    e.sleeping = false;
    e.fresh = false;
    e.key_preset = false;
    // wake_up_new_task: task_new_fair only when the child is queued where its parent is
    // running (task_cpu(p) == this_cpu, current->se.on_rq); cfs_rq_curr is then the parent.
    // Without a parent (a driver's start) the running task stands in for the forker.
    if (!knobs_.child_runs_first || curr_ == nullptr || (parent != nullptr && parent != curr_)) return;
    update_curr(now);
    stats_enqueue(e, false);
    const duration_ns gran = sched_granularity();
    e.fair_key = E(*curr_).fair_key - niced_granularity(*curr_, gran) - 1;
    // START_DEBIT. 2.6.23's task_new_fair assigns −gran/2 directly (no limit_wait_runtime);
    // the clamp to ±runtime_limit is ours and changes nothing in 2.6.23 mode (gran ≤ latency =
    // limit). It bites only for a v-series granularity above twice the limit, which would
    // otherwise leave the child outside the invariant verify() checks.
    if (knobs_.start_debit) e.wait_runtime = -min_of(gran / 2, runtime_limit_);
    e.key_preset = true;
  }

  /// `t` becomes runnable (`enqueue_entity`): sleeper credit on `wakeup`, fresh key, insert.
  void enqueue(Task& t, sched_time now, enqueue_flags flags) noexcept {
    cfs2007_entity& e = E(t);
    if (SCHEDCORE_MISUSE(e.on_rq)) return;
    if (!has(flags, enqueue_flags::restore) || &t != resumed_) resumed_ = nullptr;
    // A migrated sleeper's credit includes how far this queue's fair clock runs in the
    // update_curr below: set_task_cpu rebased its sleep start on this queue's clock as it was
    // (last updated at a tick or an enqueue/dequeue), and enqueue_entity brings it up to date.
    const vtime stale_fair_clock = fair_clock_;
    update_curr(now);
    // A sleeper comes back with the wait_runtime it left with, which a configure() since may
    // have put outside a lower limit (configure checks only the queued tasks): clamp it.
    add_wait_runtime(e, 0);
    if (e.key_preset) {
      e.key_preset = false;
    } else {
      if (has(flags, enqueue_flags::wakeup) && !e.fresh)
        enqueue_sleeper(e, now, has(flags, enqueue_flags::migrated), fair_clock_ - stale_fair_clock);
      stats_enqueue(e, false);
    }
    e.sleeping = false;
    e.slept_measured = false;
    e.fresh = false;
    e.on_rq = true;
    account(e.load.weight, true);
    tree_.insert(t);
  }

  /// `t` leaves (`dequeue_entity`): a waiting task is credited its wait; a sleeper records
  /// when it slept. If `t` is running it stops being curr (no put_prev follows).
  void dequeue(Task& t, sched_time now, dequeue_flags flags) noexcept {
    cfs2007_entity& e = E(t);
    if (SCHEDCORE_MISUSE(!e.on_rq)) return;
    update_curr(now);
    if (&t != curr_) wait_end(e);
    if (has(flags, dequeue_flags::sleep) || has(flags, dequeue_flags::dead)) {
      e.sleep_start_fair = fair_clock_;
      e.sleep_start = now;
      e.sleeping = true;
    }
    tree_.erase(t);
    account(e.load.weight, false);
    e.on_rq = false;
    resumed_ = has(flags, dequeue_flags::save) && &t == curr_ ? &t : nullptr;
    if (&t == curr_) curr_ = nullptr;
  }

  /// The task with the smallest fair_key (the leftmost; curr stays in the tree).
  SCHEDCORE_ALWAYS_INLINE Task* pick_next(sched_time) noexcept { return tree_.front(); }

  /// `t` starts running (`set_next_entity`): credited its wait; its slice count starts.
  SCHEDCORE_ALWAYS_INLINE void set_next(Task& t, sched_time now) noexcept {
    cfs2007_entity& e = E(t);
    // refuse: only a queued task runs (it stays in the tree), and only when nothing else does
    // (put_prev comes first)
    if (SCHEDCORE_MISUSE(!e.on_rq || (curr_ != nullptr && curr_ != &t))) return;
    if (curr_ == &t) update_curr(now);
    wait_end(e);
    e.exec_start = now;
    curr_ = &t;
    // A running task taken out and put back around a nice or policy change keeps counting its
    // slice: 2.6.23's set_user_nice and sched_setscheduler dequeue and enqueue it but never
    // call set_curr_task (2.6.24 added that), so prev_sum_exec_runtime stays as it was.
    if (&t != resumed_) e.prev_sum_exec_runtime = e.sum_exec_runtime;
    resumed_ = nullptr;
  }

  /// Running `t` stops running (`put_prev_entity`): charged, starts waiting; it stays in the
  /// tree at its (stale) key.
  SCHEDCORE_ALWAYS_INLINE void put_prev(Task& t, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&t != curr_)) return;  // refuse: not the running task
    update_curr(now);
    cfs2007_entity& e = E(t);
    e.wait_start_fair = fair_clock_;
    e.waiting = true;
    curr_ = nullptr;
  }

  /// `entity_tick`: charge curr, refresh its key (dequeue + enqueue), then the preemption test
  /// against the leftmost with sched_granularity().
  SCHEDCORE_ALWAYS_INLINE bool tick(Task& curr, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&curr != curr_)) return false;  // refuse: not the running task
    update_curr(now);
    requeue(curr);
    Task* next = tree_.front();
    if (next == &curr || next == nullptr) return false;
    return check_preempt(*next, curr, sched_granularity());
  }

  /// `check_preempt_curr_fair`: `woken` preempts when curr.key − woken.key exceeds the niced
  /// wakeup granularity (batch granularity for a SCHED_BATCH wakee; 0 once curr ran its ideal
  /// runtime, 2.6.23 mode).
  bool wakeup_preempt(Task& woken, Task& curr, sched_time) noexcept {
    if (&woken == &curr) return false;
    const duration_ns gran =
        E(woken).kind == sched_kind::batch ? knobs_.batch_wakeup_granularity : wakeup_gran_;
    return check_preempt(woken, curr, gran);
  }

  /// Optional hook `change_resched` (policy.hpp): the core of 2.6.23 decides for a
  /// running task, whatever its class was: sched_setscheduler and rt_mutex_setprio reschedule it
  /// at a worse priority (`if (task_running(rq, p)) { if (p->prio > oldprio)
  /// resched_task(rq->curr); }`), set_user_nice at any move of its priority (`delta = p->prio -
  /// old_prio; ... if (delta < 0 || (delta > 0 && task_running(rq, p)))
  /// resched_task(rq->curr);`). O(1).
  bool change_resched(Task&, const param_change& c, sched_time) const noexcept {
    return c.nice ? c.prio != c.oldprio : c.prio > c.oldprio;
  }
  /// Queued tasks including a running one.
  usize nr_runnable() const noexcept { return nr_running_; }

  /// sched_yield(): refresh curr's key (or, with compat_yield, move it behind the rightmost).
  void yield(Task& curr, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&curr != curr_)) return;  // refuse: not the running task
    if (nr_running_ <= 1) return;
    if (!knobs_.compat_yield) {
      update_curr(now);
      requeue(curr);
      return;
    }
    Task* last = tree_.back();
    if (last == &curr) return;
    tree_.erase(curr);
    E(curr).fair_key = E(*last).fair_key + 1;
    tree_.insert(curr);
  }

  /// Optional hook `migrate_task_rq`: `t`, asleep after running here, is about to be woken on
  /// another CPU's queue (2.6.23's set_task_cpu in try_to_wake_up): records how far this
  /// queue's fair clock ran while `t` slept, the credit its enqueue(wakeup|migrated) there
  /// gives. Nothing for a task that is queued or not asleep. O(1).
  void migrate_task_rq(Task& t, sched_time) noexcept {
    cfs2007_entity& e = E(t);
    if (e.on_rq || !e.sleeping) return;
    e.slept_fair = fair_clock_ - e.sleep_start_fair;
    e.slept_measured = true;
  }

  /// Structural check: tree order and shape, every tree task queued, curr in the tree,
  /// nr_running and load equal to their recount, |wait_runtime| within the limit. O(n).
  bool verify() const noexcept {
    if (!tree_.verify()) return false;
    usize n = 0;
    u64 w = 0;
    bool curr_seen = false;
    for (const Task& t : tree_) {
      const cfs2007_entity& e = E(t);
      if (!e.on_rq) return false;
      if (e.wait_runtime > runtime_limit_ || e.wait_runtime < -runtime_limit_) return false;
      if (&t == curr_) curr_seen = true;
      ++n;
      w += e.load.weight;
    }
    if (curr_ != nullptr && !curr_seen) return false;
    return n == nr_running_ && w == load_;
  }

 private:
  static u64 srr(u64 x, unsigned y) noexcept { return (x + (static_cast<u64>(1) << (y - 1))) >> y; }
  static u32 inverse_2623(u64 w) noexcept {
    // (WMULT_CONST − W/2) / W + 1 with WMULT_CONST = 2^32 (64-bit build).
    const u64 wmult = static_cast<u64>(1) << 32;
    if (w == 0) return 0xFFFFFFFFu;
    const u64 inv = (wmult - w / 2) / w + 1;
    return inv > 0xFFFFFFFFu ? 0xFFFFFFFFu : static_cast<u32>(inv);
  }
  static s64 scaled(s64 base, s64 factor) noexcept {
    const s64 v = base * factor;
    if (v <= scaled_limit) return v;
    return base > scaled_limit ? base : scaled_limit;
  }

  // sched_granularity() and check_preempt()'s ideal runtime depend only on nr_running_,
  // latency_ and min_gran_, but cost three 64-bit divisions (tens of cycles each, and a libgcc
  // call on 32-bit targets); every tick needs both. They are recomputed only when nr_running_
  // differs from the one they were computed for (enqueue/dequeue) or configure() ran.
  // O(1); the values are exactly those of the 2.6.23 expressions.
  void refresh_nr_cache() const noexcept {
    if (nr_cache_ == nr_running_) return;
    const u64 nr = nr_running_;
    const u64 lat = static_cast<u64>(latency_);
    const u64 min_g = static_cast<u64>(min_gran_);
    u64 gran = lat;
    if (nr > 1) {
      gran = gran / nr - gran / nr / nr;
      if (gran < min_g) gran = min_g;
    }
    u64 ideal = lat / (nr == 0 ? 1 : nr);
    if (ideal < min_g) ideal = min_g;
    gran_cache_ = static_cast<duration_ns>(gran);
    ideal_cache_ = ideal;
    nr_cache_ = nr_running_;
  }

  void account(u32 weight, bool add) noexcept {
    if (add) {
      load_ += weight;
      ++nr_running_;
    } else {
      load_ -= weight;
      --nr_running_;
    }
    load_inv_ = 0;
  }

  void add_wait_runtime(cfs2007_entity& e, s64 delta) noexcept {
    e.wait_runtime += delta;
    if (e.wait_runtime > runtime_limit_) e.wait_runtime = runtime_limit_;
    if (e.wait_runtime < -runtime_limit_) e.wait_runtime = -runtime_limit_;
  }

  // update_curr + __update_curr.
  SCHEDCORE_ALWAYS_INLINE void update_curr(sched_time now) noexcept {
    if (curr_ == nullptr) return;
    cfs2007_entity& e = E(*curr_);
    const duration_ns d = now - e.exec_start;
    if (d <= 0) return;  // a step back charges nothing and keeps the stamp (policy.hpp, "Time")
    e.exec_start = now;
    const u64 delta = static_cast<u64>(d);
    e.sum_exec_runtime += delta;
    if (load_ == 0) return;
    const u64 delta_fair = calc_delta_mine(delta, nice_0_load);
    u64 delta_mine = calc_delta_mine(delta, e.load.weight);
    if (sleeper_bonus_ > static_cast<u64>(min_gran_)) {
      u64 x = delta_mine < sleeper_bonus_ ? delta_mine : sleeper_bonus_;
      const u64 room = static_cast<u64>(runtime_limit_ - e.wait_runtime);
      if (room < x) x = room;
      sleeper_bonus_ -= x;
      delta_mine -= x;
    }
    fair_clock_ += static_cast<duration_ns>(delta_fair);
    add_wait_runtime(e, static_cast<s64>(delta_mine) - static_cast<s64>(delta));
  }

  // update_stats_enqueue: start waiting (unless curr), recompute the key.
  void stats_enqueue(cfs2007_entity& e, bool is_curr) noexcept {
    if (!is_curr) {
      e.wait_start_fair = fair_clock_;
      e.waiting = true;
    }
    vtime key = fair_clock_;
    if (e.load.weight == nice_0_load) {
      key -= e.wait_runtime;
    } else if (e.wait_runtime < 0) {
      key += static_cast<duration_ns>(
          mul_u64_u32_shr(static_cast<u64>(-e.wait_runtime), e.load.inv_weight, wmult_shift - nice_0_shift));
    } else {
      key -= static_cast<duration_ns>(
          mul_u64_u32_shr(static_cast<u64>(e.wait_runtime), e.load.inv_weight, wmult_shift - nice_0_shift));
    }
    e.fair_key = key;
  }

  // update_stats_wait_end: credit the fair time waited, weighted.
  void wait_end(cfs2007_entity& e) noexcept {
    if (!e.waiting) return;
    e.waiting = false;
    const u64 cap = 2 * static_cast<u64>(runtime_limit_);
    const duration_ns waited = fair_clock_ - e.wait_start_fair;
    u64 delta_fair = waited <= 0 ? 0 : static_cast<u64>(waited);
    if (delta_fair > cap) delta_fair = cap;
    if (e.load.weight != nice_0_load) delta_fair = (delta_fair * e.load.weight) >> nice_0_shift;
    add_wait_runtime(e, static_cast<s64>(delta_fair));
  }

  // enqueue_sleeper + __enqueue_sleeper.
  // `caught_up`: how far this queue's fair clock ran in the enqueue's update_curr (a migrated
  // sleeper measured by migrate_task_rq is credited it on top of its old queue's share).
  void enqueue_sleeper(cfs2007_entity& e, sched_time now, bool migrated, duration_ns caught_up) noexcept {
    if (e.kind == sched_kind::batch || !knobs_.fair_sleepers || !e.sleeping) return;
    const u64 cap = 2 * static_cast<u64>(runtime_limit_);
    const duration_ns slept = !migrated ? fair_clock_ - e.sleep_start_fair
                              : e.slept_measured ? duration_ns{e.slept_fair} + caught_up : now - e.sleep_start;
    u64 delta_fair = slept <= 0 ? 0 : static_cast<u64>(slept);
    if (delta_fair > cap) delta_fair = cap;
    if (sleeper_bonus_ > static_cast<u64>(runtime_limit_)) return;
    if (e.load.weight != nice_0_load) delta_fair = (delta_fair * e.load.weight) >> nice_0_shift;
    const s64 prev = e.wait_runtime;
    add_wait_runtime(e, static_cast<s64>(delta_fair));
    sleeper_bonus_ += static_cast<u64>(e.wait_runtime - prev);
  }

  // Refresh curr's key in the tree (entity_tick's dequeue_entity + enqueue_entity).
  // curr is usually still the leftmost it was picked as: pop_front()'s shorter unlink then.
  void requeue(Task& curr) noexcept {
    if (&curr == tree_.front()) {
      tree_.pop_front();
    } else {
      tree_.erase(curr);
    }
    stats_enqueue(E(curr), true);
    tree_.insert(curr);
  }

  // __check_preempt_curr_fair.
  bool check_preempt(const Task& se, const Task& curr, duration_ns gran) const noexcept {
    const duration_ns delta = E(curr).fair_key - E(se).fair_key;
    if (knobs_.granularity < 0) {
      refresh_nr_cache();
      const u64 ideal = ideal_cache_;  // max(latency / max(nr, 1), min_gran)
      const u64 ran = E(curr).sum_exec_runtime - E(curr).prev_sum_exec_runtime;
      if (ran > ideal) gran = 0;
    }
    return delta > niced_granularity(curr, gran);
  }

  rb_tree<Task, hook_access, by_key> tree_{};  ///< the timeline (curr included)
  Task* curr_ = nullptr;                       ///< running task of this class
  /// The running task while a dequeue(save) / enqueue(restore) / set_next sequence puts it
  /// back (a parameter change); compared, never dereferenced; nullptr otherwise.
  Task* resumed_ = nullptr;
  vtime fair_clock_{};                         ///< the queue's fair clock
  u64 load_ = 0;                               ///< Σ weight of queued tasks
  mutable u32 load_inv_ = 0;                   ///< cached 2.6.23 inverse of load_ (0: stale)
  usize nr_running_ = 0;                       ///< queued tasks, curr included
  u64 sleeper_bonus_ = 0;                      ///< outstanding sleeper credit, ns
  knobs knobs_{};                              ///< tunables in force
  duration_ns latency_ = msec(20);             ///< effective sched_latency
  duration_ns min_gran_ = msec(2);             ///< effective sched_min_granularity
  duration_ns wakeup_gran_ = msec(1);          ///< effective sched_wakeup_granularity
  duration_ns runtime_limit_ = msec(20);       ///< sched_runtime_limit (the effective latency unless set)
  static constexpr usize nr_cache_stale = ~static_cast<usize>(0);  ///< no nr_running_ matches
  mutable usize nr_cache_ = nr_cache_stale;    ///< nr_running_ the two values below are for
  mutable duration_ns gran_cache_ = 0;         ///< sched_granularity() (2.6.23 mode) at nr_cache_
  mutable u64 ideal_cache_ = 0;                ///< check_preempt's ideal runtime at nr_cache_, ns
};

}  // namespace schedcore

#endif
