/// @file
/// @brief 64-bit multiply-shift and divide helpers that stay correct and cheap on 32-bit CPUs.
///
/// Schedulers scale nanosecond deltas by weights: `delta * weight / total`. The product of a
/// 64-bit delta and a 32-bit factor needs 96 bits; these helpers compute it exactly without
/// `__int128` (which 32-bit targets lack) by splitting the 64-bit operand into halves, as the
/// kernel's `mul_u64_u32_shr` does. 64-bit division calls libgcc (`__udivdi3`,
/// `__aeabi_uldivmod`) on 32-bit targets; that is expected and allowed.
#ifndef SCHEDCORE_CORE_ARITH_HPP
#define SCHEDCORE_CORE_ARITH_HPP

#include "schedcore/core/assert.hpp"
#include "schedcore/core/types.hpp"

namespace schedcore {

/// `(a * mul) >> shift`, computed with a 96-bit intermediate. Result truncated to 64 bits.
/// @pre shift < 64. Complexity: two 32x32->64 multiplies.
constexpr u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned shift) noexcept {
  const u64 lo = static_cast<u64>(static_cast<u32>(a)) * mul;  // bits 0..63
  const u64 hi = (a >> 32) * mul;                              // bits 32..95
  if (shift == 0) return lo + (hi << 32);
  // (hi << 32 + lo) >> shift, without losing hi's upper bits.
  if (shift <= 32) return (lo >> shift) + (hi << (32 - shift));
  return (hi + (lo >> 32)) >> (shift - 32);
}

/// @cond INTERNAL
namespace detail {
/// `(hi * 2^64 + lo) / c` by restoring long division (64 steps). @pre hi < c, so the quotient
/// fits in 64 bits.
constexpr u64 div_wide(u64 hi, u64 lo, u64 c) noexcept {
  u64 rem = hi;
  u64 quotient = 0;
  for (int bit = 63; bit >= 0; --bit) {
    const bool carry = (rem >> 63) != 0;
    rem = (rem << 1) | ((lo >> bit) & 1u);
    quotient <<= 1;
    if (carry || rem >= c) {
      rem -= c;
      quotient |= 1u;
    }
  }
  return quotient;
}
}  // namespace detail
/// @endcond

/// `r * b / c` for r < c, the remainder term of mul_div_u64, exact: the 96-bit product is
/// divided by restoring long division when it does not fit in 64 bits (64 steps, cold path).
constexpr u64 mul_div_small(u64 r, u32 b, u64 c) noexcept {
  const u64 low_product = (r & 0xFFFFFFFFu) * b;
  const u64 high_product = (r >> 32) * b;  // weight 2^32
  const u64 lo = low_product + (high_product << 32);
  const u64 hi = (high_product >> 32) + (lo < low_product ? 1u : 0u);
  if (hi == 0) return lo / c;
  // hi != 0 means r*b >= 2^64, so c > r >= 2^32 > hi: the running remainder starts below c.
  return detail::div_wide(hi, lo, c);
}

/// `a * b / c` for unsigned operands without intermediate overflow as long as the result fits:
/// computed from the quotient and remainder of `a / c` so every product stays below 2^64.
/// Exact (floor of the true quotient). @pre c != 0.
/// Complexity: two 64-bit divisions, plus a 64-step long division when `r * b` needs 96 bits.
constexpr u64 mul_div_u64(u64 a, u32 b, u64 c) noexcept {
  SCHEDCORE_ASSERT(c != 0);
  const u64 q = a / c;
  const u64 r = a % c;
  return q * b + mul_div_small(r, b, c);
}

/// `r * b / c` for r < c with a 64-bit `b`, exact: the 128-bit product from four 32x32->64
/// multiplies, divided by restoring long division when it does not fit in 64 bits (64 steps,
/// cold path). The quotient is below b, so it fits.
constexpr u64 mul_div_small_u64(u64 r, u64 b, u64 c) noexcept {
  const u64 r0 = r & 0xFFFFFFFFu, r1 = r >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
  const u64 p00 = r0 * b0, p01 = r0 * b1, p10 = r1 * b0, p11 = r1 * b1;
  const u64 mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);  // < 3 * 2^32
  const u64 lo = (mid << 32) | (p00 & 0xFFFFFFFFu);
  const u64 hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
  if (hi == 0) return lo / c;
  return detail::div_wide(hi, lo, c);  // r * b < c * 2^64, so hi < c
}

/// `a * b / c` for unsigned 64-bit operands, exact (floor) as long as the result fits in 64
/// bits: `(a / c) * b` plus the remainder term `mul_div_small_u64`. For a second factor that
/// may exceed 32 bits (a period of more than 4.29 s in ns). @pre c != 0, the result < 2^64.
/// Complexity: two 64-bit divisions, plus a 64-step long division when `(a % c) * b` needs
/// more than 64 bits.
constexpr u64 mul_div_u64_u64(u64 a, u64 b, u64 c) noexcept {
  SCHEDCORE_ASSERT(c != 0);
  return a / c * b + mul_div_small_u64(a % c, b, c);
}

/// Signed division rounding toward zero, as C; named so call sites read like the kernel's
/// `div_s64`. @pre d != 0
constexpr s64 div_s64(s64 n, s64 d) noexcept {
  SCHEDCORE_ASSERT(d != 0);
  return n / d;
}

}  // namespace schedcore

#endif
