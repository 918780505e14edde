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
/// - a waking task takes the first idle CPU, in order from its previous one, whose capacity it
///   fits, else the idle CPU of greatest capacity (`select_idle_capacity`).
///
/// @par Implementation notes
/// Integer only, 64-bit products (no overflow for any 32-bit utilisation or capacity). Not
/// modelled: uclamp (the clamped-utilisation variants of the fit), thermal pressure and the
/// capacity other classes take (`capacity_of` vs `arch_scale_cpu_capacity`), energy-aware
/// placement (find_energy_efficient_cpu). Complexity: every test O(1), select_idle_capacity
/// O(number of CPUs).
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

/// The idle CPU a waking task of utilisation `util` should take on an asymmetric machine: the
/// first of CPUs `target`, `target + 1`, ... (wrapping over `nr_cpus`) for which
/// `usable_idle(cpu)` holds and whose `capacity(cpu)` the task fits; when none fits, the
/// usable idle CPU of greatest capacity (the first such in that order); -1 when no CPU is
/// usable and idle. `usable_idle` says whether the task may run there (affinity) and nothing
/// runs there; both callables take an `int` CPU and are noexcept.
/// @pre 0 <= target < nr_cpus (a target outside that range scans from CPU 0).
/// @par Complexity O(nr_cpus) calls of each callable at most; no division.
template <class UsableIdle, class Capacity>
constexpr int select_idle_capacity(int nr_cpus, int target, u32 util, UsableIdle&& usable_idle,
                                   Capacity&& capacity) noexcept {
  if (target < 0 || target >= nr_cpus) target = 0;
  int best = -1;
  u32 best_capacity = 0;
  int cpu = target;
  for (int seen = 0; seen < nr_cpus; ++seen) {
    if (usable_idle(cpu)) {
      const u32 c = capacity(cpu);
      if (util_fits_capacity(util, c)) return cpu;
      if (best < 0 || c > best_capacity) {
        best = cpu;
        best_capacity = c;
      }
    }
    if (++cpu == nr_cpus) cpu = 0;
  }
  return best;
}

}  // namespace schedcore

#endif
