/// @file
/// @brief `edf_policy`: SCHED_DEADLINE, earliest deadline first over constant bandwidth
/// servers, with admission control (algorithms-modern.md §5).
///
/// @par Implementation notes
/// - Parameters (§5): runtime Q, relative deadline D, period P (0 means P = D), ns, with
///   Q <= D <= P (else `errc::inverted`), Q >= 1024 ns (2^DL_SCALE) and P within
///   [`deadline_period_min`, `deadline_period_max`] = [100 us, 2^22 us] (else
///   `errc::invalid_argument`). Each task's bandwidth is `(Q << 20) / P` (BW_SHIFT = 20).
/// - Structure: ready (unthrottled) tasks sit in an rb_tree keyed by absolute deadline d,
///   leftmost cached (pick is one load); throttled tasks sit in a second rb_tree keyed by their
///   replenishment instant, whose leftmost is the class timer (`next_timer`/`timer`, the
///   kernel's per-entity dl_timer hrtimers collapsed into one queue). The running task stays in
///   the ready tree, as in the kernel. Every queued task is in exactly one of the two trees.
/// - CBS (§5, [DLDOC], deadline.c): runtime q is charged with the executed time; when q <= 0
///   (or on yield) the task is throttled until `d − D + P` (the start of its next period,
///   `dl_next_period`; = d when D = P), when the timer replenishes it: `while q <= 0:
///   d += P, q += Q`, and if d is still in the past, a fresh period `d = now + D, q = Q`
///   ("replenish lagged too much"). If that instant has already passed when it throttles, it
///   is replenished at once. An overrun (q < 0, possible when enforcement is at the tick) is
///   paid back from the next period's budget, so a task can never take more than its
///   bandwidth over time: CBS isolation.
/// - Wakeup rule (`update_dl_entity`): if d < now or the remaining bandwidth overflows,
///   `q/(d − now) > Q/D`, tested without division in DL_SCALE units as
///   `((d − now) >> 10)·(Q >> 10) < (D >> 10)·(q >> 10)` (`dl_entity_overflow`), then a new
///   period starts (d = now + D, q = Q). For a constrained task (D < P) whose deadline has not
///   passed, the revised rule (Abeni, Lipari, Lelli 2015) keeps d and trims the runtime to
///   `q = (dl_density·(d − now)) >> 20`, dl_density = (Q << 20) / D (`update_dl_revised_wakeup`).
///   Oracle O5.4.
/// - Constrained-deadline rule (`dl_check_constrained_dl`): a task with D < P enqueued (woken,
///   restored or migrated; not at its first enqueue) after its deadline but before its next
///   period is throttled (q clamped to at most 0) until the next period, so sleeping across
///   the deadline cannot buy a second budget in one period.
/// - A task that blocks while throttled keeps its throttled state (its timer is cancelled
///   with the dequeue); when it wakes before its replenishment instant it is re-armed, after it
///   is first replenished as of that instant (`d − D + P`, not the wakeup time: what the
///   kernel's dl_timer firing on a sleeping task does) and then subjected to the
///   constrained-deadline rule and the wakeup rule, as any unthrottled task. That replenishment
///   uses the parameters in force at the wakeup; the kernel's timer fired at the instant with
///   those of then, so a change of Q/D/P while a throttled task sleeps past that instant differs
///   (2 / 10 ms changed to 0.5 / 5 ms: here q 0.5 ms, d 1.025 s; the kernel 0.5 ms, 1.019 s).
///   Not modelled: a sleeper would need its timer kept in the timer tree. Nor is the order of
///   admission and charge in a change of a GRUB reservation: the kernel updates Uextra in
///   sched_dl_overflow before dequeue_task charges curr, while `setup` comes after
///   `dequeue(save)`, so curr's last charge there uses the old Uextra.
/// - Parameter changes (`__setparam_dl`): setup() of an admitted task changes Q, D, P and the
///   bandwidths only; q, d and throttling carry over to the enqueue(restore) that follows, so a
///   change cannot buy a fresh budget. A throttled task set as curr by that restore is charged
///   nothing until its replenishment.
/// - Enforcement: by default at ticks and accounting points (dequeue, put_prev, yield; not a
///   wakeup), as the kernel without HRTICK_DL (the feature is off by default). Knob `hrtick` = 1 adds curr's budget exhaustion
///   (exec_start + q) to next_timer(), so the budget is enforced to the nanosecond.
/// - Preemption: a wakee (or a replenished task) preempts when its deadline is strictly
///   earlier than curr's (`dl_entity_preempt`); at a tick curr is rescheduled if it was
///   throttled or is no longer the leftmost.
/// - yield (`yield_task_dl`): the rest of the runtime is given up (q = 0) and the task sleeps
///   in the throttled tree until its next period.
/// - Runtime overruns (4.16+, SCHED_FLAG_DL_OVERRUN: `sched_params::dl_overrun`): a task that
///   asked for them is marked (`edf_entity::dl_overrun`) whenever a charge throttles it with its
///   budget spent, q <= 0 (`dl_runtime_exceeded` in update_curr_dl; a yield with budget left is
///   not an overrun, nor is the constrained-deadline rule's throttle). The kernel turns the mark
///   into a SIGXCPU at the next tick that finds the task running (check_dl_overrun, run after
///   the scheduler's own tick, so a throttle at a tick is signalled in that tick); here the
///   caller does the same with `take_overrun(t)`, which reads and clears the mark. The mark
///   survives a parameter change, as the kernel's does (`__setparam_dl` leaves it).
/// - Admission control (§5, [DLDOC §4]): Σ bw over the tasks set up through this object must
///   stay <= cpus · (bound% << 20) / 100 (`__dl_overflow` with the root domain's cap;
///   95 % = 996147 per CPU, the kernel's 950000/1000000 rt bandwidth); `bound` = −1 disables
///   the check. setup() of an already admitted task replaces its bandwidth. A refused setup
///   returns `errc::overloaded` and changes nothing; task_dead() releases the bandwidth (at
///   once, as before 4.13; later kernels hold it until the 0-lag time). In a
///   multi-CPU simulation one object (or a shared copy of its accounting) must see every
///   setup, as a root domain does. On CPUs of different capacities (5.9+, `dl_bw_capacity`)
///   the cap is `((bound% << 20) / 100) · C >> 10` for C the sum of the root domain's
///   capacities (`set_root_capacity`; 0, the default, means cpus · 1024, which gives the
///   formula above): two CPUs of capacity 1024 and 446 admit 0.95 · 1470 / 1024 = 1.36 CPUs of
///   bandwidth, not 1.9. `fits_capacity(t, c)` is the matching placement test
///   (`dl_task_fits_capacity`: D · c >> 10 >= Q).
/// - Scale invariance (4.16+, `update_curr_dl`): a reservation is in units of the work the
///   biggest CPU does at its top frequency. The time a task runs is charged as
///   `((delta * freq_scale) >> 10) * cpu_scale >> 10` (the kernel's two `cap_scale` steps),
///   where `set_capacity(freq_scale, cpu_scale)` gives the CPU's current frequency over its
///   highest and its capacity, both out of 1024 (default 1024 and 1024: no scaling). A task
///   with Q = 2 ms per 10 ms runs 4 ms per period on a CPU at half speed. The scale in force at
///   a charge applies to the whole interval since the previous one, as with the kernel's
///   cpufreq-driven `arch_scale_freq_capacity`.
/// - Active utilisation (4.13+, GRUB's `running_bw`, Abeni et al.): Σ dl_bw of the tasks that
///   contend for this CPU, which schedutil reads as the deadline class's minimum frequency
///   (`active_util()`, the kernel's `cpu_bw_dl`). A task is active from its wakeup (or arrival)
///   until it sleeps; throttled tasks stay active. A task that sleeps stays active until its
///   0-lag time `d − q·P/Q` (`task_non_contending`), when its inactive timer (the class timer,
///   as the replenishments) removes it, unless it wakes first. A task that leaves this queue
///   otherwise (migration, a parameter change of its bandwidth, class change, exit) stops
///   counting at once (a change that keeps Q/P does not: sched_dl_overflow returns first). Each
///   entity records which queue counts it (`active_rq`), so a wakeup on another CPU, a
///   parameter change or an exit through the root domain's object ends the count where it is
///   (the kernel's `migrate_task_rq_dl`, `dl_change_utilization`); a caller running CPUs in
///   parallel must serialise those with the counting queue, as the kernel holds its lock.
/// - GRUB reclaiming (4.13+, SCHED_FLAG_RECLAIM: `sched_params::reclaim`; Abeni, Lelli,
///   Scordino, Palopoli, "Greedy CPU reclaiming for SCHED_DEADLINE", 2014): a reclaiming task's
///   budget drains at `dq = −(max{Ui, Umax − Uinact − Uextra} / Umax)·dt`
///   (sched-deadline.rst §2.2), so it may run on into the bandwidth that nobody else uses,
///   up to Umax of the CPU in all. Per queue, with bandwidths << 20:
///   - `this_bw`: Σ dl_bw of the tasks that belong to this CPU: queued, or asleep after they
///     last ran here (until they wake elsewhere, leave the class or exit; a parameter change
///     of a sleeper changes its share in place, `dl_change_utilization`);
///   - Uinact = this_bw − running_bw: the bandwidth of its sleepers past their 0-lag time;
///   - Umax = `max_bw` = (bound << 20) / 100 (2^20 with no bound) and `bw_ratio` = 1 / Umax
///     in RATIO_SHIFT = 8 bits, ((100 << 20) / bound) >> 12 (269 for 95 %);
///   - Uextra = `extra_bw` = Umax − Σ dl_bw / cpus of the root domain: what admission leaves
///     unreserved, per CPU (the kernel subtracts each task's dl_bw / cpus, truncated; here
///     the sum is divided once, which can differ by one 2^-20 per task).
///   The charge is `delta·u_act >> 20` with, by default (knob `grub_umax` = 1, 6.5+, "Improve
///   reclaim bandwidth accuracy for GRUB"), `u_act = max{dl_bw, max_bw − Uinact − Uextra}`
///   scaled by bw_ratio, and with `grub_umax` = 0 (4.15-6.4) `u_act = max{dl_bw·bw_ratio,
///   1 − Uinact − Uextra}`, which on one CPU lets reclaiming tasks have only
///   Σu / (1 − Umax + Σu) of it (0.6 / 0.65 = 92.3 % for two of 0.3 each) instead of Umax.
///   The arithmetic is signed where the kernel's unsigned one would wrap: a task bigger than
///   Umax (admitted on several CPUs) is charged at least u / Umax, and a negative Uextra (more
///   admitted than Umax per CPU, possible only with no bound) counts as 0. A reclaiming task
///   is not charged by frequency and capacity (GRUB-PA: schedutil lowers the frequency to its
///   active bandwidth instead, `dl_scaled_delta_exec`).
///   The GRUB parameters (bound, cpus, grub_umax, the admitted sum) are those of the object
///   that admitted the task (`root_rq`: in a simulation, the root domain's object).
/// - Shared RT bandwidth (kernels up to 6.11, and later ones with RT_GROUP_SCHED:
///   update_curr_dl's "we share the rt bandwidth"): every ns a deadline task runs is also
///   counted against the real-time class's throttling budget, so RT and deadline tasks together
///   leave the classes below (period - runtime) of every RT period. This class only reports
///   the run time (`set_run_time_sink`, unscaled ns, as delta_exec); the caller hands it to
///   the rt class (`rt_policy::charge_shared`). Without a sink nothing is shared.
/// - Complexity: enqueue, dequeue, tick and charging O(log n) (a tree move when throttling or
///   arming an inactive timer); pick_next, next_timer O(1); timer O(log n) per replenished or
///   deactivated task; verify O(n).
/// - Reconstructed [R] (§8 of the reference marks these as recalled): Q >= 1024 ns and the
///   timer instant d − D + P for D < P; implemented as documented here.
/// - Deadline inheritance (rt_mutex_setprio, `pi_se`; rt-mutex-design.rst; sched-deadline.rst §6
///   lists its refinement as future work): `boost(t, donor)` lets the owner `t` of a PI mutex that a deadline
///   task `donor` waits for run on `donor`'s reservation: a non-deadline `t` always (it joins this
///   class with no bandwidth of its own), a deadline `t` only when `donor`'s deadline is earlier
///   (`dl_entity_preempt`). A boosted task is never throttled: a spent budget (or a yield) is
///   replenished at once with the donor's Q and P, `while q <= 0: d += P_donor, q += Q_donor`,
///   and a throttle it had when boosted is lifted; the constrained-deadline rule and the revised
///   wakeup rule do not apply to it; a fresh period takes the donor's D and Q, and a non-deadline
///   task starts one at each replenishment. Its own deadline orders it in the ready tree, as in
///   the kernel: the boost keeps it running rather than moving it ahead. It asks for no
///   admission and adds no bandwidth (a non-deadline task counts 0 in running_bw and this_bw,
///   `task_contending` skips it). The enqueue(restore) after a boost replenishes (ENQUEUE_REPLENISH);
///   a boosted sleeper takes the wakeup rule at its wakeup. `deboost(t)` returns it to its own
///   reservation; a chain of owners lends the top donor's (`pi_task->dl.pi_se`).
/// - Omissions: the admission bandwidth (and `this_bw` share) of a dead or departed task held
///   until its 0-lag time, the fair-class dl_server (policy/fair_server_stack.hpp models it beside this
///   class, using `earliest_deadline`), SMP push/pull (the simulator pushes and pulls), and fork (a -deadline task cannot
///   fork: the class has no task_new; policy_traits' default, which class_stack calls, does nothing).
#ifndef SCHEDCORE_POLICY_EDF_HPP
#define SCHEDCORE_POLICY_EDF_HPP

#include "schedcore/core/arith.hpp"
#include "schedcore/core/assert.hpp"
#include "schedcore/core/errc.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/intrusive/rb_hook.hpp"
#include "schedcore/intrusive/rb_tree.hpp"
#include "schedcore/policy/flags.hpp"
#include "schedcore/policy/entity_access.hpp"
#include "schedcore/policy/params.hpp"

namespace schedcore {

/// Tag of the edf ready-tree hook.
struct edf_ready_tag {};
/// Tag of the edf replenishment-timer hook.
struct edf_timer_tag {};
/// Tag of the edf inactive-timer hook (a sleeper's 0-lag time).
struct edf_inactive_tag {};

/// Per-task state of the edf class, embedded in the task (the kernel's `sched_dl_entity`).
struct edf_entity : rb_hook<link_mode::normal, edf_ready_tag>,
                    rb_hook<link_mode::normal, edf_timer_tag>,
                    rb_hook<link_mode::normal, edf_inactive_tag> {
  duration_ns dl_runtime = 0;   ///< Q: budget per period, ns
  duration_ns dl_deadline = 0;  ///< D: relative deadline, ns
  duration_ns dl_period = 0;    ///< P: period, ns
  u64 dl_bw = 0;                ///< (Q << 20) / P
  u64 dl_density = 0;           ///< (Q << 20) / D
  duration_ns runtime = 0;      ///< q: remaining budget in the current period (may be negative)
  sched_time deadline{};        ///< d: absolute deadline of the current period
  sched_time timer_at{};        ///< replenishment instant while throttled
  sched_time exec_start{};      ///< when it last started running or was last charged
  sched_time inactive_at{};     ///< 0-lag time of a non-contending sleeper (its inactive timer)
  u64 active_bw = 0;            ///< the bandwidth `active_rq` counts for it (dl_bw when counted)
  void* active_rq = nullptr;    ///< the queue whose active utilisation counts it, or none
  u64 home_bw = 0;              ///< the bandwidth `home_rq` counts for it in its this_bw
  void* home_rq = nullptr;      ///< the queue it belongs to (GRUB's this_bw), or none
  const void* root_rq = nullptr;  ///< the object that admitted it (the root domain: GRUB's Umax, Uextra)
  bool on_rq = false;           ///< queued (running or throttled counts as queued)
  bool throttled = false;       ///< budget exhausted (or yielded) until timer_at
  bool in_ready = false;        ///< linked in the ready tree
  bool timer_armed = false;     ///< linked in the timer tree
  bool yielded = false;         ///< gave up its budget (sched_yield)
  bool dl_new = true;           ///< no period started yet (set by setup)
  bool admitted = false;        ///< its bandwidth is counted by admission control
  bool non_contending = false;  ///< asleep before its 0-lag time, still active (dl_non_contending)
  bool reclaim = false;         ///< SCHED_FLAG_RECLAIM: charged by the GRUB rule
  bool report_overrun = false;  ///< SCHED_FLAG_DL_OVERRUN: mark runtime overruns (`dl_overrun`)
  bool dl_overrun = false;      ///< ran out of budget since the last `take_overrun` (a pending SIGXCPU)
  /// The reservation it runs on while a deadline waiter of a PI mutex it holds lends it one
  /// (`boost`; the kernel's `pi_se`), or nullptr: its own. Q, D and P come from there at every
  /// fresh period and replenishment; its deadline, budget and bandwidth stay its own.
  const edf_entity* pi_se = nullptr;
  bool pi_replenish = false;    ///< boosted while off the queue: a restore enqueue replenishes (ENQUEUE_REPLENISH)
};

/// SCHED_DEADLINE run queue of one CPU (EDF + CBS) with admission control.
/// @tparam Task the task type; embeds `edf_entity` (by default as a base class)
/// @tparam EntityOf accessor from Task to its edf_entity (see policy/params.hpp)
template <class Task, class EntityOf = base_entity<edf_entity>>
class edf_policy {
  /// @cond INTERNAL
  static edf_entity& E(Task& t) noexcept { return EntityOf::get(t); }
  static const edf_entity& E(const Task& t) noexcept { return EntityOf::get(t); }
  template <class Tag>
  using value_traits = entity_hook_access<Task, edf_entity, EntityOf, rb_hook<link_mode::normal, Tag>>;
  struct by_deadline {
    bool operator()(const Task& a, const Task& b) const noexcept { return E(a).deadline < E(b).deadline; }
    // One wrap-safe key: the tree's insert descent compares raw counters (rb_has_wrap_key).
    static const u64& wrap_key(const Task& a) noexcept { return rb_time_key(E(a).deadline); }
  };
  struct by_timer {
    bool operator()(const Task& a, const Task& b) const noexcept { return E(a).timer_at < E(b).timer_at; }
    // One wrap-safe key: the tree's insert descent compares raw counters (rb_has_wrap_key).
    static const u64& wrap_key(const Task& a) noexcept { return rb_time_key(E(a).timer_at); }
  };
  struct by_inactive {
    bool operator()(const Task& a, const Task& b) const noexcept { return E(a).inactive_at < E(b).inactive_at; }
    // One wrap-safe key: the tree's insert descent compares raw counters (rb_has_wrap_key).
    static const u64& wrap_key(const Task& a) noexcept { return rb_time_key(E(a).inactive_at); }
  };
  /// @endcond

 public:
  using task_type = Task;                     ///< the task type
  static constexpr const char* name = "edf";  ///< class name
  static constexpr unsigned bw_shift = 20;    ///< fixed-point shift of bandwidths (BW_SHIFT)
  static constexpr unsigned dl_scale = 10;    ///< DL_SCALE: the wakeup test works in ~1 us units
  static constexpr duration_ns runtime_min = static_cast<duration_ns>(1) << dl_scale;  ///< smallest Q, 1024 ns
  static constexpr unsigned capacity_shift = 10;                 ///< SCHED_CAPACITY_SHIFT
  static constexpr u32 capacity_scale = 1u << capacity_shift;    ///< SCHED_CAPACITY_SCALE, 1024
  static constexpr unsigned ratio_shift = 8;                     ///< RATIO_SHIFT of GRUB's bw_ratio

  /// Tunables (`sched_deadline_period_{min,max}_us`; the admission bound is the kernel's
  /// sched_rt_runtime_us / sched_rt_period_us as a percentage).
  struct knobs {
    s64 bound = 95;                           ///< admission bound, % of each CPU; −1 disables
    s64 cpus = 1;                             ///< CPUs of the root domain (cap = cpus · bound)
    s64 deadline_period_min = usec(100);      ///< smallest period
    s64 deadline_period_max = usec(1 << 22);  ///< largest period (2^22 us ≈ 4.19 s)
    s64 hrtick = 0;                           ///< HRTICK_DL: enforce budgets exactly (off in the kernel)
    s64 grub_umax = 1;                        ///< GRUB rule: 1 = 6.5+ (Umax in both terms), 0 = 4.15-6.4
  };
  /// Bounds and meaning of each knob.
  static constexpr knob_info<knobs> knob_table[] = {
      {"bound", knob_unit::count, &knobs::bound, -1, 100, "admission bound in % per CPU (rt_runtime/rt_period); -1 off"},
      {"cpus", knob_unit::count, &knobs::cpus, 1, 4096, "CPUs of the root domain: cap = cpus x bound"},
      {"deadline_period_min", knob_unit::time_ns, &knobs::deadline_period_min, usec(1), usec(1 << 22),
       "smallest accepted period (sched_deadline_period_min_us). Needs deadline_period_min <= deadline_period_max"},
      {"deadline_period_max", knob_unit::time_ns, &knobs::deadline_period_max, usec(1), sec(1000),
       "largest accepted period (sched_deadline_period_max_us). Needs deadline_period_max >= deadline_period_min"},
      {"hrtick", knob_unit::flag, &knobs::hrtick, 0, 1, "HRTICK_DL: exact budget enforcement by class timer"},
      {"grub_umax", knob_unit::flag, &knobs::grub_umax, 0, 1,
       "GRUB reclaiming rule: 1 = max{u, Umax - Uinact - Uextra} / Umax (6.5+), 0 = max{u / Umax, 1 - Uinact - Uextra} (4.15-6.4)"},
  };

  /// Validates and installs knobs; nothing changes on error: out-of-range values
  /// (`invalid_argument`), min > max (`inverted`), a bound below the admitted bandwidth
  /// (`overloaded`).
  errc configure(const knobs& k) noexcept {
    if (const errc e = validate_knobs(k, knob_table); e != errc::ok) return e;
    if (k.deadline_period_min > k.deadline_period_max) return errc::inverted;
    if (k.bound >= 0 && total_bw_ > cap_of(k, root_capacity_)) return errc::overloaded;
    knobs_ = k;
    return errc::ok;
  }
  /// The knobs in force.
  const knobs& config() const noexcept { return knobs_; }
  /// Whether admission control is on (the kernel's `dl_bandwidth_enabled()`: a bound other
  /// than -1). While it is, Linux gives SCHED_DEADLINE only to tasks whose affinity covers
  /// their whole root domain, since bandwidth is accounted per domain: sched_setattr refuses
  /// a narrower one with EPERM (`__sched_setscheduler`), sched_setaffinity of a deadline task
  /// with EBUSY (`dl_task_check_affinity`). The class itself knows no affinity: its owner
  /// applies that rule.
  bool admission_enabled() const noexcept { return knobs_.bound >= 0; }

  /// Sets the root domain's total CPU capacity for admission control (Σ capacities, 1024 per
  /// full CPU; `dl_bw_capacity` on asymmetric machines); 0 restores cpus · 1024. A capacity
  /// below the admitted bandwidth's need is refused (`errc::overloaded`), as is one above
  /// 4096 CPUs' worth (`errc::invalid_argument`); nothing changes then.
  errc set_root_capacity(u64 capacity) noexcept {
    if (capacity > (static_cast<u64>(4096) << capacity_shift)) return errc::invalid_argument;
    if (knobs_.bound >= 0 && total_bw_ > cap_of(knobs_, capacity)) return errc::overloaded;
    root_capacity_ = capacity;
    return errc::ok;
  }
  /// The root domain's capacity in force (0: cpus · 1024).
  u64 root_capacity() const noexcept { return root_capacity_; }
  /// Whether `t`'s reservation fits a CPU of `capacity` (`dl_task_fits_capacity`, 5.9+): its
  /// runtime, in the biggest CPU's work, can be done within its relative deadline there,
  /// D · capacity >> 10 >= Q. @pre `t` set up.
  static bool fits_capacity(const Task& t, u32 capacity) noexcept {
    const edf_entity& e = E(t);
    return ((static_cast<u64>(e.dl_deadline) * capacity) >> capacity_shift) >= static_cast<u64>(e.dl_runtime);
  }

  /// `t`'s absolute deadline d (its current period's), for placement: whether it would
  /// preempt a CPU's earliest deadline (`dl_entity_preempt`, `cpudl_find`).
  static sched_time deadline_of(const Task& t) noexcept { return E(t).deadline; }
  /// The earliest absolute deadline among the ready (unthrottled) tasks, the running one
  /// included; false when none is ready. O(1): the ready tree's cached leftmost. A deadline
  /// server (policy/fair_server_stack.hpp) competes against it.
  bool earliest_deadline(sched_time& d) const noexcept {
    const Task* t = ready_.front();
    if (t == nullptr) return false;
    d = E(*t).deadline;
    return true;
  }
  /// Whether `t` has exhausted its budget and waits for its replenishment: queued, but not
  /// runnable (the kernel takes it off its deadline queue, so it is neither pushed nor pulled).
  static bool throttled_of(const Task& t) noexcept { return E(t).throttled; }
  /// `(runtime << 20) / period`, the kernel's `to_ratio(period, runtime)`. @pre period > 0
  static constexpr u64 to_ratio(duration_ns period, duration_ns runtime) noexcept {
    return (static_cast<u64>(runtime) << bw_shift) / static_cast<u64>(period);
  }
  /// The admission cap in bw units: cpus · floor((bound << 20) / 100) (rounded per CPU, then multiplied).
  u64 bandwidth_cap() const noexcept { return cap_of(knobs_, root_capacity_); }
  /// Bandwidth admitted so far (Σ dl_bw).
  u64 total_bandwidth() const noexcept { return total_bw_; }
  /// Admits `bw` (<< 20) that belongs to no task: a deadline server's Q/P, which Linux 6.12's
  /// `dl_server_apply_params` adds to the root domain's total, so that reservations and
  /// servers together stay within the bound. Refused with `errc::overloaded` (nothing changes)
  /// when the total would pass the cap. Counts in admission and `extra_bw` only (not in any
  /// CPU's this_bw or running_bw).
  errc reserve_bandwidth(u64 bw) noexcept {
    // bw > cap - total, not total + bw > cap: an absurd bw must not wrap the sum past the check.
    if (knobs_.bound >= 0) {
      const u64 cap = cap_of(knobs_, root_capacity_);
      if (total_bw_ > cap || bw > cap - total_bw_) return errc::overloaded;
    }
    if (SCHEDCORE_MISUSE(bw > ~u64{0} - total_bw_)) return errc::invalid_argument;  // admission off: still no wrap
    total_bw_ += bw;
    return errc::ok;
  }
  /// Gives back `bw` taken by `reserve_bandwidth`. @pre at most what was reserved
  void release_bandwidth(u64 bw) noexcept {
    if (SCHEDCORE_MISUSE(bw > total_bw_)) return;
    total_bw_ -= bw;
  }

  /// Sets the scale of the time charged from now on: the CPU's current frequency over its
  /// highest (`freq_scale`, the kernel's arch_scale_freq_capacity) and its capacity
  /// (`cpu_scale`, arch_scale_cpu_capacity), each in [1, 1024]. Out of range:
  /// `errc::invalid_argument`, nothing changes. Nothing is charged here: the next charge
  /// scales the whole interval since the previous one by the values then in force.
  errc set_capacity(u32 freq_scale, u32 cpu_scale) noexcept {
    if (freq_scale < 1 || freq_scale > capacity_scale || cpu_scale < 1 || cpu_scale > capacity_scale)
      return errc::invalid_argument;
    freq_scale_ = freq_scale;
    cpu_scale_ = cpu_scale;
    return errc::ok;
  }
  /// The frequency scale in force (1024 = the highest frequency).
  u32 freq_scale() const noexcept { return freq_scale_; }
  /// The capacity scale in force (1024 = the biggest CPU).
  u32 cpu_scale() const noexcept { return cpu_scale_; }
  /// The budget that `delta` ns of running consume at the scales in force (the kernel's
  /// `cap_scale(cap_scale(delta, freq), cpu)`, truncated at each step).
  duration_ns scaled_delta(duration_ns delta) const noexcept {
    if (delta <= 0) return 0;
    const u64 at_freq = (static_cast<u64>(delta) * freq_scale_) >> capacity_shift;
    return static_cast<duration_ns>((at_freq * cpu_scale_) >> capacity_shift);
  }
  /// The least running time whose scaled charge reaches `budget` ns (0 for budget <= 0): the
  /// instant an hrtick enforces the budget. Exact inverse of scaled_delta():
  /// `scaled_delta(t) >= budget` exactly when `t >= time_for_budget(budget)`.
  duration_ns time_for_budget(duration_ns budget) const noexcept {
    if (budget <= 0) return 0;
    // scaled_delta(t) >= q  <=>  floor(t·f / 1024) >= A = ceil(q·1024 / c)  <=>  t >= ceil(A·1024 / f)
    const u64 at_freq = ((static_cast<u64>(budget) << capacity_shift) + cpu_scale_ - 1) / cpu_scale_;
    return static_cast<duration_ns>(((at_freq << capacity_shift) + freq_scale_ - 1) / freq_scale_);
  }
  /// Active utilisation: Σ dl_bw (<< 20) of the tasks counted here (GRUB's `running_bw`).
  u64 running_bw() const noexcept { return running_bw_; }
  /// The active utilisation out of 1024 (`cpu_bw_dl`): schedutil's floor for this class.
  u32 active_util() const noexcept { return static_cast<u32>((running_bw_ * capacity_scale) >> bw_shift); }
  /// GRUB's total bandwidth here: Σ dl_bw (<< 20) of the tasks that belong to this CPU, asleep
  /// or not (`this_bw`).
  u64 this_bw() const noexcept { return this_bw_; }
  /// GRUB's Umax (<< 20): the bound's share of one CPU, (bound << 20) / 100; 2^20 with no bound.
  u64 max_bw() const noexcept { return knobs_.bound < 0 ? (u64{1} << bw_shift) : (static_cast<u64>(knobs_.bound) << bw_shift) / 100u; }
  /// GRUB's 1 / Umax in RATIO_SHIFT = 8 bits: ((100 << 20) / bound) >> 12 (269 for 95 %; 256
  /// with no bound, or a bound of 0, under which nothing is admitted).
  u64 bw_ratio() const noexcept {
    if (knobs_.bound <= 0) return u64{1} << ratio_shift;
    return ((u64{100} << bw_shift) / static_cast<u64>(knobs_.bound)) >> (bw_shift - ratio_shift);
  }
  /// GRUB's Uextra (<< 20): Umax less the admitted bandwidth's share of each CPU,
  /// max_bw − total_bandwidth / cpus (negative only with no bound).
  s64 extra_bw() const noexcept {
    return static_cast<s64>(max_bw()) - static_cast<s64>(total_bw_ / static_cast<u64>(knobs_.cpus));
  }
  /// The budget a reclaiming `t` running here consumes per ns, << 20 (GRUB's u_act after the
  /// bw_ratio scaling): its charge for delta ns is `delta·rate >> 20`. Read from this queue's
  /// this_bw and running_bw and the admitting object's Umax, Uextra and rule. @pre `t` admitted
  u64 grub_rate(const Task& t) const noexcept {
    const edf_entity& e = E(t);
    const edf_policy& root = e.root_rq != nullptr ? *static_cast<const edf_policy*>(e.root_rq) : *this;
    const s64 u_inact = static_cast<s64>(this_bw_ - running_bw_);
    const s64 extra = root.extra_bw() > 0 ? root.extra_bw() : 0;  // nothing extra when overcommitted
    const u64 ratio = root.bw_ratio();
    const s64 u = static_cast<s64>(e.dl_bw);
    if (root.knobs_.grub_umax != 0) {
      // max{u, Umax − Uinact − Uextra}, then / Umax.
      s64 act = static_cast<s64>(root.max_bw()) - u_inact - extra;
      if (act < u) act = u;
      return (static_cast<u64>(act) * ratio) >> ratio_shift;
    }
    // 4.15-6.4: max{u / Umax, 1 − Uinact − Uextra}.
    const s64 floor_act = static_cast<s64>((static_cast<u64>(u) * ratio) >> ratio_shift);
    s64 act = static_cast<s64>(u64{1} << bw_shift) - u_inact - extra;
    if (act < floor_act) act = floor_act;
    return static_cast<u64>(act);
  }
  /// When the budget of a reservation charged at GRUB's rate 0 runs out, counted from when it
  /// started to run: 2^62 ns (146 years), never in practice, and still ordered on the
  /// wrap-safe clock from any start (next_timer()'s hrtick entry).
  static constexpr duration_ns never_exhausts = duration_ns{1} << 62;

  /// Loads deadline parameters into `t` after admission control. A task becoming a deadline
  /// task starts a fresh period at its first enqueue; an admitted task whose parameters change
  /// keeps its remaining budget, deadline and throttling, as the kernel's `__setparam_dl`
  /// does (a change is no way to escape a throttle). Errors, with no change:
  /// non-deadline kind, non-positive times or Q < 1024 ns, period out of range
  /// (`invalid_argument`); Q > D or D > P (`inverted`); queued task (`busy`); the bound would
  /// be exceeded (`overloaded`). A task admitted by another object is a caller's bug (its
  /// bandwidth is counted there): reported (SCHEDCORE_MISUSE) and refused with `busy`.
  errc setup(Task& t, const sched_params& p) noexcept {
    if (p.kind != sched_kind::deadline) return errc::invalid_argument;
    if (const errc err = validate(p); err != errc::ok) return err;
    const duration_ns period = p.period == 0 ? p.deadline : p.period;
    if (p.runtime < runtime_min) return errc::invalid_argument;
    if (period < knobs_.deadline_period_min || period > knobs_.deadline_period_max) return errc::invalid_argument;
    edf_entity& e = E(t);
    if (e.on_rq) return errc::busy;
    if (SCHEDCORE_MISUSE(e.admitted && e.root_rq != this)) return errc::busy;
    const u64 bw = to_ratio(period, p.runtime);
    const u64 old_bw = e.admitted ? e.dl_bw : 0;
    const u64 total = total_bw_ - old_bw + bw;
    if (knobs_.bound >= 0 && total > cap_of(knobs_, root_capacity_)) return errc::overloaded;
    total_bw_ = total;
    // A sleeper still active (before its 0-lag time) stops counting at once, wherever it is
    // counted (dl_change_utilization): its next wakeup counts the changed bandwidth. A change
    // that keeps the bandwidth skips that (sched_dl_overflow returns before it): the sleeper
    // stays active until its 0-lag time.
    if (!e.admitted || bw != e.dl_bw) release_active(t);
    if (e.home_rq != nullptr) {
      // A sleeper that belongs to a CPU: its share of that CPU's this_bw follows the change.
      edf_policy& home = *static_cast<edf_policy*>(e.home_rq);
      home.this_bw_ = home.this_bw_ - e.home_bw + bw;
      e.home_bw = bw;
    }
    e.root_rq = this;
    e.reclaim = p.reclaim;
    e.report_overrun = p.dl_overrun;
    e.dl_runtime = p.runtime;
    e.dl_deadline = p.deadline;
    e.dl_period = period;
    e.dl_bw = bw;
    e.dl_density = to_ratio(p.deadline, p.runtime);
    if (!e.admitted) {
      // Becoming a deadline task: its first enqueue starts a period.
      e.runtime = 0;
      e.throttled = false;
      e.yielded = false;
      e.dl_new = true;
    }
    // Else a change of an admitted task's parameters (`__setparam_dl`): its budget, deadline
    // and throttling carry over, so the change cannot buy a fresh budget. The enqueue that
    // follows (restore or wakeup) applies the usual rules with the changed Q, D and P: a throttled
    // task waits for its next period, a restore past its deadline starts a fresh one.
    e.admitted = true;
    return errc::ok;
  }

  /// `t` becomes runnable: a fresh period at the first enqueue, the constrained-deadline rule
  /// at any later enqueue, the CBS wakeup rule at a wakeup; a throttled task waits for its timer.
  void enqueue(Task& t, sched_time now, enqueue_flags flags) noexcept {
    edf_entity& e = E(t);
    if (SCHEDCORE_MISUSE(e.on_rq || (!e.admitted && e.pi_se == nullptr))) return;
    e.on_rq = true;
    ++nr_;
    e.exec_start = now;
    attach(t);
    contend(t);
    const bool replenish_now = e.pi_replenish && !has(flags, enqueue_flags::wakeup);
    e.pi_replenish = false;
    if (e.dl_new) {
      new_period(e, now);
      e.dl_new = false;
      e.throttled = false;
      insert_ready(t);
      return;
    }
    if (e.pi_se != nullptr) {
      // Boosted: the boost overrides a throttle, and the restore after the boost replenishes
      // with the donor's parameters (ENQUEUE_REPLENISH); a wakeup takes the wakeup rule.
      e.throttled = false;
      if (replenish_now) replenish(e, now);
      else if (has(flags, enqueue_flags::wakeup)) update_dl_entity(e, now);
      insert_ready(t);
      return;
    }
    if (e.throttled) {
      // The instant its throttle chose (d − D + P with the parameters of then), not one
      // recomputed from parameters changed since: the kernel's dl_timer was armed once.
      const sched_time at = e.timer_at;
      if (now < at) {
        arm_timer(t, at);
        return;
      }
      // Its dl_timer fired at `at` while it was off the queue: replenished as of then; the
      // wakeup rules below then see the replenished d and q.
      replenish(e, at);
    }
    if (e.dl_deadline < e.dl_period && e.deadline < now && now < next_period(e)) {
      // Constrained-deadline rule, at any enqueue (wakeup, restore, migration): queued after
      // its deadline, before its next period.
      e.throttled = true;
      if (e.runtime > 0) e.runtime = 0;
      arm_timer(t, next_period(e));
      return;
    }
    if (has(flags, enqueue_flags::wakeup)) {
      update_dl_entity(e, now);
    } else if (has(flags, enqueue_flags::restore) && e.deadline < now) {
      new_period(e, now);
    }
    insert_ready(t);
  }
  /// `t` leaves (it may be curr). The running task is charged first, whichever task leaves (the
  /// kernel's dequeue_task_dl runs update_curr_dl), so a migration or another task's parameter
  /// change can throttle it there. `t`'s timer, if any, leaves this queue's timer tree, but its
  /// instant is kept (`timer_at`): the kernel's dl_timer stays armed where the throttle put it,
  /// and the next enqueue of a throttled `t` waits for that instant, whatever parameters it has
  /// by then.
  void dequeue(Task& t, sched_time now, dequeue_flags flags) noexcept {
    edf_entity& e = E(t);
    if (SCHEDCORE_MISUSE(!e.on_rq)) return;
    update_curr(now);
    if (&t == curr_) curr_ = nullptr;
    if (e.in_ready) erase_ready(t);
    if (e.timer_armed) cancel_timer(t);
    e.on_rq = false;
    --nr_;
    if (has(flags, dequeue_flags::sleep) && !has(flags, dequeue_flags::dead)) {
      non_contending(t, now);  // a sleeper still belongs here (this_bw)
    } else {
      release_active(t);  // save, migration, exit: it leaves this CPU
      detach(t);
    }
  }
  /// The ready task with the earliest absolute deadline, or nullptr. No side effects.
  Task* pick_next(sched_time) noexcept { return ready_.front(); }
  /// `t` starts running (it stays in the ready tree). A throttled task may be set as curr
  /// when the core restores a running task after a parameter change (dequeue(save),
  /// enqueue(restore), set_next): it consumes nothing while throttled, and the next tick asks
  /// for a reschedule, as the kernel lets a throttled curr run until its next resched.
  void set_next(Task& t, sched_time now) noexcept {
    edf_entity& e = E(t);
    // refuse: only a queued task, and only when nothing else runs (put_prev first, else the
    // running task's runtime would escape its budget)
    if (SCHEDCORE_MISUSE(!e.on_rq || (curr_ != nullptr && curr_ != &t))) return;
    curr_ = &t;
    e.exec_start = now;
    resched_ = !e.in_ready;
  }
  /// Running `t` stops running: charged.
  void put_prev(Task& t, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&t != curr_)) return;  // refuse: not the running task
    update_curr(now);
    curr_ = nullptr;
  }
  /// Charges curr; true when it is throttled (waiting for its timer) or no longer the earliest
  /// deadline (a budget replenished at once keeps the CPU if it is still the earliest).
  bool tick(Task& curr, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&curr != curr_)) return false;  // refuse: not the running task
    update_curr(now);
    const bool r = resched_ || ready_.front() != curr_;
    resched_ = false;
    return r;
  }
  /// A wakee preempts when its deadline is strictly earlier (or curr was just throttled),
  /// throttled or not: the kernel's check_preempt_curr_dl compares the deadlines of any woken
  /// task (a throttled one is on the run queue for the core, not in the tree), and the schedule
  /// that follows charges curr. Curr is not charged here: as in the kernel, a wakeup is not an
  /// accounting point.
  bool wakeup_preempt(Task& woken, Task& curr, sched_time) noexcept {
    if (&woken == &curr) return false;
    if (resched_) {
      resched_ = false;
      return true;
    }
    return E(woken).deadline < E(curr).deadline;
  }
  /// Optional hook `change_resched` (policy.hpp): a running task entering the class is not
  /// rescheduled (switched_to_dl: `if (rq->curr != p) { ... } else
  /// update_dl_rq_load_avg(...)`); one whose reservation changed is rescheduled when an
  /// earlier deadline is ready here (prio_changed_dl, SMP: `if
  /// (dl_time_before(rq->dl.earliest_dl.curr, p->dl.deadline)) resched_curr(rq);`; the pull it
  /// queues is the caller's). A throttle during the change is `take_resched`'s. O(1).
  bool change_resched(Task& curr, const param_change& c, sched_time) const noexcept {
    if (c.switched) return false;
    const Task* first = ready_.front();
    return first != nullptr && E(*first).deadline < E(curr).deadline;
  }
  /// Queued tasks including a running one and throttled ones.
  usize nr_runnable() const noexcept { return nr_; }
  /// Whether curr was throttled (and lost the CPU) since the last tick, wakeup check, timer or
  /// call, and clears it: a dequeue of another task charges curr (the kernel's
  /// dequeue_task_dl runs update_curr_dl, which reschedules at the throttle).
  bool take_resched() noexcept {
    const bool r = resched_;
    resched_ = false;
    return r;
  }
  /// SCHED_FLAG_DL_OVERRUN: whether `t` ran out of budget since the last call (a task that
  /// asked for it, `sched_params::dl_overrun`), and clears the mark. The kernel sends SIGXCPU
  /// for it at a tick while `t` runs (check_dl_overrun); call it there to do the same. O(1).
  static bool take_overrun(Task& t) noexcept {
    edf_entity& e = E(t);
    const bool overran = e.dl_overrun;
    e.dl_overrun = false;
    return overran;
  }
  /// Deadline inheritance (rt_mutex_setprio with a deadline `donor`): `t`, the owner of a PI mutex
  /// that `donor` waits for, runs on `donor`'s reservation from its next enqueue (or, when the
  /// donor is itself boosted, on the reservation it runs on). A non-deadline `t` (never set up
  /// here, or released) joins the class this way, with no bandwidth and no admission; the caller
  /// moves it to this class, as the kernel's `p->sched_class = &dl_sched_class`. A deadline `t`
  /// is boosted only when `donor`'s deadline is earlier than its own (`dl_entity_preempt`); else
  /// it runs on its own reservation (a boost it had ends), and `is_boosted(t)` tells which.
  /// Call it with `t` off the queue: dequeue(save) first and enqueue(restore) after, as for
  /// setup(); that restore replenishes with the donor's parameters. Errors, with no change:
  /// `donor` not a deadline task or `donor` = `t` (`invalid_argument`); `t` queued (`busy`).
  /// @pre `donor` stays alive until `t` is deboosted (it waits on `t`'s mutex). O(1).
  errc boost(Task& t, const Task& donor) noexcept {
    edf_entity& e = E(t);
    const edf_entity& d = E(donor);
    if (&e == &d || (!d.admitted && d.pi_se == nullptr)) return errc::invalid_argument;
    if (e.on_rq) return errc::busy;
    const edf_entity& lender = pi_of(d);
    if (&lender == &e) return errc::invalid_argument;  // a cycle: t lent the donor its own
    if (e.admitted && !(d.deadline < e.deadline)) {
      e.pi_se = nullptr;
      e.pi_replenish = false;
      return errc::ok;
    }
    e.pi_se = &lender;
    e.pi_replenish = true;
    return errc::ok;
  }
  /// The end of a deadline boost (rt_mutex_setprio back to its own priority): `t` runs on its own
  /// reservation again, with the budget and deadline it has; a non-deadline task leaves with no
  /// state kept (the caller moves it back to its class and calls switched_from()). @pre `t` off
  /// the queue (dequeue(save) before, enqueue(restore) of a deadline task after). O(1).
  void deboost(Task& t) noexcept {
    edf_entity& e = E(t);
    if (SCHEDCORE_MISUSE(e.on_rq)) return;
    e.pi_se = nullptr;
    e.pi_replenish = false;
    if (!e.admitted) {  // a later boost starts afresh, as for the kernel's dl_deadline == 0
      e.dl_new = true;
      e.throttled = false;
      e.yielded = false;
      e.runtime = 0;
    }
  }
  /// Where run time is also counted: `fn(context, ran, now)` with the ns curr ran (unscaled
  /// wall time, the kernel's delta_exec) at each charge. Kernels up to 6.11 count it against
  /// the RT bandwidth (update_curr_dl); pass `rt_policy::charge_shared` through a small
  /// function. nullptr removes it.
  using run_time_sink = void (*)(void* context, duration_ns ran, sched_time now) noexcept;
  /// Installs (or, with nullptr, removes) the run time sink and its context.
  void set_run_time_sink(run_time_sink fn, void* context) noexcept {
    sink_fn_ = fn;
    sink_ctx_ = context;
  }
  /// Whether `t` runs on a deadline waiter's reservation (`is_dl_boosted`).
  static bool is_boosted(const Task& t) noexcept { return E(t).pi_se != nullptr; }
  /// sched_yield(): gives up the rest of this period's budget.
  void yield(Task& curr, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&curr != curr_)) return;  // refuse: not the running task
    E(curr).yielded = true;
    update_curr(now);
  }
  /// The earliest replenishment or 0-lag instant (and with `hrtick`, curr's budget exhaustion).
  bool next_timer(sched_time& when) const noexcept {
    bool any = false;
    if (Task* t = timers_.front()) {
      when = E(*t).timer_at;
      any = true;
    }
    if (Task* t = inactive_.front()) {
      if (!any || E(*t).inactive_at < when) when = E(*t).inactive_at;
      any = true;
    }
    if (knobs_.hrtick != 0 && curr_ != nullptr && !E(*curr_).throttled) {
      const sched_time out = E(*curr_).exec_start + time_to_exhaust(*curr_);
      if (!any || out < when) when = out;
      any = true;
    }
    return any;
  }
  /// Replenishes every task whose timer is due, ends the activity of every sleeper past its
  /// 0-lag time (and enforces curr's budget with `hrtick`); true when the running task must be
  /// reconsidered.
  bool timer(sched_time now) noexcept {
    bool r = false;
    while (Task* t = inactive_.front()) {  // inactive_task_timer: the sleeper stops contending
      if (now < E(*t).inactive_at) break;
      release_active(*t);
    }
    if (knobs_.hrtick != 0 && curr_ != nullptr && !E(*curr_).throttled &&
        E(*curr_).exec_start + time_to_exhaust(*curr_) <= now) {
      update_curr(now);
    }
    if (resched_) {
      resched_ = false;
      r = true;
    }
    while (Task* t = timers_.front()) {
      edf_entity& e = E(*t);
      if (now < e.timer_at) break;
      cancel_timer(*t);
      replenish(e, now);
      if (t == curr_) e.exec_start = now;  // it ran throttled until now, which costs nothing
      insert_ready(*t);
      if (curr_ == nullptr || curr_ == t || e.deadline < E(*curr_).deadline) r = true;
    }
    return r;
  }
  /// Exit: releases the task's admitted bandwidth and its active utilisation. @pre `t` was
  /// dequeued, and this is the object that admitted it (setup's; else the release would come
  /// off another object's total: reported and refused)
  void task_dead(Task& t, sched_time) noexcept {
    edf_entity& e = E(t);
    if (SCHEDCORE_MISUSE(e.on_rq || (e.admitted && e.root_rq != this))) return;
    release_active(t);  // a sleeper before its 0-lag time, counted by whichever queue it slept on
    detach(t);
    if (e.admitted) total_bw_ -= e.dl_bw;
    e.admitted = false;
    e.pi_se = nullptr;
    e.pi_replenish = false;
  }
  /// `t` moves to another class: its admitted bandwidth and its active utilisation are
  /// released at once, as at exit. The admission bandwidth is released as before 4.13; from
  /// 4.13 `switched_from_dl` and `sched_dl_overflow` keep it accounted until the task's 0-lag
  /// time, which this policy does not model.
  void switched_from(Task& t, sched_time now) noexcept { task_dead(t, now); }
  /// The running task of this class, or nullptr.
  Task* current() const noexcept { return curr_; }

  /// Structural check: the three trees, each queued task in exactly one of the first two,
  /// flags consistent, nothing ready is throttled, the active utilisation is the sum over
  /// the queued tasks and the non-contending sleepers, each counted here and belonging here,
  /// and it does not exceed this_bw.
  bool verify() const noexcept {
    if (!ready_.verify() || !timers_.verify() || !inactive_.verify()) return false;
    u64 active = 0;
    for (auto it = ready_.begin(); it != ready_.end(); ++it) {
      const edf_entity& e = E(*it);
      if (!e.on_rq || !e.in_ready || e.timer_armed || e.throttled || !counted_here(e) || !belongs_here(e)) return false;
      active += e.active_bw;
    }
    for (auto it = timers_.begin(); it != timers_.end(); ++it) {
      const edf_entity& e = E(*it);
      if (!e.on_rq || e.in_ready || !e.timer_armed || !e.throttled || !counted_here(e) || !belongs_here(e)) return false;
      active += e.active_bw;
    }
    for (auto it = inactive_.begin(); it != inactive_.end(); ++it) {
      const edf_entity& e = E(*it);
      if (e.on_rq || !e.non_contending || !counted_here(e) || !belongs_here(e)) return false;
      active += e.active_bw;
    }
    if (curr_ != nullptr && !E(*curr_).on_rq) return false;
    // Every task counted active here belongs here; sleepers past their 0-lag time add to this_bw only.
    return ready_.size() + timers_.size() == nr_ && active == running_bw_ && running_bw_ <= this_bw_;
  }

 private:
  // cpus · per-CPU bw, or with a root capacity C: per-CPU bw · C >> 10 (cap_scale; the same
  // for C = cpus · 1024).
  static u64 cap_of(const knobs& k, u64 root_capacity) noexcept {
    if (k.bound < 0) return ~static_cast<u64>(0);
    const u64 per_cpu = (static_cast<u64>(k.bound) << bw_shift) / 100u;
    if (root_capacity == 0) return static_cast<u64>(k.cpus) * per_cpu;
    return (per_cpu * root_capacity) >> capacity_shift;
  }
  // The reservation whose Q, D and P `e` runs on: a donor's while boosted (pi_of).
  static const edf_entity& pi_of(const edf_entity& e) noexcept { return e.pi_se != nullptr ? *e.pi_se : e; }
  // Its own D and P (dl_next_period): a boosted task is never throttled, so never waits for it.
  static sched_time next_period(const edf_entity& e) noexcept { return e.deadline - e.dl_deadline + e.dl_period; }
  static void new_period(edf_entity& e, sched_time now) noexcept {
    e.deadline = now + pi_of(e).dl_deadline;
    e.runtime = pi_of(e).dl_runtime;
  }
  // q/(d - now) > Q/D, in DL_SCALE units, without division.
  static bool overflow(const edf_entity& e, sched_time now) noexcept {
    const u64 left = (static_cast<u64>(pi_of(e).dl_deadline) >> dl_scale) *
                     (static_cast<u64>(e.runtime > 0 ? e.runtime : 0) >> dl_scale);
    const u64 right =
        (static_cast<u64>(e.deadline - now) >> dl_scale) * (static_cast<u64>(pi_of(e).dl_runtime) >> dl_scale);
    return right < left;
  }
  static void update_dl_entity(edf_entity& e, sched_time now) noexcept {
    if (e.deadline < now || overflow(e, now)) {
      if (e.dl_deadline != e.dl_period && !(e.deadline < now) && e.pi_se == nullptr) {
        const u64 laxity = static_cast<u64>(e.deadline - now);  // revised wakeup rule (D < P)
        e.runtime = static_cast<duration_ns>((e.dl_density * laxity) >> bw_shift);
        return;
      }
      new_period(e, now);
    }
  }
  static void replenish(edf_entity& e, sched_time now) noexcept {
    if (e.dl_deadline == 0) new_period(e, now);  // a boosted non-deadline task: the donor's whole Q and D
    if (e.yielded && e.runtime > 0) e.runtime = 0;
    const edf_entity& r = pi_of(e);
    while (e.runtime <= 0) {
      e.deadline += r.dl_period;
      e.runtime += r.dl_runtime;
    }
    if (e.deadline < now) new_period(e, now);  // "replenish lagged too much"
    e.yielded = false;
    e.throttled = false;
  }
  void update_curr(sched_time now) noexcept {
    if (curr_ == nullptr) return;
    edf_entity& e = E(*curr_);
    if (e.throttled) {
      e.exec_start = now;  // a throttled curr consumes nothing (set_next's contract)
      return;
    }
    const duration_ns delta = now - e.exec_start;
    if (delta > 0) {
      e.exec_start = now;
      e.runtime -= charge(*curr_, delta);
      if (sink_fn_ != nullptr) sink_fn_(sink_ctx_, delta, now);  // "we share the rt bandwidth"
    } else if (!e.yielded) {
      return;  // update_curr_dl: nothing ran, nothing to throttle (only a yield throttles now)
    }
    if (e.runtime > 0 && !e.yielded) return;
    // Throttle: out of budget (or yielded) until the next period. Spent budget, not a yield
    // with some left, is an overrun (dl_runtime_exceeded), marked for a task that asked.
    Task& t = *curr_;
    e.throttled = true;
    if (e.runtime <= 0 && e.report_overrun) e.dl_overrun = true;
    if (e.yielded && e.runtime > 0) e.runtime = 0;
    erase_ready(t);
    const sched_time at = next_period(e);
    if (now < at && e.pi_se == nullptr) {  // a boosted task is replenished at once
      arm_timer(t, at);
      resched_ = true;
    } else {
      // The instant has passed (or it is boosted): replenished at once; a reschedule only if no
    // longer leftmost.
      replenish(e, now);
      insert_ready(t);
      if (ready_.front() != &t) resched_ = true;
    }
  }
  bool counted_here(const edf_entity& e) const noexcept {
    return e.active_rq == static_cast<const void*>(this) && e.active_bw == e.dl_bw;
  }
  bool belongs_here(const edf_entity& e) const noexcept {
    return e.home_rq == static_cast<const void*>(this) && e.home_bw == e.dl_bw;
  }
  /// The budget `delta` ns of running consume: GRUB's rate for a reclaiming task, else the
  /// frequency and capacity scaling. floor(delta·rate / 2^20) is taken in two exact parts, so
  /// it cannot overflow below delta = 2^84 / rate ns (5.8 years at the largest rate, 100·2^20
  /// with a bound of 1 %), where the kernel's single 64-bit product wraps past 2^64 / rate ns
  /// (176 s at that rate).
  duration_ns charge(const Task& t, duration_ns delta) const noexcept {
    if (delta <= 0) return 0;
    if (!E(t).reclaim) return scaled_delta(delta);
    const u64 rate = grub_rate(t);
    const u64 d = static_cast<u64>(delta);
    const u64 low_mask = (u64{1} << bw_shift) - 1;
    return static_cast<duration_ns>((d >> bw_shift) * rate + (((d & low_mask) * rate) >> bw_shift));
  }
  /// The least running time after which curr's budget is spent, the exact inverse of charge():
  /// ceil(q·2^20 / rate) for a reclaiming task (q < 2^43 ns as periods are at most 1000 s).
  /// A rate of 0 charges nothing: a reclaiming reservation whose bandwidth rounds to 0
  /// (Q·2^20 < P, e.g. 1024 ns every 2 s) running while no other reservation is active, as in
  /// the kernel's grub_reclaim. Its budget then never runs out at that rate: never_exhausts.
  duration_ns time_to_exhaust(const Task& t) const noexcept {
    const edf_entity& e = E(t);
    if (!e.reclaim) return time_for_budget(e.runtime);
    if (e.runtime <= 0) return 0;
    const u64 rate = grub_rate(t);
    if (rate == 0) return never_exhausts;
    return static_cast<duration_ns>(((static_cast<u64>(e.runtime) << bw_shift) + rate - 1) / rate);
  }
  /// `t` belongs to this CPU from now (add_rq_bw); it leaves the CPU it belonged to first.
  void attach(Task& t) noexcept {
    edf_entity& e = E(t);
    if (e.home_rq == static_cast<void*>(this)) return;
    detach(t);
    e.home_rq = this;
    e.home_bw = e.dl_bw;
    this_bw_ += e.dl_bw;
  }
  /// `t` no longer belongs to a CPU (sub_rq_bw where it belonged).
  static void detach(Task& t) noexcept {
    edf_entity& e = E(t);
    if (e.home_rq == nullptr) return;
    edf_policy& owner = *static_cast<edf_policy*>(e.home_rq);
    owner.this_bw_ -= e.home_bw;
    e.home_rq = nullptr;
    e.home_bw = 0;
  }
  /// `t` contends here (task_contending / add_running_bw): a sleeper still active here is simply
  /// woken (its inactive timer cancelled); one still counted by another queue stops counting
  /// there first (migrate_task_rq_dl).
  void contend(Task& t) noexcept {
    edf_entity& e = E(t);
    if (e.active_rq == static_cast<void*>(this)) {
      if (e.non_contending) {
        inactive_.erase(t);
        e.non_contending = false;
      }
      return;
    }
    release_active(t);
    e.active_rq = this;
    e.active_bw = e.dl_bw;
    running_bw_ += e.dl_bw;
  }
  /// `t` stops counting in the queue that counts it (sub_running_bw there; its inactive timer,
  /// if armed, is cancelled). Nothing when it is not counted.
  static void release_active(Task& t) noexcept {
    edf_entity& e = E(t);
    if (e.active_rq == nullptr) return;
    edf_policy& owner = *static_cast<edf_policy*>(e.active_rq);
    if (e.non_contending) {
      owner.inactive_.erase(t);
      e.non_contending = false;
    }
    owner.running_bw_ -= e.active_bw;
    e.active_rq = nullptr;
    e.active_bw = 0;
  }
  /// `t` went to sleep (task_non_contending): active until its 0-lag time d − q·P/Q, or not at
  /// all if that instant has passed.
  void non_contending(Task& t, sched_time now) noexcept {
    edf_entity& e = E(t);
    if (e.active_rq != static_cast<void*>(this)) return;
    if (e.dl_runtime == 0) {  // a boosted non-deadline task counts nothing (task_non_contending)
      release_active(t);
      return;
    }
    // q·P/Q truncated toward zero, with q's sign (an overrun puts the 0-lag time after d).
    // |q| = a·Q + b gives |q|·P/Q = a·P + b·P/Q; b·P needs up to 80 bits once P passes 2^32 ns
    // (4.29 s; periods go to 1000 s), so the remainder term is an exact 128-bit mul-div.
    const u64 q = static_cast<u64>(e.runtime < 0 ? -e.runtime : e.runtime);
    const u64 big_q = static_cast<u64>(e.dl_runtime), period = static_cast<u64>(e.dl_period);
    const u64 magnitude = mul_div_u64_u64(q, period, big_q);
    const duration_ns lag = e.runtime < 0 ? -static_cast<duration_ns>(magnitude) : static_cast<duration_ns>(magnitude);
    const sched_time zero_lag = e.deadline - lag;
    if (!(now < zero_lag)) {
      release_active(t);
      return;
    }
    e.inactive_at = zero_lag;
    e.non_contending = true;
    inactive_.insert(t);
  }
  void insert_ready(Task& t) noexcept {
    E(t).in_ready = true;
    ready_.insert(t);
  }
  void erase_ready(Task& t) noexcept {
    ready_.erase(t);
    E(t).in_ready = false;
  }
  void arm_timer(Task& t, sched_time at) noexcept {
    edf_entity& e = E(t);
    e.throttled = true;
    e.timer_at = at;
    e.timer_armed = true;
    timers_.insert(t);
  }
  void cancel_timer(Task& t) noexcept {
    timers_.erase(t);
    E(t).timer_armed = false;
  }

  rb_tree<Task, value_traits<edf_ready_tag>, by_deadline> ready_{};  ///< unthrottled, by absolute deadline
  rb_tree<Task, value_traits<edf_timer_tag>, by_timer> timers_{};    ///< throttled, by replenishment instant
  rb_tree<Task, value_traits<edf_inactive_tag>, by_inactive> inactive_{};  ///< non-contending sleepers, by 0-lag time
  Task* curr_ = nullptr;  ///< the running task of this class
  usize nr_ = 0;          ///< queued tasks (ready + throttled)
  u64 total_bw_ = 0;      ///< admitted bandwidth, Σ dl_bw
  u64 running_bw_ = 0;    ///< active utilisation: Σ active_bw of the tasks counted here
  u64 this_bw_ = 0;       ///< GRUB's total: Σ home_bw of the tasks that belong here
  u32 freq_scale_ = capacity_scale;  ///< current frequency / highest, out of 1024
  u32 cpu_scale_ = capacity_scale;   ///< this CPU's capacity, out of 1024
  u64 root_capacity_ = 0;            ///< Σ capacities of the root domain for admission; 0: cpus · 1024
  knobs knobs_{};         ///< tunables in force
  bool resched_ = false;  ///< curr was throttled (and lost the CPU's leftmost) since the last check
  run_time_sink sink_fn_ = nullptr;  ///< where run time is also counted (the RT bandwidth), or nullptr
  void* sink_ctx_ = nullptr;         ///< its context
};

}  // namespace schedcore

#endif
