// libFuzzer target: every policy inside `class_stack<member_sched_class, rt_policy, POLICY>` on
// an operation stream decoded from the input, driven as a uniprocessor kernel core would
// (policy.hpp's contract): fork/create (task_new + enqueue(initial)), tick, wakeup (+ wakeup
// preemption; a migrated wakeup with or without the migrate_task_rq hook first), sleep of
// the running task, yield, parameter changes (dequeue(save), setup,
// enqueue(restore), set_next if running, prio_changed; for eevdf also explicit weights through
// set_weight, valid or not), class changes rt <-> policy,
// migration round trips (dequeue(migrating)/enqueue(migrated)), exit (dequeue(dead) +
// task_dead), class timers, clock jumps, and full drains. Byte 0 picks the policy, byte 1 the
// clock origin (0, just below 2^64, or anywhere), byte 2 whether knobs are fuzzed too. eevdf
// and cfs also run inside task groups (policy/group.hpp; fuzz_grouped below), where every
// successful setup moves the task to another group.
//
// The harness keeps its own model (absent / sleeping / runnable per task, its class, the
// running task) and after every op requires:
//   - no schedcore check fired (any assertion, misuse or warning is a failure);
//   - verify() of the stack (every class) holds;
//   - nr_runnable() of the stack and of each class equals the model's counts;
//   - pick_next() (side-effect free) returns a runnable task, or nullptr only when every
//     runnable task is in a class that can throttle (rt bandwidth, edf CBS);
//   - every task schedule() returns is runnable in the model;
//   - a refused setup() or set_weight() changed nothing in the entity (byte comparison);
// and on every drain (an op, and at the end of the input) that repeatedly picking, running and
// blocking the picked task yields each runnable task exactly once (no task lost or duplicated),
// advancing the clock to class timers when only throttled tasks are left.
#include "policy_uses.hpp"

namespace {

using namespace schedcore;
using fuzz::reader;

template <class Use>
class harness {
 public:
  struct task : rt_entity, Use::entity {
    int sched_class = 1;  // 0 rt, 1 the policy under test
    unsigned id = 0;
  };
  using rt_t = rt_policy<task>;
  using fair_t = typename Use::template policy<task>;
  using stack_t = class_stack<member_sched_class, rt_t, fair_t>;
  using fair_entity = typename Use::entity;
  static constexpr unsigned nr_tasks = 10;
  static constexpr unsigned npos = ~0u;

  explicit harness(reader& in) : in_(in) {
    now_ = decode_origin(in_);
    if (in_.u8() >= 128) {
      fuzz_knobs(stack_.template get<1>(), in_);
      if (in_.flip()) fuzz_knobs(stack_.template get<0>(), in_);
    }
    for (unsigned i = 0; i < nr_tasks; ++i) tasks_[i].id = i;
  }

  /// Runs ops until the input ends (or `max_ops` ops), then drains. verify() runs after every
  /// op whose index has no bit of `verify_mask` set (0: every op; the soak uses 63).
  void run(unsigned long max_ops = ~0ul, unsigned long verify_mask = 0) {
    verify_mask_ = verify_mask;
    while (!in_.done() && fuzz::op_index() < max_ops) {
      ++fuzz::op_index();
      step();
      check();
    }
    drain();
  }

 private:
  enum class st : std::uint8_t { absent, sleeping, runnable };
  struct slot {
    st state = st::absent;
    unsigned parent = npos;
    sched_params params{};
  };

  // ---- clock and scheduling -----------------------------------------------------------------
  void advance() {
    const duration_ns d = decode_step(in_);
    now_ += d;
    if (d != 0 && stack_.timer(now_)) resched_ = true;  // class timers are due at least every tick
  }
  void schedule() {
    task* prev = curr_ == npos ? nullptr : &tasks_[curr_];
    task* next = stack_.schedule(prev, prev != nullptr, now_);
    curr_ = next == nullptr ? npos : next->id;
    if (next != nullptr) FUZZ_REQUIRE(slots_[curr_].state == st::runnable);
    resched_ = false;
  }
  unsigned pick_slot(st want) {
    unsigned cand[nr_tasks];
    unsigned n = 0;
    for (unsigned i = 0; i < nr_tasks; ++i)
      if (slots_[i].state == want) cand[n++] = i;
    if (n == 0) return npos;
    return cand[in_.below(n)];
  }
  errc setup(task& t, int cls, const sched_params& p) {
    if (cls == 0) return stack_.template get<0>().setup(t, p);
    const errc e = stack_.template get<1>().setup(t, p);
    if constexpr (has_place<fair_t, task>::value) {
      if (e == errc::ok) stack_.template get<1>().place(t, now_);  // a grouped class: next group
    }
    return e;
  }
  /// setup() with the refusal property: a refused setup leaves both entities byte-identical.
  errc checked_setup(task& t, int cls, const sched_params& p) {
    rt_entity rt_before;
    std::memcpy(static_cast<void*>(&rt_before), static_cast<const void*>(static_cast<rt_entity*>(&t)), sizeof(rt_entity));
    alignas(fair_entity) unsigned char fair_before[sizeof(fair_entity)];
    std::memcpy(fair_before, static_cast<const void*>(static_cast<fair_entity*>(&t)), sizeof(fair_entity));
    const errc e = setup(t, cls, p);
    if (e != errc::ok) {
      FUZZ_REQUIRE(std::memcmp(&rt_before, static_cast<const void*>(static_cast<rt_entity*>(&t)), sizeof(rt_entity)) == 0);
      FUZZ_REQUIRE(std::memcmp(fair_before, static_cast<const void*>(static_cast<fair_entity*>(&t)), sizeof(fair_entity)) == 0);
    }
    return e;
  }
  sched_params params_for(int cls) { return cls == 0 ? rt_params(in_) : Use::params(in_); }
  /// set_weight() with the refusal property of checked_setup(), for a weight decoded from the
  /// input: in range, at a bound, or outside it (0, 1, 2^18 + 1, any u32).
  errc checked_set_weight(task& t) {
    static constexpr u32 picks[] = {0u, 1u, 2u, 3u, 1024u, 1u << 18, (1u << 18) + 1u};
    const unsigned k = in_.below(9);
    const u32 w = k < 7 ? picks[k] : k == 7 ? 2u + in_.u16() : in_.u32();
    alignas(fair_entity) unsigned char before[sizeof(fair_entity)];
    std::memcpy(before, static_cast<const void*>(static_cast<fair_entity*>(&t)), sizeof(fair_entity));
    const errc e = stack_.template get<1>().set_weight(t, w);
    if (fuzz::tracing()) std::fprintf(stderr, "set_weight %u: %d\n", w, static_cast<int>(e));
    if (e != errc::ok)
      FUZZ_REQUIRE(std::memcmp(before, static_cast<const void*>(static_cast<fair_entity*>(&t)), sizeof(fair_entity)) == 0);
    return e;
  }

  // ---- ops ----------------------------------------------------------------------------------
  void step() {
    advance();
    const unsigned op = in_.below(16);
    if (fuzz::tracing()) {
      static const char* const names[16] = {"tick", "tick", "tick", "create", "fork", "sleep", "wake", "wake",
                                            "yield", "change", "class-change", "exit", "migrate", "timer",
                                            "drain?", "resched"};
      std::fprintf(stderr, "op %lu: t=%llu %s (curr %d)\n", fuzz::op_index(),
                   static_cast<unsigned long long>(now_.ns()), names[op], curr_ == npos ? -1 : static_cast<int>(curr_));
    }
    switch (op) {
      case 0:
      case 1:
      case 2: op_tick(); break;
      case 3: op_create(false); break;
      case 4: op_create(true); break;
      case 5: op_sleep(); break;
      case 6:
      case 7: op_wake(); break;
      case 8: op_yield(); break;
      case 9: op_change(false); break;
      case 10: op_change(true); break;
      case 11: op_exit(); break;
      case 12: op_migrate(); break;
      case 13: op_timer(); break;
      case 14:
        if (in_.u8() < 24) drain();
        break;
      default:
        resched_ = true;  // a spurious reschedule (need_resched from elsewhere)
        break;
    }
    if (resched_ || curr_ == npos) schedule();
  }

  void op_tick() {
    if (curr_ == npos) return;
    if (stack_.tick(tasks_[curr_], now_)) resched_ = true;
  }

  void op_create(bool fork) {
    const unsigned i = pick_slot(st::absent);
    if (i == npos) return;
    const unsigned parent = fork ? curr_ : npos;
    task& t = tasks_[i];
    t.~task();
    new (&t) task();
    t.id = i;
    int cls = 1;
    sched_params p;
    if (parent != npos) {  // a fork copies the parent's class and parameters
      cls = tasks_[parent].sched_class;
      p = slots_[parent].params;
    } else {
      cls = in_.below(4) == 0 ? 0 : 1;
      p = params_for(cls);
    }
    if constexpr (std::is_same_v<Use, use_goodness24>) t.mm_id = in_.below(3);
    if constexpr (std::is_same_v<Use, use_o1>) t.kthread = in_.below(8) == 0;
    t.sched_class = cls;
    if (checked_setup(t, cls, p) != errc::ok) return;  // refused (bad params, edf admission): no task
    slots_[i].params = p;
    slots_[i].parent = parent;
    stack_.task_new(t, parent == npos ? nullptr : &tasks_[parent], now_);
    stack_.enqueue(t, now_, enqueue_flags::initial);
    slots_[i].state = st::runnable;
    if (curr_ == npos || stack_.wakeup_preempt(t, tasks_[curr_], now_)) resched_ = true;
  }

  void op_sleep() {
    if (curr_ == npos) return;
    const unsigned i = curr_;
    stack_.dequeue(tasks_[i], now_, dequeue_flags::sleep);
    slots_[i].state = st::sleeping;
    task* next = stack_.schedule(&tasks_[i], false, now_);
    curr_ = next == nullptr ? npos : next->id;
    if (next != nullptr) FUZZ_REQUIRE(slots_[curr_].state == st::runnable);
    resched_ = false;
  }

  void op_wake() {
    const unsigned i = pick_slot(st::sleeping);
    if (i == npos) return;
    task& t = tasks_[i];
    if constexpr (std::is_same_v<Use, use_o1>) t.wake_source = static_cast<o1_wake_source>(in_.below(3));
    const bool migrated = in_.below(6) == 0;
    // A migrated wakeup, shown to its old queue first (migrate_task_rq) or not: a driver may
    // leave the optional hook out, and the policy must cope either way.
    if (migrated && in_.flip()) stack_.migrate_task_rq(t, now_);
    const enqueue_flags f = migrated ? (enqueue_flags::wakeup | enqueue_flags::migrated) : enqueue_flags::wakeup;
    stack_.enqueue(t, now_, f);
    slots_[i].state = st::runnable;
    if (curr_ == npos || stack_.wakeup_preempt(t, tasks_[curr_], now_)) resched_ = true;
  }

  void op_yield() {
    if (curr_ == npos) return;
    stack_.yield(tasks_[curr_], now_);
    resched_ = true;
  }

  /// A parameter change (same class) or a class change, as the kernel's sched_setscheduler:
  /// dequeue(save), setup, enqueue(restore), set_next if it was running, prio_changed.
  void op_change(bool switch_class) {
    unsigned i = npos;
    const unsigned which = in_.below(3);
    if (which == 0) i = curr_;
    if (i == npos) i = pick_slot(which == 1 ? st::sleeping : st::runnable);
    if (i == npos) return;
    task& t = tasks_[i];
    const int old_cls = t.sched_class;
    const int cls = switch_class ? 1 - old_cls : old_cls;
    const sched_params p = params_for(cls);
    const bool queued = slots_[i].state == st::runnable;
    const bool running = curr_ == i;
    if (queued) stack_.dequeue(t, now_, dequeue_flags::save);
    // The new class validates first (setup touches only its own entity); only when it accepts
    // does the old class see switched_from (releasing goodness24's all-tasks link or edf's
    // bandwidth) and the task change class. A refusal leaves everything as it was.
    // Within the policy's class, one change in four (where the policy has one) is an explicit
    // weight instead of new parameters.
    bool by_weight = false;
    if constexpr (has_set_weight<fair_t, task>::value) {
      by_weight = cls == 1 && old_cls == 1 && in_.below(4) == 0;
      if (by_weight) (void)checked_set_weight(t);
    }
    if (!by_weight && checked_setup(t, cls, p) == errc::ok) {
      if (cls != old_cls) stack_.switched_from(t, now_);
      t.sched_class = cls;
      slots_[i].params = p;
    }
    if (queued) {
      stack_.enqueue(t, now_, enqueue_flags::restore);
      if (running) stack_.set_next(t, now_);  // a throttled edf curr is accepted (edf.hpp)
      stack_.prio_changed(t, now_);
      resched_ = true;
    }
  }

  void op_exit() {
    if (curr_ == npos) return;
    const unsigned i = curr_;
    task& t = tasks_[i];
    stack_.dequeue(t, now_, dequeue_flags::dead);
    stack_.task_dead(t, now_);
    for (unsigned c = 0; c < nr_tasks; ++c) {
      if (slots_[c].parent != i) continue;
      slots_[c].parent = npos;
      if constexpr (has_orphan<fair_t, task>::value) fair_t::orphan(tasks_[c]);
    }
    slots_[i] = slot{};
    task* next = stack_.schedule(&t, false, now_);
    curr_ = next == nullptr ? npos : next->id;
    if (next != nullptr) FUZZ_REQUIRE(slots_[curr_].state == st::runnable);
    resched_ = false;
  }

  void op_migrate() {
    const unsigned i = pick_slot(st::runnable);
    if (i == npos || i == curr_) return;
    stack_.dequeue(tasks_[i], now_, dequeue_flags::migrating);
    stack_.enqueue(tasks_[i], now_, enqueue_flags::migrated);
    if (curr_ == npos || stack_.wakeup_preempt(tasks_[i], tasks_[curr_], now_)) resched_ = true;
  }

  void op_timer() {
    sched_time when{};
    if (!stack_.next_timer(when)) return;
    if (when > now_) {
      if (when - now_ > sec(10)) return;  // keep the clock moving in small steps
      now_ = when;
    }
    if (stack_.timer(now_)) resched_ = true;
  }

  void lift_rt_limit() {
    rt_t& rt = stack_.template get<0>();
    typename rt_t::knobs k = rt.config();
    k.runtime = -1;
    FUZZ_REQUIRE(rt.configure(k) == errc::ok);
  }

  /// Runs and blocks every runnable task in pick order: each must come out exactly once.
  void drain() {
    if (curr_ != npos) {
      stack_.dequeue(tasks_[curr_], now_, dequeue_flags::sleep);
      slots_[curr_].state = st::sleeping;
      curr_ = npos;
    }
    unsigned guard = 0;
    unsigned waits = 0;
    for (;;) {
      FUZZ_REQUIRE(++guard < 100000);
      usize left = 0;
      for (const slot& s : slots_) left += s.state == st::runnable ? 1u : 0u;
      FUZZ_REQUIRE(stack_.nr_runnable() == left);
      FUZZ_REQUIRE(stack_.verify());
      FUZZ_REQUIRE(fuzz::checks().count == 0);
      if (left == 0) break;
      task* p = stack_.pick_next(now_);
      if (p == nullptr) {
        // Only throttled tasks are left: their class timer brings them back. The RT class repays
        // what it ran past its budget at its runtime per period, carrying up to a tick of it
        // (rt.hpp), as the kernel does: a 2 ns budget under a 0.3 ms tick takes 150 000 periods.
        // After 1000 periods RT throttling is turned off (runtime -1), which lets the class run
        // at its next period end.
        if (++waits == 1000) lift_rt_limit();
        sched_time when{};
        FUZZ_REQUIRE(stack_.next_timer(when));
        if (when > now_) now_ = when;
        (void)stack_.timer(now_);
        continue;
      }
      FUZZ_REQUIRE(slots_[p->id].state == st::runnable);
      stack_.set_next(*p, now_);
      stack_.dequeue(*p, now_, dequeue_flags::sleep);
      slots_[p->id].state = st::sleeping;
    }
  }

  // ---- invariants ---------------------------------------------------------------------------
  void check() {
    FUZZ_REQUIRE(fuzz::checks().count == 0);
    if ((fuzz::op_index() & verify_mask_) == 0) FUZZ_REQUIRE(stack_.verify());
    usize n[2] = {0, 0};
    for (unsigned i = 0; i < nr_tasks; ++i)
      if (slots_[i].state == st::runnable) ++n[tasks_[i].sched_class];
    FUZZ_REQUIRE(stack_.template get<0>().nr_runnable() == n[0]);
    FUZZ_REQUIRE(stack_.template get<1>().nr_runnable() == n[1]);
    FUZZ_REQUIRE(stack_.nr_runnable() == n[0] + n[1]);
    if (curr_ != npos) FUZZ_REQUIRE(slots_[curr_].state == st::runnable);
    task* p = stack_.pick_next(now_);
    if (p != nullptr) {
      FUZZ_REQUIRE(p->id < nr_tasks && &tasks_[p->id] == p && slots_[p->id].state == st::runnable);
    } else {
      FUZZ_REQUIRE(n[0] == 0 || stack_.template get<0>().throttled());
      FUZZ_REQUIRE(n[1] == 0 || Use::can_throttle);
    }
    FUZZ_REQUIRE(fuzz::checks().count == 0);
  }

  reader& in_;
  stack_t stack_{};
  task tasks_[nr_tasks]{};
  slot slots_[nr_tasks]{};
  unsigned curr_ = npos;
  sched_time now_{};
  bool resched_ = false;
  unsigned long verify_mask_ = 0;
};

}  // namespace

#ifndef SCHEDCORE_FUZZ_NO_ENTRY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  reader in(data, size);
  fuzz::op_index() = 0;
  fuzz::checks() = fuzz::check_log{};
  run_policy<harness>(in);
  return 0;
}
#endif
