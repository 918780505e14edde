/// @file
/// @brief CPU capacity on asymmetric machines (Arm big.LITTLE and DynamIQ, Intel hybrid): does
/// a task's utilisation fit a CPU, is one CPU meaningfully bigger than another, which idle CPU
/// a waking task should take, and when a running task has outgrown its CPU (a "misfit").
///
/// @par The model
/// A CPU's capacity is its throughput relative to the machine's biggest CPU, in [1, 1024]:
/// 1024 for the biggest, about 446 for a Cortex-A53 beside a Cortex-A72 at the same
/// frequency. A task's utilisation (PELT `util_avg`, smp/pelt.hpp, capacity-invariant) is on
/// the same scale: the work it asked for, measured at the biggest CPU's speed. The rules below
/// are Linux's capacity-aware scheduling (Documentation/scheduler/sched-capacity.rst; misfit
/// balancing since 4.20, select_idle_capacity since 5.7):
/// - a utilisation *fits* a capacity when it leaves 20 % headroom: `util x 1280 < capacity x
///   1024` (fair.c's `fits_capacity`, the 80 % margin);
/// - one capacity is *greater* than another only by more than about 5 %: `a x 1024 > b x 1078`
///   (`capacity_greater`), so that CPUs that differ by rounding are treated as equal;
/// - a running task is a *misfit* when it does not fit its CPU and a CPU of greater capacity
///   exists (`update_misfit_status`, `check_misfit_status`); the load balancer of a bigger CPU
///   with spare capacity then pulls it, preempting it if it runs (active balance);
/// - a waking task takes the first idle CPU, in order from the wakeup's target (wake_affine's
///   choice), whose capacity it fits, else the idle CPU of greatest capacity
///   (`select_idle_capacity`).
///
/// With utilisation clamps (smp/uclamp.hpp, Linux 6.x's `util_fits_cpu`) the fit has three
/// answers: 1 fits; 0 does not; -1 fits by utilisation but the boost (`uclamp_min`) asks for
/// more than the CPU can give at all. A cap (`uclamp_max`) at or below the CPU's full
/// capacity makes the task fit whatever its utilisation (it asked not to be treated as
/// bigger), except on the biggest CPUs with no cap (1024 on a 1024 CPU), where that rule
/// would hide real saturation. The boost is compared with the full capacity, without
/// headroom, and only when the task fits otherwise and its utilisation is below the boost.
/// select_idle_capacity then prefers a CPU that fits (1), else the biggest of those whose only
/// shortfall is the boost (-1), else the biggest idle CPU (0).
///
/// @par Implementation notes
/// Integer only, 64-bit products (no overflow for any 32-bit utilisation or capacity). The
/// capacity other classes take (`capacity_of` against `arch_scale_cpu_capacity`) and thermal
/// pressure are parameters of util_fits_cpu() only; the other tests take one capacity.
/// Energy-aware placement is the caller's (smp/energy_model.hpp gives the estimates).
/// Complexity: every test O(1), select_idle_capacity O(number of CPUs).
#ifndef SCHEDCORE_SMP_CAPACITY_HPP
#define SCHEDCORE_SMP_CAPACITY_HPP

#include "schedcore/core/types.hpp"

namespace schedcore {

/// The biggest CPU's capacity, and the largest a utilisation can read (SCHED_CAPACITY_SCALE).
inline constexpr u32 cpu_capacity_max = 1024;

/// True when utilisation `util` fits a CPU of `capacity` with 20 % headroom
/// (`util x 1280 < capacity x 1024`): 819 fits 1024, 820 does not; 356 fits 446, 357 does not.
constexpr bool util_fits_capacity(u32 util, u32 capacity) noexcept {
  return static_cast<u64>(util) * 1280u < static_cast<u64>(capacity) * 1024u;
}

/// True when capacity `a` exceeds `b` by more than about 5 % (`a x 1024 > b x 1078`): 1024 is
/// greater than 972 but not than 973.
constexpr bool capacity_greater(u32 a, u32 b) noexcept {
  return static_cast<u64>(a) * 1024u > static_cast<u64>(b) * 1078u;
}

/// True when a task of utilisation `util` running on a CPU of `cpu_capacity` is a misfit on a
/// machine whose biggest CPU has `max_capacity`: it does not fit, and a bigger CPU exists.
constexpr bool task_misfit(u32 util, u32 cpu_capacity, u32 max_capacity) noexcept {
  return !util_fits_capacity(util, cpu_capacity) && cpu_capacity < max_capacity;
}

/// The clamped fit (Linux 6.x `util_fits_cpu`): whether a task or CPU of utilisation `util`
/// with effective clamps `uclamp_min` and `uclamp_max` (smp/uclamp.hpp; 0 and 1024 without
/// clamps) fits a CPU whose capacity left for the fair class is `capacity` (capacity_of), whose
/// full capacity is `capacity_orig` (arch_scale_cpu_capacity) and whose thermal pressure is
/// `thermal_pressure` (both in capacity units).
/// @pre `thermal_pressure <= capacity_orig`, as the kernel keeps it (its unsigned difference
/// would wrap; here it is floored at 0, so a boost above 0 then answers -1).
/// @return 1 fits; 0 does not; -1 fits but `uclamp_min` exceeds `capacity_orig -
/// thermal_pressure` while `util` is below it (the boost cannot be met here).
/// With uclamp_min 0 and uclamp_max 1024 the result is util_fits_capacity(util, capacity) (0 or 1).
/// @par Examples (capacity 446 and 1024, no pressure)
/// util 600, max 400 on 446: 1 (capped below the CPU's capacity); util 600, max 1024 on 1024:
/// 1 (600 fits 1024); util 900, max 1024 on 1024: 0 (no cap on the biggest CPU hides
/// nothing); util 100, min 512 on 446: -1; util 100, min 512 on 1024: 1.
constexpr int util_fits_cpu(u32 util, u32 uclamp_min, u32 uclamp_max, u32 capacity, u32 capacity_orig,
                            u32 thermal_pressure = 0) noexcept {
  bool fits = util_fits_capacity(util, capacity);
  // A cap at or below the CPU's full capacity forces a fit, except no cap at all on a CPU of
  // the largest possible capacity (there is nowhere bigger to go, and saturation must show).
  const bool uncapped_on_biggest = capacity_orig == cpu_capacity_max && uclamp_max == cpu_capacity_max;
  if (!uncapped_on_biggest && uclamp_max <= capacity_orig) fits = true;
  if (!fits) return 0;
  const u32 boost = uclamp_min < uclamp_max ? uclamp_min : uclamp_max;  // an inverted pair: the cap wins
  const u32 usable = capacity_orig > thermal_pressure ? capacity_orig - thermal_pressure : 0;
  if (util < boost && boost > usable) return -1;
  return 1;
}

/// The idle CPU a waking task of utilisation `util` with effective clamps `uclamp_min` and
/// `uclamp_max` should take on an asymmetric machine (Linux 6.x select_idle_capacity): the
/// first of CPUs `target`, `target + 1`, ... (wrapping over `nr_cpus`) for which
/// `usable_idle(cpu)` holds and util_fits_cpu() says 1; else, among the usable idle CPUs, the
/// one of greatest capacity of those where only the boost falls short (-1), else of all (0),
/// the first in that order on a tie; -1 when no CPU is usable and idle. `usable_idle` says
/// whether the task may run there (affinity) and nothing runs there; `capacity(cpu)` is the
/// CPU's capacity (capacity_of and arch_scale_cpu_capacity alike: no pressure). Both
/// callables take an `int` CPU and are noexcept.
/// @pre 0 <= target < nr_cpus (a target outside that range scans from CPU 0).
/// @par Complexity O(nr_cpus) calls of each callable at most; no division.
template <class UsableIdle, class Capacity>
constexpr int select_idle_capacity(int nr_cpus, int target, u32 util, u32 uclamp_min, u32 uclamp_max,
                                   UsableIdle&& usable_idle, Capacity&& capacity) noexcept {
  if (target < 0 || target >= nr_cpus) target = 0;
  int best = -1;
  int best_fits = 0;  // -1 (boost short) ranks above 0 (does not fit)
  u32 best_capacity = 0;
  int cpu = target;
  for (int seen = 0; seen < nr_cpus; ++seen) {
    if (usable_idle(cpu)) {
      const u32 c = capacity(cpu);
      const int fits = util_fits_cpu(util, uclamp_min, uclamp_max, c, c);
      if (fits > 0) return cpu;
      if (best < 0 || fits < best_fits || (fits == best_fits && c > best_capacity)) {
        best = cpu;
        best_fits = fits;
        best_capacity = c;
      }
    }
    if (++cpu == nr_cpus) cpu = 0;
  }
  return best;
}

/// The idle CPU a waking task of utilisation `util` should take on an asymmetric machine: the
/// first of CPUs `target`, `target + 1`, ... (wrapping over `nr_cpus`) for which
/// `usable_idle(cpu)` holds and whose `capacity(cpu)` the task fits; when none fits, the
/// usable idle CPU of greatest capacity (the first such in that order); -1 when no CPU is
/// usable and idle. The unclamped form of the overload above (clamps 0 and 1024).
/// @pre 0 <= target < nr_cpus (a target outside that range scans from CPU 0).
/// @par Complexity O(nr_cpus) calls of each callable at most; no division.
template <class UsableIdle, class Capacity>
constexpr int select_idle_capacity(int nr_cpus, int target, u32 util, UsableIdle&& usable_idle,
                                   Capacity&& capacity) noexcept {
  return select_idle_capacity(nr_cpus, target, util, 0, cpu_capacity_max, usable_idle, capacity);
}

}  // namespace schedcore

#endif
