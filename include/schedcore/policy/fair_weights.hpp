/// @file
/// @brief The nice-to-weight tables of Linux's fair classes (`sched_prio_to_weight`,
/// `sched_prio_to_wmult`), the load weight pair, and the kernel's fixed-point weighted delta
/// (`__calc_delta`, `calc_delta_fair`), shared by the weight-based policies (cfs, eevdf).
///
/// @par Implementation notes
/// - Source: algorithms-modern.md §2.2 (the 40-entry tables, identical in 2.6.23's
///   `kernel/sched.c` [K23] and today's `kernel/sched/core.c`); `__calc_delta` as described
///   there ([F5]): `delta * weight / lw` computed as `delta * (weight * inv(lw)) >> 32`, where
///   `inv(lw) = 0xFFFFFFFF / lw`; when `weight * inv` needs more than 32 bits, factor and shift
///   are both reduced by the bit length of the excess (`fls`), so the final product is a
///   64 x 32 multiply (mul_u64_u32_shr: two 32 x 32 multiplies, no 128-bit type, the same
///   result on 32- and 64-bit targets).
/// - Weights are the unscaled (`scale_load_down`) values: 1024 for nice 0. SCHED_IDLE: 3.
/// - Precision: the inverse weights are rounded, so `calc_delta_fair(d, w)` differs from the
///   exact `d * 1024 / w` by at most about `d / 2^22 + 1` ns — the kernel's own precision
///   (measured in tests/unit/cfs_policy_test.cpp).
/// - CPU-count scaling (§2.3): SCHED_TUNABLESCALING_LOG, factor `1 + ilog2(min(cpus, 8))`.
/// - Complexity: O(1); the only division is fair_inv_weight's single 32-bit one.
#ifndef SCHEDCORE_POLICY_FAIR_WEIGHTS_HPP
#define SCHEDCORE_POLICY_FAIR_WEIGHTS_HPP

#include "schedcore/core/arith.hpp"
#include "schedcore/core/bitops.hpp"
#include "schedcore/core/types.hpp"

namespace schedcore {

/// Weight of a nice-0 task (`NICE_0_LOAD`, unscaled).
inline constexpr u32 nice_0_load = 1024;
/// `NICE_0_SHIFT`: log2 of nice_0_load.
inline constexpr unsigned nice_0_shift = 10;
/// `WMULT_SHIFT`: inverse weights are 2^32 / weight.
inline constexpr unsigned wmult_shift = 32;
/// `WMULT_CONST` of the modern kernel (~0U).
inline constexpr u32 wmult_const = 0xFFFFFFFFu;

/// `sched_prio_to_weight[nice + 20]`: neighbouring nice levels differ by about 1.25x
/// (algorithms-modern.md §2.2).
inline constexpr u32 sched_prio_to_weight[40] = {
    /* -20 */ 88761, 71755, 56483, 46273, 36291,
    /* -15 */ 29154, 23254, 18705, 14949, 11916,
    /* -10 */ 9548,  7620,  6100,  4904,  3906,
    /*  -5 */ 3121,  2501,  1991,  1586,  1277,
    /*   0 */ 1024,  820,   655,   526,   423,
    /*   5 */ 335,   272,   215,   172,   137,
    /*  10 */ 110,   87,    70,    56,    45,
    /*  15 */ 36,    29,    23,    18,    15,
};

/// `sched_prio_to_wmult[nice + 20]`: 2^32 / weight, precomputed (algorithms-modern.md §2.2).
inline constexpr u32 sched_prio_to_wmult[40] = {
    /* -20 */ 48388,     59856,     76040,     92818,     118348,
    /* -15 */ 147320,    184698,    229616,    287308,    360437,
    /* -10 */ 449829,    563644,    704093,    875809,    1099582,
    /*  -5 */ 1376151,   1717300,   2157191,   2708050,   3363326,
    /*   0 */ 4194304,   5237765,   6557202,   8165337,   10153587,
    /*   5 */ 12820798,  15790321,  19976592,  24970740,  31350126,
    /*  10 */ 39045157,  49367440,  61356676,  76695844,  95443717,
    /*  15 */ 119304647, 148102320, 186737708, 238609294, 286331153,
};

/// Weight of a SCHED_IDLE task in the modern kernel (`WEIGHT_IDLEPRIO`).
inline constexpr u32 weight_idleprio = 3;
/// Inverse weight of a SCHED_IDLE task in the modern kernel (`WMULT_IDLEPRIO`).
inline constexpr u32 wmult_idleprio = 1431655765u;

/// A weight and its inverse (the kernel's `struct load_weight`, unscaled).
struct load_weight {
  u32 weight = nice_0_load;       ///< the weight (1024 for nice 0)
  u32 inv_weight = 4194304u;      ///< 2^32 / weight (table value, or fair_inv_weight())
};

/// The modern kernel's `__update_inv_weight` for a weight or load sum `w`: 0xFFFFFFFF / w,
/// 0xFFFFFFFF for w = 0 and 1 when w does not fit in 32 bits. One 32-bit division.
constexpr u32 fair_inv_weight(u64 w) noexcept {
  if (w >= wmult_const) return 1;
  if (w == 0) return wmult_const;
  return wmult_const / static_cast<u32>(w);
}

/// Weight of nice value `nice`. @pre valid_nice(nice)
constexpr u32 nice_to_weight(int nice) noexcept { return sched_prio_to_weight[nice + 20]; }
/// Inverse weight (2^32 / weight) of nice value `nice`. @pre valid_nice(nice)
constexpr u32 nice_to_wmult(int nice) noexcept { return sched_prio_to_wmult[nice + 20]; }
/// The load weight of nice value `nice`, from the tables. @pre valid_nice(nice)
constexpr load_weight nice_to_load(int nice) noexcept { return {nice_to_weight(nice), nice_to_wmult(nice)}; }
/// The load weight of a SCHED_IDLE task (3, 1431655765).
constexpr load_weight idle_load() noexcept { return {weight_idleprio, wmult_idleprio}; }
/// A load weight for an arbitrary weight (cgroup shares): inverse by fair_inv_weight().
constexpr load_weight make_load(u32 weight) noexcept { return {weight, fair_inv_weight(weight)}; }

/// The modern kernel's `__calc_delta`: `delta * weight / lw`, where `inv_lw` is the inverse of
/// lw (fair_inv_weight(lw) or a table wmult), in fixed point with the kernel's shift
/// reductions. The same result on every target (96-bit intermediate via mul_u64_u32_shr).
constexpr u64 fair_calc_delta(u64 delta, u64 weight, u32 inv_lw) noexcept {
  u64 fact = weight;
  unsigned shift = wmult_shift;
  u32 fact_hi = static_cast<u32>(fact >> 32);
  if (fact_hi != 0) {
    const unsigned fs = highest_set_bit(fact_hi) + 1;  // fls()
    shift -= fs;
    fact >>= fs;
  }
  fact = static_cast<u64>(static_cast<u32>(fact)) * inv_lw;  // mul_u32_u32
  fact_hi = static_cast<u32>(fact >> 32);
  if (fact_hi != 0) {
    const unsigned fs = highest_set_bit(fact_hi) + 1;
    shift -= fs;
    fact >>= fs;
  }
  return mul_u64_u32_shr(delta, static_cast<u32>(fact), shift);
}

/// The kernel's `calc_delta_fair`: `delta` of wall time as virtual time for a task of load
/// `lw` (`delta * 1024 / w`); exactly `delta` for nice 0.
constexpr u64 calc_delta_fair(u64 delta, load_weight lw) noexcept {
  if (lw.weight == nice_0_load) return delta;
  return fair_calc_delta(delta, nice_0_load, lw.inv_weight);
}

/// calc_delta_fair() of one fixed weight reduced to a single multiply-shift: `__calc_delta`'s
/// factor `1024·inv_w` and shift, after its reductions, depend on the weight alone, so a
/// policy computes them once when the weight is set and every later charge costs one
/// 64 x 32 multiply with no branch (the weight's own per-entity inverse cache, as the kernel
/// caches `inv_weight`). The result is bit-identical to calc_delta_fair() for every delta.
struct fair_vscale {
  u32 fact = 0x80000000u;  ///< reduced factor (nice 0: 2^31, with shift 31: the identity)
  u32 shift = 31;          ///< reduced shift, always in [1, 32]
};

/// The fair_vscale of load `lw`: `__calc_delta(·, 1024, lw)`'s factor and shift, or the
/// identity (2^31, 31) for nice 0, for which calc_delta_fair() returns delta unchanged.
/// @par Complexity O(1), no division.
constexpr fair_vscale make_fair_vscale(load_weight lw) noexcept {
  if (lw.weight == nice_0_load) return fair_vscale{};
  // The two reduction steps of fair_calc_delta(); weight 1024 < 2^32 skips the first.
  u64 fact = static_cast<u64>(nice_0_load) * lw.inv_weight;
  unsigned shift = wmult_shift;
  const u32 fact_hi = static_cast<u32>(fact >> 32);
  if (fact_hi != 0) {
    const unsigned fs = highest_set_bit(fact_hi) + 1;  // fls(); fact < 2^42, so fs <= 10
    shift -= fs;
    fact >>= fs;
  }
  return fair_vscale{static_cast<u32>(fact), shift};
}

/// make_fair_vscale(lw) without the branches, for a policy that does not cache it per entity
/// (cfs: the cache would grow its 88-byte entity to 96). 1024·inv_weight has the high word
/// h = inv_weight >> 22 (< 2^10); the reduction shifts by fls(h), which is the top bit index
/// of 2h + 1 (so h = 0 gives 0 with no special case); nice 0 selects the identity.
/// @par Complexity O(1): a bit scan, two shifts and two selects; no branch, no division.
constexpr fair_vscale fair_vscale_of(load_weight lw) noexcept {
  const u32 h = lw.inv_weight >> 22;
  const unsigned fs = highest_set_bit(2u * h + 1u);  // fls(h)
  const u32 fact = static_cast<u32>((static_cast<u64>(lw.inv_weight) << 10) >> fs);
  const bool nice0 = lw.weight == nice_0_load;
  return fair_vscale{nice0 ? 0x80000000u : fact, nice0 ? 31u : 32u - fs};
}

/// calc_delta_fair(delta, lw) through the precomputed `s = make_fair_vscale(lw)`:
/// `(delta·fact) >> shift` with a 96-bit intermediate, truncated to 64 bits (as
/// mul_u64_u32_shr), branch-free because shift is in [1, 32]. On x86-64 that is one
/// 64 x 64 -> 128 `mul` and one `shrd` (GCC's own `unsigned __int128 >> shift` adds a shift
/// of the high half, a test and a cmov for counts >= 64, which cannot occur here); elsewhere
/// two 32 x 32 multiplies. The forms agree for every input: (hi·2^32 + lo) >> shift =
/// hi·2^(32−shift) + (lo >> shift) since 2^shift divides hi·2^32, both taken modulo 2^64.
/// Not constexpr (inline assembly); nothing evaluates it at compile time.
inline u64 fair_vscale_delta(u64 delta, fair_vscale s) noexcept {
#if defined(__x86_64__) && !defined(SCHEDCORE_PORTABLE_MULSHIFT)
  u64 lo = delta;
  u64 hi;
  __asm__("mulq %[f]\n\tshrdq %%cl, %%rdx, %%rax"
          : "+a"(lo), "=&d"(hi)
          : [f] "r"(static_cast<u64>(s.fact)), "c"(s.shift)
          : "cc");
  return lo;
#else
  const u64 lo = static_cast<u64>(static_cast<u32>(delta)) * s.fact;  // bits 0..63
  const u64 hi = (delta >> 32) * s.fact;                              // bits 32..95
  return (lo >> s.shift) + (hi << (32u - s.shift));
#endif
}

/// The tunable scaling factor of the modern kernel (SCHED_TUNABLESCALING_LOG, the default):
/// `1 + ilog2(min(cpus, 8))`, so 1, 2, 3, 4 for 1, 2, 4, 8+ CPUs. cpus < 1 counts as 1.
constexpr unsigned fair_scale_factor(s64 cpus) noexcept {
  const u64 n = cpus < 1 ? 1u : (cpus > 8 ? 8u : static_cast<u64>(cpus));
  return 1u + (ilog2)(n);
}

}  // namespace schedcore

#endif
