// The portable scheduler part (see sched.hpp). Compiled as its own object so that the ports can
// measure its code size alone (`arm-none-eabi-size sched.o`).
#include "sched.hpp"

namespace port {

namespace {

void list_add_tail(list_hook* head, list_hook* n) noexcept {
  n->prev = head->prev;
  n->next = head;
  head->prev->next = n;
  head->prev = n;
}

#if !PORT_SCHED_FAIR
void list_add_head(list_hook* head, list_hook* n) noexcept {
  n->next = head->next;
  n->prev = head;
  head->next->prev = n;
  head->next = n;
}
#endif

void list_del(list_hook* n) noexcept {
  n->prev->next = n->next;
  n->next->prev = n->prev;
  n->next = n;
  n->prev = n;
}

}  // namespace

u32 nice_to_weight(s32 nice) noexcept {
  // Index 0 is nice -20. Each entry is ~1.25x the next, so one nice step moves ~10% of CPU.
  static const u32 table[40] = {
      88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
      9548,  7620,  6100,  4904,  3906,  3121,  2501,  1991,  1586,  1277,
      1024,  820,   655,   526,   423,   335,   272,   215,   172,   137,
      110,   87,    70,    56,    45,    36,    29,    23,    18,    15};
  if (nice < -20) nice = -20;
  if (nice > 19) nice = 19;
  return table[nice + 20];
}

void run_queue::update_curr(sched_entity* curr, sched_time now) noexcept {
  const duration_ns delta = now - curr->exec_start;
  if (delta <= 0) return;
  curr->exec_start = now;
  curr->slice_used += delta;
#if PORT_SCHED_FAIR
  // vruntime advances by delta * 1024 / weight. delta is at most a few ticks, so the product
  // fits in 32 bits (1 ms * 1024 < 2^31) and the division is a 32-bit udiv on Cortex-M3,
  // not a libgcc 64-bit call. Longer deltas are charged in pieces for the same reason.
  u64 left = static_cast<u64>(delta);
  constexpr u32 chunk = 1u << 21;  // ns per piece: 2^21 * 1024 = 2^31
  while (left != 0) {
    const u32 piece = left > chunk ? chunk : static_cast<u32>(left);
    curr->vruntime += (piece * 1024u) / curr->weight;
    left -= piece;
  }
#endif
}

#if PORT_SCHED_FAIR

void run_queue::enqueue(sched_entity* se, sched_time now, bool wakeup) noexcept {
  (void)now;
  if (wakeup) {
    // A sleeper may not bank its sleep: it starts at most half a period behind the pack, so
    // it gets a prompt turn without monopolising the CPU (CFS's GENTLE_FAIR_SLEEPERS idea).
    const u64 floor = min_vruntime_ - static_cast<u64>(fair_period / 2);
    if (static_cast<s64>(se->vruntime - floor) < 0) se->vruntime = floor;
  }
  list_add_tail(&all_, se);
  se->queued = true;
  ++nr_;
  if (se != curr_) total_weight_ += se->weight;
}

void run_queue::dequeue(sched_entity* se, sched_time now) noexcept {
  (void)now;
  list_del(se);
  se->queued = false;
  --nr_;
  total_weight_ -= se->weight;
}

sched_entity* run_queue::pick_next(sched_time now) noexcept {
  // O(n) scan for the smallest vruntime; ties go to the earliest queued (FIFO order).
  sched_entity* best = nullptr;
  for (list_hook* h = all_.next; h != &all_; h = h->next) {
    auto* se = static_cast<sched_entity*>(h);
    if (best == nullptr || static_cast<s64>(se->vruntime - best->vruntime) < 0) best = se;
  }
  if (best == nullptr) {
    curr_ = nullptr;
    return nullptr;
  }
  list_del(best);
  best->queued = false;
  --nr_;
  if (static_cast<s64>(best->vruntime - min_vruntime_) > 0) min_vruntime_ = best->vruntime;
  best->exec_start = now;
  best->slice_used = 0;
  curr_ = best;  // still counted in total_weight_ while it runs
  return best;
}

void run_queue::put_prev(sched_entity* se, sched_time now) noexcept {
  update_curr(se, now);
  list_add_tail(&all_, se);
  se->queued = true;
  ++nr_;
  curr_ = nullptr;
}

void run_queue::block(sched_entity* curr, sched_time now) noexcept {
  update_curr(curr, now);
  total_weight_ -= curr->weight;
  curr_ = nullptr;
}

bool run_queue::tick(sched_entity* curr, sched_time now) noexcept {
  update_curr(curr, now);
  if (nr_ == 0) return false;
  // Ideal slice: the period shared in proportion to weight, never below the minimum.
  // In us so that period * weight fits 32 bits (12000 * 88761 < 2^32): a 32-bit udiv on
  // Cortex-M3 instead of a libgcc 64-bit division.
  const u32 total = total_weight_ != 0 ? total_weight_ : 1u;
  duration_ns slice = static_cast<duration_ns>(
      static_cast<u32>(fair_period / 1000) * curr->weight / total) * 1000;
  if (slice < fair_min_slice) slice = fair_min_slice;
  return curr->slice_used >= slice;
}

bool run_queue::wakeup_preempt(sched_entity* woken, sched_entity* curr, sched_time now) noexcept {
  if (curr == nullptr) return true;
  update_curr(curr, now);
  return static_cast<s64>(curr->vruntime - woken->vruntime) > fair_wakeup_gran;
}

#else  // fixed priority

void run_queue::enqueue(sched_entity* se, sched_time now, bool wakeup) noexcept {
  (void)now;
  (void)wakeup;
  list_add_tail(&level_[se->prio], se);
  bitmap_ |= 1u << se->prio;
  se->queued = true;
  ++nr_;
}

void run_queue::dequeue(sched_entity* se, sched_time now) noexcept {
  (void)now;
  list_del(se);
  if (level_[se->prio].next == &level_[se->prio]) bitmap_ &= ~(1u << se->prio);
  se->queued = false;
  --nr_;
}

sched_entity* run_queue::pick_next(sched_time now) noexcept {
  if (bitmap_ == 0) return nullptr;
  const unsigned p = schedcore::lowest_set_bit(bitmap_);
  auto* se = static_cast<sched_entity*>(level_[p].next);
  dequeue(se, now);
  se->exec_start = now;
  return se;
}

void run_queue::put_prev(sched_entity* se, sched_time now) noexcept {
  update_curr(se, now);
  // A FIFO task, or an RR task with slice left, that was preempted keeps its place at the
  // head of its level (POSIX); an RR task whose slice ran out goes to the tail with a new one.
  if (se->policy == sched_entity::rt_policy::rr && se->slice_used >= rr_slice) {
    se->slice_used = 0;
    list_add_tail(&level_[se->prio], se);
  } else {
    list_add_head(&level_[se->prio], se);
  }
  bitmap_ |= 1u << se->prio;
  se->queued = true;
  ++nr_;
}

void run_queue::block(sched_entity* curr, sched_time now) noexcept { update_curr(curr, now); }

bool run_queue::tick(sched_entity* curr, sched_time now) noexcept {
  update_curr(curr, now);
  // RR: slice over and a peer at the same level is waiting. (Higher levels preempt on wakeup.)
  return curr->policy == sched_entity::rt_policy::rr && curr->slice_used >= rr_slice &&
         (bitmap_ & (1u << curr->prio)) != 0;
}

bool run_queue::wakeup_preempt(sched_entity* woken, sched_entity* curr, sched_time now) noexcept {
  (void)now;
  return curr == nullptr || woken->prio < curr->prio;
}

#endif

}  // namespace port
