// The optional hook `change_resched` (policy.hpp): after a change of the running task's
// parameters, whether its CPU reschedules, as each era's kernel decides. Modern classes decide
// through check_class_changed (kernel/sched/core.c, 5.x-6.x): the new class's switched_to when
// the class changed, else its prio_changed, only when p->prio moved (a deadline task always);
// set_user_nice calls prio_changed itself (since 5.6). The 2.6 policies replay that era's core
// (sched_setscheduler / rt_mutex_setprio: a worse priority; set_user_nice: any move), 2.4's
// setscheduler always asks and its nice never does. Each test names the kernel source it follows.
#include <gtest/gtest.h>

#include "schedcore/policy/bfs.hpp"
#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/cfs2007.hpp"
#include "schedcore/policy/class_stack.hpp"
#include "schedcore/policy/edf.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "schedcore/policy/goodness24.hpp"
#include "schedcore/policy/group.hpp"
#include "schedcore/policy/nicksched.hpp"
#include "schedcore/policy/o1.hpp"
#include "schedcore/policy/rt.hpp"
#include "schedcore/policy/sd.hpp"

namespace {

using namespace schedcore;

constexpr sched_time t0{};

param_change change(int oldprio, int prio, bool switched = false, bool nice = false) {
  param_change c;
  c.oldprio = oldprio;
  c.prio = prio;
  c.switched = switched;
  c.nice = nice;
  return c;
}
sched_params normal(int nice) { return sched_params{sched_kind::normal, static_cast<s8>(nice), 0, 0, 0, 0}; }
sched_params fifo(int rtprio) { return sched_params{sched_kind::fifo, 0, static_cast<u8>(rtprio), 0, 0, 0}; }

// `curr` running and, with `other`, a second task queued in fair class P.
template <class P, class T>
void run_with(P& p, T& curr, T* other) {
  ASSERT_EQ(p.setup(curr, normal(0)), errc::ok);
  p.enqueue(curr, t0, enqueue_flags::none);
  ASSERT_EQ(p.pick_next(t0), &curr);
  p.set_next(curr, t0);
  if (other != nullptr) {
    ASSERT_EQ(p.setup(*other, normal(0)), errc::ok);
    p.enqueue(*other, t0, enqueue_flags::none);
  }
}

// prio_changed_fair (6.x fair.c): `if (rq->cfs.nr_running == 1) return;` then, for the running
// task, `if (p->prio > oldprio) resched_curr(rq);`. switched_to_fair: `if (rq->curr == p)
// resched_curr(rq);`, however many tasks the class has.
template <class P, class T>
void expect_modern_fair() {
  {
    P p;
    T a, b;
    run_with(p, a, &b);
    EXPECT_TRUE(p.change_resched(a, change(120, 125), t0)) << "a worse priority with another task queued";
    EXPECT_FALSE(p.change_resched(a, change(125, 120), t0)) << "a better priority keeps the CPU";
    EXPECT_FALSE(p.change_resched(a, change(120, 120), t0)) << "policy only (NORMAL -> BATCH)";
    EXPECT_FALSE(p.change_resched(a, change(125, 120, false, true), t0)) << "set_user_nice to a better nice";
    EXPECT_TRUE(p.change_resched(a, change(120, 125, false, true), t0)) << "set_user_nice to a worse nice";
    EXPECT_TRUE(p.change_resched(a, change(49, 120, true), t0)) << "switched_to_fair (an RT deboost)";
  }
  {
    P p;
    T a;
    run_with(p, a, static_cast<T*>(nullptr));
    EXPECT_FALSE(p.change_resched(a, change(120, 125), t0)) << "rq->cfs.nr_running == 1";
    EXPECT_TRUE(p.change_resched(a, change(49, 120, true), t0)) << "switched_to_fair ignores nr_running";
  }
}

TEST(ChangeResched, CfsFollowsPrioChangedFairAndSwitchedToFair) {
  struct task : cfs_entity {
    int sched_class = 0;
  };
  expect_modern_fair<cfs_policy<task>, task>();
}

TEST(ChangeResched, EevdfFollowsPrioChangedFairAndSwitchedToFair) {
  struct task : eevdf_entity {
    int sched_class = 0;
  };
  expect_modern_fair<eevdf_policy<task>, task>();
}

// Under group_policy the count is the root queue's (rq->cfs.nr_running): two tasks of one group
// are one entity there, so a worse priority does not reschedule (prio_changed_fair returns).
TEST(ChangeResched, GroupedFairCountsTheRootQueuesEntities) {
  using node = group_node<cfs_entity>;
  struct task : node {
    int sched_class = 0;
  };
  using gp = group_policy<task, cfs_policy<node>>;
  gp p;
  gp::task_group g;
  ASSERT_EQ(p.attach_group(g, nullptr), errc::ok);
  task a, b;
  for (task* t : {&a, &b}) {
    ASSERT_EQ(p.setup(*t, normal(0)), errc::ok);
    ASSERT_EQ(p.set_group(*t, &g, t0), errc::ok);
  }
  p.enqueue(a, t0, enqueue_flags::none);
  ASSERT_EQ(p.pick_next(t0), &a);
  p.set_next(a, t0);
  p.enqueue(b, t0, enqueue_flags::none);
  EXPECT_FALSE(p.change_resched(a, change(120, 125), t0)) << "one group entity at the root";
  task c;
  ASSERT_EQ(p.setup(c, normal(0)), errc::ok);
  p.enqueue(c, t0, enqueue_flags::none);  // at the root, beside the group
  EXPECT_TRUE(p.change_resched(a, change(120, 125), t0)) << "two entities at the root";
}

// 2.6's core (2.6.22 sched.c, 2.6.23 sched.c): sched_setscheduler and rt_mutex_setprio `if
// (task_running(rq, p)) { if (p->prio > oldprio) resched_task(rq->curr); }`; set_user_nice
// `if (delta < 0 || (delta > 0 && task_running(rq, p))) resched_task(rq->curr);`.
template <class P, class T>
void expect_core26() {
  P p;
  T a;
  EXPECT_TRUE(p.change_resched(a, change(120, 121), t0));
  EXPECT_FALSE(p.change_resched(a, change(121, 120), t0)) << "sched_setscheduler to a better priority";
  EXPECT_FALSE(p.change_resched(a, change(120, 120), t0)) << "sched_setscheduler, same priority";
  EXPECT_TRUE(p.change_resched(a, change(49, 120), t0)) << "leaves RT: a worse priority";
  EXPECT_TRUE(p.change_resched(a, change(121, 120, false, true), t0)) << "set_user_nice, delta < 0";
  EXPECT_TRUE(p.change_resched(a, change(120, 121, false, true), t0)) << "set_user_nice, delta > 0, running";
  EXPECT_FALSE(p.change_resched(a, change(120, 120, false, true), t0)) << "set_user_nice, delta 0 (a clamped bonus)";
}

TEST(ChangeResched, O1FollowsTwoSixTwentyTwosCore) {
  struct task : o1_entity {
    int sched_class = 0;
  };
  expect_core26<o1_policy<task>, task>();
}
TEST(ChangeResched, SdFollowsTwoSixTwentyTwosCore) {
  struct task : sd_entity {
    int sched_class = 0;
  };
  expect_core26<sd_policy<task>, task>();
}
TEST(ChangeResched, Cfs2007FollowsTwoSixTwentyThreesCore) {
  struct task : cfs2007_entity {
    int sched_class = 0;
  };
  expect_core26<cfs2007_policy<task>, task>();
}

// 2.6.0's set_user_nice: `if ((NICE_TO_PRIO(nice) < p->static_prio) || task_running(rq, p))
// resched_task(rq->curr);`, tested after static_prio was set: the running task is rescheduled
// at every (real) nice change, whatever its priority does.
TEST(ChangeResched, NickschedReschedulesAtEveryNiceChangeAsTwoSixZero) {
  struct task : nicksched_entity {
    int sched_class = 0;
  };
  nicksched_policy<task> p;
  task a;
  EXPECT_TRUE(p.change_resched(a, change(130, 130, false, true), t0));
  EXPECT_TRUE(p.change_resched(a, change(131, 125, false, true), t0));
  EXPECT_TRUE(p.change_resched(a, change(49, 130), t0));
  EXPECT_FALSE(p.change_resched(a, change(131, 130), t0));
}

// 2.4's setscheduler(): `current->need_resched = 1;` whatever changed; sys_setpriority's
// set_one_prio only writes `p->nice = niceval;`.
TEST(ChangeResched, Goodness24ReschedulesAtSetschedulerNotAtNice) {
  struct task : goodness24_entity {
    int sched_class = 0;
  };
  goodness24_policy<task> p;
  task a;
  EXPECT_TRUE(p.change_resched(a, change(120, 120), t0));
  EXPECT_TRUE(p.change_resched(a, change(121, 120), t0));
  EXPECT_FALSE(p.change_resched(a, change(120, 125, false, true), t0));
  EXPECT_FALSE(p.change_resched(a, change(125, 120, false, true), t0));
}

// MuQSS.c (the BFS successor bfs_policy follows): set_user_nice, for the running task, `else if
// (task_running(rq, p)) { set_rq_task(rq, p); if (old_static < new_static) resched_task(p); }`;
// __setscheduler: `if (task_running(rq, p)) { ...; resched_task(p); }` whatever changed.
TEST(ChangeResched, BfsFollowsMuqssSetUserNiceAndSetscheduler) {
  struct task : bfs_entity {
    int sched_class = 0;
  };
  using bfs = bfs_policy<task>;
  bfs p;
  task a;
  // Through policy_traits, as the core asks: a policy without the hook reschedules always.
  EXPECT_TRUE(policy_traits<bfs>::change_resched(p, a, change(120, 125, false, true), t0)) << "nice 0 -> 5";
  EXPECT_FALSE(policy_traits<bfs>::change_resched(p, a, change(125, 120, false, true), t0)) << "nice 5 -> 0";
  EXPECT_TRUE(policy_traits<bfs>::change_resched(p, a, change(120, 120), t0)) << "normal -> batch";
  EXPECT_TRUE(policy_traits<bfs>::change_resched(p, a, change(125, 120), t0)) << "sched_setattr to nice 0";
  EXPECT_TRUE(policy_traits<bfs>::change_resched(p, a, change(49, 120, true), t0)) << "from SCHED_FIFO";
}

// prio_changed_rt (SMP): `if (p->prio > rq->rt.highest_prio.curr) resched_curr(rq);` for the
// running task (highest_prio.curr counts it: it stays queued); switched_to_rt does nothing for
// a running task but update_rt_rq_load_avg; check_class_changed calls prio_changed only when
// `oldprio != p->prio`.
TEST(ChangeResched, RtReschedulesOnlyForAMoreUrgentWaiter) {
  struct task : rt_entity {
    int sched_class = 0;
  };
  rt_policy<task> p;
  task a, b;
  ASSERT_EQ(p.setup(a, fifo(50)), errc::ok);
  ASSERT_EQ(p.setup(b, fifo(40)), errc::ok);
  p.enqueue(a, t0, enqueue_flags::none);
  ASSERT_EQ(p.pick_next(t0), &a);
  p.set_next(a, t0);
  p.enqueue(b, t0, enqueue_flags::none);
  EXPECT_FALSE(p.change_resched(a, change(49, 49, false, false), t0)) << "RR -> FIFO at 50: prio_changed not called";
  // a lowered to 40 (prio 59): b (59) is not more urgent, and a is at the head of 59.
  p.dequeue(a, t0, dequeue_flags::save);
  ASSERT_EQ(p.setup(a, fifo(40)), errc::ok);
  p.enqueue(a, t0, enqueue_flags::restore | enqueue_flags::head);
  p.set_next(a, t0);
  EXPECT_FALSE(p.change_resched(a, change(49, 59), t0)) << "an equal waiter does not preempt";
  // a lowered to 30 (prio 69): b (59) waits, more urgent.
  p.dequeue(a, t0, dequeue_flags::save);
  ASSERT_EQ(p.setup(a, fifo(30)), errc::ok);
  p.enqueue(a, t0, enqueue_flags::restore | enqueue_flags::head);
  p.set_next(a, t0);
  EXPECT_TRUE(p.change_resched(a, change(59, 69), t0));
  EXPECT_FALSE(p.change_resched(a, change(120, 69, true), t0)) << "switched_to_rt: a running task is not rescheduled";
}

// prio_changed_dl (SMP): `if (dl_time_before(rq->dl.earliest_dl.curr, p->dl.deadline))
// resched_curr(rq);` for the running task; switched_to_dl: `if (rq->curr != p) {...} else
// update_dl_rq_load_avg(...)`.
TEST(ChangeResched, EdfReschedulesOnlyForAnEarlierReadyDeadline) {
  struct task : edf_entity {
    int sched_class = 0;
  };
  edf_policy<task> p;
  task a, b;
  ASSERT_EQ(p.setup(a, sched_params{sched_kind::deadline, 0, 0, msec(1), msec(10), msec(10)}), errc::ok);
  ASSERT_EQ(p.setup(b, sched_params{sched_kind::deadline, 0, 0, msec(1), msec(20), msec(20)}), errc::ok);
  p.enqueue(a, t0, enqueue_flags::none);
  ASSERT_EQ(p.pick_next(t0), &a);
  p.set_next(a, t0);
  p.enqueue(b, t0, enqueue_flags::none);
  EXPECT_FALSE(p.change_resched(a, change(-1, -1), t0)) << "a's deadline (10 ms) is the earliest";
  EXPECT_FALSE(p.change_resched(a, change(120, -1, true), t0)) << "switched_to_dl";
  // c wakes with an earlier deadline (5 ms): ready here, not yet picked.
  task c;
  ASSERT_EQ(p.setup(c, sched_params{sched_kind::deadline, 0, 0, msec(1), msec(5), msec(5)}), errc::ok);
  p.enqueue(c, t0, enqueue_flags::wakeup);
  EXPECT_TRUE(p.change_resched(a, change(-1, -1), t0));
  EXPECT_FALSE(p.change_resched(a, change(120, -1, true), t0)) << "switched_to_dl, even then";
}

// check_class_changed asks the class the task is in after the change; a class without the hook
// leaves the reschedule to the caller (the default: true).
TEST(ChangeResched, TheStackAsksTheTasksNewClassAndDefaultsToTrue) {
  struct task : rt_entity, goodness24_entity {
    int sched_class = 0;
  };
  struct plain {  // a class without the optional hook
    using task_type = task;
    void enqueue(task&, sched_time, enqueue_flags) noexcept {}
    void dequeue(task&, sched_time, dequeue_flags) noexcept {}
    task* pick_next(sched_time) noexcept { return nullptr; }
    void set_next(task&, sched_time) noexcept {}
    void put_prev(task&, sched_time) noexcept {}
    bool tick(task&, sched_time) noexcept { return false; }
    bool wakeup_preempt(task&, task&, sched_time) noexcept { return false; }
    usize nr_runnable() const noexcept { return 0; }
  };
  class_stack<member_sched_class, rt_policy<task>, goodness24_policy<task>, plain> s;
  task t;
  t.sched_class = 1;  // goodness24: a nice change never reschedules
  EXPECT_FALSE(s.change_resched(t, change(120, 125, false, true), t0));
  t.sched_class = 0;  // rt, entered with the change: switched_to_rt
  EXPECT_FALSE(s.change_resched(t, change(120, 49, true), t0));
  t.sched_class = 2;
  EXPECT_TRUE(s.change_resched(t, change(120, 125, false, true), t0));
  EXPECT_TRUE(policy_traits<plain>::change_resched(s.get<2>(), t, change(125, 120), t0));
}

}  // namespace
