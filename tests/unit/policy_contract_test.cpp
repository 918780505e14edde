// The policy-contract suite (tests/support/policy_contract.hpp) over every built-in policy, each
// alone as its own class, and over a small FIFO written as a user would write one. Three broken
// variants of that FIFO show that the checks are strict enough to catch real bugs.
#include <gtest/gtest.h>

#include <cstddef>

#include "../../examples/custom-policy/stride.hpp"
#include "policy_contract.hpp"
#include "schedcore/core/assert.hpp"
#include "schedcore/policy/bfs.hpp"
#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/cfs2007.hpp"
#include "schedcore/policy/edf.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "schedcore/policy/group.hpp"
#include "schedcore/policy/goodness24.hpp"
#include "schedcore/policy/nicksched.hpp"
#include "schedcore/policy/o1.hpp"
#include "schedcore/policy/rt.hpp"
#include "schedcore/policy/sd.hpp"

namespace {

using namespace schedcore;
namespace contract = schedcore_test::contract;

sched_params normal_nice(int nice) {
  sched_params p;
  p.kind = sched_kind::normal;
  p.nice = static_cast<s8>(nice);
  return p;
}
// FIFO for even priorities, RR for odd ones: both kinds in every random run.
sched_params rt_prio(int prio) {
  sched_params p;
  p.kind = prio % 2 == 0 ? sched_kind::fifo : sched_kind::rr;
  p.rt_priority = static_cast<u8>(prio);
  return p;
}

template <class Entity, template <class...> class Policy>
struct fair_traits {
  struct task : Entity {};
  using policy_type = Policy<task>;
  using task_type = task;
  static sched_params normal(int nice) { return normal_nice(nice); }
};

struct rt_traits {
  static constexpr bool can_throttle = true;  // RT bandwidth (950 ms per 1 s by default)
  struct task : rt_entity {};
  using policy_type = rt_policy<task>;
  using task_type = task;
  static sched_params rt(int prio) { return rt_prio(prio); }
};
// 2.4 runs SCHED_FIFO/RR in the same class as SCHED_OTHER.
struct goodness24_traits : fair_traits<goodness24_entity, goodness24_policy> {
  static sched_params rt(int prio) { return rt_prio(prio); }
};
struct o1_traits : fair_traits<o1_entity, o1_policy> {};
struct sd_traits : fair_traits<sd_entity, sd_policy> {};
struct nicksched_traits : fair_traits<nicksched_entity, nicksched_policy> {};
struct bfs_traits : fair_traits<bfs_entity, bfs_policy> {};
// MuQSS's slice-end timer: the class timer moves with every set_next and charge.
struct bfs_hrexpiry_traits : bfs_traits {
  static void configure(policy_type& p) {
    policy_type::knobs k{};
    k.hrexpiry = 1;
    EXPECT_EQ(p.configure(k), errc::ok);
  }
};
struct eevdf_traits : fair_traits<eevdf_entity, eevdf_policy> {};
// Every 6.12+ feature on: delayed dequeue (pick_next may finish one), custom slices, the
// 6.17+ slice protection and wakeup rules.
struct eevdf_modern_traits : fair_traits<eevdf_entity, eevdf_policy> {
  static void configure(policy_type& p) {
    policy_type::knobs k{};
    k.delay_dequeue = k.preempt_short = k.place_rel_deadline = k.repick_keeps_vprot = 1;
    k.parity_min_slice = k.max_slice_lag = k.yield_forfeit = k.wakeup_619 = 1;
    k.wakeup_dequeue_delayed = k.delayed_lag_floor = 1;
    EXPECT_EQ(p.configure(k), errc::ok);
  }
  static sched_params normal(int nice) {
    sched_params p = normal_nice(nice);
    if (nice % 3 == 0) p.runtime = usec(200) + usec(100) * (nice + 20);  // a custom slice
    return p;
  }
};
struct cfs_traits : fair_traits<cfs_entity, cfs_policy> {
  static errc place_virtual_clock(policy_type& p, vtime v) { return p.reset_vruntime(v); }
};
struct cfs2007_traits : fair_traits<cfs2007_entity, cfs2007_policy> {
  static errc place_virtual_clock(policy_type& p, vtime v) { return p.reset_fair_clock(v); }
};
// The custom-policy example, written against the public contract only (outside the library).
struct stride_traits : fair_traits<stride_example::stride_entity, stride_example::stride_policy> {};
// Task groups (group.hpp): the composition must keep the whole contract. Three groups (one
// nested), and each successful setup moves the task to the next of root, G0, G0/G1, G2, so
// the random parameter changes also move running and queued tasks between groups (the
// kernel's sched_move_task: dequeue(save), move, enqueue(restore)).
template <class Entity, template <class...> class Policy>
struct grouped_traits {
  using node = group_node<Entity>;
  struct task : node {};
  using base = group_policy<task, Policy<node>>;
  struct policy_type : base {
    typename base::task_group groups[3];
    unsigned next_place = 0;
    policy_type() {
      EXPECT_EQ(this->attach_group(groups[0], nullptr), errc::ok);
      EXPECT_EQ(this->attach_group(groups[1], &groups[0]), errc::ok);
      EXPECT_EQ(this->attach_group(groups[2], nullptr), errc::ok);
    }
    policy_type(const policy_type&) = delete;
    policy_type& operator=(const policy_type&) = delete;
    errc setup(task& t, const sched_params& p) noexcept {
      if (const errc e = base::setup(t, p); e != errc::ok) return e;
      typename base::task_group* const where[] = {nullptr, &groups[0], &groups[1], &groups[2]};
      // (setup has no clock: the inner switched_from of these policies reads none for a
      // task that is not a delayed sleeper, which group_policy never leaves behind)
      (void)this->set_group(t, where[next_place++ % 4], sched_time{});
      return errc::ok;
    }
  };
  using task_type = task;
  static sched_params normal(int nice) { return normal_nice(nice); }
};
using grouped_cfs_traits = grouped_traits<cfs_entity, cfs_policy>;
using grouped_eevdf_traits = grouped_traits<eevdf_entity, eevdf_policy>;
using grouped_sd_traits = grouped_traits<sd_entity, sd_policy>;
using grouped_stride_traits = grouped_traits<stride_example::stride_entity, stride_example::stride_policy>;
// eevdf in groups with every 6.12+ feature, delayed dequeue included: delayed sleepers stay in
// their groups' queues, and a pick that completes the last of them takes the group out.
struct grouped_eevdf_modern_traits : grouped_traits<eevdf_entity, eevdf_policy> {
  static void configure(policy_type& p) {
    eevdf_policy<group_node<eevdf_entity>>::knobs k{};
    k.delay_dequeue = k.preempt_short = k.place_rel_deadline = k.repick_keeps_vprot = 1;
    k.parity_min_slice = k.max_slice_lag = k.yield_forfeit = k.wakeup_619 = 1;
    k.wakeup_dequeue_delayed = k.delayed_lag_floor = 1;
    EXPECT_EQ(p.configure(k), errc::ok);
  }
  static sched_params normal(int nice) { return eevdf_modern_traits::normal(nice); }
  static bool hidden_delayed(const policy_type& p) { return p.delayed_groups() != 0; }
};
// The same with CFS bandwidth control (cpu.max) on every group: small quotas (1-2 ms per 3-5
// ms, slices of 0.3 ms, G0 and its child G0/G1 both limited), so that groups are throttled and
// unthrottled all through the random runs, with delayed sleepers in them.
struct grouped_eevdf_bandwidth_traits : grouped_eevdf_modern_traits {
  static constexpr bool can_throttle = true;
  struct policy_type : grouped_eevdf_modern_traits::policy_type {
    cfs_bandwidth pools[3];
    policy_type() {
      const std::int64_t quota[] = {msec(2), msec(1), msec(1)}, period[] = {msec(5), msec(3), msec(4)};
      for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(pools[i].configure(quota[i], period[i], i == 2 ? msec(1) : 0, sched_time{}), errc::ok);
        EXPECT_EQ(pools[i].set_slice(usec(300)), errc::ok);
        EXPECT_EQ(this->set_group_bandwidth(groups[i], &pools[i], sched_time{}), errc::ok);
      }
    }
  };
  static void configure(policy_type& p) { grouped_eevdf_modern_traits::configure(p); }
  static bool pick_checks_runtime(const policy_type& p) { return p.runtime_checks_pending(); }
};
struct grouped_cfs_bandwidth_traits : grouped_cfs_traits {
  static constexpr bool can_throttle = true;
  struct policy_type : grouped_cfs_traits::policy_type {
    cfs_bandwidth pools[2];
    policy_type() {
      EXPECT_EQ(pools[0].configure(msec(2), msec(5), 0, sched_time{}), errc::ok);
      EXPECT_EQ(pools[1].configure(msec(1), msec(2), msec(1), sched_time{}), errc::ok);
      EXPECT_EQ(this->set_group_bandwidth(groups[1], &pools[0], sched_time{}), errc::ok);
      EXPECT_EQ(this->set_group_bandwidth(groups[2], &pools[1], sched_time{}), errc::ok);
    }
  };
  static bool pick_checks_runtime(const policy_type& p) { return p.runtime_checks_pending(); }
};
struct edf_traits {
  static constexpr bool can_throttle = true;  // the constant bandwidth server
  struct task : edf_entity {};
  using policy_type = edf_policy<task>;
  using task_type = task;
  // 0.1..0.49 ms per 10 ms, deadlines 7..10 ms: 16 tasks use at most 78 % (admission: 95 %).
  static sched_params deadline(int level) {
    sched_params p;
    p.kind = sched_kind::deadline;
    p.runtime = usec(100) + usec(10) * level;
    p.period = msec(10);
    p.deadline = msec(10) - msec(level % 4);
    return p;
  }
};

// Budget enforced to the nanosecond by the class timer (HRTICK_DL).
struct edf_hrtick_traits : edf_traits {
  static void configure(policy_type& p) {
    policy_type::knobs k{};
    k.hrtick = 1;
    EXPECT_EQ(p.configure(k), errc::ok);
  }
};
// GRUB reclaiming (SCHED_FLAG_RECLAIM) on every other task, budgets enforced by the class timer
// with the reclaiming rate (its instant moves as tasks wake and sleep).
struct edf_reclaim_traits : edf_hrtick_traits {
  static sched_params deadline(int level) {
    sched_params p = edf_traits::deadline(level);
    p.reclaim = level % 2 == 0;
    return p;
  }
};
// RR slices counted in jiffies, and a tight bandwidth so that throttling happens often.
struct rt_hz_traits : rt_traits {
  static void configure(policy_type& p) {
    policy_type::knobs k{};
    k.hz = 1000;
    k.runtime = msec(300);
    k.period = msec(500);
    EXPECT_EQ(p.configure(k), errc::ok);
  }
};

// A user's policy: FIFO with round robin at put_prev, the running task kept at the head.
// `Bug` selects a deliberate contract violation (none for the correct one).
enum class toy_bug { none, pick_dequeues, nr_forgets_curr, idles_behind_a_timer };

struct toy_task {
  toy_task* next = nullptr;
  bool on_rq = false;
  s8 nice = 0;
};

template <toy_bug Bug>
class toy_fifo {
 public:
  using task_type = toy_task;
  errc setup(toy_task& t, const sched_params& p) noexcept {
    if (p.kind != sched_kind::normal || !valid_nice(p.nice)) return errc::invalid_argument;
    if (t.on_rq) return errc::busy;
    t.nice = p.nice;
    return errc::ok;
  }
  void enqueue(toy_task& t, sched_time, enqueue_flags) noexcept {
    if (SCHEDCORE_MISUSE(t.on_rq)) return;
    push_tail(t);
    t.on_rq = true;
    ++nr_;
  }
  void dequeue(toy_task& t, sched_time, dequeue_flags) noexcept {
    if (SCHEDCORE_MISUSE(!t.on_rq)) return;
    unlink(t);
    t.on_rq = false;
    --nr_;
    if (&t == curr_) curr_ = nullptr;
  }
  toy_task* pick_next(sched_time) noexcept {
    toy_task* t = head_;
    // Bug: with three or more queued, the pick finds nothing (a lost priority bit, say).
    if constexpr (Bug == toy_bug::idles_behind_a_timer) {
      if (nr_ >= 3) return nullptr;
    }
    if constexpr (Bug == toy_bug::pick_dequeues) {
      // Bug: the pick takes the task off the queue (and out of the count).
      if (t != nullptr) {
        unlink(*t);
        t->on_rq = false;
        --nr_;
      }
    }
    return t;
  }
  void set_next(toy_task& t, sched_time) noexcept {
    // a caller's bug, reported and refused: a task not queued, or another task still running
    if (SCHEDCORE_MISUSE(!t.on_rq || (curr_ != nullptr && curr_ != &t))) return;
    curr_ = &t;
  }
  void put_prev(toy_task& t, sched_time) noexcept {
    if (SCHEDCORE_MISUSE(&t != curr_)) return;
    curr_ = nullptr;
    if (t.on_rq) {  // round robin: behind the others
      unlink(t);
      push_tail(t);
    }
  }
  bool tick(toy_task& t, sched_time) noexcept {
    if (SCHEDCORE_MISUSE(&t != curr_)) return false;
    return nr_ > 1;
  }
  // A periodic timer that is always armed (like an MLFQ boost) in the idles_behind_a_timer
  // variant; none in the others. It must not excuse a class that idles with runnable tasks.
  bool next_timer(sched_time& when) const noexcept {
    if (Bug != toy_bug::idles_behind_a_timer) return false;
    when = sched_time{(last_timer_.ns() / 1000000u + 1u) * 1000000u};
    return true;
  }
  bool timer(sched_time now) noexcept {
    last_timer_ = now;
    return false;
  }
  bool wakeup_preempt(toy_task&, toy_task&, sched_time) noexcept { return false; }
  usize nr_runnable() const noexcept {
    // Bug: the running task is not counted.
    if constexpr (Bug == toy_bug::nr_forgets_curr) return curr_ != nullptr ? nr_ - 1 : nr_;
    return nr_;
  }
  bool verify() const noexcept {
    usize n = 0;
    for (const toy_task* t = head_; t != nullptr; t = t->next, ++n)
      if (!t->on_rq || n > nr_) return false;
    return n == nr_;
  }

 private:
  void push_tail(toy_task& t) noexcept {
    t.next = nullptr;
    toy_task** pp = &head_;
    while (*pp != nullptr) pp = &(*pp)->next;
    *pp = &t;
  }
  void unlink(toy_task& t) noexcept {
    for (toy_task** pp = &head_; *pp != nullptr; pp = &(*pp)->next) {
      if (*pp == &t) {
        *pp = t.next;
        t.next = nullptr;
        return;
      }
    }
  }
  toy_task* head_ = nullptr;
  toy_task* curr_ = nullptr;
  usize nr_ = 0;
  sched_time last_timer_{};
};

template <toy_bug Bug>
struct toy_traits {
  using policy_type = toy_fifo<Bug>;
  using task_type = toy_task;
  static sched_params normal(int nice) { return normal_nice(nice); }
};

}  // namespace

namespace schedcore_test::contract {
INSTANTIATE_TYPED_TEST_SUITE_P(rt, PolicyContract, ::testing::Types<rt_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(o1, PolicyContract, ::testing::Types<o1_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(sd, PolicyContract, ::testing::Types<sd_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(cfs, PolicyContract, ::testing::Types<cfs_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(cfs2007, PolicyContract, ::testing::Types<cfs2007_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(eevdf, PolicyContract, ::testing::Types<eevdf_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(bfs, PolicyContract, ::testing::Types<bfs_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(nicksched, PolicyContract, ::testing::Types<nicksched_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(goodness24, PolicyContract, ::testing::Types<goodness24_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(edf, PolicyContract, ::testing::Types<edf_traits>, names);
// Non-default configurations that reach the contract's special cases: delayed dequeue,
// class timers for budget and bandwidth.
INSTANTIATE_TYPED_TEST_SUITE_P(eevdf_modern, PolicyContract, ::testing::Types<eevdf_modern_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(bfs_hrexpiry, PolicyContract, ::testing::Types<bfs_hrexpiry_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(edf_hrtick, PolicyContract, ::testing::Types<edf_hrtick_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(edf_reclaim, PolicyContract, ::testing::Types<edf_reclaim_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(rt_throttled, PolicyContract, ::testing::Types<rt_hz_traits>, names);
// Policies written outside the library go through the same suite.
INSTANTIATE_TYPED_TEST_SUITE_P(stride_example, PolicyContract, ::testing::Types<stride_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(grouped_cfs, PolicyContract, ::testing::Types<grouped_cfs_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(grouped_eevdf, PolicyContract, ::testing::Types<grouped_eevdf_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(grouped_eevdf_modern, PolicyContract, ::testing::Types<grouped_eevdf_modern_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(grouped_eevdf_bandwidth, PolicyContract, ::testing::Types<grouped_eevdf_bandwidth_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(grouped_cfs_bandwidth, PolicyContract, ::testing::Types<grouped_cfs_bandwidth_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(grouped_sd, PolicyContract, ::testing::Types<grouped_sd_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(grouped_stride, PolicyContract, ::testing::Types<grouped_stride_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(user_fifo, PolicyContract, ::testing::Types<toy_traits<toy_bug::none>>, names);
}  // namespace schedcore_test::contract

namespace {

// The suite is strict enough to fail on real bugs: each broken FIFO fails the checks of the
// rows it violates (and the random run, which checks every row at every hook).
TEST(PolicyContractCatches, APickNextThatDequeues) {
  using broken = toy_traits<toy_bug::pick_dequeues>;
  const auto pure = contract::check_pick_next_is_pure<broken>();
  EXPECT_FALSE(pure);
  EXPECT_NE(std::string(pure.message()).find("pick_next has a side effect"), std::string::npos) << pure.message();
  EXPECT_FALSE(contract::check_nr_runnable_counts<broken>());
  EXPECT_FALSE(contract::check_random_run<broken>());
  EXPECT_FALSE(contract::check_put_prev_keeps_task_runnable<broken>());
}

TEST(PolicyContractCatches, AnNrRunnableThatForgetsCurr) {
  using broken = toy_traits<toy_bug::nr_forgets_curr>;
  const auto counts = contract::check_nr_runnable_counts<broken>();
  EXPECT_FALSE(counts);
  EXPECT_NE(std::string(counts.message()).find("nr_runnable() is 3 after set_next, 4 tasks are runnable"),
            std::string::npos)
      << counts.message();
  EXPECT_FALSE(contract::check_random_run<broken>());
  EXPECT_FALSE(contract::check_no_task_lost<broken>());
}

// A class that keeps a periodic timer armed is not thereby allowed to idle with runnable tasks:
// only traits that declare can_throttle (rt bandwidth, edf's CBS) excuse a nullptr pick.
TEST(PolicyContractCatches, AnIdlePickHiddenBehindAnArmedTimer) {
  using broken = toy_traits<toy_bug::idles_behind_a_timer>;
  const auto run = contract::check_random_run<broken>();
  EXPECT_FALSE(run);
  EXPECT_NE(std::string(run.message()).find("pick_next returned nullptr with runnable tasks"), std::string::npos)
      << run.message();
  EXPECT_FALSE(contract::check_no_task_lost<broken>());
}

}  // namespace
