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
/// | `yield` | the task's own queue, or every level when `Inner::yield_every_level` (cfs: set_skip_buddy) |
/// | `set_next`, `put_prev`, `tick` | at every level from the task to the root (a tick asks for a reschedule if any level does) |
/// | `wakeup_preempt` | the two nodes of the woken and the running task that share a queue decide, in that queue (find_matching_se) |
/// | `prio_changed`, `task_new`, `task_dead`, `switched_from`, `migrate_task_rq`, `delayed` | the task's own queue |
/// | `next_timer`, `timer`, `take_resched`, `verify` | every queue |
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
/// @par Invariants (checked by `verify()`, O(groups + tasks))
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
///   its own node, so a task in a group may run up to its group's slice at the root and its own
///   slice in the group (the larger tick preemption interval of the two). EEVDF entities carry
///   their own slices, as here; the kernel's 6.12+ group entities take the shortest slice queued
///   below them, which is not modelled.
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
///   up to date when it is next used (`in_queue`). No bandwidth control (`cpu.max`), no load
///   tracking (PELT), no uclamp.
/// - `yield` acts on the task's own queue (eevdf's yield_task_fair), or at every level for an
///   inner policy that asks for it (cfs: the kernel's skip buddy is set at every level).
/// - Buddies: each queue's policy runs its own buddy rules on its own nodes, so cfs's
///   LAST_BUDDY may mark a group's node where the kernel marks only tasks (entity_is_task), and
///   the next-buddy hint dequeue_task_fair leaves on the parent when a task blocks is absent.
/// - A dead task stays a member of its group until `set_group(t, nullptr, now)`, so
///   `detach_group` of a group whose tasks exited needs that first.
#ifndef SCHEDCORE_POLICY_GROUP_HPP
#define SCHEDCORE_POLICY_GROUP_HPP

#include "schedcore/core/assert.hpp"
#include "schedcore/core/errc.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/traits.hpp"
#include "schedcore/core/types.hpp"
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
  template <class P, class = void>
  struct yield_every_level : false_type {};
  template <class P>
  struct yield_every_level<P, void_t<decltype(P::yield_every_level)>> : integral_constant<bool, P::yield_every_level> {};
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

   private:
    friend class group_policy;
    Inner rq_{};                      // the group's queue (the kernel's tg->cfs_rq[cpu])
    group_policy* owner_ = nullptr;   // the policy it is attached to
    task_group* next_ = nullptr;      // the owner's list of attached groups
    u32 members_ = 0;                 // tasks and groups whose parent is this group
    u32 weight_ = 1024;               // its node's weight as set by set_group_weight (nice 0 until then)
  };

  /// The root queue (the CPU's top-level `cfs_rq`).
  Inner& root() noexcept { return root_; }
  /// @copydoc root()
  const Inner& root() const noexcept { return root_; }

  /// Validates and installs the inner policy's knobs in every queue; on error nothing changes.
  template <class P = Inner, enable_if_t<has_knobs<P>::value, int> = 0>
  errc configure(const typename P::knobs& k) noexcept {
    if (const errc e = root_.configure(k); e != errc::ok) return e;
    for (task_group* g = groups_; g != nullptr; g = g->next_) (void)g->rq_.configure(k);
    return errc::ok;
  }
  /// The knobs in force (the same in every queue).
  template <class P = Inner, enable_if_t<has_knobs<P>::value, int> = 0>
  const typename P::knobs& config() const noexcept {
    return root_.config();
  }

  /// Makes `g` a group of this CPU under `parent` (nullptr: the root), of the inner policy's
  /// default weight (nice 0; a cgroup's default `cpu.weight` 100 = 1024 shares). Its queue takes
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
  /// (`errc::busy`; dequeue it with `save` or `migrating` first, as the kernel's
  /// sched_move_task does), unless it is in `g` already (nothing to do), and `g` must be
  /// attached here (`errc::invalid_argument`). O(1).
  ///
  /// A task that leaves a queue of this CPU (asleep, or taken out with `save`) leaves it for
  /// good: the old queue's inner `switched_from` runs, as the kernel's task_change_group_fair
  /// runs detach_task_cfs_rq (cfs: a sleeper is placed and kept relative to the old queue's
  /// min_vruntime, so that it wakes in the destination queue's frame). A task arriving from another
  /// CPU's group was detached by its `dequeue(migrating)`. (A task whose old place is some
  /// CPU's *root* cannot say which CPU's: it is detached from this CPU's root, which is right
  /// for a move on one CPU and harmless after a `dequeue(migrating)` for cfs and eevdf.)
  errc set_group(Task& t, task_group* g, sched_time now) noexcept {
    node_type& n = t;
    if (n.parent == g) return g == nullptr || g->owner_ == this ? errc::ok : errc::invalid_argument;  // already there
    if (in_queue(n)) return errc::busy;  // a delayed sleeper too: it is still in its queue
    sync(n);
    if (g != nullptr && g->owner_ != this) return errc::invalid_argument;
    if (n.parent == nullptr || group_of(*n.parent).owner_ == this) traits::switched_from(queue_of(n), n, now);
    if (n.parent != nullptr) --group_of(*n.parent).members_;
    n.parent = g;
    n.depth = g != nullptr ? static_cast<u16>(g->depth + 1u) : u16{0};
    if (g != nullptr) ++g->members_;
    return errc::ok;
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
  /// weights outside the inner policy's range and a group not attached here; on refusal
  /// nothing changes.
  template <class P = Inner, enable_if_t<has_set_weight<P>::value, int> = 0>
  errc set_group_weight(task_group& g, u32 shares, sched_time now) noexcept {
    if (g.owner_ != this) return errc::invalid_argument;
    node_type probe{};
    if (const errc e = queue_of(g).set_weight(probe, shares); e != errc::ok) return e;
    g.weight_ = shares;
    // A queued group is reweighted in place when the inner policy can (the kernel's
    // reweight_entity): a requeue and set_next would renew a running group's slice, so a
    // group reweighted at every tick (SMP shares) would never be preempted at its level.
    if constexpr (has_reweight<P>::value) {
      if (g.queued) return queue_of(g).reweight(g, shares, now);
    }
    return change_group(g, now, [&](node_type& n) { return queue_of(n).set_weight(n, shares); });
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

  /// `t` becomes runnable in its group's queue; every group left empty until now enters its
  /// parent's queue. O(depth).
  void enqueue(Task& t, sched_time now, enqueue_flags flags) noexcept {
    node_type& leaf = t;
    sync(leaf);
    if (SCHEDCORE_MISUSE(leaf.queued && !leaf.dequeue_delayed)) return;
    Inner& q = queue_of(leaf);
    q.enqueue(leaf, now, flags);  // a delayed sleeper still queued is requeued where it is
    leaf.queued = true;
    // A delayed sleeper put back by `restore`/`migrated` comes back still delayed (eevdf).
    leaf.dequeue_delayed = traits::delayed(q, leaf);
    if (!leaf.dequeue_delayed) ++nr_tasks_;
    for (group_member* p = leaf.parent; p != nullptr; p = p->parent) {
      task_group& g = group_of(*p);
      sync(g);
      if (g.queued && !g.dequeue_delayed) break;
      queue_of(g).enqueue(g, now, enqueue_flags::wakeup);  // or requeued, if delayed
      g.queued = true;
      g.dequeue_delayed = false;
    }
  }
  /// `t` leaves its group's queue; every group it leaves empty leaves its parent's (as a
  /// sleeper). If `t` was running, the groups still queued above it stop running. O(depth).
  void dequeue(Task& t, sched_time now, dequeue_flags flags) noexcept {
    node_type& leaf = t;
    sync(leaf);
    if (SCHEDCORE_MISUSE(!leaf.queued)) return;
    const bool was_running = running_ == &t, was_delayed = leaf.dequeue_delayed;
    Inner& q = queue_of(leaf);
    q.dequeue(leaf, now, flags);  // the inner policy refuses what it must (a delayed sleeper's sleep)
    if (was_delayed) {
      // Only a move (save, migrating) takes a delayed sleeper out; it stays delayed, uncounted.
      if (traits::delayed(q, leaf) && !has(flags, dequeue_flags::save) && !has(flags, dequeue_flags::migrating)) return;
      leaf.dequeue_delayed = false;
    } else {
      --nr_tasks_;
      // DELAY_DEQUEUE: an ineligible sleeper stays in its queue, and so do the groups above it.
      leaf.dequeue_delayed = has(flags, dequeue_flags::sleep) && traits::delayed(q, leaf);
    }
    leaf.queued = leaf.dequeue_delayed;
    if (was_running) running_ = nullptr;
    group_member* p = leaf.queued ? leaf.parent : leave_empty_groups(leaf.parent, now);
    if (was_running) {
      for (; p != nullptr; p = p->parent) queue_of(group_of(*p)).put_prev(group_of(*p), now);
    }
  }
  /// Picks at the root, then inside each picked group, down to a task. No side effects beyond
  /// the inner picks'. O(depth · pick).
  Task* pick_next(sched_time now) noexcept {
    Inner* q = &root_;
    task_group* in = nullptr;  // the group whose queue `q` is (nullptr: the root)
    for (;;) {
      node_type* n = q->pick_next(now);
      if (n != nullptr && !n->is_group) return static_cast<Task*>(n);
      if (n != nullptr) {
        in = static_cast<task_group*>(n);
        q = &in->rq_;
        continue;
      }
      if (in == nullptr) return nullptr;
      // `in` held only delayed sleepers, whose dequeues its pick just completed: the group
      // leaves its parent as a sleeper (pick_task_fair's dequeue_entities(DEQUEUE_DELAYED)
      // walking up), and the pick starts again at the root. Each pass removes a group, so
      // this ends.
      (void)leave_empty_groups(in, now);
      q = &root_;
      in = nullptr;
    }
  }
  /// `t` and every group above it start running in their queues.
  void set_next(Task& t, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(running_ != nullptr || !static_cast<node_type&>(t).queued)) return;
    running_ = &t;
    for (node_type* n = &t; n != nullptr; n = parent_node(*n)) queue_of(*n).set_next(*n, now);
  }
  /// Running `t` and every group above it stop running; they stay queued.
  void put_prev(Task& t, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(running_ != &t)) return;
    running_ = nullptr;
    for (node_type* n = &t; n != nullptr; n = parent_node(*n)) queue_of(*n).put_prev(*n, now);
  }
  /// Ticks every level from `curr` to the root; true if any level asks for a reschedule.
  bool tick(Task& curr, sched_time now) noexcept {
    bool resched = false;
    for (node_type* n = &curr; n != nullptr; n = parent_node(*n)) resched = queue_of(*n).tick(*n, now) || resched;
    return resched;
  }
  /// The kernel's find_matching_se: the woken task's and the running task's ancestors that
  /// share a queue are compared by that queue's policy. O(depth).
  bool wakeup_preempt(Task& woken, Task& curr, sched_time now) noexcept {
    node_type* a = &woken;
    node_type* b = &curr;
    while (a->depth > b->depth) a = parent_node(*a);
    while (b->depth > a->depth) b = parent_node(*b);
    while (a->parent != b->parent) {
      a = parent_node(*a);
      b = parent_node(*b);
    }
    if (a == b) return false;
    return queue_of(*a).wakeup_preempt(*a, *b, now);
  }
  /// Groups whose node is a delayed sleeper in its parent's queue (eevdf's DELAY_DEQUEUE: the
  /// group emptied while ineligible); a pick that meets one completes its dequeue. O(groups).
  usize delayed_groups() const noexcept {
    usize n = 0;
    for (const task_group* g = groups_; g != nullptr; g = g->next_)
      if (g->queued && g->dequeue_delayed && traits::delayed(queue_of(*g), *g)) ++n;
    return n;
  }
  /// Tasks queued in every group (running included); group nodes are not counted.
  usize nr_runnable() const noexcept { return nr_tasks_; }
  /// The running task of this class, or nullptr.
  Task* current() const noexcept { return running_; }

  /// Optional hook `yield`: in `curr`'s own queue, or at every level from it to the root for
  /// an inner policy that declares `static constexpr bool yield_every_level = true` (cfs: the
  /// kernel's set_skip_buddy marks each entity of the hierarchy, so a task alone in its group
  /// still yields its group's turn at the levels above).
  void yield(Task& curr, sched_time now) noexcept {
    if constexpr (yield_every_level<Inner>::value) {
      for (node_type* n = &curr; n != nullptr; n = parent_node(*n)) traits::yield(queue_of(*n), *n, now);
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
    const bool was_delayed = leaf.queued && leaf.dequeue_delayed;
    traits::switched_from(queue_of(t), t, now);
    if (was_delayed && !traits::delayed(queue_of(leaf), leaf)) {
      leaf.queued = leaf.dequeue_delayed = false;
      (void)leave_empty_groups(leaf.parent, now);
    }
  }
  /// Optional hook `delayed`: asked of `t`'s own queue.
  bool delayed(const Task& t) const noexcept { return traits::delayed(queue_of(t), t); }
  /// The earliest class timer of any queue.
  bool next_timer(sched_time& when) const noexcept {
    bool found = traits::next_timer(root_, when);
    for (const task_group* g = groups_; g != nullptr; g = g->next_) {
      sched_time t{};
      if (traits::next_timer(g->rq_, t) && (!found || t < when)) {
        when = t;
        found = true;
      }
    }
    return found;
  }
  /// Runs every queue's due timers; true if any asks for a reschedule.
  bool timer(sched_time now) noexcept {
    bool resched = traits::timer(root_, now);
    for (task_group* g = groups_; g != nullptr; g = g->next_) resched = traits::timer(g->rq_, now) || resched;
    return resched;
  }
  /// A reschedule any queue asked for inside a dequeue (each request is cleared).
  bool take_resched() noexcept {
    bool resched = traits::take_resched(root_);
    for (task_group* g = groups_; g != nullptr; g = g->next_) resched = traits::take_resched(g->rq_) || resched;
    return resched;
  }
  /// Every queue's own check, and the invariants of the file comment. O(groups + tasks).
  bool verify() const noexcept {
    if (!traits::verify(root_)) return false;
    usize nodes = root_.nr_runnable(), queued_groups = 0;
    for (const task_group* g = groups_; g != nullptr; g = g->next_) {
      if (g->owner_ != this || !g->is_group || !traits::verify(g->rq_)) return false;
      // Marks a pick has made stale (a delayed dequeue it completed) read as their truth.
      const bool delayed = g->queued && g->dequeue_delayed && traits::delayed(queue_of(*g), *g);
      const bool queued = g->queued && (!g->dequeue_delayed || delayed);
      // A group holding anything is queued and runnable; an empty one is out, or delayed.
      if (queue_empty(*g) ? queued && !delayed : !queued || delayed) return false;
      const u16 depth = g->parent != nullptr ? static_cast<u16>(g->parent->depth + 1u) : u16{0};
      if (g->depth != depth) return false;
      nodes += g->rq_.nr_runnable();
      if (queued && !delayed) ++queued_groups;
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
  static bool queue_empty(const task_group& g) noexcept {
    if constexpr (has_load<Inner>::value) {
      return g.rq_.load() == 0;
    } else {
      return g.rq_.nr_runnable() == 0;
    }
  }
  /// From `p` upward, each group whose queue holds nothing leaves its parent's queue as a
  /// sleeper. A group whose dequeue its parent delays stays there and ends the walk (the
  /// kernel's dequeue_entities stops at a delayed entity). Returns the first group above the
  /// walk, still queued (nullptr: the root).
  group_member* leave_empty_groups(group_member* p, sched_time now) noexcept {
    while (p != nullptr && queue_empty(group_of(*p))) {
      task_group& g = group_of(*p);
      Inner& pq = queue_of(g);
      pq.dequeue(g, now, dequeue_flags::sleep);
      p = p->parent;
      g.dequeue_delayed = traits::delayed(pq, g);
      g.queued = g.dequeue_delayed;
      if (g.dequeue_delayed) break;
    }
    return p;
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
    if (queued) q.dequeue(g, now, dequeue_flags::save);
    const errc e = apply(g);  // validated by the caller on a probe: cannot fail here
    if (queued) {
      q.enqueue(g, now, enqueue_flags::restore);
      if (running) q.set_next(g, now);
      traits::prio_changed(q, g, now);
    }
    return e;
  }

  Inner root_{};                  ///< the root queue
  task_group* groups_ = nullptr;  ///< attached groups (any order)
  Task* running_ = nullptr;       ///< the running task, or nullptr
  usize nr_tasks_ = 0;            ///< queued tasks (running included)
};

}  // namespace schedcore

#endif
