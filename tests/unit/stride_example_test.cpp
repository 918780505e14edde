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

}  // namespace
