// libFuzzer target: the rt-app JSON reader and importer (sim/json.hpp, sim/rtapp.hpp) on
// arbitrary bytes. Every input must either import into a workload that satisfies the model's
// invariants or be refused with an rtapp_error whose message starts with "fuzz.json:"; any
// other exception, crash, sanitizer report or hang is a finding. Small imported workloads are
// also run for 2 ms of simulated time under the reference policy (engine robustness on
// imported programs), and those with task groups also for 20 ms on 2 CPUs under grouped eevdf
// (group_policy, PELT load tracking, calc_group_shares, the balance by hierarchical load), and
// all of them for 20 ms on an asymmetric 3-CPU machine (capacities 1024, 446 and one taken from
// the input: work scaled by capacity, capacity-aware wakeups, misfit active balance); the
// engine may refuse them only with workload_error. Then on a 3-CPU machine with frequency
// scaling (a big domain of one CPU, a little one of two whose capacity comes from the input):
// schedutil, util_est, energy-aware placement and utilisation clamps (the file's util_min and
// util_max, and a lowered RT boost for every other input), with task groups or, for every
// other input, with the deadline class on top (scaled reservations, active utilisation); on the
// 3-CPU machines half the inputs have priority-inheritance mutexes. The same bytes are also read as an
// energy-model file (sim/energy_file.hpp): accepted, and then a small fixed workload runs on
// that machine, or refused with an energy_model_error naming fuzz.json.
//
// Built and run by run_fuzzer.sh (ctest fuzz/rtapp); by hand:
//   tests/fuzz/run_fuzzer.sh clang++ include tests/fuzz/rtapp_fuzz.cpp build/fuzz/rtapp \
//       tests/fuzz/corpus/rtapp 20000 300
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "fuzz_common.hpp"
#include "schedcore/policy/edf.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "schedcore/policy/group.hpp"
#include "schedcore/policy/rt.hpp"
#include "schedcore/sim/energy_file.hpp"
#include "schedcore/sim/reference_rr.hpp"
#include "schedcore/sim/registry.hpp"
#include "schedcore/sim/rtapp.hpp"
#include "schedcore/sim/scenarios.hpp"

namespace {

using namespace schedcore;
using namespace schedcore::sim;

[[noreturn]] void finding(const char* what) { ::fuzz::fail(what, __FILE__, __LINE__); }

void check(const workload& w) {
  if (w.duration <= 0 || w.duration > 1000000000000000) finding("duration out of (0, 1e15]");
  if (w.cpus < 1 || w.cpus > 64) finding("cpus out of 1..64");
  if (w.tasks.empty()) finding("no tasks");
  for (const task_spec& t : w.tasks) {
    if (t.name.empty()) finding("empty task name");
    if (t.instances < 0 || t.instances > 100000) finding("instances out of range");
    if (t.loop == 0 || t.loop < -1) finding("task loop");
    if (t.delay < 0) finding("negative delay");
    if (validate(t.params) != errc::ok) finding("invalid params");
    if (t.phases.empty()) finding("no phases");
    for (int c : t.cpus)
      if (c < 0 || c > 63) finding("cpu index");
    for (const phase& p : t.phases) {
      if (p.loop == 0 || p.loop < -1) finding("phase loop");
      if (p.events.empty()) finding("empty phase");
      for (const event& e : p.events) {
        if (e.duration < 0 || e.period < 0 || e.duration > 1000000000000000 * 20) finding("event time");
        if (e.kind == event_kind::set_policy && validate(e.params) != errc::ok) finding("set_policy params");
      }
    }
  }
}

bool small(const workload& w) {
  std::int64_t threads = 0, events = 0;
  for (const task_spec& t : w.tasks) {
    threads += t.instances;
    for (const phase& p : t.phases) events += static_cast<std::int64_t>(p.events.size());
  }
  return threads <= 16 && events <= 256;
}

const policy_entry& entry() {
  using task_t = sim_task<reference_rr_entity>;
  static const policy_entry e =
      make_entry<task_t, reference_rr_policy<task_t>, reference_rr_policy<task_t>>("ref-rr", "reference");
  return e;
}

const policy_entry& grouped_entry() {
  using task_t = sim_task<group_node<eevdf_entity>, rt_entity>;
  static const policy_entry e =
      make_entry<task_t, rt_policy<task_t>, group_policy<task_t, eevdf_policy<group_node<eevdf_entity>>>>(
          "eevdf", "rt + grouped eevdf");
  return e;
}

// With the deadline class on top (edf's scaled charging and active utilisation under
// schedutil: the file's SCHED_DEADLINE tasks are reservations, not FIFO 99).
const policy_entry& deadline_entry() {
  using task_t = sim_task<eevdf_entity, rt_entity, edf_entity>;
  static const policy_entry e = make_entry<task_t, rt_policy<task_t>, eevdf_policy<task_t>, edf_policy<task_t>>(
      "eevdf", "edf + rt + eevdf");
  return e;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > (1u << 20)) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const energy_model_file em = parse_energy_model(text, "fuzz.json");
    if (em.domains.empty() || em.cpus() < 1 || em.cpus() > 64) finding("energy model accepted with 0 or > 64 CPUs");
    workload small_w;
    small_w.name = "em";
    small_w.tasks = {scen::task("a", 0, {ev::run(100000), ev::sleep(300000)}), scen::task("b", 0, {ev::run(1000000)})};
    run_config cfg;
    cfg.cpus = em.cpus();
    cfg.duration_ns = 5000000;
    cfg.host_timing = false;
    cfg.machine.perf_domains = em.domains;
    cfg.machine.dvfs_rate_limit_ns = em.rate_limit_ns;
    ::fuzz::checks() = {};
    try {
      (void)grouped_entry().run(small_w, cfg, {});
    } catch (const workload_error&) {
    }
    FUZZ_REQUIRE(::fuzz::checks().count == 0);
  } catch (const energy_model_error& e) {
    if (std::strncmp(e.what(), "fuzz.json:", 10) != 0) finding("energy-model error message without the file name");
  }
  workload w;
  try {
    w = parse_rtapp(text, "fuzz.json");
  } catch (const rtapp_error& e) {
    if (std::strncmp(e.what(), "fuzz.json:", 10) != 0) finding("error message without the file name");
    if (e.where().line == 0) finding("error without a position");
    return 0;
  }
  check(w);
  if (small(w)) {
    run_config cfg;
    cfg.duration_ns = 2000000;  // 2 ms simulated
    cfg.host_timing = false;
    ::fuzz::checks() = {};
    try {
      (void)entry().run(w, cfg, {});
    } catch (const workload_error&) {
      // the engine may refuse a workload; it must say so with workload_error
    }
    FUZZ_REQUIRE(::fuzz::checks().count == 0);  // no library check fired during the run
    if (!w.cgroups.empty()) {
      cfg.cpus = 2;
      cfg.duration_ns = 20000000;  // 20 ms: a few ticks and periodic balances
      try {
        (void)grouped_entry().run(w, cfg, {});
      } catch (const workload_error&) {
      }
      FUZZ_REQUIRE(::fuzz::checks().count == 0);
    }
    cfg.cpus = 3;
    cfg.duration_ns = 20000000;
    // From here, half the inputs (by size / 4) with priority-inheritance mutexes whatever the
    // file's pi_enabled: boosts and deboosts across classes, queues and CPUs (the engine checks
    // its PI state after every lock, unlock and requeue).
    if ((size / 4) % 2 == 1) w.priority_inheritance = true;
    cfg.machine.capacity = {1024, 446, static_cast<std::uint32_t>(1 + size % 1024)};
    // RT throttling within the 20 ms: 1-4 ms per 5 ms, every other input with RT_RUNTIME_SHARE.
    cfg.machine.rt_period_ns = 5000000;
    cfg.machine.rt_runtime_ns = 1000000 + static_cast<std::int64_t>((size * 7919) % 3000001);
    cfg.machine.rt_runtime_share = size % 2 == 0;
    try {
      (void)grouped_entry().run(w, cfg, {});
    } catch (const workload_error&) {
    }
    FUZZ_REQUIRE(::fuzz::checks().count == 0);
    cfg.machine.rt_period_ns = 1000000000;
    cfg.machine.rt_runtime_ns = 950000000;
    cfg.machine.rt_runtime_share = false;
    perf_domain_model big, little;
    big.cpus = 1;
    big.capacity = 1024;
    big.states = {{500000, 100000}, {1000000, 300000}, {2000000, 1200000}};
    little.cpus = 2;
    little.capacity = static_cast<std::uint32_t>(1 + (size * 7) % 1024);
    little.states = {{1000, 5}, {400000, 20000}, {800000, 90000}};
    little.idle_uw = static_cast<std::uint32_t>(size % 50);
    cfg.machine.capacity.clear();
    cfg.machine.perf_domains = {big, little};
    cfg.machine.dvfs_rate_limit_ns = static_cast<std::int64_t>(size % 3) * 1000000;
    // Every other input with a lowered RT boost (utilisation clamping on even for a file
    // without util_min/util_max).
    if (size % 2 == 1) cfg.machine.uclamp_rt_min_default = static_cast<std::uint32_t>((size / 2) % 1025);
    // Alternately (by size / 2) with task groups, or with the deadline class on top.
    try {
      if ((size / 2) % 2 == 0) {
        (void)grouped_entry().run(w, cfg, {});
      } else {
        // Every third of these with Linux's fair server (1-4 ms per 5 ms), half of them
        // without RT throttling, as 6.12+, and about half under 6.19's rules.
        if (size % 3 == 0) {
          cfg.machine.fair_server_period_ns = 5000000;
          if ((size / 9) % 2 == 1) cfg.machine.fair_server_rules = schedcore::server_rules::linux_6_19;
          cfg.machine.fair_server_runtime_ns = 1000000 + static_cast<std::int64_t>((size * 104729) % 3000001);
          if (size % 2 == 0) cfg.machine.rt_runtime_ns = -1;
        }
        // Every other one with admission off, so that reservations pinned to fewer CPUs (refused
        // while admission is on, as Linux refuses them) still run and move between CPUs.
        if ((size / 16) % 2 == 0) cfg.machine.dl_bound_pct = -1;
        // Half the others split the machine: CPU 2 an exclusive cpuset partition, a root domain
        // of its own (admission, the affinity rule and balancing per domain; a task pinned
        // across it fails with EINVAL).
        else if ((size / 32) % 2 == 1) cfg.machine.partitions = {std::uint64_t{1} << 2};
        (void)deadline_entry().run(w, cfg, {});
      }
    } catch (const workload_error&) {
    }
    FUZZ_REQUIRE(::fuzz::checks().count == 0);
  }
  return 0;
}
