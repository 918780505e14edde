// edf_policy's deadline inheritance (boost / deboost): rt_mutex_setprio with a deadline waiter
// and the deadline.c rules for a boosted entity (pi_se): replenish_dl_entity with the donor's Q
// and P (a fresh period from now for a non-deadline owner, dl_deadline == 0), no throttling
// (update_curr_dl replenishes a boosted task at once, enqueue_task_dl lifts a throttle), no
// constrained-deadline rule (dl_check_constrained_dl) and no revised wakeup rule
// (update_dl_entity), the new period and the overflow test on the donor's D and Q, and a deadline
// owner boosted only by an earlier deadline (dl_entity_preempt). Every timeline is worked by
// hand in the comments, from t0 = 1 s, with 1 ms ticks.
#include <gtest/gtest.h>

#include <cstdint>

#include "check_recorder.hpp"
#include "schedcore/policy/edf.hpp"

namespace {

using namespace schedcore;

struct task : edf_entity {};
using policy_t = edf_policy<task>;

sched_params dl(std::int64_t q, std::int64_t d, std::int64_t p = 0) {
  return sched_params{sched_kind::deadline, 0, 0, q, d, p};
}
sched_time at(std::int64_t us) { return sched_time{sec(1)} + usec(us); }

// A deadline task that woke at `when` and blocked at once (on the owner's mutex): its deadline
// is when + D, with its whole budget.
void wake_and_block(policy_t& p, task& t, sched_time when) {
  p.enqueue(t, when, enqueue_flags::wakeup);
  p.dequeue(t, when, dequeue_flags::sleep);
}

// `owner`, of another class, holds the mutex that `donor` (2 ms / 10 ms, woken and blocked at
// 0) waits for: boosted, restored and running at 0.
void run_boosted(policy_t& p, task& donor, task& owner) {
  ASSERT_EQ(p.setup(donor, dl(msec(2), msec(10))), errc::ok);
  wake_and_block(p, donor, at(0));
  ASSERT_EQ(p.boost(owner, donor), errc::ok);
  EXPECT_TRUE(policy_t::is_boosted(owner));
  EXPECT_FALSE(owner.admitted);
  p.enqueue(owner, at(0), enqueue_flags::restore);
  p.set_next(owner, at(0));
}

// A task of another class holding the mutex a 2 ms / 10 ms reservation waits for runs on that
// reservation: a fresh period at the boost (d = 10 ms, q = 2 ms), and at each spent budget a
// fresh one from then (dl_deadline == 0): d = 12, 14, ..., 20 ms, never throttled. It adds no
// bandwidth. Asleep it keeps its budget while the wakeup rule allows, and starts a period when
// its deadline has passed. Deboosted, it leaves with nothing kept.
TEST(EdfInheritance, ANonDeadlineOwnerRunsOnTheDonorsReservationUnthrottled) {
  policy_t p;
  task donor, owner;
  run_boosted(p, donor, owner);
  EXPECT_EQ(owner.deadline, at(10000));
  EXPECT_EQ(owner.runtime, msec(2));
  for (int ms = 1; ms <= 10; ++ms) {
    EXPECT_FALSE(p.tick(owner, at(ms * 1000))) << ms;
    EXPECT_FALSE(owner.throttled) << ms;
    if (ms % 2 == 0) {
      EXPECT_EQ(owner.deadline, at((ms + 10) * 1000)) << ms;
    }
  }
  EXPECT_EQ(owner.deadline, at(20000));
  EXPECT_EQ(owner.runtime, msec(2));
  sched_time when{};
  EXPECT_FALSE(p.next_timer(when)) << "no replenishment timer for a boosted task";
  EXPECT_EQ(p.running_bw(), 0u) << "the owner counts nothing; the donor blocked at its 0-lag time";
  EXPECT_EQ(p.this_bw(), donor.dl_bw) << "the owner adds nothing to the donor's share";
  EXPECT_TRUE(p.verify());
  // Asleep at 10.5 ms with q = 1.5 ms, woken at 11 ms: q/(d - now) = 1.5/9 < 2/10 (in us units:
  // 9765 x 1464 < 8789 x 1953), so d = 20 ms and q stay.
  p.dequeue(owner, at(10500), dequeue_flags::sleep);
  EXPECT_EQ(owner.runtime, usec(1500));
  EXPECT_TRUE(p.verify());
  p.enqueue(owner, at(11000), enqueue_flags::wakeup);
  EXPECT_EQ(owner.deadline, at(20000));
  EXPECT_EQ(owner.runtime, usec(1500));
  // Asleep again, woken at 19 ms: 1.5/1 > 2/10 on the donor's Q and D (9765 x 1464 > 976 x
  // 1953; the owner's own D and Q are 0): a new period, d = 29 ms, q = 2 ms.
  p.dequeue(owner, at(11000), dequeue_flags::sleep);
  p.enqueue(owner, at(19000), enqueue_flags::wakeup);
  EXPECT_EQ(owner.deadline, at(29000));
  EXPECT_EQ(owner.runtime, msec(2));
  // Asleep again, woken at 40 ms, past d: a new period of the donor's, d = 50 ms.
  p.dequeue(owner, at(19000), dequeue_flags::sleep);
  p.enqueue(owner, at(40000), enqueue_flags::wakeup);
  EXPECT_EQ(owner.deadline, at(50000));
  EXPECT_EQ(owner.runtime, msec(2));
  EXPECT_TRUE(p.verify());
  // The unlock: it leaves the class with nothing kept, and a later boost starts afresh.
  p.dequeue(owner, at(41000), dequeue_flags::save);
  p.deboost(owner);
  EXPECT_FALSE(policy_t::is_boosted(owner));
  EXPECT_TRUE(owner.dl_new);
  p.switched_from(owner, at(41000));
  EXPECT_EQ(p.nr_runnable(), 0u);
  EXPECT_TRUE(p.verify());
  schedcore_test::check_scope scope;
  p.enqueue(owner, at(42000), enqueue_flags::wakeup);  // not a deadline task any more
  EXPECT_EQ(scope.take().size(), 1u);
  EXPECT_EQ(p.nr_runnable(), 0u);
}

// A yield while boosted is a spent budget replenished at once: for a non-deadline owner at
// 0.5 ms, a fresh period (d = 10.5 ms, q = 2 ms), the yield's q = 0, then d += 10 ms: 20.5 ms.
TEST(EdfInheritance, AYieldWhileBoostedIsReplenishedAtOnce) {
  policy_t p;
  task donor, owner;
  run_boosted(p, donor, owner);
  p.yield(owner, at(500));
  EXPECT_FALSE(owner.throttled);
  EXPECT_EQ(owner.deadline, at(20500));
  EXPECT_EQ(owner.runtime, msec(2));
  EXPECT_EQ(p.pick_next(at(500)), &owner);
  EXPECT_TRUE(p.verify());
}

// A deadline owner (1 ms / 100 ms, d = 100 ms) is boosted by a waiter whose deadline is earlier
// (2 ms / 10 ms, d = 10 ms), not by one whose deadline is later (d = 200 ms). Boosted, it keeps
// its own deadline (the restore's replenishment has nothing to do with q > 0), and at each spent
// budget it is replenished with the donor's: d += 10 ms, q += 2 ms (110 ms at 1 ms, 120 ms at
// 4 ms, after the other owner's 1 ms turn). An owner the later waiter does not boost is
// throttled when its budget is spent (2 ms) until 100 ms. Deboosted at 4.5 ms with q = 1.5 ms,
// the owner is throttled when that is spent (6 ms) until its own next period, d − D + P = 120 ms.
TEST(EdfInheritance, ADeadlineOwnerIsBoostedOnlyByAnEarlierDeadline) {
  policy_t p;
  task owner, other, early, late;
  ASSERT_EQ(p.setup(owner, dl(msec(1), msec(100))), errc::ok);
  ASSERT_EQ(p.setup(other, dl(msec(1), msec(100))), errc::ok);
  ASSERT_EQ(p.setup(early, dl(msec(2), msec(10))), errc::ok);
  ASSERT_EQ(p.setup(late, dl(msec(1), msec(200))), errc::ok);
  wake_and_block(p, early, at(0));
  wake_and_block(p, late, at(0));
  p.enqueue(owner, at(0), enqueue_flags::wakeup);
  p.enqueue(other, at(0), enqueue_flags::wakeup);
  EXPECT_EQ(p.boost(owner, early), errc::busy) << "queued: dequeue(save) first";
  EXPECT_FALSE(policy_t::is_boosted(owner));
  p.dequeue(owner, at(0), dequeue_flags::save);
  p.dequeue(other, at(0), dequeue_flags::save);
  ASSERT_EQ(p.boost(owner, late), errc::ok);
  EXPECT_FALSE(policy_t::is_boosted(owner)) << "the waiter's deadline is later";
  ASSERT_EQ(p.boost(owner, early), errc::ok);
  EXPECT_TRUE(policy_t::is_boosted(owner));
  ASSERT_EQ(p.boost(other, late), errc::ok);
  EXPECT_FALSE(policy_t::is_boosted(other));
  p.enqueue(owner, at(0), enqueue_flags::restore);
  p.enqueue(other, at(0), enqueue_flags::restore);
  EXPECT_EQ(owner.deadline, at(100000));
  EXPECT_EQ(owner.runtime, msec(1));
  p.set_next(owner, at(0));
  EXPECT_TRUE(p.tick(owner, at(1000))) << "d = 110 ms: the other owner (100 ms) is now earlier";
  EXPECT_FALSE(owner.throttled);
  EXPECT_EQ(owner.deadline, at(110000));
  EXPECT_EQ(owner.runtime, msec(2));
  p.put_prev(owner, at(1000));
  p.set_next(other, at(1000));
  EXPECT_TRUE(p.tick(other, at(2000)));
  EXPECT_TRUE(other.throttled);
  EXPECT_EQ(other.timer_at, at(100000));
  p.put_prev(other, at(2000));
  EXPECT_EQ(p.pick_next(at(2000)), &owner);
  p.set_next(owner, at(2000));
  EXPECT_FALSE(p.tick(owner, at(3000)));
  EXPECT_FALSE(p.tick(owner, at(4000)));  // q = 0 at 4 ms: d = 120 ms, q = 2 ms
  EXPECT_EQ(owner.deadline, at(120000));
  EXPECT_EQ(owner.runtime, msec(2));
  // The unlock at 4.5 ms: its own reservation again, with the budget it has (1.5 ms).
  p.dequeue(owner, at(4500), dequeue_flags::save);
  p.deboost(owner);
  EXPECT_FALSE(policy_t::is_boosted(owner));
  p.enqueue(owner, at(4500), enqueue_flags::restore);
  EXPECT_EQ(owner.deadline, at(120000));
  EXPECT_EQ(owner.runtime, usec(1500));
  p.set_next(owner, at(4500));
  EXPECT_FALSE(p.tick(owner, at(5000)));
  EXPECT_TRUE(p.tick(owner, at(6000)));
  EXPECT_TRUE(owner.throttled);
  EXPECT_EQ(owner.timer_at, at(120000));
  EXPECT_TRUE(p.verify());
}

// A deadline owner (1 ms / 100 ms) that spent its budget at 1 ms, throttled until 100 ms, whose
// mutex a waiter with d = 10 ms (2 ms / 10 ms) then waits for.
class EdfThrottledOwner : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(p.setup(owner, dl(msec(1), msec(100))), errc::ok);
    ASSERT_EQ(p.setup(donor, dl(msec(2), msec(10))), errc::ok);
    p.enqueue(owner, at(0), enqueue_flags::wakeup);
    p.set_next(owner, at(0));
    EXPECT_TRUE(p.tick(owner, at(1000)));
    ASSERT_TRUE(owner.throttled);
    wake_and_block(p, donor, at(0));
  }
  // No replenishment timer is armed, and the queue is whole.
  void expect_no_timer() {
    sched_time when{};
    EXPECT_FALSE(p.next_timer(when));
    EXPECT_TRUE(p.verify());
  }
  policy_t p;
  task owner, donor;
};

// Boosted at 1 ms while queued: the boost lifts the throttle and the restore replenishes it with
// the donor's, q = 0 + 2 ms, d = 100 + 10 = 110 ms; it runs at once, with no timer armed.
// Unboosted it would wait until 100 ms.
TEST_F(EdfThrottledOwner, ABoostLiftsTheThrottleOfAQueuedOwner) {
  p.dequeue(owner, at(1000), dequeue_flags::save);
  ASSERT_EQ(p.boost(owner, donor), errc::ok);
  p.enqueue(owner, at(1000), enqueue_flags::restore);
  EXPECT_FALSE(owner.throttled);
  EXPECT_EQ(owner.deadline, at(110000));
  EXPECT_EQ(owner.runtime, msec(2));
  EXPECT_EQ(p.pick_next(at(1000)), &owner);
  expect_no_timer();
}

// Blocked throttled at 1 ms and boosted asleep: the throttle is lifted at its wakeup (2 ms), with
// d = 100 ms and q = 0 kept (no overflow with nothing left); its next charge (3 ms, q = −1 ms)
// replenishes it with the donor's: d = 110 ms, q = 1 ms.
TEST_F(EdfThrottledOwner, ABoostLiftsTheThrottleOfASleepingOwnerAtItsWakeup) {
  p.dequeue(owner, at(1000), dequeue_flags::sleep);
  ASSERT_EQ(p.boost(owner, donor), errc::ok);
  p.enqueue(owner, at(2000), enqueue_flags::wakeup);
  EXPECT_FALSE(owner.throttled);
  EXPECT_EQ(owner.deadline, at(100000));
  EXPECT_EQ(owner.runtime, 0);
  ASSERT_EQ(p.pick_next(at(2000)), &owner);
  p.set_next(owner, at(2000));
  EXPECT_FALSE(p.tick(owner, at(3000)));
  EXPECT_EQ(owner.deadline, at(110000));
  EXPECT_EQ(owner.runtime, msec(1));
  expect_no_timer();
}

// The constrained-deadline rule and the revised wakeup rule are not applied to a boosted task,
// and its wakeup rule reads the donor's D and Q. Owner 1 ms / D 5 ms / P 100 ms (d = 5 ms),
// donor 2 ms / D 4 ms / P 10 ms (d = 4 ms, earlier: it boosts).
// - Woken at 6 ms, after its deadline, before its next period (100 ms): unboosted it is
//   throttled until 100 ms; boosted, a new period of the donor's: d = 10 ms, q = 2 ms.
// - Woken at 4.5 ms, before its deadline, with its budget whole: unboosted the revised rule
//   trims q to dl_density x 0.5 ms = (1/5 << 20 truncated) x 0.5 ms >> 20 = 99 999 ns; boosted
//   it overflows the donor's 2/4 too (976 x 3906 > 488 x 1953) and starts the donor's period:
//   d = 8.5 ms, q = 2 ms.
TEST(EdfInheritance, TheConstrainedRulesDoNotApplyToABoostedTask) {
  for (const std::int64_t wake_us : {6000, 4500}) {
    policy_t p;
    task plain, owner, donor;
    ASSERT_EQ(p.setup(plain, dl(msec(1), msec(5), msec(100))), errc::ok);
    ASSERT_EQ(p.setup(owner, dl(msec(1), msec(5), msec(100))), errc::ok);
    ASSERT_EQ(p.setup(donor, dl(msec(2), msec(4), msec(10))), errc::ok);
    wake_and_block(p, plain, at(0));
    wake_and_block(p, owner, at(0));
    wake_and_block(p, donor, at(0));
    ASSERT_EQ(p.boost(owner, donor), errc::ok);
    ASSERT_TRUE(policy_t::is_boosted(owner));
    p.enqueue(plain, at(wake_us), enqueue_flags::wakeup);
    p.enqueue(owner, at(wake_us), enqueue_flags::wakeup);
    if (wake_us == 6000) {
      EXPECT_TRUE(plain.throttled);
      EXPECT_EQ(plain.timer_at, at(100000));
      EXPECT_FALSE(owner.throttled);
      EXPECT_EQ(owner.deadline, at(10000));
      EXPECT_EQ(owner.runtime, msec(2));
    } else {
      EXPECT_EQ(plain.deadline, at(5000));
      EXPECT_EQ(plain.runtime, 99999);
      EXPECT_EQ(owner.deadline, at(8500));
      EXPECT_EQ(owner.runtime, msec(2));
    }
    EXPECT_TRUE(p.verify());
  }
}

// Chains and bad input. An owner boosted through another boosted owner runs on the top donor's
// reservation (pi_task->dl.pi_se). Refused with no change: a donor that is not a deadline task
// nor boosted, the task itself, a cycle back to the task (its own reservation lent back), a
// queued task (busy).
TEST(EdfInheritance, ChainsLendTheTopDonorsReservationAndBadInputChangesNothing) {
  policy_t p;
  task donor, first, second, stranger;
  ASSERT_EQ(p.setup(donor, dl(msec(2), msec(10))), errc::ok);
  wake_and_block(p, donor, at(0));
  ASSERT_EQ(p.boost(first, donor), errc::ok);
  ASSERT_EQ(p.boost(second, first), errc::ok);
  EXPECT_EQ(second.pi_se, static_cast<const edf_entity*>(&donor));
  EXPECT_EQ(p.boost(stranger, second), errc::ok);
  EXPECT_EQ(stranger.pi_se, static_cast<const edf_entity*>(&donor));
  p.deboost(stranger);
  EXPECT_EQ(p.boost(stranger, task{}), errc::invalid_argument) << "the donor is not a deadline task";
  EXPECT_EQ(p.boost(donor, donor), errc::invalid_argument);
  EXPECT_EQ(p.boost(donor, second), errc::invalid_argument) << "second runs on donor's own reservation";
  EXPECT_EQ(donor.pi_se, nullptr);
  EXPECT_FALSE(policy_t::is_boosted(stranger));
  p.enqueue(second, at(0), enqueue_flags::restore);
  EXPECT_EQ(p.boost(second, donor), errc::busy);
  EXPECT_EQ(second.pi_se, static_cast<const edf_entity*>(&donor));
  schedcore_test::check_scope scope;
  p.deboost(second);  // still queued: refused and reported
  EXPECT_EQ(scope.take().size(), 1u);
  EXPECT_TRUE(policy_t::is_boosted(second));
  EXPECT_TRUE(p.verify());
}

// Random schedules of boosts and deboosts on one queue (fixed seed, 200 000 steps): three
// donors that woke once and wait (blocked) for good, three deadline owners and two owners of
// another class (in this class only while boosted), sleeping, waking, running, yielding,
// boosted and deboosted at random, queued or asleep. After every step: the queue verifies, no
// check fired, a queued boosted task is never throttled nor waits for a timer (it is
// replenished at once; one asleep keeps a throttle until its wakeup lifts it), the admitted bandwidth is the deadline tasks' alone and the active one counts no owner
// of another class, and a queue with a ready task picks one.
TEST(EdfInheritance, RandomBoostsNeverThrottleAndAddNoBandwidth) {
  policy_t p;
  policy_t::knobs k;
  k.bound = -1;
  ASSERT_EQ(p.configure(k), errc::ok);
  constexpr int nr_donors = 3, nr_owners = 5, nr_deadline_owners = 3;
  task donors[nr_donors], owners[nr_owners];
  bool queued[nr_owners] = {}, in_class[nr_owners] = {};
  std::uint64_t admitted = 0;
  for (int i = 0; i < nr_donors; ++i) {
    ASSERT_EQ(p.setup(donors[i], dl(usec(300) * (i + 1), msec(2) * (i + 1), msec(4) * (i + 1))), errc::ok);
    admitted += donors[i].dl_bw;
  }
  for (int i = 0; i < nr_deadline_owners; ++i) {
    ASSERT_EQ(p.setup(owners[i], dl(usec(200) * (i + 1), msec(3) * (i + 1), msec(5) * (i + 1))), errc::ok);
    admitted += owners[i].dl_bw;
    in_class[i] = true;
  }
  std::uint64_t s = 2026;
  auto next = [&] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return s >> 33;
  };
  sched_time now = at(0);
  for (task& d : donors) wake_and_block(p, d, now);
  task* curr = nullptr;
  schedcore_test::check_scope scope;
  for (int step = 0; step < 200000; ++step) {
    now = now + static_cast<std::int64_t>(next() % 1500 + 1) * 1000;
    if (p.timer(now) || (curr != nullptr && p.tick(*curr, now))) {
      if (curr != nullptr) p.put_prev(*curr, now);
      curr = nullptr;
    }
    const int i = static_cast<int>(next() % nr_owners);
    task& t = owners[i];
    const unsigned op = static_cast<unsigned>(next() % 6);
    if (op == 0 && in_class[i] && !queued[i]) {  // a wakeup
      p.enqueue(t, now, enqueue_flags::wakeup);
      queued[i] = true;
    } else if (op == 1 && queued[i]) {  // it blocks
      if (curr == &t) curr = nullptr;
      p.dequeue(t, now, dequeue_flags::sleep);
      queued[i] = false;
    } else if (op == 2 && curr == &t) {
      p.yield(t, now);
      p.put_prev(t, now);
      curr = nullptr;
    } else if (op == 3 || op == 4) {  // a donor starts or stops waiting for one of its mutexes
      const bool running = curr == &t;
      if (queued[i]) p.dequeue(t, now, dequeue_flags::save);
      if (running) curr = nullptr;
      if (op == 3) {
        ASSERT_EQ(p.boost(t, donors[next() % nr_donors]), errc::ok) << step;
        in_class[i] = true;
      } else {
        p.deboost(t);
        if (i >= nr_deadline_owners) {  // back to its own class, with nothing kept here
          p.switched_from(t, now);
          in_class[i] = false;
          queued[i] = false;
        }
      }
      if (queued[i]) {
        p.enqueue(t, now, enqueue_flags::restore);
        if (running) {
          p.set_next(t, now);
          curr = &t;
        }
      }
    }
    if (curr == nullptr) {
      if (task* n = p.pick_next(now)) {
        p.set_next(*n, now);
        curr = n;
      }
    }
    ASSERT_TRUE(p.verify()) << step;
    ASSERT_TRUE(scope.take().empty()) << step;
    std::uint64_t active = 0;
    bool ready = false;
    for (int k2 = 0; k2 < nr_owners; ++k2) {
      const task& o = owners[k2];
      if (policy_t::is_boosted(o) && queued[k2]) {  // asleep, a throttle waits for its wakeup to be lifted
        ASSERT_FALSE(o.throttled) << step << " owner " << k2;
        ASSERT_FALSE(o.timer_armed) << step << " owner " << k2;
      }
      if (k2 >= nr_deadline_owners) {
        ASSERT_EQ(o.dl_bw, 0u) << step;
        ASSERT_TRUE(o.active_rq == nullptr || o.active_bw == 0u) << step << " owner " << k2;  // counts nothing active
      }
      if (o.active_rq != nullptr) active += o.active_bw;
      ready = ready || (queued[k2] && o.in_ready);
    }
    for (const task& d : donors)
      if (d.active_rq != nullptr) active += d.active_bw;
    ASSERT_EQ(p.running_bw(), active) << step;
    ASSERT_EQ(p.total_bandwidth(), admitted) << step;
    ASSERT_TRUE(!ready || curr != nullptr) << step;
  }
}

}  // namespace
