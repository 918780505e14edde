/// @file
/// @brief `stair_array<T, Levels, Accessor>`: the staircase run queue of Con Kolivas'
/// Staircase Deadline (SD) and RSDL: active and expired priority arrays, a quota per level,
/// minor and major rotations (algorithms-legacy.md §2.2 and §2.3).
///
/// @par What it models (algorithms-legacy.md §2.2 RSDL [V], §2.3 SD-reconstructed [R])
/// - Two arrays, *active* and *expired*, of `Levels` dynamic levels (default 40: SD's
///   SCHED_NORMAL dynamic priorities 100..139; level = prio - 100). Real-time priorities
///   0..99 belong to the RT class in a `class_stack`, so the staircase needs only the 40 levels:
///   a one-word bitmap, one bit scan per pick. Level 0 is the most urgent.
/// - A quota per level in ns (RSDL's "the CPU also tracks a quota per priority level"):
///   `charge(level, ran)` consumes it; when it is used up the level closes and everything
///   still queued at it moves one level down (the runqueue *minor rotation*), ahead of the
///   tasks already queued there (they have waited longer). The lowest open level is the
///   *current level* (SD's `prio_level`); enqueues into the active array at a closed level are
///   placed at the current level instead (SD's "first slot >= max(own level, rq level)").
///   `enqueue_keep` is the exception SD's enqueue rule needs: a task returning within the same
///   rotation with quota left at a closed level keeps that level (RSDL: sleepers keep their
///   unused high-level quota). Minor rotations never move such tasks; they are simply the most
///   urgent until they leave.
/// - Closing the last level, or `major_rotation()`, is the *major rotation*: tasks still in the
///   active array keep their level and go ahead of the expired tasks at that level, the arrays
///   swap, the rotation epoch (SD's `prio_rotation`) increments, the current level returns to
///   0 and every level's quota is refilled.
/// - It is a container: which slot a task takes next, its per-task quota and its slot bitmap are
///   the SD policy's business (policy/sd.hpp). The §2.3 `prio_matrix` generator is provided
///   here as `sd_prio_matrix_row()` with `sd_next_slot()`, because the slot choice is a bit scan
///   on the same 40-bit layout.
///
/// @par Implementation notes
/// - Structure: two `detail::prio_lists<Levels>` (bitmap + sentinels, as prio_array; for
///   Levels > 64 also the cached most urgent level, so pick reads it instead of scanning two
///   bitmap levels; SD's 40 levels are one word, scanned on demand), pointers
///   to the active and expired one (a major rotation swaps two pointers), one task counter,
///   `quota_[Levels]` (remaining ns this rotation, may go negative by the last overrun) and
///   `refill_[Levels]` (ns restored at each major rotation).
/// - Priorities are not stored in tasks (see queue/prio_array.hpp): `dequeue` finds the level
///   and the array from the emptied list's sentinel (address range check), so a minor rotation
///   can move a whole level with one O(1) splice without touching the tasks in it.
/// - Invariants (`verify()`): both arrays' rings and bitmaps agree (valid_bitmapQ,
///   no_L1_orphans) and, for Levels > 64, each array's cached best level equals its bitmap's
///   find-first (every splice updates it through `mark`/`unmark`); the counter equals the total;
///   current level < Levels. (Active levels below the current level hold only `enqueue_keep`
///   tasks; which tasks those are is the policy's knowledge, so the SD policy's verify() checks
///   it.)
/// - Complexity: enqueue, enqueue_expired, dequeue, requeue_tail, pick, pop, charge without
///   rotation: O(1). A minor rotation is one splice + two bit updates, O(1); if a task was
///   queued at a level between the current level and the closing one (a wakeup that did not
///   preempt), each such non-empty level costs one more splice: at most `Levels`, a
///   compile-time constant. A major rotation splices each non-empty active level (O(Levels),
///   usually one) and refills `Levels` quotas.
/// - Overrun carries: the (negative) remainder of a closing level's quota is added to the next
///   level's quota, so a task that overran its level does not steal from the next one. At a
///   major rotation quotas are refilled and the overrun is forgotten.
/// - Omissions: no per-task bookkeeping (slot bitmap, rotation stamp, time slice: the SD
///   policy's `sd_entity`); no SCHED_BATCH/IDLEPRIO handling.
#ifndef SCHEDCORE_QUEUE_STAIR_ARRAY_HPP
#define SCHEDCORE_QUEUE_STAIR_ARRAY_HPP

#include "schedcore/core/assert.hpp"
#include "schedcore/core/bitops.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/intrusive/list_hook.hpp"
#include "schedcore/queue/prio_array.hpp"

namespace schedcore {

/// Number of dynamic SCHED_NORMAL levels in SD (prio 100..139).
inline constexpr unsigned sd_levels = 40;

/// The SD `prio_matrix` row for user priority `u` (0..39, nice + 20), reconstructed from
/// algorithms-legacy.md §2.3 [R]: bit s set means dynamic slot s (prio 100 + s) is usable
/// during one major rotation. With `step = 1600 / (40 - u)`, slot `39 - k/40` is set for
/// k = 0, step, 2*step, ... <= 1560, which gives `40 - u` evenly dithered slots that always
/// include slot 39 (nice -20: all 40; nice 0: every other slot; nice 10: 10; nice 19: slot 39
/// only). Out-of-range `u` answers 0 (no slot).
constexpr u64 sd_prio_matrix_row(unsigned u) noexcept {
  if (u >= sd_levels) return 0;
  const unsigned step = 1600u / (sd_levels - u);
  u64 row = 0;
  for (unsigned k = 0; k <= 1560u; k += step) row |= bit64(39u - k / 40u);
  return row;
}

/// The first slot >= `from` that `row` allows and `used` has not consumed, or `sd_levels`
/// when none is left this rotation (the task then belongs to the expired array): SD's
/// `next_entitled_slot` as a single bit scan. O(1).
constexpr unsigned sd_next_slot(u64 row, u64 used, unsigned from) noexcept {
  if (from >= sd_levels) return sd_levels;
  const u64 avail = row & ~used & (~u64{0} << from);
  return avail == 0 ? sd_levels : lowest_set_bit(avail);
}

/// What a quota charge or a rotation request did.
enum class stair_rotation : u8 {
  none,   ///< the level still has quota
  minor,  ///< a level closed; its tasks moved one level down
  major,  ///< the last level closed: arrays swapped, epoch incremented, quotas refilled
};

/// Active + expired staircase arrays with per-level quotas (see the file notes).
/// @tparam T        the task type (embeds a `list_hook`)
/// @tparam Levels   number of dynamic levels (default 40, SD's 100..139); 2..4096
/// @tparam Accessor `list_base<T, Hook>` (default) or `list_member<&T::hook>`
template <class T, unsigned Levels = sd_levels, class Accessor = list_base<T>>
class stair_array {
  static_assert(Levels >= 2, "a staircase needs at least two levels");
  using node = detail::list_node;
  using access = detail::node_access<Accessor>;
  using lists = detail::prio_lists<Levels, prio_order::lower_first>;
  static_assert(is_same_v<typename Accessor::value_type, T>, "accessor is for another element type");

 public:
  using value_type = T;                            ///< task type
  using accessor = Accessor;                       ///< hook accessor
  using hook_type = typename Accessor::hook_type;  ///< hook type
  using bitmap_type = prio_bitmap<Levels, prio_order::lower_first>;  ///< per-array bitmap
  static constexpr unsigned nr_levels = Levels;    ///< number of levels
  static constexpr unsigned npos = ~0u;            ///< "no level"

  /// Empty arrays, current level 0, epoch 0, every quota 0 (constant-initialisable).
  constexpr stair_array() noexcept : arrays_{}, active_(&arrays_[0]), expired_(&arrays_[1]) {}
  stair_array(const stair_array&) = delete;             ///< not copyable (intrusive)
  stair_array& operator=(const stair_array&) = delete;  ///< not assignable (intrusive)
  ~stair_array() = default;                             ///< trivial

  /// Queues `t` at the tail of `level` in the active array, or at the current level if `level`
  /// has already closed this rotation. Returns the level used. O(1).
  /// Misuse refused (answers npos): level >= Levels; `t` linked (safe mode).
  SCHEDCORE_ALWAYS_INLINE unsigned enqueue(T& t, unsigned level) noexcept {
    node& n = access::to_node(t);
    if (SCHEDCORE_MISUSE(level >= Levels) || SCHEDCORE_MISUSE(access::linked(n))) return npos;
    if (level < current_) level = current_;
    active_->link_tail(n, level);
    ++nr_;
    return level;
  }
  /// Queues `t` at the tail of `level` in the active array even if `level` has closed (a
  /// sleeper returning with quota left at a better level keeps it). O(1).
  /// Misuse refused: level >= Levels; `t` linked (safe mode).
  SCHEDCORE_ALWAYS_INLINE void enqueue_keep(T& t, unsigned level) noexcept {
    node& n = access::to_node(t);
    if (SCHEDCORE_MISUSE(level >= Levels) || SCHEDCORE_MISUSE(access::linked(n))) return;
    active_->link_tail(n, level);
    ++nr_;
  }
  /// As `enqueue`, at the head of the level (a preempted task keeps its place). O(1).
  SCHEDCORE_ALWAYS_INLINE unsigned enqueue_head(T& t, unsigned level) noexcept {
    node& n = access::to_node(t);
    if (SCHEDCORE_MISUSE(level >= Levels) || SCHEDCORE_MISUSE(access::linked(n))) return npos;
    if (level < current_) level = current_;
    active_->link_head(n, level);
    ++nr_;
    return level;
  }
  /// Queues `t` at the tail of `level` in the expired array (it runs after the next major
  /// rotation). O(1). Misuse refused: level >= Levels; `t` linked (safe mode).
  SCHEDCORE_ALWAYS_INLINE void enqueue_expired(T& t, unsigned level) noexcept {
    node& n = access::to_node(t);
    if (SCHEDCORE_MISUSE(level >= Levels) || SCHEDCORE_MISUSE(access::linked(n))) return;
    expired_->link_tail(n, level);
    ++nr_;
  }
  /// Removes `t` from whichever array and level holds it. O(1).
  /// Misuse refused: `t` unlinked (safe mode).
  SCHEDCORE_ALWAYS_INLINE void dequeue(T& t) noexcept {
    node& n = access::to_node(t);
    if (SCHEDCORE_MISUSE(access::unlinked(n))) return;
    if (!unlink(n)) return;
    access::mark_unlinked(n);
    --nr_;
  }
  /// Moves queued `t` (in either array) to the tail of `level` in the active array, clamped to
  /// the current level as `enqueue`. Returns the level used. O(1).
  /// Misuse refused (answers npos): level >= Levels; `t` unlinked (safe mode).
  SCHEDCORE_ALWAYS_INLINE unsigned requeue_tail(T& t, unsigned level) noexcept {
    node& n = access::to_node(t);
    if (SCHEDCORE_MISUSE(level >= Levels) || SCHEDCORE_MISUSE(access::unlinked(n))) return npos;
    if (!unlink(n)) return npos;
    if (level < current_) level = current_;
    active_->link_tail(n, level);
    return level;
  }

  /// The most urgent task of the active array, or nullptr when the active array is empty
  /// (the caller then performs `major_rotation()` if `!expired_empty()`). O(1).
  SCHEDCORE_ALWAYS_INLINE T* pick() const noexcept {
    if (active_->none()) return nullptr;
    return &access::to_value(*active_->first(active_->first_index_nonempty()));
  }
  /// Removes and returns the most urgent active task, or nullptr. O(1).
  SCHEDCORE_ALWAYS_INLINE T* pop() noexcept {
    if (active_->none()) return nullptr;
    node& n = active_->pop_first(active_->first_index_nonempty());
    access::mark_unlinked(n);
    --nr_;
    return &access::to_value(n);
  }
  /// The most urgent non-empty active level, or npos. O(1).
  unsigned best_level() const noexcept { return active_->first_index(); }
  /// The most urgent non-empty expired level, or npos. O(1).
  unsigned best_expired_level() const noexcept { return expired_->first_index(); }
  /// Head of `level` in the active array, or nullptr (also on misuse). O(1).
  T* first_active_at(unsigned level) const noexcept { return first_in(*active_, level); }
  /// Head of `level` in the expired array, or nullptr (also on misuse). O(1).
  T* first_expired_at(unsigned level) const noexcept { return first_in(*expired_, level); }

  /// The task queued after `t` at the same level of the same array, or nullptr if `t` is the
  /// last there. O(1). @pre `t` is queued in this stair_array
  T* next_at_same_level(const T& t) const noexcept {
    node* const nx = access::to_node(t).sc_next;
    return (active_->owns(nx) || expired_->owns(nx)) ? nullptr : &access::to_value(*nx);
  }

  /// True when nothing is queued in either array. O(1).
  bool empty() const noexcept { return nr_ == 0; }
  /// True when the active array is empty. O(1).
  bool active_empty() const noexcept { return active_->none(); }
  /// True when the expired array is empty. O(1).
  bool expired_empty() const noexcept { return expired_->none(); }
  /// Number of queued tasks in both arrays. O(1).
  usize nr_queued() const noexcept { return nr_; }
  /// The current level (SD's `prio_level`): levels above it have closed this rotation.
  unsigned current_level() const noexcept { return current_; }
  /// Number of major rotations so far (SD's `prio_rotation`), wrapping.
  u64 rotation_epoch() const noexcept { return epoch_; }
  /// The active array's bitmap (read only).
  const bitmap_type& active_bitmap() const noexcept { return active_->map; }
  /// The expired array's bitmap (read only).
  const bitmap_type& expired_bitmap() const noexcept { return expired_->map; }

  /// Quota left at `level` this rotation in ns (may be negative after an overrun; 0 on
  /// misuse). O(1).
  duration_ns level_quota(unsigned level) const noexcept {
    if (SCHEDCORE_MISUSE(level >= Levels)) return 0;
    return quota_[level];
  }
  /// Sets the quota of `level` for this rotation and every later one (the refill). O(1).
  /// Misuse refused: level >= Levels.
  void set_level_quota(unsigned level, duration_ns ns) noexcept {
    if (SCHEDCORE_MISUSE(level >= Levels)) return;
    quota_[level] = refill_[level] = ns;
  }
  /// Sets every level's quota, now and at every refill. O(Levels).
  void set_all_level_quotas(duration_ns ns) noexcept {
    for (unsigned i = 0; i < Levels; ++i) quota_[i] = refill_[i] = ns;
  }
  /// Adds `ns` (may be negative) to this rotation's quota of `level` only (for example the
  /// quota a waking task brings). O(1). Misuse refused: level >= Levels.
  void add_level_quota(unsigned level, duration_ns ns) noexcept {
    if (SCHEDCORE_MISUSE(level >= Levels)) return;
    quota_[level] += ns;
  }

  /// Charges `ran` ns to `level` (the level the running task was picked from; a closed level
  /// charges the current one). When the quota is used up (<= 0), closes every level up to and
  /// including it: a minor rotation, or a major one if it was the last level. O(1) (see notes).
  stair_rotation charge(unsigned level, duration_ns ran) noexcept {
    if (SCHEDCORE_MISUSE(level >= Levels)) return stair_rotation::none;
    if (level < current_) level = current_;
    quota_[level] -= ran;
    if (quota_[level] > 0) return stair_rotation::none;
    return close_through(level);
  }
  /// Closes the current level regardless of its quota: its tasks move one level down
  /// (O(1) splice), or, at the last level, a major rotation happens.
  stair_rotation minor_rotation() noexcept { return close_through(current_); }

  /// Major rotation: tasks still active keep their level ahead of the expired tasks there,
  /// active and expired swap, the epoch increments, the current level returns to 0 and every
  /// quota is refilled. O(Levels) with `Levels` a compile-time constant.
  void major_rotation() noexcept {
    for (unsigned l = active_->first_index(); l != npos; l = active_->map.find_next(l)) {
      active_->splice_level_to_head(l, *expired_, l);
    }
    lists* const t = active_;
    active_ = expired_;
    expired_ = t;
    ++epoch_;
    current_ = 0;
    for (unsigned i = 0; i < Levels; ++i) quota_[i] = refill_[i];
  }

  /// Full structural check, O(Levels + n): both arrays' rings and bitmaps (valid_bitmapQ,
  /// no_L1_orphans), the cached best levels, the counter.
  bool verify() const noexcept {
    usize total = 0;
    if (active_ == expired_) return false;
    if (!active_->verify(total) || !expired_->verify(total)) return false;
    return total == nr_ && current_ < Levels;
  }

 private:
  /// @cond INTERNAL
  /// Unlinks `n` and clears its level's bit in whichever array held it if the level emptied;
  /// false, with nothing changed, when debug checks find `n` in another container (reported
  /// and put back; release builds do not check, and this folds to `true`).
  bool unlink(node& n) noexcept {
    if (node* const s = lists::unlink(n)) {
      if (active_->owns(s)) {
        active_->unmark(active_->index_of(s));
      } else if (SCHEDCORE_ENABLE_ASSERTS != 0 && SCHEDCORE_MISUSE(!expired_->owns(s))) {
        lists::relink(n);
        return false;
      } else {
        expired_->unmark(expired_->index_of(s));
      }
    }
    return true;
  }
  T* first_in(const lists& a, unsigned level) const noexcept {
    if (SCHEDCORE_MISUSE(level >= Levels)) return nullptr;
    const node& h = a.heads[level];
    return h.sc_next == &h ? nullptr : &access::to_value(*h.sc_next);
  }
  /// Closes levels current_..level. Every active task at those levels moves to level + 1,
  /// the more urgent ones first, all ahead of the tasks already there.
  stair_rotation close_through(unsigned level) noexcept {
    if (level >= Levels - 1) {
      major_rotation();
      return stair_rotation::major;
    }
    // Normally only `level` itself is non-empty; earlier levels hold tasks only when they
    // arrived after `level` started running. Walk down so more urgent levels end up first.
    for (unsigned l = level + 1; l-- > current_;) active_->splice_level_to_head(l, *active_, level + 1);
    const duration_ns carry = quota_[level] < 0 ? quota_[level] : 0;
    quota_[level + 1] += carry;
    current_ = level + 1;
    return stair_rotation::minor;
  }
  /// @endcond

  lists arrays_[2];             ///< the two arrays; which is active changes at each major rotation
  lists* active_;               ///< the array tasks are picked from
  lists* expired_;              ///< the array for tasks that used all their slots
  usize nr_ = 0;                ///< tasks queued in both arrays
  unsigned current_ = 0;        ///< current level (SD's prio_level): lower levels are closed
  u64 epoch_ = 0;               ///< major rotations so far (SD's prio_rotation)
  duration_ns quota_[Levels] = {};   ///< ns left per level this rotation
  duration_ns refill_[Levels] = {};  ///< ns restored per level at each major rotation
};

}  // namespace schedcore

#endif
