/// @file
/// @brief The policy interface: a static `sched_class`, its required and optional hooks, the
/// documented defaults of the optional ones, and readable diagnostics for types that do not
/// model it.
///
/// A policy object *is* one CPU's run queue for one scheduling class (the kernel's `cfs_rq`,
/// `rt_rq`). It never reads a clock: every hook receives `now`, so the simulator stays
/// deterministic and a port passes its own time base. The caller holds whatever lock protects
/// the run queue; hooks never block, never allocate and are `noexcept`.
///
/// @par Life of a task in one class (the contract every policy relies on)
/// ```
///   task_new(t, parent)          once, before the first enqueue (fork)
///   enqueue(t, initial|wakeup)   t becomes runnable; counted by nr_runnable()
///   pick_next() -> t             t is the class's choice; nothing is changed by picking
///   set_next(t)                  t starts running ("curr"); still runnable
///   tick(t) -> resched?          periodically while t runs
///   put_prev(t)                  t stops running but stays runnable (preempted, yielded)
///   dequeue(t, sleep|dead|...)   t stops being runnable; if t was running, *no* put_prev follows
///   migrate_task_rq(t)           asleep, t is about to wake on another CPU's queue (this one's last look)
///   task_dead(t)                 once, after the last dequeue
/// ```
/// A parameter change (nice, RT priority) is `dequeue(save)`, change, `enqueue(restore)`,
/// `prio_changed(t)`, as in the kernel's `sched_setscheduler`; for a running task the core then
/// asks its (new) class `change_resched` whether to reschedule, and for a queued one
/// `wakeup_preempt`. When the change moves t to
/// another class, the core calls the old class's `switched_from(t)` after the dequeue and
/// before t's class changes (the kernel's `switched_from`), so a class that keeps per-task
/// state beyond its queue (admitted bandwidth, a list of all its tasks) can release it.
///
/// | hook | required | meaning | default |
/// |---|---|---|---|
/// | `using task_type` | yes | the task type the class queues | |
/// | `enqueue(t, now, enqueue_flags)` | yes | t becomes runnable in this class | |
/// | `dequeue(t, now, dequeue_flags)` | yes | t leaves (it may be curr) | |
/// | `pick_next(now) -> task_type*` | yes | the next task, or nullptr; no side effects except completing a delayed dequeue (see `delayed`) and, for `group_policy` with CFS bandwidth control, the runtime checks of the kernel's pick (`runtime_checks_pending`); a second call in a row returns the same task | |
/// | `set_next(t, now)` | yes | t starts running | |
/// | `put_prev(t, now)` | yes | running t stops running, stays runnable | |
/// | `tick(curr, now) -> bool` | yes | account; true asks for a reschedule | |
/// | `wakeup_preempt(woken, curr, now) -> bool` | yes | should woken (just enqueued) preempt curr | |
/// | `nr_runnable() const -> usize` | yes | queued tasks, including a running one | |
/// | `yield(curr, now)` | no | curr gives up the CPU | nothing: the next pick may choose curr again |
/// | `prio_changed(t, now)` | no | after a parameter change | nothing |
/// | `task_new(child, parent, now)` | no | fork, on the child's run queue; parent may be nullptr. The kernel's fork runs in the parent's context, so a class that places the child against the parent's queue (cfs) or splits the parent's slice there (nicksched) reaches that queue through the parent's entity when it is another one: a port on several CPUs holds both run queues' locks | nothing |
/// | `task_dead(t, now)` | no | after the final dequeue | nothing |
/// | `switched_from(t, now)` | no | t (not queued) moves to another class: release per-class state | nothing |
/// | `migrate_task_rq(t, now)` | no | t, asleep and last queued here, is about to be enqueued (woken) on another CPU's queue of the same class, with `migrated` (the kernel's `migrate_task_rq`): convert per-queue state (cfs: vruntime relative to this queue's min_vruntime now) | nothing: the destination queue's enqueue sees `migrated` alone |
/// | `delayed(t) const -> bool` | no | t blocked but is still queued here (EEVDF's delayed dequeue, finished by a later pick): its wakeup must enqueue it on this run queue, not migrate it | false |
/// | `verify() const -> bool` | no | O(n) structural self-check | true |
/// | `next_timer(sched_time& when) const -> bool` | no | earliest class-internal timer (replenish, unthrottle) | false: none |
/// | `timer(now) -> bool` | no | run class timers due at `now`; true asks for a reschedule | false |
/// | `change_resched(curr, param_change, now) -> bool` | no | the running task `curr`'s parameters changed (after its `enqueue(restore)`, `set_next` and `prio_changed`; `curr` is now in this class): true asks for a reschedule, as the kernel's check_class_changed leaves it to the class (`switched_to_*` when `param_change::switched`, else `prio_changed_*`) or to the era's core (2.6's sched_setscheduler and set_user_nice, 2.4's setscheduler) | true: reschedule after every change |
/// | `take_resched() -> bool` | no | a reschedule the class asked for inside a hook that returns nothing (a `dequeue` of another task charges the running one, which may end its request or throttle it; `group_policy` with CFS bandwidth: any charge, an enqueue's or a group reweight's too, may find a group out of budget); the core asks after such a dequeue and reschedules on true (asking may clear the request) | false |
///
/// @par Time
/// `now` is a wrap-safe 64-bit count of ns (`sched_time`) and must not go backwards between
/// calls on one run queue: the accounting assumes it. A step back (a caller's clock glitch)
/// is charged as no run time, and the policy keeps the stamp it had, so the forward step that
/// follows is not charged twice.
///
/// Class timers are how a class that throttles (RT bandwidth, SCHED_DEADLINE's constant
/// bandwidth server) gets the CPU back at an exact time: the port or simulator arms a timer
/// at `next_timer()` and calls `timer(now)` when it fires (the kernel's hrtimers), and at
/// least on every tick.
#ifndef SCHEDCORE_POLICY_POLICY_HPP
#define SCHEDCORE_POLICY_POLICY_HPP

#include "schedcore/core/time.hpp"
#include "schedcore/core/traits.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/policy/flags.hpp"

namespace schedcore {

/// @cond INTERNAL
namespace detail {

struct no_task_type {};

template <class P, class = void>
struct task_of {
  using type = no_task_type;
  static constexpr bool declared = false;
};
template <class P>
struct task_of<P, void_t<typename P::task_type>> {
  using type = typename P::task_type;
  static constexpr bool declared = true;
};
template <class P>
using task_t = typename task_of<P>::type;

// Each detector is true when the expression is well-formed, noexcept and of the right type.
#define SCHEDCORE_DETAIL_HOOK_DETECTOR(name, result, expr)                                         \
  template <class P, class = void>                                                                 \
  struct name : false_type {};                                                                     \
  template <class P>                                                                               \
  struct name<P, void_t<decltype(expr)>>                                                           \
      : integral_constant<bool, noexcept(expr) && is_same_v<decltype(expr), result>> {};

SCHEDCORE_DETAIL_HOOK_DETECTOR(has_enqueue, void,
    declval<P&>().enqueue(declval<task_t<P>&>(), sched_time{}, enqueue_flags::none))
SCHEDCORE_DETAIL_HOOK_DETECTOR(has_dequeue, void,
    declval<P&>().dequeue(declval<task_t<P>&>(), sched_time{}, dequeue_flags::none))
SCHEDCORE_DETAIL_HOOK_DETECTOR(has_pick_next, task_t<P>*, declval<P&>().pick_next(sched_time{}))
SCHEDCORE_DETAIL_HOOK_DETECTOR(has_set_next, void, declval<P&>().set_next(declval<task_t<P>&>(), sched_time{}))
SCHEDCORE_DETAIL_HOOK_DETECTOR(has_put_prev, void, declval<P&>().put_prev(declval<task_t<P>&>(), sched_time{}))
SCHEDCORE_DETAIL_HOOK_DETECTOR(has_tick, bool, declval<P&>().tick(declval<task_t<P>&>(), sched_time{}))
SCHEDCORE_DETAIL_HOOK_DETECTOR(has_wakeup_preempt, bool,
    declval<P&>().wakeup_preempt(declval<task_t<P>&>(), declval<task_t<P>&>(), sched_time{}))
SCHEDCORE_DETAIL_HOOK_DETECTOR(has_nr_runnable, usize, declval<const P&>().nr_runnable())
SCHEDCORE_DETAIL_HOOK_DETECTOR(has_yield, void, declval<P&>().yield(declval<task_t<P>&>(), sched_time{}))
SCHEDCORE_DETAIL_HOOK_DETECTOR(has_prio_changed, void,
    declval<P&>().prio_changed(declval<task_t<P>&>(), sched_time{}))
SCHEDCORE_DETAIL_HOOK_DETECTOR(has_task_new, void,
    declval<P&>().task_new(declval<task_t<P>&>(), declval<task_t<P>*>(), sched_time{}))
SCHEDCORE_DETAIL_HOOK_DETECTOR(has_task_dead, void, declval<P&>().task_dead(declval<task_t<P>&>(), sched_time{}))
SCHEDCORE_DETAIL_HOOK_DETECTOR(has_switched_from, void,
    declval<P&>().switched_from(declval<task_t<P>&>(), sched_time{}))
SCHEDCORE_DETAIL_HOOK_DETECTOR(has_migrate_task_rq, void,
    declval<P&>().migrate_task_rq(declval<task_t<P>&>(), sched_time{}))
SCHEDCORE_DETAIL_HOOK_DETECTOR(has_delayed, bool, declval<const P&>().delayed(declval<const task_t<P>&>()))
SCHEDCORE_DETAIL_HOOK_DETECTOR(has_verify, bool, declval<const P&>().verify())
SCHEDCORE_DETAIL_HOOK_DETECTOR(has_next_timer, bool, declval<const P&>().next_timer(declval<sched_time&>()))
SCHEDCORE_DETAIL_HOOK_DETECTOR(has_timer, bool, declval<P&>().timer(sched_time{}))
SCHEDCORE_DETAIL_HOOK_DETECTOR(has_take_resched, bool, declval<P&>().take_resched())
SCHEDCORE_DETAIL_HOOK_DETECTOR(has_change_resched, bool,
    declval<P&>().change_resched(declval<task_t<P>&>(), declval<const param_change&>(), sched_time{}))

#undef SCHEDCORE_DETAIL_HOOK_DETECTOR

// True when `P` has a member of that name at all, whatever it is: overloaded, a template,
// private, a data member. With the hook detectors above this tells "absent" (policy_traits uses
// the documented default) from "present but malformed" (a mistake check_policy reports, or the
// default would silently replace the hook: an overload set in which no member is the hook, or
// the hook without noexcept). The probe derives from P and from a base with one member of that
// name: naming the member through the probe is ambiguous exactly when P declares one too. A
// `final` P cannot be derived from; it falls back to `&P::member`, which sees only a single
// accessible non-template member.
#define SCHEDCORE_DETAIL_NAME_DETECTOR(name, member)                                              \
  struct name##_probe_base {                                                                      \
    int member;                                                                                   \
  };                                                                                              \
  template <class P>                                                                              \
  struct name##_probe : P, name##_probe_base {};                                                  \
  template <class P, class = void>                                                                \
  struct name##_any : true_type {};                                                               \
  template <class P>                                                                              \
  struct name##_any<P, void_t<decltype(&name##_probe<P>::member)>> : false_type {};               \
  template <class P, class = void>                                                                \
  struct name##_single : false_type {};                                                           \
  template <class P>                                                                              \
  struct name##_single<P, void_t<decltype(&P::member)>> : true_type {};                           \
  template <class P, bool Derivable = __is_class(P) && !__is_final(P)>                            \
  struct name : name##_single<P> {};                                                              \
  template <class P>                                                                              \
  struct name<P, true> : name##_any<P> {};

SCHEDCORE_DETAIL_NAME_DETECTOR(names_yield, yield)
SCHEDCORE_DETAIL_NAME_DETECTOR(names_prio_changed, prio_changed)
SCHEDCORE_DETAIL_NAME_DETECTOR(names_task_new, task_new)
SCHEDCORE_DETAIL_NAME_DETECTOR(names_task_dead, task_dead)
SCHEDCORE_DETAIL_NAME_DETECTOR(names_switched_from, switched_from)
SCHEDCORE_DETAIL_NAME_DETECTOR(names_migrate_task_rq, migrate_task_rq)
SCHEDCORE_DETAIL_NAME_DETECTOR(names_delayed, delayed)
SCHEDCORE_DETAIL_NAME_DETECTOR(names_verify, verify)
SCHEDCORE_DETAIL_NAME_DETECTOR(names_next_timer, next_timer)
SCHEDCORE_DETAIL_NAME_DETECTOR(names_timer, timer)
SCHEDCORE_DETAIL_NAME_DETECTOR(names_take_resched, take_resched)
SCHEDCORE_DETAIL_NAME_DETECTOR(names_change_resched, change_resched)

#undef SCHEDCORE_DETAIL_NAME_DETECTOR

}  // namespace detail
/// @endcond

/// True when `P` declares `task_type` and every required hook with the documented signature,
/// `noexcept`.
template <class P>
inline constexpr bool is_policy_v =
    detail::task_of<P>::declared && detail::has_enqueue<P>::value && detail::has_dequeue<P>::value &&
    detail::has_pick_next<P>::value && detail::has_set_next<P>::value && detail::has_put_prev<P>::value &&
    detail::has_tick<P>::value && detail::has_wakeup_preempt<P>::value && detail::has_nr_runnable<P>::value;

#if SCHEDCORE_CXX20
/// C++20: the same requirement as a concept, for constrained templates.
template <class P>
concept policy = is_policy_v<P>;
#endif

/// @cond INTERNAL
// The tail of each required hook's message: the detectors cannot tell "absent" from "declared
// with another signature", so the message names both.
#define SCHEDCORE_DETAIL_SIGNATURE_HINT \
  " (or declared with another signature: check const, noexcept, parameter and return types)"
// The tail of each optional hook's message: any member of a hook's name counts, so that no
// overload, template or private member is silently replaced by the default.
#define SCHEDCORE_DETAIL_OPTIONAL_HINT \
  " (public; a member of this name that is not the hook is an error, so rename a helper that has one)"
/// @endcond
/// Fails compilation with one readable message per missing or malformed required hook, and per
/// optional hook declared with another signature than the table's (C++17 and 20).
/// Returns true so it can sit in a `static_assert` or a constant.
template <class P>
constexpr bool check_policy() noexcept {
  // Without task_type no hook can be checked: that one message, not one per hook.
  constexpr bool declared = detail::task_of<P>::declared;
  static_assert(declared, "schedcore policy: the type must declare `using task_type = ...;`");
  static_assert(!declared || detail::has_enqueue<P>::value,
                "schedcore policy: missing or malformed `void enqueue(task_type&, sched_time, enqueue_flags) noexcept`" SCHEDCORE_DETAIL_SIGNATURE_HINT);
  static_assert(!declared || detail::has_dequeue<P>::value,
                "schedcore policy: missing or malformed `void dequeue(task_type&, sched_time, dequeue_flags) noexcept`" SCHEDCORE_DETAIL_SIGNATURE_HINT);
  static_assert(!declared || detail::has_pick_next<P>::value,
                "schedcore policy: missing or malformed `task_type* pick_next(sched_time) noexcept`" SCHEDCORE_DETAIL_SIGNATURE_HINT);
  static_assert(!declared || detail::has_set_next<P>::value,
                "schedcore policy: missing or malformed `void set_next(task_type&, sched_time) noexcept`" SCHEDCORE_DETAIL_SIGNATURE_HINT);
  static_assert(!declared || detail::has_put_prev<P>::value,
                "schedcore policy: missing or malformed `void put_prev(task_type&, sched_time) noexcept`" SCHEDCORE_DETAIL_SIGNATURE_HINT);
  static_assert(!declared || detail::has_tick<P>::value,
                "schedcore policy: missing or malformed `bool tick(task_type& curr, sched_time) noexcept`" SCHEDCORE_DETAIL_SIGNATURE_HINT);
  static_assert(!declared || detail::has_wakeup_preempt<P>::value,
                "schedcore policy: missing or malformed `bool wakeup_preempt(task_type& woken, task_type& curr, sched_time) noexcept`" SCHEDCORE_DETAIL_SIGNATURE_HINT);
  static_assert(!declared || detail::has_nr_runnable<P>::value,
                "schedcore policy: missing or malformed `usize nr_runnable() const noexcept`" SCHEDCORE_DETAIL_SIGNATURE_HINT);
  // Optional hooks: absent is fine (policy_traits calls the documented default), but one that
  // is declared with another signature would be silently replaced by that default.
  static_assert(!declared || !detail::names_yield<P>::value || detail::has_yield<P>::value,
                "schedcore policy: optional hook `yield` must be `void yield(task_type& curr, sched_time) noexcept`" SCHEDCORE_DETAIL_OPTIONAL_HINT);
  static_assert(!declared || !detail::names_prio_changed<P>::value || detail::has_prio_changed<P>::value,
                "schedcore policy: optional hook `prio_changed` must be `void prio_changed(task_type&, sched_time) noexcept`" SCHEDCORE_DETAIL_OPTIONAL_HINT);
  static_assert(!declared || !detail::names_task_new<P>::value || detail::has_task_new<P>::value,
                "schedcore policy: optional hook `task_new` must be "
                "`void task_new(task_type& child, task_type* parent, sched_time) noexcept`" SCHEDCORE_DETAIL_OPTIONAL_HINT);
  static_assert(!declared || !detail::names_task_dead<P>::value || detail::has_task_dead<P>::value,
                "schedcore policy: optional hook `task_dead` must be `void task_dead(task_type&, sched_time) noexcept`" SCHEDCORE_DETAIL_OPTIONAL_HINT);
  static_assert(!declared || !detail::names_switched_from<P>::value || detail::has_switched_from<P>::value,
                "schedcore policy: optional hook `switched_from` must be "
                "`void switched_from(task_type&, sched_time) noexcept`" SCHEDCORE_DETAIL_OPTIONAL_HINT);
  static_assert(!declared || !detail::names_migrate_task_rq<P>::value || detail::has_migrate_task_rq<P>::value,
                "schedcore policy: optional hook `migrate_task_rq` must be "
                "`void migrate_task_rq(task_type&, sched_time) noexcept`" SCHEDCORE_DETAIL_OPTIONAL_HINT);
  static_assert(!declared || !detail::names_delayed<P>::value || detail::has_delayed<P>::value,
                "schedcore policy: optional hook `delayed` must be `bool delayed(const task_type&) const noexcept`" SCHEDCORE_DETAIL_OPTIONAL_HINT);
  static_assert(!declared || !detail::names_verify<P>::value || detail::has_verify<P>::value,
                "schedcore policy: optional hook `verify` must be `bool verify() const noexcept`" SCHEDCORE_DETAIL_OPTIONAL_HINT);
  static_assert(!declared || !detail::names_next_timer<P>::value || detail::has_next_timer<P>::value,
                "schedcore policy: optional hook `next_timer` must be `bool next_timer(sched_time& when) const noexcept`" SCHEDCORE_DETAIL_OPTIONAL_HINT);
  static_assert(!declared || !detail::names_timer<P>::value || detail::has_timer<P>::value,
                "schedcore policy: optional hook `timer` must be `bool timer(sched_time) noexcept`" SCHEDCORE_DETAIL_OPTIONAL_HINT);
  static_assert(!declared || !detail::names_take_resched<P>::value || detail::has_take_resched<P>::value,
                "schedcore policy: optional hook `take_resched` must be `bool take_resched() noexcept`" SCHEDCORE_DETAIL_OPTIONAL_HINT);
  static_assert(!declared || !detail::names_change_resched<P>::value || detail::has_change_resched<P>::value,
                "schedcore policy: optional hook `change_resched` must be "
                "`bool change_resched(task_type& curr, const param_change&, sched_time) noexcept`" SCHEDCORE_DETAIL_OPTIONAL_HINT);
  return true;
}
#undef SCHEDCORE_DETAIL_SIGNATURE_HINT
#undef SCHEDCORE_DETAIL_OPTIONAL_HINT

/// Calls a policy's optional hooks, or their documented defaults when it has none.
template <class P>
struct policy_traits {
  static_assert(check_policy<P>());
  using task_type = typename P::task_type;  ///< the task type of the policy

  /// `p.yield(curr, now)`, or nothing.
  static void yield([[maybe_unused]] P& p, [[maybe_unused]] task_type& curr, [[maybe_unused]] sched_time now) noexcept {
    if constexpr (detail::has_yield<P>::value) p.yield(curr, now);
  }
  /// `p.prio_changed(t, now)`, or nothing.
  static void prio_changed([[maybe_unused]] P& p, [[maybe_unused]] task_type& t, [[maybe_unused]] sched_time now) noexcept {
    if constexpr (detail::has_prio_changed<P>::value) p.prio_changed(t, now);
  }
  /// `p.task_new(child, parent, now)`, or nothing.
  static void task_new([[maybe_unused]] P& p, [[maybe_unused]] task_type& child, [[maybe_unused]] task_type* parent,
                       [[maybe_unused]] sched_time now) noexcept {
    if constexpr (detail::has_task_new<P>::value) p.task_new(child, parent, now);
  }
  /// `p.task_dead(t, now)`, or nothing.
  static void task_dead([[maybe_unused]] P& p, [[maybe_unused]] task_type& t, [[maybe_unused]] sched_time now) noexcept {
    if constexpr (detail::has_task_dead<P>::value) p.task_dead(t, now);
  }
  /// `p.switched_from(t, now)`, or nothing.
  static void switched_from([[maybe_unused]] P& p, [[maybe_unused]] task_type& t,
                            [[maybe_unused]] sched_time now) noexcept {
    if constexpr (detail::has_switched_from<P>::value) p.switched_from(t, now);
  }
  /// `p.migrate_task_rq(t, now)`, or nothing.
  static void migrate_task_rq([[maybe_unused]] P& p, [[maybe_unused]] task_type& t,
                              [[maybe_unused]] sched_time now) noexcept {
    if constexpr (detail::has_migrate_task_rq<P>::value) p.migrate_task_rq(t, now);
  }
  /// `p.next_timer(when)`, or false (no timer).
  static bool next_timer([[maybe_unused]] const P& p, [[maybe_unused]] sched_time& when) noexcept {
    if constexpr (detail::has_next_timer<P>::value) {
      return p.next_timer(when);
    } else {
      return false;
    }
  }
  /// `p.timer(now)`, or false (nothing to do).
  static bool timer([[maybe_unused]] P& p, [[maybe_unused]] sched_time now) noexcept {
    if constexpr (detail::has_timer<P>::value) {
      return p.timer(now);
    } else {
      return false;
    }
  }
  /// `p.take_resched()`, or false (a class whose dequeue never reschedules the running task).
  static bool take_resched([[maybe_unused]] P& p) noexcept {
    if constexpr (detail::has_take_resched<P>::value) {
      return p.take_resched();
    } else {
      return false;
    }
  }
  /// `p.change_resched(curr, c, now)`, or true (a class that leaves the reschedule after a
  /// change of the running task's parameters to the caller, as before this hook).
  static bool change_resched([[maybe_unused]] P& p, [[maybe_unused]] task_type& curr,
                             [[maybe_unused]] const param_change& c, [[maybe_unused]] sched_time now) noexcept {
    if constexpr (detail::has_change_resched<P>::value) {
      return p.change_resched(curr, c, now);
    } else {
      return true;
    }
  }
  /// `p.delayed(t)`, or false (a class that dequeues a blocking task at once).
  static bool delayed([[maybe_unused]] const P& p, [[maybe_unused]] const task_type& t) noexcept {
    if constexpr (detail::has_delayed<P>::value) {
      return p.delayed(t);
    } else {
      return false;
    }
  }
  /// `p.verify()`, or true.
  static bool verify([[maybe_unused]] const P& p) noexcept {
    if constexpr (detail::has_verify<P>::value) {
      return p.verify();
    } else {
      return true;
    }
  }
};

}  // namespace schedcore

#endif
