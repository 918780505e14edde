// The custom-policy example (examples/custom-policy/stride.hpp), tested as its users would test
// their own policy: against the paper's guarantees, not against its own code.
//
// Oracles (C. A. Waldspurger and W. E. Weihl, "Stride Scheduling", MIT/LCS/TM-528, 1995):
// - Tickets 3:2:1 allocate 3, 2 and 1 of every 6 quanta, in every period of 6.
// - The relative throughput error of any pair of clients is at most one quantum, at every
//   point of the schedule: |a_i - (a_i + a_j) t_i / (t_i + t_j)| <= 1, a = quanta received.
// - Dynamic participation: a client that leaves keeps remain = pass - global_pass and rejoins
//   at global_pass + remain; a new client starts one stride (one quantum) after global_pass.
// - Ticket modification: a ticket change scales remain by old/new tickets.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "../../examples/custom-policy/stride.hpp"
#include "check_recorder.hpp"
#include "schedcore/policy/class_stack.hpp"
#include "schedcore/policy/policy.hpp"

namespace {

using namespace schedcore;
using stride_example::stride_entity;

struct task : stride_entity {
  int id = 0;
  int sched_class = 0;  // the class_stack index (member_sched_class): one class here
};
using policy_t = stride_example::stride_policy<task>;
static_assert(check_policy<policy_t>(), "the example models the policy contract");

constexpr s64 quantum = msec(10);

// The fixed-point inverse of a ticket count (2^32 / tickets, rounded down, as the kernel's
// inverse weights) makes a charge of d ns short of the exact d * 1024 / tickets by at most
// about d / 2^22 + 1 ns (include/schedcore/policy/fair_weights.hpp).
double charge_tolerance(s64 d) { return static_cast<double>(d) / 4194304.0 + 1.0; }

// One quantum at a time, as the paper allocates: pick, run a whole quantum, put back.
struct quantum_driver {
  policy_t p;
  sched_time now;
  explicit quantum_driver(sched_time start = sched_time{}) : now(start) {}
  task* run_quantum() {
    task* t = p.pick_next(now);
    if (t == nullptr) return nullptr;
    p.set_next(*t, now);
    now += quantum;
    EXPECT_TRUE(p.tick(*t, now)) << "a whole quantum asks for the CPU back";
    p.put_prev(*t, now);
    return t;
  }
};

// Pairwise relative error of the allocation so far, in quanta (the paper's measure).
double worst_pair_error(const std::vector<long>& got, const std::vector<double>& tickets) {
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    for (std::size_t j = i + 1; j < got.size(); ++j) {
      const double both = static_cast<double>(got[i] + got[j]);
      const double err = std::fabs(static_cast<double>(got[i]) - both * tickets[i] / (tickets[i] + tickets[j]));
      worst = std::max(worst, err);
    }
  return worst;
}

TEST(StrideExample, ThreeTwoOneTicketsGetThreeTwoAndOneOfEverySixQuanta) {
  quantum_driver d;
  task t[3];
  const u32 tickets[3] = {3, 2, 1};
  for (int i = 0; i < 3; ++i) {
    t[i].id = i;
    ASSERT_EQ(d.p.set_tickets(t[i], tickets[i]), errc::ok);
    d.p.enqueue(t[i], d.now, enqueue_flags::initial);
  }
  std::vector<long> got(3, 0);
  for (int round = 0; round < 50; ++round) {
    for (int q = 0; q < 6; ++q) ++got[static_cast<std::size_t>(d.run_quantum()->id)];
    EXPECT_EQ(got[0], 3L * (round + 1)) << "round " << round;
    EXPECT_EQ(got[1], 2L * (round + 1)) << "round " << round;
    EXPECT_EQ(got[2], 1L * (round + 1)) << "round " << round;
  }
  EXPECT_TRUE(d.p.verify());
}

TEST(StrideExample, NiceZeroAgainstNiceFiveStaysWithinOneQuantumAtEveryStep) {
  quantum_driver d;
  task a, b;
  a.id = 0;
  b.id = 1;
  ASSERT_EQ(d.p.setup(a, sched_params{sched_kind::normal, 0}), errc::ok);
  ASSERT_EQ(d.p.setup(b, sched_params{sched_kind::normal, 5}), errc::ok);
  d.p.enqueue(a, d.now, enqueue_flags::initial);
  d.p.enqueue(b, d.now, enqueue_flags::initial);
  std::vector<long> got(2, 0);
  const std::vector<double> w = {1024, 335};  // sched_prio_to_weight[20], [25]
  double worst = 0;
  for (int q = 0; q < 4000; ++q) {
    ++got[static_cast<std::size_t>(d.run_quantum()->id)];
    worst = std::max(worst, worst_pair_error(got, w));
  }
  EXPECT_LE(worst, 1.0 + 1e-9);
  EXPECT_NEAR(static_cast<double>(got[0]) / 4000.0, 1024.0 / 1359.0, 1.0 / 4000.0);
}

// The pairwise bound over random ticket sets: eight clients, tickets 1..1000, 6000 quanta each set.
TEST(StrideExample, AnyPairStaysWithinOneQuantumForRandomTicketSets) {
  std::uint64_t s = 0x9e3779b97f4a7c15ull;
  auto rnd = [&s] {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  };
  for (int set = 0; set < 20; ++set) {
    quantum_driver d;
    task t[8];
    std::vector<double> tickets(8);
    for (int i = 0; i < 8; ++i) {
      t[i].id = i;
      const u32 n = static_cast<u32>(1 + rnd() % 1000);
      tickets[static_cast<std::size_t>(i)] = n;
      ASSERT_EQ(d.p.set_tickets(t[i], n), errc::ok);
      d.p.enqueue(t[i], d.now, enqueue_flags::initial);
    }
    std::vector<long> got(8, 0);
    double worst = 0;
    for (int q = 0; q < 6000; ++q) {
      ++got[static_cast<std::size_t>(d.run_quantum()->id)];
      worst = std::max(worst, worst_pair_error(got, tickets));
    }
    EXPECT_LE(worst, 1.0 + 1e-6) << "ticket set " << set;
    EXPECT_TRUE(d.p.verify());
  }
}

TEST(StrideExample, ANewClientStartsOneOfItsStridesAfterTheGlobalPass) {
  quantum_driver d;
  task a, b;
  ASSERT_EQ(d.p.set_tickets(a, 1024), errc::ok);
  ASSERT_EQ(d.p.set_tickets(b, 256), errc::ok);
  d.p.enqueue(a, d.now, enqueue_flags::initial);
  for (int q = 0; q < 3; ++q) d.run_quantum();
  // a alone holds every ticket: the global pass moved as a's pass did, one quantum per quantum.
  EXPECT_NEAR(static_cast<double>(d.p.global_pass() - vtime{}), 3.0 * quantum, 3 * charge_tolerance(quantum));
  d.p.enqueue(b, d.now, enqueue_flags::initial);
  EXPECT_NEAR(static_cast<double>(b.pass - d.p.global_pass()), 4.0 * quantum, charge_tolerance(4 * quantum))
      << "stride of 256 tickets = 1024/256 quanta of virtual time";
  EXPECT_EQ(d.p.total_tickets(), 1280u);
}

// A client that blocks after part of its quantum pays for the part it used (fractional quanta).
TEST(StrideExample, APartQuantumIsChargedForTheTimeUsed) {
  policy_t p;
  task a, b;
  ASSERT_EQ(p.set_tickets(a, 512), errc::ok);
  ASSERT_EQ(p.set_tickets(b, 512), errc::ok);
  sched_time now{};
  p.enqueue(a, now, enqueue_flags::initial);
  p.enqueue(b, now, enqueue_flags::initial);
  task* c = p.pick_next(now);
  p.set_next(*c, now);
  const vtime before = c->pass;
  now += msec(3);
  EXPECT_FALSE(p.tick(*c, now)) << "3 ms of a 10 ms quantum";
  p.dequeue(*c, now, dequeue_flags::sleep);
  EXPECT_NEAR(static_cast<double>(c->pass - before), msec(6), charge_tolerance(msec(6))) << "512 tickets: 2 virtual ns per ns";
  // The global pass moved at 1024 / 1024 tickets: 3 ms; remain is exactly the difference.
  EXPECT_NEAR(static_cast<double>(p.global_pass() - vtime{}), msec(3), charge_tolerance(msec(3)));
  EXPECT_EQ(c->remain, c->pass - p.global_pass());
}

TEST(StrideExample, ASleeperRejoinsWithTheRemainItLeftWith) {
  quantum_driver d;
  task a, b, c;
  a.id = 0;
  b.id = 1;
  c.id = 2;
  for (task* t : {&a, &b, &c}) {
    ASSERT_EQ(d.p.set_tickets(*t, 100), errc::ok);
    d.p.enqueue(*t, d.now, enqueue_flags::initial);
  }
  for (int q = 0; q < 7; ++q) d.run_quantum();
  const s64 left_with = c.pass - d.p.global_pass();
  d.p.dequeue(c, d.now, dequeue_flags::sleep);
  EXPECT_EQ(c.remain, left_with);
  for (int q = 0; q < 40; ++q) EXPECT_NE(d.run_quantum(), &c);
  d.p.enqueue(c, d.now, enqueue_flags::wakeup);
  EXPECT_EQ(c.pass - d.p.global_pass(), left_with);
  // No banked service: back among equals, c gets its third of the next quanta, within one.
  std::vector<long> got(3, 0);
  for (int q = 0; q < 300; ++q) ++got[static_cast<std::size_t>(d.run_quantum()->id)];
  for (long g : got) EXPECT_LE(std::labs(g - 100), 1L);
}

TEST(StrideExample, ATicketChangeScalesTheRemainByOldOverNewTickets) {
  quantum_driver d;
  task a, b;
  ASSERT_EQ(d.p.set_tickets(a, 1000), errc::ok);
  ASSERT_EQ(d.p.set_tickets(b, 1000), errc::ok);
  d.p.enqueue(a, d.now, enqueue_flags::initial);
  d.p.enqueue(b, d.now, enqueue_flags::initial);
  d.run_quantum();
  d.p.dequeue(b, d.now, dequeue_flags::save);
  const s64 remain = b.remain;
  ASSERT_EQ(d.p.set_tickets(b, 4000), errc::ok);
  EXPECT_NEAR(static_cast<double>(b.remain), static_cast<double>(remain) / 4.0, 2.0);
  d.p.enqueue(b, d.now, enqueue_flags::restore);
  EXPECT_EQ(b.pass - d.p.global_pass(), b.remain);
  EXPECT_TRUE(d.p.verify());
}

TEST(StrideExample, AWakeupNeverPreemptsAndBesideOneHogRunsAfterItsQuantum) {
  policy_t p;
  task hog, sleeper;
  sched_time now{};
  p.enqueue(hog, now, enqueue_flags::initial);
  p.set_next(hog, now);
  now += msec(4);
  EXPECT_FALSE(p.tick(hog, now));
  p.enqueue(sleeper, now, enqueue_flags::wakeup);
  EXPECT_FALSE(p.wakeup_preempt(sleeper, hog, now));
  now += msec(6);
  EXPECT_TRUE(p.tick(hog, now)) << "the quantum started 10 ms ago";
  p.put_prev(hog, now);
  EXPECT_EQ(p.pick_next(now), &sleeper) << "the newcomer is one quantum after the global pass, the hog two";
}

TEST(StrideExample, BadParametersAreRefusedAndChangeNothing) {
  policy_t p;
  task a;
  ASSERT_EQ(p.setup(a, sched_params{sched_kind::normal, 5}), errc::ok);
  const u32 w = a.tickets.weight;
  EXPECT_EQ(p.setup(a, sched_params{sched_kind::normal, 20}), errc::invalid_argument);
  EXPECT_EQ(p.setup(a, sched_params{sched_kind::normal, -21}), errc::invalid_argument);
  EXPECT_EQ(p.setup(a, sched_params{sched_kind::fifo, 0, 10}), errc::invalid_argument);
  EXPECT_EQ(p.set_tickets(a, 0), errc::out_of_range);
  EXPECT_EQ(p.set_tickets(a, stride_example::max_tickets + 1), errc::out_of_range);
  EXPECT_EQ(a.tickets.weight, w);
  p.enqueue(a, sched_time{}, enqueue_flags::initial);
  EXPECT_EQ(p.setup(a, sched_params{sched_kind::normal, 0}), errc::busy) << "queued: dequeue(save) first";
  EXPECT_EQ(a.tickets.weight, w);
  policy_t::knobs k;
  k.quantum = usec(50);
  EXPECT_EQ(p.configure(k), errc::invalid_argument);
  EXPECT_EQ(p.config().quantum, quantum);
}

TEST(StrideExample, DoubleEnqueueIsReportedAndRefused) {
  schedcore_test::check_scope scope;
  policy_t p;
  task a;
  p.enqueue(a, sched_time{}, enqueue_flags::initial);
  p.enqueue(a, sched_time{}, enqueue_flags::wakeup);
  EXPECT_EQ(scope.take().size(), 1u);
  EXPECT_EQ(p.nr_runnable(), 1u);
  EXPECT_TRUE(p.verify());
}

// The same schedule whether the clock starts at 0 or 30 ms before it wraps, with sleeps,
// wakeups and ticket changes, under a class_stack as a port drives it.
TEST(StrideExample, TheScheduleDoesNotDependOnWhereTheClockStarts) {
  auto run = [](sched_time start) {
    class_stack<member_sched_class, policy_t> rq;
    std::vector<int> picks;
    task t[4];
    sched_time now = start;
    for (int i = 0; i < 4; ++i) {
      t[i].id = i;
      EXPECT_EQ(rq.get<0>().setup(t[i], sched_params{sched_kind::normal, static_cast<s8>(i * 3 - 4)}), errc::ok);
      rq.enqueue(t[i], now, enqueue_flags::initial);
    }
    task* curr = rq.schedule(nullptr, false, now);
    for (int ms = 1; ms <= 400; ++ms) {
      now += msec(1);
      bool resched = rq.tick(*curr, now);
      if (ms % 37 == 0) {  // the running task sleeps; one asleep wakes
        rq.dequeue(*curr, now, dequeue_flags::sleep);
        for (task& o : t)
          if (!o.on_rq && &o != curr) {
            rq.enqueue(o, now, enqueue_flags::wakeup);
            break;
          }
        curr = rq.schedule(nullptr, false, now);
        resched = false;
      }
      if (ms % 101 == 0 && curr != &t[3] && t[3].on_rq) {  // renice a queued task
        rq.dequeue(t[3], now, dequeue_flags::save);
        EXPECT_EQ(rq.get<0>().setup(t[3], sched_params{sched_kind::normal, static_cast<s8>(ms % 7)}), errc::ok);
        rq.enqueue(t[3], now, enqueue_flags::restore);
      }
      if (resched) curr = rq.schedule(curr, true, now);
      picks.push_back(curr ? curr->id : -1);
      EXPECT_TRUE(rq.get<0>().verify());
    }
    return picks;
  };
  const auto from_zero = run(sched_time{});
  const auto near_wrap = run(sched_time{~0ull - static_cast<u64>(msec(30))});
  EXPECT_EQ(from_zero, near_wrap);
}

// The pass is a point on the wrapping virtual clock (vtime), ordered by the sign of the
// difference like every schedcore clock. A lone 1-ticket client moves the global pass 1024
// virtual ns per ns (it wraps 2^64 after about 208 days of such a run). A 1024-ticket client
// that joins 100 quanta before the wrap starts one of its strides (one quantum) after the
// global pass; the 1-ticket client stays one of its strides (1024 quanta) after it, past the
// wrap. The paper's rule (smallest pass runs) gives the newcomer the next quantum, and the
// pairwise error stays within one quantum while the passes cross the wrap.
TEST(StrideExample, PassesKeepTheirOrderAcrossTheVirtualClockWrap) {
  quantum_driver d;
  task a, b;
  a.id = 0;
  b.id = 1;
  ASSERT_EQ(d.p.set_tickets(a, 1), errc::ok);
  ASSERT_EQ(d.p.set_tickets(b, 1024), errc::ok);
  d.p.enqueue(a, d.now, enqueue_flags::initial);
  // a alone, in runs of at most one day, until the global pass is 100 quanta short of 2^64.
  const u64 target = 0ull - static_cast<u64>(100 * quantum);
  for (;;) {
    const u64 gap = target - d.p.global_pass().ns();
    if (gap < 2048u) break;
    task* t = d.p.pick_next(d.now);
    ASSERT_EQ(t, &a);
    d.p.set_next(*t, d.now);
    const u64 step = std::min<u64>(gap / 1025, static_cast<u64>(sec(86400)));
    d.now += static_cast<s64>(step == 0 ? 1 : step);
    (void)d.p.tick(*t, d.now);
    d.p.put_prev(*t, d.now);
  }
  ASSERT_TRUE(d.p.global_pass() < vtime{0ull - static_cast<u64>(99 * quantum)});
  d.p.enqueue(b, d.now, enqueue_flags::wakeup);
  ASSERT_TRUE(a.pass.ns() < b.pass.ns()) << "the setup puts a's pass past the wrap, b's before it";
  EXPECT_EQ(d.p.pick_next(d.now), &b) << "b's pass is one quantum after the global pass, a's 1024";
  std::vector<long> got(2, 0);
  const std::vector<double> w = {1, 1024};
  double worst = 0;
  for (int q = 0; q < 3000; ++q) {
    ++got[static_cast<std::size_t>(d.run_quantum()->id)];
    worst = std::max(worst, worst_pair_error(got, w));
  }
  EXPECT_LE(worst, 1.0 + 1e-6);
  EXPECT_GE(got[0], 2L) << "a still gets its 1 quantum in 1025";
  EXPECT_TRUE(d.p.verify());
}

// The paper's client_join places a client at the global pass as of the join. When a client
// joins while another runs, the running client's time since its last charge counts first, at
// the old ticket total: a (1024 tickets) has run 4 ms alone with no tick, so the global pass is
// 4 ms and b (1024 tickets) starts one quantum after it, at 14 ms.
TEST(StrideExample, AJoinCountsTheRunningClientsTimeSinceItsLastCharge) {
  policy_t p;
  task a, b;
  sched_time now{};
  p.enqueue(a, now, enqueue_flags::initial);
  p.set_next(a, now);
  now += msec(4);
  p.enqueue(b, now, enqueue_flags::wakeup);
  EXPECT_NEAR(static_cast<double>(p.global_pass() - vtime{}), msec(4), charge_tolerance(msec(4)))
      << "a held all 1024 tickets for 4 ms";
  EXPECT_NEAR(static_cast<double>(b.pass - vtime{}), msec(4) + quantum, charge_tolerance(msec(4) + quantum));
  EXPECT_NEAR(static_cast<double>(a.pass - vtime{}), quantum + msec(4), charge_tolerance(msec(4)));
  EXPECT_TRUE(p.verify());
}

// Fractional quanta: a client pays for the time it ran, whichever hook interrupts or ends the
// run: a tick within the quantum, a preemption by another class (put_prev, no tick since the
// last one) or a block (dequeue, no tick at all). 512 tickets: 2 virtual ns per ns; the global
// pass moves at 1024 / 1024 tickets, 1 virtual ns per ns.
TEST(StrideExample, EveryHookThatInterruptsOrEndsARunChargesTheTimeSinceTheLastCharge) {
  policy_t p;
  task a, b;
  ASSERT_EQ(p.set_tickets(a, 512), errc::ok);
  ASSERT_EQ(p.set_tickets(b, 512), errc::ok);
  sched_time now{};
  p.enqueue(a, now, enqueue_flags::initial);
  p.enqueue(b, now, enqueue_flags::initial);
  task* c = p.pick_next(now);
  task* other = c == &a ? &b : &a;
  const vtime start = c->pass;
  p.set_next(*c, now);
  now += msec(2);
  EXPECT_FALSE(p.tick(*c, now));
  EXPECT_NEAR(static_cast<double>(c->pass - start), msec(4), charge_tolerance(msec(4))) << "the tick charged 2 ms";
  EXPECT_NEAR(static_cast<double>(p.global_pass() - vtime{}), msec(2), charge_tolerance(msec(2)));
  now += msec(3);
  p.put_prev(*c, now);  // another class takes the CPU 5 ms into the quantum
  EXPECT_NEAR(static_cast<double>(c->pass - start), msec(10), 2 * charge_tolerance(msec(10))) << "5 ms in all";
  EXPECT_NEAR(static_cast<double>(p.global_pass() - vtime{}), msec(5), 2 * charge_tolerance(msec(5)));
  ASSERT_EQ(p.pick_next(now), other) << "c's pass is now 5 ms of its stride past other's";
  const vtime ostart = other->pass;
  p.set_next(*other, now);
  now += msec(3);
  p.dequeue(*other, now, dequeue_flags::sleep);  // blocks 3 ms in, before any tick
  EXPECT_NEAR(static_cast<double>(other->pass - ostart), msec(6), charge_tolerance(msec(6)));
  EXPECT_NEAR(static_cast<double>(p.global_pass() - vtime{}), msec(8), 3 * charge_tolerance(msec(8)));
  EXPECT_EQ(other->remain, other->pass - p.global_pass());
  EXPECT_TRUE(p.verify());
}

// Allocation is in whole quanta: tick asks for the CPU back when a whole quantum has passed
// since the pick, and not at any tick before.
TEST(StrideExample, TickAsksForTheCpuBackOnlyOnceTheWholeQuantumHasRun) {
  policy_t p;
  task a, b;
  sched_time now{};
  p.enqueue(a, now, enqueue_flags::initial);
  p.enqueue(b, now, enqueue_flags::initial);
  task* c = p.pick_next(now);
  p.set_next(*c, now);
  for (int ms = 1; ms < 10; ++ms) {
    now += msec(1);
    EXPECT_FALSE(p.tick(*c, now)) << ms << " ms of a 10 ms quantum";
  }
  now += msec(1);
  EXPECT_TRUE(p.tick(*c, now));
}

// policy.hpp's time rule: a step back of the clock is charged as no run time, and the stamp
// stays, so the forward step that follows is not charged twice. a (1024 tickets, alone) runs
// 5 ms, sees a clock 1 ms behind, then 10 ms: 10 ms in all.
TEST(StrideExample, AClockStepBackIsChargedAsNoRunTime) {
  policy_t p;
  task a;
  sched_time now{};
  p.enqueue(a, now, enqueue_flags::initial);
  p.set_next(a, now);
  const vtime start = a.pass;
  EXPECT_FALSE(p.tick(a, now + msec(5)));
  EXPECT_FALSE(p.tick(a, now + msec(4)));  // the caller's clock glitched back 1 ms
  EXPECT_NEAR(static_cast<double>(a.pass - start), msec(5), charge_tolerance(msec(5)));
  EXPECT_TRUE(p.tick(a, now + msec(10)));
  EXPECT_NEAR(static_cast<double>(a.pass - start), msec(10), 2 * charge_tolerance(msec(10)));
  EXPECT_NEAR(static_cast<double>(p.global_pass() - vtime{}), msec(10), 2 * charge_tolerance(msec(10)));
}

// What the header promises to accept, at the edges: SCHED_BATCH like normal (nice weight),
// SCHED_IDLE with the kernel's idle weight 3, every ticket count in [1, 100000] inclusive, and
// the quantum knob in [100 us, 1 s] inclusive.
TEST(StrideExample, TheDocumentedParameterAndKnobRangesAreAcceptedUpToTheirEdges) {
  policy_t p;
  task a;
  ASSERT_EQ(p.setup(a, sched_params{sched_kind::batch, 5}), errc::ok);
  EXPECT_EQ(a.tickets.weight, 335u) << "sched_prio_to_weight[25]";
  ASSERT_EQ(p.setup(a, sched_params{sched_kind::idle, 0}), errc::ok);
  EXPECT_EQ(a.tickets.weight, 3u) << "WEIGHT_IDLEPRIO";
  EXPECT_EQ(p.set_tickets(a, stride_example::min_tickets), errc::ok);
  EXPECT_EQ(a.tickets.weight, 1u);
  EXPECT_EQ(p.set_tickets(a, stride_example::max_tickets), errc::ok);
  EXPECT_EQ(a.tickets.weight, 100000u);
  policy_t::knobs k;
  k.quantum = sec(1);
  EXPECT_EQ(p.configure(k), errc::ok);
  k.quantum = sec(1) + 1;
  EXPECT_EQ(p.configure(k), errc::invalid_argument);
  EXPECT_EQ(p.config().quantum, sec(1));
  k.quantum = usec(100);
  EXPECT_EQ(p.configure(k), errc::ok);
}

// client_modify scales remain by old / new tickets, which for an unchanged count is the
// identity: a parameter change that keeps the ticket count (set_tickets to the same count, a
// renice to the same nice) must leave remain exactly as it was.
TEST(StrideExample, ATicketChangeToTheSameCountLeavesTheRemainUnchanged) {
  quantum_driver d;
  task a, b;
  a.id = 0;
  b.id = 1;
  ASSERT_EQ(d.p.set_tickets(a, 777), errc::ok);
  ASSERT_EQ(d.p.setup(b, sched_params{sched_kind::normal, 3}), errc::ok);
  d.p.enqueue(a, d.now, enqueue_flags::initial);
  d.p.enqueue(b, d.now, enqueue_flags::initial);
  for (int q = 0; q < 3; ++q) d.run_quantum();
  d.p.dequeue(a, d.now, dequeue_flags::save);
  const s64 ra = a.remain;
  ASSERT_EQ(d.p.set_tickets(a, 777), errc::ok);
  EXPECT_EQ(a.remain, ra);
  d.p.enqueue(a, d.now, enqueue_flags::restore);
  d.p.dequeue(b, d.now, dequeue_flags::save);
  const s64 rb = b.remain;
  ASSERT_EQ(d.p.setup(b, sched_params{sched_kind::normal, 3}), errc::ok);
  EXPECT_EQ(b.remain, rb);
  d.p.enqueue(b, d.now, enqueue_flags::restore);
  EXPECT_TRUE(d.p.verify());
}

// verify() is the self-check the contract suite and ports lean on: it must notice a queued
// client whose flag or ticket count no longer matches the queue's books.
TEST(StrideExample, VerifyNoticesAFlagOrATicketCountOutOfStep) {
  policy_t p;
  task a, b;
  p.enqueue(a, sched_time{}, enqueue_flags::initial);
  p.enqueue(b, sched_time{}, enqueue_flags::initial);
  ASSERT_TRUE(p.verify());
  b.on_rq = false;
  EXPECT_FALSE(p.verify()) << "a client in the tree flagged as not queued";
  b.on_rq = true;
  b.tickets.weight += 1;
  EXPECT_FALSE(p.verify()) << "the ticket total no longer adds up";
  b.tickets.weight -= 1;
  EXPECT_TRUE(p.verify());
}

// The paper's client_modify: a ticket change scales remain by old / new tickets whatever its
// sign. A client's remain is negative when the global pass has overtaken its pass (it is owed
// service); random runs with fractional quanta, sleeps and ticket changes at wakeup produce
// such clients, and each change must keep the sign and scale the magnitude.
TEST(StrideExample, ATicketChangeScalesANegativeRemainToo) {
  std::uint64_t s = 0x9e3779b97f4a7c15ull;
  auto rnd = [&s] {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  };
  policy_t p;
  task t[6];
  sched_time now{};
  for (int i = 0; i < 6; ++i) {
    t[i].id = i;
    ASSERT_EQ(p.set_tickets(t[i], static_cast<u32>(1 + rnd() % 2000)), errc::ok);
    p.enqueue(t[i], now, enqueue_flags::initial);
  }
  task* c = nullptr;
  int negative_changes = 0;
  for (int k = 0; k < 20000; ++k) {
    if (c == nullptr) {
      c = p.pick_next(now);
      if (c != nullptr) p.set_next(*c, now);
    }
    now += static_cast<s64>(1 + rnd() % static_cast<u64>(quantum));
    const bool block = rnd() % 4 == 0;
    if (c != nullptr && block) {
      p.dequeue(*c, now, dequeue_flags::sleep);
      c = nullptr;
    } else if (c != nullptr && p.tick(*c, now)) {
      p.put_prev(*c, now);
      c = nullptr;
    }
    for (task& x : t) {
      if (x.on_rq || rnd() % 3 != 0) continue;
      const double before = static_cast<double>(x.remain);
      const double old_tickets = x.tickets.weight;
      const u32 n = static_cast<u32>(1 + rnd() % 2000);
      ASSERT_EQ(p.set_tickets(x, n), errc::ok);
      const double want = before * old_tickets / n;
      ASSERT_NEAR(static_cast<double>(x.remain), want, std::fabs(want) * 1e-4 + 2.0) << "k " << k;
      if (before < 0) ++negative_changes;
      p.enqueue(x, now, enqueue_flags::wakeup);
      EXPECT_EQ(x.pass - p.global_pass(), x.remain);
    }
    ASSERT_TRUE(p.verify());
  }
  EXPECT_GT(negative_changes, 0) << "the run must reach negative remains";
}

}  // namespace
