/// @file
/// @brief HOSTED. rt-app JSON import: an rt-app workload file (scheduler-tools/rt-app,
/// `doc/tutorial.txt`) becomes a `sim::workload` that the engine runs under any policy.
///
/// Entry points: `load_rtapp(path)` (throws `rtapp_error`, what schedsim's `--rt-app` calls),
/// `load_rt_app(path, workload&, error&)` (returns an exit code: 0 or 3), `parse_rtapp(text,
/// file)` and `import_rtapp(json::value, file)` (tests, fuzzing). Every error message reads
/// `FILE:LINE:COLUMN: what is wrong, what was expected`.
///
/// @par Times and units
/// rt-app times are microseconds; they become nanoseconds (x1000). A time must be an integer
/// in [0, 10^12] us (10^15 ns, ~11.6 days); negative or larger is an error ("absurd").
/// `global.duration` is in seconds: -1 (or absent) = until every task exits, capped at
/// `rtapp_options::default_duration_ns` (10 s, noted; `--duration` overrides), else 1..10^5
/// (the command line's `--duration` limit).
///
/// @par Mapping onto the workload model (`sim/workload.hpp`)
/// | rt-app | workload |
/// |---|---|
/// | task key | `task_spec::name`; instances are named `name-0`, `name-1`, ... (`suffix_instances`) |
/// | global `pi_enabled` (default false) | `workload::priority_inheritance`: every mutex is a PTHREAD_PRIO_INHERIT mutex |
/// | global `calibration` "CPUn" (default "CPU0", as rt-app) / a number (ns per loop) | `workload::calibration_cpu` = n: `run` is work at CPU n's speed, which matters on asymmetric machines, and CPU n must exist (it sizes the default machine); a number: -1, work at the biggest CPU's top speed (noted) |
/// | `instance` (default 1; 0 = a template started only by `fork`) | `task_spec::instances` |
/// | `delay` (us) | `task_spec::delay` |
/// | task `loop` (default -1), phase `loop` (default 1) | `task_spec::loop`, `phase::loop` (-1 or >= 1; 0 is an error) |
/// | `phases` {name: {...}}, or events inline when there is one phase | `task_spec::phases` in file order |
/// | `policy` SCHED_OTHER / BATCH / IDLE / FIFO / RR / DEADLINE (default `global.default_policy`) | `sched_params::kind` |
/// | `priority`: the nice value for OTHER/BATCH/IDLE (-20..19, default 0); 1..99 for FIFO/RR (default 10); ignored for DEADLINE | `nice` / `rt_priority` |
/// | `dl-runtime`, `dl-period` (default runtime), `dl-deadline` (default period), us; the legacy task-level keys as rt-app reads them: `runtime` when dl-runtime is absent, `period` when dl-runtime and dl-period are, `deadline` when all three dl-* keys are (otherwise ignored, noted) | `runtime` / `period` / `deadline` |
/// | `dl-reclaim` true / false (default false; schedsim's extension, which rt-app itself ignores as it ignores any key it does not know): SCHED_FLAG_RECLAIM, GRUB reclaiming (policy/edf.hpp); at phase level the phase's own, as the dl-* keys; an error on any other policy | `reclaim` |
/// | `dl-overrun` true / false (default false; schedsim's extension, as `dl-reclaim`): SCHED_FLAG_DL_OVERRUN, a SIGXCPU for each runtime overrun, counted per task (`sigxcpu` in the JSON); the same scope and errors as `dl-reclaim` | `dl_overrun` |
/// | `dl-runtime` on a SCHED_OTHER/BATCH/IDLE task (us; rt-app's custom slice, Linux 6.12+) | `runtime`: eevdf's per-task slice, ignored by the other fair policies |
/// | `util_min`, `util_max` (0..1024; util_min above util_max in one object is an error) | `task_spec::util_min` / `util_max` at task level; at phase level a `set_uclamp` at the start of the phase, after its `set_policy` (one sched_setattr in rt-app), changing only the clamps the phase gives. They act with `--energy-model` or `--capacity` (docs/guides/energy.md, "Utilisation clamps") |
/// | policy/priority/dl-* at phase level | a `set_policy` event at the start of that phase, as rt-app resolves it: an absent policy is the one in force (the task's or an earlier phase's), an absent priority the named policy's default or else the one in force, dl-* the phase's own (period defaults to its dl-runtime). A phase whose result would differ between passes of the task's loop is an error |
/// | task `cpus` [i, ...] (0..63) | `task_spec::cpus`; the workload's default CPU count is the highest index + 1 (a smaller machine refuses the file, as rt-app refuses a CPU it lacks) |
/// | phase `cpus` [i, ...] | when any phase of a task has one, every phase of that task begins with a `set_affinity` (before its `set_policy`): the phase's CPUs, else the task's, else every CPU (rt-app's set_thread_affinity: phase, then task, then the thread's starting affinity). They size the machine as the task's do |
/// | `run` (calibrated work) | `event_kind::run` (CPU work: grows with preemption and cache refill) |
/// | `runtime` (wall time) | `event_kind::runtime` |
/// | `sleep` | `event_kind::sleep` |
/// | `timer` {ref, period, mode relative (default) / absolute} | `event_kind::timer` (`absolute`), `anchor` = the task's `delay`: as rt-app's t_first (the use case's start plus the delay), the first expiry is delay + period wherever the program first reaches the timer, and a timer first reached after it has overrun; `unique*` refs are per instance, other refs shared by every thread (engine rule); the mode is the timer's (any event saying absolute makes all its uses absolute, rt-app's rule); period 0 is kept: it waits only for a later expiry another use of the ref set, and otherwise, in relative mode, moves the timer's reference to now, as rt-app's run_event does (no slack sample) |
/// | `suspend` "name" / bare `"suspend",` / "" (= the task's own name), `resume` "name" | as rt-app runs them (src/rt-app.c): `suspend` is `lock` name, `wait` {ref name, mutex name}, `unlock` name; `resume` is `lock` name, `broadcast` name, `unlock` name. The names are the conditions and mutexes of `wait`, `signal`, `broad`, `sync` and `lock`: a resume wakes a `wait` on its name, a `signal` wakes a suspended task |
/// | `lock`, `unlock` | `lock`, `unlock` |
/// | `wait` {ref, mutex}, `signal`, `broad`, `sync` {ref, mutex} | `wait`, `signal`, `broadcast`, `sync` |
/// | `barrier` | `barrier` (parties = instances of the tasks that mention it; a task may name a barrier once, as rt-app counts a party per reference) |
/// | `sem_post` "name", `sem_wait` "name" | `sem_post` / `sem_wait` on a counting semaphore that starts at 0 (rt-app's sem_init); a post adds a unit and wakes the first waiter in futex order (deadline, RT by priority, then arrival), which takes a unit when it runs, as glibc's |
/// | `yield` (string ignored, may be bare) | `yield` |
/// | `fork` "task" | `fork` (the task must exist) |
/// | `mem` / `iorun` (bytes) | `run` of bytes / 4 ns (a 4 GB/s copy loop; the io device and memory traffic are not modelled; noted) |
/// | `memrun` {type read/write/chase, count, size, stride, pattern, ref} | `run`: read/write count/4 ns, chase 20 ns per hop (noted) |
///
/// Event keys keep file order, repeat freely (`"run"` twice in a phase) and may carry a
/// suffix: digits (`run0`, `timer1`, `lock4`) or `_`/`-` and anything (`memrun_a`), as rt-app
/// recognises event types by prefix. A key that is neither a property nor such an event is an
/// error, except the keys below. (rt-app itself reads only the keys it knows and ignores the
/// rest silently, rt-app issue #37, and takes any key that merely starts with an event name,
/// `running`, as that event; schedsim refuses both, so that a typo cannot quietly change a run.)
///
/// @par Keys accepted without effect (each documented by rt-app; a note says so)
/// - global: `lock_pages`, `logdir`, `log_basename`, `log_size`, `ftrace` (use `--trace`), `gnuplot`, `io_device`,
///   `mem_buffer_size`, `cumulative_slack`, and `frag` (a legacy key present in rt-app's own
///   example files). Their types are still checked.
/// - top level: `resources` (legacy; resources are created on first use).
/// - task/phase: `nodes_membind` / `membind_nodes` (no NUMA).
///
/// @par Task groups
/// `taskgroup` ("/tg1/tg11", a path in the cpu cgroup hierarchy, which rt-app creates) puts a
/// task in that group: every component of every path becomes a `workload::cgroups` entry with
/// the default cpu.weight (100), parents first. At task level it is where the task starts; at
/// phase level the task moves there when the phase begins (`set_cgroup`, the kernel's
/// sched_move_task). "/" means the root; "" means no taskgroup (the root at task level; at
/// phase level the task stays where it is, as rt-app reads it). A path must start with '/'
/// and nest at most `cgroup_max_depth` groups. Task groups act in cfs and eevdf (group
/// scheduling, policy/group.hpp); other policies ignore them (noted). The path is also the
/// task's report group label, as before.
///
/// @par Cross-checks (errors, at the first offending use in file order)
/// `resume` of a name nobody suspends, waits or syncs on; `suspend` on a name nobody resumes,
/// signals, broadcasts or syncs; `unlock` of a
/// mutex never locked and `lock` of one never unlocked; `wait`/`sync` whose mutex is never
/// locked or whose condition nobody signals or resumes (a `sync`'s own signal cannot wake its
/// wait: a sync of a one-thread task needs another signaller or syncer); `signal`/`broad` of a
/// condition nobody waits, syncs or suspends on; a task-level `runtime` given twice beside
/// `phases` (a parameter there);
/// `fork` of an unknown task or of a task that uses a barrier; a barrier named twice by one task
/// (rt-app would count two parties for one thread and wait forever); duplicate task names; events
/// at task level beside `phases`; `sem_wait` on a semaphore nobody posts, `sem_post` of one
/// nobody waits on; a resume cycle: tasks that block on suspend/wait/sem_wait before
/// anything that could wake them has run (static approximation: a task starts live unless
/// its first suspend/wait/sem_wait can only be satisfied by tasks that are themselves blocked);
/// more than `rtapp_options::max_instances` threads in total; a loop that takes no simulated
/// time (no run/runtime/sleep > 0, no timer with a period and no event that can block:
/// suspend, wait, sync, sem_wait, barrier) and repeats forever, or brings the file past 10^7
/// such instantaneous events (events x passes x instances), which would pin a discrete-event
/// simulation at one instant (rt-app would just spin).
#ifndef SCHEDCORE_SIM_RTAPP_HPP
#define SCHEDCORE_SIM_RTAPP_HPP

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <map>
#include <new>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "schedcore/core/time.hpp"
#include "schedcore/policy/edf.hpp"
#include "schedcore/policy/params.hpp"
#include "schedcore/sim/json.hpp"
#include "schedcore/sim/workload.hpp"

namespace schedcore {
namespace sim {

/// A bad rt-app file (syntax or meaning): `what()` is `"FILE:LINE:COLUMN: message"` (or
/// `"FILE: message"` when no position applies, e.g. the file cannot be read).
class rtapp_error : public std::runtime_error {
 public:
  /// The error `message` at `p` in `file` (`p.line` 0: no position).
  rtapp_error(const std::string& file, json::position p, const std::string& message)
      : std::runtime_error(p.line == 0 ? file + ": " + message : file + ":" + json::to_string(p) + ": " + message),
        pos_(p),
        message_(message) {}
  /// Where (line 0 = no position).
  json::position where() const { return pos_; }
  /// The message without the location.
  const std::string& message() const { return message_; }

 private:
  json::position pos_;
  std::string message_;
};

/// Import settings.
struct rtapp_options {
  /// Simulated span when `global.duration` is -1 or absent (rt-app: until every task exits).
  duration_ns default_duration_ns = sec(10);
  /// The caller sets the span itself (schedsim's `--duration`): no note about the default.
  bool duration_given = false;
  /// Most threads (sum of `instance`) in one file.
  std::int64_t max_instances = 100000;
  /// Largest file read by `load_rtapp`, bytes.
  std::size_t max_file_bytes = std::size_t{64} << 20;
  /// Reader limits (depth, value count).
  json::parse_options json{};
};

namespace detail_rtapp {

/// Largest time accepted, in rt-app microseconds (10^15 ns).
inline constexpr std::int64_t max_us = 1000000000000;
/// The deadline class's parameter limits at its default knobs (edf.hpp `runtime_min`,
/// `deadline_period_min`, `deadline_period_max`): runtime >= 1024 ns, period in [100 us, 2^22 us].
inline constexpr std::int64_t dl_runtime_min_ns = 1024;
inline constexpr std::int64_t dl_period_min_ns = 100000;
inline constexpr std::int64_t dl_period_max_ns = (std::int64_t{1} << 22) * 1000;
namespace dl_probe_detail {
struct dl_probe : edf_entity {};
using dl_probe_policy = edf_policy<dl_probe>;
static_assert(dl_probe_policy::runtime_min == dl_runtime_min_ns, "edf.hpp's smallest runtime changed");
static_assert(dl_probe_policy::knobs{}.deadline_period_min == dl_period_min_ns, "edf.hpp's smallest period changed");
static_assert(dl_probe_policy::knobs{}.deadline_period_max == dl_period_max_ns, "edf.hpp's largest period changed");
}  // namespace dl_probe_detail
/// Largest byte count accepted by mem/iorun/memrun.
inline constexpr std::int64_t max_bytes = 1000000000000000;
/// mem/iorun/memrun read/write: bytes per ns of CPU work (4 GB/s).
inline constexpr std::int64_t bytes_per_ns = 4;
/// memrun chase: ns per pointer hop.
inline constexpr std::int64_t chase_ns = 20;
/// Highest CPU index accepted in `cpus`.
inline constexpr std::int64_t max_cpu = 63;

enum class ek : std::uint8_t {
  run, runtime, sleep, timer, suspend, resume, lock, unlock, wait, signal, broad, sync, barrier, yield,
  fork, mem, iorun, memrun, sem_post, sem_wait
};

struct ev_name {
  const char* name;
  ek kind;
};
// Longest names first so that prefix matching prefers runtime over run, memrun over mem,
// broadcast over broad.
inline constexpr ev_name ev_names[] = {
    {"broadcast", ek::broad}, {"sem_post", ek::sem_post}, {"sem_wait", ek::sem_wait}, {"runtime", ek::runtime},
    {"suspend", ek::suspend}, {"barrier", ek::barrier},   {"memrun", ek::memrun},     {"resume", ek::resume},
    {"signal", ek::signal},   {"unlock", ek::unlock},     {"sleep", ek::sleep},       {"timer", ek::timer},
    {"broad", ek::broad},     {"yield", ek::yield},       {"iorun", ek::iorun},       {"lock", ek::lock},
    {"wait", ek::wait},       {"sync", ek::sync},         {"fork", ek::fork},         {"run", ek::run},
    {"mem", ek::mem},
};

/// The event type of key `k` (exact, digits suffix, or `_`/`-` suffix), or false.
inline bool match_event(std::string_view k, ek& out, std::string_view& base) {
  for (const ev_name& e : ev_names) {
    const std::string_view n = e.name;
    if (k.size() < n.size() || k.substr(0, n.size()) != n) continue;
    const std::string_view rest = k.substr(n.size());
    bool ok = rest.empty() || rest[0] == '_' || rest[0] == '-';
    if (!ok) {
      ok = true;
      for (char c : rest) ok = ok && c >= '0' && c <= '9';
    }
    if (ok) {
      out = e.kind;
      base = n;
      return true;
    }
  }
  return false;
}

inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  if (a.size() > 64 || b.size() > 64) return 99;
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0u : 1u)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

/// " (did you mean 'x'?)" for the closest candidate within distance 2, else "".
template <class Names>
std::string suggest(std::string_view k, const Names& names) {
  std::size_t best = 3;
  std::string pick;
  for (const auto& n : names) {
    const std::size_t d = edit_distance(k, n);
    if (d < best) {
      best = d;
      pick = std::string(n);
    }
  }
  return pick.empty() ? std::string() : " (did you mean '" + pick + "'?)";
}

inline std::string quote(std::string_view s) {
  std::string o = "'";
  for (char c : s.substr(0, 60)) o += (static_cast<unsigned char>(c) < 0x20 ? '?' : c);
  if (s.size() > 60) o += "...";
  return o + "'";
}

// Scheduling fields as written at one level (task or phase).
struct sched_in {
  const json::value* policy = nullptr;
  const json::value* priority = nullptr;
  const json::value* dl_runtime = nullptr;
  const json::value* dl_period = nullptr;
  const json::value* dl_deadline = nullptr;
  const json::value* dl_reclaim = nullptr;  // schedsim's extension: SCHED_FLAG_RECLAIM
  const json::value* dl_overrun = nullptr;  // schedsim's extension: SCHED_FLAG_DL_OVERRUN
  bool any() const { return policy || priority || dl_runtime || dl_period || dl_deadline || dl_reclaim || dl_overrun; }
};

// One use of a named resource, for the cross-checks.
enum class use_kind : std::uint8_t { suspend, resume, lock, unlock, wait, sync, signal, broad, barrier, fork, sem_post, sem_wait };
struct use {
  use_kind kind;
  std::string name;
  std::string mutex;  // wait/sync
  int task;
  json::position pos;
};

class importer {
 public:
  importer(const std::string& file, const rtapp_options& o) : file_(file), o_(o) {}

  workload run(const json::value& root) {
    if (!root.is_object()) fail(root.pos, std::string("expected an object at the top level, got ") + json::describe(root.t));
    const json::value* tasks = nullptr;
    const json::value* global = nullptr;
    for (const json::value& m : root.items) {
      if (m.key == "tasks" || m.key == "global" || m.key == "resources") {
        if (root.count(m.key) > 1 && &m != root.find(m.key)) fail(m.key_pos, "duplicate top-level key " + quote(m.key));
        if (m.key == "tasks") tasks = &m;
        else if (m.key == "global") global = &m;
        else {
          if (!m.is_object() && !m.is_array())
            fail(m.pos, std::string("'resources' expects an object, got ") + json::describe(m.t));
          note("'resources' (legacy) ignored: resources are created on first use");
        }
      } else {
        fail(m.key_pos, "unknown top-level key " + quote(m.key) + ": expected \"tasks\", \"global\" or \"resources\"" +
                            suggest(m.key, std::vector<std::string>{"tasks", "global", "resources"}));
      }
    }
    if (tasks == nullptr) fail(root.pos, "missing \"tasks\": an rt-app file needs a \"tasks\" object");
    w_.duration = o_.default_duration_ns;
    w_.calibration_cpu = 0;  // rt-app calibrates on CPU0 when "calibration" is absent
    bool duration_set = false;
    if (global != nullptr) duration_set = parse_global(*global);
    if (!duration_set && !o_.duration_given)
      note("global duration -1 or absent (run until every task exits): capped at " + seconds(o_.default_duration_ns) +
           " (override with --duration)");
    if (!tasks->is_object()) fail(tasks->pos, std::string("\"tasks\" expects an object, got ") + json::describe(tasks->t));
    if (tasks->items.empty()) fail(tasks->pos, "\"tasks\" is empty: expected at least one task");
    // First pass: names (fork and suspend defaults need them).
    for (std::size_t k = 0; k < tasks->items.size(); ++k) {
      const json::value& t = tasks->items[k];
      if (t.key.empty()) fail(t.key_pos, "empty task name");
      if (!names_.emplace(t.key, static_cast<int>(k)).second) fail(t.key_pos, "duplicate task name " + quote(t.key));
    }
    for (std::size_t k = 0; k < tasks->items.size(); ++k) w_.tasks.push_back(parse_task(tasks->items[k], static_cast<int>(k)));
    cross_check();
    share_timer_modes();
    for (std::size_t k = 0; k < w_.tasks.size(); ++k) check_progress(w_.tasks[k], *progress_[k].first, progress_[k].second);
    w_.cpus = static_cast<int>(std::max<std::int64_t>(1, max_cpu_seen_ + 1));
    if (w_.cpus > 1)
      note("machine: " + std::to_string(w_.cpus) + " CPUs by default (highest index in \"cpus\" or the calibration CPU, + 1); "
           "--cpus, or a machine that --energy-model or --capacity describes, overrides");
    std::int64_t threads = 0;
    for (const task_spec& ts : w_.tasks) threads += ts.instances;
    w_.description = "rt-app workload " + base_name(file_) + ": " + std::to_string(w_.tasks.size()) + " task(s), " +
                     std::to_string(threads) + " thread(s); times converted from us";
    w_.notes = notes_;
    return std::move(w_);
  }

 private:
  const std::string& file_;
  const rtapp_options& o_;
  workload w_;
  std::vector<std::string> notes_;
  std::map<std::string, int> names_;
  std::vector<use> uses_;
  std::vector<std::pair<const json::value*, const json::value*>> progress_;  // task, its "phases"
  std::int64_t max_cpu_seen_ = -1;
  std::vector<std::vector<int>> phase_cpus_;  ///< parse_phase's "cpus", when phase_has_cpus_
  bool phase_has_cpus_ = false;
  std::set<std::string> cgroup_declared_;  // taskgroup paths already in w_.cgroups
  const json::value* taskgroup_at_ = nullptr;  // the current task's first non-empty taskgroup
  std::int64_t total_instances_ = 0;
  std::int64_t zero_events_total_ = 0;  // instantaneous events over the file so far (check_progress)
  sched_kind default_kind_ = sched_kind::normal;

  [[noreturn]] void fail(json::position p, const std::string& msg) const { throw rtapp_error(file_, p, msg); }
  /// A name that reaches the outputs (task names, group labels): valid UTF-8 without control
  /// characters, so that the JSON and CSV stay valid and each trace record stays on one line.
  void check_label(const std::string& s, json::position p, const std::string& what) const {
    if (const std::string why = json::label_problem(s); !why.empty()) fail(p, what + ": " + why);
  }

  void note(const std::string& n) {
    if (std::find(notes_.begin(), notes_.end(), n) == notes_.end()) notes_.push_back(n);
  }

  /// A `taskgroup` value as a cgroup name ("/a/b"; "" for the root), declaring the group and
  /// its ancestors (default cpu.weight) on first use.
  std::string taskgroup_path(const json::value& m, const std::string& what) {
    const std::string raw = get_string(m, what);
    check_label(raw, m.pos, what);
    if (!raw.empty() && taskgroup_at_ == nullptr) taskgroup_at_ = &m;  // for the policy check (parse_task)
    if (!raw.empty() && raw[0] != '/')
      fail(m.pos, what + ": " + quote(raw) + " does not start with '/': expected a path like \"/tg1/tg11\" (rt-app refuses it)");
    std::string path;
    int depth = 0;
    std::size_t i = 0;
    while (i < raw.size()) {
      if (raw[i] == '/') {
        if (i > 0 && i + 1 < raw.size() && raw[i + 1] == '/')
          fail(m.pos, what + ": an empty component in " + quote(raw) + ": expected a path like \"/tg1/tg11\"");
        ++i;
        continue;
      }
      const std::size_t end = std::min(raw.find('/', i), raw.size());
      const std::string part = raw.substr(i, end - i);
      if (part == "." || part == "..")
        fail(m.pos, what + ": " + quote(part) + " in " + quote(raw) + ": expected group names, not relative steps");
      if (++depth > cgroup_max_depth)
        fail(m.pos, what + ": " + quote(raw) + " nests more than " + std::to_string(cgroup_max_depth) + " task groups");
      const std::string parent = path;
      path += "/" + part;
      if (!cgroup_declared_.count(path)) {
        cgroup_declared_.insert(path);
        w_.cgroups.push_back({path, parent, cgroup_weight_default});
      }
      i = end;
    }
    note("taskgroup: task groups for cfs and eevdf (cpu.weight 100 each); other policies have no group scheduling and "
         "ignore them");
    return path;
  }

  static std::string base_name(const std::string& path) {
    const std::size_t s = path.find_last_of('/');
    return s == std::string::npos ? path : path.substr(s + 1);
  }
  static std::string seconds(duration_ns ns) {
    if (ns % sec(1) == 0) return std::to_string(ns / sec(1)) + " s";
    return std::to_string(ns / msec(1)) + " ms";
  }

  // ------------------------------------------------------------------ typed getters
  std::string what_key(const json::value& m) const { return "'" + m.key + "'"; }

  std::int64_t get_int(const json::value& v, const std::string& what, const char* expected) const {
    std::int64_t x = 0;
    if (v.as_int(x)) return x;
    if (v.is_number()) {
      if (std::isfinite(v.d) && v.d == std::floor(v.d))
        fail(v.pos, what + ": number " + v.s.substr(0, 40) + " is out of range: expected " + expected);
      if (!std::isfinite(v.d)) fail(v.pos, what + ": number " + v.s.substr(0, 40) + " is out of range: expected " + expected);
      fail(v.pos, what + ": expected " + std::string(expected) + ", got the fraction " + v.s.substr(0, 40));
    }
    fail(v.pos, what + ": expected " + std::string(expected) + ", got " + json::describe(v.t));
  }
  /// Microseconds in [0, 10^12] -> ns.
  duration_ns get_us(const json::value& v, const std::string& what) const {
    const std::int64_t x = get_int(v, what, "an integer number of microseconds");
    if (x < 0) fail(v.pos, what + ": negative time " + std::to_string(x) + " us: expected >= 0");
    if (x > max_us)
      fail(v.pos, what + ": absurd time " + std::to_string(x) + " us (more than 10^15 ns): expected at most 10^12 us");
    return x * 1000;
  }
  std::int64_t get_range(const json::value& v, const std::string& what, std::int64_t lo, std::int64_t hi) const {
    const std::string exp = "an integer in " + std::to_string(lo) + ".." + std::to_string(hi);
    const std::int64_t x = get_int(v, what, exp.c_str());
    if (x < lo || x > hi) fail(v.pos, what + ": " + std::to_string(x) + " is out of range: expected " + exp);
    return x;
  }
  const std::string& get_string(const json::value& v, const std::string& what) const {
    if (!v.is_string()) fail(v.pos, what + ": expected a string, got " + json::describe(v.t));
    return v.s;
  }
  const std::string& get_name(const json::value& v, const std::string& what) const {
    const std::string& s = get_string(v, what);
    if (s.empty()) fail(v.pos, what + ": expected a non-empty name");
    return s;
  }
  bool get_bool(const json::value& v, const std::string& what) const {
    if (!v.is_bool()) fail(v.pos, what + ": expected true or false, got " + json::describe(v.t));
    return v.b;
  }
  std::int64_t get_loop(const json::value& v, const std::string& what) const {
    const std::int64_t x = get_int(v, what, "-1 (forever) or a count >= 1");
    if (x == 0 || x < -1) fail(v.pos, what + ": " + std::to_string(x) + " is not a loop count: expected -1 (forever) or >= 1");
    return x;
  }
  std::vector<int> get_cpus(const json::value& v, const std::string& what) {
    if (!v.is_array()) fail(v.pos, what + ": expected an array of CPU indices, got " + json::describe(v.t));
    // An empty set is not "every CPU": sched_setaffinity refuses it (EINVAL).
    if (v.items.empty()) fail(v.pos, what + ": expected at least one CPU index (an empty set: sched_setaffinity refuses it)");
    std::vector<int> out;
    for (const json::value& c : v.items) {
      const std::int64_t x = get_range(c, what, 0, max_cpu);
      max_cpu_seen_ = std::max(max_cpu_seen_, x);
      out.push_back(static_cast<int>(x));
    }
    return out;
  }
  void check_int_array(const json::value& v, const std::string& what) const {
    if (!v.is_array()) fail(v.pos, what + ": expected an array of integers, got " + json::describe(v.t));
    for (const json::value& c : v.items) get_range(c, what, 0, 1 << 20);
  }
  const json::value& need_object(const json::value& v, const std::string& what) const {
    if (!v.is_object()) fail(v.pos, what + ": expected an object, got " + json::describe(v.t));
    return v;
  }
  void no_duplicate(const json::value& obj, const json::value& m, const std::string& where) const {
    if (obj.find(m.key) != &m) fail(m.key_pos, where + ": duplicate key " + quote(m.key) + " (only events may repeat)");
  }

  // ------------------------------------------------------------------ global
  sched_kind policy_kind(const json::value& v, const std::string& what) const {
    const std::string& s = get_string(v, what);
    static const std::pair<const char*, sched_kind> table[] = {
        {"SCHED_OTHER", sched_kind::normal}, {"SCHED_BATCH", sched_kind::batch}, {"SCHED_IDLE", sched_kind::idle},
        {"SCHED_FIFO", sched_kind::fifo},    {"SCHED_RR", sched_kind::rr},       {"SCHED_DEADLINE", sched_kind::deadline}};
    for (const auto& e : table)
      if (s == e.first) return e.second;
    std::vector<std::string> names;
    for (const auto& e : table) names.emplace_back(e.first);
    fail(v.pos, what + ": unknown policy " + quote(s) +
                    ": expected SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR or SCHED_DEADLINE" +
                    suggest(s, names));
  }

  bool parse_global(const json::value& g) {
    need_object(g, "\"global\"");
    bool duration_set = false;
    static const char* const known[] = {"duration",     "calibration", "default_policy", "pi_enabled", "lock_pages",
                                        "logdir",       "log_basename", "log_size",      "ftrace",     "gnuplot",
                                        "io_device",    "mem_buffer_size", "cumulative_slack", "frag"};
    std::string without_effect;  // the keys accepted without effect, for one note
    for (const json::value& m : g.items) {
      const std::string what = "global " + what_key(m);
      no_duplicate(g, m, "global");
      const std::string& k = m.key;
      if (k != "duration" && k != "calibration" && k != "default_policy" && k != "pi_enabled")
        without_effect += (without_effect.empty() ? "" : ", ") + k + (k == "ftrace" ? " (use --trace)" : "");
      if (k == "duration") {
        const std::int64_t d = get_int(m, what, "-1 or a number of seconds >= 1");
        if (d == -1) continue;
        if (d <= 0) fail(m.pos, what + ": " + std::to_string(d) + " s: expected -1 (until all tasks exit) or >= 1 second");
        if (d > 100000)
          fail(m.pos, what + ": absurd duration " + std::to_string(d) + " s: expected at most 100000 s (the command line's --duration limit)");
        w_.duration = sec(d);
        duration_set = true;
      } else if (k == "calibration") {
        // rt-app times one loop of its busy-wait on the calibration CPU ("CPUn", CPU0 when
        // absent) and then runs `run` us worth of loops wherever the thread is: run times are
        // that CPU's. A number is a measured ns per loop, of no CPU the simulation knows.
        if (m.is_number()) {
          const std::int64_t ns_per_loop = get_range(m, what + " (ns per loop)", 1, std::numeric_limits<std::int32_t>::max());
          w_.calibration_cpu = -1;
          note("calibration " + std::to_string(ns_per_loop) + " ns per loop: 'run' is work at the biggest CPU's top speed");
        } else if (m.is_string()) {
          const std::string& s = m.s;
          const bool digits = s.size() > 3 && s.size() <= 5 && s.compare(0, 3, "CPU") == 0 &&
                              std::all_of(s.begin() + 3, s.end(), [](char c) { return c >= '0' && c <= '9'; });
          const int n = digits ? std::stoi(s.substr(3)) : -1;
          if (n < 0 || n > 63)
            fail(m.pos, what + ": " + quote(s) + ": expected \"CPUn\" with n in 0..63 (the CPU rt-app calibrates on) or an "
                                                   "integer (ns per loop)");
          w_.calibration_cpu = n;
          w_.calibration_origin = file_ + ":" + json::to_string(m.pos);
          max_cpu_seen_ = std::max<std::int64_t>(max_cpu_seen_, n);
        } else {
          fail(m.pos, what + ": expected \"CPUn\" or an integer (ns per loop), got " + json::describe(m.t));
        }
      } else if (k == "default_policy") {
        default_kind_ = policy_kind(m, what);
      } else if (k == "pi_enabled") {
        w_.priority_inheritance = get_bool(m, what);
      } else if (k == "lock_pages" || k == "gnuplot" || k == "cumulative_slack") {
        get_bool(m, what);
      } else if (k == "logdir" || k == "log_basename" || k == "io_device") {
        get_string(m, what);
      } else if (k == "log_size") {
        if (!m.is_string() && !m.is_number()) fail(m.pos, what + ": expected \"file\", \"disable\", \"auto\" or a size in MB, got " + json::describe(m.t));
      } else if (k == "ftrace") {
        if (!m.is_string() && !m.is_bool()) fail(m.pos, what + ": expected a string of categories or a boolean, got " + json::describe(m.t));
      } else if (k == "mem_buffer_size") {
        get_range(m, what, 0, max_bytes);
      } else if (k == "frag") {
        get_int(m, what, "an integer");
      } else {
        fail(m.key_pos, "unknown key " + quote(k) + " in \"global\": expected one of duration, calibration, default_policy, "
                        "pi_enabled, lock_pages, logdir, log_basename, log_size, ftrace, gnuplot, io_device, "
                        "mem_buffer_size, cumulative_slack, frag" + suggest(k, known));
      }
    }
    if (!without_effect.empty()) note("global " + without_effect + ": accepted without effect in the simulation");
    return duration_set;
  }

  // ------------------------------------------------------------------ scheduling parameters
  /// Fills `in` when `m` is a scheduling key; true if it was one.
  static bool sched_key(const json::value& m, sched_in& in, bool task_level) {
    const std::string& k = m.key;
    if (k == "policy") in.policy = &m;
    else if (k == "priority") in.priority = &m;
    else if (k == "dl-runtime") in.dl_runtime = &m;
    else if (k == "dl-reclaim") in.dl_reclaim = &m;
    else if (k == "dl-overrun") in.dl_overrun = &m;
    else if (k == "dl-period" || (task_level && k == "period")) {
      if (in.dl_period == nullptr || k == "dl-period") in.dl_period = &m;
    } else if (k == "dl-deadline" || (task_level && k == "deadline")) {
      if (in.dl_deadline == nullptr || k == "dl-deadline") in.dl_deadline = &m;
    } else return false;
    return true;
  }

  /// The scheduling parameters that one level's fields give, as rt-app combines them
  /// (src/rt-app_parse_config.c parse_sched_data, src/rt-app.c set_thread_param).
  /// Task level (`cur` null): an absent policy is global.default_policy, an absent priority
  /// the policy's default (nice 0; 10 for FIFO/RR). Phase level (`cur`: the parameters in force
  /// as the phase begins, the task's or an earlier phase's): an absent policy is the one in
  /// force (rt-app's "same"), an absent priority the new policy's default when the phase names
  /// a policy, else the one in force; dl-runtime, dl-period and dl-deadline are the phase's own
  /// (period defaulting to its runtime, deadline to its period), never the task's.
  sched_params resolve(const sched_in& s, const sched_params* cur, const json::value* legacy_runtime,
                       const std::string& where, json::position fallback) {
    sched_params p;
    const json::value* pol = s.policy;
    p.kind = pol ? policy_kind(*pol, where + " 'policy'") : (cur != nullptr ? cur->kind : default_kind_);
    const bool same = cur != nullptr && pol == nullptr;  // rt-app's policy "same": unchanged unless given
    const json::value* pri = s.priority;
    const json::value* rt = s.dl_runtime;
    const json::value* per = s.dl_period;
    const json::value* dl = s.dl_deadline;
    // The legacy task-level "period" and "deadline" count only where the dl-* keys leave the
    // value 0 (parse_sched_data: period = dl-period, else dl-runtime; deadline = dl-deadline,
    // else that period): beside a dl-runtime, or a "deadline" beside a dl-period, rt-app
    // ignores them.
    if (per != nullptr && per->key == "period" && rt != nullptr) {
      note("legacy \"period\" ignored beside \"dl-runtime\" (rt-app reads it only without one)");
      per = nullptr;
    }
    if (dl != nullptr && dl->key == "deadline" && (rt != nullptr || (per != nullptr && per->key == "dl-period"))) {
      note("legacy \"deadline\" ignored beside \"dl-runtime\" or \"dl-period\" (rt-app reads it only without them)");
      dl = nullptr;
    }
    duration_ns runtime = rt ? get_us(*rt, where + " " + what_key(*rt)) : 0;
    const duration_ns period = per ? get_us(*per, where + " " + what_key(*per)) : 0;
    const duration_ns deadline = dl ? get_us(*dl, where + " " + what_key(*dl)) : 0;
    const bool reclaim = s.dl_reclaim != nullptr && get_bool(*s.dl_reclaim, where + " 'dl-reclaim'");
    if (reclaim && p.kind != sched_kind::deadline)
      fail(s.dl_reclaim->pos, where + ": \"dl-reclaim\" asks for GRUB reclaiming (SCHED_FLAG_RECLAIM), which only "
                              "SCHED_DEADLINE has: expected it beside \"policy\": \"SCHED_DEADLINE\"");
    const bool overrun = s.dl_overrun != nullptr && get_bool(*s.dl_overrun, where + " 'dl-overrun'");
    if (overrun && p.kind != sched_kind::deadline)
      fail(s.dl_overrun->pos, where + ": \"dl-overrun\" asks for runtime overrun signals (SCHED_FLAG_DL_OVERRUN), which only "
                              "SCHED_DEADLINE has: expected it beside \"policy\": \"SCHED_DEADLINE\"");
    switch (p.kind) {
      case sched_kind::normal:
      case sched_kind::batch:
      case sched_kind::idle:
        if (pri) p.nice = static_cast<s8>(get_range(*pri, where + " 'priority' (the nice value for SCHED_OTHER/BATCH/IDLE)", nice_min, nice_max));
        else if (same) p.nice = cur->nice;
        // Since Linux 6.12, rt-app's dl-runtime on a fair task is its custom slice
        // (sched_attr.sched_runtime); eevdf reads it, the older fair policies ignore it, as
        // kernels before 6.12 did.
        if (rt) p.runtime = runtime;
        else if (same) p.runtime = cur->runtime;
        break;
      case sched_kind::fifo:
      case sched_kind::rr:
        p.rt_priority = static_cast<u8>(pri ? get_range(*pri, where + " 'priority' (SCHED_FIFO/SCHED_RR)", rt_priority_min, rt_priority_max)
                                            : (same ? cur->rt_priority : 10));
        break;
      case sched_kind::deadline: {
        if (pri) get_int(*pri, where + " 'priority'", "an integer");
        if (rt == nullptr && legacy_runtime != nullptr) runtime = get_us(*legacy_runtime, where + " 'runtime' (legacy dl-runtime)");
        const json::value* at = pol ? pol : (rt ? rt : (pri ? pri : (per ? per : dl)));
        const json::position pos = at ? at->pos : fallback;
        if (runtime <= 0)
          fail(rt ? rt->pos : pos, where + ": SCHED_DEADLINE needs \"dl-runtime\" > 0 (microseconds)" +
                                       (cur != nullptr ? std::string(" in the phase itself: rt-app does not take a phase's "
                                                                     "deadline parameters from the task")
                                                       : std::string()));
        p.runtime = runtime;
        p.reclaim = reclaim;
        p.dl_overrun = overrun;
        p.period = period > 0 ? period : runtime;
        p.deadline = deadline > 0 ? deadline : p.period;
        if (validate(p) != errc::ok)
          fail(dl ? dl->pos : (per ? per->pos : pos),
               where + ": SCHED_DEADLINE needs dl-runtime <= dl-deadline <= dl-period (got " + std::to_string(p.runtime / 1000) +
                   ", " + std::to_string(p.deadline / 1000) + ", " + std::to_string(p.period / 1000) + " us)");
        // The deadline class's own limits (edf.hpp, the kernel's __checkparam_dl and the
        // sched_deadline_period_{min,max}_us defaults), so that the run cannot refuse them later.
        if (p.runtime < dl_runtime_min_ns)
          fail(rt ? rt->pos : pos, where + ": SCHED_DEADLINE needs dl-runtime >= 1.024 us (1024 ns, 2^DL_SCALE; got " +
                                       std::to_string(p.runtime) + " ns)");
        if (p.period < dl_period_min_ns || p.period > dl_period_max_ns)
          fail(per ? per->pos : (rt ? rt->pos : pos),
               where + ": SCHED_DEADLINE needs a period (dl-period, or dl-runtime when no period is given) in [100, " +
                   std::to_string(dl_period_max_ns / 1000) + "] us (got " + std::to_string(p.period / 1000) + " us)");
        break;
      }
    }
    return p;
  }

  // ------------------------------------------------------------------ events
  void add_use(use_kind k, const std::string& name, int task, json::position pos, const std::string& mutex = {}) {
    uses_.push_back(use{k, name, mutex, task, pos});
  }

  const json::value& member(const json::value& obj, const char* k, const std::string& what) const {
    const json::value* v = obj.find(k);
    if (v == nullptr) fail(obj.pos, what + ": missing \"" + std::string(k) + "\"");
    return *v;
  }
  void only_keys(const json::value& obj, std::initializer_list<const char*> keys, const std::string& what) const {
    for (const json::value& m : obj.items) {
      bool ok = false;
      for (const char* k : keys) ok = ok || m.key == k;
      if (!ok) {
        std::string list;
        std::vector<std::string> names;
        for (const char* k : keys) {
          list += std::string(list.empty() ? "" : ", ") + k;
          names.emplace_back(k);
        }
        fail(m.key_pos, what + ": unknown key " + quote(m.key) + ": expected " + list + suggest(m.key, names));
      }
      if (obj.find(m.key) != &m) fail(m.key_pos, what + ": duplicate key " + quote(m.key));
    }
  }

  void parse_event(const json::value& m, ek kind, std::string_view base, int task, const std::string& task_name,
                   const std::string& where, std::vector<event>& out) {
    const std::string what = where + " event " + what_key(m);
    const json::position pos = m.is_none() ? m.key_pos : m.pos;
    if (m.is_none() && kind != ek::suspend && kind != ek::yield)
      fail(m.key_pos, what + ": expected ':' and a value (only \"suspend\" and \"yield\" may stand alone)");
    switch (kind) {
      case ek::run: out.push_back(ev::run(get_us(m, what))); break;
      case ek::runtime: out.push_back(ev::runtime(get_us(m, what))); break;
      case ek::sleep: out.push_back(ev::sleep(get_us(m, what))); break;
      case ek::mem:
      case ek::iorun: {
        const std::int64_t bytes = get_range(m, what + " (bytes)", 0, max_bytes);
        out.push_back(ev::run((bytes + bytes_per_ns - 1) / bytes_per_ns));
        note(std::string(base) + " modelled as CPU work at 4 GB/s (" +
             (kind == ek::mem ? "memory traffic not modelled" : "the io device is not modelled") + ")");
        break;
      }
      case ek::memrun: {
        need_object(m, what);
        only_keys(m, {"type", "count", "size", "stride", "pattern", "ref"}, what);
        const std::string& ty = get_string(member(m, "type", what), what + " 'type'");
        if (ty != "read" && ty != "write" && ty != "chase")
          fail(m.find("type")->pos, what + " 'type': unknown " + quote(ty) + ": expected \"read\", \"write\" or \"chase\"");
        const std::int64_t count = get_range(member(m, "count", what), what + " 'count'", 0, max_bytes);
        if (const json::value* v = m.find("size")) get_range(*v, what + " 'size'", 1, max_bytes);
        if (const json::value* v = m.find("stride")) get_range(*v, what + " 'stride'", 1, max_bytes);
        if (const json::value* v = m.find("ref")) get_name(*v, what + " 'ref'");
        if (const json::value* v = m.find("pattern")) {
          const std::string& pt = get_string(*v, what + " 'pattern'");
          if (pt != "random" && pt != "sequential")
            fail(v->pos, what + " 'pattern': unknown " + quote(pt) + ": expected \"random\" or \"sequential\"");
        }
        out.push_back(ev::run(ty == "chase" ? count * chase_ns : (count + bytes_per_ns - 1) / bytes_per_ns));
        note("memrun modelled as CPU work (read/write 4 GB/s, chase 20 ns per hop); caches are not modelled");
        break;
      }
      case ek::timer: {
        need_object(m, what);
        only_keys(m, {"ref", "period", "mode"}, what);
        const std::string& ref = get_name(member(m, "ref", what), what + " 'ref'");
        const duration_ns period = get_us(member(m, "period", what), what + " 'period'");
        bool absolute = false;
        if (const json::value* mode = m.find("mode")) {
          const std::string& s = get_string(*mode, what + " 'mode'");
          if (s == "absolute") absolute = true;
          else if (s != "relative")
            fail(mode->pos, what + " 'mode': unknown " + quote(s) + ": expected \"relative\" or \"absolute\"");
        }
        out.push_back(ev::timer(ref, period, absolute));  // period 0: see the engine's timer rule
        break;
      }
      case ek::suspend: {
        std::string ref = task_name;
        if (!m.is_none()) {
          const std::string& s = get_string(m, what + " (the name to suspend on; empty or bare = the task's own name)");
          if (!s.empty()) ref = s;
        }
        // rt-app's suspend is a condition wait under the mutex of the same name (rtapp_suspend:
        // lock, pthread_cond_wait, unlock; src/rt-app.c), on the condition that wait, signal,
        // broad and sync name: the two families share their names.
        add_use(use_kind::suspend, ref, task, pos);
        out.push_back(ev::on(event_kind::lock, ref));
        out.push_back(ev::cond(event_kind::wait, ref, ref));
        out.push_back(ev::on(event_kind::unlock, ref));
        break;
      }
      case ek::resume: {
        // rtapp_resume: lock the mutex of the name, broadcast its condition, unlock.
        const std::string& ref = get_name(m, what);
        add_use(use_kind::resume, ref, task, m.pos);
        out.push_back(ev::on(event_kind::lock, ref));
        out.push_back(ev::on(event_kind::broadcast, ref));
        out.push_back(ev::on(event_kind::unlock, ref));
        break;
      }
      case ek::lock:
      case ek::unlock:
      case ek::signal:
      case ek::broad:
      case ek::barrier:
      case ek::fork: {
        const std::string& ref = get_name(m, what);
        event_kind ekind = event_kind::lock;
        use_kind uk = use_kind::lock;
        switch (kind) {
          case ek::lock: ekind = event_kind::lock; uk = use_kind::lock; break;
          case ek::unlock: ekind = event_kind::unlock; uk = use_kind::unlock; break;
          case ek::signal: ekind = event_kind::signal; uk = use_kind::signal; break;
          case ek::broad: ekind = event_kind::broadcast; uk = use_kind::broad; break;
          case ek::barrier: ekind = event_kind::barrier; uk = use_kind::barrier; break;
          case ek::fork:
            ekind = event_kind::fork;
            uk = use_kind::fork;
            if (names_.find(ref) == names_.end())
              fail(m.pos, what + ": unknown task " + quote(ref) + ": expected the name of a task of this file" +
                              suggest(ref, keys_of(names_)));
            break;
          default: break;
        }
        add_use(uk, ref, task, m.pos);
        out.push_back(ev::on(ekind, ref));
        break;
      }
      case ek::wait:
      case ek::sync: {
        need_object(m, what);
        only_keys(m, {"ref", "mutex"}, what);
        const std::string& ref = get_name(member(m, "ref", what), what + " 'ref'");
        const std::string& mx = get_name(member(m, "mutex", what), what + " 'mutex'");
        add_use(kind == ek::wait ? use_kind::wait : use_kind::sync, ref, task, m.pos, mx);
        out.push_back(ev::cond(kind == ek::wait ? event_kind::wait : event_kind::sync, ref, mx));
        break;
      }
      case ek::yield:
        if (!m.is_none() && !m.is_string()) fail(m.pos, what + ": expected a string (ignored) or nothing, got " + json::describe(m.t));
        out.push_back(ev::simple(event_kind::yield));
        break;
      case ek::sem_post:
      case ek::sem_wait: {
        const std::string& ref = get_name(m, what);
        add_use(kind == ek::sem_post ? use_kind::sem_post : use_kind::sem_wait, ref, task, m.pos);
        out.push_back(ev::on(kind == ek::sem_post ? event_kind::sem_post : event_kind::sem_wait, ref));
        break;
      }
    }
  }

  static std::vector<std::string> keys_of(const std::map<std::string, int>& m) {
    std::vector<std::string> v;
    for (const auto& [k, _] : m) v.push_back(k);
    return v;
  }

  // ------------------------------------------------------------------ tasks and phases
  static bool common_ignored_key(const std::string& k) {
    return k == "util_min" || k == "util_max" || k == "nodes_membind" || k == "membind_nodes" || k == "taskgroup";
  }
  /// A key of the common set: a clamp goes to `clamps` ([0] util_min, [1] util_max, with
  /// `clamp_keys` their keys for messages), the others act or are noted.
  void ignored_key(const json::value& m, const std::string& what, task_spec& ts, std::int32_t (&clamps)[2],
                   const json::value* (&clamp_keys)[2]) {
    if (m.key == "util_min" || m.key == "util_max") {
      const int id = m.key == "util_max" ? 1 : 0;
      clamps[id] = static_cast<std::int32_t>(get_range(m, what, 0, 1024));
      clamp_keys[id] = &m;
    } else if (m.key == "taskgroup") {
      ts.group = get_string(m, what);
      check_label(ts.group, m.pos, what);
      ts.cgroup = taskgroup_path(m, what);
    } else {
      check_int_array(m, what);
      note(m.key + " ignored: no NUMA in the simulator");
    }
  }

  /// util_min above util_max in one object: sched_setattr refuses it (EINVAL), and rt-app
  /// stops; the error points at the later of the two keys.
  void check_clamps(const std::int32_t (&clamps)[2], const json::value* const (&keys)[2], const std::string& where) const {
    if (keys[0] == nullptr || keys[1] == nullptr || clamps[0] <= clamps[1]) return;
    const json::value* later = keys[0]->key_pos.line > keys[1]->key_pos.line ||
                                       (keys[0]->key_pos.line == keys[1]->key_pos.line && keys[0]->key_pos.column > keys[1]->key_pos.column)
                                   ? keys[0]
                                   : keys[1];
    fail(later->key_pos, where + ": util_min " + std::to_string(clamps[0]) + " is above util_max " + std::to_string(clamps[1]) +
                             " (sched_setattr refuses the pair): expected util_min <= util_max");
  }

  [[noreturn]] void unknown_key(const json::value& m, const std::string& where, bool task_level) const {
    // The events come from ev_names, the table match_event reads, so that list cannot drift;
    // the properties are the keys sched_key, parse_task and common_ignored_key accept (the
    // test AnUnknownKeyListsEveryAcceptedKeyAndTheNearest holds them to it).
    std::vector<std::string> props = {"loop", "policy", "priority", "dl-runtime", "dl-period", "dl-deadline", "dl-reclaim",
                                      "dl-overrun", "cpus", "util_min", "util_max", "nodes_membind", "membind_nodes", "taskgroup"};
    if (task_level) props.insert(props.begin(), {"instance", "delay", "phases", "period", "deadline"});
    std::vector<std::string> events;
    for (const ev_name& e : ev_names) events.emplace_back(e.name);
    std::sort(events.begin(), events.end());
    const auto join = [](const std::vector<std::string>& v) {
      std::string s;
      for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
      return s;
    };
    std::vector<std::string> names = props;
    names.insert(names.end(), events.begin(), events.end());
    fail(m.key_pos, where + ": unknown key " + quote(m.key) + ": expected an event (" + join(events) +
                        ", optionally numbered: run0, run1, ...) or a " + (task_level ? "task" : "phase") + " property (" +
                        join(props) + ")" + suggest(m.key, names));
  }

  task_spec parse_task(const json::value& t, int index) {
    const std::string where = "task " + quote(t.key);
    if (t.is_none()) fail(t.key_pos, where + ": expected ':' and an object describing the task");
    need_object(t, where);
    taskgroup_at_ = nullptr;
    task_spec ts;
    ts.name = t.key;
    check_label(t.key, t.key_pos, "task name");
    ts.origin = file_ + ":" + json::to_string(t.key_pos);
    ts.suffix_instances = true;
    ts.loop = -1;
    const json::value* phases = t.find("phases");
    sched_in sched;
    std::int32_t task_clamps[2] = {-1, -1};  // task-level util_min, util_max (-1: the default)
    const json::value* task_clamp_keys[2] = {nullptr, nullptr};
    const json::value* legacy_runtime = nullptr;
    std::vector<const json::value*> inline_events;
    for (const json::value& m : t.items) {
      const std::string what = where + " " + what_key(m);
      const std::string& k = m.key;
      ek kind{};
      std::string_view base;
      if (k == "runtime") {  // an event; with "phases", rt-app's legacy dl-runtime alias
        // Beside "phases" it is a parameter, read once: a second one is refused as any repeated
        // parameter is (json-c, which rt-app reads files with, would keep only one of them).
        if (phases != nullptr && legacy_runtime != nullptr)
          fail(m.key_pos, where + ": duplicate key " + quote(k) + " (beside \"phases\" it is the task's SCHED_DEADLINE "
                          "runtime, a parameter: only events may repeat)");
        if (legacy_runtime == nullptr) legacy_runtime = &m;
        if (phases == nullptr) inline_events.push_back(&m);
        continue;
      }
      if (k == "instance" || k == "delay" || k == "loop" || k == "phases" || k == "cpus" || common_ignored_key(k)) {
        no_duplicate(t, m, where);
        if (k == "instance") {
          const std::int64_t n = get_range(m, what, 0, o_.max_instances);
          total_instances_ += n;
          if (total_instances_ > o_.max_instances)
            fail(m.pos, what + ": too many threads: " + std::to_string(total_instances_) + " in total, more than the limit " +
                            std::to_string(o_.max_instances));
          ts.instances = static_cast<int>(n);
        } else if (k == "delay") {
          ts.delay = get_us(m, what);
        } else if (k == "loop") {
          ts.loop = get_loop(m, what);
        } else if (k == "phases") {
          need_object(m, what);
          if (m.items.empty()) fail(m.pos, what + ": no phases: expected at least one phase object");
        } else if (k == "cpus") {
          ts.cpus = get_cpus(m, what);
        } else {
          ignored_key(m, what, ts, task_clamps, task_clamp_keys);
        }
      } else if (sched_key(m, sched, true)) {
        no_duplicate(t, m, where);
      } else if (match_event(k, kind, base)) {
        if (phases != nullptr)
          fail(m.key_pos, where + ": event " + quote(k) + " at task level beside \"phases\" (rt-app would ignore it): "
                          "expected it inside a phase");
        inline_events.push_back(&m);
      } else {
        unknown_key(m, where, true);
      }
    }
    if (t.find("instance") == nullptr) {
      total_instances_ += 1;
      if (total_instances_ > o_.max_instances)
        fail(t.key_pos, where + ": too many threads: more than the limit " + std::to_string(o_.max_instances));
    }
    ts.params = resolve(sched, nullptr, legacy_runtime, where, t.key_pos);
    check_clamps(task_clamps, task_clamp_keys, where);
    ts.util_min = task_clamps[0];
    ts.util_max = task_clamps[1];
    if (phases != nullptr && legacy_runtime != nullptr &&
        (ts.params.kind != sched_kind::deadline || sched.dl_runtime != nullptr))
      fail(legacy_runtime->key_pos, where + ": event 'runtime' at task level beside \"phases\" (rt-app reads it only as "
                                    "the legacy dl-runtime of a SCHED_DEADLINE task without \"dl-runtime\"): expected it "
                                    "inside a phase");
    if (phases != nullptr) {
      std::vector<sched_in> phase_sched;
      std::vector<std::vector<int>> own_cpus;  // each phase's "cpus", if it has one
      std::vector<bool> has_cpus;
      bool any_cpus = false;
      for (const json::value& p : phases->items) {
        phase_sched.emplace_back();
        phase_cpus_.clear();
        phase_has_cpus_ = false;
        ts.phases.push_back(parse_phase(p, index, ts, phase_sched.back(), where));
        own_cpus.push_back(phase_has_cpus_ ? phase_cpus_.back() : std::vector<int>{});
        has_cpus.push_back(phase_has_cpus_);
        any_cpus = any_cpus || phase_has_cpus_;
      }
      resolve_phases(ts, *phases, phase_sched, where);
      // rt-app's set_thread_affinity as each phase begins, before its policy: the phase's cpus,
      // else the task's, else the affinity the thread started with (every CPU). Only a task with
      // a phase-level "cpus" changes affinity at all.
      if (any_cpus)
        for (std::size_t i = 0; i < ts.phases.size(); ++i) {
          std::vector<event>& evs = ts.phases[i].events;
          evs.insert(evs.begin(), ev::set_affinity(has_cpus[i] ? own_cpus[i] : ts.cpus));
        }
    } else {
      phase ph;
      ph.name = "phase0";
      ph.loop = 1;
      if (inline_events.empty())
        fail(t.pos, where + ": no events: expected events (run, sleep, timer, ...) or a \"phases\" object");
      for (const json::value* e : inline_events) {
        ek kind{};
        std::string_view base;
        match_event(e->key, kind, base);
        parse_event(*e, kind, base, index, ts.name, where, ph.events);
      }
      if (ph.events.empty()) ph.events.push_back(ev::sleep(0));  // only dropped no-op timers
      ts.phases.push_back(std::move(ph));
    }
    // rt-app's timers all count from one reference per thread, t_first: the use case's start
    // plus the thread's delay, taken once before the first phase (src/rt-app.c, thread_body).
    // A timer's first expiry is t_first + period, wherever the program first reaches it.
    for (phase& ph : ts.phases)
      for (event& e : ph.events)
        if (e.kind == event_kind::timer) e.anchor = ts.delay;
    // rt-app's check_taskgroup_policy_dep: task groups are for SCHED_OTHER, BATCH and IDLE; a
    // thread with taskgroup data that is (or becomes, in a phase) FIFO, RR or DEADLINE stops it.
    if (taskgroup_at_ != nullptr) {
      auto rt_kind = [](sched_kind k) {
        return k == sched_kind::fifo || k == sched_kind::rr || k == sched_kind::deadline;
      };
      bool rt = rt_kind(ts.params.kind);
      for (const phase& ph : ts.phases)
        for (const event& e : ph.events) rt = rt || (e.kind == event_kind::set_policy && rt_kind(e.params.kind));
      if (rt)
        fail(taskgroup_at_->pos, where + ": a taskgroup on a task that runs SCHED_FIFO, SCHED_RR or SCHED_DEADLINE: "
                                 "expected SCHED_OTHER, SCHED_BATCH or SCHED_IDLE (rt-app: \"No taskgroup support for "
                                 "policy\")");
    }
    progress_.push_back({&t, phases});  // checked after the name cross-checks (more specific)
    return ts;
  }

  // A loop whose pass takes no simulated time would pin the simulation at one instant (rt-app
  // would spin; a discrete-event simulator cannot). Every pass of an endless (or huge) loop must
  // contain a run/runtime/sleep > 0 or a timer.
  /// Whether one pass of `p` takes simulated time or blocks: work or a sleep > 0, a timer with
  /// a period, or an event that waits for another task (suspend, wait, sync, sem_wait, a
  /// barrier), as a relay thread's endless loop does. Tasks that keep waking each other at one
  /// instant are stopped by the engine's event budget (a message naming the task).
  static bool advances(const phase& p) {
    for (const event& e : p.events) {
      switch (e.kind) {
        case event_kind::timer:
          if (e.period > 0) return true;
          break;
        case event_kind::run:
        case event_kind::runtime:
        case event_kind::sleep:
          if (e.duration > 0) return true;
          break;
        case event_kind::suspend:
        case event_kind::wait:
        case event_kind::sync:
        case event_kind::sem_wait:
        case event_kind::barrier: return true;
        default: break;
      }
    }
    return false;
  }
  // Instantaneous work (events of phases that take no simulated time) is bounded over the
  // whole file: events x passes x instances, at most max_zero_events (about a second of host
  // time), so that no file accepted here can keep the event loop at one instant for long.
  // (Phases that do take time are bounded by the run's duration instead.)
  static constexpr std::int64_t max_zero_events = 10000000;
  static std::int64_t sat_mul(std::int64_t a, std::int64_t b) {
    return (a != 0 && b > (max_zero_events + 1) / a) ? max_zero_events + 1 : std::min(max_zero_events + 1, a * b);
  }
  void check_progress(const task_spec& ts, const json::value& t, const json::value* phases) {
    const std::string where = "task " + quote(ts.name);
    const std::string fix =
        ": expected a run/runtime/sleep > 0, a timer with a period or a blocking event (suspend, wait, sync, sem_wait, "
        "barrier) in every endless loop";
    const std::string limit = " instantaneous events in the whole file (events x loops x instances): more than " +
                              std::to_string(max_zero_events) + fix;
    bool any = false;
    std::int64_t zero_events = 0;  // per pass of the task's program, saturating
    const std::int64_t copies = std::max<std::int64_t>(1, ts.instances);
    for (std::size_t i = 0; i < ts.phases.size(); ++i) {
      const phase& p = ts.phases[i];
      if (advances(p)) {
        any = true;
        continue;
      }
      const json::position pos = phases != nullptr ? phases->items[i].key_pos : t.key_pos;
      const std::string pw = phases != nullptr ? where + " phase " + quote(p.name) : where;
      if (p.loop == -1)
        fail(pos, pw + " loops forever but takes no simulated time (only zero-length or instantaneous events): the "
                       "simulation would never advance" + fix);
      const std::int64_t n = sat_mul(p.loop, static_cast<std::int64_t>(std::max<std::size_t>(1, p.events.size())));
      zero_events = std::min(max_zero_events + 1, zero_events + n);
      if (sat_mul(zero_events, copies) + zero_events_total_ > max_zero_events)
        fail(pos, pw + ": " + std::to_string(p.loop) + " passes that take no simulated time bring the" + limit);
    }
    std::int64_t per_task = zero_events;
    if (!any) {
      if (ts.loop == -1)
        fail(t.key_pos, where + " loops forever but one pass of its program takes no simulated time (only "
                                "zero-length or instantaneous events): the simulation would never advance" + fix);
      per_task = sat_mul(zero_events, ts.loop);
    }
    const std::int64_t total = std::min(max_zero_events + 1, zero_events_total_ + sat_mul(per_task, copies));
    if (total > max_zero_events)
      fail(t.key_pos, where + ": " + std::to_string(ts.loop) + " passes of a program that takes no simulated time bring the" +
                          limit);
    zero_events_total_ = total;
  }

  /// Fills each phase's `set_policy` (the first event of a phase with scheduling fields) with
  /// the parameters rt-app gives it, which depend on those in force as the phase begins (see
  /// `resolve`): the task's, then each phase's in turn. A phase whose parameters would differ
  /// from one pass of the task's loop to the next (a "priority" alone, applied to whatever
  /// policy an earlier pass left) is an error: the programs cannot vary by pass.
  void resolve_phases(task_spec& ts, const json::value& phases, const std::vector<sched_in>& phase_sched,
                      const std::string& task_where) {
    std::vector<sched_params> first(ts.phases.size());
    sched_params cur = ts.params;
    const int passes = ts.loop == 1 ? 1 : 2;
    for (int pass = 0; pass < passes; ++pass) {
      for (std::size_t i = 0; i < ts.phases.size(); ++i) {
        if (!phase_sched[i].any()) continue;
        const json::value& pv = phases.items[i];
        const std::string where = task_where + " phase " + quote(pv.key);
        const sched_params before = cur;
        cur = resolve(phase_sched[i], &before, nullptr, where, pv.key_pos);
        if (pass == 0) {
          first[i] = cur;
          ts.phases[i].events.front().params = cur;
        } else if (!same_params(cur, first[i])) {
          fail(pv.key_pos, where + ": its scheduling parameters depend on the pass of the task's loop (rt-app keeps the "
                                   "policy and priority in force where the phase leaves them out: " +
                               describe(first[i]) + " on the first pass, " + describe(cur) +
                               " on the next ones); the simulator's programs are the same on every pass: expected "
                               "\"policy\" and \"priority\" in this phase");
        }
      }
    }
  }
  static std::string describe(const sched_params& p) {
    switch (p.kind) {
      case sched_kind::normal: return "SCHED_OTHER nice " + std::to_string(p.nice);
      case sched_kind::batch: return "SCHED_BATCH nice " + std::to_string(p.nice);
      case sched_kind::idle: return "SCHED_IDLE";
      case sched_kind::fifo: return "SCHED_FIFO " + std::to_string(p.rt_priority);
      case sched_kind::rr: return "SCHED_RR " + std::to_string(p.rt_priority);
      case sched_kind::deadline:
        return "SCHED_DEADLINE " + std::to_string(p.runtime / 1000) + "/" + std::to_string(p.deadline / 1000) + "/" +
               std::to_string(p.period / 1000) + " us";
    }
    return "?";
  }

  /// One phase; its scheduling fields go to `sched` (resolved later, `resolve_phases`, into
  /// the phase's first event, a `set_policy`).
  phase parse_phase(const json::value& p, int task, task_spec& ts, sched_in& sched, const std::string& task_where) {
    const std::string where = task_where + " phase " + quote(p.key);
    if (p.is_none()) fail(p.key_pos, where + ": expected ':' and an object describing the phase");
    need_object(p, where);
    phase ph;
    ph.name = p.key;
    std::vector<event> events;
    std::string move_to;  // phase-level taskgroup: the group the task moves into as the phase begins
    bool moves = false;
    std::int32_t clamps[2] = {-2, -2};  // phase-level util_min, util_max (-2: not given, the one in force stays)
    const json::value* clamp_keys[2] = {nullptr, nullptr};
    for (const json::value& m : p.items) {
      const std::string what = where + " " + what_key(m);
      const std::string& k = m.key;
      ek kind{};
      std::string_view base;
      if (k == "loop") {
        no_duplicate(p, m, where);
        ph.loop = get_loop(m, what);
      } else if (k == "cpus") {
        no_duplicate(p, m, where);
        phase_cpus_.push_back(get_cpus(m, what));  // sizes the machine as a task's cpus do
        phase_has_cpus_ = true;
      } else if (k == "taskgroup") {
        no_duplicate(p, m, where);
        move_to = taskgroup_path(m, what);
        moves = !get_string(m, what).empty();  // "": no taskgroup data, the task stays where it is (rt-app)
        if (ts.group.empty()) ts.group = get_string(m, what);
      } else if (common_ignored_key(k)) {
        no_duplicate(p, m, where);
        ignored_key(m, what, ts, clamps, clamp_keys);
      } else if (sched_key(m, sched, false)) {
        no_duplicate(p, m, where);
      } else if (match_event(k, kind, base)) {
        parse_event(m, kind, base, task, ts.name, where, events);
      } else if (k == "instance" || k == "delay" || k == "phases") {
        fail(m.key_pos, where + ": " + quote(k) + " is a task property: expected it at task level");
      } else {
        unknown_key(m, where, false);
      }
    }
    // rt-app's order as a phase begins (src/rt-app.c, thread_body): affinity, scheduling
    // parameters, NUMA binding, task group.
    if (sched.any()) ph.events.push_back(ev::set_policy(sched_params{}));  // filled by resolve_phases
    check_clamps(clamps, clamp_keys, where);
    if (clamp_keys[0] != nullptr || clamp_keys[1] != nullptr) ph.events.push_back(ev::set_uclamp(clamps[0], clamps[1]));  // same sched_setattr
    if (moves) ph.events.push_back(ev::set_cgroup(move_to));
    if (events.empty() && !sched.any() && clamp_keys[0] == nullptr && clamp_keys[1] == nullptr) {
      bool had_event = false;
      for (const json::value& m : p.items) {
        ek kind{};
        std::string_view base;
        had_event = had_event || match_event(m.key, kind, base);
      }
      if (!had_event) fail(p.pos, where + ": no events: expected at least one event (run, sleep, timer, ...)");
      events.push_back(ev::sleep(0));  // only dropped no-op timers
    }
    for (event& e : events) ph.events.push_back(std::move(e));
    return ph;
  }

  // ------------------------------------------------------------------ cross-checks
  void cross_check() {
    // A suspend is a wait on the condition of its name and a resume a broadcast of it, each
    // under the mutex of that name (rt-app shares the names between the two families).
    std::set<std::string> locked, unlocked, waited, signalled, sem_posted, sem_waited;
    std::map<std::string, std::int64_t> barrier_parties;
    std::map<std::string, std::set<int>> barrier_tasks;
    std::set<int> forked, barrier_users;
    // What can wake a sync's wait: a signal, broad or resume of its name, or another thread's
    // sync (its own signal comes before its wait and cannot wake it).
    std::set<std::string> woken;
    std::map<std::string, std::set<int>> sync_tasks;
    for (const use& u : uses_) {
      if (u.kind == use_kind::signal || u.kind == use_kind::broad || u.kind == use_kind::resume) woken.insert(u.name);
      if (u.kind == use_kind::sync) sync_tasks[u.name].insert(u.task);
      switch (u.kind) {
        case use_kind::suspend:
        case use_kind::resume:
          (u.kind == use_kind::suspend ? waited : signalled).insert(u.name);
          locked.insert(u.name);
          unlocked.insert(u.name);
          break;
        case use_kind::lock: locked.insert(u.name); break;
        case use_kind::unlock: unlocked.insert(u.name); break;
        case use_kind::wait: waited.insert(u.name); break;
        case use_kind::sync:
          waited.insert(u.name);
          signalled.insert(u.name);
          break;
        case use_kind::signal:
        case use_kind::broad: signalled.insert(u.name); break;
        case use_kind::barrier:
          barrier_tasks[u.name].insert(u.task);
          barrier_users.insert(u.task);
          break;
        case use_kind::fork: forked.insert(names_.at(u.name)); break;
        case use_kind::sem_post: sem_posted.insert(u.name); break;
        case use_kind::sem_wait: sem_waited.insert(u.name); break;
      }
    }
    for (const use& u : uses_) {
      const std::string where = "task " + quote(w_.tasks[static_cast<std::size_t>(u.task)].name) + ": ";
      switch (u.kind) {
        case use_kind::resume:
          if (!waited.count(u.name))
            fail(u.pos, where + "resume " + quote(u.name) + ": no task suspends on " + quote(u.name) +
                            " (unknown name: expected a name used by a \"suspend\", \"wait\" or \"sync\")" +
                            suggest(u.name, waited));
          break;
        case use_kind::suspend:
          if (!signalled.count(u.name))
            fail(u.pos, where + "suspend on " + quote(u.name) + ": no task ever resumes " + quote(u.name) +
                            " (it would block forever: expected a matching \"resume\", or a \"signal\", \"broad\" "
                            "or \"sync\" of it)" + suggest(u.name, signalled));
          break;
        case use_kind::unlock:
          if (!locked.count(u.name))
            fail(u.pos, where + "unlock " + quote(u.name) + ": mutex " + quote(u.name) +
                            " is never locked (unknown name: expected a name used by a \"lock\")" + suggest(u.name, locked));
          break;
        case use_kind::lock:
          if (!unlocked.count(u.name))
            fail(u.pos, where + "lock " + quote(u.name) + ": mutex " + quote(u.name) +
                            " is never unlocked (expected a matching \"unlock\")" + suggest(u.name, unlocked));
          break;
        case use_kind::wait:
        case use_kind::sync:
          if (!locked.count(u.mutex))
            fail(u.pos, where + (u.kind == use_kind::wait ? "wait" : "sync") + " on " + quote(u.name) + ": its mutex " +
                            quote(u.mutex) + " is never locked (expected a \"lock\" of it before the " +
                            (u.kind == use_kind::wait ? "wait" : "sync") + ")" + suggest(u.mutex, locked));
          if (u.kind == use_kind::sync && !woken.count(u.name) && sync_tasks[u.name].size() == 1 &&
              w_.tasks[static_cast<std::size_t>(u.task)].instances == 1)
            fail(u.pos, where + "sync on " + quote(u.name) + ": no other thread signals " + quote(u.name) +
                            " (a sync's own signal cannot wake it: it would block forever: expected a \"signal\", \"broad\" "
                            "or \"resume\" of it, or a \"sync\" of it by another task)" + suggest(u.name, woken));
          if (u.kind == use_kind::wait && !signalled.count(u.name))
            fail(u.pos, where + "wait on " + quote(u.name) + ": no task signals " + quote(u.name) +
                            " (expected a \"signal\", \"broad\", \"sync\" or \"resume\" of it)" +
                            suggest(u.name, signalled));
          break;
        case use_kind::signal:
        case use_kind::broad:
          if (!waited.count(u.name))
            fail(u.pos, where + (u.kind == use_kind::signal ? "signal " : "broad ") + quote(u.name) + ": no task waits on " +
                            quote(u.name) + " (unknown name: expected a \"wait\", \"sync\" or \"suspend\" on it)" +
                            suggest(u.name, waited));
          break;
        case use_kind::fork: {
          const int target = names_.at(u.name);
          if (barrier_users.count(target))
            fail(u.pos, where + "fork " + quote(u.name) + ": that task uses a barrier, and a barrier cannot count forked "
                            "threads (rt-app's rule): expected no fork of it");
          break;
        }
        case use_kind::barrier: break;
        case use_kind::sem_wait:
          if (!sem_posted.count(u.name))
            fail(u.pos, where + "sem_wait on " + quote(u.name) + ": no task posts " + quote(u.name) +
                            " (it would block forever: expected a matching \"sem_post\")" + suggest(u.name, sem_posted));
          break;
        case use_kind::sem_post:
          if (!sem_waited.count(u.name))
            fail(u.pos, where + "sem_post " + quote(u.name) + ": no task waits on " + quote(u.name) +
                            " (unknown name: expected a \"sem_wait\" on it)" + suggest(u.name, sem_waited));
          break;
      }
    }
    // rt-app counts a barrier's parties per reference: every barrier event adds its task's
    // instance count (src/rt-app_parse_config.c). A task that names a barrier twice would
    // make rt-app wait for more arrivals than there are threads, forever.
    std::map<std::pair<std::string, int>, int> barrier_refs;
    for (const use& u : uses_) {
      if (u.kind != use_kind::barrier || w_.tasks[static_cast<std::size_t>(u.task)].instances == 0) continue;
      if (++barrier_refs[{u.name, u.task}] == 2)
        fail(u.pos, "task " + quote(w_.tasks[static_cast<std::size_t>(u.task)].name) + ": barrier " + quote(u.name) +
                        " named a second time: rt-app counts every reference to a barrier as a party (the task's "
                        "instances at each barrier event), so its threads would wait there forever: expected one "
                        "name per sync point, each named once per task (rt-app's tutorial)");
    }
    for (const auto& [name, specs] : barrier_tasks) {
      std::int64_t parties = 0;
      for (int s : specs) parties += w_.tasks[static_cast<std::size_t>(s)].instances;
      if (parties <= 1) note("barrier '" + name + "' has a single party: it never waits");
    }
    for (std::size_t s = 0; s < w_.tasks.size(); ++s)
      if (w_.tasks[s].instances == 0 && !forked.count(static_cast<int>(s)))
        note("task '" + w_.tasks[s].name + "' has instance 0 and nothing forks it: it never runs");
    check_start_deadlock();
  }

  // A timer's mode is the timer's: rt-app creates each timer resource relative and makes it
  // absolute at any event that says so, for every use (src/rt-app_parse_config.c). Unique refs
  // are the task's own timers, the others are shared by the whole file.
  void share_timer_modes() {
    std::set<std::pair<int, std::string>> absolute, relative;
    auto key = [](int task, const event& e) { return std::make_pair(e.ref.rfind("unique", 0) == 0 ? task : -1, e.ref); };
    for (std::size_t k = 0; k < w_.tasks.size(); ++k)
      for (const phase& ph : w_.tasks[k].phases)
        for (const event& e : ph.events)
          if (e.kind == event_kind::timer) (e.absolute ? absolute : relative).insert(key(static_cast<int>(k), e));
    for (std::size_t k = 0; k < w_.tasks.size(); ++k)
      for (phase& ph : w_.tasks[k].phases)
        for (event& e : ph.events)
          if (e.kind == event_kind::timer && !e.absolute && absolute.count(key(static_cast<int>(k), e))) {
            e.absolute = true;
            note("timer " + quote(e.ref) + " is absolute at every use, as one of its events says \"absolute\" (an rt-app "
                 "timer has one mode)");
          }
  }

  // Static "can it ever start" analysis (see the file comment): catches resume cycles. Two
  // channels, each a gate kind and what opens it: a condition (suspend, wait or sync; opened by
  // resume, signal, broad or sync of its name) and a semaphore (sem_wait / sem_post).
  static int channel_of(use_kind k) {
    return k == use_kind::sem_wait || k == use_kind::sem_post ? 1 : 0;
  }
  void check_start_deadlock() {
    const std::size_t n = w_.tasks.size();
    struct provide {
      use_kind kind;  // resume, signal (signal/broad/sync), sem_post, fork
      std::string name;
    };
    struct info {
      bool gated = false;
      use gate{use_kind::suspend, {}, {}, 0, {}};
      std::vector<provide> pre, all;
      bool started = false, live = false;
    };
    std::vector<info> ti(n);
    for (const use& u : uses_) {  // uses_ is in program order within each task
      info& t = ti[static_cast<std::size_t>(u.task)];
      provide p{u.kind, u.name};
      bool provides = false;
      if (u.kind == use_kind::resume || u.kind == use_kind::fork || u.kind == use_kind::sem_post) provides = true;
      if (u.kind == use_kind::signal || u.kind == use_kind::broad || u.kind == use_kind::sync) {
        p.kind = use_kind::signal;
        provides = true;
      }
      if (provides) {
        t.all.push_back(p);
        if (!t.gated) t.pre.push_back(p);
      }
      if (!t.gated && (u.kind == use_kind::suspend || u.kind == use_kind::wait || u.kind == use_kind::sync ||
                       u.kind == use_kind::sem_wait)) {
        t.gated = true;
        t.gate = u;
      }
    }
    std::set<std::string> avail[2];                 // names opened, per channel
    std::map<std::string, std::vector<int>> gated[2];  // tasks waiting for a name, per channel
    std::vector<int> work;  // tasks to make live
    auto give = [&](const provide& p, std::vector<int>& start) {
      if (p.kind == use_kind::fork) {
        start.push_back(names_.at(p.name));
        return;
      }
      const int ch = channel_of(p.kind);
      if (avail[ch].insert(p.name).second)
        for (int t : gated[ch][p.name]) work.push_back(t);
    };
    std::vector<int> start;
    for (std::size_t s = 0; s < n; ++s)
      if (w_.tasks[s].instances > 0) start.push_back(static_cast<int>(s));
    while (!start.empty() || !work.empty()) {
      if (!start.empty()) {
        const int s = start.back();
        start.pop_back();
        info& t = ti[static_cast<std::size_t>(s)];
        if (t.started) continue;
        t.started = true;
        if (!t.gated) {
          work.push_back(s);
          continue;
        }
        for (const provide& p : t.pre) give(p, start);
        const int ch = channel_of(t.gate.kind);
        if (avail[ch].count(t.gate.name)) work.push_back(s);
        else gated[ch][t.gate.name].push_back(s);
        continue;
      }
      const int s = work.back();
      work.pop_back();
      info& t = ti[static_cast<std::size_t>(s)];
      if (t.live || !t.started) continue;
      t.live = true;
      for (const provide& p : t.all) give(p, start);
    }
    for (std::size_t s = 0; s < n; ++s) {
      const info& t = ti[s];
      if (!t.started || t.live) continue;
      const int ch = channel_of(t.gate.kind);
      std::string wakers;
      int nw = 0;
      bool by_resume = false, by_signal = false;  // what opens a condition, for the message
      for (std::size_t o = 0; o < n; ++o)
        for (const provide& p : ti[o].all)
          if (p.name == t.gate.name && p.kind != use_kind::fork && channel_of(p.kind) == ch) {
            if (nw < 6) wakers += std::string(nw ? ", " : "") + quote(w_.tasks[o].name);
            ++nw;
            (p.kind == use_kind::resume ? by_resume : by_signal) = true;
            break;
          }
      if (nw > 6) wakers += ", ...";
      const char* gate = "sem_wait on ";
      if (t.gate.kind == use_kind::suspend) gate = "suspend on ";
      else if (t.gate.kind == use_kind::wait) gate = "wait on ";
      else if (t.gate.kind == use_kind::sync) gate = "sync on ";
      const char* opened = "posted";
      const char* opener = "sem_post";
      if (ch == 0) {
        opened = by_resume && by_signal ? "woken" : by_resume ? "resumed" : "signalled";
        opener = by_resume && by_signal ? "wake-up" : by_resume ? "resume" : "signal";
      }
      const std::string expected = ch == 0 && by_resume && by_signal ? "resume or signal" : opener;
      fail(t.gate.pos, "task " + quote(w_.tasks[s].name) + " can never get past this " + gate + quote(t.gate.name) +
                           ": it is " + opened + " only by " + wakers + ", which " +
                           (nw == 1 ? "is itself" : "are themselves") + " blocked before " + (nw == 1 ? "it" : "they") +
                           " can wake anyone (a " + opener + " cycle): expected some task to " + expected +
                           " it before blocking");
    }
  }
};

}  // namespace detail_rtapp

/// Imports a parsed rt-app document. `file` names the source in messages and becomes the
/// workload's name (its last path component). Throws `rtapp_error`.
inline workload import_rtapp(const json::value& root, const std::string& file, const rtapp_options& o = {}) {
  detail_rtapp::importer imp(file, o);
  workload w = imp.run(root);
  const std::size_t s = file.find_last_of('/');
  w.name = s == std::string::npos ? file : file.substr(s + 1);
  return w;
}

/// Parses and imports rt-app JSON text. Throws `rtapp_error` (syntax errors included).
inline workload parse_rtapp(std::string_view text, const std::string& file = "<input>", const rtapp_options& o = {}) {
  json::value root;
  try {
    root = json::parse(text, file, o.json);
  } catch (const json::error& e) {
    throw rtapp_error(file, e.where(), e.message());
  }
  return import_rtapp(root, file, o);
}

/// Reads and imports the rt-app file at `path` (what `schedsim --rt-app FILE` calls); `-` reads
/// standard input to its end (a generator piped in), named `<stdin>` in messages. Throws
/// `rtapp_error`: unreadable file, syntax error, or a meaning error, each with its location.
inline workload load_rtapp(const std::string& path, const rtapp_options& o = {}) {
  const bool from_stdin = path == "-";
  const std::string name = from_stdin ? std::string("<stdin>") : path;
  std::FILE* f = from_stdin ? stdin : std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw rtapp_error(path, {}, std::string("cannot open: ") + std::strerror(errno));
  std::string text;
  char buf[65536];
  bool too_big = false;
  for (;;) {
    const std::size_t n = std::fread(buf, 1, sizeof buf, f);
    if (n > 0) {
      if (text.size() + n > o.max_file_bytes) {
        text.append(buf, o.max_file_bytes - text.size());  // up to the limit: its line and column
        too_big = true;
        break;
      }
      text.append(buf, n);
    }
    if (n < sizeof buf) break;
  }
  const bool bad = std::ferror(f) != 0;
  const int err = errno;
  if (!from_stdin) std::fclose(f);
  if (bad) throw rtapp_error(name, {}, std::string("cannot read: ") + std::strerror(err));
  if (too_big)
    throw rtapp_error(name, json::position_of(text, text.size()),
                      "file too large: more than " + std::to_string(o.max_file_bytes) + " bytes (the limit is reached here)");
  return parse_rtapp(text, name, o);
}

/// The command line's hook: loads `path` into `out`. Returns 0 on success, 3 (bad input file)
/// with `error` set to `"FILE:LINE:COLUMN: message"` otherwise; never throws for bad input
/// (std::bad_alloc aside, which is also reported as 3).
inline int load_rt_app(const std::string& path, workload& out, std::string& error, const rtapp_options& o = {}) {
  try {
    out = load_rtapp(path, o);
    return 0;
  } catch (const rtapp_error& e) {
    error = e.what();
  } catch (const std::bad_alloc&) {
    error = path + ": out of memory while reading the file";
  }
  return 3;
}

}  // namespace sim
}  // namespace schedcore

#endif
