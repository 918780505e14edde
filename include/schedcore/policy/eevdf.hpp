/// @file
/// @brief `eevdf_policy`: Linux 6.6+ EEVDF (Earliest Eligible Virtual Deadline First) with the
/// 6.8+ tree ordering, the fair class of today's kernels (algorithms-modern.md §3).
///
/// @par Implementation notes
/// - Algorithm (Stoica and Abdel-Wahab 1995, as implemented by Peter Zijlstra in 6.6; §3.1).
///   Each entity has a weight w (the 40-entry nice table of fair_weights.hpp, §2.2; SCHED_IDLE
///   weight 3), a vruntime v advanced by `calc_delta_fair(δ)` = δ·1024/w while it runs, and a
///   virtual deadline `vd = v + calc_delta_fair(slice)` (§3.3). V is the weighted mean vruntime
///   of the queued entities; entity i is *eligible* when `V >= v_i`; pick returns the eligible
///   entity with the earliest virtual deadline.
/// - V without division (§3.2): the run queue keeps `sum_w_vruntime = Σ (v_i − v0)·w_i` and
///   `sum_weight = Σ w_i` over all queued entities, the running one included, relative to the
///   zero point v0 = `min_vruntime` (monotonic; when it advances by d the sum is corrected by
///   `−sum_weight·d`). The kernel keeps the sums over the tree and adds curr's term on the fly
///   at every use; here curr stays in the sums while it runs and each charge adds `dv·w` to
///   them (the same s64 value, mod 2^64, as its term recomputed from the advanced v), so V,
///   the eligibility test and placement read the sums directly, bit-identical to the kernel's
///   way. `avg_vruntime()` = v0 + floor(Σ/W) (floor biases V left); eligibility is
///   `Σ >= (v_i − v0)·W`, exact in integers (`vruntime_eligible`).
///   v0 starts at −2^20 ns so that wrap-around is exercised from the first millisecond, as the
///   kernel does.
/// - Tree (6.8+, Abel Wu's ordering, §3.4): an rb_tree keyed by virtual deadline, augmented
///   with `min_vruntime` = min of the subtree's vruntimes (rb_augment.hpp `subtree_best`). The
///   pick: with one runnable entity, that one; the running entity is dropped if it is not
///   eligible; RUN_TO_PARITY keeps it while its deadline is the one it was picked with; if the
///   leftmost (earliest deadline overall) is eligible it wins in O(1); otherwise the pruned
///   descent `find_first_by_best(min_vruntime eligible)` finds the first eligible entity in
///   deadline order in O(log n) with no backtracking (the predicate is monotone in the subtree
///   minimum, so the summary test is exact). Finally the running entity wins if its deadline is
///   strictly earlier. As in the kernel the running entity is *not* in the tree (set_next
///   erases it, put_prev reinserts it) so its vruntime can advance without re-sorting; it
///   stays in the weighted sums, so set_next and put_prev touch only the tree.
/// - Lag (§3.2): on dequeue `vlag = clamp(V − v, ±calc_delta_fair(max(2·slice, TICK_NSEC)))`
///   (`limit_lag`; TICK_NSEC = (1 s + hz/2) / hz from the `hz` knob, rounded to the nearest ns
///   as jiffies.h defines it; oracle O3.2: ±6 ms for a 3 ms slice).
/// - Placement (§3.5, `place_entity`, lag-preserving, commit 86bfbb7ce4f6): `v = V − vlag·(W +
///   w)/W` where W is the queued weight without the entity (so that after joining, V − v is
///   vlag again), `slice = base_slice`, `vd = v + vslice`, halved for a fresh task
///   (`enqueue_flags::initial`) with PLACE_DEADLINE_INITIAL (O3.3). Version note: 6.6–6.11
///   placed a forked child a second time at its first wakeup without the INITIAL flag, so its
///   first request was in fact the full slice; the halving took effect in 2024 (commit
///   c40dd90ac045, which places a forked task once, at its first enqueue). Set `place_deadline_initial=0` to replay 6.6–6.11's forks. The product vlag·(W + w) is
///   computed as vlag + vlag·w/W, which is the same integer (both terms share vlag's sign) but
///   cannot overflow for any realistic run-queue weight.
/// - Slices (§3.3): `base_slice` 0.75 ms (the 6.6–6.14 value; set 700 us for 6.15+) times
///   1 + ilog2(min(cpus, 8)). `update_deadline` runs from every accounting update: once
///   v >= vd the entity gets a fresh slice and deadline and, with others runnable, a reschedule
///   is requested. The tick only ends a turn that way (no check_preempt_tick; O3.4).
/// - Wakeup preemption (§3.5): a SCHED_IDLE curr is preempted by any non-idle wakee; BATCH and
///   IDLE wakees never preempt; otherwise, after accounting curr, the wakee preempts iff a
///   fresh pick returns it, i.e. it is eligible with an earlier deadline than curr (RUN_TO_PARITY
///   protecting curr until its deadline renews or it becomes ineligible).
/// - yield: the deadline moves one virtual slice later (6.8 `yield_task_fair`).
/// - Reweighting: `setup()` on an idle task with a fresh weight scales its saved vlag by
///   old_w/new_w (kernel `reweight_entity`), so its real lag w·vlag is kept.
/// - Complexity: pick O(1) when the leftmost is eligible, else O(log n); enqueue, dequeue,
///   set_next, put_prev O(log n) (one tree insert or erase); tick, wakeup_preempt (plus one
///   pick), yield O(1) / O(log n); verify O(n). With `delay_dequeue` a pick (or a wakeup's
///   pick) that meets delayed sleepers finishes each one's dequeue first, O(log n) apiece:
///   amortised O(log n), since each sleeper is finished once.
/// - Cost of the schedule cycle (pick_next + set_next + put_prev, the hot path; measured in
///   bench/eevdf_bench.cpp): no division (the only divisions, in avg_vruntime() and placement,
///   run at enqueue/dequeue as in the kernel); the charge δ·1024/w is one 64 x 32
///   multiply-shift through the entity's cached `vscale` (fair_weights.hpp fair_vscale,
///   bit-identical to `calc_delta_fair`, no branch on the weight); the effective base slice and
///   TICK_NSEC are cached at configure(); the running entity stays in the weighted sums (no
///   remove/re-add at set_next/put_prev, no add-on-the-fly in the eligibility tests; its
///   charge and the min_vruntime correction are one store); the deadline renewal and the min_vruntime advance
///   are selects rather than data-dependent branches, as is the min-vruntime augment's
///   recomputation (rb_augment.hpp compute_update); the tree-hot fields (hook, vruntime,
///   deadline, min_vruntime) share the entity's first 64 bytes. The pick with nothing running
///   (the cycle's: put_prev came first) takes its own path, which skips the kernel's
///   one-entity test (a lone entity is eligible, so the same task comes out), and a pick that
///   meets a delayed sleeper leaves the inlined path (pick_next_delayed); the renewal's
///   selects add a masked difference. Callgrind guard, g++ 12: 285.6 -> 272.8 instructions per
///   cycle at N = 8, 332.5 -> 319.5 at N = 1024.
/// - Delayed dequeue (6.12, DELAY_DEQUEUE + DELAY_ZERO; algorithms-modern.md §3 [EDOC]), knob
///   `delay_dequeue`, off by default so that the default replays 6.6–6.11: a task that blocks
///   while not eligible (negative lag) stays queued, `delayed`, in the tree and the weighted
///   sums, so that it burns off its debt while it sleeps. A pick that returns a delayed entity
///   finishes its dequeue instead (it is eligible then, so its lag is >= 0 and DELAY_ZERO saves
///   0) and picks again. The task that blocked is still the kernel's cfs_rq->curr in the pick
///   that follows (put_prev comes after the pick there), so once a finish has raised V past
///   it, RUN_TO_PARITY keeps it while it is on the request it was picked with, and it is
///   finished too (lag 0) even where a runnable task has the earlier deadline
///   (`kept_delayed_curr`; under group_policy, `pick_next_keeping`). A model of 6.12.20's
///   fair.c with groups agrees on 10000 random runs of 300 steps (19 of them differed
///   without this rule). A delayed sleeper that wakes first is requeued in place, keeping a
///   negative lag, or, if its lag has turned positive, placed again at zero lag. Its wakeup
///   must come to this run queue (`delayed(t)`, which the simulator asks before choosing a
///   CPU, as the kernel's ttwu_runnable() does). `nr_runnable()` does not count delayed
///   sleepers. A parameter change or a migration takes a delayed sleeper out and back as any
///   queued task (`dequeue(save|migrating)`, `setup()`, `enqueue(restore|migrated)`): it keeps
///   its lag (reweighted) and comes back still delayed, as 6.12+ does. Checked against
///   Linux 6.18 with tools/kernel_check.sh (docs/results.md).
/// - Per-task slices (6.12, commit 857b158dc5e8): `sched_params::runtime` of a normal, batch
///   or idle task is its own request r_i (sched_attr.sched_runtime), clamped to 0.1–100 ms;
///   it replaces the base slice in the deadline (at placement and every renewal) and in the
///   lag clamp. 0 keeps the base slice.
/// - PREEMPT_SHORT (6.12, commit 85e511df3cec), knob `preempt_short`: a waking task with a
///   strictly shorter slice than curr, eligible, and with an earlier deadline (or facing an
///   ineligible curr) cancels curr's RUN_TO_PARITY protection (vprot = deadline + 1), so the
///   pick may preempt; a curr so left unprotected is rescheduled by the first charge that finds
///   it ineligible. With equal slices it never cancels; its second half still reschedules an
///   ineligible curr whose deadline renewed while it ran alone (vprot then differs from the
///   deadline), as the kernel's does.
/// - PLACE_REL_DEADLINE (6.12, commit 82e9d0456e06), knob `place_rel_deadline`: a task taken
///   out without sleeping (dequeue save or migrating) keeps deadline − vruntime, scaled by
///   old_w/new_w if reniced in between (as vlag; 6.13 commit 6d71a9c61604), and its placement
///   restores it instead of issuing a fresh request.
/// - The kernel's re-pick, knob `repick_keeps_vprot`: the kernel runs set_next_entity only for
///   a pick other than prev (pick_next_task_fair with FAIR_GROUP_SCHED, as distributions build;
///   put_prev_set_next_task in every 6.11+), so a task re-picked after its deadline renewed
///   keeps vprot = its old deadline and RUN_TO_PARITY does not protect the request that follows. Here a
///   re-pick is set_next of the task put_prev just put back, at the same instant.
/// - 6.17 slice protection, knob `parity_min_slice` ("sched/fair: Limit run to parity to the
///   min slice of enqueued entities" and its series): at a pick vprot = min(deadline, v +
///   calc_delta_fair(min(shortest queued slice, own slice))), or one unscaled base slice
///   without RUN_TO_PARITY; curr is protected while v < vprot, and each charge reschedules once
///   it is not; a shorter wakee is judged by a pick that ignores the protection (cancelled,
///   vprot = v, if the wakee wins; else shrunk to v + the shortest queued slice).
/// - Max-slice lag clamp, knob `max_slice_lag` (commit 6e3c0a4e1ad1, 2026, also in that year's
///   stable 6.12.y/6.18.y): ±calc_delta_fair(longest queued slice + TICK_NSEC).
/// - Yield, knob `yield_forfeit` (commit 79104becf42b, 6.18; stable 6.12.y): an eligible
///   yielder's vruntime jumps to its deadline and its next request starts there; an ineligible
///   one keeps everything. Before it, a yield only pushed the deadline a slice further, so a
///   task that yields in a loop piled up deadline it later ran off under RUN_TO_PARITY (the
///   commit's reproducer: a hog kept waiting 25 s).
/// - 6.19 wakeup preemption, knob `wakeup_619` (commit e837456fdca8 with NEXT_BUDDY off, as
///   4f70f106bca1 left it, and without the forced preemption 15257cc2f905 reverted; also in
///   6.18.33+): a fork (`enqueue(initial)` then `wakeup_preempt`) or a still-delayed wakee does
///   not preempt unless PREEMPT_SHORT applies, and every wakeup that does not preempt shrinks
///   curr's protection to the shortest queued slice (6.17 did so for a shorter wakee only).
///   Written on 6.17's protection: refused without `parity_min_slice`.
/// - The wakeup's pick and delayed sleepers, knob `wakeup_dequeue_delayed` (commit
///   ac8e69e69363, 2026; 7.1 and 6.18.33+): the pick a wakeup is judged by finishes the dequeue
///   of a delayed sleeper it returns and picks again, as pick_next does; without it a delayed
///   sleeper could win that pick and keep the wakee from preempting. A fork's entity never
///   inherits a relative deadline (commit 3da56dc063cd, applied unconditionally).
/// - A delayed sleeper's lag held, knob `delayed_lag_floor` (commit 059258b0d424, "Prevent
///   negative lag increase during delayed dequeue", 2026; 7.1): while it waits queued, others'
///   placements can pull the average back and deepen its debt, so whenever its lag is taken
///   (a wakeup's requeue, a move, a pick finishing its dequeue) it is held between the lag it
///   blocked with and 0, and a wakeup that finds it past either bound places it again there.
///   Written from the commit's description: its diff is not in the index.
/// - The shortest and longest queued slice (the kernel's min_slice/max_slice augments): tasks
///   with a custom slice sit in a small index by slice (eevdf_slice_link, touched only at their
///   enqueue and dequeue), the others count at the base slice in force. O(1) and O(log n).
/// - Group slices (6.12, commit aef6987d8954), knob `group_min_slice`, under group_policy: a
///   group's node takes the shortest slice queued in its group's queue (`min_queued_slice`, the
///   kernel's cfs_rq_min_slice) as a custom slice (`set_group_slice`), before it is enqueued
///   (so its placement issues that request) and in place, deadline kept, while it stays queued
///   and tasks come and go below it (the second loop of enqueue_task_fair and
///   dequeue_entities; its entry in the slice index moves at once, as 6.12.23's commit
///   563bc2161b94 propagates the min_slice augment); never at a pick, except for each delayed
///   sleeper the pick finishes (a dequeue_entities), for which `pick_next`'s `one_finish`
///   returns to group_policy. A group whose dequeue is delayed takes the shortest slice of the
///   queue it stays in (6.12.28, commit bbce3de72be5; 6.12.20 left it 0 or U64_MAX). The flat
///   cycle pays nothing for it (callgrind guard at N = 8: 284.9 -> 283.9 before PICK_BUDDY,
///   285.8 -> 285.6 after; `one_finish` reaches the buddy's pick as an argument of its cold path).
/// - Features as knobs: RUN_TO_PARITY, PLACE_LAG, PLACE_DEADLINE_INITIAL and WAKEUP_PREEMPTION,
///   all on as in 6.6–6.11; DELAY_DEQUEUE with DELAY_ZERO, PREEMPT_SHORT, PLACE_REL_DEADLINE
///   and the group slice (6.12+), PICK_BUDDY (6.12.y, 6.13+), the re-pick, the 6.17
///   protection, the max-slice clamp, the 6.18 yield, 6.19's wakeups, the wakeup pick's
///   dequeue and 7.1's delayed-lag floor: off by default, so that the default replays
///   6.6–6.11 (built without FAIR_GROUP_SCHED). With them all off the cycle
///   pays about 6 instructions for their tests (callgrind guard at N = 8: 292.9 -> 298.7;
///   PICK_BUDDY's test in pick_next added about 1: 284.9 -> 285.8 with g++ 12).
/// - PICK_BUDDY (6.13, "sched/fair: Untangle NEXT_BUDDY and pick_next_task()"; in 6.12.y),
///   knob `pick_buddy`: pick_next_entity returns the queue's next buddy while it is eligible,
///   before pick_eevdf and RUN_TO_PARITY. NEXT_BUDDY is off in every release, so without
///   cgroups only yield_to (not modelled) sets the buddy: a flat queue never holds one and its
///   pick pays one predictable test. Under group_policy a task that sleeps (or a delayed
///   sleeper a pick finishes) makes the first group still queued above it, and each group
///   above, the next buddy of its queue (dequeue_entities' set_next_buddy); clear_buddies
///   drops a mark at the entity's dequeue, at a set_next_entity of it, at a charge of it that
///   reschedules (update_curr) and at its yield (the buddy API below; group_policy walks the
///   paths). Off by default: 6.6-6.11 picked the buddy only with NEXT_BUDDY.
/// - Omissions: the group hierarchy itself (`group_policy` composes this class into one);
///   NEXT_BUDDY with 6.19's WF_SYNC rules, and 6.19's move of the buddy test into pick_eevdf;
///   yield_to; 2026's revert of 6d71a9c61604 (101f3498b4bd, also in 6.12.y and 6.18.y: a
///   reweight keeps V, as 6.7-6.12's reweight_eevdf did; `reweight` here is 6.13's rule); the
///   fix c5cd6fd75b6a to 7.1's cap on a delayed sleeper's negative lag (the cap
///   itself, 059258b0d424, is the `delayed_lag_floor` knob); 2026's rework of
///   avg_vruntime around zero_vruntime; hrtick; and SMP (migration keeps lag through
///   dequeue(migrating)/enqueue(migrated), which is what 6.6's cross-rq placement by lag does). Nothing here is reconstructed [R]: every rule is
///   from §3 of the reference or from the kernel commits named above (and the custom-slice
///   clamp was read back from Linux 6.18's sched_getattr).
#ifndef SCHEDCORE_POLICY_EEVDF_HPP
#define SCHEDCORE_POLICY_EEVDF_HPP

#include "schedcore/core/arith.hpp"
#include "schedcore/core/assert.hpp"
#include "schedcore/core/bitops.hpp"
#include "schedcore/core/errc.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/intrusive/rb_augment.hpp"
#include "schedcore/intrusive/rb_hook.hpp"
#include "schedcore/intrusive/rb_tree.hpp"
#include "schedcore/policy/fair_weights.hpp"
#include "schedcore/policy/flags.hpp"
#include "schedcore/policy/entity_access.hpp"
#include "schedcore/policy/params.hpp"

namespace schedcore {

/// Tag of the eevdf class's tree hook (a task may embed several hooks).
struct eevdf_hook_tag {};
/// Tag of the hook that links a queued task with a custom slice into its run queue's slice
/// index (the min and max queued slice, `parity_min_slice` and `max_slice_lag`).
struct eevdf_slice_tag {};

/// A queued task's entry in the custom-slice index: its slice, ordered ascending.
struct eevdf_slice_link : rb_hook<link_mode::normal, eevdf_slice_tag> {
  duration_ns slice = 0;  ///< the task's custom slice, ns (a copy: the index reads only this)
};

/// Per-task state of the eevdf class, embedded in the task (the kernel's `sched_entity`).
struct eevdf_entity : rb_hook<link_mode::normal, eevdf_hook_tag> {
  vtime vruntime{};                    ///< virtual runtime v (advances by δ·1024/w while running)
  vtime deadline{};                    ///< virtual deadline vd = v + calc_delta_fair(slice) (the tree key)
  vtime min_vruntime{};                ///< tree augment: min vruntime of this entity's subtree
  vtime vprot{};                       ///< RUN_TO_PARITY: the deadline it was picked with (kernel keeps it in vlag)
  s64 vlag = 0;                        ///< virtual lag V − v saved at the last dequeue (clamped)
  duration_ns slice = 0;               ///< current request, ns of service
  u32 weight = nice_0_load;            ///< load weight (nice 0 = 1024)
  u32 inv_weight = 4194304u;           ///< 2^32 / weight (table wmult, or 0xFFFFFFFF / weight)
  fair_vscale vscale{};                ///< calc_delta_fair of this weight as one multiply-shift
  sched_time exec_start{};             ///< when it last started running or was last charged
  u64 sum_exec_runtime = 0;            ///< total CPU time received, ns
  u64 prev_sum_exec_runtime = 0;       ///< sum_exec_runtime when it was last picked
  sched_kind kind = sched_kind::normal;  ///< normal, batch or idle
  s8 nice = 0;                         ///< nice value the weight came from (0 with set_weight)
  bool on_rq = false;                  ///< queued (running counts as queued; so does a delayed sleeper)
  bool delayed = false;                ///< DELAY_DEQUEUE: blocked, still queued until a pick finishes its dequeue (kept across save/restore)
  bool custom_slice = false;           ///< `slice` is the task's own request (sched_attr.sched_runtime, 6.12+), not the base slice
  bool rel_deadline = false;           ///< PLACE_REL_DEADLINE: out of the queue, `deadline` holds deadline − vruntime (virtual ns)
  eevdf_slice_link slice_link{};       ///< in the run queue's custom-slice index while queued with a custom slice (cold)
};

/// EEVDF run queue of one CPU (Linux 6.6+ fair class with the 6.8+ deadline-ordered tree).
/// @tparam Task the task type; embeds `eevdf_entity` (by default as a base class)
/// @tparam EntityOf accessor from Task to its eevdf_entity (see policy/params.hpp)
template <class Task, class EntityOf = base_entity<eevdf_entity>>
class eevdf_policy {
  /// @cond INTERNAL
  using hook_t = rb_hook<link_mode::normal, eevdf_hook_tag>;
  static eevdf_entity& E(Task& t) noexcept { return EntityOf::get(t); }
  static const eevdf_entity& E(const Task& t) noexcept { return EntityOf::get(t); }
  using value_traits = entity_hook_access<Task, eevdf_entity, EntityOf, hook_t>;
  struct by_deadline {
    bool operator()(const Task& a, const Task& b) const noexcept { return E(a).deadline < E(b).deadline; }
    // One wrap-safe key: the tree's insert descent compares raw counters (rb_has_wrap_key).
    static const u64& wrap_key(const Task& a) noexcept { return rb_time_key(E(a).deadline); }
  };
  struct min_vruntime_traits {
    using value_type = Task;
    using best_type = vtime;
    static vtime value(const Task& t) noexcept { return E(t).vruntime; }
    static vtime best(const Task& t) noexcept { return E(t).min_vruntime; }
    static void set_best(Task& t, vtime v) noexcept { E(t).min_vruntime = v; }
    static bool better(vtime a, vtime b) noexcept { return a < b; }
  };
  using tree_type = rb_tree<Task, value_traits, by_deadline, subtree_best<min_vruntime_traits>>;
  using slice_index = rb_tree<eevdf_slice_link, rb_base<eevdf_slice_link, rb_hook<link_mode::normal, eevdf_slice_tag>>,
                              rb_member_less<&eevdf_slice_link::slice>>;
  static constexpr duration_ns no_slice = ~(static_cast<u64>(1) << 63);  // s64 max: "no queued slice"
  /// @endcond

 public:
  using task_type = Task;                       ///< the task type
  static constexpr const char* name = "eevdf";  ///< class name
  /// Smallest weight accepted by set_weight() (the kernel's MIN_SHARES).
  static constexpr u32 weight_min = 2;
  /// Largest weight accepted by set_weight() (the kernel's MAX_SHARES, 2^18).
  static constexpr u32 weight_max = 1u << 18;
  /// Shortest custom slice: a `sched_params::runtime` below it is raised to it (0.1 ms, the
  /// kernel's clamp in __setscheduler_params, "HZ=1000 * 10").
  static constexpr duration_ns custom_slice_min = usec(100);
  /// Longest custom slice: a longer `runtime` is cut to it (100 ms, "HZ=100 / 10").
  static constexpr duration_ns custom_slice_max = msec(100);

  /// Tunables, named after the kernel's (`sched_base_slice_ns`, features.h).
  struct knobs {
    s64 base_slice = usec(750);      ///< base slice before CPU scaling (`sched_base_slice`, 0.75 ms in 6.6-6.14)
    s64 cpus = 1;                    ///< CPU count for the 1 + ilog2(min(cpus, 8)) scaling
    s64 hz = 250;                    ///< tick rate; TICK_NSEC bounds the lag clamp (CONFIG_HZ default 250)
    s64 run_to_parity = 1;           ///< RUN_TO_PARITY: curr keeps the CPU until its deadline renews
    s64 place_lag = 1;               ///< PLACE_LAG: placement preserves the saved lag
    s64 place_deadline_initial = 1;  ///< PLACE_DEADLINE_INITIAL: a fresh task's first request is halved
    s64 wakeup_preemption = 1;       ///< WAKEUP_PREEMPTION: wakeups may preempt
    s64 delay_dequeue = 0;           ///< DELAY_DEQUEUE + DELAY_ZERO (6.12+): an ineligible sleeper stays queued
    s64 preempt_short = 0;           ///< PREEMPT_SHORT (6.12+): a wakee with a shorter slice may cancel curr's RUN_TO_PARITY
    s64 place_rel_deadline = 0;      ///< PLACE_REL_DEADLINE (6.12+): a task moved (not slept) keeps its relative deadline
    s64 group_min_slice = 0;         ///< 6.12+ under group_policy: a group's node takes the shortest slice queued below it (commit aef6987d8954)
    s64 repick_keeps_vprot = 0;      ///< a task picked again right after put_prev keeps its protection (the kernel skips set_next_entity)
    s64 parity_min_slice = 0;        ///< 6.17+ slice protection: up to the shortest queued slice; resched when it ends
    s64 max_slice_lag = 0;           ///< lag clamp calc_delta_fair(max queued slice + TICK_NSEC) (commit 6e3c0a4e1ad1, 2026)
    s64 yield_forfeit = 0;           ///< sched_yield() forfeits the rest of an eligible request (commit 79104becf42b, 6.18)
    s64 wakeup_619 = 0;              ///< 6.19 wakeup preemption: a fork never preempts unless shorter; every wakeup that does not preempt shrinks the protection (needs parity_min_slice)
    s64 wakeup_dequeue_delayed = 0;  ///< the wakeup's pick finishes the delayed dequeues it meets and picks again (commit ac8e69e69363, 2026)
    s64 delayed_lag_floor = 0;       ///< a delayed sleeper's lag stays between the lag it blocked with and 0 (commit 059258b0d424, 7.1)
    s64 pick_buddy = 0;              ///< PICK_BUDDY (6.12.y, 6.13+): the pick takes the queue's next buddy while it is eligible (group_policy sets it)
  };
  /// Bounds and meaning of each knob.
  static constexpr knob_info<knobs> knob_table[] = {
      {"base_slice", knob_unit::time_ns, &knobs::base_slice, usec(100), msec(100),
       "EEVDF base request before CPU scaling (sched_base_slice; 0.75 ms in 6.6-6.14, 0.70 ms from 6.15)"},
      {"cpus", knob_unit::count, &knobs::cpus, 1, 4096, "CPU count: slices scale by 1 + ilog2(min(cpus, 8))"},
      {"hz", knob_unit::count, &knobs::hz, 10, 10000, "tick rate; the lag clamp is at least one TICK_NSEC"},
      {"run_to_parity", knob_unit::flag, &knobs::run_to_parity, 0, 1, "RUN_TO_PARITY feature"},
      {"place_lag", knob_unit::flag, &knobs::place_lag, 0, 1, "PLACE_LAG feature"},
      {"place_deadline_initial", knob_unit::flag, &knobs::place_deadline_initial, 0, 1,
       "PLACE_DEADLINE_INITIAL feature"},
      {"wakeup_preemption", knob_unit::flag, &knobs::wakeup_preemption, 0, 1, "WAKEUP_PREEMPTION feature"},
      {"delay_dequeue", knob_unit::flag, &knobs::delay_dequeue, 0, 1,
       "DELAY_DEQUEUE and DELAY_ZERO features (Linux 6.12+; off replays 6.6-6.11)"},
      {"preempt_short", knob_unit::flag, &knobs::preempt_short, 0, 1,
       "PREEMPT_SHORT feature: shorter custom slices may wakeup-preempt (Linux 6.12+; off replays 6.6-6.11)"},
      {"place_rel_deadline", knob_unit::flag, &knobs::place_rel_deadline, 0, 1,
       "PLACE_REL_DEADLINE feature: renice/migration keeps the relative deadline (Linux 6.12+; off replays 6.6-6.11)"},
      {"group_min_slice", knob_unit::flag, &knobs::group_min_slice, 0, 1,
       "under group_policy, a group's slice is the shortest slice queued below it (commit aef6987d8954, Linux 6.12+; "
       "off replays 6.6-6.11: the base slice)"},
      {"repick_keeps_vprot", knob_unit::flag, &knobs::repick_keeps_vprot, 0, 1,
       "a re-pick of the task just put back does not renew its RUN_TO_PARITY protection (the kernel: no set_next_entity "
       "when next == prev; 6.6+ with FAIR_GROUP_SCHED, every 6.11+)"},
      {"parity_min_slice", knob_unit::flag, &knobs::parity_min_slice, 0, 1,
       "Linux 6.17+ slice protection: up to the shortest queued slice, updated at wakeups, resched once it runs out"},
      {"max_slice_lag", knob_unit::flag, &knobs::max_slice_lag, 0, 1,
       "lag clamp from the longest queued slice plus a tick (commit 6e3c0a4e1ad1, 2026; stable 6.12.y/6.18.y)"},
      {"yield_forfeit", knob_unit::flag, &knobs::yield_forfeit, 0, 1,
       "sched_yield() of an eligible task forfeits the rest of its request: vruntime = deadline (commit 79104becf42b, "
       "Linux 6.18; stable 6.12.y)"},
      {"wakeup_619", knob_unit::flag, &knobs::wakeup_619, 0, 1,
       "Linux 6.19 wakeup preemption (commits e837456fdca8 and 15257cc2f905, NEXT_BUDDY off; 6.18.33+): a fork does not "
       "preempt unless its slice is shorter; a wakeup that does not preempt shrinks curr's protection. Needs "
       "parity_min_slice=1"},
      {"wakeup_dequeue_delayed", knob_unit::flag, &knobs::wakeup_dequeue_delayed, 0, 1,
       "a wakeup's preemption pick finishes the delayed dequeues it meets and picks again (commit ac8e69e69363, 2026; "
       "Linux 7.1, 6.18.33+)"},
      {"delayed_lag_floor", knob_unit::flag, &knobs::delayed_lag_floor, 0, 1,
       "a delayed sleeper's lag is held between the lag it blocked with and 0; a wakeup past either bound places it "
       "there again (commit 059258b0d424, 2026; Linux 7.1)"},
      {"pick_buddy", knob_unit::flag, &knobs::pick_buddy, 0, 1,
       "PICK_BUDDY feature: the pick takes the next buddy while it is eligible; under group_policy a sleeper's group "
       "still queued above it becomes the next buddy (Linux 6.13+, 6.12.y; off replays 6.6-6.11, NEXT_BUDDY off)"},
  };

  /// Validates and installs knobs; on error nothing changes. New slices apply at each
  /// entity's next request.
  errc configure(const knobs& k) noexcept {
    if (const errc e = validate_knobs(k, knob_table); e != errc::ok) return e;
    // 6.19's wakeup path is written on 6.17's protection (update/cancel_protect_slice).
    if (k.wakeup_619 != 0 && k.parity_min_slice == 0) return errc::invalid_argument;
    knobs_ = k;
    base_slice_ = effective_base_slice(k);
    tick_ns_ = tick_nsec(k.hz);
    slow_paths_ = static_cast<u8>(((k.preempt_short | k.parity_min_slice) != 0 ? slow_protection_end : 0) |
                                  ((k.repick_keeps_vprot | k.parity_min_slice) != 0 ? slow_set_next : 0) |
                                  (k.pick_buddy != 0 ? slow_buddy : 0));
    if (k.pick_buddy == 0) next_ = nullptr;  // no buddy is ever marked without the feature
    repick_ = nullptr;
    forked_ = nullptr;
    return errc::ok;
  }
  /// The knobs in force.
  const knobs& config() const noexcept { return knobs_; }
  /// The effective base slice: base_slice · (1 + ilog2(min(cpus, 8))), ns.
  duration_ns base_slice() const noexcept { return base_slice_; }

  /// Loads `p` (kind normal, batch or idle; nice −20..19) into `t`'s entity. Refuses another
  /// kind, a bad nice or a negative runtime (`errc::invalid_argument`) and a queued task
  /// (`errc::busy`).
  ///
  /// `p.runtime` is the task's own slice, as `sched_attr.sched_runtime` is for SCHED_NORMAL,
  /// BATCH and IDLE from Linux 6.12 (commit 857b158dc5e8): 0 means the base slice (following
  /// the `base_slice` knob); any other value is clamped to [custom_slice_min, custom_slice_max]
  /// as the kernel does (silently), and is a slice in ns of service, not scaled by the CPU
  /// count. It sets the task's request r_i (deadline = v + r_i/w_i), its lag clamp and, with
  /// `preempt_short`, lets it cut a longer-sliced curr's RUN_TO_PARITY short.
  errc setup(Task& t, const sched_params& p) noexcept {
    if (p.kind != sched_kind::normal && p.kind != sched_kind::batch && p.kind != sched_kind::idle)
      return errc::invalid_argument;
    if (const errc err = validate(p); err != errc::ok) return err;
    if (p.runtime < 0) return errc::invalid_argument;
    eevdf_entity& e = E(t);
    if (e.on_rq) return errc::busy;
    if (p.kind == sched_kind::idle) {
      reweight(e, weight_idleprio, wmult_idleprio);
    } else {
      reweight(e, nice_to_weight(p.nice), nice_to_wmult(p.nice));
    }
    e.kind = p.kind;
    e.nice = p.kind == sched_kind::idle ? s8{0} : p.nice;
    e.custom_slice = p.runtime != 0;
    e.slice = !e.custom_slice                    ? base_slice_
              : p.runtime < custom_slice_min ? custom_slice_min
              : p.runtime > custom_slice_max ? custom_slice_max
                                             : p.runtime;
    return errc::ok;
  }
  /// Gives `t` an explicit weight (a cgroup's shares), kind normal. Refuses 0 and weights
  /// outside [weight_min, weight_max] (`errc::invalid_argument`), and a queued task (`busy`).
  errc set_weight(Task& t, u32 weight) noexcept {
    if (weight < weight_min || weight > weight_max) return errc::invalid_argument;
    eevdf_entity& e = E(t);
    if (e.on_rq) return errc::busy;
    reweight(e, weight, weight == nice_0_load ? nice_to_wmult(0) : fair_inv_weight(weight));
    e.kind = sched_kind::normal;
    e.nice = 0;
    return errc::ok;
  }

  /// Gives a *queued* `t` (running or not) the explicit weight `weight` in place, as the
  /// kernel's reweight_entity does for update_cfs_group's per-CPU group shares (6.13+,
  /// commit 6d71a9c61604): curr is charged at its old weight, the lag (clamped) and the time
  /// left in the request are kept, scaled by the old weight over the changed one, and the entity is placed again
  /// by that lag with that request. It is not picked again: a running entity reweighted at
  /// every tick still reaches its deadline and is preempted there (a dequeue(save),
  /// enqueue(restore) and set_next would issue it a fresh request each time). Its
  /// RUN_TO_PARITY protection (6.6-6.16: the deadline it was picked with) ends, as in the
  /// kernel; 6.17+'s vprot keeps its distance from the vruntime, scaled likewise. A task not
  /// queued is reweighted as set_weight() does; a delayed sleeper is refused (`busy`). Refuses
  /// weights outside [weight_min, weight_max] (`errc::invalid_argument`); on refusal nothing
  /// changes. O(log n). One difference from 6.13's code: it places a running entity while that
  /// entity is still counted in avg_vruntime and the queue's load (at its old vruntime and new
  /// weight), which scales its lag by a further (W + 2w')/(W + w'); here the entity leaves the
  /// sums first, so V and the lag are exact (V' = V, V' − v' = vlag·w/w'). For a task that is
  /// not running the two agree.
  errc reweight(Task& t, u32 weight, sched_time now) noexcept {
    if (weight < weight_min || weight > weight_max) return errc::invalid_argument;
    eevdf_entity& e = E(t);
    if (!e.on_rq) return set_weight(t, weight);
    if (e.delayed) return errc::busy;
    if (e.weight == weight) return errc::ok;
    const bool is_curr = &t == curr_;
    update_curr(now);
    update_entity_lag(e);
    const s64 old_w = static_cast<s64>(e.weight);
    const s64 vprot_ahead = is_curr ? e.vprot - e.vruntime : 0;
    e.deadline = vtime{static_cast<u64>(e.deadline - e.vruntime)};
    e.rel_deadline = true;
    if (!is_curr) tree_.erase(t);
    sub_sums(e);
    --nr_running_;
    reweight(e, weight, weight == nice_0_load ? nice_to_wmult(0) : fair_inv_weight(weight));
    e.kind = sched_kind::normal;
    e.nice = 0;
    place_entity(e, enqueue_flags::none);
    ++nr_running_;
    if (is_curr) {
      sum_w_vruntime_ = wrap_add(sum_w_vruntime_, wrap_mul(key(e), static_cast<s64>(e.weight)));
      sum_weight_ += e.weight;
      if (knobs_.parity_min_slice != 0)
        e.vprot = e.vruntime + div_s64(vprot_ahead * old_w, static_cast<s64>(weight));
    } else {
      enqueue_tree(t);
    }
    // As reweight_entity's end (6.7+, commit eab03c23c2a1): the zero point follows the moved
    // vruntime once the arithmetic above, which needs it stable, is done.
    update_min_vruntime();
    return errc::ok;
  }

  /// `t` becomes runnable: accounts curr, places `t` by its saved lag, queues it. A delayed
  /// sleeper (still queued) is requeued where it is instead, its lag clipped to at most 0. A
  /// delayed sleeper that `dequeue(save|migrating)` took out is placed by its lag and queued
  /// *still delayed* (flags `restore` or `migrated`; any other enqueue of it is a misuse).
  void enqueue(Task& t, sched_time now, enqueue_flags flags) noexcept {
    eevdf_entity& e = E(t);
    const bool delayed_here = e.delayed && e.on_rq;
    if (!delayed_here) {  // the refusals come first: a refused call changes nothing
      if (SCHEDCORE_MISUSE(e.on_rq)) return;
      // A delayed sleeper taken out by dequeue(save|migrating) comes back only by restore or
      // migrated, and comes back delayed (see dequeue); its wakeup is due after that.
      if (SCHEDCORE_MISUSE(e.delayed && !has(flags, enqueue_flags::restore) && !has(flags, enqueue_flags::migrated)))
        return;
    }
    // The wakeup check that follows an initial enqueue is wake_up_new_task's (WF_FORK).
    forked_ = has(flags, enqueue_flags::initial) ? &t : nullptr;
    if (delayed_here) {
      requeue_delayed(t, now);
      return;
    }
    update_curr(now);
    place_entity(e, flags);
    ++nr_running_;
    if (e.delayed) ++nr_delayed_;
    enqueue_tree(t);
    slice_join(e);
    e.on_rq = true;
    e.exec_start = now;
  }
  /// `t` leaves (it may be curr): accounts curr, saves the clamped lag, unqueues it. With
  /// `delay_dequeue`, a task that blocks while not eligible stays queued instead (delayed), to
  /// burn off its negative lag; a later pick finishes the dequeue.
  ///
  /// A delayed sleeper may itself be taken out around a parameter change (`save`) or a
  /// migration (`migrating`), as 6.12+ does (dequeue_task_fair with a `sched_delayed` task):
  /// its lag is saved and it leaves the tree and the sums but stays marked delayed, so that
  /// `setup()` can renice it and `enqueue(restore|migrated)` puts it back as a delayed sleeper.
  /// Any other dequeue of a delayed sleeper (it already slept; it cannot die asleep) is a misuse.
  void dequeue(Task& t, sched_time now, dequeue_flags flags) noexcept {
    eevdf_entity& e = E(t);
    const bool moves = (has(flags, dequeue_flags::save) || has(flags, dequeue_flags::migrating)) &&
                       !has(flags, dequeue_flags::sleep) && !has(flags, dequeue_flags::dead);
    if (SCHEDCORE_MISUSE(!e.on_rq || (e.delayed && !moves))) return;
    update_curr(now);
    // dequeue_entity's clear_buddies comes before the delay test: a delayed sleeper is never the
    // next buddy (pick_next_entity's "->next will never be delayed").
    if (next_ == &t) next_ = nullptr;
    // A plain sleep, or a group's node emptied by a dequeue(save) below (group_policy: the
    // kernel's dequeue_entities keeps DEQUEUE_SAVE with the DEQUEUE_SLEEP it adds, and
    // dequeue_entity delays on DEQUEUE_SLEEP alone).
    if (!e.delayed && knobs_.delay_dequeue != 0 &&
        (flags == dequeue_flags::sleep || flags == (dequeue_flags::sleep | dequeue_flags::save)) &&
        !vruntime_eligible(e.vruntime)) {
      if (&t == curr_) {  // it stops running but stays in the competition (the kernel's put_prev)
        curr_ = nullptr;
        tree_.insert(t);
        // Still the kernel's cfs_rq->curr until the pick, which may keep it (kept_delayed_curr).
        repick_ = &t;
        repick_at_ = now;
      }
      // The lag it blocks with: the floor of `delayed_lag_floor` (else rewritten before any use).
      update_entity_lag(e);
      e.delayed = true;
      ++nr_delayed_;
      return;
    }
    update_entity_lag(e);
    if (&t == curr_) {
      curr_ = nullptr;
      repick_ = nullptr;  // the kernel's prev leaves: a task put back earlier is set anew
    } else {
      tree_.erase(t);
    }
    sub_sums(e);  // curr is in the sums too
    slice_leave(e);
    if (repick_ == &t) repick_ = nullptr;
    if (forked_ == &t) forked_ = nullptr;
    e.on_rq = false;
    --nr_running_;
    if (e.delayed) --nr_delayed_;  // still marked: it returns delayed
    // PLACE_REL_DEADLINE: a task taken out without sleeping (a renice, a migration) keeps how
    // far its deadline lies ahead of its vruntime, and place_entity() restores that instead of
    // issuing a fresh request (it is out of the tree now, so its key may change).
    if (knobs_.place_rel_deadline != 0 && !has(flags, dequeue_flags::sleep) && !has(flags, dequeue_flags::dead)) {
      e.deadline = vtime{static_cast<u64>(e.deadline - e.vruntime)};
      e.rel_deadline = true;
    }
    // dequeue_entity: not after a bare SAVE (a renice); SAVE | MOVE does update it.
    if (!has(flags, dequeue_flags::save) || has(flags, dequeue_flags::move)) update_min_vruntime();
  }
  /// The eligible task with the earliest virtual deadline (curr included, RUN_TO_PARITY
  /// applied), or nullptr when empty. No other side effect than this: a delayed sleeper that
  /// the pick returns has burnt off its negative lag; its dequeue is finished (lag clipped to
  /// 0) and the pick is made again (finishing it charges curr first, as the kernel's
  /// dequeue_entity runs update_curr). `one_finish` (group_policy with `group_min_slice`):
  /// nullptr right after finishing one, the queue perhaps not empty, so that the caller can
  /// update the group slices above, as the kernel's dequeue_entities does after each, and
  /// call again.
  SCHEDCORE_ALWAYS_INLINE Task* pick_next(sched_time now, bool one_finish = false) noexcept {
    // A next buddy exists only under group_policy with `pick_buddy` (mark_buddy): the flat
    // path pays this one predictable test.
    if (SCHEDCORE_UNLIKELY(next_ != nullptr)) return pick_next_buddy(now, one_finish);
    Task* const t = pick_eevdf();
    if (SCHEDCORE_UNLIKELY(t != nullptr && E(*t).delayed)) return pick_next_delayed(*t, now, one_finish);
    return t;
  }
  /// Under group_policy: the pick the kernel makes with `prev` still this queue's running
  /// entity. pick_task_fair (6.11+; 6.6-6.10's pick_next_task_fair with FAIR_GROUP_SCHED)
  /// walks down before anything is put back, so pick_eevdf keeps an eligible cfs_rq->curr
  /// that RUN_TO_PARITY protects: a group whose task blocked or was preempted below keeps the
  /// CPU at its level until its request is used up. Here `prev` was put back at this instant
  /// (put_prev comes first in this library's contract). Otherwise, and with nothing put back,
  /// as pick_next. O(1) more than pick_next.
  /// Each delayed sleeper the pick finishes changes V, and the kernel's next pass (pick_task_fair's
  /// `goto again`) tests `prev` again. `one_finish`: as pick_next's.
  Task* pick_next_keeping(Task& prev, sched_time now, bool one_finish = false) noexcept {
    const eevdf_entity& e = E(prev);
    for (;;) {
      // PICK_BUDDY: pick_next_entity tests the buddy before pick_eevdf's RUN_TO_PARITY.
      if (next_ != nullptr && entity_eligible(*next_)) return next_;
      // A delayed prev (it blocked at this instant) that the pick keeps is finished below
      // (kept_delayed_curr).
      if (curr_ == nullptr && e.on_rq && entity_eligible(prev) && protected_now(e, true) && !e.delayed) return &prev;
      Task* const t = kept_delayed_curr(now) ? repick_ : pick_eevdf();
      if (t == nullptr || !E(*t).delayed) return t;
      finish_delayed_dequeue(*t, now);
      if (one_finish) return nullptr;
    }
  }
  /// Under group_policy: the next set_next is not a re-pick, whatever was put back at this
  /// instant (the kernel's set_next_entity runs: a move or parameter change of the running task
  /// calls set_next_task, and a queue the previous path left is set anew). Matters only with
  /// `repick_keeps_vprot`. O(1).
  void forget_repick() noexcept { repick_ = nullptr; }

  /// @name The next buddy across a hierarchy (group_policy, `pick_buddy`)
  /// PICK_BUDDY (features.h, "sched/fair: Untangle NEXT_BUDDY and pick_next_task()", Linux 6.13,
  /// in 6.12.y): pick_next_entity returns the queue's next buddy (cfs_rq->next) while it is
  /// eligible, before pick_eevdf and its RUN_TO_PARITY. With NEXT_BUDDY off (every release)
  /// only two things set it: yield_to (not modelled) and, with cgroups, dequeue_entities when
  /// a task sleeps (a pick finishing a delayed sleeper counts): the first group still queued
  /// above it, and each group above that, become the next buddy of their queues
  /// (set_next_buddy), so the CPU tends to stay in the group. The mark is cleared only by
  /// clear_buddies: at the entity's dequeue, at a set_next_entity of it (a level the pick sets
  /// anew), at a charge of it that reschedules (update_curr), and at its yield; each climbs
  /// while the queue above marks the entity's parent. A queue of this policy does its own
  /// level; group_policy sets the paths, clears at set_next and does the climbs. Without the
  /// knob nothing is ever marked (6.6-6.11 also set the mark but picked it only with
  /// NEXT_BUDDY). Same bits and names as cfs_policy's.
  /// @{
  static constexpr u8 buddy_next = 1;  ///< the next buddy
  /// A charge of the running entity (update_curr, from any hook) may clear its mark: the caller
  /// of a hook that charges climbs from it (group_policy).
  static constexpr bool buddy_cleared_by_charge = true;
  /// `buddy_next` if `t` is this queue's next buddy, else 0. O(1).
  u8 buddy_marks(const Task& t) const noexcept { return next_ == &t ? buddy_next : u8{0}; }
  /// Clears the buddies of `kinds` that name `t`. O(1).
  void clear_buddy_marks(const Task& t, u8 kinds) noexcept {
    if ((kinds & buddy_next) != 0 && next_ == &t) next_ = nullptr;
  }
  /// One level of set_next_buddy: `t` becomes the next buddy. Refused (false: the walk stops)
  /// without `pick_buddy`, for another kind than `buddy_next`, and for a node that is not
  /// queued, is a delayed sleeper or is SCHED_IDLE (se_is_idle, as the kernel's walk stops). O(1).
  bool mark_buddy(Task& t, u8 kind) noexcept {
    const eevdf_entity& e = E(t);
    if (knobs_.pick_buddy == 0 || kind != buddy_next || !e.on_rq || e.delayed || e.kind == sched_kind::idle) return false;
    next_ = &t;
    return true;
  }
  /// @}
  /// `t` starts running: it leaves the tree (not the weighted sums), and remembers its deadline
  /// for RUN_TO_PARITY.
  SCHEDCORE_ALWAYS_INLINE void set_next(Task& t, sched_time now) noexcept {
    eevdf_entity& e = E(t);
    Task* const c = curr_;
    if (SCHEDCORE_MISUSE(!e.on_rq || (c != nullptr && c != &t))) return;
    if (c == nullptr) {  // (else t is already curr)
      // The pick is nearly always the leftmost (the earliest deadline, when it is eligible):
      // pop_front()'s unlink has no two-children case and no "which side" test, and its
      // augment walk starts at the parent (rb_algorithms erase_leftmost).
      if (&t == tree_.front()) {
        tree_.pop_front();
      } else {
        tree_.erase(t);
      }
    }
    if (SCHEDCORE_LIKELY((slow_paths_ & slow_set_next) == 0)) {
      e.vprot = e.deadline;
      e.prev_sum_exec_runtime = e.sum_exec_runtime;
    } else {
      protect_on_pick(t, now);
    }
    curr_ = &t;
    e.exec_start = now;
    resched_ = false;
  }
  /// Running `t` stops running: charged, then back into the tree (it never left the sums).
  SCHEDCORE_ALWAYS_INLINE void put_prev(Task& t, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&t != curr_)) return;  // refuse: not the running task
    update_curr(now);
    curr_ = nullptr;
    tree_.insert(t);
    repick_ = &t;
    repick_at_ = now;
  }
  /// A reschedule asked for since the last tick, wakeup check or call, and clears it: a
  /// dequeue of another task (a migration) charges curr first, as the kernel's dequeue_entity
  /// runs update_curr, and may end its request (update_deadline, which reschedules at once
  /// there).
  bool take_resched() noexcept {
    const bool r = resched_;
    resched_ = false;
    return r;
  }
  /// Charges curr; true when a reschedule is due: its request was used up (deadline renewed)
  /// while others wait, or (preempt_short, parity_min_slice) its protection ended, or an
  /// earlier charge (a dequeue's, a wakeup check's) left one pending.
  bool tick(Task& curr, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&curr != curr_)) return false;  // refuse: not the running task
    update_curr(now);
    return take_resched();
  }
  /// SCHED_IDLE curr yields to any non-idle wakee; BATCH/IDLE wakees never preempt; otherwise
  /// the wakee preempts iff a fresh pick (after charging curr) returns it. A check right after
  /// `enqueue(initial)` of `woken` is a fork's (WF_FORK), which `wakeup_619` treats apart.
  ///
  /// In the kernel's order (check_preempt_wakeup_fair): a reschedule already pending, an idle
  /// curr and a wakee that may not preempt (BATCH, IDLE, WAKEUP_PREEMPTION off) are settled
  /// before curr is charged; only a normal wakee's check charges curr (update_curr) and picks.
  /// So a BATCH wakee leaves curr's request as it was until the tick. (6.17 tests the
  /// WAKEUP_PREEMPTION feature before the idle curr, 6.6 after it.)
  bool wakeup_preempt(Task& woken, Task& curr, sched_time now) noexcept {
    const bool fork = &woken == forked_;
    forked_ = nullptr;
    if (&woken == &curr) return false;
    if (take_resched()) return true;
    const eevdf_entity& we = E(woken);
    const bool may_preempt = knobs_.wakeup_preemption != 0;
    if (!may_preempt && knobs_.parity_min_slice != 0) return false;
    if (E(curr).kind == sched_kind::idle && we.kind != sched_kind::idle) return true;
    if (we.kind != sched_kind::normal || !may_preempt) return false;
    update_curr(now);
    if (take_resched()) return true;
    if (knobs_.parity_min_slice != 0) return wakeup_preempt_617(woken, curr, fork, now);
    // PREEMPT_SHORT (6.12, commit 85e511df3cec): an eligible wakee with a shorter slice than
    // curr, and an earlier deadline or an ineligible curr, cancels curr's RUN_TO_PARITY
    // protection, even if the pick below does not return the wakee.
    eevdf_entity& ce = E(curr);
    if (knobs_.preempt_short != 0 && we.slice < ce.slice && vruntime_eligible(we.vruntime) &&
        (we.deadline < ce.deadline || !vruntime_eligible(ce.vruntime)) && ce.vprot == ce.deadline)
      ce.vprot = ce.deadline + 1;
    return wakeup_pick(true, now) == &woken;
  }
  /// Optional hook `change_resched` (policy.hpp): after a change of the running task's
  /// parameters, switched_to_fair reschedules a task that enters the class (`if (rq->curr ==
  /// p) resched_curr(rq)`); otherwise prio_changed_fair (6.x; set_user_nice calls it too
  /// since 5.6, "sched: Use fair:prio_changed() instead of ad-hoc implementation") returns
  /// when the class queues one entity (`if (rq->cfs.nr_running == 1) return;`, curr and
  /// delayed sleepers included) and reschedules only at a worse priority (`if (p->prio > oldprio)
  /// resched_curr(rq)`). Under group_policy this is asked of the root queue. O(1).
  bool change_resched(Task&, const param_change& c, sched_time) const noexcept {
    if (c.switched) return true;
    return nr_running_ != 1 && c.prio > c.oldprio;
  }
  /// Queued tasks including a running one, not counting delayed sleepers.
  usize nr_runnable() const noexcept { return nr_running_ - nr_delayed_; }
  /// Delayed sleepers queued here (delay_dequeue): the kernel still counts them in
  /// rq->nr_running (6.12's dequeue_entities returns before sub_nr_running for one).
  usize nr_delayed() const noexcept { return nr_delayed_; }
  /// True when `t` blocked but is still queued here (delay_dequeue): its wakeup must come to
  /// this run queue. (Also true between a `dequeue(save|migrating)` of such a sleeper and the
  /// `enqueue(restore|migrated)` that brings it back.)
  bool delayed(const Task& t) const noexcept { return E(t).delayed; }
  /// sched_yield(): curr's deadline moves one virtual slice later (nothing if it is alone).
  /// With `yield_forfeit` (6.18+), an eligible curr also gives up the rest of its request: its
  /// vruntime jumps to its deadline, whose next request starts there; an ineligible curr keeps
  /// everything (the kernel's guard against a yield loop running vruntime away).
  void yield(Task& curr, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&curr != curr_)) return;  // refuse: not the running task
    if (nr_running_ <= 1) return;
    yield_at_level(curr, now);
  }
  /// Under group_policy, yield_task_fair in the yielder's own queue whatever this queue holds:
  /// the kernel returns early only when the whole CPU runs one task (rq->nr_running == 1),
  /// which group_policy tests, so a task alone in its group still pushes its deadline back.
  void yield_at_level(Task& curr, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&curr != curr_)) return;  // refuse: not the running task
    if (next_ == &curr) next_ = nullptr;  // yield_task_fair's clear_buddies
    update_curr(now);
    eevdf_entity& e = E(curr);
    const vtime next = e.deadline + static_cast<duration_ns>(calc_delta_fair(static_cast<u64>(e.slice), e));
    if (knobs_.yield_forfeit == 0) {
      e.deadline = next;
      return;
    }
    if (!vruntime_eligible(e.vruntime)) return;
    // curr stays in the weighted sums: its term moves with its vruntime (deadline > vruntime
    // after the charge, which renews a used-up request).
    sum_w_vruntime_ = wrap_add(sum_w_vruntime_, wrap_mul(e.deadline - e.vruntime, static_cast<s64>(e.weight)));
    e.vruntime = e.deadline;
    e.deadline = next;
    update_min_vruntime();
  }
  /// `t` leaves this class (a policy change). A delayed sleeper (DELAY_DEQUEUE) is still in
  /// the tree and the sums though its owner sees it asleep: its dequeue is finished here, as the
  /// kernel does before a delayed task changes class (commit 98442f0ccd82, "sched: Fix
  /// delayed_dequeue vs switched_from_fair()", 6.12), so that nothing of it stays queued in a
  /// class it no longer belongs to; it keeps the debt it blocked with (DELAY_ZERO clips only a
  /// positive lag). A delayed sleeper the core already took out with `dequeue(save)` (which
  /// keeps it marked, for a restore) is finished the same way: the kernel's class change
  /// finishes the delayed dequeue *before* its save dequeue, as a sleep (lag clipped to at most
  /// 0, no relative deadline). Otherwise nothing to do: a queued task was dequeued first.
  void switched_from(Task& t, sched_time now) noexcept {
    eevdf_entity& e = E(t);
    if (!e.delayed) return;
    if (e.on_rq) {
      finish_delayed_dequeue(t, now);
      return;
    }
    e.delayed = false;  // (nr_delayed_ already counted it out at the save)
    if (e.vlag > 0) e.vlag = 0;
    e.rel_deadline = false;
  }
  /// Fork: the child starts with zero lag (its first request is halved at the initial enqueue)
  /// and an absolute deadline to come (no relative one inherited: commit 3da56dc063cd).
  void task_new(Task& child, Task*, sched_time) noexcept {
    eevdf_entity& e = E(child);
    if (SCHEDCORE_MISUSE(e.on_rq)) return;
    e.rel_deadline = false;
    e.vlag = 0;
    e.sum_exec_runtime = 0;
    e.prev_sum_exec_runtime = 0;
  }

  /// Sum of the weights of the queued entities (running and delayed included): the kernel's
  /// `cfs_rq->load.weight`.
  u64 load() const noexcept { return static_cast<u64>(sum_weight_); }

  /// V, the load-weighted mean vruntime of the runnable entities (floor; curr included).
  vtime avg_vruntime() const noexcept {
    s64 avg = sum_w_vruntime_;
    const s64 load = sum_weight_;
    if (load != 0) {
      if (avg < 0) avg = wrap_sub(avg, load - 1);  // floor, so an entity exactly at V is eligible
      avg = div_s64(avg, load);
    }
    return min_vruntime_ + avg;
  }
  /// True when `t` is eligible: V >= v_t, tested without division.
  bool entity_eligible(const Task& t) const noexcept { return vruntime_eligible(E(t).vruntime); }
  /// The zero point of the weighted sums (monotonic; the kernel's `cfs_rq->min_vruntime`).
  vtime min_vruntime() const noexcept { return min_vruntime_; }
  /// The running task of this class, or nullptr.
  Task* current() const noexcept { return curr_; }
  /// The lag clamp of `t` in virtual time: calc_delta_fair(max(2·slice, TICK_NSEC)); with
  /// `max_slice_lag`, calc_delta_fair(the longest queued slice + TICK_NSEC).
  duration_ns lag_limit(const Task& t) const noexcept { return lag_limit_of(E(t)); }
  /// The shortest slice queued here, curr and delayed sleepers included (the kernel's
  /// cfs_rq_min_slice), ns; s64 max when nothing is queued. O(1).
  duration_ns min_queued_slice() const noexcept { return queued_slice_min(); }
  /// Whether a group's node takes the shortest slice queued below it (`group_min_slice`).
  bool group_slices() const noexcept { return knobs_.group_min_slice != 0; }
  /// Under group_policy with `group_min_slice` (6.12+, commit aef6987d8954): `t`, a group's
  /// node, gets `slice` (ns) as its own request, as enqueue_task_fair and dequeue_entities set
  /// `se->slice` and `custom_slice` of a group entity, so that placement and each renewal keep
  /// it. A queued node keeps its deadline and place in the tree (the kernel rewrites the slice
  /// of a group already queued without requeueing it); only its entry in the slice index moves,
  /// so that the shortest slice here is up to date at once (6.12.23+, commit 563bc2161b94,
  /// which propagates the min_slice augment). O(log n) when queued and changed, else O(1).
  void set_group_slice(Task& t, duration_ns slice) noexcept {
    eevdf_entity& e = E(t);
    if (e.custom_slice && e.slice == slice) return;
    if (e.on_rq) slice_leave(e);
    e.custom_slice = true;
    e.slice = slice;
    if (e.on_rq) slice_join(e);
  }

  /// Structural check: tree shape and augments, the weighted sums (tree plus curr), counts,
  /// on_rq flags, the custom-slice index (exactly the queued tasks with a custom slice).
  bool verify() const noexcept {
    if (!tree_.verify()) return false;
    if (!slices_.verify()) return false;
    s64 sum = 0;
    s64 load = 0;
    usize delayed_count = 0, custom_count = 0;
    for (auto it = tree_.begin(); it != tree_.end(); ++it) {
      const eevdf_entity& e = E(*it);
      if (!e.on_rq || &*it == curr_) return false;
      sum = wrap_add(sum, wrap_mul(key(e), static_cast<s64>(e.weight)));
      load += e.weight;
      delayed_count += e.delayed ? 1u : 0u;
      custom_count += e.custom_slice ? 1u : 0u;
      if (e.custom_slice && e.slice_link.slice != e.slice) return false;
    }
    if (curr_ != nullptr) {
      const eevdf_entity& c = E(*curr_);
      if (!c.on_rq || c.delayed) return false;  // curr is never a delayed sleeper
      sum = wrap_add(sum, wrap_mul(key(c), static_cast<s64>(c.weight)));
      load += c.weight;
      custom_count += c.custom_slice ? 1u : 0u;
    }
    if (sum != sum_w_vruntime_ || load != sum_weight_ || delayed_count != nr_delayed_) return false;
    if (custom_count != slices_.size()) return false;
    if (next_ != nullptr && (!E(*next_).on_rq || E(*next_).delayed || knobs_.pick_buddy == 0)) return false;
    return tree_.size() + (curr_ != nullptr ? 1u : 0u) == nr_running_;
  }

 private:
  // base_slice · (1 + ilog2(min(cpus, 8))), ns; cached in base_slice_ by configure() so the
  // per-charge deadline renewal does no ilog2.
  static duration_ns effective_base_slice(const knobs& k) noexcept {
    const s64 c = k.cpus > 8 ? 8 : k.cpus;
    return k.base_slice * static_cast<s64>(1u + (ilog2)(static_cast<u64>(c)));
  }
  // TICK_NSEC = (NSEC_PER_SEC + HZ/2) / HZ: one tick rounded to the nearest ns (jiffies.h).
  static constexpr s64 tick_nsec(s64 hz) noexcept { return (sec(1) + hz / 2) / hz; }
  duration_ns lag_limit_of(const eevdf_entity& e) const noexcept {
    const s64 tick = tick_ns_;
    const s64 span = knobs_.max_slice_lag != 0 ? queued_slice_max() + tick : (2 * e.slice > tick ? 2 * e.slice : tick);
    return static_cast<duration_ns>(calc_delta_fair(static_cast<u64>(span), e));
  }
  // The weighted sums in two's complement: Σ(v − v0)·w is exact while it and each term stay
  // within ±2^63, as they do under regular charging; beyond (weights near 2^18 and an
  // uncharged run of many seconds) they wrap as the kernel's do (it builds with
  // -fno-strict-overflow), where plain s64 arithmetic would be undefined behaviour.
  static constexpr s64 wrap_mul(s64 a, s64 b) noexcept {
    return static_cast<s64>(static_cast<u64>(a) * static_cast<u64>(b));
  }
  static constexpr s64 wrap_add(s64 a, s64 b) noexcept {
    return static_cast<s64>(static_cast<u64>(a) + static_cast<u64>(b));
  }
  static constexpr s64 wrap_sub(s64 a, s64 b) noexcept {
    return static_cast<s64>(static_cast<u64>(a) - static_cast<u64>(b));
  }
  s64 key(const eevdf_entity& e) const noexcept { return e.vruntime - min_vruntime_; }
  SCHEDCORE_ALWAYS_INLINE bool vruntime_eligible(vtime v) const noexcept {
    return sum_w_vruntime_ >= wrap_mul(v - min_vruntime_, sum_weight_);
  }
  SCHEDCORE_ALWAYS_INLINE void enqueue_tree(Task& t) noexcept {
    const eevdf_entity& e = E(t);
    sum_w_vruntime_ = wrap_add(sum_w_vruntime_, wrap_mul(key(e), static_cast<s64>(e.weight)));
    sum_weight_ += e.weight;
    tree_.insert(t);
  }
  // An entity left the run queue (the tree, or curr): its terms leave the weighted sums.
  SCHEDCORE_ALWAYS_INLINE void sub_sums(const eevdf_entity& e) noexcept {
    sum_w_vruntime_ = wrap_sub(sum_w_vruntime_, wrap_mul(key(e), static_cast<s64>(e.weight)));
    sum_weight_ -= e.weight;
  }
  // Out of the queue, lag and a relative deadline are virtual times of the old weight: both
  // scale by old_w/new_w so the real lag w·vlag and the real time left in the request stay
  // (kernel reweight_entity; the deadline since commit 6d71a9c61604, 6.13).
  static void reweight(eevdf_entity& e, u32 weight, u32 inv_weight) noexcept {
    if (e.weight != weight && e.vlag != 0)
      e.vlag = div_s64(e.vlag * static_cast<s64>(e.weight), static_cast<s64>(weight));
    if (e.weight != weight && e.rel_deadline)
      e.deadline = vtime{static_cast<u64>(div_s64(static_cast<s64>(e.deadline.ns()) * static_cast<s64>(e.weight),
                                                  static_cast<s64>(weight)))};
    e.weight = weight;
    e.inv_weight = inv_weight;
    e.vscale = make_fair_vscale(load_weight{weight, inv_weight});
  }
  // δ·1024/w as the kernel's calc_delta_fair, through the entity's cached multiply-shift:
  // no branch on the weight (nice 0 is the identity scale), no division.
  static u64 calc_delta_fair(u64 delta, const eevdf_entity& e) noexcept { return fair_vscale_delta(delta, e.vscale); }
  duration_ns vslice_of(const eevdf_entity& e) const noexcept {
    return static_cast<duration_ns>(calc_delta_fair(static_cast<u64>(e.slice), e));
  }
  SCHEDCORE_ALWAYS_INLINE void update_min_vruntime() noexcept {
    vtime v = min_vruntime_;
    bool have = false;
    if (curr_ != nullptr) {
      v = E(*curr_).vruntime;
      have = true;
    }
    if (Task* root = tree_.root()) {
      const vtime m = E(*root).min_vruntime;
      v = have ? earlier_of(v, m) : m;
    }
    // Monotonic: the zero point only moves forward. A select, not a branch (whether curr or
    // the tree minimum advanced it is data-dependent); an advance of 0 changes nothing.
    const s64 delta = v - min_vruntime_;
    const s64 advance = delta > 0 ? delta : 0;
    sum_w_vruntime_ = wrap_sub(sum_w_vruntime_, wrap_mul(sum_weight_, advance));
    min_vruntime_ += advance;
  }
  // Once v >= vd the request is used up: a fresh slice and deadline. Written as selects, not a
  // branch: whether one charge crosses the deadline is close to a coin flip for a task that
  // runs about a slice at a time, and a mispredict costs more than the one multiply.
  // (GCC turns `renew ? a : b` on two fields back into a branch, hence the masks.) Each field
  // takes `old + ((fresh − old) & mask)`, mod 2^64: fresh when the mask is all ones, old when
  // it is 0, the same bits as `(fresh & mask) | (old & ~mask)` in fewer live values (the
  // multiply-shift pins two registers). For a custom slice fresh − old is 0, so GCC keeps the
  // slice's select to the base-slice path.
  // The request is the task's own slice when it has one (6.12 custom_slice), else the base
  // slice in force. Returns the mask: all ones iff the request was renewed.
  SCHEDCORE_ALWAYS_INLINE u64 update_deadline(eevdf_entity& e) noexcept {
    const bool renew = !(e.vruntime < e.deadline);
    const u64 keep_new = static_cast<u64>(0) - static_cast<u64>(renew);  // all ones iff renew
    const u64 request = static_cast<u64>(e.custom_slice ? e.slice : base_slice_);
    const vtime fresh = e.vruntime + static_cast<duration_ns>(calc_delta_fair(request, e));
    const u64 old_deadline = e.deadline.ns();
    const u64 old_slice = static_cast<u64>(e.slice);
    e.deadline = vtime{old_deadline + ((fresh.ns() - old_deadline) & keep_new)};
    e.slice = static_cast<duration_ns>(old_slice + ((request - old_slice) & keep_new));
    return keep_new;
  }
  // Charges curr for the time since exec_start. Its vruntime grows by dv = calc_delta_fair(δ),
  // so its term (v − v0)·w in sum_w_vruntime_ grows by dv·w: the same s64 value as the term
  // recomputed from the advanced v (the sums are only ever used mod 2^64), hence no add-on-the-fly
  // of curr anywhere. Then the zero point advances as update_min_vruntime() with curr present
  // (v0 = max(v0, min(v_curr, tree minimum))), and the sum is corrected by −W·advance, W
  // including curr; both corrections go into the sum with one store.
  SCHEDCORE_ALWAYS_INLINE void update_curr(sched_time now) noexcept {
    Task* const c = curr_;
    if (c == nullptr) return;
    eevdf_entity& e = E(*c);
    const duration_ns delta = now - e.exec_start;
    if (delta <= 0) return;
    e.exec_start = now;
    e.sum_exec_runtime += static_cast<u64>(delta);
    const u64 dv = calc_delta_fair(static_cast<u64>(delta), e);
    const vtime v = e.vruntime + static_cast<duration_ns>(dv);
    e.vruntime = v;
    // A renewed request reschedules when others wait. (The mask, not a bool, so that GCC
    // keeps one form of the renewal test live across the multiplies that follow.)
    const u64 renew_mask = update_deadline(e);
    resched_ = resched_ | ((renew_mask & static_cast<u64>(nr_running_ > 1)) != 0);
    vtime m = v;
    if (Task* root = tree_.root()) m = earlier_of(m, E(*root).min_vruntime);
    // Monotonic, as a select (see update_min_vruntime).
    const s64 ahead = m - min_vruntime_;
    const s64 advance = ahead > 0 ? ahead : 0;
    // In u64, which wraps by definition; the s64 arithmetic this replaces gave the same bits.
    sum_w_vruntime_ = static_cast<s64>(static_cast<u64>(sum_w_vruntime_) + dv * e.weight -
                                       static_cast<u64>(sum_weight_) * static_cast<u64>(advance));
    min_vruntime_ += advance;
    // The end of curr's protection (PREEMPT_SHORT's second half in 6.12, every charge in
    // 6.17+) and the next buddy's release: see charge_slow(). With those features off, one
    // load and branch.
    if (SCHEDCORE_UNLIKELY((slow_paths_ & (slow_protection_end | slow_buddy)) != 0)) charge_slow(*c, renew_mask != 0);
  }
  // update_curr's tail with `preempt_short`, `parity_min_slice` or `pick_buddy`: a charge that
  // reschedules (a renewed request with others queued, or the protection's end) also releases
  // curr as this queue's next buddy (6.12 update_curr: "if (resched || did_preempt_short(...))
  // { resched_curr(rq); clear_buddies(cfs_rq, curr); }"); group_policy climbs from there.
  // `renew`: the charge renewed curr's request (a reschedule only with others queued).
  SCHEDCORE_COLD void charge_slow(Task& c, bool renew) noexcept {
    const bool renewed = renew && nr_running_ > 1;
    const bool over = (slow_paths_ & slow_protection_end) != 0 && protection_over(E(c));
    if ((renewed || over) && next_ == &c) next_ = nullptr;
  }
  // pick_next with a next buddy (PICK_BUDDY): pick_next_entity's test comes first, and again after
  // each delayed sleeper the pick finishes (the kernel's pick starts over; the finish moved V).
  // `one_finish`: as pick_next's (nullptr right after the first finish).
  SCHEDCORE_COLD Task* pick_next_buddy(sched_time now, bool one_finish) noexcept {
    for (;;) {
      if (next_ != nullptr && entity_eligible(*next_)) return next_;
      Task* const t = kept_delayed_curr(now) ? repick_ : pick_eevdf();
      if (t == nullptr || !E(*t).delayed) return t;
      finish_delayed_dequeue(*t, now);
      if (one_finish) return nullptr;
    }
  }
  // pick_next once its pick returned a delayed sleeper `t` (delay_dequeue): finishes its
  // dequeue and picks again, until the pick returns a runnable task or nothing. `one_finish`:
  // as pick_next's. Out of line, so that the common pick (no delayed sleeper) keeps curr and
  // the clock in registers up to the set_next that follows.
  SCHEDCORE_COLD Task* pick_next_delayed(Task& first, sched_time now, bool one_finish) noexcept {
    Task* t = &first;
    do {
      finish_delayed_dequeue(*t, now);
      if (one_finish) return nullptr;
      t = kept_delayed_curr(now) ? repick_ : pick_eevdf();
    } while (t != nullptr && E(*t).delayed);
    return t;
  }
  // Whether the pick keeps a delayed sleeper that was curr: it blocked at this instant, so the
  // kernel's pick still finds it as cfs_rq->curr (on_rq, delayed; put_prev comes after the
  // pick there). It blocked ineligible, but a finish of another delayed sleeper since may have
  // raised V: pick_eevdf then returns it while RUN_TO_PARITY protects it (the delay left the
  // set_next_entity stash, vlag = the deadline it was picked with), and pick_next_entity
  // finishes its dequeue, lag clipped to 0. Unprotected, it competes by its deadline in the
  // tree, where the delay put it, as curr does in pick_eevdf. O(1).
  bool kept_delayed_curr(sched_time now) const noexcept {
    const Task* const p = repick_;
    if (p == nullptr || repick_at_ != now || curr_ != nullptr) return false;
    const eevdf_entity& e = E(*p);
    return e.on_rq && e.delayed && vruntime_eligible(e.vruntime) && protected_now(e, true);
  }
  // update_curr's end-of-protection test, kept out of line (in charge_slow) so that the common
  // case (the features off) pays one load and branch rather than an eligibility multiply the
  // compiler would evaluate speculatively. 6.12 (did_preempt_short): once PREEMPT_SHORT has cancelled
  // the protection, curr gives way when it is no longer eligible. 6.17+: curr gives way as
  // soon as its protection runs out (vruntime reached vprot), eligible or not.
  // Returns whether it asked for the reschedule.
  bool protection_over(const eevdf_entity& e) noexcept {
    if (nr_running_ <= 1) return false;
    const bool over = knobs_.parity_min_slice != 0 ? !(e.vruntime < e.vprot)
                                                   : e.vprot != e.deadline && !vruntime_eligible(e.vruntime);
    resched_ = resched_ || over;
    return over;
  }
  // set_next's protection with the 6.12+/6.17+ knobs. The kernel runs set_next_entity only for
  // a task other than prev (pick_next_task_fair with FAIR_GROUP_SCHED; put_prev_set_next_task
  // from 6.11): with `repick_keeps_vprot`, a re-pick of the task just put back keeps its
  // protection as it was. A re-pick is set_next of the task put_prev put back last, at the
  // same instant: the same schedule() (had another class's task run in between, time passed).
  SCHEDCORE_COLD void protect_on_pick(Task& t, sched_time now) noexcept {
    eevdf_entity& e = E(t);
    const bool again = &t == repick_ && now == repick_at_;
    repick_ = nullptr;
    if (again && knobs_.repick_keeps_vprot != 0) return;
    e.vprot = knobs_.parity_min_slice != 0 ? protected_until(e) : e.deadline;
    e.prev_sum_exec_runtime = e.sum_exec_runtime;
  }
  // 6.17+ set_protect_slice: curr may run undisturbed up to the shortest slice queued beside it
  // (RUN_TO_PARITY) or one unscaled base slice (without), never past its deadline.
  vtime protected_until(const eevdf_entity& e) const noexcept {
    duration_ns q = knobs_.run_to_parity != 0 ? queued_slice_min() : knobs_.base_slice;
    if (q >= e.slice) return e.deadline;
    return earlier_of(e.deadline, e.vruntime + static_cast<duration_ns>(calc_delta_fair(static_cast<u64>(q), e)));
  }
  // 6.17+ check_preempt_wakeup_fair: a wakee with a shorter slice is judged by a pick that
  // ignores curr's protection (and cancels it if it wins); otherwise, under RUN_TO_PARITY,
  // curr's protection shrinks to the shortest queued slice from now.
  // 6.19 (`wakeup_619`; e837456fdca8 with NEXT_BUDDY off, less the forced preemption that
  // 15257cc2f905 reverted): a fork, or a wakee still delayed (a migration's check), does not
  // preempt unless its slice is shorter, and the shrink follows every wakeup that does not
  // preempt, not only a shorter one's.
  bool wakeup_preempt_617(Task& woken, Task& curr, bool fork, sched_time now) noexcept {
    eevdf_entity& ce = E(curr);
    const bool shorter = knobs_.preempt_short != 0 && E(woken).slice < ce.slice;
    const bool v619 = knobs_.wakeup_619 != 0;
    if (v619 && !shorter && (fork || E(woken).delayed)) return false;
    if (wakeup_pick(!shorter, now) == &woken) {
      if (shorter && ce.vruntime < ce.vprot) ce.vprot = ce.vruntime;
      return true;
    }
    if ((shorter || v619) && knobs_.run_to_parity != 0) {
      const duration_ns q = queued_slice_min();
      ce.vprot = earlier_of(ce.vprot, ce.vruntime + static_cast<duration_ns>(calc_delta_fair(static_cast<u64>(q), ce)));
    }
    return false;
  }
  // The pick a wakeup is judged by. With `wakeup_dequeue_delayed` (commit ac8e69e69363, "Fix
  // wakeup_preempt_fair() vs delayed dequeue"), as pick_next_entity(): a delayed sleeper it
  // returns is eligible, so its dequeue is finished there and the pick is made again; without,
  // a delayed sleeper may win the pick and the wakee does not preempt.
  Task* wakeup_pick(bool protect, sched_time now) noexcept {
    Task* t = pick_eevdf(protect);
    if (knobs_.wakeup_dequeue_delayed == 0) return t;
    while (t != nullptr && E(*t).delayed) {
      finish_delayed_dequeue(*t, now);
      t = pick_eevdf(protect);
    }
    return t;
  }
  // The custom-slice index: a queued task with its own slice is in it, keyed by that slice.
  void slice_join(eevdf_entity& e) noexcept {
    if (!e.custom_slice) return;
    e.slice_link.slice = e.slice;
    slices_.insert(e.slice_link);
  }
  void slice_leave(eevdf_entity& e) noexcept {
    if (e.custom_slice) slices_.erase(e.slice_link);
  }
  // The shortest slice among the queued tasks (curr and delayed sleepers included); tasks
  // without a custom slice count at the base slice in force. no_slice when none. O(1). (The
  // kernel's cfs_rq_min_slice at set_next_entity leaves the picked task out, but its caller
  // takes the minimum with that task's own slice anyway.)
  duration_ns queued_slice_min() const noexcept {
    duration_ns m = nr_running_ > slices_.size() ? base_slice_ : no_slice;
    if (const eevdf_slice_link* f = slices_.front())
      if (f->slice < m) m = f->slice;
    return m;
  }
  // The longest slice among the queued tasks (as queued_slice_min); 0 when none. O(log n).
  duration_ns queued_slice_max() const noexcept {
    duration_ns m = nr_running_ > slices_.size() ? base_slice_ : 0;
    if (const eevdf_slice_link* b = slices_.back())
      if (b->slice > m) m = b->slice;
    return m;
  }
  // vlag = V − v, clamped to ±lag_limit. A delayed sleeper under `delayed_lag_floor` keeps
  // its lag between the one it blocked with (vlag holds it) and 0.
  void update_entity_lag(eevdf_entity& e) const noexcept {
    const s64 lag = avg_vruntime() - e.vruntime;
    const s64 limit = lag_limit_of(e);
    s64 held = lag > limit ? limit : (lag < -limit ? -limit : lag);
    if (e.delayed && knobs_.delayed_lag_floor != 0) {
      if (held < e.vlag) held = e.vlag;
      if (held > 0) held = 0;
    }
    e.vlag = held;
  }
  // A delayed sleeper was picked, so it is eligible: the dequeue it skipped when it blocked.
  // DELAY_ZERO: its lag (>= 0 here) is saved clipped to 0, so it comes back at the average.
  void finish_delayed_dequeue(Task& t, sched_time now) noexcept {
    eevdf_entity& e = E(t);
    update_curr(now);
    if (next_ == &t) next_ = nullptr;  // (never set on a delayed sleeper; dequeue_entity's clear_buddies)
    update_entity_lag(e);
    if (e.vlag > 0) e.vlag = 0;
    tree_.erase(t);
    sub_sums(e);
    slice_leave(e);
    e.on_rq = false;
    e.delayed = false;
    if (repick_ == &t) repick_ = nullptr;
    --nr_delayed_;
    --nr_running_;
    update_min_vruntime();
  }
  // A delayed sleeper wakes before a pick finished its dequeue: it stays where it is (keeping a
  // negative lag), unless its lag has become positive, which DELAY_ZERO clips: it is placed
  // again at zero lag. With `delayed_lag_floor` it is also placed again when its lag fell
  // below the one it blocked with: at that lag (update_entity_lag holds it).
  //
  // Curr is not charged first: the kernel's requeue (ttwu_runnable → requeue_delayed_entity)
  // reads V with curr's vruntime as of its last update; the wakeup check that follows charges
  // it. So the time curr ran since then does not count in this lag.
  void requeue_delayed(Task& t, sched_time now) noexcept {
    eevdf_entity& e = E(t);
    const s64 lag_floor = e.vlag;
    const s64 lag = avg_vruntime() - e.vruntime;
    update_entity_lag(e);
    if (lag > 0 || (knobs_.delayed_lag_floor != 0 && lag < lag_floor)) {
      tree_.erase(t);
      sub_sums(e);
      --nr_running_;
      if (e.vlag > 0) e.vlag = 0;  // DELAY_ZERO (else it is the floor update_entity_lag held)
      place_entity(e, enqueue_flags::none);
      ++nr_running_;
      enqueue_tree(t);
    }
    e.delayed = false;
    --nr_delayed_;
    e.exec_start = now;
  }
  void place_entity(eevdf_entity& e, enqueue_flags flags) noexcept {
    const vtime v = avg_vruntime();
    if (!e.custom_slice) e.slice = base_slice();
    duration_ns vslice = vslice_of(e);
    s64 lag = 0;
    if (knobs_.place_lag != 0 && nr_running_ > 0) {
      s64 load = sum_weight_;  // curr included
      if (SCHEDCORE_WARN_ON(load == 0)) load = 1;
      // vlag·(W + w)/W, written as vlag + vlag·w/W (same integer, no overflow).
      lag = e.vlag + div_s64(e.vlag * static_cast<s64>(e.weight), load);
    }
    e.vruntime = v - lag;
    // PLACE_REL_DEADLINE: the request it had when it was taken out, as far ahead as it was.
    // (Read whatever the knob says now: a relative deadline must not be taken for an absolute
    // one, which is why later kernels dropped the feature test here.)
    if (e.rel_deadline) {
      e.deadline = e.vruntime + static_cast<duration_ns>(e.deadline.ns());
      e.rel_deadline = false;
      return;
    }
    if (knobs_.place_deadline_initial != 0 && has(flags, enqueue_flags::initial)) vslice /= 2;
    e.deadline = e.vruntime + vslice;
  }
  // `protect` false: curr's slice protection is ignored (6.17+, a shorter wakee's pick).
  SCHEDCORE_ALWAYS_INLINE Task* pick_eevdf(bool protect = true) const noexcept {
    Task* const left = tree_.front();
    Task* const c = curr_;
    // The leftmost (the earliest deadline of all) if eligible, O(1); else the pruned descent.
    // The predicate reads the run queue's fields through `this` rather than capturing copies:
    // the copies cost the O(1) path a paired load and unpack.
    auto first_eligible = [this, left]() noexcept -> Task* {
      if (left == nullptr || entity_eligible(*left)) return left;
      return tree_.find_first_by_best([this](vtime v) noexcept { return vruntime_eligible(v); });
    };
    // The usual pick: put_prev came first, so nothing runs. Its own path, so that the tests of
    // curr below are not made again on it (GCC does not thread them). It needs no test of
    // the kernel's "nr_running == 1 -> that entity": a lone queued entity is always eligible,
    // since the sums then hold exactly its own term (Σ = wrap_mul(v − v0, w), W = w, as
    // verify() checks), so vruntime_eligible(v) compares Σ with itself, and left is returned.
    if (c == nullptr) return first_eligible();
    if (nr_running_ == 1) return c;
    if (!entity_eligible(*c)) return first_eligible();
    if (protected_now(E(*c), protect)) return c;
    Task* const best = first_eligible();
    return best == nullptr || E(*c).deadline < E(*best).deadline ? c : best;
  }
  // RUN_TO_PARITY: 6.6-6.16 keep curr while its deadline is the one it was picked with;
  // 6.17+ while its vruntime is short of vprot (set at the pick, with or without the feature).
  bool protected_now(const eevdf_entity& c, bool protect) const noexcept {
    if (knobs_.parity_min_slice != 0) return protect && c.vruntime < c.vprot;
    return knobs_.run_to_parity != 0 && c.vprot == c.deadline;
  }
  tree_type tree_{};                                          ///< queued entities by deadline (not curr)
  slice_index slices_{};                                      ///< queued entities with a custom slice, by slice
  Task* repick_ = nullptr;                                    ///< the kernel's prev: put back by put_prev (a re-pick if set_next takes it next), or delayed when it blocked
  Task* forked_ = nullptr;                                    ///< the task enqueue(initial) queued last, until the next enqueue (WF_FORK)
  sched_time repick_at_{};                                    ///< when it stopped running
  static constexpr u8 slow_protection_end = 1;                ///< slow_paths_: update_curr checks for the end of protection
  static constexpr u8 slow_set_next = 2;                      ///< slow_paths_: set_next goes through protect_on_pick
  static constexpr u8 slow_buddy = 4;                         ///< slow_paths_: update_curr may release the next buddy (pick_buddy)
  Task* next_ = nullptr;                                      ///< the next buddy (the kernel's cfs_rq->next; only with pick_buddy)
  u8 slow_paths_ = 0;                                         ///< which knobs-dependent slow paths are on (configure())
  Task* curr_ = nullptr;                                      ///< the running entity
  vtime min_vruntime_{static_cast<u64>(-(static_cast<s64>(1) << 20))};  ///< zero point v0
  s64 sum_w_vruntime_ = 0;                                    ///< Σ (v_i − v0)·w_i over the tree and curr
  s64 sum_weight_ = 0;                                        ///< Σ w_i over the tree and curr
  usize nr_running_ = 0;                                      ///< queued including curr and delayed sleepers
  usize nr_delayed_ = 0;                                      ///< delayed sleepers (delay_dequeue)
  knobs knobs_{};                                             ///< tunables in force
  bool resched_ = false;                                      ///< a deadline renewal asked for a reschedule
  duration_ns base_slice_ = usec(750);                        ///< effective_base_slice(knobs_), ns (knobs{} default)
  s64 tick_ns_ = tick_nsec(250);                              ///< TICK_NSEC of knobs_.hz (knobs{} default)
};

}  // namespace schedcore

#endif
