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
#include <vector>

#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "schedcore/policy/fair_weights.hpp"
#include "schedcore/policy/group.hpp"
#include "check_recorder.hpp"
#include "tick_driver.hpp"

namespace {

using namespace schedcore;
using schedcore_test::behaviour;
using schedcore_test::single_class;
using schedcore_test::tick_driver;

constexpr std::int64_t kSecond = 1000000000;

template <class Entity, template <class, class> class Policy>
struct fair_setup {
  using node = group_node<Entity>;
  struct task : node {};
  using policy = group_policy<task, Policy<node, base_entity<Entity>>>;
  using group = typename policy::task_group;
  using flat_task = Entity;
  using flat_policy = Policy<Entity, base_entity<Entity>>;
};
using cfs_setup = fair_setup<cfs_entity, cfs_policy>;
using eevdf_setup = fair_setup<eevdf_entity, eevdf_policy>;

template <class S>
class GroupShares : public ::testing::Test {};
using FairSetups = ::testing::Types<cfs_setup, eevdf_setup>;
TYPED_TEST_SUITE(GroupShares, FairSetups);

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
    ASSERT_EQ(rq.set_group(t[i], i == 0 ? &a : &b), errc::ok);
    d.add(t[i], behaviour::hog());
  }
  const std::int64_t total = 10 * kSecond;
  d.run_until(total);
  EXPECT_NEAR(share(d.stats(0), total), 0.5, 0.005);
  for (std::size_t i = 1; i < 5; ++i) EXPECT_NEAR(share(d.stats(i), total), 0.125, 0.005) << i;
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
    ASSERT_EQ(rq.set_group(t[i], i == 0 ? &a : &b), errc::ok);
    d.add(t[i], behaviour::hog());
  }
  const std::int64_t total = 12 * kSecond;
  d.run_until(total);
  EXPECT_NEAR(share(d.stats(0), total), 2.0 / 3, 0.005);
  EXPECT_NEAR(share(d.stats(1), total), 1.0 / 6, 0.005);
  EXPECT_NEAR(share(d.stats(2), total), 1.0 / 6, 0.005);
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
    ASSERT_EQ(rq.set_group(t[i], where[i]), errc::ok);
    d.add(t[i], behaviour::hog());
  }
  const std::int64_t total = 16 * kSecond;
  d.run_until(total);
  const double expect[] = {0.5, 0.25, 0.125, 0.125};
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(share(d.stats(i), total), expect[i], 0.005) << i;
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
    ASSERT_EQ(rq.set_group(t[i], i < 2 ? &a : &b), errc::ok);
    d.add(t[i], behaviour::hog());
  }
  const std::int64_t total = 20 * kSecond;
  d.run_until(total);
  const double w0 = nice_to_weight(0), w5 = nice_to_weight(5);
  EXPECT_EQ(w5, 335);
  EXPECT_NEAR(share(d.stats(0), total), 0.5 * w0 / (w0 + w5), 0.005);
  EXPECT_NEAR(share(d.stats(1), total), 0.5 * w5 / (w0 + w5), 0.005);
  EXPECT_NEAR(share(d.stats(2), total), 0.5, 0.005);
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
  ASSERT_EQ(rq.set_group(t[0], &a), errc::ok);
  ASSERT_EQ(rq.set_group(t[1], &b), errc::ok);
  d.add(t[0], behaviour::hog());
  d.add(t[1], behaviour::hog());
  d.run_until(4 * kSecond);
  EXPECT_NEAR(share(d.stats(0), 4 * kSecond), 0.5, 0.005);
  ASSERT_NE(rq.current(), nullptr);
  const std::size_t r = rq.current() == &t[0] ? 0 : 1;  // the running task's index
  const std::int64_t before = d.stats(r).cpu_ns;
  ASSERT_EQ(rq.set_group_weight(r == 0 ? a : b, 3072, d.now()), errc::ok);
  EXPECT_TRUE(rq.verify());
  d.run_until(12 * kSecond);
  const double got = static_cast<double>(d.stats(r).cpu_ns - before) / static_cast<double>(8 * kSecond);
  EXPECT_NEAR(got, 0.75, 0.005);
  EXPECT_TRUE(rq.verify());
}

// An interactive task in its own group (autogroup's point) keeps its latency and its demand
// against a group of 8 hogs: it asks for 10 % and gets it, waking within a couple of ms.
TYPED_TEST(GroupShares, ASleeperInItsOwnGroupIsNotDilutedByAGroupOfHogs) {
  using S = TypeParam;
  single_class<typename S::policy> rq;
  typename S::group mine, build;
  ASSERT_EQ(rq.attach_group(mine, nullptr), errc::ok);
  ASSERT_EQ(rq.attach_group(build, nullptr), errc::ok);
  std::vector<typename S::task> t(9);
  tick_driver<single_class<typename S::policy>> d(rq);
  for (std::size_t i = 0; i < t.size(); ++i) {
    ASSERT_EQ(rq.set_group(t[i], i == 0 ? &mine : &build), errc::ok);
    d.add(t[i], i == 0 ? behaviour::cycle(1000000, 9000000, 500000) : behaviour::hog());
  }
  const std::int64_t total = 10 * kSecond;
  d.run_until(total);
  EXPECT_NEAR(share(d.stats(0), total), 0.1, 0.01);
  // After its group's first activation (which cfs places as a fresh entity, one vslice late:
  // group.hpp), every wakeup runs within one tick: its group's entity is far behind the hogs'.
  const std::vector<std::int64_t>& lat = d.stats(0).wakeup_latency_ns;
  ASSERT_GT(lat.size(), 900u);
  EXPECT_LE(lat[0], 4000000);
  std::int64_t worst = 0;
  for (std::size_t k = 1; k < lat.size(); ++k) worst = std::max(worst, lat[k]);
  EXPECT_LE(worst, 1000000);
  for (std::size_t i = 1; i < t.size(); ++i) EXPECT_NEAR(share(d.stats(i), total), 0.9 / 8, 0.005) << i;
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
  static constexpr const char* name = "spy";
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
    ASSERT_EQ(rq.set_group(a, &g2), errc::ok);
    ASSERT_EQ(rq.set_group(b, &g2), errc::ok);
    ASSERT_EQ(rq.set_group(c, nullptr), errc::ok);
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
  rq.yield(c, sched_time{});
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
  EXPECT_EQ(rq.set_group(t, &foreign), errc::invalid_argument);
  ASSERT_EQ(rq.set_group(t, &g), errc::ok);
  rq.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  const auto before_rq = bytes(rq), before_t = bytes(t), before_g = bytes(g);
  EXPECT_EQ(rq.set_group(t, nullptr), errc::busy);  // queued: sched_move_task dequeues first
  EXPECT_EQ(rq.setup(t, sched_params{}), errc::busy);
  EXPECT_EQ(rq.set_group_weight(g, 0, sched_time{}), errc::invalid_argument);
  EXPECT_EQ(rq.set_group_weight(g, (1u << 18) + 1, sched_time{}), errc::invalid_argument);
  EXPECT_EQ(rq.set_group_weight(foreign, 1024, sched_time{}), errc::invalid_argument);
  sched_params bad;
  bad.nice = 20;
  EXPECT_EQ(rq.setup_group(g, bad, sched_time{}), errc::invalid_argument);
  EXPECT_EQ(rq.detach_group(g), errc::busy);  // it has a member
  EXPECT_EQ(rq.detach_group(foreign), errc::invalid_argument);
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
  EXPECT_EQ(rq.detach_group(chain[0]), errc::busy);
  for (std::size_t i = S::policy::max_depth + 1; i-- > 0;) EXPECT_EQ(rq.detach_group(chain[i]), errc::ok) << i;
  EXPECT_TRUE(rq.verify());
}

TEST(GroupPolicyBadInput, DoubleEnqueueAndDequeueAreReportedAndRefused) {
  using S = eevdf_setup;
  S::policy rq;
  S::group g;
  S::task t;
  ASSERT_EQ(rq.attach_group(g, nullptr), errc::ok);
  ASSERT_EQ(rq.set_group(t, &g), errc::ok);
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
  ASSERT_EQ(rq.set_group(t, &g), errc::ok);
  rq.enqueue(t, sched_time{}, enqueue_flags::wakeup);
  ASSERT_TRUE(rq.verify());
  g.queued = false;  // corrupt the invariant
  EXPECT_FALSE(rq.verify());
}

}  // namespace
