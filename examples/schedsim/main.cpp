// schedsim: the deterministic SMP scheduling simulator's command line (architecture.md,
// "Simulator contract").
//
//   schedsim list | run | compare | sweep | plot | report ...: usage_text below is the whole
//   command line (`schedsim --help` prints it; docs/guides/simulator.md shows it, and
//   sim_cli_test checks the two agree).
// Exit: 0 ok, 1 internal error, 2 usage or output error (an unwritable --trace, -o or stdout),
// 3 bad input file (a workload, --energy-model or --bench file).
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "policies.hpp"
#include "progress.hpp"
#include "report_cmd.hpp"  // schedsim plot / report (kept apart: schedsim_report_main)
#include "schedcore/sim/energy_file.hpp"
#include "schedcore/sim/engine.hpp"
#include "schedcore/sim/registry.hpp"
#include "schedcore/sim/report.hpp"
#include "schedcore/sim/scenarios.hpp"
#include "schedcore/sim/trace.hpp"
#include "schedcore/version.hpp"

#if __has_include("schedcore/sim/rtapp.hpp")
#include "schedcore/sim/rtapp.hpp"
#define SCHEDSIM_HAVE_RTAPP 1
#endif

namespace sim = schedcore::sim;

namespace {

/// A bad input file: exit 3.
struct input_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct options {
  std::string command;
  std::string scenario, rtapp, policy, policies, knob, format = "table", trace;
  std::string energy_model;  // --energy-model FILE
  int cpus = 0, hz = 0, jobs = 0;
  std::int64_t duration = 0;
  std::int64_t warmup = 0;  // statistics cover [warmup, end)
  std::uint64_t seed = 1;
  int seeds = 1;  // compare/sweep: replications, seeds seed .. seed + seeds - 1
  bool host_timing = true;
  sim::machine_model machine{};
  struct cpu_max_limit {  // --cpu-max GROUP=QUOTA/PERIOD[/BURST]
    std::string group;
    std::int64_t quota = -1, period = 0, burst = 0;
  };
  std::vector<cpu_max_limit> cpu_max;
};

const char* usage_text =
    "usage: schedsim list\n"
    "       schedsim run     --scenario NAME | --rt-app FILE [--policy NAME[:knob=value,...]] [options]\n"
    "       schedsim compare --scenario NAME|all | --rt-app FILE [--policies SPEC,SPEC,...] [--seeds N] [options]\n"
    "       schedsim sweep   --scenario NAME | --rt-app FILE --policy NAME --knob KNOB=v1,v2,... [--seeds N] [options]\n"
    "       schedsim plot    --scenario NAME [--policies SPEC,...] --out DIR [--bench CSV] [--only LIST] [options]\n"
    "       schedsim report  --scenario NAME [--policies SPEC,...] -o FILE.html [--bench CSV] [--only LIST] [--timeline TIME]\n"
    "                        [options]\n"
    "       schedsim --version\n"
    "options: --cpus N --hz N --duration TIME --warmup TIME --seed N --format table|json|csv --trace FILE\n"
    "         --cs-cost TIME --refill TIME --refill-half TIME --balance TIME --balance-failed N --balance-by count|load\n"
    "         --tick-phase TIME --capacity C,C,... (one per CPU, 1..1024: an asymmetric machine)\n"
    "         --smt N (hardware threads per core, 1..8: consecutive CPUs share a core; needs --cpus or --capacity)\n"
    "         --smt-gain PCT (0..100: a core with all its threads busy does that much more work; default 25)\n"
    "         --wake-affine on|off (a fair wakeup may be searched from the waker's CPU, wake_affine; default on)\n"
    "         --sis-util on|off (the idle-CPU scan shrinks as the machine's utilisation grows, SIS_UTIL;\n"
    "         default on where load tracking runs on a symmetric machine)\n"
    "         --rt-runtime TIME|-1, --rt-period TIME (RT throttling: each CPU's RT class runs at most TIME per\n"
    "         period, sched_rt_runtime_us / sched_rt_period_us; default 950ms per 1s; -1: no throttling)\n"
    "         --dl-bound PCT|-1 (SCHED_DEADLINE admission control: reservations may take PCT % of each CPU;\n"
    "         default 95, the kernel's; -1: admission off, which also lets a deadline task be pinned to\n"
    "         fewer CPUs than its root domain's, refused while admission is on)\n"
    "         --partition CPUS (an exclusive cpuset partition, e.g. 2-3 or 4,6: its own root domain, with\n"
    "         its own deadline admission and load balancing; a task whose CPUs all lie in it runs there,\n"
    "         other tasks on the CPUs outside every partition; repeatable, disjoint)\n"
    "         --rt-runtime-share on|off (a CPU's RT class borrows unused RT runtime from the other CPUs of its\n"
    "         root domain before it throttles, RT_RUNTIME_SHARE of Linux 2.6.25-5.9; default off, as 5.10+)\n"
    "         --fair-server TIME, --fair-server-period TIME (Linux 6.12+'s fair server: a deferrable deadline\n"
    "         reservation per CPU runs fair tasks TIME per period when RT tasks starve them; default 0, off;\n"
    "         the kernel's is 50ms per 1s, with --rt-runtime -1; period 100us..4.194304s, default 1s)\n"
    "         --fair-server-rules 6.12|6.19 (whose server: 6.12 stops it when the fair class empties; 6.19\n"
    "         keeps it until a pick finds the class empty or a whole period passes idle; default 6.12)\n"
    "         --energy-model FILE (performance domains: frequencies, power, capacities; schedutil and energy)\n"
    "         --eas on|off (energy-aware placement with an asymmetric --energy-model; default on)\n"
    "         --cpu-max GROUP=QUOTA/PERIOD[/BURST] (cgroup v2's cpu.max and cpu.max.burst on one of the\n"
    "         workload's cgroups, e.g. /tg1=50ms/100ms; QUOTA max lifts it; cfs and eevdf; repeatable)\n"
    "         --util-est on|off (size tasks by util_est; default on with --energy-model, else off)\n"
    "         --uclamp-rt-min N (0..1024: the boost of RT tasks without util_min, sched_util_clamp_min_rt_default; default 1024)\n"
    "         --iowait-boost on|off (schedutil's boost after I/O waits, with --energy-model; default on)\n"
    "         --jobs N\n"
    "         --no-host-timing\n"
    "--seeds N: run every policy under seeds --seed .. --seed + N - 1; tables show mean +-sd (sample) over them,\n"
    "         json and csv every run\n"
    "--warmup TIME: statistics cover [TIME, end) (the start-up transient is left out; the scheduler's state is kept)\n"
    "plot and report take only --cpus, --hz, --duration, --seed, --jobs and --no-host-timing of these options\n"
    "times accept units: 500us, 2ms, 10s (no unit = ns); --duration is at least 100us\n";

std::int64_t parse_time_arg(const std::string& flag, const std::string& v, std::int64_t min, std::int64_t max) {
  std::int64_t out = 0;
  if (!sim::parse_value(v, schedcore::knob_unit::time_ns, out) || out < min || out > max)
    throw sim::usage_error(flag + ": bad time '" + v + "' (expected a time from " + sim::time_text(min) + " to " +
                           sim::time_text(max) + "; units ns, us, ms, s)");
  return out;
}
long long parse_int_arg(const std::string& flag, const std::string& v, long long lo, long long hi) {
  std::int64_t out = 0;
  if (!sim::parse_value(v, schedcore::knob_unit::count, out) || out < lo || out > hi)
    throw sim::usage_error(flag + ": bad value '" + v + "' (expected an integer in " + std::to_string(lo) + ".." +
                           std::to_string(hi) + ")");
  return out;
}

// An on|off switch's value; anything else is a usage error naming the flag.
bool parse_on_off(const std::string& flag, const std::string& v) {
  if (v != "on" && v != "off") throw sim::usage_error(flag + " must be on or off, not '" + v + "'");
  return v == "on";
}

// A list the user typed: an empty item ("sd,,cfs", a trailing comma) is refused rather than
// skipped, since it is almost always a spec that went missing (a shell variable left empty).
using schedsim_report::split;

// A CPU list as cpuset files and taskset -c write it: "2-3", "0,4-5"; CPUs 0..63, each range
// ascending; a CPU named twice is refused.
std::uint64_t parse_cpu_list(const std::string& flag, const std::string& v) {
  std::uint64_t mask = 0;
  for (const std::string& item : split(v, ',', flag)) {
    const auto dash = item.find('-');
    if (dash == 0 || (dash != std::string::npos && dash + 1 == item.size()))
      throw sim::usage_error(flag + ": bad CPU list item '" + item + "' in '" + v + "' (expected N or LOW-HIGH, CPUs 0..63)");
    const long long lo = parse_int_arg(flag, item.substr(0, dash), 0, 63);
    const long long hi = dash == std::string::npos ? lo : parse_int_arg(flag, item.substr(dash + 1), 0, 63);
    if (hi < lo) throw sim::usage_error(flag + ": bad range '" + item + "' (expected LOW-HIGH with LOW <= HIGH)");
    for (long long c = lo; c <= hi; ++c) {
      if ((mask >> c) & 1u) throw sim::usage_error(flag + ": CPU " + std::to_string(c) + " named twice in '" + v + "'");
      mask |= std::uint64_t{1} << c;
    }
  }
  return mask;
}

options parse_args(int argc, char** argv) {
  options o;
  if (argc < 2) throw sim::usage_error("missing command");
  o.command = argv[1];
  if (o.command != "list" && o.command != "run" && o.command != "compare" && o.command != "sweep" &&
      o.command != "help" && o.command != "--help" && o.command != "-h" && o.command != "--version")
    throw sim::usage_error("unknown command '" + o.command + "'");
  std::set<std::string> given;  // options seen: each once (--partition and --cpu-max may repeat)
  // list, help and --version print fixed text: an option given to them would be silently ignored.
  if (argc > 2 && o.command != "run" && o.command != "compare" && o.command != "sweep")
    throw sim::usage_error(o.command + " takes no options ('" + std::string(argv[2]) + "' given)");
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    // A second value would silently replace the first (a sweep's second --knob, a second
    // --rt-app file): refused instead. --partition and --cpu-max add one item each.
    if (a.rfind("--", 0) == 0 && a != "--partition" && a != "--cpu-max" && !given.insert(a).second)
      throw sim::usage_error(a + " given twice (each option takes one value; sweep varies one knob)");
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) throw sim::usage_error(a + " needs a value");
      // An empty value (an unset shell variable) is refused, not taken as "not given".
      if (argv[i + 1][0] == '\0') throw sim::usage_error(a + ": empty value");
      return argv[++i];
    };
    if (a == "--scenario") o.scenario = val();
    else if (a == "--rt-app") o.rtapp = val();
    else if (a == "--policy") o.policy = val();
    else if (a == "--policies") o.policies = val();
    else if (a == "--knob") o.knob = val();
    else if (a == "--format") o.format = val();
    else if (a == "--trace") o.trace = val();
    else if (a == "--cpus") o.cpus = static_cast<int>(parse_int_arg(a, val(), 1, 64));
    else if (a == "--hz") o.hz = static_cast<int>(parse_int_arg(a, val(), 1, 100000));
    else if (a == "--jobs") o.jobs = static_cast<int>(parse_int_arg(a, val(), 1, 256));
    else if (a == "--seed") o.seed = static_cast<std::uint64_t>(parse_int_arg(a, val(), 0, INT64_MAX));
    else if (a == "--seeds") o.seeds = static_cast<int>(parse_int_arg(a, val(), 1, 10000));
    // 100 us: one tick at 10 kHz (ten at --hz's 100 kHz limit); a bare "4" meant as seconds
    // (it is 4 ns) is refused instead of run.
    else if (a == "--duration") o.duration = parse_time_arg(a, val(), schedcore::usec(100), schedcore::sec(100000));
    else if (a == "--warmup") o.warmup = parse_time_arg(a, val(), 0, schedcore::sec(100000));  // < the duration
    // The machine's costs: bounds far above any real machine's (500x the default switch cost, a
    // 1 GB working set's refill, ...) that still refuse a unit slip such as 10s for 10us.
    else if (a == "--cs-cost") o.machine.cs_cost_ns = parse_time_arg(a, val(), 0, schedcore::msec(1));
    else if (a == "--refill") o.machine.refill_ns = parse_time_arg(a, val(), 0, schedcore::msec(100));
    else if (a == "--refill-half") o.machine.refill_half_ns = parse_time_arg(a, val(), 1, schedcore::sec(10));
    else if (a == "--balance") o.machine.balance_ns = parse_time_arg(a, val(), 1, schedcore::sec(10));
    else if (a == "--balance-failed") o.machine.balance_failed = static_cast<int>(parse_int_arg(a, val(), 0, 1000));
    else if (a == "--balance-by") {
      const std::string how = val();
      if (how != "count" && how != "load") throw sim::usage_error("--balance-by must be count or load, not '" + how + "'");
      o.machine.balance_by_load = how == "load";
    }
    // The phase is taken modulo one tick, and a tick is at most 1 s (--hz 1).
    else if (a == "--tick-phase") o.machine.tick_phase_ns = parse_time_arg(a, val(), 0, schedcore::sec(1));
    // One capacity per CPU (1..1024, the biggest CPU 1024): sets the CPU count unless --cpus does.
    else if (a == "--capacity") {
      o.machine.capacity.clear();
      for (const std::string& item : split(val(), ',', a))
        o.machine.capacity.push_back(static_cast<std::uint32_t>(parse_int_arg(a, item, 1, 1024)));
      if (o.machine.capacity.size() > 64) throw sim::usage_error("--capacity: at most 64 CPUs");
    }
    else if (a == "--smt") o.machine.smt_threads = static_cast<int>(parse_int_arg(a, val(), 1, 8));
    else if (a == "--smt-gain") o.machine.smt_gain_pct = static_cast<int>(parse_int_arg(a, val(), 0, 100));
    else if (a == "--energy-model") o.energy_model = val();
    else if (a == "--util-est") o.machine.util_est = parse_on_off(a, val()) ? 1 : 0;
    else if (a == "--uclamp-rt-min") o.machine.uclamp_rt_min_default = static_cast<std::uint32_t>(parse_int_arg(a, val(), 0, 1024));
    else if (a == "--iowait-boost") o.machine.iowait_boost = parse_on_off(a, val());
    else if (a == "--wake-affine") o.machine.wake_affine = parse_on_off(a, val());
    else if (a == "--sis-util") o.machine.sis_util = parse_on_off(a, val()) ? 1 : 0;
    else if (a == "--rt-runtime-share") o.machine.rt_runtime_share = parse_on_off(a, val());
    else if (a == "--rt-runtime") {
      const std::string v = val();
      std::int64_t t = 0;
      if (v != "-1" && (!sim::parse_value(v, schedcore::knob_unit::time_ns, t) || t < 0 || t > schedcore::sec(100)))
        throw sim::usage_error(a + ": bad value '" + v + "' (expected -1, no throttling, or a time from 0 to 100s; units ns, us, ms, s)");
      o.machine.rt_runtime_ns = v == "-1" ? -1 : t;
    } else if (a == "--dl-bound") o.machine.dl_bound_pct = parse_int_arg(a, val(), -1, 100);
    else if (a == "--partition") o.machine.partitions.push_back(parse_cpu_list(a, val()));
    else if (a == "--rt-period") o.machine.rt_period_ns = parse_time_arg(a, val(), schedcore::msec(1), schedcore::sec(100));
    else if (a == "--fair-server") o.machine.fair_server_runtime_ns = parse_time_arg(a, val(), 0, schedcore::deferrable_server::period_max);
    else if (a == "--fair-server-period")
      o.machine.fair_server_period_ns = parse_time_arg(a, val(), schedcore::deferrable_server::period_min, schedcore::deferrable_server::period_max);
    else if (a == "--fair-server-rules") {
      const std::string v = val();
      if (v == "6.12") o.machine.fair_server_rules = schedcore::server_rules::linux_6_12;
      else if (v == "6.19") o.machine.fair_server_rules = schedcore::server_rules::linux_6_19;
      else throw sim::usage_error(a + ": bad value '" + v + "' (expected 6.12 or 6.19)");
    } else if (a == "--cpu-max") {
      const std::string v = val();
      const std::size_t eq = v.find('=');
      const std::string bad = a + ": bad value '" + v + "' (expected GROUP=QUOTA/PERIOD[/BURST], e.g. /tg1=50ms/100ms)";
      if (eq == 0 || eq == std::string::npos) throw sim::usage_error(bad);
      const std::vector<std::string> parts = split(v.substr(eq + 1), '/', a);
      if (parts.size() < 2 || parts.size() > 3) throw sim::usage_error(bad);
      options::cpu_max_limit m;
      m.group = v.substr(0, eq);
      m.quota = parts[0] == "max" ? -1 : parse_time_arg(a, parts[0], 0, schedcore::cfs_bandwidth::max_runtime);
      m.period = parse_time_arg(a, parts[1], 0, schedcore::cfs_bandwidth::max_period);
      m.burst = parts.size() == 3 ? parse_time_arg(a, parts[2], 0, schedcore::cfs_bandwidth::max_runtime) : 0;
      for (const options::cpu_max_limit& earlier : o.cpu_max)
        if (earlier.group == m.group) throw sim::usage_error(a + ": group '" + m.group + "' given twice");
      if (schedcore::cfs_bandwidth probe; probe.configure(m.quota, m.period, m.burst, schedcore::sched_time{}) != schedcore::errc::ok)
        throw sim::usage_error(a + ": '" + v + "' is outside the kernel's limits (period 1ms..1s; quota max or at least 1ms; "
                               "burst at most the quota, none without one)");
      o.cpu_max.push_back(m);
    } else if (a == "--eas") o.machine.energy_aware = parse_on_off(a, val());
    else if (a == "--no-host-timing") o.host_timing = false;
    else throw sim::usage_error("unknown option '" + a + "'");
  }
  if (o.machine.rt_runtime_ns > o.machine.rt_period_ns)
    throw sim::usage_error("--rt-runtime " + sim::time_text(o.machine.rt_runtime_ns) + " exceeds the RT period, " +
                           sim::time_text(o.machine.rt_period_ns) + " (--rt-period; the kernel refuses it too)");
  if (o.machine.fair_server_runtime_ns > o.machine.fair_server_period_ns)
    throw sim::usage_error("--fair-server " + sim::time_text(o.machine.fair_server_runtime_ns) + " exceeds its period, " +
                           sim::time_text(o.machine.fair_server_period_ns) + " (--fair-server-period; the kernel refuses it too)");
  if (!o.energy_model.empty()) {
    // The file sets the CPU count and capacities; --cpus and --capacity may repeat them.
    sim::energy_model_file em;
    try {
      em = sim::load_energy_model(o.energy_model);
    } catch (const std::exception& e) {
      throw input_error(e.what());
    }
    const int held = em.cpus();
    if (o.cpus != 0 && o.cpus != held)
      throw sim::usage_error("--energy-model's domains hold " + std::to_string(held) + " CPUs but --cpus is " + std::to_string(o.cpus));
    if (!o.machine.capacity.empty()) {
      std::vector<std::uint32_t> caps;
      for (const auto& d : em.domains) caps.insert(caps.end(), static_cast<std::size_t>(d.cpus), d.capacity);
      if (caps != o.machine.capacity) throw sim::usage_error("--capacity disagrees with --energy-model's domain capacities");
    }
    o.cpus = held;
    o.machine.perf_domains = std::move(em.domains);
    o.machine.dvfs_rate_limit_ns = em.rate_limit_ns;
  }
  if (!o.machine.capacity.empty()) {
    const int listed = static_cast<int>(o.machine.capacity.size());
    if (o.cpus != 0 && o.cpus != listed)
      throw sim::usage_error("--capacity lists " + std::to_string(listed) + " CPUs but --cpus is " + std::to_string(o.cpus));
    o.cpus = listed;
  }
  if (o.machine.smt_threads > 1) {
    if (o.cpus == 0)
      throw sim::usage_error("--smt needs the machine's CPU count (--cpus N or --capacity), a multiple of " +
                             std::to_string(o.machine.smt_threads));
    if (o.cpus % o.machine.smt_threads != 0)
      throw sim::usage_error("--smt " + std::to_string(o.machine.smt_threads) + ": " + std::to_string(o.cpus) +
                             " CPUs are not whole cores");
  }
  if (o.format != "table" && o.format != "json" && o.format != "csv")
    throw sim::usage_error("--format must be table, json or csv");
  if (o.seeds > 1 && o.command != "compare" && o.command != "sweep")
    throw sim::usage_error("--seeds works with compare and sweep (run one seed with --seed N)");
  // Every row's seed must be one `run --seed S` takes (0..2^63-1), so that the row can be rerun.
  if (o.seeds > 1 && o.seed > static_cast<std::uint64_t>(INT64_MAX) - static_cast<std::uint64_t>(o.seeds - 1))
    throw sim::usage_error("--seed " + std::to_string(o.seed) + " with --seeds " + std::to_string(o.seeds) +
                           " runs seeds beyond 9223372036854775807, which run --seed refuses");
  if (o.machine.smt_threads > 1 && !o.machine.capacity.empty()) {
    // The threads of one core are one core's halves: one capacity.
    for (std::size_t c = 0; c < o.machine.capacity.size(); ++c)
      if (o.machine.capacity[c] != o.machine.capacity[c - c % static_cast<std::size_t>(o.machine.smt_threads)])
        throw sim::usage_error("--smt " + std::to_string(o.machine.smt_threads) + ": CPU " + std::to_string(c) +
                               " is a thread of the core of CPU " +
                               std::to_string(c - c % static_cast<std::size_t>(o.machine.smt_threads)) +
                               " and needs its --capacity");
  }
  return o;
}

// A workload to run and the family whose table it belongs to.
struct job_workload {
  sim::workload w;
  std::string family;
};

std::vector<job_workload> resolve_workloads(const options& o) {
  if (!o.scenario.empty() && !o.rtapp.empty()) throw sim::usage_error("give --scenario or --rt-app, not both");
  std::vector<job_workload> out;
  if (!o.rtapp.empty()) {
#ifdef SCHEDSIM_HAVE_RTAPP
    try {
      sim::rtapp_options ro;
      ro.duration_given = o.duration != 0;  // --duration replaces the file's span: no note about it
      out.push_back({sim::load_rtapp(o.rtapp, ro), "rt-app"});
    } catch (const sim::usage_error&) {
      throw;
    } catch (const std::exception& e) {
      throw input_error(e.what());
    }
    return out;
#else
    throw sim::usage_error("--rt-app: this build has no rt-app importer (schedcore/sim/rtapp.hpp)");
#endif
  }
  if (o.scenario.empty()) throw sim::usage_error("missing --scenario NAME or --rt-app FILE (see `schedsim list`)");
  std::vector<sim::resolved_scenario> found;
  std::string error;
  if (!sim::resolve_scenario(o.scenario, found, error)) throw sim::usage_error(error);
  for (auto& f : found) out.push_back({std::move(f.w), std::move(f.family)});
  return out;
}

struct job {
  const job_workload* w = nullptr;
  sim::policy_spec spec;
  sim::run_result result;
  std::exception_ptr error;
  std::uint64_t seed = 1;  // this run's PRNG seed
};

// Runs every job, in parallel across host cores; results stay in job order (deterministic).
void run_jobs(std::vector<job>& jobs, const options& o, sim::trace_writer* trace) {
  sim::run_config cfg;
  cfg.cpus = o.cpus;
  cfg.hz = o.hz;
  cfg.duration_ns = o.duration;
  cfg.warmup_ns = o.warmup;
  cfg.seed = o.seed;
  cfg.machine = o.machine;
  cfg.host_timing = o.host_timing;
  cfg.trace = trace;
  unsigned n = o.jobs > 0 ? static_cast<unsigned>(o.jobs) : std::max(1u, std::thread::hardware_concurrency());
  n = std::min<unsigned>(n, static_cast<unsigned>(jobs.size()));
  std::atomic<std::size_t> next{0};
  schedsim_progress progress(jobs.size(), o.command != "run");  // stderr, terminals only
  auto worker = [&] {
    for (;;) {
      const std::size_t i = next.fetch_add(1);
      if (i >= jobs.size()) return;
      job& j = jobs[i];
      try {
        sim::run_config c = cfg;
        c.seed = j.seed;
        j.result = j.spec.entry->run(j.w->w, c, j.spec.knobs);
        j.result.policy = j.spec.text;
      } catch (...) {
        j.error = std::current_exception();
      }
      progress.step(j.spec.text + " on " + j.w->w.name);
    }
  };
  if (n <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (unsigned k = 0; k < n; ++k) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
  }
  progress.finish();
}

void print_list(const sim::registry& reg) {
  std::printf("policies (normal/batch/idle tasks; fifo/rr tasks always use the rt class, SCHED_DEADLINE tasks the edf class above it):\n");
  for (const auto& e : reg.entries()) {
    std::printf("  %-12s %s\n", e.name.c_str(), e.description.c_str());
    for (const auto& k : e.knobs) {
      const bool t = k.unit == schedcore::knob_unit::time_ns;
      std::printf("      %-20s default %lld%s  [%lld, %lld]  %s\n", k.name.c_str(), static_cast<long long>(k.def),
                  t ? "ns" : "", static_cast<long long>(k.min), static_cast<long long>(k.max), k.help.c_str());
    }
  }
  std::printf("\nscenario families (compare --scenario all = the four seed families):\n");
  for (const auto& f : sim::builtin_families()) std::printf("  %-16s %s\n", f.name.c_str(), f.what.c_str());
  std::printf("\nscenarios:\n");
  for (const auto& d : sim::builtin_scenarios()) std::printf("  %s\n", d.name.c_str());
  std::printf("  interbench/all\n");
  std::printf("interbench options (interbench.md §5), after the name: interbench/BENCH/LOAD:OPTIONS or interbench/all:OPTIONS,\n"
              "  comma-separated: B=NICE (-B, benchmarked task's nice), N=NICE (-N, load's nice), L=N (-L, burn threads, 4),\n"
              "  r (-r, benchmarked task SCHED_FIFO 95; audio and video only), D=US (the model's own: the benchmarked\n"
              "  thread starts US microseconds after the 1 s head start, 0-999999); e.g. interbench/audio/burn:B=19\n"
              "eevdf-slices options, after the name: eevdf-slices[/custom|/none]:J=US,S=US,K=US,P=MS: J, cyclictest's\n"
              "  CPU time per job (1-1000 us, default 10; tools/kernel_check.sh passes the running kernel's); S, how far\n"
              "  apart the cyclictest threads' timer grids start (0-10000 us, default 100); K and P, a kernel thread on\n"
              "  CPU 0 that runs K us without preemption (PREEMPT_NONE) then sleeps P ms (K 0-100000, 0 = none, the\n"
              "  default; P 1-10000, default 250; kernel_check passes kdamond's)\n");
}

// Seconds with one decimal from 0.1 s up; below, the digits the value needs (a 10 ms run is
// 0.010 s, not 0.0).
std::string fmt_seconds(std::int64_t ns) {
  const int digits = ns >= 100000000 ? 1 : ns % 1000000 == 0 ? 3 : ns % 1000 == 0 ? 6 : 9;
  char b[48];
  std::snprintf(b, sizeof b, "%.*f", digits, static_cast<double>(ns) / 1e9);
  return b;
}

void emit(const std::vector<job>& jobs, const options& o, bool seed_tables) {
  std::vector<sim::run_result> rs;
  for (const auto& j : jobs) rs.push_back(j.result);
  if (o.format == "json") {
    // `compare` and `sweep` print an array whatever the number of rows (architecture.md), so a
    // reader need not special-case a one-policy comparison; `run` prints one object per run.
    std::fputs(sim::to_json(rs, o.command != "run").c_str(), stdout);
    return;
  }
  if (o.format == "csv") {
    std::fputs(sim::to_csv(rs).c_str(), stdout);
    return;
  }
  if (!seed_tables) {
    for (const auto& r : rs) std::printf("%s\n", sim::task_table(r).c_str());
    return;
  }
  // Seed-style: one table per workload (rows = policies), in first-appearance order. With
  // --seeds N a row stands for the N runs of one policy (adjacent in `jobs`).
  struct row_group {
    const job_workload* w;
    std::vector<const sim::run_result*> runs;  // one per seed
  };
  std::vector<std::string> order;
  std::map<std::string, std::vector<row_group>> by_w;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const job& j = jobs[i];
    std::vector<row_group>& groups = by_w[j.result.scenario];
    if (groups.empty()) order.push_back(j.result.scenario);
    const bool same_row = i > 0 && jobs[i - 1].w == j.w && jobs[i - 1].spec.text == j.spec.text && j.seed != o.seed;
    if (!same_row) groups.push_back({j.w, {}});
    groups.back().runs.push_back(&j.result);
  }
  const bool replicated = o.seeds > 1;
  const std::string over = replicated ? "; mean ±sd over " + std::to_string(o.seeds) + " seeds " + std::to_string(o.seed) +
                                            ".." + std::to_string(o.seed + static_cast<std::uint64_t>(o.seeds) - 1)
                                      : std::string();
  const auto families = sim::builtin_families();
  std::string last_family;
  bool interbench_done = false;
  for (const auto& name : order) {
    const std::string& f = by_w[name].front().w->family;
    if (f == "interbench") {
      if (interbench_done) continue;
      interbench_done = true;
      std::vector<std::string> pols;
      std::map<std::string, std::vector<std::vector<const sim::run_result*>>> per_policy;  // per scenario
      for (const auto& n : order)
        for (const row_group& g : by_w[n])
          if (g.w->family == "interbench") {
            const std::string& p = g.runs.front()->policy;
            if (!per_policy.count(p)) pols.push_back(p);
            per_policy[p].push_back(g.runs);
          }
      for (const auto& p : pols) {
        const std::string& first = per_policy[p][0][0]->scenario;
        const std::size_t colon = first.find(':');
        const std::string opts = colon == std::string::npos ? "" : ", options " + first.substr(colon + 1);
        std::printf("== interbench, policy %s (cpus %d%s%s) ==\n%s\n", p.c_str(), per_policy[p][0][0]->cpus, opts.c_str(),
                    over.c_str(), sim::interbench_table_replicated(per_policy[p]).c_str());
      }
      continue;
    }
    if (f != last_family) {
      last_family = f;
      for (const auto& fd : families)
        if (fd.name == f) std::printf("#### %s: %s\n", fd.name.c_str(), fd.what.c_str());
    }
    const auto& groups = by_w[name];
    const sim::run_result* r0 = groups.front().runs.front();
    std::vector<std::vector<const sim::run_result*>> rows;
    for (const row_group& g : groups) rows.push_back(g.runs);
    const std::string table = sim::seed_table_replicated(rows, f);
    const std::string span = r0->warmup_ns > 0 ? " measured after a " + fmt_seconds(r0->warmup_ns) + " s warm-up" : " simulated";
    std::printf("== %s (cpus %d, hz %d, %s s%s%s) ==\n%s", name.c_str(), r0->cpus, r0->hz,
                fmt_seconds(r0->duration_ns).c_str(), span.c_str(), over.c_str(), table.c_str());
    for (const auto& n : r0->notes) std::printf("note: %s\n", n.c_str());
    std::printf("\n");
  }
}

int real_main(int argc, char** argv) {
  sim::registry reg;
  schedsim_register_policies(reg);
  (void)sim::output_umask();  // read once, before any worker thread exists (output_file.hpp)
  const options o = parse_args(argc, argv);
  // An output that is one of the inputs would be overwritten by the run it configures.
  for (const std::string* input : {&o.rtapp, &o.energy_model})
    if (!o.trace.empty() && !input->empty() && sim::same_file(o.trace, *input))
      throw sim::usage_error("--trace: '" + o.trace + "' is the input file '" + *input + "': expected another file");
  if (o.command == "help" || o.command == "--help" || o.command == "-h") {
    std::fputs(usage_text, stdout);
    return 0;
  }
  if (o.command == "--version") {
    std::printf("schedsim (schedcore %d.%d.%d)\n", SCHEDCORE_VERSION_MAJOR, SCHEDCORE_VERSION_MINOR, SCHEDCORE_VERSION_PATCH);
    return 0;
  }
  if (o.command == "list") {
    print_list(reg);
    return 0;
  }
  auto workloads = resolve_workloads(o);
  // A family may mix variants with and without the group (autogroup/off has none): the limit
  // applies where the group is, a note says where it is not, and a group no workload has is
  // a usage error.
  for (const options::cpu_max_limit& m : o.cpu_max) {
    bool applied = false;
    std::string names;
    for (auto& jw : workloads) {
      sim::cgroup_spec* found = nullptr;
      for (sim::cgroup_spec& cg : jw.w.cgroups) {
        if (cg.name == m.group) found = &cg;
        if (names.find("'" + cg.name + "'") == std::string::npos) names += (names.empty() ? "'" : ", '") + cg.name + "'";
      }
      if (found == nullptr) {
        jw.w.notes.push_back("--cpu-max: no cgroup '" + m.group + "' in " + jw.w.name + ", nothing capped");
        continue;
      }
      found->max_quota_ns = m.quota;
      found->max_period_ns = m.period;
      found->max_burst_ns = m.burst;
      applied = true;
    }
    if (!applied)
      throw sim::usage_error("--cpu-max: no cgroup '" + m.group + "' in " +
                             (workloads.size() == 1 ? workloads.front().w.name : std::string("these workloads")) +
                             (names.empty() ? std::string(" (they declare none)") : " (cgroups: " + names + ")"));
  }
  for (const auto& jw : workloads) {
    const std::int64_t d = o.duration > 0 ? o.duration : jw.w.duration;
    if (o.warmup >= d)
      throw sim::usage_error("--warmup: " + std::to_string(o.warmup) + " ns is not shorter than the duration of " +
                             jw.w.name + " (" + std::to_string(d) + " ns)");
  }
  std::string trace_note;  // printed once the run and its trace succeeded
  if (o.command == "run" && !o.trace.empty() && workloads.size() > 1) {
    // A name that is both a scenario and its family ("desktop-2007") means the scenario itself
    // when one trace file is asked for: one ftrace file holds one machine's timeline, and two
    // runs would share pids and timestamps. Without --trace the same command runs every
    // variant, so say which ones this run leaves out.
    for (const auto& w : workloads)
      if (w.w.name == o.scenario) {
        std::string skipped;
        for (const auto& other : workloads)
          if (&other != &w) skipped += (skipped.empty() ? "" : ", ") + other.w.name;
        trace_note = "--trace traces one workload: ran " + w.w.name + " only, not " + skipped + " (run each by its name)";
        const job_workload only = w;
        workloads.assign(1, only);
        break;
      }
  }
  std::vector<job> jobs;
  if (o.command == "run") {
    if (!o.policies.empty() || !o.knob.empty()) throw sim::usage_error("run takes --policy (one), not --policies/--knob");
    const std::string p = o.policy.empty() ? std::string("cfs") : o.policy;
    sim::policy_spec ps;
    try {
      ps = sim::parse_policy_spec(reg, p);
    } catch (const sim::usage_error&) {
      if (!o.policy.empty()) throw;
      ps = sim::parse_policy_spec(reg, reg.entries().front().name);  // cfs not built: the first registered
    }
    if (!o.trace.empty() && workloads.size() != 1)
      throw sim::usage_error("--trace needs a single workload (this scenario has " + std::to_string(workloads.size()) + ")");
    for (const auto& w : workloads) jobs.push_back({&w, ps, {}, nullptr});
  } else if (o.command == "compare") {
    if (!o.knob.empty() || !o.policy.empty()) throw sim::usage_error("compare takes --policies, not --policy/--knob");
    if (!o.trace.empty()) throw sim::usage_error("--trace works with run only");
    const auto families = sim::builtin_families();
    for (const auto& w : workloads) {
      std::vector<std::string> specs;
      if (!o.policies.empty()) {
        specs = split(o.policies, ',', "--policies");
        // A spec's knobs are separated by ',' too: glue "name:a=1,b=2" back together.
        std::vector<std::string> glued;
        for (const auto& s : specs) {
          if (!glued.empty() && s.find(':') == std::string::npos && s.find('=') != std::string::npos &&
              glued.back().find(':') != std::string::npos)
            glued.back() += "," + s;
          else
            glued.push_back(s);
        }
        specs = glued;
        for (const auto& s : specs) jobs.push_back({&w, sim::parse_policy_spec(reg, s), {}, nullptr});
        continue;
      }
      for (const auto& fd : families)
        if (fd.name == w.family) specs = fd.rows;
      if (specs.empty())
        for (const auto& e : reg.entries())
          if (!schedsim_named_only(e.name)) specs.push_back(e.name);
      for (const auto& s : specs) {
        try {
          jobs.push_back({&w, sim::parse_policy_spec(reg, s), {}, nullptr});
        } catch (const sim::usage_error&) {
          // A seed row for a policy this build lacks (or a knob value it refuses): skipped.
        }
      }
    }
  } else {  // sweep
    if (o.policy.empty() || o.knob.empty()) throw sim::usage_error("sweep needs --policy NAME and --knob KNOB=v1,v2,...");
    if (!o.trace.empty()) throw sim::usage_error("--trace works with run only");
    const std::size_t eq = o.knob.find('=');
    if (eq == std::string::npos) throw sim::usage_error("--knob needs KNOB=v1,v2,...");
    const std::string kname = o.knob.substr(0, eq);
    if (eq + 1 == o.knob.size()) throw sim::usage_error("--knob: no values");
    const auto values = split(o.knob.substr(eq + 1), ',', "--knob");
    for (const auto& w : workloads)
      for (const auto& v : values) {
        const std::string spec = o.policy + (o.policy.find(':') == std::string::npos ? ":" : ",") + kname + "=" + v;
        jobs.push_back({&w, sim::parse_policy_spec(reg, spec), {}, nullptr});
      }
  }
  if (jobs.empty()) throw sim::usage_error("nothing to run (no requested policy is registered)");
  // Every run's result is held until the table is printed (a few KB each): a million runs of
  // a tiny workload took 2.8 GB. The cap is refused up front, before anything runs.
  constexpr std::size_t max_runs = 100000;
  if (jobs.size() * static_cast<std::size_t>(o.seeds) > max_runs)
    throw sim::usage_error(std::to_string(jobs.size()) + " runs x " + std::to_string(o.seeds) + " seeds = " +
                           std::to_string(jobs.size() * static_cast<std::size_t>(o.seeds)) + " runs, more than " +
                           std::to_string(max_runs) + " (fewer seeds, knob values or policies)");
  // Replications: each (workload, policy) run once per seed, the seeds of one run adjacent.
  {
    std::vector<job> all;
    for (const job& j : jobs)
      for (int k = 0; k < o.seeds; ++k) {
        all.push_back(j);
        all.back().seed = o.seed + static_cast<std::uint64_t>(k);
      }
    jobs.swap(all);
  }
  sim::trace_writer trace;
  run_jobs(jobs, o, o.trace.empty() ? nullptr : &trace);
  // compare over a workload's default rows (no --policies) leaves out a policy that refuses one
  // of its tasks (nicksched and SCHED_BATCH), with a note; asked for by name, it is an error.
  const bool default_rows = o.command == "compare" && o.policies.empty();
  std::vector<std::string> left_out;
  {
    std::vector<job> kept;
    for (auto& j : jobs) {
      if (j.error) {
        try {
          std::rethrow_exception(j.error);
        } catch (const sim::policy_refusal& e) {
          const std::string what = (e.positioned ? std::string(e.what()) : j.w->w.name + ": " + e.what()) +
                                   " under " + j.spec.text;
          if (!default_rows) throw input_error(what);
          if (left_out.empty() || left_out.back() != what) left_out.push_back(what);
          continue;
        } catch (const sim::workload_error& e) {
          throw input_error(e.positioned ? std::string(e.what()) : j.w->w.name + ": " + e.what());
        }
      }
      kept.push_back(std::move(j));
    }
    if (kept.empty() && !left_out.empty()) throw input_error(left_out.front());
    jobs.swap(kept);
  }
  for (const auto& why : left_out) std::fprintf(stderr, "schedsim: note: row left out: %s\n", why.c_str());
  std::string why;
  if (!o.trace.empty() && !trace.write_file(o.trace, &why))
    throw schedsim_report::output_error("--trace: cannot write '" + o.trace + "': " + why);
  if (!trace_note.empty()) std::fprintf(stderr, "schedsim: note: %s\n", trace_note.c_str());
  emit(jobs, o, o.command != "run");
  return 0;
}

}  // namespace

// Whatever went to stdout must have been written whole: a full disk, or a closed pipe where
// SIGPIPE is ignored, is an error (exit 2, as an unwritable --trace), not a success with a
// truncated table or JSON. (By default a closed stdout pipe ends schedsim by SIGPIPE, as any
// filter piped into `head`; output files, --trace included, never do: output_file.hpp.)
static int finish_stdout(int rc) {
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    const int err = errno;
    std::fprintf(stderr, "schedsim: cannot write the output (stdout): %s\n", err != 0 ? std::strerror(err) : "write error");
    return rc == 0 ? 2 : rc;
  }
  return rc;
}

int main(int argc, char** argv) {
  try {
    if (argc >= 2 && (std::string(argv[1]) == "plot" || std::string(argv[1]) == "report"))
      return finish_stdout(schedsim_report_main(argc, argv));
    return finish_stdout(real_main(argc, argv));
  } catch (const schedsim_report::output_error& e) {
    std::fprintf(stderr, "schedsim: %s\n", e.what());
    return 2;
  } catch (const sim::usage_error& e) {
    std::fprintf(stderr, "schedsim: %s\n%s", e.what(), usage_text);
    return 2;
  } catch (const input_error& e) {
    std::fprintf(stderr, "schedsim: %s\n", e.what());
    return 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "schedsim: internal error: %s\n", e.what());
    return 1;
  }
}
