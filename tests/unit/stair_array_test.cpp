// Unit tests of queue/stair_array.hpp: the SD prio_matrix generator (algorithms-legacy.md §2.3),
// minor/major rotation semantics, quota bookkeeping with overrun carry, clamping to the current
// level, misuse refused without state change, constant initialisation; and a fixed-seed
// differential test against a model built from std::list per (array, level) (>= 10^6 random
// enqueue/dequeue/pop/requeue/charge/rotation operations; verify() and a full comparison after
// every operation on a shorter run). Typed over 40 levels (SD), 8 levels (frequent rotations)
// and 65 levels (two-level bitmap), base/member hooks, safe/normal link modes.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <list>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "check_recorder.hpp"
#include "schedcore/queue/stair_array.hpp"

namespace {

using namespace schedcore;

struct base_task : list_hook<> {
  int id = 0;
};
struct member_task {
  int id = 0;
  list_hook<void, list_link_mode::normal> link;
};

template <class T, unsigned L, class A>
struct cfg {
  using task = T;
  using array = stair_array<T, L, A>;
  static constexpr unsigned levels = L;
  static constexpr bool safe = detail::node_access<A>::safe;
  static std::string name() { return "L" + std::to_string(L) + (safe ? "_base_safe" : "_member_normal"); }
};
struct names {
  template <class C>
  static std::string GetName(int) { return C::name(); }
};
using configs = ::testing::Types<cfg<base_task, 40, list_base<base_task>>,
                                 cfg<member_task, 8, list_member<&member_task::link>>,
                                 cfg<base_task, 65, list_base<base_task>>>;

template <class C>
class StairArrayTest : public ::testing::Test {};
TYPED_TEST_SUITE(StairArrayTest, configs, names);

// ---- prio_matrix (§2.3, [R]) ----
static_assert(sd_prio_matrix_row(0) == 0xFFFFFFFFFFull, "nice -20: all 40 slots");
static_assert(sd_prio_matrix_row(20) == 0xAAAAAAAAAAull, "nice 0: every other slot, incl. 39");
static_assert(sd_prio_matrix_row(39) == (1ull << 39), "nice 19: slot 39 only");
static_assert(sd_prio_matrix_row(40) == 0, "out of range: no slot");

TEST(SdPrioMatrix, EveryRowHasFortyMinusUSlotsIncludingTheLast) {
  for (unsigned u = 0; u < 40; ++u) {
    const u64 row = sd_prio_matrix_row(u);
    EXPECT_EQ(popcount64(row), 40 - u) << "u " << u;
    EXPECT_TRUE(row >> 39 & 1) << "u " << u;
    EXPECT_EQ(row >> 40, 0u);
  }
  // nice 10 (u = 30): slots 3, 7, ..., 39.
  u64 expect = 0;
  for (unsigned s = 3; s < 40; s += 4) expect |= 1ull << s;
  EXPECT_EQ(sd_prio_matrix_row(30), expect);
}

TEST(SdPrioMatrix, NextSlotScansAllowedUnusedSlots) {
  const u64 row = sd_prio_matrix_row(20);  // odd slots
  EXPECT_EQ(sd_next_slot(row, 0, 0), 1u);
  EXPECT_EQ(sd_next_slot(row, 0, 2), 3u);
  EXPECT_EQ(sd_next_slot(row, 1ull << 3, 2), 5u);
  EXPECT_EQ(sd_next_slot(row, 0, 39), 39u);
  EXPECT_EQ(sd_next_slot(row, 1ull << 39, 39), sd_levels);
  EXPECT_EQ(sd_next_slot(row, 0, 40), sd_levels);
}

// ---- container semantics ----
TYPED_TEST(StairArrayTest, EmptyAndSingle) {
  using T = typename TypeParam::task;
  typename TypeParam::array s;
  EXPECT_TRUE(s.empty());
  EXPECT_TRUE(s.active_empty() && s.expired_empty());
  EXPECT_EQ(s.pick(), nullptr);
  EXPECT_EQ(s.pop(), nullptr);
  EXPECT_EQ(s.best_level(), TypeParam::array::npos);
  EXPECT_EQ(s.current_level(), 0u);
  EXPECT_EQ(s.rotation_epoch(), 0u);
  EXPECT_TRUE(s.verify());
  T t;
  EXPECT_EQ(s.enqueue(t, TypeParam::levels - 1), TypeParam::levels - 1);
  EXPECT_EQ(s.pick(), &t);
  s.dequeue(t);
  EXPECT_TRUE(s.empty());
  s.enqueue_expired(t, 0);
  EXPECT_EQ(s.pick(), nullptr);
  EXPECT_EQ(s.best_expired_level(), 0u);
  s.major_rotation();
  EXPECT_EQ(s.pick(), &t);
  EXPECT_EQ(s.rotation_epoch(), 1u);
  EXPECT_EQ(s.pop(), &t);
  EXPECT_TRUE(s.verify());
}

TYPED_TEST(StairArrayTest, MinorRotationMovesTheLevelAheadOfTheNext) {
  using T = typename TypeParam::task;
  typename TypeParam::array s;
  T t[static_cast<std::size_t>(5)];
  for (int i = 0; i < 5; ++i) t[static_cast<std::size_t>(i)].id = i;
  s.set_all_level_quotas(msec(6));
  s.enqueue(t[static_cast<std::size_t>(0)], 0);
  s.enqueue(t[static_cast<std::size_t>(1)], 0);
  s.enqueue(t[static_cast<std::size_t>(2)], 1);
  s.enqueue(t[static_cast<std::size_t>(3)], 1);
  EXPECT_EQ(s.charge(0, msec(5)), stair_rotation::none);
  EXPECT_EQ(s.level_quota(0), msec(1));
  EXPECT_EQ(s.charge(0, msec(3)), stair_rotation::minor);  // 2 ms overrun carries
  EXPECT_EQ(s.current_level(), 1u);
  EXPECT_EQ(s.level_quota(1), msec(4));
  EXPECT_TRUE(s.verify());
  // Level 1 now holds 0, 1 (moved, ahead) then 2, 3.
  EXPECT_EQ(s.first_active_at(0), nullptr);
  EXPECT_EQ(s.first_active_at(1), &t[static_cast<std::size_t>(0)]);
  EXPECT_EQ(s.next_at_same_level(t[static_cast<std::size_t>(0)]), &t[static_cast<std::size_t>(1)]);
  EXPECT_EQ(s.next_at_same_level(t[static_cast<std::size_t>(1)]), &t[static_cast<std::size_t>(2)]);
  EXPECT_EQ(s.next_at_same_level(t[static_cast<std::size_t>(3)]), nullptr);
  // Enqueue at a closed level is placed at the current level.
  EXPECT_EQ(s.enqueue(t[static_cast<std::size_t>(4)], 0), 1u);
  EXPECT_EQ(s.next_at_same_level(t[static_cast<std::size_t>(3)]), &t[static_cast<std::size_t>(4)]);
  // Charging a closed level charges the current one.
  EXPECT_EQ(s.charge(0, msec(1)), stair_rotation::none);
  EXPECT_EQ(s.level_quota(1), msec(3));
  EXPECT_EQ(s.minor_rotation(), stair_rotation::minor);
  EXPECT_EQ(s.current_level(), 2u);
  EXPECT_EQ(s.best_level(), 2u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(s.pop(), &t[static_cast<std::size_t>(i)]);
  EXPECT_TRUE(s.verify());
}

// enqueue_keep: a task returning to a closed level (SD: a sleeper with quota left there) stays
// at that level, is the most urgent, and later minor rotations leave it alone.
TYPED_TEST(StairArrayTest, EnqueueKeepHoldsAClosedLevel) {
  using T = typename TypeParam::task;
  typename TypeParam::array s;
  T t[static_cast<std::size_t>(3)];
  for (int i = 0; i < 3; ++i) t[static_cast<std::size_t>(i)].id = i;
  s.set_all_level_quotas(msec(1));
  s.enqueue(t[static_cast<std::size_t>(0)], 5);
  EXPECT_EQ(s.charge(5, msec(1)), stair_rotation::minor);  // closes 0..5
  EXPECT_EQ(s.current_level(), 6u);
  s.enqueue_keep(t[static_cast<std::size_t>(1)], 2);
  EXPECT_EQ(s.first_active_at(2), &t[static_cast<std::size_t>(1)]) << "kept at its closed level";
  EXPECT_EQ(s.best_level(), 2u);
  EXPECT_EQ(s.pick(), &t[static_cast<std::size_t>(1)]) << "most urgent";
  EXPECT_TRUE(s.verify());
  EXPECT_EQ(s.minor_rotation(), stair_rotation::minor);  // closes level 6: t0 moves to 7
  EXPECT_EQ(s.current_level(), 7u);
  EXPECT_EQ(s.first_active_at(2), &t[static_cast<std::size_t>(1)]) << "minor rotations leave it alone";
  EXPECT_EQ(s.first_active_at(7), &t[static_cast<std::size_t>(0)]);
  s.enqueue(t[static_cast<std::size_t>(2)], 2);  // the ordinary enqueue still clamps
  EXPECT_EQ(s.first_active_at(7), &t[static_cast<std::size_t>(0)]);
  EXPECT_EQ(s.next_at_same_level(t[static_cast<std::size_t>(0)]), &t[static_cast<std::size_t>(2)]);
  EXPECT_EQ(s.nr_queued(), 3u);
  s.dequeue(t[static_cast<std::size_t>(1)]);
  EXPECT_EQ(s.best_level(), 7u);
  EXPECT_TRUE(s.verify());
  while (s.pop() != nullptr) {}
}

TYPED_TEST(StairArrayTest, ChargeOfALowerLevelClosesEverythingAboveIt) {
  using T = typename TypeParam::task;
  typename TypeParam::array s;
  T t[static_cast<std::size_t>(3)];
  s.set_all_level_quotas(msec(1));
  s.enqueue(t[static_cast<std::size_t>(0)], 3);  // running at level 3
  s.enqueue(t[static_cast<std::size_t>(1)], 1);  // woke later without preempting
  s.enqueue(t[static_cast<std::size_t>(2)], 4);
  EXPECT_EQ(s.charge(3, msec(1)), stair_rotation::minor);
  EXPECT_EQ(s.current_level(), 4u);
  EXPECT_EQ(s.first_active_at(4), &t[static_cast<std::size_t>(1)]);  // more urgent levels first
  EXPECT_EQ(s.next_at_same_level(t[static_cast<std::size_t>(1)]), &t[static_cast<std::size_t>(0)]);
  EXPECT_EQ(s.next_at_same_level(t[static_cast<std::size_t>(0)]), &t[static_cast<std::size_t>(2)]);
  EXPECT_TRUE(s.verify());
  while (s.pop() != nullptr) {}
}

TYPED_TEST(StairArrayTest, MajorRotationSwapsRefillsAndKeepsLeftoversAhead) {
  using T = typename TypeParam::task;
  constexpr unsigned last = TypeParam::levels - 1;
  typename TypeParam::array s;
  T t[static_cast<std::size_t>(4)];
  s.set_all_level_quotas(msec(2));
  s.set_level_quota(last, msec(3));
  s.enqueue_expired(t[static_cast<std::size_t>(0)], last);
  s.enqueue_expired(t[static_cast<std::size_t>(1)], 0);
  s.enqueue(t[static_cast<std::size_t>(2)], last);
  // Close every level down to the last.
  for (unsigned l = 0; l < last; ++l) ASSERT_EQ(s.minor_rotation(), stair_rotation::minor);
  EXPECT_EQ(s.current_level(), last);
  EXPECT_EQ(s.enqueue(t[static_cast<std::size_t>(3)], 0), last);
  EXPECT_EQ(s.charge(last, msec(1)), stair_rotation::none);
  EXPECT_EQ(s.charge(last, msec(5)), stair_rotation::major);
  EXPECT_EQ(s.rotation_epoch(), 1u);
  EXPECT_EQ(s.current_level(), 0u);
  EXPECT_EQ(s.level_quota(0), msec(2));
  EXPECT_EQ(s.level_quota(last), msec(3));  // refilled, overrun forgotten
  EXPECT_TRUE(s.expired_empty());
  EXPECT_EQ(s.pop(), &t[static_cast<std::size_t>(1)]);
  // Leftovers (2, 3) go ahead of the previously expired task 0.
  EXPECT_EQ(s.pop(), &t[static_cast<std::size_t>(2)]);
  EXPECT_EQ(s.pop(), &t[static_cast<std::size_t>(3)]);
  EXPECT_EQ(s.pop(), &t[static_cast<std::size_t>(0)]);
  EXPECT_TRUE(s.empty());
  EXPECT_TRUE(s.verify());
}

// The best level of each array follows splices (for Levels > 64 it is a cache, elsewhere a
// scan): a minor rotation moves the best level down (the rescan after the splice sees the
// destination), a major rotation swaps which array is active, and dequeues from the expired
// array change only its own best level.
TYPED_TEST(StairArrayTest, CachedBestLevelsFollowRotations) {
  using T = typename TypeParam::task;
  typename TypeParam::array s;
  T a, b, c;
  s.set_all_level_quotas(msec(1));
  s.enqueue(a, 0);
  s.enqueue(b, 2);
  s.enqueue_expired(c, 1);
  EXPECT_EQ(s.best_level(), 0u);
  EXPECT_EQ(s.best_expired_level(), 1u);
  EXPECT_EQ(s.minor_rotation(), stair_rotation::minor);  // level 0 -> 1
  EXPECT_EQ(s.best_level(), 1u);
  EXPECT_EQ(s.pick(), &a);
  EXPECT_TRUE(s.verify());
  s.major_rotation();  // a (1) and b (2) go ahead of c at their levels in the swapped array
  EXPECT_EQ(s.best_level(), 1u);
  EXPECT_EQ(s.best_expired_level(), TypeParam::array::npos);
  EXPECT_EQ(s.pick(), &a);
  EXPECT_TRUE(s.verify());
  s.requeue_tail(c, 0);
  EXPECT_EQ(s.best_level(), 0u);
  EXPECT_EQ(s.pop(), &c);
  EXPECT_EQ(s.pop(), &a);
  EXPECT_EQ(s.best_level(), 2u);
  EXPECT_EQ(s.pop(), &b);
  EXPECT_EQ(s.best_level(), TypeParam::array::npos);
  EXPECT_TRUE(s.active_empty());
  EXPECT_TRUE(s.verify());
}

TYPED_TEST(StairArrayTest, DequeueAndRequeueFromEitherArray) {
  using T = typename TypeParam::task;
  typename TypeParam::array s;
  T a, b, c;
  s.enqueue(a, 2);
  s.enqueue_expired(b, 2);
  s.enqueue_expired(c, 5);
  s.dequeue(b);  // from expired, empties its level
  EXPECT_FALSE(s.expired_bitmap().test(2));
  EXPECT_TRUE(s.active_bitmap().test(2));
  EXPECT_EQ(s.requeue_tail(c, 1), 1u);  // expired -> active
  EXPECT_TRUE(s.expired_empty());
  EXPECT_EQ(s.pick(), &c);
  EXPECT_EQ(s.nr_queued(), 2u);
  EXPECT_TRUE(s.verify());
  s.dequeue(a);
  s.dequeue(c);
  EXPECT_TRUE(s.empty());
}

// A task queued in another stair array that empties its level there is reported by debug
// builds and put back (the same as prio_array's check): neither container changes.
TYPED_TEST(StairArrayTest, ATaskOfAnotherArrayIsReportedAndPutBack) {
  using T = typename TypeParam::task;
  typename TypeParam::array s, other;
  T a, b;
  s.set_all_level_quotas(msec(4));
  other.set_all_level_quotas(msec(4));
  s.enqueue(a, 1);
  other.enqueue(b, 2);
  schedcore_test::check_scope scope;
  other.dequeue(a);
  EXPECT_EQ(other.requeue_tail(a, 3), TypeParam::array::npos);
  const auto checks = scope.take();
  ASSERT_EQ(checks.size(), 2u);
  EXPECT_EQ(s.nr_queued(), 1u);
  EXPECT_EQ(other.nr_queued(), 1u);
  EXPECT_EQ(s.pick(), &a);
  EXPECT_EQ(other.pick(), &b);
  EXPECT_TRUE(s.verify());
  EXPECT_TRUE(other.verify());
  s.dequeue(a);
  other.dequeue(b);
}

TYPED_TEST(StairArrayTest, MisuseIsRefusedWithoutStateChange) {
  using T = typename TypeParam::task;
  constexpr unsigned L = TypeParam::levels;
  typename TypeParam::array s;
  T a, b;
  s.set_all_level_quotas(msec(4));
  s.enqueue(a, 1);
  schedcore_test::check_scope scope;
  EXPECT_EQ(s.enqueue(b, L), TypeParam::array::npos);
  EXPECT_EQ(s.enqueue_head(b, L + 1), TypeParam::array::npos);
  EXPECT_EQ(s.enqueue_head(b, L), TypeParam::array::npos);  // the bound itself, for every entry point
  s.enqueue_keep(b, L);
  s.enqueue_expired(b, L);
  EXPECT_EQ(s.requeue_tail(a, L), TypeParam::array::npos);
  EXPECT_EQ(s.charge(L, msec(100)), stair_rotation::none);
  EXPECT_EQ(s.level_quota(L), 0);
  s.set_level_quota(L, 1);
  s.add_level_quota(L, 1);
  EXPECT_EQ(s.first_active_at(L), nullptr);
  std::size_t expected = 11;
  if constexpr (TypeParam::safe) {
    EXPECT_EQ(s.enqueue(a, 0), TypeParam::array::npos);  // double insert
    s.enqueue_expired(a, 0);
    s.dequeue(b);                                          // not queued
    EXPECT_EQ(s.requeue_tail(b, 0), TypeParam::array::npos);
    expected += 4;
  }
  const auto checks = scope.take();
  ASSERT_EQ(checks.size(), expected);
  for (const auto& c : checks) EXPECT_EQ(c.kind, check_kind::misuse);
  EXPECT_EQ(s.nr_queued(), 1u);
  EXPECT_EQ(s.first_active_at(1), &a);
  EXPECT_EQ(s.level_quota(0), msec(4));
  EXPECT_EQ(s.current_level(), 0u);
  EXPECT_TRUE(s.verify());
  s.dequeue(a);
}

#if defined(__clang__)
[[clang::require_constant_initialization]]
#else
__constinit
#endif
stair_array<base_task> g_sd;

TEST(StairArrayGlobal, IsConstantInitialised) {
  EXPECT_TRUE(g_sd.empty());
  EXPECT_TRUE(g_sd.verify());
  base_task t;
  g_sd.enqueue(t, 20);
  EXPECT_EQ(g_sd.pop(), &t);
}

// ---- differential test ----
template <unsigned L>
struct model {
  std::list<int> q[2][L];  // [0] active, [1] expired (logical)
  unsigned current = 0;
  std::uint64_t epoch = 0;
  std::int64_t quota[L] = {}, refill[L] = {};
  std::vector<int> arr, lvl;
  std::vector<std::list<int>::iterator> it;
  std::size_t n = 0;

  explicit model(int tasks) : arr(static_cast<std::size_t>(tasks), -1), lvl(static_cast<std::size_t>(tasks), -1), it(static_cast<std::size_t>(tasks)) {}
  void put(int id, int a, unsigned l, bool head) {
    auto& lst = q[a][l];
    it[static_cast<std::size_t>(id)] = head ? lst.insert(lst.begin(), id) : lst.insert(lst.end(), id);
    arr[static_cast<std::size_t>(id)] = a;
    lvl[static_cast<std::size_t>(id)] = static_cast<int>(l);
    ++n;
  }
  void take(int id) {
    q[arr[static_cast<std::size_t>(id)]][lvl[static_cast<std::size_t>(id)]].erase(it[static_cast<std::size_t>(id)]);
    arr[static_cast<std::size_t>(id)] = lvl[static_cast<std::size_t>(id)] = -1;
    --n;
  }
  int best_active() const {
    for (unsigned l = 0; l < L; ++l)
      if (!q[0][l].empty()) return q[0][l].front();
    return -1;
  }
  void major() {
    for (unsigned l = 0; l < L; ++l) {
      for (int id : q[0][l]) arr[static_cast<std::size_t>(id)] = 1;
      q[1][l].splice(q[1][l].begin(), q[0][l]);
      std::swap(q[0][l], q[1][l]);  // list swap keeps iterators valid
      for (int id : q[0][l]) arr[static_cast<std::size_t>(id)] = 0;
    }
    ++epoch;
    current = 0;
    for (unsigned l = 0; l < L; ++l) quota[l] = refill[l];
  }
  stair_rotation close_through(unsigned l) {
    if (l + 1 >= L) {
      major();
      return stair_rotation::major;
    }
    for (unsigned k = l + 1; k-- > current;) {
      for (int id : q[0][k]) lvl[static_cast<std::size_t>(id)] = static_cast<int>(l + 1);
      q[0][l + 1].splice(q[0][l + 1].begin(), q[0][k]);
    }
    if (quota[l] < 0) quota[l + 1] += quota[l];
    current = l + 1;
    return stair_rotation::minor;
  }
};

template <class C>
void compare_full(const typename C::array& s, const model<C::levels>& m, const std::vector<typename C::task>& t, long op) {
  for (int a = 0; a < 2; ++a) {
    for (unsigned l = 0; l < C::levels; ++l) {
      const auto* p = a == 0 ? s.first_active_at(l) : s.first_expired_at(l);
      for (int id : m.q[a][l]) {
        ASSERT_EQ(p, &t[static_cast<std::size_t>(id)]) << "op " << op << " array " << a << " level " << l;
        p = s.next_at_same_level(*p);
      }
      ASSERT_EQ(p, nullptr) << "op " << op << " array " << a << " level " << l;
    }
  }
}

template <class C>
void differential(std::uint64_t seed, long ops, long verify_every) {
  using T = typename C::task;
  constexpr unsigned L = C::levels;
  constexpr int kTasks = 200;
  std::vector<T> t(kTasks);
  for (int i = 0; i < kTasks; ++i) t[static_cast<std::size_t>(i)].id = i;
  typename C::array s;
  model<L> m(kTasks);
  std::mt19937_64 rng(seed);
  for (unsigned l = 0; l < L; ++l) {
    const auto q = static_cast<std::int64_t>(1 + rng() % 10) * msec(1);
    s.set_level_quota(l, q);
    m.quota[l] = m.refill[l] = q;
  }
  std::vector<int> queued;
  auto random_queued = [&]() { return queued[static_cast<std::size_t>(rng() % queued.size())]; };
  auto drop = [&](int id) {
    for (std::size_t i = 0; i < queued.size(); ++i)
      if (queued[i] == id) { queued[i] = queued.back(); queued.pop_back(); return; }
  };
  for (long op = 0; op < ops; ++op) {
    const int id = static_cast<int>(rng() % kTasks);
    T& x = t[static_cast<std::size_t>(id)];
    const unsigned level = static_cast<unsigned>(rng() % L);
    switch (rng() % 10) {
      case 0:
      case 1:
      case 2:
        if (m.arr[static_cast<std::size_t>(id)] < 0) {
          const bool head = rng() % 4 == 0;
          const unsigned used = head ? s.enqueue_head(x, level) : s.enqueue(x, level);
          const unsigned expect = level < m.current ? m.current : level;
          ASSERT_EQ(used, expect);
          m.put(id, 0, expect, head);
          queued.push_back(id);
        }
        break;
      case 3:
        if (m.arr[static_cast<std::size_t>(id)] < 0) {
          s.enqueue_expired(x, level);
          m.put(id, 1, level, false);
          queued.push_back(id);
        }
        break;
      case 4:
        if (!queued.empty()) {
          const int v = random_queued();
          s.dequeue(t[static_cast<std::size_t>(v)]);
          m.take(v);
          drop(v);
        }
        break;
      case 5: {
        T* p = s.pop();
        const int expect = m.best_active();
        if (expect < 0) {
          ASSERT_EQ(p, nullptr);
        } else {
          ASSERT_EQ(p, &t[static_cast<std::size_t>(expect)]) << "op " << op;
          m.take(expect);
          drop(expect);
        }
        break;
      }
      case 6:
        if (!queued.empty()) {
          const int v = random_queued();
          const unsigned used = s.requeue_tail(t[static_cast<std::size_t>(v)], level);
          const unsigned expect = level < m.current ? m.current : level;
          ASSERT_EQ(used, expect);
          m.take(v);
          m.put(v, 0, expect, false);
        }
        break;
      case 7:
      case 8: {  // charge the level the picked task runs at (sometimes an arbitrary one)
        const int best = m.best_active();
        const unsigned at = (best >= 0 && rng() % 4 != 0) ? static_cast<unsigned>(m.lvl[static_cast<std::size_t>(best)]) : level;
        const auto ran = static_cast<std::int64_t>(rng() % 3000) * usec(1);
        const stair_rotation r = s.charge(at, ran);
        const unsigned l = at < m.current ? m.current : at;
        m.quota[l] -= ran;
        const stair_rotation expect = m.quota[l] > 0 ? stair_rotation::none : m.close_through(l);
        ASSERT_EQ(r, expect) << "op " << op;
        break;
      }
      case 9:
        if (rng() % 4 == 0 || s.active_empty()) {
          s.major_rotation();
          m.major();
        } else {
          ASSERT_EQ(s.minor_rotation(), m.close_through(m.current));
        }
        break;
    }
    ASSERT_EQ(s.nr_queued(), m.n);
    ASSERT_EQ(s.current_level(), m.current);
    ASSERT_EQ(s.rotation_epoch(), m.epoch);
    ASSERT_EQ(s.level_quota(level), m.quota[level]);
    const int best = m.best_active();
    ASSERT_EQ(s.pick(), best < 0 ? nullptr : &t[static_cast<std::size_t>(best)]) << "op " << op;
    if (op % verify_every == 0) {
      ASSERT_TRUE(s.verify()) << "op " << op;
      compare_full<C>(s, m, t, op);
    }
  }
  ASSERT_TRUE(s.verify());
  compare_full<C>(s, m, t, ops);
  for (int v : queued) s.dequeue(t[static_cast<std::size_t>(v)]);
  EXPECT_TRUE(s.empty());
}

TYPED_TEST(StairArrayTest, DifferentialVerifyEveryOp) { differential<TypeParam>(99, 20000, 1); }
TYPED_TEST(StairArrayTest, DifferentialMillionOps) { differential<TypeParam>(4242, 1000000, 1000); }

}  // namespace
