/// @file
/// @brief HOSTED. The deterministic discrete-event SMP engine of schedsim.
///
/// @par What is simulated
/// - `cpus` CPUs, each with one run queue: a `class_stack` of unmodified schedcore policies
///   (`Binding::stack_type`), driven only through the hooks of policy/policy.hpp.
/// - Time is integer nanoseconds from 0. Events are ordered by (time, sequence number); the
///   sequence number is assigned at insertion, so simultaneous events are processed in the
///   order they were created: fully deterministic. Ticks (at most one pending per CPU) sit in
///   a small heap of their own, every other event in the main binary heap; the loop takes the
///   earlier top, which is the same total order as one shared heap.
/// - Event kinds: per-CPU tick (every 1e9/hz ns, on a fixed grid through t = 0 shifted by
///   `machine_model::tick_phase_ns`; stopped while the CPU is
///   idle, like NO_HZ idle), per-CPU completion of the running task's current action, task
///   wake (sleep, timer expiry or device completion), delayed task start, per-CPU class timer
///   (a class's `next_timer`: RT throttling, deadline replenishment, cpu.max), end of the
///   warm-up, end of run.
/// - Reschedules requested while handling an event (wakeup preemption, blocking, yield, tick)
///   are applied at the end of that event, CPU by CPU in index order. While a CPU's task runs
///   non-preemptible work (`event::nopreempt`), or has just been switched in to start some,
///   the CPU's reschedules are held and applied when that work is done.
///
/// @par SMP placement (kernel-like; the rules are in the sections below and in
/// docs/guides/simulator.md)
/// - Wakeup of a fair task: select_task_rq_fair's fast path ("fair wakeup placement"):
///   energy-aware placement where it runs, wake_affine between the waker's CPU and the
///   previous one, then select_idle_sibling (the cache-hot candidates, then a scan SIS_UTIL may
///   shorten), or select_idle_capacity on an asymmetric machine. RT tasks and reservations
///   follow select_task_rq_rt / _dl and move by push / pull only ("RT and deadline push /
///   pull").
/// - New tasks (start, fork): the allowed CPU with the fewest runnable tasks; ties prefer the
///   parent's CPU, then the lowest index.
/// - Periodic balance: every `balance_ns` of busy ticks each CPU looks, within its root domain,
///   for the busiest CPU by task count (the default) or by PELT load (`balance_by_load`, and on
///   asymmetric machines), passing over CPUs whose tasks are all pinned away; queued (not
///   running) fair tasks allowed here move, `dequeue(migrating)` there, `enqueue(migrated)`
///   here, the one that last ran longest ago (the cache-coldest) first, lowest id on ties: by
///   count one task, by load until half the imbalance has moved (at most 32, sched_nr_migrate).
/// - By count, a one-task imbalance between busy CPUs (busiest = this + 1) is left alone by
///   default. With `machine_model::balance_failed` = k > 0, the (k + 1)-th consecutive periodic
///   balance that finds it moves one task the same way (Linux's nr_balance_failed), so N + 1
///   hogs on N CPUs rotate.
/// - Idle balance: a CPU about to go idle pulls the same way from a CPU with >= 2 runnable, and
///   a busy CPU's tick with two or more tasks queued kicks the idle CPUs to balance, at most
///   once per `balance_ns` (the kernel's nohz idle balance).
///
/// @par Cost model (machine_model; defaults model a 2007 desktop CPU)
/// - A context switch into a task costs `cs_cost_ns` of CPU time charged to no task (switch
///   overhead); switching to idle is free. During it the incoming task is "current" but does no
///   work.
/// - Cache refill: a task resuming on a CPU pays extra work `refill * x / (x + refill_half_ns)`
///   where x is the CPU time other tasks ran on that CPU since it last ran there (so x = 0:
///   nothing lost; large x: saturates at `refill`), or the full `refill` when it last ran on
///   another CPU or never ran. `refill` is the task's `refill_ns` or the machine's `refill_ns`.
///   The penalty is added to its next `run` work (it is *its* cache that is cold), so tiny
///   timeslices cost throughput, as in the kernbench seed.
///
/// @par Accounting (exact): every nanosecond of every CPU is exactly one of: a task's CPU time,
/// switch overhead, or idle. `sum(cpu_ns) + overhead_ns + idle_ns == cpus * duration_ns`.
///
/// @par Warm-up (`run_config::warmup_ns`): the run starts at 0 as always, but every statistic
/// covers only [warmup, end): at the warm-up instant the CPUs' time is settled and every counter
/// (CPU, wait, switches, latency samples, frames, deadlines, jobs, device busy time, pipe
/// traffic) starts again from zero, a task born earlier counts as born then, and the result's
/// `duration_ns` is the window, so the conservation identity above holds for it. What the
/// scheduler did before, the tasks' histories included, is kept: that is the point (steady
/// state, not the start-up transient). `makespan_ns` stays absolute. A run that ends before
/// its warm-up reports the whole run and says so in its notes.
///
/// @par Determinism: one splitmix64 PRNG seeded from `--seed`, used only for `jitter`; no hash
/// container is iterated; host time is read only to compute `events_per_sec`, the only field
/// that varies between identical runs (`run_config::host_timing = false` zeroes it).
///
/// @par Speed (`events_per_sec`): events processed per second of host CPU time of the thread
/// that ran the simulation (CLOCK_THREAD_CPUTIME_ID: one core, not diluted by other processes
/// or by the other threads of a parallel sweep), from the first task creation to the end of
/// the event loop (report building excluded). Hot-path layout: tasks are allocated in chunks
/// (dense run-queue walks), the per-switch state (`task_core`) is separate from names and
/// sample vectors (`task_cold`, names built only when a report or trace needs them), pending
/// reschedules are a CPU bit mask, and the periodic balance is a countdown.
#ifndef SCHEDCORE_SIM_ENGINE_HPP
#define SCHEDCORE_SIM_ENGINE_HPP

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <queue>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "schedcore/core/errc.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/policy/cfs_bandwidth.hpp"
#include "schedcore/policy/class_stack.hpp"
#include "schedcore/policy/dl_server.hpp"
#include "schedcore/policy/fair_weights.hpp"
#include "schedcore/policy/params.hpp"
#include "schedcore/policy/policy.hpp"
#include "schedcore/sim/interbench_job.hpp"
#include "schedcore/sim/json.hpp"
#include "schedcore/sim/metrics.hpp"
#include "schedcore/sim/trace.hpp"
#include "schedcore/sim/workload.hpp"
#include "schedcore/smp/capacity.hpp"
#include "schedcore/smp/energy_model.hpp"
#include "schedcore/smp/group_shares.hpp"
#include "schedcore/smp/iowait_boost.hpp"
#include "schedcore/smp/pelt.hpp"
#include "schedcore/smp/uclamp.hpp"
#include "schedcore/smp/util_est.hpp"
#include "schedcore/smp/wake_affine.hpp"

namespace schedcore {
namespace sim {

/// One performance domain of a machine with DVFS (machine_model::perf_domains): `cpus`
/// consecutive CPUs sharing one clock, their capacity at the top frequency, and their
/// performance states.
struct perf_domain_model {
  std::string name;                                           ///< a label for tables ("little", "big"), may be empty
  int cpus = 1;                                               ///< CPUs in the domain, >= 1
  std::uint32_t capacity = 1024;                              ///< each CPU's capacity at the top state, 1..1024
  std::vector<std::pair<std::uint32_t, std::uint32_t>> states;  ///< (kHz, µW of one busy CPU), ascending kHz
  std::uint32_t idle_uw = 0;  ///< µW of one idle CPU of the domain (the kernel's Energy Model has none: 0)
};

/// Machine cost model parameters (times in ns; each field's comment gives its unit).
struct machine_model {
  std::int64_t cs_cost_ns = 2000;          ///< direct cost of a switch into a task (2 us: 2007-era
                                           ///< kernel path + TLB flush)
  std::int64_t refill_ns = 100000;         ///< extra work to refill a fully evicted working set
                                           ///< (100 us: ~1 MB of L2 at ~10 GB/s)
  std::int64_t refill_half_ns = 2000000;   ///< others' CPU time on this CPU that evicts half of it (2 ms)
  std::int64_t balance_ns = 4000000;       ///< periodic load-balance interval (4 ms)
  /// Periodic balances that find a one-task imbalance between busy CPUs and move nothing
  /// before the next such balance moves one task anyway; 0 (the default) never moves one.
  /// Linux's load balancer counts such failures (nr_balance_failed, from 2.6.3x; 2.6.22-2.6.2x
  /// got there through SCHED_LOAD_SCALE_FUZZ instead), and the count lets a task's whole load
  /// pass for half of it after one failure: 1 replays it, so that N + 1 equal hogs on N CPUs
  /// rotate and share the CPUs evenly over time, as they do on Linux 6.18 (docs/results.md).
  int balance_failed = 0;
  /// The periodic balance compares CPUs by load instead of by task count: each queued task
  /// weighs its PELT load_avg (smp/pelt.hpp), scaled by its task groups' share of the root
  /// (task_h_load), as Linux has since 3.8. Off by default for workloads without cgroups (the
  /// seed scenarios were made with the count), always on with cgroups on SMP (counting
  /// cannot balance groups) and on asymmetric machines. With it, `balance_failed` lets a
  /// task's load count half after that many failed balances in a row, and a quarter after one
  /// more, and so on (nr_balance_failed).
  bool balance_by_load = false;
  /// A fair task woken by a task on another CPU may be placed from the waker's CPU instead of
  /// its previous one (select_task_rq_fair's wake_affine, Linux 4.14+ WA_IDLE, WA_WEIGHT and
  /// WA_BIAS, gated by wake_wide's flip counts; loads per unit of capacity on an asymmetric
  /// machine); true, the default, as in the kernel. false:
  /// every fair wakeup searches from the previous CPU (what this simulator did before it
  /// modelled wake_affine). docs/guides/simulator.md, "The machine".
  bool wake_affine = true;
  /// SIS_UTIL (Linux 6.0+, smp/wake_affine.hpp): a fair wakeup's scan for an idle CPU looks at
  /// no more CPUs than the machine's fair utilisation allows, and at none from about 80-85 % up
  /// (80 % on 8 CPUs, 85.5 % in the limit).
  /// The depth is recomputed at every periodic and idle balance (not the newly-idle ones) from the CPUs'
  /// summed cpu_util_cfs; it starts at the whole machine (as if idle before the run). It needs
  /// PELT, and asymmetric machines scan by capacity without it. -1 (the default): on wherever
  /// load tracking runs on a symmetric machine of 2 CPUs or more (balance by load, cgroups,
  /// util_est, frequency scaling), off otherwise (the results measured by task count keep
  /// their full scan); 0 off; 1 on, which turns load tracking on (not the balance by load).
  int sis_util = -1;
  /// RT_RUNTIME_SHARE (Linux 2.6.25-5.9 by default; off since 5.10): a CPU whose RT class has
  /// run past its RT runtime (`rt_runtime_ns`) borrows unused RT runtime from the other CPUs
  /// of its root domain (1/n of each one's spare time, n the domain's CPU count, up to the
  /// whole period) before it throttles; a CPU that has borrowed the whole period never
  /// throttles again (lent runtime is not given back). false (the default): each CPU's RT
  /// class throttles at its own runtime, as 5.10+.
  bool rt_runtime_share = false;
  /// Linux 6.12+'s fair server (policy/dl_server.hpp): a deferrable deadline reservation per
  /// CPU that runs the fair class for this many ns per `fair_server_period_ns` when RT tasks
  /// (or reservations) starve it, at its zero-laxity instant. 0 (the default): off, as every
  /// kernel before 6.12. The kernel's default is 50 ms per 1 s; 6.12 also dropped RT throttling
  /// (set `rt_runtime_ns` = -1 to model that). Needs a stack with a deadline class (every
  /// schedsim policy has one). 0..fair_server_period_ns.
  std::int64_t fair_server_runtime_ns = 0;
  /// The fair server's period (= its relative deadline), ns: 100 us..2^22 us (1 s).
  std::int64_t fair_server_period_ns = 1000000000;
  /// Whose rules the fair server follows (policy/dl_server.hpp): 6.12 (the default; stopped by
  /// its class's last dequeue) or 6.19 (stopped by an empty pick or a whole period of idle time).
  schedcore::server_rules fair_server_rules = schedcore::server_rules::linux_6_12;
  /// RT throttling's budget, sched_rt_runtime_us: what each CPU's RT class may run per
  /// `rt_period_ns`, ns (950 ms, the kernel's default); -1: no throttling (RUNTIME_INF, and
  /// the 2.6.22-2.6.24 kernels, which had none). Otherwise 0..rt_period_ns.
  std::int64_t rt_runtime_ns = 950000000;
  /// RT throttling's period, sched_rt_period_us, ns: 1 ms..100 s (1 s).
  std::int64_t rt_period_ns = 1000000000;
  /// SCHED_DEADLINE admission control's bound, % of each CPU (the deadline class's `bound`,
  /// which the kernel derives from sched_rt_runtime_us / sched_rt_period_us): 95, the kernel's
  /// default; -1: admission off (the sysctl at -1). A separate setting from `rt_runtime_ns`
  /// because 6.12+ kernels without RT_GROUP_SCHED no longer throttle RT tasks but still admit
  /// deadline tasks against the sysctl. While admission is on, a SCHED_DEADLINE task must be
  /// allowed on every CPU of its root domain (`partitions`). -1..100.
  std::int64_t dl_bound_pct = 95;
  /// Exclusive cpuset partitions (cgroup v2 `cpuset.cpus.partition = root`, v1's
  /// cpu_exclusive cpusets with sched_load_balance off in the parent): each an affinity mask
  /// (bit i = CPU i) that becomes a root domain of its own. Deadline admission (the bound x
  /// the domain's CPUs), the deadline affinity rule, and load balancing then work per domain;
  /// the CPUs no partition names form the default root domain. A task whose CPUs all lie in
  /// one partition runs in that partition's cpuset; any other task runs in the root cpuset, on
  /// its CPUs outside every partition (sched_setaffinity's mask & the cpuset's CPUs; none
  /// left: EINVAL, a workload error). Non-empty, disjoint, within the machine, leaving at least
  /// one CPU to the default domain (partition_problem). Empty: one root domain, the machine.
  std::vector<std::uint64_t> partitions;
  /// Where the tick grid sits: ticks fall at `tick_phase_ns + k·(1e9/hz)` (taken modulo one
  /// tick; default 0, the grid through t = 0). A kernel's tick has no fixed relation to a
  /// workload's own timers, while a model whose timers and tick both start at 0 sees one
  /// relation only: a periodic task whose period is not a whole number of ticks then cycles
  /// through the same few tick offsets every run. Replaying several phases shows how much a
  /// result owes to that accident (docs/results.md, "Against the kernel it runs on").
  std::int64_t tick_phase_ns = 0;
  /// Each CPU's capacity, its throughput relative to the biggest CPU's (smp/capacity.hpp): in
  /// 1..1024, one entry per CPU; empty (the default): every CPU 1024. A CPU of capacity c does
  /// c/1024 of a 1024 CPU's work per unit of time, so a `run` (work) lasts 1024/c times longer
  /// there (a `runtime` is wall time and does not), and PELT's util counts c/1024 of the time
  /// it runs there. When the capacities differ (an asymmetric machine: big.LITTLE, hybrid) the
  /// engine also tracks every task's PELT signal and schedules as Linux's capacity-aware code
  /// does: a waking task takes an idle CPU its util fits (the cache-hot candidates where it
  /// fits, then select_idle_capacity from wake_affine's target), the periodic
  /// balance compares loads per unit of capacity, and a task that outgrows a smaller CPU (a
  /// misfit) is moved to an idle or lightly loaded bigger one, preempted if it runs (active
  /// balance). docs/guides/simulator.md, "Asymmetric CPU capacity".
  std::vector<std::uint32_t> capacity;
  /// Simultaneous multithreading: CPUs 0..smt_threads-1 are the hardware threads of core 0, the
  /// next smt_threads those of core 1, and so on. 1 (the default): no SMT. A core's threads
  /// share its execution units: a thread whose siblings are idle does its CPU's whole work rate;
  /// with b > 1 of them busy (running a task or switching) the core does (100 + smt_gain_pct) %
  /// of one thread's work, shared equally, so each does (1 + gain / 100) / b of its rate, at most
  /// all of it (a Pentium 4's Hyper-Threading gained about 20-30 %, Kolivas: 25 by default).
  /// Only the work rate changes: PELT, capacities, EAS and the placement and balance rules see
  /// whole CPUs, as the kernel's frequency and capacity invariance do (neither scales by a
  /// sibling's activity), and nothing prefers an idle core (select_idle_core is not modelled).
  /// `runtime` (wall time) is unaffected. docs/guides/simulator.md, "SMT".
  int smt_threads = 1;
  int smt_gain_pct = 25;  ///< 0..100: the throughput a core gains with all its threads busy
  /// Frequency scaling and energy (smp/energy_model.hpp): the machine's performance domains,
  /// in CPU order (the first `cpus` CPUs form domain 0, the next ones domain 1, ...); empty
  /// (the default): no DVFS, every CPU always at its top speed, no energy reported. With
  /// domains, each CPU's capacity is its domain's (so `capacity` must be empty or agree), a
  /// CPU at frequency f does capacity x f / f_max of a 1024 CPU's work per unit of time, and
  /// schedutil sets each domain's frequency from its busiest CPU's utilisation (PELT, frequency-
  /// invariant) at most once per `dvfs_rate_limit_ns` after a change. Energy is each CPU's
  /// state's power while it is busy (a task or a switch) plus the domain's idle power while it
  /// is idle. docs/guides/energy.md, "In schedsim".
  std::vector<perf_domain_model> perf_domains;
  /// schedutil's rate_limit_us, ns: a domain's frequency changes at most once per this
  /// interval (2 ms: the cpufreq default since Linux 6.9). 0: at every update.
  std::int64_t dvfs_rate_limit_ns = 2000000;
  /// Energy-aware scheduling on a machine with performance domains whose capacities differ
  /// (Linux's EAS, 5.0+): while no CPU is overutilized (util above 80 % of its capacity), a
  /// waking fair task goes where the Energy Model says the machine draws least
  /// (find_energy_efficient_cpu), and the load balancer stands aside. false: the capacity-aware
  /// placement and balance alone (as a kernel without an Energy Model, or with
  /// sched_energy_aware = 0).
  bool energy_aware = true;
  /// util_est (smp/util_est.hpp): a fair task's size is the larger of its util_avg and the
  /// EWMA of its util at each sleep, for every decision that sizes a task or a CPU (the idle
  /// CPU a wakeup takes, misfit, the newly-idle pull's capacity check, spare capacity,
  /// schedutil, EAS). -1 (the default): on with performance domains, off otherwise (the
  /// capacity-only results were measured without it); 0 off; 1 on.
  int util_est = -1;
  /// The boost a real-time task gets when it requests none (sysctl_sched_uclamp_util_min_rt_default,
  /// 0..1024; the kernel's default 1024 runs RT tasks at the top frequency; Android sets 0 to
  /// save power). A value other than 1024 turns utilisation clamping on, as writing the sysctl
  /// does; so do clamps in the workload (task_spec::util_min and friends). Without either, a
  /// runnable RT task asks for the top frequency as schedutil does without uclamp: the same
  /// as a boost of 1024.
  std::uint32_t uclamp_rt_min_default = 1024;
  /// schedutil's I/O-wait boost (smp/iowait_boost.hpp) with performance domains: a fair task
  /// waking from an uninterruptible sleep (`event::uninterruptible`, the kernel's in_iowait)
  /// starts or doubles its CPU's boost, a floor under the CPU's utilisation that halves at
  /// each frequency evaluation without another. On by default, as in the kernel; false: off.
  bool iowait_boost = true;
};

/// Samples one run may keep for exact percentiles (wakeup latencies, slacks, frame gaps and
/// response times, 8 bytes each, so 256 MB): a file that wakes a task every few microseconds
/// for a long duration stops here with a workload error rather than exhausting memory.
inline constexpr std::uint64_t max_samples_per_run = std::uint64_t{1} << 25;

/// Trace text one run may write (`--trace`), bytes: the trace is kept in memory until the run
/// succeeds (never a half-written file), so a long traced run stops here with a workload error.
inline constexpr std::size_t max_trace_bytes_per_run = std::size_t{1} << 30;

/// How to run a workload.
struct run_config {
  int cpus = 0;                   ///< 0 = the workload's default
  int hz = 0;                     ///< 0 = the workload's default
  std::int64_t duration_ns = 0;   ///< 0 = the workload's default
  std::uint64_t seed = 1;         ///< PRNG seed (jitter only)
  machine_model machine{};        ///< cost model
  trace_writer* trace = nullptr;  ///< ftrace output, or none
  bool host_timing = true;        ///< measure events_per_sec (false: report 0)
  bool keep_samples = false;      ///< copy raw latency samples and frame times into the result (plots)
  std::int64_t warmup_ns = 0;     ///< statistics cover [warmup, end) (see the file notes); 0 = all
  std::uint64_t max_samples = max_samples_per_run;  ///< samples kept before the run is refused
  std::size_t max_trace_bytes = max_trace_bytes_per_run;  ///< trace text before the run is refused
  /// Audit global priority order at the end of every instant (all events at one time handled):
  /// count in totals.priority_inversions the instants at which a runnable RT task or reservation
  /// waits while a CPU it may run on idles or runs a task it outranks (a fair task, a lower RT
  /// priority, a later deadline). Global fixed priority and global EDF allow none. For tests.
  bool audit_priority = false;
};

/// Thrown for a workload the engine cannot run (unknown names, bad durations): a bad input file.
/// `positioned` when the message starts with the task's `origin` (FILE:LINE:COLUMN).
struct workload_error : std::runtime_error {
  using std::runtime_error::runtime_error;
  /// The message `what`; `at_origin`: it starts with the task's origin (sets `positioned`).
  workload_error(const std::string& what, bool at_origin) : std::runtime_error(what), positioned(at_origin) {}
  bool positioned = false;  ///< the message starts with FILE:LINE:COLUMN (no location to add)
};

/// A workload error that is the policy's, not the file's: the policy under test refused a task's
/// scheduling parameters (nicksched has no SCHED_BATCH, for one). Another policy may run the
/// same file, so `compare` over its default rows leaves this policy's row out with a note.
struct policy_refusal : workload_error {
  using workload_error::workload_error;
};

/// Most tasks one run creates (instances and forks together): a fork loop stops here with a
/// workload error rather than exhausting memory (each task costs about 1.5 KB).
inline constexpr std::size_t max_tasks_per_run = 200000;
/// Program events one run may execute: 10^8 plus 10^7 x cpus x (whole simulated seconds + 1)
/// (the engine's host-time bound; see `step`).
inline std::uint64_t program_event_budget(int cpus, std::int64_t duration_ns) {
  const std::uint64_t cpu_seconds = static_cast<std::uint64_t>(cpus) * (static_cast<std::uint64_t>(duration_ns) / 1000000000u + 1u);
  return 100000000u + 10000000u * cpu_seconds;
}

/// The cold part of a simulated task: names, sample vectors and per-kind statistics, read by
/// traces, frames, jobs and the final report but not by the per-switch hot path. Kept out of
/// the task object so the run queues' entities and the hot state stay dense in memory.
struct task_cold {
  bool named = false;                     ///< `name` and `comm` are built (on first use)
  int cgroup = -1;                        ///< its task group (index in workload::cgroups), -1 = the root
  int instance = -1;                      ///< instance number in the name, -1 = the spec's name as is
  std::string name;                       ///< instance name
  std::string comm;                       ///< trace comm (no spaces or '=', <= 15 bytes, whole UTF-8 characters)
  std::vector<int> unique_timers;         ///< its own timers (names starting with "unique")
  std::vector<std::int64_t> lat;          ///< wakeup-to-run samples, ns
  std::vector<std::int64_t> frame_gaps;   ///< time between frames, ns
  std::vector<std::int64_t> responses;    ///< timer expiry to the frame that followed it, ns
  std::vector<std::int64_t> slacks;       ///< at each timer event: next expiry - now, ns (< 0: overrun)
  /// @var std::int64_t start_ns
  /// @brief When it was created, ns (after a warmup: the window's start if it was alive then).
  /// @var std::int64_t exit_ns
  /// @brief When it exited, ns (-1: still alive).
  std::int64_t start_ns = 0, exit_ns = -1;
  /// @var std::uint64_t dl_met
  /// @brief Frames with a deadline (event::frame's duration) done within it of their release.
  /// @var std::uint64_t dl_missed
  /// @brief Frames with a deadline done later than it after their release.
  /// @var std::uint64_t frames
  /// @brief Frame events it executed.
  std::uint64_t dl_met = 0, dl_missed = 0, frames = 0;
  std::uint64_t sigxcpu = 0;              ///< SIGXCPUs for runtime overruns (SCHED_FLAG_DL_OVERRUN)
  // priority inheritance (workload::priority_inheritance)
  sched_params own_params{};              ///< what its program asked for (`params` is what its classes run: boosted while a PI mutex lends it a priority)
  int pi_level = 0;                       ///< the RT priority a PI mutex it holds lends it (0: none)
  int pi_donor = -1;                      ///< the top deadline waiter of the PI mutexes it holds (task id; -1: none)
  int pi_dl_applied = -1;                 ///< the donor whose reservation its deadline class was given (`boost`; -1: none)
  int blocked_on = -1;                    ///< the mutex it waits for (-1: none)
  std::uint64_t domain = 0;               ///< its root domain's CPUs (machine_model::partitions; its cpuset's)
  bool pi_pending = false;                ///< its boost changed while its class still held it asleep: applied at its wakeup
  bool reports_overrun = false;           ///< it ran as SCHED_DEADLINE with SCHED_FLAG_DL_OVERRUN at some point
  /// @var std::int64_t frame_release
  /// @brief When the current frame was released (its timer's expiry, else the previous frame), ns.
  /// @var std::int64_t last_frame
  /// @brief When its last frame event ran, ns (-1: none yet).
  std::int64_t frame_release = 0, last_frame = -1;
  bool timer_released = false;            ///< a timer released the current frame (response counts)
  bool has_jobs = false;                  ///< it ran interbench job steps
  interbench_job job;                     ///< their state and statistics (dl_met/dl_missed are frames')
  // pipe state
  std::int64_t pipe_pending = -1;  ///< items of a blocked pipe_write still to write (-1: none)
  std::int64_t last_read = 0;      ///< items its last pipe_read took (pipe_write count 0 forwards them)
  // load tracking (only where engine::pelt_on_: see its comment)
  pelt_avg pelt{};                 ///< its own PELT signal (fair class only)
  std::uint32_t util_est = 0;      ///< its utilisation estimate with the unchanged mark (smp/util_est.hpp)
  bool pelt_born = false;          ///< the signal was initialised (pelt_init_new_entity)
  int pelt_slot = -1;              ///< group queue it is attached to (cpu x ngroups + group), -1: none
  std::uint32_t pelt_weight = 0;   ///< its load weight when attached
  // work rates below 1024 (engine::work_speed: capacity, frequency, SMT share)
  std::uint32_t work_carry = 0;    ///< work done at a work rate < 1024 not yet a whole ns, in 1/1024 ns
  // moves waiting for the task's next switch
  int push_to = -1;                ///< CPU an active balance moves it to at its next switch (-1: none)
  int affinity_to = -1;            ///< CPU a change of affinity moves it to at its next switch (-1: none)
  // utilisation clamps (engine::uclamp_on_)
  std::int32_t uclamp_req[2] = {-1, -1};  ///< requested min, max (-1: the default)
  uclamp_task uclamp{};            ///< its contribution to its CPU's clamp buckets while runnable there
  // fair wakeup placement (engine::select_wake_cpu, smp/wake_affine.hpp)
  int recent_used_cpu = -1;        ///< p->recent_used_cpu: its previous CPU at its last fair wakeup (at a fork, the parent's CPU; -1: none)
  wakee_flips flips{};             ///< as a waker: wake_wide's measure (smp/wake_affine.hpp)
};

/// The engine-side hot state of a simulated task (what switches, ticks and accounting touch);
/// the sim task type inherits it and every entity. Everything else is in `task_cold`.
struct task_core {
  int sched_class = 0;  ///< class index in the stack (read by `member_sched_class`)

  /// Life-cycle state: not yet created, queued, on a CPU, asleep, exited.
  enum class st : std::uint8_t { unborn, runnable, running, blocked, dead };
  /// On-CPU action: execute the next program events (instantaneous), burn `remaining` CPU
  /// work (a run event), spin until `runtime_end` (a runtime event).
  enum class act : std::uint8_t { step, work, runtime };

  st state = st::unborn;                  ///< where it is in its life
  act action = act::step;                 ///< what the current on-CPU action is
  bool lat_pending = false;               ///< woke, latency sample not yet taken
  bool job_burning = false;               ///< an interbench job is running
  bool in_io = false;                     ///< blocked in an uninterruptible sleep (traces: state D)
  bool nopreempt = false;                 ///< in a run that cannot be preempted (event::nopreempt)
  int cpu = -1;                           ///< run queue it is on (or last was on)
  int cache_cpu = -1;                     ///< CPU whose cache holds its working set
  std::uint32_t id = 0;                   ///< creation order
  std::uint32_t qidx = 0;                 ///< index in its CPU's queued list
  std::int64_t remaining = 0;             ///< work left for act::work, ns
  std::int64_t refill_debt = 0;           ///< cache refill work owed to the next run, ns
  std::int64_t refill = 0;                ///< full refill cost of this task, ns
  std::uint64_t cache_mark = 0;           ///< that CPU's busy counter when it left
  /// @var std::int64_t cpu_ns
  /// @brief CPU time it ran, ns.
  /// @var std::int64_t wait_ns
  /// @brief Time it waited runnable, not running, ns (completed waits).
  /// @var std::int64_t max_wait_ns
  /// @brief Its longest completed runnable wait, ns.
  /// @var std::int64_t wait_since
  /// @brief When its current runnable wait began, ns.
  std::int64_t cpu_ns = 0, wait_ns = 0, max_wait_ns = 0, wait_since = 0;
  std::int64_t last_ran = -1;             ///< when it last left a CPU (balance: coldest first)
  std::int64_t woke_at = 0;               ///< when it last woke (latency sample start), ns
  std::int64_t runtime_end = 0;           ///< wall end for act::runtime
  /// @var std::uint64_t switches
  /// @brief Times it was switched out of a CPU.
  /// @var std::uint64_t migrations
  /// @brief Times it moved to another CPU's run queue.
  std::uint64_t switches = 0, migrations = 0;
  std::uint64_t affinity = ~0ull;         ///< allowed CPUs bit set
  // program counter
  int spec = 0;                           ///< index of its task_spec
  int waiting_mutex = -1;                 ///< mutex to re-acquire when it runs after a condition wait (-1: none)
  int lock_retry = -1;                    ///< mutex it tries again when it next runs: woken by an unlock, not handed the mutex (plain or PI; -1: none)
  int sem_retry = -1;                     ///< semaphore whose unit it tries to take when it next runs: woken by a post (-1: none)
  /// @var std::uint32_t ph
  /// @brief Index of its current phase in its task_spec.
  /// @var std::uint32_t ev
  /// @brief Index of its next event in that phase.
  std::uint32_t ph = 0, ev = 0;
  std::int64_t task_loops_left = -1;      ///< passes over the phases left (-1 forever)
  std::int64_t phase_loops_left = 0;      ///< repetitions of the current phase left
  sched_params params{};                  ///< current parameters
  int pid = 0;                            ///< trace pid (1000 + id)
  task_cold* cold = nullptr;              ///< the cold part (owned by the engine)
};

/// The sim task: the engine state plus every policy entity `Entities...` (base classes, the
/// schedcore convention).
template <class... Entities>
struct sim_task : Entities..., task_core {};

/// Every CPU of a machine of `ncpu` CPUs (1..64) as an affinity mask, bit i = CPU i.
inline std::uint64_t all_cpus_of(int ncpu) { return ncpu >= 64 ? ~0ull : ((1ull << ncpu) - 1); }
/// What is wrong with `partitions` (machine_model::partitions) on a machine of `ncpu` CPUs, or
/// "" when nothing is: each must name CPUs, only the machine's, none named twice, and the
/// default root domain must keep a CPU (the root cpuset cannot hand every CPU away).
inline std::string partition_problem(const std::vector<std::uint64_t>& partitions, int ncpu) {
  const std::uint64_t all = all_cpus_of(ncpu);
  std::uint64_t used = 0;
  for (std::size_t i = 0; i < partitions.size(); ++i) {
    const std::uint64_t p = partitions[i];
    const std::string which = "partition " + std::to_string(i + 1);
    if (p == 0) return which + " names no CPU";
    if ((p & ~all) != 0)
      return which + " names CPU " + std::to_string(__builtin_ctzll(p & ~all)) + ", but the machine has " +
             std::to_string(ncpu) + " CPU(s) (0.." + std::to_string(ncpu - 1) + ")";
    if ((p & used) != 0)
      return which + " names CPU " + std::to_string(__builtin_ctzll(p & used)) + ", which an earlier partition has (partitions are exclusive)";
    used |= p;
  }
  if (!partitions.empty() && used == all)
    return "the partitions take every CPU: the default root domain (the root cpuset) must keep at least one";
  return std::string();
}
/// The root domain of CPU `ci` under `partitions`: the partition that has it, else the CPUs no
/// partition names (the default domain). Bit i = CPU i. O(partitions).
inline std::uint64_t root_domain_of(const std::vector<std::uint64_t>& partitions, int ncpu, int ci) {
  std::uint64_t rest = all_cpus_of(ncpu);
  for (const std::uint64_t p : partitions) {
    if ((p >> ci) & 1u) return p;
    rest &= ~p;
  }
  return rest;
}

/// @cond INTERNAL
namespace detail_sim {
/// splitmix64: tiny, fast, identical on every platform.
struct prng {
  std::uint64_t s;
  std::uint64_t next() noexcept {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [-j, j] (j >= 0); modulo bias is irrelevant at these ranges.
  std::int64_t jitter(std::int64_t j) noexcept {
    if (j <= 0) return 0;
    const std::uint64_t span = static_cast<std::uint64_t>(j) * 2 + 1;
    return static_cast<std::int64_t>(next() % span) - j;
  }
};

struct qevent {
  std::int64_t t;
  std::uint64_t seq;
  std::uint32_t kind;
  std::uint32_t a;
  std::uint64_t gen;
};
/// (time, sequence) order: a strict total order, since sequence numbers are unique.
inline bool before(const qevent& x, const qevent& y) noexcept { return x.t != y.t ? x.t < y.t : x.seq < y.seq; }

/// A binary min-heap of events by `before` (hole-based sifting, no comparator objects).
class event_heap {
 public:
  bool empty() const noexcept { return v_.empty(); }
  std::size_t size() const noexcept { return v_.size(); }
  const qevent& top() const noexcept { return v_.front(); }
  void push(const qevent& e) {
    std::size_t i = v_.size();
    v_.push_back(e);
    while (i > 0) {
      const std::size_t parent = (i - 1) / 2;
      if (!before(e, v_[parent])) break;
      v_[i] = v_[parent];
      i = parent;
    }
    v_[i] = e;
  }
  void pop() noexcept {
    const qevent last = v_.back();
    v_.pop_back();
    const std::size_t n = v_.size();
    if (n == 0) return;
    std::size_t i = 0;
    for (;;) {
      std::size_t c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && before(v_[c + 1], v_[c])) ++c;
      if (!before(v_[c], last)) break;
      v_[i] = v_[c];
      i = c;
    }
    v_[i] = last;
  }

 private:
  std::vector<qevent> v_;
};

/// Host CPU time of the calling thread, seconds (the simulator's speed is measured on the one
/// core that runs it, undiluted by other processes or by a parallel sweep's other threads).
inline double thread_cpu_seconds() noexcept {
#if defined(CLOCK_THREAD_CPUTIME_ID)
  timespec ts{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
#endif
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Does the fair class `F` schedule task groups (policy/group.hpp's `group_policy`)?
template <class F, class = void>
struct grouped : std::false_type {};
template <class F>
struct grouped<F, std::void_t<typename F::task_group>> : std::true_type {};

/// `F::task_group[]` for a grouped fair class, a placeholder otherwise.
template <class F, class = void>
struct group_array {
  using type = char[];
};
template <class F>
struct group_array<F, std::void_t<typename F::task_group>> {
  using type = typename F::task_group[];
};
template <class F>
using group_array_t = typename group_array<F>::type;

/// cgroup v2 cpu.weight to the kernel's shares: weight x 1024 / 100, rounded to nearest
/// (sched_weight_from_cgroup), within [MIN_SHARES 2, MAX_SHARES 2^18].
inline std::uint32_t cgroup_shares(std::int64_t weight) noexcept {
  const std::int64_t shares = (weight * 1024 + 50) / 100;
  return static_cast<std::uint32_t>(std::min<std::int64_t>(std::max<std::int64_t>(shares, 2), 1 << 18));
}

/// Does `B` do deadline admission in a root domain (5-argument setup and task_dead)?
template <class B, class = void>
struct root_admission : std::false_type {};
template <class B>
struct root_admission<B, std::void_t<decltype(B::task_dead(std::declval<typename B::stack_type&>(),
                                                           std::declval<typename B::stack_type&>(),
                                                           std::declval<typename B::task_type&>(), sched_time{}))>>
    : std::true_type {};

inline const char* kind_name(sched_kind k) {
  switch (k) {
    case sched_kind::normal: return "normal";
    case sched_kind::fifo: return "fifo";
    case sched_kind::rr: return "rr";
    case sched_kind::batch: return "batch";
    case sched_kind::idle: return "idle";
    case sched_kind::deadline: return "deadline";
  }
  return "normal";
}
/// True when binding B's stack has a deadline class at index 0 (`B::has_deadline_class`).
template <class B, class = void>
struct binding_has_dl : std::false_type {};
template <class B>
struct binding_has_dl<B, std::enable_if_t<B::has_deadline_class>> : std::true_type {};
/// True when real-time class R keeps a per-CPU runtime that other CPUs can lend to
/// (rt_policy's `set_runtime_share` and `lend_runtime`: RT_RUNTIME_SHARE).
template <class R, class = void>
struct shares_rt_runtime : std::false_type {};
template <class R>
struct shares_rt_runtime<R, std::void_t<decltype(std::declval<R&>().set_runtime_share(nullptr, nullptr)),
                                        decltype(std::declval<R&>().lend_runtime(std::declval<R&>(), 1u, sched_time{}))>>
    : std::true_type {};
/// True when real-time class R counts other classes' run time against its budget
/// (rt_policy's `charge_shared`).
template <class R, class = void>
struct shares_rt_bandwidth : std::false_type {};
template <class R>
struct shares_rt_bandwidth<R, std::void_t<decltype(std::declval<R&>().charge_shared(duration_ns{}, sched_time{}))>>
    : std::true_type {};
/// True when deadline class D reports its run time to a sink (edf_policy's `set_run_time_sink`).
template <class D, class = void>
struct reports_run_time : std::false_type {};
template <class D>
struct reports_run_time<D, std::void_t<decltype(std::declval<D&>().set_run_time_sink(nullptr, nullptr))>>
    : std::true_type {};
/// True when stack S runs a fair server (policy/fair_server_stack.hpp): `served()` tells whether
/// its running task was picked through it, at deadline priority.
template <class S, class = void>
struct has_fair_server : std::false_type {};
template <class S>
struct has_fair_server<S, std::void_t<decltype(std::declval<const S&>().served())>> : std::true_type {};
/// True when deadline class D is capacity-aware as edf_policy is: it scales its charges
/// (`set_capacity`), counts an active utilisation (`active_util`), admits against a root
/// capacity (`set_root_capacity`) and tells whether a task fits a CPU (`fits_capacity`).
template <class D, class = void>
struct dl_scales : std::false_type {};
template <class D>
struct dl_scales<D, std::void_t<decltype(std::declval<D&>().set_capacity(1u, 1u)),
                                decltype(std::declval<const D&>().active_util()),
                                decltype(std::declval<D&>().set_root_capacity(std::uint64_t{})),
                                decltype(D::fits_capacity(std::declval<const typename D::task_type&>(), 1u)),
                                decltype(D::deadline_of(std::declval<const typename D::task_type&>())),
                                decltype(D::throttled_of(std::declval<const typename D::task_type&>()))>>
    : std::true_type {};
/// True when deadline class D marks runtime overruns as edf_policy does (SCHED_FLAG_DL_OVERRUN:
/// `take_overrun`).
template <class D, class = void>
struct dl_overruns : std::false_type {};
template <class D>
struct dl_overruns<D, std::void_t<decltype(D::take_overrun(std::declval<typename D::task_type&>()))>> : std::true_type {};
/// True when deadline class D lends reservations to PI mutex owners as edf_policy does
/// (`boost`, `deboost`: deadline inheritance).
template <class D, class = void>
struct dl_inherits : std::false_type {};
template <class D>
struct dl_inherits<D, std::void_t<decltype(std::declval<D&>().boost(std::declval<typename D::task_type&>(),
                                                                    std::declval<const typename D::task_type&>())),
                                  decltype(std::declval<D&>().deboost(std::declval<typename D::task_type&>()))>>
    : std::true_type {};
/// True when binding B's stack has a deadline class that lends reservations (dl_inherits).
template <class B, class = void>
struct binding_dl_inherits : std::false_type {};
template <class B>
struct binding_dl_inherits<B, std::enable_if_t<B::has_deadline_class>>
    : dl_inherits<typename B::stack_type::template class_type<0>> {};
/// True when policy P has `trace_prio(const Task&)` (its dynamic priority for traces).
template <class P, class T, class = void>
struct has_trace_prio : std::false_type {};
template <class P, class T>
struct has_trace_prio<P, T, std::void_t<decltype(std::declval<const P&>().trace_prio(std::declval<const T&>()))>>
    : std::true_type {};
}  // namespace detail_sim
/// @endcond

/// The engine. `Binding` provides `task_type` (a `sim_task<...>`), `stack_type` (a class stack
/// of that task type) and either `static errc setup(stack_type&, task_type&, const sched_params&, sched_time)`
/// (sets `sched_class` and loads the class's entity) or, for a stack whose deadline class does
/// global admission control, `static errc setup(stack_type& local, stack_type& root, task_type&,
/// const sched_params&, sched_time)` and `static void task_dead(stack_type& local, stack_type&
/// root, task_type&, sched_time)`, where `root` is the stack of the lowest CPU of the task's root domain (see
/// registry.hpp's `stack_binding`). The constructor's `configure(stack, cpu)` applies the run's
/// knobs to one CPU's stack.
template <class Binding>
class engine {
 public:
  using task_type = typename Binding::task_type;    ///< the simulated task (a sim_task)
  using stack_type = typename Binding::stack_type;  ///< one CPU's class stack
  /// The policy under test (the least important class of the stack).
  using fair_class = typename stack_type::template class_type<stack_type::nr_classes - 1>;

  /// Prepares a run of `w` with `cfg`; `configure(stack, cpu)` is called once per CPU.
  template <class Configure>
  engine(const workload& w, const run_config& cfg, Configure&& configure) : w_(w), cfg_(cfg) {
    ncpu_ = cfg.cpus > 0 ? cfg.cpus : w.cpus;
    hz_ = cfg.hz > 0 ? cfg.hz : w.hz;
    duration_ = cfg.duration_ns > 0 ? cfg.duration_ns : w.duration;
    if (ncpu_ < 1 || ncpu_ > 64) throw workload_error("cpus must be in 1..64");
    if (hz_ < 1 || hz_ > 100000) throw workload_error("hz must be in 1..100000");
    if (duration_ <= 0) throw workload_error("duration must be > 0");
    if (cfg.warmup_ns < 0 || cfg.warmup_ns >= duration_) throw workload_error("warm-up must be >= 0 and shorter than the duration");
    cap_.assign(static_cast<std::size_t>(ncpu_), cpu_capacity_max);
    distribute_prev_.assign(static_cast<std::size_t>(ncpu_), 0);
    if (!cfg.machine.capacity.empty()) {
      if (cfg.machine.capacity.size() != static_cast<std::size_t>(ncpu_))
        throw workload_error("the machine's capacity list has " + std::to_string(cfg.machine.capacity.size()) +
                             " entries for " + std::to_string(ncpu_) + " CPUs");
      for (const std::uint32_t c : cfg.machine.capacity)
        if (c < 1 || c > cpu_capacity_max) throw workload_error("a CPU capacity must be in 1..1024, not " + std::to_string(c));
      cap_ = cfg.machine.capacity;
    }
    if (cfg.machine.smt_threads < 1 || cfg.machine.smt_threads > 8)
      throw workload_error("SMT threads per core must be in 1..8, not " + std::to_string(cfg.machine.smt_threads));
    if (ncpu_ % cfg.machine.smt_threads != 0)
      throw workload_error(std::to_string(ncpu_) + " CPUs are not whole cores of " + std::to_string(cfg.machine.smt_threads) +
                           " SMT threads");
    if (cfg.machine.smt_gain_pct < 0 || cfg.machine.smt_gain_pct > 100)
      throw workload_error("the SMT gain must be in 0..100 %, not " + std::to_string(cfg.machine.smt_gain_pct));
    smt_ = cfg.machine.smt_threads;
    for (std::uint32_t b = 0; b <= 8; ++b) {  // each busy thread's share of its rate, out of 1024, with b busy
      const std::uint32_t core = cpu_capacity_max * (100 + static_cast<std::uint32_t>(cfg.machine.smt_gain_pct)) / 100;
      smt_share_[b] = b <= 1 ? cpu_capacity_max : std::min<std::uint32_t>(cpu_capacity_max, core / b);
    }
    if (const std::string why = partition_problem(cfg.machine.partitions, ncpu_); !why.empty()) throw workload_error(why);
    domain_of_.resize(static_cast<std::size_t>(ncpu_));
    for (int c = 0; c < ncpu_; ++c) domain_of_[static_cast<std::size_t>(c)] = root_domain_of(cfg.machine.partitions, ncpu_, c);
    default_domain_ = all_cpus();
    for (const std::uint64_t p : cfg.machine.partitions) default_domain_ &= ~p;
    setup_perf_domains();
    max_cap_ = *std::max_element(cap_.begin(), cap_.end());
    asym_ = *std::min_element(cap_.begin(), cap_.end()) != max_cap_;
    eas_ = dvfs_on_ && asym_ && cfg.machine.energy_aware;
    util_est_ = cfg.machine.util_est < 0 ? dvfs_on_ : cfg.machine.util_est != 0;
    tick_ns_ = 1000000000 / hz_;
    tick_phase_ = cfg.machine.tick_phase_ns % tick_ns_;
    balance_ticks_ = std::max<std::int64_t>(1, cfg.machine.balance_ns / tick_ns_);
    rng_.s = cfg.seed;
    cpus_ = std::make_unique<cpu_state[]>(static_cast<std::size_t>(ncpu_));  // policies are not movable
    for (int c = 0; c < ncpu_; ++c) {
      configure(cpus_[static_cast<std::size_t>(c)].rq, c);
      cpus_[static_cast<std::size_t>(c)].balance_left = balance_ticks_;
      if (dvfs_on_ || asym_) dl_set_capacity(c);  // reservations in the biggest CPU's work
    }
    if (asym_) dl_set_root_capacity();
    if (cfg.machine.rt_runtime_share && ncpu_ > 1) share_rt_runtime();
    share_rt_bandwidth_with_deadline();
    compile();
  }
  engine(const engine&) = delete;  // the RT classes' borrowing hook points to this engine
  engine& operator=(const engine&) = delete;

  /// Runs to the end and returns the results.
  run_result run() {
    const double host0 = detail_sim::thread_cpu_seconds();
    // Start every instance: at its delay (0 = now, in spec order).
    for (std::size_t s = 0; s < w_.tasks.size(); ++s) {
      const task_spec& ts = w_.tasks[s];
      for (int i = 0; i < ts.instances; ++i) {
        task_type* t = create(static_cast<int>(s), i);
        push(ts.delay, ev_start, t->id, 0);
      }
    }
    if (cfg_.warmup_ns > 0) push(cfg_.warmup_ns, ev_warmup, 0, 0);
    push(duration_, ev_end, 0, 0);
    if (cfg_.trace != nullptr)
      for (const domain_state& dm : doms_)
        for (int k = dm.first; k < dm.first + dm.count; ++k) cfg_.trace->cpu_frequency(0, k, who(k), dm.states[dm.cur].frequency_khz);
    program_event_budget_ = program_event_budget(ncpu_, duration_);
    // Two queues, one order: ticks (at most one per CPU) live in their own small heap, every
    // other event in the main heap; the next event is the earlier of the two tops by (time,
    // sequence), exactly as if they shared one heap.
    for (;;) {
      if (done_) break;
      const bool has_q = !q_.empty(), has_t = !tq_.empty();
      if (!has_q && !has_t) break;
      detail_sim::qevent e;
      if (has_t && (!has_q || detail_sim::before(tq_.top(), q_.top()))) {
        e = tq_.top();
        tq_.pop();
      } else {
        e = q_.top();
        q_.pop();
      }
      now_ = e.t;
      ++events_;
      handle(e);
      flush_resched();
      if (affinity_changes_) SCHEDCORE_INVARIANT(affinity_respected());
      if (SCHEDCORE_UNLIKELY(any_cpu_max_) && ncpu_ > 1) follow_slack_timers();
      if (dvfs_dirty_ != 0) dvfs_update();
      if (cfg_.audit_priority && next_event_time() != now_) audit_priority();
      if (cfg_.trace != nullptr && SCHEDCORE_UNLIKELY(cfg_.trace->size() > cfg_.max_trace_bytes))
        throw workload_error("the trace exceeds " + std::to_string(cfg_.max_trace_bytes) + " bytes by simulated time " +
                             std::to_string(now_ / 1000000) + " ms: trace a shorter run (--duration)");
    }
    end_ = now_;
    if (end_ > duration_) end_ = duration_;
    for (int c = 0; c < ncpu_; ++c) account(c, end_);
    const double host_s = detail_sim::thread_cpu_seconds() - host0;
    return results(host_s);
  }

  /// The simulated tasks in creation order (after `run`, for tests).
  const std::vector<task_type*>& tasks() const { return tasks_; }
  /// The instance name of `t` (`name-i`, or the spec's name).
  const std::string& task_name(const task_type& t) const { return name_of(t); }

 private:
  enum : std::uint32_t { ev_tick, ev_complete, ev_wake, ev_start, ev_end, ev_ctimer, ev_warmup };

  /// A performance domain's run-time state (machine_model::perf_domains).
  struct domain_state {
    std::vector<em_perf_state> states;     ///< the table `pd` points into (never resized once bound)
    em_perf_domain pd{};
    int first = 0, count = 1;              ///< CPUs first .. first + count - 1
    std::uint32_t idle_uw = 0;             ///< power of one idle CPU, µW
    std::uint32_t cur = 0;                 ///< the current state
    bool changed = false;                  ///< the frequency changed at least once (the rate limit applies)
    std::int64_t last_change = 0;          ///< when it last changed
    std::int64_t state_since = 0;          ///< start of the current state's residency (window start at the latest)
    std::vector<std::int64_t> residency;   ///< ns at each state within the window
    std::uint64_t changes = 0;             ///< changes within the window
  };

  struct cpu_state {
    stack_type rq{};
    task_type* curr = nullptr;
    std::int64_t switch_at = 0;     ///< when curr was switched in
    std::int64_t run_start = 0;     ///< when curr's work starts (after switch overhead)
    std::int64_t acct = 0;          ///< accounted up to here
    std::uint64_t busy = 0;         ///< task CPU ns run here (cache model clock)
    std::uint64_t gen = 0;          ///< completion generation
    std::int64_t ctimer_at = -1;    ///< armed class timer (policy `next_timer`), -1 none
    std::uint64_t ctimer_gen = 0;   ///< its generation
    bool tick_armed = false;
    std::int64_t next_tick = 0;
    bool completion_pushed = false;
    std::int64_t completion = 0;
    std::uint64_t ticks = 0;
    std::int64_t balance_left = 0;  ///< ticks until the next periodic balance
    int balance_failed = 0;         ///< consecutive periodic balances that left a one-task imbalance
    bool need_resched = false;
    bool yielding = false;          ///< the next switch is curr's sched_yield: traced prev_state R (not preempted)
    bool resched_held = false;      ///< a reschedule asked while curr ran non-preemptible work
    std::int64_t idle_ns = 0, overhead_ns = 0;
    std::uint64_t switches = 0;
    std::vector<task_type*> queued;  ///< every task enqueued here (running one included)
    uclamp_rq<> uclamp;              ///< the clamps of its runnable fair and RT tasks (engine::uclamp_on_)
    iowait_boost iowait;             ///< schedutil's I/O-wait boost (machine_model::iowait_boost)
    pelt_avg rt_avg{}, dl_avg{};     ///< the RT and deadline classes' PELT util here (rq->avg_rt, avg_dl)
  };

  // Compiled program: names resolved to ids once.
  struct cevent {
    event_kind kind;
    std::int64_t duration, jitter, period, pushback;
    bool absolute;
    std::int64_t anchor;  ///< timer: grid start, ns (-1: the first use)
    int res = -1;       ///< timer/mutex/cond/suspend/barrier/spec id
    int unique = -1;    ///< unique timer slot
    int res2 = -1;      ///< mutex of wait/sync
    sched_params params;
    std::int64_t count = 0, per_item = 0;  ///< pipe_write items / pipe_read messages; pipe_read ns per item
    bool uninterruptible = false;          ///< sleep: TASK_UNINTERRUPTIBLE
    bool nopreempt = false;                ///< run: not preemptible
    std::int32_t util_min = -2, util_max = -2;  ///< set_uclamp: the new requests (-1 default, -2 unchanged)
    std::uint64_t affinity = 0;                 ///< set_affinity: the allowed CPUs, bit i = CPU i (never 0)
  };
  struct cphase {
    std::int64_t loop;
    std::vector<cevent> events;
  };
  struct cspec {
    std::vector<cphase> phases;
    int cgroup = -1;  ///< index in workload::cgroups, -1 = the root
    int unique_timers = 0;
    int next_instance = 0;
  };
  struct timer_res {
    bool init = false;
    std::int64_t next = 0;
  };
  struct mutex_res {
    task_type* owner = nullptr;
    std::deque<task_type*> waiters;
  };
  struct cond_res {
    std::deque<task_type*> waiters;
  };
  /// A condition variable as glibc (2.25+) builds one: two groups of waiters. A new waiter
  /// joins G2; a signal goes to G1, the older waiters, and G2 becomes G1 only when G1 has no
  /// waiter left to signal (__condvar_quiesce_and_switch_g1). G1's waiters all sleep on one
  /// futex word, so the one a signal wakes is the first of that futex's plist: by futex_prio,
  /// then arrival. A real-time waiter that arrives after a signal therefore waits until the
  /// older group is drained, whatever its priority. A broadcast wakes G1, then G2, each in
  /// futex order. With waiters of one futex_prio, all of this is arrival order.
  struct condvar_res {
    std::deque<task_type*> g1, g2;  ///< each in arrival order
  };
  struct barrier_res {
    int parties = 0;
    std::vector<task_type*> arrived;
  };
  /// A FIFO device: one request at a time, in submission order, so a request submitted at t
  /// with d ns of work completes at max(t, busy_until) + d and no queue needs storing.
  struct device_res {
    std::int64_t busy_until = 0;  ///< when everything submitted so far is done, ns
    std::int64_t work_ns = 0;     ///< device work submitted, ns
    std::uint64_t requests = 0;   ///< submissions
    std::int64_t busy_before = 0; ///< busy time before the statistics window, ns
  };
  struct pipe_res {
    std::string name;
    std::int64_t capacity = default_pipe_capacity;  ///< most items held
    std::int64_t items = 0;                         ///< items held now (sum of msgs)
    std::deque<std::int64_t> msgs;                  ///< held messages, oldest first, items each
    std::vector<task_type*> readers, writers;       ///< blocked on empty / on full
    std::uint64_t writes = 0, reads = 0;            ///< messages written, reads that took something
    std::uint64_t items_moved = 0;                  ///< items taken by reads
    std::uint64_t reader_blocks = 0, writer_blocks = 0;  ///< times a reader / writer blocked
    std::int64_t max_items = 0;                     ///< fullest it got, items
    bool closed = false;                            ///< pipe_close ran: empty means EOF
  };
  /// A POSIX counting semaphore, initialised to 0 (rt-app's sem_post / sem_wait), as glibc's
  /// (nptl/sem_post.c, sem_waitcommon.c): a post adds a unit and, when a waiter sleeps, wakes
  /// one; the woken waiter takes a unit when it runs, if one is left then, else sleeps again.
  /// A sem_wait that finds a unit takes it at once, so a running task can take the unit a post
  /// meant for a sleeper (barging). The sleepers are in futex order (futex_prio), because
  /// FUTEX_WAKE wakes the first of the futex's plist: deadline waiters, then RT ones by
  /// priority, then the rest in arrival order. Invariant: while a waiter sleeps, the units are
  /// no more than the woken waiters that have not run yet (a waiter sleeps only on 0 units,
  /// and every later post wakes one).
  struct sem_res {
    std::string name;
    std::int64_t count = 0;                 ///< units posted and not taken yet, 0..sem_value_max
    std::deque<task_type*> waiters;         ///< asleep in sem_wait, in futex order
    std::int64_t woken = 0;                 ///< waiters woken by a post that have not run yet (sem_retry)
    std::uint64_t posts = 0, waits = 0;     ///< sem_post / sem_wait events
    std::uint64_t blocks = 0;               ///< waits that found no unit and blocked
    std::uint64_t retries = 0;              ///< woken waiters that found the unit taken and slept again
    std::uint64_t overflows = 0;            ///< posts refused at sem_value_max (EOVERFLOW)
    std::int64_t max_count = 0;             ///< the most units it held
  };
  /// SEM_VALUE_MAX on Linux (INT_MAX): sem_post fails with EOVERFLOW rather than go beyond it.
  static constexpr std::int64_t sem_value_max = 2147483647;

  // ---------------------------------------------------------------- setup
  static int lookup(std::map<std::string, int>& m, const std::string& name) {
    auto it = m.find(name);
    if (it != m.end()) return it->second;
    const int id = static_cast<int>(m.size());
    m.emplace(name, id);
    return id;
  }

  void compile() {
    std::map<std::string, int> spec_ids, timers, mutexes, conds, susp, barriers, devices, pipes, sems;
    const std::map<std::string, int> cgroup_ids = validate_cgroups();
    for (std::size_t s = 0; s < w_.tasks.size(); ++s) {
      if (!spec_ids.emplace(w_.tasks[s].name, static_cast<int>(s)).second)
        throw workload_error("duplicate task name '" + w_.tasks[s].name + "'");
    }
    std::vector<std::map<std::string, int>> uniq(w_.tasks.size());
    std::map<int, std::vector<int>> barrier_specs;  // barrier -> specs mentioning it
    // rt-app's run times are its calibration CPU's (workload::calibration_cpu): a run's work,
    // counted at speed 1024, is what that CPU does in the time at its top speed.
    const int calib = w_.calibration_cpu;
    if (calib < -1 || calib >= ncpu_) {
      const std::string msg = "the calibration CPU " + std::to_string(calib) + " is not a CPU of the machine (0.." +
                              std::to_string(ncpu_ - 1) + ")";
      if (w_.calibration_origin.empty()) throw workload_error(msg);
      throw workload_error(w_.calibration_origin + ": " + msg, true);
    }
    const std::int64_t run_scale = calib >= 0 ? cap_[static_cast<std::size_t>(calib)] : cpu_capacity_max;
    auto calibrated = [run_scale](std::int64_t ns) {
      return (ns * run_scale + cpu_capacity_max / 2) / cpu_capacity_max;  // nearest ns
    };
    specs_.resize(w_.tasks.size());
    for (std::size_t s = 0; s < w_.tasks.size(); ++s) {
      const task_spec& ts = w_.tasks[s];
      const std::string where = "task '" + ts.name + "'";
      if (ts.instances < 0) throw workload_error(where + ": instances must be >= 0");
      if (ts.delay < 0) throw workload_error(where + ": delay must be >= 0");
      if (ts.loop == 0 || ts.loop < -1) throw workload_error(where + ": loop must be >= 1 or -1");
      if (validate(ts.params) != errc::ok) throw workload_error(where + ": invalid scheduling parameters");
      if (ts.phases.empty()) throw workload_error(where + ": empty program");
      if (ts.util_min < -1 || ts.util_min > 1024 || ts.util_max < -1 || ts.util_max > 1024)
        fail_at(ts, where + ": util_min and util_max must be in 0..1024 (or -1 for the default)");
      if (ts.util_min >= 0 && ts.util_max >= 0 && ts.util_min > ts.util_max)
        fail_at(ts, where + ": util_min " + std::to_string(ts.util_min) + " is above util_max " + std::to_string(ts.util_max));
      if (ts.util_min >= 0 || ts.util_max >= 0) uclamp_used_ = true;
      for (int c : ts.cpus)  // as rt-app and sched_setaffinity: no affinity to a CPU the machine lacks
        if (c < 0 || c >= ncpu_)
          fail_at(ts, where + ": \"cpus\" names CPU " + std::to_string(c) + ", but the machine has " + std::to_string(ncpu_) +
                          " CPU(s) (0.." + std::to_string(ncpu_ - 1) + ")");
      for (const phase& p : ts.phases) {
        if (p.loop == 0 || p.loop < -1) throw workload_error(where + ": phase loop must be >= 1 or -1");
        if (p.events.empty()) throw workload_error(where + ": phase '" + p.name + "' has no events");
        cphase cp{p.loop, {}};
        for (const event& e : p.events) {
          cevent c{e.kind, e.duration, e.jitter, e.period, e.pushback, e.absolute, e.anchor, -1, -1, -1, e.params, e.count,
                   e.per_item, e.uninterruptible, e.nopreempt, e.util_min, e.util_max};
          if (e.duration < 0 || e.jitter < 0 || e.period < 0 || e.pushback < 0 || e.per_item < 0)
            throw workload_error(where + ": negative time in an event");
          if (e.count < 0) throw workload_error(where + ": negative count in a pipe event");
          if (e.nopreempt && e.kind != event_kind::run) throw workload_error(where + ": only a run can be non-preemptible");
          if (e.kind == event_kind::run && run_scale != cpu_capacity_max) {
            if (std::max(e.duration, e.jitter) > std::numeric_limits<std::int64_t>::max() / cpu_capacity_max)
              throw workload_error(where + ": a run too long to scale by the calibration CPU's capacity");
            c.duration = calibrated(e.duration);
            c.jitter = calibrated(e.jitter);
          }
          switch (e.kind) {
            case event_kind::timer:
              if (e.period < 0) throw workload_error(where + ": timer period must be >= 0");
              if (e.anchor < -1) throw workload_error(where + ": timer anchor must be >= 0 (or -1: none)");
              if (e.ref.rfind("unique", 0) == 0) {
                c.unique = lookup(uniq[s], e.ref);
              } else {
                c.res = lookup(timers, e.ref);
              }
              break;
            case event_kind::lock:
            case event_kind::unlock: c.res = lookup(mutexes, e.ref); break;
            case event_kind::wait:
            case event_kind::sync:
              c.res = lookup(conds, e.ref);
              c.res2 = lookup(mutexes, e.mutex);
              break;
            case event_kind::signal:
            case event_kind::broadcast: c.res = lookup(conds, e.ref); break;
            case event_kind::suspend:
            case event_kind::resume: c.res = lookup(susp, e.ref); break;
            case event_kind::barrier:
              c.res = lookup(barriers, e.ref);
              barrier_specs[c.res].push_back(static_cast<int>(s));
              break;
            case event_kind::fork: {
              auto it = spec_ids.find(e.ref);
              if (it == spec_ids.end()) throw workload_error(where + ": fork of unknown task '" + e.ref + "'");
              c.res = it->second;
              break;
            }
            case event_kind::set_nice:
              if (!valid_nice(e.params.nice)) throw workload_error(where + ": nice out of range");
              break;
            case event_kind::set_policy:
              if (validate(e.params) != errc::ok) throw workload_error(where + ": invalid policy change");
              break;
            case event_kind::job:
              break;
            case event_kind::set_uclamp:
              if (e.util_min < -2 || e.util_min > 1024 || e.util_max < -2 || e.util_max > 1024)
                throw workload_error(where + ": a clamp change must give 0..1024, -1 (default) or -2 (unchanged)");
              if (e.util_min >= 0 && e.util_max >= 0 && e.util_min > e.util_max)
                throw workload_error(where + ": a clamp change sets util_min " + std::to_string(e.util_min) + " above util_max " +
                                     std::to_string(e.util_max));
              uclamp_used_ = true;
              break;
            case event_kind::set_affinity: {
              for (int k : e.cpus) {  // as the task-level cpus: no CPU the machine lacks
                if (k < 0 || k >= ncpu_)
                  fail_at(ts, where + ": a phase's \"cpus\" names CPU " + std::to_string(k) + ", but the machine has " +
                                  std::to_string(ncpu_) + " CPU(s) (0.." + std::to_string(ncpu_ - 1) + ")");
                c.affinity |= std::uint64_t{1} << k;
              }
              if (c.affinity == 0) c.affinity = all_cpus();
              affinity_changes_ = true;
              break;
            }
            case event_kind::set_cgroup:
              if (!e.ref.empty()) {
                auto it = cgroup_ids.find(e.ref);
                if (it == cgroup_ids.end()) throw workload_error(where + ": move to unknown cgroup '" + e.ref + "'");
                c.res = it->second;
              }
              break;
            case event_kind::device_submit:
            case event_kind::device_wait: c.res = lookup(devices, e.ref); break;
            case event_kind::pipe_write:
            case event_kind::pipe_read:
            case event_kind::pipe_close: c.res = lookup(pipes, e.ref); break;
            case event_kind::sem_post:
            case event_kind::sem_wait: c.res = lookup(sems, e.ref); break;
            default: break;
          }
          cp.events.push_back(c);
        }
        specs_[s].phases.push_back(std::move(cp));
      }
      specs_[s].unique_timers = static_cast<int>(uniq[s].size());
    }
    timers_.resize(timers.size());
    mutexes_.resize(mutexes.size());
    mutex_names_.resize(mutexes.size());
    for (const auto& [name, id] : mutexes) mutex_names_[static_cast<std::size_t>(id)] = name;
    conds_.resize(conds.size());
    susp_.resize(susp.size());
    barriers_.resize(barriers.size());
    devices_.resize(devices.size());
    device_names_.resize(devices.size());
    for (const auto& [name, id] : devices) device_names_[static_cast<std::size_t>(id)] = name;
    pipes_.resize(pipes.size());
    for (const auto& [name, id] : pipes) pipes_[static_cast<std::size_t>(id)].name = name;
    sems_.resize(sems.size());
    for (const auto& [name, id] : sems) sems_[static_cast<std::size_t>(id)].name = name;
    std::map<std::string, bool> declared;
    for (const pipe_spec& ps : w_.pipes) {
      if (!declared.emplace(ps.name, true).second) throw workload_error("pipe '" + ps.name + "' declared twice");
      if (ps.capacity <= 0) throw workload_error("pipe '" + ps.name + "': capacity must be > 0 items");
      auto it = pipes.find(ps.name);
      if (it != pipes.end()) pipes_[static_cast<std::size_t>(it->second)].capacity = ps.capacity;
    }
    compile_cgroups(cgroup_ids);
    if (ncpu_ > 1 && (cfg_.machine.balance_by_load || asym_)) pelt_on_ = true;
    balance_load_ = pelt_on_;
    if (dvfs_on_ || util_est_) pelt_on_ = true;  // schedutil and util_est read the utilisation
    if (cfg_.machine.sis_util < -1 || cfg_.machine.sis_util > 1)
      throw workload_error("sis_util must be -1 (automatic), 0 (off) or 1 (on), not " +
                           std::to_string(cfg_.machine.sis_util));
    if (ncpu_ > 1 && !asym_ && cfg_.machine.sis_util == 1) pelt_on_ = true;  // the depth reads the utilisation
    sis_util_ = ncpu_ > 1 && !asym_ && pelt_on_ && cfg_.machine.sis_util != 0;
    nr_idle_scan_ = ncpu_;
    if (cfg_.machine.uclamp_rt_min_default > cpu_capacity_max)
      throw workload_error("the RT tasks' default boost (uclamp_rt_min_default) must be in 0..1024, not " +
                           std::to_string(cfg_.machine.uclamp_rt_min_default));
    if (cfg_.machine.uclamp_rt_min_default != cpu_capacity_max) uclamp_used_ = true;  // the sysctl's write turns uclamp on
    // Clamps act where utilisation decides something: frequencies, or fits on CPUs of
    // different capacity (the kernel's uclamp static key turns on at the first request).
    uclamp_on_ = uclamp_used_ && (dvfs_on_ || asym_);
    for (auto& [b, ss] : barrier_specs) {
      std::sort(ss.begin(), ss.end());
      ss.erase(std::unique(ss.begin(), ss.end()), ss.end());
      for (int s : ss) barriers_[static_cast<std::size_t>(b)].parties += w_.tasks[static_cast<std::size_t>(s)].instances;
    }
  }

  /// Builds the performance domains of machine_model::perf_domains (none: every CPU runs at
  /// its capacity, speed_ = cap_). Each domain starts at its top state. Called once the
  /// capacity list is known: the domains' capacities replace it (a list given too must agree).
  void setup_perf_domains() {
    const auto& spec = cfg_.machine.perf_domains;
    if (spec.empty()) {
      speed_ = cap_;
      return;
    }
    if (cfg_.machine.dvfs_rate_limit_ns < 0) throw workload_error("the DVFS rate limit must be >= 0 ns");
    long long total = 0;
    for (std::size_t d = 0; d < spec.size(); ++d) {
      if (spec[d].cpus < 1) throw workload_error("performance domain " + std::to_string(d) + " needs at least one CPU");
      total += spec[d].cpus;
    }
    if (total != ncpu_)
      throw workload_error("the performance domains hold " + std::to_string(total) + " CPUs for " + std::to_string(ncpu_) + " CPUs");
    doms_.resize(spec.size());
    std::vector<std::uint32_t> caps;
    for (std::size_t d = 0; d < spec.size(); ++d) {
      const perf_domain_model& m = spec[d];
      domain_state& ds = doms_[d];
      const std::string where = "performance domain " + std::to_string(d);
      if (m.states.empty() || m.states.size() > 256) throw workload_error(where + " needs 1..256 states, not " + std::to_string(m.states.size()));
      for (const auto& [khz, uw] : m.states) ds.states.push_back(em_perf_state{khz, uw, 0, false});
      switch (em_perf_domain_init(ds.pd, ds.states.data(), static_cast<std::uint32_t>(ds.states.size()), m.capacity)) {
        case errc::ok: break;
        case errc::inverted: throw workload_error(where + ": state frequencies must ascend strictly");
        default:
          throw workload_error(where + ": every state needs a non-zero kHz and µW, and the capacity must be in 1..1024, not " +
                               std::to_string(m.capacity));
      }
      ds.first = static_cast<int>(caps.size());
      ds.count = m.cpus;
      ds.idle_uw = m.idle_uw;
      ds.cur = ds.pd.nr_states - 1;
      ds.residency.assign(ds.states.size(), 0);
      for (int k = 0; k < m.cpus; ++k) {
        caps.push_back(m.capacity);
        dom_of_.push_back(static_cast<int>(d));
      }
    }
    if (!cfg_.machine.capacity.empty() && cfg_.machine.capacity != caps)
      throw workload_error("the CPU capacity list disagrees with the performance domains' capacities");
    // The energy totals are u64 nJ: refuse a machine whose most power-hungry state on every CPU
    // for the whole run could pass 2^64 nJ (µW x ns = fJ), rather than print a wrapped total.
    double worst_nj = 0;
    for (const perf_domain_model& m : spec) {
      std::uint32_t most = m.idle_uw;
      for (const auto& st : m.states) most = std::max(most, st.second);
      worst_nj += static_cast<double>(m.cpus) * static_cast<double>(most) * static_cast<double>(duration_) / 1e6;
    }
    if (worst_nj >= 1.8e19)
      throw workload_error("the performance domains' power over " + std::to_string(duration_ / 1000000000) +
                           " s could pass 2^64 nJ, the energy totals' range: expected a shorter run or lower power figures");
    cap_ = caps;
    speed_ = cap_;
    energy_nj_.assign(static_cast<std::size_t>(ncpu_), 0);
    energy_fj_.assign(static_cast<std::size_t>(ncpu_), 0);
    work_units_.assign(static_cast<std::size_t>(ncpu_), 0);
    dvfs_on_ = true;
  }

  /// Validates workload::cgroups (unique names, parents declared first, cpu.weight in range);
  /// returns name -> index.
  std::map<std::string, int> validate_cgroups() const {
    std::map<std::string, int> ids;
    for (std::size_t g = 0; g < w_.cgroups.size(); ++g) {
      const cgroup_spec& cg = w_.cgroups[g];
      const std::string where = "cgroup '" + cg.name + "'";
      if (cg.name.empty()) throw workload_error("a cgroup needs a name");
      if (!ids.emplace(cg.name, static_cast<int>(g)).second) throw workload_error(where + " declared twice");
      if (cg.weight < cgroup_weight_min || cg.weight > cgroup_weight_max)
        throw workload_error(where + ": cpu.weight " + std::to_string(cg.weight) + " is outside [" +
                             std::to_string(cgroup_weight_min) + ", " + std::to_string(cgroup_weight_max) + "]");
      if (cg.parent == cg.name) throw workload_error(where + " is its own parent");
      if (cfs_bandwidth probe; probe.configure(cg.max_quota_ns, cg.max_period_ns, cg.max_burst_ns, sched_time{}) != errc::ok)
        throw workload_error(where + ": cpu.max " + (cg.max_quota_ns == -1 ? std::string("max") : std::to_string(cg.max_quota_ns)) +
                             " " + std::to_string(cg.max_period_ns) + " ns, burst " + std::to_string(cg.max_burst_ns) +
                             " ns: outside the kernel's limits (period 1 ms..1 s; quota \"max\" or 1 ms..2^44-1 us; "
                             "burst 0..quota, 0 without a quota)");
      if (!cg.parent.empty() && ids.find(cg.parent) == ids.end())
        throw workload_error(where + ": parent '" + cg.parent + "' is not declared before it");
      int depth = 1;
      for (std::string up = cg.parent; !up.empty(); up = w_.cgroups[static_cast<std::size_t>(ids.at(up))].parent) ++depth;
      if (depth > cgroup_max_depth)
        throw workload_error(where + ": nested " + std::to_string(depth) + " levels deep, beyond " +
                             std::to_string(cgroup_max_depth));
    }
    return ids;
  }

  /// Resolves each task's group; with a grouped fair class, builds each CPU's groups.
  void compile_cgroups(const std::map<std::string, int>& ids) {
    cgroup_parent_.assign(w_.cgroups.size(), -1);
    for (std::size_t g = 0; g < w_.cgroups.size(); ++g)
      if (!w_.cgroups[g].parent.empty()) cgroup_parent_[g] = ids.at(w_.cgroups[g].parent);
    for (std::size_t s = 0; s < w_.tasks.size(); ++s) {
      const std::string& name = w_.tasks[s].cgroup;
      if (name.empty()) continue;
      auto it = ids.find(name);
      if (it == ids.end()) fail_at(w_.tasks[s], "task '" + w_.tasks[s].name + "': unknown cgroup '" + name + "'");
      specs_[s].cgroup = it->second;
    }
    if constexpr (detail_sim::grouped<fair_class>::value) {
      const std::size_t n = w_.cgroups.size();
      if (n == 0) return;
      groups_.resize(static_cast<std::size_t>(ncpu_));
      for (int c = 0; c < ncpu_; ++c) {
        auto& fair = cpu(c).rq.template get<stack_type::nr_classes - 1>();
        auto& mine = groups_[static_cast<std::size_t>(c)];
        mine = std::make_unique<typename fair_class::task_group[]>(n);  // never moved: linked intrusively
        for (std::size_t g = 0; g < n; ++g) {
          const cgroup_spec& cg = w_.cgroups[g];
          typename fair_class::task_group* parent =
              cg.parent.empty() ? nullptr : &mine[static_cast<std::size_t>(ids.at(cg.parent))];
          if (fair.attach_group(mine[g], parent) != errc::ok ||
              fair.set_group_weight(mine[g], detail_sim::cgroup_shares(cg.weight), sched_time{}) != errc::ok)
            throw workload_error("cgroup '" + cg.name + "': the policy refused the group (nesting too deep?)");
        }
      }
      // cpu.max: one pool per group, shared by the group's queues on every CPU.
      bw_pools_ = std::make_unique<cfs_bandwidth[]>(n);
      bw_before_.assign(n, bw_stats{});
      for (std::size_t g = 0; g < n; ++g) {
        const cgroup_spec& cg = w_.cgroups[g];
        if (cg.max_quota_ns == -1) continue;
        any_cpu_max_ = true;
        (void)bw_pools_[g].configure(cg.max_quota_ns, cg.max_period_ns, cg.max_burst_ns, st(now_));  // validated
        for (int c = 0; c < ncpu_; ++c) {
          auto& fair = cpu(c).rq.template get<stack_type::nr_classes - 1>();
          (void)fair.set_group_bandwidth(groups_[static_cast<std::size_t>(c)][g], &bw_pools_[g], st(now_));
        }
      }
      if (ncpu_ > 1) {
        pelt_on_ = true;
        group_pelt_.assign(static_cast<std::size_t>(ncpu_) * n, pelt_avg{});
      }
    }
  }

  /// With cgroups, a fair share is the task's entitlement in the hierarchy (cgroup v2: at
  /// each level the busy siblings split their parent's share by weight), whatever the policy:
  /// `shares[i]` (CPU fraction / nice weight of `counted[i]`) becomes CPU fraction /
  /// entitlement. Siblings count when they hold a counted (CPU-bound) task.
  void entitle_by_cgroup(const std::vector<const task_type*>& counted, std::vector<double>& shares) const {
    const std::size_t ng = w_.cgroups.size();
    const std::vector<int>& parent = cgroup_parent_;  // resolved by compile_cgroups
    std::vector<bool> busy(ng, false);
    auto group_of = [&](const task_type* t) { return t->cold->cgroup; };
    for (const task_type* t : counted)
      for (int g = group_of(t); g >= 0 && !busy[static_cast<std::size_t>(g)]; g = parent[static_cast<std::size_t>(g)])
        busy[static_cast<std::size_t>(g)] = true;
    // Total weight of the busy children of each group (index ng = the root).
    std::vector<double> total(ng + 1, 0.0);
    auto slot = [&](int g) { return g < 0 ? ng : static_cast<std::size_t>(g); };
    for (const task_type* t : counted) total[slot(group_of(t))] += nice_weight(t->params.nice);
    for (std::size_t g = 0; g < ng; ++g)
      if (busy[g]) total[slot(parent[g])] += detail_sim::cgroup_shares(w_.cgroups[g].weight);
    for (std::size_t i = 0; i < counted.size(); ++i) {
      const task_type* t = counted[i];
      const double w = nice_weight(t->params.nice);
      double e = w / total[slot(group_of(t))];
      for (int g = group_of(t); g >= 0; g = parent[static_cast<std::size_t>(g)])
        e *= detail_sim::cgroup_shares(w_.cgroups[static_cast<std::size_t>(g)].weight) / total[slot(parent[static_cast<std::size_t>(g)])];
      shares[i] = shares[i] * w / e;  // (cpu / life / w) * w / e
    }
  }

  /// The kernel's update_cfs_group at each tick, for the groups above the running task
  /// (entity_tick): a group's entity on CPU `ci` weighs calc_group_shares (smp/group_shares.hpp)
  /// of the group's shares, with PELT loads: this CPU's `max(queued weight, load_avg)` against
  /// the group's load_avg summed over every CPU (each brought up to now; the kernel's
  /// tg->load_avg lags by up to 1/64 of each CPU's part). One CPU: nothing to divide, the
  /// weight stays the shares (pelt_on_ is off).
  void update_group_shares(int ci, task_type& curr) {
    if constexpr (detail_sim::grouped<fair_class>::value) {
      if (curr.sched_class != static_cast<int>(stack_type::nr_classes - 1)) return;
      auto& fair = cpu(ci).rq.template get<stack_type::nr_classes - 1>();
      pelt_sync_cpu(ci);  // a reweight below changes a parent's queued weight from now on
      for (int g = curr.cold->cgroup; g >= 0; g = cgroup_parent_[static_cast<std::size_t>(g)]) {
        const std::size_t gi = static_cast<std::size_t>(g);
        std::uint64_t tg_load = 0;
        for (int c = 0; c < ncpu_; ++c) {
          if (c != ci) pelt_sync_queue(c, g);
          tg_load += group_pelt_[pelt_index(c, g)].load_avg;
        }
        const pelt_avg& here = group_pelt_[pelt_index(ci, g)];
        auto& grp = groups_[static_cast<std::size_t>(ci)][gi];
        const std::uint32_t w = calc_group_shares(detail_sim::cgroup_shares(w_.cgroups[gi].weight),
                                                  fair_class::group_load(grp), here.load_avg, tg_load, here.load_avg);
        if (fair.group_weight(grp) != w) (void)fair.set_group_weight(grp, w, st(now_));
      }
    } else {
      (void)ci;
      (void)curr;
    }
  }

  // ---------------------------------------------------------------- load tracking
  // PELT (smp/pelt.hpp) where something reads it (pelt_on_): calc_group_shares, the balance by
  // load, the capacity rules, schedutil, util_est, SIS_UTIL. Each group's
  // queue on each CPU has a signal fed by its queued weight (__update_load_avg_cfs_rq), each
  // fair task its own; a task's signal moves with it between group queues (attach/detach, on
  // migration, a change of group or of weight). A signal is brought up to now before any
  // change of its inputs (hence the pelt_before_change calls ahead of every run-queue change),
  // so its inputs are constant between two updates and any reader may update it to now.
  // A group queue's runnable signal is fed 1 while the queue is loaded, not its runnable count:
  // it stands for the fraction of time the group's entity was queued (the kernel's group se
  // load_sum, which the balance reads through group_entity_load), so a task's arrival or
  // departure moves it as update_tg_cfs_load moves that load_sum (pelt_group_attach/detach),
  // never by the task's own runnable_avg. Not modelled: the queues' runnable count, the
  // propagation of a moved task's history to the ancestors' queues (propagate_entity_load_avg:
  // they follow the group entities' weights only), and the root queue's signal (no shares to
  // compute there).
  std::size_t pelt_index(int ci, int g) const {
    return static_cast<std::size_t>(ci) * w_.cgroups.size() + static_cast<std::size_t>(g);
  }
  /// Whether group `g`'s queue on `ci` holds the CPU's running task (its cfs_rq->curr is set).
  bool group_running(int ci, int g) const {
    const task_type* curr = cpus_[static_cast<std::size_t>(ci)].curr;
    if (curr == nullptr || curr->state != task_core::st::running ||
        curr->sched_class != static_cast<int>(stack_type::nr_classes - 1))
      return false;
    for (int x = curr->cold->cgroup; x >= 0; x = cgroup_parent_[static_cast<std::size_t>(x)])
      if (x == g) return true;
    return false;
  }
  void pelt_sync_queue(int ci, int g) {
    if constexpr (detail_sim::grouped<fair_class>::value) {
      const std::uint64_t load = fair_class::group_load(groups_[static_cast<std::size_t>(ci)][static_cast<std::size_t>(g)]);
      pelt_update_queue(group_pelt_[pelt_index(ci, g)], static_cast<std::uint64_t>(now_), load, load != 0 ? 1u : 0u,
                        group_running(ci, g), speed_[static_cast<std::size_t>(ci)]);
    } else {
      (void)ci;
      (void)g;
    }
  }
  void pelt_sync_cpu(int ci) {
    if (!pelt_on_ || group_pelt_.empty()) return;
    for (int g = 0; g < static_cast<int>(w_.cgroups.size()); ++g) pelt_sync_queue(ci, g);
  }
  /// The group whose queue holds `t`'s signal: its cgroup when the fair class has task groups,
  /// else -1 (cgroups under an ungrouped policy with machine.balance_by_load: no group queue
  /// has a signal, every task weighs as in the root).
  int pelt_group(const task_type& t) const { return group_pelt_.empty() ? -1 : t.cold->cgroup; }
  /// The load weight a fair task has in its queue (cfs's and eevdf's).
  static std::uint32_t fair_weight_of(const task_type& t) {
    return t.params.kind == sched_kind::idle ? weight_idleprio : nice_to_weight(t.params.nice);
  }
  bool is_fair(const task_type& t) const { return t.sched_class == static_cast<int>(stack_type::nr_classes - 1); }
  /// `t`'s own signal up to now: queued (runnable, running, or a sleeper its class still holds)
  /// or not, running or not. Time outside the fair class counts as neither.
  void pelt_sync_task(task_type& t) {
    if (!pelt_on_ || !t.cold->pelt_born) return;
    if (pelt_advance(t, t.cold->pelt)) util_est_util_changed(t.cold->util_est);  // a new sample is due
  }
  /// `t`'s size for the capacity and energy decisions: its util_avg brought up to now, or with
  /// util_est the larger of that and its estimate (task_util_est). Updates its signal.
  std::uint32_t task_size(task_type& t) {
    pelt_sync_task(t);
    return util_est_ ? task_util_est(t.cold->pelt.util_avg, t.cold->util_est) : t.cold->pelt.util_avg;
  }
  /// `t`'s util_avg as it would read now, without updating its signal: a read at an instant
  /// the schedule does not depend on (schedutil, the energy estimates) leaves the signal's
  /// update points, hence its integer rounding, as they were.
  std::uint32_t util_now(const task_type& t) {
    pelt_avg copy = t.cold->pelt;
    pelt_advance(t, copy);
    return copy.util_avg;
  }
  /// CPU ci's root queue signal now (util_avg and load_avg only: what post_init_entity_util_avg
  /// reads), as the sum over the fair tasks whose CPU it is, running, queued or asleep there
  /// (the kernel's root cfs_rq also holds the decaying part of its sleepers). Kept for the
  /// instant, so that the tasks a workload starts together cost O(tasks) once per CPU and
  /// instant. @par Complexity O(tasks) at the first call of an instant.
  const pelt_avg& root_pelt_now(int ci) {
    root_pelt_memo_.resize(static_cast<std::size_t>(ncpu_));
    root_pelt_at_.resize(static_cast<std::size_t>(ncpu_), -1);
    pelt_avg& q = root_pelt_memo_[static_cast<std::size_t>(ci)];
    if (root_pelt_at_[static_cast<std::size_t>(ci)] == now_) return q;
    root_pelt_at_[static_cast<std::size_t>(ci)] = now_;
    q = pelt_avg{};
    for (task_type* o : tasks_) {
      if (o->cpu != ci || !o->cold->pelt_born || !is_fair(*o) || o->state == task_core::st::unborn ||
          o->state == task_core::st::dead)
        continue;
      pelt_avg copy = o->cold->pelt;
      pelt_advance(*o, copy);
      q.util_avg += copy.util_avg;
      q.load_avg += copy.load_avg;
    }
    return q;
  }
  /// Advances signal `a` of task `t` to now (the inputs since its last update are constant).
  /// @return whether its averages were refreshed.
  bool pelt_advance(const task_type& t, pelt_avg& a) {
    const bool fair = is_fair(t);
    const bool running = fair && t.state == task_core::st::running;
    const bool queued = fair && (running || t.state == task_core::st::runnable ||
                                 (t.state == task_core::st::blocked && t.cpu >= 0 && cpu(t.cpu).rq.delayed(t)));
    return pelt_update_entity(a, static_cast<std::uint64_t>(now_), fair_weight_of(t), queued, running,
                              running ? speed_[static_cast<std::size_t>(t.cpu)] : cpu_capacity_max);
  }
  /// Before a change on CPU `ci` (and of task `t`, when given): every signal whose inputs it
  /// may change is brought up to now.
  void pelt_before_change(int ci, task_type* t) {
    class_pelt_sync(ci);  // a change of the current task's class
    if (!pelt_on_) return;
    pelt_sync_cpu(ci);
    if (t != nullptr) pelt_sync_task(*t);
  }
  /// `t` is about to be enqueued on `ci` (its group there already bound): its signal is
  /// attached to that group queue, detached from the one it was on if that differs (a
  /// migration, a change of group) or if its weight changed (the kernel's reweight_entity
  /// rescales a task's history to its present weight). A fork starts here
  /// (post_init_entity_util_avg). @pre pelt_before_change(ci, &t) at this instant.
  void pelt_track(int ci, task_type& t) {
    if (!pelt_on_) return;
    task_cold& cold = *t.cold;
    const int g = pelt_group(t);
    const int want = is_fair(t) && g >= 0 ? static_cast<int>(pelt_index(ci, g)) : -1;
    const std::uint32_t weight = fair_weight_of(t);
    if (cold.pelt_born && want == cold.pelt_slot && weight == cold.pelt_weight) return;
    pelt_untrack(t);
    if (!cold.pelt_born) {
      // post_init_entity_util_avg: what the task's queue already uses bounds its first util (a
      // group's queue, or the CPU's root queue: every fair task whose CPU it is, sleepers'
      // decaying part included), so forks on one CPU start at 512, 256, 128...
      const pelt_avg queue = want >= 0 ? group_pelt_[static_cast<std::size_t>(want)] : root_pelt_now(ci);
      pelt_init_new_entity(cold.pelt, weight, queue, static_cast<std::uint64_t>(now_), cap_[static_cast<std::size_t>(ci)]);
      cold.pelt_born = true;
      if (want < 0) {  // the new task joins the root queue's signal kept for this instant
        root_pelt_memo_[static_cast<std::size_t>(ci)].util_avg += cold.pelt.util_avg;
        root_pelt_memo_[static_cast<std::size_t>(ci)].load_avg += cold.pelt.load_avg;
      }
    } else {
      pelt_refresh_averages(cold.pelt, weight);  // its history at its present weight (reweight_entity)
    }
    cold.pelt_weight = weight;
    if (want < 0) return;
    pelt_group_attach(static_cast<std::size_t>(want), cold.pelt, weight);
    cold.pelt_slot = want;
  }
  /// pelt_attach of `e` to group queue `slot`, except for the queue's runnable signal (the
  /// fraction of time the group's entity was queued, see above): the arriving history is added
  /// to it and the result clamped to always queued, as update_tg_cfs_load adds a propagated
  /// load_sum (min divider). A queue's runnable fed 0/1 plus a task's runnable_avg read as 1.3
  /// times the group's weight after a migration.
  void pelt_group_attach(std::size_t slot, pelt_avg& e, std::uint32_t weight) {
    pelt_avg& q = group_pelt_[slot];
    const std::uint64_t rs = q.runnable_sum;
    pelt_attach(q, e, weight);
    const std::uint64_t full = static_cast<std::uint64_t>(pelt_divider(q)) << pelt_capacity_shift;
    q.runnable_sum = std::min(rs + (e.load_sum << pelt_capacity_shift), full);
    q.runnable_avg = q.runnable_sum / pelt_divider(q);
  }
  /// pelt_detach of `e` from group queue `slot` (`queued_weight`: the queue's weight without
  /// it), except for the runnable signal: as update_tg_cfs_load after a removal, it becomes the
  /// smaller of what it was and the queue's load_sum per unit of the weight left (the others
  /// were runnable beside the task: a queue still loaded stays loaded), at least the queue's
  /// running part. Subtracting the task's runnable_avg left a still-loaded queue near 0.
  void pelt_group_detach(std::size_t slot, const pelt_avg& e, std::uint32_t weight, std::uint64_t queued_weight) {
    pelt_avg& q = group_pelt_[slot];
    const std::uint64_t rs = q.runnable_sum;
    pelt_detach(q, e, weight);
    const std::uint64_t left = queued_weight != 0 ? (q.load_sum / queued_weight) << pelt_capacity_shift : 0;
    const std::uint64_t full = static_cast<std::uint64_t>(pelt_divider(q)) << pelt_capacity_shift;
    q.runnable_sum = std::min(std::max(std::min(rs, left), static_cast<std::uint64_t>(q.util_sum)), full);
    q.runnable_avg = q.runnable_sum / pelt_divider(q);
  }
  /// Takes `t`'s signal out of the group queue it is attached to (a task that dies, leaves for
  /// another queue or another class).
  void pelt_untrack(task_type& t) {
    task_cold& cold = *t.cold;
    if (!pelt_on_ || cold.pelt_slot < 0) return;
    const std::size_t slot = static_cast<std::size_t>(cold.pelt_slot);
    const int ng = static_cast<int>(w_.cgroups.size());
    const int from = cold.pelt_slot / ng, g = cold.pelt_slot % ng;
    pelt_sync_queue(from, g);
    pelt_sync_task(t);
    std::uint64_t queued = 0;  // the weight left in that queue (t is no longer queued there)
    if constexpr (detail_sim::grouped<fair_class>::value)
      queued = fair_class::group_load(groups_[static_cast<std::size_t>(from)][static_cast<std::size_t>(g)]);
    pelt_group_detach(slot, cold.pelt, cold.pelt_weight, queued);
    cold.pelt_slot = -1;
  }

  /// Before `t` enters CPU `ci`'s run queue: puts it in that CPU's object of its task group
  /// (a grouped fair class only; the task is not queued there, or is there already).
  void bind_group(int ci, task_type& t) {
    if constexpr (detail_sim::grouped<fair_class>::value) {
      if (groups_.empty()) return;
      const int g = t.cold->cgroup;
      auto& fair = cpu(ci).rq.template get<stack_type::nr_classes - 1>();
      if (fair.set_group(t, g < 0 ? nullptr : &groups_[static_cast<std::size_t>(ci)][static_cast<std::size_t>(g)],
                         st(now_)) != errc::ok)
        throw std::logic_error("schedsim: a task changed group while queued");
    } else {
      (void)ci;
      (void)t;
    }
  }

  task_type* create(int spec, int instance) {
    const task_spec& ts = w_.tasks[static_cast<std::size_t>(spec)];
    if (tasks_.size() >= max_tasks_per_run)
      fail_at(ts, "task '" + ts.name + "': the run would create more than " + std::to_string(max_tasks_per_run) +
                      " tasks (instances and forks; a task that forks in an endless loop?)");
    // Tasks live in fixed chunks (never moved: policies link them intrusively), so the run
    // queues walk densely packed entities; the cold parts live in chunks of their own.
    const std::size_t n = tasks_.size();
    if (n % task_chunk == 0) {
      chunks_.push_back(std::make_unique<task_type[]>(task_chunk));
      cold_chunks_.push_back(std::make_unique<task_cold[]>(task_chunk));
    }
    task_type* t = &chunks_.back()[n % task_chunk];
    task_cold& k = cold_chunks_.back()[n % task_chunk];
    t->cold = &k;
    k.cgroup = specs_[static_cast<std::size_t>(spec)].cgroup;
    t->id = static_cast<std::uint32_t>(n);
    t->pid = 1000 + static_cast<int>(t->id);
    t->spec = spec;
    const bool suffix = ts.suffix_instances || ts.instances > 1 || instance > 0;
    k.instance = suffix ? instance : -1;  // the name is built on first use (name_of)
    t->params = ts.params;
    k.own_params = ts.params;
    k.uclamp_req[0] = ts.util_min;
    k.uclamp_req[1] = ts.util_max;
    std::uint64_t mask = 0;
    for (int c : ts.cpus)
      if (c >= 0 && c < ncpu_) mask |= 1ull << c;
    if (mask == 0) mask = all_cpus();
    // Its cpuset: the partition that has all its CPUs, else the root cpuset (the default domain).
    const std::uint64_t first = domain_of(__builtin_ctzll(mask));
    k.domain = (mask & ~first) == 0 ? first : default_domain_;
    t->affinity = mask & k.domain;
    if (t->affinity == 0)
      fail_at(ts, "task '" + name_of(*t) + "': its CPUs {" + cpu_list(mask) + "} lie in no single partition and include none of the "
                  "default root domain's {" + cpu_list(default_domain_) + "}: a task outside the partitions runs in the root "
                  "cpuset, where sched_setaffinity keeps only its CPUs outside them (none left: EINVAL)");
    t->task_loops_left = ts.loop;
    t->refill = ts.refill_ns >= 0 ? ts.refill_ns : cfg_.machine.refill_ns;
    cspec& cs = specs_[static_cast<std::size_t>(spec)];
    for (int u = 0; u < cs.unique_timers; ++u) {
      k.unique_timers.push_back(static_cast<int>(timers_.size()));
      timers_.emplace_back();
    }
    if (instance >= cs.next_instance) cs.next_instance = instance + 1;
    if (!ts.daemon) ++foreground_;
    tasks_.push_back(t);
    return t;
  }

  /// The instance name (`name-i` or the spec's name), built on first use: reports and traces
  /// need it, the simulation itself never does.
  const std::string& name_of(const task_type& t) const {
    task_cold& k = *t.cold;
    if (!k.named) {
      const std::string& base = w_.tasks[static_cast<std::size_t>(t.spec)].name;
      k.name = k.instance >= 0 ? base + "-" + std::to_string(k.instance) : base;
      k.comm = make_comm(k.name);
      k.named = true;
    }
    return k.name;
  }
  const std::string& comm_of(const task_type& t) const {
    (void)name_of(t);
    return t.cold->comm;
  }

  /// Whether the UTF-8 character of `n` bytes at `s[i]` is one that splits a record for some
  /// reader: ASCII space, '=', a control character, or Unicode white space and line or
  /// paragraph separators (U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029, U+202F,
  /// U+205F, U+3000), which Python's `\s` and JavaScript's line splitting treat as such.
  static bool comm_breaker(const std::string& s, std::size_t i, std::size_t n) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    if (n == 1) return s[i] == ' ' || s[i] == '=' || b(0) < 0x20 || b(0) == 0x7F;
    if (n == 2) return b(0) == 0xC2 && (b(1) == 0x85 || b(1) == 0xA0);
    if (n != 3) return false;
    if (b(0) == 0xE1) return b(1) == 0x9A && b(2) == 0x80;  // U+1680
    if (b(0) == 0xE3) return b(1) == 0x80 && b(2) == 0x80;  // U+3000
    if (b(0) != 0xE2) return false;
    if (b(1) == 0x80) return b(2) <= 0x8A || b(2) == 0xA8 || b(2) == 0xA9 || b(2) == 0xAF;  // U+2000..200A, 2028, 2029, 202F
    return b(1) == 0x81 && b(2) == 0x9F;  // U+205F
  }

  static std::string make_comm(const std::string& name) {
    // Every character that would split a record becomes '_' (one record per line, one field
    // per word); then at most 15 bytes (TASK_COMM_LEN - 1), cut before a character rather
    // than inside one: a lone UTF-8 lead byte would make the trace invalid UTF-8 for the tools
    // that read it. (Names are valid UTF-8: the workload's parser checks them.)
    std::string c;
    for (std::size_t i = 0; i < name.size();) {
      const std::size_t n = std::max<std::size_t>(1, json::utf8_length_at(name, i));
      if (comm_breaker(name, i, n))
        c += '_';
      else
        c.append(name, i, n);
      i += n;
    }
    std::size_t n = std::min<std::size_t>(c.size(), 15);
    if (n < c.size())
      while (n > 0 && (static_cast<unsigned char>(c[n]) & 0xC0) == 0x80) --n;  // a continuation byte
    c.resize(n);
    if (c.empty()) c = "task";
    return c;
  }

  // ---------------------------------------------------------------- queue
  void push(std::int64_t t, std::uint32_t kind, std::uint32_t a, std::uint64_t gen) {
    q_.push(detail_sim::qevent{t, seq_++, kind, a, gen});
  }
  void push_tick(int ci, std::int64_t t) {
    tq_.push(detail_sim::qevent{t, seq_++, ev_tick, static_cast<std::uint32_t>(ci), 0});
  }
  /// Keeps one sample for the final percentiles, against the run's budget (run_config::max_samples).
  void keep_sample(std::vector<std::int64_t>& into, std::int64_t value) {
    if (++samples_kept_ > cfg_.max_samples)
      throw workload_error("the run keeps more than " + std::to_string(cfg_.max_samples) +
                           " samples (wakeup latencies, slacks, frame gaps and response times, 8 bytes each, for exact "
                           "percentiles) by simulated time " + std::to_string(now_ / 1000000) +
                           " ms: shorten the duration or make its wakeups less frequent");
    into.push_back(value);
  }

  /// Asks CPU ci to reschedule at the end of the current event; held while its task runs
  /// non-preemptible work (event::nopreempt), or was just switched in to start some (as a
  /// kernel thread is in kernel code from the moment it is switched in), until that work is
  /// done (on_complete).
  void resched(int ci) {
    cpu_state& c = cpu(ci);
    if (c.curr != nullptr && c.curr->state == task_core::st::running &&
        (c.curr->nopreempt || (c.curr->action == task_core::act::step && next_is_nopreempt(*c.curr)))) {
      c.resched_held = true;
      return;
    }
    c.need_resched = true;
    resched_mask_ |= std::uint64_t{1} << ci;
  }

  bool next_is_nopreempt(const task_type& t) const {
    const cevent* e = peek(t);
    return e != nullptr && e->kind == event_kind::run && e->nopreempt;
  }

  cpu_state& cpu(int c) { return cpus_[static_cast<std::size_t>(c)]; }
  const cpu_state& cpu(int c) const { return cpus_[static_cast<std::size_t>(c)]; }
  sched_time st(std::int64_t t) const { return sched_time(static_cast<std::uint64_t>(t)); }

  void handle(const detail_sim::qevent& e) {
    switch (e.kind) {
      case ev_tick: on_tick(static_cast<int>(e.a)); break;
      case ev_complete: {
        cpu_state& c = cpu(static_cast<int>(e.a));
        if (e.gen != c.gen || c.curr == nullptr) break;  // stale
        c.completion_pushed = false;
        account(static_cast<int>(e.a), now_);
        on_complete(static_cast<int>(e.a));
        break;
      }
      case ev_wake: {
        task_type* t = tasks_[e.a];
        if (t->state == task_core::st::blocked) {
          t->in_io = false;
          wake(*t, e.gen == wake_timekeeper ? std::max(t->cpu, 0) : -1,
               e.gen == wake_uninterruptible ? enqueue_flags::uninterruptible : enqueue_flags::none);
        }
        break;
      }
      case ev_start: start(*tasks_[e.a], nullptr); break;
      case ev_end: done_ = true; break;
      case ev_warmup: start_window(); break;
      case ev_ctimer: {
        const int ci = static_cast<int>(e.a);
        cpu_state& c = cpu(ci);
        if (e.gen != c.ctimer_gen) break;  // re-armed since
        c.ctimer_at = -1;
        account(ci, now_);
        if (c.rq.timer(st(now_))) resched(ci);
        if (ncpu_ > 1) push_dl(ci);  // dl_task_timer: a replenished reservation may wait here
        arm_class_timer(ci);
        dvfs_mark(ci);  // a replenishment or a 0-lag time changed what the classes ask for
        break;
      }
      default: break;
    }
  }

  // ---------------------------------------------------------------- accounting
  /// Charges [acct, upto) of CPU c to its current task, switch overhead, or idle.
  void account(int ci, std::int64_t upto) {
    cpu_state& c = cpu(ci);
    if (upto <= c.acct) return;
    if (dvfs_on_) charge_energy(ci, c.curr != nullptr, upto - c.acct);
    if (c.curr == nullptr) {
      c.idle_ns += upto - c.acct;
    } else {
      if (c.acct < c.run_start) {
        c.overhead_ns += std::min(upto, c.run_start) - c.acct;
      }
      const std::int64_t from = std::max(c.acct, c.run_start);
      if (upto > from) {
        const std::int64_t ran = upto - from;
        task_type& t = *c.curr;
        t.cpu_ns += ran;
        c.busy += static_cast<std::uint64_t>(ran);
        if (dvfs_on_) work_units_[static_cast<std::size_t>(ci)] += static_cast<std::uint64_t>(ran) * speed_[static_cast<std::size_t>(ci)];
        if (t.action == task_core::act::work) {
          const std::uint32_t capacity = work_speed(ci);
          if (capacity == cpu_capacity_max) {
            t.remaining -= ran;
          } else {  // c/1024 ns of work per ns, the fraction carried to the next charge
            const std::uint64_t done = static_cast<std::uint64_t>(ran) * capacity + t.cold->work_carry;
            t.remaining -= static_cast<std::int64_t>(done >> 10);
            t.cold->work_carry = static_cast<std::uint32_t>(done & (cpu_capacity_max - 1));
          }
        }
      }
    }
    c.acct = upto;
  }

  /// The warm-up is over: settle every CPU up to now and restart every statistic from zero
  /// (the scheduler's and the tasks' state are untouched).
  void start_window() {
    window_ = now_;
    misfit_moves_ = 0;
    eas_wakeups_ = 0;
    affine_wakeups_ = 0;
    rt_pushes_ = rt_pulls_ = dl_pushes_ = dl_pulls_ = 0;
    affinity_moves_ = 0;
    pi_deadlocks_ = 0;
    pi_steals_ = 0;
    lock_retries_ = 0;
    priority_inversions_ = 0;
    first_inversion_ns_ = -1;
    for (domain_state& dm : doms_) {
      dm.residency.assign(dm.residency.size(), 0);
      dm.state_since = now_;
      dm.changes = 0;
    }
    for (int ci = 0; ci < ncpu_; ++ci) {
      account(ci, now_);
      if (dvfs_on_) {
        energy_nj_[static_cast<std::size_t>(ci)] = work_units_[static_cast<std::size_t>(ci)] = 0;
        energy_fj_[static_cast<std::size_t>(ci)] = 0;
      }
      cpu_state& c = cpu(ci);
      c.idle_ns = 0;
      c.overhead_ns = 0;
      c.switches = 0;
    }
    for (task_type* tp : tasks_) {
      task_type& t = *tp;
      if (t.state == task_core::st::unborn) continue;
      t.cpu_ns = 0;
      t.wait_ns = 0;
      t.max_wait_ns = 0;
      if (t.state == task_core::st::runnable) t.wait_since = now_;  // its wait counts from here
      t.switches = 0;
      t.migrations = 0;
      task_cold& k = *t.cold;
      if (k.exit_ns < 0) k.start_ns = now_;  // alive: born, for the window, now
      k.lat.clear();
      k.frame_gaps.clear();
      k.responses.clear();
      k.slacks.clear();
      k.frames = 0;
      k.dl_met = 0;
      k.dl_missed = 0;
      k.sigxcpu = 0;
      k.job.clear_statistics();
    }
    for (device_res& dv : devices_) {  // busy time before the window: submitted minus what is still queued
      dv.busy_before = dv.work_ns - std::max<std::int64_t>(0, dv.busy_until - now_);
      dv.requests = 0;
    }
    for (pipe_res& pp : pipes_) {
      pp.writes = pp.reads = pp.items_moved = pp.reader_blocks = pp.writer_blocks = 0;
      pp.max_items = pp.items;
    }
    for (sem_res& sm : sems_) {
      sm.posts = sm.waits = sm.blocks = sm.retries = sm.overflows = 0;
      sm.max_count = sm.count;
    }
    for (std::size_t g = 0; g < bw_before_.size(); ++g) bw_before_[g] = bw_stats_of(bw_pools_[g]);
  }

  // ---------------------------------------------------------------- ticks
  void arm_tick(int ci) {
    cpu_state& c = cpu(ci);
    if (c.tick_armed) return;
    c.tick_armed = true;
    // The first grid point after now: phase + k·tick, with now >= 0 and 0 <= phase < tick.
    const std::int64_t rel = now_ - tick_phase_;
    c.next_tick = tick_phase_ + (rel >= 0 ? rel / tick_ns_ + 1 : 0) * tick_ns_;
    push_tick(ci, c.next_tick);
  }

  void on_tick(int ci) {
    cpu_state& c = cpu(ci);
    if (c.curr == nullptr) {  // idle: stop the tick (NO_HZ idle)
      c.tick_armed = false;
      return;
    }
    account(ci, now_);
    dvfs_mark(ci);
    ++c.ticks;
    c.next_tick = now_ + tick_ns_;
    push_tick(ci, c.next_tick);
    if (!groups_.empty() && ncpu_ > 1) update_group_shares(ci, *c.curr);
    if (c.rq.tick(*c.curr, st(now_))) resched(ci);
    signal_overrun(ci);
    if (c.rq.timer(st(now_))) resched(ci);  // class timers run at least every tick
    if (--c.balance_left == 0) {  // every balance_ticks_ busy ticks
      c.balance_left = balance_ticks_;
      balance(ci, false);
    }
    if (cfg_.trace != nullptr && pelt_on_ && is_fair(*c.curr) && c.curr->cold->pelt_born) {
      // The running task's PELT util at each tick: a counter track per task in Perfetto.
      pelt_sync_task(*c.curr);
      cfg_.trace->counter(now_, ci, comm_of(*c.curr), c.curr->pid, "util_avg", c.curr->cold->pelt.util_avg);
    }
    if (asym_) kick_misfit(ci);
    // The idle-balance kick (nohz_balancer_kick): a busy tick kicks the idle CPUs to balance,
    // as on every SMP kernel with tickless idle CPUs. Without it an idle CPU is reached only by
    // a wakeup or its own newly idle pull, and work stays stranded beside it: a fair task
    // preempted by an RT or deadline task that stays on its CPU (select_task_rq_rt / _dl),
    // tasks pinned together or let onto more CPUs by a phase, the capacity rules of an
    // asymmetric machine, a wakee that SIS_UTIL's short scan left on a busy CPU.
    if (ncpu_ > 1 && c.queued.size() >= 2 && now_ >= next_idle_balance_) kick_idle_balance();
    if (!c.completion_pushed && c.completion <= c.next_tick && !c.need_resched) {
      c.completion_pushed = true;
      push(c.completion, ev_complete, static_cast<std::uint32_t>(ci), c.gen);
    }
    arm_class_timer(ci);
  }

  /// SCHED_FLAG_DL_OVERRUN's signal: run_posix_cpu_timers follows the scheduler's tick and, for
  /// a running deadline task marked by a runtime overrun, sends SIGXCPU (check_dl_overrun), so
  /// an overrun enforced at this tick is signalled in it and one enforced elsewhere (a dequeue,
  /// HRTICK_DL) at the next tick that finds the task running. The signal is counted (a real
  /// task without a handler would be killed) and traced as the kernel's signal_generate.
  void signal_overrun(int ci) {
    if constexpr (dl_class_) {
      using dl_type = typename stack_type::template class_type<0>;
      if constexpr (detail_sim::dl_overruns<dl_type>::value) {
        task_type& t = *cpu(ci).curr;
        if (!in_dl_class(t) || !dl_type::take_overrun(t)) return;
        ++t.cold->sigxcpu;
        if (cfg_.trace != nullptr) cfg_.trace->signal_generate(now_, ci, comm_of(t), t.pid, sigxcpu_signo);
      }
    }
    (void)ci;
  }

  /// Arms (or cancels) the CPU's class timer at the stack's `next_timer` (RT throttling,
  /// deadline replenishment): the kernel's hrtimers, exact to the ns.
  void arm_class_timer(int ci) {
    cpu_state& c = cpu(ci);
    sched_time w{};
    if (!c.rq.next_timer(w)) {
      if (c.ctimer_at >= 0) {
        ++c.ctimer_gen;
        c.ctimer_at = -1;
      }
      return;
    }
    // A timer at or before now fires 1 ns later: a class that keeps asking for a past time
    // cannot stall simulated time.
    const std::int64_t when = std::max(now_ + 1, static_cast<std::int64_t>(w.ns()));
    if (when == c.ctimer_at) return;
    ++c.ctimer_gen;
    c.ctimer_at = when;
    push(when, ev_ctimer, static_cast<std::uint32_t>(ci), c.ctimer_gen);
  }

  /// A pool's slack timer (cpu.max) is armed on one CPU, at a queue's return of budget, and
  /// fires on the CPUs where the group's queues are throttled: when some pool's timer changed
  /// since the last event, every CPU's class timer is armed again (each CPU's fair class
  /// reports the slack timer of the pools its throttled groups draw from). O(cgroups).
  void follow_slack_timers() {
    slack_seen_.resize(w_.cgroups.size(), -1);
    bool changed = false;
    for (std::size_t g = 0; g < w_.cgroups.size(); ++g) {
      sched_time at{};
      const std::int64_t armed = bw_pools_[g].slack_timer(at) ? static_cast<std::int64_t>(at.ns()) : -1;
      if (armed != slack_seen_[g]) {
        slack_seen_[g] = armed;
        changed = true;
      }
    }
    if (changed)
      for (int k = 0; k < ncpu_; ++k) arm_class_timer(k);
  }

  /// The kernel's throttled_lb_pair: the balancer leaves a task whose group is throttled (cpu.max)
  /// on its CPU or on the CPU it would move to. O(depth).
  bool throttled_pair(const task_type& t, int from, int to) const {
    return throttled_here(t, from) || throttled_here(t, to);
  }

  /// Whether `t`'s group is throttled on CPU k (cpu.max): its queue has left the root there, so
  /// the root's load does not hold it. O(depth).
  bool throttled_here(const task_type& t, int k) const {
    if constexpr (detail_sim::grouped<fair_class>::value) {
      const int g = t.cold->cgroup;
      return any_cpu_max_ && g >= 0 &&
             fair_class::throttled_hierarchy(groups_[static_cast<std::size_t>(k)][static_cast<std::size_t>(g)]);
    } else {
      (void)t, (void)k;
      return false;
    }
  }

  /// CPU ci's work rate out of 1024: its speed (capacity at its frequency), times its SMT share
  /// when its core has other busy threads (machine_model::smt_threads). >= 1.
  std::uint32_t work_speed(int ci) const {
    const std::uint32_t speed = speed_[static_cast<std::size_t>(ci)];
    if (smt_ <= 1) return speed;
    const int first = ci - ci % smt_;
    int busy = 0;
    for (int k = first; k < first + smt_; ++k) busy += cpu(k).curr != nullptr ? 1 : 0;
    return std::max<std::uint32_t>(1, static_cast<std::uint32_t>(
                                          static_cast<std::uint64_t>(speed) * smt_share_[busy] / cpu_capacity_max));
  }
  /// Before CPU ci turns busy or idle on an SMT machine: its siblings' work so far is charged at
  /// the rate they had (account); `rearm` afterwards: their completions move to the new rate.
  void smt_siblings(int ci, bool rearm) {
    const int first = ci - ci % smt_;
    for (int k = first; k < first + smt_; ++k) {
      if (k == ci || cpu(k).curr == nullptr) continue;
      if (rearm) arm_completion(k);
      else account(k, now_);
    }
  }

  /// Wall time CPU ci takes for `t`'s remaining work: the work itself at speed 1024, else
  /// rounded up so that the work is done by then (account() then leaves `remaining` <= 0).
  std::int64_t work_wall_ns(const task_type& t, int ci) const {
    const std::int64_t rem = std::max<std::int64_t>(0, t.remaining);
    const std::uint32_t capacity = work_speed(ci);
    if (capacity == cpu_capacity_max || rem == 0) return rem;
    const std::uint64_t units = static_cast<std::uint64_t>(rem) * cpu_capacity_max - t.cold->work_carry;  // 1/1024 ns
    return static_cast<std::int64_t>((units + capacity - 1) / capacity);
  }

  /// (Re)computes when the current action of CPU c's task completes and queues it if it falls
  /// before the next tick (the tick re-checks later ones: keeps the heap small for hogs).
  void arm_completion(int ci) {
    cpu_state& c = cpu(ci);
    ++c.gen;
    c.completion_pushed = false;
    task_type* t = c.curr;
    if (t == nullptr) return;
    std::int64_t when = c.run_start;
    if (t->action == task_core::act::work) {
      const std::int64_t wall = work_wall_ns(*t, ci);
      when = c.run_start + wall;
      if (c.acct > c.run_start) when = c.acct + wall;
    } else if (t->action == task_core::act::runtime) {
      when = std::max(std::max(c.run_start, c.acct), t->runtime_end);
    } else {
      when = std::max(c.run_start, c.acct);
    }
    c.completion = when;
    if (!c.tick_armed || when <= c.next_tick) {
      c.completion_pushed = true;
      push(when, ev_complete, static_cast<std::uint32_t>(ci), c.gen);
    }
  }

  // ---------------------------------------------------------------- queues and placement
  /// `t` joins CPU ci's queued tasks; `iowait`: it woke from an I/O wait (schedutil's boost).
  void rq_add(int ci, task_type& t, bool iowait = false) {
    dvfs_mark(ci, iowait);
    cpu_state& c = cpu(ci);
    t.qidx = static_cast<std::uint32_t>(c.queued.size());
    c.queued.push_back(&t);
    if (uclamp_on_) uclamp_count_in(c, t);
    SCHEDCORE_INVARIANT(c.uclamp.verify());
  }
  void rq_remove(int ci, task_type& t) {
    dvfs_mark(ci);
    cpu_state& c = cpu(ci);
    if (uclamp_on_ && t.cold->uclamp.active()) c.uclamp.dequeue(t.cold->uclamp);  // uclamp off: no cold read
    SCHEDCORE_INVARIANT(c.uclamp.verify());
    task_type* last = c.queued.back();
    c.queued[t.qidx] = last;
    last->qidx = t.qidx;
    c.queued.pop_back();
  }
  bool allowed(const task_type& t, int ci) const { return (t.affinity >> ci) & 1u; }
  /// How many of the machine's CPUs `t` may run on (nr_cpus_allowed).
  int allowed_cpus(const task_type& t) const {
    int n = 0;
    for (int k = 0; k < ncpu_; ++k) n += allowed(t, k) ? 1 : 0;
    return n;
  }
  /// idle_cpu(): nothing runs on `ci` and nothing can (tasks under a throttled cpu.max group
  /// wait for their period, as the kernel's nr_running leaves them out; see load()).
  bool idle(int ci) const { return cpus_[static_cast<std::size_t>(ci)].curr == nullptr && load(ci) == 0; }
  /// sched_idle_cpu() (Linux 5.4+): tasks are queued on `ci` and every one of them is
  /// SCHED_IDLE. A wakeup's idle search takes such a CPU as it takes an idle one (the woken
  /// task preempts what runs there at once or soon); wake_affine_idle does not.
  bool sched_idle_cpu(int ci) const {
    const std::vector<task_type*>& q = cpus_[static_cast<std::size_t>(ci)].queued;
    if (q.empty()) return false;
    for (const task_type* t : q)
      if (t->params.kind != sched_kind::idle) return false;
    return true;
  }

  /// `t`'s CPU at a wakeup; `this_cpu`: the CPU the wakeup runs on (the waker's, or the one
  /// whose timer or interrupt woke it); `sync`: the waker is about to sleep (WF_SYNC).
  int select_wake_cpu(task_type& t, int this_cpu, bool sync) {
    const int prev = t.cpu;
    if (in_dl_class(t)) {
      const int found = select_dl_cpu(t, this_cpu);
      if (found >= 0) return found;
    }
    if (is_rt(t) && prev >= 0 && allowed(t, prev)) return select_rt_cpu(t, this_cpu);
    task_type* const current = cpu(this_cpu).curr;  // the task the wakeup runs in (or interrupts)
    if (is_fair(t) && current != nullptr && current != &t && allowed_cpus(t) > 1)
      record_wakee(current->cold->flips, static_cast<std::uint64_t>(now_), t.id);
    if (eas_ && is_fair(t) && !overutilized()) {
      const int found = find_energy_efficient_cpu(t);
      if (found >= 0) {
        ++eas_wakeups_;
        return found;
      }
    }
    if (is_fair(t) && prev >= 0) {
      int target = prev;
      if (cfg_.machine.wake_affine && this_cpu != prev && allowed(t, this_cpu) &&
          (current == nullptr ||
           !wake_wide(current->cold->flips.flips, t.cold->flips.flips, static_cast<std::uint32_t>(ncpu_)))) {
        target = wake_affine(t, this_cpu, prev, sync);
        if (target == this_cpu) ++affine_wakeups_;
      }
      const auto usable_idle = [&](int k) noexcept { return allowed(t, k) && (idle(k) || sched_idle_cpu(k)); };
      int found = -1;
      if (asym_) {
        // The cache-hot candidates where the task fits, then select_idle_capacity from the
        // target; the task's util brought up to now (sync_entity_load_avg).
        const wake_fit fit = wake_fit_of(t);
        found = select_idle_cache_hot(ncpu_, prev, target, t.cold->recent_used_cpu, usable_idle, [&](int k) noexcept {
          const std::uint32_t c = cap_[static_cast<std::size_t>(k)];
          return util_fits_cpu(fit.util, fit.uclamp_min, fit.uclamp_max, c, c) > 0;
        });
        if (found < 0) found = idle_capacity_search(fit, target, usable_idle);
        if (found < 0) found = target;
      } else {
        // SIS_UTIL: at most nr_idle_scan_ of the CPUs the task may use are looked at.
        found = select_idle_sibling(
            ncpu_, prev, target, t.cold->recent_used_cpu, sis_util_ ? nr_idle_scan_ : ncpu_,
            [&](int k) noexcept { return allowed(t, k); }, usable_idle);
      }
      return allowed(t, found) ? found : least_loaded(t, -1);
    }
    if (asym_ && is_fair(t)) {
      // No previous CPU (not yet placed): select_idle_capacity from CPU 0.
      const int found = idle_capacity_search(wake_fit_of(t), 0, [&](int k) noexcept { return allowed(t, k) && idle(k); });
      if (found >= 0) return found;
      return least_loaded(t, -1);
    }
    // Other classes' fallbacks (a reservation no deadline rule placed, an RT task whose
    // previous CPU is no longer allowed): an idle CPU from the previous one.
    if (prev >= 0 && allowed(t, prev) && idle(prev)) return prev;
    const int from = prev >= 0 ? prev : 0;
    for (int k = 1; k <= ncpu_; ++k) {
      const int ci = (from + k) % ncpu_;
      if (allowed(t, ci) && idle(ci)) return ci;
    }
    if (prev >= 0 && allowed(t, prev)) return prev;
    return least_loaded(t, -1);
  }
  // ---------------------------------------------------------------- fair wakeup placement
  // select_task_rq_fair's wakeup fast path (Linux 5.15+, smp/wake_affine.hpp) on a machine
  // that is one LLC (every CPU shares the last-level cache, so every cache-affinity test
  // passes; llc_size is the CPU count), after energy-aware placement where it runs and finds
  // a CPU:
  // 1. record_wakee for the task the wakeup runs in (the waker, or the task an interrupt
  //    interrupted), when the woken task may run on more than one CPU;
  // 2. wake_affine when the wakeup runs on another CPU than the woken task's previous one (a
  //    wakeup by a task there), that CPU is allowed and the wakeup is not wide: WA_IDLE, then
  //    WA_WEIGHT with imbalance_pct 117, between the waker's CPU and the previous one;
  // 3. select_idle_sibling from the chosen target, with the task's recent_used_cpu. On an
  //    asymmetric machine (6.x): the target, prev and recent_used_cpu only where the task's
  //    util fits (asym_fits_cpu), then select_idle_capacity from the target, else the target.
  //    On a symmetric machine with SIS_UTIL (machine_model::sis_util), the scan after the
  //    cache-hot candidates looks at no more CPUs than update_idle_cpu_scan() allows.
  // Sync wakeups (WF_SYNC, the waker about to sleep): a pipe's, both ways (pipe_write waking a
  // reader, pipe_read waking a writer, as fs/pipe.c and unix sockets do). Nothing else in the
  // workload language is one. A CPU running only SCHED_IDLE tasks counts as idle for the
  // search of step 3 (sched_idle_cpu, 5.4+), not for WA_IDLE. Loads: see wake_cpu_load(). Not
  // modelled: SMT cores, the per-CPU-kthread stacking rule,
  // capacity_of's RT/IRQ pressure (wake_affine_weight and the fit tests read the CPUs'
  // full capacities).

  /// What a waking task's fit on a CPU is judged by (asymmetric machines): its util brought up
  /// to now (sync_entity_load_avg) and its effective clamps (0 and 1024 without clamps).
  struct wake_fit {
    std::uint32_t util, uclamp_min, uclamp_max;
  };
  wake_fit wake_fit_of(task_type& t) {
    pelt_sync_task(t);
    return {task_size(t), uclamp_on_ ? uclamp_eff(t, 0) : 0u, uclamp_on_ ? uclamp_eff(t, 1) : cpu_capacity_max};
  }
  /// select_idle_capacity from `from` over the CPUs `usable_idle` accepts; -1 if none.
  template <class UsableIdle>
  int idle_capacity_search(const wake_fit& fit, int from, UsableIdle&& usable_idle) {
    return select_idle_capacity(ncpu_, from, fit.util, fit.uclamp_min, fit.uclamp_max, usable_idle,
                                [&](int k) noexcept { return cap_[static_cast<std::size_t>(k)]; });
  }

  /// A CPU's fair load as wake_affine_weight reads it (cpu_load): with load tracking, its
  /// root queue's PELT load, as the balancer compares it (see balance_by_load); without, the
  /// summed weights of its runnable fair tasks (weighted_cpuload, the kernel's measure before
  /// PELT). Neither holds a sleeper's blocked load (the kernel's PELT one does).
  std::uint64_t wake_cpu_load(int k) {
    if (pelt_on_) {
      std::vector<bool> counted(group_pelt_.empty() ? 0 : w_.cgroups.size());
      return static_cast<std::uint64_t>(root_fair_load(k, counted));
    }
    std::uint64_t sum = 0;
    for (const task_type* q : cpu(k).queued)
      if (is_fair(*q) && !throttled_here(*q, k)) sum += fair_weight_of(*q);
    return sum;
  }
  /// A task's load as wake_affine_weight reads it (task_h_load): its PELT load scaled by its
  /// groups' share on CPU k with load tracking, its weight without; 0 for a task of another
  /// class.
  std::uint64_t wake_task_load(task_type& t, int k) {
    if (!is_fair(t)) return 0;
    if (!pelt_on_) return fair_weight_of(t);
    pelt_sync_task(t);
    return t.cold->pelt_born ? static_cast<std::uint64_t>(task_h_load(t, k)) : 0;
  }
  /// wake_affine(): the target of the idle search for `t`, woken from `this_cpu` (not its
  /// previous CPU `prev`), `sync` or not: `this_cpu` or `prev`.
  int wake_affine(task_type& t, int this_cpu, int prev, bool sync) {
    std::uint32_t running = 0;  // runnable there, sleepers the fair class still holds left out (6.13+)
    for (const task_type* q : cpu(this_cpu).queued) running += cpu(this_cpu).rq.delayed(*q) ? 0 : 1;
    const wake_affine_choice by_idle = wake_affine_idle(idle(this_cpu), idle(prev), sync, running);
    if (by_idle != wake_affine_choice::undecided) return by_idle == wake_affine_choice::this_cpu ? this_cpu : prev;
    task_type* const current = cpu(this_cpu).curr;
    const std::uint64_t task_load = wake_task_load(t, prev);
    // The engine's loads leave the sleeping task out; the kernel's prev_cpu load holds it.
    const bool pull = wake_affine_weight(wake_cpu_load(this_cpu), wake_cpu_load(prev) + task_load, task_load,
                                         sync && current != nullptr ? wake_task_load(*current, this_cpu) : 0, sync,
                                         cap_[static_cast<std::size_t>(this_cpu)], cap_[static_cast<std::size_t>(prev)], 117);
    return pull ? this_cpu : prev;
  }

  /// A waking deadline task's CPU (select_task_rq_dl with find_later_rq and cpudl_find; the
  /// capacity test 5.9+, always true on a symmetric machine). It stays on its previous CPU
  /// unless that CPU does not fit it (`dl_task_fits_capacity`) or runs another reservation
  /// that it would not preempt (its deadline not strictly earlier, `dl_entity_preempt`) or that
  /// is pinned there. Then the CPUs with no runnable reservation queued (cpudl's free CPUs) are
  /// the candidates, those that fit
  /// it, or if none fits the biggest (the previous one on a tie, else the first in index
  /// order); with no such CPU, the CPU whose earliest deadline is the latest, if the task's
  /// deadline is earlier. Among the candidates pick_among() chooses (the previous CPU, else
  /// `this_cpu`, else the next one from this_cpu's cursor). It moves there when that CPU has
  /// no reservation or the task's deadline is earlier than that CPU's earliest. -1 leaves the
  /// choice to the general rule (the previous CPU not allowed and nothing found). The
  /// deadline read is the one the task had before this wakeup renews it, as in the kernel.
  int select_dl_cpu(const task_type& t, int this_cpu) {
    const int prev = t.cpu;
    bool select = prev < 0 || !allowed(t, prev) || !dl_fits(t, prev);
    if (!select) {
      const task_type* curr = cpu(prev).curr;
      select = curr != nullptr && curr != &t && in_dl_class(*curr) && allowed_cpus(t) > 1 &&
               (allowed_cpus(*curr) < 2 || !(dl_deadline(t) < dl_deadline(*curr)));
    }
    if (!select) return prev;
    const int target = find_later_dl(t, this_cpu);
    if (target >= 0) {
      sched_time earliest{};
      if (!earliest_dl(target, &t, earliest) || dl_deadline(t) < earliest) return target;
    }
    return prev >= 0 && allowed(t, prev) ? prev : -1;
  }
  /// find_later_rq / cpudl_find: -1 when no CPU qualifies. `this_cpu`: where it runs.
  int find_later_dl(const task_type& t, int this_cpu) {
    const int prev = t.cpu >= 0 ? t.cpu : 0;
    std::uint64_t fit = 0;
    int biggest = -1;
    bool any_free = false;
    for (int k = 0; k < ncpu_; ++k) {
      sched_time earliest{};
      if (!allowed(t, k) || earliest_dl(k, &t, earliest)) continue;
      any_free = true;
      const std::uint32_t cap = cap_[static_cast<std::size_t>(k)];
      if (dl_fits(t, k)) {
        fit |= std::uint64_t{1} << k;
      } else if (biggest < 0 || cap > cap_[static_cast<std::size_t>(biggest)] ||
                 (k == prev && cap == cap_[static_cast<std::size_t>(biggest)])) {
        biggest = k;
      }
    }
    if (any_free) return pick_among(fit != 0 ? fit : std::uint64_t{1} << biggest, prev, this_cpu);
    // No free CPU: cpudl's maximum, the CPU whose earliest deadline is the latest.
    int latest = -1;
    sched_time latest_dl{};
    for (int k = 0; k < ncpu_; ++k) {  // cpudl is per root domain: t's
      sched_time earliest{};
      if (((t.cold->domain >> k) & 1u) == 0 || !earliest_dl(k, &t, earliest)) continue;
      if (latest < 0 || latest_dl < earliest) {
        latest = k;
        latest_dl = earliest;
      }
    }
    return latest >= 0 && allowed(t, latest) && dl_deadline(t) < latest_dl ? latest : -1;
  }
  /// The earliest deadline of the runnable reservations queued on CPU k (`except` left out;
  /// throttled ones are off the kernel's deadline queue); false when there is none.
  bool earliest_dl(int k, const task_type* except, sched_time& earliest) {
    bool any = false;
    for (const task_type* q : cpu(k).queued) {
      if (q == except || !dl_runnable(*q)) continue;
      const sched_time d = dl_deadline(*q);
      if (!any || d < earliest) earliest = d;
      any = true;
    }
    return any;
  }
  /// Whether `t` is a reservation in the deadline class that is not throttled.
  bool dl_runnable(const task_type& t) const {
    if constexpr (dl_class_) {
      using dl_type = typename stack_type::template class_type<0>;
      if constexpr (detail_sim::dl_scales<dl_type>::value) return in_dl_class(t) && !dl_type::throttled_of(t);
    }
    return in_dl_class(t);
  }
  sched_time dl_deadline(const task_type& t) const {
    if constexpr (dl_class_) {
      using dl_type = typename stack_type::template class_type<0>;
      if constexpr (detail_sim::dl_scales<dl_type>::value) return dl_type::deadline_of(t);
    }
    (void)t;
    return sched_time{};
  }
  /// Whether `t` is in the real-time class (fifo/rr; deadline tasks too when the stack has no
  /// deadline class).
  bool is_rt(const task_type& t) const { return !is_fair(t) && !in_dl_class(t); }
  /// An RT task's priority as cpupri ranks it (rt_priority 1..99; a deadline task run by the
  /// RT class for want of a deadline class is FIFO 99), and a CPU's: the highest priority of
  /// its queued RT tasks (running one included; `except` left out), 0 for none (5.11+ ranks an
  /// idle CPU with one running only fair tasks: no CPUPRI_IDLE), and above every RT level
  /// (CPUPRI_HIGHER, 5.11+) while a runnable reservation is queued there.
  static int rt_level(const task_type& t) {
    return t.params.kind == sched_kind::fifo || t.params.kind == sched_kind::rr ? t.params.rt_priority : rt_priority_max;
  }
  static constexpr int cpupri_higher = rt_priority_max + 1;
  int cpu_rt_level(int k, const task_type* except, bool count_dl = true) {
    int level = 0;
    for (const task_type* q : cpu(k).queued) {
      if (q == except) continue;
      if (count_dl && dl_runnable(*q)) return cpupri_higher;
      if (is_rt(*q)) level = std::max(level, rt_level(*q));
    }
    return level;
  }
  /// rt_task_fits_capacity (5.6+): the CPU's capacity covers min(uclamp_min, uclamp_max) of the
  /// task; RT tasks' default uclamp_min is uclamp_rt_min_default (1024: only the biggest CPUs
  /// fit, unless the sysctl lowers it, as Android does).
  bool rt_fits(const task_type& t, int k) const {
    return cap_[static_cast<std::size_t>(k)] >= std::min(uclamp_eff(t, 0), uclamp_eff(t, 1));
  }
  /// A waking RT task's CPU (select_task_rq_rt; the capacity test 5.6+, always true on a
  /// symmetric machine): it stays on its previous CPU, preempting what runs there, unless that
  /// CPU runs a task of at least its priority (an RT task of higher or equal priority, a
  /// deadline task, or one pinned there) or does not fit it; then
  /// find_lowest_rq: the allowed CPUs of the lowest cpupri level below its priority at which
  /// some CPU fits (cpupri_find_fitness), or of the lowest level at all if none fits anywhere,
  /// and pick_among() them (the previous CPU, else `this_cpu`, else the next one from
  /// this_cpu's cursor). It moves there
  /// when that CPU's highest RT priority is below its own, except that a move made only for
  /// fitness is not made to a CPU that does not fit either. An idle CPU ranks with one running
  /// a fair task: an RT task that may preempt its previous CPU's fair task does, beside an idle
  /// CPU; the idle-balance kick then moves the fair task (as nohz_balancer_kick does).
  int select_rt_cpu(const task_type& t, int this_cpu) {
    const int prev = t.cpu;
    const task_type* curr = cpu(prev).curr;
    const bool test = curr != nullptr && curr != &t && !is_fair(*curr) &&
                      (in_dl_class(*curr) || rt_level(*curr) >= rt_level(t) || allowed_cpus(*curr) < 2);
    const bool fits = rt_fits(t, prev);
    if (!test && fits) return prev;
    const int target = find_lowest_rt(t, this_cpu);
    if (target < 0) return prev;
    if (!test && !rt_fits(t, target)) return prev;
    return rt_level(t) > cpu_rt_level(target, &t) ? target : prev;
  }
  /// find_lowest_rq with cpupri_find_fitness (5.10+): -1 when no allowed CPU is below `t`'s
  /// priority (or it may run on one CPU only). `this_cpu`: the CPU it runs on.
  int find_lowest_rt(const task_type& t, int this_cpu) {
    if (allowed_cpus(t) < 2) return -1;
    const int mine = rt_level(t);
    // The lowest level below mine with a fitting CPU, else the lowest level at all, and the
    // allowed CPUs at each (the fitting ones for the first).
    int fit_level = mine, any_level = mine;
    std::uint64_t fit = 0, any = 0;
    for (int k = 0; k < ncpu_; ++k) {
      if (!allowed(t, k)) continue;
      const int level = cpu_rt_level(k, &t);
      const std::uint64_t bit = std::uint64_t{1} << k;
      if (level < any_level) {
        any_level = level;
        any = 0;
      }
      if (level == any_level && level < mine) any |= bit;
      if (!rt_fits(t, k)) continue;
      if (level < fit_level) {
        fit_level = level;
        fit = 0;
      }
      if (level == fit_level && level < mine) fit |= bit;
    }
    return pick_among(fit != 0 ? fit : any, t.cpu, this_cpu);
  }
  /// The choice find_lowest_rq and find_later_rq make among their candidate CPUs `mask` (one
  /// scheduling domain spanning the machine, SD_WAKE_AFFINE): the task's previous CPU (cache
  /// hot), else `this_cpu`, the CPU running the search ("cheaper to preempt than a remote
  /// processor"), else cpumask_any_and_distribute (5.11+): the first candidate after
  /// this_cpu's cursor, wrapping, which then moves there, so that successive searches from one
  /// CPU spread over the candidates. -1 for an empty mask.
  int pick_among(std::uint64_t mask, int prev, int this_cpu) {
    if (mask == 0) return -1;
    if (prev >= 0 && ((mask >> prev) & 1u) != 0) return prev;
    if (this_cpu >= 0 && ((mask >> this_cpu) & 1u) != 0) return this_cpu;
    return any_and_distribute(mask, this_cpu);
  }
  /// cpumask_any_and_distribute run on CPU `this_cpu`: the first CPU of `mask` after that CPU's
  /// cursor, wrapping, which then moves there. -1 for a mask without a CPU of the machine.
  int any_and_distribute(std::uint64_t mask, int this_cpu) {
    int& cursor = distribute_prev_[static_cast<std::size_t>(this_cpu >= 0 ? this_cpu : 0)];
    for (int i = 1; i <= ncpu_; ++i) {
      const int k = (cursor + i) % ncpu_;
      if (((mask >> k) & 1u) != 0) return cursor = k;
    }
    return -1;
  }
  /// Once every switch asked for has been made, no runnable task is on a CPU its affinity
  /// leaves out (checked after each event in the fuzz builds, for workloads that change
  /// affinity). O(CPUs x queued tasks).
  bool affinity_respected() const {
    for (int k = 0; k < ncpu_; ++k)
      for (const task_type* q : cpus_[static_cast<std::size_t>(k)].queued)
        if (!allowed(*q, k)) return false;
    return true;
  }
  /// The running task `t` on CPU ci sets its own affinity (sched_setaffinity; rt-app's
  /// set_thread_affinity as a phase begins). The mask is in force at once. If ci is no longer in
  /// it, the task leaves ci as __set_cpus_allowed_ptr_locked has the migration stopper move it:
  /// preempted here, then queued (not running) on cpumask_any_and_distribute's choice among the
  /// allowed CPUs, where it waits its turn and goes on with its program. True when it leaves (the
  /// caller stops running its program here). A task already on an allowed CPU stays.
  /// A SCHED_DEADLINE task's mask that leaves out a CPU of its root domain is refused while
  /// admission control is on (sched_setaffinity's EBUSY, dl_affinity_refused): a workload error
  /// naming the task, as rt-app stops when pthread_setaffinity_np fails. With partitions the
  /// mask is cut to the task's cpuset (its domain's CPUs); nothing left is EINVAL, an error too.
  bool set_affinity(task_type& t, int ci, std::uint64_t asked) {
    const std::uint64_t mask = asked & t.cold->domain;
    if (mask == 0)
      fail_at(w_.tasks[static_cast<std::size_t>(t.spec)],
              "task '" + name_of(t) + "': a phase asks for CPUs {" + cpu_list(asked) + "} at " + std::to_string(now_) +
                  " ns, none of them in its cpuset's root domain {" + cpu_list(t.cold->domain) +
                  "}: sched_setaffinity fails with EINVAL and rt-app stops (a task does not change cpusets)");
    if (mask == t.affinity) return false;
    check_dl_affinity(t, t.cold->own_params.kind, mask, false);
    t.affinity = mask;
    if (allowed(t, ci)) return false;
    t.cold->affinity_to = any_and_distribute(mask, ci);
    resched(ci);
    return true;
  }
  /// Whether Linux refuses a task of policy `kind` the affinity `mask`: while admission control
  /// is on (the deadline class's `admission_enabled`, dl_bandwidth_enabled), a SCHED_DEADLINE
  /// task must be allowed on every CPU of its root domain `domain` (the machine, or its
  /// partition), since its bandwidth is accounted there. Never without a deadline class (the
  /// SCHED_FIFO 99 stand-in has no admission). O(1).
  bool dl_affinity_refused(sched_kind kind, std::uint64_t mask, std::uint64_t domain) {
    if constexpr (detail_sim::binding_has_dl<Binding>::value) {
      return kind == sched_kind::deadline && (domain & ~mask) != 0 && cpu(0).rq.template get<0>().admission_enabled();
    } else {
      (void)kind;
      (void)mask;
      (void)domain;
      return false;
    }
  }
  /// Stops the run with a workload error naming `t`, its CPUs and the instant when Linux would
  /// refuse it policy `kind` with affinity `mask` (dl_affinity_refused): `setattr`, a change of
  /// policy (sched_setattr's EPERM); otherwise a change of affinity (sched_setaffinity's EBUSY).
  void check_dl_affinity(const task_type& t, sched_kind kind, std::uint64_t mask, bool setattr) {
    const std::uint64_t domain = t.cold->domain;
    if (!dl_affinity_refused(kind, mask, domain)) return;
    const char* how = setattr ? "sched_setattr fails with EPERM (__sched_setscheduler)"
                              : "sched_setaffinity fails with EBUSY (dl_task_check_affinity)";
    const std::string where = domain == all_cpus() ? "of the machine's " + std::to_string(ncpu_)
                                                   : "of its root domain's {" + cpu_list(domain) + "}";
    fail_at(w_.tasks[static_cast<std::size_t>(t.spec)],
            "task '" + name_of(t) + "': SCHED_DEADLINE with affinity to CPUs {" + cpu_list(mask) + "} " + where + " at " +
                std::to_string(now_) + " ns: " + how +
                ", as admission control accounts a deadline task's bandwidth on its whole root domain; rt-app stops. "
                "Pin deadline tasks to a partition of their own (--partition CPUS: an exclusive cpuset) or with admission "
                "off (--dl-bound -1: sched_rt_runtime_us = -1)");
  }
  int least_loaded(const task_type& t, int prefer) {
    int best = -1;
    std::size_t best_n = 0;
    if (prefer >= 0 && allowed(t, prefer)) {
      best = prefer;
      best_n = load(prefer);
    }
    for (int ci = 0; ci < ncpu_; ++ci) {
      if (!allowed(t, ci)) continue;
      const std::size_t n = load(ci);
      if (best < 0 || n < best_n) {
        best = ci;
        best_n = n;
      }
    }
    return best;
  }
  /// CPU ci's task count as the balancer and the wakeup fallback read it (rq->nr_running): its
  /// queued tasks, running included, less those under a throttled cpu.max group, which the
  /// kernel takes off nr_running at the throttle (throttle_cfs_rq) and puts back at the
  /// unthrottle. A CPU whose every task is throttled counts as idle.
  std::size_t load(int ci) const {
    const cpu_state& c = cpus_[static_cast<std::size_t>(ci)];
    const std::size_t queued = c.queued.size();
    if constexpr (detail_sim::grouped<fair_class>::value) {
      if (any_cpu_max_) {
        const auto& fair = c.rq.template get<stack_type::nr_classes - 1>();
        return queued - (fair.nr_runnable() - fair.nr_unthrottled());
      }
    }
    return queued;
  }

  // ---------------------------------------------------------------- RT_RUNTIME_SHARE
  /// The real-time class: the second least important of the stack.
  using rt_class = typename stack_type::template class_type<stack_type::nr_classes - 2>;
  /// Installs RT_RUNTIME_SHARE's borrowing hook on every CPU's RT class (machine_model::rt_runtime_share).
  /// A CPU borrows within its root domain only (do_balance_runtime walks rd->span and divides by
  /// its weight): the RT classes are listed per domain, and each class's hook context is its list.
  void share_rt_runtime() {
    if constexpr (detail_sim::shares_rt_runtime<rt_class>::value) {
      rt_domains_.assign(static_cast<std::size_t>(ncpu_), {});  // by the domain's first CPU; sized once (hooks keep pointers)
      for (int c = 0; c < ncpu_; ++c)
        rt_domains_[static_cast<std::size_t>(root_cpu(c))].push_back(&cpu(c).rq.template get<stack_type::nr_classes - 2>());
      for (int c = 0; c < ncpu_; ++c)
        cpu(c).rq.template get<stack_type::nr_classes - 2>().set_runtime_share(&engine::borrow_rt_runtime,
                                                                                &rt_domains_[static_cast<std::size_t>(root_cpu(c))]);
    } else {
      throw workload_error("rt_runtime_share needs a real-time class with per-CPU runtime (rt_policy)");
    }
  }
  /// Each CPU's deadline class passes its run time to the same CPU's RT class, which counts it
  /// against the RT throttling budget (update_curr_dl up to Linux 6.11: "we share the rt
  /// bandwidth"; with `--rt-runtime -1` nothing is counted).
  void share_rt_bandwidth_with_deadline() {
    if constexpr (dl_class_ && detail_sim::shares_rt_bandwidth<rt_class>::value) {
      using dl_type = typename stack_type::template class_type<0>;
      if constexpr (detail_sim::reports_run_time<dl_type>::value) {
        for (int c = 0; c < ncpu_; ++c)
          cpu(c).rq.template get<0>().set_run_time_sink(&engine::charge_rt_bandwidth,
                                                         &cpu(c).rq.template get<stack_type::nr_classes - 2>());
      }
    }
  }
  /// The sink: deadline run time into an RT class's budget.
  static void charge_rt_bandwidth(void* rt, duration_ns ran, sched_time now) noexcept {
    static_cast<rt_class*>(rt)->charge_shared(ran, now);
  }
  /// The hook: `borrower` takes runtime from every other RT class of its root domain (`domain`,
  /// the list share_rt_runtime gave it; balance_rt_runtime).
  static void borrow_rt_runtime(void* domain, rt_class& borrower, sched_time now) noexcept {
    const std::vector<rt_class*>& rqs = *static_cast<const std::vector<rt_class*>*>(domain);
    balance_rt_runtime(borrower, rqs.data(), rqs.size(), now);
  }

  // ---------------------------------------------------------------- lifecycle
  void start(task_type& t, task_type* parent) {
    const int ci = least_loaded(t, parent != nullptr ? parent->cpu : -1);
    t.cpu = ci;
    t.cold->recent_used_cpu = parent != nullptr ? parent->cpu : -1;  // wake_up_new_task: the forking CPU
    bind_group(ci, t);
    setup_params(t, ci);
    // rt-app sets the policy with every CPU allowed, then the task's affinity (EBUSY).
    check_dl_affinity(t, t.cold->own_params.kind, t.affinity, false);
    cpu_state& c = cpu(ci);
    pelt_before_change(ci, nullptr);
    pelt_track(ci, t);
    c.rq.task_new(t, parent, st(now_));
    c.rq.enqueue(t, st(now_), enqueue_flags::initial);
    rq_add(ci, t);
    t.state = task_core::st::runnable;
    t.cold->start_ns = now_;
    t.wait_since = now_;
    t.lat_pending = true;
    t.woke_at = now_;
    t.action = task_core::act::step;
    t.ph = 0;
    t.ev = 0;
    t.phase_loops_left = specs_[static_cast<std::size_t>(t.spec)].phases[0].loop;
    if (cfg_.trace != nullptr) {
      const int wcpu = parent != nullptr ? parent->cpu : ci;
      cfg_.trace->wakeup(now_, wcpu, who(wcpu), comm_of(t), t.pid, prio(t), ci, true);
    }
    check_preempt(ci, t);
    push_woken(ci, t);  // wake_up_new_task's task_woken
  }

  void setup_params(task_type& t, int ci) {
    const errc e = bind_setup(ci, t, t.params);
    if (e == errc::ok) return;
    refuse_params(t, ci, t.params, e, std::string());
  }
  /// Stops the run: `t`'s classes refused parameters `p` (error `e`), at its start (`when`
  /// empty) or in a change `when` describes. A refusal by the policy under test is a
  /// policy_refusal (compare leaves the policy's row out); a deadline refusal is the file's.
  [[noreturn]] void refuse_params(const task_type& t, int ci, const sched_params& p, errc e, const std::string& when) {
    std::string why;
    if (p.kind == sched_kind::deadline && e == errc::overloaded)
      why = "SCHED_DEADLINE admission control refused it: the deadline bandwidth (sum of runtime/period) would "
            "exceed the root domain's cap (the bound, " + std::to_string(cfg_.machine.dl_bound_pct) + " %, x " +
            (asym_ ? "the capacity of its " : "its ") + std::to_string(__builtin_popcountll(domain_of(ci))) + " CPU" +
            (__builtin_popcountll(domain_of(ci)) == 1 ? "" : "s") +
            (domain_of(ci) == all_cpus() ? std::string() : " {" + cpu_list(domain_of(ci)) + "}") + "; --dl-bound sets the bound)";
    else if (p.kind == sched_kind::deadline)
      why = std::string("the deadline class refused its runtime/deadline/period (") + to_string(e) +
            "; it needs runtime >= 1024 ns, runtime <= deadline <= period, period in [100 us, 4.19 s])";
    else
      why = std::string("the policy refused its scheduling parameters (") + detail_sim::kind_name(p.kind) +
            (p.kind == sched_kind::fifo || p.kind == sched_kind::rr
                 ? ", rt_priority " + std::to_string(p.rt_priority)
                 : ", nice " + std::to_string(p.nice)) +
            ": " + to_string(e) + ")";
    const task_spec& ts = w_.tasks[static_cast<std::size_t>(t.spec)];
    const std::string msg = "task '" + name_of(t) + "': " + when + why;
    if (p.kind == sched_kind::deadline) fail_at(ts, msg);
    if (ts.origin.empty()) throw policy_refusal(msg);
    throw policy_refusal(ts.origin + ": " + msg, true);
  }

  /// A workload error about a task only a run can find, led by the task's origin in its file.
  [[noreturn]] static void fail_at(const task_spec& ts, const std::string& msg) {
    if (ts.origin.empty()) throw workload_error(msg);
    throw workload_error(ts.origin + ": " + msg, true);
  }

  /// The binding's setup, with ci's root domain (its lowest CPU's stack) when it does admission.
  errc bind_setup(int ci, task_type& t, const sched_params& p) {
    errc e;
    if constexpr (detail_sim::root_admission<Binding>::value) {
      e = Binding::setup(cpu(ci).rq, cpu(root_cpu(ci)).rq, t, p, st(now_));
    } else {
      e = Binding::setup(cpu(ci).rq, t, p, st(now_));
    }
    if (e == errc::ok && p.kind == sched_kind::deadline && p.dl_overrun) t.cold->reports_overrun = true;
    return e;
  }
  void bind_task_dead(int ci, task_type& t) {
    if constexpr (detail_sim::root_admission<Binding>::value) {
      Binding::task_dead(cpu(ci).rq, cpu(root_cpu(ci)).rq, t, st(now_));
    } else {
      cpu(ci).rq.task_dead(t, st(now_));
    }
  }

  void check_preempt(int ci, task_type& t) {
    cpu_state& c = cpu(ci);
    if (c.curr == nullptr) {
      resched(ci);
    } else if (c.curr != &t && c.rq.wakeup_preempt(t, *c.curr, st(now_))) {
      resched(ci);
    }
  }

  /// `t` (blocked) becomes runnable. `waker_cpu` is the CPU of the waking task (-1: a timer
  /// or a device completion, i.e. interrupt context: `enqueue_flags::interrupt`).
  void wake(task_type& t, int waker_cpu, enqueue_flags extra = enqueue_flags::none, bool sync = false) {
    // A sleeper its class still holds (EEVDF's delayed dequeue) is woken where it is queued, as
    // the kernel's ttwu_runnable() does: no CPU selection, no migration.
    // A timer or device interrupt is taken on the CPU the task slept on (its hrtimer was armed
    // there while it ran), so the wakeup runs there.
    const int this_cpu = waker_cpu >= 0 ? waker_cpu : std::max(t.cpu, 0);
    const int ci = t.cpu >= 0 && cpu(t.cpu).rq.delayed(t) ? t.cpu : select_wake_cpu(t, this_cpu, sync && waker_cpu >= 0);
    enqueue_flags f = (waker_cpu < 0 ? enqueue_flags::wakeup | enqueue_flags::interrupt : enqueue_flags::wakeup) | extra;
    const int orig_cpu = t.cpu;
    if (t.cpu != ci) {
      if (t.cpu >= 0) {
        ++t.migrations;
        cpu(t.cpu).rq.migrate_task_rq(t, st(now_));  // the old queue's last look (its class's clock)
      }
      f = f | enqueue_flags::migrated;
      t.cpu = ci;
    }
    if (cfg_.trace != nullptr) {
      const int wc = this_cpu;  // the waker's CPU, or the one whose interrupt woke the task
      cfg_.trace->waking(now_, wc, who(wc), comm_of(t), t.pid, prio(t), ci);
      if (orig_cpu >= 0 && orig_cpu != ci) cfg_.trace->migrate_task(now_, wc, who(wc), comm_of(t), t.pid, prio(t), orig_cpu, ci);
    }
    pelt_before_change(ci, &t);
    bind_group(ci, t);
    pelt_track(ci, t);
    cpu(ci).rq.enqueue(t, st(now_), f);
    // enqueue_task_fair's cpufreq_update_util(SCHED_CPUFREQ_IOWAIT) for a task in_iowait
    rq_add(ci, t, has(f, enqueue_flags::uninterruptible) && is_fair(t));
    t.state = task_core::st::runnable;
    t.wait_since = now_;
    t.lat_pending = true;
    t.woke_at = now_;
    // A PI boost that changed while its class still held it asleep (pi_apply), now that it is queued.
    if (w_.priority_inheritance && t.cold->pi_pending) {
      pi_cpu_ = ci;
      pi_apply(t, pi_lend{t.cold->pi_level, t.cold->pi_donor});
    }
    if (cfg_.trace != nullptr) {
      const int wc = this_cpu;
      cfg_.trace->wakeup(now_, wc, who(wc), comm_of(t), t.pid, prio(t), ci, false);
    }
    check_preempt(ci, t);
    push_woken(ci, t);
  }

  // ---------------------------------------------------------------- RT and deadline push / pull
  // The kernel's SMP real-time balancing (kernel/sched/rt.c, deadline.c): the fair balancer
  // never moves RT or deadline tasks; these do, at once, at the points where one of them can
  // come to wait while a CPU runs something of lower priority:
  // - push: a task woken behind a running task of at least its priority (task_woken_rt /
  //   task_woken_dl), after every switch to an RT or deadline task (the balance callback that
  //   set_next_task_{rt,dl} queues: a preempted task is pushable now), and after a
  //   replenishment (dl_task_timer). The waiting, migratable task of highest priority (earliest
  //   deadline) goes to find_lowest_rq's (find_later_rq's) CPU if it outranks what that CPU
  //   runs, and again while one does (push_rt_tasks, push_dl_tasks).
  // - pull: when a CPU's RT (deadline) task stops being queued there, before the next pick
  //   (balance_rt / balance_dl): from every CPU with two or more queued tasks of the class, one
  //   migratable, in index order, the best waiting task that outranks this CPU's best and would
  //   not run at once where it is (pull_rt_task, pull_dl_task). Also when the running task
  //   lowers its priority or leaves its class (pull_after_change).
  // Together they keep global fixed priority (the M highest RT priorities run on M CPUs) and
  // global EDF among reservations, as far as the kernel's own triggers do: an RT task left
  // waiting behind a reservation that preempted it is not pushed (nothing in the kernel does;
  // since 6.7 another CPU's pull could take it, see overloaded()), and a running reservation whose deadline is renewed without a throttle does not pull. Ties:
  // the task that waited longest, then creation order. RT throttling is not consulted.

  /// Whether CPU ci has two or more queued tasks of a class (`in_class`), one of them
  /// migratable (rt_rq->overloaded / dl_rq->overloaded, which set the root domain's rto / dlo
  /// masks, as before Linux 6.7; since 612f769edd06 / 5fe7765997b1 one queued, not running,
  /// migratable task is enough, which this does not model).
  template <class InClass>
  bool overloaded(int ci, InClass in_class) {
    int n = 0;
    bool migratable = false;
    for (const task_type* q : cpu(ci).queued) {
      if (!in_class(*q)) continue;
      ++n;
      migratable = migratable || allowed_cpus(*q) > 1;
    }
    return n > 1 && migratable;
  }
  bool overloaded_rt(int ci) { return overloaded(ci, [this](const task_type& q) { return is_rt(q); }); }
  bool overloaded_dl(int ci) { return overloaded(ci, [this](const task_type& q) { return dl_runnable(q); }); }
  /// Ranks two waiting tasks of one class: a before b.
  static bool waited_longer(const task_type& a, const task_type& b) {
    return a.wait_since < b.wait_since || (a.wait_since == b.wait_since && a.id < b.id);
  }
  /// The waiting (queued, not running) migratable RT task of highest priority on CPU ci that
  /// may run on CPU `on` (-1: anywhere): pick_next_pushable_task, pick_highest_pushable_task.
  task_type* best_waiting_rt(int ci, int on) {
    task_type* best = nullptr;
    for (task_type* q : cpu(ci).queued) {
      if (!is_rt(*q) || q == cpu(ci).curr || allowed_cpus(*q) < 2 || (on >= 0 && !allowed(*q, on))) continue;
      if (best == nullptr || rt_level(*q) > rt_level(*best) || (rt_level(*q) == rt_level(*best) && waited_longer(*q, *best)))
        best = q;
    }
    return best;
  }
  /// The same for reservations: the earliest deadline (pick_earliest_pushable_dl_task).
  task_type* best_waiting_dl(int ci, int on) {
    task_type* best = nullptr;
    for (task_type* q : cpu(ci).queued) {
      if (!dl_runnable(*q) || q == cpu(ci).curr || allowed_cpus(*q) < 2 || (on >= 0 && !allowed(*q, on))) continue;
      if (best == nullptr || dl_deadline(*q) < dl_deadline(*best) ||
          (!(dl_deadline(*best) < dl_deadline(*q)) && waited_longer(*q, *best)))
        best = q;
    }
    return best;
  }

  /// After `t` woke on CPU ci: task_woken_rt / task_woken_dl. When it does not preempt the RT
  /// or deadline task running there (that one outranks it or is pinned there), the CPU pushes.
  void push_woken(int ci, task_type& t) {
    const cpu_state& c = cpu(ci);
    const task_type* curr = c.curr;
    if (c.need_resched || curr == nullptr || curr == &t || allowed_cpus(t) < 2) return;
    if (in_dl_class(t)) {
      if (!in_dl_class(*curr)) return;
      if (allowed_cpus(*curr) >= 2 && dl_deadline(t) < dl_deadline(*curr)) return;
      push_dl(ci);
    } else if (is_rt(t)) {
      if (is_fair(*curr)) return;
      if (allowed_cpus(*curr) >= 2 && !in_dl_class(*curr) && rt_level(*curr) < rt_level(t)) return;
      push_rt(ci);
    }
  }
  /// push_rt_tasks: CPU ci gives its best waiting RT task to the lowest-ranked CPU below it,
  /// while there is one. Each move puts a task on a CPU of strictly lower rank, so it ends.
  void push_rt(int ci) {
    while (overloaded_rt(ci)) {
      task_type* next = best_waiting_rt(ci, -1);
      if (next == nullptr) return;
      const task_type* curr = cpu(ci).curr;
      if (curr == nullptr || (is_rt(*curr) ? rt_level(*next) > rt_level(*curr) : !in_dl_class(*curr))) {
        resched(ci);  // it outranks what runs here: it runs here
        return;
      }
      const int target = find_lowest_rt(*next, ci);
      if (target < 0 || target == ci || !(rt_level(*next) > cpu_rt_level(target, nullptr))) return;
      migrate(ci, target, *next, false, ci);
      ++rt_pushes_;
    }
  }
  /// pull_rt_task: CPU ci, whose best RT priority just fell, takes from each overloaded CPU
  /// the best waiting task that outranks its own best and would not run at once where it is.
  void pull_rt(int ci) {
    for (int k = 0; k < ncpu_; ++k) {
      if (k == ci || !overloaded_rt(k)) continue;
      task_type* p = best_waiting_rt(k, ci);
      if (p == nullptr || !(rt_level(*p) > cpu_rt_level(ci, nullptr, false))) continue;
      const task_type* src = cpu(k).curr;
      if (src == nullptr || (is_rt(*src) && rt_level(*p) > rt_level(*src)) || is_fair(*src)) continue;
      migrate(k, ci, *p, true, ci);
      ++rt_pulls_;
    }
  }
  /// push_dl_tasks: CPU ci gives its earliest waiting reservation to find_later_rq's CPU
  /// while that CPU has none or only later deadlines.
  void push_dl(int ci) {
    while (overloaded_dl(ci)) {
      task_type* next = best_waiting_dl(ci, -1);
      if (next == nullptr) return;
      const task_type* curr = cpu(ci).curr;
      if (curr == nullptr || !in_dl_class(*curr) || (dl_deadline(*next) < dl_deadline(*curr) && allowed_cpus(*curr) > 1)) {
        resched(ci);
        return;
      }
      const int target = find_later_dl(*next, ci);
      if (target < 0 || target == ci) return;
      sched_time earliest{};
      if (earliest_dl(target, nullptr, earliest) && !(dl_deadline(*next) < earliest)) return;
      migrate(ci, target, *next, false, ci);
      ++dl_pushes_;
    }
  }
  /// pull_dl_task: CPU ci, whose reservation stopped being queued (blocked, throttled, gone),
  /// takes from each overloaded CPU the earliest waiting reservation that is earlier than its
  /// own earliest and than the one it pulled before, unless it would run at once where it is.
  void pull_dl(int ci) {
    bool pulled = false;
    sched_time dmin{};
    for (int k = 0; k < ncpu_; ++k) {
      if (k == ci || !overloaded_dl(k)) continue;
      task_type* p = best_waiting_dl(k, ci);
      if (p == nullptr || (pulled && !(dl_deadline(*p) < dmin))) continue;
      sched_time mine{};
      if (earliest_dl(ci, nullptr, mine) && !(dl_deadline(*p) < mine)) continue;
      const task_type* src = cpu(k).curr;
      if (src == nullptr || !in_dl_class(*src) || dl_deadline(*p) < dl_deadline(*src)) continue;
      migrate(k, ci, *p, true, ci);
      ++dl_pulls_;
      pulled = true;
      dmin = dl_deadline(*p);
    }
  }

  /// The running task `t` stops being runnable (block or exit).
  void leave_rq(task_type& t, dequeue_flags f) {
    const int ci = t.cpu;
    pelt_before_change(ci, &t);
    cpu(ci).rq.dequeue(t, st(now_), f);
    rq_remove(ci, t);
    resched(ci);
  }

  void block(task_type& t) {
    const int ci = t.cpu;
    leave_rq(t, dequeue_flags::sleep);  // brings its signal up to now
    t.state = task_core::st::blocked;
    // util_est_update(task_sleep). Its "the task waited" test compares util with runnable, both
    // in the kernel's clock_pelt time, which runs at the CPU's speed while it is busy: here util
    // is scaled by the speed and runnable counts wall time, so runnable is scaled by the CPU's
    // current speed first. Unscaled, a task running alone at a low frequency or on a little CPU
    // (util 205, runnable 512 at 40 % speed) would look as if it had waited, and every sample
    // would be skipped: its estimate would never come down from its fork-time value.
    if (util_est_ && t.cold->pelt_born && is_fair(t)) {
      const std::uint64_t runnable = t.cold->pelt.runnable_avg * speed_[static_cast<std::size_t>(ci)] / cpu_capacity_max;
      util_est_dequeue_sleep(t.cold->util_est, t.cold->pelt.util_avg, static_cast<std::uint32_t>(runnable),
                             cap_[static_cast<std::size_t>(ci)]);
    }
  }

  /// How a timed sleep ends, for the woken task's policy (carried in the wake event's `gen`).
  enum wake_kind : std::uint64_t {
    wake_timer = 0,            ///< a timer: interrupt context
    wake_timekeeper = 1,       ///< interbench's timekeeper thread posts a semaphore: process context
    wake_uninterruptible = 2,  ///< a device completion ends a TASK_UNINTERRUPTIBLE sleep
  };
  /// Blocks `t` until `when` (see wake_kind; the timekeeper itself is not simulated).
  void sleep_until(task_type& t, std::int64_t when, wake_kind how = wake_timer) {
    block(t);
    t.in_io = how == wake_uninterruptible;
    push(when, ev_wake, t.id, how);
  }

  void die(task_type& t) {
    leave_rq(t, dequeue_flags::dead);
    pelt_untrack(t);
    bind_task_dead(t.cpu, t);
    // Mutexes it still holds (a program error, noted): a PI mutex with waiters goes to its top
    // waiter, as the kernel's exit_pi_state_list unlocks each rt_mutex an exiting task owns;
    // any other stays taken by the dead task, so its waiters and later lockers wait forever
    // (a non-robust pthread mutex; glibc parks a PI locker that finds the owner gone, ESRCH).
    for (std::size_t mid = 0; mid < mutexes_.size(); ++mid) {
      mutex_res& m = mutexes_[mid];
      if (m.owner != &t) continue;
      const bool handed = w_.priority_inheritance && !m.waiters.empty();
      exits_holding_.push_back("task '" + name_of(t) + "' exited at " + std::to_string(now_) + " ns holding mutex '" +
                               mutex_names_[mid] + "': " +
                               (handed ? "its top waiter takes it (the kernel unlocks a PI futex its owner leaves)"
                                       : "it stays taken, and " + std::to_string(m.waiters.size()) +
                                             " waiting and any later locker wait forever (no robust mutexes)"));
      if (handed) {
        m.owner = nullptr;
        pi_wake_top(static_cast<int>(mid), t.cpu);
      }
    }
    t.state = task_core::st::dead;
    t.cold->exit_ns = now_;
    if (!w_.tasks[static_cast<std::size_t>(t.spec)].daemon) {
      --foreground_;
      last_exit_ = now_;
      if (foreground_ == 0) done_ = true;
    }
  }

  // ---------------------------------------------------------------- schedule
  /// Passes over the CPUs in index order, rescheduling each flagged one, until none is flagged
  /// (a CPU flagged during a pass at an index already passed waits for the next pass).
  void flush_resched() {
    while (resched_mask_ != 0) {
      int ci = -1;
      for (;;) {
        const std::uint64_t m = ci >= 63 ? 0 : resched_mask_ & (~std::uint64_t{0} << (ci + 1));
        if (m == 0) break;
        ci = __builtin_ctzll(m);
        schedule(ci);
      }
    }
  }

  void schedule(int ci) {
    dvfs_mark(ci);
    cpu_state& c = cpu(ci);
    c.need_resched = false;
    const bool yielding = c.yielding;
    c.yielding = false;
    resched_mask_ &= ~(std::uint64_t{1} << ci);
    account(ci, now_);
    task_type* prev = c.curr;
    const bool prev_runnable = prev != nullptr && prev->state == task_core::st::running;
    pelt_before_change(ci, prev);
    if (prev_runnable) {
      c.rq.put_prev(*prev, st(now_));
      prev->state = task_core::st::runnable;
    }
    // The migration stopper's move of prev (at most one per switch): traced after prev's switch
    // line, as the kernel's stopper runs only once prev is off the CPU.
    int stopper_to = -1;
    if (prev != nullptr && prev->cold->affinity_to >= 0) {  // migration_cpu_stop after a change of affinity
      const int to = prev->cold->affinity_to;
      prev->cold->affinity_to = -1;
      if (prev_runnable && to != ci && allowed(*prev, to) && !allowed(*prev, ci)) {
        migrate(ci, to, *prev, false, ci, true);
        ++affinity_moves_;
        stopper_to = to;
      }
    }
    const task_type* pushed = nullptr;
    if (prev != nullptr && prev->cold->push_to >= 0) {  // an active balance (asymmetric capacity)
      const int to = prev->cold->push_to;
      prev->cold->push_to = -1;
      if (prev_runnable && stopper_to < 0 && to != ci && allowed(*prev, to) &&
          prev->sched_class == static_cast<int>(stack_type::nr_classes - 1)) {
        migrate(ci, to, *prev, false, ci, true);
        ++misfit_moves_;
        pushed = prev;
        stopper_to = to;
      }
    }
    if (prev != nullptr && ncpu_ > 1) pull_before_pick(ci, *prev, prev_runnable);
    if (c.queued.empty()) {
      // The task just pushed away ran until now: cache-hot (task_hot, sysctl_sched_migration_cost),
      // this CPU's newly-idle balance leaves it where the active balance put it.
      hot_ = pushed;
      balance(ci, true);
      hot_ = nullptr;
    }
    task_type* next = c.rq.pick_next(st(now_));
    if (next != nullptr) {
      pelt_sync_task(*next);  // queued, not running, until now
      c.rq.set_next(*next, st(now_));
    }
    if (next != prev) {
      ++c.switches;
      if (prev != nullptr) {
        ++prev->switches;
        prev->cache_cpu = ci;
        prev->cache_mark = c.busy;
        prev->last_ran = now_;
        if (prev_runnable) prev->wait_since = now_;
      }
      if (cfg_.trace != nullptr) {
        trace_switch(ci, prev, next, yielding);
        if (stopper_to >= 0)
          cfg_.trace->migrate_task(now_, ci, {"migration/" + std::to_string(ci), stopper_pid(ci)}, comm_of(*prev), prev->pid,
                                   prio(*prev), ci, stopper_to);
      }
      class_pelt_sync(ci);  // the class that ran until now
      const bool smt_turns = smt_ > 1 && (prev == nullptr) != (next == nullptr);  // busy <-> idle
      if (smt_turns) smt_siblings(ci, false);
      c.curr = next;
      if (next != nullptr) {
        next->state = task_core::st::running;
        const std::int64_t waited = now_ - next->wait_since;
        next->wait_ns += waited;
        next->max_wait_ns = std::max(next->max_wait_ns, waited);
        if (next->lat_pending) {
          keep_sample(next->cold->lat, now_ - next->woke_at);
          next->lat_pending = false;
        }
        c.switch_at = now_;
        c.run_start = now_ + cfg_.machine.cs_cost_ns;
        // Cache refill owed by the incoming task (see the file comment).
        std::int64_t pen = next->refill;
        if (next->cache_cpu == ci) {
          const std::uint64_t x = c.busy - next->cache_mark;
          const std::uint64_t half = static_cast<std::uint64_t>(std::max<std::int64_t>(1, cfg_.machine.refill_half_ns));
          pen = static_cast<std::int64_t>(static_cast<std::uint64_t>(next->refill) * x / (x + half));
        }
        next->refill_debt = std::min(next->refill, next->refill_debt + pen);
        if (next->action == task_core::act::work) {
          next->remaining += next->refill_debt;
          next->refill_debt = 0;
        }
        arm_tick(ci);
      }
      if (smt_turns) smt_siblings(ci, true);
    } else if (next != nullptr) {
      next->state = task_core::st::running;
    }
    if (next != nullptr && ncpu_ > 1) {  // the balance callback of set_next_task_{rt,dl}
      if (in_dl_class(*next)) push_dl(ci);
      else if (is_rt(*next)) push_rt(ci);
    }
    arm_completion(ci);
    arm_class_timer(ci);
  }
  /// The time of the next queued event (INT64_MAX: none).
  std::int64_t next_event_time() const {
    std::int64_t t = INT64_MAX;
    if (!q_.empty()) t = q_.top().t;
    if (!tq_.empty()) t = std::min(t, tq_.top().t);
    return t;
  }
  /// run_config::audit_priority. A fair task the fair server runs counts as a reservation's
  /// work: RT tasks waiting behind it are not inversions (a reservation may still outrank it).
  void audit_priority() {
    for (int k = 0; k < ncpu_; ++k)
      for (const task_type* w : cpu(k).queued) {
        if (w == cpu(k).curr || !(is_rt(*w) || dl_runnable(*w))) continue;
        for (int j = 0; j < ncpu_; ++j) {
          if (!allowed(*w, j) || !outranks(*w, cpu(j).curr)) continue;
          // A fair task the fair server runs holds a deadline reservation's priority.
          if constexpr (detail_sim::has_fair_server<stack_type>::value) {
            if (cpu(j).curr != nullptr && cpu(j).rq.served() &&
                (!in_dl_class(*w) || !(dl_deadline(*w) < cpu(j).rq.fair_server().deadline())))
              continue;
          }
          if (priority_inversions_++ == 0) first_inversion_ns_ = now_;
          return;
        }
      }
  }
  /// Whether waiting task `w` (RT or a runnable reservation) should run instead of `r` (null:
  /// an idle CPU).
  bool outranks(const task_type& w, const task_type* r) const {
    if (r == nullptr || is_fair(*r)) return true;
    if (in_dl_class(w)) return !in_dl_class(*r) || dl_deadline(w) < dl_deadline(*r);
    return !in_dl_class(*r) && rt_level(w) > rt_level(*r);
  }
  /// balance_dl / balance_rt before CPU ci picks, `prev` having run there: when its reservation
  /// is no longer queued (or throttled) it pulls reservations, then, with no runnable
  /// reservation left, RT tasks; when its RT task left and its best RT priority fell, RT tasks.
  void pull_before_pick(int ci, const task_type& prev, bool prev_runnable) {
    if (in_dl_class(prev)) {
      if (prev_runnable && dl_runnable(prev)) return;
      pull_dl(ci);
      if (cpu_rt_level(ci, nullptr) < cpupri_higher) pull_rt(ci);
    } else if (is_rt(prev) && !prev_runnable && cpu_rt_level(ci, nullptr, false) < rt_level(prev)) {
      pull_rt(ci);
    }
  }

  /// `yielded`: prev called sched_yield, a voluntary schedule of a runnable task, which ftrace
  /// prints as R; a preempted one is R+ (TASK_REPORT_MAX).
  void trace_switch(int ci, task_type* prev, task_type* next, bool yielded) {
    std::string pstate = "R";
    if (prev != nullptr) {
      if (prev->state == task_core::st::dead) pstate = "X";
      else if (prev->state == task_core::st::blocked) pstate = prev->in_io ? "D" : "S";
      else pstate = yielded ? "R" : "R+";
    }
    cfg_.trace->sched_switch(now_, ci, prev != nullptr ? comm_of(*prev) : idle_comm(ci), prev != nullptr ? prev->pid : 0,
                             prev != nullptr ? prio(*prev) : 120, pstate,
                             next != nullptr ? comm_of(*next) : idle_comm(ci), next != nullptr ? next->pid : 0,
                             next != nullptr ? prio(*next) : 120);
  }
  /// a / b rounded toward minus infinity (b > 0): a slack of -1 ns is -1 us in the trace, an
  /// overrun, where C++'s division would print 0.
  static std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a / b - (a % b < 0 ? 1 : 0); }
  /// Every CPU of the machine, as an affinity mask (bit i = CPU i).
  std::uint64_t all_cpus() const { return all_cpus_of(ncpu_); }
  /// CPU ci's root domain (machine_model::partitions), bit i = CPU i.
  std::uint64_t domain_of(int ci) const { return domain_of_[static_cast<std::size_t>(ci)]; }
  /// Whether CPUs a and b share a root domain (the load balancer's sched domains never span
  /// two). O(1).
  bool same_domain(int a, int b) const { return (domain_of(a) >> b) & 1u; }
  /// The CPU whose deadline class does the admission of ci's root domain: its lowest.
  int root_cpu(int ci) const { return __builtin_ctzll(domain_of(ci)); }
  /// The CPUs of `mask` as "0,2,3".
  std::string cpu_list(std::uint64_t mask) const {
    std::string out;
    for (int k = 0; k < ncpu_; ++k)
      if ((mask >> k) & 1u) out += (out.empty() ? "" : ",") + std::to_string(k);
    return out;
  }
  static std::string idle_comm(int ci) { return "swapper/" + std::to_string(ci); }
  /// The pid the trace gives CPU ci's migration stopper, `migration/<ci>` (a kernel thread:
  /// below the workload's pids, which start at 1000; swapper is 0).
  static int stopper_pid(int ci) { return 100 + ci; }
  std::pair<std::string, int> who(int ci) {
    task_type* t = cpu(ci).curr;
    if (t == nullptr) return {"<idle>", 0};
    return {comm_of(*t), t->pid};
  }
  /// The priority ftrace prints for `t`: rt 99 - rt_priority, deadline -1, otherwise the
  /// policy's dynamic priority when it has one (`trace_prio`, the kernel's `p->prio`: o1, sd,
  /// nicksched), else 120 + nice (the fair classes' static priority, as the kernel prints it).
  int prio(const task_type& t) const {
    switch (t.params.kind) {
      case sched_kind::fifo:
      case sched_kind::rr: return rt_priority_max - t.params.rt_priority;
      case sched_kind::deadline: return -1;
      default: break;
    }
    using fair_type = typename stack_type::template class_type<stack_type::nr_classes - 1>;
    if constexpr (detail_sim::has_trace_prio<fair_type, task_type>::value) {
      if (t.cpu >= 0) return cpus_[static_cast<std::size_t>(t.cpu)].rq.template get<stack_type::nr_classes - 1>().trace_prio(t);
    }
    return 120 + t.params.nice;
  }

  // ---------------------------------------------------------------- balance
  void balance(int ci, bool newidle) {
    if (ncpu_ == 1) return;
    if (!newidle) update_idle_cpu_scan();
    if (eas_ && !overutilized()) return;  // energy placed the tasks: find_busiest_group's out_balanced
    const bool moved = balance_load_ && !newidle ? balance_by_load(ci) : balance_by_count(ci, newidle);
    if (asym_ && !moved) pull_misfit(ci);  // group_misfit_task ranks below an overloaded CPU
  }
  /// The balance by task count (the default, and every newly-idle pull): the busiest CPU gives
  /// its coldest queued task when it has two more (one more with machine.balance_failed).
  /// @return whether a task moved.
  bool balance_by_count(int ci, bool newidle) {
    int busiest = -1;
    std::size_t most = 0;
    for (int k = 0; k < ncpu_; ++k) {
      if (k == ci || !same_domain(ci, k)) continue;  // sched domains end at the root domain
      const std::size_t n = load(k);
      if (n > most && !all_pinned(k, ci)) {
        most = n;
        busiest = k;
      }
    }
    cpu_state& me = cpu(ci);
    if (busiest < 0) {
      me.balance_failed = 0;
      return false;
    }
    const std::size_t mine = load(ci);
    if (newidle ? most < 2 : most < mine + 2) {
      // A one-task imbalance between busy CPUs (busiest mine + 1, mine >= 1): moving a task
      // only swaps the roles, so it is left alone, unless machine.balance_failed > 0 and this
      // many periodic balances in a row have found it (the kernel's nr_balance_failed).
      const int limit = cfg_.machine.balance_failed;
      if (newidle || limit <= 0 || mine == 0 || most != mine + 1) {
        if (!newidle) me.balance_failed = 0;
        return false;
      }
      if (++me.balance_failed <= limit) return false;
    }
    cpu_state& b = cpu(busiest);
    task_type* pick = nullptr;
    for (task_type* t : b.queued) {
      // The fair balancer moves fair tasks only (RT and deadline tasks have push / pull).
      if (t == b.curr || t == hot_ || !is_fair(*t) || !allowed(*t, ci) || throttled_pair(*t, busiest, ci)) continue;
      // On an asymmetric machine an idle CPU fills its spare capacity (migrate_util): a task
      // whose util exceeds this CPU's capacity stays where it is.
      if (asym_ && is_fair(*t) && exceeds_capacity(*t, ci)) continue;
      if (pick == nullptr || colder(*t, *pick)) pick = t;
    }
    if (pick == nullptr) return false;
    if (!newidle) me.balance_failed = 0;
    migrate(busiest, ci, *pick, newidle, ci);
    return true;
  }

  /// Whether no fair task on CPU k could move to CPU ci: each is pinned away from it (or the
  /// pair is throttled). The kernel's load_balance finds that out on the busiest CPU
  /// (LBF_ALL_PINNED: detach_tasks met no task allowed on the destination, the running one
  /// included) and tries again without it; the balance here leaves such CPUs out of its choice,
  /// which picks the same CPU. O(tasks queued on k); O(1) when the first fair task may move.
  bool all_pinned(int k, int ci) {
    for (const task_type* t : cpu(k).queued)
      if (is_fair(*t) && allowed(*t, ci) && !throttled_pair(*t, k, ci)) return false;
    return true;
  }

  /// Balance order: the task that left a CPU longest ago first (its cache is the coldest), ties
  /// by creation order.
  static bool colder(const task_type& a, const task_type& b) {
    return a.last_ran < b.last_ran || (a.last_ran == b.last_ran && a.id < b.id);
  }

  /// Moves the queued, not running task `t` from CPU `from` to CPU `to`, on CPU `by`'s behalf;
  /// `stopper`: by CPU `by`'s migration stopper thread (a change of affinity, an active balance),
  /// whose line schedule() writes after the switch away from `t`, named as the kernel's
  /// (`migration/N`, stopper_pid).
  void migrate(int from, int to, task_type& t, bool newidle, int by, bool stopper = false) {
    if (cfg_.trace != nullptr && !stopper) cfg_.trace->migrate_task(now_, by, who(by), comm_of(t), t.pid, prio(t), from, to);
    cpu_state& b = cpu(from);
    pelt_before_change(from, &t);
    b.rq.dequeue(t, st(now_), dequeue_flags::migrating);
    rq_remove(from, t);
    // The dequeue charged the busiest CPU's running task; if that ended its request or
    // throttled its class, that CPU reschedules now, not at its next tick.
    if (b.rq.take_resched()) resched(from);
    t.cpu = to;
    ++t.migrations;
    pelt_before_change(to, nullptr);
    bind_group(to, t);
    pelt_track(to, t);
    cpu(to).rq.enqueue(t, st(now_), enqueue_flags::migrated);
    rq_add(to, t);
    if (!newidle) check_preempt(to, t);
  }

  // Load balancing by hierarchical load (balance_load_: cgroups on SMP, balance_by_load, or
  // CPUs of different capacity; load tracking for frequency or util_est alone keeps the
  // balance by count), for grouped SMP runs in particular: counting tasks
  // cannot balance task groups (one group's single task is worth as much as another group's
  // four together), so the periodic balance compares the CPUs' fair loads, each task weighed
  // by its share of the root as the kernel's task_h_load does with PELT's averages:
  //   h_load(top-level group queue g on k) = g's entity load on k
  //   h_load(nested g)   = h_load(parent) x g's entity load / (parent queue's load_avg + 1)
  //   task_h_load(t)     = t's load_avg x h_load(its queue) / (its queue's load_avg + 1)
  //                        (a task in the root: its load_avg)
  // where a group entity's load is its weight on k x the fraction of time its queue was
  // loaded (its queue signal's runnable_avg / 1024). A CPU's load is its root queue's: the
  // load_avg of each root task queued there plus the entity load of each top-level group with
  // a task queued there (the kernel's root cfs_rq load_avg, which also holds the blocked
  // tasks' decaying load; not the sum of the tasks' h_loads, which each `+ 1` makes a little
  // smaller, so that the last task of a group never fitted the imbalance it leaves). The
  // busiest CPU is balanced against this one when its load exceeds this one's by more than
  // imbalance_pct (117 %, Linux 5.10+); half the difference moves, coldest task
  // first, skipping a task heavier than what is left (detach_tasks), at most 32 tasks
  // (sched_nr_migrate). Other classes' tasks are neither counted nor moved. The newly-idle
  // balance still pulls one task by count. Also used without cgroups with
  // machine.balance_by_load (every task then in the root: its own load_avg).
  double group_entity_load(int k, int g) const {
    if constexpr (detail_sim::grouped<fair_class>::value) {
      const auto& fair = cpus_[static_cast<std::size_t>(k)].rq.template get<stack_type::nr_classes - 1>();
      const double weight = fair.group_weight(groups_[static_cast<std::size_t>(k)][static_cast<std::size_t>(g)]);
      return weight * static_cast<double>(group_pelt_[pelt_index(k, g)].runnable_avg) / pelt_capacity_scale;
    } else {
      (void)k;
      (void)g;
      return 0;
    }
  }
  double group_h_load(int k, int g) const {
    const int parent = cgroup_parent_[static_cast<std::size_t>(g)];
    if (parent < 0) return group_entity_load(k, g);
    return group_h_load(k, parent) * group_entity_load(k, g) /
           (static_cast<double>(group_pelt_[pelt_index(k, parent)].load_avg) + 1);
  }
  double task_h_load(const task_type& t, int k) const {
    const double own = static_cast<double>(t.cold->pelt.load_avg);
    const int g = pelt_group(t);
    if (g < 0) return own;
    return own * group_h_load(k, g) / (static_cast<double>(group_pelt_[pelt_index(k, g)].load_avg) + 1);
  }
  /// CPU k's root queue load, brought up to now: the load_avg of each root task queued there
  /// plus the entity load of each top-level group with a task queued there. `counted` is
  /// scratch space, one flag per cgroup.
  double root_fair_load(int k, std::vector<bool>& counted) {
    double sum = 0;
    pelt_sync_cpu(k);
    std::fill(counted.begin(), counted.end(), false);
    for (task_type* t : cpu(k).queued) {
      if (!is_fair(*t) || throttled_here(*t, k)) continue;
      pelt_sync_task(*t);
      int g = pelt_group(*t);
      if (g < 0) {
        sum += static_cast<double>(t->cold->pelt.load_avg);
        continue;
      }
      while (cgroup_parent_[static_cast<std::size_t>(g)] >= 0) g = cgroup_parent_[static_cast<std::size_t>(g)];
      if (counted[static_cast<std::size_t>(g)]) continue;
      counted[static_cast<std::size_t>(g)] = true;
      sum += group_entity_load(k, g);
    }
    return sum;
  }
  bool balance_by_load(int ci) {
    std::vector<double> cpu_load(static_cast<std::size_t>(ncpu_), 0.0);
    std::vector<bool> counted(group_pelt_.empty() ? 0 : w_.cgroups.size());  // top-level groups already in
    for (int k = 0; k < ncpu_; ++k) cpu_load[static_cast<std::size_t>(k)] = root_fair_load(k, counted);
    // On an asymmetric machine loads compare per unit of capacity (find_busiest_group's
    // avg_load = load x 1024 / capacity), and what moves brings both CPUs to the pair's
    // average per unit of capacity (calculate_imbalance); otherwise half the difference.
    std::vector<double> per_capacity(cpu_load);
    if (asym_)
      for (int k = 0; k < ncpu_; ++k)
        per_capacity[static_cast<std::size_t>(k)] *= static_cast<double>(cpu_capacity_max) / cap_[static_cast<std::size_t>(k)];
    int busiest = -1;
    for (int k = 0; k < ncpu_; ++k)
      if (k != ci && same_domain(ci, k) && load(k) >= 2 &&
          (busiest < 0 || per_capacity[static_cast<std::size_t>(k)] > per_capacity[static_cast<std::size_t>(busiest)]) &&
          !all_pinned(k, ci))
        busiest = k;
    cpu_state& me = cpu(ci);
    if (busiest < 0) {
      me.balance_failed = 0;
      return false;
    }
    const double theirs = per_capacity[static_cast<std::size_t>(busiest)], mine = per_capacity[static_cast<std::size_t>(ci)];
    if (theirs * 100 <= mine * 117) {
      me.balance_failed = 0;
      return false;
    }
    double imbalance = (theirs - mine) / 2;
    if (asym_) {
      const double cb = cap_[static_cast<std::size_t>(busiest)], cl = cap_[static_cast<std::size_t>(ci)];
      const double average = (cpu_load[static_cast<std::size_t>(busiest)] + cpu_load[static_cast<std::size_t>(ci)]) *
                             cpu_capacity_max / (cb + cl);
      imbalance = std::min((theirs - average) * cb, (average - mine) * cl) / cpu_capacity_max;
    }
    // After machine.balance_failed failed balances in a row, a task's load counts half, then a
    // quarter... (detach_tasks' shr_bound(load, nr_balance_failed)).
    const int limit = cfg_.machine.balance_failed;
    const int shift = limit > 0 && me.balance_failed >= limit ? std::min(me.balance_failed - limit + 1, 30) : 0;
    cpu_state& b = cpu(busiest);
    std::vector<std::uint32_t> candidates;  // task ids (sorting pointers to tasks would find schedcore's swap by ADL)
    for (task_type* t : b.queued)
      if (t != b.curr && is_fair(*t) && allowed(*t, ci) && !throttled_pair(*t, busiest, ci)) candidates.push_back(t->id);
    std::sort(candidates.begin(), candidates.end(),
              [this](std::uint32_t x, std::uint32_t y) { return colder(*tasks_[x], *tasks_[y]); });
    int moved = 0;
    for (const std::uint32_t id : candidates) {
      task_type* t = tasks_[id];
      const double h = task_h_load(*t, busiest);
      if (std::ldexp(h, -shift) > imbalance) continue;
      migrate(busiest, ci, *t, false, ci);
      imbalance -= h;
      if (imbalance <= 0 || ++moved == 32) break;
    }
    me.balance_failed = moved > 0 ? 0 : me.balance_failed + 1;
    return moved > 0;
  }

  // ---------------------------------------------------------------- asymmetric capacity
  // On a machine whose CPUs differ in capacity (asym_), a fair task whose PELT util does not
  // fit the CPU it runs on while a CPU of greater capacity exists is a misfit
  // (smp/capacity.hpp; update_misfit_status, checked at the tick and by the balance). As in
  // Linux 5.x+, two things move it:
  // - its CPU's tick kicks an idle CPU of greater capacity (nohz_balancer_kick's
  //   check_misfit_status): here the idle one of greatest capacity, lowest index first,
  //   stands for the idle-balance CPU the kernel picks;
  // - the balance of a CPU of greater capacity that has spare capacity (idle, or one task
  //   whose util leaves it 17 % headroom: group_has_spare) pulls the misfit of greatest load
  //   when its own balance moved nothing (group_misfit_task ranks below an overloaded CPU),
  //   newly idle or periodic.
  // A misfit is running, so the move is an active balance: the task is marked (push_to) and
  // its CPU reschedules at once; at that switch the task, put back on its queue, moves to the
  // destination (the stopper's migration: no switch to the stopper is charged) and the
  // destination preempts for it if its class says so.

  /// Whether CPU k runs a misfit (its util brought up to now).
  bool misfit(int k) {
    task_type* t = cpu(k).curr;
    if (t == nullptr || t->state != task_core::st::running || !is_fair(*t)) return false;
    const std::uint32_t capacity = cap_[static_cast<std::size_t>(k)];
    if (uclamp_on_)  // 6.x task_fits_cpu: only a full fit (1) is not a misfit; a boost short of the CPU is one
      return capacity < max_cap_ && util_fits_cpu(task_size(*t), uclamp_eff(*t, 0), uclamp_eff(*t, 1), capacity, capacity) <= 0;
    return task_misfit(task_size(*t), capacity, max_cap_);
  }
  /// Whether `t`'s util (brought up to now) exceeds CPU ci's capacity.
  bool exceeds_capacity(task_type& t, int ci) {
    return task_size(t) > cap_[static_cast<std::size_t>(ci)];
  }
  /// Asks CPU `from` to move its running task to `to` at once (active balance).
  void request_push(int from, int to) {
    task_type& t = *cpu(from).curr;
    t.cold->push_to = to;
    resched(from);
  }
  /// A busy CPU's tick found it has company while some CPU idles: the idle CPUs balance, in
  /// index order (nohz_balancer_kick with nr_running >= 2; the idle-load-balance CPU balances
  /// on behalf of every idle CPU whose tick is stopped, _nohz_idle_balance): each pulls a
  /// queued task as a newly idle CPU would, else a misfit. The first idle CPU may take nothing
  /// (a little CPU whose capacity the queued tasks exceed, tasks pinned elsewhere) while a
  /// later one can. At most once per balance interval (nohz.next_balance).
  void kick_idle_balance() {
    next_idle_balance_ = now_ + cfg_.machine.balance_ns;
    update_idle_cpu_scan();  // an idle balance, not a newly-idle one: it refreshes SIS_UTIL's depth
    for (int k = 0; k < ncpu_; ++k) {
      if (!idle(k)) continue;
      balance(k, true);
      if (!cpu(k).queued.empty()) resched(k);  // a newly-idle pull leaves the pick to the caller's schedule()
    }
  }
  /// At CPU ci's tick: a misfit running there is sent to the biggest idle CPU of greater capacity.
  void kick_misfit(int ci) {
    if (!misfit(ci)) return;
    task_type& t = *cpu(ci).curr;
    if (t.cold->push_to >= 0) return;  // already on its way
    int best = -1;
    for (int k = 0; k < ncpu_; ++k)
      if (k != ci && idle(k) && allowed(t, k) && capacity_greater(cap_[static_cast<std::size_t>(k)], cap_[static_cast<std::size_t>(ci)]) &&
          (best < 0 || cap_[static_cast<std::size_t>(k)] > cap_[static_cast<std::size_t>(best)]))
        best = k;
    if (best >= 0) request_push(ci, best);
  }
  /// Whether CPU ci has spare capacity for a misfit: idle, or one fair task with 17 % headroom.
  bool has_spare(int ci) {
    const cpu_state& c = cpu(ci);
    if (c.queued.empty()) return true;
    if (c.queued.size() > 1 || !is_fair(*c.queued.front())) return false;
    task_type& t = *c.queued.front();
    return static_cast<std::uint64_t>(task_size(t)) * 117 < static_cast<std::uint64_t>(cap_[static_cast<std::size_t>(ci)]) * 100;
  }
  /// CPU ci's balance found nothing to move: it pulls the misfit of greatest load (load_avg)
  /// from a CPU of smaller capacity if it has room. @return whether it asked for one.
  bool pull_misfit(int ci) {
    if (!has_spare(ci)) return false;
    int source = -1;
    std::uint64_t heaviest = 0;
    for (int k = 0; k < ncpu_; ++k) {
      if (k == ci || !capacity_greater(cap_[static_cast<std::size_t>(ci)], cap_[static_cast<std::size_t>(k)]) || !misfit(k)) continue;
      const task_type& t = *cpu(k).curr;
      if (!allowed(t, ci) || t.cold->push_to >= 0) continue;
      const std::uint64_t weight = std::max<std::uint64_t>(t.cold->pelt.load_avg, 1);
      if (source < 0 || weight > heaviest) {
        source = k;
        heaviest = weight;
      }
    }
    if (source < 0) return false;
    request_push(source, ci);
    return true;
  }

  // ---------------------------------------------------------------- frequency and energy
  // With performance domains (machine_model::perf_domains) each domain runs at one of its
  // states, chosen by schedutil (smp/energy_model.hpp): a CPU's utilisation is the PELT
  // util_avg of the fair tasks whose CPU it is (runnable, running, or blocked there: the
  // kernel's root cfs_rq util_avg keeps a sleeper's decaying util until it wakes elsewhere),
  // plus the RT and deadline classes' own util_avg and the deadline class's active
  // utilisation, as Linux 4.19-6.7's effective_cpu_util(FREQUENCY_UTIL) composes them:
  // - an RT task runnable there asks for the top (without uclamp; with clamps in the workload,
  //   see "utilisation clamps");
  // - else the fair util plus the RT class's util_avg (rq->avg_rt, a PELT signal fed while an
  //   RT task runs), clamped by the CPU's clamps when clamps are on;
  // - the top if that plus the deadline class's util_avg (rq->avg_dl) reaches the capacity
  //   (no idle time left);
  // - else that plus the deadline class's active utilisation (cpu_bw_dl: Σ bandwidth of the
  //   deadline tasks contending there, kept until a sleeper's 0-lag time; policy/edf.hpp),
  //   at most the capacity.
  // The deadline class charges its runtime scaled by the CPU's frequency and capacity
  // (edf_policy::set_capacity, given at each change), so a reservation buys the same work at
  // any speed and schedutil may run it at its bandwidth. The domain follows its busiest CPU
  // (sugov_next_freq_shared). An update
  // is due after any event that enqueued, dequeued or switched tasks on one of its CPUs and
  // at its CPUs' ticks; it runs at the end of that event (as the kernel's irq_work for a
  // slow-switching driver), and a change comes at most once per dvfs_rate_limit_ns
  // (sugov_should_update_freq). A change settles every CPU of the domain at the old speed
  // and power, then recomputes when running work completes. PELT is frequency-invariant: a
  // running task's util grows by its CPU's speed (capacity x f / f_max) / 1024 per unit of time.
  // A fair task waking from an I/O wait starts or doubles its CPU's I/O-wait boost
  // (smp/iowait_boost.hpp, machine_model::iowait_boost), a floor under that CPU's utilisation
  // after the utilisation above is composed (sugov_iowait_apply, 5.x-6.7). Not modelled:
  // sugov's "busy CPU keeps its frequency" hold, the transition's own latency and IRQ time
  // (GRUB reclaiming is modelled: a reclaiming reservation's budget drains as GRUB-PA's
  // dl_scaled_delta_exec does, see policy/edf.hpp). Energy-aware placement is below
  // (find_energy_efficient_cpu).

  /// Charges `ns` of CPU ci at its domain's power: the current state's while `busy`, the idle
  /// power otherwise. Exact: nJ plus a remainder in fJ (µW x ns = fJ).
  void charge_energy(int ci, bool busy, std::int64_t ns) {
    const domain_state& d = doms_[static_cast<std::size_t>(dom_of_[static_cast<std::size_t>(ci)])];
    const std::uint64_t uw = busy ? d.states[d.cur].power_uw : d.idle_uw;
    const std::uint64_t n = static_cast<std::uint64_t>(ns);
    std::uint64_t& nj = energy_nj_[static_cast<std::size_t>(ci)];
    std::uint32_t& fj = energy_fj_[static_cast<std::size_t>(ci)];
    nj += uw * (n / 1000000);  // whole ms: µW x ms = nJ
    const std::uint64_t part = uw * (n % 1000000) + fj;  // < 2^32 x 10^6 + 10^6: no overflow
    nj += part / 1000000;
    fj = static_cast<std::uint32_t>(part % 1000000);
  }
  /// CPU ci's queues changed or it ticked (the kernel's cpufreq_update_util hook; `iowait`: a
  /// wakeup from an I/O wait): its I/O-wait boost is updated, and its domain's frequency is
  /// re-evaluated at the end of the current event.
  void dvfs_mark(int ci, bool iowait = false) {
    if (!dvfs_on_) return;
    dvfs_dirty_ |= std::uint64_t{1} << dom_of_[static_cast<std::size_t>(ci)];
    if (cfg_.machine.iowait_boost)
      iowait_boost_request(cpu(ci).iowait, static_cast<std::uint64_t>(now_), static_cast<std::uint64_t>(tick_ns_), iowait);
  }
  /// Re-evaluates every marked domain.
  void dvfs_update() {
    while (dvfs_dirty_ != 0) {
      const int d = __builtin_ctzll(dvfs_dirty_);
      dvfs_dirty_ &= dvfs_dirty_ - 1;
      dvfs_update_domain(d);
    }
  }
  /// The fair utilisation of CPUs first .. first + count - 1, as of now (util_now: no signal
  /// is updated): `avg[i]` sums the util_avg of the fair tasks whose CPU it is (runnable,
  /// running or asleep there: the root cfs_rq's util_avg), `est[i]` the EWMA estimates of those
  /// queued there (the root cfs_rq's util_est, a sum of _task_util_est; zero without util_est).
  /// @par Complexity O(tasks).
  void fair_util_sums(int first, int count, std::vector<std::uint64_t>& avg, std::vector<std::uint64_t>& est) {
    avg.assign(static_cast<std::size_t>(count), 0);
    est.assign(static_cast<std::size_t>(count), 0);
    for (task_type* t : tasks_) {
      if (t->cpu < first || t->cpu >= first + count || !t->cold->pelt_born || !is_fair(*t) ||
          t->state == task_core::st::unborn || t->state == task_core::st::dead)
        continue;
      const std::uint32_t u = util_now(*t);
      const std::size_t i = static_cast<std::size_t>(t->cpu - first);
      avg[i] += u;
      if (util_est_ && (t->state == task_core::st::runnable || t->state == task_core::st::running))
        est[i] += util_est_value(t->cold->util_est);  // util_est_enqueue adds _task_util_est: the EWMA
    }
  }
  /// Each CPU's fair utilisation, the larger of the two sums above (cpu_util_cfs), into `util`.
  void fair_util_of(int first, int count, std::vector<std::uint64_t>& util) {
    fair_util_sums(first, count, util, est_scratch_);
    for (std::size_t i = 0; i < util.size(); ++i) util[i] = std::max(util[i], est_scratch_[i]);
  }
  /// SIS_UTIL's depth (update_idle_cpu_scan, from update_sd_lb_stats at the LLC's level): the
  /// machine's summed fair utilisation, each CPU's capped at its capacity (cpu_util_cfs), into
  /// sis_util_scan_depth(). Every CPU shares the one LLC. @par Complexity O(tasks + CPUs).
  void update_idle_cpu_scan() {
    if (!sis_util_) return;
    fair_util_of(0, ncpu_, util_scratch_);
    std::uint64_t sum = 0;
    for (int k = 0; k < ncpu_; ++k)
      sum += std::min<std::uint64_t>(util_scratch_[static_cast<std::size_t>(k)], cap_[static_cast<std::size_t>(k)]);
    nr_idle_scan_ = sis_util_scan_depth(sum, ncpu_);
  }
  /// Whether `t` is in the deadline class (index 0 of a stack that has one).
  bool in_dl_class(const task_type& t) const { return dl_class_ && t.sched_class == 0; }
  /// Whether an RT task is runnable on CPU k (schedutil then asks for f_max without uclamp).
  bool rt_runnable(int k) {
    for (const task_type* t : cpu(k).queued)
      if (!is_fair(*t) && !in_dl_class(*t)) return true;
    return false;
  }
  /// Which class signal CPU ci's current task feeds: 1 the RT class's, 2 the deadline
  /// class's, 0 none (idle or fair). The CPU ran that task since the signals' last update.
  int class_signal_running(int ci) const {
    const task_type* t = cpus_[static_cast<std::size_t>(ci)].curr;
    if (t == nullptr || is_fair(*t)) return 0;
    return in_dl_class(*t) ? 2 : 1;
  }
  /// Brings CPU ci's RT and deadline signals up to now (update_rt_rq_load_avg,
  /// update_dl_rq_load_avg: running, runnable and load all 1 while the class runs there),
  /// before its current task, its class or its speed changes. Only schedutil and EAS read them.
  void class_pelt_sync(int ci) {
    if (!dvfs_on_) return;
    cpu_state& c = cpu(ci);
    const int r = class_signal_running(ci);
    const std::uint32_t speed = speed_[static_cast<std::size_t>(ci)];
    pelt_update_queue(c.rt_avg, static_cast<std::uint64_t>(now_), r == 1 ? 1u : 0u, r == 1 ? 1u : 0u, r == 1, speed);
    pelt_update_queue(c.dl_avg, static_cast<std::uint64_t>(now_), r == 2 ? 1u : 0u, r == 2 ? 1u : 0u, r == 2, speed);
  }
  /// CPU k's RT (`dl` false) or deadline class util_avg as it would read now, without updating
  /// the signal (see util_now).
  std::uint32_t class_util_now(int k, bool dl) {
    pelt_avg copy = dl ? cpu(k).dl_avg : cpu(k).rt_avg;
    const bool running = class_signal_running(k) == (dl ? 2 : 1);
    pelt_update_queue(copy, static_cast<std::uint64_t>(now_), running ? 1u : 0u, running ? 1u : 0u, running,
                      speed_[static_cast<std::size_t>(k)]);
    return copy.util_avg;
  }
  /// CPU k's frequency scale, its domain's current frequency over its highest out of 1024
  /// (arch_scale_freq_capacity); 1024 without performance domains.
  std::uint32_t freq_scale_of(int k) const {
    if (!dvfs_on_) return cpu_capacity_max;
    const domain_state& dm = doms_[static_cast<std::size_t>(dom_of_[static_cast<std::size_t>(k)])];
    const std::uint64_t top = dm.states.back().frequency_khz;
    return static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (std::uint64_t{dm.states[dm.cur].frequency_khz} << 10) / top));
  }
  /// Gives CPU k's deadline class its current frequency and capacity scales (update_curr_dl
  /// charges runtime scaled by both), and re-arms its class timer (an hrtick's exhaustion
  /// instant moves with the scale).
  void dl_set_capacity(int k) {
    if constexpr (dl_class_) {
      using dl_type = typename stack_type::template class_type<0>;
      if constexpr (detail_sim::dl_scales<dl_type>::value) {
        (void)cpu(k).rq.template get<0>().set_capacity(freq_scale_of(k), cap_[static_cast<std::size_t>(k)]);
        arm_class_timer(k);
      }
    }
  }
  /// On CPUs of different capacity a root domain (its lowest CPU's deadline class) admits
  /// against the sum of its CPUs' capacities (dl_bw_capacity, 5.9+), not their count.
  void dl_set_root_capacity() {
    if constexpr (dl_class_) {
      using dl_type = typename stack_type::template class_type<0>;
      if constexpr (detail_sim::dl_scales<dl_type>::value) {
        for (int r = 0; r < ncpu_; ++r) {  // each root domain's admitting CPU (its lowest)
          if (root_cpu(r) != r) continue;
          std::uint64_t sum = 0;
          for (int k = 0; k < ncpu_; ++k)
            if (same_domain(r, k)) sum += cap_[static_cast<std::size_t>(k)];
          (void)cpu(r).rq.template get<0>().set_root_capacity(sum);  // nothing admitted yet: cannot fail
        }
      }
    }
  }
  /// Whether deadline task `t` fits CPU k (dl_task_fits_capacity); true without a
  /// capacity-aware deadline class.
  bool dl_fits(const task_type& t, int k) {
    if constexpr (dl_class_) {
      using dl_type = typename stack_type::template class_type<0>;
      if constexpr (detail_sim::dl_scales<dl_type>::value) return dl_type::fits_capacity(t, cap_[static_cast<std::size_t>(k)]);
    }
    (void)t;
    (void)k;
    return true;
  }
  /// CPU k's deadline active utilisation out of 1024 (cpu_bw_dl), 0 without a deadline class.
  std::uint32_t dl_bw_util(int k) {
    if constexpr (dl_class_) {
      using dl_type = typename stack_type::template class_type<0>;
      if constexpr (detail_sim::dl_scales<dl_type>::value) return cpu(k).rq.template get<0>().active_util();
    }
    (void)k;
    return 0;
  }
  /// CPU k's utilisation for its frequency request (effective_cpu_util with FREQUENCY_UTIL,
  /// 4.19-6.7, see above) from its fair util `util_cfs`; with `with_task` the clamps of a task
  /// being placed there join the CPU's (`task_min`, `task_max`; uclamp_rq_util_with).
  std::uint64_t freq_util(int k, std::uint64_t util_cfs, bool with_task = false, std::uint32_t task_min = 0,
                          std::uint32_t task_max = cpu_capacity_max) {
    const std::uint64_t capacity = cap_[static_cast<std::size_t>(k)];
    if (!uclamp_on_ && rt_runnable(k)) return capacity;
    std::uint64_t util = util_cfs + class_util_now(k, false);
    if (uclamp_on_) {
      const std::uint32_t u = static_cast<std::uint32_t>(std::min<std::uint64_t>(util, 1u << 20));
      const uclamp_rq<>& rq = cpu(k).uclamp;
      util = with_task ? rq.util_with(u, task_min, task_max) : rq.util_with(u);
    }
    if (util + class_util_now(k, true) >= capacity) return capacity;
    return std::min(capacity, util + dl_bw_util(k));
  }
  /// CPU k's utilisation for the energy estimate's busy time (ENERGY_UTIL): its fair, RT and
  /// deadline util_avg, at most its capacity (no clamps, no bandwidth).
  std::uint64_t energy_util(int k, std::uint64_t util_cfs) {
    const std::uint64_t util = util_cfs + class_util_now(k, false) + class_util_now(k, true);
    return std::min<std::uint64_t>(cap_[static_cast<std::size_t>(k)], util);
  }

  /// schedutil for domain d: the state for its busiest CPU's utilisation, applied unless the
  /// rate limit holds the last change. @par Complexity O(tasks + CPUs of the domain).
  void dvfs_update_domain(int d) {
    domain_state& dm = doms_[static_cast<std::size_t>(d)];
    if (dm.changed && now_ - dm.last_change < cfg_.machine.dvfs_rate_limit_ns) return;
    std::uint64_t busiest = 0;
    fair_util_of(dm.first, dm.count, util_scratch_);
    for (int k = dm.first; k < dm.first + dm.count; ++k) {
      std::uint64_t u = freq_util(k, util_scratch_[static_cast<std::size_t>(k - dm.first)]);
      if (cfg_.machine.iowait_boost) {  // sugov_iowait_apply: each CPU's boost is a floor under its util,
        std::uint64_t boost = iowait_boost_apply(cpu(k).iowait, static_cast<std::uint64_t>(now_),
                                                 static_cast<std::uint64_t>(tick_ns_), cap_[static_cast<std::size_t>(k)]);
        if (uclamp_on_)  // within the CPU's clamps (uclamp_rq_util_with, 5.18+: d37aee9018e6)
          boost = cpu(k).uclamp.util_with(static_cast<std::uint32_t>(std::min<std::uint64_t>(boost, 1u << 20)));
        u = std::max(u, boost);
      }
      busiest = std::max(busiest, u);
    }
    const std::uint32_t want = schedutil_state(dm.pd, static_cast<std::uint32_t>(std::min<std::uint64_t>(busiest, 1u << 20)));
    if (want == dm.cur) return;
    for (int k = dm.first; k < dm.first + dm.count; ++k) {  // settle at the old speed and power
      account(k, now_);
      pelt_sync_cpu(k);
      class_pelt_sync(k);
      if (task_type* t = cpu(k).curr) pelt_sync_task(*t);
    }
    dm.residency[dm.cur] += now_ - dm.state_since;
    dm.state_since = now_;
    dm.cur = want;
    dm.changed = true;
    dm.last_change = now_;
    ++dm.changes;
    const std::uint32_t speed = std::max<std::uint32_t>(1, em_state_capacity(dm.pd, want));
    for (int k = dm.first; k < dm.first + dm.count; ++k) {
      speed_[static_cast<std::size_t>(k)] = speed;
      dl_set_capacity(k);
      const cpu_state& c = cpu(k);
      if (c.curr != nullptr && c.curr->state == task_core::st::running && c.curr->action == task_core::act::work)
        arm_completion(k);
      if (cfg_.trace != nullptr) cfg_.trace->cpu_frequency(now_, k, who(k), dm.states[want].frequency_khz);
    }
  }

  // ---------------------------------------------------------------- utilisation clamps
  // With clamps in the workload (task_spec::util_min/util_max, event set_uclamp) on a machine
  // where utilisation decides something (uclamp_on_), each CPU aggregates the effective clamps
  // of its runnable fair and RT tasks (smp/uclamp.hpp's buckets, counted in rq_add and
  // rq_remove, recounted when a task's clamps or class change), and Linux 6.x's uses follow:
  // - schedutil: a CPU's utilisation is its fair util clamped by its CPU's clamps
  //   (effective_cpu_util: uclamp_rq_util_with); RT tasks reach the top frequency through
  //   their default boost (machine_model::uclamp_rt_min_default) instead of the "RT runnable"
  //   rule; the RT class's util_avg joins the fair util before the clamps, the deadline
  //   class's terms come after them (freq_util);
  // - fits (util_fits_cpu): the wakeup's idle-CPU choice and misfit take the task's clamps,
  //   overutilized takes each CPU's, and find_energy_efficient_cpu ranks candidates by fit
  //   (1 above -1) with the task's clamps max-aggregated with a busy CPU's;
  // - the energy estimate's frequency per CPU is its clamped util, the waking task's clamps
  //   joining on the candidate CPU (eenv_pd_max_util); the busy-time sum is not clamped.
  // Not modelled: task-group clamps (cpu.uclamp.*), the system-wide limits
  // (sysctl_sched_uclamp_util_min/max at 1024) and a fork's inheritance of its parent's
  // requests (an instance starts with its spec's).

  /// Whether `t`'s class takes part in uclamp (fair and RT; a deadline task has its bandwidth).
  static bool uclamp_class(const task_type& t) { return t.params.kind != sched_kind::deadline; }
  /// `t`'s effective clamp `id` (0 min, 1 max): its request, or the default (min 0, or the RT
  /// default for a real-time task; max 1024).
  std::uint32_t uclamp_eff(const task_type& t, int id) const {
    const std::int32_t r = t.cold->uclamp_req[id];
    if (r >= 0) return static_cast<std::uint32_t>(r);
    if (id == 1) return cpu_capacity_max;
    const bool rt = t.params.kind == sched_kind::fifo || t.params.kind == sched_kind::rr;
    return rt ? cfg_.machine.uclamp_rt_min_default : 0;
  }
  /// Counts runnable `t` in CPU c's clamp buckets (uclamp_rq_inc), if its class takes part.
  void uclamp_count_in(cpu_state& c, task_type& t) {
    if (uclamp_class(t) && !t.cold->uclamp.active()) c.uclamp.enqueue(t.cold->uclamp, uclamp_eff(t, 0), uclamp_eff(t, 1));
  }
  /// `t`, runnable on CPU ci, changed clamps or class: counted again with its values now
  /// (uclamp_update_active), and the domain's frequency re-evaluated.
  void uclamp_recount(int ci, task_type& t) {
    cpu_state& c = cpu(ci);
    if (t.cold->uclamp.active()) c.uclamp.dequeue(t.cold->uclamp);
    uclamp_count_in(c, t);
    dvfs_mark(ci);
  }
  /// set_uclamp: new requests (-1 default, -2 unchanged), validated as sched_setattr does
  /// against the values that would be in force (a default counts as its number; a reset to
  /// -1 is not checked). min above max is a workload error naming the task: sched_setattr
  /// refuses it (EINVAL) and rt-app stops.
  void set_uclamp(task_type& t, int ci, std::int32_t util_min, std::int32_t util_max) {
    std::int32_t* req = t.cold->uclamp_req;
    const std::int32_t check_min = util_min != -2 ? util_min : static_cast<std::int32_t>(uclamp_eff(t, 0));
    const std::int32_t check_max = util_max != -2 ? util_max : static_cast<std::int32_t>(uclamp_eff(t, 1));
    if (check_min >= 0 && check_max >= 0 && check_min > check_max)
      fail_at(w_.tasks[static_cast<std::size_t>(t.spec)],
              "task '" + name_of(t) + "': its clamps would become util_min " + std::to_string(check_min) + " above util_max " +
                  std::to_string(check_max) + " at " + std::to_string(now_) + " ns (sched_setattr refuses the pair)");
    if (util_min != -2) req[0] = util_min;
    if (util_max != -2) req[1] = util_max;
    if (uclamp_on_) uclamp_recount(ci, t);
  }

  // Energy-aware scheduling (machine_model::energy_aware, Linux 5.0+ EAS; 6.x rules): while the
  // machine is not overutilized, a waking fair task is placed by find_energy_efficient_cpu
  // and the periodic, newly-idle and idle-kick balances stand aside (find_busiest_group's
  // out_balanced), so that tasks stay where energy put them. Overutilized: some CPU's fair
  // util does not fit its capacity (cpu_overutilized, util x 1280 >= capacity x 1024),
  // evaluated when needed rather than latched at enqueue and the tick. Placement: in each
  // performance domain, among the CPUs the task may use, the one with the most spare capacity
  // once the task's util is added (the task's previous CPU considered on its own), if the
  // task fits there; the Energy Model's estimate of each candidate's domain with the task
  // there, minus the domain's estimate without it, picks the cheapest; the previous CPU stays
  // unless another candidate costs strictly less (6.x: no 6 % margin), and stays when no
  // candidate fits. The waking task's size: task_util_est with util_est, else its util_avg;
  // a CPU's: cpu_util_cfs (fair_util_of). A CPU's frequency in the estimate is freq_util's
  // (an RT task runnable there: f_max; the deadline class's bandwidth), its busy time
  // energy_util's (the fair, RT and deadline util_avg), and the overutilized test
  // compares fair util with the whole capacity (capacity_of's RT, deadline and IRQ pressure
  // are not modelled).

  /// Whether some CPU's fair utilisation does not fit its capacity.
  bool overutilized() {
    fair_util_of(0, ncpu_, util_scratch_);
    for (int k = 0; k < ncpu_; ++k) {
      const std::uint32_t u = static_cast<std::uint32_t>(std::min<std::uint64_t>(util_scratch_[static_cast<std::size_t>(k)], 1u << 20));
      const std::uint32_t capacity = cap_[static_cast<std::size_t>(k)];
      if (uclamp_on_) {  // 6.x cpu_overutilized: the CPU's clamps; "fits but the boost is short" is not overutilized
        const uclamp_rq<>& rq = cpu(k).uclamp;
        if (util_fits_cpu(u, rq.value(uclamp_id::min), rq.value(uclamp_id::max), capacity, capacity) == 0) return true;
      } else if (!util_fits_capacity(u, capacity)) {
        return true;
      }
    }
    return false;
  }
  /// The Energy Model's estimate for domain d when CPU k's utilisation is util[k] and its
  /// frequency request freq[k] (both have one entry per CPU of the machine; each is capped at
  /// the domain's capacity, as eenv_pd_max_util and the busy-time sum are).
  std::uint64_t domain_energy(int d, const std::vector<std::uint64_t>& util, const std::vector<std::uint64_t>& freq,
                              std::uint64_t task_busy) const {
    const domain_state& dm = doms_[static_cast<std::size_t>(d)];
    std::uint64_t max_util = 0, sum_util = 0;
    for (int k = dm.first; k < dm.first + dm.count; ++k) {
      max_util = std::max(max_util, std::min<std::uint64_t>(freq[static_cast<std::size_t>(k)], dm.pd.capacity));
      sum_util += std::min<std::uint64_t>(util[static_cast<std::size_t>(k)], dm.pd.capacity);
    }
    // compute_energy: busy_time = min(pd_cap, pd_busy_time + task_busy_time).
    const std::uint64_t pd_cap = static_cast<std::uint64_t>(dm.count) * dm.pd.capacity;
    sum_util = std::min(pd_cap, sum_util + task_busy);
    return em_pd_energy(dm.pd, static_cast<std::uint32_t>(max_util), sum_util, dm.pd.capacity);
  }
  /// find_energy_efficient_cpu for waking fair task t: the CPU to wake it on, its previous CPU
  /// when no candidate is better (feec's target starts as prev_cpu) or none fits, -1 only for
  /// a task with no allowed previous CPU (the caller's capacity-aware placement decides).
  /// Candidates rank by fit first (util_fits_cpu: 1 above -1; without clamps every candidate
  /// fits with 1), then by energy among those that fit, by capacity among those whose boost
  /// falls short (the 6.2+ rules).
  int find_energy_efficient_cpu(task_type& t) {
    const std::uint64_t p_avg = util_now(t);
    const std::uint64_t p_ewma = util_est_ ? util_est_value(t.cold->util_est) : 0;  // _task_util_est(p)
    const std::uint64_t p_size = std::max(p_avg, p_ewma);                          // task_util_est(p)
    const std::uint32_t p_min = uclamp_on_ ? uclamp_eff(t, 0) : 0;
    const std::uint32_t p_max = uclamp_on_ ? uclamp_eff(t, 1) : cpu_capacity_max;
    const int prev = t.cpu;
    if (p_size == 0 && p_min == 0 && prev >= 0 && allowed(t, prev)) return prev;  // nothing to place (feec's early exit)
    std::vector<std::uint64_t> avg, est;
    fair_util_sums(0, ncpu_, avg, est);
    if (prev >= 0) avg[static_cast<std::size_t>(prev)] -= std::min(avg[static_cast<std::size_t>(prev)], p_avg);  // cpu_util without p
    // A CPU's fair utilisation with or without p (cpu_util(cpu, p, dst)): p adds its util_avg
    // to the CPU's and its EWMA to the CPU's estimates (it is not queued anywhere yet).
    auto util_at = [&](int k, bool with_p) {
      const std::size_t i = static_cast<std::size_t>(k);
      return std::max(avg[i] + (with_p ? p_avg : 0), est[i] + (with_p ? p_ewma : 0));
    };
    // Each CPU's busy time without p for the estimate (ENERGY_UTIL: eenv_pd_busy_time; p's
    // own, task_util_est(p), is added to its domain's sum in domain_energy) and its frequency
    // request with p where p goes (FREQUENCY_UTIL, p's clamps joining: eenv_pd_max_util).
    std::vector<std::uint64_t> util(static_cast<std::size_t>(ncpu_)), freq(static_cast<std::size_t>(ncpu_));
    for (int k = 0; k < ncpu_; ++k) util[static_cast<std::size_t>(k)] = energy_util(k, util_at(k, false));
    auto place = [&](int k, bool with_p) {
      freq[static_cast<std::size_t>(k)] = freq_util(k, util_at(k, with_p), with_p, p_min, p_max);
    };
    for (int k = 0; k < ncpu_; ++k) place(k, false);
    const std::uint64_t none = ~std::uint64_t{0};
    std::uint64_t prev_delta = none, best_delta = none;
    int best = -1, best_fits = -1, prev_fits = -1;
    std::uint32_t best_cap = 0, prev_cap = 0;
    for (int d = 0; d < static_cast<int>(doms_.size()); ++d) {
      const domain_state& dm = doms_[static_cast<std::size_t>(d)];
      std::int64_t max_spare = -1, prev_spare = -1;
      int max_spare_cpu = -1, max_fits = -1;
      for (int k = dm.first; k < dm.first + dm.count; ++k) {
        if (!allowed(t, k)) continue;
        const std::uint64_t with = util_at(k, true);
        const std::uint32_t capacity = cap_[static_cast<std::size_t>(k)];
        const std::uint32_t with32 = static_cast<std::uint32_t>(std::min<std::uint64_t>(with, 1u << 20));
        int fits = util_fits_capacity(with32, capacity) ? 1 : 0;
        if (uclamp_on_) {  // p's clamps, max-aggregated with a busy CPU's
          const uclamp_rq<>& rq = cpu(k).uclamp;
          const std::uint32_t lo = rq.idle() ? p_min : std::max(p_min, rq.value(uclamp_id::min));
          const std::uint32_t hi = rq.idle() ? p_max : std::max(p_max, rq.value(uclamp_id::max));
          fits = util_fits_cpu(with32, lo, hi, capacity, capacity);
        }
        if (fits == 0) continue;
        const std::int64_t spare = std::max<std::int64_t>(0, static_cast<std::int64_t>(capacity) - static_cast<std::int64_t>(with));
        if (k == prev) {
          prev_spare = spare;
          prev_fits = fits;
        } else if (fits > max_fits || (fits == max_fits && spare > max_spare)) {
          max_spare = spare;
          max_spare_cpu = k;
          max_fits = fits;
        }
      }
      if (max_spare_cpu < 0 && prev_spare < 0) continue;
      const std::uint64_t base = domain_energy(d, util, freq, 0);
      auto delta_on = [&](int k) {
        place(k, true);
        const std::uint64_t e = domain_energy(d, util, freq, p_size);
        place(k, false);
        return e - std::min(e, base);
      };
      if (prev_spare >= 0) {
        prev_delta = delta_on(prev);
        best_delta = std::min(best_delta, prev_delta);
        prev_cap = cap_[static_cast<std::size_t>(prev)];
      }
      if (max_spare_cpu >= 0 && max_spare > prev_spare) {
        const std::uint32_t cand_cap = cap_[static_cast<std::size_t>(max_spare_cpu)];
        if (max_fits < best_fits) continue;                       // the best so far fits better
        if (max_fits < 0 && cand_cap <= best_cap) continue;       // both short of the boost: capacity decides
        const std::uint64_t dlt = delta_on(max_spare_cpu);
        if (max_fits > 0 && best_fits > 0 && dlt >= best_delta) continue;  // both fit: energy decides
        best_delta = dlt;
        best = max_spare_cpu;
        best_fits = max_fits;
        best_cap = cand_cap;
      }
    }
    if (best >= 0 && (best_fits > prev_fits || (best_fits > 0 && best_delta < prev_delta) || (best_fits < 0 && best_cap > prev_cap)))
      return best;
    return prev >= 0 && allowed(t, prev) ? prev : -1;  // nothing better, or nothing fits: where it was
  }

  // ---------------------------------------------------------------- programs
  void on_complete(int ci) {
    task_type& t = *cpu(ci).curr;
    if (t.action == task_core::act::work && t.remaining > 0) {  // a stale estimate: keep going
      arm_completion(ci);
      return;
    }
    if (t.action == task_core::act::runtime && now_ < t.runtime_end) {
      arm_completion(ci);
      return;
    }
    t.action = task_core::act::step;
    t.remaining = 0;
    t.cold->work_carry = 0;
    t.nopreempt = false;
    step(t, ci);
    cpu_state& c = cpu(ci);
    if (c.resched_held && !t.nopreempt) {  // the section is over (and the next is not one): switch now
      c.resched_held = false;
      resched(ci);
    }
    if (t.state == task_core::st::running && !c.need_resched) arm_completion(ci);
  }

  const cevent* current(task_type& t) { return advance(t.spec, t.ph, t.ev, t.phase_loops_left, t.task_loops_left); }
  /// The event `t` will execute next, without moving its program counter (nullptr: it ends).
  const cevent* peek(const task_type& t) const {
    std::uint32_t ph = t.ph, ev = t.ev;
    std::int64_t phase_left = t.phase_loops_left, task_left = t.task_loops_left;
    return advance(t.spec, ph, ev, phase_left, task_left);
  }
  /// Moves a program counter past finished phase passes to the event it executes next.
  const cevent* advance(int spec, std::uint32_t& ph, std::uint32_t& ev, std::int64_t& phase_left, std::int64_t& task_left) const {
    const cspec& cs = specs_[static_cast<std::size_t>(spec)];
    for (;;) {
      const cphase& p = cs.phases[ph];
      if (ev < p.events.size()) return &p.events[ev];
      // End of a phase pass.
      ev = 0;
      if (phase_left > 0) --phase_left;
      if (phase_left != 0 && !p.events.empty()) continue;
      ++ph;
      if (ph >= cs.phases.size()) {
        ph = 0;
        if (task_left > 0) --task_left;
        if (task_left == 0) return nullptr;
      }
      phase_left = cs.phases[ph].loop;
    }
  }

  /// Executes `t`'s program from its current position until an event takes time.
  void step(task_type& t, int ci) {
    if (t.job_burning) finish_job(t);
    if (t.state != task_core::st::running) return;
    if (t.waiting_mutex >= 0) {  // back from a condition wait: relock first
      const int mid = t.waiting_mutex;
      t.waiting_mutex = -1;
      if (!acquire(t, mid, ci, false)) return;
    } else if (t.lock_retry >= 0 && !acquire(t, t.lock_retry, ci, true)) {
      return;
    } else if (t.sem_retry >= 0 && !sem_wait(t.sem_retry, t, true)) {
      block(t);
      return;
    }
    // Who wakes the tasks a resume or a pipe wakes, for the woken task's policy: t on CPU ci,
    // or, when t stands in for an input device (task_spec::interrupt_context), interrupt
    // context (-1). Mutexes, conditions, barriers and semaphores always wake from ci.
    const int waker = w_.tasks[static_cast<std::size_t>(t.spec)].interrupt_context ? -1 : ci;
    for (int guard = 0; guard < 100000; ++guard) {
      const cevent* e = current(t);
      if (e == nullptr) {
        die(t);
        return;
      }
      ++t.ev;
      // Host-time bound: a program made mostly of events that take no simulated time (a
      // zero-length loop, a signal storm) would keep the host busy for hours at the spin
      // guard's pace below. Real programs spend simulated time between events: at most about
      // 10^6 events per simulated CPU-second (1 us pieces of work); the budget is ten times that
      // plus 10^8 (`program_event_budget`).
      if (SCHEDCORE_UNLIKELY(++program_events_ > program_event_budget_))
        fail_at(w_.tasks[static_cast<std::size_t>(t.spec)],
                "task '" + name_of(t) + "': the run exceeded " + std::to_string(program_event_budget_) +
                    " program events (10^8 + 10^7 per simulated CPU-second), most of them taking no simulated time: "
                    "expected the programs to spend simulated time (run, sleep, timers) between instantaneous events");
      switch (e->kind) {
        case event_kind::run: {
          const std::int64_t d = std::max<std::int64_t>(0, e->duration + rng_.jitter(e->jitter));
          if (d + t.refill_debt <= 0) break;
          t.action = task_core::act::work;
          t.remaining = d + t.refill_debt;
          t.refill_debt = 0;
          t.nopreempt = e->nopreempt;
          return;
        }
        case event_kind::runtime: {
          const std::int64_t d = std::max<std::int64_t>(0, e->duration + rng_.jitter(e->jitter));
          if (d <= 0) break;
          t.action = task_core::act::runtime;
          t.runtime_end = now_ + d;
          return;
        }
        case event_kind::sleep: {
          const std::int64_t d = std::max<std::int64_t>(0, e->duration + rng_.jitter(e->jitter));
          if (d <= 0) break;
          sleep_until(t, now_ + d, e->uninterruptible ? wake_uninterruptible : wake_timer);
          return;
        }
        case event_kind::timer: {
          timer_res& tm = timers_[static_cast<std::size_t>(e->unique >= 0 ? t.cold->unique_timers[static_cast<std::size_t>(e->unique)] : e->res)];
          const bool first_use = !tm.init;
          if (first_use) {
            tm.init = true;
            tm.next = e->anchor >= 0 ? e->anchor : now_;
          }
          // Period 0 (rt-app allows it): waits only for a later expiry another use set, else a
          // relative timer's reference moves to now (below); no period, so no slack sample.
          tm.next += e->period;
          if (!first_use && e->period > 0) {  // rt-app's per-period slack
            keep_sample(t.cold->slacks, tm.next - now_);
            if (cfg_.trace != nullptr) cfg_.trace->counter(now_, t.cpu, comm_of(t), t.pid, "slack_us", floor_div(tm.next - now_, 1000));
          }
          if (now_ < tm.next) {
            t.cold->frame_release = tm.next;
            t.cold->timer_released = true;
            sleep_until(t, tm.next);
            return;
          }
          if (!e->absolute) tm.next = now_;  // overrun: restart from now (rt-app relative mode)
          t.cold->frame_release = now_;
          t.cold->timer_released = true;
          break;
        }
        case event_kind::suspend:
          susp_[static_cast<std::size_t>(e->res)].waiters.push_back(&t);
          block(t);
          return;
        case event_kind::resume: {
          std::deque<task_type*> ws;
          ws.swap(susp_[static_cast<std::size_t>(e->res)].waiters);
          for (task_type* w : ws) wake(*w, waker);
          break;
        }
        case event_kind::lock:
          if (acquire(t, e->res, ci, false)) break;
          return;
        case event_kind::unlock: unlock(e->res, t, ci); break;
        case event_kind::wait:
          unlock(e->res2, t, ci);
          t.waiting_mutex = e->res2;
          conds_[static_cast<std::size_t>(e->res)].g2.push_back(&t);
          block(t);
          return;
        case event_kind::signal: signal(e->res, ci, false); break;
        case event_kind::broadcast: signal(e->res, ci, true); break;
        case event_kind::sync:
          signal(e->res, ci, false);
          unlock(e->res2, t, ci);
          t.waiting_mutex = e->res2;
          conds_[static_cast<std::size_t>(e->res)].g2.push_back(&t);
          block(t);
          return;
        case event_kind::barrier: {
          barrier_res& b = barriers_[static_cast<std::size_t>(e->res)];
          if (static_cast<int>(b.arrived.size()) + 1 >= b.parties) {
            std::vector<task_type*> ws;
            ws.swap(b.arrived);
            for (task_type* w : ws) wake(*w, ci);
            break;
          }
          b.arrived.push_back(&t);
          block(t);
          return;
        }
        case event_kind::fork: {
          cspec& cs = specs_[static_cast<std::size_t>(e->res)];
          task_type* child = create(e->res, cs.next_instance);
          if (cs.cgroup < 0) child->cold->cgroup = t.cold->cgroup;  // a fork starts in its parent's group
          // Its delay counts from the run's start, as rt-app's (t_zero + delay): a child forked
          // before then waits for it, one forked later starts at once.
          const std::int64_t at = w_.tasks[static_cast<std::size_t>(e->res)].delay;
          if (at > now_) push(at, ev_start, child->id, 0);
          else start(*child, &t);
          break;
        }
        case event_kind::exit: die(t); return;
        case event_kind::yield:
          cpu(ci).rq.yield(t, st(now_));
          cpu(ci).yielding = true;
          resched(ci);
          return;
        case event_kind::set_nice: {
          // set_user_nice returns at once for the nice the task has (`if (task_nice(p) == nice
          // ...) return;`, 2.6.0 to today).
          sched_params p = t.cold->own_params;
          if ((p.kind == sched_kind::normal || p.kind == sched_kind::batch || p.kind == sched_kind::idle) && p.nice != e->params.nice) {
            p.nice = e->params.nice;
            set_own_params(t, ci, p, true);
          }
          break;
        }
        case event_kind::set_policy: {
          // Nothing changes when nothing would (the kernel's __sched_setscheduler returns early;
          // its dl_param_changed compares the flags too: SCHED_FLAG_RECLAIM, SCHED_FLAG_DL_OVERRUN).
          if (same_params(e->params, t.cold->own_params)) break;
          check_dl_affinity(t, e->params.kind, t.affinity, true);
          set_own_params(t, ci, e->params);
          break;
        }
        case event_kind::set_cgroup: move_cgroup(t, ci, e->res); break;
        case event_kind::set_uclamp: set_uclamp(t, ci, e->util_min, e->util_max); break;
        case event_kind::set_affinity:
          if (set_affinity(t, ci, e->affinity)) return;  // it leaves this CPU and goes on where it lands
          break;
        case event_kind::sem_post: sem_post(e->res, ci); break;
        case event_kind::sem_wait:
          if (sem_wait(e->res, t, false)) break;
          block(t);
          return;
        case event_kind::frame: {
          ++t.cold->frames;
          if (t.cold->last_frame >= 0) keep_sample(t.cold->frame_gaps, now_ - t.cold->last_frame);
          t.cold->last_frame = now_;
          if (t.cold->timer_released) {
            keep_sample(t.cold->responses, now_ - t.cold->frame_release);
            if (cfg_.trace != nullptr)
              cfg_.trace->counter(now_, t.cpu, comm_of(t), t.pid, "response_us", (now_ - t.cold->frame_release) / 1000);
          }
          t.cold->timer_released = false;
          if (e->duration > 0) {
            if (now_ - t.cold->frame_release <= e->duration) ++t.cold->dl_met; else ++t.cold->dl_missed;
          }
          t.cold->frame_release = now_;
          break;
        }
        case event_kind::job:
          if (begin_job(t, *e)) return;
          break;
        case event_kind::device_submit: {
          const std::int64_t d = std::max<std::int64_t>(0, e->duration + rng_.jitter(e->jitter));
          device_res& dv = devices_[static_cast<std::size_t>(e->res)];
          dv.busy_until = std::max(dv.busy_until, now_) + d;
          dv.work_ns += d;
          ++dv.requests;
          break;
        }
        case event_kind::device_wait: {
          const std::int64_t done = devices_[static_cast<std::size_t>(e->res)].busy_until;
          if (done <= now_) break;  // idle device: the fence has passed
          sleep_until(t, done);
          return;
        }
        case event_kind::pipe_write: {
          pipe_res& pp = pipes_[static_cast<std::size_t>(e->res)];
          if (pp.closed) {  // EPIPE: SIGPIPE's default action ends the writer
            die(t);
            return;
          }
          const std::int64_t want = t.cold->pipe_pending >= 0 ? t.cold->pipe_pending
                                                              : (e->count > 0 ? e->count : t.cold->last_read);
          const std::int64_t put = std::min(want, pp.capacity - pp.items);
          if (put > 0) {
            pp.msgs.push_back(put);
            pp.items += put;
            pp.max_items = std::max(pp.max_items, pp.items);
            ++pp.writes;
            wake_all(pp.readers, waker);
          }
          if (put < want) {  // full: the rest goes in when a reader makes room (write(2) blocks)
            t.cold->pipe_pending = want - put;
            ++pp.writer_blocks;
            pp.writers.push_back(&t);
            --t.ev;  // retried on wakeup
            block(t);
            return;
          }
          t.cold->pipe_pending = -1;
          break;
        }
        case event_kind::pipe_close: {
          pipe_res& pp = pipes_[static_cast<std::size_t>(e->res)];
          pp.closed = true;
          wake_all(pp.readers, waker, false);  // to see the EOF
          break;
        }
        case event_kind::pipe_read: {
          pipe_res& pp = pipes_[static_cast<std::size_t>(e->res)];
          if (pp.items == 0 && pp.closed) {
            // EOF: this phase's repetitions end here; the program goes on with its next phase
            // (a filter closing its own output) or, after its last, exits whatever its task
            // loop says: another pass would find the same EOF (a pipe stays closed), and a
            // looping reader with nothing else to do would spin at one instant.
            const cspec& cs = specs_[static_cast<std::size_t>(t.spec)];
            t.phase_loops_left = 1;
            if (t.ph + 1 == cs.phases.size()) t.task_loops_left = 1;
            t.ev = static_cast<std::uint32_t>(cs.phases[t.ph].events.size());
            break;
          }
          if (pp.items == 0) {
            ++pp.reader_blocks;
            pp.readers.push_back(&t);
            --t.ev;  // retried on wakeup: takes whatever is there by the time it runs
            block(t);
            return;
          }
          std::int64_t got = 0;
          for (std::int64_t m = 0; !pp.msgs.empty() && (e->count == 0 || m < e->count); ++m) {
            got += pp.msgs.front();
            pp.msgs.pop_front();
          }
          pp.items -= got;
          ++pp.reads;
          pp.items_moved += static_cast<std::uint64_t>(got);
          t.cold->last_read = got;
          wake_all(pp.writers, waker);
          const std::int64_t d = std::max<std::int64_t>(0, e->duration + rng_.jitter(e->jitter)) + e->per_item * got;
          if (d + t.refill_debt <= 0) break;
          t.action = task_core::act::work;
          t.remaining = d + t.refill_debt;
          t.refill_debt = 0;
          return;
        }
      }
      if (t.state != task_core::st::running) return;
    }
    // Spin guard: a program that loops forever without taking time gets 1 us of work per
    // 100000 instantaneous events, so simulated time advances.
    t.action = task_core::act::work;
    t.remaining = 1000;
  }

  /// Wakes every task in `ws` (blocked on a pipe) and empties it; each retries when it runs.
  /// A pipe's reads and writes wake sync (fs/pipe.c's wake_up_interruptible_sync_poll in
  /// pipe_read and pipe_write); its close does not (pipe_release's wake_up_interruptible_all).
  void wake_all(std::vector<task_type*>& ws, int ci, bool sync = true) {
    if (ws.empty()) return;
    std::vector<task_type*> woken;
    woken.swap(ws);
    for (task_type* w : woken) wake(*w, ci, enqueue_flags::none, sync);
  }

  /// Wakes `w` for the task running on CPU `ci` (a futex wake) and answers whether `w` preempts
  /// that task: it runs next on `ci`, so the kernel switches to it at the return from the
  /// waking syscall, before the waker runs on (the engine runs the waker's instantaneous
  /// events on to the next that takes time, so a race the wakee must win is settled here).
  bool wake_preempting(task_type& w, int ci) {
    const bool resched_before = cpu(ci).need_resched;
    wake(w, ci);
    return !resched_before && cpu(ci).need_resched && w.cpu == ci;
  }

  /// `t` unlocks mutex `mid` on CPU `ci`. A plain mutex (a futex: glibc's unlock stores 0,
  /// then FUTEX_WAKE) is left free and its first waiter, in futex order, woken to try again
  /// when it runs (acquire): a task that locks it before then takes it (barging), as the
  /// unlocker itself does when it locks again at once while the waiter wakes on another CPU.
  /// Except when the waiter preempts the unlocker: the kernel switches to it at the return
  /// from FUTEX_WAKE, so it takes the mutex before the unlocker runs again, and it is handed
  /// over here (the engine runs the unlocker's instantaneous events on to the next that takes
  /// time before it switches). A PI mutex's top waiter is woken to take it, and stays queued
  /// until it does (rt_mutex's mark_wakeup_next_waiter leaves the lock ownerless with waiters):
  /// the releasing task is deboosted at once; until the woken waiter runs, a locker of higher
  /// rt_mutex priority steals the mutex (acquire) and the woken waiter then sleeps again.
  void unlock(int mid, task_type& t, int ci) {
    mutex_res& m = mutexes_[static_cast<std::size_t>(mid)];
    if (m.owner != &t) {  // not the owner: ignored, as an error-checking mutex's EPERM; noted
      ++foreign_unlocks_[{name_of(t), mid}];
      return;
    }
    if (m.waiters.empty()) {
      m.owner = nullptr;
      return;
    }
    task_type* w = m.waiters.front();
    if (!w_.priority_inheritance) {
      m.waiters.pop_front();
      w->cold->blocked_on = -1;
      m.owner = nullptr;
      if (wake_preempting(*w, ci)) {  // (its lock_retry is set: else it tries again when it runs)
        m.owner = w;                  // it runs next here: it wins the race
        w->lock_retry = -1;
      }
      return;
    }
    // rt_mutex_slowunlock (futex_unlock_pi): the releasing task loses what this mutex's waiters
    // lent it, the lock is left without an owner, and its top waiter, still queued (its
    // pi_blocked_on stays set), is woken to take it when it runs (try_to_take_rt_mutex). The
    // futex word names the woken waiter, so user space sees the mutex taken; only a locker that
    // reaches the kernel with a higher rt_mutex priority can take it first (rt_mutex_steal).
    m.owner = nullptr;
    pi_cpu_ = ci;
    pi_update(t);
    pi_wake_top(mid, ci);
    SCHEDCORE_INVARIANT(pi_consistent());
  }
  /// Wakes the top waiter of ownerless PI mutex `mid` to try for it when it runs (a no-op
  /// when it is already awake: a woken waiter stays queued until it takes the mutex).
  void pi_wake_top(int mid, int ci) {
    task_type* w = mutexes_[static_cast<std::size_t>(mid)].waiters.front();
    if (w->state != task_core::st::blocked) return;
    w->lock_retry = mid;
    wake(*w, ci);
  }
  /// `t`, running on CPU `ci`, locks mutex `mid` (`retry`: again, woken by a plain mutex's
  /// unlock that did not hand it over). True when it goes
  /// on: it owns the mutex, or a PI lock failed with EDEADLK. Otherwise it queues and blocks:
  /// - a PI futex's lock walks the whole chain of owners (futex_lock_pi, with
  ///   RT_MUTEX_FULL_CHAINWALK): one that would close a cycle, the task's own mutex included,
  ///   fails with EDEADLK and the thread goes on without it (rt-app ignores
  ///   pthread_mutex_lock's result); else the task waits in rt_mutex order, the owner is
  ///   boosted (task_blocks_on_rt_mutex); the unlock wakes the top waiter, which takes the
  ///   mutex when it runs (`retry`) unless a higher-priority locker stole it in between
  ///   (try_to_take_rt_mutex with rt_mutex_steal: strictly before the top waiter in rt_mutex
  ///   order, so a fair task never steals from a fair one); a locker that may not steal an
  ///   ownerless mutex queues and sleeps with nobody to boost;
  /// - a plain mutex queues in futex order and tries again when an unlock wakes it
  ///   (`lock_retry`); a retry that finds the mutex taken (another task barged in) is counted.
  ///   A cycle just deadlocks: it waits forever, as PTHREAD_MUTEX_NORMAL.
  bool acquire(task_type& t, int mid, int ci, bool retry) {
    mutex_res& m = mutexes_[static_cast<std::size_t>(mid)];
    t.lock_retry = -1;
    if (m.owner == nullptr && m.waiters.empty()) {
      m.owner = &t;
      return true;
    }
    if (w_.priority_inheritance) return acquire_pi_contended(t, mid, ci);
    if (m.owner == nullptr) {  // a plain mutex whose woken waiter has not run yet: barging
      m.owner = &t;
      return true;
    }
    if (retry) ++lock_retries_;
    mutex_wait(mid, t);
    t.lock_retry = mid;
    block(t);
    return false;
  }

  /// acquire() of PI mutex `mid`, which has an owner or waiters, by `t` on CPU `ci`: `t` may be
  /// one of the waiters, woken by an unlock to take it (a woken waiter stays queued until it does).
  /// try_to_take_rt_mutex: an ownerless mutex goes to its top waiter, or to a task strictly
  /// before it in rt_mutex order (a steal: the woken waiter finds it taken when it runs and
  /// sleeps again, still queued); anyone else queues (or stays queued) and sleeps, boosting the
  /// owner if there is one.
  bool acquire_pi_contended(task_type& t, int mid, int ci) {
    mutex_res& m = mutexes_[static_cast<std::size_t>(mid)];
    const bool queued = t.cold->blocked_on == mid;
    pi_cpu_ = ci;
    if (m.owner == nullptr && (m.waiters.front() == &t || pi_before(t, *m.waiters.front()))) {
      if (queued) {
        m.waiters.erase(std::find(m.waiters.begin(), m.waiters.end(), &t));
        t.cold->blocked_on = -1;
      } else {
        ++pi_steals_;  // taken ahead of the woken top waiter
      }
      m.owner = &t;
      pi_update(t);  // it takes on the waiters left
      SCHEDCORE_INVARIANT(pi_consistent());
      return true;
    }
    if (!queued) {  // (an ownerless mutex ends no chain: no cycle through it)
      if (m.owner != nullptr && pi_deadlock(mid, t)) {
        ++pi_deadlocks_;
        return true;
      }
      mutex_wait(mid, t);
    }
    block(t);
    if (m.owner != nullptr) pi_update(*m.owner);
    SCHEDCORE_INVARIANT(pi_consistent());
    return false;
  }

  /// pthread_cond_signal (`all` false) or pthread_cond_broadcast on condition `cid` by a task
  /// on CPU `ci` (condvar_res: G1 first, the first of a group by futex order); a signal with
  /// no waiter is lost. A woken waiter relocks its mutex (`waiting_mutex`) when it runs (step,
  /// acquire), as glibc's pthread_cond_wait does after its futex wait, queueing if the mutex
  /// is taken then (with PI: EDEADLK on a cycle). O(waiters) per woken task.
  void signal(int cid, int ci, bool all) {
    condvar_res& cv = conds_[static_cast<std::size_t>(cid)];
    auto take_first = [](std::deque<task_type*>& g) {  // the futex's plist head: best futex_prio, earliest among equals
      const auto it = std::min_element(g.begin(), g.end(), [](const task_type* a, const task_type* b) { return futex_prio(*a) < futex_prio(*b); });
      task_type* w = *it;
      g.erase(it);
      return w;
    };
    if (all) {
      while (!cv.g1.empty()) wake(*take_first(cv.g1), ci);
      while (!cv.g2.empty()) wake(*take_first(cv.g2), ci);
      return;
    }
    if (cv.g1.empty()) cv.g1.swap(cv.g2);  // the group switch
    if (!cv.g1.empty()) wake(*take_first(cv.g1), ci);
  }

  /// sem_post on semaphore `sid` by a task on CPU `ci`: a unit more (at sem_value_max the post
  /// fails with EOVERFLOW instead: lost, counted), and the first sleeper, if any, woken to take
  /// a unit when it runs (sem_wait with `retry`). Except when it preempts the poster: the kernel
  /// switches to it at the return from FUTEX_WAKE, so it takes the unit before the poster runs
  /// again, and takes it here (the engine runs the poster's instantaneous events on to the next
  /// that takes time before it switches; see unlock).
  void sem_post(int sid, int ci) {
    sem_res& sm = sems_[static_cast<std::size_t>(sid)];
    ++sm.posts;
    if (sm.count == sem_value_max) {
      ++sm.overflows;
      return;
    }
    ++sm.count;
    if (!sm.waiters.empty()) {
      task_type* w = sm.waiters.front();
      sm.waiters.pop_front();
      ++sm.woken;
      if (wake_preempting(*w, ci)) {  // it runs next here: it wins the race (else its sem_retry takes a unit when it runs)
        --sm.count;
        --sm.woken;
        w->sem_retry = -1;
      }
    }
    sm.max_count = std::max(sm.max_count, sm.count);
    SCHEDCORE_INVARIANT(sem_consistent(sm));
  }
  /// sem_wait on semaphore `sid` by `t` (`retry`: a sleeper woken by a post, trying again as
  /// glibc's waiter does after its futex wait): true when it took a unit and goes on; false
  /// when there was none and it sleeps, behind every sleeper of the same or a better futex_prio
  /// (the caller blocks it). A retry that finds no unit (a running task took it) is counted.
  bool sem_wait(int sid, task_type& t, bool retry) {
    sem_res& sm = sems_[static_cast<std::size_t>(sid)];
    t.sem_retry = -1;
    if (retry) {
      --sm.woken;
    } else {
      ++sm.waits;
    }
    if (sm.count > 0) {
      --sm.count;
      SCHEDCORE_INVARIANT(sem_consistent(sm));
      return true;
    }
    ++(retry ? sm.retries : sm.blocks);
    const auto at = std::find_if(sm.waiters.begin(), sm.waiters.end(), [&](const task_type* w) { return futex_prio(t) < futex_prio(*w); });
    sm.waiters.insert(at, &t);
    t.sem_retry = sid;
    SCHEDCORE_INVARIANT(sem_consistent(sm));
    return false;
  }
  /// The count is in range, no more units than woken waiters while one sleeps (sem_res), and
  /// the sleepers are in futex order.
  static bool sem_consistent(const sem_res& sm) {
    if (sm.count < 0 || sm.count > sem_value_max || sm.woken < 0 || (sm.count > sm.woken && !sm.waiters.empty())) return false;
    for (std::size_t k = 1; k < sm.waiters.size(); ++k)
      if (futex_prio(*sm.waiters[k]) < futex_prio(*sm.waiters[k - 1])) return false;
    return true;
  }

  /// The running task `t` moves into task group `g` (-1: the root): the kernel's
  /// sched_move_task, a dequeue(save) and enqueue(restore) around the change of group.
  void move_cgroup(task_type& t, int ci, int g) {
    if (t.cold->cgroup == g) return;
    pelt_before_change(ci, &t);  // with the group it had until now
    t.cold->cgroup = g;
    if constexpr (detail_sim::grouped<fair_class>::value) {
      if (groups_.empty()) return;
      cpu_state& c = cpu(ci);
      c.rq.dequeue(t, st(now_), dequeue_flags::save | dequeue_flags::move);  // sched_move_task
      bind_group(ci, t);
      pelt_track(ci, t);
      c.rq.enqueue(t, st(now_), enqueue_flags::restore);
      c.rq.set_next(t, st(now_));  // it is still the running task
      resched(ci);
    }
  }

  /// The enqueue that ends a change of `t`'s parameters (its kernel priority was `oldprio`): a
  /// restore, at the head of its level when the change leaves it in the RT class with a lower
  /// priority than before. Today's __sched_setscheduler and rt_mutex_setprio queue with
  /// ENQUEUE_HEAD when `oldprio < p->prio`, so that a task giving up a priority ceiling goes on
  /// running before its equals (commit 81a44c5441d7 of 3.14, "Queue RT tasks to head when prio
  /// drops", had `oldprio <= p->prio` in __sched_setscheduler, which also put a task whose
  /// priority did not change at the head; later kernels leave such a task where it is). Within the RT class rt_policy's restore rule finds the same place; from outside it
  /// this is a reservation left (prio -1), by sched_setattr or a deboost: it keeps the CPU ahead
  /// of the RT tasks of its new priority that were waiting. The fair classes get no head: the
  /// kernel's ignores it, and 2.6's sched_setscheduler had none.
  enqueue_flags restore_flags(const task_type& t, int oldprio) const {
    return is_rt(t) && oldprio < prio(t) ? enqueue_flags::restore | enqueue_flags::head : enqueue_flags::restore;
  }

  /// After a change of the running task `t`'s parameters (its kernel priority was `oldprio`,
  /// its class `oldcls`; `nice`: a set_user_nice), before the pulls it queues: whether its CPU
  /// reschedules. Its class now decides (change_resched: the kernel's check_class_changed
  /// calls the new class's switched_to or prio_changed, or the era's core decides), and so
  /// does a reschedule the change's own dequeue asked for (take_resched: update_curr charged
  /// the task there and may have ended its request or throttled it).
  bool resched_after_change(int ci, task_type& t, int oldprio, int oldcls, bool nice) {
    cpu_state& c = cpu(ci);
    param_change pc;
    pc.oldprio = oldprio;
    pc.prio = prio(t);
    pc.switched = t.sched_class != oldcls;
    pc.nice = nice;
    const bool r = c.rq.change_resched(t, pc, st(now_));
    return c.rq.take_resched() || r;
  }

  void change_params(task_type& t, int ci, const sched_params& p, bool nice = false) {
    cpu_state& c = cpu(ci);
    const int oldprio = prio(t);
    const int oldcls = t.sched_class;
    pelt_before_change(ci, &t);
    // set_user_nice dequeues with DEQUEUE_SAVE, __sched_setscheduler with SAVE | MOVE.
    c.rq.dequeue(t, st(now_), nice ? dequeue_flags::save : dequeue_flags::save | dequeue_flags::move);
    const sched_params old = t.params;
    t.params = p;
    if (const errc e = bind_setup(ci, t, p); e != errc::ok) {
      t.params = old;
      (void)bind_setup(ci, t, old);
      // Deadline admission (or a reservation the class refuses) is a refusal the task lives
      // with, as sched_setattr's error; a kind or nice the policy under test does not run is
      // the policy's limit and stops the run, as it would at the task's start.
      if (p.kind != sched_kind::deadline)
        refuse_params(t, ci, p, e, "at " + std::to_string(now_) + " ns, in a change of its parameters: ");
    }
    pelt_track(ci, t);
    c.rq.enqueue(t, st(now_), restore_flags(t, oldprio));
    c.rq.set_next(t, st(now_));  // it is still the running task
    if (uclamp_on_) uclamp_recount(ci, t);  // a class change changes the RT default and whether it counts
    c.rq.prio_changed(t, st(now_));
    bool again = resched_after_change(ci, t, oldprio, oldcls, nice);
    if (ncpu_ > 1 && pull_after_change(ci, t, old)) again = true;
    if (again) resched(ci);
  }
  /// The running task `t` asks for parameters `p` (a set_policy or set_nice event). Without a
  /// PI boost they are what its classes run; with one, it keeps the boost while it is above them.
  /// A refusal (deadline admission) leaves both as they were.
  void set_own_params(task_type& t, int ci, const sched_params& p, bool nice = false) {
    const sched_params old = t.cold->own_params;
    t.cold->own_params = p;
    if (!w_.priority_inheritance) {
      change_params(t, ci, p, nice);
      if (!same_params(t.params, p)) t.cold->own_params = old;  // refused
      return;
    }
    if (t.cold->pi_donor < 0 && t.cold->pi_dl_applied < 0) {
      const pi_lend want = pi_wanted(t);
      if (want.donor < 0) {
        const sched_params eff = pi_effective(p, want);
        change_params(t, ci, eff, nice);
        if (!same_params(t.params, eff)) {  // refused: the old parameters and boost stay
          t.cold->own_params = old;
          return;
        }
        t.cold->pi_level = want.level;
        return;
      }
    }
    // A deadline waiter lends it a reservation (or would, with the new parameters): its own
    // parameters change under the boost (__sched_setscheduler keeps a PI boost in force). The
    // boost is left, the change goes through admission (a refusal restores the old ones), and
    // the boost is taken again on the parameters it now has.
    cpu_state& c = cpu(ci);
    const sched_params old_eff = t.params;
    const int oldprio = prio(t);
    const int oldcls = t.sched_class;
    pelt_before_change(ci, &t);
    c.rq.dequeue(t, st(now_), dequeue_flags::save | dequeue_flags::move);  // __sched_setscheduler
    pi_leave_dl(ci, t);
    t.params = p;
    if (bind_setup(ci, t, p) != errc::ok) {
      t.cold->own_params = old;
      t.params = old;
      (void)bind_setup(ci, t, old);
    }
    const pi_lend want = pi_wanted(t);
    t.cold->pi_level = want.level;
    t.cold->pi_donor = want.donor;
    pi_rebind(ci, t, want);
    pelt_track(ci, t);
    c.rq.enqueue(t, st(now_), restore_flags(t, oldprio));
    c.rq.set_next(t, st(now_));
    if (uclamp_on_) uclamp_recount(ci, t);
    c.rq.prio_changed(t, st(now_));
    bool again = resched_after_change(ci, t, oldprio, oldcls, nice);
    if (ncpu_ > 1 && pull_after_change(ci, t, old_eff)) again = true;
    if (again) resched(ci);
  }

  // ---------------------------------------------------------------- priority inheritance
  // With workload::priority_inheritance every mutex is a PI mutex, as a PTHREAD_PRIO_INHERIT
  // mutex is a PI futex on the kernel's rt_mutex (Documentation/locking/rt-mutex-design.rst):
  // - waiters queue by priority (rt_mutex_waiter_less, 5.15+): deadline tasks first by deadline,
  //   then real-time tasks by priority, then every other task at DEFAULT_PRIO, in arrival order
  //   among equals; the lock goes to the first;
  // - an owner runs at the highest real-time priority among the waiters of the mutexes it holds
  //   when that is above its own (rt_mutex_setprio): a fair owner joins the RT class at that
  //   priority and runs there as SCHED_FIFO (its policy stays SCHED_NORMAL, which has no RR
  //   slice), an RR owner stays RR; a deadline owner is above every real-time waiter;
  // - a deadline waiter (the earliest deadline among them: the top waiter) lends its
  //   reservation instead, with a deadline class that can (edf_policy's `boost`: the kernel's
  //   pi_se): an owner of another class joins the deadline class on it, a deadline owner runs
  //   on it when the waiter's deadline is earlier; the class's rules for a boosted task apply
  //   (never throttled, replenished with the donor's runtime and period). The task's `params`
  //   then show SCHED_DEADLINE with the donor's reservation (traces print prio -1, as the
  //   kernel's p->prio); its own stay in own_params;
  // - the boost follows the chain: an owner that itself waits for a mutex moves up that
  //   mutex's queue and lends its priority on (rt_mutex_adjust_prio_chain, up to
  //   max_lock_depth = 1024 steps, which also stops a deadlock's cycle); a deadline boost is
  //   taken again at each step, as rt_mutex_setprio does for a deadline priority, since the
  //   reservation lent along the chain may have changed with the same top waiter;
  // - it ends when the mutex is released (the releasing task is deboosted before the new owner
  //   wakes) or the waiters leave.
  // At the unlock the top waiter is woken and stays queued until it runs and takes the mutex
  // (rt_mutex's mark_wakeup_next_waiter leaves the lock ownerless with waiters); a locker
  // strictly before it in rt_mutex order steals the mutex in between (rt_mutex_steal; the
  // futex's fixup_pi_state_owner rewrites the owner's TID), and the woken waiter sleeps again.
  // Not modelled: the proxy execution of 6.x's RT work.
  static constexpr int pi_chain_max = 1024;  ///< max_lock_depth
  int pi_cpu_ = 0;  ///< the CPU whose task takes, releases or waits for a PI mutex (traces' sched_pi_setprio)
  /// What the waiters of an owner's PI mutexes lend it: an RT priority above its own (`level`,
  /// 0: none) or a deadline waiter's reservation (`donor`, a task id; -1: none), which comes first.
  struct pi_lend {
    int level = 0;
    int donor = -1;
  };

  /// Whether `t` waiting for PI mutex `mid` would close a cycle: the owner of `mid`, the owner
  /// of the mutex that one waits for, and so on, reaches `t` (rt_mutex_adjust_prio_chain's
  /// deadlock detection). O(chain length).
  bool pi_deadlock(int mid, const task_type& t) const {
    const task_type* o = mutexes_[static_cast<std::size_t>(mid)].owner;
    for (std::size_t depth = 0; o != nullptr && depth <= tasks_.size(); ++depth) {
      if (o == &t) return true;
      if (o->state != task_core::st::blocked || o->cold->blocked_on < 0) return false;
      o = mutexes_[static_cast<std::size_t>(o->cold->blocked_on)].owner;
    }
    return false;
  }
  /// rt_mutex_waiter_less: whether waiter `a` goes before `b`.
  bool pi_before(const task_type& a, const task_type& b) const {
    const bool adl = in_dl_class(a), bdl = in_dl_class(b);
    if (adl || bdl) return adl && (!bdl || dl_deadline(a) < dl_deadline(b));
    const bool art = !is_fair(a), brt = !is_fair(b);
    if (art || brt) return art && (!brt || rt_level(a) > rt_level(b));
    return false;  // DEFAULT_PRIO for both: arrival order
  }
  /// The priority a plain futex queues a waiter at (__futex_queue: `min(normal_prio,
  /// MAX_RT_PRIO)`, lower first): -1 for a deadline task, 99 - rt_priority for SCHED_FIFO and
  /// SCHED_RR, 100 for every other task. Taken from the task's own parameters when it queues.
  static int futex_prio(const task_type& t) {
    const sched_params& p = t.cold->own_params;
    if (p.kind == sched_kind::deadline) return -1;
    if (p.kind == sched_kind::fifo || p.kind == sched_kind::rr) return rt_priority_max - p.rt_priority;
    return rt_priority_max + 1;
  }
  /// `t` starts waiting for mutex `mid`. With PI, behind every waiter that is not after it
  /// (rt_mutex_waiter_less). Without, as a plain futex queues its waiters (futex_q's plist):
  /// behind every waiter of the same or a better futex_prio, so deadline and RT waiters come
  /// first in priority order (deadline waiters among themselves in arrival order, whatever
  /// their deadlines) and every other task last, in arrival order.
  void mutex_wait(int mid, task_type& t) {
    std::deque<task_type*>& q = mutexes_[static_cast<std::size_t>(mid)].waiters;
    t.cold->blocked_on = mid;
    auto at = q.end();
    if (w_.priority_inheritance)
      at = std::find_if(q.begin(), q.end(), [&](const task_type* w) { return pi_before(t, *w); });
    else
      at = std::find_if(q.begin(), q.end(), [&](const task_type* w) { return futex_prio(t) < futex_prio(*w); });
    q.insert(at, &t);
  }
  /// What the waiters of the mutexes `o` holds lend it: the earliest-deadline deadline waiter's
  /// reservation when the deadline class can lend one, else the highest RT priority of its
  /// waiters when above its own (a deadline owner is above every RT waiter).
  pi_lend pi_wanted(const task_type& o) const {
    const sched_params& own = o.cold->own_params;
    pi_lend r;
    const task_type* top_dl = nullptr;
    int lend = 0;
    for (const mutex_res& m : mutexes_) {
      if (m.owner != &o) continue;
      for (const task_type* w : m.waiters) {
        if (in_dl_class(*w)) {
          if (top_dl == nullptr || dl_deadline(*w) < dl_deadline(*top_dl)) top_dl = w;
        } else if (!is_fair(*w)) {
          lend = std::max(lend, rt_level(*w));
        }
      }
    }
    if (pi_dl_ && top_dl != nullptr) {
      r.donor = static_cast<int>(top_dl->id);
      return r;
    }
    if (own.kind == sched_kind::deadline) return r;
    const int own_level = own.kind == sched_kind::fifo || own.kind == sched_kind::rr ? own.rt_priority : 0;
    r.level = lend > own_level ? lend : 0;
    return r;
  }
  /// The parameters `o`'s classes run with `l` lent: its own, at an RT priority, or (a deadline
  /// donor, an owner of another class) SCHED_DEADLINE on the donor's reservation as the donor
  /// runs it. A deadline owner keeps its own: the class decides whether it runs on the donor's.
  sched_params pi_effective(const sched_params& own, const pi_lend& l) const {
    sched_params p = own;
    if (l.donor >= 0) {
      if (own.kind == sched_kind::deadline) return own;
      const sched_params& d = tasks_[static_cast<std::size_t>(l.donor)]->params;
      p.kind = sched_kind::deadline;
      p.runtime = d.runtime;
      p.deadline = d.deadline;
      p.period = d.period;
      return p;
    }
    if (l.level == 0) return own;
    p.kind = own.kind == sched_kind::rr ? sched_kind::rr : sched_kind::fifo;
    p.rt_priority = static_cast<std::uint8_t>(l.level);
    return p;
  }
  /// rt_mutex_adjust_prio and its chain: `o`'s boost after a change of the waiters of a mutex
  /// it holds (or of its ownership).
  void pi_update(task_type& o, int depth = 0) {
    if (o.state == task_core::st::dead || o.state == task_core::st::unborn) return;
    const pi_lend want = pi_wanted(o);
    // A deadline boost is taken again even with the same top waiter: the reservation it lends
    // (its own or one lent to it) may have changed (rt_mutex_setprio never skips a deadline prio).
    if (want.level == o.cold->pi_level && want.donor == o.cold->pi_donor && want.donor < 0) return;
    o.cold->pi_level = want.level;
    o.cold->pi_donor = want.donor;
    pi_apply(o, want);
    const int mid = o.cold->blocked_on;
    if (mid < 0 || depth + 1 >= pi_chain_max) return;
    // It waits for another mutex: its place in that queue follows its priority, and so does
    // what it lends that mutex's owner.
    mutex_res& m = mutexes_[static_cast<std::size_t>(mid)];
    m.waiters.erase(std::find(m.waiters.begin(), m.waiters.end(), &o));
    mutex_wait(mid, o);
    if (m.owner != nullptr) {
      pi_update(*m.owner, depth + 1);
    } else {
      // No owner: the unlock's woken waiter has not taken it yet. The chain ends here, and a
      // new top waiter is woken to try too (rt_mutex_adjust_prio_chain, exit condition 3).
      pi_wake_top(mid, pi_cpu_);
    }
  }
  /// The PI state is whole (checked after each lock, unlock and requeue when invariants are on):
  /// every waiter names its mutex and sleeps unless woken to try for it (an ownerless mutex's
  /// top waiter always is), the queues are in rt_mutex order, and every task
  /// not waiting for its wakeup to take a changed boost runs with its own parameters raised to
  /// exactly what its mutexes' waiters lend, its deadline class given the donor's reservation
  /// when one is lent. O(mutexes x waiters x mutexes).
  bool pi_consistent() const {
    for (std::size_t mid = 0; mid < mutexes_.size(); ++mid) {
      const mutex_res& m = mutexes_[mid];
      // Without an owner the top waiter is awake, woken to take it. A waiter is awake only when
      // woken to try (one a steal or a requeue beat sleeps again when it runs).
      if (m.owner == nullptr && !m.waiters.empty() && m.waiters.front()->state == task_core::st::blocked) return false;
      for (std::size_t k = 0; k < m.waiters.size(); ++k) {
        const task_type& w = *m.waiters[k];
        if (w.cold->blocked_on != static_cast<int>(mid)) return false;
        if (w.state != task_core::st::blocked && w.lock_retry != static_cast<int>(mid)) return false;
        if (k > 0 && pi_before(w, *m.waiters[k - 1])) return false;
      }
      if (m.owner == nullptr || m.owner->state == task_core::st::dead) continue;
      const task_type& o = *m.owner;
      const pi_lend want = pi_wanted(o);
      if (o.cold->pi_level != want.level || o.cold->pi_donor != want.donor) return false;
      if (o.cold->pi_pending) continue;
      if (!same_params(o.params, pi_effective(o.cold->own_params, want))) return false;
      // A deadline owner the class refused (a cycle of deadline owners) runs on its own.
      const bool refused = want.donor >= 0 && o.cold->own_params.kind == sched_kind::deadline;
      if (o.cold->pi_dl_applied != want.donor && !(refused && o.cold->pi_dl_applied < 0)) return false;
      if (want.donor >= 0 && !in_dl_class(o)) return false;
    }
    return true;
  }
  /// rt_mutex_setprio: `o` is run with what `l` lends it wherever it is. Queued (running or
  /// not): dequeue(save), the change, enqueue(restore) (which replenishes a deadline boost), and
  /// the checks that follow (a running task's pulls and reschedule; a queued one may now preempt
  /// its CPU's task or be pushed to another CPU); asleep: the change alone, which its next enqueue
  /// sees. A sleeper its class still holds (EEVDF's delayed dequeue) takes the change at its
  /// wakeup.
  void pi_apply(task_type& o, const pi_lend& l) {
    const sched_params p = pi_effective(o.cold->own_params, l);
    if (same_params(o.params, p) && l.donor < 0 && o.cold->pi_dl_applied < 0 && !o.cold->pi_pending) return;
    const int oldprio = prio(o);
    const int oldcls = o.sched_class;
    switch (o.state) {
      case task_core::st::running:
      case task_core::st::runnable: {
        const int ci = o.cpu;
        cpu_state& c = cpu(ci);
        const bool running = o.state == task_core::st::running;
        const sched_params old = o.params;
        pelt_before_change(ci, &o);
        c.rq.dequeue(o, st(now_), dequeue_flags::save | dequeue_flags::move);  // rt_mutex_setprio
        pi_leave_dl(ci, o);
        pi_rebind(ci, o, l);
        pelt_track(ci, o);
        c.rq.enqueue(o, st(now_), restore_flags(o, oldprio));
        if (running) c.rq.set_next(o, st(now_));  // it is still the running task
        if (uclamp_on_) uclamp_recount(ci, o);
        c.rq.prio_changed(o, st(now_));
        if (running) {
          bool again = resched_after_change(ci, o, oldprio, oldcls, false);
          if (ncpu_ > 1 && pull_after_change(ci, o, old)) again = true;
          if (again) resched(ci);
        } else {
          check_preempt(ci, o);
          push_woken(ci, o);
        }
        break;
      }
      case task_core::st::blocked: {
        if (o.cpu >= 0 && cpu(o.cpu).rq.delayed(o)) {
          o.cold->pi_pending = true;
          return;
        }
        const int ci = std::max(o.cpu, 0);
        pi_leave_dl(ci, o);
        pi_rebind(ci, o, l);
        break;
      }
      default: o.params = pi_effective(o.cold->own_params, l); break;
    }
    o.cold->pi_pending = false;
    if (cfg_.trace != nullptr) cfg_.trace->pi_setprio(now_, pi_cpu_, who(pi_cpu_), comm_of(o), o.pid, oldprio, prio(o));
  }
  /// Off its queue, `o` leaves the reservation a deadline waiter lent it (deboost): its deadline
  /// class runs it on its own again. Its class and parameters are pi_rebind's to set.
  void pi_leave_dl(int ci, task_type& o) {
    if constexpr (pi_dl_) {
      if (o.cold->pi_dl_applied >= 0) cpu(ci).rq.template get<0>().deboost(o);
    }
    (void)ci;
    o.cold->pi_dl_applied = -1;
  }
  /// Off its queue and with no reservation lent, `o` takes what `l` lends: its own parameters or
  /// an RT priority (the class setup of those, which moves it between classes), or a deadline
  /// donor's reservation (an owner of another class leaves its class for the deadline class,
  /// as rt_mutex_setprio's `p->sched_class = &dl_sched_class`; then the class's boost).
  void pi_rebind(int ci, task_type& o, const pi_lend& l) {
    const sched_params p = pi_effective(o.cold->own_params, l);
    if constexpr (pi_dl_) {
      // The class refuses only a cycle back to a deadline owner's own reservation (a deadlock
      // of deadline tasks), which leaves that owner on its own, as the kernel's pi_se would.
      if (l.donor >= 0 && cpu(ci).rq.template get<0>().boost(o, *tasks_[static_cast<std::size_t>(l.donor)]) == errc::ok) {
        if (!in_dl_class(o)) {
          cpu(ci).rq.switched_from(o, st(now_));  // the class it leaves (fair or RT)
          o.sched_class = 0;
        }
        o.params = p;
        o.cold->pi_dl_applied = l.donor;
        return;
      }
    }
    // Its own class and parameters, or an RT boost. A task still in the deadline class with
    // parameters of another kind (a lent reservation just left) is set up again there too.
    if (!same_params(o.params, p) || (in_dl_class(o) && p.kind != sched_kind::deadline)) {
      o.params = p;
      (void)bind_setup(ci, o, p);
    }
  }

  /// The pulls a running task's change of parameters queues (switched_from_rt, prio_changed_rt,
  /// switched_from_dl, prio_changed_dl): its CPU's best RT priority or earliest deadline may
  /// have fallen. Leaving the RT class pulls when no other RT task is queued here; a lower RT
  /// priority pulls; leaving the deadline class pulls when no other runnable reservation is
  /// queued here; new deadline parameters pull. Returns whether a task was pulled here:
  /// pull_rt_task and pull_dl_task then reschedule this CPU (`if (resched)
  /// resched_curr(this_rq);`).
  bool pull_after_change(int ci, const task_type& t, const sched_params& old) {
    const std::uint64_t pulls = rt_pulls_ + dl_pulls_;
    const bool old_dl = dl_class_ && old.kind == sched_kind::deadline;
    const bool old_rt = !old_dl && (old.kind == sched_kind::fifo || old.kind == sched_kind::rr || old.kind == sched_kind::deadline);
    if (old_dl) {
      sched_time earliest{};
      if (in_dl_class(t) || !earliest_dl(ci, &t, earliest)) pull_dl(ci);
    } else if (old_rt) {
      const int old_level = old.kind == sched_kind::deadline ? rt_priority_max : old.rt_priority;
      if (is_rt(t) ? rt_level(t) < old_level : cpu_rt_level(ci, &t, false) == 0) pull_rt(ci);
    }
    return rt_pulls_ + dl_pulls_ != pulls;
  }

  // interbench job steps (interbench.md section 2; the rules are in interbench_job.hpp), the
  // timekeeper an exact timer.
  bool begin_job(task_type& t, const cevent& e) {
    t.cold->has_jobs = true;
    interbench_job& jb = t.cold->job;
    if (e.period == 0 && e.pushback == 0) {  // interbench Gaming: a chunk of work, lateness = finish - (start + work)
      jb.begin_chunk(now_, e.duration);
    } else {
      const std::int64_t wake = jb.begin_step(now_, e.period, e.pushback);
      if (wake != interbench_job::burn) {  // dropped job
        sleep_until(t, wake, wake_timekeeper);
        return true;
      }
    }
    t.job_burning = true;
    if (e.duration + t.refill_debt > 0) {
      t.action = task_core::act::work;
      t.remaining = e.duration + t.refill_debt;
      t.refill_debt = 0;
      return true;
    }
    finish_job(t);
    return t.state != task_core::st::running;
  }

  void finish_job(task_type& t) {
    t.job_burning = false;
    const std::int64_t wake = t.cold->job.finish(now_);
    if (wake != interbench_job::no_sleep) sleep_until(t, wake, wake_timekeeper);  // its timekeeper thread posts a semaphore
  }

  // ---------------------------------------------------------------- results
  run_result results(double host_s) {
    run_result r;
    r.scenario = w_.name;
    r.cpus = ncpu_;
    r.capacity = cfg_.machine.capacity;
    r.smt_threads = smt_;
    r.smt_gain_pct = cfg_.machine.smt_gain_pct;
    for (const domain_state& dm : doms_) {
      domain_result x;
      x.name = cfg_.machine.perf_domains[static_cast<std::size_t>(&dm - doms_.data())].name;
      x.first_cpu = dm.first;
      x.cpus = dm.count;
      x.capacity = dm.pd.capacity;
      std::uint64_t units = 0;
      for (int k = dm.first; k < dm.first + dm.count; ++k) {
        x.energy_nj += energy_nj_[static_cast<std::size_t>(k)];
        units += work_units_[static_cast<std::size_t>(k)];
      }
      x.work_ns = static_cast<std::int64_t>(units >> 10);
      x.freq_changes = dm.changes;
      for (std::size_t i = 0; i < dm.states.size(); ++i)
        x.time_in_state.emplace_back(dm.states[i].frequency_khz,
                                     dm.residency[i] + (i == dm.cur ? std::max<std::int64_t>(0, end_ - dm.state_since) : 0));
      r.domains.push_back(std::move(x));
      if (r.capacity.empty()) r.capacity = cap_;
    }
    r.hz = hz_;
    r.seed = cfg_.seed;
    const std::int64_t span = end_ - window_;  // the statistics window (all of the run without a warm-up)
    r.duration_ns = span;
    r.warmup_ns = window_;
    r.notes = w_.notes;
    if (const int calib = w_.calibration_cpu; calib >= 0 && cap_[static_cast<std::size_t>(calib)] != cpu_capacity_max)
      r.notes.push_back("run times are CPU" + std::to_string(calib) + "'s (rt-app's calibration CPU): each run is " +
                        std::to_string(cap_[static_cast<std::size_t>(calib)]) + "/1024 of the work a 1024 CPU does in it");
    if (cfg_.warmup_ns > 0 && window_ == 0)
      r.notes.push_back("the run ended before its warm-up (" + std::to_string(cfg_.warmup_ns) +
                        " ns): statistics cover the whole run");
    else if (window_ > 0)
      r.notes.push_back("statistics cover [" + std::to_string(window_) + ", " + std::to_string(end_) +
                        ") ns: the first " + std::to_string(window_) + " ns were a warm-up");
    {
      // A few named, the rest counted: a file with many instances would repeat one mistake.
      constexpr std::size_t named = 4;
      std::size_t k = 0;
      for (const auto& [who, count] : foreign_unlocks_) {
        if (k++ == named) {
          r.notes.push_back("and " + std::to_string(foreign_unlocks_.size() - named) +
                            " more task/mutex pairs unlocked a mutex they did not hold");
          break;
        }
        r.notes.push_back("task '" + who.first + "' unlocked mutex '" + mutex_names_[static_cast<std::size_t>(who.second)] +
                          "', which it did not hold, " + std::to_string(count) +
                          (count == 1 ? " time" : " times") + ": ignored (an error-checking mutex's EPERM)");
      }
    }
    for (std::size_t k = 0; k < exits_holding_.size(); ++k) {
      if (k == 4) {
        r.notes.push_back("and " + std::to_string(exits_holding_.size() - 4) + " more exits holding a mutex");
        break;
      }
      r.notes.push_back(exits_holding_[k]);
    }
    run_totals& T = r.totals;
    for (int ci = 0; ci < ncpu_; ++ci) {
      T.context_switches += cpu(ci).switches;
      T.idle_ns += cpu(ci).idle_ns;
      T.overhead_ns += cpu(ci).overhead_ns;
    }
    const double secs = static_cast<double>(span) / 1e9;
    T.cs_per_sec = secs > 0 ? static_cast<double>(T.context_switches) / secs : 0;
    T.idle_pct = span > 0 ? 100.0 * static_cast<double>(T.idle_ns) / (static_cast<double>(span) * ncpu_) : 0;
    T.makespan_ns = foreground_ == 0 && last_exit_ >= 0 ? last_exit_ : end_;
    T.events = events_;
    T.events_per_sec = cfg_.host_timing && host_s > 0 ? static_cast<double>(events_) / host_s : 0;
    std::vector<double> shares;
    std::vector<const task_type*> counted;  // the tasks behind `shares`, in order
    for (const auto& up : tasks_) {
      task_type& t = *up;
      if (t.state == task_core::st::unborn) continue;
      task_result x;
      x.name = name_of(t);
      const task_spec& ts = w_.tasks[static_cast<std::size_t>(t.spec)];
      x.group = ts.group;
      x.daemon = ts.daemon;
      x.kind = detail_sim::kind_name(t.cold->own_params.kind);  // its own, not a PI boost in force at the end
      x.nice = t.cold->own_params.nice;
      x.rt_priority = t.cold->own_params.rt_priority;
      x.start_ns = t.cold->start_ns;
      x.exit_ns = t.cold->exit_ns;
      x.cpu_ns = t.cpu_ns;
      std::int64_t wait = t.wait_ns;
      std::int64_t maxw = t.max_wait_ns;
      if (t.state == task_core::st::runnable) {  // still waiting at the end
        wait += end_ - t.wait_since;
        maxw = std::max(maxw, end_ - t.wait_since);
      }
      x.wait_ns = wait;
      x.max_wait_ns = maxw;
      x.switches = t.switches;
      x.migrations = t.migrations;
      x.latency = summarize(t.cold->lat);
      x.deadlines_met = t.cold->dl_met + t.cold->job.deadlines_met;
      x.deadlines_missed = t.cold->dl_missed + t.cold->job.deadlines_missed;
      x.frames = t.cold->frames;
      const std::int64_t life = (t.cold->exit_ns >= 0 ? t.cold->exit_ns : end_) - t.cold->start_ns;
      x.fps = life > 0 ? static_cast<double>(t.cold->frames) * 1e9 / static_cast<double>(life) : 0;
      x.frame_interval = summarize(t.cold->frame_gaps);
      x.response = summarize(t.cold->responses);
      x.slack = summarize_slack(t.cold->slacks);
      x.sigxcpu = t.cold->sigxcpu;
      x.reports_overrun = t.cold->reports_overrun;
      if (cfg_.keep_samples) {  // plots: raw samples; frame times rebuilt from the gaps and the last frame
        x.latency_samples = t.cold->lat;
        if (t.cold->frames > 0) {
          x.frame_times.assign(t.cold->frame_gaps.size() + 1, t.cold->last_frame);
          for (std::size_t k = t.cold->frame_gaps.size(); k-- > 0;) x.frame_times[k] = x.frame_times[k + 1] - t.cold->frame_gaps[k];
          // After a warm-up the first gap reaches back to a frame before the window: the
          // interval counts (it ends in the window), that frame does not.
          std::size_t before = 0;
          while (before < x.frame_times.size() && x.frame_times[before] < window_) ++before;
          x.frame_times.erase(x.frame_times.begin(), x.frame_times.begin() + static_cast<std::ptrdiff_t>(before));
        }
      }
      x.has_jobs = t.cold->has_jobs;
      if (t.cold->has_jobs) x.jobs = t.cold->job.summary();
      T.task_cpu_ns += t.cpu_ns;
      T.longest_starvation_ns = std::max(T.longest_starvation_ns, maxw);
      T.migrations += t.migrations;
      // Fairness covers CPU-bound time-sharing tasks: runnable >= 90 % of their life.
      const sched_params& own = t.cold->own_params;  // not a PI boost in force at the end
      const bool fair_kind = own.kind == sched_kind::normal || own.kind == sched_kind::batch;
      if (fair_kind && life > 0 && (t.cpu_ns + wait) * 10 >= life * 9) {
        shares.push_back(static_cast<double>(t.cpu_ns) / static_cast<double>(life) / nice_weight(own.nice));
        counted.push_back(&t);
      }
      r.tasks.push_back(std::move(x));
    }
    if (!w_.cgroups.empty()) entitle_by_cgroup(counted, shares);
    T.misfit_moves = misfit_moves_;
    T.eas_wakeups = eas_wakeups_;
    T.affine_wakeups = affine_wakeups_;
    T.rt_pushes = rt_pushes_;
    T.rt_pulls = rt_pulls_;
    T.dl_pushes = dl_pushes_;
    T.dl_pulls = dl_pulls_;
    T.affinity_moves = affinity_moves_;
    T.pi_deadlocks = pi_deadlocks_;
    T.pi_steals = pi_steals_;
    T.lock_retries = lock_retries_;
    T.priority_inversions = priority_inversions_;
    T.first_inversion_ns = first_inversion_ns_;
    r.jain = jain_index(shares);
    r.jain_tasks = shares.size();
    for (std::size_t d = 0; d < devices_.size(); ++d) {
      const device_res& dv = devices_[d];
      device_result x;
      x.name = device_names_[d];
      x.requests = dv.requests;
      // A backlog at the end is one busy stretch [end, busy_until): the part after the end
      // is subtracted so that busy time is measured over the run like idle time.
      x.busy_ns = dv.work_ns - std::max<std::int64_t>(0, dv.busy_until - end_) - dv.busy_before;
      x.busy_pct = span > 0 ? 100.0 * static_cast<double>(x.busy_ns) / static_cast<double>(span) : 0;
      r.devices.push_back(std::move(x));
    }
    for (std::size_t g = 0; g < w_.cgroups.size(); ++g) {
      const cgroup_spec& cg = w_.cgroups[g];
      if (cg.max_quota_ns == -1) continue;
      cgroup_result x;
      x.name = cg.name;
      x.quota_ns = cg.max_quota_ns;
      x.period_ns = cg.max_period_ns;
      x.burst_ns = cg.max_burst_ns;
      if (bw_pools_ != nullptr) {  // a policy without group scheduling has no pools: all 0
        const bw_stats now = bw_stats_of(bw_pools_[g]), was = bw_before_[g];
        x.nr_throttled = now.nr_throttled - was.nr_throttled;
        x.nr_periods = now.nr_periods - was.nr_periods;
        x.nr_throttled_periods = now.nr_throttled_periods - was.nr_throttled_periods;
        x.throttled_ns = now.throttled_ns - was.throttled_ns;
        x.nr_bursts = now.nr_bursts - was.nr_bursts;
        x.burst_used_ns = now.burst_ns - was.burst_ns;
      }
      r.cgroups.push_back(std::move(x));
    }
    if (!r.cgroups.empty() && bw_pools_ == nullptr)
      // (The engine does not know the policy's name: the front end labels the row.)
      r.notes.push_back("cpu.max: only cfs and eevdf schedule task groups and cap them; this policy ignores it");
    for (const pipe_res& pp : pipes_) {
      pipe_result x;
      x.name = pp.name;
      x.writes = pp.writes;
      x.reads = pp.reads;
      x.items = pp.items_moved;
      x.reader_blocks = pp.reader_blocks;
      x.writer_blocks = pp.writer_blocks;
      x.max_items = pp.max_items;
      x.mean_batch = pp.reads > 0 ? static_cast<double>(pp.items_moved) / static_cast<double>(pp.reads) : 0;
      r.pipes.push_back(std::move(x));
    }
    for (const sem_res& sm : sems_) {
      semaphore_result x;
      x.name = sm.name;
      x.posts = sm.posts;
      x.waits = sm.waits;
      x.blocks = sm.blocks;
      x.retries = sm.retries;
      x.overflows = sm.overflows;
      x.count = sm.count;
      x.max_count = sm.max_count;
      x.waiters = sm.waiters.size();
      r.semaphores.push_back(std::move(x));
    }
    return r;
  }


  const workload& w_;
  run_config cfg_;
  int ncpu_ = 1, hz_ = 1000;
  std::int64_t duration_ = 0, tick_ns_ = 1000000, balance_ticks_ = 4;
  std::int64_t tick_phase_ = 0;  ///< machine.tick_phase_ns modulo tick_ns_
  std::int64_t now_ = 0, end_ = 0, last_exit_ = -1;
  std::int64_t window_ = 0;  ///< start of the statistics window (the warm-up's end once it passed)
  bool done_ = false;
  int foreground_ = 0;
  std::uint64_t seq_ = 0, events_ = 0;
  std::uint64_t program_events_ = 0;         ///< program events executed (step), for the budget
  std::uint64_t samples_kept_ = 0;           ///< samples kept (keep_sample), for the budget
  std::uint64_t program_event_budget_ = ~std::uint64_t{0};  ///< set by run(): program_event_budget()
  detail_sim::prng rng_{1};
  static constexpr std::size_t task_chunk = 64;  ///< tasks per storage chunk
  detail_sim::event_heap q_;                     ///< every event but ticks
  detail_sim::event_heap tq_;                    ///< ticks (at most one per CPU)
  std::uint64_t resched_mask_ = 0;               ///< CPUs with need_resched set
  std::unique_ptr<cpu_state[]> cpus_;
  std::vector<std::unique_ptr<task_type[]>> chunks_;  ///< task storage
  std::vector<task_type*> tasks_;                ///< by id
  std::vector<std::unique_ptr<task_cold[]>> cold_chunks_;  ///< cold parts, same chunking
  std::vector<cspec> specs_;
  /// Per CPU, one object per workload cgroup (a grouped fair class only; empty otherwise).
  std::vector<std::unique_ptr<detail_sim::group_array_t<fair_class>>> groups_;
  /// cpu.max pools, one per cgroup (shared by its queues on every CPU; unlimited where the
  /// cgroup has no limit); nullptr without a grouped fair class.
  std::unique_ptr<cfs_bandwidth[]> bw_pools_;
  /// A pool's cpu.stat counters (bw_before_: at the start of the statistics window).
  struct bw_stats {
    std::uint64_t nr_throttled = 0, nr_bursts = 0, nr_periods = 0, nr_throttled_periods = 0;
    std::int64_t throttled_ns = 0, burst_ns = 0;
  };
  static bw_stats bw_stats_of(const cfs_bandwidth& b) {
    return {b.nr_throttled(), b.nr_bursts(), b.nr_periods(), b.nr_throttled_periods(), b.throttled_time(), b.burst_time()};
  }
  std::vector<bw_stats> bw_before_;
  std::vector<std::int64_t> slack_seen_;  ///< each pool's armed slack timer at the last look, -1 none (follow_slack_timers)
  bool any_cpu_max_ = false;  ///< some cgroup has a cpu.max limit (and the fair class groups)
  std::vector<int> cgroup_parent_;  ///< parent index of each workload cgroup (-1: the root)
  bool pelt_on_ = false;            ///< load tracking runs (cgroups on SMP, balance by load, asymmetric capacity, DVFS, util_est, SIS_UTIL)
  std::vector<std::uint32_t> cap_;  ///< each CPU's capacity (machine_model::capacity), 1..1024
  std::vector<std::uint64_t> domain_of_;  ///< each CPU's root domain (machine_model::partitions), bit i = CPU i
  std::uint64_t default_domain_ = 0;      ///< the CPUs no partition has: the root cpuset's root domain
  std::uint32_t max_cap_ = cpu_capacity_max;  ///< the biggest of them
  bool asym_ = false;               ///< the capacities differ: capacity-aware placement and balance
  std::uint64_t misfit_moves_ = 0;  ///< active balances that moved a misfit to a bigger CPU
  std::uint64_t rt_pushes_ = 0, rt_pulls_ = 0, dl_pushes_ = 0, dl_pulls_ = 0;  ///< RT / deadline balancing moves
  std::uint64_t affinity_moves_ = 0;  ///< running tasks moved off a CPU their new affinity left out
  bool affinity_changes_ = false;      ///< the workload has set_affinity events
  std::uint64_t pi_deadlocks_ = 0;     ///< PI mutex locks refused with EDEADLK (a cycle of owners)
  std::uint64_t pi_steals_ = 0;        ///< PI mutexes taken from a woken top waiter before it ran (rt_mutex_steal)
  std::uint64_t lock_retries_ = 0;     ///< woken plain-mutex waiters that found it taken again (barging)
  /// Each CPU's cursor of cpumask_any_and_distribute (the per-CPU distribute_cpu_mask_prev,
  /// 0 at boot): the CPU that CPU's last find_lowest_rq / find_later_rq spread choice took.
  std::vector<int> distribute_prev_;
  std::uint64_t priority_inversions_ = 0;  ///< run_config::audit_priority's count
  std::int64_t first_inversion_ns_ = -1;   ///< when the audit first found one in the statistics window (-1: none)
  const task_type* hot_ = nullptr;  ///< a task the newly-idle balance under way must not pull (just pushed away)
  std::int64_t next_idle_balance_ = 0;  ///< earliest time of the next such kick
  std::vector<pelt_avg> group_pelt_;  ///< each group queue's signal, [cpu x ngroups + group]
  int smt_ = 1;                        ///< hardware threads per core (machine_model::smt_threads)
  std::uint32_t smt_share_[9] = {};    ///< a busy thread's share of its rate (/1024) with [b] threads of its core busy
  std::vector<std::uint32_t> speed_;  ///< each CPU's work rate: its capacity at its frequency (cap x f / f_max), >= 1
  std::vector<domain_state> doms_;    ///< performance domains (machine_model::perf_domains), empty without DVFS
  std::vector<int> dom_of_;           ///< each CPU's domain
  std::vector<std::uint64_t> energy_nj_;  ///< each CPU's energy in the window, nJ
  std::vector<std::uint32_t> energy_fj_;  ///< and the part of a nJ not yet counted, fJ (< 10^6)
  std::vector<std::uint64_t> work_units_;  ///< each CPU's task time in the window times its speed, 1/1024 ns of a 1024 CPU at f_max
  bool dvfs_on_ = false;              ///< the machine has performance domains
  /// The stack's class 0 is a deadline class (the binding's has_deadline_class).
  static constexpr bool dl_class_ = detail_sim::binding_has_dl<Binding>::value;
  /// Whether the deadline class lends reservations to PI mutex owners (edf_policy's boost).
  static constexpr bool pi_dl_ = detail_sim::binding_dl_inherits<Binding>::value;
  bool sis_util_ = false;             ///< wakeup scans are limited by SIS_UTIL (machine_model::sis_util)
  /// When RT classes share runtime (machine_model::rt_runtime_share): each root domain's RT
  /// classes in CPU order, at the index of the domain's first CPU (empty elsewhere).
  std::vector<std::vector<rt_class*>> rt_domains_;
  std::vector<pelt_avg> root_pelt_memo_;     ///< each CPU's root queue util/load as root_pelt_now last summed it
  std::vector<std::int64_t> root_pelt_at_;   ///< the instant of that sum, -1 none
  int nr_idle_scan_ = 0;              ///< SIS_UTIL's depth: CPUs a wakeup's scan may look at (sd_llc_shared's nr_idle_scan)
  bool util_est_ = false;             ///< tasks and CPUs are sized with util_est (machine_model::util_est)
  bool uclamp_used_ = false;          ///< the workload requests utilisation clamps somewhere
  bool uclamp_on_ = false;            ///< ... and the machine has decisions they act on (DVFS or asymmetry)
  bool eas_ = false;                  ///< energy-aware placement (performance domains, asymmetric, machine.energy_aware)
  std::uint64_t eas_wakeups_ = 0;     ///< wakeups placed by find_energy_efficient_cpu in the window
  std::uint64_t affine_wakeups_ = 0;  ///< fair wakeups whose search wake_affine moved to the waker's CPU, in the window
  bool balance_load_ = false;         ///< the periodic balance compares loads (cgroups on SMP, balance by load, asymmetric capacity)
  std::vector<std::uint64_t> util_scratch_;  ///< fair_util_of's output (reused)
  std::vector<std::uint64_t> est_scratch_;   ///< fair_util_sums' estimates (reused)
  std::uint64_t dvfs_dirty_ = 0;      ///< domains whose frequency to re-evaluate after the current event, a bit each
  std::vector<timer_res> timers_;
  std::vector<mutex_res> mutexes_;
  std::vector<condvar_res> conds_;
  std::vector<cond_res> susp_;
  std::vector<barrier_res> barriers_;
  std::vector<device_res> devices_;
  std::vector<std::string> device_names_;  ///< by device id
  std::vector<std::string> mutex_names_;   ///< by mutex id
  /// Unlocks of a mutex the task did not hold (ignored; a note at the end says so), by task
  /// instance name and mutex id: a file that unlocks the wrong mutex deadlocks silently else.
  std::map<std::pair<std::string, int>, std::int64_t> foreign_unlocks_;
  std::vector<std::string> exits_holding_;  ///< one note per exit that left a mutex held, in order
  std::vector<pipe_res> pipes_;            ///< by pipe id
  std::vector<sem_res> sems_;              ///< by semaphore id
};

}  // namespace sim
}  // namespace schedcore

#endif
