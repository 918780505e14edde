// Differential drivers for what crosses between two CPUs' run queues of one policy (two
// instances on one clock). Each run is two "worlds" that share the clock and all but one
// CPU's random history; what the kernel's rule makes independent of that CPU must come out
// the same in both:
//
//  - fork_independence: CPU 0 and CPU 1 run their own tasks (nothing moves between them);
//    CPU 0's running task forks a child onto CPU 1 (setup and task_new on CPU 1's instance,
//    the parent running on CPU 0, as the simulator's fork does). The worlds differ only in
//    CPU 1's history. The parent's half of a fork (sched_fork / task_fork_fair, run in the
//    parent's context on the parent's run queue) cannot depend on what the child's queue
//    holds, so CPU 0's schedule (every pick and every tick's answer) must be the same in both.
//  - wake_independence: task X sleeps on CPU 0 and, a fixed time later, wakes on CPU 1
//    (migrate_task_rq on CPU 0, then enqueue(wakeup | migrated) on CPU 1). The worlds
//    differ only in what CPU 0 does after X left. For a policy whose crossing state is
//    absolute or reset at the crossing (timestamps on one clock, absolute deadlines, lag,
//    a slice restarted on another queue), CPU 1's schedule must be the same in both. (Not
//    for cfs and cfs2007, whose kernels rebase by the old queue's clock at the wakeup, nor
//    goodness24, whose epochs are per instance.) A run where X never sleeps, or where its
//    sleep leaves it queued (EEVDF's delayed dequeue: it must wake where it is), is
//    inconclusive; a suite asks for a minimum of conclusive seeds.
//
// After every step both instances must verify(). Deterministic: fixed seeds, no clocks.
#ifndef SCHEDCORE_TEST_CROSS_QUEUE_DIFF_HPP
#define SCHEDCORE_TEST_CROSS_QUEUE_DIFF_HPP

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "schedcore/core/errc.hpp"
#include "schedcore/policy/params.hpp"
#include "schedcore/policy/policy.hpp"
#include "tick_driver.hpp"

namespace schedcore_test {

/// A small deterministic generator (PCG-style LCG step, high bits out).
struct xq_rng {
  std::uint64_t s;
  explicit xq_rng(std::uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  std::uint32_t next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(s >> 33);
  }
  std::uint32_t below(std::uint32_t n) { return next() % n; }
};

/// One world: two instances of `P` on one clock, `per_cpu` tasks of each CPU's own, one fork
/// child and the migrating task X (CPU 0's task 0). `Params::draw(rng)` gives a task's
/// sched_params. Log entries: the picked task's id (cpu * 100 + slot, child 900), -1 idle;
/// -2 marks a tick that asked for a reschedule.
template <class P, class Params>
class xq_world {
 public:
  using Task = typename P::task_type;
  using traits = schedcore::policy_traits<P>;
  static constexpr int per_cpu = 5;
  static constexpr int child_id = 900;

  xq_world() {
    for (int c = 0; c < 2; ++c) {
      for (int i = 0; i < per_cpu; ++i) ids_[c][i] = c * 100 + i;
    }
  }
  xq_world(const xq_world&) = delete;
  xq_world& operator=(const xq_world&) = delete;

  schedcore::sched_time now{};
  single_class<P> rq[2];
  std::vector<int> log[2];

  /// One 250 us step: CPU c's op from `r[c]`, then a tick of both CPUs every fourth step.
  void step(xq_rng* r[2], unsigned n) {
    for (int c = 0; c < 2; ++c) {
      if (r[c] != nullptr) op(c, *r[c]);
    }
    now = now + schedcore::usec(250);
    if (n % 4 == 3) {
      for (int c = 0; c < 2; ++c) {
        if (curr_[c] != nullptr && rq[c].tick(*curr_[c], now)) {
          log[c].push_back(-2);
          schedule(c, true);
        }
      }
    }
    for (int c = 0; c < 2; ++c) ASSERT_TRUE(traits::verify(rq[c])) << "cpu " << c << " at step " << n;
  }

  /// CPU 0's running task forks the child onto CPU 1 with `p`. False when CPU 0 is idle.
  bool fork_across(const schedcore::sched_params& p) {
    Task* parent = curr_[0];
    if (parent == nullptr) return false;
    if (rq[1].setup(child_, p) != schedcore::errc::ok) return false;
    traits::task_new(rq[1], child_, parent, now);
    rq[1].enqueue(child_, now, schedcore::enqueue_flags::initial);
    child_on_ = true;
    child_runnable_ = true;
    preempt_check(1, child_);
    return true;
  }

  /// X (CPU 0's task 0): sleeps it if it is running on CPU 0. True once it is asleep off
  /// every queue.
  bool put_x_to_sleep() {
    Task& x = tasks_[0][0];
    if (x_asleep_) return true;
    if (curr_[0] != &x) return false;
    rq[0].dequeue(x, now, schedcore::dequeue_flags::sleep);
    runnable_[0][0] = false;
    curr_[0] = nullptr;
    x_delayed_ = traits::delayed(rq[0], x);
    schedule(0, false);
    x_asleep_ = true;
    return true;
  }
  bool x_delayed() const { return x_delayed_; }

  /// X wakes on CPU 1 (it must be asleep and not held by CPU 0's queue).
  void wake_x_across() {
    Task& x = tasks_[0][0];
    traits::migrate_task_rq(rq[0], x, now);
    rq[1].enqueue(x, now, schedcore::enqueue_flags::wakeup | schedcore::enqueue_flags::migrated);
    x_on_1_ = true;
    x_runnable_on_1_ = true;
    preempt_check(1, x);
  }
  /// From now on CPU 0's ops leave X alone.
  void freeze_x() { x_frozen_ = true; }

 private:
  int id_of(const Task* t) const {
    if (t == nullptr) return -1;
    if (t == &child_) return child_id;
    for (int c = 0; c < 2; ++c) {
      for (int i = 0; i < per_cpu; ++i) {
        if (t == &tasks_[c][i]) return ids_[c][i];
      }
    }
    return -3;
  }
  void schedule(int c, bool prev_runnable) {
    curr_[c] = rq[c].schedule(curr_[c], prev_runnable, now);
    log[c].push_back(id_of(curr_[c]));
  }
  void preempt_check(int c, Task& t) {
    if (curr_[c] == nullptr || rq[c].wakeup_preempt(t, *curr_[c], now)) schedule(c, curr_[c] != nullptr);
  }
  // The tasks CPU c's ops may touch: its own, and on CPU 1 the child and X once they are there.
  Task* pick_task(int c, xq_rng& r, int& slot) {
    const int extra = c == 1 ? 2 : 0;
    const int k = static_cast<int>(r.below(static_cast<std::uint32_t>(per_cpu + extra)));
    slot = k;
    if (k < per_cpu) {
      if (c == 0 && k == 0 && x_frozen_) return nullptr;
      return &tasks_[c][k];
    }
    if (k == per_cpu) return child_on_ ? &child_ : nullptr;
    return x_on_1_ ? &tasks_[0][0] : nullptr;
  }
  bool& runnable_of(int c, int slot) {
    if (slot < per_cpu) return runnable_[c][slot];
    return slot == per_cpu ? child_runnable_ : x_runnable_on_1_;
  }
  void op(int c, xq_rng& r) {
    const std::uint32_t what = r.below(10);
    const schedcore::sched_params p = Params::draw(r);
    int slot = 0;
    Task* t = pick_task(c, r, slot);
    if (t == nullptr) return;
    bool& runnable = runnable_of(c, slot);
    bool* started = slot < per_cpu ? &started_[c][slot] : nullptr;
    switch (what) {
      case 0:
      case 1:  // start a task not yet started
        if (started != nullptr && !*started) {
          if (rq[c].setup(*t, p) != schedcore::errc::ok) return;
          traits::task_new(rq[c], *t, nullptr, now);
          rq[c].enqueue(*t, now, schedcore::enqueue_flags::initial);
          *started = true;
          runnable = true;
          preempt_check(c, *t);
        }
        return;
      case 2:
      case 3:  // the running task blocks
        if (curr_[c] == t) {
          rq[c].dequeue(*t, now, schedcore::dequeue_flags::sleep);
          runnable = false;
          curr_[c] = nullptr;
          schedule(c, false);
        }
        return;
      case 4:
      case 5:
      case 6:  // a sleeper wakes where it slept (a delayed one is requeued where it is)
        if ((started == nullptr || *started) && !runnable) {
          rq[c].enqueue(*t, now, schedcore::enqueue_flags::wakeup);
          runnable = true;
          preempt_check(c, *t);
        }
        return;
      case 7:  // a parameter change (renice, policy): asleep, or queued (save ... restore)
        if (started != nullptr && !*started) return;
        if (!runnable) {
          if (traits::delayed(rq[c], *t)) return;  // still queued: not this path
          static_cast<void>(rq[c].setup(*t, p));
          return;
        }
        {
          const bool running = curr_[c] == t;
          rq[c].dequeue(*t, now, schedcore::dequeue_flags::save);
          const schedcore::errc e = rq[c].setup(*t, p);
          static_cast<void>(e);
          rq[c].enqueue(*t, now, schedcore::enqueue_flags::restore);
          if (running) rq[c].set_next(*t, now);
          traits::prio_changed(rq[c], *t, now);
          if (running || (curr_[c] != nullptr && rq[c].wakeup_preempt(*t, *curr_[c], now))) schedule(c, true);
        }
        return;
      case 8:  // the running task yields
        if (curr_[c] == t) {
          traits::yield(rq[c], *t, now);
          schedule(c, true);
        }
        return;
      default:
        return;
    }
  }

  Task tasks_[2][per_cpu]{};
  Task child_{};
  int ids_[2][per_cpu]{};
  bool runnable_[2][per_cpu]{};
  bool started_[2][per_cpu]{};
  bool child_on_ = false, child_runnable_ = false;
  bool x_asleep_ = false, x_delayed_ = false, x_frozen_ = false;
  bool x_on_1_ = false, x_runnable_on_1_ = false;
  Task* curr_[2]{};
};

/// fork_independence for `seed`: true when the run was conclusive (CPU 0 was running at the
/// fork); the comparison is EXPECTed.
template <class P, class Params>
bool fork_independence(std::uint64_t seed, unsigned steps = 2000, unsigned fork_at = 1000) {
  using world = xq_world<P, Params>;
  world w[2];
  xq_rng r0[2] = {xq_rng(seed), xq_rng(seed)};
  // The worlds differ on CPU 1 only.
  xq_rng r1[2] = {xq_rng(seed * 7 + 1000003), xq_rng(seed * 13 + 2000003)};
  xq_rng fork_params(seed + 17);
  const schedcore::sched_params child_params = Params::draw(fork_params);
  bool forked[2] = {false, false};
  for (unsigned n = 0; n < steps; ++n) {
    for (int k = 0; k < 2; ++k) {
      xq_rng* r[2] = {&r0[k], &r1[k]};
      if (n == fork_at) forked[k] = w[k].fork_across(child_params);
      w[k].step(r, n);
      if (::testing::Test::HasFatalFailure()) return false;
    }
  }
  if (forked[0] != forked[1]) {
    ADD_FAILURE() << "seed " << seed << ": CPU 0's state at the fork differs between the worlds";
    return false;
  }
  if (!forked[0]) return false;
  EXPECT_EQ(w[0].log[0], w[1].log[0]) << "seed " << seed
                                      << ": CPU 0's schedule after the fork depends on what CPU 1 holds";
  return true;
}

/// wake_independence for `seed`: true when conclusive (X slept, fully dequeued, in both worlds);
/// the comparison is EXPECTed.
template <class P, class Params>
bool wake_independence(std::uint64_t seed, unsigned steps = 2000, unsigned sleep_from = 600,
                       unsigned sleep_steps = 80) {
  using world = xq_world<P, Params>;
  world w[2];
  xq_rng r0[2] = {xq_rng(seed), xq_rng(seed)};
  xq_rng r1[2] = {xq_rng(seed * 5 + 3), xq_rng(seed * 5 + 3)};  // CPU 1 the same in both
  unsigned slept_at[2] = {0, 0};
  bool woke[2] = {false, false};
  for (unsigned n = 0; n < steps; ++n) {
    for (int k = 0; k < 2; ++k) {
      if (n >= sleep_from && slept_at[k] == 0 && w[k].put_x_to_sleep()) {
        slept_at[k] = n;
        w[k].freeze_x();
        r0[k] = xq_rng(seed * 31 + 77 + static_cast<std::uint64_t>(k) * 1000);  // CPU 0 diverges once X left
      }
      if (slept_at[k] != 0 && !woke[k] && n == slept_at[k] + sleep_steps) {
        if (w[k].x_delayed()) return false;
        w[k].wake_x_across();
        woke[k] = true;
      }
      xq_rng* r[2] = {&r0[k], &r1[k]};
      w[k].step(r, n);
      if (::testing::Test::HasFatalFailure()) return false;
    }
  }
  if (!woke[0] || !woke[1]) return false;
  EXPECT_EQ(slept_at[0], slept_at[1]) << "seed " << seed;
  EXPECT_EQ(w[0].log[1], w[1].log[1])
      << "seed " << seed << ": CPU 1's schedule after X's arrival depends on what CPU 0 did after X left";
  return true;
}

/// A normal task at a nice from -10 to 19: the draw most policies' suites use.
struct xq_normal_params {
  static schedcore::sched_params draw(xq_rng& r) {
    return schedcore::sched_params{schedcore::sched_kind::normal, static_cast<schedcore::s8>(static_cast<int>(r.below(30)) - 10),
                                   0, 0, 0, 0};
  }
};

/// fork_independence over seeds 1..30 (up to the first failure); at least half must be
/// conclusive, or the driver checked too little to say anything.
template <class P, class Params = xq_normal_params>
void expect_forks_leave_the_parents_queue_alone() {
  int conclusive = 0;
  for (std::uint64_t seed = 1; seed <= 30 && !::testing::Test::HasFailure(); ++seed)
    conclusive += fork_independence<P, Params>(seed) ? 1 : 0;
  EXPECT_GE(conclusive, 15);
}

/// wake_independence over seeds 1..30, as above.
template <class P, class Params = xq_normal_params>
void expect_wakeups_do_not_read_the_old_queue() {
  int conclusive = 0;
  for (std::uint64_t seed = 1; seed <= 30 && !::testing::Test::HasFailure(); ++seed)
    conclusive += wake_independence<P, Params>(seed) ? 1 : 0;
  EXPECT_GE(conclusive, 15);
}

}  // namespace schedcore_test

#endif
