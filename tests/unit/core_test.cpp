// Unit tests of core/: bit scans (builtin and portable paths against a naive oracle), wrap-safe
// time, 64-bit arithmetic, fixed point, traits, and the check tiers' handler contract.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>

#include "check_recorder.hpp"
#include "schedcore/schedcore.hpp"

namespace {

using namespace schedcore;
#ifdef __SIZEOF_INT128__
// 128-bit oracles exist only on 64-bit hosts; the 32-bit (-m32) build runs the same library code
// through its portable paths, which these tests verified bit-exactly on the 64-bit build.
__extension__ using u128 = unsigned __int128;
__extension__ using s128 = __int128;
#define SCHEDCORE_TEST_HAVE_INT128 1
#endif

unsigned naive_ctz(u64 x) {
  unsigned n = 0;
  while (!(x & 1)) { x >>= 1; ++n; }
  return n;
}
unsigned naive_clz(u64 x, unsigned bits) {
  unsigned n = 0;
  for (int i = static_cast<int>(bits) - 1; i >= 0 && !((x >> i) & 1); --i) ++n;
  return n;
}
unsigned naive_popcount(u64 x) {
  unsigned n = 0;
  for (; x; x >>= 1) n += static_cast<unsigned>(x & 1);
  return n;
}

TEST(Bitops, EverySingleBitAndRandomWordsAgreeWithNaiveOracle) {
  for (unsigned i = 0; i < 64; ++i) {
    const u64 x = bit64(i);
    EXPECT_EQ(ctz64(x), i);
    EXPECT_EQ(clz64(x), 63 - i);
    EXPECT_EQ(lowest_set_bit(x), i);
    EXPECT_EQ(highest_set_bit(x), i);
    EXPECT_EQ(popcount64(x), 1u);
  }
  std::mt19937_64 rng(42);
  for (int n = 0; n < 100000; ++n) {
    u64 x = rng() >> (rng() % 64);
    if (x == 0) x = 1;
    const u32 lo = static_cast<u32>(x) | 1u << (n % 32);
    ASSERT_EQ(ctz64(x), naive_ctz(x));
    ASSERT_EQ(clz64(x), naive_clz(x, 64));
    ASSERT_EQ(popcount64(x), naive_popcount(x));
    ASSERT_EQ(ctz32(lo), naive_ctz(lo));
    ASSERT_EQ(clz32(lo), naive_clz(lo, 32));
    // The portable fallbacks (Cortex-M0 path) must agree with the builtins.
    ASSERT_EQ(detail::portable_ctz32(lo), naive_ctz(lo));
    ASSERT_EQ(detail::portable_clz32(lo), naive_clz(lo, 32));
    ASSERT_EQ(detail::portable_popcount32(lo), naive_popcount(lo));
  }
}

TEST(Bitops, AreConstexpr) {
  static_assert(ctz64(0x8000000000000000ull) == 63);
  static_assert(clz32(1) == 31);
  static_assert(popcount64(~0ull) == 64);
  static_assert(ilog2(1024) == 10);
  static_assert(detail::portable_ctz32(0x80000000u) == 31);
}

TEST(Bitops, ZeroIsAPreconditionViolationReportedByTheCheapTier) {
  schedcore_test::check_scope scope;
  volatile u64 zero = 0;
  (void)ctz64(zero);
  const auto checks = scope.take();
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].kind, check_kind::assertion);
  EXPECT_NE(checks[0].expr.find("x != 0"), std::string::npos);
  EXPECT_NE(checks[0].file.find("bitops.hpp"), std::string::npos);
  EXPECT_GT(checks[0].line, 0);
}

TEST(Time, OrdersAcrossTheWrap) {
  const sched_time before_wrap{std::numeric_limits<u64>::max() - 10};
  const sched_time after_wrap = before_wrap + nsec(20);
  EXPECT_EQ(after_wrap.ns(), 9u);
  EXPECT_TRUE(before_wrap < after_wrap);
  EXPECT_TRUE(after_wrap > before_wrap);
  EXPECT_EQ(after_wrap - before_wrap, 20);
  EXPECT_EQ(before_wrap - after_wrap, -20);
  EXPECT_EQ(earlier_of(before_wrap, after_wrap), before_wrap);
  EXPECT_EQ(later_of(before_wrap, after_wrap), after_wrap);
  EXPECT_TRUE(wrap_before(~0ull, 0));
  // Strict on both sides: a time is neither before nor after itself, across the wrap too.
  EXPECT_FALSE(wrap_before(7, 7));
  EXPECT_FALSE(wrap_after(7, 7));
  EXPECT_FALSE(wrap_before(~0ull, ~0ull));
  EXPECT_FALSE(wrap_after(0, 0));
  EXPECT_TRUE(wrap_after(0, ~0ull));
  EXPECT_FALSE(before_wrap < before_wrap);
  EXPECT_FALSE(before_wrap > before_wrap);
  EXPECT_TRUE(before_wrap <= before_wrap);
  EXPECT_TRUE(before_wrap >= before_wrap);
  EXPECT_FALSE(before_wrap != before_wrap);
  EXPECT_TRUE(before_wrap != after_wrap);
  EXPECT_FALSE(before_wrap == after_wrap);
}

TEST(Time, SameDecisionsWhateverTheOrigin) {
  // Comparing offsets from origin 0 and from just below 2^64 must agree (20 000 random pairs).
  std::mt19937_64 rng(7);
  const u64 origins[] = {0, ~0ull - msec(5), 1ull << 63, (1ull << 63) - 1};
  for (int n = 0; n < 20000; ++n) {
    const s64 a = static_cast<s64>(rng() % (1ull << 40));
    const s64 b = static_cast<s64>(rng() % (1ull << 40));
    for (u64 origin : origins) {
      const sched_time ta = sched_time{origin} + a, tb = sched_time{origin} + b;
      ASSERT_EQ(ta < tb, a < b);
      ASSERT_EQ(ta - tb, a - b);
    }
  }
}

TEST(Time, UnitsAndDistinctClocks) {
  static_assert(usec(1) == 1000 && msec(1) == 1000000 && sec(1) == 1000000000);
  static_assert(!std::is_convertible_v<sched_time, vtime>, "wall and virtual clocks must not mix");
  static_assert(sizeof(sched_time) == 8 && sizeof(vtime) == 8);
}

#ifdef SCHEDCORE_TEST_HAVE_INT128
TEST(Arith, MulShiftMatches128BitOracle) {
  std::mt19937_64 rng(3);
  for (int n = 0; n < 200000; ++n) {
    const u64 a = rng();
    const u32 m = static_cast<u32>(rng());
    const unsigned shift = static_cast<unsigned>(rng() % 64);
    const u128 wide = static_cast<u128>(a) * m;
    ASSERT_EQ(mul_u64_u32_shr(a, m, shift), static_cast<u64>(wide >> shift)) << a << " " << m << " " << shift;
  }
}
#endif

#ifdef SCHEDCORE_TEST_HAVE_INT128
TEST(Arith, MulDivIsExactWhenResultFits) {
  std::mt19937_64 rng(4);
  for (int n = 0; n < 200000; ++n) {
    const u64 a = rng() >> (rng() % 40);
    const u32 b = static_cast<u32>(rng());
    const u64 c = (rng() >> (rng() % 63)) | 1;
    const u128 exact = static_cast<u128>(a) * b / c;
    if (exact > std::numeric_limits<u64>::max()) continue;
    const u64 got = mul_div_u64(a, b, c);
    ASSERT_EQ(got, static_cast<u64>(exact)) << a << "*" << b << "/" << c;
  }
}
#endif

// The long division of a product past 2^64 must subtract when its running remainder equals the
// divisor exactly, which random operands almost never hit: (2^39 + 1) x 2^31 = (2^40 + 2) x 2^30,
// so the product divided by 2^40 + 2 is exactly 2^30 (a division that subtracted only above the
// divisor would give 2^30 - 1); one less in the product gives 2^30 - 1. Also on 32-bit targets.
TEST(Arith, LongDivisionSubtractsWhenTheRemainderEqualsTheDivisor) {
  const u64 r = (u64{1} << 39) + 1, c = (u64{1} << 40) + 2;
  const u32 b = u32{1} << 31;
  EXPECT_EQ(mul_div_small(r, b, c), u64{1} << 30);
  EXPECT_EQ(mul_div_u64(r, b, c), u64{1} << 30);
  EXPECT_EQ(mul_div_small(r, b - 1, c), (u64{1} << 30) - 1);  // (2^70 - 2^39 + 2^31 - 1) / c
}

#ifdef SCHEDCORE_TEST_HAVE_INT128
// The 64-bit-factor variant (edf's 0-lag time with periods past 2^32 ns): exact against a
// 128-bit reference whenever the result fits, including products far past 2^64.
TEST(Arith, MulDivWithA64BitFactorIsExactWhenResultFits) {
  std::mt19937_64 rng(5);
  int wide_products = 0;
  for (int n = 0; n < 200000; ++n) {
    const u64 a = rng() >> (rng() % 64);
    const u64 b = rng() >> (rng() % 64);
    const u64 c = (rng() >> (rng() % 64)) | 1;
    const u128 exact = static_cast<u128>(a) * b / c;
    if (exact > std::numeric_limits<u64>::max()) continue;
    if ((static_cast<u128>(a % c) * b) >> 64 != 0) ++wide_products;
    ASSERT_EQ(mul_div_u64_u64(a, b, c), static_cast<u64>(exact)) << a << "*" << b << "/" << c;
  }
  EXPECT_GT(wide_products, 1000) << "the long-division path was exercised";
}
#endif

// Also on 32-bit targets: the 0-lag figures of EdfGrub's long-period test, and the equal
// remainder case of the long division (as for mul_div_small above).
TEST(Arith, MulDivWithA64BitFactorKnownValues) {
  EXPECT_EQ(mul_div_u64_u64(4500000000u, 10000000000u, 5000000000u), 9000000000u);
  EXPECT_EQ(mul_div_u64_u64(499500000000u, 1000000000000u, 500000000000u), 999000000000u);
  const u64 r = (u64{1} << 39) + 1, c = (u64{1} << 40) + 2;
  EXPECT_EQ(mul_div_small_u64(r, u64{1} << 31, c), u64{1} << 30);
  EXPECT_EQ(mul_div_small_u64(u64{1} << 63, u64{1} << 63, (u64{1} << 63) + 1), (u64{1} << 63) - 1);
}

TEST(Fixed, KernelWeightsAndRounding) {
  using w10 = fixed<s64, 10>;
  static_assert(w10::one_raw == 1024);
  // NICE_0_LOAD scaled: 1024 << 10.
  EXPECT_EQ(w10::from_int(1024).raw(), 1024 << 10);
  // 1024 / 820 (nice 0 vs nice 1) in 10-bit fixed point.
  const w10 r = w10::ratio(1024, 820);
  EXPECT_EQ(r.raw(), 1024 * 1024 / 820);
  EXPECT_EQ((w10::from_int(3) * w10::ratio(1, 2)).raw(), w10::ratio(3, 2).raw());
  EXPECT_EQ(w10::ratio(3, 2).round(), 2);
  EXPECT_EQ(w10::ratio(-3, 2).round(), -2);
  EXPECT_EQ(w10::ratio(-3, 2).floor(), -2);
  EXPECT_EQ(w10::ratio(5, 4).floor(), 1);
  EXPECT_TRUE(w10::ratio(1, 3) < w10::ratio(1, 2));
  EXPECT_EQ((w10::from_int(10) / w10::from_int(4)).raw(), w10::ratio(5, 2).raw());
}

// round() and ratio() have no intermediate that overflows: the extremes of the raw range
// round (INT32_MAX at 16 fraction bits is 32767.99998: 32768; INT32_MIN is exactly -32768;
// halves go away from zero on both sides), and ratio forms num * 2^F in two words (2^44 / 2^44
// at BW_SHIFT 20 is exactly 1.0; before, num * 2^20 overflowed s64 from num = 2^43).
TEST(Fixed, RoundAndRatioNeverOverflowInside) {
  using q16 = fixed<s32, 16>;
  EXPECT_EQ(q16::from_raw(std::numeric_limits<s32>::max()).round(), 32768);
  EXPECT_EQ(q16::from_raw(std::numeric_limits<s32>::min()).round(), -32768);
  EXPECT_EQ(q16::from_raw(std::numeric_limits<s32>::min() + 1).round(), -32768);
  EXPECT_EQ(q16::ratio(5, 2).round(), 3);
  EXPECT_EQ(q16::ratio(-5, 2).round(), -3);
  EXPECT_EQ(q16::from_raw(-(1 << 15) + 1).round(), 0);  // -0.49998
  EXPECT_EQ(q16::from_raw(-(1 << 15) - 1).round(), -1);  // -0.50002
  using w10 = fixed<s64, 10>;
  EXPECT_EQ(w10::from_raw(std::numeric_limits<s64>::max()).round(), (std::numeric_limits<s64>::max() >> 10) + 1);
  EXPECT_EQ(w10::from_raw(std::numeric_limits<s64>::min()).round(), std::numeric_limits<s64>::min() >> 10);
  using bw = fixed<s64, 20>;
  EXPECT_EQ(bw::ratio(s64{1} << 44, s64{1} << 44).raw(), s64{1} << 20);
  EXPECT_EQ(bw::ratio(3 * (s64{1} << 50), s64{1} << 51).raw(), 3 * (s64{1} << 19));  // 1.5
  EXPECT_EQ(bw::ratio(-(s64{1} << 50), s64{1} << 52).raw(), -(s64{1} << 18));       // -0.25
  EXPECT_EQ(bw::ratio(1, -3).raw(), -(s64{1} << 20) / 3);                               // toward zero
  EXPECT_EQ(bw::ratio(std::numeric_limits<s64>::min(), std::numeric_limits<s64>::min()).raw(), s64{1} << 20);
  EXPECT_EQ(q16::ratio(std::numeric_limits<s32>::max(), 1 << 16).raw(), std::numeric_limits<s32>::max());
}

// The operators follow the raw values exactly (each expected raw value worked out by hand):
// sums and differences, in place too; negation; products and quotients by an integer
// (truncated toward zero); every comparison at equality and in both orders; for the 64-bit
// weight type and a 32-bit one.
template <class F>
void check_fixed_operators() {
  using raw = typename F::raw_type;
  const F a = F::ratio(3, 2), b = F::ratio(1, 4), one = F::from_int(1);
  const raw one_raw = F::one_raw;
  EXPECT_EQ((a + b).raw(), static_cast<raw>(one_raw * 3 / 2 + one_raw / 4));
  EXPECT_EQ((a - b).raw(), static_cast<raw>(one_raw * 3 / 2 - one_raw / 4));
  EXPECT_EQ((b - a).raw(), static_cast<raw>(one_raw / 4 - one_raw * 3 / 2));
  EXPECT_EQ((-a).raw(), static_cast<raw>(-(one_raw * 3 / 2)));
  F c = a;
  c += b;
  EXPECT_EQ(c.raw(), (a + b).raw());
  c -= one;
  EXPECT_EQ(c.raw(), static_cast<raw>(one_raw / 2 + one_raw / 4));
  EXPECT_EQ((a * static_cast<raw>(4)).raw(), static_cast<raw>(one_raw * 6));
  EXPECT_EQ((F::from_raw(-7) / static_cast<raw>(2)).raw(), -3);  // toward zero, not -4
  EXPECT_EQ(F::ratio(1, 2).round(), 1);
  EXPECT_EQ(F::ratio(-1, 2).round(), -1);
  EXPECT_EQ(F::ratio(1, 4).round(), 0);
  EXPECT_EQ(F::ratio(-1, 4).round(), 0);
  // Comparisons: a > b, and each operator at equality.
  EXPECT_TRUE(a == F::ratio(3, 2));
  EXPECT_FALSE(a == b);
  EXPECT_FALSE(a != F::ratio(3, 2));
  EXPECT_TRUE(a != b);
  EXPECT_TRUE(b < a);
  EXPECT_FALSE(a < b);
  EXPECT_FALSE(a < a);
  EXPECT_TRUE(a > b);
  EXPECT_FALSE(b > a);
  EXPECT_FALSE(a > a);
  EXPECT_TRUE(b <= a);
  EXPECT_TRUE(a <= a);
  EXPECT_FALSE(a <= b);
  EXPECT_TRUE(a >= b);
  EXPECT_TRUE(a >= a);
  EXPECT_FALSE(b >= a);
  EXPECT_TRUE(-a < b);
}

TEST(Fixed, OperatorsFollowTheRawValues) {
  // The portable wide multiply negates a 128-bit product whose low word is 0 (a carry into the
  // high word, which random operands almost never reach): -2^32 x 2^32 = -2^64, >> 32 = -2^32,
  // >> 0 keeps the low word, 0; and 2^32 x -2^33 = -2^65, >> 40 = -2^25.
  EXPECT_EQ(detail::mul_shift_s64_portable(-(s64{1} << 32), s64{1} << 32, 32), -(s64{1} << 32));
  EXPECT_EQ(detail::mul_shift_s64_portable(-(s64{1} << 32), s64{1} << 32, 0), 0);
  EXPECT_EQ(detail::mul_shift_s64_portable(s64{1} << 32, -(s64{1} << 33), 40), -(s64{1} << 25));
  check_fixed_operators<fixed<s64, 10>>();
  check_fixed_operators<fixed<s64, 20>>();
  check_fixed_operators<fixed<s32, 16>>();
}

#ifdef SCHEDCORE_TEST_HAVE_INT128
TEST(Fixed, PortableWideMultiplyMatchesInt128) {
  std::mt19937_64 rng(5);
  for (int n = 0; n < 200000; ++n) {
    const s64 a = static_cast<s64>(rng()) >> (rng() % 40);
    const s64 b = static_cast<s64>(rng()) >> (rng() % 40);
    const unsigned shift = static_cast<unsigned>(rng() % 40);
    const s128 wide = static_cast<s128>(a) * b;
    const s128 expect = wide >> shift;
    if (expect > std::numeric_limits<s64>::max() || expect < std::numeric_limits<s64>::min()) continue;
    ASSERT_EQ(detail::mul_shift_s64(a, b, shift), static_cast<s64>(expect));
    ASSERT_EQ(detail::mul_shift_s64_portable(a, b, shift), static_cast<s64>(expect)) << a << "*" << b << ">>" << shift;
  }
}
#endif

TEST(Traits, MatchStd) {
  static_assert(is_same_v<remove_cvref_t<const int&>, int>);
  static_assert(is_integral_v<u64> && is_integral_v<bool> && !is_integral_v<float>);
  static_assert(is_signed_v<s32> && !is_signed_v<u32>);
  static_assert(int_limits<s64>::max() == std::numeric_limits<s64>::max());
  static_assert(int_limits<s64>::min() == std::numeric_limits<s64>::min());
  static_assert(int_limits<u32>::max() == std::numeric_limits<u32>::max());
  static_assert(int_limits<s8>::min() == -128);
  static_assert(std::is_same_v<u64, std::uint64_t> && std::is_same_v<s64, std::int64_t>);
  static_assert(std::is_same_v<usize, std::size_t>);
  int a = 1, b = 2;
  schedcore::swap(a, b);
  EXPECT_EQ(a * 10 + b, 21);
  EXPECT_EQ(clamp_to(5, 1, 3), 3);
  EXPECT_EQ(min_of(4, 2), 2);
  EXPECT_EQ(max_of(4, 2), 4);
}

TEST(Checks, HandlerReceivesKindFileLineAndExpression) {
  schedcore_test::check_scope scope;
  const int line = __LINE__ + 1;
  SCHEDCORE_ASSERT(1 + 1 == 3);
  const bool warned = SCHEDCORE_WARN_ON(2 > 1);
  const bool refused = SCHEDCORE_MISUSE(true);
  EXPECT_FALSE(SCHEDCORE_WARN_ON(false));  // a false condition reports nothing
  EXPECT_TRUE(warned);
  EXPECT_TRUE(refused);
  const auto checks = scope.take();
  ASSERT_EQ(checks.size(), 3u);
  EXPECT_EQ(checks[0].kind, check_kind::assertion);
  EXPECT_EQ(checks[0].expr, "1 + 1 == 3");
  EXPECT_EQ(checks[0].line, line);
  EXPECT_NE(checks[0].file.find("core_test.cpp"), std::string::npos);
  EXPECT_EQ(checks[1].kind, check_kind::warning);
  EXPECT_EQ(checks[1].expr, "2 > 1");
  EXPECT_EQ(checks[2].kind, check_kind::misuse);
}

TEST(Checks, InvariantTierIsOptIn) {
  static_assert(SCHEDCORE_ENABLE_INVARIANTS == 0);
  int evaluated = 0;
  SCHEDCORE_INVARIANT((++evaluated, false));
  EXPECT_EQ(evaluated, 0);
}

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

TEST(Bitops, AZeroWordScansToTheWordWidthWhenChecksAreOn) {
  // The header's promise with SCHEDCORE_ENABLE_ASSERTS: a zero word is reported and the scan
  // answers the word width (what a naive loop over the bits counts: every bit is zero), not
  // whatever the builtin's undefined behaviour gives.
  schedcore_test::check_scope scope;
  volatile u32 zero32 = 0;
  volatile u64 zero64 = 0;
  EXPECT_EQ(ctz32(zero32), 32u);
  EXPECT_EQ(clz32(zero32), 32u);
  EXPECT_EQ(ctz64(zero64), 64u);
  EXPECT_EQ(clz64(zero64), 64u);
  EXPECT_EQ(naive_clz(0, 64), 64u);
  EXPECT_EQ(scope.take().size(), 4u);
}

TEST(Arith, LongDivisionKeepsTheDividendsLastBit) {
  // An odd 88-bit product that the divisor divides exactly, so the quotient depends on the
  // dividend's lowest bit: with t = 2^40 + 1 and 2^32 - 1 = 65537 x 65535,
  // (65535 t) x (2^32 - 1) / (65537 t) = 65535 x 65535 = 4 294 836 225 exactly; one less in
  // the product gives one less. Also on 32-bit targets.
  const u64 t = (u64{1} << 40) + 1;
  const u64 r = 65535 * t, c = 65537 * t;
  EXPECT_EQ(mul_div_small(r, 0xFFFFFFFFu, c), 4294836225u);
  EXPECT_EQ(mul_div_u64(r, 0xFFFFFFFFu, c), 4294836225u);
  EXPECT_EQ(mul_div_small_u64(r, 0xFFFFFFFFu, c), 4294836225u);
  EXPECT_EQ(mul_div_small(r - 1, 0xFFFFFFFFu, c), 4294836224u);  // short by 2^32 - 1 < c
}

TEST(Fixed, WithoutFractionBitsRoundIsTheValueItself) {
  // fixed<Int, 0> is a plain integer: rounding to the nearest integer changes nothing (there is
  // no fraction to reach a half), on both sides of zero.
  using whole = fixed<s32, 0>;
  EXPECT_EQ(whole::from_int(5).round(), 5);
  EXPECT_EQ(whole::from_int(0).round(), 0);
  EXPECT_EQ(whole::from_int(-5).round(), -5);
  using whole64 = fixed<s64, 0>;
  EXPECT_EQ(whole64::from_int(1024).round(), 1024);
}

TEST(Time, NotAfterAndNotBeforeAreWrapSafeToo) {
  // <= is !time_after and >= is !time_before (the kernel's (s64)(a - b) sign), so they order
  // points across the 64-bit wrap like < and >, and flip at a distance of 2^63.
  const sched_time before_wrap{std::numeric_limits<u64>::max() - 10};
  const sched_time after_wrap{9};  // 20 ns later
  EXPECT_TRUE(before_wrap <= after_wrap);
  EXPECT_FALSE(after_wrap <= before_wrap);
  EXPECT_TRUE(after_wrap >= before_wrap);
  EXPECT_FALSE(before_wrap >= after_wrap);
  const sched_time zero{0}, near_half{(u64{1} << 63) - 1}, past_half{(u64{1} << 63) + 1};
  EXPECT_TRUE(zero <= near_half);   // 0 - (2^63 - 1) < 0: before
  EXPECT_FALSE(zero <= past_half);  // 0 - (2^63 + 1) = 2^63 - 1 > 0: after
  EXPECT_TRUE(past_half <= zero);
  EXPECT_TRUE(zero >= past_half);
  EXPECT_FALSE(zero >= near_half);
}

TEST(Arith, DivS64RoundsTowardZeroAsTheKernels) {
  // The kernel's div_s64 is C's signed division: the quotient is truncated toward zero, so a
  // negative lag or vruntime delta divided by a weight loses its fraction toward 0, never
  // toward minus infinity (the oracle: n = q * d + r with |r| < |d| and r of n's sign).
  for (const s64 n : {s64{7}, s64{-7}, s64{-1}, s64{1}, s64{-1024}, s64{-1025}, s64{0}}) {
    for (const s64 d : {s64{2}, s64{-2}, s64{1024}, s64{3}}) {
      const s64 q = div_s64(n, d);
      const s64 r = n - q * d;
      EXPECT_LT(r < 0 ? -r : r, d < 0 ? -d : d) << n << " / " << d;
      EXPECT_TRUE(r == 0 || (r < 0) == (n < 0)) << n << " / " << d << ": remainder takes the dividend's sign";
    }
  }
  EXPECT_EQ(div_s64(-7, 2), -3);
  EXPECT_EQ(div_s64(-1, 1024), 0);
  EXPECT_EQ(div_s64(7, -2), -3);
}

TEST(Time, MovingBackIsTheInverseOfAdvancingAcrossTheWrap) {
  // t -= d is t + (-d) mod 2^64: back across zero it wraps to the top of the counter, and
  // adding d again returns to t.
  sched_time t{5};
  t -= 10;
  EXPECT_EQ(t.ns(), std::numeric_limits<u64>::max() - 4);
  t += 10;
  EXPECT_EQ(t.ns(), 5u);
  sched_time u{100};
  u -= -20;  // a negative distance moves it forward
  EXPECT_EQ(u.ns(), 120u);
  EXPECT_EQ((sched_time{50} - duration_ns{50}).ns(), 0u);
}

}  // namespace
