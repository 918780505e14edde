// The flag-recording stack of sim_entries.hpp: reference_rr whose fair class checks, at every
// enqueue, what the engine tells it about where the task comes from and what woke it, and
// counts the dequeues around parameter changes.
#include "sim_entries.hpp"

#include "schedcore/sim/reference_rr.hpp"

namespace schedcore_test {

using namespace schedcore;
using namespace schedcore::sim;

namespace {

/// reference_rr's entity plus what the spy remembers of the task.
struct flag_spy_entity : reference_rr_entity {
  const void* queued_on = nullptr;    ///< the class instance (one per CPU) of its last enqueue
  const void* last_look_by = nullptr; ///< the instance whose migrate_task_rq saw it last since then
};

enqueue_flag_record spy_record;

/// reference_rr in the fair slot, recording each enqueue against the instance the task was
/// last enqueued on: an enqueue elsewhere must carry `migrated` (cfs2007's migrated-sleeper
/// credit and goodness24's per-instance task list depend on it), one on the same instance
/// must not, and a wakeup elsewhere must follow the old instance's migrate_task_rq (cfs,
/// eevdf and cfs2007 read their old queue's clock there).
template <class Task>
class flag_spy_policy : public reference_rr_policy<Task, base_entity<flag_spy_entity>> {
  using base = reference_rr_policy<Task, base_entity<flag_spy_entity>>;

 public:
  void enqueue(Task& t, sched_time now, enqueue_flags f) noexcept {
    flag_spy_entity& e = t;
    ++spy_record.enqueues;
    if (has(f, enqueue_flags::wakeup)) {
      ++spy_record.wakeups;
      if (has(f, enqueue_flags::interrupt)) ++spy_record.interrupt_wakeups;
      if (has(f, enqueue_flags::uninterruptible)) ++spy_record.uninterruptible_wakeups;
    }
    if (e.queued_on != nullptr) {
      const bool moved = e.queued_on != this;
      if (moved) ++spy_record.moves;
      if (moved && has(f, enqueue_flags::wakeup)) ++spy_record.moved_wakeups;
      if (moved != has(f, enqueue_flags::migrated)) ++spy_record.flag_mismatches;
      if (moved && has(f, enqueue_flags::wakeup) && e.last_look_by != e.queued_on) ++spy_record.wakeups_without_look;
    }
    e.queued_on = this;
    e.last_look_by = nullptr;
    base::enqueue(t, now, f);
  }
  void dequeue(Task& t, sched_time now, dequeue_flags f) noexcept {
    if (has(f, dequeue_flags::save)) ++spy_record.save_dequeues;
    if (has(f, dequeue_flags::save | dequeue_flags::move)) ++spy_record.save_move_dequeues;
    base::dequeue(t, now, f);
  }
  /// Optional hook: the old instance's last look at a sleeper woken elsewhere.
  void migrate_task_rq(Task& t, sched_time) noexcept {
    flag_spy_entity& e = t;
    if (e.queued_on != this) ++spy_record.looks_elsewhere;
    e.last_look_by = this;
  }
};

}  // namespace

enqueue_flag_record& flag_spy_record() { return spy_record; }

policy_entry flag_spy_entry(const std::string& name, const std::string& desc) {
  using task_t = sim_task<flag_spy_entity>;
  return make_entry<task_t, reference_rr_policy<task_t, base_entity<flag_spy_entity>>, flag_spy_policy<task_t>>(name,
                                                                                                              desc);
}

}  // namespace schedcore_test
