// The portable scheduler part of the schedcore ports: one run queue and one policy, chosen at
// build time, behind six calls that a kernel makes at the obvious moments.
//
// What it does: `PORT_SCHED_FAIR=0` (default) builds a fixed-priority FIFO/RR policy over a
// priority array (bitmap + one FIFO list per level; level 0 is the most urgent);
// `PORT_SCHED_FAIR=1` builds a weighted-fair policy (vruntime advanced by runtime scaled by the
// nice weight, the smallest vruntime runs, CFS-style sleeper placement and wakeup preemption).
// What it demonstrates: the same scheduler source compiles unchanged into the Cortex-M3 kernel
// (examples/cortex-m), the RISC-V kernels (examples/riscv), the Linux module's work dispatcher
// (examples/linux-module) and a host build, and makes identical decisions everywhere, because
// every decision is a function of `now` passed in by the caller (never a clock read here).
// Where it behaves badly: it is single-CPU and the caller owns locking (interrupts off);
// FIFO tasks at the top level starve everyone below them (that is the FIFO contract); the fair
// policy keeps the caller's tick resolution, so with a 1 ms tick slices are whole ticks.
//
// Model (the Linux convention): the running task is NOT in the run queue. `pick_next` removes
// the winner, `put_prev` puts a preempted or yielding task back, `dequeue` is only for tasks in
// the queue (a running task that blocks simply is not put back).
#ifndef SCHEDCORE_PORT_SCHED_HPP
#define SCHEDCORE_PORT_SCHED_HPP

#include "schedcore/core/bitops.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/types.hpp"

#ifndef PORT_SCHED_FAIR
#define PORT_SCHED_FAIR 0
#endif

namespace port {

using schedcore::duration_ns;
using schedcore::s32;
using schedcore::s64;
using schedcore::sched_time;
using schedcore::u32;
using schedcore::u64;
using schedcore::u8;

/// Number of fixed priority levels (0 = most urgent). 32 keeps the bitmap in one 32-bit word,
/// which Cortex-M3 scans with one `rbit`+`clz`.
inline constexpr unsigned nr_prio = 32;
/// Round-robin slice in ns (3 ticks of 1 ms: short enough to show rotation in a short trace).
inline constexpr duration_ns rr_slice = schedcore::msec(3);
/// Fair policy: the period in which every runnable task should run once (ns).
inline constexpr duration_ns fair_period = schedcore::msec(12);
/// Fair policy: no slice is shorter than this (ns), whatever the number of tasks.
inline constexpr duration_ns fair_min_slice = schedcore::msec(2);
/// Fair policy: a woken task preempts only if its vruntime leads by more than this (ns).
inline constexpr duration_ns fair_wakeup_gran = schedcore::msec(1);

/// Minimal intrusive doubly linked hook (circular; the list head is a sentinel hook).
/// Nodes start null so that a global table of tasks is zero-initialised (.bss); g++ 12 in
/// C++17 emits a dynamic initialiser for an array of self-pointing nodes.
struct list_hook {
  list_hook* next = nullptr;
  list_hook* prev = nullptr;
};
/// A list head: an empty circular list points at itself.
struct list_head : list_hook {
  constexpr list_head() noexcept : list_hook{this, this} {}
};

/// What the policy knows about a task. A kernel derives its task control block from it.
struct sched_entity : list_hook {
  enum class rt_policy : u8 { fifo, rr };
  u8 prio = 0;                       ///< fixed priority, 0 = most urgent, < nr_prio
  rt_policy policy = rt_policy::fifo;  ///< fixed-priority flavour
  s32 nice = 0;                      ///< fair policy: -20..19
  u32 weight = 1024;                 ///< fair policy: load weight of `nice` (nice 0 = 1024)
  u64 vruntime = 0;                  ///< fair policy: virtual runtime, ns scaled by 1024/weight
  sched_time exec_start{};           ///< when it was last picked (ns)
  duration_ns slice_used = 0;        ///< ns run since it was picked (RR and fair slices)
  bool queued = false;               ///< linked in the run queue
};

/// Kernel load weight of a nice value: each step is about 10% of CPU share (1.25 ratio).
/// These are the well-known published values of Linux's prio-to-weight table.
u32 nice_to_weight(s32 nice) noexcept;

/// One CPU's run queue. All calls with interrupts off; every `now` is in ns and never
/// goes backwards.
class run_queue {
 public:
  /// Adds a runnable task that is not running. `wakeup` is true when it returns from a sleep.
  void enqueue(sched_entity* se, sched_time now, bool wakeup) noexcept;
  /// Removes a queued (not running) task.
  void dequeue(sched_entity* se, sched_time now) noexcept;
  /// Removes and returns the task to run next (nullptr: idle). Starts its slice at `now`.
  sched_entity* pick_next(sched_time now) noexcept;
  /// Puts the running task back after preemption or a yield (charges its runtime first).
  void put_prev(sched_entity* se, sched_time now) noexcept;
  /// Charges the running task for the time since the last call; true: it should be preempted.
  bool tick(sched_entity* curr, sched_time now) noexcept;
  /// True when the just-enqueued `woken` should preempt `curr` (nullptr curr: the CPU idles).
  bool wakeup_preempt(sched_entity* woken, sched_entity* curr, sched_time now) noexcept;
  /// The running task stops being runnable (sleeps or exits): charges it up to `now` and
  /// drops it from the queue's accounting. The caller then picks the next task.
  void block(sched_entity* curr, sched_time now) noexcept;
  /// Charges `curr` for the time up to `now`.
  void update_curr(sched_entity* curr, sched_time now) noexcept;
  /// Number of queued tasks (the running one excluded).
  u32 nr_queued() const noexcept { return nr_; }

 private:
  u32 nr_ = 0;
#if PORT_SCHED_FAIR
  list_head all_{};           // queued tasks, unordered (fallback until rb_tree lands)
  u64 min_vruntime_ = 0;      // monotonic floor of queued vruntimes, for sleeper placement
  u32 total_weight_ = 0;      // sum of weights of queued tasks plus the running one (< 2^32)
  sched_entity* curr_ = nullptr;
#else
  u32 bitmap_ = 0;            // bit p set <=> level p non-empty
  list_head level_[nr_prio]{};
#endif
};

}  // namespace port

#endif
