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

enum class op : u8 { burn, sleep, yield, say, lock, unlock, end };
struct step {
  op what;
  u8 n;             // ticks for burn/sleep, mutex index for lock/unlock
  const char* msg;  // for say
};

/// The demo's two mutexes (indexes into `mutexes`, below).
constexpr u8 bus_mutex = 0;  // PTHREAD_PRIO_INHERIT: its owner runs at its top waiter's priority
constexpr u8 log_mutex = 1;  // no protocol: a plain mutex, where an inversion has no bound

// The workload: the same for every policy so that the traces can be compared side by side.
// "hi" is interactive (short bursts, long sleeps), "mid" is a periodic worker, "lo1"/"lo2" are
// CPU hogs at the same level (RR rotation under fixed priority, equal shares when fair).
// "hi" and "lo2" share the bus mutex (priority inheritance), "hi" and "lo1" the log mutex (no
// protocol): the Mars Pathfinder inversion, once bounded and once not, with "mid" as the task
// of middle priority that would run in between. lo1 also releases a mutex it does not hold
// and locks one it holds already: the kernel refuses both (not the owner; a deadlock).
constexpr step prog_hi[] = {{op::burn, 1, nullptr}, {op::say, 0, "burst 1 done"}, {op::sleep, 9, nullptr},
                            {op::lock, bus_mutex, nullptr}, {op::burn, 1, nullptr}, {op::unlock, bus_mutex, nullptr},
                            {op::say, 0, "burst 2 done"}, {op::sleep, 9, nullptr},
                            {op::lock, log_mutex, nullptr}, {op::burn, 2, nullptr}, {op::unlock, log_mutex, nullptr},
                            {op::say, 0, "burst 3 done, exit"}, {op::end, 0, nullptr}};
constexpr step prog_mid[] = {{op::burn, 4, nullptr}, {op::say, 0, "job 1 done"}, {op::sleep, 6, nullptr},
                             {op::burn, 4, nullptr}, {op::say, 0, "job 2 done"}, {op::sleep, 6, nullptr},
                             {op::burn, 3, nullptr}, {op::say, 0, "job 3 done, exit"}, {op::end, 0, nullptr}};
constexpr step prog_lo1[] = {{op::burn, 4, nullptr}, {op::unlock, bus_mutex, nullptr},
                             {op::lock, log_mutex, nullptr}, {op::lock, log_mutex, nullptr},
                             {op::burn, 6, nullptr}, {op::unlock, log_mutex, nullptr}, {op::say, 0, "half way"},
                             {op::burn, 6, nullptr}, {op::say, 0, "done, exit"}, {op::end, 0, nullptr}};
constexpr step prog_lo2[] = {{op::lock, bus_mutex, nullptr}, {op::burn, 5, nullptr}, {op::unlock, bus_mutex, nullptr},
                             {op::say, 0, "half way"}, {op::yield, 0, nullptr}, {op::burn, 7, nullptr},
                             {op::say, 0, "done, exit"}, {op::end, 0, nullptr}};

enum class state : u8 { ready, running, sleeping, blocked, dead };

constexpr u8 no_mutex = 0xFF;

struct task : sched_entity {
  const char* name = nullptr;
  char letter = '?';      // its mark in the timeline
  state st = state::ready;
  const step* prog = nullptr;
  void* sp = nullptr;     // saved stack pointer while not running
  u32 wake_tick = 0;
  sched_params own{};         // its own parameters (the spec's)
  u8 rt_priority_now = 0;     // the RT priority the policy runs it at: own, or lent by a waiter
  u8 blocked_on = no_mutex;   // the mutex it waits for (state::blocked), by index
  u32 blocked_since = 0;      // tick it blocked at
  u32 wait_seq = 0;           // arrival order among waiters
  u32 run_ticks = 0;      // ticks charged while current; written only by the tick ISR
                          // (not `volatile`: that would make the table need a constructor)
  u32 burn_total = 0;     // what its program asks for (checked against run_ticks at the end)
  u32 lost_registers = 0; // bursts after which a register had changed (arch_burn): a context
                          // switch that did not restore everything
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

/// PTHREAD_PRIO_INHERIT or no protocol (PTHREAD_PRIO_NONE).
enum class protocol : u8 { none, inherit };
/// A sleeping mutex. Waiters are the tasks whose `blocked_on` names it; the owner hands it to
/// the first of them at its unlock (no barging).
struct kmutex {
  const char* name;
  protocol proto;
  task* owner;
  u32 locks;         // acquisitions
  u32 contended;     // of those, the ones that waited
  u32 longest_wait;  // ticks from blocking to being handed the mutex
};
kmutex mutexes[] = {{"bus", protocol::inherit, nullptr, 0, 0, 0}, {"log", protocol::none, nullptr, 0, 0, 0}};
constexpr unsigned nr_mutexes = sizeof(mutexes) / sizeof(mutexes[0]);
u32 next_wait_seq = 0;
u32 unmasked_entries = 0;  // kernel entries made while a tick, trap or switch could interrupt them
volatile u32 end_us = 0;   // arch_clock_us() when the last task exited
u32 kernel_faults = 0;  // the summary fails the run for each: a refusal by the run queue (which
                        // a correct kernel never gets), a task that exited holding a mutex

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

/// A trace line's start: "[tick] name  ".
line_buf event_line(const task& tk) noexcept {
  line_buf l;
  l.put('[');
  l.dec(ticks, 4);
  l.str("] ");
  l.str(tk.name);
  l.pad(12);
  return l;
}

bool is_rt(const sched_params& p) noexcept { return p.kind == sched_kind::fifo || p.kind == sched_kind::rr; }

/// Where a waiter stands in its mutex's queue: RT waiters first, by priority, every other task
/// after them; arrival order within a level. An inherit mutex is an rt_mutex and ranks a waiter
/// by the priority it runs at, lent ones included (rt_mutex_waiter_less, 5.15+, which squashes
/// non-RT tasks to DEFAULT_PRIO). A plain one is a futex and ranks it by its own priority
/// (__futex_queue's min(normal_prio, MAX_RT_PRIO)).
bool waits_before(const task& a, const task& b, protocol proto) noexcept {
  auto rank = [proto](const task& t) noexcept -> u32 {
    if (!is_rt(t.own)) return 0u;
    return proto == protocol::inherit ? t.rt_priority_now : t.own.rt_priority;
  };
  const u32 pa = rank(a), pb = rank(b);
  if (pa != pb) return pa > pb;
  return static_cast<s32>(a.wait_seq - b.wait_seq) < 0;
}

/// The first waiter of mutex `m`, or nullptr. O(tasks): the task table is the wait queue.
task* top_waiter(u8 m) noexcept {
  task* top = nullptr;
  for (auto& w : tasks)
    if (w.blocked_on == m && (top == nullptr || waits_before(w, *top, mutexes[m].proto))) top = &w;
  return top;
}

/// The RT priority `t` should run at (rt_mutex_setprio's `prio`): its own, raised to the top
/// waiter's of each inherit mutex it owns, counted at what that waiter runs at itself (so a
/// chain lends on). Only RT tasks lend and receive here: in the fair configurations every task
/// is SCHED_OTHER and a mutex only queues (the kernel boosts to RT and deadline priorities).
u8 wanted_rt_priority(const task& t) noexcept {
  u8 best = t.own.rt_priority;
  if (!is_rt(t.own)) return best;
  for (unsigned m = 0; m < nr_mutexes; ++m) {
    if (mutexes[m].owner != &t || mutexes[m].proto != protocol::inherit) continue;
    const task* w = top_waiter(static_cast<u8>(m));
    if (w != nullptr && is_rt(w->own) && w->rt_priority_now > best) best = w->rt_priority_now;
  }
  return best;
}

/// Brings `t` to the RT priority it should run at, then the owner of the mutex it waits for,
/// and so on up the chain (rt_mutex_adjust_prio_chain; lock refuses a cycle, so the walk ends
/// within nr_tasks steps). A runnable task changes through run_queue::change (dequeue(save),
/// setup, enqueue(restore), as rt_mutex_setprio: a lowered task goes to the head of its level),
/// a waiting one through setup alone. The caller reschedules.
void adjust_priority_chain(task* t, sched_time now) noexcept {
  for (unsigned depth = 0; t != nullptr && depth < nr_tasks; ++depth) {
    const u8 want = wanted_rt_priority(*t);
    if (want == t->rt_priority_now) return;
    sched_params p = t->own;
    p.rt_priority = want;
    const bool runnable = t->st == state::ready || t->st == state::running;
    if ((runnable ? rq.change(*t, p, t == current, now) : rq.setup(*t, p)) != errc::ok) {
      ++kernel_faults;
      return;
    }
    t->rt_priority_now = want;
    line_buf l = event_line(*t);
    l.str(want == t->own.rt_priority ? "back to its own rt_priority " : "runs at the lent rt_priority ");
    l.dec(want);
    l.put('\n');
    arch_puts(l.buf);
    t = t->blocked_on != no_mutex && mutexes[t->blocked_on].proto == protocol::inherit ? mutexes[t->blocked_on].owner
                                                                                        : nullptr;
  }
}

/// sys::lock: takes mutex `m`, or blocks `self` until its owner hands it over. Refused (1) for
/// an unknown mutex or a deadlock (the owner chain leads back to `self`, `self` included).
uptr lock_mutex(task* self, uptr m, bool* resched) noexcept {
  if (m >= nr_mutexes) return 1;
  kmutex& mx = mutexes[m];
  ++mx.locks;
  if (mx.owner == nullptr) {
    mx.owner = self;
    return 0;
  }
  // The chain of owners; longer than the task table only through a cycle, which the kernel's
  // walk would also end with EDEADLK (rt_mutex_adjust_prio_chain's max_lock_depth).
  unsigned depth = 0;
  for (const task* o = mx.owner; o != nullptr; o = o->blocked_on != no_mutex ? mutexes[o->blocked_on].owner : nullptr) {
    if (o != self && ++depth <= nr_tasks) continue;
    --mx.locks;
    line_buf l = event_line(*self);
    l.str("lock ");
    l.str(mx.name);
    l.str(" refused: deadlock\n");
    arch_puts(l.buf);
    return 1;
  }
  const sched_time now = now_of(ticks);
  rq.dequeue(*self, now, schedcore::dequeue_flags::sleep);
  self->st = state::blocked;
  self->blocked_on = static_cast<u8>(m);
  self->blocked_since = ticks;
  self->wait_seq = next_wait_seq++;
  ++mx.contended;
  line_buf l = event_line(*self);
  l.str("waits for ");
  l.str(mx.name);
  l.str(", held by ");
  l.str(mx.owner->name);
  l.put('\n');
  arch_puts(l.buf);
  if (mx.proto == protocol::inherit) adjust_priority_chain(mx.owner, now);
  *resched = true;
  return 0;
}

/// sys::unlock: hands mutex `m` to its first waiter (which wakes owning it) or frees it; `self`
/// falls back to the priority the mutexes it still owns lend it. Refused (1) unless `self`
/// owns `m`.
uptr unlock_mutex(task* self, uptr m, bool* resched) noexcept {
  if (m >= nr_mutexes || mutexes[m].owner != self) {
    line_buf l = event_line(*self);
    l.str("unlock ");
    l.str(m < nr_mutexes ? mutexes[m].name : "?");
    l.str(" refused: not the owner\n");
    arch_puts(l.buf);
    return 1;
  }
  // In rt_mutex_slowunlock's order: the mutex goes to the top waiter, the releasing task falls
  // back (a lowered priority reschedules, as prio_changed_rt does), then the new owner wakes
  // and preempts only if the policy says so (wake_up_q after the unlock).
  kmutex& mx = mutexes[m];
  const sched_time now = now_of(ticks);
  task* next = top_waiter(static_cast<u8>(m));
  mx.owner = next;
  if (next != nullptr) {
    next->blocked_on = no_mutex;
    const u32 waited = ticks - next->blocked_since;
    if (waited > mx.longest_wait) mx.longest_wait = waited;
    line_buf l = event_line(*next);
    l.str("takes ");
    l.str(mx.name);
    l.str(" after ");
    l.dec(waited);
    l.str(" ticks\n");
    arch_puts(l.buf);
    adjust_priority_chain(next, now);  // the waiters left now lend to it (it is still off the queue)
  }
  if (mx.proto == protocol::inherit) {
    const u8 before = self->rt_priority_now;
    adjust_priority_chain(self, now);
    if (self->rt_priority_now != before) *resched = true;
  }
  if (next != nullptr) {
    next->st = state::ready;
    rq.enqueue(*next, now, true);
    if (rq.wakeup_preempt(*next, *self, now)) *resched = true;
  }
  return 0;
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
  // preemption in between does not shorten the burst). The port spins with a pattern of this
  // task's in every register and checks it afterwards: the bursts are where tasks are
  // preempted, so a context switch that loses a register shows here.
  const volatile u32& charged = self->run_ticks;
  const u32 target = charged + n;
  const u32 seed = 0x5A000000u | static_cast<u32>(self - tasks) << 16;
  if (!arch_burn(&charged, target, seed)) self->lost_registers = self->lost_registers + 1;
}

void task_entry(uptr index) noexcept {
  task* self = &tasks[index];
  for (const step* s = self->prog;; ++s) {
    switch (s->what) {
      case op::burn: burn(self, s->n); break;
      case op::sleep: call(sys::sleep, s->n); break;
      case op::yield: call(sys::yield); break;
      case op::say: call(sys::print, reinterpret_cast<uptr>(s->msg)); break;
      case op::lock: call(sys::lock, s->n); break;      // a refusal is traced by the kernel
      case op::unlock: call(sys::unlock, s->n); break;
      case op::end:
        call(sys::exit);
        for (;;) {
        }
    }
  }
}

// A summary check: "<what>: ok", or "<what>: <failure>" (the caller fails the run). True if ok.
bool check_line(const char* what, bool ok, const line_buf& failure) noexcept {
  line_buf l;
  l.str(what);
  l.str(": ");
  l.str(ok ? "ok" : failure.buf);
  l.put('\n');
  arch_puts(l.buf);
  return ok;
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
    if (tk.lost_registers != 0) {
      s.str("  REGS LOST");
      status = 1;
    }
    s.put('\n');
    arch_puts(s.buf);
  }
  // Every mutex free again, every task back at its own priority, the run queue never refused.
  for (const auto& mx : mutexes) {
    line_buf m;
    m.str("mutex ");
    m.str(mx.name);
    m.pad(10);
    m.str(mx.proto == protocol::inherit ? "(inherit) " : "(none)    ");
    m.dec(mx.locks);
    m.str(" locks, ");
    m.dec(mx.contended);
    m.str(" waited, longest wait ");
    m.dec(mx.longest_wait);
    m.str(" ticks");
    if (mx.owner != nullptr) {
      m.str("  STILL HELD");
      status = 1;
    }
    m.put('\n');
    arch_puts(m.buf);
  }
  for (const auto& tk : tasks)
    if (tk.rt_priority_now != tk.own.rt_priority || tk.blocked_on != no_mutex) status = 1;
  if (overflow_ticks != 0 || kernel_faults != 0) status = 1;
  // The tick against a clock that does not drive it: the last exit comes a few thousand
  // instructions after tick end_tick (44-67 us of qemu's -icount time here), so end_tick ms of
  // that clock to within 1 % (a 100 Hz or a 2 kHz tick would give the same trace, the schedule
  // being counted in ticks, and fail only here).
  const u32 want_us = end_tick * 1000u;
  const u32 clock_us = end_us;
  const u32 off_us = clock_us > want_us ? clock_us - want_us : want_us - clock_us;
  line_buf rate;
  rate.dec(clock_us);
  rate.str(" us for ");
  rate.dec(end_tick);
  rate.str(" ticks  WRONG RATE");
  if (!check_line("tick: 1 ms on an independent clock", end_tick != 0 && off_us <= want_us / 100u, rate)) status = 1;
  line_buf race;
  race.dec(unmasked_entries);
  race.str(" were  RACE");
  if (!check_line("kernel entries: never interruptible", unmasked_entries == 0, race)) status = 1;
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

// Every entry point runs with the others locked out (the run queue has no lock of its own): a
// port that forgets to mask them (PendSV without cpsid, SysTick below PendSV) races only when a
// tick lands inside a switch, rarely and never twice alike; this check fails it at once.
void check_entry() noexcept {
  if (!arch_kernel_entries_masked()) ++unmasked_entries;
}

bool kernel_tick() noexcept {
  check_entry();
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
  check_entry();
  task* self = current;
  const sched_time now = now_of(ticks);
  switch (o) {
    case sys::print: {
      line_buf l = event_line(*self);
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
    case sys::lock: return lock_mutex(self, arg, resched);
    case sys::unlock: return unlock_mutex(self, arg, resched);
    case sys::yield:
      if (self != &idle_task) rq.yield(*self, now);  // boot leaves the idle context this way
      *resched = true;
      return 0;
    case sys::exit:
      // A mutex still held goes to its first waiter, as a robust mutex would (else they
      // would wait forever); the summary still flags the program that did it.
      for (unsigned m = 0; m < nr_mutexes; ++m) {
        if (mutexes[m].owner != self) continue;
        ++kernel_faults;
        (void)unlock_mutex(self, m, resched);
      }
      rq.dequeue(*self, now, schedcore::dequeue_flags::dead);
      self->st = state::dead;
      live = live - 1;
      if (live == 0) {
        end_tick = ticks;
        end_us = arch_clock_us();
      }
      *resched = true;
      return 0;
  }
  return ~static_cast<uptr>(0);
}

void* kernel_switch(void* sp) noexcept {
  check_entry();
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
    tk.own = task_params(sp.rt_kind, sp.rt_priority, sp.nice);
    tk.rt_priority_now = tk.own.rt_priority;
    if (rq.setup(tk, tk.own) != errc::ok) {
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
