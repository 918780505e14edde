// Unit tests of queue/prio_array.hpp: typed over N at word boundaries (8, 63, 64, 65, 100, 140,
// 4095, 4096), both directions, base and member hooks, safe and normal link modes. FIFO order,
// head insertion, round-robin requeue, misuse refused without state change, constant
// initialisation, and a fixed-seed differential test against a std::multiset model (>= 10^6
// random operations; verify() after every operation on a shorter run).
#include <gtest/gtest.h>

#include <cstdint>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "check_recorder.hpp"
#include "schedcore/queue/prio_array.hpp"

namespace {

using namespace schedcore;

struct base_task : list_hook<> {
  int id = 0;
  unsigned prio = 0;
};
struct member_task {
  int id = 0;
  unsigned prio = 0;
  list_hook<void, list_link_mode::normal> link;
};

template <class T, unsigned N, prio_order O, class A>
struct cfg {
  using task = T;
  using array = prio_array<T, N, O, A>;
  static constexpr unsigned n = N;
  static constexpr prio_order order = O;
  static constexpr bool safe = detail::node_access<A>::safe;
  static std::string name() {
    return "N" + std::to_string(N) + (O == prio_order::lower_first ? "_lower" : "_higher") +
           (is_same_v<T, base_task> ? "_base" : "_member") + (safe ? "_safe" : "_normal");
  }
};
struct names {
  template <class C>
  static std::string GetName(int) { return C::name(); }
};
using base_acc = list_base<base_task>;
using member_acc = list_member<&member_task::link>;

using configs = ::testing::Types<
    cfg<base_task, 8, prio_order::lower_first, base_acc>,
    cfg<base_task, 63, prio_order::higher_first, base_acc>,
    cfg<member_task, 64, prio_order::lower_first, member_acc>,
    cfg<base_task, 65, prio_order::higher_first, base_acc>,
    cfg<base_task, 100, prio_order::higher_first, base_acc>,
    cfg<base_task, 140, prio_order::lower_first, base_acc>,
    cfg<member_task, 140, prio_order::higher_first, member_acc>,
    cfg<base_task, 4095, prio_order::lower_first, base_acc>,
    cfg<base_task, 4096, prio_order::higher_first, base_acc>>;

template <class C>
class PrioArrayTest : public ::testing::Test {};
TYPED_TEST_SUITE(PrioArrayTest, configs, names);

template <class C>
constexpr unsigned most_urgent_prio() {
  return C::order == prio_order::lower_first ? 0 : C::n - 1;
}
template <class C>
constexpr unsigned least_urgent_prio() {
  return C::n - 1 - most_urgent_prio<C>();
}

TYPED_TEST(PrioArrayTest, Empty) {
  typename TypeParam::array a;
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(a.nr_queued(), 0u);
  EXPECT_EQ(a.pick(), nullptr);
  EXPECT_EQ(a.pop(), nullptr);
  EXPECT_EQ(a.best_prio(), TypeParam::array::npos);
  EXPECT_TRUE(a.verify());
}

TYPED_TEST(PrioArrayTest, SingleTaskAtBothEnds) {
  using T = typename TypeParam::task;
  typename TypeParam::array a;
  T t;
  for (unsigned p : {0u, TypeParam::n - 1, TypeParam::n / 2}) {
    a.enqueue(t, p);
    EXPECT_EQ(a.pick(), &t);
    EXPECT_EQ(a.best_prio(), p);
    EXPECT_EQ(a.first_at(p), &t);
    EXPECT_EQ(a.next_at_same_prio(t), nullptr);
    EXPECT_TRUE(a.verify());
    a.dequeue(t);
    EXPECT_TRUE(a.empty());
    EXPECT_TRUE(a.verify());
    a.enqueue_head(t, p);
    EXPECT_EQ(a.pop(), &t);
    EXPECT_TRUE(a.empty());
  }
}

TYPED_TEST(PrioArrayTest, FifoHeadRoundRobinAndUrgency) {
  using T = typename TypeParam::task;
  typename TypeParam::array a;
  T t[6];
  for (int i = 0; i < 6; ++i) t[i].id = i;
  const unsigned hi = most_urgent_prio<TypeParam>();
  const unsigned lo = least_urgent_prio<TypeParam>();
  a.enqueue(t[0], lo);
  a.enqueue(t[1], hi);
  a.enqueue(t[2], hi);
  a.enqueue_head(t[3], hi);
  EXPECT_EQ(a.nr_queued(), 4u);
  EXPECT_EQ(a.pick(), &t[3]);
  EXPECT_EQ(a.next_at_same_prio(t[3]), &t[1]);
  a.requeue_tail(t[3], hi);  // round robin
  EXPECT_EQ(a.pick(), &t[1]);
  EXPECT_EQ(a.pop(), &t[1]);
  EXPECT_EQ(a.pop(), &t[2]);
  EXPECT_EQ(a.pop(), &t[3]);
  EXPECT_EQ(a.pick(), TypeParam::n == 1 ? nullptr : &t[0]);
  a.requeue_tail(t[0], hi);  // priority change
  EXPECT_EQ(a.best_prio(), hi);
  EXPECT_EQ(a.first_at(lo), nullptr);
  EXPECT_TRUE(a.verify());
  EXPECT_EQ(a.pop(), &t[0]);
  EXPECT_TRUE(a.empty());
}

// The most urgent index (prio_lists::best, a cache for N > 64): a more urgent enqueue takes
// it over at once, emptying a less urgent level leaves it alone, emptying the best level falls
// back to the next marked one (a rescan), and the last removal makes it npos. verify() checks
// the cache against a scan.
TYPED_TEST(PrioArrayTest, CachedBestFollowsEveryChange) {
  using T = typename TypeParam::task;
  constexpr unsigned most = most_urgent_prio<TypeParam>();
  constexpr unsigned least = least_urgent_prio<TypeParam>();
  constexpr unsigned mid = TypeParam::n / 2;
  typename TypeParam::array a;
  T lo, hi, md, md2;
  a.enqueue(lo, least);
  EXPECT_EQ(a.best_prio(), least);
  a.enqueue_head(hi, most);
  EXPECT_EQ(a.best_prio(), most);
  a.enqueue(md, mid);
  EXPECT_EQ(a.best_prio(), most);
  EXPECT_TRUE(a.verify());
  a.dequeue(md);  // empties a level that is not the best one: no change
  EXPECT_EQ(a.best_prio(), most);
  a.dequeue(hi);  // empties the best level: rescan finds the least urgent one
  EXPECT_EQ(a.best_prio(), least);
  EXPECT_EQ(a.pick(), &lo);
  EXPECT_TRUE(a.verify());
  a.enqueue(md2, mid);
  if (mid != least) {
    EXPECT_EQ(a.best_prio(), mid);
    EXPECT_EQ(a.pick(), &md2);
  }
  a.requeue_tail(lo, most);  // a priority change to the most urgent level
  EXPECT_EQ(a.best_prio(), most);
  EXPECT_TRUE(a.verify());
  EXPECT_EQ(a.pop(), &lo);
  EXPECT_EQ(a.best_prio(), mid);
  EXPECT_EQ(a.pop(), &md2);
  EXPECT_EQ(a.best_prio(), TypeParam::array::npos);
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(a.pick(), nullptr);
  EXPECT_TRUE(a.verify());
}

// enqueue_after links a task right behind another at that one's level (a parameter change that
// keeps a task's place), in O(1), and counts it; in safe mode a linked task or an unlinked
// `after` is reported and refused.
TYPED_TEST(PrioArrayTest, EnqueueAfterLinksBehindTheGivenTask) {
  using T = typename TypeParam::task;
  typename TypeParam::array a;
  T t[5];
  for (int i = 0; i < 3; ++i) a.enqueue(t[i], 1);
  a.enqueue_after(t[3], t[0]);  // 0 3 1 2
  a.enqueue_after(t[4], t[2]);  // 0 3 1 2 4: behind the last
  std::vector<T*> order;
  for (T* q = a.first_at(1); q != nullptr; q = a.next_at_same_prio(*q)) order.push_back(q);
  EXPECT_EQ(order, (std::vector<T*>{&t[0], &t[3], &t[1], &t[2], &t[4]}));
  EXPECT_EQ(a.nr_queued(), 5u);
  EXPECT_TRUE(a.verify());
  if constexpr (TypeParam::safe) {
    schedcore_test::check_scope scope;
    a.enqueue_after(t[3], t[1]);  // already linked
    a.dequeue(t[4]);
    T stray;
    a.enqueue_after(t[4], stray);  // after a task not queued
    EXPECT_EQ(scope.take().size(), 2u);
    EXPECT_EQ(a.nr_queued(), 4u);
    EXPECT_TRUE(a.verify());
  }
}

TYPED_TEST(PrioArrayTest, MisuseIsRefusedWithoutStateChange) {
  using T = typename TypeParam::task;
  typename TypeParam::array a;
  T t[3];
  a.enqueue(t[0], 1);
  schedcore_test::check_scope scope;
  a.enqueue(t[1], TypeParam::n);         // out of range
  a.enqueue_head(t[1], TypeParam::n + 9);
  a.enqueue_head(t[1], TypeParam::n);    // exactly at the bound
  a.requeue_tail(t[0], TypeParam::n);    // out of range
  EXPECT_EQ(a.first_at(TypeParam::n), nullptr);
  std::size_t expected = 5;
  if constexpr (TypeParam::safe) {
    a.enqueue(t[0], 2);   // double insert
    a.dequeue(t[2]);      // never queued
    a.requeue_tail(t[2], 0);
    expected += 3;
  }
  const auto checks = scope.take();
  ASSERT_EQ(checks.size(), expected);
  for (const auto& c : checks) EXPECT_EQ(c.kind, check_kind::misuse);
  EXPECT_EQ(a.nr_queued(), 1u);
  EXPECT_EQ(a.first_at(1), &t[0]);
  EXPECT_EQ(a.best_prio(), 1u);
  EXPECT_TRUE(a.verify());
  a.dequeue(t[0]);
}

// A task of another array cannot be told apart in O(1) unless its dequeue empties a list there
// (the sentinel it leaves next to is not this array's). Debug builds then report it and put the
// task back: both arrays stay as they were, for dequeue and requeue_tail alike (before, the
// report was followed by a write to the bit of a garbage index).
TYPED_TEST(PrioArrayTest, ATaskOfAnotherArrayIsReportedAndPutBackWhenItEmptiesItsList) {
  using T = typename TypeParam::task;
  typename TypeParam::array a, b;
  T t[2];
  a.enqueue(t[0], 3);
  b.enqueue(t[1], 1);
  schedcore_test::check_scope scope;
  b.dequeue(t[0]);
  b.requeue_tail(t[0], 2);
  const auto checks = scope.take();
  ASSERT_EQ(checks.size(), 2u);
  for (const auto& c : checks) EXPECT_EQ(c.kind, check_kind::misuse);
  EXPECT_EQ(a.first_at(3), &t[0]);
  EXPECT_EQ(a.nr_queued(), 1u);
  EXPECT_EQ(b.nr_queued(), 1u);
  EXPECT_EQ(b.first_at(2), nullptr);
  EXPECT_TRUE(a.verify());
  EXPECT_TRUE(b.verify());
  a.dequeue(t[0]);
  b.dequeue(t[1]);
}

// Differential test. Model: multiset of (urgency rank, sequence, id); tail insertion takes an
// increasing sequence, head insertion a decreasing one, so begin() is the FIFO head of the most
// urgent priority, exactly what pick() must return.
template <class C>
void differential(std::uint64_t seed, long ops, long verify_every) {
  using T = typename C::task;
  using key = std::tuple<unsigned, long, int>;
  constexpr int kTasks = 300;
  constexpr unsigned n = C::n;
  auto rank = [](unsigned p) { return C::order == prio_order::lower_first ? p : n - 1 - p; };
  std::vector<T> t(kTasks);
  for (int i = 0; i < kTasks; ++i) t[static_cast<std::size_t>(i)].id = i;
  typename C::array a;
  std::multiset<key> model;
  std::vector<std::multiset<key>::iterator> pos(kTasks, model.end());
  std::vector<int> queued;  // ids currently queued (for picking a random one)
  std::vector<int> slot(kTasks, -1);
  long tail_seq = 0, head_seq = 0;
  std::mt19937_64 rng(seed);
  auto rand_prio = [&]() -> unsigned {
    // Half the time a narrow band so FIFO order within a priority is exercised.
    return (rng() & 1) ? static_cast<unsigned>(rng() % n) : static_cast<unsigned>((rng() % 4) * (n / 4));
  };
  auto add = [&](int id, unsigned p, bool head) {
    T& x = t[static_cast<std::size_t>(id)];
    x.prio = p;
    pos[static_cast<std::size_t>(id)] = model.insert({rank(p), head ? --head_seq : ++tail_seq, id});
    slot[static_cast<std::size_t>(id)] = static_cast<int>(queued.size());
    queued.push_back(id);
  };
  auto remove = [&](int id) {
    model.erase(pos[static_cast<std::size_t>(id)]);
    pos[static_cast<std::size_t>(id)] = model.end();
    const int s = slot[static_cast<std::size_t>(id)];
    queued[static_cast<std::size_t>(s)] = queued.back();
    slot[static_cast<std::size_t>(queued.back())] = s;
    queued.pop_back();
    slot[static_cast<std::size_t>(id)] = -1;
  };
  for (long op = 0; op < ops; ++op) {
    const int id = static_cast<int>(rng() % kTasks);
    T& x = t[static_cast<std::size_t>(id)];
    switch (rng() % 8) {
      case 0:
      case 1:
      case 2:
        if (slot[static_cast<std::size_t>(id)] < 0) {
          const unsigned p = rand_prio();
          const bool head = rng() % 4 == 0;
          if (head) a.enqueue_head(x, p);
          else a.enqueue(x, p);
          add(id, p, head);
        }
        break;
      case 3:  // dequeue any queued task
        if (!queued.empty()) {
          const int v = queued[static_cast<std::size_t>(rng() % queued.size())];
          a.dequeue(t[static_cast<std::size_t>(v)]);
          remove(v);
        }
        break;
      case 4:  // pop the most urgent
      {
        T* p = a.pop();
        if (model.empty()) {
          ASSERT_EQ(p, nullptr);
        } else {
          ASSERT_NE(p, nullptr);
          ASSERT_EQ(p->id, std::get<2>(*model.begin())) << "op " << op;
          remove(p->id);
        }
        break;
      }
      case 5:  // requeue at tail: same priority (round robin) or a new one
        if (!queued.empty()) {
          const int v = queued[static_cast<std::size_t>(rng() % queued.size())];
          T& y = t[static_cast<std::size_t>(v)];
          const unsigned p = (rng() & 1) ? y.prio : rand_prio();
          a.requeue_tail(y, p);
          remove(v);
          add(v, p, false);
        }
        break;
      case 6:  // pick + first_at
      {
        T* p = a.pick();
        if (model.empty()) {
          ASSERT_EQ(p, nullptr);
          ASSERT_EQ(a.best_prio(), C::array::npos);
        } else {
          ASSERT_NE(p, nullptr);
          ASSERT_EQ(p->id, std::get<2>(*model.begin())) << "op " << op;
          ASSERT_EQ(a.best_prio(), p->prio);
          ASSERT_EQ(a.first_at(p->prio), p);
        }
        break;
      }
      case 7:  // next_at_same_prio agrees with the model's order
        if (slot[static_cast<std::size_t>(id)] >= 0) {
          auto it = std::next(pos[static_cast<std::size_t>(id)]);
          T* expect = (it != model.end() && std::get<0>(*it) == rank(x.prio))
                          ? &t[static_cast<std::size_t>(std::get<2>(*it))]
                          : nullptr;
          ASSERT_EQ(a.next_at_same_prio(x), expect);
        }
        break;
    }
    ASSERT_EQ(a.nr_queued(), model.size());
    if (op % verify_every == 0) {
      ASSERT_TRUE(a.verify()) << "op " << op;
    }
  }
  ASSERT_TRUE(a.verify());
  while (T* p = a.pop()) {
    ASSERT_EQ(p->id, std::get<2>(*model.begin()));
    model.erase(model.begin());
  }
  EXPECT_TRUE(model.empty());
}

TYPED_TEST(PrioArrayTest, DifferentialVerifyEveryOp) { differential<TypeParam>(7, 20000, 1); }
TYPED_TEST(PrioArrayTest, DifferentialMillionOps) { differential<TypeParam>(2024, 1000000, 1000); }

// Globals are constant-initialised: no static constructor runs for a run queue.
#if defined(__clang__)
[[clang::require_constant_initialization]]
#else
__constinit
#endif
prio_array<base_task, 140> g_rq;

TEST(PrioArrayGlobal, IsConstantInitialised) {
  EXPECT_TRUE(g_rq.empty());
  EXPECT_TRUE(g_rq.verify());
  base_task t;
  g_rq.enqueue(t, 120);
  EXPECT_EQ(g_rq.pop(), &t);
}

TEST(PrioArray, PriorityFieldMayChangeWhileQueued) {
  // The array never reads a task's priority: changing it while queued is harmless, and
  // dequeue finds the list from the node's neighbours.
  prio_array<base_task, 140> a;
  base_task x, y;
  a.enqueue(x, 5);
  a.enqueue(y, 9);
  x.prio = 77;
  a.dequeue(x);
  EXPECT_EQ(a.best_prio(), 9u);
  EXPECT_FALSE(a.bitmap().test(5));
  EXPECT_TRUE(a.verify());
  a.dequeue(y);
}

}  // namespace
