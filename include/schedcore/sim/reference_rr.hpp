/// @file
/// @brief HOSTED. `sim::reference_rr_policy`: a deliberately simple policy used to develop and
/// test the simulator independently of the library's real policies, and as the stand-in for a
/// class (real-time, deadline) whose real header is not available.
///
/// Semantics (small enough to compute schedules by hand):
/// - priority: fifo/rr tasks use `99 - rt_priority` (0 = most urgent, as the kernel's prio);
///   deadline tasks use 0; normal/batch/idle tasks all use 120 (nice is ignored: plain RR).
/// - pick: the head of the most urgent non-empty level. A running task stays at the head of its
///   level while it runs.
/// - timeslice (knob `timeslice`, default 10 ms): a task that has run `timeslice` since it was
///   last queued afresh (woke or moved) or went to the tail asks for a reschedule at the next tick and goes to the tail of its
///   level; a preemption does not end the slice (it runs the rest when it is back, as SCHED_RR's
///   time_slice survives a preemption), so a task preempted more often than its slice still
///   takes turns. fifo tasks have no slice. `yield` moves the task to the tail with a fresh slice.
/// - wakeup preemption: a woken task preempts when strictly more urgent.
#ifndef SCHEDCORE_SIM_REFERENCE_RR_HPP
#define SCHEDCORE_SIM_REFERENCE_RR_HPP

#include <cstdint>
#include <list>
#include <map>

#include "schedcore/core/errc.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/policy/flags.hpp"
#include "schedcore/policy/params.hpp"

namespace schedcore {
namespace sim {

/// Per-task state of `reference_rr_policy`.
struct reference_rr_entity {
  int rr_prio = 120;                     ///< 0..99 real time, 120 normal (smaller = more urgent)
  bool rr_fifo = false;                  ///< SCHED_FIFO: no timeslice
  bool rr_queued = false;                ///< in a level list
  bool rr_expired = false;               ///< used up its slice; goes to the tail at put_prev
  std::uint64_t rr_exec_start = 0;       ///< ns, when it was last set running
  std::int64_t rr_used = 0;              ///< ns of its slice run before its last preemption
  std::list<void*>::iterator rr_it{};    ///< position in its level list
};

/// A strict-priority round robin over `std::list`s (hosted; not for ports).
template <class Task, class EntityOf = base_entity<reference_rr_entity>>
class reference_rr_policy {
 public:
  using task_type = Task;  ///< the task type

  /// Tunables.
  struct knobs {
    s64 timeslice = msec(10);  ///< ns a normal or rr task runs before round robin
  };
  /// The knob table (name, unit, field, bounds, help).
  static constexpr knob_info<knobs> knob_table[] = {
      {"timeslice", knob_unit::time_ns, &knobs::timeslice, usec(1), sec(10),
       "round-robin slice of the reference policy (ns)"},
  };
  /// Validates and applies `k`; changes nothing on error.
  errc configure(const knobs& k) noexcept {
    const errc e = validate_knobs(k, knob_table);
    if (e == errc::ok) knobs_ = k;
    return e;
  }
  /// Loads `p` into `t`'s entity.
  errc setup(Task& t, const sched_params& p) noexcept {
    const errc e = validate(p);
    if (e != errc::ok) return e;
    auto& en = EntityOf::get(t);
    if (en.rr_queued) return errc::busy;
    en.rr_fifo = p.kind == sched_kind::fifo;
    if (p.kind == sched_kind::fifo || p.kind == sched_kind::rr) {
      en.rr_prio = rt_priority_max - p.rt_priority;
    } else if (p.kind == sched_kind::deadline) {
      en.rr_prio = 0;
    } else {
      en.rr_prio = 120;
    }
    return errc::ok;
  }

  /// Queues `t` at the tail of its level (head with `enqueue_flags::head`).
  void enqueue(Task& t, sched_time, enqueue_flags f) noexcept {
    auto& en = EntityOf::get(t);
    auto& level = levels_[en.rr_prio];
    en.rr_it = has(f, enqueue_flags::head) ? level.insert(level.begin(), &t) : level.insert(level.end(), &t);
    en.rr_queued = true;
    ++nr_;
  }
  /// Removes `t` (if queued); its next run starts a fresh slice.
  void dequeue(Task& t, sched_time, dequeue_flags) noexcept {
    auto& en = EntityOf::get(t);
    if (!en.rr_queued) return;
    en.rr_used = 0;  // a sleeper wakes with a fresh slice
    auto it = levels_.find(en.rr_prio);
    it->second.erase(en.rr_it);
    if (it->second.empty()) levels_.erase(it);
    en.rr_queued = false;
    --nr_;
  }
  /// The head of the most urgent non-empty level, or nullptr when empty.
  Task* pick_next(sched_time) noexcept {
    if (levels_.empty()) return nullptr;
    return static_cast<Task*>(levels_.begin()->second.front());
  }
  /// `t` starts running: it moves to the head of its level.
  void set_next(Task& t, sched_time now) noexcept {
    auto& en = EntityOf::get(t);
    en.rr_exec_start = now.ns();
    en.rr_expired = false;
    // A running task sits at the head of its level (so pick_next returns it while it runs).
    auto& level = levels_[en.rr_prio];
    level.splice(level.begin(), level, en.rr_it);
  }
  /// Running `t` stops: to its level's tail with a new slice if its slice expired, else it
  /// keeps its place and the slice it has left.
  void put_prev(Task& t, sched_time now) noexcept {
    auto& en = EntityOf::get(t);
    if (en.rr_expired) {
      to_tail(t);
      en.rr_used = 0;
    } else {
      en.rr_used += static_cast<s64>(now.ns() - en.rr_exec_start);  // preempted: the rest is still its
    }
    en.rr_expired = false;
  }
  /// True (reschedule) when a non-FIFO `curr` has run its `timeslice`.
  bool tick(Task& curr, sched_time now) noexcept {
    auto& en = EntityOf::get(curr);
    if (en.rr_fifo) return false;
    if (en.rr_used + static_cast<s64>(now.ns() - en.rr_exec_start) >= knobs_.timeslice) {
      en.rr_expired = true;
      return true;
    }
    return false;
  }
  /// Only a strictly more urgent level preempts.
  bool wakeup_preempt(Task& woken, Task& curr, sched_time) noexcept {
    return EntityOf::get(woken).rr_prio < EntityOf::get(curr).rr_prio;
  }
  /// Queued tasks including a running one.
  usize nr_runnable() const noexcept { return nr_; }
  /// sched_yield(): `curr` moves to its level's tail with a new slice.
  void yield(Task& curr, sched_time now) noexcept {
    auto& en = EntityOf::get(curr);
    to_tail(curr);
    en.rr_used = 0;
    en.rr_exec_start = now.ns();
  }

 private:
  void to_tail(Task& t) noexcept {
    auto& en = EntityOf::get(t);
    if (!en.rr_queued) return;
    auto& level = levels_[en.rr_prio];
    level.splice(level.end(), level, en.rr_it);
  }

  std::map<int, std::list<void*>> levels_;  ///< prio -> FIFO of tasks (Task* stored as void*)
  usize nr_ = 0;                            ///< queued tasks, running one included
  knobs knobs_{};                           ///< current tunables
};

}  // namespace sim
}  // namespace schedcore

#endif
