/// @file
/// @brief `cfs_bandwidth`: a task group's CPU bandwidth pool (cgroup v2 `cpu.max` and
/// `cpu.max.burst`; v1's cpu.cfs_quota_us, cfs_period_us, cfs_burst_us), shared by the group's
/// queues on every CPU.
///
/// @par What it is
/// CFS bandwidth control (Linux 3.2, Paul Turner et al., "CPU bandwidth control for CFS", OLS
/// 2010) caps a group at `quota` ns of CPU time per `period`, summed over all CPUs: quota 50 ms
/// per 100 ms is half a CPU, 200 ms per 100 ms two CPUs. The pool holds what is left of the
/// current period. Each CPU's queue of the group draws from it in slices (`slice`, the sysctl
/// sched_cfs_bandwidth_slice_us, 5 ms) into a local budget (the kernel's
/// `cfs_rq->runtime_remaining`) and charges its run time there, so that the pool, which all
/// CPUs share, is touched once per slice and not at every tick. A queue whose budget runs out
/// while the pool is empty is *throttled*: the group's node leaves its parent until the period
/// ends (`group_policy` does this part; policy/group.hpp). At each period boundary the pool is
/// refilled by `quota`, up to `quota + burst` (burst, 5.14, f4183717b370 "Introduce the
/// burstable CFS controller", lets a group bank what it left unused for a later burst).
///
/// @par Rules modelled (kernel/sched/fair.c and core.c, 5.14+)
/// - `configure` is tg_set_cfs_bandwidth: period within [1 ms, 1 s] (min_cfs_quota_period,
///   max_cfs_quota_period); quota at least 1 ms and at most max_cfs_runtime ((2^44 − 1) µs,
///   MAX_BW), or `unlimited` ("max", RUNTIME_INF); burst at most the quota, quota + burst at
///   most max_cfs_runtime, and 0 when unlimited (stricter than 5.14's text, which accepts a
///   burst with "max" and never uses it). On success the period boundaries passed under the old
///   limit are refilled first (the kernel's period timer ran at each of them), then the pool is
///   refilled once (__refill_cfs_bandwidth_runtime: + quota, capped at quota + burst, a burst
///   counted against the last refill's level; nothing for "max", which keeps the pool as it
///   is) and every CPU's budget is reset to 0 (the `generation` counter tells each queue so).
///   The periods start again at the group's next draw (the kernel's timer keeps its old grid).
/// - `acquire` is __assign_cfs_rq_runtime: min(pool, wanted) when the pool holds anything,
///   else nothing; everything wanted when unlimited.
/// - The refill (__refill_cfs_bandwidth_runtime): pool += quota, capped at quota + burst; a
///   period in which more than the quota was drawn counts as a burst (`nr_bursts`,
///   `burst_time`, cpu.stat's nr_bursts and burst_usec).
/// - Since 5.4 (de53fd7aedb1, "Fix low cpu usage with high throttling by removing expiration
///   of cpu-local slices") a CPU's local budget does not expire at the period's end; nor here.
///
/// @par The period timer, lazily
/// The kernel's period timer starts at the group's first draw (start_cfs_bandwidth), refills
/// the pool every period while the group is busy and stops after a period in which nothing
/// was drawn; it is restarted on the old grid (hrtimer_forward_now) by the next draw, without a
/// refill. This pool is refilled when it is next used (`refill_to(now)`: all the period
/// boundaries passed since, each adding the quota under the cap, up to the one where the timer
/// stopped; none after it), which gives the same pool on the same grid, since burst <= quota
/// makes two refills reach the cap from any level the idle timer could have left. (Budget that
/// queues give back while the timer is stopped stays in the pool, above the cap if it comes to
/// that, until the timer's next refill after the next draw: as in the kernel.) The
/// boundaries are `first draw + k · period`, so a group banks nothing before it first runs
/// (the kernel's first grid is aligned to its timer's zero instead; a run started at another
/// clock origin schedules the same here). No timer runs while no queue is throttled; a
/// throttled queue wakes at the next boundary (`next_refill`), which
/// `group_policy::next_timer` reports.
///
/// @par The slack timer
/// A queue left empty gives back its budget above 1 ms (min_cfs_rq_runtime; `give_back`,
/// __return_cfs_rq_runtime). When that leaves the pool holding more than a slice while some
/// queue of the group is throttled, the slack timer is armed `slack_period` (5 ms) later
/// (start_cfs_slack_bandwidth), unless the period ends within 7 ms (slack_period +
/// `min_expiration`) or it is armed already. When it fires, unless the period ends within 2 ms,
/// a pool still holding more than a slice is handed out to the throttled queues, each taking
/// what it overran + 1 ns as at a period boundary (do_sched_cfs_slack_timer,
/// distribute_cfs_runtime). The pool only keeps the timer: `slack_timer` says when it fires,
/// and the first throttled queue to see it fire (`group_policy::timer` on any CPU) decides the
/// round with `fire_slack`; every queue throttled by then takes its part from its own CPU's
/// timer at that instant (`slack_round` tells each queue a round it has not yet seen).
///
/// @par Not modelled
/// - __cfs_schedulable's check that a v1 child's quota/period does not exceed its parent's
///   (cgroup v2 has no such check; the hierarchy throttles at both levels anyway).
/// - Locking: the kernel's cfs_b->lock is the caller's (one pool is shared by every CPU's
///   queue of the group).
///
/// @par Complexity
/// Every operation is O(1); `refill_to` divides once when whole periods have passed.
#ifndef SCHEDCORE_POLICY_CFS_BANDWIDTH_HPP
#define SCHEDCORE_POLICY_CFS_BANDWIDTH_HPP

#include "schedcore/core/errc.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/types.hpp"

namespace schedcore {

/// A task group's bandwidth pool: quota per period, shared by the group's queues on all CPUs.
/// Owned by the caller (one per group, not per CPU); attach it to each CPU's group with
/// `group_policy::set_group_bandwidth`. Unlimited until configured.
class cfs_bandwidth {
 public:
  /// Quota value meaning "no limit" (cgroup v2's "max", the kernel's RUNTIME_INF).
  static constexpr duration_ns unlimited = -1;
  /// Default period, 100 ms (default_cfs_period).
  static constexpr duration_ns default_period = msec(100);
  /// Shortest period and smallest quota, 1 ms (min_cfs_quota_period).
  static constexpr duration_ns min_period = msec(1);
  /// Longest period, 1 s (max_cfs_quota_period).
  static constexpr duration_ns max_period = sec(1);
  /// Largest quota, and largest quota + burst: (2^44 − 1) µs (max_cfs_runtime = MAX_BW µs).
  static constexpr duration_ns max_runtime = ((s64{1} << 44) - 1) * 1000;
  /// Default slice drawn from the pool at a time, 5 ms (sched_cfs_bandwidth_slice_us).
  static constexpr duration_ns default_slice = msec(5);
  /// Budget a queue keeps when it goes empty; the rest goes back to the pool (min_cfs_rq_runtime).
  static constexpr duration_ns min_local_runtime = msec(1);
  /// How long returned budget gathers before the slack timer hands it out, ns
  /// (cfs_bandwidth_slack_period).
  static constexpr duration_ns slack_period = msec(5);
  /// No slack is handed out this close to the period's end, ns (min_bandwidth_expiration).
  static constexpr duration_ns min_expiration = msec(2);

  /// Sets the limit: `quota` ns per `period` ns (`unlimited` for none), plus `burst` ns that
  /// may be banked from unused quota. Refuses what tg_set_cfs_bandwidth refuses (see the file
  /// comment) with `errc::out_of_range`, changing nothing. On success the pool gains `quota`
  /// (up to quota + burst), the periods start again at the next draw, and every CPU's budget is reset
  /// (`generation` changes).
  errc configure(duration_ns quota, duration_ns period, duration_ns burst, sched_time now) noexcept {
    if (period < min_period || period > max_period) return errc::out_of_range;
    if (quota == unlimited) {
      if (burst != 0) return errc::out_of_range;
    } else if (quota < min_period || quota > max_runtime || burst < 0 || burst > quota ||
               burst > max_runtime - quota) {
      return errc::out_of_range;
    }
    if (started_) refill_to(now);  // the period timer's refills under the old limit
    quota_ = quota;
    period_ = period;
    burst_ = burst;
    if (quota != unlimited) refill_once();  // "max" returns from the refill: the pool stays
    configured_at_ = now;
    next_refill_ = now + period;
    started_ = false;
    active_ = false;
    ++generation_;
    return errc::ok;
  }
  /// Sets the slice drawn at a time (sched_cfs_bandwidth_slice_us: at least 1 µs; here at most
  /// `max_period`). Refuses other values with `errc::out_of_range`.
  errc set_slice(duration_ns slice) noexcept {
    if (slice < usec(1) || slice > max_period) return errc::out_of_range;
    slice_ = slice;
    return errc::ok;
  }

  /// Whether a quota is set (not `unlimited`).
  constexpr bool limited() const noexcept { return quota_ != unlimited; }
  /// Quota per period, ns, or `unlimited`.
  constexpr duration_ns quota() const noexcept { return quota_; }
  /// Period, ns.
  constexpr duration_ns period() const noexcept { return period_; }
  /// Burst, ns.
  constexpr duration_ns burst() const noexcept { return burst_; }
  /// Slice drawn at a time, ns.
  constexpr duration_ns slice() const noexcept { return slice_; }
  /// What the pool holds, ns, as of its last refill (call `refill_to` first for "now").
  constexpr duration_ns runtime() const noexcept { return runtime_; }
  /// When it was last configured (from then on a running group is charged against that limit).
  constexpr sched_time configured_at() const noexcept { return configured_at_; }
  /// The next period boundary, when the pool is refilled (meaningful once the first draw has
  /// started the periods).
  constexpr sched_time next_refill() const noexcept { return next_refill_; }
  /// Changes at every successful `configure`; each CPU's queue keeps the value it last saw and
  /// resets its budget when it differs.
  constexpr u32 generation() const noexcept { return generation_; }

  /// Refills the pool for every period boundary up to `now` (the kernel's period timer). O(1).
  void refill_to(sched_time now) noexcept {
    if (!limited()) return;
    if (!started_) {  // start_cfs_bandwidth: the first draw starts the period timer
      started_ = true;
      next_refill_ = now + period_;
      return;
    }
    if (now < next_refill_) return;
    const u64 periods = static_cast<u64>(now - next_refill_) / static_cast<u64>(period_) + 1;
    next_refill_ += static_cast<duration_ns>(periods * static_cast<u64>(period_));
    // The timer stopped at an earlier boundary (its pool refilled to the cap then): nothing
    // refills until the next draw restarts it on this grid.
    if (!active_) return;
    count_periods(periods);
    refill_once();  // what was drawn beyond the quota in the period just ended is a burst
    // Later refills (periods with nothing drawn) only reach the cap sooner: two refills of
    // quota >= burst reach quota + burst from any level >= 0.
    const duration_ns cap = quota_ + burst_;
    if (periods > 1 && runtime_ < cap) runtime_ = runtime_ + quota_ < cap ? runtime_ + quota_ : cap;
    runtime_snap_ = runtime_;
  }
  /// Draws up to `want` ns (> 0) from the pool, refilled up to `now` first; returns what it
  /// gave: `want` when unlimited, else min(pool, want), 0 when the pool is empty. O(1).
  duration_ns acquire(duration_ns want, sched_time now) noexcept {
    if (want <= 0) return 0;
    if (!limited()) return want;
    refill_to(now);
    active_ = true;  // start_cfs_bandwidth
    if (runtime_ <= 0) return 0;
    const duration_ns amount = want < runtime_ ? want : runtime_;
    runtime_ -= amount;
    idle_ = false;
    return amount;
  }
  /// Returns `amount` ns of a queue's unused budget to the pool at `now`
  /// (__return_cfs_rq_runtime), and arms the slack timer when the pool then holds more than a
  /// slice while a queue of the group is throttled (start_cfs_slack_bandwidth). O(1).
  void give_back(duration_ns amount, sched_time now) noexcept {
    if (!limited() || amount <= 0) return;
    refill_to(now);  // the grid up to date: the boundaries passed are the period timer's
    runtime_ += amount;
    if (runtime_ <= slice_ || throttled_queues_ == 0) return;
    if (refresh_within(now, slack_period + min_expiration)) return;  // the refill comes first
    // An armed timer is not pushed back. One already due that no queue saw fire (every queue
    // came back before it) fired with nobody to hand to: it is armed again.
    if (slack_armed_ && now < slack_at_) return;
    slack_armed_ = true;
    slack_at_ = now + slack_period;
  }
  /// When the armed slack timer fires (false: not armed). O(1).
  bool slack_timer(sched_time& at) const noexcept {
    if (slack_armed_) at = slack_at_;
    return slack_armed_;
  }
  /// The slack timer fires if it is armed and due at `now` (do_sched_cfs_slack_timer): it is
  /// disarmed, and unless the period ends within `min_expiration` a pool holding more than a
  /// slice opens a distribution round (`slack_round` changes); the throttled queues then take
  /// what they overran + 1 ns, as at a boundary. Idempotent for a timer already fired. O(1).
  void fire_slack(sched_time now) noexcept {
    if (!slack_armed_ || now < slack_at_) return;
    slack_armed_ = false;
    if (!limited() || refresh_within(slack_at_, min_expiration) || runtime_ <= slice_) return;
    ++slack_rounds_;
  }
  /// Distribution rounds the slack timer has opened so far; a throttled queue that has not seen
  /// the latest may draw (`group_policy` keeps the round it last saw per queue).
  constexpr u64 slack_round() const noexcept { return slack_rounds_; }
  /// Queues of the group throttled now, on all CPUs (the kernel's throttled_cfs_rq list).
  constexpr u32 throttled_queues() const noexcept { return throttled_queues_; }

  /// Throttle events over all CPUs (a queue running out with the pool empty). cgroup's
  /// cpu.stat nr_throttled counts periods instead (`nr_throttled_periods`); the two agree when
  /// one CPU throttles once per period.
  constexpr u64 nr_throttled() const noexcept { return nr_throttled_; }
  /// Periods the period timer has ended (cpu.stat nr_periods): every boundary while some queue
  /// draws or waits throttled, and the one or two after the last draw (the timer stops at the
  /// end of a period with no draw and no throttled queue: do_sched_cfs_period_timer's idle).
  constexpr u64 nr_periods() const noexcept { return nr_periods_; }
  /// Of those, the periods that ended with a queue throttled (cpu.stat nr_throttled).
  constexpr u64 nr_throttled_periods() const noexcept { return nr_throttled_periods_; }
  /// Time the group's queues spent throttled, summed over CPUs, ns (cpu.stat throttled_usec),
  /// counting throttles that have ended.
  constexpr duration_ns throttled_time() const noexcept { return throttled_time_; }
  /// Periods in which more than the quota was drawn (cpu.stat nr_bursts).
  constexpr u64 nr_bursts() const noexcept { return nr_bursts_; }
  /// What was drawn beyond the quota in those periods, ns (cpu.stat burst_usec).
  constexpr duration_ns burst_time() const noexcept { return burst_time_; }
  /// Records a throttle (called by `group_policy`).
  void note_throttle() noexcept {
    ++nr_throttled_;
    ++throttled_queues_;
  }
  /// Records the end of a throttle that lasted `d` ns (called by `group_policy`).
  void note_unthrottle(duration_ns d) noexcept {
    if (d > 0) throttled_time_ += d;
    if (throttled_queues_ != 0) --throttled_queues_;
  }

 private:
  /// The period timer at `k` boundaries passed with this state (do_sched_cfs_period_timer,
  /// each firing): nr_periods += 1 per boundary while active; with a queue throttled it also
  /// counts a throttled period (and distribution follows); else the first boundary after a
  /// period with a draw marks the pool idle and the next one, still idle, stops the timer
  /// until the next draw (start_cfs_bandwidth). O(1).
  void count_periods(u64 k) noexcept {
    if (!active_) return;
    if (throttled_queues_ != 0) {
      nr_periods_ += k;
      nr_throttled_periods_ += k;
      idle_ = false;
      return;
    }
    if (idle_ || k >= 2) {
      nr_periods_ += idle_ ? 1 : 2;
      active_ = false;
      return;
    }
    nr_periods_ += 1;
    idle_ = true;
  }
  /// __refill_cfs_bandwidth_runtime with a quota: + quota; a level below the last refill's
  /// (runtime_snap) means more than the quota was drawn since, a burst; then capped at
  /// quota + burst (which also cuts what queues gave back beyond it).
  void refill_once() noexcept {
    runtime_ += quota_;
    const duration_ns beyond = runtime_snap_ - runtime_;
    if (beyond > 0) {
      ++nr_bursts_;
      burst_time_ += beyond;
    }
    if (runtime_ > quota_ + burst_) runtime_ = quota_ + burst_;
    runtime_snap_ = runtime_;
  }
  /// runtime_refresh_within: the next refill is less than `within` ns after `now` (or due).
  constexpr bool refresh_within(sched_time now, duration_ns within) const noexcept {
    return started_ && next_refill_ - now < within;
  }

  duration_ns quota_ = unlimited;       // ns per period, or unlimited
  duration_ns period_ = default_period;  // ns
  duration_ns burst_ = 0;                // ns banked at most beyond the quota
  duration_ns slice_ = default_slice;    // ns drawn at a time
  duration_ns runtime_ = 0;              // what the pool holds, ns (may not go below 0)
  duration_ns runtime_snap_ = 0;         // the pool after the last refill (burst accounting)
  sched_time configured_at_{};           // when the limit was last set
  sched_time next_refill_{};             // the next period boundary
  bool started_ = false;                 // the periods have started (at the first draw)
  u32 generation_ = 0;                   // bumped by configure
  u64 nr_throttled_ = 0;
  duration_ns throttled_time_ = 0;
  u64 nr_bursts_ = 0;
  duration_ns burst_time_ = 0;
  u32 throttled_queues_ = 0;             // queues throttled now (every CPU)
  bool active_ = false;                  // the period timer runs (period_active)
  bool idle_ = false;                    // no draw since the last boundary (cfs_b->idle)
  u64 nr_periods_ = 0;                   // cpu.stat nr_periods
  u64 nr_throttled_periods_ = 0;         // cpu.stat nr_throttled
  bool slack_armed_ = false;             // the slack timer is armed (slack_started)
  sched_time slack_at_{};                // when it fires
  u64 slack_rounds_ = 0;                 // distributions it has opened
};

}  // namespace schedcore

#endif
