// The self-test shared by every target (host, Cortex-M3, rv32, rv64, the Linux module): a
// fixed pseudo-random sequence of scheduler events driven through port::run_queue (the
// configured schedcore policy), folded into a 64-bit checksum of the decisions. Every target
// must print the same checksum for the same policy (PORT_SCHED_FAIR), which proves the
// decisions do not depend on word size, compiler or environment.
//
// Where it behaves badly: it checks agreement and structural consistency, not the policy's
// semantics; those are the unit tests' job (tests/unit/*_policy_test.cpp). The event mix is
// arbitrary.
#ifndef SCHEDCORE_PORT_SELFTEST_HPP
#define SCHEDCORE_PORT_SELFTEST_HPP

#include "sched.hpp"

namespace port {

/// Checksum of the decisions and the number of consistency failures seen.
struct selftest_result {
  u64 sum;
  u32 failures;
};

/// The text every target prints before the checksum (the tests grep for it).
inline constexpr const char* selftest_line_prefix =
    PORT_SCHED_FAIR == 3   ? "selftest mlfq: sum="
    : PORT_SCHED_FAIR == 2 ? "selftest stride: sum="
    : PORT_SCHED_FAIR      ? "selftest fair: sum="
                           : "selftest fixed: sum=";

/// Runs the self-test on `q`, which must be fresh (constant-initialised, never used): the
/// caller provides it because the fixed configuration's 100 list heads (800 bytes on 32-bit
/// targets, 1600 on 64-bit ones) would push this frame past the Linux kernel's 2 KiB
/// -Wframe-larger-than. Everything else lives on the stack (x86-64 -O2, -fstack-usage: 576
/// bytes fixed, 1408 fair, 896 stride, 640 mlfq).
inline selftest_result run_selftest(run_queue& q) noexcept {
  constexpr unsigned n = 8;
  constexpr unsigned levels = 4;  // fixed: rt_priority 10, 20, 30, 40
  sched_entity se[n];
  bool asleep[n] = {};
  u8 level[n] = {};
  s8 nice[n] = {};
  u32 rng = 12345u;
  auto next_rand = [&rng]() noexcept {
    rng = rng * 1664525u + 1013904223u;  // Numerical Recipes LCG: same on every target
    return rng >> 8;
  };
  u64 sum = 0xcbf29ce484222325ull;  // FNV-1a over the index of each decision
  auto fold = [&sum](u32 v) noexcept {
    sum ^= v;
    sum *= 0x100000001b3ull;
  };
  u32 failures = 0;
  auto params_of = [&](unsigned i) noexcept {
    const sched_kind kind = (i & 1) != 0 ? sched_kind::rr : sched_kind::fifo;
    return task_params(kind, static_cast<u8>(10 + 10 * level[i]), nice[i]);
  };
  sched_time now{0};
  if (!q.init()) ++failures;
  for (unsigned i = 0; i < n; ++i) {
    level[i] = static_cast<u8>(i % levels);
    nice[i] = static_cast<s8>(static_cast<int>(i) * 3 - 10);
    if (q.setup(se[i], params_of(i)) != errc::ok) ++failures;
    q.enqueue(se[i], now, false);
  }
  sched_entity* curr = q.schedule(nullptr, false, now);
  auto index_of = [&se](const sched_entity* p) noexcept {
    return p == nullptr ? 99u : static_cast<u32>(p - se);
  };
  auto resched = [&]() noexcept { curr = q.schedule(curr, curr != nullptr, now); };
  for (unsigned step = 0; step < 3000; ++step) {
    now += schedcore::usec(250);
    const u32 r = next_rand();
    const u32 k = (r >> 4) % n;
    switch (r % 8) {
      case 0: case 1: case 2: case 3:  // a tick
        if (curr != nullptr && q.tick(*curr, now)) resched();
        break;
      case 4:  // the running task blocks
        if (curr != nullptr) {
          q.dequeue(*curr, now, schedcore::dequeue_flags::sleep);
          asleep[index_of(curr)] = true;
          curr = q.schedule(nullptr, false, now);
        }
        break;
      case 5:  // a sleeper wakes
        if (asleep[k]) {
          asleep[k] = false;
          q.enqueue(se[k], now, true);
          if (curr == nullptr || q.wakeup_preempt(se[k], *curr, now)) resched();
        }
        break;
      case 6:  // yield
        if (curr != nullptr) q.yield(*curr, now);
        resched();
        break;
      case 7:  // parameter change of a runnable task (sched_setscheduler), then a reschedule
        if (is_runnable(se[k])) {
          level[k] = static_cast<u8>((level[k] + 1) % levels);
          nice[k] = static_cast<s8>((nice[k] + 7) % 20);
          if (q.change(se[k], params_of(k), &se[k] == curr, now) != errc::ok) ++failures;
          resched();
        }
        break;
    }
    fold(index_of(curr));
    // Consistency: runnable (queued or running) + asleep == n, the policy agrees, the running
    // task is runnable, and the policy's structure is intact.
    u32 runnable = 0, sleeping = 0;
    for (unsigned i = 0; i < n; ++i) {
      runnable += is_runnable(se[i]) ? 1u : 0u;
      sleeping += asleep[i] ? 1u : 0u;
    }
    if (runnable != q.nr_runnable() || runnable + sleeping != n) ++failures;
    if (curr != nullptr && !is_runnable(*curr)) ++failures;
    if (step % 64 == 0 && !q.verify()) ++failures;
  }
  fold(static_cast<u32>(digest(se[0]) ^ digest(se[n - 1])));
  return {sum, failures};
}

}  // namespace port

#endif
