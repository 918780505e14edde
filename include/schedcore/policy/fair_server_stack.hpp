/// @file
/// @brief `fair_server_stack`: a `class_stack` whose last (fair) class is also served by a
/// deferrable deadline server (policy/dl_server.hpp), as Linux 6.12+'s `rq->fair_server`.
///
/// ```
///   fair_server_stack<class_index, edf_policy, rt_policy, fair_policy>
///   stack.configure_fair_server(msec(50), sec(1));   // the kernel's defaults; 0 = off
/// ```
/// With the server off (the default, runtime 0) every hook is the plain `class_stack`'s, and
/// the stack only keeps track of the running task and of idle time, as the kernel's clocks run
/// whether or not the server is on: a server turned on later charges the running task from its
/// last accounting point and no idle time from before. With it on:
/// - the fair class's first enqueue starts the server (enqueue_task_fair); under the 6.12
///   rules its last dequeue stops it (dequeue_entities), under the 6.19 rules an empty pick
///   or the server's own timer after a period of idle time does (`server_rules`);
/// - every nanosecond a fair task runs is charged to the server, at the stack's accounting
///   points (tick, put_prev, dequeue and yield of the running task, and every enqueue or
///   dequeue of another fair task: fair.c's enqueue_entity and dequeue_entity begin with
///   update_curr);
/// - idle time is charged when the CPU leaves idle (put_prev_task_idle), and under the 6.12
///   rules also when a fair task arrives on a CPU with nothing queued (enqueue_task_fair's
///   `!rq->nr_running`), under the 6.19 rules also before the server's timer runs
///   (dl_server_timer's update_curr, after which a server marked idle-waiting stops);
/// - the pick (`__pick_task_dl`): a queued server whose deadline is strictly earlier than that
///   of every ready reservation of the first class (a class providing `earliest_deadline`;
///   ties go to the reservation, which was queued first) picks from the fair class, ahead of
///   the RT class; with nothing to pick it gives up its period (dl_yielded, 6.12) or stops
///   (6.19). Under the 6.19 rules a pick that core.c's fair fast path makes (the last task set
///   running is not of a class above the fair class, and no other class has a task to offer)
///   never asks the deadline class: a queued server whose class is empty stays queued there
///   and idle time uses up its runtime;
/// - its timer is one more class timer (`next_timer`/`timer`); when it queues the server, the
///   CPU reschedules unless a reservation with an earlier deadline runs (dl_server_timer);
/// - a server throttled while it ran a fair task asks for a reschedule (tick's result, or
///   `take_resched`), and so does a start that queues it at once (the next `wakeup_preempt`).
///
/// `served()` tells whether the running task was picked through the server: a fair task picked
/// while the server is queued and first. (On the kernel's fast path, which has no other class's
/// task queued, rq->dl_server stays NULL for such a pick; that changes no accounting, as
/// update_curr charges the fair server either way.)
///
/// Complexity: O(1) over the plain stack per hook (one comparison with the first class's
/// leftmost deadline at a pick), plus the server's replenishment (dl_server.hpp: O(overrun / Q)
/// periods, one in the common case).
#ifndef SCHEDCORE_POLICY_FAIR_SERVER_STACK_HPP
#define SCHEDCORE_POLICY_FAIR_SERVER_STACK_HPP

#include "schedcore/core/assert.hpp"
#include "schedcore/core/errc.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/traits.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/policy/class_stack.hpp"
#include "schedcore/policy/dl_server.hpp"
#include "schedcore/policy/flags.hpp"

namespace schedcore {

/// @cond INTERNAL
namespace detail {
template <class P, class = void>
struct has_earliest_deadline : integral_constant<bool, false> {};
template <class P>
struct has_earliest_deadline<P, void_t<decltype(declval<const P&>().earliest_deadline(declval<sched_time&>())),
                                       decltype(P::deadline_of(declval<const typename P::task_type&>()))>>
    : integral_constant<bool, true> {};
}  // namespace detail
/// @endcond

/// A class stack (policy/class_stack.hpp) with Linux's fair server over its last class.
template <class ClassOf, class... Policies>
class fair_server_stack : public class_stack<ClassOf, Policies...> {
  using base = class_stack<ClassOf, Policies...>;
  static_assert(sizeof...(Policies) >= 2, "a fair server needs a class above the one it serves");

 public:
  using typename base::task_type;
  /// Index of the served (fair) class: the last.
  static constexpr usize fair_index = base::nr_classes - 1;
  /// Whether the first class holds reservations the server competes with by deadline.
  static constexpr bool has_deadline_class = detail::has_earliest_deadline<typename base::template class_type<0>>::value;

  /// Sets the server's runtime and period, ns (runtime 0: off), as the kernel's debugfs
  /// `fair_server/cpuN/{runtime,period}`: an active server is stopped, reconfigured and
  /// started again, at `now` (under the 6.19 rules also one its class left empty), without
  /// charging the running fair task first: its time since the last charge goes to the new
  /// server under the 6.12 rules, nowhere under the 6.19 rules. Refused with
  /// `errc::out_of_range` (nothing changes) for a runtime above the period, a negative runtime,
  /// or a period outside
  /// [deferrable_server::period_min, period_max], and with `errc::invalid_argument` for rules
  /// outside the enumeration. `rules`: the kernel whose server rules apply.
  errc configure_fair_server(duration_ns runtime, duration_ns period, sched_time now = sched_time{},
                             server_rules rules = server_rules::linux_6_12) noexcept {
    if (runtime < 0 || runtime > period || period < deferrable_server::period_min || period > deferrable_server::period_max)
      return errc::out_of_range;
    if (rules != server_rules::linux_6_12 && rules != server_rules::linux_6_19) return errc::invalid_argument;
    // The write stops an active server without charging the running fair task first (6.12
    // sched_fair_server_write and 6.19 sched_server_write_common call dl_server_stop, then
    // dl_server_apply_params, which zeroes runtime and deadline; no update_curr): exec_start_
    // stays, so under the 6.12 rules the time run since the last charge goes to the new
    // server at the next one; under the 6.19 rules the restart's update_curr (dl_server_start,
    // before dl_server_active is set) drops it (start_server).
    const bool was_active = server_.active();
    if (was_active) server_.stop();
    const errc e = server_.configure(runtime, period, rules);
    // Started again iff it was active: 6.19's `if (is_active) dl_server_start` (with an empty
    // fair class too, as its last dequeue left it active), 6.12's `if (rq->cfs.h_nr_queued)`
    // (active exactly while fair tasks are queued). Unlike 6.19's write, a server turned on
    // while fair tasks are queued starts now, not at the class's next first enqueue (6.12's
    // write does the same). (A switch to the 6.12 rules does not restart a server its class
    // left empty: 6.12 keeps it active only while fair tasks are queued.)
    if (e == errc::ok && server_.enabled() && ((was_active && late_rules()) || fair().nr_runnable() > 0))
      start_server(now);
    return e;
  }
  /// The server (read-only).
  const deferrable_server& fair_server() const noexcept { return server_; }
  /// Whether the running task was picked through the server.
  bool served() const noexcept { return served_; }

  /// Enqueue `t` in its class; the fair class's first task starts the server.
  void enqueue(task_type& t, sched_time now, enqueue_flags flags) noexcept {
    const bool nothing_queued = idle_ && woken_ == 0;  // rq->nr_running == 0 before this enqueue
    if (idle_) ++woken_;  // the CPU is about to leave idle: not idle_rq() any more
    // enqueue_entity begins with update_curr(cfs_rq): a fair enqueue charges the running fair
    // task up to now (dl_server_update, 6.12 and 6.19), whose throttle of the server asks for a
    // reschedule (handed out by wakeup_preempt or take_resched). A fair task runs only while
    // the class has tasks, so this is never the class's first enqueue, which starts the server.
    if (curr_fair_ && is_fair(t)) charge_curr(now);  // with the server off: only exec_start_ moves
    if (!server_.enabled() || !is_fair(t)) {
      // 6.12's enqueue_task_fair calls dl_server_update_idle_time for the fair class's first
      // task on a CPU with nothing queued with the server off too (runtime 0: nothing to
      // take), and that moves the idle task's clock.
      if (nothing_queued && is_fair(t) && !late_rules() && fair().nr_runnable() == 0) idle_since_ = now;
      base::enqueue(t, now, flags);
      return;
    }
    const bool first = fair().nr_runnable() == 0;
    base::enqueue(t, now, flags);
    if (first && fair().nr_runnable() > 0 && late_rules()) {
      start_server(now);  // may find it active still: that only clears defer_idle
    } else if (first && fair().nr_runnable() > 0 && !server_.active()) {
      // The CPU idled with nothing queued until now: that time was the fair class's to use.
      // With a task of another class woken since, the idle time is charged at the pick instead
      // (put_prev_task_idle), after the start below.
      // A server whose runtime is below 0 (stopped after an overrun) takes nothing and leaves
      // the idle task's clock where it was (dl_server_update_idle_time returns early): the
      // pick then charges the whole idle time to the period the start below may renew.
      if (nothing_queued && server_.charge_idle(now - idle_since_, now)) idle_since_ = now;
      start_server(now);
    }
    check();
  }
  /// Dequeue `t`; the running fair task is charged first when `t` is fair (itself or another),
  /// and under the 6.12 rules the fair class's last task stops the server. A dequeued running
  /// task is no longer tracked as running (a restore's set_next starts it again). A charge that
  /// throttles the server asks for a reschedule: `take_resched` after dequeuing a task that was
  /// not running.
  void dequeue(task_type& t, sched_time now, dequeue_flags flags) noexcept {
    // dequeue_entity begins with update_curr(cfs_rq): any fair dequeue charges the running fair
    // task (6.12 and 6.19), not only its own.
    if (curr_fair_ && is_fair(t)) charge_curr(now);  // with the server off: only exec_start_ moves
    // A task woken while the CPU idles and dequeued again before any pick (a migration pulling
    // it away) no longer keeps the CPU from idle_rq() (6.19's update_curr_dl_se tests the run
    // queue as it is at the charge).
    if (idle_ && woken_ > 0) --woken_;
    if (!server_.enabled()) {
      if (&t == curr_) forget_curr();
      base::dequeue(t, now, flags);
      return;
    }
    if (&t == curr_) {
      curr_ = nullptr;
      curr_fair_ = served_ = false;
    }
    base::dequeue(t, now, flags);
    if (is_fair(t)) stop_if_empty();  // 6.12; under the 6.19 rules the server stays active
    check();
  }
  /// The next task: the fair class's through a queued server whose deadline comes first, else
  /// the plain stack's pick. nullptr: idle (the idle time is charged to the server later).
  task_type* pick_next(sched_time now) noexcept {
    if (!server_.enabled()) {
      idle_ = picked_served_ = false;
      woken_ = 0;
      task_type* t = base::pick_next(now);
      if (t == nullptr) go_idle(now);
      return t;
    }
    if (idle_) {  // put_prev_task_idle; under the 6.19 rules idle only if nothing was woken
      server_.charge_idle(now - idle_since_, now, woken_ == 0);
      idle_ = false;
      woken_ = 0;
    }
    picked_served_ = false;
    if (server_.queued() && server_first()) {
      task_type* t = fair().pick_next(now);
      stop_if_empty();  // the pick may finish delayed dequeues
      if (t != nullptr) {
        picked_served_ = true;
        return t;
      }
      if (late_rules()) {
        // 6.19's __pick_next_task takes a fast path when the previous task's class is not
        // above the fair class and every queued task is fair (rq->nr_running ==
        // rq->cfs.h_nr_queued; the server itself is never counted in nr_running, as
        // inc_dl_tasks skips a dl_server): pick_task_fair, then the idle task, and the deadline
        // class is never asked. Only __pick_task_dl reaching the server with nothing to run
        // stops it (a3a70caf7906: keeps its bandwidth for a wakeup soon after); a server the
        // fast path leaves queued stays so, and idle time uses up its runtime (charge_idle).
        // The other classes picking nothing is the same test: throttled RT or deadline tasks,
        // which their classes do not offer, are not counted in nr_running either.
        task_type* other = base::pick_next(now);
        if (other != nullptr || prev_above_fair_) server_.stop();
        if (other == nullptr) go_idle(now);
        check();
        return other;
      }
      server_.yield_empty(now, fair().nr_runnable() > 0);
    }
    task_type* t = base::pick_next(now);
    stop_if_empty();
    if (t == nullptr) go_idle(now);
    check();
    return t;
  }
  /// `t` starts running.
  void set_next(task_type& t, sched_time now) noexcept {
    base::set_next(t, now);
    curr_ = &t;
    curr_fair_ = is_fair(t);
    prev_above_fair_ = base::class_index(t) < fair_index;
    exec_start_ = now;
    served_ = picked_served_ && curr_fair_;
    picked_served_ = false;
  }
  /// Running `t` stops running but stays runnable; a fair task is charged.
  void put_prev(task_type& t, sched_time now) noexcept {
    if (&t == curr_) {
      if (curr_fair_) charge_curr(now);  // with the server off: only exec_start_ moves
      forget_curr();
    }
    base::put_prev(t, now);
  }
  /// Tick: a running fair task is charged; true also when that throttled the server it ran in.
  bool tick(task_type& curr, sched_time now) noexcept {
    bool resched = false;
    if (&curr == curr_ && curr_fair_) {  // with the server off: only exec_start_ moves
      charge_curr(now);
      resched = take_own_resched();
    }
    return base::tick(curr, now) || resched;
  }
  /// As the plain stack, and true after a start that queued the server at once.
  bool wakeup_preempt(task_type& woken, task_type& curr, sched_time now) noexcept {
    if (take_own_resched()) return true;
    return base::wakeup_preempt(woken, curr, now);
  }
  /// Optional hook `yield`: a running fair task is charged first.
  void yield(task_type& curr, sched_time now) noexcept {
    if (&curr == curr_ && curr_fair_) charge_curr(now);
    base::yield(curr, now);
  }
  /// The earliest class timer, the server's included.
  bool next_timer(sched_time& when) const noexcept {
    bool found = base::next_timer(when);
    sched_time s{};
    if (server_.next_timer(s) && (!found || s < when)) {
      when = s;
      found = true;
    }
    return found;
  }
  /// Every class's due timers and the server's; true asks for a reschedule. Under the 6.19
  /// rules the running fair task's time, or the idle time, up to `now` is charged first.
  bool timer(sched_time now) noexcept {
    bool resched = base::timer(now);
    bool queued = false;
    if (late_rules()) {
      // 6.19's dl_server_timer: a server found throttled first brings the running task's (or
      // the idle task's) time up to now (update_curr), then goes on whatever that charge did.
      // The idle time charged may have used up a deferred period and marked the next one
      // idle-waiting: timer_run stops the server now, not at the next timer.
      if (server_.timer_fires(now)) {
        if (curr_fair_) charge_curr(now);
        if (idle_) {
          server_.charge_idle(now - idle_since_, now, woken_ == 0);
          idle_since_ = now;
        }
        resched = take_own_resched() || resched;
        queued = server_.timer_run(now, true);
      }
    } else {
      queued = server_.timer(now, fair().nr_runnable() > 0);
    }
    if (queued) {
      if (curr_ == nullptr || !keeps_cpu_against_server(*curr_)) {
        resched = true;
      }
    }
    return resched;
  }
  /// A reschedule asked inside a hook that returns nothing (the plain stack's, or a server
  /// throttled by the charge in a dequeue).
  bool take_resched() noexcept {
    const bool own = take_own_resched();
    return base::take_resched() || own;
  }
  /// The core's schedule step with this stack's hooks (see class_stack::schedule).
  task_type* schedule(task_type* prev, bool prev_runnable, sched_time now) noexcept {
    if (prev != nullptr && prev_runnable) put_prev(*prev, now);
    task_type* next = pick_next(now);
    if (next != nullptr) set_next(*next, now);
    return next;
  }
  /// Every class's `verify()` and the server's invariants.
  bool verify() const noexcept {
    if (!server_.verify()) return false;
    if (!active_as_expected()) return false;
    return base::verify();
  }

 private:
  using fair_type = typename base::template class_type<fair_index>;
  using first_type = typename base::template class_type<0>;

  fair_type& fair() noexcept { return this->template get<fair_index>(); }
  const fair_type& fair() const noexcept { return this->template get<fair_index>(); }
  static bool is_fair(const task_type& t) noexcept { return base::class_index(t) == fair_index; }

  // Whether the 6.19 rules apply (the server outlives its class's last dequeue).
  bool late_rules() const noexcept { return server_.rules() == server_rules::linux_6_19; }
  // 6.12: active exactly while the fair class has tasks. 6.19: active whenever it has tasks
  // (it may stay active after the last dequeue until a pick or its timer stops it), and never
  // idle-waiting while it has any: only idle time with nothing queued marks the server, and
  // the class's first enqueue (a start) clears the mark, so the timer cannot stop a server
  // whose class waits.
  bool active_as_expected() const noexcept {
    const bool has_tasks = server_.enabled() && fair().nr_runnable() > 0;
    if (late_rules()) return !has_tasks || (server_.active() && !server_.defer_idle());
    return server_.active() == has_tasks;
  }
  // O(1) consistency, in builds with assertions: the server's own invariants and
  // active_as_expected().
  void check() const noexcept {
    SCHEDCORE_ASSERT(server_.verify());
    SCHEDCORE_ASSERT(active_as_expected());
  }
  void forget_curr() noexcept {
    curr_ = nullptr;
    curr_fair_ = served_ = false;
  }
  // The pick found nothing: the CPU idles from now (idle_since_ is exec_start of the idle task).
  void go_idle(sched_time now) noexcept {
    idle_ = true;
    idle_since_ = now;
    prev_above_fair_ = false;  // the idle class is below the fair class
    forget_curr();
  }
  void stop_if_empty() noexcept {
    if (!late_rules() && server_.active() && fair().nr_runnable() == 0) server_.stop();
  }
  void start_server(sched_time now) noexcept {
    const bool was_queued = server_.queued();
    if (late_rules() && !server_.active()) {
      // 6.19's dl_server_start brings the current task up to now before the server is active:
      // the idle or fair time so far is not charged to it.
      if (idle_) idle_since_ = now;
      if (curr_fair_) exec_start_ = now;
    }
    server_.start(now);
    if (!was_queued && server_.queued() && (curr_ == nullptr || !keeps_cpu_against_server(*curr_))) resched_ = true;
  }
  // Charges the running fair task's time since it last was; a throttle of the server it ran
  // in asks for a reschedule.
  void charge_curr(sched_time now) noexcept {
    const duration_ns delta = now - exec_start_;
    exec_start_ = now;
    if (server_.charge(delta, now, fair().nr_runnable() > 0)) resched_ = true;
  }
  bool take_own_resched() noexcept {
    const bool r = resched_;
    resched_ = false;
    return r;
  }
  // Whether the queued server comes before every ready reservation (dl_entity_preempt).
  bool server_first() const noexcept {
    if constexpr (has_deadline_class) {
      sched_time d{};
      if (this->template get<0>().earliest_deadline(d)) return server_.deadline() < d;
    }
    return true;
  }
  // Whether `t` is a reservation whose deadline is not later than the server's: the queued
  // server does not preempt it (!dl_entity_preempt(server, t)).
  bool keeps_cpu_against_server(const task_type& t) const noexcept {
    if constexpr (has_deadline_class) {
      if (base::class_index(t) == 0) return !(server_.deadline() < first_type::deadline_of(t));
    }
    (void)t;
    return false;
  }

  deferrable_server server_{};     ///< the fair server (off by default)
  task_type* curr_ = nullptr;      ///< the running task (tracked with the server off too)
  sched_time exec_start_{};        ///< when curr_ was last charged
  sched_time idle_since_{};        ///< when the CPU went idle, while idle_
  bool curr_fair_ = false;         ///< curr_ is a fair task not yet charged past exec_start_
  bool served_ = false;            ///< curr_ was picked through the server
  bool picked_served_ = false;     ///< the last pick went through the server
  bool idle_ = false;              ///< the last pick found nothing: the CPU idles
  /// The last task set running (whether still running or not) is of a class above the fair
  /// class: the next pick is no 6.19 fast path (__pick_next_task tests prev's class).
  bool prev_above_fair_ = false;
  /// Tasks enqueued since the CPU went idle and not dequeued since: while any is, the CPU is
  /// about to leave idle, and idle time charged until then is not idle_rq() time (6.19
  /// rules). Tasks the idle pick left queued are throttled, which the kernel does not count as
  /// running either. (A dequeue while idle is taken to be of a woken task: one of a throttled
  /// task left queued, with a woken one still queued, would be miscounted.)
  usize woken_ = 0;
  bool resched_ = false;           ///< a reschedule to hand out (wakeup_preempt, tick, take_resched)
};

}  // namespace schedcore

#endif
