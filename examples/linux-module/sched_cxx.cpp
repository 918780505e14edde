// The C++ half of the schedcore port module: the ports' shared scheduler and self-test
// (examples/cortex-m/portable, compiled here with the kernel's flags) and a work-item
// dispatcher that picks with a schedcore policy directly, run once over eevdf_policy and once
// over sd_policy.
//
// The dispatcher: CPU-bound work items, each with a nice value, are enqueued in a schedcore
// policy object; the dispatcher runs the picked item for one quantum of 1 ms (virtual time:
// `now` advances by one quantum per dispatch, no clock is read), charges it with tick(), and
// reschedules when the policy asks. Then it checks the shares against the policy's promise:
// - eevdf_policy (Linux 6.6+ fair class), nice -5 / 0 / 5 over 60 quanta: shares proportional
//   to the weights 3121 : 1024 : 335, each within `eevdf_lag_quanta` of the exact share (EEVDF
//   bounds lag by about one request: the 2.5 ms base slice, served in whole quanta).
// - sd_policy (Staircase Deadline, SD-reconstructed), nice 0 / 10 / 19, rr_interval 2 ms, over
//   exactly two major rotations: each item gets quota(nice) x slots(nice) per rotation
//   (algorithms-legacy.md §2.5 oracle 4), here 2 ms x 20, 1 ms x 10 and 1 ms x 1, so exactly
//   80 / 20 / 2 quanta of 102: nice 19 is never starved.
#include "sched_cxx.h"

#include "portable/sched.cpp"  // NOLINT: the scheduler is one translation unit with this glue
#include "portable/selftest.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "schedcore/policy/sd.hpp"

void schedcore_port_check_failed(const schedcore::check_failure& failure) noexcept {
  schedcore_port_warn(failure.expr, failure.file, failure.line);
}

namespace {

using schedcore::enqueue_flags;
using schedcore::sched_kind;
using schedcore::sched_params;
using schedcore::sched_time;

/// A work item for a policy whose per-task state is `Entity`.
template <class Entity>
struct work_item : Entity {
  char letter;
  unsigned quanta;    // quanta received
  unsigned checksum;  // the "work": a running sum, so each quantum does something observable
};
using eevdf_item = work_item<schedcore::eevdf_entity>;
using sd_item = work_item<schedcore::sd_entity>;

/// Enqueues `items` (already set up) and hands out `total` quanta; writes one letter per
/// quantum to `order` if it is not null. Returns the number of quanta handed out.
template <class Policy, class Item, unsigned N>
unsigned dispatch(Policy& policy, Item (&items)[N], unsigned total, char* order) noexcept {
  sched_time now{0};
  for (Item& it : items) policy.enqueue(it, now, enqueue_flags::initial);
  Item* curr = policy.pick_next(now);
  if (curr != nullptr) policy.set_next(*curr, now);
  unsigned q = 0;
  for (; curr != nullptr && q < total; ++q) {
    curr->quanta++;
    for (unsigned k = 0; k < 1000; ++k) curr->checksum = curr->checksum * 31u + k;  // the work
    if (order != nullptr) order[q] = curr->letter;
    now += schedcore::msec(1);
    if (policy.tick(*curr, now)) {
      policy.put_prev(*curr, now);
      curr = policy.pick_next(now);
      if (curr != nullptr) policy.set_next(*curr, now);
    }
  }
  if (order != nullptr) order[q] = '\0';
  return q;
}

/// Loads each item's nice value; false if the policy refuses one.
template <class Policy, class Item, unsigned N>
bool setup_items(Policy& policy, Item (&items)[N], const schedcore::s8 (&nices)[N]) noexcept {
  bool ok = true;
  for (unsigned i = 0; i < N; ++i) {
    items[i].letter = static_cast<char>('A' + i);
    ok = ok && policy.setup(items[i], sched_params{sched_kind::normal, nices[i], 0, 0, 0, 0}) == port::errc::ok;
  }
  return ok;
}

// ---- eevdf_policy ----------------------------------------------------------------------------
constexpr schedcore::s8 eevdf_nices[] = {-5, 0, 5};
constexpr unsigned eevdf_quanta = 60;
constexpr unsigned eevdf_lag_quanta = 3;

/// True when every item got its weight's share of `total`, give or take eevdf_lag_quanta.
template <unsigned N>
bool eevdf_shares_ok(const eevdf_item (&items)[N], unsigned total) noexcept {
  unsigned long sum_w = 0;
  for (const eevdf_item& it : items) sum_w += it.weight;
  for (const eevdf_item& it : items) {
    const unsigned long ideal = (static_cast<unsigned long>(total) * it.weight + sum_w / 2) / sum_w;
    const unsigned long got = it.quanta;
    if (got + eevdf_lag_quanta < ideal || got > ideal + eevdf_lag_quanta) return false;
  }
  return true;
}

// ---- sd_policy -------------------------------------------------------------------------------
constexpr schedcore::s8 sd_nices[] = {0, 10, 19};
constexpr unsigned sd_rotations = 2;

/// Slots a SCHED_NORMAL task of `nice` may use per major rotation. A plain loop, not
/// __builtin_popcountll (nor schedcore::popcount64): without -mpopcnt, as the kernel builds,
/// g++ turns those into a call to libgcc's __popcountdi2, which modpost cannot resolve.
template <class Policy>
constexpr unsigned sd_slots(int nice) noexcept {
  unsigned n = 0;
  for (schedcore::u64 row = Policy::slot_row(sched_kind::normal, nice); row != 0; row &= row - 1) ++n;
  return n;
}

/// True when every item got exactly quota x slots per major rotation and the run queue went
/// through exactly `sd_rotations` major rotations.
template <class Policy, unsigned N>
bool sd_shares_ok(const Policy& p, const sd_item (&items)[N], unsigned total, schedcore::u64 rotation0) noexcept {
  unsigned sum = 0;
  for (const sd_item& it : items) {
    const auto per_rotation = static_cast<unsigned>(p.quota_of_nice(it.nice) / schedcore::msec(1)) * sd_slots<Policy>(it.nice);
    if (it.quanta != sd_rotations * per_rotation) return false;
    sum += it.quanta;
  }
  return sum == total && p.prio_rotation() - rotation0 == sd_rotations;
}

// Constant-initialised globals (the module has no static constructors), too big for the
// kernel stack: the self-test's run queue (100 list heads, 1752 bytes, in the fixed
// configuration; 288 bytes in the default fair one), 2 x 40 lists in sd's stair array.
schedcore::eevdf_policy<eevdf_item> eevdf_rq;
schedcore::sd_policy<sd_item> sd_rq;
port::run_queue selftest_rq;

}  // namespace

extern "C" int schedcore_port_selftest(struct schedcore_port_result* out) {
  const port::selftest_result st = port::run_selftest(selftest_rq);
  out->sum = st.sum;
  out->failures = st.failures;
  out->selftest_prefix = port::selftest_line_prefix;

  // eevdf_policy: shares by weight.
  eevdf_item ei[3] = {};
  schedcore::eevdf_policy<eevdf_item>::knobs ek{};
  ek.base_slice = schedcore::usec(2500);
  ek.hz = 1000;  // one quantum is one tick
  bool eevdf_ok = eevdf_rq.configure(ek) == port::errc::ok && setup_items(eevdf_rq, ei, eevdf_nices);
  static_assert(eevdf_quanta < sizeof(out->order), "one letter per quantum, plus the NUL");
  out->dispatches = eevdf_ok ? dispatch(eevdf_rq, ei, eevdf_quanta, out->order) : 0;
  eevdf_ok = eevdf_ok && out->dispatches == eevdf_quanta && eevdf_shares_ok(ei, eevdf_quanta);
  for (unsigned i = 0; i < 3; ++i) out->quanta[i] = ei[i].quanta;

  // sd_policy: quota x slots per major rotation.
  sd_item si[3] = {};
  schedcore::sd_policy<sd_item>::knobs sk{};
  sk.rr_interval = schedcore::msec(2);  // short rotations: 51 quanta each
  bool sd_ok = sd_rq.configure(sk) == port::errc::ok && setup_items(sd_rq, si, sd_nices);
  unsigned sd_total = 0;
  for (const schedcore::s8 nice : sd_nices) {
    sd_total += sd_rotations * sd_slots<decltype(sd_rq)>(nice) *
                static_cast<unsigned>(sd_rq.quota_of_nice(nice) / schedcore::msec(1));
  }
  const schedcore::u64 rotation0 = sd_rq.prio_rotation();
  const unsigned sd_done = sd_ok ? dispatch(sd_rq, si, sd_total, nullptr) : 0;
  sd_ok = sd_ok && sd_done == sd_total && sd_shares_ok(sd_rq, si, sd_total, rotation0);
  for (unsigned i = 0; i < 3; ++i) out->sd_quanta[i] = si[i].quanta;
  out->sd_dispatches = sd_done;

  out->order_ok = eevdf_ok && sd_ok ? 1u : 0u;
  return st.failures == 0 && out->order_ok != 0 ? 0 : -22;  // -EINVAL: insmod fails visibly
}
