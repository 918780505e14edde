/// @file
/// @brief A performance domain's frequency table and what a scheduler derives from it: the
/// frequency schedutil asks for at a given utilisation, and the energy a placement costs (the
/// Energy Model that Linux's energy-aware scheduling reads).
///
/// @par The model
/// A *performance domain* is a set of CPUs that share one clock (a cluster of a big.LITTLE
/// system, one core of a machine with per-core DVFS). Its *performance states* (OPPs) are
/// (frequency, power) pairs in ascending frequency; `power` is what one busy CPU of the
/// domain draws at that frequency. Every CPU of the domain has the same `capacity` at the top
/// frequency (smp/capacity.hpp's scale, 1..1024); at frequency f it does `capacity x f / f_max`
/// units of work per unit of time. Utilisation (PELT `util_avg`, smp/pelt.hpp) is frequency-
/// and capacity-invariant: work measured at the biggest CPU's top speed.
///
/// Facts from Linux (Documentation/power/energy-model.rst, Documentation/scheduler/
/// sched-energy.rst, kernel/sched/cpufreq_schedutil.c), each used below:
/// - **cost** of a state = `power x f_max / f` (em_create_perf_table): the energy of one unit
///   of work, up to a constant, since a CPU busy at f for a time t does `f x t` of it;
/// - a state is **inefficient** when a faster state costs no more (5.16+,
///   EM_PERF_STATE_INEFFICIENT): running faster then saves energy and time, so frequency
///   selection skips it (EM_PERF_DOMAIN_SKIP_INEFFICIENCIES, CPUFREQ_RELATION_E);
/// - **headroom**: schedutil and the energy estimate both ask for 25 % more than the
///   utilisation (`map_util_perf`: util + util / 4), so that a CPU runs below saturation;
/// - **schedutil**'s frequency for a CPU utilisation u (frequency-invariant, so the reference
///   is f_max, not the current frequency): `f = f_max x (1.25 u) / capacity`, resolved to
///   the lowest efficient state at or above f (cpufreq_driver_resolve_freq,
///   CPUFREQ_RELATION_L), the top state if none;
///   a domain's frequency follows its busiest CPU (sugov_next_freq_shared);
/// - **energy estimate** of a domain whose CPUs have utilisations u_i (em_cpu_energy, 6.0 to
///   6.7 form): the state s is chosen from the largest, `max_util`, as schedutil would (with
///   the headroom, clamped to `allowed_capacity`); each CPU is busy a fraction u_i / cap_s of
///   the time, cap_s = capacity x f_s / f_max, at power p_s, so the domain draws
///   `sum_i p_s x u_i / cap_s = cost_s x sum_util / capacity`.
///
/// @par Implementation notes
/// Integer only, caller-owned tables (no heap), every function noexcept. Units: kHz and µW as
/// in the kernel (any consistent pair works: the estimate is relative). 64-bit arithmetic
/// that cannot wrap for any 32-bit powers, frequencies and utilisations: `power x f_max` fits;
/// a utilisation is clamped to the capacity before it becomes a frequency (as
/// effective_cpu_util does); `cost x sum_util / capacity` is computed as quotient and
/// remainder of `cost / capacity`, exact wherever the result fits in 64 bits and saturated
/// (~0) where it does not (only with skip_inefficient off can a cost exceed 2^32). Rounding
/// follows the kernel's order of operations (each division floors). Not modelled: the 6.8+
/// reformulation by performance level (same states and estimates up to rounding), uclamp and
/// thermal pressure themselves (their effect comes in as the caller's `allowed_capacity` cap,
/// which the estimate applies), idle states (the Energy Model has none), runtime-modified
/// tables. Complexity: init O(states); lookups O(states), which is what the kernel does
/// (tables hold 5 to 30 states).
#ifndef SCHEDCORE_SMP_ENERGY_MODEL_HPP
#define SCHEDCORE_SMP_ENERGY_MODEL_HPP

#include "schedcore/core/errc.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/smp/capacity.hpp"

namespace schedcore {

/// One performance state (OPP) of a performance domain.
struct em_perf_state {
  u32 frequency_khz = 0;     ///< kHz, > 0, strictly ascending within the table
  u32 power_uw = 0;          ///< µW drawn by one CPU of the domain busy at this frequency, > 0
  u64 cost = 0;              ///< power_uw x f_max / frequency_khz: set by em_perf_domain_init
  bool inefficient = false;  ///< a faster state costs no more: set by em_perf_domain_init
};

/// A performance domain: its states (caller-owned, ascending frequency) and the capacity each
/// of its CPUs has at the top state. Valid only after em_perf_domain_init().
struct em_perf_domain {
  em_perf_state* states = nullptr;  ///< the table, `nr_states` entries
  u32 nr_states = 0;                ///< at least 1
  u32 capacity = 0;                 ///< capacity of one CPU at the top frequency, 1..1024
  bool skip_inefficient = true;     ///< frequency selection skips inefficient states (the kernel's default)
};

/// Validates `states[0 .. nr_states)` and binds `pd` to it: frequencies strictly ascending and
/// non-zero, powers non-zero, `capacity` in 1..1024. Fills each state's `cost` and
/// `inefficient` flag (a state is inefficient when some faster state's cost is not higher).
/// @return errc::ok; errc::invalid_argument (no states, a zero frequency or power, a capacity
/// outside 1..1024) or errc::inverted (frequencies not strictly ascending), and then neither
/// `pd` nor the table changes. @par Complexity O(nr_states).
inline errc em_perf_domain_init(em_perf_domain& pd, em_perf_state* states, u32 nr_states, u32 capacity) noexcept {
  if (states == nullptr || nr_states == 0 || capacity == 0 || capacity > cpu_capacity_max) return errc::invalid_argument;
  for (u32 i = 0; i < nr_states; ++i) {
    if (states[i].frequency_khz == 0 || states[i].power_uw == 0) return errc::invalid_argument;
    if (i > 0 && states[i].frequency_khz <= states[i - 1].frequency_khz) return errc::inverted;
  }
  const u64 fmax = states[nr_states - 1].frequency_khz;
  u64 cheapest_above = ~static_cast<u64>(0);  // the lowest cost among the faster states seen so far
  for (u32 i = nr_states; i-- > 0;) {
    em_perf_state& s = states[i];
    s.cost = static_cast<u64>(s.power_uw) * fmax / s.frequency_khz;
    s.inefficient = s.cost >= cheapest_above;
    if (!s.inefficient) cheapest_above = s.cost;
  }
  pd.states = states;
  pd.nr_states = nr_states;
  pd.capacity = capacity;
  return errc::ok;
}

/// The top frequency of `pd`, kHz. @pre pd initialised.
constexpr u32 em_max_khz(const em_perf_domain& pd) noexcept { return pd.states[pd.nr_states - 1].frequency_khz; }

/// A utilisation with schedutil's 25 % headroom: `util + util / 4` (map_util_perf).
constexpr u64 util_with_headroom(u64 util) noexcept { return util + (util >> 2); }

/// The frequency, kHz, at which a CPU of `capacity` (at `max_khz`) delivers `util`:
/// `max_khz x util / capacity`, floored (map_util_freq). @pre capacity > 0.
constexpr u64 util_to_khz(u64 util, u32 max_khz, u32 capacity) noexcept {
  return static_cast<u64>(max_khz) * util / capacity;
}

/// The index of the lowest state of `pd` at or above `khz`, skipping inefficient states when
/// `pd.skip_inefficient`; the top state when none is high enough (em_pd_get_efficient_state,
/// cpufreq's CPUFREQ_RELATION_L(E)). The top state is never inefficient.
/// @pre pd initialised. @par Complexity O(nr_states).
constexpr u32 em_state_at_or_above(const em_perf_domain& pd, u64 khz) noexcept {
  for (u32 i = 0; i + 1 < pd.nr_states; ++i) {
    const em_perf_state& s = pd.states[i];
    if (pd.skip_inefficient && s.inefficient) continue;
    if (s.frequency_khz >= khz) return i;
  }
  return pd.nr_states - 1;
}

/// The capacity a CPU of `pd` has at state `index`: `capacity x f / f_max`, floored.
/// @pre pd initialised, index < pd.nr_states.
constexpr u32 em_state_capacity(const em_perf_domain& pd, u32 index) noexcept {
  return static_cast<u32>(static_cast<u64>(pd.capacity) * pd.states[index].frequency_khz / em_max_khz(pd));
}

/// The state schedutil selects for a domain whose busiest CPU has utilisation `util`
/// (frequency-invariant): util plus 25 % headroom, mapped to a
/// frequency against f_max and resolved upwards (get_next_freq). With capacity 1024 and states
/// at 0.5, 1.0 and 2.0 GHz: util 410 asks for exactly 1 000 000 kHz, state 1; util 411 for
/// 1 001 953 kHz, state 2. @pre pd initialised. @par Complexity O(nr_states).
constexpr u32 schedutil_state(const em_perf_domain& pd, u32 util) noexcept {
  // effective_cpu_util first clamps util to the capacity. That cannot change the state (a util
  // at or above the capacity asks for more than f_max either way), but it keeps
  // f_max x 1.25 util within 64 bits for any util.
  const u32 clamped = util < pd.capacity ? util : pd.capacity;
  return em_state_at_or_above(pd, util_to_khz(util_with_headroom(clamped), em_max_khz(pd), pd.capacity));
}

/// Estimated power of domain `pd`, in the table's power unit (µW), when its CPUs' utilisations
/// sum to `sum_util` and the largest is `max_util`: the state is the one schedutil would pick
/// for `max_util` with its headroom, the headroomed value clamped to `allowed_capacity`
/// (thermal capping; pass the capacity for none), and the estimate `cost x sum_util /
/// capacity` (em_cpu_energy). EAS compares this across candidate placements; the product with
/// time is energy. @pre pd initialised. @par Complexity O(nr_states).
constexpr u64 em_pd_energy(const em_perf_domain& pd, u32 max_util, u64 sum_util, u32 allowed_capacity) noexcept {
  u64 wanted = util_with_headroom(max_util);
  if (wanted > allowed_capacity) wanted = allowed_capacity;
  if (wanted > pd.capacity) wanted = pd.capacity;  // f_max either way; keeps f_max x wanted in 64 bits
  const u32 index = em_state_at_or_above(pd, util_to_khz(wanted, em_max_khz(pd), pd.capacity));
  // cost x sum_util / capacity, floored, without the 128-bit product: with cost = q x capacity
  // + r and sum_util = a x capacity + b, it is q x sum_util + r x a + r x b / capacity, where
  // r x a < sum_util and r x b < capacity^2 cannot wrap; only q x sum_util can, and saturates.
  const u64 cost = pd.states[index].cost, cap = pd.capacity;
  const u64 q = cost / cap, r = cost % cap;
  const u64 part = r * (sum_util / cap) + r * (sum_util % cap) / cap;
  const u64 max = ~static_cast<u64>(0);
  if (q != 0 && sum_util > (max - part) / q) return max;
  return q * sum_util + part;
}

}  // namespace schedcore

#endif
