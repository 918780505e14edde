// group_policy (policy/group.hpp): task groups by composition.
//
// Oracles:
// - cgroup v2's weight-based distribution (Documentation/admin-guide/cgroup-v2.rst, "Weights"):
//   the CPU is divided among the active children of a group in proportion to their weights, at
//   every level, so a task's share is the product of its share in each queue on its path.
//   For the kernel's FAIR_GROUP_SCHED on one CPU this is exact: a group entity's weight is its
//   shares, and the tasks in it divide what the entity receives.
// - The walks of the kernel's enqueue_task_fair / dequeue_task_fair / pick_task_fair /
//   put_prev_task_fair / task_tick_fair / find_matching_se, checked call by call on a recording
//   inner policy.
// - Without groups the composition must be invisible: the same schedule as the flat policy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/class_stack.hpp"
#include "schedcore/policy/edf.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "schedcore/policy/fair_weights.hpp"
#include "schedcore/policy/group.hpp"
#include "schedcore/policy/rt.hpp"
#include "check_recorder.hpp"
#include "group_setups.hpp"
#include "tick_driver.hpp"

namespace {

using namespace schedcore;
using schedcore_test::behaviour;
using schedcore_test::single_class;
using schedcore_test::tick_driver;

constexpr std::int64_t kSecond = 1000000000;

using cfs_setup = schedcore_test::cfs_group_setup;
using eevdf_setup = schedcore_test::eevdf_group_setup;
using FairSetups = schedcore_test::fair_group_setups;
using setup_names = schedcore_test::fair_group_setup_names;

template <class S>
class GroupShares : public ::testing::Test {};
TYPED_TEST_SUITE(GroupShares, FairSetups, setup_names);

// Share of `total` a task got, as a fraction.
double share(const schedcore_test::task_stats& s, std::int64_t total) {
  return static_cast<double>(s.cpu_ns) / static_cast<double>(total);
}

// cgroup v2: two sibling groups of equal weight split the CPU 1:1 whatever their task counts;
// the tasks of each divide their group's half. (Flat, the lone hog would get 1/5.)
TYPED_TEST(GroupShares, EqualGroupsSplitEvenlyWhateverTheirTaskCounts) {
  using S = TypeParam;
  single_class<typename S::policy> rq;
  typename S::group a, b;
  ASSERT_EQ(rq.attach_group(a, nullptr), errc::ok);
  ASSERT_EQ(rq.attach_group(b, nullptr), errc::ok);
  std::vector<typename S::task> t(5);
  tick_driver<single_class<typename S::policy>> d(rq);
  for (std::size_t i = 0; i < t.size(); ++i) {
    ASSERT_EQ(rq.setup(t[i], sched_params{}), errc::ok);
    ASSERT_EQ(rq.set_group(t[i], i == 0 ? &a : &b, sched_time{}), errc::ok);
    d.add(t[i], behaviour::hog());
  }
  const std::int64_t total = 10 * kSecond;
  d.run_until(total);
  EXPECT_NEAR(share(d.stats(0), total), 0.5, 0.001);
  for (std::size_t i = 1; i < 5; ++i) EXPECT_NEAR(share(d.stats(i), total), 0.125, 0.001) << i;
  EXPECT_TRUE(rq.verify());
  EXPECT_EQ(rq.nr_runnable(), 5u);
}

// Shares 2048:1024 (cpu.weight 200:100): 2/3 against 1/3, the second third split by two.
TYPED_TEST(GroupShares, WeightsSetTheGroupRatio) {
  using S = TypeParam;
  single_class<typename S::policy> rq;
  typename S::group a, b;
  ASSERT_EQ(rq.attach_group(a, nullptr), errc::ok);
  ASSERT_EQ(rq.attach_group(b, nullptr), errc::ok);
  ASSERT_EQ(rq.set_group_weight(a, 2048, sched_time{}), errc::ok);
  std::vector<typename S::task> t(3);
  tick_driver<single_class<typename S::policy>> d(rq);
  for (std::size_t i = 0; i < t.size(); ++i) {
    ASSERT_EQ(rq.set_group(t[i], i == 0 ? &a : &b, sched_time{}), errc::ok);
    d.add(t[i], behaviour::hog());
  }
  const std::int64_t total = 12 * kSecond;
  d.run_until(total);
  EXPECT_NEAR(share(d.stats(0), total), 2.0 / 3, 0.001);
  EXPECT_NEAR(share(d.stats(1), total), 1.0 / 6, 0.001);
  EXPECT_NEAR(share(d.stats(2), total), 1.0 / 6, 0.001);
}

// Nesting multiplies shares: root = {task T, G1}; G1 = {task a, G2}; G2 = {b, c}, all weight
// 1024: T 1/2, a 1/4, b and c 1/8 each.
TYPED_TEST(GroupShares, NestedGroupsMultiplyShares) {
  using S = TypeParam;
  single_class<typename S::policy> rq;
  typename S::group g1, g2;
  ASSERT_EQ(rq.attach_group(g1, nullptr), errc::ok);
  ASSERT_EQ(rq.attach_group(g2, &g1), errc::ok);
  EXPECT_EQ(g2.depth, 1u);
  std::vector<typename S::task> t(4);
  typename S::group* where[] = {nullptr, &g1, &g2, &g2};
  tick_driver<single_class<typename S::policy>> d(rq);
  for (std::size_t i = 0; i < t.size(); ++i) {
    ASSERT_EQ(rq.set_group(t[i], where[i], sched_time{}), errc::ok);
    d.add(t[i], behaviour::hog());
  }
  const std::int64_t total = 16 * kSecond;
  d.run_until(total);
  const double expect[] = {0.5, 0.25, 0.125, 0.125};
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(share(d.stats(i), total), expect[i], 0.001) << i;
  EXPECT_EQ(g1.members(), 2u);  // a and G2
  EXPECT_EQ(g2.members(), 2u);
}

// Nice still works inside a group: the group's half goes 1024:335 to nice 0 and nice 5
// (the kernel's weight table), the other group's lone hog keeps its half.
TYPED_TEST(GroupShares, NiceDividesAGroupsShareByTheWeightTable) {
  using S = TypeParam;
  single_class<typename S::policy> rq;
  typename S::group a, b;
  ASSERT_EQ(rq.attach_group(a, nullptr), errc::ok);
  ASSERT_EQ(rq.attach_group(b, nullptr), errc::ok);
  std::vector<typename S::task> t(3);
  sched_params nice5;
  nice5.nice = 5;
  ASSERT_EQ(rq.setup(t[1], nice5), errc::ok);
  tick_driver<single_class<typename S::policy>> d(rq);
  for (std::size_t i = 0; i < t.size(); ++i) {
    ASSERT_EQ(rq.set_group(t[i], i < 2 ? &a : &b, sched_time{}), errc::ok);
    d.add(t[i], behaviour::hog());
  }
  const std::int64_t total = 20 * kSecond;
  d.run_until(total);
  const double w0 = nice_to_weight(0), w5 = nice_to_weight(5);
  EXPECT_EQ(w5, 335);
  EXPECT_NEAR(share(d.stats(0), total), 0.5 * w0 / (w0 + w5), 0.001);
  EXPECT_NEAR(share(d.stats(1), total), 0.5 * w5 / (w0 + w5), 0.001);
  EXPECT_NEAR(share(d.stats(2), total), 0.5, 0.001);
}

// A group's weight changed while one of its tasks runs (the requeue around a parameter
// change, with set_next again): from then on 3072:1024 gives 3/4.
TYPED_TEST(GroupShares, ReweightingARunningGroupTakesEffect) {
  using S = TypeParam;
  single_class<typename S::policy> rq;
  typename S::group a, b;
  ASSERT_EQ(rq.attach_group(a, nullptr), errc::ok);
  ASSERT_EQ(rq.attach_group(b, nullptr), errc::ok);
  std::vector<typename S::task> t(2);
  tick_driver<single_class<typename S::policy>> d(rq);
  ASSERT_EQ(rq.set_group(t[0], &a, sched_time{}), errc::ok);
  ASSERT_EQ(rq.set_group(t[1], &b, sched_time{}), errc::ok);
  d.add(t[0], behaviour::hog());
  d.add(t[1], behaviour::hog());
  d.run_until(4 * kSecond);
  EXPECT_NEAR(share(d.stats(0), 4 * kSecond), 0.5, 0.001);
  ASSERT_NE(rq.current(), nullptr);
  const std::size_t r = rq.current() == &t[0] ? 0 : 1;  // the running task's index
  const std::int64_t before = d.stats(r).cpu_ns;
  ASSERT_EQ(rq.set_group_weight(r == 0 ? a : b, 3072, d.now()), errc::ok);
  EXPECT_TRUE(rq.verify());
  d.run_until(12 * kSecond);
  const double got = static_cast<double>(d.stats(r).cpu_ns - before) / static_cast<double>(8 * kSecond);
  EXPECT_NEAR(got, 0.75, 0.001);
  EXPECT_TRUE(rq.verify());
}

// An interactive task in its own group (autogroup's point) keeps its latency and its demand
// against a group of 8 hogs, waking within a tick: it asks for 1 ms in 10 and gets it under cfs
// (10 %); under eevdf each wakeup waits one tick (RUN_TO_PARITY lets the running hog finish its
// request, ended at the next tick), which stretches the cycle to 11 ms: 1/11, and the hogs the
// rest.
TYPED_TEST(GroupShares, ASleeperInItsOwnGroupIsNotDilutedByAGroupOfHogs) {
  using S = TypeParam;
  single_class<typename S::policy> rq;
  typename S::group mine, build;
  ASSERT_EQ(rq.attach_group(mine, nullptr), errc::ok);
  ASSERT_EQ(rq.attach_group(build, nullptr), errc::ok);
  std::vector<typename S::task> t(9);
  tick_driver<single_class<typename S::policy>> d(rq);
  for (std::size_t i = 0; i < t.size(); ++i) {
    ASSERT_EQ(rq.set_group(t[i], i == 0 ? &mine : &build, sched_time{}), errc::ok);
    d.add(t[i], i == 0 ? behaviour::cycle(1000000, 9000000, 500000) : behaviour::hog());
  }
  const std::int64_t total = 10 * kSecond;
  d.run_until(total);
  const double asked = std::is_same_v<S, schedcore_test::cfs_group_setup> ? 0.1 : 1.0 / 11;
  EXPECT_NEAR(share(d.stats(0), total), asked, 0.0005);
  // After its group's first activation (which cfs places as a fresh entity, one vslice late:
  // group.hpp), every wakeup runs within one tick: its group's entity is far behind the hogs'.
  const std::vector<std::int64_t>& lat = d.stats(0).wakeup_latency_ns;
  ASSERT_GT(lat.size(), 900u);
  EXPECT_LE(lat[0], 4000000);
  std::int64_t worst = 0;
  for (std::size_t k = 1; k < lat.size(); ++k) worst = std::max(worst, lat[k]);
  EXPECT_LE(worst, 1000000);
  for (std::size_t i = 1; i < t.size(); ++i) EXPECT_NEAR(share(d.stats(i), total), (1 - asked) / 8, 0.0005) << i;
}

// Without groups the composition adds nothing: the same schedule, nanosecond for nanosecond,
// as the flat policy, for hogs and sleepers of mixed nice.
TYPED_TEST(GroupShares, WithoutGroupsTheScheduleIsTheFlatPolicys) {
  using S = TypeParam;
  single_class<typename S::policy> grouped;
  single_class<typename S::flat_policy> flat;
  std::vector<typename S::task> gt(6);
  std::vector<typename S::flat_task> ft(6);
  tick_driver<single_class<typename S::policy>> dg(grouped);
  tick_driver<single_class<typename S::flat_policy>> df(flat);
  for (std::size_t i = 0; i < 6; ++i) {
    sched_params p;
    p.nice = static_cast<s8>(static_cast<int>(i) * 3 - 7);
    ASSERT_EQ(grouped.setup(gt[i], p), errc::ok);
    ASSERT_EQ(flat.setup(ft[i], p), errc::ok);
    const behaviour b = i % 2 == 0 ? behaviour::hog(static_cast<std::int64_t>(i) * 100000)
                                   : behaviour::cycle(3000000 + static_cast<std::int64_t>(i) * 100000, 7000000);
    dg.add(gt[i], b);
    df.add(ft[i], b);
  }
  dg.run_until(3 * kSecond);
  df.run_until(3 * kSecond);
  EXPECT_EQ(dg.switch_log(), df.switch_log());
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(dg.stats(i).cpu_ns, df.stats(i).cpu_ns) << i;
}

// ---- the walks, call by call, on a recording inner policy ----

struct spy_entity {
  const char* label = "?";
};
using spy_node = group_node<spy_entity>;
struct spy_task : spy_node {};

std::vector<std::string>& spy_log() {
  static std::vector<std::string> log;
  return log;
}

// A FIFO that records every call as "hook(label)" (test-only: it allocates).
class spy_policy {
 public:
  using task_type = spy_node;
  bool tick_says = false;
  errc setup(spy_node&, const sched_params& p) noexcept {
    return p.nice < -20 || p.nice > 19 ? errc::invalid_argument : errc::ok;
  }
  void enqueue(spy_node& n, sched_time, enqueue_flags f) noexcept {
    rec("enqueue", n, static_cast<int>(f));
    q_.push_back(&n);
  }
  void dequeue(spy_node& n, sched_time, dequeue_flags f) noexcept {
    rec("dequeue", n, static_cast<int>(f));
    for (auto it = q_.begin(); it != q_.end(); ++it) {
      if (*it == &n) {
        q_.erase(it);
        break;
      }
    }
    if (curr_ == &n) curr_ = nullptr;
  }
  spy_node* pick_next(sched_time) noexcept { return q_.empty() ? nullptr : q_.front(); }
  void set_next(spy_node& n, sched_time) noexcept {
    rec("set_next", n);
    curr_ = &n;
  }
  void put_prev(spy_node& n, sched_time) noexcept {
    rec("put_prev", n);
    curr_ = nullptr;
    for (auto it = q_.begin(); it != q_.end(); ++it) {
      if (*it == &n) {
        q_.erase(it);
        break;
      }
    }
    q_.push_back(&n);
  }
  bool tick(spy_node& n, sched_time) noexcept {
    rec("tick", n);
    return tick_says;
  }
  bool wakeup_preempt(spy_node& woken, spy_node& curr, sched_time) noexcept {
    spy_log().push_back(std::string("wakeup_preempt(") + woken.label + "," + curr.label + ")");
    return true;
  }
  void yield(spy_node& n, sched_time) noexcept { rec("yield", n); }
  usize nr_runnable() const noexcept { return q_.size(); }
  bool resched_asked = false;  // what the next take_resched() answers (then cleared)
  bool take_resched() noexcept {
    const bool r = resched_asked;
    resched_asked = false;
    return r;
  }

 private:
  static void rec(const char* hook, const spy_node& n, int flags = -1) {
    std::string s = std::string(hook) + "(" + n.label;
    if (flags >= 0) s += "," + std::to_string(flags);
    spy_log().push_back(s + ")");
  }
  std::vector<spy_node*> q_;
  spy_node* curr_ = nullptr;
};

using spy_rq = group_policy<spy_task, spy_policy>;
static_assert(check_policy<spy_rq>());
static_assert(check_policy<cfs_setup::policy>());
static_assert(check_policy<eevdf_setup::policy>());

struct SpyHierarchy : ::testing::Test {
  spy_rq rq;
  spy_rq::task_group g1, g2;
  spy_task a, b, c;
  void SetUp() override {
    g1.label = "G1";
    g2.label = "G2";
    a.label = "a";
    b.label = "b";
    c.label = "c";
    ASSERT_EQ(rq.attach_group(g1, nullptr), errc::ok);
    ASSERT_EQ(rq.attach_group(g2, &g1), errc::ok);
    ASSERT_EQ(rq.set_group(a, &g2, sched_time{}), errc::ok);
    ASSERT_EQ(rq.set_group(b, &g2, sched_time{}), errc::ok);
    ASSERT_EQ(rq.set_group(c, nullptr, sched_time{}), errc::ok);
    spy_log().clear();
  }
  std::vector<std::string> take() {
    std::vector<std::string> l = spy_log();
    spy_log().clear();
    return l;
  }
};
using strings = std::vector<std::string>;
const int kWakeup = static_cast<int>(enqueue_flags::wakeup);
const int kSleep = static_cast<int>(dequeue_flags::sleep);
const std::string W = std::to_string(kWakeup), Z = std::to_string(kSleep);

TEST_F(SpyHierarchy, EnqueueRaisesEmptyGroupsWithWakeupAndStopsAtAQueuedOne) {
  rq.enqueue(a, sched_time{}, enqueue_flags::initial);
  EXPECT_EQ(take(), (strings{"enqueue(a," + std::to_string(static_cast<int>(enqueue_flags::initial)) + ")",
                             "enqueue(G2," + W + ")", "enqueue(G1," + W + ")"}));
  rq.enqueue(b, sched_time{}, enqueue_flags::wakeup);
  EXPECT_EQ(take(), (strings{"enqueue(b," + W + ")"}));  // G2 is already queued
  EXPECT_EQ(rq.nr_runnable(), 2u);
  EXPECT_TRUE(g1.queued && g2.queued);
  EXPECT_TRUE(rq.verify());
}

TEST_F(SpyHierarchy, PickDescendsAndRunningWalksEveryLevel) {
  rq.enqueue(a, sched_time{}, enqueue_flags::wakeup);
  rq.enqueue(c, sched_time{}, enqueue_flags::wakeup);
  take();
  spy_task* next = rq.pick_next(sched_time{});
  EXPECT_EQ(next, &a);  // G1 was queued first at the root, G2 in G1, a in G2
  EXPECT_TRUE(take().empty());  // picking calls nothing but picks
  rq.set_next(a, sched_time{});
  EXPECT_EQ(take(), (strings{"set_next(a)", "set_next(G2)", "set_next(G1)"}));
  EXPECT_FALSE(rq.tick(a, sched_time{}));
  EXPECT_EQ(take(), (strings{"tick(a)", "tick(G2)", "tick(G1)"}));
  rq.root().tick_says = true;  // any level may ask
  EXPECT_TRUE(rq.tick(a, sched_time{}));
  take();
  rq.put_prev(a, sched_time{});
  EXPECT_EQ(take(), (strings{"put_prev(a)", "put_prev(G2)", "put_prev(G1)"}));
  EXPECT_EQ(rq.pick_next(sched_time{}), &c);  // G1 went to the root's tail
  rq.set_next(c, sched_time{});
  take();
  rq.yield(c, sched_time{});  // a yield concerns the running task only
  EXPECT_EQ(take(), (strings{"yield(c)"}));
}

TEST_F(SpyHierarchy, DequeueEmptiesGroupsUpwardAsSleepers) {
  rq.enqueue(a, sched_time{}, enqueue_flags::wakeup);
  rq.enqueue(c, sched_time{}, enqueue_flags::wakeup);
  take();
  rq.dequeue(a, sched_time{}, dequeue_flags::dead);
  EXPECT_EQ(take(), (strings{"dequeue(a," + std::to_string(static_cast<int>(dequeue_flags::dead)) + ")",
                             "dequeue(G2," + Z + ")", "dequeue(G1," + Z + ")"}));
  EXPECT_FALSE(g1.queued || g2.queued);
  EXPECT_EQ(rq.nr_runnable(), 1u);
  EXPECT_TRUE(rq.verify());
}

TEST_F(SpyHierarchy, ARunningTaskThatBlocksTakesItsStillQueuedGroupsOffTheCpu) {
  rq.enqueue(a, sched_time{}, enqueue_flags::wakeup);
  rq.enqueue(b, sched_time{}, enqueue_flags::wakeup);
  rq.set_next(a, sched_time{});
  take();
  rq.dequeue(a, sched_time{}, dequeue_flags::sleep);
  // G2 still holds b: it and G1 stay queued but stop running (the kernel's put_prev_entity
  // at the next pick), and no put_prev of a follows.
  EXPECT_EQ(take(), (strings{"dequeue(a," + Z + ")", "put_prev(G2)", "put_prev(G1)"}));
  EXPECT_EQ(rq.current(), nullptr);
  EXPECT_EQ(rq.pick_next(sched_time{}), &b);
  EXPECT_TRUE(rq.verify());
}

TEST_F(SpyHierarchy, WakeupPreemptionComparesTheNodesThatShareAQueue) {
  rq.enqueue(a, sched_time{}, enqueue_flags::wakeup);
  rq.set_next(a, sched_time{});
  rq.enqueue(c, sched_time{}, enqueue_flags::wakeup);
  take();
  EXPECT_TRUE(rq.wakeup_preempt(c, a, sched_time{}));
  EXPECT_EQ(take(), (strings{"wakeup_preempt(c,G1)"}));  // c is at the root, a under G1
  rq.enqueue(b, sched_time{}, enqueue_flags::wakeup);
  take();
  EXPECT_TRUE(rq.wakeup_preempt(b, a, sched_time{}));
  EXPECT_EQ(take(), (strings{"wakeup_preempt(b,a)"}));  // siblings in G2
}

// A reschedule asked inside a dequeue can come from any queue of the hierarchy (the one whose
// curr was charged): take_resched() answers true if any queue asked, whichever, and clears
// every request, so a second call answers false.
TEST_F(SpyHierarchy, AReschedAskedByAnyQueueReachesTheCoreOnce) {
  for (int asker = 0; asker < 3; ++asker) {
    spy_policy& q = asker == 0 ? rq.root() : asker == 1 ? g1.queue() : g2.queue();
    q.resched_asked = true;
    EXPECT_TRUE(rq.take_resched()) << asker;
    EXPECT_FALSE(rq.take_resched()) << asker;
  }
  rq.root().resched_asked = g2.queue().resched_asked = true;
  EXPECT_TRUE(rq.take_resched());
  EXPECT_FALSE(g2.queue().resched_asked);
  EXPECT_FALSE(rq.take_resched());
}

// ---- bad input: refused, nothing changes ----

template <class T>
std::vector<unsigned char> bytes(const T& v) {
  std::vector<unsigned char> out(sizeof(T));
  std::memcpy(out.data(), &v, sizeof(T));
  return out;
}

TEST(GroupPolicyBadInput, RefusedCallsChangeNothing) {
  using S = eevdf_setup;
  S::policy rq, other;
  S::group g, h, foreign;
  S::task t;
  ASSERT_EQ(rq.attach_group(g, nullptr), errc::ok);
  ASSERT_EQ(other.attach_group(foreign, nullptr), errc::ok);
  EXPECT_EQ(rq.attach_group(g, nullptr), errc::busy);               // attached twice
  EXPECT_EQ(rq.attach_group(h, &foreign), errc::invalid_argument);  // parent of another CPU
  EXPECT_EQ(rq.set_group(t, &foreign, sched_time{}), errc::invalid_argument);
  ASSERT_EQ(rq.set_group(t, &g, sched_time{}), errc::ok);
  rq.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  const auto before_rq = bytes(rq), before_t = bytes(t), before_g = bytes(g);
  EXPECT_EQ(rq.set_group(t, nullptr, sched_time{}), errc::busy);  // queued: sched_move_task dequeues first
  EXPECT_EQ(rq.setup(t, sched_params{}), errc::busy);
  EXPECT_EQ(rq.set_group_weight(g, 0, sched_time{}), errc::invalid_argument);
  EXPECT_EQ(rq.set_group_weight(g, (1u << 18) + 1, sched_time{}), errc::invalid_argument);
  EXPECT_EQ(rq.set_group_weight(foreign, 1024, sched_time{}), errc::invalid_argument);
  sched_params bad;
  bad.nice = 20;
  EXPECT_EQ(rq.setup_group(g, bad, sched_time{}), errc::invalid_argument);
  EXPECT_EQ(rq.detach_group(g, sched_time{}), errc::busy);  // it has a member
  EXPECT_EQ(rq.detach_group(foreign, sched_time{}), errc::invalid_argument);
  EXPECT_EQ(bytes(rq), before_rq);
  EXPECT_EQ(bytes(t), before_t);
  EXPECT_EQ(bytes(g), before_g);
  EXPECT_TRUE(rq.verify());
}

TEST(GroupPolicyBadInput, NestingIsBoundedAndGroupsDetachOnceEmpty) {
  using S = cfs_setup;
  S::policy rq;
  std::vector<S::group> chain(S::policy::max_depth + 2);
  ASSERT_EQ(rq.attach_group(chain[0], nullptr), errc::ok);
  for (std::size_t i = 1; i <= S::policy::max_depth; ++i) ASSERT_EQ(rq.attach_group(chain[i], &chain[i - 1]), errc::ok);
  EXPECT_EQ(rq.attach_group(chain.back(), &chain[S::policy::max_depth]), errc::invalid_argument);
  EXPECT_EQ(rq.detach_group(chain[0], sched_time{}), errc::busy);
  for (std::size_t i = S::policy::max_depth + 1; i-- > 0;) EXPECT_EQ(rq.detach_group(chain[i], sched_time{}), errc::ok) << i;
  EXPECT_TRUE(rq.verify());
}

TEST(GroupPolicyBadInput, DoubleEnqueueAndDequeueAreReportedAndRefused) {
  using S = eevdf_setup;
  S::policy rq;
  S::group g;
  S::task t;
  ASSERT_EQ(rq.attach_group(g, nullptr), errc::ok);
  ASSERT_EQ(rq.set_group(t, &g, sched_time{}), errc::ok);
  rq.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  {
    schedcore_test::check_scope scope;
    rq.enqueue(t, sched_time{}, enqueue_flags::wakeup);
    EXPECT_EQ(scope.take().size(), 1u);
  }
  EXPECT_EQ(rq.nr_runnable(), 1u);
  rq.dequeue(t, sched_time{}, dequeue_flags::sleep);
  {
    schedcore_test::check_scope scope;
    rq.dequeue(t, sched_time{}, dequeue_flags::sleep);
    EXPECT_EQ(scope.take().size(), 1u);
  }
  EXPECT_EQ(rq.nr_runnable(), 0u);
  EXPECT_FALSE(g.queued);
  EXPECT_TRUE(rq.verify());
}

TEST(GroupPolicyVerify, CatchesAGroupQueuedWithNothingInIt) {
  using S = cfs_setup;
  S::policy rq;
  S::group g;
  S::task t;
  ASSERT_EQ(rq.attach_group(g, nullptr), errc::ok);
  ASSERT_EQ(rq.set_group(t, &g, sched_time{}), errc::ok);
  rq.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  ASSERT_TRUE(rq.verify());
  g.queued = false;  // corrupt the invariant
  EXPECT_FALSE(rq.verify());
}

}  // namespace

// ---- review: edge cases a kernel port meets ----

namespace review {

constexpr std::int64_t kMs = 1000000;

// A minimal CPU: reschedules on a tick that asks for it, on a wakeup that preempts and when
// curr blocks; counts CPU time per task.
template <class P>
struct mini_cpu {
  using T = typename P::task_type;
  P& rq;
  std::int64_t now_ns = 0;
  T* curr = nullptr;
  std::vector<std::pair<const T*, std::int64_t>> cpu_;
  explicit mini_cpu(P& p, std::int64_t start = 0) : rq(p), now_ns(start) {}
  sched_time now() const { return sched_time{static_cast<std::uint64_t>(now_ns)}; }
  std::int64_t& cpu(const T& t) {
    for (auto& e : cpu_)
      if (e.first == &t) return e.second;
    cpu_.emplace_back(&t, 0);
    return cpu_.back().second;
  }
  void resched() {
    if (curr != nullptr) rq.put_prev(*curr, now());
    curr = rq.pick_next(now());
    if (curr != nullptr) rq.set_next(*curr, now());
  }
  void run_for(std::int64_t ns) {
    const std::int64_t end = now_ns + ns;
    if (curr == nullptr) resched();
    while (now_ns < end) {
      now_ns += kMs;
      if (curr == nullptr) {
        resched();
        continue;
      }
      cpu(*curr) += kMs;
      if (rq.tick(*curr, now())) resched();
    }
  }
  void wake(T& t, enqueue_flags f = enqueue_flags::wakeup) {
    rq.enqueue(t, now(), f);
    if (curr == nullptr || rq.wakeup_preempt(t, *curr, now())) resched();
  }
  void block(T& t, dequeue_flags f = dequeue_flags::sleep) {
    rq.dequeue(t, now(), f);
    if (curr == &t) {
      curr = nullptr;
      resched();
    }
  }
};

}  // namespace review

// A sleeping task moved to another group (the kernel's sched_move_task of a task that is not
// queued: task_change_group_fair = detach_task_cfs_rq + attach_task_cfs_rq) must wake in the
// new group's frame. Here s ran 2 s alone in A (A's queue is 2 s of virtual time ahead of B's),
// sleeps, is moved to B beside a hog h, and wakes: the kernel places it at B's min_vruntime
// less the sleeper credit, so it shares B at once. Waking with A's absolute vruntime in B's
// queue, it would wait ~2 s.
TYPED_TEST(GroupShares, ASleeperMovedToAnotherGroupWakesInThatGroupsFrame) {
  using S = TypeParam;
  typename S::policy rq;
  typename S::group a, b;
  ASSERT_EQ(rq.attach_group(a, nullptr), errc::ok);
  ASSERT_EQ(rq.attach_group(b, nullptr), errc::ok);
  typename S::task s, h;
  ASSERT_EQ(rq.set_group(s, &a, sched_time{}), errc::ok);
  ASSERT_EQ(rq.set_group(h, &b, sched_time{}), errc::ok);
  review::mini_cpu<typename S::policy> cpu(rq);
  cpu.wake(s);
  cpu.run_for(2 * kSecond);
  cpu.block(s);
  cpu.wake(h);
  cpu.run_for(100 * review::kMs);
  ASSERT_EQ(rq.set_group(s, &b, cpu.now()), errc::ok);  // asleep: no dequeue needed
  EXPECT_EQ(a.members(), 0u);
  EXPECT_EQ(b.members(), 2u);
  cpu.wake(s);
  const std::int64_t before = cpu.cpu(s);
  cpu.run_for(200 * review::kMs);
  EXPECT_TRUE(rq.verify());
  EXPECT_EQ(cpu.cpu(s) - before, 100 * review::kMs);  // half of B's (the whole CPU's) 200 ms
  EXPECT_EQ(rq.detach_group(a, cpu.now()), errc::ok);
}

// A task_group object is recycled (detach, then attach elsewhere: a port without allocation
// keeps a pool of them). Its node must not carry the virtual time of its old parent's queue
// into the new one. G (cpu.weight 10) ran 2 s alone under P: 20 s of P's virtual time. Detached,
// set back to weight 1024 and attached at the root beside a hog h, with one task: the kernel's
// new group entity starts at the root's min_vruntime, so G gets half the CPU at once.
TYPED_TEST(GroupShares, ARecycledGroupStartsInItsNewParentsFrame) {
  using S = TypeParam;
  typename S::policy rq;
  typename S::group p, g;
  ASSERT_EQ(rq.attach_group(p, nullptr), errc::ok);
  ASSERT_EQ(rq.attach_group(g, &p), errc::ok);
  typename S::task s, h;
  ASSERT_EQ(rq.set_group(s, &g, sched_time{}), errc::ok);
  review::mini_cpu<typename S::policy> cpu(rq);
  ASSERT_EQ(rq.set_group_weight(g, 102, cpu.now()), errc::ok);
  cpu.wake(s);
  cpu.run_for(2 * kSecond);
  cpu.block(s);
  ASSERT_EQ(rq.set_group(s, nullptr, cpu.now()), errc::ok);
  ASSERT_EQ(rq.detach_group(g, cpu.now()), errc::ok);
  ASSERT_EQ(rq.set_group_weight(g, 1024, cpu.now()), errc::invalid_argument);  // detached
  ASSERT_EQ(rq.attach_group(g, nullptr), errc::ok);
  ASSERT_EQ(rq.set_group_weight(g, 1024, cpu.now()), errc::ok);
  ASSERT_EQ(rq.detach_group(g, cpu.now()), errc::ok);
  cpu.wake(h);  // h in the root
  cpu.run_for(100 * review::kMs);
  ASSERT_EQ(rq.attach_group(g, nullptr), errc::ok);
  ASSERT_EQ(rq.set_group(s, &g, cpu.now()), errc::ok);
  cpu.wake(s);
  const std::int64_t before = cpu.cpu(s);
  cpu.run_for(200 * review::kMs);
  EXPECT_TRUE(rq.verify());
  EXPECT_EQ(cpu.cpu(s) - before, 100 * review::kMs);  // half the CPU of 200 ms
}

// Moving the running task to another group (sched_move_task: dequeue(save), move,
// enqueue(restore), set_next), then a queued one; verify at every step; shares afterwards.
TYPED_TEST(GroupShares, MovingRunningAndQueuedTasksBetweenGroupsKeepsTheInvariants) {
  using S = TypeParam;
  typename S::policy rq;
  typename S::group a, b, b2;
  ASSERT_EQ(rq.attach_group(a, nullptr), errc::ok);
  ASSERT_EQ(rq.attach_group(b, nullptr), errc::ok);
  ASSERT_EQ(rq.attach_group(b2, &b), errc::ok);
  std::vector<typename S::task> t(4);
  typename S::group* where[] = {&a, &a, &b2, &b2};
  review::mini_cpu<typename S::policy> cpu(rq);
  for (std::size_t i = 0; i < 4; ++i) {
    ASSERT_EQ(rq.set_group(t[i], where[i], sched_time{}), errc::ok);
    cpu.wake(t[i]);
  }
  cpu.run_for(500 * review::kMs);
  ASSERT_NE(cpu.curr, nullptr);
  // the running task moves to the group it is not in
  typename S::task* r = cpu.curr;
  typename S::group* to = S::policy::group_of_task(*r) == &a ? &b2 : &a;
  rq.dequeue(*r, cpu.now(), dequeue_flags::save);
  EXPECT_TRUE(rq.verify());
  EXPECT_EQ(rq.current(), nullptr);
  ASSERT_EQ(rq.set_group(*r, to, cpu.now()), errc::ok);
  rq.enqueue(*r, cpu.now(), enqueue_flags::restore);
  EXPECT_TRUE(rq.verify());
  rq.set_next(*r, cpu.now());
  EXPECT_TRUE(rq.verify());
  // a queued task moves too: back to 2 + 2
  typename S::task* q = nullptr;
  for (auto& x : t)
    if (&x != r && S::policy::group_of_task(x) == to) q = &x;
  ASSERT_NE(q, nullptr);
  typename S::group* back = to == &a ? &b2 : &a;
  rq.dequeue(*q, cpu.now(), dequeue_flags::save);
  ASSERT_EQ(rq.set_group(*q, back, cpu.now()), errc::ok);
  rq.enqueue(*q, cpu.now(), enqueue_flags::restore);
  EXPECT_TRUE(rq.verify());
  EXPECT_EQ(a.members(), 2u);
  EXPECT_EQ(b2.members(), 2u);
  std::vector<std::int64_t> before;
  for (auto& x : t) before.push_back(cpu.cpu(x));
  cpu.run_for(4 * kSecond);
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_NEAR(static_cast<double>(cpu.cpu(t[i]) - before[i]) / static_cast<double>(4 * kSecond), 0.25, 0.001) << i;
  EXPECT_TRUE(rq.verify());
}

// The set-up of the two tests below: a alone in g, h (nice 19) running at the root for 1 ms,
// so that g holds the root's min_vruntime (gv) back, more than 60 ms of virtual time behind h.
template <class S>
struct lone_task_in_a_group {
  using entity = typename S::flat_task;
  typename S::policy rq;
  typename S::group g;
  typename S::task a, h;
  const sched_time at{msec(1)};
  vtime gv{};
  void set_up() {
    ASSERT_EQ(rq.attach_group(g, nullptr), errc::ok);
    ASSERT_EQ(rq.set_group(a, &g, sched_time{}), errc::ok);
    sched_params nice19;
    nice19.nice = 19;
    ASSERT_EQ(rq.setup(h, nice19), errc::ok);
    rq.enqueue(h, sched_time{}, enqueue_flags::wakeup);
    ASSERT_EQ(rq.pick_next(sched_time{}), &h);
    rq.set_next(h, sched_time{});
    rq.enqueue(a, sched_time{}, enqueue_flags::wakeup);  // h keeps the CPU: no wakeup check
    (void)rq.tick(h, at);
    gv = static_cast<entity&>(g).vruntime;
    ASSERT_GT(static_cast<entity&>(h).vruntime - gv, 60 * review::kMs);
    ASSERT_EQ(rq.root().min_vruntime(), gv);  // g holds the root's zero point back
  }
};

// A renice (set_user_nice: dequeue(save), the fresh weight, enqueue(restore)) of the only task
// of a group g: g's node leaves the root as a sleeper, but dequeue_task_fair keeps DEQUEUE_SAVE
// with the DEQUEUE_SLEEP it adds on the way up, so the root's dequeue_entity skips
// update_min_vruntime and the root's min_vruntime stays at g's vruntime, which held it back
// (6.5 and 6.8 alike). Here h (nice 19, at the root: 68 ns of virtual time a ns) runs 1 ms and
// is more than 60 ms of virtual time ahead of g when a is reniced. cfs places g's node against
// that min_vruntime when it comes back (ENQUEUE_WAKEUP above the task: max(vruntime,
// min_vruntime - sched_latency / 2)), so g keeps its vruntime. (The zero point moved up to h's
// vruntime, and cfs put g's node back at it less sched_latency / 2.)
TYPED_TEST(GroupShares, AReniceThatEmptiesAGroupLeavesItsParentsMinVruntime) {
  using S = TypeParam;
  lone_task_in_a_group<S> x;
  x.set_up();
  if (::testing::Test::HasFatalFailure()) return;
  x.rq.dequeue(x.a, x.at, dequeue_flags::save);
  EXPECT_FALSE(x.g.queued);
  EXPECT_EQ(x.rq.root().min_vruntime(), x.gv);
  sched_params nice5;
  nice5.nice = 5;
  ASSERT_EQ(x.rq.setup(x.a, nice5), errc::ok);
  x.rq.enqueue(x.a, x.at, enqueue_flags::restore);
  EXPECT_TRUE(x.g.queued);
  // (eevdf places g by its lag around V: a few ns off gv by rounding.)
  if constexpr (std::is_same_v<S, cfs_setup>) {
    EXPECT_EQ(static_cast<typename S::flat_task&>(x.g).vruntime, x.gv);
  }
  EXPECT_EQ(x.rq.root().min_vruntime(), x.gv);
  EXPECT_TRUE(x.rq.verify());
}

// Oracle: the same dequeue_entity rule with DEQUEUE_MOVE, which __sched_setscheduler,
// rt_mutex_setprio and sched_move_task add to DEQUEUE_SAVE: `(flags & (DEQUEUE_SAVE |
// DEQUEUE_MOVE)) != DEQUEUE_SAVE` holds, so the task's queue and each queue the walk empties
// above it update min_vruntime: the root's moves up to the one left running, h.
TYPED_TEST(GroupShares, APolicyChangeThatEmptiesAGroupUpdatesItsParentsMinVruntime) {
  using S = TypeParam;
  lone_task_in_a_group<S> x;
  x.set_up();
  if (::testing::Test::HasFatalFailure()) return;
  x.rq.dequeue(x.a, x.at, dequeue_flags::save | dequeue_flags::move);
  EXPECT_FALSE(x.g.queued);
  EXPECT_EQ(x.rq.root().min_vruntime(), static_cast<typename S::flat_task&>(x.h).vruntime);
  x.rq.enqueue(x.a, x.at, enqueue_flags::restore);
  EXPECT_TRUE(x.g.queued);
  EXPECT_TRUE(x.rq.verify());
}

// SMP: two CPUs, each with its own task_group object for the same cgroup. t leaves CPU 0
// (dequeue(migrating)), takes CPU 1's object, arrives (enqueue(migrated)).
TYPED_TEST(GroupShares, MigrationBetweenCpusMovesTheTaskToTheOtherCpusGroupObject) {
  using S = TypeParam;
  typename S::policy rq0, rq1;
  typename S::group g0, g1;
  ASSERT_EQ(rq0.attach_group(g0, nullptr), errc::ok);
  ASSERT_EQ(rq1.attach_group(g1, nullptr), errc::ok);
  typename S::task t, u, v, w;
  ASSERT_EQ(rq0.set_group(t, &g0, sched_time{}), errc::ok);
  ASSERT_EQ(rq0.set_group(u, &g0, sched_time{}), errc::ok);
  ASSERT_EQ(rq1.set_group(v, &g1, sched_time{}), errc::ok);
  review::mini_cpu<typename S::policy> c0(rq0), c1(rq1);
  c0.wake(t);
  c0.wake(u);
  c1.wake(v);
  c1.wake(w);  // w in CPU 1's root
  c0.run_for(1 * kSecond);
  c1.run_for(1 * kSecond);
  typename S::task& m = c0.curr == &t ? u : t;  // the one not running
  rq0.dequeue(m, c0.now(), dequeue_flags::migrating);
  EXPECT_TRUE(rq0.verify());
  ASSERT_EQ(rq1.set_group(m, &g1, c1.now()), errc::ok);
  EXPECT_EQ(g0.members(), 1u);
  EXPECT_EQ(g1.members(), 2u);
  rq1.enqueue(m, c1.now(), enqueue_flags::migrated);
  EXPECT_TRUE(rq1.verify());
  EXPECT_EQ(rq0.nr_runnable(), 1u);
  EXPECT_EQ(rq1.nr_runnable(), 3u);
  const std::int64_t bm = c1.cpu(m), bv = c1.cpu(v), bw = c1.cpu(w);
  c1.run_for(4 * kSecond);
  EXPECT_NEAR(static_cast<double>(c1.cpu(w) - bw) / static_cast<double>(4 * kSecond), 0.5, 0.001);
  EXPECT_NEAR(static_cast<double>(c1.cpu(m) - bm) / static_cast<double>(4 * kSecond), 0.25, 0.001);
  EXPECT_NEAR(static_cast<double>(c1.cpu(v) - bv) / static_cast<double>(4 * kSecond), 0.25, 0.001);
  EXPECT_TRUE(rq0.verify() && rq1.verify());
}

// Reweighting: an empty group, a queued group, and the group of a running task's parent
// (nested: G1 > G2 > running task), then the shares follow the new weights.
TYPED_TEST(GroupShares, ReweightEmptyQueuedAndNestedRunningGroups) {
  using S = TypeParam;
  typename S::policy rq;
  typename S::group g1, g2, e, q;
  ASSERT_EQ(rq.attach_group(g1, nullptr), errc::ok);
  ASSERT_EQ(rq.attach_group(g2, &g1), errc::ok);
  ASSERT_EQ(rq.attach_group(e, nullptr), errc::ok);
  ASSERT_EQ(rq.attach_group(q, nullptr), errc::ok);
  typename S::task x, y;
  ASSERT_EQ(rq.set_group(x, &g2, sched_time{}), errc::ok);
  ASSERT_EQ(rq.set_group(y, &q, sched_time{}), errc::ok);
  review::mini_cpu<typename S::policy> cpu(rq);
  ASSERT_EQ(rq.set_group_weight(e, 512, cpu.now()), errc::ok);  // empty
  EXPECT_TRUE(rq.verify());
  EXPECT_FALSE(e.queued);
  cpu.wake(x);
  cpu.wake(y);
  cpu.run_for(300 * review::kMs);
  // make x run, y queued
  while (cpu.curr != &x) cpu.run_for(review::kMs);
  ASSERT_EQ(rq.set_group_weight(q, 2048, cpu.now()), errc::ok);  // queued, not running
  EXPECT_TRUE(rq.verify());
  ASSERT_EQ(rq.set_group_weight(g2, 4096, cpu.now()), errc::ok);  // running (nested)
  EXPECT_TRUE(rq.verify());
  ASSERT_EQ(rq.set_group_weight(g1, 1024 * 3, cpu.now()), errc::ok);  // running (top)
  EXPECT_TRUE(rq.verify());
  EXPECT_EQ(rq.current(), &x);
  const std::int64_t bx = cpu.cpu(x), by = cpu.cpu(y);
  cpu.run_for(5 * kSecond);
  // root: g1 3072 vs q 2048: x 3/5, y 2/5 (g2's weight is alone in g1: no effect)
  EXPECT_NEAR(static_cast<double>(cpu.cpu(x) - bx) / static_cast<double>(5 * kSecond), 0.6, 0.001);
  EXPECT_NEAR(static_cast<double>(cpu.cpu(y) - by) / static_cast<double>(5 * kSecond), 0.4, 0.001);
  EXPECT_TRUE(rq.verify());
}

// A group with only sleeping members is not queued and is never picked; a sleeping member
// keeps it from being detached.
TYPED_TEST(GroupShares, AGroupOfSleepersIsNotQueuedAndCannotBeDetached) {
  using S = TypeParam;
  typename S::policy rq;
  typename S::group g;
  ASSERT_EQ(rq.attach_group(g, nullptr), errc::ok);
  typename S::task s, h;
  ASSERT_EQ(rq.set_group(s, &g, sched_time{}), errc::ok);
  review::mini_cpu<typename S::policy> cpu(rq);
  cpu.wake(s);
  cpu.wake(h);
  cpu.run_for(50 * review::kMs);
  cpu.block(s);
  EXPECT_FALSE(g.queued);
  EXPECT_EQ(rq.detach_group(g, cpu.now()), errc::busy);
  for (int i = 0; i < 20; ++i) {
    cpu.run_for(review::kMs);
    EXPECT_EQ(cpu.curr, &h);
  }
  EXPECT_TRUE(rq.verify());
}

// class_stack<rt, group<cfs>>: a task in a group switches to SCHED_FIFO (dequeue(save),
// switched_from, class change, enqueue(restore)) while running, runs as RT, and comes back
// to its group, asleep.
namespace review {
using cnode = group_node<cfs_entity>;
struct ctask : cnode, rt_entity {
  int sched_class = 1;
};
using cgroup_rq = group_policy<ctask, cfs_policy<cnode>>;
using cstack = class_stack<member_sched_class, rt_policy<ctask>, cgroup_rq>;
}  // namespace review

TEST(GroupPolicyClassStack, ATaskInAGroupSwitchesToRtAndBack) {
  using namespace review;
  cstack st;
  cgroup_rq& fair = st.get<1>();
  rt_policy<ctask>& rt = st.get<0>();
  cgroup_rq::task_group g;
  ASSERT_EQ(fair.attach_group(g, nullptr), errc::ok);
  ctask a, b, c;
  ASSERT_EQ(fair.set_group(a, &g, sched_time{}), errc::ok);
  ASSERT_EQ(fair.set_group(b, &g, sched_time{}), errc::ok);
  sched_time now{};
  st.enqueue(a, now, enqueue_flags::wakeup);
  st.enqueue(b, now, enqueue_flags::wakeup);
  st.enqueue(c, now, enqueue_flags::wakeup);
  ctask* curr = st.schedule(nullptr, false, now);
  for (int i = 0; i < 20; ++i) {
    now += msec(1);
    if (st.tick(*curr, now)) curr = st.schedule(curr, true, now);
  }
  while (curr != &a) {
    now += msec(1);
    curr = st.schedule(curr, true, now);
  }
  // a (running, in g) becomes SCHED_FIFO 10
  st.dequeue(a, now, dequeue_flags::save);
  st.switched_from(a, now);
  sched_params fifo;
  fifo.kind = sched_kind::fifo;
  fifo.rt_priority = 10;
  ASSERT_EQ(rt.setup(a, fifo), errc::ok);
  a.sched_class = 0;
  st.enqueue(a, now, enqueue_flags::restore);
  st.prio_changed(a, now);
  EXPECT_TRUE(st.verify());
  EXPECT_EQ(fair.current(), nullptr);
  EXPECT_EQ(fair.nr_runnable(), 2u);
  EXPECT_EQ(g.members(), 2u);  // still in its cgroup
  curr = st.schedule(nullptr, false, now);
  EXPECT_EQ(curr, &a);
  now += msec(5);
  // a sleeps as RT, goes back to SCHED_NORMAL asleep, wakes in g
  st.dequeue(a, now, dequeue_flags::sleep);
  curr = st.schedule(nullptr, false, now);
  st.switched_from(a, now);
  a.sched_class = 1;
  ASSERT_EQ(fair.setup(a, sched_params{}), errc::ok);
  now += msec(5);
  st.enqueue(a, now, enqueue_flags::wakeup);
  EXPECT_TRUE(st.verify());
  EXPECT_EQ(cgroup_rq::group_of_task(a), &g);
  EXPECT_EQ(fair.nr_runnable(), 3u);
  if (st.wakeup_preempt(a, *curr, now)) curr = st.schedule(curr, true, now);
  EXPECT_TRUE(st.verify());
  for (int i = 0; i < 200; ++i) {
    now += msec(1);
    if (st.tick(*curr, now)) curr = st.schedule(curr, true, now);
  }
  EXPECT_TRUE(st.verify());
}

// Grouped eevdf with delay_dequeue: t and u in group g, v in group h, all woken; t runs 5 ms
// past a tick (no tick in between) and blocks: not eligible in g then (u is behind it), so
// g's queue keeps it as a delayed sleeper.
struct delayed_in_group {
  using S = eevdf_setup;
  S::policy rq;
  S::group g, h;
  S::task t, u, v;
  review::mini_cpu<S::policy> cpu{rq};
  void start() {
    eevdf_policy<S::node>::knobs k;
    k.delay_dequeue = 1;
    ASSERT_EQ(rq.configure(k), errc::ok);
    ASSERT_EQ(rq.attach_group(g, nullptr), errc::ok);
    ASSERT_EQ(rq.attach_group(h, nullptr), errc::ok);
    ASSERT_EQ(rq.set_group(t, &g, sched_time{}), errc::ok);
    ASSERT_EQ(rq.set_group(u, &g, sched_time{}), errc::ok);
    ASSERT_EQ(rq.set_group(v, &h, sched_time{}), errc::ok);
    cpu.wake(t);
    cpu.wake(u);
    cpu.wake(v);
    while (cpu.curr != &t) cpu.run_for(review::kMs);
    cpu.now_ns += 5 * review::kMs;
    cpu.block(t);
    ASSERT_TRUE(rq.delayed(t));
  }
};

// A group that is itself a delayed sleeper cannot be reweighted in place (eevdf's reweight
// refuses a delayed entity, `busy`): set_group_weight refuses and changes nothing, the weight
// it reports included, so a caller that skips unchanged weights (as schedsim does) retries.
// (Before, group_weight() already said 512 while the node kept 1024.)
// The set-up of the two tests below, with delay_dequeue: a alone in g, b at the root, a has
// run 3 ms from 0, so that g is not eligible.
struct ineligible_group_of_one {
  using S = eevdf_setup;
  S::policy rq;
  S::group g;
  S::task a, b;
  const sched_time t0{}, t1 = t0 + msec(3);
  void set_up() {
    eevdf_policy<S::node>::knobs k;
    k.delay_dequeue = 1;
    ASSERT_EQ(rq.configure(k), errc::ok);
    ASSERT_EQ(rq.attach_group(g, nullptr), errc::ok);
    ASSERT_EQ(rq.set_group(a, &g, sched_time{}), errc::ok);
    rq.enqueue(a, t0, enqueue_flags::wakeup);
    rq.enqueue(b, t0, enqueue_flags::wakeup);
    ASSERT_EQ(rq.pick_next(t0), &a);
    rq.set_next(a, t0);
    (void)rq.tick(a, t1);
  }
};

TEST(GroupPolicyDelayDequeue, ARefusedReweightOfADelayedGroupChangesNothing) {
  ineligible_group_of_one x;
  x.set_up();
  if (::testing::Test::HasFatalFailure()) return;
  auto& rq = x.rq;
  auto& g = x.g;
  const sched_time t0 = x.t0;
  rq.dequeue(x.a, x.t1, dequeue_flags::sleep);  // ineligible: g stays queued, delayed
  ASSERT_EQ(rq.delayed_groups(), 1u);
  ASSERT_TRUE(g.queued);
  EXPECT_EQ(rq.set_group_weight(g, 512, t0 + msec(3)), errc::busy);
  EXPECT_EQ(rq.group_weight(g), 1024u);
  EXPECT_EQ(static_cast<eevdf_entity&>(g).weight, 1024u);
  EXPECT_TRUE(rq.verify());
}

// A renice of a group's last task while the group is ineligible (6.12 set_user_nice): the task
// leaves with DEQUEUE_SAVE, not delayed, and g's node with DEQUEUE_SLEEP | DEQUEUE_SAVE, which
// dequeue_entity delays as any sleep (only DEQUEUE_SPECIAL exempts one): g stays queued, a
// delayed sleeper, until enqueue(restore) requeues it where it is. (The save kept above must
// not read as "not a sleep".)
TEST(GroupPolicyDelayDequeue, AGroupEmptiedByARenicesDequeueIsDelayedAsBySleep) {
  ineligible_group_of_one x;
  x.set_up();
  if (::testing::Test::HasFatalFailure()) return;
  auto& rq = x.rq;
  auto& g = x.g;
  auto& a = x.a;
  const sched_time t1 = x.t1;
  rq.dequeue(a, t1, dequeue_flags::save);
  EXPECT_FALSE(rq.delayed(a));
  EXPECT_TRUE(g.queued);
  EXPECT_EQ(rq.delayed_groups(), 1u);
  EXPECT_TRUE(rq.verify());
  sched_params nice5;
  nice5.nice = 5;
  ASSERT_EQ(rq.setup(a, nice5), errc::ok);
  rq.enqueue(a, t1, enqueue_flags::restore);
  EXPECT_TRUE(g.queued);
  EXPECT_EQ(rq.delayed_groups(), 0u);
  rq.set_next(a, t1);
  EXPECT_EQ(rq.current(), &a);
  EXPECT_TRUE(rq.verify());
}

// eevdf's delay_dequeue (6.12+) under groups, as the kernel's dequeue_entities does it: an
// ineligible sleeper stays in its group's queue (and the groups above stay queued), is not
// runnable, is requeued where it is if it wakes first, and otherwise leaves when a pick of its
// queue meets it; a group left holding nothing then leaves its parent. No misuse anywhere.
TEST(GroupPolicyDelayDequeue, ADelayedSleeperStaysInItsGroupUntilAPickCompletesIt) {
  delayed_in_group f;
  ASSERT_NO_FATAL_FAILURE(f.start());
  auto& [rq, g, h, t, u, v, cpu] = f;
  EXPECT_TRUE(g.queued);
  EXPECT_EQ(rq.nr_runnable(), 2u);  // u and v: a delayed sleeper is not runnable
  EXPECT_TRUE(rq.verify());
  EXPECT_EQ(rq.set_group(t, &h, cpu.now()), errc::busy);  // still in g's queue
  // It wakes before anyone picks it: requeued in g, runnable again.
  cpu.wake(t);
  EXPECT_FALSE(rq.delayed(t));
  EXPECT_EQ(rq.nr_runnable(), 3u);
  EXPECT_TRUE(rq.verify());
  // It blocks delayed again; picks go on until one meets it and completes its dequeue, and t
  // can move.
  while (cpu.curr != &t) cpu.run_for(review::kMs);
  cpu.now_ns += 5 * review::kMs;
  cpu.block(t);
  ASSERT_TRUE(rq.delayed(t));
  for (int i = 0; i < 200 && rq.delayed(t); ++i) cpu.run_for(review::kMs);
  EXPECT_FALSE(rq.delayed(t));
  EXPECT_TRUE(rq.verify());
  EXPECT_EQ(rq.nr_runnable(), 2u);
  ASSERT_EQ(rq.set_group(t, &h, cpu.now()), errc::ok);
  cpu.wake(t);
  EXPECT_EQ(rq.nr_runnable(), 3u);
  cpu.run_for(100 * review::kMs);
  EXPECT_TRUE(rq.verify());
}

// A delayed sleeper that changes class leaves its queue at once (eevdf's switched_from); a
// group it leaves empty must then leave its parent, as the kernel's DEQUEUE_DELAYED walk
// before a class change does. Found by fuzz/policies (grouped eevdf, delay_dequeue, a class
// change of a delayed sleeper: the group stayed queued with nothing in it).
TEST(GroupPolicyDelayDequeue, AClassChangeOfTheLastDelayedSleeperTakesItsGroupOut) {
  delayed_in_group f;
  ASSERT_NO_FATAL_FAILURE(f.start());
  auto& [rq, g, h, t, u, v, cpu] = f;
  cpu.block(u);  // behind t in g: eligible, out at once
  ASSERT_FALSE(rq.delayed(u));
  ASSERT_TRUE(g.queued) << "g holds only the delayed t";
  EXPECT_TRUE(rq.verify());
  rq.switched_from(t, cpu.now());
  EXPECT_FALSE(rq.delayed(t));
  // Nothing left in g: it leaves the root queue as a sleeper (or stays there delayed, if it
  // is ineligible in the root, as any entity).
  EXPECT_TRUE(!g.queued || (g.dequeue_delayed && rq.delayed_groups() == 1u));
  EXPECT_TRUE(rq.verify());
  EXPECT_EQ(rq.nr_runnable(), 1u);
  // t comes back (as a fair task again) and runs in g.
  ASSERT_EQ(rq.setup(t, sched_params{}), errc::ok);
  cpu.wake(t);
  EXPECT_TRUE(g.queued);
  cpu.run_for(50 * review::kMs);
  EXPECT_TRUE(rq.verify());
}

// setup_group validates on a probe entity. An inner policy whose setup has side effects on
// its queue (SCHED_DEADLINE's admission control: the kernel's sched_dl_overflow) must not be
// charged for the probe: hierarchical EDF (a group is a bandwidth server) leaks bandwidth.
namespace review {
using dnode = group_node<edf_entity>;
struct dtask : dnode {};
using dgroup_rq = group_policy<dtask, edf_policy<dnode>>;
}  // namespace review

TEST(GroupPolicySetupGroup, AProbeValidationLeavesNoTraceInTheParentQueue) {
  using namespace review;
  dgroup_rq rq;
  dgroup_rq::task_group g;
  ASSERT_EQ(rq.attach_group(g, nullptr), errc::ok);
  sched_params p;
  p.kind = sched_kind::deadline;
  p.runtime = msec(3);
  p.deadline = msec(10);
  p.period = msec(10);
  ASSERT_EQ(rq.setup_group(g, p, sched_time{}), errc::ok);
  const u64 one = rq.root().total_bandwidth();
  // the same parameters again (a no-op change) must not admit anything more
  ASSERT_EQ(rq.setup_group(g, p, sched_time{}), errc::ok);
  EXPECT_EQ(rq.root().total_bandwidth(), one);
  // 30 % each: a second group still fits (95 % bound)
  dgroup_rq::task_group g2;
  ASSERT_EQ(rq.attach_group(g2, nullptr), errc::ok);
  EXPECT_EQ(rq.setup_group(g2, p, sched_time{}), errc::ok);
}

// configure installs the knobs in every queue or in none. A group's queue can refuse what the
// root takes (edf: its own admitted 50 % over a 20 % bound, while the root holds only the
// group's 10 %); configure used to ignore the groups' answers and return ok, leaving the root at
// 20 % and the group at 95 %, which then admitted another 40 %.
TEST(GroupPolicyConfigure, AQueueThatRefusesLeavesEveryQueueAsItWas) {
  using namespace review;
  dgroup_rq rq;
  dgroup_rq::task_group g;
  ASSERT_EQ(rq.attach_group(g, nullptr), errc::ok);
  auto dl = [](std::int64_t q) {
    sched_params p;
    p.kind = sched_kind::deadline;
    p.runtime = q;
    p.deadline = msec(10);
    p.period = msec(10);
    return p;
  };
  ASSERT_EQ(rq.setup_group(g, dl(msec(1)), sched_time{}), errc::ok);  // the root holds 10 %
  dtask t, u;
  ASSERT_EQ(rq.set_group(t, &g, sched_time{}), errc::ok);
  ASSERT_EQ(rq.setup(t, dl(msec(5))), errc::ok);  // g's queue holds 50 %
  const auto before = rq.config();
  dgroup_rq::knobs k = before;
  k.bound = 20;
  EXPECT_EQ(rq.configure(k), errc::overloaded);
  EXPECT_EQ(rq.config().bound, before.bound) << "the root kept the refused knobs";
  // g's queue kept its bound too: 40 % more fits under 95 % (50 + 40), and nothing beyond it.
  ASSERT_EQ(rq.set_group(u, &g, sched_time{}), errc::ok);
  EXPECT_EQ(rq.setup(u, dl(msec(4))), errc::ok);
  dtask v;
  ASSERT_EQ(rq.set_group(v, &g, sched_time{}), errc::ok);
  EXPECT_EQ(rq.setup(v, dl(msec(1))), errc::overloaded) << "g's queue is at 90 % of a 95 % bound";
  // Knobs every queue takes still go everywhere: a 100 % bound admits the 10 % more in g.
  k.bound = 100;
  EXPECT_EQ(rq.configure(k), errc::ok);
  EXPECT_EQ(rq.setup(v, dl(msec(1))), errc::ok);
}

// CFS sched_yield() of a task alone in its group (an autogroup session with one task): the
// kernel's yield_task_fair returns early only when the whole CPU has one task, and
// set_skip_buddy marks the yielder's entity at every level, so the group is the root's skip
// buddy and the other group runs if it is within wakeup_gran (pick_next_entity).
TEST(GroupPolicyYield, CfsYieldOfALoneTaskSkipsItsGroupAtTheRoot) {
  using S = cfs_setup;
  S::policy rq;
  S::group a, b;
  ASSERT_EQ(rq.attach_group(a, nullptr), errc::ok);
  ASSERT_EQ(rq.attach_group(b, nullptr), errc::ok);
  S::task x, y;
  ASSERT_EQ(rq.set_group(x, &a, sched_time{}), errc::ok);
  ASSERT_EQ(rq.set_group(y, &b, sched_time{}), errc::ok);
  review::mini_cpu<S::policy> cpu(rq);
  cpu.wake(x);
  cpu.wake(y);
  int checked = 0;
  for (int i = 0; i < 400; ++i) {
    cpu.run_for(review::kMs);
    if (cpu.curr != &x) continue;
    rq.yield(x, cpu.now());
    rq.put_prev(x, cpu.now());
    const duration_ns d = static_cast<cfs_entity&>(b).vruntime - static_cast<cfs_entity&>(a).vruntime;
    S::task* next = rq.pick_next(cpu.now());
    if (d >= 0 && d <= rq.root().wakeup_granularity()) {
      EXPECT_EQ(next, &y) << i;
      ++checked;
    }
    cpu.curr = next;
    rq.set_next(*next, cpu.now());
  }
  EXPECT_GT(checked, 0);
}

// ... and in the yielder's own group: yield_task_fair tests the CPU's count (rq->nr_running ==
// 1), not the group's, so a task alone in its group is that queue's skip buddy too, passed over
// for a task that joins the group before the group's next pick if that task is within
// wakeup_gran. x and z share group a, y is in b; whenever x runs, z is taken out (`save`), x
// yields alone in a, and z comes back (`restore`, its place relative to a's min_vruntime kept):
// a's pick is then z whenever 0 <= v(z) - v(x) <= wakeup_gran. (Found by a model of 6.5's
// fair.c run beside the policy: the skip was set only in queues holding more than one node.)
TEST(GroupPolicyYield, CfsYieldOfALoneTaskSkipsItInItsGroupForATaskThatJoins) {
  using S = cfs_setup;
  S::policy rq;
  S::group a, b;
  ASSERT_EQ(rq.attach_group(a, nullptr), errc::ok);
  ASSERT_EQ(rq.attach_group(b, nullptr), errc::ok);
  S::task x, y, z;
  ASSERT_EQ(rq.set_group(x, &a, sched_time{}), errc::ok);
  ASSERT_EQ(rq.set_group(y, &b, sched_time{}), errc::ok);
  ASSERT_EQ(rq.set_group(z, &a, sched_time{}), errc::ok);
  review::mini_cpu<S::policy> cpu(rq);
  cpu.wake(x);
  cpu.wake(y);
  cpu.wake(z);
  int checked = 0;
  for (int i = 0; i < 600; ++i) {
    cpu.run_for(review::kMs);
    if (cpu.curr != &x) continue;
    rq.dequeue(z, cpu.now(), dequeue_flags::save);
    rq.yield(x, cpu.now());
    rq.put_prev(x, cpu.now());
    rq.enqueue(z, cpu.now(), enqueue_flags::restore);
    const duration_ns d = static_cast<cfs_entity&>(z).vruntime - static_cast<cfs_entity&>(x).vruntime;
    if (d >= 0 && d <= a.queue().wakeup_granularity()) {
      EXPECT_EQ(a.queue().pick_next(cpu.now()), static_cast<S::node*>(&z)) << i;
      ++checked;
    }
    S::task* next = rq.pick_next(cpu.now());
    cpu.curr = next;
    rq.set_next(*next, cpu.now());
  }
  EXPECT_GT(checked, 0);
  EXPECT_TRUE(rq.verify());
}

namespace {
// ---- in-place reweight (the kernel's reweight_entity), what calc_group_shares calls ----
// Oracle (Linux 6.13+ reweight_entity, commit 6d71a9c61604): a queued entity keeps its real
// lag w·(V − v) and the real time left in its request w·(d − v) across a weight change; the
// queue's sums stay exact (verify()).
using eevdf_task = group_node<eevdf_entity>;
TEST(GroupReweight, EevdfKeepsRealLagAndRequestOfQueuedAndRunningEntities) {
  eevdf_policy<eevdf_task> q;
  eevdf_task t[3];
  sched_time now{};
  for (auto& x : t) q.enqueue(x, now, enqueue_flags::wakeup);
  // Let the three run unevenly so they have lags of both signs.
  for (int i = 0; i < 7; ++i) {
    eevdf_task* c = q.pick_next(now);
    ASSERT_NE(c, nullptr);
    q.set_next(*c, now);
    now += usec(300 + 170 * i);
    (void)q.tick(*c, now);
    q.put_prev(*c, now);
  }
  eevdf_task* run = q.pick_next(now);
  ASSERT_NE(run, nullptr);
  q.set_next(*run, now);
  now += usec(200);
  for (eevdf_task* x : {static_cast<eevdf_task*>(nullptr), run}) {
    eevdf_task& e = x != nullptr ? *x : (run == &t[0] ? t[1] : t[0]);
    const eevdf_entity& en = e;
    (void)q.tick(*run, now);  // charge curr so V is current
    const double w0 = en.weight;
    const double lag0 = (static_cast<double>(static_cast<s64>(q.avg_vruntime() - en.vruntime))) * w0;
    const double req0 = static_cast<double>(static_cast<s64>(en.deadline - en.vruntime)) * w0;
    ASSERT_EQ(q.reweight(e, 3072, now), errc::ok);
    EXPECT_TRUE(q.verify());
    const double w1 = en.weight;
    EXPECT_EQ(w1, 3072);
    const double lag1 = (static_cast<double>(static_cast<s64>(q.avg_vruntime() - en.vruntime))) * w1;
    const double req1 = static_cast<double>(static_cast<s64>(en.deadline - en.vruntime)) * w1;
    EXPECT_NEAR(lag1, lag0, 4 * w1) << (x ? "running" : "queued");   // a few virtual ns of rounding
    EXPECT_NEAR(req1, req0, 4 * w1) << (x ? "running" : "queued");
    EXPECT_EQ(q.reweight(e, 1, now), errc::invalid_argument);       // below MIN_SHARES: refused
    EXPECT_EQ(en.weight, 3072u);
  }
  EXPECT_EQ(q.load(), 1024u + 3072u + 3072u);
}

// cfs: the weight changes in place, curr keeps its vruntime and its slice already used
// (sum_exec_runtime since it was picked), and load() follows.
TEST(GroupReweight, CfsChangesTheLoadInPlaceAndKeepsTheRunningSlice) {
  cfs_policy<group_node<cfs_entity>> q;
  group_node<cfs_entity> t[2];
  sched_time now{};
  for (auto& x : t) q.enqueue(x, now, enqueue_flags::wakeup);
  auto* c = q.pick_next(now);
  ASSERT_NE(c, nullptr);
  q.set_next(*c, now);
  const cfs_entity& ce = *c;
  const vtime v0 = ce.vruntime;
  now += msec(2);
  ASSERT_EQ(q.reweight(*c, 512, now), errc::ok);
  EXPECT_EQ(ce.vruntime - v0, msec(2)) << "2 ms charged at the old weight 1024; the reweight adds nothing";
  EXPECT_TRUE(q.verify());
  EXPECT_EQ(q.load(), 1024u + 512u);
  // The 2 ms it ran are charged and still count against its slice (a requeue and set_next
  // would have restarted the slice at 0).
  EXPECT_EQ(ce.sum_exec_runtime - ce.prev_sum_exec_runtime, static_cast<u64>(msec(2)));
  EXPECT_EQ(q.reweight(*c, (1u << 18) + 1, now), errc::invalid_argument);
  EXPECT_EQ(q.load(), 1024u + 512u);
}
}  // namespace

namespace {
// ---- cfs buddies along whole paths (6.5's fair.c) ----
// Oracle: check_preempt_wakeup's set_next_buddy(pse) and set_last_buddy(se) mark the entity
// and every level above it (for_each_sched_entity); dequeue_task_fair marks the first group
// still queued above a task that sleeps (set_next_buddy(parent_entity)); clear_buddies climbs
// while the queue above marks the same path; pick_next_entity takes the next buddy when
// wakeup_preempt_entity(next, left) < 1, i.e. when it is at most wakeup_gran behind the leftmost.
// Groups a and b under the root hold x, z and y; each test counts the picks where b is the
// root's leftmost and a within wakeup_gran of it, the picks the marks decide.
template <class GroupSetup>
struct TwoGroups : ::testing::Test {
  using S = GroupSetup;
  typename S::policy rq;
  typename S::group a, b;
  typename S::task x, y, z;  // x and z in a, y in b
  void SetUp() override {
    ASSERT_EQ(rq.attach_group(a, nullptr), errc::ok);
    ASSERT_EQ(rq.attach_group(b, nullptr), errc::ok);
    ASSERT_EQ(rq.set_group(x, &a, sched_time{}), errc::ok);
    ASSERT_EQ(rq.set_group(y, &b, sched_time{}), errc::ok);
    ASSERT_EQ(rq.set_group(z, &a, sched_time{}), errc::ok);
  }
};
struct CfsBuddies : TwoGroups<cfs_setup> {
  // v(a) - v(b) at the root: a node's vruntime (both weigh 1024, so wakeup_gran is unscaled).
  duration_ns a_behind_b() { return static_cast<cfs_entity&>(a).vruntime - static_cast<cfs_entity&>(b).vruntime; }
  bool mark_decides() {
    const duration_ns d = a_behind_b();
    return d > 0 && d <= rq.root().wakeup_granularity();
  }
};
using cfs_inner = cfs_policy<cfs_setup::node>;
}  // namespace

// z wakes in a while x runs and preempts it (the paths meet in a's queue): z is a's next buddy
// and a the root's, so the CPU stays in a when b is only slightly ahead. (Marked only in a's
// queue, the root picked b: y ran.)
TEST_F(CfsBuddies, APreemptingWakeeKeepsTheCpuInItsGroup) {
  review::mini_cpu<S::policy> cpu(rq);
  cpu.wake(x);
  cpu.wake(y);
  int checked = 0, slept_ms = 0;
  for (int i = 0; i < 3000; ++i) {
    cpu.run_for(review::kMs);
    if (cpu.curr == &z) {
      cpu.block(z);  // z runs a millisecond at a time
      slept_ms = 0;
      continue;
    }
    const bool z_asleep = !static_cast<S::node&>(z).queued;
    if (!z_asleep || cpu.curr != &x || ++slept_ms < 4) continue;
    rq.enqueue(z, cpu.now(), enqueue_flags::wakeup);
    if (!rq.wakeup_preempt(z, x, cpu.now())) continue;
    EXPECT_NE(a.queue().buddy_marks(z) & cfs_inner::buddy_next, 0) << i;
    EXPECT_NE(rq.root().buddy_marks(a) & cfs_inner::buddy_next, 0) << i;
    rq.put_prev(x, cpu.now());
    const bool decides = mark_decides();
    S::task* next = rq.pick_next(cpu.now());
    if (decides) {
      EXPECT_EQ(next, &z) << i;
      ++checked;
    }
    cpu.curr = next;
    rq.set_next(*next, cpu.now());
  }
  EXPECT_GT(checked, 0);
  EXPECT_TRUE(rq.verify());
}

// A wakee of another group that preempts meets curr at the root, as groups: it is the root's
// next buddy, and no last buddy is set, although the root holds nine nodes (sched_nr_latency
// is 8): the kernel's LAST_BUDDY needs the entities compared to be tasks (entity_is_task) and
// takes its scale from curr's own queue. (The root marked a as its last buddy.)
TEST_F(CfsBuddies, APreemptionBetweenGroupsSetsNoLastBuddy) {
  std::vector<S::task> r(7);  // tasks of the root queue
  review::mini_cpu<S::policy> cpu(rq);
  cpu.wake(x);
  cpu.wake(y);
  for (S::task& t : r) cpu.wake(t);
  cpu.run_for(30 * review::kMs);
  cpu.block(y);
  int checked = 0, y_slept = 0;
  for (int i = 0; i < 3000; ++i) {
    cpu.run_for(review::kMs);
    if (cpu.curr == &y) {
      cpu.block(y);
      y_slept = 0;
      continue;
    }
    if (static_cast<S::node&>(y).queued || cpu.curr != &x || ++y_slept < 20) continue;
    rq.enqueue(y, cpu.now(), enqueue_flags::wakeup);
    if (!rq.wakeup_preempt(y, x, cpu.now())) continue;
    EXPECT_EQ(rq.root().buddy_marks(b), cfs_inner::buddy_next) << i;
    EXPECT_EQ(rq.root().buddy_marks(a), 0) << i;
    ++checked;
    cpu.resched();
  }
  EXPECT_GT(checked, 0);
  EXPECT_TRUE(rq.verify());
}

// x blocks while z stays queued in a: a is the root's next buddy (dequeue_task_fair: "p is
// sleeping when it is within its sched_slice"), so z runs when b is only slightly ahead. (The
// hint was absent: the root picked b.)
TEST_F(CfsBuddies, ATaskThatSleepsLeavesItsGroupAsTheNextBuddy) {
  review::mini_cpu<S::policy> cpu(rq);
  cpu.wake(x);
  cpu.wake(y);
  cpu.wake(z);
  int checked = 0, x_slept = 0;
  for (int i = 0; i < 3000; ++i) {
    cpu.run_for(review::kMs);
    if (!static_cast<S::node&>(x).queued) {
      if (++x_slept >= 3) cpu.wake(x);
      continue;
    }
    if (cpu.curr != &x || i % 3 != 0) continue;
    rq.dequeue(x, cpu.now(), dequeue_flags::sleep);  // the running task blocks: its groups stop running
    x_slept = 0;
    EXPECT_EQ(rq.root().buddy_marks(a), cfs_inner::buddy_next) << i;
    const bool decides = mark_decides();
    cpu.curr = rq.pick_next(cpu.now());
    if (decides) {
      EXPECT_EQ(cpu.curr, &z) << i;
      ++checked;
    }
    rq.set_next(*cpu.curr, cpu.now());
  }
  EXPECT_GT(checked, 0);
  EXPECT_TRUE(rq.verify());
}

// An exit is a sleep to the kernel (do_task_dead's __schedule dequeues with DEQUEUE_SLEEP), so
// x exiting while it runs leaves a, where z is still queued, as the root's next buddy. (Given on
// `sleep` only, no mark was set.)
TEST_F(CfsBuddies, ATaskThatExitsLeavesItsGroupAsTheNextBuddy) {
  review::mini_cpu<S::policy> cpu(rq);
  cpu.wake(x);
  cpu.wake(y);
  cpu.wake(z);
  for (int i = 0; i < 100 && cpu.curr != &x; ++i) cpu.run_for(review::kMs);
  ASSERT_EQ(cpu.curr, &x);
  rq.dequeue(x, cpu.now(), dequeue_flags::dead);
  EXPECT_EQ(rq.root().buddy_marks(a), cfs_inner::buddy_next);
  EXPECT_EQ(rq.root().buddy_marks(b), 0);
  cpu.curr = rq.pick_next(cpu.now());
  ASSERT_NE(cpu.curr, nullptr);
  rq.set_next(*cpu.curr, cpu.now());
  EXPECT_TRUE(rq.verify());
}

// The climbs clear too. z's preemption marks z (in a) and a (at the root) as next buddies; z,
// taken out before it runs (a move: `save`, no sleep hint), clears its mark, and clear_buddies
// climbs to the root's mark of a.
TEST_F(CfsBuddies, ADequeueClearsTheMarksAboveAlongThePath) {
  review::mini_cpu<S::policy> cpu(rq);
  cpu.wake(x);
  cpu.wake(y);
  cpu.wake(z);
  cpu.run_for(20 * review::kMs);
  cpu.block(z);
  for (int i = 0; i < 1000; ++i) {  // until z, woken while x runs, preempts it
    cpu.run_for(review::kMs);
    if (cpu.curr != &x) continue;
    rq.enqueue(z, cpu.now(), enqueue_flags::wakeup);
    if (rq.wakeup_preempt(z, x, cpu.now())) break;
    rq.dequeue(z, cpu.now(), dequeue_flags::sleep);
  }
  ASSERT_EQ(rq.root().buddy_marks(a), cfs_inner::buddy_next);
  rq.dequeue(z, cpu.now(), dequeue_flags::save);
  EXPECT_EQ(a.queue().buddy_marks(z), 0);
  EXPECT_EQ(rq.root().buddy_marks(a), 0) << "the climb from z clears a's mark";
  EXPECT_TRUE(rq.verify());
}

// ... and so does a slice used up at a tick (check_preempt_tick's clear_buddies). x yields:
// it is a's skip buddy and a the root's (set_skip_buddy). Until the reschedule, ticks go on:
// x's slice in a (6 ms latency, two tasks: 3 ms, less 2 ns of the inverse weight's rounding)
// ends at the third, a's at the root (weight 4096 against 1024: 4.8 ms) later, so the root's
// mark goes only by the climb from x.
TEST_F(CfsBuddies, ATickThatEndsASliceClearsTheMarksAbove) {
  ASSERT_EQ(rq.set_group_weight(a, 4096, sched_time{}), errc::ok);
  review::mini_cpu<S::policy> cpu(rq);
  cpu.wake(x);
  cpu.wake(y);
  cpu.wake(z);
  cpu.run_for(20 * review::kMs);
  rq.put_prev(*cpu.curr, cpu.now());
  rq.set_next(x, cpu.now());  // x starts a fresh slice at every level
  cpu.curr = &x;
  rq.yield(x, cpu.now());
  ASSERT_EQ(a.queue().buddy_marks(x), cfs_inner::buddy_skip);
  ASSERT_EQ(rq.root().buddy_marks(a), cfs_inner::buddy_skip);
  EXPECT_GT(rq.root().sched_slice(a), a.queue().sched_slice(x) + 1000000);
  int ms = 0;
  while (a.queue().buddy_marks(x) != 0 && ms < 10) {
    cpu.now_ns += review::kMs;
    ++ms;
    (void)rq.tick(x, cpu.now());
    if (ms < 3) {
      EXPECT_EQ(rq.root().buddy_marks(a), cfs_inner::buddy_skip) << ms;
    }
  }
  EXPECT_EQ(ms, 3) << "x's slice in a ends at the third tick";
  EXPECT_EQ(rq.root().buddy_marks(a), 0) << "the climb from x clears a's skip mark";
  EXPECT_TRUE(rq.verify());
}

// A knob set by its name: tests of a knob that older headers lack still build (and fail) there.
namespace {
template <class Knobs, class Table>
bool set_knob_by_name(Knobs& k, const Table& table, const char* name, s64 value) {
  for (const auto& info : table) {
    if (std::strcmp(info.name, name) != 0) continue;
    k.*(info.field) = value;
    return true;
  }
  return false;
}
}  // namespace

namespace {
// ---- eevdf under groups: what the kernel's pick keeps and a yield alone in a group ----
// Oracle (Linux 6.6-6.11 fair.c): pick_task_fair (6.11+; pick_next_task_fair's FAIR_GROUP_SCHED
// path before) walks down with each queue's curr still in place, and pick_eevdf returns a curr
// that is eligible and still protected by RUN_TO_PARITY (vlag == deadline: the deadline it was
// picked with); yield_task_fair returns early only when the CPU runs one task (rq->nr_running
// == 1), then pushes the yielder's deadline one slice back in its own queue.
struct EevdfGroups : TwoGroups<eevdf_setup> {
  static eevdf_entity& E(S::group& g) { return g; }
  // With PREEMPT_SHORT (and `group_min_slice` if asked): y runs in b from 0; x, in a with a
  // 0.3 ms custom slice, wakes at `woke`.
  void wake_short_x_while_y_runs(bool group_min_slice, sched_time woke) {
    S::policy::knobs k;
    k.preempt_short = 1;
    if (group_min_slice) {
      ASSERT_TRUE(set_knob_by_name(k, S::policy::knob_table, "group_min_slice", 1));
    }
    ASSERT_EQ(rq.configure(k), errc::ok);
    sched_params shortp{};
    shortp.runtime = usec(300);
    ASSERT_EQ(rq.setup(x, shortp), errc::ok);
    rq.enqueue(y, sched_time{}, enqueue_flags::wakeup);
    ASSERT_EQ(rq.pick_next(sched_time{}), &y);
    rq.set_next(y, sched_time{});
    rq.enqueue(x, woke, enqueue_flags::wakeup);
  }
};
}  // namespace

// x blocks while z is queued beside it in a: a's node still runs at the root until the pick,
// so while it is eligible and on the deadline it was picked with, the root keeps it and z runs,
// even where a fresh pick of the root would take b. (Every level was put back first: y ran.)
TEST_F(EevdfGroups, AGroupWhoseTaskBlocksKeepsTheCpuWhileRunToParityProtectsIt) {
  review::mini_cpu<S::policy> cpu(rq);
  cpu.wake(x);
  cpu.wake(y);
  cpu.wake(z);
  int checked = 0, x_slept = 0;
  for (int i = 0; i < 4000; ++i) {
    cpu.run_for(review::kMs / 4);  // quarter-millisecond steps: blocks inside a's request
    if (!static_cast<S::node&>(x).queued) {
      if (++x_slept >= 5) cpu.wake(x);
      continue;
    }
    if (cpu.curr != &x || i % 3 != 0) continue;
    rq.dequeue(x, cpu.now(), dequeue_flags::sleep);
    x_slept = 0;
    const bool keeps = rq.root().entity_eligible(a) && E(a).vprot == E(a).deadline;
    const bool fresh_takes_b = rq.root().pick_next(cpu.now()) == static_cast<S::node*>(&b);
    cpu.curr = rq.pick_next(cpu.now());
    if (keeps) {
      EXPECT_EQ(cpu.curr, &z) << i;
      if (fresh_takes_b) ++checked;
    }
    rq.set_next(*cpu.curr, cpu.now());
  }
  EXPECT_GT(checked, 0);
  EXPECT_TRUE(rq.verify());
}

// x, alone in a, yields while y runs beside it in b: the CPU has two tasks, so x's request is
// pushed one slice back (0.75 ms at nice 0, 6.6's base slice on one CPU). (Its own queue held
// one node: nothing changed.)
TEST_F(EevdfGroups, AYieldOfATaskAloneInItsGroupPushesItsDeadline) {
  review::mini_cpu<S::policy> cpu(rq);
  cpu.wake(x);
  cpu.wake(y);
  while (cpu.curr != &x) cpu.run_for(review::kMs);
  rq.put_prev(x, cpu.now());
  rq.set_next(x, cpu.now());  // nothing charged before the yield
  const vtime before = static_cast<eevdf_entity&>(x).deadline;
  rq.yield(x, cpu.now());
  EXPECT_EQ(static_cast<eevdf_entity&>(x).deadline - before, usec(750));
  rq.dequeue(y, cpu.now(), dequeue_flags::sleep);  // alone on the CPU: no effect
  const vtime alone = static_cast<eevdf_entity&>(x).deadline;
  rq.yield(x, cpu.now());
  EXPECT_EQ(static_cast<eevdf_entity&>(x).deadline, alone);
}

namespace {
// ---- eevdf under groups, 6.12.y / 6.13+: PICK_BUDDY and the cgroup next buddy ----
// Oracle (Linux 6.12.20 fair.c, features.h; "sched/fair: Untangle NEXT_BUDDY and
// pick_next_task()"): dequeue_entities, when a task sleeps and its queue still holds load,
// makes the first group still queued above it the next buddy of its queue and of each queue
// above (set_next_buddy); pick_next_entity returns cfs_rq->next before pick_eevdf when
// sched_feat(PICK_BUDDY) (on) and the buddy is eligible (entity_eligible), RUN_TO_PARITY or
// not; clear_buddies drops it at the group's dequeue, at a set_next_entity of it and at a
// charge of it that reschedules (update_curr). 6.6-6.11 picked it only with NEXT_BUDDY (off).
// Groups a (x, z; weight 2048) and b (y), and under the root w, whose request is short
// (sched_runtime 0.1 ms), 6.12's knobs. Each time the task running in a blocks while its
// sibling waits there, w wakes at that instant: the wakeup's check is pick_eevdf's, without the
// buddy (check_preempt_wakeup_fair), and w's shorter request cancels a's RUN_TO_PARITY
// (PREEMPT_SHORT), so w preempts; the pick that follows is pick_next_entity's, which takes a,
// still marked and eligible, so the sibling runs on. The picks checked are those where a is
// eligible at the root (a pick without the mark returns w there: the state is the check's).
// w blocks as soon as it is picked.
// The knob is set by its name (set_knob_by_name), so that this file also builds (and these
// tests fail) against headers without it.
struct EevdfPickBuddy : EevdfGroups {
  S::task w;  // under the root
  int decided = 0, kept = 0;
  void configure(bool pick_buddy) {
    eevdf_policy<S::node>::knobs k;
    k.place_deadline_initial = 0;
    k.delay_dequeue = 1;
    k.preempt_short = 1;
    k.place_rel_deadline = 1;
    k.repick_keeps_vprot = 1;
    if (pick_buddy) {
      ASSERT_TRUE(set_knob_by_name(k, eevdf_policy<S::node>::knob_table, "pick_buddy", 1));
    }
    ASSERT_EQ(rq.configure(k), errc::ok);
    ASSERT_EQ(rq.set_group_weight(a, 2048, sched_time{}), errc::ok);
    sched_params p{};
    p.runtime = usec(100);
    ASSERT_EQ(rq.setup(w, p), errc::ok);
  }
  void drive() {
    review::mini_cpu<S::policy> cpu(rq);
    for (S::task* t : {&w, &x, &y, &z}) cpu.wake(*t);
    S::task* asleep = nullptr;
    for (int i = 0; i < 2000; ++i) {
      cpu.run_for(review::kMs);
      if (cpu.curr == &w) cpu.block(w);
      if (asleep != nullptr) {
        cpu.wake(*asleep);
        asleep = nullptr;
        continue;
      }
      if (cpu.curr != &x && cpu.curr != &z) continue;
      S::task* const r = cpu.curr;
      S::task* const sibling = r == &x ? &z : &x;
      if (!static_cast<S::node&>(*sibling).queued || rq.delayed(*sibling)) continue;
      cpu.block(*r);
      asleep = r;
      // A sleeper that is delayed leaves no mark (dequeue_entities returns first).
      if (rq.delayed(*r) || cpu.curr != sibling || static_cast<S::node&>(w).queued) continue;
      rq.enqueue(w, cpu.now(), enqueue_flags::wakeup);
      if (!rq.wakeup_preempt(w, *cpu.curr, cpu.now())) continue;
      rq.put_prev(*cpu.curr, cpu.now());
      const bool a_eligible = rq.root().entity_eligible(a);
      cpu.curr = rq.pick_next(cpu.now());
      ASSERT_NE(cpu.curr, nullptr);
      rq.set_next(*cpu.curr, cpu.now());
      if (!a_eligible) continue;
      ++decided;
      if (cpu.curr == sibling) ++kept;
    }
    EXPECT_TRUE(rq.verify());
  }
};
}  // namespace

// With pick_buddy (6.12.y, 6.13+): the root takes a, its next buddy, while a is eligible, so
// the sibling runs on although w won the wakeup check. (Without the rule, the library ran w:
// every checked pick differed.)
TEST_F(EevdfPickBuddy, ASleepersGroupIsTheNextBuddyAndThePickTakesItWhileEligible) {
  ASSERT_NO_FATAL_FAILURE(configure(true));
  ASSERT_NO_FATAL_FAILURE(drive());
  EXPECT_GT(decided, 0);
  EXPECT_EQ(kept, decided) << "of " << decided;
}

// The default (6.6-6.11: NEXT_BUDDY off, no PICK_BUDDY) is unchanged: the pick follows the
// wakeup check and runs w.
TEST_F(EevdfPickBuddy, WithoutPickBuddyThePickFollowsTheWakeupCheck) {
  ASSERT_NO_FATAL_FAILURE(configure(false));
  ASSERT_NO_FATAL_FAILURE(drive());
  EXPECT_GT(decided, 0);
  EXPECT_EQ(kept, 0) << "of " << decided;
}

// ---- 6.12's group slice (commit aef6987d8954, knob group_min_slice) ----
// Oracle (Linux 6.12 fair.c): enqueue_task_fair gives a group entity about to be enqueued
// se->slice = cfs_rq_min_slice(its own cfs_rq) and custom_slice = 1, so place_entity issues
// that request (deadline = v + calc_delta_fair(slice), here unscaled: a and b weigh 1024);
// the second loop of enqueue_task_fair and of dequeue_entities rewrites se->slice of the groups
// already queued, without requeueing them (their deadlines stay). do_preempt_short compares the
// slices of the two entities where the wakee's and curr's paths meet (find_matching_se): here
// a's and b's nodes at the root. The knob is set by its name (set_knob_by_name, above), so
// that these tests also build (and fail) on headers without it.

// x (a 0.3 ms slice) wakes in a 0.1 ms after y (the base slice, 0.75 ms) started running in b:
// a's node enters the root with x's slice, v + 0.3 ms (0.1 ms + 0.3 ms past b's start), ahead
// of b's v + 0.75 ms, and PREEMPT_SHORT (a's 0.3 ms < b's 0.75 ms, a eligible at V) cancels
// b's RUN_TO_PARITY: x preempts y. (With a's slice the base slice, a's deadline was 0.85 ms
// past b's start, later than b's: no preemption.)
TEST_F(EevdfGroups, AShorterSliceBelowAGroupLetsItPreemptAtTheRoot) {
  const sched_time woke{usec(100)};
  wake_short_x_while_y_runs(true, woke);
  EXPECT_EQ(E(a).slice, usec(300));
  EXPECT_EQ(E(a).deadline - E(a).vruntime, usec(300));
  EXPECT_EQ(E(b).deadline - E(a).deadline, usec(750) - usec(400));
  EXPECT_TRUE(rq.wakeup_preempt(x, y, woke));
  rq.put_prev(y, woke);
  EXPECT_EQ(rq.pick_next(woke), &x);
  EXPECT_TRUE(rq.verify());
}

// a's slice follows its queue: x (0.3 ms) makes it 0.3 ms, z (the base slice) joining changes
// nothing, and once x blocks a's queued node takes 0.75 ms in place, its deadline unchanged
// (dequeue_entities' second loop). When a empties and comes back with z alone, it is placed
// with z's 0.75 ms. (The group node kept the base slice throughout.)
TEST_F(EevdfGroups, AGroupSliceFollowsItsQueueAsTasksComeAndGo) {
  S::policy::knobs k;
  ASSERT_TRUE(set_knob_by_name(k, S::policy::knob_table, "group_min_slice", 1));
  ASSERT_EQ(rq.configure(k), errc::ok);
  sched_params shortp{};
  shortp.runtime = usec(300);
  ASSERT_EQ(rq.setup(x, shortp), errc::ok);
  rq.enqueue(y, sched_time{}, enqueue_flags::wakeup);
  rq.enqueue(x, sched_time{}, enqueue_flags::wakeup);
  EXPECT_EQ(E(a).slice, usec(300));
  rq.enqueue(z, sched_time{}, enqueue_flags::wakeup);
  EXPECT_EQ(E(a).slice, usec(300));
  const vtime deadline = E(a).deadline;
  rq.dequeue(x, sched_time{}, dequeue_flags::sleep);
  EXPECT_EQ(E(a).slice, usec(750));
  EXPECT_EQ(E(a).deadline, deadline) << "a queued group is not requeued";
  rq.dequeue(z, sched_time{}, dequeue_flags::sleep);
  rq.enqueue(z, sched_time{usec(10)}, enqueue_flags::wakeup);
  EXPECT_EQ(E(a).deadline - E(a).vruntime, usec(750));
  EXPECT_TRUE(rq.verify());
}

namespace {
// The root's buddy marks of `n` where the headers have them (0 otherwise), so that this file
// also builds against headers without PICK_BUDDY.
template <class Q, class N>
auto buddy_marks_of(const Q& q, const N& n, int) -> decltype(int(q.buddy_marks(n))) {
  return q.buddy_marks(n);
}
template <class Q, class N>
int buddy_marks_of(const Q&, const N&, long) {
  return 0;
}
}  // namespace

// Both 6.12.y rules at once (pick_buddy and group_min_slice): a pick that finishes a delayed
// sleeper is a dequeue_entities(DEQUEUE_SLEEP | DEQUEUE_DELAYED), whose first loop makes the
// group still loaded above it the next buddy (set_next_buddy) and whose second loop gives that
// group the shortest slice left in its queue. Here x (0.3 ms) sleeps ineligible in a, stays as a
// delayed sleeper beside z (the base slice), and a later pick finishes it: right after that
// pick, before set_next, a is the root's next buddy and a's node has z's 0.75 ms (x's 0.3 ms
// counted while x stayed queued, delayed).
TEST_F(EevdfGroups, APickThatFinishesADelayedSleeperMarksTheBuddyAndSetsTheGroupSlice) {
  S::policy::knobs k;
  k.delay_dequeue = 1;
  k.repick_keeps_vprot = 1;
  ASSERT_TRUE(set_knob_by_name(k, S::policy::knob_table, "pick_buddy", 1));
  ASSERT_TRUE(set_knob_by_name(k, S::policy::knob_table, "group_min_slice", 1));
  ASSERT_EQ(rq.configure(k), errc::ok);
  sched_params shortp{};
  shortp.runtime = usec(300);
  ASSERT_EQ(rq.setup(x, shortp), errc::ok);
  std::int64_t now_ns = 0;
  const auto at = [&] { return sched_time{static_cast<std::uint64_t>(now_ns)}; };
  S::task* curr = nullptr;
  int finished = 0, marked = 0, sliced = 0, short_before = 0;
  // (A node's `queued` is brought up to date lazily after an inner pick finished its dequeue.)
  const auto x_queued = [&] { return static_cast<S::node&>(x).queued && (rq.delayed(x) || !static_cast<S::node&>(x).dequeue_delayed); };
  const auto pick = [&] {
    const bool x_delayed = x_queued() && rq.delayed(x);
    const bool was_short = E(a).slice == usec(300);
    curr = rq.pick_next(at());
    ASSERT_NE(curr, nullptr);
    if (x_delayed && !x_queued() && static_cast<S::node&>(z).queued && !rq.delayed(z)) {
      ++finished;
      if (was_short) ++short_before;
      if (buddy_marks_of(rq.root(), static_cast<const S::node&>(a), 0) != 0) ++marked;
      if (E(a).slice == usec(750)) ++sliced;
    }
    rq.set_next(*curr, at());
  };
  for (S::task* t : {&x, &y, &z}) rq.enqueue(*t, at(), enqueue_flags::wakeup);
  pick();
  int x_slept = 0;
  for (int i = 0; i < 4000 && !HasFatalFailure(); ++i) {
    now_ns += review::kMs / 5;  // ticks shorter than x's request: it runs on ineligible
    if (rq.tick(*curr, at())) {
      rq.put_prev(*curr, at());
      pick();
    }
    if (!x_queued() && ++x_slept >= 3) {
      rq.enqueue(x, at(), enqueue_flags::wakeup);
      if (rq.wakeup_preempt(x, *curr, at())) {
        rq.put_prev(*curr, at());
        pick();
      }
      continue;
    }
    // x blocks once it has run past its place (ineligible: its dequeue is delayed).
    if (curr != &x || a.queue().entity_eligible(x) || !static_cast<S::node&>(z).queued) continue;
    rq.dequeue(x, at(), dequeue_flags::sleep);
    x_slept = 0;
    pick();
  }
  EXPECT_GT(finished, 0);
  EXPECT_EQ(short_before, finished) << "x's slice counts while it is delayed";
  EXPECT_EQ(marked, finished) << "of " << finished;
  EXPECT_EQ(sliced, finished) << "of " << finished;
  EXPECT_TRUE(rq.verify());
}

// With the default knobs (6.6-6.11, no group slices) the same wakeup finds a's node with the
// base slice, v + 0.75 ms, behind b's deadline: x does not preempt y, and a's slice is not a
// custom one.
TEST_F(EevdfGroups, ByDefaultAGroupKeepsTheBaseSlice) {
  const sched_time woke{usec(100)};
  wake_short_x_while_y_runs(false, woke);
  EXPECT_EQ(E(a).slice, usec(750));
  EXPECT_FALSE(E(a).custom_slice);
  EXPECT_EQ(E(a).deadline - E(a).vruntime, usec(750));
  EXPECT_FALSE(rq.wakeup_preempt(x, y, woke));
  EXPECT_TRUE(rq.verify());
}

// reweight_entity (6.7+) ends with update_min_vruntime: a queued entity that a heavier weight
// moves right (its positive lag shrinks by w/w') takes the queue's zero point with it when it
// held the minimum. (The zero point stayed behind.)
TEST(EevdfReweight, AReweightMovesTheZeroPoint) {
  eevdf_policy<eevdf_task> q;
  eevdf_task p, r;
  q.enqueue(p, sched_time{}, enqueue_flags::wakeup);
  q.enqueue(r, sched_time{}, enqueue_flags::wakeup);
  eevdf_task* run = q.pick_next(sched_time{});
  ASSERT_NE(run, nullptr);
  eevdf_task& waits = run == &p ? r : p;
  q.set_next(*run, sched_time{});
  (void)q.tick(*run, sched_time{msec(3)});  // run moves right; the waiting task holds the minimum
  const vtime before = q.min_vruntime();
  ASSERT_EQ(before, static_cast<eevdf_entity&>(waits).vruntime);
  ASSERT_EQ(q.reweight(waits, 3 * 1024, sched_time{msec(3)}), errc::ok);
  const vtime moved = static_cast<eevdf_entity&>(waits).vruntime;
  EXPECT_GT(moved - before, 0) << "a third of the lag is left: the vruntime moved toward V";
  EXPECT_EQ(q.min_vruntime(), moved);
  EXPECT_TRUE(q.verify());
}

// The kernel's pick after a delayed sleeper's completion starts again with curr still in
// place (pick_task_fair's `goto again`), so RUN_TO_PARITY is tested again: the completion of
// a sleeper below V raises V and can make curr eligible. Three nice-0 tasks, delay_dequeue:
// d runs 0.1 ms and blocks ineligible (delayed), o runs 0.2 ms, p runs 0.2 ms and is put
// back, ineligible but on the deadline it was picked with. The pick completes d (eligible by
// then, the earliest deadline), V passes p's vruntime, and p is kept. (Tested once, before
// the completion, o ran.)
TEST(EevdfPickKeeping, PrevIsTestedAgainAfterADelayedSleeperLeaves) {
  eevdf_policy<eevdf_task> q;
  eevdf_policy<eevdf_task>::knobs k;
  k.delay_dequeue = 1;
  ASSERT_EQ(q.configure(k), errc::ok);
  eevdf_task p, d, o;
  for (eevdf_task* t : {&p, &d, &o}) q.enqueue(*t, sched_time{}, enqueue_flags::wakeup);
  q.set_next(d, sched_time{});
  q.dequeue(d, sched_time{usec(100)}, dequeue_flags::sleep);
  ASSERT_TRUE(q.delayed(d));
  q.set_next(o, sched_time{usec(100)});
  q.put_prev(o, sched_time{usec(300)});
  q.set_next(p, sched_time{usec(300)});
  q.put_prev(p, sched_time{usec(500)});
  ASSERT_FALSE(q.entity_eligible(p));
  EXPECT_EQ(q.pick_next_keeping(p, sched_time{usec(500)}), &p);
  EXPECT_FALSE(q.delayed(d)) << "the pick completed d first";
  EXPECT_TRUE(q.entity_eligible(p));
  EXPECT_TRUE(q.verify());
}

// The same test for a task whose dequeue was delayed when it blocked: it too is still its
// queue's curr in the kernel's pick (on_rq, delayed), so group_policy hands it to its queue's
// pick, which finishes it once a finish elsewhere has made it eligible while RUN_TO_PARITY
// protects it (pick_eevdf returns it, pick_next_entity finishes it: lag 0). At the root, nice
// 0, 3 ms slices, all queued at 0: x, alone in g, runs 2 ms and blocks; g's node leaves the
// root delayed (2 ms against V = 0.67 ms). c runs 3 ms, d 6 ms; a runs 3.5 ms, is picked again
// and blocks 0.5 ms later at 4 ms against V = (2 + 3 + 6 + 4) / 4 = 3.75 ms: delayed. The pick
// finishes g's node (the earliest deadline, 3 ms), V = 13/3 ms passes a, and a is finished
// although c's deadline (6 ms) is earlier than a's (6.5 ms). With `group_min_slice` the inner
// pick stops after each finish so that the group slices above are set (one_finish), and the
// pick that follows must again start from a: it did not (a stayed delayed, lag -0.25 ms).
TEST(EevdfPickKeeping, ADelayedFormerCurrIsFinishedOnceAFinishElsewhereMakesItEligible) {
  for (int group_min_slice : {0, 1}) {
    SCOPED_TRACE(group_min_slice ? "group_min_slice" : "plain");
    eevdf_setup::policy rq;
    eevdf_setup::policy::knobs k;
    k.delay_dequeue = 1;
    k.base_slice = msec(3);
    k.group_min_slice = group_min_slice;
    ASSERT_EQ(rq.configure(k), errc::ok);
    eevdf_setup::group g;
    ASSERT_EQ(rq.attach_group(g, nullptr), errc::ok);
    eevdf_setup::task a, c, d, x;
    ASSERT_EQ(rq.set_group(x, &g, sched_time{}), errc::ok);
    sched_time t{};
    for (eevdf_setup::task* p : {&x, &a, &c, &d}) rq.enqueue(*p, t, enqueue_flags::wakeup);
    const auto run = [&](eevdf_setup::task& who, std::int64_t ns) {
      rq.set_next(who, t);
      t += ns;
      rq.put_prev(who, t);
    };
    const auto E = [](eevdf_setup::node& n) -> eevdf_entity& { return n; };
    rq.set_next(x, t);
    t += msec(2);
    rq.dequeue(x, t, dequeue_flags::sleep);
    ASSERT_TRUE(rq.root().delayed(g)) << "g's node left the root as a delayed sleeper";
    run(c, msec(3));
    run(d, msec(6));
    run(a, usec(3500));
    rq.set_next(a, t);
    t += usec(500);
    rq.dequeue(a, t, dequeue_flags::sleep);
    ASSERT_TRUE(rq.root().delayed(a));
    ASSERT_EQ(rq.root().avg_vruntime() - E(a).vruntime, -usec(250));
    ASSERT_EQ(E(g).deadline - E(a).deadline, -usec(3500));
    ASSERT_EQ(E(c).deadline - E(a).deadline, -usec(500));
    EXPECT_EQ(rq.pick_next(t), &c);
    EXPECT_FALSE(E(g).on_rq);
    EXPECT_FALSE(E(a).on_rq) << "kept by RUN_TO_PARITY, so finished";
    EXPECT_FALSE(E(a).delayed);
    EXPECT_EQ(E(a).vlag, 0) << "its lag, 13/3 - 4 ms, clipped to 0";
    EXPECT_EQ(rq.root().nr_delayed(), 0u);
    EXPECT_TRUE(rq.verify());
  }
}

// A delayed sleeper moved to another group (the kernel's sched_move_task: dequeue SAVE|MOVE,
// change of group, enqueue) stays delayed: only DEQUEUE_DELAYED ends the delay, and
// task_change_group_fair moves nothing else. It is not runnable in its new group either, and a
// pick there completes it. (The old queue's switched_from ended the delay, as for a class
// change: t came back runnable and ran although it never woke.)
TEST(GroupPolicyDelayDequeue, ADelayedSleeperMovedToAnotherGroupStaysDelayed) {
  delayed_in_group f;
  ASSERT_NO_FATAL_FAILURE(f.start());
  auto& [rq, g, h, t, u, v, cpu] = f;
  rq.dequeue(t, cpu.now(), dequeue_flags::migrating);
  ASSERT_EQ(rq.set_group(t, &h, cpu.now()), errc::ok);
  rq.enqueue(t, cpu.now(), enqueue_flags::restore);
  EXPECT_TRUE(rq.delayed(t));
  EXPECT_EQ(rq.nr_runnable(), 2u) << "u and v";
  EXPECT_TRUE(rq.verify());
  const std::int64_t ran = cpu.cpu(t);
  for (int i = 0; i < 200 && rq.delayed(t); ++i) cpu.run_for(review::kMs);
  EXPECT_FALSE(rq.delayed(t));
  EXPECT_EQ(cpu.cpu(t), ran) << "t never woke";
  EXPECT_TRUE(rq.verify());
}

// yield_task_fair's test is rq->nr_running == 1, which counts delayed sleepers (6.12's
// dequeue_entities returns before sub_nr_running for one): v yields with u gone and t delayed,
// and its deadline moves one slice back. (Only runnable tasks were counted: nothing moved.)
TEST(GroupPolicyDelayDequeue, AYieldCountsDelayedSleepersAsTheKernelsNrRunningDoes) {
  delayed_in_group f;
  ASSERT_NO_FATAL_FAILURE(f.start());
  auto& [rq, g, h, t, u, v, cpu] = f;
  rq.dequeue(u, cpu.now(), dequeue_flags::save);  // u leaves (a move elsewhere): it is not delayed
  while (cpu.curr != &v) cpu.run_for(review::kMs);
  ASSERT_TRUE(rq.delayed(t)) << "no pick met t";
  ASSERT_EQ(rq.nr_unthrottled(), 1u);
  rq.put_prev(v, cpu.now());
  rq.set_next(v, cpu.now());  // nothing charged before the yield
  const vtime before = static_cast<eevdf_entity&>(v).deadline;
  rq.yield(v, cpu.now());
  EXPECT_EQ(static_cast<eevdf_entity&>(v).deadline - before, usec(750));
}
