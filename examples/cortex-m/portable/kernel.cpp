// The portable kernel logic (see kernel.hpp) and the demo workload it runs.
#include "kernel.hpp"

#include "schedcore/smp/pelt.hpp"
#include "selftest.hpp"

namespace port {

namespace {

/// One tick is 1 ms of scheduler time: `now` passed to the policy is tick * tick_ns.
constexpr duration_ns tick_ns = schedcore::msec(1);
/// The run is bounded: the timeline records at most this many ticks.
constexpr u32 max_ticks = 240;
constexpr unsigned stack_words = 512;  // 2 KiB (rv32/cm3) or 4 KiB (rv64) per task
constexpr uptr stack_canary = 0x5AFEC0DEu;

enum class op : u8 { burn, sleep, yield, say, end };
struct step {
  op what;
  u8 n;             // ticks for burn/sleep
  const char* msg;  // for say
};

// The workload: the same for both policies so their traces can be compared side by side.
// "hi" is interactive (short bursts, long sleeps), "mid" is a periodic worker, "lo1"/"lo2" are
// CPU hogs at the same level (RR rotation under fixed priority, equal shares when fair).
constexpr step prog_hi[] = {{op::burn, 1, nullptr}, {op::say, 0, "burst 1 done"}, {op::sleep, 9, nullptr},
                            {op::burn, 1, nullptr}, {op::say, 0, "burst 2 done"}, {op::sleep, 9, nullptr},
                            {op::burn, 2, nullptr}, {op::say, 0, "burst 3 done, exit"}, {op::end, 0, nullptr}};
constexpr step prog_mid[] = {{op::burn, 4, nullptr}, {op::say, 0, "job 1 done"}, {op::sleep, 6, nullptr},
                             {op::burn, 4, nullptr}, {op::say, 0, "job 2 done"}, {op::yield, 0, nullptr},
                             {op::burn, 3, nullptr}, {op::say, 0, "job 3 done, exit"}, {op::end, 0, nullptr}};
constexpr step prog_lo1[] = {{op::burn, 8, nullptr}, {op::say, 0, "half way"},
                             {op::burn, 8, nullptr}, {op::say, 0, "done, exit"}, {op::end, 0, nullptr}};
constexpr step prog_lo2[] = {{op::burn, 6, nullptr}, {op::say, 0, "half way"},
                             {op::burn, 6, nullptr}, {op::say, 0, "done, exit"}, {op::end, 0, nullptr}};

enum class state : u8 { ready, running, sleeping, dead };

struct task : sched_entity {
  const char* name = nullptr;
  char letter = '?';      // its mark in the timeline
  state st = state::ready;
  const step* prog = nullptr;
  void* sp = nullptr;     // saved stack pointer while not running
  u32 wake_tick = 0;
  u32 run_ticks = 0;      // ticks charged while current; written only by the tick ISR
                          // (not `volatile`: that would make the table need a constructor)
  u32 burn_total = 0;     // what its program asks for (checked against run_ticks at the end)
  u32 dispatches = 0;
  uptr* stack_base = nullptr;
  // Its PELT signal (smp/pelt.hpp), brought up to each tick: how much of the recent past it
  // ran (util_avg, 1024 = always) and was runnable (runnable_avg). The summary prints the
  // values it had when it exited; every target prints the same digits.
  schedcore::pelt_avg pelt{};
};

struct task_spec {
  const char* name;
  char letter;
  sched_kind rt_kind;  // fixed priority: fifo or rr
  u8 rt_priority;      // fixed priority: POSIX 1..99, higher is more urgent
  s8 nice;             // fair: -20..19
  const step* prog;
};
constexpr task_spec specs[] = {
    {"hi", 'H', sched_kind::fifo, 30, -5, prog_hi},
    {"mid", 'M', sched_kind::fifo, 20, 0, prog_mid},
    {"lo1", 'a', sched_kind::rr, 10, 5, prog_lo1},
    {"lo2", 'b', sched_kind::rr, 10, 5, prog_lo2},
};
constexpr unsigned nr_tasks = sizeof(specs) / sizeof(specs[0]);

// Kernel state, touched only with interrupts off (ISRs and traps) or read-only by tasks.
run_queue rq;
run_queue selftest_rq;  // the self-test's own, fresh run queue (run_selftest needs one)
task tasks[nr_tasks];
task idle_task;
task* current = &idle_task;
volatile u32 ticks = 0;
volatile u32 live = 0;
u32 overflow_ticks = 0;
volatile u32 end_tick = 0;  // tick at which the last task exited
char timeline[max_ticks + 1];
uptr stacks[nr_tasks][stack_words];

sched_time now_of(u32 t) noexcept { return sched_time{static_cast<u64>(t) * static_cast<u64>(tick_ns)}; }

// ---- tiny formatting (no libc) ----
struct line_buf {
  char buf[96];
  unsigned len = 0;
  void put(char c) noexcept {
    if (len + 1 < sizeof(buf)) buf[len++] = c;
    buf[len] = '\0';
  }
  void str(const char* s) noexcept {
    while (*s != '\0') put(*s++);
  }
  void dec(u32 v, unsigned width = 0) noexcept {
    char tmp[10];
    unsigned n = 0;
    do {
      tmp[n++] = static_cast<char>('0' + v % 10u);
      v /= 10u;
    } while (v != 0);
    while (width > n) {
      put(' ');
      --width;
    }
    while (n != 0) put(tmp[--n]);
  }
  void hex64(u64 v) noexcept {
    str("0x");
    for (int shift = 60; shift >= 0; shift -= 4) put("0123456789abcdef"[(v >> shift) & 0xFu]);
  }
  void pad(unsigned col) noexcept {
    while (len < col) put(' ');
  }
};

/// The scheduling parameters of a task as the policy holds them (after setup).
void describe(const task& tk, line_buf& d) noexcept {
#if PORT_SCHED_FAIR == 3
  d.str("level ");
  d.dec(tk.level);
#elif PORT_SCHED_FAIR == 2
  d.str("tickets ");
  d.dec(tk.tickets.weight);
#elif PORT_SCHED_FAIR
  d.str("nice ");
  if (tk.nice < 0) d.put('-');
  d.dec(static_cast<u32>(tk.nice < 0 ? -tk.nice : tk.nice));
  d.str("  weight ");
  d.dec(tk.weight);
#else
  d.str(tk.kind == sched_kind::rr ? "rr   " : "fifo ");
  d.str(" rt_priority ");
  d.dec(tk.rt_priority);
  d.str("  kernel prio ");
  d.dec(tk.prio);
#endif
}

void wake_sleepers(u32 t, bool* resched) noexcept {
  for (auto& tk : tasks) {
    if (tk.st != state::sleeping || static_cast<s32>(t - tk.wake_tick) < 0) continue;
    tk.st = state::ready;
    rq.enqueue(tk, now_of(t), true);
    if (current == &idle_task || rq.wakeup_preempt(tk, *current, now_of(t))) *resched = true;
  }
}

// ---- task side ----
uptr call(sys o, uptr arg = 0) noexcept { return arch_syscall(o, arg); }

void burn(task* self, u32 n) noexcept {
  // Spin until the tick ISR has charged n more ticks to this task (its own CPU time, so
  // preemption in between does not shorten the burst).
  const volatile u32& charged = self->run_ticks;
  const u32 target = charged + n;
  while (static_cast<s32>(charged - target) < 0) {
  }
}

void task_entry(uptr index) noexcept {
  task* self = &tasks[index];
  for (const step* s = self->prog;; ++s) {
    switch (s->what) {
      case op::burn: burn(self, s->n); break;
      case op::sleep: call(sys::sleep, s->n); break;
      case op::yield: call(sys::yield); break;
      case op::say: call(sys::print, reinterpret_cast<uptr>(s->msg)); break;
      case op::end:
        call(sys::exit);
        for (;;) {
        }
    }
  }
}

[[noreturn]] void print_summary() noexcept {
  int status = 0;
  line_buf l;
  l.str("timeline (1 char = 1 tick; H M a b = task, . = idle):\n");
  arch_puts(l.buf);
  const u32 end = end_tick < max_ticks ? end_tick : max_ticks;
  for (u32 i = 0; i < end; i += 60) {
    line_buf t;
    t.str("  ");
    for (u32 j = i; j < end && j < i + 60; ++j) t.put(timeline[j]);
    t.put('\n');
    arch_puts(t.buf);
  }
  for (auto& tk : tasks) {
    line_buf s;
    s.str("task ");
    s.str(tk.name);
    s.pad(10);
    s.str("ran ");
    s.dec(tk.run_ticks, 3);
    s.str(" ticks (asked ");
    s.dec(tk.burn_total, 3);
    s.str("), dispatched ");
    s.dec(tk.dispatches, 3);
    s.str(" times, util ");
    s.dec(tk.pelt.util_avg, 3);
    s.str(" runnable ");
    s.dec(static_cast<u32>(tk.pelt.runnable_avg), 3);
    // Self-checks: a task charged more than it burned means a tick landed outside burn()
    // (wall-time dependence); a smashed canary means a stack overflow.
    if (tk.run_ticks != tk.burn_total) {
      s.str("  MISMATCH");
      status = 1;
    }
    if (tk.stack_base[0] != stack_canary) {
      s.str("  STACK OVERFLOW");
      status = 1;
    }
    s.put('\n');
    arch_puts(s.buf);
  }
  if (overflow_ticks != 0) status = 1;
  const selftest_result st = run_selftest(selftest_rq);
  line_buf c;
  c.str(selftest_line_prefix);
  c.hex64(st.sum);
  c.str(st.failures == 0 ? " ok\n" : " FAILED\n");
  arch_puts(c.buf);
  if (st.failures != 0) status = 2;
  line_buf e;
  e.str("exit ");
  e.dec(static_cast<u32>(status));
  e.put('\n');
  arch_puts(e.buf);
  arch_exit(status);
}

}  // namespace

bool kernel_tick() noexcept {
  const u32 t = ticks;
  bool resched = false;
  // Charge the tick that just ended to whoever ran during it.
  if (t < max_ticks) timeline[t] = current == &idle_task ? '.' : current->letter;
  else ++overflow_ticks;
  ticks = t + 1;
  if (current != &idle_task) {
    current->run_ticks = current->run_ticks + 1;
    if (rq.tick(*current, now_of(t + 1))) resched = true;
  }
  // PELT: the tick that ended, as each task spent it (ran, waited, slept). States change only
  // at ticks and at system calls right after a dispatch, so the tick's end state is its state.
  for (auto& tk : tasks) {
    if (tk.st == state::dead) continue;  // frozen at exit
    const bool runnable = tk.st == state::ready || tk.st == state::running;
    schedcore::pelt_update_entity(tk.pelt, now_of(t + 1).ns(), /*nice-0 weight; load_avg unused*/ 1024, runnable,
                                  &tk == current);
  }
  wake_sleepers(t + 1, &resched);
  return resched;
}

uptr kernel_syscall(sys o, uptr arg, bool* resched) noexcept {
  task* self = current;
  const sched_time now = now_of(ticks);
  switch (o) {
    case sys::print: {
      line_buf l;
      l.put('[');
      l.dec(ticks, 4);
      l.str("] ");
      l.str(self->name);
      l.pad(12);
      l.str(reinterpret_cast<const char*>(arg));
      l.put('\n');
      arch_puts(l.buf);
      return 0;
    }
    case sys::sleep:
      rq.dequeue(*self, now, schedcore::dequeue_flags::sleep);
      self->st = state::sleeping;
      self->wake_tick = ticks + static_cast<u32>(arg);
      *resched = true;
      return 0;
    case sys::yield:
      rq.yield(*self, now);
      *resched = true;
      return 0;
    case sys::exit:
      rq.dequeue(*self, now, schedcore::dequeue_flags::dead);
      self->st = state::dead;
      live = live - 1;
      if (live == 0) end_tick = ticks;
      *resched = true;
      return 0;
  }
  return ~static_cast<uptr>(0);
}

void* kernel_switch(void* sp) noexcept {
  const sched_time now = now_of(ticks);
  task* prev = current;
  prev->sp = sp;
  // A task that slept or exited was already dequeued; one that was preempted or yielded is
  // still runnable and goes back through put_prev.
  const bool prev_runnable = prev != &idle_task && prev->st == state::running;
  if (prev_runnable) prev->st = state::ready;
  sched_entity* se = rq.schedule(prev != &idle_task ? prev : nullptr, prev_runnable, now);
  task* next = se != nullptr ? static_cast<task*>(se) : &idle_task;
  if (next != &idle_task) next->st = state::running;
  if (next != prev) ++next->dispatches;
  current = next;
  return next->sp;
}

void kernel_main(const char* arch_name) noexcept {
  line_buf p;  // the only target-specific line; the tests drop it before comparing traces
  p.str("port: ");
  p.str(arch_name);
  p.put('\n');
  arch_puts(p.buf);
  line_buf l;
  l.str("schedcore kernel demo: ");
  l.str(policy_name);
  l.str(", 1 ms tick\n");
  arch_puts(l.buf);
  if (!rq.init()) {
    arch_puts("run queue: knobs refused\n");
    arch_exit(3);
  }
  for (unsigned i = 0; i < nr_tasks; ++i) {
    task& tk = tasks[i];
    const task_spec& sp = specs[i];
    tk.name = sp.name;
    tk.letter = sp.letter;
    tk.prog = sp.prog;
    for (const step* s = sp.prog; s->what != op::end; ++s)
      if (s->what == op::burn) tk.burn_total += s->n;
    tk.stack_base = stacks[i];
    tk.stack_base[0] = stack_canary;
    tk.sp = arch_init_stack(&stacks[i][stack_words], task_entry, i);
    if (rq.setup(tk, task_params(sp.rt_kind, sp.rt_priority, sp.nice)) != errc::ok) {
      arch_puts("run queue: task parameters refused\n");
      arch_exit(3);
    }
    tk.st = state::ready;
    rq.enqueue(tk, now_of(0), false);
    line_buf d;
    d.str("task ");
    d.str(tk.name);
    d.pad(10);
    describe(tk, d);
    d.put('\n');
    arch_puts(d.buf);
  }
  live = nr_tasks;
  arch_start_tick();
  call(sys::yield);  // leave the idle context: the first task is picked at tick 0
  while (live != 0) arch_wait_for_interrupt();
  print_summary();
}

}  // namespace port
