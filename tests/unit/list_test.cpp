// Unit tests of intrusive/list.hpp and list_hook.hpp: typed over hook placement (base, member),
// link mode (safe, normal) and size policy (counted, uncounted); edge cases; safe-mode misuse
// refused without state change; constant initialisation; and a fixed-seed differential test
// against std::list (>= 10^6 random operations, verify() after every operation on a shorter run).
#include <gtest/gtest.h>

#include <cstdint>
#include <list>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "check_recorder.hpp"
#include "schedcore/intrusive/list.hpp"

namespace {

using namespace schedcore;

struct tag_a {};
struct tag_b {};

struct safe_task : list_hook<tag_a>, list_hook<tag_b> {
  int id = 0;
};
struct normal_task : list_hook<void, list_link_mode::normal> {
  int id = 0;
};
struct member_task {
  std::uint64_t pad = 0;
  int id = 0;
  list_hook<> link;
  list_hook<void, list_link_mode::normal> nlink;
};

template <class T, class A, bool C>
struct cfg {
  using task = T;
  using list_type = list<T, A, C>;
  using access = detail::node_access<A>;
  static constexpr bool safe = detail::node_access<A>::safe;
  static constexpr bool counted = C;
};

using configs = ::testing::Types<
    cfg<safe_task, list_base<safe_task, list_hook<tag_a>>, true>,
    cfg<safe_task, list_base<safe_task, list_hook<tag_b>>, false>,
    cfg<normal_task, list_base<normal_task, list_hook<void, list_link_mode::normal>>, true>,
    cfg<member_task, list_member<&member_task::link>, true>,
    cfg<member_task, list_member<&member_task::nlink>, false>>;

struct names {
  template <class C>
  static std::string GetName(int i) {
    static const char* const n[] = {"base_safe_counted", "base_safe_uncounted", "base_normal_counted",
                                    "member_safe_counted", "member_normal_uncounted"};
    return n[i];
  }
};

template <class C>
class ListTest : public ::testing::Test {};
TYPED_TEST_SUITE(ListTest, configs, names);

template <class L>
std::vector<int> ids(const L& l) {
  std::vector<int> out;
  for (const auto& t : l) out.push_back(t.id);
  return out;
}

template <class L>
std::vector<int> ids_backwards(const L& l) {
  std::vector<int> out;
  for (auto it = l.end(); it != l.begin();) out.push_back((--it)->id);
  return out;
}

// Numbers `t` 0, 1, 2, ... and appends them to `l` in that order.
template <class List, class T, std::size_t N>
void push_numbered(List& l, T (&t)[N]) {
  for (std::size_t i = 0; i < N; ++i) {
    t[i].id = static_cast<int>(i);
    l.push_back(t[i]);
  }
}

TYPED_TEST(ListTest, EmptyList) {
  typename TypeParam::list_type l;
  EXPECT_TRUE(l.empty());
  EXPECT_EQ(l.size(), 0u);
  EXPECT_EQ(l.front(), nullptr);
  EXPECT_EQ(l.back(), nullptr);
  EXPECT_EQ(l.pop_front(), nullptr);
  EXPECT_EQ(l.pop_back(), nullptr);
  EXPECT_TRUE(l.begin() == l.end());
  EXPECT_TRUE(l.verify());
  l.clear();
  EXPECT_TRUE(l.verify());
}

TYPED_TEST(ListTest, SingleElement) {
  using T = typename TypeParam::task;
  typename TypeParam::list_type l;
  T a;
  a.id = 7;
  l.push_back(a);
  EXPECT_EQ(l.size(), 1u);
  EXPECT_EQ(l.front(), &a);
  EXPECT_EQ(l.back(), &a);
  EXPECT_TRUE(l.verify());
  EXPECT_EQ(l.pop_front(), &a);
  EXPECT_TRUE(l.empty());
  l.push_front(a);
  EXPECT_EQ(l.pop_back(), &a);
  l.push_back(a);
  l.erase(a);
  EXPECT_TRUE(l.empty());
  EXPECT_TRUE(l.verify());
}

TYPED_TEST(ListTest, OrderIterationEraseInsert) {
  using T = typename TypeParam::task;
  typename TypeParam::list_type l;
  T t[5];
  for (int i = 0; i < 5; ++i) t[i].id = i;
  l.push_back(t[1]);
  l.push_back(t[2]);
  l.push_front(t[0]);
  l.push_back(t[4]);
  l.insert(l.iterator_to(t[4]), t[3]);
  EXPECT_EQ(ids(l), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(ids_backwards(l), (std::vector<int>{4, 3, 2, 1, 0}));
  l.erase(t[2]);
  auto it = l.erase(l.iterator_to(t[0]));
  EXPECT_EQ(&*it, &t[1]);
  // Iterators assign (a mutable iterator's copy constructor doubles as the mutable-to-const
  // conversion, which must not leave its assignment deprecated: -Werror=deprecated-copy).
  auto moved = l.begin();
  moved = l.iterator_to(t[3]);
  EXPECT_EQ(&*moved, &t[3]);
  typename TypeParam::list_type::const_iterator cit = l.begin();
  cit = moved;
  EXPECT_EQ(&*cit, &t[3]);
  EXPECT_EQ(ids(l), (std::vector<int>{1, 3, 4}));
  EXPECT_EQ(l.size(), 3u);
  EXPECT_TRUE(l.verify());
  l.clear();
  EXPECT_TRUE(l.empty());
  // After clear the elements that were in it can be inserted again (safe mode: their hooks
  // were nulled, so this is no double insert).
  schedcore_test::check_scope scope;
  l.push_back(t[1]);
  l.push_back(t[4]);
  EXPECT_TRUE(scope.take().empty());
  EXPECT_EQ(ids(l), (std::vector<int>{1, 4}));
  l.clear();
}

// verify() is the check run under SCHEDCORE_INVARIANT: a ring with a wrong back link, and (with
// a size counter) an element cut out of the ring by hand, must fail it; undone, it passes.
TYPED_TEST(ListTest, VerifyRejectsABrokenRingAndAStaleCount) {
  using T = typename TypeParam::task;
  using access = typename TypeParam::access;
  typename TypeParam::list_type l;
  T t[3];
  push_numbered(l, t);
  ASSERT_TRUE(l.verify());
  detail::list_node& mid = access::to_node(t[1]);
  detail::list_node* const prev = mid.sc_prev;
  detail::list_node* const next = mid.sc_next;
  mid.sc_prev = next;  // a back link to the wrong neighbour
  EXPECT_FALSE(l.verify());
  mid.sc_prev = prev;
  ASSERT_TRUE(l.verify());
  prev->sc_next = next;  // t[1] cut out: a consistent ring of two
  next->sc_prev = prev;
  EXPECT_EQ(l.verify(), !TypeParam::counted);
  prev->sc_next = &mid;
  next->sc_prev = &mid;
  ASSERT_TRUE(l.verify());
  l.clear();
}

TYPED_TEST(ListTest, SpliceWholeAndSingleAndSwap) {
  using T = typename TypeParam::task;
  typename TypeParam::list_type a, b;
  T t[6];
  for (int i = 0; i < 6; ++i) t[i].id = i;
  for (int i = 0; i < 3; ++i) a.push_back(t[i]);
  for (int i = 3; i < 6; ++i) b.push_back(t[i]);
  a.splice(a.iterator_to(t[1]), b);  // 0 3 4 5 1 2
  EXPECT_EQ(ids(a), (std::vector<int>{0, 3, 4, 5, 1, 2}));
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(a.size(), 6u);
  EXPECT_EQ(b.size(), 0u);
  a.splice(a.end(), a);  // self-splice: no-op
  b.splice(b.end(), a, t[4]);
  b.splice(b.begin(), a, t[2]);
  EXPECT_EQ(ids(a), (std::vector<int>{0, 3, 5, 1}));
  EXPECT_EQ(ids(b), (std::vector<int>{2, 4}));
  a.splice(a.iterator_to(t[3]), a, t[1]);  // within one list
  EXPECT_EQ(ids(a), (std::vector<int>{0, 1, 3, 5}));
  a.splice(a.iterator_to(t[1]), a, t[1]);  // onto itself: no-op
  a.splice(a.iterator_to(t[3]), a, t[1]);  // already before pos: no-op
  EXPECT_EQ(ids(a), (std::vector<int>{0, 1, 3, 5}));
  a.swap(b);
  EXPECT_EQ(ids(a), (std::vector<int>{2, 4}));
  EXPECT_EQ(ids(b), (std::vector<int>{0, 1, 3, 5}));
  EXPECT_EQ(a.size(), 2u);
  EXPECT_EQ(b.size(), 4u);
  typename TypeParam::list_type e;
  e.swap(a);
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(e.size(), 2u);
  a.splice_front(e);
  a.splice_back(b);
  EXPECT_EQ(ids(a), (std::vector<int>{2, 4, 0, 1, 3, 5}));
  EXPECT_TRUE(a.verify() && b.verify() && e.verify());
  a.clear();
}

TYPED_TEST(ListTest, SafeModeRefusesMisuseWithoutStateChange) {
  if constexpr (!TypeParam::safe) {
    GTEST_SKIP() << "normal link mode cannot detect misuse (by design)";
  } else {
    using T = typename TypeParam::task;
    typename TypeParam::list_type l;
    T a, b, c;
    a.id = 1;
    b.id = 2;
    l.push_back(a);
    l.push_back(b);
    schedcore_test::check_scope scope;
    l.push_back(a);                 // double insert
    l.push_front(b);                // double insert
    l.insert(l.begin(), a);         // double insert
    l.erase(c);                     // erase unlinked
    l.splice(l.end(), l, c);        // splice unlinked
    l.erase(l.end());               // erase the sentinel
    const auto checks = scope.take();
    ASSERT_EQ(checks.size(), 6u);
    for (const auto& ch : checks) EXPECT_EQ(ch.kind, check_kind::misuse);
    EXPECT_EQ(ids(l), (std::vector<int>{1, 2}));
    EXPECT_EQ(l.size(), 2u);
    EXPECT_TRUE(l.verify());
    l.clear();
  }
}

// A list without ConstantTimeSize is its sentinel alone, two words (a wait queue per object on
// a small target), with the counter three; both stay standard-layout, so a C caller's
// offsetof works on a structure that holds one.
TEST(List, TheCounterWordExistsOnlyWithConstantTimeSize) {
  using normal_base = list_base<normal_task, list_hook<void, list_link_mode::normal>>;
  static_assert(sizeof(list<normal_task, normal_base, false>) == 2 * sizeof(void*));
  static_assert(sizeof(list<normal_task, normal_base, true>) == 3 * sizeof(void*));
  static_assert(std::is_standard_layout_v<list<normal_task, normal_base, false>>);
  static_assert(std::is_standard_layout_v<list<normal_task, normal_base, true>>);
  list<normal_task, normal_base, false> a, b;
  normal_task t[3];
  for (normal_task& x : t) a.push_back(x);
  a.swap(b);
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(b.size(), 3u);
  a.splice_back(b);
  EXPECT_EQ(a.size(), 3u);
  EXPECT_TRUE(a.verify() && b.verify());
  a.clear();
  EXPECT_EQ(a.size(), 0u);
}

TEST(ListHook, IsTwoWordsLinkStateAndCopies) {
  static_assert(sizeof(list_hook<>) == 2 * sizeof(void*));
  static_assert(sizeof(list_hook<tag_a, list_link_mode::normal>) == 2 * sizeof(void*));
  list<safe_task, list_base<safe_task, list_hook<tag_a>>> l;
  safe_task a;
  EXPECT_FALSE(static_cast<list_hook<tag_a>&>(a).is_linked());
  l.push_back(a);
  EXPECT_TRUE(static_cast<list_hook<tag_a>&>(a).is_linked());
  EXPECT_FALSE(static_cast<list_hook<tag_b>&>(a).is_linked());  // other membership untouched
  safe_task copy = a;  // copies are unlinked
  EXPECT_FALSE(static_cast<list_hook<tag_a>&>(copy).is_linked());
  copy = a;  // assignment keeps the target's (unlinked) state
  EXPECT_FALSE(static_cast<list_hook<tag_a>&>(copy).is_linked());
  l.pop_front();
  EXPECT_FALSE(static_cast<list_hook<tag_a>&>(a).is_linked());
}

TEST(ListHook, MemberAccessorRoundTrips) {
  member_task m;
  using A = list_member<&member_task::link>;
  EXPECT_EQ(&A::to_hook(m), &m.link);
  EXPECT_EQ(&A::to_value(m.link), &m);
  const member_task& cm = m;
  EXPECT_EQ(&A::to_value(A::to_hook(cm)), &cm);
}

TEST(ListHook, MultiMembership) {
  list<safe_task, list_base<safe_task, list_hook<tag_a>>> la;
  list<safe_task, list_base<safe_task, list_hook<tag_b>>> lb;
  safe_task t[3];
  for (int i = 0; i < 3; ++i) {
    t[i].id = i;
    la.push_back(t[i]);
    lb.push_front(t[i]);
  }
  EXPECT_EQ(ids(la), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(ids(lb), (std::vector<int>{2, 1, 0}));
  la.erase(t[1]);
  EXPECT_EQ(ids(lb), (std::vector<int>{2, 1, 0}));
  la.clear();
  lb.clear();
}

// A global list is constant-initialised (no static constructor): the attribute makes the
// compiler reject a dynamic initialiser.
#if defined(__clang__)
[[clang::require_constant_initialization]]
#else
__constinit
#endif
list<safe_task, list_base<safe_task, list_hook<tag_a>>> g_list;

TEST(ListGlobal, IsConstantInitialised) {
  EXPECT_TRUE(g_list.empty());
  EXPECT_TRUE(g_list.verify());
  safe_task a;
  g_list.push_back(a);
  EXPECT_EQ(g_list.size(), 1u);
  g_list.clear();
}

// Differential test against two std::list<int> models: push/pop at both ends, insert before
// a random element, erase any, splice single node and whole list between the two lists.
template <class C>
void differential(std::uint64_t seed, long ops, long verify_every) {
  using T = typename C::task;
  using L = typename C::list_type;
  constexpr int kTasks = 64;
  std::vector<T> t(kTasks);
  for (int i = 0; i < kTasks; ++i) t[static_cast<std::size_t>(i)].id = i;
  L lists[2];
  std::list<int> model[2];
  std::vector<int> where(kTasks, -1);  // which list holds task i, -1 none
  std::mt19937_64 rng(seed);
  auto find_in_model = [&](int l, int id) {
    for (auto it = model[l].begin(); it != model[l].end(); ++it)
      if (*it == id) return it;
    return model[l].end();
  };
  for (long op = 0; op < ops; ++op) {
    const int id = static_cast<int>(rng() % kTasks);
    const int l = static_cast<int>(rng() % 2);
    T& x = t[static_cast<std::size_t>(id)];
    switch (rng() % 8) {
      case 0:
      case 1:
        if (where[static_cast<std::size_t>(id)] < 0) {
          lists[l].push_back(x);
          model[l].push_back(id);
          where[static_cast<std::size_t>(id)] = l;
        }
        break;
      case 2:
        if (where[static_cast<std::size_t>(id)] < 0) {
          lists[l].push_front(x);
          model[l].push_front(id);
          where[static_cast<std::size_t>(id)] = l;
        }
        break;
      case 3:
        if (where[static_cast<std::size_t>(id)] >= 0) {
          const int w = where[static_cast<std::size_t>(id)];
          lists[w].erase(x);
          model[w].erase(find_in_model(w, id));
          where[static_cast<std::size_t>(id)] = -1;
        }
        break;
      case 4: {
        const bool front = (rng() & 1) != 0;
        T* p = front ? lists[l].pop_front() : lists[l].pop_back();
        if (p == nullptr) {
          ASSERT_TRUE(model[l].empty());
        } else {
          ASSERT_FALSE(model[l].empty());
          ASSERT_EQ(p->id, front ? model[l].front() : model[l].back());
          if (front) model[l].pop_front();
          else model[l].pop_back();
          where[static_cast<std::size_t>(p->id)] = -1;
        }
        break;
      }
      case 5:  // insert before a random element (the element of task id, if linked in l)
        if (where[static_cast<std::size_t>(id)] == l) {
          const int nid = static_cast<int>(rng() % kTasks);
          if (where[static_cast<std::size_t>(nid)] < 0) {
            lists[l].insert(lists[l].iterator_to(x), t[static_cast<std::size_t>(nid)]);
            model[l].insert(find_in_model(l, id), nid);
            where[static_cast<std::size_t>(nid)] = l;
          }
        }
        break;
      case 6:  // splice one node to the other list's back
        if (where[static_cast<std::size_t>(id)] >= 0) {
          const int w = where[static_cast<std::size_t>(id)];
          lists[1 - w].splice(lists[1 - w].end(), lists[w], x);
          model[1 - w].splice(model[1 - w].end(), model[w], find_in_model(w, id));
          where[static_cast<std::size_t>(id)] = 1 - w;
        }
        break;
      case 7:  // splice a whole list (rarely, so lists grow)
        if (rng() % 16 == 0) {
          lists[l].splice(lists[l].begin(), lists[1 - l]);
          for (int v : model[1 - l]) where[static_cast<std::size_t>(v)] = l;
          model[l].splice(model[l].begin(), model[1 - l]);
        }
        break;
    }
    if (op % verify_every == 0) {
      for (int k = 0; k < 2; ++k) {
        ASSERT_TRUE(lists[k].verify()) << "op " << op;
        ASSERT_EQ(lists[k].size(), model[k].size()) << "op " << op;
        if (op % (verify_every * 64) == 0 || verify_every == 1) {
          ASSERT_EQ(ids(lists[k]), std::vector<int>(model[k].begin(), model[k].end())) << "op " << op;
        }
      }
    }
  }
  for (int k = 0; k < 2; ++k) {
    ASSERT_EQ(ids(lists[k]), std::vector<int>(model[k].begin(), model[k].end()));
    lists[k].clear();
  }
}

TYPED_TEST(ListTest, DifferentialVsStdListVerifyEveryOp) { differential<TypeParam>(11, 20000, 1); }
TYPED_TEST(ListTest, DifferentialVsStdListMillionOps) { differential<TypeParam>(12345, 1000000, 997); }

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

// Contract: list.hpp documents head_.sc_next as the front and head_.sc_prev as the back, the
// std::list / Boost.Intrusive list semantics the differential test models with std::list:
// front() is the first element in iteration order, back() the last.
TYPED_TEST(ListTest, FrontAndBackOfSeveralElementsAreTheEnds) {
  using T = typename TypeParam::task;
  typename TypeParam::list_type l;
  T t[3];
  push_numbered(l, t);
  EXPECT_EQ(l.front(), &t[0]);
  EXPECT_EQ(l.back(), &t[2]);
  const auto& cl = l;  // the const overloads
  EXPECT_EQ(cl.front(), &t[0]);
  EXPECT_EQ(cl.back(), &t[2]);
  l.clear();
}

// Contract: std::list::clear / boost::intrusive::list::clear postcondition size() == 0, and
// list.hpp's own verify() rule that the counter equals the ring's length.
TYPED_TEST(ListTest, ClearResetsTheSize) {
  using T = typename TypeParam::task;
  typename TypeParam::list_type l;
  T t[3];
  push_numbered(l, t);
  ASSERT_EQ(l.size(), 3u);
  l.clear();
  EXPECT_EQ(l.size(), 0u);
  EXPECT_TRUE(l.verify());
  l.push_back(t[1]);  // reusable after clear, and counted from zero
  EXPECT_EQ(l.size(), 1u);
  EXPECT_TRUE(l.verify());
  l.clear();
}

// Contract: std::list::splice(pos, other, it) (C++17 [list.ops]) — the element moves to just
// before pos; it is a no-op only when pos == it or pos == next(it). So with pos == prev(it)
// (the element right after pos) the element must move in front of pos.
TYPED_TEST(ListTest, SpliceOneWithinTheListMovesTheElementBeforePos) {
  using T = typename TypeParam::task;
  typename TypeParam::list_type l;
  T t[3];
  push_numbered(l, t);
  l.splice(l.iterator_to(t[0]), l, t[1]);  // t[1] sits right after pos: it must still move
  EXPECT_EQ(ids(l), (std::vector<int>{1, 0, 2}));
  l.splice(l.iterator_to(t[0]), l, t[1]);  // now right before pos: a no-op
  EXPECT_EQ(ids(l), (std::vector<int>{1, 0, 2}));
  l.splice(l.end(), l, t[1]);  // to the back
  EXPECT_EQ(ids(l), (std::vector<int>{0, 2, 1}));
  EXPECT_EQ(ids_backwards(l), (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(l.size(), 3u);
  EXPECT_TRUE(l.verify());
  l.clear();
}

}  // namespace
