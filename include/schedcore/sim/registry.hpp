/// @file
/// @brief HOSTED. The policy registry: policy name -> an engine instantiated with
/// `class_stack<member_sched_class, RT, POLICY>`, knob parsing through the policy's
/// `knob_table`, and the knob-spec syntax `NAME[:knob=value,...]`.
///
/// With a deadline class (`make_entry<Task, Rt, Fair, Dl>`, what schedsim registers:
/// `fair_server_stack<member_sched_class, edf_policy, rt_policy, POLICY>`, a class_stack with
/// Linux's fair server over POLICY), SCHED_DEADLINE tasks go to
/// it (index 0), fifo/rr tasks to the real-time class (1), normal/batch/idle tasks to the policy
/// under test (2). Without one (`make_entry<Task, Rt, Fair>`), fifo/rr go to index 0, deadline
/// tasks too as SCHED_FIFO priority 99, normal/batch/idle to index 1. `edf` is not itself a
/// `--policy` name: it cannot schedule normal tasks, so it is always the top class instead.
/// Adding a policy to schedsim is one `SCHEDSIM_NAMED_POLICY` line in its own file (a policy run
/// only when named), or a `SCHEDSIM_POLICY` file plus its declaration and call in
/// examples/schedsim/policies.hpp / policies.cpp (one of the default rows).
#ifndef SCHEDCORE_SIM_REGISTRY_HPP
#define SCHEDCORE_SIM_REGISTRY_HPP

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "schedcore/core/errc.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/policy/class_stack.hpp"
#include "schedcore/policy/dl_server.hpp"
#include "schedcore/policy/fair_server_stack.hpp"
#include "schedcore/policy/params.hpp"
#include "schedcore/sim/engine.hpp"
#include "schedcore/sim/metrics.hpp"
#include "schedcore/sim/workload.hpp"

namespace schedcore {
namespace sim {

/// A usage error (bad command line, unknown policy or knob, value out of bounds): exit 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One knob of a registered policy.
struct knob_desc {
  std::string name;       ///< tunable name
  knob_unit unit;         ///< how it is written
  std::int64_t def = 0;   ///< default (ns for times)
  std::int64_t min = 0;   ///< inclusive bound
  std::int64_t max = 0;   ///< inclusive bound
  std::string help;       ///< one line
};

/// A parsed knob assignment.
struct knob_setting {
  std::string name;    ///< knob name
  std::int64_t value;  ///< ns for times
};

/// One registered policy.
struct policy_entry {
  std::string name;              ///< command-line name
  std::string description;       ///< one line
  std::vector<knob_desc> knobs;  ///< the policy's knob table with defaults
  /// Runs a workload (throws usage_error when the policy refuses the knobs, workload_error for
  /// a workload it cannot run).
  std::function<run_result(const workload&, const run_config&, const std::vector<knob_setting>&)> run;
};

/// @cond INTERNAL
namespace detail_sim {
template <class P, class = void>
struct has_knobs : std::false_type {};
template <class P>
struct has_knobs<P, std::void_t<typename P::knobs, decltype(P::knob_table),
                                decltype(std::declval<P&>().configure(std::declval<const typename P::knobs&>()))>>
    : std::is_same<decltype(std::declval<P&>().configure(std::declval<const typename P::knobs&>())), errc> {};
// Any one of the three parts of a knob table, so that a policy with a table whose `configure`
// has another signature is an error, not a policy that silently shows no knobs.
template <class P, class = void>
struct names_knobs_type : std::false_type {};
template <class P>
struct names_knobs_type<P, std::void_t<typename P::knobs>> : std::true_type {};
template <class P, class = void>
struct names_knob_table : std::false_type {};
template <class P>
struct names_knob_table<P, std::void_t<decltype(P::knob_table)>> : std::true_type {};
template <class P, class = void>
struct names_configure : std::false_type {};
template <class P>
struct names_configure<P, std::void_t<decltype(&P::configure)>> : std::true_type {};
// The setup convention (writing-a-policy.md, section 1): `errc setup(Task&, const sched_params&)`.
template <class P, class T, class = void>
struct has_setup : std::false_type {};
template <class P, class T>
struct has_setup<P, T, std::void_t<decltype(std::declval<P&>().setup(std::declval<T&>(), std::declval<const sched_params&>()))>>
    : std::is_same<decltype(std::declval<P&>().setup(std::declval<T&>(), std::declval<const sched_params&>())), errc> {};
template <class P>
inline constexpr bool knobs_well_formed =
    has_knobs<P>::value || !(names_knobs_type<P>::value || names_knob_table<P>::value || names_configure<P>::value);

template <class P>
std::vector<knob_desc> describe() {
  static_assert(knobs_well_formed<P>,
                "schedsim policy: a policy with knobs needs all three of `struct knobs` (s64 fields), a static "
                "`knob_table` and `errc configure(const knobs&)`; one is missing or has another signature (check "
                "the const of configure's parameter and its return type)");
  std::vector<knob_desc> out;
  if constexpr (has_knobs<P>::value) {
    const typename P::knobs def{};
    for (const auto& k : P::knob_table) out.push_back({k.name, k.unit, def.*(k.field), k.min, k.max, k.help});
  }
  return out;
}

/// Applies `hz`, `cpus` (when the table has them) and `settings` to `p` (the command line's
/// knobs for the policy under test; the RT class's runtime and period and the deadline class's
/// bound come this way too); returns the policy's verdict.
template <class P>
errc apply_knobs(P& p, const std::vector<knob_setting>& settings, int cpus, int hz) {
  if constexpr (has_knobs<P>::value) {
    typename P::knobs k{};
    for (const auto& info : P::knob_table) {
      const std::string n = info.name;
      if (n == "hz") k.*(info.field) = hz;
      if (n == "cpus") k.*(info.field) = cpus;
      for (const auto& s : settings)
        if (s.name == n) k.*(info.field) = s.value;
    }
    return p.configure(k);
  } else {
    (void)p;
    (void)settings;
    (void)cpus;
    (void)hz;
    return errc::ok;
  }
}
/// The machine parameters (`--hz`, `--cpus`) that `P`'s knob table bounds and that lie outside
/// those bounds, as "; --hz 5 is outside <P>'s hz range [10, 100000]" (empty when none).
template <class P>
std::string machine_knobs_out_of_range(const std::string& who, int cpus, int hz) {
  std::string why;
  if constexpr (has_knobs<P>::value) {
    for (const auto& info : P::knob_table) {
      const std::string n = info.name;
      const std::int64_t v = n == "hz" ? hz : n == "cpus" ? cpus : -1;
      if (v >= 0 && (v < info.min || v > info.max))
        why += "; --" + n + " " + std::to_string(v) + " is outside " + who + "'s " + n + " range [" +
               std::to_string(info.min) + ", " + std::to_string(info.max) + "]";
    }
  }
  return why;
}
}  // namespace detail_sim
/// @endcond

/// The standard binding: `class_stack<member_sched_class, [Dl,] Rt, Fair>` over `Task`.
///
/// Class of a task by `sched_params::kind`: deadline -> `Dl` (index 0) when the stack has one,
/// else the real-time class as SCHED_FIFO priority 99; fifo/rr -> `Rt`; normal/batch/idle ->
/// `Fair`. With a deadline class, admission control is per root domain, as the kernel's: every
/// deadline setup and release goes through the `Dl` object of the domain's lowest CPU
/// (configured with `cpus` = the domain's CPU count, so its cap is cpus x bound; the whole
/// machine unless machine_model::partitions splits it), while the task is queued and
/// scheduled by the `Dl` object of whatever CPU it is placed on (enqueue only needs the entity
/// to be admitted). The engine calls the 5-argument `setup` and `task_dead` below for that.
template <class Task, class Rt, class Fair, class Dl = void>
struct stack_binding;

/// @cond INTERNAL
namespace detail_sim {
template <class Stack, std::size_t Rt, std::size_t Fair, class Task>
errc setup_rt_fair(Stack& s, Task& t, const sched_params& p) noexcept {
  if (p.kind == sched_kind::fifo || p.kind == sched_kind::rr) {
    t.sched_class = static_cast<int>(Rt);
    return s.template get<Rt>().setup(t, p);
  }
  if (p.kind == sched_kind::deadline) {  // no deadline class: SCHED_FIFO 99 stands in
    sched_params q;
    q.kind = sched_kind::fifo;
    q.rt_priority = rt_priority_max;
    t.sched_class = static_cast<int>(Rt);
    return s.template get<Rt>().setup(t, q);
  }
  t.sched_class = static_cast<int>(Fair);
  return s.template get<Fair>().setup(t, p);
}

/// After a successful setup moved `t` from class `old_cls` to another class of `s`: the old
/// class's switched_from (policy.hpp), so it releases what it keeps per task (goodness24's
/// all-tasks link, edf's bandwidth). Harmless for a task that was never in the old class.
template <class Stack, class Task>
void leave_class(Stack& s, Task& t, int old_cls, sched_time now) noexcept {
  if (old_cls == t.sched_class || old_cls < 0 || static_cast<std::size_t>(old_cls) >= Stack::nr_classes) return;
  const int new_cls = t.sched_class;
  t.sched_class = old_cls;
  s.switched_from(t, now);
  t.sched_class = new_cls;
}
}  // namespace detail_sim
/// @endcond

/// Two classes: real-time (0) and the policy under test (1).
template <class Task, class Rt, class Fair>
struct stack_binding<Task, Rt, Fair, void> {
  using task_type = Task;                                          ///< the sim task type
  using stack_type = class_stack<member_sched_class, Rt, Fair>;    ///< one CPU's classes
  static constexpr bool has_deadline_class = false;                ///< no SCHED_DEADLINE class
  /// Picks the class from `p.kind` and loads the entity.
  static errc setup(stack_type& s, Task& t, const sched_params& p, sched_time now) noexcept {
    const int old = t.sched_class;
    const errc e = detail_sim::setup_rt_fair<stack_type, 0, 1>(s, t, p);
    if (e != errc::ok) {
      t.sched_class = old;
    } else {
      detail_sim::leave_class(s, t, old, now);
    }
    return e;
  }
};

/// Three classes: deadline (0), real-time (1) and the policy under test (2), with Linux's fair
/// server over the policy under test (policy/fair_server_stack.hpp), off unless
/// machine_model::fair_server_runtime_ns is set.
template <class Task, class Rt, class Fair, class Dl>
struct stack_binding {
  using task_type = Task;                                                  ///< the sim task type
  using stack_type = fair_server_stack<member_sched_class, Dl, Rt, Fair>;  ///< one CPU's classes
  static constexpr bool has_deadline_class = true;                         ///< `Dl` runs SCHED_DEADLINE tasks
  /// Picks the class from `p.kind` and loads the entity; deadline parameters pass the root
  /// domain's admission control (`root`, its lowest CPU's stack). A task leaving the deadline class
  /// releases its bandwidth; on an error nothing changes.
  static errc setup(stack_type& local, stack_type& root, Task& t, const sched_params& p, sched_time now) noexcept {
    const int old = t.sched_class;
    errc e;
    if (p.kind == sched_kind::deadline) {
      t.sched_class = 0;
      e = root.template get<0>().setup(t, p);
    } else {
      e = detail_sim::setup_rt_fair<stack_type, 1, 2>(local, t, p);
      if (e == errc::ok && old == 0) {
        root.template get<0>().switched_from(t, now);  // leaves SCHED_DEADLINE: bandwidth released
      } else if (e == errc::ok) {
        detail_sim::leave_class(local, t, old, now);
      }
    }
    // Entered SCHED_DEADLINE from rt or the fair class: the class it left releases it.
    if (e == errc::ok && p.kind == sched_kind::deadline) detail_sim::leave_class(local, t, old, now);
    if (e != errc::ok) t.sched_class = old;
    return e;
  }
  /// Exit: a deadline task's bandwidth returns to the root domain; others use their CPU's class.
  static void task_dead(stack_type& local, stack_type& root, Task& t, sched_time now) noexcept {
    if (t.sched_class == 0) {
      root.template get<0>().task_dead(t, now);
    } else {
      local.task_dead(t, now);
    }
  }
};

/// A registry entry running `Fair` as the policy under test with `Rt` as the real-time class
/// and, unless `Dl` is void, `Dl` as the deadline class on top. The run's `cpus` and `hz` go to
/// every class whose knob table has them (`Dl` gets its root domain's CPU count, which
/// --partition makes smaller); `ks` (the command line's knobs) to `Fair` only.
template <class Task, class Rt, class Fair, class Dl = void>
policy_entry make_entry(std::string name, std::string description) {
  static_assert(detail_sim::has_setup<Fair, Task>::value,
                "schedsim policy: the policy under test needs `errc setup(task_type&, const sched_params&)`, which "
                "validates a task's nice and kind and refuses with an errc and no change (writing-a-policy.md, "
                "section 1)");
  policy_entry e;
  e.name = std::move(name);
  e.description = std::move(description);
  e.knobs = detail_sim::describe<Fair>();
  e.run = [policy = e.name](const workload& w, const run_config& cfg, const std::vector<knob_setting>& ks) {
    using B = stack_binding<Task, Rt, Fair, Dl>;
    constexpr std::size_t fair = B::stack_type::nr_classes - 1, rt = fair - 1;
    const int cpus = cfg.cpus > 0 ? cfg.cpus : w.cpus;
    const int hz = cfg.hz > 0 ? cfg.hz : w.hz;
    // A policy's `hz` counts the engine's ticks as jiffies; the engine ticks at the machine's
    // rate, which sets the knob. A different value would make every slice in jiffies a
    // different length of time, not model another HZ. (A `cpus` knob may differ: it is the
    // slice scaling the policy assumes, e.g. a kernel's online CPUs while a benchmark runs on one.)
    for (const auto& k : ks)
      if (k.name == "hz" && k.value != hz)
        throw usage_error("knob 'hz' = " + std::to_string(k.value) + " of policy '" + policy +
                          "' differs from the machine's tick rate, " + std::to_string(hz) +
                          " Hz, at which the engine ticks and which sets the knob: set --hz instead");
    // RT throttling's sysctls (machine_model::rt_runtime_ns, rt_period_ns), checked here so that
    // the message names them, not the rt class's knobs.
    const std::int64_t rt_runtime = cfg.machine.rt_runtime_ns, rt_period = cfg.machine.rt_period_ns;
    if (rt_period < 1000000 || rt_period > 100000000000)
      throw usage_error("the RT period (--rt-period, sched_rt_period_us) must be from 1ms to 100s, not " +
                        std::to_string(rt_period) + " ns");
    if (rt_runtime < -1 || rt_runtime > rt_period)
      throw usage_error("the RT runtime (--rt-runtime, sched_rt_runtime_us) must be -1 (no throttling) or from 0 to the "
                        "RT period, " + std::to_string(rt_period) + " ns, not " + std::to_string(rt_runtime) + " ns");
    if (cfg.machine.dl_bound_pct < -1 || cfg.machine.dl_bound_pct > 100)
      throw usage_error("the deadline admission bound (--dl-bound) must be -1 (admission off) or from 0 to 100 (% of each CPU), not " +
                        std::to_string(cfg.machine.dl_bound_pct));
    if (cpus >= 1 && cpus <= 64)
      if (const std::string why = partition_problem(cfg.machine.partitions, cpus); !why.empty())
        throw usage_error("--partition: " + why);
    const std::int64_t fs_runtime = cfg.machine.fair_server_runtime_ns, fs_period = cfg.machine.fair_server_period_ns;
    if (fs_period < deferrable_server::period_min || fs_period > deferrable_server::period_max)
      throw usage_error("the fair server's period (--fair-server-period) must be from 100us to 2^22 us (4.194304s), not " +
                        std::to_string(fs_period) + " ns");
    if (fs_runtime < 0 || fs_runtime > fs_period)
      throw usage_error("the fair server's runtime (--fair-server) must be from 0 (off) to its period, " +
                        std::to_string(fs_period) + " ns, not " + std::to_string(fs_runtime) + " ns");
    if (cfg.machine.fair_server_rules != server_rules::linux_6_12 && cfg.machine.fair_server_rules != server_rules::linux_6_19)
      throw usage_error("the fair server's rules (--fair-server-rules) must be 6.12 or 6.19");
    if (fs_runtime > 0 && !B::has_deadline_class)
      throw usage_error("the fair server needs a stack with a deadline class");
    errc bad = errc::ok;
    bool server_refused = false;
    // Each root domain's admitting stack (its lowest CPU's, configured before the others').
    std::vector<typename B::stack_type*> roots(static_cast<std::size_t>(std::max(cpus, 1)), nullptr);
    engine<B> eng(w, cfg, [&](typename B::stack_type& s, int ci) {
      const std::uint64_t domain = root_domain_of(cfg.machine.partitions, cpus, ci);
      typename B::stack_type*& root = roots[static_cast<std::size_t>(__builtin_ctzll(domain))];
      if (root == nullptr) root = &s;
      const errc a = detail_sim::apply_knobs(s.template get<fair>(), ks, cpus, hz);
      const errc b = detail_sim::apply_knobs(s.template get<rt>(), {{"runtime", rt_runtime}, {"period", rt_period}}, cpus, hz);
      errc c = errc::ok;
      if constexpr (B::has_deadline_class) {
        // Admission and GRUB's Uextra count the CPUs of the root domain (dl_bw_cpus).
        c = detail_sim::apply_knobs(s.template get<0>(), {{"bound", cfg.machine.dl_bound_pct}}, __builtin_popcountll(domain), hz);
        if (s.configure_fair_server(fs_runtime, fs_period, sched_time{}, cfg.machine.fair_server_rules) != errc::ok)
          bad = errc::out_of_range;
        // The server's bandwidth counts in its root domain's admission (dl_server_apply_params).
        if (fs_runtime > 0 && root != nullptr &&
            root->template get<0>().reserve_bandwidth(B::stack_type::template class_type<0>::to_ratio(fs_period, fs_runtime)) !=
                errc::ok)
          server_refused = true;
      }
      if (bad != errc::ok) return;
      if (a != errc::ok) bad = a;
      else if (b != errc::ok) bad = b;
      else if (c != errc::ok) bad = c;
    });
    if (server_refused)
      throw usage_error("the fair servers' bandwidth (" + std::to_string(fs_runtime) + " ns per " + std::to_string(fs_period) +
                        " ns on each CPU) does not fit the deadline class's admission bound");
    if (bad != errc::ok) {
      // Each value passed its bounds, so a combination was refused: name the conditions the
      // knobs given state ("Needs ..." in their help).
      std::string machine = detail_sim::machine_knobs_out_of_range<Fair>(policy, cpus, hz) +
                            detail_sim::machine_knobs_out_of_range<Rt>("the rt class", cpus, hz);
      if constexpr (!std::is_void_v<Dl>) machine += detail_sim::machine_knobs_out_of_range<Dl>("the deadline class", cpus, hz);
      std::string why;
      for (const auto& d : detail_sim::describe<Fair>()) {
        const std::string help = d.help;
        const auto at = help.find("Needs ");
        if (at == std::string::npos) continue;
        for (const auto& k : ks)
          if (k.name == d.name && k.value != 0) why += "; '" + d.name + "': " + help.substr(at);
      }
      std::string detail = machine.empty() ? std::string() : machine.substr(2);
      if (!why.empty()) detail += (detail.empty() ? "" : "; ") + std::string("a combination it does not allow") + why;
      throw usage_error(std::string("the policy refused its knobs: ") + to_string(bad) +
                        (detail.empty() ? std::string() : " (" + detail + ")"));
    }
    return eng.run();
  };
  return e;
}

/// All registered policies, in registration order.
class registry {
 public:
  /// Adds an entry. Throws usage_error when the name is taken: a second `cfs` would be listed
  /// and never run (find returns the first).
  void add(policy_entry e) {
    if (find(e.name) != nullptr)
      throw usage_error("policy '" + e.name + "' is registered twice (SCHEDSIM_POLICY or SCHEDSIM_NAMED_POLICY): " +
                        "expected each policy name once; rename one");
    entries_.push_back(std::move(e));
  }
  /// The entry named `name`, or nullptr.
  const policy_entry* find(const std::string& name) const {
    for (const auto& e : entries_)
      if (e.name == name) return &e;
    return nullptr;
  }
  /// Every entry.
  const std::vector<policy_entry>& entries() const { return entries_; }

 private:
  std::vector<policy_entry> entries_;
};

/// Parses a time with an optional unit (`ns`, `us`, `ms`, `s`; none = ns), or a plain count.
/// Returns false on a malformed value, a time finer than 1 ns (0.1ns, 1.5ns) or overflow.
inline bool parse_value(const std::string& text, knob_unit unit, std::int64_t& out) {
  std::size_t i = 0;
  bool neg = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) neg = text[i++] == '-';
  if (unit == knob_unit::flag) {
    if (text == "true" || text == "on" || text == "yes") { out = 1; return true; }
    if (text == "false" || text == "off" || text == "no") { out = 0; return true; }
  }
  std::int64_t whole = 0, frac = 0, frac_div = 1;
  std::size_t digits = 0;
  bool below_ns = false;  // a non-zero digit past the 9th decimal: finer than 1 ns
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    const int d = text[i++] - '0';
    if (whole > (INT64_MAX - d) / 10) return false;  // exact: INT64_MAX itself is accepted
    whole = whole * 10 + d;
    ++digits;
  }
  if (i < text.size() && text[i] == '.' && unit == knob_unit::time_ns) {
    ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      if (frac_div < 1000000000) {
        frac = frac * 10 + (text[i] - '0');
        frac_div *= 10;
      } else if (text[i] != '0') {
        below_ns = true;
      }
      ++i;
      ++digits;
    }
  }
  if (digits == 0) return false;
  const std::string suffix = text.substr(i);
  std::int64_t mult = 1;
  if (unit == knob_unit::time_ns) {
    if (suffix.empty() || suffix == "ns") mult = 1;
    else if (suffix == "us") mult = 1000;
    else if (suffix == "ms") mult = 1000000;
    else if (suffix == "s") mult = 1000000000;
    else return false;
  } else if (!suffix.empty()) {
    return false;
  }
  // frac * mult / frac_div < mult <= 10^9 and frac * mult < 10^18: no overflow there; the sum
  // is checked before it is formed (signed overflow is undefined behaviour).
  // Times are whole ns: 0.1ns or 1.0000000001s is refused, not truncated.
  if (below_ns || (frac * mult) % frac_div != 0) return false;
  const std::int64_t frac_part = frac * mult / frac_div;
  if (whole > INT64_MAX / mult || whole * mult > INT64_MAX - frac_part) return false;
  std::int64_t v = whole * mult + frac_part;
  out = neg ? -v : v;
  return true;
}

/// A time in ns as `parse_value` reads it back, in the largest unit that keeps it exact
/// (`0`, `750us`, `1ms`, `60s`): for messages that state an accepted range.
inline std::string time_text(std::int64_t ns) {
  if (ns == 0) return "0";
  if (ns % 1000000000 == 0) return std::to_string(ns / 1000000000) + "s";
  if (ns % 1000000 == 0) return std::to_string(ns / 1000000) + "ms";
  if (ns % 1000 == 0) return std::to_string(ns / 1000) + "us";
  return std::to_string(ns) + "ns";
}

/// A parsed `NAME[:knob=value,...]`.
struct policy_spec {
  std::string text;                  ///< as written
  const policy_entry* entry = nullptr;  ///< the registered policy NAME names
  std::vector<knob_setting> knobs;   ///< validated against the table and its bounds
};

/// Parses and validates a policy spec against `reg`; throws usage_error with a message.
inline policy_spec parse_policy_spec(const registry& reg, const std::string& text) {
  policy_spec ps;
  ps.text = text;
  const std::size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  ps.entry = reg.find(name);
  if (ps.entry == nullptr) {
    std::string known;
    for (const auto& e : reg.entries()) known += (known.empty() ? "" : ", ") + e.name;
    throw usage_error("unknown policy '" + name + "' (known: " + known + ")");
  }
  if (colon == std::string::npos) return ps;
  std::string rest = text.substr(colon + 1);
  std::size_t pos = 0;
  while (pos <= rest.size()) {
    const std::size_t comma = rest.find(',', pos);
    const std::string item = rest.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    pos = comma == std::string::npos ? rest.size() + 1 : comma + 1;
    if (item.empty())  // "cfs:", "cfs:,", "cfs:latency=6ms,": a knob left out, refused as --policies "cfs," is
      throw usage_error("policy spec '" + text + "': an empty knob entry (a stray ':' or ','): expected KNOB=VALUE");
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) throw usage_error("knob '" + item + "' of policy '" + name + "' needs =value");
    const std::string k = item.substr(0, eq), v = item.substr(eq + 1);
    const knob_desc* d = nullptr;
    for (const auto& kd : ps.entry->knobs)
      if (kd.name == k) d = &kd;
    if (d == nullptr) {
      std::string known;
      for (const auto& kd : ps.entry->knobs) known += (known.empty() ? "" : ", ") + kd.name;
      throw usage_error("unknown knob '" + k + "' for policy '" + name + "' (knobs: " + (known.empty() ? "none" : known) + ")");
    }
    std::int64_t value = 0;
    if (!parse_value(v, d->unit, value))
      throw usage_error("bad value '" + v + "' for knob '" + k + "'" +
                        (d->unit == knob_unit::time_ns ? " (expected a time such as 500us, 2ms, 10s)" : " (expected an integer)"));
    if (value < d->min || value > d->max)
      throw usage_error("knob '" + k + "' = " + v + " is out of bounds [" + std::to_string(d->min) + ", " +
                        std::to_string(d->max) + "]" + (d->unit == knob_unit::time_ns ? " ns" : ""));
    // Which of two values would win depends on how a policy applies its knobs: refuse instead.
    for (const auto& prev : ps.knobs)
      if (prev.name == k) throw usage_error("knob '" + k + "' given twice in policy spec '" + text + "'");
    ps.knobs.push_back({k, value});
  }
  return ps;
}

}  // namespace sim
}  // namespace schedcore

#endif
