/// @file
/// @brief A second policy written outside the library, against its public contract only: a
/// multi-level feedback queue (MLFQ) with the rules of R. H. Arpaci-Dusseau and A. C.
/// Arpaci-Dusseau, "Operating Systems: Three Easy Pieces", chapter 8 ("Scheduling: The
/// Multi-Level Feedback Queue"), after F. J. Corbató et al., CTSS (1962).
///
/// The rules, as the book states them at the end of the chapter, and how they map here:
/// - Rule 1: if Priority(A) > Priority(B), A runs. `Levels` queues, level 0 the highest;
///   `pick_next` takes the head of the highest non-empty level (one bit scan of a
///   `prio_bitmap<Levels>`, O(1)). A task woken at a higher level than the running one
///   preempts it (`wakeup_preempt`), and `tick` asks for a reschedule when a higher level holds
///   a task.
/// - Rule 2: if Priority(A) = Priority(B), A and B run in round robin with the level's
///   quantum. The quantum of level l is `quantum` * 2^l (longer slices lower down, as the
///   chapter's examples and Solaris' table do). A task preempted before its quantum ends goes
///   back to the head of its level and keeps the rest of its quantum; one whose quantum ended
///   or that yielded goes to the tail.
/// - Rule 3: a new task enters at the top level.
/// - Rule 4: once a task has used up its time allotment at a level (however many times it gave
///   up the CPU), its priority drops one level. The allotment of level l is `allotment` * 2^l;
///   the bottom level has none. With the knob `reset_on_sleep=1` the chapter's first, gameable
///   version applies instead (rules 4a/4b: a task that blocks gets a fresh allotment), which
///   keeps every task that sleeps before its allotment ends at its level for good.
/// - Rule 5: after some time period S (`boost_period`), move all the tasks to the topmost
///   queue. Queued tasks move with one splice per level, O(Levels); their entities learn it
///   lazily (a boost counter, `epoch`). A sleeper that left before the last boost comes back at
///   the top. A boost that falls while the queue holds no task is applied at the next enqueue.
///   `boost_period=0` disables boosting (the chapter's starvation example).
///
/// Nice is validated and otherwise ignored: the chapter's MLFQ has no user priorities, and
/// mapping nice to a starting level would be undone by the first boost. SCHED_NORMAL, BATCH and
/// IDLE are all accepted and all treated alike. Real-time and deadline tasks belong to another
/// class.
///
/// Complexity: pick_next O(1) (one bit scan, one load); enqueue, dequeue, set_next, put_prev,
/// tick, wakeup_preempt O(1); a boost O(Levels); verify O(Levels + n). No division anywhere.
///
/// Freestanding like the library: schedcore headers only, no standard header, no exceptions,
/// allocation or floating point.
#ifndef SCHEDCORE_EXAMPLE_MLFQ_HPP
#define SCHEDCORE_EXAMPLE_MLFQ_HPP

#include <schedcore/bitmap/prio_bitmap.hpp>
#include <schedcore/core/assert.hpp>
#include <schedcore/core/errc.hpp>
#include <schedcore/core/time.hpp>
#include <schedcore/intrusive/list.hpp>
#include <schedcore/intrusive/list_hook.hpp>
#include <schedcore/policy/entity_access.hpp>
#include <schedcore/policy/flags.hpp>
#include <schedcore/policy/params.hpp>

namespace mlfq_example {

using schedcore::errc;
using schedcore::s64;
using schedcore::sched_time;
using schedcore::u32;
using schedcore::u8;
using schedcore::usize;

/// Tag of the MLFQ class's list hook (a task may carry other classes' hooks too).
struct mlfq_hook_tag {};
/// The hook a task's MLFQ entity links into its level's list.
using mlfq_hook = schedcore::list_hook<mlfq_hook_tag, schedcore::list_link_mode::normal>;

/// Per-task state of the MLFQ class, embedded in the task.
struct mlfq_entity : mlfq_hook {
  s64 allot_used = 0;       ///< run time (ns) charged at the current level since it got there
  s64 slice_left = 0;       ///< rest of the current quantum (ns); <= 0: a fresh one at the next pick
  sched_time exec_start{};  ///< last time its run was charged
  sched_time left_at{};     ///< when it last left a queue (a boost since then resets it)
  u32 epoch = 0;            ///< the queue's boost count when `level` was last known exact
  u8 level = 0;             ///< 0 = top; exact only while `epoch` equals the queue's
  bool on_rq = false;       ///< queued (the running task counts as queued)
  bool seen = false;        ///< has been queued before (else it starts at the top: rule 3)
};

/// One CPU's MLFQ run queue.
/// @tparam Task the task type; embeds `mlfq_entity` (as a base class by default)
/// @tparam Levels number of priority levels, 2..16 (the chapter's examples use 3)
/// @tparam EntityOf accessor from Task to its mlfq_entity (schedcore::base_entity or your own)
template <class Task, unsigned Levels = 4, class EntityOf = schedcore::base_entity<mlfq_entity>>
class mlfq_policy {
  static_assert(Levels >= 2 && Levels <= 16, "mlfq_policy: 2..16 levels");
  using hook_access = schedcore::entity_hook_access<Task, mlfq_entity, EntityOf, mlfq_hook>;
  using level_list = schedcore::list<Task, hook_access>;
  static mlfq_entity& E(Task& t) noexcept { return EntityOf::get(t); }
  static const mlfq_entity& E(const Task& t) noexcept { return EntityOf::get(t); }
  static constexpr unsigned bottom = Levels - 1;

 public:
  using task_type = Task;                     ///< the task type this class queues
  static constexpr unsigned nr_levels = Levels;  ///< number of priority levels

  /// Tunables (times in ns).
  struct knobs {
    s64 quantum = schedcore::msec(5);        ///< round-robin quantum of the top level (x2 per level)
    s64 allotment = schedcore::msec(20);     ///< run time allowed at the top level (x2 per level)
    s64 boost_period = schedcore::sec(1);    ///< rule 5's S; 0 = never boost
    s64 reset_on_sleep = 0;                  ///< 1: rules 4a/4b (blocking renews the allotment)
  };
  /// The knob table schedsim and configuration front ends read.
  static constexpr schedcore::knob_info<knobs> knob_table[] = {
      {"quantum", schedcore::knob_unit::time_ns, &knobs::quantum, schedcore::usec(100), schedcore::sec(1),
       "round-robin quantum of the top level; doubles per level down (ns)"},
      {"allotment", schedcore::knob_unit::time_ns, &knobs::allotment, schedcore::usec(100), schedcore::sec(10),
       "run time a task may use at the top level before it drops; doubles per level down (ns)"},
      {"boost_period", schedcore::knob_unit::time_ns, &knobs::boost_period, 0, schedcore::sec(100),
       "every task moves to the top level this often; 0 = never (rule 5's S, ns)"},
      {"reset_on_sleep", schedcore::knob_unit::flag, &knobs::reset_on_sleep, 0, 1,
       "1: a task that blocks gets a fresh allotment (the gameable rules 4a/4b)"},
  };
  /// Validates and applies `k`; changes nothing on error.
  errc configure(const knobs& k) noexcept {
    const errc e = schedcore::validate_knobs(k, knob_table);
    if (e == errc::ok) knobs_ = k;
    return e;
  }
  /// The current tunables.
  const knobs& config() const noexcept { return knobs_; }

  /// Round-robin quantum of level `l` (ns).
  s64 quantum_of(unsigned l) const noexcept { return knobs_.quantum * (s64{1} << l); }
  /// Time allotment of level `l` (ns); the bottom level has none (it never drops further).
  s64 allotment_of(unsigned l) const noexcept { return knobs_.allotment * (s64{1} << l); }

  /// Validates a task's parameters. Nice is ignored (see the file comment); normal, batch and
  /// idle are accepted, real-time and deadline refused. Refused with `busy` while queued.
  /// Changes nothing on error (and nothing on success either: MLFQ keeps no per-task parameter).
  errc setup(Task& t, const schedcore::sched_params& p) noexcept {
    if (const errc e = schedcore::validate(p); e != errc::ok) return e;
    if (p.kind != schedcore::sched_kind::normal && p.kind != schedcore::sched_kind::batch &&
        p.kind != schedcore::sched_kind::idle)
      return errc::invalid_argument;
    if (E(t).on_rq) return errc::busy;
    return errc::ok;
  }

  /// `t` becomes runnable. A new task starts at the top (rule 3); one that left before the
  /// last boost comes back at the top (rule 5); otherwise it keeps its level and allotment.
  void enqueue(Task& t, sched_time now, schedcore::enqueue_flags flags) noexcept {
    mlfq_entity& e = E(t);
    if (SCHEDCORE_MISUSE(e.on_rq)) return;
    if (!clock_started_) {
      clock_started_ = true;
      last_boost_ = now;
    } else {
      maybe_boost(now);
    }
    if (!e.seen || (knobs_.boost_period != 0 && !(last_boost_ < e.left_at))) reset_to_top(e);
    e.seen = true;
    e.epoch = epoch_;
    e.on_rq = true;
    ++nr_;
    link(t, e.level, schedcore::has(flags, schedcore::enqueue_flags::head));
  }
  /// `t` stops being runnable (it may be the running task). With `reset_on_sleep`, a task that
  /// blocks keeps its level but gets a fresh allotment (rule 4b).
  void dequeue(Task& t, sched_time now, schedcore::dequeue_flags flags) noexcept {
    mlfq_entity& e = E(t);
    if (SCHEDCORE_MISUSE(!e.on_rq)) return;
    if (curr_ == &t) {
      charge(now);
      demote_if_used_up(e);
      curr_ = nullptr;
    } else {
      sync(e);
      unlink(t, e.level);
    }
    if (schedcore::has(flags, schedcore::dequeue_flags::sleep)) {
      e.slice_left = 0;  // a fresh quantum when it wakes
      if (knobs_.reset_on_sleep != 0) e.allot_used = 0;
    }
    e.left_at = now;
    e.on_rq = false;
    --nr_;
  }
  /// The head of the highest non-empty level, or nullptr. O(1), no side effects.
  Task* pick_next(sched_time) const noexcept {
    if (map_.empty()) return nullptr;
    return const_cast<level_list&>(queues_[map_.find_first()]).front();
  }
  /// `t` starts running; it leaves its level's list while it runs.
  void set_next(Task& t, sched_time now) noexcept {
    mlfq_entity& e = E(t);
    if (SCHEDCORE_MISUSE(!e.on_rq || curr_ != nullptr)) return;
    sync(e);
    unlink(t, e.level);
    curr_ = &t;
    e.exec_start = now;
    if (e.slice_left <= 0) e.slice_left = quantum_of(e.level);
  }
  /// The running task stops but stays runnable: to the tail of its level when its quantum is
  /// used up, else to the head with the rest of its quantum.
  void put_prev(Task& t, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(curr_ != &t)) return;
    mlfq_entity& e = E(t);
    charge(now);
    demote_if_used_up(e);
    maybe_boost(now);
    curr_ = nullptr;
    e.epoch = epoch_;
    link(t, e.level, e.slice_left > 0);
  }
  /// Charges the running task; true when its quantum ended, it dropped a level, or a higher
  /// level holds a task.
  bool tick(Task& curr, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(curr_ != &curr)) return false;
    mlfq_entity& e = E(curr);
    charge(now);
    maybe_boost(now);
    if (demote_if_used_up(e)) return true;
    if (e.slice_left <= 0) return true;
    return !map_.empty() && map_.find_first() < e.level;
  }
  /// Rule 1: a task woken at a higher level than the running one preempts it.
  bool wakeup_preempt(Task& woken, Task& curr, sched_time) const noexcept {
    return E(woken).level < E(curr).level;
  }
  /// The running task gives up the rest of its quantum (it goes to the tail of its level).
  void yield(Task& curr, sched_time) noexcept {
    if (SCHEDCORE_MISUSE(curr_ != &curr)) return;
    E(curr).slice_left = 0;
  }
  /// Queued tasks, the running one included.
  usize nr_runnable() const noexcept { return nr_; }

  /// The next boost, while any task is queued (rule 5 as a class timer).
  bool next_timer(sched_time& when) const noexcept {
    if (nr_ == 0 || knobs_.boost_period == 0 || !clock_started_) return false;
    when = last_boost_ + knobs_.boost_period;
    return true;
  }
  /// Runs a boost when due. Never asks for a reschedule: the running task moves to the top too.
  bool timer(sched_time now) noexcept {
    if (clock_started_) maybe_boost(now);
    return false;
  }

  /// The level `t` is at, as of the last hook: exact for a queued or running task; for a
  /// sleeping one, the level it would wake at (the top when a boost fell since it left, as
  /// `enqueue` applies rule 5; a boost still due at the wakeup itself is not counted).
  unsigned level_of(const Task& t) const noexcept {
    const mlfq_entity& e = E(t);
    if (&t == curr_) return e.level;
    if (e.on_rq) return e.epoch != epoch_ ? 0u : e.level;
    return (!e.seen || (knobs_.boost_period != 0 && !(last_boost_ < e.left_at))) ? 0u : e.level;
  }
  /// Number of boosts so far.
  u32 boosts() const noexcept { return epoch_; }

  /// O(Levels + n) self-check: every list and the bitmap, bit l set iff level l is non-empty,
  /// every queued task at the level of its list, the count.
  bool verify() const noexcept {
    if (!map_.verify()) return false;
    usize n = 0;
    for (unsigned l = 0; l < Levels; ++l) {
      if (!queues_[l].verify()) return false;
      if (map_.test(l) == queues_[l].empty()) return false;
      for (const Task& t : queues_[l]) {
        if (!E(t).on_rq || &t == curr_ || level_of(t) != l) return false;
        ++n;
      }
    }
    if (curr_ != nullptr) {
      if (!E(*curr_).on_rq || E(*curr_).level >= Levels) return false;
      ++n;
    }
    return n == nr_;
  }

 private:
  static void reset_to_top(mlfq_entity& e) noexcept {
    e.level = 0;
    e.allot_used = 0;
    e.slice_left = 0;
  }
  // A queued task's entity after boosts it slept through in its list: the splice moved it.
  void sync(mlfq_entity& e) const noexcept {
    if (e.epoch != epoch_) {
      reset_to_top(e);
      e.epoch = epoch_;
    }
  }
  void link(Task& t, unsigned level, bool head) noexcept {
    if (head)
      queues_[level].push_front(t);
    else
      queues_[level].push_back(t);
    map_.set(level);
  }
  void unlink(Task& t, unsigned level) noexcept {
    queues_[level].erase(t);
    if (queues_[level].empty()) map_.clear(level);
  }
  // Charges the running task for the time since its last charge.
  void charge(sched_time now) noexcept {
    if (curr_ == nullptr) return;
    mlfq_entity& e = E(*curr_);
    const s64 ran = now - e.exec_start;
    if (ran <= 0) return;
    e.exec_start = now;
    e.slice_left -= ran;
    if (e.level != bottom) e.allot_used += ran;
  }
  // Rule 4: one level down once the allotment is used; true when it dropped.
  bool demote_if_used_up(mlfq_entity& e) const noexcept {
    if (e.level == bottom || e.allot_used < allotment_of(e.level)) return false;
    ++e.level;
    e.allot_used = 0;
    e.slice_left = 0;
    return true;
  }
  // Rule 5, when due: every queued task to the top level (a splice per level), the running
  // one too.
  void maybe_boost(sched_time now) noexcept {
    if (knobs_.boost_period == 0 || now - last_boost_ < knobs_.boost_period) return;
    charge(now);
    for (unsigned l = 1; l < Levels; ++l) {
      if (queues_[l].empty()) continue;
      queues_[0].splice_back(queues_[l]);
      map_.clear(l);
    }
    if (!queues_[0].empty()) map_.set(0);
    ++epoch_;
    last_boost_ = now;
    if (curr_ != nullptr) {
      mlfq_entity& e = E(*curr_);
      const s64 left = e.slice_left;
      reset_to_top(e);
      e.slice_left = left < quantum_of(0) ? left : quantum_of(0);
      e.epoch = epoch_;
    }
  }

  level_list queues_[Levels]{};               ///< one FIFO per level (curr is in none)
  schedcore::prio_bitmap<Levels> map_{};      ///< bit l set iff queues_[l] is non-empty
  Task* curr_ = nullptr;                      ///< the running task, or nullptr
  usize nr_ = 0;                              ///< queued tasks, curr included
  sched_time last_boost_{};                   ///< time of the last boost (or of the first enqueue)
  u32 epoch_ = 0;                             ///< boosts so far
  bool clock_started_ = false;                ///< last_boost_ is meaningful
  knobs knobs_{};                             ///< current tunables
};

}  // namespace mlfq_example

#endif
