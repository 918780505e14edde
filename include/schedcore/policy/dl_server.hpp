/// @file
/// @brief `deferrable_server`: the state machine of Linux's deferrable deadline server (the
/// fair server, `rq->fair_server`, 6.12+), independent of any task type.
///
/// @par What it is for
/// A CBS reservation (runtime Q per period P, deadline D = P) that, when it runs, runs tasks
/// of a lower class (the fair class) at deadline priority. It replaced RT throttling as the
/// kernel's guard against RT starvation of fair tasks in 6.12 (commit 5f6bd380c7bd, "sched/rt:
/// Remove default bandwidth control", for kernels without RT_GROUP_SCHED). The defaults are
/// Q = 50 ms, P = 1 s, as the kernel's `sched_init_dl_servers`.
///
/// @par The deferral (commit a110a81c52a9, "sched/deadline: Deferrable dl server", 6.12)
/// The server does not run as soon as a fair task is runnable. It starts throttled with a
/// fresh period (d = now + P, q = Q) and a timer at its zero-laxity instant d − q: the last
/// moment from which it can still use all of q before d. Meanwhile:
/// - every nanosecond a fair task runs on its own (the fair class picked it, not the server) is
///   charged to q; if q reaches 0 the fair class has had its share, and a fresh period starts,
///   deferred again (`charge`);
/// - idle time is charged too, down to q = 0, since it was not denied to the fair class
///   (`charge_idle`, the kernel's `dl_server_update_idle_time`);
/// - when the timer fires at d − q (moved later when q has shrunk by more than
///   `min_resolution` = 1 ms, `dl_server_min_res`), the fair class was starved: the server is
///   replenished by the CBS rule, queued, and enters its "running" state
///   (`dl_defer_running`), in which later periods are not deferred. It leaves that state when
///   the fair class again consumes a whole q on its own while the server is throttled.
///
/// @par State (the kernel's names)
/// - `active` (`dl_server_active`): started, i.e. the served class has tasks; `start`/`stop`
///   are called on its first enqueue and after its last dequeue.
/// - `throttled`, `defer_armed`: waiting for the replenishment timer or for the zero-laxity
///   timer; `queued`: on the deadline run queue, competing by `deadline()` with the
///   reservations (active and not throttled).
/// - Runtime q is signed ns; an overrun (enforcement at the tick) is paid from the next period.
///
/// @par Rules modelled (deadline.c as of 6.12, with the 6.18 fix 115135422562 "Fix 'stuck'
/// dl_server": a start whose deadline has lapsed leaves the running state)
/// - start (`dl_server_start`, `enqueue_dl_entity(WAKEUP)`, `update_dl_entity`): if d has
///   passed or q/(d − now) > Q/D (`dl_entity_overflow`, in DL_SCALE = 2^10 ns units), a new
///   period, deferred unless running; else the old deadline stays, deferred unless running.
/// - throttle (`update_curr_dl_se`): q <= 0, or an empty pick (`yield_empty`, dl_yielded):
///   off the queue until d (D = P, so the next period starts at d).
/// - replenish (`replenish_dl_entity`): `while q <= 0: d += P, q += Q`; a deferred timer
///   finding q/(d − now) > Q/D starts a fresh period instead; d still past: a fresh period.
/// - stop (`dl_server_stop`): off the queue, timer cancelled, not armed, not throttled; the
///   running state is kept.
/// - Timers whose instant has already passed are not started (the kernel compares in whole
///   microseconds, here in ns); the entity is then replenished or queued at once, as there. A
///   timer still pending is not moved by a later start (start_dl_timer's hrtimer_is_queued
///   test); only the 6.19 timer below leaves one pending past its use.
/// - 6.12's idle charge (`dl_server_update_idle_time`) returns at once for a runtime below 0,
///   leaving the idle task's clock where it was: `charge_idle` says so (false), and the owner
///   charges the same idle time at its next call.
///
/// @par The 6.19 rules (`server_rules::linux_6_19`)
/// 6.17-6.19 changed when the server stops and what idle time does (deadline.c's state
/// diagram, commit 2614069c5912 "Document dl_server"):
/// - cccb45d7c429 ("Less agressive dl_server handling", 6.17): the last dequeue of the served
///   class no longer stops the server, so that a class going briefly empty does not pay a
///   timer cancel and restart each time;
/// - a3a70caf7906 ("Fix dl_server behaviour", 6.17): a pick that finds the served class empty
///   stops the server at once (`stop`), keeping its bandwidth for a wakeup soon after, instead
///   of giving up the period (dl_yielded, `yield_empty`, the 6.12 rule);
/// - 077e1e2e0015 ("Fix dl_server getting stuck", 6.17): `server_has_tasks` is gone, the
///   timer and the replenishment ignore whether the class has tasks;
/// - f5a538c07df2 ("Fix dl_server stop condition", 6.19): idle time uses up q like fair run
///   time, but pushes the activation forward at most once (`defer_idle`, the kernel's
///   `dl_defer_idle`, state C "idle-wait"): after that q only falls to 0, and the timer, at
///   the zero-laxity instant, stops a server that saw nothing but idle time for a whole
///   period. A fair run time charge, a start or a stop clears `defer_idle`. A start of an
///   active server does nothing else; a start of a stopped one first brings the running
///   task's (or the idle task's) time up to now without charging it (`update_curr` before
///   `dl_server_active` is set), so idle time from before the start is never charged.
///   The timer charges the running task's (or the idle) time after its first test and goes on
///   whatever that did (`timer_fires`, the owner's charges, `timer_run`): with P − Q at most
///   `min_resolution`, a charge that started a fresh deferred period is followed at once by the
///   running state and the queue, and that period's timer stays pending (a stale timer).
///   Idle time counts as idle only while nothing is queued on the CPU (mainline's
///   update_curr_dl_se tests `idle_rq()`; f5a538c07df2 tested only that the idle task runs):
///   the idle time charged when a CPU leaves idle for a woken task is charged as run time.
///
/// @par Not modelled
/// The server's share of deadline admission control is the owner's to reserve (schedsim
/// reserves Q/P per CPU in the root domain's edf_policy, `reserve_bandwidth`, as
/// dl_server_apply_params; its GRUB this_bw / running_bw share is not modelled). Frequency and
/// capacity scaling of its charge, priority inheritance, push/pull of the server itself, and
/// 6.17-6.18's interim `dl_server_idle` rule (an empty pick yielded once before it stopped;
/// replaced by the two fixes above).
///
/// @par Complexity
/// O(1), except the replenishment in `charge`, `timer` and `start`: it adds periods until the
/// runtime is positive again, so it loops about overrun / Q times (the kernel's
/// replenish_dl_entity loop; one period for any overrun below Q). Freestanding: integer
/// arithmetic only, wrap-safe time.
#ifndef SCHEDCORE_POLICY_DL_SERVER_HPP
#define SCHEDCORE_POLICY_DL_SERVER_HPP

#include "schedcore/core/errc.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/types.hpp"

namespace schedcore {

/// Which kernel's server rules a `deferrable_server` follows (see the file comment).
enum class server_rules : u8 {
  /// 6.12-6.16: started by the served class's first enqueue, stopped by its last dequeue; an
  /// empty pick gives the period up; idle time is charged down to q = 0.
  linux_6_12,
  /// 6.19+: stopped only by an empty pick or by a whole period of idle time (`defer_idle`);
  /// idle time is charged as run time, pushing the activation forward at most once.
  linux_6_19,
};

/// Linux's deferrable deadline server (the fair server), as a self-contained CBS state
/// machine. The owner (policy/fair_server_stack.hpp) feeds it the served class's run time,
/// idle time, its class's first enqueue and last dequeue, and fires its timer.
class deferrable_server {
 public:
  /// Smallest period the kernel's debugfs accepts (`fair_server_period_min`), ns: 100 us.
  static constexpr duration_ns period_min = usec(100);
  /// Largest period (`fair_server_period_max`, 2^22 us ~ 4.2 s), ns.
  static constexpr duration_ns period_max = usec(s64{1} << 22);
  /// The kernel's default runtime, 50 ms.
  static constexpr duration_ns default_runtime = msec(50);
  /// The kernel's default period, 1 s.
  static constexpr duration_ns default_period = sec(1);
  /// `dl_server_min_res`: the zero-laxity timer is pushed later only by more than this, 1 ms.
  static constexpr duration_ns min_resolution = msec(1);
  /// DL_SCALE: the overflow test works in 1024 ns units.
  static constexpr unsigned dl_scale = 10;

  /// A disabled server (runtime 0): it never starts, charges nothing, and never runs.
  constexpr deferrable_server() noexcept = default;

  /// Sets runtime Q and period P (= relative deadline), ns, as a write to the kernel's
  /// debugfs files `fair_server/cpuN/{runtime,period}`. Q = 0 disables the server. Refused
  /// (`errc::out_of_range`, nothing changes) for Q < 0, Q > P or P outside
  /// [period_min, period_max]. The server must not be active (the owner stops it first and
  /// starts it again, as the debugfs write does); an active server refuses with `errc::busy`.
  /// The next start begins a fresh period. `rules` picks the kernel whose rules it follows
  /// (a value outside the enumeration: `errc::invalid_argument`).
  errc configure(duration_ns runtime, duration_ns period, server_rules rules = server_rules::linux_6_12) noexcept {
    if (runtime < 0 || runtime > period || period < period_min || period > period_max) return errc::out_of_range;
    if (rules != server_rules::linux_6_12 && rules != server_rules::linux_6_19) return errc::invalid_argument;
    if (active_) return errc::busy;
    dl_runtime_ = runtime;
    dl_period_ = period;
    rules_ = rules;
    runtime_ = runtime;
    deadline_ = sched_time{};
    throttled_ = defer_armed_ = defer_running_ = defer_idle_ = yielded_ = queued_ = timer_armed_ = false;
    return errc::ok;
  }
  /// The kernel whose rules the server follows.
  constexpr server_rules rules() const noexcept { return rules_; }

  /// Q, ns (0: disabled).
  constexpr duration_ns dl_runtime() const noexcept { return dl_runtime_; }
  /// P = D, ns.
  constexpr duration_ns dl_period() const noexcept { return dl_period_; }
  /// Whether the server can run at all (Q > 0).
  constexpr bool enabled() const noexcept { return dl_runtime_ > 0; }
  /// Started and not stopped: the served class has tasks.
  constexpr bool active() const noexcept { return active_; }
  /// On the deadline run queue: it competes by `deadline()` and, when picked, runs the served
  /// class.
  constexpr bool queued() const noexcept { return queued_; }
  /// Waiting for a timer (replenishment or zero laxity).
  constexpr bool throttled() const noexcept { return throttled_; }
  /// Throttled until its zero-laxity instant (deferred).
  constexpr bool defer_armed() const noexcept { return defer_armed_; }
  /// In the running state: the served class was starved, periods are not deferred.
  constexpr bool defer_running() const noexcept { return defer_running_; }
  /// 6.19 rules: idle time pushed the activation forward and nothing but idle time has been
  /// charged since (state C, "idle-wait"); the timer then stops the server. Always false under
  /// the 6.12 rules.
  constexpr bool defer_idle() const noexcept { return defer_idle_; }
  /// Remaining runtime q, ns (negative after an overrun).
  constexpr duration_ns runtime() const noexcept { return runtime_; }
  /// Absolute deadline d.
  constexpr sched_time deadline() const noexcept { return deadline_; }

  /// The pending timer's instant (zero laxity or replenishment); false when none.
  bool next_timer(sched_time& when) const noexcept {
    if (!timer_armed_) return false;
    when = timer_at_;
    return true;
  }

  /// The served class got its first task (`dl_server_start`). No effect when disabled or
  /// already active (under the 6.19 rules it still clears `defer_idle`).
  void start(sched_time now) noexcept {
    defer_idle_ = false;
    if (!enabled() || active_) return;
    active_ = true;
    // update_dl_entity: the old deadline is kept unless it lapsed or overflows.
    if (deadline_ < now || overflows(now)) {
      defer_running_ = false;  // 115135422562: a lapsed deadline ends the running state
      new_period(now);
    } else if (!defer_running_) {
      defer_armed_ = throttled_ = true;
    }
    finish_enqueue(now);
  }

  /// Stops the server (`dl_server_stop`): under the 6.12 rules when the served class has no
  /// task left; under the 6.19 rules when a pick found it empty, or from `timer`.
  void stop() noexcept {
    if (!enabled()) return;
    queued_ = false;
    timer_armed_ = false;
    defer_armed_ = throttled_ = defer_idle_ = false;
    active_ = false;
  }

  /// Charges `delta` ns the served class ran (`dl_server_update` -> `update_curr_dl_se`),
  /// whether the server picked it or the class ran on its own. True when the server was
  /// throttled off the queue by this charge: the task it was running must be rescheduled.
  /// `has_tasks` says whether the served class has tasks (`server_has_tasks`), for a
  /// replenishment this charge may cause (ignored under the 6.19 rules).
  bool charge(duration_ns delta, sched_time now, bool has_tasks) noexcept {
    if (!enabled() || !active_) return false;
    if (delta <= 0 && !yielded_) return false;
    if (rules_ == server_rules::linux_6_19) has_tasks = true;
    if (delta > 0) {
      runtime_ -= delta;
      defer_idle_ = false;  // run time of the served class: not a period of idle time
      // Consumed in the background while deferred: the class was not starved this period.
      if (throttled_ && runtime_ <= 0) {
        defer_running_ = false;
        timer_armed_ = false;
        new_period(now);
        (void)start_timer(now);  // d - q = now + P - Q >= now: always starts
        return false;
      }
    }
    if (runtime_ <= 0 || yielded_) {
      const bool was_queued = queued_;
      throttled_ = true;
      queued_ = false;
      if (!start_timer(now)) enqueue_replenish(now, has_tasks);
      return was_queued;
    }
    return false;
  }

  /// Charges `delta` ns of idle time ending at `now`: idle time was available to the served
  /// class, so it counts as served.
  /// - 6.12 rules (`dl_server_update_idle_time`): q falls to 0 at most, which also ends the
  ///   running state; called when the CPU leaves idle, or when the served class gets its first
  ///   task on an idle CPU (whether or not the server is active).
  /// - 6.19 rules (`dl_server_update_idle` -> `update_curr_dl_se` with the idle task running):
  ///   only while active; a throttled server whose q runs out starts a fresh deferred period
  ///   once and is marked `defer_idle`, after which q only falls to 0. Called when the CPU
  ///   leaves idle and before the server's timer runs.
  ///   `idle_rq` (6.19 rules): nothing is queued on the CPU; false (tasks were woken and the
  ///   CPU is about to leave idle), the charge is one of run time (`charge`).
  /// Returns whether the idle time was consumed, i.e. the idle task's clock (its
  /// se.exec_start) moves to `now`: false only under the 6.12 rules for a runtime already
  /// below 0 (or a negative `delta`), where dl_server_update_idle_time returns before it moves
  /// the clock ("no need to discount more"), so a later call charges the same idle time again
  /// (a start in between may have given the server a fresh q). A disabled server consumes it
  /// (its runtime is 0: the kernel's charge finds nothing to take).
  bool charge_idle(duration_ns delta, sched_time now, bool idle_rq = true) noexcept {
    if (rules_ == server_rules::linux_6_12) {
      if (runtime_ < 0 || delta < 0) return false;
      if (!enabled()) return true;
      runtime_ -= delta;
      if (runtime_ < 0) {
        defer_running_ = false;
        runtime_ = 0;
      }
      return true;
    }
    if (!enabled() || !active_ || delta <= 0) return true;
    if (!idle_rq) {
      (void)charge(delta, now, true);
      return true;
    }
    runtime_ -= delta;
    if (runtime_ > 0) return true;
    if (throttled_) {
      if (defer_idle_) {  // the activation was pushed once: wait for the timer to stop it
        runtime_ = 0;
        return true;
      }
      defer_running_ = false;
      timer_armed_ = false;
      new_period(now);
      defer_idle_ = true;
      (void)start_timer(now);  // d - q = now + P - Q >= now: always starts
      return true;
    }
    // Queued and out of runtime while the CPU idled (an empty pick stops it first, so this
    // needs a pick still to come): throttled as a charge of run time would.
    queued_ = false;
    throttled_ = true;
    if (!start_timer(now)) enqueue_replenish(now, true);
    return true;
  }

  /// The served class had nothing to run when the server was picked (`__pick_task_dl` with
  /// dl_yielded, the 6.12 rule): the rest of this period is given up. (Under the 6.19 rules the
  /// owner calls `stop` instead.)
  void yield_empty(sched_time now, bool has_tasks) noexcept {
    if (!active_) return;
    yielded_ = true;
    (void)charge(0, now, has_tasks);
  }

  /// Runs the timer if it is due at `now` (`dl_server_timer`). True when the server is now
  /// queued: the caller reschedules unless a reservation with an earlier deadline runs. Under
  /// the 6.19 rules the owner charges the time run (or idled) up to `now` inside the timer, as
  /// the kernel's calls `update_curr` (`timer_fires`, the charges, `timer_run`); a server in
  /// `defer_idle` is then stopped, and `has_tasks` is ignored.
  bool timer(sched_time now, bool has_tasks) noexcept {
    if (!timer_fires(now)) return false;
    return timer_run(now, has_tasks);
  }
  /// The first half of `timer`, for an owner that charges in between as 6.19's
  /// dl_server_timer does (`update_curr` after its first test): if the timer is due at `now`,
  /// it leaves the queue (`timer_armed_` false: a charge may start it again, as hrtimer_start
  /// inside the callback does), and true says the callback goes on: the server is throttled
  /// and enabled ("if (!dl_se->dl_throttled || !dl_se->dl_runtime) return HRTIMER_NORESTART",
  /// before any update_curr). The owner then charges and calls `timer_run`.
  bool timer_fires(sched_time now) noexcept {
    if (!timer_armed_ || now < timer_at_) return false;
    timer_armed_ = false;
    return throttled_ && enabled();
  }
  /// The rest of `timer`, after `timer_fires` returned true and the owner's charges (6.19).
  /// The callback goes on whatever those charges did: one that used up a deferred period
  /// started a fresh one and its timer (update_curr_dl_se), and the zero-laxity test below then
  /// sees that period. With P − Q > `min_resolution` that only confirms that timer (the
  /// kernel's hrtimer_forward_now finds it queued and leaves it); with P − Q <= `min_resolution`
  /// the server enters the running state and is queued at once, and that timer stays
  /// pending although the server is no longer throttled (6.19 only: a stale timer). When it
  /// fires it does nothing if the server is still unthrottled; a throttle before that
  /// (update_curr_dl_se's start_dl_timer keeps a queued timer: hrtimer_is_queued) waits for it
  /// instead of for the instant the throttle would choose.
  bool timer_run(sched_time now, bool has_tasks) noexcept {
    if (!throttled_ || !enabled()) return false;  // a charge in between cannot unthrottle it
    if (rules_ == server_rules::linux_6_19) {
      if (defer_idle_) {  // a whole period of nothing but idle time
        stop();
        return false;
      }
      has_tasks = true;
    }
    if (!has_tasks) {
      replenish(now, false);
      return false;
    }
    if (defer_armed_) {
      // The class ran in the background: push the zero-laxity instant back by what it used.
      if (now < deadline_ - runtime_ - min_resolution) {
        if (!timer_armed_) timer_at_ = deadline_ - runtime_;  // started by a charge: left there
        timer_armed_ = true;
        return false;
      }
      defer_running_ = true;
    }
    enqueue_replenish(now, has_tasks);
    return queued_;
  }

  /// Invariants: queued => active and not throttled; armed => throttled; a timer only while
  /// active; q <= Q; `defer_idle` only in state C (6.19 rules: active, throttled, armed, not
  /// running).
  bool verify() const noexcept {
    if (queued_ && (!active_ || throttled_)) return false;
    if (defer_armed_ && !throttled_) return false;
    // A timer waits to unthrottle; only under the 6.19 rules may one be left pending after its
    // server was queued (timer_run's stale timer).
    if (timer_armed_ && (!active_ || (!throttled_ && rules_ != server_rules::linux_6_19))) return false;
    if (defer_idle_ && (rules_ != server_rules::linux_6_19 || !active_ || !defer_armed_ || defer_running_)) return false;
    if (runtime_ > dl_runtime_) return false;
    return enabled() || (!active_ && !queued_ && !timer_armed_);
  }

 private:
  // replenish_dl_new_period: d = now + D, q = Q; deferred unless in the running state.
  void new_period(sched_time now) noexcept {
    deadline_ = now + dl_period_;
    runtime_ = dl_runtime_;
    if (!defer_running_) defer_armed_ = throttled_ = true;
  }
  // dl_entity_overflow: q / (d - now) > Q / D without division, in DL_SCALE units. A negative
  // q never overflows (the kernel's signed comparison of the wrapped product gives the same).
  bool overflows(sched_time now) const noexcept {
    const u64 left = (static_cast<u64>(dl_period_) >> dl_scale) * (static_cast<u64>(runtime_ > 0 ? runtime_ : 0) >> dl_scale);
    const u64 right = (static_cast<u64>(deadline_ - now) >> dl_scale) * (static_cast<u64>(dl_runtime_) >> dl_scale);
    return static_cast<s64>(right - left) < 0;
  }
  // start_dl_timer: at the zero-laxity instant when armed, else at the next period (= d, as
  // D = P). An instant already past is not started (false). A timer still pending is left at
  // its instant ("if (!hrtimer_is_queued(timer)) hrtimer_start(...)"; true all the same): the
  // callers cancel it first where the kernel does, so only 6.19's stale timer (timer_run)
  // is pending here.
  bool start_timer(sched_time now) noexcept {
    const sched_time at = defer_armed_ ? deadline_ - runtime_ : deadline_;
    if (at < now) return false;
    if (!timer_armed_) timer_at_ = at;
    timer_armed_ = true;
    return true;
  }
  // replenish_dl_entity for a deferrable server.
  void replenish(sched_time now, bool has_tasks) noexcept {
    if (defer_armed_ && overflows(now)) {  // could not use its runtime in the background, u > U
      deadline_ = now + dl_period_;
      runtime_ = dl_runtime_;
    }
    if (yielded_ && runtime_ > 0) runtime_ = 0;
    while (runtime_ <= 0) {
      deadline_ += dl_period_;
      runtime_ += dl_runtime_;
    }
    if (deadline_ < now) new_period(now);  // "DL replenish lagged too much"
    yielded_ = false;
    throttled_ = false;
    if (defer_armed_) {
      defer_armed_ = false;
      return;
    }
    if (!defer_running_ && now < deadline_ - runtime_ && has_tasks) {
      defer_armed_ = throttled_ = true;
      if (!start_timer(now)) {
        timer_armed_ = false;
        defer_armed_ = throttled_ = false;
      }
    }
  }
  // enqueue_dl_entity(ENQUEUE_REPLENISH).
  void enqueue_replenish(sched_time now, bool has_tasks) noexcept {
    replenish(now, has_tasks);
    finish_enqueue(now);
  }
  // The tail of enqueue_dl_entity: still throttled (deferred) with a timer started -> not
  // queued; a timer that could not start -> queued at once, unthrottled.
  void finish_enqueue(sched_time now) noexcept {
    if (throttled_ && start_timer(now)) return;
    if (throttled_) {
      timer_armed_ = false;
      defer_armed_ = throttled_ = false;
    }
    queued_ = true;
  }

  duration_ns dl_runtime_ = 0;             ///< Q, ns (0: disabled)
  duration_ns dl_period_ = default_period;  ///< P = D, ns
  server_rules rules_ = server_rules::linux_6_12;  ///< the kernel whose rules it follows
  duration_ns runtime_ = 0;                ///< q, ns
  sched_time deadline_{};                  ///< d
  sched_time timer_at_{};                  ///< pending timer's instant, when timer_armed_
  bool active_ = false;                    ///< dl_server_active
  bool queued_ = false;                    ///< on the deadline run queue
  bool throttled_ = false;                 ///< dl_throttled
  bool defer_armed_ = false;               ///< dl_defer_armed
  bool defer_running_ = false;             ///< dl_defer_running
  bool defer_idle_ = false;                ///< dl_defer_idle (6.19 rules)
  bool yielded_ = false;                   ///< dl_yielded
  bool timer_armed_ = false;               ///< dl_timer queued
};

}  // namespace schedcore

#endif
