// A deterministic uniprocessor driver for *periodic* jobs (the EDF / CBS tests), next to
// tick_driver.hpp and built the same way (it does not modify it).
//
// Each task is a periodic job source: every `period_ns` from `offset_ns` a job of `cost_ns`
// CPU is released with absolute deadline release + `deadline_ns`; the task is runnable while
// it has unfinished jobs (FIFO) and blocks when the last one completes. `cost_ns == 0` makes
// a hog (one endless job). The driver calls the policy as a kernel core would: ticks at 1/hz,
// exact wakeups (enqueue(wakeup) + wakeup_preempt), exact job completions (dequeue(sleep)),
// and class timers (next_timer / timer) at their instants. Ties at one instant are processed
// in the order: releases (by task index), completion, class timers, tick.
//
// Per task it measures CPU time, CPU per window (`window_ns` buckets from the origin), jobs
// released and completed, deadline misses (a job finishing after its deadline), and the
// worst lateness (finish − deadline; negative when every job was early).
#ifndef SCHEDCORE_TESTS_EEVDF_DRIVER_EXT_HPP
#define SCHEDCORE_TESTS_EEVDF_DRIVER_EXT_HPP

#include <cstdint>
#include <deque>
#include <limits>
#include <vector>

#include "schedcore/core/time.hpp"
#include "schedcore/policy/flags.hpp"

namespace schedcore_test {

/// A periodic job source.
struct periodic_spec {
  std::int64_t cost_ns = 0;      ///< CPU per job; 0 = hog (never completes)
  std::int64_t period_ns = 0;    ///< release period
  std::int64_t deadline_ns = 0;  ///< relative deadline of each job (0: the period)
  std::int64_t offset_ns = 0;    ///< first release, relative to the origin
};

/// What the periodic driver measured for one task.
struct periodic_stats {
  std::int64_t cpu_ns = 0;
  std::vector<std::int64_t> cpu_per_window;
  std::uint64_t released = 0;
  std::uint64_t completed = 0;
  std::uint64_t misses = 0;
  std::int64_t max_lateness_ns = std::numeric_limits<std::int64_t>::min();
};

template <class Policy>
class periodic_driver {
 public:
  using task_type = typename Policy::task_type;
  static constexpr std::size_t npos = std::numeric_limits<std::size_t>::max();

  periodic_driver(Policy& policy, int hz, schedcore::sched_time origin, std::int64_t window_ns)
      : policy_(policy), tick_ns_(1000000000 / hz), window_ns_(window_ns), origin_(origin), now_(origin),
        next_tick_(origin + tick_ns_), next_window_(origin + window_ns) {}

  std::size_t add(task_type& t, periodic_spec s) {
    if (s.deadline_ns == 0) s.deadline_ns = s.period_ns;
    slots_.push_back(slot{&t, s, false, origin_ + s.offset_ns, {}});
    stats_.emplace_back();
    return slots_.size() - 1;
  }

  void run_until(std::int64_t until_ns) {
    using schedcore::sched_time;
    const sched_time end = origin_ + until_ns;
    while (now_ < end) {
      sched_time next = next_tick_;
      if (next_window_ < next) next = next_window_;
      for (const slot& s : slots_)
        if (!(s.spec.cost_ns == 0 && s.released_once) && s.next_release < next) next = s.next_release;
      if (curr_ != npos && slots_[curr_].spec.cost_ns > 0) {
        const sched_time done = now_ + slots_[curr_].jobs.front().work;
        if (done < next) next = done;
      }
      sched_time timer_at{};
      if (policy_.next_timer(timer_at) && timer_at < next) next = timer_at;
      if (end < next) next = end;
      advance_to(next);
      if (now_ == end) break;
      if (now_ == next_window_) next_window_ = next_window_ + window_ns_;
      bool resched = false;
      for (std::size_t i = 0; i < slots_.size(); ++i) {
        slot& s = slots_[i];
        if (s.next_release != now_) continue;
        if (s.spec.cost_ns == 0 && s.released_once) continue;
        s.jobs.push_back(job{now_ + s.spec.deadline_ns, s.spec.cost_ns});
        s.released_once = true;
        stats_[i].released++;
        s.next_release = s.next_release + s.spec.period_ns;
        if (!s.runnable) {
          s.runnable = true;
          policy_.enqueue(*s.t, now_, schedcore::enqueue_flags::wakeup);
          if (curr_ == npos || policy_.wakeup_preempt(*s.t, *slots_[curr_].t, now_)) resched = true;
        }
      }
      bool curr_blocked = false;
      if (curr_ != npos && slots_[curr_].spec.cost_ns > 0 && slots_[curr_].jobs.front().work == 0) {
        slot& s = slots_[curr_];
        const std::int64_t lateness = now_ - s.jobs.front().deadline;
        stats_[curr_].completed++;
        if (lateness > 0) stats_[curr_].misses++;
        if (lateness > stats_[curr_].max_lateness_ns) stats_[curr_].max_lateness_ns = lateness;
        s.jobs.pop_front();
        if (s.jobs.empty()) {
          policy_.dequeue(*s.t, now_, schedcore::dequeue_flags::sleep);
          s.runnable = false;
          curr_blocked = true;
        }
        resched = true;
      }
      if (policy_.timer(now_)) resched = true;
      if (now_ == next_tick_) {
        next_tick_ = next_tick_ + tick_ns_;
        if (curr_ != npos && !curr_blocked && policy_.tick(*slots_[curr_].t, now_)) resched = true;
      }
      if (resched) reschedule(curr_blocked);
    }
  }

  const periodic_stats& stats(std::size_t i) const { return stats_[i]; }
  /// Jobs of task i still unfinished whose deadline has passed.
  std::uint64_t overdue(std::size_t i) const {
    std::uint64_t n = 0;
    for (const job& j : slots_[i].jobs)
      if (j.deadline < now_) ++n;
    return n;
  }
  schedcore::sched_time now() const { return now_; }
  std::size_t current() const { return curr_; }

 private:
  struct job {
    schedcore::sched_time deadline;
    std::int64_t work;
  };
  struct slot {
    task_type* t;
    periodic_spec spec;
    bool runnable;
    schedcore::sched_time next_release;
    std::deque<job> jobs;
    bool released_once = false;
  };

  void advance_to(schedcore::sched_time next) {
    const std::int64_t delta = next - now_;
    if (curr_ != npos && delta > 0) {
      periodic_stats& st = stats_[curr_];
      st.cpu_ns += delta;
      const std::size_t w = static_cast<std::size_t>((now_ - origin_) / window_ns_);
      if (st.cpu_per_window.size() <= w) st.cpu_per_window.resize(w + 1, 0);
      st.cpu_per_window[w] += delta;  // events include window boundaries: no straddling
      slot& s = slots_[curr_];
      if (s.spec.cost_ns > 0) s.jobs.front().work -= delta;
    }
    now_ = next;
  }

  void reschedule(bool prev_blocked) {
    task_type* prev = curr_ == npos ? nullptr : slots_[curr_].t;
    task_type* next = policy_.schedule(prev, prev != nullptr && !prev_blocked, now_);
    curr_ = npos;
    for (std::size_t i = 0; i < slots_.size(); ++i)
      if (slots_[i].t == next) curr_ = i;
  }

  Policy& policy_;
  std::int64_t tick_ns_;
  std::int64_t window_ns_;
  schedcore::sched_time origin_;
  schedcore::sched_time now_;
  schedcore::sched_time next_tick_;
  schedcore::sched_time next_window_;
  std::vector<slot> slots_;
  std::vector<periodic_stats> stats_;
  std::size_t curr_ = npos;
};

}  // namespace schedcore_test

#endif
