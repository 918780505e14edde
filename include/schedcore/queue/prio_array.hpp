/// @file
/// @brief `prio_array<T, N, Order, Accessor>`: a priority bitmap plus one FIFO list per
/// priority, the run queue of Linux 2.6's O(1) scheduler (`struct prio_array`) and of POSIX
/// SCHED_FIFO/SCHED_RR.
///
/// @par Implementation notes
/// - Structure: `prio_bitmap<N, Order>` (bit p set <=> list p non-empty), N sentinel list heads
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
/// - Invariants (`verify()`): every list is a consistent ring; bit p is set iff list p is
///   non-empty (seL4's `valid_bitmapQ` at queue level); the bitmap's own `valid_bitmapQ` and
///   `no_L1_orphans`; the counter equals the total list length.
/// - Complexity: enqueue (tail or head), dequeue, requeue_tail, pick, pop, best_prio, empty,
///   nr_queued: O(1) (a bit scan or two, at most 5 pointer writes). verify: O(N + n).
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

/// Bitmap + N list heads, without element types or counters: the part prio_array and
/// stair_array share. Node-level operations only; callers validate priorities.
template <unsigned N, prio_order Order>
struct prio_lists {
  using node = list_node;
  using algo = list_algo;

  prio_bitmap<N, Order> map;  ///< bit p set <=> heads[p] non-empty
  node heads[N];              ///< sentinel of each priority's FIFO

  constexpr prio_lists() noexcept : map{}, heads{} {
    for (unsigned i = 0; i < N; ++i) algo::init_header(heads[i]);
  }

  /// True when `p` is one of this array's sentinels (address range check).
  bool owns(const node* p) const noexcept {
    return reinterpret_cast<uptr>(p) - reinterpret_cast<uptr>(&heads[0]) < sizeof(heads);
  }
  /// Index of a sentinel of this array. @pre owns(s)
  unsigned index_of(const node* s) const noexcept { return static_cast<unsigned>(s - &heads[0]); }

  SCHEDCORE_ALWAYS_INLINE void link_tail(node& n, unsigned p) noexcept {
    algo::link_before(heads[p], n);
    map.set_unchecked(p);
  }
  SCHEDCORE_ALWAYS_INLINE void link_head(node& n, unsigned p) noexcept {
    algo::link_after(heads[p], n);
    map.set_unchecked(p);
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
  SCHEDCORE_ALWAYS_INLINE void unlink_and_update(node& n) noexcept {
    if (node* const s = unlink(n)) {
      SCHEDCORE_ASSERT(owns(s));
      map.clear_unchecked(index_of(s));
    }
  }
  /// First node of the most urgent list. @pre !map.empty()
  SCHEDCORE_ALWAYS_INLINE node* first() const noexcept { return heads[map.find_first_unchecked()].sc_next; }
  /// Moves all of list `from` to the head of list `to` (O(1)); updates both bits.
  void splice_level_to_head(unsigned from, prio_lists& dst, unsigned to) noexcept {
    if (algo::empty(heads[from])) return;
    node& first_node = *heads[from].sc_next;
    node& last_node = *heads[from].sc_prev;
    algo::transfer_before(*dst.heads[to].sc_next, first_node, last_node);
    map.clear_unchecked(from);
    dst.map.set_unchecked(to);
  }
  /// Bitmap/list agreement and ring consistency; adds the element count to `total`.
  bool verify(usize& total) const noexcept {
    if (!map.verify()) return false;
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
  /// Removes `t` from wherever it is queued in this array. O(1).
  /// Misuse refused: `t` unlinked (safe mode).
  SCHEDCORE_ALWAYS_INLINE void dequeue(T& t) noexcept {
    node& n = access::to_node(t);
    if (SCHEDCORE_MISUSE(access::unlinked(n))) return;
    lists_.unlink_and_update(n);
    access::mark_unlinked(n);
    --nr_;
  }
  /// Moves queued `t` to the tail of priority `p`: with `p` its current priority this is the
  /// round-robin requeue (Linux's `requeue_task`), otherwise a priority change. O(1).
  /// Misuse refused: p >= N; `t` unlinked (safe mode).
  SCHEDCORE_ALWAYS_INLINE void requeue_tail(T& t, unsigned p) noexcept {
    node& n = access::to_node(t);
    if (SCHEDCORE_MISUSE(p >= N) || SCHEDCORE_MISUSE(access::unlinked(n))) return;
    lists_.unlink_and_update(n);
    lists_.link_tail(n, p);
  }

  /// The most urgent task (head of the most urgent non-empty list), or nullptr. O(1).
  SCHEDCORE_ALWAYS_INLINE T* pick() const noexcept {
    if (lists_.map.empty()) return nullptr;
    return &access::to_value(*lists_.first());
  }
  /// Removes and returns the most urgent task, or nullptr when empty. O(1).
  SCHEDCORE_ALWAYS_INLINE T* pop() noexcept {
    if (lists_.map.empty()) return nullptr;
    const unsigned p = lists_.map.find_first_unchecked();
    node& n = *lists_.heads[p].sc_next;
    if (detail::prio_lists<N, Order>::unlink(n) != nullptr) lists_.map.clear_unchecked(p);
    access::mark_unlinked(n);
    --nr_;
    return &access::to_value(n);
  }
  /// The most urgent non-empty priority, or `npos` when empty. O(1).
  unsigned best_prio() const noexcept { return lists_.map.empty() ? npos : lists_.map.find_first_unchecked(); }
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
  /// True when nothing is queued. O(1).
  bool empty() const noexcept { return lists_.map.empty(); }
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
