// The portable scheduler part of the schedcore ports: one schedcore policy, chosen at build
// time, instantiated once for the ports' task type behind a few non-template calls.
//
// What it does: `PORT_SCHED_FAIR=0` (default) uses schedcore's `rt_policy` (SCHED_FIFO /
// SCHED_RR over `prio_array<.., 100>`, policy/rt.hpp) with a 3 ms RR slice and RT throttling
// disabled; `PORT_SCHED_FAIR=1` uses schedcore's `eevdf_policy` (EEVDF, the fair class of
// Linux 6.6+, policy/eevdf.hpp) with a 2.5 ms base slice and HZ=1000; `PORT_SCHED_FAIR=2` uses
// a policy written outside the library, the custom-policy example's `stride_policy`
// (examples/custom-policy/stride.hpp: stride scheduling, tickets = nice weight) with a 3 ms
// quantum; `PORT_SCHED_FAIR=3` the second custom-policy example, `mlfq_policy`
// (examples/custom-policy/mlfq.hpp). Swapping the policy is this file and sched.cpp's `init()`: the kernel is unchanged.
// `run_queue` forwards to the policy hooks one to one; its members are defined in sched.cpp so
// that the policy is instantiated in exactly one object whose size the ports measure
// (`arm-none-eabi-size sched.o`).
// What it demonstrates: the same schedcore headers compile unchanged into the Cortex-M3 kernel
// (examples/cortex-m), the RISC-V kernels (examples/riscv), the Linux module's work dispatcher
// (examples/linux-module) and a host build, and make identical decisions everywhere, because
// every decision is a function of `now` passed in by the caller (never a clock read).
// Where it behaves badly: single CPU, the caller owns locking (interrupts off); FIFO tasks at
// the most urgent level starve everyone below them (the FIFO contract, throttling is off).
//
// Model (schedcore's, which is the Linux one, policy/policy.hpp): a runnable task stays in its
// class while it runs. `enqueue` when it becomes runnable, `schedule` = `put_prev` (if the
// previous task is still runnable) + `pick_next` + `set_next`, `tick` while it runs, `dequeue`
// when it stops being runnable (it may be the running task: no `put_prev` follows).
#ifndef SCHEDCORE_PORT_SCHED_HPP
#define SCHEDCORE_PORT_SCHED_HPP

#include "schedcore/core/errc.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/policy/flags.hpp"
#include "schedcore/policy/params.hpp"

#ifndef PORT_SCHED_FAIR
#define PORT_SCHED_FAIR 0
#endif

#include "schedcore/policy/policy.hpp"
#if PORT_SCHED_FAIR == 3
#include "../../custom-policy/mlfq.hpp"
#elif PORT_SCHED_FAIR == 2
#include "../../custom-policy/stride.hpp"
#elif PORT_SCHED_FAIR
#include "schedcore/policy/eevdf.hpp"
#else
#include "schedcore/policy/rt.hpp"
#endif

namespace port {

using schedcore::duration_ns;
using schedcore::errc;
using schedcore::s32;
using schedcore::s64;
using schedcore::s8;
using schedcore::sched_kind;
using schedcore::sched_params;
using schedcore::sched_time;
using schedcore::u32;
using schedcore::u64;
using schedcore::u8;
using schedcore::usize;

#if PORT_SCHED_FAIR == 3
/// What the policy keeps per task; a kernel derives its task control block from it.
struct sched_entity : mlfq_example::mlfq_entity {};
/// The policy: a multi-level feedback queue, written outside the library (examples/custom-policy).
using policy_type = mlfq_example::mlfq_policy<sched_entity>;
/// The name the demo prints.
inline constexpr const char* policy_name = "mlfq (custom-policy example, 4 levels, nice ignored)";
/// Top-level quantum: 3 ticks of 1 ms, as the fixed configuration's RR slice.
inline constexpr duration_ns mlfq_quantum = schedcore::msec(3);
#elif PORT_SCHED_FAIR == 2
/// What the policy keeps per task; a kernel derives its task control block from it.
struct sched_entity : stride_example::stride_entity {};
/// The policy: stride scheduling, written outside the library (examples/custom-policy).
using policy_type = stride_example::stride_policy<sched_entity>;
/// The name the demo prints.
inline constexpr const char* policy_name = "stride (custom-policy example, tickets = nice weight)";
/// Quantum: 3 ticks of 1 ms, as the fixed configuration's RR slice.
inline constexpr duration_ns stride_quantum = schedcore::msec(3);
#elif PORT_SCHED_FAIR
/// What the policy keeps per task; a kernel derives its task control block from it.
struct sched_entity : schedcore::eevdf_entity {};
/// The policy: schedcore's EEVDF (policy/eevdf.hpp, the fair class of Linux 6.6+).
using policy_type = schedcore::eevdf_policy<sched_entity>;
/// The name the demo prints.
inline constexpr const char* policy_name = "fair (schedcore eevdf_policy, nice)";
/// Base slice (the request): 2.5 ms. The tick (1 ms) is what ends a turn, so a request is
/// served at the first tick at or after it is used up: 2.5 ms ends at the 3rd tick for every
/// weight. A whole 3 ms would sit on a knife edge: calc_delta_fair floors, so three 1 ms charges
/// of a nice 5 task add up to a few ns less than the 3 ms request and its turn takes 4 ticks.
inline constexpr duration_ns fair_base_slice = schedcore::usec(2500);
#else
/// What the policy keeps per task; a kernel derives its task control block from it.
struct sched_entity : schedcore::rt_entity {};
/// The shape of the port's rt class: the kernel's 100 priorities, RT throttling compiled out
/// (rt_policy's Config): nothing below this class would use the time it frees, and a port that
/// never throttles should not carry the bandwidth accounting (it disables it at run time too).
struct port_rt_config {
  static constexpr unsigned nr_prios = 100;
  static constexpr bool throttling = false;
};
/// The policy: schedcore's SCHED_FIFO/SCHED_RR (policy/rt.hpp).
using policy_type = schedcore::rt_policy<sched_entity, schedcore::base_entity<schedcore::rt_entity>, port_rt_config>;
/// The name the demo prints.
inline constexpr const char* policy_name = "fixed priority (schedcore rt_policy, FIFO/RR)";
/// Round-robin slice (3 ticks of 1 ms: short enough to show rotation in a short trace).
inline constexpr duration_ns rr_slice = schedcore::msec(3);
#endif

/// One CPU's run queue: the policy object plus the calls a kernel makes. Constant-initialised
/// (a global needs no constructor); call `init()` once before use. All calls with interrupts
/// off; every `now` is in ns and never goes backwards.
class run_queue {
 public:
  /// Installs the port's knobs (RR slice, no RT throttling). False if the policy refuses them.
  bool init() noexcept;
  /// Loads scheduling parameters into a task that is not queued (the policy validates them).
  errc setup(sched_entity& se, const sched_params& p) noexcept;
  /// `se` becomes runnable (`wakeup`: it returns from a sleep; otherwise it is new, and the
  /// policy's `task_new` runs first, as at fork).
  void enqueue(sched_entity& se, sched_time now, bool wakeup) noexcept;
  /// `se` stops being runnable; it may be the running task (`flags` say why; with `dead` the
  /// policy's `task_dead` follows, its last look at the task).
  void dequeue(sched_entity& se, sched_time now, schedcore::dequeue_flags flags) noexcept;
  /// The schedule step: puts `prev` back if it is still runnable, picks and starts the next
  /// task. Returns it (possibly `prev` again) or nullptr (idle).
  sched_entity* schedule(sched_entity* prev, bool prev_runnable, sched_time now) noexcept;
  /// Charges the running task; true: it should be preempted.
  bool tick(sched_entity& curr, sched_time now) noexcept;
  /// True when the just-enqueued `woken` should preempt the running `curr`.
  bool wakeup_preempt(sched_entity& woken, sched_entity& curr, sched_time now) noexcept;
  /// Changes the parameters of a runnable `se` (the kernel's `sched_setscheduler`: put_prev if
  /// `running`, dequeue(save), setup, enqueue(restore), set_next if `running`, then the
  /// policy's `prio_changed` when the change was accepted). The caller reschedules afterwards.
  /// On a refusal the old parameters stay.
  errc change(sched_entity& se, const sched_params& p, bool running, sched_time now) noexcept;
  /// The running task gives up the CPU (the caller then calls `schedule`).
  void yield(sched_entity& curr, sched_time now) noexcept;
  /// Runnable tasks, the running one included.
  usize nr_runnable() const noexcept { return policy_.nr_runnable(); }
  /// The policy's structural self-check (an optional hook: true for a policy without one).
  bool verify() const noexcept { return schedcore::policy_traits<policy_type>::verify(policy_); }

 private:
  policy_type policy_{};
};

/// True while `se` is runnable in a run queue (queued or running).
inline bool is_runnable(const sched_entity& se) noexcept { return se.on_rq; }

/// A number that summarises a task's policy state (the self-test folds it into its checksum):
/// the remaining RR slice under fixed priority, the virtual runtime under the fair policy, the
/// pass under stride.
inline u64 digest(const sched_entity& se) noexcept {
#if PORT_SCHED_FAIR == 3
  return static_cast<u64>(se.level) << 32 | static_cast<u32>(se.allot_used);
#elif PORT_SCHED_FAIR == 2
  return se.pass.ns();
#elif PORT_SCHED_FAIR
  return se.vruntime.ns();
#else
  return static_cast<u64>(se.slice_left);
#endif
}

/// The scheduling parameters of a task that this configuration uses: `rt_kind` (fifo or rr)
/// and `rt_priority` (1..99) under fixed priority, `nice` under the fair policies.
constexpr sched_params task_params(sched_kind rt_kind, u8 rt_priority, s8 nice) noexcept {
#if PORT_SCHED_FAIR
  (void)rt_kind;
  (void)rt_priority;
  return sched_params{sched_kind::normal, nice, 0, 0, 0, 0};
#else
  (void)nice;
  return sched_params{rt_kind, 0, rt_priority, 0, 0, 0};
#endif
}

}  // namespace port

#endif
