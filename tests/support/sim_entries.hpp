// The class stacks the simulator's GoogleTest suites run, each instantiated once for the whole
// suite (tests/support/sim_entries_*.cpp, a static library) instead of once per test file: an
// engine instantiation is most of a test file's compile time, and the CI builds the suite twice
// (g++ release; clang++ with ASan and UBSan; the 32-bit phase leaves the simulator out).
//
// Stacks without a deadline class (make_entry<Task, Rt, Fair>) are the engine's minimal ones:
// SCHED_DEADLINE tasks run as SCHED_FIFO 99 there. The `dl_` ones put edf on top, as schedsim's
// registry does.
#ifndef SCHEDCORE_TESTS_SIM_ENTRIES_HPP
#define SCHEDCORE_TESTS_SIM_ENTRIES_HPP

#include <string>

#include "schedcore/sim/registry.hpp"

namespace schedcore_test {

using schedcore::sim::policy_entry;

/// reference_rr in both slots: a hand-computable schedule (sim/reference_rr.hpp).
policy_entry ref_entry(const std::string& name = "ref-rr", const std::string& desc = "reference");
/// rt over reference_rr.
policy_entry ref_rt_entry(const std::string& name = "ref-rr-rt", const std::string& desc = "reference + rt");
/// edf over rt over reference_rr.
policy_entry ref_dl_entry(const std::string& name = "ref-rr", const std::string& desc = "ref + edf");
/// rt over eevdf / cfs / o1 / sd.
policy_entry eevdf_entry(const std::string& name = "eevdf", const std::string& desc = "rt + eevdf");
policy_entry cfs_entry(const std::string& name = "cfs", const std::string& desc = "rt + cfs");
policy_entry o1_entry(const std::string& name = "o1", const std::string& desc = "rt + o1");
policy_entry sd_entry(const std::string& name = "sd", const std::string& desc = "rt + sd");
/// edf over rt over cfs.
policy_entry cfs_dl_entry(const std::string& name = "cfs", const std::string& desc = "edf + rt + cfs");
/// rt over group_policy<eevdf / cfs>: one task group per cgroup on each CPU.
policy_entry grouped_eevdf_entry(const std::string& name = "eevdf", const std::string& desc = "rt + grouped eevdf");
policy_entry grouped_cfs_entry(const std::string& name = "cfs", const std::string& desc = "rt + grouped cfs");

/// What flag_spy_entry's fair class saw since the last reset (counts of enqueues).
struct enqueue_flag_record {
  long enqueues = 0;             ///< every enqueue into the fair class
  long moves = 0;                ///< enqueues on another CPU's instance than the task's last
  long moved_wakeups = 0;        ///< of those, wakeups
  long flag_mismatches = 0;      ///< `migrated` on a stay, or missing on a move
  long wakeups_without_look = 0; ///< moved wakeups the old instance's migrate_task_rq did not see
  long looks_elsewhere = 0;      ///< migrate_task_rq called on an instance the task is not on
  long wakeups = 0;              ///< enqueues with `wakeup`
  long interrupt_wakeups = 0;    ///< of those, with `interrupt` (a timer, a device, an interrupt-context task)
  long uninterruptible_wakeups = 0;  ///< of those, with `uninterruptible` (an I/O sleep ended)
  long save_dequeues = 0;        ///< dequeues with `save` (around a change of the task's parameters)
  long save_move_dequeues = 0;   ///< of those, with `move` (DEQUEUE_MOVE: a policy, priority or group change)
};
/// reference_rr in both slots; its fair class records each enqueue's flags against the CPU the
/// task was last enqueued on (flag_spy_record(), reset it before a run).
policy_entry flag_spy_entry(const std::string& name = "flag-spy", const std::string& desc = "reference, recording");
enqueue_flag_record& flag_spy_record();

}  // namespace schedcore_test

#endif
