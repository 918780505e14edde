/// @file
/// @brief `prio_array<T, N, Order, Accessor>`: a priority bitmap plus one FIFO list per
/// priority, the run queue of Linux 2.6's O(1) scheduler (`struct prio_array`) and of POSIX
/// SCHED_FIFO/SCHED_RR.
///
/// @par Implementation notes
/// - Structure: `prio_bitmap<N, Order>` (bit p set <=> list p non-empty), for N > 64 the
///   cached index of the most urgent non-empty list (`best`), N sentinel list heads
///   (`detail::list_node`, two words each) and a task counter. Tasks embed a plain two-word
///   `list_hook`; see algorithms-legacy.md §1.1 for the kernel original (which adds a
///   permanently set delimiter bit; the bitmap's `empty()` test replaces it).
/// - Where the priority lives: the array never stores a task's priority. The caller passes it
///   to `enqueue*`/`requeue_tail` and keeps it in its own task (Linux's `p->prio`); the hook
///   stays two words. `dequeue` needs no priority: after unlinking a node, its old neighbours
///   are equal exactly when the node was alone, and then that neighbour is the sentinel of its
///   list, whose index (`sentinel - heads_`) is the bit to clear. So a caller may change its
///   task's priority field while the task is queued without corrupting the array, and the
///   staircase array (queue/stair_array.hpp) can move whole lists between priorities with one
///   splice. The cost: the array cannot answer "at which priority is t queued" in O(1).
/// - Why the cached index (N > 64 only; details and measurements at detail::prio_lists): pick
///   is the hottest operation of a scheduler. Through the two-level bitmap it is a chain load
///   L1 -> scan -> load L2 word -> scan -> load list head (measured 1.1-1.8 ns at N = 140,
///   against about 1.0-1.8 ns for a hand-written flat 140-level queue); with `best` it is load
///   `best` -> load list head (0.7-0.9 ns), whatever N (bench/prio_array_bench.cpp). The cache
///   costs an enqueue a compare and a conditional move, and a dequeue that empties the best
///   list the bit scans that pick no longer does; churn time stayed within noise, because pop
///   no longer waits for two scans before it can unlink. A one-word bitmap (N <= 64) is scanned
///   on demand: there the cache measured slower on churn than the one scan it saves.
/// - Invariants (`verify()`): every list is a consistent ring; bit p is set iff list p is
///   non-empty (seL4's `valid_bitmapQ` at queue level); the bitmap's own `valid_bitmapQ` and
///   `no_L1_orphans`; `best` (N > 64) equals the bitmap's find-first, npos when empty; the
///   counter equals the total list length.
/// - Complexity: enqueue (tail or head), dequeue, requeue_tail, pick, pop, best_prio, empty,
///   nr_queued: O(1). For N > 64 pick and best_prio read the cached index (no scan); a
///   dequeue or pop that empties the best list rescans (at most two bit scans). For N <= 64
///   pick is one bit scan. Pointer writes: 4 per link, 2 per unlink (safe
///   mode: 2 more, nulling the node's links), 6 per requeue_tail. verify: O(N + n).
/// - Misuse refused with no state change (`SCHEDCORE_MISUSE`): priority >= N; in safe link
///   mode also enqueueing a linked task or dequeueing an unlinked one. Dequeueing a task that
///   is queued in a *different* array is undefined (debug builds catch it when it empties a
///   list there).
/// - Omissions: no per-priority counters (Linux has none either); no iteration over all tasks
///   beyond `first_at`/`next` style walks through `bitmap().find_next`.
#ifndef SCHEDCORE_QUEUE_PRIO_ARRAY_HPP
#define SCHEDCORE_QUEUE_PRIO_ARRAY_HPP

#include "schedcore/bitmap/prio_bitmap.hpp"
#include "schedcore/core/assert.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/intrusive/list_hook.hpp"

namespace schedcore {

namespace detail {

/// Storage of prio_lists' cached most urgent index (`best`), present only for the two-level
/// bitmap (see prio_lists).
template <bool Cached>
struct prio_lists_best {
  /// Invariant: `best == map.find_first()` when `!map.empty()`, else npos (~0u).
  unsigned best = ~0u;
};
/// @cond INTERNAL
template <>
struct prio_lists_best<false> {};
/// @endcond

/// Bitmap + N list heads (+ the cached most urgent index for N > 64), without element types or
/// counters: the part prio_array and stair_array share. Node-level operations only; callers
/// validate priorities. Every bit change goes through `mark`/`unmark`/`unmark_best`, which
/// keep the cache exact.
///
/// Why a cache, and only for the two-level bitmap: there find-first is load L1 -> scan ->
/// dependent load of the L2 word -> scan before the list head can even be addressed; with the
/// index cached, pick is load `best` -> load head, and pop can unlink without waiting for a
/// scan. Measured at N = 140 (bench/prio_array_bench.cpp, g++ -O2): pick 16 -> 10
/// instructions, 1.1-1.8 -> 0.7-0.9 ns; churn +9 instructions (85 -> 95) yet no slower in time
/// (0.60-0.69x -> 0.56-0.72x of a hand-written bitmap queue, within run-to-run noise): pop
/// unlinks without waiting for two scans. For a one-word bitmap (N <= 64) the scan is a single load
/// + bit scan, so the cache would save one scan per pick and cost every enqueue a compare and
/// a store: measured at 40 levels, pick 13 -> 11 instructions (0.7 ns against 0.7-1.3 ns) but
/// churn 67 -> 77 instructions, about 1 ns slower, so the one-word form scans on demand.
/// Kept in O(1): a mark compares and keeps the more urgent index; an unmark rescans only when
/// it empties the best level (`clear_first_unchecked`: at most two scans).
template <unsigned N, prio_order Order>
struct prio_lists : prio_lists_best<prio_bitmap<N, Order>::two_level> {
  using node = list_node;
  using algo = list_algo;
  using bitmap_type = prio_bitmap<N, Order>;
  static constexpr unsigned npos = bitmap_type::npos;
  static constexpr bool cached = bitmap_type::two_level;  ///< true: `best` is maintained

  prio_bitmap<N, Order> map;  ///< bit p set <=> heads[p] non-empty
  node heads[N];              ///< sentinel of each priority's FIFO

  constexpr prio_lists() noexcept : map{}, heads{} {
    for (unsigned i = 0; i < N; ++i) algo::init_header(heads[i]);
  }

  /// Index of the most urgent non-empty list, or npos when every list is empty. O(1): one
  /// load (cached) or one load + one bit scan (one-word bitmap).
  SCHEDCORE_ALWAYS_INLINE unsigned first_index() const noexcept {
    if constexpr (cached) return this->best;
    else return map.empty() ? npos : map.find_first_unchecked();
  }
  /// True when every list is empty. O(1), no scan.
  SCHEDCORE_ALWAYS_INLINE bool none() const noexcept {
    if constexpr (cached) return this->best == npos;
    else return map.empty();
  }
  /// `first_index()` of a non-empty array (pick and pop test `none()` first, so the one-word
  /// form scans without re-testing for npos). @pre !none()
  SCHEDCORE_ALWAYS_INLINE unsigned first_index_nonempty() const noexcept {
    if constexpr (cached) return this->best;
    else return map.find_first_unchecked();
  }

  /// True when `p` is one of this array's sentinels (address range check).
  bool owns(const node* p) const noexcept {
    return reinterpret_cast<uptr>(p) - reinterpret_cast<uptr>(&heads[0]) < sizeof(heads);
  }
  /// Index of a sentinel of this array. @pre owns(s)
  unsigned index_of(const node* s) const noexcept { return static_cast<unsigned>(s - &heads[0]); }

  /// True when priority `p` is more urgent than the cached best (always true when empty:
  /// `best == npos`). lower_first: `p < best`, npos being the largest unsigned. higher_first:
  /// `p + 1 > best + 1`, where npos + 1 wraps to 0, below every `p + 1` (p < N <= 4096).
  SCHEDCORE_ALWAYS_INLINE static constexpr bool beats(unsigned p, unsigned b) noexcept {
    if constexpr (Order == prio_order::lower_first) return p < b;
    else return p + 1u > b + 1u;
  }
  /// Sets bit p and keeps `best`. O(1): no scan, one compare. The store is unconditional so
  /// the compiler can select without a branch (enqueues at random priorities would otherwise
  /// mispredict whenever one beats the cached best).
  SCHEDCORE_ALWAYS_INLINE void mark(unsigned p) noexcept {
    map.set_unchecked(p);
    if constexpr (cached) this->best = beats(p, this->best) ? p : this->best;
  }
  /// Clears bit p (its list just emptied) and keeps `best`: rescans only when p was the most
  /// urgent level. O(1).
  SCHEDCORE_ALWAYS_INLINE void unmark(unsigned p) noexcept {
    if constexpr (cached) {
      if (p == this->best) {
        unmark_best(p);
        return;
      }
    }
    map.clear_unchecked(p);
  }
  /// Clears bit p, the most urgent level, and rescans from p's own word first
  /// (`clear_first_unchecked`). Deliberately not forced inline: it is the one place with bit
  /// scans in it, and every dequeue/requeue/pop site of a policy would otherwise carry its own
  /// copy (measured +430 bytes of text in the Cortex-M3 port at -Os, where a 64-bit scan is
  /// two 32-bit ones); at -O2 the compiler still inlines it into hot loops. @pre p is the best
  void unmark_best(unsigned p) noexcept {
    if constexpr (cached) this->best = map.clear_first_unchecked(p);
    else map.clear_unchecked(p);
  }

  SCHEDCORE_ALWAYS_INLINE void link_tail(node& n, unsigned p) noexcept {
    algo::link_before(heads[p], n);
    mark(p);
  }
  SCHEDCORE_ALWAYS_INLINE void link_head(node& n, unsigned p) noexcept {
    algo::link_after(heads[p], n);
    mark(p);
  }
  /// Unlinks `n`; returns its list's sentinel if the list became empty, else nullptr.
  SCHEDCORE_ALWAYS_INLINE static node* unlink(node& n) noexcept {
    node* const next = n.sc_next;
    node* const prev = n.sc_prev;
    prev->sc_next = next;
    next->sc_prev = prev;
    return prev == next ? prev : nullptr;
  }
  /// Unlinks `n` (which is in this array) and clears its bit if its list became empty.
  /// False, with nothing changed, when debug checks find `n` in another array.
  SCHEDCORE_ALWAYS_INLINE bool unlink_and_update(node& n) noexcept {
    if (node* const s = unlink(n)) {
      // A node of another array emptied a list there: debug builds report it and put the node
      // back, so a handler that returns finds both arrays as they were (release builds do not
      // check: undefined, as documented, and this folds to `true`).
      if (SCHEDCORE_ENABLE_ASSERTS != 0 && SCHEDCORE_MISUSE(!owns(s))) {
        relink(n);
        return false;
      }
      unmark(index_of(s));
    }
    return true;
  }
  /// Puts back a node `unlink` just took out (its own links still name its neighbours). O(1).
  static void relink(node& n) noexcept {
    n.sc_prev->sc_next = &n;
    n.sc_next->sc_prev = &n;
  }
  /// First node of list `p`, the most urgent one. @pre p == first_index() != npos
  SCHEDCORE_ALWAYS_INLINE node* first(unsigned p) const noexcept { return heads[p].sc_next; }
  /// Unlinks and returns the first node of list `p`, the most urgent one. O(1): no scan
  /// unless the list empties (then `unmark_best` rescans). @pre p == first_index() != npos
  SCHEDCORE_ALWAYS_INLINE node& pop_first(unsigned p) noexcept {
    node& n = *heads[p].sc_next;
    if (unlink(n) != nullptr) unmark_best(p);  // p is the best level: no compare needed
    return n;
  }
  /// Moves all of list `from` to the head of list `to` (O(1)); updates both bits.
  void splice_level_to_head(unsigned from, prio_lists& dst, unsigned to) noexcept {
    if (algo::empty(heads[from])) return;
    node& first_node = *heads[from].sc_next;
    node& last_node = *heads[from].sc_prev;
    algo::transfer_before(*dst.heads[to].sc_next, first_node, last_node);
    // Mark before unmark: when dst is this array, the rescan in unmark then already sees `to`.
    dst.mark(to);
    unmark(from);
  }
  /// Bitmap/list agreement, ring consistency and the cached index; adds the element count
  /// to `total`.
  bool verify(usize& total) const noexcept {
    if (!map.verify()) return false;
    if constexpr (cached) {
      if (this->best != (map.empty() ? npos : map.find_first_unchecked())) return false;
    }
    for (unsigned p = 0; p < N; ++p) {
      usize n = 0;
      if (!algo::verify_ring(heads[p], n)) return false;
      if (map.test(p) != (n != 0)) return false;  // valid_bitmapQ at queue level
      total += n;
    }
    return true;
  }
};

}  // namespace detail

/// Bitmap + one FIFO list per priority; every operation O(1).
/// @tparam T        the task type (embeds a `list_hook`)
/// @tparam N        number of priorities (1..4096; 140 for Linux, 100 for POSIX RT)
/// @tparam Order    which end is most urgent (default `lower_first`, as Linux)
/// @tparam Accessor `list_base<T, Hook>` (default) or `list_member<&T::hook>`
template <class T, unsigned N, prio_order Order = prio_order::lower_first, class Accessor = list_base<T>>
class prio_array {
  using node = detail::list_node;
  using access = detail::node_access<Accessor>;
  using algo = detail::list_algo;
  static_assert(is_same_v<typename Accessor::value_type, T>, "accessor is for another element type");

 public:
  using value_type = T;                            ///< task type
  using accessor = Accessor;                       ///< hook accessor
  using hook_type = typename Accessor::hook_type;  ///< hook type
  using prio_type = unsigned;                      ///< priority number, 0..N-1
  using bitmap_type = prio_bitmap<N, Order>;       ///< the priority bitmap
  static constexpr unsigned nr_prios = N;          ///< number of priorities
  static constexpr prio_order order = Order;       ///< which end is most urgent
  static constexpr unsigned npos = bitmap_type::npos;  ///< "no priority"

  /// An empty array (constant-initialisable).
  constexpr prio_array() noexcept = default;
  prio_array(const prio_array&) = delete;             ///< not copyable (intrusive)
  prio_array& operator=(const prio_array&) = delete;  ///< not assignable (intrusive)
  ~prio_array() = default;                            ///< trivial

  /// Queues `t` at the tail of priority `p` (FIFO order). O(1).
  /// Misuse refused: p >= N; `t` already linked (safe mode).
  SCHEDCORE_ALWAYS_INLINE void enqueue(T& t, unsigned p) noexcept {
    node& n = access::to_node(t);
    if (SCHEDCORE_MISUSE(p >= N) || SCHEDCORE_MISUSE(access::linked(n))) return;
    lists_.link_tail(n, p);
    ++nr_;
  }
  /// Queues `t` at the head of priority `p` (it runs before its peers: the kernel's
  /// `enqueue_task_head`, POSIX's preempted-FIFO-task rule). O(1). Misuse as `enqueue`.
  SCHEDCORE_ALWAYS_INLINE void enqueue_head(T& t, unsigned p) noexcept {
    node& n = access::to_node(t);
    if (SCHEDCORE_MISUSE(p >= N) || SCHEDCORE_MISUSE(access::linked(n))) return;
    lists_.link_head(n, p);
    ++nr_;
  }
  /// Queues `t` right behind `after`, which is queued in this array, at `after`'s priority: a
  /// task that keeps its place across a parameter change (the kernel's dequeue and enqueue
  /// without DEQUEUE_MOVE). O(1). Misuse refused: `t` already linked, `after` unlinked (safe
  /// mode). @pre `after` is queued in this array (not another's)
  void enqueue_after(T& t, T& after) noexcept {
    node& n = access::to_node(t);
    node& a = access::to_node(after);
    if (SCHEDCORE_MISUSE(access::linked(n)) || SCHEDCORE_MISUSE(access::unlinked(a))) return;
    algo::link_after(a, n);  // a's level is already marked non-empty
    ++nr_;
  }
  /// Removes `t` from wherever it is queued in this array. O(1).
  /// Misuse refused: `t` unlinked (safe mode).
  SCHEDCORE_ALWAYS_INLINE void dequeue(T& t) noexcept {
    node& n = access::to_node(t);
    if (SCHEDCORE_MISUSE(access::unlinked(n))) return;
    if (!lists_.unlink_and_update(n)) return;
    access::mark_unlinked(n);
    --nr_;
  }
  /// Moves queued `t` to the tail of priority `p`: with `p` its current priority this is the
  /// round-robin requeue (Linux's `requeue_task`), otherwise a priority change. O(1).
  /// Misuse refused: p >= N; `t` unlinked (safe mode).
  SCHEDCORE_ALWAYS_INLINE void requeue_tail(T& t, unsigned p) noexcept {
    node& n = access::to_node(t);
    if (SCHEDCORE_MISUSE(p >= N) || SCHEDCORE_MISUSE(access::unlinked(n))) return;
    if (!lists_.unlink_and_update(n)) return;
    lists_.link_tail(n, p);
  }

  /// The most urgent task (head of the most urgent non-empty list), or nullptr. O(1).
  SCHEDCORE_ALWAYS_INLINE T* pick() const noexcept {
    if (lists_.none()) return nullptr;
    return &access::to_value(*lists_.first(lists_.first_index_nonempty()));
  }
  /// Removes and returns the most urgent task, or nullptr when empty. O(1).
  SCHEDCORE_ALWAYS_INLINE T* pop() noexcept {
    if (lists_.none()) return nullptr;
    node& n = lists_.pop_first(lists_.first_index_nonempty());
    access::mark_unlinked(n);
    --nr_;
    return &access::to_value(n);
  }
  /// The most urgent non-empty priority, or `npos` when empty. O(1).
  unsigned best_prio() const noexcept { return lists_.first_index(); }
  /// The head of priority `p`'s list, or nullptr (also on misuse, p >= N). O(1).
  T* first_at(unsigned p) const noexcept {
    if (SCHEDCORE_MISUSE(p >= N)) return nullptr;
    const node& h = lists_.heads[p];
    return h.sc_next == &h ? nullptr : &access::to_value(*h.sc_next);
  }
  /// The task queued after `t` at the same priority, or nullptr if `t` is the last. O(1).
  /// @pre `t` is queued in this array
  T* next_at_same_prio(const T& t) const noexcept {
    node* const nx = access::to_node(t).sc_next;
    return lists_.owns(nx) ? nullptr : &access::to_value(*nx);
  }
  /// The task queued before `t` at the same priority, or nullptr if `t` is the first. O(1).
  /// @pre `t` is queued in this array
  T* prev_at_same_prio(const T& t) const noexcept {
    node* const pv = access::to_node(t).sc_prev;
    return lists_.owns(pv) ? nullptr : &access::to_value(*pv);
  }
  /// True when nothing is queued. O(1).
  bool empty() const noexcept { return lists_.none(); }
  /// Number of queued tasks. O(1).
  usize nr_queued() const noexcept { return nr_; }
  /// The priority bitmap (read only).
  const bitmap_type& bitmap() const noexcept { return lists_.map; }

  /// Full structural check, O(N + n): rings, bitmap/list agreement (valid_bitmapQ), the
  /// bitmap's no_L1_orphans, and the counter.
  bool verify() const noexcept {
    usize total = 0;
    return lists_.verify(total) && total == nr_;
  }

 private:
  detail::prio_lists<N, Order> lists_;  ///< bitmap and list heads
  usize nr_ = 0;                        ///< number of queued tasks (Linux's nr_active)
};

}  // namespace schedcore

#endif
