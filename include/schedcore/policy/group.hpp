/// @file
/// @brief `group_policy`: group scheduling (the kernel's task groups, cgroup `cpu.weight`,
/// autogroup) built by composing one unmodified policy per group.
///
/// Linux schedules groups of tasks as entities: a group has its own run queue on each CPU
/// (`tg->cfs_rq[cpu]`) and one entity in its parent's queue (`tg->se[cpu]`, weight = the
/// group's shares), so CPU time is split between groups first and between the tasks of a group
/// second (FAIR_GROUP_SCHED, 2.6.24+). `group_policy<Task, Inner>` does the same with any policy
/// `Inner` of this library: every queue of the hierarchy (the root and one per group) is an
/// `Inner` instance whose "tasks" are nodes, each node a task or a group. Each hook walks the
/// hierarchy as the kernel's `for_each_sched_entity` loops do:
///
/// | hook | walk |
/// |---|---|
/// | `enqueue` | the task into its group's queue, then each group that was empty into its parent (flag `wakeup`: enqueue_task_fair passes ENQUEUE_WAKEUP above the first level) |
/// | `dequeue` | the task out, then each group left empty out of its parent (flag `sleep`); if the task was running, the groups still queued above it stop running with it (`put_prev` at each level) |
/// | `pick_next` | pick at the root; while the pick is a group, pick in that group's queue (pick_task_fair) |
/// | `yield` | the task's own queue; for cfs also every level above (set_skip_buddy) |
/// | `set_next`, `put_prev`, `tick` | at every level from the task to the root (a tick asks for a reschedule if any level does) |
/// | `wakeup_preempt` | the two nodes of the woken and the running task that share a queue decide, in that queue (find_matching_se); cfs's buddy marks then climb from them |
/// | `prio_changed`, `task_new`, `task_dead`, `switched_from`, `migrate_task_rq`, `delayed` | the task's own queue |
/// | `next_timer`, `timer`, `take_resched`, `verify` | every queue |
/// | `change_resched` | the root queue (the kernel's `rq->cfs`), for the node of the task's path there |
///
/// So a policy needs nothing to be used hierarchically: cfs and eevdf give cgroup v2's
/// weight-based distribution (`set_group_weight`, the kernel's `cpu.weight` scaled to shares,
/// 2..2^18), any policy can take a group's nice (`setup_group`), and different groups may be
/// driven by a custom policy (writing-a-policy.md).
///
/// @par Usage
/// ```
///   using node = group_node<eevdf_entity>;                 // a task or a group
///   struct task : node { int sched_class = 0; };           // tasks derive from the node type
///   group_policy<task, eevdf_policy<node>> rq;             // one CPU's fair class
///   group_policy<task, eevdf_policy<node>>::task_group g;  // a group (one per CPU)
///   rq.attach_group(g, nullptr);                           // under the root
///   rq.set_group_weight(g, 2048, now);                     // shares (cpu.weight 200)
///   rq.setup(t, sched_params{});  rq.set_group(t, &g, now);  // before t is queued
/// ```
///
/// @par Invariants (checked by `verify()`, O(groups² + tasks))
/// - A group's node is queued in its parent's queue exactly when the group's own queue is not
///   empty. `nr_runnable()` counts tasks only (queued or running), never group nodes.
/// - The running task and every group above it are the running nodes of their queues.
///
/// @par Cost
/// Each hook costs the inner hook once per level crossed: O(depth · cost of Inner). The depth
/// of a systemd desktop is 2-4 (`/user.slice/user-1000.slice/session-2.scope`).
///
/// @par What is the kernel's and what is not
/// - Shares are per CPU: each CPU has its own `task_group` object for a group (as
///   `tg->cfs_rq[cpu]`), weighted as set. The kernel divides a group's shares among the CPUs by
///   their load (`calc_group_shares`); a caller that runs a group on several CPUs does that by
///   calling `set_group_weight` on each CPU's object.
/// - CFS's time slice: the kernel's `sched_slice` multiplies the task's share by its groups'
///   shares of their queues (for_each_sched_entity); here each level applies its own slice to
///   its own node, and a tick that any level's check fires reschedules: a task in a group runs
///   up to the smaller of its group's slice at the root and its own slice in the group, which
///   is longer than the kernel's product of the two shares. EEVDF entities carry
///   their own slices, as here; the kernel's 6.12+ group entities take the shortest slice queued
///   below them (commit aef6987d8954), which eevdf's knob `group_min_slice` turns on: each
///   enqueue and dequeue walk, and each delayed sleeper a pick finishes, sets it (see
///   update_group_slices).
/// - A group's first activation is an `enqueue(wakeup)` of a node the inner policy has never
///   seen. eevdf places it by its zero lag, as the kernel does; cfs places any never-seen
///   entity as a fresh task (START_DEBIT, one vslice late), where the kernel's group entity,
///   which exists from the cgroup's creation, gets the sleeper placement. Later activations
///   are sleeper placements in both.
/// - Delayed dequeue (eevdf's `delay_dequeue`, 6.12+), as the kernel's dequeue_entities: an
///   ineligible sleeper stays in its queue, not runnable (`nr_runnable` leaves it out), and the
///   groups above it stay queued. A wakeup requeues it where it is. A pick that meets it
///   completes its dequeue; a group whose queue that leaves empty then leaves its parent as a
///   sleeper, which may be delayed in turn (a delayed group: `delayed_groups()`), and the pick
///   starts again at the root (pick_task_fair's `goto again`). A queue is empty when it holds
///   no weight at all (`load()`, the kernel's `cfs_rq->load.weight`), delayed sleepers
///   included. Because a pick cannot tell which nodes it completed, a node's marks are brought
///   up to date when it is next used (`in_queue`). No load tracking (PELT), no uclamp.
/// - Bandwidth control (cpu.max, `set_group_bandwidth` with a `cfs_bandwidth` pool shared by
///   the group's objects on every CPU), as the kernel's hierarchical throttling of 3.2-6.17:
///   run time is charged to every limited group above the running task, which draws slices from
///   the pool, each level at its own update_curr (tick, put_prev and the running task's dequeue
///   charge every level; an enqueue or dequeue, a wakeup check, a yield or a reweight charges the
///   level of its queue); a group out of budget with the pool empty asks for a reschedule (the
///   tick's result; from other hooks, `wakeup_preempt`'s or `take_resched`), is
///   throttled once its task is put back (or at its first enqueue): as pick_next_task_fair does,
///   in the pick that follows when the pick walks into it (check_cfs_rq_runtime with each queue's
///   curr in place; the pick then starts again from the root without them, as its `simple` path),
///   else after the pick, at `set_next` (put_prev_entity), so that the pick still sees the group's
///   node where it does not walk into it; its node out of its parent and its tasks
///   left out of `nr_unthrottled()` and of the `h_nr_running()` above it, and comes back at its
///   pool's next period boundary, or earlier when the pool's slack timer hands out budget that
///   queues on other CPUs gave back (`next_timer`/`timer`). What differs from the kernel:
///   group-scheduling.md, "Bandwidth control"; also, a group whose last task blocks with its
///   budget and the pool used up is throttled at its next enqueue, where the kernel's
///   put_prev_entity throttles the emptied queue at once (check_cfs_rq_runtime): the same run
///   time, but one throttle (and its period) fewer in the counts, and the kernel's 1 ns hand-out
///   at the boundary becomes a slice drawn at the wakeup.
/// - `yield` acts on the task's own queue (eevdf's yield_task_fair), or at every level for cfs
///   (the kernel's skip buddy is set at every level); for both, only the class's count of
///   tasks that can run is tested, as the kernel tests the CPU's (rq->nr_running == 1).
/// - The kernel picks before it puts anything back (pick_task_fair), so each queue's running
///   entity is still its curr at the pick. Here put_prev comes first; the path put back (or the
///   groups above a running task that blocked) is remembered until set_next, and a pick in the
///   same instant hands each queue its node on that path (eevdf's `pick_next_keeping`:
///   RUN_TO_PARITY keeps a group whose task blocked or was preempted below). At set_next, the
///   levels where the picked path meets the one put back are re-picks (eevdf's
///   `repick_keeps_vprot`); every other level, and every level after a move or parameter change
///   of the running task (a `save` or `migrating` dequeue: no pick), is fresh (`forget_repick`).
/// - Buddies (cfs, 6.5's fair.c): the kernel keeps next, last and skip marks per queue but sets
///   and clears them along whole paths, and so does this policy for an inner policy that
///   exposes its marks (`buddy_marks`, `mark_buddy`, `wakeup_preempt_matched`: cfs). A
///   preempting wakee's node is the next buddy where its path meets curr's, and so is each
///   group above (set_next_buddy), so the CPU tends to stay in the group after the preemption;
///   the preempted task is the last buddy, with each group above, only when the two met as
///   tasks (entity_is_task); a task that sleeps leaves the first group still queued above it as
///   the next buddy of every level (dequeue_task_fair); a yield clears the yielder's marks and
///   makes each group on its path the skip buddy (set_skip_buddy); and a mark cleared in one
///   queue (a dequeue, a slice used up at a tick) is cleared in each queue above while those
///   name the same path (clear_buddies). Checked against a model of 6.5's fair.c with groups:
///   before these rules, about six random runs of 300 steps in ten picked differently.
/// - The next buddy of eevdf (`pick_buddy`, PICK_BUDDY of 6.12.y and 6.13+; an inner policy
///   with `buddy_cleared_by_charge`): a task that sleeps, or a delayed sleeper that a pick
///   finishes, leaves the first group still queued above it as the next buddy of every level
///   (dequeue_entities), unless the sleeper or a group the walk emptied is delayed; the pick
///   takes it while it is eligible. A level that set_next sets anew (not a re-pick) releases it,
///   and so does a charge of it that reschedules (update_curr, from any hook); each release
///   climbs as clear_buddies does. The charges that put_prev makes stand for the kernel's in
///   the pick (pick_task_fair charges each level just before picking there), so their climbs
///   reach a level above only once the pick has passed it. Checked against a model of
///   6.12.20's fair.c with groups: 10000 random runs of 300 steps agree, with `group_min_slice`
///   too (both 6.12 rules compared, group slices included); 936 of 3000 differed without the
///   buddy. A task whose dequeue was delayed when it blocked is its queue's curr in that pick
///   (the path handed to `pick_next_keeping` starts at it), so the pick finishes it once
///   another finish made it eligible while RUN_TO_PARITY protects it (eevdf.hpp).
///   A delayed sleeper a pick finishes does both, in dequeue_entities' order: the next buddy
///   (its first loop), then the group slices (its second).
/// - A dead task stays a member of its group until `set_group(t, nullptr, now)`, so
///   `detach_group` of a group whose tasks exited needs that first.
#ifndef SCHEDCORE_POLICY_GROUP_HPP
#define SCHEDCORE_POLICY_GROUP_HPP

#include "schedcore/core/assert.hpp"
#include "schedcore/core/errc.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/traits.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/policy/cfs_bandwidth.hpp"
#include "schedcore/policy/flags.hpp"
#include "schedcore/policy/params.hpp"
#include "schedcore/policy/policy.hpp"

namespace schedcore {

/// Where a node (a task or a group) sits in a group hierarchy; maintained by `group_policy`.
struct group_member {
  group_member* parent = nullptr;  ///< the node of the group whose queue holds this node; nullptr: the root queue
  u16 depth = 0;                   ///< groups above this node (0: in the root queue)
  bool is_group = false;           ///< a task_group's own node (else a task)
  bool queued = false;             ///< on its queue (the running node counts as queued)
  /// Its last dequeue was delayed by the inner policy (eevdf's DELAY_DEQUEUE): it is still in
  /// its queue, not runnable, until a pick there completes the dequeue or a wakeup requeues it.
  bool dequeue_delayed = false;
};

/// The node type of a hierarchy over `Entity`: the inner policy's entity plus its place in the
/// hierarchy. Tasks derive from it; so does every `task_group`.
template <class Entity>
struct group_node : Entity, group_member {};

/// @cond INTERNAL
namespace detail {
// The inner policy's `knobs` type and `knob_table`, re-exported when it has them (so a
// grouped policy is configured by the same names: params.hpp's knob convention).
template <class Inner, class = void>
struct group_knob_names {};
template <class Inner>
struct group_knob_names<Inner, void_t<typename Inner::knobs, decltype(Inner::knob_table)>> {
  using knobs = typename Inner::knobs;                                 ///< the inner policy's tunables
  static constexpr const auto& knob_table = Inner::knob_table;         ///< the inner policy's knob table
};
}  // namespace detail
/// @endcond

/// One CPU's run queue of a class with task groups: `Inner` (a policy over the node type)
/// composed at every level. See the file comment for the walks and what is modelled.
/// @tparam Task the task type; derives from `Inner::task_type` (a `group_node<Entity>` or
///   another type deriving from the inner entity and `group_member`)
/// @tparam Inner the policy each queue runs, instantiated over the node type
template <class Task, class Inner>
class group_policy : public detail::group_knob_names<Inner> {
  static_assert(check_policy<Inner>());
  /// @cond INTERNAL
  using node_type = typename Inner::task_type;
  using traits = policy_traits<Inner>;
  template <class P, class = void>
  struct has_set_weight : false_type {};
  template <class P>
  struct has_set_weight<P, void_t<decltype(declval<P&>().set_weight(declval<node_type&>(), u32{}))>> : true_type {};
  template <class P, class = void>
  struct inner_name {
    static constexpr const char* value = "group";
  };
  template <class P>
  struct inner_name<P, void_t<decltype(P::name)>> {
    static constexpr const char* value = P::name;
  };
  // An inner policy with buddy marks that the kernel sets and clears along whole paths
  // (buddy_marks, clear_buddy_marks, mark_buddy: cfs, and eevdf's next buddy for PICK_BUDDY).
  template <class P, class = void>
  struct has_buddy_marks : false_type {};
  template <class P>
  struct has_buddy_marks<P, void_t<decltype(declval<const P&>().buddy_marks(declval<const node_type&>()))>> : true_type {};
  // ... whose wakeups and yields mark paths too (cfs: wakeup_preempt_matched, the skip buddy).
  template <class P, class = void>
  struct has_buddy_walk : false_type {};
  template <class P>
  struct has_buddy_walk<P, void_t<decltype(declval<const P&>().buddy_marks(declval<const node_type&>())),
                                  decltype(P::mark_woken_path)>> : true_type {};
  // ... whose running entity's charge may clear its mark (eevdf: update_curr's clear_buddies
  // when it reschedules), so every hook that charges a queue's curr climbs from it, and whose
  // set_next leaves the clearing of set_next_entity to the caller.
  template <class P, class = void>
  struct has_charge_clears : false_type {};
  template <class P>
  struct has_charge_clears<P, void_t<decltype(declval<const P&>().buddy_marks(declval<const node_type&>())),
                                     decltype(P::buddy_cleared_by_charge)>> : true_type {};
  // An inner policy whose pick honours the kernel's curr at a reschedule (eevdf: RUN_TO_PARITY).
  // (with forget_repick: it tells a re-pick from a fresh set_next, repick_keeps_vprot)
  template <class P, class = void>
  struct has_pick_keeping : false_type {};
  template <class P>
  struct has_pick_keeping<P, void_t<decltype(declval<P&>().pick_next_keeping(declval<node_type&>(), sched_time{})),
                                    decltype(declval<P&>().forget_repick())>> : true_type {};
  // An inner policy that yields in a queue where the yielder is alone (eevdf, cfs).
  template <class P, class = void>
  struct has_yield_at_level : false_type {};
  template <class P>
  struct has_yield_at_level<P, void_t<decltype(declval<P&>().yield_at_level(declval<node_type&>(), sched_time{}))>>
      : true_type {};
  template <class P, class = void>
  struct has_nr_delayed : false_type {};
  template <class P>
  struct has_nr_delayed<P, void_t<decltype(declval<const P&>().nr_delayed())>> : true_type {};
  template <class P, class = void>
  struct has_load : false_type {};
  template <class P>
  struct has_load<P, void_t<decltype(declval<const P&>().load())>> : true_type {};
  template <class P, class = void>
  struct has_reweight : false_type {};
  template <class P>
  struct has_reweight<P, void_t<decltype(declval<P&>().reweight(declval<node_type&>(), u32{}, sched_time{}))>>
      : true_type {};
  template <class P, class = void>
  struct has_knobs : false_type {};
  template <class P>
  struct has_knobs<P, void_t<decltype(declval<P&>().configure(declval<const P&>().config()))>> : true_type {};
  template <class P, class = void>
  struct has_group_slices : false_type {};
  template <class P>
  struct has_group_slices<P, void_t<decltype(declval<P&>().set_group_slice(declval<node_type&>(), duration_ns{})),
                                    decltype(declval<P&>().pick_next(sched_time{}, bool{}))>> : true_type {};
  /// @endcond
  static_assert(is_base_of_v<group_member, node_type>, "the inner policy's task type must derive from group_member");
  static_assert(is_base_of_v<node_type, Task>, "Task must derive from the inner policy's task type (the node)");

 public:
  using task_type = Task;                       ///< the task type
  using inner_policy = Inner;                   ///< the policy every queue runs
  static constexpr const char* name = inner_name<Inner>::value;  ///< the inner class's name ("group" if it has none)
  /// Deepest group nesting accepted by attach_group (cgroup v2 has no fixed limit; systemd
  /// desktops use 2-4 levels).
  static constexpr u16 max_depth = 32;

  /// A group on this CPU: its node in the parent's queue and its own queue of child nodes.
  /// Owned by the caller (no allocation); attach it with `attach_group` before use.
  class task_group : public node_type {
   public:
    /// The group's own queue (for its configuration and inspection).
    Inner& queue() noexcept { return rq_; }
    /// @copydoc queue()
    const Inner& queue() const noexcept { return rq_; }
    /// Tasks and child groups attached to this group (queued or not).
    u32 members() const noexcept { return members_; }
    /// Out of its parent's queue for want of bandwidth until its pool is refilled (cpu.max).
    bool throttled() const noexcept { return throttled_; }
    /// This CPU's budget drawn from the group's pool, ns (the kernel's
    /// `cfs_rq->runtime_remaining`; may be negative after an overrun).
    duration_ns runtime_remaining() const noexcept { return runtime_remaining_; }
    /// Tasks queued below it on this CPU, running included, delayed sleepers and tasks below a
    /// throttled group under it left out (the kernel's `cfs_rq->h_nr_runnable`). Kept only while
    /// some group of this policy has a bandwidth pool (`set_group_bandwidth`); 0 or stale otherwise.
    usize h_nr_running() const noexcept { return h_nr_; }
    /// Its bandwidth pool, or nullptr.
    cfs_bandwidth* bandwidth() const noexcept { return bw_; }

   private:
    friend class group_policy;
    Inner rq_{};                      // the group's queue (the kernel's tg->cfs_rq[cpu])
    group_policy* owner_ = nullptr;   // the policy it is attached to
    task_group* next_ = nullptr;      // the owner's list of attached groups
    u32 members_ = 0;                 // tasks and groups whose parent is this group
    u32 weight_ = 1024;               // its node's weight as set by set_group_weight (nice 0 until then)
    cfs_bandwidth* bw_ = nullptr;     // its pool (cpu.max), shared with its objects on other CPUs
    duration_ns runtime_remaining_ = 0;  // this CPU's budget, ns
    u32 bw_generation_ = 0;           // the pool's generation when the budget was last reset
    duration_ns bw_skip_ = 0;         // run time before its last set_group_bandwidth not yet charged: not its to pay, ns
    sched_time bw_clock_{};           // on the running path: when its level was last charged (its update_curr's exec_start)
    bool throttled_ = false;          // its node is out of its parent for want of bandwidth
    sched_time throttled_at_{};       // when it was throttled
    sched_time wake_at_{};            // the period boundary its throttle waits for
    u64 slack_seen_ = 0;              // the pool's slack round when it was throttled or last drew
    usize h_nr_ = 0;                  // tasks below it not hidden by a throttled group under it
  };

  /// The root queue (the CPU's top-level `cfs_rq`).
  Inner& root() noexcept { return root_; }
  /// @copydoc root()
  const Inner& root() const noexcept { return root_; }

  /// Validates and installs the inner policy's knobs in every queue; on error nothing changes.
  /// A queue may refuse knobs the others take (its own state: edf's admitted bandwidth over a
  /// lower bound, cfs2007's waits beyond a shorter limit); then the queues already changed get
  /// the old knobs back, which they held a moment ago with the same state, and the error is
  /// returned. O(groups), plus each queue's own check.
  template <class P = Inner, enable_if_t<has_knobs<P>::value, int> = 0>
  errc configure(const typename P::knobs& k) noexcept {
    const typename P::knobs old = root_.config();
    if (const errc e = root_.configure(k); e != errc::ok) return e;
    for (task_group* g = groups_; g != nullptr; g = g->next_) {
      if (const errc e = g->rq_.configure(k); e != errc::ok) {
        for (task_group* back = groups_; back != g; back = back->next_) (void)back->rq_.configure(old);
        (void)root_.configure(old);
        return e;
      }
    }
    return errc::ok;
  }
  /// The knobs in force (the same in every queue).
  template <class P = Inner, enable_if_t<has_knobs<P>::value, int> = 0>
  const typename P::knobs& config() const noexcept {
    return root_.config();
  }

  /// Makes `g` a group of this CPU under `parent` (nullptr: the root), of the weight it last had:
  /// for a fresh object the inner policy's default (nice 0; a cgroup's default `cpu.weight` 100 =
  /// 1024 shares), for one detached and attached again its last `set_group_weight`. Its queue takes
  /// the knobs in force. Refuses a group already attached (`errc::busy`), a parent not attached
  /// here and nesting deeper than `max_depth` (`errc::invalid_argument`). O(1).
  errc attach_group(task_group& g, task_group* parent) noexcept {
    if (g.owner_ != nullptr) return errc::busy;
    if (parent != nullptr && parent->owner_ != this) return errc::invalid_argument;
    const u16 depth = parent != nullptr ? static_cast<u16>(parent->depth + 1u) : u16{0};
    if (depth > max_depth) return errc::invalid_argument;
    copy_config(g.rq_);
    g.parent = parent;
    g.depth = depth;
    g.is_group = true;
    g.queued = false;
    g.bw_ = nullptr;
    g.runtime_remaining_ = 0;
    g.bw_skip_ = 0;
    g.throttled_ = false;
    g.h_nr_ = 0;
    g.owner_ = this;
    g.next_ = groups_;
    groups_ = &g;
    if (parent != nullptr) ++parent->members_;
    return errc::ok;
  }
  /// Detaches an empty group (no task or group attached to it, so not queued). Refuses a
  /// group with members (`errc::busy`) or not attached here (`errc::invalid_argument`). Its node
  /// leaves its parent's queue for good (the inner `switched_from`: cfs keeps its vruntime
  /// relative), so the object can be attached again anywhere. O(groups).
  errc detach_group(task_group& g, sched_time now) noexcept {
    if (g.owner_ != this) return errc::invalid_argument;
    if (g.members_ != 0 || g.queued) return errc::busy;
    flush_throttles();
    flush_climbs();
    if (prev_path_ == &g) prev_path_ = nullptr;
    if (g.bw_ != nullptr) (void)set_group_bandwidth(g, nullptr, now);  // ends a throttle of nothing
    traits::switched_from(queue_of(g), g, now);
    for (task_group** p = &groups_; *p != nullptr; p = &(*p)->next_) {
      if (*p == &g) {
        *p = g.next_;
        break;
      }
    }
    if (g.parent != nullptr) --group_of(*g.parent).members_;
    g.owner_ = nullptr;
    g.next_ = nullptr;
    g.parent = nullptr;
    return errc::ok;
  }
  /// Puts task `t` into group `g` (nullptr: the root queue). The task must not be queued
  /// (`errc::busy`; dequeue it first, as the kernel's sched_move_task does), unless it is in
  /// `g` already (nothing to do), and `g` must be attached here (`errc::invalid_argument`).
  /// O(1). The kernel's move dequeues with DEQUEUE_SAVE | DEQUEUE_MOVE, which, unlike a bare
  /// SAVE, brings the old queue's min_vruntime up to date: `migrating` is that dequeue here
  /// (cfs, eevdf); `save` leaves the old queue's min_vruntime behind, so that what is placed
  /// there later is placed earlier than in the kernel.
  ///
  /// A task that leaves a queue of this CPU (asleep, or taken out with `save`) leaves it for
  /// good: the old queue's inner `switched_from` runs, as the kernel's task_change_group_fair
  /// runs detach_task_cfs_rq (cfs: a sleeper is placed and kept relative to the old queue's
  /// min_vruntime, so that it wakes in the destination queue's frame). An eevdf delayed sleeper
  /// taken out for the move stays delayed, with its relative deadline, and its enqueue puts it
  /// in the destination queue still delayed (6.12's sched_move_task). A task arriving from another
  /// CPU's group was detached by its `dequeue(migrating)`. (A task whose old place is some
  /// CPU's *root* cannot say which CPU's: it is detached from this CPU's root, which is right
  /// for a move on one CPU and harmless after a `dequeue(migrating)` for cfs and eevdf.)
  errc set_group(Task& t, task_group* g, sched_time now) noexcept {
    node_type& n = t;
    if (n.parent == g) return g == nullptr || g->owner_ == this ? errc::ok : errc::invalid_argument;  // already there
    if (in_queue(n)) return errc::busy;  // a delayed sleeper too: it is still in its queue
    sync(n);
    if (g != nullptr && g->owner_ != this) return errc::invalid_argument;
    // A delayed sleeper taken out for the move (dequeue save or migrating) stays delayed, its
    // relative deadline kept (6.12's sched_move_task dequeues and enqueues it; only
    // DEQUEUE_DELAYED ends the delay): the old queue's switched_from, which ends it for a class
    // change, is not for it.
    if ((n.parent == nullptr || group_of(*n.parent).owner_ == this) && !traits::delayed(queue_of(n), n))
      traits::switched_from(queue_of(n), n, now);
    if (n.parent != nullptr) --group_of(*n.parent).members_;
    n.parent = g;
    n.depth = g != nullptr ? static_cast<u16>(g->depth + 1u) : u16{0};
    if (g != nullptr) ++g->members_;
    return errc::ok;
  }
  /// Whether `t` is under a throttled group on this CPU (the kernel's throttled_hierarchy of its
  /// cfs_rq): it cannot run here until the group's pool is refilled. O(depth).
  static bool throttled_hierarchy(const Task& t) noexcept { return hidden(t); }
  /// Whether `g` or a group above it is throttled. O(depth).
  static bool throttled_hierarchy(const task_group& g) noexcept {
    for (const group_member* p = &g; p != nullptr; p = p->parent)
      if (group_of(*p).throttled_) return true;
    return false;
  }
  /// The group `t` belongs to on this CPU, or nullptr for the root.
  static task_group* group_of_task(const Task& t) noexcept {
    const node_type& n = t;
    return n.parent != nullptr ? &group_of(*n.parent) : nullptr;
  }

  /// Loads a task's parameters, as the inner policy's `setup` (same errors; nothing changes
  /// on refusal).
  errc setup(Task& t, const sched_params& p) noexcept {
    node_type& n = t;
    if (in_queue(n)) return errc::busy;
    return queue_of(n).setup(n, p);
  }
  /// Gives group `g` the parameters `p` through the inner policy's `setup` (for a fair policy:
  /// a nice level, so weight = the nice table's). A queued group is requeued as a parameter
  /// change is (`dequeue(save)`, setup, `enqueue(restore)`, and `set_next` again if it is
  /// running). Refuses what the inner setup refuses and a group not attached here; on
  /// refusal nothing changes.
  errc setup_group(task_group& g, const sched_params& p, sched_time now) noexcept {
    if (g.owner_ != this) return errc::invalid_argument;
    Inner& q = queue_of(g);
    // Not queued: the inner setup itself validates, and changes nothing when it refuses.
    if (!g.queued) return q.setup(g, p);
    // Queued: validated on a probe first, whose registration in the queue (an admitted
    // bandwidth, a list of all tasks) is released at once, as at an exit.
    node_type probe{};
    if (const errc e = q.setup(probe, p); e != errc::ok) return e;
    traits::task_dead(q, probe, now);
    return change_group(g, now, [&](node_type& n) { return queue_of(n).setup(n, p); });
  }
  /// Gives group `g` the weight `shares` (cgroup v2: shares = cpu.weight · 1024 / 100), for
  /// inner policies with `set_weight` (cfs, eevdf). A queued group is reweighted in place by
  /// the inner `reweight(node, weight, now)` when it has one (cfs, eevdf: the kernel's
  /// reweight_entity, which keeps a running group's slice), else requeued as setup_group does. Refuses
  /// weights outside the inner policy's range, a group not attached here, and what the inner
  /// `reweight` refuses (eevdf: a delayed group, `busy`); on refusal nothing changes,
  /// `group_weight(g)` included, so a caller that skips unchanged weights retries.
  template <class P = Inner, enable_if_t<has_set_weight<P>::value, int> = 0>
  errc set_group_weight(task_group& g, u32 shares, sched_time now) noexcept {
    if (g.owner_ != this) return errc::invalid_argument;
    node_type probe{};
    if (const errc e = queue_of(g).set_weight(probe, shares); e != errc::ok) return e;
    const auto requeue = [&](node_type& n) { return queue_of(n).set_weight(n, shares); };
    errc e;
    // A queued group is reweighted in place when the inner policy can (the kernel's
    // reweight_entity): a requeue and set_next would renew a running group's slice, so a
    // group reweighted at every tick (SMP shares) would never be preempted at its level.
    if constexpr (has_reweight<P>::value) {
      if (g.queued) {
        Inner& q = queue_of(g);
        // reweight_entity's update_curr of g's queue (its curr's time, whatever node that is:
        // "sched/eevdf: Always update V if se->on_rq when reweighting", 6.8.y). An unchanged
        // weight reaches no reweight_entity in the kernel (sched_group_set_shares returns at
        // "tg->shares == shares", update_cfs_group at an equal se->load.weight): no bandwidth
        // charge then (the inner reweight itself still runs, as before).
        charging(q, nullptr, now, [&] { e = q.reweight(g, shares, now); }, shares != g.weight_);
      } else {
        e = change_group(g, now, requeue);
      }
    } else
      e = change_group(g, now, requeue);
    if (e == errc::ok) g.weight_ = shares;
    return e;
  }

  /// The weight queued in `g`'s own queue (its entities' weights, running included): the
  /// kernel's `cfs_rq->load.weight` of the group's queue on this CPU, what calc_group_shares
  /// divides a group's shares by. For inner policies with `load()` (cfs, eevdf).
  template <class P = Inner, enable_if_t<has_load<P>::value, int> = 0>
  static u64 group_load(const task_group& g) noexcept {
    return g.rq_.load();
  }
  /// The weight `g`'s node has in its parent's queue (its shares on this CPU), as last set.
  u32 group_weight(const task_group& g) const noexcept { return g.weight_; }

  /// Limits `g` on this CPU by `pool` (cpu.max; nullptr: no limit). Give every CPU's object
  /// of a group the same pool: it is the group's quota summed over CPUs. The budget of this
  /// CPU starts at 0 (the first run or enqueue draws a slice), and a throttled `g` is
  /// unthrottled at once, as tg_set_cfs_bandwidth does (a CPU running nothing of this class
  /// should reschedule). Refuses a group not attached here (`errc::invalid_argument`). O(depth),
  /// plus O(max_depth · groups²) once, when the policy's first pool is attached (the counts of
  /// tasks below each group, kept only from then on, are rebuilt).
  errc set_group_bandwidth(task_group& g, cfs_bandwidth* pool, sched_time now) noexcept {
    if (g.owner_ != this) return errc::invalid_argument;
    flush_throttles();
    // No charge here (tg_set_cfs_bandwidth runs no update_curr): the other groups above the
    // running task pay the whole interval at its next update_curr, and draw then. `g` pays only
    // for the time from now (bw_skip_; the kernel charges it the whole interval: see
    // charge_bandwidth).
    // (The levels' clocks are kept only while some group has a pool: a first pool starts them
    // at the running task's last set_next or tick.)
    if (bw_groups_ == 0)
      for (node_type* n = running_; n != nullptr; n = parent_node(*n))
        if (n->parent != nullptr) group_of(*n->parent).bw_clock_ = exec_start_;
    g.bw_skip_ = running_ != nullptr && on_running_path(g) && now - g.bw_clock_ > 0 ? now - g.bw_clock_ : 0;
    if (g.throttled_ && g.bw_ != nullptr) {  // the old pool's throttle ends here
      g.bw_->note_unthrottle(now - g.throttled_at_);
      g.throttled_at_ = now;
    }
    // The counts of tasks per group are kept only while some group has a pool (so that
    // hierarchies without bandwidth control pay nothing for them): the first pool rebuilds them.
    if (g.bw_ == nullptr && pool != nullptr && bw_groups_++ == 0) rebuild_counts();
    if (g.bw_ != nullptr && pool == nullptr) --bw_groups_;
    g.bw_ = pool;
    g.runtime_remaining_ = 0;
    g.bw_generation_ = pool != nullptr ? pool->generation() : 0;
    if (g.throttled_) unthrottle(g, now, false);
    return errc::ok;
  }

  /// `t` becomes runnable in its group's queue; every group left empty until now enters its
  /// parent's queue. O(depth).
  void enqueue(Task& t, sched_time now, enqueue_flags flags) noexcept {
    node_type& leaf = t;
    sync(leaf);
    if (SCHEDCORE_MISUSE(leaf.queued && !leaf.dequeue_delayed)) return;
    flush_throttles();
    Inner& q = queue_of(leaf);
    // A delayed sleeper still queued is requeued where it is, and that is all (enqueue_task_fair
    // returns after requeue_delayed_entity for ENQUEUE_DELAYED: no walk, no group slice).
    const bool requeue = leaf.queued;
    charging(q, nullptr, now, [&] { q.enqueue(leaf, now, flags); });  // its update_curr may release the buddy
    leaf.queued = true;
    // A delayed sleeper put back by `restore`/`migrated` comes back still delayed (eevdf).
    leaf.dequeue_delayed = traits::delayed(q, leaf);
    if (!leaf.dequeue_delayed) count_task(leaf, true);
    raise_groups(leaf.parent, now, true, nullptr, true);
    if (!requeue) update_group_slices(leaf.parent);
  }
  /// `t` leaves its group's queue; every group it leaves empty leaves its parent's (as a
  /// sleeper). If `t` was running, the groups still queued above it stop running. O(depth).
  void dequeue(Task& t, sched_time now, dequeue_flags flags) noexcept {
    node_type& leaf = t;
    sync(leaf);
    if (SCHEDCORE_MISUSE(!leaf.queued)) return;
    flush_throttles();
    flush_climbs();
    const bool was_running = running_ == &t, was_delayed = leaf.dequeue_delayed;
    if (was_running && SCHEDCORE_UNLIKELY(bw_groups_ != 0)) (void)charge_bandwidth(now);
    Inner& q = queue_of(leaf);
    dequeue_node(q, leaf, now, flags);  // the inner policy refuses what it must (a delayed sleeper's sleep)
    if (was_delayed) {
      // Only a move (save, migrating) takes a delayed sleeper out; it stays delayed, uncounted.
      if (traits::delayed(q, leaf) && !has(flags, dequeue_flags::save) && !has(flags, dequeue_flags::migrating)) return;
      leaf.dequeue_delayed = false;
    } else {
      count_task(leaf, false);
      // DELAY_DEQUEUE: an ineligible sleeper stays in its queue, and so do the groups above it.
      leaf.dequeue_delayed = has(flags, dequeue_flags::sleep) && traits::delayed(q, leaf);
    }
    leaf.queued = leaf.dequeue_delayed;
    if (was_running) {
      running_ = nullptr;
      // A task that blocks or dies: the groups above still run in the kernel's queues until the
      // pick (pick_task_fair). A move or a parameter change (save, migrating) is followed by
      // set_next_task, with no pick: every level is set anew.
      // A task whose dequeue was delayed stays its queue's curr too (on_rq, delayed), and the
      // pick tests it first (pick_eevdf's RUN_TO_PARITY; a delayed curr it keeps is finished).
      const bool picks = !has(flags, dequeue_flags::save) && !has(flags, dequeue_flags::migrating);
      prev_path_ = !picks                  ? nullptr
                   : leaf.dequeue_delayed  ? static_cast<node_type*>(&leaf)
                   : leaf.parent != nullptr ? static_cast<node_type*>(&group_of(*leaf.parent))
                                            : nullptr;
      prev_at_ = now;
    } else if (prev_path_ == &leaf) {
      prev_path_ = nullptr;
    }
    task_group* delayed_group = nullptr;
    // The groups it empties leave as sleepers, but a `save` stays with them: dequeue_task_fair
    // (6.5-6.11; dequeue_entities 6.12+) walks up with `flags |= DEQUEUE_SLEEP`, keeping
    // DEQUEUE_SAVE, so each parent's dequeue_entity skips update_min_vruntime as the task's own
    // queue does ((flags & (DEQUEUE_SAVE | DEQUEUE_MOVE)) != DEQUEUE_SAVE is false). A renice
    // (set_user_nice) of the last task of a group leaves the parent's min_vruntime where it was;
    // with cfs that is the floor the group's node is placed against when it comes back.
    // (A save with `move`, DEQUEUE_MOVE, updates them: passed on as a plain sleep.)
    const dequeue_flags above = has(flags, dequeue_flags::save) && !has(flags, dequeue_flags::move)
                                    ? dequeue_flags::sleep | dequeue_flags::save
                                    : dequeue_flags::sleep;
    group_member* p = leaf.queued ? leaf.parent : leave_empty_groups(leaf.parent, now, &delayed_group, above);
    // dequeue_task_fair (6.12+: dequeue_entities): a task that sleeps leaves the first group
    // still queued above it as the next buddy of its queue and each queue above, so that the
    // CPU tends to stay in the group (unless that group is throttled). Not when the sleeper
    // itself, or a group the walk emptied, is delayed (dequeue_entity fails: the walk returns
    // before). An exit counts as a sleep: do_task_dead's __schedule dequeues the dying task
    // with DEQUEUE_SLEEP.
    if (has(flags, dequeue_flags::sleep) || has(flags, dequeue_flags::dead))
      if (!leaf.queued && delayed_group == nullptr) sleep_buddy(p);
    // Then dequeue_entities' second loop: the group slices, from the delayed group if the walk
    // stopped at one. A task whose own dequeue is delayed ended it before both (return -1).
    if (!leaf.queued) group_slices_after_dequeue(p, delayed_group);
    if (was_running) {
      // The charges of the groups above, which the kernel makes in the pick that follows
      // (pick_task_fair's update_curr, level by level as it walks down): their climbs wait
      // for the pick (see climb_at).
      if (p != nullptr) climb_path_ = &group_of(*p);
      for (group_member* up = p; up != nullptr; up = up->parent) put_prev_node(group_of(*up), now);
      // put_prev_entity's check_cfs_rq_runtime: after the pick that follows a sleep or an exit
      // (see put_prev); at once before a move or parameter change (put_prev_task, no pick).
      if (SCHEDCORE_UNLIKELY(bw_groups_ != 0)) {
        if (!has(flags, dequeue_flags::save) && !has(flags, dequeue_flags::migrating))
          defer_throttles(p, now);
        else
          throttle_exhausted(p, now);
      }
    }
  }
  /// Picks at the root, then inside each picked group, down to a task. Besides the inner picks'
  /// effects: a group that the pick left empty (its delayed sleepers finished) leaves its
  /// parent's queue as a sleeper, returning its unused budget to its pool, and the pick starts
  /// again at the root. O(depth · pick).
  Task* pick_next(sched_time now) noexcept {
    // Not the instant of the put_prev (or sleep) that left the checks pending: not the
    // kernel's pick after it, which runs at once; they are made first.
    if (SCHEDCORE_UNLIKELY(throttle_from_ != nullptr) && now != throttle_at_) flush_throttles();
    Task* const t = pick_walk(now);
    flush_climbs();  // the charges of levels the pick did not walk through (put_prev_entity's)
    // Nothing to run: the kernel's __pick_next_task puts prev back (put_prev_task) before the
    // idle task, and each level's put_prev_entity checks its runtime.
    if (t == nullptr) flush_throttles();
    return t;
  }
  /// `t` and every group above it start running in their queues.
  void set_next(Task& t, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(running_ != nullptr || !static_cast<node_type&>(t).queued)) return;
    // The levels of the path put back that the pick did not check (pick_next_task_fair's
    // put_prev_entity after the pick, each with check_cfs_rq_runtime).
    flush_throttles();
    flush_climbs();
    // The levels where the picked path meets the one put back at this instant are re-picks, which
    // the kernel does not set again (put_prev_set_next_task stops where the paths meet); every
    // other level is a fresh set_next_entity, whatever its queue put back last.
    node_type* const kept = prev_at_ == now ? prev_path_ : nullptr;
    prev_path_ = nullptr;
    // A task made to run under a throttled group (a running task whose parameters or group
    // changed: dequeue(save), enqueue(restore), set_next) brings the group back; out of budget,
    // it is throttled again at the next put_prev, after the tick that asks for it.
    if (SCHEDCORE_UNLIKELY(bw_groups_ != 0)) {
      bring_back_path(t, now);
      bw_resched_ = false;  // __schedule clears need_resched
      for (group_member* p = static_cast<node_type&>(t).parent; p != nullptr; p = p->parent) group_of(*p).bw_clock_ = now;
    }
    exec_start_ = now;
    running_ = &t;
    for (node_type* n = &t; n != nullptr; n = parent_node(*n)) {
      Inner& q = queue_of(*n);
      if constexpr (has_pick_keeping<Inner>::value || has_charge_clears<Inner>::value) {
        if (!on_path(kept, *n)) {
          if constexpr (has_pick_keeping<Inner>::value) q.forget_repick();
          // set_next_entity's clear_buddies (eevdf): a level set anew releases its node as the
          // next buddy, and the climb follows; a level the kernel does not set again keeps it.
          if constexpr (has_charge_clears<Inner>::value) {
            const u8 marks = q.buddy_marks(*n);
            if (marks != 0) {
              q.clear_buddy_marks(*n, marks);
              clear_marks_above(*n, marks);
            }
          }
        }
      }
      q.set_next(*n, now);
    }
  }
  /// Running `t` and every group above it stop running; they stay queued.
  void put_prev(Task& t, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(running_ != &t)) return;
    if (SCHEDCORE_UNLIKELY(bw_groups_ != 0)) (void)charge_bandwidth(now);
    bw_resched_ = false;  // this is the reschedule
    running_ = nullptr;
    prev_path_ = &t;
    prev_at_ = now;
    flush_climbs();
    climb_path_ = &t;  // the climbs of these charges wait for the pick (see climb_at)
    for (node_type* n = &t; n != nullptr; n = parent_node(*n)) put_prev_node(*n, now);
    // put_prev_entity's check_cfs_rq_runtime at each level: a group out of budget with its
    // pool empty is throttled now that nothing under it runs. The kernel picks first
    // (pick_next_task_fair), with each level's curr in place: the levels the pick walks through
    // are checked there (pick_walk), the others after it (set_next, or the next hook).
    if (SCHEDCORE_UNLIKELY(bw_groups_ != 0)) defer_throttles(static_cast<node_type&>(t).parent, now);
  }
  /// Ticks every level from `curr` to the root; true if any level asks for a reschedule.
  bool tick(Task& curr, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(running_ != &curr)) return false;  // refuse: not the running task
    // update_curr's account_cfs_rq_runtime: a group that ran out with its pool empty asks for
    // a reschedule (resched_curr), and put_prev throttles it.
    bool resched = false;
    if (SCHEDCORE_UNLIKELY(bw_groups_ != 0)) {
      resched = charge_bandwidth(now) || bw_resched_;  // and one asked for since (still pending)
      bw_resched_ = false;
    } else
      exec_start_ = now;  // kept without pools too: a first pool's next charge needs run time since (update_curr)
    for (node_type* n = &curr; n != nullptr; n = parent_node(*n)) {
      Inner& q = queue_of(*n);
      if constexpr (has_buddy_marks<Inner>::value) {
        // check_preempt_tick's (cfs) or update_curr's (eevdf) clear_buddies climbs from the
        // level whose slice ran out.
        const u8 marks = q.buddy_marks(*n);
        resched = q.tick(*n, now) || resched;
        if (marks != 0) clear_marks_above(*n, static_cast<u8>(marks & ~q.buddy_marks(*n)));
      } else {
        resched = q.tick(*n, now) || resched;
      }
    }
    return resched;
  }
  /// The kernel's find_matching_se: the woken task's and the running task's ancestors that
  /// share a queue are compared by that queue's policy. O(depth).
  bool wakeup_preempt(Task& woken, Task& curr, sched_time now) noexcept {
    if (SCHEDCORE_LIKELY(bw_groups_ == 0)) return wakeup_preempt_walk(woken, curr, now);
    // A task woken under a throttled group cannot run (check_preempt_wakeup_fair's
    // throttled_hierarchy test). A reschedule the wakeup's charges asked for (its enqueue's or
    // this check's update_curr: __account_cfs_rq_runtime's resched_curr) is handed out here.
    const bool preempt = !hidden(woken) && wakeup_preempt_walk(woken, curr, now);
    const bool out = bw_resched_;
    bw_resched_ = false;
    return preempt || out;
  }
  /// wakeup_preempt's walk: find_matching_se and the comparison there.
  bool wakeup_preempt_walk(Task& woken, Task& curr, sched_time now) noexcept {
    node_type* a = &woken;
    node_type* b = &curr;
    while (a->depth > b->depth) a = parent_node(*a);
    while (b->depth > a->depth) b = parent_node(*b);
    while (a->parent != b->parent) {
      a = parent_node(*a);
      b = parent_node(*b);
    }
    if (a == b) return false;
    if constexpr (has_buddy_walk<Inner>::value) {
      // The kernel's own tests on the tasks, the comparison of a and b, and its buddy marks
      // along whole paths (check_preempt_wakeup's set_next_buddy and set_last_buddy).
      node_type& w = woken;
      node_type& c = curr;
      u8 marks = 0;
      if (SCHEDCORE_UNLIKELY(bw_groups_ != 0)) charge_queue(queue_of(*a), now);  // check_preempt_wakeup's update_curr
      const bool preempt = queue_of(*a).wakeup_preempt_matched(w, queue_of(w), c, queue_of(c), *a, *b, now, marks);
      if ((marks & Inner::mark_woken_path) != 0) mark_path(&w, Inner::buddy_next);
      if ((marks & Inner::mark_next_above) != 0) mark_path(a, Inner::buddy_next);
      if ((marks & Inner::mark_last_above) != 0) mark_path(b, Inner::buddy_last);
      return preempt;
    } else {
      Inner& q = queue_of(*a);
      bool preempt = false;
      charging(q, nullptr, now, [&] { preempt = q.wakeup_preempt(*a, *b, now); });  // its update_curr
      return preempt;
    }
  }
  /// Groups whose node is a delayed sleeper in its parent's queue (eevdf's DELAY_DEQUEUE: the
  /// group emptied while ineligible); a pick that meets one completes its dequeue. O(groups).
  usize delayed_groups() const noexcept {
    usize n = 0;
    for (const task_group* g = groups_; g != nullptr; g = g->next_)
      if (g->queued && g->dequeue_delayed && traits::delayed(queue_of(*g), *g)) ++n;
    return n;
  }
  /// Delayed sleepers among the tasks (eevdf's delay_dequeue): blocked, still in their queues.
  /// O(groups).
  usize delayed_tasks() const noexcept {
    if constexpr (has_nr_delayed<Inner>::value) {
      usize n = root_.nr_delayed();
      for (const task_group* g = groups_; g != nullptr; g = g->next_) n += g->rq_.nr_delayed();
      return n - delayed_groups();
    } else {
      return 0;
    }
  }
  /// Tasks queued in every group (running included), those under a throttled group too (as
  /// policy.hpp's contract counts RT-throttled tasks); group nodes and delayed sleepers are
  /// not counted.
  usize nr_runnable() const noexcept { return nr_tasks_; }
  /// The tasks of `nr_runnable()` that can run: those under a throttled group are left out
  /// (the kernel's rq->nr_running with CFS bandwidth control).
  usize nr_unthrottled() const noexcept { return bw_groups_ != 0 ? nr_visible_ : nr_tasks_; }
  /// The running task of this class, or nullptr.
  Task* current() const noexcept { return running_; }
  /// Whether the runtime checks of the path put back at the last `put_prev` (or by the running
  /// task's sleep) still wait for the pick: the kernel's pick_next_task_fair checks each queue it
  /// walks through with its curr still set (check_cfs_rq_runtime), so `pick_next` may then draw
  /// 1 ns from a pool or throttle a group (and pick again from the root, as its `simple` path),
  /// which is its one side effect besides completing delayed dequeues; the levels it does not
  /// walk through are checked at `set_next` or the next hook (put_prev_entity after the pick).
  /// (When a class above picks instead, the kernel's put_prev_task checks every level at once;
  /// here they wait for this class's next hook, `next_timer` aside, which only reads.)
  bool runtime_checks_pending() const noexcept { return throttle_from_ != nullptr; }

  /// Optional hook `yield`. The kernel's yield_task_fair returns only when the CPU runs nothing
  /// else (rq->nr_running == 1), so an inner policy with `yield_at_level(node, now)` yields
  /// even where the task is alone in its queue: eevdf pushes its deadline back there; cfs
  /// also clears its buddy marks up the path and makes each group above the skip buddy
  /// (set_skip_buddy), so a task alone in its group still yields its group's turn at the
  /// levels above, and its own turn to a task that joins it. The CPU's count here is this
  /// class's tasks that can run (`nr_unthrottled()`): tasks of other classes are not seen.
  /// Another inner policy yields through its own `yield`, in the task's queue.
  void yield(Task& curr, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(running_ != &curr)) return;  // refuse: not the running task
    if constexpr (has_buddy_walk<Inner>::value) {
      if (nr_unthrottled() <= 1) return;
      node_type& leaf = curr;
      Inner& q = queue_of(leaf);
      const u8 marks = q.buddy_marks(leaf);
      if (SCHEDCORE_UNLIKELY(bw_groups_ != 0)) charge_queue(q, now);  // yield_task_fair's update_curr
      q.yield_at_level(leaf, now);  // clear_buddies, update_curr and the skip mark, in its own queue
      if (marks != 0) clear_marks_above(leaf, marks);
      for (node_type* n = parent_node(leaf); n != nullptr; n = parent_node(*n)) (void)queue_of(*n).mark_buddy(*n, Inner::buddy_skip);
    } else if constexpr (has_yield_at_level<Inner>::value) {
      // eevdf: yield_task_fair pushes the deadline back in the task's own queue only. Its
      // rq->nr_running still counts delayed sleepers (6.12+).
      if (nr_unthrottled() + delayed_tasks() <= 1) return;
      Inner& q = queue_of(curr);
      charging(q, nullptr, now, [&] { q.yield_at_level(curr, now); });  // clear_buddies, update_curr
    } else {
      traits::yield(queue_of(curr), curr, now);
    }
  }
  /// Optional hook `prio_changed`: in `t`'s own queue.
  void prio_changed(Task& t, sched_time now) noexcept { traits::prio_changed(queue_of(t), t, now); }
  /// Optional hook `task_new`: in the child's queue; the parent is passed on when it shares
  /// that queue (a fork inherits the parent's group; a child placed elsewhere starts fresh).
  void task_new(Task& child, Task* parent, sched_time now) noexcept {
    node_type& c = child;
    node_type* par = parent != nullptr && static_cast<node_type*>(parent)->parent == c.parent ? parent : nullptr;
    traits::task_new(queue_of(c), c, par, now);
  }
  /// Optional hook `task_dead`: in `t`'s own queue.
  void task_dead(Task& t, sched_time now) noexcept { traits::task_dead(queue_of(t), t, now); }
  /// Optional hook `migrate_task_rq`: in `t`'s own queue (its group's queue on this CPU, as
  /// the kernel's cfs_rq_of(se) there).
  void migrate_task_rq(Task& t, sched_time now) noexcept { traits::migrate_task_rq(queue_of(t), t, now); }
  /// Optional hook `switched_from`: in `t`'s own queue. A delayed sleeper the inner hook takes
  /// out of its queue (eevdf's DELAY_DEQUEUE) may leave a group empty: that group, and each
  /// one above left empty, leaves its parent as a sleeper (the kernel's dequeue with
  /// DEQUEUE_DELAYED before a class change walks up the same way).
  void switched_from(Task& t, sched_time now) noexcept {
    node_type& leaf = t;
    sync(leaf);
    flush_throttles();
    flush_climbs();
    const bool was_delayed = leaf.queued && leaf.dequeue_delayed;
    Inner& q = queue_of(leaf);
    charging(q, nullptr, now, [&] { traits::switched_from(q, t, now); });
    if (was_delayed && !traits::delayed(q, leaf)) {
      leaf.queued = leaf.dequeue_delayed = false;
      // The kernel finishes it with dequeue_task(DEQUEUE_SLEEP | DEQUEUE_DELAYED): a sleep, so
      // dequeue_entities sets the next buddy above as for any sleeper, then the group slices.
      task_group* delayed_group = nullptr;
      group_member* const p = leave_empty_groups(leaf.parent, now, &delayed_group);
      if (delayed_group == nullptr) sleep_buddy(p);
      group_slices_after_dequeue(p, delayed_group);
    }
  }
  /// Optional hook `delayed`: asked of `t`'s own queue.
  bool delayed(const Task& t) const noexcept { return traits::delayed(queue_of(t), t); }
  /// The earliest class timer of any queue, and for each throttled group the period boundary
  /// it waits for (its pool's refill) or its pool's slack timer if that comes first.
  bool next_timer(sched_time& when) const noexcept {
    bool found = traits::next_timer(root_, when);
    for (const task_group* g = groups_; g != nullptr; g = g->next_) {
      sched_time t{};
      if (traits::next_timer(g->rq_, t) && (!found || t < when)) {
        when = t;
        found = true;
      }
      if (!g->throttled_) continue;
      t = g->wake_at_;
      sched_time slack{};
      if (g->bw_ != nullptr && g->bw_->slack_timer(slack) && slack < t) t = slack;
      if (!found || t < when) {
        when = t;
        found = true;
      }
    }
    return found;
  }
  /// Runs every queue's due timers, then the bandwidth period timer for each throttled group
  /// whose boundary has come, or whose pool's slack timer opened a round it has not seen
  /// (distribute_cfs_runtime: what it overran plus 1 ns from the pool, and unthrottled if that
  /// sufficed). True if any queue asks for a reschedule, or a group came back while nothing of
  /// this class runs and something of it can run now (`nr_unthrottled()`).
  bool timer(sched_time now) noexcept {
    flush_throttles();
    bool resched = traits::timer(root_, now);
    for (task_group* g = groups_; g != nullptr; g = g->next_) resched = traits::timer(g->rq_, now) || resched;
    if (bw_groups_ == 0) return resched;
    bool back = false;
    for (task_group* g = groups_; g != nullptr; g = g->next_) {
      if (!g->throttled_) continue;
      if (pool_changed(*g)) {  // reconfigured without set_group_bandwidth: as if it was called
        g->runtime_remaining_ = 0;
        // (A throttled group has a pool: set_group_bandwidth unthrottles before lifting one.
        // The test keeps -Wnull-dereference from reading the pool_changed branch as a path.)
        if (g->bw_ != nullptr) g->bw_generation_ = g->bw_->generation();
        unthrottle(*g, now);
        back = true;
        continue;
      }
      g->bw_->fire_slack(now);  // the first queue to see the slack timer fire decides the round
      const bool slack = g->bw_->slack_round() != g->slack_seen_;
      if (now < g->wake_at_ && !slack) continue;
      g->slack_seen_ = g->bw_->slack_round();
      g->runtime_remaining_ += g->bw_->acquire(1 - g->runtime_remaining_, now);
      if (g->runtime_remaining_ > 0) {
        unthrottle(*g, now);
        back = true;
      } else {
        g->wake_at_ = g->bw_->next_refill();  // the pool ran dry on other CPUs: next period
      }
    }
    // unthrottle_cfs_rq reschedules an idle CPU only when its root queue then holds something
    // ("rq->curr == rq->idle && rq->cfs.nr_running"): a group that came back into a parent
    // throttled on the spot (check_enqueue_throttle) or still throttled makes nothing runnable.
    return resched || (back && running_ == nullptr && nr_unthrottled() != 0);
  }
  /// Optional hook `change_resched`: asked of the root queue (the kernel's `rq->cfs`, whose
  /// nr_running prio_changed_fair tests) for the node of `curr`'s path there.
  bool change_resched(Task& curr, const param_change& c, sched_time now) noexcept {
    node_type* top = &curr;
    while (parent_node(*top) != nullptr) top = parent_node(*top);
    return traits::change_resched(root_, *top, c, now);
  }
  /// A reschedule any queue asked for inside a dequeue (each request is cleared).
  bool take_resched() noexcept {
    bool resched = bw_resched_;  // a charge of some hook ran a group out (__account_cfs_rq_runtime)
    bw_resched_ = false;
    resched = traits::take_resched(root_) || resched;
    for (task_group* g = groups_; g != nullptr; g = g->next_) resched = traits::take_resched(g->rq_) || resched;
    return resched;
  }
  /// Every queue's own check, and the invariants of the file comment. O(groups² + tasks).
  bool verify() const noexcept {
    if (!traits::verify(root_)) return false;
    for (const task_group* g = groups_; g != nullptr; g = g->next_) {
      if (g->owner_ != this || !g->is_group || !traits::verify(g->rq_)) return false;
      // Marks a pick has made stale (a delayed dequeue it completed) read as their truth.
      const bool delayed = g->queued && g->dequeue_delayed && traits::delayed(queue_of(*g), *g);
      const bool queued = g->queued && (!g->dequeue_delayed || delayed);
      // A throttled group is out of its parent. Otherwise a group holding anything is queued
      // and runnable; an empty one is out, or delayed.
      if (g->throttled_ ? queued : queue_empty(*g) ? queued && !delayed : !queued || delayed) return false;
      const u16 depth = g->parent != nullptr ? static_cast<u16>(g->parent->depth + 1u) : u16{0};
      if (g->depth != depth) return false;
      // h_nr (kept while some group has a pool): its own queue's runnable tasks plus each
      // unthrottled child group's h_nr.
      if (bw_groups_ != 0 && g->h_nr_ != tasks_below(g)) return false;
      if (bw_groups_ == 0 && g->throttled_) return false;
    }
    if (bw_groups_ != 0 && nr_visible_ != tasks_below(nullptr)) return false;
    // Every queue's runnable nodes are the tasks plus the groups queued and not delayed.
    usize nodes = root_.nr_runnable(), queued_groups = 0;
    for (const task_group* g = groups_; g != nullptr; g = g->next_) {
      nodes += g->rq_.nr_runnable();
      if (g->queued && !g->dequeue_delayed) ++queued_groups;
    }
    if (nodes != nr_tasks_ + queued_groups) return false;
    if (running_ != nullptr) {
      for (const node_type* n = running_; n != nullptr; n = parent_node(*n)) {
        if (!n->queued) return false;
      }
    }
    return true;
  }

 private:
  static task_group& group_of(group_member& m) noexcept { return static_cast<task_group&>(static_cast<node_type&>(m)); }
  static const task_group& group_of(const group_member& m) noexcept {
    return static_cast<const task_group&>(static_cast<const node_type&>(m));
  }
  static node_type* parent_node(node_type& n) noexcept {
    return n.parent != nullptr ? static_cast<node_type*>(&group_of(*n.parent)) : nullptr;
  }
  static const node_type* parent_node(const node_type& n) noexcept {
    return n.parent != nullptr ? static_cast<const node_type*>(&group_of(*n.parent)) : nullptr;
  }
  Inner& queue_of(node_type& n) noexcept { return n.parent != nullptr ? group_of(*n.parent).rq_ : root_; }
  const Inner& queue_of(const node_type& n) const noexcept {
    return n.parent != nullptr ? group_of(*n.parent).rq_ : root_;
  }
  void copy_config(Inner& q) noexcept {
    if constexpr (has_knobs<Inner>::value) (void)q.configure(root_.config());
  }
  /// Whether `n` is in its queue: marked queued, and not a delayed sleeper whose dequeue a pick
  /// of its queue has since completed (a pick cannot tell which nodes it completed). Reads only.
  bool in_queue(const node_type& n) const noexcept {
    return n.queued && (!n.dequeue_delayed || traits::delayed(queue_of(n), n));
  }
  /// Brings the marks of `n` up to date with its queue (see in_queue).
  void sync(node_type& n) const noexcept {
    if (n.queued && n.dequeue_delayed && !traits::delayed(queue_of(n), n)) n.queued = n.dequeue_delayed = false;
  }
  /// True when `g`'s queue holds no node at all, delayed sleepers included (the kernel's
  /// `cfs_rq->load.weight == 0`): with `load()`, its queued weight; otherwise its runnable count.
  static bool queue_empty(const task_group& g) noexcept { return queue_empty(g.rq_); }
  static bool queue_empty(const Inner& q) noexcept {
    if constexpr (has_load<Inner>::value) {
      return q.load() == 0;
    } else {
      return q.nr_runnable() == 0;
    }
  }
  /// Whether the inner policy gives group nodes the shortest slice below (eevdf's `group_min_slice`).
  bool group_slices_on() const noexcept {
    if constexpr (has_group_slices<Inner>::value) {
      return root_.group_slices();
    } else {
      return false;
    }
  }
  /// `n` leaves its queue `q`; with an inner policy whose buddies span the hierarchy, the
  /// marks its dequeue cleared are cleared above it too (dequeue_entity's clear_buddies).
  void dequeue_node(Inner& q, node_type& n, sched_time now, dequeue_flags flags) noexcept {
    if constexpr (has_charge_clears<Inner>::value) {
      charging(q, &n, now, [&] { q.dequeue(n, now, flags); });  // its update_curr too
      return;
    }
    if (SCHEDCORE_UNLIKELY(bw_groups_ != 0)) charge_queue(q, now);  // dequeue_entity's update_curr
    if constexpr (has_buddy_walk<Inner>::value) {
      const u8 marks = q.buddy_marks(n);
      q.dequeue(n, now, flags);
      if (marks != 0) clear_marks_above(n, static_cast<u8>(marks & ~q.buddy_marks(n)));
    } else {
      q.dequeue(n, now, flags);
    }
  }
  /// The pick in queue `q` (the queue of group `in`; nullptr: the root) with `prev`'s path, put
  /// back at this instant, as the queue's running node where the inner policy cares
  /// (pick_next_keeping). O(depth) more than the inner pick when `prev` is set.
  node_type* pick_in(Inner& q, const task_group* in, node_type* prev, sched_time now, bool one_finish) noexcept {
    if constexpr (has_pick_keeping<Inner>::value) {
      const group_member* const here = in;
      for (node_type* p = prev; p != nullptr; p = parent_node(*p))
        if (p->parent == here) return p->queued ? pick_keeping(q, *p, now, one_finish) : pick_plain(q, now, one_finish);
    }
    (void)in;
    (void)prev;
    return pick_plain(q, now, one_finish);
  }
  /// The inner pick; `one_finish` (stop after each delayed sleeper it finishes) reaches an
  /// inner policy with group slices (eevdf), the only one that takes it.
  static node_type* pick_plain(Inner& q, sched_time now, bool one_finish) noexcept {
    if constexpr (has_group_slices<Inner>::value) {
      return q.pick_next(now, one_finish);
    } else {
      (void)one_finish;
      return q.pick_next(now);
    }
  }
  /// The inner pick with `p` put back at this instant as the queue's curr (pick_next_keeping).
  static node_type* pick_keeping(Inner& q, node_type& p, sched_time now, bool one_finish) noexcept {
    if constexpr (has_group_slices<Inner>::value) {
      return q.pick_next_keeping(p, now, one_finish);
    } else {
      (void)one_finish;
      return q.pick_next_keeping(p, now);
    }
  }
  /// Whether `n` is `path` or a group above it. O(depth).
  static bool on_path(const node_type* path, const node_type& n) noexcept {
    for (; path != nullptr; path = parent_node(*path))
      if (path == &n) return true;
    return false;
  }
  /// The climb of the kernel's clear_buddies once `n`'s marks of `kinds` were cleared in its
  /// queue: in each queue above, a mark of those kinds naming the group on `n`'s path is
  /// cleared, each kind until a queue marks something else. O(depth).
  void clear_marks_above(node_type& n, u8 kinds) noexcept {
    for (node_type* up = parent_node(n); up != nullptr && kinds != 0; up = parent_node(*up)) {
      Inner& q = queue_of(*up);
      kinds = static_cast<u8>(kinds & q.buddy_marks(*up));
      q.clear_buddy_marks(*up, kinds);
    }
  }
  /// The kernel's set_next_buddy, set_last_buddy or set_skip_buddy from `n`: `n` and each
  /// group above it become that buddy of their queues, until the inner policy refuses a node
  /// (not queued, or idle). O(depth).
  void mark_path(node_type* n, u8 kind) noexcept {
    for (; n != nullptr; n = parent_node(*n))
      if (!queue_of(*n).mark_buddy(*n, kind)) return;
  }
  /// pick_next's walk from the root down to a task (pick_task_fair).
  Task* pick_walk(sched_time now) noexcept {
    Inner* q = &root_;
    task_group* in = nullptr;  // the group whose queue `q` is (nullptr: the root)
    // The path put back at this instant: in the kernel's pick it is still each queue's curr.
    node_type* prev = now == prev_at_ ? prev_path_ : nullptr;
    // With group slices the inner pick stops after each delayed sleeper it finishes: that
    // sleeper left by dequeue_entities, whose walk gives the groups above their queues' shortest
    // slices before the next one leaves (the last one's lag clamp reads its group's slice).
    const bool one_finish = group_slices_on();
    for (;;) {
      climb_at(*q);
      // pick_next_task_fair checks the runtime of each queue it walks through whose curr is
      // still queued (check_cfs_rq_runtime after update_curr); one it throttles sends it to
      // `simple`: prev put back at every level (each checked), and a pick from the root
      // without the curr-in-place logic, every level then set anew.
      if (SCHEDCORE_UNLIKELY(throttle_from_ != nullptr) && in != nullptr && throttles_in_walk(*in, now)) {
        flush_climbs();
        flush_throttles();
        prev = nullptr;
        prev_path_ = nullptr;
        q = &root_;
        in = nullptr;
        continue;
      }
      const usize delayed_before = nr_delayed_in(*q);
      node_type* n = pick_in(*q, in, prev, now, one_finish);
      // A delayed sleeper the pick finished is dequeued as a sleeper (pick_next_entity's
      // dequeue_entities(DEQUEUE_SLEEP | DEQUEUE_DELAYED)): with its queue still loaded, that
      // queue's group becomes the next buddy above (set_next_buddy). The kernel's pick then
      // starts over at the root, whose picks down to `q` return the same groups again.
      // (With one_finish a finish returns nullptr: see below.)
      if (n != nullptr && in != nullptr && nr_delayed_in(*q) != delayed_before) sleep_buddy(in);
      if (n != nullptr && !n->is_group) return static_cast<Task*>(n);
      if (n != nullptr) {
        in = static_cast<task_group*>(n);
        q = &in->rq_;
        continue;
      }
      if (one_finish && !queue_empty(*q)) {
        // One finished, others left: its dequeue_entities marks the next buddy above in its
        // first loop (set_next_buddy, the queue still loaded) and sets the group slices in
        // its second, in that order; then the pick is made again here.
        sleep_buddy(in);
        update_group_slices(in);
        continue;
      }
      if (in == nullptr) return nullptr;
      // `in` held only delayed sleepers, whose dequeues its pick just completed: the group
      // leaves its parent as a sleeper (pick_task_fair's dequeue_entities(DEQUEUE_DELAYED)
      // walking up), and the pick starts again at the root. Each pass removes a group, so
      // this ends. The walk's first queue still loaded gets the next buddy, as above, and
      // then the group slices from there (or from the delayed group that ended the walk).
      task_group* delayed_group = nullptr;
      group_member* const up = leave_empty_groups(in, now, &delayed_group);
      if (delayed_group == nullptr) sleep_buddy(up);
      group_slices_after_dequeue(up, delayed_group);
      q = &root_;
      in = nullptr;
    }
  }
  /// dequeue_entities' set_next_buddy after a sleep: `p` is the first group still queued above
  /// the walk (nullptr: none); it and each group above become the next buddy, unless it is
  /// under a throttled group. Nothing for an inner policy without buddy marks. O(depth).
  void sleep_buddy(group_member* p) noexcept {
    if constexpr (has_buddy_marks<Inner>::value) {
      if (p != nullptr && !throttled_hierarchy(group_of(*p))) mark_path(&group_of(*p), Inner::buddy_next);
    } else {
      (void)p;
    }
  }
  /// Runs `f`, a hook of queue `q` that may charge the queue's running node (update_curr) and
  /// may take `n` out: with an inner policy whose charge clears marks (eevdf), a mark of the
  /// running node or of `n` that `f` cleared is cleared above too (clear_buddies' climb).
  /// With bandwidth control, the update_curr charges the running node's time to the group whose
  /// queue `q` is (charge_queue; `account` false: not a kernel update_curr).
  template <class F>
  void charging(Inner& q, node_type* n, sched_time now, F&& f, bool account = true) noexcept {
    if (SCHEDCORE_UNLIKELY(bw_groups_ != 0) && account) charge_queue(q, now);
    if constexpr (has_charge_clears<Inner>::value) {
      node_type* const c = q.current();
      const u8 mc = c != nullptr ? q.buddy_marks(*c) : u8{0};
      const u8 mn = n != nullptr && n != c ? q.buddy_marks(*n) : u8{0};
      f();
      if (mc != 0) clear_marks_above(*c, static_cast<u8>(mc & ~q.buddy_marks(*c)));
      if (mn != 0) clear_marks_above(*n, static_cast<u8>(mn & ~q.buddy_marks(*n)));
    } else {
      (void)n;
      f();
    }
  }
  /// `n` of `climb_path_` stops running in its queue; its charge (update_curr) may clear its
  /// mark there. The kernel charges these levels in the pick that follows, top-down
  /// (pick_task_fair's update_curr before each level's pick_next_entity), so the clear's climb
  /// reaches the levels above only after they were picked: it waits for the pick
  /// (climb_pending_, climb_at; flush_climbs if no pick comes first).
  void put_prev_node(node_type& n, sched_time now) noexcept {
    Inner& q = queue_of(n);
    if constexpr (has_charge_clears<Inner>::value) {
      const u8 marks = q.buddy_marks(n);
      q.put_prev(n, now);
      if ((marks & ~q.buddy_marks(n)) != 0) climb_pending_ |= static_cast<u64>(1) << n.depth;
    } else {
      q.put_prev(n, now);
    }
  }
  /// The pick reaches queue `q`: the deferred climb of the node put back there, if any, is
  /// made now (the kernel's update_curr of that level, after the levels above were picked).
  void climb_at(const Inner& q) noexcept {
    if constexpr (has_charge_clears<Inner>::value) {
      if (SCHEDCORE_LIKELY(climb_pending_ == 0)) return;
      for (node_type* n = climb_path_; n != nullptr; n = parent_node(*n)) {
        const u64 bit = static_cast<u64>(1) << n->depth;
        if ((climb_pending_ & bit) == 0 || &queue_of(*n) != &q) continue;
        climb_pending_ &= ~bit;
        clear_marks_above(*n, Inner::buddy_next);
        return;
      }
    } else {
      (void)q;
    }
  }
  /// Makes every deferred climb (the levels the pick did not walk through: the kernel charges
  /// them at put_prev_entity, after the pick; or no pick followed). O(depth²) when any.
  void flush_climbs() noexcept {
    if constexpr (has_charge_clears<Inner>::value) {
      if (SCHEDCORE_LIKELY(climb_pending_ == 0)) return;
      for (node_type* n = climb_path_; n != nullptr; n = parent_node(*n))
        if ((climb_pending_ & (static_cast<u64>(1) << n->depth)) != 0) clear_marks_above(*n, Inner::buddy_next);
      climb_pending_ = 0;
    }
  }
  /// Delayed sleepers in `q` (0 for an inner policy without them).
  static usize nr_delayed_in(const Inner& q) noexcept {
    if constexpr (has_nr_delayed<Inner>::value) {
      return q.nr_delayed();
    } else {
      (void)q;
      return 0;
    }
  }
  /// From `p` upward, each group whose queue holds nothing leaves its parent's queue as a
  /// sleeper. A group whose dequeue its parent delays stays there and ends the walk (the
  /// kernel's dequeue_entities stops at a delayed entity). Returns the first group above the
  /// walk, still queued (nullptr: the root), and in `delayed` (if given) the group whose
  /// delayed dequeue ended it (it stays nullptr otherwise). `flags`: those of each group's
  /// dequeue, `sleep`, or `sleep | save` after a task's dequeue(save) (see dequeue).
  group_member* leave_empty_groups(group_member* p, sched_time now, task_group** delayed = nullptr,
                                   dequeue_flags flags = dequeue_flags::sleep) noexcept {
    // A throttled group is out of its parent already; nothing above it changes.
    while (p != nullptr && !group_of(*p).throttled_ && queue_empty(group_of(*p))) {
      task_group& g = group_of(*p);
      if (SCHEDCORE_UNLIKELY(g.bw_ != nullptr)) return_slack(g, now);
      Inner& pq = queue_of(g);
      dequeue_node(pq, g, now, flags);
      p = p->parent;
      g.dequeue_delayed = traits::delayed(pq, g);
      g.queued = g.dequeue_delayed;
      if (g.dequeue_delayed) {
        if (delayed != nullptr) *delayed = &g;
        break;
      }
    }
    return p;
  }
  /// Linux 6.12's group slice (commit aef6987d8954; the inner knob `group_min_slice`): from
  /// `p` upward, each group's node takes the shortest slice queued in the group's queue (the
  /// second loop of enqueue_task_fair and dequeue_entities; the first loop's, for a node about
  /// to be enqueued, is in raise_groups). Ends at a throttled group, as those loops stop at a
  /// throttled cfs_rq. Only enqueue and dequeue walks do this, never a pick of a task (nor
  /// throttle/unthrottle in 6.12). O(depth · log n).
  void update_group_slices(group_member* p) noexcept {
    if constexpr (has_group_slices<Inner>::value) {
      if (!group_slices_on()) return;
      for (; p != nullptr && !group_of(*p).throttled_; p = p->parent) update_group_slice(group_of(*p));
    } else {
      (void)p;
    }
  }
  /// With `group_min_slice`: `g`'s node takes the shortest slice queued in `g`'s queue (which
  /// is not empty: the kernel's cfs_rq_min_slice would be U64_MAX). O(log n).
  void update_group_slice(task_group& g) noexcept {
    if constexpr (has_group_slices<Inner>::value) {
      if (group_slices_on() && !queue_empty(g)) queue_of(g).set_group_slice(g, g.rq_.min_queued_slice());
    } else {
      (void)g;
    }
  }
  /// The slice walk after a dequeue that left the groups below `p` (leave_empty_groups). A
  /// group whose own dequeue its parent delayed takes the shortest slice of the queue it stays
  /// in, itself included (6.12.28+, commit bbce3de72be5: 6.12.20 left it the slice the walk
  /// carried, 0 or U64_MAX, which could crash the kernel); then the groups from `p` up.
  void group_slices_after_dequeue(group_member* p, task_group* delayed) noexcept {
    if constexpr (has_group_slices<Inner>::value) {
      if (!group_slices_on()) return;
      if (delayed != nullptr) queue_of(*delayed).set_group_slice(*delayed, queue_of(*delayed).min_queued_slice());
    } else {
      (void)delayed;
    }
    update_group_slices(p);
  }
  /// True when `g` is the running task's group or above it.
  bool on_running_path(const task_group& g) const noexcept {
    for (const node_type* n = running_; n != nullptr; n = parent_node(*n)) {
      if (n == &g) return true;
    }
    return false;
  }
  /// A parameter change of a group's node, requeued around `apply` as policy.hpp prescribes.
  template <class Apply>
  errc change_group(task_group& g, sched_time now, Apply apply) noexcept {
    const bool queued = g.queued, running = on_running_path(g);
    Inner& q = queue_of(g);
    if (queued) dequeue_node(q, g, now, dequeue_flags::save);
    const errc e = apply(g);  // validated by the caller on a probe: cannot fail here
    if (queued) {
      charging(q, nullptr, now, [&] { q.enqueue(g, now, enqueue_flags::restore); });
      if (running) q.set_next(g, now);
      traits::prio_changed(q, g, now);
    }
    return e;
  }

  /// Adds (or removes) a task that became (or stopped being) runnable: the class's count, the
  /// h_nr of each group above it up to and including the first throttled one, and the count of
  /// tasks that can run when none is (enqueue_task_fair's h_nr_running walk). O(depth).
  void count_task(const node_type& leaf, bool add) noexcept {
    nr_tasks_ = add ? nr_tasks_ + 1 : nr_tasks_ - 1;
    if (SCHEDCORE_LIKELY(bw_groups_ == 0)) return;  // nothing is throttled; the counts are rebuilt when a pool comes
    for (group_member* p = leaf.parent; p != nullptr; p = p->parent) {
      task_group& g = group_of(*p);
      g.h_nr_ = add ? g.h_nr_ + 1 : g.h_nr_ - 1;
      if (g.throttled_) return;
    }
    nr_visible_ = add ? nr_visible_ + 1 : nr_visible_ - 1;
  }
  /// Moves `n` tasks of throttled (or unthrottled) `g` out of (into) the counts above it, up
  /// to and including the first throttled group (throttle_cfs_rq's sub_nr_running). O(depth).
  void shift_hidden(const task_group& g, usize n, bool hide) noexcept {
    for (group_member* p = g.parent; p != nullptr; p = p->parent) {
      task_group& up = group_of(*p);
      up.h_nr_ = hide ? up.h_nr_ - n : up.h_nr_ + n;
      if (up.throttled_) return;
    }
    nr_visible_ = hide ? nr_visible_ - n : nr_visible_ + n;
  }
  /// Tasks runnable directly in `g`'s queue (nullptr: the root's) plus the h_nr of each child
  /// group not throttled: what `g.h_nr_` (nr_visible_) must be. O(groups).
  usize tasks_below(const task_group* g) const noexcept {
    usize n = g != nullptr ? g->rq_.nr_runnable() : root_.nr_runnable();
    for (const task_group* c = groups_; c != nullptr; c = c->next_) {
      if (c->parent != static_cast<const group_member*>(g)) continue;
      if (c->queued && !c->dequeue_delayed) --n;  // its node, not a task
      if (!c->throttled_) n += c->h_nr_;
    }
    return n;
  }
  /// Whether a task is under a throttled group (cannot run until it is unthrottled). O(depth).
  static bool hidden(const node_type& t) noexcept {
    for (const group_member* p = t.parent; p != nullptr; p = p->parent)
      if (group_of(*p).throttled_) return true;
    return false;
  }
  /// Whether `g` is limited by a pool with a quota.
  static bool limited(const task_group& g) noexcept { return g.bw_ != nullptr && g.bw_->limited(); }
  /// Whether `g`'s pool was reconfigured (or lifted) since its budget was last reset.
  static bool pool_changed(const task_group& g) noexcept {
    return g.bw_ == nullptr || !g.bw_->limited() || g.bw_generation_ != g.bw_->generation();
  }
  /// Resets `g`'s budget when its pool was reconfigured since (tg_set_cfs_bandwidth sets
  /// every CPU's runtime_remaining to 0).
  static void sync_budget(task_group& g) noexcept {
    if (g.bw_ != nullptr && g.bw_generation_ != g.bw_->generation()) {
      g.bw_generation_ = g.bw_->generation();
      g.runtime_remaining_ = 0;
    }
  }
  /// Tops up `g`'s budget to `target` ns from its pool when it has run out
  /// (__assign_cfs_rq_runtime). True if the budget is positive after.
  static bool top_up(task_group& g, duration_ns target, sched_time now) noexcept {
    if (g.runtime_remaining_ > 0) return true;
    g.runtime_remaining_ += g.bw_->acquire(target - g.runtime_remaining_, now);
    return g.runtime_remaining_ > 0;
  }
  /// Charges the running task's time since it was last charged to every limited group above
  /// it, each topping up by a slice when it runs out (update_curr's account_cfs_rq_runtime).
  /// True if some group is out of budget with its pool empty. O(depth).
  /// A group whose pool was reconfigured (or that was given a pool, set_group_bandwidth) since
  /// it was last charged starts from 0 and pays only for the time since then (the kernel's
  /// tg_set_cfs_bandwidth zeroes runtime_remaining without an update_curr first, so its next
  /// update_curr charges the changed pool the whole interval; here the time before the change
  /// stays with the old limit, whose budget the change discards). The other groups pay the
  /// whole interval, as in the kernel.
  /// No time run, no accounting: update_curr returns at "delta_exec <= 0" before
  /// account_cfs_rq_runtime, so a budget <= 0 draws no slice (and starts no period) until the
  /// running task has run at least 1 ns.
  SCHEDCORE_COLD bool charge_bandwidth(sched_time now) noexcept {
    if (running_ == nullptr) return false;
    bool out = false;
    for (group_member* p = static_cast<node_type*>(running_)->parent; p != nullptr; p = p->parent)
      out = charge_level(group_of(*p), now) || out;
    return out;
  }
  /// One level's update_curr: the running node of `g`'s queue has run since `g.bw_clock_`;
  /// `g` pays for it if limited (account_cfs_rq_runtime). True if `g` is out of budget with its
  /// pool empty (__account_cfs_rq_runtime's resched_curr). `g` is on the running path.
  SCHEDCORE_COLD bool charge_level(task_group& g, sched_time now) noexcept {
    const sched_time since = g.bw_clock_;
    const duration_ns delta = now - since;
    if (delta <= 0) return false;
    g.bw_clock_ = now;
    const duration_ns skip = g.bw_skip_;
    g.bw_skip_ = 0;
    if (!limited(g)) return false;
    duration_ns d = delta - skip;
    if (g.bw_generation_ != g.bw_->generation()) {
      sync_budget(g);
      d = now - later_of(since, g.bw_->configured_at());
    }
    if (d > 0) g.runtime_remaining_ -= d;
    return !g.throttled_ && !top_up(g, g.bw_->slice(), now);
  }
  /// The update_curr of queue `q` in a hook other than tick, put_prev and the running task's
  /// dequeue (an enqueue or dequeue there, a wakeup's check, a yield, a reweight of its curr):
  /// if `q` is on the running path, the group whose queue it is pays its running node's time
  /// since that level was last charged; a reschedule it asks for waits in bw_resched_
  /// (take_resched, or the wakeup_preempt or tick that follows). O(depth).
  SCHEDCORE_COLD void charge_queue(const Inner& q, sched_time now) noexcept {
    for (node_type* n = running_; n != nullptr; n = parent_node(*n)) {
      if (&queue_of(*n) != &q) continue;
      if (n->parent != nullptr && charge_level(group_of(*n->parent), now)) bw_resched_ = true;
      return;
    }
  }
  /// From `p` upward, each limited group out of budget is throttled unless 1 ns can still be
  /// drawn (check_cfs_rq_runtime, throttle_cfs_rq's __assign_cfs_rq_runtime(.., 1)). O(depth).
  SCHEDCORE_COLD void throttle_exhausted(group_member* p, sched_time now) noexcept {
    for (; p != nullptr; p = p->parent) {
      task_group& g = group_of(*p);
      if (g.throttled_ || !limited(g)) continue;
      sync_budget(g);
      if (!top_up(g, 1, now)) throttle(g, now);
    }
  }
  /// The checks of put_prev_entity for the groups from `p` upward wait for the pick at `now`
  /// (see put_prev). O(1).
  void defer_throttles(group_member* p, sched_time now) noexcept {
    flush_throttles();
    throttle_from_ = p;
    throttle_at_ = now;
  }
  /// Makes the checks deferred by defer_throttles, at the instant they were deferred. O(depth).
  void flush_throttles() noexcept {
    if (SCHEDCORE_LIKELY(throttle_from_ == nullptr)) return;
    group_member* const p = throttle_from_;
    throttle_from_ = nullptr;
    throttle_exhausted(p, throttle_at_);
  }
  /// The pick walks into `in`'s queue: if `in` is on the path put back whose checks wait
  /// (its queue's curr is still set in the kernel's pick, queued or blocked: pick_next_task_fair
  /// checks under "if (curr)" either way), check_cfs_rq_runtime of `in`, as throttle_exhausted.
  /// True if `in` is throttled. O(depth).
  SCHEDCORE_COLD bool throttles_in_walk(task_group& in, sched_time now) noexcept {
    for (group_member* p = throttle_from_; p != nullptr; p = p->parent) {
      if (p != static_cast<group_member*>(&in)) continue;
      if (in.throttled_ || !limited(in)) return false;
      sync_budget(in);
      if (top_up(in, 1, now)) return false;
      throttle(in, now);
      return true;
    }
    return false;
  }
  /// `g` leaves its parent (as a sleeper that is never delayed: DEQUEUE_SPECIAL) until its
  /// pool's next refill; its tasks are hidden from the groups above; each group it leaves
  /// empty leaves its parent too (throttle_cfs_rq). `g` does not run. O(depth).
  void throttle(task_group& g, sched_time now) noexcept {
    sync(g);
    g.throttled_ = true;
    g.throttled_at_ = now;
    g.wake_at_ = g.bw_->next_refill();
    g.bw_->note_throttle();
    g.slack_seen_ = g.bw_->slack_round();  // a round before the throttle is not for it
    shift_hidden(g, g.h_nr_, true);
    if (!g.queued) return;
    if (g.dequeue_delayed) {
      // A delayed sleeper in its parent (it emptied while ineligible; a throttle below it can
      // leave it so): its dequeue is completed (the kernel's throttle adds DEQUEUE_DELAYED),
      // as the inner policy does before a class change.
      traits::switched_from(queue_of(g), g, now);
    } else {
      dequeue_node(queue_of(g), g, now, dequeue_flags::sleep | dequeue_flags::special);
    }
    g.queued = g.dequeue_delayed = false;
    (void)leave_empty_groups(g.parent, now);
  }
  /// `g` comes back: its tasks count again above it, and its node (if it holds anything)
  /// enters its parent as a waking sleeper, raising the groups above (unthrottle_cfs_rq).
  /// `note` false: the throttle's end was recorded already (set_group_bandwidth, on the old pool).
  void unthrottle(task_group& g, sched_time now, bool note = true) noexcept {
    g.throttled_ = false;
    if (note && g.bw_ != nullptr) g.bw_->note_unthrottle(now - g.throttled_at_);
    shift_hidden(g, g.h_nr_, false);
    // unthrottle_cfs_rq enqueues g's node without testing g's own budget (0 after a
    // reconfiguration: it draws at its next update_curr); the groups above that it fills are
    // tested as at any enqueue (check_enqueue_throttle).
    if (!queue_empty(g)) raise_groups(&g, now, true, &g);
  }
  /// From `p` upward, each group that is out of its parent (or a delayed sleeper there) enters
  /// it with `wakeup`, until one already queued. A throttled group stays out, and so does a
  /// limited group that finds no budget when it gets its first task (check_enqueue_throttle:
  /// it is throttled there). O(depth).
  /// `unchecked`: a group entered without the budget test (one being unthrottled).
  /// `slices`: a task's enqueue, which gives each group's node the shortest slice queued in
  /// the group's queue before it enters its parent (enqueue_task_fair's first loop; 6.12's
  /// unthrottle_cfs_rq does not), so that its placement issues that request.
  void raise_groups(group_member* p, sched_time now, bool check_budget = true,
                    const task_group* unchecked = nullptr, bool slices = false) noexcept {
    for (; p != nullptr; p = p->parent) {
      task_group& g = group_of(*p);
      sync(g);
      if (g.queued && !g.dequeue_delayed) break;
      if (SCHEDCORE_UNLIKELY(bw_groups_ != 0)) {
        if (g.throttled_) break;
        if (check_budget && &g != unchecked && !g.queued && limited(g)) {
          sync_budget(g);
          if (!top_up(g, g.bw_->slice(), now)) {
            throttle(g, now);
            break;
          }
        }
      }
      // A delayed node is requeued with the slice it has; the walk after this updates it.
      if (slices && !g.queued) update_group_slice(g);
      Inner& pq = queue_of(g);
      charging(pq, nullptr, now, [&] { pq.enqueue(g, now, enqueue_flags::wakeup); });  // or requeued, if delayed
      g.queued = true;
      g.dequeue_delayed = false;
    }
  }
  /// Recomputes every group's h_nr and the count of tasks that can run, deepest groups first
  /// (nothing is throttled while no group has a pool). O(max_depth · groups²), once per first pool.
  void rebuild_counts() noexcept {
    for (u32 d = max_depth + 1u; d-- > 0;)
      for (task_group* g = groups_; g != nullptr; g = g->next_)
        if (g->depth == d) g->h_nr_ = tasks_below(g);
    nr_visible_ = nr_tasks_;
  }
  /// Unthrottles every throttled group above `t`, the topmost first, without the budget check
  /// on the way up (see set_next). O(depth²) when some group is throttled, else O(depth).
  SCHEDCORE_COLD void bring_back_path(const node_type& t, sched_time now) noexcept {
    for (;;) {
      task_group* top = nullptr;
      for (group_member* p = t.parent; p != nullptr; p = p->parent)
        if (group_of(*p).throttled_) top = &group_of(*p);
      if (top == nullptr) return;
      top->throttled_ = false;
      if (top->bw_ != nullptr) top->bw_->note_unthrottle(now - top->throttled_at_);
      shift_hidden(*top, top->h_nr_, false);
      raise_groups(top, now, false);
    }
  }
  /// A group left empty gives back its budget above min_local_runtime (return_cfs_rq_runtime).
  static void return_slack(task_group& g, sched_time now) noexcept {
    if (!limited(g) || g.bw_generation_ != g.bw_->generation()) return;
    const duration_ns slack = g.runtime_remaining_ - cfs_bandwidth::min_local_runtime;
    if (slack <= 0) return;
    g.bw_->give_back(slack, now);
    g.runtime_remaining_ -= slack;
  }

  Inner root_{};                  ///< the root queue
  task_group* groups_ = nullptr;  ///< attached groups (any order)
  Task* running_ = nullptr;       ///< the running task, or nullptr
  node_type* prev_path_ = nullptr;  ///< the running task put back, or the groups above one that blocked; until set_next
  node_type* climb_path_ = nullptr;  ///< the path whose put_prev charges cleared marks whose climbs wait for the pick
  u64 climb_pending_ = 0;            ///< bit d: the node of climb_path_ at depth d was cleared (eevdf; see put_prev_node)
  sched_time prev_at_{};            ///< when prev_path_ was set
  usize nr_tasks_ = 0;            ///< queued tasks (running included)
  usize nr_visible_ = 0;          ///< of those, the ones not under a throttled group
  sched_time exec_start_{};       ///< the running task's last set_next or tick (starts the levels' clocks at a first pool)
  usize bw_groups_ = 0;           ///< groups with a bandwidth pool (0: no bandwidth work at all)
  group_member* throttle_from_ = nullptr;  ///< put_prev_entity's checks waiting for the pick: this group and those above
  sched_time throttle_at_{};               ///< when they were deferred
  bool bw_resched_ = false;                ///< a charge outside tick asked for a reschedule (take_resched)
};

}  // namespace schedcore

#endif
