/// @file
/// @brief Where to look for a CPU for a woken task on CPUs that share a last-level cache:
/// Linux's wake-affine rules (the fast path of select_task_rq_fair, 4.14+; the form of 5.15+).
///
/// @par The model
/// A task woken by another task may be better off near its waker (the data it is woken for is
/// hot in the waker's cache) or on its previous CPU (its own data is). Linux decides in three
/// steps, each one a function here:
/// 1. **record_wakee / wake_wide.** Every waker counts *flips*: wakeups of another task than
///    the one it woke last, halved once per second. A wakeup is *wide* when both the waker's
///    and the wakee's counts reach the LLC's CPU count and one is that many times the other
///    (a 1:N server pattern): pulling every wakee to the waker would pile them onto one CPU,
///    so the wakee is not considered for the waker's CPU.
/// 2. **wake_affine.** Otherwise, when the wakeup runs on another CPU (`this_cpu`) than the
///    task's previous one (`prev_cpu`), it chooses the *target* of the idle search:
///    - wake_affine_idle() (WA_IDLE): an idle `this_cpu` wins unless `prev_cpu` is idle too;
///      a sync waker (about to sleep, WF_SYNC) alone on `this_cpu` hands it over; an idle
///      `prev_cpu` keeps the task;
///    - wake_affine_weight() (WA_WEIGHT with WA_BIAS): else `this_cpu` when the task's load
///      there, with a sync waker's own load taken out, leaves it lighter than `prev_cpu`
///      without the task, by the half-imbalance margin, per unit of capacity;
///    - else `prev_cpu`.
/// 3. **select_idle_sibling.** From that target: the target if idle; `prev_cpu` if idle; the
///    task's `recent_used_cpu` if idle (it is replaced by `prev_cpu` at every search); the
///    first idle CPU after the target, wrapping (select_idle_cpu), looking at no more CPUs
///    than SIS_UTIL allows when the caller limits the scan; else the target itself.
///
/// @par SIS_UTIL (Linux 6.0+, on by default)
/// Scanning a busy LLC for an idle CPU mostly fails and costs the waker time, so the scan's
/// depth shrinks as the LLC's utilisation grows. At each periodic (not newly-idle) balance of
/// the LLC's domain the kernel sums its CPUs' fair utilisation (cpu_util_cfs, each at most
/// its capacity) and sets the LLC's `nr_idle_scan` with sis_util_scan_depth(); a wakeup's
/// select_idle_cpu() then examines at most that many of the CPUs the task may use, and none
/// once the LLC is 85 % busy (100/117: an LLC group counts as overloaded at imbalance_pct
/// 117). The depth is y·llc_weight/1024 with y = 1024 − min(1024, x²·pct²/(10⁴·1024)) and x the
/// mean utilisation per CPU (sum/llc_weight), all divisions truncating; on 16 CPUs it falls
/// 16, 15, 15, 14, 13, 11, 9, 6, 3, 0 at 0, 5, 15, ..., 85 % (the table of the commit that
/// added it).
///
/// @par Implementation notes
/// Integer only: loads are the kernel's integers (PELT load_avg, or weights), products in
/// 64-bit signed arithmetic as the kernel's `s64`: exact for loads below 2^40 and capacities
/// up to 1024. Time is u64 ns, compared wrap-safe. What the kernel adds and these functions
/// leave to the caller: the cache-sharing tests (everything here is one LLC), SMT cores
/// (select_idle_core), keeping SIS_UTIL's depth up to date, the per-CPU kthread stacking rule, and
/// what counts as idle (`usable_idle`: the kernel takes a CPU running only SCHED_IDLE tasks
/// too, sched_idle_cpu). On an asymmetric machine step 3 keeps its cache-hot
/// candidates only where the task fits (select_idle_cache_hot() with a fit test) and scans
/// with smp/capacity.hpp's select_idle_capacity() instead of select_idle_sibling()'s scan.
/// Complexity: O(1) each, select_idle_sibling O(number of CPUs).
#ifndef SCHEDCORE_SMP_WAKE_AFFINE_HPP
#define SCHEDCORE_SMP_WAKE_AFFINE_HPP

#include "schedcore/core/types.hpp"

namespace schedcore {

/// A waker's flip count (task_struct's wakee_flips, wakee_flip_decay_ts and last_wakee).
struct wakee_flips {
  u32 flips = 0;                  ///< wakeups of another task than the last one woken, halved each decay period
  u64 decay_stamp_ns = 0;         ///< when `flips` was last halved (the first wakeup after boot halves 0)
  u64 last_wakee = ~u64{0};       ///< an identifier of the task it woke last (~0: none yet)
};

/// The period after which a waker's flip count halves at its next wakeup (one second: the
/// kernel's HZ jiffies).
inline constexpr u64 wakee_flip_decay_ns = 1000000000u;

/// record_wakee(): the task owning `w` wakes the task identified by `wakee` at `now_ns`. The
/// count halves first if more than wakee_flip_decay_ns passed since it last did (time_after:
/// strictly more, wrap-safe), then counts one flip if `wakee` is not the task it woke last.
/// @par Example
/// A waker alternating between two tasks flips at every wakeup: 1, 2, 3, ...; one waking the
/// same task again and again flips once.
constexpr void record_wakee(wakee_flips& w, u64 now_ns, u64 wakee) noexcept {
  if (static_cast<s64>(now_ns - (w.decay_stamp_ns + wakee_flip_decay_ns)) > 0) {
    w.flips >>= 1;
    w.decay_stamp_ns = now_ns;
  }
  if (w.last_wakee != wakee) {
    w.last_wakee = wakee;
    ++w.flips;
  }
}

/// wake_wide(): true when a wakeup between a waker of `waker_flips` and a wakee of
/// `wakee_flips` is wide on an LLC of `llc_size` CPUs: the smaller count is at least
/// `llc_size` and the larger at least `llc_size` times the smaller. Symmetric in the counts.
/// The product is taken in 64 bits: the kernel's `slave * factor` is an unsigned int and
/// wraps when the counts reach about 2^32 / llc_size (16 M flips on a 256-CPU LLC, which the
/// halving every second keeps out of reach), and then may answer wide where this does not.
/// @par Examples (llc_size 8)
/// 64 and 8: wide; 63 and 8: not (63 < 64); 1000 and 7: not (7 < 8).
constexpr bool wake_wide(u32 waker_flips, u32 wakee_flips, u32 llc_size) noexcept {
  const u64 larger = waker_flips > wakee_flips ? waker_flips : wakee_flips;
  const u64 smaller = waker_flips > wakee_flips ? wakee_flips : waker_flips;
  return smaller >= llc_size && larger >= smaller * llc_size;
}

/// What a wake-affine rule decided.
enum class wake_affine_choice : u8 {
  this_cpu,   ///< search from the CPU the wakeup runs on
  prev_cpu,   ///< search from the task's previous CPU
  undecided,  ///< this rule does not decide (the kernel's nr_cpumask_bits)
};

/// wake_affine_idle() (WA_IDLE), for CPUs that share a cache: `this_cpu` idle (a wakeup from
/// an interrupt taken there): `prev_cpu` if it is idle too, else `this_cpu`; a `sync` wakeup
/// whose waker is the only task running on `this_cpu` (`this_nr_running` counts runnable tasks
/// there, the waker included; 6.13+ leaves out sleepers the fair class still holds):
/// `this_cpu`; `prev_cpu` idle: `prev_cpu`; else undecided.
constexpr wake_affine_choice wake_affine_idle(bool this_idle, bool prev_idle, bool sync,
                                              u32 this_nr_running) noexcept {
  if (this_idle) return prev_idle ? wake_affine_choice::prev_cpu : wake_affine_choice::this_cpu;
  if (sync && this_nr_running == 1) return wake_affine_choice::this_cpu;
  if (prev_idle) return wake_affine_choice::prev_cpu;
  return wake_affine_choice::undecided;
}

/// wake_affine_weight() (WA_WEIGHT with WA_BIAS): true when the woken task should be searched
/// for from `this_cpu`:
/// `(this_load [- waker_load if sync] + task_load) x 100 x prev_capacity <
///  (prev_load - task_load) x (100 + (imbalance_pct - 100) / 2) x this_capacity [+ 1 if sync]`,
/// and, for a sync wakeup, at once when the waker's load exceeds `this_load`.
/// Loads as the kernel passes them: `this_load` and `prev_load` the CPUs' loads (cpu_load:
/// with PELT, the root queue's load_avg, which still holds the sleeping task's blocked load
/// on `prev_cpu`, hence the subtraction; a caller whose loads leave sleepers out adds
/// `task_load` to `prev_load`), `task_load` the woken task's and `waker_load` the waker's
/// (task_h_load); capacities in [1, 1024]; `imbalance_pct` the LLC domain's (117 since 5.10:
/// a margin of 108 against 100). @pre `imbalance_pct >= 100`, as every scheduling domain's
/// (below it the kernel's unsigned `(imbalance_pct - 100) / 2` wraps to about 2^31).
/// @par Example (weights, equal capacities, imbalance_pct 117)
/// this_cpu runs a nice-0 waker (1024), prev_cpu two nice-0 hogs (2048), the task 1024:
/// 2048 x 100 < 2048 x 108 (prev_load passed as 2048 + 1024): true. With one hog on prev_cpu:
/// 204800 < 110592 is false; a sync waker: (1024 - 1024 + 1024) x 100 = 102400 < 110593: true.
constexpr bool wake_affine_weight(u64 this_load, u64 prev_load, u64 task_load, u64 waker_load, bool sync,
                                  u32 this_capacity, u32 prev_capacity, u32 imbalance_pct) noexcept {
  s64 this_eff = static_cast<s64>(this_load);
  if (sync) {
    if (waker_load > this_load) return true;
    this_eff -= static_cast<s64>(waker_load);
  }
  this_eff += static_cast<s64>(task_load);
  this_eff *= 100;
  this_eff *= static_cast<s64>(prev_capacity);
  s64 prev_eff = static_cast<s64>(prev_load) - static_cast<s64>(task_load);
  const s64 bias = 100 + (static_cast<s64>(imbalance_pct) - 100) / 2;
  prev_eff *= bias;
  prev_eff *= static_cast<s64>(this_capacity);
  if (sync) prev_eff += 1;
  return this_eff < prev_eff;
}

/// The first three steps of select_idle_sibling(), the CPUs whose caches are likely hot for
/// the task: `target` if `usable_idle(target)` and `fits(target)`; else `prev` if it differs
/// and is usable, idle and fits; else `recent_used_cpu` if it is neither, is >= 0 and is
/// usable, idle and fits (`recent_used_cpu` becomes `prev` in any case once this step is
/// reached); else -1. `usable_idle(cpu)` says whether the task may run there (affinity) and
/// nothing runs there; `fits(cpu)` is asym_fits_cpu: on an asymmetric machine whether the
/// task's utilisation fits the CPU (smp/capacity.hpp's util_fits_cpu() == 1), elsewhere
/// always true. Both take an `int` and are noexcept.
/// @pre 0 <= prev, target < nr_cpus.
/// @par Complexity O(1): at most three calls of each callable.
template <class UsableIdle, class Fits>
constexpr int select_idle_cache_hot(int nr_cpus, int prev, int target, int& recent_used_cpu,
                                    UsableIdle&& usable_idle, Fits&& fits) noexcept {
  if (usable_idle(target) && fits(target)) return target;
  if (prev != target && usable_idle(prev) && fits(prev)) return prev;
  const int recent = recent_used_cpu;
  recent_used_cpu = prev;
  if (recent >= 0 && recent < nr_cpus && recent != prev && recent != target && usable_idle(recent) && fits(recent))
    return recent;
  return -1;
}

/// The LLC imbalance_pct SIS_UTIL's depth is computed with: the MC domain's 117 (an LLC group
/// counts as overloaded at 100/117, about 85 % busy).
inline constexpr u32 sis_util_imbalance_pct = 117;

/// SIS_UTIL's scan depth (update_idle_cpu_scan, Linux 6.0+): how many CPUs a wakeup's
/// select_idle_cpu() may examine in an LLC of `llc_weight` CPUs whose summed fair utilisation
/// is `sum_util` (each CPU's cpu_util_cfs, at most 1024 on a symmetric LLC). In [0,
/// llc_weight]: llc_weight on an idle LLC, 0 from about 100/`imbalance_pct` of its capacity up.
/// @par Example
/// 8 CPUs, n of them running a hog each (util 1024): depths 8, 7, 7, 6, 5, 3, 1, 0, 0 for n =
/// 0..8. 112 CPUs at 75 % (sum_util 86016): x = 768, x²·117²/(10⁴·1024) = 788, depth
/// (1024 − 788)·112/1024 = 25.
/// @pre llc_weight >= 1; imbalance_pct in 100..65535.
/// @par Complexity O(1); 64-bit integer arithmetic, exact (x is capped at 1024 before squaring,
/// past the point where the depth is 0 for any imbalance_pct >= 100).
constexpr int sis_util_scan_depth(u64 sum_util, int llc_weight,
                                  u32 imbalance_pct = sis_util_imbalance_pct) noexcept {
  const u64 weight = static_cast<u64>(llc_weight);
  u64 per_cpu = sum_util / weight;  // x' = sum_util / llc_weight, in 1/1024 of a CPU
  if (per_cpu > 1024) per_cpu = 1024;
  const u64 pct = imbalance_pct;
  u64 cut = per_cpu * per_cpu * pct * pct / (10000u * 1024u);
  if (cut > 1024) cut = 1024;
  return static_cast<int>((1024 - cut) * weight / 1024);
}

/// select_idle_cpu() without SMT: the first CPU of `target + 1`, `target + 2`, ... wrapping
/// over `nr_cpus` and ending with `target` itself, among those `allowed` (the task's affinity),
/// for which `usable_idle` holds, looking at no more than `scan_depth` allowed CPUs (SIS_UTIL;
/// `nr_cpus` or more: the whole LLC); -1 if none. Only allowed CPUs count toward the depth,
/// as the kernel scans the LLC's span masked by the task's CPUs. Both callables take an `int`
/// and are noexcept; `usable_idle` is asked only of allowed CPUs.
/// @pre 0 <= target < nr_cpus.
/// @par Complexity O(nr_cpus) calls of `allowed`, at most max(scan_depth, 0) of `usable_idle`.
template <class Allowed, class UsableIdle>
constexpr int select_idle_cpu(int nr_cpus, int target, int scan_depth, Allowed&& allowed,
                              UsableIdle&& usable_idle) noexcept {
  int cpu = target;
  for (int seen = 0; seen < nr_cpus && scan_depth > 0; ++seen) {
    if (++cpu == nr_cpus) cpu = 0;
    if (!allowed(cpu)) continue;
    --scan_depth;
    if (usable_idle(cpu)) return cpu;
  }
  return -1;
}

/// select_idle_sibling() on CPUs that share a cache and do not differ in capacity, without
/// SMT: select_idle_cache_hot() with every CPU fitting; else select_idle_cpu() from `target`
/// over at most `scan_depth` of the CPUs `allowed` accepts; else `target`.
/// `usable_idle(cpu)` (an `int`, noexcept) says whether the task may run there (affinity) and
/// nothing runs there; `allowed(cpu)` whether the task may run there. On an asymmetric
/// machine the kernel scans with select_idle_capacity (smp/capacity.hpp) from `target`
/// instead, after select_idle_cache_hot() with the fit test, and SIS_UTIL plays no part.
/// @pre 0 <= prev, target < nr_cpus.
/// @par Complexity O(nr_cpus) calls of each callable at most.
template <class Allowed, class UsableIdle>
constexpr int select_idle_sibling(int nr_cpus, int prev, int target, int& recent_used_cpu, int scan_depth,
                                  Allowed&& allowed, UsableIdle&& usable_idle) noexcept {
  const int hot = select_idle_cache_hot(nr_cpus, prev, target, recent_used_cpu, usable_idle,
                                        [](int) noexcept { return true; });
  if (hot >= 0) return hot;
  const int found = select_idle_cpu(nr_cpus, target, scan_depth, allowed, usable_idle);
  return found >= 0 ? found : target;
}

/// select_idle_sibling() with an unlimited scan (SIS_UTIL off, or an idle LLC): every CPU may
/// be looked at, so `usable_idle` alone (which includes the affinity test) decides.
/// @pre 0 <= prev, target < nr_cpus.
/// @par Complexity O(nr_cpus) calls of `usable_idle` at most.
template <class UsableIdle>
constexpr int select_idle_sibling(int nr_cpus, int prev, int target, int& recent_used_cpu,
                                  UsableIdle&& usable_idle) noexcept {
  return select_idle_sibling(nr_cpus, prev, target, recent_used_cpu, nr_cpus, [](int) noexcept { return true; },
                             usable_idle);
}

}  // namespace schedcore

#endif
