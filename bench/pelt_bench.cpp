// PELT benchmarks: the cost of bringing one signal up to now (smp/pelt.hpp's
// pelt_update_entity, what a kernel or schedsim pays at each enqueue, dequeue and switch),
// against a floating-point exponential moving average with the same 32-period half-life (one
// std::exp per update: what one writes without PELT's table), in one binary.
//
//   BM_update/<structure>/<N>   N: the interval between updates, in us
//
// - N = 100: most updates stay inside a period (no decay, no division);
// - N = 1000: about one period boundary per update (the table decay, the closed-form sum and the
//   three average divisions);
// - N = 50000: about 48 periods per update (a shift, then the table).
// The task alternates running and sleeping, 7 updates each (the first run 6). The inputs are
// computed in the timed loop (an add and a divide by 7 per update), the same for both rows.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>

#include "schedcore/smp/pelt.hpp"

namespace {

// The floating-point baseline: util = util * d + 1024 (1 - d) while running, d = 2^(-dt / T),
// T = 32 periods of 1.048576 ms.
struct ewma {
  double util = 0;
  double load = 0;
  std::uint64_t last = 0;
  void update(std::uint64_t now, double weight, bool queued, bool running) {
    const double dt = static_cast<double>(now - last);
    last = now;
    const double d = std::exp2(-dt / (32.0 * 1048576.0));
    util = util * d + (running ? 1024.0 * (1 - d) : 0.0);
    load = load * d + (queued ? weight * (1 - d) : 0.0);
  }
};

void BM_update_pelt(benchmark::State& state) {
  const std::uint64_t step = static_cast<std::uint64_t>(state.range(0)) * 1000 + 17;  // off the unit grid
  schedcore::pelt_avg a{};
  std::uint64_t now = 0;
  unsigned k = 0;
  for (auto _ : state) {
    now += step;
    const bool on = (++k / 7) % 2 == 0;
    schedcore::pelt_update_entity(a, now, 1024, on, on);
    benchmark::DoNotOptimize(a);
  }
  state.counters["util"] = a.util_avg;
}

void BM_update_ewma(benchmark::State& state) {
  const std::uint64_t step = static_cast<std::uint64_t>(state.range(0)) * 1000 + 17;
  ewma e;
  std::uint64_t now = 0;
  unsigned k = 0;
  for (auto _ : state) {
    now += step;
    const bool on = (++k / 7) % 2 == 0;
    e.update(now, 1024.0, on, on);
    benchmark::DoNotOptimize(e);
  }
  state.counters["util"] = e.util;
}

}  // namespace

BENCHMARK(BM_update_pelt)->Name("BM_update/pelt")->Arg(100)->Arg(1000)->Arg(50000);
BENCHMARK(BM_update_ewma)->Name("BM_update/baseline_ewma")->Arg(100)->Arg(1000)->Arg(50000);

BENCHMARK_MAIN();
