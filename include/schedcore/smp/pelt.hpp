/// @file
/// @brief Per-entity load tracking (PELT): Linux's geometric average of how much of the recent
/// past a task or run queue was runnable (`load_avg`, `runnable_avg`) and running (`util_avg`).
/// The signal behind calc_group_shares, load balancing, schedutil and EAS since Linux 3.8.
///
/// @par The signal
/// Time is cut into periods of 1024 units of 1024 ns (1.048576 ms). A period `n` periods ago
/// counts `y^n` as much as the current one, with `y^32 = 1/2`: what happened 32 periods
/// (33.6 ms) ago counts half. For each period the entity contributes the fraction of it during
/// which it was runnable (or running), times its weight for `load`. An entity runnable for
/// ever sums to `1024 (1 + y + y^2 + ...) = LOAD_AVG_MAX = 47742` (the limit of this integer
/// recurrence, not of the real series, 47788); an average is a sum divided by that maximum
/// (minus the unfinished part of the current period), so a task that always runs has
/// `util_avg = 1024` and `load_avg = its weight`.
///
/// @par Implementation notes
/// - Source: algorithms-modern.md §6 (PELT: periods of 1024 µs, y^32 = 0.5,
///   `runnable_avg_yN_inv[1] = 0xfa83b2da`, LOAD_AVG_MAX 47742, the new-task util rule and the
///   oracles O6.1), the kernel's `kernel/sched/pelt.c` and `sched-pelt.h` as described there:
///   decay by a 32-entry table of `floor((2^32 - 1) y^n)` and a shift per 32 periods; an
///   interval that crosses period boundaries is three segments (the rest of the first
///   period, decayed; the full periods, summed in closed form from LOAD_AVG_MAX; the current
///   period's part, not decayed); averages are refreshed only when a boundary was crossed;
///   attach/detach move an entity's averages into and out of a run queue's on migration.
/// - The decay table was generated for this header with 50-digit decimal arithmetic and is
///   checked entry by entry against an independent extended-precision computation and the
///   reference's 0xfa83b2da (tests/unit/pelt_test.cpp); it equals the kernel's.
/// - CPU-capacity invariance of util as Linux 4.13-5.0 did it (`accumulate_sum`'s
///   `util_sum += contrib * scale_cpu`): the `capacity` argument of the accumulate and update
///   functions (default 1024) scales what running contributes to util, so a task that always
///   runs on a CPU of capacity 512 reads util 512, the work it gets done measured at the
///   biggest CPU's speed. load and runnable are not scaled (4.13-5.0 did scale them by
///   frequency, `cap_scale(contrib, scale_freq)`, and 5.1+ by the PELT clock). Linux 5.1+
///   scales the PELT clock instead (`update_rq_clock_pelt`, clock_pelt): the same averages for
///   a task that leaves its CPU idle some of the time, a different transient otherwise.
/// - Frequency invariance: pass the CPU's current speed, capacity x f / f_max, as `capacity`
///   (the simulator does); util_est and uclamp are `smp/util_est.hpp` and `smp/uclamp.hpp`.
/// - Not modelled: the kernel's `removed` list (a detach here takes effect at once, where the
///   kernel defers it to the next update of the queue).
/// - Integer only, no division on the accumulate path; averages divide by a 32-bit divider
///   (a libgcc call on 32-bit targets, once per period boundary). Time is 64-bit ns and
///   wrap-safe: only differences are used, and a clock that steps back restarts the window.
/// - Complexity: every operation O(1).
#ifndef SCHEDCORE_SMP_PELT_HPP
#define SCHEDCORE_SMP_PELT_HPP

#include "schedcore/core/arith.hpp"
#include "schedcore/core/types.hpp"

namespace schedcore {

/// log2 of the PELT time unit: nanoseconds >> 10 gives units of 1024 ns (about a µs).
inline constexpr unsigned pelt_unit_shift = 10;
/// Units per period (1024 x 1024 ns = 1.048576 ms).
inline constexpr u32 pelt_period_units = 1024;
/// `LOAD_AVG_PERIOD`: periods per half-life (y^32 = 1/2).
inline constexpr u32 pelt_halflife_periods = 32;
/// `LOAD_AVG_MAX`: the sum of an entity runnable for ever.
inline constexpr u32 pelt_sum_max = 47742;
/// `PELT_MIN_DIVIDER`: the divider at the start of a period.
inline constexpr u32 pelt_min_divider = pelt_sum_max - pelt_period_units;
/// `SCHED_CAPACITY_SCALE`: util_avg of an entity that always runs on a full-capacity CPU.
inline constexpr u32 pelt_capacity_scale = 1024;
/// log2 of pelt_capacity_scale.
inline constexpr unsigned pelt_capacity_shift = 10;

/// `runnable_avg_yN_inv[n]` = floor((2^32 - 1) * y^n), y = 2^(-1/32), n in [0, 32).
inline constexpr u32 pelt_decay_factor[pelt_halflife_periods] = {
    0xffffffffu, 0xfa83b2dau, 0xf5257d14u, 0xefe4b99au, 0xeac0c6e6u, 0xe5b906e6u, 0xe0ccdeebu,
    0xdbfbb796u, 0xd744fcc9u, 0xd2a81d91u, 0xce248c14u, 0xc9b9bd85u, 0xc5672a10u, 0xc12c4cc9u,
    0xbd08a39eu, 0xb8fbaf46u, 0xb504f333u, 0xb123f581u, 0xad583ee9u, 0xa9a15ab4u, 0xa5fed6a9u,
    0xa2704302u, 0x9ef5325fu, 0x9b8d39b9u, 0x9837f050u, 0x94f4efa8u, 0x91c3d373u, 0x8ea4398au,
    0x8b95c1e3u, 0x88980e80u, 0x85aac367u, 0x82cd8698u,
};

/// `val * y^periods`, truncated: a shift per 32 periods, then one table multiply. Zero from
/// 63 half-lives on (2017 periods, about 2.1 s), where no 64-bit value survives. `periods = 0`
/// returns `val` unchanged.
constexpr u64 pelt_decay(u64 val, u64 periods) noexcept {
  if (periods == 0) return val;
  if (periods > static_cast<u64>(pelt_halflife_periods) * 63) return 0;
  const u32 n = static_cast<u32>(periods);  // at most 2016 here
  val >>= n / pelt_halflife_periods;
  return mul_u64_u32_shr(val, pelt_decay_factor[n % pelt_halflife_periods], 32);
}

/// What an interval crossing `periods` (>= 1) boundaries adds to a sum, per unit of input:
/// the `d1` units that finished the oldest period, decayed by `periods`; the `periods - 1`
/// full periods in between, `1024 (y + ... + y^(periods-1))`, from LOAD_AVG_MAX in closed
/// form; and the `d3` units of the period now running, undecayed. At most pelt_sum_max.
constexpr u32 pelt_interval_contribution(u64 periods, u32 d1, u32 d3) noexcept {
  const u32 oldest = static_cast<u32>(pelt_decay(d1, periods));
  const u32 full = pelt_sum_max - static_cast<u32>(pelt_decay(pelt_sum_max, periods)) - pelt_period_units;
  return oldest + full + d3;
}

/// One PELT signal (the kernel's `struct sched_avg`): of a task, of a group's entity or of a
/// run queue. Plain data; the functions below update it. Zero-initialised it is an entity or
/// queue that has never run, with its window starting at time 0.
///
/// Invariants (after any update): `period_contrib < 1024`; each `*_avg` is its `*_sum`
/// divided by `pelt_divider()` (times the weight for an entity's load) as of the last period
/// boundary crossed; `last_update_ns` advances in whole units of 1024 ns.
struct pelt_avg {
  u64 last_update_ns = 0;  ///< end of the accounted past, ns (wrap-safe, compared by difference)
  u64 load_sum = 0;        ///< entity: sum of contributions while queued; queue: x queued weight
  u64 runnable_sum = 0;    ///< sum of contributions x runnable count x 1024
  u64 util_sum = 0;        ///< sum of contributions x 1024 while running (see below)
  u32 period_contrib = 0;  ///< units of the current period already accounted, [0, 1024)
  u64 load_avg = 0;        ///< weight x runnable fraction (entity) or queued weight (queue)
  // util_sum is 64-bit where the kernel's is 32: one entity's stays below 47742 x 1024, but a
  // queue that is attached the histories of 88 or more tasks that each ran all the time (a
  // burst of migrations onto one CPU) would pass 2^32.
  u64 runnable_avg = 0;    ///< runnable tasks x 1024 x runnable fraction
  u32 util_avg = 0;        ///< 1024 x running fraction: [0, 1024] for an entity or a CPU's queue
};

/// The divider that turns a sum into an average: LOAD_AVG_MAX less the part of the current
/// period not yet lived (`get_pelt_divider`). In [46718, 47741].
constexpr u32 pelt_divider(const pelt_avg& a) noexcept { return pelt_min_divider + a.period_contrib; }

/// Accounts the time from `a.last_update_ns` to `now_ns` during which the inputs were
/// constant: `load` (an entity: 1 while queued; a queue: its queued weight), `runnable` (a
/// count of runnable tasks) and `running`, on a CPU of `capacity` (1024 for the biggest CPU;
/// running there adds `capacity / 1024` of a unit per unit of time to util; a value above
/// 1024 counts as 1024). With `load == 0` nothing is runnable or running, whatever the other
/// two say (a queue whose last task left while still its `curr`).
/// Sub-unit time stays unaccounted until it completes a unit. A clock that went back restarts
/// the window at `now_ns` and accounts nothing (`___update_load_sum`).
/// @return whether at least one period boundary was crossed (the averages are then stale).
constexpr bool pelt_accumulate(pelt_avg& a, u64 now_ns, u64 load, u64 runnable, bool running,
                               u32 capacity = pelt_capacity_scale) noexcept {
  const u64 elapsed_ns = now_ns - a.last_update_ns;
  if (static_cast<s64>(elapsed_ns) < 0) {
    a.last_update_ns = now_ns;
    return false;
  }
  const u64 units = elapsed_ns >> pelt_unit_shift;
  if (units == 0) return false;
  a.last_update_ns += units << pelt_unit_shift;
  if (load == 0) {
    runnable = 0;
    running = false;
  }
  // Position in periods: the units already in the current period plus those just elapsed.
  const u64 through = units + a.period_contrib;
  const u64 periods = through / pelt_period_units;
  const u32 tail = static_cast<u32>(through % pelt_period_units);
  u32 contribution = static_cast<u32>(units);  // no boundary: all of it is in the current period
  if (periods != 0) {
    a.load_sum = pelt_decay(a.load_sum, periods);
    a.runnable_sum = pelt_decay(a.runnable_sum, periods);
    a.util_sum = pelt_decay(a.util_sum, periods);
    // Only worth the two table multiplies when something is added.
    if (load != 0) contribution = pelt_interval_contribution(periods, pelt_period_units - a.period_contrib, tail);
  }
  a.period_contrib = tail;
  if (load != 0) a.load_sum += load * contribution;
  if (runnable != 0) a.runnable_sum += (runnable * contribution) << pelt_capacity_shift;
  if (running) a.util_sum += static_cast<u64>(contribution) * (capacity < pelt_capacity_scale ? capacity : pelt_capacity_scale);
  return periods != 0;
}

/// Recomputes the averages from the sums (`___update_load_avg`): an entity passes its weight
/// (its load_sum counts time, not weight), a queue passes 1 (its load_sum is weighted).
constexpr void pelt_refresh_averages(pelt_avg& a, u32 load_scale) noexcept {
  const u32 divider = pelt_divider(a);
  a.load_avg = mul_div_u64(a.load_sum, load_scale, divider);
  a.runnable_avg = a.runnable_sum / divider;
  a.util_avg = static_cast<u32>(a.util_sum / divider);  // at most 1024 per running entity
}

/// A task's (or any single entity's) signal up to `now_ns`: queued on a run queue or not,
/// running or not, over the whole interval since its last update; `weight` is its load
/// weight (1024 at nice 0) for load_avg; `capacity` that of the CPU it ran on (see
/// pelt_accumulate). @return whether the averages were refreshed.
constexpr bool pelt_update_entity(pelt_avg& a, u64 now_ns, u32 weight, bool queued, bool running,
                                  u32 capacity = pelt_capacity_scale) noexcept {
  if (!pelt_accumulate(a, now_ns, queued ? 1u : 0u, queued ? 1u : 0u, running, capacity)) return false;
  pelt_refresh_averages(a, weight);
  return true;
}

/// A run queue's signal up to `now_ns` (`__update_load_avg_cfs_rq`): `queued_weight` is the
/// sum of its entities' weights (`cfs_rq->load.weight`), `nr_runnable` their count, `running`
/// whether one of them is the CPU's current, `capacity` the CPU's (see pelt_accumulate).
/// Constant over the interval. @return whether the averages were refreshed.
constexpr bool pelt_update_queue(pelt_avg& q, u64 now_ns, u64 queued_weight, u32 nr_runnable, bool running,
                                 u32 capacity = pelt_capacity_scale) noexcept {
  if (!pelt_accumulate(q, now_ns, queued_weight, nr_runnable, running, capacity)) return false;
  pelt_refresh_averages(q, 1);
  return true;
}

/// Gives a task created now its starting signal (`init_entity_runnable_average` and
/// `post_init_entity_util_avg`): load as if it had always been runnable (its weight), and
/// util half of what the queue `q` leaves of the CPU, or, when the queue has utilisation,
/// its weighted part of it (`q.util_avg x weight / (q.load_avg + 1)`) if smaller, `weight` the
/// plain one (1024 at nice 0) as in kernels that write `se_weight(se)` there; 64-bit kernels
/// that wrote `se->load.weight` multiplied by the scaled weight (x 1024), so their weighted
/// part almost always lost to the cap (a queue at util 300, load 2048: 149 here, 362 there). Successive
/// forks on an idle CPU start at 512, 256, 128... On a CPU of `capacity` below 1024 what the
/// queue leaves is counted from that capacity (`cpu_scale`): a first fork on an idle CPU of
/// capacity 446 starts at 223. Does not attach the task to `q`.
constexpr void pelt_init_new_entity(pelt_avg& t, u32 weight, const pelt_avg& q, u64 now_ns,
                                    u32 capacity = pelt_capacity_scale) noexcept {
  t = pelt_avg{};
  t.last_update_ns = now_ns;
  t.load_avg = weight;
  t.load_sum = pelt_min_divider;  // load_avg = weight at period_contrib 0; attach rebuilds it anyway
  const u32 scale = capacity < pelt_capacity_scale ? capacity : pelt_capacity_scale;
  const u32 spare = q.util_avg < scale ? (scale - q.util_avg) / 2 : 0;
  u32 util = spare;
  if (spare != 0 && q.util_avg != 0) {
    const u64 share = static_cast<u64>(q.util_avg) * weight / (q.load_avg + 1);
    if (share < util) util = static_cast<u32>(share);
  }
  t.util_avg = util;
  t.runnable_avg = util;
  // Sums that give back these averages (period_contrib 0): attach rebuilds them anyway, but an
  // entity that is never attached (one no queue signal follows) keeps them consistent instead
  // of collapsing to 0 at its first period boundary.
  t.util_sum = static_cast<u64>(util) * pelt_min_divider;
  t.runnable_sum = static_cast<u64>(util) * pelt_min_divider;
}

namespace detail_pelt {
/// `x -= y`, floored at zero (`sub_positive`): rounding may leave a queue with a little less
/// than an entity's share of it.
template <class T>
constexpr void sub_floor(T& x, T y) noexcept {
  x = x > y ? static_cast<T>(x - y) : T{0};
}
}  // namespace detail_pelt

/// Adds entity `e` (weight `weight`) to queue `q`'s signal, as the kernel does when a task
/// arrives on a CPU (`attach_entity_load_avg`): the entity is first aligned on the queue's
/// window (same last update, same position in the period), its sums rebuilt from its averages
/// with the queue's divider, then both are added. @pre both are up to date at the same time
/// (update each to the same `now_ns` first); `weight > 0`.
constexpr void pelt_attach(pelt_avg& q, pelt_avg& e, u32 weight) noexcept {
  const u32 divider = pelt_divider(q);
  e.last_update_ns = q.last_update_ns;
  e.period_contrib = q.period_contrib;
  e.util_sum = static_cast<u64>(e.util_avg) * divider;
  e.runnable_sum = e.runnable_avg * divider;
  // The entity's load_sum counts time: load_avg x divider / weight, at least 1 so that a
  // loaded entity never looks idle.
  const u64 weighted = e.load_avg * divider;
  e.load_sum = weight < weighted ? weighted / weight : 1;
  q.load_avg += e.load_avg;
  q.load_sum += static_cast<u64>(weight) * e.load_sum;
  q.runnable_avg += e.runnable_avg;
  q.runnable_sum += e.runnable_sum;
  q.util_avg += e.util_avg;
  q.util_sum += e.util_sum;
}

/// Takes entity `e`'s signal out of queue `q`'s (`detach_entity_load_avg`), as when a task
/// leaves the CPU; rounding can leave less in the queue than the entity holds, so every field
/// is floored at zero, and each sum is kept at least its average x PELT_MIN_DIVIDER (the
/// kernel's guard against a sum that reaches 0 while its average does not: Vincent Guittot's
/// "Relax the sync of ..._sum with ..._avg" series, January 2022, mainline 5.17 and stable backports).
/// @pre both up to date at the same time, `e` attached to `q` earlier.
constexpr void pelt_detach(pelt_avg& q, const pelt_avg& e, u32 weight) noexcept {
  detail_pelt::sub_floor(q.load_avg, e.load_avg);
  detail_pelt::sub_floor(q.load_sum, static_cast<u64>(weight) * e.load_sum);
  detail_pelt::sub_floor(q.runnable_avg, e.runnable_avg);
  detail_pelt::sub_floor(q.runnable_sum, e.runnable_sum);
  detail_pelt::sub_floor(q.util_avg, e.util_avg);
  detail_pelt::sub_floor(q.util_sum, e.util_sum);
  if (q.load_sum < q.load_avg * pelt_min_divider) q.load_sum = q.load_avg * pelt_min_divider;
  if (q.runnable_sum < q.runnable_avg * pelt_min_divider) q.runnable_sum = q.runnable_avg * pelt_min_divider;
  if (q.util_sum < static_cast<u64>(q.util_avg) * pelt_min_divider) q.util_sum = static_cast<u64>(q.util_avg) * pelt_min_divider;
}

}  // namespace schedcore

#endif  // SCHEDCORE_SMP_PELT_HPP
