// The C++ half of the schedcore port module: the shared scheduler (compiled here with the
// kernel's flags, fair policy) and a work-item dispatcher built on it.
//
// The dispatcher: three work items with nice -5, 0 and 5 each ask for more CPU than the run
// lasts; the dispatcher hands out 1 ms quanta (virtual time: `now` advances by one quantum per
// dispatch, no clock is read) for 24 quanta, picking with the fair run queue and charging with
// tick(). Fair sharing means the shares follow the nice weights (3121 : 1024 : 335), so the
// nice -5 item must get the most quanta and the nice 5 item the fewest.
#include "sched_cxx.h"

#include "portable/sched.cpp"  // NOLINT: the scheduler is one translation unit with this glue
#include "portable/selftest.hpp"

void schedcore_port_check_failed(const schedcore::check_failure& failure) noexcept {
  schedcore_port_warn(failure.expr, failure.file, failure.line);
}

namespace {

struct work_item : port::sched_entity {
  char letter;
  unsigned quanta;   // quanta received
  unsigned checksum; // the "work": a running sum, so each quantum does something observable
};

}  // namespace

extern "C" int schedcore_port_selftest(struct schedcore_port_result* out) {
  const port::selftest_result st = port::run_selftest();
  out->sum = st.sum;
  out->failures = st.failures;

  port::run_queue rq;
  work_item items[3] = {};
  const port::s32 nices[3] = {-5, 0, 5};
  port::sched_time now{0};
  for (unsigned i = 0; i < 3; ++i) {
    items[i].letter = static_cast<char>('A' + i);
    items[i].nice = nices[i];
    items[i].weight = port::nice_to_weight(nices[i]);
    rq.enqueue(&items[i], now, false);
  }
  constexpr unsigned total = 24;
  port::sched_entity* curr = rq.pick_next(now);
  for (unsigned q = 0; q < total && curr != nullptr; ++q) {
    auto* w = static_cast<work_item*>(curr);
    w->quanta++;
    for (unsigned k = 0; k < 1000; ++k) w->checksum = w->checksum * 31u + k;  // the work
    out->order[q] = w->letter;
    now += schedcore::msec(1);
    if (rq.tick(curr, now)) {
      rq.put_prev(curr, now);
      curr = rq.pick_next(now);
    }
  }
  out->order[total] = '\0';
  out->dispatches = total;
  out->order_ok = items[0].quanta > items[1].quanta && items[1].quanta > items[2].quanta &&
                  items[2].quanta > 0;
  return st.failures == 0 && out->order_ok != 0 ? 0 : -22;  // -EINVAL: insmod fails visibly
}
