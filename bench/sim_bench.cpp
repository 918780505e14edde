// schedsim's own speed (issue 6: >= 5 million scheduling events per host second on one core for
// 1000 CPU hogs under cfs). BM_events/<policy>/<hogs>: one iteration = one whole simulated run
// of the `hogs-N` scenario (10 s simulated, 1 CPU) under schedsim's registered stack for the
// policy (class_stack<edf, rt, POLICY>, examples/schedsim/policy_entry.hpp): the very objects of
// the schedsim binary (the schedsim_policies object library, compiled with schedsim's flags: -O2
// in the release preset), so this is what `schedsim run --scenario hogs-1000 --policy POLICY`
// does. Counters:
//   events        scheduling events per run (deterministic, a change means the run changed);
//   events/s      events per second of this benchmark's CPU time, whole run (setup, report
//                 building and teardown included): a lower bound of the simulator's speed;
//   sim_events/s  the simulator's own figure (`totals.events_per_sec`: thread CPU time of the
//                 event loop), averaged over iterations: what issue 6 asks to be >= 5e6 for cfs.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "policies.hpp"
#include "schedcore/sim/registry.hpp"
#include "schedcore/sim/scenarios.hpp"

namespace {

namespace sim = schedcore::sim;

// schedsim's registered entry for `name` (every policy registered once, as schedsim does).
const sim::policy_entry& entry(const char* name) {
  static const sim::registry reg = [] {
    sim::registry r;
    schedsim_register_policies(r);
    return r;
  }();
  const sim::policy_entry* e = reg.find(name);
  if (e == nullptr) {
    std::fprintf(stderr, "sim_bench: schedsim registers no policy '%s'\n", name);
    std::exit(2);
  }
  return *e;
}

void BM_events(benchmark::State& state, const char* policy) {
  const sim::policy_entry& e = entry(policy);
  const sim::workload w = sim::hogs(static_cast<int>(state.range(0)));
  const sim::run_config cfg{};
  std::uint64_t events = 0, per_run = 0;
  double self_rate = 0;
  std::int64_t runs = 0;
  for (auto _ : state) {
    const sim::run_result r = e.run(w, cfg, {});
    per_run = r.totals.events;
    events += r.totals.events;
    self_rate += r.totals.events_per_sec;
    ++runs;
    benchmark::DoNotOptimize(r.totals.context_switches);
  }
  state.counters["events"] = static_cast<double>(per_run);
  state.counters["events/s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.counters["sim_events/s"] = runs > 0 ? self_rate / static_cast<double>(runs) : 0;
}

BENCHMARK_CAPTURE(BM_events, cfs, "cfs")->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_events, eevdf, "eevdf")->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_events, bfs, "bfs")->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_events, o1, "o1")->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_events, sd, "sd")->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
