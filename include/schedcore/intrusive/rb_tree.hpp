/// @file
/// @brief `rb_tree`: the typed, intrusive, leftmost-cached red-black tree that run queues
/// (CFS timeline, EEVDF eligible tree, EDF deadline tree) are built on.
///
/// @par Implementation notes
/// - Algorithm: a red-black tree (rb_algorithms.hpp) over three-word hooks embedded in the
///   tasks (rb_hook.hpp); the tree itself is three words: root, cached leftmost task, size.
///   It never allocates, every function is noexcept, and no standard header is used.
/// - Order: `Less` is a stateless, default-constructible strict weak order on `const T&`
///   (wrap-safe for time keys: rb_member_less over a vtime / sched_time member, or
///   rb_member_wrap_less over a raw u64). Equal keys keep FIFO order: the insert descent sends
///   ties to the right, so a fresh task lands after every task with an equal key, rotations
///   preserve in-order position, and pop_front() returns equal-key tasks in insertion order.
///   This costs nothing, unlike a per-queue sequence tie-break (an extra word per task and a
///   second comparison per level), and matches CFS's `entity_before()` (strict `<`).
/// - Only the leftmost task is cached: a scheduler picks the minimum (pick is one load) and
///   pops it; nothing in schedcore asks for the maximum, and a rightmost cache would cost a
///   word and a store on every insert and erase for an O(log n) `back()` nobody calls on a hot
///   path (Linux's `rb_root_cached` reasons the same way).
/// - Branch-free descent: each level loads both children together with the key, and the
///   comparison only *selects* the next node (detail::rb_select_child: a `cmov` on x86-64 with
///   the left child as its memory operand, a mask select elsewhere; GCC turns a plain `?:` here
///   into a branch). The dependency chain per level is load key -> compare -> select instead
///   of load key -> compare -> branch or load child. Linux's `rb_add_cached` tracks leftmost
///   with a branch that random keys mispredict (perf-anchors.md); here the leftmost needs no
///   tracking at all (see the fast path below), so the loop's only branch is its exit.
/// - Raw-key descent: when `Less` exposes `wrap_key` (rb_member_wrap_less, and rb_member_less
///   over a vtime / sched_time member), a level is `cmp key, t; cmovs` on x86-64: the sign of
///   the wrap-safe subtraction drives the select, seven instructions per level, the shape of a
///   hand-written descent (Boost's compiles to the same). A policy's own comparator gets it by
///   declaring `static const u64& wrap_key(const T&)`; otherwise the comparator is called and
///   its bool selects (one `test` more per level).
/// - A branchy descent for trees much larger than the cache (speculate down the predicted
///   path to overlap misses) was evaluated and left out: a node's child pointers share the
///   cache line of its key, so a predicted branch still waits for the missing line before it
///   knows the next address; it only adds mispredictions (see descend()).
/// - Leftmost fast path: a task strictly before the current minimum (a wakeup placed left of
///   min_vruntime, a fresh earliest deadline) is linked as the leftmost's (empty) left child
///   with no descent: one comparison, then the usual rebalancing.
/// - Erase returns the fresh leftmost without a successor search unless the erased task *was*
///   the leftmost; then the successor is O(1): the leftmost has no left child, so it is its
///   right child (necessarily a red leaf) or else its parent. pop_front() goes further with
///   rb_algorithms::erase_leftmost(): the leftmost is its parent's left child with at most a
///   red leaf below it, so the unlink skips the two-children case and the "which side" test,
///   and yields the successor as a by-product.
/// - insert() and erase() are always inlined (as Linux's `rb_add_cached` is): the call and
///   register save cost about as much as a small tree's descent. The rebalancing loops are
///   ordinary functions the compiler may keep out of line.
/// - Invariants (checked by verify()): BST order under Less in an in-order walk, the five
///   red-black rules, parent back-links, every augmented value equal to its recomputation,
///   `size()` equal to the node count, the cached leftmost equal to the first node, and (safe
///   hooks) no linked node carrying the unlinked mark.
/// - Complexity: insert, erase O(log n) (O(1) descent for a fresh minimum; erase of the
///   leftmost needs no extra search);
///   front, empty, size O(1); pop_front O(log n); iteration O(1) amortised per step;
///   find_first_by_best O(log n); verify O(n) time, O(log n) stack; clear O(1) for normal
///   hooks, O(n) for safe hooks (each is reset).
/// - Misuse: with link_mode::safe hooks, insert of a linked task and erase of an unlinked one
///   are reported through `SCHEDCORE_MISUSE` and refused with no change of state. Erase of a
///   task linked in a *different* tree cannot be detected in O(1) and is undefined.
/// - Locking is the caller's: no function synchronises; the run-queue lock guards the tree and
///   every hook in it.
/// - Deliberately omitted: lookup by key, lower/upper bound, hinted insert and unique-key
///   insert (no scheduler needs them; rb_algorithms lets a port write one); a destructor that
///   checks emptiness (the tree stays trivially destructible, so it can be a static object in
///   a freestanding image without exit-time registration).
#ifndef SCHEDCORE_INTRUSIVE_RB_TREE_HPP
#define SCHEDCORE_INTRUSIVE_RB_TREE_HPP

#include "schedcore/core/assert.hpp"
#include "schedcore/core/config.hpp"
#include "schedcore/core/time.hpp"
#include "schedcore/core/traits.hpp"
#include "schedcore/core/types.hpp"
#include "schedcore/intrusive/rb_algorithms.hpp"
#include "schedcore/intrusive/rb_augment.hpp"
#include "schedcore/intrusive/rb_hook.hpp"

namespace schedcore {

/// @cond INTERNAL
namespace detail {
/// One level of the insert descent for a generic `Less`: the child on side `!c` of `n`, i.e.
/// `c ? n->child[0] : n->child[1]`, written so that compilers emit a conditional move rather
/// than a branch: `c` is a key comparison that random keys mispredict. On x86-64 the left
/// child is a memory operand of the cmov, so both children are read in parallel with the key
/// and the select waits only for the comparison.
SCHEDCORE_ALWAYS_INLINE rb_node* rb_select_child(unsigned c, rb_node* n) noexcept {
#if defined(__x86_64__) && defined(__LP64__) && !defined(SCHEDCORE_RB_PORTABLE_SELECT)  // not x32: its pointers are 32-bit
  // GCC turns a plain `c ? l : r` here into a branch even with an "unpredictable" hint.
  rb_node* r = n->sc_child[1];
  __asm__("testl %[c], %[c]\n\tcmovneq %[l], %[r]" : [r] "+r"(r) : [l] "m"(n->sc_child[0]), [c] "r"(c) : "cc");
  return r;
#else
  const uptr mask = uptr{0} - uptr{c};  // all ones when c == 1 (braces: a widening on 64-bit targets, no cast)
  const uptr ua = reinterpret_cast<uptr>(n->sc_child[0]);
  const uptr ub = reinterpret_cast<uptr>(n->sc_child[1]);
  return reinterpret_cast<rb_node*>(ub ^ ((ua ^ ub) & mask));
#endif
}

/// One level of the insert descent for a `Less` with a wrap key (rb_has_wrap_key): the child
/// of `n` on the side of `tkey` against `nkey` (`nkey` is n's key, in n's task), left when
/// `(s64)(tkey - nkey) < 0`. On x86-64 the sign flag of that subtraction (a `cmp`) drives the
/// cmov directly: two instructions per level on the critical path, the key and the left child
/// read as memory operands, the same shape as a hand-written descent.
SCHEDCORE_ALWAYS_INLINE rb_node* rb_select_child_wrap(u64 tkey, const u64& nkey, rb_node* n) noexcept {
#if defined(__x86_64__) && defined(__LP64__) && !defined(SCHEDCORE_RB_PORTABLE_SELECT)  // not x32: its pointers are 32-bit
  rb_node* r = n->sc_child[1];
  __asm__("cmpq %[k], %[t]\n\tcmovsq %[l], %[r]"
          : [r] "+r"(r)
          : [t] "r"(tkey), [k] "m"(nkey), [l] "m"(n->sc_child[0])
          : "cc");
  return r;
#else
  return rb_select_child(static_cast<unsigned>(static_cast<s64>(tkey - nkey) < 0), n);
#endif
}

/// True when `L` declares `static const u64& wrap_key(const T&)` (the raw key, in the task)
/// with the promise `L{}(a, b) == ((s64)(wrap_key(a) - wrap_key(b)) < 0)`: the descent may then
/// compare raw keys (rb_select_child_wrap) instead of calling `L`.
template <class L, class T, class = void>
inline constexpr bool rb_has_wrap_key = false;
template <class L, class T>
inline constexpr bool rb_has_wrap_key<L, T, void_t<decltype(L::wrap_key(declval<const T&>()))>> =
    is_same_v<decltype(L::wrap_key(declval<const T&>())), const u64&>;

/// True for basic_time<Tag> (whose `<` is wrap_before on the raw counter).
template <class K>
inline constexpr bool rb_is_basic_time = false;
template <class Tag>
inline constexpr bool rb_is_basic_time<basic_time<Tag>> = true;

}  // namespace detail
/// @endcond

/// The raw counter of a `basic_time` key, for a policy comparator's `wrap_key` (see
/// detail::rb_has_wrap_key): `basic_time` is standard-layout with the counter as its only member,
/// so the object and its counter are pointer-interconvertible. O(1), no load of its own.
template <class Tag>
inline const u64& rb_time_key(const basic_time<Tag>& t) noexcept {
  static_assert(sizeof(basic_time<Tag>) == sizeof(u64), "basic_time must be exactly its counter");
  return reinterpret_cast<const u64&>(t);
}

/// Orders tasks by a data member with the member type's `<`: use it with a wrap-safe key
/// (vtime, sched_time), e.g. `rb_member_less<&task::vruntime>`.
template <auto Member>
struct rb_member_less {
  /// The task type.
  using value_type = typename detail::member_pointer_traits<decltype(Member)>::class_type;
  /// True when `a`'s key is before `b`'s.
  constexpr bool operator()(const value_type& a, const value_type& b) const noexcept {
    return a.*Member < b.*Member;
  }
  /// The raw counter of a vtime / sched_time key, which lets the insert descent compare with
  /// two instructions per level (detail::rb_has_wrap_key). Absent for other key types.
  template <class V = value_type,
            enable_if_t<detail::rb_is_basic_time<typename detail::member_pointer_traits<decltype(Member)>::member_type> &&
                            is_same_v<V, value_type>,
                        int> = 0>
  static const u64& wrap_key(const V& a) noexcept { return rb_time_key(a.*Member); }
};

/// Orders tasks by a raw u64 time member with the wrap-safe `(s64)(a - b) < 0`
/// (wrap_before()), e.g. `rb_member_wrap_less<&task::deadline_ns>`.
template <auto Member>
struct rb_member_wrap_less {
  /// The task type.
  using value_type = typename detail::member_pointer_traits<decltype(Member)>::class_type;
  /// True when `a`'s key is before `b`'s on the wrapping 64-bit circle.
  constexpr bool operator()(const value_type& a, const value_type& b) const noexcept {
    return wrap_before(a.*Member, b.*Member);
  }
  /// The raw key, for the insert descent (detail::rb_has_wrap_key).
  static constexpr const u64& wrap_key(const value_type& a) noexcept { return a.*Member; }
};

/// An intrusive red-black tree of `T`, ordered by `Less`, leftmost cached.
///
/// @tparam T           the task type (it embeds the hook)
/// @tparam ValueTraits maps `T&` to its rb_hook and back: rb_member<&T::hook> or rb_base<T, H>
/// @tparam Less        stateless strict weak order on `const T&` (ties keep FIFO order)
/// @tparam Augment     no_augment or subtree_best<Traits>
///
/// The tree does not own its tasks: const member functions hand out `T*`, as the tasks are
/// the caller's. The caller holds the run-queue lock for every call.
template <class T, class ValueTraits, class Less, class Augment = no_augment>
class rb_tree {
 public:
  using value_type = T;                                   ///< the task type
  using value_traits = ValueTraits;                       ///< task <-> hook mapping
  using hook_type = typename ValueTraits::hook_type;      ///< the rb_hook in each task
  using node_traits = rb_node_traits;                     ///< NodeTraits of the hook
  using node = rb_node;                                   ///< node type of the algorithms
  using algorithms = rb_algorithms<rb_node_traits>;       ///< the node algorithms used
  using compare = Less;                                   ///< the order
  using augment = Augment;                                ///< the augmentation

  /// The hooks' link mode.
  static constexpr link_mode mode = hook_type::mode;

  static_assert(is_same_v<typename ValueTraits::value_type, T>, "ValueTraits must map T");
  static_assert(is_base_of_v<rb_node, hook_type>, "the hook must be an rb_hook");

  /// @cond INTERNAL
  struct node_to_value {
    using value_type = T;
    static SCHEDCORE_ALWAYS_INLINE T& value(node* n) noexcept {
      return ValueTraits::from_hook(static_cast<hook_type&>(*n));
    }
    static SCHEDCORE_ALWAYS_INLINE const T& value(const node* n) noexcept {
      return ValueTraits::from_hook(static_cast<hook_type&>(*const_cast<node*>(n)));
    }
  };
  using callbacks = typename Augment::template callbacks<rb_node_traits, node_to_value>;
  /// @endcond

  /// Forward iterator over the tasks in key order (ties in insertion order).
  class iterator {
   public:
    /// The end iterator.
    constexpr iterator() noexcept = default;
    /// An iterator at `t` (nullptr: end).
    constexpr explicit iterator(T* t) noexcept : t_(t) {}
    /// The current task. @pre not end
    T& operator*() const noexcept { return *t_; }
    /// The current task. @pre not end
    T* operator->() const noexcept { return t_; }
    /// Steps to the next task in order. @pre not end
    iterator& operator++() noexcept {
      node* n = algorithms::next(to_node(*t_));
      t_ = n ? &node_to_value::value(n) : nullptr;
      return *this;
    }
    /// Same position.
    friend bool operator==(iterator a, iterator b) noexcept { return a.t_ == b.t_; }
    /// Different positions.
    friend bool operator!=(iterator a, iterator b) noexcept { return a.t_ != b.t_; }

   private:
    T* t_ = nullptr;  ///< current task, nullptr at end
  };

  /// An empty tree (constexpr: static trees need no constructor at run time).
  constexpr rb_tree() noexcept = default;
  rb_tree(const rb_tree&) = delete;             ///< Tasks can be in one tree: no copies.
  rb_tree& operator=(const rb_tree&) = delete;  ///< Tasks can be in one tree: no copies.

  /// Inserts `t` after every task with an equal key.
  /// @pre `t` is not in any tree (checked, and refused, with link_mode::safe hooks)
  /// @return true when `t` became the leftmost (the fresh front()); false when it did not, or
  /// when the insert was refused as misuse.
  /// @par Complexity O(log n): one branch-free descent, then at most two rotations.
  SCHEDCORE_ALWAYS_INLINE bool insert(T& t) noexcept {
    node* const n = to_node(t);
    if constexpr (mode == link_mode::safe) {
      if (SCHEDCORE_MISUSE(!node_traits::is_unlinked(n))) return false;
    }
    const Less less{};
    node* parent;
    node** link;
    bool leftmost;
    if (first_ && less(t, *first_)) {
      // Strictly before the current minimum (a wakeup placed left of min_vruntime, a fresh
      // earliest deadline): the slot is the leftmost's empty left child. No descent.
      parent = to_node(*first_);
      link = node_traits::child_slot(parent, 0);
      leftmost = true;
    } else {
      // Not before the minimum, so t cannot become the leftmost unless the tree is empty: the
      // descent needs no "went left every time" bookkeeping. The side under parent is one
      // more comparison, on a node the descent just read.
      parent = descend(t);
      leftmost = first_ == nullptr;
      link = parent ? node_traits::child_slot(parent, static_cast<unsigned>(!less(t, node_to_value::value(parent))))
                    : &root_;
    }
    algorithms::template insert<callbacks>(n, parent, link, root_);
    first_ = leftmost ? &t : first_;  // a select: in a wakeup pattern leftmost is a coin flip
    ++size_;
    return leftmost;
  }

  /// Removes `t`.
  /// @pre `t` is in this tree (with link_mode::safe hooks, erase of an unlinked task is
  /// reported and refused)
  /// @return the fresh front() (nullptr if the tree became empty); on refusal, the unchanged
  /// front().
  /// @par Complexity O(log n); the fresh leftmost costs nothing extra (O(1) when `t` was it).
  SCHEDCORE_ALWAYS_INLINE T* erase(T& t) noexcept {
    node* const n = to_node(t);
    if constexpr (mode == link_mode::safe) {
      if (SCHEDCORE_MISUSE(node_traits::is_unlinked(n))) return first_;
    }
    erase_linked(t, n);
    return first_;
  }

  /// The leftmost (minimum) task, nullptr if empty. @par Complexity O(1): one load.
  T* front() const noexcept { return first_; }

  /// Removes and returns the leftmost task, nullptr if empty. @par Complexity O(log n)
  T* pop_front() noexcept {
    T* const f = first_;
    if (!f) return nullptr;
    node* const n = to_node(*f);
    // The leftmost has no left child and is its parent's left child: a shorter unlink that
    // also yields the successor (its right child, then a red leaf, or else its parent).
    node* const succ = algorithms::template erase_leftmost<callbacks>(n, root_);
    first_ = succ ? &node_to_value::value(succ) : nullptr;
    --size_;
    if constexpr (mode == link_mode::safe) node_traits::init_unlinked(n);
    return f;
  }

  /// True when the tree holds no task. @par Complexity O(1)
  bool empty() const noexcept { return first_ == nullptr; }

  /// Number of tasks. @par Complexity O(1)
  usize size() const noexcept { return size_; }

  /// The task at the root (its augmented value summarises the whole tree), nullptr if empty.
  T* root() const noexcept { return root_ ? &node_to_value::value(root_) : nullptr; }

  /// The rightmost (maximum) task, nullptr if empty. @par Complexity O(log n) (not cached)
  T* back() const noexcept {
    node* n = algorithms::last(root_);
    return n ? &node_to_value::value(n) : nullptr;
  }

  /// The task after `t` in order, nullptr if `t` is the last. @pre `t` is in this tree
  /// @par Complexity O(log n) worst, O(1) amortised over a walk.
  T* next(const T& t) const noexcept {
    node* n = algorithms::next(to_node(const_cast<T&>(t)));
    return n ? &node_to_value::value(n) : nullptr;
  }

  /// The task before `t` in order, nullptr if `t` is the first. @pre `t` is in this tree
  /// @par Complexity O(log n) worst, O(1) amortised over a walk.
  T* prev(const T& t) const noexcept {
    node* n = algorithms::prev(to_node(const_cast<T&>(t)));
    return n ? &node_to_value::value(n) : nullptr;
  }

  /// Iterator at front().
  iterator begin() const noexcept { return iterator(first_); }
  /// The end iterator.
  iterator end() const noexcept { return iterator(); }

  /// The first task in key order whose own augmented value satisfies `pred`, pruning subtrees
  /// whose subtree best fails `pred`; nullptr if none. Needs `Augment = subtree_best<...>`.
  ///
  /// `pred(best_type) -> bool` must be monotone in the best value (if it holds for some value
  /// it holds for every better one), so that "subtree best satisfies pred" is exactly "some
  /// task in the subtree does". EEVDF's pick: tree keyed by virtual deadline, min-vruntime
  /// augment, `pred = [V](vtime v) { return v <= V; }` gives the eligible task with the
  /// earliest virtual deadline.
  /// @par Complexity O(log n)
  template <class Pred>
  T* find_first_by_best(Pred pred) const noexcept {
    static_assert(callbacks::enabled, "find_first_by_best needs an augmented tree (subtree_best)");
    node* n = rb_find_first_pruned<rb_node_traits>(
        root_, [&pred](const node* x) noexcept { return callbacks::subtree_matches(x, pred); },
        [&pred](const node* x) noexcept { return callbacks::node_matches(x, pred); });
    return n ? &node_to_value::value(n) : nullptr;
  }

  /// Removes every task. With link_mode::safe hooks each is reset to unlinked (O(n)); with
  /// normal hooks only the tree is reset (O(1)) and the tasks' hooks are left stale.
  void clear() noexcept {
    if constexpr (mode == link_mode::safe) {
      // Post-order teardown through parent links: no stack, O(n).
      node* n = root_;
      while (n) {
        if (node* l = node_traits::get_child(n, 0)) {
          n = l;
          continue;
        }
        if (node* r = node_traits::get_child(n, 1)) {
          n = r;
          continue;
        }
        node* p = node_traits::get_parent(n);
        if (p) node_traits::set_child(p, static_cast<unsigned>(node_traits::get_child(p, 1) == n), nullptr);
        node_traits::init_unlinked(n);
        n = p;
      }
    }
    root_ = nullptr;
    first_ = nullptr;
    size_ = 0;
  }

  /// Full structural check: BST order, no red node with a red child, equal black height,
  /// parent links, recomputed augments, size and cached leftmost (and no unlinked mark on a
  /// linked safe hook). Use in tests and under `SCHEDCORE_INVARIANT(tree.verify())`.
  /// @return true when every invariant holds. @par Complexity O(n)
  bool verify() const noexcept {
    usize count = 0;
    if (!algorithms::verify_shape(root_, count)) return false;
    if (count != size_) return false;
    node* n = algorithms::first(root_);
    if ((n ? &node_to_value::value(n) : nullptr) != first_) return false;
    const Less less{};
    const node* prev = nullptr;
    for (; n; prev = n, n = algorithms::next(n)) {
      if (prev && less(node_to_value::value(n), node_to_value::value(prev))) return false;
      if (!callbacks::verify(n)) return false;
      if constexpr (mode == link_mode::safe) {
        if (node_traits::is_unlinked(n)) return false;
      }
    }
    return true;
  }

 private:
  /// The hook of `t` as an algorithms node.
  static SCHEDCORE_ALWAYS_INLINE node* to_node(T& t) noexcept {
    return static_cast<node*>(&ValueTraits::to_hook(t));
  }

  /// The node under which `t` is to be linked (nullptr: the tree is empty); ties go right.
  /// The side is recomputed by the caller with one more comparison on that (cached) node.
  ///
  /// Each level selects the next node with a conditional move (step()): the chain per level
  /// is load key -> compare -> select, with no misprediction. A branchy descent was measured
  /// against it for trees far larger than the cache (the idea: let the core speculate down
  /// the predicted path): it cannot overlap misses here, because a node's child pointers live
  /// in the same cache line as its key, so a predicted branch still waits for the line that
  /// holds the next address; it only adds a misprediction on about half the levels (callgrind:
  /// +2.2 per churn at 262144 tasks) for no measurable gain.
  /// @par Complexity O(log n)
  SCHEDCORE_ALWAYS_INLINE node* descend(const T& t) const noexcept {
    node* cur = root_;
    node* parent = nullptr;
    // Loop invariant: t belongs in the subtree at cur (nullptr: under parent).
    while (cur) {
      parent = cur;
      cur = step(t, cur);
    }
    return parent;
  }

  /// One branch-free descent level: the child of `cur` on t's side (ties right).
  static SCHEDCORE_ALWAYS_INLINE node* step(const T& t, node* cur) noexcept {
    if constexpr (detail::rb_has_wrap_key<Less, T>) {
      return detail::rb_select_child_wrap(Less::wrap_key(t), Less::wrap_key(node_to_value::value(cur)), cur);
    } else {
      return detail::rb_select_child(static_cast<unsigned>(Less{}(t, node_to_value::value(cur))), cur);
    }
  }

  /// Erase of a task known to be linked here; keeps first_ current without a successor search
  /// unless `t` is the leftmost.
  SCHEDCORE_ALWAYS_INLINE void erase_linked(T& t, node* n) noexcept {
    if (&t == first_) {
      // The leftmost has no left child: its successor is its right child (then a red leaf,
      // by rule 5) or its parent. (pop_front() uses the shorter erase_leftmost() instead; here
      // the general erase keeps erase() small enough to inline where any task may leave.)
      node* r = node_traits::get_child(n, 1);
      node* succ = r ? r : node_traits::get_parent(n);
      first_ = succ ? &node_to_value::value(succ) : nullptr;
    }
    algorithms::template erase<callbacks>(n, root_);
    --size_;
    if constexpr (mode == link_mode::safe) node_traits::init_unlinked(n);
  }

  node* root_ = nullptr;  ///< root node, nullptr when empty
  T* first_ = nullptr;    ///< leftmost task (the minimum), nullptr when empty
  usize size_ = 0;        ///< number of linked tasks
};

}  // namespace schedcore

#endif
