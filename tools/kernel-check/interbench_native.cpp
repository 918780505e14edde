// interbench_native: interbench's benchmarked tasks and CPU loads as real threads on the running
// Linux kernel, with the job-step bookkeeping schedsim uses (sim/interbench_job.hpp), so that
// schedsim's `interbench/<bench>/<load>` rows can be checked against a real scheduler on the
// same machine (tools/kernel_check.sh runs both and prints them side by side).
//
//   interbench_native [--duration S] [--burners N] [--cpu K | --no-pin] [--header] BENCH LOAD
//
//   --cpu K: the CPU to pin to (default: the first one this process may run on)
//
//   BENCH  audio | video | x | gaming      LOAD  none | video | x | burn
//
// What runs (interbench.md §1-3; the model's task shapes, scenarios.hpp interbench()):
// - The whole process is pinned to one CPU (`--cpu`), as interbench measures a
//   uniprocessor, and every thread is SCHED_OTHER at nice 0 except the main thread, which
//   becomes SCHED_FIFO 99 when it may (interbench's main process does, as root).
// - The benchmarked thread is created first and waits on a semaphore; then the load threads
//   start: `burn` is N spinning threads (interbench -L, default 4); `video` and `x` are those
//   tasks' job loops, unmeasured. One second later the main thread posts the semaphore. That is
//   interbench.c bench()'s order: the bench process and its threads are ready, waiting, before
//   main tells the load process to start its threads (and the model's: scenarios.hpp creates
//   the benchmarked task first). Under EEVDF the lag a thread leaves with when it first blocks
//   is kept through its 1 s wait, so what ran around its creation can decide whether it
//   preempts a running load when posted, and so the phase of its job steps against a periodic
//   load for the whole run. The benchmarked thread then runs its job loop for `--duration`
//   seconds (default 30; with X, rounded up to a multiple of 10 as interbench does, for X's ramp).
// - CPU work is time on the CPU, as in the model, not interbench's calibrated loop count: this
//   machine's CPU speed varies (see burn()).
// - Sleeps are absolute CLOCK_MONOTONIC sleeps with a 1 ns timer slack. Latency is measured
//   when the thread runs again, so it includes the timer's own expiry latency (interbench
//   subtracts that with its FIFO timekeeper thread; on an idle CPU it is a few µs here).
//
// Output: one row in schedsim's interbench table layout (bench, load, latency avg / interbench
// "SD" / max in ms, % desired CPU, % deadlines met; "-" for Gaming's deadlines). Exit status 2
// with a message for bad usage, 1 when the system refuses a thread or the CPU.
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "native_common.hpp"

#include "schedcore/sim/interbench_job.hpp"

namespace {

using schedcore::sim::interbench_job;
using kernel_check::burn;
using kernel_check::clock_ns;
using kernel_check::i64;
using kernel_check::mono_ns;
using kernel_check::parse_long;
using kernel_check::sleep_until;
constexpr i64 kMs = 1000000;  // ns

std::atomic<bool> stop_all{false};

// A check of burn() against the kernel's own books: the thread's CPU time (its CPU clock) per
// ns of nominal work, 1.00 when burn() counts time as the kernel charges it. The clock is read
// only at checkpoints where the kernel has just accounted the thread anyway: a periodic step's
// start, just after the wakeup that began it, and the job loop's start and end. Never in the
// middle of a run, where the read would end an expired slice on the spot (see burn()); so
// Gaming, which never sleeps, is checked over its whole run only.
struct work_meter {
  i64 nominal = 0;   // ns of work asked for up to the last checkpoint
  i64 spent = 0;     // ns of thread CPU time that took
  i64 since = -1;    // thread CPU clock at the last checkpoint
  i64 pending = 0;   // work asked for since then, ns
  void checkpoint() {
    const i64 cpu_now = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    if (since >= 0 && pending > 0) {
      spent += cpu_now - since;
      nominal += pending;
    }
    since = cpu_now;
    pending = 0;
  }
  void work(i64 ns) {
    pending += ns;
    burn(ns);
  }
  double ratio() const { return nominal > 0 ? static_cast<double>(spent) / static_cast<double>(nominal) : 1.0; }
};

// One task's job loop: interbench's emulate_audio / _video / _x / _game, until stop_all.
void job_loop(const std::string& kind, interbench_job& jb, work_meter& meter) {
  prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
  auto step = [&jb, &meter](i64 work, i64 interval, i64 pushback) {
    const i64 wake = jb.begin_step(mono_ns(), interval, pushback);
    if (wake != interbench_job::burn) {
      sleep_until(wake);
      return;
    }
    meter.checkpoint();
    meter.work(work);
    const i64 next = jb.finish(mono_ns());
    if (next != interbench_job::no_sleep) sleep_until(next);
  };
  meter.checkpoint();
  while (!stop_all.load(std::memory_order_relaxed)) {
    if (kind == "audio") {
      step(2500 * 1000, 50000 * 1000, 0);
    } else if (kind == "video") {
      step(6666 * 1000, 16666 * 1000, 0);
    } else if (kind == "x") {
      for (int i = 0; i <= 100 && !stop_all.load(std::memory_order_relaxed); ++i) step(i * kMs, (100 - i) * kMs, i * kMs);
    } else {  // gaming: 100 ms chunks, never sleeps
      jb.begin_chunk(mono_ns(), 100 * kMs);
      meter.work(100 * kMs);
      jb.finish(mono_ns());
    }
  }
  meter.checkpoint();
}

// Thread names (comm) that a sched_switch trace of the run can be read by: ib-bench-<bench>,
// ib-load-<load>, ib-burn<i> (at most 15 characters, the kernel's TASK_COMM_LEN).
void name_thread(const char* name) { prctl(PR_SET_NAME, reinterpret_cast<unsigned long>(name), 0UL, 0UL, 0UL); }

void spin_until_stopped() {
  while (!stop_all.load(std::memory_order_relaxed)) __asm__ __volatile__("" ::: "memory");
}

int usage(const char* why) {
  std::fprintf(stderr,
               "interbench_native: %s\n"
               "usage: interbench_native [--duration S] [--burners N] [--cpu K | --no-pin] [--header] BENCH LOAD\n"
               "       BENCH: audio | video | x | gaming   LOAD: none | video | x | burn (not BENCH itself)\n",
               why);
  return 2;
}


}  // namespace

int main(int argc, char** argv) {
  long duration = 30, burners = 4, cpu = -1;  // -1: the first CPU this process may run on
  bool pin = true, header = false;
  std::vector<std::string> pos;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](long lo, long hi, long& out) {
      if (i + 1 >= argc) return false;
      return parse_long(argv[++i], lo, hi, out);
    };
    if (a == "--duration") {
      if (!value(1, 3600, duration)) return usage("--duration takes whole seconds in [1, 3600]");
    } else if (a == "--burners") {
      if (!value(1, 64, burners)) return usage("--burners takes a thread count in [1, 64]");
    } else if (a == "--cpu") {
      if (!value(0, CPU_SETSIZE - 1, cpu)) return usage("--cpu takes a CPU number");
    } else if (a == "--no-pin") {
      pin = false;
    } else if (a == "--header") {
      header = true;
    } else if (!a.empty() && a[0] == '-') {
      return usage(("unknown option '" + a + "'").c_str());
    } else {
      pos.push_back(a);
    }
  }
  if (pos.size() != 2) return usage("expected BENCH and LOAD");
  const std::string bench = pos[0], load = pos[1];
  if (bench != "audio" && bench != "video" && bench != "x" && bench != "gaming")
    return usage(("unknown bench '" + bench + "'").c_str());
  if (load != "none" && load != "video" && load != "x" && load != "burn")
    return usage(("unknown load '" + load + "' (write, read, compile and memload need a disk model; not here)").c_str());
  if (bench == load) return usage("a task is not benchmarked against itself");
  // interbench rounds the duration up to a multiple of 10 s so that X completes whole ramps;
  // the rounding matters only when X runs, so only then is it applied.
  if ((bench == "x" || load == "x") && duration % 10 != 0) duration += 10 - duration % 10;

  if (pin && cpu < 0) {  // a container or cpuset may not include CPU 0
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
      for (int c = 0; c < CPU_SETSIZE && cpu < 0; ++c)
        if (CPU_ISSET(c, &allowed)) cpu = c;
    if (cpu < 0) cpu = 0;
  }
  if (pin) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(static_cast<int>(cpu), &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
      std::fprintf(stderr, "interbench_native: cannot pin to CPU %ld: %s\n", cpu, std::strerror(errno));
      return 1;
    }
  }
  std::vector<std::thread> threads;
  interbench_job load_job;  // a Video or X load's steps, not reported
  work_meter load_meter, bench_meter;
  // The benchmarked thread first, blocked on its start semaphore before any load thread runs
  // (interbench.c bench(): the bench process is ready before the load process starts its threads).
  sem_t start;
  sem_init(&start, 0, 0);
  interbench_job measured;
  std::thread bench_thread([&] {
    name_thread(("ib-bench-" + bench).c_str());
    sem_wait(&start);
    job_loop(bench, measured, bench_meter);
  });
  // While main sleeps, the new thread (on this CPU, or on any with --no-pin) runs to its
  // sem_wait and blocks; only then do the loads start.
  sleep_until(mono_ns() + 10 * kMs);
  if (load == "burn") {
    for (long i = 0; i < burners; ++i)
      threads.emplace_back([i] {
        name_thread(("ib-burn" + std::to_string(i)).c_str());
        spin_until_stopped();
      });
  } else if (load != "none") {
    threads.emplace_back([&load, &load_job, &load_meter] {
      name_thread(("ib-load-" + load).c_str());
      job_loop(load, load_job, load_meter);
    });
  }
  // Only now the main thread becomes FIFO 99 when allowed (interbench's main process), so that
  // it wakes the benchmarked thread and stops the run on time whatever the load does. Not
  // before: threads inherit their creator's policy.
  sched_param fifo{};
  fifo.sched_priority = 99;
  const bool main_fifo = pthread_setschedparam(pthread_self(), SCHED_FIFO, &fifo) == 0;
  const i64 t0 = mono_ns();
  sleep_until(t0 + 1000 * kMs);
  sem_post(&start);
  sleep_until(t0 + 1000 * kMs + duration * 1000 * kMs);
  stop_all.store(true);
  bench_thread.join();
  for (auto& t : threads) t.join();

  const auto j = measured.summary();
  if (header) {
    std::printf("# kernel: interbench_native on CPU %s, %ld s, %ld burners, main thread %s; work is time on the CPU "
                "(cpu/work: the thread's CPU clock per ns of work)\n",
                pin ? std::to_string(cpu).c_str() : "any", duration, burners, main_fifo ? "SCHED_FIFO 99" : "SCHED_OTHER");
    std::printf("bench      load  latency avg (ms)   +/- SD    max  %% desired CPU  %% deadlines met  cpu/work\n");
  }
  char dl[32];
  if (bench == "gaming")
    std::snprintf(dl, sizeof dl, "%s", "-");
  else
    std::snprintf(dl, sizeof dl, "%.1f", j.deadlines_met_pct);
  std::printf("%-6s %8s %17.3f %8.3f %6.1f %14.1f %16s %9.2f\n", bench.c_str(), load.c_str(), j.avg_ms, j.rms_ms,
              j.max_ms, j.desired_cpu_pct, dl, bench_meter.ratio());
  return 0;
}
