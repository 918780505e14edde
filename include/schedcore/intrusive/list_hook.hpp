/// @file
/// @brief Two-word hook of the circular doubly linked intrusive list, its link modes, and the
/// accessors that find a hook in a task (base class or data member) and the task from a hook.
///
/// @par Implementation notes
/// - Structure: a hook is exactly two pointers (`sc_next`, `sc_prev`; the `sc_` prefix keeps
///   base hooks from colliding with the task's own fields). It is a `detail::list_node`, the
///   type the list algorithms (intrusive/list.hpp, queue/prio_array.hpp) work on; list heads
///   are bare `list_node` sentinels.
/// - Link modes (Boost.Intrusive's `link_mode`): `list_link_mode::safe` (the default) keeps the
///   invariant "unlinked <=> `sc_next == nullptr`": hooks start null (constexpr), containers
///   null them on every removal and check them on every insertion, so a second insert or the
///   erase of an unlinked task is reported (`SCHEDCORE_MISUSE`) and refused with no state
///   change. `list_link_mode::normal` skips the two stores and the test; a removed hook then
///   keeps stale pointers and misuse is undefined, as with the kernel's `list_del`.
/// - Multi-membership: `Tag` distinguishes several hooks in one task (a run-queue hook and a
///   wait-queue hook), as ETL's link `ID`.
/// - Copying a hook yields an unlinked hook and assigning one is a no-op, so tasks that embed
///   hooks stay copyable without copying list membership (Boost's rule).
/// - Accessors: `list_base<T, Hook>` (hook is a base class: `static_cast`) and
///   `list_member<&T::hook>` (hook is a data member: the member's offset, read from the
///   pointer-to-member's object representation, which the Itanium C++ ABI used by GCC and
///   Clang on every schedcore target defines as the byte offset; no null-object tricks, so no
///   UB warnings). Both are O(1), a constant add or subtract after inlining.
/// - Omissions: no auto-unlink hooks (a destructor that unlinks would make hooks non-trivial
///   to destroy and would hide lifetime bugs in a kernel); no single-linked hook.
#ifndef SCHEDCORE_INTRUSIVE_LIST_HOOK_HPP
#define SCHEDCORE_INTRUSIVE_LIST_HOOK_HPP

#include "schedcore/core/traits.hpp"
#include "schedcore/core/types.hpp"

namespace schedcore {

/// How much a list hook remembers about being unlinked (Boost.Intrusive's `link_mode`).
enum class list_link_mode : u8 {
  normal,  ///< no bookkeeping: removal leaves stale pointers; misuse is undefined
  safe,    ///< removal nulls the hook, insertion checks it: misuse is reported and refused
};

namespace detail {

/// The node the list algorithms manipulate: two pointers, nothing else. Also the sentinel
/// (head) type of every list.
struct list_node {
  list_node* sc_next = nullptr;  ///< next node in the ring (null: unlinked, safe mode)
  list_node* sc_prev = nullptr;  ///< previous node in the ring
  constexpr list_node() noexcept = default;
  /// Copies are unlinked: membership is never copied.
  constexpr list_node(const list_node&) noexcept {}
  /// Assignment keeps the target's membership unchanged.
  constexpr list_node& operator=(const list_node&) noexcept { return *this; }
  ~list_node() = default;
};

/// Node-level algorithms on circular doubly linked rings with a sentinel (Boost's
/// `circular_list_algorithms`). All O(1) except `count`.
struct list_algo {
  using node = list_node;
  /// Makes `h` an empty ring (points to itself).
  static constexpr void init_header(node& h) noexcept { h.sc_next = h.sc_prev = &h; }
  /// True when the ring headed by `h` has no element.
  static constexpr bool empty(const node& h) noexcept { return h.sc_next == &h; }
  /// Links `n` just before `pos`.
  SCHEDCORE_ALWAYS_INLINE static constexpr void link_before(node& pos, node& n) noexcept {
    node* const prev = pos.sc_prev;
    n.sc_prev = prev;
    n.sc_next = &pos;
    prev->sc_next = &n;
    pos.sc_prev = &n;
  }
  /// Links `n` just after `pos`.
  SCHEDCORE_ALWAYS_INLINE static constexpr void link_after(node& pos, node& n) noexcept {
    node* const next = pos.sc_next;
    n.sc_next = next;
    n.sc_prev = &pos;
    next->sc_prev = &n;
    pos.sc_next = &n;
  }
  /// Unlinks `n` from its ring without touching `n` itself.
  SCHEDCORE_ALWAYS_INLINE static constexpr void unlink(node& n) noexcept {
    node* const next = n.sc_next;
    node* const prev = n.sc_prev;
    prev->sc_next = next;
    next->sc_prev = prev;
  }
  /// Moves the non-empty range [first, last] (inclusive, in ring order, not containing `pos`)
  /// to just before `pos`.
  static constexpr void transfer_before(node& pos, node& first, node& last) noexcept {
    // Close the gap the range leaves behind.
    first.sc_prev->sc_next = last.sc_next;
    last.sc_next->sc_prev = first.sc_prev;
    // Open one before pos.
    node* const prev = pos.sc_prev;
    prev->sc_next = &first;
    first.sc_prev = prev;
    last.sc_next = &pos;
    pos.sc_prev = &last;
  }
  /// Moves every element of the ring headed by `from` just before `pos` (O(1));
  /// `from` becomes empty. `pos` must not be in `from`'s ring.
  static constexpr void splice_all_before(node& pos, node& from) noexcept {
    if (empty(from)) return;
    node& first = *from.sc_next;
    node& last = *from.sc_prev;
    transfer_before(pos, first, last);
  }
  /// Exchanges the contents of the rings headed by `a` and `b` (O(1)).
  static constexpr void swap_rings(node& a, node& b) noexcept {
    node tmp;
    init_header(tmp);
    splice_all_before(tmp, a);
    splice_all_before(a, b);
    splice_all_before(b, tmp);
  }
  /// Number of elements (O(n)).
  static constexpr usize count(const node& h) noexcept {
    usize n = 0;
    for (const node* p = h.sc_next; p != &h; p = p->sc_next) ++n;
    return n;
  }
  /// Structural check of the ring headed by `h`: every forward link is matched by the back
  /// link and no link is null. With consistent back links the forward walk must come back to
  /// `h` (a node entered twice would have two predecessors), so this always terminates.
  /// Writes the element count to `n`.
  static constexpr bool verify_ring(const node& h, usize& n) noexcept {
    n = 0;
    const node* cur = &h;
    for (;;) {
      const node* const next = cur->sc_next;
      if (next == nullptr || next->sc_prev != cur) return false;
      if (next == &h) return true;
      cur = next;
      ++n;
    }
  }
};

}  // namespace detail

/// The hook a task embeds to be a member of one list at a time (two pointers).
/// @tparam Tag  distinguishes several hooks in one task (multi-membership)
/// @tparam Mode `list_link_mode::safe` (default: misuse detected) or `normal`
template <class Tag = void, list_link_mode Mode = list_link_mode::safe>
struct list_hook : detail::list_node {
  /// The hook's link mode, read by the containers.
  static constexpr list_link_mode link_mode = Mode;
  /// The tag, for accessors and diagnostics.
  using tag = Tag;

  /// An unlinked hook (constant-initialisable).
  constexpr list_hook() noexcept = default;

  /// True while the hook is in a container. Meaningful only in safe mode (a normal-mode hook
  /// cannot tell), so it exists only there.
  template <list_link_mode M = Mode, enable_if_t<M == list_link_mode::safe, int> = 0>
  constexpr bool is_linked() const noexcept {
    return sc_next != nullptr;
  }
};

static_assert(sizeof(list_hook<>) == 2 * sizeof(void*), "a list hook is two words");
static_assert(sizeof(list_hook<void, list_link_mode::normal>) == 2 * sizeof(void*),
              "a list hook is two words");

/// Accessor for a hook that is a base class of `T`: `struct task : list_hook<> {...};`.
template <class T, class Hook = list_hook<>>
struct list_base {
  static_assert(is_base_of_v<Hook, T>, "list_base<T, Hook>: Hook must be a base class of T");
  using value_type = T;    ///< the element type
  using hook_type = Hook;  ///< the hook type
  /// The hook inside `v`.
  SCHEDCORE_ALWAYS_INLINE static constexpr Hook& to_hook(T& v) noexcept { return static_cast<Hook&>(v); }
  /// The hook inside `v`.
  SCHEDCORE_ALWAYS_INLINE static constexpr const Hook& to_hook(const T& v) noexcept {
    return static_cast<const Hook&>(v);
  }
  /// The element that contains hook `h`.
  SCHEDCORE_ALWAYS_INLINE static constexpr T& to_value(Hook& h) noexcept { return static_cast<T&>(h); }
  /// The element that contains hook `h`.
  SCHEDCORE_ALWAYS_INLINE static constexpr const T& to_value(const Hook& h) noexcept {
    return static_cast<const T&>(h);
  }
};

/// Accessor for a hook that is a data member: `list_member<&task::rq_link>`.
template <auto MemberPtr>
struct list_member {
  /// The element type (the class of the member).
  using value_type = typename detail::member_pointer_traits<decltype(MemberPtr)>::class_type;
  /// The hook type (the type of the member).
  using hook_type = typename detail::member_pointer_traits<decltype(MemberPtr)>::member_type;
  /// The hook inside `v`.
  SCHEDCORE_ALWAYS_INLINE static constexpr hook_type& to_hook(value_type& v) noexcept { return v.*MemberPtr; }
  /// The hook inside `v`.
  SCHEDCORE_ALWAYS_INLINE static constexpr const hook_type& to_hook(const value_type& v) noexcept {
    return v.*MemberPtr;
  }
  /// The element that contains hook `h` (the kernel's `container_of`).
  SCHEDCORE_ALWAYS_INLINE static value_type& to_value(hook_type& h) noexcept {
    // Through void*: the element is as aligned as it is, which -Wcast-align cannot know.
    return *static_cast<value_type*>(static_cast<void*>(reinterpret_cast<char*>(&h) - detail::member_offset(MemberPtr)));
  }
  /// The element that contains hook `h`.
  SCHEDCORE_ALWAYS_INLINE static const value_type& to_value(const hook_type& h) noexcept {
    return *static_cast<const value_type*>(
        static_cast<const void*>(reinterpret_cast<const char*>(&h) - detail::member_offset(MemberPtr)));
  }
};

namespace detail {

/// Node-level view of an accessor: element <-> list_node, and the link mode.
template <class Accessor>
struct node_access {
  using value_type = typename Accessor::value_type;
  using hook_type = typename Accessor::hook_type;
  static constexpr bool safe = hook_type::link_mode == list_link_mode::safe;
  SCHEDCORE_ALWAYS_INLINE static list_node& to_node(value_type& v) noexcept {
    return static_cast<list_node&>(Accessor::to_hook(v));
  }
  SCHEDCORE_ALWAYS_INLINE static const list_node& to_node(const value_type& v) noexcept {
    return static_cast<const list_node&>(Accessor::to_hook(v));
  }
  SCHEDCORE_ALWAYS_INLINE static value_type& to_value(list_node& n) noexcept {
    return Accessor::to_value(static_cast<hook_type&>(n));
  }
  SCHEDCORE_ALWAYS_INLINE static const value_type& to_value(const list_node& n) noexcept {
    return Accessor::to_value(static_cast<const hook_type&>(n));
  }
  /// Safe mode: true for a hook in a list (a linked hook cannot be inserted again). Normal
  /// mode: never detected (false).
  SCHEDCORE_ALWAYS_INLINE static bool linked(const list_node& n) noexcept {
    return safe && n.sc_next != nullptr;
  }
  /// Safe mode: true for a null hook (an unlinked hook cannot be erased or dequeued). Normal
  /// mode: never detected (false).
  SCHEDCORE_ALWAYS_INLINE static bool unlinked(const list_node& n) noexcept {
    return safe && n.sc_next == nullptr;
  }
  /// Safe mode: mark the hook unlinked after removal.
  SCHEDCORE_ALWAYS_INLINE static void mark_unlinked(list_node& n) noexcept {
    if constexpr (safe) n.sc_next = n.sc_prev = nullptr;
  }
};

}  // namespace detail

}  // namespace schedcore

#endif
