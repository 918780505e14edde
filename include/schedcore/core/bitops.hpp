/// @file
/// @brief Bit scans and population count with builtin fast paths and portable fallbacks.
///
/// All scans take a non-zero word (checked by `SCHEDCORE_ASSERT`): `__builtin_ctz(0)` is
/// undefined, and the priority bitmaps never ask about an empty word. With asserts enabled a
/// zero word is reported (a handler that returns then gets the word width from ctz / clz /
/// lowest_set_bit, and ~0u from highest_set_bit and ilog2) instead of undefined behaviour.
///
/// Target notes (measured; docs/guides/porting-rtos.md): `__builtin_ctzll` becomes a call to libgcc's
/// `__ctzdi2` on Cortex-M and rv32/rv64 without Zbb. With `SCHEDCORE_CTZ_SPLIT32` (the default
/// on 32-bit targets) a 64-bit scan is two 32-bit scans, which Cortex-M3 inlines as `rbit`+`clz`.
/// Cortex-M0 (ARMv6-M) has no `clz` at all; there `SCHEDCORE_PORTABLE_BITOPS` selects
/// branch-light table-free fallbacks that reference no libgcc helper.
///
/// Complexity: O(1) everywhere; the portable fallbacks are 5-6 steps of a binary search.
#ifndef SCHEDCORE_CORE_BITOPS_HPP
#define SCHEDCORE_CORE_BITOPS_HPP

#include "schedcore/core/assert.hpp"
#include "schedcore/core/types.hpp"

namespace schedcore {

namespace detail {

/// Portable count of trailing zeros of a non-zero 32-bit word (binary search).
constexpr unsigned portable_ctz32(u32 x) noexcept {
  unsigned n = 0;
  if ((x & 0xFFFFu) == 0) { n += 16; x >>= 16; }
  if ((x & 0xFFu) == 0) { n += 8; x >>= 8; }
  if ((x & 0xFu) == 0) { n += 4; x >>= 4; }
  if ((x & 0x3u) == 0) { n += 2; x >>= 2; }
  if ((x & 0x1u) == 0) { n += 1; }
  return n;
}

/// Portable count of leading zeros of a non-zero 32-bit word (binary search).
constexpr unsigned portable_clz32(u32 x) noexcept {
  unsigned n = 0;
  if ((x & 0xFFFF0000u) == 0) { n += 16; x <<= 16; }
  if ((x & 0xFF000000u) == 0) { n += 8; x <<= 8; }
  if ((x & 0xF0000000u) == 0) { n += 4; x <<= 4; }
  if ((x & 0xC0000000u) == 0) { n += 2; x <<= 2; }
  if ((x & 0x80000000u) == 0) { n += 1; }
  return n;
}

/// Portable population count of a 32-bit word (SWAR, no multiply).
constexpr unsigned portable_popcount32(u32 x) noexcept {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0F0F0F0Fu;
  x = x + (x >> 8);
  x = x + (x >> 16);
  return x & 0x3Fu;
}

constexpr u32 low_half(u64 x) noexcept { return static_cast<u32>(x); }

/// ctz of a non-zero word without the precondition check (callers have checked).
SCHEDCORE_ALWAYS_INLINE constexpr unsigned raw_ctz32(u32 x) noexcept {
#if SCHEDCORE_PORTABLE_BITOPS
  return portable_ctz32(x);
#else
  return static_cast<unsigned>(__builtin_ctz(x));
#endif
}

/// clz of a non-zero word without the precondition check (callers have checked).
SCHEDCORE_ALWAYS_INLINE constexpr unsigned raw_clz32(u32 x) noexcept {
#if SCHEDCORE_PORTABLE_BITOPS
  return portable_clz32(x);
#else
  return static_cast<unsigned>(__builtin_clz(x));
#endif
}
constexpr u32 high_half(u64 x) noexcept { return static_cast<u32>(x >> 32); }

}  // namespace detail

/// Number of trailing zero bits. @pre x != 0
SCHEDCORE_ALWAYS_INLINE constexpr unsigned ctz32(u32 x) noexcept {
  SCHEDCORE_ASSERT(x != 0);
#if SCHEDCORE_ENABLE_ASSERTS
  if (x == 0) return 32u;  // reported above; a defined answer instead of the builtin's UB
#endif
  return detail::raw_ctz32(x);
}

/// Number of leading zero bits. @pre x != 0
SCHEDCORE_ALWAYS_INLINE constexpr unsigned clz32(u32 x) noexcept {
  SCHEDCORE_ASSERT(x != 0);
#if SCHEDCORE_ENABLE_ASSERTS
  if (x == 0) return 32u;  // reported above; a defined answer instead of the builtin's UB
#endif
  return detail::raw_clz32(x);
}

/// Number of trailing zero bits. @pre x != 0
SCHEDCORE_ALWAYS_INLINE constexpr unsigned ctz64(u64 x) noexcept {
  SCHEDCORE_ASSERT(x != 0);
#if SCHEDCORE_ENABLE_ASSERTS
  if (x == 0) return 64u;  // reported above; a defined answer instead of the builtin's UB
#endif
#if SCHEDCORE_PORTABLE_BITOPS || SCHEDCORE_CTZ_SPLIT32
  return detail::low_half(x) != 0 ? detail::raw_ctz32(detail::low_half(x))
                                   : 32u + detail::raw_ctz32(detail::high_half(x));
#else
  return static_cast<unsigned>(__builtin_ctzll(x));
#endif
}

/// Number of leading zero bits. @pre x != 0
SCHEDCORE_ALWAYS_INLINE constexpr unsigned clz64(u64 x) noexcept {
  SCHEDCORE_ASSERT(x != 0);
#if SCHEDCORE_ENABLE_ASSERTS
  if (x == 0) return 64u;  // reported above; a defined answer instead of the builtin's UB
#endif
#if SCHEDCORE_PORTABLE_BITOPS || SCHEDCORE_CTZ_SPLIT32
  return detail::high_half(x) != 0 ? detail::raw_clz32(detail::high_half(x))
                                    : 32u + detail::raw_clz32(detail::low_half(x));
#else
  return static_cast<unsigned>(__builtin_clzll(x));
#endif
}

/// Index of the lowest set bit (0-based; `ffs() - 1` in kernel terms). @pre x != 0
SCHEDCORE_ALWAYS_INLINE constexpr unsigned lowest_set_bit(u32 x) noexcept { return ctz32(x); }
/// Index of the lowest set bit of a 64-bit word. @pre x != 0
SCHEDCORE_ALWAYS_INLINE constexpr unsigned lowest_set_bit(u64 x) noexcept { return ctz64(x); }
/// Index of the highest set bit (0-based; `fls() - 1` in kernel terms). @pre x != 0
SCHEDCORE_ALWAYS_INLINE constexpr unsigned highest_set_bit(u32 x) noexcept { return 31u - clz32(x); }
/// Index of the highest set bit of a 64-bit word. @pre x != 0
SCHEDCORE_ALWAYS_INLINE constexpr unsigned highest_set_bit(u64 x) noexcept { return 63u - clz64(x); }

/// Number of set bits. The builtin is used only where the CPU has a population-count
/// instruction (x86 `-mpopcnt`, RISC-V Zbb): elsewhere `__builtin_popcount` becomes a call to
/// libgcc's `__popcountsi2`, which a Linux kernel build cannot resolve (measured with the
/// module port under the kernel's own x86-64 flags), so the SWAR fallback is used instead.
SCHEDCORE_ALWAYS_INLINE constexpr unsigned popcount32(u32 x) noexcept {
#if SCHEDCORE_PORTABLE_BITOPS || !(defined(__POPCNT__) || defined(__riscv_zbb))
  return detail::portable_popcount32(x);
#else
  return static_cast<unsigned>(__builtin_popcount(x));
#endif
}

/// Number of set bits.
SCHEDCORE_ALWAYS_INLINE constexpr unsigned popcount64(u64 x) noexcept {
  return popcount32(detail::low_half(x)) + popcount32(detail::high_half(x));
}

/// floor(log2(x)) for x > 0 (the kernel's `ilog2`). @pre x != 0
SCHEDCORE_ALWAYS_INLINE constexpr unsigned(ilog2)(u64 x) noexcept { return highest_set_bit(x); }

/// A word with only bit `i` set. @pre i < 64
SCHEDCORE_ALWAYS_INLINE constexpr u64 bit64(unsigned i) noexcept { return static_cast<u64>(1) << i; }

}  // namespace schedcore

#endif
