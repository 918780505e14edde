/// @file
/// @brief `class_stack`: scheduling classes composed by priority on one CPU, with the pick loop
/// of the kernel's modular core (`pick_next_task` walking `for_each_class`).
///
/// ```
///   class_stack<class_index, edf_policy, rt_policy, fair_policy>   // highest class first
/// ```
/// Each task belongs to exactly one class at a time; `ClassOf::index(task)` names it (0 = the
/// first, most important class). The order is an explicit type list, not the kernel's linker
/// section order, so it cannot be laid out backwards by accident.
///
/// The stack is itself a policy (it models every hook of policy.hpp), so stacks nest and the
/// simulator drives a stack exactly as it drives a single class. An empty pick (nullptr) means
/// the CPU idles.
///
/// Complexity: every hook dispatches in O(number of classes), a compile-time constant (an
/// if-chain over indices); `pick_next` adds the cost of each consulted class's pick.
#ifndef SCHEDCORE_POLICY_CLASS_STACK_HPP
#define SCHEDCORE_POLICY_CLASS_STACK_HPP

#include "schedcore/core/assert.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/traits.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/policy/flags.hpp"
#include "schedcore/policy/policy.hpp"

namespace schedcore {

/// The default `ClassOf`: reads an integer member `sched_class` of the task (the kernel's
/// `p->sched_class`, as an index into the stack).
struct member_sched_class {
  /// The class index of `t`.
  template <class Task>
  static usize index(const Task& t) noexcept {
    return static_cast<usize>(t.sched_class);
  }
};

/// @cond INTERNAL
namespace detail {

template <usize I, class... Ps>
struct class_storage;

template <usize I>
struct class_storage<I> {};

template <usize I, class P, class... Rest>
struct class_storage<I, P, Rest...> : class_storage<I + 1, Rest...> {
  P policy_{};
};

template <usize I, class P, class... Rest>
constexpr P& storage_get(class_storage<I, P, Rest...>& s) noexcept {
  return s.policy_;
}
template <usize I, class P, class... Rest>
constexpr const P& storage_get(const class_storage<I, P, Rest...>& s) noexcept {
  return s.policy_;
}

template <usize I, class... Ps>
struct nth_type;
template <class P, class... Rest>
struct nth_type<0, P, Rest...> {
  using type = P;
};
template <usize I, class P, class... Rest>
struct nth_type<I, P, Rest...> : nth_type<I - 1, Rest...> {};

template <class T, class... Rest>
struct same_task_type : integral_constant<bool, (is_same_v<typename T::task_type, typename Rest::task_type> && ...)> {};

}  // namespace detail
/// @endcond

/// Policies composed by priority on one CPU. `Policies` are listed highest class first; all
/// must share one `task_type`.
/// @tparam ClassOf provides `static usize index(const task_type&) noexcept` (< number of classes)
template <class ClassOf, class... Policies>
class class_stack {
  static_assert(sizeof...(Policies) > 0, "class_stack needs at least one policy");
  static_assert((check_policy<Policies>() && ...), "every member of a class_stack must model the policy interface");
  static_assert(detail::same_task_type<Policies...>::value, "all policies in a class_stack must share task_type");

 public:
  /// The shared task type.
  using task_type = typename detail::nth_type<0, Policies...>::type::task_type;
  /// Number of classes.
  static constexpr usize nr_classes = sizeof...(Policies);
  /// The I-th class's type.
  template <usize I>
  using class_type = typename detail::nth_type<I, Policies...>::type;

  /// The I-th class (0 = most important), for its own configuration API.
  template <usize I>
  constexpr class_type<I>& get() noexcept {
    return detail::storage_get<I>(classes_);
  }
  /// The I-th class (0 = most important), read-only.
  template <usize I>
  constexpr const class_type<I>& get() const noexcept {
    return detail::storage_get<I>(classes_);
  }

  /// Enqueue `t` in its class.
  void enqueue(task_type& t, sched_time now, enqueue_flags flags) noexcept {
    dispatch(t, [&](auto& cls) { cls.enqueue(t, now, flags); });
  }
  /// Dequeue `t` from its class.
  void dequeue(task_type& t, sched_time now, dequeue_flags flags) noexcept {
    dispatch(t, [&](auto& cls) { cls.dequeue(t, now, flags); });
  }
  /// The first non-null pick walking the classes from the most important: the kernel's
  /// `for_each_class(class) if ((p = class->pick_task(rq))) return p;`. nullptr means idle.
  task_type* pick_next(sched_time now) noexcept { return pick_from<0>(now); }
  /// `t` starts running.
  void set_next(task_type& t, sched_time now) noexcept {
    dispatch(t, [&](auto& cls) { cls.set_next(t, now); });
  }
  /// Running `t` stops running but stays runnable.
  void put_prev(task_type& t, sched_time now) noexcept {
    dispatch(t, [&](auto& cls) { cls.put_prev(t, now); });
  }
  /// Tick for the running task's class; true asks for a reschedule.
  bool tick(task_type& curr, sched_time now) noexcept {
    bool resched = false;
    dispatch(curr, [&](auto& cls) { resched = cls.tick(curr, now); });
    return resched;
  }
  /// A woken task of a more important class always preempts; of the same class, its class
  /// decides; of a less important class, never (the kernel's `wakeup_preempt`).
  bool wakeup_preempt(task_type& woken, task_type& curr, sched_time now) noexcept {
    const usize w = class_index(woken), c = class_index(curr);
    if (SCHEDCORE_MISUSE(w >= nr_classes || c >= nr_classes)) return false;  // refuse: a task of no class here
    if (w != c) return w < c;
    bool preempt = false;
    dispatch(curr, [&](auto& cls) { preempt = cls.wakeup_preempt(woken, curr, now); });
    return preempt;
  }
  /// Runnable tasks over all classes.
  usize nr_runnable() const noexcept { return count_from<0>(); }

  /// The core's schedule step: put the previous task back if it is still runnable, pick, and
  /// start the picked task. Returns the task to run (possibly `prev` again) or nullptr (idle).
  /// @pre a `prev` that blocked was already dequeued and is passed with `prev_runnable` false
  task_type* schedule(task_type* prev, bool prev_runnable, sched_time now) noexcept {
    if (prev != nullptr && prev_runnable) put_prev(*prev, now);
    task_type* next = pick_next(now);
    if (next != nullptr) set_next(*next, now);
    return next;
  }

  /// Optional hook `yield`, forwarded (or its default).
  void yield(task_type& curr, sched_time now) noexcept {
    dispatch(curr, [&](auto& cls) { policy_traits<remove_cvref_t<decltype(cls)>>::yield(cls, curr, now); });
  }
  /// Optional hook `prio_changed`, forwarded (or its default).
  void prio_changed(task_type& t, sched_time now) noexcept {
    dispatch(t, [&](auto& cls) { policy_traits<remove_cvref_t<decltype(cls)>>::prio_changed(cls, t, now); });
  }
  /// Optional hook `task_new`, forwarded to the child's class (or its default).
  void task_new(task_type& child, task_type* parent, sched_time now) noexcept {
    dispatch(child, [&](auto& cls) {
      policy_traits<remove_cvref_t<decltype(cls)>>::task_new(cls, child, parent, now);
    });
  }
  /// Optional hook `task_dead`, forwarded (or its default).
  void task_dead(task_type& t, sched_time now) noexcept {
    dispatch(t, [&](auto& cls) { policy_traits<remove_cvref_t<decltype(cls)>>::task_dead(cls, t, now); });
  }
  /// Optional hook `migrate_task_rq`, forwarded to `t`'s class (or its default): call it on the
  /// stack of the CPU `t` last ran on, before enqueuing it (asleep) on another CPU's stack.
  void migrate_task_rq(task_type& t, sched_time now) noexcept {
    dispatch(t, [&](auto& cls) { policy_traits<remove_cvref_t<decltype(cls)>>::migrate_task_rq(cls, t, now); });
  }
  /// The earliest class timer over all classes; false when no class has one pending.
  bool next_timer(sched_time& when) const noexcept { return next_timer_from<0>(when, false); }
  /// Runs every class's due timers; true when any asks for a reschedule.
  bool timer(sched_time now) noexcept { return timer_from<0>(now); }
  /// Optional hook `switched_from`, forwarded to `t`'s current class (call it after the
  /// dequeue and before changing `t`'s class index).
  void switched_from(task_type& t, sched_time now) noexcept {
    dispatch(t, [&](auto& cls) { policy_traits<remove_cvref_t<decltype(cls)>>::switched_from(cls, t, now); });
  }
  /// Optional hook `take_resched`, asked of every class (each request is cleared): true when
  /// one asked for a reschedule inside a dequeue, which returns nothing. Call it after
  /// dequeuing a task that was not running (a migration pulling it away), whose dequeue
  /// charged the running one (the kernel reschedules there, from update_curr).
  bool take_resched() noexcept { return take_resched_from<0>(); }
  /// Optional hook `change_resched`, asked of `curr`'s class after the change (the class it is
  /// in now: the kernel's check_class_changed calls the task's class's `switched_to` or
  /// `prio_changed`), or its default (true).
  bool change_resched(task_type& curr, const param_change& c, sched_time now) noexcept {
    bool r = true;
    dispatch(curr, [&](auto& cls) { r = policy_traits<remove_cvref_t<decltype(cls)>>::change_resched(cls, curr, c, now); });
    return r;
  }
  /// Optional hook `delayed`, asked of `t`'s class: `t` blocked but is still queued there (a
  /// delayed dequeue), so its wakeup must enqueue it on this run queue.
  bool delayed(const task_type& t) const noexcept {
    bool d = false;
    dispatch(t, [&](const auto& cls) { d = policy_traits<remove_cvref_t<decltype(cls)>>::delayed(cls, t); });
    return d;
  }
  /// Every class's `verify()` (or true where a class has none).
  bool verify() const noexcept { return verify_from<0>(); }

  /// The class index of `t`, as `ClassOf` reports it. Not checked here: every hook that takes
  /// a task reports an index out of range once, as a misuse, and refuses (a handler that halts
  /// on assertions must still reach the documented refusal, so there is no second report).
  static usize class_index(const task_type& t) noexcept { return ClassOf::index(t); }

 private:
  template <class F>
  void dispatch(const task_type& t, F&& f) noexcept {
    const usize i = class_index(t);
    if (SCHEDCORE_MISUSE(i >= nr_classes)) return;  // refuse: a task of no class in this stack
    dispatch_from<0>(i, f);
  }
  template <usize I, class F>
  void dispatch_from(usize i, F& f) noexcept {
    if constexpr (I < nr_classes) {
      if (i == I) {
        f(get<I>());
      } else {
        dispatch_from<I + 1>(i, f);
      }
    }
  }
  template <class F>
  void dispatch(const task_type& t, F&& f) const noexcept {
    const usize i = class_index(t);
    if (SCHEDCORE_MISUSE(i >= nr_classes)) return;
    dispatch_from<0>(i, f);
  }
  template <usize I, class F>
  void dispatch_from(usize i, F& f) const noexcept {
    if constexpr (I < nr_classes) {
      if (i == I) {
        f(get<I>());
      } else {
        dispatch_from<I + 1>(i, f);
      }
    }
  }
  template <usize I>
  task_type* pick_from(sched_time now) noexcept {
    if constexpr (I < nr_classes) {
      if (task_type* t = get<I>().pick_next(now)) return t;
      return pick_from<I + 1>(now);
    } else {
      return nullptr;
    }
  }
  template <usize I>
  usize count_from() const noexcept {
    if constexpr (I < nr_classes) {
      return get<I>().nr_runnable() + count_from<I + 1>();
    } else {
      return 0;
    }
  }
  template <usize I>
  bool next_timer_from(sched_time& when, bool found) const noexcept {
    if constexpr (I < nr_classes) {
      sched_time t{};
      if (policy_traits<class_type<I>>::next_timer(get<I>(), t) && (!found || t < when)) {
        when = t;
        found = true;
      }
      return next_timer_from<I + 1>(when, found);
    } else {
      return found;
    }
  }
  template <usize I>
  bool timer_from(sched_time now) noexcept {
    if constexpr (I < nr_classes) {
      const bool resched = policy_traits<class_type<I>>::timer(get<I>(), now);
      return timer_from<I + 1>(now) || resched;
    } else {
      return false;
    }
  }
  template <usize I>
  bool take_resched_from() noexcept {
    if constexpr (I < nr_classes) {
      const bool resched = policy_traits<class_type<I>>::take_resched(get<I>());
      return take_resched_from<I + 1>() || resched;
    } else {
      return false;
    }
  }
  template <usize I>
  bool verify_from() const noexcept {
    if constexpr (I < nr_classes) {
      return policy_traits<class_type<I>>::verify(get<I>()) && verify_from<I + 1>();
    } else {
      return true;
    }
  }

  detail::class_storage<0, Policies...> classes_{};  ///< one run queue per class, by priority
};

}  // namespace schedcore

#endif
