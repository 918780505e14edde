/// @file
/// @brief What every policy shares at its edges: per-task scheduling parameters
/// (`sched_params`, the `sched_setattr` view), entity accessors, and knob descriptions.
///
/// Conventions every policy in `policy/` follows, so that a port or the simulator can drive
/// any of them the same way:
/// - `template <class Task, class EntityOf = base_entity<..._entity>> class NAME_policy`: the
///   per-task state is an *entity* struct the task embeds: by inheritance with the default
///   `base_entity`, as a data member with `member_entity<&Task::field>`, or anywhere else
///   through an accessor of your own with the same static `get` and `task_of`.
/// - `errc setup(Task&, const sched_params&) noexcept`: validates and loads a task's
///   parameters into its entity; refuses (returns an error, changes nothing) on bad input,
///   and with `errc::busy` while the task is queued (dequeue with `save` first).
/// - `struct knobs` of `s64` fields (times in ns) with the era's defaults,
///   `errc configure(const knobs&) noexcept` (validates, changes nothing on error), and
///   `static constexpr knob_info knob_table[]` naming each knob as the kernel tunable of its
///   era (without `sched_` prefix and unit suffix: `rr_interval`, `latency`, `granularity`).
#ifndef SCHEDCORE_POLICY_PARAMS_HPP
#define SCHEDCORE_POLICY_PARAMS_HPP

#include "schedcore/core/errc.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/traits.hpp"
#include "schedcore/core/types.hpp"

namespace schedcore {

/// The scheduling policy a task asks for (the kernel's `SCHED_*`).
enum class sched_kind : u8 {
  normal = 0,    ///< SCHED_NORMAL / SCHED_OTHER: time sharing by nice
  fifo = 1,      ///< SCHED_FIFO: real time, runs until it blocks or yields
  rr = 2,        ///< SCHED_RR: real time, round robin among equal priorities
  batch = 3,     ///< SCHED_BATCH: CPU-bound, no wakeup favours
  idle = 5,      ///< SCHED_IDLE / SCHED_IDLEPRIO: runs only when nothing else wants the CPU
  deadline = 6,  ///< SCHED_DEADLINE: EDF with a constant bandwidth server
};

/// Lowest (most favoured) nice value.
inline constexpr int nice_min = -20;
/// Highest (least favoured) nice value.
inline constexpr int nice_max = 19;
/// Number of nice levels (the kernel's `NICE_WIDTH`).
inline constexpr int nice_width = 40;
/// Highest POSIX real-time priority (`sched_get_priority_max(SCHED_FIFO)`).
inline constexpr int rt_priority_max = 99;
/// Lowest POSIX real-time priority.
inline constexpr int rt_priority_min = 1;

/// True for nice values in [-20, 19].
constexpr bool valid_nice(int nice) noexcept { return nice >= nice_min && nice <= nice_max; }
/// The kernel's `USER_PRIO(NICE_TO_PRIO(nice))`: nice -20..19 as 0..39. @pre valid_nice(nice)
constexpr unsigned nice_to_user_prio(int nice) noexcept { return static_cast<unsigned>(nice - nice_min); }

/// A task's scheduling parameters (the `struct sched_attr` view). Which fields matter depends
/// on `kind`: nice for normal/batch/idle, rt_priority for fifo/rr, the three times for deadline.
struct sched_params {
  sched_kind kind = sched_kind::normal;  ///< requested policy
  s8 nice = 0;                           ///< -20..19 (normal, batch, idle)
  u8 rt_priority = 0;                    ///< 1..99, higher is more urgent (fifo, rr)
  duration_ns runtime = 0;               ///< deadline: budget per period, ns
  duration_ns deadline = 0;              ///< deadline: relative deadline, ns
  duration_ns period = 0;                ///< deadline: period, ns (0 means equal to deadline)
  bool reclaim = false;                  ///< deadline: SCHED_FLAG_RECLAIM, GRUB reclaiming (ignored otherwise, as the kernel does)
  bool dl_overrun = false;               ///< deadline: SCHED_FLAG_DL_OVERRUN, report runtime overruns (SIGXCPU; ignored otherwise)
};

/// Whether `a` and `b` are the same request, every field and flag compared (the kernel's
/// __sched_setscheduler changes nothing for an identical one; dl_param_changed compares flags).
constexpr bool same_params(const sched_params& a, const sched_params& b) noexcept {
  return a.kind == b.kind && a.nice == b.nice && a.rt_priority == b.rt_priority && a.runtime == b.runtime &&
         a.deadline == b.deadline && a.period == b.period && a.reclaim == b.reclaim && a.dl_overrun == b.dl_overrun;
}

/// Checks the fields `kind` uses, as `sched_setattr` does. Policies call it first in `setup`.
constexpr errc validate(const sched_params& p) noexcept {
  switch (p.kind) {
    case sched_kind::normal:
    case sched_kind::batch:
    case sched_kind::idle:
      return valid_nice(p.nice) ? errc::ok : errc::invalid_argument;
    case sched_kind::fifo:
    case sched_kind::rr:
      return (p.rt_priority >= rt_priority_min && p.rt_priority <= rt_priority_max) ? errc::ok
                                                                                    : errc::out_of_range;
    case sched_kind::deadline: {
      const duration_ns period = p.period == 0 ? p.deadline : p.period;
      if (p.runtime <= 0 || p.deadline <= 0 || period <= 0) return errc::invalid_argument;
      if (p.runtime > p.deadline || p.deadline > period) return errc::inverted;
      return errc::ok;
    }
  }
  return errc::invalid_argument;
}

/// Entity accessor for an entity embedded as a base class of the task (the default).
template <class Entity>
struct base_entity {
  /// The entity of `t`.
  template <class Task>
  static constexpr Entity& get(Task& t) noexcept {
    return static_cast<Entity&>(t);
  }
  /// The entity of `t`.
  template <class Task>
  static constexpr const Entity& get(const Task& t) noexcept {
    return static_cast<const Entity&>(t);
  }
  /// The task that embeds entity `e`.
  template <class Task>
  static constexpr Task& task_of(Entity& e) noexcept {
    return static_cast<Task&>(e);
  }
};

/// Entity accessor for an entity held as a data member: `eevdf_policy<task,
/// member_entity<&task::fair>>`. For a task that cannot derive from the entity (a struct
/// shared with C code, one entity type held twice, a layout fixed by an ABI). `Task` is the
/// member's class or a class derived from it. The way back (`task_of`, the kernel's
/// container_of) subtracts the member's offset, read from the member pointer as
/// `rb_member` does: no `offsetof`, which a task with several entity bases (not
/// standard-layout) does not allow. Costs what `base_entity` costs: one constant offset.
template <auto Member>
struct member_entity {
  /// The class that declares the member.
  using owner_type = typename detail::member_pointer_traits<decltype(Member)>::class_type;
  /// The entity type.
  using entity_type = typename detail::member_pointer_traits<decltype(Member)>::member_type;
  /// The entity of `t`.
  template <class Task>
  static constexpr entity_type& get(Task& t) noexcept {
    return static_cast<owner_type&>(t).*Member;
  }
  /// The entity of `t`.
  template <class Task>
  static constexpr const entity_type& get(const Task& t) noexcept {
    return static_cast<const owner_type&>(t).*Member;
  }
  /// The task that embeds entity `e`.
  template <class Task>
  static Task& task_of(entity_type& e) noexcept {
    // Through void*: the owner is as aligned as it is, which -Wcast-align cannot know.
    auto* owner = static_cast<owner_type*>(static_cast<void*>(reinterpret_cast<char*>(&e) - detail::member_offset(Member)));
    return static_cast<Task&>(*owner);
  }
};

/// The unit a knob is expressed in (for parsing `2ms`, `750us`, plain counts, booleans).
enum class knob_unit : u8 {
  time_ns,  ///< a duration; stored in ns, accepts unit suffixes
  count,    ///< a plain integer (HZ, CPU count, percentages)
  flag,     ///< 0 or 1
};

/// Describes one field of a policy's `knobs` struct: name, unit, bounds, meaning.
template <class Knobs>
struct knob_info {
  const char* name;     ///< the era's tunable name without `sched_` and unit suffix
  knob_unit unit;       ///< how values are written
  s64 Knobs::*field;    ///< where the value lives
  s64 min;              ///< smallest accepted value (inclusive)
  s64 max;              ///< largest accepted value (inclusive)
  const char* help;     ///< one line: meaning and source
};

/// @cond INTERNAL
namespace detail {
// One knob at a time, by a compile-time index: every bound and field offset becomes an
// immediate, so the table itself (and its name and help strings) is not emitted into a
// firmware that only configures a policy. (A loop over more than three knobs was not unrolled
// at -Os, and then the table and its strings came along: 344 bytes on a Cortex-M3.)
template <usize I, class Knobs, usize N>
constexpr errc validate_knobs_from(const Knobs& k, const knob_info<Knobs> (&table)[N]) noexcept {
  if constexpr (I == N) {
    return errc::ok;
  } else {
    const s64 v = k.*(table[I].field);
    if (v < table[I].min || v > table[I].max) return errc::invalid_argument;
    return validate_knobs_from<I + 1>(k, table);
  }
}
}  // namespace detail
/// @endcond

/// Checks every knob of `k` against its table's bounds; the first violation's error.
template <class Knobs, usize N>
constexpr errc validate_knobs(const Knobs& k, const knob_info<Knobs> (&table)[N]) noexcept {
  return detail::validate_knobs_from<0>(k, table);
}

}  // namespace schedcore

#endif
