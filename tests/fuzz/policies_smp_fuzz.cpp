// libFuzzer target: every policy on two CPUs, i.e. two instances of
// `class_stack<member_sched_class, rt_policy, POLICY>` on one clock, with tasks moving between
// them the way schedsim's engine (and a kernel core) moves them:
//   - a wakeup on the other CPU: the old queue's migrate_task_rq, then enqueue(wakeup|migrated)
//     on the new one (unless the old queue still holds the sleeper: delayed(t), eevdf's delayed
//     dequeue, which must be woken where it is);
//   - a queued task pulled by a balancer: dequeue(migrating) on its CPU (then take_resched: the
//     dequeue charged that CPU's running task), enqueue(migrated) and a wakeup check on the other;
//   - a fork whose child starts on the other CPU: setup and task_new on the child's CPU, the
//     parent running elsewhere;
// besides creation, ticks, sleeps, yields, exits, parameter and class changes, class timers,
// reschedules and full drains on either CPU. The two queues' own clocks of virtual time
// (min_vruntime, epochs, array switches, budgets) drift apart, which one queue's round trips
// (policies_fuzz.cpp) never show. Knobs, when fuzzed, are the same on both CPUs; fuzzed RT
// knobs with an odd runtime turn RT_RUNTIME_SHARE on (a 5 ms period, 1-4 ms of runtime), and
// then the two RT classes' runtimes must always sum to twice the knob, none above a period.
// Every other clock origin turns each CPU's fair server on (fair_server_stack, 1-4 ms per 5 ms,
// under 6.12's or 6.19's rules), whose O(1) consistency checks run inside every hook. edf's
// admission control is global: every deadline setup and exit goes through CPU 0's instance (the
// root domain), as in the simulator. Grouped classes:
// each CPU's instance has its own copies of the three groups, and a migrating task joins the
// destination's copy of its group before it is enqueued there (the simulator's bind_group).
//
// After every op, for each CPU: no schedcore check fired; verify() holds; nr_runnable() of the
// stack and of each class equals the model's count of the tasks queued there; curr is runnable
// there; pick_next() returns a task runnable there, or nullptr only when every runnable task
// there is in a class that can throttle. A drain (an op, and at the end of the input) runs and
// blocks every runnable task of each CPU in pick order: each comes out exactly once.
//
// Input: byte 0 the policy (the same order as policies_fuzz.cpp), then the clock origin and the
// knob switch as there, then ops.
#include "policy_uses.hpp"

namespace {

using namespace schedcore;
using fuzz::reader;

template <class Use>
class smp_harness {
 public:
  struct task : rt_entity, Use::entity {
    int sched_class = 1;  // 0 rt, 1 the policy under test
    unsigned id = 0;
  };
  using rt_t = rt_policy<task>;
  using fair_t = typename Use::template policy<task>;
  using stack_t = fair_server_stack<member_sched_class, rt_t, fair_t>;
  static constexpr unsigned nr_cpus = 2;
  static constexpr unsigned nr_tasks = 12;
  static constexpr unsigned npos = ~0u;
  /// edf admits against the root domain's bandwidth: one instance sees every setup and exit.
  static constexpr bool root_admission = std::is_same_v<Use, use_edf>;

  explicit smp_harness(reader& in) : in_(in) {
    now_ = decode_origin(in_);
    // Both CPUs' classes know there are two CPUs (slices and bandwidth caps scale with it),
    // unless the knobs are fuzzed, and then both get the same ones.
    for (stack_t& s : stacks_) set_cpus(s.template get<1>());
    if constexpr (shares_pools<fair_t>::value) stacks_[1].template get<1>().share_pools_with(stacks_[0].template get<1>());
    if (in_.u8() >= 128) {
      fuzz_knobs(stacks_[0].template get<1>(), in_, &stacks_[1].template get<1>());
      if (in_.flip()) {
        fuzz_knobs(stacks_[0].template get<0>(), in_, &stacks_[1].template get<0>());
        // RT_RUNTIME_SHARE when the fuzzed runtime is odd (no byte of its own, so that the
        // corpus decodes as before), with a period of 5 ms and a runtime of 1-4 ms drawn from
        // it, so that the CPUs throttle and borrow within a run (the fuzzed ones are up to 100 s).
        typename rt_t::knobs k = stacks_[0].template get<0>().config();
        if (k.runtime > 0 && (k.runtime & 1) != 0) {
          k.period = msec(5);
          k.runtime = msec(1) + k.runtime % msec(3);
          for (stack_t& st : stacks_) {
            rt_t& rt = st.template get<0>();
            FUZZ_REQUIRE(rt.configure(k) == errc::ok);
            rt_rqs_[&st - stacks_] = &rt;
            rt.set_runtime_share(&smp_harness::borrow_rt_runtime, this);
          }
          shared_rt_runtime_ = 2 * k.runtime;
        }
      }
    }
    // Linux's fair server on every other origin (no byte of its own, so that the corpus decodes
    // as before): 1-4 ms per 5 ms, so that it defers, runs and throttles within a run; the next
    // bit of the mix picks 6.12's or 6.19's rules.
    // Not over a class that throttles itself (edf, rt as the policy under test): the server
    // would find nothing to pick every period until that class's far replenishment, which is
    // legal but turns the drain's timer loop into thousands of 5 ms steps.
    const u64 mix = now_.ns() * 0x9e3779b97f4a7c15ull;
    if (!Use::can_throttle && (mix >> 63) != 0) {
      for (stack_t& st : stacks_)
        FUZZ_REQUIRE(st.configure_fair_server(msec(1) + static_cast<duration_ns>((mix >> 8) % 3000001), msec(5), now_,
                                              ((mix >> 62) & 1u) != 0 ? server_rules::linux_6_19 : server_rules::linux_6_12) ==
                     errc::ok);
    }
    for (unsigned i = 0; i < nr_tasks; ++i) tasks_[i].id = i;
    if (fuzz::tracing())
      std::fprintf(stderr, "policy %s%s on %u CPUs\n", has_place<fair_t, task>::value ? "grouped " : "", fair_t::name, nr_cpus);
  }

  void run() {
    while (!in_.done()) {
      ++fuzz::op_index();
      step();
      for (unsigned c = 0; c < nr_cpus; ++c) check(c);
    }
    drain();
  }

 private:
  enum class st : std::uint8_t { absent, sleeping, runnable };
  struct slot {
    st state = st::absent;
    unsigned cpu = npos;  // the CPU whose queue holds it (runnable), or where it last ran (sleeping)
    unsigned parent = npos;
    sched_params params{};
  };

  template <class P>
  static void set_cpus(P& p) {
    typename P::knobs k = p.config();
    if constexpr (has_cpus_knob<typename P::knobs>::value) {
      k.cpus = static_cast<decltype(k.cpus)>(nr_cpus);
      FUZZ_REQUIRE(p.configure(k) == errc::ok);
    }
  }
  template <class P, class = void>
  struct shares_pools : std::false_type {};
  template <class P>
  struct shares_pools<P, std::void_t<decltype(std::declval<P&>().share_pools_with(std::declval<P&>()))>> : std::true_type {};
  template <class K, class = void>
  struct has_cpus_knob : std::false_type {};
  template <class K>
  struct has_cpus_knob<K, std::void_t<decltype(std::declval<K&>().cpus)>> : std::true_type {};

  // ---- clock, CPUs and scheduling -----------------------------------------------------------
  void advance() {
    const duration_ns d = decode_step(in_);
    now_ += d;
    if (d == 0) return;
    for (unsigned c = 0; c < nr_cpus; ++c)
      if (stacks_[c].timer(now_)) resched_[c] = true;  // class timers are due at least every tick
  }
  void schedule(unsigned c) {
    task* prev = curr_[c] == npos ? nullptr : &tasks_[curr_[c]];
    set_curr(c, stacks_[c].schedule(prev, prev != nullptr, now_));
  }
  /// After a schedule() on CPU c (prev already handled): the task it returned becomes curr.
  void set_curr(unsigned c, task* next) {
    curr_[c] = next == nullptr ? npos : next->id;
    if (next != nullptr) FUZZ_REQUIRE(slots_[curr_[c]].state == st::runnable && slots_[curr_[c]].cpu == c);
    resched_[c] = false;
  }
  unsigned pick_slot(st want) {
    unsigned cand[nr_tasks];
    unsigned n = 0;
    for (unsigned i = 0; i < nr_tasks; ++i)
      if (slots_[i].state == want) cand[n++] = i;
    if (n == 0) return npos;
    return cand[in_.below(n)];
  }
  bool running(unsigned i) const { return slots_[i].cpu != npos && curr_[slots_[i].cpu] == i; }
  /// The instance that admits task t's class parameters on CPU c.
  fair_t& admitting(unsigned c) { return stacks_[root_admission ? 0 : c].template get<1>(); }
  errc setup(task& t, unsigned c, int cls, const sched_params& p) {
    if (cls == 0) return stacks_[c].template get<0>().setup(t, p);
    const errc e = admitting(c).setup(t, p);
    if constexpr (has_place<fair_t, task>::value) {
      if (e == errc::ok) stacks_[c].template get<1>().place(t, now_);  // a grouped class: next group
    }
    return e;
  }
  void task_dead(task& t, unsigned c) {
    if constexpr (root_admission) {
      if (t.sched_class == 1) {
        stacks_[0].template get<1>().task_dead(t, now_);
        return;
      }
    }
    stacks_[c].task_dead(t, now_);
  }
  /// A grouped class: `t`, out of every queue, joins CPU `to`'s copy of its group on `from`.
  void rebind(task& t, unsigned from, unsigned to) {
    if constexpr (has_place<fair_t, task>::value) {
      if (t.sched_class == 1) stacks_[to].template get<1>().adopt(t, stacks_[from].template get<1>(), now_);
    } else {
      (void)t, (void)from, (void)to;
    }
  }
  void wakeup_check(unsigned c, task& t) {
    if (curr_[c] == npos || stacks_[c].wakeup_preempt(t, tasks_[curr_[c]], now_)) resched_[c] = true;
  }

  // ---- ops ----------------------------------------------------------------------------------
  void step() {
    advance();
    const unsigned op = in_.below(18);
    const unsigned c = in_.below(nr_cpus);
    if (fuzz::tracing()) {
      static const char* const names[18] = {"tick", "tick",  "tick",  "create", "fork",   "fork-away",
                                            "sleep", "wake", "wake",  "yield",  "exit",   "pull",
                                            "pull", "timer", "drain?", "resched", "change", "class-change"};
      std::fprintf(stderr, "op %lu: t=%llu cpu %u %s (curr %d %d)\n", fuzz::op_index(),
                   static_cast<unsigned long long>(now_.ns()), c, names[op],
                   curr_[0] == npos ? -1 : static_cast<int>(curr_[0]), curr_[1] == npos ? -1 : static_cast<int>(curr_[1]));
    }
    switch (op) {
      case 0:
      case 1:
      case 2:
        if (curr_[c] != npos && stacks_[c].tick(tasks_[curr_[c]], now_)) resched_[c] = true;
        break;
      case 3: op_create(c, npos); break;
      case 4: op_create(c, c); break;
      case 5: op_create(1 - c, c); break;
      case 6: op_sleep(c); break;
      case 7:
      case 8: op_wake(c); break;
      case 9:
        if (curr_[c] != npos) {
          stacks_[c].yield(tasks_[curr_[c]], now_);
          resched_[c] = true;
        }
        break;
      case 10: op_exit(c); break;
      case 11:
      case 12: op_pull(c); break;
      case 13: op_timer(c); break;
      case 14:
        if (in_.u8() < 24) drain();
        break;
      case 15: resched_[c] = true; break;  // need_resched from elsewhere
      case 16: op_change(c, false); break;
      default: op_change(c, true); break;
    }
    for (unsigned k = 0; k < nr_cpus; ++k)
      if (resched_[k] || curr_[k] == npos) schedule(k);
  }

  /// A task created on CPU c: fresh (`forker` npos) or forked by the task running on CPU
  /// `forker` (which may be the other CPU: the child placed away from its parent).
  void op_create(unsigned c, unsigned forker) {
    const unsigned i = pick_slot(st::absent);
    if (i == npos) return;
    const unsigned parent = forker == npos ? npos : curr_[forker];
    if (forker != npos && parent == npos) return;  // nothing runs there to fork
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
      p = cls == 0 ? rt_params(in_) : Use::params(in_);
    }
    if constexpr (std::is_same_v<Use, use_goodness24>) t.mm_id = in_.below(3);
    if constexpr (std::is_same_v<Use, use_o1>) t.kthread = in_.below(8) == 0;
    t.sched_class = cls;
    const errc e = setup(t, c, cls, p);
    if (fuzz::tracing()) std::fprintf(stderr, "  task %u, class %d, parent %d: %d\n", i, cls, parent == npos ? -1 : static_cast<int>(parent), static_cast<int>(e));
    if (e != errc::ok) return;  // refused (bad params, admission): no task
    slots_[i].params = p;
    slots_[i].parent = parent;
    slots_[i].cpu = c;
    stacks_[c].task_new(t, parent == npos ? nullptr : &tasks_[parent], now_);
    stacks_[c].enqueue(t, now_, enqueue_flags::initial);
    slots_[i].state = st::runnable;
    wakeup_check(c, t);
  }

  void op_sleep(unsigned c) {
    const unsigned i = curr_[c];
    if (i == npos) return;
    stacks_[c].dequeue(tasks_[i], now_, dequeue_flags::sleep);
    slots_[i].state = st::sleeping;
    set_curr(c, stacks_[c].schedule(&tasks_[i], false, now_));
  }

  /// A sleeper woken onto CPU c: migrated if it last ran on the other CPU, unless that queue
  /// still holds it (a delayed sleeper is woken in place).
  void op_wake(unsigned c) {
    const unsigned i = pick_slot(st::sleeping);
    if (i == npos) return;
    task& t = tasks_[i];
    if constexpr (std::is_same_v<Use, use_o1>) t.wake_source = static_cast<o1_wake_source>(in_.below(3));
    const unsigned old = slots_[i].cpu;
    const unsigned to = stacks_[old].delayed(t) ? old : c;
    enqueue_flags f = in_.flip() ? enqueue_flags::wakeup | enqueue_flags::interrupt : enqueue_flags::wakeup;
    if (to != old) {
      stacks_[old].migrate_task_rq(t, now_);  // the old queue's last look
      rebind(t, old, to);
      f = f | enqueue_flags::migrated;
      slots_[i].cpu = to;
    }
    stacks_[to].enqueue(t, now_, f);
    slots_[i].state = st::runnable;
    wakeup_check(to, t);
  }

  void op_exit(unsigned c) {
    const unsigned i = curr_[c];
    if (i == npos) return;
    task& t = tasks_[i];
    stacks_[c].dequeue(t, now_, dequeue_flags::dead);
    task_dead(t, c);
    for (unsigned k = 0; k < nr_tasks; ++k) {
      if (slots_[k].parent != i) continue;
      slots_[k].parent = npos;
      if constexpr (has_orphan<fair_t, task>::value) fair_t::orphan(tasks_[k]);
    }
    slots_[i] = slot{};
    set_curr(c, stacks_[c].schedule(&t, false, now_));
  }

  /// A parameter change (same class) or a class change of the task running on CPU c, or of a
  /// sleeping or queued task wherever it is, as sched_setscheduler does it on the task's CPU:
  /// dequeue(save), setup, enqueue(restore), set_next if it was running, prio_changed. With
  /// edf's global admission a task leaving the deadline class is released by CPU 0's instance,
  /// as the simulator does it; a refused setup changes nothing.
  void op_change(unsigned c, bool switch_class) {
    unsigned i = npos;
    const unsigned which = in_.below(3);
    if (which == 0) i = curr_[c];
    if (i == npos) i = pick_slot(which == 1 ? st::sleeping : st::runnable);
    if (i == npos) return;
    task& t = tasks_[i];
    const unsigned cpu = slots_[i].cpu;
    const int old_cls = t.sched_class;
    const int cls = switch_class ? 1 - old_cls : old_cls;
    const sched_params p = cls == 0 ? rt_params(in_) : Use::params(in_);
    const bool queued = slots_[i].state == st::runnable;
    const bool was_running = running(i);
    if (queued) stacks_[cpu].dequeue(t, now_, dequeue_flags::save);
    if (setup(t, cpu, cls, p) == errc::ok) {
      if (cls != old_cls) {
        if constexpr (root_admission) {
          if (old_cls == 1) {
            stacks_[0].template get<1>().switched_from(t, now_);
          } else {
            stacks_[cpu].switched_from(t, now_);
          }
        } else {
          stacks_[cpu].switched_from(t, now_);
        }
      }
      t.sched_class = cls;
      slots_[i].params = p;
    }
    if (queued) {
      stacks_[cpu].enqueue(t, now_, enqueue_flags::restore);
      if (was_running) stacks_[cpu].set_next(t, now_);
      stacks_[cpu].prio_changed(t, now_);
      resched_[cpu] = true;
    }
  }

  /// CPU c pulls a queued, not running task from the other CPU (a load balancer's move).
  void op_pull(unsigned c) {
    const unsigned from = 1 - c;
    unsigned cand[nr_tasks];
    unsigned n = 0;
    for (unsigned i = 0; i < nr_tasks; ++i)
      if (slots_[i].state == st::runnable && slots_[i].cpu == from && curr_[from] != i) cand[n++] = i;
    if (n == 0) return;
    task& t = tasks_[cand[in_.below(n)]];
    stacks_[from].dequeue(t, now_, dequeue_flags::migrating);
    if (stacks_[from].take_resched()) resched_[from] = true;  // the dequeue charged curr there
    slots_[t.id].cpu = c;
    rebind(t, from, c);
    stacks_[c].enqueue(t, now_, enqueue_flags::migrated);
    wakeup_check(c, t);
  }

  void op_timer(unsigned c) {
    sched_time when{};
    if (!stacks_[c].next_timer(when)) return;
    if (when > now_) {
      if (when - now_ > sec(10)) return;  // keep the clock moving in small steps
      now_ = when;
    }
    for (unsigned k = 0; k < nr_cpus; ++k)
      if (stacks_[k].timer(now_)) resched_[k] = true;
  }

  /// Runs and blocks every runnable task of each CPU in pick order: each comes out exactly once.
  void drain() {
    for (unsigned c = 0; c < nr_cpus; ++c) {
      if (curr_[c] != npos) {
        stacks_[c].dequeue(tasks_[curr_[c]], now_, dequeue_flags::sleep);
        slots_[curr_[c]].state = st::sleeping;
        curr_[c] = npos;
      }
    }
    for (unsigned c = 0; c < nr_cpus; ++c) {
      unsigned guard = 0;
      unsigned waits = 0;
      for (;;) {
        FUZZ_REQUIRE(++guard < 100000);
        usize left = 0;
        for (const slot& s : slots_) left += s.state == st::runnable && s.cpu == c ? 1u : 0u;
        FUZZ_REQUIRE(stacks_[c].nr_runnable() == left);
        FUZZ_REQUIRE(stacks_[c].verify());
        FUZZ_REQUIRE(fuzz::checks().count == 0);
        if (left == 0) break;
        task* p = stacks_[c].pick_next(now_);
        if (p == nullptr) {
          // Only throttled tasks are left: their class timer brings them back, a quota a period.
          // A long run charged at one tick (the ops move the clock in steps of up to 10 s) is a
          // debt the group repays at that rate, as in the kernel: 100 s run under 1 ms per 3 ms
          // takes 100 000 periods. After 1000 periods the pools are lifted ("max"), which brings
          // every throttled queue back at its next timer call.
          if (++waits == 1000) lift_pools();
          sched_time when{};
          FUZZ_REQUIRE(stacks_[c].next_timer(when));
          if (when > now_) now_ = when;
          for (stack_t& s : stacks_) (void)s.timer(now_);
          continue;
        }
        FUZZ_REQUIRE(slots_[p->id].state == st::runnable && slots_[p->id].cpu == c);
        stacks_[c].set_next(*p, now_);
        stacks_[c].dequeue(*p, now_, dequeue_flags::sleep);
        slots_[p->id].state = st::sleeping;
      }
    }
  }

  void lift_pools() {
    if constexpr (shares_pools<fair_t>::value)
      for (cfs_bandwidth& pool : stacks_[0].template get<1>().pools)
        FUZZ_REQUIRE(pool.configure(cfs_bandwidth::unlimited, pool.period(), 0, now_) == errc::ok);
  }

  // ---- invariants ---------------------------------------------------------------------------
  static void borrow_rt_runtime(void* self, rt_t& borrower, sched_time now) noexcept {
    smp_harness& h = *static_cast<smp_harness*>(self);
    (void)balance_rt_runtime(borrower, h.rt_rqs_, nr_cpus, now);
    // The runtime moves between the CPUs; none is made or lost, and none goes past a period.
    FUZZ_REQUIRE(h.rt_rqs_[0]->runtime() + h.rt_rqs_[1]->runtime() == h.shared_rt_runtime_);
    FUZZ_REQUIRE(borrower.runtime() <= borrower.config().period);
  }

  void check(unsigned c) {
    stack_t& s = stacks_[c];
    FUZZ_REQUIRE(fuzz::checks().count == 0);
    FUZZ_REQUIRE(s.verify());
    if constexpr (shares_pools<fair_t>::value) {  // each shared pool counts the queues throttled on it
      for (const cfs_bandwidth& pool : stacks_[0].template get<1>().pools)
        FUZZ_REQUIRE(pool.throttled_queues() == stacks_[0].template get<1>().throttled_on(pool) +
                                                    stacks_[1].template get<1>().throttled_on(pool));
    }
    if (shared_rt_runtime_ > 0) {
      FUZZ_REQUIRE(rt_rqs_[0]->runtime() + rt_rqs_[1]->runtime() == shared_rt_runtime_);
      FUZZ_REQUIRE(rt_rqs_[0]->runtime() >= 0 && rt_rqs_[1]->runtime() >= 0);
    }
    usize n[2] = {0, 0};
    for (unsigned i = 0; i < nr_tasks; ++i)
      if (slots_[i].state == st::runnable && slots_[i].cpu == c) ++n[tasks_[i].sched_class];
    FUZZ_REQUIRE(s.template get<0>().nr_runnable() == n[0]);
    FUZZ_REQUIRE(s.template get<1>().nr_runnable() == n[1]);
    FUZZ_REQUIRE(s.nr_runnable() == n[0] + n[1]);
    if (curr_[c] != npos) FUZZ_REQUIRE(slots_[curr_[c]].state == st::runnable && slots_[curr_[c]].cpu == c);
    task* p = s.pick_next(now_);
    if (p != nullptr) {
      FUZZ_REQUIRE(p->id < nr_tasks && &tasks_[p->id] == p && slots_[p->id].state == st::runnable &&
                   slots_[p->id].cpu == c);
    } else {
      FUZZ_REQUIRE(n[0] == 0 || s.template get<0>().throttled());
      FUZZ_REQUIRE(n[1] == 0 || Use::can_throttle);
    }
    FUZZ_REQUIRE(fuzz::checks().count == 0);
  }

  reader& in_;
  stack_t stacks_[nr_cpus]{};
  rt_t* rt_rqs_[nr_cpus] = {};          // the RT classes, when they share runtime
  duration_ns shared_rt_runtime_ = 0;   // their summed runtime then (2 x the knob), else 0
  task tasks_[nr_tasks]{};
  slot slots_[nr_tasks]{};
  unsigned curr_[nr_cpus] = {npos, npos};
  bool resched_[nr_cpus] = {false, false};
  sched_time now_{};
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  reader in(data, size);
  fuzz::op_index() = 0;
  fuzz::checks() = fuzz::check_log{};
  run_policy<smp_harness>(in);
  return 0;
}
