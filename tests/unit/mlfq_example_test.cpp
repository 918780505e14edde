// The second custom-policy example (examples/custom-policy/mlfq.hpp), tested against the rules
// of the multi-level feedback queue as OSTEP chapter 8 states them, not against its own code.
//
// Oracles (the test computes every expected time from the rules and the knobs):
// - Rule 4: a CPU hog drops one level each time it has used the allotment of its level, so it
//   reaches the bottom after the sum of the allotments of every level above it.
// - Rule 4 (accounting across sleeps): a task that runs a little and sleeps keeps the top level
//   while its total run stays below the allotment, and drops when it reaches it; a task that
//   games the scheduler (runs 95 % of its allotment, 19 of 20 ms, then blocks) drops all the same.
// - Rules 4a/4b (`reset_on_sleep`): a task that always sleeps before its allotment ends stays
//   at the top for good, and the gaming task keeps the CPU.
// - Rule 1: a woken top-level task preempts a lower-level hog at once.
// - Rule 2: tasks at one level alternate by the level's quantum.
// - Rule 5: every boost period the hog is back at the top level; without boosts a hog
//   starves under two interactive tasks that keep the top level busy, with boosts it runs for
//   at least one top-level quantum per period.
// Then the policy-contract conformance suite, in four configurations.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "../../examples/custom-policy/mlfq.hpp"
#include "policy_contract.hpp"
#include "schedcore/policy/policy.hpp"

namespace {

using namespace schedcore;
using mlfq_example::mlfq_entity;

struct task : mlfq_entity {
  int id = 0;
};
using policy_t = mlfq_example::mlfq_policy<task, 4>;
static_assert(check_policy<policy_t>(), "the example models the policy contract");

constexpr s64 ms = msec(1);

// A uniprocessor driven in 1 ms steps, as a port's tick would drive it. A task is a hog
// (run < 0) or runs `run` ns, sleeps `sleep` ns, and so on.
struct sim {
  struct actor {
    task t;
    s64 run = -1, sleep = 0;  // run < 0: never blocks
    s64 burst_left = 0;
    sched_time wake_at{};
    bool asleep = false;
    s64 cpu = 0;  // run time received
  };
  policy_t p;
  sched_time now;
  std::vector<actor> actors;
  task* curr = nullptr;
  int switches = 0;

  explicit sim(const policy_t::knobs& k, sched_time start = sched_time{}) : now(start) {
    EXPECT_EQ(p.configure(k), errc::ok);
    actors.reserve(16);
  }
  actor& add(s64 run, s64 sleep) {
    actors.emplace_back();
    actor& a = actors.back();
    a.t.id = static_cast<int>(actors.size()) - 1;
    a.run = run;
    a.sleep = sleep;
    a.burst_left = run;
    EXPECT_EQ(p.setup(a.t, sched_params{}), errc::ok);
    p.enqueue(a.t, now, enqueue_flags::initial);
    return a;
  }
  actor& of(task& t) { return actors[static_cast<std::size_t>(t.id)]; }
  void resched() {
    task* prev = curr;
    if (curr != nullptr) p.put_prev(*curr, now);
    curr = p.pick_next(now);
    if (curr != nullptr) p.set_next(*curr, now);
    if (curr != prev) ++switches;
  }
  void step() {
    now += ms;
    bool need = curr == nullptr;
    if (curr != nullptr) {
      actor& a = of(*curr);
      a.cpu += ms;
      if (a.run >= 0 && (a.burst_left -= ms) <= 0) {
        p.dequeue(*curr, now, dequeue_flags::sleep);
        a.asleep = true;
        a.wake_at = now + a.sleep;
        curr = nullptr;
        need = true;
      } else if (p.tick(*curr, now)) {
        need = true;
      }
    }
    sched_time when;
    if (p.next_timer(when) && !(now < when)) need |= p.timer(now);
    for (actor& a : actors) {
      if (!a.asleep || now < a.wake_at) continue;
      a.asleep = false;
      a.burst_left = a.run;
      p.enqueue(a.t, now, enqueue_flags::wakeup);
      if (curr != nullptr && p.wakeup_preempt(a.t, *curr, now)) need = true;
    }
    if (need) resched();
    EXPECT_TRUE(p.verify());
  }
  void run_for(s64 d) {
    if (curr == nullptr) resched();
    for (s64 t = 0; t < d; t += ms) step();
  }
};

policy_t::knobs no_boost() {
  policy_t::knobs k{};
  k.quantum = msec(5);
  k.allotment = msec(20);
  k.boost_period = 0;
  return k;
}

// Allotments 20, 40, 80 ms at levels 0, 1, 2: the hog reaches level 3 after 140 ms.
TEST(MlfqExample, AHogDropsOneLevelPerAllotmentAndReachesTheBottomAfterTheirSum) {
  sim s(no_boost());
  task& hog = s.add(-1, 0).t;
  const s64 allot[3] = {msec(20), msec(40), msec(80)};  // 20 ms x 2^l, from the rule
  s64 boundary = 0;
  s.run_for(0);
  for (unsigned l = 0; l < 3; ++l) {
    const s64 until = boundary + allot[l];
    while (s.now - sched_time{} < until) {
      EXPECT_EQ(s.p.level_of(hog), l) << "at " << (s.now - sched_time{}) / ms << " ms";
      s.step();
    }
    boundary = until;
  }
  EXPECT_EQ(boundary, msec(140));
  EXPECT_EQ(s.p.level_of(hog), 3u);
  s.run_for(sec(2));
  EXPECT_EQ(s.p.level_of(hog), 3u) << "the bottom level has no allotment";
}

// Rule 2: two hogs at one level alternate every quantum of that level (5 ms at the top).
TEST(MlfqExample, TasksAtOneLevelAlternateByTheLevelsQuantum) {
  sim s(no_boost());
  s.add(-1, 0);
  s.add(-1, 0);
  std::vector<int> who;
  s.run_for(0);
  for (int i = 0; i < 20; ++i) {
    who.push_back(s.curr->id);
    s.step();
  }
  // 0 for 5 ms, 1 for 5 ms, 0, 1: each has used 10 ms of its 20 ms allotment.
  for (int i = 0; i < 20; ++i) EXPECT_EQ(who[static_cast<std::size_t>(i)], (i / 5) % 2) << "ms " << i;
}

// Rule 4 counts the allotment across sleeps: 1 ms runs keep the top level for 19 runs (19 ms
// of the 20 ms allotment) and drop it at the 20th.
TEST(MlfqExample, AnInteractiveTaskStaysHighUntilItsTotalRunReachesTheAllotment) {
  sim s(no_boost());
  task& hog = s.add(-1, 0).t;
  sim::actor& ia = s.add(ms, msec(9));
  s.run_for(0);
  while (ia.cpu < msec(19)) {
    EXPECT_EQ(s.p.level_of(ia.t), 0u);
    s.step();
  }
  EXPECT_EQ(s.p.level_of(ia.t), 0u) << "19 ms used, below the 20 ms allotment";
  EXPECT_GE(s.p.level_of(hog), 2u) << "the hog has had most of the CPU meanwhile";
  while (ia.cpu < msec(20)) s.step();
  EXPECT_EQ(s.p.level_of(ia.t), 1u) << "20 ms used: the allotment is spent";
}

// Rules 4a/4b: with reset_on_sleep a task that always blocks before its allotment ends stays
// at the top for good (2 s, 200 runs, 200 ms of CPU: ten allotments).
TEST(MlfqExample, WithResetOnSleepASleeperStaysAtTheTopForGood) {
  policy_t::knobs k = no_boost();
  k.reset_on_sleep = 1;
  sim s(k);
  task& hog = s.add(-1, 0).t;
  sim::actor& ia = s.add(ms, msec(9));
  s.run_for(0);
  for (int i = 0; i < 2000; ++i) {
    s.step();
    ASSERT_EQ(s.p.level_of(ia.t), 0u) << "at " << i << " ms";
  }
  EXPECT_GE(ia.cpu, msec(190));
  EXPECT_EQ(s.p.level_of(hog), 3u);
}

// OSTEP figure 8.4: a task that runs 19 ms of its 20 ms allotment, blocks 1 ms and repeats.
// Rule 4 drops it to the bottom like any hog (it then shares the CPU with the other hog); the
// gameable rules 4a/4b let it keep the top level and almost all of the CPU.
TEST(MlfqExample, GamingTheAllotmentWorksOnlyWithResetOnSleep) {
  for (s64 reset : {s64{0}, s64{1}}) {
    policy_t::knobs k = no_boost();
    k.reset_on_sleep = reset;
    sim s(k);
    sim::actor& hog = s.add(-1, 0);
    sim::actor& gamer = s.add(msec(19), ms);
    s.run_for(sec(2));
    if (reset == 0) {
      EXPECT_EQ(s.p.level_of(gamer.t), 3u);
      EXPECT_LT(gamer.cpu, msec(1200)) << "no more than its share at the bottom, and then some";
    } else {
      EXPECT_EQ(s.p.level_of(gamer.t), 0u);
      EXPECT_GT(gamer.cpu, msec(1800)) << "95 % of the CPU by gaming";
      EXPECT_LT(hog.cpu, msec(200));
    }
  }
}

// Rule 1: a top-level task waking while the hog (lower down) runs runs in the same tick.
TEST(MlfqExample, AWokenHigherLevelTaskPreemptsTheHogAtOnce) {
  sim s(no_boost());
  s.add(-1, 0);
  s.run_for(msec(200));  // the hog is at the bottom
  sim::actor& ia = s.add(ms, msec(9));
  ASSERT_TRUE(s.p.wakeup_preempt(ia.t, *s.curr, s.now));
  s.resched();
  EXPECT_EQ(s.curr, &ia.t);
  for (int period = 0; period < 10; ++period) {
    while (!ia.asleep) s.step();
    while (ia.asleep) s.step();
    EXPECT_EQ(s.curr, &ia.t) << "picked in the step it woke";
  }
}

// Rule 5: with S = 300 ms the hog is at the top right after every boost and back at the
// bottom 140 ms later.
TEST(MlfqExample, EveryBoostBringsTheHogBackToTheTop) {
  policy_t::knobs k = no_boost();
  k.boost_period = msec(300);
  sim s(k);
  task& hog = s.add(-1, 0).t;
  s.run_for(msec(299));
  EXPECT_EQ(s.p.level_of(hog), 3u);
  for (int b = 1; b <= 5; ++b) {
    s.step();  // the boost is due at b * 300 ms
    EXPECT_EQ(s.p.boosts(), static_cast<u32>(b));
    EXPECT_EQ(s.p.level_of(hog), 0u) << "boost " << b;
    s.run_for(msec(139));
    EXPECT_EQ(s.p.level_of(hog), 2u);
    s.run_for(ms);
    EXPECT_EQ(s.p.level_of(hog), 3u);
    s.run_for(msec(159));
  }
}

// A task that sleeps through a boost reports the level it will wake at: level 2 while it sleeps
// before the boost, the top after it (the boost falls while the hog is queued), and the top
// once it is back.
TEST(MlfqExample, ASleeperReportsTheLevelItWillWakeAt) {
  policy_t::knobs k = no_boost();
  k.boost_period = msec(300);
  sim s(k);
  s.add(-1, 0);                                  // the hog keeps the queue busy, so the boost runs
  task& a = s.add(msec(70), msec(1000)).t;       // 70 ms of CPU (down to level 2), then 1 s asleep
  s.run_for(msec(250));
  ASSERT_TRUE(s.of(a).asleep);
  EXPECT_EQ(s.p.boosts(), 0u);
  EXPECT_EQ(s.p.level_of(a), 2u) << "asleep before any boost: it keeps its level";
  s.run_for(msec(100));
  ASSERT_TRUE(s.of(a).asleep);
  EXPECT_EQ(s.p.boosts(), 1u);
  EXPECT_EQ(s.p.level_of(a), 0u) << "a boost fell while it slept: it wakes at the top";
  int steps = 0;
  while (s.of(a).asleep && steps++ < 2000) s.step();
  ASSERT_FALSE(s.of(a).asleep) << "woke within 2 s";
  EXPECT_EQ(s.p.level_of(a), 0u) << "and woke at the top";
}

// Two interactive tasks that alternate 4 ms runs with 3 ms sleeps keep the top level busy
// (reset_on_sleep keeps them there). Without boosts the hog, at the bottom, gets nothing after
// its first 140 ms; with S = 500 ms it gets at least one top-level quantum (5 ms) in every
// period.
TEST(MlfqExample, WithoutBoostsAHogStarvesWithBoostsItRunsEveryPeriod) {
  for (s64 boost : {s64{0}, msec(500)}) {
    policy_t::knobs k = no_boost();
    k.reset_on_sleep = 1;
    k.boost_period = boost;
    sim s(k);
    sim::actor& hog = s.add(-1, 0);
    s.run_for(msec(200));  // the hog alone sinks to the bottom
    ASSERT_EQ(s.p.level_of(hog.t), 3u);
    s.add(msec(4), msec(3));
    s.add(msec(4), msec(3));
    s.run_for(msec(100));
    for (int period = 0; period < 8; ++period) {
      const s64 before = hog.cpu;
      s.run_for(msec(500));
      if (boost == 0)
        EXPECT_EQ(hog.cpu, before) << "starved in period " << period;
      else
        EXPECT_GE(hog.cpu - before, msec(5)) << "period " << period;
    }
  }
}

// The schedule does not depend on where the clock starts: the same run from 0 and from 30 ms
// before the wrap, with boosts, gives the same CPU times and switch count.
TEST(MlfqExample, TheScheduleDoesNotDependOnWhereTheClockStarts) {
  policy_t::knobs k = no_boost();
  k.boost_period = msec(250);
  sim a(k), b(k, sched_time{~0ull - static_cast<u64>(msec(30))});
  for (sim* s : {&a, &b}) {
    s->add(-1, 0);
    s->add(msec(2), msec(7));
    s->add(msec(30), msec(10));
    s->run_for(sec(3));
  }
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(a.actors[i].cpu, b.actors[i].cpu) << i;
  EXPECT_EQ(a.switches, b.switches);
}

TEST(MlfqExample, BadKnobsAndParametersAreRefused) {
  policy_t p;
  policy_t::knobs k{};
  k.reset_on_sleep = 2;
  EXPECT_NE(p.configure(k), errc::ok);
  k = {};
  k.quantum = 0;
  EXPECT_NE(p.configure(k), errc::ok);
  task t;
  sched_params rt;
  rt.kind = sched_kind::fifo;
  rt.rt_priority = 10;
  EXPECT_EQ(p.setup(t, rt), errc::invalid_argument);
  sched_params bad;
  bad.nice = 20;
  EXPECT_NE(p.setup(t, bad), errc::ok);
  p.enqueue(t, sched_time{}, enqueue_flags::initial);
  EXPECT_EQ(p.setup(t, sched_params{}), errc::busy);
}

// Runs `t`, the only task in `p`'s queue and the running one, in 1 ms ticks until `until`,
// putting it back and picking it again whenever tick asks for the CPU.
void run_alone(policy_t& p, task& t, sched_time& now, sched_time until) {
  while (now < until) {
    now += ms;
    if (p.tick(t, now)) {
      p.put_prev(t, now);
      ASSERT_EQ(p.pick_next(now), &t);
      p.set_next(t, now);
    }
  }
}

// Configures `p` with `k`, queues `t` alone at time 0 and runs it as run_alone does until
// `until`.
void start_alone(policy_t& p, const policy_t::knobs& k, task& t, sched_time& now, sched_time until) {
  ASSERT_EQ(p.configure(k), errc::ok);
  now = sched_time{};
  p.enqueue(t, now, enqueue_flags::initial);
  p.set_next(t, now);
  run_alone(p, t, now, until);
}

// Rule 2 at a lower level: the quantum of level 1 is 2 x 5 ms. Two hogs leave the top level at
// 35 and 40 ms (each after 20 ms of its own); from 40 ms to 120 ms (each uses its 40 ms level-1
// allotment) they alternate every 10 ms.
TEST(MlfqExample, TasksAtALowerLevelAlternateByThatLevelsLongerQuantum) {
  sim s(no_boost());
  s.add(-1, 0);
  s.add(-1, 0);
  s.run_for(msec(40));
  ASSERT_EQ(s.p.level_of(s.actors[0].t), 1u);
  ASSERT_EQ(s.p.level_of(s.actors[1].t), 1u);
  for (int i = 0; i < 80; ++i) {
    EXPECT_EQ(s.curr->id, (i / 10) % 2) << "at " << 40 + i << " ms";
    s.step();
  }
}

// SCHED_BATCH and SCHED_IDLE are accepted like SCHED_NORMAL (the header's setup contract).
TEST(MlfqExample, BatchAndIdleTasksAreAccepted) {
  policy_t p;
  task t;
  sched_params batch;
  batch.kind = sched_kind::batch;
  batch.nice = 5;
  EXPECT_EQ(p.setup(t, batch), errc::ok);
  sched_params idle;
  idle.kind = sched_kind::idle;
  EXPECT_EQ(p.setup(t, idle), errc::ok);
}

// Rule 5 with nothing queued: no timer is armed (next_timer is false), and the boost that fell
// due at 100 ms runs at the next enqueue, so the sleeper, at level 2 when it left at 70 ms,
// wakes at the top at 250 ms.
TEST(MlfqExample, ABoostThatFellWhileTheQueueWasEmptyRunsAtTheNextEnqueue) {
  policy_t::knobs k = no_boost();
  k.boost_period = msec(100);
  sim s(k);
  sim::actor& a = s.add(msec(70), msec(180));  // 70 ms of CPU (down to level 2), asleep until 250 ms
  s.run_for(msec(70));
  ASSERT_TRUE(a.asleep);
  EXPECT_EQ(s.p.level_of(a.t), 2u);
  sched_time when;
  EXPECT_FALSE(s.p.next_timer(when)) << "no task queued: no timer";
  s.run_for(msec(179));
  ASSERT_TRUE(a.asleep);
  EXPECT_EQ(s.p.boosts(), 0u) << "nothing to boost while the queue is empty";
  s.run_for(ms);
  ASSERT_FALSE(a.asleep);
  EXPECT_EQ(s.p.boosts(), 1u) << "the boost due since 100 ms runs at the enqueue";
  EXPECT_EQ(s.p.level_of(a.t), 0u);
}

// Rule 5 moves every job in the system to the top, sleeping ones included: a task that blocks
// at the very instant the boost falls due, before the boost has run, is still boosted, whether
// one asks while it sleeps or after it wakes.
TEST(MlfqExample, ATaskThatBlocksAtTheInstantOfTheBoostWakesAtTheTop) {
  policy_t::knobs k = no_boost();
  k.boost_period = msec(100);
  policy_t p;
  task a, b;
  sched_time now{};
  start_alone(p, k, a, now, sched_time{} + msec(99));
  ASSERT_EQ(p.level_of(a), 2u) << "20 ms at level 0, 40 at level 1, 39 at level 2";
  ASSERT_EQ(p.boosts(), 0u);
  now += ms;                                  // 100 ms: the boost is due
  p.dequeue(a, now, dequeue_flags::sleep);    // a blocks at that instant...
  p.enqueue(b, now, enqueue_flags::wakeup);   // ...as b wakes, whose enqueue runs the boost
  ASSERT_EQ(p.boosts(), 1u);
  EXPECT_EQ(p.level_of(a), 0u) << "a was in the system when the boost fell";
  now += msec(5);
  p.enqueue(a, now, enqueue_flags::wakeup);
  EXPECT_EQ(p.level_of(a), 0u) << "and wakes at the top";
  EXPECT_TRUE(p.verify());
}

// enqueue_flags::head queues a task at the head of its level instead of the tail.
TEST(MlfqExample, AnEnqueueWithTheHeadFlagGoesToTheHeadOfItsLevel) {
  policy_t p;
  task a, b, c;
  sched_time now{};
  for (task* t : {&a, &b, &c}) p.enqueue(*t, now, enqueue_flags::initial);
  ASSERT_EQ(p.pick_next(now), &a);
  p.dequeue(a, now, dequeue_flags::save);
  p.enqueue(a, now, enqueue_flags::restore | enqueue_flags::head);
  EXPECT_EQ(p.pick_next(now), &a) << "back at the head, not behind b and c";
  EXPECT_TRUE(p.verify());
}

// Rule 4b renews the allotment of a task that gives up the CPU (blocks); a parameter change
// (dequeue with save, setup, enqueue with restore) is no such thing: with reset_on_sleep the
// task keeps the allotment it used and the rest of its quantum. a runs alone; at 17 ms (2 ms
// into its fourth 5 ms quantum) its parameters change; at 20 ms both its quantum and its
// 20 ms allotment end.
TEST(MlfqExample, AParameterChangeRenewsNeitherTheAllotmentNorTheQuantum) {
  policy_t::knobs k = no_boost();
  k.reset_on_sleep = 1;
  policy_t p;
  task a;
  sched_time now{};
  start_alone(p, k, a, now, sched_time{} + msec(17));
  p.dequeue(a, now, dequeue_flags::save);
  ASSERT_EQ(p.setup(a, sched_params{}), errc::ok);
  p.enqueue(a, now, enqueue_flags::restore);
  ASSERT_EQ(p.pick_next(now), &a);
  p.set_next(a, now);
  for (int t = 18; t < 20; ++t) {
    now += ms;
    EXPECT_FALSE(p.tick(a, now)) << t << " ms";
  }
  now += ms;
  EXPECT_TRUE(p.tick(a, now)) << "20 ms: its quantum and its allotment are used up";
  EXPECT_EQ(p.level_of(a), 1u);
}

// A task preempted before its quantum ends goes back to the head of its level with the rest
// of its quantum (the header's rule 2). Two hogs alternate at level 1 from 40 ms (10 ms
// quanta); 3 ms into h0's quantum a new task preempts (rule 1), runs 1 ms and blocks: h0
// resumes for the 7 ms it had left, then h1 runs.
TEST(MlfqExample, APreemptedTaskResumesAtTheHeadOfItsLevelWithTheRestOfItsQuantum) {
  sim s(no_boost());
  task& h0 = s.add(-1, 0).t;
  task& h1 = s.add(-1, 0).t;
  s.run_for(msec(43));
  ASSERT_EQ(s.curr, &h0);
  ASSERT_EQ(s.p.level_of(h0), 1u);
  sim::actor& i = s.add(ms, sec(10));
  ASSERT_TRUE(s.p.wakeup_preempt(i.t, *s.curr, s.now));
  s.resched();
  ASSERT_EQ(s.curr, &i.t);
  s.step();  // i runs 1 ms and blocks at 44 ms
  ASSERT_TRUE(i.asleep);
  for (int t = 44; t < 51; ++t) {
    EXPECT_EQ(s.curr, &h0) << t << " ms";
    s.step();
  }
  EXPECT_EQ(s.curr, &h1) << "h0's 10 ms quantum (3 + 7 ms) ended at 51 ms";
}

// Rule 4 takes effect the moment the allotment is used, even within a quantum, and the task
// starts afresh below: with 3 ms quanta the 20 ms allotment ends 2 ms into the seventh quantum;
// tick asks for the CPU at once, and the task then gets a whole level-1 quantum (6 ms).
TEST(MlfqExample, ATaskDropsTheMomentItsAllotmentIsUsedAndGetsAWholeQuantumBelow) {
  policy_t::knobs k = no_boost();
  k.quantum = msec(3);
  policy_t p;
  task hog;
  sched_time now{};
  start_alone(p, k, hog, now, sched_time{} + msec(19));
  ASSERT_EQ(p.level_of(hog), 0u);
  now += ms;
  EXPECT_TRUE(p.tick(hog, now)) << "20 ms used at 20 ms: the drop asks for the CPU";
  EXPECT_EQ(p.level_of(hog), 1u);
  p.put_prev(hog, now);
  ASSERT_EQ(p.pick_next(now), &hog);
  p.set_next(hog, now);
  for (int t = 21; t < 26; ++t) {
    now += ms;
    EXPECT_FALSE(p.tick(hog, now)) << t << " ms: inside its 6 ms level-1 quantum";
  }
  now += ms;
  EXPECT_TRUE(p.tick(hog, now)) << "26 ms";
}

// Rule 1 versus rule 2: a task at the running task's level waits for the end of the quantum
// (no preemption at its wakeup, no reschedule from tick before the quantum ends); a task at a
// higher level gets the CPU at the next tick even when the port made no preemption check when
// it was queued.
TEST(MlfqExample, AnEqualLevelTaskWaitsForTheQuantumEndAHigherLevelOneDoesNot) {
  policy_t p;
  task a, b, c;
  sched_time now{};
  p.enqueue(a, now, enqueue_flags::initial);
  p.set_next(a, now);
  now += ms;
  p.enqueue(b, now, enqueue_flags::wakeup);
  EXPECT_FALSE(p.wakeup_preempt(b, a, now)) << "same level: round robin, not preemption";
  for (int t = 2; t < 5; ++t) {
    now += ms;
    EXPECT_FALSE(p.tick(a, now)) << t << " ms of a 5 ms quantum";
  }
  now += ms;
  EXPECT_TRUE(p.tick(a, now)) << "5 ms";
  p.put_prev(a, now);
  ASSERT_EQ(p.pick_next(now), &b);
  // b leaves; a, alone, runs on and drops to level 1 at 20 ms (20 ms of its own).
  p.set_next(b, now);
  p.dequeue(b, now, dequeue_flags::sleep);
  ASSERT_EQ(p.pick_next(now), &a);
  p.set_next(a, now);
  run_alone(p, a, now, sched_time{} + msec(27));
  ASSERT_EQ(p.level_of(a), 1u);
  p.enqueue(c, now, enqueue_flags::initial);  // queued with no preemption check by the port
  now += ms;
  EXPECT_TRUE(p.tick(a, now)) << "rule 1: c waits at level 0, above a, 8 ms into a's 10 ms quantum";
}

// A task that yields gives up the rest of its quantum: it goes to the tail of its level.
TEST(MlfqExample, AYieldingTaskGoesToTheTailOfItsLevel) {
  policy_t p;
  task a, b;
  sched_time now{};
  p.enqueue(a, now, enqueue_flags::initial);
  p.enqueue(b, now, enqueue_flags::initial);
  ASSERT_EQ(p.pick_next(now), &a);
  p.set_next(a, now);
  now += msec(2);
  EXPECT_FALSE(p.tick(a, now));
  p.yield(a, now);
  p.put_prev(a, now);
  EXPECT_EQ(p.pick_next(now), &b) << "a yielded 3 ms of its quantum: b runs";
}

// Rule 5's period S as the class timer: the first boost is S after the first enqueue, each
// next one S after the last; no timer while nothing is queued.
TEST(MlfqExample, TheClassTimerFallsEveryBoostPeriod) {
  policy_t::knobs k = no_boost();
  k.boost_period = msec(100);
  policy_t p;
  ASSERT_EQ(p.configure(k), errc::ok);
  task a;
  sched_time now = sched_time{} + msec(7);
  sched_time when;
  EXPECT_FALSE(p.next_timer(when));
  p.enqueue(a, now, enqueue_flags::initial);
  p.set_next(a, now);
  ASSERT_TRUE(p.next_timer(when));
  EXPECT_EQ(when, sched_time{} + msec(107));
  now = when;
  EXPECT_FALSE(p.timer(now));
  EXPECT_EQ(p.boosts(), 1u);
  ASSERT_TRUE(p.next_timer(when));
  EXPECT_EQ(when, sched_time{} + msec(207));
  p.dequeue(a, now, dequeue_flags::sleep);
  EXPECT_FALSE(p.next_timer(when)) << "nothing queued";
}

// Rule 5 then rule 4: after a boost the allotment at the top counts from the boost. When the
// class timer runs the boost before the tick of that instant, the run since the last tick
// still belongs to the old level: the hog keeps the top level for 20 ms after the boost.
TEST(MlfqExample, AfterABoostTheTopAllotmentCountsFromTheBoost) {
  policy_t::knobs k = no_boost();
  k.boost_period = msec(100);
  policy_t p;
  task hog;
  sched_time now{};
  start_alone(p, k, hog, now, sched_time{} + msec(99));
  ASSERT_EQ(p.level_of(hog), 2u);
  now += ms;  // 100 ms: the timer fires first, then the tick
  EXPECT_FALSE(p.timer(now));
  ASSERT_EQ(p.boosts(), 1u);
  EXPECT_EQ(p.level_of(hog), 0u);
  if (p.tick(hog, now)) {
    p.put_prev(hog, now);
    ASSERT_EQ(p.pick_next(now), &hog);
    p.set_next(hog, now);
  }
  run_alone(p, hog, now, sched_time{} + msec(119));
  EXPECT_EQ(p.level_of(hog), 0u) << "19 ms used at the top since the boost";
  run_alone(p, hog, now, sched_time{} + msec(120));
  EXPECT_EQ(p.level_of(hog), 1u) << "20 ms";
}

// Rule 5 with rule 2: the running task moves to the top too, and at the top a quantum is the
// top level's (5 ms): a hog 10 ms into its 20 ms level-2 quantum when the boost falls runs at
// most 5 ms more before tick asks for the CPU.
TEST(MlfqExample, ABoostedRunningTaskKeepsAtMostATopLevelQuantum) {
  policy_t::knobs k = no_boost();
  k.boost_period = msec(90);
  policy_t p;
  task hog;
  sched_time now{};
  start_alone(p, k, hog, now, sched_time{} + msec(89));
  ASSERT_EQ(p.level_of(hog), 2u) << "level 2 since 60 ms, its 20 ms quantum began at 80 ms";
  now += ms;
  EXPECT_FALSE(p.tick(hog, now));
  ASSERT_EQ(p.boosts(), 1u);
  EXPECT_EQ(p.level_of(hog), 0u);
  for (int t = 91; t < 95; ++t) {
    now += ms;
    EXPECT_FALSE(p.tick(hog, now)) << t << " ms";
  }
  now += ms;
  EXPECT_TRUE(p.tick(hog, now)) << "95 ms: a top-level quantum after the boost";
}

}  // namespace

// The policy-contract conformance suite: default knobs, and short periods so that boosts,
// demotions and the class timer happen many times within the suite's random runs.
namespace schedcore_test::contract {

struct mlfq_task : mlfq_example::mlfq_entity {};
struct mlfq_traits {
  using policy_type = mlfq_example::mlfq_policy<mlfq_task, 4>;
  using task_type = mlfq_task;
  static schedcore::sched_params normal(int nice) {
    schedcore::sched_params p;
    p.nice = static_cast<schedcore::s8>(nice);
    return p;
  }
};
struct mlfq_fast_traits : mlfq_traits {
  static void configure(policy_type& p) {
    policy_type::knobs k{};
    k.quantum = schedcore::usec(100);
    k.allotment = schedcore::usec(300);
    k.boost_period = schedcore::msec(3);
    EXPECT_EQ(p.configure(k), schedcore::errc::ok);
  }
};
struct mlfq_reset_traits : mlfq_fast_traits {
  static void configure(policy_type& p) {
    mlfq_fast_traits::configure(p);
    policy_type::knobs k = p.config();
    k.reset_on_sleep = 1;
    EXPECT_EQ(p.configure(k), schedcore::errc::ok);
  }
};
// Without boosts: no class timer, so the suite demands a pick whenever a task is runnable (with
// the boost timer armed it accepts nullptr until the timer fires, which a boost would mask).
struct mlfq_noboost_traits : mlfq_fast_traits {
  static void configure(policy_type& p) {
    mlfq_fast_traits::configure(p);
    policy_type::knobs k = p.config();
    k.boost_period = 0;
    EXPECT_EQ(p.configure(k), schedcore::errc::ok);
  }
};
INSTANTIATE_TYPED_TEST_SUITE_P(mlfq_example, PolicyContract, ::testing::Types<mlfq_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(mlfq_example_fast, PolicyContract, ::testing::Types<mlfq_fast_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(mlfq_example_reset, PolicyContract, ::testing::Types<mlfq_reset_traits>, names);
INSTANTIATE_TYPED_TEST_SUITE_P(mlfq_example_noboost, PolicyContract, ::testing::Types<mlfq_noboost_traits>, names);

}  // namespace schedcore_test::contract
