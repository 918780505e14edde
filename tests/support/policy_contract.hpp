// A reusable conformance suite for the policy contract of include/schedcore/policy/policy.hpp
// (the life of a task in one class and the hook table) and the setup() convention of
// include/schedcore/policy/params.hpp. Any policy, the library's or a user's own, can be run
// through it.
//
// How to use it for your own policy: write a traits struct that names the policy and its task
// type and says how to make valid parameters for the kinds the policy supports (each of
// `normal`, `rt` and `deadline` is optional, but at least one must exist; the random runs mix
// every kind present). Then instantiate the typed suite once per traits struct, in a test file
// linked with schedcore_test_support (for check_recorder.hpp). That CMake target is internal to
// this repository; outside it, compile tests/support/check_recorder.cpp with your test and
// define SCHEDCORE_ASSERT_HANDLER=schedcore_test_check_handler and SCHEDCORE_ENABLE_ASSERTS=1
// for every file (what the target adds): the misuse tests record the library's reports through
// that handler, and without it the first deliberate double enqueue traps (SIGILL):
//
//   g++ -std=c++17 -Iinclude -Itests/support
//       -DSCHEDCORE_ASSERT_HANDLER=schedcore_test_check_handler -DSCHEDCORE_ENABLE_ASSERTS=1
//       my_contract_test.cpp tests/support/check_recorder.cpp -lgtest -lgtest_main -pthread
//   (one command line)
//
//   struct my_task : my_entity {};
//   struct my_traits {
//     using policy_type = my_policy<my_task>;
//     using task_type = my_task;
//     static schedcore::sched_params normal(int nice) {   // nice in [-20, 19]; 20 and -21 must be refused
//       schedcore::sched_params p;
//       p.nice = static_cast<schedcore::s8>(nice);
//       return p;
//     }
//   };
//   namespace schedcore_test::contract {  // where the suite's names are
//   INSTANTIATE_TYPED_TEST_SUITE_P(my_policy, PolicyContract, ::testing::Types<my_traits>, names);
//   }
//
// Optional traits members:
//   static sched_params rt(int prio);              // prio 1..99 valid, 0 and 100 must be refused
//   static sched_params deadline(int level);       // level 0..39: admissible for 16 tasks at once
//   static void configure(policy_type&);           // knobs before the first task
//   static errc place_virtual_clock(policy_type&, vtime);  // a placeable virtual clock (wrap check)
//   static bool hidden_delayed(const policy_type&);  // the class holds delayed entities that are
//                                                  // not tasks (group_policy's delayed groups),
//                                                  // whose dequeue a pick may complete
//   static bool pick_checks_runtime(const policy_type&);  // the pick makes the kernel's runtime
//                                                  // checks (group_policy's bandwidth: a draw
//                                                  // or a throttle); the picks after it change
//                                                  // nothing
//   static constexpr bool can_throttle = true;     // the class may idle with runnable tasks until
//                                                  // a class timer fires (RT bandwidth, CBS);
//                                                  // without it, pick_next returning nullptr
//                                                  // while a task is runnable always fails, even
//                                                  // when a class timer is armed
//
// Every check is also a plain function returning ::testing::AssertionResult (check_*<Traits>()
// below), so a test can expect a broken policy to fail it. The random runs drive the policy as a
// uniprocessor core would (a shadow model knows which tasks are runnable and which one runs) and
// check after every hook call: verify(), nr_runnable() against the model, and that pick_next()
// returns only a runnable task. Class timers (next_timer/timer) are fired when due, so a class
// that throttles is not mistaken for one that loses tasks. The random operations: wakeups
// (plain, interrupt, uninterruptible, migrated), forks, blocking of curr and of a queued task,
// ticks with a monotone clock, preemption, yield, parameter changes (dequeue(save), setup,
// enqueue(restore), prio_changed), invalid setups, exits (dequeue(dead), task_dead), migrations
// away and back, class switches away (switched_from) and back. Not modelled: enqueue_flags::head
// and a save/restore of a sleeper still queued by a delayed dequeue.
#ifndef SCHEDCORE_TESTS_POLICY_CONTRACT_HPP
#define SCHEDCORE_TESTS_POLICY_CONTRACT_HPP

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "test_steps.hpp"

#include "check_recorder.hpp"
#include "schedcore/core/errc.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/policy/flags.hpp"
#include "schedcore/policy/params.hpp"
#include "schedcore/policy/policy.hpp"

namespace schedcore_test::contract {

using schedcore::dequeue_flags;
using schedcore::enqueue_flags;
using schedcore::errc;
using schedcore::sched_params;
using schedcore::sched_time;
using schedcore::vtime;

/// @cond INTERNAL
namespace detail {

template <class Tr, class = void>
struct has_normal : std::false_type {};
template <class Tr>
struct has_normal<Tr, std::void_t<decltype(Tr::normal(0))>> : std::true_type {};
template <class Tr, class = void>
struct has_rt : std::false_type {};
template <class Tr>
struct has_rt<Tr, std::void_t<decltype(Tr::rt(1))>> : std::true_type {};
template <class Tr, class = void>
struct has_deadline : std::false_type {};
template <class Tr>
struct has_deadline<Tr, std::void_t<decltype(Tr::deadline(0))>> : std::true_type {};
template <class Tr, class = void>
struct has_configure : std::false_type {};
template <class Tr>
struct has_configure<Tr, std::void_t<decltype(Tr::configure(std::declval<typename Tr::policy_type&>()))>>
    : std::true_type {};
template <class Tr, class = void>
struct can_throttle : std::false_type {};
template <class Tr>
struct can_throttle<Tr, std::void_t<decltype(Tr::can_throttle)>> : std::bool_constant<Tr::can_throttle> {};
template <class Tr, class = void>
struct has_hidden_delayed : std::false_type {};
template <class Tr>
struct has_hidden_delayed<Tr, std::void_t<decltype(Tr::hidden_delayed(std::declval<const typename Tr::policy_type&>()))>>
    : std::true_type {};
template <class Tr, class = void>
struct has_pick_checks_runtime : std::false_type {};
template <class Tr>
struct has_pick_checks_runtime<Tr, std::void_t<decltype(Tr::pick_checks_runtime(std::declval<const typename Tr::policy_type&>()))>>
    : std::true_type {};
template <class Tr, class = void>
struct has_vclock : std::false_type {};
template <class Tr>
struct has_vclock<Tr, std::void_t<decltype(Tr::place_virtual_clock(std::declval<typename Tr::policy_type&>(),
                                                                    vtime{}))>> : std::true_type {};

// Deterministic and the same on every platform (no std distributions).
class xorshift64 {
 public:
  explicit xorshift64(std::uint64_t seed) : s_(seed != 0 ? seed : 0x9e3779b97f4a7c15ull) {}
  std::uint64_t next() {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 7;
    s_ ^= s_ << 17;
    return s_;
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  int below_int(int n) { return static_cast<int>(below(static_cast<std::uint64_t>(n))); }

 private:
  std::uint64_t s_;
};

// Snapshot of an object's bytes: "changes nothing" is checked as "no byte changed".
template <class T>
std::vector<unsigned char> bytes_of(const T& v) {
  std::vector<unsigned char> b(sizeof(T));
  std::memcpy(b.data(), static_cast<const void*>(&v), sizeof(T));
  return b;
}

}  // namespace detail
/// @endcond

/// Valid parameters of a random kind the traits support, at a random level.
template <class Tr>
sched_params random_params(detail::xorshift64& rng) {
  constexpr int kinds = int{detail::has_normal<Tr>::value} + int{detail::has_rt<Tr>::value} +
                        int{detail::has_deadline<Tr>::value};
  static_assert(kinds > 0, "policy_contract traits: define at least one of normal(nice), rt(prio), deadline(level)");
  int k = rng.below_int(kinds);
  if constexpr (detail::has_normal<Tr>::value) {
    if (k-- == 0) return Tr::normal(rng.below_int(40) - 20);
  }
  if constexpr (detail::has_rt<Tr>::value) {
    if (k-- == 0) return Tr::rt(1 + rng.below_int(99));
  }
  if constexpr (detail::has_deadline<Tr>::value) {
    if (k-- == 0) return Tr::deadline(rng.below_int(40));
  }
  return sched_params{};  // unreachable: k < kinds
}

/// The invalid parameter sets of the kinds the traits support.
template <class Tr>
std::vector<std::pair<std::string, sched_params>> invalid_params() {
  std::vector<std::pair<std::string, sched_params>> v;
  if constexpr (detail::has_normal<Tr>::value) {
    v.emplace_back("nice 20", Tr::normal(20));
    v.emplace_back("nice -21", Tr::normal(-21));
  }
  if constexpr (detail::has_rt<Tr>::value) {
    v.emplace_back("rt priority 0", Tr::rt(0));
    v.emplace_back("rt priority 100", Tr::rt(100));
  }
  if constexpr (detail::has_deadline<Tr>::value) {
    sched_params p = Tr::deadline(0);
    p.runtime = 0;
    v.emplace_back("deadline runtime 0", p);
    p = Tr::deadline(0);
    p.runtime = p.deadline + 1;
    v.emplace_back("deadline runtime > deadline", p);
  }
  return v;
}

/// Drives one policy object like a uniprocessor core and checks the contract after every hook.
/// The first violation is kept (with the step and operation) and stops the run.
template <class Tr>
class harness {
 public:
  using policy_type = typename Tr::policy_type;
  using task_type = typename Tr::task_type;
  using pt = schedcore::policy_traits<policy_type>;
  static constexpr std::size_t npos = std::numeric_limits<std::size_t>::max();
  static constexpr std::uint32_t no_pick = std::numeric_limits<std::uint32_t>::max();

  /// `n` tasks, set up with random valid parameters but not yet forked (not queued).
  harness(std::size_t n, sched_time origin, std::uint64_t seed, const vtime* vclock = nullptr)
      : now_(origin), rng_(seed), seed_(seed) {
    if constexpr (detail::has_configure<Tr>::value) Tr::configure(p_);
    if constexpr (detail::has_vclock<Tr>::value) {
      if (vclock != nullptr) expect(Tr::place_virtual_clock(p_, *vclock) == errc::ok, "placing the virtual clock");
    }
    slots_.resize(n);
    for (std::size_t i = 0; i < n; ++i) renew(i);
  }

  policy_type& policy() { return p_; }
  /// Every byte of the policy and of each task: "returns without changing anything" is
  /// checked by comparing two of these.
  std::vector<std::vector<unsigned char>> state_bytes() const {
    std::vector<std::vector<unsigned char>> b{detail::bytes_of(p_)};
    for (const slot& s : slots_) b.push_back(detail::bytes_of(*s.t));
    return b;
  }
  sched_time now() const { return now_; }
  task_type& task(std::size_t i) { return *slots_[i].t; }
  bool queued(std::size_t i) const { return slots_[i].queued; }
  task_type* curr() const { return curr_; }
  std::size_t size() const { return slots_.size(); }
  bool ok() const { return failure_.empty(); }
  const std::vector<std::uint32_t>& pick_log() const { return log_; }
  std::size_t nr_queued() const {
    std::size_t n = 0;
    for (const slot& s : slots_) n += s.queued ? 1 : 0;
    return n;
  }

  /// The verdict: success, or the first violation with the seed, step and operation.
  ::testing::AssertionResult result() const {
    if (ok()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << failure_;
  }
  /// Records a violation (the first one wins). Returns cond.
  bool expect(bool cond, const std::string& what) {
    if (!cond && failure_.empty()) {
      std::ostringstream os;
      os << what << " (seed " << seed_ << ", step " << step_ << ", operation " << op_ << ", now "
         << now_.ns() << ")";
      failure_ = os.str();
    }
    return cond;
  }

  // --- the hooks, each followed by the checks that hold after any hook -----------------------

  // Life of a task (policy.hpp): "task_new(t, parent) once, before the first enqueue (fork)",
  // "enqueue(t, initial|wakeup) t becomes runnable; counted by nr_runnable()".
  void fork(std::size_t i) {
    slot& s = slots_[i];
    if (!expect(s.fresh && !s.queued, "harness: fork of a task already started")) return;
    pt::task_new(p_, *s.t, curr_, now_);
    after("task_new");
    enqueue(i, enqueue_flags::initial);
    s.fresh = false;
  }
  /// A wakeup (from a task or an interrupt, after a sleep of either kind, maybe on another
  /// CPU first), the fork of a task not started yet, or the return of a task that another CPU
  /// (migrated) or another class (setup, switched_from) had taken.
  void wake(std::size_t i) {
    slot& s = slots_[i];
    if (s.fresh) {
      fork(i);
      return;
    }
    const away how = s.where;
    s.where = away::no;
    if (how == away::migrated) {  // a load balancer pulls it back
      enqueue(i, enqueue_flags::migrated);
      return;
    }
    if (how == away::other_class) {  // back from another class: parameters first
      expect(p_.setup(*s.t, random_params<Tr>(rng_)) == errc::ok, "setup refused a task coming back from another class");
      after("setup");
    }
    static constexpr enqueue_flags extra[] = {enqueue_flags::none, enqueue_flags::interrupt,
                                              enqueue_flags::uninterruptible, enqueue_flags::migrated};
    // A delayed sleeper is woken where it is queued, never as a migration (policy.hpp, delayed row).
    const int n = pt::delayed(p_, *s.t) ? 3 : 4;
    enqueue(i, enqueue_flags::wakeup | extra[rng_.below_int(n)]);
  }
  void enqueue(std::size_t i, enqueue_flags f) {
    p_.enqueue(*slots_[i].t, now_, f);
    slots_[i].queued = true;
    after("enqueue");
  }
  // "dequeue(t, sleep|dead|...) t stops being runnable; if t was running, *no* put_prev follows"
  void dequeue(std::size_t i, dequeue_flags f) {
    p_.dequeue(*slots_[i].t, now_, f);
    slots_[i].queued = false;
    if (pt::delayed(p_, *slots_[i].t)) ++delayed_;
    if (curr_ == slots_[i].t.get()) curr_ = nullptr;
    after("dequeue");
  }
  // "set_next(t) t starts running ("curr"); still runnable"
  void set_next(task_type& t) {
    p_.set_next(t, now_);
    curr_ = &t;
    after("set_next");
  }
  // "put_prev(t) t stops running but stays runnable (preempted, yielded)"
  void put_prev() {
    if (curr_ == nullptr) return;
    p_.put_prev(*curr_, now_);
    curr_ = nullptr;
    after("put_prev");
  }

  /// pick_next, checked (policy.hpp, pick_next row): "the next task, or nullptr; no side effects
  /// except completing a delayed dequeue". It is called twice: the same task both times and the
  /// same nr_runnable() (a completed delayed dequeue is not counted by nr_runnable anyway).
  task_type* pick() {
    const std::size_t nr_before = p_.nr_runnable();
    // "nothing is changed by picking": not a byte of the class or of any task, unless a
    // delayed dequeue may be completed.
    bool any_delayed = false;
    std::vector<std::vector<unsigned char>> before;
    before.push_back(detail::bytes_of(p_));
    for (const slot& s : slots_) {
      any_delayed = any_delayed || pt::delayed(p_, *s.t);
      before.push_back(detail::bytes_of(*s.t));
    }
    // Delayed entities that are not tasks (group_policy's groups) complete in a pick too.
    if constexpr (detail::has_hidden_delayed<Tr>::value) any_delayed = any_delayed || Tr::hidden_delayed(p_);
    // The kernel's runtime checks in the pick (group_policy with bandwidth): the first pick may
    // change the state, the second must not.
    bool checks = false;
    if constexpr (detail::has_pick_checks_runtime<Tr>::value) checks = Tr::pick_checks_runtime(p_);
    task_type* a = p_.pick_next(now_);
    if (!any_delayed && !checks) {
      expect(detail::bytes_of(p_) == before[0], "pick_next has a side effect: it changed the class's state");
      for (std::size_t i = 0; i < slots_.size(); ++i)
        expect(detail::bytes_of(*slots_[i].t) == before[i + 1],
               "pick_next has a side effect: it changed task " + std::to_string(i));
    }
    after("pick_next");
    const std::size_t nr_between = p_.nr_runnable();
    const std::vector<unsigned char> between = detail::bytes_of(p_);
    task_type* b = p_.pick_next(now_);
    if (!any_delayed && checks)
      expect(detail::bytes_of(p_) == between, "pick_next has a side effect: a second pick after the runtime checks changed the class's state");
    after("pick_next (again)");
    expect(a == b, "pick_next has a side effect: two calls in a row returned different tasks");
    expect(nr_before == nr_between && nr_between == p_.nr_runnable(),
           "pick_next has a side effect: nr_runnable() changed");
    std::uint32_t code = no_pick;
    if (a != nullptr) ++tasks_picked_;
    if (a != nullptr) {
      const std::size_t i = index_of(a);
      // Life of a task: only an enqueued task is "the class's choice"; a dequeued or dead one
      // (a pointer no slot holds any more) never is.
      if (!expect(i != npos, "pick_next returned a dead task or one never enqueued")) return nullptr;
      if (!expect(slots_[i].queued, "pick_next returned a task that is not runnable (dequeued)")) return nullptr;
      code = static_cast<std::uint32_t>(i) | (slots_[i].gen << 8);
    } else if (nr_queued() != 0) {
      // Throttling classes return nullptr until a class timer ends the throttle (policy.hpp,
      // "Class timers are how a class that throttles ... gets the CPU back"). Only a class
      // declared to throttle gets that excuse: an armed timer of another kind (a periodic
      // boost) must not hide a class that idles with runnable tasks.
      if constexpr (detail::can_throttle<Tr>::value) {
        sched_time when{};
        expect(pt::next_timer(p_, when), "pick_next returned nullptr with runnable tasks and no class timer pending");
      } else {
        expect(false, "pick_next returned nullptr with runnable tasks (a class that may throttle declares "
                      "can_throttle in its traits)");
      }
    }
    log_.push_back(code);
    return a;
  }

  /// A core's schedule(): put_prev (when curr is still runnable), pick, set_next.
  void schedule() {
    put_prev();
    if (task_type* n = pick()) set_next(*n);
  }

  /// Advances the clock by `d` (> 0): due class timers fire at their instant, then curr ticks.
  void advance(schedcore::duration_ns d) {
    const sched_time target = now_ + d;
    for (int k = 0; k < 64 && ok(); ++k) {
      sched_time when{};
      if (!pt::next_timer(p_, when) || target < when) break;
      if (now_ < when) now_ = when;
      const bool r = pt::timer(p_, now_);
      ++timers_fired_;
      after("timer");
      timers_ran();
      if (r || curr_ == nullptr) schedule();
    }
    now_ = target;
    if (curr_ != nullptr) {
      // "tick(curr, now) -> bool | account; true asks for a reschedule"
      const bool r = p_.tick(*curr_, now_);
      after("tick");
      if (r) schedule();
    } else {
      schedule();
    }
  }

  /// pick with class timers fired while the class is throttled; nullptr only when empty.
  task_type* pick_eventually() {
    for (int k = 0; k < 1000 && ok(); ++k) {
      if (task_type* t = pick()) return t;
      sched_time when{};
      if (!pt::next_timer(p_, when)) return nullptr;
      if (now_ < when) now_ = when;
      static_cast<void>(pt::timer(p_, now_));
      after("timer");
      timers_ran();
    }
    expect(false, "pick_next kept returning nullptr through 1000 class timers");
    return nullptr;
  }

  // --- random operations ----------------------------------------------------------------------

  /// One random operation of a core: wakeups, blocking (of curr or of another queued task),
  /// ticks, preemption, yield, a parameter change, exit and fork.
  void random_step() {
    ++step_;
    const int r = rng_.below_int(100);
    if (r < 22) {
      op_ = "wakeup";
      const std::size_t i = pick_slot([](const slot& s) { return !s.queued; });
      if (i == npos) return;
      wake(i);
      if (curr_ == nullptr) {
        schedule();
      } else {
        // "wakeup_preempt(woken, curr, now) -> bool | should woken (just enqueued) preempt curr"
        const bool pre = p_.wakeup_preempt(*slots_[i].t, *curr_, now_);
        after("wakeup_preempt");
        if (pre) schedule();
      }
    } else if (r < 46) {
      op_ = "tick";
      advance(schedcore::usec(1) + static_cast<schedcore::duration_ns>(rng_.below(8000000)));
    } else if (r < 60) {
      op_ = "block curr";
      if (curr_ == nullptr) return;
      dequeue(index_of(curr_), dequeue_flags::sleep);
      schedule();
    } else if (r < 68) {
      op_ = "block another queued task";
      const std::size_t i = pick_slot([this](const slot& s) { return s.queued && s.t.get() != curr_; });
      if (i == npos) return;
      dequeue(i, dequeue_flags::sleep);
      resched_if_asked();
    } else if (r < 76) {
      op_ = "preempt";
      schedule();
    } else if (r < 82) {
      op_ = "yield";
      if (curr_ == nullptr || !schedcore::detail::has_yield<policy_type>::value) return;
      pt::yield(p_, *curr_, now_);
      after("yield");
      schedule();
    } else if (r < 90) {
      op_ = "parameter change";
      change_params(static_cast<std::size_t>(rng_.below(slots_.size())), random_params<Tr>(rng_));
    } else if (r < 92) {
      op_ = "invalid setup";
      const auto bad = invalid_params<Tr>();
      const auto& b = bad[static_cast<std::size_t>(rng_.below(bad.size()))];
      refuses_setup(static_cast<std::size_t>(rng_.below(slots_.size())), b.second, b.first);
    } else if (r < 96) {
      op_ = "exit";
      const std::size_t i = pick_slot([](const slot& s) { return s.queued; });
      if (i == npos) return;
      exit(i);
    } else if (r < 98) {
      op_ = "migrate a queued task away";
      const std::size_t i = pick_slot([this](const slot& s) { return s.queued && s.t.get() != curr_; });
      if (i == npos) return;
      dequeue(i, dequeue_flags::migrating);
      slots_[i].where = away::migrated;
      resched_if_asked();
    } else {
      op_ = "switch to another class";
      const std::size_t i = pick_slot([](const slot& s) { return !s.fresh && s.where == away::no; });
      if (i == npos) return;
      leave_class(i);
    }
  }

  void run(int steps) {
    for (int k = 0; k < steps && ok(); ++k) random_step();
  }

  /// "A parameter change (nice, RT priority) is dequeue(save), change, enqueue(restore),
  /// prio_changed(t)"; a running task is set as curr again after the restore, as the simulator
  /// does. A sleeping task is set up directly (params.hpp: setup refuses only a queued task).
  void change_params(std::size_t i, const sched_params& np) {
    slot& s = slots_[i];
    if (s.queued) {
      const bool was_curr = curr_ == s.t.get();
      dequeue(i, dequeue_flags::save);
      expect(p_.setup(*s.t, np) == errc::ok, "setup refused valid parameters of a task dequeued with save");
      enqueue(i, enqueue_flags::restore);
      if (was_curr) set_next(*s.t);
      pt::prio_changed(p_, *s.t, now_);
      after("prio_changed");
      schedule();
    } else if (!pt::delayed(p_, *s.t) && s.where != away::other_class) {
      expect(p_.setup(*s.t, np) == errc::ok, "setup refused valid parameters of a sleeping task");
      after("setup");
    }
  }

  /// A class change away (policy.hpp: "the core calls the old class's switched_from(t) after the
  /// dequeue and before t's class changes"); a sleeping task (even a delayed one) too.
  void leave_class(std::size_t i) {
    slot& s = slots_[i];
    const bool was_curr = curr_ == s.t.get();
    if (s.queued) dequeue(i, dequeue_flags::save);
    pt::switched_from(p_, *s.t, now_);
    after("switched_from");
    expect(!pt::delayed(p_, *s.t), "a task is still delayed in a class it left (switched_from)");
    s.where = away::other_class;
    if (was_curr) {
      schedule();
    } else {
      resched_if_asked();
    }
  }

  /// dequeue(dead), task_dead, and a fresh task in the slot (the old object stays allocated,
  /// so a stale pointer to it would be caught, never reused).
  void exit(std::size_t i) {
    const bool was_curr = curr_ == slots_[i].t.get();
    dequeue(i, dequeue_flags::dead);
    // "task_dead(t) once, after the last dequeue"
    pt::task_dead(p_, *slots_[i].t, now_);
    after("task_dead");
    graveyard_.push_back(std::move(slots_[i].t));
    ++slots_[i].gen;
    renew(i);
    if (was_curr) {
      schedule();
    } else {
      resched_if_asked();
    }
  }

  /// The checks that hold after every hook.
  void after(const char* hook) {
    if (!ok()) return;
    // verify row: "O(n) structural self-check".
    if (!expect(pt::verify(p_), std::string("verify() is false after ") + hook)) return;
    // nr_runnable row: "queued tasks, including a running one".
    const std::size_t want = nr_queued();
    if (want > max_queued_) max_queued_ = want;
    const std::size_t got = p_.nr_runnable();
    if (got != want) {
      std::ostringstream os;
      os << "nr_runnable() is " << got << " after " << hook << ", " << want << " tasks are runnable"
         << (curr_ != nullptr ? " (one of them running)" : "");
      expect(false, os.str());
    }
  }

  std::size_t index_of(const task_type* t) const {
    for (std::size_t i = 0; i < slots_.size(); ++i)
      if (slots_[i].t.get() == t) return i;
    return npos;
  }

  /// A random slot satisfying `pred`, or npos.
  template <class Pred>
  std::size_t pick_slot(Pred pred) {
    const std::size_t n = slots_.size();
    const std::size_t start = static_cast<std::size_t>(rng_.below(n));
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t i = (start + k) % n;
      if (pred(slots_[i])) return i;
    }
    return npos;
  }

  /// params.hpp: setup "refuses (returns an error, changes nothing) on bad input": no byte of the
  /// task or of the class changes, nor nr_runnable().
  /// `expected`: the one error the convention names for this case (errc::busy for valid
  /// parameters of a queued task), or errc::ok for "any error" (bad input, whose code each
  /// policy chooses).
  void refuses_setup(std::size_t i, const sched_params& p, const std::string& what, errc expected = errc::ok) {
    const auto task_before = detail::bytes_of(*slots_[i].t);
    const auto policy_before = detail::bytes_of(p_);
    const std::size_t nr = p_.nr_runnable();
    const errc e = p_.setup(*slots_[i].t, p);
    expect(e != errc::ok, "setup accepted " + what);
    if (expected != errc::ok && e != errc::ok)
      expect(e == expected, "setup refused " + what + " with \"" + std::string(schedcore::to_string(e)) +
                                "\", not \"" + std::string(schedcore::to_string(expected)) + "\"");
    expect(detail::bytes_of(*slots_[i].t) == task_before, "setup refusing " + what + " changed the task");
    expect(detail::bytes_of(p_) == policy_before, "setup refusing " + what + " changed the policy");
    expect(p_.nr_runnable() == nr, "setup refusing " + what + " changed nr_runnable()");
    after("setup");
  }

  /// timer row: "run class timers due at now": none is still due afterwards.
  void timers_ran() {
    sched_time when{};
    if (pt::next_timer(p_, when)) expect(now_ < when, "timer(now) left a class timer due at or before now");
  }

  /// take_resched row: "the core asks after such a dequeue and reschedules on true".
  void resched_if_asked() {
    if (pt::take_resched(p_)) schedule();
  }

  detail::xorshift64& rng() { return rng_; }
  std::size_t tasks_picked() const { return tasks_picked_; }
  std::size_t max_queued() const { return max_queued_; }
  std::size_t timers_fired() const { return timers_fired_; }
  std::size_t delayed_dequeues() const { return delayed_; }
  void set_op(const char* op) { op_ = op; }

 private:
  enum class away : unsigned char { no, migrated, other_class };
  struct slot {
    std::unique_ptr<task_type> t;
    away where = away::no;  // not runnable here because another CPU or class has it
    bool queued = false;
    bool fresh = true;      // set up, not forked yet
    std::uint32_t gen = 0;  // incarnation, for the pick log
  };

  void renew(std::size_t i) {
    slot& s = slots_[i];
    s.t = std::make_unique<task_type>();
    s.queued = false;
    s.fresh = true;
    s.where = away::no;
    expect(p_.setup(*s.t, random_params<Tr>(rng_)) == errc::ok, "setup refused valid parameters of a new task");
  }

  policy_type p_{};
  std::vector<slot> slots_;
  std::vector<std::unique_ptr<task_type>> graveyard_;
  task_type* curr_ = nullptr;
  sched_time now_;
  detail::xorshift64 rng_;
  std::uint64_t seed_;
  int step_ = 0;
  const char* op_ = "setup";
  std::vector<std::uint32_t> log_;
  std::string failure_;
  std::size_t tasks_picked_ = 0;
  std::size_t max_queued_ = 0;
  std::size_t timers_fired_ = 0;
  std::size_t delayed_ = 0;
};

/// Runs `body` inside a check_scope: any check the library reports (a misuse, a warning, an
/// assertion) that `body` did not take is a failure of the check, not of the calling test.
template <class Body>
::testing::AssertionResult with_check_scope(Body body) {
  check_scope scope;
  ::testing::AssertionResult r = body(scope);
  const std::vector<recorded_check> left = scope.take();
  if (r && !left.empty()) {
    return ::testing::AssertionFailure() << left.size() << " unexpected schedcore check failure(s), first: "
                                         << left.front().expr << " at " << left.front().file << ":"
                                         << left.front().line;
  }
  return r;
}

constexpr int random_steps = run_steps(20000);
constexpr std::size_t random_tasks = 16;

// --- the checks ------------------------------------------------------------------------------

/// nr_runnable row: "queued tasks, including a running one", through enqueue, set_next,
/// put_prev and dequeue of curr and of a queued task; 0 when empty, and pick_next row: "the
/// next task, or nullptr" (nullptr on an empty queue).
template <class Tr>
::testing::AssertionResult check_nr_runnable_counts() {
  return with_check_scope([](check_scope&) {
    harness<Tr> h(4, sched_time{}, 1);
    h.set_op("empty");
    h.expect(h.policy().nr_runnable() == 0, "nr_runnable() of an empty class is not 0");
    h.expect(h.pick() == nullptr, "pick_next of an empty class is not nullptr");
    h.set_op("fork");
    for (std::size_t i = 0; i < 4; ++i) h.fork(i);
    h.set_op("schedule");
    h.schedule();
    h.expect(h.curr() != nullptr, "pick_next returned nullptr with 4 runnable tasks");
    if (!h.ok()) return h.result();
    h.set_op("put_prev");
    h.put_prev();  // nr_runnable checked after the hook: the task put back is counted
    h.set_op("schedule");
    h.schedule();
    h.set_op("tick");
    h.advance(schedcore::msec(1));
    h.set_op("dequeue a queued task");
    for (std::size_t i = 0; i < 4; ++i) {
      if (h.queued(i) && &h.task(i) != h.curr()) {
        h.dequeue(i, dequeue_flags::sleep);
        break;
      }
    }
    h.set_op("dequeue curr");
    if (h.curr() != nullptr) h.dequeue(h.index_of(h.curr()), dequeue_flags::sleep);
    h.schedule();
    h.set_op("dequeue all");
    h.put_prev();
    for (std::size_t i = 0; i < 4; ++i)
      if (h.queued(i)) h.dequeue(i, dequeue_flags::sleep);
    h.expect(h.policy().nr_runnable() == 0, "nr_runnable() is not 0 once every task left");
    h.expect(h.pick() == nullptr, "pick_next is not nullptr once every task left");
    return h.result();
  });
}

/// pick_next row: "no side effects except completing a delayed dequeue (see delayed)"; life of a
/// task: "pick_next() -> t: nothing is changed by picking". Checked at every pick of a random
/// run (harness::pick calls pick_next twice); here also many picks in a row on one state.
template <class Tr>
::testing::AssertionResult check_pick_next_is_pure(std::uint64_t seed = 11, int steps = run_steps(3000)) {
  return with_check_scope([&](check_scope&) {
    harness<Tr> h(random_tasks, sched_time{}, seed);
    for (int k = 0; k < steps && h.ok(); ++k) {
      h.random_step();
      if (k % 16 != 0) continue;
      h.set_op("repeated pick_next");
      h.put_prev();
      typename Tr::task_type* first = h.pick();
      for (int j = 0; j < 4 && h.ok(); ++j)
        h.expect(h.pick() == first, "pick_next has a side effect: repeated calls returned different tasks");
      if (first != nullptr) h.set_next(*first);
    }
    return h.result();
  });
}

/// Life of a task: only a task between enqueue and dequeue is picked; never a dequeued or dead
/// one; verify() after every hook; nr_runnable tracks the model (random operations, fixed seed).
template <class Tr>
::testing::AssertionResult check_random_run(std::uint64_t seed = 42, int steps = random_steps) {
  return with_check_scope([&](check_scope&) {
    harness<Tr> h(random_tasks, sched_time{}, seed);
    h.run(steps);
    // Not vacuous: the run really queued several tasks and switched between them.
    h.expect(!h.ok() || h.max_queued() >= 8, "the random run never had 8 tasks queued at once");
    h.expect(!h.ok() || h.tasks_picked() >= static_cast<std::size_t>(steps) / 8, "the random run picked too few tasks");
    return h.result();
  });
}

/// No task is lost: after a long random run, (a) dequeuing every queued task empties the class
/// (nr_runnable 0, pick_next nullptr); (b) picking and then blocking each pick in turn reaches
/// every queued task, the last one alone (life of a task: "enqueue ... t becomes runnable").
template <class Tr>
::testing::AssertionResult check_no_task_lost(std::uint64_t seed = 7, int steps = run_steps(6000)) {
  return with_check_scope([&](check_scope&) {
    {
      harness<Tr> h(random_tasks, sched_time{}, seed);
      h.run(steps);
      h.set_op("dequeue every task");
      for (std::size_t i = 0; i < h.size() && h.ok(); ++i)
        if (h.queued(i)) h.dequeue(i, dequeue_flags::sleep);
      h.expect(h.policy().nr_runnable() == 0, "nr_runnable() is not 0 after every task was dequeued");
      h.expect(h.pick() == nullptr, "pick_next is not nullptr after every task was dequeued");
      if (!h.ok()) return h.result();
    }
    harness<Tr> h(random_tasks, sched_time{}, seed);
    h.run(steps);
    h.set_op("drain by picks");
    h.put_prev();
    std::vector<bool> seen(h.size(), false);
    std::size_t left = h.nr_queued();
    while (left > 0 && h.ok()) {
      typename Tr::task_type* t = h.pick_eventually();
      if (!h.expect(t != nullptr, "a runnable task is never picked (" + std::to_string(left) + " left)")) break;
      const std::size_t i = h.index_of(t);
      h.expect(!seen[i], "a task blocked by the drain was picked again");
      seen[i] = true;
      h.set_next(*t);
      h.advance(schedcore::usec(100));  // it runs a little (a tick may pick another: fine)
      h.put_prev();
      h.dequeue(i, dequeue_flags::sleep);
      --left;
    }
    h.expect(h.policy().nr_runnable() == 0 && h.pick() == nullptr, "the class is not empty after the drain");
    // A lone task is always picked.
    if (h.ok()) {
      h.set_op("lone task");
      const std::size_t i = 0;
      h.change_params(i, random_params<Tr>(h.rng()));
      h.wake(i);
      h.expect(h.pick_eventually() == &h.task(i), "a lone runnable task is not picked");
    }
    return h.result();
  });
}

/// put_prev row: "running t stops running, stays runnable"; the task put back is counted and
/// is picked again once the others are gone (also after a yield: "nothing: the next pick may
/// choose curr again").
template <class Tr>
::testing::AssertionResult check_put_prev_keeps_task_runnable() {
  return with_check_scope([](check_scope&) {
    for (int variant = 0; variant < 3; ++variant) {
      harness<Tr> h(3, sched_time{}, 5 + static_cast<std::uint64_t>(variant));
      const std::size_t n = variant == 0 ? 1 : 3;
      h.set_op("fork");
      for (std::size_t i = 0; i < n; ++i) h.fork(i);
      typename Tr::task_type* t = h.pick_eventually();
      if (!h.expect(t != nullptr, "nothing picked with runnable tasks")) return h.result();
      h.set_op("run");
      h.set_next(*t);
      h.advance(schedcore::msec(2));
      if (h.curr() != nullptr) t = h.curr();  // a tick may have switched: follow the runner
      if (variant == 2 && h.curr() != nullptr) {
        h.set_op("yield");
        schedcore::policy_traits<typename Tr::policy_type>::yield(h.policy(), *h.curr(), h.now());
        h.after("yield");
      }
      h.set_op("put_prev");
      h.put_prev();  // checked: still counted
      h.set_op("others leave");
      for (std::size_t i = 0; i < n; ++i)
        if (h.queued(i) && &h.task(i) != t) h.dequeue(i, dequeue_flags::sleep);
      h.set_op("pick again");
      h.expect(h.pick_eventually() == t, "the task put back by put_prev is not picked again");
      if (!h.ok()) return h.result();
    }
    return ::testing::AssertionSuccess();
  });
}

/// The first difference of two pick logs, as a failure.
inline ::testing::AssertionResult pick_logs_differ(const std::vector<std::uint32_t>& a,
                                                   const std::vector<std::uint32_t>& b, const char* what) {
  std::size_t k = 0;
  while (k < a.size() && k < b.size() && a[k] == b[k]) ++k;
  auto show = [](const std::vector<std::uint32_t>& v, std::size_t i) {
    if (i >= v.size()) return std::string("(end)");
    if (v[i] == std::numeric_limits<std::uint32_t>::max()) return std::string("nullptr");
    return "task " + std::to_string(v[i] & 0xffu) + "." + std::to_string(v[i] >> 8);
  };
  return ::testing::AssertionFailure() << "pick sequences differ (" << what << "): pick " << k << " is "
                                       << show(a, k) << " from 0, " << show(b, k) << " here (" << a.size()
                                       << " vs " << b.size() << " picks)";
}

/// Time is wrap-safe (core/time.hpp: "A run started at 2^64 - 1 s orders events exactly like one
/// started at 0"): the same random run from 0 and from 2^64 - 10 s (and, for a placeable virtual
/// clock, with it at 0 or just below 2^64) makes the same picks. tick row: verify() holds after
/// every tick of a monotone clock (checked after every hook).
template <class Tr>
::testing::AssertionResult check_wrap_safe(std::uint64_t seed = 99, int steps = random_steps) {
  return with_check_scope([&](check_scope&) -> ::testing::AssertionResult {
    constexpr std::uint64_t u64_max = std::numeric_limits<std::uint64_t>::max();
    harness<Tr> zero(random_tasks, sched_time{}, seed);
    zero.run(steps);
    if (!zero.ok()) return zero.result() << " [clock started at 0]";
    // About 1 ms is simulated per step (a tick advances up to 8 ms): 20 s in 20000 steps. The
    // clock starts half a run before the wrap (10 s at 20000 steps), so it wraps mid-run.
    const std::uint64_t half_run = static_cast<std::uint64_t>(schedcore::usec(500)) * static_cast<std::uint64_t>(steps);
    const sched_time late{u64_max - half_run + 1};
    const vtime v0{0};
    const vtime vnear{u64_max - static_cast<std::uint64_t>(schedcore::msec(20)) + 1};
    struct variant {
      const char* what;
      sched_time origin;
      const vtime* vclock;
    };
    std::vector<variant> variants{{"clock started at 2^64 - 10 s", late, nullptr}};
    if constexpr (detail::has_vclock<Tr>::value) {
      variants.push_back({"virtual clock placed at 0", sched_time{}, &v0});
      variants.push_back({"virtual clock placed at 2^64 - 20 ms", sched_time{}, &vnear});
      variants.push_back({"both clocks near the wrap", late, &vnear});
    }
    for (const variant& v : variants) {
      harness<Tr> h(random_tasks, v.origin, seed, v.vclock);
      h.run(steps);
      if (!h.ok()) return h.result() << " [" << v.what << "]";
      if (h.pick_log() != zero.pick_log()) return pick_logs_differ(zero.pick_log(), h.pick_log(), v.what);
    }
    return ::testing::AssertionSuccess();
  });
}

/// params.hpp, setup convention: "refuses (returns an error, changes nothing) on bad input, and
/// with errc::busy while the task is queued". Checked on a new task, a queued one and the running
/// one: no byte of the task or of the policy changes, nor nr_runnable().
template <class Tr>
::testing::AssertionResult check_invalid_setup_changes_nothing() {
  return with_check_scope([](check_scope&) {
    harness<Tr> h(3, sched_time{}, 3);
    h.set_op("fork");
    h.fork(0);
    h.fork(1);
    h.schedule();
    h.advance(schedcore::msec(1));
    for (std::size_t i = 0; i < 3 && h.ok(); ++i) {
      const char* state = &h.task(i) == h.curr() ? " (running task)" : h.queued(i) ? " (queued task)" : " (new task)";
      h.set_op("invalid setup");
      for (const auto& bad : invalid_params<Tr>()) h.refuses_setup(i, bad.second, bad.first + state);
      if (h.queued(i)) {
        h.set_op("setup of a queued task");
        h.refuses_setup(i, random_params<Tr>(h.rng()), std::string("valid parameters while queued") + state,
                        errc::busy);
      }
    }
    return h.result();
  });
}

/// assert.hpp, SCHEDCORE_MISUSE: "API misuse that a container detects and refuses (a second
/// insert of a linked node, erase of an unlinked node ...): the operation returns without
/// changing anything". A second enqueue (and a second dequeue) is reported and leaves the queue
/// intact: no byte of the policy or of a task changes, nr_runnable, verify, and dequeuing the
/// rest empties the class.
template <class Tr>
::testing::AssertionResult check_double_enqueue_is_refused() {
  return with_check_scope([](check_scope& scope) {
    harness<Tr> h(3, sched_time{}, 4);
    h.set_op("fork");
    for (std::size_t i = 0; i < 3; ++i) h.fork(i);
    h.schedule();
    h.advance(schedcore::msec(1));
    std::size_t other = 0;
    while (&h.task(other) == h.curr()) ++other;
    auto& p = h.policy();
    const auto misuse = [&](const char* what, auto&& call) {
      h.set_op(what);
      const auto before = h.state_bytes();
      call();
      h.expect(h.state_bytes() == before, std::string(what) + " changed the policy or a task");
      h.after(what);  // the model did not change: nr_runnable and verify must not either
      const std::vector<recorded_check> got = scope.take();
      h.expect(!got.empty(), std::string(what) + " was not reported (SCHEDCORE_MISUSE)");
    };
    misuse("second enqueue of a queued task", [&] { p.enqueue(h.task(other), h.now(), enqueue_flags::wakeup); });
    if (h.curr() != nullptr) {
      misuse("second enqueue of the running task", [&] { p.enqueue(*h.curr(), h.now(), enqueue_flags::wakeup); });
    }
    h.set_op("dequeue");
    h.dequeue(other, dequeue_flags::migrating);
    misuse("second dequeue", [&] { p.dequeue(h.task(other), h.now(), dequeue_flags::migrating); });
    h.set_op("dequeue the rest");
    h.put_prev();
    for (std::size_t i = 0; i < 3; ++i)
      if (h.queued(i)) h.dequeue(i, dequeue_flags::migrating);
    h.expect(p.nr_runnable() == 0 && h.pick() == nullptr, "the class is not empty after the refused misuse");
    return h.result();
  });
}

/// policy.hpp's life of a task: only a queued task is `set_next`, only while no other task runs
/// (`put_prev` comes first), and `put_prev`, `tick` and
/// `yield` concern the running one ("put_prev(t) t stops running", "tick(curr)"). A call on
/// another task is a caller's stale pointer: reported (SCHEDCORE_MISUSE) and refused with no
/// byte of the policy or of any task changed; a refused tick asks for no reschedule. (A tick or
/// yield that acted on a waiting task would charge its wait as run time or use up its slice.)
template <class Tr>
::testing::AssertionResult check_hooks_on_a_task_not_running_are_refused() {
  using P = typename Tr::policy_type;
  namespace d = schedcore::detail;
  return with_check_scope([](check_scope& scope) {
    harness<Tr> h(3, sched_time{}, 5);
    h.set_op("fork");
    h.fork(0);
    h.fork(1);
    h.schedule();
    if (!h.expect(h.curr() != nullptr, "nothing runs with two tasks queued")) return h.result();
    std::size_t waiting = 0;
    while (&h.task(waiting) == h.curr()) ++waiting;
    const std::size_t never_queued = 2;
    P& p = h.policy();
    const auto refused = [&](const char* what, auto&& call) {
      h.set_op(what);
      const auto before = h.state_bytes();
      call();
      h.expect(h.state_bytes() == before, std::string(what) + " changed the policy or a task");
      h.after(what);
      h.expect(!scope.take().empty(), std::string(what) + " was not reported (SCHEDCORE_MISUSE)");
    };
    refused("put_prev of a waiting task", [&] { p.put_prev(h.task(waiting), h.now() + schedcore::msec(1)); });
    refused("tick of a waiting task", [&] {
      h.expect(!p.tick(h.task(waiting), h.now() + schedcore::msec(1)), "a refused tick asked for a reschedule");
    });
    if constexpr (d::has_yield<P>::value)
      refused("yield of a waiting task", [&] { p.yield(h.task(waiting), h.now() + schedcore::msec(1)); });
    refused("set_next of a task never enqueued",
            [&] { p.set_next(h.task(never_queued), h.now() + schedcore::msec(1)); });
    // A second task made curr while the first still runs: the first's time since its set_next
    // would never be charged (an rt or deadline task would escape its budget).
    refused("set_next of a waiting task while another runs",
            [&] { p.set_next(h.task(waiting), h.now() + schedcore::msec(1)); });
    h.set_op("put_prev");
    typename Tr::task_type* const ran = h.curr();
    h.put_prev();
    refused("put_prev of a task that is no longer running", [&] { p.put_prev(*ran, h.now() + schedcore::msec(1)); });
    refused("tick with no task running", [&] {
      h.expect(!p.tick(*ran, h.now() + schedcore::msec(1)), "a refused tick asked for a reschedule");
    });
    return h.result();
  });
}

/// The optional rows of the hook table: an idle class has no timer ("next_timer ... false:
/// none", "timer ... false"), no pending reschedule ("take_resched ... false"), no delayed task
/// ("delayed ... false"), verifies; an absent hook called through policy_traits changes nothing.
template <class Tr>
::testing::AssertionResult check_optional_hooks_default() {
  using P = typename Tr::policy_type;
  using pt = schedcore::policy_traits<P>;
  namespace d = schedcore::detail;
  return with_check_scope([](check_scope&) {
    harness<Tr> h(2, sched_time{}, 6);
    P& p = h.policy();
    h.set_op("idle class");
    const sched_time sentinel{12345};
    sched_time when = sentinel;
    h.expect(!pt::next_timer(p, when), "next_timer of an idle class reports a timer");
    if constexpr (!d::has_next_timer<P>::value) h.expect(when == sentinel, "absent next_timer wrote `when`");
    h.expect(!pt::take_resched(p), "take_resched of an idle class is true");
    h.expect(!pt::delayed(p, h.task(0)), "delayed() of a task never enqueued is true");
    h.expect(pt::verify(p), "verify() of an idle class is false");
    h.expect(!pt::timer(p, h.now()), "timer() of an idle class asks for a reschedule");
    h.after("timer");
    // Absent hooks: policy_traits' default does nothing at all.
    h.fork(0);
    h.schedule();
    auto& t = h.task(1);
    const auto unchanged = [&](const char* what, auto&& call) {
      const auto pb = detail::bytes_of(p);
      const auto tb = detail::bytes_of(t);
      call();
      h.expect(detail::bytes_of(p) == pb && detail::bytes_of(t) == tb,
               std::string("the default of absent ") + what + " changed something");
    };
    if constexpr (!d::has_yield<P>::value) unchanged("yield", [&] { pt::yield(p, t, h.now()); });
    if constexpr (!d::has_prio_changed<P>::value) unchanged("prio_changed", [&] { pt::prio_changed(p, t, h.now()); });
    if constexpr (!d::has_task_new<P>::value) unchanged("task_new", [&] { pt::task_new(p, t, nullptr, h.now()); });
    if constexpr (!d::has_task_dead<P>::value) unchanged("task_dead", [&] { pt::task_dead(p, t, h.now()); });
    if constexpr (!d::has_switched_from<P>::value)
      unchanged("switched_from", [&] { pt::switched_from(p, t, h.now()); });
    if constexpr (!d::has_timer<P>::value) h.expect(!pt::timer(p, h.now()), "absent timer() returned true");
    if constexpr (!d::has_take_resched<P>::value) h.expect(!pt::take_resched(p), "absent take_resched() returned true");
    if constexpr (!d::has_delayed<P>::value) h.expect(!pt::delayed(p, h.task(0)), "absent delayed() returned true");
    h.after("optional hooks");
    return h.result();
  });
}

// --- the typed suite -------------------------------------------------------------------------

/// Names an instantiation's type by its policy's `name` (rt, cfs, ...), or "policy". Passing a
/// generator also keeps clang's -Wgnu-zero-variadic-macro-arguments quiet.
struct names {
  template <class P, class = void>
  struct named : std::false_type {};
  template <class P>
  struct named<P, std::void_t<decltype(P::name)>> : std::true_type {};
  template <class Tr>
  static std::string GetName(int) {
    if constexpr (named<typename Tr::policy_type>::value) {
      return Tr::policy_type::name;
    } else {
      return "policy";
    }
  }
};

template <class Traits>
class PolicyContract : public ::testing::Test {};
TYPED_TEST_SUITE_P(PolicyContract);

TYPED_TEST_P(PolicyContract, NrRunnableCountsQueuedTasksIncludingCurr) {
  EXPECT_TRUE(check_nr_runnable_counts<TypeParam>());
}
TYPED_TEST_P(PolicyContract, PickNextHasNoSideEffects) { EXPECT_TRUE(check_pick_next_is_pure<TypeParam>()); }
TYPED_TEST_P(PolicyContract, PickNextReturnsOnlyEnqueuedTasksInRandomRuns) {
  EXPECT_TRUE(check_random_run<TypeParam>());
}
TYPED_TEST_P(PolicyContract, NoTaskIsLostAndALoneTaskIsPicked) { EXPECT_TRUE(check_no_task_lost<TypeParam>()); }
TYPED_TEST_P(PolicyContract, PutPrevKeepsTheTaskRunnable) {
  EXPECT_TRUE(check_put_prev_keeps_task_runnable<TypeParam>());
}
TYPED_TEST_P(PolicyContract, SamePicksWhenTheClockStartsNearTheWrap) { EXPECT_TRUE(check_wrap_safe<TypeParam>()); }
TYPED_TEST_P(PolicyContract, InvalidSetupIsRefusedAndChangesNothing) {
  EXPECT_TRUE(check_invalid_setup_changes_nothing<TypeParam>());
}
TYPED_TEST_P(PolicyContract, DoubleEnqueueIsReportedAndRefused) {
  EXPECT_TRUE(check_double_enqueue_is_refused<TypeParam>());
}
TYPED_TEST_P(PolicyContract, HooksOnATaskThatIsNotRunningAreReportedAndRefused) {
  EXPECT_TRUE(check_hooks_on_a_task_not_running_are_refused<TypeParam>());
}
TYPED_TEST_P(PolicyContract, AbsentOptionalHooksBehaveAsDocumented) {
  EXPECT_TRUE(check_optional_hooks_default<TypeParam>());
}

REGISTER_TYPED_TEST_SUITE_P(PolicyContract, NrRunnableCountsQueuedTasksIncludingCurr, PickNextHasNoSideEffects,
                            PickNextReturnsOnlyEnqueuedTasksInRandomRuns, NoTaskIsLostAndALoneTaskIsPicked,
                            PutPrevKeepsTheTaskRunnable, SamePicksWhenTheClockStartsNearTheWrap,
                            InvalidSetupIsRefusedAndChangesNothing, DoubleEnqueueIsReportedAndRefused,
                            HooksOnATaskThatIsNotRunningAreReportedAndRefused, AbsentOptionalHooksBehaveAsDocumented);

}  // namespace schedcore_test::contract

#endif
