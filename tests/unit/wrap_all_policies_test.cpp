// Time wrap-around (issue 9, part 3): every policy, stacked under rt_policy in a class_stack and
// driven by the tick driver with a mixed workload (hogs, sleepers, different nice values, an rt
// task), gives exactly the same schedule whether the clock starts at 0 or just below 2^64:
// identical per-task CPU time, switches, picks and longest waits, and an identical switch log.
// The same holds with the task's entities held as data members (member_entity) instead of
// base classes.
// Policies with a virtual clock that can be placed (cfs: reset_vruntime, cfs2007:
// reset_fair_clock) are also run with that clock started just below 2^64 and at 0. eevdf has
// no such knob: its zero point always starts at -2^20 ns, so every run already crosses the
// virtual wrap in its first millisecond.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "check_recorder.hpp"
#include "schedcore/policy/bfs.hpp"
#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/cfs2007.hpp"
#include "schedcore/policy/class_stack.hpp"
#include "schedcore/policy/edf.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "schedcore/policy/goodness24.hpp"
#include "schedcore/policy/nicksched.hpp"
#include "schedcore/policy/o1.hpp"
#include "schedcore/policy/rt.hpp"
#include "schedcore/policy/sd.hpp"
#include "tick_driver.hpp"

namespace {

using namespace schedcore;
using schedcore_test::behaviour;
using schedcore_test::tick_driver;

constexpr int hz = 1000;
constexpr u64 u64_max = std::numeric_limits<u64>::max();

sched_params fair(int nice, sched_kind kind = sched_kind::normal) {
  sched_params p;
  p.kind = kind;
  p.nice = static_cast<s8>(nice);
  return p;
}
sched_params deadline(duration_ns runtime, duration_ns period) {
  sched_params p;
  p.kind = sched_kind::deadline;
  p.runtime = runtime;
  p.deadline = period;
  p.period = period;
  return p;
}

// The fair-class workload: behaviour and parameters per task. `alt` is used where a policy
// refuses the kind (nicksched: normal only) or needs deadline parameters (edf).
struct spec {
  behaviour b;
  sched_params p;
};
std::vector<spec> fair_workload() {
  return {
      {behaviour::hog(), fair(0)},
      {behaviour::hog(msec(3)), fair(5)},
      {behaviour::cycle(msec(3), msec(7)), fair(-5)},
      {behaviour::cycle(usec(500), msec(20), msec(1)), fair(0)},
      {behaviour::cycle(msec(10), msec(30), msec(5)), fair(10, sched_kind::batch)},
      {behaviour::cycle(usec(250), msec(4), usec(700)), fair(19)},
  };
}

struct use_o1 {
  template <class T, class EntityOf = base_entity<o1_entity>> using policy = o1_policy<T, EntityOf>;
  using entity = o1_entity;
  static sched_params params(const spec& s) { return s.p; }
};
struct use_sd {
  template <class T, class EntityOf = base_entity<sd_entity>> using policy = sd_policy<T, EntityOf>;
  using entity = sd_entity;
  static sched_params params(const spec& s) { return s.p; }
};
struct use_goodness24 {
  template <class T, class EntityOf = base_entity<goodness24_entity>> using policy = goodness24_policy<T, EntityOf>;
  using entity = goodness24_entity;
  static sched_params params(const spec& s) { return fair(s.p.nice); }
};
struct use_nicksched {
  template <class T, class EntityOf = base_entity<nicksched_entity>> using policy = nicksched_policy<T, EntityOf>;
  using entity = nicksched_entity;
  static sched_params params(const spec& s) { return fair(s.p.nice); }
};
struct use_eevdf {
  template <class T, class EntityOf = base_entity<eevdf_entity>> using policy = eevdf_policy<T, EntityOf>;
  using entity = eevdf_entity;
  static sched_params params(const spec& s) { return s.p; }
};
struct use_bfs {
  template <class T, class EntityOf = base_entity<bfs_entity>> using policy = bfs_policy<T, EntityOf>;
  using entity = bfs_entity;
  static sched_params params(const spec& s) { return s.p; }
};
struct use_edf {
  template <class T, class EntityOf = base_entity<edf_entity>> using policy = edf_policy<T, EntityOf>;
  using entity = edf_entity;
  static sched_params params(const spec& s) {
    // Budgets 1.3..1.9 ms per 14..35 ms period: 0.42 of the CPU in total, under the 95 % bound.
    const int n = s.p.nice + 20;  // 20, 25, 15, 20, 30, 39
    return deadline(msec(1) + usec(100) * (n % 11), msec(10) + msec(1) * (n % 26));
  }
};
struct use_cfs {
  template <class T, class EntityOf = base_entity<cfs_entity>> using policy = cfs_policy<T, EntityOf>;
  using entity = cfs_entity;
  static sched_params params(const spec& s) { return s.p; }
};
struct use_cfs2007 {
  template <class T, class EntityOf = base_entity<cfs2007_entity>> using policy = cfs2007_policy<T, EntityOf>;
  using entity = cfs2007_entity;
  static sched_params params(const spec& s) { return s.p; }
};

// What one run gives: per task (in the order added) and for the whole run.
struct outcome {
  std::vector<std::int64_t> cpu, wait;
  std::vector<std::uint64_t> switches, runs;
  std::vector<std::size_t> log;
  std::uint64_t context_switches = 0;
};

// How a task holds its two entities: as base classes (the policies' default accessor,
// base_entity) or as data members after another field (member_entity, whose way back from
// entity to task subtracts a non-zero offset).
struct as_bases {
  template <class Use>
  struct task : rt_entity, Use::entity {
    int sched_class = 1;
  };
  template <class Use>
  using rt_of = base_entity<rt_entity>;
  template <class Use>
  using fair_of = base_entity<typename Use::entity>;
};
struct as_members {
  template <class Use>
  struct task {
    int sched_class = 1;
    rt_entity rt;
    typename Use::entity fair;
  };
  template <class Use>
  using rt_of = member_entity<&task<Use>::rt>;
  template <class Use>
  using fair_of = member_entity<&task<Use>::fair>;
};

template <class Use, class Layout = as_bases>
struct bench {
  using task = typename Layout::template task<Use>;
  using fair_t = typename Use::template policy<task, typename Layout::template fair_of<Use>>;
  using stack_t = class_stack<member_sched_class, rt_policy<task, typename Layout::template rt_of<Use>>, fair_t>;

  /// One 3 s run from `origin`; `vclock` (when set) places the policy's virtual clock first.
  static outcome run(sched_time origin, const vtime* vclock) {
    schedcore_test::check_scope scope;
    stack_t rq;
    fair_t& f = rq.template get<1>();
    if constexpr (has_hz_knob()) {
      typename fair_t::knobs k{};
      set_knob(k, "hz", hz);
      EXPECT_EQ(f.configure(k), errc::ok);
    }
    if (vclock != nullptr) {
      if constexpr (std::is_same_v<Use, use_cfs>) {
        EXPECT_EQ(f.reset_vruntime(*vclock), errc::ok);
      }
      if constexpr (std::is_same_v<Use, use_cfs2007>) {
        EXPECT_EQ(f.reset_fair_clock(*vclock), errc::ok);
      }
    }
    const std::vector<spec> w = fair_workload();
    std::vector<task> tasks(w.size() + 2);
    tick_driver<stack_t> d(rq, hz, origin);
    for (std::size_t i = 0; i < w.size(); ++i) {
      tasks[i].sched_class = 1;
      EXPECT_EQ(f.setup(tasks[i], Use::params(w[i])), errc::ok) << i;
      d.add(tasks[i], w[i].b);
    }
    // Two rt tasks: a periodic FIFO one and an RR hog that arrives late (rt throttling then
    // gives the fair class 50 ms per second).
    sched_params rt;
    rt.kind = sched_kind::fifo;
    rt.rt_priority = 50;
    tasks[w.size()].sched_class = 0;
    EXPECT_EQ(rq.template get<0>().setup(tasks[w.size()], rt), errc::ok);
    d.add(tasks[w.size()], behaviour::cycle(msec(1), msec(49), msec(2)));
    rt.kind = sched_kind::rr;
    rt.rt_priority = 10;
    tasks[w.size() + 1].sched_class = 0;
    EXPECT_EQ(rq.template get<0>().setup(tasks[w.size() + 1], rt), errc::ok);
    d.add(tasks[w.size() + 1], behaviour::cycle(msec(400), msec(1100), msec(1200)));
    d.run_until(sec(3));
    EXPECT_TRUE(rq.verify());
    outcome o;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      o.cpu.push_back(d.stats(i).cpu_ns);
      o.wait.push_back(d.stats(i).max_wait_ns);
      o.switches.push_back(d.stats(i).switches);
      o.runs.push_back(d.stats(i).runs);
    }
    o.log = d.switch_log();
    o.context_switches = d.context_switches();
    return o;
  }

  static constexpr bool has_hz_knob() {
    for (const auto& k : fair_t::knob_table)
      if (std::string_view(k.name) == "hz") return true;
    return false;
  }
  static void set_knob(typename fair_t::knobs& k, std::string_view name, s64 v) {
    for (const auto& info : fair_t::knob_table)
      if (std::string_view(info.name) == name) k.*(info.field) = v;
  }
};

template <class Use>
class WrapAllPolicies : public ::testing::Test {};

using policies = ::testing::Types<use_o1, use_sd, use_goodness24, use_nicksched, use_eevdf, use_bfs, use_edf,
                                  use_cfs, use_cfs2007>;
struct policy_names {
  template <class U>
  static std::string GetName(int) {
    if (std::is_same_v<U, use_o1>) return "o1";
    if (std::is_same_v<U, use_sd>) return "sd";
    if (std::is_same_v<U, use_goodness24>) return "goodness24";
    if (std::is_same_v<U, use_nicksched>) return "nicksched";
    if (std::is_same_v<U, use_eevdf>) return "eevdf";
    if (std::is_same_v<U, use_bfs>) return "bfs";
    if (std::is_same_v<U, use_edf>) return "edf";
    if (std::is_same_v<U, use_cfs>) return "cfs";
    return "cfs2007";
  }
};
TYPED_TEST_SUITE(WrapAllPolicies, policies, policy_names);

template <class O>
void expect_same(const O& a, const O& b, const char* what) {
  EXPECT_EQ(a.cpu, b.cpu) << what;
  EXPECT_EQ(a.switches, b.switches) << what;
  EXPECT_EQ(a.runs, b.runs) << what;
  EXPECT_EQ(a.wait, b.wait) << what;
  EXPECT_EQ(a.context_switches, b.context_switches) << what;
  EXPECT_TRUE(a.log == b.log) << what << ": switch logs differ (" << a.log.size() << " vs " << b.log.size()
                              << " entries)";
}

TYPED_TEST(WrapAllPolicies, SameScheduleWhenTheClockStartsJustBelowTheWrap) {
  using B = bench<TypeParam>;
  const auto zero = B::run(sched_time{}, nullptr);
  // The wrap falls in the middle of the run, during the rt hog's first burst, and right away.
  const auto mid = B::run(sched_time{u64_max - static_cast<u64>(msec(1500)) + 1}, nullptr);
  const auto at_once = B::run(sched_time{u64_max - 2}, nullptr);
  expect_same(zero, mid, "origin 2^64 - 1.5 s");
  expect_same(zero, at_once, "origin 2^64 - 3 ns");
  // The workload really shares the CPU: every task ran, and there were many switches.
  for (std::size_t i = 0; i < zero.cpu.size(); ++i) EXPECT_GT(zero.cpu[i], 0) << "task " << i;
  EXPECT_GT(zero.context_switches, 100u);
}

// member_entity: the same policies with the task's entities held as data members schedule
// exactly as with the entities as base classes (the accessor changes nothing but the address
// arithmetic), across the wrap too.
TYPED_TEST(WrapAllPolicies, SameScheduleWithTheEntitiesAsDataMembers) {
  using bases = bench<TypeParam, as_bases>;
  using members = bench<TypeParam, as_members>;
  static_assert(!std::is_base_of_v<rt_entity, typename members::task>, "the member layout holds, not derives");
  const auto base = bases::run(sched_time{}, nullptr);
  expect_same(base, members::run(sched_time{}, nullptr), "entities as data members");
  expect_same(base, members::run(sched_time{u64_max - static_cast<u64>(msec(1500)) + 1}, nullptr),
              "entities as data members, clock wrapping mid-run");
}

TYPED_TEST(WrapAllPolicies, SameScheduleWithTheVirtualClockNearTheWrap) {
  using B = bench<TypeParam>;
  if constexpr (!std::is_same_v<TypeParam, use_cfs> && !std::is_same_v<TypeParam, use_cfs2007>) {
    GTEST_SKIP() << "no test knob to place this policy's virtual clock";
  } else {
    const vtime v0{0};
    const vtime near{u64_max - static_cast<u64>(msec(20)) + 1};  // vruntimes cross 2^64 after ~20 ms
    const vtime below{u64_max - 5};
    const auto base = B::run(sched_time{}, &v0);
    expect_same(base, B::run(sched_time{}, &near), "virtual clock at 2^64 - 20 ms");
    expect_same(base, B::run(sched_time{}, &below), "virtual clock at 2^64 - 6 ns");
    expect_same(base, B::run(sched_time{u64_max - static_cast<u64>(msec(700)) + 1}, &near),
                "wall and virtual clock both near the wrap");
    // And the default (cfs: min_vruntime = -2^20, cfs2007: 0) agrees too.
    expect_same(base, B::run(sched_time{}, nullptr), "the policy's default virtual origin");
  }
}

}  // namespace
