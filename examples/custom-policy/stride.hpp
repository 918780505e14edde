/// @file
/// @brief A policy written outside the library, against its public contract only: stride
/// scheduling (C. A. Waldspurger and W. E. Weihl, "Stride Scheduling: Deterministic
/// Proportional-Share Resource Management", MIT/LCS/TM-528, June 1995; and Waldspurger's
/// thesis, MIT/LCS/TR-667, 1995, chapter 4). docs/guides/writing-a-policy.md walks through it.
///
/// What the paper defines, and how it maps here:
/// - Each client holds `tickets`; its `stride` is stride1 / tickets and its `pass` advances by
///   one stride per quantum it receives. The client with the smallest pass runs next (ties:
///   the one queued first). Here the pass is virtual time in ns: a client with 1024 tickets
///   advances its pass by exactly the wall time it ran, one with t tickets by 1024/t of it
///   (stride1 = 1024 per ns). Charging the time actually used is the paper's extension to
///   fractional quanta (a client that blocks after part of a quantum pays for that part).
/// - Allocation is in quanta (knob `quantum`): `tick` asks for a reschedule once the running
///   client has had a whole quantum since it was picked; a wakeup never preempts (the paper
///   allocates whole quanta): the woken client is first considered when the running quantum
///   ends and runs once its pass is the smallest (beside one other client, right after that
///   quantum; beside several, possibly after other clients' quanta too).
/// - Dynamic participation (the paper's client join and leave): `global_pass` advances by the global stride
///   (1024 / total tickets of the queued clients, per ns used). A client leaving (sleep,
///   migration, parameter change) keeps `remain = pass - global_pass`; joining, its pass is
///   `global_pass + remain`. A new client starts with remain = one quantum of its own stride,
///   as if it had just received a quantum. So a sleeper neither loses the service it was owed
///   nor banks service while away.
/// - Ticket changes (the paper's client modify): `remain` scales by old tickets / new tickets, so the client keeps
///   its place in units of its own quanta.
/// - Tickets: `setup` maps nice to the kernel's fair weights (1024 at nice 0, ~1.25x a level;
///   SCHED_IDLE 3), so nice means the same share as under CFS or EEVDF; `set_tickets` sets any
///   count in [1, 100000] directly (the paper's ticket currencies are left out).
///
/// Guarantee tested (tests/unit/stride_example_test.cpp): with whole quanta, the relative
/// throughput error between any two clients never exceeds one quantum.
///
/// Complexity: pick_next O(1) (cached leftmost); enqueue, dequeue, set_next, put_prev
/// O(log n); tick, wakeup_preempt O(1); verify O(n). The only divisions are 32-bit ones when a
/// client's tickets or the queue's total change (fair_inv_weight).
///
/// Freestanding like the library: schedcore headers only, no standard header, no exceptions,
/// allocation or floating point (ctest header/example-custom-policy-stride compiles it with
/// -ffreestanding -nostdinc++; tests/unit/policy_contract_test.cpp runs it through the contract).
#ifndef SCHEDCORE_EXAMPLE_STRIDE_HPP
#define SCHEDCORE_EXAMPLE_STRIDE_HPP

#include <schedcore/core/assert.hpp>
#include <schedcore/core/errc.hpp>
#include <schedcore/core/time.hpp>
#include <schedcore/intrusive/rb_hook.hpp>
#include <schedcore/intrusive/rb_tree.hpp>
#include <schedcore/policy/entity_access.hpp>
#include <schedcore/policy/fair_weights.hpp>
#include <schedcore/policy/flags.hpp>
#include <schedcore/policy/params.hpp>

namespace stride_example {

using schedcore::errc;
using schedcore::s64;
using schedcore::sched_time;
using schedcore::u32;
using schedcore::u64;
using schedcore::usize;
using schedcore::vtime;

/// Tag of the stride class's tree hook (a task may carry other classes' hooks too).
struct stride_hook_tag {};

/// Smallest and largest ticket count `set_tickets` accepts. The 32-bit inverse of the count,
/// 0xFFFFFFFF / tickets truncated, is off by less than tickets / 2^32 relative: at most about
/// 1/43000 up to 100000 tickets.
inline constexpr u32 min_tickets = 1;
/// @copydoc min_tickets
inline constexpr u32 max_tickets = 100000;

/// Per-task state of the stride class, embedded in the task.
struct stride_entity : schedcore::rb_hook<schedcore::link_mode::normal, stride_hook_tag> {
  vtime pass{};                      ///< virtual ns; the tree key while queued and not running
  s64 remain = 0;                    ///< virtual ns, pass − global_pass when it last left a queue
  schedcore::load_weight tickets{};  ///< tickets (the nice weight by default) and 2^32 / tickets
  schedcore::fair_vscale stride{};   ///< pass per ns of run time (1024 / tickets), precomputed
  sched_time exec_start{};           ///< last time its run was charged
  sched_time picked_at{};            ///< start of its current quantum
  bool on_rq = false;                ///< queued (the running client counts as queued)
  bool has_remain = false;           ///< has been queued before: `remain` is meaningful
};

/// One CPU's stride-scheduling run queue.
/// @tparam Task the task type; embeds `stride_entity` (as a base class by default)
/// @tparam EntityOf accessor from Task to its stride_entity (schedcore::base_entity or your own)
template <class Task, class EntityOf = schedcore::base_entity<stride_entity>>
class stride_policy {
  using hook = schedcore::rb_hook<schedcore::link_mode::normal, stride_hook_tag>;
  using hook_access = schedcore::entity_hook_access<Task, stride_entity, EntityOf, hook>;
  struct by_pass {
    bool operator()(const Task& a, const Task& b) const noexcept { return E(a).pass < E(b).pass; }
  };
  static stride_entity& E(Task& t) noexcept { return EntityOf::get(t); }
  static const stride_entity& E(const Task& t) noexcept { return EntityOf::get(t); }

 public:
  using task_type = Task;  ///< the task type this class queues

  /// Tunables (times in ns).
  struct knobs {
    s64 quantum = schedcore::msec(10);  ///< run time a client gets per selection
  };
  /// The knob table schedsim and configuration front ends read.
  static constexpr schedcore::knob_info<knobs> knob_table[] = {
      {"quantum", schedcore::knob_unit::time_ns, &knobs::quantum, schedcore::usec(100), schedcore::sec(1),
       "run time per selection; the paper's scheduling quantum (ns)"},
  };
  /// Validates and applies `k`; changes nothing on error.
  errc configure(const knobs& k) noexcept {
    const errc e = schedcore::validate_knobs(k, knob_table);
    if (e == errc::ok) knobs_ = k;
    return e;
  }
  /// The current tunables.
  const knobs& config() const noexcept { return knobs_; }

  /// Loads a task's parameters: tickets from nice (normal, batch) or 3 (idle). Real-time and
  /// deadline tasks belong to another class: refused. Refused with `busy` while queued
  /// (dequeue with `save` first). Changes nothing on error.
  errc setup(Task& t, const schedcore::sched_params& p) noexcept {
    if (const errc e = schedcore::validate(p); e != errc::ok) return e;
    if (p.kind != schedcore::sched_kind::normal && p.kind != schedcore::sched_kind::batch &&
        p.kind != schedcore::sched_kind::idle)
      return errc::invalid_argument;
    return retarget(t, p.kind == schedcore::sched_kind::idle ? schedcore::idle_load() : schedcore::nice_to_load(p.nice));
  }
  /// Gives `t` any ticket count in [min_tickets, max_tickets]. Same rules as `setup`.
  errc set_tickets(Task& t, u32 tickets) noexcept {
    if (tickets < min_tickets || tickets > max_tickets) return errc::out_of_range;
    return retarget(t, schedcore::make_load(tickets));
  }

  /// `t` joins: its pass is global_pass + remain (a new client: one quantum of its stride).
  void enqueue(Task& t, sched_time now, schedcore::enqueue_flags) noexcept {
    stride_entity& e = E(t);
    if (SCHEDCORE_MISUSE(e.on_rq)) return;
    charge(now);
    if (!e.has_remain) {
      e.remain = static_cast<s64>(schedcore::fair_vscale_delta(static_cast<u64>(knobs_.quantum), e.stride));
      e.has_remain = true;
    }
    e.pass = global_pass_ + e.remain;
    e.on_rq = true;
    ++nr_;
    set_total(total_tickets_ + e.tickets.weight);
    tree_.insert(t);
  }
  /// `t` leaves (blocks, migrates, exits, or around a parameter change): it keeps its remain.
  void dequeue(Task& t, sched_time now, schedcore::dequeue_flags) noexcept {
    stride_entity& e = E(t);
    if (SCHEDCORE_MISUSE(!e.on_rq)) return;
    charge(now);
    e.remain = e.pass - global_pass_;
    if (curr_ == &t)
      curr_ = nullptr;  // the running client is not in the tree
    else
      tree_.erase(t);
    e.on_rq = false;
    --nr_;
    set_total(total_tickets_ - e.tickets.weight);
  }
  /// The queued client with the smallest pass, or nullptr. No side effects.
  Task* pick_next(sched_time) const noexcept { return tree_.front(); }
  /// `t` starts its quantum; it leaves the tree while it runs.
  void set_next(Task& t, sched_time now) noexcept {
    stride_entity& e = E(t);
    if (SCHEDCORE_MISUSE(!e.on_rq || curr_ != nullptr)) return;
    tree_.erase(t);
    curr_ = &t;
    e.exec_start = now;
    e.picked_at = now;
  }
  /// The running client stops (its quantum ended, or something more important runs): it is
  /// charged and goes back into the tree at its new pass.
  void put_prev(Task& t, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(curr_ != &t)) return;
    charge(now);
    curr_ = nullptr;
    tree_.insert(t);
  }
  /// Charges the running client; true once it has had a whole quantum.
  bool tick(Task& curr, sched_time now) noexcept {
    if (SCHEDCORE_MISUSE(curr_ != &curr)) return false;
    charge(now);
    return now - E(curr).picked_at >= knobs_.quantum;
  }
  /// Never: allocation is by whole quanta (the woken client waits for the running one's end).
  bool wakeup_preempt(Task&, Task&, sched_time) const noexcept { return false; }
  /// Queued clients, the running one included.
  usize nr_runnable() const noexcept { return nr_; }

  /// The queue's virtual time (virtual ns): advances by 1024 / total tickets per ns used.
  vtime global_pass() const noexcept { return global_pass_; }
  /// Sum of the tickets of the queued clients (the running one included).
  u64 total_tickets() const noexcept { return total_tickets_; }

  /// O(n) self-check: tree shape and order, counts, the ticket total, every client flagged.
  bool verify() const noexcept {
    if (!tree_.verify()) return false;
    u64 tickets = 0;
    usize n = 0;
    for (const Task& t : tree_) {
      if (!E(t).on_rq || &t == curr_) return false;
      tickets += E(t).tickets.weight;
      ++n;
    }
    if (curr_ != nullptr) {
      if (!E(*curr_).on_rq) return false;
      tickets += E(*curr_).tickets.weight;
      ++n;
    }
    return n == nr_ && tickets == total_tickets_;
  }

 private:
  // Charges the running client for the time since its last charge, and advances the global
  // pass by the same time at the global stride (the paper advances it per quantum used).
  void charge(sched_time now) noexcept {
    if (curr_ == nullptr) return;
    stride_entity& e = E(*curr_);
    const s64 ran = now - e.exec_start;
    if (ran <= 0) return;
    e.exec_start = now;
    e.pass += static_cast<s64>(schedcore::fair_vscale_delta(static_cast<u64>(ran), e.stride));
    global_pass_ +=
        static_cast<s64>(schedcore::fair_calc_delta(static_cast<u64>(ran), schedcore::nice_0_load, total_inv_));
  }
  void set_total(u64 tickets) noexcept {
    total_tickets_ = tickets;
    total_inv_ = schedcore::fair_inv_weight(tickets);
  }
  // New tickets for a task that is not queued. remain scales by old/new tickets (client_modify):
  // a client halfway through its stride stays halfway through the new one.
  errc retarget(Task& t, schedcore::load_weight tickets) noexcept {
    stride_entity& e = E(t);
    if (e.on_rq) return errc::busy;
    if (e.has_remain && tickets.weight != e.tickets.weight) {
      const u64 mag = static_cast<u64>(e.remain < 0 ? -e.remain : e.remain);
      const s64 scaled = static_cast<s64>(schedcore::fair_calc_delta(mag, e.tickets.weight, tickets.inv_weight));
      e.remain = e.remain < 0 ? -scaled : scaled;
    }
    e.tickets = tickets;
    e.stride = schedcore::make_fair_vscale(tickets);
    return errc::ok;
  }

  schedcore::rb_tree<Task, hook_access, by_pass> tree_{};  ///< waiting clients by pass (curr not in it)
  Task* curr_ = nullptr;                                    ///< the running client, or nullptr
  usize nr_ = 0;                                            ///< queued clients, curr included
  vtime global_pass_{};                                     ///< virtual ns
  u64 total_tickets_ = 0;                                   ///< tickets of the queued clients
  u32 total_inv_ = schedcore::fair_inv_weight(0);           ///< 2^32 / total_tickets_
  knobs knobs_{};                                           ///< current tunables
};

}  // namespace stride_example

#endif
