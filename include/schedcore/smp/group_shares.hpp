/// @file
/// @brief A task group's weight on one CPU (Linux's `calc_group_shares`): the group's shares
/// divided among the CPUs in proportion to the load it has on each.
///
/// @par Implementation notes
/// - Source: the kernel's `calc_group_shares` (`kernel/sched/fair.c`, the 4.15+ form), as
///   described in docs/guides/group-scheduling.md: with `load = max(queued weight, PELT
///   load_avg)` of the group's queue on this CPU and `tg_load` the group's load summed over
///   every CPU (each CPU's last published PELT load_avg, `tg->load_avg`), the weight is
///   `shares x load / (tg_load - this CPU's published part + load)`, clamped to
///   `[MIN_SHARES, shares]`. Taking the larger of the instantaneous and the average load lets
///   a CPU where the group just became busy claim its part at once, while a CPU where it
///   sleeps briefly keeps most of its part.
/// - One difference from 64-bit kernels: there the shares are scaled (<< 10) and MIN_SHARES is
///   not, so the floor is 2/1024 of a nice-0 weight ("MIN_SHARES has to be unscaled here to
///   support per-CPU partitioning of a group with small tg->shares value"). Weights here are
///   unscaled, as on 32-bit kernels and as the policies take them (eevdf's least weight is 2),
///   so the floor is 2: a group of cpu.weight 1 (shares 10) with a hog on each of 64 CPUs
///   weighs 2 on each, where a 64-bit kernel gives it 0.156. Only groups whose shares split
///   below 2 per CPU are affected.
/// - Freestanding, integer only; one 64-bit division (mul_div_u64, exact, no overflow).
/// - Complexity O(1); the caller sums `tg_load` over CPUs (the kernel keeps it in an atomic,
///   refreshed when a CPU's load moved by more than 1/64).
#ifndef SCHEDCORE_SMP_GROUP_SHARES_HPP
#define SCHEDCORE_SMP_GROUP_SHARES_HPP

#include "schedcore/core/arith.hpp"
#include "schedcore/core/types.hpp"

namespace schedcore {

/// `MIN_SHARES`: the least weight a group's entity gets on a CPU (unscaled, nice-0 = 1024).
inline constexpr u32 group_min_shares = 2;
/// `MAX_SHARES`: the most shares a group may be given (2^18).
inline constexpr u32 group_max_shares = u32{1} << 18;

/// The weight of a group's entity on one CPU.
/// @param shares           the group's shares (cgroup v2 `cpu.weight` x 1024 / 100), at most
///                         group_max_shares
/// @param queued_weight    the weight queued in the group's queue on this CPU now
///                         (`cfs_rq->load.weight`)
/// @param local_load_avg   that queue's PELT load_avg now
/// @param tg_load          the group's load_avg summed over every CPU as last published
/// @param local_published  this CPU's part of `tg_load` (its load_avg when last published)
/// @return the weight, in [group_min_shares, shares] (shares itself when shares < 2)
constexpr u32 calc_group_shares(u32 shares, u64 queued_weight, u64 local_load_avg, u64 tg_load,
                                u64 local_published) noexcept {
  const u64 load = queued_weight > local_load_avg ? queued_weight : local_load_avg;
  // tg_load holds this CPU's stale part; replace it by the current load (so tg_weight >= load).
  const u64 others = tg_load > local_published ? tg_load - local_published : 0;
  const u64 tg_weight = others + load;
  u64 weight = tg_weight != 0 ? mul_div_u64(load, shares, tg_weight) : 0;
  if (weight < group_min_shares) weight = group_min_shares;
  if (weight > shares) weight = shares;
  return static_cast<u32>(weight);
}

}  // namespace schedcore

#endif  // SCHEDCORE_SMP_GROUP_SHARES_HPP
