// pelt_native: a duty-cycle task's PELT averages on the running kernel, and the same task's in
// schedcore's smp/pelt.hpp, for tools/kernel_pelt_check.sh. Linux only, hosted, never part of
// the library.
//
//   pelt_native kernel --run MS --period MS [--seconds S] [--samples N] [--cpu K]
//   pelt_native model  --run MS --period MS [--seconds S] [--samples N] [--hz HZ]
//
// The task runs (spins) RUN ms at the start of every PERIOD ms and sleeps the rest, for S
// seconds (default 4); after the first second, N samples (default 60) of its util_avg,
// runnable_avg and load_avg are taken at evenly spread instants that do not divide the period
// (every (S - 1) s / N + 0.37 ms).
// - kernel: a thread pinned to CPU K (default: the last CPU this process may use) runs the
//   cycle; the main thread reads the thread's /proc/self/task/TID/sched (se.avg.*), which shows
//   the values the kernel stored at its last update (enqueue, dequeue or tick).
// - model: the same cycle replayed on one pelt_avg, updated where the kernel updates it: at the
//   wakeup, at each tick while it runs (HZ, default 250) and when it sleeps; a sample reads the
//   stored values too.
// Output: one line, `util MEAN MIN MAX runnable MEAN MIN MAX load MEAN MIN MAX`.
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "schedcore/smp/pelt.hpp"

namespace {

struct options {
  std::string mode;
  double run_ms = 0, period_ms = 0, seconds = 4;
  int samples = 60, cpu = -1, hz = 250;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "pelt_native: %s\nusage: pelt_native kernel|model --run MS --period MS [--seconds S] [--samples N] "
               "[--cpu K] [--hz HZ]\n",
               why.c_str());
  std::exit(2);
}

options parse(int argc, char** argv) {
  if (argc < 2) usage("missing mode");
  options o;
  o.mode = argv[1];
  if (o.mode != "kernel" && o.mode != "model") usage("mode must be kernel or model, not '" + o.mode + "'");
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) usage(a + " needs a value");
    const char* v = argv[++i];
    char* end = nullptr;
    const double x = std::strtod(v, &end);
    if (end == v || *end != '\0') usage(a + ": not a number: '" + v + "'");
    if (a == "--run") o.run_ms = x;
    else if (a == "--period") o.period_ms = x;
    else if (a == "--seconds") o.seconds = x;
    else if (a == "--samples") o.samples = static_cast<int>(x);
    else if (a == "--cpu") o.cpu = static_cast<int>(x);
    else if (a == "--hz") o.hz = static_cast<int>(x);
    else usage("unknown option '" + a + "'");
  }
  if (!(o.period_ms >= 1 && o.period_ms <= 10000)) usage("--period takes milliseconds in [1, 10000]");
  if (!(o.run_ms > 0 && o.run_ms < o.period_ms)) usage("--run takes milliseconds in (0, period)");
  if (!(o.seconds >= 2 && o.seconds <= 600)) usage("--seconds takes [2, 600]");
  if (o.samples < 1 || o.samples > 100000) usage("--samples takes [1, 100000]");
  if (o.hz < 10 || o.hz > 10000) usage("--hz takes [10, 10000]");
  return o;
}

struct sample {
  double util, runnable, load;
};

void print(const std::vector<sample>& s) {
  auto stats = [&](double sample::*f) {
    double sum = 0, lo = 1e18, hi = -1e18;
    for (const sample& x : s) {
      sum += x.*f;
      lo = std::min(lo, x.*f);
      hi = std::max(hi, x.*f);
    }
    std::printf(" %.0f %.0f %.0f", sum / static_cast<double>(s.size()), lo, hi);
  };
  std::printf("util");
  stats(&sample::util);
  std::printf(" runnable");
  stats(&sample::runnable);
  std::printf(" load");
  stats(&sample::load);
  std::printf("\n");
}

std::int64_t to_ns(double ms) { return static_cast<std::int64_t>(ms * 1e6); }
std::int64_t sample_step_ns(const options& o) { return to_ns((o.seconds - 1) * 1000 / o.samples + 0.37); }

// ---- the model ----
std::vector<sample> run_model(const options& o) {
  using schedcore::pelt_avg;
  pelt_avg a{};
  const std::int64_t run = to_ns(o.run_ms), period = to_ns(o.period_ms), tick = 1000000000 / o.hz;
  const std::int64_t step = sample_step_ns(o);
  std::int64_t next_sample = 1000000000;
  std::vector<sample> out;
  auto take_samples_until = [&](std::int64_t t) {  // samples read the stored values
    while (next_sample < t && static_cast<int>(out.size()) < o.samples) {
      out.push_back({static_cast<double>(a.util_avg), static_cast<double>(a.runnable_avg), static_cast<double>(a.load_avg)});
      next_sample += step;
    }
  };
  auto update = [&](std::int64_t t, bool running) {
    take_samples_until(t);
    schedcore::pelt_update_entity(a, static_cast<std::uint64_t>(t), 1024, running, running);
  };
  const std::int64_t end = to_ns(o.seconds * 1000);
  for (std::int64_t start = 0; start < end; start += period) {
    update(start, false);  // the wakeup: it slept until now
    // Ticks on the grid k * tick while it runs; the first one after the wakeup.
    for (std::int64_t t = (start / tick + 1) * tick; t < start + run; t += tick) update(t, true);
    update(start + run, true);  // it sleeps: it ran until now
  }
  take_samples_until(end + 1);
  return out;
}

// ---- the kernel ----
std::atomic<bool> stop{false};
std::atomic<pid_t> worker_tid{0};

void spin_until(std::chrono::steady_clock::time_point t) {
  while (std::chrono::steady_clock::now() < t) {
  }
}

std::vector<sample> run_kernel(const options& o) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) usage("sched_getaffinity failed");
  int cpu = o.cpu;
  if (cpu < 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &allowed)) cpu = c;
  std::thread worker([&] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    pthread_setaffinity_np(pthread_self(), sizeof one, &one);
    worker_tid = static_cast<pid_t>(gettid());
    const auto run = std::chrono::nanoseconds(to_ns(o.run_ms)), period = std::chrono::nanoseconds(to_ns(o.period_ms));
    auto start = std::chrono::steady_clock::now();
    while (!stop) {
      spin_until(start + run);
      start += period;
      std::this_thread::sleep_until(start);
    }
  });
  while (worker_tid == 0) std::this_thread::yield();
  const std::string path = "/proc/self/task/" + std::to_string(worker_tid.load()) + "/sched";
  std::vector<sample> out;
  const auto t0 = std::chrono::steady_clock::now();
  const auto step = std::chrono::nanoseconds(sample_step_ns(o));
  auto next = t0 + std::chrono::seconds(1);
  while (static_cast<int>(out.size()) < o.samples) {
    std::this_thread::sleep_until(next);
    next += step;
    std::ifstream in(path);
    sample s{-1, -1, -1};
    for (std::string line; std::getline(in, line);) {
      const auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      std::string key = line.substr(0, colon);
      key.erase(std::remove(key.begin(), key.end(), ' '), key.end());
      const double v = std::atof(line.c_str() + colon + 1);
      if (key == "se.avg.util_avg") s.util = v;
      else if (key == "se.avg.runnable_avg") s.runnable = v;
      else if (key == "se.avg.load_avg") s.load = v;
    }
    if (s.util < 0 || s.runnable < 0 || s.load < 0) {
      stop = true;
      worker.join();
      std::fprintf(stderr, "pelt_native: %s has no se.avg.util_avg/runnable_avg/load_avg (kernel < 5.7?)\n",
                   path.c_str());
      std::exit(1);
    }
    out.push_back(s);
  }
  stop = true;
  worker.join();
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  print(o.mode == "model" ? run_model(o) : run_kernel(o));
  return 0;
}
