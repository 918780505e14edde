/// @file
/// @brief Signed binary fixed point for weights, shares, utilisation and lag.
///
/// `fixed<s64, 10>` is the kernel's scaled load weight (`NICE_0_LOAD = 1024 << 10` on 64-bit);
/// `fixed<s64, 20>` is SCHED_DEADLINE's bandwidth (`BW_SHIFT`). The raw type is signed, as in
/// Zircon's `SchedWeight`, so that an expression mixing weights and lag never promotes to
/// unsigned by accident. No floating point anywhere: the core may run where the FPU is off.
///
/// Multiplication of two fixed values needs a two-word product; for a 64-bit raw type it
/// uses `__int128` where the compiler has it and an exact 32x32 split otherwise (32-bit CPUs).
/// Division truncates toward zero. Overflow is the caller's to avoid, as with plain integers.
#ifndef SCHEDCORE_CORE_FIXED_HPP
#define SCHEDCORE_CORE_FIXED_HPP

#include "schedcore/core/arith.hpp"
#include "schedcore/core/assert.hpp"
#include "schedcore/core/traits.hpp"
#include "schedcore/core/types.hpp"

namespace schedcore {

namespace detail {

/// `(a * b) >> shift` for signed 64-bit operands without a 128-bit type: a 64x64->128 product
/// from four 32x32 products, then an arithmetic shift of the 128-bit two's-complement value.
/// Exact whenever the shifted result fits in 64 bits. @pre shift < 64
constexpr s64 mul_shift_s64_portable(s64 a, s64 b, unsigned shift) noexcept {
  const bool negative = (a < 0) != (b < 0);
  const u64 ua = a < 0 ? 0 - static_cast<u64>(a) : static_cast<u64>(a);
  const u64 ub = b < 0 ? 0 - static_cast<u64>(b) : static_cast<u64>(b);
  const u64 a_lo = ua & 0xFFFFFFFFu, a_hi = ua >> 32, b_lo = ub & 0xFFFFFFFFu, b_hi = ub >> 32;
  const u64 lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
  const u64 mid = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFu) + (lo_hi & 0xFFFFFFFFu);
  u64 low = (mid << 32) | (lo_lo & 0xFFFFFFFFu);
  u64 high = hi_hi + (hi_lo >> 32) + (lo_hi >> 32) + (mid >> 32);
  if (negative) {  // two's complement of the 128-bit magnitude
    low = ~low + 1;
    high = ~high + (low == 0 ? 1u : 0u);
  }
  const u64 shifted = shift == 0 ? low : (low >> shift) | (high << (64 - shift));
  return static_cast<s64>(shifted);
}

/// `(a * b) >> shift` with a two-word intermediate, rounding toward negative infinity:
/// `__int128` where the compiler has it, the portable split otherwise. @pre shift < 64
constexpr s64 mul_shift_s64(s64 a, s64 b, unsigned shift) noexcept {
#ifdef __SIZEOF_INT128__
  __extension__ using wide = __int128;
  return static_cast<s64>((static_cast<wide>(a) * b) >> shift);
#else
  return mul_shift_s64_portable(a, b, shift);
#endif
}

}  // namespace detail

/// A signed fixed-point number: `raw / 2^FracBits`.
/// @tparam Int signed integer holding the raw value (s32 or s64)
/// @tparam FracBits number of fraction bits, less than the width of Int
template <class Int, unsigned FracBits>
class fixed {
  static_assert(is_signed_v<Int>, "fixed<> is signed on purpose: weights and lag mix");
  static_assert(FracBits < sizeof(Int) * 8 - 1, "too many fraction bits for the raw type");

 public:
  using raw_type = Int;                               ///< the raw integer type
  static constexpr unsigned frac_bits = FracBits;     ///< number of fraction bits
  static constexpr Int one_raw = static_cast<Int>(static_cast<Int>(1) << FracBits);  ///< raw 1.0

  /// Zero.
  constexpr fixed() noexcept = default;

  /// The value whose raw representation is `raw`.
  static constexpr fixed from_raw(Int raw) noexcept {
    fixed f;
    f.raw_ = raw;
    return f;
  }
  /// The integer `v` (`v << FracBits`).
  static constexpr fixed from_int(Int v) noexcept { return from_raw(static_cast<Int>(v * one_raw)); }
  /// `num / den`, truncated toward zero, exact whenever the quotient fits (the product
  /// num·2^FracBits is formed in two words: `fixed<s64, 20>::ratio` of periods past 2^43 ns
  /// would overflow one). @pre den != 0
  static constexpr fixed ratio(Int num, Int den) noexcept {
    SCHEDCORE_ASSERT(den != 0);
    const u64 n = num < 0 ? 0 - static_cast<u64>(num) : static_cast<u64>(num);
    const u64 d = den < 0 ? 0 - static_cast<u64>(den) : static_cast<u64>(den);
    const u64 q = mul_div_u64_u64(n, static_cast<u64>(one_raw), d);
    return from_raw(static_cast<Int>((num < 0) != (den < 0) ? 0 - q : q));
  }

  /// The raw representation.
  constexpr Int raw() const noexcept { return raw_; }
  /// The integer part, rounded toward negative infinity (arithmetic shift).
  constexpr Int floor() const noexcept { return static_cast<Int>(raw_ >> FracBits); }
  /// Rounded to the nearest integer, halves away from zero. The floor plus one when the
  /// fraction reaches a half (passes it, below zero), so that no step overflows: any raw
  /// value rounds, the largest and the smallest included.
  constexpr Int round() const noexcept {
    const Int whole = static_cast<Int>(raw_ >> FracBits);
    const Int frac = static_cast<Int>(raw_ & static_cast<Int>(one_raw - 1));  // raw - whole·2^F, in [0, 1)
    const Int half = static_cast<Int>(one_raw / 2);
    const bool up = FracBits != 0 && (raw_ >= 0 ? frac >= half : frac > half);
    return static_cast<Int>(whole + (up ? 1 : 0));
  }

  /// Sum.
  friend constexpr fixed operator+(fixed a, fixed b) noexcept { return from_raw(static_cast<Int>(a.raw_ + b.raw_)); }
  /// Difference.
  friend constexpr fixed operator-(fixed a, fixed b) noexcept { return from_raw(static_cast<Int>(a.raw_ - b.raw_)); }
  /// Negation.
  friend constexpr fixed operator-(fixed a) noexcept { return from_raw(static_cast<Int>(-a.raw_)); }
  /// Product of two fixed values (two-word intermediate).
  friend constexpr fixed operator*(fixed a, fixed b) noexcept {
    return from_raw(static_cast<Int>(detail::mul_shift_s64(a.raw_, b.raw_, FracBits)));
  }
  /// Product with an integer.
  friend constexpr fixed operator*(fixed a, Int k) noexcept { return from_raw(static_cast<Int>(a.raw_ * k)); }
  /// Quotient by an integer, truncated toward zero. @pre k != 0
  friend constexpr fixed operator/(fixed a, Int k) noexcept {
    SCHEDCORE_ASSERT(k != 0);
    return from_raw(static_cast<Int>(a.raw_ / k));
  }
  /// Quotient of two fixed values, truncated toward zero. @pre b != 0 and a.raw() << FracBits fits
  friend constexpr fixed operator/(fixed a, fixed b) noexcept {
    SCHEDCORE_ASSERT(b.raw_ != 0);
    return from_raw(static_cast<Int>(a.raw_ * one_raw / b.raw_));
  }
  /// In-place sum.
  constexpr fixed& operator+=(fixed b) noexcept { return *this = *this + b; }
  /// In-place difference.
  constexpr fixed& operator-=(fixed b) noexcept { return *this = *this - b; }

  /// Equality.
  friend constexpr bool operator==(fixed a, fixed b) noexcept { return a.raw_ == b.raw_; }
  /// Inequality.
  friend constexpr bool operator!=(fixed a, fixed b) noexcept { return a.raw_ != b.raw_; }
  /// Order.
  friend constexpr bool operator<(fixed a, fixed b) noexcept { return a.raw_ < b.raw_; }
  /// Order.
  friend constexpr bool operator>(fixed a, fixed b) noexcept { return a.raw_ > b.raw_; }
  /// Order.
  friend constexpr bool operator<=(fixed a, fixed b) noexcept { return a.raw_ <= b.raw_; }
  /// Order.
  friend constexpr bool operator>=(fixed a, fixed b) noexcept { return a.raw_ >= b.raw_; }

 private:
  Int raw_ = 0;  ///< value * 2^FracBits
};

}  // namespace schedcore

#endif
