// Uses every freestanding header so that the cross-target link test sees real code from each:
// instantiated templates, not just declarations. Grows with the library. Entry point:
// schedcore_freestanding_entry (no main, no C runtime).
#include "schedcore/schedcore.hpp"

namespace {

using namespace schedcore;

// A mutable value the optimiser cannot see through, so the calls below are not folded away.
volatile u64 sink;
volatile u64 source = 0x15a76ad270bd7233ull;

u64 exercise_core() noexcept {
  const u64 x = source;
  u64 acc = ctz64(x) + clz64(x) + popcount64(x) + ctz32(static_cast<u32>(x)) + ilog2(x);
  sched_time t{x};
  t += msec(4);
  acc += (t > sched_time{x}) ? 1u : 0u;
  acc += mul_u64_u32_shr(x, 0x1234567u, 22);
  acc += mul_div_u64(x, 1024u, 335u);
  using weight = fixed<s64, 10>;
  const weight w = weight::from_int(static_cast<s64>(x & 0xFFFF)) * weight::ratio(3, 7);
  acc += static_cast<u64>(w.round());
  if (SCHEDCORE_WARN_ON(acc == 0)) acc = 1;
  return acc;
}

}  // namespace

// One file per layer, each defining `u64 use_<layer>() noexcept` in an anonymous namespace
// that instantiates and calls that layer's templates with the `source` input.
#include "use_list_arrays.inc"
#include "use_tree.inc"
#include "use_policies_rt.inc"
#include "use_policies_o1.inc"
#include "use_policies_eevdf.inc"
#include "use_policies_sd.inc"
#include "use_policies_cfs.inc"
#include "use_policies_group.inc"
#include "use_smp.inc"

extern "C" int schedcore_freestanding_entry() noexcept {
  sink = exercise_core();
  sink = use_list_arrays();
  sink = use_tree();
  sink = use_policies_rt();
  sink = use_policies_o1();
  sink = use_policies_eevdf();
  sink = use_policies_sd();
  sink = use_policies_cfs();
  sink = use_policies_group();
  sink = use_smp();
  return 0;
}
