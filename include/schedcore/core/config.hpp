/// @file
/// @brief Language, compiler and target detection, and the knobs a port sets before including
/// any schedcore header.
///
/// schedcore's core includes no standard header at all (none exists for riscv64-unknown-elf or
/// inside a Linux kernel build); everything it needs comes from compiler builtins and
/// predefined macros, detected here.
///
/// Knobs (define before the first schedcore include, or on the command line):
///
/// | macro | default | effect |
/// |---|---|---|
/// | `SCHEDCORE_ENABLE_ASSERTS` | 1 unless `NDEBUG` | cheap O(1) precondition checks (`SCHEDCORE_ASSERT`) |
/// | `SCHEDCORE_ENABLE_INVARIANTS` | 0 | O(n) structural checks after mutations (`SCHEDCORE_INVARIANT`) |
/// | `SCHEDCORE_ASSERT_HANDLER` | `schedcore::default_assert_handler` | where failed checks go (see core/assert.hpp) |
/// | `SCHEDCORE_PORTABLE_BITOPS` | 0 | never call `__builtin_ctz` and friends: the bit scans reference no libgcc helper (`__clzsi2`, `__ctzsi2`, `__popcountsi2` ...; 64-bit shifts, multiplies and divisions on 32-bit CPUs still call libgcc's, as any 64-bit code does there) |
/// | `SCHEDCORE_CTZ_SPLIT32` | 1 on 32-bit targets | 64-bit bit scans as two 32-bit scans (inlines to `rbit`+`clz` on Cortex-M3) |
/// | `SCHEDCORE_PORTABLE_MULSHIFT` | undefined | defined: the fair policies' charge (fair_vscale_delta) uses two 32 x 32 multiplies instead of x86-64 `mul` + `shrd` inline assembly (same result) |
/// | `SCHEDCORE_RB_PORTABLE_SELECT` | undefined | defined: the rb tree's insert descent and the augmented tree's update select children with masks instead of x86-64 `cmov` inline assembly (same tree) |
/// | `SCHEDCORE_ALWAYS_INLINE` | forced inline, plain `inline` under -Os | how the hot-path helpers and the cycle's hooks are inlined (below) |
/// | `SCHEDCORE_COLD` | `__cold__, __noinline__` | the attribute that keeps rarely taken paths (failed checks) out of line (below) |
///
/// The portable twins of the x86-64 assembly are what every other target compiles; the bit-scan
/// fallbacks only a port that sets `SCHEDCORE_PORTABLE_BITOPS` (the Cortex-M0 one). Unit suites
/// also run on x86-64 with all three knobs set (tests/CMakeLists.txt).
#ifndef SCHEDCORE_CORE_CONFIG_HPP
#define SCHEDCORE_CORE_CONFIG_HPP

#include "schedcore/version.hpp"

#if !defined(__cplusplus) || (__cplusplus < 201703L && !defined(_MSVC_LANG))
#error "schedcore needs C++17 or later"
#endif

#if !defined(__GNUC__) && !defined(__clang__)
#error "schedcore relies on GCC/Clang builtins (__builtin_ctz, __UINT64_TYPE__ ...)"
#endif

/// 1 when the language is C++20 or later (concepts are then used for diagnostics).
#if __cplusplus >= 202002L
#define SCHEDCORE_CXX20 1
#else
#define SCHEDCORE_CXX20 0
#endif

/// Width of a machine word in bits (32 on Cortex-M and rv32, 64 on x86-64 and rv64).
#define SCHEDCORE_WORD_BITS (__SIZEOF_POINTER__ * 8)

#ifndef SCHEDCORE_ENABLE_ASSERTS
#ifdef NDEBUG
/// 1 to compile the cheap precondition checks (`SCHEDCORE_ASSERT`) in; default `!NDEBUG`.
#define SCHEDCORE_ENABLE_ASSERTS 0
#else
#define SCHEDCORE_ENABLE_ASSERTS 1
#endif
#endif

#ifndef SCHEDCORE_ENABLE_INVARIANTS
/// 1 to compile O(n) invariant checks (`SCHEDCORE_INVARIANT`) in; default 0.
#define SCHEDCORE_ENABLE_INVARIANTS 0
#endif

#ifndef SCHEDCORE_PORTABLE_BITOPS
/// 1 to use the portable bit-scan fallbacks (no libgcc helper referenced); default 0.
#define SCHEDCORE_PORTABLE_BITOPS 0
#endif

#ifndef SCHEDCORE_CTZ_SPLIT32
#if SCHEDCORE_WORD_BITS < 64
/// 1 to scan 64-bit words as two 32-bit halves; default 1 on 32-bit targets.
#define SCHEDCORE_CTZ_SPLIT32 1
#else
#define SCHEDCORE_CTZ_SPLIT32 0
#endif
#endif

/// Force inlining of small hot-path helpers (bit scans, hook accessors) and of the scheduling
/// cycle's hooks, where the call overhead is a measurable share of pick-next (bench/). Under
/// -Os (`__OPTIMIZE_SIZE__`, a firmware build) the compiler's size heuristics decide instead:
/// forced inlining into every caller tripled the Cortex-M3 port's eevdf scheduler object.
/// Define it before including schedcore to choose either way.
#ifndef SCHEDCORE_ALWAYS_INLINE
#if defined(__OPTIMIZE_SIZE__)
#define SCHEDCORE_ALWAYS_INLINE inline
#else
#define SCHEDCORE_ALWAYS_INLINE inline __attribute__((__always_inline__))
#endif
#endif
/// Keep rarely taken paths (assert failures) out of line. Define it before including schedcore
/// to choose otherwise. (Attributes are spelt `__name__` throughout, so that a code base's own
/// `cold`, `noinline` or `always_inline` macro, as the Linux kernel's compiler_attributes.h
/// defines them, cannot break them.)
#ifndef SCHEDCORE_COLD
#define SCHEDCORE_COLD __attribute__((__cold__, __noinline__))
#endif
/// Branch hints; use only where the probability is known, not guessed.
#define SCHEDCORE_LIKELY(x) __builtin_expect(!!(x), 1)
/// @copydoc SCHEDCORE_LIKELY
#define SCHEDCORE_UNLIKELY(x) __builtin_expect(!!(x), 0)

#endif
