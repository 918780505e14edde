// The self-test shared by every target (host, Cortex-M3, rv32, rv64, the Linux module): a
// fixed pseudo-random sequence of scheduler events driven through port::run_queue, folded into
// a 64-bit checksum of the decisions. Every target must print the same checksum for the same
// policy (PORT_SCHED_FAIR), which proves the decisions do not depend on word size, compiler or
// environment.
//
// Where it behaves badly: it checks agreement, not correctness; correctness of the policies is
// the unit tests' job. The event mix is arbitrary.
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
    PORT_SCHED_FAIR ? "selftest fair: sum=" : "selftest fixed: sum=";

/// Runs the self-test. Uses only function-local state (constant-initialised statics would be
/// shared between calls; here everything lives on the stack: ~8 * 64 bytes).
inline selftest_result run_selftest() noexcept {
  constexpr unsigned n = 8;
  run_queue q;
  sched_entity se[n];
  bool asleep[n] = {};
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
  sched_time now{0};
  for (unsigned i = 0; i < n; ++i) {
    se[i].prio = static_cast<u8>(i % 4);
    se[i].policy = (i & 1) != 0 ? sched_entity::rt_policy::rr : sched_entity::rt_policy::fifo;
    se[i].nice = static_cast<s32>(i) * 3 - 10;
    se[i].weight = nice_to_weight(se[i].nice);
    q.enqueue(&se[i], now, false);
  }
  sched_entity* curr = q.pick_next(now);
  auto index_of = [&se](const sched_entity* p) noexcept {
    return p == nullptr ? 99u : static_cast<u32>(p - se);
  };
  auto resched = [&]() noexcept {
    if (curr != nullptr) q.put_prev(curr, now);
    curr = q.pick_next(now);
  };
  for (unsigned step = 0; step < 3000; ++step) {
    now += schedcore::usec(250);
    const u32 r = next_rand();
    const u32 k = (r >> 4) % n;
    switch (r % 8) {
      case 0: case 1: case 2: case 3:  // a tick
        if (curr != nullptr && q.tick(curr, now)) resched();
        break;
      case 4:  // the running task blocks
        if (curr != nullptr) {
          q.block(curr, now);
          asleep[index_of(curr)] = true;
          curr = q.pick_next(now);
        }
        break;
      case 5:  // a sleeper wakes
        if (asleep[k]) {
          asleep[k] = false;
          q.enqueue(&se[k], now, true);
          if (q.wakeup_preempt(&se[k], curr, now)) resched();
        }
        break;
      case 6:  // yield
        resched();
        break;
      case 7:  // priority / nice change of a queued task: dequeue, change, enqueue
        if (se[k].queued) {
          q.dequeue(&se[k], now);
          se[k].prio = static_cast<u8>((se[k].prio + 1) % 4);
          se[k].weight = nice_to_weight(se[k].nice = (se[k].nice + 7) % 20);
          q.enqueue(&se[k], now, false);
        }
        break;
    }
    fold(index_of(curr));
    // Consistency: queued + running + asleep == n.
    u32 queued = 0, sleeping = 0;
    for (unsigned i = 0; i < n; ++i) {
      queued += se[i].queued ? 1u : 0u;
      sleeping += asleep[i] ? 1u : 0u;
    }
    if (queued != q.nr_queued() || queued + sleeping + (curr != nullptr ? 1u : 0u) != n) ++failures;
  }
  fold(static_cast<u32>(se[0].vruntime) ^ static_cast<u32>(se[n - 1].vruntime));
  return {sum, failures};
}

}  // namespace port

#endif
