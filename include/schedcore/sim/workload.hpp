/// @file
/// @brief HOSTED. The workload model of the simulator: what tasks exist, with which scheduling
/// parameters, and what program each one runs. Built-in scenarios and the rt-app importer both
/// produce a `sim::workload`; the engine (`sim/engine.hpp`) consumes it.
///
/// This header is a stable contract (other front ends build against it). Every time is a
/// `duration_ns` (signed 64-bit nanoseconds); every field says its unit.
///
/// @par Program model
/// A task runs `loop` iterations of its list of `phases`; a phase runs `loop` iterations of its
/// list of `events`, executed in order (rt-app's model: key order inside a phase matters). An
/// event either takes time (run, runtime, sleep, timer, the blocking ones) or is instantaneous
/// (resume, signal, unlock, frame, set_nice ...). When the task's loop count is exhausted the
/// task exits. Events execute "in the task's context", i.e. only while the task is on a CPU.
///
/// @par Named resources (rt-app's `resources`, created on first use, shared by name)
/// - timers (`timer.ref`): one per name, shared by every task using it, except names that begin
///   with `unique`, which give each task instance its own timer (rt-app's rule);
/// - mutexes (`lock`/`unlock`, and the `mutex` of wait/sync): blocking. A plain mutex's unlock
///   frees it and wakes the first waiter in futex order (deadline, then RT by priority, then
///   arrival), which takes it when it runs unless another task locked it first (glibc's
///   barging; engine.hpp `unlock`). With `priority_inheritance` an rt_mutex: the unlock wakes
///   the top waiter, which takes it when it runs unless a higher-priority locker steals it
///   first, and the owner runs at its top waiter's priority;
/// - conditions (`wait`/`signal`/`broadcast`/`sync`): pthread semantics with glibc's two groups
///   (engine.hpp, condvar_res): a signal wakes the first in futex order among the older
///   waiters; a signal with no waiter is lost; a woken waiter re-acquires its mutex when it
///   runs (queueing on it if owned);
/// - counting semaphores (`sem_post`/`sem_wait`): POSIX semaphores starting at 0, as glibc's
///   (engine.hpp, sem_res): a post adds a unit and wakes the first sleeper in futex order,
///   which takes a unit when it runs unless a running sem_wait took it first;
/// - suspend points (`suspend`/`resume`): a `resume` wakes every task suspended on that name
///   at that instant; a resume with nobody suspended is lost (rt-app: cond broadcast);
/// - barriers (`barrier`): the party count is the number of task instances whose program
///   mentions the barrier; all block until the last arrives;
/// - devices (`device_submit`/`device_wait`): a device is a single FIFO server with its own
///   clock, working in parallel with the CPUs (a GPU's command ring, a disk). A submission
///   queues `duration` ns of device work behind what is already queued and costs the submitter
///   nothing; a wait blocks until the device has finished everything submitted to it before
///   the wait, by any task (a drain, like a driver's "wait for engine idle", not a per-task
///   fence). Submit-then-wait is synchronous I/O. Device time is not CPU time: a CPU whose
///   tasks all wait on a device is idle, which is how fill-rate or disk-bound work shows up as
///   idle % (seed 000's "my video card is fill rate limited").
/// - pipes (`pipe_write`/`pipe_read`): a bounded FIFO of messages between tasks (a pipe, a
///   pty, a socket), holding at most `pipe_spec::capacity` items (default
///   `default_pipe_capacity`). A write appends one message of `count` items, or of as many as
///   the writer's last read returned when `count` is 0 (a filter forwarding what it read). What
///   does not fit is written when room appears: the writer blocks meanwhile, as write(2) on a
///   full pipe does. A read takes up to `count` whole messages (0 = every message there),
///   blocking while the pipe is empty, and costs `duration` + `per_item` x items of CPU work.
///   `pipe_close` marks the end of the data (the last writer closed it): a read that finds the
///   pipe closed and empty is EOF. It ends the repetitions of the reader's current phase: the
///   program goes on with its next phase (a filter closing its own output), or, in its last,
///   the task exits whatever its `loop` (a pipe stays closed: another pass would find the same
///   EOF), as a read returning 0 ends a cat or an xterm whose child exited. A write to a closed
///   pipe ends the writer (SIGPIPE).
///   Each change wakes every task blocked on the other side; a woken task retries its read or
///   write when it runs, so a reader that runs late finds, and takes, everything written in
///   the meantime. That is how the size of a batch (xterm's jump scroll, a server draining its
///   socket) comes to depend on the scheduler.
#ifndef SCHEDCORE_SIM_WORKLOAD_HPP
#define SCHEDCORE_SIM_WORKLOAD_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "schedcore/core/time.hpp"
#include "schedcore/policy/params.hpp"

namespace schedcore {
namespace sim {

/// What an event does. Names follow rt-app where rt-app has the event.
enum class event_kind : std::uint8_t {
  run,        ///< `duration` ns of CPU *work* (wall time grows if preempted; cache refill adds work)
  runtime,    ///< spin on the CPU until `duration` ns of wall time have elapsed since the event began
  sleep,      ///< block for `duration` ns of wall time
  timer,      ///< periodic timer `ref` with `period` ns (rt-app semantics, see `event::absolute`)
  suspend,    ///< block until another task `resume`s `ref`
  resume,     ///< wake every task suspended on `ref` (instantaneous)
  lock,       ///< acquire mutex `ref` (blocks while another task owns it)
  unlock,     ///< release mutex `ref`, waking its first waiter in futex order (see the file notes)
  wait,       ///< condition `ref` with mutex `mutex` (held): release, block, re-acquire
  signal,     ///< wake one waiter of condition `ref` (lost if none): the first in futex order of the older group
  broadcast,  ///< wake every waiter of condition `ref` (rt-app `broad`)
  sync,       ///< `signal` `ref` then `wait` on it with `mutex`, atomically (rt-app `sync`)
  barrier,    ///< wait until every party of barrier `ref` arrived
  fork,       ///< start one new instance of task spec `ref` (instantaneous for the parent), at once or at the spec's `delay` if that is later
  exit,       ///< terminate the task now
  yield,      ///< give up the CPU (the policy's `yield` hook), stay runnable
  set_nice,   ///< change nice to `params.nice` (dequeue(save), setup, enqueue(restore)); nothing for the nice the task has (set_user_nice returns early) or for a fifo, rr or deadline task (Linux's set_user_nice only records it there, for a later sched_setscheduler to SCHED_OTHER; `set_policy` carries its own nice, as sched_setattr does)
  set_policy, ///< change the whole `params` (kind, nice, rt_priority, deadline triple); a no-op when they are those in force
  frame,      ///< mark that a frame was produced now; checks it against `duration` (deadline)
  job,        ///< one interbench periodic job step (see `event::job` fields)
  device_submit,  ///< queue `duration` ns of work on device `ref` and go on (asynchronous, e.g. a GPU batch)
  device_wait,    ///< block until device `ref` has finished everything submitted to it so far
  pipe_write,     ///< append a message of `count` items to pipe `ref` (blocks while it is full)
  pipe_read,      ///< take up to `count` messages from pipe `ref` (blocks while empty), then work
  pipe_close,     ///< no more data: a read of pipe `ref` once it is empty ends the reader's phase (EOF)
  set_cgroup,     ///< move into task group `ref` (a `cgroup_spec` name; empty = the root), as writing the pid to cgroup.procs
  set_uclamp,     ///< change the utilisation clamp requests to `util_min` / `util_max` (sched_setattr with SCHED_FLAG_UTIL_CLAMP)
  set_affinity,   ///< change the CPUs it may run on to `cpus` (sched_setaffinity); off a CPU it may no longer use at once
  sem_post,       ///< add a unit to counting semaphore `ref` (starts at 0) and wake its first waiter, if any (POSIX sem_post)
  sem_wait,       ///< take a unit of semaphore `ref`, blocking while it has none (POSIX sem_wait)
};

/// One step of a task's program. Only the fields the kind uses are read.
struct event {
  event_kind kind = event_kind::run;  ///< what to do

  /// run: CPU work, ns (>= 0). runtime: wall span, ns. sleep: ns. device_submit: device work,
  /// ns. frame: the frame's deadline,
  /// ns after its release (0 = no deadline, the frame only counts toward fps). job: the job's
  /// CPU work, ns. pipe_read: CPU work per read, ns (plus `per_item` per item).
  duration_ns duration = 0;

  /// run, runtime, sleep, device_submit, pipe_read: a uniform random variation in
  /// [-jitter, +jitter] ns added to `duration` each time the event executes (drawn from the run's single seeded PRNG; results
  /// below 0 are clamped to 0). 0 = exact.
  duration_ns jitter = 0;

  /// timer: the period, ns (>= 0; 0: waits for a later expiry another use of the timer set,
  /// else only moves a relative timer's reference to now, rt-app's rule). job: the job's interval (its deadline is release + period).
  duration_ns period = 0;

  /// timer: false = rt-app "relative" (default): when the task arrives after the next expiry,
  /// the timer restarts from now, so overruns skip activations; true = "absolute": the
  /// expiries stay on the original grid and late arrivals run back to back to catch up.
  bool absolute = false;

  /// timer: where the grid starts, ns of simulated time (-1 = at the timer's first use). The
  /// first expiry is then anchor + period whenever the task first reaches the timer, as for
  /// threads that each compute `next = start + period` from one agreed start (cyclictest's
  /// threads, `slices_native`; rt-app's t_first, the use case's start plus the thread's delay):
  /// their phases are the workload's, not an accident of when each first ran. A task that
  /// first reaches it after anchor + period has overrun: an absolute timer keeps the grid and
  /// catches up, a relative one restarts from now.
  duration_ns anchor = -1;

  /// job: ns by which the next release is pushed back after this job (interbench X's ramp
  /// pushes step i back by i ms); 0 for Audio/Video/Custom.
  duration_ns pushback = 0;

  /// Resource name: timer, suspend point, mutex, condition, barrier, device, pipe, semaphore, or (fork) task spec name.
  std::string ref;

  /// wait, sync: the mutex that protects the condition `ref` (the task must hold it).
  std::string mutex;

  /// set_nice: `params.nice` is used. set_policy: all of `params` is used.
  sched_params params{};

  /// pipe_write: items in the message (0 = as many as this task's last pipe_read returned).
  /// pipe_read: the most messages taken at once (0 = every message in the pipe). >= 0.
  std::int64_t count = 0;

  /// pipe_read: CPU work per item taken, ns (>= 0), on top of `duration` per read.
  duration_ns per_item = 0;

  /// sleep: the sleep is uninterruptible (TASK_UNINTERRUPTIBLE: waiting for a disk or a
  /// page-in). Its wakeup carries `enqueue_flags::uninterruptible` (a device completion, so
  /// also `interrupt`), and traces show the task in state D.
  bool uninterruptible = false;

  /// set_uclamp: the new utilisation clamp requests (smp/uclamp.hpp), 0..1024 each, -1 for the
  /// default (sched_setattr's reset: min 0, or the RT default for a real-time task; max 1024),
  /// -2 to leave that clamp as it is. A change that would leave min above max (with the one
  /// in force, a default counting as its number) is a workload error when it executes:
  /// sched_setattr refuses it with EINVAL, and rt-app stops.
  std::int32_t util_min = -2;
  std::int32_t util_max = -2;  ///< see `util_min`
  /// set_affinity: the CPUs the task may run on from now (indexes 0..63, each one the machine
  /// has); empty = every CPU of the machine, the affinity a thread starts with.
  std::vector<int> cpus;
  /// run: the work cannot be preempted, as kernel code under PREEMPT_NONE (a kernel thread
  /// between two cond_resched() points) or a preempt_disable() section: a reschedule asked for
  /// its CPU meanwhile (a wakeup's preemption, the tick) is held until the work is done. The
  /// policy still sees the wakeup and the ticks; only the switch waits.
  bool nopreempt = false;
};

/// Convenience constructors, so scenario code reads like a program listing.
namespace ev {
/// `ns` of CPU work (optionally +- `jitter` ns).
inline event run(duration_ns ns, duration_ns jitter = 0) {
  event e; e.kind = event_kind::run; e.duration = ns; e.jitter = jitter; return e;
}
/// `ns` of CPU work that cannot be preempted (`event::nopreempt`; optionally +- `jitter` ns).
inline event run_nopreempt(duration_ns ns, duration_ns jitter = 0) {
  event e = run(ns, jitter); e.nopreempt = true; return e;
}
/// Sleep `ns` uninterruptibly (+- `jitter` ns): disk I/O or a page-in (see `event::uninterruptible`).
inline event io_sleep(duration_ns ns, duration_ns jitter = 0) {
  event e; e.kind = event_kind::sleep; e.duration = ns; e.jitter = jitter; e.uninterruptible = true; return e;
}
/// Spin until `ns` of wall time have passed.
inline event runtime(duration_ns ns) { event e; e.kind = event_kind::runtime; e.duration = ns; return e; }
/// Sleep `ns` (optionally +- `jitter` ns).
inline event sleep(duration_ns ns, duration_ns jitter = 0) {
  event e; e.kind = event_kind::sleep; e.duration = ns; e.jitter = jitter; return e;
}
/// Periodic timer `ref` of `period` ns.
inline event timer(std::string ref, duration_ns period, bool absolute = false) {
  event e; e.kind = event_kind::timer; e.ref = std::move(ref); e.period = period; e.absolute = absolute; return e;
}
/// An absolute timer whose grid starts at `anchor` ns of simulated time (`event::anchor`).
inline event anchored_timer(std::string ref, duration_ns period, duration_ns anchor) {
  event e = timer(std::move(ref), period, true); e.anchor = anchor; return e;
}
/// An event of `kind` on resource `ref` (suspend, resume, lock, unlock, signal, broadcast, barrier, fork,
/// sem_post, sem_wait).
inline event on(event_kind kind, std::string ref) { event e; e.kind = kind; e.ref = std::move(ref); return e; }
/// wait / sync on condition `ref` protected by `mutex`.
inline event cond(event_kind kind, std::string ref, std::string mutex) {
  event e; e.kind = kind; e.ref = std::move(ref); e.mutex = std::move(mutex); return e;
}
/// A frame marker with a deadline `deadline_ns` after its release (0 = none).
inline event frame(duration_ns deadline_ns = 0) { event e; e.kind = event_kind::frame; e.duration = deadline_ns; return e; }
/// An interbench job: `work_ns` of CPU work every `interval_ns`, release pushed back `pushback_ns`.
inline event job(duration_ns work_ns, duration_ns interval_ns, duration_ns pushback_ns = 0) {
  event e; e.kind = event_kind::job; e.duration = work_ns; e.period = interval_ns; e.pushback = pushback_ns; return e;
}
/// Queue `ns` (+- `jitter`) of work on device `ref` without waiting for it.
inline event device_submit(std::string ref, duration_ns ns, duration_ns jitter = 0) {
  event e; e.kind = event_kind::device_submit; e.ref = std::move(ref); e.duration = ns; e.jitter = jitter; return e;
}
/// Block until device `ref` has completed everything submitted so far.
inline event device_wait(std::string ref) { event e; e.kind = event_kind::device_wait; e.ref = std::move(ref); return e; }
/// Write a message of `items` items (0 = as many as the last read returned) into pipe `ref`.
inline event pipe_write(std::string ref, std::int64_t items = 1) {
  event e; e.kind = event_kind::pipe_write; e.ref = std::move(ref); e.count = items; return e;
}
/// Read up to `max_messages` messages (0 = all) from pipe `ref`, then do `work_ns` + `per_item_ns`
/// x items of CPU work (+- `jitter` ns on the fixed part).
inline event pipe_read(std::string ref, std::int64_t max_messages, duration_ns work_ns, duration_ns per_item_ns,
                       duration_ns jitter = 0) {
  event e; e.kind = event_kind::pipe_read; e.ref = std::move(ref); e.count = max_messages; e.duration = work_ns;
  e.per_item = per_item_ns; e.jitter = jitter; return e;
}
/// Close pipe `ref`: once empty, a read of it is EOF (ends the reader's current phase).
inline event pipe_close(std::string ref) { event e; e.kind = event_kind::pipe_close; e.ref = std::move(ref); return e; }
/// Change nice to `nice`.
inline event set_nice(int nice) {
  event e; e.kind = event_kind::set_nice; e.params.nice = static_cast<s8>(nice); return e;
}
/// Change the scheduling parameters to `p`.
inline event set_policy(const sched_params& p) { event e; e.kind = event_kind::set_policy; e.params = p; return e; }
/// yield / exit.
inline event simple(event_kind kind) { event e; e.kind = kind; return e; }
/// Move into task group `group` (a `cgroup_spec` name; empty = the root).
inline event set_cgroup(std::string group) { event e; e.kind = event_kind::set_cgroup; e.ref = std::move(group); return e; }
/// Change the utilisation clamp requests (`event::util_min`: -1 default, -2 unchanged).
inline event set_uclamp(std::int32_t util_min, std::int32_t util_max) {
  event e; e.kind = event_kind::set_uclamp; e.util_min = util_min; e.util_max = util_max; return e;
}
/// Change the CPUs the task may run on (`event::cpus`; empty = all of them).
inline event set_affinity(std::vector<int> cpus) {
  event e; e.kind = event_kind::set_affinity; e.cpus = std::move(cpus); return e;
}
}  // namespace ev

/// A named list of events repeated `loop` times.
struct phase {
  std::string name;           ///< label (trace markers, messages)
  std::int64_t loop = 1;      ///< repetitions of `events` per pass (>= 1; -1 = forever)
  std::vector<event> events;  ///< executed in order
};

/// One task description; `instances` copies of it start at `delay`.
struct task_spec {
  /// Name. Instances are named `name-0`, `name-1`, ... when `instances` > 1 or the spec came
  /// from rt-app (see `suffix_instances`); otherwise the name is used as is. Should contain no
  /// space and no '=' (ftrace's comm rule); the trace writer replaces them with '_'.
  std::string name;
  /// Copies started at `delay` (0 = a template only, started by `fork` events).
  int instances = 1;
  /// Name instances `name-i` even when there is only one (rt-app's convention).
  bool suffix_instances = false;
  /// Scheduling parameters: kind fifo/rr go to the real-time class, deadline to the deadline
  /// class (or the real-time class at priority 99 when the stack has none), normal/batch/idle to
  /// the policy under test.
  sched_params params{};
  /// Allowed CPUs (indices); empty = all. An index the machine lacks (>= its CPU count) is a
  /// workload error, as sched_setaffinity's EINVAL and rt-app's "Invalid cpu".
  std::vector<int> cpus;
  /// Wall time before the instances start, ns (>= 0): the time of the run at which they start
  /// (a forked instance starts at its fork, or here if that is later).
  duration_ns delay = 0;
  /// Passes over `phases` (>= 1; -1 = forever).
  std::int64_t loop = -1;
  /// The program.
  std::vector<phase> phases;
  /// Utilisation clamp requests (smp/uclamp.hpp, Linux 5.3+), capacity units 0..1024; -1 =
  /// not requested: min 0 (a real-time task: machine_model::uclamp_rt_min_default), max 1024.
  /// They act on machines where utilisation decides something (performance domains, or CPUs
  /// of different capacity): schedutil's frequency, the fit of a task to a CPU, misfit,
  /// overutilized and energy-aware placement. A forked instance starts with its spec's.
  std::int32_t util_min = -1;
  std::int32_t util_max = -1;  ///< see `util_min`
  /// A daemon does not keep the run alive: the run ends at the workload's duration or when
  /// every non-daemon task has exited, whichever is first. Background loads are daemons.
  bool daemon = false;
  /// Cost of refilling this task's whole cache working set, ns of extra CPU work after a full
  /// eviction (-1 = the machine default, see `machine_model::refill_ns`).
  duration_ns refill_ns = -1;
  /// Optional group label used by reports (e.g. "video", "audio", "build"); may be empty.
  std::string group;
  /// The task group (cgroup, autogroup) it runs in, by `cgroup_spec::name`; empty = the root,
  /// except for an instance started by `fork`, which starts in its parent's group at the time
  /// of the fork (a clone stays in its parent's cgroup).
  /// Applies to policies with group scheduling (cfs, eevdf: policy/group.hpp); the others have
  /// none and run every task in one queue.
  std::string cgroup;
  /// The task stands in for a device (a keyboard, a pointer): the tasks it wakes through
  /// `resume` and pipes are woken from interrupt context, as a device interrupt would wake
  /// them (policies that tell the two apart, such as o1's SLEEP_INTERRUPTED credit, see it so).
  /// The task itself is still scheduled like any other. false for rt-app imports.
  bool interrupt_context = false;
  /// Where the task is defined, `FILE:LINE:COLUMN` (rt-app imports), or empty (built-in
  /// scenarios). The engine puts it in front of errors about this task that only a run finds
  /// (an admission refusal, a fork loop), so a bad file's message still points into the file.
  std::string origin;
};

/// Items a pipe holds when the workload does not declare it (`workload::pipes`).
inline constexpr std::int64_t default_pipe_capacity = 4096;

/// A task group: the kernel's task_group of a cpu cgroup or an autogroup (policy/group.hpp).
struct cgroup_spec {
  std::string name;           ///< unique; tasks name it in `task_spec::cgroup`
  std::string parent;         ///< the enclosing group, declared earlier; empty = the root
  std::int64_t weight = 100;  ///< cgroup v2 `cpu.weight`, 1..10000 (shares = weight x 1024 / 100)
  /// cgroup v2 `cpu.max` (CFS bandwidth control, policy/cfs_bandwidth.hpp): at most
  /// `max_quota_ns` of CPU time per `max_period_ns`, summed over CPUs; -1 = "max", no limit.
  std::int64_t max_quota_ns = -1;
  std::int64_t max_period_ns = 100000000;  ///< cpu.max's period, 1 ms..1 s (default 100 ms)
  std::int64_t max_burst_ns = 0;           ///< cgroup v2 `cpu.max.burst`, at most the quota
};

/// cgroup v2's cpu.weight range and default (Documentation/admin-guide/cgroup-v2.rst):
/// @var cgroup_weight_min
/// @brief The least cgroup v2 cpu.weight (Documentation/admin-guide/cgroup-v2.rst).
/// @var cgroup_weight_max
/// @brief The largest cgroup v2 cpu.weight.
/// @var cgroup_weight_default
/// @brief The default cgroup v2 cpu.weight (1024 shares, a nice-0 task's weight).
inline constexpr std::int64_t cgroup_weight_min = 1, cgroup_weight_max = 10000, cgroup_weight_default = 100;
/// Deepest nesting of task groups: a group at the root counts 1. group_policy nests 32 levels
/// below the root's groups (policy/group.hpp, max_depth), so 33; the same for every policy.
inline constexpr int cgroup_max_depth = 33;

/// A pipe's declared size (workload.hpp, pipes).
struct pipe_spec {
  std::string name;                                ///< the pipe's `ref`
  std::int64_t capacity = default_pipe_capacity;  ///< most items it holds (> 0)
};

/// A whole workload.
struct workload {
  std::string name;               ///< scenario name or file name
  std::string description;        ///< one paragraph: what it models and what it leaves out
  int cpus = 1;                   ///< default CPU count (the command line may override)
  int hz = 1000;                  ///< default tick rate, Hz (the command line may override)
  duration_ns duration = 0;       ///< simulated span, ns (> 0; also the cap when tasks exit earlier)
  std::vector<task_spec> tasks;   ///< in start order (ties broken by this order)
  std::vector<std::string> notes; ///< caveats printed with the results ("memload approximated")
  std::vector<pipe_spec> pipes;   ///< sizes of pipes (others hold default_pipe_capacity items)
  std::vector<cgroup_spec> cgroups;  ///< task groups, parents first (none: every task in the root)
  /// Every mutex is a priority-inheritance mutex (PTHREAD_PRIO_INHERIT, the kernel's PI futex
  /// on an rt_mutex; rt-app's global `pi_enabled`): real-time waiters queue by priority and
  /// lend theirs to the owner (engine.hpp, "Priority inheritance"). Off: plain futexes (waiters
  /// woken in futex order, a running locker may barge in first), no boost.
  bool priority_inheritance = false;
  /// The CPU whose top speed `run` events are given at (rt-app's calibration CPU, `"CPUn"`,
  /// CPU0 when the file names none): on an asymmetric machine each run's work is scaled by
  /// that CPU's capacity / 1024, so that it takes the time on CPU n that rt-app calibrated it
  /// to take there. -1: work at the biggest CPU's top speed (the built-in scenarios, and an
  /// rt-app file whose calibration is a number of ns per loop). Must name a CPU of the machine.
  int calibration_cpu = -1;
  /// Where `calibration_cpu` was given, `FILE:LINE:COLUMN` (an rt-app file's "calibration"),
  /// or empty: the engine's error for a CPU the machine lacks points there.
  std::string calibration_origin;
};

}  // namespace sim
}  // namespace schedcore

#endif
