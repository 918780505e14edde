// A small deterministic uniprocessor driver for policy oracle tests (the full simulator is
// schedsim; this one is small enough to reason about by hand).
//
// It owns the clock and calls a policy (or a class_stack) exactly as a kernel core would:
//   - a periodic tick every 1/hz seconds: policy.tick(curr) -> reschedule if true;
//   - a task whose CPU burst ends blocks: dequeue(sleep), then schedule;
//   - a task whose sleep ends wakes: enqueue(wakeup), wakeup_preempt(woken, curr) -> resched;
//   - at every event, timer(now) runs the class timers due (next_timer's instant is an event
//     too) -> reschedule if true;
//   - a reschedule is schedule(prev, prev_still_runnable): put_prev, pick_next, set_next.
// Events inside a tick are exact to the nanosecond. Ties at one instant are processed in a
// fixed order: wakeups (by task index), then burst completion, then class timers, then the
// tick.
//
// Task behaviour: `hog` (always runnable) or a cycle of `run_ns` CPU then `sleep_ns` sleeping,
// starting after `start_ns`. Per task it measures CPU time, switches (times it left the CPU),
// the longest time runnable-but-not-running, and wakeup-to-run latencies.
#ifndef SCHEDCORE_TESTS_TICK_DRIVER_HPP
#define SCHEDCORE_TESTS_TICK_DRIVER_HPP

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "schedcore/core/time.hpp"
#include "schedcore/policy/flags.hpp"
#include "schedcore/policy/policy.hpp"

namespace schedcore_test {

using schedcore::dequeue_flags;
using schedcore::enqueue_flags;
using schedcore::sched_time;

/// How a driven task behaves.
struct behaviour {
  std::int64_t run_ns = 0;    ///< CPU per cycle; 0 means a pure hog
  std::int64_t sleep_ns = 0;  ///< sleep per cycle
  std::int64_t start_ns = 0;  ///< first wakeup, relative to the driver's origin
  static behaviour hog(std::int64_t start = 0) { return {0, 0, start}; }
  static behaviour cycle(std::int64_t run, std::int64_t sleep, std::int64_t start = 0) { return {run, sleep, start}; }
};

/// What the driver measured for one task.
struct task_stats {
  std::int64_t cpu_ns = 0;
  std::uint64_t switches = 0;        ///< times it left the CPU
  std::int64_t max_wait_ns = 0;      ///< longest runnable-but-not-running stretch
  std::vector<std::int64_t> wakeup_latency_ns;
  std::uint64_t runs = 0;            ///< times it was picked
};

template <class Policy>
class tick_driver {
 public:
  using task_type = typename Policy::task_type;

  /// `origin` lets tests start the clock anywhere (e.g. just below 2^64).
  explicit tick_driver(Policy& policy, int hz = 1000, sched_time origin = sched_time{})
      : policy_(policy), tick_ns_(1000000000 / hz), origin_(origin), now_(origin), next_tick_(origin + tick_ns_) {}

  /// Adds a task; it wakes at origin + b.start_ns. Returns its index.
  std::size_t add(task_type& t, behaviour b) {
    slots_.push_back(slot{&t, b, state::sleeping, origin_ + b.start_ns, 0, now_, now_});
    stats_.emplace_back();
    return slots_.size() - 1;
  }

  /// Runs until origin + `until_ns`.
  void run_until(std::int64_t until_ns) {
    const sched_time end = origin_ + until_ns;
    while (now_ < end) {
      sched_time next = next_tick_;
      for (const slot& s : slots_)
        if (s.st == state::sleeping && s.wake_at < next) next = s.wake_at;
      if (curr_ != npos && slots_[curr_].b.run_ns > 0) {
        const sched_time done = now_ + slots_[curr_].burst_left;
        if (done < next) next = done;
      }
      sched_time timer_at{};
      if (policy_.next_timer(timer_at) && timer_at < next) next = timer_at;
      if (end < next) next = end;
      advance_to(next);
      if (now_ == end) break;
      bool resched = false;
      for (std::size_t i = 0; i < slots_.size(); ++i) {
        slot& s = slots_[i];
        if (s.st != state::sleeping || s.wake_at != now_) continue;
        s.st = state::runnable;
        s.burst_left = s.b.run_ns;
        s.runnable_since = now_;
        s.woke_at = now_;
        s.pending_latency = true;
        policy_.enqueue(*s.t, now_, enqueue_flags::wakeup);
        if (curr_ == npos || policy_.wakeup_preempt(*s.t, *slots_[curr_].t, now_)) resched = true;
      }
      bool curr_blocked = false;
      if (curr_ != npos && slots_[curr_].b.run_ns > 0 && slots_[curr_].burst_left == 0) {
        slot& s = slots_[curr_];
        policy_.dequeue(*s.t, now_, dequeue_flags::sleep);
        s.st = state::sleeping;
        s.wake_at = now_ + s.b.sleep_ns;
        curr_blocked = true;
        resched = true;
      }
      if (policy_.timer(now_)) resched = true;  // class timers due now (replenish, unthrottle)
      if (now_ == next_tick_) {
        next_tick_ = next_tick_ + tick_ns_;
        if (curr_ != npos && !curr_blocked && policy_.tick(*slots_[curr_].t, now_)) resched = true;
      }
      if (resched) reschedule(curr_blocked);
    }
  }

  const task_stats& stats(std::size_t i) const { return stats_[i]; }
  sched_time now() const { return now_; }
  /// Index of the running task, or npos.
  std::size_t current() const { return curr_; }
  static constexpr std::size_t npos = std::numeric_limits<std::size_t>::max();
  std::uint64_t context_switches() const { return context_switches_; }
  /// Sequence of task indices in the order they were switched to (only changes are recorded).
  const std::vector<std::size_t>& switch_log() const { return log_; }

 private:
  enum class state { sleeping, runnable };
  struct slot {
    task_type* t;
    behaviour b;
    state st;
    sched_time wake_at;
    std::int64_t burst_left;
    sched_time runnable_since;
    sched_time woke_at;
    bool pending_latency = false;
  };

  void advance_to(sched_time next) {
    const std::int64_t delta = next - now_;
    if (curr_ != npos) {
      stats_[curr_].cpu_ns += delta;
      if (slots_[curr_].b.run_ns > 0) slots_[curr_].burst_left -= delta;
    }
    now_ = next;
  }

  void reschedule(bool prev_blocked) {
    task_type* prev = curr_ == npos ? nullptr : slots_[curr_].t;
    const std::size_t prev_index = curr_;
    task_type* next = policy_.schedule(prev, prev != nullptr && !prev_blocked, now_);
    std::size_t next_index = npos;
    for (std::size_t i = 0; i < slots_.size(); ++i)
      if (slots_[i].t == next) next_index = i;
    if (next_index != prev_index) {
      if (prev_index != npos) {
        stats_[prev_index].switches++;
        if (!prev_blocked) slots_[prev_index].runnable_since = now_;
      }
      if (next_index != npos) {
        slot& s = slots_[next_index];
        stats_[next_index].max_wait_ns = std::max(stats_[next_index].max_wait_ns, now_ - s.runnable_since);
        stats_[next_index].runs++;
        if (s.pending_latency) stats_[next_index].wakeup_latency_ns.push_back(now_ - s.woke_at);
        log_.push_back(next_index);
      }
      ++context_switches_;
    }
    if (next_index != npos) slots_[next_index].pending_latency = false;
    curr_ = next_index;
  }

  Policy& policy_;
  std::int64_t tick_ns_;
  sched_time origin_;
  sched_time now_;
  sched_time next_tick_;
  std::vector<slot> slots_;
  std::vector<task_stats> stats_;
  std::size_t curr_ = npos;
  std::uint64_t context_switches_ = 0;
  std::vector<std::size_t> log_;
};

/// Wraps a single policy so the driver can call `schedule()`, `timer()` and `next_timer()` on it
/// (class_stack has its own).
template <class P>
struct single_class : P {
  using P::P;
  bool next_timer(sched_time& when) const noexcept { return schedcore::policy_traits<P>::next_timer(*this, when); }
  bool timer(sched_time now) noexcept { return schedcore::policy_traits<P>::timer(*this, now); }
  typename P::task_type* schedule(typename P::task_type* prev, bool prev_runnable, sched_time now) noexcept {
    if (prev != nullptr && prev_runnable) this->put_prev(*prev, now);
    typename P::task_type* next = this->pick_next(now);
    if (next != nullptr) this->set_next(*next, now);
    return next;
  }
};

}  // namespace schedcore_test

#endif
