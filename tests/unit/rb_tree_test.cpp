// Unit tests of intrusive/rb_*: typed suites over four tree configurations (no augment /
// subtree_best, normal / safe hooks), differential tests against a std::multiset model with
// fixed seeds (verify() after every operation on a small tree; 10^6 operations with periodic
// verify on a larger one), edges (empty, single, all-equal keys in FIFO order, keys across the
// 2^64 wrap), misuse refused without a change of state, and the augmented search against
// brute force.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <tuple>
#include <vector>

#include "check_recorder.hpp"
#include "test_steps.hpp"
#include "schedcore/intrusive/rb_tree.hpp"

namespace {

using namespace schedcore;

struct rng {
  u64 s;
  u64 operator()() {
    // splitmix64: fixed seeds give identical sequences on every platform
    u64 z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  u64 below(u64 n) { return (*this)() % n; }
};

template <link_mode M>
struct task {
  u32 id = 0;
  vtime key{};   // the tree's order (wrap-safe)
  vtime aux{};   // the augmented value (e.g. vruntime under a deadline key)
  vtime best{};  // stored subtree minimum of aux
  u64 pad = 0;   // puts the hook at a non-zero offset: rb_member must subtract it
  rb_hook<M> hook;
};

template <link_mode M>
struct min_aux {
  using value_type = task<M>;
  using best_type = vtime;
  static vtime value(const task<M>& t) noexcept { return t.aux; }
  static vtime best(const task<M>& t) noexcept { return t.best; }
  static void set_best(task<M>& t, vtime b) noexcept { t.best = b; }
  static bool better(vtime a, vtime b) noexcept { return a < b; }
};

template <class Augment, link_mode M>
struct config {
  static constexpr link_mode mode = M;
  static constexpr bool augmented = !std::is_same_v<Augment, no_augment>;
  using task_type = task<M>;
  using tree_type = rb_tree<task<M>, rb_member<&task<M>::hook>, rb_member_less<&task<M>::key>, Augment>;
};

using configs = ::testing::Types<config<no_augment, link_mode::normal>, config<no_augment, link_mode::safe>,
                                 config<subtree_best<min_aux<link_mode::normal>>, link_mode::normal>,
                                 config<subtree_best<min_aux<link_mode::safe>>, link_mode::safe>>;

struct config_names {
  template <class C>
  static std::string GetName(int) {
    return std::string(C::augmented ? "best" : "plain") + (C::mode == link_mode::safe ? "_safe" : "_normal");
  }
};

// Keys start just below 2^64 so every long run crosses the wrap.
constexpr u64 key_base = ~0ull - (1ull << 36);

template <class C>
class RbTree : public ::testing::Test {
 protected:
  using task_t = typename C::task_type;
  using tree_t = typename C::tree_type;

  // The model: (key relative to key_base, insertion sequence, id). The sequence makes the
  // model's order exactly the FIFO-among-equals order the tree promises.
  using entry = std::tuple<u64, u64, u32>;

  void make_pool(size_t n) {
    pool_.assign(n, task_t{});
    for (size_t i = 0; i < n; ++i) pool_[i].id = static_cast<u32>(i);
    where_.assign(n, model_.end());
    linked_.assign(n, false);
  }

  void model_insert(task_t& t) {
    where_[t.id] = model_.insert(entry{t.key.ns() - key_base, seq_++, t.id});
    linked_[t.id] = true;
  }
  void model_erase(task_t& t) {
    model_.erase(where_[t.id]);
    where_[t.id] = model_.end();
    linked_[t.id] = false;
  }
  task_t* model_front() { return model_.empty() ? nullptr : &pool_[std::get<2>(*model_.begin())]; }

  // Tree insert checked against the model (return value, front, size).
  void insert(task_t& t) {
    model_insert(t);
    const bool leftmost = tree_.insert(t);
    ASSERT_EQ(leftmost, model_front() == &t);
    ASSERT_EQ(tree_.front(), model_front());
    ASSERT_EQ(tree_.size(), model_.size());
  }
  void erase(task_t& t) {
    model_erase(t);
    task_t* f = tree_.erase(t);
    ASSERT_EQ(f, model_front());
    ASSERT_EQ(tree_.front(), model_front());
    ASSERT_EQ(tree_.size(), model_.size());
  }
  void pop() {
    task_t* expect = model_front();
    if (expect) model_erase(*expect);
    ASSERT_EQ(tree_.pop_front(), expect);
    ASSERT_EQ(tree_.front(), model_front());
  }

  // Full comparison: in-order walk equals the model; augmented search equals brute force.
  void compare_all(rng& r) {
    ASSERT_TRUE(tree_.verify());
    auto it = tree_.begin();
    for (const entry& e : model_) {
      ASSERT_NE(it, tree_.end());
      ASSERT_EQ(it->id, std::get<2>(e));
      ++it;
    }
    ASSERT_EQ(it, tree_.end());
    if constexpr (C::augmented) check_search(r);
  }

  void check_search(rng& r) {
    // Thresholds around the aux values in use, including none and all eligible.
    for (int k = 0; k < 4; ++k) {
      const vtime v{key_base + r.below(1u << 20) - (1u << 18)};
      task_t* brute = nullptr;
      for (const entry& e : model_) {
        task_t& t = pool_[std::get<2>(e)];
        if (!(v < t.aux)) {
          brute = &t;
          break;
        }
      }
      task_t* got = tree_.find_first_by_best([v](vtime b) noexcept { return !(v < b); });
      ASSERT_EQ(got, brute);
    }
  }

  vtime random_key(rng& r, u64 spread) {
    // Keys relative to the current minimum (or the base), small spreads give many ties.
    const u64 lo = model_.empty() ? 0 : std::get<0>(*model_.begin());
    return vtime{key_base + lo + r.below(spread)};
  }

  // One random operation: insert, erase any, pop minimum, or requeue (erase + advance + insert).
  void random_op(rng& r, u64 spread) {
    const u64 op = r.below(8);
    task_t& t = pool_[static_cast<std::size_t>(r.below(pool_.size()))];
    if (!linked_[t.id]) {
      if (op < 6) {
        t.key = random_key(r, spread);
        t.aux = vtime{key_base + r.below(1u << 20)};
        insert(t);
      } else {
        pop();
      }
      return;
    }
    switch (op) {
      case 0:
      case 1:
        erase(t);
        break;
      case 2:
      case 3:
        pop();
        break;
      default: {
        // requeue (the churn of a scheduler): the minimum half the time, else a random task
        task_t& q = (op & 1) && model_front() ? *model_front() : t;
        erase(q);
        q.key += static_cast<duration_ns>(r.below(spread));
        q.aux += static_cast<duration_ns>(r.below(1u << 12)) - (1 << 11);
        insert(q);
      }
    }
  }

  std::vector<task_t> pool_;
  std::vector<typename std::multiset<entry>::iterator> where_;
  std::vector<bool> linked_;
  std::multiset<entry> model_;
  u64 seq_ = 0;
  tree_t tree_;
};

TYPED_TEST_SUITE(RbTree, configs, config_names);

TYPED_TEST(RbTree, EmptyTree) {
  auto& tree = this->tree_;
  EXPECT_TRUE(tree.empty());
  EXPECT_EQ(tree.size(), 0u);
  EXPECT_EQ(tree.front(), nullptr);
  EXPECT_EQ(tree.back(), nullptr);
  EXPECT_EQ(tree.root(), nullptr);
  EXPECT_EQ(tree.pop_front(), nullptr);
  EXPECT_TRUE(tree.begin() == tree.end());
  EXPECT_TRUE(tree.verify());
  if constexpr (TypeParam::augmented) {
    EXPECT_EQ(tree.find_first_by_best([](vtime) noexcept { return true; }), nullptr);
  }
  tree.clear();
  EXPECT_TRUE(tree.verify());
}

TYPED_TEST(RbTree, SingleElement) {
  this->make_pool(1);
  auto& t = this->pool_[0];
  auto& tree = this->tree_;
  t.key = vtime{key_base};
  t.aux = vtime{key_base + 5};
  EXPECT_TRUE(tree.insert(t));
  EXPECT_EQ(tree.front(), &t);
  EXPECT_EQ(tree.back(), &t);
  EXPECT_EQ(tree.root(), &t);
  EXPECT_EQ(tree.size(), 1u);
  EXPECT_TRUE(tree.verify());
  EXPECT_EQ(tree.next(t), nullptr);
  EXPECT_EQ(tree.prev(t), nullptr);
  if constexpr (TypeParam::augmented) {
    EXPECT_EQ(t.best, t.aux);
    EXPECT_EQ(tree.find_first_by_best([](vtime b) noexcept { return !(vtime{key_base + 5} < b); }), &t);
    EXPECT_EQ(tree.find_first_by_best([](vtime b) noexcept { return b < vtime{key_base + 5}; }), nullptr);
  }
  EXPECT_EQ(tree.erase(t), nullptr);
  EXPECT_TRUE(tree.empty());
  EXPECT_TRUE(tree.verify());
  if constexpr (TypeParam::mode == link_mode::safe) {
    EXPECT_FALSE(t.hook.is_linked());
  }
  EXPECT_TRUE(tree.insert(t));
  EXPECT_EQ(tree.pop_front(), &t);
  EXPECT_TRUE(tree.empty());
}

TYPED_TEST(RbTree, EqualKeysKeepFifoOrder) {
  constexpr size_t n = 500;
  this->make_pool(n);
  auto& tree = this->tree_;
  for (auto& t : this->pool_) {
    t.key = vtime{key_base + 7};
    const bool leftmost = tree.insert(t);
    EXPECT_EQ(leftmost, t.id == 0);  // ties go right: only the first insert becomes leftmost
  }
  ASSERT_TRUE(tree.verify());
  // Walk order is insertion order.
  u32 expect = 0;
  for (auto& t : tree) EXPECT_EQ(t.id, expect++);
  // Requeue every third task with the same key: it goes behind all equals.
  std::vector<u32> order;
  for (u32 i = 0; i < n; ++i)
    if (i % 3 != 0) order.push_back(i);
  for (u32 i = 0; i < n; i += 3) {
    tree.erase(this->pool_[i]);
    tree.insert(this->pool_[i]);
    order.push_back(i);
  }
  ASSERT_TRUE(tree.verify());
  for (u32 id : order) {
    auto* t = tree.pop_front();
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->id, id);
  }
  EXPECT_TRUE(tree.empty());
}

// verify() is the check the policies run under SCHEDCORE_INVARIANT: each corruption a bug could
// leave (a red root, a broken parent link, unequal black heights, a stale size or leftmost
// cache, keys out of order, a stale augmented best) must make it fail, and undoing it must make
// it pass again. The corruptions are made by hand on the hooks (layout: rb_hook.hpp).
TYPED_TEST(RbTree, VerifyRejectsEachKindOfCorruption) {
  constexpr size_t n = 15;
  this->make_pool(n);
  auto& tree = this->tree_;
  for (size_t i = 0; i < n; ++i) {
    auto& t = this->pool_[i];
    t.key = vtime{key_base + 10 * i};
    t.aux = vtime{key_base + 1000 - i};
    tree.insert(t);
  }
  ASSERT_TRUE(tree.verify());
  using traits = rb_node_traits;
  rb_node* const root = &tree.root()->hook;
  auto node_of = [&](size_t i) -> rb_node* { return &this->pool_[i].hook; };

  // A red root (also to the container-free check, which reports the count it reached).
  traits::set_red(root);
  EXPECT_FALSE(tree.verify());
  usize count = 0;
  EXPECT_FALSE(rb_algorithms<>::verify_shape(root, count));
  traits::set_black(root);
  ASSERT_TRUE(tree.verify());

  // A child whose parent link points at its sibling.
  rb_node* const l = traits::get_child(root, 0);
  rb_node* const r = traits::get_child(root, 1);
  ASSERT_TRUE(l != nullptr && r != nullptr);
  traits::set_parent(l, r);
  EXPECT_FALSE(tree.verify());
  traits::set_parent(l, root);
  ASSERT_TRUE(tree.verify());

  // Find a red leaf other than the leftmost, and the leftmost (black, no left child).
  rb_node* const leftmost = node_of(0);
  rb_node* red_leaf = nullptr;
  for (size_t i = 1; i < n && red_leaf == nullptr; ++i) {
    rb_node* x = node_of(i);
    if (traits::is_red(x) && !traits::get_child(x, 0) && !traits::get_child(x, 1)) red_leaf = x;
  }
  ASSERT_NE(red_leaf, nullptr);
  ASSERT_TRUE(traits::is_black(leftmost));
  ASSERT_EQ(traits::get_child(leftmost, 0), nullptr);

  // A black leaf made red: the black heights differ.
  rb_node* black_leaf = nullptr;
  for (size_t i = 0; i < n && black_leaf == nullptr; ++i) {
    rb_node* x = node_of(i);
    if (traits::is_black(x) && !traits::get_child(x, 0) && !traits::get_child(x, 1) && traits::is_black(traits::get_parent(x)))
      black_leaf = x;
  }
  ASSERT_NE(black_leaf, nullptr);
  traits::set_red(black_leaf);
  EXPECT_FALSE(tree.verify());
  traits::set_black(black_leaf);
  ASSERT_TRUE(tree.verify());

  // The red leaf cut off: a valid shape, one node fewer than size().
  rb_node* const leaf_parent = traits::get_parent(red_leaf);
  const unsigned leaf_dir = traits::get_child(leaf_parent, 0) == red_leaf ? 0u : 1u;
  traits::set_child(leaf_parent, leaf_dir, nullptr);
  EXPECT_FALSE(tree.verify());
  // ...and hung to the left of the leftmost: the same count and shape, but the cached front
  // is no longer the first node.
  traits::set_child(leftmost, 0, red_leaf);
  traits::set_parent(red_leaf, leftmost);
  EXPECT_FALSE(tree.verify());
  traits::set_child(leftmost, 0, nullptr);
  traits::set_child(leaf_parent, leaf_dir, red_leaf);
  traits::set_parent(red_leaf, leaf_parent);
  ASSERT_TRUE(tree.verify());

  // A key moved past its successor's.
  auto& mid = this->pool_[5];
  mid.key = vtime{key_base + 65};
  EXPECT_FALSE(tree.verify());
  mid.key = vtime{key_base + 50};
  ASSERT_TRUE(tree.verify());

  // A stored subtree best that is not the recomputed one.
  if constexpr (TypeParam::augmented) {
    auto& top = *tree.root();
    const vtime kept = top.best;
    top.best = kept + 1;
    EXPECT_FALSE(tree.verify());
    top.best = kept;
    EXPECT_TRUE(tree.verify());
  }
}

TYPED_TEST(RbTree, KeysAcrossTheWrapOrderWrapSafe) {
  // Keys from 2^64 - 1000 to 2^64 + 1000 (mod 2^64), inserted in a scrambled order.
  constexpr size_t n = 2001;
  this->make_pool(n);
  auto& tree = this->tree_;
  const u64 start = ~0ull - 999;
  for (size_t i = 0; i < n; ++i) {
    auto& t = this->pool_[(i * 7919) % n];
    t.key = vtime{start + (i * 7919) % n};
    tree.insert(t);
  }
  ASSERT_TRUE(tree.verify());
  EXPECT_EQ(tree.front()->key.ns(), start);
  EXPECT_EQ(tree.back()->key.ns(), start + n - 1);  // 1000 after the wrap
  EXPECT_LT(tree.back()->key.ns(), start);            // raw values are not in order...
  u64 expect = start;
  while (auto* t = tree.pop_front()) EXPECT_EQ(t->key.ns(), expect++);  // ...the tree is
}

TYPED_TEST(RbTree, IterationNextPrevBack) {
  constexpr size_t n = 300;
  this->make_pool(n);
  rng r{11};
  for (auto& t : this->pool_) {
    t.key = vtime{key_base + r.below(100)};
    this->insert(t);
  }
  ASSERT_TRUE(this->tree_.verify());
  std::vector<typename TestFixture::task_t*> forward;
  for (auto* t = this->tree_.front(); t; t = this->tree_.next(*t)) forward.push_back(t);
  ASSERT_EQ(forward.size(), n);
  std::vector<typename TestFixture::task_t*> backward;
  for (auto* t = this->tree_.back(); t; t = this->tree_.prev(*t)) backward.push_back(t);
  ASSERT_EQ(backward.size(), n);
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(forward[i], backward[n - 1 - i]);
  size_t i = 0;
  for (const auto& e : this->model_) EXPECT_EQ(forward[i++]->id, std::get<2>(e));
}

TYPED_TEST(RbTree, ClearEmptiesAndSafeHooksAreReset) {
  constexpr size_t n = 100;
  this->make_pool(n);
  for (auto& t : this->pool_) {
    t.key = vtime{key_base + t.id * 3 % 17};
    this->tree_.insert(t);
  }
  this->tree_.clear();
  EXPECT_TRUE(this->tree_.empty());
  EXPECT_EQ(this->tree_.size(), 0u);
  EXPECT_TRUE(this->tree_.verify());
  if constexpr (TypeParam::mode == link_mode::safe) {
    for (auto& t : this->pool_) EXPECT_FALSE(t.hook.is_linked());
    for (auto& t : this->pool_) this->tree_.insert(t);
    EXPECT_TRUE(this->tree_.verify());
    EXPECT_EQ(this->tree_.size(), n);
  }
}

TYPED_TEST(RbTree, MisuseIsReportedAndRefusedWithoutChange) {
  if constexpr (TypeParam::mode != link_mode::safe) {
    GTEST_SKIP() << "normal hooks do not detect misuse (by design)";
  } else {
    constexpr size_t n = 50;
    this->make_pool(n);
    auto& tree = this->tree_;
    for (size_t i = 0; i + 1 < n; ++i) {
      this->pool_[i].key = vtime{key_base + i * 13 % 7};
      tree.insert(this->pool_[i]);
    }
    auto snapshot = [&] {
      std::vector<uptr> s;
      for (auto& t : this->pool_) {
        s.push_back(t.hook.sc_parent_color);
        s.push_back(reinterpret_cast<uptr>(t.hook.sc_child[0]));
        s.push_back(reinterpret_cast<uptr>(t.hook.sc_child[1]));
        s.push_back(static_cast<uptr>(t.best.ns()));  // low word on 32-bit: a snapshot, not a key
      }
      s.push_back(tree.size());
      s.push_back(reinterpret_cast<uptr>(tree.front()));
      s.push_back(reinterpret_cast<uptr>(tree.root()));
      return s;
    };
    const auto before = snapshot();
    auto& unlinked = this->pool_[n - 1];
    schedcore_test::check_scope scope;
    // Double insert of a linked task (the leftmost and a non-leftmost one).
    EXPECT_FALSE(tree.insert(*tree.front()));
    EXPECT_FALSE(tree.insert(this->pool_[10]));
    // Erase of an unlinked task returns the unchanged front.
    EXPECT_EQ(tree.erase(unlinked), tree.front());
    const auto checks = scope.take();
    ASSERT_EQ(checks.size(), 3u);
    for (const auto& c : checks) {
      EXPECT_EQ(c.kind, check_kind::misuse);
      EXPECT_NE(c.file.find("rb_tree.hpp"), std::string::npos);
    }
    EXPECT_NE(checks[0].expr.find("is_unlinked"), std::string::npos);
    EXPECT_EQ(snapshot(), before);
    EXPECT_TRUE(tree.verify());
    EXPECT_FALSE(unlinked.hook.is_linked());
    // A task erased once is unlinked again: a second erase is refused too.
    auto* f = tree.front();
    tree.erase(*f);
    EXPECT_FALSE(f->hook.is_linked());
    tree.erase(*f);
    EXPECT_EQ(scope.take().size(), 1u);
    EXPECT_TRUE(tree.verify());
    EXPECT_EQ(tree.size(), n - 2);
  }
}

// verify() after every operation on a small tree (many rebalancing shapes per size).
TYPED_TEST(RbTree, DifferentialVerifyEveryOp) {
  this->make_pool(48);
  rng r{0x5eed0001};
  for (int i = 0; i < 60000; ++i) {
    const u64 spread = (i / 5000) % 2 ? 8 : (1ull << 22);  // phases of heavy ties
    this->random_op(r, spread);
    if (::testing::Test::HasFatalFailure()) return;
    ASSERT_TRUE(this->tree_.verify()) << "after op " << i;
    if (i % 64 == 0) {
      this->compare_all(r);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// 10^6 operations on a larger tree with periodic verify and full comparison.
TYPED_TEST(RbTree, DifferentialMillionOps) {
  this->make_pool(3000);
  rng r{0x5eed0002};
  for (auto& t : this->pool_) {  // start about two-thirds full
    if (r.below(3) == 0) continue;
    t.key = this->random_key(r, 1ull << 22);
    t.aux = vtime{key_base + r.below(1u << 20)};
    this->insert(t);
  }
  for (int i = 0; i < schedcore_test::run_steps(1000000); ++i) {
    this->random_op(r, (i / 100000) % 2 ? 64 : (4ull << 20));
    if (::testing::Test::HasFatalFailure()) return;
    if (i % 50000 == 0) {
      this->compare_all(r);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  this->compare_all(r);
}

// Sorted, reverse-sorted and alternating insertion orders hit the extreme rotation sequences.
TYPED_TEST(RbTree, MonotoneInsertAndEraseOrders) {
  constexpr size_t n = 1024;
  this->make_pool(n);
  for (int pattern = 0; pattern < 3; ++pattern) {
    for (size_t i = 0; i < n; ++i) {
      auto& t = this->pool_[i];
      const u64 k = pattern == 0 ? i : pattern == 1 ? n - i : (i % 2 ? i : n + i);
      t.key = vtime{key_base + k};
      t.aux = vtime{key_base + (k * 37) % 101};
      this->insert(t);
      if (::testing::Test::HasFatalFailure()) return;
    }
    ASSERT_TRUE(this->tree_.verify());
    // Erase from the back, then from the middle outwards, then pop the rest.
    for (size_t i = n; i-- > 3 * n / 4;) this->erase(this->pool_[i]);
    for (size_t i = n / 4; i < n / 2; ++i) this->erase(this->pool_[i]);
    ASSERT_TRUE(this->tree_.verify());
    rng r{static_cast<u64>(pattern)};
    this->compare_all(r);
    while (!this->model_.empty()) this->pop();
    ASSERT_TRUE(this->tree_.verify());
  }
}

// --- Non-typed checks -------------------------------------------------------------------

struct based : rb_hook<link_mode::safe> {
  u64 key;
};
struct based_less {
  bool operator()(const based& a, const based& b) const noexcept { return wrap_before(a.key, b.key); }
};

TEST(RbTreeBaseHook, BaseHookAndRawWrapLessWork) {
  std::vector<based> v(200);
  rb_tree<based, rb_base<based, rb_hook<link_mode::safe>>, based_less> tree;
  for (size_t i = 0; i < v.size(); ++i) {
    v[i].key = ~0ull - 100 + (i * 31) % 200;
    tree.insert(v[i]);
  }
  ASSERT_TRUE(tree.verify());
  u64 expect = ~0ull - 100;
  while (auto* t = tree.pop_front()) EXPECT_EQ(t->key, expect++);
}

struct raw_task {
  u64 deadline;
  rb_hook<> node;
};

TEST(RbTreeBaseHook, MemberWrapLessOrdersRawU64AcrossTheWrap) {
  std::vector<raw_task> v(64);
  rb_tree<raw_task, rb_member<&raw_task::node>, rb_member_wrap_less<&raw_task::deadline>> tree;
  for (size_t i = 0; i < v.size(); ++i) {
    v[i].deadline = (~0ull - 31) + (i * 5) % 64;
    tree.insert(v[i]);
  }
  ASSERT_TRUE(tree.verify());
  u64 expect = ~0ull - 31;
  while (auto* t = tree.pop_front()) EXPECT_EQ(t->deadline, expect++);
}

TEST(RbHook, LayoutAndCopySemantics) {
  static_assert(sizeof(rb_hook<link_mode::safe>) == 3 * sizeof(void*));
  static_assert(sizeof(rb_tree<raw_task, rb_member<&raw_task::node>, rb_member_wrap_less<&raw_task::deadline>>) ==
                3 * sizeof(void*));
  rb_hook<link_mode::safe> h;
  EXPECT_FALSE(h.is_linked());
  h.sc_parent_color = 0;  // pretend linked
  rb_hook<link_mode::safe> copy(h);
  EXPECT_FALSE(copy.is_linked());
  copy = h;
  EXPECT_FALSE(copy.is_linked());
  constexpr rb_hook<> c{};
  static_assert(c.sc_parent_color == rb_unlinked_value);
}

// The descent has two selects (raw wrap keys for rb_member_less over vtime and
// rb_member_wrap_less; a comparator call otherwise), and pop_front() its own unlink
// (erase_leftmost). Each is run against a std::multiset model on a small and a deep tree
// (~70000 tasks, 16+ levels), with many ties and keys about to wrap: churn (pop the minimum,
// advance, reinsert) and wake (erase any, insert near the minimum).
struct big_task {
  u64 raw = 0;   // key for rb_member_wrap_less
  vtime key{};   // the same key for rb_member_less (wrap-key select)
  u32 id = 0;
  rb_hook<> hook;
};
struct big_generic_less {  // a plain comparator: the generic select
  bool operator()(const big_task& a, const big_task& b) const noexcept { return a.key < b.key; }
};
static_assert(detail::rb_has_wrap_key<rb_member_less<&big_task::key>, big_task>);
static_assert(detail::rb_has_wrap_key<rb_member_wrap_less<&big_task::raw>, big_task>);
static_assert(!detail::rb_has_wrap_key<big_generic_less, big_task>);
static_assert(!detail::rb_has_wrap_key<rb_member_less<&big_task::id>, big_task>);

template <class Less>
void big_tree_against_model(std::size_t n, int ops) {
  std::vector<big_task> v(n);
  rb_tree<big_task, rb_member<&big_task::hook>, Less> tree;
  using entry = std::pair<u64, u64>;  // (key - base, insertion sequence): FIFO among ties
  std::multiset<entry> model;
  std::vector<std::multiset<entry>::iterator> where(n);
  const u64 base = ~0ull - (1ull << 20);  // keys cross the 2^64 wrap
  u64 seq = 0;
  rng r{0x5eed0003 + n};
  auto set_key = [&](big_task& t, u64 rel) {
    t.raw = base + rel;
    t.key = vtime{base + rel};
  };
  auto insert = [&](big_task& t) {
    const bool was_first = model.empty() || (t.raw - base) < model.begin()->first;
    const bool became = tree.insert(t);
    where[t.id] = model.emplace(t.raw - base, seq++);
    ASSERT_EQ(became, was_first);
  };
  for (u32 i = 0; i < n; ++i) {
    v[i].id = i;
    set_key(v[i], r.below(1u << 16));  // ~0.6 n distinct keys at n = 70000 (many ties), nearly all distinct at n = 1000
    insert(v[i]);
  }
  ASSERT_TRUE(tree.verify());
  for (int i = 0; i < ops; ++i) {
    if (i & 1) {
      big_task* t = tree.pop_front();
      ASSERT_EQ(t->raw - base, model.begin()->first);
      ASSERT_EQ(where[t->id], model.begin());
      model.erase(model.begin());
      set_key(*t, (t->raw - base) + r.below(1u << 16));
      insert(*t);
    } else {
      big_task& t = v[static_cast<std::size_t>(r.below(n))];
      tree.erase(t);
      model.erase(where[t.id]);
      const u64 lo = model.begin()->first;
      set_key(t, lo + r.below(1u << 10) - (lo >= 512 ? 512 : lo));
      insert(t);
    }
    if (::testing::Test::HasFatalFailure()) return;
    if (i % 40000 == 0) {
      ASSERT_TRUE(tree.verify()) << "after op " << i;
    }
  }
  ASSERT_TRUE(tree.verify());
  for (auto it = model.begin(); it != model.end(); ++it) {
    big_task* t = tree.pop_front();
    ASSERT_NE(t, nullptr);
    ASSERT_EQ(where[t->id], it);
  }
  EXPECT_TRUE(tree.empty());
}

TEST(RbTreeDescent, WrapKeySelectSmallAndLargeTrees) {
  big_tree_against_model<rb_member_less<&big_task::key>>(1000, 100000);
  big_tree_against_model<rb_member_less<&big_task::key>>(70000, 200000);
}

TEST(RbTreeDescent, RawWrapKeySelectSmallAndLargeTrees) {
  big_tree_against_model<rb_member_wrap_less<&big_task::raw>>(1000, 100000);
  big_tree_against_model<rb_member_wrap_less<&big_task::raw>>(70000, 200000);
}

TEST(RbTreeDescent, GenericSelectSmallAndLargeTrees) {
  big_tree_against_model<big_generic_less>(1000, 100000);
  big_tree_against_model<big_generic_less>(70000, 200000);
}

// The node algorithms alone, with a caller-written descent (the kernel use).
TEST(RbAlgorithms, UsableWithoutTheContainer) {
  struct item {
    rb_node n;
    int key;
  };
  using algo = rb_algorithms<>;
  std::vector<item> items(100);
  rb_node* root = nullptr;
  for (int i = 0; i < 100; ++i) {
    items[static_cast<size_t>(i)].key = (i * 37) % 100;
    rb_node* parent = nullptr;
    rb_node** link = &root;
    while (*link) {
      parent = *link;
      const auto* p = reinterpret_cast<const item*>(parent);
      link = &parent->sc_child[items[static_cast<size_t>(i)].key < p->key ? 0 : 1];
    }
    algo::insert(&items[static_cast<size_t>(i)].n, parent, link, root);
  }
  usize count = 0;
  ASSERT_TRUE(algo::verify_shape(root, count));
  EXPECT_EQ(count, 100u);
  int expect = 0;
  for (rb_node* n = algo::first(root); n; n = algo::next(n))
    EXPECT_EQ(reinterpret_cast<item*>(n)->key, expect++);
  for (int i = 0; i < 100; i += 2) algo::erase(&items[static_cast<size_t>(i)].n, root);
  ASSERT_TRUE(algo::verify_shape(root, count));
  EXPECT_EQ(count, 50u);
  EXPECT_EQ(reinterpret_cast<item*>(algo::last(root))->key, 99);
}

// subtree_best's shortcuts (leaf_propagate on insert: compare with the leaf's value, stop at
// the first ancestor it does not beat; propagate_erased on erase and erase_leftmost: stop at
// the first ancestor whose best is not the erased value) against the generic contract path
// (leaf + recomputing propagate), which rb_algorithms takes for callbacks that declare neither:
// the same insert, erase and pop sequence on two copies of the items must store the same best
// in every node, and each must equal its recomputation.
struct aug_item {
  rb_node n;
  u64 key = 0;
  vtime aux{};
  vtime best{};
};
struct to_item {
  using value_type = aug_item;
  static aug_item& value(rb_node* n) { return *reinterpret_cast<aug_item*>(n); }
  static const aug_item& value(const rb_node* n) { return *reinterpret_cast<const aug_item*>(n); }
};
struct min_of_aux {
  using value_type = aug_item;
  using best_type = vtime;
  static vtime value(const aug_item& t) noexcept { return t.aux; }
  static vtime best(const aug_item& t) noexcept { return t.best; }
  static void set_best(aug_item& t, vtime b) noexcept { t.best = b; }
  static bool better(vtime a, vtime b) noexcept { return a < b; }
};
using fast = subtree_best<min_of_aux>::callbacks<rb_node_traits, to_item>;
// The same callbacks without leaf_propagate and propagate_erased: rb_algorithms falls back to
// leaf() + propagate() on insert and to propagate() on erase.
struct generic_callbacks {
  static constexpr bool enabled = true;
  static void propagate(rb_node* n, rb_node* stop) noexcept { fast::propagate(n, stop); }
  static void copy(const rb_node* from, rb_node* to) noexcept { fast::copy(from, to); }
  static void rotate(rb_node* o, rb_node* t) noexcept { fast::rotate(o, t); }
  static void leaf(rb_node* n) noexcept { fast::leaf(n); }
};

TEST(RbAlgorithms, AugmentShortcutsStoreWhatRecomputationWould) {
  using item = aug_item;
  using generic = generic_callbacks;
  static_assert(detail::rb_has_leaf_propagate<fast, rb_node>);
  static_assert(!detail::rb_has_leaf_propagate<generic, rb_node>);
  static_assert(detail::rb_has_propagate_erased<fast, rb_node>);
  static_assert(!detail::rb_has_propagate_erased<generic, rb_node>);
  using algo = rb_algorithms<>;
  constexpr std::size_t n_items = 2000;
  std::vector<item> a(n_items), b(n_items);
  rng r{0x5eed0003};
  for (std::size_t i = 0; i < n_items; ++i) {
    a[i].key = r.below(1u << 16);
    // Small spread with ties, and wrap-adjacent values: leaf values often beat their parents.
    a[i].aux = vtime{~0ull - 500 + r.below(1000)};
    b[i].key = a[i].key;
    b[i].aux = a[i].aux;
  }
  rb_node* root_a = nullptr;
  rb_node* root_b = nullptr;
  auto insert = [](auto callbacks_tag, std::vector<item>& v, std::size_t i, rb_node*& root) {
    using C = decltype(callbacks_tag);
    rb_node* parent = nullptr;
    rb_node** link = &root;
    while (*link) {
      parent = *link;
      link = &parent->sc_child[v[i].key < to_item::value(parent).key ? 0 : 1];
    }
    algo::insert<C>(&v[i].n, parent, link, root);
  };
  auto same_bests = [&](std::size_t upto, std::size_t step) {
    for (std::size_t i = 0; i < upto; i += step) {
      if (a[i].best != b[i].best) return false;
      if (!fast::verify(&a[i].n)) return false;
    }
    return true;
  };
  for (std::size_t i = 0; i < n_items; ++i) {
    insert(fast{}, a, i, root_a);
    insert(generic{}, b, i, root_b);
    ASSERT_EQ(to_item::value(root_a).best, to_item::value(root_b).best) << "after insert " << i;
  }
  ASSERT_TRUE(same_bests(n_items, 1));
  usize count = 0;
  ASSERT_TRUE(algo::verify_shape(root_a, count));
  EXPECT_EQ(count, n_items);
  for (std::size_t i = 0; i < n_items; i += 3) {
    algo::erase<fast>(&a[i].n, root_a);
    algo::erase<generic>(&b[i].n, root_b);
    ASSERT_EQ(to_item::value(root_a).best, to_item::value(root_b).best) << "after erase " << i;
  }
  for (std::size_t i = 0; i < n_items; ++i) {  // the erase walk too (propagate_erased)
    if (i % 3 == 0) continue;                    // erased
    ASSERT_EQ(a[i].best, b[i].best) << i;
    ASSERT_TRUE(fast::verify(&a[i].n)) << i;
  }
  for (std::size_t i = 0; i < n_items / 2; ++i) {  // leftmost pops (erase_leftmost)
    rb_node* fa = algo::first(root_a);
    rb_node* fb = algo::first(root_b);
    ASSERT_EQ(to_item::value(fa).key, to_item::value(fb).key);
    algo::erase_leftmost<fast>(fa, root_a);
    algo::erase_leftmost<generic>(fb, root_b);
    ASSERT_EQ(to_item::value(root_a).best, to_item::value(root_b).best) << "after pop " << i;
    for (rb_node* x = algo::first(root_a); x; x = algo::next(x)) ASSERT_TRUE(fast::verify(x)) << "after pop " << i;
    fa->sc_child[0] = fa->sc_child[1] = nullptr;  // unlinked; re-inserted below
    fb->sc_child[0] = fb->sc_child[1] = nullptr;
  }
  // Back in with fresh values: everything not in the trees (the erased and the popped).
  std::vector<bool> linked(n_items, false);
  for (rb_node* x = algo::first(root_a); x; x = algo::next(x)) linked[static_cast<std::size_t>(&to_item::value(x) - a.data())] = true;
  for (std::size_t i = 0; i < n_items; ++i) {
    if (linked[i]) continue;
    a[i].aux = b[i].aux = vtime{~0ull - 600 + r.below(1200)};
    insert(fast{}, a, i, root_a);
    insert(generic{}, b, i, root_b);
  }
  EXPECT_TRUE(same_bests(n_items, 1));
}

}  // namespace
