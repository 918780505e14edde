/// @file
/// @brief `bfs_policy`: Con Kolivas' BFS (2009) / MuQSS (2016) virtual-deadline scheduling of
/// SCHED_NORMAL and SCHED_IDLEPRIO tasks (algorithms-legacy.md §5).
///
/// @par Implementation notes
/// - Quota: every task gets `time_slice = rr_interval` whatever its nice (default 6 ms, knob
///   `rr_interval`, 1..1000 ms as MuQSS allows). Accounting is in ns from `now`.
/// - Virtual deadline (§5): `deadline = now + prio_ratios[u]·rr_interval / 128`, u = nice + 20,
///   with `prio_ratios[0] = 128`, `prio_ratios[i] = prio_ratios[i−1]·11/10` (integer
///   recurrence: 128, 140, 154, ..., nice 0 = 836, nice 19 = 5089). Offsets at rr = 6 ms:
///   nice −20 6 ms, 0 39.19 ms, 19 238.55 ms. The deadline is set at the first enqueue (first
///   run) and whenever the slice expires; the wakeup resets neither slice nor deadline, so a
///   task that slept long comes back with an old, early deadline and runs promptly. Deadlines
///   are absolute ns (MuQSS "niffies"), compared wrap-safe. Units: MuQSS counts a "ms" as
///   2^20 ns (MS_TO_NS = << 20, slices in 2^10-ns "us"), so its 6 ms is 6.29 ms of real time
///   and its nice-0 offset 836·6·8192 = 41.09 ms; here the knob is in real ns (6 ms =
///   6,000,000 ns) with the same formula, i.e. every time is 1e6/2^20 of MuQSS's, shares and
///   orderings unchanged.
/// - Expiry: the slice is charged at ticks and when the task stops running; when less than
///   RESCHED_US (100 us) is left it expires (refill + fresh deadline, `time_slice_expired`)
///   and a reschedule is requested if anything else is queued. By default (knob `hrexpiry` =
///   0) the test is MuQSS's without its high-resolution timer, at each tick and without its
///   half-jiffy dither: a slice ends at the first tick that finds under 100 us left (BFS 2009
///   instead ran on until the slice was used up, MuQSS with the dither ends it a tick early when
///   the task started in a tick's first half). Knob `hrexpiry` = 1 is MuQSS's
///   high-resolution expiry timer: the running task's slice end (exec_start + time_slice) is
///   the class timer (`next_timer`/`timer`), so the slice ends to the nanosecond whatever HZ. Whenever curr stops running
///   (put_prev, or blocking: dequeue with `sleep`) MuQSS's `check_deadline` is applied: a slice
///   below RESCHED_US expires at that moment, and a SCHED_BATCH task is refilled with a fresh,
///   later deadline every time.
/// - Pick: the earliest deadline among SCHED_NORMAL/BATCH tasks; only if there are none, the
///   earliest among SCHED_IDLEPRIO tasks (which run only when nothing else wants the CPU).
///   Instead of BFS's O(n) scan of the single global queue, each level is an rb_tree keyed by
///   deadline with the leftmost cached, so pick is O(1) and enqueue/dequeue O(log n) (MuQSS
///   does the same with a skiplist ordered by (prio, deadline)). One documented difference
///   from BFS's scan: BFS took the first task *in queue order* whose deadline had already
///   passed; here, as in MuQSS, tasks with passed deadlines are still taken in deadline order.
///   The running task is out of the tree (BFS `take_task` / `return_task`).
/// - Wakeup preemption (MuQSS `try_preempt` / `can_preempt`): a woken task preempts the
///   running one when its deadline is strictly earlier than curr's deadline; a normal or batch
///   wakee always preempts an IDLEPRIO curr; an IDLEPRIO wakee never preempts (not even another
///   IDLEPRIO task); a BATCH wakee never preempts a normal or batch curr. (BFS's ×2/×4
///   cross-CPU deadline inflation is an SMP matter and is omitted.)
/// - Settled by the source (formerly [R]), MuQSS.c: SCHED_BATCH never preempts at equal
///   level (`can_preempt`) and gets a fresh slice and later deadline whenever it stops running
///   (`check_deadline`); sched_yield follows the default `sched_yield_type` 1: no expiry, just a
///   reschedule, so only an earlier-deadline task takes over (type 2 would expire the slice);
///   fork (`wake_up_new_task`): the parent's slice is halved (rounded down) and the child gets
///   the same half and the parent's deadline; if the half is below RESCHED_US the parent keeps
///   it (MuQSS also reschedules it at once; here it expires at its next tick or put_prev) and
///   the child gets a full slice and a fresh deadline at the fork; a nice change
///   (`set_user_nice` / `adjust_deadline`) moves an existing deadline at once by the difference
///   of the two deadline offsets.
/// - rr_interval is not scaled with the CPU count (set the knob), as in MuQSS (formerly [R]):
///   its sched_init_smp leaves rr_interval alone; only BFS scaled it on SMP ("scales with
///   number of cpus").
/// - Complexity: pick_next O(1); enqueue, dequeue, set_next, put_prev O(log n); tick,
///   next_timer, timer, wakeup_preempt O(1) (the expiry reinsertion happens at put_prev); verify O(n).
/// - Omissions: SCHED_ISO (soft real time with the iso_cpu limit), the SMP cache-distance
///   deadline inflation, and MuQSS's per-CPU queues with lockless peeking.
#ifndef SCHEDCORE_POLICY_BFS_HPP
#define SCHEDCORE_POLICY_BFS_HPP

#include "schedcore/core/assert.hpp"
#include "schedcore/core/errc.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/intrusive/rb_hook.hpp"
#include "schedcore/intrusive/rb_tree.hpp"
#include "schedcore/policy/flags.hpp"
#include "schedcore/policy/entity_access.hpp"
#include "schedcore/policy/params.hpp"

namespace schedcore {

/// The 40 BFS priority ratios (index = nice + 20).
struct bfs_prio_ratio_table {
  u32 ratio[40];  ///< 128 · 1.1^i by the integer recurrence r[i] = r[i−1]·11/10
};

/// Builds the table: r[0] = 128, r[i] = r[i−1]·11/10 (integer division).
constexpr bfs_prio_ratio_table make_bfs_prio_ratios() noexcept {
  bfs_prio_ratio_table t{};
  t.ratio[0] = 128;
  for (unsigned i = 1; i < 40; ++i) t.ratio[i] = t.ratio[i - 1] * 11u / 10u;
  return t;
}

/// BFS's `prio_ratios` (algorithms-legacy.md §5).
inline constexpr bfs_prio_ratio_table bfs_prio_ratios = make_bfs_prio_ratios();

/// Tag of the bfs class's tree hook.
struct bfs_hook_tag {};

/// Per-task state of the bfs class, embedded in the task.
struct bfs_entity : rb_hook<link_mode::normal, bfs_hook_tag> {
  sched_time deadline{};                 ///< virtual deadline (absolute ns)
  duration_ns time_slice = 0;            ///< remaining quota, ns
  sched_time exec_start{};               ///< when it last started running or was last charged
  sched_kind kind = sched_kind::normal;  ///< normal, batch or idle (SCHED_IDLEPRIO)
  s8 nice = 0;                           ///< nice −20..19
  bool on_rq = false;                    ///< queued (running counts as queued)
  bool running = false;                  ///< its queue's running task (a fork on another queue charges it)
  bool has_deadline = false;             ///< a deadline was set (first run happened, or fork)
};

/// BFS/MuQSS virtual-deadline run queue of one CPU.
/// @tparam Task the task type; embeds `bfs_entity` (by default as a base class)
/// @tparam EntityOf accessor from Task to its bfs_entity (see policy/params.hpp)
template <class Task, class EntityOf = base_entity<bfs_entity>>
class bfs_policy {
  /// @cond INTERNAL
  static bfs_entity& E(Task& t) noexcept { return EntityOf::get(t); }
  static const bfs_entity& E(const Task& t) noexcept { return EntityOf::get(t); }
  using value_traits = entity_hook_access<Task, bfs_entity, EntityOf, rb_hook<link_mode::normal, bfs_hook_tag>>;
  struct by_deadline {
    bool operator()(const Task& a, const Task& b) const noexcept { return E(a).deadline < E(b).deadline; }
    // One wrap-safe key: the tree's insert descent compares raw counters (rb_has_wrap_key).
    static const u64& wrap_key(const Task& a) noexcept { return rb_time_key(E(a).deadline); }
  };
  using tree_type = rb_tree<Task, value_traits, by_deadline>;
  /// @endcond

 public:
  using task_type = Task;                     ///< the task type
  static constexpr const char* name = "bfs";  ///< class name
  static constexpr duration_ns resched_ns = usec(100);  ///< RESCHED_US: a slice below this has expired

  /// Tunables (`rr_interval`, ms in BFS's sysctl; ns here).
  struct knobs {
    s64 rr_interval = msec(6);  ///< quota per slice and deadline scale (BFS/MuQSS default 6 ms)
    s64 hrexpiry = 0;           ///< 1: MuQSS's hrtimer ends a slice exactly; 0: at a tick (under 100 us left)
  };
  /// Bounds and meaning of each knob.
  static constexpr knob_info<knobs> knob_table[] = {
      {"rr_interval", knob_unit::time_ns, &knobs::rr_interval, msec(1), msec(1000),
       "BFS/MuQSS round-robin interval: quota per slice; deadlines are prio_ratio x rr_interval / 128"},
      {"hrexpiry", knob_unit::flag, &knobs::hrexpiry, 0, 1,
       "MuQSS hrexpiry: a class timer ends each slice exactly (0: at the first tick with under 100 us left)"},
  };

  /// Validates and installs knobs; on error nothing changes.
  errc configure(const knobs& k) noexcept {
    if (const errc e = validate_knobs(k, knob_table); e != errc::ok) return e;
    knobs_ = k;
    return errc::ok;
  }
  /// The knobs in force.
  const knobs& config() const noexcept { return knobs_; }

  /// The deadline offset of nice `nice`: prio_ratios[nice + 20] · rr_interval / 128, ns.
  /// @pre valid_nice(nice)
  duration_ns deadline_offset(int nice) const noexcept {
    return static_cast<duration_ns>(bfs_prio_ratios.ratio[nice_to_user_prio(nice)]) * knobs_.rr_interval / 128;
  }

  /// Loads `p` (kind normal, batch or idle; nice −20..19). Refuses another kind or a bad nice
  /// (`errc::invalid_argument`) and a queued task (`errc::busy`).
  errc setup(Task& t, const sched_params& p) noexcept {
    if (p.kind != sched_kind::normal && p.kind != sched_kind::batch && p.kind != sched_kind::idle)
      return errc::invalid_argument;
    if (const errc err = validate(p); err != errc::ok) return err;
    bfs_entity& e = E(t);
    if (e.on_rq) return errc::busy;
    // MuQSS set_user_nice / adjust_deadline: a task that already has a deadline has it moved
    // by the difference of the two deadline offsets at once.
    if (e.has_deadline && p.nice != e.nice) e.deadline += deadline_offset(p.nice) - deadline_offset(e.nice);
    e.kind = p.kind;
    e.nice = p.nice;
    return errc::ok;
  }

  /// `t` becomes runnable; its first enqueue sets slice and deadline, later ones keep them.
  void enqueue(Task& t, sched_time now, enqueue_flags) noexcept {
    bfs_entity& e = E(t);
    if (SCHEDCORE_MISUSE(e.on_rq)) return;
    if (&t != fork_child_) fork_child_ = nullptr;  // the fork's check must follow its enqueue
    if (!e.has_deadline) expire(e, now);
    e.on_rq = true;
    ++nr_;
    tree_of(e).insert(t);
  }
  /// `t` leaves (it may be curr, which is charged).
  void dequeue(Task& t, sched_time now, dequeue_flags flags) noexcept {
    bfs_entity& e = E(t);
    if (SCHEDCORE_MISUSE(!e.on_rq)) return;
    if (&t == fork_child_) fork_child_ = nullptr;
    if (&t == curr_) {
      charge(e, now);
      if (has(flags, dequeue_flags::sleep)) check_deadline(e, now);  // schedule() of a sleeper
      curr_ = nullptr;
      e.running = false;
    } else {
      tree_of(e).erase(t);
    }
    e.on_rq = false;
    --nr_;
  }
  /// Earliest deadline among normal tasks, else among IDLEPRIO ones (curr considered). No
  /// side effects.
  Task* pick_next(sched_time) noexcept {
    Task* best = normal_.front();
    if (best == nullptr) best = idle_.front();
    if (curr_ != nullptr && (best == nullptr || before(*curr_, *best))) best = curr_;
    return best;
  }
  /// `t` starts running: it leaves its tree.
  void set_next(Task& t, sched_time now) noexcept {
    bfs_entity& e = E(t);
    if (SCHEDCORE_MISUSE(!e.on_rq || (curr_ != nullptr && curr_ != &t))) return;
    if (curr_ != &t) tree_of(e).erase(t);
    curr_ = &t;
    e.running = true;
    e.exec_start = now;
  }
  /// Running `t` stops running: charged (an expired slice gets its fresh deadline) and requeued.
  void put_prev(Task& t, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&t != curr_)) return;  // refuse: not the running task
    bfs_entity& e = E(t);
    charge(e, now);
    check_deadline(e, now);
    curr_ = nullptr;
    e.running = false;
    tree_of(e).insert(t);
  }
  /// Charges curr; at expiry refills the slice with a fresh deadline and asks for a reschedule
  /// when another task is queued.
  bool tick(Task& curr, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&curr != curr_)) return false;  // refuse: not the running task
    bfs_entity& e = E(curr);
    charge(e, now);
    if (e.time_slice >= resched_ns) return false;
    expire(e, now);
    return !normal_.empty() || (e.kind == sched_kind::idle && !idle_.empty());
  }
  /// The wakee preempts when its deadline is strictly earlier (level rules: normal beats
  /// IDLEPRIO; BATCH never preempts).
  bool wakeup_preempt(Task& woken, Task& curr, sched_time) noexcept {
    if (&woken == &curr) return false;
    // A child forked by curr on this queue runs first (MuQSS wake_up_new_task reschedules the
    // forking task): it shares curr's deadline and queues ahead of curr's equal key.
    const bool fork_of_curr = &woken == fork_child_ && &curr == curr_;
    fork_child_ = nullptr;
    if (fork_of_curr) return true;
    const bfs_entity& w = E(woken);
    const bfs_entity& c = E(curr);
    const bool w_idle = w.kind == sched_kind::idle;
    const bool c_idle = c.kind == sched_kind::idle;
    if (w_idle) return false;  // IDLEPRIO never preempts, not even another IDLEPRIO task
    if (c_idle) return true;
    if (w.kind == sched_kind::batch) return false;
    return w.deadline < c.deadline;
  }
  /// Optional hook `change_resched` (policy.hpp), MuQSS's rules for the running task:
  /// set_user_nice reschedules it only when its nice rose (`old_static < new_static`: its
  /// deadline moved later by adjust_deadline, so another task may now be due first; a lower
  /// nice only brings its deadline closer); __setscheduler always does (`if (task_running(rq,
  /// p)) { ... resched_task(p); }`), and so does a change that brought it into this class. (A
  /// priority inheritance change within this class does not arise in MuQSS: its SCHED_NORMAL
  /// tasks share one p->prio.) O(1).
  bool change_resched(Task&, const param_change& c, sched_time) const noexcept {
    return !c.nice || c.switched || c.prio > c.oldprio;
  }
  /// Queued tasks including a running one.
  usize nr_runnable() const noexcept { return nr_; }
  /// sched_yield() as MuQSS's default `yield_type` 1: curr is only charged and keeps its slice
  /// and deadline, so the reschedule that follows hands the CPU only to a task with an earlier
  /// deadline (put_prev applies check_deadline as usual).
  void yield(Task& curr, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(&curr != curr_)) return;  // refuse: not the running task
    charge(E(curr), now);
  }
  /// Fork (MuQSS wake_up_new_task): parent and child each keep half the parent's remaining
  /// slice (rounded down) and the child inherits the parent's deadline; if that half is below
  /// RESCHED_US the child instead starts with a full slice and a fresh deadline from `now`.
  /// Either way a parent running here is rescheduled for the child ("child-runs-first in
  /// anticipation of an exec"): the child's wakeup check on this queue returns true. (MuQSS
  /// sends the child to a suitable idle CPU instead when there is one; that is the caller's
  /// CPU choice.)
  void task_new(Task& child, Task* parent, sched_time now) noexcept {
    bfs_entity& c = E(child);
    if (SCHEDCORE_MISUSE(c.on_rq)) return;
    c.has_deadline = false;
    if (parent == nullptr) return;
    bfs_entity& p = E(*parent);
    fork_child_ = parent == curr_ ? &child : nullptr;
    // wake_up_new_task charges the running parent first (account_task_cpu), on its own queue
    // when the child is placed on another (the caller holds both queues' locks).
    if (p.running) charge(p, now);
    p.time_slice /= 2;  // both keep the rounded-down half (MuQSS wake_up_new_task)
    if (p.time_slice < resched_ns) {  // too little to share: the child starts fresh now
      expire(c, now);
      return;
    }
    c.time_slice = p.time_slice;
    c.deadline = p.deadline;
    c.has_deadline = true;
  }
  /// The running task of this class, or nullptr.
  Task* current() const noexcept { return curr_; }

  /// With `hrexpiry`: the instant the running task's slice runs out (MuQSS `hrexpiry_start`
  /// arms it for the rest of the slice when a task starts running). O(1).
  bool next_timer(sched_time& when) const noexcept {
    if (knobs_.hrexpiry == 0 || curr_ == nullptr) return false;
    const bfs_entity& e = E(*curr_);
    when = e.exec_start + e.time_slice;
    return true;
  }
  /// With `hrexpiry`: a slice that has run out expires now, as at a tick (MuQSS's timer
  /// reschedules and `check_deadline` expires the slice); true asks for the reschedule when
  /// another task is queued. O(1).
  bool timer(sched_time now) noexcept {
    if (knobs_.hrexpiry == 0 || curr_ == nullptr) return false;
    const bfs_entity& e = E(*curr_);
    if (now < e.exec_start + e.time_slice) return false;
    return tick(*curr_, now);
  }

  /// Structural check: both trees, level membership, counts.
  bool verify() const noexcept {
    if (!normal_.verify() || !idle_.verify()) return false;
    for (auto it = normal_.begin(); it != normal_.end(); ++it)
      if (E(*it).kind == sched_kind::idle || !E(*it).on_rq || &*it == curr_) return false;
    for (auto it = idle_.begin(); it != idle_.end(); ++it)
      if (E(*it).kind != sched_kind::idle || !E(*it).on_rq || &*it == curr_) return false;
    return normal_.size() + idle_.size() + (curr_ != nullptr ? 1u : 0u) == nr_;
  }

 private:
  tree_type& tree_of(const bfs_entity& e) noexcept { return e.kind == sched_kind::idle ? idle_ : normal_; }
  static bool before(const Task& a, const Task& b) noexcept {
    const bool ai = E(a).kind == sched_kind::idle;
    const bool bi = E(b).kind == sched_kind::idle;
    if (ai != bi) return bi;
    return E(a).deadline < E(b).deadline;
  }
  /// MuQSS check_deadline, applied whenever the task stops running: a slice below RESCHED_US
  /// counts as expired, and a SCHED_BATCH task is refilled with a fresh, later deadline every
  /// time.
  void check_deadline(bfs_entity& e, sched_time now) noexcept {
    if (e.time_slice < resched_ns || e.kind == sched_kind::batch) expire(e, now);
  }
  void expire(bfs_entity& e, sched_time now) noexcept {
    e.time_slice = knobs_.rr_interval;
    e.deadline = now + deadline_offset(e.nice);
    e.has_deadline = true;
  }
  static void charge(bfs_entity& e, sched_time now) noexcept {
    const duration_ns ran = now - e.exec_start;
    if (ran <= 0) return;
    e.exec_start = now;
    e.time_slice -= ran;
  }

  tree_type normal_{};    ///< SCHED_NORMAL/BATCH tasks by deadline (not curr)
  tree_type idle_{};      ///< SCHED_IDLEPRIO tasks by deadline (not curr)
  Task* curr_ = nullptr;  ///< the running task of this class
  Task* fork_child_ = nullptr;  ///< a child just forked by curr, until its wakeup check
  usize nr_ = 0;          ///< queued including curr
  knobs knobs_{};         ///< tunables in force
};

}  // namespace schedcore

#endif
