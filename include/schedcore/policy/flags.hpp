/// @file
/// @brief Flags passed to `enqueue` and `dequeue`: why a task enters or leaves a run queue;
/// and `param_change`, what a change of the running task's parameters was (`change_resched`).
///
/// They mirror the kernel's `ENQUEUE_*` / `DEQUEUE_*` bits where the meaning is the same, so a
/// kernel port can translate one to one.
#ifndef SCHEDCORE_POLICY_FLAGS_HPP
#define SCHEDCORE_POLICY_FLAGS_HPP

#include "schedcore/core/types.hpp"

namespace schedcore {

/// Why a task is enqueued (bit set).
enum class enqueue_flags : u8 {
  none = 0,
  wakeup = 1u << 0,    ///< the task woke from a sleep (sleep-credit and placement rules apply)
  restore = 1u << 1,   ///< re-enqueued after a `dequeue(save)` around a parameter change: keep state
  head = 1u << 2,      ///< queue at the head of its level instead of the tail
  initial = 1u << 3,   ///< first enqueue of a fresh task (after `task_new`)
  migrated = 1u << 4,  ///< arrived from another CPU's run queue
  /// With `wakeup`: woken from interrupt context (a timer expiry or a device completion),
  /// not by another task; the kernel's `in_interrupt()` at `try_to_wake_up` (2.6.21's o1 gives
  /// such a wakee its whole first run-queue wait as sleep credit, SLEEP_INTERRUPTED).
  interrupt = 1u << 5,
  /// With `wakeup`: the task slept uninterruptibly (TASK_UNINTERRUPTIBLE: disk I/O, a page-in),
  /// whoever woke it. 2.6.21's o1 credits such a sleep least (SLEEP_NONINTERACTIVE, capped at
  /// INTERACTIVE_SLEEP); policies without the distinction ignore it.
  uninterruptible = 1u << 6,
};

/// Why a task is dequeued (bit set).
enum class dequeue_flags : u8 {
  none = 0,
  sleep = 1u << 0,      ///< the task blocks (it will come back with `enqueue_flags::wakeup`)
  save = 1u << 1,       ///< temporarily, around a parameter change (nice, policy, priority)
  migrating = 1u << 2,  ///< leaving for another CPU's run queue
  dead = 1u << 3,       ///< the task exits
  /// With `sleep`: a sleep that completes at once and is never delayed (the kernel's
  /// DEQUEUE_SPECIAL): a throttled group's node leaving its parent (`group_policy`, cpu.max).
  special = 1u << 4,
  /// With `save`: the change moves the task in its queue's order (a policy, priority or group
  /// change: sched_setscheduler, rt_mutex_setprio, sched_move_task), the kernel's DEQUEUE_MOVE.
  /// A bare `save` is a renice (set_user_nice): the fair policies then leave min_vruntime where
  /// it was (dequeue_entity updates it unless SAVE comes without MOVE).
  move = 1u << 5,
};

/// Union of enqueue flags.
constexpr enqueue_flags operator|(enqueue_flags a, enqueue_flags b) noexcept {
  return static_cast<enqueue_flags>(static_cast<u8>(static_cast<u8>(a) | static_cast<u8>(b)));
}
/// Union of dequeue flags.
constexpr dequeue_flags operator|(dequeue_flags a, dequeue_flags b) noexcept {
  return static_cast<dequeue_flags>(static_cast<u8>(static_cast<u8>(a) | static_cast<u8>(b)));
}
/// True when `flags` contains every bit of `bit`.
constexpr bool has(enqueue_flags flags, enqueue_flags bit) noexcept {
  return (static_cast<u8>(flags) & static_cast<u8>(bit)) == static_cast<u8>(bit);
}
/// True when `flags` contains every bit of `bit`.
constexpr bool has(dequeue_flags flags, dequeue_flags bit) noexcept {
  return (static_cast<u8>(flags) & static_cast<u8>(bit)) == static_cast<u8>(bit);
}

/// A change of the running task's parameters, as the core reports it to the class the task is
/// in afterwards (optional hook `change_resched`, policy.hpp): the kernel's `oldprio` and
/// `p->prio` (lower is more urgent: -1 SCHED_DEADLINE, 0..99 real time as 99 - rt_priority,
/// 100..139 the fair classes, with a policy's dynamic priority where it has one), whether the
/// task entered this class with the change (check_class_changed's `switched_to`, else
/// `prio_changed`), and whether it was a nice change (set_user_nice, which calls the class's
/// `prio_changed` itself; 2.6's had its own rule) rather than sched_setscheduler or a priority
/// inheritance boost (rt_mutex_setprio).
struct param_change {
  int oldprio = 0;        ///< the kernel priority before the change
  int prio = 0;           ///< the kernel priority after it
  bool switched = false;  ///< the task entered this class with the change
  bool nice = false;      ///< a nice change (set_user_nice)
};

}  // namespace schedcore

#endif
