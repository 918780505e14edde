/// @file
/// @brief Wrap-safe 64-bit time points and signed nanosecond durations.
///
/// Clocks and virtual clocks (vruntime, virtual deadlines) are unsigned 64-bit counters that
/// may wrap. Two points compare by the sign of their difference, as the kernel's
/// `(s64)(a - b) < 0`: correct whenever the points are less than 2^63 ns (292 years) apart,
/// whatever their absolute values. A run started at 2^64 - 1 s orders events exactly like one
/// started at 0. `operator<` is therefore *not* a total order on arbitrary values; it is on
/// any set of points spanning less than 2^63.
///
/// Durations are signed 64-bit nanoseconds (`duration_ns`): lag and "time since" are signed.
/// Everything is constexpr, freestanding and free on 32-bit targets apart from the 64-bit
/// subtract.
#ifndef SCHEDCORE_CORE_TIME_HPP
#define SCHEDCORE_CORE_TIME_HPP

#include "schedcore/core/types.hpp"

namespace schedcore {

/// A signed span of time in nanoseconds.
using duration_ns = s64;

/// `n` nanoseconds.
constexpr duration_ns nsec(s64 n) noexcept { return n; }
/// `n` microseconds in nanoseconds.
constexpr duration_ns usec(s64 n) noexcept { return n * 1000; }
/// `n` milliseconds in nanoseconds.
constexpr duration_ns msec(s64 n) noexcept { return n * 1000 * 1000; }
/// `n` seconds in nanoseconds.
constexpr duration_ns sec(s64 n) noexcept { return n * 1000 * 1000 * 1000; }

/// True when `a` is strictly before `b` on the wrapping 64-bit circle.
constexpr bool wrap_before(u64 a, u64 b) noexcept { return static_cast<s64>(a - b) < 0; }
/// True when `a` is strictly after `b` on the wrapping 64-bit circle.
constexpr bool wrap_after(u64 a, u64 b) noexcept { return static_cast<s64>(a - b) > 0; }

/// A point on a wrapping 64-bit nanosecond clock. `Tag` keeps clocks apart at compile time:
/// a wall-clock `sched_time` cannot be compared with a virtual `vtime` by accident.
template <class Tag>
class basic_time {
 public:
  /// Time zero.
  constexpr basic_time() noexcept = default;
  /// The point `ns` nanoseconds after zero (mod 2^64).
  constexpr explicit basic_time(u64 ns) noexcept : ns_(ns) {}

  /// The raw counter in nanoseconds.
  constexpr u64 ns() const noexcept { return ns_; }

  /// Advances by `d` (which may be negative), wrapping mod 2^64.
  constexpr basic_time& operator+=(duration_ns d) noexcept {
    ns_ += static_cast<u64>(d);
    return *this;
  }
  /// Moves back by `d`, wrapping mod 2^64.
  constexpr basic_time& operator-=(duration_ns d) noexcept {
    ns_ -= static_cast<u64>(d);
    return *this;
  }
  /// `t` advanced by `d`.
  friend constexpr basic_time operator+(basic_time t, duration_ns d) noexcept { return t += d; }
  /// `t` moved back by `d`.
  friend constexpr basic_time operator-(basic_time t, duration_ns d) noexcept { return t -= d; }
  /// Signed distance `a - b` (valid while |a - b| < 2^63).
  friend constexpr duration_ns operator-(basic_time a, basic_time b) noexcept {
    return static_cast<duration_ns>(a.ns_ - b.ns_);
  }

  /// Equality of the raw counters.
  friend constexpr bool operator==(basic_time a, basic_time b) noexcept { return a.ns_ == b.ns_; }
  /// Inequality of the raw counters.
  friend constexpr bool operator!=(basic_time a, basic_time b) noexcept { return a.ns_ != b.ns_; }
  /// Wrap-safe "a is before b".
  friend constexpr bool operator<(basic_time a, basic_time b) noexcept { return wrap_before(a.ns_, b.ns_); }
  /// Wrap-safe "a is after b".
  friend constexpr bool operator>(basic_time a, basic_time b) noexcept { return wrap_after(a.ns_, b.ns_); }
  /// Wrap-safe "a is not after b".
  friend constexpr bool operator<=(basic_time a, basic_time b) noexcept { return !wrap_after(a.ns_, b.ns_); }
  /// Wrap-safe "a is not before b".
  friend constexpr bool operator>=(basic_time a, basic_time b) noexcept { return !wrap_before(a.ns_, b.ns_); }

 private:
  u64 ns_ = 0;  ///< nanoseconds since the clock's (arbitrary) zero, mod 2^64
};

/// Tag of the wall (task) clock that the port or simulator passes to every hook.
struct wall_clock_tag {};
/// Tag of a per-run-queue virtual clock (vruntime, virtual deadlines, BFS deadlines).
struct virtual_clock_tag {};

/// A point on the wall clock: what every policy hook receives as `now`.
using sched_time = basic_time<wall_clock_tag>;
/// A point on a virtual clock (vruntime and virtual deadlines).
using vtime = basic_time<virtual_clock_tag>;

/// The earlier of two points, wrap-safe (the kernel's `min_vruntime()`).
template <class Tag>
constexpr basic_time<Tag> earlier_of(basic_time<Tag> a, basic_time<Tag> b) noexcept {
  return b < a ? b : a;
}
/// The later of two points, wrap-safe (the kernel's `max_vruntime()`).
template <class Tag>
constexpr basic_time<Tag> later_of(basic_time<Tag> a, basic_time<Tag> b) noexcept {
  return a < b ? b : a;
}

}  // namespace schedcore

#endif
