// Unit tests of bitmap/prio_bitmap.hpp: typed over N at every word boundary (1, 31, 32, 33, 63,
// 64, 65, 140, 4095, 4096) in both directions, and N = 40 (a u64 word not full). Edges, out-of-range misuse refused without state
// change, find_first on empty reported, clear_first_unchecked agrees with clear + find_first,
// and a fixed-seed differential test against std::set
// (>= 10^6 random set/clear/test/find_first/find_next per instance; verify() after every op for
// the first 50000, then every 64 ops).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <string>

#include "check_recorder.hpp"
#include "test_steps.hpp"
#include "schedcore/bitmap/prio_bitmap.hpp"

namespace {

using namespace schedcore;

template <unsigned N, prio_order O>
struct cfg {
  static constexpr unsigned n = N;
  static constexpr prio_order order = O;
  using bitmap = prio_bitmap<N, O>;
  static std::string name() {
    return "N" + std::to_string(N) + (O == prio_order::lower_first ? "_lower_first" : "_higher_first");
  }
};
struct names {
  template <class C>
  static std::string GetName(int) { return C::name(); }
};

using configs = ::testing::Types<
    cfg<1, prio_order::lower_first>, cfg<1, prio_order::higher_first>,
    cfg<31, prio_order::lower_first>, cfg<31, prio_order::higher_first>,
    cfg<32, prio_order::lower_first>, cfg<32, prio_order::higher_first>,
    cfg<33, prio_order::lower_first>, cfg<33, prio_order::higher_first>, cfg<40, prio_order::lower_first>,
    cfg<63, prio_order::lower_first>, cfg<63, prio_order::higher_first>,
    cfg<64, prio_order::lower_first>, cfg<64, prio_order::higher_first>,
    cfg<65, prio_order::lower_first>, cfg<65, prio_order::higher_first>,
    cfg<140, prio_order::lower_first>, cfg<140, prio_order::higher_first>,
    cfg<4095, prio_order::lower_first>, cfg<4095, prio_order::higher_first>,
    cfg<4096, prio_order::lower_first>, cfg<4096, prio_order::higher_first>>;

template <class C>
class PrioBitmapTest : public ::testing::Test {};
TYPED_TEST_SUITE(PrioBitmapTest, configs, names);

// Model: urgency key so that std::set's begin() is the most urgent priority.
template <prio_order O>
unsigned most_urgent(const std::set<unsigned>& s) {
  return O == prio_order::lower_first ? *s.begin() : *s.rbegin();
}
template <prio_order O>
unsigned next_after(const std::set<unsigned>& s, unsigned p) {
  if constexpr (O == prio_order::lower_first) {
    auto it = s.upper_bound(p);
    return it == s.end() ? ~0u : *it;
  } else {
    auto it = s.lower_bound(p);
    return it == s.begin() ? ~0u : *--it;
  }
}

TYPED_TEST(PrioBitmapTest, EmptyAndConstexpr) {
  using B = typename TypeParam::bitmap;
  constexpr B cb{};
  static_assert(cb.empty());
  static_assert(B::two_level == (TypeParam::n > 64));
  B b;
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.count(), 0u);
  EXPECT_TRUE(b.verify());
  EXPECT_TRUE(b.valid_bitmapQ());
  EXPECT_TRUE(b.no_L1_orphans());
  for (unsigned p = 0; p < TypeParam::n; p += 7) EXPECT_FALSE(b.test(p));
}

TYPED_TEST(PrioBitmapTest, EveryPriorityAloneAndBothEnds) {
  using B = typename TypeParam::bitmap;
  constexpr unsigned n = TypeParam::n;
  B b;
  for (unsigned p = 0; p < n; ++p) {
    b.set(p);
    ASSERT_TRUE(b.test(p));
    ASSERT_FALSE(b.empty());
    ASSERT_EQ(b.find_first(), p);
    ASSERT_EQ(b.find_next(p), B::npos);
    ASSERT_TRUE(b.verify());
    b.clear(p);
    ASSERT_TRUE(b.empty());
    ASSERT_TRUE(b.verify());
  }
  b.set(0);
  b.set(n - 1);
  const unsigned first = TypeParam::order == prio_order::lower_first ? 0 : n - 1;
  const unsigned last = n - 1 - first;
  EXPECT_EQ(b.find_first(), first);
  EXPECT_EQ(b.find_next(first), n == 1 ? B::npos : last);
  EXPECT_EQ(b.count(), n == 1 ? 1u : 2u);
  b.reset();
  EXPECT_TRUE(b.empty());
  EXPECT_TRUE(b.verify());
}

TYPED_TEST(PrioBitmapTest, OutOfRangeIsRefusedWithoutStateChange) {
  using B = typename TypeParam::bitmap;
  constexpr unsigned n = TypeParam::n;
  B b;
  b.set(n / 2);
  const B before = b;
  schedcore_test::check_scope scope;
  b.set(n);
  b.clear(n / 2 + n);
  EXPECT_FALSE(b.test(n));
  EXPECT_EQ(b.find_next(n + 5), B::npos);
  b.set(~0u);
  const auto checks = scope.take();
  ASSERT_EQ(checks.size(), 5u);
  for (const auto& c : checks) EXPECT_EQ(c.kind, check_kind::misuse);
  for (unsigned p = 0; p < n; ++p) ASSERT_EQ(b.test(p), before.test(p));
  EXPECT_EQ(b.find_first(), n / 2);
  EXPECT_TRUE(b.verify());
}

TYPED_TEST(PrioBitmapTest, FindFirstOnEmptyIsReported) {
  using B = typename TypeParam::bitmap;
  B b;
  schedcore_test::check_scope scope;
  EXPECT_EQ(b.find_first(), B::npos);
  const auto checks = scope.take();
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].kind, check_kind::assertion);
  EXPECT_NE(checks[0].expr.find("empty"), std::string::npos);
}

// clear_first_unchecked (the queues' cached-best maintenance): clearing the most urgent mark
// answers exactly what clear + find_first would, whether the next mark is in the same word, in
// a later word (L1 scan) or absent (npos). Random sets, drained in urgency order.
TYPED_TEST(PrioBitmapTest, ClearFirstAnswersTheNextMostUrgent) {
  using B = typename TypeParam::bitmap;
  std::mt19937_64 rng(77);
  for (int round = 0; round < 200; ++round) {
    B b;
    std::set<unsigned> model;
    // Dense rounds exercise the same-word path, sparse ones the L1 path.
    const unsigned marks = 1 + static_cast<unsigned>(rng() % (round % 2 ? 4u : TypeParam::n));
    for (unsigned k = 0; k < marks; ++k) {
      const auto p = static_cast<unsigned>(rng() % TypeParam::n);
      b.set(p);
      model.insert(p);
    }
    unsigned first = b.find_first();
    while (!model.empty()) {
      ASSERT_EQ(first, most_urgent<TypeParam::order>(model));
      model.erase(first);
      first = b.clear_first_unchecked(first);
      ASSERT_TRUE(b.verify());
      ASSERT_EQ(first, model.empty() ? B::npos : most_urgent<TypeParam::order>(model));
    }
    EXPECT_TRUE(b.empty());
  }
}

TYPED_TEST(PrioBitmapTest, DifferentialVsStdSetMillionOps) {
  using B = typename TypeParam::bitmap;
  constexpr unsigned n = TypeParam::n;
  constexpr prio_order O = TypeParam::order;
  B b;
  std::set<unsigned> model;
  std::mt19937_64 rng(0x5eed0000 + n * 2 + (O == prio_order::higher_first));
  // Bias toward word boundaries and ends half of the time.
  auto pick_prio = [&]() -> unsigned {
    if (rng() & 1) return static_cast<unsigned>(rng() % n);
    const unsigned base = static_cast<unsigned>(rng() % ((n + 63) / 64)) * 64;
    const unsigned off = static_cast<unsigned>(rng() % 3);
    const unsigned p = (rng() & 1) ? base + off : base + 63 - off;
    return p < n ? p : n - 1 - off % n;
  };
  for (long op = 0; op < schedcore_test::run_steps(1000000L); ++op) {
    const unsigned p = pick_prio();
    switch (rng() % 5) {
      case 0:
      case 1:
        b.set(p);
        model.insert(p);
        break;
      case 2:
        b.clear(p);
        model.erase(p);
        break;
      case 3:
        ASSERT_EQ(b.test(p), model.count(p) != 0);
        ASSERT_EQ(b.find_next(p), next_after<O>(model, p)) << "op " << op << " p " << p;
        break;
      case 4:
        if (model.empty()) {
          ASSERT_TRUE(b.empty());
        } else {
          ASSERT_EQ(b.find_first(), most_urgent<O>(model)) << "op " << op;
          if (rng() % 4 == 0) {  // pop the most urgent, like a run queue
            b.clear(b.find_first());
            model.erase(most_urgent<O>(model));
          }
        }
        break;
    }
    ASSERT_EQ(b.empty(), model.empty());
    if (op < 50000 || op % 64 == 0) {  // every op on the first 50000, then periodically
      ASSERT_TRUE(b.verify()) << "op " << op;
    }
  }
  ASSERT_EQ(b.count(), model.size());
  // Iteration in urgency order visits exactly the model.
  std::set<unsigned> seen;
  unsigned prev = B::npos;
  for (unsigned q = b.empty() ? B::npos : b.find_first(); q != B::npos; q = b.find_next(q)) {
    if (prev != B::npos) {
      ASSERT_TRUE(O == prio_order::lower_first ? q > prev : q < prev);
    }
    seen.insert(q);
    prev = q;
  }
  EXPECT_EQ(seen, model);
}

// verify() is the invariant check the run queues run under SCHEDCORE_INVARIANT (seL4's
// valid_bitmapQ and no_L1_orphans): a two-level bitmap whose summary word disagrees with its
// leaf words either way must fail it. The object is trivially copyable, so its representation
// is copied out, corrupted and copied back (the layout: L1 word, then the L2 words, as
// StorageSizes pins).
TEST(PrioBitmap, VerifyRejectsASummaryThatDisagreesWithItsWords) {
  using B = prio_bitmap<140>;
  static_assert(sizeof(B) == 4 * sizeof(std::uint64_t));
  B b;
  b.set(100);  // L2 word 1, bit 36; L1 bit 1
  ASSERT_TRUE(b.verify());
  std::uint64_t words[4];
  std::memcpy(words, &b, sizeof b);
  ASSERT_EQ(words[0], 2u);
  ASSERT_EQ(words[2], std::uint64_t{1} << 36);
  const auto with_l1 = [&](std::uint64_t l1) {
    B c;
    std::uint64_t w[4];
    std::memcpy(w, words, sizeof w);
    w[0] = l1;
    std::memcpy(&c, w, sizeof c);
    return c;
  };
  EXPECT_FALSE(with_l1(0).valid_bitmapQ());   // a non-empty word its summary bit does not show
  EXPECT_FALSE(with_l1(0).verify());
  EXPECT_FALSE(with_l1(3).no_L1_orphans());   // a summary bit over an empty word
  EXPECT_FALSE(with_l1(3).verify());
  EXPECT_FALSE(with_l1(2 | 8).verify());      // a summary bit past the last word
  EXPECT_TRUE(with_l1(2).verify());
}

TEST(PrioBitmap, StorageSizes) {
  static_assert(sizeof(prio_bitmap<32>) == 4);
  static_assert(sizeof(prio_bitmap<64>) == 8);
  static_assert(sizeof(prio_bitmap<140>) == 8 + 3 * 8);
  static_assert(sizeof(prio_bitmap<4096>) == 8 + 64 * 8);
}

}  // namespace
