// An extension of tick_driver.hpp for the o1 and nicksched oracles: the same deterministic
// uniprocessor loop (periodic tick, exact burst ends and wakeups, the same tie order: wakeups by
// task index, then burst completion, then class timers, then the tick), plus
//   - scripted behaviour: a task follows a list of phases {run, sleep}; run 0 means "runs
//     forever" (a hog from then on); after the last phase the last one repeats;
//   - a log of run segments (who ran from when to when) and of every schedule() call, so tests
//     can read time slices and round-robin periods directly;
//   - a per-step callback, so tests can check verify() after every event.
// tick_driver.hpp is left untouched (others use it); single_class<> from it wraps a policy.
#ifndef SCHEDCORE_TESTS_O1_DRIVER_EXT_HPP
#define SCHEDCORE_TESTS_O1_DRIVER_EXT_HPP

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "tick_driver.hpp"

namespace schedcore_test {

/// One step of a script: `run_ns` of CPU (0: forever), then `sleep_ns` asleep.
struct phase {
  std::int64_t run_ns = 0;
  std::int64_t sleep_ns = 0;
};

/// What a scripted task does, starting `start_ns` after the origin.
struct script {
  std::vector<phase> phases;
  std::int64_t start_ns = 0;
  static script hog(std::int64_t start = 0) { return script{{phase{0, 0}}, start}; }
  static script cycle(std::int64_t run, std::int64_t sleep, std::int64_t start = 0) {
    return script{{phase{run, sleep}}, start};
  }
  /// `n` repetitions of {run, sleep}, appended.
  script& then(std::int64_t run, std::int64_t sleep, int n = 1) {
    for (int i = 0; i < n; ++i) phases.push_back(phase{run, sleep});
    return *this;
  }
};

/// A contiguous stretch of CPU time of one task (times relative to the origin).
struct segment {
  std::size_t task;
  std::int64_t start_ns;
  std::int64_t end_ns;
  std::int64_t length() const { return end_ns - start_ns; }
};

/// One schedule() call: when, and who was picked (npos: idle).
struct pick_event {
  std::int64_t at_ns;
  std::size_t task;
};

template <class Policy>
class script_driver {
 public:
  using task_type = typename Policy::task_type;
  static constexpr std::size_t npos = std::numeric_limits<std::size_t>::max();

  explicit script_driver(Policy& policy, int hz = 1000, sched_time origin = sched_time{})
      : policy_(policy), tick_ns_(1000000000 / hz), origin_(origin), now_(origin), next_tick_(origin + tick_ns_) {}

  std::size_t add(task_type& t, script s) {
    slot sl;
    sl.t = &t;
    sl.s = std::move(s);
    sl.wake_at = origin_ + sl.s.start_ns;
    sl.runnable_since = now_;
    slots_.push_back(sl);
    stats_.emplace_back();
    return slots_.size() - 1;
  }

  /// Called after every processed instant (for verify()).
  void on_step(std::function<void()> f) { step_ = std::move(f); }

  void run_until(std::int64_t until_ns) {
    const sched_time end = origin_ + until_ns;
    while (now_ < end) {
      sched_time next = next_tick_;
      for (const slot& s : slots_)
        if (!s.runnable && s.wake_at < next) next = s.wake_at;
      if (curr_ != npos && slots_[curr_].burst_left > 0) {
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
        if (s.runnable || s.wake_at != now_) continue;
        s.runnable = true;
        s.burst_left = current_phase(s).run_ns == 0 ? -1 : current_phase(s).run_ns;
        s.runnable_since = now_;
        s.woke_at = now_;
        s.pending_latency = true;
        policy_.enqueue(*s.t, now_, enqueue_flags::wakeup);
        if (curr_ == npos || policy_.wakeup_preempt(*s.t, *slots_[curr_].t, now_)) resched = true;
      }
      bool curr_blocked = false;
      if (curr_ != npos && slots_[curr_].burst_left == 0) {
        slot& s = slots_[curr_];
        policy_.dequeue(*s.t, now_, dequeue_flags::sleep);
        s.runnable = false;
        s.wake_at = now_ + current_phase(s).sleep_ns;
        if (s.phase + 1 < s.s.phases.size()) ++s.phase;
        curr_blocked = true;
        resched = true;
      }
      if (policy_.timer(now_)) resched = true;
      if (now_ == next_tick_) {
        next_tick_ = next_tick_ + tick_ns_;
        if (curr_ != npos && !curr_blocked && policy_.tick(*slots_[curr_].t, now_)) resched = true;
      }
      if (resched) reschedule(curr_blocked);
      if (step_) step_();
    }
    close_segment();
  }

  const task_stats& stats(std::size_t i) const { return stats_[i]; }
  sched_time now() const { return now_; }
  std::size_t current() const { return curr_; }
  const std::vector<segment>& segments() const { return segments_; }
  const std::vector<pick_event>& picks() const { return picks_; }
  /// Segments of task `i` only.
  std::vector<segment> segments_of(std::size_t i) const {
    std::vector<segment> out;
    for (const segment& s : segments_)
      if (s.task == i) out.push_back(s);
    return out;
  }

 private:
  struct slot {
    task_type* t = nullptr;
    script s;
    std::size_t phase = 0;
    bool runnable = false;
    sched_time wake_at{};
    std::int64_t burst_left = 0;  // -1: forever
    sched_time runnable_since{};
    sched_time woke_at{};
    bool pending_latency = false;
  };

  static const phase& current_phase(const slot& s) { return s.s.phases[s.phase]; }

  void advance_to(sched_time next) {
    const std::int64_t delta = next - now_;
    if (curr_ != npos) {
      stats_[curr_].cpu_ns += delta;
      if (slots_[curr_].burst_left > 0) slots_[curr_].burst_left -= delta;
    }
    now_ = next;
  }

  void close_segment() {
    if (curr_ != npos && seg_start_ != now_)
      segments_.push_back(segment{curr_, seg_start_ - origin_, now_ - origin_});
    seg_start_ = now_;
  }

  void reschedule(bool prev_blocked) {
    task_type* prev = curr_ == npos ? nullptr : slots_[curr_].t;
    const std::size_t prev_index = curr_;
    task_type* next = policy_.schedule(prev, prev != nullptr && !prev_blocked, now_);
    std::size_t next_index = npos;
    for (std::size_t i = 0; i < slots_.size(); ++i)
      if (slots_[i].t == next) next_index = i;
    picks_.push_back(pick_event{now_ - origin_, next_index});
    if (next_index != prev_index) {
      close_segment();
      if (prev_index != npos) {
        stats_[prev_index].switches++;
        if (!prev_blocked) slots_[prev_index].runnable_since = now_;
      }
      if (next_index != npos) {
        slot& s = slots_[next_index];
        stats_[next_index].max_wait_ns = std::max(stats_[next_index].max_wait_ns, now_ - s.runnable_since);
        stats_[next_index].runs++;
        if (s.pending_latency) stats_[next_index].wakeup_latency_ns.push_back(now_ - s.woke_at);
      }
    }
    if (next_index != npos) slots_[next_index].pending_latency = false;
    curr_ = next_index;
  }

  Policy& policy_;
  std::int64_t tick_ns_;
  sched_time origin_;
  sched_time now_;
  sched_time next_tick_;
  sched_time seg_start_{};
  std::vector<slot> slots_;
  std::vector<task_stats> stats_;
  std::size_t curr_ = npos;
  std::vector<segment> segments_;
  std::vector<pick_event> picks_;
  std::function<void()> step_;
};

}  // namespace schedcore_test

#endif
