// edf_policy's GRUB reclaiming (SCHED_FLAG_RECLAIM, 4.13+) against independent oracles:
// - the example of Documentation/scheduler/sched-deadline.rst §2.2 (algorithms-modern.md O5.3):
//   two tasks with Q = 4, P = 8; T1 blocks at t = 2 with q = 2, so its 0-lag time is 4; T2's
//   runtime drains as dq = -dt until 4 and as dq = -0.5 dt after;
// - the closed forms of the two rules for reclaiming hogs alone on a CPU with Umax = 0.95:
//   6.5+ (max{u, Umax - Uinact - Uextra} / Umax) gives them Umax of the CPU whatever their
//   bandwidth; 4.15-6.4 (max{u / Umax, 1 - Uinact - Uextra}) gives them u / (1 - Umax + u):
//   93.33 % for 7 ms / 10 ms and 16.67 % for 1 ms / 100 ms, the numbers the 6.5 fix's commit
//   reported before it;
// - the CBS guarantee GRUB keeps (Abeni et al. 2014): with Σ u <= Umax no reservation misses a
//   deadline or receives less than its runtime per period because others reclaim, and the
//   deadline class as a whole never takes more than Umax of the CPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "check_recorder.hpp"
#include "eevdf_driver_ext.hpp"
#include "schedcore/policy/edf.hpp"
#include "tick_driver.hpp"

namespace {

using namespace schedcore;
using schedcore_test::behaviour;
using schedcore_test::periodic_driver;
using schedcore_test::periodic_spec;
using schedcore_test::single_class;
using schedcore_test::tick_driver;

struct task : edf_entity {};

using policy_t = edf_policy<task>;
using driven = single_class<policy_t>;

sched_params reclaiming(std::int64_t q, std::int64_t p, bool reclaim = true) {
  sched_params s;
  s.kind = sched_kind::deadline;
  s.runtime = q;
  s.deadline = p;
  s.period = p;
  s.reclaim = reclaim;
  return s;
}

policy_t::knobs knobs_with(std::int64_t bound, std::int64_t grub_umax = 1, std::int64_t hrtick = 1, std::int64_t cpus = 1) {
  policy_t::knobs k;
  k.bound = bound;
  k.grub_umax = grub_umax;
  k.hrtick = hrtick;
  k.cpus = cpus;
  return k;
}

constexpr std::uint64_t unit = std::uint64_t{1} << 20;  // BW_UNIT

TEST(EdfGrub, TheDocumentationsExampleO53) {
  // Umax = 1 (bound 100 %): max_bw = 2^20, bw_ratio = 256, Uextra = 1 - (0.5 + 0.5) = 0.
  const sched_time t0{};
  policy_t p;
  ASSERT_EQ(p.configure(knobs_with(100, 1, 0)), errc::ok);
  EXPECT_EQ(p.max_bw(), unit);
  EXPECT_EQ(p.bw_ratio(), 256u);
  task t1, t2;
  ASSERT_EQ(p.setup(t1, reclaiming(msec(4), msec(8))), errc::ok);
  ASSERT_EQ(p.setup(t2, reclaiming(msec(4), msec(8))), errc::ok);
  EXPECT_EQ(p.extra_bw(), 0);
  p.enqueue(t1, t0, enqueue_flags::wakeup);
  p.enqueue(t2, t0, enqueue_flags::wakeup);
  EXPECT_EQ(p.this_bw(), unit);
  EXPECT_EQ(p.running_bw(), unit);
  // t = 0: T1 runs; nobody is inactive, so dq = -dt.
  p.set_next(t1, t0);
  EXPECT_EQ(p.grub_rate(t1), unit);
  // t = 2: T1 blocks with q = 2; its 0-lag time is 8 - 2 x 8 / 4 = 4.
  p.dequeue(t1, t0 + msec(2), dequeue_flags::sleep);
  EXPECT_EQ(t1.runtime, msec(2));
  EXPECT_TRUE(t1.non_contending);
  sched_time when{};
  ASSERT_TRUE(p.next_timer(when));
  EXPECT_EQ(when, t0 + msec(4));
  // T2 runs, still at dq = -dt: T1 is active non-contending, so Uinact = 0.
  p.set_next(t2, t0 + msec(2));
  EXPECT_EQ(p.grub_rate(t2), unit);
  EXPECT_FALSE(p.tick(t2, t0 + msec(4)));
  EXPECT_EQ(t2.runtime, msec(2));
  // t = 4: T1 becomes inactive: Uinact = 0.5, and T2 drains at dq = -0.5 dt.
  EXPECT_FALSE(p.timer(t0 + msec(4)));
  EXPECT_EQ(p.running_bw(), unit / 2);
  EXPECT_EQ(p.this_bw(), unit) << "an inactive task still belongs to the CPU";
  EXPECT_EQ(p.grub_rate(t2), unit / 2);
  EXPECT_FALSE(p.tick(t2, t0 + msec(6)));
  EXPECT_EQ(t2.runtime, msec(1));
  EXPECT_FALSE(p.tick(t2, t0 + msec(7)));
  EXPECT_EQ(t2.runtime, usec(500));
  EXPECT_FALSE(t2.throttled);
  // T2 reclaims what T1 leaves: its 4 ms of budget last from 2 to 8, its deadline, where the
  // next period starts at once (q = 4 again, d = 16).
  EXPECT_FALSE(p.tick(t2, t0 + msec(8)));
  EXPECT_EQ(t2.runtime, msec(4));
  EXPECT_EQ(t2.deadline, t0 + msec(16));
  // t = 8: T1 wakes, contending again.
  p.enqueue(t1, t0 + msec(8), enqueue_flags::wakeup);
  EXPECT_EQ(p.running_bw(), unit);
  EXPECT_TRUE(p.verify());
}

// The 0-lag time d - q x P / Q for a period past 2^32 ns (the deadline_period_max knob admits
// 1000 s): Q = 5 s, D = P = 10 s; after 0.5 s of run the task sleeps at 1.5 s with q = 4.5 s,
// d = 11 s (it started at 1 s), so its 0-lag time is 11 - 4.5 x 10 / 5 = 2 s: the inactive
// timer fires there and its bandwidth leaves running_bw. (q x P took 66 bits; the 64-bit
// product wrapped and put the 0-lag time at 9.379 s, keeping a sleeper's bandwidth active
// 7.4 s too long.) With P = 1000 s the same arithmetic: Q = 500 s, q = 499.5 s, d = 1001 s,
// 0-lag at 2 s.
TEST(EdfGrub, TheZeroLagTimeOfAPeriodLongerThanFourSecondsIsExact) {
  // Q, P, run before the sleep (from 1 s on), the 0-lag time d - q x P / Q. The third case:
  // q = 4.99 s, d = 11 s, 0-lag at 11 - 9.98 = 1.02 s.
  struct zero_lag_case {
    std::int64_t q, p, ran, zero_lag;
  };
  for (const zero_lag_case c : {zero_lag_case{sec(5), sec(10), msec(500), sec(2)},
                                zero_lag_case{sec(500), sec(1000), msec(500), sec(2)},
                                zero_lag_case{sec(5), sec(10), msec(10), msec(1020)}}) {
    policy_t p;
    policy_t::knobs k = knobs_with(95, 1, 0);
    k.deadline_period_max = sec(1000);
    ASSERT_EQ(p.configure(k), errc::ok);
    task t;
    ASSERT_EQ(p.setup(t, reclaiming(c.q, c.p, false)), errc::ok) << c.p;
    sched_time now{sec(1)};
    p.enqueue(t, now, enqueue_flags::wakeup);
    p.set_next(t, now);
    now += c.ran;
    (void)p.tick(t, now);
    p.dequeue(t, now, dequeue_flags::sleep);
    EXPECT_TRUE(t.non_contending) << "P = " << c.p << " ns: active until its 0-lag time";
    sched_time when{};
    ASSERT_TRUE(p.next_timer(when)) << c.p;
    EXPECT_EQ(when, sched_time{} + c.zero_lag) << "P = " << c.p << " ns, ran " << c.ran << " ns: the 0-lag time";
    EXPECT_FALSE(p.timer(when));
    EXPECT_EQ(p.running_bw(), 0u) << "P = " << c.p << " ns: inactive from its 0-lag time on";
    EXPECT_TRUE(p.verify());
  }
}

// sched_dl_overflow returns before dl_change_utilization when the bandwidth is unchanged
// (`new_bw == p->dl.dl_bw`): a sleeper (1 / 10 ms, ran 0.2 ms, 0-lag time 1.002 s) given
// D = 5 ms with the same Q and P stays active until its 0-lag time; a change of Q stops its
// count at once.
TEST(EdfGrub, AChangeThatKeepsTheBandwidthLeavesASleeperActiveUntilItsZeroLagTime) {
  for (const bool same_bw : {true, false}) {
    policy_t p;
    ASSERT_EQ(p.configure(knobs_with(95, 1, 0)), errc::ok);
    task t;
    ASSERT_EQ(p.setup(t, reclaiming(msec(1), msec(10), false)), errc::ok);
    sched_time now{sec(1)};
    p.enqueue(t, now, enqueue_flags::wakeup);
    p.set_next(t, now);
    now += usec(200);
    (void)p.tick(t, now);
    p.dequeue(t, now, dequeue_flags::sleep);
    ASSERT_TRUE(t.non_contending);
    const std::uint64_t bw = unit / 10;
    ASSERT_EQ(p.running_bw(), bw);
    sched_params changed = reclaiming(same_bw ? msec(1) : msec(2), msec(10), false);
    changed.deadline = msec(5);
    ASSERT_EQ(p.setup(t, changed), errc::ok);
    sched_time when{};
    if (same_bw) {
      EXPECT_EQ(p.running_bw(), bw);
      EXPECT_TRUE(t.non_contending);
      ASSERT_TRUE(p.next_timer(when));
      EXPECT_EQ(when, sched_time{} + sec(1) + msec(2)) << "d - q P / Q = 1.010 - 0.0008 x 10";
      EXPECT_FALSE(p.timer(when));
    }
    EXPECT_EQ(p.running_bw(), 0u);
    EXPECT_TRUE(p.verify());
  }
}

// reserve_bandwidth (a deadline server's Q/P) must not wrap the admitted sum past the check:
// an absurd amount is refused and changes nothing, and the bound still holds afterwards.
TEST(EdfGrub, AnAbsurdReservationIsRefusedWithoutWrappingTheAdmittedSum) {
  policy_t p;
  ASSERT_EQ(p.configure(knobs_with(95)), errc::ok);
  task t;
  ASSERT_EQ(p.setup(t, reclaiming(msec(5), msec(10), false)), errc::ok);
  const std::uint64_t admitted = p.total_bandwidth();
  EXPECT_EQ(p.reserve_bandwidth(~std::uint64_t{0} - admitted + 1), errc::overloaded);
  EXPECT_EQ(p.reserve_bandwidth(~std::uint64_t{0}), errc::overloaded);
  EXPECT_EQ(p.total_bandwidth(), admitted) << "nothing changed";
  task u;
  EXPECT_EQ(p.setup(u, reclaiming(msec(9), msec(10), false)), errc::overloaded) << "0.5 + 0.9 > 0.95";
}

// Each hog alone on a CPU with the default 95 % bound, budgets enforced exactly (HRTICK_DL).
double lone_hog_share(std::int64_t q, std::int64_t period, bool reclaim, std::int64_t grub_umax) {
  driven p;
  EXPECT_EQ(p.configure(knobs_with(95, grub_umax)), errc::ok);
  task t;
  EXPECT_EQ(p.setup(t, reclaiming(q, period, reclaim)), errc::ok);
  tick_driver<driven> d(p, 1000);
  d.add(t, behaviour::hog());
  const std::int64_t total = period * 40;
  d.run_until(total);
  EXPECT_TRUE(p.verify());
  return static_cast<double>(d.stats(0).cpu_ns) / static_cast<double>(total);
}

TEST(EdfGrub, ALoneReclaimingHogGetsUmaxUnderTheCurrentRuleAndLessBefore) {
  struct row {
    std::int64_t q, period;
  };
  for (const row r : {row{msec(7), msec(10)}, row{msec(1), msec(100)}, row{msec(2), msec(10)}, row{usec(500), msec(50)}}) {
    const double u = static_cast<double>(r.q) / static_cast<double>(r.period);
    // Without the flag: exactly its reservation.
    EXPECT_NEAR(lone_hog_share(r.q, r.period, false, 1), u, 1e-9) << r.q << "/" << r.period;
    // 6.5+: Umax, within the truncation of bw_ratio (256 / 269 = 0.9517 of the CPU).
    const double now_share = lone_hog_share(r.q, r.period, true, 1);
    EXPECT_NEAR(now_share, 0.95, 0.003) << r.q << "/" << r.period;
    // 4.15-6.4: u / (1 - Umax + u) (0.7 / 0.75 = 93.33 %, 0.01 / 0.06 = 16.67 %).
    const double before = lone_hog_share(r.q, r.period, true, 0);
    EXPECT_NEAR(before, u / (0.05 + u), 0.002) << r.q << "/" << r.period;
  }
}

// A reclaiming reservation whose bandwidth rounds to 0 (1024 ns every 2 s: 1024 x 2^20 / 2e9 <
// 1), running alone: GRUB's rate max{u, Umax - Uinact - Uextra} is 0, so, as in the kernel's
// grub_reclaim, running charges nothing. The budget's end is then never (the hrtick timer is
// not due), where the exact inverse of the charge divided by that rate (found by the policies
// fuzz target: a division by zero).
TEST(EdfGrub, AReservationWhoseBandwidthRoundsToZeroIsChargedNothingAndNeverTimesOut) {
  const sched_time t0{};
  for (const std::int64_t bound : {90, 95, 100}) {
    SCOPED_TRACE(bound);
    policy_t p;
    ASSERT_EQ(p.configure(knobs_with(bound, 1, 1)), errc::ok);
    task t;
    ASSERT_EQ(p.setup(t, reclaiming(1024, sec(2))), errc::ok);
    EXPECT_EQ(t.dl_bw, 0u);
    p.enqueue(t, t0, enqueue_flags::wakeup);
    p.set_next(t, t0);
    EXPECT_EQ(p.grub_rate(t), 0u);
    sched_time when{};
    ASSERT_TRUE(p.next_timer(when));
    EXPECT_EQ(when, t0 + policy_t::never_exhausts);
    EXPECT_FALSE(p.timer(t0 + msec(10)));
    p.tick(t, t0 + msec(10));
    EXPECT_EQ(t.runtime, 1024);
    EXPECT_FALSE(t.throttled);
  }
}

// Two reclaiming hogs of 0.1 and 0.3 on one CPU: the budgets drain at the same rate, so they
// split what they get 1 : 3; in all Umax (6.5+) or Σu / (1 - Umax + Σu) = 0.4 / 0.45 (before).
TEST(EdfGrub, ReclaimingHogsSplitTheCpuByTheirBandwidths) {
  for (std::int64_t rule = 0; rule <= 1; ++rule) {
    driven p;
    ASSERT_EQ(p.configure(knobs_with(95, rule)), errc::ok);
    task a, b;
    ASSERT_EQ(p.setup(a, reclaiming(msec(1), msec(10))), errc::ok);
    ASSERT_EQ(p.setup(b, reclaiming(msec(3), msec(10))), errc::ok);
    tick_driver<driven> d(p, 1000);
    d.add(a, behaviour::hog());
    d.add(b, behaviour::hog());
    d.run_until(sec(2));
    const double sa = static_cast<double>(d.stats(0).cpu_ns) / 2e9, sb = static_cast<double>(d.stats(1).cpu_ns) / 2e9;
    EXPECT_NEAR(sa + sb, rule == 1 ? 0.95 : 0.4 / 0.45, 0.003) << "rule " << rule;
    EXPECT_NEAR(sb / sa, 3.0, 0.02) << "rule " << rule;
    EXPECT_TRUE(p.verify());
  }
}

// The bandwidth of a sleeper past its 0-lag time is reclaimed on the CPU it belongs to only.
// Two CPUs, 0.5 (not reclaiming) and a 0.3 reclaiming hog: Uextra = 0.95 - 0.8 / 2 = 0.55 per
// CPU. The sleeper inactive on the other CPU: the hog's rate is max{0.3, 0.95 - 0 - 0.55} / 0.95,
// so it gets 0.3 / 0.4 of Umax (71 %). The sleeper inactive on the hog's CPU (Uinact = 0.5):
// max{0.3, 0.95 - 0.5 - 0.55} = 0.3, so the hog's rate is 0.3 / 0.95 and it gets Umax.
TEST(EdfGrub, AnInactiveSleepersBandwidthIsReclaimedOnItsOwnCpuOnly) {
  const sched_time t0{};
  policy_t cpu0, cpu1;
  ASSERT_EQ(cpu0.configure(knobs_with(95, 1, 0, 2)), errc::ok);
  ASSERT_EQ(cpu1.configure(knobs_with(95, 1, 0, 2)), errc::ok);
  task sleeper, hog;
  ASSERT_EQ(cpu0.setup(sleeper, reclaiming(msec(5), msec(10), false)), errc::ok);  // cpu0 admits both: the root domain
  ASSERT_EQ(cpu0.setup(hog, reclaiming(msec(3), msec(10))), errc::ok);
  const std::uint64_t u_sleeper = (std::uint64_t{5} << 20) / 10, u_hog = (std::uint64_t{3} << 20) / 10;
  const std::int64_t extra = static_cast<std::int64_t>((95 * unit) / 100) - static_cast<std::int64_t>((u_sleeper + u_hog) / 2);
  EXPECT_EQ(cpu0.extra_bw(), extra);
  // The sleeper runs 1 ms on cpu1 and sleeps: 0-lag at 10 - 4 x 10 / 5 = 2 ms.
  cpu1.enqueue(sleeper, t0, enqueue_flags::wakeup);
  cpu1.set_next(sleeper, t0);
  cpu1.dequeue(sleeper, t0 + msec(1), dequeue_flags::sleep);
  sched_time zero_lag{};
  ASSERT_TRUE(cpu1.next_timer(zero_lag));
  EXPECT_EQ(zero_lag, t0 + msec(2));
  EXPECT_FALSE(cpu1.timer(t0 + msec(2)));
  EXPECT_EQ(cpu1.this_bw(), u_sleeper);
  EXPECT_EQ(cpu1.running_bw(), 0u);
  // The hog on cpu0, read against the root domain's (cpu0's) Umax and Uextra.
  cpu0.enqueue(hog, t0 + msec(2), enqueue_flags::wakeup);
  const std::uint64_t ratio = ((std::uint64_t{100} << 20) / 95) >> 12;
  ASSERT_EQ(ratio, 269u);
  const std::int64_t own_act = static_cast<std::int64_t>(95 * unit / 100) - extra;
  EXPECT_EQ(cpu0.grub_rate(hog), static_cast<std::uint64_t>(own_act > static_cast<std::int64_t>(u_hog) ? own_act : static_cast<std::int64_t>(u_hog)) * ratio >> 8);
  // The sleeper moves to cpu0, runs 0.1 ms and sleeps there until past its 0-lag time.
  cpu1.enqueue(sleeper, t0 + msec(10), enqueue_flags::wakeup);
  cpu1.dequeue(sleeper, t0 + msec(10), dequeue_flags::migrating);  // leaves cpu1
  EXPECT_EQ(cpu1.this_bw(), 0u);
  cpu0.enqueue(sleeper, t0 + msec(10), enqueue_flags::migrated);
  cpu0.set_next(sleeper, t0 + msec(10));
  cpu0.dequeue(sleeper, t0 + msec(10) + usec(100), dequeue_flags::sleep);
  sched_time when{};
  ASSERT_TRUE(cpu0.next_timer(when));
  EXPECT_FALSE(cpu0.timer(when));
  EXPECT_EQ(cpu0.this_bw(), u_sleeper + u_hog);
  EXPECT_EQ(cpu0.running_bw(), u_hog);
  EXPECT_EQ(cpu0.grub_rate(hog), u_hog * ratio >> 8) << "max{u, Umax - Uinact - Uextra} = u";
  EXPECT_TRUE(cpu0.verify());
  EXPECT_TRUE(cpu1.verify());
}

// this_bw follows a task: it belongs to the CPU it last ran on while it sleeps, moves with a
// wakeup elsewhere, changes with a sleeper's parameter change, and leaves at a save, a class
// change or exit. Three objects: the root domain (admission) and two CPUs.
TEST(EdfGrub, ThisBwFollowsTheTaskAcrossQueuesAndParameterChanges) {
  const sched_time t0{};
  policy_t root, a, b;
  ASSERT_EQ(root.configure(knobs_with(95, 1, 0, 2)), errc::ok);
  task t;
  ASSERT_EQ(root.setup(t, reclaiming(msec(2), msec(10))), errc::ok);
  const std::uint64_t bw2 = (std::uint64_t{2} << 20) / 10, bw4 = (std::uint64_t{4} << 20) / 10;
  EXPECT_EQ(root.this_bw(), 0u) << "admission alone places the task nowhere";
  a.enqueue(t, t0, enqueue_flags::wakeup);
  EXPECT_EQ(a.this_bw(), bw2);
  a.dequeue(t, t0 + usec(10), dequeue_flags::sleep);
  EXPECT_EQ(a.this_bw(), bw2) << "a sleeper belongs to its CPU";
  b.enqueue(t, t0 + msec(30), enqueue_flags::wakeup);
  EXPECT_EQ(a.this_bw(), 0u);
  EXPECT_EQ(b.this_bw(), bw2);
  b.dequeue(t, t0 + msec(31), dequeue_flags::sleep);
  ASSERT_EQ(root.setup(t, reclaiming(msec(4), msec(10))), errc::ok);
  EXPECT_EQ(b.this_bw(), bw4) << "dl_change_utilization: the share changes in place";
  b.enqueue(t, t0 + msec(60), enqueue_flags::wakeup);
  EXPECT_EQ(b.this_bw(), bw4);
  EXPECT_TRUE(b.verify());
  b.dequeue(t, t0 + msec(61), dequeue_flags::save);
  EXPECT_EQ(b.this_bw(), 0u);
  b.enqueue(t, t0 + msec(61), enqueue_flags::restore);
  b.dequeue(t, t0 + msec(62), dequeue_flags::sleep);
  root.switched_from(t, t0 + msec(63));
  EXPECT_EQ(b.this_bw(), 0u) << "leaving the class";
  EXPECT_EQ(root.total_bandwidth(), 0u);
  ASSERT_EQ(root.setup(t, reclaiming(msec(2), msec(10))), errc::ok);
  a.enqueue(t, t0 + msec(70), enqueue_flags::wakeup);
  a.dequeue(t, t0 + msec(71), dequeue_flags::sleep);
  root.task_dead(t, t0 + msec(72));
  EXPECT_EQ(a.this_bw(), 0u) << "exit";
  EXPECT_EQ(a.running_bw(), 0u);
  EXPECT_TRUE(a.verify());
  EXPECT_TRUE(b.verify());
}

// The guarantee: random sets on one CPU, Σ u <= 0.95, of periodic reservations (some
// reclaiming, each job at most its runtime) and reclaiming hogs; budgets enforced at the tick
// or exactly. No periodic job misses its deadline, every hog receives at least its runtime in
// each of its periods (hrtick; at the tick, one tick less), and the class takes at most Umax
// of the CPU in each aligned 100 ms window, within bw_ratio's truncation and one tick.
TEST(EdfGrub, ReclaimingKeepsEveryReservationsGuaranteeAndLeavesTheRestOfTheCpu) {
  std::uint64_t s = 0x2545f4914f6cdd1dull;
  auto next = [&] {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  };
  constexpr std::int64_t window = msec(10);
  for (int round = 0; round < 40; ++round) {
    const std::int64_t hrtick = round % 2;
    const std::int64_t rule = (round / 2) % 2;
    driven p;
    ASSERT_EQ(p.configure(knobs_with(95, rule, hrtick)), errc::ok);
    std::vector<task> tasks(6);
    std::vector<periodic_spec> specs;
    std::vector<std::int64_t> runtimes;
    std::int64_t budget_permille = 950;
    // One hog with a period of the window (so its windows are its periods), reclaiming.
    const std::int64_t hog_q = usec(static_cast<std::int64_t>(next() % 3000) + 500);
    budget_permille -= (hog_q + usec(10) - 1) / usec(10);
    specs.push_back({0, window, 0, 0});
    runtimes.push_back(hog_q);
    ASSERT_EQ(p.setup(tasks[0], reclaiming(hog_q, window)), errc::ok);
    for (std::size_t i = 1; i < tasks.size() && budget_permille > 20; ++i) {
      const std::int64_t period = msec(static_cast<std::int64_t>(next() % 4 + 1) * 5);  // 5..20 ms
      std::int64_t permille = static_cast<std::int64_t>(next() % 250) + 10;
      if (permille > budget_permille) permille = budget_permille;
      budget_permille -= permille;
      const std::int64_t q = period * permille / 1000;
      const std::int64_t cost = q * static_cast<std::int64_t>(next() % 100 + 1) / 100;  // <= Q
      const bool reclaim = next() % 2 == 0;
      specs.push_back({cost, period, 0, usec(static_cast<std::int64_t>(next() % 3000))});
      runtimes.push_back(q);
      ASSERT_EQ(p.setup(tasks[i], reclaiming(q, period, reclaim)), errc::ok) << round << " " << i;
    }
    periodic_driver<driven> d(p, 1000, sched_time{}, window);
    for (std::size_t i = 0; i < specs.size(); ++i) d.add(tasks[i], specs[i]);
    d.run_until(sec(1));
    ASSERT_TRUE(p.verify());
    for (std::size_t i = 1; i < specs.size(); ++i) {
      EXPECT_EQ(d.stats(i).misses, 0u) << "round " << round << " task " << i;
      EXPECT_EQ(d.overdue(i), 0u) << "round " << round << " task " << i;
    }
    const auto& hog = d.stats(0).cpu_per_window;
    // One entry per 10 ms window of the 1 s run: the driver only grows the vector while the
    // task runs, so a hog starved from some window on would leave the trailing windows unchecked.
    ASSERT_EQ(hog.size(), 100u) << "round " << round;
    for (std::size_t w = 0; w + 1 < hog.size(); ++w)
      EXPECT_GE(hog[w], runtimes[0] - (hrtick ? 0 : msec(1))) << "round " << round << " window " << w;
    for (std::size_t w0 = 0; w0 + 10 <= hog.size(); w0 += 10) {
      std::int64_t busy = 0;
      for (std::size_t i = 0; i < specs.size(); ++i)
        for (std::size_t w = w0; w < w0 + 10 && w < d.stats(i).cpu_per_window.size(); ++w) busy += d.stats(i).cpu_per_window[w];
      EXPECT_LE(busy, msec(100) * 256 / 269 + msec(1)) << "round " << round << " from window " << w0;
    }
  }
}

// Bad input: the rule knob out of range is refused with nothing changed; the flag is accepted
// by validate() on the other kinds of policy (as sched_setattr does), and a task without it is
// charged the plain time it runs.
TEST(EdfGrub, BadKnobsAreRefusedAndTheFlagOnlyActsOnReclaimingTasks) {
  policy_t p;
  auto k = knobs_with(95, 1, 0);
  ASSERT_EQ(p.configure(k), errc::ok);
  k.grub_umax = 2;
  EXPECT_EQ(p.configure(k), errc::invalid_argument);
  k.grub_umax = -1;
  EXPECT_EQ(p.configure(k), errc::invalid_argument);
  EXPECT_EQ(p.config().grub_umax, 1);
  sched_params fifo;
  fifo.kind = sched_kind::fifo;
  fifo.rt_priority = 10;
  fifo.reclaim = true;
  EXPECT_EQ(validate(fifo), errc::ok);
  // No bound: Umax = 1, ratio 1, and Uextra negative once more than a CPU's worth is admitted:
  // there is nothing extra to reclaim (Uextra counts as 0), so a lone reclaiming task is
  // charged the time it runs.
  policy_t unbounded;
  ASSERT_EQ(unbounded.configure(knobs_with(-1, 1, 0)), errc::ok);
  EXPECT_EQ(unbounded.max_bw(), unit);
  EXPECT_EQ(unbounded.bw_ratio(), 256u);
  task a, b, c;
  ASSERT_EQ(unbounded.setup(a, reclaiming(msec(8), msec(10))), errc::ok);
  ASSERT_EQ(unbounded.setup(b, reclaiming(msec(8), msec(10))), errc::ok);
  ASSERT_EQ(unbounded.setup(c, reclaiming(msec(8), msec(10), false)), errc::ok);
  EXPECT_LT(unbounded.extra_bw(), 0);
  unbounded.enqueue(a, sched_time{}, enqueue_flags::wakeup);
  EXPECT_EQ(unbounded.grub_rate(a), unit);
  unbounded.set_next(a, sched_time{});
  EXPECT_FALSE(unbounded.tick(a, sched_time{} + msec(1)));
  EXPECT_EQ(a.runtime, msec(7));
  // c, without the flag, is charged the time it runs.
  unbounded.dequeue(a, sched_time{} + msec(1), dequeue_flags::sleep);
  unbounded.enqueue(c, sched_time{} + msec(1), enqueue_flags::wakeup);
  unbounded.set_next(c, sched_time{} + msec(1));
  EXPECT_FALSE(unbounded.tick(c, sched_time{} + msec(2)));
  EXPECT_EQ(c.runtime, msec(7));
  EXPECT_TRUE(unbounded.verify());
}

// ---- boundaries each rule states strictly (a mutation audit found them untested) ------------

// Source: kernel/sched/deadline.c __dl_overflow(): overflow iff
// `cap_scale(dl_b->bw, cap) < dl_b->total_bw - old_bw + new_bw`, strictly — a reservation that
// brings the total exactly to the cap is admitted (as setup() already does for tasks, see
// AdmissionRefusesOverTheBoundO52's exact-fit case); the cap is (95 << 20) / 100 = 996147 for
// one CPU at the default 95 % bound (algorithms-modern.md §5 O5.2 arithmetic).
TEST(EdfGrub, AReservationThatFillsTheCapExactlyIsAdmitted) {
  policy_t p;
  ASSERT_EQ(p.configure(knobs_with(95)), errc::ok);
  const std::uint64_t cap = (95ull << 20) / 100u;
  ASSERT_EQ(p.bandwidth_cap(), cap);
  task t;
  ASSERT_EQ(p.setup(t, reclaiming(msec(5), msec(10), false)), errc::ok);  // 524288
  const std::uint64_t admitted = p.total_bandwidth();
  ASSERT_EQ(admitted, 524288u);
  EXPECT_EQ(p.reserve_bandwidth(cap - admitted + 1), errc::overloaded) << "one unit over the cap";
  EXPECT_EQ(p.total_bandwidth(), admitted);
  EXPECT_EQ(p.reserve_bandwidth(cap - admitted), errc::ok) << "exactly the cap";
  EXPECT_EQ(p.total_bandwidth(), cap);
  EXPECT_EQ(p.reserve_bandwidth(1), errc::overloaded) << "nothing left";
  p.release_bandwidth(cap - admitted);
  EXPECT_EQ(p.total_bandwidth(), admitted);
}

}  // namespace
