// White-box tests of the demo kernel's mutexes (examples/cortex-m/portable/kernel.cpp), fixed
// priority configuration (rt_policy): priority inheritance, its chain walk, waiter order, the
// refusals and the hand-off at exit. The qemu tests check the demo's trace on every target;
// these reach the cases its workload does not (chains, cycles, several waiters).
//
// The kernel is included as source so that its internals (an anonymous namespace) are visible;
// no task runs here. A test acts as the running task by setting `current` through the kernel's
// own switch (kernel_switch picks what the policy picks) and calls kernel_syscall as the trap
// handler would.
#include <gtest/gtest.h>

#include <initializer_list>
#include <new>
#include <string>

#include "portable/kernel.cpp"

namespace port {

namespace {
std::string console;  // what the kernel printed
}  // namespace

void arch_puts(const char* s) noexcept { console += s; }
[[noreturn]] void arch_exit(int status) noexcept { std::_Exit(100 + status); }
uptr arch_syscall(sys, uptr) noexcept { std::_Exit(99); }  // no task runs in these tests
void* arch_init_stack(void*, void (*)(uptr), uptr) noexcept { return nullptr; }
void arch_start_tick() noexcept {}
void arch_request_switch() noexcept {}
void arch_wait_for_interrupt() noexcept {}
bool arch_burn(const volatile u32*, u32, u32) noexcept { std::_Exit(99); }  // no task runs either
bool arch_kernel_entries_masked() noexcept { return true; }  // the tests call the kernel directly
u32 arch_clock_us() noexcept { return 0; }

namespace {

constexpr unsigned lo = 0, lo2 = 1, mid = 2, hi = 3;  // indexes into `tasks`

class KernelMutex : public ::testing::Test {
 protected:
  void SetUp() override {
    new (&rq) run_queue{};
    for (auto& tk : tasks) new (&tk) task{};
    mutexes[bus_mutex] = kmutex{"bus", protocol::inherit, nullptr, 0, 0, 0};
    mutexes[log_mutex] = kmutex{"log", protocol::none, nullptr, 0, 0, 0};
    current = &idle_task;
    ticks = 0;
    kernel_faults = 0;
    next_wait_seq = 0;
    live = nr_tasks;
    console.clear();
    ASSERT_TRUE(rq.init());
  }
  void TearDown() override { EXPECT_TRUE(rq.verify()); }

  /// Creates task `i` as RT `kind` at `prio`, runnable, with `name`.
  static void spawn(unsigned i, const char* name, sched_kind kind, u8 prio) {
    task& tk = tasks[i];
    tk.name = name;
    tk.own = task_params(kind, prio, 0);
    tk.rt_priority_now = prio;
    ASSERT_EQ(rq.setup(tk, tk.own), errc::ok);
    tk.st = state::ready;
    rq.enqueue(tk, now_of(ticks), false);
  }
  /// A switch as the PendSV handler makes it: the policy's pick becomes `current`.
  static task* reschedule() {
    (void)kernel_switch(nullptr);
    return current;
  }
  /// The running task calls lock / unlock / exit; returns the result.
  static uptr call_as_current(sys op, uptr arg = 0) {
    bool resched = false;
    return kernel_syscall(op, arg, &resched);
  }
  /// Task `i` is created, runs at once (the test asserts the pick) and locks mutex `m`:
  /// true when it was picked and the call took or waited for the mutex.
  static bool arrive_and_lock(unsigned i, const char* name, sched_kind kind, u8 prio, u8 m) {
    spawn(i, name, kind, prio);
    return reschedule() == &tasks[i] && call_as_current(sys::lock, m) == 0;
  }
  static bool runnable(unsigned i) { return tasks[i].st == state::ready || tasks[i].st == state::running; }
};

TEST_F(KernelMutex, AnInheritOwnerRunsAtItsTopWaitersPriorityUntilItUnlocks) {
  ASSERT_TRUE(arrive_and_lock(lo, "lo", sched_kind::rr, 10, bus_mutex));
  spawn(mid, "mid", sched_kind::fifo, 20);
  spawn(hi, "hi", sched_kind::fifo, 30);
  ASSERT_EQ(reschedule(), &tasks[hi]);
  ticks = 5;
  ASSERT_EQ(call_as_current(sys::lock, bus_mutex), 0u);  // blocks
  EXPECT_EQ(tasks[hi].st, state::blocked);
  EXPECT_EQ(tasks[lo].rt_priority_now, 30);
  EXPECT_EQ(tasks[lo].prio, 99 - 30);  // the policy's kernel prio: it runs at 30 indeed
  EXPECT_EQ(reschedule(), &tasks[lo]) << "the owner runs ahead of mid (FIFO 20)";
  ticks = 8;
  ASSERT_EQ(call_as_current(sys::unlock, bus_mutex), 0u);
  EXPECT_EQ(mutexes[bus_mutex].owner, &tasks[hi]);
  EXPECT_TRUE(runnable(hi));
  EXPECT_EQ(tasks[lo].rt_priority_now, 10);
  EXPECT_EQ(tasks[lo].prio, 99 - 10);
  EXPECT_EQ(reschedule(), &tasks[hi]);
  EXPECT_EQ(mutexes[bus_mutex].longest_wait, 3u);
  EXPECT_EQ(console,
            "[   5] hi   waits for bus, held by lo\n"
            "[   5] lo   runs at the lent rt_priority 30\n"
            "[   8] hi   takes bus after 3 ticks\n"
            "[   8] lo   back to its own rt_priority 10\n");
}

TEST_F(KernelMutex, WithoutAProtocolTheOwnerKeepsItsPriority) {
  ASSERT_TRUE(arrive_and_lock(lo, "lo", sched_kind::rr, 10, log_mutex));
  spawn(mid, "mid", sched_kind::fifo, 20);
  ASSERT_TRUE(arrive_and_lock(hi, "hi", sched_kind::fifo, 30, log_mutex));
  EXPECT_EQ(tasks[hi].st, state::blocked);
  EXPECT_EQ(tasks[lo].rt_priority_now, 10);
  EXPECT_EQ(reschedule(), &tasks[mid]) << "the inversion: mid runs, the owner waits";
}

TEST_F(KernelMutex, TheBoostFollowsTheChainOfOwnersAndUnwindsLinkByLink) {
  mutexes[log_mutex].proto = protocol::inherit;  // two inherit mutexes make a chain
  ASSERT_TRUE(arrive_and_lock(lo, "lo", sched_kind::rr, 10, log_mutex));
  ASSERT_TRUE(arrive_and_lock(lo2, "lo2", sched_kind::rr, 15, bus_mutex));
  ASSERT_EQ(call_as_current(sys::lock, log_mutex), 0u);  // lo2 waits for lo, holding bus
  EXPECT_EQ(tasks[lo].rt_priority_now, 15);
  ASSERT_EQ(reschedule(), &tasks[lo]);
  spawn(mid, "mid", sched_kind::fifo, 20);
  ASSERT_TRUE(arrive_and_lock(hi, "hi", sched_kind::fifo, 30, bus_mutex));  // hi waits for lo2, which waits for lo
  EXPECT_EQ(tasks[lo2].rt_priority_now, 30);
  EXPECT_EQ(tasks[lo2].prio, 99 - 30) << "a blocked owner is set up at the lent priority";
  EXPECT_EQ(tasks[lo].rt_priority_now, 30) << "the end of the chain runs at hi's priority";
  ASSERT_EQ(reschedule(), &tasks[lo]);
  ASSERT_EQ(call_as_current(sys::unlock, log_mutex), 0u);  // lo2 takes log, still lent 30 by hi
  EXPECT_EQ(mutexes[log_mutex].owner, &tasks[lo2]);
  EXPECT_EQ(tasks[lo].rt_priority_now, 10);
  EXPECT_EQ(tasks[lo2].rt_priority_now, 30);
  ASSERT_EQ(reschedule(), &tasks[lo2]);
  ASSERT_EQ(call_as_current(sys::unlock, bus_mutex), 0u);
  EXPECT_EQ(tasks[lo2].rt_priority_now, 15);
  EXPECT_EQ(reschedule(), &tasks[hi]);
  ASSERT_EQ(call_as_current(sys::unlock, bus_mutex), 0u);
  ASSERT_EQ(reschedule(), &tasks[hi]);  // hi finishes; lo2 still owns log
  ASSERT_EQ(call_as_current(sys::exit), 0u);
  EXPECT_EQ(reschedule(), &tasks[mid]);
}

// Both queues are by priority; they differ in which one. lo holds log; lo2 (RR 12) holds bus
// and waits for log, then mid (FIFO 20) waits for log; hi (FIFO 30) waits for bus, which lends
// lo2 30. A plain log ranks its waiters by their own priorities (a futex: mid, 20, before lo2,
// 12); an inherit log by what they run at (an rt_mutex: lo2, 30, before mid). The arrival
// order alone would hand it to lo2 in both.
TEST_F(KernelMutex, APlainMutexRanksWaitersByTheirOwnPriorityAnInheritOneByTheLentOne) {
  for (const protocol log_protocol : {protocol::none, protocol::inherit}) {
    SetUp();
    mutexes[log_mutex].proto = log_protocol;
    ASSERT_TRUE(arrive_and_lock(lo, "lo", sched_kind::rr, 10, log_mutex));
    ASSERT_TRUE(arrive_and_lock(lo2, "lo2", sched_kind::rr, 12, bus_mutex));
    ASSERT_EQ(call_as_current(sys::lock, log_mutex), 0u);  // lo2 waits for log first
    ASSERT_TRUE(arrive_and_lock(mid, "mid", sched_kind::fifo, 20, log_mutex));
    ASSERT_TRUE(arrive_and_lock(hi, "hi", sched_kind::fifo, 30, bus_mutex));
    EXPECT_EQ(tasks[lo2].rt_priority_now, 30);
    ASSERT_EQ(reschedule(), &tasks[lo]);
    ASSERT_EQ(call_as_current(sys::unlock, log_mutex), 0u);
    const unsigned expected = log_protocol == protocol::none ? mid : lo2;
    const unsigned other = log_protocol == protocol::none ? lo2 : mid;
    EXPECT_EQ(mutexes[log_mutex].owner, &tasks[expected]) << (log_protocol == protocol::none ? "none" : "inherit");
    EXPECT_TRUE(runnable(expected));
    EXPECT_EQ(tasks[other].blocked_on, log_mutex);
    EXPECT_EQ(tasks[lo].rt_priority_now, 10);
  }
}

TEST_F(KernelMutex, AfterAHandOffTheWaitersLeftLendToTheNewOwner) {
  ASSERT_TRUE(arrive_and_lock(lo, "lo", sched_kind::rr, 10, bus_mutex));
  ASSERT_TRUE(arrive_and_lock(lo2, "lo2", sched_kind::rr, 12, bus_mutex));
  ASSERT_TRUE(arrive_and_lock(hi, "hi", sched_kind::fifo, 30, bus_mutex));
  ASSERT_EQ(reschedule(), &tasks[lo]);
  // hi is first in the queue: it takes bus, lo2 keeps waiting and lends hi nothing (12 < 30).
  ASSERT_EQ(call_as_current(sys::unlock, bus_mutex), 0u);
  EXPECT_EQ(mutexes[bus_mutex].owner, &tasks[hi]);
  ASSERT_EQ(reschedule(), &tasks[hi]);
  ASSERT_EQ(call_as_current(sys::unlock, bus_mutex), 0u);
  EXPECT_EQ(mutexes[bus_mutex].owner, &tasks[lo2]);
  // A waiter above the new owner: hi waits again and lo2, the owner now, is lent 30.
  ASSERT_EQ(call_as_current(sys::lock, bus_mutex), 0u);
  EXPECT_EQ(tasks[lo2].rt_priority_now, 30);
  ASSERT_EQ(reschedule(), &tasks[lo2]);
  spawn(mid, "mid", sched_kind::fifo, 20);
  EXPECT_EQ(reschedule(), &tasks[lo2]) << "mid (20) stays behind the boosted owner";
}

TEST_F(KernelMutex, RefusalsChangeNothing) {
  ASSERT_TRUE(arrive_and_lock(lo, "lo", sched_kind::rr, 10, bus_mutex));
  EXPECT_EQ(call_as_current(sys::lock, bus_mutex), 1u) << "its own mutex: a deadlock";
  EXPECT_EQ(call_as_current(sys::unlock, log_mutex), 1u) << "not the owner";
  EXPECT_EQ(call_as_current(sys::lock, nr_mutexes), 1u) << "no such mutex";
  EXPECT_EQ(call_as_current(sys::unlock, nr_mutexes), 1u);
  ASSERT_TRUE(arrive_and_lock(hi, "hi", sched_kind::fifo, 30, log_mutex));
  ASSERT_EQ(call_as_current(sys::lock, bus_mutex), 0u);  // hi waits for lo, holding log
  ASSERT_EQ(reschedule(), &tasks[lo]);
  const kmutex before = mutexes[log_mutex];
  EXPECT_EQ(call_as_current(sys::lock, log_mutex), 1u) << "lo -> log -> hi -> bus -> lo";
  EXPECT_EQ(mutexes[log_mutex].locks, before.locks);
  EXPECT_EQ(mutexes[log_mutex].contended, before.contended);
  EXPECT_EQ(tasks[lo].st, state::running);
  EXPECT_EQ(tasks[lo].rt_priority_now, 30);
  EXPECT_EQ(tasks[hi].blocked_on, bus_mutex);
  EXPECT_EQ(console.find("lock bus refused: deadlock") != std::string::npos, true);
  EXPECT_EQ(console.find("unlock log refused: not the owner") != std::string::npos, true);
  EXPECT_EQ(console.find("lock log refused: deadlock") != std::string::npos, true);
  EXPECT_EQ(kernel_faults, 0u);
}

TEST_F(KernelMutex, AnExitHoldingAMutexHandsItOnAndIsCounted) {
  ASSERT_TRUE(arrive_and_lock(lo, "lo", sched_kind::rr, 10, bus_mutex));
  ASSERT_TRUE(arrive_and_lock(hi, "hi", sched_kind::fifo, 30, bus_mutex));
  ASSERT_EQ(reschedule(), &tasks[lo]);
  ASSERT_EQ(call_as_current(sys::exit), 0u);
  EXPECT_EQ(tasks[lo].st, state::dead);
  EXPECT_EQ(mutexes[bus_mutex].owner, &tasks[hi]);
  EXPECT_EQ(kernel_faults, 1u) << "the summary fails a run whose task exited holding a mutex";
  EXPECT_EQ(reschedule(), &tasks[hi]);
}

/// The priority `t` runs at, recomputed from scratch (the kernel keeps it incrementally): its
/// own, or the highest among the waiters of the inherit mutexes it owns, each at its own such
/// priority. Depth-bounded: the kernel refuses cycles.
u8 expected_priority(const task& t, unsigned depth = 0) {
  u8 best = t.own.rt_priority;
  if (depth > nr_tasks) return best;
  for (const auto& w : tasks) {
    if (w.blocked_on == no_mutex || mutexes[w.blocked_on].owner != &t || mutexes[w.blocked_on].proto != protocol::inherit)
      continue;
    const u8 lent = expected_priority(w, depth + 1);
    if (lent > best) best = lent;
  }
  return best;
}

TEST_F(KernelMutex, RandomLockingKeepsEveryPriorityWhatItsWaitersLend) {
  for (const protocol log_protocol : {protocol::none, protocol::inherit}) {
    SetUp();
    mutexes[log_mutex].proto = log_protocol;
    spawn(lo, "lo", sched_kind::rr, 10);
    spawn(lo2, "lo2", sched_kind::rr, 10);
    spawn(mid, "mid", sched_kind::fifo, 20);
    spawn(hi, "hi", sched_kind::fifo, 30);
    u32 rng = 2024u;
    u32 boosts = 0, handoffs = 0;
    for (unsigned step = 0; step < 20000; ++step) {
      rng = rng * 1664525u + 1013904223u;
      const u32 r = rng >> 8;
      ticks = ticks + 1;
      bool resched = false;
      wake_sleepers(ticks, &resched);
      task* const self = reschedule();
      if (self == &idle_task) continue;  // everyone asleep (a waiter is never idle for long)
      // The pick runs at the highest priority among the runnable tasks.
      for (const auto& tk : tasks) {
        if (tk.st == state::ready) {
          ASSERT_LE(tk.rt_priority_now, self->rt_priority_now) << "step " << step;
        }
      }
      const u8 m = static_cast<u8>((r >> 4) % nr_mutexes);
      switch (r % 5) {
        case 0:
        case 1: {
          const bool was_free = mutexes[m].owner == nullptr;
          (void)call_as_current(sys::lock, m);
          if (!was_free && self->st == state::blocked && mutexes[m].proto == protocol::inherit &&
              mutexes[m].owner->rt_priority_now > mutexes[m].owner->own.rt_priority)
            ++boosts;
          break;
        }
        case 2: {
          // The next owner, ranked here from scratch: by priority (the lent one on an inherit
          // mutex, the task's own on a plain one), then by arrival.
          const task* next = nullptr;
          for (const auto& w : tasks) {
            if (w.blocked_on != m) continue;
            const u8 rw = mutexes[m].proto == protocol::inherit ? expected_priority(w) : w.own.rt_priority;
            const u8 rn = next == nullptr ? 0 : mutexes[m].proto == protocol::inherit ? expected_priority(*next) : next->own.rt_priority;
            if (next == nullptr || rw > rn || (rw == rn && w.wait_seq < next->wait_seq)) next = &w;
          }
          const bool mine = mutexes[m].owner == self;
          if (mine && next != nullptr) ++handoffs;
          (void)call_as_current(sys::unlock, m);
          if (mine) {
            ASSERT_EQ(mutexes[m].owner, next) << "step " << step;
          }
          break;
        }
        case 3:
          (void)call_as_current(sys::sleep, 1 + (r >> 8) % 6);  // holding what it holds
          break;
        default:
          (void)rq.tick(*self, now_of(ticks));
          break;
      }
      for (const auto& tk : tasks) {
        ASSERT_EQ(tk.rt_priority_now, expected_priority(tk)) << tk.name << " at step " << step;
        ASSERT_EQ(tk.prio, 99 - tk.rt_priority_now) << tk.name << ": the policy runs it elsewhere";
        ASSERT_EQ(tk.st == state::blocked, tk.blocked_on != no_mutex);
        ASSERT_EQ(runnable(static_cast<unsigned>(&tk - tasks)), is_runnable(tk)) << "kernel and policy disagree";
      }
      if (step % 64 == 0) {
        ASSERT_TRUE(rq.verify());
      }
    }
    EXPECT_GT(boosts, 100u);
    EXPECT_GT(handoffs, 100u);
    EXPECT_EQ(kernel_faults, 0u);
  }
}

}  // namespace
}  // namespace port
