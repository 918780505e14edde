// class_stack: the kernel's class pick loop, cross-class preemption, optional-hook defaults.
// Uses two tiny test policies (a FIFO over a std::deque, and a "counting" class that records
// hook calls) so the stack is tested independently of any real policy.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "check_recorder.hpp"
#include "schedcore/policy/class_stack.hpp"

namespace {

using namespace schedcore;

struct task {
  int sched_class = 0;
  int id = 0;
  int priority = 0;  // only used by prio_fifo: lower = more urgent
};

// A host-only reference class: FIFO with strict-priority wakeup preemption.
struct prio_fifo {
  using task_type = task;
  std::deque<task*> queue;
  task* running = nullptr;
  std::vector<std::string>* log = nullptr;

  void enqueue(task& t, sched_time, enqueue_flags f) noexcept {
    if (has(f, enqueue_flags::head)) queue.push_front(&t); else queue.push_back(&t);
  }
  void dequeue(task& t, sched_time, dequeue_flags) noexcept {
    queue.erase(std::remove(queue.begin(), queue.end(), &t), queue.end());
    if (running == &t) running = nullptr;
  }
  task* pick_next(sched_time) noexcept {
    if (running) return running;  // curr stays first while it runs (rt semantics)
    return queue.empty() ? nullptr : queue.front();
  }
  void set_next(task& t, sched_time) noexcept { running = &t; }
  void put_prev(task& t, sched_time) noexcept {
    if (running == &t) running = nullptr;
  }
  bool tick(task&, sched_time) noexcept { return false; }
  bool wakeup_preempt(task& woken, task& curr, sched_time) noexcept { return woken.priority < curr.priority; }
  usize nr_runnable() const noexcept { return queue.size(); }
  void switched_from(task& t, sched_time) noexcept {
    if (log) log->push_back("switched_from " + std::to_string(t.id));
  }
  bool resched_pending = false;  // set by a test, as a dequeue that charged curr would
  bool take_resched() noexcept {
    const bool r = resched_pending;
    resched_pending = false;
    return r;
  }
  void yield(task& curr, sched_time) noexcept {  // move to tail, as SCHED_FIFO's yield does
    queue.erase(std::remove(queue.begin(), queue.end(), &curr), queue.end());
    queue.push_back(&curr);
    running = nullptr;
    if (log) log->push_back("yield " + std::to_string(curr.id));
  }
};

// A class with only the required hooks: the stack must apply the documented defaults.
struct minimal {
  using task_type = task;
  std::deque<task*> queue;
  void enqueue(task& t, sched_time, enqueue_flags) noexcept { queue.push_back(&t); }
  void dequeue(task& t, sched_time, dequeue_flags) noexcept {
    queue.erase(std::remove(queue.begin(), queue.end(), &t), queue.end());
  }
  task* pick_next(sched_time) noexcept { return queue.empty() ? nullptr : queue.front(); }
  void set_next(task&, sched_time) noexcept {}
  void put_prev(task& t, sched_time) noexcept {  // round robin on every put_prev
    dequeue(t, {}, dequeue_flags::none);
    queue.push_back(&t);
  }
  bool tick(task&, sched_time) noexcept { return true; }
  bool wakeup_preempt(task&, task&, sched_time) noexcept { return false; }
  usize nr_runnable() const noexcept { return queue.size(); }
};

using stack_t = class_stack<member_sched_class, prio_fifo, minimal>;
static_assert(is_policy_v<prio_fifo> && is_policy_v<minimal>);
static_assert(is_policy_v<stack_t>, "a class_stack is itself a policy, so stacks nest");
static_assert(stack_t::nr_classes == 2);
#if SCHEDCORE_CXX20
static_assert(policy<stack_t>);
#endif

TEST(ClassStack, HigherClassAlwaysPickedFirst) {
  stack_t rq;
  task fair1{1, 1}, fair2{1, 2}, rt1{0, 3, 10};
  const sched_time now{};
  rq.enqueue(fair1, now, enqueue_flags::wakeup);
  rq.enqueue(fair2, now, enqueue_flags::wakeup);
  EXPECT_EQ(rq.nr_runnable(), 2u);
  EXPECT_EQ(rq.schedule(nullptr, false, now), &fair1);
  rq.enqueue(rt1, now, enqueue_flags::wakeup);
  EXPECT_TRUE(rq.wakeup_preempt(rt1, fair1, now)) << "a more important class always preempts";
  EXPECT_FALSE(rq.wakeup_preempt(fair2, rt1, now)) << "a less important class never preempts";
  EXPECT_EQ(rq.schedule(&fair1, true, now), &rt1);
  EXPECT_EQ(rq.nr_runnable(), 3u);
  rq.dequeue(rt1, now, dequeue_flags::sleep);  // rt1 blocks: no put_prev for it
  EXPECT_EQ(rq.schedule(&rt1, false, now), &fair2) << "fair1 was put back at the tail by minimal::put_prev";
  EXPECT_TRUE(rq.verify());
}

TEST(ClassStack, SameClassPreemptionIsTheClassDecision) {
  stack_t rq;
  task a{0, 1, 50}, b{0, 2, 50}, c{0, 3, 10};
  const sched_time now{};
  rq.enqueue(a, now, enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(nullptr, false, now), &a);
  rq.enqueue(b, now, enqueue_flags::wakeup);
  EXPECT_FALSE(rq.wakeup_preempt(b, a, now)) << "equal priority FIFO does not preempt";
  rq.enqueue(c, now, enqueue_flags::wakeup);
  EXPECT_TRUE(rq.wakeup_preempt(c, a, now));
}

TEST(ClassStack, OptionalHooksForwardOrDefault) {
  stack_t rq;
  std::vector<std::string> log;
  rq.get<0>().log = &log;
  task a{0, 1}, b{0, 2}, f{1, 3};
  const sched_time now{};
  rq.enqueue(a, now, enqueue_flags::wakeup);
  rq.enqueue(b, now, enqueue_flags::wakeup);
  rq.enqueue(f, now, enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(nullptr, false, now), &a);
  rq.yield(a, now);
  ASSERT_EQ(log, std::vector<std::string>{"yield 1"});
  EXPECT_EQ(rq.schedule(&a, true, now), &b);
  rq.switched_from(b, now);
  ASSERT_EQ(log.back(), "switched_from 2") << "forwarded to the task's current class";
  // minimal has no yield/prio_changed/task_new/task_dead/switched_from: the defaults do nothing.
  rq.switched_from(f, now);
  rq.yield(f, now);
  rq.prio_changed(f, now);
  rq.task_new(f, &a, now);
  rq.task_dead(f, now);
  EXPECT_EQ(rq.nr_runnable(), 3u);
  EXPECT_TRUE(rq.tick(f, now)) << "tick forwards to the task's class";
  EXPECT_FALSE(rq.tick(a, now));
}

// take_resched is asked of every class and clears each request; a class without the hook
// (minimal) never asks.
TEST(ClassStack, TakeReschedAsksEveryClassOnce) {
  stack_t rq;
  EXPECT_FALSE(rq.take_resched()) << "nothing pending; minimal's default is false";
  rq.get<0>().resched_pending = true;
  EXPECT_TRUE(rq.take_resched());
  EXPECT_FALSE(rq.get<0>().resched_pending) << "the class's request was cleared";
  EXPECT_FALSE(rq.take_resched()) << "reported once";
}

// A lowest class with the optional timer, verify and delayed hooks: the stack asks every class
// for them, not only the first, and dispatches per-task hooks to the task's own class.
struct timed {
  using task_type = task;
  std::deque<task*> queue;
  sched_time due{};
  bool armed = false;
  int fired = 0;
  bool healthy = true;
  const task* delayed_task = nullptr;
  void enqueue(task& t, sched_time, enqueue_flags) noexcept { queue.push_back(&t); }
  void dequeue(task& t, sched_time, dequeue_flags) noexcept {
    queue.erase(std::remove(queue.begin(), queue.end(), &t), queue.end());
  }
  task* pick_next(sched_time) noexcept { return queue.empty() ? nullptr : queue.front(); }
  void set_next(task&, sched_time) noexcept {}
  void put_prev(task&, sched_time) noexcept {}
  bool tick(task&, sched_time) noexcept { return false; }
  bool wakeup_preempt(task&, task&, sched_time) noexcept { return false; }
  usize nr_runnable() const noexcept { return queue.size(); }
  bool next_timer(sched_time& when) const noexcept {
    if (!armed) return false;
    when = due;
    return true;
  }
  bool timer(sched_time now) noexcept {
    if (!armed || now < due) return false;
    armed = false;
    ++fired;
    return true;
  }
  bool verify() const noexcept { return healthy; }
  bool delayed(const task& t) const noexcept { return &t == delayed_task; }
};

TEST(ClassStack, TimersVerifyAndDelayedReachEveryClass) {
  using three = class_stack<member_sched_class, prio_fifo, minimal, timed>;
  three rq;
  sched_time when{};
  EXPECT_FALSE(rq.next_timer(when)) << "no class has a timer";
  rq.get<2>().armed = true;
  rq.get<2>().due = sched_time{} + msec(5);
  ASSERT_TRUE(rq.next_timer(when)) << "the third class's timer";
  EXPECT_EQ(when - sched_time{}, msec(5));
  EXPECT_FALSE(rq.timer(sched_time{} + msec(4)));
  EXPECT_TRUE(rq.timer(sched_time{} + msec(5))) << "a due timer of the third class asks for a reschedule";
  EXPECT_EQ(rq.get<2>().fired, 1);
  EXPECT_FALSE(rq.next_timer(when));
  EXPECT_TRUE(rq.verify());
  rq.get<2>().healthy = false;
  EXPECT_FALSE(rq.verify()) << "the stack is broken when any class is";
  rq.get<2>().healthy = true;
  task low{2, 1}, rt{0, 2, 10}, mid{1, 3};
  rq.get<2>().delayed_task = &low;
  EXPECT_TRUE(rq.delayed(low)) << "asked of low's class";
  EXPECT_FALSE(rq.delayed(rt)) << "rt's class has no delayed hook: false";
  EXPECT_FALSE(rq.delayed(mid));
  // A prev that blocked (already dequeued, passed as not runnable) is not put back.
  const sched_time now{};
  rq.enqueue(mid, now, enqueue_flags::wakeup);
  rq.enqueue(low, now, enqueue_flags::wakeup);
  ASSERT_EQ(rq.schedule(nullptr, false, now), &mid);
  rq.dequeue(mid, now, dequeue_flags::sleep);
  EXPECT_EQ(rq.schedule(&mid, false, now), &low);
  EXPECT_EQ(rq.nr_runnable(), 1u) << "minimal::put_prev would have queued mid again";
}

TEST(ClassStack, EmptyStackIdles) {
  stack_t rq;
  EXPECT_EQ(rq.schedule(nullptr, false, sched_time{}), nullptr);
  EXPECT_EQ(rq.nr_runnable(), 0u);
}

// Each hook reports a task of no class exactly once, as a misuse (the refusal tier): a port
// whose handler halts on assertions must reach the refusal, not stop at a second report.
TEST(ClassStack, TaskOfNoClassIsRefusedAndReported) {
  stack_t rq;
  task stray{7, 1};
  task fine{0, 2};
  rq.enqueue(fine, sched_time{}, enqueue_flags::wakeup);
  schedcore_test::check_scope scope;
  const auto expect_one_misuse = [&](const char* hook) {
    const auto checks = scope.take();
    ASSERT_EQ(checks.size(), 1u) << hook;
    EXPECT_EQ(checks[0].kind, check_kind::misuse) << hook;
  };
  rq.enqueue(stray, sched_time{}, enqueue_flags::wakeup);
  expect_one_misuse("enqueue");
  EXPECT_EQ(rq.nr_runnable(), 1u) << "nothing was enqueued";
  rq.dequeue(stray, sched_time{}, dequeue_flags::sleep);
  expect_one_misuse("dequeue");
  EXPECT_FALSE(rq.tick(stray, sched_time{}));
  expect_one_misuse("tick");
  EXPECT_FALSE(rq.wakeup_preempt(stray, fine, sched_time{})) << "a task of no class preempts nothing";
  expect_one_misuse("wakeup_preempt (woken)");
  EXPECT_FALSE(rq.wakeup_preempt(fine, stray, sched_time{}));
  expect_one_misuse("wakeup_preempt (curr)");
  EXPECT_EQ(rq.pick_next(sched_time{}), &fine) << "the queue is as it was";
}

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

// Class timers are independent (each class arms its own hrtimer: the deadline class's
// replenishment timer, the RT period timer, ...): the next event is the earliest of them,
// whichever class holds it, and every due timer runs, even after an earlier class asked for a
// reschedule. Two timed classes: the first due at 8 ms, the second at 5 ms.
TEST(ClassStack, TheEarliestTimerOfAnyClassIsNextAndEveryDueTimerRuns) {
  using two = class_stack<member_sched_class, timed, timed>;
  two rq;
  rq.get<0>().armed = rq.get<1>().armed = true;
  rq.get<0>().due = sched_time{} + msec(8);
  rq.get<1>().due = sched_time{} + msec(5);
  sched_time when{};
  ASSERT_TRUE(rq.next_timer(when));
  EXPECT_EQ(when - sched_time{}, msec(5)) << "the second class's timer comes first";
  EXPECT_TRUE(rq.timer(sched_time{} + msec(8))) << "both are due at 8 ms";
  EXPECT_EQ(rq.get<0>().fired, 1);
  EXPECT_EQ(rq.get<1>().fired, 1) << "run although the first class already asked for a reschedule";
  EXPECT_FALSE(rq.next_timer(when));
}

// take_resched is asked of every class and clears each request (the header's rule): with a
// request pending in two classes, one call reports it and clears both.
TEST(ClassStack, TakeReschedClearsTheRequestOfEveryClassAtOnce) {
  using two = class_stack<member_sched_class, prio_fifo, prio_fifo>;
  two rq;
  rq.get<0>().resched_pending = rq.get<1>().resched_pending = true;
  EXPECT_TRUE(rq.take_resched());
  EXPECT_FALSE(rq.get<0>().resched_pending);
  EXPECT_FALSE(rq.get<1>().resched_pending) << "the second class was asked too";
  EXPECT_FALSE(rq.take_resched());
}

}  // namespace
