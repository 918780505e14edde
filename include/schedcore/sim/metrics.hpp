/// @file
/// @brief HOSTED. The results of one simulated run (per task and totals) and the exact
/// statistics used to compute them.
///
/// Percentiles use the nearest-rank definition on the exact stored samples: p-th percentile of
/// n sorted samples is sample number ceil(p * n / 100) (1-based); 0 when there is no sample.
#ifndef SCHEDCORE_SIM_METRICS_HPP
#define SCHEDCORE_SIM_METRICS_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace schedcore {
namespace sim {

/// Nearest-rank percentile `num/den` (e.g. 99/100) of `sorted`, which the caller has sorted in
/// ascending order; 0 when it is empty. Exact, integer arithmetic only.
inline std::int64_t percentile_sorted(const std::vector<std::int64_t>& sorted, std::uint64_t num, std::uint64_t den) {
  if (sorted.empty()) return 0;
  const std::uint64_t n = sorted.size();
  std::uint64_t rank = (num * n + den - 1) / den;  // ceil(p * n)
  if (rank < 1) rank = 1;
  if (rank > n) rank = n;
  return sorted[static_cast<std::size_t>(rank - 1)];  // rank <= n, a size_t
}

/// p50/p99/max (ns) of a sample set.
struct latency_summary {
  std::int64_t p50 = 0;       ///< median, ns
  std::int64_t p99 = 0;       ///< 99th percentile, ns
  std::int64_t max = 0;       ///< largest, ns
  std::uint64_t count = 0;    ///< samples
  double mean = 0;            ///< arithmetic mean, ns
  double stddev = 0;          ///< population standard deviation, ns
};

/// Per-period slack of a timer-driven task (rt-app's `slack` log column), ns.
struct slack_summary {
  std::uint64_t periods = 0;   ///< timer events after the timer's first use (samples)
  std::uint64_t overruns = 0;  ///< periods whose slack was negative
  std::int64_t min = 0;        ///< the smallest (worst) slack, ns
  std::int64_t p50 = 0;        ///< the median slack, ns (nearest rank)
};

/// Summarises slack samples (copied and sorted).
inline slack_summary summarize_slack(std::vector<std::int64_t> samples) {
  slack_summary s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.periods = samples.size();
  for (std::int64_t v : samples) s.overruns += v < 0 ? 1u : 0u;
  s.min = samples.front();
  s.p50 = percentile_sorted(samples, 50, 100);
  return s;
}

/// Summarises `samples` (copied and sorted).
inline latency_summary summarize(std::vector<std::int64_t> samples) {
  latency_summary s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.count = samples.size();
  s.p50 = percentile_sorted(samples, 50, 100);
  s.p99 = percentile_sorted(samples, 99, 100);
  s.max = samples.back();
  long double sum = 0, sq = 0;
  for (std::int64_t x : samples) sum += static_cast<long double>(x);
  const long double mean = sum / static_cast<long double>(samples.size());
  for (std::int64_t x : samples) sq += (static_cast<long double>(x) - mean) * (static_cast<long double>(x) - mean);
  s.mean = static_cast<double>(mean);
  s.stddev = static_cast<double>(std::sqrt(sq / static_cast<long double>(samples.size())));
  return s;
}

/// interbench-style job statistics of a task with `job` events (interbench.md section 4).
struct job_summary {
  std::uint64_t samples = 0;        ///< job steps recorded
  double avg_ms = 0;                ///< mean latency (including whole-period penalties), ms
  double rms_ms = 0;                ///< interbench's "SD" column, sqrt((Σx² − mean²/n)/(n − 1)): about the root mean square, ms
  double sd_ms = 0;                 ///< the true standard deviation, ms
  double max_ms = 0;                ///< largest sample, ms
  double desired_cpu_pct = 0;       ///< achieved / (achieved + missed) burns, %
  double deadlines_met_pct = 0;     ///< met / (met + missed), % (0 when none met)
};

/// Results of one task instance.
struct task_result {
  std::string name;                 ///< instance name
  std::string group;                ///< spec's group label
  std::string kind;                 ///< "normal", "batch", "idle", "fifo", "rr", "deadline" (final)
  int nice = 0;                     ///< final nice
  int rt_priority = 0;              ///< final rt priority (fifo/rr)
  bool daemon = false;              ///< background task
  std::int64_t start_ns = 0;        ///< when it first became runnable
  std::int64_t exit_ns = -1;        ///< when it exited, -1 if it was alive at the end
  std::int64_t cpu_ns = 0;          ///< time on a CPU doing work (switch overhead excluded)
  std::int64_t wait_ns = 0;         ///< time runnable but not on a CPU
  std::int64_t max_wait_ns = 0;     ///< longest single runnable-but-not-running stretch
  std::uint64_t switches = 0;       ///< times it left a CPU (voluntary or not)
  std::uint64_t migrations = 0;     ///< times it changed CPU
  latency_summary latency;          ///< wakeup (runnable) to running
  std::uint64_t deadlines_met = 0;  ///< frames and jobs that met their deadline
  std::uint64_t deadlines_missed = 0;  ///< frames and jobs that missed it
  std::uint64_t frames = 0;         ///< frame markers
  double fps = 0;                   ///< frames per second of its lifetime
  latency_summary frame_interval;   ///< time between consecutive frames, ns
  /// Response time: from a timer's expiry (the release) to the first frame marker after it, ns;
  /// one sample per such frame (frames not preceded by a timer in the program are not counted).
  /// With the frame at the end of a chain of tasks (a keystroke through X and back), this is the
  /// chain's end-to-end latency.
  latency_summary response;
  /// rt-app's per-period slack: at each execution of a timer event after the timer's first use,
  /// the time left until the expiry it is about to wait for (negative: the period's work ended
  /// after that expiry, an overrun). Empty for tasks without a timer.
  slack_summary slack;
  /// SCHED_FLAG_DL_OVERRUN: SIGXCPUs sent for runtime overruns, counted only for a task that
  /// asked (`reports_overrun`, rt-app key `dl-overrun`); the kernel sends one at a tick that
  /// finds the task running after an overrun, so overruns between two such ticks count once.
  std::uint64_t sigxcpu = 0;
  bool reports_overrun = false;     ///< it ran as SCHED_DEADLINE with SCHED_FLAG_DL_OVERRUN
  bool has_jobs = false;            ///< ran interbench jobs
  job_summary jobs;                 ///< interbench job statistics
  // Raw samples for plots (svg.hpp, `schedsim plot` / `report`): filled only when the run's
  // `run_config::keep_samples` is set, empty otherwise (JSON, CSV and tables never print them).
  std::vector<std::int64_t> latency_samples;  ///< every wakeup-to-run latency, ns, in order
  std::vector<std::int64_t> frame_times;      ///< the time of every frame marker, ns, ascending
};

/// Totals of one run.
struct run_totals {
  std::uint64_t context_switches = 0;  ///< CPU changes of the running task (idle counts as a task)
  double cs_per_sec = 0;               ///< context switches per simulated second
  double idle_pct = 0;                 ///< idle time / (CPUs x duration), %
  std::int64_t makespan_ns = 0;        ///< when the last non-daemon task exited, from time 0 (the run's end, warmup_ns + duration_ns, if one never did)
  std::int64_t idle_ns = 0;            ///< summed over CPUs
  std::int64_t overhead_ns = 0;        ///< context-switch overhead, summed over CPUs
  std::int64_t task_cpu_ns = 0;        ///< summed task CPU time
  std::int64_t longest_starvation_ns = 0;  ///< longest single wait of any task
  std::uint64_t events = 0;            ///< simulated scheduling events processed
  double events_per_sec = 0;           ///< events per host second (the only host-dependent field)
  std::uint64_t migrations = 0;        ///< task CPU changes
  std::uint64_t misfit_moves = 0;      ///< of which running tasks moved to a bigger CPU (asymmetric capacity)
  std::uint64_t eas_wakeups = 0;       ///< wakeups placed by energy (machine_model::energy_aware)
  std::uint64_t affine_wakeups = 0;    ///< fair wakeups searched from the waker's CPU (machine_model::wake_affine; not in the JSON)
  std::uint64_t rt_pushes = 0;         ///< RT tasks pushed to a CPU running something of lower priority
  std::uint64_t rt_pulls = 0;          ///< RT tasks pulled by a CPU whose RT priority fell
  std::uint64_t dl_pushes = 0;         ///< reservations pushed to a CPU with a later (or no) deadline
  std::uint64_t dl_pulls = 0;          ///< reservations pulled by a CPU whose reservation left
  std::uint64_t affinity_moves = 0;    ///< running tasks moved off a CPU their new affinity left out (a phase's `cpus`)
  std::uint64_t pi_deadlocks = 0;      ///< PI mutex locks refused with EDEADLK: they would have closed a cycle of owners
  std::uint64_t pi_steals = 0;         ///< PI mutexes taken by a higher-priority locker between an unlock and its woken top waiter's run (rt_mutex_steal)
  std::uint64_t lock_retries = 0;      ///< plain-mutex waiters woken by an unlock that found it taken again when they ran (barging)
  std::uint64_t priority_inversions = 0;  ///< instants found out of global priority order (run_config::audit_priority)
  std::int64_t first_inversion_ns = -1;   ///< the first of them (-1: none)
};

/// One device (workload.hpp `device_submit`): how busy it was.
struct device_result {
  std::string name;            ///< device name
  std::uint64_t requests = 0;  ///< submissions
  std::int64_t busy_ns = 0;    ///< time it was working within the run, ns
  double busy_pct = 0;         ///< busy_ns / duration, %
};

/// One task group with a bandwidth limit (workload.hpp `cgroup_spec::max_quota_ns`, cpu.max):
/// what its cpu.stat would show over the statistics window.
struct cgroup_result {
  std::string name;                 ///< cgroup name
  std::int64_t quota_ns = 0;        ///< cpu.max quota per period, ns
  std::int64_t period_ns = 0;       ///< cpu.max period, ns
  std::int64_t burst_ns = 0;        ///< cpu.max.burst, ns
  std::uint64_t nr_throttled = 0;   ///< throttle events, over all CPUs
  std::uint64_t nr_periods = 0;     ///< periods its period timer ended (cpu.stat nr_periods)
  std::uint64_t nr_throttled_periods = 0;  ///< of those, periods that ended throttled (cpu.stat nr_throttled)
  std::int64_t throttled_ns = 0;    ///< time its queues spent throttled, summed over CPUs (throttles that ended)
  std::uint64_t nr_bursts = 0;      ///< periods in which it drew more than its quota
  std::int64_t burst_used_ns = 0;   ///< what it drew beyond the quota in those periods
};

/// One pipe (workload.hpp `pipe_write`/`pipe_read`): traffic and batching.
struct pipe_result {
  std::string name;                 ///< pipe name
  std::uint64_t writes = 0;         ///< messages written (a blocked write that resumes counts per part)
  std::uint64_t reads = 0;          ///< reads that took something
  std::uint64_t items = 0;          ///< items taken by reads
  double mean_batch = 0;            ///< items / reads: how much a read found waiting
  std::uint64_t reader_blocks = 0;  ///< times a reader found it empty and blocked
  std::uint64_t writer_blocks = 0;  ///< times a writer found it full and blocked
  std::int64_t max_items = 0;       ///< the most items it held
};

/// One counting semaphore (workload.hpp `sem_post`/`sem_wait`): traffic and how often a wait
/// found it empty. Counts are over the statistics window; `count` and `waiters` at the end.
struct semaphore_result {
  std::string name;                 ///< semaphore name
  std::uint64_t posts = 0;          ///< sem_post events
  std::uint64_t waits = 0;          ///< sem_wait events
  std::uint64_t blocks = 0;         ///< waits that found no unit and blocked
  std::uint64_t retries = 0;        ///< waiters a post woke that found its unit taken by a running sem_wait, and slept again
  std::uint64_t overflows = 0;      ///< posts refused at SEM_VALUE_MAX (EOVERFLOW)
  std::int64_t count = 0;           ///< units held at the end of the run
  std::int64_t max_count = 0;       ///< the most units it held
  std::uint64_t waiters = 0;        ///< tasks still blocked on it at the end of the run
};

/// One performance domain of a machine with DVFS (machine_model::perf_domains): its energy
/// and frequencies over the statistics window.
struct domain_result {
  std::string name;                   ///< its label (perf_domain_model::name), may be empty
  int first_cpu = 0;                  ///< its CPUs are first_cpu .. first_cpu + cpus - 1
  int cpus = 1;                       ///< CPUs in the domain
  std::uint32_t capacity = 1024;      ///< each CPU's capacity at the top state
  std::uint64_t energy_nj = 0;        ///< energy its CPUs drew, nJ (busy at the state's power, idle at the idle power)
  std::uint64_t freq_changes = 0;     ///< frequency changes
  /// Work its CPUs did for tasks: their CPU time times their speed (capacity x f / f_max / 1024),
  /// ns of a 1024 CPU at its top frequency. Energy per unit of work compares runs that did
  /// different amounts (a workload whose loops run as often as the schedule lets them).
  std::int64_t work_ns = 0;
  std::vector<std::pair<std::uint32_t, std::int64_t>> time_in_state;  ///< (kHz, ns at that frequency), every state
};

/// Everything one run produces.
struct run_result {
  std::string policy;                 ///< policy spec as given ("cfs2007:granularity=2ms")
  std::string scenario;               ///< workload name
  int cpus = 1;                       ///< CPUs simulated
  std::vector<std::uint32_t> capacity;  ///< each CPU's capacity when machine_model::capacity or an energy model's domains gave them, else empty
  int smt_threads = 1;                  ///< hardware threads per core (machine_model::smt_threads)
  int smt_gain_pct = 0;                 ///< the SMT gain, when smt_threads > 1
  std::vector<domain_result> domains;   ///< per performance domain when the machine has DVFS (machine_model::perf_domains), else empty
  int hz = 1000;                      ///< tick rate
  std::uint64_t seed = 0;             ///< PRNG seed
  std::int64_t duration_ns = 0;       ///< span the statistics cover: the run (ends early when all non-daemons exited) minus any warm-up
  std::int64_t warmup_ns = 0;         ///< start of the statistics window: the warm-up applied (0: none, or the run ended first)
  run_totals totals;                  ///< totals
  double jain = 1.0;                  ///< Jain fairness over weighted CPU shares (see engine.hpp)
  std::uint64_t jain_tasks = 0;       ///< tasks the fairness index covers
  std::vector<task_result> tasks;     ///< per task, in creation order
  std::vector<device_result> devices; ///< per device, in order of first mention in the workload (empty when it has none)
  std::vector<pipe_result> pipes;     ///< per pipe, in order of first mention in the workload (empty when it has none)
  std::vector<semaphore_result> semaphores;  ///< per semaphore, in order of first mention in the workload (empty when it has none)
  std::vector<cgroup_result> cgroups; ///< per cgroup with a cpu.max limit, in declaration order (empty when none has)
  std::vector<std::string> notes;     ///< workload caveats
};

/// Jain's index (sum x)^2 / (n * sum x^2) of `x` (1.0 for fewer than 2 values or all zero).
inline double jain_index(const std::vector<double>& x) {
  if (x.size() < 2) return 1.0;
  long double s = 0, sq = 0;
  for (double v : x) {
    s += v;
    sq += static_cast<long double>(v) * v;
  }
  if (sq <= 0) return 1.0;
  return static_cast<double>((s * s) / (static_cast<long double>(x.size()) * sq));
}

/// The kernel's load weight of a nice level: 1024 / 1.25^nice (nice 0 = 1024), as a double
/// (used only for the fairness metric, never in scheduling).
inline double nice_weight(int nice) { return 1024.0 / std::pow(1.25, nice); }

}  // namespace sim
}  // namespace schedcore

#endif
