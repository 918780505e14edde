/// @file
/// @brief HOSTED. ftrace text output (the `nop` tracer's format) that Perfetto UI opens with
/// native per-CPU scheduling tracks (as does catapult's systrace viewer). trace-cmd and
/// KernelShark read only their binary trace.dat, not this text.
///
/// Lines follow the kernel's `TP_printk` formats of `sched_switch`, `sched_waking`,
/// `sched_wakeup`, `sched_wakeup_new`, `sched_migrate_task`, `sched_pi_setprio`,
/// `cpu_frequency` and `signal_generate` exactly, plus user-space markers as a task writing
/// to trace_marker produces them (`tracing_mark_write: C|pid|name|value`, atrace's counter
/// form, which Perfetto turns into a counter track per task); the line prefix is
/// `%16s-%-5d [%03d] d..2 %5u.%06u: ` (comm-pid of the task current on that CPU, CPU, flags,
/// seconds with microseconds), which Perfetto's systrace tokenizer matches. Priorities are the
/// kernel's internal ones: for normal tasks the policy's dynamic `p->prio` where it has one
/// (`trace_prio`: o1, sd, nicksched; 98 under schedsim's fifo and rr policies), else 120 + nice;
/// 99 - rt_priority for real time, -1 for deadline. comm strings never contain a space, '=', a control character or Unicode white
/// space (the engine replaces them with '_'). A CPU with no event has no line, and so no
/// track.
///
/// The text is kept in memory and written in one go by `write_file` (sim/output_file.hpp: a
/// temporary file then renamed), so an error never leaves a half-written trace.
#ifndef SCHEDCORE_SIM_TRACE_HPP
#define SCHEDCORE_SIM_TRACE_HPP

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

#include "schedcore/sim/output_file.hpp"

namespace schedcore {
namespace sim {

/// SIGXCPU's number on x86, Arm and RISC-V Linux (asm-generic/signal.h): SCHED_FLAG_DL_OVERRUN's signal.
inline constexpr int sigxcpu_signo = 24;

/// Accumulates ftrace text lines.
class trace_writer {
 public:
  trace_writer() { text_ = "# tracer: nop\n#\n#           TASK-PID     CPU#  ||||   TIMESTAMP  FUNCTION\n#              | |         |   ||||      |         |\n"; }

  /// Bytes of trace text so far (the simulator bounds it: run_config::max_trace_bytes).
  std::size_t size() const noexcept { return text_.size(); }

  /// A `sched_switch` on `cpu` at `ns`.
  void sched_switch(std::int64_t ns, int cpu, const std::string& prev_comm, int prev_pid, int prev_prio,
                    const std::string& prev_state, const std::string& next_comm, int next_pid, int next_prio) {
    prefix(ns, cpu, prev_pid == 0 ? std::string("<idle>") : prev_comm, prev_pid);
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d "
                  "next_prio=%d\n",
                  prev_comm.c_str(), prev_pid, prev_prio, prev_state.c_str(), next_comm.c_str(), next_pid, next_prio);
    text_ += buf;
  }
  /// A `sched_waking` emitted on `cpu` (by `waker` = {comm, pid}) for the task `comm`/`pid`.
  void waking(std::int64_t ns, int cpu, const std::pair<std::string, int>& waker, const std::string& comm, int pid,
              int prio, int target_cpu) {
    prefix(ns, cpu, waker.first, waker.second);
    wake_body("sched_waking", comm, pid, prio, target_cpu);
  }
  /// A `sched_wakeup` (or `sched_wakeup_new` when `is_new`).
  void wakeup(std::int64_t ns, int cpu, const std::pair<std::string, int>& waker, const std::string& comm, int pid,
              int prio, int target_cpu, bool is_new) {
    prefix(ns, cpu, waker.first, waker.second);
    wake_body(is_new ? "sched_wakeup_new" : "sched_wakeup", comm, pid, prio, target_cpu);
  }

  /// set_task_cpu's `sched_migrate_task` for task `comm`/`pid` moving from `orig_cpu` to
  /// `dest_cpu`, emitted on `cpu` by `by` = {comm, pid}, the task running where the move is made
  /// (the waker's CPU for a wakeup, the pulling CPU for a balance or pull, the source for a push
  /// or the migration stopper).
  void migrate_task(std::int64_t ns, int cpu, const std::pair<std::string, int>& by, const std::string& comm, int pid,
                    int prio, int orig_cpu, int dest_cpu) {
    prefix(ns, cpu, by.first, by.second);
    char buf[192];
    std::snprintf(buf, sizeof buf, "sched_migrate_task: comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\n", comm.c_str(), pid,
                  prio, orig_cpu, dest_cpu);
    text_ += buf;
  }

  /// rt_mutex_setprio's `sched_pi_setprio` for task `comm`/`pid`, emitted on `cpu` by the task
  /// `by` = {comm, pid} that took, released or waited for the mutex: the priority the task ran at
  /// (`oldprio`) and the one it runs at from now (`newprio`), on ftrace's scale (99 -
  /// rt_priority for real-time, -1 for deadline, otherwise as `sched_switch`'s prio).
  void pi_setprio(std::int64_t ns, int cpu, const std::pair<std::string, int>& by, const std::string& comm, int pid,
                  int oldprio, int newprio) {
    prefix(ns, cpu, by.first, by.second);
    char buf[160];
    std::snprintf(buf, sizeof buf, "sched_pi_setprio: comm=%s pid=%d oldprio=%d newprio=%d\n", comm.c_str(), pid, oldprio,
                  newprio);
    text_ += buf;
  }

  /// A counter sample written to trace_marker by task `comm`/`pid` running on `cpu`:
  /// `tracing_mark_write: C|pid|name|value` (atrace's counter; `value` an integer, `name`
  /// without '|' or spaces).
  void counter(std::int64_t ns, int cpu, const std::string& comm, int pid, const char* name, long long value) {
    prefix(ns, cpu, comm, pid);
    char buf[128];
    std::snprintf(buf, sizeof buf, "tracing_mark_write: C|%d|%s|%lld\n", pid, name, value);
    text_ += buf;
  }

  /// A frequency change of `cpu` to `khz` (cpufreq's `cpu_frequency: state=<kHz> cpu_id=<cpu>`,
  /// which Perfetto draws as a per-CPU frequency counter track), on the line of `by` =
  /// {comm, pid}, the task running on `cpu` (`<idle>`, 0 when none).
  void cpu_frequency(std::int64_t ns, int cpu, const std::pair<std::string, int>& by, unsigned khz) {
    prefix(ns, cpu, by.first, by.second);
    char buf[64];
    std::snprintf(buf, sizeof buf, "cpu_frequency: state=%u cpu_id=%d\n", khz, cpu);
    text_ += buf;
  }

  /// A signal the kernel sends task `comm`/`pid` (running on `cpu`) on its own behalf: the
  /// `signal_generate` event with SEND_SIG_PRIV's code SI_KERNEL (0x80), to the thread group,
  /// delivered (res=0), e.g. SCHED_FLAG_DL_OVERRUN's SIGXCPU.
  void signal_generate(std::int64_t ns, int cpu, const std::string& comm, int pid, int sig) {
    prefix(ns, cpu, comm, pid);
    char buf[128];
    std::snprintf(buf, sizeof buf, "signal_generate: sig=%d errno=0 code=128 comm=%s pid=%d grp=1 res=0\n", sig, comm.c_str(), pid);
    text_ += buf;
  }

  /// The text so far.
  const std::string& text() const { return text_; }

  /// Writes the text to `path` with `write_output_file` (a regular file atomically, through a
  /// unique temporary file; a device or FIFO in place; a link's target). False on failure,
  /// with the reason in `why` when given.
  bool write_file(const std::string& path, std::string* why = nullptr) const { return write_output_file(path, text_, why); }

 private:
  /// The line's head, as ftrace prints it: the time in seconds with six decimals, rounded to the
  /// nearest µs as ftrace's ns2usecs does (nsec + 500, then / 1000), so that an event at
  /// 1.0000006 s reads 1.000001 (rounding keeps the lines in time order).
  void prefix(std::int64_t ns, int cpu, const std::string& comm, int pid) {
    char buf[96];
    const auto total_us = (static_cast<unsigned long long>(ns) + 500) / 1000;
    const auto s = total_us / 1000000;
    const auto us = total_us % 1000000;
    std::snprintf(buf, sizeof buf, "%16s-%-5d [%03d] d..2 %5llu.%06llu: ", comm.c_str(), pid, cpu, s, us);
    text_ += buf;
  }
  void wake_body(const char* what, const std::string& comm, int pid, int prio, int target_cpu) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s: comm=%s pid=%d prio=%d target_cpu=%03d\n", what, comm.c_str(), pid, prio,
                  target_cpu);
    text_ += buf;
  }

  std::string text_;
};

}  // namespace sim
}  // namespace schedcore

#endif
